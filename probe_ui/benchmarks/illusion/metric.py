"""Illusion of Readiness stress tests T1-T5: accuracy per condition with bootstrap 95 % CIs, paired differences to
the unperturbed condition with bootstrap CIs and a paired permutation test, abstention, fragility and robustness.

Rows: the illusion suite's conditions (``illusion/no-image``, ``illusion/no-image+shuffle`` (the options re-ordered
and no image: the paper's T3), ``illusion/shuffle`` (re-ordered with the image), ``illusion/1R`` ..
``illusion/4R``, ``illusion/unknown``, ``illusion/substitution``; any other ``illusion/*`` condition is reported
too) and the ``original`` rows of the items asked under them (other presets' originals in the same run are not the
illusion suite's baseline). An item is ``(model[, prompt][, sample], group_id)`` (``groups`` module doc).

Abstention, as the paper counts it: a reply that abstains (the refusal flag: "I cannot determine ...") counts as
INCORRECT in accuracy even when it also names the right option ("I can't be sure without the image, but the answer
is B" is wrong), and invalid replies are wrong too; abstention = refusal or invalid, reported on its own per
condition. Rows whose ground truth is unknown are left out of accuracy but not of abstention; provider errors are
left out of everything.

Statistics (numpy only, seeded, vectorised):

- accuracy CI: percentile bootstrap over rows (``n_boot`` resamples). Resampling n values with replacement and
  averaging is the same as drawing the counts of each distinct value from a multinomial, which is what is done
  (exact, O(n_boot · distinct values), independent of n);
- paired difference: over items present in both a condition and its baseline (``original``; for the text-only
  variants ``illusion/no-image+...``, the text-only ``illusion/no-image``, as the paper compares reordering without
  the image to no image; ``baseline`` in each entry), d_i = right(cond) − right(baseline) (per-item means when an
  item has several rows); ``pp`` = 100 · mean d; CI = percentile bootstrap over items (multinomial as
  above); ``p_value`` = two-sided paired permutation (sign-flip) test of mean d = 0. When every d_i is −1, 0 or
  +1 the full sign-flip distribution is a binomial, and the exact p-value P(|2B − m| ≥ |Σ d|), B ~ Bin(m, ½),
  m = #{d_i ≠ 0}, is returned (``p_method`` "exact"); otherwise ``n_boot`` random sign flips,
  p = (1 + #{|T*| ≥ |T|}) / (1 + n_boot) ("monte-carlo"). Identical conditions give p = 1.
  Random streams derive from ``seed`` and the condition name (crc32), so adding a condition changes no other.

Fragility (ours; the paper's exact formulas did not survive in its text, docs/reference.md §4). Accuracies are
fractions over PAIRED items (A_orig is the original's accuracy on the items that also have the compared condition);
c = chance = mean 1/n_labels; every F is clipped to [0, 1] and is None when its conditions are missing;
R_t = 1 - F_t; ``robustness`` = mean R_t over the defined tests among the paper's five (T1..T5; T3-with-image is
reported but not averaged). The formulas, verbatim as returned in
``fragility[T]["formula"]``:

- T1, modality sensitivity (weighted drop when the image is removed; sources = benchmarks, the ``source``
  column, weighted by their paired item counts):
  F1 = clip(sum_s w_s * (A_orig,s - A_noimage,s) / A_orig,s, 0, 1); w_s = n_s / sum n over sources s
  (paired items; a source with A_orig,s = 0 contributes 0)
- T2, modality necessity (excess accuracy above chance without the image, as a share of the room above chance;
  "visual-required" = the tag, or attribute ``visual_required: true``):
  F2 = clip((A_noimage - c) / (1 - c), 0, 1); c = mean 1/n_labels; over items tagged visual-required
  if any, else all no-image items
- T3, format perturbation, as the paper measures it: the relative drop after re-ordering the options in the
  TEXT-ONLY condition (``illusion/no-image`` against ``illusion/no-image+shuffle``):
  F3 = clip((A_noimage - A_noimage+shuffle) / A_noimage, 0, 1) on paired items (0 when A_noimage = 0)
- T3-with-image (ours, reported next to T3 and NOT part of ``robustness``: the paper finds the with-image accuracy
  stable or rising under reordering): F3img = clip((A_orig - A_shuffle) / A_orig, 0, 1) on paired items (0 when
  A_orig = 0)
- T4, distractor replacement (weighted 0.5/0.3/0.2 composite; D_text = text-only drop when k distractors are
  replaced, from conditions ``illusion/no-image+kR`` which only a preset can add, since the suite asks kR with
  the image; G_image = gain with the image when k = 1..4 distractors are replaced by unrelated options;
  G_unknown = gain when one distractor becomes "Unknown"; a gain counts as fragility, the paper reads it as an
  elimination shortcut; the weights of missing components are left out of the denominator):
  F4 = clip((0.5*D_text + 0.3*G_image + 0.2*G_unknown) / (sum of weights of defined components), 0, 1);
  D_text = clip(mean_k (A_noimage - A_noimage+kR) / A_noimage);
  G_image = clip(mean_k (A_kR - A_orig) / (1 - A_orig)), k = 1..4;
  G_unknown = clip((A_unknown - A_orig) / (1 - A_orig)); all paired
- T5, visual substitution (relative drop when the image is replaced by one supporting a distractor; the ground
  truth follows the new image):
  F5 = clip((A_orig - A_substitution) / A_orig, 0, 1) on paired items (0 when A_orig = 0)
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.base import MetricValue
from probe_ui.metrics.frame import (
    ORIGINAL,
    cmv,
    cond_mask,
    cond_values,
    correct_values,
    first_rows,
    flag,
    item_codes,
    mean_pct,
    mv,
    per_variant,
    prepare,
    random_share,
    unit_codes,
    unit_kind,
    variant_attr,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words
from probe_ui.stats import (
    cluster_bootstrap_ci,
    cluster_bootstrap_means,
    cond_rng,
    per_cluster,
    percentile_ci,
    sign_flip_pvalue,
)

PREFIX = "illusion/"
NO_IMAGE = "illusion/no-image"
SHUFFLE = "illusion/shuffle"
TEXT_SHUFFLE = "illusion/no-image+shuffle"
_TEXT_ONLY = re.compile(r"^illusion/(?:no-image|text-only)[+-]")
UNKNOWN = "illusion/unknown"
SUBSTITUTION = "illusion/substitution"
_KR = re.compile(r"^illusion/([1-9])R$")
_TEXT_KR = re.compile(r"^illusion/(?:no-image|text-only)[+-]([1-9])R$")
T4_WEIGHTS = {"D_text": 0.5, "G_image": 0.3, "G_unknown": 0.2}

FORMULAS = {
    "T1": "F1 = clip(sum_s w_s * (A_orig,s - A_noimage,s) / A_orig,s, 0, 1); w_s = n_s / sum n over sources s "
          "(paired items; a source with A_orig,s = 0 contributes 0)",
    "T2": "F2 = clip((A_noimage - c) / (1 - c), 0, 1); c = mean 1/n_labels; over items tagged visual-required "
          "if any, else all no-image items",
    "T3": "F3 = clip((A_noimage - A_noimage+shuffle) / A_noimage, 0, 1) on paired items (0 when A_noimage = 0)",
    "T3-with-image": "F3img = clip((A_orig - A_shuffle) / A_orig, 0, 1) on paired items (0 when A_orig = 0)",
    "T4": "F4 = clip((0.5*D_text + 0.3*G_image + 0.2*G_unknown) / (sum of weights of defined components), 0, 1); "
          "D_text = clip(mean_k (A_noimage - A_noimage+kR) / A_noimage); "
          "G_image = clip(mean_k (A_kR - A_orig) / (1 - A_orig)), k = 1..4; "
          "G_unknown = clip((A_unknown - A_orig) / (1 - A_orig)); all paired",
    "T5": "F5 = clip((A_orig - A_substitution) / A_orig, 0, 1) on paired items (0 when A_orig = 0)",
}


# ------------------------------------------------------------------------------------------------------------
# the table
# ------------------------------------------------------------------------------------------------------------

def _visual_required(tags: Any) -> bool:
    return isinstance(tags, (list, tuple, np.ndarray)) and ("visual-required" in tags or "visual_required" in tags)


def _frame(df: pd.DataFrame) -> pd.DataFrame:
    d = prepare(df)
    if not len(d):
        return pd.DataFrame()
    suite = cond_mask(d, lambda c: c.startswith(PREFIX))
    if not suite.any():
        return pd.DataFrame()
    items = item_codes(d)
    keep = suite | (cond_mask(d, lambda c: c == ORIGINAL) & np.isin(items, np.unique(items[suite])))
    vr = variant_attr(d, "visual_required").to_numpy(dtype=object)[keep]
    vr = np.array([v is True or v == 1 or v == "true" for v in pd.unique(vr)], dtype=bool)[pd.factorize(vr)[0]] \
        if len(vr) else np.zeros(0, bool)
    if "_vr" in d.columns:
        vr = vr | d["_vr"].to_numpy(dtype=bool)[keep]
    elif "tags" in d.columns:
        vr = vr | per_variant(d, "tags", _visual_required).to_numpy(dtype=bool)[keep]
    parsed_missing = d["parsed"].isna().to_numpy() if "parsed" in d.columns else np.zeros(len(d), bool)
    refused = flag(d, "refusal")
    abstain = refused | flag(d, "invalid") | parsed_missing
    c = correct_values(d)
    c = np.where(refused & ~np.isnan(c), 0.0, c)  # an abstaining reply is wrong even when it names the answer
    return pd.DataFrame({
        "item": items[keep],
        "cond": cond_values(d)[keep],
        "source": (d["source"].to_numpy(dtype=object) if "source" in d.columns
                   else np.full(len(d), "", object))[keep],
        "c": c[keep],
        "abstain": abstain[keep],
        "p": random_share(d)[keep],
        "vr": vr,
        "unit": unit_codes(d)[keep],
    })


class _Items:
    """Per-item accuracy under every condition (an items × conditions matrix), for the paired comparisons."""

    def __init__(self, f: pd.DataFrame):
        s = f[f["c"].notna().to_numpy()] if len(f) else f
        if not len(s):
            self.acc, self.p = pd.DataFrame(), pd.DataFrame()
            self.source, self.vr = pd.Series(dtype=object), pd.Series(dtype=bool)
            self.unit = pd.Series(dtype=np.int64)
            return
        icode, items = pd.factorize(s["item"].to_numpy())
        ccode, conds = pd.factorize(s["cond"].to_numpy())
        ni, nc = len(items), len(conds)
        flat = icode.astype(np.int64) * nc + ccode
        cnt = np.bincount(flat, minlength=ni * nc).reshape(ni, nc)
        with np.errstate(invalid="ignore", divide="ignore"):
            acc = np.bincount(flat, weights=s["c"].to_numpy(dtype=float), minlength=ni * nc).reshape(ni, nc) / cnt
            p = np.bincount(flat, weights=np.nan_to_num(s["p"].to_numpy(dtype=float)),
                            minlength=ni * nc).reshape(ni, nc) / cnt
        cols = [str(c) for c in conds]
        self.acc = pd.DataFrame(acc, index=items, columns=cols)
        self.p = pd.DataFrame(p, index=items, columns=cols)
        first = first_rows(icode, ni)
        self.source = pd.Series(s["source"].to_numpy(dtype=object)[first], index=items)
        self.unit = pd.Series(s["unit"].to_numpy()[first], index=items)  # an item's unit of evidence
        self.vr = pd.Series(np.bincount(icode, weights=s["vr"].to_numpy(dtype=float), minlength=ni) > 0, index=items)

    def has(self, cond: str) -> bool:
        return cond in self.acc.columns

    def single(self, cond: str) -> pd.DataFrame:
        """Items with ``cond``: c, p, source, vr."""
        if not self.has(cond):
            return pd.DataFrame(columns=["c", "p", "source", "vr"])
        c = self.acc[cond].dropna()
        return pd.DataFrame({"c": c, "p": self.p[cond].reindex(c.index), "source": self.source.reindex(c.index),
                             "vr": self.vr.reindex(c.index)})

    def paired(self, a: str, b: str) -> pd.DataFrame:
        """Items with both conditions: a, b (per-item accuracies), source."""
        if not (self.has(a) and self.has(b)):
            return pd.DataFrame(columns=["a", "b", "source"])
        m = self.acc[[a, b]].dropna()
        return pd.DataFrame({"a": m[a].to_numpy(), "b": m[b].to_numpy(),
                             "source": self.source.reindex(m.index).to_numpy()}, index=m.index)


def _as_list(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else list(ci)


def _clip(v: float | None) -> float | None:
    return None if v is None or np.isnan(v) else float(min(1.0, max(0.0, v)))


def _clip_component(v: float) -> float:
    """A T4 component within [0, 1] (a mean of finite gains or drops; never missing)."""
    return v if np.isnan(v) else float(min(1.0, max(0.0, v)))


def _rel_drop(a: float, b: float) -> float:
    return 0.0 if a <= 0 else (a - b) / a


def _rel_gain(a: float, b: float) -> float:
    return 0.0 if a >= 1 else (b - a) / (1 - a)


ROBUSTNESS_TESTS = ("T1", "T2", "T3", "T4", "T5")  # the paper's five; T3-with-image is reported beside them


def baseline_of(cond: str) -> str:
    """The condition a condition's paired difference is taken against: ``illusion/no-image`` for the text-only
    variants (``illusion/no-image+shuffle``, ``illusion/no-image+2R``), else ``original``."""
    return NO_IMAGE if _TEXT_ONLY.match(cond) else ORIGINAL


def fragility(f: pd.DataFrame, items: _Items | None = None) -> dict[str, dict[str, Any]]:
    """F_t, R_t, the formula and ``in_robustness`` for T1..T5 and T3-with-image (see the module doc)."""
    items = items if items is not None else _Items(f)
    conds = set(items.acc.columns)
    out: dict[str, dict[str, Any]] = {}

    def put(t: str, F: float | None, **inputs: Any) -> None:
        F = _clip(F)
        out[t] = {"F": None if F is None else round(F, 6), "R": None if F is None else round(1 - F, 6),
                  "formula": FORMULAS[t], "inputs": inputs}

    # T1
    F1 = None
    inputs1: dict[str, Any] = {}
    if NO_IMAGE in conds and ORIGINAL in conds:
        m = items.paired(ORIGINAL, NO_IMAGE)
        if len(m):
            per = m.groupby("source").agg(a=("a", "mean"), b=("b", "mean"), n=("a", "size"))
            w = per["n"] / per["n"].sum()
            drops = [_rel_drop(float(a), float(b))
                     for a, b in zip(per["a"].to_numpy(dtype=float), per["b"].to_numpy(dtype=float))]
            F1 = float((w.to_numpy() * np.array(drops)).sum())
            inputs1 = {"sources": {str(s): {"A_orig": round(float(r.a), 6), "A_noimage": round(float(r.b), 6),
                                            "n": int(r.n)} for s, r in per.iterrows()}}
    put("T1", F1, **inputs1)
    # T2
    F2 = None
    inputs2: dict[str, Any] = {}
    if NO_IMAGE in conds:
        g = items.single(NO_IMAGE)
        vr_only = bool(g["vr"].fillna(False).astype(bool).any())
        if vr_only:
            g = g[g["vr"].fillna(False).astype(bool).to_numpy()]
        chance = float(g["p"].mean()) if len(g) and g["p"].notna().any() else None
        if len(g) and chance is not None and chance < 1:
            F2 = (float(g["c"].mean()) - chance) / (1 - chance)
            inputs2 = {"A_noimage": round(float(g["c"].mean()), 6), "chance": round(chance, 6), "n": int(len(g)),
                       "visual_required_only": vr_only}
    put("T2", F2, **inputs2)
    # T3 (text only, the paper's), T3-with-image (ours) and T5: relative drops against a baseline condition
    for t, base, cond in (("T3", NO_IMAGE, TEXT_SHUFFLE), ("T3-with-image", ORIGINAL, SHUFFLE),
                          ("T5", ORIGINAL, SUBSTITUTION)):
        F = None
        inputs: dict[str, Any] = {}
        if cond in conds and base in conds:
            m = items.paired(base, cond)
            if len(m):
                a, b = float(m["a"].mean()), float(m["b"].mean())
                F = _rel_drop(a, b)
                inputs = {"A_" + _short(base): round(a, 6), "A_" + _short(cond): round(b, 6), "n": int(len(m))}
        put(t, F, **inputs)
    # T4
    comps: dict[str, float] = {}
    inputs4: dict[str, Any] = {}
    kr = sorted(c for c in conds if _KR.match(c))
    if kr and ORIGINAL in conds:
        gains = []
        for c in kr:
            m = items.paired(ORIGINAL, c)
            if len(m):
                a, b = float(m["a"].mean()), float(m["b"].mean())
                gains.append(_rel_gain(a, b))
                inputs4[c] = {"A_orig": round(a, 6), "A": round(b, 6), "n": int(len(m))}
        if gains:
            comps["G_image"] = _clip_component(float(np.mean(gains)))
    if UNKNOWN in conds and ORIGINAL in conds:
        m = items.paired(ORIGINAL, UNKNOWN)
        if len(m):
            a, b = float(m["a"].mean()), float(m["b"].mean())
            comps["G_unknown"] = _clip_component(_rel_gain(a, b))
            inputs4[UNKNOWN] = {"A_orig": round(a, 6), "A": round(b, 6), "n": int(len(m))}
    tkr = sorted(c for c in conds if _TEXT_KR.match(c))
    if tkr and NO_IMAGE in conds:
        drops = []
        for c in tkr:
            m = items.paired(NO_IMAGE, c)
            if len(m):
                a, b = float(m["a"].mean()), float(m["b"].mean())
                drops.append(_rel_drop(a, b))
                inputs4[c] = {"A_noimage": round(a, 6), "A": round(b, 6), "n": int(len(m))}
        if drops:
            comps["D_text"] = _clip_component(float(np.mean(drops)))
    F4 = None
    if comps:
        wsum = sum(T4_WEIGHTS[k] for k in comps)
        F4 = sum(T4_WEIGHTS[k] * v for k, v in comps.items()) / wsum
    put("T4", F4, components={k: round(v, 6) for k, v in comps.items()}, **inputs4)
    for t, v in out.items():
        v["in_robustness"] = t in ROBUSTNESS_TESTS
    return {t: out[t] for t in (*ROBUSTNESS_TESTS, "T3-with-image")}


def _short(cond: str) -> str:
    """``A_`` suffix of a condition in ``inputs``: "orig", "noimage", "noimage+shuffle", "shuffle", ..."""
    return "orig" if cond == ORIGINAL else cond.split("/", 1)[1].replace("no-image", "noimage")


def score(df: pd.DataFrame, n_boot: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Illusion-of-Readiness scores of one model's answers (module doc: definitions, statistics, formulas).

    Returns ``{"conditions": {cond: MetricValue (bootstrap 95 % CI, random = mean 1/n_labels)},
    "paired_difference": {cond: {"pp", "ci", "p_value", "p_method", "n_pairs", "baseline"}}, "abstention": {cond:
    MetricValue (Wilson CI)}, "fragility": {"T1".."T5", "T3-with-image": {"F", "R", "formula", "inputs",
    "in_robustness"}}, "robustness": float | None (mean R over T1..T5), "n_boot": int, "seed": int}``.
    """
    df = prepare(df)  # once: the frame and the unit's kind read the same prepared table
    f = _frame(df)
    out: dict[str, Any] = {"conditions": {}, "paired_difference": {}, "abstention": {}, "fragility": {},
                           "robustness": None, "n_boot": int(n_boot), "seed": int(seed)}
    if not len(f):
        out["fragility"] = fragility(f)
        return out
    items = _Items(f)
    ccode, cuniq = pd.factorize(f["cond"].to_numpy())
    c_all, p_all, ab_all = f["c"].to_numpy(dtype=float), f["p"].to_numpy(dtype=float), f["abstain"].to_numpy()
    u_all, i_all, kind = f["unit"].to_numpy(), f["item"].to_numpy(), unit_kind(df)
    conds = sorted((str(c) for c in cuniq), key=lambda c: (c != ORIGINAL, c))
    index = {str(c): i for i, c in enumerate(cuniq)}
    for cond in conds:
        sel = ccode == index[cond]
        vals = c_all[sel]
        scored = ~np.isnan(vals)
        vals = vals[scored]
        ci = cluster_bootstrap_ci(vals, u_all[sel][scored], i_all[sel][scored], n_boot, cond_rng(seed, cond))
        num = float(vals.sum())
        out["conditions"][cond] = MetricValue(
            round(100 * num / len(vals), 6) if len(vals) else None, int(num) if num.is_integer() else num,
            len(vals), len(vals), ci, mean_pct(p_all[sel][scored]),
            units=int(len(pd.unique(u_all[sel][scored]))), unit=kind,
            method="percentile bootstrap over the units of evidence").to_dict()
        out["abstention"][cond] = cmv(ab_all[sel], u_all[sel], items=i_all[sel], kind=kind)
        base = baseline_of(cond)
        if cond != ORIGINAL and base in conds:
            m = items.paired(base, cond)
            d = (m["b"] - m["a"]).to_numpy(dtype=float)
            units = items.unit.reindex(m.index).to_numpy()
            rng = cond_rng(seed, "paired:" + cond)
            if len(d):  # whole units flipped and drawn: an image's variants and samples are one pair's worth
                p, how = sign_flip_pvalue(per_cluster(d, units)[0], n_boot, rng)
                out["paired_difference"][cond] = {
                    "pp": round(float(100 * d.mean()), 6),
                    "ci": _as_list(percentile_ci(cluster_bootstrap_means(d, units, n_boot, rng))),
                    "p_value": round(p, 8), "p_method": how, "n_pairs": int(len(d)),
                    "n_units": int(len(pd.unique(units))), "baseline": base,
                }
            else:
                out["paired_difference"][cond] = {"pp": None, "ci": None, "p_value": None, "p_method": None,
                                                  "n_pairs": 0, "baseline": base}
    pert = f["cond"].to_numpy() != ORIGINAL
    out["abstention_perturbed"] = cmv(ab_all[pert], u_all[pert], items=i_all[pert], kind=kind) if pert.any() \
        else mv(0, 0)
    out["fragility"] = fragility(f, items)
    rs = [v["R"] for v in out["fragility"].values() if v["in_robustness"] and v["R"] is not None]
    out["robustness"] = round(float(np.mean(rs)), 6) if rs else None
    return out


