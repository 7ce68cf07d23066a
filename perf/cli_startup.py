"""CPU each everyday command costs from start to exit (issue 48's budgets), a fresh process each time.

Runs `python -m probe_ui <command>` in an empty folder with no PROBE_UI_* variables and reads the child's CPU
(user + system, from the operating system) and wall time; reports the median of --repeat runs, against the goals:

- `--help`, `presets`, `models`, `perturbations`: <= 0.4 s of CPU;
- `score` of a small run (16 answers of the baselines, made first by a batch): <= 0.8 s.

A batch's first request is measured by perf/startup.py (first figure). Run it on a quiet machine: the
figures are CPU seconds, but a busy machine still inflates them (caches, frequency).

The commands run with Python's bytecode cache, as an installed probe-ui does: ``PYTHONDONTWRITEBYTECODE`` is
removed from the child's environment, and each command runs once unmeasured first, so every module is compiled
once. (A machine that sets the variable compiles all of probe-ui again on every command: 0.1-0.2 s more each.)

    python perf/cli_startup.py [--repeat 5] [--python .venv/bin/python]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOALS = {"--help": 0.4, "presets": 0.4, "models": 0.4, "perturbations": 0.4, "score": 0.8}


def run(python: str, args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh ``python -m probe_ui ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([python, "-m", "probe_ui", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"probe-ui {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command; the median is reported")
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs probe-ui")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PROBE_UI_") and k != "PYTHONDONTWRITEBYTECODE"}
    env["PROBE_UI_DISCOVER"] = "0"  # `models` would otherwise look for local servers (up to half a second)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        run(args.python, ["batch", "mediconfusion_pairs", "-m", "baseline/first", "-m", "baseline/random",
                          "--no-progress"], cwd, env)
        commands = {"--help": ["--help"], "presets": ["presets"], "models": ["models"],
                    "perturbations": ["perturbations"], "score": ["score"]}
        ok = True
        print(f"{'command':<15} {'CPU s (median)':>15} {'wall s':>8} {'goal':>6}")
        for name, argv in commands.items():
            run(args.python, argv, cwd, env)  # compiles what this command imports (the bytecode cache)
            runs = [run(args.python, argv, cwd, env) for _ in range(args.repeat)]
            cpu, wall = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            met = cpu <= GOALS[name]
            ok &= met
            print(f"{name:<15} {cpu:>15.2f} {wall:>8.2f} {GOALS[name]:>6.1f}  {'ok' if met else 'over'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
