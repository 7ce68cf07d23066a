"""Robustness curves: how much degradation before a model changes its answer (the ``severity`` suite).

A sweep condition is named ``severity/<perturbation>-<level>``
(:func:`probe_ui.presets.suites.parse_severity_condition`): a degradation at severity 1-5, or a rotation by ``level``
degrees. An item's original is level 0 of every
perturbation that swept it. Per model (one replica: the same key as the other families) and perturbation:

- ``levels``: one entry per level, the original first: ``severity`` (the level), ``accuracy`` (percent of scored
  answers right: an invalid answer is wrong, an unknown ground truth is not scored), its 95 % Wilson interval
  ``ci_low`` / ``ci_high``, ``n`` scored answers, and ``answer_flip_rate`` (the answer flip rate at that level):
  the percent of the level's answered items whose chosen answer differs from the same item's original answer
  (option text for choice items, the label
  otherwise, an unreadable answer a value of its own: :func:`probe_ui.metrics.frame.answer_keys`); None at the
  original itself and where no item has both answers.
- ``auc``: the area under the accuracy curve, normalised to 0-100. The levels present (the original included)
  are placed at equal steps by rank, r = 0 (original), 1, ..., K (the levels in increasing order, so the five
  rotation angles are five steps like the five severities), and the accuracies a_r (percent) joined by straight
  lines; ``auc = (1 / (r_last - r_first)) * sum_r (a_r + a_(r+1)) / 2 * (r_(r+1) - r_r)`` over the levels that
  have scored answers. A model right everywhere scores 100; one whose accuracy is a constant p scores p; None
  with fewer than two scored levels. ``auc_relative`` = 100 * auc / a_0: the share of the original accuracy
  kept on average over the sweep (None when the original's accuracy is 0 or missing).
- ``breaking_point``: per item, the lowest level whose answer differs from the item's original answer (levels
  the model did not answer are passed over; an item without an answered original is left out); ``per_item``
  lists them (``level`` None: never broken); ``median`` is the median breaking level over the items that broke
  (None when none did), ``never_broken`` the share of items whose answer never left the original's (a
  MetricValue), ``broken`` and ``items`` the counts.

Headline (Stress and Results summaries, the report): the AUC of each perturbation and ``never broken``, the
share of items whose answer stayed the original's at every level of every perturbation.

Library functions over a scored-answer table (:func:`probe_ui.scoring.scored_answers`; several samples reduced
by majority vote first, as ``probe-ui score`` does): :func:`curve_frame` (tidy curve data), :func:`breaking_frame`
(per item), :func:`breaking_summary` (per model and perturbation) and :func:`breaking_variant` (for one item, the
answers to show: the original and the first level that changed it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.base import wilson_ci
from probe_ui.metrics.frame import (
    ORIGINAL,
    answer_keys,
    cmv,
    cond_mask,
    cond_values,
    correct_values,
    first_rows,
    item_codes,
    mv,
    prepare,
    same_values,
    unit_codes,
    unit_kind,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words
from probe_ui.presets.suites import parse_severity_condition, sweep_perturbations

FAMILY = "robustness_curves"
CURVE_COLUMNS = ["run", "model", "perturbation", "level", "accuracy", "ci_low", "ci_high", "n", "correct",
                 "answer_flip_rate"]
BREAKING_COLUMNS = ["run", "model", "perturbation", "item_id", "level", "condition"]
SUMMARY_COLUMNS = ["run", "model", "perturbation", "auc", "auc_relative", "items", "broken", "never_broken",
                   "median_breaking_point"]


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or not np.isfinite(x) else round(float(x), digits)


def sweep_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The answered rows of a sweep in ONE model's table, with each swept item's original repeated as level 0 of
    every perturbation that swept it: columns item (code), item_id, perturbation, level, key (the chosen answer
    as comparable text), c (1 right, 0 wrong, NaN not scored)."""
    d = prepare(df)
    cols = ["item", "item_id", "perturbation", "level", "key", "c", "unit"]
    if not len(d):
        return pd.DataFrame(columns=cols)
    cond = cond_values(d)
    codes, uniq = pd.factorize(cond)
    parsed = [parse_severity_condition(str(u)) for u in uniq]
    pert = np.array([p[0] if p else None for p in parsed] + [None], dtype=object)[codes]
    level = np.array([p[1] if p else -1 for p in parsed] + [-1], dtype=np.int64)[codes]
    rows = pd.DataFrame({"item": item_codes(d), "item_id": d["item_id"].astype(str).to_numpy(dtype=object)
                         if "item_id" in d.columns else "", "perturbation": pert, "level": level,
                         "key": answer_keys(d), "c": correct_values(d), "unit": unit_codes(d)})
    swept = rows[pd.notna(pert)]
    if not len(swept):
        return pd.DataFrame(columns=cols)
    orig = rows[(cond == ORIGINAL)].drop_duplicates("item").drop(columns=["perturbation", "level"])
    pairs = swept[["item", "perturbation"]].drop_duplicates()
    base = pairs.merge(orig, on="item", how="inner").assign(level=0)
    return pd.concat([base[cols], swept[cols]], ignore_index=True)


