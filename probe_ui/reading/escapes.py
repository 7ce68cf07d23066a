"""Escape options ("None of the above", "Not a suitable question for the image", "The question contains a
clinically incorrect premise") stated in the reply's own words.

Why a module: MedVH and others offer an escape option; a reply says it in its own words ("None of these fit.",
"There is no middle lobe on the left.") and may state it beside another answer, which is then ambiguous.
"""

from __future__ import annotations

import re

from probe_ui.reading import lexicon, overlap
from probe_ui.reading.cleaning import blank_matches, mask_spans, spelled
from probe_ui.reading.item import Item


def stated_escape_option(text: str, item: Item) -> str | None:
    """The escape option ("None of the above", "Not a suitable question for the image", "The question contains
    a clinically incorrect premise") that a reply states in its own words, when the item has exactly one option
    of that kind."""
    if item.kind != "choice" or not item.escapes:
        return None
    kinds = lexicon.escape_kind_of_reply(text)
    if "premise" in item.escapes and _denies_premise(text, item.question):
        kinds.append("premise")  # "There is no middle lobe on the left." to "... of the left middle lobe ...?"
    hits = {lab for k in kinds for lab in item.escapes.get(k, ())}
    return hits.pop() if len(hits) == 1 else None


# batch 81: "Normal left lung." to "What abnormality is seen in the left lung?" (options Pneumonia, Pulmonary edema,
# Lung mass, None of the above): the question's subject called normal has none of the abnormalities offered; "lung"
# is the question's word, not the option "Lung mass"
_ASKS_ABNORMALITY = re.compile(r"(?i)\b(?:what|which)\b[^?\n]{0,30}?\babnormalit(?:y|ies)\b")
_NORMAL = frozenset({"normal", "unremarkable", "clear"})
_NORMAL_FILLERS = frozenset({"appears", "appear", "looks", "look", "seems", "within", "limits", "entirely",
                             "completely", "otherwise", "essentially"})


def called_normal(text: str, item: Item) -> str | None:
    """The "None of the above" option, where a short reply only calls what an "abnormality" question asks about
    normal ("Normal left lung.", "The left lung is unremarkable."): every word of it a normal word, a filler or a word
    of the question."""
    nones = item.escapes.get("none", [])
    question = item.question
    if len(nones) != 1 or not question or len(text) > 80 or not _ASKS_ABNORMALITY.search(question):
        return None
    if "?" in text or re.match(r"(?i)[\W_]*(?:is|are|does|do)\b", text) \
            or re.search(r"(?i)\b(?:not|no|never|nor)\b|n't\b", text):
        return None  # "Left lung not normal", "Left lung clear? No.": no normal subject stated
    words = set(overlap.content_words(text.casefold()))
    if words & _NORMAL and not words - _NORMAL - _NORMAL_FILLERS - set(overlap.content_words(question)):
        return nones[0]
    return None


_THERE_IS_NO = re.compile(r"(?i)\bthere\s+(?:is|are)\s+no\s+(?P<a>[^.;:,!?\n]{3,60})"
                          r"|\b(?P<b>(?:\w+[ \t]+){1,5}?)(?:does|do)\s+not\s+exist\b")


def _denies_premise(text: str, question: str) -> bool:
    """Whether the reply says that what the question takes for granted does not exist: "There is no middle lobe on
    the left." to "Which segment of the left middle lobe ...?" (two or more of the question's words)."""
    if not question or not re.search(r"(?i)\bno\b|\bnot\s+exist", text):
        return False
    asked = {overlap.stem(w) for w in overlap.content_words(question)}
    for m in _THERE_IS_NO.finditer(text[:2000]):
        said = {overlap.stem(w) for w in overlap.content_words(m.group("a") or m.group("b") or "")}
        if len(said & asked) >= 2:
            return True
    return False


_QUOTED = r"[\"\u201c\u2018][^\"\u201c\u201d\u2018\u2019\n]{1,100}?[\"\u201d\u2019]"
_NAMED_AS_OPTION = re.compile(r"(?i)" + _QUOTED + r"[ \t]+(?:option|choice|answer)s?\b"
                              r"|\b(?:option|choice|answer)[ \t]+(?-i:[A-Z])[ \t]*\([ \t]*" + _QUOTED + r"[ \t]*\)"
                              # held-out batch 173: "Option A, 'None of the above', would only earn its place if ..."
                              r"|\b(?:option|choice|answer)[ \t]+(?-i:[A-Z])[ \t]*[,:\u2013\u2014][ \t]*(?:" + _QUOTED
                              + r"|'[^'\n]{1,100}?')[ \t]*,?"
                              # held-out batch 167: "the option stating the question is unsuitable does not apply"
                              r"|\bthe[ \t]+(?:option|choice|answer)[ \t]+(?:stating|saying|that[ \t]+(?:says|states)|"
                              r"which[ \t]+(?:says|states))[ \t]+[^.;:!?\n]{1,80}?(?=[ \t]+(?:does|do|would|is)\b)"
                              # held-out batch 171: '"None of the above" doesn't hold, since the lesion is real'
                              r"|" + _QUOTED + r"(?=[ \t]+(?:does\s+not|doesn't|do\s+not|don't|can(?:not|'t))\s+"
                              r"(?:apply|fit|hold|stand|work)\b)")
