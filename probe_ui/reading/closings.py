"""A closing answer against the reply's own body: "... classic for cardiogenic pulmonary edema. Answer: A" when A is
pneumonia.

Why a module: a declaration or a short closing verdict decides before what the reply mentions on the way, which is
right when the body argues for it or only weighs; but when the body concludes another option ("the features of
melanoma", "all point to acute cholecystitis"), or rejects the one the closing names ("the left femoral head is
normal. Answer: A" when A is the left hip), the reply contradicts itself and names no single answer. A careful
reader then records nothing: the reading is "ambiguous".

The body is what precedes the closing answer. It argues against that answer when:

- choice items: it rejects the closing option by its text or concepts and never names it, or a concluding phrase
  of it ("classic for", "consistent with", "the features of", "the pattern of", "points to", "in keeping with",
  "classic <diagnosis>"; its object ends at a contrast: "consistent with pneumonia, as opposed to ...") or a list of
  findings summed up after a colon ("Oval, circumscribed, no posterior shadowing: BI-RADS 3 features.") names one
  other option, unhedged and not negated, and the body never names the closing one; findings are read as the signs
  of what they show (:data:`probe_ui.reading.synonyms.SIGNS`: "the hepatic veins are densely opacified" is the
  portal venous phase); an option that says the study is normal is closed after a body that names a finding option
  ("The cardiothoracic ratio is 0.65 ... Answer: D. Normal study"); a count is closed after a body that totals
  another option's count ("one in each quadrant" is four);
- label items asked which lies nearest or deepest: the body places the closing label only on the other side and
  another label on the side asked ("The green dot lies right in front of the lens, while red and blue are on the
  far peritoneum. Answer: red");
- yes/no items: it states the other answer (an answer word opening a clause, "No pneumothorax is seen." to "Is
  there a pneumothorax?", :func:`probe_ui.reading.words.stated_answers`), or the closing yes follows a body whose
  every clause reports something absent or normal, what the question asks among them ("The fragments remain in
  anatomic alignment with no angulation. Final answer: Yes." to "Is the fracture displaced?").

A body that names the closing option, only weighs others ("Pneumonia would show focal consolidation"), or names
nothing (a description) leaves the closing answer as it is.
"""

from __future__ import annotations

import re

from probe_ui.reading import lexicon, overlap, subject, synonyms
from probe_ui.reading.attribution import attributed_mentions
from probe_ui.reading.cleaning import WORD, mask_spans, pattern, spelled
from probe_ui.reading.item import Item, canonical_item
from probe_ui.reading.options import option_mentions, options_in_words, yes_no_options
from probe_ui.reading.presence import PRESENCE_QUESTION, presence_answer
from probe_ui.reading.weighing import JUDGEMENT
from probe_ui.reading.words import asked_terms, speaks_elsewhere, stated_answers

__all__ = ["NUMBER_WORDS", "against_body", "free_options", "spared_spans"]

# a phrase that concludes what the findings show: what follows it (to the end of its clause) is the body's verdict
_CONCLUDING = re.compile(
    r"(?i)\b(?:(?:classic(?:al)?|typical|characteristic|diagnostic|pathognomonic|suggestive|indicative|consistent|"
    r"compatible)(?:ally)?\s+(?:for|of|with)|(?:the\s+)?(?:features?|pattern|picture|appearance|hallmarks?)\s+of|"
    r"points?\s+(?:to|towards?)|pointing\s+(?:to|towards?)|in\s+keeping\s+with|favou?r(?:s|ing)?|"
    # hostile review of 3aa43ea: "..., exactly what an abscess shows"
    r"(?:exactly|precisely)\s+what(?=\s+(?:an?|the)\s)|"
    r"(?:classic(?:al)?|typical|textbook)(?=\s+[^\W\d_])(?!\s+(?:for|of|with|features?|appearances?|pattern|"
    r"picture|findings?|signs?|case)\b))\s+"
)
# what leaves the concluding phrase open or denies it: "would be classic for", "not typical of", "if ... consistent"
_OPEN = re.compile(r"(?i)\b(?:not|no|never|would|could|might|may|if|unless|whether|less|rather\s+than|instead\s+of|"
                   r"unlike|neither|nor|without|although|though|despite|even|while|whereas"
                   # batch 83: "Venous sinus thrombosis can mimic it, but nothing in the question points to a clot."
                   r"|nothing|none)\b|n't\b|\?")
