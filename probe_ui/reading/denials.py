"""Denials set beside the very words a reading comes from: "Upside down, I don't think so.", "Effusion: ruled out",
"Pneumothorax (-)", "Cardiomegaly is a stretch.", "A CT, my foot.", "Were this a CT, ...", "Pneumonia, unless it's
atelectasis.", "Yes. Just kidding.".

Why a module: the rules read an answer from where its words stand (a label word, an option's text or letter, the
finding a yes/no question asks about); a denial, a hedge, a supposition or a joke written next to those words, in
shorthand or in a word order the rules do not parse, turns them against the answer. Two reader checks of 2026-12-06
(one by a black-box tester: 737 replies, 196 read surely and wrongly) found such replies read sure. These checks only
ever add a doubt (:func:`probe_ui.reading.sureness.doubts`), so they cannot turn a right reading into a wrong one; each
vocabulary names the replies that showed it.
"""

from __future__ import annotations

import re

from probe_ui.reading.cleaning import phrase_regex
from probe_ui.reading.foreign_denials import AFTER_NAME
from probe_ui.reading.item import Item, read_alone
from probe_ui.reading.letters import lone_letter
from probe_ui.reading.presence import another_finding, asked_stems, finding_stems
from probe_ui.reading.structured import ANSWER_KEYS

__all__ = ["answers_an_echo", "denied_in_place", "judged_otherwise", "option_names", "verdict_only"]

# a denial in words, closing its clause ("Upside down, I don't think so.", "Correct it is not.", "Female, no way.",
# "Adult would be wrong.", "Cardiomegaly, I doubt it.")
_DENIAL = (r"(?:(?:I|we)[ \t]+(?:don't|do[ \t]+not|doubt)[ \t]+(?:think|believe)[ \t]+so|(?:I|we)[ \t]+doubt[ \t]+it"
           r"|(?:it|this|that)(?:'s|[ \t]+is|[ \t]+was)(?:n't|[ \t]+not)|(?:it|this|that)[ \t]+(?:isn't|wasn't|ain't)"
           r"|no[ \t]+way(?![ \t]+(?:around|out|round)\b)|not[ \t]+a[ \t]+chance"
           r"|(?:would[ \t]+be|is|'s)[ \t]+(?:wrong|incorrect)|would[ \t]+be[ \t]+a[ \t]+mistake)[ \t*_]*(?:[.!;,]|\Z)")
# the end of the entry a verdict closes ("Effusion: no." but not "Pleural effusion (no pneumothorax).", which denies
# another finding: a review of the first draft)
_ENTRY_ENDS = r"[ \t*_]*(?:[).;,!\n]|\Z)"
# a checklist's verdict after the name, in shorthand ("Effusion: ruled out", "Effusion (-)", "Effusion ❌", "PTX: neg",
# "Upside down: false", "Effusion: 0%") or a hedge ("Effusion: doubtful.", "Cardiomegaly: unlikely.")
_MARK = r"[ \t]*(?::|=>|->|=|\||\u2192|\u27f6|\(|(?<=[ \t])[\-\u2013\u2014])[ \t]*"
_SEPARATOR = r"(?:" + _MARK + r"|[ \t]+)"
_AGAINST = (r"(?:ruled[ \t]+out|excluded|(?-i:NEG)\b|neg(?:ative)?\b|\([ \t]*[\-\u2212][ \t]*\)|[\u00d8\u2205\u2212"
            r"\u2717\u2718\u274c\u274e\u2610\U0001f44e\U0001f6ab]|\[[ \t]\]|false\b|0[ \t]*%|0[ \t]*/[ \t]*10\b|"
            r"unlikely\b|doubtful\b|questionable\b|"
            r"equivocal\b|indeterminate\b|improbable\b|TBD\b|50[ \t]*/[ \t]*50)")
# a word that denies only after a mark and closing the entry ("Effusion: no", "Pneumothorax → no", "Effusion - none";
# not "Correct, no rotation.", "Right - no mediastinal shift.")
_AGAINST_AFTER_MARK = (r"(?:no|none|nil|absent|(?-i:N)|0(?![.,]\d)|not[ \t]+(?:seen|present|identified|likely|really)|"
                       r"(?:[0-9]|1[0-9])(?:\.[0-9]+)?[ \t]*%|the[ \t]+one[ \t]+thing[ \t]+it(?:'s|[ \t]+is)(?:n't|"
                       r"[ \t]+not))" + _ENTRY_ENDS)
