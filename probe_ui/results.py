"""The library behind the app's Results tab: answers of stored runs as tables, figures and a drill-down text.

Tables are pandas frames; figures are :class:`matplotlib.figure.Figure` objects built without pyplot (no global
state, so the app may build them from several threads at once). Every function accepts an empty answers frame and
returns an empty frame, or a figure that says "no answers", rather than raising.

Every table and figure reads one frame, :func:`answers` (the scored-answer table of
:func:`probe_ui.scoring.scored_answers`, filtered), so the filters above them apply to all of them and the numbers
are ``probe-ui score``'s: :func:`metric_tables` goes through :func:`probe_ui.scoring.score_frame` (and the sections
``probe-ui score`` prints, :func:`paper_sections`); the per-condition / per-category accuracies and the confusion
count what :func:`probe_ui.metrics.accuracy_by_model` counts: several samples by majority vote, error rows left
out, answers whose ground truth is unknown not scored, an invalid answer wrong.
"""

from __future__ import annotations

import html
import math
import re
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import pandas as pd

from probe_ui.reading.methods import describe
from probe_ui.scoring import RATING_CHOICES, UNRATED, categories_of, filter_answers  # noqa: F401 (re-exported)

if TYPE_CHECKING:  # pragma: no cover - hints only; importing these costs time the CLI does not want to spend
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from PIL import Image

    from probe_ui.store import Store

ORIGINAL = "original"
INVALID = "invalid"
NO_LABEL = "-"  # the expected answer of a row whose ground truth is unknown
UNCATEGORISED = "(none)"
TABLE_LIMIT = 500
#: the columns of an answers frame when no run is chosen
EMPTY_COLUMNS = ["run", "response_id", "model", "prompt", "sample", "variant_id", "parsed", "method", "invalid",
                 "refusal", "correct", "error", "latency_s", "item_id", "condition", "kind", "answer_label",
                 "category", "rating", "note", "state"]
RESPONSE_COLUMNS = ["response_id", "run", "model", "item_id", "what was done", "answer", "correct answer", "state",
                    "rating", "latency_s", "error"]


# ---- score tables shared with ``probe-ui score`` ------------------------------------------------------------------

def is_metric(d: Any) -> bool:
    """A metric leaf of a score report: a dict with a scalar ``value`` (and numerator, denominator, n, ...)."""
    return isinstance(d, dict) and "value" in d and not isinstance(d.get("value"), (dict, list))


