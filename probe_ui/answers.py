"""Reading a model's reply: which option / label it chose, whether it refused, and the legacy parsers.

Why this module exists: published medical-VLM scores depend as much on how the raw reply is parsed as on the
model. The robust default (:func:`extract`) follows docs/reference.md §3 and avoids the known traps (lmms-eval #1434:
a first-capital-letter regex reads "The correct answer is (B)" as "T", "Based on the image, A" as "B", and the
article in "A fracture is visible" as option A). The legacy modes (each benchmark's ``legacy.py``,
:func:`probe_ui.benchmarks.legacy_modes`) reproduce the original
benchmarks' parsers quirk for quirk, so published numbers can be recomputed from raw replies.

The raw text is always logged by the caller; an :class:`Answer` records the parsed label, the rule that decided
(``method``), ``invalid`` as its own class, and the refusal flag, which is independent of the choice.

Before any rule: typographic quotes and full-width forms are folded (NFKC: "（B）" is "(B)"); chat-template tokens
("</s>", "<|im_end|>", "<end_of_turn>", a leading "ASSISTANT:") are dropped, and after a closed ``<think>`` block
only what follows it is read; markdown emphasis and headings are dropped; MediConfusion's primed completions of its
prompt's '#answer: ("' are rewritten to the
bracketed letter ('("A")', 'A")', 'B": <option text>)', '#answer: ("B")' → "(A)", "(B)"); "N/A", "n/a", "N.A."
become "not applicable", so they are never option A (unless an option's own text is N/A).

Robust rules, in order (the first that decides wins):

0. empty / whitespace → invalid ("empty"); a reply that *is* one label (case-insensitive, surrounding
   punctuation/markdown ignored: "B", "(B)", "B.", "**B**", "b", "Yes.", "Upside down"; for yes/no items also
   "Nope"/"Yep"/"Yeah", "Affirmative"/"Negative") → that label ("exact").
1a. the reply's final verdict after its last self-correction ("Wait", "Actually", "On second thought", "Changing my
   answer to", ...): what follows it, read by these rules, decides ("final_verdict"); a doubt after it that names
   another answer is "ambiguous", one that names none takes the answer back ("withdrawn").
1. the LAST explicit declaration ("answer is X", "Answer: X", "The correct answer is: X", "correct option is
   (X)", "I choose X", "Final answer: X", "**Answer: B**", "<answer>X</answer>", a JSON field ``{"answer":
   "X"}``, "X is the correct answer", "<option text> is the most likely diagnosis", "The most likely diagnosis
   is X", "..., so X." ending its sentence, "Respuesta: X" / "Die richtige Antwort ist X" / "答案是 X"; for label
   items "<label> [dot] is the closest" with the question's own superlative) → "declaration". X may be a letter
   in any of the forms ``X (X) X) X. X:``, an option's text, or a label word. A lowercase letter counts when it
   cannot be a word ("answer is b", "Answer: (b)", but not "answer is a fracture"); "A"/"I" followed by an
   ordinary word on the same line are the article/pronoun (a line break after the letter ends it: "Answer:
   A\n\nExplanation: ..." is A). "The answer is not B" declares nothing. A conditional declaration inside an
   if/unless sentence is a hypothesis and is skipped ("B would be correct only if the sac had grown", "If it
   were stable, the answer would be A"; not "If I had to choose, I would say B"). A declared "N/A" ("Answer:
   N/A") makes the reply invalid ("not_applicable") whatever words follow. Someone else's answer ("The
   physician's answer B: ... is wrong", "the suggested answer", "your answer") is no declaration unless the reply
   endorses it ("... is correct", "I agree with the physician's answer B"); a letter followed by another option's
   text ("The answer is A: Pleural effusion" when that is B) is "ambiguous", and so is a declared letter when the
   reply opens with another option's own short text ("Yes, the answer is A." where A is "No"). A declaration in
   Spanish, French, German or Chinese gives "language".
   Weak cues ("it is X", "I think X", "Probably X." / "Most likely X." opening a sentence, "my best guess is
   X", "leaning towards X") count only when they name a valid option, and only after rules 2 and 3b.
2. ``\boxed{X}`` (the last one) → "boxed", then backticked answers → "backtick" (two different → "ambiguous").
3. choice items:
   a. a reply that is exactly one option's text → "option_text";
   b. the first line is the answer letter ("(B)", "B.", "B: <text>", "A, though ...", "(C) 3") and the rest
      explains it, whatever other options the explanation names ("(B)\n\nExplanation: (A) would ..."), or the
      last line is a lone letter after an explanation or an echoed option list → "leading" ("bare" when no other
      letter occurs). Not when the first line names a second letter ("A, B"), when the next line continues an
      echoed option list ("(B) <B's text>", "(B) aggravating"), for abbreviations ("E. coli"), or when the
      first and last lines disagree ("ambiguous");
   c. lone letter tokens ``(X)``, a line starting with ``X.``/``X:``/``X)``/``X,`` or holding only ``X``, a
      final ``, X`` / ``! X`` at the end of the reply, "option X", ". X:" in an echoed option list, "X or Y" →
      "bare"; two different labels → "ambiguous". Uppercase only; "I" only as "(I)"/"option I". Letters inside
      a skipped hypothesis do not count.
   yes/no and label items: a leading label ("No, there is ...", "Red.", "Nope, MRI.") → "leading" ("Yes and
   no" is not), then whole-word match of exactly one label → "label_word" (phrases as phrases, "correctly"
   counts as "correct", "correct" inside "incorrect" does not, negated mentions such as "not upside down" are
   dropped for label items); two → "ambiguous".
4. choice items: a reply that contains exactly one option's text → "option_text_contained" (only when no option
   text contains another, and not after a negation such as "no"/"without"); else a short reply (at most 8
   words) that is the start of exactly one option's text ("No effacement.") or uses a word only one option has
   ("Aggravating.", "The pseudoaneurysm is stable.", "Metastases." for "Metastatic carcinoma"; with two options
   "Not stable." names the other) → "option_keyword" (not for refusals).
4d. choice items: an option named by its concepts (:mod:`probe_ui.reading.overlap`: "Broken kneecap." for
   "Patellar fracture", "IIH", "a stone in the common bile duct" for choledocholithiasis) → "option_words"; every
   option but one rejected ("Not a pseudocyst, not an adenocarcinoma, not an IPMN.") → that one, "negated_option";
   two options yes/no or present/absent → the reply read as a yes/no reply to the question.
5. yes/no items whose question asks about the presence of a finding (``extract(..., question=...)``; ProbMed's
   "Is <finding> present in ...?", "Does this ... show any abnormality?", "Is there a lesion ...?", not
   "Is this a CT scan?" nor "Is this image contrast-enhanced?"), when the reply has no yes/no word:
   ProbMed-style negatives ("Not present.", "None seen.", "Absent", "Unremarkable", "Normal study",
   "Negative", "I do not see ...", "Not in the left lung.", a "not" denying a word of the question: "on the
   right, not the left" to "... in the left lung?") → no; affirmations ("Present.", "Visible.", "There is a
   lesion ...", "Abnormal: ..." when the question asks about an abnormality) → yes ("presence"). A negative is
   never read as yes; a reply with both, or that hedges ("possibly", "may", "not sure", "cannot tell
   whether"), or a refusal, is not read; "normal"/"negative" count only when the question does not use the
   word itself. Without the question, or for any other question, these replies stay invalid.
6. yes/no items, when nothing above decided and the question is known: the question's subject
   (:mod:`probe_ui.reading.subject`): the reply's modality, contrast, plane, projection, side, body region, age
   group or sex compared with what the question asks ("This is a CT scan." to "Is this an MRI?" is no;
   "Contrast-enhanced."), and for "Is the <organ> <adjective>?" the reply's statement of it ("The spleen is not
   enlarged.", "Normal spleen size.") → "question_subject".
7. nothing read: the reply again with the answer words of other languages in English (:func:`lexicon.translate`:
   "Sí, se observa ...", "是的", "No es rojo, es azul") and option and label texts in canonical form
   (:func:`lexicon.canonical`: "Shingles" is herpes zoster, "paediatric" is pediatric, "PE" is pulmonary embolism,
   "both sides" is bilateral) → "language" or "synonym".

Also (issue 21, second round): for choice items a closing sentence that states the verdict ("Therefore the nodule is
cystic.", "Impression: ...", "... -> A.", a short last sentence "Neonate.") decides before earlier mentions
("final_verdict"); a declaration followed by another answer ("3 or 4", "A/B", "A, B", "Yes (A)" when A is "No"), an
escape option stated beside another answer, and a suggestion endorsed beside another declared letter are
"ambiguous"; a yes/no word that answers the reply's own restatement ("No, this scan is not normal" to "... any
abnormality?") gives "restated"; a reading by mention is checked against the reply read in English and canonical
terms ("Sí y no" is ambiguous).

Also (issue 21): for yes/no and label items a conclusion that ends in a label ("..., so yes.", "...: yes.") or a
closing sentence that is only a label is the final verdict ("final_verdict"); two sentences that are each a
different label ("Yes. No.") are "ambiguous"; idioms with "no" ("No doubt, ...", "There is no question that ...")
are not the word no; labels in a question ("Upside down? No, it's correct.") or after "maybe" are not said; a label
rejected after it ("Blue is not the closest; red is.") is dropped, and with two labels denying one names the other
("Not inverted.", "negated_option"). For choice items, letters the reply rejects or only weighs are masked before
lone letters are read ("Not A, but B.", "Between A and B, B.", "A or B? B.", "A and B can be excluded; C fits
best."); an escape option (None of the above, Not a suitable question for the image, an incorrect clinical
premise, Unknown) is read from the reply's own words ("escape_option"), and a reply that says no option fits
names none; a reply that agrees with a MedVH suggestion ("The physician's answer is correct.") names the suggested
letter (``suggested=``, "agrees_with_suggestion"). A reading from a mere mention (lone letters, option texts,
label words) is "ambiguous" when the reply only entertains it beside another ("Green, though it might be red.",
"It looks correct, but I'm not sure it isn't upside down."), is "truncated" when the reply stops mid-sentence
("... Option C: Pulmonary edema. This would"), and is not read when the reply speaks about the topic in general
("Melanoma is the most dangerous skin cancer."). :mod:`probe_ui.reading.methods` says what each method means.

Nothing read → "none" (invalid).

Letters outside the item's labels are never returned (an "E" for an A-D item is ignored; if nothing else
decides, the answer is invalid with method "out_of_range").
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from probe_ui.reading import languages, lexicon, overlap, subject
from probe_ui.reading.lexicon import fold_quotes, strip_debris

# the refusal phrases are a list of their own, easy to extend; re-exported here, where callers have always found it
from probe_ui.reading.refusals import is_refusal, refusal_spans

__all__ = [
    "Answer",
    "extract",
    "extract_legacy",
    "is_correct",
    "is_refusal",
]


@dataclass(frozen=True)
class Answer:
    """One parsed reply.

    ``choice`` is the label exactly as the item spells it (a letter "B", "yes"/"no", "red", "upside down"), or
    None when nothing valid was read or the item is free text. ``correct`` is filled only by legacy modes whose
    rule needs the ground truth (ProbMed, MedVH); otherwise the caller compares ``choice`` with the ground truth
    (see :func:`is_correct`).
    """

    choice: str | None
    method: str
    invalid: bool
    refusal: bool
    correct: bool | None = None


# --------------------------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------------------------

# --------------------------------------------------------------------------------------------------------------
# Normalisation helpers
# --------------------------------------------------------------------------------------------------------------

def _normalise_quotes(text: str) -> str:
    """Typographic quotes and dashes to ASCII, and NFKC (:func:`probe_ui.reading.lexicon.fold_quotes`)."""
    return fold_quotes(text)


def _clean(text: str) -> str:
    """Strip markdown emphasis/headings and typographic quotes so "**Answer: B**" reads like "Answer: B"."""
    t = strip_debris(_normalise_quotes(text))
    t = t.replace("**", "").replace("__", "")
    t = re.sub(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])", "", t)  # *emphasis*
    t = re.sub(r"(?m)^[ \t]*#{1,6}[ \t]*", "", t)  # headings
    for pat, repl in _PRIMED:
        t = pat.sub(repl, t)
    return t


# MediConfusion's own prompt ends in '#answer: ("' (formats/mediconfusion/answering.json, prompts.mc.default), so a
# model completes it with 'A")', 'B": <option text>)' or echoes '#answer: ("B")'; its option list is written
# '("A": ...)'. These are rewritten to the bracketed letter before any rule runs.
_PRIMED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r'\(\s*"([A-Za-z])"\s*\)'), r"(\1)"),  # ("A") → (A)
    (re.compile(r'\(\s*"([A-Za-z])"\s*:'), r"(\1):"),  # ("A": text) → (A): text)
    (re.compile(r'\A(\s*)"?([A-Za-z])"\s*\)'), r"\1(\2)"),  # the completion itself: A") → (A)
    (re.compile(r'\A(\s*)"?([A-Za-z])"\s*:'), r"\1(\2):"),  # B": text) → (B): text)
    (re.compile(r'(?<![\w"(/.])([A-Z])"\s*\)'), r"(\1)"),  # ... B") later in the reply (not "N/A")")
)

# "N/A", "n/a", "N.A." mean "not applicable" (a non-answer), never option A; masked before letters are read
# (unless an option's own text is N/A, which the option-text rules then read)
_NOT_APPLICABLE = re.compile(r"(?<![\w/])[Nn][ \t]?/[ \t]?[Aa](?![\w/])|(?<![\w.])[Nn]\.[ \t]?[Aa]\.?(?!\w)")
_NA_OPTION = frozenset({"n/a", "na", "n.a", "n. a", "not applicable"})


def _norm(s: str) -> str:
    """Comparison form of an option text / label: case-folded, single-spaced, outer punctuation removed."""
    s = _normalise_quotes(s).casefold()
    s = s.replace("**", "").replace("`", "")
    s = re.sub(r"\s+", " ", s).strip()
    s = s.strip(" \t\"'*_")
    s = re.sub(r"(?<![\s.!;,:])[\s.!;,:]+$", "", s).strip(" \t\"'*_")  # lookbehind: linear on long runs
    if len(s) >= 2 and (s[0], s[-1]) in (("(", ")"), ("[", "]")) and "(" not in s[1:-1] and ")" not in s[1:-1]:
        s = s[1:-1].strip()
    return s


@functools.lru_cache(maxsize=2048)
def _phrase_regex(label: str, suffix: bool = False) -> re.Pattern[str]:
    """Whole-word regex for a label; words of a phrase may be separated by spaces or hyphens."""
    words = [re.escape(w) for w in _norm(label).split()]
    body = r"[\s\-]+".join(words)
    suf = r"(?:ly)?" if suffix and len(words) == 1 and words[0].isalpha() else ""
    return re.compile(r"(?<![\w\-])" + body + suf + r"(?![\w\-])", re.IGNORECASE)


_ARTICLE_LETTERS = frozenset("AaIi")
_NEGATION_BEFORE = re.compile(
    r"(?:\b(?:no|not|without|absent|absence\s+of|neither|nor|rather\s+than|instead\s+of|excluding|exclude[sd]?|"
    r"ruled?\s+out|unlikely|isn't|aren't|wasn't|doesn't|don't|never)\s+(?:\w+\s+){0,2}|n't\s+(?:\w+\s+){0,2})$",
    re.IGNORECASE,
)


_NEGATION_END = re.compile(
    r"(?:no|not|without|absent|of|neither|nor|than|excluding|exclude[sd]?|out|unlikely|n't|never)$", re.IGNORECASE
)


def _negated(before: str) -> bool:
    """True when the words just before a mention negate it ("not upside down", "no pneumothorax")."""
    clause = before[max(before.rfind(c) for c in ".;:!?\n,") + 1:]  # after the last clause mark
    clause = clause.rstrip(" \t\"'`*_(")  # "Not 'no free fluid'": the quote is not a word
    # A negation (one or two words) and the at most two words after it are the clause's last four words, and the
    # negation's last word ends one of the last three: test that cheaply, then search only those words (joined
    # by single spaces: the pattern only asks for whitespace). Searching the whole clause costs ~20x more, which
    # matters when a degenerate reply mentions an option thousands of times.
    words = clause.lower().split()[-4:]
    if not any(_NEGATION_END.search(w[-9:]) for w in words[-3:]):
        return False
    return bool(_NEGATION_BEFORE.search(" ".join(words) + " "))


# --------------------------------------------------------------------------------------------------------------
# The item being read
# --------------------------------------------------------------------------------------------------------------


# "Nope" and "Yep" are the words no and yes themselves, whatever the question; read anywhere a label word is read.
_YESNO_SLANG = {"nope": "no", "nah": "no", "yep": "yes", "yeah": "yes", "yup": "yes"}
# "Affirmative."/"Negative, ..." also as the opening word, never inside a sentence ("the scan is negative" answers
# "is it normal?" with yes). Other languages' yes and no ("Sí", "Nein", "是的") are read by the language pass
# (probe_ui/reading/lexicon.py).
_YESNO_OPENING = {"affirmative": "yes", "negative": "no", "not really": "no", "not at all": "no",
                  "absolutely not": "no", "definitely not": "no", "certainly not": "no", "of course not": "no",
                  "absolutely": "yes", "definitely": "yes", "certainly": "yes", "indeed": "yes", "of course": "yes",
                  "correct": "yes", "that's correct": "yes", "exactly": "yes", "positive": "yes",
                  "that's a positive": "yes", "that's a yes": "yes", "that is a yes": "yes",
                  "that's a negative": "no", "that's negative": "no", "that's a no": "no", "that is a no": "no",
                  "i think so": "yes", "i believe so": "yes", "i'd say so": "yes", "i would say so": "yes",
                  "i don't think so": "no", "i do not think so": "no", "i don't believe so": "no",
                  "i do not believe so": "no", "i doubt it": "no", "i'd say not": "no"}
# a lone "Y" or "N" is yes or no, but only as the whole reply
_YESNO_LETTERS = {"y": "yes", "n": "no"}
# idioms that open an affirmation without a yes ("No doubt a tension one, with mediastinal shift."): yes, when
# nothing else in the reply answers
_AFFIRMING_OPENING = re.compile(r"(?i)\A\W*(?:no\s+doubt|without\s+(?:a|any)\s+doubt|undoubtedly|unquestionably|"
                                r"clearly\s+so|most\s+certainly|for\s+sure)\b(?!\s+(?:that\s+)?(?:not|no)\b)")


class _Item:
    """What the extractor needs to know about the item: its labels, option texts and kind."""

    def __init__(self, kind: str, labels: Sequence[str], options: Sequence[str], question: str | None = None) -> None:
        self.kind = kind
        self.question = question or ""
        self.labels = tuple(labels)
        self.options = tuple(options)
        self.narrow: frozenset[str] = frozenset()  # narrower terms the item offers (synonym pass, lexicon.BROADER)
        # choice items: single-letter labels, matched by letter
        self.letters: dict[str, str] = {}
        if kind == "choice":
            for lab in self.labels:
                if len(lab.strip()) == 1 and lab.strip().isalpha():
                    self.letters.setdefault(lab.strip().upper(), lab)
        # option text → label (choice items)
        self.option_map: list[tuple[str, str]] = []
        if kind == "choice":
            for lab, opt in zip(self.labels, self.options):
                n = _norm(opt)
                if n:
                    self.option_map.append((n, lab))
        # escape options by kind ("none", "unsuitable", "premise", "unknown"): the labels whose text is one
        self.escapes: dict[str, list[str]] = {}
        for opt, lab in self.option_map:
            esc = lexicon.escape_kind_of_option(opt)
            if esc is not None:
                self.escapes.setdefault(esc, []).append(lab)
        # how far after a declaration keyword the answer can reach (bounds the work on long replies; an option
        # text longer than ~2,000 characters is not read after a declaration, only by rule 4)
        self.span = 200 + min(2000, max((len(o) for o in self.options), default=0)
                              + max((len(x) for x in self.labels), default=0))
        # words/phrases that name a label (yes/no and label items)
        self.words: list[tuple[str, str]] = []
        # yes/no items: informal and foreign spellings of the two words (never of anything else)
        self.aliases: dict[str, str] = {}
        self.openers: list[tuple[str, str]] = []  # words read only as the reply's first word
        if kind in ("yesno", "label"):
            for lab in self.labels:
                n = _norm(lab)
                if n:
                    self.words.append((n, lab))
            by_norm = {_norm(lab): lab for lab in self.labels}
            if kind == "yesno" and set(by_norm) == {"yes", "no"}:
                for word, meaning in _YESNO_SLANG.items():
                    self.words.append((word, by_norm[meaning]))
                self.aliases = {w: by_norm[m]
                                for w, m in {**_YESNO_SLANG, **_YESNO_OPENING, **_YESNO_LETTERS}.items()}
                self.openers = [(w, by_norm[m]) for w, m in _YESNO_OPENING.items()]

    def letter(self, ch: str) -> str | None:
        return self.letters.get(ch.upper())

    def exact(self, text: str) -> str | None:
        """The label a reply *is* (case-insensitive, ignoring outer punctuation), if exactly one."""
        n = _norm(text)
        if not n:
            return None
        if n in self.aliases:
            return self.aliases[n]
        hits = {lab for lab in self.labels if _norm(lab) == n}
        if self.kind == "choice":
            m = re.fullmatch(r"[(\[]?([a-z])[)\]]?", n)
            if m and self.letter(m.group(1)):
                hits.add(self.letter(m.group(1)))  # type: ignore[arg-type]
        return hits.pop() if len(hits) == 1 else None


@functools.lru_cache(maxsize=4096)
def _item(kind: str, labels: tuple[str, ...], options: tuple[str, ...], question: str) -> _Item:
    """The item, built once per distinct item: re-scoring a run reads the same item for every model and sample."""
    return _Item(kind, labels, options, question)


@functools.lru_cache(maxsize=1024)
def _canonical_item(kind: str, labels: tuple[str, ...], options: tuple[str, ...], question: str) -> _Item:
    """The item with its option and label texts in canonical form (:func:`probe_ui.reading.lexicon.canonical`:
    "Herpes zoster" and "Shingles" both "herpes zoster"), for the synonym pass; the labels it returns are the
    item's own."""
    narrow = lexicon.narrow_terms((*options, *labels))
    item = _Item(kind, labels, tuple(lexicon.canonical(o, narrow) for o in options), question)
    item.words = [(_norm(lexicon.canonical(w, narrow)), lab) for w, lab in item.words]
    item.narrow = narrow
    return item


