"""Calibration: does a model know when it is unsure? Its stated confidence against how often it is right (issue 44).

A probe run with ``--confidence`` asks each model for a 0-100 confidence in a fixed format
(:data:`probe_ui.prompts.CONFIDENCE_INSTRUCTION`, the answer format "confidence"); the scored-answer table
carries what each reply states as ``confidence`` (0-1), and a provider that reports its own probability of the chosen
answer fills ``token_confidence``, which is preferred where a row has one
(:func:`probe_ui.reading.confidence.used_confidence`).
The family applies where some answer of a model carries a confidence. Per model (one replica, several samples of
one question reduced by majority vote first: a cell's confidence is the mean of its samples'), over the scored
answers with a confidence (a known right answer; an unreadable answer is wrong, as everywhere):

- ``n``, ``with_confidence`` (the share of the model's scored answers that gave one), ``source`` (how many came
  from the reply's words, how many from the provider's probabilities);
- ``mean_confidence`` and ``accuracy`` (percent), and ``overconfidence`` = mean confidence - accuracy (points);
- ``ece``: the expected calibration error over 10 equal-width bins of confidence, as HELM reports it, in points
  (0-100): ECE = 100 * sum_b (n_b / n) * |accuracy_b - confidence_b| (:func:`probe_ui.stats.
  expected_calibration_error`), with ``p_calibrated`` (the p-value of "perfectly calibrated") and ``by_chance``
  (what a perfectly calibrated model would show on these answers, the median under that hypothesis);
- ``brier``: the Brier score in points, 100 * mean (confidence - right)^2 (0 best; always saying 50 % scores 25);
- ``reliability``: the reliability diagram's data, one entry per bin (``bin`` 1-10, ``low``/``high`` its edges in
  percent, ``n``, ``mean_confidence``, ``accuracy`` and its interval);
- ``coverage``: accuracy at 50 / 80 / 95 % coverage (selective prediction: the most confident answers kept, ties at
  the cut shared: :func:`probe_ui.stats.selective_weights`), each a MetricValue;
- ``per_condition``: per condition (perturbation), ``n``, ``mean_confidence``, ``accuracy``, ``ece`` and ``change``
  (its mean confidence minus the original's, points): whether confidence falls where accuracy does.

Intervals are over the units of evidence (:mod:`probe_ui.metrics.units`: an image's variants and samples count
once): accuracies by the design-effect Wilson interval (:func:`probe_ui.metrics.frame.cmv`), mean confidence and
the Brier score by the percentile bootstrap over units, the ECE as :func:`probe_ui.stats.clustered_calibration`
describes (one bootstrap gives the three). The accuracy at a coverage is the interval of the answers kept
(the cut taken as given).

Headline: ECE, Brier score, mean confidence and the accuracy at each coverage. Library functions over a
scored-answer table for the views: :func:`reliability_frame` (the diagram's data per run, model and bin: what
:func:`probe_ui.views.plots.reliability_diagram` draws) and :func:`condition_frame` (mean confidence per condition).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.base import MetricValue
from probe_ui.metrics.frame import (
    ORIGINAL,
    cmv,
    cond_values,
    correct_values,
    item_codes,
    mean_pct,
    mv,
    prepare,
    random_share,
    unit_codes,
    unit_kind,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words
from probe_ui.reading.confidence import CONFIDENCE, TOKEN_CONFIDENCE, used_confidence
from probe_ui.stats import (
    CALIBRATION_BINS,
    Calibration,
    calibration_bins,
    cluster_bootstrap_mean_ci,
    clustered_calibration,
    clustered_wilson,
    clustered_wilson_groups,
    cond_rng,
    expected_calibration_error,
    per_cluster,
    selective_weights,
)

FAMILY = "calibration"
#: the coverages selective prediction keeps (percent): the most confident half, four fifths, nineteen twentieths
COVERAGES = (50, 80, 95)
RELIABILITY_COLUMNS = ["run", "model", "bin", "low", "high", "n", "mean_confidence", "accuracy", "ci_low", "ci_high"]
CONDITION_COLUMNS = ["run", "model", "condition", "n", "mean_confidence", "ci_low", "ci_high", "accuracy", "change"]


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or not np.isfinite(x) else round(float(x), digits)


class _Answers:
    """One model's scored answers with a confidence, as arrays: confidence (0-1), right (1/0), unit and item codes,
    condition, the random-guess share, and whether the confidence came from the provider."""

    def __init__(self, df: pd.DataFrame) -> None:
        d = prepare(df)
        conf, token = used_confidence(d)
        c = correct_values(d)
        self.scored = int((~np.isnan(c)).sum())
        keep = ~np.isnan(conf) & ~np.isnan(c)
        self.has_all = ~np.isnan(conf[~np.isnan(c)])  # per scored answer: whether it gave a confidence
        self.units_all = unit_codes(d)[~np.isnan(c)]
        self.items_all = item_codes(d)[~np.isnan(c)]
        self.conf, self.right, self.token = conf[keep], c[keep], token[keep]
        self.unit, self.item = unit_codes(d)[keep], item_codes(d)[keep]
        self.cond = cond_values(d)[keep]
        self.p = random_share(d)[keep]
        self.kind = unit_kind(d)

    def __len__(self) -> int:
        return len(self.conf)


def _mean_confidence(conf: np.ndarray, unit: np.ndarray, item: np.ndarray, kind: str, n_boot: int,
                     rng: np.random.Generator) -> dict[str, Any]:
    """The mean confidence (percent) as a MetricValue, its interval the percentile bootstrap over units."""
    ci = cluster_bootstrap_mean_ci(conf, unit, item, n_boot, rng)
    return _bootstrapped(float(conf.sum()), len(conf), ci, int(len(per_cluster(conf, unit)[1])), kind)


def _bootstrapped(total: float, n: int, ci: tuple[float, float] | None, units: int, kind: str) -> dict[str, Any]:
    """A mean (percent) of ``n`` answers as a MetricValue, with a percentile bootstrap interval over its units."""
    return MetricValue(_r(100.0 * total / n) if n else None, round(total, 6), n, n,
                       (round(ci[0], 4), round(ci[1], 4)) if ci is not None else None, None, units=units, unit=kind,
                       method="percentile bootstrap over the units of evidence" if ci is not None else None).to_dict()


def _percent(ci: tuple[float, float] | None) -> tuple[float, float] | None:
    return (100.0 * ci[0], 100.0 * ci[1]) if ci is not None else None


def _ece(a: _Answers, found: Calibration) -> dict[str, Any]:
    ci = _percent(found.ece_ci)
    out = MetricValue(_r(100.0 * found.ece), round(found.ece * len(a), 6), len(a), len(a),
                      (round(ci[0], 4), round(ci[1], 4)) if ci else None, None, units=found.units, unit=a.kind,
                      method=Calibration.ECE_METHOD if ci else None).to_dict()
    out.update(p_calibrated=_r(found.p_calibrated, 6),
               by_chance=_r(100 * found.by_chance) if found.by_chance is not None else None,
               bins=CALIBRATION_BINS, n_boot=found.n_boot)
    return out


def _coverage(a: _Answers, q: int) -> dict[str, Any]:
    """Accuracy at ``q`` % coverage: the most confident answers kept (ties at the cut sharing its places)."""
    w = selective_weights(a.conf, q / 100.0)
    kept = w > 0
    right, weight, unit, item = (w * a.right)[kept], w[kept], a.unit[kept], a.item[kept]
    iv = clustered_wilson(per_cluster(right, unit)[0], per_cluster(weight, unit)[0],
                          nested=(per_cluster(right, item)[0], per_cluster(weight, item)[0]))
    den, num = float(weight.sum()), float(right.sum())
    return MetricValue(_r(100.0 * num / den) if den else None, round(num, 6), round(den, 6), int(round(den)),
                       (round(100 * iv.low, 4), round(100 * iv.high, 4)) if den else None, None, units=iv.units,
                       unit=a.kind, deff=iv.deff, method=iv.method).to_dict()


def reliability(conf: np.ndarray, right: np.ndarray, unit: np.ndarray | None = None,
                item: np.ndarray | None = None, n_bins: int = CALIBRATION_BINS) -> list[dict[str, Any]]:
    """The reliability diagram's data: per bin (1 .. n_bins, equal-width), its edges in percent, n, the mean
    confidence and the accuracy (percent; None for an empty bin) with the accuracy's interval over the units."""
    b = calibration_bins(conf, n_bins)
    n = np.bincount(b, minlength=n_bins)
    sc = np.bincount(b, weights=conf, minlength=n_bins)
    sy = np.bincount(b, weights=right, minlength=n_bins)
    intervals = clustered_wilson_groups(b, right, unit if unit is not None else np.arange(len(b)), item) \
        if len(b) else []
    out = []
    for k in range(n_bins):
        iv = intervals[k] if k < len(intervals) and n[k] else None
        out.append({"bin": k + 1, "low": round(100.0 * k / n_bins, 4), "high": round(100.0 * (k + 1) / n_bins, 4),
                    "n": int(n[k]), "mean_confidence": _r(100.0 * sc[k] / n[k]) if n[k] else None,
                    "accuracy": _r(100.0 * sy[k] / n[k]) if n[k] else None,
                    "ci": [round(100 * iv.low, 4), round(100 * iv.high, 4)] if iv is not None else None})
    return out