_PHRASE_END = re.compile(r"[.;:!?\n,]|\s[-\u2014]\s")
# where the concluded object ends: its clause, or a contrast ("consistent with pneumonia, as opposed to the physician's
# effusion", "typical of a cyst rather than a tumour")
_OBJECT_END = re.compile(r"[.;:!?\n]|\s[-\u2014]\s|,\s*(?:as\s+opposed|rather|instead|not|unlike|but|versus)\b|"
                         r"\b(?:as\s+opposed\s+to|rather\s+than|instead\s+of|versus|vs\.?|unlike)\b"
                         # batch 85: "more typical of C. Ductal adenocarcinoma than of a pseudocyst"
                         r"|\bthan\b"
                         # batch 65: "The pattern of sparing the cortex is inconsistent with cytotoxic edema ...": the
                         # pattern's object ends where the clause judges it against another answer
                         r"|\b(?:is|are|was|were)\s+(?:inconsistent|incompatible|not)\b")
# an option that says the study is normal: a body that names a finding option argues against it
_NORMAL_OPTION = re.compile(r"(?i)\A\W*(?:normal|unremarkable|no\s+(?:abnormality|abnormalities|"
                            r"(?:acute\s+)?findings?))(?:\s+(?:study|examination|exam|film|scan|radiograph|image|"
                            r"findings?))?\W*\Z")
# batch 82: a list that goes through the finding options one by one, each line's label an option and its rest a denial
# ("Reasoning:\n- Cardiomegaly: CTR 0.46 — no.\n- Pneumothorax: no pleural line.\n- Pleural effusion: costophrenic
# angles sharp.\n...\nFinal answer: D. Normal study"): options checked and set aside, not named for the answer
_CHECKED_LINE = re.compile(r"(?m)^[ \t]*(?:[-*\u2022][ \t]*|\d{1,2}[.)][ \t]*)?([^:\n]{1,40}):([^\n]{0,200})$")
_DENIED_IN_LINE = re.compile(r"(?i)\b(?:no|not|none|absent|negative|normal|sharp|clear|unremarkable|without)\b|n't\b")
# batch 35: a stage or form the findings have passed ("goes beyond the non-proliferative stage", "has progressed past
# the early phase")
_SURPASSED = re.compile(r"(?i)\b(?:goes|go|gone|going|went|is|are|has\s+(?:progressed|moved|advanced)|progressed|moved|"
                        r"advanced)[ \t]+(?:well[ \t]+|clearly[ \t]+)?(?:beyond|past)[ \t]+(?:the[ \t]+|an?[ \t]+)?"
                        r"[\w\-]+(?:[ \t]+[\w\-]+)?[ \t]+(?:stage|phase|grade|form)s?\b")
# batch 67: "dot-blot haemorrhages and hard exudates ..., which on their own would put this at non-proliferative. But
# ... new vessels": what some findings alone would make it, before the finding that changes it, is not what the body
# argues for (to the clause's end)
_ON_THEIR_OWN = re.compile(r"(?i)\b(?:on[ \t]+(?:their|its)[ \t]+own|by[ \t]+(?:themselves|itself)|alone)[ \t]*,?[ \t]+"
                           r"would[ \t]+(?:put|place|make|suggest|point[ \t]+to|favou?r|mean|call)\b[^.;:\n]{0,80}")
# batches 45-46: "a solitary spiculated mass favours a primary tumour over metastasis", "... favour a bone-forming
# primary tumour over Ewing sarcoma, which is more often diaphyseal": what the body favours another over (the span
# from "over" to the clause's end) is not what it argues for
_FAVOURED_OVER = re.compile(r"(?i)over[ \t]+[^.;:,\n]{1,60}")
_FAVOUR = re.compile(r"(?i)\bfavou?r(?:s|ed|ing)?[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:[\w\-]+[ \t]+){1,4}(?=over[ \t])")
# a body that only weighs ("would", "could", "if") names no finding for certain
_WEIGHED = re.compile(r"(?i)\b(?:would|could|might|may|if|unless|whether|possibl[ey]|probabl[ey]|perhaps|maybe|"
                      r"likely|unlikely|at\s+first|initially|thought)\b")
