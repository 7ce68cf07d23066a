"""The answer table every metric family reads, and the helpers that compute over it.

Why a module: each family (:mod:`probe_ui.metrics.groups`, :mod:`~probe_ui.metrics.robustness`, the benchmarks'
``metric.py``) reads the same table of scored answers (:meth:`Store.answers_frame`, ``full=True``) and needs the same
facts about it: which rows were answered, which rows are replicas of one item, the condition, correctness as numbers,
the chance of a random guess, the chosen answer as comparable text. :func:`prepare` computes them once per table
(vectorised; Python work once per distinct variant), so that scoring a million answers stays fast, and every family
reads them from here.

- :func:`prepare`: the answered rows plus the per-variant facts (see its docstring); calling it on a prepared table
  returns the table unchanged;
- row facts: :func:`correct_values`, :func:`random_share`, :func:`cond_values` / :func:`cond_mask`,
  :func:`item_codes`, :func:`rep_keys`, :func:`key_codes`, :func:`flag`, :func:`variant_attr`,
  :func:`suggestion_letter`, :func:`per_variant`;
- answer keys: :func:`answer_keys` (the chosen option text for choice items, the label otherwise),
  :func:`truth_keys`, :func:`same_values`;
- units of evidence: :func:`unit_codes`, :func:`unit_kind`;
- figures: :func:`mv` (a ratio as a MetricValue dict), :func:`cmv` (one whose interval counts units),
  :func:`value_only`, :func:`mean_pct`.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Any, Iterable

import numpy as np
import pandas as pd

from probe_ui.items import LETTERS, suggested_letter
from probe_ui.metrics import units
from probe_ui.metrics.base import MetricValue, clustered_ratio, ratio
from probe_ui.metrics.registry import attribute_keys

ORIGINAL = "original"
_LETTER_INDEX = {ch: i for i, ch in enumerate(LETTERS)}



READY = "_pm_ready"


def attr_keys() -> tuple[str, ...]:
    """The variant attributes :func:`prepare` extracts: those the registered metric families read, plus
    ``suggested_answer`` (every table gets ``_sug``) and those a unit of evidence is read from."""
    return tuple(dict.fromkeys((*attribute_keys(), "suggested_answer", *units.attribute_keys())))


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
    return combined_codes([df[c] for c in cols])


def combined_codes(columns: list[Any]) -> np.ndarray:
    """:func:`key_codes` of columns given as arrays (or Series) of one length: the codes number the distinct
    combinations in order of first appearance."""
    code = np.zeros(len(columns[0]), dtype=np.int64)
    for col in columns:
        f, uniq = pd.factorize(col, use_na_sentinel=False)
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
           "category", "tags", "attributes", "prompt_args", "confidence", "token_confidence",
           "provenance",  # the steps that made a variant (the occlusion family tells its two conditions apart)
           # a pushback answer's first answer and the option pushed (probe_ui.scoring.pushback)
           "pressure", "pushed", "first_parsed", "first_correct", "flip_turn")


def prepare(df: pd.DataFrame) -> pd.DataFrame:
    """The answered rows, narrowed to the columns the metrics read (``COLUMNS``), with the per-variant facts every
    family needs computed once (vectorised; Python work only once per distinct variant): ``_vcode`` variant code,
    ``_rep`` replica code (model[, prompt][, sample]), ``_item`` item code (replica + group_id), ``_cond``
    condition, ``_unit`` the unit of evidence's code and ``_ukind`` its kind (:mod:`probe_ui.metrics.units`),
    ``_c`` correct as float, ``_p`` chance of a random guess, ``_a_<key>`` for the attributes the
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
    per = d.iloc[first][[c for c in ("item_id", "source", "item_group") if c in d.columns]]
    per = per.assign(**{k: v[first] for k, v in cols.items() if k.startswith("_a_")})
    found = units.codes_of(per, items=False)  # a variant's unit is its item's: read once per variant
    ukinds = found.kinds
    cols["_unit"] = found.keys[codes]
    kc, ku = pd.factorize(ukinds)
    cols["_ukind"] = pd.Categorical.from_codes(kc[codes], pd.Index(ku, dtype=object))
    cols[READY] = np.ones(n, dtype=bool)
    extra = pd.DataFrame({k: (pd.Series(v, index=d.index, dtype=object, copy=False)
                              if isinstance(v, np.ndarray) and v.dtype == object else v) for k, v in cols.items()},
                         index=d.index)
    return pd.concat([d, extra], axis=1)


