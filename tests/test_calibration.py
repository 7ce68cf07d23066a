"""Calibration (issue 44): the confidence a reply states, read beside its answer, and the calibration family (ECE,
Brier score, reliability diagram, accuracy at 50 / 80 / 95 % coverage, mean confidence per condition) with its
intervals over the units of evidence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from helpers import store_replies

from probe_ui.metrics import detect_families, headlines, paper_metrics
from probe_ui.metrics.calibration import RELIABILITY_COLUMNS, calibration, condition_frame, reliability_frame
from probe_ui.metrics.registry import find_figure
from probe_ui.metrics.samples import majority_vote
from probe_ui.prompts import CONFIDENCE_INSTRUCTION
from probe_ui.reading import answers
from probe_ui.reading.confidence import (
    PATTERNS,
    confidence_column,
    read_confidence,
    used_confidence,
)
from probe_ui.scoring import score_run, scored_answers
from probe_ui.stats import (
    brier_score,
    calibration_bins,
    cluster_bootstrap_mean_ci,
    clustered_calibration,
    clustered_wilson,
    expected_calibration_error,
    per_cluster,
    selective_weights,
)
from probe_ui.store import Store
from probe_ui.views import plots

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "presets" / "mediconfusion_pairs.yaml"


# ---- reading the confidence a reply states ---------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("Confidence: 90%", 0.9), ("confidence: 0.9", 0.9), ("Confidence - 90 / 100", 0.9), ("I am 90% confident", 0.9),
    ("(confidence 85%)", 0.85), ("**Confidence:** 85 %", 0.85), ("Confidence (0-100): 70", 0.7),
    ("my confidence in this answer is 8/10", 0.8), ("Confidence: high (90%)", 0.9), ("Confidence: 80-90%", 0.85),
    ("with 95% confidence", 0.95), ("90 percent sure", 0.9), ("Certainty: 80%", 0.8), ("Confidence: .75", 0.75),
    ("Confidence 85", 0.85), ("Confidence: 1", 1.0), ("Confidence: 0%", 0.0),
    ("The answer is A. Confidence: 90%", 0.9),
    ("Answer: B (confidence 85%). I am 60% sure.", 0.85),  # a stated confidence before a phrase
    ("Confidence: 70%. On reflection, final confidence: 60%", 0.6),  # the last stated one
    ("Confidence: 85%\n- 2 lesions are seen", 0.85),  # no range after all
    # a reader check of 2026-12-06: out of five ("1/5" was read as 100 %), and a certainty in a phrase
    ("Answer: B. Confidence: 1/5.", 0.2), ("Certainty: 1 out of 5.", 0.2), ("Confidence: 4 / 5", 0.8),
    ("Yes, with 10% certainty.", 0.1),
])
def test_a_stated_confidence_is_read(text: str, value: float) -> None:
    assert read_confidence(text) == pytest.approx(value)


@pytest.mark.parametrize("text", [
    "a 90% stenosis of the left anterior descending artery", "size 90 mm", "the 95% confidence interval is 80 to 90",
    "I can say with confidence 2 lesions are seen", "confidence: 1000", "confidence: 150%", "I am not 100% sure",
    "high confidence", "I am confident the answer is A", "Overconfidence: 90%", "95% CI", "", None,
    "Confidence: 3/7", "Confidence: 2 out of 3",  # (no scale it knows: not 3 or 2 on the 0-100 scale)
])
def test_no_other_number_is_read_as_a_confidence(text: str | None) -> None:
    assert read_confidence(text) is None


def test_every_pattern_reads_its_example_and_the_instruction_is_fixed() -> None:
    for kind, _, example in PATTERNS:
        assert read_confidence(example) is not None, (kind, example)
    assert "Confidence: N%" in CONFIDENCE_INSTRUCTION and "0 to 100" in CONFIDENCE_INSTRUCTION


CORPUS = ["The answer is A. Confidence: 90%", "Confidence: 150%", "confidence: 90%-95%", "Confidence:90 %",
          "I am sure. Confidence: 80%", "Confidence: 70%. Final confidence: 60%", "confidence: 45.5%",
          "B\n\nConfidence: 100%", "No confidence given", "a 90% stenosis", "overconfidence: 90%",
          "Confidence: 90% to 95%", "Confidence: 090%", "certainty: 20%. confidence: 30%", "Confidence: 9000%",
          "Confidence: 85% (fairly sure)", "unsure", "", None, "Konfidence: 90%", "ßconfidence: 90%"]


@pytest.mark.parametrize("backing", ["str", "object"])
def test_the_vectorised_column_reads_as_the_reader(backing: str) -> None:
    texts = CORPUS * 3
    index = np.arange(len(texts)) * 2  # an index of its own: the column is aligned with it
    df = pd.DataFrame({"raw_text": pd.Series(texts, dtype=backing, index=index)}, index=index)
    col = confidence_column(df)
    assert list(col.index) == list(df.index)
    assert col.tolist() == [read_confidence(t) for t in texts]
    assert confidence_column(pd.DataFrame({"raw_text": [None, None]})).tolist() == [None, None]
    assert confidence_column(pd.DataFrame({"x": [1]})).tolist() == [None]


@pytest.mark.parametrize("text, kind, options, choice", [
    ("The answer is A. Confidence: 90%", "choice", ("CT", "MRI"), "A"),
    ("B. Confidence: 85%", "choice", ("CT", "MRI"), "B"),
    ("Answer: B (confidence 85%)", "choice", ("CT", "MRI"), "B"),
    ("The answer is A. Confidence: 0.9", "choice", ("CT", "MRI"), "A"),
    ("Yes. Confidence: 90%", "yesno", (), "yes"),
    ("No. Confidence: 10%", "yesno", (), "no"),
])
def test_the_answer_reader_reads_the_answer_beside_a_confidence(text: str, kind: str, options: tuple[str, ...],
                                                                 choice: str) -> None:
    labels = ("A", "B") if kind == "choice" else ("yes", "no")
    ans = answers.extract(text, kind, labels, options)
    assert ans.choice == choice and not ans.invalid


# ---- the done-when case: MediConfusion pairs, every reply "The answer is A. Confidence: 90%" ----------------------

def test_a_scripted_confidence_of_90_over_the_mediconfusion_pairs_gives_ece_40(tmp_path: Path) -> None:
    """Issue 44's done-when: every reply "The answer is A. Confidence: 90%" over the 16 images (8 pairs) of
    presets/mediconfusion_pairs.yaml. One image of each pair has A right: accuracy 50 %, every confidence 90 %, one
    bin (0.8, 0.9]: ECE = |50 - 90| = 40 points."""
    store = Store(tmp_path / "probe-ui.db")
    store_replies(store, PAIRS, {"model-x": ["The answer is A. Confidence: 90%"] * 16})
    df = scored_answers(store, "r")
    assert df["confidence"].tolist() == [0.9] * 16
    block = score_run(store, "r")["models"]["model-x"]["paper"]["calibration"]
    assert block["n"] == 16 and block["source"] == {"stated": 16, "token": 0}
    assert block["accuracy"]["value"] == 50.0 and block["mean_confidence"]["value"] == 90.0
    assert block["ece"]["value"] == pytest.approx(40.0) and block["overconfidence"] == pytest.approx(40.0)
    assert block["ece"]["unit"] == "pair" and block["ece"]["units"] == 8
    lo, hi = block["ece"]["ci"]
    assert 0 < lo < 40 < hi <= 100 and block["ece"]["p_calibrated"] < 0.05
    assert block["brier"]["value"] == pytest.approx(41.0)  # (0.9 - 1)^2 and (0.9 - 0)^2, half each: 0.41
    assert {q: block["coverage"][q]["value"] for q in ("50", "80", "95")} == {"50": 50.0, "80": 50.0, "95": 50.0}
    [full] = [b for b in block["reliability"] if b["n"]]
    assert (full["bin"], full["low"], full["high"], full["mean_confidence"], full["accuracy"]) == (9, 80, 90, 90, 50)
    heads = headlines(score_run(store, "r")["models"]["model-x"]["paper"])["calibration"]
    assert heads["ECE"]["value"] == pytest.approx(40.0)
    for label in heads:
        assert find_figure(f"calibration: {label}") is not None, label


def test_replies_without_a_confidence_leave_the_family_out(tmp_path: Path) -> None:
    store = Store(tmp_path / "probe-ui.db")
    store_replies(store, PAIRS, {"plain": ["The answer is A."] * 8 + ["A: a 90% stenosis"] * 8})
    df = scored_answers(store, "r")
    assert df["confidence"].isna().all()
    assert "calibration" not in detect_families(df)
    assert "calibration" not in score_run(store, "r")["models"]["plain"]["paper"]
    assert reliability_frame(df).empty and condition_frame(df).empty


# ---- the statistics on hand examples ---------------------------------------------------------------------------

def test_ece_of_a_published_worked_example() -> None:
    """Maja Pavlovic, "Expected Calibration Error (ECE) - a step-by-step visual explanation", Towards Data Science,
    July 2023 (https://towardsdatascience.com/expected-calibration-error-ece-a-step-by-step-visual-explanation-
    with-python-code-c3e9aa12937d/): nine binary predictions, samples = [0.22, 0.64, 0.92, 0.42, 0.51, 0.15, 0.70,
    0.37, 0.83] with true labels [0, 1, 0, 0, 0, 1, 1, 0, 1], predicted label = sample > 0.5, and the sample itself
    binned as the confidence in M = 3 equal bins, (0, 1/3], (1/3, 2/3], (2/3, 1]. The article gives ECE = 0.23778:
    bin 1 (0.22 right, 0.15 wrong) |0.5 - 0.185| x 2/9, bin 2 (0.64, 0.42, 0.37 right, 0.51 wrong) |0.75 - 0.485|
    x 4/9, bin 3 (0.70, 0.83 right, 0.92 wrong) |0.667 - 0.817| x 3/9."""
    samples = np.array([0.22, 0.64, 0.92, 0.42, 0.51, 0.15, 0.70, 0.37, 0.83])
    labels = np.array([0, 1, 0, 0, 0, 1, 1, 0, 1])
    right = ((samples > 0.5).astype(int) == labels).astype(float)
    assert expected_calibration_error(samples, right, n_bins=3) == pytest.approx(0.23778, abs=5e-6)
    assert calibration_bins(samples, 3).tolist() == [0, 1, 2, 1, 1, 0, 2, 1, 2]


def test_bins_are_right_closed_as_helm() -> None:
    assert calibration_bins([0.0, 0.05, 0.1, 0.1000001, 0.9, 0.95, 1.0]).tolist() == [0, 0, 0, 1, 8, 9, 9]
    assert calibration_bins(np.array([k / 100 for k in range(101)])).tolist() == \
        [0] * 11 + [b for b in range(1, 10) for _ in range(10)]


def _table(conf: list[float | None], right: list[int], units: list[int] | None = None,
           conds: list[str] | None = None, model: str = "m", token: list[float | None] | None = None) -> pd.DataFrame:
    """A scored-answer table of one choice question per row ("A" right where ``right``), each of its unit's image
    (``units``: the variants of one image), under ``conds`` (default: the original)."""
    n = len(conf)
    units = units if units is not None else list(range(n))
    conds = conds if conds is not None else ["original"] * n
    df = pd.DataFrame({
        "model": model, "prompt": "default", "sample": 0, "variant_id": [f"v{i}" for i in range(n)],
        "item_id": [f"img{u}" for u in units], "group_id": [f"img{u}" for u in units], "item_group": None,
        "source": "test.yaml", "condition": conds, "kind": "choice", "answer_label": "A", "n_labels": 2,
        "parsed": ["A" if r else "B" for r in right], "invalid": False, "refusal": False,
        "correct": pd.Series([bool(r) for r in right], dtype=object), "error": None,
        "confidence": pd.Series(conf, dtype=object)})
    if token is not None:
        df["token_confidence"] = pd.Series(token, dtype=object)
    return df


def test_brier_score_of_a_hand_example() -> None:
    """(0.9 - 1)^2 + (0.8 - 0)^2 + (0.6 - 1)^2 + (0.3 - 0)^2 = 0.01 + 0.64 + 0.16 + 0.09 = 0.90; / 4 = 0.225."""
    conf, right = [0.9, 0.8, 0.6, 0.3], [1, 0, 1, 0]
    assert brier_score(conf, right) == pytest.approx(0.225)
    block = calibration(_table(conf, right), n_boot=200)
    assert block["brier"]["value"] == pytest.approx(22.5)
    assert block["mean_confidence"]["value"] == pytest.approx(65.0) and block["accuracy"]["value"] == 50.0
    # ECE by hand: bins (0.2, 0.3] {0.3 wrong}, (0.5, 0.6] {0.6 right}, (0.7, 0.8] {0.8 wrong}, (0.8, 0.9] {0.9
    # right}: (0.3 + 0.4 + 0.8 + 0.1) / 4 = 0.4
    assert block["ece"]["value"] == pytest.approx(40.0)


def test_accuracy_at_coverage_of_a_hand_example() -> None:
    """Ten answers by confidence: 0.95 R, 0.9 R, 0.9 W, 0.8 R, 0.7 W, 0.6 R, 0.5 W, 0.4 W, 0.3 R, 0.2 W. The most
    confident 50 % (5): 3 right, 60 %; 80 % (8): 4 right, 50 %; 95 % (ceil 9.5 = 10): 5 right, 50 %."""
    conf = [0.95, 0.9, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    right = [1, 1, 0, 1, 0, 1, 0, 0, 1, 0]
    cov = calibration(_table(conf, right), n_boot=0)["coverage"]
    assert {q: cov[q]["value"] for q in cov} == {"50": 60.0, "80": 50.0, "95": 50.0}
    assert cov["50"]["denominator"] == 5 and cov["80"]["denominator"] == 8


def test_answers_tied_at_the_cut_share_its_places() -> None:
    """Four answers at 0.9 (two right) for three places at 50 % coverage of six: each kept with weight 3/4, so the
    accuracy is the tied group's, 50 %, whatever order they came in."""
    conf = np.array([0.9, 0.9, 0.9, 0.9, 0.5, 0.5])
    w = selective_weights(conf, 0.5)
    assert w.tolist() == [0.75, 0.75, 0.75, 0.75, 0.0, 0.0] and w.sum() == 3
    cov = calibration(_table(list(conf), [1, 1, 0, 0, 1, 0]), n_boot=0)["coverage"]
    assert cov["50"]["value"] == 50.0 and cov["95"]["value"] == 50.0
    assert selective_weights(np.array([0.3, 0.9]), 0.5).tolist() == [0.0, 1.0]
    assert selective_weights(np.array([]), 0.5).tolist() == []


