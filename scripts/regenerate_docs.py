"""Regenerate every generated part of the docs in one command (issue 49: an extension is one file of code plus the
generated docs this writes; docs/dev/extending.md names it in each recipe).

What is generated, and by what:

- docs/dev/architecture.md, the rooms table: ``python scripts/rooms.py --write`` (a module added to a room changes
  its count);
- docs/metrics.md, the glossary: ``probe-ui metrics --glossary`` (a metric family's figures);
- docs/guide/commands/perturbations.md, the tables between ``<!-- perturbations:start ... -->`` and
  ``<!-- perturbations:end -->``: ``probe-ui perturbations --format markdown`` (a perturbation or a suite);
- the console examples of README.md and docs/: ``python scripts/docs_examples.py --update`` (what ``probe-ui
  models``, ``probe-ui presets`` and the other commands print; elisions are kept where they still hold).

    python scripts/regenerate_docs.py            # write them all; prints what changed
    python scripts/regenerate_docs.py --check    # write nothing; exit 1 if any is stale (what the tests check)
    python scripts/regenerate_docs.py --fast     # all but the console examples (those take about a minute)

Plugins (``PROBE_UI_PLUGINS``) are left out: the docs describe what ships. The tests that hold each part:
tests/test_rooms.py, tests/test_metrics_glossary.py, tests/test_suites.py, tests/test_docs_examples.py (slow).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
METRICS = ROOT / "docs" / "metrics.md"
PERTURBATIONS = ROOT / "docs" / "guide" / "commands" / "perturbations.md"
#: problems a regeneration cannot fix (scripts/rooms.py's imports against the layer order)
UNFIXED: list[str] = []
TABLES = re.compile(r"(<!-- perturbations:start[^\n]*-->\n)(.*?)(<!-- perturbations:end -->)", re.S)


def _env() -> dict[str, str]:
    """This environment without probe-ui's settings (no plugins), this checkout's probe_ui first on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROBE_UI_")}
    env["PROBE_UI_DISCOVER"] = "0"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *argv], cwd=ROOT, env=_env(), capture_output=True, text=True, check=False)


def _probe_ui(*argv: str) -> str:
    proc = _run("-m", "probe_ui", *argv)
    if proc.returncode != 0:
        raise SystemExit(f"probe-ui {' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout


def _write(path: Path, text: str, check: bool) -> bool:
    """Whether ``path`` was stale; written unless ``check``."""
    stale = path.read_text(encoding="utf-8") != text
    if stale and not check:
        path.write_text(text, encoding="utf-8")
    return stale


def rooms(check: bool) -> bool:
    proc = _run(str(SCRIPTS / "rooms.py"), *([] if check else ["--write"]))
    out = proc.stdout.splitlines()
    for line in out:  # an import against the layer order is no table's to fix: say so
        if line.startswith(("not in the layer order", "against the layer order", "cycle between rooms")) or \
                "modules directly under" in line and "(at most" in line:
            print(f"  scripts/rooms.py: {line}")
            UNFIXED.append(line)
    return any("the rooms table is stale" in line for line in out) if check else \
        any(line.endswith(": rewritten") for line in out)


def metrics(check: bool) -> bool:
    return _write(METRICS, _probe_ui("metrics", "--glossary"), check)


def perturbations(check: bool) -> bool:
    page = PERTURBATIONS.read_text(encoding="utf-8")
    if not TABLES.search(page):
        raise SystemExit(f"{PERTURBATIONS.relative_to(ROOT)}: no <!-- perturbations:start/end --> markers")
    table = _probe_ui("perturbations", "--format", "markdown").rstrip("\n") + "\n"
    return _write(PERTURBATIONS, TABLES.sub(lambda m: m.group(1) + table + m.group(3), page, count=1), check)


def examples(check: bool) -> bool:
    proc = _run(str(SCRIPTS / "docs_examples.py"), *([] if check else ["--update"]))
    differ = [line for line in proc.stdout.splitlines() if re.search(r": \d+ commands run, [1-9]\d* differ", line)]
    for line in differ:
        print(f"  {line}")
    if not check and differ:  # a second pass says whether what --update wrote now matches
        again = _run(str(SCRIPTS / "docs_examples.py"), *[d.split(":")[0] for d in differ])
        for line in again.stdout.splitlines():
            if re.search(r": \d+ commands run, [1-9]\d* differ", line):
                print(f"  still differs (edit by hand): {line}")
    return bool(differ)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a generated part is stale")
    ap.add_argument("--fast", action="store_true", help="leave out the console examples (about a minute)")
    args = ap.parse_args(argv)
    steps = [("docs/dev/architecture.md (rooms table)", rooms), ("docs/metrics.md", metrics),
             ("docs/guide/commands/perturbations.md (tables)", perturbations)]
    if not args.fast:
        steps.append(("console examples of README.md and docs/", examples))
    stale = []
    for name, step in steps:
        if step(args.check):
            stale.append(name)
            print(f"{name}: {'stale' if args.check else 'regenerated'}", flush=True)
        else:
            print(f"{name}: up to date", flush=True)
    return 1 if (args.check and stale) or UNFIXED else 0


if __name__ == "__main__":
    sys.exit(main())
