"""The Probe tab's inputs: the image (bundled, uploaded or a preset item; its window and slice), the question
and its options, and the chain of perturbation steps, each event calling the library (:mod:`probe_ui.live`,
:mod:`probe_ui.live.form`); laid out by :mod:`probe_ui.app.probe_tab`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gradio as gr

from probe_ui import labels, live
from probe_ui.app import probe_region
from probe_ui.app.access import who
from probe_ui.app.common import (
    Inline,
    inline_errors,
    to_int,
)
from probe_ui.app.context import AppContext
from probe_ui.images import ImageError
from probe_ui.kept import Kept
from probe_ui.live.form import shown_steps, step_rows
from probe_ui.presets import ASSETS_DIR
from probe_ui.views import comparison

UPLOAD_LABEL = "PNG, JPEG, TIFF, DICOM or NIfTI"


OWN_WINDOW = "as loaded"  # the line under the image says which window that is


#: the long side of the image as shown: small images are scaled up so a click can land on them
DISPLAY_PX = 480


def asset_names() -> list[str]:
    return sorted(p.name for p in ASSETS_DIR.glob("*.png"))


def _window_outputs(ui: Any) -> list[Any]:
    return [ui.window_box, ui.nifti_box, ui.win_preset, ui.win_c, ui.win_w, ui.frame, ui.axis, ui.slice_]


def window_controls(ctl: live.ImageControls) -> list[Any]:
    c, w = ctl.window or (None, None)
    return [gr.update(visible=ctl.windowed), gr.update(visible=ctl.format == "nifti"),
            gr.update(value=OWN_WINDOW), gr.update(value=c), gr.update(value=w),
            gr.update(value=ctl.frame), gr.update(value=ctl.axis), gr.update(value=ctl.slice)]


def wire_image(ctx: AppContext, ui: Any) -> None:
    """A bundled image, an upload, a preset item, another window or slice: the image shown and asked."""
    store = ctx.store
    ui.image_outputs = [ui.image_view, ui.image_info, ui.images_state, ui.scale_state, ui.steps, ui.steps_words,
                        ui.image_msg, *_window_outputs(ui)]

    def new_image(li: Any, ctl: live.ImageControls, rows: Any) -> list[Any]:
        """A new image: its own defaults; steps placed on the old image's pixels are dropped, and the page says so."""
        store.put_image(li.image)
        kept, dropped = live.steps_without_points(step_rows(rows))
        pic, factor = display(li.image)
        msg = (f"<div class='pu-note'>New image: removed {', '.join(dropped)}, which had points on the previous "
               "image.</div>") if dropped else ""
        return [pic, live.describe_loaded(li), [li.image.id], factor, shown_steps(kept),
                words(live.steps_in_words(kept)), msg, *window_controls(ctl)]

    @inline_errors(ui.image_msg)
    def on_upload(file: str | None, rows: Any) -> tuple[Any, ...]:
        """A new upload is read into this session's memory and its file deleted (a DICOM header never stays in
        the upload cache); it starts from its own window, frame and slice."""
        if not file or not Path(file).is_file():
            return (gr.update(),) * (len(ui.image_outputs) + 2)
        try:
            name, data = live.take_upload(file)
            li, ctl = live.load_new_image(data, name)
        except ImageError as exc:  # the failed file is dropped; the image being probed and the log stay
            return (*(gr.update(),) * 6, Inline.error(f"Not loaded: {exc}"),
                    *(gr.update(),) * len(_window_outputs(ui)), gr.update(), None)
        # the upload box is emptied (the file was read into memory and deleted from the server); its label and
        # the line under the image name the file, so that the person sees which one is being probed
        shown = new_image(li, ctl, rows)
        shown[1] = live.describe_loaded(li, name=name)
        return (*shown, {"name": name, "data": data},
                gr.update(value=None, label=f"{UPLOAD_LABEL} · loaded: {Path(name).name}"))

    @inline_errors(ui.image_msg)
    def on_reload(held: dict[str, Any] | None, c: float | None, w: float | None, f: float | None, a: Any,
                  s: float | None) -> tuple[Any, ...]:
        if not held:
            raise live.ProbeError("upload a DICOM or NIfTI file first", field="window")
        window = (c, w) if c is not None and w else None
        li, ctl = live.reload_image(held["data"], held["name"], window, to_int(f), to_int(a), to_int(s))
        store.put_image(li.image)
        pic, factor = display(li.image)
        return pic, live.describe_loaded(li), [li.image.id], factor, ""

    def on_win_preset(choice: str, c: float | None, w: float | None) -> tuple[Any, Any]:
        name = (choice or "").split(" ")[0]
        if name in live.WINDOW_PRESETS:
            return live.WINDOW_PRESETS[name]
        return c, w

    @inline_errors(ui.image_msg)
    def use_asset(name: str, rows: Any) -> tuple[Any, ...]:
        if name not in asset_names():
            raise live.ProbeError(f"no bundled image {name!r}; bundled: {', '.join(asset_names())}", field="image")
        li, ctl = live.load_new_image(str(ASSETS_DIR / name))
        return (*new_image(li, ctl, rows), None)

    def on_gallery(rows: Any, evt: gr.SelectData) -> tuple[Any, ...]:
        return use_asset(asset_names()[evt.index], rows)

    @inline_errors(ui.image_msg)
    def on_preset(choice: str | None, request: gr.Request) -> tuple[Any, str]:
        if not choice:
            return gr.update(choices=[], value=None), ""
        ids = live.preset_item_ids(ctx.preset_path(choice, who(ctx, request).name))
        return gr.update(choices=ids, value=ids[0] if ids else None), ""

    @inline_errors(ui.image_msg)
    def on_load_item(choice: str, item_id: str, rows: Any, request: gr.Request) -> tuple[Any, ...]:
        """All of the item: its question, options, answer, category, attributes, perturbations, suites and
        whether the original is asked; the steps it replaces are gone, and the page says which."""
        it = live.load_preset_item(ctx.preset_path(choice, who(ctx, request).name), item_id)
        for im in it.images:
            store.put_image(im)
        pic, factor = display(it.images[0]) if it.images else (None, 1.0)
        ctl = live.controls_for(it.loaded[0]) if it.loaded else live.ImageControls("none")
        info = live.describe_loaded(it.loaded[0]) if it.loaded else "This item has no image."
        replaced = live.steps_in_words(step_rows(rows))
        said = (" Your steps were replaced by the item's: " + esc("; ".join(
            ln.removeprefix("- ") for ln in replaced.splitlines())) + ".") if replaced else ""
        return (pic, info, [im.id for im in it.images], factor, shown_steps(it.steps),
                words(live.steps_in_words(it.steps)),
                f"<div class='pu-note'>Loaded item <b>{esc(it.item.id)}</b> with everything its preset asks."
                f"{said}</div>", *window_controls(ctl), None,
                it.item.question, it.item.kind, it.options_text,
                gr.update(choices=live.answer_choices(it.item.kind, it.options_text), value=it.item.answer),
                ", ".join(it.item.category), it.extra, list(it.suites), it.include_original, item_note(it))

    ui.upload.upload(on_upload, [ui.upload, ui.steps], [*ui.image_outputs, ui.upload_state, ui.upload],
                     api_name="load_image")
    reload_in = [ui.upload_state, ui.win_c, ui.win_w, ui.frame, ui.axis, ui.slice_]
    reload_out = [ui.image_view, ui.image_info, ui.images_state, ui.scale_state, ui.image_msg]
    ui.reload_btn.click(on_reload, reload_in, reload_out, api_name="apply_window")
    # .input, not .change: a new image resets the preset to its own window, which must not reload anything
    ui.win_preset.input(on_win_preset, [ui.win_preset, ui.win_c, ui.win_w], [ui.win_c, ui.win_w],
                        api_visibility="private").then(on_reload, reload_in, reload_out, api_visibility="private")
    ui.gallery.select(on_gallery, ui.steps, [*ui.image_outputs, ui.upload_state], api_visibility="private")
    asset_name = gr.Textbox(visible=False)  # a hidden twin of the gallery click: scripts pick an image by name
    asset_btn = gr.Button(visible=False)
    asset_btn.click(use_asset, [asset_name, ui.steps], [*ui.image_outputs, ui.upload_state],
                    api_name="use_bundled_image")
    ui.preset_pick.change(on_preset, ui.preset_pick, [ui.item_pick, ui.image_msg], api_name="preset_items")
    ui.load_item_btn.click(on_load_item, [ui.preset_pick, ui.item_pick, ui.steps],
                           [*ui.image_outputs, ui.upload_state, ui.question, ui.kind, ui.options, ui.answer,
                            ui.category, ui.extra_state, ui.suites, ui.include_original, ui.item_note],
                           api_name="load_preset_item")


