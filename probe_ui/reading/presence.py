"""Rule 5: yes/no questions about the presence of a finding, answered without yes or no ("Not present.",
"None seen.", "There is a lesion ...").

Why a module: ProbMed and its kin ask "Is <finding> present in ...?", and models answer with the finding's
presence rather than a yes/no word; these rules read such replies, and only for questions that ask about presence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set as AbstractSet

from probe_ui.reading import lexicon, overlap, synonyms
from probe_ui.reading.cleaning import WORD, blank_matches
from probe_ui.reading.options import KEYWORD_STOP
from probe_ui.reading.subject import asked_predicate, asked_subject

# the finding denied where it is named: "without fracture", "no evidence of a fracture"
_FINDING_DENIED = re.compile(r"(?i)\b(?:without|no|nor|negative\s+for)\s+"
                             r"(?:(?:any|an?|the|evidence\s+of|signs?\s+of|acute|obvious|definite|visible|displaced)\s+)"
                             r"{0,3}([^\W\d_][\w\-]*)")
# A question that asks whether a finding is there: ProbMed's "Is <finding> present in ...?", "Does this ... show
# any abnormality?", "Is there a lesion ...?". Modality, organ and attribute questions ("Is this a CT scan?",
# "Is this image contrast-enhanced?") are not presence questions.
PRESENCE_QUESTION = re.compile(
    r"(?i)\b(?:present|presence|visible|seen|evident|evidence|identified|detected|noted|observed|appreciated|"
    r"demonstrated|abnormal(?:ity|ities)?|is\s+there|are\s+there|any\s+(?:signs?|findings?|lesions?|mass(?:es)?))\b"
)
_PRED = r"(?:present|seen|visible|identified|detected|evident|noted|observed|appreciated|demonstrated|visuali[sz]ed|" \
        r"apparent|see|show|demonstrate|depict|reveal)"  # (a review of batch 112: "doesn't demonstrate any fracture")
_ABSENT = re.compile(
    # (not "doesn't just demonstrate", more than that, nor "Doesn't it demonstrate ...?": a review of 6ce9d37)
    r"(?i)\b(?:not|never)\s+(?!(?:just|only|merely|simply)\b)(?:[\w\-]+\s+){0,2}?" + _PRED + r"\b"
    r"|n't\s+(?!(?:just|only|merely|simply|it|they|this|that)\b)(?:[\w\-]+\s+){0,2}?" + _PRED + r"\b"
    r"|\bnone\b|\bnothing\b|\babsen(?:t|ce)\b|\bunremarkable\b|\bwithout\s+(?:any\s+)?(?:evidence|signs?)\b"
    r"|\A\W*not\b(?!\s+only\b)"  # a reply opening with "Not": "Not in the left lung."
    # batch 117: "Nowhere to be seen — lung markings run all the way out to the pleura."
    r"|\bnowhere\s+(?:to\s+be\s+)?(?:seen|found|visible|identified)\b"
    # a space that holds no fluid: "The peritoneal cavity is dry."
    r"|\b(?:cavity|space|abdomen|pelvis|joint|recess|pouch)\s+(?:is|are|looks|appears|remains|seems)\s+"
    r"(?:completely\s+|entirely\s+)?dry\b"
)
# "on the right, not the left", "present, but not in the lung": the word denied, compared with the question's
_PRESENCE_CONTRAST = re.compile(r"(?i)\bnot\s+(?:(?:in|on|at|within|from|involving)\s+)?(?:the\s+)?([^\W\d_][\w\-]*)")
_QUESTION_STOP = KEYWORD_STOP | frozenset("given please yes does do any".split())
_PRESENT = re.compile(r"(?i)\b(?:present|seen|visible|identified|detected|evident|noted|observed|demonstrated)\b"
                      r"|\bthere\s+(?:is|are)\b(?!\s+(?:no|not|none|nothing)\b)|\bI\s+(?:can\s+)?see\b(?!\s+(?:no|none|nothing)\b)")
# what the image shows, where the finding asked follows in its sentence ("The radiograph demonstrates a fracture.", once
# read from "radiograph", the study asked of; not "The image ... only shows a narrow strip")
# (a review of 6ce9d37: not "shows that what looked like a fracture is a nutrient canal", nor in a question, "The study
# reveals a fracture? Not that I can see.")
_SHOWS = re.compile(r"(?i)\b(?:shows|demonstrates|reveals|depicts)\b(?!\s+(?:no|not|none|nothing|that|what|whether|if|"
                    r"how)\b)((?:\s+[\w\-]+){1,5})(?![^.;!\n]*\?)")
PRESENCE_UNSURE = re.compile(
    r"(?i)\b(?:whether|if|unclear|uncertain|unsure|sure|cannot|can't|unable|possibl[ey]|maybe|perhaps|may|might|"
    r"could|difficult)\b"
)
# batch 25: "Right lower lobe clear.": the place the question asks about, clear (not "clear evidence", "clear-cut";
# nor "The lungs are clear." to a question about the pleura)
_PLACE_CLEAR = re.compile(r"(?i)\b(lobes?|lungs?|zones?|bases?|apex|apices|lingula)\s+(?:is\s+|are\s+|remains?\s+|"
                          r"looks?\s+)?(?:completely\s+|entirely\s+)?clear\b(?![\s\-]+(?:cut|evidence|sign|of\b))")
CLAUSE_NEGATION = re.compile(r"(?i)\b(?:no|not|never|none|without|nothing|nowhere(?!\s+else))\b|n't\b")
# batch 26: the normal anatomy an image shows said to be visible ("The lungs and the heart are visible.") states no
# finding: what it says is there is the organs themselves, not what the question asks about
_ANATOMY = (r"(?:(?:both\s+|the\s+)?(?:lungs?|heart|ribs?|bones?|diaphragm|hemidiaphragms?|mediastinum|trachea|"
            r"spine|vertebrae|clavicles?|liver|spleen|kidneys?|bowel|brain|skull|ventricles|organs|structures|anatomy)"
            r"|(?:both|the)\s+hila)")
_ANATOMY_VISIBLE = re.compile(r"(?i)\A[ \t]*" + _ANATOMY + r"(?:[ \t]*(?:,|and)[ \t]*" + _ANATOMY
                              + r")*[ \t]+(?:are|is)[ \t]+(?:(?:clearly|well|both|all)[ \t]+)?\Z")


# "Negative for pneumothorax" names what it is negative for
_NEGATIVE_FOR = re.compile(r"(?i)[ \t]+for[ \t]+(?:an?[ \t]+|the[ \t]+|any[ \t]+)?([^.;:!?\n]{1,80})")


# words that name no finding of their own: sides, the image, a report's headings
_NOT_THE_FINDING = frozenset({"left", "right", "side", "sided", "image", "show", "shows", "scan", "film", "bilateral",
                              "answer", "final", "impression", "conclusion", "opinion", "result", "finding", "findings",
                              "verdict", "assessment", "interpretation", "summary", "reading", "diagnosis"})


def finding_stems(text: str) -> set[str]:
    """The stems of what ``text`` names as a finding, abbreviations and synonyms folded ("PTX" is pneumothorax), sides,
    the image and a report's headings left out: what a result ("Negative for ...", "Positive for ...", "Confirmed:
    ...") and a question are about, compared by :func:`another_finding`."""
    return {overlap.stem(w) for w in overlap.content_words(synonyms.canonical(text))
            if w.casefold() not in _NOT_THE_FINDING} - _NOT_THE_FINDING