def test_an_unreadable_answer_with_a_confidence_counts_as_wrong_and_no_truth_is_left_out() -> None:
    df = _table([0.8, 0.8, 0.8], [1, 0, 1])
    df.loc[1, ["parsed", "invalid"]] = [None, True]
    df["correct"] = pd.Series([True, None, True], dtype=object)
    df.loc[1, "correct"] = False
    df.loc[2, "correct"] = None  # no known right answer: not scored
    block = calibration(df, n_boot=0)
    assert block["n"] == 2 and block["accuracy"]["value"] == 50.0


def test_a_cell_of_several_samples_has_its_samples_mean_confidence() -> None:
    rows = []
    for s, (conf, parsed) in enumerate([(0.9, "A"), (0.6, "A"), (None, "B")]):
        rows.append({"model": "m", "prompt": "p", "variant_id": "v1", "sample": s, "parsed": parsed,
                     "method": "declaration", "invalid": False, "refusal": False, "sure": True,
                     "correct": parsed == "A", "answer_label": "A", "error": None, "latency_s": 1.0,
                     "input_tokens": 1, "output_tokens": 1, "cost": 0.0, "confidence": conf})
    for s in range(2):
        rows.append({**rows[0], "variant_id": "v2", "sample": s, "confidence": None})
    voted = majority_vote(pd.DataFrame(rows)).set_index("variant_id")
    assert voted.loc["v1", "confidence"] == pytest.approx(0.75) and voted.loc["v1", "parsed"] == "A"
    assert voted.loc["v2", "confidence"] is None


