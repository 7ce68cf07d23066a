"""Probe tab: the run bar and the comparison table first, then what is asked (image, question, perturbations).

Top to bottom, as a clinician works: choose models and press Run (the run bar); read the answers in one table,
rows the variants (a thumbnail of the exact image sent and what was done in words), columns the models; click a
cell for the exact prompt, raw reply and settings, rate it in the cell. Below: the image (bundled, a preset item or
an upload), the question and its options, and the perturbations, with controls made from each perturbation's
declared parameters. Every callback calls the library (:mod:`probe_ui.live`, :mod:`probe_ui.views.comparison`,
:mod:`probe_ui.live.sets`, the store); every action has a named API endpoint.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import gradio as gr

from probe_ui import labels, live, prompts
from probe_ui.app import detail, probe_region
from probe_ui.app.access import who
from probe_ui.app.common import (
    Inline,
    answer_format_of,
    chosen_models,
    confidence_tick,
    inline_errors,
    model_menu,
    ready_models,
    seed_of,
    structured_tick,
    unusable_html,
)
from probe_ui.app.context import AppContext
from probe_ui.app.latest import Latest
from probe_ui.app.page_memo import PageMemo
from probe_ui.app.probe_inputs import (
    DISPLAY_PX,
    OWN_WINDOW,
    UPLOAD_LABEL,
    display,
    esc,
    image_thumbs,
    item_note,
    op_doc,
    scale,
    thumbnails,
    window_controls,
    wire_image,
    wire_question,
    wire_steps,
    words,
)
from probe_ui.app.queues import model_event, off_pool
from probe_ui.app.tabs import AppTab, register_tab
from probe_ui.errors import ProbeUIError
from probe_ui.items import KINDS
from probe_ui.live import drafts
from probe_ui.live import form as probe_form
from probe_ui.live.form import FIELDS, ProbeForm, shown_steps
from probe_ui.live.sets import save_item, visible_sets
from probe_ui.perturb import all_perturbations
from probe_ui.presets.suites import SUITES
from probe_ui.providers import all_ready_models
from probe_ui.views import comparison

UPLOAD_TYPES = [".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".dcm", ".dicom", ".nii", ".gz", ".ima"]


AUTO = probe_form.AUTO


AUTO_WORDS = "auto"


AUTO_INFO = "auto: a preset item gets its paper's prompt, verbatim (typos too); your own question a plain one"


AXES = [("sagittal", 0), ("coronal", 1), ("axial", 2)]


DEMO_BANNER = ("<div class='pu-banner' id='probe-demo-banner'><b>Demo:</b> press <b>Run</b> and two baseline "
               "models answer (they need no key). Add a key or start Ollama to add real models; the question, "
               "image and perturbations are below the answers.</div>")


#: answers arriving within this many seconds of each other redraw the table once (probe_ui.live.run_live)
REDRAW_S = 0.25


#: the preset the demo opens on (the first item of it)
DEMO_PRESET = "mediconfusion_pairs"


#: the perturbations the demo opens with
DEMO_STEPS = [[1, "rotate", '{"angle": 180}'], [2, "shuffle", ""]]


NO_IMAGE = "No image yet: pick a bundled image, load a preset item, or upload a file."


WINDOW_CHOICES = [f"{k} {c:g}/{w:g}" for k, (c, w) in live.WINDOW_PRESETS.items()]


#: after Run: the run's messages and the table at the top of the window (the question heads the table)
SCROLL_TO_ANSWERS_JS = """() => {
  const table = document.querySelector('#probe-table');
  if (table) table.scrollIntoView({block: 'start', behavior: 'instant'});
  setTimeout(() => {  // a message that the run could not start (no model ticked, no question) comes into view
    const err = document.querySelector('#probe-run-msg .pu-msg-error');
    if (err) err.scrollIntoView({block: 'nearest', behavior: 'instant'});
  }, 1500);
}"""


#: presenter mode: large type, for the back of a room (a class on the page; the page's CSS does the rest)
PRESENTER_JS = "(on) => { document.body.classList.toggle('pu-presenter', !!on); }"


#: what the page does when a click on the image box misses the picture: say so next to it
CLICK_JS = """
() => {
  document.addEventListener('click', (e) => {
    const box = document.querySelector('#probe-image');
    const hint = document.querySelector('#probe-click-hint');
    if (!box || !hint || !box.contains(e.target)) return;
    const img = box.querySelector('img');
    const onImage = img && (e.target === img);
    hint.textContent = onImage ? '' : (img ? 'That click was outside the picture: click on the image itself ' +
      'to place a dot or a marker.' : 'Choose an image first.');
  }, true);
}
"""


def build(ctx: AppContext, tab: gr.Tab) -> dict[str, Any]:
    """Lay out the tab and wire it; return what other tabs and the page read (the form's fields, the models, the
    rater, this person's lists, the draft's restore)."""
    ui = SimpleNamespace(demo=_demo_item(ctx) if ctx.demo else None, menu=model_menu(ctx), thumbs=image_thumbs(ctx),
                         page=PageMemo(presenter=ctx.demo))
    _run_bar(ctx, ui)
    _answers(ctx, ui)
    gr.Markdown("### What is asked")
    with gr.Row():
        with gr.Column(scale=5):
            _image_section(ctx, ui)
        with gr.Column(scale=5):
            _question_section(ui)
    _perturbation_section(ui)
    _keep_section(ui)
    ui.form = [ui.images_state, ui.question, ui.kind, ui.options, ui.answer, ui.category, ui.extra_state, ui.steps,
               ui.seed, ui.suites, ui.include_original]  # in probe_ui.live.form.FIELDS order
    wire_image(ctx, ui)
    wire_question(ui)
    wire_steps(ctx, ui)
    _wire_run(ctx, ui)
    _wire_keep(ctx, ui)
    refresh_io = _wire_lists(ctx, tab, ui)
    _wire_fresh(ctx, ui)
    restore = _wire_draft(ctx, ui)
    return {"item": ui.form[:7], "form": ui.form, "models": ui.models, "adhoc": ui.adhoc, "rater": ui.rater,
            "refresh": (refresh_io[0], *refresh_io[1:]), "restore": restore, "presenter": ui.presenter}


def _run_bar(ctx: AppContext, ui: Any) -> None:
    """Models, Run and Cancel, the prompt and the rater's name: the first thing on the page."""
    if ctx.demo:
        gr.HTML(DEMO_BANNER)
    with gr.Group(elem_id="probe-runbar"):
        with gr.Row():  # not of equal height: the model list takes the room its ticks need, no more
            ui.models = gr.CheckboxGroup(label="models that answer", choices=ready_models(ui.menu),
                                         value=all_ready_models()[:2] if ctx.demo else [], elem_id="probe-models",
                                         scale=6)
            with gr.Column(scale=2, min_width=220):
                ui.run_btn = gr.Button("▶ Run", variant="primary", elem_id="probe-run", size="lg")
                ui.cancel_btn = gr.Button("■ Cancel", elem_id="probe-cancel", size="sm")
        ui.unusable = gr.HTML(unusable_html(ui.menu), elem_id="probe-unusable")
        with gr.Row():
            ui.template = gr.Dropdown(label="prompt", choices=[(AUTO_WORDS, AUTO), *prompts.TEMPLATES], value=AUTO,
                                      elem_id="probe-template", min_width=200, info=AUTO_INFO)
            ui.rater = gr.Textbox(label="your name, for your ratings", placeholder="e.g. Dr Lee",
                                  elem_id="probe-rater", max_lines=1, min_width=200,
                                  info="kept in this browser; with a login, the login name counts")
            with gr.Column(min_width=200):
                ui.presenter = gr.Checkbox(label="presenter mode: large type for a projector", value=ctx.demo,
                                           elem_id="probe-presenter")
                ui.structured = structured_tick("probe-structured")
                ui.confident = confidence_tick("probe-confidence")
                ui.start_over = gr.Button("Start over (empty form)", size="sm", elem_id="probe-start-over")
        with gr.Accordion("another model by name (provider/model)", open=False) as ui.adhoc_box:
            ui.adhoc = gr.Textbox(label="models, comma separated", placeholder="openai/gpt-4o-mini, ollama/llava",
                                  elem_id="probe-adhoc", show_label=False)