@functools.lru_cache(maxsize=4096)
def asked_stems(question: str) -> frozenset[str]:
    """The question's :func:`finding_stems`, computed once per question: several doubts of every reading compare a
    sentence of the reply with it."""
    return frozenset(finding_stems(question))


def another_finding(named: str, asked: AbstractSet[str]) -> bool:
    """Whether ``named`` names a finding that shares nothing with ``asked`` (the question's :func:`finding_stems`):
    "pneumothorax" to "Is there a pleural effusion?"; an organ's "-megaly" is that organ "enlarged" ("Positive for
    splenomegaly." to "Is the spleen enlarged?" shares it). The one home of this comparison, for the presence rule,
    a leading "Positive/Negative for" (:mod:`probe_ui.reading.words`) and the sureness doubt "another finding"."""
    said = finding_stems(named)
    return bool(said) and not said & asked and not ("enlarg" in asked and any(w.endswith("megali") for w in said))


def _of_another_finding(word: re.Match[str], asked: AbstractSet[str]) -> bool:
    """A "negative" that says what it is negative for, sharing no word with the question ("IMPRESSION: Negative for
    pneumothorax; small left pleural effusion." to "Is there a pleural effusion?", hostile review of batches 80-83):
    it denies another finding, not the one asked about."""
    f = _NEGATIVE_FOR.match(word.string, word.end()) if word.group(0).casefold() == "negative" else None
    return f is not None and another_finding(f.group(1), asked)


# a field that says how the finding asked changed, whose value denies a change ("Effusion change: none", "Interval
# change - nil", "Progression: not seen"; the colon may be gone, the reader's cleaning takes it away); not a finding
# called "changes" ("Degenerative changes: none", a hostile review)
# (the older near misses of the hostile reviews: "Change in effusion: none.", "Effusion, interval change: none", "Right
# effusion decrease: none", "Difference: none", "Change since prior: none.")
_CHANGE_DENIED = re.compile(r"(?im)(?:^|(?<=[.;!?])[ \t])[ \t*_#>\-\u2022]*"
                            r"(?P<label>(?:[^\W\d_][\w\-, ]{0,40}?[ \t])?)"
                            r"(?:change|progression|difference|decrease|increase|regression|improvement|worsening)"
                            r"(?:[ \t]+(?:in|of|since|from|to|compared[ \t]+(?:with|to))[ \t]+[\w\- ]{1,40}?)?"
                            r"[ \t*_]*(?:[:=][ \t*_]*|[ \t][\-\u2013\u2014]+[ \t]+)?"
                            r"(?:(?:none|nil|absent|negative|not[ \t]+(?:seen|present|identified|evident|significant|"
                            r"appreciable))\b|no(?=[ \t*_]*(?:[.;,!\n]|\Z)))")


