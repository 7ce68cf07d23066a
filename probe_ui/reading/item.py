"""The item being read: its kind, labels, option texts, escape options and the words that name a label.

Why a module: every rule of :func:`probe_ui.reading.answers.extract` reads a reply against the same description of the
item, built once per distinct item (a run re-scored reads the same item for every model and sample), and once more with
its texts in canonical form for the synonym pass.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from probe_ui.reading import lexicon, synonyms
from probe_ui.reading.cleaning import norm

if TYPE_CHECKING:
    from probe_ui.reading.answers import Answer

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
                  "i do not believe so": "no", "i doubt it": "no", "i'd say not": "no",
                  # batch 17: "Incorrect — no pneumothorax is seen", "That's right, it's a chest film"
                  "incorrect": "no", "that's incorrect": "no", "that is incorrect": "no", "that's right": "yes",
                  "that is right": "yes", "that is correct": "yes",
                  # batch 19: "Not in the slightest; it measures 4 mm."
                  "not in the slightest": "no", "not in the least": "no", "not one bit": "no",
                  # batch 37: "Not by a long shot — the duct measures about 4 mm."
                  "not by a long shot": "no", "not by a long way": "no", "not by any means": "no",
                  # held-out batch 149: "Not remotely. This is a frontal (PA) chest radiograph: ..."
                  "not remotely": "no", "not even remotely": "no",
                  # batch 20: "Looks like it — there are breast shadows on both sides." (a whole clause: CLAUSE_OPENERS)
                  "looks like it": "yes", "looks that way": "yes", "seems like it": "yes", "seems so": "yes",
                  "it seems so": "yes", "appears so": "yes", "it appears so": "yes",
                  "doesn't look like it": "no", "does not look like it": "no", "doesn't seem like it": "no",
                  "doesn't seem so": "no", "doesn't look that way": "no",
                  # batch 21: "Afraid not — the liver surface is smooth ...", "Uh-huh, there's a clear break ..."
                  "afraid not": "no", "i'm afraid not": "no", "i am afraid not": "no", "afraid so": "yes",
                  "i'm afraid so": "yes", "i am afraid so": "yes", "uh-huh": "yes", "mm-hmm": "yes", "mhm": "yes",
                  "uh-uh": "no",
                  # batch 22: "Most definitely — a clear transverse break ..."
                  "most definitely": "yes", "most certainly": "yes", "most assuredly": "yes",
                  "most definitely not": "no", "most certainly not": "no",
                  # batch 23: "Big time — the heart takes up ...", "Quite so: ...", "sure is, fluid around the liver",
                  # "Nothing of the sort — the fragments remain in alignment." (whole clauses: CLAUSE_OPENERS)
                  "big time": "yes", "quite so": "yes", "sure is": "yes", "it sure is": "yes", "sure does": "yes",
                  "it sure does": "yes", "nothing of the sort": "no", "nothing of the kind": "no",
                  # batch 68: "Zilch — cortex intact throughout." (a whole clause: CLAUSE_OPENERS)
                  "zilch": "no",
                  # batch 28: "Unmistakably — it's about 12 mm.", "Sure thing, it's a PA view of the hand." (clauses)
                  "unmistakably": "yes", "undoubtedly": "yes", "unquestionably": "yes", "sure thing": "yes",
                  # batch 30: "You'd better believe it: a 4 cm exophytic lesion ...", "Not a bit of it — the cortices
                  # line up perfectly." (clauses)
                  "you'd better believe it": "yes", "you better believe it": "yes", "not a bit of it": "no",
                  "not a bit": "no",
                  # batches 39-40: "You bet it is — about 12 mm ...", "It certainly is — the mass is in the right
                  # temporal lobe ...", "Plenty of it — fluid surrounds the liver ..."
                  # (clauses: not "It certainly is a CT", "Plenty of it is artefact")
                  "you bet it is": "yes", "you bet": "yes", "it certainly is": "yes", "it definitely is": "yes",
                  "it absolutely is": "yes", "plenty of it": "yes",
                  # batch 41: "Regrettably so — there's a solid-looking lesion at the upper pole." (as "afraid so";
                  # clauses: not "Regrettably, so many ...")
                  "regrettably so": "yes", "unfortunately so": "yes", "sadly so": "yes",
                  # batch 45: "Sure looks like it — CSF is bright ..." (a clause: not "Sure looks like it is a CT")
                  "sure looks like it": "yes", "sure seems like it": "yes",
                  # batch 49: "Far from it — smooth surface and a normal caudate-to-right-lobe ratio." (a clause: not
                  # "Far from it is the spleen.")
                  "far from it": "no",
                  # batch 81: "Confirmed — aorta and portal vein are opacified." (a clause: not "Confirmed
                  # pneumonia")
                  "confirmed": "yes",
                  # batch 58: "Very much so — there's a large left effusion ..." (a clause, as "quite so")
                  "very much so": "yes",
                  # batch 64: "By a mile — it reaches down to the iliac crest." (a clause, as "big time")
                  "by a mile": "yes", "not by a mile": "no",
                  # batch 65: "That it is. The Hounsfield grey-scale ..." (a clause: not "That it is a CT is clear";
                  # "Without a doubt." is read by lexicon.mask_idioms)
                  "that it is": "yes",
                  # batch 109: "That it does — there's an acute infarct ..." (a clause: CLAUSE_OPENERS)
                  "that it does": "yes", "that it did": "yes",
                  # batch 77: "It certainly was; the dural and choroid plexus enhancement gives it away." (the past of
                  # "it certainly is", to "Was this MRI acquired after ...?"; a clause: not "It certainly was a CT")
                  "it certainly was": "yes", "it definitely was": "yes", "it absolutely was": "yes",
                  # batch 86: "Sure was — the choroid plexus and the dural venous sinuses are enhancing." (the past of
                  # "sure is"; a clause)
                  "sure was": "yes", "it sure was": "yes", "sure did": "yes", "it sure did": "yes",
                  # batches 88 and 90: "Not by any stretch — the fragments are lying in near-perfect alignment.",
                  # "Happily not. I traced the pleural margins ..." (clauses: not "Happily not all ...")
                  "not by any stretch": "no", "happily not": "no", "thankfully not": "no", "fortunately not": "no",
                  "luckily not": "no",
                  # batches 94-95: the archaic "Nay, ther is no brekynge of the boon", "Nay, the boon is nat broken."
                  # (Middle English; a clause: not "nay, worse")
                  "nay": "no",
                  # batches 112-113: "It certainly looks that way: the right costophrenic angle is blunted ...", "It
                  # sure does look that way: there's a pleural effusion, ..." (clauses: not "It looks that way to
                  # the untrained eye, but ...", which goes on)
                  "it looks that way": "yes", "it certainly looks that way": "yes",
                  "it definitely looks that way": "yes", "it sure looks that way": "yes",
                  "it sure does look that way": "yes", "it does look that way": "yes",
                  "it certainly does look that way": "yes",
}
# openers that are a whole clause, read only when a mark or the end follows them ("Looks like it - ...", not "Looks
# like it is a CT", which says what it looks like)
CLAUSE_OPENERS = frozenset({"it looks that way", "it certainly looks that way", "it definitely looks that way",
                            "it sure looks that way", "it sure does look that way", "it does look that way",
                            "it certainly does look that way", "looks like it", "looks that way", "seems like it",
                            "seems so", "it seems so", "appears so",
                            "it appears so", "doesn't look like it", "does not look like it", "doesn't seem like it",
                            "doesn't seem so", "doesn't look that way", "big time", "quite so", "sure is", "it sure is",
                            "sure does", "it sure does", "nothing of the sort", "nothing of the kind", "zilch",
                            "unmistakably", "undoubtedly", "unquestionably", "sure thing",
                            "you'd better believe it", "you better believe it", "not a bit of it", "not a bit",
                            "you bet it is", "you bet", "it certainly is", "it definitely is", "it absolutely is",
                            "plenty of it", "regrettably so", "unfortunately so", "sadly so", "sure looks like it",
                            "sure seems like it", "far from it", "very much so", "by a mile", "not by a mile",
                            "that it is", "that it does", "that it did",
                            "it certainly was", "it definitely was", "it absolutely was", "confirmed",
                            "sure was", "it sure was", "sure did", "it sure did", "not by any stretch", "happily not",
                            "thankfully not", "fortunately not", "luckily not", "nay"})
# a lone "Y" or "N" is yes or no, but only as the whole reply
# batch 68: clinicians' shorthand, "Neg." (negative) and "Pos." (positive), likewise; and each of them also opens a
# reply before a mark and its reason ("Y. CSF bright.", "Neg. Abdo CT.": :data:`MARKED_OPENERS`)
_YESNO_LETTERS = {"y": "yes", "n": "no", "neg": "no", "pos": "yes"}
#: the openers read only before a mark: "Y. CSF bright." (not "N of 3", "Pos 2")
MARKED_OPENERS = frozenset(_YESNO_LETTERS)


class Item:
    """What the extractor needs to know about the item: its labels, option texts and kind."""

    def __init__(self, kind: str, labels: Sequence[str], options: Sequence[str], question: str | None = None) -> None:
        self.kind = kind
        self.question = question or ""
        self.labels = tuple(labels)
        self.options = tuple(options)
        self.narrow: frozenset[str] = frozenset()  # narrower terms the item offers (synonym pass, synonyms.BROADER)
        # choice items: single-letter labels, matched by letter
        self.letters: dict[str, str] = {}
        if kind == "choice":
            for lab in self.labels:
                if len(lab.strip()) == 1 and lab.strip().isalpha():
                    self.letters.setdefault(lab.strip().upper(), lab)
        # the letters the options' own names hold as a word ("Stanford type A dissection", "Hepatitis B"): written alone
        # in a reply, such a letter may be the name's rather than the option's
        self.named_letters = frozenset(ch for ch in self.letters if any(
            re.search(rf"(?<![\w\-]){ch}(?![\w\-])", o) for o in self.options))
        # option text → label (choice items)
        self.option_map: list[tuple[str, str]] = []
        if kind == "choice":
            for lab, opt in zip(self.labels, self.options):
                n = norm(opt)
                if n:
                    self.option_map.append((n, lab))
        # escape options by kind ("none", "unsuitable", "premise", "unknown"): the labels whose text is one
        self.escapes: dict[str, list[str]] = {}
        for opt, lab in self.option_map:
            esc = lexicon.escape_kind_of_option(opt)
            if esc is not None:
                self.escapes.setdefault(esc, []).append(lab)
        self.escape_labels = frozenset(lab for labs in self.escapes.values() for lab in labs)
        # how far after a declaration keyword the answer can reach (bounds the work on long replies; an option
        # text longer than ~2,000 characters is not read after a declaration, only by rule 4)
        self.span = 200 + min(2000, max((len(o) for o in self.options), default=0)
                              + max((len(x) for x in self.labels), default=0))
        # words/phrases that name a label (yes/no and label items)
        self.words: list[tuple[str, str]] = []
        # yes/no items: informal and foreign spellings of the two words (never of anything else)
        self.aliases: dict[str, str] = {}
        self.initials: dict[str, str] = {}  # label items: a label's initial read as the whole reply ("F.")
        self.openers: list[tuple[str, str]] = []  # words read only as the reply's first word
        if kind in ("yesno", "label"):
            for lab in self.labels:
                n = norm(lab)
                if n:
                    self.words.append((n, lab))
            by_norm = {norm(lab): lab for lab in self.labels}
            if kind == "yesno" and set(by_norm) == {"yes", "no"}:
                for word, meaning in _YESNO_SLANG.items():
                    self.words.append((word, by_norm[meaning]))
                self.aliases = {w: by_norm[m]
                                for w, m in {**_YESNO_SLANG, **_YESNO_OPENING, **_YESNO_LETTERS}.items()}
                self.openers = [(w, by_norm[m]) for w, m in {**_YESNO_OPENING, **_YESNO_LETTERS}.items()]
            elif kind == "label" and {"female", "male"} <= set(by_norm):
                # batch 68: "F." is female, "M." male, as a clinician writes the sex, but only as the whole reply
                self.initials = {"f": by_norm["female"], "m": by_norm["male"]}

    @functools.cached_property
    def own_words(self) -> frozenset[str]:
        """The words of the question, the labels and the options, case-folded: words a reply may borrow from them
        in any language (read by the checks for words the glosses do not know)."""
        return frozenset(w.casefold() for w in lexicon.TOKEN.findall(" ".join((self.question, *self.labels,
                                                                                 *self.options))))

    @functools.cached_property
    def _option_words(self) -> dict[str, frozenset[str]]:
        words: dict[str, set[str]] = {}
        for opt, lab in self.option_map:
            words.setdefault(lab, set()).update(norm(opt).split())
        return {lab: frozenset(w) for lab, w in words.items()}

    def option_words(self, label: str) -> frozenset[str]:
        """The words of ``label``'s option text (normalised): what a reply may restate after its letter ("A, the left
        kidney") without saying anything more of it."""
        return self._option_words.get(label, frozenset())

    @functools.cached_property
    def _option_texts(self) -> dict[str, str]:
        return dict(zip(self.labels, self.options))

    def option_text(self, label: str | None) -> str:
        """The text of option ``label`` as the item gives it ("" for none, or an item without option texts)."""
        return self._option_texts.get(label or "", "")

    def letter(self, ch: str) -> str | None:
        return self.letters.get(ch.upper())

    def exact(self, text: str) -> str | None:
        """The label a reply *is* (case-insensitive, ignoring outer punctuation), if exactly one."""
        n = norm(text)
        if not n:
            return None
        if n in self.aliases:
            return self.aliases[n]
        if n in self.initials:
            return self.initials[n]
        hits = {lab for lab in self.labels if norm(lab) == n}
        if self.kind == "choice":
            m = re.fullmatch(r"[(\[]?([a-z])[)\]]?", n)
            if m and self.letter(m.group(1)):
                hits.add(self.letter(m.group(1)))  # type: ignore[arg-type]
        return hits.pop() if len(hits) == 1 else None