def _answers(ctx: AppContext, ui: Any) -> None:
    """The messages of a run, the comparison table, the run's name and the detail of a clicked answer."""
    ui.run_msg = gr.HTML("", elem_id="probe-run-msg")
    ui.ticks_note = gr.HTML("", elem_id="probe-ticks-note")  # models ticked since the run in the table was asked
    ui.draft_msg = gr.HTML("", elem_id="probe-draft-msg")
    ui.table = gr.HTML(value=_empty_table(ctx), html_template="${value.html}", js_on_load=comparison.JS,
                       elem_id="probe-table")
    ui.run_name = gr.Textbox(label="this run's name (find it in the Results tab; probe-ui score --run NAME)",
                             interactive=False, elem_id="probe-run-name", max_lines=1)
    ui.detail = detail.build("probe")


def _image_section(ctx: AppContext, ui: Any) -> None:
    """The image: bundled, a preset item or an upload; its window and slice for DICOM and NIfTI."""
    demo = ui.demo
    ui.images_state = gr.State(list(demo.images_ids) if demo else [])
    ui.upload_state = gr.State(None)  # the last upload's name and bytes, in this session's memory only
    ui.extra_state = gr.State(dict(demo.extra) if demo else {})  # a preset item's attributes, tags, group
    ui.scale_state = gr.State(scale(demo.images[0]) if demo and demo.images else 1.0)
    with gr.Tabs(selected="bundled"):
        with gr.Tab("Bundled or preset", id="bundled"):  # short: both tabs' names fit a projector's width
            ui.gallery = gr.Gallery(value=thumbnails(), columns=5, height=330, allow_preview=False,
                                    label="click a bundled image to use it", elem_id="probe-gallery")
            with gr.Row():
                # wide enough for a preset's and an item's name: on a narrow screen they go one under the other
                ui.preset_pick = gr.Dropdown(label="or a preset item: preset", choices=ctx.preset_paths(""),
                                             value=DEMO_PRESET if demo else None, elem_id="probe-preset",
                                             scale=3, allow_custom_value=True, min_width=230)
                ui.item_pick = gr.Dropdown(label="item", choices=live.preset_item_ids(demo.path) if demo else [],
                                           value=demo.item.id if demo else None, elem_id="probe-item",
                                           scale=3, allow_custom_value=True, min_width=230)
                ui.load_item_btn = gr.Button("Load item", elem_id="probe-load-item", scale=1)
            ui.load_note = gr.HTML("<p class='pu-note'>Loading an item replaces the question, the options and "
                                   "the steps with the item's own.</p>", elem_id="probe-load-note")
        with gr.Tab("Upload", id="upload"):
            ui.upload = gr.File(label=UPLOAD_LABEL, file_types=UPLOAD_TYPES, elem_id="probe-upload")
    ui.image_view = gr.Image(label="the image (click to place dots or a marker, or to draw the finding's region)",
                             type="pil", format="png",
                             interactive=False, height=DISPLAY_PX, elem_id="probe-image",
                             value=display(demo.images[0])[0] if demo and demo.images else None)
    ui.click_hint = gr.HTML("", elem_id="probe-click-hint")
    probe_region.build(ui)
    ui.image_info = gr.Markdown(demo.info if demo else NO_IMAGE, elem_id="probe-image-info")
    with gr.Group(visible=False, elem_id="probe-window") as ui.window_box:
        with gr.Row():
            ui.win_preset = gr.Dropdown(label="window preset", value=OWN_WINDOW,
                                        elem_id="probe-win-preset", choices=[OWN_WINDOW, *WINDOW_CHOICES])
            ui.win_c = gr.Number(label="window centre", value=None, elem_id="probe-win-c")
            ui.win_w = gr.Number(label="window width", value=None, minimum=0, elem_id="probe-win-w")
            ui.frame = gr.Number(label="frame", value=None, precision=0, minimum=0, elem_id="probe-frame")
        with gr.Row(visible=False) as ui.nifti_box:
            ui.axis = gr.Dropdown(label="NIfTI plane", choices=AXES, value=None, elem_id="probe-axis")
            ui.slice_ = gr.Number(label="slice", value=None, precision=0, minimum=0, elem_id="probe-slice")
        ui.reload_btn = gr.Button("Apply window / slice", size="sm", elem_id="probe-apply-window")
    ui.image_msg = gr.HTML("", elem_id="probe-image-msg")


