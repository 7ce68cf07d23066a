"""The library behind the app's Stress tab: what a stress run's answers show (a suite applied to items, answered by
several models). Making such a run is :mod:`probe_ui.stress`.

Everything reads the answer table of one run (:meth:`Store.answers_frame` with ``full=True``):

- :func:`matrix` / :func:`matrix_values`: variants × models. Rows are ``(item_id, condition)``, items in the order
  they first appear, each item's ``original`` first and then its perturbed variants in the order their conditions
  first appear in the run; columns are the models. A cell reads ``"✓ X"`` (right), ``"✗ X"`` (wrong), ``"? X"``
  (answered, ground truth unknown), ``"invalid"`` (no answer could be read from the reply), ``"error"`` (the
  provider failed) or ``""`` (not asked, e.g. a cancelled batch); X is the parsed answer. The values are 1.0 right,
  0.0 wrong (an invalid answer is wrong, as in every metric), NaN for errors, unknown ground truth and cells not
  asked.
- :func:`broken`: the cells that are wrong where the same model got the item's original right.
- :func:`summary`: one row per model (see its docstring for every column).
- :func:`matrix_html`: the matrix as a coloured HTML table with a legend; every user- or model-supplied string is
  escaped.

Several samples per cell are reduced to their majority vote first (:func:`probe_ui.metrics.samples.
majority_vote`), as scoring does. When the same variant was answered by one model under several prompt templates
(a run repeated with another ``--prompt``), that model gets one column per template, ``"model · template"``
(other models keep one column). When
two presets of one run share an item id, items are shown as ``"<preset file stem>:<item id>"``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import ORIGINAL, correct_values
from probe_ui.metrics.samples import majority_vote
from probe_ui.presets.suites import get_suite
from probe_ui.scoring import model_columns

if TYPE_CHECKING:
    from probe_ui.store import Store

__all__ = ["BROKE_TITLE", "broken", "matrix", "matrix_html", "matrix_values", "summary"]

#: the title attribute of a cell that a perturbation broke
BROKE_TITLE = "broke: was right on the original"
#: bootstrap resamples for the suite metrics that report CIs (the summary shows point estimates only)
N_BOOT = 200

_ITEM, _COND, _COL = "_st_item", "_st_cond", "_st_col"
_TEXT, _VALUE, _STATE, _TIP = "_st_text", "_st_value", "_st_state", "_st_tip"
_INDEX_NAMES = ["item_id", "condition"]

# state → (background, text colour, legend wording)
_STYLES: dict[str, tuple[str, str, str]] = {
    "ok": ("#c8e6c9", "#1b5e20", "right"),
    "wrong": ("#ffcdd2", "#b71c1c", "wrong (was wrong on the original too, or no original)"),
    "broke": ("#d32f2f", "#ffffff", "broke: wrong, but right on the item's original"),
    "invalid": ("#e0e0e0", "#424242", "invalid: no answer could be read"),
    "error": ("#bdbdbd", "#212121", "error: the provider failed"),
    "unknown": ("#f5f5f5", "#424242", "answered, ground truth unknown"),
    "missing": ("#ffffff", "#9e9e9e", "not asked"),
}


# ---- the long table: one row per (item, condition, model column) -------------------------------------------------
@dataclass
class _Grid:
    cells: pd.DataFrame  # the long table, sorted (items, then original first, then conditions)
    index: pd.MultiIndex  # (item_id, condition) rows, in display order
    columns: list[str]  # model columns, in order of first appearance

    def wide(self, col: str, fill: Any) -> pd.DataFrame:
        if not len(self.cells):
            return pd.DataFrame(index=self.index, columns=pd.Index(self.columns, name="model"), dtype=object)
        w = self.cells.set_index([_ITEM, _COND, _COL])[col].unstack(_COL)
        w.index.names = _INDEX_NAMES
        w = w.reindex(index=self.index, columns=self.columns)
        w.columns.name = "model"
        return w.where(w.notna(), fill) if fill is not None else w


def _empty_index() -> pd.MultiIndex:
    return pd.MultiIndex.from_arrays([[], []], names=_INDEX_NAMES)


def _text(x: Any) -> str:
    return "" if x is None or (isinstance(x, float) and np.isnan(x)) else str(x)


def _cells(df: pd.DataFrame) -> pd.DataFrame:
    """The answered cells with display keys, text, value and state (not yet sorted)."""
    d = majority_vote(df) if len(df) and "sample" in df.columns else df
    d = d.reset_index(drop=True)
    col = model_columns(d)
    item = d["item_id"].astype(str)
    cond = d["condition"].where(d["condition"].notna(), ORIGINAL).astype(str)
    keys = pd.DataFrame({"c": col, "i": item, "k": cond, "v": d["variant_id"]})
    if "source" in d.columns and (keys.groupby(["c", "i", "k"])["v"].nunique() > 1).any():
        item = d["source"].map(lambda s: PurePath(str(s)).stem if s else "") + ":" + item
    value = correct_values(d).copy()
    error = d["error"].notna().to_numpy() if "error" in d.columns else np.zeros(len(d), dtype=bool)
    value[error] = np.nan
    invalid = d["invalid"].map({True: True}).fillna(False).to_numpy(dtype=bool) \
        if "invalid" in d.columns else np.zeros(len(d), dtype=bool)
    parsed = [_text(p) for p in d["parsed"]] if "parsed" in d.columns else [""] * len(d)
    state = np.where(error, "error", np.where(invalid, "invalid", np.where(
        value == 1, "ok", np.where(value == 0, "wrong", "unknown")))).astype(object)
    text = np.array([{"ok": f"✓ {p}", "wrong": f"✗ {p}", "unknown": f"? {p}"}.get(s, s)
                     for s, p in zip(state, parsed)], dtype=object)
    raw = d["raw_text"] if "raw_text" in d.columns else pd.Series([None] * len(d))
    err = d["error"] if "error" in d.columns else pd.Series([None] * len(d))
    tip = [_text(e)[:300] if s == "error" else (f"unreadable reply: {_text(r)[:300]}" if s == "invalid" else "")
           for s, e, r in zip(state, err, raw)]
    columns: dict[str, Any] = {_ITEM: item.to_numpy(dtype=object), _COND: cond.to_numpy(dtype=object),
                               _COL: col.to_numpy(dtype=object), _TEXT: text, _VALUE: value, _STATE: state,
                               _TIP: tip}
    out = d.assign(**columns)
    return out.drop_duplicates([_ITEM, _COND, _COL], keep="first")


def _grid(df: pd.DataFrame) -> _Grid:
    if df is None or not len(df):
        return _Grid(pd.DataFrame(columns=[_ITEM, _COND, _COL, _TEXT, _VALUE, _STATE, _TIP]), _empty_index(), [])
    c = _cells(df)
    item_rank = pd.factorize(c[_ITEM])[0]
    conds = [ORIGINAL] + [x for x in pd.unique(c[_COND]) if x != ORIGINAL]
    cond_rank = c[_COND].map({x: i for i, x in enumerate(conds)}).to_numpy()
    order = np.lexsort((cond_rank, item_rank))
    c = c.iloc[order].reset_index(drop=True)
    rows = c[[_ITEM, _COND]].drop_duplicates()
    index = pd.MultiIndex.from_arrays([rows[_ITEM].to_list(), rows[_COND].to_list()], names=_INDEX_NAMES)
    columns = [str(x) for x in pd.unique(_cells_order(c))]
    return _Grid(c, index, columns)


def _cells_order(c: pd.DataFrame) -> pd.Series:
    """Model columns in the order they first appear in the answer table (response order)."""
    if "response_id" in c.columns:
        return c.sort_values("response_id", kind="stable")[_COL]
    return c[_COL]


# ---- public API --------------------------------------------------------------------------------------------------
def matrix(df: pd.DataFrame) -> pd.DataFrame:
    """Variants × models: index ``(item_id, condition)``, one column per model, cells ``"✓ X"``, ``"✗ X"``,
    ``"? X"``, ``"invalid"``, ``"error"`` or ``""`` (module doc)."""
    return _grid(df).wide(_TEXT, "")


def matrix_values(df: pd.DataFrame) -> pd.DataFrame:
    """The matrix as numbers, same shape as :func:`matrix`: 1.0 right, 0.0 wrong (invalid included), NaN for an
    error, an unknown ground truth or a cell not asked."""
    return _grid(df).wide(_VALUE, None).astype(float)


def _broken(values: pd.DataFrame) -> pd.DataFrame:
    if not len(values):
        return values.astype(bool)
    cond = values.index.get_level_values("condition")
    items = values.index.get_level_values("item_id")
    orig = values[cond == ORIGINAL].droplevel("condition")
    base = orig.reindex(items)
    base.index = values.index
    perturbed = np.asarray(cond != ORIGINAL)[:, None]
    return pd.DataFrame((values.to_numpy() == 0) & (base.to_numpy() == 1) & perturbed, index=values.index,
                        columns=values.columns)


def broken(df: pd.DataFrame) -> pd.DataFrame:
    """True on the perturbed cells that are wrong (invalid included) where the same model got the same item's
    original right; same shape as :func:`matrix`."""
    return _broken(matrix_values(df))


def _pct(num: float, den: float) -> float:
    return 100.0 * num / den if den else np.nan


def leaf_value(metric: Any) -> float:
    """The number of a metric leaf (a MetricValue dict's value, or a plain number); NaN when missing."""
    if isinstance(metric, dict):
        metric = metric.get("value")
    return np.nan if metric is None or isinstance(metric, (str, bool)) else float(metric)


BASE_COLUMNS = ["model", "answered", "errors", "accuracy_original", "accuracy_perturbed", "correctness_flip_rate",
                "pairs_compared", "right_wrong_changes", "broke", "fixed"]


def family_columns(g: pd.DataFrame, families: tuple[str, ...] | None, definition: str = "clean"
                   ) -> dict[str, float]:
    """The headline figures (:mod:`probe_ui.metrics.registry`) of every family with data in one model column's
    rows, as ``"<family>: <figure>"`` columns; ``families`` first (a suite's), then any other detected."""
    from probe_ui.metrics import headlines, paper_metrics

    blocks = paper_metrics(g, definition=definition, n_boot=N_BOOT)
    heads = headlines(blocks)
    order = [f for f in (families or ()) if f in heads] + [f for f in heads if f not in (families or ())]
    return {f"{fam}: {label}": leaf_value(leaf) for fam in order for label, leaf in heads[fam].items()}


def summary(df: pd.DataFrame, suite: str | None = None, definition: str = "clean") -> pd.DataFrame:
    """One row per model (column of :func:`matrix`); percentages in 0-100, NaN where nothing could be scored.

    - ``answered``, ``errors``: cells with a reply / with a provider error;
    - ``accuracy_original``: right / scored cells of condition ``original`` (invalid counts as wrong; errors and
      unknown ground truth left out); ``accuracy_perturbed``: the same over every other condition;
    - ``correctness_flip_rate`` (the figure "correctness flip rate", :mod:`probe_ui.metrics.figures`): share of
      (perturbed variant, its item's original) pairs, both scored, whose CORRECTNESS differs (right → wrong or
      wrong → right; an invalid answer is wrong; a pair with an error or an unknown ground truth on either side is
      left out). ``pairs_compared`` counts the pairs, ``right_wrong_changes`` the changes, ``broke`` the right →
      wrong ones (the cells :func:`matrix_html` marks) and ``fixed`` the wrong → right ones. It is not the groups
      family's answer flip rate ("groups: answer flip rate", which compares the chosen answer's text and leaves
      out conditions that move the ground truth): this counts every condition, since correctness stays comparable
      when the right answer moves.

    Then the headline figures of every registered metric family with data in the model's rows (:func:`
    family_columns`: ``"groups: group consistency"``, ``"illusion: robustness"``, ...), the suite's own families
    (``SUITES[suite].metrics``) first, each under ``definition``. An unknown suite raises
    :class:`probe_ui.presets.suites.SuiteError`.
    """
    families = get_suite(suite).metrics if suite else ()
    grid = _grid(df)
    if not grid.columns:
        return pd.DataFrame(columns=BASE_COLUMNS)
    c = grid.cells
    is_orig = (c[_COND] == ORIGINAL).to_numpy()
    values = grid.wide(_VALUE, None).astype(float)
    cond = values.index.get_level_values("condition")
    orig = values[cond == ORIGINAL].droplevel("condition")
    base = orig.reindex(values.index.get_level_values("item_id"))
    perturbed = np.asarray(cond != ORIGINAL)
    rows = []
    for j, col in enumerate(grid.columns):
        sel = (c[_COL] == col).to_numpy()
        g = c[sel]
        v = g[_VALUE].to_numpy(dtype=float)
        o, p = v[is_orig[sel]], v[~is_orig[sel]]
        var, ref = values.iloc[:, j].to_numpy()[perturbed], base.iloc[:, j].to_numpy()[perturbed]
        paired = ~np.isnan(var) & ~np.isnan(ref)
        row: dict[str, Any] = {
            "model": col,
            "answered": int((g[_STATE] != "error").sum()),
            "errors": int((g[_STATE] == "error").sum()),
            "accuracy_original": _pct(np.nansum(o), int((~np.isnan(o)).sum())),
            "accuracy_perturbed": _pct(np.nansum(p), int((~np.isnan(p)).sum())),
            "correctness_flip_rate": _pct(int((var[paired] != ref[paired]).sum()), int(paired.sum())),
            "pairs_compared": int(paired.sum()),
            "right_wrong_changes": int((var[paired] != ref[paired]).sum()),
            "broke": int(((var == 0) & (ref == 1)).sum()),
            "fixed": int(((var == 1) & (ref == 0)).sum()),
        }
        row.update(family_columns(g, families, definition))
        rows.append(row)
    out = pd.DataFrame(rows)
    return out[BASE_COLUMNS + [k for k in out.columns if k not in BASE_COLUMNS]]


def _people_columns() -> dict[str, str]:
    """Each summary column's label: the registered figure's name (:mod:`probe_ui.metrics.figures`), "%" for a
    percentage."""
    from probe_ui.metrics import figures as F

    def pct(name: str) -> str:
        return f"{name} %"

    return {"model": "model", "answered": F.ANSWERED, "errors": F.FAILED,
            "accuracy_original": pct(F.RIGHT_ORIGINALS), "accuracy_perturbed": pct(F.RIGHT_VARIANTS),
            "correctness_flip_rate": pct(F.CORRECTNESS_FLIP), "pairs_compared": F.PAIRS,
            "right_wrong_changes": F.FLIPS, "broke": F.BROKE, "fixed": F.FIXED}


#: the summary's columns as a page shows them: each a registered figure's name
PEOPLE_COLUMNS = _people_columns()


def summary_for_people(summ: pd.DataFrame, digits: int = 1) -> pd.DataFrame:
    """:func:`summary` as a page shows it: columns in words, figures rounded (a family's columns keep their
    "family: figure" names)."""
    out = summ.rename(columns=PEOPLE_COLUMNS)
    num = out.select_dtypes("number").columns
    out[num] = out[num].round(digits)
    return out


# ---- HTML --------------------------------------------------------------------------------------------------------
def _esc(x: Any) -> str:
    return html.escape(_text(x), quote=True)


def _style(state: str) -> str:
    bg, fg, _ = _STYLES[state]
    bold = "font-weight:bold;" if state == "broke" else ""
    return f"background:{bg};color:{fg};{bold}padding:2px 6px;border:1px solid #fff;white-space:nowrap"


def legend_html() -> str:
    """The colour legend shown above the matrix."""
    parts = []
    for state in ("ok", "wrong", "broke", "invalid", "error", "missing"):
        label = _STYLES[state][2]
        parts.append(f'<span class="stress-{state}" style="{_style(state)};margin-right:6px;'
                     f'border:1px solid #ccc">{_esc(label)}</span>')
    return '<div class="stress-legend" style="margin:4px 0 8px 0;font-size:0.9em">' + "".join(parts) + "</div>"


def matrix_html(df: pd.DataFrame) -> str:
    """:func:`matrix` as an HTML table with a legend: green right, red wrong, strong red (bold, with the title
    ``"broke: was right on the original"``) a cell wrong where the same model got the item's original right, grey
    invalid / error (the title holds the reply or the error), white not asked. Cells carry ``data-item``,
    ``data-condition`` and ``data-model`` attributes and a ``stress-<state>`` class. Every string is escaped."""
    grid = _grid(df)
    if not grid.columns:
        return legend_html() + '<p class="stress-empty">No answers yet.</p>'
    text = grid.wide(_TEXT, "")
    state = grid.wide(_STATE, "missing")
    tips = grid.wide(_TIP, "")
    broke = _broken(grid.wide(_VALUE, None).astype(float))
    head = "".join(f'<th style="padding:2px 6px;text-align:left">{_esc(m)}</th>' for m in grid.columns)
    out = [legend_html(),
           '<table class="stress-matrix" style="border-collapse:collapse;font-size:0.9em">',
           f'<thead><tr><th style="padding:2px 6px;text-align:left">item</th>'
           f'<th style="padding:2px 6px;text-align:left">condition</th>{head}</tr></thead><tbody>']
    items = grid.index.get_level_values("item_id")
    spans = pd.Series(items).value_counts(sort=False).to_dict()
    last = None
    for r, (item, cond) in enumerate(grid.index):
        cells = []
        if item != last:
            cells.append(f'<th rowspan="{spans[item]}" style="padding:2px 6px;text-align:left;vertical-align:top;'
                         f'border-top:2px solid #999">{_esc(item)}</th>')
        top = "border-top:2px solid #999;" if item != last else ""
        last = item
        cells.append(f'<td style="{top}padding:2px 6px;color:#555">{_esc(cond)}</td>')
        for j, model in enumerate(grid.columns):
            s = "broke" if broke.iat[r, j] else str(state.iat[r, j])
            title = BROKE_TITLE if s == "broke" else str(tips.iat[r, j])
            cls = f"stress-cell stress-{s}" + (" stress-invalid" if s == "broke" and state.iat[r, j] == "invalid"
                                               else "")
            attrs = (f'class="{cls}" data-item="{_esc(item)}" data-condition="{_esc(cond)}" '
                     f'data-model="{_esc(model)}" style="{top}{_style(s)}"')
            if title:
                attrs += f' title="{_esc(title)}"'
            cells.append(f"<td {attrs}>{_esc(text.iat[r, j])}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


# ---- the Stress tab's view of one run ------------------------------------------------------------------------------
@dataclass(frozen=True)
class StressView:
    """What the Stress tab shows for one run: the comparison table (HTML), the per-model summary in words and,
    for a severity sweep, the robustness curve of its perturbation (None otherwise)."""

    table_html: str
    summary: pd.DataFrame
    curve: Any | None


def stress_view(store: Store, run: str, *, suite: str | None = None, sweep: str | None = None,
                thumbs: Any = None, empty: str = "No answers yet.") -> StressView:
    """The Stress tab's view of ``run`` (a library call, so that every figure and table the tab draws is tested
    without the UI): ``suite`` names the suite whose metrics the summary adds; ``sweep`` the perturbation of a
    severity sweep, whose curve is drawn; ``thumbs(image_id)`` gives a row's picture."""
    from probe_ui.scoring import scored_answers
    from probe_ui.views import comparison
    from probe_ui.views.plots import robustness_curve
    from probe_ui.views.results import robustness_curves

    df = scored_answers(store, run)
    table = comparison.render(comparison.comparison_of(store, run), thumbs, empty=empty)
    curve = robustness_curve(robustness_curves(df), sweep) if sweep else None
    return StressView(table, summary_for_people(summary(df, None if sweep else suite)), curve)