def metric_leaves(obj: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every leaf of a nested metric dict as (dotted path, leaf); lists (raw per-item data) are left out."""
    if is_metric(obj) or isinstance(obj, (int, float, str, bool)) or obj is None:
        return [(prefix or "value", obj)]
    out: list[tuple[str, Any]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += metric_leaves(v, f"{prefix}.{k}" if prefix else str(k))
    return out  # lists (e.g. raw per-item data) are left to --json


def paper_sections(report: dict[str, Any]) -> list[tuple[str, list[tuple[str, dict[str, Any]]], list[str]]]:
    """The per-paper metrics of every model as sections of (metric path, {model: leaf}) rows; a leaf is a number
    or a metric dict (value, numerator, denominator, n, ...)."""
    sections: dict[str, dict[str, dict[str, Any]]] = {}
    models: dict[str, list[str]] = {}
    for model, r in report["models"].items():
        paper = r.get("paper") or {}
        if not isinstance(paper, dict) or not paper:
            continue
        tops = paper.items() if all(isinstance(v, dict) for v in paper.values()) else [("paper", paper)]
        for section, body in tops:
            if section == "detected":  # which families were found, and why: in --json
                continue
            rows = sections.setdefault(str(section), {})
            models.setdefault(str(section), []).append(model)
            for path, leaf in metric_leaves(body, ""):
                rows.setdefault(path, {})[model] = leaf
    return [(s, list(rows.items()), models[s]) for s, rows in sections.items()]


def metric_tables(df: pd.DataFrame, parser: str = "robust", definition: str = "auto", digits: int | None = 2
                  ) -> dict[str, pd.DataFrame]:
    """``overview`` (one row per run x model) and one long table per metric family, from a scored-answer table
    (:func:`probe_ui.scoring.scored_answers`, filtered or not): each run's rows go through
    :func:`probe_ui.scoring.score_frame`, the numbers ``probe-ui score --parser PARSER`` prints for the same
    rows, only rounded to ``digits`` (None: unrounded). Percent columns: accuracy, ci_low, ci_high, random,
    invalid, refusal (overview) and value, ci_low, ci_high, random (families, where the leaf is a metric)."""
    from probe_ui.scoring import score_frame

    overview: list[dict[str, Any]] = []
    families: dict[str, list[dict[str, Any]]] = {}
    for name, g in (df.groupby("run", sort=False) if len(df) else []):
        report = dict(score_frame(g, parser, definition), run=str(name))
        overview += _overview_rows(report, digits)
        for section, rows in _family_rows(report, digits).items():
            families.setdefault(section, []).extend(rows)
    out = {"overview": pd.DataFrame(overview, columns=_OVERVIEW_COLUMNS)}
    for section, rows in families.items():
        out[section] = pd.DataFrame(rows, columns=_FAMILY_COLUMNS)
    return out


_OVERVIEW_COLUMNS = ["run", "model", "n", "accuracy", "ci_low", "ci_high", "random", "invalid", "refusal", "answered",
                     "errors"]
_FAMILY_COLUMNS = ["run", "model", "metric", "value", "numerator", "denominator", "n", "ci_low", "ci_high", "random"]


def _round(v: Any, digits: int | None) -> Any:
    if digits is None or isinstance(v, bool) or not isinstance(v, float):
        return v
    return round(v, digits)


def _ci(m: dict[str, Any]) -> tuple[Any, Any]:
    ci = m.get("ci")
    return (ci[0], ci[1]) if isinstance(ci, (list, tuple)) and len(ci) == 2 else (None, None)


def _overview_rows(report: dict[str, Any], digits: int | None) -> list[dict[str, Any]]:
    rows = []
    for model, r in report["models"].items():
        acc = r["accuracy"]
        lo, hi = _ci(acc)
        rows.append({"run": report["run"], "model": model, "n": r["n"], "accuracy": _round(acc["value"], digits),
                     "ci_low": _round(lo, digits), "ci_high": _round(hi, digits),
                     "random": _round(acc.get("random"), digits),
                     "invalid": _round(r["invalid_rate"]["value"], digits),
                     "refusal": _round(r["refusal_rate"]["value"], digits),
                     "answered": r["answered"], "errors": r["errors"]})
    return rows


def _family_rows(report: dict[str, Any], digits: int | None) -> dict[str, list[dict[str, Any]]]:
    """Each section of :func:`paper_sections` as rows, model by model, metrics in the report's order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for section, rows, models in paper_sections(report):
        table = out.setdefault(section, [])
        for model in models:
            for metric, cells in rows:
                if model in cells:
                    table.append(_leaf_row(report["run"], model, metric, cells[model], digits))
    return out


def _leaf_row(run: str, model: str, metric: str, leaf: Any, digits: int | None) -> dict[str, Any]:
    row: dict[str, Any] = {"run": run, "model": model, "metric": metric}
    if is_metric(leaf):
        lo, hi = _ci(leaf)
        row.update(value=_round(leaf.get("value"), digits), numerator=leaf.get("numerator"),
                   denominator=leaf.get("denominator"), n=leaf.get("n"), ci_low=_round(lo, digits),
                   ci_high=_round(hi, digits), random=_round(leaf.get("random"), digits))
    else:
        row["value"] = _round(leaf, digits)
    return row


# ---- tables for people ---------------------------------------------------------------------------------------------

def figure_text(leaf: Any, digits: int = 1) -> str:
    """A metric leaf as a person reads it: "72.5 % [61.2–81.4] n=40" (CI and n where the leaf has them)."""
    if is_metric(leaf):
        v = leaf.get("value")
        if v is None:
            return "–"
        text = f"{v:.{digits}f} %"
        ci = leaf.get("ci")
        if isinstance(ci, (list, tuple)) and len(ci) == 2 and None not in ci:
            text += f" [{ci[0]:.{digits}f}–{ci[1]:.{digits}f}]"
        if leaf.get("n") is not None:
            text += f" n={int(leaf['n'])}"
        return text
    if isinstance(leaf, bool) or leaf is None:
        return "–" if leaf is None else str(leaf)
    if isinstance(leaf, (int, float)):
        return f"{leaf:.{digits}f}" if isinstance(leaf, float) else str(leaf)
    return str(leaf)


def overview_for_people(df: pd.DataFrame, parser: str = "robust", definition: str = "auto") -> pd.DataFrame:
    """One row per run and model: accuracy with its 95 % CI and n, the random-guess reference, invalid and
    refusal rates and failed calls, in words and rounded (the numbers of :func:`metric_tables`)."""
    from probe_ui.metrics import figures as F
    from probe_ui.scoring import score_frame

    rows = []
    for run, g in (df.groupby("run", sort=False) if len(df) else []):
        for model, r in score_frame(g, parser, definition)["models"].items():
            acc = r["accuracy"]
            rows.append({"run": run, "model": model, F.ACCURACY: figure_text(acc),
                         F.RANDOM: f"{acc['random']:.1f} %" if acc.get("random") is not None else "–",
                         F.UNREADABLE: figure_text(r["invalid_rate"]["value"]) + " %"
                         if r["invalid_rate"]["value"] is not None else "–",
                         F.REFUSED: figure_text(r["refusal_rate"]["value"]) + " %"
                         if r["refusal_rate"]["value"] is not None else "–",
                         F.FAILED: r["errors"]})
    return pd.DataFrame(rows, columns=OVERVIEW_PEOPLE_COLUMNS)


#: the Results overview's columns: run, model, then registered figures (probe_ui.metrics.figures)
OVERVIEW_PEOPLE_COLUMNS = ["run", "model", "accuracy", "random guess", "unreadable", "refused", "failed calls"]


def families_html(df: pd.DataFrame, parser: str = "robust", definition: str = "auto") -> str:
    """Every metric family with data, compact like the report's: a table of model rows and the family's headline
    figures (value, 95 % CI, n), its full metric list folded underneath. Text is escaped."""
    from probe_ui.metrics import FAMILIES, headlines
    from probe_ui.metrics.registry import glossary_html
    from probe_ui.scoring import score_frame

    blocks: dict[str, list[tuple[str, str, dict[str, Any], dict[str, Any]]]] = {}
    for run, g in (df.groupby("run", sort=False) if len(df) else []):
        for model, r in score_frame(g, parser, definition)["models"].items():
            paper = r.get("paper") or {}
            for fam, heads in headlines(paper).items():
                blocks.setdefault(fam, []).append((str(run), model, heads, paper[fam]))
    if not blocks:
        return "<p><i>No paper metric applies to these answers.</i></p>"
    several_runs = df["run"].nunique() > 1
    parts = []
    for fam, rows in blocks.items():
        cols = list(dict.fromkeys(k for _, _, heads, _ in rows for k in heads))
        definition_used = rows[0][3].get("definition", "")
        head = ("<tr>" + ("<th>run</th>" if several_runs else "") + "<th>model</th>"
                + "".join(f"<th>{html.escape(c)}</th>" for c in cols) + "</tr>")
        body = "".join("<tr>" + (f"<td>{html.escape(run)}</td>" if several_runs else "")
                       + f"<th scope='row'>{html.escape(model)}</th>"
                       + "".join(f"<td class='num'>{html.escape(figure_text(heads.get(c)))}</td>" for c in cols)
                       + "</tr>" for run, model, heads, _ in rows)
        details = "".join(
            f"<h5>{html.escape(model)}</h5><table class='pu-fam-detail'>"
            + "".join(f"<tr><td>{html.escape(path)}</td><td class='num'>{html.escape(figure_text(leaf))}</td></tr>"
                      for path, leaf in metric_leaves({k: v for k, v in block.items() if k != "definition"}))
            + "</table>" for _, model, _, block in rows)
        desc = FAMILIES[fam].description if fam in FAMILIES else ""
        parts.append(f"<div class='pu-family' data-family='{html.escape(fam, quote=True)}'>"
                     f"<h4>{html.escape(family_title(fam))} <small>({html.escape(definition_used)} definition)"
                     "</small></h4>"
                     f"<p class='pu-meta'>{html.escape(desc)}</p><table class='pu-fam'>{head}{body}</table>"
                     f"{glossary_html(cols, fam)}"
                     f"<details><summary>every figure of {html.escape(family_title(fam))}</summary>{details}"
                     "</details></div>")
    return "".join(parts)


def family_title(fam: str) -> str:
    """A metric family as a heading reads (its description up to the colon: "MediConfusion", "Illusion of
    Readiness T1-T5", "consistency over the variants of one item"), not its registry key."""
    from probe_ui.metrics import FAMILIES

    desc = FAMILIES[fam].description if fam in FAMILIES else ""
    title = desc.split(":")[0].strip()
    return title[:1].upper() + title[1:] if title else fam.replace("_", " ")


RUN_KINDS = {"live": "live probe", "batch": "batch", "import": "imported", "stress": "stress test"}


def run_choices(store: Store) -> list[tuple[str, str]]:
    """(label, run name) of every run, newest first, labelled for people: what it asked (a live probe's question,
    a stress test's item or preset and suite, a batch's presets), when and by whom, instead of a hash."""
    import sqlalchemy as sa

    from probe_ui.store import run_variants, variants

    first_q = (sa.select(run_variants.c.run_id, sa.func.min(variants.c.question).label("q"))
               .join(variants, variants.c.id == run_variants.c.variant_id).group_by(run_variants.c.run_id))
    with store.engine.connect() as c:
        questions = {int(r[0]): str(r[1] or "") for r in c.execute(first_q)}
    out = []
    for r in sorted(store.list_runs(), key=lambda r: (r.updated_at, r.id), reverse=True):
        kind = "stress" if r.name.startswith("stress-") else r.config.source
        when = _when(r.updated_at)
        if kind == "live":
            q = questions.get(r.id, "")
            what = (q[:60] + "…") if len(q) > 60 else q or r.name
        elif kind == "stress":
            what = r.name.removeprefix("stress-")
        else:
            what = r.name
        by = f" · by {r.created_by}" if r.created_by else ""  # who made it (runs before issue 23: unknown)
        out.append((f"{RUN_KINDS.get(kind, kind)}: {what} · {when}{by}", r.name))
    return out


def _when(ts: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(ts).astimezone().strftime("%d %b %H:%M")
    except (TypeError, ValueError):
        return str(ts)


# ---- the answers of runs ------------------------------------------------------------------------------------------

def answers(store: Store, runs: Sequence[str], parser: str = "robust", *, models: Iterable[str] | None = None,
            conditions: Iterable[str] | None = None, categories: Iterable[str] | None = None,
            ratings: Iterable[str] | None = None, judge: str | None = None) -> pd.DataFrame:
    """The scored answers of every named run (:func:`probe_ui.scoring.scored_answers`), filtered: every table and
    plot of the tab reads this one frame. ``judge``: a fallback judge's model name, whose stored answers replace
    "invalid" where the rules read nothing. An empty list of runs is an error that says so."""
    from probe_ui.scoring import scored_answers
    from probe_ui.store import StoreError

    names = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs or [])))
    if not names:
        return pd.DataFrame(columns=EMPTY_COLUMNS)
    if any(not str(n).strip() for n in names):
        raise StoreError("an empty run name was given: choose a run")
    return scored_answers(store, names, parser, models=models, conditions=conditions, categories=categories,
                          ratings=ratings, judge=judge)