# how far back from the closing answer the body is read
_REACH = 3000
# a sentence about an option in general, or about what the image would show were it another (against_body)
# (a clause: "By definition a simple cyst has no internal echoes; this lesion has layering debris ..." keeps its second
# half; not one that finds it here: "If this were a hemangioma, I'd expect ..., and that is exactly what it shows")
_FOUND_HERE = re.compile(r"(?i)\b(?:exactly|precisely|just)\s+what\b|\bthat(?:'s|\s+is)\s+what\b"
                         r"|\bas\s+(?:seen\s+)?here\b")
_IN_GENERAL = re.compile(r"(?i)[^.!?;\n]*(?:\bby\s+definition\b"
                         r"|\bdefining\s+(?:feature|characteristic|sign)s?\s+of\b[^.!?\n]{1,80}?\s(?:is|are)\b"
                         r"|\bif\s+(?:this|it)\s+(?:were|was)\b|" + lexicon.GENERIC.pattern[4:] + r")[^.!?;\n]*")


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
        stop = _OBJECT_END.search(body, m.end())
        if _OPEN.search(body, start, m.end()):
            continue  # "would be classic for", "not typical of"
        named, _ = _named(body[m.end():stop.start() if stop else len(body)], item)
        out |= named
    return out


def _summed_up(body: str, item: Item) -> set[str]:
    """The options named where a sentence of the body sums a list of findings up after a colon ("Oval, circumscribed,
    no posterior shadowing: BI-RADS 3 features."), the verdict short, unhedged and not negated."""
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", body):
        findings, colon, verdict = sentence.rpartition(":")
        if not colon or "," not in findings or len(WORD.findall(findings)) < 4:
            continue
        verdict = verdict.strip().rstrip(".! \t")
        if 0 < len(WORD.findall(verdict)) <= 8 and not re.search(r"[.;!?]", verdict) and not _OPEN.search(verdict):
            out |= _named(verdict, item)[0]
    return out


# depth: where a label is said to lie, near the camera or the surface, or far from it ("right in front of the lens",
# "on the far peritoneum"), and which of the two the question asks for
_NEAR = re.compile(r"(?i)\b(?:near(?:er|est)?|clos(?:e|er|est)\s+to|in\s+front\s+of|foreground|superficial|"
                   r"shallow(?:er|est)?|at\s+the\s+surface)\b")
_FAR = re.compile(r"(?i)\b(?:far(?:ther|thest)?|further|furthest|distant|distal|background|behind|deep(?:er|est)?|"
                  r"beyond|back\s+wall)\b")
_ASKS_NEAR = re.compile(r"(?i)\b(?:clos(?:er|est)|near(?:er|est)|shallow(?:er|est))\b")
_ASKS_FAR = re.compile(r"(?i)\b(?:deep(?:er|est)|far(?:ther|thest)|furthest|greatest\s+depth)\b")
_SEGMENT = re.compile(r"(?i)[.;!?\n]|\b(?:while|whereas|but|although|though)\b")


def _placed_elsewhere(body: str, item: Item, label: str) -> bool:
    """Label items asked which lies nearest or deepest: the body places the declared label only on the other side and
    another label on the side asked ("The green dot lies right in front of the lens, while red and blue are on the
    far peritoneum. Answer: red" to "Which dot is closest to the camera?")."""
    q = item.question
    asked = _NEAR if _ASKS_NEAR.search(q) else _FAR if _ASKS_FAR.search(q) else None
    if asked is None:
        return False
    other = _FAR if asked is _NEAR else _NEAR
    labels = list(dict.fromkeys(item.labels))
    alt = re.compile(r"(?i)\b(" + "|".join(re.escape(x) for x in labels) + r")\b")
    sides: dict[str, set[bool]] = {}
    for segment in _SEGMENT.split(body):
        named = {m.group(1).casefold() for m in alt.finditer(segment)}
        on_asked, on_other = bool(asked.search(segment)), bool(other.search(segment))
        if named and on_asked != on_other:
            for x in named:
                sides.setdefault(x, set()).add(on_asked)
    mine = sides.get(label.casefold(), set())
    return mine == {False} and any(v == {True} for k, v in sides.items() if k != label.casefold())