def test_a_providers_probability_is_preferred_where_a_row_has_one() -> None:
    df = _table([0.9, 0.9, None], [1, 0, 1], token=[0.6, None, 0.7])
    conf, token = used_confidence(df)
    assert conf.tolist() == [0.6, 0.9, 0.7] and token.tolist() == [True, False, True]
    block = calibration(df, n_boot=0)
    assert block["source"] == {"stated": 1, "token": 2} and block["n"] == 3
    assert "provider" in detect_families(df)["calibration"]


def test_mean_confidence_per_condition_shows_where_it_falls() -> None:
    conf = [0.9] * 6 + [0.6] * 6
    right = [1, 1, 1, 0, 1, 1] + [1, 0, 0, 1, 0, 0]
    conds = ["original"] * 6 + ["blur/3"] * 6
    units = list(range(6)) * 2  # each image's original and its blurred variant: one unit
    block = calibration(_table(conf, right, units, conds), n_boot=300)
    per = block["per_condition"]
    assert list(per) == ["original", "blur/3"]
    assert per["original"]["mean_confidence"]["value"] == 90.0 and per["blur/3"]["mean_confidence"]["value"] == 60.0
    assert per["blur/3"]["change"] == pytest.approx(-30.0) and per["original"]["change"] is None
    assert per["blur/3"]["accuracy"]["value"] == pytest.approx(100 / 3, abs=1e-3)
    assert block["ece"]["units"] == 6 and block["with_confidence"]["value"] == 100.0
    frame = condition_frame(_table(conf, right, units, conds).assign(run="r"), n_boot=100)
    change = frame.set_index("condition")["change"]
    assert pd.isna(change["original"]) and change["blur/3"] == pytest.approx(-30.0)