# a joke, a sneer or a put-down after the name ("A CT, my foot.", "CT, yeah right.", "Pleural effusion... said no one.",
# "CT is a stretch.", "Cardiomegaly would be an overcall.", "Calling this a CT is generous.", "Effusion mimic (fat
# pad).", "Pneumonia, unless it's atelectasis."; not "..., unless proven otherwise", "Benign, unless it grows on
# follow-up", a review of the first draft, which also heard "would need", "according to" and "reported")
_PUT_DOWN = (r"(?:my[ \t]+foot|nothing[ \t]+of[ \t]+the[ \t]+(?:sort|kind)|you[ \t]+wish|said[ \t]+(?:nobody|"
             r"no[ \t]+one|no[ \t]+[\w\-]+)(?:[ \t]+ever)?|yeah,?[ \t]+right|famously[ \t]+not|"
             r"(?:is|would[ \t]+be|'s)[ \t]+(?:a[ \t]+|an[ \t]+)?(?:(?:common|classic)[ \t]+)?(?:stretch|reach|"
             r"long[ \t]+shot|generous|overcall|misread(?:ing)?|pseudo-?finding|mimic)|(?:a[ \t]+)?long[ \t]+shot|"
             r"(?:a[ \t]+)?(?:common|classic)[ \t]+(?:overcall|misread(?:ing)?)|mimic|"
             r"(?:would[ \t]+be[ \t]+)?my[ \t]+last[ \t]+guess|"
             r",?[ \t]*unless(?![ \t]+(?:proven|shown|otherwise)\b)(?![^.;!?\n]{0,60}\b(?:otherwise|grows?|changes?|"
             r"follow[\s\-]?up)\b))\b")
_DENIED_AFTER_NAME = re.compile(r"(?i)[ \t*_,;\-\u2013\u2014]*(?:" + _DENIAL
                                + r"|[*_]*" + _SEPARATOR + r"[*_]*(?:" + _AGAINST + r"|" + AFTER_NAME + _ENTRY_ENDS
                                + r")"
                                + r"|[*_]*" + _MARK + r"[*_]*" + _AGAINST_AFTER_MARK
                                + r"|[ \t*_,.\-\u2013\u2014'\"\u2019]*" + _PUT_DOWN + r")")
# a supposition just before the name ("Were this a CT, ...", "Had it been effusion, ...", "If this were a CT",
# "Pneumonia, unless it's atelectasis.")
_SUPPOSING = (r"were[ \t]+(?:this|it)|had[ \t]+(?:this|it)[ \t]+been|if[ \t]+(?:this|it)[ \t]+were|"
              r"unless[ \t]+(?:(?:it|this)(?:'s|[ \t]+is|[ \t]+were))?")
# before the name: a denial ("Far from an adult.", "Wouldn't call it a child.", "Anything except atelectasis.",
# "Hardly a child."), an unchecked or struck-out entry ("[ ] effusion", "~~Effusion~~", "🚫 effusion"; not "...
# effusion is fully excluded: C.", where the colon brings the answer; "🙅 CT", "≠ CT", "¬CT": a black-box check of
# 2026-12-06),
# what only looks so ("Apparent cardiomegaly", "Spurious cardiomegaly", "Easy to mistake for a CT."), or a
# supposition (not what another says: "Physician says radius; I concur. ... A.", read from the corpus)
_DENIED_BEFORE_NAME = re.compile(
    r"(?i)(?:\b(?:far[ \t]+from|(?P<any>anything[ \t]+(?:but|except)|except(?:[ \t]+for)?)|hardly|"
    r"(?:yeah,?[ \t]+)?right,?[ \t]+(?=an?[ \t])|hesitate[ \t]+to[ \t]+call(?:[ \t]+(?:it|this))?|"
    r"pas(?:[ \t]+(?:un|une|de))?|(?:wouldn't|would[ \t]+not|won't)"
    r"(?:[ \t]+even)?[ \t]+(?:call|say|label|class(?:ify)?)(?:[ \t]+(?:it|this|that))?|apparent|spurious|pseudo-?|"
    r"(?:easy|easily)[ \t]+(?:to[ \t]+)?mistake[n]?[ \t]+for|" + _SUPPOSING + r"|"
    r"mimic[ \t]+(?:in|of|at))[ \t]+|\[[ \t]\][ \t]*|~~[ \t]*|"
    r"[\U0001f6ab\U0001f645\u2260\u00ac][ \t]*)"
    r"(?:an?[ \t]+|the[ \t]+)?[*_'\"\u2018\u201c]*$")