# --------------------------------------------------------------------------------------------------------------
# Rule 1: declarations
# --------------------------------------------------------------------------------------------------------------

_DECL_PREFIX = re.compile(
    r"(?:"
    r"\banswer\s*(?:is|would\s+be|should\s+be|will\s+be|must\s+be|has\s+to\s+be|appears\s+to\s+be|"
    r"seems\s+to\s+be|here\s+is|choice\s+is|option\s+is|letter\s+is)?\s*(?:[:=]|-(?=\s)|\bis\b)?"
    r"|\b(?:correct|right|best|final|appropriate|likely|accurate|my|most\s+\w+)\s+(?:option|choice|letter|response|"
    r"selection)\s*(?:is|would\s+be|should\s+be|will\s+be|must\s+be|:|=)"
    r"|\bI(?:\s+would|\s+will|'d|'ll|\s+must|\s+should)?\s+(?:choose|select|pick|go\s+with|opt\s+for|say)\b"
    r"|<answer>"
    r")",
    re.IGNORECASE,
)
# "The most likely diagnosis is sarcoidosis" (its own pattern, run only on replies that say "diagnosis")
_DECL_DIAGNOSIS = re.compile(r"\b(?:most\s+likely|likeliest|final|working|leading)\s+diagnosis\s*(?:is|would\s+be|:)",
                             re.IGNORECASE)
# the same declarations in the languages models drift into: "Respuesta: B", "La réponse correcte est B",
# "Die richtige Antwort ist A", "答案是 A", "正确答案：(A)", "选 B" (a pattern of its own: one alternation with the
# English cues would slow every reply down)
_DECL_FOREIGN = re.compile(
    r"\b(?:la\s+)?(?:respuesta|r[ée]ponse|risposta|resposta)(?:\s+(?:correcta|correcte|corretta|correta))?"
    r"(?:\s*(?:es|est|è|é)\b)?(?:\s+(?:la|el|le|il)\b|\s+a\b(?=\s+[^\W\d_]{2,}))?\s*:?"
    r"|\b(?:die\s+)?(?:richtige\s+)?antwort(?:\s*(?:ist|lautet)\b)?\s*:?"
    r"|(?:正确)?答案\s*(?:是|为)?\s*:?|选择?",
    re.IGNORECASE,
)
_DECL_POSTFIX = re.compile(
    r"(?:\b(?i:option|choice|letter|answer)\s+)?[(\[]?\b([A-Z])\b[)\]]?\s+"
    r"(?:(?:is|seems\s+to\s+be|appears\s+to\s+be|would\s+be|must\s+be)\s+(?:the\s+)?"
    r"(?:correct|right|best|most\s+(?:likely|appropriate|accurate|plausible))|(?:fits|matches|suits)\s+(?:best|"
    r"most\s+closely))\b"
)
# choice items only: "it is B", "it's (B)", "I think B" (the target reader rejects "it is a fracture"); these
# count only when they name a valid option
_DECL_CHOICE_ONLY = re.compile(
    r"(?:\b(?:it|this)\s+(?:is|'s|would\s+be|must\s+be|should\s+be)|\bit's|\bI\s+(?:think|believe)(?:\s+(?:it\s+is|"
    r"it's|that\s+it\s+is|that\s+it's))?)(?=\s)",
    re.IGNORECASE,
)
# hedged ones, likewise weak: "my best guess is A", "Leaning towards B", and "Probably B." / "Most likely A." when
# they open a sentence
_DECL_HEDGE = re.compile(
    r"(?:most\s+|)(?:probably|likely)(?=\s)|(?:my\s+|best\s+)*guess\s*(?:is|would\s+be|:)(?=\s)"
    r"|lean(?:ing)?\s+(?:towards?|to)(?=\s)",
    re.IGNORECASE,
)
# "..., so B." / "Therefore (C)." / "hence the answer is A": a conclusion that ends its sentence with a letter
_DECL_CONCLUSION = re.compile(
    r"\b(?i:so|thus|hence|therefore|leaves(?:\s+(?:us\s+with|only))?|leaving(?:\s+only)?)\b[ \t]*,?[ \t]*"
    r"(?:(?i:the\s+answer\s+is|it(?:'s|\s+is)|option|choice)[ \t]+)?"
    r"([(\[])?([A-Z])[)\]]?(?=[ \t]*(?:[.!;\n]|\Z))"
)
# the answer given is "N/A" (masked to "not applicable" before the rules run) or "NA"
_NA_DECLARED = re.compile(r"(?:\A[\W_]*|\b(?i:answer)\b(?:\s+is)?[\W_]{0,8})(?:(?i:not\s+applicable)|NA)(?![\w/])")
_CONCLUSION_WORDS = ("so", "thus", "hence", "therefore", "leav")
_FOREIGN_WORDS = ("respuesta", "ponse", "risposta", "resposta", "antwort", "答案", "选")
_JSON_WORDS = ("answer", "choice", "option", "prediction", "selection", "label")
_ANSWER_TAG = re.compile(r"<answer>\s*([^<]{0,500}?)\s*</answer>", re.IGNORECASE)
# a JSON (or JSON-like) answer field: {"answer": "B"}, {'choice': '(C)'}, "final_answer": "yes"
_JSON_ANSWER = re.compile(
    r"""["']?\b(?:final[_ ]?answer|answer|choice|option|prediction|selected[_ ]?option|selection|label)["']?"""
    r"""[ \t]*:[ \t]*["']([^"'\n]{1,300})["']""",
    re.IGNORECASE,
)
# a declaration whose verb is conditional ("would be", "could be") inside an "if"/"unless" sentence is a
# hypothesis, not an answer: "B would be correct only if the sac had grown", "If it were stable, the answer would
# be A". "If I had to choose, I would say B" is an answer.
_MODAL = re.compile(r"(?i)\b(?:would|could|might)\b")
_IF_EXEMPT = r"(?!\s+(?:I|we|you)\s+(?:had|have|must|were|was)\s+to\b)(?!\s+(?:forced|pressed|asked|required)\b)"
_IF_BEFORE = re.compile(r"(?i)\b(?:if|unless)\b" + _IF_EXEMPT)
_IF_AFTER = re.compile(r"(?i)\A[^.!?;\n]{0,60}?\b(?:(?:only\s+)?if|unless)\b" + _IF_EXEMPT)
_SENTENCE_END = re.compile(r"[.!?;\n]")
# someone else's answer (MedVH FCJ's "Physician's answer: B: ..."; "the suggested answer", "your answer"), not the
# reply's own: read only when the reply endorses it ("The physician's answer B is correct")
_ATTRIBUTED = re.compile(
    r"(?i)(?:\b(?:physician|student|doctor|resident|radiologist|clinician|user|examinee|candidate|colleague|trainee|"
    r"intern|person|physicians|students)(?:'s|s'|')?|\b(?:suggested|proposed|given|provided|your|their|his|her|"
    r"initial|original|previous|prior|other|alternative|incorrect|wrong|chosen|selected))\s*$"
)
_EVALUATION = re.compile(
    r"(?i)(?P<reject>\b(?:not|incorrect|wrong|inaccurate|inappropriate|mistaken|erroneous|false|disagree|invalid|"
    r"unlikely)\b|n't\b)|(?P<endorse>\b(?:correct|right|accurate|appropriate|reasonable|valid|agree)\b)"
)