def _headline(b: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"robustness": None if b.get("robustness") is None else 100.0 * b["robustness"]}
    ab = b.get("abstention") or {}
    out["abstention original"] = ab.get(ORIGINAL)
    out["abstention perturbed"] = b.get("abstention_perturbed") or mv(0, 0)
    for cond, x in (b.get("paired_difference") or {}).items():
        out[f"Δ {cond.removeprefix(PREFIX)} (pp)"] = x.get("pp")
    for t, x in (b.get("fragility") or {}).items():
        out[f"fragility {t}"] = None if x.get("F") is None else 100.0 * x["F"]
    return out


@metric("illusion", "paper", order=50, attributes=("visual_required",),
        headline=_headline, figures={
            "robustness": "Illusion of Readiness robustness score over the T1-T5 stress tests",
            "abstention original": "replies that abstained or could not be read, on the originals",
            "abstention perturbed": "replies that abstained or could not be read, over every illusion condition",
            "Δ {condition} (pp)": "accuracy under the condition minus accuracy on its baseline, in percentage points",
            "fragility {test}": "Illusion of Readiness fragility of a stress test"},
        detect=lambda d: "illusion/ conditions" if cond_mask(d, lambda c: c.startswith(PREFIX)).any() else None,
        description="Illusion of Readiness T1-T5: accuracy per condition, paired differences, abstention, "
                    "fragility and robustness",
        explain={
            "robustness": Explanation(
                measures="how much of the model's accuracy is real visual understanding rather than shortcuts, over "
                         "the five stress tests (0-100, higher is better)",
                paper="Illusion of Readiness (T1-T5); the paper's fragility formulas did not survive in its text, so "
                      "probe-ui defines each one beside the code (docs/reference.md §4)",
                computed="the mean over the defined tests T1..T5 of R_t = 1 - F_t, each fragility F_t clipped to "
                         "[0, 1]; T3-with-image is reported but not averaged",
                chance="none: a composite of drops, not an accuracy",
                ci="no interval for the composite; each condition's accuracy has a bootstrap interval in score "
                   "--json"),
            "abstention original": Explanation(
                measures="how often the model abstains (or gives no readable answer) on the unperturbed questions",
                paper="Illusion of Readiness: abstention is reported on its own and counts as wrong in accuracy",
                computed="replies flagged as refusals or unreadable / replies, on the originals of the illusion items",
                chance="none: a property of how the model answers",
                ci=ci_words("replies")),
            "abstention perturbed": Explanation(
                measures="how often the model abstains once the image is removed, replaced or the options changed: "
                         "abstaining without the image is the right behaviour",
                paper="Illusion of Readiness",
                computed="refusals or unreadable replies / replies, over every illusion condition together",
                chance="none: a property of how the model answers",
                ci=ci_words("replies")),
            "Δ {condition} (pp)": Explanation(
                measures="how much one stress condition moves accuracy against its baseline (e.g. the image removed)",
                paper="Illusion of Readiness: paired differences with a permutation test",
                computed="over items asked in both, the mean of right(condition) - right(baseline), in percentage "
                         "points; the baseline is the original, or no-image for the text-only re-orderings",
                chance="0: a guesser is as right under both",
                ci="a 95 % percentile bootstrap interval over items, and a paired permutation p-value; an interval "
                   "that excludes 0 is a real change"),
            "fragility {test}": Explanation(
                measures="how fragile the model is under one stress test T1-T5 (0 = unaffected, 1 = fully fragile)",
                paper="Illusion of Readiness; the formulas are probe-ui's, documented in probe_ui/metrics/illusion.py "
                      "and docs/reference.md §4",
                computed="T1 weighted drop without the image; T2 accuracy above chance without the image; T3 drop "
                         "after re-ordering the options without the image; T4 a 0.5/0.3/0.2 composite of distractor "
                         "replacement; T5 drop under visual substitution; each clipped to [0, 1]",
                chance="none: a drop, not an accuracy",
                ci="no interval")})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    return score(d, n_boot=ctx.n_boot, seed=ctx.seed)