@functools.lru_cache(maxsize=4096)
def get_item(kind: str, labels: tuple[str, ...], options: tuple[str, ...], question: str) -> Item:
    """The item, built once per distinct item: re-scoring a run reads the same item for every model and sample."""
    return Item(kind, labels, options, question)


@functools.lru_cache(maxsize=1024)
def canonical_item(kind: str, labels: tuple[str, ...], options: tuple[str, ...], question: str) -> Item:
    """The item with its option and label texts in canonical form (:func:`probe_ui.reading.synonyms.canonical`:
    "Herpes zoster" and "Shingles" both "herpes zoster"), for the synonym pass; the labels it returns are the
    item's own."""
    narrow = synonyms.narrow_terms((*options, *labels))
    item = Item(kind, labels, tuple(synonyms.canonical(o, narrow) for o in options), question)
    item.words = [(norm(synonyms.canonical(w, narrow)), lab) for w, lab in item.words]
    item.narrow = narrow
    return item


def read_alone(text: str, item: Item) -> Answer:
    """``text`` read by the whole reader as a reply of its own to ``item`` (an opening, a closing, a clause, an entry,
    the words after a verb): the one way the sureness checks and the denials ask what a part of a reply says."""
    from probe_ui.reading.answers import extract  # the reader itself (it imports this module)

    return extract(text, item.kind, item.labels, item.options, question=item.question)
