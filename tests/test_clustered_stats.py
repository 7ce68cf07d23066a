"""Intervals and paired tests over units of evidence, not answers (issue 43): 41 variants of one image answered
alike are one image's worth of evidence.

Tested as a statistical method is: by simulation on data clustered as real runs are (many variants per item, the
answers of one item correlated), against a published worked example, and on the runs the issue names.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from built_once import built_once

from probe_ui import stats
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run
from probe_ui.store import Store
from probe_ui.views.compare import Side, compare, worse_beyond

# Donner & Petryshen (1989), Psychiatry Research 28:41-46, as tabulated by Eliasziw & Donner (1991), Statistics in
# Medicine 10:1981-1991, Table I: 29 psychiatrists, each with 1-8 patients; per psychiatrist the patient/psychiatrist
# pairs that both (a), only the patient (b), only the psychiatrist (c) or neither (d) named the item as relevant.
PSYCHIATRY = [  # (a, b, c, d)
    (1, 0, 4, 2), (1, 1, 2, 2), (3, 1, 3, 0), (2, 1, 2, 1), (2, 0, 1, 1), (0, 3, 3, 0), (0, 3, 0, 2), (0, 3, 2, 3),
    (0, 1, 2, 1), (0, 0, 4, 3), (1, 0, 2, 0), (1, 1, 4, 0), (1, 0, 3, 3), (2, 0, 2, 2), (2, 0, 1, 2), (1, 0, 3, 0),
    (2, 0, 1, 3), (1, 0, 2, 2), (0, 3, 0, 1), (2, 1, 0, 0), (1, 1, 0, 3), (0, 2, 2, 0), (1, 0, 1, 2), (0, 0, 2, 0),
    (0, 0, 2, 1), (0, 0, 0, 2), (0, 0, 0, 2), (1, 0, 1, 1), (0, 0, 1, 0),
]


def test_durkalski_reproduces_the_published_psychiatry_example() -> None:
    """Durkalski, Palesch, Lipsitz & Rust (2003), Statistics in Medicine 22:2417-2428, analyse this data set: their
    clustered test gives chi-square 7.542 where McNemar's test, which counts the 135 pairs as independent, gives
    11.845 (the values the R package clust.bin.pair checks against the paper)."""
    a, b, c, d = (np.array(col, dtype=float) for col in zip(*PSYCHIATRY))
    n = a + b + c + d
    assert int(n.sum()) == 135 and len(n) == 29
    x2, p = stats.durkalski(b, c, n)
    assert round(x2, 3) == 7.542
    assert p == pytest.approx(0.00603, abs=5e-5)  # chi-square on 1 degree of freedom
    assert round((b.sum() - c.sum()) ** 2 / (b.sum() + c.sum()), 4) == 11.8451  # McNemar's, on the totals
    p_clustered, test = stats.clustered_mcnemar(b, c, n)
    assert p_clustered == pytest.approx(p) and "Durkalski" in test


def test_each_unit_holding_one_answer_keeps_the_classical_figures() -> None:
    """Where every unit holds one answer, the interval is Wilson's and the test the exact McNemar's, unchanged."""
    iv = stats.clustered_wilson([1, 0, 1, 1, 1], [1, 1, 1, 1, 1])
    assert (iv.low, iv.high) == stats.wilson(4, 5) and iv.deff == 1 and iv.method == stats.WILSON
    p, test = stats.clustered_mcnemar([1, 1, 0, 1], [0, 0, 1, 0], [1, 1, 1, 1])
    assert p == stats.mcnemar_exact(3, 1) and test == "exact McNemar test"
    diff = stats.clustered_paired_difference([3, 0], [1, 2], [0, 1], [1, 0])
    whole = stats.newcombe_paired(3, 3, 1, 1)
    assert diff is not None and whole is not None
    assert diff[3] >= 1  # two units of four pairs each: clustered
    single = stats.clustered_paired_difference([1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0])
    assert single is not None and single[:3] == stats.newcombe_paired(2, 1, 1, 0) and single[3] == 1


@pytest.mark.parametrize("values", ["whole", "fractions", "missing"])
def test_many_groups_at_once_give_each_groups_own_interval(values: str) -> None:
    """clustered_wilson_groups (a model's accuracy per perturbation, level or category, all at once) gives each
    group the interval clustered_wilson gives it alone, from its clusters in the order they first appear: for 1/0
    answers, for partial credit and with a missing score, which counts as an answer that adds nothing."""
    import pandas as pd

    rng = np.random.default_rng(7)
    n = 400
    groups = rng.integers(0, 6, n)
    units = rng.choice([f"img-{i}" for i in range(30)], n)
    items = np.array([f"{u}/q{rng.integers(0, 2)}" for u in units])
    right = rng.integers(0, 2, n).astype(float) if values == "whole" else rng.random(n).round(2)
    if values == "missing":
        right[rng.choice(n, 20, replace=False)] = np.nan
    found = stats.clustered_wilson_groups(groups, right, units, items)
    frame = pd.DataFrame({"g": groups, "u": units, "i": items, "x": right})
    for g in range(6):
        part = frame[frame["g"] == g]
        by_unit = part.groupby("u", sort=False)["x"].agg(["sum", "size"])
        by_item = part.groupby("i", sort=False)["x"].agg(["sum", "size"])
        alone = stats.clustered_wilson(by_unit["sum"], by_unit["size"], nested=(by_item["sum"], by_item["size"]))
        assert (found[g].units, found[g].cells) == (alone.units, alone.cells)
        assert found[g].low == pytest.approx(alone.low, abs=1e-12) and found[g].high == pytest.approx(alone.high,
                                                                                                    abs=1e-12)
        assert found[g].deff == pytest.approx(alone.deff, abs=1e-12)


def _clustered_runs(rng: np.random.Generator, runs: int, items: int, variants: int, rho: float, mean: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` synthetic runs: per item a rate drawn from a Beta with the given mean and intra-item correlation
    ``rho`` (a + b = 1/rho - 1), then each variant right with that rate. Returns right answers per item (runs x
    items) and the rates."""
    a, b = mean * (1 / rho - 1), (1 - mean) * (1 / rho - 1)
    rates = rng.beta(a, b, size=(runs, items))
    return rng.binomial(variants, rates), rates


def test_the_interval_covers_the_true_accuracy_of_clustered_runs_95_times_in_100() -> None:
    """1,000 synthetic runs of 40 items x 10 variants with within-item correlation 0.5: the interval over units
    covers the true accuracy in 93-97 % of runs; the Wilson interval over answers (what was shown before) covers
    it far less often."""
    rng = np.random.default_rng(43)
    truth, items, variants = 0.7, 40, 10
    right, _ = _clustered_runs(rng, 1000, items, variants, 0.5, truth)
    cells = np.full(items, variants, dtype=float)
    covered = old = 0
    for x in right:
        iv = stats.clustered_wilson(x, cells)
        covered += iv.low <= truth <= iv.high
        lo, hi = stats.wilson(float(x.sum()), float(cells.sum()))
        old += lo <= truth <= hi
    print(f"coverage: over units {covered / 10:.1f} %, Wilson over answers {old / 10:.1f} %")
    assert 930 <= covered <= 970
    assert old < 800  # the interval that counted 400 answers as 400 facts


def test_the_clustered_paired_test_keeps_its_level_under_no_difference() -> None:
    """Two models of equal accuracy, each item's answers correlated (0.5) within each model: Durkalski's test
    finds a difference in at most 6 % of 1,000 runs; McNemar's over the answers (what was used before) in far
    more."""
    rng = np.random.default_rng(32)
    items, variants, false_alarms, old = 40, 10, 0, 0
    for _ in range(1000):
        _, rate_a = _clustered_runs(rng, 1, items, variants, 0.5, 0.7)
        _, rate_b = _clustered_runs(rng, 1, items, variants, 0.5, 0.7)
        right_a = rng.random((items, variants)) < rate_a.T
        right_b = rng.random((items, variants)) < rate_b.T
        b = (right_a & ~right_b).sum(axis=1)
        c = (~right_a & right_b).sum(axis=1)
        p, _ = stats.clustered_mcnemar(b, c, np.full(items, variants))
        false_alarms += p < 0.05
        old += stats.mcnemar_exact(int(b.sum()), int(c.sum())) < 0.05
    print(f"false positives at 5 %: clustered {false_alarms / 10:.1f} %, McNemar over answers {old / 10:.1f} %")
    assert false_alarms <= 60
    assert old > 150


def _build_severity_runs(folder: Path) -> None:
    store = Store(folder / "s.db")
    doc = yaml.safe_load((PRESETS_DIR / "mediconfusion_pairs.yaml").read_text(encoding="utf-8"))
    b_items = [i["id"] for i in doc["items"] if i["id"].endswith("b")][:3]
    doc["items"] = [i for i in doc["items"] if i["id"] not in b_items]
    thirteen = folder / "mediconfusion_thirteen.yaml"
    thirteen.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    run_batch(store, [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")], ["baseline/first"],
              BatchOptions(suites=["severity"], run_name="sixteen", progress=False))
    run_batch(store, [load_preset(thirteen)], ["baseline/first", "baseline/last"],
              BatchOptions(suites=["severity"], run_name="thirteen", progress=False))
    store.close()


@pytest.fixture(scope="module")
def severity_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, str]:
    """The issue's runs: the MediConfusion pairs under the severity suite (16 items, 41 variants each) with
    baseline/first and baseline/last, and the same set with 3 of its 8 B-items left out (13 items). Built once per
    run (tests/built_once.py: about 30 s of CPU, most of it encoding its 1,189 variants as PNG, which every xdist
    worker that ran one of these tests paid again), then copied into this module's own folder."""
    folder = tmp_path_factory.mktemp("severity")
    shutil.copytree(built_once(tmp_path_factory, "severity-runs", _build_severity_runs), folder, dirs_exist_ok=True)
    return Store(folder / "s.db"), "sixteen"


@pytest.mark.slow
def test_sixteen_items_in_41_variants_give_an_interval_of_sixteen(severity_runs) -> None:
    store, run = severity_runs
    acc = score_run(store, run)["models"]["baseline/first"]["accuracy"]
    assert acc["n"] == 656 and acc["value"] == 50.0
    assert acc["units"] == 8 and acc["unit"] == "pair"  # MediConfusion's unit: the pair
    assert acc["ci"][1] - acc["ci"][0] >= 30  # it was 46.2-53.8: 656 answers counted as 656 facts
    assert acc["deff"] > 30


@pytest.mark.slow
def test_compare_over_thirteen_items_finds_no_difference_and_the_gate_stays_open(severity_runs) -> None:
    store, _ = severity_runs
    c = compare(store, Side("thirteen", "baseline/first"), Side("thirteen", "baseline/last"))
    o = c["overall"]
    assert (o["fixed"], o["broke"]) == (205, 328)  # the cells, as before
    assert o["p_value"] > 0.05 and "Durkalski" in o["test"]  # it was p = 1.1e-7 over 533 cells
    assert o["units"] == 8 and o["ci"][0] < 0 < o["ci"][1]
    assert "no evidence of a real difference" in c["summary"]
    assert not worse_beyond(c, 1)  # --fail-if-worse 1 does not fail a lab's CI on noise
    assert all(r["p_holm"] >= r["p_value"] for r in c["by_condition"])


def test_one_answer_per_unit_keeps_every_figure(tmp_path) -> None:
    """A run whose units each hold one answer (items without a group, no suite): Wilson's interval and the exact
    McNemar test, as before issue 43."""
    from helpers import choice_item, write_png, write_preset

    write_png(tmp_path / "a.png")
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, "a.png", answer="AB"[i % 3 == 0]) for i in range(12)])
    store = Store(tmp_path / "s.db")
    run_batch(store, [load_preset(preset)], ["baseline/first", "baseline/last"],
              BatchOptions(run_name="r", progress=False))
    acc = score_run(store, "r")["models"]["baseline/first"]["accuracy"]
    lo, hi = stats.wilson(acc["numerator"], acc["denominator"])
    assert acc["ci"] == [round(100 * lo, 4), round(100 * hi, 4)] and acc["deff"] == 1 and acc["units"] == 12
    o = compare(store, Side("r", "baseline/first"), Side("r", "baseline/last"))["overall"]
    assert o["p_value"] == stats.mcnemar_exact(o["broke"], o["fixed"]) and o["test"] == "exact McNemar test"


