"""Choice items: options named by their text, by a word only they have, or by their concepts.

Why a module: many replies never write a letter ("Pleural effusion.", "Aggravating.", "Broken kneecap."); these
rules map the words of a reply to the one option they name, never when another option is named too.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator

from probe_ui.reading import lexicon, overlap
from probe_ui.reading.cleaning import WORD, is_negated, mask_spans, norm, pattern, spelled
from probe_ui.reading.item import Item


def option_exact(s: str, item: Item) -> str | None:
    n = norm(s)
    hits = {lab for opt, lab in item.option_map if opt == n}
    return hits.pop() if len(hits) == 1 else None


def option_contained(text: str, item: Item) -> str | None:
    """The one option whose text occurs in the reply, not negated, when no option text contains another; other
    options may occur only negated ("Not pneumonia but pulmonary edema"). Conservative on purpose (free text
    mentions options it rejects)."""
    said = option_mentions(text, item)
    if said is None:
        return None
    asserted, negated = said
    return asserted[0] if len(asserted) == 1 and asserted[0] not in negated else None


_NEITHER_NOR = re.compile(r"\bneither\b[^.;:!?\n]{0,300}?\bnor\b[ \t]+(?:(?:a|an|the)[ \t]+)?[\w\-]+(?:[ \t]+[\w\-]+)?")


@functools.lru_cache(maxsize=4096)
def whole_text(opt: str) -> re.Pattern[str]:
    """An option's text (in comparison form) as a whole phrase, compiled once per text."""
    return re.compile(r"(?<![\w\-])" + re.escape(opt) + r"(?![\w\-])")


@functools.lru_cache(maxsize=8192)
def _keyword(word: str) -> re.Pattern[str]:
    """An option's word, or one sharing its first 7 letters ("metastases" for "metastatic"), after an optional
    "non-"; compiled once per word."""
    pat = re.escape(word[:7]) + r"[\w\-]*" if len(word) >= 7 else re.escape(word)
    if len(word) >= 7 and "olog" not in word:
        # batch 44: "Dermatology review ..." names a specialty, not "Dermatofibroma": a word of a field of medicine
        # (-ology, -ologist, -ological) shares the first 7 letters without naming the option
        pat = r"(?![\w\-]*olog(?:y|ies|ists?|ical|ic)(?![\w\-]))" + pat
    return re.compile(r"(?<![\w\-])(?P<non>non[ \t]?-?[ \t]?)?" + pat + r"(?![\w\-])")


@functools.lru_cache(maxsize=4096)
def _opening(opt: str) -> re.Pattern[str]:
    return re.compile(re.escape(opt) + r"[ \t]*[,.;:!\n]", re.IGNORECASE)


# batch 91: "I don't think the tube is in the esophagus.": the clause the reply doubts holds the option (not "I don't
# think it is anything but X", nor "I don't think there is any doubt it is X")
_DOUBTED_CLAUSE = re.compile(r"(?i)\b(?:i\s+)?(?:don['\u2019]t|do\s+not|dont)\s+(?:think|believe)\s+(?:that\s+)?"
                             # (batch 100: "I don't think this pseudoaneurysm is aggravating.")
                             r"(?:it|this|that|there|(?:the|this|that)\s+[\w\-]+(?:\s+[\w\-]+)?)\s*(?:is|'s|are|was|lies|"
                             r"sits)\s+"
                             r"(?:(?:in|at|on|within)\s+)?(?:(?:the|an?)\s+)?$"
                             # batch 98: "I don't see anything here that would make me call this lesion malignant."
                             # (not "nothing solid in it, which would make me call this a simple cyst")
                             r"|\b(?:nothing|(?:don['\u2019]t|do\s+not|dont|can['\u2019]t|cannot)\s+see\s+anything)"
                             r"(?:\s+(?:here|there|on\s+(?:this|the)\s+[\w\-]+))?\s+(?:that\s+)?"
                             r"would\s+make\s+me\s+(?:call|label|consider|think\s+of)\s+"
                             r"(?:it|this|that|the\s+[\w\-]+)(?:\s+[\w\-]+)?\s+(?:as\s+)?(?:(?:an?|the)\s+)?$")


def denied_before(before: str) -> bool:
    """Whether the words before a mention deny it: a negation just before it ("not upside down", :func:`is_negated`),
    or a clause the reply doubts as a whole ("I don't think the tube is in the esophagus")."""
    return is_negated(before) or _DOUBTED_CLAUSE.search(before) is not None
_ASKS_WHAT_IS_ABSENT = re.compile(r"(?i)\b(?:absent|missing|removed|not\s+(?:seen|visible|present)|lacking)\b")


