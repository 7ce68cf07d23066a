"""The metric registry: a family registered once shows up in `probe-ui score`, the Stress summary, the Results
tables and the report with no other change; suites may only name registered families."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from probe_ui import metrics
from probe_ui.cli import main
from probe_ui.metrics.frame import mv
from probe_ui.metrics.registry import MetricContext, MetricError, check_names, metric, unregister
from probe_ui.presets import load_preset
from probe_ui.presets.suites import SUITES, Suite
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run, scored_answers
from probe_ui.store import Store
from probe_ui.views import results, stress
from probe_ui.views.report import build_report

ROOT = Path(__file__).resolve().parents[1]
NAME = "share_a"


@pytest.fixture
def throwaway() -> Iterator[None]:
    """A family nobody ships: the share of answers that chose option A, with a paper and a clean definition."""

    def detect(d: pd.DataFrame) -> str | None:
        return "choice answers" if (d["kind"] == "choice").any() else None

    @metric(NAME, "clean", detect=detect, headline=lambda b: {"answered A": b["share"]},
            description="share of multiple-choice answers that chose A (a test family)")
    def clean(d: pd.DataFrame, ctx: MetricContext) -> dict:
        c = d[d["kind"] == "choice"]
        return {"share": mv(int((c["parsed"] == "A").sum()), len(c))}

    @metric(NAME, "paper")
    def paper(d: pd.DataFrame, ctx: MetricContext) -> dict:
        c = d[d["kind"] == "choice"]
        return {"share": mv(int((c["parsed"] == "A").sum()), len(c)), "paper": True}

    try:
        yield
    finally:
        unregister(NAME)


@pytest.fixture
def run(tmp_path: Path) -> tuple[Store, str]:
    store = Store(tmp_path / "probe-ui.db")
    preset = load_preset(ROOT / "presets" / "mediconfusion_pairs.yaml")
    res = run_batch(store, [preset], ["baseline/first", "baseline/random"],
                    BatchOptions(run_name="reg", suites=["rotations"], progress=False))
    assert res.errors == 0
    return store, "reg"


@pytest.mark.slow
def test_a_registered_family_appears_in_every_view(throwaway: None, run: tuple[Store, str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    store, name = run
    df = scored_answers(store, name)
    share = {m: 100.0 * (g["parsed"] == "A").sum() / len(g) for m, g in df.groupby("model")}
    assert share["baseline/first"] == 100.0

    # probe-ui score --json
    assert main(["score", "--db", str(tmp_path / "probe-ui.db"), "--run", name, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for model, value in share.items():
        block = report["models"][model]["paper"][NAME]
        assert block["definition"] == "clean" and block["share"]["value"] == pytest.approx(value)
        assert report["models"][model]["paper"]["detected"][NAME] == "choice answers"
    legacy = score_run(store, name, "legacy")  # the paper's definition under the legacy parser
    assert legacy["models"]["baseline/first"]["paper"][NAME]["definition"] == "paper"

    # the Stress summary: the family's headline as a column
    summ = stress.summary(df, "rotations").set_index("model")
    col = f"{NAME}: answered A"
    assert col in summ.columns
    for model, value in share.items():
        assert summ.loc[model, col] == pytest.approx(value)

    # the Results tab's tables
    tables = results.metric_tables(df)
    t = tables[NAME]
    got = t[(t["model"] == "baseline/first") & (t["metric"] == "share")].iloc[0]
    n_first = int((df["model"] == "baseline/first").sum())
    assert got["value"] == 100.0 and got["numerator"] == got["denominator"] == n_first

    # the report
    page = build_report(store, name)
    assert f'data-family="{NAME}"' in page


def test_suites_name_registered_families_only() -> None:
    for s in SUITES.values():
        check_names(s.metrics, f"suite '{s.name}'")  # every shipped suite binds known families
    SUITES["bogus"] = Suite("bogus", "a suite with a typo", ("group",), lambda v, ctx: [])
    try:
        with pytest.raises(MetricError, match="suite 'bogus' names unknown metric 'group'"):
            metrics.registry.check_suites()
    finally:
        del SUITES["bogus"]


def test_a_family_needs_a_detection_rule_and_one_definition_of_each_kind() -> None:
    with pytest.raises(MetricError, match="without a detection rule"):
        metric("nodetect", "clean")(lambda d, ctx: {})
    with pytest.raises(MetricError, match="definition must be one of"):
        metric("x", "exact", detect=lambda d: None)
    metric("twice", "clean", detect=lambda d: None)(lambda d, ctx: {})
    try:
        with pytest.raises(MetricError, match="already has a clean definition"):
            metric("twice", "clean")(lambda d, ctx: {})
    finally:
        unregister("twice")


def test_cli_lists_the_families(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metrics", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert {"mediconfusion", "probmed", "medvh", "medvh_fcj", "medblink", "illusion", "groups"} <= set(rows)
    assert rows["probmed"]["definitions"] == "paper, clean"