# what has resolved, or is resolving, is there or not by how far ("Effusion: resolved.", "largely resolved, a small
# residual rim", "not yet fully resolved", "previously resolved ... has recurred"): not read (hostile reviews of a7eaf5c
# and its fix)
_RESOLVED = re.compile(r"(?i)\bresol(?:ved|ving|ution)\b")
# the words a change field's name may add to the finding, or have alone ("Interval change: none", "Right effusion
# decrease: none", "Effusion size change: none")
_STUDY_WIDE = frozenset("interval size overall significant left right bilateral".split())
# a finding said still to be there ("No, the effusion has not resolved.", "The effusion persists.", "still a moderate
# right effusion": the older near misses of the hostile reviews): a "no" beside it may deny its going, not it
_STILL_THERE = re.compile(r"(?i)\b(?:(?:not|n't)[ \t]+(?:yet[ \t]+)?(?:fully[ \t]+)?(?:resolved|cleared|gone)|"
                          r"persist(?:s|ing|ent|ed)?|remain(?:s|ing|ed)?|unchanged|still[ \t]+(?:there|present|seen|"
                          r"visible|evident|(?:an?[ \t]+|the[ \t]+)?(?:moderate|large|small|mild|significant|"
                          r"sizeable|big)))\b")


def still_there(text: str, question: str) -> bool:
    """Whether a clause of ``text`` says the finding asked is still there (:data:`_STILL_THERE`), the finding, or "it",
    named before the word in its clause ("the effusion has not resolved", "it persists") or just after it
    ("Persistent small left pneumothorax"); not another finding's ("No pneumothorax. Persistent right lower lobe
    consolidation.": the review of that rule), nor a condition ("If clinical suspicion remains high, ultrasound ...
    for a small pneumothorax": held-out batch 100)."""
    asked = _the_finding_asked(question)
    for m in _STILL_THERE.finditer(text):
        start = max([0, *(x.end() for x in re.finditer(r"[.;!?\n,]|\b(?:but|though|although)\b", text[:m.start()]))])
        before = text[start:m.start()]
        after = " ".join(WORD.findall(text[m.end():m.end() + 60])[:4])
        if re.search(r"(?i)\b(?:if|unless|when|whether|should|previously)\b", before) \
                or CLAUSE_NEGATION.search(re.split(r"[\u2013\u2014:]|\s-\s", before)[-1]):
            continue  # (nor a denial: "No effusion remains.", "the effusion does not persist": the second review)
        if m.group(0).casefold() in ("persisted", "remained"):
            continue  # (a past that may have ended: "The effusion persisted until Monday but has now resolved.")
        it_of_it = re.search(r"(?i)\bit(?:'s)?\b", before) and re.match(
            r"(?i)[ \t]*(?:[.;,:!?\n]|\Z|(?:at|about|around|a|an|the)?[ \t]*(?:\d|small|moderate|large|mild|same))",
            text[m.end():])
        if {overlap.stem(w) for w in WORD.findall(before)} & asked or it_of_it \
                or (m.group(0).casefold().startswith("persist") and {overlap.stem(w) for w in WORD.findall(after)}
                    & asked):
            return True
    return False


_SENTENCE_OR_END = re.compile(r"[.;!?\n]|\Z")
# where a clause ends
_CLAUSE_OR_END = re.compile(r"[.;,:!?\n]|\Z")


def _sentence_end(text: str, at: int) -> int:
    """Where the sentence that ``at`` stands in ends."""
    end = _SENTENCE_OR_END.search(text, at)
    return end.start() if end else len(text)


def _without_changes_denied(text: str, question: str) -> str:
    """``text`` without the fields that say the finding asked (or the study as a whole) has not changed, to the end of
    their sentence: they say nothing of whether it is there ("Effusion change: none" to "Is there an effusion?"); what
    the rest says still answers ("Moderate right pleural effusion. Interval change: none.", a hostile review)."""
    asked = _question_word_stems(question)
    out, at = [], 0
    for m in _CHANGE_DENIED.finditer(text):
        label = " ".join(w for w in WORD.findall(m.group("label").casefold()) if w not in _STUDY_WIDE)
        if label and not _names_asked(label, asked):
            continue
        out.append(text[at:m.start()])
        at = _sentence_end(text, m.end())
    return "".join(out) + text[at:]


# held-out batch 174: "nothing beyond it" after a line or an edge, the sign of a pneumothorax ("Indeed — a thin pleural
# line at the left apex with nothing beyond it."), says no by its "nothing" (not "Nothing beyond degenerative change",
# "nothing outside the expected": a review); only the rest of the reply can
_BEYOND_THE_LINE = (r"\s+(?:beyond|outside|past|peripheral\s+to|lateral\s+to)\s+(?:it|this|that|the\s+(?:pleural\s+)?"
                    r"(?:line|edge|margin))\b")