def auc(levels: list[dict[str, Any]]) -> tuple[float | None, float | None]:
    """(auc, auc_relative) of one curve (module doc): accuracies at rank-spaced levels, trapezoids, normalised."""
    ranks = {lv["severity"]: r for r, lv in enumerate(sorted(levels, key=lambda x: x["severity"]))}
    pts = [(ranks[lv["severity"]], lv["accuracy"]) for lv in levels if lv["accuracy"] is not None]
    pts.sort()
    if len(pts) < 2:
        return None, None
    area = sum((a0 + a1) / 2.0 * (r1 - r0) for (r0, a0), (r1, a1) in zip(pts, pts[1:]))
    value = area / (pts[-1][0] - pts[0][0])
    first = next((lv["accuracy"] for lv in levels if lv["severity"] == 0), None)
    return _r(value), (_r(100.0 * value / first) if first else None)


class _Sweep:
    """One perturbation's rows of :func:`sweep_rows` as arrays, each row beside its item's original answer: the
    curve and the breaking points come from counts over these (numpy, no groupby: a paired bootstrap computes
    them for every replicate of a comparison)."""

    def __init__(self, item: np.ndarray, item_id: np.ndarray, level: np.ndarray, key: np.ndarray,
                 c: np.ndarray, unit: np.ndarray | None = None, kind: str = "item") -> None:
        self.level, self.c, self.item, self.unit, self.kind = level, c, item, unit, kind
        # each item's original: its first level-0 row, the items in order of first appearance
        codes, items = pd.factorize(item)
        at0 = np.flatnonzero(level == 0)
        codes0, items0 = pd.factorize(codes[at0])
        orig = at0[first_rows(codes0, len(items0))]
        self.orig_ids = item_id[orig]
        self.orig_units = unit[orig] if unit is not None else None
        # per row: which original is its item's (its index among them), -1 for an item without one
        which = np.full(len(items), -1, dtype=np.int64)
        which[items0] = np.arange(len(items0))
        self.orig = which[codes]
        self.has = self.orig >= 0
        # per row with an original: whether its answer differs from it
        self.changed = np.zeros(len(item), dtype=bool)
        if self.has.any():
            self.changed[self.has] = ~same_values(key[self.has], key[orig][self.orig[self.has]])

    def levels(self, intervals: bool = True) -> list[dict[str, Any]]:
        """Per level (ascending, the original first): accuracy with its Wilson interval, n, and the answer flip
        rate against the original (None at the original, or where no item of the level has one). ``intervals``
        False: no interval (ci_low and ci_high None), for a bootstrap replicate, which reads only the areas and
        breaking points (:func:`_headline`)."""
        ulev, inv = np.unique(self.level, return_inverse=True)
        scored = ~np.isnan(self.c)
        n_of = np.bincount(inv, weights=scored, minlength=len(ulev))
        right_of = np.bincount(inv, weights=np.where(scored, self.c, 0.0), minlength=len(ulev))
        has_of = np.bincount(inv, weights=self.has, minlength=len(ulev))
        changed_of = np.bincount(inv, weights=self.changed, minlength=len(ulev))
        clustered = self._clustered(inv, scored) if intervals else None
        out = []
        for k, level in enumerate(ulev):
            n, right = int(n_of[k]), int(right_of[k])
            lo, hi = wilson_ci(right, n) if n and intervals else (None, None)
            if clustered is not None and n and clustered[k] is not None:
                lo, hi = round(100 * clustered[k].low, 4), round(100 * clustered[k].high, 4)
            flip = _r(100.0 * (changed_of[k] / has_of[k])) if level != 0 and has_of[k] else None
            out.append({"severity": int(level), "accuracy": _r(100.0 * right / n) if n else None, "ci_low": lo,
                        "ci_high": hi, "n": n, "answer_flip_rate": flip})
        return out

    def _clustered(self, inv: np.ndarray, scored: np.ndarray) -> list[Any] | None:
        """Each level's interval over the units of evidence (issue 43), where some unit holds several answers at
        one level (a pair's two images, several samples); None where none does (Wilson's, as it was)."""
        if self.unit is None or not scored.any():
            return None
        codes = pd.factorize(pd.Series(self.unit[scored]))[0]
        combined = inv[scored].astype(np.int64) * (int(codes.max()) + 1) + codes
        if np.bincount(combined).max() <= 1:
            return None
        from probe_ui.stats import clustered_wilson_groups

        found = clustered_wilson_groups(inv[scored], self.c[scored], self.unit[scored], self.item[scored])
        return found + [None] * (int(inv.max()) + 1 - len(found))  # levels with no scored answer: none

    def breaking(self) -> dict[str, Any]:
        """Per item with an original: the lowest level whose answer differs from it (None: never broken)."""
        first = np.full(len(self.orig_ids), np.inf)
        broke_at = (self.level > 0) & self.changed
        np.minimum.at(first, self.orig[broke_at], self.level[broke_at].astype(float))
        units = self.orig_units
        per_item = [{"item_id": str(i), "level": None if np.isinf(x) else int(x)}
                    for i, x in zip(self.orig_ids, first)]
        if units is not None:  # the unit of evidence each item counts in (equal numbers: one unit)
            for it, u in zip(per_item, units):
                it["unit"] = int(u)
        broke = first[~np.isinf(first)]
        never = np.isinf(first)
        return {"median": _r(float(np.median(broke))) if len(broke) else None,
                "never_broken": cmv(never, units, kind=self.kind) if units is not None
                else mv(int(never.sum()), len(per_item)),
                "broken": int(len(broke)),
                "items": len(per_item), "per_item": per_item}


