"""Group metrics over the variants of one item (docs/reference.md §4, last bullet).

An *item* is one row key ``(model[, prompt][, sample], group_id)``: ``group_id`` ties the original variant to every
perturbed variant a suite made from it. The ``prompt`` column holds the template each reply was asked with, which
varies between the variants of one item (MedVH FCJ rows use ``medvh-fcj``, prompt-variant rows their phrasing), so
it joins the key only when the same variant was answered under several prompts (a run repeated with another
``--prompt``); ``sample`` joins it only while the table still holds several samples per cell (no majority vote). All
functions take the answer table of :meth:`Store.answers_frame` (``full=True``); rows with a provider ``error`` are
left out, as in :func:`accuracy_by_model`; an invalid answer counts as wrong.

- :func:`group_consistency`: a group counts as right only if every variant in it is right (generalises
  CircularEval, ProbMed pairs, MediConfusion sets, rotation sets). Groups with fewer than two scored variants are
  skipped.
- :func:`flip_rate`: share of (item, perturbed variant) pairs whose answer differs from the item's original answer,
  per condition; ``overall`` is the share of items whose answer changes under at least one answer-preserving
  condition. Choice answers compare the chosen OPTION TEXT exactly as shown (shuffles move letters, the text stays);
  yes/no and label answers compare the label (case- and whitespace-insensitive). An unreadable answer is its own
  value: original and variant both unreadable is "unchanged", one unreadable is "changed". Conditions under which
  the ground truth itself moves (upside-down orientation, NOTA, visual substitution) are reported per condition,
  with ``answer_moved``, but left out of ``overall``/``pairs``, where a change is the right behaviour.
- :func:`circular_eval`: MMBench CircularEval: an item is right only if it is right in the original and under
  every ``circular/shift*`` variant; items missing a shift (an error) are dropped and counted.
- :func:`same_option_under_shuffles`: share of choice items that pick the same option text in the original and
  every re-ordering of its options (conditions ``illusion/shuffle``, ``circular/shift*`` and any condition whose
  name contains ``shuffle``, except the text-only ``illusion/no-image+shuffle``); an unreadable answer breaks the
  agreement.

The table they read, and its helpers, are :mod:`probe_ui.metrics.frame`.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import (
    ORIGINAL,
    answer_keys,
    cmv,
    cond_mask,
    cond_values,
    correct_values,
    first_rows,
    item_codes,
    key_codes,
    mean_pct,
    mv,
    prepare,
    random_share,
    rep_keys,
    same_values,
    truth_keys,
    unit_codes,
    unit_kind,
)
from probe_ui.metrics.frame import variant_attr as variant_attr  # compare.py still imports it from here
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words

# re-orderings of the options with everything else kept (not the text-only ``illusion/no-image+shuffle``, whose
# answers compare with ``illusion/no-image``, not with the original)
_SHUFFLE_RE = re.compile(r"(?:^circular/shift\d+$)|^(?!.*(?:no-image|text-only)).*shuffle")


def consistency_of(groups_: np.ndarray, c: np.ndarray, p: np.ndarray, units: np.ndarray | None = None,
                   kind: str = "item") -> dict[str, Any]:
    """Group consistency from arrays: group code, correct (0/1, NaN = not scored), chance and unit of evidence
    (:func:`probe_ui.metrics.frame.unit_codes`; None: each group its own) per row."""
    keep = ~np.isnan(c)
    g, c, p = groups_[keep], c[keep], p[keep]
    u = (units[keep] if units is not None else g)
    if not len(g):
        return {"consistency": mv(0, 0), "accuracy": mv(0, 0), "groups": 0, "variants_per_group": None}
    codes, uniq = pd.factorize(g)
    k = len(uniq)
    n = np.bincount(codes, minlength=k)
    right = np.bincount(codes, weights=c, minlength=k)
    pn = np.nan_to_num(p, nan=1.0)
    logp = np.bincount(codes, weights=np.log(np.where(pn > 0, pn, 1.0)), minlength=k)
    psum = np.bincount(codes, weights=pn, minlength=k)
    has_nan_p = np.bincount(codes, weights=np.isnan(p).astype(float), minlength=k) > 0
    multi = n >= 2
    n_groups = int(multi.sum())
    rows = int(n[multi].sum())
    ug = u[first_rows(codes, k)]  # a group's unit: its first row's
    rand = round(float(100 * np.exp(logp[multi]).mean()), 4) if n_groups and not has_nan_p[multi].any() else None
    rnd_acc = round(float(100 * psum[multi].sum() / rows), 4) if rows and not has_nan_p[multi].any() else None
    return {
        "consistency": cmv(right[multi] == n[multi], ug[multi], kind=kind, random=rand),
        "accuracy": cmv(c[multi[codes]], u[multi[codes]], items=codes[multi[codes]], kind=kind, random=rnd_acc),
        "groups": n_groups,
        "variants_per_group": round(rows / n_groups, 4) if n_groups else None,
    }


def group_consistency(df: pd.DataFrame, by: str = "group_id") -> dict[str, Any]:
    """A group (rows sharing ``by`` within one replica) is right only if every variant in it is right.

    Returns ``{"consistency": MetricValue, "accuracy": MetricValue (rows of those groups), "groups": int,
    "variants_per_group": float}`` over groups with at least two scored variants. Random reference: the mean
    over groups of Π 1/n_labels (accuracy: mean 1/n_labels).
    """
    d = prepare(df)
    c = correct_values(d).copy()
    if by not in d.columns:
        c[:] = np.nan
        gcode = np.zeros(len(d), dtype=np.int64)
    else:
        c[d[by].isna().to_numpy()] = np.nan
        gcode = item_codes(d) if by == "group_id" else key_codes(d, rep_keys(d) + [by])
    return consistency_of(gcode, c, random_share(d), unit_codes(d), unit_kind(d))


def flip_rate(df: pd.DataFrame) -> dict[str, Any]:
    """Share of items whose answer changes between the original and a perturbed variant (see module doc).

    Returns ``{"conditions": {cond: MetricValue}, "answer_moved": {cond: percent of pairs whose ground truth
    differs from the original's}, "pairs": MetricValue (pairs of answer-preserving conditions), "overall":
    MetricValue (items whose answer changes under at least one answer-preserving condition), "items": int}``.
    """
    d = prepare(df)
    empty = {"conditions": {}, "answer_moved": {}, "pairs": mv(0, 0), "overall": mv(0, 0), "items": 0}
    if not len(d):
        return empty
    item = item_codes(d)
    is_orig = cond_mask(d, lambda x: x == ORIGINAL)
    key, truth = answer_keys(d), truth_keys(d)
    o_items, o_pos = np.unique(item[is_orig], return_index=True)  # first original row of each item
    o_rows = np.flatnonzero(is_orig)[o_pos]
    var = np.flatnonzero(~is_orig)
    where = np.searchsorted(o_items, item[var])
    where = np.minimum(where, max(len(o_items) - 1, 0))
    has = (len(o_items) > 0) & (o_items[where] == item[var]) if len(o_items) else np.zeros(len(var), bool)
    var, where = var[has], where[has]
    if not len(var):
        return empty
    orow = o_rows[where]
    changed = ~same_values(key[var], key[orow])
    moved = ~same_values(truth[var], truth[orow])
    ccodes, cuniq = pd.factorize(cond_values(d)[var])
    k = len(cuniq)
    n_c = np.bincount(ccodes, minlength=k)
    mv_c = np.bincount(ccodes, weights=moved, minlength=k)
    order = np.argsort([str(c) for c in cuniq], kind="stable")
    units, kind = unit_codes(d)[var], unit_kind(d)
    vitems = item[var]
    at = np.split(np.argsort(ccodes, kind="stable"), np.cumsum(n_c)[:-1])  # each condition's rows, one sort
    conditions = {str(cuniq[i]): cmv(changed[at[i]], units[at[i]], items=vitems[at[i]], kind=kind) for i in order}
    moved_pct = {str(cuniq[i]): round(float(100 * mv_c[i] / n_c[i]), 4) for i in order}
    keep = ~moved
    kitems = item[var][keep]
    ki, kn = pd.factorize(kitems)
    flipped = np.bincount(ki, weights=changed[keep], minlength=len(kn)) > 0  # changes under some kept condition
    return {
        "conditions": conditions,
        "answer_moved": moved_pct,
        "pairs": cmv(changed[keep], units[keep], items=kitems, kind=kind),
        "overall": cmv(flipped, units[keep][first_rows(ki, len(kn))], kind=kind),
        "items": int(len(np.unique(item[var]))),
    }


def circular_eval(df: pd.DataFrame) -> dict[str, Any]:
    """CircularEval: right only if right in the original and under every ``circular/shift*`` variant.

    Returns ``{"circular": MetricValue (random: mean Π 1/n_labels), "vanilla": MetricValue (the originals of the
    same items), "items": int, "incomplete": int}``. An item is complete when it has its original and
    n_labels − 1 shifts.
    """
    d = prepare(df)
    empty = {"circular": mv(0, 0), "vanilla": mv(0, 0), "items": 0, "incomplete": 0}
    if not len(d):
        return empty
    c = correct_values(d)
    is_shift = cond_mask(d, lambda x: re.match(r"^circular/shift\d+$", x))
    is_orig = cond_mask(d, lambda x: x == ORIGINAL)
    keep = (is_shift | is_orig) & ~np.isnan(c)
    nl = pd.to_numeric(d["n_labels"], errors="coerce").to_numpy(dtype=float) if "n_labels" in d.columns \
        else np.full(len(d), np.nan)
    item, c, p, shift, orig, nl, u = (x[keep] for x in (item_codes(d), c, random_share(d), is_shift, is_orig, nl,
                                                         unit_codes(d)))
    has = np.isin(item, item[shift])  # items with at least one shift
    item, c, p, shift, orig, nl, u = (x[has] for x in (item, c, p, shift, orig, nl, u))
    if not len(item):
        return empty
    g, uniq = pd.factorize(item)  # numpy per item, in order of appearance (a paired bootstrap scores every replicate)
    k = len(uniq)
    n = np.bincount(g, minlength=k)
    right = np.bincount(g, weights=c, minlength=k)
    pr = np.ones(k)
    np.multiply.at(pr, g, np.where(np.isnan(p), 1.0, p))  # the product in row order, a missing chance skipped
    shifts = np.bincount(g, weights=shift, minlength=k)
    origs = np.bincount(g, weights=orig, minlength=k)
    nl_max = np.full(k, np.nan)
    np.fmax.at(nl_max, g, nl)
    complete = (origs >= 1) & (shifts >= nl_max - 1)
    ug, kind = u[first_rows(g, k)], unit_kind(d)
    van_c = _first_of(g[orig], c[orig], k)[complete]  # each item's first original answer
    have_p = orig & ~np.isnan(p)
    van_p = _first_of(g[have_p], p[have_p], k)[complete]
    n_ok = int(complete.sum())
    rnd = round(float(100 * pd.Series(pr[complete]).mean()), 4) if n_ok else None
    return {
        "circular": cmv(right[complete] == n[complete], ug[complete], kind=kind, random=rnd),
        "vanilla": cmv(van_c[~np.isnan(van_c)], ug[complete][~np.isnan(van_c)], kind=kind, random=mean_pct(van_p)),
        "items": n_ok,
        "incomplete": int((~complete).sum()),
    }


def _first_of(g: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """Per group 0..k-1, its first value in row order (NaN for a group without rows)."""
    out = np.full(k, np.nan)
    out[g[::-1]] = values[::-1]  # the last write wins: the first row
    return out


def same_option_under_shuffles(df: pd.DataFrame) -> dict[str, Any]:
    """Share of choice items answering the same option text in the original and under every re-ordering.

    Returns ``{"same_option": MetricValue, "all_correct": MetricValue, "items": int}`` over items that have their
    original and at least one re-ordered variant.
    """
    d = prepare(df)
    empty = {"same_option": mv(0, 0), "all_correct": mv(0, 0), "items": 0}
    if not len(d) or "kind" not in d.columns:
        return empty
    reorder = cond_mask(d, lambda x: _SHUFFLE_RE.search(x))
    is_orig = cond_mask(d, lambda x: x == ORIGINAL)
    keep = (reorder | is_orig) & (d["kind"] == "choice").to_numpy()
    key = answer_keys(d)[keep]
    none = pd.isna(key)
    item, reorder, is_orig, u = item_codes(d)[keep], reorder[keep], is_orig[keep], unit_codes(d)[keep]
    c = np.nan_to_num(correct_values(d)[keep], nan=0.0)
    if not len(item):
        return empty
    g, uniq = pd.factorize(item)  # numpy per item (a paired bootstrap scores every replicate)
    k = len(uniq)
    kc = pd.factorize(np.where(none, "\x00<none>", key).astype(object))[0]
    n_keys = np.bincount(np.unique(g * (int(kc.max()) + 1) + kc) // (int(kc.max()) + 1), minlength=k)
    n = np.bincount(g, minlength=k)
    any_none = np.bincount(g, weights=none, minlength=k) > 0
    right = np.bincount(g, weights=c, minlength=k)
    counted = (np.bincount(g, weights=reorder, minlength=k) >= 1) & (np.bincount(g, weights=is_orig, minlength=k) >= 1)
    same = (n_keys == 1) & ~any_none
    ug, kind = u[first_rows(g, k)][counted], unit_kind(d)
    return {
        "same_option": cmv(same[counted], ug, kind=kind),
        "all_correct": cmv(right[counted] == n[counted], ug, kind=kind),
        "items": int(counted.sum()),
    }


# ------------------------------------------------------------------------------------------------------------
# the family (registered; see probe_ui.metrics.registry)
# ------------------------------------------------------------------------------------------------------------

_GROUP_COLUMNS = ("variant_id", "group_id", "item_group", "kind", "n_labels", "answer", "parsed", "invalid")


def _detect(d: pd.DataFrame) -> str | None:
    return "more than one condition" if len(pd.unique(cond_values(d))) > 1 else None


def _headline(b: dict[str, Any]) -> dict[str, Any]:
    out = {"group consistency": b["group_consistency"]["all"]["consistency"],
           "answer flip rate": b["answer_flip_rate"]["pairs"]}
    if "circular_eval" in b:
        out["CircularEval"] = b["circular_eval"]["circular"]
    if "same_option_under_shuffles" in b:
        out["same option under shuffles"] = b["same_option_under_shuffles"]["same_option"]
    return out


@metric("groups", "clean", order=900, detect=_detect, headline=_headline, figures={
        "group consistency": "items all of whose scored variants are right (items with at least two variants)",
        "answer flip rate": "(original, variant) pairs under perturbations that keep the correct answer whose chosen "
                            "answer differs from the original's (option text compared; an unreadable answer is its "
                            "own answer); not the correctness flip rate, which compares right/wrong",
        "CircularEval": "items right in the original and under every cyclic shift of the options (MMBench)",
        "same option under shuffles": "items that choose the same option text in the original and in every "
                                      "re-ordering of the options"},
        description="consistency over the variants of one item: group consistency (overall and per suite), answer "
                    "flip rate, CircularEval, same option under shuffles (ours)",
        explain={
            "group consistency": Explanation(
                measures="whether the model is right about an item however it is asked: the strictest reading of a "
                         "stress test",
                paper="generalises MMBench's CircularEval, ProbMed's pairs, MediConfusion's sets and rotation sets "
                      "(docs/reference.md §4)",
                computed="items whose every scored variant (the original included) is right / items with at least "
                         "two scored variants",
                chance="a guesser is right on all k variants with probability (1 / options)^k: 12.5 % for three "
                       "yes/no variants, far lower for more",
                ci=ci_words("items: n is the number of items, not of answers")),
            "answer flip rate": Explanation(
                measures="how often a perturbation that should not change the answer changes the model's choice",
                paper="the answer flip rate of the probing literature (docs/reference.md §4); not the correctness "
                      "flip rate of the Stress summary",
                computed="(original, variant) pairs under perturbations that keep the right answer whose chosen "
                         "option text differs from the original's / such pairs; an unreadable answer is an answer of "
                         "its own",
                chance="a guesser flips with probability 1 - 1/k for k options: 50 % for yes/no, 75 % for four",
                ci=ci_words("(original, variant) pairs", "lower is better")),
            "CircularEval": Explanation(
                measures="whether the model picks the right option wherever it is placed (position bias)",
                paper="MMBench's CircularEval, used by the medical probing papers for option-order robustness",
                computed="items right in the original and under every cyclic shift of the options (the circular "
                         "suite) / such items",
                chance="(1/k)^k for k options: 25 % for two, 0.4 % for four",
                ci=ci_words("items")),
            "same option under shuffles": Explanation(
                measures="whether the model chooses the same answer text when only the order of the options changes, "
                         "right or wrong",
                paper="probe-ui's own companion to CircularEval (option-order stability without the right answer)",
                computed="items that choose the same option text in the original and in every re-ordering of the "
                         "options / items with re-orderings",
                chance="(1/k)^m for k options and m re-orderings",
                ci=ci_words("items"))})
def groups_block(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    """Group consistency over all conditions and per suite, the answer flip rate (``answer_flip_rate``), and
    CircularEval / same option under shuffles where those conditions exist."""
    if "_key" not in d.columns:  # narrowed once, with the answer keys (a table for resampling has them already)
        key = answer_keys(d)
        d = d[[c for c in d.columns if c.startswith("_") or c in _GROUP_COLUMNS]].assign(_key=key)
    cond = cond_values(d)
    conds = [str(c) for c in pd.unique(cond)]
    out: dict[str, Any] = {"group_consistency": {"all": group_consistency(d)},
                           "answer_flip_rate": flip_rate(d)}
    suites = sorted({c.split("/", 1)[0] for c in conds if "/" in c})
    is_orig = cond == ORIGINAL
    codes, uniq = pd.factorize(cond)
    prefix = np.array([str(u).split("/", 1)[0] if "/" in str(u) else None for u in uniq], dtype=object)[codes]
    by_suite = {}
    if len(suites) > 1 or (len(suites) == 1 and not is_orig.all()):
        item, c, p, u, kind = item_codes(d), correct_values(d), random_share(d), unit_codes(d), unit_kind(d)
        for s in suites:
            m = is_orig | (prefix == s)
            by_suite[s] = consistency_of(item[m], c[m], p[m], u[m], kind)
    out["group_consistency"]["by_suite"] = by_suite
    if any(c.startswith("circular/shift") for c in conds):
        out["circular_eval"] = circular_eval(d)
    if any(_SHUFFLE_RE.search(c) for c in conds):
        out["same_option_under_shuffles"] = same_option_under_shuffles(d)
    return out
