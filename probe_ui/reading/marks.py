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

__all__ = ["marked_label", "marks_several"]

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
# batch 16: a checklist line whose answer is followed by its reason ("❌ Radius — the distal radius cortex is intact.",
# "✅ Scaphoid: a lucent line crosses the waist"): the answer is what precedes the dash or colon
_REASON = re.compile(r"[ \t]+[\-\u2013\u2014]{1,2}[ \t]+|[ \t]*[\u2013\u2014][ \t]*|[ \t]*:[ \t]+")
# batch 16: a table cell that says in words that its row is the answer ("| B. Primary lung cancer | ← chosen |")
_CHOSEN_CELL = re.compile(r"(?i)[ \t*_]*(?:(?:\u2190|<-+|<=|\u2b05\ufe0f?|\u27f5)[ \t]*)?(?:chosen|selected|"
                          r"my\s+(?:answer|choice|pick)|(?:the\s+)?answer|this\s+one|picked)?[ \t]*"
                          r"(?:\u2190|<-+)?[ \t*_!]*")
_ARROWS = ("\u2190", "<-", "<=", "\u2b05", "\u27f5")


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
    chosen = _chosen(text, item)
    return next(iter(chosen)) if chosen is not None and len(chosen) == 1 else None


def marks_several(text: str, item: Item) -> bool:
    """Whether a table or checklist marks two different answers as chosen ("✅ Pneumonia: ...\n✅ Pleural effusion:
    ..."): the reply names no single answer, whatever its last line says (batch 16)."""
    chosen = _chosen(text, item)
    return chosen is not None and len(chosen) > 1


def _chosen(text: str, item: Item) -> set[str] | None:
    """The answers a table or checklist marks as chosen (None: no such layout, or one that marks an answer both
    ways)."""
    if not any(c in text for c in _YES_MARKS + _NO_MARKS) and "[" not in text and not (
            "|" in text and any(a in text for a in _ARROWS)):
        return None
    rows: list[tuple[str, bool]] = []
    unmarked: set[str] = set()
    for line in text[:6000].split("\n"):
        check = _CHECK_LINE.fullmatch(line)
        if check is not None:
            rest = check.group("rest")
            lab = _named(rest, item)
            reason = _REASON.search(rest)
            if lab is None and reason is not None and reason.start() > 0:
                lab = _named(rest[:reason.start()], item)
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
        if mark is None and any(_worded_mark(c) for c in cells):
            mark = True
        if lab is not None and mark is not None:
            rows.append((lab, mark))
        elif lab is not None and not any(c.strip(" \t*_") for c in cells if _named(c, item) is None):
            unmarked.add(lab)  # "| A. Granuloma | |": a row of the table left blank
    chosen = {lab for lab, mark in rows if mark}
    refused = {lab for lab, mark in rows if not mark}
    if len(rows) == 1 and len(chosen) == 1 and len(unmarked - chosen) >= 2:
        # batch 16: one row of an "Option | Verdict" table marked ("← chosen"), the other options' rows left blank
        return chosen
    if len(rows) < 2 or chosen & refused:
        return None
    return chosen


def _worded_mark(cell: str) -> bool:
    """Whether a table cell says in words, with an arrow, that its row is the answer ("← chosen", "<- my answer")."""
    return any(a in cell for a in _ARROWS) and _CHOSEN_CELL.fullmatch(cell) is not None
