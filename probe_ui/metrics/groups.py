"""Group metrics over the variants of one item (docs/reference.md §4, last bullet), and the table helpers every metric
family shares.

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

Helpers for the other families: :func:`prepare` (the answered rows plus per-variant facts computed once, so that
scoring a million answers stays vectorised), :func:`answer_keys`, :func:`variant_attr`, :func:`suggestion_letter`,
:func:`key_codes`, :func:`mv` (a ratio as a MetricValue dict).
"""

from __future__ import annotations

import itertools
import operator
import re
from typing import Any, Iterable

import numpy as np
import pandas as pd

from probe_ui.items import LETTERS, suggested_letter
from probe_ui.metrics.base import MetricValue, ratio
from probe_ui.metrics.registry import Explanation, MetricContext, attribute_keys, metric

ORIGINAL = "original"
_LETTER_INDEX = {ch: i for i, ch in enumerate(LETTERS)}
# re-orderings of the options with everything else kept (not the text-only ``illusion/no-image+shuffle``, whose
# answers compare with ``illusion/no-image``, not with the original)
_SHUFFLE_RE = re.compile(r"(?:^circular/shift\d+$)|^(?!.*(?:no-image|text-only)).*shuffle")


# ------------------------------------------------------------------------------------------------------------
# table helpers (shared by every family)
# ------------------------------------------------------------------------------------------------------------

READY = "_pm_ready"


def attr_keys() -> tuple[str, ...]:
    """The variant attributes :func:`prepare` extracts: those the registered metric families read, plus
    ``suggested_answer`` (every table gets ``_sug``)."""
    return tuple(dict.fromkeys((*attribute_keys(), "suggested_answer")))


def has_attribute(d: pd.DataFrame, key: str) -> bool:
    """Whether some variant of a prepared table sets ``attributes[key]``."""
    col = f"_a_{key}"
    return col in d.columns and bool(d[col].notna().any())


def sources_text(d: pd.DataFrame) -> str:
    """Every distinct ``source`` of a table, lower-cased and joined: what detection rules search for names."""
    return " ".join(str(s) for s in pd.unique(d["source"])).lower() if "source" in d.columns and len(d) else ""


def lower_contains(values: pd.Series, word: str) -> np.ndarray:
    """Per row, whether ``word`` occurs in the lower-cased value (evaluated once per distinct value)."""
    codes, uniq = pd.factorize(values)
    hit = np.array([word in str(u).lower() for u in uniq] + [False], dtype=bool)
    return hit[codes]


def answered(df: pd.DataFrame) -> pd.DataFrame:
    """Rows that got an answer from the provider (no ``error``), in table order, with a fresh index."""
    if READY in df.columns:
        return df
    if "error" in df.columns:
        df = df[df["error"].isna().to_numpy()]
    return df.reset_index(drop=True)


def rep_keys(df: pd.DataFrame) -> list[str]:
    """Columns that separate independent replicas of the same item (``_rep`` once the table is prepared): the
    model; the prompt when a variant was answered under several prompts; the sample while a variant still has
    several samples (see the module doc)."""
    if "_rep" in df.columns:
        return ["_rep"]
    keys = ["model"] if "model" in df.columns else []
    if not len(df) or "variant_id" not in df.columns:
        return keys
    base = keys + ["variant_id"]
    if not df.duplicated(base).any():
        return keys
    has_p, has_s = "prompt" in df.columns, "sample" in df.columns
    if has_p and df.duplicated(base + (["sample"] if has_s else [])).any():
        keys.append("prompt")
    if has_s and df.duplicated(base + (["prompt"] if has_p else [])).any():
        keys.append("sample")
    return keys


def key_codes(df: pd.DataFrame, cols: Iterable[str]) -> np.ndarray:
    """One int64 code per distinct combination of ``cols`` (NaN/None is a value of its own), vectorised."""
    cols = list(cols)
    if not cols or not len(df):
        return np.zeros(len(df), dtype=np.int64)
    code = np.zeros(len(df), dtype=np.int64)
    for c in cols:
        f, uniq = pd.factorize(df[c], use_na_sentinel=False)
        code = code * (len(uniq) + 1) + f.astype(np.int64)
        code = pd.factorize(code)[0].astype(np.int64)  # keep the numbers small
    return code


