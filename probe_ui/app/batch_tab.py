"""Batch tab: presets x models x suites with a progress bar, cancel, and resume of interrupted runs."""

from __future__ import annotations

from html import escape
from typing import Any

import gradio as gr
import pandas as pd

from probe_ui.app.access import AccessDenied, Who, who
from probe_ui.app.common import (
    Inline,
    answer_format_of,
    chosen_models,
    confidence_tick,
    inline_errors,
    model_menu,
    ready_models,
    scroll_to_js,
    seed_of,
    structured_tick,
    unusable_html,
)
from probe_ui.app.context import AppContext
from probe_ui.app.queues import model_event, off_pool
from probe_ui.app.tabs import AppTab, register_tab
from probe_ui.labels import when
from probe_ui.live import ProbeError
from probe_ui.presets import load_preset
from probe_ui.presets.suites import SUITES
from probe_ui.runner import BatchOptions, BatchResult, batch_change, default_run_name, resume_batch, run_batch
from probe_ui.runner.identity import RunChange

RUN_COLUMNS = ["run", "kind", "answered", "errors", "planned", "complete", "last change"]


def runs_table(ctx: AppContext) -> pd.DataFrame:
    """Every run with its progress; a batch stopped while it was being planned has no planned count yet
    ("not known yet": Resume finishes the plan) and is never complete."""
    rows = [dict(r, planned="not known yet" if r["planned"] is None and r["kind"] != "live" else r["planned"],
                 complete="yes" if r["complete"] else "no", **{"last change": when(r["updated_at"])})
            for r in ctx.store.run_progress()]
    return pd.DataFrame(rows, columns=RUN_COLUMNS) if rows else pd.DataFrame(columns=RUN_COLUMNS)


def unfinished_runs(ctx: AppContext) -> list[str]:
    return [r["run"] for r in ctx.store.run_progress() if r["kind"] != "live" and not r["complete"]]


def resume_choice(result: BatchResult, unfinished: list[str]) -> str | None:
    """The run a batch that just ended leaves chosen for Resume: its own, while the store counts it unfinished
    (cancelled, stopped while planning, or with failed answers to retry); None when it is complete. Without it,
    Resume stayed greyed out after a Cancel until the run was chosen by hand in the list (issue 51, U43)."""
    return result.run.name if result.run.name in unfinished else None


def resume_updates(result: BatchResult, unfinished: list[str], *, resumed: bool = False) -> tuple[Any, Any]:
    """The interrupted-run list and the Resume button after a batch (``resumed``: a Resume) ends
    (:func:`resume_choice`): its run chosen and Resume pressable while answers are left; once it is complete, a
    resumed run leaves the list and Resume waits for another choice, while a new batch leaves the choice as it was."""
    run = resume_choice(result, unfinished)
    if run is not None:
        return gr.update(choices=unfinished, value=run), gr.update(interactive=True)
    if resumed:
        return gr.update(choices=unfinished, value=None), gr.update(interactive=False)
    return gr.update(choices=unfinished), gr.update()


def finished_line(result: BatchResult) -> str:
    """One line that says the batch ended and how: finished (every answer in), stopped with answers left, or
    finished with failed answers; with the counts, and where to read the scores."""
    r = result
    counts = f"{r.answered} new answers, {r.skipped} already done, {r.errors} errors"
    if r.cancelled:
        state = "Stopped"
    elif r.spend_line:
        state = "Stopped at your spending limit"
    elif r.remaining:
        state = "Finished with failed answers"
    else:
        state = "Finished"
    return (f"<p class='pu-done' role='status'><b>{state}</b>: {escape(r.run.name)}: {counts}. Its scores are in the "
            "Results tab (choose it under runs).</p>")