# what a clause of findings says when it reports something absent or normal ("no focal lesion", "with no angulation",
# "smooth contour", "in anatomic alignment")
_NEGATIVE_FINDING = re.compile(r"(?i)\b(?:no|not|without|absent|normal|intact|unremarkable|preserved|aligned|alignment|"
                               r"clear|smooth|sharp|uniform|homogeneous(?:ly)?|symmetric(?:al)?|"
                               # batch 10: "lung fully expanded"
                               r"(?:fully|well|normally)\s+(?:expanded|inflated|aerated))\b|n't\b")
_FINDING_CLAUSE = re.compile(r"(?i)[.;:,!?\n]|\b(?:with|and|but|while|whereas|which|although|though)\b")
# words whose denial denies any finding ("no focal lesion" denies a mass)
_ANY_FINDING = frozenset("lesion lesions abnormality abnormalities finding findings pathology".split())


# batch 11: a "no" denies each item of the list it opens ("No intracranial haemorrhage, mass or midline shift.")
# (each item at most 200 characters: "Yes, " + "no pneumothorax " * 6000 took 9 s when an unbounded item ran from each
# "no" to the end of the reply and back, looking for "or")
_DENIED_LIST = re.compile(r"(?i)\b(?:no|without)\s+[^.;:!?\n,]{1,200}(?:,\s*[^.;:!?\n,]{1,200}){0,6}?"
                          r"(?:,?\s+(?:or|nor)\s+)[^.;:!?\n,]+")


# a section's heading ("**Findings:**"), which reports nothing (batch 13)
_HEADING = re.compile(r"(?im)^[ \t#*_>]*(?:findings?|observations?|impression|interpretation|assessment|report)"
                      r"[ \t*_]*:[ \t*_]*")


def negative_clauses(body: str) -> list[bool]:
    """For each clause of the body (that has a word), whether it reports something absent or normal."""
    body = _DENIED_LIST.sub(lambda m: m.group(0).replace(",", " "), _HEADING.sub("", body))
    return [bool(_NEGATIVE_FINDING.search(c)) for c in _FINDING_CLAUSE.split(body) if re.search(r"[^\W\d_]{3}", c)]


def only_absent_or_normal(body: str) -> bool:
    """Whether every clause of the body reports something absent or normal ("The left kidney has a smooth contour
    with uniform enhancement and no focal lesion.")."""
    clauses = negative_clauses(body)
    return bool(clauses) and all(clauses)


_ASKS_ABNORMALITY = re.compile(r"(?i)\b(?:any|an)\s+abnormalit(?:y|ies)\b"
                               r"|\bis\s+(?:this|the)\s+[\w \-]{0,30}?\babnormal\b")


def yes_against_normal(text: str, item: Item) -> bool:
    """Yes/no items asked whether a finding is present: a reply that opens with "Yes" and goes on, in the same sentence,
    with two or more clauses that each report something absent or normal, and nothing else ("Yes, lung fully expanded,
    no pleural line." to "Is there a pneumothorax?"): the answer word against its own findings (batch 10). Batch 11:
    likewise to a question whether an organ is abnormal in some way ("yes, liver outline smooth and echotexture
    normal" to "Is the liver cirrhotic?"; not to a question about normal itself), and a "Yes." to "... any
    abnormality?" followed by a reply that reports only absent or normal findings ("Yes. No intracranial haemorrhage,
    mass or midline shift.")."""
    if item.kind != "yesno" or not item.aliases or not item.question:
        return False
    q = item.question
    predicate = subject.asked_predicate(q)
    if not PRESENCE_QUESTION.search(q) and (predicate is None or re.search(r"(?i)\b(?:normal|intact|correct|"
                                                                          r"stable|aligned)\b", q)):
        return False
    if _ASKS_ABNORMALITY.search(q):
        whole = re.match(r"[\W_]*(?:yes|yep|yeah)\b[\W_]*(?=[^\W\d_])(.+)", text, re.IGNORECASE | re.DOTALL)
        if whole is not None and only_absent_or_normal(whole.group(1)) and not speaks_elsewhere(whole.group(1), q):
            return True  # "Yes. No intracranial haemorrhage, mass or midline shift."
    m = re.match(r"[\W_]*(?:yes|yep|yeah)\b[ \t]*[,:;\-\u2013\u2014]+[ \t]*([^.;!?\n]+)", text, re.IGNORECASE)
    return m is not None and _all_normal(m.group(1), q)