def selection_words(runs: Sequence[str], parser: str = "robust", *, models: Iterable[str] | None = None,
                    conditions: Iterable[str] | None = None, categories: Iterable[str] | None = None,
                    ratings: Iterable[str] | None = None, labels: dict[str, str] | None = None) -> str:
    """What a view of :func:`answers` shows, in words: the runs, the answer parser and every filter ("all" where
    a filter is empty), so that tables never stand without the selection they belong to. ``labels`` names
    conditions in words (:func:`condition_labels`)."""
    def listed(values: Iterable[str] | None, words: dict[str, str] | None = None) -> str:
        vals = [str(v) for v in values or []]
        return ", ".join((words or {}).get(v, v) for v in vals) if vals else "all"

    names = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs or [])))
    head = f"run{'s' if len(names) != 1 else ''} {', '.join(names)}" if names else "no run"
    return (f"Showing {head} · answer parser: {parser} · models: {listed(models)} · perturbations: "
            f"{listed(conditions, labels)} · categories: {listed(categories)} · ratings: {listed(ratings)}")


def filter_choices(df: pd.DataFrame) -> dict[str, list[str]]:
    """The values each filter dropdown can offer: the distinct models, conditions, categories and ratings present
    (sorted; ratings in the order correct, incorrect, unsure, unrated). Keys are :func:`answers`' keywords."""
    if df.empty:
        return {"models": [], "conditions": [], "categories": [], "ratings": []}
    present = set(df["rating"].dropna().astype(str)) if "rating" in df.columns else set()
    return {
        "models": sorted(set(df["model"].dropna().astype(str))),
        "conditions": sorted(set(df["condition"].dropna().astype(str))),
        "categories": sorted({c for v in df["category"] for c in categories_of(v)}),
        "ratings": [r for r in RATING_CHOICES if r in present] + sorted(present - set(RATING_CHOICES)),
    }


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
    """Per model and condition: the condition in words, n scored answers, correct, accuracy and its 95 % Wilson CI
    (percent)."""
    from probe_ui.metrics.base import wilson_ci

    cols = ["model", "condition", "what was done", "n", "correct", "accuracy", "ci_low", "ci_high"]
    s = graded_rows(df)
    if s.empty:
        return pd.DataFrame(columns=cols)
    g = s.groupby(["model", "condition"], sort=False)["_hit"].agg(n="size", correct="sum").reset_index()
    g["n"], g["correct"] = g["n"].astype(int), g["correct"].astype(int)
    g["accuracy"] = 100.0 * g["correct"] / g["n"]
    ci = [wilson_ci(c, n) for c, n in zip(g["correct"], g["n"])]
    g["ci_low"], g["ci_high"] = [lo for lo, _ in ci], [hi for _, hi in ci]
    order = {c: i for i, c in enumerate(condition_order(g["condition"]))}
    g = g.assign(_o=g["condition"].map(order)).sort_values(["model", "_o"]).drop(columns="_o")
    labels = condition_labels(s)
    g["what was done"] = g["condition"].map(lambda c: labels.get(str(c), str(c)))
    return g[cols].reset_index(drop=True)


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def empty_figure(message: str = "no answers") -> Figure:
    """A small figure that says why there is nothing to plot."""
    fig = _figure(6, 2.5)
    ax = fig.add_subplot()
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=13, color="0.4", transform=ax.transAxes)
    ax.set_axis_off()
    return fig