def option_mentions(text: str, item: Item) -> tuple[list[str], list[str]] | None:
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
    low = norm(text)
    asserted: list[str] = []
    negated: list[str] = []
    seen: dict[str, bool] = {}  # a degenerate reply repeats the same context thousands of times
    rejected_after: dict[str, bool] = {}
    # "neither a cyst, a hemangioma nor a metastasis": every option listed between neither and nor is denied
    denied = [m.span() for m in _NEITHER_NOR.finditer(low)] if "neither" in low else []
    # "Malignancy is not seen.": the mention said to be absent is denied, unless the question asks what is absent
    # ("The spleen is not seen ..." to "Which organ is absent?") or an option itself speaks of presence or absence
    unseen_denies = _ASKS_WHAT_IS_ABSENT.search(item.question) is None and not any(
        re.search(r"\b(?:present|absent|absence|no|not|without|none)\b", o) for o in norms)
    for opt, lab in opts:
        for m in whole_text(opt).finditer(low):
            if opt in ("no", "yes") and not re.match(r"[ \t]*(?:[,.;:!\n)\u2013\u2014\-]|\Z)", low[m.end():]):
                continue  # batch 97: "... a visible pleural line with no lung markings beyond it": no option "No"
            before = low[max(0, m.start() - 200):m.start()]
            if before not in seen:
                seen[before] = denied_before(before)
            # (or an entry of a list a negation opening its sentence denies: "No gallstones, no sludge, or acute
            # cholecystitis.", a hostile review of 59cdb8a; overlap's reading of the same words already held so)
            inside = any(a <= m.start() < b for a, b in denied) \
                or overlap.in_denied_list(before, low[m.end():m.end() + 200])
            follows = low[m.end():m.end() + 120]  # "Both femurs are intact.": rejected after it
            if follows not in rejected_after:
                rejected_after[follows] = overlap.REJECTED_AFTER.match(follows) is not None or (
                    unseen_denies and overlap.SAID_ABSENT.match(follows) is not None)
            said = negated if seen[before] or inside or rejected_after[follows] else asserted
            if lab not in said:
                said.append(lab)
    return asserted, negated


# words that say nothing about which option is meant (rule 4's keyword reading ignores them)
KEYWORD_STOP = frozenset("""the a an of in on at to for with and or is are was were be been being this that these
those it its there their as by from into than then no not nor but if so very more most less least showing shows show
shown seen image images scan question answer option options choice which what both either neither
lesion lesions melanocytic""".split())
# (batch 102: "Benign fibrohistiocytic lesion." named no "Vascular lesion": a lesion is what every option of "What is
# this skin lesion?" is)
# (held-out batch 168: "Impression: features of a malignant melanocytic lesion." named no "Benign nevus": a melanoma is
# melanocytic too, and the word is only the canonical "melanocytic nevus" the nevus is read as)


def keyword_option(text: str, item: Item) -> str | None:
    """Rule 4c (:func:`option_keywords`): the one option a short reply names by a word of its own."""
    hits, negated, start = option_keywords(text, item)
    if start is not None:
        return start
    if len(hits) == 1:
        return hits[0]
    if not hits and len(negated) == 1 and len(item.option_map) == 2:  # "Not stable." of stable / aggravating
        return next(lab for _, lab in item.option_map if lab != negated[0])
    return None