_NOTHING_BEYOND_IT = re.compile(r"(?i)\bnothing" + _BEYOND_THE_LINE +
                                # (a review: a size, "a rounded density ..., nothing beyond 8 mm")
                                r"|\bnothing\s+(?:beyond|over|above|more\s+than|larger\s+than|bigger\s+than)\s+"
                                r"(?:about\s+|around\s+)?\d")
# held-out batch 176 (blind): the markings denied after their noun, beyond the line ("sharp pleural edge at the left
# apex, lung markings absent beyond it"), the same sign, which "no lung markings beyond it" is read as already
# (words.described_absences): not a "no"; the rest of the reply answers, a yes only where it names the finding ("...
# markings lacking beyond it - a small pneumothorax"; not "...; the heart size is normal", a review)
_MARKINGS_ABSENT_BEYOND = re.compile(r"(?i)\bmarkings?\s+(?:are\s+)?(?:absent|missing|lacking|not\s+seen)"
                                     + _BEYOND_THE_LINE)


def presence_answer(text: str, question: str) -> str | None:
    """Rule 5: "yes"/"no" from a reply to a presence question that has neither word.

    "Not present.", "None seen.", "Absent", "Unremarkable", "Normal study", "Negative", "I do not see ..." are no;
    "Present.", "Visible.", "There is a lesion ...", "Abnormal: ..." (when the question asks about an
    abnormality) are yes. A reply with both, or that hedges ("possibly", "not sure", "cannot tell whether"), is
    not read. "normal"/"negative" count only when the question does not itself use the word. A "not" that denies
    a word of the question ("on the right, not the left" to "... in the left lung?") is no, whatever else the
    reply says; one that denies something else ("present, but not large") is ignored.
    """
    if PRESENCE_UNSURE.search(text) or _RESOLVED.search(text):
        return None
    if _NOTHING_BEYOND_IT.search(text):
        # (what the rest says can still deny it: "... with nothing beyond it, but on closer look vessels cross it")
        # (nor "normal" said of the rest of the chest: "... with nothing beyond it; the rest of the chest is normal",
        # a review of held-out batch 176's rules)
        rest = blank_matches(_NOTHING_BEYOND_IT, text)
        named = bool(finding_stems(rest) & _the_finding_asked(question))
        return "no" if named and presence_answer(rest, question) == "no" else None
    if _MARKINGS_ABSENT_BEYOND.search(text):
        rest = blank_matches(_MARKINGS_ABSENT_BEYOND, text)
        return presence_answer(rest, question) if finding_stems(rest) & _the_finding_asked(question) else None
    rest = _without_changes_denied(text, question)  # "Effusion change: none": nothing said of whether it is there
    if rest == text:
        return _presence_reading(text, question)
    if not finding_stems(rest) & asked_stems(question):
        return None  # (nor "Interval change: none. Atelectasis is present.", of another finding: a hostile review)
    # what the rest says must be what the whole says: "Interval change: none. Effusion gone." is not read yes from a
    # bare mention, nor "Moderate right pleural effusion. Interval change: none." no from the change's "none"
    # (hostile reviews)
    said = _presence_reading(rest, question)
    return said if said == _presence_reading(text, question) else None


def _presence_reading(text: str, question: str) -> str | None:
    """:func:`presence_answer` on a text with no change field set aside."""
    q = question.casefold()
    asked = set(WORD.findall(q)) - _QUESTION_STOP
    if any(m.group(1).casefold() in asked for m in _PRESENCE_CONTRAST.finditer(text)):
        return "no"
    absent = bool(_ABSENT.search(text)) or any(
        overlap.stem(m.group(1).casefold()) in {overlap.stem(w) for w in asked} for m in _PLACE_CLEAR.finditer(text))
    finding = asked_finding(question)
    if finding is not None and any(overlap.stem(m.group(1)) == overlap.stem(finding)
                                   for m in _FINDING_DENIED.finditer(text)):
        absent = True  # "There is an intact cortex without fracture." (had read yes from "There is", sure)
    for word in ("normal", "negative"):
        if not re.search(rf"\b{word}\b", q) and any(not _of_another_finding(m, asked_stems(question)) for m in
                                                      re.finditer(rf"(?i)\b{word}\b", text)):
            absent = True
    present = False
    pos = list(_PRESENT.finditer(text))
    if finding is not None:
        pos += [m for m in _SHOWS.finditer(text)
                if overlap.stem(finding) in {overlap.stem(w) for w in WORD.findall(m.group(1))}]
    if "abnormal" in q:
        pos += list(re.finditer(r"(?i)\babnormal(?:ity|ities)?\b", text))
    gone_since = False
    for m in pos:
        clause = text[:m.start()]
        clause = clause[max(clause.rfind(c) for c in ".;:!?\n,") + 1:]
        if _AT_ANOTHER_TIME.search(clause) and _GONE_NOW.match(text[m.end():_sentence_end(text, m.end())]):
            gone_since = True  # "The previously noted effusion is no longer present.": noted before, gone now (not
            continue  #         "... has increased", "... is no longer small", "... has not cleared": two reviews)
        if not CLAUSE_NEGATION.search(clause) and not (
                _ANATOMY_VISIBLE.match(clause) and not any(overlap.stem(w.casefold()) == overlap.stem(f)
                                                           for f in asked for w in WORD.findall(clause))):
            present = True
            break
    if gone_since and not present:
        return None  # (what was noted before and is gone now decides nothing by itself: "... Pneumothorax absent.")
    if absent != present:
        return "no" if absent else "yes"
    if not absent and not present:
        finding = asked_finding(question)
        if finding and len(WORD.findall(text)) <= 8 and "?" not in text and not CLAUSE_NEGATION.search(text) \
                and not re.search(r"(?i)\b(?:can|could|may|might|would|should)\b", text) \
                and not lexicon.generic_statement(text):
            stem = overlap.stem(finding)
            words = WORD.findall(text)
            at = next((i for i, w in enumerate(words) if overlap.stem(w) == stem), None)
            if at is not None and not _unknown_before(words[:at], q, text) \
                    and not _taken_away(_clause_after(text, stem)):
                return "yes"  # "Large-volume ascites." to "Is there ascites ...?" (not "Effusion gone.")
    return None