def _label_ticks(ax: Axes, axis: str, labels: list[str]) -> None:
    """Tick labels that stay readable: long or many labels are rotated (x) and shortened past 40 characters."""
    short = [lb if len(lb) <= 40 else lb[:39] + "…" for lb in labels]
    if axis == "x":
        ax.set_xticks(range(len(labels)))
        rotate = len(labels) > 4 or max((len(lb) for lb in short), default=0) > 10
        ax.set_xticklabels(short, rotation=35 if rotate else 0, ha="right" if rotate else "center",
                           rotation_mode="anchor")
    else:
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(short)


def plot_accuracy_by_condition(df: pd.DataFrame) -> Figure:
    """Grouped bars: accuracy (%) per condition, one colour per model, 95 % Wilson CI as error bars."""
    table = accuracy_by_condition(df)
    if table.empty:
        return empty_figure()
    conds = condition_order(table["condition"])
    models = sorted(table["model"].unique())
    width = 0.8 / len(models)
    fig = _figure(min(22.0, max(6.0, 0.35 * len(conds) * len(models) + 2.5)), 4.8)
    ax = fig.add_subplot()
    pos = {c: i for i, c in enumerate(conds)}
    for k, model in enumerate(models):
        t = table[table["model"] == model]
        x = [pos[c] - 0.4 + width * (k + 0.5) for c in t["condition"]]
        err = [(t["accuracy"] - t["ci_low"]).clip(lower=0).to_list(),
               (t["ci_high"] - t["accuracy"]).clip(lower=0).to_list()]
        ax.bar(x, t["accuracy"], width=width * 0.95, yerr=err, capsize=3, label=model, color=f"C{k % 10}",
               error_kw={"elinewidth": 1, "ecolor": "0.25"})
    words = dict(zip(table["condition"], table["what was done"]))
    _label_ticks(ax, "x", [words.get(c, c) for c in conds])
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    ax.set_xlabel("condition")
    ax.set_title("Accuracy by condition (95 % CI)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


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


def plot_confusion(df: pd.DataFrame) -> Figure:
    """One heatmap per model (expected answer x parsed answer), each cell annotated with its count."""
    models = sorted(df.loc[df["error"].isna(), "model"].unique()) if not df.empty else []
    if not models:
        return empty_figure()
    tables = [confusion(df, m) for m in models]
    ncols = min(3, len(models))
    nrows = math.ceil(len(models) / ncols)
    side = max(max(t.shape) for t in tables)
    cell = min(3.8, max(2.6, 0.45 * side + 1.4))
    fig = _figure(cell * ncols + 0.5, cell * nrows + 0.3)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, model, t in zip(axes, models, tables):
        _heatmap(ax, t.to_numpy(dtype=float), cmap="Blues", vmin=0, vmax=max(1.0, float(t.to_numpy().max())),
                 fmt="{:.0f}")
        _label_ticks(ax, "x", [str(c) for c in t.columns])
        _label_ticks(ax, "y", [str(i) for i in t.index])
        ax.set_xlabel("parsed answer")
        ax.set_ylabel("expected answer")
        ax.set_title(_short(model, 45), fontsize="medium")
    for ax in axes[len(models):]:
        fig.delaxes(ax)
    return fig


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _heatmap(ax: Axes, values: Any, *, cmap: str, vmin: float, vmax: float, fmt: str,
             labels: list[list[str]] | None = None) -> Any:
    """imshow with every finite cell written on it (``labels`` when given, else ``fmt``), in a colour that stays
    readable on the cell."""
    import numpy as np

    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    cmap_obj = image.get_cmap()
    for (i, j), v in np.ndenumerate(values):
        if not np.isfinite(v):
            ax.text(j, i, "–", ha="center", va="center", color="0.5", fontsize="small")
            continue
        r, g, b, _ = cmap_obj(image.norm(v))
        dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
        ax.text(j, i, labels[i][j] if labels else fmt.format(v), ha="center", va="center",
                color="white" if dark else "black", fontsize="small")
    return image


# ---- accuracy by category -----------------------------------------------------------------------------------------

def _by_category(df: pd.DataFrame, agg: str) -> pd.DataFrame:
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


def plot_category_heatmap(df: pd.DataFrame) -> Figure:
    """Category x model accuracy heatmap, each cell labelled with its accuracy and n, colour scale 0-100 % from
    red to green."""
    table = category_accuracy(df)
    if table.empty:
        return empty_figure()
    counts = category_counts(df).reindex(index=table.index, columns=table.columns)
    rows, cols = table.shape
    fig = _figure(min(20.0, max(5.0, 1.5 * cols + 3.5)), min(24.0, max(3.0, 0.5 * rows + 1.8)))
    ax = fig.add_subplot()
    labels = [[f"{v:.0f}\nn={int(n)}" if pd.notna(v) else "–" for v, n in zip(vr, nr)]
              for vr, nr in zip(table.to_numpy(dtype=float), counts.fillna(0).to_numpy())]
    image = _heatmap(ax, table.to_numpy(dtype=float), cmap="RdYlGn", vmin=0, vmax=100, fmt="{:.0f}", labels=labels)
    _label_ticks(ax, "x", [str(c) for c in table.columns])
    _label_ticks(ax, "y", [str(i) for i in table.index])
    ax.set_xlabel("model")
    ax.set_ylabel("category")
    ax.set_title("Accuracy by category (%)")
    fig.colorbar(image, ax=ax, label="accuracy (%)")
    return fig


# ---- drill-down ---------------------------------------------------------------------------------------------------

def response_table(df: pd.DataFrame, limit: int = TABLE_LIMIT) -> pd.DataFrame:
    """The columns a person scans to pick a response to open, at most ``limit`` rows (in the frame's order): what
    was done to the item in words, the answer and the correct answer as letter and option text, its state
    (right, wrong, invalid, error, unknown), the rating, the latency and any error."""
    from probe_ui.comparison import answer_text
    from probe_ui.conditions import describe

    d = df.head(limit)
    if d.empty:
        return pd.DataFrame(columns=RESPONSE_COLUMNS)
    words = []
    for r in d.to_dict("records"):
        kind, opts = str(r.get("kind")), r.get("options") if isinstance(r.get("options"), (list, tuple)) else ()
        words.append({"what was done": describe(r.get("provenance") if isinstance(r.get("provenance"), list)
                                                else None, r.get("condition")),
                      "answer": answer_text(kind, opts, r.get("parsed")),
                      "correct answer": answer_text(kind, opts, r.get("answer_label"))})
    out = d.assign(**{k: [w[k] for w in words] for k in ("what was done", "answer", "correct answer")})
    out = out.assign(latency_s=pd.to_numeric(out["latency_s"], errors="coerce").round(2))
    return out.reindex(columns=RESPONSE_COLUMNS).reset_index(drop=True)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$:])")