def wire_question(ui: Any) -> None:
    """The options' buttons and the correct answer's choices."""
    def on_options(k: str, text: str, current: str | None) -> tuple[Any, str]:
        """The correct answer's choices follow the options; an answer no longer among them is emptied, and the
        page says so beside the question (:func:`probe_ui.live.answer_after_options`)."""
        choices, why = live.answer_after_options(k, text, current)
        if why is None:
            return gr.update(choices=choices), ""
        return gr.update(choices=choices, value=None), Inline.error(why)  # Inline.error escapes

    @inline_errors(ui.question_msg)
    def edit(action: str, text: str, index: float | None, new: str) -> tuple[str, str, str]:
        return live.edit_options(text, action, to_int(index), new), "", ""

    ui.kind.change(on_options, [ui.kind, ui.options, ui.answer], [ui.answer, ui.question_msg],
                   api_visibility="private")
    ui.options.change(on_options, [ui.kind, ui.options, ui.answer], [ui.answer, ui.question_msg],
                      api_visibility="private")
    for btn, action in ((ui.up_btn, "up"), (ui.down_btn, "down"), (ui.rm_btn, "remove"), (ui.add_opt_btn, "add")):
        btn.click(edit, [gr.State(action), ui.options, ui.opt_index, ui.new_opt],
                  [ui.options, ui.new_opt, ui.question_msg],
                  api_name=f"option_{action}" if action == "add" else None,
                  api_visibility="public" if action == "add" else "private")