def _per_condition(a: _Answers, n_boot: int, seed: int) -> dict[str, Any]:
    conds = sorted(pd.unique(a.cond).tolist(), key=lambda c: (c != ORIGINAL, str(c)))
    out: dict[str, Any] = {}
    base = None
    for cond in conds:
        m = a.cond == cond
        mean = _mean_confidence(a.conf[m], a.unit[m], a.item[m], a.kind, n_boot, cond_rng(seed, "confidence:" + cond))
        ece = expected_calibration_error(a.conf[m], a.right[m])
        if cond == ORIGINAL:
            base = mean["value"]
        out[str(cond)] = {"n": int(m.sum()), "mean_confidence": mean,
                          "accuracy": cmv(a.right[m], a.unit[m], items=a.item[m], kind=a.kind),
                          "ece": _r(100.0 * ece) if ece is not None else None,
                          "change": _r(mean["value"] - base) if base is not None and cond != ORIGINAL
                          and mean["value"] is not None else None}
    return out


def calibration(df: pd.DataFrame, n_boot: int = 2000, seed: int = 0, detail: bool = True) -> dict[str, Any]:
    """The family's block for ONE model's table (module doc). ``n_boot`` 0: the figures without intervals;
    ``detail`` False: no reliability bins and no per-condition breakdown (a bootstrap replicate of a comparison)."""
    a = _Answers(df)
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"n": len(a), "with_confidence": cmv(a.has_all, a.units_all, items=a.items_all,
                                                               kind=a.kind) if a.scored else mv(0, 0),
                           "source": {"stated": int((~a.token).sum()), "token": int(a.token.sum())}}
    if not len(a):
        return out
    found = clustered_calibration(a.conf, a.right, a.unit, a.item, n_boot=n_boot, rng=rng)
    assert found is not None
    out["mean_confidence"] = _bootstrapped(float(a.conf.sum()), len(a), _percent(found.mean_ci), found.units, a.kind)
    out["accuracy"] = cmv(a.right, a.unit, items=a.item, kind=a.kind, random=mean_pct(a.p))
    out["overconfidence"] = _r(out["mean_confidence"]["value"] - out["accuracy"]["value"])
    out["ece"] = _ece(a, found)
    out["brier"] = _bootstrapped(float(((a.conf - a.right) ** 2).sum()), len(a), _percent(found.brier_ci),
                                 found.units, a.kind)
    out["coverage"] = {str(q): _coverage(a, q) for q in COVERAGES}
    if detail:
        out["reliability"] = reliability(a.conf, a.right, a.unit, a.item)
        out["per_condition"] = _per_condition(a, n_boot, seed)
    return out