# a denial that closes a short reply's first sentence ("Enlarged, I don't think so." to "Is the heart enlarged?", read
# yes from the word asked; "Cardiomegaly would be wrong.")
_DANGLING_DENIAL = re.compile(r"(?i)[ \t*_,;:]" + _DENIAL)
# (not a denial of what another would call it: "Yes - calling it normal would be wrong.", a review)
_CALLING_OTHERWISE = re.compile(r"(?i)\b(?:call(?:ing)?|miss(?:ing)?|to[ \t]+(?:call|miss))\b")
# a denial said before the answer's words is undone by one before it ("I wouldn't call it anything but a CT.")
_DENIED_AGAIN = re.compile(r"(?i)(?:n't|\bnot|\bno|\bnever)\b[^.;!?\n]{0,40}$")
# a JSON field that sets the answer aside: a false field named for the answer or for agreeing with it
# ('{"pneumothorax": false}', '{"diagnosis": "pneumothorax", "present": false}', '{"answer": "B", "retracted": true}';
# not '{"answer": "B", "needs_followup": false}', a review of the first draft)
_JSON_FALSE = re.compile(r"(?i)\"(?P<key>[^\"\n]{1,40})\"[ \t]*:[ \t]*(?:false\b|0(?![\d.]))")
_JSON_TAKEN_BACK = re.compile(r"(?i)\"(?:retract\w*|withdrawn|invalid)\"[ \t]*:[ \t]*true\b")
# (not "agree": false, which disagrees with a suggestion: '{"physician_answer": "A", "agree": false, ...}')
_AGREEING_KEYS = frozenset("confident sure final correct present answer_correct".split())
# a supposition before a declared answer's words ("Pneumonia, unless it's atelectasis." declared atelectasis)
_SUPPOSED_BEFORE = re.compile(r"(?i)\b(?:" + _SUPPOSING + r")[ \t]+(?:an?[ \t]+|the[ \t]+)?[*_'\"]*$")
# a reply taken back as a joke at its end ("Yes. /s", "Yes. Just kidding.", "Definitely a CT. Not.", "CT... NOT.",
# "Yes, said no one ever.")
_JOKE_AT_THE_END = re.compile(r"(?i)(?:(?:\A|[.!?,\s])(?:/s|j/?k|(?:just[ \t]+)?kidding|said[ \t]+(?:nobody|"
                              r"no[ \t]+one|no[ \t]+[\w\-]+)(?:[ \t]+ever)?)|[.!?][ \t]*not[.!]+)[ \t.!]*\Z")
# words of a yes/no question that are no finding, place or modality of their own
_QUESTION_WORDS = frozenset("is are was were does do did this that the a an in on of there any given image images "
                            "picture scan shown show shows seen present please answer yes no with or and".split())
#: a reply longer than this is no checklist line or one-line answer
_SHORT_WORDS = 20
#: how far before a name its denial is looked for (a few words; so that a reply of 100,000 characters naming an option
#: thousands of times is read in linear time: tests/test_answers.py, perf/limits.py)
_BEFORE = 120
_WORD = re.compile(r"[^\W\d_][\w\-]*")


def option_names(item: Item, label: str | None) -> str | None:
    """A pattern alternation of the ways a reply names option ``label`` in words: its whole text, or a word of four
    letters or more that no other option has; None for an item without option texts."""
    opt = item.option_text(label)
    if not opt:
        return None
    others = {w.casefold() for o in item.options if o != opt for w in re.findall(r"[^\W\d_]{4,}", o)}
    words = [w for w in re.findall(r"[^\W\d_]{4,}", opt) if w.casefold() not in others]
    return "|".join([re.escape(opt).replace(r"\ ", r"\s+"), *(re.escape(w) for w in words)])


def _names(text: str, item: Item, label: str) -> list[re.Pattern[str]]:
    """Where a reply names ``label``: a yes/no question's own words and the reply's words for the finding it asks
    about ("effusion" in "Is pleural effusion present?"; "Cardiomegaly", "PTX" to "Is the heart enlarged?" and "Is
    there a pneumothorax?"), a label's words, or an option's letter, text and words of its own."""
    if item.kind == "yesno":
        asked = asked_stems(item.question)
        words = {w for w in _WORD.findall(item.question.casefold()) if w not in _QUESTION_WORDS}
        words |= {w for w in _WORD.findall(text) if finding_stems(w) and not another_finding(w, asked)}
        return [phrase_regex(w) for w in words]
    if item.kind == "label":
        return [phrase_regex(n) for n in {label, *(w for w, lab in item.words if lab == label)}]
    own = option_names(item, label)
    return [lone_letter(label)] + ([re.compile(r"(?i)(?<![\w\-])(?:" + own + r")(?![\w\-])")] if own else [])