# what the words after an option so named say of it: set aside ("... option would apply if the study were ...", "... is
# tempting ..., but", "that option does not apply"), or taken up ("... option fits better", "is the better answer",
# "is correct", "applies", a hostile review)
_PUT_ASIDE = re.compile(r"(?i)\b(?:would\s+(?:only\s+)?(?:apply|fit|be\s+(?:right|correct|the\s+answer))\s+(?:only\s+)?"
                        r"(?:if|when)|would\s+only\s+(?:[\w']+\s+){1,4}?(?:if|when)|is\s+tempting|(?:does\s+not|doesn't|do\s+not|don't|can(?:not|'t))\s+(?:apply|fit|hold|stand|work)|"
                        r"rather\s+than)\b")
_TAKEN_UP = re.compile(r"(?i)\b(?:fits?\s+(?:better|best)|is\s+(?:(?:really|actually|strictly|honestly|probably)\s+)?"
                       r"(?:correct|right|the\s+(?:better|right|correct|honest|best|real))|"
                       # (not "the question applies": held-out batch 171's "- Not a suitable question for the image:
                       # this is a knee radiograph and it does show a fracture, so the question applies.")
                       r"(?<!question\s)(?<!premise\s)applies\b(?!\s+only)|"
                       # (an entry that opens by taking it up: "- **B. Incorrect premise** — yes: there is no right
                       # lung", a review of held-out batch 171's rules)
                       r"[\u2013\u2014:\-][ \t*_]*(?:yes|correct|right|agreed?|this\s+one)\b|"
                       r"(?:would|I'd)\s+(?:actually\s+)?(?:pick|choose|go\s+with)|is\s+what\s+I|is\s+the\s+answer)\b")


def _taken_up(m: re.Match[str]) -> bool:
    """Whether an escape option named as an option (:data:`_NAMED_AS_OPTION`) stands: the words after it do not set
    it aside, or one takes it up."""
    after = m.string[m.end():m.end() + 250]
    return not _PUT_ASIDE.search(after) or bool(_TAKEN_UP.search(after))


def escape_conflict(text: str, item: Item, label: str) -> bool:
    """Whether the reply states, in its own words, an escape option of the item ("None of the above", "The question
    contains a clinically incorrect premise") other than ``label`` (an echoed option list's "D. None of the above"
    aside)."""
    if not item.escapes:
        return False
    for opt, lab in item.option_map:
        if lexicon.escape_kind_of_option(opt):
            body = spelled(opt, r"[\s\-]+")
            # held-out batch 167: an entry of a review of the options that opens with the option's first words ("-
            # **Not a suitable question:** this is a genuine knee radiograph ..., so the question is appropriate.", "-
            # *None of the above (A)* — there's clearly a lesion, so not applicable unless the lesion matched none of
            # the options"): what the entry says is said of that option
            head = spelled(" ".join(opt.split()[:3]), r"[\s\-]+")
            # (unless the entry takes it up: "- None of the above: this fits best, on reflection."); or with its letter
            # (held-out batch 171: "- **B. Incorrect premise** — the premise is consistent: ...")
            text = re.sub(r"(?im)^[ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+[*_]*(?:" + head + r"\b|[(\[]?"
                          + re.escape(lab) + r"[)\].:])[^:\n*]{0,40}[*_]*[ \t]*"
                          r"(?:[:\u2013\u2014]|\s-\s).*$",
                          lambda m: m.group(0) if _TAKEN_UP.search(m.group(0)) else " ", text)
            text = re.sub(r"(?i)[(\[]?\b[A-Z][)\].:][ \t]*" + body, " ", text)
            # batch 102: the option named in a review of the options, as a table row's heading or with its letter
            # after it ("| None of the above | - | A lesion is present |", "- None of the above (B): A definite lesion
            # is present.")
            text = re.sub(r"(?im)^[ \t]*\|[ \t]*" + body + r"[ \t]*\|", " ", text)
            text = re.sub(r"(?i)\b" + body + r"[ \t]*[(\[](?-i:[A-Z])[)\]]", " ", text)
    # held-out batch 151: the option named as an option, not said ("The "not a suitable question" option would apply
    # if ...", "Option D ("the question contains a clinically incorrect premise") is tempting ...")
    text = blank_matches(_NAMED_AS_OPTION, text, _taken_up)
    # (a row led by a letter names that option in its next cell, in whatever words: "| B | Not a suitable question |")
    text = re.sub(r"(?m)^[ \t]*\|[ \t]*[A-Z][ \t]*\|[^|\n]*\|", " ", text)
    text = mask_spans(text, _either_of_another(text[:4000], item))
    said = {lb for k in lexicon.escape_kind_of_reply(text[:4000]) for lb in item.escapes.get(k, ())}
    return bool(said) and label not in said


# "no <something> in/on/of either <side>", which says "neither" of the finding the question asks about
_NO_IN_EITHER = re.compile(r"(?i)\b(?:no|not)\b([^.;\n]{0,60}?)\b(?:in|on|at|of)\s+either\b")


def _either_of_another(text: str, item: Item) -> list[tuple[int, int]]:
    """Spans of "no X ... either" where X holds no word of the question (batch 98: "there's no flattening or depression
    of either hemidiaphragm" to "On which side is the pneumothorax?" denies a sign, not the finding asked about; "No
    hydronephrosis in either kidney" to "Which kidney shows hydronephrosis?" does)."""
    if not item.question:
        return []
    asked = {overlap.stem(w) for w in re.findall(r"[^\W\d_]+", item.question.casefold()) if len(w) > 3}
    return [m.span() for m in _NO_IN_EITHER.finditer(text)
            if not asked & {overlap.stem(w) for w in re.findall(r"[^\W\d_]+", m.group(1).casefold())}]
