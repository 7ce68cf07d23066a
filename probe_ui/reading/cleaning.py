"""Cleaning a reply before the reading rules run, and the comparison forms of its words.

Why a module: every rule of :func:`probe_ui.reading.answers.extract` compares the reply with labels and option texts in
the same forms (folded quotes, case, single spaces, outer punctuation dropped), finds labels as whole words, and asks
whether the words before a mention negate it; these primitives are that common ground.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from probe_ui.reading.lexicon import fold_quotes, strip_debris


def _normalise_quotes(text: str) -> str:
    """Typographic quotes and dashes to ASCII, and NFKC (:func:`probe_ui.reading.lexicon.fold_quotes`)."""
    return fold_quotes(text)


# a list item whose option is struck through ("- ~~C. Hypertensive retinopathy~~: no AV nicking"): the line goes
_STRUCK_OPTION = re.compile(r"(?m)^[ \t]*[-*\u2022][ \t]+~~[ \t]*\(?[A-Z][.):][^~\n]{0,200}~~[^\n]*\n?")


#: a reply longer than this is looked at for loops (no reply of the corpus's 24,000 is a quarter as long)
LOOPED_CHARS = 10_000
#: a unit of up to 32 characters said 50 times or more in a row: a model caught in a loop
_LOOP = re.compile(r"(.{1,32}?)\1{49,}", re.DOTALL)
#: how many turns of a loop are read
_LOOP_TURNS = 50


def collapse_loops(text: str) -> str:
    """A very long reply with its loops cut to their first 50 turns ("it is it is it is ... it is B", "\\n" x 100,000
    then "A:"): what it says reads the same, at a fiftieth of the cost for each rule that scans the whole reply
    (perf/limits.py: degenerate replies of 100 kB read in over a second before). Shorter replies stand as written."""
    if len(text) <= LOOPED_CHARS:
        return text
    return _LOOP.sub(lambda m: m.group(1) * _LOOP_TURNS, text)


def unmarked(text: str) -> str:
    """The text without markdown's bold and emphasis marks ("the CT image is **low-resolution**")."""
    if "*" not in text and "__" not in text:
        return text
    t = text.replace("**", "").replace("__", "")
    return re.sub(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])", "", t)  # *emphasis*


def clean_reply(text: str) -> str:
    """Strip markdown emphasis/headings and typographic quotes so "**Answer: B**" reads like "Answer: B"."""
    t = strip_debris(_normalise_quotes(text))
    if "~~" in t:
        # batch 29: "- ~~C. Hypertensive retinopathy~~: no AV nicking": an option struck through is set aside, its
        # letter is no answer
        t = _STRUCK_OPTION.sub("", t)
    t = unmarked(t)
    if "#" in t:
        # batch 80: "### Answer\nNo": a heading that names the answer's section, over a short line that is the answer,
        # heads it as "Answer:" does (not over a sentence, "### Answer\n**Yes**, the mass is on the right ...")
        t = re.sub(r"(?im)^[ \t]*#{1,6}[ \t]*((?:final[ \t]+)?answer)[ \t]*(?=\n[ \t]*+(?:\S++[ \t]*+){1,3}$)",
                   r"\1:", t)
    t = re.sub(r"(?m)^[ \t]*#{1,6}[ \t]*", "", t)  # headings
    for pat, repl in _PRIMED:
        t = pat.sub(repl, t)
    if "</" in t:
        t = _xml_fields(t)
    if "$" in t or "\\(" in t:
        t = _LATEX_LETTER.sub(r"\1", t)
    if "[" in t:
        t = _BRACKET_HEADING.sub(lambda m: m.group(1) + m.group(2) + ": ", t)
        t = _BANNER.sub(_banner, t)
    if "period" in t.lower() or "stop" in t.lower() or "dictation" in t.lower():
        t = _dictated(t)
    if "but" in t:
        t = _ANYTHING_BUT.sub(_anything_but, t)
    low = t.lower()
    if "far from" in low or "hardly" in low or "nowhere near" in low:
        t = _FAR_FROM.sub(_far_from, t)
    if "nothing" in low and "about" in low:
        t = _NOTHING_ABOUT.sub(lambda m: m.group(1) + ("Not " if m.group(2)[0] == "N" else "not ") + m.group(3), t)
        t = _NOTHING_ABOUT_IS.sub(lambda m: m.group(1) + ("Not " if m.group(2)[0] == "N" else "not "), t)
    if " of " in low and ("free" in low or "devoid" in low):
        t = _NOT_FREE_OF.sub(r"has \1 present", t)
        t = _FREE_OF.sub(r"\1 without", t)
    if "nil" in low:
        t = _NIL.sub(lambda m: "No" if m.group(0)[0].isupper() else "no", t)
        t = _NIL_AFTER.sub(r"\1none", t)
    if "phase" in low and ("past" in low or "beyond" in low):
        t = _PAST_PHASE.sub(_past_phase, t)
    if "if " in low or "suppos" in low:
        # held-out batch 125: "- If I say **no**, it implies there's no fluid on the left — and there is a small
        # amount.": an answer supposed in order to weigh it is no answer given (the clause is blanked, its length kept)
        t = blank_matches(_SUPPOSED_ANSWER, t)
    if _QUESTION_LINE.match(t) and not _OPTION_B_LINE.search(t):
        # batch 14: a reply laid out as question and answer ("Q: Which kidney ...?\nA: The right kidney."): its "A:"
        # opens the answer, it is not option A (unless a "B:" line follows: the options echoed)
        t = _ANSWER_LINE.sub(r"\1Answer:", t)
    return t