def _question_section(ui: Any) -> None:
    """The question, the kind of answer, the options (with buttons to reorder them) and the correct answer."""
    demo = ui.demo
    ui.question = gr.Textbox(label="question", lines=2, elem_id="probe-question",
                             value=demo.item.question if demo else "")
    ui.kind = gr.Radio(KINDS, value=demo.item.kind if demo else "choice", label="kind of answer",
                       elem_id="probe-kind")
    ui.options = gr.Textbox(label="options, one per line (shown as A, B, C, … in this order)", lines=4,
                            elem_id="probe-options", value=demo.options_text if demo else "")
    with gr.Row():
        ui.opt_index = gr.Number(label="option #", value=1, precision=0, minimum=1, scale=1)
        ui.up_btn = gr.Button("↑", size="sm", scale=0, min_width=40)
        ui.down_btn = gr.Button("↓", size="sm", scale=0, min_width=40)
        ui.rm_btn = gr.Button("✕", size="sm", scale=0, min_width=40)
        ui.new_opt = gr.Textbox(label="new option", scale=3)
        ui.add_opt_btn = gr.Button("+ add", size="sm", scale=0, min_width=60)
    with gr.Row():
        ui.answer = gr.Dropdown(label="correct answer", allow_custom_value=True, elem_id="probe-answer",
                                choices=live.answer_choices(demo.item.kind, demo.options_text) if demo else [],
                                value=demo.item.answer if demo else None)
        ui.category = gr.Textbox(label="category (comma separated)", elem_id="probe-category",
                                 value=", ".join(demo.item.category) if demo else "")
    ui.item_note = gr.HTML(item_note(demo) if demo else "", elem_id="probe-item-note")
    ui.question_msg = gr.HTML("", elem_id="probe-question-msg")