def wire_steps(ctx: AppContext, ui: Any) -> None:
    """Perturbations: their controls, Add step, a click on the image, the steps in words."""
    store = ctx.store

    def steps_out(rows: list[list[Any]]) -> tuple[Any, str, str]:
        return shown_steps(rows), words(live.steps_in_words(rows)), ""

    def on_op(name: str) -> tuple[str, str]:
        """A new perturbation: its description; the JSON field is emptied so that its controls count."""
        return op_doc(name), ""

    def op_parameters(name: str) -> tuple[str, str]:
        """API: a perturbation's description and its parameters with their defaults, as JSON."""
        return op_doc(name), live.default_parameters(name)

    @inline_errors(ui.steps_msg)
    def on_add_step(rows: Any, name: str, params_json: str, new: bool) -> tuple[Any, ...]:
        """Add a step with its parameters as JSON (the API's way; the page's controls go through add_from)."""
        return steps_out(live.add_step(step_rows(rows), labels.perturbation_name(name), params_json or "{}", new))

    def add_from(name: str) -> Any:
        """The Add step handler of one perturbation's controls: the JSON field wins when it is filled in."""
        @inline_errors(ui.steps_msg)
        def add(rows: Any, params_json: str, new: bool, *values: Any) -> tuple[Any, ...]:
            text = params_json if (params_json or "").strip() else json.dumps(live.values_from_controls(name,
                                                                                                         values))
            return steps_out(live.add_step(step_rows(rows), name, text, new))
        return add

    with ui.controls:
        @gr.render(inputs=ui.op)
        def param_controls(name: str) -> None:
            """The chosen perturbation's declared parameters as controls, and Add step reading them."""
            specs = live.param_specs(name)
            comps = [_control(spec) for spec in specs]
            if not specs:
                gr.Markdown("*No parameters.*")
            ui.add_step_btn.click(add_from(name), [ui.steps, ui.params, ui.new_variant, *comps],
                                  [ui.steps, ui.steps_words, ui.steps_msg], api_visibility="private")

    @inline_errors(ui.image_msg)
    def on_click(rows: Any, factor: float, image_ids: list[str], drawing: bool, evt: gr.SelectData
                 ) -> tuple[Any, ...]:
        if drawing:  # the click draws the region (probe_region)
            return gr.skip(), gr.skip(), gr.skip(), gr.skip()
        if not isinstance(evt.index, (list, tuple)) or len(evt.index) != 2:
            raise live.ProbeError("that click did not land on the image: click on the picture itself", field="image")
        x, y = (v / (factor or 1.0) for v in evt.index)
        return draw_point(rows, x, y, image_ids)

    def draw_point(rows: Any, x: float, y: float, image_ids: list[str]) -> tuple[Any, ...]:
        """The point goes into the last dots / marker step and is drawn on the image at once."""
        if not image_ids:
            raise live.ProbeError("choose an image first", field="image")
        out = live.add_click(step_rows(rows), x, y)
        im = live.with_pending_points(store.get_image(image_ids[0]), out)
        pic, _ = display(im)
        return shown_steps(out), words(live.steps_in_words(out)), pic, ""

    @inline_errors(ui.image_msg)
    def add_point(rows: Any, x: float, y: float, image_ids: list[str]) -> tuple[Any, ...]:
        """API: the same as clicking the image at (x, y) in the image's own pixels."""
        return draw_point(rows, x, y, image_ids)

    ui.op.change(on_op, ui.op, [ui.op_doc, ui.params], api_visibility="private")
    op_name, op_btn = gr.Textbox(visible=False), gr.Button(visible=False)
    op_btn.click(op_parameters, op_name, [ui.op_doc, ui.params], api_name="perturbation_parameters")
    step_op, step_btn = gr.Textbox(visible=False), gr.Button(visible=False)  # the API's twin of Add step
    step_btn.click(on_add_step, [ui.steps, step_op, ui.params, ui.new_variant],
                   [ui.steps, ui.steps_words, ui.steps_msg], api_name="add_step")
    ui.steps.change(lambda rows: words(live.steps_in_words(step_rows(rows))), ui.steps, ui.steps_words,
                    api_visibility="private")
    ui.image_view.select(on_click, [ui.steps, ui.scale_state, ui.images_state, ui.region_mode],
                         [ui.steps, ui.steps_words, ui.image_view, ui.image_msg], api_visibility="private")
    probe_region.wire(ctx, ui, display)
    point_x, point_y = gr.Number(visible=False), gr.Number(visible=False)
    point_btn = gr.Button(visible=False)
    point_btn.click(add_point, [ui.steps, point_x, point_y, ui.images_state],
                    [ui.steps, ui.steps_words, ui.image_view, ui.image_msg], api_name="add_point")
    ui.clear_btn.click(lambda: ([], ""), None, [ui.steps, ui.steps_words], api_visibility="private")