def md_text(value: Any) -> str:
    """A value shown literally inside Markdown prose: HTML and Markdown punctuation escaped, one line."""
    s = html.escape("" if value is None else str(value), quote=False)
    return _MD_SPECIAL.sub(r"\\\1", s).replace("\r", " ").replace("\n", " ")


def md_code(text: Any, lang: str = "text") -> str:
    """A fenced code block that shows ``text`` literally, whatever it contains (the fence is longer than any run
    of backticks in it, so the text cannot close it early)."""
    body = "" if text is None else str(text)
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{body}\n{fence}"


def _block(title: str, text: Any) -> list[str]:
    if text is None or str(text) == "":
        return [f"**{title}**: *(empty)*", ""]
    return [f"**{title}**", "", md_code(text), ""]


def sent_image_ids(store: Store, response_id: int) -> list[str]:
    """The ids of the images one answer was sent, in the order sent (the detail view shows them whole)."""
    r = store.get_response(int(response_id))
    return _message_image_ids(r.get("messages")) or [str(i) for i in r.get("image_ids") or []]


def _message_image_ids(messages: Any) -> list[str]:
    return [p["image_id"] for m in messages or [] for p in m.get("content") or []
            if p.get("type") == "image" and p.get("image_id")]


def _load_images(store: Store, ids: list[str]) -> tuple[list[Image.Image], list[str]]:
    """The stored pixels of each id (a copy each), and a line for every image that could not be read."""
    from probe_ui.store import StoreError

    images, missing = [], []
    for i in ids:
        try:
            images.append(store.get_image(i).pil())
        except (StoreError, OSError) as exc:
            missing.append(f"{i}: {exc}")
    return images, missing