def first_rows(codes: np.ndarray, n_uniq: int) -> np.ndarray:
    """Row position of the first occurrence of every code 0..n_uniq-1."""
    first = np.empty(n_uniq, dtype=np.int64)
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)
    return first


def _variant_codes(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    if "_vcode" in df.columns:
        codes = df["_vcode"].to_numpy()
        uniq, inv = np.unique(codes, return_inverse=True)
        return inv, first_rows(inv, len(uniq))
    vid = df["variant_id"] if "variant_id" in df.columns else pd.Series(np.arange(len(df)))
    codes, uniq_values = pd.factorize(vid, use_na_sentinel=False)
    return codes, first_rows(codes, len(uniq_values))


def _none(v: Any) -> Any:
    return None if v is None or (isinstance(v, float) and np.isnan(v)) else v


def _suggested(pa: Any, a: Any) -> str | None:
    return suggested_letter(pa, a)


COLUMNS = ("model", "prompt", "sample", "variant_id", "parsed", "invalid", "refusal", "correct", "item_id", "source",
           "condition", "group_id", "item_group", "kind", "answer_label", "n_labels", "question", "options", "answer",
           "category", "tags", "attributes", "prompt_args")


def prepare(df: pd.DataFrame) -> pd.DataFrame:
    """The answered rows, narrowed to the columns the metrics read (``COLUMNS``), with the per-variant facts every
    family needs computed once (vectorised; Python work only once per distinct variant): ``_vcode`` variant code,
    ``_rep`` replica code (model[, prompt][, sample]), ``_item`` item code (replica + group_id), ``_cond``
    condition, ``_c`` correct as float, ``_p`` chance of a random guess, ``_a_<key>`` for the attributes the
    metrics read (:func:`attr_keys`), ``_sug`` the suggested answer's letter, ``_vr`` tagged visual-required. Every
    metric function calls it; calling it on a prepared table returns the table unchanged."""
    if READY in df.columns:
        return df
    d = answered(df)
    d = d[[c for c in COLUMNS if c in d.columns]]
    n = len(d)
    cols: dict[str, Any] = {}
    codes, first = _variant_codes(d)
    cols["_vcode"] = codes.astype(np.int64)
    keys = ["model"] if "model" in d.columns else []
    if len(first) < n:  # some variant answered more than once: by another model or prompt, or several samples
        keys = rep_keys(d)
    cols["_rep"] = key_codes(d, keys)
    cols["_item"] = key_codes(pd.DataFrame({"r": cols["_rep"], "g": d["group_id"].to_numpy(dtype=object)
                                            if "group_id" in d.columns else np.zeros(n)}), ["r", "g"])
    cond = d["condition"].to_numpy(dtype=object) if "condition" in d.columns else np.full(n, ORIGINAL, object)
    cols["_cond"] = pd.Categorical(np.where(pd.isna(cond), ORIGINAL, cond).astype(object))
    cols["_c"] = correct_values(d)
    cols["_p"] = random_share(d)
    attrs = d["attributes"].to_numpy(dtype=object)[first] if "attributes" in d.columns else np.full(len(first), None)
    dicts = [a if isinstance(a, dict) else {} for a in attrs]
    for k in attr_keys():
        vals = np.full(len(first), None, dtype=object)
        if any(map(operator.contains, dicts, itertools.repeat(k))):
            vals = np.fromiter(map(dict.get, dicts, itertools.repeat(k)), dtype=object, count=len(dicts))
            vals[pd.isna(vals)] = None
        cols[f"_a_{k}"] = vals[codes]
    pargs = d["prompt_args"].to_numpy(dtype=object)[first] if "prompt_args" in d.columns \
        else np.full(len(first), None)
    sug = np.full(len(first), None, dtype=object)
    todo = np.flatnonzero(pd.notna(pargs) | pd.notna(cols["_a_suggested_answer"][first]))
    if len(todo):
        sug[todo] = [_suggested(pargs[i], dicts[i]) for i in todo]
    cols["_sug"] = sug[codes]
    vr = np.zeros(len(first), dtype=bool)
    if "tags" in d.columns:
        tags = d["tags"].to_numpy(dtype=object)[first]
        todo = np.flatnonzero(np.fromiter((t is not None and len(t) > 0 if isinstance(t, np.ndarray) else bool(t)
                                           for t in tags), dtype=bool, count=len(tags)))
        if len(todo):
            vr[todo] = [isinstance(tags[i], (list, tuple, np.ndarray)) and ("visual-required" in tags[i]
                                                                or "visual_required" in tags[i]) for i in todo]
    cols["_vr"] = vr[codes]
    cols[READY] = np.ones(n, dtype=bool)
    extra = pd.DataFrame({k: (pd.Series(v, index=d.index, dtype=object, copy=False)
                              if isinstance(v, np.ndarray) and v.dtype == object else v) for k, v in cols.items()},
                         index=d.index)
    return pd.concat([d, extra], axis=1)


def correct_values(df: pd.DataFrame) -> np.ndarray:
    """``correct`` as float: 1.0 right, 0.0 wrong (invalid included), NaN when the ground truth is unknown."""
    if "_c" in df.columns:
        return df["_c"].to_numpy(dtype=float)
    if "correct" not in df.columns:
        return np.full(len(df), np.nan)
    s = df["correct"]
    if s.dtype == object:
        # 1 and 0 are the same dict keys as True and False, so they map too
        return s.map({True: 1.0, False: 0.0}).to_numpy(dtype=float, na_value=np.nan)
    return s.astype("Float64").to_numpy(dtype=float, na_value=np.nan)


def flag(df: pd.DataFrame, col: str) -> np.ndarray:
    """A boolean column with missing values read as False."""
    if col not in df.columns:
        return np.zeros(len(df), dtype=bool)
    s = df[col]
    if s.dtype == bool:
        return s.to_numpy()
    return s.map({True: True}).fillna(False).to_numpy(dtype=bool)


def per_variant(df: pd.DataFrame, col: str, fn) -> pd.Series:
    """Apply ``fn`` to ``col`` once per distinct variant and broadcast back to the rows (attributes, options,
    prompt arguments and categories are per variant, so this keeps Python work off the answer rows)."""
    if col not in df.columns or not len(df):
        return pd.Series([None] * len(df), index=df.index, dtype=object)
    codes, first = _variant_codes(df)
    vals = df[col].to_numpy(dtype=object)[first]
    out = np.empty(len(vals), dtype=object)
    out[:] = [fn(v) for v in vals]
    return pd.Series(out[codes], index=df.index, dtype=object)


def variant_attr(df: pd.DataFrame, key: str, col: str = "attributes") -> pd.Series:
    """``attributes[key]`` (or another dict column's key) for every row; None where absent."""
    if col == "attributes" and f"_a_{key}" in df.columns:
        return df[f"_a_{key}"]
    return per_variant(df, col, lambda a: _none(a.get(key)) if isinstance(a, dict) else None)


def suggestion_letter(df: pd.DataFrame) -> pd.Series:
    """The suggested answer's letter of a MedVH FCJ row: ``prompt_args.suggestion.letter`` (our ``suggest``
    perturbation), else the letter that starts ``attributes.suggested_answer`` ("B: No." → "B", imported MedVH
    records); None for rows without a suggestion."""
    if "_sug" in df.columns:
        return df["_sug"]
    pa = df["prompt_args"] if "prompt_args" in df.columns else pd.Series([None] * len(df), index=df.index)
    at = df["attributes"] if "attributes" in df.columns else pd.Series([None] * len(df), index=df.index)
    both = pd.Series(list(zip(pa.to_numpy(dtype=object), at.to_numpy(dtype=object))), index=df.index, dtype=object)
    tmp = pd.DataFrame({"variant_id": df["variant_id"] if "variant_id" in df.columns else np.arange(len(df)),
                        "x": both}, index=df.index)
    return per_variant(tmp, "x", lambda pair: _suggested(*pair))


def cond_values(df: pd.DataFrame) -> np.ndarray:
    """The condition of every row as a Python str array ("original" when missing)."""
    if "_cond" in df.columns:
        return df["_cond"].to_numpy(dtype=object)
    if "condition" not in df.columns:
        return np.full(len(df), ORIGINAL, dtype=object)
    c = df["condition"].to_numpy(dtype=object)
    return np.where(pd.isna(c), ORIGINAL, c).astype(object)


def cond_mask(df: pd.DataFrame, fn) -> np.ndarray:
    """``fn(condition)`` for every row of a table, evaluated once per distinct condition."""
    if "_cond" in df.columns and isinstance(df["_cond"].dtype, pd.CategoricalDtype):
        cat = df["_cond"].array
        hit = np.array([bool(fn(str(u))) for u in cat.categories] + [False], dtype=bool)
        return hit[cat.codes]
    return cond_test(cond_values(df), fn)


def cond_test(conds: np.ndarray, fn) -> np.ndarray:
    """``fn(condition)`` for every row, evaluated once per distinct condition."""
    if not len(conds):
        return np.zeros(0, dtype=bool)
    codes, uniq = pd.factorize(conds)
    return np.array([bool(fn(str(u))) for u in uniq], dtype=bool)[codes]


def item_codes(df: pd.DataFrame) -> np.ndarray:
    """The item (replica + group_id) code of every row."""
    if "_item" in df.columns:
        return df["_item"].to_numpy()
    return key_codes(df, rep_keys(df) + ["group_id"])


def random_share(df: pd.DataFrame) -> np.ndarray:
    """Per row, the chance a uniform random guess is right: 1 / n_labels (NaN when the item has no labels)."""
    if "_p" in df.columns:
        return df["_p"].to_numpy(dtype=float)
    if "n_labels" not in df.columns:
        return np.full(len(df), np.nan)
    n = pd.to_numeric(df["n_labels"], errors="coerce").to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, 1.0 / n, np.nan)