def _order(perts: Any) -> list[str]:
    known = [p for p in sweep_perturbations() if p in set(perts)]
    return known + sorted(set(perts) - set(known))


def curves(df: pd.DataFrame, intervals: bool = True) -> dict[str, Any]:
    """``{perturbation: {levels, auc, auc_relative, breaking_point}}`` of ONE model's table (module doc);
    ``intervals`` False leaves out each level's interval (:meth:`_Sweep.levels`)."""
    d = prepare(df)
    rows = sweep_rows(d)
    out: dict[str, Any] = {}
    if not len(rows):
        return out
    pert = rows["perturbation"].to_numpy(dtype=object)
    item, item_id = rows["item"].to_numpy(), rows["item_id"].to_numpy(dtype=object)
    level, key = rows["level"].to_numpy(dtype=np.int64), rows["key"].to_numpy(dtype=object)
    c = rows["c"].to_numpy(dtype=float)
    unit = pd.factorize(rows["unit"].to_numpy(dtype=object))[0]  # one numbering for every perturbation
    kind = unit_kind(d)
    for p in _order(rows["perturbation"].unique()):
        m = pert == p
        sweep = _Sweep(item[m], item_id[m], level[m], key[m], c[m], unit[m], kind)
        levels = sweep.levels(intervals)
        a, rel = auc(levels)
        out[p] = {"levels": levels, "auc": a, "auc_relative": rel, "breaking_point": sweep.breaking()}
    return out