# "If I say no", "Suppose I pick B", "if we were to answer yes": the supposing clause up to its mark (not "If I had to
# choose, I'd say B", which answers)
# (present or future only: "If I said yes, that was a slip - no." corrects an answer given; not past an error owned)
_SUPPOSED_ANSWER = re.compile(r"(?i)\b(?:if|unless|suppose|supposing)[ \t]+(?:I|we|you|one)[ \t]+"
                              r"(?:(?:were|was)[ \t]+to[ \t]+)?(?:say|answer|pick|choose|go[ \t]+with|call[ \t]+it)"
                              r"[ \t]+[^,;:.!?\n\u2013\u2014]{1,40}"
                              # (and what it then says follows: ", it implies the effusion is on the left", up to a mark
                              # or a dash)
                              r"(?:,[ \t]*(?:it|that|this|then)\b(?:(?![ \t]-[ \t])[^.;:!?\n\u2013\u2014])*)?"
                              r"(?<!\bslip)(?<!\berror)(?<!\btypo)(?<!\bmistake)")


# batch 22: "Anything but stable: the sac has roughly doubled" denies what follows, as "Not stable" does; not after a
# negation in its clause ("I don't see anything but a small cyst" says only a small cyst), nor "nothing but"
_ANYTHING_BUT = re.compile(r"(?i)\banything[ \t]+but\b")
_NEGATED_BEFORE = re.compile(r"(?i)\b(?:not|no|never|without|hardly|barely|scarcely|cannot)\b|n't\b")


def _anything_but(m: re.Match[str]) -> str:
    before = re.split(r"[.;:!?,\n]", m.string[max(0, m.start() - 60):m.start()])[-1]
    if _NEGATED_BEFORE.search(before):
        return m.group(0)
    return "Not" if m.group(0)[0] == "A" else "not"


# batch 23: "Far from benign — spiculated margins ...", "Hardly stable: it has grown ..." deny what follows as "Not
# X" does: opening the reply or a sentence, before a short phrase (one to three words, no article) that ends at a mark;
# not "far from the hilum", "hardly any change", nor "barely", which grants a little ("barely displaced")
# batch 27: "Nowhere near stable: the sac has roughly doubled" as well
_FAR_FROM = re.compile(r"(?i)(?:\A|(?<=[.!?;\n]))([ \t\"'*_>\-]*)(far[ \t]+from|hardly|nowhere[ \t]+near)(?=[ \t]+"
                       r"(?!(?:the|a|an|any|anything|ever|at|in|on|to|it|this|that|being)\b)[^\W\d_][\w\-]*"
                       r"(?:[ \t]+[^\W\d_][\w\-]*){0,2}[ \t]*(?:[:;,.!\u2013\u2014]|[ \t]-|\Z))")

