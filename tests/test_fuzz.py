"""Fuzzing: every input a user or a file controls fails only with its typed error, never hangs.

The generators and checks live in ``perf/fuzz_cases.py``, shared with ``perf/fuzz.py`` (the long run:
10,000 cases per target). Here a few hundred cases run per target, in two ways:

- seeded cases, exactly as the script makes them (case ``i`` depends only on the seed and ``i``), in a forked
  worker process: a case stuck in C code, where SIGALRM cannot reach, fails the test instead of stopping the
  suite; a failure names its reproducer (``python perf/fuzz.py --target T --seed S --case I``);
- the same generators driven by hypothesis (``st.randoms()``: other value distributions, and shrinking), in this
  process under the SIGALRM limit.

The ``ratings`` target (issue 24) imports mutated ratings CSVs (unclosed quotes, repeated columns, rows of the
wrong width, formula cells, encodings) and checks that a refused file names itself and changes nothing, and that
cells written by the spreadsheet writer start no formula and read back exactly.

The ``keys`` target (issue 14) sends keys of every shape (surrounding whitespace, quotes, backslashes, non-ASCII)
through batch, export and report against loopback providers that echo them, and fails a case when any 8-character
piece of the key is found in the store, an export, the report, stdout or stderr.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("fuzz_cases", ROOT / "perf" / "fuzz_cases.py")
assert _spec is not None and _spec.loader is not None
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["fuzz_cases"] = fuzz  # dataclasses and the worker's pickled outcomes look the module up by name
_spec.loader.exec_module(fuzz)
# The tests catch hangs, not slowness: each target's limit here is ten times the benchmark's (at least a minute), so a
# busy machine does not fail them; perf/fuzz.py keeps the tight limits and reports the slowest case.
fuzz.TARGETS = {name: dataclasses.replace(t, limit_s=max(60.0, 10 * t.limit_s)) for name, t in fuzz.TARGETS.items()}

SEED = 20240601
SEEDED_CASES = {"images": 500, "answers": 500, "catalogue": 300, "importers": 300, "presets": 200, "params": 300,
                "keys": 200, "ratings": 300}
HYPOTHESIS_CASES = {"images": 200, "answers": 200, "catalogue": 150, "importers": 100, "presets": 150,
                    "params": 150, "keys": 60, "ratings": 150}


#: a 1 x 1 PNG: what the keys target's reports embed in place of each figure (_figures_not_encoded)
ONE_PIXEL_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010800000000"
                              "3a7e9b550000000a49444154789c63600000000200016be6a2b80000000049454e44ae426082")


def _figures_not_encoded(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys target searches the report's text for the key; a figure reaches the report as base64 PNG, pixels
    of plotted accuracies that hold no text to search. Its figures are still built (from the run's answers, where
    the key could be) but not rendered to PNG: matplotlib's savefig was about 0.11 s of each report's CPU. The
    other targets do not write reports; perf/fuzz.py renders them as the CLI does."""
    if target == "keys":
        from probe_ui.views.report import common

        monkeypatch.setattr(common, "_png", lambda fig: ONE_PIXEL_PNG)


def _failures(target: str, tmp: Path) -> list[str]:
    out = []
    with fuzz.IsolatedRunner(target, SEED, tmp) as runner:
        for i in range(SEEDED_CASES[target]):
            outcome = runner.run(i)
            if outcome.kind in ("unhandled", "hang"):
                out.append(f"case {i}: {outcome.kind}: {outcome.line}\n  reproduce: python perf/fuzz.py "
                           f"--target {target} --seed {SEED} --case {i}\n{outcome.traceback}")
    return out


@pytest.mark.parametrize("target", ["images", "answers", "catalogue", "importers", "presets", "params", "keys",
                                    "ratings"])
def test_seeded_cases_fail_only_with_typed_errors(target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _figures_not_encoded(target, monkeypatch)  # before the runner forks its worker, which inherits it
    failures = _failures(target, tmp_path)
    assert not failures, f"{len(failures)} of {SEEDED_CASES[target]} {target} cases:\n" + "\n".join(failures[:3])


@pytest.mark.parametrize("target", list(HYPOTHESIS_CASES))
def test_hypothesis_driven_cases_fail_only_with_typed_errors(target: str,
                                                             tmp_path_factory: pytest.TempPathFactory,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _figures_not_encoded(target, monkeypatch)
    workdir = tmp_path_factory.mktemp(f"fuzz-{target}")
    spec = fuzz.TARGETS[target]

    @settings(max_examples=HYPOTHESIS_CASES[target], deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.randoms(use_true_random=False))
    def check(r: object) -> None:
        case = spec.make(r)
        outcome = fuzz.run_case(spec, case, workdir)
        assert outcome.kind in ("accepted", "typed"), f"{outcome.line}\nmade by: {case.desc}\n{outcome.traceback}"

    check()


def test_case_generation_is_deterministic() -> None:
    for target, spec in fuzz.TARGETS.items():
        a, b = (spec.make(fuzz.case_random(1, target, 7)) for _ in range(2))
        assert (a.desc, a.files) == (b.desc, b.files), target
