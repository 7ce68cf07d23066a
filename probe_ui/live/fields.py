"""An item from the Probe tab's fields: options typed one per line, the answer choices a kind offers, and
the item itself, checked like a preset item."""

from __future__ import annotations

from typing import Any

from probe_ui.errors import ProbeError
from probe_ui.images import CanonicalImage
from probe_ui.items import KINDS, LETTERS, YES_NO, Item, content_hash


# ---- item fields -----------------------------------------------------------------------------------------------
def parse_options(text: str | list[str] | None) -> list[str]:
    """Options typed one per line (blank lines and surrounding spaces ignored)."""
    lines = text if isinstance(text, list) else (text or "").splitlines()
    return [s.strip() for s in lines if s and s.strip()]


def edit_options(text: str, action: str, index: int | None = None, new: str = "") -> str:
    """Add, remove or move one option; ``index`` is 1-based, as shown on the page."""
    opts = parse_options(text)
    if action == "add":
        if not new.strip():
            raise ProbeError("type the new option's text first")
        if new.strip() in opts:
            raise ProbeError(f"option {new.strip()!r} is already there")
        opts.append(new.strip())
        return "\n".join(opts)
    if index is None or not 1 <= int(index) <= len(opts):
        raise ProbeError(f"choose an option number between 1 and {len(opts)}" if opts else "there are no options yet")
    i = int(index) - 1
    if action == "remove":
        opts.pop(i)
    elif action in ("up", "down"):
        j = i - 1 if action == "up" else i + 1
        if 0 <= j < len(opts):
            opts[i], opts[j] = opts[j], opts[i]
    else:
        raise ProbeError(f"unknown option action {action!r}")
    return "\n".join(opts)


def answer_choices(kind: str, options_text: str) -> list[str]:
    """What the correct-answer picker offers for a kind: the options, yes/no, or nothing (free text)."""
    if kind == "yesno":
        return list(YES_NO)
    if kind in ("choice", "label"):
        return parse_options(options_text)
    return []


def answer_after_options(kind: str, options_text: str, current: str | None) -> tuple[list[str], str | None]:
    """The correct-answer picker after the options or the kind changed: its choices, and why the answer must be
    chosen again (None: leave it as the page has it). Only an answer that is no longer among the choices is
    undone: an empty one is never "reset", since the person may have chosen one since the change was sent
    (issue 51, U36: a correct answer chosen while the options were updating went back to empty, unsaid)."""
    choices = answer_choices(kind, options_text)
    if not current or current in choices or kind in ("free", "point"):
        return choices, None
    return choices, (f"The correct answer {current!r} is no longer one of the options: choose it again under "
                     "'correct answer'.")


def build_item(question: str, kind: str, options: str | list[str], answer: str | None, category: str = "",
               images: tuple[CanonicalImage, ...] = (), item_id: str | None = None,
               extra: dict[str, Any] | None = None) -> Item:
    """An item from the Probe tab's fields, checked like a preset item; its id derives from its content.

    ``extra`` holds what a preset item brings beyond the fields (``attributes`` such as MedBLINK's dot rule,
    ``tags``, ``group``), so a loaded item is asked as the preset asks it."""
    question = (question or "").strip()
    if not question:
        raise ProbeError("type a question", field="question")
    if kind not in KINDS:
        raise ProbeError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    opts = parse_options(options) if kind in ("choice", "label") else []
    if kind in ("choice", "label"):
        if len(opts) < 2:
            raise ProbeError(f"a {kind} question needs at least two options (one per line)", field="options")
        if len(set(opts)) != len(opts):
            raise ProbeError("options must be distinct", field="options")
        if len(opts) > len(LETTERS):
            raise ProbeError(f"at most {len(LETTERS)} options", field="options")
    answer = (answer or "").strip() or None
    if answer is not None:
        if kind == "yesno":
            answer = answer.lower()
            if answer not in YES_NO:
                raise ProbeError(f"a yes/no question's answer is yes or no, not {answer!r}", field="answer")
        elif kind in ("choice", "label") and answer not in opts:
            if kind == "choice" and len(answer) == 1 and answer.upper() in LETTERS[: len(opts)]:
                answer = opts[LETTERS.index(answer.upper())]
            else:
                raise ProbeError(f"the correct answer {answer!r} is not one of the options", field="answer")
    cats = tuple(c.strip() for c in (category or "").split(",") if c.strip())
    extra = dict(extra or {})
    attributes = dict(extra.get("attributes") or {})
    if kind == "point":
        answer = None  # a point item's answer is its region
        if not attributes.get("region"):
            raise ProbeError("a point question needs the finding's region: draw it on the image or type its "
                             "corners", field="region")
    ident = item_id or "live-" + content_hash({"q": question, "k": kind, "o": opts, "a": answer, "c": list(cats),
                                               "i": [im.id for im in images], "x": attributes}, 12)
    return Item(id=ident, question=question, kind=kind, options=tuple(opts), answer=answer,  # type: ignore[arg-type]
                category=cats, source="live", attributes=attributes, tags=tuple(extra.get("tags") or ()),
                group=extra.get("group"))