def _all_normal(findings: str, question: str) -> bool:
    """Whether ``findings`` are two or more clauses that each report something absent or normal, placed nowhere the
    question does not ask."""
    clauses = negative_clauses(findings)
    return len(clauses) >= 2 and all(clauses) and not speaks_elsewhere(findings, question)


def reasons_against_yes(reasons: str, item: Item, label: str) -> bool:
    """Yes/no items asked whether a finding is there, or an organ abnormal in some way: a declared yes whose stated
    reasons only report what is absent or normal ("Answer: yes\nReasoning: The liver surface is smooth, the
    caudate-to-right-lobe ratio is normal and there is no splenomegaly or ascites." to "Is the liver cirrhotic?",
    batch 80): its reasons argue against it, as in :func:`yes_against_normal`."""
    if item.kind != "yesno" or not item.aliases or not item.question or label != item.aliases["yep"]:
        return False
    q = item.question
    predicate = subject.asked_predicate(q)
    if not PRESENCE_QUESTION.search(q) and (predicate is None or re.search(r"(?i)\b(?:normal|intact|correct|"
                                                                          r"stable|aligned)\b", q)):
        return False
    return _all_normal(reasons, q)


# the signs of what a question's adjective asks (batch 11): a fracture's fragments "offset by a cortical width",
# "overriding", with a "step-off", "translated" are displaced
_PREDICATE_SIGNS: dict[str, re.Pattern[str]] = {
    "displaced": re.compile(r"(?i)\b(?:offset|overrid(?:e|es|ing)|overlapp(?:ing|ed)|step[\s\-]?off|translated|"
                            r"translation|distracted|distraction|bayonet\s+apposition)\b"),
}


def shows_predicate(body: str, question: str) -> bool:
    """Whether a clause of the body states, unhedged and denying nothing, the sign of what the question's adjective
    asks (:data:`_PREDICATE_SIGNS`: "The fragments are offset by a full cortical width" to "Is the fracture
    displaced?")."""
    pattern = _PREDICATE_SIGNS.get(subject.asked_predicate(question) or "")
    if pattern is None or _WEIGHED.search(body):
        return False
    # batch 90: an entry's heading names what it assesses, not what it finds ("- **Translation:** Cortices are aligned
    # on both views; no step-off.")
    body = _ENTRY_HEADING.sub(" ", body)
    return any(pattern.search(c) and not _OPEN.search(c) for c in re.split(r"[.;!?\n]", body))


_ENTRY_HEADING = re.compile(r"(?m)^[ \t*_\-\u2022]*[^\W\d_][\w \-/]{0,30}?[ \t*_]*:")


def _denies_the_question(body: str, item: Item) -> bool:
    """Yes/no items: a body of only absent or normal findings that denies what the question asks: its finding or
    adjective (:func:`probe_ui.reading.words.asked_terms`), the adjective's opposite ("anatomic alignment" to "Is
    the fracture displaced?"), or any finding at all ("no focal lesion" to "Is a mass present?")."""
    ends = [m.end() for m in re.finditer(r"[.!?;\n]", body.rstrip())]
    body = body[:ends[-1]] if ends else body  # the body's sentences, not the declaration's own "Final"
    if not only_absent_or_normal(body) or speaks_elsewhere(body, item.question):
        return False  # "No pneumothorax on the right. Answer: yes" to "... on the left?"
    if _ASKS_ABNORMALITY.search(item.question):
        return True  # batch 10: "The brain parenchyma is normal, ... no hemorrhage or mass. Answer: yes" to "... any
        # abnormality of the brain?": findings all normal deny any abnormality
    terms = set(asked_terms(item.question))
    predicate = subject.asked_predicate(item.question)
    opposites = {overlap.stem(w) for o in subject.ANTONYMS.get(predicate or "", ()) for w in WORD.findall(o)
                 if w.casefold() not in ("normal", "in", "size")}
    stems = {overlap.stem(w) for w in WORD.findall(body)}
    return bool(terms & stems or opposites & stems
                or (terms and any(w.casefold() in _ANY_FINDING for w in WORD.findall(body))))