def test_a_comparison_replicate_skips_intervals_and_breakdowns() -> None:
    df = _table([0.9, 0.7, 0.6, 0.8], [1, 0, 1, 1])
    block = paper_metrics(df, n_boot=0)["calibration"]
    assert block["ece"]["ci"] is None and block["ece"]["p_calibrated"] is None
    quick = calibration(df, n_boot=0, detail=False)
    assert "reliability" not in quick and "per_condition" not in quick
    assert quick["ece"]["value"] == block["ece"]["value"]


# ---- simulation: calibrated answers in clusters ------------------------------------------------------------------

def _simulate(rng: np.random.Generator, images: int, variants: int, shift: float = 0.0
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Answers about ``images`` images, ``variants`` each: an image's latent difficulty d ~ N(0, 1) is shared by
    its variants; each states c = sigmoid(1 + d + e) (rounded to a whole percent, e ~ N(0, 0.3)) and is right with
    probability c - shift (``shift`` 0: perfectly calibrated). The answers of one image are alike: one unit."""
    d = np.repeat(rng.normal(0, 1, images), variants)
    c = np.round(1 / (1 + np.exp(-(1 + d + rng.normal(0, 0.3, images * variants)))), 2)
    right = (rng.random(images * variants) < np.clip(c - shift, 0, 1)).astype(float)
    return c, right, np.repeat(np.arange(images), variants)


def _truth(shift: float) -> dict[str, float]:
    """The population's figures (points), from a million answers of the same model."""
    c, _, _ = _simulate(np.random.default_rng(99), 1_000_000, 1)
    p = np.clip(c - shift, 0, 1)
    gaps = np.bincount(calibration_bins(c), weights=c - p, minlength=10)
    return {"ece": 100 * np.abs(gaps).sum() / len(c), "mean": 100 * c.mean(), "accuracy": 100 * p.mean(),
            "brier": 100 * float(np.mean(p * (1 - c) ** 2 + (1 - p) * c ** 2))}


@pytest.mark.parametrize("shift", [0.0, 0.1])
def test_simulated_answers_in_clusters_give_intervals_that_cover_the_truth(shift: float) -> None:
    """120 simulated runs of 50 images x 4 variants (200 answers). Calibrated (shift 0): the ECE is near 0 (within
    what a calibrated model shows by chance: the test rarely rejects calibration) and its interval reaches 0 about
    95 % of the time; the answers overconfident by 10 points: the interval covers the true ECE of 10. Mean
    confidence, accuracy and the Brier score: their intervals over the images cover the truth at about 95 %. Over
    600 runs of this design the coverages were 0.92-0.94 (mean confidence, Brier score), 0.955 (accuracy) and
    0.94 / 0.975 (ECE, calibrated / overconfident); 120 runs estimate each within about 0.04 (two standard errors)."""
    truth = _truth(shift)
    rng = np.random.default_rng(7)
    reps, n_boot = 120, 400
    hits = {"ece": 0, "mean": 0, "accuracy": 0, "brier": 0}
    eces, rejected = [], 0
    for _ in range(reps):
        c, y, units = _simulate(rng, 50, 4, shift)
        f = clustered_calibration(c, y, units, n_boot=n_boot, rng=rng)
        assert f is not None and f.ece_ci and f.mean_ci and f.brier_ci and f.p_calibrated is not None
        eces.append(100 * f.ece)
        rejected += f.p_calibrated < 0.05
        for name, ci in (("ece", f.ece_ci), ("mean", f.mean_ci), ("brier", f.brier_ci)):
            hits[name] += 100 * ci[0] <= truth[name] + 1e-9 and truth[name] <= 100 * ci[1] + 1e-9
        iv = clustered_wilson(*per_cluster(y, units))
        hits["accuracy"] += 100 * iv.low <= truth["accuracy"] <= 100 * iv.high
    cover = {k: v / reps for k, v in hits.items()}
    assert all(0.85 <= cover[k] <= 0.995 for k in ("mean", "accuracy", "brier")), cover
    assert np.mean([cover[k] for k in ("mean", "accuracy", "brier")]) >= 0.9, cover
    if shift == 0.0:
        assert truth["ece"] < 0.5 and np.mean(eces) < 10 and rejected / reps <= 0.12, (np.mean(eces), rejected)
        assert 0.88 <= cover["ece"] <= 0.995, cover
    else:
        assert truth["ece"] == pytest.approx(10.0, abs=0.5) and 0.88 <= cover["ece"] <= 0.995, cover


def test_the_family_gives_the_statistics_figures() -> None:
    """The family's block over a simulated table is the statistics module's figures (one rep of the simulation)."""
    c, y, units = _simulate(np.random.default_rng(3), 30, 3)
    block = calibration(_table(list(c), [int(v) for v in y], [int(u) for u in units]), n_boot=300, seed=5)
    f = clustered_calibration(c, y, units, n_boot=300, rng=np.random.default_rng(5))
    assert f is not None and f.ece_ci is not None and f.mean_ci is not None
    assert block["ece"]["value"] == pytest.approx(round(100 * f.ece, 4)) and block["ece"]["units"] == 30
    assert block["ece"]["ci"] == pytest.approx([100 * f.ece_ci[0], 100 * f.ece_ci[1]], abs=1e-4)
    assert block["mean_confidence"]["ci"] == pytest.approx([100 * f.mean_ci[0], 100 * f.mean_ci[1]], abs=1e-4)
    assert block["brier"]["value"] == pytest.approx(100 * brier_score(c, y), abs=1e-4)
    # a mean's interval over units, by the profile-drawing bootstrap: units alike (a few round percentages) or not
    lo, hi = cluster_bootstrap_mean_ci(c, units, None, 500, np.random.default_rng(1))
    assert lo < 100 * c.mean() < hi
    alike = np.repeat([0.8, 0.9], 100)
    lo, hi = cluster_bootstrap_mean_ci(alike, np.arange(200), None, 500, np.random.default_rng(1))
    assert lo < 85 < hi and hi - lo < 2 * 1.96 * 100 * 0.05 / np.sqrt(200) * 1.3
    bins = [b for b in block["reliability"] if b["n"]]
    assert sum(b["n"] for b in bins) == 90
    assert all(b["low"] <= b["mean_confidence"] <= b["high"] for b in bins)


# ---- the reliability diagram -------------------------------------------------------------------------------------

def test_the_reliability_diagram_is_drawn_for_1_to_12_models(tmp_path: Path) -> None:
    store = Store(tmp_path / "probe-ui.db")
    replies = {}
    for k in range(12):  # model k says A or B and a confidence of its own, per image
        replies[f"model-{k:02d}"] = [f"The answer is {'AB'[(i + k) % 2]}. Confidence: {50 + (5 * (i + k)) % 50}%"
                                     for i in range(16)]
    store_replies(store, PAIRS, replies)
    table = reliability_frame(scored_answers(store, "r"))
    assert list(table.columns) == RELIABILITY_COLUMNS and table["model"].nunique() == 12
    assert (table["n"] > 0).all() and table.groupby("model")["n"].sum().eq(16).all()
    models = sorted(table["model"].unique())
    for n in range(1, 13):
        fig = plots.reliability_diagram(table[table["model"].isin(models[:n])])
        go.Figure(fig.to_dict())  # validation on: what the page's Plotly accepts
        assert len(fig.data) == n + 1  # the diagonal and one trace per model
    several = pd.concat([table, table.assign(run="other")])
    assert len(plots.reliability_diagram(several).data) == 25
    empty = plots.reliability_diagram(pd.DataFrame(columns=RELIABILITY_COLUMNS))
    go.Figure(empty.to_dict())


@pytest.mark.parametrize("reply,answer_part,stated", [
    ("I still think the opacity is confined to the left base — C. Confidence: 65 %.",
     "I still think the opacity is confined to the left base — C.", 0.65),
    ("A. Osteosarcoma. **Confidence:** 8/10", "A. Osteosarcoma.", 0.8),
    ("My answer stays **A. Sarcoidosis** (confidence ~75 %).", "My answer stays **A. Sarcoidosis**.", 0.75),
    ("The nodule is solid — A. High confidence.", "The nodule is solid — A.", None),
    # nothing but a confidence, or none at all: left as it is
    ("Confidence: 80 %.", "Confidence: 80 %.", 0.8),
    ("B. Pleural effusion.", "B. Pleural effusion.", None),
])
def test_a_closing_stated_confidence_is_cut_before_the_answer_is_read_and_read_as_a_number(
        reply: str, answer_part: str, stated: float | None) -> None:
    from probe_ui.reading.confidence import without_stated_confidence

    assert without_stated_confidence(reply) == answer_part
    assert read_confidence(reply) == (pytest.approx(stated) if stated is not None else None)
