"""What the report compares, as tables: each perturbed condition against the original (stress deltas), a run
against a baseline run, robustness curves against a baseline's, and the variants every model got wrong.

Pure functions of scored-answer tables (:func:`probe_ui.scoring.scored_answers`), so the report, the app and the
tests compute the same differences. A difference of accuracies comes with Newcombe's interval
(:func:`probe_ui.stats.newcombe_interval`, independent samples; see :data:`probe_ui.views.report.common.CI_METHOD`).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from probe_ui.metrics.frame import value_or_none
from probe_ui.scoring import model_columns, states
from probe_ui.stats import newcombe_interval
from probe_ui.views.results import condition_order, graded_rows

ORIGINAL = "original"
WORST_LIMIT = 12


def answer_counts(df: pd.DataFrame) -> dict[tuple[str, str], tuple[int, int]]:
    """(model, condition) → (correct, n scored); condition ``"*"`` sums every condition."""
    s = graded_rows(df)
    out: dict[tuple[str, str], tuple[int, int]] = {}
    if s.empty:
        return out
    for (model, cond), g in s.groupby(["model", "condition"], sort=False)["_hit"]:
        out[(str(model), str(cond))] = (int(g.sum()), int(g.size))
    for model, g in s.groupby("model", sort=False)["_hit"]:
        out[(str(model), "*")] = (int(g.sum()), int(g.size))
    return out


_DELTA_COLUMNS = ["model", "condition", "correct", "n", "accuracy", "correct_ref", "n_ref", "accuracy_ref", "delta",
                  "ci_low", "ci_high"]


def _delta_row(model: str, cond: str, a: tuple[int, int], b: tuple[int, int]) -> dict[str, Any]:
    diff = newcombe_interval(a[0], a[1], b[0], b[1])
    d, lo, hi = diff if diff else (math.nan, math.nan, math.nan)
    return {"model": model, "condition": cond, "correct": a[0], "n": a[1],
            "accuracy": 100.0 * a[0] / a[1] if a[1] else math.nan, "correct_ref": b[0], "n_ref": b[1],
            "accuracy_ref": 100.0 * b[0] / b[1] if b[1] else math.nan, "delta": d, "ci_low": lo, "ci_high": hi}


def _item_keys(s: pd.DataFrame) -> pd.Series:
    """An item's identity across its variants: preset (source) and item id (two presets may share an id)."""
    src = s["source"].astype(str) if "source" in s.columns else pd.Series("", index=s.index)
    return src + "\x00" + s["item_id"].astype(str)


def stress_deltas(df: pd.DataFrame) -> pd.DataFrame:
    """Per model and perturbed condition: accuracy on that condition minus accuracy on the originals OF THE SAME
    ITEMS (the items the condition was applied to and whose original the model answered), in percentage points,
    with the 95 % CI of Newcombe's hybrid score method. ``df`` is a (majority-voted) answers frame; columns model,
    condition, correct, n, accuracy, correct_ref, n_ref, accuracy_ref (those originals), delta, ci_low, ci_high.
    A condition whose items have no scored original for the model is left out."""
    s = graded_rows(df)
    if s.empty:
        return pd.DataFrame(columns=_DELTA_COLUMNS)
    s = s.assign(_item=_item_keys(s), model=s["model"].astype(str), condition=s["condition"].astype(str))
    orig = s[s["condition"] == ORIGINAL]
    rows = []
    conds = [c for c in condition_order(s["condition"]) if c != ORIGINAL]
    for model in sorted(set(s["model"])):
        mo = orig[orig["model"] == model]
        for cond in conds:
            g = s[(s["model"] == model) & (s["condition"] == cond)]
            ref = mo[mo["_item"].isin(set(g["_item"]))]
            if g.empty or ref.empty:
                continue
            rows.append(_delta_row(model, cond, (int(g["_hit"].sum()), len(g)), (int(ref["_hit"].sum()), len(ref))))
    return pd.DataFrame(rows, columns=_DELTA_COLUMNS)


