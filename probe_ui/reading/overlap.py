"""Options named by their words, in whatever form the reply writes them.

Why: a careful reader recognises an option when a reply names it in other words than the option's own text:
another inflection ("Ureteral tumor" in "a tumour of the ureter"), an abbreviation built from the option's initials
("IIH", "PV phase", "IPMN"), a lay word ("broken kneecap" for "Patellar fracture"), the parts of a compound term
("a stone in the common bile duct" for "Choledocholithiasis", "gallbladder inflammation" for "Acute
cholecystitis"), a more specific term ("urothelial carcinoma" is a tumour). The texts' exact spelling rules
(:mod:`probe_ui.answers`) miss these; this module compares the *concepts* of the reply with those of each option.

How (:func:`option_overlap`):

- each option is a list of concepts, one per content word: the word's stem (plural, adjective and noun forms
  folded: "femurs"/"femur", "patellar"/"patella", "cystic"/"cyst"), its lay synonyms (:data:`WORD_SYNONYMS`),
  and for a compound term its parts (:data:`COMBINING_FORMS`: "cholecyst-itis" is gallbladder + inflammation);
- a concept only one option has is *distinctive*: it tells that option from the others ("right" in "Right hip");
- the reply names an option when it names at least half of the option's distinctive concepts (all of a single
  one), as a stem, a synonym, a more specific term (:data:`HYPERNYMS`), all parts of a compound, or an
  abbreviation of the option's words; a mention after a negation ("not an IPMN", "isn't IIH") rejects it instead;
- an option that says a finding is absent ("No free fluid", "No fracture", "Neither hip") is named by a reply that
  denies the finding ("No se observa líquido libre" once glossed), and rejected by one that affirms it.

The caller decides what the overlap means: one option named and no other is an answer; two named are ambiguous;
every option but one rejected is the one left (elimination). Nothing here reads letters, declarations or hedges.
To teach the reader a word, add it to :data:`WORD_SYNONYMS`, :data:`HYPERNYMS` or :data:`COMBINING_FORMS` with a
test reply.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["COMBINING_FORMS", "HYPERNYMS", "WORD_SYNONYMS", "Overlap", "content_words", "option_overlap", "stem"]

# words that name no option (articles, verbs of seeing, judgement words, the question's own vocabulary)
STOP = frozenset("""a an the of in on at to for with and or is are was were be been being this that these those it
its there their as by from into than then so very more most less least show shows showing shown seen see image
images scan question answer option options choice which what both either neither nor but if also only just
likely probably possible possibly suggest suggests suggestive consistent compatible finding findings appearance
appear appears look looks seem seems patient patients case here diagnosis type form sign signs evidence
i my we you he she they me us would could should may might can will do does did has have had not no""".split())
# words that say whether a finding is there: they decide an option's polarity, not which finding it names
_PRESENCE = frozenset("present presence visible evident identified detected noted observed demonstrated".split())
_ABSENCE = frozenset("absent absence".split())
_NEGATIVE_OPENING = re.compile(r"(?i)\A\W*(?:no|not|without|absent|none|neither|nil)\b")

# a word → the word options use for the same thing (lay words, organ adjectives, irregular forms); both the reply
# and the options are read through it
WORD_SYNONYMS: dict[str, str] = {
    # lay words
    "broken": "fracture", "break": "fracture", "fractured": "fracture", "crack": "fracture", "cracked": "fracture",
    "kneecap": "patella", "breastbone": "sternum", "collarbone": "clavicle", "shinbone": "tibia",
    "thighbone": "femur", "femora": "femur", "femoral": "femur", "gullet": "esophagus", "windpipe": "trachea",
    "voicebox": "larynx", "womb": "uterus", "jawbone": "mandible", "jaw": "mandible", "cheekbone": "zygoma",
    "backbone": "spine", "tailbone": "coccyx", "shoulderblade": "scapula", "gut": "bowel", "bowels": "bowel",
    "intestine": "bowel", "intestines": "bowel", "tummy": "abdomen", "belly": "abdomen", "bleed": "hemorrhage",
    "bleeding": "hemorrhage", "blood": "hemorrhage", "clot": "thrombus", "clotted": "thrombus",
    "inflamed": "inflammation", "inflammatory": "inflammation", "lump": "mass", "growth": "mass",
    "cancerous": "malignant", "worsening": "aggravating", "worse": "aggravating", "growing": "aggravating",
    "enlarging": "aggravating", "progressing": "aggravating", "progressive": "aggravating",
    "expanding": "aggravating", "unchanged": "stable", "stationary": "stable", "steady": "stable",
    "older": "elderly", "geriatric": "elderly", "aged": "elderly", "senior": "elderly",
    "newborn": "neonate", "neonatal": "neonate", "kid": "child", "children": "child", "paediatric": "pediatric",
    # organ adjectives to the organ
    "hepatic": "liver", "renal": "kidney", "nephric": "kidney", "cardiac": "heart", "pulmonary": "lung",
    "splenic": "spleen", "gastric": "stomach", "cerebral": "brain", "osseous": "bone", "cutaneous": "skin",
    "ocular": "eye", "intestinal": "bowel", "enteric": "bowel", "vesical": "bladder", "biliary": "bile",
}
# a more specific term also names the general one an option uses ("urothelial carcinoma" is a tumour); not the
# other way round ("a tumour" does not name "Ductal adenocarcinoma")
HYPERNYMS: dict[str, tuple[str, ...]] = {
    "carcinoma": ("tumor", "cancer", "malignancy"), "adenocarcinoma": ("carcinoma", "tumor", "cancer"),
    "sarcoma": ("tumor", "cancer"), "lymphoma": ("tumor", "cancer"), "neoplasm": ("tumor",),
    "cancer": ("tumor", "malignancy"), "malignancy": ("tumor",), "metastasis": ("tumor",),
    "metastases": ("tumor",), "adenoma": ("tumor",), "glioma": ("tumor",), "meningioma": ("tumor",),
    "hematoma": ("hemorrhage",), "hemorrhage": ("bleed",),
}
# compound terms: a root and a suffix, each with the words a reply may use for it ("cholecyst-itis": gallbladder
# inflammation; "choledocho-lithiasis": a stone in the bile duct)
COMBINING_FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "roots": {
        "cholecyst": ("gallbladder",), "choledoch": ("bile", "duct"), "cholangi": ("bile", "duct"),
        "chole": ("gallbladder",), "nephr": ("kidney",), "hepat": ("liver",), "splen": ("spleen",),
        "cardi": ("heart",), "pancreat": ("pancreas",), "appendic": ("appendix",), "oste": ("bone",),
        "arthr": ("joint",), "encephal": ("brain",), "mening": ("meninges",), "col": ("colon",),
        "gastr": ("stomach",), "enter": ("bowel",), "dermat": ("skin",), "derm": ("skin",), "cyst": ("bladder",),
        "pneumon": ("lung",), "pleur": ("pleura",), "bronch": ("bronchus",), "trache": ("trachea",),
        "esophag": ("esophagus",), "thyroid": ("thyroid",), "lymphaden": ("lymph", "node"),
        "myocard": ("heart", "muscle"), "pericard": ("pericardium",), "ur": ("urinary",), "sial": ("salivary",),
        "diverticul": ("diverticulum",), "sinus": ("sinus",), "tendin": ("tendon",), "vascul": ("vessel",),
    },
    "suffixes": {
        "itis": ("inflammation",), "megaly": ("enlarged",), "lithiasis": ("stone",), "algia": ("pain",),
        "malacia": ("softening",), "ectasis": ("dilated",), "ectasia": ("dilated",),
    },
}

_WORD = re.compile(r"[^\W\d_]+")
_ACRONYM = re.compile(r"(?<![\w\-])([A-Z]{2,6})s?(?![\w\-])")
# a word that says a finding is not there: "Both femurs are intact." denies the fracture
IMPLIED_ABSENCE: dict[str, tuple[str, ...]] = {
    "intact": ("fracture", "tear", "rupture", "laceration", "disruption"), "unbroken": ("fracture",),
}
# "and eczema don't explain", "is unlikely", "are intact": a mention rejected by what follows it in its clause
REJECTED_AFTER = re.compile(
    r"(?i)\A(?:[ \t]*(?:,|\band\b|\bor\b)[ \t]*(?:an?[ \t]+|the[ \t]+)?[\w\-]+(?:[ \t]+[\w\-]+)?)*[ \t]*,?[ \t]*"
    r"(?:(?:do|does|did|would|could|can)(?:[ \t]+not|n't)[ \t]+(?:explain|fit|match|account)"
    r"|(?:is|are|was|were|seems?|appears?)[ \t]+(?:very[ \t]+|much[ \t]+)?(?:unlikely|excluded|ruled[ \t]+out|"
    r"less[ \t]+likely|not[ \t]+(?:likely|supported|the[ \t]+(?:answer|diagnosis|cause))|incorrect|wrong)"
    r"|(?:can|could)[ \t]+be[ \t]+(?:excluded|ruled[ \t]+out)"
    r"|(?:is|are|appears?|looks?)[ \t]+(?:entirely[ \t]+|completely[ \t]+)?(?:intact|unremarkable))\b"
)
_SUFFIXES = ("ations", "ation", "ements", "ement", "ments", "ment", "ings", "ing", "ical", "ally", "ular", "ous",
             "osis", "otic", "ions", "ion", "ies", "ied", "ed", "es", "ic", "al", "ar", "ly", "us", "a", "e", "y")


def _fold(word: str) -> str:
    """Lower case without accents ("líquido" → "liquido")."""
    w = word.casefold()
    if w.isascii():
        return w
    return "".join(c for c in unicodedata.normalize("NFD", w) if not unicodedata.combining(c))


@functools.lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """The word's stem after its synonym: plural and one derivational suffix dropped ("femurs" → "femur",
    "patellar"/"patella" → "patell", "cystic" → "cyst", "fractures" → "fractur")."""
    w = _fold(word)
    w = WORD_SYNONYMS.get(w, w)
    if len(w) >= 4 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1] if not w.endswith("ies") else w[:-3] + "y"
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[:-len(suf)]
    return w


def _same(a: str, b: str) -> bool:
    """Two stems name the same word: equal, or long and alike in their first seven letters ("metastases" /
    "metastatic")."""
    return a == b or (len(a) >= 7 and len(b) >= 7 and a[:7] == b[:7])


@functools.lru_cache(maxsize=4096)
def _parts(word: str) -> tuple[str, ...]:
    """The stems of a compound term's parts ("cholecystitis" → gallbladder, inflammation), or ()."""
    w = _fold(word)
    for suffix, means in COMBINING_FORMS["suffixes"].items():
        if not w.endswith(suffix):
            continue
        root = w[:-len(suffix)]
        root = root[:-1] if root.endswith("o") and root[:-1] in COMBINING_FORMS["roots"] else root
        if root in COMBINING_FORMS["roots"]:
            return tuple(stem(x) for x in (*COMBINING_FORMS["roots"][root], *means))
    return ()


