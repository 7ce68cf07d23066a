"""Choice items: option letters written as lone tokens, the reply's opening or closing letter, and letters
whose written text names another option.

Why a module: a letter is the commonest way to answer a choice item and the easiest to misread (the article "A",
"E. coli", an echoed option list); these rules find the letters a reply commits to and the ones it contradicts.
"""

from __future__ import annotations

import functools
import re

from probe_ui.reading import lexicon
from probe_ui.reading.cleaning import first_sentence, norm
from probe_ui.reading.item import Item

# held-out batch 174: a reply in Greek opens with the option's letter in Greek capitals ("Α. Καλοήθης· οβάλ, με σαφή
# όρια.", A. Benign: oval, well circumscribed): Alpha to Epsilon are the first five letters, in the Latin order
_GREEK_LETTER = re.compile(r"\A[\W_]*([\u0391\u0392\u0393\u0394\u0395])[.):](?=\s+[\W_]*[\u0386-\u03ce])")
_GREEK_TO_LATIN = dict(zip("\u0391\u0392\u0393\u0394\u0395", "ABCDE"))


def greek_letter(text: str) -> str | None:
    """The Latin letter of a Greek capital option letter that opens a reply written in Greek, or None."""
    m = _GREEK_LETTER.match(text)
    if m is None or re.search(r"[A-Za-z]{3}|\b[A-Z]\b", text) \
            or re.search(r"(?m)^[\W_]*[\u0391-\u0395][.):]", text[m.end():]):
        # (a Greek letter in an English reply is a Greek letter, "Α. fumigatus"; a Latin letter elsewhere is read as
        # written, "Α. Καλοήθης; Όχι. ... (B)"; letters that open lines are headings, "Α. Ευρήματα ... Β. Συμπέρασμα":
        # a review)
        return None
    return _GREEK_TO_LATIN[m.group(1)]