def mean_pct(x: np.ndarray) -> float | None:
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    return round(float(100.0 * x.mean()), 4) if len(x) else None


def mv(num: float, den: float, n: int | None = None, *, ci: bool = True, random: float | None = None) -> dict:
    """``ratio(...).to_dict()`` with plain Python numbers (JSON-able)."""
    num = float(num) if not float(num).is_integer() else int(num)
    den = float(den) if not float(den).is_integer() else int(den)
    return ratio(num, den, None if n is None else int(n), ci=ci, random=random).to_dict()


def value_only(value: float | None, weight: float, n: int, *, ci: tuple[float, float] | None = None,
               random: float | None = None) -> dict:
    """A MetricValue for a weighted figure that is not a plain ratio (legacy combinations, harmonic means):
    numerator = value × weight / 100, denominator = weight."""
    weight = float(weight)
    if value is not None and np.isnan(float(value)):
        value = None
    num = 0.0 if value is None else float(value) * weight / 100.0
    return MetricValue(None if value is None else round(float(value), 6), round(num, 6), weight, int(n),
                       ci, random).to_dict()


# ------------------------------------------------------------------------------------------------------------
# answer keys (option text for choice items)
# ------------------------------------------------------------------------------------------------------------

def _norm(s: Any) -> str | None:
    if s is None or (isinstance(s, float) and np.isnan(s)):
        return None
    return " ".join(str(s).split()).casefold()