def test_kappa_draws_whole_units_so_copies_of_one_rating_do_not_narrow_its_interval() -> None:
    """Rater agreement's interval by the same cluster bootstrap: ten copies of each of 8 rated answers (the
    variants of 8 images, rated alike) give the interval of about 8 answers, not of 80."""
    a = ["correct", "incorrect", "correct", "correct", "incorrect", "correct", "incorrect", "correct"]
    b = ["correct", "incorrect", "incorrect", "correct", "incorrect", "correct", "correct", "correct"]
    copies_a, copies_b = [x for x in a for _ in range(10)], [x for x in b for _ in range(10)]
    units = [k for k in range(8) for _ in range(10)]
    flat = stats.cohen_kappa(copies_a, copies_b, seed=1)
    clustered = stats.cohen_kappa(copies_a, copies_b, seed=1, clusters=units)
    eight = stats.cohen_kappa(a, b, seed=1)
    assert flat["kappa"] == clustered["kappa"] == eight["kappa"]
    width = lambda r: r["ci"][1] - r["ci"][0]  # noqa: E731
    assert width(clustered) > 2 * width(flat)
    assert width(clustered) == pytest.approx(width(eight), abs=0.15)


def test_a_presets_patient_makes_its_images_one_unit(tmp_path) -> None:
    """A preset item may name its own unit: ``patient:`` (or ``study:``); several images of one patient count
    once."""
    from helpers import choice_item, write_png, write_preset

    write_png(tmp_path / "a.png")
    items = [choice_item(i, "a.png", patient=f"P{i // 3}") for i in range(9)]
    preset = write_preset(tmp_path / "p.yaml", items)
    store = Store(tmp_path / "s.db")
    run_batch(store, [load_preset(preset)], ["baseline/first"], BatchOptions(run_name="r", progress=False))
    acc = score_run(store, "r")["models"]["baseline/first"]["accuracy"]
    assert (acc["n"], acc["units"], acc["unit"]) == (9, 3, "patient")