#: the numbers zero to ten in words, each at its own index
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_N = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"
# a total the body states: "a total of three", "two in total", "four altogether", and one in each of the four
# quadrants of the jaws ("one in each quadrant", "in all four quadrants") is four
_TOTAL = re.compile(r"(?i)\b(?:(?:a\s+)?total\s+(?:of\s+)?" + _N + r"|" + _N
                    + r"\s+(?:\w+\s+){0,2}?(?:in\s+total|altogether|in\s+all)\b|all\s+" + _N + r"\b)")
_EACH_QUADRANT = re.compile(r"(?i)\b(?:one\s+(?:in|per)\s+(?:each|every)\s+(?:of\s+the\s+four\s+)?quadrants?|"
                            r"(?:in|from)\s+(?:all\s+four|each\s+of\s+the\s+four|every|each)\s+quadrants?)\b")


_HOW_LOOKED = re.compile(r"(?i)\b(?:count(?:ed|ing)?|look(?:ed|ing)|check(?:ed|ing)|search(?:ed|ing)|went|go(?:ing)?)\b"
                         r"[^.;:!?\n]*\Z")


def _counted_otherwise(body: str, item: Item, label: str) -> bool:
    """Options that are counts ("0", "2", "3", "4"): the body states a total that is another option's count and never
    the declared one ("I count one in each quadrant: upper left, ... lower right. Answer: (C) 3")."""
    counts = {lb: o.strip() for o, lb in item.option_map}
    if label not in counts or not all(c.isdigit() for c in counts.values()):
        return False
    # (not where the reply says how it looked: "I counted from the midline backward in each quadrant: ...", held-out
    # batch 167)
    totals = {4 for m in _EACH_QUADRANT.finditer(body) if m.group(0)[:3].casefold() == "one"
              or not _HOW_LOOKED.search(body[max(0, m.start() - 80):m.start()])}
    for m in _TOTAL.finditer(body):
        w = next(g for g in m.groups() if g).casefold()
        totals.add(int(w) if w.isdigit() else NUMBER_WORDS.index(w))
    values = {int(c) for c in counts.values()}
    return len(totals & values) == 1 and int(counts[label]) not in totals


_SIDE = re.compile(r"(?i)\b(left|right)\b")
# a clause that calls what it names normal, or only reports its absence: it places no finding
_CLEAR = re.compile(r"(?i)\b(?:normal|clear|unremarkable|intact|expanded|aerated|spared|preserved|free\s+of)\b")


_SPARED_STATE = re.compile(r"(?i)[ \t]+(?:(?:is|are|appears?|looks?|remains?|seems?)[ \t]+)?(?:(?:entirely|completely|"
                           r"otherwise|relatively)[ \t]+)?(?:normal|unremarkable|intact|spared|preserved)\b")
# "without hydronephrosis", "with no effusion": free of a finding (the question's own word, checked by the caller)
_FREE_OF = re.compile(r"(?i)[ \t]+(?:(?:is|are|appears?|remains?)[ \t]+)?(?:without|with[ \t]+no)[ \t]+(?:any[ \t]+|"
                      r"(?:evidence|signs?)[ \t]+of[ \t]+)?([^\W\d_]+)")
# an option's text with a word in it (two letters), not a bare letter or number
_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")


def spared_spans(text: str, item: Item, free_only: bool = False) -> list[tuple[int, int]]:
    """Batch 59: choice items, the spans of an option's text said to be normal ("Left hip preserved.", "The left hip is
    normal." after "IMPRESSION: Osteonecrosis of the right femoral head ..."): the reply reports that option spared,
    it does not name it as the answer. Not when the option, or the question, itself speaks of a normal state
    ("Normal study", "Which kidney is preserved?"). Batch 81: or said to be free of what the question asks ("Left
    kidney without hydronephrosis" to "Which kidney shows hydronephrosis?"); only those with ``free_only``."""
    return [span for span, _ in _spared(text, item, free_only)]


