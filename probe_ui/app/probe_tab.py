"""Probe tab: one image and question, perturbed, asked of several models side by side, answers rated and kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gradio as gr

from probe_ui import live, prompts
from probe_ui.app.cards import rating_choices, render_cards
from probe_ui.app.common import chosen_models, model_choices, shows_errors
from probe_ui.app.context import BASELINES, AppContext
from probe_ui.benchmark_sets import save_item
from probe_ui.images import ImageError
from probe_ui.items import KINDS
from probe_ui.perturb import all_perturbations
from probe_ui.presets import ASSETS_DIR, load_preset
from probe_ui.suites import SUITES, load_item_images

UPLOAD_TYPES = [".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".dcm", ".dicom", ".nii", ".gz", ".ima"]
AUTO = "auto (per kind)"


def asset_names() -> list[str]:
    return sorted(p.name for p in ASSETS_DIR.glob("*.png"))


def build(ctx: AppContext, tab: gr.Tab) -> dict[str, Any]:
    """Lay out the tab; return the item fields other tabs read (the Stress tab stresses this item)."""
    store = ctx.store
    demo_item = _demo_item(ctx) if ctx.demo else None

    images_state = gr.State(list(demo_item["image_ids"]) if demo_item else [])
    upload_state = gr.State(None)  # the last upload's name and bytes, kept in memory only
    with gr.Row():
        with gr.Column(scale=5):
            gr.Markdown("### 1 · Image")
            with gr.Tabs():
                with gr.Tab("Upload"):
                    upload = gr.File(label="PNG, JPEG, TIFF, DICOM or NIfTI", file_types=UPLOAD_TYPES,
                                     elem_id="probe-upload")
                    with gr.Group(visible=False) as window_box:
                        with gr.Row():
                            win_c = gr.Number(label="window centre", value=None)
                            win_w = gr.Number(label="window width", value=None, minimum=0)
                        with gr.Row():
                            frame = gr.Number(label="frame", value=None, precision=0, minimum=0)
                            axis = gr.Dropdown(label="NIfTI axis", choices=[("sagittal", 0), ("coronal", 1),
                                                                            ("axial", 2)], value=None)
                            slice_ = gr.Number(label="slice", value=None, precision=0, minimum=0)
                        reload_btn = gr.Button("Apply window / slice", size="sm")
                with gr.Tab("Bundled images"):
                    gallery = gr.Gallery(value=_thumbnails(), columns=4,
                                         height=260, allow_preview=False, label="click an image to use it")
                with gr.Tab("Preset item"):
                    preset_pick = gr.Dropdown(label="preset", choices=ctx.preset_paths(), value=None)
                    item_pick = gr.Dropdown(label="item", choices=[], value=None)
                    load_item_btn = gr.Button("Load item", size="sm")
            image_view = gr.Image(label="current image (click to place dots or a marker)", type="pil",
                                  format="png", interactive=False, height=340, elem_id="probe-image",
                                  value=demo_item["pil"] if demo_item else None)
            image_info = gr.Markdown(demo_item["info"] if demo_item else "No image yet.", elem_id="probe-image-info")
        with gr.Column(scale=5):
            gr.Markdown("### 2 · Question")
            question = gr.Textbox(label="question", lines=2, elem_id="probe-question",
                                  value=demo_item["question"] if demo_item else "")
            kind = gr.Radio(KINDS, value=demo_item["kind"] if demo_item else "choice", label="kind")
            options = gr.Textbox(label="options, one per line (A, B, C, … in this order)", lines=4,
                                 elem_id="probe-options", value=demo_item["options"] if demo_item else "")
            with gr.Row():
                opt_index = gr.Number(label="option #", value=1, precision=0, minimum=1, scale=1)
                up_btn = gr.Button("↑", size="sm", scale=0, min_width=40)
                down_btn = gr.Button("↓", size="sm", scale=0, min_width=40)
                rm_btn = gr.Button("✕", size="sm", scale=0, min_width=40)
                new_opt = gr.Textbox(label="new option", scale=3)
                add_opt_btn = gr.Button("+ add", size="sm", scale=0, min_width=60)
            with gr.Row():
                answer = gr.Dropdown(label="correct answer", allow_custom_value=True, elem_id="probe-answer",
                                     choices=live.answer_choices(demo_item["kind"], demo_item["options"])
                                     if demo_item else [], value=demo_item["answer"] if demo_item else None)
                category = gr.Textbox(label="category (comma separated)",
                                      value=demo_item["category"] if demo_item else "")

    gr.Markdown("### 3 · Perturbations")
    perts = all_perturbations()
    with gr.Row():
        with gr.Column(scale=4):
            op = gr.Dropdown(label="perturbation", choices=[p.name for p in perts], value="rotate",
                             elem_id="probe-op")
            op_doc = gr.Markdown(_op_doc("rotate"))
            params = gr.Code(label="parameters (JSON; null = default)", language="json", lines=4,
                             value=live.default_parameters("rotate"), elem_id="probe-params")
            with gr.Row():
                new_variant = gr.Checkbox(label="as a new variant (untick to chain onto the last one)", value=True)
                add_step_btn = gr.Button("Add step", variant="secondary", elem_id="probe-add-step")
        with gr.Column(scale=5):
            steps = gr.Dataframe(headers=live.STEP_COLUMNS, datatype=["number", "str", "str"], value=[],
                                 interactive=True, column_count=3, label="steps: one variant per number; "
                                 "steps with the same number are chained in order", elem_id="probe-steps")
            with gr.Row():
                suite = gr.Dropdown(label="suite (adds its variants)", choices=["(none)", *SUITES], value="(none)")
                seed = gr.Number(label="seed", value=0, precision=0)
                include_original = gr.Checkbox(label="include the original", value=True)
            with gr.Row():
                clear_btn = gr.Button("Clear steps", size="sm")
                preview_btn = gr.Button("Preview variants", variant="secondary", elem_id="probe-preview")
    preview_gallery = gr.Gallery(label="variants", columns=4, height=280, format="png", elem_id="probe-variants")
    preview_text = gr.Code(label="exact prompts", language=None, lines=8, elem_id="probe-prompts")

    gr.Markdown("### 4 · Models")
    with gr.Row():
        models = gr.CheckboxGroup(label="models", choices=model_choices(ctx),
                                  value=list(BASELINES[:2]) if ctx.demo else [], elem_id="probe-models", scale=4)
        with gr.Column(scale=2):
            adhoc = gr.Textbox(label="other models (provider/model, comma separated)",
                               placeholder="openai/gpt-4o-mini, ollama/llava", elem_id="probe-adhoc")
            template = gr.Dropdown(label="prompt template", choices=[AUTO, *prompts.TEMPLATES], value=AUTO)
            refresh_models = gr.Button("↻ models", size="sm")
    with gr.Row():
        run_btn = gr.Button("Run", variant="primary", elem_id="probe-run")
        cancel_btn = gr.Button("Cancel", elem_id="probe-cancel")
    run_name = gr.Textbox(label="run", interactive=False, elem_id="probe-run-name")
    cards = gr.HTML(render_cards(None), elem_id="probe-cards")

    gr.Markdown("### 5 · Rate an answer, keep the probe")
    with gr.Row():
        rate_pick = gr.Dropdown(label="answer", choices=[], elem_id="probe-rate-pick", scale=3)
        rating = gr.Radio(["correct", "incorrect", "unsure"], label="your rating", value=None,
                          elem_id="probe-rating", scale=2)
        note = gr.Textbox(label="note", scale=3, elem_id="probe-note")
        rate_btn = gr.Button("Save rating", elem_id="probe-rate", scale=1)
    with gr.Row():
        set_name = gr.Dropdown(label="benchmark set", allow_custom_value=True, elem_id="probe-set-name",
                               choices=[p.stem for p in _sets(ctx)], value=None, scale=3)
        save_btn = gr.Button("Add to benchmark set", elem_id="probe-save", scale=1)
    status = gr.Markdown("", elem_id="probe-status")

    # ---- callbacks: each one calls the library (probe_ui.live, benchmark_sets, store) ---------------------------
    def show(li: Any) -> tuple[Any, ...]:
        store.put_image(li.image)
        windowed = li.format in ("dicom", "nifti")
        return li.image.pil(), live.describe_loaded(li), [li.image.id], gr.update(visible=windowed)

    @shows_errors
    def on_upload(file: str | None, c: float | None, w: float | None, f: float | None, a: int | None,
                  s: float | None, held: dict[str, Any] | None) -> tuple[Any, ...]:
        """A new upload is read into this session's memory and its file deleted; window/slice changes reload
        from memory."""
        keep = gr.update(), gr.update(), gr.update(), gr.update(), gr.update()
        try:
            if file and Path(file).is_file():
                name, data = live.take_upload(file)
                held = {"name": name, "data": data}
            if not held:
                return (*keep[:3], gr.update(visible=False), gr.update(), held)
            window = (c, w) if c is not None and w else None
            li = live.load_upload(held["data"], window=window, frame=_int(f), axis=_int(a), slice=_int(s),
                                  name=held["name"])
        except ImageError as exc:
            # The failed file is dropped; the image already being probed (and everything logged) stays.
            message = f"Cannot use this file: {exc}"
            gr.Warning(message, duration=None)
            return gr.update(), f"**Not loaded.** {_md(message)}", gr.update(), gr.update(), None, None
        return (*show(li), gr.update(), held)

    @shows_errors
    def on_gallery(evt: gr.SelectData) -> tuple[Any, ...]:
        name = asset_names()[evt.index]
        return show(live.load_upload(str(ASSETS_DIR / name)))[:3]

    @shows_errors
    def use_asset(name: str) -> tuple[Any, ...]:
        """API: use a bundled image by file name."""
        if name not in asset_names():
            raise live.ProbeError(f"no bundled image {name!r}; bundled: {', '.join(asset_names())}")
        return show(live.load_upload(str(ASSETS_DIR / name)))[:3]

    @shows_errors
    def on_preset(path: str | None) -> Any:
        if not path:
            return gr.update(choices=[], value=None)
        ids = [it.id for it in load_preset(path).items]
        return gr.update(choices=ids, value=ids[0] if ids else None)

    @shows_errors
    def on_load_item(path: str, item_id: str) -> tuple[Any, ...]:
        if not path or not item_id:
            raise live.ProbeError("choose a preset and one of its items")
        p = load_preset(path)
        it = next((i for i in p.items if i.id == item_id), None)
        if it is None:
            raise live.ProbeError(f"no item {item_id!r} in {path}")
        ims, loaded = load_item_images(it, p.image_roots)
        for im in ims:
            store.put_image(im)
        info = live.describe_loaded(loaded[0]) if loaded else "This item has no image."
        opts = "\n".join(it.options)
        return (ims[0].pil() if ims else None, info, [im.id for im in ims], it.question, it.kind, opts,
                gr.update(choices=live.answer_choices(it.kind, opts), value=it.answer), ", ".join(it.category))

    def on_options(k: str, text: str, current: str | None) -> Any:
        choices = live.answer_choices(k, text)
        return gr.update(choices=choices, value=current if current in choices else None)

    @shows_errors
    def edit(action: str, text: str, index: float | None, new: str) -> tuple[str, str]:
        return live.edit_options(text, action, _int(index), new), ""

    def on_op(name: str) -> tuple[str, str]:
        return _op_doc(name), live.default_parameters(name)

    @shows_errors
    def on_add_step(rows: Any, name: str, params_json: str, new: bool) -> list[list[Any]]:
        return live.add_step(_rows(rows), name, params_json, new)

    @shows_errors
    def on_click(rows: Any, evt: gr.SelectData) -> list[list[Any]]:
        if not isinstance(evt.index, (list, tuple)) or len(evt.index) != 2:
            raise live.ProbeError("the click did not land on the image: click on it again")
        x, y = evt.index
        return live.add_click(_rows(rows), x, y)

    @shows_errors
    def add_point(rows: Any, x: float, y: float) -> list[list[Any]]:
        """API: the same as clicking the image at (x, y)."""
        return live.add_click(_rows(rows), x, y)

    def current_variants(image_ids: list[str], q: str, k: str, opts: str, ans: str | None, cat: str, rows: Any,
                         sd: float | None, st: str | None, orig: bool) -> list[Any]:
        ims = tuple(store.get_image(i) for i in image_ids or [])
        item = live.build_item(q, k, opts, ans, cat, ims)
        return live.make_variants(item, ims, live.parse_steps(_rows(rows)), seed=_int(sd) or 0,
                                  suite=None if st in (None, "", "(none)") else st, include_original=orig)

    @shows_errors
    def on_preview(image_ids: list[str], q: str, k: str, opts: str, ans: str | None, cat: str, rows: Any,
                   sd: float | None, st: str | None, orig: bool, tmpl: str) -> tuple[Any, str]:
        vs = current_variants(image_ids, q, k, opts, ans, cat, rows, sd, st, orig)
        shown = live.preview(vs, None if tmpl == AUTO else tmpl)
        pics = [(im, f"{p['condition']} · answer {p['answer'] or '?'}") for p in shown for im in p["images"]]
        text = "\n\n".join(f"=== {p['condition']} (template {p['template']}, expected {p['answer'] or '?'}) ===\n"
                           f"{p['prompt']}" for p in shown)
        return pics, text

    @shows_errors
    def on_run(image_ids: list[str], q: str, k: str, opts: str, ans: str | None, cat: str, rows: Any,
               sd: float | None, st: str | None, orig: bool, tmpl: str, picked: list[str], other: str) -> Any:
        vs = current_variants(image_ids, q, k, opts, ans, cat, rows, sd, st, orig)
        specs = chosen_models(picked, other)
        if not specs:
            raise live.ProbeError("tick at least one model (the baselines need no key)")
        name = live.live_run_name(vs[0].item_id)
        cancel = ctx.cancel_event(name)
        try:
            for state in live.run_live(store, vs, specs, seed=_int(sd) or 0,
                                       prompt=None if tmpl == AUTO else tmpl,
                                       extra_models=ctx.endpoints.configs(), run_name=name, cancel=cancel):
                yield state.run, render_cards(state), gr.update(choices=rating_choices(state))
        finally:
            ctx.cancels.pop(name, None)

    @shows_errors
    def on_cancel(name: str) -> str:
        if not name:
            return "Nothing is running."
        return (f"Cancelling `{name}`: requests not yet sent are dropped; answers already in are kept."
                if ctx.cancel(name) else f"`{name}` is not running.")

    @shows_errors
    def on_rate(response_id: Any, value: str | None, text: str) -> str:
        if response_id in (None, ""):
            raise live.ProbeError("choose an answer to rate (run the probe first)")
        if not value:
            raise live.ProbeError("choose correct, incorrect or unsure")
        store.rate_response(int(response_id), value, text or "")
        return f"Saved: answer #{int(response_id)} rated **{value}**" + (f" ({_md(text)})" if text else "") + "."

    @shows_errors
    def on_save(image_ids: list[str], q: str, k: str, opts: str, ans: str | None, cat: str, rows: Any,
                st: str | None, name: str) -> tuple[str, Any]:
        ims = tuple(store.get_image(i) for i in image_ids or [])
        item = live.build_item(q, k, opts, ans, cat, ims)
        steps_ = live.parse_steps(_rows(rows))
        path, preset = save_item(ctx.presets_dir, name, item, ims, steps_,
                                 None if st in (None, "", "(none)") else st)
        msg = (f"Saved item `{item.id}` to benchmark set **{_md(preset.name)}** ({len(preset.items)} items): "
               f"`{path}`. Replay it with `probe-ui batch {path} --model …` or from the Batch tab.")
        return msg, gr.update(choices=[p.stem for p in _sets(ctx)], value=preset.name)

    item_fields = [images_state, question, kind, options, answer, category, steps]
    win_inputs = [upload, win_c, win_w, frame, axis, slice_, upload_state]
    upload.upload(on_upload, win_inputs, [image_view, image_info, images_state, window_box, upload, upload_state],
                  api_name="load_image")
    reload_btn.click(on_upload, win_inputs, [image_view, image_info, images_state, window_box, upload, upload_state],
                     api_visibility="private")
    gallery.select(on_gallery, None, [image_view, image_info, images_state], api_visibility="private")
    # A hidden twin of the gallery click so that scripts can pick a bundled image by name.
    asset_name = gr.Textbox(visible=False)
    asset_btn = gr.Button(visible=False)
    asset_btn.click(use_asset, asset_name, [image_view, image_info, images_state], api_name="use_bundled_image")
    preset_pick.change(on_preset, preset_pick, item_pick, api_name="preset_items")
    load_item_btn.click(on_load_item, [preset_pick, item_pick],
                        [image_view, image_info, images_state, question, kind, options, answer, category],
                        api_name="load_preset_item")
    kind.change(on_options, [kind, options, answer], answer, api_visibility="private")
    options.change(on_options, [kind, options, answer], answer, api_visibility="private")
    for btn, action in ((up_btn, "up"), (down_btn, "down"), (rm_btn, "remove"), (add_opt_btn, "add")):
        btn.click(edit, [gr.State(action), options, opt_index, new_opt], [options, new_opt],
                  api_name=f"option_{action}" if action == "add" else None,
                  api_visibility="public" if action == "add" else "private")
    op.change(on_op, op, [op_doc, params], api_name="perturbation_parameters")
    add_step_btn.click(on_add_step, [steps, op, params, new_variant], steps, api_name="add_step")
    image_view.select(on_click, steps, steps, api_visibility="private")
    point_x, point_y = gr.Number(visible=False), gr.Number(visible=False)
    point_btn = gr.Button(visible=False)
    point_btn.click(add_point, [steps, point_x, point_y], steps, api_name="add_point")
    clear_btn.click(lambda: [], None, steps, api_visibility="private")
    preview_btn.click(on_preview, [*item_fields, seed, suite, include_original, template],
                      [preview_gallery, preview_text], api_name="preview")
    def on_refresh(cur: list[str], path: str | None) -> tuple[Any, ...]:
        return gr.update(choices=model_choices(ctx), value=cur), gr.update(choices=ctx.preset_paths(), value=path)

    refresh_models.click(on_refresh, [models, preset_pick], [models, preset_pick], api_visibility="private")
    tab.select(on_refresh, [models, preset_pick], [models, preset_pick], api_visibility="private")
    run_btn.click(on_run, [*item_fields, seed, suite, include_original, template, models, adhoc],
                  [run_name, cards, rate_pick], api_name="run", concurrency_limit=None)
    cancel_btn.click(on_cancel, run_name, status, api_name="cancel_probe")
    rate_btn.click(on_rate, [rate_pick, rating, note], status, api_name="rate")
    save_btn.click(on_save, [*item_fields, suite, set_name], [status, set_name], api_name="add_to_benchmark_set")
    return {"item": item_fields[:6], "run_name": run_name}


def _thumbnails() -> list[tuple[Any, str]]:
    """Small copies of the bundled images for the picker (the full images are loaded on click)."""
    from PIL import Image

    out = []
    for name in asset_names():
        with Image.open(ASSETS_DIR / name) as im:
            im.thumbnail((160, 160))
            out.append((im.convert("RGB"), name))
    return out


def _sets(ctx: AppContext) -> list[Any]:
    from probe_ui.benchmark_sets import list_sets

    return list_sets(ctx.presets_dir)


def _demo_item(ctx: AppContext) -> dict[str, Any]:
    """The first item of the MediConfusion-style preset, loaded, for ``probe-ui --demo``."""
    from probe_ui.presets import PRESETS_DIR

    p = load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")
    it = p.items[0]
    ims, loaded = load_item_images(it, p.image_roots)
    for im in ims:
        ctx.store.put_image(im)
    return {"image_ids": [im.id for im in ims], "pil": ims[0].pil() if ims else None,
            "info": live.describe_loaded(loaded[0]) if loaded else "", "question": it.question, "kind": it.kind,
            "options": "\n".join(it.options), "answer": it.answer, "category": ", ".join(it.category)}


def _op_doc(name: str) -> str:
    from probe_ui.perturb import get

    p = get(name)
    return f"**{p.name}**: {p.summary} *Answer:* {p.answer_effect}"


def _rows(value: Any) -> list[list[Any]]:
    """A Dataframe's value as rows, whatever form it arrives in (pandas, dict from the API, list)."""
    if value is None:
        return []
    if hasattr(value, "values") and hasattr(value, "columns"):
        return [list(r) for r in value.values.tolist()]
    if isinstance(value, dict):
        return [list(r) for r in value.get("data") or []]
    if isinstance(value, str):
        return [list(r) for r in json.loads(value)]
    return [list(r) for r in value]


def _int(x: Any) -> int | None:
    if x is None or x == "":
        return None
    return int(float(x))


def _md(text: str) -> str:
    """User text shown inside Markdown: escaped so it cannot inject markup."""
    from html import escape

    return escape(text).replace("*", "\\*").replace("_", "\\_").replace("`", "\\`").replace("[", "\\[")