def summary(result: BatchResult) -> str:
    """The outcome of a batch as HTML; names, errors and warnings (which carry preset and provider text) are
    escaped, so they show as text and never load anything."""
    r = result
    head = finished_line(r)
    if r.spend_line:  # the user's spending limit stopped it: one line, in plain words (escaped)
        head += Inline.error(r.spend_line)
    if r.change is not None and r.change.adds:
        head += f"<p>This batch {escape(r.change.words())}.</p>"
    head += (f"<p><b>{escape(r.run.name)}</b>: {r.variants} variants, {r.planned} answers planned; {r.skipped} "
             f"already done, {r.answered} new, {r.errors} errors, {len(r.item_errors)} items not loaded.</p>")
    if r.run.config.answer_format == "json":
        head += "<p>Structured answers: each question with options asked for {\"answer\": &lt;a label&gt;}.</p>"
    elif r.run.config.answer_format == "confidence":
        head += "<p>Each question with options asked for the model's confidence too (calibration in Results).</p>"
    if r.cancelled and not r.plan_complete:
        head += (f"<p>Cancelled while the batch was still being planned: at least {r.remaining} answers left to do; "
                 "press Resume to finish them.</p>")
    elif r.cancelled:
        head += f"<p>Cancelled: {r.remaining} answers left to do; press Resume to finish them.</p>"
    elif r.remaining and not r.spend_line:
        head += f"<p>{r.remaining} answers failed; Resume retries them.</p>"
    items = ([f"error: {m}" for m in r.error_messages[:10]] + [f"item not loaded: {e.message}"
                                                                 for e in r.item_errors[:10]]
             + [f"warning: {w}" for w in r.warnings[:5]])
    if items:
        head += "<ul>" + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul>"
    return head


def before_start(change: RunChange, extend: bool) -> tuple[str, bool]:
    """What the page says before a batch starts, and whether it may start: a batch that would add models, suites
    or presets to an existing run waits until "add to run" is ticked; then it says what it adds."""
    if change.exists and change.conflicts:
        raise ProbeError(f"run '{change.name}' cannot take this batch: {'; '.join(change.conflicts)}: type another "
                         "run name", field="run_name")
    if change.adds and not extend:
        return Inline.error(change.refusal(f"tick 'add to run {change.name}' beside the run name to ask "
                                           f"{'them' if len(change.new_models) != 1 else 'it'} there, or type "
                                           "another run name for a new run")), False
    if change.adds:
        return Inline.note(f"Starting: this batch {escape(change.words())}; the run then plans every model and "
                           "suite it holds."), True
    return "", True


#: Start brings its result into view: the page scrolls to the progress bar and the line that says how the batch
#: ended, which sit under the buttons (below the window's foot on a small screen)
SHOW_PROGRESS_JS = scroll_to_js("batch-progress", "center")


#: the tick that sends a batch through the providers' batch APIs (``--provider-batch``)
PROVIDER_BATCH_LABEL = "Send through the providers' batch APIs (half price)"
PROVIDER_BATCH_INFO = "OpenAI, Anthropic, Gemini: answers may take hours; Cancel leaves them for Resume"