# what, before a word that says a finding is there, puts it at another time ("The previously noted effusion is no
# longer present.": the older near misses of the hostile reviews)
_AT_ANOTHER_TIME = re.compile(r"(?i)\b(?:previously|earlier|formerly|initially|originally|once)\s*\Z")
# what, after a finding noted before, says it is gone now: its verb, no denial, nothing of its size
_GONE_NOW = re.compile(r"(?i)(?:(?!\b(?:not|n't|still|larger|smaller|increased|grown|reaccumulated|recurred)\b)"
                       r"[^.;!?\n])*?\b(?:is|are|has|have)[ \t]+(?:now[ \t]+)?(?:no[ \t]+longer[ \t]+(?:present|seen|"
                       r"visible|evident|identified)|(?:been[ \t]+|fully[ \t]+|completely[ \t]+)?(?:resolved|cleared|"
                       r"gone|disappeared))\b(?![^.;!?\n]*\b(?:but|though|still|recurred|reaccumulated)\b)")
# what, after a finding a short reply names alone, says it is not there, or no longer ("Effusion gone.", "Effusion
# ruled out.", "Effusion is unlikely.", "Effusion has cleared.": the older near misses of the hostile reviews)
_TAKEN_AWAY = re.compile(r"(?i)\b(?:gone|cleared|ruled|excluded|unlikely|improbable|doubtful|questionable|"
                         r"absent|disappeared|drained|aspirated|removed|evacuated|negative|nil|none|longer|"
                         r"resolved|vanished|dismissed|denied)\b")


def _taken_away(clause: str) -> bool:
    """Whether a finding's clause says it is gone (:data:`_TAKEN_AWAY`), the word not itself denied ("not cleared")."""
    m = _TAKEN_AWAY.search(clause)
    return m is not None and not CLAUSE_NEGATION.search(clause[:m.start()])


def _clause_after(text: str, stem: str) -> str:
    """What follows the first word of ``text`` with ``stem`` to the end of its clause ("Effusion gone." gives
    "gone"; not "Small apical pneumothorax; effusion unlikely." to the pneumothorax)."""
    for m in WORD.finditer(text):
        if overlap.stem(m.group(0)) == stem:
            end = _CLAUSE_OR_END.search(text, m.end())
            return text[m.end():end.start() if end else len(text)]
    return ""


# batch 68: the English words that may stand before a finding a reply names alone ("Large-volume ascites.", "a
# moderate right effusion.", "+ve, small L effusion."): its size, degree, side or place. Any other word before it, in
# a reply that opens with no yes/no word, may be a word of another language that denies it (Kinaray-a "wara
# pneumothorax.", there is none): the finding named is then no yes
_DESCRIBES_FINDING = re.compile(
    r"(?i)(?:small|large|big|huge|massive|moderate|mild|minimal|minor|trace|tiny|marked|gross|extensive|significant|"
    r"obvious|definite|frank|free|simple|complex|loculated|tension|acute|chronic|new|early|bilateral|unilateral|"
    r"left|right|[lr]|apical|basal|basilar|bibasal|upper|lower|mid|middle|subpulmonic|lamellar|volume|sized?|ve|"
    r"pleural|pericardial|peritoneal|intra|extra)\Z")


def _unknown_before(words: list[str], question: str, text: str) -> bool:
    """Whether a word before the finding a short reply names is neither a word of the question, nor a function word,
    nor one of :data:`_DESCRIBES_FINDING`, in a reply that opens with no yes/no word of any language."""
    if lexicon.foreign_yes_no(text) is not None or re.match(r"(?i)\A\W*(?:yes|no)\b", text):
        return False
    asked = {overlap.stem(w) for w in WORD.findall(question)}
    return any(not (w.casefold() in overlap.STOP or overlap.stem(w.casefold()) in asked
                    or all(_DESCRIBES_FINDING.match(part) for part in w.split("-"))) for w in words)


