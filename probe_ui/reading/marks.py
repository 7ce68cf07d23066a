"""Replies laid out as a table or a checklist that marks the answer: a ✓ beside one option and ✗ beside the others
("| B. Pneumothorax | ✓ |"), one box ticked ("- [x] C. Hemangioma", "[ ] Yes\\n[x] No").

Why a module: models answer in the layout of a form (batches 12 and 14). Every option is written out there, so the
rules that read mentions see all of them and read nothing; the answer is the one row or line that carries the mark.
A layout that marks two answers, or none, is left to the other rules (which find every option named in it).
"""

from __future__ import annotations

import re

from probe_ui.reading import synonyms
from probe_ui.reading.cleaning import WORD, mask_spans, norm
from probe_ui.reading.item import Item, canonical_item
from probe_ui.reading.letters import letter_text_conflict
from probe_ui.reading.options import whole_text

__all__ = ["clear_lead", "marked_label", "marks_against", "marks_several", "own_column", "weighted_label"]

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


def _marks(cells: list[str], item: Item | None = None) -> bool | None:
    """Whether the cells mark their row as the answer (True), not the answer (False), or say nothing (None); with a
    choice item, a cell that is only "yes" or "no" marks its row too (:func:`_worded_yes_no`)."""
    said = {c in _YES_MARKS for cell in cells for c in cell if c in _YES_MARKS or c in _NO_MARKS}
    if item is not None and _worded_yes_no(item):
        said |= {_YES_NO_CELL[m.group(1).lower()] for cell in cells if (m := _YES_NO_CELL_RE.fullmatch(cell))}
    return said.pop() if len(said) == 1 else None


# batch 18: an "Option | Fits?" table whose second column says "yes" on one row and "no" on the others
_YES_NO_CELL = {"yes": True, "no": False, "y": True, "n": False, "true": True, "false": False}
_YES_NO_CELL_RE = re.compile(r"(?i)[ \t*_`]*(yes|no|y|n|true|false)[ \t*_`.!]*")


def _worded_yes_no(item: Item) -> bool:
    """Whether a table's "yes" / "no" cells can mark its rows: a choice item none of whose options is itself yes or
    no (where "| Yes | no |" would name an option)."""
    return item.kind == "choice" and not any(norm(opt) in _YES_NO_CELL for opt in item.options)


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
            "|" in text and (any(a in text for a in _ARROWS) or _worded_yes_no(item))):
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
        mark = _marks(cells, item)
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


# a table row's last cell that gives its verdict on the option the row names, in words ("| D. Pneumothorax | No pleural
# line | Present |", "| A. Herpes zoster | Dermatomal vesicles — fits |"): after a dash, or the whole cell
_VERDICT_FOR = re.compile(r"(?i)present|yes|likely|most[ \t]+likely|favou?red|fits|consistent|supported|best[ \t]+fit")
_VERDICT_AGAINST = re.compile(r"(?i)absent|no|excluded|unlikely|ruled[ \t]+out|not[ \t]+supported|"
                              r"(?:does[ \t]+not|doesn't)[ \t]+fit")
_VERDICT_AFTER = re.compile(r"[ \t]+[\-\u2013\u2014]{1,2}[ \t]+|[ \t]*[\u2013\u2014][ \t]*")


def _verdict(cell: str) -> bool | None:
    """Whether a table's last cell says its row's option is the answer (True), is not (False), or neither (None)."""
    word = _VERDICT_AFTER.split(cell)[-1].strip(" \t*_`.!")
    return True if _VERDICT_FOR.fullmatch(word) else False if _VERDICT_AGAINST.fullmatch(word) else None


def marks_against(text: str, item: Item, label: str | None) -> bool:
    """Whether a table that goes through the options gives another verdict than the reading ``label``: its rows mark
    other options as the answer and not ``label``, or ``label``'s row marks it as not ("| D. Pneumothorax | No pleural
    line | Present |" above "So: C.", a hostile review): which of the two the reply means is a guess. (Two options
    marked, the reply then choosing one of them, is no doubt: held-out batch 119, "| C. left basilar area | ✅ |\n| D.
    left basal area | ✅ (same location, different wording) |" and "I'll go with C".)"""
    if label is None or item.kind != "choice" or "|" not in text:
        return False
    chosen: set[str] = set()
    for line in text[:6000].split("\n"):
        row = _TABLE_ROW.fullmatch(line)
        if row is None or _SEPARATOR.fullmatch(line):
            continue
        cells = [c for c in row.group("cells").split("|") if c.strip(" \t*_`")]
        lab = _named(cells[0], item) if len(cells) >= 2 else None
        if lab is None:
            continue
        mark = _marks(cells[1:], item)
        if mark is None:
            mark = _verdict(cells[-1])
        if mark is False and lab == label:
            return True
        if mark:
            chosen.add(lab)
    return bool(chosen) and label not in chosen


