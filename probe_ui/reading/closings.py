"""A closing answer against the reply's own body: "... classic for cardiogenic pulmonary edema. Answer: A" when A is
pneumonia.

Why a module: a declaration or a short closing verdict decides before what the reply mentions on the way, which is
right when the body argues for it or only weighs; but when the body concludes another option ("the features of
melanoma", "all point to acute cholecystitis"), or rejects the one the closing names ("the left femoral head is
normal. Answer: A" when A is the left hip), the reply contradicts itself and names no single answer. A careful
reader then records nothing: the reading is "ambiguous".

The body is what precedes the closing answer. It argues against that answer when:

- choice items: it rejects the closing option by its text or concepts and never names it, or a concluding phrase
  of it ("classic for", "consistent with", "the features of", "the pattern of", "points to", "in keeping with")
  names one other option, unhedged and not negated, and the body never names the closing one;
- yes/no items: it states the other answer (an answer word opening a clause, "No pneumothorax is seen." to "Is
  there a pneumothorax?", :func:`probe_ui.reading.words.stated_answers`).

A body that names the closing option, only weighs others ("Pneumonia would show focal consolidation"), or names
nothing (a description) leaves the closing answer as it is.
"""

from __future__ import annotations

import re

from probe_ui.reading import overlap, synonyms
from probe_ui.reading.cleaning import WORD, mask_spans
from probe_ui.reading.item import Item, canonical_item
from probe_ui.reading.options import option_mentions, options_in_words
from probe_ui.reading.weighing import JUDGEMENT
from probe_ui.reading.words import stated_answers

__all__ = ["against_body"]

# a phrase that concludes what the findings show: what follows it (to the end of its clause) is the body's verdict
_CONCLUDING = re.compile(
    r"(?i)\b(?:(?:classic(?:al)?|typical|characteristic|diagnostic|pathognomonic|suggestive|indicative|consistent|"
    r"compatible)(?:ally)?\s+(?:for|of|with)|(?:the\s+)?(?:features?|pattern|picture|appearance|hallmarks?)\s+of|"
    r"points?\s+(?:to|towards?)|pointing\s+(?:to|towards?)|in\s+keeping\s+with|favou?r(?:s|ing)?)\s+"
)
# what leaves the concluding phrase open or denies it: "would be classic for", "not typical of", "if ... consistent"
_OPEN = re.compile(r"(?i)\b(?:not|no|never|would|could|might|may|if|unless|whether|less|rather\s+than|instead\s+of|"
                   r"unlike|neither|nor|without|although|though|despite|even|while|whereas)\b|n't\b|\?")
_CLAUSE_END = re.compile(r"[.;:!?\n]")
_PHRASE_END = re.compile(r"[.;:!?\n,]|\s[-\u2014]\s")
# how far back from the closing answer the body is read
_REACH = 3000


def _canonical(text: str, item: Item) -> tuple[str, Item]:
    """The text and the item in canonical terms, judgements ("is not correct since ...") masked."""
    text = mask_spans(text, [m.span() for m in JUDGEMENT.finditer(text)])
    citem = canonical_item(item.kind, item.labels, item.options, item.question)
    return synonyms.canonical(text, citem.narrow), citem


def _named(text: str, item: Item) -> tuple[set[str], set[str]]:
    """(named, rejected): the options ``text`` names and rejects by their texts or concepts."""
    canon, citem = _canonical(text, item)
    said = option_mentions(canon, citem)
    words = options_in_words(canon, citem)
    named = set(words.named) | set(said[0] if said else ())
    rejected = set(words.rejected) | set(said[1] if said else ())
    return named - rejected, rejected - named


def _by_text(text: str, item: Item) -> set[str]:
    """The options ``text`` names by their own text, not negated."""
    canon, citem = _canonical(text, item)
    said = option_mentions(canon, citem)
    return set(said[0]) - set(said[1]) if said else set()


def _concluded(body: str, item: Item) -> set[str]:
    """The options the body's unhedged concluding phrases name ("... are classic for cardiogenic pulmonary edema")."""
    out: set[str] = set()
    for m in _CONCLUDING.finditer(body):
        near = max(0, m.start() - 300)  # the phrase's own clause, as far back as a clause reaches
        start = max((x.end() for x in _PHRASE_END.finditer(body, near, m.start())), default=near)
        stop = _CLAUSE_END.search(body, m.end())
        if _OPEN.search(body, start, m.end()):
            continue  # "would be classic for", "not typical of"
        named, _ = _named(body[m.end():stop.start() if stop else len(body)], item)
        out |= named
    return out


def against_body(body: str, item: Item, label: str) -> bool:
    """Whether the reply's body (what precedes its closing answer ``label``) argues against that answer (module
    doc)."""
    body = body[-_REACH:]  # the reasoning the closing answer follows (a degenerate 100 kB reply stays fast)
    if len(WORD.findall(body)) < 4:
        return False  # nothing to argue from ("Answer: A", "A. Pneumonia")
    if item.kind == "yesno":
        said = stated_answers(body, item)
        return bool(said) and label not in said
    if item.kind != "choice":
        return False
    if _CONCLUDING.search(body):
        concluded = _concluded(body, item)
        if len(concluded) == 1 and label not in concluded and label not in _by_text(body, item):
            return True  # "... the pattern of the arterial phase. Portal venous phase."
    # "The right femoral head is flattened ...; the left femoral head is normal. Answer: A" (A: the left hip); only
    # a body that uses a word of the closing option can reject it (the option reader is the costly part)
    low = body.casefold()
    words = [w.casefold() for o, lb in item.option_map if lb == label for w in overlap.content_words(o) if len(w) >= 3]
    if not any(w[:5] in low for w in words):
        return False
    named, rejected = _named(body, item)
    return label in rejected and bool(named - {label})