# the finding a presence question asks about: "Is there <ascites> in ...?", "Is <a pneumothorax> present ...?"
_FINDING_QUESTION = re.compile(
    r"(?i)\b(?:is|are)\s+there\s+(?:an?\s+|any\s+)?(?P<a>[\w\- ]+?)(?=\s+(?:in|on|at|within|of|involving|seen|"
    r"present|visible|noted)\b|\s*[?(]|\s*$)"
    r"|\b(?:is|are)\s+(?:an?\s+|any\s+|the\s+)?(?P<b>[\w\- ]+?)\s+(?:present|seen|visible|evident|identified)\b"
)


def _the_finding_asked(question: str) -> AbstractSet[str]:
    """The stem of the finding a presence question asks about, or else the question's finding stems (not "chest" of
    "Is there a pneumothorax in this chest x-ray?" where the question names its finding)."""
    finding = asked_finding(question)
    return {overlap.stem(finding)} if finding else asked_stems(question)


def asked_finding(question: str) -> str | None:
    """The head word of the finding a presence question asks about ("ascites", "effusion"), or None."""
    m = _FINDING_QUESTION.search(question)
    if m is None:
        return None
    words = WORD.findall(m.group("a") or m.group("b") or "")
    words = [w for w in words if w.casefold() not in _QUESTION_STOP]
    return words[-1] if words else None


# batch 21: where a question asks a finding to be ("... in the right lower lobe?", "... in the left kidney?"): a side,
# a lobe or a level; and how a reply may place what it finds (any side, lobe, level or zone, or both sides)
_ASKED_PLACE = re.compile(r"(?i)\b(?:left|right|upper|lower|middle|lingula\w*)\b")
#: a side named (left or right): one home for the readers that compare sides
SIDE = re.compile(r"(?i)\b(?:left|right)\b")
_SAID_SIDE = re.compile(r"(?i)\b(?:left|right|bilateral\w*|both|either|(?-i:[RL][UML]L)|lingula\w*)\b")
_SAID_PLACE = re.compile(r"(?i)\b(?:left|right|upper|lower|middle|mid|lingula\w*|bilateral\w*|both|either|lobes?|"
                         r"lobar|zones?|apex|apices|apical|bases?|basal|bibasal|bibasilar|perihilar|hilar|"
                         r"(?-i:[RL][UML]L))\b")


def unplaced(text: str, question: str) -> bool:
    """Whether a reply states a finding without placing it where a presence question asks ("There is an area of
    airspace consolidation with air bronchograms." to "Is there consolidation in the right lower lobe?"): the question
    names a side, lobe or level and the reply names none. A finding somewhere is not a yes to it being there."""
    if SIDE.search(question) and not _SAID_SIDE.search(text):
        # batch 96: "there is a patchy white opacity in the lower lung zone next to the heart." to "... in the right
        # lower lobe?": a level named, but no side
        return True
    return bool(_ASKED_PLACE.search(question)) and not _SAID_PLACE.search(text)



# batch 36: a line that labels the asked finding, then a colon and its presence ("Cardiomegaly: not present.",
# "Pneumothorax: seen, on the left, with ... absent lung markings", "- Effusion: none"): the verdict after the colon
# answers, whatever the reason after it says
_LABELLED = re.compile(
    r"(?im)^[ \t]*(?:[-*\u2022][ \t]+)?(?P<label>[^\W\d_][\w\- ]{1,40}?)[ \t]*:[ \t]*"
    r"(?P<neg>(?:not|no)[ \t]+)?(?P<verdict>present|seen|visible|identified|detected|evident|noted|absent|none)"
    r"(?=[ \t]*(?:[.,;:!\n]|\Z))")
_NEGATIVE_VERDICT = frozenset({"absent", "none"})
# a field's line: its name, then ":", "=" or a dash between spaces (or nothing, where the reader's cleaning took the
# colon away), and a value that denies: "nil", "none", "absent", "negative", or "no" and more
# (the older near misses of the hostile reviews: a table's cells, "| Cardiomegaly | none |"; a bracket, "Displacement
# (none); angulation (none)."; a heading over its value, "**Displacement**\nnone"; a zero, "Displacement: 0 mm.")
_DENYING_FIELD = re.compile(r"(?im)^[ \t*_#>|]*(?:[-\u2022][ \t]+)?(?P<label>[^\W\d_][\w\- ]{1,40}?)[ \t*_]*"
                            r"(?:[:=|(]|[ \t][-\u2013\u2014]+(?=[ \t])|(?=[ \t])|"
                            r"\n(?=[ \t*_]*(?:nil|none|absent|negative)"
                            r"[ \t*_.!]*$))[ \t*_]*"
                            r"(?P<value>(?:(?:nil|none|absent|negative|no|not[ \t]+(?:seen|present|identified|"
                            r"evident|visible|appreciated))\b(?![ \t]+(?:doubt|question)\b)|"
                            r"(?:0|zero)(?:[ \t]*(?:mm|cm)\b|(?=[ \t]*[.!|)]|[ \t]*$)))[^\n]*)")