def _detect(d: pd.DataFrame) -> str | None:
    swept = cond_mask(d, lambda c: parse_severity_condition(c) is not None)
    return "severity/<perturbation>-<level> conditions (the severity suite)" if swept.any() else None


def _headline(block: dict[str, Any]) -> dict[str, Any]:
    perts = [p for p in block if isinstance(block[p], dict) and "levels" in block[p]]
    out: dict[str, Any] = {f"AUC {p}": block[p]["auc"] for p in perts}
    broken: dict[str, bool] = {}
    unit: dict[str, Any] = {}
    kind = "item"
    for p in perts:
        bp = block[p]["breaking_point"]
        kind = (bp.get("never_broken") or {}).get("unit") or kind
        for it in bp["per_item"]:
            broken[it["item_id"]] = broken.get(it["item_id"], False) or it["level"] is not None
            unit.setdefault(it["item_id"], it.get("unit", it["item_id"]))
    if broken:
        out["never broken"] = cmv([not b for b in broken.values()], [str(unit[i]) for i in broken], kind=kind)
    return out


@metric(FAMILY, "clean", order=950, detect=_detect, headline=_headline, figures={
            "AUC {perturbation}": "area under the accuracy curve of that perturbation's sweep, levels at equal steps "
                                  "from the original, 0-100",
            "never broken": "swept items whose answer never left the original's at any level"},
        description="robustness curves over the severity suite: accuracy per level with 95 % intervals over the "
                    "units of evidence, flip rate against the original, area under the curve, breaking point per "
                    "item (ours)",
        explain={
            "AUC {perturbation}": Explanation(
                measures="how well accuracy holds up as one degradation (blur, noise, JPEG, ...) gets stronger: one "
                         "number per curve, 0-100",
                paper="probe-ui's own (the severity suite), in the spirit of ImageNet-C's corruption robustness",
                computed="the area under the accuracy-by-level curve, levels placed at equal steps from the original "
                         "(level 0), joined by straight lines, divided by the number of steps; a model whose "
                         "accuracy never moves scores its own accuracy; auc_relative = AUC / original accuracy",
                chance="the mean of 1 / number of options: a guesser's flat curve",
                ci="no interval for the area; each level's accuracy has its interval over the units of evidence "
                   "(the report draws them as bands)"),
            "never broken": Explanation(
                measures="the share of items whose answer no level of any degradation could change",
                paper="probe-ui's own (breaking points of the severity suite)",
                computed="swept items whose chosen answer equals the original's at every level of every perturbation "
                         "/ swept items; per item the lowest level that changed it is its breaking point",
                chance="a guesser changes its answer almost always: near 0 %",
                ci=ci_words("items"))})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    # detail False (a paired bootstrap's replicates, views/compare.py): the headline reads the areas and breaking
    # points only, so the per-level intervals over units (most of a replicate's time) are left out
    return curves(d, intervals=ctx.detail)


# ---- frames over a scored-answer table (the app's Stress and Results tabs, the report) ---------------------------

def _blocks(df: pd.DataFrame) -> list[tuple[str, str, pd.DataFrame, dict[str, Any]]]:
    """(run, model, voted rows, curves block) per run and model with sweep data, as ``probe-ui score`` groups
    them (several samples reduced by majority vote)."""
    from probe_ui.metrics.samples import majority_vote

    if df is None or df.empty:
        return []
    voted = majority_vote(df)
    runs = voted["run"].astype(str) if "run" in voted.columns else pd.Series("", index=voted.index)
    out = []
    for (run, model), g in voted.assign(_run=runs).groupby(["_run", "model"], sort=True):
        block = curves(g)
        if block:
            out.append((str(run), str(model), g, block))
    return out