def _perturbation_section(ui: Any) -> None:
    """A perturbation with controls made from its declared parameters, the steps, suites and seed."""
    demo = ui.demo
    gr.Markdown("### Perturbations")
    with gr.Row():
        with gr.Column(scale=4):
            ui.op = gr.Dropdown(label="perturbation", value="rotate", elem_id="probe-op",
                                choices=labels.choices([p.name for p in all_perturbations()]))
            ui.op_doc = gr.Markdown(op_doc("rotate"), elem_id="probe-op-doc")
            ui.controls = gr.Column()
            with gr.Accordion("advanced: parameters as JSON (used when filled in)", open=False):
                ui.params = gr.Code(label="parameters (JSON; null = default)", language="json", lines=3,
                                    value="", elem_id="probe-params")
            with gr.Row():
                ui.new_variant = gr.Checkbox(label="as a new variant (untick to chain onto the last one)",
                                             value=True, elem_id="probe-new-variant")
                ui.add_step_btn = gr.Button("Add step", variant="secondary", elem_id="probe-add-step")
        with gr.Column(scale=5):
            ui.steps = gr.Dataframe(headers=live.STEP_COLUMNS, datatype=["number", "str", "str"],
                                    value=shown_steps(demo.steps) if demo else [], interactive=True,
                                    column_count=3, elem_id="probe-steps",
                                    label="steps: one variant per number; steps with the same number are chained "
                                          "in order (parameters left empty: the defaults)")
            ui.steps_words = gr.HTML(words(live.steps_in_words(demo.steps)) if demo else "",
                                     elem_id="probe-steps-words")
            with gr.Row():
                ui.suites = gr.Dropdown(label="suites (each adds its variants)", multiselect=True,
                                        choices=labels.choices(list(SUITES), kind="suite"),
                                        value=list(demo.suites) if demo else [], elem_id="probe-suites")
                ui.seed = gr.Number(label="seed", value=0, precision=0, elem_id="probe-seed")
                ui.include_original = gr.Checkbox(label="ask the original too", elem_id="probe-original",
                                                  value=demo.include_original if demo else True)
            with gr.Row():
                ui.clear_btn = gr.Button("Clear steps", size="sm")
                ui.preview_btn = gr.Button("Preview the variants (no model asked)", variant="secondary",
                                           elem_id="probe-preview")
            ui.steps_msg = gr.HTML("", elem_id="probe-steps-msg")
    with gr.Accordion("the exact prompts of the variants", open=False):
        ui.preview_text = gr.Code(label="exact prompts", language=None, lines=8, elem_id="probe-prompts")


def _keep_section(ui: Any) -> None:
    gr.Markdown("### Keep the probe")
    with gr.Row():
        ui.set_name = gr.Dropdown(label="benchmark set", allow_custom_value=True, elem_id="probe-set-name",
                                  choices=[], value=None, scale=3,
                                  info="a name of letters, digits, '-' or '_'; saved as a preset that batch replays")
        ui.set_shared = gr.Checkbox(label="share the set with everyone using this app", value=False, scale=1,
                                    elem_id="probe-set-shared", info="others can replay it, not change it")
        ui.save_btn = gr.Button("Add to benchmark set", elem_id="probe-save", scale=1)
    ui.save_msg = gr.HTML("", elem_id="probe-save-msg")


#: the fields a benchmark set keeps (the seed and "ask the original" belong to a run, not to the item)
SAVED = ("image_ids", "question", "kind", "options", "answer", "category", "extra", "steps", "suites")


def _form(values: tuple[Any, ...] | list[Any]) -> ProbeForm:
    """The Probe form from the page's values (``ui.form`` order), its seed checked."""
    return ProbeForm.from_values(values, seed=seed_of(values[FIELDS.index("seed")]))