# what, after that "no", makes it no denial of the finding (a hostile review of 042a1db): a change or an amount ("no
# change", "no less than 5 mm", "no longer anatomic"), a normal relation lost ("no cortical contact", "no apposition",
# "no normal tapering")
_NOT_A_DENIAL = re.compile(
    r"(?i)(?:no|nil|none)[ \t]+(?:[\w\-]+[ \t]+)?(?:less[ \t]+than|more[ \t]+than|change|changes|improvement|"
    r"regression|worse|better|different|overlap|apposition|contact|alignment|normal|tapering|vs\.?|versus)\b|"
    # ("no longer anatomic", not "no longer present": a hostile review of 6c89057)
    r"no[ \t]+longer\b(?![ \t]+(?:present|seen|visible|evident|displaced|dilated|enlarged|there|identified)\b)")
# ... or what the reply lacks to judge it, with nothing after it that judges ("no lateral view to assess", "no
# reliable comment can be made", "no way to judge", "nil information available"; not "no lateral costophrenic
# blunting", nor "no lateral view provided, but the AP clearly shows a displaced fracture")
_CANNOT_JUDGE = re.compile(
    r"(?i)(?:no|nil|none)[ \t]+(?:[\w\-]+[ \t]+){0,3}?(?:view|views|film|films|comparison|phase|way|comment|"
    r"information|data|access)\b(?:(?!\bbut\b)[^;\n])*?\b(?:to[ \t]+(?:assess|judge|tell|say|comment|evaluate|"
    r"compare)|available|possible|can[ \t]+be[ \t]+made)\b(?:(?!\bbut\b)[^;\n])*\Z")
# a value that is a bare denial, to the end of its sentence ("nil", "None.", "absent"), not one that goes on ("none on
# the right; moderate on the left", "absent in 2019, now 16 cm", "no loculation": a hostile review of 6c89057)
_BARE_DENIAL = re.compile(r"(?i)(?:nil|none|absent|negative|(?:0|zero)(?:[ \t]*(?:mm|cm))?)[ \t*_]*(?:[.!][ \t*_]*)?"
                          r"(?:\Z|[.!][ \t]|\n|[|)])")
_VERBS = frozenset("is are was were be been it's looks look appears appear seems seem remains remain".split())
# the places a question may ask about ("Is the pleural effusion on the left side?")
_ASKED_PLACES = frozenset("left right upper lower middle apical basal".split())


# the words a field's name may add to the finding ("Cirrhotic morphology"; not "change": "Displacement change: none"
# says nothing changed, a hostile review of 6c89057)
_FIELD_NOUNS = frozenset("morphology features feature appearance appearances signs sign findings finding "
                         "pattern".split())


def _names_asked(label: str, asked: set[str]) -> bool:
    """Whether a field's name names the finding asked: each of its words is a word of the question (``asked``: its
    stems), or its parts are ("cardiomegaly": heart, enlarged)."""
    words = [w for w in WORD.findall(label.casefold()) if w not in _QUESTION_STOP and w not in _FIELD_NOUNS]
    return bool(words) and all(overlap.stem(w) in asked or set(overlap.term_parts(w) or ("",)) <= asked
                               for w in words)


def _question_word_stems(question: str) -> set[str]:
    return {overlap.stem(w) for w in WORD.findall(question.casefold())} - {overlap.stem(w) for w in _QUESTION_STOP}


def field_values(text: str, question: str) -> set[str]:
    """What the reply's field lines naming the finding asked say of it (:func:`_field_names_finding`): "denied" for a
    value that denies it ("Displacement - nil", "Cirrhotic morphology: none.", "Effusion: no fluid"), "not denied"
    for a "no" that opens something else ("Displacement: no change, still 5 mm.", "no less than 10 mm"), "cannot
    judge" for one that says what is lacking to judge ("Enlargement: no lateral view to assess."; a hostile review of
    042a1db); empty where no such field is."""
    found: set[str] = set()
    for m in _DENYING_FIELD.finditer(text):
        if _field_names_finding(m.group("label"), question, places=False):
            value = m.group("value")
            kind = "cannot judge" if _CANNOT_JUDGE.match(value) else "not denied" if _NOT_A_DENIAL.match(value) \
                else "denied" if _BARE_DENIAL.match(value) else None
            if kind is not None:
                found.add(kind)
            own = re.match(r"(?:[^.;!?\n]|(?<=\d)\.(?=\d))*", value)
            if kind in (None, "denied") and own is not None and _of_another_time(own.group(0)):
                # "Splenomegaly: none, previously; now 16 cm.", "Cardiomegaly: none, according to the referral
                # letter; I measure CTR 0.62." (the older near misses of the hostile reviews): the denial may be of
                # another study or another's report, said in the value's own sentence (not "Pneumothorax: none. Old
                # healed rib fractures.", the review of that rule)
                found.add("another time")
    return found