# a judgement left open: "may be right", "could be right or wrong", "right or wrong depending on ..."
_UNDECIDED = re.compile(r"(?i)\b(?:could|may|might|possibly|perhaps|maybe)\s+(?:\w+\s+)?(?:be\s+)?(?:right|correct|"
                        r"wrong|incorrect)\b|\b(?:right|correct)\s+or\s+(?:wrong|incorrect|not)\b"
                        r"|\bdepend(?:s|ing)\s+on\b")


def _next_verdict(text: str, at: int) -> str | None:
    """The judgement of the short sentence that starts at ``at`` ("Verdict: correct.", "That is right.", "I
    agree."), or None."""
    m = re.match(r"[ \t.;:!\n]*([^.;!?\n]{1,40})[.;!?\n]?", text[at:at + 60])
    if m is None or len(m.group(1).split()) > 6:
        return None
    return _evaluation(m.group(1))


def _evaluation(text: str) -> str | None:
    """"endorse" or "reject": the first judgement a clause passes ("... is correct", "... is not correct", "I
    agree with ...", "I disagree with ..."), or None (none, or one left open: "may be right")."""
    m = _EVALUATION.search(text)
    if m is None or _UNDECIDED.search(text):
        return None
    return "reject" if m.group("reject") else "endorse"


# someone else's answer named without a declaration's verb: "Reviewing the physician's answer of 'Present'..."
_ATTRIBUTED_MENTION = re.compile(
    r"(?i)\b(?:physician|student|doctor|resident|radiologist|clinician|user|colleague|trainee|examinee)(?:'s|s')?"
    r"\s+(?:answer|choice|suggestion|response|selection|diagnosis|impression)\b[^.;!?\n]{0,160}"
)


def _attributed_mentions(text: str) -> list[tuple[int, int]]:
    """Spans naming someone else's answer that the reply does not endorse (masked before mentions are read)."""
    if not re.search(r"(?i)physician|student|doctor|resident|radiologist|clinician|user|colleague|trainee|examinee",
                     text):
        return []
    spans = []
    for m in _ATTRIBUTED_MENTION.finditer(text):
        start = max((x.end() for x in _SENTENCE_END.finditer(text, max(0, m.start() - 120), m.start())), default=0)
        stop = _SENTENCE_END.search(text, m.end())
        end = stop.start() if stop else len(text)
        if (_evaluation(text[start:end]) or _next_verdict(text, end)) != "endorse":
            spans.append(m.span())
    return spans


@dataclass
class _Found:
    label: str | None = None
    out_of_range: bool = False
    kind: str = ""  # the declaration's kind ("read", "tag", "weak", "post", "na", "foreign"), for rule 1's callers
    hypotheses: tuple[tuple[int, int], ...] = ()  # spans of conditional declarations skipped (rule 1)
    conflict: bool = False  # a letter followed by another option's text ("A: Pleural effusion" when A is not)
    rejected: tuple[tuple[int, int], ...] = ()  # spans naming someone else's answer that the reply rejects


_CONNECTIVES = frozenset(
    "because since as which with and for given so due that this while whereas but or showing shows indicating "
    "representing corresponding based".split()
)
_ADVERBS = re.compile(
    r"(?i)^(?:(?:most\s+)?(?:clearly|likely|probably|definitely|certainly|therefore|thus|hence|indeed|simply|"
    r"actually|then)\b[\s,]*)+"
)


def _letter_ok(ch: str, opened: bool, rest: str) -> bool:
    """Whether a single letter right after a declaration is an option letter and not a word.

    "A"/"I" (any case) followed by an ordinary word on the same line are the article/pronoun ("The answer is a
    fracture"); other lowercase letters followed by an ordinary word are not letters either ("answer is b
    something" is too unusual to trust); uppercase B-Z followed by a word are ("The answer is B showing ...").
    A connective ("because", "since", "as", ...), punctuation or a line break after the letter always leaves it
    a letter ("Answer: A\n\nExplanation: ...").
    """
    if opened:
        return True
    w = re.match(r"[ \t]+([A-Za-z]+)", rest)
    if not w:
        return True
    if w.group(1).lower() in _CONNECTIVES:
        return True
    return ch.isupper() and ch not in _ARTICLE_LETTERS


def _read_target(t: str, item: _Item) -> _Found:
    """Read the answer named at the start of ``t`` (the text after a declaration keyword)."""
    t = t.lstrip(" \t\n\"'`*_:=-")
    if re.match(r"(?i)not\b|n't\b", t):
        return _Found()
    t = _ADVERBS.sub("", t)
    ordinal = _ORDINAL.match(t)
    if item.kind == "choice" and ordinal is not None:  # "the second option", "the last one"
        labels = [lb for _, lb in item.option_map] or list(item.letters.values())
        word = (ordinal.group(1) or ordinal.group(2)).lower()
        if word in ("former", "latter"):  # only of two
            i = (0 if word == "former" else 1) if len(labels) == 2 else -1
        else:
            i = len(labels) - 1 if word == "last" else _ORDINALS.index(word)
        return _Found(labels[i] if 0 <= i < len(labels) else None)
    t = re.sub(r"(?i)^(?:the\s+)?(?:option|choice|letter)\s*:?\s*", "", t).lstrip(" \t\"'`*_")
    if item.kind == "choice":
        m = re.match(r"([(\[])?([A-Za-z])([)\]])?(?![A-Za-z0-9'\-])(?!\.[A-Za-z])", t)
        if m:
            ch, opened = m.group(2), bool(m.group(1) or m.group(3))
            rest = t[m.end():]
            if _letter_ok(ch, opened, rest):
                lab = item.letter(ch)
                if lab is not None:
                    if _letter_text_conflict(lab, rest, item) or _other_follows(rest, lab, item):
                        return _Found(None, conflict=True)  # "A: <B's text>", "A/B", "A or C"
                    return _Found(lab)
                if ch.isupper() or opened:
                    opt = _option_prefix(rest.lstrip(" .:)"), item)
                    return _Found(opt, out_of_range=opt is None)
        lab = _option_prefix(t, item)
        if lab is not None:
            opt = next(o for o, lb in item.option_map if lb == lab)
            end = re.match(r"[\s\-]*".join(re.escape(w) for w in opt.split()), t, re.IGNORECASE)
            if end is not None and _other_follows(t[end.end():], lab, item):
                return _Found(None, conflict=True)  # "3 or 4", "Yes (A)" when A is "No"
            return _Found(lab)
        return _Found(_escape_option(_first_sentence(t), item))
    return _Found(_word_prefix(t, item))


# "the second option", "the last one", "the former": an option named by its place in the list
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_ORDINAL = re.compile(r"(?i)(?:the\s+)?(first|second|third|fourth|fifth|sixth|last|former|latter)\s+"
                      r"(?:option|choice|one|"
                      r"answer|alternative)\b|(?:the\s+)?(former|latter)\b")
# what may join two answers: "A/B", "3 or 4", "A vs. C", "A, B", "A and B"
_ALTERNATIVE = re.compile(r"(?i)[ \t]*(?:/|,|\bor\b|\band\b|\bvs\.?|\bversus\b|&)[ \t]*(?:(?:option|choice)[ \t]+)?")


def _other_follows(rest: str, lab: str, item: _Item) -> bool:
    """Whether what follows a declared answer names another one: an alternative ("A/B", "3 or 4") or a
    bracketed letter of another option ("Yes (A)" when A is "No")."""
    m = _ALTERNATIVE.match(rest)
    if m is None:
        bracket = re.match(r"[ \t]*[(\[]([A-Z])[)\]]", rest)
        return bracket is not None and item.letter(bracket.group(1)) not in (None, lab)
    other = rest[m.end():]
    letter = re.match(r"[(\[]?([A-Z])[)\]]?(?![\w'])", other)
    if letter is not None and item.letter(letter.group(1)) not in (None, lab):
        return True
    found = _option_prefix(other, item)
    return found is not None and found != lab


def _option_prefix(t: str, item: _Item) -> str | None:
    """The option whose text the string starts with (longest wins), as its label."""
    n = _norm(t.split("\n", 1)[0])
    best: tuple[int, str] | None = None
    for opt, lab in item.option_map:
        if n == opt or (n.startswith(opt) and not (n[len(opt):len(opt) + 1].isalnum())):
            if best is None or len(opt) > best[0]:
                best = (len(opt), lab)
    return best[1] if best else None


def _word_prefix(t: str, item: _Item) -> str | None:
    """The label word/phrase the string starts with (longest wins)."""
    best: tuple[int, str] | None = None
    for word, lab in item.words:
        m = _phrase_regex(word, suffix=item.kind == "label").match(t)
        if m and (best is None or len(word) > best[0]):
            best = (len(word), lab)
    return best[1] if best else None


_MAX_DECLARATIONS = 200  # the last ones read: bounds the work on a degenerate reply that repeats a cue
_OPTION_POSTFIX = (r"(?![\w\-])[ \t]+(?:is|seems\s+to\s+be|appears\s+to\s+be|would\s+be|remains)[ \t]+(?:the\s+)?"
                   r"(?:most\s+likely|likeliest|most\s+probable|correct|right|best)\b")


_SUPERLATIVES = ("closest deepest nearest furthest farthest shallowest largest smallest brightest darkest highest "
                 "lowest").split()
# superlatives that mean the same thing: a question about the greatest depth is answered by "deepest", never by
# "shallowest" ("The green one is the deepest, red is the shallowest." is green)
_SUPERLATIVE_SENSES = (
    frozenset("deepest greatest furthest farthest".split()), frozenset("closest nearest shallowest".split()),
    frozenset("largest biggest greatest".split()), frozenset(["smallest"]), frozenset(["brightest"]),
    frozenset(["darkest"]), frozenset(["highest"]), frozenset(["lowest"]),
)


@functools.lru_cache(maxsize=1024)
def _label_postfix(item: _Item) -> re.Pattern[str]:
    """Label items: "<label> [dot] is the <superlative>" ("Green is the closest; red and blue are deeper"),
    with the question's own superlatives when it has any, and "is correct" / "is the answer"."""
    asked = [w for w in re.findall(r"[a-z]+est\b", item.question.casefold()) if w not in ("least", "interest", "test")]
    sup = sorted({s for w in asked for sense in _SUPERLATIVE_SENSES if w in sense for s in sense} | set(asked)) \
        if asked else _SUPERLATIVES
    words = "|".join(r"[\s\-]+".join(re.escape(x) for x in w.split()) for w, _ in item.words)
    return re.compile(
        r"(?<![\w\-])(" + words + r")(?:[ \t]+(?:dot|one|circle|point|marker))?[ \t]+(?:is|was|(?:seems|appears|looks)"
        r"(?:\s+to\s+be)?|lies|sits|is\s+located)[ \t]+(?:the[ \t]+)?(?:" + "|".join(sup)
        + r"|correct|right|answer)\b",
        re.IGNORECASE)


def _hypothetical(text: str, cue_start: int, cue: str, end: int) -> bool:
    """A conditional declaration inside an if/unless sentence (see :data:`_MODAL`)."""
    if not _MODAL.search(cue):
        return False
    before = text[max(0, cue_start - 300):cue_start]
    cut = max((m.end() for m in _SENTENCE_END.finditer(before)), default=0)
    return bool(_IF_BEFORE.search(before[cut:]) or _IF_AFTER.search(text[end:end + 80]))


