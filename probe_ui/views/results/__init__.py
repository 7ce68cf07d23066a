"""The library behind the app's Results tab: answers of stored runs as tables, figures and a drill-down text.

One module per job: :mod:`~probe_ui.views.results.selection` (which runs and answers),
:mod:`~probe_ui.views.results.scores` (the score tables of ``probe-ui score``),
:mod:`~probe_ui.views.results.breakdowns` (accuracy by condition and category, confusion, robustness, agreement),
:mod:`~probe_ui.views.results.figures` (the plots) and
:mod:`~probe_ui.views.results.detail` (one answer in detail). Their public names are importable from here.

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

from probe_ui.scoring import RATING_CHOICES, UNRATED, categories_of, filter_answers
from probe_ui.views.results.breakdowns import (
    BREAKING_PEOPLE_COLUMNS,
    INVALID,
    KAPPA_COLUMNS,
    NO_LABEL,
    ORIGINAL,
    OVERRULED_COLUMNS,
    UNCATEGORISED,
    VERSUS_COLUMNS,
    accuracy_by_condition,
    agreement_tables,
    breaking_points_table,
    category_accuracy,
    category_counts,
    condition_labels,
    condition_order,
    confusion,
    graded_rows,
    level_label,
    robustness_curves,
)
from probe_ui.views.results.detail import (
    RESPONSE_COLUMNS,
    TABLE_LIMIT,
    md_code,
    md_text,
    response_detail,
    response_table,
    sent_image_ids,
)
from probe_ui.views.results.figures import (
    empty_figure,
    plot_accuracy_by_condition,
    plot_category_heatmap,
    plot_confusion,
    plot_robustness_curve,
    robustness_figures,
)
from probe_ui.views.results.scores import (
    OVERVIEW_PEOPLE_COLUMNS,
    families_html,
    family_title,
    figure_text,
    is_metric,
    metric_leaves,
    metric_tables,
    overview_for_people,
    paper_sections,
    run_reports,
)
from probe_ui.views.results.selection import (
    EMPTY_COLUMNS,
    RUN_KINDS,
    answers,
    filter_choices,
    run_choices,
    selection_words,
)

__all__ = ["BREAKING_PEOPLE_COLUMNS", "EMPTY_COLUMNS", "INVALID", "KAPPA_COLUMNS", "NO_LABEL", "ORIGINAL",
           "OVERRULED_COLUMNS", "OVERVIEW_PEOPLE_COLUMNS", "RATING_CHOICES", "RESPONSE_COLUMNS", "RUN_KINDS",
           "TABLE_LIMIT",
           "UNCATEGORISED", "UNRATED", "VERSUS_COLUMNS", "accuracy_by_condition", "agreement_tables", "answers",
           "breaking_points_table", "categories_of", "category_accuracy", "category_counts", "condition_labels",
           "condition_order", "confusion", "empty_figure", "families_html", "family_title", "figure_text",
           "filter_answers", "filter_choices", "graded_rows", "is_metric", "level_label", "md_code", "md_text",
           "metric_leaves", "metric_tables", "overview_for_people", "paper_sections", "plot_accuracy_by_condition",
           "plot_category_heatmap", "plot_confusion", "plot_robustness_curve", "response_detail", "response_table",
           "robustness_curves", "robustness_figures", "run_choices", "run_reports", "selection_words", "sent_image_ids"]
