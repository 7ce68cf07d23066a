"""The answer detail shown under a comparison table: the images sent, the exact prompt, the raw reply and the
settings, with a rating and a note. One builder for the Probe and Stress tabs, so a cell opens the same view."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, Callable

import gradio as gr

from probe_ui import live
from probe_ui.app.access import require, who
from probe_ui.app.common import Inline, answer_id, inline_errors
from probe_ui.app.context import AppContext
from probe_ui.views import comparison

if TYPE_CHECKING:
    from probe_ui.store import Store


@dataclass
class Detail:
    box: Any
    images: Any
    text: Any
    response: Any
    rating: Any
    note: Any
    save: Any
    close: Any
    msg: Any

    @property
    def outputs(self) -> list[Any]:
        return [self.box, self.images, self.text, self.response, self.rating, self.note, self.msg]


def build(prefix: str) -> Detail:
    """The (hidden until a cell is clicked) detail panel; element ids start with ``prefix``."""
    with gr.Column(visible=False, elem_id=f"{prefix}-detail") as box:
        with gr.Row():
            images = gr.HTML("", label="images sent", elem_id=f"{prefix}-detail-images")  # whole: whole_images
            text = gr.Markdown("", elem_id=f"{prefix}-detail-text", elem_classes=["pu-detail-text"])
        with gr.Row():
            response = gr.Number(label="answer #", precision=0, interactive=False, elem_id=f"{prefix}-rate-pick",
                                 scale=1)
            rating = gr.Radio(["correct", "incorrect", "unsure"], label="your rating", value=None,
                              elem_id=f"{prefix}-rating", scale=3)
            note = gr.Textbox(label="note", scale=4, elem_id=f"{prefix}-note")
            save = gr.Button("Save rating", elem_id=f"{prefix}-rate", scale=1)
            close = gr.Button("Close", size="sm", scale=0, elem_id=f"{prefix}-close")
        msg = gr.HTML("", elem_id=f"{prefix}-status")
    return Detail(box, images, text, response, rating, note, save, close, msg)


def cleared() -> tuple[Any, ...]:
    """The panel closed and emptied (its :attr:`Detail.outputs`): the answer it showed no longer belongs to what
    the page shows (a new run, a new image or item), so neither its image nor its text may linger below."""
    return gr.update(visible=False), "", "", None, None, "", ""


@dataclass(frozen=True)
class Rater:
    """Who rates: a name, and whether a login vouches for it."""

    name: str
    verified: bool


def opened(ctx: AppContext, rid: int, rater: Rater | None = None) -> tuple[Any, ...]:
    """The panel's values for one answer (:func:`probe_ui.views.results.response_detail`, this rater's latest
    rating)."""
    from probe_ui.app import whole_images
    from probe_ui.views.results import response_detail, sent_image_ids

    rater = rater or Rater("", False)
    _ims, text = response_detail(ctx.store, rid)
    pictures = whole_images.stored(ctx.store, sent_image_ids(ctx.store, rid))
    pictures += _pointing(ctx.store, rid)
    current, note = ctx.store.latest_rating(rid, rater=rater.name, verified=rater.verified)
    return gr.update(visible=True), pictures, text, rid, current, note, ""


def _pointing(store: Store, rid: int) -> str:
    """For an answer to a point item, the item's image with the region and where the model pointed."""
    from probe_ui.app import whole_images
    from probe_ui.views.results.pointing_view import caption, pointing_picture

    r = store.get_response(int(rid))
    pic = pointing_picture(store, r)
    return whole_images.figures([(pic, caption(r))]) if pic is not None else ""


def rater_of(ctx: AppContext, name: str | None, request: gr.Request | None) -> Rater:
    """Who is rating: the signed-in user when the app has a login (whatever name the page sends: one login is one
    rater), else the name typed on the page ("" when none), which nobody vouches for."""
    caller = who(ctx, request)
    if caller.signed_in:
        return Rater(caller.name, True)
    return Rater(" ".join(str(name or "").split()), False)