def _wire_run(ctx: AppContext, ui: Any) -> None:
    """Preview, Run and Cancel: the table fills as answers arrive; a click on a cell opens its detail."""
    store, thumbs = ctx.store, ui.thumbs

    def per_table(request: gr.Request) -> int:
        """The model columns of one table on this page: fewer in presenter mode (large type)."""
        return comparison.models_per_table(ui.page.get(who(ctx, request).owner, request).presenter)

    def table_value(t: comparison.Table, run: str, per: int, **kw: Any) -> dict[str, Any]:
        return {"html": comparison.render(t, thumbs, models_per_table=per, **kw), "run": run, "per_table": per}

    @inline_errors(ui.steps_msg)
    def on_preview(request: gr.Request, *values: Any) -> tuple[Any, str, str]:
        *fields, tmpl, picked, other, _structured, _confident = values
        form = _form(fields)
        vs = form.variants(store)
        thumbs.remember(vs)
        shown = live.preview(vs, probe_form.template(tmpl, form))
        text = "\n\n".join(f"=== {p['label']} (template {p['template']}, correct {p['answer'] or '?'}) ===\n"
                           f"{p['prompt']}" for p in shown)
        t = comparison.Table("", [comparison.row_for_variant(v) for v in vs], chosen_models(picked, other),
                             question=vs[0].question if vs else "")
        return table_value(t, "", per_table(request), rate=False), text, ""

    latest = Latest()  # the newest run of each page: an older one's answers are stored, never drawn over it

    @inline_errors(ui.run_msg, {"question": ui.question, "options": ui.options, "answer": ui.answer,
                                "models": ui.models})
    def on_run(request: gr.Request, *values: Any) -> Any:
        *fields, tmpl, picked, other, json_tick, conf_tick = values
        ticket = latest.begin(request, "run")
        caller = who(ctx, request)
        specs = chosen_models(picked, other)
        if not specs:
            raise live.ProbeError("tick at least one model above (the baselines need no key)", field="models")
        form = _form(fields)
        vs = form.variants(store)
        thumbs.remember(vs)
        name = probe_form.run_name(vs)
        cancel = ctx.cancel_event(name, caller.owner)
        before = ui.page.get(caller.owner, request).run  # the run the table showed: its ratings may carry over
        page = ui.page.update(caller.owner, request, run=name)  # the run the table shows from now on
        per = comparison.models_per_table(page.presenter)
        # beside the table, as it starts: the answers will not be marked
        said = Inline.error(warning) if (warning := probe_form.no_answer_warning(form)) else ""  # it escapes
        # the first table of this run closes the detail of the answer shown before (detail.cleared) in the same
        # stream, never in a listener of its own: under load such a listener ran after the run's last table, and
        # closed the detail of an answer of this run that the person had just opened
        detail_update = detail.cleared()
        # the fields an earlier error marked are cleared once, with the first table: an update that carries no
        # value makes Gradio's page copy the field's properties, at every redraw of the table
        unmark = (gr.update(elem_classes=[]),) * 4
        try:
            for state, _ in probe_form.run(store, form, specs, variants=vs, run_name=name, cancel=cancel,
                                           template=probe_form.template(tmpl, form), user=caller.name,
                                           answer_format=answer_format_of(json_tick, conf_tick),
                                           extra_models=ctx.endpoints.usable(caller.owner, specs,
                                                                             admin=caller.can("any_host")),
                                           coalesce_s=REDRAW_S, spend=ctx.spend_cap(caller.name, caller.signed_in)):
                if not latest.is_current(request, "run", ticket):
                    return  # a newer run took the table; this one's answers are still stored
                if state.spend_line:  # the user's spending limit stopped calls: one line beside Run
                    said += Inline.error(state.spend_line)
                t = comparison.from_live(state, vs, live.ratings_of(store, state.run))
                yield (table_value(t, state.run, per), state.run, said, *unmark, *detail_update)
                unmark = (gr.update(),) * 4
                detail_update = (gr.update(),) * len(ui.detail.outputs)  # an answer opened since stays open
            if not (state.finished and latest.is_current(request, "run", ticket)):
                return
            # asked again (one more model, say): the ratings this person gave the run before go with the same answers
            rater = detail.rater_of(ctx, page.rater, request)
            carried = probe_form.carried_words(*live.carry_ratings(store, before, name, rater.name, rater.verified),
                                               before)
            if carried:
                t = comparison.from_live(state, vs, live.ratings_of(store, state.run))
                yield (table_value(t, state.run, per), state.run, said + Inline.note(esc(carried)), *unmark,
                       *detail_update)
        finally:
            ctx.finished(name, cancel)

    @inline_errors(ui.run_msg)
    def on_cancel(name: str, request: gr.Request) -> str:
        if not name:
            return Inline.note("Nothing is running.")
        caller = who(ctx, request)
        stopped = ctx.cancel(name, caller.owner, anyone=caller.can("cancel_any"))
        return Inline.note(f"Cancelling {esc(name)}: requests not yet sent are dropped; answers already in are kept."
                           if stopped else f"{esc(name)} is not running, or is not yours to cancel.")

    asked = [*ui.form, ui.template, ui.models, ui.adhoc, ui.structured, ui.confident]
    ui.preview_btn.click(on_preview, asked, [ui.table, ui.preview_text, ui.steps_msg], api_name="preview")
    ui.run_btn.click(off_pool(on_run), asked,
                     [ui.table, ui.run_name, ui.run_msg, ui.question, ui.options, ui.answer, ui.models,
                      *ui.detail.outputs], **model_event(api_name="run"))
    # the answers come into view at once: the run's messages and the table at the top of the window
    ui.run_btn.click(None, None, None, js=SCROLL_TO_ANSWERS_JS, api_visibility="private")
    ui.cancel_btn.click(on_cancel, ui.run_name, ui.run_msg, api_name="cancel_probe")
    ui.presenter.change(None, ui.presenter, None, js=PRESENTER_JS, api_visibility="private")

    def on_presenter(on: bool, value: dict[str, Any] | None, request: gr.Request) -> Any:
        """Presenter mode, remembered for this page; a run's table is drawn again with its columns for it."""
        ui.page.update(who(ctx, request).owner, request, presenter=bool(on))
        run = (value or {}).get("run") or ""
        per = comparison.models_per_table(bool(on))
        return detail.table_value(ctx, run, thumbs, models_per_table=per) if run else gr.skip()

    def on_rater(name: str, request: gr.Request) -> None:
        ui.page.update(who(ctx, request).owner, request, rater=str(name or ""))

    ui.presenter.change(on_presenter, [ui.presenter, ui.table], ui.table, api_visibility="private")
    ui.rater.change(on_rater, ui.rater, None, api_visibility="private")
    detail.wire(ctx, ui.detail, ui.table, thumbs, ui.rater, models_per_table=comparison.MODELS_PER_TABLE)


