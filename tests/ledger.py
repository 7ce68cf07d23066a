"""A ledger of which tests a pytest run collected and which it ran, so that CI can prove that its two pytest steps
(the fast subset before torch, the rest after) ran every test of the suite exactly once.

Active only when ``PROBE_UI_TEST_LEDGER`` names a path prefix (``.ci/run`` sets it per step): the run writes
``<prefix>.collected`` (every test collected, before ``-m`` deselects any; written by one process) and
``<prefix>.ran.<worker>`` (one line per test whose set-up, call and tear-down ran: passed, failed or skipped inside
the test). ``python tests/ledger.py CHECK_PREFIX STEP_PREFIX...`` compares them: every test collected by the
``CHECK_PREFIX`` step (the one in the fullest environment) must appear in exactly one step's ``ran`` files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ENV = "PROBE_UI_TEST_LEDGER"


#: the ledger's prefix as pytest started, made absolute then: a module-scoped app fixture works in a folder of its
#: own (chdir) across its module's tests, and a relative prefix wrote their lines into that folder, where CI's check
#: never looked ("ran in neither step" for 59 tests)
_STARTED_WITH = (os.environ.get(ENV), Path(os.environ[ENV]).resolve() if os.environ.get(ENV) else None)


def _prefix() -> Path | None:
    value = os.environ.get(ENV)
    if not value:
        return None
    return _STARTED_WITH[1] if value == _STARTED_WITH[0] else Path(value).resolve()


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def record_collected(items: list[pytest.Item]) -> None:
    """Every collected test, before any is deselected (called first in the collection hook). Under pytest-xdist
    each worker collects the same tests: the first worker writes the list."""
    prefix = _prefix()
    if prefix is None or _worker() not in ("main", "gw0"):
        return
    prefix.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{prefix}.collected").write_text("".join(f"{item.nodeid}\n" for item in items), encoding="utf-8")


def collected_id(item: pytest.Item) -> str:
    """The test's id as collected: under ``--dist loadgroup`` pytest-xdist appends ``@<group>`` to the id of a test
    with an ``xdist_group`` mark (after this suite's marks are applied); that suffix is taken off again."""
    groups = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                     for m in item.iter_markers("xdist_group")})
    suffix = "@" + "_".join(groups)
    return item.nodeid[: -len(suffix)] if groups and item.nodeid.endswith(suffix) else item.nodeid


def record_ran(item: pytest.Item) -> None:
    """One test whose protocol (set-up, call, tear-down) this process ran."""
    prefix = _prefix()
    if prefix is None:
        return
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{prefix}.ran.{_worker()}", "a", encoding="utf-8") as f:
        f.write(f"{collected_id(item)}\n")


def _lines(paths: list[Path]) -> list[str]:
    return [line for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line]


def check(full: str, steps: list[str]) -> list[str]:
    """Problems with the steps' ledgers: tests of the ``full`` step's collection that no step ran or that two runs
    ran, and tests a step ran that the full collection lacks. Empty when every test ran exactly once."""
    collected_file = Path(f"{full}.collected")
    if not collected_file.is_file():
        return [f"{collected_file}: missing (did the step run with {ENV} set?)"]
    collected = set(_lines([collected_file]))
    counts: dict[str, int] = {}
    problems: list[str] = []
    for step in steps:
        ran_files = sorted(Path(step).parent.glob(Path(step).name + ".ran.*"))
        ran = _lines(ran_files)
        if not ran:
            problems.append(f"{step}: no test ran")
        for nodeid in ran:
            counts[nodeid] = counts.get(nodeid, 0) + 1
    problems += [f"ran in neither step: {n}" for n in sorted(collected - counts.keys())]
    problems += [f"ran {counts[n]} times: {n}" for n in sorted(counts) if counts[n] > 1]
    problems += [f"ran but not in the full collection: {n}" for n in sorted(counts.keys() - collected)]
    return problems


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python tests/ledger.py FULL_STEP_PREFIX STEP_PREFIX...")
    found = check(sys.argv[1], sys.argv[2:])
    total = len(_lines([Path(f"{sys.argv[1]}.collected")])) if Path(f"{sys.argv[1]}.collected").is_file() else 0
    for line in found[:50]:
        print(line, file=sys.stderr)
    if len(found) > 50:
        print(f"... and {len(found) - 50} more", file=sys.stderr)
    if found:
        sys.exit(f"the test steps did not run the {total} collected tests exactly once ({len(found)} problems)")
    print(f"every one of the {total} collected tests ran exactly once across {len(sys.argv) - 2} steps")