def _options_text(kind: str, options: Any) -> str:
    from probe_ui.items import labels_for

    opts = tuple(str(o) for o in options or ())
    if kind == "choice":
        return "\n".join(f"{lb}: {o}" for lb, o in zip(labels_for(kind, opts), opts))
    return "\n".join(opts or labels_for(kind, opts))  # label words, or yes / no


def _fmt(v: Any, spec: str = "", none: str = "-") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return none
    return format(v, spec)


def _rating(store: Store, run_id: int, response_id: int) -> tuple[str, str]:
    r = store.ratings_frame(run_id)
    r = r[r["response_id"] == response_id]
    return (str(r["rating"].iloc[-1]), str(r["note"].iloc[-1] or "")) if len(r) else (UNRATED, "")


def _current_reading(r: dict[str, Any]) -> dict[str, Any]:
    """The reply's reading by the robust reader as it is now (the stored parse is a cache of an older reader when
    its version differs): parsed, method, invalid, refusal, correct."""
    from probe_ui import answers
    from probe_ui.scoring import read_reply

    if r.get("error") is not None or r.get("parse_version") == answers.parser_version():
        return {}
    got = read_reply(r, "robust")
    if got is None:
        return {}
    ans = got[0]
    gt = None if r.get("prompt") == "free" or r.get("kind") == "free" else r.get("answer_label")
    return {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
            "correct": answers.is_correct(ans, gt)}