def answer_keys(df: pd.DataFrame) -> np.ndarray:
    """Per row, the chosen answer as comparable text: the option text for choice rows (``options`` + parsed
    letter), the label (whitespace-normalised, case-folded) otherwise; None when unreadable/invalid."""
    if "_key" in df.columns:
        return df["_key"].to_numpy(dtype=object)
    n = len(df)
    out = np.full(n, None, dtype=object)
    if not n or "parsed" not in df.columns:
        return out
    pcodes, puniq = pd.factorize(df["parsed"])
    valid = (pcodes >= 0) & ~flag(df, "invalid")
    out[:] = np.array([_norm(u) for u in puniq] + [None], dtype=object)[pcodes]  # code -1 → None
    if "kind" in df.columns and "options" in df.columns:
        choice = (df["kind"] == "choice").to_numpy()
        if choice.any():
            k_of = np.array([_LETTER_INDEX.get(u, -1) if isinstance(u, str) else -1 for u in puniq] + [-1],
                            dtype=np.int64)
            k = k_of[pcodes[choice]]
            vc = df["_vcode"].to_numpy() if "_vcode" in df.columns else pd.factorize(df["variant_id"])[0]
            uv, inv = np.unique(vc[choice], return_inverse=True)
            first = first_rows(inv, len(uv))
            opts = df["options"].to_numpy(dtype=object)[np.flatnonzero(choice)[first]]
            for i in [i for i, o in enumerate(opts) if not isinstance(o, (list, tuple, np.ndarray))]:
                opts[i] = ()
            lens = np.array(list(map(len, opts)), dtype=np.int64)
            flat = np.empty(int(lens.sum()) + 1, dtype=object)
            flat[:-1] = list(itertools.chain.from_iterable(opts))
            offsets = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
            ok = (k >= 0) & (k < lens[inv])
            out[choice] = flat[np.where(ok, offsets[inv] + np.where(ok, k, 0), len(flat) - 1)]
    out[~valid] = None
    return out


