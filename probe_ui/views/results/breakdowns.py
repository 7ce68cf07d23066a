"""Tables that break a scored-answer frame down: accuracy by condition and by category, the confusion counts,
robustness curves and breaking points, and the clinicians' agreement. Each counts what
:func:`probe_ui.metrics.accuracy_by_model` counts (majority vote of samples, errors and unknown ground truth left out,
an invalid answer wrong)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Literal

import numpy as np
import pandas as pd

from probe_ui.scoring import categories_of

if TYPE_CHECKING:  # pragma: no cover - hints only; importing these costs time the CLI does not want to spend

    pass


ORIGINAL = "original"
INVALID = "invalid"
NO_LABEL = "-"  # the expected answer of a row whose ground truth is unknown
UNCATEGORISED = "(none)"


# ---- accuracy by condition ----------------------------------------------------------------------------------------

def graded_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows the scorers grade, as they grade them: several samples reduced to their majority vote, then the
    cells with an answer (no error) whose ground truth is known. ``_hit`` is whether it was right; an invalid
    answer is read with ``correct`` False, so it counts as wrong."""
    from probe_ui.metrics.samples import majority_vote

    if df.empty:
        return df.assign(_hit=pd.Series(dtype=bool))
    df = majority_vote(df)
    ok = df[df["error"].isna() & df["correct"].notna()]
    return ok.assign(_hit=ok["correct"].eq(True))


def condition_order(conditions: Iterable[Any]) -> list[str]:
    """"original" first, then the perturbed conditions alphabetically."""
    found = {str(c) for c in conditions}
    return ([ORIGINAL] if ORIGINAL in found else []) + sorted(found - {ORIGINAL})


def condition_labels(df: pd.DataFrame) -> dict[str, str]:
    """Each condition of an answers frame in plain words (from the provenance of its first variant)."""
    from probe_ui.conditions import describe

    if df.empty or "condition" not in df.columns:
        return {}
    first = df.drop_duplicates("condition")
    prov = first["provenance"] if "provenance" in first.columns else pd.Series([None] * len(first))
    return {str(c): describe(p if isinstance(p, list) else None, str(c))
            for c, p in zip(first["condition"], prov)}


def accuracy_by_condition(df: pd.DataFrame) -> pd.DataFrame:
    """Per model and condition: the condition in words, n scored answers, correct, accuracy and its 95 % interval
    (percent) over the units of evidence (``units``: how many; Wilson's where each holds one answer,
    :func:`probe_ui.stats.clustered_wilson`)."""
    from probe_ui.metrics.units import codes_of
    from probe_ui.stats import clustered_wilson_groups

    cols = ["model", "condition", "what was done", "n", "correct", "accuracy", "ci_low", "ci_high", "units"]
    s = graded_rows(df)
    if s.empty:
        return pd.DataFrame(columns=cols)
    codes, keys = pd.factorize(pd.MultiIndex.from_arrays([s["model"].astype(str), s["condition"].astype(str)]))
    u = codes_of(s)
    intervals = clustered_wilson_groups(codes, s["_hit"].to_numpy(dtype=float), u.keys, u.items)
    hits = np.bincount(codes, weights=s["_hit"].to_numpy(dtype=float), minlength=len(keys))
    sizes = np.bincount(codes, minlength=len(keys))
    g = pd.DataFrame({"model": [k[0] for k in keys], "condition": [k[1] for k in keys],
                      "n": sizes.astype(int), "correct": hits.astype(int)})
    g["accuracy"] = 100.0 * g["correct"] / g["n"]
    g["ci_low"] = [round(100 * iv.low, 4) for iv in intervals]
    g["ci_high"] = [round(100 * iv.high, 4) for iv in intervals]
    g["units"] = [iv.units for iv in intervals]
    order = {c: i for i, c in enumerate(condition_order(g["condition"]))}
    g = g.assign(_o=g["condition"].map(order)).sort_values(["model", "_o"]).drop(columns="_o")
    labels = condition_labels(s)
    g["what was done"] = g["condition"].map(lambda c: labels.get(str(c), str(c)))
    return g[cols].reset_index(drop=True)