def option_keywords(text: str, item: Item) -> tuple[list[str], list[str], str | None]:
    """Rule 4c: a short reply (at most 8 words) that is the first words of exactly one option ("No effacement."
    for "No effacement of the fourth ventricle"), or that uses a word of exactly one option that no other option
    has ("Aggravating." for "Showing an aggravating pseudoaneurysm", "The pseudoaneurysm is stable.",
    "Metastases." for "Metastatic carcinoma": words of 7+ letters match on their first 7); words of other options
    may appear only negated ("stable, not aggravating"). With two options, negating the one word of one ("Not
    stable.") names the other."""
    if len(item.option_map) < 2:
        return [], [], None
    low = norm(text)
    if not 0 < len(WORD.findall(low)) <= 8:
        return [], [], None
    if len(low.split()) >= 2:  # the start of exactly one option's text: "No effacement." for "No effacement of ..."
        starts = [lab for opt, lab in item.option_map if opt.startswith(low + " ")]
        if len(starts) == 1:
            return [], [], starts[0]
    words = [set(WORD.findall(opt)) for opt, _ in item.option_map]
    # batch 25: a word of a question that names no alternatives ("What is the abnormality of the knee joint?") is
    # what every option speaks of: beside another option's own keyword it names no option ("osteoarthritis, joint
    # space is narrow" is not "Joint effusion"); alone it still does ("joint efusion ..."); a question that sets
    # options against each other ("benign or malignant?") keeps its words
    asked = frozenset() if not item.question or re.search(r"(?i)\bor\b", item.question) else \
        frozenset(WORD.findall(norm(item.question)))
    hits: list[str] = []
    own: set[str] = set()  # options named by a keyword that is not a word of the question
    negated: list[str] = []
    for i, (opt, lab) in enumerate(item.option_map):
        # batch 17: an option that denies a finding ("No fracture is present") is named by a reply that denies its
        # word, and denied by one that affirms it ("scaphoid waist fracture, thin lucent line")
        absence = re.match(r"(?:no|not|without|absent|none|neither|nil)\b", opt) is not None
        others = set().union(*(w for j, w in enumerate(words) if j != i))
        for w in words[i] - others - KEYWORD_STOP:
            if len(w) < 3:
                continue
            # the word itself, or one sharing its first 7 letters ("metastases" for "metastatic")
            for m in _keyword(w).finditer(low):
                before = low[max(0, m.start() - 200):m.start()]
                denied = denied_before(before) or overlap.in_denied_list(before, low[m.end():m.end() + 200]) or \
                    overlap.REJECTED_AFTER.match(low[m.end():m.end() + 120]) is not None or \
                    (not absence and overlap.SAID_ABSENT.match(low[m.end():m.end() + 40]) is not None)
                if m.group("non") and not w.startswith("non"):
                    if denied:
                        continue  # "Not non-communicating": says nothing of "Communicating" by itself
                    denied = True  # "Non-communicating hydrocephalus" denies "Communicating hydrocephalus"
                flip = absence and w not in _ABSENCE_WORDS  # "Not absent" still denies "Absent"
                said = negated if denied != flip else hits
                if said is hits and w not in asked:
                    own.add(lab)
                if lab not in said:
                    said.append(lab)
    if len(hits) > 1 and own and len([h for h in hits if h in own]) == 1:
        hits = [h for h in hits if h in own]  # the question's own word beside another option's keyword
    if hits and not own and re.search(r"\b(?:normal|clear|unremarkable)\b", low):
        # "Left lung not normal." to "What abnormality is seen in the left lung?": the question's word "lung" with the
        # subject called (not) normal names no option "Lung mass"
        hits = []
    # an option one of whose own words is denied is not named by another ("Non-communicating hydrocephalus." is
    # not "Communicating hydrocephalus")
    return [h for h in hits if h not in negated], negated, None


_ABSENCE_WORDS = frozenset("no not without absent absence none neither nil negative".split())


def opening_option(text: str, item: Item) -> str | None:
    """The option a reply opens with by its own short text ("Yes, the answer is A." when B is "Yes")."""
    t = text.lstrip(" \t\n\"'`*_>")
    for opt, lab in item.option_map:
        if len(opt.split()) <= 3 and re.search(r"[^\W\d_]{2}", opt) and _opening(opt).match(t):
            return lab
    return None


def _bracketed(text: str, item: Item) -> Iterator[tuple[str, str, re.Match[str]]]:
    """Each place the reply writes an option's whole text with a bracketed letter after it ("Left hip (A)", "the left
    hip (option A)"), as (option text, its label, the match whose group 1 is the letter)."""
    if "(" not in text and "[" not in text:
        return
    for opt, lab in item.option_map:
        if not re.search(r"[^\W\d_]{2}", opt):
            continue
        pattern = (r"(?<![\w\-])" + spelled(opt)
                   + r"[ \t*_]*[(\[](?i:option[ \t]+)?((?-i:[A-Z]))[)\]]")
        for m in re.finditer(pattern, text, re.IGNORECASE):
            yield opt, lab, m


def _lettered(text: str, item: Item) -> Iterator[tuple[str, str, re.Match[str]]]:
    """Each place the reply writes a capital letter and, after a comma, colon, full stop or dash, an option's whole
    text ("C, mildly enlarged", "B: left hip"), as (option text, its label, the match whose group 1 is the letter)."""
    for opt, lab in item.option_map:
        if not re.search(r"[^\W\d_]{2}", opt):
            continue
        pattern = (r"(?<![\w'])[(\[]?((?-i:[A-Z]))[)\]]?[ \t*_]*[,:.\u2013\u2014\-][ \t*_]*(?:the[ \t]+)?"
                   + spelled(opt)
                   # (the text ends its clause: not "so C — the radius and ulna look intact")
                   + r"(?![\w\-])(?=[ \t*_]*(?:[.,;:!?)\n]|\Z))")
        for m in re.finditer(pattern, text, re.IGNORECASE):
            if not re.match(r"[)\]][ \t*_]*\.", text[m.end(1):]):  # not "(B). Normal (A) would need ...": the
                yield opt, lab, m  # bracketed letter closes its sentence