def _wire_keep(ctx: AppContext, ui: Any) -> None:
    """Add the probe to a benchmark set of one's own."""
    store = ctx.store

    @inline_errors(ui.save_msg, {"set_name": ui.set_name})
    def on_save(request: gr.Request, *values: Any) -> tuple[Any, ...]:
        *fields, name, share = values
        caller = who(ctx, request)
        if not (name or "").strip():
            raise live.ProbeError("type a name for the benchmark set, e.g. chest-ct-probes", field="set_name")
        form = ProbeForm.from_values(dict(zip(SAVED, fields)))
        item, ims = form.item(store)
        _path, preset = save_item(ctx.presets_dir, name, item, ims, form.parsed_steps(), list(form.suites),
                                  user=caller.name, admin=caller.can("manage_sets"), share=bool(share))
        whose = "shared with everyone using this app" if share else "yours alone"
        n = len(preset.items)
        msg = Inline.note(f"Saved item {esc(item.id)} to benchmark set {esc(preset.name)} ({n} item"
                          f"{'s' if n != 1 else ''}, {whose}). Replay it from the Batch tab (set:"
                          f"{esc(preset.name)}) or with probe-ui batch.")
        return msg, gr.update(choices=_own_sets(ctx, caller.name), value=preset.name, elem_classes=[])

    saved = [ui.form[FIELDS.index(f)] for f in SAVED]
    ui.save_btn.click(on_save, [*saved, ui.set_name, ui.set_shared], [ui.save_msg, ui.set_name],
                      api_name="add_to_benchmark_set")