# ---- confusion ----------------------------------------------------------------------------------------------------

def confusion(df: pd.DataFrame, model: str) -> pd.DataFrame:
    """Counts of one model's answers: rows the expected answer label ("-" when unknown), columns the parsed answer,
    "invalid" last for answers that could not be read. Error rows (no answer) are left out."""
    from probe_ui.metrics.samples import majority_vote

    rows = majority_vote(df[df["model"] == model]) if not df.empty else df
    rows = rows[rows["error"].isna()] if not rows.empty else rows
    if rows.empty:
        return pd.DataFrame(dtype=int)
    expected = rows["answer_label"].astype(object).where(rows["answer_label"].notna(), NO_LABEL).astype(str)
    bad = rows["parsed"].isna() | rows["invalid"].eq(True)
    parsed = rows["parsed"].astype(object).where(~bad, INVALID).astype(str)
    table = pd.crosstab(expected.rename("expected"), parsed.rename("parsed"))
    labels = sorted((set(table.index) - {NO_LABEL}) | (set(table.columns) - {INVALID}))
    columns = labels + ([INVALID] if INVALID in table.columns else [])
    return table.reindex(index=sorted(table.index), columns=columns, fill_value=0).astype(int)


# ---- accuracy by category -----------------------------------------------------------------------------------------

def _by_category(df: pd.DataFrame, agg: Literal["mean", "size"]) -> pd.DataFrame:
    """Scored answers per category (rows) and model (columns), aggregated by ``agg`` ("mean" of right, or
    "size"); a row with several categories counts for each, one without any under "(none)"."""
    s = graded_rows(df)
    if s.empty:
        return pd.DataFrame()
    cats = s["category"].map(lambda c: categories_of(c) or [UNCATEGORISED])
    long = s.assign(category=cats).explode("category")
    table = long.pivot_table(index="category", columns="model", values="_hit", aggfunc=agg, sort=True)
    table.columns.name = "model"
    return table