def content_words(text: str) -> list[str]:
    """The words of ``text`` that can name something (not in :data:`STOP`)."""
    return [w for w in _WORD.findall(text) if _fold(w) not in STOP and len(w) > 1]


@dataclass(frozen=True)
class _Concept:
    stem: str
    parts: tuple[str, ...]
    word: str


@dataclass(frozen=True)
class Overlap:
    """What a reply says of each option: ``named`` the labels whose distinctive concepts it names (half or
    more), ``rejected`` those it names only after a negation (or whose finding it affirms, for an option that
    says the finding is absent)."""

    named: tuple[str, ...]
    rejected: tuple[str, ...]


@functools.lru_cache(maxsize=1024)
def _options(options: tuple[tuple[str, str], ...]) -> tuple[tuple[str, bool, tuple[_Concept, ...],
                                                                  tuple[_Concept, ...], tuple[str, ...]], ...]:
    """Per option: (label, negative polarity, distinctive concepts, all content concepts, its words for
    abbreviations)."""
    parsed = []
    for text, lab in options:
        words = _WORD.findall(text)
        negative = bool(_NEGATIVE_OPENING.match(text)) or any(_fold(w) in _ABSENCE for w in words)
        concepts = tuple(_Concept(stem(w), _parts(w), _fold(w)) for w in words
                         if _fold(w) not in STOP and _fold(w) not in _PRESENCE and _fold(w) not in _ABSENCE
                         and len(w) > 1)
        initials = tuple(w for w in words if _fold(w) not in ("of", "the", "and", "with", "a", "an"))
        parsed.append((lab, negative, concepts, initials))
    out = []
    for i, (lab, negative, concepts, initials) in enumerate(parsed):
        others = [c for j, (_, _, cs, _) in enumerate(parsed) if j != i for c in cs]
        distinct = tuple(c for c in concepts if not any(_same(c.stem, o.stem) for o in others))
        out.append((lab, negative, distinct, concepts, initials))
    return tuple(out)