# the corpus read with held-out batch 133's fixes: "Nothing about this lesion looks malignant.", "Nothing about it is
# malignant." deny the word after the verb, as "Not malignant." does (what it suggests is weighed as a denied option:
# the negations of batch 49)
_NOTHING_ABOUT_IS = re.compile(r"(?:\A|(?<=[.!?;\n]))([ \t\"'*_>\-]*)([Nn]othing)[ \t]+about[ \t]+(?:it|this|that|them|"
                               r"(?:the|this|that|these)[ \t]+[\w\-]+)[ \t]+(?:is|looks|seems|appears|was)"
                               r"(?:[ \t]+(?:at[ \t]+all|remotely|even|particularly))?[ \t]+"
                               # (not "Nothing about this lesion is other than benign.": a hostile review of 397d1cb)
                               r"(?!(?:other|unlike|less|more|anything|different|except|but)\b)")
# batch 27: "Nothing cystic about it — it's a uniformly hypoechoic nodule" denies the word as "Not cystic" does: opening
# the reply or a sentence, one word before "about it/this/that/them" (not "Nothing about it is cystic", "nothing
# to say about it", nor "nothing but")
_NOTHING_ABOUT = re.compile(r"(?:\A|(?<=[.!?;\n]))([ \t\"'*_>\-]*)([Nn]othing)[ \t]+"
                            r"(?!(?:but|about|to|else|more|of|in|on|at)\b)([^\W\d_][\w\-]*)(?=[ \t]+about[ \t]+"
                            r"(?:it|this|that|them|the[ \t]+\w+)\b)[ \t]+about[ \t]+"
                            r"(?:it|this|that|them|the[ \t]+\w+)\b")


def _far_from(m: re.Match[str]) -> str:
    return m.group(1) + ("Not" if m.group(2)[0].isupper() else "not")


# batch 23: "free of fluid" is without it, and "not free of fluid" has it ("Morison's pouch is not free of fluid —
# there's a thin anechoic stripe ..."), a double negation read as its finding present; "free of" only after a verb
# of being (not "free-floating", "fluid-free" nor "free fluid")
_NOT_FREE_OF = re.compile(r"(?i)\b(?:(?:is|are|was|were|remains?|appears?|looks?|seems?)[ \t]+not|"
                          r"(?:is|are|was|were)n't)[ \t]+"
                          r"(?:entirely[ \t]+|completely[ \t]+)?(?:free|devoid)[ \t]+of[ \t]+(?:the[ \t]+|any[ \t]+)?"
                          r"((?:free[ \t]+)?[^\W\d_][\w\-]*)")
_FREE_OF = re.compile(r"(?i)(?<!\bnot[ \t])\b(is|are|was|were|remains?|appears?|looks?|seems?)[ \t]+"
                      r"(?:entirely[ \t]+|completely[ \t]+)?(?:free|devoid)[ \t]+of\b")
# batch 24: "Nil effusion — both costophrenic angles are sharp.": the clinician's "nil" before what it names is "no"
# (not "nil by mouth", nor "nil" alone, nor a summary that names nothing: "Nil acute findings.", "nil significant
# abnormality", which answer no particular question)
_NIL = re.compile(r"(?i)\bnil\b(?=[ \t]+(?!by\b|per\b|of\b|and\b|or\b|else\b|(?:[^\W\d_]+[ \t]+)?(?:findings?|"
                  r"abnormalit\w*|patholog\w*|concerns?|changes?|issues?|remarkable|significant|of\s+note)\b)[^\W\d_])")
# ... and "Effusion: nil." is "Effusion: none." (a "nil" that ends its clause after a colon or dash)
_NIL_AFTER = re.compile(r"(?i)(?<=[:\u2013\u2014\-])([ \t]*)\bnil\b(?=[ \t]*(?:[.;,!\n]|\Z))")
# batch 23: "past the arterial phase, portal and hepatic veins are full of contrast": a phase gone by is not the
# phase of the image (not after a negation in its clause: "the bolus is not yet past the arterial phase")
_PAST_PHASE = re.compile(r"(?i)\b(?:well[ \t]+)?(?:past|beyond)[ \t]+(the[ \t]+(?:[^\W\d_]+[ \t]+)?phase)\b")


