"""The Results tab's "To review" panel (issue 46): each reading the reader was not sure of, settled in one click.

A thin shell over :mod:`probe_ui.scoring.review`: the list comes from :func:`~probe_ui.scoring.review.to_review` on the
chosen runs' scored table, the card from :func:`~probe_ui.scoring.review.pending_html`, and a click stores the
clinician's reading with :func:`~probe_ui.scoring.review.settle` (the signed-in user, or the name typed here without a
login).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any, Callable

import gradio as gr

from probe_ui import live
from probe_ui.app.access import require, who
from probe_ui.app.common import Inline, answer_id, chosen_runs, inline_errors
from probe_ui.app.context import AppContext
from probe_ui.app.detail import rater_of
from probe_ui.scoring.review import NO_ANSWER_WORDS, Pending, pending_html, settle, to_review
from probe_ui.views.results_cache import cached_answers

#: the choice that says the reply gives no answer (a radio value cannot be empty)
NONE = "none"


@dataclass
class ReviewPanel:
    """The panel's components, and the outputs a (re)load fills."""

    msg: Any
    card: Any
    choice: Any
    skip: Any
    name: Any
    current: Any  # the answer # shown (hidden: the API names the answer it settles)
    skipped: Any  # the answers this page skipped (State)

    @property
    def outputs(self) -> list[Any]:
        return [self.msg, self.card, self.choice, self.skip, self.current]


def build(ctx: AppContext) -> ReviewPanel:
    """The panel's components, placed where it is called (inside the Results tab)."""
    with gr.Accordion("To review: readings the reader was not sure of", open=True, elem_id="results-review"):
        gr.Markdown("A reply the reader could not read with certainty (a hedge, a change of answer, a negation, a "
                    "cut-off reply) is shown here with its best guess. Choose what the reply answers: one click "
                    "stores your reading with your name and the time, and the figures above count it when the "
                    "answer parser is 'settled'.")
        name = gr.Textbox(label="your name, for your readings", placeholder="e.g. Dr Lee", max_lines=1,
                          visible=ctx.accounts is None, elem_id="review-name")
        msg = gr.HTML("", elem_id="review-msg")
        card = gr.HTML("", elem_id="review-card")
        with gr.Row():
            choice = gr.Radio([], value=None, label="what does the reply answer? (one click settles it)",
                              elem_id="review-choice", scale=4, visible=False)
            skip = gr.Button("Skip this one", size="sm", scale=0, elem_id="review-skip", visible=False)
        current = gr.Number(None, precision=0, visible=False, elem_id="review-current")  # the answer # shown
        skipped = gr.State([])
    return ReviewPanel(msg, card, choice, skip, name, current, skipped)


def _next(ctx: AppContext, chosen: list[str], name: str, skipped: list[int], request: gr.Request | None
          ) -> tuple[Any, ...]:
    """The panel showing the first reading this clinician has still to settle (skipped ones last)."""
    if not chosen:
        return "", "", gr.update(choices=[], value=None, visible=False), gr.update(visible=False), None
    rater = rater_of(ctx, name, request)
    df = cached_answers(ctx.results_cache, ctx.store, who(ctx, request).owner, chosen, "robust")
    pending = to_review(df, rater.name, rater.verified)
    if not pending:
        return (Inline.note("Nothing to review: every reading in these runs is sure, or you have settled it."), "",
                gr.update(choices=[], value=None, visible=False), gr.update(visible=False), None)
    later = set(skipped or [])
    ordered = [p for p in pending if p.response_id not in later] + [p for p in pending if p.response_id in later]
    p: Pending = ordered[0]
    words = f"{len(pending)} reading{'' if len(pending) == 1 else 's'} to review"
    by = f" as {escape(rater.name)}" if rater.name else ""
    return (Inline.note(words + by), pending_html(p, pending.index(p) + 1, len(pending)),
            gr.update(choices=[(w, lab) for lab, w in p.answers] + [(NO_ANSWER_WORDS, NONE)], value=None,
                      visible=True), gr.update(visible=True), p.response_id)


def wire(ctx: AppContext, panel: ReviewPanel, runs: Any, refresh_figures: Callable[..., Any],
         figure_inputs: list[Any], figure_outputs: list[Any], loaders: list[Any]) -> None:
    """Events: each of ``loaders`` (events that show new results) reloads the panel; a click on an answer settles
    it, then the figures (``refresh_figures`` over ``figure_inputs`` → ``figure_outputs``) and the panel reload."""

    @inline_errors(panel.msg)
    def on_load(chosen: list[str], name: str, skipped: list[int], request: gr.Request) -> tuple[Any, ...]:
        return _next(ctx, chosen_runs(chosen), name, skipped, request)

    @inline_errors(panel.msg)
    def on_choose(chosen: list[str], rid: float | None, label: str | None, name: str, skipped: list[int],
                  request: gr.Request) -> tuple[Any, ...]:
        require(ctx, request, "rate")
        rid = answer_id(rid, field=None)
        if rid is None or not label:
            raise live.ProbeError("choose what the reply answers")
        runs_now = chosen_runs(chosen)
        shown = cached_answers(ctx.results_cache, ctx.store, who(ctx, request).owner, runs_now, "robust") \
            if runs_now else None
        rater = rater_of(ctx, name, request)
        settle(ctx.store, rid, None if label == NONE else label, rater.name, rater.verified, among=shown)
        return _next(ctx, chosen_runs(chosen), name, skipped, request)

    def on_skip(rid: int | None, skipped: list[int]) -> list[int]:
        return [*(s for s in skipped or [] if s != rid), *([rid] if rid is not None else [])]

    load_inputs = [runs, panel.name, panel.skipped]
    for event in loaders:
        event.then(on_load, load_inputs, panel.outputs, api_visibility="private")
    # the figures after each settlement: "always_last", because a second click while the first one's figures are
    # still being drawn would otherwise be dropped (Gradio's default, "once", ignores a trigger while one is pending),
    # leaving the figures of the first settlement on screen (seen under load: "1 unsure, 1 settled" after both)
    panel.choice.input(on_choose, [runs, panel.current, panel.choice, panel.name, panel.skipped], panel.outputs,
                       api_visibility="private").then(refresh_figures, figure_inputs, figure_outputs,
                                               api_visibility="private", trigger_mode="always_last")
    panel.skip.click(on_skip, [panel.current, panel.skipped], panel.skipped, api_visibility="private").then(
        on_load, load_inputs, panel.outputs, api_visibility="private", trigger_mode="always_last")