def _declaration(text: str, item: _Item) -> _Found:
    """Rule 1: the last explicit declaration that names a valid label (``kind`` says which cue found it).

    The cues are found first; what follows them is read lazily, from the last cue back, and at most
    :data:`_MAX_DECLARATIONS` of them, so a reply that repeats a cue thousands of times stays fast.
    """
    # (position, kind, start, end, cue): "read" reads what follows a keyword ending at ``end``, "tag" reads
    # text[start:end], "weak" counts only when it names a valid label, "post" is the letter text[start:end],
    # "postopt" names the option whose label is ``cue``
    cands: list[tuple[int, str, int, int, str]] = []
    low = text.lower()  # the rarer cues' patterns run only when a word of theirs occurs (long replies stay fast)
    for m in _DECL_PREFIX.finditer(text):
        if m.end() == m.start():
            continue
        kw = m.group(0)
        if re.fullmatch(r"(?i)answer\s*", kw):
            # a bare "answer" with no verb/colon ("Answer with the letter") declares nothing, except when an
            # uppercase or bracketed option letter follows at once ("Answer B", "answer (C)")
            rest = text[m.end():m.end() + 8]
            if item.kind != "choice" or not re.match(r"[ \t]*(?:[(\[][A-Za-z][)\]]|[A-Z](?![\w'\-]))", rest):
                continue
        cands.append((m.start(), "read", m.start(), m.end(), kw))
    for pat, words, how in ((_DECL_DIAGNOSIS, ("diagnosis",), "read"), (_DECL_FOREIGN, _FOREIGN_WORDS, "foreign")):
        if any(w in low for w in words):
            cands += [(m.start(), how, m.start(), m.end(), m.group(0)) for m in pat.finditer(text)]
    for m in _ANSWER_TAG.finditer(text):
        cands.append((m.start() + 1, "tag", m.start(1), m.end(1), ""))
    if "not applicable" in low or "NA" in text:
        cands += [(m.start(), "na", m.start(), m.end(), "") for m in _NA_DECLARED.finditer(text)]
    if ":" in text and any(w in low for w in _JSON_WORDS):
        for m in _JSON_ANSWER.finditer(text):
            cands.append((m.start() + 1, "tag", m.start(1), m.end(1), ""))
    if item.kind == "choice":
        for m in _DECL_CHOICE_ONLY.finditer(text):
            cands.append((m.start(), "weak", m.start(), m.end(), m.group(0)))
        for m in _DECL_HEDGE.finditer(text) if any(w in low for w in ("probabl", "likely", "guess", "lean")) else ():
            if m.start() and text[m.start() - 1].isalnum():
                continue
            if m.group(0)[0] in "mMpPlL" and not m.group(0).lower().startswith(("my", "lean")):
                before = text[max(0, m.start() - 40):m.start()].rstrip(" \t")
                if before and before[-1] not in ".!?;:\n":
                    continue  # "Probably"/"likely" only at the start of a sentence ("It is likely a cyst")
            cands.append((m.start(), "weak", m.start(), m.end(), m.group(0)))
        for m in _DECL_POSTFIX.finditer(text):
            ch = m.group(1)
            if ch == "I" and not m.group(0).lstrip().startswith(("(", "[")) and not re.match(
                    r"(?i)(?:option|choice|letter|answer)", m.group(0)):
                continue  # "I is ..." never occurs; keeps the pronoun out
            # "A is the correct answer" is a letter: an article would need a noun between "A" and the verb.
            cands.append((m.start(), "post", m.start(1), m.end(1), m.group(0)))
        for m in _DECL_CONCLUSION.finditer(text) if any(w in low for w in _CONCLUSION_WORDS) else ():
            if m.group(2) == "I" and not m.group(1):
                continue
            cands.append((m.start(), "post", m.start(2), m.end(2), ""))
        if re.search(r"(?i)likel|correct|right|best|probable", text):
            for opt, lab in item.option_map:
                if len(opt) > 200:
                    continue
                body = r"[\s\-]+".join(re.escape(w) for w in opt.split())
                for m in re.finditer(r"(?<![\w\-])" + body + _OPTION_POSTFIX, text, re.IGNORECASE):
                    cands.append((m.start(), "postopt", m.start(), m.end(), lab))
    if item.kind == "label" and item.words:
        for m in _label_postfix(item).finditer(text):
            named = next((lb for w, lb in item.words if _phrase_regex(w).fullmatch(m.group(1))), None)
            if named is not None and not _negated(text[max(0, m.start() - 200):m.start()]):
                cands.append((m.start(), "postopt", m.start(), m.end(), named))
    cands.sort(key=lambda c: c[0])
    out_of_range = False
    hypotheses: list[tuple[int, int]] = []
    rejected: list[tuple[int, int]] = []
    refused: set[str] = set()  # answers the reply rejects as someone else's ("The physician's answer A is incorrect")
    recent = cands[-_MAX_DECLARATIONS:]
    # someone else's answer ("The physician's answer B: ... is wrong", "your answer"): not a declaration unless the
    # reply endorses it ("The physician's answer B is correct", "I agree with the physician's answer B"); judged
    # before any declaration is read, so that the reply's final answer can be checked against what it rejected
    skip: set[int] = set()
    for pos, kind, _start, end, _cue in recent:
        if kind != "read" or not _ATTRIBUTED.search(text[max(0, pos - 40):pos]):
            continue
        stop = _SENTENCE_END.search(text, end + 1, end + item.span)
        begin = max((mm.end() for mm in _SENTENCE_END.finditer(text, max(0, pos - 120), pos)), default=0)
        clause = text[end:stop.start() if stop else end + item.span]
        verdict = _evaluation(clause) or _evaluation(text[begin:pos]) or \
            _next_verdict(text, stop.start() if stop else len(text))
        if verdict != "endorse" or (_MODAL.search(clause) and _IF_BEFORE.search(clause)):
            skip.add(pos)
            rejected.append((pos, stop.start() if stop else min(len(text), end + item.span)))
            said = re.match(r"[ \t:]*[(\[]?([A-Z])(?![\w'])", text[end:end + 12])
            if verdict == "reject" and said is not None and item.letter(said.group(1)) is not None:
                refused.add(item.letter(said.group(1)))  # type: ignore[arg-type]
    for pos, kind, start, end, cue in reversed(recent):
        if kind == "na":
            return _Found(None, out_of_range, kind="na")
        if pos in skip:
            continue
        if kind == "postopt":
            found = _Found(cue)
        elif kind == "post":
            letter = item.letter(text[start:end])
            found = _Found(letter, out_of_range=letter is None)
        elif kind == "tag":
            found = _read_target(text[start:end], item)
        else:
            found = _read_target(text[end:end + item.span], item)
            if kind == "weak" and found.label is None:
                continue  # weak cue: only a letter/option read here counts, never out-of-range
            if found.conflict:
                return _Found(None, out_of_range, kind="conflict", rejected=tuple(rejected))
        if found.label is not None and _hypothetical(text, pos, cue, end):
            stop = _SENTENCE_END.search(text, end + 1, end + 200)
            hypotheses.append((pos, stop.start() if stop else min(len(text), end + 200)))
            continue
        if found.label is not None:
            if found.label in refused:  # "The physician's answer A is incorrect. The correct answer is: A"
                return _Found(None, out_of_range, kind="conflict", rejected=tuple(rejected))
            return _Found(found.label, out_of_range, kind="post" if kind == "postopt" else kind,
                          hypotheses=tuple(hypotheses), rejected=tuple(rejected))
        out_of_range = out_of_range or found.out_of_range
    return _Found(None, out_of_range, hypotheses=tuple(hypotheses), rejected=tuple(rejected))


def _mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with the given spans blanked (same length), so later rules do not read what they hold."""
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


# --------------------------------------------------------------------------------------------------------------
# Rule 2: \boxed{} and backticks
# --------------------------------------------------------------------------------------------------------------

_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_BACKTICK = re.compile(r"`{1,3}([^`\n]{1,200}?)`{1,3}")


def _strip_tex(s: str) -> str:
    return re.sub(r"\\(?:text|textbf|mathrm|mathbf|mbox)\s*\{([^{}]*)\}", r"\1", s).strip()


def _whole(s: str, item: _Item) -> _Found:
    """Read a short answer-only string (boxed / backticked content)."""
    s = _strip_tex(s)
    lab = item.exact(s)
    if lab is not None:
        return _Found(lab)
    if item.kind == "choice":
        m = re.fullmatch(r"\s*[(\[]?([A-Za-z])[)\]]?\s*(?:[.:)\-]\s*(.*))?", s, re.DOTALL)
        if m:
            lab = item.letter(m.group(1))
            if lab is not None:
                return _Found(lab)
            if m.group(1).isupper():
                return _Found(None, out_of_range=True)
        return _Found(_option_exact(s, item))
    return _Found(None)


def _option_exact(s: str, item: _Item) -> str | None:
    n = _norm(s)
    hits = {lab for opt, lab in item.option_map if opt == n}
    return hits.pop() if len(hits) == 1 else None


def _boxed_or_backtick(text: str, item: _Item) -> tuple[str, _Found] | None:
    """Rule 2: last \\boxed{X}; else backticked answers (two different → ambiguous)."""
    boxed = list(_BOXED.finditer(text))
    oor = False
    said = {f.label for m in boxed[-20:] if (f := _whole(m.group(1), item)).label is not None}
    if len(said) > 1 and not _self_corrected(text):
        return "ambiguous", _Found(None)  # "$\\boxed{A}$ or $\\boxed{D}$"
    for m in reversed(boxed):
        f = _whole(m.group(1), item)
        if f.label is not None:
            return "boxed", f
        oor = oor or f.out_of_range
    seen: list[str] = []
    for m in _BACKTICK.finditer(text):
        f = _whole(m.group(1), item)
        if f.label is not None and f.label not in seen:
            seen.append(f.label)
        oor = oor or f.out_of_range
    if len(seen) == 1:
        return "backtick", _Found(seen[0])
    if len(seen) > 1:
        return "ambiguous", _Found(None)
    return None if not oor else ("", _Found(None, out_of_range=True))


# --------------------------------------------------------------------------------------------------------------
# Rule 3: bare letters (choice) / label words (yes/no, label)
# --------------------------------------------------------------------------------------------------------------

_BARE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"[(\[]([A-Z])[)\]]"),  # (B) [B]
    # a line "B." "B:" "B)" "B," or just "B"
    re.compile(r"(?m)^[ \t>\-\u2022|]*([A-Z])(?:[.:),](?![A-Za-z0-9])|[ \t]*$)"),
    # "..., A" / "Great question! A" / "Not A, but B." at the very end
    re.compile(r"(?:\A|[,:;\n.!?]|\s-)[ \t]*(?:(?i:but|so|thus|hence|therefore|rather|instead|then|I\s+think|"
               r"I'd\s+say|it's|it\s+is|probably|definitely|clearly)[ \t,]+)?[(\[]?([A-Z])[)\]]?[ \t]*[.!]?\Z"),
    re.compile(r"\b(?:option|choice|letter)[ \t]+[(\[]?([A-Z])\b(?![\-'])", re.IGNORECASE),  # "option B"
    re.compile(r"(?<=[.;,!?])[ \t]*([A-Z])[:)](?![\w)])"),  # "... . B: text" (an echoed option list)
    # "A) Normal B) Mildly enlarged": a letter and its bracket in the middle of a line, before a word
    re.compile(r"(?<=[ \t])([A-Z])\)(?=[ \t]+[^\W\d_])"),
    # a list of letters: "Possible answers: A, C." names both
    re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?[ \t]*,[ \t]*(?:(?:and|or)[ \t]+)?[(\[]?([A-Z])[)\]]?(?![\w'])"),
    # "A or B", "B and C", "A/B": both letters count (and make the reply ambiguous)
    re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?[ \t]*(?:/|\bor\b|\band\b)[ \t]*[(\[]?([A-Z])[)\]]?(?![\w'])"),
)


def _bare_letters(text: str, item: _Item) -> tuple[list[str], bool]:
    """Rule 3 for choice items: the distinct in-range letters written as lone tokens, and whether any
    out-of-range letter was seen."""
    found: list[str] = []
    oor = False
    for i, pat in enumerate(_BARE_PATTERNS):
        for m in pat.finditer(text):
            for ch in (g for g in m.groups() if g):
                if not ch.isupper():
                    continue
                if ch == "I" and i in (1, 2, 4, 5, 6, 7):
                    continue  # "I." / ", I" / "I or" are the pronoun or a numeral; a lone "I" is the exact rule
                lab = item.letter(ch)
                if lab is None:
                    oor = True
                elif lab not in found:
                    found.append(lab)
    return found, oor


def _leading_word(text: str, item: _Item) -> str | None:
    """A reply that opens with its answer: "No, there is ...", "Yes there is a mass but no ...", "Red.".

    Yes/no replies put the answer first, so the opening word decides even when the other word occurs later.
    Other labels must be followed by punctuation ("Red, because ..."), since "Red is not the closest ..."
    opens with a label it rejects.
    """
    t = text.lstrip(" \t\n\"'`*_>")
    follow = r"[ \t]*(?:[.,;:!\n)\-]|\Z)" if item.kind == "label" else r"(?:[ \t]*[.,;:!\n)\-]|\s|\Z)"
    for word, lab in sorted(item.words + item.openers, key=lambda w: -len(w[0])):
        m = _phrase_regex(word, suffix=item.kind == "label").match(t)
        if m and re.match(follow, t[m.end():]):
            # "Yes and no", "Yes/No", and a list "Red, green, blue." / "Yes, no, maybe." (not "Yes, no other
            # lesions.": there "no" starts a phrase)
            both = re.match(r"[ \t]*(?:,?[ \t]*(?:and|or|/|-|then|followed\s+by)[ \t]*(\w+)"
                            r"|,[ \t]*(?:then[ \t]+)?(\w+)(?=[ \t]*(?:[,.;!/]|\Z|(?:and|or|then)\b))"
                            r"|[ \t]+(\w+)[ \t]*[.!]?[ \t]*\Z)", t[m.end():], re.IGNORECASE)
            if both and any(_norm(both.group(1) or both.group(2) or both.group(3)) == w and other != lab
                            for w, other in item.words):
                return None  # "Yes and no": both words, left to the ambiguity rule
            return lab
    return None


_MAYBE_BEFORE = re.compile(r"(?i)\b(?:maybe|perhaps|possibly)[ \t,]+(?:(?:the|a|an)[ \t]+)?$")


def _restated(text: str, item: _Item) -> str | None:
    """Yes/no items: the answer the reply's first clause states with the opposite of the question's word ("this
    scan is not normal" to "Does it show any abnormality?" is yes; "it is normal" is no), when the question's
    word has opposites (:data:`probe_ui.reading.subject.ANTONYMS`); the yes/no word before it then answers that
    clause, not the question."""
    if item.kind != "yesno" or not item.question or not item.aliases:
        return None
    q = item.question.casefold()
    first = re.split(r"[.;!?\n]|\s-\s|\bbut\b", text, maxsplit=1)[0]
    said: set[str] = set()
    for word, opposites in subject.ANTONYMS.items():
        if not re.search(r"\b" + re.escape(word[:7]), q) or any(re.search(r"\b" + re.escape(o), q) for o in opposites):
            continue
        for o in opposites:
            for m in re.finditer(r"(?i)\b(?:is|are|was|were|looks?|appears?|seems?)(?P<neg>\s+not|n't)?\s+"
                                 r"(?:(?:entirely|completely|totally|quite|perfectly)\s+)?" + re.escape(o) + r"\b",
                                 first):
                said.add("yes" if m.group("neg") else "no")
    if len(said) != 1:
        return None
    return item.aliases["yep" if said.pop() == "yes" else "nope"]


def _label_words(text: str, item: _Item, negated: bool = False) -> list[str]:
    """Distinct labels mentioned as whole words/phrases, negated mentions ("not upside down") and rejected ones
    ("Blue is not the closest") dropped (label items); with ``negated``, only those dropped ones."""
    hits: list[str] = []
    dropped: list[str] = []
    taken = bytearray(len(text))
    for word, lab in sorted(item.words, key=lambda w: -len(w[0])):
        for m in _phrase_regex(word, suffix=item.kind == "label").finditer(text):
            if any(taken[m.start():m.end()]):
                continue  # inside a longer label already counted
            taken[m.start():m.end()] = b"\x01" * (m.end() - m.start())
            if _MAYBE_BEFORE.search(text[max(0, m.start() - 30):m.start()]):
                continue  # "Not blue, maybe red.": entertained, not said
            if item.kind == "label" and (_negated(text[max(0, m.start() - 200):m.start()])
                                         or _LABEL_REJECTED_AFTER.match(text[m.end():m.end() + 80])):
                if lab not in dropped:
                    dropped.append(lab)
                continue
            if lab not in hits:
                hits.append(lab)
    return [d for d in dropped if d not in hits] if negated else hits


# --------------------------------------------------------------------------------------------------------------
# Rule 4: option text
# --------------------------------------------------------------------------------------------------------------


def _option_contained(text: str, item: _Item) -> str | None:
    """The one option whose text occurs in the reply, not negated, when no option text contains another; other
    options may occur only negated ("Not pneumonia but pulmonary edema"). Conservative on purpose (free text
    mentions options it rejects)."""
    said = _option_mentions(text, item)
    if said is None:
        return None
    asserted, negated = said
    return asserted[0] if len(asserted) == 1 and asserted[0] not in negated else None


_NEITHER_NOR = re.compile(r"\bneither\b[^.;:!?\n]{0,300}?\bnor\b[ \t]+(?:(?:a|an|the)[ \t]+)?[\w\-]+(?:[ \t]+[\w\-]+)?")


def _option_mentions(text: str, item: _Item) -> tuple[list[str], list[str]] | None:
    """The options whose whole text the reply names, as (asserted, negated) labels; None when an option's text
    contains another's (a mention cannot be told apart)."""
    opts = item.option_map
    if len(opts) < 2:
        return None
    norms = [o for o, _ in opts]
    for i, a in enumerate(norms):
        for j, b in enumerate(norms):
            if i != j and a in b:
                return None
    low = _norm(text)
    asserted: list[str] = []
    negated: list[str] = []
    seen: dict[str, bool] = {}  # a degenerate reply repeats the same context thousands of times
    rejected_after: dict[str, bool] = {}
    # "neither a cyst, a hemangioma nor a metastasis": every option listed between neither and nor is denied
    denied = [m.span() for m in _NEITHER_NOR.finditer(low)] if "neither" in low else []
    for opt, lab in opts:
        pat = re.compile(r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])")
        for m in pat.finditer(low):
            before = low[max(0, m.start() - 200):m.start()]
            if before not in seen:
                seen[before] = _negated(before)
            inside = any(a <= m.start() < b for a, b in denied)
            follows = low[m.end():m.end() + 120]  # "Both femurs are intact.": rejected after it
            if follows not in rejected_after:
                rejected_after[follows] = overlap.REJECTED_AFTER.match(follows) is not None
            said = negated if seen[before] or inside or rejected_after[follows] else asserted
            if lab not in said:
                said.append(lab)
    return asserted, negated


