"""Fuzz every input a user or a file controls and check that each failure is a clear, typed error.

Targets (generators and checks in ``perf/fuzz_cases.py``, shared with ``tests/test_fuzz.py``):

    images     load_image on mutated PNG/JPEG/TIFF/BMP/DICOM/NIfTI bytes   allowed: LoadedImage | ImageError
    presets    load_preset on mutated YAML                                allowed: Preset | PresetError
    importers  import_results / questions_to_preset on mutated JSON       allowed: summary | ImportFileError |
                                                                          ImportUsageError
    answers    extract / extract_legacy on any reply and option list      allowed: Answer, within 1 s
    catalogue  resolve on any spec, load_entry on mutated backend YAML    allowed: ModelConfig | ModelSpecError
    ratings    import_ratings on mutated ratings CSVs; CSV cells through   allowed: ImportSummary | RatingsFileError
               the spreadsheet writer and back                            naming the file, the store unchanged

A typed error must also name the file. Each case runs under a SIGALRM time limit (1 s for answers, 5-10 s for
the others) in a forked worker process; a case the worker does not answer in time (stuck in C code, where the
alarm cannot reach) is a hang too, and the worker is replaced. Cases are deterministic: case ``i`` of a target
depends only on ``--seed``, the target and ``i``.

    python perf/fuzz.py [--cases 10000] [--target images,answers] [--seed 0] [--out test-artifacts/fuzz]
    python perf/fuzz.py --target images --seed 0 --case 1234     # replay one case, full traceback

Prints per target: cases run, accepted, typed errors, unhandled exceptions (the first few distinct ones: the last
line of the traceback and a reproducer), hangs and wall time. Each failing input is written under ``--out``
(``<target>/seed<S>-case<I>/``, with the traceback and how the case was made). Exits 1 if any target has an
unhandled exception or a hang.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_cases import TARGETS, IsolatedRunner, Outcome, case_random  # noqa: E402

SHOW_DISTINCT = 5  # distinct failures printed per target
SAVE_PER_TARGET = 25  # failing inputs written per target (and the first of every distinct failure)


@contextlib.contextmanager
def quiet_stderr(enabled: bool) -> Iterator[None]:
    """Send file descriptor 2 to /dev/null: libtiff, nibabel and pydicom write a line for every damaged file."""
    if not enabled:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def save_failure(out: Path, name: str, seed: int, index: int, outcome: Outcome) -> tuple[Path, str]:
    """Write the failing input (made again from seed and index) and its traceback; return the folder and how the
    case was made."""
    case = TARGETS[name].make(case_random(seed, name, index))
    folder = out / name / f"seed{seed}-case{index}"
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, data in case.files.items():
        (folder / file_name).write_bytes(data)
    (folder / "failure.txt").write_text(
        f"target: {name}\nseed: {seed}\ncase: {index}\noutcome: {outcome.kind}: {outcome.line}\n"
        f"made by: {case.desc}\n"
        f"replay: python perf/fuzz.py --target {name} --seed {seed} --case {index}\n\n"
        f"{outcome.traceback}\n", encoding="utf-8", errors="backslashreplace")
    return folder, case.desc


def fuzz_target(name: str, cases: range, seed: int, out: Path, workdir: Path, verbose: bool) -> dict[str, Any]:
    if len(cases) > 1:  # a new run: drop the inputs an earlier run left
        shutil.rmtree(out / name, ignore_errors=True)
    counts = {"accepted": 0, "typed": 0, "unhandled": 0, "hang": 0}
    distinct: dict[str, tuple[int, Outcome, Path | None, str]] = {}
    saved = 0
    slowest = (0.0, -1)
    t0 = time.perf_counter()
    with IsolatedRunner(name, seed, workdir) as runner:
        for i in cases:
            outcome = runner.run(i)
            counts[outcome.kind] += 1
            if outcome.elapsed > slowest[0]:
                slowest = (outcome.elapsed, i)
            if outcome.kind not in ("unhandled", "hang"):
                continue
            folder, desc = None, ""
            if saved < SAVE_PER_TARGET or outcome.key not in distinct:
                folder, desc = save_failure(out, name, seed, i, outcome)
                saved += 1
            if outcome.key not in distinct:
                distinct[outcome.key] = (i, outcome, folder, desc)
            if verbose:
                print(f"  {name} case {i}: {outcome.kind}: {outcome.line}\n    made by: {desc[:300]}\n"
                      f"{outcome.traceback}", flush=True)
    wall = time.perf_counter() - t0
    return {"name": name, "cases": len(cases), **counts, "distinct": distinct, "wall": wall, "slowest": slowest}


def report(res: dict[str, Any], seed: int, show: int = SHOW_DISTINCT) -> None:
    print(f"{res['name']:<10} cases {res['cases']:>6}  accepted {res['accepted']:>6}  typed errors {res['typed']:>6}  "
          f"unhandled {res['unhandled']:>4}  hangs {res['hang']:>3}  wall {res['wall']:7.1f} s  "
          f"(slowest case {res['slowest'][1]}: {res['slowest'][0] * 1000:.0f} ms)", flush=True)
    for n, (key, (i, outcome, folder, desc)) in enumerate(res["distinct"].items()):
        if n == show:
            print(f"    ... and {len(res['distinct']) - show} more distinct failure(s) (--show N prints more)")
            break
        print(f"    {outcome.kind}: {outcome.line}  [{key}]")
        print(f"      reproduce: python perf/fuzz.py --target {res['name']} --seed {seed} --case {i}"
              + (f"  (input in {folder})" if folder else ""))
        print(f"      made by: {desc[:200]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per target (default 10000)")
    ap.add_argument("--target", default="", help=f"comma-separated targets (default all: {', '.join(TARGETS)})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--case", type=int, default=None, help="run only this case index (and print its traceback)")
    ap.add_argument("--out", default="test-artifacts/fuzz", help="folder for failing inputs")
    ap.add_argument("--show", type=int, default=SHOW_DISTINCT, help="distinct failures printed per target")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every failure with its traceback")
    ap.add_argument("--show-stderr", action="store_true", help="keep the libraries' own messages about damaged files")
    args = ap.parse_args(argv)

    names = [t.strip() for t in args.target.split(",") if t.strip()] or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        ap.error(f"unknown target(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    cases = range(args.case, args.case + 1) if args.case is not None else range(args.cases)
    out = Path(args.out)
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # inputs hold lone surrogates
    logging.disable(logging.CRITICAL)  # nibabel and pydicom log every damaged header

    print(f"fuzzing {', '.join(names)}: {len(cases)} case(s) each, seed {args.seed}", flush=True)
    results = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="probe-ui-fuzz-") as tmp:
        for name in names:
            with quiet_stderr(not args.show_stderr):
                res = fuzz_target(name, cases, args.seed, out, Path(tmp), args.verbose or args.case is not None)
            results.append(res)
            report(res, args.seed, args.show)
    total = time.perf_counter() - t0
    bad = [r["name"] for r in results if r["unhandled"] or r["hang"]]
    print(f"total wall time {total:.1f} s; " + (f"FAIL: {', '.join(bad)}" if bad else "PASS: only typed errors"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