def labelled_options(text: str, item: Item) -> set[str]:
    """The options the reply names by their whole text followed by their own letter in brackets ("Left hip (A)", "the
    left hip (option A) shows AVN"): answers written out explicitly (batch 16). A letter that is another option's
    names nothing here (:func:`mislabelled_options` reads that)."""
    return {lab for _, lab, m in _bracketed(text, item) if item.letter(m.group(1)) == lab}


# what makes a letter and its text someone else's or set aside, earlier in its sentence
_OTHERS_BEFORE = re.compile(r"(?i)\b(?:suggest\w*|physician|doctor|colleague|your|their|disagree\w*|rather\s+than|"
                            r"instead\s+of|over|versus|vs)\b")
# a capital letter standing alone before a mark or the end ("- B.", "(B)", "B)")
_LETTER_ALONE = re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?(?=[ \t*_]*(?:[.,;:!?)\n]|\Z))")


def written_with_letter(text: str, item: Item) -> set[str]:
    """The options the reply writes out with their own letter, before or after the text ("D - atelectasis",
    "Atelectasis (D)"), not negated just before: held-out batch 171's "... are the signature of **D — atelectasis**.",
    after a walk through the other options by name."""
    found = labelled_options(text, item)
    for _, lab, m in _lettered(text, item):
        sentence = re.split(r"[.!?\n]\s", text[max(0, m.start() - 200):m.start()])[-1]
        if item.letter(m.group(1)) == lab and not _DENIED_BEFORE.search(text, max(0, m.start() - 40), m.start()) \
                and not _OTHERS_BEFORE.search(sentence):
            found.add(lab)
    # (and no other option's letter stands alone: "I disagree with the suggested answer (C. Esophagus). The tube tip
    # is in the right main bronchus - B.", a review of held-out batch 171's rules)
    alone = {lb for m in _LETTER_ALONE.finditer(text) if (lb := item.letter(m.group(1))) is not None}
    return found if alone <= found else set()


# a negation at most two words before an option's words ("No nodule is present (B)", "not normal [B]"; not "No doubt
# it's mildly enlarged (C)", "Not the left femur but the right femur (A)": a hostile review)
_DENIED_BEFORE = re.compile(r"(?i)\b(?:not|no|never|without)\b(?![ \t]+(?:a[ \t]+)?doubt\b)"
                            r"(?:[ \t]+(?!but\b)[\w'\-]+){0,2}[ \t]+\Z")


def mislabelled_options(text: str, item: Item) -> set[str]:
    """The options of every pair where the reply writes one option's whole text with another option's letter in
    brackets after it ("Mildly enlarged (C)." when mildly enlarged is B) or before it ("Not A, but C, mildly enlarged.":
    the review of held-out batches 163-166): which of the two it meant is a guess (not an option's words denied: "No
    nodule is present (B)." when A is present, B absent)."""
    found: set[str] = set()
    for opt, lab, m in itertools.chain(_bracketed(text, item), _lettered(text, item)):
        other = item.letter(m.group(1))
        if other is not None and other != lab and item.option_text(other) is not None \
                and norm(opt) not in norm(item.option_text(other) or "") \
                and not _DENIED_BEFORE.search(text[max(0, m.start() - 60):m.start()]):
            found |= {lab, other}
    return found


# the separator after an option's text that opens a reply and the reason that follows it: "Arterial phase - the
# aorta is ...", "Arterial phase; ...", "Arterial phase: ..."
_HEAD_SEPARATOR = re.compile(r"[ \t]*(?:[ \t][\-\u2013\u2014]{1,2}|[\u2013\u2014]|[;:])[ \t]*(?=[^\W\d_])")


def head_option(text: str, item: Item) -> str | None:
    """The option whose whole text opens the reply as its own clause, a reason after a dash, a semicolon or a colon
    ("Arterial phase - the aorta is densely opacified while the portal vein is still faint."): the reply's answer, as
    a leading letter is, whatever the reason then mentions. Not when the reason opens with a negation or a doubt."""
    t = text.lstrip(" \t\n\"'`*_>")
    for opt, lab in item.option_map:
        if not re.search(r"[^\W\d_]{2}", opt):
            continue
        m = pattern(spelled(opt), re.IGNORECASE).match(t)
        if m is None:
            continue
        sep = _HEAD_SEPARATOR.match(t, m.end())
        if sep is None:
            # batch 16: "hemangioma, peripheral nodular enhancement filling in on delayed phase": a comma, when the
            # clause after it names no other option's text and offers no alternative ("Hemangioma, FNH or HCC")
            sep = _HEAD_COMMA.match(t, m.end())
            clause = re.split(r"[.;:!?\n]", t[sep.end():], maxsplit=1)[0] if sep is not None else ""
            if sep is not None and (_ALTERNATIVE.search(clause) or any(
                    whole_text(o).search(norm(clause)) for o, other in item.option_map if other != lab)):
                sep = None
        if sep is not None and not re.match(r"(?i)(?:no|not|never|unlikely|less|maybe|perhaps|possibly|or|though|"
                                            r"although|but|and)\b", t[sep.end():]):
            return lab
    return None


