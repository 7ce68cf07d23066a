"""Time ``probe-ui report --baseline`` and ``probe-ui compare`` (CPU and wall), whose paired bootstrap recomputes
every metric family on each replicate.

The store is the report tests' (tests/test_report.py ``runs``): the shipped mediconfusion_pairs.yaml and
medvh_nota.yaml under the rotations suite, answered by three baselines in run "main" (seed 0) and again in run
"base" (seed 1). ``--pairs N`` adds a generated preset of N MediConfusion-style confusing pairs (2N items, their
own images) to both runs, for a run of a few hundred items. Building the store is not timed. ``--store FOLDER``
keeps the store there and reuses it on the next run: the random baseline's answers depend on the stored variants'
ids, so figures compare (before and after a change) only on one store.

    python perf/report_speed.py [--pairs 0] [--boot 200] [--store FOLDER] [--budget SECONDS]

Prints the CPU and wall time of ``build_report(store, "main", baseline="base")`` and of ``compare`` of each model
(with ``--boot`` replicates, the CLI's default 200), and a fingerprint of the figures (the same figures give the
same fingerprint, whatever the speed). ``--budget``: exit 1 when the report and the comparisons together take more
CPU seconds than that.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml
from PIL import Image

from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store
from probe_ui.views import compare
from probe_ui.views.report import build_report

MODELS = ["baseline/first", "baseline/random", "baseline/last"]
PRESETS = ["mediconfusion_pairs.yaml", "medvh_nota.yaml"]


def pairs_preset(folder: Path, n: int) -> Path:
    """A preset of ``n`` confusing pairs: two images (seeded noise), one question, two options, different answers."""
    rng = np.random.default_rng(0)
    cats = ["Cerebral", "Pulmonary", "Cardiac", "Spinal", "Gastrointestinal"]
    items = []
    for p in range(n):
        for member, answer in (("a", "A"), ("b", "B")):
            name = f"pair{p}{member}.png"
            Image.fromarray(rng.integers(0, 256, (32, 32), dtype=np.uint8), "L").save(folder / name)
            items.append({"id": f"pair-{p}{member}", "image": name, "question": f"Which finding does image {p} show?",
                          "options": [f"finding one of pair {p}", f"finding two of pair {p}"], "answer": answer,
                          "category": [cats[p % len(cats)]], "group": f"pair-{p}"})
    path = folder / "generated_pairs.yaml"
    path.write_text(yaml.safe_dump({"name": "generated_pairs", "prompt": "mediconfusion-mc", "items": items}))
    return path


def build(folder: Path, pairs: int) -> Store:
    if (folder / "r.db").exists():
        return Store(folder / "r.db")
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "r.db")
    presets = [load_preset(PRESETS_DIR / p) for p in PRESETS]
    if pairs:
        presets.append(load_preset(pairs_preset(folder, pairs)))
    for seed, name in ((0, "main"), (1, "base")):
        res = run_batch(store, presets, MODELS,
                        BatchOptions(suites=["rotations"], seed=seed, run_name=name, progress=False))
        if res.errors:
            sys.exit(f"building the store: {res.errors} provider errors in run '{name}'")
    return store


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=0, help="generated confusing pairs added to both runs")
    ap.add_argument("--boot", type=int, default=compare.PAPER_BOOT, help="replicates of each comparison")
    ap.add_argument("--store", type=Path, default=None, help="folder to keep the store in and reuse")
    ap.add_argument("--budget", type=float, default=None, help="CPU seconds allowed for report + comparisons")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = build(args.store or Path(tmp), args.pairs)
        figures = {}
        cpu, wall = time.process_time(), time.perf_counter()
        html = build_report(store, "main", baseline="base")
        report_cpu, report_wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"report --baseline: {report_cpu:.2f} s CPU, {report_wall:.2f} s wall ({len(html):,} characters)")
        compare_cpu = 0.0
        for a, b in compare.sides(store, ["base", "main"], []):
            cpu, wall = time.process_time(), time.perf_counter()
            figures[a.model] = compare.compare(store, a, b, n_boot=args.boot)["paper"]
            spent = time.process_time() - cpu
            compare_cpu += spent
            print(f"compare {a.model}: {spent:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")
    digest = hashlib.sha256(json.dumps(figures, sort_keys=True).encode()).hexdigest()[:16]
    total = report_cpu + compare_cpu
    print(f"total: {total:.2f} s CPU; figures fingerprint {digest}")
    if args.budget is not None and total > args.budget:
        print(f"FAIL: over the budget of {args.budget:.1f} s CPU")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