def table_value(ctx: AppContext, run: str, thumbs: Callable[[str], str | None], *,
                models_per_table: int | None = None, empty: str = "No answers yet.") -> dict[str, Any]:
    """A stored run as the comparison table's value (rendered HTML and the run it shows)."""
    t = comparison.comparison_of(ctx.store, run) if run else comparison.Table("")
    return {"html": comparison.render(t, thumbs, models_per_table=models_per_table, empty=empty), "run": run,
            "per_table": models_per_table}


def wire(ctx: AppContext, d: Detail, table: Any, thumbs: Callable[[str], str | None], rater: Any, *,
         models_per_table: int | None = None, api_prefix: str = "") -> None:
    """Clicks in ``table`` open the panel (✓ / ✗ / ? rate at once); Save stores the rating and note and the
    table shows it. Ratings carry the rater (:func:`rater_of`, ``rater`` is the page's name field). ``api_prefix``
    names the public endpoints (``<prefix>rate``, ``<prefix>answer_detail``)."""

    def refreshed(value: dict[str, Any] | None) -> dict[str, Any] | Any:
        run = (value or {}).get("run")
        per = (value or {}).get("per_table") or models_per_table  # as the page drew it (presenter mode: fewer)
        return table_value(ctx, run, thumbs, models_per_table=per) if run else gr.update()

    def rate(rid: int, rating: str, note: str, rater: Rater) -> None:
        ctx.store.rate_response(rid, rating, note, rater=rater.name, verified=rater.verified)

    @inline_errors(d.msg)
    def on_table(value: dict[str, Any], name: str, request: gr.Request) -> tuple[Any, ...]:
        act = (value or {}).get("action") or {}
        rid = answer_id(act.get("response"))
        if rid is None:
            return (gr.update(),) * (len(d.outputs) + 1)
        rater = rater_of(ctx, name, request)
        if act.get("act") == "rate" and act.get("rating"):
            require(ctx, request, "rate")
            note = ctx.store.latest_rating(rid, rater=rater.name, verified=rater.verified)[1]
            rate(rid, str(act["rating"]), note, rater)
            return (refreshed(value), *opened(ctx, rid, rater))
        return (gr.update(), *opened(ctx, rid, rater))

    @inline_errors(d.msg)
    def on_save(response_id: Any, value: str | None, text: str, current: dict[str, Any] | None, name: str,
                request: gr.Request) -> tuple[Any, ...]:
        from probe_ui.views.results import response_detail

        require(ctx, request, "rate")
        rid = answer_id(response_id)
        if rid is None:
            raise live.ProbeError("click an answer in the table first", field="rating")
        if not value:
            raise live.ProbeError("choose correct, incorrect or unsure", field="rating")
        rater = rater_of(ctx, name, request)
        rate(rid, value, text or "", rater)
        by = f" by {escape(rater.name)}" if rater.name else ""
        if rater.name and not rater.verified:
            by += " (a typed name: unverified without a login)"
        # the detail read again: its "Rating" line says the rating just saved (it kept the one of the moment the
        # answer was opened, "unrated", beside the message "Saved"; issue 51, U37)
        return (Inline.note(f"Saved: answer #{rid} rated {escape(value)}{by}"
                            + (f" ({escape(text)})" if text else "") + "."), refreshed(current),
                response_detail(ctx.store, rid)[1])

    @inline_errors(d.msg)
    def on_open(rid: Any, name: str, request: gr.Request) -> tuple[Any, ...]:
        checked = answer_id(rid)
        if checked is None:
            raise live.ProbeError("give an answer number", field="rating")
        return opened(ctx, checked, rater_of(ctx, name, request))

    table.select(on_table, [table, rater], [table, *d.outputs], api_visibility="private")
    d.save.click(on_save, [d.response, d.rating, d.note, table, rater], [d.msg, table, d.text],
                 api_name=f"{api_prefix}rate")
    d.close.click(lambda: gr.update(visible=False), None, d.box, api_visibility="private")
    open_id, open_btn = gr.Number(visible=False), gr.Button(visible=False)
    open_btn.click(on_open, [open_id, rater], d.outputs, api_name=f"{api_prefix}answer_detail")


