"""Options named by their place in the list rather than by letter or text (batch 77).

Models answer a lettered or listed question with "Option 2", "option one", "the third option", "the last one", "the
top choice", "the former" / "the latter", "Neither of the first two", "the first colour in your list" or
``$\\boxed{2}$``, notably when the options were shuffled or a distractor swapped in. Such a reference is counted in
the item's own order (A first; for a label item, the order in which the question lists the labels: "(Answer with
red, green, or blue)") and written out as the letter ("option B") or the label itself, so that the ordinary rules
(final verdicts, self-corrections, negations, sureness) read it like any other answer.

A reference that cannot name one option names no answer, and the reply is unread: a place out of range ("the fifth
option" of four, "the third option" of two), a place whose own text names another option ("Option 2 (Pulmonary
edema)" where option 2 is pleural effusion), a place joined to another ("the second or third one"), "the former" or
"the latter" of more than two options, and a negated place of more than two ("Not the first option" of four, which
leaves three). Items whose options are numbers ("0", "2", "3", "4" teeth) read "option 2" as the second option,
never as the text "2"; a count ("That's three") is never taken for a place, and a bare number is never a place
except in a box ("$\\boxed{2}$") on an item whose options are not numbers.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from probe_ui.reading.cleaning import SENTENCE_END, pattern
from probe_ui.reading.item import Item
from probe_ui.reading.letters import letter_text_conflict

_WORD_PLACES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ORDINAL_PLACES = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}
_ORDINALS = r"first|second|third|fourth|fifth|sixth"

# "Option 2", "option one", "Choice 1", "option number 3", "option #4" (not "option 2.5", "option 2-3")
_NUMBERED = re.compile(r"(?i)\b(?:option|choice)[ \t]+(?:number[ \t]+|no\.[ \t]*|#[ \t]*)?([1-9]|one|two|three|four|"
                       r"five|six)\b(?![.,\-\u2013/][ \t]*\d|[ \t]*(?:or|and|to|/)[ \t]+(?:option[ \t]+)?\d)")
# "the third option", "the last one", "the top choice", "the final answer choice", "the middle option", "Second
# choice:" (not "the first option or the second", "the first and second options", "the last two options")
_ORDINAL = re.compile(r"(?i)\b(?:the[ \t]+)?(?:(" + _ORDINALS + r"|last|final|top|bottom|middle)[ \t]+(?:answer[ \t]+)?"
                      r"(?:option|choice|alternative)|(top|bottom)[ \t]+answer)(?![\w'\u2019]|[ \t]+(?:or|and)\b)")
# "the second one", "first one, joint effusion" (at the reply's start): "one" needs "the" or the start, since "a third
# one hidden behind the ramus" counts molars; out of range it is something else ("including the fourth one", a
# ventricle) and is left as written
_ORDINAL_ONE = re.compile(r"(?i)(?:\bthe[ \t]+|\A[ \t*_>\-]{0,4})(" + _ORDINALS
                          + r"|last|final|top|bottom|middle)[ \t]+one(?![\w'\u2019]|[ \t]+(?:or|and|of)\b)")
# "the second of the two options", "The last of the three: blue.", "Middle of the three: adult."
_OF_COUNT = re.compile(r"(?i)\b(?:the[ \t]+)?(" + _ORDINALS + r"|last|middle)[ \t]+of[ \t]+(?:the[ \t]+|your[ \t]+)?"
                       r"(two|three|four|five|six)\b(?:[ \t]+(?:options|choices|answers|colou?rs|groups|ones))?")
# "the former", "the latter" (of two options only)
_FORMER = re.compile(r"(?i)\b(?:the[ \t]+)?(former|latter)\b(?:[ \t]+(?:option|choice|one|answer)\b)?")
# "Neither of the first two": of three options, the third
_NEITHER = re.compile(r"(?i)\bneither[ \t]+of[ \t]+the[ \t]+first[ \t]+two\b(?:[ \t]+(?:options|choices))?")
# label items: "the first colour in your list", "the first colour you listed", "the second color listed"
_COLOUR = re.compile(r"(?i)\b(?:the[ \t]+)?(" + _ORDINALS + r"|last|middle)[ \t]+(?:colou?r|dot|label|word|one)"
                     r"[ \t]+(?:in[ \t]+(?:your|the)[ \t]+(?:list|question)|(?:that[ \t]+)?you[ \t]+(?:listed|gave|"
                     r"named|mentioned)|listed)\b")
# "$\boxed{2}$", "\boxed{2}"
_BOXED = re.compile(r"\$?\\boxed\{[ \t]*([1-9])[ \t]*\}\$?")
# a place joined to another place: "the second or third one", "between the first and the fourth options", "option 3
# or option 4", "options 2 and 3"
_PLACE_NOUN = r"[ \t]+(?:ones?|options?|choices?|answers?)\b"
_NUMBER = r"(?:[1-9]|one|two|three|four|five|six)"
_TWO_PLACES = re.compile(r"(?i)\b(?:" + _ORDINALS + r"|last|former|latter)[ \t]+(?:or|and|to)[ \t]+(?:the[ \t]+)?(?:"
                         + _ORDINALS + r"|last|former|latter)" + _PLACE_NOUN + r"|\b(?:option|choice)s?[ \t]+" + _NUMBER
                         + r"[ \t]+(?:or|and|to)[ \t]+(?:(?:option|choice)[ \t]+)?" + _NUMBER + r"\b")
# a negation just before the place: "Not the first option", "not option 2"
_NEGATED_BEFORE = re.compile(r"(?i)(?:\bnot|\bn't|\bnor|\bexclude|\bexcludes|\brule[ \t]+out)[ \t]+\Z")
# a negation just after the place: "the latter option doesn't apply", "the first option is wrong"
_NEGATED_AFTER = re.compile(r"(?i)[ \t]+(?:doesn't|does[ \t]+not|isn't|is[ \t]+not|is[ \t]+wrong|is[ \t]+incorrect|"
                            r"can[ \t]+be[ \t]+excluded|is[ \t]+excluded|is[ \t]+ruled[ \t]+out|can't[ \t]+be)\b")
# a rank of preference, not a place: "my first choice", "B is my top choice", "My final choice is B", "Pneumonia is
# the top answer", "The top choice here is pneumonia (B)": a possessive before it, or (for "choice" / "answer") an
# option's letter or text named in the same sentence; and "final" is a place only of an "option" ("the final option")
_POSSESSIVE_BEFORE = re.compile(r"(?i)\b(?:my|our|your|his|her|their)[ \t]+(?:(?:very|own)[ \t]+)?\Z")
_RANK_NOUN = re.compile(r"(?i)(?:choice|answer)\Z")
_CHEAP = re.compile(r"(?i)option|choice|\b(?:first|second|third|fourth|fifth|sixth|last|final|top|bottom|middle|"
                    r"former|latter|neither)\b|boxed")


def _order(item: Item) -> list[str]:
    """The item's answers in their own order: the letters of a choice item; a label item's labels in the order its
    question lists them ("(Answer with red, green, or blue)"), or none when the question does not list them all."""
    if item.kind == "choice":
        return [lb for _, lb in item.option_map] if item.option_map else []
    if item.kind != "label" or not item.question:
        return []
    q = item.question.casefold()
    at = {lab: q.rfind(lab.casefold()) for lab in item.labels}
    if any(i < 0 for i in at.values()):
        return []
    return sorted(item.labels, key=lambda lab: at[lab])


def _numeric_options(item: Item) -> bool:
    return item.kind == "choice" and bool(item.option_map) and all(opt.strip().isdigit() for opt, _ in item.option_map)


class Placed(NamedTuple):
    """A reply with its places written out (``text``); ``placeless``: a place names no one option, so the reply is
    to be left unread; ``other``: of two options, the one a reply's only place reference denies ("Not the former:
    ...", "the latter option doesn't apply") leaves the other, and ``text`` has that denial blanked."""
    text: str
    placeless: bool = False
    other: str | None = None