# another time, study or report than the image asked about, or another's word for it (not a time or study said to
# agree, "Splenomegaly: none, 11 cm, the same as the old scan", "like the baseline film", nor "now", "since", "new",
# "follow-up", "current" alone, which may be of this study: the second review of that rule)
_OF_ANOTHER_TIME = re.compile(r"(?i)\b(?:prior|previous(?:ly)?|earlier|before|old|outside|comparison|baseline|"
                              r"initial(?:ly)?|admission|ago|(?:19|20)\d\d|according[ \t]+to|per[ \t]+the|referral|"
                              r"unlike|report(?:ed)?[ \t]+(?:by|in|on|from)|now[ \t]+(?:[^\W\d_]+[ \t]+)?(?:mild|"
                              r"moderate|severe|marked|large|small|big|enlarged|dilated|displaced|present|seen|visible|"
                              r"positive|\d))\b|->|-->|\u2192")
_AGREEING = re.compile(r"(?i)\b(?:same[ \t]+as|like|as[ \t]+(?:on|in|with|at)|unchanged[ \t]+from|from|also[ \t]+on)"
                       r"[ \t]+(?:the[ \t]+|an?[ \t]+)?\Z")


def _of_another_time(value: str) -> bool:
    """Whether a field's value speaks of another time, study or report than the image asked about, not as one it
    agrees with (:data:`_OF_ANOTHER_TIME`, :data:`_AGREEING`)."""
    return any(not _AGREEING.search(value[max(0, m.start() - 30):m.start()]) for m in _OF_ANOTHER_TIME.finditer(value))


# what says the organ or finding asked could not be seen whole ("Cardiomegaly: not seen. The heart borders are
# obscured by bilateral effusions.", "Cardiomegaly: none, but the heart is not fully visible on this film."; the older
# near misses of the hostile reviews)
_UNSEEN = re.compile(r"(?i)\b(?:obscured|hidden|cut[ \t]+off|not[ \t]+(?:well|fully|entirely|completely)[ \t]+"
                     r"(?:seen|visible|shown|depicted)|not[ \t]+(?:assessable|evaluable|included|imaged)|"
                     r"out[ \t]+of[ \t]+"
                     r"(?:the[ \t]+)?(?:field|view|frame))\b")


def asked_unseen(text: str, question: str) -> bool:
    """Whether a clause of ``text`` says the organ or finding asked about could not be seen whole: its denial may be
    for want of a view of it (not "Cardiomegaly not seen; the left costophrenic angle is obscured by a small
    effusion.", another part unseen)."""
    subject = asked_subject(question)
    asked = {overlap.stem(w) for w in (subject,) if w} | asked_stems(question)
    asked |= {p for w in WORD.findall(synonyms.canonical(question)) for p in overlap.term_parts(w.casefold())}
    for m in _UNSEEN.finditer(text):
        start = max([0, *(x.end() for x in re.finditer(r"[.;!?\n,]|\bbut\b", text[:m.start()]))])
        clause = text[start:m.start()]
        if CLAUSE_NEGATION.search(clause):
            continue  # "pleural surfaces not obscured", "a pneumothorax would not be hidden here"
        if {overlap.stem(w) for w in WORD.findall(clause.casefold())} & asked:
            return True
    return False


def _field_names_finding(label: str, question: str, *, places: bool = True) -> bool:
    """Whether a field's name names the finding asked: its words are the question's (or their parts are:
    "cardiomegaly" is heart, enlarged), it holds the adjective asked ("enlargement" to "Is the spleen enlarged?"; not
    "Spleen: visible, 11 cm"), and, where ``places``, the places asked ("left" to "Is the pleural effusion on the left
    side?"; a hostile review of f97bc9e; a denial needs none: "Pleural effusion: none." denies it on either side)."""
    label = label.casefold()
    words = set(WORD.findall(label))
    if words & _VERBS:
        return False  # a sentence, not a field's name ("The fracture is displaced - absent cortical contact.")
    predicate = asked_predicate(question)
    return _names_asked(label, _question_word_stems(question)) and (not places or {
        w for w in WORD.findall(question.casefold()) if w in _ASKED_PLACES} <= words) and (predicate is None or any(
            overlap.stem(w)[:5] == overlap.stem(predicate)[:5] or overlap.stem(predicate) in overlap.term_parts(w)
            for w in words))


def labelled_presence(text: str, question: str) -> str | None:
    """"yes"/"no" from a reply whose line opens with the finding the question asks about, a colon and its presence
    word ("Cardiomegaly: not present." to "Is the heart enlarged?", "Pneumothorax: seen, ..." to "Is there a
    pneumothorax?"); None when no such line names the asked finding, or two such lines disagree. The label names the
    finding when each of its words is a word of the question, or its parts are ("cardiomegaly": heart, enlarged)."""
    said: set[str] = set()
    for m in _LABELLED.finditer(text):
        negative = bool(m.group("neg")) != (m.group("verdict").casefold() in _NEGATIVE_VERDICT)
        if not _field_names_finding(m.group("label"), question, places=not negative):
            continue
        said.add("no" if negative else "yes")
    return said.pop() if len(said) == 1 else None
