"""Paired comparison of two sets of answers to the same questions: did B fix or break what A answered?

A *side* is one model's answers in one run. Two models of one run, or one model across two runs (a new model version,
a new prompt, other settings), are compared on the *cells* they share: the same item, variant (condition) and sample.
Because both sides answered the very same questions, the comparison is paired: it counts the cells each side got
right alone (B "fixed" a cell A got wrong; B "broke" one A got right) and tests those counts, which is far more
sensitive than two independent accuracies with their own intervals.

What :func:`compare` reports (one JSON-able dict, also what ``probe-ui compare --json`` prints):

- matching: the cells compared, the cells only one side has (counted and listed, never silently dropped), the cells
  left out because a side has no reply (a provider error) or the ground truth is unknown;
- overall and per perturbation and per category: each side's accuracy (an unreadable answer counts as wrong, as in
  every view), the paired difference B - A in percentage points with Newcombe's paired 95 % interval
  (:func:`probe_ui.stats.newcombe_paired`), the exact McNemar test on the fixed / broke counts
  (:func:`probe_ui.stats.mcnemar_exact`), and, per perturbation and per category, Holm-adjusted p-values
  (several tests at once);
- the cells that flipped each way, with both replies;
- per paper metric family present in both: the headline figures of A and B on the shared cells and the difference
  with a paired bootstrap interval (the shared units resampled together, so both sides see the same draw);
- ``summary``: all of it in one plain sentence.

A comparison is refused when "the same" cell was asked differently: another image, question, option list or ground
truth, or (unless ``allow_prompt_change``) another prompt template. A new model version is compared on the same
questions; a new prompt is compared only when the caller says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np
import pandas as pd

from probe_ui import stats
from probe_ui.errors import ProbeUIError
from probe_ui.items import LETTERS
from probe_ui.metrics.frame import value_or_none
from probe_ui.scoring import categories_of, records, scored_answers
from probe_ui.security.redact import printable

if TYPE_CHECKING:
    from probe_ui.store import Store

KEY = ("item_id", "condition", "sample")
#: what must be equal for two answers to be answers to the same question (field → words for the message)
SAME = (("image_ids", "the image"), ("question", "the question"), ("options", "the options (or their order)"),
        ("answer_label", "the right answer"), ("kind", "the kind of question"))
PROMPT = (("prompt", "the prompt template"), ("prompt_args", "the prompt's arguments"))
ALPHA = 0.05
FLIP_LIMIT = 500  # flipped cells listed per direction (the counts are always whole)
EXAMPLE_LIMIT = 20  # unmatched cells listed per side
PAPER_BOOT = 200  # bootstrap replicates of the paper metrics' differences (each computes every family twice)


class CompareError(ProbeUIError, ValueError):
    """The two sides cannot be compared as asked: an unknown run or model, nothing shared, or the same cells asked
    with different images or prompts."""


@dataclass(frozen=True)
class Side:
    """One model's answers in one run."""

    run: str
    model: str

    def label(self) -> str:
        """The side in words, its names as printed (:func:`probe_ui.security.redact.printable`)."""
        return f"{printable(self.model)} in run '{printable(self.run)}'"


# ---- loading and matching ----------------------------------------------------------------------------------------

def _frame(store: Store, side: Side, parser: str) -> pd.DataFrame:
    df = scored_answers(store, side.run, parser)
    models = sorted(map(str, pd.unique(df["model"]))) if len(df) else []
    if side.model not in models:
        raise CompareError(f"run '{printable(side.run)}' has no answers of model '{printable(side.model)}'"
                           + (f"; its models: {', '.join(map(printable, models))}" if models
                              else "; it has no answers yet"))
    return df[df["model"].astype(str) == side.model].reset_index(drop=True)


def _norm(v: Any) -> Any:
    """A value as comparable plain data: lists for arrays and tuples, None for missing."""
    v = value_or_none(v)
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if isinstance(v, tuple):
        v = list(v)
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in sorted(v.items())}
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