def curve_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Tidy curve data of a scored-answer table: one row per run, model, perturbation and level (0 = the
    original): accuracy, ci_low, ci_high (percent), n, correct, answer_flip_rate: the numbers of ``score
    --json``."""
    rows = []
    for run, model, _, block in _blocks(df):
        for p, b in block.items():
            for lv in b["levels"]:
                n, acc = lv["n"], lv["accuracy"]
                rows.append({"run": run, "model": model, "perturbation": p, "level": lv["severity"],
                             "accuracy": acc, "ci_low": lv["ci_low"], "ci_high": lv["ci_high"], "n": n,
                             "correct": int(round(acc * n / 100.0)) if acc is not None else 0,
                             "answer_flip_rate": lv["answer_flip_rate"]})
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)


def breaking_frame(df: pd.DataFrame) -> pd.DataFrame:
    """One row per run, model, perturbation and item: the breaking ``level`` (None: never broken) and its
    ``condition`` (the variant that changed the answer)."""
    rows = []
    for run, model, _, block in _blocks(df):
        for p, b in block.items():
            for it in b["breaking_point"]["per_item"]:
                lv = it["level"]
                rows.append({"run": run, "model": model, "perturbation": p, "item_id": it["item_id"], "level": lv,
                             "condition": f"severity/{p}-{lv}" if lv is not None else None})
    return pd.DataFrame(rows, columns=BREAKING_COLUMNS)


def breaking_summary(df: pd.DataFrame) -> pd.DataFrame:
    """One row per run, model and perturbation: auc, auc_relative, items, broken, never_broken (percent) and
    median_breaking_point (over the items that broke)."""
    rows = []
    for run, model, _, block in _blocks(df):
        for p, b in block.items():
            bp = b["breaking_point"]
            rows.append({"run": run, "model": model, "perturbation": p, "auc": b["auc"],
                         "auc_relative": b["auc_relative"], "items": bp["items"], "broken": bp["broken"],
                         "never_broken": bp["never_broken"]["value"], "median_breaking_point": bp["median"]})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _answer(row: pd.Series) -> dict[str, Any]:
    from probe_ui.metrics.frame import value_or_none

    ids = value_or_none(row.get("image_ids"))
    return {"response_id": int(row["response_id"]) if value_or_none(row.get("response_id")) is not None else None,
            "variant_id": str(row["variant_id"]), "condition": str(row["condition"]),
            "image_ids": [str(i) for i in ids] if isinstance(ids, (list, tuple, np.ndarray)) else [],
            "parsed": value_or_none(row.get("parsed")), "correct": value_or_none(row.get("correct")),
            "raw_text": value_or_none(row.get("raw_text"))}


def breaking_variant(df: pd.DataFrame, model: str, item_id: str, perturbation: str, run: str | None = None
                     ) -> dict[str, Any] | None:
    """For one item, model and perturbation: what the app shows beside each other. Returns ``{run, model,
    item_id, perturbation, level, original: answer, broken: answer or None}`` where an answer is ``{response_id,
    variant_id, condition, image_ids, parsed, correct, raw_text}`` and ``broken`` is the first level whose answer
    left the original's (None, with ``level`` None, when it never did); None when the item was not swept for this
    model (or has no answered original)."""
    for r, m, g, block in _blocks(df):
        if m != str(model) or (run is not None and r != str(run)) or perturbation not in block:
            continue
        hit = [it for it in block[perturbation]["breaking_point"]["per_item"] if it["item_id"] == str(item_id)]
        if not hit:
            continue
        level = hit[0]["level"]
        rows = g[(g["item_id"].astype(str) == str(item_id)) & g["error"].isna()]
        orig = rows[rows["condition"].astype(str) == ORIGINAL]
        if orig.empty:
            continue
        broke = rows[rows["condition"].astype(str) == f"severity/{perturbation}-{level}"] if level is not None \
            else rows.iloc[0:0]
        return {"run": r, "model": m, "item_id": str(item_id), "perturbation": perturbation, "level": level,
                "original": _answer(orig.iloc[0]), "broken": _answer(broke.iloc[0]) if len(broke) else None}
    return None