def free_options(text: str, item: Item) -> set[str]:
    """The options a reply says are free of what the question asks ("Left kidney without hydronephrosis; ..." to
    "Which kidney shows hydronephrosis?", batch 81)."""
    return {label for _, label in _spared(text, item, True)}


def _spared(text: str, item: Item, free_only: bool) -> list[tuple[tuple[int, int], str]]:
    if item.kind != "choice" or _CLEAR.search(item.question or ""):
        return []
    if free_only and "with" not in text:
        return []
    spans: list[tuple[tuple[int, int], str]] = []
    asked = {overlap.stem(w) for w in WORD.findall(item.question or "")}
    for option, label in item.option_map:
        if _CLEAR.search(option) or not _TWO_LETTERS.search(option):
            continue
        # batch 81: "The left kidney" is named "Left kidney"
        words = spelled(re.sub(r"(?i)\Athe\s+", "", option), r"[\s\-]+")
        for m in pattern(r"(?i)(?<![\w\-])(?:the[ \t]+)?" + words + r"(?![\w\-])").finditer(text):
            state = None if free_only else _SPARED_STATE.match(text, m.end())
            if state is None and "with" in text[m.end():m.end() + 12]:
                # batch 81: "Left kidney without hydronephrosis; the collecting-system dilation is on the other side."
                # to "Which kidney shows hydronephrosis?": the option said to be free of what the question asks
                free = _FREE_OF.match(text, m.end())
                state = free if free is not None and overlap.stem(free.group(1)) in asked else None
            if state is not None:
                spans.append((m.span(), label))
    return spans


def _stated_otherwise(body: str, item: Item, label: str) -> bool:
    """Choice items, a body that states findings, weighing and denying nothing (batch 11): two options that are
    present and absent, and the body says the finding is there ("... in Morison's pouch, which is free fluid. answer:
    B" when B is "No free fluid"); options that are sides, and the body places what it finds on one side, another
    option's ("The visceral pleural line and the absent lung markings are at the left apex. I agree with the
    physician. Answer: B" when B is "Right"; not "The right lung is clear.", nor a body that names both sides or an
    option's letter)."""
    body = mask_spans(body, attributed_mentions(body))  # "the physician's answer of B (right)" is not the body's
    if _WEIGHED.search(body) or _OPEN.search(body) or _CLEAR.search(body):
        return False
    pair = yes_no_options(item)
    denying = [lb for o, lb in item.option_map if re.match(r"(?i)\W*(?:no|not|absent|without|none)\b", o)]
    if pair is None and len(item.option_map) == 2 and len(denying) == 1:
        # "Free fluid is present" / "No free fluid": the finding and its denial
        pair = {"no": denying[0], "yes": next(lb for _, lb in item.option_map if lb != denying[0])}
    if pair is not None and item.question:
        said = presence_answer(body, item.question)
        return said is not None and pair[said] != label
    texts = dict(item.option_map)  # (option texts are case-folded and stripped already: cleaning.norm)
    sides = {m.group(1).casefold() for m in _SIDE.finditer(body)}
    if len(sides) != 1 or "left" not in texts or "right" not in texts or re.search(
            r"(?i)\b(?:both|bilateral\w*|either|neither)\b|(?i:\b(?:answer|option|choice)\s+)[(\[]?[A-Z]\b"
            r"|\([A-Z]\)|\b[A-Z][ \t]*\(", body):  # "Physician's answer B (Right) - incorrect.": an option named
        return False
    return texts[sides.pop()] != label