_BARE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"[(\[]([A-Z])[)\]]"),  # (B) [B]
    # a line "B." "B:" "B)" "B," or just "B"
    re.compile(r"(?m)^[ \t>\-\u2022|]*([A-Z])(?:[.:),](?![A-Za-z0-9])|[ \t]*$)"),
    # "..., A" / "Great question! A" / "Not A, but B." at the very end
    # (batch 45: after an arrow that closes a chain of findings: "... = raised ICP without a mass → A")
    re.compile(r"(?:\A|[,:;\n.!?]|\s-|->|=>|\u2192)[ \t]*(?:(?i:but|so|thus|hence|therefore|rather|instead|then|"
               r"I\s+think|I'd\s+say|it's|it\s+is|probably|definitely|clearly)[ \t,]+)?[(\[]?([A-Z])[)\]]?[ \t]*"
               r"[.!]?\Z"),
    # "option B"; batch 114: Spanish, Portuguese, Italian ("nevo melanocítico benigno (opción D)")
    re.compile(r"\b(?:option|choice|letter|opci[oó]n|op[cç][aã]o|opzione)[ \t]+[(\[]?([A-Z])\b(?![\-'])",
               re.IGNORECASE),
    re.compile(r"(?<=[.;,!?])[ \t]*([A-Z])[:)](?![\w)])"),  # "... . B: text" (an echoed option list)
    # "A) Normal B) Mildly enlarged": a letter and its bracket in the middle of a line, before a word
    re.compile(r"(?<=[ \t])([A-Z])\)(?=[ \t]+[^\W\d_])"),
    # a list of letters: "Possible answers: A, C." names both
    re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?[ \t]*,[ \t]*(?:(?:and|or)[ \t]+)?[(\[]?([A-Z])[)\]]?(?![\w'])"),
    # "A or B", "B and C", "A/B": both letters count (and make the reply ambiguous)
    re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?[ \t]*(?:/|\bor\b|\band\b)[ \t]*[(\[]?([A-Z])[)\]]?(?![\w'])"),
    # batch 46: "... So D rather than the physician's C.": a closing "so X rather than ..." ("I" skipped: the pronoun)
    re.compile(r"(?:\A|[.!?\n])[ \t]*(?i:so|hence|thus|therefore)[ \t]+[(\[]?([A-Z])[)\]]?[ \t]+"
               r"(?i:rather[ \t]+than)[ \t]+[^.!?\n]{1,40}[.!]?[ \t]*\Z"),
    # batch 122: "There's no such thing as a left middle lobe ... So **A**, the premise is wrong.": a sentence that
    # opens with its conclusion's letter, set off by a comma (an article is never so), and closes the reply in one
    # clause (not "So A, the left kidney, is spared; ...": the letter's own option described)
    re.compile(r"(?:\A|[.!?\n])[ \t]*(?i:so|hence|thus|therefore)[ \t,]+[(\[]?([A-Z])[)\]]?[ \t]*,[ \t]"
               r"[^,;.!?\n]+[.!]?[ \t*_]*\Z"),
    # batch 86: after a comma or a dash, between two lone letters at the very end ("— that's a hemangioma, so B rather
    # than D."); not where an option's own text holds the letter ("Stanford type A", "Hepatitis B": _IN_OPTION_TEXT)
    re.compile(r"(?:[,;:]|[ \t]-|[\u2013\u2014])[ \t]*(?i:so|hence|thus|therefore)[ \t]+[(\[]?([A-Z])[)\]]?[ \t]+"
               r"(?i:rather[ \t]+than)[ \t]+(?:[(\[]?[A-Z][)\]]?)?[ \t]*[.!]?[ \t]*\Z"),  # (the letter may be blanked)
)
_IN_OPTION_TEXT = len(_BARE_PATTERNS) - 1


# a word that names a thing by a letter after it ("Kerley B lines", "Stanford type A", "hepatitis B", "vitamin D")
_LETTER_NAMERS = ("kerley", "stanford", "type", "class", "hepatitis", "vitamin")
_NAMED_BY_LETTER = re.compile(r"(?i)\b(?:" + "|".join(_LETTER_NAMERS) + r")[ \t]+\Z")


def bare_letters(text: str, item: Item) -> tuple[list[str], bool]:
    """Rule 3 for choice items: the distinct in-range letters written as lone tokens, and whether any
    out-of-range letter was seen."""
    found: list[str] = []
    oor = False
    for i, pat in enumerate(_BARE_PATTERNS):
        for m in pat.finditer(text):
            for k, ch in ((k, g) for k, g in enumerate(m.groups(), 1) if g):
                if _NAMED_BY_LETTER.search(text, max(0, m.start(k) - 20), m.start(k)):
                    continue  # batch 88: "... septal (Kerley B) lines": a letter of a name, not an option
                if not ch.isupper():
                    continue
                if ch == "I" and i in (1, 2, 4, 5, 6, 7, 8, 9):
                    continue  # "I." / ", I" / "I or" are the pronoun or a numeral; a lone "I" is the exact rule
                if i == _IN_OPTION_TEXT and ch in item.named_letters:
                    continue  # "..., so A rather than B." when the options are Stanford type A and B
                lab = item.letter(ch)
                if lab is None:
                    oor = True
                elif lab not in found:
                    found.append(lab)
    return found, oor


# the lines holding more than spaces; from line starts only, so a long line of spaces is scanned once, not from each
# of its characters (a 100 kB blank reply took seconds)
_LINES = re.compile(r"(?m)^[^\n]*\S[^\n]*")
_LIST_LINE = re.compile(r"[ \t>\-\u2022*]*[(\[]?([A-Z])[)\]]?(?=[.:)]|[ \t]|$)")


def head_letter(text: str, item: Item) -> str | None:
    """A reply whose first line (under a short heading, if any) is its answer letter ("(B)", "B.", "B: <text>", "A,
    though ...", "(C) 3"), followed by an explanation that may name other options ("(B)\n\nExplanation: (A) would
    ..."): the letter.

    Not when the first line names a second letter ("A, B", "(A) or (C)?"), when the next line opens with a letter
    too (an echoed option list), or when the letter is a word or an abbreviation ("A large mass", "B cells",
    "E. coli"); "I" only in brackets.
    """
    lines = _LINES.finditer(text)
    first = next(lines, None)
    if first is not None and _HEADING.fullmatch(first.group(0)) and not any(
            o.casefold() in first.group(0).casefold() for o in item.options):
        first = next(lines, None)  # held-out batch 133: "### TL;DR\n**D - None of the above.** ...", under its heading
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
        if not re.match(r"[ \t]*$|[.:),;](?![A-Za-z0-9])|[ \t]+[(\-]", rest):
            return None
        # (a lower-case letter only alone, or before a comma and its reason: _lower_before_reason)
        if ch in "Ii" or (ch.islower() and rest.strip(" \t.:),") and not _lower_before_reason(ch, rest, lab, item)):
            return None
        if re.match(r"\.[ \t]+[a-z]", rest) and not _names_option(rest[1:], lab, item):
            return None  # "E. coli", "C. difficile": an abbreviation, unless the option's own text follows
    if any(o != lab for o in bare_letters(line, item)[0]):
        return None
    second = next(lines, None)
    if second is not None and _list_item(second.group(0), lab, item):
        return None
    return lab


# a line that opens with a capital letter set off by a dash, colon or full stop, then a word ("**A — Airway:** ...")
_LETTERED_LINE = re.compile(r"(?m)^[ \t>#*_\-]*([A-Z])[*_]*[ \t]*[\-\u2013\u2014:.)][ \t*_]*([^\W\d_][^\n]*)")


def mnemonic_letters(text: str, item: Item) -> list[tuple[int, int]]:
    """Where the reply's first lettered lines open with the letters A, B, C and on, in turn, each before a word that
    is not its option's text: a mnemonic's headings ("**A — Airway:** ... **B — Breathing:** ... **C —
    Circulation:** ...", held-out batch 145), whose letters are no answers. The spans of those letters."""
    run: list[re.Match[str]] = []
    for m in _LETTERED_LINE.finditer(text):
        if m.group(1) != chr(ord("A") + len(run)):
            break
        run.append(m)
    if len(run) < 3 or any(_names_option(m.group(2), lab, item) for m in run
                           if (lab := item.letter(m.group(1))) is not None):
        return []
    return [m.span(1) for m in run]


# a line that is only a short heading over the answer ("TL;DR", "Bottom line", "Verdict:"), its marks cleaned away
# (words of two letters or more, unlike sureness's headings over advice: a lone letter on the first line is the answer)
_HEADING = re.compile(r"[ \t>#*_]*(?:[A-Za-z][\w;&'\-]+[ \t]*){1,3}:?[ \t*_]*")


def _lower_before_reason(ch: str, rest: str, label: str, item: Item) -> bool:
    """A lower-case letter before a comma and its reason, as LLaVA writes it (batch 113's "c, there is air in the bile
    ducts and a stone in the right lower quadrant"): not the article "a", nor a list of letters ("b, c or d")."""
    return ch != "a" and re.match(r",[ \t]+[^\W\d_]", rest) is not None and not any(
        item.letter(x) not in (None, label) for x in re.findall(r"(?<![\w'])([b-hj-z])(?![\w'])", rest))


_VERB_START = re.compile(r"(?i)(?:is|are|was|were|would|could|does|do|did|has|have|had|seems?|might|may|can|"
                         r"should|will|must|fits?|describes?|shows?)\b")


def _list_item(line: str, head: str, item: Item) -> bool:
    """Whether the line after a head letter is the next item of an echoed option list ("(B) <B's text>",
    "(B) aggravating", "B"), not a sentence of the explanation ("(A) is on the back wall", "(A) mild and (B)
    moderate underestimate ...")."""
    m = _LIST_LINE.match(line)
    lab = item.letter(m.group(1)) if m else None
    if m is None or lab is None or lab == head:
        return False
    rest = line[m.end():]
    if bare_letters(rest, item)[0]:
        return False  # a second letter: a sentence comparing options
    words = rest.strip(" \t.:)-").split()
    return _names_option(rest, lab, item, empty=True, more=False) or (
        0 < len(words) <= 3 and not _VERB_START.match(words[0]))


def _names_option(rest: str, lab: str, item: Item, empty: bool = False, more: bool = True) -> bool:
    """Whether ``rest`` (what follows a letter) is that letter's option text (followed by more words when
    ``more``), or the start of it (3+ characters)."""
    n = norm(rest.lstrip(" \t.:)-"))
    if not n:
        return empty
    opts = [opt for opt, lb in item.option_map if lb == lab]
    return any((n.startswith(opt) if more else n == opt) or (len(n) >= 3 and opt.startswith(n)) for opt in opts)


def tail_letter(text: str, item: Item) -> str | None:
    """A reply whose last line is a lone letter ("(B)", "B.") after an explanation or an echoed option list,
    unless the line before it is a lone letter too ("A\nB")."""
    lines = [m.group(0) for m in _LINES.finditer(text[-4000:])][-2:]
    if len(lines) < 2:
        return None
    last, before = (item.exact(norm(x)) if len(x) <= 12 else _written_line(x, item) for x in lines[::-1])
    return last if last is not None and before is None else None


# a line that is only an option's letter and its own text ("**D. Scabies.**", held-out batch 172, closing key points)
_WRITTEN_LINE = re.compile(r"\A[ \t*_>#\-]*[(\[]?([A-Z])[)\]]?[ \t]*[.:,)\u2013\u2014\-][ \t*_]*([^\n.!?*_]{1,80}?)"
                           r"[ \t]*[.!]?[ \t*_]*\Z")


def _written_line(line: str, item: Item) -> str | None:
    """The label of a line that is only that option's letter and its own text, else None (an echoed option list's
    lines are each so, which :func:`tail_letter` sets aside as it does a run of lone letters)."""
    m = _WRITTEN_LINE.match(line.strip())
    return item.letter(m.group(1)) if m is not None and item.kind == "choice" and letter_and_own_text(
        m, item, item.letter(m.group(1)) or "") else None


def letter_text_conflict(lab: str, rest: str, item: Item) -> bool:
    """Whether the text written after a letter names another option ("A. None of the above." when A is
    "Pneumonia"; "A: Pleural effusion" when pleural effusion is B): the reply contradicts itself."""
    body = first_sentence(rest.lstrip(" \t.,:)-—")).strip()
    if not body or item.kind != "choice" or not item.option_map:
        return False
    if _names_option(body, lab, item) or _names_option(rest, lab, item):
        return False
    n = norm(body)
    own = next((o for o, lb in item.option_map if lb == lab), "")
    for opt, other in item.option_map:
        if other != lab and (n == opt or (n.startswith(opt) and not n[len(opt):len(opt) + 1].isalnum())) \
                and opt not in own:
            return True
    kinds = lexicon.escape_kind_of_reply(body)
    own_kind = lexicon.escape_kind_of_option(own) if own else None
    return bool(kinds) and own_kind not in kinds and len(n.split()) <= 12


# (held-out batch 156: "I'd put it at C, mildly enlarged." when mildly enlarged is B: the letter set off by a comma or a
# spaced dash before another option's words)
_PAIR = re.compile(r"(?<![\w'])[(\[]?([A-Z])[)\]]?(?:[ \t]*[:=),]|\.(?=[ \t])|[ \t]+(?:is|means|stands\s+for)|"
                   r"[ \t]+[\-\u2013\u2014][ \t])[ \t]*([^.;,\n]{1,80})")


#: the words that set letters aside just before them ("not A", "Excluding A, C and D", "Ruling out A and B")
SET_ASIDE_WORDS = r"not|excluding|except|ruling\s+out|rule\s+out|ruled\s+out|rather\s+than|instead\s+of|other\s+than"
# what sets a letter aside just before it ("Not C, ...", "Rather than D, ...", "Ruling out C, ...", "Not option C, ...":
# two hostile reviews)
_SET_ASIDE_BEFORE = re.compile(r"(?i)\b(?:" + SET_ASIDE_WORDS + r"|no|never|unlike|besides|exclude|over|against)"
                               r"(?:[ \t]+(?:options?|choices?|letter))?[ \t(\[]*\Z")


def pair_conflict(text: str, item: Item) -> bool:
    """Whether the reply pairs a letter with another option's text anywhere ("Yes, B is No.", "C. None of the
    above" when C is not that option)."""
    if item.kind != "choice" or not item.option_map:
        return False
    for m in _PAIR.finditer(text[:4000]):
        if m.group(0)[m.end(1) - m.start(0):].lstrip(" \t)]")[:1] in ",-\u2013\u2014" and (
                m.start(1) > m.start() or _SET_ASIDE_BEFORE.search(text[max(0, m.start(1) - 40):m.start(1)])):
            # "Not C - mildly enlarged.", "Rather than D, dermatofibroma": a letter set aside, then the answer; "No for
            # pneumothorax (A), yes for rib fracture": a bracketed letter, then the list goes on
            continue
        if m.start(1) > m.start() and re.match(r"[)\]]\.", text[m.end(1):m.end(1) + 2]):
            continue  # held-out batch 167: "... as **mildly enlarged** (B). Normal (A) would need ...": a bracketed
            # letter closing its sentence, and the next one
        lab = item.letter(m.group(1))
        if lab is not None and m.group(1) not in "AI" and letter_text_conflict(lab, m.group(2), item):
            return True
        if lab is not None and m.group(1) in "AI" and not re.match(r"[ \t]+[a-z]", text[m.end(1):m.end(1) + 3]) \
                and letter_text_conflict(lab, m.group(2), item):
            return True
    return False


def head_rest(text: str) -> str:
    """What follows the letter on the reply's first line ("A. None of the above." → ". None of the above.")."""
    first = next(_LINES.finditer(text), None)
    if first is None:
        return ""
    line = first.group(0).strip(" \t>-\u2022*_`\"'")
    m = re.match(r"([(\[])?([A-Za-z])([)\]])?", line)
    return line[m.end():] if m else ""


# batch 17: an option named by its letter spelled as it sounds ("option bee") or by a Roman numeral ("Option iii");
# rewritten to the letter ("option B") before the rules (an option named by its place, "the second one fits", is
# positions.py's)
_SPELLED = {"bee": 2, "cee": 3, "dee": 4}
_ROMAN_PLACES = {"ii": 2, "iii": 3, "iv": 4, "vi": 6}
_NAMED_OPTION = re.compile(r"(?i)\b(option|choice|letter|answer)([ \t]+(?:is[ \t]+)?)(bee|cee|dee|ii|iii|iv|vi)\b"
                           r"(?![\w'\-])")


def letters_written_out(text: str, item: Item) -> str:
    """Choice items: the reply with options named by a spelled letter or a Roman numeral written as the letter
    ("option bee" → "option B", "Option iii" → "Option C"), so that the letter rules read them; other replies as they
    are."""
    if item.kind != "choice" or not item.option_map:
        return text
    labels = [lb for _, lb in item.option_map]

    def label(n: int) -> str | None:
        lab = labels[n - 1] if 0 < n <= len(labels) else None
        return lab if lab is not None and item.letter(lab) == lab else None

    # options that are Roman numerals themselves ("Grade II", "Stage IV"): "answer IV" names that option's text
    roman = any(re.search(r"(?i)\b(?:i{1,3}|iv|vi{0,3}|ix|x)\b", opt) for opt, _ in item.option_map)

    def spelled(m: re.Match[str]) -> str:
        word = m.group(3).lower()
        if roman and word in _ROMAN_PLACES:
            return m.group(0)
        lab = label(_SPELLED.get(word) or _ROMAN_PLACES[word])
        return m.group(1) + m.group(2) + lab if lab is not None else m.group(0)

    if re.search(r"(?i)\b(?:bee|cee|dee|ii|iii|iv|vi)\b", text):
        text = _NAMED_OPTION.sub(spelled, text)
    return text


# held-out batch 162: LLaVA writes a whole reply in lower case, its closing option letter too ("silvery scaly plaques
# over the elbows, psoriasis a", "... popcorn calcium in it, hamartoma d"), a full stop after it too (held-out batch
# 181: "... shentons line is continuous on each side, so there is no fracture, d.")
_CLOSING_LOWER = re.compile(r"([^\W\d_][\w'\-]*)([ \t]*[,.][ \t]*|[ \t]+)([a-z])[ \t]*\.?[ \t]*\Z")
_OPENS_LOWER = re.compile(r"[^A-Za-z]*[a-z]")
# those words, with or without a comma, before a lower-case reply's closing letter ("vitamin d", "kerley, b"), and the
# everyday ones such a reply writes ("hep c", "group b", "plan b", "grade c")
_NAMING_WORDS = frozenset(_LETTER_NAMERS + ("hep", "group", "grade", "plan", "zone", "segment",
                                             # lettered scales and names (a hostile review of held-out batch 181:
                                             # "erythema migrans, stage b.", "..., weber, b.", "child pugh, b.")
                                             "stage", "ao", "weber", "pugh", "bclc", "acr", "balthazar", "lines",
                                             "kerley's", "haemophilia", "hemophilia", "fisher", "fleischner", "rads",
                                             "ficat", "gustilo", "mallampati", "bosniak", "density", "debakey"))
# words after which a letter set off by a comma is still no answer ("c or, d.", "and not, b.")
_JOINING_WORDS = frozenset("or and not nor than but".split())
# words of place an article follows in a cut ("the tube tip lies just above a", "fracture of the proximal left a")
_PLACE_WORDS = frozenset("above below mid middle under over left right upper lower proximal distal inside outside "
                         "within near behind beside anterior posterior".split())


def closing_lower_letter(text: str, item: Item) -> re.Match[str] | None:
    """The lower-case letter a short reply that opens in lower case closes on (group 3; group 2 is what sets it off),
    where it may be the reply's option letter: one of the item's letters, not after a lone letter ("a, b"), a word
    that names a thing by a letter ("vitamin d", "kerley, b") or, set off by spaces only, a function word ("there
    is a", "so a": an article a cut leaves); "a" set off by spaces only after a word of option A's text, not of
    place. Whether the reply's own words bear it out is the caller's (answers.extract); a letter in prose that opens
    in capitals is left alone (a cut "..., cortical b")."""
    if item.kind != "choice" or not item.option_map:
        return None
    m = _CLOSING_LOWER.search(text)
    if m is None or len(text.split()) > 60 or not _OPENS_LOWER.match(text):
        return None
    word, spaced, lab = m.group(1).casefold(), not m.group(2).strip(), item.letter(m.group(3))
    if lab is None or m.group(3).upper() in item.named_letters or len(word) == 1 \
            or word in _NAMING_WORDS or word in _JOINING_WORDS or (spaced and word in lexicon.FUNCTION_WORDS):
        return None
    if spaced and m.group(3) == "a" and (word in _PLACE_WORDS or not any(
            word in norm(opt).split() for opt, lb in item.option_map if lb == lab)):
        return None  # "a" set off by a space only: after a word of option A's own ("psoriasis a"), not of place
    return m


# batch 70: "Prelim read for the ED: **D** — nothing to localise. ...": a short heading, a colon and a bold letter
# opening the reply, set off from what follows
_BOLD_AFTER_HEADING = re.compile(r"[ \t>*_]*[^\W\d_][^\n*:?]{0,60}:[ \t]*\*\*[ \t]*[(\[]?([A-Z])[)\]]?[ \t]*\*\*"
                                 r"(?=[ \t]*(?:[.,;\-\u2013\u2014(]|\n|\Z))")
_BOLD_LETTER = re.compile(r"\*\*[ \t]*[(\[]?([A-Z])[)\]]?[.:]?[ \t]*\*\*")


def bold_opening_letter(text: str, item: Item) -> str | None:
    """The letter a reply opens with in bold after a short heading ("Prelim read for the ED: **D** — ..."): its
    answer, whatever words of other options its reasons use; None when another bold letter names another option."""
    m = _BOLD_AFTER_HEADING.match(text)
    lab = item.letter(m.group(1)) if m is not None else None
    if lab is None or any(item.letter(b) != lab for b in _BOLD_LETTER.findall(text)):
        return None
    return lab


@functools.lru_cache(maxsize=64)
def lone_letter(label: str) -> re.Pattern[str]:
    """An option's letter standing alone ("B", "(B)", "[B]"), not inside a word; compiled once per label."""
    return re.compile(rf"(?<![\w'])[(\[]?{re.escape(label)}[)\]]?(?![\w'])")


def letter_and_own_text(m: re.Match[str] | None, item: Item, label: str) -> bool:
    """Whether a match of a letter (group 1) and a text (group 2) is ``label``'s letter and its option's own text."""
    return m is not None and item.letter(m.group(1)) == label and any(
        opt == norm(m.group(2)) for opt, lb in item.option_map if lb == label)


# a closing sentence that is an option's letter and its own text ("... rather than leakage around a mass. B, cytotoxic
# edema."): the reply's answer set off at its end
_LETTER_THEN_TEXT = re.compile(r"(?:\A|[.!?\n])[ \t*_>]*[(\[]?([A-Z])[)\]]?[ \t]*[,.:\u2013\u2014\-][ \t]*"
                               r"([^\n.!?*]{1,80}?)[ \t]*[.!]?[ \t*_]*\Z")


def closing_letter_and_text(text: str, item: Item) -> str | None:
    """The label whose letter and own option text are the reply's whole last sentence ("... classic for infestation,
    not inflammation alone. **D. Scabies.**", held-out batch 172), else None."""
    m = _LETTER_THEN_TEXT.search(text.rstrip()) if item.kind == "choice" else None
    if m is None or not m.group(0).startswith((".", "!", "?")):
        return None  # (a line of its own is the last-line rule's, which sets an echoed option list aside)
    lab = item.letter(m.group(1))
    return lab if lab is not None and letter_and_own_text(m, item, lab) else None


def closes_on_letter_and_text(text: str, item: Item, label: str | None) -> bool:
    """Whether the reply's last sentence is ``label``'s letter and its option text, nothing else (held-out batch 168:
    "The low density involves both the grey matter and the underlying white matter ... B, cytotoxic edema." is no
    general remark)."""
    return label is not None and letter_and_own_text(_LETTER_THEN_TEXT.search(text.rstrip()), item, label)
