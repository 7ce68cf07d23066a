"""Results tab: choose runs, filter, read the papers' metric tables and plots, drill down to single answers."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from probe_ui import results
from probe_ui.app.common import shows_errors
from probe_ui.app.context import AppContext


def run_names(ctx: AppContext) -> list[str]:
    return [r.name for r in reversed(ctx.store.list_runs())]


def tables_html(tables: dict[str, pd.DataFrame]) -> str:
    """Every metric family's table under its name; cell text is escaped (run and model names come from users)."""
    from html import escape

    parts = []
    for name, df in tables.items():
        if name == "overview" or df.empty:
            continue
        if {"run", "model", "metric", "value"} <= set(df.columns):
            # one row per run and model, one column per metric: what a reader compares across models
            df = df.pivot_table(index=["run", "model"], columns="metric", values="value", aggfunc="first",
                                sort=False).reset_index()
            df.columns.name = None
        parts.append(f"<h4>{escape(name)}</h4><div style='overflow-x:auto'>"
                     + df.to_html(index=False, float_format=lambda x: f"{x:.2f}", border=0, na_rep="",
                                  escape=True).replace("<table", "<table style='white-space:nowrap'", 1)
                     + "</div>")
    return "".join(parts) or "<p><i>No paper-specific metrics for these runs.</i></p>"


def build(ctx: AppContext, tab: gr.Tab) -> None:
    with gr.Row():
        runs = gr.Dropdown(label="runs", choices=run_names(ctx), multiselect=True, value=[], scale=4,
                           elem_id="results-runs", allow_custom_value=True)
        refresh = gr.Button("↻ runs", size="sm", scale=0, elem_id="results-refresh")
        parser = gr.Radio(["robust", "legacy"], value="robust", label="answer parser", scale=2)
    with gr.Row():
        f_models = gr.Dropdown(label="models", multiselect=True, choices=[], value=[])
        f_conditions = gr.Dropdown(label="perturbations", multiselect=True, choices=[], value=[])
        f_categories = gr.Dropdown(label="categories", multiselect=True, choices=[], value=[])
        f_ratings = gr.Dropdown(label="ratings", multiselect=True, choices=["correct", "incorrect", "unsure",
                                                                           "unrated"], value=[])
    show = gr.Button("Show results", variant="primary", elem_id="results-show")
    overview = gr.Dataframe(label="per run and model", interactive=False, elem_id="results-overview")
    families = gr.HTML("", elem_id="results-families")
    with gr.Row():
        plot_acc = gr.Plot(label="accuracy per perturbation (95% CI)")
        plot_cat = gr.Plot(label="accuracy per category")
    plot_conf = gr.Plot(label="confusion per model")
    by_condition = gr.Dataframe(label="accuracy per perturbation: the numbers in the plot", interactive=False,
                                elem_id="results-by-condition")
    responses = gr.Dataframe(label="answers (click a row to open it)", interactive=False,
                             elem_id="results-responses")
    with gr.Row():
        export_format = gr.Dropdown(label="export format", choices=["jsonl", "parquet", "imagefolder", "csv"],
                                    value="imagefolder", elem_id="results-export-format")
        export_by = gr.Radio(["response", "variant"], value="response", label="one row per")
        export_btn = gr.Button("Export the first chosen run (zip)", elem_id="results-export")
        report_btn = gr.Button("HTML report (second run, if chosen, is the baseline)", elem_id="results-report")
    download = gr.File(label="download", interactive=False, elem_id="results-download")
    with gr.Row():
        response_id = gr.Number(label="answer #", precision=0, elem_id="results-response-id")
        open_btn = gr.Button("Open answer", elem_id="results-open")
    with gr.Row():
        detail_images = gr.Gallery(label="images sent", columns=2, height=260, format="png")
        detail = gr.Markdown("", elem_id="results-detail")

    @shows_errors
    def on_runs(chosen: list[str]) -> tuple[Any, ...]:
        if not chosen:
            return (gr.update(choices=[], value=[]),) * 3
        choices = results.filter_choices(results.answers(ctx.store, chosen))
        return (gr.update(choices=choices.get("models", []), value=[]),
                gr.update(choices=choices.get("conditions", []), value=[]),
                gr.update(choices=choices.get("categories", []), value=[]))

    @shows_errors
    def on_show(chosen: list[str], p: str, ms: list[str], cs: list[str], cats: list[str], rs: list[str]
                ) -> tuple[Any, ...]:
        if not chosen:
            raise ValueError("choose one or more runs")
        df = results.answers(ctx.store, chosen, p, models=ms, conditions=cs, categories=cats, ratings=rs)
        tables = results.metric_tables(df, p)
        return (tables.get("overview", pd.DataFrame()), tables_html(tables),
                results.plot_accuracy_by_condition(df), results.plot_category_heatmap(df),
                results.plot_confusion(df), results.accuracy_by_condition(df).round(2), results.response_table(df))

    @shows_errors
    def on_open(rid: float | None) -> tuple[Any, str]:
        if rid is None:
            raise ValueError("type an answer number or click a row")
        ims, text = results.response_detail(ctx.store, int(rid))
        return ims, text

    @shows_errors
    def on_export(chosen: list[str], fmt: str, by: str, p: str) -> str:
        if not chosen:
            raise ValueError("choose a run to export")
        from probe_ui.exports import export_run

        folder = Path(tempfile.mkdtemp(prefix="probe-ui-export-"))
        summary = export_run(ctx.store, chosen[0], fmt, folder / "export", by=by, parser=p)
        archive = shutil.make_archive(str(folder / f"{_file_name(chosen[0])}-{fmt}"), "zip", summary.path)
        shutil.rmtree(summary.path, ignore_errors=True)
        return archive

    @shows_errors
    def on_report(chosen: list[str], p: str) -> str:
        if not chosen:
            raise ValueError("choose a run to report on")
        from probe_ui.report import write_report

        folder = Path(tempfile.mkdtemp(prefix="probe-ui-report-"))
        path = write_report(ctx.store, chosen[0], folder / f"{_file_name(chosen[0])}-report.html",
                            baseline=chosen[1] if len(chosen) > 1 else None, parser=p)
        return str(path)

    def on_select(table: Any, evt: gr.SelectData) -> Any:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        try:
            return int(table.iloc[row]["response_id"])
        except (KeyError, IndexError, ValueError, AttributeError):
            return None

    def on_refresh(cur: list[str] | None) -> Any:
        names = run_names(ctx)
        return gr.update(choices=names, value=[r for r in cur or [] if r in names])

    refresh.click(on_refresh, runs, runs, api_name="runs")
    tab.select(on_refresh, runs, runs, api_visibility="private")
    runs.change(on_runs, runs, [f_models, f_conditions, f_categories], api_name="filters")
    show.click(on_show, [runs, parser, f_models, f_conditions, f_categories, f_ratings],
               [overview, families, plot_acc, plot_cat, plot_conf, by_condition, responses], api_name="results")
    responses.select(on_select, responses, response_id, api_visibility="private").then(
        on_open, response_id, [detail_images, detail], api_visibility="private")
    open_btn.click(on_open, response_id, [detail_images, detail], api_name="response")
    export_btn.click(on_export, [runs, export_format, export_by, parser], download, api_name="export")
    report_btn.click(on_report, [runs, parser], download, api_name="report")


def _file_name(run: str) -> str:
    """A run name made safe as a file name."""
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "_", run)[:80] or "run"
