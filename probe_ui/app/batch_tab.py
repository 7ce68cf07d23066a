"""Batch tab: presets x models x suites with a progress bar, cancel, and resume of interrupted runs."""

from __future__ import annotations

from html import escape
from typing import Any

import gradio as gr
import pandas as pd

from probe_ui.app.access import AccessDenied, Who, who
from probe_ui.app.common import chosen_models, model_choices, shows_errors
from probe_ui.app.context import AppContext
from probe_ui.app.queues import model_event, off_pool
from probe_ui.live import ProbeError
from probe_ui.presets import load_preset
from probe_ui.runner import BatchResult, default_run_name, resume_batch, run_batch
from probe_ui.suites import SUITES

RUN_COLUMNS = ["run", "kind", "answered", "errors", "planned", "complete", "updated_at"]


def runs_table(ctx: AppContext) -> pd.DataFrame:
    rows = ctx.store.run_progress()
    return pd.DataFrame(rows, columns=RUN_COLUMNS) if rows else pd.DataFrame(columns=RUN_COLUMNS)


def unfinished_runs(ctx: AppContext) -> list[str]:
    return [r["run"] for r in ctx.store.run_progress() if r["kind"] != "live" and not r["complete"]]


def summary(result: BatchResult) -> str:
    """The outcome of a batch as HTML; names, errors and warnings (which carry preset and provider text) are
    escaped, so they show as text and never load anything."""
    r = result
    head = (f"<p><b>{escape(r.run.name)}</b>: {r.variants} variants, {r.planned} answers planned; {r.skipped} "
            f"already done, {r.answered} new, {r.errors} errors, {len(r.item_errors)} items not loaded.</p>")
    if r.cancelled:
        head += f"<p>Cancelled: {r.remaining} answers left to do; press Resume to finish them.</p>"
    elif r.remaining:
        head += f"<p>{r.remaining} answers failed; Resume retries them.</p>"
    items = ([f"error: {m}" for m in r.error_messages[:10]] + [f"item not loaded: {e.message}"
                                                                 for e in r.item_errors[:10]]
             + [f"warning: {w}" for w in r.warnings[:5]])
    if items:
        head += "<ul>" + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul>"
    return head