def build(ctx: AppContext, tab: gr.Tab) -> dict[str, Any]:
    # laid out so that Start is in view on a 1440x900 screen when the tab opens: the upload is a low box beside the
    # presets, the suites have a row of their own (their choices on one or two lines, not a narrow column), and the
    # three ticks sit side by side; on a smaller screen the row of buttons stays at the window's foot (CSS
    # .pu-actions) until the page is scrolled to it
    with gr.Row():
        presets = gr.CheckboxGroup(label="presets", choices=ctx.preset_paths(""), value=[], elem_id="batch-presets",
                                   scale=3)
        preset_file = gr.File(label="or upload a preset (.yaml)",
                              file_types=[".yaml", ".yml"], elem_id="batch-upload", height=150, scale=1)
    with gr.Row():
        with gr.Column(scale=3):
            menu = model_menu(ctx)
            models = gr.CheckboxGroup(label="models", choices=ready_models(menu), value=[], elem_id="batch-models")
            unusable = gr.HTML(unusable_html(menu), elem_id="batch-unusable")  # greyed out, with the reason
        adhoc = gr.Textbox(label="other models (provider/model, comma separated)", scale=2)
    suites = gr.CheckboxGroup(label="suites", choices=list(SUITES), value=[], elem_id="batch-suites")
    with gr.Row():
        seed = gr.Number(label="seed", value=0, precision=0, min_width=100, scale=1)
        run_name = gr.Textbox(label="run name (blank: derived from presets, suites and seed)",
                              elem_id="batch-run-name", scale=3)
        extend = gr.Checkbox(label="add to the existing run of this name", value=False, visible=False,
                             elem_id="batch-extend", scale=2,
                             info="asks the new models or suites there; the run then counts and resumes all of them")
    with gr.Row(equal_height=True):
        structured = structured_tick("batch-structured")
        confident = confidence_tick("batch-confidence")
        by_batch = gr.Checkbox(label=PROVIDER_BATCH_LABEL, value=False, info=PROVIDER_BATCH_INFO,
                               elem_id="batch-provider-batch")
    with gr.Row(elem_id="batch-actions", elem_classes=["pu-actions"]):
        start = gr.Button("Start", variant="primary", elem_id="batch-start")
        cancel = gr.Button("Cancel", elem_id="batch-cancel")
        refresh = gr.Button("↻ lists", size="sm")
    # the answer to Cancel has a place of its own: written into the status line, a late delivery of it could hide
    # the "Cancelled" summary the batch writes there once its answers in flight are in
    cancel_note = gr.HTML("", elem_id="batch-cancel-note")
    progress_bar = gr.HTML("", elem_id="batch-progress", elem_classes=["pu-progress-slot"])  # the one progress bar
    out = gr.HTML("", elem_id="batch-status")
    to_results = gr.Button("Open the Results tab", size="sm", visible=False, elem_id="batch-to-results")
    finished = gr.State("")  # the run the last Start or Resume of this page finished: the one Results opens
    gr.Markdown("#### Runs")
    runs = gr.Dataframe(value=runs_table(ctx), interactive=False, elem_id="batch-runs")
    with gr.Row():
        resume_pick = gr.Dropdown(label="interrupted run", choices=unfinished_runs(ctx), value=None,
                                  allow_custom_value=True, elem_id="batch-resume-pick")
        resume = gr.Button("Resume", elem_id="batch-resume", interactive=False)  # a run must be chosen first

    def paths(picked: list[str] | None, upload: str | None, caller: Who) -> list[str]:
        """The files of the ticked presets (offered by name: :meth:`AppContext.preset_path`) and the upload."""
        return [*(ctx.preset_path(p, caller.name) for p in picked or []), *([upload] if upload else [])]

    @inline_errors(out)
    def prepare(request: gr.Request, picked: list[str], upload: str | None, chosen: list[str], other: str,
                st: list[str], sd: float, name: str, add: bool, json_tick: bool, conf_tick: bool = False,
                batch_tick: bool = False) -> tuple[Any, ...]:
        """The run's name (derived when blank) and what the batch does to it, said before anything is asked; a
        batch that would add to an existing run waits for "add to run" (``go`` False)."""
        caller = who(ctx, request)
        files = paths(picked, upload, caller)
        if not files:
            raise ProbeError("tick at least one preset (or upload one)")
        presets_ = [load_preset(p) for p in files]
        fmt = answer_format_of(json_tick, conf_tick)
        name = name.strip() or default_run_name(presets_, seed_of(sd), st or [], fmt)
        change = batch_change(ctx.store, presets_, chosen_models(chosen, other),
                              BatchOptions(run_name=name, seed=seed_of(sd), suites=st or [], answer_format=fmt),
                              extra_models=ctx.endpoints.configs(caller.owner))
        say, go = before_start(change, bool(add))
        box = gr.update(visible=change.adds, label=f"add to run {change.name}",
                        value=bool(add) if change.adds else False)
        return name, say, box, go

    @inline_errors(out)
    def on_start(request: gr.Request, go: bool, picked: list[str], upload: str | None, chosen: list[str],
                 other: str, st: list[str], sd: float, name: str, add: bool, json_tick: bool, conf_tick: bool,
                 batch_tick: bool, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        if not go:  # waiting for the user's choice (see prepare): the page already says why
            return (gr.update(), gr.update(), gr.update(), gr.update(), gr.update(), gr.update(), "", gr.update(),
                    gr.update())
        *shown, run = start_batch(who(ctx, request), picked, upload, chosen, other, st, sd, name, add, json_tick,
                                  progress, conf_tick, bool(batch_tick))
        return (*shown, gr.update(visible=True), "", run, "")

    @inline_errors(out)
    def api_start(request: gr.Request, picked: list[str], upload: str | None, chosen: list[str], other: str,
                  st: list[str], sd: float, name: str, add: bool = False, json_tick: bool = False,
                  conf_tick: bool = False, batch_tick: bool = False,
                  progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        """API: Start. A batch that would add to an existing run is refused with the reason unless ``add``;
        ``json_tick`` asks for structured answers (``--answer-format json``), ``conf_tick`` for the model's
        confidence (``--confidence``), ``batch_tick`` sends through the providers' batch APIs
        (``--provider-batch``)."""
        return start_batch(who(ctx, request), picked, upload, chosen, other, st, sd, name, add, json_tick,
                           progress, conf_tick, bool(batch_tick))[:3]

    def start_batch(caller: Who, picked: list[str], upload: str | None, chosen: list[str], other: str,
                    st: list[str], sd: float, name: str, add: bool, json_tick: bool,
                    progress: gr.Progress, conf_tick: bool = False, by_batch: bool = False) -> tuple[Any, ...]:
        specs = chosen_models(chosen, other)
        presets_ = [load_preset(p) for p in paths(picked, upload, caller)]
        fmt = answer_format_of(json_tick, conf_tick)
        name = name.strip() or default_run_name(presets_, seed_of(sd), st or [], fmt)
        extra = ctx.endpoints.usable(caller.owner, specs, admin=caller.can("any_host"))
        cancel_ = ctx.cancel_event(name, caller.owner)
        try:
            result = run_batch(ctx.store, presets_, specs,
                               BatchOptions(run_name=name, seed=seed_of(sd), suites=st or [], progress=False,
                                            extend=bool(add), user=caller.name, answer_format=fmt,
                                            provider_batch=by_batch),
                               extra_models=extra, on_progress=_progress(progress), cancel=cancel_,
                               user_cap=ctx.spend_cap(caller.name, caller.signed_in))
        finally:
            ctx.finished(name, cancel_)
        pick, resume_btn = resume_updates(result, unfinished_runs(ctx))
        return (summary(result), runs_table(ctx), pick, gr.update(value=False, visible=False), resume_btn,
                result.run.name)

    @inline_errors(out)
    def on_resume(request: gr.Request, name: str | None, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
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
        # a run with batches open at a provider collects them (and sends what is left the way it was started)
        by_batch = bool(ctx.store.provider_batches(ctx.store.get_run(name).id))
        try:
            result = resume_batch(ctx.store, name, BatchOptions(progress=False, user=caller.name,
                                                                provider_batch=by_batch), extra_models=extra,
                                  on_progress=_progress(progress), cancel=cancel_,
                                  user_cap=ctx.spend_cap(caller.name, caller.signed_in))
        finally:
            ctx.finished(name, cancel_)
        pick, resume_btn = resume_updates(result, unfinished_runs(ctx), resumed=True)
        return (summary(result), runs_table(ctx), pick, resume_btn, gr.update(visible=True), "", result.run.name, "")

    @inline_errors(cancel_note)
    def on_cancel(request: gr.Request, name: str) -> str:
        caller = who(ctx, request)
        if name and ctx.cancel(name, caller.owner, anyone=caller.can("cancel_any")):
            return (f"Cancel sent to {escape(name)}: no new requests; answers already in are kept, and the line "
                    "below says when it has stopped. Resume finishes it.")
        return f"No batch of yours named {escape(name or '')} is running."

    def on_refresh(request: gr.Request, cur: list[str], cur_models: list[str]) -> tuple[Any, ...]:
        caller = who(ctx, request)
        ready = ready_models(model_menu(ctx, caller.owner))
        return (gr.update(choices=ctx.preset_paths(caller.name), value=cur),
                gr.update(choices=ready, value=[m for m in cur_models or [] if m in ready]), runs_table(ctx),
                gr.update(choices=unfinished_runs(ctx)))

    def on_unusable(request: gr.Request) -> str:
        """The models this person cannot use here, greyed out with the reason."""
        return unusable_html(model_menu(ctx, who(ctx, request).owner))

    @inline_errors(out)
    def on_preset_upload(upload: str | None) -> str:
        """An uploaded preset is checked at once (and so kept, as used, until the batch that reads it:
        :func:`probe_ui.app.files.watch_uploads` sweeps uploads that no call used)."""
        if not upload:
            return ""
        p = load_preset(upload)
        return Inline.note(f"Preset {escape(p.name)}: {len(p.items)} item(s) ready (their images are taken from the "
                           "bundled assets); tick models and press Start.")

    preset_file.upload(on_preset_upload, preset_file, out, api_visibility="private")
    inputs = [presets, preset_file, models, adhoc, suites, seed, run_name, extend, structured, confident, by_batch]
    go = gr.State(False)
    # go is False until prepare says the batch may start (a refused or failed check leaves it False)
    # the note beside Cancel is emptied by the batch's own event when it ends (whose one progress bar is the slot's)
    start.click(None, None, None, js=SHOW_PROGRESS_JS, api_visibility="private")  # in the browser only
    start.click(lambda: (False, gr.update(visible=False)), None, [go, to_results], api_visibility="private").then(
        prepare, inputs, [run_name, out, extend, go], api_visibility="private", show_progress="hidden").then(
        off_pool(on_start), [go, *inputs],
        [out, runs, resume_pick, extend, resume, to_results, progress_bar, finished, cancel_note],
        show_progress_on=[progress_bar], **model_event(api_visibility="private"))
    # the API's Start: the same check (a batch that would add to an existing run needs extend=True), then the run
    api_btn = gr.Button(visible=False)
    api_btn.click(off_pool(api_start), inputs, [out, runs, resume_pick], **model_event(api_name="batch"))
    cancel.click(on_cancel, run_name, cancel_note, api_name="cancel_batch", show_progress="hidden")
    resume_pick.select(lambda n: n, resume_pick, run_name, api_visibility="private")
    resume_pick.change(lambda n: gr.update(interactive=bool(n)), resume_pick, resume, api_visibility="private")
    resume.click(lambda: gr.update(visible=False), None, to_results, api_visibility="private")
    resume.click(None, None, None, js=SHOW_PROGRESS_JS, api_visibility="private")
    resume.click(off_pool(on_resume), resume_pick,
                 [out, runs, resume_pick, resume, to_results, progress_bar, finished, cancel_note],
                 show_progress_on=[progress_bar], **model_event(api_name="resume_batch"))
    refresh.click(on_refresh, [presets, models], [presets, models, runs, resume_pick], api_name="list_runs")
    tab.select(on_refresh, [presets, models], [presets, models, runs, resume_pick], api_visibility="private")
    for ev in (refresh.click, tab.select):
        ev(on_unusable, None, unusable, api_visibility="private")
    # "Open the Results tab" is wired by the Results tab (it chooses the finished run there, then opens the tab)
    return {"to_results": to_results, "finished": finished}


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
        said = (f"{done}/{total} answers · {rate:.1f}/s{eta} · {result.errors} errors" if total else
                "planning: reading the presets and finding the answers already in")
        progress((done, max(total, 1)), desc=said, unit="answers")
    return update


register_tab(AppTab("batch", "Batch", order=30, right="probe", build=lambda ctx, tab, built: build(ctx, tab)))