def _judge_lines(store: Store, response_id: int) -> list[str]:
    """What judge models said about this answer (the batch's judge, or the fallback judge of ``--judge``)."""
    out: list[str] = []
    for j in store.judge_calls(response_id):
        fallback = str(j.get("prompt") or "").startswith("judge-fallback:")
        if j.get("error"):
            said = f"could not be asked: {j['error']}"
        elif j.get("parsed") is not None:
            said = f"read it as {j['parsed']}"
        else:
            said = f"found no answer either ({describe(j.get('method'))})"
        when = " · counts where this judge is chosen (Results tab, or --judge)" if fallback else ""
        out += [f"**Judge** {md_text(j['model'])} {md_text(said)}{md_text(when)}", "",
                *_block("Judge's reply", j.get("raw_text"))]
    return out


def response_detail(store: Store, response_id: int) -> tuple[list[Image.Image], str]:
    """What one model was sent and what it said: the images (as stored, in the order sent) and a Markdown text
    with question, options, expected answer, the exact prompt, raw and parsed answer, cost, settings, provenance
    and rating. Text from users and models is escaped or fenced, so it is shown literally, never rendered."""
    from probe_ui import labels
    from probe_ui.answer_record import technical_record
    from probe_ui.conditions import describe as describe_variant
    from probe_ui.prompts import messages_text

    r = store.get_response(int(response_id))
    ids = _message_image_ids(r.get("messages")) or [str(i) for i in r.get("image_ids") or []]
    images, missing = _load_images(store, ids)
    run = next((x.name for x in store.list_runs() if x.id == r["run_id"]), str(r["run_id"]))
    rating, note = _rating(store, r["run_id"], int(r["id"]))
    r.update(_current_reading(r))
    chain = r.get("provenance") or []
    correct = {True: "yes", False: "no"}.get(r.get("correct"), "not scored")
    expected = md_text(r.get("answer_label") or "-") + (f" ({md_text(r['answer'])})" if r.get("answer") else "")
    lines = [
        f"### Response #{int(r['id'])}",
        "",
        f"**Run** {md_text(run)} · **model** {md_text(r['model'])} · **item** {md_text(r['item_id'])} · "
        f"**what was done** {md_text(describe_variant(chain, r['condition']))} · **prompt** "
        f"{md_text(labels.template(str(r['prompt'])))} · **sample** {int(r['sample'])}",
        "",
        *_block("Question", r.get("question")),
        *_block("Options", _options_text(str(r.get("kind")), r.get("options"))),
        f"**Expected answer**: {expected}",
        "",
        *_block("Prompt sent (exact text; images shown beside)", messages_text(r.get("messages"))),
        *_block("Raw answer", r.get("raw_text")),
        f"**Answer read**: {md_text(r.get('parsed') if r.get('parsed') is not None else INVALID)} · **correct**: "
        f"{correct}" + (" · **the reply declines to answer** (refusal)" if r.get("refusal") else ""),
        "",
        f"**How it was read**: {md_text(describe(r.get('method')) or '-')}",
        "",
        *_judge_lines(store, int(r["id"])),
        f"**Latency** {_fmt(r.get('latency_s'), '.2f')} s · **tokens** in {_fmt(r.get('input_tokens'))}, "
        f"out {_fmt(r.get('output_tokens'))} · **cost** {_fmt(r.get('cost'), '.4f')} · "
        f"**finish** {md_text(r.get('finish_reason') or '-')}",
        "",
    ]
    if r.get("error"):
        lines += _block("Error", r["error"])
    if missing:
        lines += _block("Images that could not be loaded", "\n".join(missing))
    lines += ["**Settings**", "", *(f"- {md_text(x)}" for x in labels.settings_words(r.get("settings"))), ""]
    lines += [f"**Rating**: {md_text(rating)}", ""]
    if note:
        lines += _block("Note", note)
    lines += technical_record(r, chain)  # the code names, for an audit: one click away
    return images, "\n".join(lines).rstrip() + "\n"


