"""Replies written to a JSON schema (``--answer-format json``, issue 46): read exactly, not by the rules.

Why a module: a model asked for ``{"answer": <one of the item's labels>}`` (an OpenAI ``response_format`` schema,
an Anthropic tool, constrained decoding over the label tokens) writes its answer in a field. That field is read
as it stands (method ``structured``); a reply that is not such an object falls through to the ordinary rules, so
a model that ignores the format is still read.
"""

from __future__ import annotations

import json
import re
from typing import Any

from probe_ui.reading import overlap
from probe_ui.reading.item import Item

__all__ = ["ANSWER_FIELD", "answer_schema", "boolean_field_label", "boolean_fields", "echoed_alternatives",
           "structured_label"]

#: the one field a structured reply carries
ANSWER_FIELD = "answer"


def answer_schema(labels: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema a structured reply follows: one required string field whose enum is the item's labels."""
    return {"type": "object", "properties": {ANSWER_FIELD: {"type": "string", "enum": list(labels)}},
            "required": [ANSWER_FIELD], "additionalProperties": False}


def structured_label(text: str, item: Item) -> str | None:
    """The label a reply that is exactly ``{"answer": ...}`` names (as the item spells it), or None when the reply
    is not such an object or its value is not one of the item's labels."""
    value = _json_object(text)
    if value is None or set(value) != {ANSWER_FIELD} or not isinstance(value[ANSWER_FIELD], str):
        return None
    return item.exact(value[ANSWER_FIELD].strip())


def _json_object(text: str) -> dict[str, Any] | None:
    body = text.strip()
    if body.startswith("```"):  # a fenced JSON block
        body = body.strip("`").removeprefix("json").strip()
    if not (body.startswith("{") and body.endswith("}")):
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def boolean_field_label(text: str, item: Item) -> str | None:
    """Yes/no items: the answer of a reply that is a JSON object written unasked with a boolean field whose name
    says what the question asks (batch 11: ``{"left_kidney_mass": false}`` to "Is a mass present in the left
    kidney?" is no): every word of the field's name is a word of the question (stems compared). None for any other
    reply, when no field names what the question asks (``{"right_kidney_mass": false}``), or when several do."""
    if item.kind != "yesno" or not item.aliases or not item.question or "{" not in text:
        return None
    value = _json_object(text)
    if value is None:
        return None
    asked = {overlap.stem(w) for w in re.findall(r"[^\W\d_]+", item.question)}
    flags = [flag for key, flag in value.items() if isinstance(flag, bool) and _names_asked(key, asked)]
    if len(flags) != 1:
        return None
    return item.aliases["yep" if flags[0] else "nope"]


def _names_asked(key: str, asked: set[str]) -> bool:
    """Whether every word of a field's name ("left_kidney_mass", "pleuralEffusion") is a word of the question."""
    words = [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key) if w and w.casefold() not in ("is", "has")]
    return bool(words) and all(overlap.stem(w) in asked for w in words)


def boolean_fields(text: str) -> bool:
    """Whether the reply is a JSON object with a boolean field: read by :func:`boolean_field_label` or not at all
    (``{"effusion": false, "pneumothorax": true}`` does not say "pneumothorax" as a sentence would)."""
    if "{" not in text:
        return False
    value = _json_object(text)
    return value is not None and any(isinstance(v, bool) for v in value.values())


_ANSWER_KEYS = ("answer", "final_answer", "choice", "option", "prediction", "selection", "label")


def echoed_alternatives(text: str, item: Item) -> bool:
    """Whether the reply is a JSON object whose answer field echoes the answer format's alternatives instead of
    choosing one (batch 15: ``{"answer": "correct|upside down"}``, ``{"answer": "yes/no"}``): the value splits at
    "|", "/" or " or " into two or more of the item's labels. Such a reply names no answer."""
    if "{" not in text:
        return False
    value = _json_object(text)
    if value is None:
        return False
    for key, v in value.items():
        if key.casefold() not in _ANSWER_KEYS or not isinstance(v, str):
            continue
        parts = [p.strip() for p in re.split(r"\s*\|\s*|\s*/\s*|\s+or\s+", v) if p.strip()]
        if len(parts) >= 2 and all(item.exact(p) is not None for p in parts):
            return True
    return False
