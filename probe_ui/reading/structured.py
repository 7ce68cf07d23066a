"""Replies written to a JSON schema (``--answer-format json``, issue 46): read exactly, not by the rules.

Why a module: a model asked for ``{"answer": <one of the item's labels>}`` (an OpenAI ``response_format`` schema,
an Anthropic tool, constrained decoding over the label tokens) writes its answer in a field. That field is read
as it stands (method ``structured``); a reply that is not such an object falls through to the ordinary rules, so
a model that ignores the format is still read.
"""

from __future__ import annotations

import json
from typing import Any

from probe_ui.reading.item import Item

__all__ = ["ANSWER_FIELD", "answer_schema", "structured_label"]

#: the one field a structured reply carries
ANSWER_FIELD = "answer"


def answer_schema(labels: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema a structured reply follows: one required string field whose enum is the item's labels."""
    return {"type": "object", "properties": {ANSWER_FIELD: {"type": "string", "enum": list(labels)}},
            "required": [ANSWER_FIELD], "additionalProperties": False}


def structured_label(text: str, item: Item) -> str | None:
    """The label a reply that is exactly ``{"answer": ...}`` names (as the item spells it), or None when the reply
    is not such an object or its value is not one of the item's labels."""
    body = text.strip()
    if body.startswith("```"):  # a fenced JSON block
        body = body.strip("`").removeprefix("json").strip()
    if not (body.startswith("{") and body.endswith("}")):
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    if not isinstance(value, dict) or set(value) != {ANSWER_FIELD} or not isinstance(value[ANSWER_FIELD], str):
        return None
    return item.exact(value[ANSWER_FIELD].strip())