def for_resampling(df: pd.DataFrame) -> pd.DataFrame:
    """A prepared table made cheap to draw rows from many times (a paired bootstrap computes every family on each
    replicate): the per-row facts that drawing rows cannot change computed once (``_key``: :func:`answer_keys`;
    ``_qcode``: :func:`question_codes`; ``invalid`` as the booleans :func:`flag` reads), and the text columns held
    as plain Python objects in one block (and the column names), so a draw is one numpy take instead of one Arrow
    call per column. The values are the prepared table's (a missing text stays NaN), so every figure is too."""
    d = prepare(df)
    cols: dict[str, Any] = {c: d[c].astype(object) for c in d.columns
                            if isinstance(d[c].dtype, (pd.StringDtype, pd.ArrowDtype))}
    if "invalid" in d.columns:
        cols["invalid"] = flag(d, "invalid")
    cond = d["_cond"].array
    cols["_cond"] = pd.Categorical.from_codes(cond.codes, pd.Index(cond.categories, dtype=object))
    cols["_key"] = pd.Series(answer_keys(d), index=d.index, dtype=object)
    cols["_qcode"] = question_codes(d)
    out = d.assign(**cols).copy()  # the copy puts the object columns in one block
    out.columns = pd.Index(list(out.columns), dtype=object)  # a column looked up by name: no Arrow call
    return out


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


def unit_codes(df: pd.DataFrame) -> np.ndarray:
    """Every row's unit of evidence as an int code (``_unit`` of a prepared table; equal codes, one unit)."""
    if "_unit" in df.columns:
        return df["_unit"].to_numpy(dtype=np.int64)
    return units.codes_of(df, items=False).keys


def unit_kind(df: pd.DataFrame) -> str:
    """The unit most rows of a table count in ("item", "image", "pair", ...)."""
    if "_ukind" in df.columns and len(df):
        return str(df["_ukind"].value_counts(sort=True).index[0])
    if not len(df):
        return "item"
    return units.codes_of(df, items=False).kind()


def cmv(hits: Any, units: Any, *, items: Any | None = None, kind: str | None = None, random: float | None = None
        ) -> dict:
    """A ratio over scoring elements (answers, pairs, images: ``hits`` 1/0 each) that come in units of evidence
    (``units``: each element's unit code, :func:`unit_codes`), as a MetricValue dict: the value over the elements,
    the interval over the units (:func:`probe_ui.metrics.base.clustered_ratio`; Wilson's, as :func:`mv` gives,
    where each unit holds one element). ``items``: each element's item where elements are answers (the variants of
    one item inside a pair), so that the interval is never narrower than the items' clustering gives."""
    from dataclasses import replace

    x = np.asarray(hits, dtype=float)
    if not len(x):
        return mv(0, 0, random=random)
    value = clustered_ratio(x, np.asarray(units), None if items is None else np.asarray(items), random=random)
    return replace(value, unit=kind or "item").to_dict()


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


# answer keys (option text for choice items)


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


def question_codes(d: pd.DataFrame) -> np.ndarray:
    """A code per row for (kind, question, set of option texts): both images of a confusing pair share it (only
    equal codes mean anything; ``_qcode`` when :func:`for_resampling` computed them once)."""
    if "_qcode" in d.columns:
        return d["_qcode"].to_numpy()
    if not len(d):
        return np.zeros(0, dtype=np.int64)
    kind = d["kind"].astype(str).to_numpy(dtype=object) if "kind" in d.columns else np.full(len(d), "choice", object)
    q = d["question"].astype(str).to_numpy(dtype=object) if "question" in d.columns else np.full(len(d), "", object)
    opts = per_variant(d, "options", lambda o: frozenset(o) if isinstance(o, (list, tuple, np.ndarray)) else frozenset()
                       ).to_numpy(dtype=object) if "options" in d.columns else np.full(len(d), frozenset(), object)
    key = pd.DataFrame({"k": kind, "q": q, "o": opts})
    codes = key_codes(key, ["k", "q", "o"])
    return np.where(kind == "choice", codes, -1 - np.arange(len(d)))  # non-choice rows never pair


def truth_keys(df: pd.DataFrame) -> np.ndarray:
    """The ground-truth answer text per row (option text / label); None when unknown."""
    if "answer" not in df.columns:
        return np.full(len(df), None, dtype=object)
    codes, uniq = pd.factorize(df["answer"])
    return np.array(list(uniq) + [None], dtype=object)[codes]


def same_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise equality of two object arrays where None equals None (values compared via joint codes)."""
    codes, _ = pd.factorize(np.concatenate([np.asarray(a, dtype=object), np.asarray(b, dtype=object)]))
    return codes[:len(a)] == codes[len(a):]

def value_or_none(x: Any) -> Any:
    """None for pandas' missing values (NaN/None/NaT), the value otherwise."""
    if x is None:
        return None
    if isinstance(x, float) and math.isnan(x):
        return None
    try:
        if x is pd.NA or x is pd.NaT:
            return None
    except TypeError:  # pragma: no cover
        pass
    return x
