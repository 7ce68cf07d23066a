"""Rate limits: a batch against a provider that allows 10 requests a second loses no cell and hammers no more than it
must.

Starts the throttled loopback server (tests/throttled_openai.py: a token bucket of ``--rate`` requests a second,
one second's burst, 429 with ``Retry-After`` and OpenAI's ``x-ratelimit-*`` headers beyond that, ``--latency`` s a
reply) and runs the ``--items``-item workload (tiny images) through :func:`probe_ui.runner.run_batch` four ways:
one model and three models on the server, each at the default concurrency and at ``--concurrency 32``. For each it
prints the failed cells, the wall time against the provider's floor (requests / rate: 200 / 10 = 20 s for one
model, 60 s for three) and the refused requests as a share of the accepted ones.

Goals (issue 50): 0 failed cells, wall <= 1.3 x floor, refused <= 25 % of accepted. Exits 1 if any is missed.

    python perf/rate_limits.py [--items 200] [--rate 10] [--latency 0.2] [--only 1x32] [--integer-retry-after]
        [--no-rate-headers]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers import choice_item, write_png, write_preset  # noqa: E402
from throttled_openai import ThrottledOpenAIServer  # noqa: E402

from probe_ui.presets import load_preset  # noqa: E402
from probe_ui.runner import BatchOptions, run_batch  # noqa: E402
from probe_ui.store import Store  # noqa: E402

WALL_GOAL = 1.3
REFUSED_GOAL = 0.25


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument("--rate", type=float, default=10.0)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--integer-retry-after", action="store_true",
                    help="Retry-After in whole seconds (at least 1), as many servers send it")
    ap.add_argument("--no-rate-headers", action="store_true",
                    help="the server sends no x-ratelimit-* headers: only a refusal's Retry-After tells the client")
    ap.add_argument("--only", action="append", default=[],
                    help="run only these cases: MODELSxCONCURRENCY, e.g. 1xdefault, 3x32")
    args = ap.parse_args()
    os.environ.setdefault("PROBE_UI_SEND_GATE", "off")
    for var in ("NO_PROXY", "no_proxy"):
        os.environ[var] = ",".join(x for x in ("127.0.0.1", "localhost", os.environ.get(var, "")) if x)
    cases = [(1, None), (1, 32), (3, None), (3, 32)]
    if args.only:
        cases = [c for c in cases if f"{c[0]}x{c[1] or 'default'}" in args.only]
    missed = 0
    print(f"{args.items} items, {args.rate:g} requests/s (burst {round(args.rate)}), {args.latency:g} s a reply, "
          f"{'whole-second' if args.integer_retry_after else 'fractional'} Retry-After, "
          f"{'no ' if args.no_rate_headers else ''}x-ratelimit-* headers, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(8):
            write_png(folder / f"im{i}.png", size=(32, 32), seed=i)
        preset = load_preset(write_preset(folder / "p.yaml",
                                          [choice_item(i, f"im{i % 8}.png", answer="B")
                                           for i in range(args.items)]))
        for n_models, concurrency in cases:
            server = ThrottledOpenAIServer(rate_per_s=args.rate, latency_s=args.latency, answer="B",
                                           integer_retry_after=args.integer_retry_after,
                                           rate_headers=not args.no_rate_headers)
            server.start()
            try:
                os.environ["OPENAI_BASE_URL"] = server.base_url
                os.environ["OPENAI_API_KEY"] = "sk-bench"
                store = Store(str(folder / f"b{n_models}-{concurrency}.db"))
                specs = [f"openai/vlm-{k}" for k in range(n_models)]
                t0 = time.perf_counter()
                result = run_batch(store, [preset], specs,
                                   BatchOptions(run_name="bench", concurrency=concurrency, progress=False))
                wall = time.perf_counter() - t0
            finally:
                server.stop()
            floor = n_models * args.items / args.rate
            share = server.refused / max(1, server.accepted)
            ok = result.errors == 0 and wall <= WALL_GOAL * floor and share <= REFUSED_GOAL
            missed += not ok
            label = f"{n_models} model{'s' if n_models > 1 else ''}, concurrency {concurrency or 'default'}"
            print(f"{label:32s} failed {result.errors:4d}/{n_models * args.items}  wall {wall:6.1f} s = "
                  f"{wall / floor:4.2f} x floor {floor:g} s  refused {server.refused:4d} / accepted "
                  f"{server.accepted:4d} = {share:6.1%}  {'ok' if ok else 'MISSED'}")
            for line in result.error_messages[:3]:
                print(f"    {line[:160]}")
    print(f"goals: 0 failed, wall <= {WALL_GOAL} x floor, refused <= {REFUSED_GOAL:.0%} of accepted")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
