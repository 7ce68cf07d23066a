"""Replies laid out as a table or a checklist that marks the answer: a ✓ beside one option and ✗ beside the others
("| B. Pneumothorax | ✓ |"), one box ticked ("- [x] C. Hemangioma", "[ ] Yes\\n[x] No").

Why a module: models answer in the layout of a form (batches 12 and 14). Every option is written out there, so the
rules that read mentions see all of them and read nothing; the answer is the one row or line that carries the mark.
A layout that marks two answers, or none, is left to the other rules (which find every option named in it).
"""

from __future__ import annotations

import re

from probe_ui.reading.cleaning import norm
from probe_ui.reading.item import Item
from probe_ui.reading.letters import letter_text_conflict

__all__ = ["marked_label"]

# marks that say "this one" and marks that say "not this one"
_YES_MARKS = "\u2713\u2714\u2705\u2611\u2612"  # ✓ ✔ ✅ ☑ ☒
_NO_MARKS = "\u2717\u2718\u274c\u2715\u2716\u2610"  # ✗ ✘ ❌ ✕ ✖ ☐
# a checklist line: "- [x] C. Ductal adenocarcinoma", "[ ] Yes", "☑ No", "✅ B. Impetigo"
_CHECK_LINE = re.compile(r"[ \t>]*(?:[-*+\u2022][ \t]*|\d{1,2}[.)][ \t]*)?(?:\[(?P<box>[ xX\u2713\u2714])\]|"
                         r"(?P<glyph>[" + _YES_MARKS + _NO_MARKS + r"]))[ \t]*(?P<rest>\S[^\n]*)")
# a row of a markdown table (its separator row "|---|---|" aside)
_TABLE_ROW = re.compile(r"[ \t]*\|(?P<cells>[^\n]*\|?)[ \t]*")
_SEPARATOR = re.compile(r"[ \t|:\-]*")
_LETTER_FIRST = re.compile(r"[(\[]?([A-Z])(?:[)\].:]|(?=[ \t]|\Z))[ \t]*(?P<text>[^\n]*)")


def _named(cell: str, item: Item) -> str | None:
    """The answer a row's or line's own text names: a label ("No", "green"), a letter ("C", "(C)", "C. <C's text>",
    unless the text is another option's) or an option's whole text."""
    text = cell.strip(" \t*_`")
    lab = item.exact(text)
    if lab is not None:
        return lab
    if item.kind == "choice":
        m = _LETTER_FIRST.fullmatch(text)
        if m is not None and item.letter(m.group(1)) is not None:
            lab = item.letter(m.group(1))
            return None if lab is None or letter_text_conflict(lab, m.group("text"), item) else lab
        n = norm(text)
        hits = {lb for opt, lb in item.option_map if opt == n}
        return hits.pop() if len(hits) == 1 else None
    return None


def _marks(cells: list[str]) -> bool | None:
    """Whether the cells mark their row as the answer (True), not the answer (False), or say nothing (None)."""
    said = {c in _YES_MARKS for cell in cells for c in cell if c in _YES_MARKS or c in _NO_MARKS}
    return said.pop() if len(said) == 1 else None


def marked_label(text: str, item: Item) -> str | None:
    """The one answer a table or checklist marks; None when the reply is not laid out so (fewer than two of its lines
    name an answer and carry a mark) or marks two answers or none (the other rules then read it: a list that names
    every option is not read as one of them)."""
    if not any(c in text for c in _YES_MARKS + _NO_MARKS) and "[" not in text:
        return None
    rows: list[tuple[str, bool]] = []
    for line in text[:6000].split("\n"):
        check = _CHECK_LINE.fullmatch(line)
        if check is not None:
            lab = _named(check.group("rest"), item)
            mark = check.group("box") or check.group("glyph")
            if lab is not None:
                rows.append((lab, mark in "xX" + _YES_MARKS))
            continue
        row = _TABLE_ROW.fullmatch(line)
        if row is None or _SEPARATOR.fullmatch(line):
            continue
        cells = [c for c in row.group("cells").split("|")]
        lab = next((x for x in (_named(c, item) for c in cells) if x is not None), None)
        mark = _marks(cells)
        if lab is not None and mark is not None:
            rows.append((lab, mark))
    if len(rows) < 2:
        return None
    chosen = {lab for lab, mark in rows if mark}
    refused = {lab for lab, mark in rows if not mark}
    return chosen.pop() if len(chosen) == 1 and not chosen & refused else None