# negation scope: a negation covers the noun phrase after it ("not a mucinous cystic neoplasm"), up to a clause
# mark or a word that starts another phrase ("not A, but B", "no mass and the liver is normal")
_NEGATION_CUE = re.compile(r"(?i)(?:\b(?:no|not|without|neither|nor|never|none|rather\s+than|instead\s+of|"
                           r"other\s+than|excluding|except)\b|n't\b)")
_SCOPE_BREAK = frozenset("""but and which that who is are was were has have had with to because since as while although
though yet so then however whereas be been being shows show seen see there""".split())


def _in_scope(before: str) -> bool:
    """Whether the words just before a mention are inside a negation's scope (at most five words after it, no
    clause mark or phrase-starting word between)."""
    clause = re.split(r"[.;:!?,\n()\-]", before)[-1]
    cue = None
    for cue in _NEGATION_CUE.finditer(clause):
        pass
    if cue is None:
        return False
    words = _WORD.findall(clause[cue.end():])
    return len(words) <= 5 and not any(w.casefold() in _SCOPE_BREAK for w in words)


def _reply_tokens(text: str) -> list[tuple[frozenset[str], tuple[str, ...], int, int, bool]]:
    """Each word of the reply: (the stems it names: itself, its more general terms; its compound parts, start,
    end, whether it denies what it names: "intact" denies a fracture)."""
    out = []
    for m in _WORD.finditer(text):
        w = _fold(m.group(0))
        if w in STOP:
            continue
        s = stem(w)
        names = {s, *(stem(h) for h in HYPERNYMS.get(w, HYPERNYMS.get(WORD_SYNONYMS.get(w, w), ())))}
        out.append((frozenset(names), _parts(w), m.start(), m.end(), False))
        if w in IMPLIED_ABSENCE:
            out.append((frozenset(stem(x) for x in IMPLIED_ABSENCE[w]), (), m.start(), m.end(), True))
    return out


