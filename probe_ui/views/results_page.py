"""Everything the app's Results tab shows for one selection, built in one call (the tab only places it on the page).

:func:`results_view` reads the scored-answer table once (through a :class:`probe_ui.views.results_cache.ScoredCache`
when given: a large run is scored once per store state, not per click), applies the filters, and builds the
tables (:mod:`probe_ui.views.results`) and the interactive figures (:mod:`probe_ui.views.plots`). With a cache the
whole view of a selection is kept too, so a person coming back to the same selection gets it at once; any new answer,
judge call or rating in those runs makes it afresh (:func:`probe_ui.views.results_cache.store_stamp`).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import pandas as pd

if TYPE_CHECKING:  # pragma: no cover - hints only
    from probe_ui.store import Store
    from probe_ui.views.results_cache import ScoredCache


@dataclass(frozen=True)
class ResultsView:
    """One selection's tables (pandas), HTML blocks and Plotly figures, as the Results tab shows them."""

    overview: pd.DataFrame
    families: str
    extra: str
    plot_acc: Any
    plot_cat: Any
    plot_conf: Any
    plot_curves: Any | None  # None: the answers hold no severity sweep
    by_condition: pd.DataFrame  # unrounded: the figures' numbers (the page rounds what it shows)
    responses: pd.DataFrame
    failed: pd.DataFrame
    shown: str  # the runs and filters, in words
    n_answers: int
    plot_reliability: Any | None = None  # None: no answer carries a confidence (issue 44)


#: the answers table's columns as the page heads them (code-like names in words; the rest are words already)
ANSWER_HEADERS = {"response_id": "answer #", "item_id": "item", "latency_s": "seconds"}
#: the per-perturbation numbers as the page heads them (the condition id is left out: "what was done" says it)
CONDITION_HEADERS = {"model": "model", "what was done": "what was done", "n": "n", "units": "units of evidence",
                     "correct": "correct", "accuracy": "accuracy (%)", "ci_low": "95 % CI from (%)",
                     "ci_high": "95 % CI to (%)"}


def condition_numbers(by_condition: pd.DataFrame) -> pd.DataFrame:
    """The numbers behind the per-perturbation plot as the page shows them: in words, rounded to 2 places."""
    return by_condition.reindex(columns=list(CONDITION_HEADERS)).round(2).rename(columns=CONDITION_HEADERS)


def _listed(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(sorted(str(v) for v in values or []))


def results_view(store: Store, runs: Sequence[str], parser: str = "robust", *, models: Iterable[str] | None = None,
                 conditions: Iterable[str] | None = None, categories: Iterable[str] | None = None,
                 ratings: Iterable[str] | None = None, judge: str | None = None, order: str = "family",
                 owner: str = "", cache: ScoredCache | None = None) -> ResultsView:
    """The Results tab's view of ``runs`` read by ``parser`` (and the fallback ``judge``), filtered; ``order``:
    how the per-perturbation plot orders its rows (:data:`probe_ui.views.plots.SORTS`). ``owner``: whose cache entries
    these are (module doc). An empty run list or unknown run raises the store's error, which says so."""
    from probe_ui.views import results
    from probe_ui.views.results_cache import cached_answers

    names = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs or [])))
    filters = dict(models=list(models or []), conditions=list(conditions or []),
                   categories=list(categories or []), ratings=list(ratings or []))
    if cache is None:
        view = _build(results.answers(store, names, parser, judge=judge, **filters), names, parser, filters)
        return view if order == "family" else ordered(view, order)
    what = ("view", _listed(models), _listed(conditions), _listed(categories), _listed(ratings))
    view = cache.memo(store, owner, names, parser, judge, what, lambda: _build(
        cached_answers(cache, store, owner, names, parser, judge=judge, **filters), names, parser, filters))
    return view if order == "family" else ordered(view, order)


def ordered(view: ResultsView, order: str) -> ResultsView:
    """``view`` with its per-perturbation plot in another ``order`` (the rest is the same view)."""
    from dataclasses import replace

    from probe_ui.views import plots

    return replace(view, plot_acc=plots.accuracy_by_condition(view.by_condition, order))


def _build(df: pd.DataFrame, names: list[str], parser: str, filters: dict[str, list[str]]) -> ResultsView:
    from probe_ui.views import plots, results
    from probe_ui.views.failures import failed_calls
    from probe_ui.views.report import extra_sections

    by_cond = results.accuracy_by_condition(df)
    curves = results.robustness_curves(df)
    sections = "".join(body for _, _, body in extra_sections(df, figures=False, curves=curves))  # each titled
    models = sorted(df.loc[df["error"].isna(), "model"].astype(str).unique()) if len(df) else []
    said = results.selection_words(names, parser, labels=results.condition_labels(df), **filters)
    reports = results.run_reports(df, parser)
    from probe_ui.metrics.calibration import reliability_frame

    reliability = reliability_frame(df)
    return ResultsView(
        overview=results.overview_for_people(df, parser, reports=reports),
        families=results.families_html(df, parser, reports=reports),
        extra=sections, plot_acc=plots.accuracy_by_condition(by_cond),
        plot_cat=plots.category_heatmap(results.category_accuracy(df), results.category_counts(df)),
        plot_conf=plots.confusion({m: results.confusion(df, m) for m in models}),
        plot_curves=plots.robustness_curves(curves) if len(curves) else None,
        by_condition=by_cond, responses=results.response_table(df).rename(columns=ANSWER_HEADERS),
        failed=failed_calls(df), shown=f"<p class='pu-note'>{escape(said)}</p>", n_answers=len(df),
        plot_reliability=plots.reliability_diagram(reliability) if len(reliability) else None)