def _truth_keys(df: pd.DataFrame) -> np.ndarray:
    """The ground-truth answer text per row (option text / label); None when unknown."""
    if "answer" not in df.columns:
        return np.full(len(df), None, dtype=object)
    codes, uniq = pd.factorize(df["answer"])
    return np.array(list(uniq) + [None], dtype=object)[codes]


def same_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise equality of two object arrays where None equals None (values compared via joint codes)."""
    codes, _ = pd.factorize(np.concatenate([np.asarray(a, dtype=object), np.asarray(b, dtype=object)]))
    return codes[:len(a)] == codes[len(a):]


# ------------------------------------------------------------------------------------------------------------
# group metrics
# ------------------------------------------------------------------------------------------------------------

def consistency_of(groups_: np.ndarray, c: np.ndarray, p: np.ndarray) -> dict[str, Any]:
    """Group consistency from arrays: group code, correct (0/1, NaN = not scored) and chance per row."""
    keep = ~np.isnan(c)
    g, c, p = groups_[keep], c[keep], p[keep]
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
    consistent = int((right[multi] == n[multi]).sum())
    rand = round(float(100 * np.exp(logp[multi]).mean()), 4) if n_groups and not has_nan_p[multi].any() else None
    rnd_acc = round(float(100 * psum[multi].sum() / rows), 4) if rows and not has_nan_p[multi].any() else None
    return {
        "consistency": mv(consistent, n_groups, random=rand),
        "accuracy": mv(int(right[multi].sum()), rows, random=rnd_acc),
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
    return consistency_of(gcode, c, random_share(d))


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
    key, truth = answer_keys(d), _truth_keys(d)
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
    ch_c = np.bincount(ccodes, weights=changed, minlength=k)
    mv_c = np.bincount(ccodes, weights=moved, minlength=k)
    order = np.argsort([str(c) for c in cuniq], kind="stable")
    conditions = {str(cuniq[i]): mv(int(ch_c[i]), int(n_c[i])) for i in order}
    moved_pct = {str(cuniq[i]): round(float(100 * mv_c[i] / n_c[i]), 4) for i in order}
    keep = ~moved
    kitems = item[var][keep]
    any_flip = pd.Series(changed[keep]).groupby(kitems).any() if keep.any() else pd.Series(dtype=bool)
    return {
        "conditions": conditions,
        "answer_moved": moved_pct,
        "pairs": mv(int(changed[keep].sum()), int(keep.sum())),
        "overall": mv(int(any_flip.sum()), len(any_flip)),
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
    f = pd.DataFrame({"item": item_codes(d), "c": c, "p": random_share(d), "shift": is_shift, "orig": is_orig,
                      "nl": nl})[keep]
    f = f[f.groupby("item")["shift"].transform("any").to_numpy()]
    if not len(f):
        return empty
    agg = f.groupby("item", sort=False).agg(n=("c", "size"), right=("c", "sum"), pr=("p", "prod"),
                                             shifts=("shift", "sum"), origs=("orig", "sum"), nl=("nl", "max"))
    ov = f[f["orig"].to_numpy()].groupby("item").agg(c=("c", "first"), p=("p", "first"))
    complete = (agg["origs"] >= 1) & (agg["shifts"] >= agg["nl"] - 1)
    ok = agg[complete]
    van = ov.reindex(ok.index)
    rnd = round(float(100 * ok["pr"].mean()), 4) if len(ok) else None
    return {
        "circular": mv(int((ok["right"] == ok["n"]).sum()), len(ok), random=rnd),
        "vanilla": mv(int(van["c"].sum()), int(van["c"].notna().sum()), random=mean_pct(van["p"].to_numpy())),
        "items": int(len(ok)),
        "incomplete": int((~complete).sum()),
    }


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
    d = d[keep]
    key = answer_keys(d)
    none = pd.isna(key)
    f = pd.DataFrame({"item": item_codes(d), "key": np.where(none, "\x00<none>", key).astype(object),
                      "none": none, "reorder": reorder[keep], "orig": is_orig[keep],
                      "c": np.nan_to_num(correct_values(d), nan=0.0)})
    agg = f.groupby("item", sort=False).agg(n=("key", "size"), keys=("key", "nunique"), none=("none", "any"),
                                             reorder=("reorder", "sum"), orig=("orig", "sum"), right=("c", "sum"))
    agg = agg[(agg["reorder"] >= 1) & (agg["orig"] >= 1)]
    same = (agg["keys"] == 1) & ~agg["none"]
    return {
        "same_option": mv(int(same.sum()), len(agg)),
        "all_correct": mv(int((agg["right"] == agg["n"]).sum()), len(agg)),
        "items": int(len(agg)),
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
                ci="the 95 % Wilson interval over items: n is the number of items, not of answers"),
            "answer flip rate": Explanation(
                measures="how often a perturbation that should not change the answer changes the model's choice",
                paper="the answer flip rate of the probing literature (docs/reference.md §4); not the correctness "
                      "flip rate of the Stress summary",
                computed="(original, variant) pairs under perturbations that keep the right answer whose chosen "
                         "option text differs from the original's / such pairs; an unreadable answer is an answer of "
                         "its own",
                chance="a guesser flips with probability 1 - 1/k for k options: 50 % for yes/no, 75 % for four",
                ci="the 95 % Wilson interval over pairs; lower is better"),
            "CircularEval": Explanation(
                measures="whether the model picks the right option wherever it is placed (position bias)",
                paper="MMBench's CircularEval, used by the medical probing papers for option-order robustness",
                computed="items right in the original and under every cyclic shift of the options (the circular "
                         "suite) / such items",
                chance="(1/k)^k for k options: 25 % for two, 0.4 % for four",
                ci="the 95 % Wilson interval over items"),
            "same option under shuffles": Explanation(
                measures="whether the model chooses the same answer text when only the order of the options changes, "
                         "right or wrong",
                paper="probe-ui's own companion to CircularEval (option-order stability without the right answer)",
                computed="items that choose the same option text in the original and in every re-ordering of the "
                         "options / items with re-orderings",
                chance="(1/k)^m for k options and m re-orderings",
                ci="the 95 % Wilson interval over items")})
def groups_block(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    """Group consistency over all conditions and per suite, the answer flip rate (``answer_flip_rate``), and
    CircularEval / same option under shuffles where those conditions exist."""
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
        item, c, p = item_codes(d), correct_values(d), random_share(d)
        for s in suites:
            m = is_orig | (prefix == s)
            by_suite[s] = consistency_of(item[m], c[m], p[m])
    out["group_consistency"]["by_suite"] = by_suite
    if any(c.startswith("circular/shift") for c in conds):
        out["circular_eval"] = circular_eval(d)
    if any(_SHUFFLE_RE.search(c) for c in conds):
        out["same_option_under_shuffles"] = same_option_under_shuffles(d)
    return out