def against_body(body: str, item: Item, label: str) -> bool:
    """Whether the reply's body (what precedes its closing answer ``label``) argues against that answer (module
    doc)."""
    body = body[-_REACH:]  # the reasoning the closing answer follows (a degenerate 100 kB reply stays fast)
    if len(WORD.findall(body)) < 4:
        return False  # nothing to argue from ("Answer: A", "A. Pneumonia")
    if item.kind == "yesno":
        said = stated_answers(body, item)
        if said:
            return label not in said
        # the body answers by the question's subject ("This is a craniocaudal view of the breast ... Final answer:
        # no" to "Is this a mammogram?"); not for a presence question, whose subject is where to look
        if item.aliases and item.question and not PRESENCE_QUESTION.search(item.question) \
                and not _WEIGHED.search(body):
            by_subject = subject.answer_from_subject(body, item.question)
            if by_subject is not None and item.aliases["yep" if by_subject == "yes" else "nope"] != label:
                return True
        # a no after a body that states the sign of what the question's adjective asks ("The fragments are offset by a
        # full cortical width with overriding. Final answer: no." to "Is the fracture displaced?"), unhedged, in a
        # clause that denies nothing (batch 11)
        if item.aliases and label == item.aliases["nope"] and shows_predicate(body, item.question):
            return True
        # a yes after a body that only reports absent or normal findings, what the question asks among them ("The
        # fragments remain in anatomic alignment with no angulation. Final answer: Yes." to "Is it displaced?")
        return bool(item.aliases) and label == item.aliases["yep"] and _denies_the_question(body, item)
    if item.kind == "label":
        return _placed_elsewhere(body, item, label)
    if item.kind != "choice":
        return False
    # batch 16: "Physician's answer: metastasis.\nAssessment: disagree. ... Favour primary lung cancer (B).": someone
    # else's answer, quoted and not endorsed, is not what the body argues for
    body = mask_spans(body, attributed_mentions(body))
    # batch 35: "..., which goes beyond the non-proliferative stage. Hence the answer is B, proliferative ...": a stage
    # the findings have passed is not what the body argues for
    body = mask_spans(body, [m.span() for m in _SURPASSED.finditer(body)])
    body = mask_spans(body, [m.span() for m in _ON_THEIR_OWN.finditer(body)])
    # batch 98: what an option is in general ("The defining feature of proliferative diabetic retinopathy is
    # neovascularization", "Non-proliferative disease can show ..., but by definition it doesn't have ...") and what
    # the image would show were it another ("If this were non-communicating, I'd expect ...") argue for nothing here
    body = mask_spans(body, [m.span() for m in _IN_GENERAL.finditer(body) if not _FOUND_HERE.search(m.group(0))])
    body = mask_spans(body, [o.span() for m in _FAVOUR.finditer(body)
                             if (o := _FAVOURED_OVER.match(body, m.end())) is not None])
    signs = synonyms.canonical(body)  # findings read as the features of what they are the signs of (SIGNS)
    if _CONCLUDING.search(body) or ":" in body or signs != body:
        concluded = _concluded(body, item) | _concluded(signs, item) | _summed_up(body, item)
        if len(concluded) == 1 and label not in concluded and label not in _by_text(body, item):
            return True  # "... the pattern of the arterial phase. Portal venous phase."
    if _counted_otherwise(body, item, label):
        return True  # "I count one in each quadrant: ... Answer: (C) 3"
    if _NORMAL_OPTION.match({lb: o for o, lb in item.option_map}.get(label, "")) and not _WEIGHED.search(body):
        named, _ = _named(body, item)
        if named - {label} and ":" in body:
            named -= {lb for m in _CHECKED_LINE.finditer(body) if _DENIED_IN_LINE.search(m.group(2))
                      for lb in _named(m.group(1), item)[0]}
        if named - {label}:
            return True  # "The cardiothoracic ratio is 0.65 ... Answer: D. Normal study": a finding, then "normal"
    # "The right femoral head is flattened ...; the left femoral head is normal. Answer: A" (A: the left hip); only
    # a body that uses a word of the closing option can reject it (the option reader is the costly part)
    if _stated_otherwise(body, item, label):
        return True  # "... in Morison's pouch, which is free fluid. answer: B" (B: "No free fluid")
    low = body.casefold()
    words = [w.casefold() for o, lb in item.option_map if lb == label for w in overlap.content_words(o) if len(w) >= 3]
    if not any(w[:5] in low for w in words):
        return False
    named, rejected = _named(body, item)
    return label in rejected and bool(named - {label})