def _denied_before(text: str, start: int) -> bool:
    """Whether a denial stands just before ``start`` (:data:`_DENIED_BEFORE_NAME`), not itself denied ("I wouldn't
    call it anything but a CT.")."""
    m = _DENIED_BEFORE_NAME.search(text, max(0, start - _BEFORE), start)
    return m is not None and not (m.group("any") and _DENIED_AGAIN.search(text, max(0, m.start() - _BEFORE),
                                                                           m.start()))


def _own_words(verdict: str, own: set[str]) -> bool:
    """Whether a verdict after an option's letter is that option's own text ("B — no." where B is "No")."""
    said = set(_WORD.findall(verdict.casefold()))
    return bool(said) and said <= own


def _json_against(text: str, names: list[re.Pattern[str]]) -> bool:
    """A JSON field that takes the answer back, or a false one named for the answer or for agreeing with it."""
    if _JSON_TAKEN_BACK.search(text):
        return True
    return any(m.group("key").casefold() in _AGREEING_KEYS or any(n.fullmatch(m.group("key")) for n in names)
               for m in _JSON_FALSE.finditer(text))


def denied_in_place(text: str, item: Item, label: str | None, *, declared: bool = False) -> bool:
    """Whether ``label`` is read beside a denial, a checklist verdict against it, a put-down, a supposition or what
    only looks so, set next to its own words or letter (for a yes, next to the words of what the question asks:
    "Effusion: ruled out" to "Is pleural effusion present?"), a JSON field that takes it back, or a short reply whose
    first sentence closes on a denial or which ends on a joke (module doc). A ``declared`` answer is doubted only by a
    JSON field or a supposition just before its words ("Pneumonia, unless it's atelectasis.")."""
    if label is None or (item.kind == "yesno" and (not item.aliases or label != item.aliases["yep"])) \
            or label in item.escape_labels:
        return False  # (an escape option is the words "the premise is wrong": "A. ... the premise is incorrect.")
    short = len(text.split()) <= _SHORT_WORDS
    if item.kind == "yesno" and not short:
        # (a long reply weighs other findings: "..., which makes a supracondylar fracture unlikely")
        return "{" in text and _json_against(text, _names("", item, label))
    names = _names(text, item, label)
    if "{" in text and _json_against(text, names):
        return True
    if declared:
        return any(_SUPPOSED_BEFORE.search(text, max(0, m.start() - _BEFORE), m.start())
                   for name in names for m in name.finditer(text))
    if short:
        if _JOKE_AT_THE_END.search(text):
            return True
        opening = re.split(r"(?<=[.!?])\s+|\n", text.strip(), maxsplit=1)[0]
        if item.kind == "yesno" and _DANGLING_DENIAL.search(opening) and not _CALLING_OTHERWISE.search(opening):
            return True
    own = set(_WORD.findall(item.option_text(label).casefold())) if item.kind == "choice" else set()
    return any(((after := _DENIED_AFTER_NAME.match(text, m.end())) is not None
                and not _own_words(after.group(0), own)) or _denied_before(text, m.start())
               for name in names for m in name.finditer(text))


# a reply that is one checklist entry whose verdict is normal, negative or false ("Proliferative: no.", "Left kidney:
# normal.", "Radius: intact.", "Pneumothorax: false", "correctly oriented: false"), a black-box check of 2026-12-06
# (rev33: 30 such replies read sure, most as the very option they rule out)
_VERDICT_ENTRY = re.compile(r"(?i)\A[\s*_>#\-]*(?P<key>[^\s:=\u2192.;!?][^:=\n\u2192.;!?]{0,39}?)[ \t*_]*"
                            r"(?::|=|\u2192|->)[ \t*_]*"
                            r"(?P<verdict>no|none|nil|absent|normal|unremarkable|intact|clear|fine|ok(?:ay)?|false|0|"
                            r"negative|not[ \t]+seen|within[ \t]+normal[ \t]+limits|wnl)[ \t*_]*[.!]?[ \t*_]*\Z")
# the names of an answer field ("Answer: none", "Final diagnosis: normal"), which bring the answer itself
_ANSWER_FIELD_WORDS = frozenset({w for key in ANSWER_KEYS for w in key.split("_")}
                                | set("diagnosis impression response verdict result reply output".split()))