def _wire_lists(ctx: AppContext, tab: gr.Tab, ui: Any) -> tuple[Any, ...]:
    """This person's lists (models, presets, sets), read again when the tab is shown; returns the refresh
    function with its inputs and outputs, which the page also runs as it loads."""
    def on_refresh(cur: list[str], set_pick: str | None, request: gr.Request) -> tuple[Any, ...]:
        """This person's lists: the models they may pick (their own endpoints too), presets and sets."""
        caller = who(ctx, request)
        fresh = model_menu(ctx, caller.owner)
        ready = ready_models(fresh)
        return (gr.update(choices=ready, value=[m for m in cur or [] if m in ready]), unusable_html(fresh),
                gr.update(choices=ctx.preset_paths(caller.name)),  # no value: a change event would reload items
                gr.update(choices=_own_sets(ctx, caller.name), value=set_pick))

    def on_set_pick(name: str | None, request: gr.Request) -> Any:
        """A set of one's own, picked: the share box shows whether it is shared."""
        from probe_ui.live.sets import set_owner

        path = ctx.presets_dir / f"{(name or '').strip()}.yaml"
        owner, shared = set_owner(path) if name and path.is_file() else (None, False)
        return gr.update(value=shared) if owner == who(ctx, request).name else gr.update()

    refresh_in, refresh_out = [ui.models, ui.set_name], [ui.models, ui.unusable, ui.preset_pick, ui.set_name]
    tab.select(on_refresh, refresh_in, refresh_out, api_visibility="private")
    ui.set_name.select(on_set_pick, ui.set_name, ui.set_shared, api_visibility="private")
    return on_refresh, refresh_in, refresh_out


def _wire_fresh(ctx: AppContext, ui: Any) -> None:
    """Nothing stale: what the table and the detail below it describe changes with the run, image and item."""
    store, d = ctx.store, ui.detail

    def on_ticks(picked: list[str], other: str, value: dict[str, Any] | None) -> str:
        missing = live.not_yet_run(store, (value or {}).get("run") or "", chosen_models(picked, other))
        if not missing:
            return ""
        return Inline.note(f"Not yet run: {esc(', '.join(missing))} (ticked after the run in the table was asked); "
                           "press Run to ask {}.".format("them" if len(missing) > 1 else "it"))

    def on_new_picture(value: dict[str, Any] | None, images: list[str] | None) -> tuple[Any, ...]:
        """A new image or item: a preview of the old one is gone; a run's answers stay, named, with a note (none
        when the run was asked about this very image: a draft brought back with its run)."""
        run = (value or {}).get("run") or ""
        if not run:
            return _empty_table(ctx), "", ""
        if live.asked_about(store, run, images or []):
            return gr.update(), "", ""
        return gr.update(), "", Inline.note(f"The table shows run {esc(run)}, asked before this image or item "
                                            "was chosen: press Run to ask about it.")

    # the note is a hint beside the boxes, never dimmed while it is worked out (show_progress hidden): a tick's event
    # that Gradio's page left marked as running (its count of running events per output) dimmed the note for good,
    # and held the accessibility check of the answers for a minute, twice in one CI run (stop 91)
    for ticks in (ui.models.change, ui.adhoc.change):
        ticks(on_ticks, [ui.models, ui.adhoc, ui.table], ui.ticks_note, show_progress="hidden",
              api_visibility="private")
    # a new run asks what is ticked: the note goes in the browser, with no event of the server's to wait for (a server
    # event here, finishing in the same instant as Run's first ones, was once left drawn as pending for a minute on a
    # loaded CI machine)
    ui.run_btn.click(None, None, ui.ticks_note, js="() => ''", api_visibility="private")
    # the images asked changed (upload, bundled image, preset item, another window or slice), or a new item
    picture_changes = [ui.images_state.change, ui.load_item_btn.click]
    gr.on(picture_changes, detail.cleared, None, d.outputs, api_visibility="private")  # a run: on_run's first table
    gr.on(picture_changes, on_new_picture, [ui.table, ui.images_state], [ui.table, ui.preview_text, ui.run_msg],
          api_visibility="private")