# ---- robustness curves (the severity suite) -----------------------------------------------------------------------

def robustness_curves(df: pd.DataFrame) -> pd.DataFrame:
    """Tidy curve data of a scored-answer table (:func:`probe_ui.metrics.robustness.curve_frame`): one row per run,
    model, perturbation and level (0 = the original) with accuracy, ci_low, ci_high (percent), n, correct and
    answer_flip_rate; empty when the answers hold no sweep."""
    from probe_ui.metrics.robustness import curve_frame

    return curve_frame(df)


def level_label(perturbation: str, level: int) -> str:
    """A sweep level as a tick reads: "original", a severity ("3") or an angle ("45°")."""
    if int(level) == 0:
        return "original"
    return f"{int(level)}°" if perturbation == "rotate" else str(int(level))


def plot_robustness_curve(curves: pd.DataFrame, perturbation: str) -> Figure:
    """One perturbation's curves (``curves`` from :func:`robustness_curves`): accuracy (%) per level, one line per
    model (per run and model when several runs are shown) with its 95 % Wilson band, levels at equal steps from the
    original (the spacing the AUC uses). Levels without answers yet are left out, so a sweep can be drawn while it
    fills."""
    import numpy as np

    t = curves[curves["perturbation"] == perturbation] if len(curves) else curves
    t = t[t["accuracy"].notna()] if len(t) else t
    if t.empty:
        return empty_figure(f"no answers for {perturbation} yet")
    levels = sorted({int(x) for x in t["level"]})
    pos = {lv: i for i, lv in enumerate(levels)}
    fig = _figure(max(6.0, 0.9 * len(levels) + 3.5), 4.2)
    ax = fig.add_subplot()
    several_runs = t["run"].nunique() > 1
    for k, ((run, model), g) in enumerate(t.groupby(["run", "model"], sort=True)):
        g = g.sort_values("level")
        x = np.array([pos[int(v)] for v in g["level"]], dtype=float)
        label = f"{model} · {run}" if several_runs else str(model)
        colour = f"C{k % 10}"
        ax.plot(x, g["accuracy"].to_numpy(dtype=float), marker="o", color=colour, label=label)
        ax.fill_between(x, g["ci_low"].to_numpy(dtype=float), g["ci_high"].to_numpy(dtype=float), color=colour,
                        alpha=0.15, linewidth=0)
    ax.set_xticks(range(len(levels)))
    ax.set_xticklabels([level_label(perturbation, lv) for lv in levels])
    ax.set_xlim(-0.2, len(levels) - 0.8)
    ax.set_ylim(0, 105)
    ax.set_xlabel("rotation (degrees)" if perturbation == "rotate" else "severity")
    ax.set_ylabel("accuracy (%)")
    ax.set_title(f"{perturbation}: accuracy by level (95 % CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def robustness_figures(df: pd.DataFrame) -> dict[str, Figure]:
    """One figure per swept perturbation (:func:`plot_robustness_curve`), in the suite's order; {} without a
    sweep."""
    curves = robustness_curves(df)
    return {p: plot_robustness_curve(curves, p) for p in dict.fromkeys(curves["perturbation"])}


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