def _past_phase(m: re.Match[str]) -> str:
    before = re.split(r"[.;:!?,\n]", m.string[max(0, m.start() - 60):m.start()])[-1]
    if _NEGATED_BEFORE.search(before):
        return m.group(0)
    return ("Not " if m.group(0)[0].isupper() or not before.strip() and m.start() == 0 else "not ") + m.group(1)


# batch 17: a dictated report with its punctuation spoken ("... lungs clear period no pneumothorax or effusion period
# impression normal chest period end of dictation")
_SPOKEN_MARK = re.compile(r"(?i)[ \t]+(?:(period|full[ \t]+stop)|(comma)|(new[ \t]+(?:paragraph|line)|"
                          r"next[ \t]+paragraph))\b[ \t]*")
_END_OF_DICTATION = re.compile(r"(?i)[ \t.]*\bend[ \t]+of[ \t]+(?:dictation|report)\b[ \t.]*\Z")
_DICTATED_HEADING = re.compile(r"(?im)(^|[.\n][ \t]*)(comparison|technique|history|indication|clinical[ \t]+history|"
                               r"findings|impression|conclusion)[ \t]+(?=\S)")


def _dictated(text: str) -> str:
    """A dictated report written out with its punctuation spoken ("period", "full stop", "comma", "new paragraph")
    and no written sentence marks: the marks written, its closing "end of dictation" dropped and its headings given
    their colon ("impression normal chest." → "impression: normal chest."). Any other reply is returned as it is."""
    if re.search(r"[.;!?\n]", _END_OF_DICTATION.sub("", text).rstrip(". ")) or \
            len(_SPOKEN_MARK.findall(text)) < 2:
        return text
    t = _END_OF_DICTATION.sub("", text)
    t = _SPOKEN_MARK.sub(lambda m: ". " if m.group(1) else ", " if m.group(2) else "\n", t)
    return _DICTATED_HEADING.sub(lambda m: m.group(1) + m.group(2) + ": ", t).strip()


#: a line that restates the question ("## Is there a nodule in the right upper lobe?", "Child or adult?") before the
#: answer (batches 116, 118), and the blank lines after it
RESTATED_QUESTION = re.compile(r"[ \t*_#>]*[^\n]{1,200}\?[ \t*_]*\n\s*")
# a "### Question" heading over it
_QUESTION_HEADING = re.compile(r"[ \t*_#>]*question[ \t*_:]*\n\s*", re.IGNORECASE)


def after_restated_question(text: str) -> str:
    """The reply after an opening line that restates the question, with any "### Question" heading over it (batch
    118: "## Is There a Fracture?\n\n**Absolutely, without question.**"); the reply as it is if it opens otherwise."""
    heading = _QUESTION_HEADING.match(text)
    m = RESTATED_QUESTION.match(text, heading.end() if heading else 0)
    return text[m.end():] if m and text[m.end():].strip() else text


# a reply that opens with a "Q:" line, and the "A:" line that answers it
_QUESTION_LINE = re.compile(r"[ \t>]*Q[ \t]*:[^\n]*\?[ \t]*\n")
_ANSWER_LINE = re.compile(r"(?m)^([ \t>]*)A[ \t]*:(?=[ \t]*\S)")
_OPTION_B_LINE = re.compile(r"(?m)^[ \t>\-*]*\(?B[ \t]*[:.)]")


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

# batch 23: a letter set in LaTeX ("The correct option is $\\mathrm{D}$: ...", "\\(\\text{B}\\)") is the letter
_LATEX_LETTER = re.compile(r"(?:\$|\\\()[ \t]*\\(?:mathrm|text|textbf|mathbf|mathit|textrm|mathsf)[ \t]*"
                           r"\{[ \t]*([A-Za-z])[ \t]*\}[ \t]*(?:\$|\\\))")
# batch 23: a bracketed heading opening its line ("[Reasoning] ...", "[Answer] red") heads what follows as "Answer:"
# does
_BRACKET_HEADING = re.compile(r"(?im)^([ \t]*)\[(answer|final[ \t]+answer|reasoning|rationale|explanation|analysis|"
                              r"conclusion|verdict)\][ \t]*:?[ \t]*(?=\S)")