def _control(spec: Any) -> Any:
    """One perturbation parameter as a control: a dropdown for a choice, a slider for a bounded number, a
    number field, a checkbox, or a text field (JSON for lists and points)."""
    label, info = labels.parameter(spec.name), spec.help or None
    default = spec.default
    if spec.kind == "choice":
        return gr.Dropdown(label=label, choices=list(spec.choices or ()), value=default, info=info,
                           elem_id=f"param-{spec.name}")
    if spec.kind == "bool":
        return gr.Checkbox(label=label, value=bool(default), info=info, elem_id=f"param-{spec.name}")
    if spec.kind in ("int", "float"):
        step = 1 if spec.kind == "int" else None
        if spec.minimum is not None and spec.maximum is not None and spec.maximum - spec.minimum <= 1000:
            return gr.Slider(minimum=spec.minimum, maximum=spec.maximum, value=default if default is not None
                             else spec.minimum, step=step or (spec.maximum - spec.minimum) / 100, label=label,
                             info=info, elem_id=f"param-{spec.name}")
        return gr.Number(label=label, value=default, precision=0 if spec.kind == "int" else None, info=info,
                         minimum=spec.minimum, maximum=spec.maximum, elem_id=f"param-{spec.name}")
    text = "" if default is None else (json.dumps(default) if not isinstance(default, str) else default)
    return gr.Textbox(label=label, value=text, info=info, elem_id=f"param-{spec.name}",
                      placeholder="optional" if not spec.required else "required")


def thumbnails() -> list[tuple[Any, str]]:
    """Small copies of the bundled images for the picker (the full images are loaded on click)."""
    from PIL import Image

    out = []
    for name in asset_names():
        with Image.open(ASSETS_DIR / name) as im:
            im.thumbnail((160, 160))
            out.append((im.convert("RGB"), name))
    return out