_HEAD_COMMA = re.compile(r"[ \t]*,[ \t]*(?=[^\W\d_])")
_ALTERNATIVE = re.compile(r"(?i)\b(?:or|vs\.?|versus|either|differential)\b|/")


_AFFIRMATIVE_OPTIONS = frozenset({"yes", "present", "positive", "true"})
_NEGATIVE_OPTIONS = frozenset({"no", "absent", "negative", "false", "not present"})


def yes_no_options(item: Item) -> dict[str, str] | None:
    """{"yes": label, "no": label} for a choice item whose two options are yes and no, or present and absent."""
    if len(item.option_map) != 2:
        return None
    yes = [lb for opt, lb in item.option_map if opt in _AFFIRMATIVE_OPTIONS]
    no = [lb for opt, lb in item.option_map if opt in _NEGATIVE_OPTIONS]
    if len(yes) == 1 and len(no) == 1:
        return {"yes": yes[0], "no": no[0]}
    # batch 26: a finding stated and denied ("Free fluid is present" / "No free fluid") to a yes/no question ("Does
    # this image show free fluid in Morison's pouch?"): a "Yes" that answers the question names the one that states it
    if item.question and _YES_NO_QUESTION.match(item.question):
        said = {lb: _STATED.sub("", _DENIED.sub("", opt)).strip() for opt, lb in item.option_map}
        denied = [lb for opt, lb in item.option_map if _DENIED.match(opt) or _ABSENT_AFTER.search(opt)]
        if len(denied) == 1 and len(set(said.values())) == 1 and all(said.values()):
            return {"yes": next(lb for lb in said if lb != denied[0]), "no": denied[0]}
    return None


_YES_NO_QUESTION = re.compile(r"(?i)\A\W*(?:is|are|was|were|does|do|did|has|have|can)\b")
_DENIED = re.compile(r"(?i)\A(?:no|not|without)\s+")
_ABSENT_AFTER = re.compile(r"(?i)\s+(?:is\s+|are\s+)?absent\Z")
_STATED = re.compile(r"(?i)\s+(?:is\s+|are\s+)?(?:present|absent|seen|visible)\Z")


def options_in_words(text: str, item: Item) -> overlap.Overlap:
    """The options a reply names or rejects by their concepts (:mod:`probe_ui.reading.overlap`), escape options
    aside (their own rule reads them)."""
    if len(text) > 3000:
        return overlap.Overlap((), ())  # a reply that long names its answer by letter or text, if at all
    escapes = {lb for opt, lb in item.option_map if lexicon.escape_kind_of_option(opt) and not
               overlap.content_words(lexicon.escape_remainder(opt))}  # "Neither hip" is read here, too
    return overlap.option_overlap(text, [(o, lb) for o, lb in item.option_map if lb not in escapes],
                                  denied_before, item.question)


# batch 14: options that are ranges of a measure ("Under 1 cm", "1 to 3 cm", "Over 3 cm") and a reply that gives the
# value itself ("the cyst measures about 2 cm")
_UNITS = {"mm": ("cm", 0.1), "cm": ("cm", 1.0), "ml": ("ml", 1.0), "cc": ("ml", 1.0), "%": ("%", 1.0)}
_NUMBER = r"(\d+(?:[.,]\d+)?)"
_UNIT = r"[ \t]*(mm|cm|ml|cc|%)(?![\w])"
_BELOW = re.compile(r"(?:under|less\s+than|below|smaller\s+than|<)[ \t]*" + _NUMBER + _UNIT)
_ABOVE = re.compile(r"(?:over|more\s+than|above|greater\s+than|larger\s+than|>)[ \t]*" + _NUMBER + _UNIT)
_BETWEEN = re.compile(r"(?:between[ \t]+)?" + _NUMBER + r"(?:" + _UNIT + r")?[ \t]*(?:to|-|\u2013|and)[ \t]*" + _NUMBER
                      + _UNIT)
# a value the reply gives, with the words that may qualify it
_VALUE = re.compile(r"(?i)(?<![\w.,])(?P<q>(?:(?:about|approximately|approx\.?|around|roughly|nearly|almost|~|"
                    r"\u2248|just|under|over|less\s+than|more\s+than|up\s+to|at\s+least|below|above|<|>)[ \t]*)*)"
                    + _NUMBER + _UNIT)
