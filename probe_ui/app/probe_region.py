"""The Probe tab's region tool (issue 45): where the finding is, drawn on the image or typed, kept with the item.

A thin shell over :mod:`probe_ui.images.regions`: with "clicks draw the region" ticked, two clicks on opposite
corners make a box; the field shows the boxes in the image's pixels and can be typed in. The boxes go into the
item's attributes (``region``), which the occlude steps, point items and "Add to benchmark set" read, and are drawn
on the picture shown (never on the pixels asked).
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from probe_ui import live
from probe_ui.app.common import Inline, inline_errors
from probe_ui.images.regions import add_corner, boxes_of, parse_region, region_text, with_regions
from probe_ui.live.form import step_rows

REGION_LABEL = "where the finding is: x0, y0, x1, y1 in the image's pixels (';' between boxes)"
MODE_LABEL = "clicks on the image draw the region (two opposite corners)"


def build(ui: Any) -> None:
    """The region field, the drawing switch and the corner waiting for its opposite, under the image."""
    with gr.Row():
        ui.region = gr.Textbox(label=REGION_LABEL, value=region_text(boxes_of((ui.extra_state.value or {}).get(
            "attributes"))), elem_id="probe-region", scale=3, placeholder="e.g. 120, 80, 200, 150")
        ui.region_mode = gr.Checkbox(label=MODE_LABEL, value=False, elem_id="probe-region-mode", scale=2)
    ui.region_corner = gr.State(None)
    ui.region_msg = gr.HTML("", elem_id="probe-region-msg")


def with_boxes(extra: dict[str, Any] | None, boxes: list[list[int]]) -> dict[str, Any]:
    """The item's extra fields with its region replaced by ``boxes`` (removed when there is none)."""
    out = dict(extra or {})
    attrs = dict(out.get("attributes") or {})
    if boxes:
        attrs["region"] = boxes
    else:
        attrs.pop("region", None)
    out["attributes"] = attrs
    return out


def wire(ctx: Any, ui: Any, display: Any) -> None:
    """Clicks in drawing mode, typing in the field, and a new item's own region; ``display(image)`` is the tab's
    way of showing an image (a file and a scale)."""
    store = ctx.store

    def shown(image_ids: list[str], rows: Any, boxes: list[list[int]], corner: list[int] | None) -> Any:
        if not image_ids:
            return gr.skip()
        im = live.with_pending_points(store.get_image(image_ids[0]), step_rows(rows))
        return display(with_regions(im, boxes, corner))[0]

    def size_of(image_ids: list[str]) -> tuple[int, int] | None:
        if not image_ids:
            return None
        im = store.get_image(image_ids[0])
        return im.width, im.height

    outputs = [ui.region, ui.region_corner, ui.extra_state, ui.image_view, ui.region_msg]

    @inline_errors(ui.region_msg, {"region": ui.region})
    def on_click(on: bool, corner: list[int] | None, extra: dict[str, Any], factor: float, image_ids: list[str],
                 rows: Any, evt: gr.SelectData) -> tuple[Any, ...]:
        if not on:
            return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip()
        if not image_ids:
            raise live.ProbeError("choose an image first", field="region")
        if not isinstance(evt.index, (list, tuple)) or len(evt.index) != 2:
            raise live.ProbeError("that click did not land on the image: click on the picture itself",
                                  field="region")
        x, y = (v / (factor or 1.0) for v in evt.index)
        corner, boxes = add_corner(corner, x, y, boxes_of((extra or {}).get("attributes")))
        note = Inline.note("Now click the opposite corner.") if corner is not None else \
            Inline.note(f"Region: {len(boxes)} box{'es' if len(boxes) != 1 else ''}. Untick drawing to place "
                        "dots or markers again.")
        return (gr.update(value=region_text(boxes), elem_classes=[]), corner, with_boxes(extra, boxes),
                shown(image_ids, rows, boxes, corner), note)

    @inline_errors(ui.region_msg, {"region": ui.region})
    def on_typed(text: str, extra: dict[str, Any], image_ids: list[str], rows: Any) -> tuple[Any, ...]:
        boxes = parse_region(text, size_of(image_ids))
        return (gr.update(elem_classes=[]), None, with_boxes(extra, boxes), shown(image_ids, rows, boxes, None),
                "")

    def on_item(extra: dict[str, Any], text: str) -> Any:
        """A loaded item (or a draft) brings its own region: the field shows it."""
        boxes = boxes_of((extra or {}).get("attributes"))
        try:
            same = parse_region(text) == boxes
        except live.ProbeError:
            same = False
        return gr.skip() if same else region_text(boxes)

    ui.image_view.select(on_click, [ui.region_mode, ui.region_corner, ui.extra_state, ui.scale_state,
                                    ui.images_state, ui.steps], outputs, api_visibility="private")
    ui.region.submit(on_typed, [ui.region, ui.extra_state, ui.images_state, ui.steps], outputs,
                     api_visibility="private")
    ui.region.blur(on_typed, [ui.region, ui.extra_state, ui.images_state, ui.steps], outputs,
                   api_visibility="private")
    ui.extra_state.change(on_item, [ui.extra_state, ui.region], ui.region, api_visibility="private")
    ui.region_mode.change(lambda on: (None, Inline.note("Click one corner of the finding, then the opposite "
                                                        "corner.") if on else ""),
                          ui.region_mode, [ui.region_corner, ui.region_msg], api_visibility="private")