# batch 44: a deployment's banner, a first line wholly in square brackets ("[Radiology AI Gateway · draft — requires
# radiologist sign-off]", "[AI-assisted draft — verify before clinical use]"), says nothing of the answer: it goes,
# unless it holds an answer word or a lone capital letter ("[Final answer: B]", "[Yes — see below]")
_BANNER = re.compile(r"\A[ \t]*\[([^\[\]\n]{8,200})\][ \t]*\n+(?=[ \t]*\S)")
_BANNER_ANSWER = re.compile(r"(?i)\banswer\b|\b(?:yes|no)\b|(?-i:\b[A-E]\b)")


def _banner(m: re.Match[str]) -> str:
    inner = m.group(1)
    if len(inner.split()) < 3 or _BANNER_ANSWER.search(inner):
        return m.group(0)
    return ""


# batch 19: an answer written as XML ("<answer><choice>D</choice><reason>...</reason></answer>"; held-out batch 191:
# "<reasoning>...</reasoning>\n<final>C</final>"): a field that holds the answer becomes "Answer: D.", one that holds
# the reasoning "Reason: ...", and the wrapper tags go
_XML_ANSWER = re.compile(r"(?i)<(answer|final(?:[_\-]?answer)?|choice|option|letter|selection|selected|label|verdict)>"
                         r"[ \t]*([^<>\n]{1,80}?)[ \t]*</\1>")
_XML_REASON = re.compile(r"(?i)<(reason|reasoning|rationale|explanation|justification)>([^<>]{0,2000}?)</\1>")
_XML_WRAPPER = re.compile(r"(?i)</?(?:answer|final[_\-]?answer|response|output|result)>")


def _xml_fields(text: str) -> str:
    """A reply with XML answer fields written out ("<choice>D</choice>" → "Answer: D."); others as they are."""
    if len({m.group(2).strip(" .").casefold() for m in _XML_ANSWER.finditer(text)}) > 1:
        return text  # "<choice>A</choice><choice>C</choice>": two answers, none read
    t = _XML_ANSWER.sub(lambda m: " Answer: " + m.group(2).rstrip(" .") + ". ", text)
    t = _XML_REASON.sub(lambda m: " Reason: " + m.group(2).strip() + " ", t)
    if t == text:
        return text
    return re.sub(r"[ \t]{2,}", " ", _XML_WRAPPER.sub(" ", t)).strip()


# "N/A", "n/a", "N.A." mean "not applicable" (a non-answer), never option A; masked before letters are read
# (unless an option's own text is N/A, which the option-text rules then read)
NOT_APPLICABLE = re.compile(r"(?<![\w/])[Nn][ \t]?/[ \t]?[Aa](?![\w/])|(?<![\w.])[Nn]\.[ \t]?[Aa]\.?(?!\w)")
NA_OPTION = frozenset({"n/a", "na", "n.a", "n. a", "not applicable"})


def norm(s: str) -> str:
    """Comparison form of an option text / label: case-folded, single-spaced, outer punctuation removed."""
    s = _normalise_quotes(s).casefold()
    s = s.replace("**", "").replace("`", "")
    s = re.sub(r"\s+", " ", s).strip()
    s = s.strip(" \t\"'*_")
    s = re.sub(r"(?<![\s.!;,:])[\s.!;,:]+$", "", s).strip(" \t\"'*_")  # lookbehind: linear on long runs
    if len(s) >= 2 and (s[0], s[-1]) in (("(", ")"), ("[", "]")) and "(" not in s[1:-1] and ")" not in s[1:-1]:
        s = s[1:-1].strip()
    return s


def sentence_lead(fill: str = r"[\W_]", marks: str = r".;!?\n") -> str:
    r"""A regex fragment for "at the start of the text, or after one of ``marks``, then a little ``fill`` (bullets,
    emphasis, quotes, spaces)" that reads in linear time. Written ``(?:\A|[.\n])[\W_]*``, it was tried at every
    mark of a run of marks (". . . ." or 20,000 newlines) and scanned the rest of the run each time, and a word
    pattern after it that may start with a hyphen re-scanned a run of hyphens at every length of the fill: seconds
    to minutes on a degenerate reply, 3.5 s on 4 kB of ". ". Here the fill stops at the next mark, so a match the old
    form found still exists, starting at the last mark before what follows (it may start later, which only its span
    shows), and it is at most 40 characters long, more than any sentence's opening holds."""
    return rf"(?:\A|[{marks}])(?:(?![{marks}]){fill}){{0,40}}"


