"""``probe-ui report``: one self-contained HTML file describing a stored run.

The file needs nothing but a browser: no scripts, no web fonts, no external resources (a Content-Security-Policy
meta tag forbids them); the CSS is inline, plots are PNGs and thumbnails JPEGs embedded as ``data:`` URIs.

Sections:

1. **Header**: run name, created / updated, seed, variants, answers, models.
2. **Overview**: one row per model (:func:`probe_ui.views.results.metric_tables`' ``overview``, i.e. the numbers of
   ``probe-ui score``) plus median latency and cost.
3. **Per-paper metrics**: each family of :func:`probe_ui.views.results.metric_tables` pivoted: one row per model, one
   column per metric; a family's breakdowns (``per_category.*``, ``per_condition.*``, ...) get a table each, one
   row per model and breakdown key.
4. **Stress test**: per model, accuracy on each perturbation condition minus accuracy on the originals of the same
   items (:func:`stress_deltas`), in percentage points, with a 95 % CI for the difference (below), the stress
   summary of :func:`probe_ui.views.stress.summary`, the accuracy-per-condition plot and the variants x models matrix.
5. **Against a baseline run** (``baseline``): per model, overall and per condition, accuracy(run) -
   accuracy(baseline) with its 95 % CI (:func:`baseline_deltas`).
6. **Robustness curves** (only when the run holds a sweep: the ``severity`` suite or the Stress tab's sweep): one
   figure per perturbation (accuracy per level, models as lines with 95 % bands over the units of evidence,
   :func:`probe_ui.views.results.plot_robustness_curve`), the table of AUCs and breaking points
   (:func:`probe_ui.views.results.breaking_points_table`) and, with ``baseline``, per perturbation and level the
   accuracy of this run minus the baseline run's with Newcombe's CI (:func:`robustness_baseline_deltas`).
7. **Clinician agreement** (only when someone rated an answer): Cohen's / Fleiss' kappa with bootstrap CIs,
   overall, per model and per pair of raters, the raters' majority against the parser, and the answers where the
   clinicians overrule the parser (:func:`probe_ui.views.results.agreement_tables`).
8. **Plots**: accuracy per category (:func:`probe_ui.views.results.plot_category_heatmap`) and the confusion
   matrices (:func:`probe_ui.views.results.plot_confusion`).
9. **Worst cases**: the variants most models failed (all-failed first), each with thumbnails, item id, condition,
   question, options, expected answer and every model's parsed answer (and the start of its raw reply).
10. **Provenance**: package versions, seed, settings (models' public configuration without key variables, presets by
   file name only, no absolute paths), and the command that reproduces the run.

Numbers: every section reads the run's scored answers (:func:`probe_ui.scoring.scored_answers`, under the parser
asked for, robust by default) with several samples reduced to their majority vote, as ``probe-ui score`` does, so
the deltas and plots agree with the overview. Error rows and answers whose ground truth
is unknown are not scored; an unreadable (invalid) answer is wrong.

Confidence intervals of a difference of two accuracies p1 - p2 use **Newcombe's hybrid score interval** (Newcombe
1998, "Interval estimation for the difference between independent proportions", method 10), built from the 95 %
Wilson intervals (l1, u1) and (l2, u2) of the two accuracies::

    lower = (p1 - p2) - sqrt((p1 - l1)^2 + (u2 - p2)^2)
    upper = (p1 - p2) + sqrt((u1 - p1)^2 + (p2 - l2)^2)

It treats the two samples as independent. A perturbed variant and its original (or a run and a baseline run over the
same items) are usually positively correlated; for such paired data the interval tends to be conservative (wider
than a paired interval would be).

Every string that comes from users, presets or models is escaped with :func:`html.escape` (``quote=True``), in
text and in attributes alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from probe_ui.files.paths import PathError, output_file
from probe_ui.files.safe_write import WriteError, check_target, write_bytes
from probe_ui.views.markup import esc, titled_section
from probe_ui.views.pushback import pushback_html
from probe_ui.views.report.cases import (
    agreement_section,
    plots_section,
    reliability_figure,
    settled_section,
    worst_section,
)
from probe_ui.views.report.common import ReportError, frames, get_run
from probe_ui.views.report.overview import header_section, overview_section, papers_section
from probe_ui.views.report.page import CSP, CSS
from probe_ui.views.report.provenance import provenance_section
from probe_ui.views.report.stress import baseline_section, paired_section, robustness_section, stress_section
from probe_ui.views.results.calibration_view import calibration_html

if TYPE_CHECKING:  # pragma: no cover
    from probe_ui.store import Run, Store

__all__ = ["ReportError", "build_report", "extra_sections", "write_report"]


def extra_sections(raw: pd.DataFrame, base: Run | None = None, base_raw: pd.DataFrame | None = None,
                   figures: bool = True, curves: pd.DataFrame | None = None) -> list[tuple[str, str, str]]:
    """The sections that appear only when their data is there: robustness curves (a severity sweep) and clinician
    agreement (rated answers), as (anchor, title, HTML); the Results tab shows the same HTML, without the curves'
    static figures (``figures`` False: it draws them interactive). ``curves``: ``raw``'s robustness curves when
    the caller has them already."""
    from probe_ui.views import results as R

    out = []
    curves = R.robustness_curves(raw) if curves is None else curves
    if len(curves):
        base_curves = R.robustness_curves(base_raw) if base_raw is not None else pd.DataFrame()
        out.append(("robustness", "Robustness curves", robustness_section(curves, raw, base, base_curves, figures)))
    if "rater_ratings" in raw.columns and raw["rater_ratings"].notna().any():
        out.append(("agreement", "Clinician agreement", agreement_section(raw)))
    if "settled_by" in raw.columns and raw["settled_by"].notna().any():
        out.append(("settled", "Settled readings", settled_section(raw)))
    for anchor, title, body in (
            ("pushback", "Pushback: does the model hold its answer?", pushback_html(raw)),
            ("calibration", "Calibration: does the model know when it is unsure?",
             calibration_html(raw, reliability_figure(raw) if figures else None))):
        if body:
            out.append((anchor, title, titled_section(anchor, title, body)))
    return out


def build_report(store: Store, run: str | None, baseline: str | None = None, parser: str = "robust",
                 definition: str = "auto", judge: str | None = None) -> str:
    """The HTML report of ``run`` (None: the most recently updated run), compared with the run named ``baseline``
    when given, every reply read by ``parser`` and the metric families under ``definition`` (as ``probe-ui score
    --parser P --definition D``). One self-contained document (module docstring); raises :class:`ReportError`
    for an unknown run or baseline. Stress and baseline deltas carry 95 % CIs by Newcombe's hybrid score method
    (two Wilson intervals). ``judge``: a fallback judge's model name, whose stored decisions replace "invalid" for
    the replies the rules cannot read (:mod:`probe_ui.scoring.fallback`)."""
    from probe_ui.store import run_variants
    from probe_ui.views import results as R

    r = get_run(store, run)
    b = get_run(store, baseline, "baseline run") if baseline else None
    if b is not None and b.id == r.id:
        raise ReportError(f"the baseline is the run itself ('{r.name}'): name another run with --baseline")
    raw, voted = frames(store, r, parser, judge)
    tables = R.metric_tables(raw, parser, definition)
    report = {"items_not_loaded": len(store.item_errors(r.id)), "judge": judge}
    sections = [
        ("overview", "Overview", overview_section(tables, raw, report)),
        ("papers", "Per-paper metrics", papers_section(tables)),
        ("stress", "Stress test", stress_section(raw, voted)),
    ]
    base_raw = None
    if b is not None:
        base_raw, base_voted = frames(store, b, parser, judge)
        sections.append(("baseline", "Baseline", baseline_section(b, voted, base_voted)))
        sections.append(("paired", "Paired comparison", paired_section(store, b, r, parser)))
    extra = extra_sections(raw, b, base_raw)
    sections += extra
    sections += [
        ("plots", "Categories & confusion", plots_section(voted)),
        ("worst", "Worst cases", worst_section(store, voted)),
        ("provenance", "Provenance", provenance_section(store, r, b)),
    ]
    nav = "<nav>" + "".join(f'<a href="#{a}">{esc(t)}</a>' for a, t, _ in sections) + "</nav>"
    head = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{esc('probe-ui report: ' + r.name)}</title><style>{CSS}</style></head>\n")
    body = ("<body><main>" + header_section(r, raw, store.count(run_variants, r.id), b, report, parser) + nav
            + "\n".join(html_ for _, _, html_ in sections) + "</main></body></html>\n")
    return head + body


def write_report(store: Store, run: str | None, out: Path, baseline: str | None = None, parser: str = "robust",
                 definition: str = "auto", judge: str | None = None, force: bool = False) -> Path:
    """Build the report (:func:`build_report`) and write it to ``out`` (:mod:`probe_ui.files.safe_write`: a temporary
    file beside it, then renamed; never over a device, FIFO or folder; over an existing file only with ``force``);
    the folder is created when missing. Returns ``out``. Raises :class:`ReportError` when the run or baseline is
    unknown, and :class:`probe_ui.files.safe_write.WriteError` when ``out`` cannot be written."""
    out = Path(out)
    what = "cannot write the report to"
    if out.exists() and out.is_dir():
        raise ReportError(f"{out} is a folder: give the report's file name, e.g. {out / 'report.html'}")
    try:  # before the work: something that must not be replaced, a folder that cannot be made, a dangling link
        check_target(out, force, what)
        output_file(out, what)
    except PathError as exc:
        raise ReportError(str(exc)) from None
    data = build_report(store, run, baseline, parser, definition, judge).encode("utf-8")
    try:
        write_bytes(out, data, force=force, what=what)
    except WriteError as exc:
        raise ReportError(str(exc)) from None
    return out