def _worded_mark(cell: str) -> bool:
    """Whether a table cell says in words, with an arrow, that its row is the answer ("← chosen", "<- my answer")."""
    return any(a in cell for a in _ARROWS) and _CHOSEN_CELL.fullmatch(cell) is not None


# batch 17: a likelihood given to each option ("- C. Aortic dissection: 60%", "herpes zoster 80%, contact dermatitis
# 10%, ...", "| Subdural hematoma | 85% |"): the reply weighs the options, and one clearly leads
_PERCENT = re.compile(r"(?<![\w.])(\d{1,3}(?:[.,]\d+)?)[ \t]*%")
_ENTRY_SPLIT = re.compile(r"[\n;,](?![ \t]*\d)")
# (or a letter whose likelihood alone follows it, in brackets or not: "B (30%), C (25%), D (25%), A (20%)", read A
# from its last letter, sure, a black-box check of 2026-12-06; "A 5%, B 80%, C 10%, D 5%")
# (after a heading of the list, "Probabilities: A 45%, B 40%, ...", the corpus)
_LETTER_ENTRY = re.compile(r"[ \t>*_\-\u2022|]*(?:[A-Za-z][\w ]{0,30}:[ \t]*)?[(\[]?([A-Z])(?:[)\].:]|"
                           r"[ \t]*[\-\u2013\u2014]|"
                           r"(?=[ \t]*(?:\([ \t]*\)|\[[ \t]*\])?[ \t.]*\Z))")
#: how far the leading likelihood must be ahead: at least twice the next one ("60 %" beside "15 %"; not "55 %" beside
#: "45 %")
LEAD = 2.0


def weighted_label(text: str, item: Item) -> tuple[str | None, bool]:
    """A reply that gives each of at least two answers a likelihood ("Estimated likelihood: - A. ...: 15% - C. ...:
    60% ...", "herpes zoster 80%, contact dermatitis 10%, ...", an "Option | Likelihood" table): (the answer whose
    likelihood is at least :data:`LEAD` times every other one, whether the layout is such a list at all). (None,
    True) when none leads so clearly ("cirrhotic 55%, non-cirrhotic 45%"), or when the rest of the reply names
    another answer; (None, False) when the reply is no such list."""
    lab, weighed, _ = _weighted(text, item)
    return lab, weighed


def clear_lead(text: str, item: Item) -> bool:
    """Whether the answer a likelihood list leads with (:func:`weighted_label`) is ahead beyond doubt: at least half
    the likelihood and three times any other ("60 %" beside 15 % at most, "85 %" beside 5 %), as "the most likely
    answer is C" ranks the options; a narrower lead is read as a guess."""
    lab, _, ranked = _weighted(text, item)
    return lab is not None and ranked[0] >= 50 and ranked[0] >= 3 * ranked[1]


def _weighted(text: str, item: Item) -> tuple[str | None, bool, tuple[float, ...]]:
    """:func:`weighted_label`'s reading, and the likelihoods from the highest down."""
    if "%" not in text or len(text) > 6000:
        return None, False, ()  # (a list of likelihoods is short: a degenerate reply stays fast)
    weights: dict[str, float] = {}
    spans: list[tuple[int, int]] = []
    unlabelled = 0
    start = 0
    for cut in [*(m.start() for m in _ENTRY_SPLIT.finditer(text)), len(text)]:
        entry = text[start:cut]
        begin, start = start, cut + 1
        found = _PERCENT.findall(entry)
        if len(found) != 1:
            continue
        lab = _entry_label(_PERCENT.sub(" ", entry), item)
        if lab is None:
            unlabelled += bool(WORD.search(_PERCENT.sub(" ", entry)))
            continue
        if lab in weights:
            return None, False, ()  # the same answer twice: not a distribution over the answers
        weights[lab] = float(found[0].replace(",", "."))
        spans.append((begin, cut))
    if len(weights) < 2:
        # a yes/no question's finding and its opposite weighed in words ("Likelihood: enlarged 55%, normal 45%."):
        # the reply weighs, and names no answer
        return None, item.kind == "yesno" and len(weights) + unlabelled >= 2, ()
    ranked = sorted(weights.items(), key=lambda x: -x[1])
    values = tuple(v for _, v in ranked)
    if ranked[0][1] < LEAD * ranked[1][1] or ranked[0][1] <= 0:
        return None, True, values
    if _names_other(mask_spans(text, spans), ranked[0][0], item):
        return None, True, values  # "... C 60% ... But I'd go with B."
    return ranked[0][0], True, values


