"""Asking a pushback conversation: the model's first answer, then each pressure turn in the same conversation.

A batch, a live probe and a stress sweep all ask cells through :func:`probe_ui.runner.execute.execute_cells`, which
hands a pushback cell to :func:`converse` with its own ``call``
(the provider pool, image fitting and the response cache). Each turn is one call whose request is the whole
conversation so far: the question, the model's own reply as an assistant turn, the pressure message. A
deterministic first turn asks exactly what the unpressed variant asks, so it comes from the cache when that was
answered already.

What is stored is one answer row, the reply after the last pushback: its ``messages`` are the whole conversation
(every turn's request, and every earlier reply as an assistant turn), its cost, tokens and latency the sums over the
turns, and ``details["pushback"]``: the pressure, the option pushed (``pushed``, None for a neutral doubt) and each
turn's reply with its own latency, tokens, cost and finish reason (``turns``). A turn that fails makes the row an
error, asked again (the whole conversation) by Resume.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from probe_ui.items import Variant
from probe_ui.messages import Message, Request, Response, TextPart
from probe_ui.perturb.pressures import get_pressure, pushed_label, spelled
from probe_ui.perturb.registry import derive_seed
from probe_ui.prompts import CONFIDENCE_INSTRUCTION
from probe_ui.providers.base import ModelConfig

Call = Callable[[ModelConfig, Request], Awaitable[tuple[Request, Response]]]
Reader = Callable[[Request, Response], str | None]


def spec_of(variant: Variant) -> dict[str, Any] | None:
    """The variant's pushback (pressure, turns), or None for an ordinary variant."""
    spec = variant.prompt_args.get("pushback")
    return spec if isinstance(spec, dict) else None


def follow_up(request: Request, reply: str, message: str) -> Request:
    """The next turn's request: the conversation so far, the model's reply as an assistant turn, then ``message``
    (with the confidence instruction again where the run asks for a confidence: does it fall after the pushback?)."""
    if request.settings.answer_format == "confidence":
        message = f"{message}\n{CONFIDENCE_INSTRUCTION}"
    turns = (*request.messages, Message("assistant", (TextPart(reply),)), Message("user", (TextPart(message),)))
    return replace(request, messages=turns)


def _turn(resp: Response) -> dict[str, Any]:
    out: dict[str, Any] = {"text": resp.text, "latency_s": resp.latency_s, "input_tokens": resp.input_tokens,
                           "output_tokens": resp.output_tokens, "cost": resp.cost, "finish_reason": resp.finish_reason}
    if resp.error is not None:
        out["error"] = resp.error
    if "cached_from" in (resp.details or {}):
        out["cached_from"] = resp.details["cached_from"]
    return out


def _total(values: list[Any]) -> Any:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def combined(turns: list[Response], record: dict[str, Any]) -> Response:
    """The stored response of a conversation: the last reply, the sums over the turns, every turn in details."""
    last = turns[-1]
    error = None
    if last.error is not None:
        error = last.error if len(turns) == 1 else f"pushback turn {len(turns)}: {last.error}"
    details = {k: v for k, v in (last.details or {}).items() if k != "cached_from"}
    details["pushback"] = dict(record, turns=[_turn(t) for t in turns])
    return Response(text=last.text, latency_s=sum(t.latency_s or 0.0 for t in turns),
                    input_tokens=_total([t.input_tokens for t in turns]),
                    output_tokens=_total([t.output_tokens for t in turns]),
                    cost=_total([t.cost for t in turns]), error=error, finish_reason=last.finish_reason,
                    details=details)


async def converse(variant: Variant, model: ModelConfig, request: Request, call: Call,
                   first_reading: Reader) -> tuple[Request, Response]:
    """Ask the first turn and each pushback turn (module doc); returns the last request as sent and the combined
    response. ``first_reading`` reads the first reply (the label it gives, or None), which decides the pushed
    option of an ``other`` pressure."""
    spec = spec_of(variant)
    assert spec is not None, "converse is for pushback variants"
    pressure = get_pressure(str(spec["pressure"]))
    sent, resp = await call(model, request)
    responses = [resp]
    record: dict[str, Any] = {"pressure": pressure.name, "toward": pressure.toward, "pushed": None}
    if resp.error is None:
        first = first_reading(request, resp)
        rng = random.Random(derive_seed("pushback", variant.id, model.name, request.sample))
        pushed = pushed_label(pressure.toward, variant.labels, variant.answer_label, first, rng)
        record["pushed"] = pushed
        shown = spelled(pushed, variant.labels, variant.options) if pushed else None
        req = request
        for k in range(int(spec.get("turns", 1))):
            req = follow_up(req, resp.text, pressure.message(shown, k))
            sent, resp = await call(model, req)
            responses.append(resp)
            if resp.error is not None:
                break
    return sent, combined(responses, record)


def first_answer(variant: Any, text: str) -> str | None:
    """The label a conversation's first reply gives (robust rules), for a live table that has the variant at hand
    (the reader is imported here, not with the runner: a batch's first call waits for no reader)."""
    from probe_ui.reading.answers import extract

    return extract(text, variant.kind, variant.labels, variant.options, question=variant.question,
                   suggested=variant.suggested).choice