def category_accuracy(df: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) per category (rows) and model (columns); a row with several categories counts for each, one
    without any under "(none)". NaN where a model has no scored answer in a category."""
    table = _by_category(df, "mean")
    return 100.0 * table.astype(float) if not table.empty else table


def category_counts(df: pd.DataFrame) -> pd.DataFrame:
    """The n behind :func:`category_accuracy`: scored answers per category (rows) and model (columns)."""
    return _by_category(df, "size")


# ---- robustness curves (the severity suite) -----------------------------------------------------------------------

def robustness_curves(df: pd.DataFrame) -> pd.DataFrame:
    """Tidy curve data of a scored-answer table (:func:`probe_ui.metrics.robustness.curve_frame`): one row per run,
    model, perturbation and level (0 = the original) with accuracy, ci_low, ci_high (percent), n, correct and
    answer_flip_rate; empty when the answers hold no sweep."""
    from probe_ui.metrics.robustness import curve_frame

    return curve_frame(df)


def level_label(perturbation: str, level: int) -> str:
    """A sweep level as a tick reads: "original", a severity ("3") or an angle ("45°"), as its perturbation's sweep
    says."""
    from probe_ui.perturb import sweep_axis

    if int(level) == 0:
        return "original"
    return sweep_axis(perturbation).tick(level)


BREAKING_PEOPLE_COLUMNS = {"model": "model", "perturbation": "perturbation", "auc": "AUC %",
                           "auc_relative": "AUC / original %", "items": "items", "broken": "broken",
                           "never_broken": "never broken %", "median_breaking_point": "median breaking level"}


def breaking_points_table(df: pd.DataFrame, digits: int = 1) -> pd.DataFrame:
    """Per model and perturbation, as a page shows it: AUC, AUC relative to the original's accuracy, items, how
    many broke, the share never broken and the median breaking level (over the items that broke); a run column
    when several runs are shown."""
    from probe_ui.metrics.robustness import breaking_summary

    t = breaking_summary(df)
    if t.empty:
        return pd.DataFrame(columns=list(BREAKING_PEOPLE_COLUMNS.values()))
    cols = (["run"] if t["run"].nunique() > 1 else []) + list(BREAKING_PEOPLE_COLUMNS)
    out = t[cols].rename(columns=BREAKING_PEOPLE_COLUMNS)
    for c in ("AUC %", "AUC / original %", "never broken %", "median breaking level"):
        out[c] = pd.to_numeric(out[c], errors="coerce").round(digits)
    return out.reset_index(drop=True)


# ---- clinician agreement -------------------------------------------------------------------------------------------

KAPPA_COLUMNS = ["scope", "method", "raters", "kappa", "ci_low", "ci_high", "n"]
VERSUS_COLUMNS = ["scope", "agreement %", "ci_low", "ci_high", "n", "overruled"]
OVERRULED_COLUMNS = ["response_id", "model", "item_id", "condition", "reply", "parsed", "parser", "majority",
                     "ratings"]


def agreement_tables(df: pd.DataFrame, n_boot: int = 2000, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The clinicians' agreement over a scored-answer table (:func:`probe_ui.metrics.agreement.rater_agreement`,
    the ``rater_agreement`` block of ``score --json``) as three tables: ``kappa`` (overall, per model, per pair of
    raters: method, raters, kappa with its bootstrap 95 % CI, n answers), ``vs_parser`` (the raters' majority
    against the parser, overall and per model: agreement % with its Wilson CI, n, overruled) and ``overruled``
    (the answers where the majority contradicts the parser). Empty tables when nobody rated."""
    from probe_ui.metrics.agreement import rater_agreement

    block = rater_agreement(df, n_boot=n_boot, seed=seed)
    kappa, versus, over = [], [], []
    if block is not None:
        def k_row(scope: str, b: dict[str, Any]) -> dict[str, Any]:
            ci = b.get("ci") or [None, None]
            return {"scope": scope, "method": b["method"], "raters": ", ".join(b.get("raters") or []),
                    "kappa": b["kappa"], "ci_low": ci[0], "ci_high": ci[1], "n": b["n"]}

        if block["overall"]:
            kappa.append(k_row("all models", block["overall"]))
        kappa += [k_row(f"model {m}", b) for m, b in block["models"].items()]
        kappa += [k_row("pair " + " & ".join(b["raters"]), b) for b in block["pairs"]]
        vp = block["vs_parser"]

        def v_row(scope: str, leaf: dict[str, Any], overruled: int | None) -> dict[str, Any]:
            ci = leaf.get("ci") or [None, None]
            return {"scope": scope, "agreement %": leaf["value"], "ci_low": ci[0], "ci_high": ci[1],
                    "n": leaf["denominator"], "overruled": overruled}

        versus.append(v_row("all models", vp["agreement"], vp["overruled"]))
        for m, leaf in vp["models"].items():
            versus.append(v_row(f"model {m}", leaf, sum(1 for o in block["overruled"] if o["model"] == m)))
        over = [{"response_id": o["response_id"], "model": o["model"], "item_id": o["item_id"],
                 "condition": o["condition"], "reply": o["raw_text"], "parsed": o["parsed"], "parser": o["parser"],
                 "majority": o["majority"], "ratings": ", ".join(f"{k}: {v}" for k, v in o["votes"].items())}
                for o in block["overruled"]]
    return {"kappa": pd.DataFrame(kappa, columns=KAPPA_COLUMNS),
            "vs_parser": pd.DataFrame(versus, columns=VERSUS_COLUMNS),
            "overruled": pd.DataFrame(over, columns=OVERRULED_COLUMNS)}