def written_out(text: str, item: Item) -> Placed:
    """The reply with each place reference written as its option ("option B" for a choice item, the label for a
    label item), and whether a place reference names no answer (out of range, contradicted by its own text, joined
    to another place, or a negated place of more than two options): then the reply is to be left unread."""
    order = _order(item)
    if len(order) < 2 or not _CHEAP.search(text):
        return Placed(text)
    n = len(order)
    label_item = item.kind == "label"
    bad = False
    named: list[int] = []
    denied: list[tuple[int, str]] = []

    def name(i: int) -> str:
        return order[i - 1] if label_item else "option " + order[i - 1]

    def preference(m: re.Match[str]) -> bool:
        """Whether the match ranks the model's preference ("my first choice", "the top answer is B") rather than
        naming a place (module note above)."""
        if _POSSESSIVE_BEFORE.search(text[max(0, m.start() - 16):m.start()]) is not None:
            return True
        if _RANK_NOUN.search(m.group(0)) is None:
            return False
        if re.match(r"(?i)(?:the[ \t]+)?final\b", m.group(0)):
            return True
        starts = [x.end() for x in SENTENCE_END.finditer(text, 0, m.start())]
        end = SENTENCE_END.search(text, m.end())
        sentence = text[starts[-1] if starts else 0:m.start()] + " " + text[m.end():end.start() if end else len(text)]
        return any(pattern(r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])", re.IGNORECASE).search(sentence)
                   or pattern(r"(?<![\w\-])\(?" + lb + r"\b(?![\-'\u2019])").search(sentence)
                   for opt, lb in item.option_map)

    def place(i: int | None, m: re.Match[str]) -> str:
        nonlocal bad
        if i is None or not 0 < i <= n:
            bad = True
            return m.group(0)
        before = _NEGATED_BEFORE.search(text[max(0, m.start() - 12):m.start()])
        after = _NEGATED_AFTER.match(text, m.end())
        if before is not None or after is not None:
            if n > 2:
                bad = True
            else:  # the denial as written ("Not the former", "the latter option doesn't")
                start = m.start() - (len(before.group(0)) if before is not None else 0)
                denied.append((i, text[start:after.end() if after is not None else m.end()]))
            return m.group(0)
        named.append(i)
        if not label_item:
            rest = text[m.end():m.end() + 120]
            paren = re.match(r"[ \t]*[(\[:,\-\u2013\u2014][ \t]*", rest)
            if paren is not None and letter_text_conflict(order[i - 1], rest[paren.end():].rstrip(")]"), item):
                bad = True
                return m.group(0)
        return name(i)

    if _TWO_PLACES.search(text) is not None:
        return Placed(text, True)

    def ordinal(word: str) -> int | None:
        w = word.casefold()
        if w in _ORDINAL_PLACES:
            return _ORDINAL_PLACES[w]
        if w in ("last", "final", "bottom"):
            return n
        if w == "top":
            return 1
        if w == "middle":
            return (n + 1) // 2 if n % 2 else None
        return None

    out = text
    if not label_item:
        out = _NUMBERED.sub(lambda m: place(int(m.group(1)) if m.group(1).isdigit()
                                            else _WORD_PLACES[m.group(1).casefold()], m), out)
        text = out
        out = _ORDINAL.sub(lambda m: m.group(0) if preference(m) else place(ordinal(m.group(1) or m.group(2)), m), out)
        text = out
        out = _ORDINAL_ONE.sub(lambda m: place(i, m) if (i := ordinal(m.group(1))) is not None and i <= n
                               and not preference(m) else m.group(0), out)
        text = out
        if not _numeric_options(item):
            out = _BOXED.sub(lambda m: place(int(m.group(1)), m), out)
            text = out
    else:
        out = _COLOUR.sub(lambda m: place(ordinal(m.group(1)), m), out)
        text = out

    def of_count(m: re.Match[str]) -> str:
        nonlocal bad
        if _WORD_PLACES[m.group(2).casefold()] != n:
            return m.group(0)  # "the first of the three groups" on a list of four: another count, left as written
        return place(ordinal(m.group(1)), m)

    out = _OF_COUNT.sub(of_count, out)
    text = out
    if _FORMER.search(out) is not None:
        if n == 2:
            out = _FORMER.sub(lambda m: place(1 if m.group(1).casefold() == "former" else 2, m), out)
            text = out
        elif not label_item:
            bad = True
    if n == 3:
        out = _NEITHER.sub(lambda m: name(3), out)
    if bad:
        return Placed(out, True)
    if denied and not named and len({i for i, _ in denied}) == 1:
        i, said = denied[-1]
        start = out.find(said)
        if start >= 0:
            return Placed(out[:start] + " " * len(said) + out[start + len(said):], False, order[2 - i])
    return Placed(out)
