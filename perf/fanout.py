"""Fan-out: 8 models asked the same variant side by side must finish in about the time of the slowest one.

Starts the loopback OpenAI-compatible test server with 300 ms latency per answer, makes 8 distinct models on it,
and times the runner asking all of them one variant (after a warm-up round that opens the connections). Goal:
wall < 1.1 x 300 ms + 100 ms. Prints the wall time and its ratio to the slowest model's own latency.

    python perf/fanout.py [--models 8] [--latency 0.3] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fake_openai import FakeOpenAIServer  # noqa: E402
from PIL import Image  # noqa: E402

from probe_ui.images import CanonicalImage  # noqa: E402
from probe_ui.items import Variant  # noqa: E402
from probe_ui.messages import Response  # noqa: E402
from probe_ui.providers.base import ModelConfig  # noqa: E402
from probe_ui.runner import ProviderPool, execute_cells, plan_cells  # noqa: E402
from probe_ui.store import Store  # noqa: E402


def variant(i: int) -> Variant:
    im = CanonicalImage.from_pil(Image.new("RGB", (256, 256), (i % 256, 40, 90)))
    return Variant(item_id=f"bench-{i}", question=f"Which finding is shown ({i})?", kind="choice",
                   options=("Pneumothorax", "Pleural effusion"), answer="Pneumothorax", images=(im,), group="g")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=8)
    ap.add_argument("--latency", type=float, default=0.3)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    goal = 1.1 * args.latency + 0.1
    with FakeOpenAIServer(answer="A", latency_s=args.latency) as server, tempfile.TemporaryDirectory() as tmp:
        models = [ModelConfig(name=f"model-{k}", provider="openai", model=f"vlm-{k}", base_url=server.base_url)
                  for k in range(args.models)]
        store = Store(Path(tmp) / "bench.db")
        run = store.ensure_run("fanout", 0, {})
        walls, ratios = [], []

        async def rounds() -> str | None:
            pool = ProviderPool()  # created once, as in a batch or a live session
            try:
                for r in range(args.rounds + 1):  # round 0 warms up clients and connections
                    v = variant(r)
                    store.add_variants(run.id, [v])
                    cells = plan_cells([v], models, None, 0)
                    got: list[Response] = []
                    t0 = time.perf_counter()
                    await execute_cells(store, run, cells, pool, lambda c, resp: got.append(resp), use_cache=False)
                    wall = time.perf_counter() - t0
                    errors = [g.error for g in got if g.error]
                    if errors:
                        return errors[0]
                    slowest = max(g.latency_s for g in got)
                    if r:
                        walls.append(wall)
                        ratios.append(wall / slowest)
                        print(f"round {r}: {len(got)} models in {wall * 1000:.0f} ms wall; slowest model "
                              f"{slowest * 1000:.0f} ms; ratio {wall / slowest:.2f}")
            finally:
                await pool.aclose()
            return None

        error = asyncio.run(rounds())
        if error:
            print(f"error: {error}")
            return 1
    med = statistics.median(walls)
    verdict = "PASS" if med < goal else "FAIL"
    print(f"median wall {med * 1000:.0f} ms for {args.models} models at {args.latency * 1000:.0f} ms latency "
          f"(goal < {goal * 1000:.0f} ms): {verdict}; "
          f"median ratio to the slowest model {statistics.median(ratios):.2f}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
