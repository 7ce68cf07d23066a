"""Words that take a reading's ground away: the image "actually" shows another answer, the finding is put down to a
mimic, the measure the answer rests on is said to be impossible on this image, two answers are said to both fit, or
the option's word is only the name of a view ("lateral views" read as the "Lateral segment").

Why a module: each of these leaves the answer standing in words while the reply itself removes what it stood on. A
careful clinician reading "A. Present - ..., though it is most likely due to a nipple shadow." does not record a
nodule. The reader keeps its best guess and marks it unsure (:func:`probe_ui.reading.sureness.doubts`); these checks
only ever add a doubt, so they cannot turn a right reading into a wrong one.
"""

from __future__ import annotations

import re

from probe_ui.reading.cleaning import sentence_before
from probe_ui.reading.item import Item
from probe_ui.reading.presence import asked_stems, finding_stems
from probe_ui.reading.weighing import named_in

# what the image "actually" is or shows, to the end of the sentence ("male. What it actually shows, looking at the
# breast shadows, is a female patient.", a review of held-out batches 173-174)
_ACTUALLY_SHOWS = re.compile(r"(?i)\bactually\s+(?:shows?|showed|depicts?|is|are|was|were)\b[^.;!?\n]*")

# where the words after "actually shows" turn to what it does not show
# (or to what another answer would show: "The image actually shows breast shadows, which a male chest would not have.")
_SET_ASIDE = re.compile(r"(?i)\b(?:not|rather\s+than|instead\s+of|and\s+not|nor|which|that\s+would|would|unlike)\b")

# the structures and effects that imitate a finding on a film
_MIMIC = (r"(?:nipple\s+shadows?|skin\s+folds?|artefacts?|artifacts?|artefactual|artifactual|overlap(?:ping)?|"
          r"superimpos\w+|summation|positioning|projection(?:al)?|(?:patient\s+)?rotation|technique|technical\s+factors?|"
          r"motion|breathing|vessels?\s+(?:seen\s+)?end[\s\-]on|end[\s\-]on\s+vessels?|normal\s+variants?|"
          r"anatomic(?:al)?\s+variants?|mach\s+bands?|companion\s+shadows?|soft[\s\-]tissue\s+shadows?|"
          r"costal\s+cartilages?)")
# a finding put down to a mimic, in words that commit ("most likely"; "possibly" is a hedge already): "A. Present - a
# 9 mm density in the right upper zone, though it is most likely due to a nipple shadow." (a review of held-out
# batches 173-174)
_PUT_DOWN_TO_A_MIMIC = re.compile(r"(?i)\b(?:most\s+likely|probably|likely|almost\s+certainly|in\s+all\s+likelihood)"
                                  r"\s+(?:just\s+|only\s+|simply\s+|merely\s+)?(?:(?:due\s+to|from|caused\s+by|to\s+be|"
                                  r"represents?|reflects?|an?|the)\s+)?(?:(?!not\b|no\b|never\b)[\w\-]+\s+){0,3}?"
                                  + _MIMIC + r"\b")
# what the mimic is said of: the finding itself ("though it is most likely ...", "but this is ..."), not another thing
# the reply describes ("The lucency at the left apex is most likely a skin fold." after "C. Pleural effusion.", "A
# second, fainter density ... is most likely a nipple shadow": a review)
_OF_THE_ANSWER = re.compile(r"(?i)(?:\b(?:it|this|that|which|these|they)(?:'s|\s+(?:is|are|was|were|looks?|seems?|"
                            r"appears?)(?:\s+(?:all|just|only))?)?|\A[\W_]*)\s*\Z")
_ANOTHER_THING = re.compile(r"(?i)\b(?:second|other|another|additional|separate|also|incidental)\b")
# an answer that says nothing is there, which a mimic supports rather than undoes ("Absent", "No", "Normal")
_NOTHING_THERE = re.compile(r"(?i)\s*(?:absent|no|none|neither|normal|negative|not)\b")

# what the answer rests on said to be beyond this one image ("Its craniocaudal span cannot be measured on a single
# axial image, ...", after "No." to "Is the spleen enlarged?": a review of held-out batches 173-174)
_NOT_ON_ONE_IMAGE = re.compile(r"(?i)\b(?:cannot|can't|can\s+not|could\s+not|couldn't|not\s+possible\s+to|"
                               r"impossible\s+to)\s+(?:be\s+)?(?:(?:reliably|accurately|properly|fully|precisely|"
                               r"exactly)\s+)?"
                               r"(?:measured|determined|assessed|judged|evaluated|gauged|measure|determine|assess|"
                               r"judge|evaluate|gauge)\b[^.!?\n]{0,60}?\bon\s+(?:a|one|this|the)\s+single\b"
                               r"[^.!?\n]*")
# the sentence goes on to settle it anyway ("..., but at 17 cm it is clearly enlarged", a review)
_SETTLED_ANYWAY = re.compile(r"(?i)\b(?:but|though|although|however|yet)\b[^.!?\n]*\b(?:clearly|definitely|"
                             r"certainly|obviously|unequivocal(?:ly)?|still|plainly|obvious|definite)\b")