def detect(d: pd.DataFrame) -> str | None:
    """Why the family applies to a table (its answers carry a confidence), or None."""
    for col, why in ((TOKEN_CONFIDENCE, "the provider's probabilities (token_confidence)"),
                     (CONFIDENCE, "a stated confidence in the replies (confidence)")):
        if col in d.columns and d[col].notna().any():
            return why
    return None


def _headline(block: dict[str, Any]) -> dict[str, Any]:
    if "ece" not in block:
        return {}
    out = {"ECE": block["ece"], "Brier score": block["brier"], "mean confidence": block["mean_confidence"]}
    out.update({f"accuracy at {q} % coverage": block["coverage"][str(q)] for q in COVERAGES})
    return out


_UNITS = "the units of evidence (items, pairs, images)"


@metric(FAMILY, "clean", order=960, detect=detect, headline=_headline, figures={
            "ECE": "expected calibration error: the gap between the confidence the model states and how often it is "
                   "right, over 10 bins of confidence, in points (0 = calibrated)",
            "Brier score": "the mean squared gap between the stated confidence and being right (1 or 0), in points "
                           "(0 best; always saying 50 % scores 25)",
            "mean confidence": "the mean confidence the model stated (or its provider's probability) over its scored "
                               "answers that gave one",
            "accuracy at {coverage} coverage": "accuracy over the model's most confident answers only, that share "
                                               "of them kept (selective prediction)"},
        description="calibration of a stated confidence (or a provider's probabilities): ECE over 10 bins as HELM, "
                    "Brier score, reliability diagram, accuracy at 50 / 80 / 95 % coverage, mean confidence per "
                    "condition; intervals over the units of evidence (ours)",
        explain={
            "ECE": Explanation(
                measures="whether the model's confidence means what it says: of the answers it gives 90 %, are 90 % "
                         "right? 0 is perfectly calibrated; 40 means its confidence is off by 40 points on average",
                paper="Guo et al. (2017), On Calibration of Modern Neural Networks, eq. 3, with 10 equal-width bins "
                      "as HELM reports it (Liang et al. 2022); the confidence asked for in a fixed format (probe-ui "
                      "--confidence) or the provider's probability of the chosen answer where it reports one",
                computed="the answers with a confidence and a known right answer are put in 10 bins by confidence, "
                         "(0, 10 %], (10, 20 %], ..., (90, 100 %]; per bin, |its accuracy - its mean confidence|, "
                         "weighted by its share of the answers, summed; x 100. An unreadable answer counts as "
                         "wrong; several samples of one question count once, with their mean confidence",
                chance="a perfectly calibrated model shows a few points by chance on few answers: the block's "
                       "by_chance says how many on these answers, and p_calibrated whether the ECE is more than "
                       "that; a model that always says 90 % and is right half the time scores 40",
                ci=f"the 95 % interval over {_UNITS}, so that an image's variants and samples count once: the ECE "
                   "is biased upward, so the interval joins the basic bootstrap of the ECE and the percentile "
                   "bootstrap of its bias-corrected value (Kumar et al. 2019), and starts at 0 where a wild "
                   "cluster bootstrap test does not reject perfect calibration at 5 %"),
            "Brier score": Explanation(
                measures="confidence and correctness in one number: low when the model is right and sure, or wrong "
                         "and unsure",
                paper="Brier (1950), Monthly Weather Review 78:1-3; the calibration score issue 44 cites from "
                      "MedXpertQA",
                computed="the mean over the answers with a confidence of (confidence - right)^2, right being 1 or 0 "
                         "(an unreadable answer 0), x 100",
                chance="a model that always says 50 % scores 25 whatever its answers; one always 100 % sure scores "
                       "its error rate x 100",
                ci=f"the 95 % percentile bootstrap interval over {_UNITS}, whole units drawn together"),
            "mean confidence": Explanation(
                measures="how sure the model says it is, on average; beside accuracy it shows over- or "
                         "underconfidence, and per condition whether it is less sure when the image is perturbed",
                paper="probe-ui's own (issue 44), the confidence asked for as in the calibration papers",
                computed="the mean of the stated confidences (the provider's probability where it reports one), "
                         "over the scored answers that gave one; per condition the same over that condition's "
                         "answers, with its change from the original",
                chance="a guesser that knows it guesses says 1 / the number of options (50 % for two)",
                ci=f"the 95 % percentile bootstrap interval over {_UNITS}, whole units drawn together"),
            "accuracy at {coverage} coverage": Explanation(
                measures="how right the model is when it may abstain from its least confident answers: if its "
                         "confidence means anything, the accuracy rises as the coverage falls",
                paper="selective prediction (El-Yaniv & Wiener 2010; Geifman & El-Yaniv 2017), accuracy at a fixed "
                      "coverage",
                computed="the answers sorted by confidence, the most confident 50 %, 80 % or 95 % kept (answers "
                         "tied at the cut share its places, as if ties were broken at random); right answers / "
                         "answers kept",
                chance="a confidence that means nothing keeps the overall accuracy at every coverage",
                ci=ci_words("the answers kept", "the cut is taken as given"))})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    return calibration(d, n_boot=ctx.n_boot, seed=ctx.seed, detail=ctx.detail)


