"""What ``--answer-format json`` asks of a provider: which requests carry a schema, the schema, the reply text.

Why a module: three wire formats honour the format three ways (an OpenAI ``response_format`` JSON schema, an
Anthropic tool, constrained decoding over the label tokens for ``hf/`` models), and each must agree on when a
request is structured (a json request with labels; a free-text prompt never is) and on the reply it stores: the
object ``{"answer": <label>}``, which the reader takes as it stands (:mod:`probe_ui.reading.structured`, method
``structured``). The schema itself has one home, :func:`probe_ui.reading.structured.answer_schema`.
"""

from __future__ import annotations

import json
from typing import Any

from probe_ui.messages import ANSWER_FORMATS, Request

__all__ = ["ANSWER_FORMATS", "STRUCTURED_MIN_TOKENS", "TOOL_NAME", "check", "reply", "schema", "structured"]

#: the name of the schema (OpenAI) and of the tool (Anthropic) a structured answer is written to
TOOL_NAME = "answer"
#: the least reply budget a structured request gets (the template's 32 is enough for a letter, not always for the
#: object or tool call wrapped around it; the answer itself is one label, so the budget changes nothing else)
STRUCTURED_MIN_TOKENS = 64


def check(answer_format: str) -> str:
    """``answer_format`` when it is one of :data:`ANSWER_FORMATS`; ValueError naming the known ones otherwise."""
    if answer_format not in ANSWER_FORMATS:
        raise ValueError(f"unknown answer format {answer_format!r}; known: {', '.join(ANSWER_FORMATS)}")
    return answer_format


def structured(request: Request) -> bool:
    """Whether the request asks for a structured answer: the json format and labels to choose from."""
    return request.settings.answer_format == "json" and bool(request.labels)


def schema(request: Request) -> dict[str, Any]:
    """The JSON schema of the request's answer: one field whose enum is its labels. (The reader is imported here,
    not with the providers: listing them needs none of it.)"""
    from probe_ui.reading.structured import answer_schema

    return answer_schema(request.labels)


def reply(label: str) -> str:
    """The reply text of a structured answer naming ``label``, as the reader reads it."""
    from probe_ui.reading.structured import ANSWER_FIELD

    return json.dumps({ANSWER_FIELD: label})
