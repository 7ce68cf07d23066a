"""Yes/no and label items: the label words a reply opens with, restates or mentions (rules 3 and 6 for words).

Why a module: a reply to "Is it upside down?" or "Which dot is closest?" names its answer by words, not letters;
these rules find those words, drop negated and rejected mentions ("not upside down", "Blue is not the closest"), and
read the yes/no word that answers the reply's own restatement.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Set as AbstractSet

from probe_ui.reading import overlap, subject, synonyms
from probe_ui.reading.cleaning import after_restated_question, is_negated, mask_spans, norm, pattern, phrase_regex
from probe_ui.reading.item import CLAUSE_OPENERS, MARKED_OPENERS, Item
from probe_ui.reading.presence import (
    CLAUSE_NEGATION,
    PRESENCE_QUESTION,
    SIDE,
    another_finding,
    asked_finding,
    asked_stems,
    finding_stems,
)

# idioms that open an affirmation without a yes ("No doubt a tension one, with mediastinal shift."): yes, when
# nothing else in the reply answers
AFFIRMING_OPENING = re.compile(r"(?i)\A\W*(?:no\s+doubt|no\s+question|without\s+(?:a|any)\s+doubt|undoubtedly|"
                                r"unquestionably|clearly\s+so|most\s+certainly|for\s+sure)\b(?!\s+(?:that\s+)?(?:not|no)\b)")


def word_prefix(t: str, item: Item) -> str | None:
    """The label word/phrase the string starts with (longest wins)."""
    best: tuple[int, str] | None = None
    for word, lab in item.words:
        m = phrase_regex(word, suffix=item.kind == "label").match(t)
        if m and (best is None or len(word) > best[0]):
            best = (len(word), lab)
    return best[1] if best else None


_IMPRESSION_HEADING = re.compile(r"(?i)\A(?:impression|conclusion|opinion)[ \t*_]*:[ \t*_]*")


# "Positive for pneumothorax", and the finding a heading-like opener confirms ("Confirmed: pneumothorax, no
# effusion."): up to the next mark (a list, "Negative for pneumothorax, effusion, or consolidation.", is one)
_FOR_FINDING = re.compile(r"(?i)(?:[ \t]+for[ \t]+|[ \t]*[:\u2013\u2014][ \t]*|[ \t]+-[ \t]+)(?:an?[ \t]+|the[ \t]+)?"
                          r"([^.;:!?\n]{1,80})")
# a part of that list the opener does not confirm: "pneumothorax, no effusion" confirms the pneumothorax only
_DENIED_PART = re.compile(r"(?i)\A\s*(?:(?:and|but|with)\s+)?(?:no|not|without|none)\b")
# the parts of that list: its commas, and a denial joined on ("tension pneumothorax with no effusion", "... without
# effusion")
_LIST_PARTS = re.compile(r"(?i),|\s(?=(?:(?:with|and|but)\s+no|without)\b)")


# a result said of a study as a whole: "Negative screening mammographic view.", "Positive screening study." (a
# screening word, or the study's own noun closing the sentence; hostile review of 9e8e215: not "Negative MRI - it's a
# CT.")
_STUDY_RESULT = re.compile(r"(?i)[ \t]+(?:(?:[\w\-]+[ \t]+){0,3}?screening\b|(?:[\w\-]+[ \t]+){0,3}?(?:study|"
                           r"examination|exam|views?|series)[ \t]*(?:[.\n]|\Z))")


def _for_another_finding(rest: str, item: Item) -> bool:
    """Whether "positive/negative for X" names a finding X that shares no word with what the question asks about,
    while the reply goes on to speak of that ("IMPRESSION: Positive for pneumothorax. No pleural effusion." to "Is
    there a pleural effusion?"; not "Negative for cardiomegaly." to "Is the heart enlarged?", its own words)."""
    split = _result_and_rest(rest, _FOR_FINDING)
    if split is None or not item.question:
        return False
    asked = asked_stems(item.question)
    return another_finding(split[0], asked) and bool(finding_stems(split[1]) & asked)


def _result_and_rest(after: str, form: re.Pattern[str]) -> tuple[str, str] | None:
    """What a result opener ("Positive for ...", "Confirmed: ...") gives its result for, read from ``after`` (the text
    after the opener word) by ``form``: the parts of its list it confirms ("pneumothorax, no effusion" confirms the
    pneumothorax), and the rest of the reply (the parts it denies, then what follows the list); None without one."""
    f = form.match(after)
    if f is None:
        return None
    parts = _LIST_PARTS.split(f.group(1))
    return (" ".join(p for p in parts if not _DENIED_PART.match(p)),
            " ".join([*(p for p in parts if _DENIED_PART.match(p)), after[f.end():]]))


# a result opening the reply ("Negative for pneumothorax.", "IMPRESSION: Confirmed: pneumothorax."), and a finding
# given its result ("Pneumothorax: negative.")
_RESULT_OPENER = re.compile(r"(?i)\A[\s\"'`*_>#]*(?:(?:impression|conclusion|opinion|result|findings?)[ \t*_]*:"
                            r"[ \t*_]*)?(?:positive|negative|confirmed)\b")
# (and a finding's name with "present" or "absent" as its whole sentence, "Cardiomegaly present." to "Is there a
# pleural effusion?": the older near misses of the hostile reviews)
_FINDING_RESULT = re.compile(r"(?im)(?:^|(?<=[.;])[ \t]+)[ \t*_\-]*([^\W\d_][^\n:.;]{1,40}?)(?:[ \t*_]*:[ \t*_]*"
                             r"(positive|negative|confirmed|present|absent)\b|"
                             r"[ \t]+(present|absent)[ \t*_]*(?:[.;!]|$))")
_RESULT_SAYS = {"positive": "yes", "confirmed": "yes", "present": "yes", "negative": "no", "absent": "no"}
# a finding's field whose value is a bare answer word, closing its clause ("Pneumothorax: no.", "- Effusion: none",
# "Fracture: yes;" to "Is there a pleural effusion?": the older near misses of the reviews); not "no change", "none
# on the right" or a lead-in ("With that caveat: no, I don't see ...", held-out batch 112)
_FINDING_WORD = re.compile(r"(?im)(?:^|(?<=[.;])[ \t]+)[ \t*_\-]*(?P<name>[^\W\d_][^\n:=.;]{1,40}?)"
                           r"(?:[ \t*_]*[:=][ \t*_]*|(?P<dash>[ \t]+[\-\u2013\u2014]+[ \t]+)|"
                           r"[ \t]*(?:\.\.\.|\u2026)[ \t]*)"
                           r"(?P<value>yes|no|nope|none(?:[ \t]+seen)?|nil|not[ \t]+seen|seen|not[ \t]+present|"
                           r"no[ \t]+evidence(?:[ \t]+of)?|"
                           r"not[ \t]+identified)"
                           r"[ \t*_]*(?=[.;!\n(]|\Z)")
_WORD_SAYS = {"yes": "yes", "seen": "yes", "no": "no", "nope": "no", "none": "no", "none seen": "no", "nil": "no",
              "not seen": "no",
              "not present": "no", "no evidence": "no", "no evidence of": "no", "not identified": "no"}
#: a reply this short may take its answer from any field in it
_SHORT_REPLY_WORDS = 30
# a field that gives the reply's answer, not a finding's ("Revised answer: Yes", "In short: yes", "Re-review: No.")
_ANSWER_FIELD = re.compile(r"(?i)\b(?:answers?|verdict|impression|conclusions?|summary|short|word|therefore|thus|so|"
                           r"hence|revised|revision|corrected|correction|amended|amendment|updated?|confirmed|"
                           r"maintained|maintain|correct\w*|myself|re-?review(?:ed)?|re-?assess(?:ed|ment)?|re-?evaluation|final|bottom|"
                           r"result|opinion|assessment|response|reply|decision|call|overall|question|mine|view|"
                           # (nor a change's, "Interval change: none", "Degenerative changes: none", which say nothing
                           # of another finding: the older near misses of the reviews)
                           r"changes?|interval|progression|difference|comparison|prior|technique|quality)\b")
_RESULT_FOR = re.compile(r"(?i)(?:[ \t]+for[ \t]+|[ \t]*:[ \t]*)(?:an?[ \t]+|the[ \t]+)?([^.;:!?\n]{1,80})")


def result_for_another_finding(text: str, item: Item, label: str | None = None) -> bool:
    """Whether a yes/no reply gives a result for a finding that shares no word with the question ("Negative for
    pneumothorax.", "Confirmed: pneumothorax.", "Pneumothorax: negative." to "Is there a pleural effusion?"; hostile
    review of batch 85): a yes or no read from it may be about that finding, not the one asked about (a synonym,
    "Negative for cardiomegaly." to "Is the heart enlarged?", reads the same, and is a guess too). A list of results
    that gives one for the finding asked about ("Fracture: present. Dislocation: absent.") is read by that one: only a
    reading ``label`` against it is in doubt."""
    if item.kind != "yesno" or not item.question:
        return False
    asked = asked_stems(item.question)
    named: list[str] = []
    opener = _RESULT_OPENER.match(text)
    split = _result_and_rest(text[opener.end():], _RESULT_FOR) if opener is not None else None
    if opener is not None and split is not None and not finding_stems(text[:opener.end()] + " " + split[1]) & asked:
        # a list is one result ("Negative for pneumothorax, effusion, or consolidation."); the reply may go on to
        # the finding asked about ("Positive for pneumothorax. No pleural effusion.", "Confirmed: pneumothorax, no
        # effusion."), which answers it
        named.append(split[0])
    # (a name with "present" alone counts only where the reply names the finding asked nowhere, and is not denied:
    # not "Atelectasis present. No effusion.", "Effusion no longer present.": the review of that rule)
    bare_ok = not finding_stems(text) & asked
    entries = [(m.group(1), _RESULT_SAYS[(m.group(2) or m.group(3)).casefold()])
               for m in _FINDING_RESULT.finditer(text)
               if m.group(2) or (bare_ok and not CLAUSE_NEGATION.search(m.group(1)))]
    own = {says for name, says in entries if finding_stems(name) & asked}
    if own:
        return len(own) > 1 or (label is not None and label not in own)
    if any(another_finding(name, asked) for name in [*named, *(name for name, _ in entries)]):
        return True
    # fields answered by a bare word: one for another finding puts the reading in doubt, unless a field of the finding
    # asked gives the reading itself ("Pleural effusion: none. Pneumothorax: no."), and so do two fields that share
    # the question's words and answer differently
    # (a field that may give the reading: in a short reply, or closing it; not a report's list of other findings
    # above an answer given elsewhere, held-out batches 102-141)
    short = len(text.split()) <= _SHORT_REPLY_WORDS
    worded = [(m["name"], _WORD_SAYS[re.sub(r"\s+", " ", m["value"].casefold())])
              for m in _FINDING_WORD.finditer(text)
              if not _ANSWER_FIELD.search(m["name"]) and (short or not text[m.end():].strip(" \t\n.;,!*_"))
              # (after a dash, a name of a few words, not a sentence: "That's a coronal reconstruction — yes.")
              and not (m["dash"] and (len(m["name"].split()) > 3 or "'" in m["name"]))]
    own = {says for name, says in worded if _field_of_asked(name, item.question, asked)}
    if own:
        # "Fracture: yes. Displacement: none." to "Is the fracture displaced?": which field answers?; "Effusion: no
        # evidence of. Consolidation: yes, right lower lobe." read yes (a hostile review): against its own field
        return len(own) > 1 or (label is not None and label not in own)
    # (only a field that says the reading: a report's "Stones or masses: None." under a yes is another finding's)
    # (and one that names something: not a side alone, "Right: no. Left: yes.")
    return any(says == label and finding_stems(name) and not _field_of_asked(name, item.question, asked)
               for name, says in worded)


# the question's words that ask a property of what it names ("Is the fracture displaced?", "... loculated?", "... under
# tension?"), which a field naming only the thing ("Fracture: yes.") does not answer
_PROPERTY = re.compile(r"(?i)\b(?:[a-z]+(?:ed|ing)|tension)\b")


def _field_of_asked(name: str, question: str, asked: AbstractSet[str]) -> bool:
    """Whether a field's name is the finding the question asks, all of it: no word the question lacks ("Pleural
    thickening", "Pericardial effusion" to "Is there a pleural effusion?", a hostile review), no side it does not
    name ("Left effusion" to "... a right pleural effusion?"), no other organ's "-megaly" ("Hepatomegaly" to "Is the
    spleen enlarged?"), and each property it asks ("Fracture" does not answer "Is the fracture displaced?")."""
    said = finding_stems(name)
    megaly = {w for w in said if w.endswith("megali")}
    q = question.casefold()
    if megaly and not ("enlarg" in asked and all(_MEGALY_ORGAN.get(w[:4], "\0") in q for w in megaly)):
        return False
    covered = (said - megaly) | ({"enlarg", *finding_stems(" ".join(_MEGALY_ORGAN.get(w[:4], "") for w in megaly))}
                                 if megaly else set())
    if not covered & asked or covered - asked - _DESCRIBING:
        return False
    if {m.group(0).casefold() for m in SIDE.finditer(name)} - {m.group(0).casefold() for m in SIDE.finditer(q)}:
        return False
    wanted = {w for m in _PROPERTY.finditer(question) for w in finding_stems(m.group(0))}
    return not (wanted & asked) - covered


# words a field's name may add to the finding asked without naming another ("Cirrhotic morphology: none." to "Is the
# liver cirrhotic?")
_DESCRIBING = frozenset(finding_stems("morphology morphologic appearance appearances sign signs feature features "
                                      "evidence finding findings pattern degree grade amount size configuration "
                                      "contour"))


# the organ an "-megaly" names, by its first four letters (as :func:`probe_ui.reading.presence.finding_stems` spells
# them)
_MEGALY_ORGAN = {"card": "heart", "hepa": "liver", "sple": "spleen", "thyr": "thyroid"}


# batch 90: "**It certainly does.**" to "Does this image show the kidney?": the question's own verb echoed as the whole
# opening clause, as English answers a yes/no question ("It does.", "It doesn't.", "There is.", "It isn't."); not
# before a comma ("It is, in my view, a CT")
_ECHO = re.compile(r"(?i)(?:it|there|they|this|that)[ \t]+(?:(?:certainly|definitely|absolutely|clearly|really|"
                   r"indeed|sure)[ \t]+)?(does|do|did|is|are|was|were)([ \t]+not|n't)?(?:[ \t]+(?:indeed|so))?"
                   r"(?=[ \t]*(?:[.!\n]|\Z|(?:[\u2013\u2014]|\s-\s)(?P<rest>[^.;!?\n]*)))")
# what may follow the echo after a dash: a clause that says why, not one that limits or turns it ("It does - of the
# right radius, though", "There is - free fluid, not free air", "It was - oral contrast only"; hostile review)
_TURNS = re.compile(r"(?i)\b(?:but|though|although|however|not|no|n't|only|or|if|at\s+least|unless|except|tough|"
                    r"hard|difficult|call|sure|certain|unclear|cannot|can't)\b|n't")
_ASKED_VERB = re.compile(r"(?i)\A\W*(does|do|did|is|are|was|were)\b")
_VERB_GROUPS = ({"does", "do", "did"}, {"is", "are", "was", "were"})


_NAMED_MARKER = re.compile(r"(?i)the[ \t]+[*_]*([^\W\d_]+)[*_]*[ \t]+(?:dot|one|marker|point)\b"
                           r"(?=[ \t]*(?:[.!\n\u2013\u2014]|\s-\s|\Z))")
# (once only: "The red dot - superficial. The green dot - intermediate. The blue dot - deepest." walks the markers)
_NAMED_AGAIN = re.compile(r"(?i)\bthe[ \t]+[*_]*[^\W\d_]+[*_]*[ \t]+(?:dot|one|marker|point)\b")
# batch 98: "The blue one. It sits on the jaw ... The red dot is on the surface of the liver ...": the opening marker
# the only one named as a clause of its own (the others described), not a walk through them all, nor "The blue one.
# Or the red one." (hostile review of 3aa43ea)
_NAMED_ALONE = re.compile(r"(?i)(?:\A|[.!?\n])[ \t*_>]*(?:(?:or|and|maybe|perhaps|possibly)[ \t]+)?the[ \t]+[*_]*"
                          r"[^\W\d_]+[*_]*[ \t]+(?:dot|one|marker|point)\b"
                          r"(?=[ \t]*(?:[.!\n\u2013\u2014]|\s-\s|\Z))")


def _echoed_answer(text: str, item: Item) -> str | None:
    """The answer a yes/no reply gives by echoing the question's verb as its opening clause, or None."""
    if item.kind != "yesno" or not item.aliases:
        return None
    m = _ECHO.match(text)
    if m is not None and m.group("rest") and _TURNS.search(m.group("rest")):
        return None
    asked = _ASKED_VERB.match(item.question) if m is not None else None
    if m is None or asked is None or not any({m.group(1).casefold(), asked.group(1).casefold()} <= g
                                             for g in _VERB_GROUPS):
        return None
    return item.aliases["nope" if m.group(2) else "yep"]


# what an opening word grants only as a first look before the reply turns ("Certainly looks like one at first glance,
# but ...")
_LOOKS_THEN_TURNS = re.compile(r"(?i)[ \t,]*(?:it\s+)?(?:looks?|seems?|appears?)\b[^.;!?\n]{0,60}?"
                               r"\b(?:but|however|though|yet)\b")
# a question back to the user ("Do you mean an acute fracture?"), not the question restated
_ASKS_BACK = re.compile(r"(?i)[\W_]*(?:question[\W_]*)?(?:do|did|are|could|can|would|should|shall|may)\s+"
                        r"(?:you|i|we)\b")


_NOT_RESTATING = frozenset({"please", "answer", "this", "there", "image", "with", "that", "which", "what"})


def _restates(line: str, question: str) -> bool:
    """Whether an opening line restates the item's question: a word of four letters or more in common, and not a
    question back to the user (a hostile review of 9a5c55c: "Do you mean an acute fracture?\nNo acute fracture, but
    there is an old healed fracture of the sixth rib.")."""
    if _ASKS_BACK.match(line):
        return False
    words = {w.casefold() for w in re.findall(r"[^\W\d_]{4,}", question)} - _NOT_RESTATING
    return any(w.casefold() in words for w in re.findall(r"[^\W\d_]{4,}", line))


def leading_word(text: str, item: Item) -> str | None:
    """A reply that opens with its answer: "No, there is ...", "Yes there is a mass but no ...", "Red.".

    Yes/no replies put the answer first, so the opening word decides even when the other word occurs later.
    Other labels must be followed by punctuation ("Red, because ..."), since "Red is not the closest ..."
    opens with a label it rejects.
    """
    t = text.lstrip(" \t\n\"'`*_>")
    if "?" in t[:300] and item.question:
        rest = after_restated_question(t)  # "## Is There a Fracture?\n\n**Absolutely.**"
        line = t[:len(t) - len(rest)]
        if rest is not t and _restates(line, item.question):
            t = rest.lstrip(" \t\n\"'`*_>")
    if item.kind == "yesno" and ":" in t[:20]:
        # batch 81: "IMPRESSION: Positive for a left-sided pleural effusion.": the opening under a report's heading
        t = _IMPRESSION_HEADING.sub("", t, count=1)
    echoed = _echoed_answer(t, item)
    if echoed is not None:
        return echoed
    named = _NAMED_MARKER.match(t) if item.kind == "label" else None
    if named is not None and (len(_NAMED_AGAIN.findall(t)) == 1 or len(_NAMED_ALONE.findall(t)) == 1) \
            and not _TURNS.match(t, named.end()) \
            and not _TURNS.search(re.split(r"[.;!?\n]", t[named.end():], maxsplit=1)[0]):
        # batch 93: "The **blue** dot — it lies on the epidermal surface, while red and green are deeper": the marker
        # named as the reply's opening clause
        lab = item.exact(named.group(1))
        if lab is not None:
            return lab
    follow = r"[ \t]*(?:[.,;:!\n)\-]|\Z)" if item.kind == "label" else r"(?:[ \t]*[.,;:!\n)\-]|\s|\Z)"
    for word, lab in sorted(item.words + item.openers, key=lambda w: -len(w[0])):
        m = phrase_regex(word, suffix=item.kind == "label").match(t)
        if m and word in CLAUSE_OPENERS and not re.match(r"[ \t]*(?:[.,;:!\n\-\u2013\u2014]|\Z)", t[m.end():]):
            continue  # "Looks like it is a CT": what it looks like follows, not an answer
        if m and _LOOKS_THEN_TURNS.match(t, m.end()):
            continue  # a hostile review of 9a5c55c: "Certainly looks like one at first glance, but it's an MRI"
        if m and word in CLAUSE_OPENERS and "look" in word and _TAKEN_BACK.match(t, m.end()):
            continue  # a review of 6ce9d37: "It looks that way, but on closer inspection the line is a skin fold"
        if m and word in MARKED_OPENERS and not re.match(r"[ \t]*(?:[.,;:!\n\-\u2013\u2014]|\Z)", t[m.end():]):
            continue  # batch 68: "Y. CSF bright." is yes; "N of 3 ..." is no answer
        if m and word.casefold() == "nay" and re.match(r"[ \t]*[,;:\-\u2013\u2014]+[ \t]*(?:worse|even|rather|better|"
                                                       r"more|less|indeed|i\s+say)\b", t[m.end():], re.IGNORECASE):
            continue  # "Nay, worse: the fracture is comminuted": "nay" that outbids, not a no
        if m and word.casefold() == "confirmed" and re.match(r"[ \t]*[:\u2013\u2014\-][ \t]*(?:no|not|none|negative)\b",
                                                             t[m.end():], re.IGNORECASE):
            continue  # "Confirmed: no pleural effusion.": what is confirmed is an absence (hostile review, batch 85)
        if m and word.casefold() in ("positive", "negative") and item.question and _STUDY_RESULT.match(t, m.end()) \
                and subject.asked_values(item.question) and not PRESENCE_QUESTION.search(item.question):
            continue  # batch 106: "Negative screening mammographic view." says what the study showed, not whether the
            # image is what the question names ("Is this a mammogram?"; but "Negative MRI - it's a CT." is a no)
        if m and word.casefold() in ("positive", "negative", "confirmed") and _for_another_finding(t[m.end():], item):
            # "Positive for pneumothorax." to "Is there a pleural effusion?" answers another question, as does
            # "Confirmed: pneumothorax, no effusion." (hostile review of batches 80-83)
            continue
        if m and re.match(follow, t[m.end():]):
            # "Yes and no", "Yes/No", and a list "Red, green, blue." / "Yes, no, maybe." (not "Yes, no other
            # lesions.": there "no" starts a phrase)
            # (the spaces taken once, possessively: "yes", 20,000 spaces, "no wait" took 16 s)
            both = re.match(r"[ \t]*+(?:,?[ \t]*(?:and|or|/|-|then|followed\s+by)[ \t]*(\w+)"
                            r"|,[ \t]*(?:then[ \t]+)?(\w+)(?=[ \t]*(?:[,.;!/]|\Z|(?:and|or|then)\b))"
                            r"|(?<=[ \t])(\w+)[ \t]*+[.!]?[ \t]*\Z)", t[m.end():], re.IGNORECASE)
            if both and any(norm(both.group(1) or both.group(2) or both.group(3)) == w and other != lab
                            for w, other in item.words):
                return None  # "Yes and no": both words, left to the ambiguity rule
            return lab
    return None


# what may follow a "no" said as the answer with no mark between ("No it isn't", "No there is none", "No the heart is
# normal"): a "no" before any other word opens a noun phrase ("No ascites.")
_AFTER_BARE_NO = frozenset("it it's its there there's this that i i'm i'd i've we you they he she the not wait way sir "
                           "definitely absolutely certainly clearly really sorry thanks thank because but and nope no "
                           "yes".split())
# "No dice —", "No chance." are a no (not "No chance to compare with a prior film")
_NO_IDIOM = re.compile(r"(?i)no[ \t]+(?:dice|chance|way)[ \t]*(?:[.,;:!\u2013\u2014\-]|\Z)")


def _denies_another(text: str, item: Item) -> bool:
    """Yes/no items: whether the "no" that opens ``text`` opens a noun phrase that denies another finding than the
    one asked about ("No ascites." or "No further imaging is needed ..." to "Is the liver cirrhotic?", "No acute
    disease, apart from a small left effusion" to "Is there a pleural effusion?": hostile review of batch 91's
    rules), so that it is no answer; not "No pneumothorax." to "Is there a pneumothorax?", "No abnormality is
    evident." to "... any abnormality ...?", nor "No, ...", "No it isn't"."""
    m = _NO_FINDING.match(text)
    if not item.question or m is None:
        return False
    words = _DENIED_PHRASE.findall(re.split(r"[.,;:!?\n()]|\s[\-\u2013\u2014]\s", text[m.start(1):m.start(1) + 120],
                                            maxsplit=1)[0])
    of = next((i for i, w in enumerate(words[:4]) if w.casefold() in _EVIDENCE and i + 1 < len(words)
               and words[i + 1].casefold() == "of"), None)
    if of is not None:
        words = words[of + 2:]  # "no radiographic evidence of cardiomegaly": what there is no evidence of
    words = list(itertools.takewhile(lambda w: w.casefold() not in _PHRASE_ENDS, words))[:4]
    first = words[0].casefold() if words else ""
    if _NO_IDIOM.match(text):
        return False
    if first in _AFTER_BARE_NO or not re.fullmatch(r"[a-z][a-z\-']{2,}", first) \
            or not re.match(r"no[ \t]\S", text, re.I):
        # not English (the language pass's own "no" before words it left as they were: "no 显示肾脏", "no  ada
        # ayer dalam perot"; Sardinian "no bi at pneumotòrace"): left to the rules for other languages
        return False
    if first in _NOT_THE_SAME or {w.casefold() for w in words} & _COURSE:
        return True  # "No further imaging", "No fracture healing is seen yet", "No change in the size of ..."
    # what the question asks (its finding, adjective, substance; "pleural" in "Is there a pleural effusion?" is where,
    # and "No visceral pleural line" denies another finding), or, where it asks none, any word of it ("No contrast
    # was given." to "Was this MRI acquired after gadolinium contrast?")
    terms = asked_terms(item.question) or question_words(item.question)
    named = subject.asked_subject(item.question)  # "no spleen is normal size" to "Is the spleen enlarged?"
    if named is not None:
        terms = (*terms, overlap.stem(named))
    if any(_same_stem(overlap.stem(w), term) for w in words for term in terms):
        return False
    phrase, q = " ".join(words), item.question.casefold()
    if any(finding in q and any(re.search(r"(?i)\b" + re.escape(sign) + r"\b", phrase) for sign in signs)
           for finding, signs in SIGNS_OF.items()):
        return False
    return another_finding(phrase, set(terms))  # (as written: "No PTX" is pneumothorax)


# a denied noun phrase's words, up to a verb or preposition after it ("No abnormality is evident", "No enlargement of
# the heart")
_DENIED_PHRASE = re.compile(r"[^\W\d_][\w\-']*")
_EVIDENCE = frozenset("evidence sign signs feature features".split())
# what a denied phrase says of a finding's course, not of whether it is there ("No pneumothorax resolution yet", "No
# effusion drainage was attempted": hostile review of 2363cef)
_COURSE = frozenset("change changes healing resolution drainage progression improvement regression growth "
                    "treatment intervention".split())
_PHRASE_ENDS = frozenset("is are was were be been seen noted identified present visible evident demonstrated detected "
                         "in on at within to from for of apart but".split())
# where a "no" before a noun phrase denies what the phrase names: opening the reply, a sentence, a line or a list's
# entry, after a colon or comma, "and", "with", a copula or "shows" ("There is no ascites", "shows no wall
# thickening"); not "By no means", "in no way", nor another language's "no" ("lewa i no bikpela")
_DENYING_NO = re.compile(r"(?i)(?:\A|(?<=[.!?;:,\n(])|(?<=^[-*+])|\b(?:and|with|is|are|was|were|shows?|showing|"
                         r"there's|has|have|had|see|seen)(?=[ \t]))[ \t*_>#\-]*+(no)[ \t]+(?=[^\W\d_])", re.MULTILINE)


def denied_others(text: str, item: Item) -> list[tuple[int, int]]:
    """Yes/no items: the spans of each "no" that opens a noun phrase the reader cannot tie to what the question asks
    (:func:`_denies_another`: "- No ascites." to "Is the liver cirrhotic?", "no wall thickening" to "Is this an
    ultrasound image?"): it may deny another finding, or the asked one in words the reader does not know ("No free
    gas." to "Is there pneumoperitoneum?"), so a "no" read from it alone is a guess."""
    if item.kind != "yesno" or not item.question:
        return []
    return [m.span(1) for m in _DENYING_NO.finditer(text) if _denies_another(text[m.start(1):], item)]


def set_aside_no(text: str, item: Item) -> bool:
    """Yes/no items: whether the label-word rule read the reply's yes only because it set aside a "no" before a noun
    phrase it cannot tie to what the question asks (:func:`denied_others`): "No free air under the diaphragm. Yes, the
    film is erect." to "Is there pneumoperitoneum?" (hostile review of 2363cef)."""
    others = denied_others(text, item)
    if not others:
        return False
    nope, absences = item.aliases.get("nope"), described_absences(text, item)
    return nope in label_words(mask_spans(text, absences), item) \
        and nope not in label_words(mask_spans(text, [*absences, *others]), item)


def only_of_others(text: str, item: Item) -> bool:
    """Yes/no items: whether every "no" the reply says as a word denies something the reader cannot tie to what the
    question asks (:func:`denied_others`; hostile reviews of batch 91's and 2363cef's rules): "- No ascites.\n...
    \nNo further imaging is needed to call this cirrhosis." to "Is the liver cirrhotic?" is no sure no."""
    spans = denied_others(text, item)
    if not spans:
        return False
    nope, rest = item.aliases.get("nope"), mask_spans(text, spans)
    return nope not in label_words(rest, item) and leading_word(rest, item) != nope


# batch 14: what a "no" concedes at once ("not really, maybe a little"): some of what it denied, a hedge
_CONCEDED = re.compile(r"(?i)[ \t]*[,;:\-\u2013\u2014.]+[ \t]*(?:(?:but|though|although|well|or)[ \t,]+)?(?:maybe|"
                       r"perhaps|possibly|probably)[ \t,]+(?:just[ \t]+|only[ \t]+)?(?:a[ \t]+(?:little|bit|touch|tad)"
                       r"(?:[ \t]+bit)?|slightly|somewhat|mildly|marginally|minimally)(?:[ \t]+[^\W\d_]+)?"
                       r"[ \t]*[.!]?[ \t]*\Z")


def conceded_degree(text: str, item: Item) -> bool:
    """Yes/no items: a reply that opens with "no" and at once concedes a degree of what it denies ("not really, maybe a
    little", "No, perhaps slightly."): it hedges between the two answers."""
    if item.kind != "yesno" or not item.aliases:
        return False
    t = text.lstrip(" \t\n\"'`*_>")
    nope = item.aliases["nope"]
    for word, lab in sorted(item.words + item.openers, key=lambda w: -len(w[0])):
        m = phrase_regex(word).match(t) if lab == nope else None
        if m is not None:
            return _CONCEDED.match(t, m.end()) is not None
    return False


_MAYBE_BEFORE = re.compile(r"(?i)\b(?:maybe|perhaps|possibly)[ \t,]+(?:(?:the|a|an)[ \t]+)?$")


# batch 90: "No, I don't think the spleen is enlarged.": the clause the reply doubts as a whole, its "not" moved up
_DOUBTING = re.compile(r"(?i)\b(?:don['\u2019]t|do\s+not|dont)\s+(?:think|believe)\b")


def _doubted(clause: str, at: int) -> bool:
    """Whether the clause opens with "I don't think" and so puts what stands at ``at`` under it (its "not" moved up;
    not "Yes, though I don't think ...")."""
    m = _DOUBTING.search(clause, 0, at)
    return m is not None and _DOUBT_OPENS.fullmatch(clause, 0, m.start()) is not None


_DOUBT_OPENS = re.compile(r"(?i)[\W_]*(?:(?:yes|no)\b[\W_]*)?(?:i[ \t]+)?")


# the verb that says what the subject is, with its denial ("is not", "isn't", and batch 94's "does not appear")
_COPULA = (r"(?i)(?:\b(?P<aux>(?:does|do)(?:\s+not|n't))\s+)?\b(?:is|are|was|were|looks?|appears?|seems?)"
           r"(?P<neg>\s+not|n't)?\s+")


# a clause that concedes what it goes on to overturn ("at first glance", "although ... on this slice")
_CONCEDING = re.compile(r"(?i)\b(?:although|though|at\s+first|initially|on\s+first|on\s+this\s+(?:slice|view|image))\b")


def restated_answer(text: str, item: Item) -> tuple[str, bool] | None:
    """Yes/no items: the answer the reply's first clause (after its opening yes/no word) states with the opposite of
    the question's word ("this scan is not normal" to "Does it show any abnormality?" is yes; "it is normal" is no;
    "the fracture is undisplaced" to "Is the fracture displaced?" is no), when the question's word has opposites
    (:data:`probe_ui.reading.subject.ANTONYMS`), and whether that clause says it with a "not" ("is not normal"):
    a "No" before a clause negated so echoes its "not" and answers that clause, not the question."""
    if item.kind != "yesno" or not item.question or not item.aliases:
        return None
    q = item.question.casefold()
    clauses = re.split(r"[.;!?\n]|\s-\s|\bbut\b", text, maxsplit=2)
    # "Yes - the fracture is undisplaced.": the clause after a lone yes/no word
    first = clauses[1] if len(clauses) > 1 and item.exact(clauses[0]) is not None else clauses[0]
    said: set[tuple[str, bool]] = set()
    for word, opposites in subject.ANTONYMS.items():
        if not pattern(r"\b" + re.escape(word[:7])).search(q) or any(pattern(r"\b" + re.escape(o)).search(q)
                                                                     for o in opposites):
            continue
        for o in opposites:
            for m in pattern(_COPULA + r"(?:(?:entirely|completely|totally|quite|perfectly)\s+)?" + re.escape(o)
                             + r"\b").finditer(first):
                if m.group("aux") and _CONCEDING.search(first):
                    continue  # "Yes - it doesn't look enlarged at first glance, but it measures 16 cm"
                neg = bool(m.group("neg") or m.group("aux")) != _doubted(first, m.start())
                said.add(("yes" if neg else "no", neg))
    said |= _finding_stated(first, q, after_word=first is not clauses[0])
    # the question's own word, said or denied (batch 13): "yes, the fracture is not displaced" to "Is the fracture
    # displaced?" states no after its yes
    predicate = _PREDICATE_QUESTION.match(item.question)
    if predicate is not None:
        for m in pattern(_COPULA + r"(?:(?:entirely|completely|totally|quite|at\s+all)\s+)?"
                         + re.escape(predicate.group(1)) + r"\b").finditer(first):
            if m.group("aux") and _CONCEDING.search(first):
                continue
            neg = bool(m.group("neg") or m.group("aux")) != _doubted(first, m.start())
            said.add(("no" if neg else "yes", neg))
    if len({answer for answer, _ in said}) != 1:
        return None
    answer, negated = said.pop()
    return item.aliases["yep" if answer == "yes" else "nope"], negated


# "Is the fracture displaced?": the question's predicate, whose noun a clause may state ("there is 4 mm of
# displacement")
_PREDICATE_QUESTION = re.compile(r"(?i)\A\W*(?:is|are)\s+(?:the|this|these)\s+[\w \-]{1,40}?\s+([a-z]{6,})\s*\?")
# a clause that states something is there, denying nothing
_THERE_IS = re.compile(r"(?i)[ \t]*\bthere\s+(?:is|are)\b")
# a clause that calls what it names normal ("the left kidney is unremarkable")
_CALLED_NORMAL = re.compile(r"(?i)\b(?:is|are|looks?|appears?|seems?)\s+(?:entirely\s+|completely\s+|otherwise\s+)?"
                            r"(?:unremarkable|normal|clear|within\s+normal\s+limits)\b"
                            # batch 83: "No — the left costophrenic angle is sharp; the fluid is on the right side." (a
                            # sharp angle holds no fluid)
                            r"|\b(?:angles?|sulc(?:us|i))\s+(?:is|are|looks?|appears?|remains?)\s+(?:\w+\s+)?sharp\b")


def _finding_stated(clause: str, question: str, after_word: bool = False) -> set[tuple[str, bool]]:
    """The answer a reply's first clause gives by stating the finding itself (batch 9): "there is 4 mm of
    displacement" to "Is the fracture displaced?" says yes; "the left kidney is unremarkable" to "Is a mass present
    in the left kidney?" says no. Nothing when the clause denies anything ("there is no displacement") or the
    question asks whether something is normal."""
    # "No, there is ...": the answer word, marked as such by what follows it (not "no there is", Portuguese "Não há"
    # read in English)
    marked = after_word or re.match(r"(?i)\A[\W_]*(?:yes|no|yep|nope)\b[ \t]*[,:;\-\u2013\u2014]", clause) is not None
    if not after_word:  # (batch 17: after "Incorrect -", the "no" of "no pneumothorax is seen" denies the finding)
        clause = re.sub(r"(?i)\A[\W_]*(?:yes|no|yep|nope)\b[\W_]*", "", clause)
    if _NEGATION.search(clause) or re.search(r"(?i)\b(?:normal|unremarkable|abnormal\w*)\b", question):
        return set()
    said: set[tuple[str, bool]] = set()
    pred = _PREDICATE_QUESTION.search(question)
    if pred is not None and not PRESENCE_QUESTION.search(question):
        there = _THERE_IS.search(clause)
        if there is not None and re.search(r"(?i)\b" + re.escape(pred.group(1)[:6].lower()), clause[there.end():]):
            said.add(("yes", False))
    if PRESENCE_QUESTION.search(question) and _CALLED_NORMAL.search(clause):
        said.add(("no", False))
    finding = asked_finding(question) if marked and PRESENCE_QUESTION.search(question) else None
    there = _THERE_IS.match(clause) if finding else None
    if there is not None and finding and not (_names_place(question) and speaks_elsewhere(clause, question)) and any(
            _same_stem(overlap.stem(w), overlap.stem(finding)) for w in re.findall(r"[^\W\d_][\w\-]*",
                                                                                   clause[there.end():])[:4]):
        # batch 10: "No, there is a fracture line through the scaphoid waist." to "Is there a fracture ...?": the asked
        # finding stated as there, the head of the clause's first noun phrase ("there is a nutrient canal mimicking a
        # fracture" names another thing)
        said.add(("yes", False))
    seen = _SEEN.match(synonyms.canonical(clause)) if finding else None
    if seen is not None and finding and not (_names_place(question) and speaks_elsewhere(clause, question)) and any(
            _same_stem(overlap.stem(w), overlap.stem(finding)) for w in re.findall(r"[^\W\d_][\w\-]*", seen.group(1))):
        # batch 11: "No. A cortical break is visible at the distal fibula." to "Is there a fracture ...?": the asked
        # finding (or its sign, synonyms.SIGNS) is what the clause says is visible
        said.add(("yes", False))
    return said


# a clause whose subject, the asked finding, is said to be seen: "A cortical break is visible at the distal fibula."
_SEEN = re.compile(r"(?i)[ \t]*(?:(?:an?|the)[ \t]+)?((?:[\w\-]+[ \t]+){0,3}?[\w\-]+)[ \t]+(?:is|are)[ \t]+"
                   r"(?:clearly[ \t]+|also[ \t]+|well[ \t]+)?(?:visible|seen|present|evident|identified|noted|"
                   r"demonstrated|shown|depicted|apparent)\b")


def _names_place(question: str) -> bool:
    """Whether a question asks about a place (a side, lobe or level, or an organ: "... in the right lower lobe?"), so
    that an answer may speak of another; "Is there a fracture in this radiograph?" names none."""
    return bool(_PLACES.search(question)) or any(m.group(1).casefold() not in _ANYWHERE
                                                 for m in _LOCATED.finditer(question))


def subject_answer(text: str, item: Item) -> str | None:
    """Yes/no items: the answer the rest of the reply's opening sentence, after its yes/no word and a comma, dash or
    colon, gives by the question's subject ("Yes, male patient." to "Is this patient female?" says no;
    :func:`probe_ui.reading.subject.answer_from_subject`), as the item spells it; None when it gives none, says
    "not" (the subject reader does not weigh negations), or the question asks whether a finding is present (its
    subject is where to look, not the answer)."""
    if item.kind != "yesno" or not item.question or not item.aliases or PRESENCE_QUESTION.search(item.question):
        return None
    t = text.lstrip(" \t\n\"'`*_>")
    if word_prefix(t, item) is None:
        return None
    m = re.match(r"[^\W_]+[ \t]*[,:;\-\u2014]+[ \t]*([^.;!?\n]+)", t)
    if m is None or _NEGATION.search(m.group(1)) or _CALLED_NORMAL.search(m.group(1)):
        return None  # batch 11: "No; ... the left side is clear." names the side asked to say it is clear
    said = subject.answer_from_subject(m.group(1), item.question)
    return None if said is None else item.aliases["yep" if said == "yes" else "nope"]


_NEGATION = re.compile(r"(?i)\b(?:not|no|never|without|neither|nor|non)\b|n't\b")


def label_words(text: str, item: Item, negated: bool = False, guesses: bool = False) -> list[str]:
    """Distinct labels mentioned as whole words/phrases, negated mentions ("not upside down") and rejected ones
    ("Blue is not the closest") dropped (label items); with ``negated``, only those dropped ones. A label after
    "maybe" is entertained, not said, unless ``guesses`` (a decline's guess: "too dark to tell, maybe blue")."""
    hits: list[str] = []
    dropped: list[str] = []
    taken = bytearray(len(text))
    for word, lab in sorted(item.words, key=lambda w: -len(w[0])):
        for m in phrase_regex(word, suffix=item.kind == "label").finditer(text):
            if any(taken[m.start():m.end()]):
                continue  # inside a longer label already counted
            taken[m.start():m.end()] = b"\x01" * (m.end() - m.start())
            if not guesses and _MAYBE_BEFORE.search(text[max(0, m.start() - 30):m.start()]):
                continue  # "Not blue, maybe red.": entertained, not said
            if item.kind == "label" and (is_negated(text[max(0, m.start() - 200):m.start()])
                                         or _LABEL_REJECTED_AFTER.match(text[m.end():m.end() + 80])):
                if lab not in dropped:
                    dropped.append(lab)
                continue
            if lab not in hits:
                hits.append(lab)
    return [d for d in dropped if d not in hits] if negated else hits


# batch 50: a label's adverb ("correctly") after a verb of the file's delivery says how the image came through ("The
# image did not upload correctly; I only see a black rectangle.", "it failed to load correctly"), not what it shows;
# "displayed correctly" is an orientation (synonyms) and is not among these verbs
_DELIVERED_BEFORE = re.compile(r"(?i)\b(?:up)?load(?:ed|s)?[ \t]+(?:\w+[ \t]+)?$|\b(?:render(?:ed|s)?|attach(?:ed|es)?|"
                               r"transmit(?:ted|s)?|come[ \t]+through|came[ \t]+through|decod(?:e|ed|es))[ \t]+"
                               r"(?:\w+[ \t]+)?$")


def delivery_adverbs(text: str, item: Item) -> list[tuple[int, int]]:
    """Label items: the spans of a label's adverb that says how the file came through, not what the image shows
    ("The image did not upload correctly; I only see a black rectangle.", batch 50): for the caller to mask, before
    a refusal's own words are masked away."""
    if item.kind != "label":
        return []
    spans = []
    for word, _lab in item.words:
        for m in phrase_regex(word, suffix=True).finditer(text):
            if m.end() - m.start() > len(word) and _DELIVERED_BEFORE.search(text, max(0, m.start() - 40), m.start()):
                spans.append((m.start(), m.end()))
    return spans


# A label rejected after its mention: "Blue is not the closest", "Red isn't"
_LABEL_REJECTED_AFTER = re.compile(
    r"\A(?:[ \t]+(?:dot|one|circle|point|marker|option|answer|label))?[ \t]+(?:is|was|seems|appears|looks)"
    r"(?:[ \t]+(?:definitely[ \t]+|certainly[ \t]+|clearly[ \t]+)?(?:not|wrong|incorrect)\b|n't\b)",
    re.IGNORECASE,
)


# a yes/no word said as the answer: it opens its clause and a mark follows it ("Yes, there is ...", "No.", "No -"),
# unlike the "no" of "No other abnormality is seen."
_INTERJECTION_FOLLOW = re.compile(r"[ \t]*(?:[,.;:!)\-\u2014]|\Z)")
# "No pneumothorax is seen.", "No definite consolidation.", "No evidence of a fracture": the first words denied
_NO_FINDING = re.compile(r"(?i)no[ \t]+(?:(?:definite|obvious|visible|convincing|clear|significant|evidence[ \t]+of|"
                         r"signs?[ \t]+of)[ \t]+)?(?:(?:an?|the)[ \t]+)?([^\W\d_][\w\-]*)(?:[ \t]+([^\W\d_][\w\-]*))?")
_NOT_THE_SAME = frozenset("other further additional new more second another".split())
# where a denial may point elsewhere than the question ("No consolidation in the left lung." to "... right lower
# lobe?")
# (not inside a compound's name: "the caudate-to-right-lobe ratio")
_PLACES = re.compile(r"(?i)(?<!-)\b(?:left|right|upper|lower|middle|other|opposite|contralateral|bilateral|"
                     r"elsewhere)\b")
# "No free fluid in the abdomen." to "Is there a pleural effusion?": a place the question does not name
_LOCATED = re.compile(r"(?i)\b(?:in|within|around|under|beneath|below|above|at|along|behind)\s+(?:the|this|that)\s+"
                      r"(?:[\w\-]+\s+)?([^\W\d_][\w\-]*)")
_ANYWHERE = frozenset("image images film scan study view radiograph x-ray picture side sides field".split())
# what a finding is made of: denying it denies the finding ("No layering fluid is seen." to "Is there a pleural
# effusion?", "No free fluid." to "Is there ascites?")
SUBSTANCE: dict[str, str] = {"effusion": "fluid", "ascites": "fluid", "hemorrhage": "blood", "haemorrhage": "blood",
                             "hematoma": "blood", "haematoma": "blood", "hemothorax": "blood"}
# the signs by which a finding shows: denying one denies the finding ("No pleural line is seen on this film." to "Is
# there a pneumothorax?", "no gap and no angle, so not displaced", "The liver surface is smooth; no nodularity."), where
# "no" before any other finding denies that one only (:func:`_denies_another`)
SIGNS_OF: dict[str, tuple[str, ...]] = {
    "pneumothorax": ("pleural line", "pleural edge", "deep sulcus", "lung edge"),
    "cirrho": ("nodularity", "nodular", "caudate hypertrophy", "surface irregularity"),
    "effusion": ("meniscus", "blunting", "layering"),
    "fracture": ("lucent line", "fracture line", "cortical break", "cortical step", "step-off", "lucency"),
    "displaced": ("step", "step-off", "angulation", "angle", "offset", "translation", "gap", "overriding",
                  "shortening", "rotation"),
    "osteoarthritis": ("joint space narrowing", "joint-space narrowing", "joint space loss", "joint-space loss"),
}


def _same_stem(a: str, b: str) -> bool:
    """Two stems name the same word: equal, or alike in their first seven letters ("displacement", "displaced")."""
    return a == b or (len(a) >= 7 and len(b) >= 7 and a[:7] == b[:7])


@functools.lru_cache(maxsize=1024)
def asked_terms(question: str) -> tuple[str, ...]:
    """The stems of what a yes/no question asks: the finding ("pneumothorax" in "Is there a pneumothorax?") and
    what it is made of (:data:`SUBSTANCE`: "fluid" for an effusion), the adjective ("displaced" in "Is the fracture
    displaced?"), the noun after "any" ("any abnormality")."""
    if not question:
        return ()
    terms = [asked_finding(question), subject.asked_predicate(question),
             *(m.group(1) for m in re.finditer(r"(?i)\bany\s+([^\W\d_][\w\-]*)", question))]
    terms += [SUBSTANCE[t.casefold()] for t in terms if t and t.casefold() in SUBSTANCE]
    return tuple(overlap.stem(t) for t in terms if t)


def speaks_elsewhere(text: str, question: str) -> bool:
    """Whether ``text`` places what it says where the question does not ask: a side, lobe or level the question does
    not name ("No consolidation in the left lung." to "... in the right lower lobe?"), or an organ it does not name
    ("No free fluid in the abdomen." to "Is there a pleural effusion?")."""
    q = question.casefold()
    return names_another_place(text, question) or any(
        w.casefold() not in q and w.casefold() not in _ANYWHERE for w in (p.group(1) for p in _LOCATED.finditer(text)))


def names_another_place(text: str, question: str) -> bool:
    """Whether ``text`` names a side, lobe or level the question does not name ("No blunting on the left" to "Is there
    a pleural effusion?")."""
    q = question.casefold()
    return any(p.group(0).casefold() not in q for p in _PLACES.finditer(text))


def answer_clauses(text: str) -> list[str]:
    """The reply's sentences and clauses, each with its closing mark, where an answer may be stated on its own: a
    reply that states two answers in them contradicts itself (a clause of a findings field is one too: "Yes.\n-
    **Cortex:** Intact; no fracture line anywhere." is both, hostile review of fd68bdc)."""
    return [x for x in re.split(r"(?<=[.!?;\n])", text) if x]


# a few words that open a clause before the answer it states ("On my own read, no, I don't see a fracture.",
# "Honestly, yes."): where a yes/no word after them is still the clause's answer (for doubts, not for reading)
_LEAD_IN = re.compile(r"(?i)(?:(?:on|in|from|by|to)[ \t]+(?:my|a|our)[ \t]+(?:own[ \t]+|second[ \t]+|closer[ \t]+)?"
                      r"(?:read(?:ing)?|view|look|opinion|review|assessment|judge?ment)|honestly|frankly|personally|"
                      r"candidly|to[ \t]+be[ \t]+honest|in[ \t]+short|in[ \t]+summary|overall)[ \t]*,[ \t]*")


def stated_answers(text: str, item: Item, *, after_lead_in: bool = False) -> set[str]:
    """Yes/no items: the answers the reply states clause by clause, without counting what its clauses only
    mention: a yes/no word that opens its clause as the answer ("Yes, there is an effusion.", "No.", "No -"), and a
    sentence that opens by denying what the question asks ("No pneumothorax is seen." to "Is there a
    pneumothorax?", "No contrast was given." to "Was this MRI acquired after gadolinium contrast?"; not "No other
    abnormality is seen.", nor "No consolidation in the left lung." to "... in the right lower lobe?", nor "No free
    fluid in the abdomen." to "Is there a pleural effusion?"). Two answers stated
    ("Yes, there is a pleural effusion. No, the costophrenic angles are clear.", "Yes. No pneumothorax is seen.")
    contradict each other. ``after_lead_in`` counts a yes/no word after a few opening words too ("On my own read,
    no, ...")."""
    if item.kind != "yesno":
        return set()
    terms: tuple[str, ...] | None = None
    q = item.question.casefold()
    out: set[str] = set()
    for x in answer_clauses(text[:2000]):
        if x.rstrip().endswith("?"):
            continue  # asked, not answered
        t = x.lstrip(" \t\n-*>\"'`_")
        lead = _LEAD_IN.match(t) if after_lead_in else None
        if lead is not None:
            t = t[lead.end():]
        for word, lab in item.words:
            m = phrase_regex(word).match(t)
            if m and _INTERJECTION_FOLLOW.match(t, m.end()):
                out.add(lab)
        m = _NO_FINDING.match(t)
        if m is None or not item.aliases:
            continue
        words = [w for w in m.groups() if w]
        if not words or words[0].casefold() in _NOT_THE_SAME:
            continue
        if terms is None:
            terms = asked_terms(item.question)
        if any(_same_stem(overlap.stem(w), term) for w in words for term in terms) \
                and not speaks_elsewhere(t, item.question):
            out.add(item.aliases["nope"])
        elif not PRESENCE_QUESTION.search(q) and re.search(r"\b" + re.escape(words[0].casefold()) + r"\b", q) \
                and subject.answer_from_subject(t, item.question) == "no":
            # the question's own word denied where it asks about the image (modality, contrast, ...), not about a
            # finding: "No contrast was given." to "Was this MRI acquired after gadolinium contrast?"
            out.add(item.aliases["nope"])
    return out


@functools.lru_cache(maxsize=1024)
def question_words(question: str) -> tuple[str, ...]:
    """The stems of a question's words of more than three letters: what a "no" before them may deny."""
    return tuple(overlap.stem(w) for w in re.findall(r"[^\W\d_][\w\-]*", question) if len(w) > 3)


# what an appearance granted at the opening is then taken back by ("It looks that way, but ...", "It does look that
# way - until you notice ...")
_TAKEN_BACK = re.compile(r"(?i)[ \t]*[,;:\-\u2013\u2014]*[ \t]*(?:but|until|though|although|however|yet|except)\b")
# the words a question frames what it asks with, and its instruction ("Is this an ultrasound image? (please answer
# yes/no)")
_FRAMING = frozenset(overlap.stem(w) for w in ("image", "images", "picture", "please", "answer", "this"))
# a "no" before a noun phrase ("there's no pre-contrast series", "carries no sequence label")
_NO_BEFORE_NOUN = re.compile(r"(?i)\b(no)[ \t]+(?=[^\W\d_])")


# what turns from a decline's reasons to a guess ("I can't be sure, but no effusion is seen")
_TURN_TO_GUESS = re.compile(r"(?i)\b(?:but|though|although|however|still|nevertheless|nonetheless|yet|that\s+said|"
                            r"if\s+(?:forced|pressed|i\s+had\s+to)|guess\w*|lean\w*|tentative\w*)\b")


def declined_for_want(text: str, item: Item, start: int = 0) -> list[tuple[int, int]]:
    """Yes/no items, in the reasons after a decline that opens the reply at ``start`` (batch 22), up to a turn to a
    guess: the spans of each "no" before a noun phrase that does not deny what the question asks ("I can't determine
    that: there's no pre-contrast series to compare against" to "Was this MRI acquired after gadolinium contrast?"):
    it says what the reply lacks to answer, not the answer no ("I can't say: no contrast was given." still denies
    it), nor one before a word of the question itself ("no gadolinium was given")."""
    if item.kind != "yesno" or not item.question:
        return []
    turn = _TURN_TO_GUESS.search(text, start)
    stop = turn.start() if turn is not None else len(text)
    terms = (*asked_terms(item.question), *question_words(item.question))
    out = []
    for m in _NO_BEFORE_NOUN.finditer(text, start, stop):
        # the noun phrase ends at its sentence's mark (batch 24: "... with no recognisable anatomy. Please verify
        # ..." was taken to deny the question's own "(please answer yes/no)")
        phrase = re.split(r"[.;:!?\n]", text[m.end():m.end() + 80], maxsplit=1)[0]
        words = re.findall(r"[^\W\d_][\w\-]*", phrase)[:3]
        if not any(_same_stem(overlap.stem(w), term) for w in words for term in terms):
            out.append(m.span(1))
    return out


# batch 21: "a thin pleural line with no lung markings beyond it", "Visible pleural line, no lung markings
# peripherally": a "no" that says what a finding is without
_WITH_NO = re.compile(r"(?i)(?:\bwith|(?<=[^\W\d_]),)[ \t]+(no)[ \t]+(?=[^\W\d_])")


def described_absences(text: str, item: Item) -> list[tuple[int, int]]:
    """Yes/no items: the spans of each "no" that describes a finding by what it is without ("Thin visceral pleural
    line with no lung markings beyond it." to "Is there a pneumothorax?"): it denies something else, not what the
    question asks, so it is not the answer no (not "with no pneumothorax", which denies the asked finding)."""
    if item.kind != "yesno" or not item.question:
        return []
    terms = asked_terms(item.question)
    pattern = _WITH_NO
    if not terms:
        # a question that asks no finding but what the image is ("Is this a CT scan?") asks about its own words. In a
        # reply that answers it by the subject it names, every "no" before other words denies something the question
        # does not ask ("CT of the abdomen. No free fluid.", "Axial CT of the abdomen, no free fluid."); "ct head,
        # axial, no contrast" to "... given contrast?" still denies what it asks
        # (not its framing words: "No follow-up imaging is needed" denies no image; batch 110)
        terms = tuple(x for x in question_words(item.question) if x not in _FRAMING)
        first = text.lstrip().split("\n", 1)[0]
        if subject.answer_from_subject(text, item.question) is not None or (
                first != text and subject.answer_from_subject(first, item.question) is not None) or any(
                subject.answer_from_subject(x, item.question) is not None
                for x in re.split(r"(?<=[.!?\n])\s+", text[:1500])[:8] if x not in (text, first)):
            # batch 110: or in one of its first sentences ("- Technique: Transvaginal sonogram in the sagittal plane,
            # ...", then "there is nothing to suggest CT or MRI. No abnormality to report.", whose "No" had read no)
            # batch 90: a long report that names what the image is in its first line ("**Modality:** Transabdominal
            # grayscale ultrasound, ...", "### Axial FLAIR MRI of the brain") and lists its findings' absences after
            pattern = _NO_BEFORE_NOUN
    if pattern is _WITH_NO and "with" not in text.lower() and "," not in text:
        return []
    out = []
    for m in pattern.finditer(text):
        phrase = re.split(r"[.;:!?\n]", text[m.end():m.end() + 80], maxsplit=1)[0]
        words = re.findall(r"[^\W\d_][\w\-]*", phrase)[:3]
        if words and not any(_same_stem(overlap.stem(w), term) for w in words for term in terms):
            out.append(m.span(1))
    return out



# batch 30: "The image looks mirrored and there's no side marker, so I can't tell you which hemisphere the mass is in.":
# in a reply that declines, a "there is no ..." of something the question does not ask is the reason it declines
_STOP = frozenset("in on at of so and or but to from for with which that the a an is are was were".split())
# batch 59: also a clause after a semicolon that opens with it ("The image is saturated white (...); no parenchymal
# detail is visible. Assessment not possible.")
_THERE_IS_NO = re.compile(r"(?i)(?:\bthere(?:'s|\s+is|\s+are|\s+was|\s+were)|;)[ \t]+(no)[ \t]+(?=[^\W\d_])")
# "I won't answer yes or no here.", "a yes/no answer": the two answer words named together, neither said
_YES_OR_NO = re.compile(r"(?i)(?<![\w'])['\"]?(?:yes|no)['\"]?[ \t]*(?:or|/|nor)[ \t]*['\"]?(?:yes|no)['\"]?(?![\w'])")


def declined_reasons(text: str, item: Item) -> list[tuple[int, int]]:
    """Yes/no items, in a reply that declines: the spans of each "there is no X" of something the question does not
    ask (the reason it declines, not the answer no), and of the answer words named as a pair ("yes or no")."""
    if item.kind != "yesno" or not item.question:
        return []
    out = [m.span() for m in _YES_OR_NO.finditer(text)]
    # what the question asks: its finding, or else any word of it ("Is the mass on the right side ...?")
    terms = asked_terms(item.question) or tuple(overlap.stem(w) for w in re.findall(r"[^\W\d_]{3,}", item.question))
    for m in _THERE_IS_NO.finditer(text):
        phrase = re.match(r"(?:[^\W\d_][\w\-]*[ \t]*){1,3}", text[m.end():m.end() + 80])
        words = [w for w in re.findall(r"[^\W\d_][\w\-]*", phrase.group(0) if phrase else "")
                 if w.lower() not in _STOP][:3]
        if words and not any(_same_stem(overlap.stem(words[-1]), term) for term in terms):
            out.append(m.span(1))
    return out