def _acronyms(text: str, initials: tuple[str, ...]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Abbreviations in the reply made of the initials of consecutive option words ("IIH", "PV phase"), with the
    words they stand for."""
    out = []
    for m in _ACRONYM.finditer(text):
        acro = m.group(1)
        for i in range(len(initials) - len(acro) + 1):
            run = initials[i:i + len(acro)]
            if "".join(w[0].upper() for w in run) == acro:
                out.append((m.start(), m.end(), tuple(_fold(w) for w in run)))
                break
    return out


def option_overlap(text: str, options: Sequence[tuple[str, str]], negated: Callable[[str], bool],
                   question: str = "") -> Overlap:
    """The options ``text`` names and rejects by their concepts (module doc). ``options`` are (option text,
    label) pairs; ``negated(before)`` tells whether the words before a mention negate it. ``question``: what the
    options share and the question asks ("enlarged" in "Which kidney is enlarged?") must be named by a reply of
    more than four words ("A renal cyst is present in the left kidney." names no enlarged kidney)."""
    parsed = _options(tuple(options))
    tokens = _reply_tokens(text)
    # what the question asks of its subject: "enlarged" in "Which kidney is enlarged?" (not "kidney": which one is
    # the answer)
    subject = re.search(r"(?i)\b(?:which|what)\s+([^\W\d_]+)", question)
    asked = {stem(w) for w in _WORD.findall(question) if _fold(w) not in STOP
             and not (subject and _fold(w) == _fold(subject.group(1)))}
    long_reply = len(tokens) > 4
    named: list[str] = []
    rejected: list[str] = []

    def polarity(start: int, end: int, denies: bool = False) -> bool:
        """True when the mention at text[start:end] is denied (a negation before it, a rejection after it, or a
        word that denies what it names)."""
        before = text[max(0, start - 200):start]
        return denies or negated(before) or _in_scope(before) or bool(REJECTED_AFTER.match(text[end:end + 120]))

    absent_said = any(_fold(w) in _ABSENCE for w in _WORD.findall(text))
    affirmed: dict[str, list[_Concept]] = {}  # per positive option, its concepts the reply names
    for lab, negative, distinct, concepts, initials in parsed:
        acronyms = _acronyms(text, initials)

        def said(c: _Concept) -> bool | None:
            """None: the reply does not name the concept; True: it names it; False: only denied."""
            hits: list[bool] = []
            for names, parts, s, e, denies in tokens:
                if any(_same(c.stem, n) for n in names) or (c.parts and parts and set(c.parts) <= set(parts)):
                    hits.append(not polarity(s, e, denies))
            if c.parts:  # all parts of a compound, each named ("a stone in the common bile duct")
                found = [[not polarity(s, e, d) for names, _, s, e, d in tokens if any(_same(p, n) for n in names)]
                         for p in c.parts]
                if all(found):
                    hits.append(all(any(f) for f in found))
            for s, e, words in acronyms:
                if c.word in words:
                    hits.append(not polarity(s, e))
            return None if not hits else any(hits)

        if negative:
            # "No free fluid": named by a reply that denies the finding, rejected by one that affirms it
            core = [said(c) for c in concepts]
            if any(x is not None for x in core):
                if all(x is not True for x in core if x is not None) or absent_said:
                    named.append(lab)  # an affirmed finding does not by itself pick the option that has it
            continue
        votes = {c: said(c) for c in concepts}
        affirmed[lab] = [c for c, x in votes.items() if x is True]
        yes = sum(votes[c] is True for c in distinct)
        frame = [c for c in concepts if c not in distinct and any(_same(c.stem, q) for q in asked)]
        if long_reply and frame and all(votes[c] is None for c in frame):
            yes = 0  # the reply speaks of something else than what the question asks of the options
        # half of the distinctive concepts, more than half when there are several ("Fluid in the lungs" is not
        # "Pulmonary edema")
        if distinct and yes and (2 * yes > len(distinct) or len(distinct) == 1):
            named.append(lab)
        elif not yes and any(x is False for x in votes.values()):
            rejected.append(lab)
    # an option is named cleanly only when the reply affirms no concept of another option that it lacks: "The
    # right lung has three lobes and the left lung has two." names "left" and "right" alike
    contested = [other for lab in named for other, cs in affirmed.items() if other != lab and any(
        not any(_same(c.stem, o.stem) for o in next(p[3] for p in parsed if p[0] == lab)) for c in cs)]
    named += [x for x in dict.fromkeys(contested) if x not in named]
    return Overlap(tuple(named), tuple(x for x in rejected if x not in named))