_APPROXIMATE = re.compile(r"(?i)about|approx|around|roughly|nearly|almost|~|\u2248")


def _number(s: str) -> float:
    return float(s.replace(",", "."))


def _option_range(opt: str) -> tuple[str, float, float] | None:
    """An option that is a range of a measure, as (unit, low, high) in the unit's base (cm, ml, %), or None."""
    t = opt.strip()
    for pat, kind in ((_BELOW, "below"), (_ABOVE, "above"), (_BETWEEN, "between")):
        m = pat.fullmatch(t)
        if m is None:
            continue
        if kind == "between":
            unit, scale = _UNITS[m.group(4)]
            if m.group(2) and _UNITS[m.group(2)][0] != unit:
                return None
            low = _number(m.group(1)) * (_UNITS[m.group(2)][1] if m.group(2) else scale)
            return unit, low, _number(m.group(3)) * scale
        unit, scale = _UNITS[m.group(2)]
        value = _number(m.group(1)) * scale
        return (unit, float("-inf"), value) if kind == "below" else (unit, value, float("inf"))
    return None


def value_option(text: str, item: Item) -> str | None:
    """Choice items whose options are ranges of one measure ("Under 1 cm", "1 to 3 cm", "Over 3 cm"; escape options
    aside): the option a short reply's one value falls in ("the cyst measures about 2 cm" is "1 to 3 cm"). Not when
    the reply gives several values or a bound ("less than 2 cm"), nor for a value on a range's edge (or, said
    approximately, within a tenth of it)."""
    ranges: list[tuple[str, float, float, str]] = []
    for opt, lab in item.option_map:
        if lexicon.escape_kind_of_option(opt):
            continue
        r = _option_range(opt)
        if r is None:
            return None
        ranges.append((*r, lab))
    if len(ranges) < 2 or len({u for u, _, _, _ in ranges}) != 1 or len(WORD.findall(text)) > 30:
        return None
    values = [m for m in _VALUE.finditer(text) if _UNITS[m.group(3).lower()][0] == ranges[0][0]]
    if len(values) != 1 or len(_VALUE.findall(text)) != 1:
        return None
    m = values[0]
    qualifier = m.group("q").lower()
    if re.search(r"under|over|less|more|up\s+to|at\s+least|below|above|<|>|just", qualifier):
        return None  # a bound, not a value
    value = _number(m.group(2)) * _UNITS[m.group(3).lower()][1]
    margin = 0.1 * value if _APPROXIMATE.search(qualifier) else 0.0
    edges = {x for _, low, high, _ in ranges for x in (low, high) if abs(x) != float("inf")}
    if any(abs(value - x) <= margin or value == x for x in edges):
        return None
    hits = [lab for _, low, high, lab in ranges if low < value < high]
    return hits[0] if len(hits) == 1 else None