def build(ctx: AppContext, tab: gr.Tab) -> None:
    with gr.Row():
        presets = gr.CheckboxGroup(label="presets", choices=ctx.preset_paths(""), value=[], elem_id="batch-presets")
        preset_file = gr.File(label="or upload a preset YAML (images from the bundled assets)",
                              file_types=[".yaml", ".yml"], elem_id="batch-upload")
    with gr.Row():
        models = gr.CheckboxGroup(label="models", choices=model_choices(ctx), value=[], scale=3,
                                  elem_id="batch-models")
        adhoc = gr.Textbox(label="other models (provider/model, comma separated)", scale=2)
    with gr.Row():
        suites = gr.CheckboxGroup(label="suites", choices=list(SUITES), value=[], elem_id="batch-suites")
        seed = gr.Number(label="seed", value=0, precision=0)
        run_name = gr.Textbox(label="run name (blank: derived from presets, suites and seed)",
                              elem_id="batch-run-name")
    with gr.Row():
        start = gr.Button("Start", variant="primary", elem_id="batch-start")
        cancel = gr.Button("Cancel", elem_id="batch-cancel")
        refresh = gr.Button("↻ lists", size="sm")
    out = gr.HTML("", elem_id="batch-status")
    gr.Markdown("#### Runs")
    runs = gr.Dataframe(value=runs_table(ctx), interactive=False, elem_id="batch-runs")
    with gr.Row():
        resume_pick = gr.Dropdown(label="interrupted run", choices=unfinished_runs(ctx), value=None,
                                  allow_custom_value=True)
        resume = gr.Button("Resume", elem_id="batch-resume")

    def paths(picked: list[str] | None, upload: str | None, caller: Who) -> list[str]:
        """The files of the ticked presets (offered by name: :meth:`AppContext.preset_path`) and the upload."""
        return [*(ctx.preset_path(p, caller.name) for p in picked or []), *([upload] if upload else [])]

    @shows_errors
    def prepare(picked: list[str], upload: str | None, st: list[str], sd: float, name: str,
                request: gr.Request) -> str:
        chosen = paths(picked, upload, who(ctx, request))
        if not chosen:
            raise ProbeError("tick at least one preset (or upload one)")
        return name.strip() or default_run_name([load_preset(p) for p in chosen], int(sd or 0), st or [])

    @shows_errors
    def on_start(picked: list[str], upload: str | None, chosen: list[str], other: str, st: list[str], sd: float,
                 name: str, request: gr.Request, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        caller = who(ctx, request)
        specs = chosen_models(chosen, other)
        presets_ = [load_preset(p) for p in paths(picked, upload, caller)]
        name = name.strip() or default_run_name(presets_, int(sd or 0), st or [])
        extra = ctx.endpoints.usable(caller.owner, specs, admin=caller.can("any_host"))
        cancel_ = ctx.cancel_event(name, caller.owner)
        try:
            result = run_batch(ctx.store, presets_, specs, run_name=name, seed=int(sd or 0), suites=st or [],
                               progress=False, extra_models=extra, on_progress=_progress(progress), cancel=cancel_,
                               user=caller.name)
        finally:
            ctx.finished(name, cancel_)
        return summary(result), runs_table(ctx), gr.update(choices=unfinished_runs(ctx))

    @shows_errors
    def on_resume(name: str | None, request: gr.Request, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        if not name:
            raise ProbeError("choose an interrupted run")
        caller = who(ctx, request)
        made_by = ctx.store.get_run(name).created_by
        # with logins, a run is its maker's (or an admin's) to resume; without, the machine's one user owns every run
        if caller.signed_in and made_by != caller.name and not caller.can("cancel_any"):
            raise AccessDenied(f"{name} was started by someone else: only they or an admin can resume it.",
                               duration=8, print_exception=False)
        extra = ctx.endpoints.usable(caller.owner, admin=caller.can("any_host"))
        cancel_ = ctx.cancel_event(name, caller.owner)
        try:
            result = resume_batch(ctx.store, name, extra_models=extra, progress=False,
                                  on_progress=_progress(progress), cancel=cancel_, user=caller.name)
        finally:
            ctx.finished(name, cancel_)
        return summary(result), runs_table(ctx), gr.update(choices=unfinished_runs(ctx), value=None)

    @shows_errors
    def on_cancel(name: str, request: gr.Request) -> str:
        caller = who(ctx, request)
        if name and ctx.cancel(name, caller.owner, anyone=caller.can("cancel_any")):
            return f"Cancelling {escape(name)}: no new requests; answers already in are kept. Resume finishes it."
        return f"No batch of yours named {escape(name or '')} is running."

    def on_refresh(cur: list[str], cur_models: list[str], request: gr.Request) -> tuple[Any, ...]:
        caller = who(ctx, request)
        return (gr.update(choices=ctx.preset_paths(caller.name), value=cur),
                gr.update(choices=model_choices(ctx, caller.owner), value=cur_models), runs_table(ctx),
                gr.update(choices=unfinished_runs(ctx)))

    inputs = [presets, preset_file, models, adhoc, suites, seed, run_name]
    start.click(prepare, [presets, preset_file, suites, seed, run_name], run_name, api_visibility="private").then(
        off_pool(on_start), inputs, [out, runs, resume_pick], **model_event(api_name="batch"))
    cancel.click(on_cancel, run_name, out, api_name="cancel_batch")
    resume_pick.select(lambda n: n, resume_pick, run_name, api_visibility="private")
    resume.click(off_pool(on_resume), resume_pick, [out, runs, resume_pick], **model_event(api_name="resume_batch"))
    refresh.click(on_refresh, [presets, models], [presets, models, runs, resume_pick], api_name="list_runs")
    tab.select(on_refresh, [presets, models], [presets, models, runs, resume_pick], api_visibility="private")


def _progress(progress: gr.Progress) -> Any:
    """Progress with rate and time left, counted from this session's answers (cells done before are excluded; they
    are found while the batch plans, so ``total`` and ``done`` grow together at first)."""
    import time

    start: dict[str, float] = {}

    def update(done: int, total: int, result: BatchResult) -> None:
        now = time.monotonic()
        start.setdefault("t", now)
        new, elapsed = result.answered + result.errors, now - start["t"]
        rate = new / elapsed if elapsed > 0 and new else 0.0
        eta = f" · about {(total - done) / rate:.0f} s left" if rate else ""
        progress((done, max(total, 1)), desc=f"{done}/{total} answers · {rate:.1f}/s{eta} · {result.errors} errors",
                 unit="answers")
    return update