def test_the_paper_metrics_count_units_too(severity_runs) -> None:
    """Every paper metric's interval is over the units: the group figures of 656 answers over 8 pairs were
    46.2-53.8 before; MediConfusion's image figures count a pair's two images once."""
    store, run = severity_runs
    paper = score_run(store, run)["models"]["baseline/first"]["paper"]
    acc = paper["groups"]["group_consistency"]["all"]["accuracy"]
    assert (acc["n"], acc["units"], acc["unit"]) == (656, 8, "pair")
    assert acc["ci"][1] - acc["ci"][0] >= 30
    flips = paper["groups"]["answer_flip_rate"]["pairs"]
    assert (flips["n"], flips["units"]) == (640, 8) and flips["ci"][1] > 30
    individual = paper["mediconfusion"]["individual_accuracy"]
    assert (individual["n"], individual["units"]) == (16, 8)
    never = paper["robustness_curves"]["blur"]["breaking_point"]["never_broken"]
    assert (never["n"], never["units"]) == (16, 8)
    assert len({it["unit"] for it in paper["robustness_curves"]["blur"]["breaking_point"]["per_item"]}) == 8


def test_a_bootstrap_over_images_is_never_narrower_than_over_items() -> None:
    """Yes/no pairs of one image answered "yes" throughout: each image scores 50 %, so drawing images alone shows
    no spread; the interval is the wider of the images' and the questions' (the rule of the Wilson intervals)."""
    values = np.array([1.0, 0.0] * 4 * 3)
    images = np.repeat(np.arange(4), 6)
    questions = np.arange(len(values))
    iv = stats.cluster_bootstrap_ci(values, images, questions, 2000, np.random.default_rng(0))
    over_images = stats.percentile_ci(stats.cluster_bootstrap_means(values, images, 2000, np.random.default_rng(0)))
    assert over_images == (50.0, 50.0)
    assert iv[0] < 35 and iv[1] > 65
    one_each = stats.cluster_bootstrap_ci(values, questions, questions, 500, np.random.default_rng(1))
    assert one_each == stats.percentile_ci(stats.bootstrap_means(values, 500, np.random.default_rng(1)))


def test_the_run_records_its_unit_of_evidence(severity_runs) -> None:
    """The unit is stored with the run (its settings), read from the items as the scoring reads the answers."""
    store, run = severity_runs
    settings = store.get_run(run).config
    assert settings.unit == {"unit": "pair", "units": 8, "items": 16}
    assert store.get_run("thirteen").config.unit == {"unit": "pair", "units": 8, "items": 13}
