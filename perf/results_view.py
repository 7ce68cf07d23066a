"""Time the Results tab on a 10,000-answer run: the first view, the same view again, and a new filter after it.

Goal (issue 27): after the first view of a run, the Results tab shows a view of it in under 2 s. The first view
scores the run (reads every answer, re-reads every reply, joins judges and ratings); later views take the scored
table from the cache (:mod:`probe_ui.views.results_cache`), so a repeat, or another filter of the same run, only filters
and draws. A new rating makes the next view score afresh (timed too, as "after a rating"). Building the store is not
timed.

    python perf/results_view.py [--answers 10000] [--budget 2] [--db PATH] [--api]

The run: a preset of ``answers / 12`` four-option items (a handful of images, three categories) asked of the three
baseline models with the rotations suite (the original and three rotations): 12 answers per item. ``--api`` also
times the same views through the app's HTTP API (``/results``, a Gradio client on a loopback server). Prints each
time and PASS/FAIL; exits 1 on FAIL.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from probe_ui.runner import BatchOptions

MODELS = ["baseline/first", "baseline/random", "baseline/last"]
RUN = "results-view-bench"
BUDGET_S = 2.0


def build_store(db: Path, answers: int, seed: int = 0) -> Any:
    """A store holding one batch run of about ``answers`` answers (not timed)."""
    import yaml

    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.store import Store

    folder = db.parent
    rng = np.random.default_rng(seed)
    for k in range(6):
        Image.fromarray(rng.integers(0, 255, (64, 64), dtype=np.uint8), "L").save(folder / f"img{k}.png")
    n_items = max(1, round(answers / (4 * len(MODELS))))
    cats = ["Cerebral", "Pulmonary", "Cardiac"]
    items = [{"id": f"q{i}", "image": f"img{i % 6}.png", "question": f"Which finding is shown in case {i}?",
              "options": ["mass", "effusion", "fracture", "normal"], "answer": "ABCD"[i % 4],
              "category": cats[i % 3]} for i in range(n_items)]
    preset = folder / "bench.yaml"
    preset.write_text(yaml.safe_dump({"name": "results-view-bench", "items": items}))
    store = Store(db)
    run_batch(store, [load_preset(preset)], MODELS,
              BatchOptions(suites=["rotations"], seed=seed, progress=False, run_name=RUN))
    return store


def timed(what: str, fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    print(f"  {what:<44} {dt:6.2f} s")
    return dt


def library(store: Any, budget: float) -> list[str]:
    from probe_ui.views.results_cache import ScoredCache
    from probe_ui.views.results_page import results_view

    cache = ScoredCache()
    view = lambda **kw: results_view(store, [RUN], owner="bench", cache=cache, **kw)  # noqa: E731
    from probe_ui.store import responses

    n = store.count(responses, store.get_run(RUN).id)
    print(f"library call (probe_ui.views.results_page.results_view), one run of {n} answers:")
    timed("first view in this process (imports Plotly)", view)
    cache.forget()
    timed("first view (scores the run)", view)
    again = timed("the same view again", view)
    filtered = timed("another filter (one model)", lambda: view(models=[MODELS[0]]))
    worst = timed("another order (worst first)", lambda: view(order="worst"))
    rid = int(store.answers_frame(store.get_run(RUN).id)["response_id"].iloc[0])
    store.rate_response(rid, "correct", rater="bench")
    timed("after a rating (scores afresh)", view)
    print(f"  cache: {cache.hits} hits, {cache.misses} misses")
    return [f"library {w}: {t:.2f} s > {budget} s" for w, t in (("repeat", again), ("filter", filtered),
                                                                ("order", worst)) if t > budget]


def api(db: Path, budget: float) -> list[str]:
    """The same views through the app's HTTP API: the app on a loopback port on this store, a Gradio client."""
    import os
    import socket

    from gradio_client import Client

    from probe_ui.app.serve import launch, options

    os.environ.setdefault("PROBE_UI_DISCOVER", "0")  # no looking for local model servers
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = launch(options(str(db), "127.0.0.1", port), block=False, quiet=True)
    try:
        client = Client(f"http://127.0.0.1:{port}/", verbose=False)
        args = dict(chosen=[RUN], p="robust", ms=[], cs=[], cats=[], rs=[], api_name="/results")
        print("through the app's API (/results, a Gradio client on a loopback server):")
        # the filter menus of this session (as the page fills them when a run is chosen); this scores the run
        timed("first view: choosing the run (scores it)", lambda: client.predict([RUN], api_name="/filters"))
        timed("first view: its tables and figures", lambda: client.predict(**args))
        again = timed("the same view again", lambda: client.predict(**args))
        filtered = timed("another filter (one model)", lambda: client.predict(**dict(args, ms=[MODELS[0]])))
        return [f"api {w}: {t:.2f} s > {budget} s" for w, t in (("repeat", again), ("filter", filtered))
                if t > budget]
    finally:
        app.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--answers", type=int, default=10_000)
    ap.add_argument("--budget", type=float, default=BUDGET_S)
    ap.add_argument("--db", type=Path, default=None, help="reuse (or build once) the store at this path")
    ap.add_argument("--api", action="store_true", help="also time the app's /results endpoint")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = a.db or Path(tmp) / "bench.db"
        db.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        if db.exists():
            from probe_ui.store import Store

            store = Store(db)
        else:
            store = build_store(db, a.answers)
        print(f"store ready in {time.perf_counter() - t0:.1f} s (not timed): {db}")
        failures = library(store, a.budget)
        store.close()
        if a.api:
            failures += api(db, a.budget)
    for f in failures:
        print("FAIL", f)
    print("PASS" if not failures else "FAIL", f"(goal: every view after the first under {a.budget:g} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
