"""One number wherever it is shown: `probe-ui score --json`, `probe-ui export --format csv`, the Results tab's
overview and its accuracy-per-perturbation data, and the report give the same per-model accuracy under the same
parser, for imported MediConfusion, ProbMed, MedVH and BLINK runs and a batch run with suites."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from probe_ui.cli import main
from probe_ui.importers import ImportOptions, import_results
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store
from probe_ui.views import results as R
from probe_ui.views.report import build_report

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "importers"
IMPORTS = {
    "mc": ("mediconfusion", ["gpt4o_mc.json", "claude_mc.json"], {"dataset": str(DATA / "mediconfusion_dataset.json")}),
    "probmed": ("probmed", ["gpt4o_probmed.json"], {}),
    "medvh": ("medvh", ["gpt4o_test_nota_src.json", "gpt4o_test_nota_baseline.json"], {"task": "nota"}),
    "blink": ("blink", ["gpt4o_predictions.json"], {"dataset": str(DATA / "blink_items.json")}),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("truth")
    store = Store(root / "probe-ui.db")
    for run, (fmt, files, opts) in IMPORTS.items():
        for f in files:
            import_results(store, fmt, str(DATA / f), ImportOptions(run=run, **opts))
    presets = [load_preset(ROOT / "presets" / n) for n in ("mediconfusion_pairs.yaml", "probmed_adversarial.yaml")]
    run_batch(store, presets, ["baseline/first", "baseline/random"],
              BatchOptions(run_name="batch", suites=["rotations", "circular"], progress=False))
    return store


def score_json(db: str, run: str, parser: str, capsys: pytest.CaptureFixture[str]) -> dict[str, tuple[int, int]]:
    assert main(["score", "--db", db, "--run", run, "--parser", parser, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    return {m: (r["accuracy"]["numerator"], r["accuracy"]["denominator"]) for m, r in report["models"].items()}


def csv_counts(db: str, run: str, parser: str, out: Path, capsys: pytest.CaptureFixture[str]
               ) -> dict[str, tuple[int, int]]:
    assert main(["export", "--db", db, "--run", run, "--format", "csv", "--out", str(out), "--parser", parser]) == 0
    capsys.readouterr()
    counts: dict[str, list[int]] = {}
    with open(out / "data.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            c = counts.setdefault(row["model"], [0, 0])
            if row["error"] == "" and row["correct"] in ("true", "false"):
                c[0] += row["correct"] == "true"
                c[1] += 1
    return {m: (a, b) for m, (a, b) in counts.items()}


def report_accuracy(page: str) -> dict[str, float]:
    """The overview's accuracy cell of every model row of a report."""
    out = {}
    for model, row in re.findall(r'<tr data-model="([^"]+)">(.*?)</tr>', page, re.S):
        m = re.search(r'data-col="accuracy" data-value="([^"]+)"', row)
        if m:
            out[model] = float(m.group(1))
    return out


@pytest.mark.parametrize("parser", ["robust", "legacy"])
@pytest.mark.parametrize("run", [*IMPORTS, "batch"])
def test_every_view_shows_the_same_accuracy(store: Store, run: str, parser: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = store.url.removeprefix("sqlite:///")
    scored = score_json(db, run, parser, capsys)
    assert scored and all(n > 0 for _, n in scored.values())
    assert csv_counts(db, run, parser, tmp_path / "csv", capsys) == scored

    df = R.answers(store, [run], parser)
    overview = R.metric_tables(df, parser, digits=None)["overview"].set_index("model")
    by_cond = R.accuracy_by_condition(df).groupby("model")[["correct", "n"]].sum()
    for model, (k, n) in scored.items():
        assert overview.loc[model, "accuracy"] == pytest.approx(100.0 * k / n)
        assert (int(by_cond.loc[model, "correct"]), int(by_cond.loc[model, "n"])) == (k, n)

    page = build_report(store, run, parser=parser)
    assert report_accuracy(page) == pytest.approx({m: 100.0 * k / n for m, (k, n) in scored.items()}, abs=0.005)
    assert f"read with the {parser} parser" in page


def test_legacy_probmed_is_the_same_on_the_page_that_showed_two_numbers(store: Store) -> None:
    """The observation of the issue: overview 88.24 and accuracy-by-condition 86.27 for the same legacy run."""
    df = R.answers(store, ["probmed"], "legacy")
    over = R.metric_tables(df, "legacy")["overview"].iloc[0]
    cond = R.accuracy_by_condition(df).iloc[0]
    assert over["accuracy"] == 88.24 and round(cond["accuracy"], 2) == 88.24