_WORD = re.compile(r"[^\W\d_][\w\-]*")
# words that say nothing about which option is meant (rule 4's keyword reading ignores them)
_KEYWORD_STOP = frozenset("""the a an of in on at to for with and or is are was were be been being this that these
those it its there their as by from into than then no not nor but if so very more most less least showing shows show
shown seen image images scan question answer option options choice which what both either neither""".split())


def _option_keyword(text: str, item: _Item) -> str | None:
    """Rule 4c (:func:`_option_keywords`): the one option a short reply names by a word of its own."""
    hits, negated, start = _option_keywords(text, item)
    if start is not None:
        return start
    if len(hits) == 1:
        return hits[0]
    if not hits and len(negated) == 1 and len(item.option_map) == 2:  # "Not stable." of stable / aggravating
        return next(lab for _, lab in item.option_map if lab != negated[0])
    return None


def _option_keywords(text: str, item: _Item) -> tuple[list[str], list[str], str | None]:
    """Rule 4c: a short reply (at most 8 words) that is the first words of exactly one option ("No effacement."
    for "No effacement of the fourth ventricle"), or that uses a word of exactly one option that no other option
    has ("Aggravating." for "Showing an aggravating pseudoaneurysm", "The pseudoaneurysm is stable.",
    "Metastases." for "Metastatic carcinoma": words of 7+ letters match on their first 7); words of other options
    may appear only negated ("stable, not aggravating"). With two options, negating the one word of one ("Not
    stable.") names the other."""
    if len(item.option_map) < 2:
        return [], [], None
    low = _norm(text)
    if not 0 < len(_WORD.findall(low)) <= 8:
        return [], [], None
    if len(low.split()) >= 2:  # the start of exactly one option's text: "No effacement." for "No effacement of ..."
        starts = [lab for opt, lab in item.option_map if opt.startswith(low + " ")]
        if len(starts) == 1:
            return [], [], starts[0]
    words = [set(_WORD.findall(opt)) for opt, _ in item.option_map]
    hits: list[str] = []
    negated: list[str] = []
    for i, (_, lab) in enumerate(item.option_map):
        others = set().union(*(w for j, w in enumerate(words) if j != i))
        for w in words[i] - others - _KEYWORD_STOP:
            if len(w) < 3:
                continue
            # the word itself, or one sharing its first 7 letters ("metastases" for "metastatic")
            pat = re.escape(w[:7]) + r"[\w\-]*" if len(w) >= 7 else re.escape(w)
            for m in re.finditer(r"(?<![\w\-])" + pat + r"(?![\w\-])", low):
                denied = _negated(low[max(0, m.start() - 200):m.start()]) or \
                    overlap.REJECTED_AFTER.match(low[m.end():m.end() + 120]) is not None
                said = negated if denied else hits
                if lab not in said:
                    said.append(lab)
    return hits, negated, None


# --------------------------------------------------------------------------------------------------------------
# Rule 3b: the reply opens with its letter, then explains
# --------------------------------------------------------------------------------------------------------------

_LINES = re.compile(r"[^\n]*\S[^\n]*")
_LIST_LINE = re.compile(r"[ \t>\-\u2022*]*[(\[]?([A-Z])[)\]]?(?=[.:)]|[ \t]|$)")


def _head_letter(text: str, item: _Item) -> str | None:
    """A reply whose first line is its answer letter ("(B)", "B.", "B: <text>", "A, though ...", "(C) 3"),
    followed by an explanation that may name other options ("(B)\n\nExplanation: (A) would ..."): the letter.

    Not when the first line names a second letter ("A, B", "(A) or (C)?"), when the next line opens with a letter
    too (an echoed option list), or when the letter is a word or an abbreviation ("A large mass", "B cells",
    "E. coli"); "I" only in brackets.
    """
    lines = _LINES.finditer(text)
    first = next(lines, None)
    if first is None:
        return None
    line = first.group(0).strip(" \t>-\u2022*_`\"'")
    m = re.match(r"([(\[])?([A-Za-z])([)\]])?", line)
    if not m:
        return None
    ch, rest = m.group(2), line[m.end():]
    lab = item.letter(ch)
    if lab is None:
        return None
    if not (m.group(1) and m.group(3)):
        if not re.match(r"[ \t]*$|[.:),](?![A-Za-z0-9])|[ \t]+[(\-]", rest):
            return None
        if ch in "Ii" or (ch.islower() and rest.strip(" \t.:),")):
            return None
        if re.match(r"\.[ \t]+[a-z]", rest) and not _names_option(rest[1:], lab, item):
            return None  # "E. coli", "C. difficile": an abbreviation, unless the option's own text follows
    if any(o != lab for o in _bare_letters(line, item)[0]):
        return None
    second = next(lines, None)
    if second is not None and _list_item(second.group(0), lab, item):
        return None
    return lab


_VERB_START = re.compile(r"(?i)(?:is|are|was|were|would|could|does|do|did|has|have|had|seems?|might|may|can|"
                         r"should|will|must|fits?|describes?|shows?)\b")


def _list_item(line: str, head: str, item: _Item) -> bool:
    """Whether the line after a head letter is the next item of an echoed option list ("(B) <B's text>",
    "(B) aggravating", "B"), not a sentence of the explanation ("(A) is on the back wall", "(A) mild and (B)
    moderate underestimate ...")."""
    m = _LIST_LINE.match(line)
    lab = item.letter(m.group(1)) if m else None
    if m is None or lab is None or lab == head:
        return False
    rest = line[m.end():]
    if _bare_letters(rest, item)[0]:
        return False  # a second letter: a sentence comparing options
    words = rest.strip(" \t.:)-").split()
    return _names_option(rest, lab, item, empty=True, more=False) or (
        0 < len(words) <= 3 and not _VERB_START.match(words[0]))


def _names_option(rest: str, lab: str, item: _Item, empty: bool = False, more: bool = True) -> bool:
    """Whether ``rest`` (what follows a letter) is that letter's option text (followed by more words when
    ``more``), or the start of it (3+ characters)."""
    n = _norm(rest.lstrip(" \t.:)-"))
    if not n:
        return empty
    opts = [opt for opt, lb in item.option_map if lb == lab]
    return any((n.startswith(opt) if more else n == opt) or (len(n) >= 3 and opt.startswith(n)) for opt in opts)


def _tail_letter(text: str, item: _Item) -> str | None:
    """A reply whose last line is a lone letter ("(B)", "B.") after an explanation or an echoed option list,
    unless the line before it is a lone letter too ("A\nB")."""
    lines = [m.group(0) for m in _LINES.finditer(text[-4000:])][-2:]
    if len(lines) < 2:
        return None
    last, before = (item.exact(_norm(x)) if len(x) <= 12 else None for x in lines[::-1])
    return last if last is not None and before is None else None


# --------------------------------------------------------------------------------------------------------------
# Rule 5 (yes/no items): presence questions
# --------------------------------------------------------------------------------------------------------------

# A question that asks whether a finding is there: ProbMed's "Is <finding> present in ...?", "Does this ... show
# any abnormality?", "Is there a lesion ...?". Modality, organ and attribute questions ("Is this a CT scan?",
# "Is this image contrast-enhanced?") are not presence questions.
_PRESENCE_QUESTION = re.compile(
    r"(?i)\b(?:present|presence|visible|seen|evident|evidence|identified|detected|noted|observed|appreciated|"
    r"demonstrated|abnormal(?:ity|ities)?|is\s+there|are\s+there|any\s+(?:signs?|findings?|lesions?|mass(?:es)?))\b"
)
_PRED = r"(?:present|seen|visible|identified|detected|evident|noted|observed|appreciated|demonstrated|visuali[sz]ed|" \
        r"apparent|see|show)"
_ABSENT = re.compile(
    r"(?i)\b(?:not|never)\s+(?:[\w\-]+\s+){0,2}?" + _PRED + r"\b|n't\s+(?:[\w\-]+\s+){0,2}?" + _PRED + r"\b"
    r"|\bnone\b|\bnothing\b|\babsen(?:t|ce)\b|\bunremarkable\b|\bwithout\s+(?:any\s+)?(?:evidence|signs?)\b"
    r"|\A\W*not\b(?!\s+only\b)"  # a reply opening with "Not": "Not in the left lung."
    # a space that holds no fluid: "The peritoneal cavity is dry."
    r"|\b(?:cavity|space|abdomen|pelvis|joint|recess|pouch)\s+(?:is|are|looks|appears|remains|seems)\s+"
    r"(?:completely\s+|entirely\s+)?dry\b"
)
# "on the right, not the left", "present, but not in the lung": the word denied, compared with the question's
_PRESENCE_CONTRAST = re.compile(r"(?i)\bnot\s+(?:(?:in|on|at|within|from|involving)\s+)?(?:the\s+)?([^\W\d_][\w\-]*)")
_QUESTION_STOP = _KEYWORD_STOP | frozenset("given please yes does do any".split())
_PRESENT = re.compile(r"(?i)\b(?:present|seen|visible|identified|detected|evident|noted|observed|demonstrated)\b"
                      r"|\bthere\s+(?:is|are)\b|\bI\s+(?:can\s+)?see\b")
_PRESENCE_UNSURE = re.compile(
    r"(?i)\b(?:whether|if|unclear|uncertain|unsure|sure|cannot|can't|unable|possibl[ey]|maybe|perhaps|may|might|"
    r"could|difficult)\b"
)
_CLAUSE_NEGATION = re.compile(r"(?i)\b(?:no|not|never|none|without|nothing)\b|n't\b")


def _presence(text: str, question: str) -> str | None:
    """Rule 5: "yes"/"no" from a reply to a presence question that has neither word.

    "Not present.", "None seen.", "Absent", "Unremarkable", "Normal study", "Negative", "I do not see ..." are no;
    "Present.", "Visible.", "There is a lesion ...", "Abnormal: ..." (when the question asks about an
    abnormality) are yes. A reply with both, or that hedges ("possibly", "not sure", "cannot tell whether"), is
    not read. "normal"/"negative" count only when the question does not itself use the word. A "not" that denies
    a word of the question ("on the right, not the left" to "... in the left lung?") is no, whatever else the
    reply says; one that denies something else ("present, but not large") is ignored.
    """
    if _PRESENCE_UNSURE.search(text):
        return None
    q = question.casefold()
    asked = set(_WORD.findall(q)) - _QUESTION_STOP
    if any(m.group(1).casefold() in asked for m in _PRESENCE_CONTRAST.finditer(text)):
        return "no"
    absent = bool(_ABSENT.search(text))
    for word in ("normal", "negative"):
        if not re.search(rf"\b{word}\b", q) and re.search(rf"(?i)\b{word}\b", text):
            absent = True
    present = False
    pos = list(_PRESENT.finditer(text))
    if "abnormal" in q:
        pos += list(re.finditer(r"(?i)\babnormal(?:ity|ities)?\b", text))
    for m in pos:
        clause = text[:m.start()]
        clause = clause[max(clause.rfind(c) for c in ".;:!?\n,") + 1:]
        if not _CLAUSE_NEGATION.search(clause):
            present = True
            break
    if absent != present:
        return "no" if absent else "yes"
    if not absent and not present:
        finding = _asked_finding(question)
        if finding and len(_WORD.findall(text)) <= 8 and "?" not in text and not _CLAUSE_NEGATION.search(text) \
                and not re.search(r"(?i)\b(?:can|could|may|might|would|should)\b", text) \
                and not lexicon.generic_statement(text):
            stem = overlap.stem(finding)
            if any(overlap.stem(w) == stem for w in _WORD.findall(text)):
                return "yes"  # "Large-volume ascites." to "Is there ascites ...?"
    return None


# the finding a presence question asks about: "Is there <ascites> in ...?", "Is <a pneumothorax> present ...?"
_FINDING_QUESTION = re.compile(
    r"(?i)\b(?:is|are)\s+there\s+(?:an?\s+|any\s+)?(?P<a>[\w\- ]+?)(?=\s+(?:in|on|at|within|of|involving|seen|"
    r"present|visible|noted)\b|\s*[?(]|\s*$)"
    r"|\b(?:is|are)\s+(?:an?\s+|any\s+|the\s+)?(?P<b>[\w\- ]+?)\s+(?:present|seen|visible|evident|identified)\b"
)


def _asked_finding(question: str) -> str | None:
    """The head word of the finding a presence question asks about ("ascites", "effusion"), or None."""
    m = _FINDING_QUESTION.search(question)
    if m is None:
        return None
    words = _WORD.findall(m.group("a") or m.group("b") or "")
    words = [w for w in words if w.casefold() not in _QUESTION_STOP]
    return words[-1] if words else None


# --------------------------------------------------------------------------------------------------------------
# What a careful reader weighs besides the rules above (issue 21): the reply's final verdict, options it rejects or
# only entertains, escape options, a letter whose text names another option, a reply cut off mid-list
# --------------------------------------------------------------------------------------------------------------

