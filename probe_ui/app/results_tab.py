"""Results tab: choose runs, filter, read the papers' metric tables and plots, drill down to single answers."""

from __future__ import annotations

import shutil
from html import escape
from typing import Any

import gradio as gr
import pandas as pd

from probe_ui import live
from probe_ui.app import review_panel
from probe_ui.app.access import Who, require, who
from probe_ui.app.common import (
    NO_JUDGE,
    Inline,
    answer_id,
    chosen_judge,
    chosen_runs,
    inline_errors,
    judge_choices,
    scroll_to_js,
    shows_errors,
)
from probe_ui.app.context import AppContext
from probe_ui.app.files import download_folder, zip_folder
from probe_ui.app.latest import Latest, Opening
from probe_ui.app.plot_view import plot_box
from probe_ui.app.queues import model_event, off_pool
from probe_ui.app.tabs import AppTab, register_tab
from probe_ui.errors import ProbeUIError
from probe_ui.export_formats import format_names
from probe_ui.files.safe_write import fresh_path
from probe_ui.metrics.registry import glossary_html
from probe_ui.scoring import PARSERS
from probe_ui.views import compare, compare_format, results
from probe_ui.views.plots import SORTS
from probe_ui.views.results_cache import cached_answers
from probe_ui.views.results_page import ANSWER_HEADERS, condition_numbers, results_view


def run_names(ctx: AppContext) -> list[str]:
    return [name for _, name in results.run_choices(ctx.store)]


def headed_tables() -> dict[str, pd.DataFrame]:
    """Every table of the tab with its headings and no rows, as the library makes it for no answers and for a
    comparison of nothing: what the tab shows before anything is (a table without a value is headed "1 | 2 | 3";
    issue 51, U41)."""
    from probe_ui.views.failures import failed_calls

    none = pd.DataFrame(columns=results.EMPTY_COLUMNS)
    return {"overview": results.overview_for_people(none), "failed": failed_calls(none),
            "by_condition": condition_numbers(results.accuracy_by_condition(none)),
            "responses": results.response_table(none).rename(columns=ANSWER_HEADERS),
            "compare_by_condition": compare_format.groups_frame([], "condition"),
            "compare_by_category": compare_format.groups_frame([], "category"),
            "compare_paper": compare_format.paper_frame([]),
            "compare_flips": compare_format.flips_frame({"fixed": [], "broke": []})}


def judge_offer(caller: Who) -> tuple[Any, Any]:
    """The "Ask the judge" button and the line beside it for ``caller``: asking a judge asks a model, which a role
    without the probe right (a viewer) cannot do, so it is greyed out with the reason in words instead of offered
    and then refused (issue 51, U44); the server refuses the call anyway (:func:`probe_ui.app.access.require`)."""
    if caller.can("probe"):
        return gr.update(interactive=True), gr.update()
    return gr.update(interactive=False), Inline.note(
        f"Asking the judge asks a model, which your role ({escape(caller.user.role)}) cannot do: the answers a "
        "judge has already given count when you choose it above.")