@functools.lru_cache(maxsize=8192)
def pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern built from an item's words (an option's text, the question's word), compiled once. ``re`` keeps
    only the last 512 patterns it compiled, and the reader builds about 2,200 different ones over the reply corpus,
    so each was compiled again and again: 31,579 compilations, a tenth of the reader's time."""
    return re.compile(source, flags)


def spelled(text: str, between: str = r"[\s\-]*") -> str:
    """The pattern of an option's words in order with ``between`` them (any spaces or hyphens by default, so
    "non proliferative" is "Non-proliferative"): one spelling rule for every place that looks for an option's text."""
    return between.join(re.escape(w) for w in text.split())


@functools.lru_cache(maxsize=2048)
def phrase_regex(label: str, suffix: bool = False) -> re.Pattern[str]:
    """Whole-word regex for a label; words of a phrase may be separated by spaces or hyphens."""
    words = [re.escape(w) for w in norm(label).split()]
    body = r"[\s\-]+".join(words)
    suf = r"(?:ly)?" if suffix and len(words) == 1 and words[0].isalpha() else ""
    return re.compile(r"(?<![\w\-])" + body + suf + r"(?![\w\-])", re.IGNORECASE)


def nothing_suggests(that: bool = False) -> str:
    """Batch 21: what nothing in the case points to ("Nothing suggests aggravation", "nothing to suggest an aggravating
    ...", "nothing here indicates ..."), the one form of it that the negation test, a letter's denial and a yes/no
    subject's denial (subject.py) read. Not "nothing else suggests X", which leaves one thing that does (a hostile
    review); "nothing that suggests X" only where ``that`` (a subject's denial, which also asks that X end its clause:
    not "nothing that suggests X better than Y, and Y is here")."""
    return (r"\bnothing\s+(?:(?:here|at\s+all)\s+)?(?:to\s+" + (r"|that\s+" if that else "") + r")?"
            r"(?:suggests?|indicates?|supports?|favou?rs?|points?\s+to)")


_NOTHING_SUGGESTS = nothing_suggests()
_NEGATION_BEFORE = re.compile(
    r"(?:\b(?:no|not|without|absent|absence\s+of|neither|nor|rather\s+than|instead\s+of|excluding|exclude[sd]?|"
    r"ruled?\s+out|unlikely|isn't|aren't|wasn't|doesn't|don't|never)\s+(?:\w+\s+){0,2}|n't\s+(?:\w+\s+){0,2}"
    # batch 37: "It cannot be the arterial phase, ...", as "it can't be the ..."
    r"|\bcan(?:not|\s+not)\s+be\s+(?:\w+\s+)?"
    # batch 117: "It's unlikely to be a seborrheic keratosis — there are no milia-like cysts ..."
    # (not "not unlikely", "far from unlikely": a hostile review of 5f68aa0)
    r"|(?<!\bnot\s)(?<!n't\s)(?<!\bfrom\s)\b(?:unlikely|not\s+likely)\s+to\s+be\s+(?:an?\s+|the\s+)?"
    rf"|{_NOTHING_SUGGESTS}\s+(?:\w+\s+)?"
    # batch 49: "Nothing about it suggests malignancy: ...", as "nothing about it looks malignant" (batch 32)
    # (the corpus read with held-out batch 133's fixes: "Nothing about this lesion looks malignant.", "Nothing about it
    # is malignant.")
    r"|\bnothing\s+about\s+(?:it|this|them|(?:the|this|that|these)\s+[\w\-]+)\s+(?:suggests?|indicates?|points?\s+to)\s+"
    # batch 32: "nothing about it looks malignant", "nothing here seems abnormal"
    r"|\bnothing\s+(?:about\s+(?:it|this|them|(?:the|this|that|these)\s+[\w\-]+)\s+|here\s+)?"
    r"(?:looks?|seems?|appears?|is|was)\s+(?:\w+\s+)?"
    # batch 46: "I see nothing malignant-looking here", "Nothing malignant.": "nothing" just before the mention
    r"|\bnothing\s+"
    # held-out batch 168: "A normal duct argues against choledocholithiasis" (what the findings count against; not
    # "nothing argues against X", "doesn't argue against X")
    r"|(?<!\bnothing\s)(?<!\bnot\s)(?<!n't\s)\b(?:argues?|arguing|argued|speaks?|speaking|militates?|militating)\s+"
    r"against\s+(?:an?\s+|the\s+)?"
    # batch 49: "It doesn't look like a basal cell carcinoma to me", "it does not seem like a melanoma"
    r"|(?:n't|\bnot)\s+(?:look|seem)\s+like\s+(?:an?\s+|the\s+)?)$",
    re.IGNORECASE,
)