# A self-correction: what follows it is the reply's final verdict ("No. Wait, it is enlarged. Yes.", "A. Actually,
# looking again, B."); it opens a clause.
_SELF_CORRECTION = re.compile(
    r"(?i)(?:\A|(?<=[.!?;:\n,(\-]))[ \t\"'*_]*(?:no[ \t,]+)?(?:wait|hold\s+on|correction|scratch\s+that|"
    r"on\s+second\s+thought|on\s+(?:further\s+)?reflection|on\s+closer\s+(?:look|inspection|review|examination)|"
    r"looking\s+(?:again|more\s+closely|closer)|upon\s+(?:further\s+|closer\s+)?(?:review|inspection|reflection)|"
    r"let\s+me\s+(?:correct|reconsider|re-?check|re-?evaluate|re-?examine)(?:\s+(?:that|myself|this))?|"
    r"i\s+take\s+(?:that|it)\s+back|i\s+mean|actually|re-?examining|after\s+re-?consider\w*|"
    r"(?:i(?:'ll|\s+will|'d|\s+would|'m|\s+am)\s+)?(?:chang(?:e|ing)|switch(?:ing)?|revis(?:e|ing))\s+(?:my\s+)?"
    r"(?:answer|choice|selection|mind)(?:\s+to)?|my\s+(?:revised|corrected|updated)\s+answer(?:\s+is)?|"
    r"i\s+(?:was|am)\s+wrong|i\s+misspoke|sorry|(?:hmm+|then\s+again|but\s+then\s+again|on\s+the\s+other\s+hand)"
    r"(?:[ \t]*[,.]*[ \t]*(?:although|though|but))?|(?:although|though)(?=[ \t]*(?:-|\.\.\.|\u2026)))\b[ \t]*[,:.!\-]*"
)
# what withdraws an answer after a self-correction
_WITHDRAWN = re.compile(r"(?i)\b(?:not\s+(?:so\s+|entirely\s+|completely\s+)?(?:sure|certain|confident)|"
                        r"unsure|uncertain|"
                        r"can(?:not|'t)\s+(?:\w+\s+)?(?:tell|say|decide|be\s+sure|exclude|rule\s+out)|"
                        r"(?:don't|do\s+not)\s+know|hard\s+to\s+say|difficult\s+to\s+say|no\s+longer\s+sure|"
                        r"(?:would|'d)\s+need\s+[^.;!?\n]{0,80}?\bto\s+(?:say|tell|decide|be\s+sure|know))\b")
_TAIL_HEDGE = re.compile(r"(?i)\b(?:either|could|might|may|not\s+sure|unsure|uncertain|possibl[ey]|perhaps|maybe)\b")
# A conclusion that ends in a label ("..., so yes.", "Therefore, no.", "...: yes." at the end, "In short: red.")
_CONCLUSION_CUE = re.compile(
    r"(?i)(?:\b(?:so|thus|hence|therefore|consequently|overall|in\s+(?:conclusion|summary|short|sum)|"
    r"to\s+(?:conclude|summari[sz]e|sum\s+up)|bottom\s+line|verdict|conclusion)\b[ \t]*[,:\-]?[ \t]*"
    r"(?:(?:the\s+)?answer\s+(?:is\s+)?:?[ \t]*|it(?:'s|\s+is)[ \t]+)?|:[ \t]*)(?=\S)"
)
# A clause that only entertains an answer ("I'm not sure it isn't upside down", "it could also be C", "A cannot
# be ruled out"): labels named there are not the reply's answer, and make a reading by mention ambiguous.
_ENTERTAIN = re.compile(
    r"(?i)\b(?:not\s+(?:entirely\s+|completely\s+|100\s*%\s+)?(?:sure|certain|confident)|unsure|uncertain|"
    r"(?:could|might|may)\s+(?:also\s+|equally\s+|well\s+)?be|either\b[^.;\n]{0,60}?\bor|"
    r"can(?:not|'t)\s+(?:rule\s+out|exclude|be\s+ruled\s+out|be\s+excluded)|can(?:not|'t)\s+tell|"
    r"could\s+(?:also|equally|just\s+as\s+well)\s+be|might\s+(?:also|equally|actually)\s+be|"
    r"may\s+(?:also|equally|actually)\s+be|or\s+(?:possibly|perhaps|maybe)|is\s+also\s+(?:possible|plausible)|"
    r"(?:also|equally)\s+(?:possible|plausible|likely)|remains?\s+(?:possible|a\s+possibility)|hard\s+to\s+say|"
    r"difficult\s+to\s+(?:say|tell)|(?:it|that|this|the\s+answer)\s+depends\s+on|depending\s+on\s+(?:whether|if))\b"
)
# "C could also be ...", "B cannot be excluded": a letter that is the subject of an entertaining verb
_LETTER_ENTERTAINED = re.compile(r"(?<![\w'])[(\[]?([B-HJ-Z])[)\]]?(?![\w'])[ \t]+(?i:could|might|may|cannot|can't|"
                                 r"is\s+also|remains|also)\b")
_LONE_CAPITAL = re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?(?![\w'\-])")
_CLAUSE_SPLIT = re.compile(r"(?i)[.!?;\n]|\b(?:but|however|though|although|yet)\b")
# An alternative weighed, not chosen: "between A and B", "A or B?", "A vs. B"
_ALTERNATIVES = re.compile(
    r"(?i)\bbetween\s+(?:(?:options?|choices?|the)\s+)?[(\[]?[A-Z][)\]]?\s+and\s+[(\[]?[A-Z][)\]]?"
    r"|[(\[]?\b[A-Z]\b[)\]]?\s*(?:or|vs\.?|versus)\s*[(\[]?\b[A-Z]\b[)\]]?\s*\?"
)
# A letter rejected: "not A", "A is wrong", "rather than B", "(A) can be excluded"
_LETTER_REJECTED = re.compile(
    r"(?:\b(?i:not|rather\s+than|instead\s+of|other\s+than|excluding|except)[ \t]+(?:(?i:option|choice|letter|"
    r"answer)[ \t]+)?[(\[]?([A-Z])\b[)\]]?(?![\w'\-])"
    r"|[(\[]?\b([A-Z])\b[)\]]?(?:[ \t]*:[^.;\n]{0,120}?)?[ \t]+(?i:is|was|seems|appears|looks)[ \t]+(?i:not\b|"
    r"wrong|incorrect|unlikely|less\s+likely|excluded|ruled\s+out|inaccurate|false)"
    r"|[(\[]?\b([A-Z])\b[)\]]?[ \t]+(?i:isn't|wasn't|can\s+be\s+(?:excluded|ruled\s+out)))"
)
# several letters rejected at once: "A and B can be excluded", "A, B and D are wrong" (a chain of letters, found
# once each, then what follows it: linear even on "A or A or A or ...")
_LETTER_CHAIN = re.compile(r"(?<![\w'])(?:(?i:options?|choices?)[ \t]+)?[A-Z](?:[ \t]*(?:,|(?i:and|or)\b|&|/)[ \t]*"
                           r"[A-Z](?![\w']))+")
_CHAIN_REJECTED = re.compile(r"[ \t]+(?i:are|were|can\s+(?:both\s+|all\s+)?be|could\s+be|seem|look)[ \t]+"
                             r"(?i:not\b|wrong|incorrect|unlikely|excluded|ruled\s+out|less\s+likely|inaccurate|false)")
# "Excluding A, C and D leaves B.", "Ruling out A and B, ...": a chain of letters after a word that rejects them
_CHAIN_REJECTED_BEFORE = re.compile(r"(?i)\b(?:not|excluding|except|eliminating|ruling\s+out|rule\s+out|ruled\s+out|"
                                    r"rather\s+than|instead\s+of|other\s+than)[ \t]+(?:(?:options?|choices?)[ \t]+)?$")
# A label rejected after its mention: "Blue is not the closest", "Red isn't"
_LABEL_REJECTED_AFTER = re.compile(
    r"\A(?:[ \t]+(?:dot|one|circle|point|marker|option|answer|label))?[ \t]+(?:is|was|seems|appears|looks)"
    r"(?:[ \t]+(?:definitely[ \t]+|certainly[ \t]+|clearly[ \t]+)?(?:not|wrong|incorrect)\b|n't\b)",
    re.IGNORECASE,
)
# A word of judgement that is not an option's word ("None of the options seem right." must not read "right side")
_JUDGEMENT = re.compile(r"(?i)\b(?:seems?|looks?|is|are|be|sounds?|feels?|that's|all|quite|not|none)[ \t]+"
                        r"(?:\w+[ \t]+)?(?:right|correct|wrong)\b|\b(?:right|correct|wrong)[ \t]+(?:answer|option|"
                        r"choice)s?\b")
# The last words of a reply cut off mid-sentence ("... Option C: Pulmonary edema. This would")
_FUNCTION_WORDS = frozenset("""the a an this that these those would could should will is are was were be been of to
in on at for with and or but which as by from its it their than then because since so if while whereas also may
might can must has have had not no very more most less such into onto upon about between among option choice
appears appear seems seem shows show reveals reveal suggests suggest indicates indicate demonstrates looks look
contains measures represents includes including like whether what where when how who typically usually""".split())


def _first_sentence(t: str) -> str:
    m = re.search(r"[.;!?\n]", t)
    return t[:m.start()] if m else t


def _truncated(text: str) -> bool:
    """A reply that stops mid-sentence: it ends in a function word ("This would"), a comma, a colon or an open
    bracket (what a length limit leaves)."""
    t = text.rstrip(" \t*_")
    if not t or t[-1] in ".!?)]}\"'`>":
        return False
    if t[-1] in ",:;(-[":
        return True
    words = re.findall(r"[A-Za-z']+", t[-40:])
    if not words or re.fullmatch(r"[A-Z]", words[-1]):  # "Based on the image, A" ends in its answer
        return False
    return words[-1].lower() in _FUNCTION_WORDS and len(text.split()) > 3


def _escape_option(text: str, item: _Item) -> str | None:
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


def _escape_conflict(text: str, item: _Item, label: str) -> bool:
    """Whether the reply states, in its own words, an escape option of the item ("None of the above", "The question
    contains a clinically incorrect premise") other than ``label`` (an echoed option list's "D. None of the above"
    aside)."""
    if not item.escapes:
        return False
    for opt, _lab in item.option_map:
        if lexicon.escape_kind_of_option(opt):
            body = r"[\s\-]+".join(re.escape(w) for w in opt.split())
            text = re.sub(r"(?i)[(\[]?\b[A-Z][)\].:][ \t]*" + body, " ", text)
    said = {lb for k in lexicon.escape_kind_of_reply(text[:4000]) for lb in item.escapes.get(k, ())}
    return bool(said) and label not in said


def _letter_text_conflict(lab: str, rest: str, item: _Item) -> bool:
    """Whether the text written after a letter names another option ("A. None of the above." when A is
    "Pneumonia"; "A: Pleural effusion" when pleural effusion is B): the reply contradicts itself."""
    body = _first_sentence(rest.lstrip(" \t.:)-—")).strip()
    if not body or item.kind != "choice" or not item.option_map:
        return False
    if _names_option(body, lab, item) or _names_option(rest, lab, item):
        return False
    n = _norm(body)
    own = next((o for o, lb in item.option_map if lb == lab), "")
    for opt, other in item.option_map:
        if other != lab and (n == opt or (n.startswith(opt) and not n[len(opt):len(opt) + 1].isalnum())) \
                and opt not in own:
            return True
    kinds = lexicon.escape_kind_of_reply(body)
    own_kind = lexicon.escape_kind_of_option(own) if own else None
    return bool(kinds) and own_kind not in kinds and len(n.split()) <= 12


_PAIR = re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?(?:[ \t]*[:=)]|\.(?=[ \t])|[ \t]+(?:is|means|stands\s+for))[ \t]*"
                   r"([^.;,\n]{1,80})")


def _pair_conflict(text: str, item: _Item) -> bool:
    """Whether the reply pairs a letter with another option's text anywhere ("Yes, B is No.", "C. None of the
    above" when C is not that option)."""
    if item.kind != "choice" or not item.option_map:
        return False
    for m in _PAIR.finditer(text[:4000]):
        lab = item.letter(m.group(1))
        if lab is not None and m.group(1) not in "AI" and _letter_text_conflict(lab, m.group(2), item):
            return True
        if lab is not None and m.group(1) in "AI" and not re.match(r"[ \t]+[a-z]", text[m.end(1):m.end(1) + 3]) \
                and _letter_text_conflict(lab, m.group(2), item):
            return True
    return False


def _opening_option(text: str, item: _Item) -> str | None:
    """The option a reply opens with by its own short text ("Yes, the answer is A." when B is "Yes")."""
    t = text.lstrip(" \t\n\"'`*_>")
    for opt, lab in item.option_map:
        if len(opt.split()) <= 3 and re.search(r"[^\W\d_]{2}", opt) and \
                re.match(re.escape(opt) + r"[ \t]*[,.;:!\n]", t, re.IGNORECASE):
            return lab
    return None


def _rejected_letters(text: str, item: _Item) -> list[tuple[int, int]]:
    """Spans of letters the reply rejects or only weighs ("Not A, but B.", "Between A and B, B.", "A or B? B.",
    "A is wrong; C.")."""
    spans = [(m.start(), m.end()) for m in _ALTERNATIVES.finditer(text)]
    spans += [m.span() for m in _LETTER_CHAIN.finditer(text) if _CHAIN_REJECTED.match(text, m.end())
              or _CHAIN_REJECTED_BEFORE.search(text[max(0, m.start() - 40):m.start()])]
    for m in _LETTER_REJECTED.finditer(text):
        g = next((i for i in (1, 2, 3) if m.group(i)), None)
        if g is not None and item.letter(m.group(g)) is not None and m.group(g) != "I":
            spans.append((m.start(g), m.end(g)))
    return spans