# the same check: a question echoed, then answered ("Absent? No." read absent, "No free fluid? Incorrect — there is
# fluid." read no free fluid, "Upside down? That's correct." read correct): the answer read is the echo's own words
# said no to, or the "correct" said of the echo (not "Child? No, adult.", "Vasogenic? No.", read as the other)
_ECHOED_THEN_ANSWERED = re.compile(
    r"(?i)\A[\s*_>#]*(?P<echo>[^?.!\n]{1,60})\?[ \t*_]*(?P<verdict>(?P<no>no|nope|incorrect|wrong|false)|yes|yep|"
    r"correct|right|true|indeed|(?:that's|that[ \t]+is|it's|it[ \t]+is)[ \t]+(?:(?P<no2>wrong|incorrect|false)|correct|"
    r"right|true))\b")


def verdict_only(text: str, item: Item, label: str | None) -> bool:
    """Whether a reply to a question with options or labels is only one entry that calls something normal, absent or
    false ("Left kidney: normal."): which answer that leaves is a guess. Not an answer field ("Answer: none"), nor a
    verdict in the words of the answer read ("Finding: normal" where an option is "Normal")."""
    if item.kind == "yesno" or label is None:
        return False
    m = _VERDICT_ENTRY.match(text)
    if m is None or set(_WORD.findall(m.group("key").casefold())) & _ANSWER_FIELD_WORDS:
        return False
    own = item.option_text(label) if item.kind == "choice" else label
    return not set(_WORD.findall(m.group("verdict").casefold())) & set(_WORD.findall((own or "").casefold()))


def answers_an_echo(text: str, item: Item, label: str | None) -> bool:
    """Whether a reply to a question with options or labels opens by echoing a question and answering it, and
    ``label`` is read from the echo said no to, or from the yes said of it (``_ECHOED_THEN_ANSWERED``)."""
    if item.kind == "yesno" or label is None:
        return False
    m = _ECHOED_THEN_ANSWERED.match(text)
    if m is None:
        return False
    if m.group("no") or m.group("no2"):
        return any(n.search(m.group("echo")) for n in _names(m.group("echo"), item, label))
    # (the yes itself read as the answer, "correct" being a label; not "Is the physician's answer correct? Yes. ...",
    # which agrees with a suggestion)
    return any(n.search(m.group("verdict")) for n in _names(m.group("verdict"), item, label))


# a black-box check of 2026-12-06 (rev34): a judgement the reply will not make, of the very answer read ("I would not
# describe the cardiac silhouette as enlarged.", "I wouldn't characterize this as a CT scan.", "It would be a stretch to
# call it enlarged.", "Not what I'd call dilated.", "I'd be hard-pressed to say no.": 30 read as that answer, sure)
_JUDGED_NOT = re.compile(
    r"(?i)\b(?:(?:I|we)(?:'d|[ \t]+would|[ \t]+do|[ \t]+did|[ \t]+could|[ \t]+can)?(?:[ \t]+not|n't)[ \t]+"
    r"(?:(?:really|quite|necessarily|honestly|even|think[ \t]+(?:I'd|I[ \t]+would|we'd)|"
    r"go[ \t]+so[ \t]+far[ \t]+as[ \t]+to)[ \t]+)*|(?:nobody|no[ \t]+one|few)[ \t]+would[ \t]+|"
    r"(?:a[ \t]+)?stretch[ \t]+to[ \t]+|hesitate[ \t]+to[ \t]+|"
    r"hard[\- ]pressed[ \t]+to[ \t]+|not[ \t]+what[ \t]+(?:I'd|I[ \t]+would|we'd|most[ \t]+would)[ \t]+)"
    r"(?:say|call|describe|consider|regard|class|classify|characteri[sz]e|label|term|deem)\b")
# where the judgement's object ends
_CLAUSE_END = re.compile(r"[.;!?\n]|[ \t][\u2013\u2014\-][ \t]|,[ \t]*(?:but|it's|it[ \t]+is|rather|instead)\b")


def judged_otherwise(text: str, item: Item, label: str | None) -> bool:
    """Whether the reply declines to call its subject what ``label`` names, in a judgement verb it negates
    (:data:`_JUDGED_NOT`): the words after the verb, read on their own, give ``label`` ("I would not describe the
    liver as cirrhotic." read yes to "Is the liver cirrhotic?"; not "I wouldn't call it cardiomegaly.", read no)."""
    if label is None or len(text) > 2000:
        return False
    for m in _JUDGED_NOT.finditer(text):
        end = _CLAUSE_END.search(text, m.end())
        judged = text[m.end():end.start() if end else len(text)].strip()
        if judged and read_alone(judged, item).choice == label:
            return True
    return False