# batch 17: options that are counts ("0", "2", "3", "4") and a reply that gives the count in words or as a Roman
# numeral ("i can see four wisdom teeth, two upper and two lower", "Count: II.")
_NUMBER_WORDS = {"zero": 0, "none": 0, "no": 0, "one": 1, "a single": 1, "single": 1, "two": 2, "both": 2,
                 "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12}
_ROMAN = {"ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}
_COUNTED = re.compile(r"(?i)\bhow\s+many\s+((?:[a-z\-]+\s+){0,3}?[a-z\-]+?)\s+(?:can|are|is|do|does|were|have|has|"
                      r"could|will|appear|in|on)\b")
_COUNT_CUE = re.compile(r"(?i)\b(?:count(?:ed)?|total|number|tally)\b(?:\s+(?:is|of|was))?[ \t]*[:=]?[ \t]*"
                        r"(?:(?:about|approximately)\s+)?([a-z]+|\d{1,2})\b(?![ \t]*[%\-])")
# batch 27: a count given as a bound ("At least three wisdom teeth are visible; the lower right quadrant is cut off")
# is not the count (not "at least" elsewhere in the sentence: "at least on this film, three teeth")
_COUNT_BOUND = re.compile(r"(?i)\b(?:at[ \t]+(?:least|most)|(?:no[ \t]+)?(?:more|fewer|less)[ \t]+than|over|under|"
                          r"up[ \t]+to|upwards[ \t]+of|a[ \t]+(?:minimum|maximum)[ \t]+of)[ \t]+\Z")
_IN_TOTAL = re.compile(r"(?i)\b([a-z]+|\d{1,2})\s+in\s+total\b")


def _count_value(word: str) -> int | None:
    w = word.lower()
    if w.isdigit():
        return int(w)
    return _NUMBER_WORDS.get(w, _ROMAN.get(w) if len(w) >= 2 or word.isupper() else None)


def count_option(text: str, item: Item) -> str | None:
    """Choice items whose options are counts ("0", "2", "3", "4"; escape options aside) asked with "How many ...?":
    the option of the one count the reply gives, as the total ("Count: II.", "four in total", "I count four") or
    right before what the question counts ("i can see four wisdom teeth, two upper and two lower": the "two"s are
    not before "teeth"). None when it gives two different counts so."""
    values: dict[int, str] = {}
    for opt, lab in item.option_map:
        if lexicon.escape_kind_of_option(opt):
            continue
        if not opt.isdigit():
            return None
        values[int(opt)] = lab
    counted = _COUNTED.search(item.question)
    if len(values) < 2 or counted is None or len(text) > 2000:
        return None
    head = counted.group(1).split()[-1].lower()
    heads = {head, head[:-1] if head.endswith("s") else head, "tooth" if head == "teeth" else head}
    said: set[int] = set()
    for m in [*_COUNT_CUE.finditer(text), *_IN_TOTAL.finditer(text)]:
        v = _count_value(m.group(1))
        if v is not None:
            said.add(v)
    if not said:
        nouns = "|".join(re.escape(h) for h in heads)
        number = r"(a\s+single|\d{1,2}|" + "|".join(sorted((*_NUMBER_WORDS, *_ROMAN), key=len, reverse=True)) + r")"
        before = re.compile(r"(?i)(?<![\w\-])" + number + r"\s+(?:[a-z\-]+\s+){0,3}?(?:" + nouns + r")\b")
        spans = []
        for m in before.finditer(text):
            v = _count_value(m.group(1))
            if v is not None and _COUNT_BOUND.search(text[max(0, m.start() - 40):m.start()]):
                return None  # batch 27: "At least three wisdom teeth are visible": a bound, not the count
            if v is not None and not is_negated(text[max(0, m.start() - 40):m.start()]):
                said.add(v)
                spans.append(m.span(1))
        # other counts in the reply ("two upper and two lower") must add up to it: a breakdown, not another count
        rest = mask_spans(text, spans)
        others = [v for m in re.finditer(r"(?i)(?<![\w\-])" + number + r"(?![\w\-])", rest)
                  if (v := _count_value(m.group(1))) is not None and m.group(1).lower() not in ("no", "none", "x", "v")]
        if len(said) == 1 and others and sum(others) != next(iter(said)):
            return None
    if len(said) != 1:
        return None
    return values.get(said.pop())


@functools.lru_cache(maxsize=1024)
def _option_list(labels: tuple[str, ...], options: tuple[str, ...]) -> re.Pattern[str]:
    """Every option with its letter, in order, as a prompt lists them ("A. left side B. right side ...")."""
    parts = [r"[(\[]?" + re.escape(lab) + r"[.):\]][ \t]*" + spelled(opt, r"\s+")
             for lab, opt in zip(labels, options)]
    return re.compile(r"(?i)(?<![\w\-])" + r"[ \t]*[,;]?\s*".join(parts) + r"(?![\w\-])")


_VERDICT_WORDS = frozenset({"yes", "no", "not", "correct", "incorrect", "wrong", "right", "true", "false", "likely",
                            "unlikely", "present", "absent", "excluded", "answer"})


@functools.lru_cache(maxsize=1024)
def _loose_option_list(labels: tuple[str, ...]) -> re.Pattern[str]:
    """Every letter in order, each followed by a few words, as a reply echoes a list in its own shortening ("Options:
    A. left B. right C. bilateral D. no effusion" to the options "left side", "right side", ...)."""
    parts = [r"[(\[]?" + re.escape(lab) + r"[.):\]][ \t]+([^\n.;:(\[]{1,40}?)" for lab in labels]
    return re.compile(r"(?i)(?<![\w\-])" + r"[ \t]*[,;]?\s*".join(parts) + r"(?=[ \t]*(?:[.;\n]|$))")


def _shortened(said: str, option: str) -> bool:
    """An echoed entry is the option's words, shortened or with one word more, and carries no verdict."""
    words, opt = norm(said).split(), set(norm(option).split())
    if not words or len(words) > len(opt) + 1:
        return False
    if any(w in _VERDICT_WORDS and w not in opt for w in words):
        return False
    return sum(w in opt for w in words) * 2 >= len(words) and words[0] in opt | {"a", "an", "the"}


@functools.lru_cache(maxsize=64)
def _walk_entry(lab: str, table: bool = False) -> re.Pattern[str]:
    """An option's letter opening an entry of its own ("B. right: yes", "C) Bilateral — incorrect"), or with ``table``
    a table row's first cell ("| A. Mid trachea, above the carina | **Correct** — ideal position |")."""
    if table:
        return re.compile(r"(?<=\n\|)[ \t]*[*_]*[(\[]?(" + re.escape(lab) + r")[.):\]][ \t]")
    return re.compile(r"(?:^|(?<=[.!?;\n])|(?<=[.!?;][ \t]))[ \t]*[(\[]?(" + re.escape(lab) + r")[.):\]][ \t]")


def option_walk(text: str, item: Item, table: bool = False) -> list[tuple[int, int]]:
    """The letters of a reply that goes through every option in order, each as an entry of its own ("A. left: no. B.
    right: yes. C. ...", "A) Left side - unlikely\nB) Right side - ..."), or with ``table`` as a table's rows: the
    first entry's letter opens a walk, not an answer. Returns the letters' spans (none where the reply is no such
    walk)."""
    if item.kind != "choice" or len(item.labels) < 2:
        return []
    spans: list[tuple[int, int]] = []
    at = 0
    for lab in item.labels:
        m = _walk_entry(lab, table).search(text, at)
        if m is None:
            return []
        spans.append(m.span(1))
        at = m.end()
    return spans


# what an entry of a walk says of its option, after the option's own words ("B. Right side is wrong: ...", "A) left
# side — incorrect", "B. right: yes", "C. Patellar fracture: this is the answer")
_ENTRY_REJECTS = re.compile(r"(?i)\A[\s:;,.|\-\u2013\u2014*_]*(?:(?:is|are|seems|looks)\s+)?(?:no\b|not\b|wrong|"
                            r"incorrect|unlikely|less\s+likely|excluded|ruled\s+out|false|doesn't\s+fit|does\s+not\s+fit)")
_ENTRY_ENDORSES = re.compile(r"(?i)\A[\s:;,.|\-\u2013\u2014*_]*(?:(?:is|are|seems|looks)\s+)?(?:yes\b|correct|right\b|"
                             r"true|most\s+likely|the\s+answer|this\s+is\s+(?:the|my)\s+answer|best\s+fit)")


def walked_answer(text: str, item: Item, walk: list[tuple[int, int]]) -> tuple[str, str] | None:
    """The answer of a reply that goes through every option in turn (:func:`option_walk`), from what each entry says
    of its option: the one entry called right ("A. left: no. B. right: yes. C. bilateral: no. ...") is the answer
    (method ``marked``, as a checklist's tick is); the first entry, left as it is while every other is called wrong
    ("A. Left side.\nB. Right side is wrong: ...\nC. ..."), is an answer the reply opens with (``leading``). None
    where the entries do not single one out."""
    ends = [start for start, _ in walk[1:]] + [len(text)]
    said: list[str] = []
    for (_, end), stop, (opt, _lab) in zip(walk, ends, item.option_map):
        entry = text[end:stop].lstrip(" \t.):]")
        own = re.match(r"(?i)[*_]*" + spelled(opt, r"\s+") + r"[*_]*", entry) \
            if opt else None
        rest = entry[own.end():] if own is not None else entry
        said.append("right" if _ENTRY_ENDORSES.match(rest) else "wrong" if _ENTRY_REJECTS.match(rest) else "open")
    labels = [lab for _, lab in item.option_map]
    if said.count("right") == 1:
        return labels[said.index("right")], "marked"
    if "right" not in said and said[0] == "open" and said[1:] and all(v == "wrong" for v in said[1:]):
        return labels[0], "leading"
    return None


def marked_table(text: str, item: Item) -> tuple[str, str, int] | None:
    """The answer a Markdown table marks when its rows review every option by its letter ("| A. Mid trachea, above the
    carina | **Correct** |", :func:`walked_answer` on the rows), with where its first row starts; None when there is
    no such table or it singles out no option."""
    rows = option_walk(text, item, table=True) if "|" in text else []
    found = walked_answer(text, item, rows) if rows else None
    return (found[0], found[1], rows[0][0]) if found is not None else None


def echoed_option_list(text: str, item: Item) -> list[tuple[int, int]]:
    """Where a reply repeats the whole list of options as the prompt gave it (batch 84: "The physician's answer is A.
    left side. Options: A. left side B. right side C. bilateral D. no effusion"): an echo names no answer, and its last
    option is no verdict."""
    if item.kind != "choice" or len(item.options) < 2 or len(item.labels) != len(item.options):
        return []
    last = item.labels[-1]
    if last not in text:
        return []
    spans = [m.span() for m in _option_list(tuple(item.labels), tuple(item.options)).finditer(text)]
    if not spans:
        spans = [m.span() for m in _loose_option_list(tuple(item.labels)).finditer(text)
                 if all(_shortened(said, opt) for said, opt in zip(m.groups(), item.options))]
    if spans and not WORD.search(mask_spans(text, spans)):
        return []  # the list alone is the reply: it names every option, and is read as such
    return spans