def _question_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of sentences that end in "?" ("Upside down? No, it's correct.", "Is it red?"): what they name is
    asked, not answered."""
    if "?" not in text:
        return []
    out = []
    start = 0
    for m in re.finditer(r"[.!?\n]", text):  # linear: each sentence is scanned once
        if m.group(0) == "?":
            out.append((start, m.end()))
        start = m.end()
    return out


def _entertained_labels(text: str, item: _Item, canonical: bool = False) -> set[str]:
    """Labels named in clauses that only entertain them ("... but I'm not sure it isn't upside down", "it could
    also be C"), negated or not."""
    if not _ENTERTAIN.search(text):
        return set()
    out: set[str] = set()
    if not canonical:
        citem = _canonical_item(item.kind, item.labels, item.options, item.question)
        out |= _entertained_labels(lexicon.canonical(lexicon.translate(text), citem.narrow), citem, canonical=True)
    cuts = [0, *(m.end() for m in _CLAUSE_SPLIT.finditer(text)), len(text)]
    for a, b in zip(cuts, cuts[1:]):
        clause = text[a:b]
        if not _ENTERTAIN.search(clause):
            continue
        if item.kind == "choice":
            out.update(_bare_letters(clause, item)[0])
            out.update(lb for m in _LETTER_ENTERTAINED.finditer(clause) if (lb := item.letter(m.group(1))))
            for m in _LONE_CAPITAL.finditer(clause):  # "it could be C as well"; not the article in "A cyst may ..."
                if m.group(1) in "AI" and re.match(r"[ \t]+[a-z]", clause[m.end():]):
                    continue
                if (lb := item.letter(m.group(1))) is not None:
                    out.add(lb)
            low = _norm(clause)
            out.update(lb for opt, lb in item.option_map
                       if re.search(r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])", low))
            if canonical:  # "either on the right or bilateral": options named in other words, too
                out.update(_option_words(clause, item).named)
        else:
            for word, lab in item.words:
                if _phrase_regex(word, suffix=item.kind == "label").search(clause):
                    out.add(lab)
    return out


def _conclusion(text: str, item: _Item) -> str | None:
    """Yes/no and label items: the label a conclusion ends with (the last one): "..., so yes.", "Therefore, no.",
    "...: yes." at the end; the label must end its clause ("so no further imaging" concludes nothing)."""
    found: str | None = None
    for m in _CONCLUSION_CUE.finditer(text):
        rest = text[m.end():]
        if m.group(0).lstrip().startswith(":") and len(rest.strip()) > 40:
            continue  # "Findings: no effusion ...": a colon concludes only at the very end
        lab = _word_prefix(rest, item)
        if lab is None:
            continue
        w = next(mm for word, lb in item.words if lb == lab and (mm := _phrase_regex(
            word, suffix=item.kind == "label").match(rest)))
        if re.match(r"[ \t]*(?:[.,;!\n]|\Z)", rest[w.end():]):
            found = lab
    return found


def _self_corrected(text: str) -> str | None:
    """What follows the reply's last self-correction ("Wait", "Actually", "On second thought", ...), when
    something does."""
    ends = [m.end() for m in _SELF_CORRECTION.finditer(text)]
    ends += [m.end() for m in _AFTERTHOUGHT.finditer(text)] if "." in text or "\u2026" in text else []
    for end in sorted(ends, reverse=True):  # the last one that something follows ("..., it could be C. Hmm.")
        tail = text[end:]
        if tail.strip(" \t\n.,;:!-"):
            return tail
    return None


# an afterthought after a trailing-off ellipsis: "Yes, there's some displacement... although it may just be ..."
_AFTERTHOUGHT = re.compile(r"(?i)(?:\.\.\.|\u2026)[ \t]*(?:although|though|but|then\s+again)\b[ \t,]*")


def _named_in(text: str, item: _Item) -> set[str]:
    """The labels a short stretch of reply names at all: lone option letters (not the article "A a ..."), option
    texts, label words."""
    if item.kind != "choice":
        return set(_label_words(text, item))
    out = {lb for m in _LONE_CAPITAL.finditer(text) if (lb := item.letter(m.group(1))) is not None
           and not (m.group(1) in "AI" and re.match(r"[ \t]+[a-z]", text[m.end():]))}
    low = _norm(text)
    return out | {lb for opt, lb in item.option_map if re.search(r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])", low)}


def _closing_label(text: str, item: _Item) -> str | None:
    """The reply's last sentence when it is exactly one label ("... under the stratum corneum. Green.")."""
    sentences = [x for x in re.split(r"(?<=[.!?\n])", text[-400:]) if x.strip(" \t\n.!")]
    return item.exact(sentences[-1]) if sentences else None


def _suggested_label(suggested: str | None, item: _Item) -> str | None:
    if not suggested or item.kind != "choice":
        return None
    m = re.match(r"\s*[(\[]?([A-Za-z])\b", suggested)
    return item.letter(m.group(1)) if m else None


_AGREES = re.compile(
    r"(?i)\bI\s+(?:fully\s+|completely\s+|would\s+)?agree\b|\b(?:physician|student|doctor|suggested|proposed|given)"
    r"(?:'s|s')?\s+(?:answer|choice|response|selection)?\s*(?:\([A-Z]\)|[A-Z]\b(?::[^.;\n]{0,120})?)?\s*(?:is|was)\s+"
    r"(?:\w+\s+)?(?:correct|right|accurate|appropriate)\b|\b(?:physician|student|doctor)\s+is\s+(?:correct|right)\b"
    # "Agree.", "The physician got this one right", "Is the physician's answer correct? Yes."
    r"|\A\W*(?:agreed?|concur|i\s+concur)\b|\b(?:physician|student|doctor)\s+(?:got|has\s+got)\s+(?:it|this|this\s+one|"
    r"that)\s+right\b|\b(?:physician|student|doctor|suggested)(?:'s|s')?\s+(?:answer|choice|diagnosis)?\s*(?:is\s+)?"
    r"(?:correct|right|accurate)\?\s*(?:yes|yep|indeed|correct|it\s+is)\b"
)
_DISAGREES = re.compile(r"(?i)\b(?:disagree|incorrect|wrong|not\s+(?:\w+\s+)?(?:correct|right|accurate)|"
                        r"inaccurate|mistaken|erroneous|"
                        r"(?:don't|do\s+not|doesn't|does\s+not)\s+(?:think|believe|agree))\b"
                        r"|\b(?:correct|right|accurate)\?\s*no\b"
                        r"|\b(?:partially|partly|half|somewhat|only\s+partly|not\s+entirely)\s+(?:correct|right)\b")


# --------------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------------

KINDS = ("choice", "yesno", "label", "free")
# readings from where a word occurs rather than from a declaration: checked against the reply in English and
# canonical terms (:func:`extract`)
_BY_MENTION = frozenset({"label_word", "leading", "presence", "question_subject", "option_text_contained",
                         "option_keyword", "option_words", "negated_option", "restated"})


def extract(text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (), *,
            question: str | None = None, suggested: str | None = None) -> Answer:
    """Parse a reply with the robust default rules (module docstring; docs/reference.md §3).

    ``labels`` are the item's own labels: letters for ``choice`` (``options`` holds their texts in the same
    order), ("yes", "no") for ``yesno``, the allowed words for ``label``. ``question`` (the text the model was
    asked) is read to tell whether a yes/no item asks about the presence of a finding (rule 5) and what it asks
    about (rule 6); without it "Not present." and "This is a CT scan." stay unread. ``suggested`` is the answer a
    MedVH false-confidence prompt showed ("B" or "B: No."): a reply that agrees with it ("The physician's answer
    is correct.") names it. Never raises on any text; the returned ``choice`` is always one of ``labels`` or None.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {KINDS}")
    text = "" if text is None else str(text)
    refusal = is_refusal(text)
    if kind == "free":
        return Answer(None, "free_text", invalid=False, refusal=refusal)
    if not text.strip():
        return Answer(None, "empty", invalid=True, refusal=refusal)
    key = (kind, tuple(labels), tuple(options), question or "")
    item = _item(*key)
    clean = _clean(text)
    if not clean.strip():
        return Answer(None, "empty", invalid=True, refusal=refusal)  # nothing but chat-template tokens
    if ("/" in clean or "." in clean) and not any(opt in _NA_OPTION for opt, _ in item.option_map):
        clean = _NOT_APPLICABLE.sub("not applicable", clean)
    label, method = _read(clean, item, refusal, suggested)
    if label is not None and method in _BY_MENTION:
        # a reading from where a word occurs, in a reply partly in another language or in other words: the reading
        # of the reply in English and canonical terms must agree ("Sí y no: ..." is not "no"; "Non, pas de
        # pneumothorax." is no; "Young adult or older adolescent." names two age groups)
        english = lexicon.translate(clean, yesno=kind == "yesno")
        citem = _canonical_item(*key)
        alt = lexicon.canonical(english, citem.narrow)
        if alt != clean:
            found, how = _read(alt, citem, refusal, suggested)
            if how == "ambiguous" or (found is not None and found != label):
                label, method = (None, "ambiguous") if how == "ambiguous" else (
                    found, "language" if english != clean else "synonym")
    if label is not None and kind == "choice" and method not in ("final_verdict", "escape_option") \
            and _escape_conflict(clean, item, label):
        # "The question contains a clinically incorrect premise. Answer: B": the reply states an escape option and
        # names another one
        label, method = None, "ambiguous"
    if label is None and method in ("none", "out_of_range"):
        # 7. other languages and synonyms: the answer words in English, option and label texts in canonical form
        english = lexicon.translate(clean, yesno=kind == "yesno")
        citem = _canonical_item(*key)
        alt = lexicon.canonical(english, citem.narrow)
        if alt != clean or citem.option_map != item.option_map or citem.words != item.words:
            found, how = _read(alt, citem, refusal, suggested)
            if found is not None:
                label, method = found, "language" if english != clean else "synonym"
            elif how == "ambiguous":
                method = how
    return Answer(label, method, invalid=label is None, refusal=refusal)


def _read(clean: str, item: _Item, refusal: bool, suggested: str | None, corrections: bool = True
          ) -> tuple[str | None, str]:
    """The rules in order (module doc) on a cleaned reply: (label or None, method)."""
    kind = item.kind
    # 0. the reply is a label
    lab = item.exact(clean)
    if lab is not None:
        return lab, "exact"
    # 1a. the final verdict after a self-correction ("No. Wait, it is enlarged. Yes.")
    if corrections:
        tail = _self_corrected(clean)
        if tail is not None:
            found, how = _read(tail, item, refusal, suggested, corrections=False)
            if (_TAIL_HEDGE.search(tail) or _WITHDRAWN.search(tail)) and (
                    found is not None or _entertained_labels(tail, item) or _named_in(tail, item)):
                return None, "ambiguous"  # "A. Actually, I am not sure; it could be C as well.", "C. Wait, maybe B."
            if found is None and _WITHDRAWN.search(tail):
                return None, "withdrawn"  # "The answer is B. On second thought, I'm unsure whether ..."
            if found is not None:
                return found, "final_verdict"
            if how == "ambiguous":
                return None, how
    else:
        # what follows a self-correction: its closing sentence, when it is a lone label, is the verdict
        lab = _closing_label(clean, item)
        if lab is not None:
            return lab, "final_verdict"
    # 1. last explicit declaration (weak ones, "it is B" / "probably B", wait for rule 3b)
    decl = _declaration(clean, item)
    if decl.kind == "conflict":
        return None, "ambiguous"  # "The answer is A: Pleural effusion" when pleural effusion is B
    if decl.label is not None and decl.kind != "weak":
        if kind == "choice" and _opening_option(clean, item) not in (None, decl.label):
            return None, "ambiguous"  # "Yes, the answer is A." when A is "No"
        sug = _suggested_label(suggested, item)
        if sug is not None and sug != decl.label and _AGREES.search(clean) and not _DISAGREES.search(clean):
            return None, "ambiguous"  # "The physician's answer is correct. The correct answer is: C" (A suggested)
        if decl.kind == "post" and kind != "choice" and corrections:
            # "Red looks closest at first glance, but ... Green.": a closing lone label is the final verdict
            closing = _closing_label(clean, item)
            if closing is not None and closing != decl.label:
                return closing, "final_verdict"
        return decl.label, "language" if decl.kind == "foreign" else "declaration"
    out_of_range = decl.out_of_range

    # 2. \boxed{} / backticks
    bb = _boxed_or_backtick(clean, item)
    if bb is not None:
        method, found_bb = bb
        if method == "ambiguous":
            return None, "ambiguous"
        if found_bb.label is not None:
            return found_bb.label, method
        out_of_range = out_of_range or found_bb.out_of_range

    if decl.kind == "na":
        return None, "not_applicable"  # "Answer: N/A": declared non-answer, whatever words follow ("no image ...")
    if kind == "choice":
        return _read_choice(clean, item, decl, out_of_range, refusal, suggested)
    return _read_words(clean, item, refusal)


def _read_choice(clean: str, item: _Item, decl: _Found, out_of_range: bool, refusal: bool, suggested: str | None
                 ) -> tuple[str | None, str]:
    """Rules 3-4 for choice items."""
    # 4a. a reply that is exactly one option's text (also an option whose text is "N/A")
    lab = _option_exact(clean, item)
    if lab is not None:
        return lab, "option_text"
    # the reply's closing verdict ("..., so free fluid is present.", "Impression: right femoral shaft fracture.",
    # "... suggest a newborn. Neonate.") before what it mentions on the way
    verdict = _closing_verdict(clean, item, refusal, suggested)
    # "A would be right only if ...", "the physician's B", "the physician's answer of 'Present'"
    plain = _mask(clean, (*decl.hypotheses, *decl.rejected, *_attributed_mentions(clean)))
    # letters the reply rejects or only weighs ("Not A, but B.", "Between A and B, B.", "A or B? B.")
    masked = _mask(plain, [*_rejected_letters(plain, item), *_question_sentences(plain)])
    letters, oor = _bare_letters(masked.strip(), item)
    entertained = _entertained_labels(clean, item)

    def mention(label: str, method: str, committed: bool = False) -> tuple[str | None, str]:
        """A reading from where the answer is mentioned, not declared: not when the reply only entertains it
        alongside another, opens with another option's text, pairs a letter with another option's text ("Yes, B
        is No."), stops mid-sentence, or only speaks about the topic in general."""
        if entertained - {label} or _opening_option(clean, item) not in (None, label) or _pair_conflict(clean, item):
            return None, "ambiguous"
        if not committed and _truncated(clean):
            return None, "truncated"
        if method not in ("bare", "leading") and lexicon.generic_statement(clean):
            return None, "none"  # "Melanoma is the most dangerous skin cancer, and benign nevi are common."
        return label, method

    # 3b. the first line is the answer letter (what follows explains it, whatever options it names), or the
    # last line is a lone letter after an explanation or an echoed option list
    head, tail = _head_letter(masked, item), _tail_letter(masked, item)
    if verdict is not None:
        if (head or tail or verdict) != verdict or (tail or verdict) != verdict:
            return None, "ambiguous"  # "(B) ... Therefore the nodule is solid." when B is cystic
        return mention(verdict, "final_verdict", committed=True)
    if head is not None and _letter_text_conflict(head, _head_rest(masked), item):
        return None, "ambiguous"  # "A. None of the above." when A is "Pneumonia"
    if head is not None and tail is not None and head != tail:
        return None, "ambiguous"
    if head is not None or tail is not None:
        lab = head or tail
        return mention(lab, "bare" if letters == [lab] else "leading", committed=True)  # type: ignore[arg-type]
    if decl.label is not None:
        return decl.label, "declaration"
    # the reply agrees with the answer the prompt suggested ("The physician's answer is correct.")
    sug = _suggested_label(suggested, item)
    if sug is not None and _AGREES.search(clean) and not _DISAGREES.search(clean):
        return sug, "agrees_with_suggestion"
    # 3. lone letter tokens
    out_of_range = out_of_range or oor
    if len(letters) == 1:
        return mention(letters[0], "bare")
    weighed = _mask(plain, [m.span() for m in _ALTERNATIVES.finditer(plain)])
    if len(letters) > 1 or (weighed != plain and len(_bare_letters(plain.strip(), item)[0]) > 1):
        return None, "ambiguous"  # "A or B", "Options A and B are both plausible"
    # 4b. an escape option in the reply's own words ("None of these fit." for "None of the above")
    lab = _escape_option(masked, item)
    if lab is not None:
        named = _option_mentions(lexicon.canonical(masked), _canonical_item(item.kind, item.labels, item.options,
                                                                              item.question))
        if named is not None and any(x != lab for x in named[0]):
            return None, "ambiguous"  # "None of the options is quite right, but glioblastoma is closest."
        return mention(lab, "escape_option")
    if lexicon.escape_kind_of_reply(masked):
        return None, "none"  # "None of the options seem right." where no option says so: no option is named
    # 4c. option text ("seems right", "the correct answer" are judgements, not the option "right side"), read with
    # synonyms in canonical form ("Heart attack or aortic dissection" names two options); a refusal's remarks
    # ("Impetigo is common in children, though.") name no answer
    if refusal:
        return None, "out_of_range" if out_of_range else "none"
    judged = _mask(masked, [m.span() for m in _JUDGEMENT.finditer(masked)])
    citem = _canonical_item(item.kind, item.labels, item.options, item.question)
    canon = lexicon.canonical(judged, citem.narrow)
    how = "synonym" if canon != judged or citem.option_map != item.option_map else ""
    keywords, _, _ = _option_keywords(canon, citem)
    words = _option_words(canon, citem)
    # in a one-sentence reply, an option named by its concepts beside the one named by its text is a second
    # reading ("Both femurs are intact." names "Both femurs" and denies the fracture)
    others = words.named if _one_sentence(canon) and not lexicon.generic_statement(clean) else ()
    lab = _option_contained(canon, citem)
    if lab is not None:
        if any(k != lab for k in (*keywords, *others)):
            return None, "ambiguous"  # "A PE or a dissection": another option named by its own word
        return mention(lab, how or "option_text_contained")
    lab = _option_keyword(canon, citem)
    if lab is not None:
        if any(k != lab for k in others):
            return None, "ambiguous"
        return mention(lab, how or "option_keyword")
    said = _option_mentions(canon, citem)
    if said is not None and len(citem.option_map) == 2 and not said[0] and len(said[1]) == 1:
        # two options: denying one names the other ("Not the left kidney; the right one is dilated.")
        return mention(next(lb for _, lb in citem.option_map if lb != said[1][0]), "negated_option")
    # 4d. the options' concepts: "Broken kneecap." for "Patellar fracture", "IIH", "a stone in the common bile
    # duct" for "Choledocholithiasis"; every option but one rejected names the one left
    if len(words.named) == 1:
        return mention(words.named[0], "option_words")
    if len(words.named) > 1:
        return None, "ambiguous"
    left = [lb for _, lb in citem.option_map if lb not in words.rejected]
    if words.rejected and len(left) == 1:
        return mention(left[0], "negated_option")
    # options that are yes and no, or present and absent: the reply read as a yes/no answer to the question ("No
    # nodule." for Present / Absent)
    pair = _yes_no_options(item)
    if pair is not None:
        yn = _item("yesno", ("yes", "no"), (), item.question)
        found, how = _read_words(masked, yn, refusal)
        if found is not None:
            return mention(pair[found], how)
        if how == "ambiguous":
            return None, how
    return None, "out_of_range" if out_of_range else "none"


_AFFIRMATIVE_OPTIONS = frozenset({"yes", "present", "positive", "true"})
_NEGATIVE_OPTIONS = frozenset({"no", "absent", "negative", "false", "not present"})


def _yes_no_options(item: _Item) -> dict[str, str] | None:
    """{"yes": label, "no": label} for a choice item whose two options are yes and no, or present and absent."""
    if len(item.option_map) != 2:
        return None
    yes = [lb for opt, lb in item.option_map if opt in _AFFIRMATIVE_OPTIONS]
    no = [lb for opt, lb in item.option_map if opt in _NEGATIVE_OPTIONS]
    return {"yes": yes[0], "no": no[0]} if len(yes) == 1 and len(no) == 1 else None


def _one_sentence(text: str) -> bool:
    """Whether the reply is one sentence (no sentence mark before its last words)."""
    return not re.search(r"[.!?;\n]\s*\S", text.strip())


# a closing sentence that states the reply's verdict: "So ...", "Therefore ...", "Impression: ...", "-> A"
_VERDICT_CUE = re.compile(
    r"(?i)\A[ \t*_>\-]*(?:(?:so|thus|hence|therefore|overall|consequently|in\s+(?:conclusion|summary|short|sum)|"
    r"to\s+(?:conclude|summari[sz]e|sum\s+up)|all\s+in\s+all|on\s+balance)\b[ \t]*,?"
    r"|(?:impression|conclusion|verdict|bottom\s+line|(?:final\s+|most\s+likely\s+)?diagnosis|summary)[ \t]*[:\-])"
)
_ENUMERATED = re.compile(r"[ \t>]*(?:[\-*\u2022|+]|\d{1,2}[.)]|[(\[]?[A-Z][)\]]?[.):](?!\w))")
_ARROW = re.compile(r"(?:->|=>|\u2192)[ \t]*")


def _closing_verdict(text: str, item: _Item, refusal: bool, suggested: str | None) -> str | None:
    """Choice items: the option the reply's closing sentence names, when that sentence is its verdict: it opens
    with a conclusion cue ("Therefore the nodule is cystic.", "Impression: ..."), follows an arrow ("... -> A."),
    or is short (at most six words: "... suggest a newborn. Neonate."). Not when the reply is one sentence, echoes
    the options as a list, or the closing sentence hedges."""
    body = text.strip()
    sentences = [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n+", body[-800:]) if x.strip(" \t.!*_-")]
    if len(sentences) < 2 or len(_WORD.findall(" ".join(sentences[:-1]))) < 3:
        return None  # nothing to conclude from ("A\nB", "B. Showing an aggravating pseudoaneurysm")
    last = sentences[-1]
    arrow = None
    for arrow in _ARROW.finditer(last):
        pass
    if arrow is not None:
        verdict = last[arrow.end():]
    else:
        cue = _VERDICT_CUE.match(last)
        if cue is not None:
            verdict = last[cue.end():]
        elif len(_WORD.findall(last)) <= 6 and len(sentences) >= 2:
            verdict = last
        else:
            return None
        if cue is None and sum(1 for x in sentences if _ENUMERATED.match(x)) >= 2:
            return None  # a list ("1. Normal ...", "| A. IIH | ...", "A: No. B: Yes.") ends in one of its items
    if not verdict.strip(" \t.!*_") or _TAIL_HEDGE.search(verdict) or "?" in verdict:
        return None
    found, how = _read(verdict, item, refusal, suggested, corrections=False)
    return found if how not in ("ambiguous", "truncated") else None


def _option_words(text: str, item: _Item) -> overlap.Overlap:
    """The options a reply names or rejects by their concepts (:mod:`probe_ui.reading.overlap`), escape options
    aside (their own rule reads them)."""
    if len(text) > 3000:
        return overlap.Overlap((), ())  # a reply that long names its answer by letter or text, if at all
    escapes = {lb for opt, lb in item.option_map if lexicon.escape_kind_of_option(opt) and not
               overlap.content_words(lexicon.escape_remainder(opt))}  # "Neither hip" is read here, too
    return overlap.option_overlap(text, [(o, lb) for o, lb in item.option_map if lb not in escapes], _negated,
                                  item.question)


def _head_rest(text: str) -> str:
    """What follows the letter on the reply's first line ("A. None of the above." → ". None of the above.")."""
    first = next(_LINES.finditer(text), None)
    if first is None:
        return ""
    line = first.group(0).strip(" \t>-\u2022*_`\"'")
    m = re.match(r"([(\[])?([A-Za-z])([)\]])?", line)
    return line[m.end():] if m else ""


def _read_words(clean: str, item: _Item, refusal: bool) -> tuple[str | None, str]:
    """Rules 3-6 for yes/no and label items."""
    text = lexicon.mask_idioms(clean) if item.kind == "yesno" else clean  # "No doubt, ..." is not no
    if refusal:  # "There seems to be no image attached.": the "no" of a refusal is not the answer no
        text = _mask(text, refusal_spans(text))
    entertained = _entertained_labels(text, item)

    def mention(label: str, method: str) -> tuple[str | None, str]:
        return (None, "ambiguous") if entertained - {label} else (label, method)

    # two sentences that are each a different label, and no self-correction between them: "Yes. No. I cannot
    # decide."
    alone = {lb for x in re.split(r"(?<=[.!?;\n])", text[:2000])
             if not x.rstrip().endswith("?") and (lb := item.exact(x)) is not None}
    # several labels each opening a "label: description" clause ("Red: dermis. Green: epidermis.") are a list
    listed = {lb for x in re.split(r"(?<=[.!?;\n])", text[:2000])
              if (lb := _word_prefix(x.lstrip(" \t\n-*"), item)) is not None
              and re.match(r"[^:]{0,20}?:", x.lstrip(" \t\n-*")[:40])}
    # each answer under its own condition: "Yes, if it's a PA film; no, if it's an AP film."
    conditional = {lb for x in re.split(r"[.;!?\n]", text[:2000])
                   if (lb := _word_prefix(x.lstrip(" \t-*"), item)) is not None
                   and re.match(r"\W*\w+[ \t]*,?[ \t]*(?:if|when|unless|provided|assuming)\b", x.lstrip(" \t-*"), re.I)}
    if len(alone) > 1 or len(listed) > 1 or len(conditional) > 1:
        return None, "ambiguous"
    # a conclusion that ends in a label ("..., so yes.", "...: yes.") is the reply's final verdict, and so is a
    # closing sentence that is only a label ("No pneumothorax on the left; on the right, a small one. Yes.")
    lab = _conclusion(text, item)
    if lab is None and len(re.findall(r"[.!?;\n]\s*\S", text)) >= 1:
        lab = _closing_label(text, item)
    if lab is not None:
        return lab, "final_verdict"
    lab = _leading_word(text, item)
    if lab is not None:
        restated = _restated(text, item)
        if restated is not None and restated != lab and not entertained:
            return restated, "restated"  # "No, this scan is not normal - ..." to "... any abnormality?" is yes
        return mention(lab, "leading")
    words = _label_words(_mask(text, _question_sentences(text)), item)
    if len(words) == 1:
        if lexicon.generic_statement(text):
            return None, "none"  # "Correctly identifying the orientation requires the anatomical landmarks."
        return mention(words[0], "label_word")
    if len(words) > 1:
        return None, "ambiguous"
    # two labels: denying one names the other ("Not inverted." for correct / upside down)
    distinct = list(dict.fromkeys(item.labels))
    if item.kind == "label" and len(distinct) >= 2:
        denied = _label_words(_mask(text, _question_sentences(text)), item, negated=True)
        left = [lb for lb in distinct if lb not in denied]
        if len(left) == 1 and not _PRESENCE_UNSURE.search(text):
            return left[0], "negated_option"  # "Not red, not blue."
    question = item.question
    if item.kind == "yesno" and question and not refusal and item.aliases:
        # 5. presence questions: "Not present." / "None seen." / "Normal study" are no, "Present." is yes
        if _PRESENCE_QUESTION.search(question):
            said = _presence(text, question)
            if said == "yes" and subject.answer_from_subject(text, question) == "no":
                # "The consolidation is in the left lower lobe." to "... in the right lower lobe?": there, not here
                return item.aliases["nope"], "question_subject"
            if said is not None:
                return item.aliases["yep" if said == "yes" else "nope"], "presence"
        # 6. the question's subject: "This is a CT scan." to "Is this an MRI?" is no
        said = subject.answer_from_subject(text, question) or subject.answer_from_predicate(text, question)
        finding = _asked_finding(question) if said == "yes" and _PRESENCE_QUESTION.search(question) else None
        if finding and not any(overlap.stem(w) == overlap.stem(finding) for w in _WORD.findall(text)):
            said = None  # "The right lower lobe is clear of artefact." names where, not whether, the finding is
        if said is not None:
            return item.aliases["yep" if said == "yes" else "nope"], "question_subject"
    opening = _AFFIRMING_OPENING.match(clean)
    if item.kind == "yesno" and item.aliases and opening and not refusal and question:
        # "No doubt a tension one, with mediastinal shift.": what follows names the asked finding (or "one" for
        # it) and weighs nothing ("No doubt this needs further imaging to decide." says nothing)
        rest = clean[opening.end():]
        finding = _asked_finding(question)
        names = re.search(r"(?i)\b(?:an?|the)\s+(?:[\w\-]+\s+){0,2}one\b", rest) or (
            finding and any(overlap.stem(w) == overlap.stem(finding) for w in _WORD.findall(rest)))
        if names and not _PRESENCE_UNSURE.search(rest) and not _CLAUSE_NEGATION.search(rest):
            return item.aliases["yep"], "leading"
    return None, "none"


# --------------------------------------------------------------------------------------------------------------
# Legacy modes
# --------------------------------------------------------------------------------------------------------------


def extract_legacy(mode: str, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                   gt: str | None = None) -> Answer:
    """Parse a reply exactly as the named benchmark's original code did (to reproduce published numbers).

    ``gt`` is needed by "probmed" and "medvh", whose rules decide correctness directly; the others ignore it.
    """
    from probe_ui.benchmarks import legacy_parsers

    parsers = legacy_parsers()
    try:
        bench = parsers[mode]
    except KeyError:
        raise ValueError(f"unknown legacy mode {mode!r}; expected one of {sorted(parsers)}") from None
    if kind == "free":
        return Answer(None, "free_text", invalid=False, refusal=is_refusal(text or ""))
    return bench.parse_legacy(text, kind, labels, options, gt)


def _norm_label(s: str) -> str:
    s = s.strip().casefold()
    if len(s) >= 3 and s[0] == "(" and s[-1] == ")":
        s = s[1:-1].strip()
    return s


def is_correct(answer: Answer, gt_label: str | None) -> bool | None:
    """Whether the parsed answer matches the ground-truth label.

    A legacy ``correct`` wins (its rule is the benchmark's own); None when the ground truth is unknown or the
    item is free text; an invalid answer is wrong. Labels compare case-insensitively, "(B)" equal to "B".
    """
    if answer.correct is not None:
        return answer.correct
    if gt_label is None or answer.method == "free_text":
        return None
    if answer.invalid or answer.choice is None:
        return False
    return _norm_label(answer.choice) == _norm_label(gt_label)


@functools.lru_cache(maxsize=1)
def parser_version() -> str:
    """A fingerprint of the robust parser's code (this module, the label rules of :mod:`probe_ui.items` and the
    word lists and rules of :mod:`probe_ui.reading`).

    The parse stored with each answer is a cache of the robust reading, valid only under the same fingerprint;
    :func:`probe_ui.scoring.scored_answers` re-reads replies whose stored parse came from other code."""
    from probe_ui import items
    from probe_ui.reading import refusals

    h = hashlib.sha256()
    for module in (sys.modules[__name__], items, lexicon, languages, overlap, subject, refusals):
        h.update(Path(module.__file__ or "").read_bytes() if module.__file__ else b"")
    return h.hexdigest()[:16]


def cache_row(text: str | None, kind: str, labels: Sequence[str], options: Sequence[str], gt: str | None, *,
              question: str | None = None, suggested: str | None = None) -> dict[str, object]:
    """The stored parse of a reply: its robust reading (``question``: the text asked, for rules 5-6;
    ``suggested``: a MedVH FCJ suggestion) and correctness against ``gt``, stamped with :func:`parser_version`
    (what the runner and the importers store with every answer)."""
    ans = extract(text or "", kind, labels, options, question=question, suggested=suggested)
    return {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
            "correct": is_correct(ans, gt), "parse_version": parser_version()}