def baseline_deltas(df: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """Per model answered in both runs: accuracy(run) - accuracy(baseline) over every condition (``condition``
    ``"*"``) and per condition present in both, in percentage points with Newcombe's 95 % CI; same columns as
    :func:`stress_deltas` (``*_ref`` is the baseline)."""
    a, b = answer_counts(df), answer_counts(base)
    models = sorted(m for m in {m for m, _ in a} if (m, "*") in b)
    conds = ["*"] + condition_order({c for _, c in a if c != "*"} & {c for _, c in b if c != "*"})
    rows = [_delta_row(m, c, a[(m, c)], b[(m, c)]) for m in models for c in conds if (m, c) in a and (m, c) in b]
    return pd.DataFrame(rows, columns=_DELTA_COLUMNS)


def robustness_baseline_deltas(curves: pd.DataFrame, base: pd.DataFrame) -> pd.DataFrame:
    """Per model, perturbation and level present in both sweeps (``curves`` and ``base`` from
    :func:`probe_ui.views.results.robustness_curves` of the run and of the baseline run): accuracy(run) -
    accuracy(baseline) in percentage points with Newcombe's 95 % CI; the columns of :func:`stress_deltas`, with
    ``condition`` reading "<perturbation> <level>" ("blur 3", "rotate 45°", "blur original") and ``perturbation``
    and ``level`` beside it."""
    from probe_ui.views.results import level_label

    cols = _DELTA_COLUMNS + ["perturbation", "level"]
    if curves.empty or base.empty:
        return pd.DataFrame(columns=cols)
    b = {(r["model"], r["perturbation"], int(r["level"])): r for r in base.to_dict("records")}
    rows = []
    for r in curves.sort_values(["run", "model"], kind="stable").to_dict("records"):  # the suite's order within
        ref = b.get((r["model"], r["perturbation"], int(r["level"])))
        if ref is None or not r["n"] or not ref["n"]:
            continue
        label = f"{r['perturbation']} {level_label(r['perturbation'], int(r['level']))}"
        rows.append({**_delta_row(str(r["model"]), label, (int(r["correct"]), int(r["n"])),
                                  (int(ref["correct"]), int(ref["n"]))),
                     "perturbation": r["perturbation"], "level": int(r["level"])})
    return pd.DataFrame(rows, columns=cols)


def worst_cases(df: pd.DataFrame, limit: int = WORST_LIMIT) -> list[dict[str, Any]]:
    """The variants most models failed, at most ``limit``: those every scored model failed first, then by the
    number of models that failed, then in answer order. ``df`` is a majority-voted answers frame. Each case:
    variant_id, item_id, condition, kind, question, options, answer, answer_label, failed, scored, response_id (one
    of its responses, for the images) and ``answers``: [{model, parsed, state (right / wrong / invalid / error /
    unknown), raw}] for every model that was asked."""
    if df.empty:
        return []
    d = df.assign(_col=model_columns(df).to_numpy(), state=states(df).to_numpy())
    s = graded_rows(d)
    if s.empty:
        return []
    g = s.groupby("variant_id", sort=False)["_hit"].agg(scored="size", right="sum")
    g["failed"] = g["scored"] - g["right"]
    g = g[g["failed"] > 0]
    first = {v: i for i, v in enumerate(pd.unique(d["variant_id"]))}
    g = g.assign(_all=(g["failed"] == g["scored"]).astype(int), _pos=[first[v] for v in g.index])
    g = g.sort_values(["_all", "failed", "scored", "_pos"], ascending=[False, False, False, True]).head(limit)
    cases = []
    for vid, stats in g.iterrows():
        rows = d[d["variant_id"] == vid]
        r0 = rows.iloc[0]
        answers = []
        for r in sorted(rows.to_dict("records"), key=lambda r: str(r["_col"])):
            err = value_or_none(r.get("error"))
            answers.append({"model": r["_col"], "parsed": value_or_none(r.get("parsed")), "state": r["state"],
                            "raw": value_or_none(r.get("raw_text")) if err is None else err})
        cases.append({
            "variant_id": str(vid), "item_id": r0["item_id"], "condition": r0["condition"], "kind": r0["kind"],
            "question": value_or_none(r0.get("question")), "options": list(value_or_none(r0.get("options")) or []),
            "answer": value_or_none(r0.get("answer")), "answer_label": value_or_none(r0.get("answer_label")),
            "failed": int(stats["failed"]), "scored": int(stats["scored"]),
            "response_id": int(r0["response_id"]) if "response_id" in rows.columns else None, "answers": answers,
        })
    return cases