# how big something is, and a question about size
_A_SIZE = re.compile(r"(?i)\b(?:span|size|length|diameter|dimensions?|extent|width|height|thickness)\b")
# what else of a finding may be beyond one image, a side matter where the question asks whether it is there ("The
# size of the effusion cannot be measured ...", "The age of the fracture cannot be determined ...": a review)
_AN_ATTRIBUTE = re.compile(r"(?i)\b(?:age|chronicity|acuity|cause|aetiology|etiology|origin|type|nature|grade|stage|"
                           r"composition|timing|exact|precise|full)\b")
_ASKS_SIZE = re.compile(r"(?i)\b(?:enlarg\w*|size|sized|big|large|small|\w+megaly|dilated|widened)\b")


def shows_another(text: str, item: Item, label: str | None) -> bool:
    """Whether the reply says what the image "actually" shows and names another answer there, before any word that
    sets that answer aside ("What the image actually shows is a left pneumothorax, not a right one.")."""
    return label is not None and any(named_in(_SET_ASIDE.split(m.group(0), 1)[0], item) - {label}
                                     for m in _ACTUALLY_SHOWS.finditer(text))


def put_down_to_a_mimic(text: str, item: Item, label: str | None) -> bool:
    """Whether the reply puts the finding down to a mimic (a nipple shadow, an artefact) after an answer that says it
    is there."""
    if label is None or not _PUT_DOWN_TO_A_MIMIC.search(text):
        return False
    if (label == (item.aliases or {}).get("nope") if item.kind == "yesno"
            else _NOTHING_THERE.match(item.option_text(label) or label) or label in item.escape_labels):
        return False  # (an incorrect premise, "none of the above": what a mimic supports too)
    asked = asked_stems(item.question) if item.question else frozenset()
    for m in _PUT_DOWN_TO_A_MIMIC.finditer(text):
        before = sentence_before(text, m.start(), ".!?;\n")
        if _ANOTHER_THING.search(before):
            continue
        if _OF_THE_ANSWER.search(before) or asked & finding_stems(before) or label in named_in(before, item):
            return True
    return False


def measure_unavailable(text: str, item: Item) -> bool:
    """Whether the reply says that what the question turns on cannot be judged on this one image: what the sentence
    says cannot be judged names the asked finding, or a size where the question asks about size (not "Its age cannot
    be determined on a single radiograph." after a fracture found: the image's own name is no finding)."""
    if not item.question:
        return False
    asked = asked_stems(item.question)
    for m in _NOT_ON_ONE_IMAGE.finditer(text):
        if _SETTLED_ANYWAY.search(m.group(0)):
            continue
        judged = sentence_before(text, m.start())
        if _A_SIZE.search(judged):
            if _ASKS_SIZE.search(item.question):
                return True
        elif _AN_ATTRIBUTE.search(judged) is None and asked & finding_stems(judged):
            return True
    return False


# two answers said to fit this image alike ("Prostatic enlargement and a stone would both fit what I see.", held-out
# batch 178, blind): no choice made (not two findings that both fit one answer, "... both fit fluid", nor two options
# that fit a detail, "Both fit the age and the night pain", before the reply chooses)
_FITS = r"(?:fit|explain|match|be\s+(?:possible|consistent|likely|plausible))"
_THIS_IMAGE = (r"(?=\s*(?:[.;!?\n]|\Z|(?:what\s+(?:I|we)\s+(?:see|can\s+see)|the\s+(?:image|picture|findings|"
               r"appearance|film|scan|photo)|this\s+(?:image|picture|case|film|scan|appearance)|here)\b))")
_BOTH_FIT = re.compile(r"(?i)(?:\bboth\s+(?:would\s+|could\s+|might\s+|may\s+)?|\b(?:would|could|might|may)\s+both\s+|"
                       r"\beither\s+(?:one\s+)?(?:would|could|might|may)\s+)" + _FITS + r"\b" + _THIS_IMAGE)


def both_fit(text: str) -> bool:
    """Whether the reply says two answers both fit."""
    return _BOTH_FIT.search(text) is not None


# a projection's name ("the frontal and lateral views", "on the lateral film")
_VIEW_WORDS = ("lateral", "oblique", "frontal")
_AS_A_VIEW = r"(?:\s+and\s+[\w\-]+)?\s+(?:views?|films?|projections?|radiographs?|images?|x-?rays?|decubitus)\b"


def named_as_a_view(text: str, item: Item, label: str | None) -> bool:
    """Choice items: whether the read option's text holds a projection's name ("Lateral segment") and the reply
    uses that word only for a view ("On the frontal and lateral views together, the consolidation", held-out batch
    178, blind)."""
    if item.kind != "choice" or label is None:
        return False
    option = item.option_text(label).casefold()
    for word in _VIEW_WORDS:
        if not re.search(rf"\b{word}\b", option) or re.search(_AS_A_VIEW, option):
            continue
        said = list(re.finditer(rf"(?i)\b{word}\b", text))
        if said and all(re.match(_AS_A_VIEW, text[m.end():], re.IGNORECASE)
                        or re.search(r"(?i)\b(?:frontal|oblique|lateral|AP|PA)\s+and\s+\Z", text[:m.start()])
                        for m in said):
            return True
    return False