def _entry_label(entry: str, item: Item) -> str | None:
    """The one answer a likelihood entry names: a leading letter ("- C. Aortic dissection:", unless its text is
    another option's), an option's whole text (also in canonical form: "haematoma"), or a label word."""
    body = entry.strip(" \t*_|:-\u2022")
    if item.kind == "choice":
        m = _LETTER_ENTRY.match(entry)
        if m is not None and item.letter(m.group(1)) is not None:
            lab = item.letter(m.group(1))
            return None if lab is None or letter_text_conflict(lab, entry[m.end():], item) else lab
        citem = canonical_item(item.kind, item.labels, item.options, item.question)
        low = norm(synonyms.canonical(body, citem.narrow))
        hits = {lb for opt, lb in citem.option_map if whole_text(opt).search(low)}
        return hits.pop() if len(hits) == 1 else None
    hits = {lb for w, lb in item.words if re.search(r"(?<![\w\-])" + re.escape(w) + r"(?![\w\-])", norm(body))}
    return hits.pop() if len(hits) == 1 else None


def _names_other(rest: str, lab: str, item: Item) -> bool:
    """Whether what the reply says besides its likelihoods names another answer (by its letter in brackets or its
    text)."""
    if item.kind != "choice":
        return any(lb != lab and re.search(r"(?<![\w\-])" + re.escape(w) + r"(?![\w\-])", norm(rest))
                   for w, lb in item.words)
    if any(item.letter(m.group(1)) not in (None, lab) for m in re.finditer(r"[(\[]([A-Z])[)\]]", rest)):
        return True
    citem = canonical_item(item.kind, item.labels, item.options, item.question)
    low = norm(synonyms.canonical(rest, citem.narrow))
    return any(lb != lab and whole_text(opt).search(low) for opt, lb in citem.option_map)


# batch 36: a table that sets the reply's answer beside someone else's ("| | Physician | Mine |", "| Physician | My
# answer |"): the reply's own column holds its answer
_OWN_HEAD = re.compile(r"(?i)[ \t*_]*(?:mine|my[ \t]+(?:answer|reading|choice|view|assessment)|me|reviewer|model)"
                       r"[ \t*_:]*")
_OTHER_HEAD = re.compile(r"(?i)[ \t*_]*(?:physician|physician's(?:[ \t]+answer)?|doctor|suggested(?:[ \t]+answer)?|"
                         r"yours|your[ \t]+answer|given(?:[ \t]+answer)?)[ \t*_:]*")


def own_column(text: str) -> str | None:
    """The cell of a table's own column ("Mine", "My answer") when its header sets it beside someone else's
    ("Physician", "Suggested") and one row fills it; None otherwise. What the other column holds is not the reply's
    answer."""
    rows = [m.group("cells") for line in text.split("\n") if (m := _TABLE_ROW.fullmatch(line))]
    rows = [r for r in rows if not _SEPARATOR.fullmatch(r)]
    if len(rows) < 2:
        return None
    head = [c for c in rows[0].rstrip("|").split("|")]
    own = [i for i, c in enumerate(head) if _OWN_HEAD.fullmatch(c)]
    other = [i for i, c in enumerate(head) if _OTHER_HEAD.fullmatch(c)]
    if len(own) != 1 or len(other) != 1:
        return None
    cells = [r.rstrip("|").split("|") for r in rows[1:]]
    filled = [c[own[0]].strip(" \t*_") for c in cells if len(c) > own[0] and c[own[0]].strip(" \t*_")]
    return filled[0] if len(filled) == 1 else None


def asked_row(text: str) -> str | None:
    """The answer cell of a question-and-answer table (batch 80: "| Q | A |\n|---|---|\n| Kidney shown? | Without a
    doubt |"): the one row whose first cell asks a question, its second cell filled; None otherwise (no such table,
    or two questions asked in it)."""
    if "?" not in text or "|" not in text:
        return None
    rows = [m.group("cells") for line in text.split("\n") if (m := _TABLE_ROW.fullmatch(line))]
    asked = [c for c in (r.rstrip("|").split("|") for r in rows if not _SEPARATOR.fullmatch(r))
             if len(c) == 2 and c[0].strip(" \t*_").endswith("?") and c[1].strip(" \t*_")]
    return asked[0][1].strip(" \t*_") if len(asked) == 1 else None