_NEGATION_END = re.compile(
    r"(?:no|not|without|absent|of|neither|nor|than|excluding|exclude[sd]?|out|unlikely|n't|never|suggests?|"
    r"indicates?|supports?|favou?rs?|to|nothing|here|else|all|looks?|seems?|appears?|like|against)$", re.IGNORECASE
)


# what nothing in the case points to, its letter then its words ("Nothing here points to B, tinea corporis.")
_NOTHING_POINTS_TO_LETTER = re.compile(
    rf"(?i)(?:{_NOTHING_SUGGESTS}|\bnothing\s+(?:(?:here|else|at\s+all)\s+)?(?:tips|tilts|swings)\s+(?:it|the\s+balance)\s+"
    r"(?:to|towards?))\s+\(?[a-z]\)?[ \t]*"
    # (and the option's first words, for a mention of its later ones; not a new clause: "..., but tinea corporis")
    r"[,:\u2013\u2014\-][ \t]*(?:(?!(?:but|and|or|so|which|while|whereas|though|although|yet|it|this|that|"
    r"instead|rather)\b)[a-z\-]+[ \t]+){0,2}\Z")


# held-out batch 147: "There's nothing here that I'd call non-proliferative: ...", "nothing I would describe as
# malignant", "nothing I'd call proliferative or non-proliferative" (each option of the list): what the reply would
# call nothing in the image (not "nothing else I'd call proliferative", which says one thing is)
NOTHING_CALLED = re.compile(
    r"(?i)\bnothing\s+(?:(?:here|at\s+all|in\s+(?:this|the)\s+[\w\-]+(?:\s+[\w\-]+)?)\s+)?(?:that\s+|which\s+)?"
    r"(?:I'd|I\s+would|I\s+could|I\s+can|one\s+would|you'd|you\s+would)\s+(?:call|describe\s+as|label\s+as|"
    r"classify\s+as|class\s+as|regard\s+as|consider)\s+(?:it\s+)?"
    r"(?:[^.;:!?\n]{1,60}?(?:,?\s+(?:or|nor)|,?\s+let\s+alone)\s+)?(?:an?\s+|the\s+)?(?:[a-z]+ly\s+)?"
    r"[\"'`*_(]*\Z")


def is_negated(before: str) -> bool:
    """True when the words just before a mention negate it ("not upside down", "no pneumothorax")."""
    if _NOTHING_POINTS_TO_LETTER.search(before[-80:]) or NOTHING_CALLED.search(before[-80:]):
        return True
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


SENTENCE_END = re.compile(r"[.!?;\n]")


def mask_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with the given spans blanked (same length), so later rules do not read what they hold."""
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def blank_matches(pattern: re.Pattern[str], text: str,
                  keep: Callable[[re.Match[str]], object] | None = None) -> str:
    """``text`` with each match of ``pattern`` blanked (same length, as :func:`mask_spans`), but those ``keep``
    holds on: the one way a rule sets aside what a clause says (an option conceded, a mimic excluded, another
    option's usual site) before a later rule reads the rest."""
    return pattern.sub(lambda m: m.group(0) if keep is not None and keep(m) else " " * len(m.group(0)), text)


WORD = re.compile(r"[^\W\d_][\w\-]*")


def first_sentence(t: str) -> str:
    m = re.search(r"[.;!?\n]", t)
    return t[:m.start()] if m else t


def sentence_before(text: str, at: int, marks: str = ".!?\n") -> str:
    """What ``text`` says from the start of the sentence that ``at`` stands in up to ``at``: the words a clause
    found at ``at`` is said of (a mimic, a measure said unavailable)."""
    return text[max(text.rfind(x, 0, at) for x in marks) + 1:at]