def build(ctx: AppContext, tab: gr.Tab, batch: dict[str, Any] | None = None) -> None:
    """The tab; ``batch``: the Batch tab's "Open the Results tab" button and the run it finished, which this tab
    chooses before it opens (so what it shows belongs to the run the button names)."""
    choices = results.run_choices(ctx.store)
    with gr.Row():
        runs = gr.Dropdown(label="runs (newest first; several to compare)", choices=choices, multiselect=True,
                           value=[choices[0][1]] if choices else [], scale=5, elem_id="results-runs",
                           allow_custom_value=True)
        refresh = gr.Button("↻ runs", size="sm", scale=0, elem_id="results-refresh")
        parser = gr.Radio(PARSERS.names(), value="settled", label="answer parser", scale=2,
                          info="settled: a clinician's reading where one settled the reply (see 'To review'), else "
                               "robust; legacy: each benchmark's own parser and metrics (to quote beside a paper)")
    with gr.Row():
        f_models = gr.Dropdown(label="models", multiselect=True, choices=[], value=[], elem_id="results-f-models")
        f_conditions = gr.Dropdown(label="perturbations", multiselect=True, choices=[], value=[],
                                   elem_id="results-f-conditions")
        f_categories = gr.Dropdown(label="categories", multiselect=True, choices=[], value=[],
                                   elem_id="results-f-categories")
        f_ratings = gr.Dropdown(label="ratings", multiselect=True, choices=["correct", "incorrect", "unsure",
                                                                           "unrated"], value=[],
                                elem_id="results-f-ratings")
    with gr.Row():
        judge = gr.Dropdown(label="judge model for replies the rules cannot read", choices=judge_choices(ctx),
                            value=NO_JUDGE, scale=3, elem_id="results-judge", allow_custom_value=True,
                            info="off by default: a model you choose (or type as provider/model) is asked once about "
                                 "each unread reply; its answers then count, marked 'judge' in the answer's detail")
        ask_judge = gr.Button("Ask the judge", scale=1, elem_id="results-ask-judge")
    judge_msg = gr.HTML("", elem_id="results-judge-msg")
    with gr.Row(elem_classes=["pu-actions"]):  # at the window's foot until scrolled to (CSS .pu-actions)
        show = gr.Button("Show results", variant="primary", elem_id="results-show")
    msg = gr.HTML("", elem_id="results-msg")
    gr.Markdown("Every table and plot below counts only the answers the filters above keep.")
    shown = gr.HTML("", elem_id="results-shown")  # the runs and filters the tables below were computed for
    empty = headed_tables()
    overview = gr.Dataframe(empty["overview"], label="per run and model: accuracy [95 % CI] n", interactive=False,
                            elem_id="results-overview", wrap=True)
    with gr.Accordion("What these figures mean", open=True, elem_id="results-meanings"):  # beside the table, as under
        # each paper's table: a clinician reads what a column means without looking for it (issue 26)
        gr.HTML(glossary_html(results.OVERVIEW_PEOPLE_COLUMNS[2:]), elem_id="results-glossary")
    review = review_panel.build(ctx)
    failed = gr.Dataframe(empty["failed"], label="failed calls per model: how many, and why (grouped)",
                          interactive=False, elem_id="results-failed", wrap=True)
    families = gr.HTML("", elem_id="results-families")
    extra = gr.HTML("", elem_id="results-extra")  # robustness curves and clinician agreement, when there
    order = gr.Radio([(words, key) for key, words in SORTS.items()], value="family", elem_id="results-order",
                     label="rows of the per-perturbation plot")
    plot_acc = plot_box("results-plot-acc", "Accuracy per perturbation (95 % CI)")
    with gr.Column(visible=False, elem_id="results-curves") as curves_box:  # a severity sweep's, when there is one
        plot_curves = plot_box("results-plot-curves", "Robustness curves")
    with gr.Column(visible=False, elem_id="results-reliability") as rel_box:  # answers with a confidence, when there
        plot_rel = plot_box("results-plot-reliability", "Reliability: accuracy per bin of stated confidence (95 % CI)")
    plot_cat = plot_box("results-plot-cat", "Accuracy per category (cells: % and n)")
    plot_conf = plot_box("results-plot-conf", "What was answered against what was right, per model")
    by_condition = gr.Dataframe(empty["by_condition"], label="accuracy per perturbation: the numbers in the plot",
                                interactive=False, elem_id="results-by-condition")
    responses = gr.Dataframe(empty["responses"], label="answers (click a row to open it)", interactive=False,
                             elem_id="results-responses")
    with gr.Row():
        export_format = gr.Dropdown(label="export format", choices=format_names(),
                                    value="imagefolder", elem_id="results-export-format")
        export_by = gr.Radio(["response", "variant"], value="response", label="one row per")
        export_btn = gr.Button("Export the first chosen run (zip)", elem_id="results-export")
        report_btn = gr.Button("HTML report (second run, if chosen, is the baseline)", elem_id="results-report")
    download = gr.File(label="download", interactive=False, elem_id="results-download")
    with gr.Accordion("Compare two runs or two models, question by question (paired)", open=False,
                      elem_id="results-compare"):
        gr.Markdown("Did B fix or break what A got right? Both are compared on the questions they both answered "
                    "(same item, perturbation and sample).")
        with gr.Row():
            cmp_run_a = gr.Dropdown(label="A: run", choices=choices, value=None, elem_id="compare-run-a",
                                    allow_custom_value=True)
            cmp_model_a = gr.Dropdown(label="A: model", choices=[], value=None, elem_id="compare-model-a",
                                      allow_custom_value=True)
            cmp_run_b = gr.Dropdown(label="B: run", choices=choices, value=None, elem_id="compare-run-b",
                                    allow_custom_value=True)
            cmp_model_b = gr.Dropdown(label="B: model", choices=[], value=None, elem_id="compare-model-b",
                                      allow_custom_value=True)
        cmp_btn = gr.Button("Compare B with A", variant="secondary", elem_id="compare-go")
        cmp_msg = gr.HTML("", elem_id="compare-msg")
        cmp_summary = gr.Markdown("", elem_id="compare-summary")
        cmp_cond = gr.Dataframe(empty["compare_by_condition"], label="per perturbation", interactive=False,
                                wrap=True, elem_id="compare-by-condition")
        cmp_cat = gr.Dataframe(empty["compare_by_category"], label="per category", interactive=False, wrap=True,
                               elem_id="compare-by-category")
        cmp_paper = gr.Dataframe(empty["compare_paper"], label="paper metrics on the shared questions",
                                 interactive=False, wrap=True, elem_id="compare-paper")
        cmp_flips = gr.Dataframe(empty["compare_flips"], label="questions that flipped (click a row to open both "
                                 "answers)", interactive=False, wrap=True, elem_id="compare-flips")
        with gr.Row():
            cmp_detail_a = gr.Markdown("", elem_id="compare-detail-a")
            cmp_detail_b = gr.Markdown("", elem_id="compare-detail-b")
    with gr.Row():
        response_id = gr.Number(label="answer #", precision=0, elem_id="results-response-id")
        open_btn = gr.Button("Open answer", elem_id="results-open")
    with gr.Row():
        detail_images = gr.Gallery(label="images sent", columns=2, height=260, format="png",
                                   object_fit="contain")
        detail = gr.Markdown("", elem_id="results-detail")

    latest = Latest()  # each session's newest selection: a slower, older computation never replaces it
    opening = Opening()  # the tab's opening and the run list's change event: the first of them draws, once

    def newest(view: str, request: gr.Request | None, n_outputs: int, work: Any) -> Any:
        """``work()`` for ``view``, or nothing at all (every output left as it is) when a newer selection of the
        same session started while it ran: its result, or its error, belongs to a selection no longer there."""
        ticket = latest.begin(request, view)
        try:
            out = work()
        except ProbeUIError:
            if not latest.is_current(request, view, ticket):
                return tuple(gr.skip() for _ in range(n_outputs))
            raise
        return out if latest.is_current(request, view, ticket) else tuple(gr.skip() for _ in range(n_outputs))

    @shows_errors
    def on_runs(chosen: list[str], request: gr.Request = None) -> tuple[Any, ...]:  # type: ignore[assignment]
        chosen = chosen_runs(chosen)

        def work() -> tuple[Any, ...]:
            if not chosen:
                return (gr.update(choices=[], value=[]),) * 3
            df = cached_answers(ctx.results_cache, ctx.store, who(ctx, request).owner, chosen)
            choices = results.filter_choices(df)
            words = results.condition_labels(df)
            return (gr.update(choices=choices.get("models", []), value=[]),
                    gr.update(choices=[(words.get(c, c), c) for c in choices.get("conditions", [])], value=[]),
                    gr.update(choices=choices.get("categories", []), value=[]))
        return newest("filters", request, 3, work)

    @inline_errors(msg)
    def on_show(chosen: list[str], p: str, ms: list[str], cs: list[str], cats: list[str], rs: list[str],
                j: str | None = NO_JUDGE, o: str = "family", request: gr.Request = None  # type: ignore[assignment]
                ) -> tuple[Any, ...]:
        chosen = chosen_runs(chosen)

        def work() -> tuple[Any, ...]:
            if not chosen:
                raise live.ProbeError("choose one or more runs above", field="runs")
            v = results_view(ctx.store, chosen, p, models=ms, conditions=cs, categories=cats, ratings=rs,
                             judge=_judge_name(j, p, request), order=o if o in SORTS else "family",
                             owner=who(ctx, request).owner, cache=ctx.results_cache)
            return (v.overview, v.families, v.extra, v.plot_acc, v.plot_cat, v.plot_conf, v.plot_curves,
                    gr.update(visible=v.plot_curves is not None), v.plot_reliability,
                    gr.update(visible=v.plot_reliability is not None), condition_numbers(v.by_condition), v.responses,
                    "", v.shown, v.failed)
        return newest("results", request, len(show_outputs), work)

    def _judge_name(j: str | None, p: str, request: gr.Request | None) -> str | None:
        """The judge's model name (None: no judge); only the robust reading has a judge (its name among the
        models this person may pick: the catalogue, shared endpoints and their own)."""
        spec = chosen_judge(j)
        if spec is None or p == "legacy":
            return None
        from probe_ui.scoring.fallback import resolve_judge

        return resolve_judge(spec, ctx.endpoints.configs(who(ctx, request).owner)).name

    @inline_errors(judge_msg)
    def on_ask_judge(chosen: list[str], j: str | None, p: str, request: gr.Request) -> str:
        caller = require(ctx, request, "probe")  # a judge asks a model: it spends what a probe spends
        spec = chosen_judge(j)
        if spec is None:
            raise live.ProbeError("choose a judge model first", field="judge")
        if not chosen:
            raise live.ProbeError("choose one or more runs above", field="runs")
        if p == "legacy":
            raise live.ProbeError("the judge reads what the robust parser cannot: choose the robust or settled "
                                  "parser", field="parser")
        from probe_ui.scoring.fallback import judge_runs, resolve_judge

        model = resolve_judge(spec, ctx.endpoints.usable(caller.owner, [spec], admin=caller.can("any_host")))
        # the judge's calls are held to the caller's spending limit (a run of someone else's included)
        lines = judge_runs(ctx.store, list(chosen), model,
                           cap_of=lambda run: ctx.spend_cap(caller.name, caller.signed_in))
        return Inline.note("<br>".join(escape(x) for x in lines))

    @shows_errors
    def on_open(rid: float | None) -> tuple[Any, str]:
        checked = answer_id(rid, field=None)
        if checked is None:
            raise live.ProbeError("type an answer number or click a row")
        ims, text = results.response_detail(ctx.store, checked)
        return ims, text

    @shows_errors
    def on_export(chosen: list[str], fmt: str, by: str, p: str, j: str | None = NO_JUDGE,
                  request: gr.Request = None) -> str:  # type: ignore[assignment]
        chosen = chosen_runs(chosen)
        if not chosen:
            raise live.ProbeError("choose a run to export")
        from probe_ui.exports import export_run

        folder = download_folder()  # inside Gradio's cache, which deletes it
        summary = export_run(ctx.store, chosen[0], fmt, folder / "export", by=by, parser=p,
                             judge=_judge_name(j, p, request))
        archive = zip_folder(summary.path, fresh_path(folder / f"{_file_name(chosen[0])}-{fmt}.zip"))
        shutil.rmtree(summary.path, ignore_errors=True)
        return str(archive)

    @shows_errors
    def on_report(chosen: list[str], p: str, j: str | None = NO_JUDGE,
                  request: gr.Request = None) -> str:  # type: ignore[assignment]
        chosen = chosen_runs(chosen)
        if not chosen:
            raise live.ProbeError("choose a run to report on")
        from probe_ui.views.report import write_report

        folder = download_folder()
        path = write_report(ctx.store, chosen[0], fresh_path(folder / f"{_file_name(chosen[0])}-report.html"),
                            baseline=chosen[1] if len(chosen) > 1 else None, parser=p,
                            judge=_judge_name(j, p, request))
        return str(path)

    def on_select(table: Any, evt: gr.SelectData) -> Any:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        try:
            return int(table.iloc[row][ANSWER_HEADERS["response_id"]])
        except (KeyError, IndexError, ValueError, AttributeError):
            return None

    @shows_errors
    def on_compare_run(run: str | None) -> Any:
        names = compare.run_models(ctx.store, run) if run else []
        return gr.update(choices=names, value=names[0] if len(names) == 1 else None)

    @inline_errors(cmp_msg)
    def on_compare(run_a: str | None, model_a: str | None, run_b: str | None, model_b: str | None, p: str
                   ) -> tuple[Any, ...]:
        def chosen(value: str | None, name: str, words: str) -> str:
            if not value:
                raise live.ProbeError(words, field=name)
            return value

        a = compare.Side(chosen(run_a, "compare-run-a", "choose run A"),
                         chosen(model_a, "compare-model-a", "choose A's model"))
        b = compare.Side(chosen(run_b, "compare-run-b", "choose run B"),
                         chosen(model_b, "compare-model-b", "choose B's model"))
        c = compare.compare(ctx.store, a, b, p)
        return (*compare_format.view(c), "")

    @shows_errors
    def on_flip(table: Any, evt: gr.SelectData) -> tuple[str, str]:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        try:
            ids = int(table.iloc[row]["A answer #"]), int(table.iloc[row]["B answer #"])
        except (KeyError, IndexError, ValueError, AttributeError):
            return "", ""
        return tuple(f"**{side}** (answer #{rid})\n\n" + results.response_detail(ctx.store, rid)[1]
                     for side, rid in zip(("A", "B"), ids))  # type: ignore[return-value]

    def run_list(cur: Any) -> tuple[list[tuple[str, str]], list[str]]:
        """The runs to offer (newest first), and which stay chosen: those of ``cur`` still there, else the
        newest."""
        fresh = results.run_choices(ctx.store)
        names = [n for _, n in fresh]
        return fresh, [r for r in chosen_runs(cur) if r in names] or names[:1]

    def on_refresh(cur: list[str] | None) -> Any:
        fresh, keep = run_list(cur)
        return gr.update(choices=fresh, value=keep)

    show_inputs = [runs, parser, f_models, f_conditions, f_categories, f_ratings, judge, order]
    show_outputs = [overview, families, extra, plot_acc, plot_cat, plot_conf, plot_curves, curves_box, plot_rel,
                    rel_box, by_condition, responses, msg, shown, failed]

    def on_tab(cur: list[str] | None, j: str | None, p: str, ms: list[str], cs: list[str], cats: list[str],
               rs: list[str], o: str, request: gr.Request) -> dict[Any, Any]:
        """Opening the tab, as one event: the lists of runs and judges brought up to date, then the results of the
        runs still chosen. Four chained events did this before; each event makes Gradio's page copy every field it
        has touched, so opening the tab cost a browser 2 s of CPU, against 0.35 s for the tab alone."""
        fresh, keep = run_list(cur)
        chosen = chosen_runs(cur)
        caller = who(ctx, request)
        menu = judge_choices(ctx, caller.owner)
        j = j if j in menu else NO_JUDGE
        ask, why = judge_offer(caller)
        out = {runs: gr.update(choices=fresh) if keep == chosen else gr.update(choices=fresh, value=keep),
               judge: gr.update(choices=menu, value=j), cmp_run_a: gr.update(choices=fresh),
               cmp_run_b: gr.update(choices=fresh), ask_judge: ask, judge_msg: why}
        if keep != chosen:  # a chosen run is gone, or none was chosen: runs.change brings its filters and results,
            opening.opened(request, keep)  # or on_opened_show does, whichever comes first
            return out
        opening.opened(request, None)
        shown = on_show(keep, p, ms, cs, cats, rs, j, o, request)
        return {**out, **(shown if isinstance(shown, dict) else dict(zip(show_outputs, shown)))}

    def on_opened_show(chosen: list[str], p: str, rs: list[str], j: str | None, o: str,
                       request: gr.Request) -> tuple[Any, ...]:
        """After an opening that chose the runs: their results, unless the run list's change event drew them
        first. The filters are drawn empty, as that event's ``on_runs`` leaves them for the new runs."""
        if not opening.claim(request, chosen_runs(chosen), by_opening=True):
            return tuple(gr.skip() for _ in show_outputs)
        return on_show(chosen, p, [], [], [], rs, j, o, request)

    def on_runs_show(chosen: list[str], p: str, ms: list[str], cs: list[str], cats: list[str], rs: list[str],
                     j: str | None, o: str, request: gr.Request) -> tuple[Any, ...]:
        """The results of a new choice of runs, unless the tab's opening chose them and already drew them."""
        if not opening.claim(request, chosen_runs(chosen), by_opening=False):
            return tuple(gr.skip() for _ in show_outputs)
        return on_show(chosen, p, ms, cs, cats, rs, j, o, request)

    refresh.click(on_refresh, runs, runs, api_name="runs")
    opened_tab = tab.select(on_tab, [runs, judge, parser, f_models, f_conditions, f_categories, f_ratings, order],
                            [runs, judge, cmp_run_a, cmp_run_b, ask_judge, judge_msg, *show_outputs],
                            api_visibility="private").then(
        on_opened_show, [runs, parser, f_ratings, judge, order], show_outputs, api_visibility="private")
    new_runs = runs.change(on_runs, runs, [f_models, f_conditions, f_categories], api_name="filters").then(
        on_runs_show, show_inputs, show_outputs, api_visibility="private")
    show.click(None, None, None, js=scroll_to_js("results-msg"), api_visibility="private")  # the figures into view
    shown_now = show.click(on_show, show_inputs, show_outputs, api_name="results")
    review_panel.wire(ctx, review, runs, on_show, show_inputs, show_outputs, [opened_tab, new_runs, shown_now])
    ask_judge.click(off_pool(on_ask_judge), [runs, judge, parser], judge_msg, **model_event(api_name="judge")).then(
        on_show, show_inputs, show_outputs, api_visibility="private")
    for f in (parser, f_models, f_conditions, f_categories, f_ratings, judge, order):  # each re-draws everything
        f.input(on_show, show_inputs, show_outputs, api_visibility="private")
    responses.select(on_select, responses, response_id, api_visibility="private").then(
        on_open, response_id, [detail_images, detail], api_visibility="private")
    open_btn.click(on_open, response_id, [detail_images, detail], api_name="response")
    cmp_run_a.change(on_compare_run, cmp_run_a, cmp_model_a, api_name="compare_models")
    cmp_run_b.change(on_compare_run, cmp_run_b, cmp_model_b, api_visibility="private")
    cmp_btn.click(on_compare, [cmp_run_a, cmp_model_a, cmp_run_b, cmp_model_b, parser],
                  [cmp_summary, cmp_cond, cmp_cat, cmp_paper, cmp_flips, cmp_msg], api_name="compare")
    cmp_flips.select(on_flip, cmp_flips, [cmp_detail_a, cmp_detail_b], api_visibility="private")
    if batch is not None:
        def on_finished(run: str | None) -> Any:
            """The finished run chosen (the one above it is newest-first: a run made since the page opened is
            added); no run finished on this page: the choice stays as it is."""
            if not run:
                return gr.update()
            return gr.update(choices=results.run_choices(ctx.store), value=[run])

        # the run first, then the tab: the tab's own refresh then keeps it
        batch["to_results"].click(on_finished, batch["finished"], runs, api_visibility="private").then(
            None, None, None, js=OPEN_RESULTS_JS, api_visibility="private")
    export_btn.click(on_export, [runs, export_format, export_by, parser, judge], download, api_name="export")
    report_btn.click(on_report, [runs, parser, judge], download, api_name="report")


def _file_name(run: str) -> str:
    """A run name made safe as a file name."""
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "_", run)[:80] or "run"


#: opens the Results tab, as a click on its tab button would
OPEN_RESULTS_JS = "() => { document.querySelector(\"button[role=tab][data-tab-id='results']\")?.click(); }"

register_tab(AppTab("results", "Results", order=40, right="read",
                    build=lambda ctx, tab, built: build(ctx, tab, built.get("batch"))))