def _keyed(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    k = df[keys].astype(str).agg("\x1f".join, axis=1) if len(df) else pd.Series([], dtype=str)
    return df.assign(_key=k.to_numpy())


def _keys(a: pd.DataFrame, b: pd.DataFrame) -> list[str]:
    """The cell key: item, condition, sample; plus the prompt template where a side answered one variant under
    several templates (a run repeated with another ``--prompt``)."""
    keys = list(KEY)
    if a.duplicated(keys).any() or b.duplicated(keys).any():
        keys.append("prompt")
    for side, df in (("A", a), ("B", b)):
        dup = df[df.duplicated(keys, keep=False)]
        if len(dup):
            r = dup.iloc[0]
            raise CompareError(f"side {side} answered item '{r['item_id']}' ({r['condition']}, sample "
                               f"{r['sample']}) more than once under the same prompt: it cannot be paired")
    return keys


def _describe_cell(r: pd.Series) -> str:
    return f"item '{r['item_id']}' ({r['condition']}" + (f", sample {int(r['sample'])}" if int(r["sample"]) else "") \
        + ")"


def _short(v: Any, n: int = 60) -> str:
    s = ", ".join(map(str, v)) if isinstance(v, list) else str(v)
    return s if len(s) <= n else s[:n - 1] + "…"


def _check_same(m: pd.DataFrame, a: Side, b: Side, allow_prompt_change: bool) -> list[str]:
    """Refuse pairs asked differently; return what differs that is allowed (the prompt template)."""
    allowed: list[str] = []
    fields = SAME + (() if allow_prompt_change else PROMPT)
    for col, words in fields:
        ca, cb = f"{col}_a", f"{col}_b"
        if ca not in m.columns:
            continue
        for va, vb, (_, r) in zip(m[ca], m[cb], m.iterrows()):
            na, nb = _norm(va), _norm(vb)
            if na != nb:
                raise CompareError(
                    f"{a.label()} and {b.label()} asked {_describe_cell(r)} with different {words} "
                    f"({_short(na)} / {_short(nb)}): they are not answers to the same "
                    "question" + ("; pass --allow-prompt-change to compare two prompts" if col in dict(PROMPT)
                                  else ""))
    if allow_prompt_change:
        for col, words in PROMPT:
            ca, cb = f"{col}_a", f"{col}_b"
            if ca in m.columns:
                pairs = {(str(_norm(x)), str(_norm(y))) for x, y in zip(m[ca], m[cb]) if _norm(x) != _norm(y)}
                allowed += [f"{words}: {x} → {y}" for x, y in sorted(pairs)[:5]]
    return allowed


def _settings_differences(store: Store, a: Side, b: Side) -> list[str]:
    """Run settings that differ between the two runs (what a model-version or settings comparison is about)."""
    if a.run == b.run:
        return []
    ra, rb = store.get_run(a.run).config, store.get_run(b.run).config
    out = []
    for key in ("seed", "temperature", "answer_format", "samples", "prompt", "suites", "judge"):
        va, vb = getattr(ra, key), getattr(rb, key)
        if _norm(va) != _norm(vb):
            out.append(f"{key}: {va} → {vb}")
    ma = next((m for m in ra.model_records if m.get("name") == a.model), {})
    mb = next((m for m in rb.model_records if m.get("name") == b.model), {})
    for key in ("model", "base_url", "generation"):
        if _norm(ma.get(key)) != _norm(mb.get(key)) and (ma or mb):
            out.append(f"model {key}: {ma.get(key)} → {mb.get(key)}")
    return out


# ---- the statistics of one table of pairs ------------------------------------------------------------------------

def paired_stats(right_a: np.ndarray, right_b: np.ndarray, units: np.ndarray | None = None,
                 items: np.ndarray | None = None, unit: str = "item") -> dict[str, Any]:
    """Accuracy of A and B over paired cells, B - A with its 95 % interval, and the test of "no difference", over
    the units of evidence the cells come in (``units``: each cell's unit, ``items``: its item inside it;
    :mod:`probe_ui.metrics.units`). Where each unit holds one cell: Newcombe's paired interval and the exact
    McNemar test, unchanged. Otherwise the interval over the table divided by the difference's design effect,
    and Durkalski's McNemar test for clustered pairs (:mod:`probe_ui.stats`).

    ``fixed``: B right where A was wrong; ``broke``: A right where B is wrong."""
    ra, rb = np.asarray(right_a, dtype=bool), np.asarray(right_b, dtype=bool)
    n = int(ra.size)
    both = int((ra & rb).sum())
    fixed = int((~ra & rb).sum())
    broke = int((ra & ~rb).sum())
    neither = n - both - fixed - broke
    if units is None:
        units = np.arange(n).astype(str)
    cells = _per_unit(ra, rb, units)
    nested = _per_unit(ra, rb, items) if items is not None else None
    diff = stats.clustered_paired_difference(*cells[[3, 2, 1, 0]], nested=tuple(nested[[3, 2, 1, 0]])
                                             if nested is not None else None)  # B - A: B's right first
    p_value, test = stats.clustered_mcnemar(cells[1], cells[2], cells.sum(axis=0), nested=(
        nested[1], nested[2], nested.sum(axis=0)) if nested is not None else None) if n else (None, "")
    return {
        "n": n,
        "units": int(cells.shape[1]), "unit": unit,
        "accuracy_a": 100.0 * (both + broke) / n if n else None,
        "accuracy_b": 100.0 * (both + fixed) / n if n else None,
        "difference": diff[0] if diff else None,
        "ci": [diff[1], diff[2]] if diff else None,
        "deff": round(diff[3], 4) if diff else None,
        "both_right": both, "fixed": fixed, "broke": broke, "both_wrong": neither,
        "p_value": p_value,
        "test": test,
    }


def _per_unit(ra: np.ndarray, rb: np.ndarray, units: np.ndarray) -> np.ndarray:
    """Per unit (columns, in first-seen order), four rows: cells right under neither, under A only (broke), under
    B only (fixed), under both."""
    codes, _ = pd.factorize(pd.Series(np.asarray(units, dtype=object)), sort=False)
    k = int(codes.max()) + 1 if len(codes) else 0
    out = np.zeros((4, k))
    np.add.at(out, (ra.astype(int) + 2 * rb.astype(int), codes), 1.0)
    return out


def _grouped(pairs: pd.DataFrame, by: str) -> list[dict[str, Any]]:
    """:func:`paired_stats` per value of ``by`` ("condition", or "category": a pair counts in each of its
    categories), with Holm-adjusted p-values across the groups."""
    if by == "category":
        rows = [(c, i) for i, cats in enumerate(pairs["category"]) for c in (categories_of(cats) or ["(none)"])]
        groups: dict[str, list[int]] = {}
        for c, i in rows:
            groups.setdefault(c, []).append(i)
    else:
        groups = {str(k): list(v) for k, v in pairs.groupby(by, sort=False).indices.items()}
    ra, rb = pairs["right_a"].to_numpy(dtype=bool), pairs["right_b"].to_numpy(dtype=bool)
    units, items, kind = _pair_units(pairs)
    out = [{by: name, **paired_stats(ra[idx], rb[idx], units[idx], items[idx], kind)}
           for name, idx in ((name, np.asarray(idx)) for name, idx in groups.items())]
    for row, adj in zip(out, stats.holm([r["p_value"] for r in out])):
        row["p_holm"] = adj
    if by == "condition":
        out.sort(key=lambda r: (r["condition"] != "original", r["condition"]))
    else:
        out.sort(key=lambda r: r[by])
    return out


def _pair_units(pairs: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, str]:
    """Each shared cell's unit of evidence and its item (:mod:`probe_ui.metrics.units`, read on side A: both sides
    asked the same questions), and the unit's kind."""
    from probe_ui.metrics.units import units_of

    cols = {c: pairs[f"{c}_a"] for c in ("attributes", "item_group", "source", "variant_id") if f"{c}_a" in pairs}
    u = units_of(pd.DataFrame({"item_id": pairs["item_id"], **cols}))
    return u.keys, u.items, u.kind()


def in_words(parsed: Any, kind: Any, options: Any) -> str | None:
    """An answer as a reader says it: "B: Pleural effusion" for a letter of a multiple-choice question, the label
    itself otherwise; None when no answer could be read."""
    parsed = value_or_none(parsed)
    if parsed is None:
        return None
    opts = _norm(options) or []
    if kind == "choice" and isinstance(parsed, str) and len(parsed) == 1 and parsed in LETTERS[:len(opts)]:
        return f"{parsed}: {opts[LETTERS.index(parsed)]}"
    return str(parsed)


def _with_words(rows: list[dict[str, Any]], words: dict[str, str]) -> list[dict[str, Any]]:
    """Each perturbation row with what was done in plain words (``what``), as the other views name it."""
    return [{**r, "what": words.get(r["condition"], r["condition"])} for r in rows]


def _reply(r: dict[str, Any], s: str) -> dict[str, Any]:
    return {"response_id": int(r[f"response_id_{s}"]), "text": value_or_none(r.get(f"raw_text_{s}")),
            "parsed": value_or_none(r.get(f"parsed_{s}")),
            "answer": in_words(r.get(f"parsed_{s}"), r.get(f"kind_{s}"), r.get(f"options_{s}")),
            "state": r[f"state_{s}"]}


def _flips(pairs: pd.DataFrame, which: str, words: dict[str, str]) -> list[dict[str, Any]]:
    sel = pairs[(~pairs["right_a"] & pairs["right_b"]) if which == "fixed" else (pairs["right_a"] & ~pairs["right_b"])]
    out = []
    for r in records(sel.head(FLIP_LIMIT)):
        out.append({"item_id": r["item_id"], "condition": r["condition"],
                    "what": words.get(r["condition"], r["condition"]), "sample": int(r["sample"]),
                    "question": value_or_none(r.get("question_a")),
                    "right_answer": in_words(r.get("answer_label_a"), r.get("kind_a"), r.get("options_a")),
                    "a": _reply(r, "a"), "b": _reply(r, "b")})
    return out


# ---- paper metrics with a paired bootstrap -----------------------------------------------------------------------

def _leaf_value(v: Any) -> float | None:
    if isinstance(v, dict):
        v = v.get("value")
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _headlines(d: pd.DataFrame, fams: list[Any], which: str, ctx: Any) -> dict[str, float | None]:
    """The headline figures ("family · figure" → value) of ``fams`` over a prepared table."""
    out: dict[str, float | None] = {}
    for fam in fams:
        try:
            block = fam.definitions[fam.definition_for(which)](d, ctx)
            figs = fam.headline(block) if isinstance(block, dict) and "error" not in block else {}
        except Exception:  # a family that cannot compute on a resample gives no figure for it (NaN replicate)
            figs = {}
        out.update({f"{fam.name} · {label}": _leaf_value(v) for label, v in figs.items()})
    return out


def _units(d: pd.DataFrame) -> np.ndarray:
    """The resampling unit of each row: its unit of evidence (:mod:`probe_ui.metrics.units`: the image of a ProbMed
    question, the pair of a MediConfusion image, a preset's patient, study or group, else the item); every variant
    and sample of a unit is drawn together, so a metric over images, pairs or items sees whole units in every
    replicate."""
    from probe_ui.metrics.units import units_of

    return units_of(d.drop(columns=["run"], errors="ignore")).keys


def _resample(d: pd.DataFrame, rows: list[np.ndarray], idx: np.ndarray) -> pd.DataFrame:
    """The prepared rows of the drawn units. A unit drawn k times appears as k replicas: the copies get their own
    replica, item and unit codes (as another model's answers would), so every family counts the unit k times
    instead of merging the copies into one over-full group."""
    counts = np.zeros(len(rows), dtype=np.int64)
    take, copy = [], []
    for u in idx:
        take.append(rows[u])
        copy.append(np.full(len(rows[u]), counts[u], dtype=np.int64))
        counts[u] += 1
    at = np.concatenate(take) if take else np.zeros(0, dtype=np.int64)
    k = np.concatenate(copy) if copy else np.zeros(0, dtype=np.int64)
    out = d.iloc[at].reset_index(drop=True)
    if k.any():
        for col in ("_rep", "_item", "_unit"):
            codes = out[col].to_numpy(dtype=np.int64)
            out[col] = codes + k * (int(d[col].max()) + 1)
    return out


def paper_differences(a: pd.DataFrame, b: pd.DataFrame, *, definition: str = "clean", n_boot: int = PAPER_BOOT,
                      seed: int = 0) -> list[dict[str, Any]]:
    """Per headline figure of every metric family present in both sides' shared answers: A, B, B - A, and a
    percentile interval from a paired bootstrap over the shared units (items, or item groups): each replicate
    draws the same units for both sides."""
    from probe_ui.metrics import detect_families, get_family
    from probe_ui.metrics.frame import for_resampling
    from probe_ui.metrics.registry import MetricContext

    da, db = for_resampling(a), for_resampling(b)
    names = sorted(set(detect_families(da)) & set(detect_families(db)))
    if not names:
        return []
    fams = [get_family(n) for n in names]
    ctx = MetricContext(n_boot=0, detail=False)
    va, vb = _headlines(da, fams, definition, ctx), _headlines(db, fams, definition, ctx)
    figures = [k for k in va if k in vb and va[k] is not None and vb[k] is not None]
    if not figures:
        return []
    ua, ub = _units(da), _units(db)
    universe = sorted(set(ua) & set(ub))
    rows_a = [np.flatnonzero(ua == u) for u in universe]
    rows_b = [np.flatnonzero(ub == u) for u in universe]
    reps: dict[str, list[float]] = {k: [] for k in figures}
    rng = np.random.default_rng(seed)
    for _ in range(n_boot if universe else 0):
        idx = rng.integers(0, len(universe), size=len(universe))
        ra = _headlines(_resample(da, rows_a, idx), fams, definition, ctx)
        rb = _headlines(_resample(db, rows_b, idx), fams, definition, ctx)
        for k in figures:
            x, y = ra.get(k), rb.get(k)
            reps[k].append(y - x if x is not None and y is not None else math.nan)
    out = []
    for k in figures:
        fam, label = k.split(" · ", 1)
        fig_a, fig_b = va[k], vb[k]
        if fig_a is None or fig_b is None:  # pragma: no cover - figures holds the keys with both values
            continue
        ci = stats.percentile_interval(reps[k]) if n_boot else None
        out.append({"family": fam, "figure": label, "a": fig_a, "b": fig_b, "difference": fig_b - fig_a,
                    "ci": list(ci) if ci else None, "n_boot": n_boot})
    return out


# ---- the comparison ----------------------------------------------------------------------------------------------

def compare(store: Store, a: Side, b: Side, parser: str = "robust", *, allow_prompt_change: bool = False,
            definition: str = "auto", n_boot: int = PAPER_BOOT, seed: int = 0) -> dict[str, Any]:
    """The paired comparison of side ``b`` against side ``a`` (module docstring). Raises :class:`CompareError`
    when they cannot be compared."""
    from probe_ui.metrics.registry import resolve_definition

    if a == b:
        raise CompareError(f"both sides are {a.label()}: choose two models, or two runs")
    fa, fb = _frame(store, a, parser), _frame(store, b, parser)
    keys = _keys(fa, fb)
    ka, kb = _keyed(fa, keys), _keyed(fb, keys)
    only_a = ka[~ka["_key"].isin(kb["_key"])]
    only_b = kb[~kb["_key"].isin(ka["_key"])]
    m = ka.merge(kb, on="_key", suffixes=("_a", "_b"))
    for k in keys:
        m[k] = m[f"{k}_a"]
    if m.empty:
        raise CompareError(f"{a.label()} and {b.label()} share no question (item, perturbation and sample): "
                           "there is nothing to compare")
    allowed = _check_same(m, a, b, allow_prompt_change)
    err = (m["state_a"] == "error") | (m["state_b"] == "error")
    unknown = ~err & ((m["state_a"] == "unknown") | (m["state_b"] == "unknown"))
    pairs = m[~err & ~unknown].reset_index(drop=True)
    pairs["right_a"] = pairs["state_a"].eq("right")
    pairs["right_b"] = pairs["state_b"].eq("right")
    pairs["category"] = pairs["category_a"]
    overall = paired_stats(pairs["right_a"].to_numpy(), pairs["right_b"].to_numpy(), *_pair_units(pairs))
    which = resolve_definition(definition, parser)
    shared_a = fa[fa.index.isin(ka.index[ka["_key"].isin(pairs["_key"])])]
    shared_b = fb[fb.index.isin(kb.index[kb["_key"].isin(pairs["_key"])])]
    from probe_ui.metrics.samples import majority_vote

    paper = paper_differences(majority_vote(shared_a), majority_vote(shared_b), definition=which,
                              n_boot=n_boot, seed=seed) if len(pairs) else []

    def examples(df: pd.DataFrame) -> list[dict[str, Any]]:
        return [{"item_id": r["item_id"], "condition": r["condition"], "sample": int(r["sample"])}
                for r in df.head(EXAMPLE_LIMIT).to_dict("records")]

    from probe_ui.views.results import condition_labels

    words = condition_labels(fa)
    out = {
        "a": {"run": a.run, "model": a.model}, "b": {"run": b.run, "model": b.model},
        "parser": parser, "definition": which,
        "matching": {
            "shared": int(len(m)), "compared": int(len(pairs)),
            "only_a": int(len(only_a)), "only_b": int(len(only_b)),
            "only_a_examples": examples(only_a), "only_b_examples": examples(only_b),
            "no_reply": int(err.sum()), "no_reply_a": int((m["state_a"] == "error").sum()),
            "no_reply_b": int((m["state_b"] == "error").sum()), "no_ground_truth": int(unknown.sum()),
        },
        "differences": allowed + _settings_differences(store, a, b),
        "overall": overall,
        "by_condition": _with_words(_grouped(pairs, "condition"), words) if len(pairs) else [],
        "by_category": _grouped(pairs, "category") if len(pairs) else [],
        "fixed": _flips(pairs, "fixed", words), "broke": _flips(pairs, "broke", words),
        "paper": paper,
        "alpha": ALPHA,
    }
    out["summary"] = summary(out)
    return out


def _pp(x: float | None, signed: bool = True) -> str:
    if x is None:
        return "–"
    return f"{x:+.1f}" if signed else f"{x:.1f}"


def _p(p: float | None) -> str:
    if p is None:
        return "–"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"


def summary(c: dict[str, Any]) -> str:
    """The comparison in plain words (what the CLI prints first and the Results tab shows)."""
    o = c["overall"]
    a, b = c["a"], c["b"]
    who_a = a["model"] if a["run"] == b["run"] else f"{a['model']} (run {a['run']})"
    who_b = b["model"] if a["run"] == b["run"] else f"{b['model']} (run {b['run']})"
    if not o["n"]:
        return (f"{who_a} and {who_b} share {c['matching']['shared']} questions, but none has a reply and a known "
                "right answer on both sides: nothing to compare.")
    text = (f"On {_n(o['n'], 'shared question')}{_in_units(o)}, {who_b} fixed {o['fixed']} that {who_a} got "
            f"wrong and broke {o['broke']} that it got right: accuracy {_pp(o['accuracy_a'], False)} % → "
            f"{_pp(o['accuracy_b'], False)} % ({_pp(o['difference'])} points, 95 % CI {_pp(o['ci'][0])} to "
            f"{_pp(o['ci'][1])}). ")
    test = o.get("test") or "exact McNemar test"
    if o["fixed"] + o["broke"] == 0:
        text += "They agree on every question: no difference to test."
    elif o["p_value"] < c.get("alpha", ALPHA):
        text += (f"A difference this large arises by chance with {_p(o['p_value'])} ({test}): "
                 f"{'better' if o['difference'] > 0 else 'worse'} beyond chance.")
    else:
        text += (f"A difference this large arises by chance with {_p(o['p_value'])} ({test}): no "
                 "evidence of a real difference.")
    if o.get("units") is not None and o["units"] < stats.ROUGH_UNITS and o["units"] < o["n"]:
        text += f" With {o['units']} units of evidence, the interval and the test are rough."
    mt = c["matching"]
    left = []
    if mt["only_a"] or mt["only_b"]:
        left.append(f"{_n(mt['only_a'], 'question')} only in A and {mt['only_b']} only in B")
    if mt["no_reply"]:
        left.append(f"{_n(mt['no_reply'], 'question')} without a reply on one side")
    if mt["no_ground_truth"]:
        left.append(f"{_n(mt['no_ground_truth'], 'question')} without a known right answer")
    if left:
        text += " Not compared: " + "; ".join(left) + "."
    return text


def _in_units(o: dict[str, Any]) -> str:
    """" (16 items)" where the questions come in fewer units of evidence than questions, else ""."""
    from probe_ui.metrics.units import WORDS

    units, n = o.get("units"), o.get("n")
    if units is None or units == n:
        return ""
    one, many = WORDS.get(str(o.get("unit") or "item"), ("unit", "units"))
    return f" ({units} {one if units == 1 else many})"


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def worse_beyond(c: dict[str, Any], points: float) -> bool:
    """Whether B is significantly worse than A (the paired test over the units of evidence, p < alpha: the exact
    McNemar test where each unit holds one question, Durkalski's clustered test otherwise) by more than ``points``
    percentage points (the observed difference): what ``--fail-if-worse`` gates on."""
    o = c["overall"]
    return bool(o["n"] and o["p_value"] is not None and o["p_value"] < c.get("alpha", ALPHA)
                and o["difference"] is not None and o["difference"] < -abs(points))


def sides(store: Store, runs: Iterable[str], models: Iterable[str]) -> list[tuple[Side, Side]]:
    """The comparisons a command line asks for: ``RUN_A RUN_B --model M`` (M in both runs), ``RUN --model A --model
    B`` (two models of one run), ``RUN_A RUN_B --model MA --model MB``, or ``RUN_A RUN_B`` alone (each model the two
    runs share; or their only models)."""
    runs, models = list(runs), list(models)
    if not runs or len(runs) > 2:
        raise CompareError("name one run (with two --model) or two runs")
    if len(models) > 2:
        raise CompareError("give at most two --model: one (the same model in both runs) or two (A, then B)")
    run_a, run_b = runs[0], runs[-1]
    if len(runs) == 1:
        if len(models) != 2:
            raise CompareError(f"comparing within run '{run_a}' needs two models: --model A --model B")
        return [(Side(run_a, models[0]), Side(run_a, models[1]))]
    if len(models) == 2:
        return [(Side(run_a, models[0]), Side(run_b, models[1]))]
    if len(models) == 1:
        return [(Side(run_a, models[0]), Side(run_b, models[0]))]
    ma = run_models(store, run_a)
    mb = run_models(store, run_b)
    shared = [m for m in ma if m in mb]
    if shared:
        return [(Side(run_a, m), Side(run_b, m)) for m in shared]
    if len(ma) == 1 and len(mb) == 1:
        return [(Side(run_a, ma[0]), Side(run_b, mb[0]))]
    raise CompareError(f"runs '{printable(run_a)}' ({', '.join(map(printable, ma)) or 'no answers'}) and "
                       f"'{printable(run_b)}' ({', '.join(map(printable, mb)) or 'no answers'})"
                       " share no model: name them with --model A --model B")


def run_models(store: Store, run: str) -> list[str]:
    """The models that answered in a run, sorted."""
    r = store.get_run(run)
    df = store.answers_frame(r.id)
    return sorted(map(str, pd.unique(df["model"]))) if len(df) else []