def scale(image: Any) -> float:
    """The factor that maps a click on the shown image back to the image's own pixels."""
    return DISPLAY_PX / max(image.width, image.height)


#: image id -> (the shown PNG file, its factor), for the last images shown: a bundled image picked again, by anyone,
#: is not scaled and encoded again (tens of ms of the app's CPU each time, issue 23's "pick image")
_SHOWN: Kept[str, tuple[str, float]] = Kept(256)


def display(image: Any) -> tuple[str, float]:
    """The image as the page shows it (a PNG file: :func:`probe_ui.app.files.png_file`): scaled so its long side
    fills the box (small images are enlarged, with square pixels), and the factor that maps a click back to the
    image's own pixels. A stored image (named by its content) shown before is not drawn again."""
    key = getattr(image, "id", None)
    if key:
        hit = _SHOWN.get(key, fresh=lambda shown: Path(shown[0]).is_file())
        if hit is not None:
            return hit
    shown = _draw(image)
    if key:
        _SHOWN.put(key, shown)
    return shown


def _draw(image: Any) -> tuple[str, float]:
    from PIL import Image

    from probe_ui.app.files import png_file

    pil = image.pil() if hasattr(image, "pil") else image
    factor = DISPLAY_PX / max(pil.width, pil.height)
    if abs(factor - 1.0) < 1e-6:
        return png_file(pil), 1.0
    size = (max(1, round(pil.width * factor)), max(1, round(pil.height * factor)))
    return png_file(pil.resize(size, Image.Resampling.NEAREST if factor > 1 else Image.Resampling.LANCZOS)), factor


class _Thumbs:
    """image id → a thumbnail data URI, made once per image: from the images a run is about to send (in memory,
    before they are stored) or from the store. A picture not found yet is looked for again next time (a row
    drawn before its rotated 1024² image was stored kept no thumbnail for good)."""

    def __init__(self, ctx: AppContext) -> None:
        self.store = ctx.store
        self.cache: dict[str, str] = {}
        self.pending: dict[str, bytes] = {}

    def remember(self, variants: list[Any]) -> None:
        """The variants' images, so their rows have thumbnails before the store has them."""
        for v in variants:
            for im in v.images:
                if im.id not in self.cache:
                    self.pending.setdefault(im.id, im.png)

    def __call__(self, image_id: str) -> str | None:
        if image_id not in self.cache:
            try:
                png = self.pending.pop(image_id, None) or self.store.image_png(image_id)
                self.cache[image_id] = comparison.thumbnail_uri(png)
            except Exception:  # noqa: BLE001 - not stored (yet): the row says so and asks again next time
                return None
        return self.cache[image_id]


def image_thumbs(ctx: AppContext) -> _Thumbs:
    return _Thumbs(ctx)


def item_note(it: Any) -> str:
    """What a loaded preset item brings besides its fields, in words."""
    lines = []
    attrs = it.extra.get("attributes") or {}
    if attrs.get("dots"):
        d = attrs["dots"]
        lines.append(f"dots placed by the preset's rule ({esc(d.get('placement', ''))}"
                     + (f", target {esc(d['target'])}" if d.get("target") else "") + "): the suites use them")
    if it.suites:
        lines.append("suites: " + ", ".join(esc(s) for s in it.suites))
    if not it.include_original:
        lines.append("the original is not asked (as in the preset)")
    lines += [f"⚠ not used: {esc(d)}" for d in getattr(it, "dropped", [])]
    return ("<p class='pu-note'><i>From the preset:</i> " + "; ".join(lines) + "</p>") if lines else ""


def op_doc(name: str) -> str:
    from probe_ui.perturb import get

    p = get(labels.perturbation_name(name))
    return f"**{esc(labels.perturbation(p.name))}**: {esc(p.summary)} *Answer:* {esc(p.answer_effect)}"


def words(markdown_lines: str) -> str:
    """The steps in words (``- variant 1: ...`` lines) as escaped HTML: parameters are typed by people."""
    lines = [ln.removeprefix("- ") for ln in (markdown_lines or "").splitlines() if ln.strip()]
    return "<ul class='pu-steps'>" + "".join(f"<li>{esc(ln)}</li>" for ln in lines) + "</ul>" if lines else ""


def esc(text: Any) -> str:
    from html import escape

    return escape(str(text))
