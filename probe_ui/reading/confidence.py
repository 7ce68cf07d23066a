"""The confidence a reply states in its own answer ("Confidence: 90%"), read as a number from 0 to 1 (issue 44).

Why a module: a probe may ask the model how sure it is (:data:`probe_ui.prompts.CONFIDENCE_INSTRUCTION`, appended to
the prompt), and the calibration metrics (:mod:`probe_ui.metrics.calibration`) compare what it says with how often it
is right. The reading is separate from the answer's (:func:`probe_ui.reading.answers.extract` reads "The answer is A.
Confidence: 90%" as A and never looks at the number); it is cheap and computed on the fly where the scored-answer
table is built (:func:`probe_ui.scoring.reparse`), not cached in the store.

What is read, each pattern with an example (:data:`PATTERNS`):

- a stated confidence, "confidence" or "certainty" followed by a number: "Confidence: 90%", "confidence: 0.9",
  "Confidence - 90 / 100", "(confidence 85%)", "**Confidence:** 85 %", "Confidence (0-100): 70", "my confidence
  in this answer is 8/10", "Confidence: high (90%)", "Confidence: 80-90%" (a range: its middle);
- a confident phrase, a percentage followed by "confident", "sure" or "certain", or by "confidence" that is not a
  confidence interval: "I am 90% confident", "90 percent sure", "with 95% confidence".

The last stated confidence wins (a reply that corrects itself, "Confidence: 70% ... Final confidence: 60%", means
60 %); a confident phrase is read only where the reply states none. A number is a percentage when it has ``%``,
"percent" or "/ 100", a fraction when it is at most 1 without a unit ("0.9", "1"), out of ten with "/ 10", out of
five with "/ 5" (a number before any other "/ N" states none), and otherwise a percentage (the instruction asks for
0-100); anything outside 0-100 % is not a confidence. No other number is ever read: "a 90% stenosis", "size 90 mm"
and "the 95% confidence interval" state no confidence. Words alone ("high confidence") are not read as a number.

A provider's own probability of the chosen answer (OpenAI-compatible ``logprobs``, vLLM, ``hf/`` option
probabilities) is another column, :data:`TOKEN_CONFIDENCE`, filled by the provider wiring where it exists; the
metrics prefer it where a row has one (:func:`used_confidence`).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy and pandas are imported where a table is read: the reader imports this module without them
    import numpy as np
    import pandas as pd

#: the scored-answer table's column of the stated confidence (0-1, None where the reply states none)
CONFIDENCE = "confidence"
#: the column a provider fills with its own probability of the chosen answer (0-1); preferred where present
TOKEN_CONFIDENCE = "token_confidence"

_NUM = r"(?<![\d.])(?:\d{1,3}(?:\.\d+)?|\.\d+)(?!\d)"
# (a reader check of 2026-12-06: "Confidence: 1/5." read as 100 %; now out of five, and a number before any other
# "/ N" or "out of N" states none)
_UNIT = r"\s*(?:%|per\s?cent\b|/\s*100\b|out\s+of\s+100\b|/\s*10\b|out\s+of\s+10\b|/\s*5\b|out\s+of\s+5\b)"
#: a number with its unit, or a range of two ("80-90%", "80 to 90 percent"); groups a, ua, b, ub
_OTHER_SCALE = r"(?!\s*(?:/|out\s+of\b)\s*\d)"
_VALUE = (rf"(?P<a>{_NUM})(?P<ua>{_UNIT})?{_OTHER_SCALE}"
          rf"(?:\s*(?:-|–|—|to)\s*(?P<b>{_NUM})(?P<ub>{_UNIT})?{_OTHER_SCALE})?")
_AFTER_LABEL = (r"\s*(?:\([^()\n]{0,20}\))?[\s*_]*(?P<sep>[:=\-–—]|\bis\b|\bof\b|\bat\b)?[\s*_]*"
                r"(?:(?:about|around|approximately|roughly|~|≈)\s*)?"
                r"(?:(?:very\s+)?(?:high|moderate|medium|low|fair)\s*[(,:\-–]?\s*)?" + _VALUE)

#: (kind, pattern, an example it reads) in the order they are preferred: the first kind found in a reply wins, and
#: within it the last match. The patterns read the lower-cased reply; each starts with its word, which Python's
#: regular expressions find fast (a reply is read in a few microseconds)
PATTERNS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("stated", re.compile(
        r"confidence(?:\s+(?:level|score|rating|estimate))?"
        r"(?:\s+in\s+(?:this|my|the)\s+(?:answer|assessment|diagnosis|reading|choice))?" + _AFTER_LABEL),
     "Confidence: 90%"),
    ("stated", re.compile(r"certainty(?=[\s*_]*[:=])" + _AFTER_LABEL), "Certainty: 80%"),
    ("phrase", re.compile(
        rf"(?<!not )(?<!n't )(?P<a>{_NUM})(?P<ua>\s*(?:%|per\s?cent\b))"
        r"\s+(?:(?:confident|sure|certain)\b|(?:confidence|certainty)\b(?!\s+(?:interval|limit|band|level)s?\b))"),
     "I am 90% confident"),
)

#: the words a reply that states a confidence holds (most replies hold none: they skip the patterns)
_WORDS = ("confiden", "certain", "sure")
#: what may follow a bare number written after the label without a separator ("(confidence 85)", "confidence 85."),
#: so that "with confidence 2 lesions are seen" reads nothing
_CLOSES = re.compile(r"\s*(?:[)\].,;:!?]|$)", re.MULTILINE)


_SCALES = {"%": 100.0, "percent": 100.0, "/100": 100.0, "outof100": 100.0, "/10": 10.0, "outof10": 10.0, "/5": 5.0,
           "outof5": 5.0}


def _scaled(num: str, unit: str | None) -> float | None:
    """One number with its unit as a share of 1, or None when it is no confidence (over 100 %)."""
    x = float(num)
    scale = _SCALES.get("".join((unit or "").split()))
    if scale is not None:
        x /= scale
    elif x > 1.0:  # a bare number above 1: the 0-100 scale the instruction asks for
        x /= 100.0
    return x if 0.0 <= x <= 1.0 else None


@functools.lru_cache(maxsize=4096)
def _value(which: int, matched: str) -> tuple[float | None, bool]:
    """The confidence that the text one pattern matched states (a range: its middle; a bare end of a range takes
    the other's unit), and whether it is a bare count written after the word without a separator, which counts
    only where the sentence ends after it ("(confidence 85)", not "with confidence 2 lesions are seen"). Cached:
    replies written to the instruction match the same few texts ("confidence: 90%") again and again."""
    d = PATTERNS[which][1].fullmatch(matched).groupdict()  # type: ignore[union-attr]
    a, ua, b, ub = d["a"], d.get("ua"), d.get("b"), d.get("ub")
    if b is None:
        bare = "sep" in d and not d["sep"] and not ua and "." not in a and float(a) > 1
        return _scaled(a, ua), bare
    lo, hi = _scaled(a, ua or ub), _scaled(b, ub or ua)
    if lo is None or hi is None or hi < lo:  # no range after all ("Confidence: 85%\n- 2 lesions"): the first
        return _scaled(a, ua), False
    return round((lo + hi) / 2.0, 6), False


def read_confidence(text: Any) -> float | None:
    """The confidence a reply states, from 0 to 1, or None (module doc: the patterns, the last stated one wins)."""
    if not isinstance(text, str):
        return None
    low = text.lower()
    if "confiden" not in low and "certain" not in low and "sure" not in low:
        return None
    for kind in ("stated", "phrase"):
        at, best = -1, None
        for which, (k, pattern, _) in enumerate(PATTERNS):
            if k != kind:
                continue
            for m in pattern.finditer(low):
                start = m.start()
                if start <= at or (start and kind == "stated" and low[start - 1].isalpha()):  # "overconfidence"
                    continue
                value, bare = _value(which, m.group(0))
                if value is not None and not (bare and not _CLOSES.match(low, m.end())):
                    at, best = start, value
        if best is not None:
            return best
    return None


#: the reply written exactly to the instruction, "... Confidence: 90%" (RE2 syntax, for :func:`_read_fast`)
_FAST = r"(?:^|\PL)confidence:\s*(?P<n>\d{1,3}(?:\.\d+)?)\s*%(?P<tail>\s*(?:-|–|—|to)\s*[\d.])?"


def confidence_column(df: pd.DataFrame) -> pd.Series:
    """The stated confidence of every row of an answers table (its ``raw_text``), aligned with its index: a float
    from 0 to 1, None where the reply states none (and for failed calls, which have no reply), as
    :func:`read_confidence` reads each. Vectorised over the table's Arrow text column where pyarrow is installed
    (:func:`_read_fast`: a million replies in about a second); the replies it cannot settle are read one by one (a
    few microseconds each)."""
    import numpy as np
    import pandas as pd

    out = np.full(len(df), None, dtype=object)
    if "raw_text" in df.columns and len(df):
        col = df["raw_text"]
        todo = _read_fast(col, out)
        if len(todo):
            out[todo] = [read_confidence(t) for t in col.iloc[todo].to_numpy(dtype=object)]
    return pd.Series(out, index=df.index, dtype=object)


def _read_fast(col: pd.Series, out: np.ndarray) -> np.ndarray:
    """Fill ``out`` where a reply is settled without Python work per reply, and return the positions still to read
    one by one: with pyarrow, a reply that holds none of the words of confidence states none, and one that holds
    the word "confidence" once, no "certain" or "sure", and "Confidence: N%" (no range after it) states N %,
    which is what :func:`read_confidence` reads from it (tests/test_calibration.py holds them equal). Without
    pyarrow, or for a column it cannot take, every position is returned."""
    import numpy as np
    import pandas as pd

    every = np.arange(len(col))
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return every
    try:
        arr = pa.array(col, from_pandas=True)  # the scored table's Arrow text column itself: no copy
        low = pc.utf8_lower(arr)
    except (pa.ArrowException, TypeError, ValueError):
        return every
    maybe = pc.fill_null(pc.match_substring_regex(low, "confiden|certain|sure"), False).to_numpy(zero_copy_only=False)
    todo = np.flatnonzero(maybe)
    if not len(todo):
        return todo
    sub = low.take(pa.array(todo))
    other = pc.match_substring_regex(sub, "(?s)confiden.*confiden|certain|sure")  # a second word: read it all
    found = pc.extract_regex(sub, _FAST)
    num = pc.struct_field(found, "n").to_numpy(zero_copy_only=False)
    tail = pc.struct_field(found, "tail").to_numpy(zero_copy_only=False)
    ok = ~pc.fill_null(other, True).to_numpy(zero_copy_only=False) & pd.notna(num) & (tail == "")
    if ok.any():
        values = np.asarray(num[ok], dtype=float) / 100.0
        keep = values <= 1.0
        hit = todo[ok]
        out[hit[keep]] = values[keep].tolist()
        ok[np.flatnonzero(ok)[~keep]] = False  # over 100 %: read one by one (none of the patterns reads it)
    return todo[~ok]


def used_confidence(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """What the calibration metrics read per row: the provider's probability (:data:`TOKEN_CONFIDENCE`) where the
    row has one, else the stated confidence (:data:`CONFIDENCE`); NaN where neither. Returns (values 0-1, whether
    each came from the provider)."""
    import numpy as np

    n = len(df)
    stated = _floats(df, CONFIDENCE, n)
    token = _floats(df, TOKEN_CONFIDENCE, n)
    from_token = ~np.isnan(token)
    return np.where(from_token, token, stated), from_token


def _floats(df: pd.DataFrame, col: str, n: int) -> np.ndarray:
    import numpy as np
    import pandas as pd

    if col not in df.columns:
        return np.full(n, np.nan)
    x = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        return np.where((x >= 0) & (x <= 1), x, np.nan)  # a confidence is a share of 1: anything else is none


# --------------------------------------------------------------------------------------------------------------
# A stated confidence closing the reply, cut before its answer is read (issue 46, batch 32)
# --------------------------------------------------------------------------------------------------------------

# a number with a unit ("65 %", "8/10"), "about" or "~" before it
_UNIT_NUMBER = r"(?:(?:~|≈|about|around|roughly|approx(?:imately|\.)?)\s*)?" + _NUM + _UNIT
_LEVEL = r"(?:very\s+)?(?:high|low|moderate|medium|fair|good)"
# batch 69: a confidence as a share of 1 ("Total = 3 → C. Confidence: 0.8", the 0 not an option "0"), and one after
# "about" with no mark (", confidence about 70%")
_FRACTION = r"(?<![\d.])(?:0?\.\d{1,3}|1\.0{1,3})(?!\d|\.\d)"  # a full stop may close it ("Confidence: 0.8.")
# a sentence (or a parenthesis) that is only a stated confidence, closing the reply: "Confidence: 65 %.", "High
# confidence.", "Confidence: high.", "**Confidence:** 80 %"
_CLOSING = re.compile(
    r"(?i)(?:(?<=[.!?;,\n\u2013\u2014])|\A)[ \t*_]*+(?:"
    r"(?:\(?[ \t]*(?:my\s+|final\s+|overall\s+)?confidence(?:\s+level)?(?:[ \t*_]*[:=\-]|\s+(?=(?:~|≈|about|around|"
    r"roughly|approx)))[ \t*_]*(?:" + _UNIT_NUMBER + "|" + _LEVEL + "|" + _FRACTION + r")(?:[ \t]*\(" + _UNIT_NUMBER
    + r"\))?[ \t]*\)?)"
    r"|(?:" + _LEVEL + r"[ \t]+confidence)"
    r")[ \t*_]*+[.!]?[ \t*_]*+\Z")
# ", at maybe 55 % confidence." closing the reply: "... suggests the arterial phase — A, at maybe 55 % confidence."
_TAIL = re.compile(r"(?i),[ \t]*(?:at|with)\s+(?:maybe\s+|perhaps\s+)?" + _UNIT_NUMBER
                   + r"[ \t]+confidence[ \t]*[.!]?[ \t*_]*\Z")
# "(confidence ~75 %)" before the closing mark: "My answer stays **A. Sarcoidosis** (confidence ~75 %)."
_PAREN = re.compile(r"(?i)(?<![ \t])[ \t]*\([ \t]*(?:my\s+)?confidence[ \t]*[:=]?[ \t]*" + _UNIT_NUMBER
                    + r"[ \t]*\)(?=[ \t]*[.!]?[ \t*_]*\Z)")
# a bare fraction or percentage in parentheses closing the reply, after an answer word: "Final: no (0.9)", "C (0.87)."
# (batch 69); a number with another unit ("(0.9 mm)") or a whole number ("(2)") is not a confidence
_BARE = re.compile(r"(?i)(?<=[^\W\d_])[ \t]*\([ \t]*(?:~|≈|about\s+)?(?:0?\.\d{1,3}|1\.0{1,3}|\d{1,3}(?:\.\d+)?[ \t]*%)"
                   r"[ \t]*\)(?=[ \t]*[.!]?[ \t*_]*\Z)")


def only_stated_confidence(clean: str) -> bool:
    """Whether the reply states nothing but its own confidence: found after fb7f957, "Confidence: 0.8" alone on an
    item with an option "0" read that option, sure; a stated confidence alone names no answer."""
    m = _CLOSING.search(clean)
    return m is not None and not clean[:m.start()].strip(" \t\n*_.,;:\u2013\u2014-")


def without_stated_confidence(clean: str) -> str:
    """The reply without a closing statement of its own confidence, for its answer to be read ("... — C.
    Confidence: 65 %." is read as "... — C"); unchanged when it has none, or is nothing else ("Confidence: 80 %."
    alone). The number itself is read by :func:`read_confidence`, never as an answer."""
    out = clean
    for _ in range(2):
        m = _CLOSING.search(out)
        if m is None or not out[:m.start()].strip(" \t\n*_.,;:\u2013\u2014-"):
            break
        out = out[:m.start()].rstrip(" \t\n,;:\u2013\u2014-")
    m = _TAIL.search(out)
    if m is not None and out[:m.start()].strip():
        out = out[:m.start()] + "."
    m = _PAREN.search(out)
    if m is not None and out[:m.start()].strip():
        out = out[:m.start()] + out[m.end():]
    m = _closing_bare(out)
    if m is not None:
        out = out[:m.start()] + out[m.end():]
    return out


#: how close before it another share in brackets makes a closing one part of a list ("B (60%), C (10%)")
_LISTED = 30
#: a reply this short may close on its own confidence in bare brackets ("Yes (30%).", "C (0.3)."); a longer one's
#: bracket is more often a measurement ("... within normal limits (about 0.45).", read from the corpus)
_BARE_CONFIDENCE_WORDS = 6
# any bare share or percentage in brackets ("(60%)", "(0.3)")
_BARE_ANYWHERE = re.compile(r"\([ \t]*(?:~|≈|about\s+)?(?:0?\.\d{1,3}|1\.0{1,3}|\d{1,3}(?:\.\d+)?[ \t]*%)[ \t]*\)")


def _closing_bare(text: str) -> re.Match[str] | None:
    """The bare number in brackets closing the reply after its answer word (:data:`_BARE`), where it is the only one on
    its line: "B (60%), C (10%)" gives each option a likelihood (a black-box check of 2026-12-06 found its last cut as a
    confidence, and the reply read as C, sure)."""
    m = _BARE.search(text)
    if m is None or not text[:m.start()].strip() or _BARE_ANYWHERE.search(text, max(0, m.start() - _LISTED), m.start()):
        return None  # (another just before: a list; not one far before, "A (0.5). Update ...: so C. Lung mass (0.7).")
    return m


def closing_number(clean: str) -> float | None:
    """The share of 1 a bare number in brackets closing the reply states ("Yes (30%).", "C (0.87)."): the reader sets
    it aside as a confidence (:func:`without_stated_confidence`), and a low one makes the answer a guess
    (:mod:`probe_ui.reading.answers`); None where there is none."""
    m = _closing_bare(clean)
    if m is None or len(clean.split()) > _BARE_CONFIDENCE_WORDS:
        return None
    num = re.search(r"\d*\.?\d+", m.group(0))
    if num is None:
        return None
    return _scaled(num.group(0), "%" if "%" in m.group(0) else None)


# --------------------------------------------------------------------------------------------------------------
# The odds a reply gives of the finding itself, not of its answer (issue 46, batch 69)
# --------------------------------------------------------------------------------------------------------------

_ODDS_VALUE = (r"[ \t*_]*(?:[:=]|\bis\b|\bof\b|\bat\b)?[ \t*_]*(?:(?:about|around|approximately|roughly|~|≈)\s*)?"
               r"(?P<a>" + _NUM + r")(?P<ua>" + _UNIT + r")?"
               # batch 76: a range, "Estimated probability of malignancy: 30–70 %."
               r"(?:[ \t]*(?:-|–|—|to)[ \t]*(?P<b>" + _NUM + r")(?P<ub>" + _UNIT + r")?)?")
# "Confidence that a pleural effusion is present: 0.9", "Malignancy probability: 0.5", "Probability of malignancy:
# 0.5": a number for the finding (or the option) named, where "No." or "Benign." may stand beside it
_FINDING_ODDS = re.compile(
    r"(?i)\b(?:(?P<present>(?:confidence|probability|likelihood|chance)\s+that\s+(?!(?:this|my|the)\s+(?:answer|reading|"
    r"call|choice)\b|i\b|it\s+is\s+(?:correct|right)\b)[^.:;\n]{1,60}?\s(?:is|are)\s+(?:present|there|seen))"
    r"|(?<![\w-])(?:[^\W\d_]{4,}\s+(?:probability|likelihood)|(?:probability|likelihood)\s+of\s+[^\W\d_]{4,}))"
    + _ODDS_VALUE + r"(?![\d.]*\d)")
# words that name no finding before "probability": "the probability: 0.5", "estimated probability: 0.5"
_NOT_A_FINDING = frozenset("this that which with their estimated overall final answer stated my your prior".split())


def finding_odds(text: str) -> tuple[float, bool] | None:
    """The last probability a reply states that the finding is present ("Confidence that free fluid is present:
    about 50%", True) or of a finding it names ("Malignancy probability: 0.5", False: no presence said), as a share of
    1; None when it states none. Such a number is not a confidence in the reply's answer: "No. Confidence that a
    pleural effusion is present: 0.9." says the opposite of "No", and 50 % names no answer."""
    found = None
    at = 0
    while (m := _FINDING_ODDS.search(text, at)) is not None:
        head = m.group(0).split(None, 1)[0].lower().strip("*_")
        if head in _NOT_A_FINDING:
            # batch 76: "Estimated probability of malignancy: 30–70 %": the finding may follow the word that names
            # none ("probability of malignancy")
            at = m.start() + len(m.group(0).split(None, 1)[0])
            continue
        at = m.end()
        x = _odds_value(m)
        if x is not None:
            found = (x, m.group("present") is not None)
    return found


def _odds_value(m: re.Match[str]) -> float | None:
    """The share of 1 an odds match states; a range that straddles even ("30–70 %") is even, 0.5 (it names no answer),
    another range its middle."""
    x = _scaled(m.group("a"), m.group("ua") or m.group("ub"))
    if x is None or m.group("b") is None:
        return x
    y = _scaled(m.group("b"), m.group("ub") or m.group("ua"))
    if y is None or y < x:
        return x
    return 0.5 if x < 0.5 < y else round((x + y) / 2.0, 6)


# batch 76: "I'd rate the chance that it's cystic at under 10 %.", "The probability that this is malignant is about
# 5%": a low probability given to what is named, which is no vote for it
_NAMED_ODDS = re.compile(
    r"(?i)\b(?:chance|probability|likelihood|odds)\s+(?:that\s+)?(?:it's|it\s+is|this\s+is|it\s+being|of\s+it\s+being)\s+"
    r"(?P<named>[^\W\d_][^.:;,!?\n\d]{0,40}?)[ \t]+(?:is[ \t]+|at[ \t]+|of[ \t]+|as[ \t]+)?"
    r"(?:(?:under|below|less\s+than|at\s+most|about|around|roughly|<|≤|~)[ \t]*)?"
    r"(?P<a>" + _NUM + r")(?P<ua>" + _UNIT + r")?(?![\d.]*\d)")


def named_odds(text: str) -> list[tuple[str, float]]:
    """What a reply says has a stated probability, with it ("I'd rate the chance that it's cystic at under 10 %":
    ("cystic", 0.1)): the words named and the share of 1."""
    out = []
    for m in _NAMED_ODDS.finditer(text):
        x = _scaled(m.group("a"), m.group("ua"))
        if x is not None:
            out.append((m.group("named").strip(), x))
    return out