# ---- frames over a scored-answer table (the Results tab, the report) --------------------------------------------

def _blocks(df: pd.DataFrame) -> list[tuple[str, str, _Answers]]:
    """(run, model, answers with a confidence) per run and model that has some (several samples voted first)."""
    from probe_ui.metrics.samples import majority_vote

    if df is None or df.empty or detect(df) is None:
        return []
    voted = majority_vote(df)
    runs = voted["run"].astype(str) if "run" in voted.columns else pd.Series("", index=voted.index)
    out = []
    for (run, model), g in voted.assign(_run=runs).groupby(["_run", "model"], sort=True):
        a = _Answers(g.drop(columns=["_run"]))
        if len(a):
            out.append((str(run), str(model), a))
    return out


def reliability_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The reliability diagram's data of a scored-answer table: one row per run, model and non-empty bin: its
    edges (percent), n, mean confidence and accuracy (percent), the accuracy's interval (``ci_low``, ``ci_high``)."""
    rows = []
    for run, model, a in _blocks(df):
        for b in reliability(a.conf, a.right, a.unit, a.item):
            if b["n"]:
                ci = b["ci"] or [None, None]
                rows.append({"run": run, "model": model, "bin": b["bin"], "low": b["low"], "high": b["high"],
                             "n": b["n"], "mean_confidence": b["mean_confidence"], "accuracy": b["accuracy"],
                             "ci_low": ci[0], "ci_high": ci[1]})
    return pd.DataFrame(rows, columns=RELIABILITY_COLUMNS)


def condition_frame(df: pd.DataFrame, n_boot: int = 2000, seed: int = 0) -> pd.DataFrame:
    """Mean confidence per run, model and condition (percent, with its interval over the units), the accuracy on the
    same answers and ``change``: the mean confidence minus the original's (points): whether the model is less sure
    under each perturbation."""
    rows = []
    for run, model, a in _blocks(df):
        for cond, b in _per_condition(a, n_boot, seed).items():
            ci = b["mean_confidence"]["ci"] or [None, None]
            rows.append({"run": run, "model": model, "condition": cond, "n": b["n"],
                         "mean_confidence": b["mean_confidence"]["value"], "ci_low": ci[0], "ci_high": ci[1],
                         "accuracy": b["accuracy"]["value"], "change": b["change"]})
    return pd.DataFrame(rows, columns=CONDITION_COLUMNS)