def _wire_draft(ctx: AppContext, ui: Any) -> tuple[Any, ...]:
    """The form kept in this browser as it changes (:mod:`probe_ui.live.drafts`), restored when the page loads, and
    Start over. Returns the restore function with its inputs and outputs, which the page runs as it loads."""
    store = ctx.store
    draft = gr.BrowserState(None, storage_key="probe-ui-draft")
    # the Start-over generation: a draft write sent before Start over and landing after it is not brought back
    generation = gr.BrowserState("", storage_key="probe-ui-draft-generation")
    kept = [*ui.form, ui.models, ui.adhoc, ui.run_name, ui.presenter]

    def on_change(request: gr.Request, *values: Any) -> Any:
        *fields, picked, other, run, presenter, gen = values
        try:
            form = _form(fields)
        except ProbeUIError:  # a seed being typed: the draft keeps what it had
            return gr.skip()
        return drafts.pack(form, picked, other, who(ctx, request).name, run=run or "", presenter=bool(presenter),
                           generation=str(gen or ""))

    restore_out = [*ui.image_outputs, ui.question, ui.kind, ui.options, ui.answer, ui.category, ui.extra_state,
                   ui.suites, ui.include_original, ui.seed, ui.models, ui.adhoc, ui.draft_msg, ui.table,
                   ui.run_name, ui.presenter, ui.adhoc_box]

    def restore(data: Any, gen: Any, request: gr.Request) -> tuple[Any, ...]:
        caller = who(ctx, request)
        back = drafts.unpack(data, caller.name, store, generation=str(gen or ""))
        if back is None:
            return (gr.skip(),) * len(restore_out)
        page = ui.page.update(caller.owner, request, run=back.run, presenter=ui.page.default.presenter
                              if back.presenter is None else back.presenter)
        per = comparison.models_per_table(page.presenter)
        # the last probe's table comes back with the form: a reload mid-demo loses neither (issue 51, U31)
        table = detail.table_value(ctx, back.run, ui.thumbs, models_per_table=per) if back.run else gr.skip()
        f = back.form
        ims = f.images(store)
        pic, factor = display(ims[0]) if ims else (None, 1.0)
        info = (f"{ims[0].width}×{ims[0].height} · image {ims[0].id[:12]} (from your draft)" if ims else NO_IMAGE)
        note = Inline.note("Your draft was brought back: the form as you left it. " + esc(back.note)
                           + " <i>Start over</i> empties it.")
        ready = set(ready_models(model_menu(ctx, caller.owner)))
        return (pic, info, list(f.image_ids), factor, shown_steps([list(r) for r in f.steps]),
                words(live.steps_in_words([list(r) for r in f.steps])), "",
                *window_controls(live.ImageControls("none")),
                f.question, f.kind, f.options,
                gr.update(choices=live.answer_choices(f.kind, f.options), value=f.answer), f.category, f.extra,
                list(f.suites), f.include_original, f.seed,
                gr.update(value=[m for m in back.models if m in ready]), back.adhoc, note, table,
                back.run or gr.skip(), page.presenter, gr.update(open=True) if back.adhoc else gr.skip())

    def start_over(request: gr.Request) -> tuple[Any, ...]:
        empty = ProbeForm()
        ui.page.update(who(ctx, request).owner, request, run="")
        return (None, NO_IMAGE, [], 1.0, [], "", "", *window_controls(live.ImageControls("none")),
                empty.question, empty.kind, empty.options, gr.update(choices=[], value=None), "", {}, [], True, 0,
                gr.update(value=[]), "", Inline.note("Started over: the form is empty."), _empty_table(ctx), "",
                gr.skip(), gr.skip(), None, drafts.new_generation())

    gr.on([c.change for c in kept if hasattr(c, "change")], on_change, [*kept, generation], draft,
          api_visibility="private", trigger_mode="always_last")
    ui.start_over.click(start_over, None, [*restore_out, draft, generation], api_visibility="private")
    return restore, [draft, generation], restore_out


def _empty_table(ctx: AppContext) -> dict[str, Any]:
    return {"html": comparison.render(comparison.Table(""), empty=_empty_text(ctx)), "run": ""}


def _empty_text(ctx: AppContext) -> str:
    if ctx.demo:
        return "No answers yet: press Run above; the two baselines answer at once."
    return "No answers yet: choose an image and a question below, tick models above and press Run."


def _own_sets(ctx: AppContext, user: str) -> list[str]:
    """The names of the benchmark sets ``user`` may add to (their own)."""
    from probe_ui.live.sets import may_write

    return [p.stem for p, how in visible_sets(ctx.presets_dir, user) if how == "yours" or may_write(p, user)]


def _demo_item(ctx: AppContext) -> Any:
    """The first item of the MediConfusion-style preset, loaded whole, for ``probe-ui --demo``."""
    from probe_ui.presets import PRESETS_DIR

    path = str(PRESETS_DIR / f"{DEMO_PRESET}.yaml")
    it = live.load_preset_item(path, live.preset_item_ids(path)[0])
    for im in it.images:
        ctx.store.put_image(im)
    it.steps = DEMO_STEPS + it.steps  # something to compare: the image upside down, the options reordered
    it.images_ids = [im.id for im in it.images]  # type: ignore[attr-defined]
    it.info = live.describe_loaded(it.loaded[0]) if it.loaded else ""  # type: ignore[attr-defined]
    it.path = path  # type: ignore[attr-defined]
    return it


register_tab(AppTab("probe", "Probe", order=10, right="probe", build=lambda ctx, tab, built: build(ctx, tab)))
