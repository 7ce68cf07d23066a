"""Whether a reading is sure: one a careful clinician would not doubt (issue 46).

Why a module: rules alone do not reach every reply, and a reading that is only the reader's best guess looks the
same in a figure as one nobody would question. Every reading therefore says whether it is sure
(:attr:`probe_ui.reading.answers.Answer.sure`). The reader keeps its best guess either way; figures can count sure
readings apart, and a clinician settles the rest.

A reading is sure when both hold:

- its rule reads what the reply states (:data:`SURE_METHODS`: the reply is the answer, declares it, boxes it,
  opens with it, concludes with it, marks it in a table or checklist, gives it a likelihood far ahead of every other
  option's, names one option by its text, its words, a synonym or a value inside its range, or one answer word);
  a negated option ("Not stable." of two), a restatement, an opening answer kept against a later remark on another
  option ("Left hip (A). ... The right hip looks preserved.") and a judge's reading are guesses by nature;
- nothing in the reply puts it in doubt (:func:`doubts`): a refusal, a late reversal ("D, sorry, I meant B") that
  the reply does not settle by declaring its final answer in its closing words ("... Final answer: No." settles it, and
  so does a last sentence that is the answer alone: "... which is psoriasis. **A. Psoriasis.**"), a
  hedge ("probably", "I think", "guessing", "may", "either ... or", "I can't be certain"; for a declared answer, in
  its own sentence or after it: weighing alternatives before "my final answer is C" is reasoning, and ranking the
  options, "the most likely answer is C", "lymphoma is less likely", is no hedge in a choice), a negation before an
  option's words ("non-proliferative"), a contradiction (a yes and a no both stated as the answer: "Yes, ... No,
  ..."), a reply whose last word is another answer (the other of yes and no, another option's bare letter: "Yes.
  ... My considered view after a second pass is No."), a reply cut off mid-sentence, a thinking trace left in the
  reply (reasoning written out, "step by step", only for a reading from a mention), a long reply read from a mention
  (over 20 words for a yes or no read from the subject it names), a "no" read from a mention in a reply that
  states a finding is there ("There is a transverse lucent line ... In summary, no fracture."), or a declared yes
  after a body that only reports absent or normal findings, a declared no after one that only states a finding is
  there ("The cortex is smooth and there is no comminution. Answer: yes"), or, for a reading from a mention,
  textbook knowledge about an option rather than what this image shows ("Pneumonia typically shows air
  bronchograms"), or a likelihood list whose leader is not at least half the likelihood and three times any other;
  its last words stating another answer ("Adult. Second look: ... — elderly."), another answer offered beside it
  ("C, pneumonia or atelectasis."), or, for a yes/no read from a mention, a reply in a language the glosses do not
  read ("Ego, ni CT scan."), or a reply laid out as a few-shot transcript (two "Q:" turns, an echoed "Example answer:",
  a closing empty "A:"; batch 73), or, for a label or option read from where it is named, a last clause that sets it
  against another ("Obstructive, favoured versus communicating.") or an "is not" in another language beside it
  ("Jawaban akhir: bukan anak-anak", not a child), or, for a declared answer, a reply that keeps two different ones
  ("I stand by D. I stand by A."), or, for a reading not declared, a result given for a finding the question does not
  name ("Negative for pneumothorax." to "Is there a pleural effusion?"), or, for an opening letter, words that describe
  only another option ("A — there's a transverse lucent line through the patella ...", a letter kept from before the
  options were shuffled), or options whose own names hold letters the reply writes alone ("..., so A rather than B."
  to Stanford type B and A). A long reply read where it puts its answer, first or last, is no guess for its length
  alone, and a hedge there counts only in the sentences that hold or name the answer (batch 88).

Batches 15-33, each read once by the reader of its day before any fix (perf/reading.py), held 54 sure errors in 4,560
replies. The last three doubts are general forms of 12 of them, and put 3 of the 5,929 sure readings of the corpus
(batches 1-33) in doubt.

A closing answer that the reply's own body argues against is not read at all (:mod:`probe_ui.reading.closings`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import threading
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from probe_ui.reading import lexicon, overlap, synonyms, undercut
from probe_ui.reading.cleaning import (
    RESTATED_QUESTION,
    SENTENCE_END,
    blank_matches,
    first_sentence,
    is_negated,
    mask_spans,
    norm,
    pattern,
    phrase_regex,
    unmarked,
)
from probe_ui.reading.closings import NUMBER_WORDS, negative_clauses, only_absent_or_normal, shows_predicate
from probe_ui.reading.confidence import finding_odds, read_confidence
from probe_ui.reading.declarations import last_declaration
from probe_ui.reading.denials import answers_an_echo, denied_in_place, judged_otherwise, option_names, verdict_only
from probe_ui.reading.foreign_denials import GLOSSED_NOT, NOT_AFTER, NOT_ANYWHERE, NOT_OPENING
from probe_ui.reading.hedges import FOREIGN_HEDGE, HEDGE, RECOMMENDED, SELF_DOUBT, TORN
from probe_ui.reading.item import Item, read_alone
from probe_ui.reading.letters import lone_letter
from probe_ui.reading.lexicon import fold_quotes
from probe_ui.reading.marks import clear_lead, marks_against
from probe_ui.reading.options import marked_table, mislabelled_options, options_in_words, whole_text
from probe_ui.reading.presence import (
    CLAUSE_NEGATION,
    PRESENCE_QUESTION,
    another_finding,
    asked_finding,
    asked_stems,
    asked_unseen,
    field_values,
    finding_stems,
    still_there,
)
from probe_ui.reading.pushback import held_answers
from probe_ui.reading.refusals import refusal_names, undecided_between
from probe_ui.reading.structured import (
    described_in_turn,
    few_shot_layout,
    findings_per_option,
    question_and_answer_lines,
)
from probe_ui.reading.subject import (
    SAME_AS,
    answer_from_predicate,
    answer_from_subject,
    asked_predicate,
    asked_subject,
    between_regions,
    doubted_yes,
)
from probe_ui.reading.verdicts import CORRECTION_WORD, REVISION, correction_spans, self_corrected
from probe_ui.reading.weighing import condition_spans, is_truncated, named_in, runner_up_spans
from probe_ui.reading.words import (
    SIGNS_OF,
    asked_terms,
    names_another_place,
    only_of_others,
    question_words,
    result_for_another_finding,
    set_aside_no,
    stated_answers,
)

if TYPE_CHECKING:
    from probe_ui.reading.answers import Answer

__all__ = ["REVERSAL", "SURE_METHODS", "doubts", "is_sure", "rejected_by_name"]

#: rules that read what the reply states
SURE_METHODS = frozenset({"exact", "declaration", "boxed", "backtick", "option_text", "structured", "leading",
                          "bare", "label_word", "option_text_contained", "escape_option", "language", "synonym",
                          "question_subject", "presence", "final_verdict", "agrees_with_suggestion", "option_words",
                          "option_keyword", "option_value", "marked", "likelihood"})
#: rules whose reading stands even in a long reply (the reply declares or marks its answer)
_MARKED = frozenset({"exact", "declaration", "boxed", "backtick", "option_text", "structured", "marked"})
#: rules that read the answer the reply declares (a comparison beside it is the reply's reasoning)
_DECLARED = _MARKED | {"bare"}
#: rules that read an option from where its words occur in the reply (not from where the reply puts its answer)
_MENTIONS = frozenset({"synonym", "option_words", "option_text_contained", "option_keyword", "option_value"})
#: a reply read from where a word occurs is a guess beyond this many words (its closing may argue with its body)
LONG_WORDS = 60
#: rules that read where the reply puts its answer, first or last: a long reply read by them is no guess on that
#: account. Batch 88 (long replies, held out): of its readings whose only doubt was "long", 13 by "leading" and 11 by
#: "final_verdict" across the corpus and batches 88-89, all right; by "bare" 10 right, 1 wrong, 1 over-read, and by
#: "question_subject" 18 right, 3 over-read, which keep the doubt. A lone letter ("bare") counts as placed where it
#: stands in the reply's first or last sentence ("The hydronephrosis is on the left — option A. To explain ...");
#: across the corpus (batches 1-89) all 19 long replies read so were right, and the 6 whose letter stands in the
#: middle ("So the main finding here is a right-sided pleural effusion - option C, moderate in size.") keep the doubt
_PLACED = frozenset({"leading", "final_verdict"})
#: a yes or no read from the subject a reply names ("This is a CT of the abdomen." to "Is this a CT?") is a guess
#: beyond this many words: a reply that long which never says yes or no is explaining, not answering. Batches 8-42,
#: each read by the reader of its day before its fixes: of the sure readings by that rule in replies over 20 words,
#: 4 were wrong and 1 right ("... a sagittal slice has its row direction along the anterior-posterior axis.", "The
#: common bile duct measures 7 mm. ... otherwise it would count as dilated."); of those up to 20 words, 231 right, 14
#: wrong
SUBJECT_WORDS = 20

# "the most likely answer is C", "Myocardial infarction (A) is most likely": a choice between options ranks them, and
# the best one is the answer (the question itself often asks for the most likely diagnosis), not a hedge
_SUPERLATIVE = re.compile(r"(?i)\b(?:most|m[aá]s)\s+(?:likely|probable)\b")
# an alternative ranked below the answer: "lymphoma is less likely"
_RANKED_BELOW = re.compile(r"(?i)\b(?:less|least|not)\s+(?:likely|probable)\b"
                           # batch 24: "... favours an abscess over a necrotic tumour": one ranked above another
                           r"|\bfavou?r(?:s|ing)?(?=\s+(?:an?\s+|the\s+)?[^\W\d_][\w\-]*(?:\s+[^\W\d_][\w\-]*){0,3}"
                           r"\s+over\s)")
# batch 72: sympathy is no correction ("I'm sorry — this is a serious finding, and an orthopaedic oncology team should
# see him quickly.", "I'm sorry — please make sure he's seen by a bone tumour specialist"), nor advice not to wait
# ("please don't wait on an AI reading — get seen urgently")
_SYMPATHY = (r"(?![ \t]*[,\u2013\u2014\-]?[ \t]*(?:(?:this|that|it)(?:'s|\s+is)\s+(?:an?\s+)?(?:very\s+)?"
             r"(?:serious|worrying|concerning|difficult|hard|frightening|significant|upsetting)|please\s+(?:make\s+sure|see|get|seek|talk|"
             r"speak|contact|go)\b)|\s+to\s+(?:say|tell\s+you|hear)\b)")
REVERSAL = re.compile(r"(?i)\b(?:i\s+meant|sorry" + _SYMPATHY + r"|" + CORRECTION_WORD + r"|(?:scratch|strike)\s+that|"
                       r"on\s+second\s+"
                       r"thought|"
                       # (held-out batch 171: not an adverb inside a statement, "the soft tissue has actually become
                       # cleaner", "what the image actually shows")
                       r"(?<!\bhas\s)(?<!\bhave\s)(?<!\bhad\s)actually(?!\s+(?:shows?|showed|sees?|seen|looks?|"
                       r"become|became|helps?|matters?)\b)|(?<!n't\s)(?<!not\s)(?<!to\s)wait(?!\s+(?:on|for|until)\b)|i\s+take\s+"
                       r"(?:that|it)\s+back|change\s+my\s+answer|on\s+reflection"
                       # held-out batches 157 and 161 (blind): an opening answer disowned as a first impression ("Yes,
                       # displaced: that was my reflex ...", "Adult — that was my first read, ...") and taken back in
                       # words the rules do not read ("I have to reverse my opening word: **no** ...")
                       r"|that\s+was\s+my\s+(?:first|initial|opening)\s+(?:read|reading|impression|call|answer|"
                       r"instinct|reaction|thought)|that\s+was\s+my\s+(?:reflex|instinct|gut\s+(?:call|reaction|"
                       r"feeling)|knee[\s\-]jerk\s+(?:call|reaction|answer))"
                       r"|reverse\s+my\s+(?:opening|first|initial|earlier)\s+(?:word|answer|call|reading|impression)"
                       # a review of held-out batches 145-173's rules: "Correcting for my misreading of the growth
                       # plates, this is an adult", "After correcting my count I see three", "What I actually see, on
                       # looking again, is a skin fold"
                       r"|correcting\s+(?:for\s+)?(?:my(?:self)?|that|this)|what\s+I\s+(?:actually|really)\s+"
                       r"(?:meant|mean|see|saw|think|thought|find|found))\b")
# a thinking trace left in the reply (the reader reads only what follows a closed one)
_THINKING = re.compile(r"(?i)</?think(?:ing)?>|<unused9[45]>")
# reasoning written out before the answer: a doubt only for a reading from a mention (a declared answer ends it, and
# :mod:`probe_ui.reading.closings` checks the declaration against what the reasoning concluded)
_REASONING = re.compile(r"(?i)\blet(?:'s|\s+me)\s+think\b|\bstep\s+by\s+step\b")
_NEGATING = r"(?:non|not|no|without|absence\s+of|absent|never|rather\s+than|instead\s+of)"
# textbook knowledge about a finding ("Pneumonia typically shows air bronchograms", "Pneumothorax is a common
# complication of central lines", "Atelectasis can look like this"): it names an option without saying this image
# shows it, so a reading from that mention is a guess
_GENERIC = re.compile(r"(?i)\b(?:typically|usually|often|commonly|generally|classically|frequently|tends?\s+to|"
                      # batch 43: "... nevi and melanomas can all look like this"
                      r"can\s+(?:all\s+|also\s+|both\s+)?(?:look|appear|present|cause|show|mimic|occur)|"
                      r"(?:is|are)\s+(?:an?\s+)?(?:common|typical|classic|frequent|well[\s-]known)\b|"
                      r"(?:is|are)\s+characteri[sz]ed\s+by|presents?\s+with)")
# batch 104: "Consolidation in the right middle lobe or the anterior basal segment of the right lower lobe." to "Is
# there consolidation in the right lower lobe?": the place asked about offered beside another
_PLACE = r"(?:lobe|segment|lingula|zone|base|apex|side|hemithorax|kidney|hip|lung)"
_PLACE_OR_PLACE = re.compile(r"(?i)\b" + _PLACE + r"\s+or\s+(?:in\s+)?(?:the\s+)?(?:[\w\-]+\s+){0,4}?" + _PLACE + r"\b")
# batch 105: "The apex is the area to check first on a film like this — a thin pleural line with absent markings beyond
# it would be the key sign, and on a supine film one would also look for a deep sulcus.": where to look, on any film
_WHERE_TO_LOOK = re.compile(r"(?i)\bone\s+would\s+(?:also\s+)?(?:look|check|search)\s+for\b|\bwould\s+be\s+the\s+"
                            r"(?:key|classic|main|typical|telltale|diagnostic)\s+(?:sign|finding|feature|clue)\b|"
                            r"\barea\s+to\s+(?:check|look\s+at)\s+first\b")
# batch 107: what is asked left to another test ("Both femoral heads show some patchy sclerosis; whether either has the
# subchondral lucency of avascular necrosis would need an MRI to say.")
_LEFT_TO_A_TEST = re.compile(r"(?i)\bwhether\b[^.;!?\n]{0,120}?\b(?:would|will|could\s+only)\s+(?:need|require|take)\s+"
                             r"(?:an?\s+|further\s+|more\s+)?(?:[\w\-]+\s+){0,3}?to\s+(?:say|tell|confirm|decide|know|"
                             r"settle|answer)\b"
                             # held-out batch 174: "... but whether they explain this case depends on the surgical
                             # history, which I don't have"
                             # (only whether the answer holds: not "Whether the effusion needs drainage depends on
                             # ...", a review)
                             r"|\bwhether\b(?:[^.;!?\n]{0,120}?\b(?:explains?|explain|applies|apply|fits?|holds?|"
                             r"is\s+real|counts?\s+as|is\s+present|are\s+present|is\s+there)\b|\s+(?:that|this|it)\s+"
                             r"is\b)[^.;!?\n]{0,80}?\bdepends?\s+(?:on|upon)\b")


def deferred_spans(text: str, item: Item) -> list[tuple[int, int]]:
    """Where the reply leaves what is asked to another test (:data:`_LEFT_TO_A_TEST`): the "whether" clause names
    the asked finding, or weighs the answers ("either", "which", "X or Y"); not a side matter the answer does not rest
    on ("Yes - a transverse fracture. Whether it extends into the joint would need a CT to say.": hostile review of
    9e8e215)."""
    found = list(_LEFT_TO_A_TEST.finditer(text))
    asked = asked_stems(item.question) if found and item.question else set()  # (most replies have none: no work)
    return [m.span() for m in found
            if asked & finding_stems(m.group(0)) or re.search(r"(?i)\b(?:either|which|any|or|this\s+case)\b",
                                                              m.group(0))]


# batch 70: how a disease is graded or told apart, and nothing of this image or patient ("Diabetic retinopathy is
# graded by new vessels: without them it's non-proliferative, with them proliferative. Hypertensive retinopathy shows
# AV nicking instead."): a closing sentence that names an option is a textbook remark, not a verdict
_DEFINING = re.compile(r"(?i)\b(?:is|are)\s+(?:graded|classified|staged|categori[sz]ed|divided|subdivided|"
                       r"distinguished|differentiated|told\s+apart)\s+(?:by|on|according\s+to|into|from|based\s+on)\b"
)
# held-out batch 158: when each phase of a study comes, twice or more ("Arterial-phase imaging is timed roughly half a
# minute after the bolus, ...; the portal venous phase comes at 60-70 seconds"): a textbook comparison (not one timing
# beside the answer, "Arterial phase - it is timed at roughly 35 s.": a hostile review)
_TIMING = re.compile(r"(?i)\b(?:is|are)\s+timed\s+(?:at|to|for|roughly|about|around|approximately)\b"
                     r"|\bcomes?\s+(?:at|after)\s+(?:roughly\s+|about\s+|around\s+|approximately\s+)?\d")
_OF_THIS_CASE = re.compile(r"(?i)\b(?:this|these|here|here's|I|I'd|I'm|my|we|patient|patient's|answer|impression|"
                           r"diagnosis|image|photo|photograph|picture|fundus\s+photo(?:graph)?|scan|film|study|"
                           r"radiograph|slice)\b")

# what this case shows called typical ("... milia-like cysts and comedo-like openings, which are classic dermoscopic
# features.", "The picture shows small excoriated papules and short burrows ... That distribution is classic for
# scabies"): the reply's own findings, no general statement; across batches 1-89 all 14 readings whose only doubt was
# "generic" were right, and they read so
_CALLED_TYPICAL = re.compile(r"(?i)\A(?:is|are)\s+(?:an?\s+)?(?:typical|classic)\b")


def _general_remark(text: str) -> bool:
    """Whether the reply says how a disease looks in general (:data:`_GENERIC`), beyond calling what this case shows
    typical: the case named before the phrase in its own clause ("I can see milia-like cysts ..., which are classic
    dermoscopic features"; not "Arborizing vessels are a classic feature of basal cell carcinoma; I see none in this
    image.", hostile review of batches 90-91)."""
    for m in _GENERIC.finditer(text):
        clause = text[max((c.end() for c in _SENTENCE_MARK.finditer(text, 0, m.start())), default=0):m.start()]
        if not (_CALLED_TYPICAL.match(m.group(0)) and _OF_THIS_CASE.search(clause)):
            return True
    return False


# advice on what to check a finding against ("The tip position should be checked against the carina and the tracheal
# air column."): the structures it names are landmarks, not an answer
_CHECK_AGAINST = re.compile(r"(?i)\b(?:should|must|needs?\s+to|ought\s+to)\s+be\s+(?:checked|confirmed|compared|"
                            r"verified|correlated|assessed|judged|measured|traced)\b"
                            r"|\b(?:check|confirm|compare|verify)\b[^.;!?\n]{0,40}?\b(?:against|relative\s+to)\b")


def _only_in_advice(text: str, item: Item, label: str | None) -> bool:
    """Held-out batch 124: whether every clause holding a word of the read option's text is advice on what to check
    (:data:`_CHECK_AGAINST`): "The physician suggests C. The tip position should be checked against the carina and the
    tracheal air column." names no answer, though "carina" and "trachea" are words of "Mid trachea, above the
    carina" ("The tip is in the right main bronchus; its position should be checked ..." does)."""
    opts = [opt for opt, lb in item.option_map if lb == label]
    if not opts:
        return False
    stems = {overlap.stem(w) for w in overlap.content_words(opts[0].casefold()) if len(w) > 3}
    held = [x for x in re.split(r"(?<=[.;,!?\n])", text)
            if stems & {overlap.stem(w) for w in overlap.content_words(x.casefold())}]
    return bool(held) and all(_CHECK_AGAINST.search(x) for x in held)


# a reply that states a finding is there ("There is a transverse lucent line ...", "The film shows a ..."): a "no"
# read from a mention elsewhere in it ("In summary, no fracture.") may answer about another finding
_AFFIRMED = re.compile(r"(?i)\b(?:there\s+(?:is|are)|shows?|demonstrates?|reveals?)\s+(?:an?|some|two|three|several|"
                       r"multiple|mild|moderate|small|large|subtle)\b")


# a reading from where an option is named, in a reply that sets two against each other ("Obstructive, favoured versus
# communicating."): the option named may be the one set aside (hostile review of batches 80-83)
_COMPARED = re.compile(r"(?i)\b(?:versus|vs\.?|v\.)(?=\s)")


def _finding_versus_another(text: str, item_question: str | None) -> bool:
    """Yes/no items: a sentence sets the finding asked against another by "versus" ("Small effusion versus pleural
    thickening."): a differential, which of the two the reply holds is not said (batch 138)."""
    if not item_question:
        return False
    asked = asked_stems(item_question)
    naming = [x for x in re.split(r"(?<!\bvs)(?<!\bv)[.!?;\n]", text) if finding_stems(x) & asked]
    if not naming:
        return False
    last = naming[-1]  # (not where the reply goes on to settle it: "... versus effusion: I favour effusion.")
    for m in _COMPARED.finditer(last):
        before = re.split(r"[,:()]", last[:m.start()])[-1]
        after = re.split(r"[,:()]", last[m.end():])[0]
        if _MEASURED.search(before + " " + after):
            continue  # ("Spleen 16 cm vs upper limit of 13 cm", "increased vs the CT of March": a hostile review)
        if any(finding_stems(one) & asked and finding_stems(other) - asked - _GRADES
               for one, other in ((before, after), (after, before))):
            return True
    return False


# a measure, a limit or an earlier study set against the finding: no second finding
_MEASURED = re.compile(r"(?i)\d|\b(?:prior|previous|earlier|last|baseline|limit|normal|reference|CT|MRI|film|study|"
                       r"scan|exam|radiograph|image|width|ratio)\b")


#: the stems of words that grade or place a finding rather than name another ("small vs moderate")
_GRADES = frozenset(overlap.stem(w) for w in lexicon.GRADE_WORDS)


def _letters_in_option_texts(text: str, item: Item) -> bool:
    """Whether the options' own names hold a letter that is also an option's letter ("Stanford type A dissection",
    "Hepatitis B", "Vitamin D deficiency"), and the reply writes that letter alone: which one it means, the option or
    the name, is a guess (a hostile review of batches 86-87)."""
    return any(re.search(rf"(?<![\w\-']){ch}(?![\w\-'])", text) for ch in item.named_letters)


_OPENING_LETTER = re.compile(r"\A[\s*_>#\"'`]*[(\[]?([A-Z])[)\].:]?(?=[\s*_,;:\u2013\u2014\-]|\Z)")


def _words_of_another(text: str, item: Item, label: str) -> bool:
    """Whether the reply opens with the letter ``label`` and then speaks only in another option's words ("A — there's
    a transverse lucent line through the patella ..." when A is joint effusion and C patellar fracture; batch 87, a
    letter kept from before the options were shuffled): what it describes may be the answer it meant."""
    m = _OPENING_LETTER.match(text)
    if m is None or m.group(1) != label or item.kind != "choice" \
            or label in item.escape_labels:
        return False  # an escape option ("The question contains a clinically incorrect premise") gives its reasons
    asked = {overlap.stem(w) for w in overlap.content_words(item.question)}  # "joint" of "the knee joint" names none
    said = {overlap.stem(w) for clause in re.split(r"[,;.:!?\u2013\u2014]|\s-\s", text[m.end():])
            if not CLAUSE_NEGATION.search(clause)
            for w in overlap.content_words(clause)} - asked
    stems = {lab: {overlap.stem(w) for w in overlap.content_words(opt)} - asked for opt, lab in item.option_map}
    own = stems.get(label, set())
    if not own:
        return False  # its option says nothing beyond the question's words ("No fracture", "Both hips"): no telling
    own_text = next((opt for opt, lab in item.option_map if lab == label), "")
    initials = "".join(w[0] for w in own_text.split() if w[:1].isalpha()).upper()
    whole = {overlap.stem(w) for w in overlap.content_words(text[m.end():])} - asked
    if not said or whole & own or (len(initials) >= 2 and re.search(r"\b" + initials + r"\b", text)):
        return False  # its own words, or their initials ("D - a branch-duct IPMN.")
    # at least half of what sets another option apart (not "nodular" alone for focal nodular hyperplasia)
    return any(2 * len(said & (words - own)) >= len(words - own) > 0 for lab, words in stems.items() if lab != label)




def _held_apart(text: str, item: Item) -> bool:
    """Whether the reply keeps two different answers ("I stand by D. I stand by A.", a hostile review)."""
    spans = held_answers(text)
    if len(spans) < 2:
        return False
    read = {read_alone(x, item).choice for x in spans}
    return len(read - {None}) > 1


def _declared_for_each(text: str, item: Item, label: str | None) -> bool:
    """Held-out batch 133: the reply's last two declarations say the same words for two different answers, with no
    change of mind between them ("### Lesion 1 ... **Most consistent with: Dermatofibroma (B).** ### Lesion 2 ...
    **Most consistent with: Vascular lesion (C)**"): an answer for each of two things, not one for the question."""
    last = last_declaration(text, item)
    if label is None or last.label != label or last.at <= 0:
        return False
    before = last_declaration(text[:max(text.rfind(c, 0, last.at) for c in ".!?\n") + 1], item)
    if before.label in (None, label) or before.at < 0 or before.kind != last.kind:
        return False
    if any(before.at <= a < last.at for a, _ in _change_of_mind_cues(text)):
        return False
    own = {w for option in item.options for w in re.findall(r"[^\W\d_]+", option.casefold())}

    def cue(at: int) -> list[str]:  # the declaration's sentence up to its answer ("- most consistent with")
        start = max(text.rfind(c, 0, at) for c in ".!?\n") + 1
        words = re.findall(r"[^\W\d_]+", text[start:at + 60].casefold())
        return list(itertools.takewhile(lambda w: len(w) > 1 and w not in own, words))

    # (in words of its own, not "Answer:" twice: "Answer: A. Mid trachea.\nOn re-evaluation ...\nAnswer: B.")
    return len(cue(last.at)) > 1 and cue(before.at) == cue(last.at)


# a yes or no said of one of two studies, images or times ("**Yes** for the first study", "no on the follow-up", "yes
# for image 1", "no on the 2023 film"): the words after it, up to three
_SAID_OF = (r"[*_]*[ \t]+(?:for|on|in|at)[ \t]+(?:the[ \t]+|this[ \t]+|that[ \t]+)?"
            r"([^\W_][\w\-']*(?:[ \t]+[^\W_][\w\-']*){0,2})")
_STUDY_OR_TIME = frozenset("first second third prior previous earlier old older new newer current latest follow-up "
                           "followup baseline initial original last recent today's today image film study scan series "
                           "exam examination radiograph".split())


def _yes_no_for_each(text: str, item: Item) -> bool:
    """Held-out batch 158: "**Yes** for the first study, **No** for the follow-up — ... Which one did you mean?": a yes
    said of one study and a no of another, an answer for each, not one for the question (not "Yes for effusion; no for
    pneumothorax": another finding, a hostile review)."""
    if item.kind != "yesno" or not item.aliases:
        return False
    said: dict[str, set[str]] = {}
    for word, lab in item.words:
        for m in re.finditer(phrase_regex(word).pattern + _SAID_OF, text, re.IGNORECASE):
            words = m.group(m.lastindex or 0).casefold().split()
            if words and (words[0] in _STUDY_OR_TIME or words[0][:1].isdigit() or (
                    len(words) > 1 and (words[1] in _STUDY_OR_TIME or words[1][:1].isdigit()))):
                said.setdefault(lab, set()).add(" ".join(words))
    yes, no = said.get(item.aliases["yep"], set()), said.get(item.aliases["nope"], set())
    return bool(yes and no and yes != no)


# a black-box check of 2026-12-06 (rev33): an answer given for each of several images, views, times or readers
# ("Image 1: A. Image 2: C.", "Frontal view: no. Lateral view: yes.", "Reader 1: B. Reader 2: C.", read as the last,
# sure): "<part>: <answer>", the part named by one of these words or a number
# (not a side alone: "Right: no. Left: yes." to "Is there a pleural effusion?" is a yes, and "A. Left side: ..." a
# walk through the options)
_PART_WORDS = _STUDY_OR_TIME | frozenset("frame panel slice view projection film day week reader radiologist patient "
                                         "model case jaw axial coronal sagittal supine upright erect frontal lateral "
                                         "pa ap oblique best worst 1st 2nd 3rd".split())
_PART_ENTRY = re.compile(r"(?:\A|(?<=[.;,\n]))[ \t*_\-#>]*(?P<key>[^\W_][\w\-' ]{0,30}?)[ \t*_]*"
                         r"(?::|\u2192|->|=>|=)[ \t*_]*(?P<val>[^.;,\n]{1,60})")
#: a reply longer than this gives no one-line answer per part
_PART_CHARS = 1500


def _answer_per_part(text: str, item: Item) -> bool:
    """Whether the reply gives different answers for two or more parts (images, views, times, readers: a word of
    ``_PART_WORDS`` in the entry's name), each in an entry of its own ("Image 1: A. Image 2: C."): one answer for each,
    not one for the question."""
    if len(text) > _PART_CHARS or not any(c in text for c in ":\u2192>="):
        return False
    read: dict[str, str] = {}
    for m in _PART_ENTRY.finditer(text):
        key = m.group("key").casefold().split()
        if not key or not set(key) & _PART_WORDS:  # (not "Step 1: ... Step 2: ... Final: A", read from the corpus)
            continue
        got = read_alone(m.group("val"), item).choice
        if got is not None:
            read[" ".join(key)] = got
    return len(set(read.values())) > 1


def _last_clause(text: str) -> str:
    """What follows the reply's last sentence or clause mark (a colon too: "Communicating versus obstructive:
    communicating." concludes after its comparison)."""
    t = _without_closing_marks(text)
    return t[max((m.end() for m in _LAST_MARK.finditer(t)), default=0):]


# a hostile review of held-out batch 181: a reply that closes on a letter after "e.g." or "cf." ("the opacity is in the
# lower zone, e.g. b."): the letter is an example or a pointer, and the full stop of the abbreviation makes it look
# like a closing sentence of its own (not "i.e." or "viz.", which restate the answer: "Hemangioma, i.e. B.", a review)
_LETTER_AS_EXAMPLE = re.compile(r"(?i)\b(?:e\.[ \t]?g|cf)\.?[ \t]*[,:]?[ \t]*[(\[]?(?:option[ \t]+)?"
                                r"[a-z][)\]]?[ \t]*[.!]?[ \t]*\Z")
_LAST_MARK = re.compile(r"(?<!\bvs)(?<!\bv)\.|[!?;:\n]")  # (not the full stop of "vs.")
# what may stand between another language's "not" and the word it denies ("geen CT", "không phải CT", "nid sgan CT",
# "ei ole CT")
_NOT_THEN_WORDS = re.compile(r"[ \t]*(?P<words>(?:['\u2019]?[^\W\d_][\w\-'\u2019]*[ \t]*){1,3})")


def _foreign_not_before_asked(opening: str, question: str) -> bool:
    """Whether another language's "not" (:data:`NOT_OPENING`, :data:`NOT_ANYWHERE`; not Basque "ez", which is
    Hungarian "this": "Ez egy CT.") stands within three words before a word of what the question asks about (or one
    of :data:`NOT_AFTER` within three words after it: "CT değil.") ("Dit is
    geen CT maar een MRI." to "Is this a CT?"; not "Dit is een CT-scan, geen MRI."), unless the reply opens with its
    answer word, glossed ("Igen, ...", "Òc, ei ua radiografia": Gascon "ei" is "is"). A review of the first draft
    (which doubted any such word in the first sentence) found "Ez egy CT." and "Dit is een CT-scan van de buik, geen
    MRI." made guesses."""
    if _GLOSSED_ANSWER.match(lexicon.translate(opening, yesno=True)):
        return False
    asked = asked_stems(question)
    for m in itertools.chain(NOT_OPENING.finditer(opening), NOT_ANYWHERE.finditer(opening)):
        if m.group(0).casefold() == "ez":
            continue
        after = _NOT_THEN_WORDS.match(opening, m.end())
        if after is not None and (said := finding_stems(after.group("words"))) and (
                said & asked or not another_finding(after.group("words"), asked)):
            return True
    # (a "not" written after the noun: "CT değil.", "CT 아님.", within three words after what is asked, in its clause:
    # not "Bu bir CT, MR değil.", this is a CT, not an MR)
    for m in NOT_AFTER.finditer(opening):
        before = " ".join(re.split(r"[,;:.!?\u3001\u3002]", opening[max(0, m.start() - 60):m.start()])[-1].split()[-3:])
        if finding_stems(before) & asked:
            return True
    return False


def _only_another_label_denied(opening: str, item: Item, label: str | None) -> bool:
    """Whether every German "not" of a label item's opening (:data:`GLOSSED_NOT`) denies another label than
    ``label``, in the words the glosses give for the three after it ("Adult (Erwachsener), nicht pädiatrisch.", "Blue
    (blau), nicht rot.", a review of the first draft)."""
    if item.kind != "label" or label is None:
        return False
    for m in GLOSSED_NOT.finditer(opening):
        after = _NOT_THEN_WORDS.match(opening, m.end())
        said = lexicon.translate(after.group("words")) if after is not None else ""
        named = {lab for word, lab in item.words if phrase_regex(word).search(said)}
        if not named or label in named:
            return False
    return True



_MIN_BODY_WORDS = 6
# the closing words that settle a reversal: a declaration and its option ("Revised answer: B. Pneumothorax.")
_SETTLING_WORDS = 12


def _body_against_yes_no(text: str, item: Item, label: str | None) -> bool:
    """Yes/no items: a declared answer after a body of findings that says the other: a yes after a body that only
    reports what is absent or normal ("The cortex is smooth and there is no comminution. Answer: yes" to "Is the
    fracture displaced?"), a no after one that states a finding is there and denies nothing ("There is a 2 cm mass
    at the upper pole. Answer: no")."""
    if not item.aliases or label is None:
        return False
    body = _declared_body(text, item)
    if len(body.split()) < _MIN_BODY_WORDS:
        return False
    if label == item.aliases["yep"]:
        return only_absent_or_normal(body)
    return not any(negative_clauses(body)) and bool(_AFFIRMED.search(body))


def _declared_body(text: str, item: Item) -> str:
    """The sentences before the one that declares the answer ("... no step-off. Final answer: Yes.")."""
    at = last_declaration(text, item).at
    return text[:max((m.end() for m in _SENTENCE_MARK.finditer(text, 0, at)), default=0)] if at > 0 else ""


def _negated_choice(text: str, item: Item, label: str | None) -> bool:
    """The chosen option's first word right after a negation the option itself does not hold ("non-proliferative"
    or "not proliferative" read as "proliferative ...")."""
    opt = item.option_text(label)
    if _denied_after(text, opt) and not (label in item.escape_labels and _SIZE_AFTER.search(text)):
        # (held-out batch 168: not an escape option the reply gives its reason after, "**D. The question contains a
        # clinically incorrect premise** — normal-sized ventricles rule out hydrocephalus")
        return True
    words = re.findall(r"[^\W\d_][\w\-]*", opt)
    if not words or len(words[0]) < 4:
        return False
    pattern = _negated_word(words[0].lower())
    if pattern.search(opt):
        return False
    for other in item.options:  # batch 20: another option's own name ("| A. Non-proliferative ... | |") denies nothing
        if other != opt and pattern.search(other):
            text = re.sub(r"(?i)" + re.escape(other).replace(r"\ ", r"\s+"), " ", text)
    others = " ".join(o for o in item.options if o != opt).casefold()
    signs = [s for key, of in SIGNS_OF.items() if key in others and key not in opt.casefold() for s in of]
    for m in pattern.finditer(text):
        line = text[text.rfind("\n", 0, m.start()) + 1:]
        if re.match(r"[^\n]*\?", line) and "." not in line.split("?")[0]:
            continue  # the question restated ("## Proliferative or non-proliferative?")
        if any(text[m.end() - len(words[0]):m.end() + 40].casefold().startswith(s) for s in signs):
            continue  # batch 116: "No pleural line to suggest pneumothorax" denies a sign of another option
        if any(re.search(rf"(?<!\w)\(?{lab}[.):][ \t]*[*_]*[ \t]*\Z", text[max(0, m.start() - 8):m.start()])
               for lab, o in zip(item.labels, item.options) if o != opt and pattern.search(o)):
            continue  # "- **A. Non-proliferative DR:** ...": another option named by its letter and first words
        return True
    return False



# the side an option opens with ("The left kidney", "Right hip")
_SIDE_OPTION = re.compile(r"(?i)\A\W*(?:the\s+)?(left|right)\b")
# a question that asks which side is the normal or working one ("Which kidney is functioning?", "Which sinus is clear?")
_ASKS_FOR_THE_NORMAL_SIDE = re.compile(r"(?i)\b(?:normal|unremarkable|healthy|spared|unaffected|preserved|clear|intact|"
                                       r"aerated|functioning|working|enhanc\w*|donor|control|reference|comparison|"
                                       r"uninvolved|dominant|expected|fine|better)\b(?![ \t]+abnormal)")
# ... in so many words: which one is, looks or serves as the normal one ("Which lung field is clear?", "Which kidney
# should be used for comparison?"; not "Where is the pneumothorax in this normal chest X-ray?")
_ASKS_WHICH_IS_NORMAL = re.compile(r"(?i)\bwhich\b[^?.]{0,60}?\b(?:is|are|looks?|appears?|remains?|serves?\s+as|"
                                   r"(?:should|could|can)\s+be\s+used\s+(?:for|as))\s+(?:the\s+)?(?:more\s+|most\s+)?"
                                   r"(?:good\b|" + _ASKS_FOR_THE_NORMAL_SIDE.pattern.removeprefix("(?i)") + ")")


def _side_called_normal(text: str, item: Item, label: str | None) -> bool:
    """Whether a side read as the answer is one the reply calls normal ("Right-sided hydronephrosis; normal left
    kidney.", "... Left lung clear." to "Which kidney shows hydronephrosis?", an older sure error held-out batch 129
    brought to light) or, where the question asks which side is the normal one, whether the other side is ("The normal
    left lung. The right lung is collapsed." to "Which lung is aerated?", a hostile review). A doubt, never a reading of
    the other side (a hostile review of a rule that denied the side: "Normal left maxillary sinus; the right is
    opacified." to "Which maxillary sinus is clear?")."""
    if item.kind != "choice" or label is None:
        return False
    side = _SIDE_OPTION.match(item.option_text(label))
    if side is None:
        return False
    own = side.group(1).casefold()
    if _ASKS_WHICH_IS_NORMAL.search(item.question or ""):
        return _CALLED_NORMAL["right" if own == "left" else "left"].search(text) is not None
    return not _ASKS_FOR_THE_NORMAL_SIDE.search(item.question or "") and (
        _CALLED_NORMAL[own].search(text) is not None or _called_intact(text, own, item.option_text(label)))


# a reader check of 2026-12: "Both costophrenic angles are sharp." read as "bilateral" (an effusion on both sides) from
# the word "both": both sides called normal, clear or sharp
_NORMAL_WORD = (r"(?:normal|clear|sharp|crisp|intact|unremarkable|fine|spared|clean|unaffected|healthy|"
                r"well[\s\-]+(?:aerated|expanded|defined)|symmetric(?:al)?)")
_BOTH_NORMAL = re.compile(r"(?i)\bboth\b[^.,;:!?\n]{0,60}?\b(?:is|are|look|looks|appear|appears|remain|remains|seem|"
                          r"seems|were|was)\s+(?:(?!not\b|no\b|never\b|hardly\b)\w+\s+)?" + _NORMAL_WORD + r"\b"
                          r"|\b" + _NORMAL_WORD + r"\s+(?:on\s+|in\s+|at\s+)?(?:both\s+sides|both\b|bilaterally\b)"
                          r"|\bbilaterally\s+" + _NORMAL_WORD + r"\b")
_BOTH_WORD = re.compile(r"(?i)\b(?:both|bilateral(?:ly)?)\b")


def _both_called_normal(text: str, item: Item, label: str | None, method: str) -> bool:
    """Whether an answer that names both sides, read from a mention, stands in a reply whose only "both" calls both
    sides normal ("Both costophrenic angles are sharp." read as "bilateral"): a doubt, never a reading of another
    option."""
    if item.kind != "choice" or label is None or method in _MARKED:
        return False
    if _BOTH_WORD.search(item.option_text(label) or "") is None:
        return False
    normal = [m.span() for m in _BOTH_NORMAL.finditer(text)]
    # (not where "both" or "bilateral" also names the finding: "Bilateral effusions. Both apices are clear.", "Both
    # femurs are fractured; both hips are intact.", a review)
    return bool(normal) and all(any(a <= m.start() < b for a, b in normal)
                                for m in _BOTH_WORD.finditer(text))


# held-out batch 150: "Answer: Left hip\nThe right femoral head also shows subchondral sclerosis ...": the other side
# (a side word before a part of the body, not "all right", "right away", the verb "left") said to show it too, in a
# clause that does not call it normal, only look at it or suppose it (not "The right hip also looks OK.", "I also
# checked the right side", "There is also a right total hip arthroplasty.", "This would require disease at the right
# base too")
_BODY_SIDE = (r"(?:the\s+|a\s+)?{s}(?:[\s\-]+(?:" + lexicon.PAIRED_PARTS + r"|(?:head|chest|one)\b)"
              r"|(?=[ \t]*(?:[.,;:]|\Z)))")
_SET_ASIDE_THERE = re.compile(r"(?i)\b(?:normal|unremarkable|healthy|clear|intact|spared|preserved|unaffected|no|not|"
                            r"without|free|negative|fine|ok|okay|good|sharp|crisp|well|expanded|inflated|aerated|smooth|"
                            r"clean|symmetric|maintained|checked|looked|imaged|examined|MRI|CT|arthroplasty|replacement|"
                            r"prosthesis|deserves|needs|should|worth"
                            # (the other side only supposed or weighed: "This would require disease at the right
                            # base too", "'bibasilar' also takes in the right base", "... deep compared with the right")
                            r"|would|requires?|required|need|implies|imply|implying|includes?|including|takes|compared|"
                            r"if|option|options)\b")
_ALSO_SIDE = {s: re.compile(r"(?i)(?<!\ball\s)\b" + _BODY_SIDE.format(s=s) + r"[^.;:!?\n]{0,80}?\b(?:also|too|as\s+"
                            r"well|likewise|similarly)\b"
                            r"|\b(?:also|likewise|similarly)\b[^.;:!?\n]{0,40}?(?<!\ball\s)\b" + _BODY_SIDE.format(s=s))
              for s in ("left", "right")}


def _other_side_too(text: str, item: Item, label: str | None) -> bool:
    """Whether a side read as the answer has the reply say the other side shows it too, where an option names both
    sides: then the answer may be "both" (a doubt, never a reading of it)."""
    if item.kind != "choice" or label is None or not any(re.search(r"(?i)\b(?:both|bilateral)\b", o)
                                                         for o in item.options):
        return False
    side = _SIDE_OPTION.match(item.option_text(label))
    if side is None:
        return False
    for m in _ALSO_SIDE["right" if side.group(1).casefold() == "left" else "left"].finditer(text):
        start = max(text.rfind(c, 0, m.start()) for c in ".;!?\n") + 1
        stop = min((i for i in (text.find(c, m.end()) for c in ".;!?\n") if i >= 0), default=len(text))
        if not _SET_ASIDE_THERE.search(text, start, stop):
            return True
    return False


# held-out batch 152: "... heavier on the left. That fits A better than B." read from another option's words: the
# letter the findings are said to fit better or best (a capital, even "A") puts a reading from a mention in doubt (only
# a doubt: as a declaration it overruled answers given before it, "The answer is C. A younger patient fits A better.")
_FITS_LETTER = re.compile(r"\b(?i:fits|matches|suits)[ \t]+(?:(?i:option)[ \t]+)?\(?([A-Z])\)?[ \t]+"
                          r"(?i:better|best|more[ \t]+closely)\b")


# a side called normal: "normal left kidney", "the normal-looking right side", "Left lung clear.", "right side of the
# mediastinum is clear" (within its line, and not past the other side: held-out batch 132's "- Meniscus at the left
# costophrenic angle\n- Right hemithorax clear")
_CALLED_NORMAL = {s: pattern(
    r"(?i)\b(?:normal|unremarkable|healthy)(?:[\s\-]+(?:appearing|looking))?[ \t]+(?:the[ \t]+)?" + s + r"\b|\b" + s
    + r"(?:[ \t\-]+(?!(?:is|are|not|left|right)\b)[\w\-]+){0,4}?[ \t]+(?:(?:is|are|looks?|appears?|remains?)[ \t]+)?"
    r"(?:clear|normal|unremarkable|healthy)(?=[ \t]*(?:[.,;:!\n]|\Z))") for s in ("left", "right")}


def _called_intact(text: str, side: str, option: str) -> bool:
    """Whether the side's own part, as its option names it, is called intact with nothing between (held-out batch 152:
    "Answer: A\nFindings: Displaced fracture of the right femoral shaft; left femur intact." to "Where is the
    fracture?"; not "Left hip. Left hip joint space intact.", a part of that side, nor "no longer intact")."""
    noun = re.sub(r"(?i)\A\W*(?:the\s+)?(?:left|right)[\s\-]+", "", option).strip()
    if not noun or " " in noun:
        return False
    said = r"(?:the[ \t]+)?" + side + r"[ \t\-]+" + re.escape(noun)
    return re.search(r"(?i)\b" + said + r"[ \t]+(?:is[ \t]+|remains[ \t]+)?intact\b(?=[ \t]*(?:[.,;:!\n]|\Z))"
                     r"|(?<!no[ \t]longer[ \t])\bintact[ \t]+" + said + r"\b(?![ \t\-]+[\w\-])", text) is not None


#: a negation in the clause before an option is named ("These findings don't point to A, erythema migrans.", "This
#: doesn't look like erythema migrans"): the option is denied, not chosen, though the words after it are its own
# (held-out batch 155: "I disagree with adhesions: the transition point is at the left inguinal canal ..."; the reply's
# own disagreement, not "Hard to disagree with adhesions", "Few would disagree": a hostile review)
_NEGATED_CLAUSE = re.compile(r"(?i)\b(?:not|no|never|neither|nor|without|cannot)\b|n't\b"
                             r"|\b(?:I|we)\s+(?:(?:strongly|respectfully|would|do|must)\s+)?disagree\b|\bI'd\s+disagree\b")
#: the negations that deny a declared answer ("I don't think it is A", "I would not say this is A"): a verb's;
#: "no" and "without" deny a noun ("Without new vessels this is **non-proliferative** diabetic retinopathy (B).")
_NEGATED_VERB = re.compile(r"(?i)\b(?:not|never|cannot)\b|n't\b")
#: where the clause before a mention starts: a sentence or clause mark, a dash or arrow, "but", or a conclusion drawn
#: ("no pigment network -> vascular lesion", "there is no dark stripe between liver and kidney so no free fluid")
_CLAUSE_START = re.compile(r"(?i)[.!?;:,\n]|\s[\u2013\u2014-]\s|->|\u2192|=>|\b(?:but|so|therefore|hence|thus)\b")
#: the most words between the negation and the option it denies ("don't point to A", "doesn't look like A"); a
#: negation further back denies something else ("a collection that doesn't cross the suture lines is an epidural
#: hematoma")
_DENIAL_REACH = 4
#: four words are never longer than this (a longer gap is not counted word by word)
_REACH_CHARS = 200


# a hostile review of this rule set (2026-12): praise in negative words ("Herpes zoster (A) couldn't fit better.
# Impetigo (B) has honey-coloured crusts.", "C wouldn't be out of place here, given washout. D (FNH) shows a central
# scar.") read the other option surely; and an option that "should not be discounted" is only kept open
_PRAISED_IN_NEGATION = re.compile(
    r"(?i)\b(?:couldn't|could\s+not|can't|cannot|can\s+not)\s+(?:be|fit|look|sound|get|match)\s+(?:any\s+|much\s+)?"
    # (not "couldn't be more different / unlikely": a rejection, a second review)
    r"(?:more(?!\s+(?:different|unlike\w*|dissimilar|unhelpful|remote|distant|wrong|misleading|atypical)\b)|better|"
    r"clearer|closer|plainer)\b"
    r"|\b(?:wouldn't|would\s+not|won't|will\s+not)\s+be\s+(?:at\s+all\s+)?(?:a\s+|an\s+)?(?:out\s+of\s+place|stretch|"
    r"exaggeration|wrong)\b")
# (not "should not be overlooked / ignored / underestimated", advice or emphasis: a second review)
_KEPT_OPEN = re.compile(r"(?i)\b(?:should|must|can|could|would)(?:n't|\s+not)\s+be\s+"
                        r"(?:entirely\s+|completely\s+|fully\s+)?(?:discounted|dismissed|excluded|ruled\s+out)\b")
# an option said to be only part of the answer ("A would not be the whole story; the right femur is also broken.", a
# review of held-out batches 185-186: read B, sure): the answer may be that option and more, another option
_ONLY_PART = re.compile(r"(?i)(?:\bisn't|\bis\s+not|\bwasn't|\bwas\s+not|\bwouldn't\s+be|\bwould\s+not\s+be|'s\s+not)"
                        r"\s+(?:quite\s+)?the\s+(?:whole|full|complete|entire)\s+(?:story|picture|answer)\b"
                        r"|\b(?:is|are|would\s+be)\s+(?:only|just|merely)\s+(?:part|half)\s+of\s+"
                        r"(?:the\s+(?:story|picture|answer)|it)\b")
# where the clause the praise is said in opens: a mark, a dash, or a word that sets what follows apart ("Unlike
# melanoma, the vessels couldn't be more reassuring", "Between MI and dissection, the mediastinum couldn't be clearer")
_CLAUSE_OPENS = re.compile(r"(?i)[.;:!?,\n\u2013\u2014]|\s-\s|\b(?:but|while|whereas|although|though|unlike|and|than|"
                           r"rather|not|so|thus|hence)\b")


def _praised_or_kept_open(text: str, item: Item, label: str | None, declared: bool) -> bool:
    """Whether the subject of praise in negative words ("Herpes zoster (A) couldn't fit better.", "C wouldn't be out of
    place") is another option than the reading, or any option is the subject of "should not be discounted /
    excluded" (kept open, not chosen) or of "would not be the whole story" (only part of the answer, unless the reply
    ``declared`` its answer: "A would not be the whole story: both femurs are broken, so C."): a doubt, never a
    reading of that option. The subject is what the clause names
    before the praise, within 80 characters (not an option set apart before it: "Unlike melanoma, ...")."""
    if item.kind != "choice" or label is None:
        return False
    for pattern_, other_only in ((_PRAISED_IN_NEGATION, True), (_KEPT_OPEN, False),
                                 *(() if declared else ((_ONLY_PART, False),))):
        for m in pattern_.finditer(text):
            start = max(m.start() - 80, 0)
            for c in _CLAUSE_OPENS.finditer(text, start, m.start()):
                start = c.end()
            named = named_in(text[start:m.start()], item)
            if named - {label} or (named and not other_only):
                return True
    return False


def _letter_then_another(text: str, item: Item, label: str | None) -> bool:
    """A declared letter whose sentence goes on in the words of one other option and none of its own ("Answer: A. The
    fracture is in the right femoral neck." where A is "Left femur": batch 105, read A, sure): the letter and what it
    says disagree."""
    decl = last_declaration(text, item)
    if label is None or decl.label != label or decl.at < 0:
        return False
    m = lone_letter(label).search(text, decl.at)
    own = option_names(item, label)
    # (the letter as an option list writes it, "A. <text>", "A: <text>": not "pneumothorax (A): there's a sharp line")
    if m is None or own is None or text[m.start()] in "([" \
            or not re.match(r"[ \t]*[.:)\-\u2013\u2014]", text[m.end():]):
        return False
    sentence = first_sentence(text[m.end():].lstrip(" \t.,:)-*_"))
    before = text[max(text.rfind("\n", 0, m.start()), 0):m.start()]
    if re.search(r"(?i)\b(?:" + own + r")\b", sentence + " " + before) or _RANKED_BELOW.search(sentence) \
            or re.search(r"(?i)\b(?:runner[\s\-]up|not|rather\s+than|instead\s+of|than|versus|vs)\b", sentence):
        return False  # (another option weighed: "Answer: B. Runner-up would be C (pleural effusion), less likely.")
    # (one other option: "Both angles are blunted, the right more than the left" names two, which may be the letter's;
    # a word of the question names none: "fracture" of "No fracture" to "Where is the fracture?")
    asked = {w.casefold() for w in re.findall(r"[^\W\d_]{4,}", item.question or "")}
    sentence = re.sub(r"[^\W\d_]{4,}", lambda w: " " if w.group(0).casefold() in asked else w.group(0), sentence)
    return sum(1 for lb in item.labels if lb != label and (names := option_names(item, lb)) is not None
               and re.search(r"(?i)\b(?:" + names + r")\b", sentence)) == 1


def _denied_by_name(text: str, item: Item, label: str | None) -> bool:
    """A reading from where an option is named (``_MENTIONS``) whose option is named, somewhere, after a negation in
    the same clause: by its text, its own letter ("A," "(A)") or a word no other option has."""
    names = option_names(item, label)
    if names is None or label is None:
        return False
    mention = pattern(r"(?i)\b(?:" + names + r")\b|(?-i:\b" + re.escape(label)
                      + r"\b(?=[.,):])|(?<=\()" + re.escape(label) + r"\b)")
    negations = [(n.start(), n.end()) for n in _NEGATED_CLAUSE.finditer(text)]
    if not negations:
        return False
    starts = [b.end() for b in _CLAUSE_START.finditer(text)]
    # each mention is checked against the marks and negations found once (a 100 kB reply of 50,000 mentions took
    # 775 s when each searched the text before it again)
    return any(_denied_at(text, m.start(), starts, negations) for m in mention.finditer(text))


# what follows an option named with a mark after it when that option is set aside, to the end of its clause:
# "Prostatic enlargement (D): no.", "D - unlikely", "Pregnancy (C): ruled out", "(D) - not supported" (an
# option-by-option review's own verdicts; not "no doubt", nor "mildly enlarged (B) - not in the range I'd call severe");
# without a mark only what rules it out ("Pregnancy (C) unlikely.", "C is excluded.")
_REJECTED_AFTER = re.compile(r"[*_)\]]*[ \t]*(?:[:\u2013\u2014\-][ \t]*|(?=[\u2718\u2717\u00d7]|"
                             r"(?:(?:is|seems|looks)[ \t]+)?(?:unlikely|not[ \t]+likely|excluded|ruled[ \t]+out|"
                             r"improbable)\b))[*_]*[ \t]*(?:(?:is|seems|looks)[ \t]+)?(?P<word>no|not|unlikely|"
                             r"improbable|excluded|ruled[ \t]+out|absent|incorrect|wrong|[\u2718\u2717\u00d7]|not[ \t]+"
                             r"(?:this|it|supported|seen|present|likely|the[ \t]+answer|consistent|compatible|correct|"
                             r"favou?red)|does(?:n't|[ \t]+not)[ \t]+(?:fit|apply|match))[*_]*[ \t]*(?:[.;,!\n]|\Z)",
                             re.IGNORECASE)


def rejected_by_name(text: str, item: Item, label: str | None) -> bool:
    """Whether ``text`` names option ``label`` (its text, a word no other option has, or its letter standing alone)
    with a verdict after a colon or dash that sets it aside ("Prostatic enlargement (D): no.": a hostile probe of
    batch 102's replies, where such a closing line of a review was read as the verdict, sure); not where that verdict
    is the option's own text ("B - No." where B is "No", "B: Absent")."""
    names = option_names(item, label)
    if names is None or label is None:
        return False
    mention = pattern(r"(?i)\b(?:" + names + r")\b(?:[ \t]*[(\[]" + re.escape(label) + r"[)\]])?"
                      + r"|(?-i:(?<![\w'])[(\[]?" + re.escape(label) + r"[)\]]?(?![\w']))")
    own = norm(item.option_text(label))
    for m in mention.finditer(text):
        r = _REJECTED_AFTER.match(text, m.end())
        if r is not None and not own.startswith((norm(r.group("word")).split() or [r.group("word")])[0]) \
                and not _UNTIL.search(text[max(0, m.start() - 80):m.start()]):
            return True
    return False


# what makes "X is excluded" a condition, not a verdict ("avoid anticoagulation until dissection is excluded")
_UNTIL = re.compile(r"(?i)\b(?:until|unless|before|if|once|when|whether|till)\b[^.;:!?\n]*\Z")


def _denied_at(text: str, at: int, clause_starts: list[int], negations: list[tuple[int, int]]) -> bool:
    """A negation (``negations``: start, end) within reach before ``at``, in the clause that ``at`` is in
    (``clause_starts``: where each clause after a mark starts, in order)."""
    i = bisect.bisect_right(clause_starts, at) - 1
    start = clause_starts[i] if i >= 0 else 0
    j = bisect.bisect_right(negations, (at, at)) - 1  # the last negation starting before ``at``
    while j >= 0 and negations[j][1] > at:
        j -= 1
    if j < 0 or negations[j][0] < start:
        return False
    end = negations[j][1]  # the nearest negation: fewest words between it and ``at``
    return at - end <= _REACH_CHARS and len(text[end:at].split()) <= _DENIAL_REACH


def _declaration_denied(text: str, at: int) -> bool:
    """A verb's negation within reach before the declaration at ``at`` ("I don't think it is A")."""
    return _denied_at(text, at, [b.end() for b in _CLAUSE_START.finditer(text, 0, at)],
                      [(n.start(), n.end()) for n in _NEGATED_VERB.finditer(text, 0, at)])


def declaration_denied(text: str, item: Item) -> bool:
    """Whether the reply's last declaration is denied by a verb's negation before it ("I don't think it's
    malignant (about 80% sure)", batch 69): on an item of two options, the other one is meant."""
    found = last_declaration(text, item)
    return found.label is not None and _declaration_denied(text, found.at)


def _denied_after(text: str, opt: str) -> bool:
    """batch 42: the option's own words as the subject of a denial that follows them ("The left kidney isn't the
    dilated one", "the right hip is not the affected side", "Butterfly glioma is absent."): the option is denied,
    though no negation precedes it."""
    if len(opt) < 4:
        return False
    name = r"(?i)\b" + re.escape(opt).replace(r"\ ", r"\s+")
    return pattern(name + r"(?:" + _DENIED_AFTER + r")").search(text) is not None


# a size called normal ("normal-sized ventricles"), no denial of an escape option before it
_SIZE_AFTER = re.compile(r"(?i)\bnormal[\s\-]+sized?\b")
# what denies an option named just before it (:func:`_denied_after`)
_DENIED_AFTER = (
    r"\s+(?:is|was)(?:\s+not|n't)\s+(?:the|a|an)\s|\s+(?:is|was|has)\s+(?:been\s+)?(?:absent|excluded|ruled\s+out|"
    r"resolved)\b"
    # hostile review of batches 80-83: "Butterfly glioma is absent."
    r"|\s+(?:is|was)(?:\s+not|n't)\s+(?:present|seen|visible|identified)\b"
    # held-out batch 144: "Answer: The left hip is not affected." (A: Left hip), and its near misses in a hostile
    # review ("is spared", "— not affected", "Left hip: normal.", "does not appear affected", "has no stone", "is free
    # of stones", which the reader's cleaning makes "is without stones")
    r"|\s+(?:is|was|are|were)(?:\s+not|n't)\s+(?:affected|involved|diseased|abnormal|injured|[a-z]{3,}ed)\b"
    # (a result alone: not "Seborrheic keratosis: no biopsy needed")
    r"|[ \t*_]*[:\u2013\u2014][ \t*_]*(?:no|none|nil|negative)[ \t*_]*(?=[.;,!\n]|\Z)"
    r"|[ \t*_]*(?:[:(\u2013\u2014,\-][ \t*_]*)?(?:(?:is|was|are|were|looks?|appears?|seems?)\s+)?(?:unaffected|"
    r"uninvolved|spared|not\s+(?:affected|involved)|(?:entirely\s+|completely\s+)?normal)\b"
    # (not "Pneumothorax without tension": without a verb, "without" is said of something else)
    r"|\s+(?:is|was|are|were)\s+(?:free\s+of|without)\b"
    r"|\s+(?:does|do|did)(?:\s+not|n't)\s+(?:appear|look|seem)\s+(?:to\s+be\s+)?(?:affected|involved|abnormal)\b"
    r"|\s+(?:shows?|has|have|contains?)\s+no\b")


@functools.lru_cache(maxsize=4096)
def _negated_word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?i)\b{_NEGATING}[\s\-]+{re.escape(word)}")


# a sentence that is only the reply's doubt, in the present ("Honestly, I am not sure at all here.", "I'm unsure.",
# "Not sure.", "I'm not 100% sure.", "I am uncertain."): said just before a declared answer, it is about that answer
# (not "I wasn't sure at first.", nor "I'm not sure the lateral helps.")
_DOUBT_SENTENCE = re.compile(r"(?i)(?:(?:honestly|frankly|to\s+be\s+honest|truthfully|admittedly)[,\s]+)?"
                             r"(?:I(?:'m|\s+am)\s+)?"
                             r"(?:really\s+|honestly\s+|just\s+|still\s+)?(?:not\s+(?:really\s+|quite\s+|totally\s+|"
                             r"100\s*%\s+|a\s+hundred\s+percent\s+|at\s+all\s+|entirely\s+|"
                             r"completely\s+|fully\s+|so\s+|that\s+|very\s+|too\s+)?(?:sure|certain|confident)|unsure|"
                             r"uncertain)(?:,?\s+(?:at\s+all|here|honestly|frankly|really|about\s+(?:this|it|this\s+one)|"
                             r"of\s+(?:this|it)))*"
                             r"\s*[.!]?")
# a question of the reply's own that the doubt after it answers, and that is about an earlier answer ("Was I wrong
# earlier to say B? I'm not sure. The answer is A."): the doubt is about that, not the answer that follows; a question
# of whether it is sure ("Am I sure? I'm not sure.", "Honestly? Not sure.") or of the finding ("Sclerosis on both
# sides? I'm unsure about this. Answer: C") is the answer's own doubt (the older near misses of the hostile reviews)
_EARLIER_ANSWER_ASKED = re.compile(r"(?i)\b(?:earlier|before|previous(?:ly)?|first|initial(?:ly)?|said|wrong|mistaken|"
                                   r"right\s+(?:then|before))\b[^?]*\Z")


# where sentences part for :func:`_doubt_before`: not a decimal point ("Clearly the CTR is over 0.6, so C.")
_PLAIN_SENTENCE_MARK = re.compile(r"(?<!\d)\.|\.(?!\d)|[!?;\n]")
# what, between a doubt and the answer, says the reply looked again and settled it ("I'm not sure. Let me look again:
# the heart is huge. The answer is C.")
_DOUBT_SETTLED = re.compile(r"(?i)\b(?:look(?:ing|ed)?\s+(?:again|more\s+closely|closer)|(?:a\s+)?(?:closer|second)\s+"
                            r"look|on\s+(?:reflection|closer\s+(?:look|inspection))|re-?check\w*|re-?examin\w*|"
                            r"let\s+me\s+(?:look|check|re-?check|re-?examine|re-?assess|measure|zoom|see)|"
                            r"having\s+looked|now\s+I\s+(?:see|am\s+sure)|I(?:'m|\s+am)\s+(?:now\s+)?sure)\b")
# held-out batch 164: a reply that says it misread something or goes back to count again ("**Green** — I misread the
# key; the dot ... is the **red** one.", "D. 4. Let me recount: ... B. 2."): which answer the second look leaves is
# not the reader's to tell where another answer is named after them (as corrections, these words took back answers
# they only checked: a hostile review)
_LOOKED_AGAIN = re.compile(r"(?i)\b(?:i\s+misread(?!\s+nothing)|let\s+me\s+re-?count)\b")
# held-out batch 185: "## Initial read: **Arterial phase (A)** ... I'm **withdrawing the "arterial" answer**, but ...
# I can't assign this image to one phase.": an answer of its own taken back, in the first person and now (not "I will
# not withdraw my reading", "I'd only withdraw my pick if ...", "they should retract that reading": a second review);
# a doubt, never a reading
_ANSWER_TAKEN_BACK = re.compile(r"(?i)\bI(?:(?:'m|\s+am)\s+(?:now\s+)?(?:withdrawing|retracting|taking\s+back)"
                                r"|\s+(?:now\s+|hereby\s+)?(?:withdraw|retract|take\s+back))\s+(?:my|the|that)\s+"
                                r"(?:[\w\-]+\s+){0,2}?(?:[\"'\u201c\u2018*]+[^\"\u201d\n]{1,40}?[\"'\u201d\u2019*]+\s+)?"
                                r"(?:answer|call|reading|choice|pick)\b")
_ASKED_OR_SUPPOSED = re.compile(r"(?i)\b(?:would|could|should|will|shall|can|did|do|does|if|when|unless|to)\s+\Z")


def _taken_back(text: str) -> bool:
    """Whether the reply takes an answer of its own back, now (not asked or supposed: "Would I retract the answer if
    the collection crossed a suture? Yes, but it does not.")."""
    return any(not _ASKED_OR_SUPPOSED.search(text[max(0, m.start() - 12):m.start()])
               for m in _ANSWER_TAKEN_BACK.finditer(text))


# ... what it misread left unsaid, closing the reply ("I misread that."; not "I misread that question initially.")
_MISREAD_LEFT_UNSAID = re.compile(r"(?i)[ \t]*(?:that|it|this)?[ \t]*[.!]?[ \t*_]*\Z")
#: how many words, after the reply says it looked again, say what it found (a look that finds nothing settles nothing)
_SETTLED_WORDS = 4
#: how many sentences before a declared answer's own a doubt of the reply's is about it
_DOUBT_SENTENCES_BEFORE = 2


def _doubt_before(text: str, start: int) -> int | None:
    """Where a sentence among the two before ``start`` begins, if it is only the reply's doubt
    (:data:`_DOUBT_SENTENCE`), the reply does not look again and say what it found in between (:data:`_DOUBT_SETTLED`),
    and it does not answer a question the reply asks itself of an earlier answer ("Was I wrong earlier to say B? I'm
    not sure. The answer is A."). What the answer then says of itself ("Regardless, I'll answer A.", "In any case, my
    answer is B", "Clearly the CTR is over 0.6, so C") does not take the doubt back, nor does a question or heading
    over the doubt ("Which projection is this? Not sure.", "**Impression**\nI'm not sure."): setting those aside by what
    they name made new sure errors (the two reviews of this rule)."""
    ends = [m.end() for m in _PLAIN_SENTENCE_MARK.finditer(text, 0, start)]
    bounds = [0, *ends]
    spans = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip(" \t\n*_#>-.!?;")]
    for begin, end in reversed(spans[-_DOUBT_SENTENCES_BEFORE:]):
        if not _DOUBT_SENTENCE.fullmatch(text[begin:end].strip(" \t\n*_#>-")):
            continue
        settled = _DOUBT_SETTLED.search(text, end, start)
        if settled is not None and len(re.findall(r"[^\W\d_]+", text[settled.end():start])) >= _SETTLED_WORDS:
            return None  # "Let me look again: the heart is huge." (not "Let me look again. Answer: B.")
        before = text[:begin].rstrip(" \t\n*_")
        if before.endswith("?"):
            asked = before[max((m.end() for m in _SENTENCE_MARK.finditer(before, 0, len(before) - 1)), default=0):]
            if _EARLIER_ANSWER_ASKED.search(asked.rstrip(" \t?*_")):
                return None
        return begin
    return None


# a last sentence without its mark that only names a side's structure ("... in the left femoral head. The right
# femoral head")
_BARE_SIDE_CLOSE = re.compile(r"(?i)(?<=[.!?])[ \t]+(?:(?:the|its)[ \t]+)?(?P<side>left|right)[ \t]+[a-z\-]+"
                              r"(?:[ \t]+[a-z\-]+)?\Z")


def _cut_on_the_other_side(text: str) -> bool:
    """The reply ends, without a mark, in a sentence that only names a structure on the side the sentence before it
    does not ("Findings: Subchondral sclerosis and a crescent sign in the left femoral head. The right femoral head",
    held-out batch 140): what it was to say of it is cut off (not "Crescent sign on the left. The left hip", the answer
    said again)."""
    t = text.rstrip(" \t*_")
    m = _BARE_SIDE_CLOSE.search(t)
    if m is None:
        return False
    before = t[max((x.end() for x in _SENTENCE_MARK.finditer(t, 0, m.start() - 1)), default=0):m.start()]
    sides = {w.casefold() for w in re.findall(r"(?i)\b(?:left|right)\b", before)}
    return bool(sides) and m.group("side").casefold() not in sides


def _hedged_part(text: str, item: Item, method: str, label: str | None, placed: bool) -> str:
    """Where a hedge puts the reading in doubt: the whole reply, but for a declared answer only its own sentence and
    what follows it (weighing alternatives before "my final answer is C" is reasoning, not doubt about C), and
    without the ranking of options in a choice ("the most likely answer is C", "lymphoma is less likely")."""
    if "whether" in text or " if " in text:  # (an alternative weighed and set aside, read in its whole context)
        text = blank_matches(_WEIGHED_WHETHER, text)
    if label is not None and ("possible" in text or "plausible" in text):
        text = _conceded_other(text, item, label)
    if label is not None and item.kind == "choice" and "favo" in text:
        text = _what_another_favours(text, item, label)
    if label is not None and item.kind in ("choice", "label"):
        text = _refinements_of(text, item, label)
    if "ossible" in text and method != "final_verdict":  # (a closing line under such a heading may be read as the
        #                                                  answer: "- Pleural thickening: no, the density layers.")
        text = blank_matches(_MIMICS_EXCLUDED, text)
    if "|" in text:
        text = _PITFALLS_HEADER.sub(lambda m: m.group(0) if _ANSWER_TITLE.search(m.group("title")) else
                                    "|" + " " * len(m.group("title")), text)
    if "possible" in text:
        text = blank_matches(_ONLY_POSSIBLE, text)
    if method == "declaration":
        at = last_declaration(text, item).at
        long_reply = len(text.split()) > LONG_WORDS
        if at > 0:
            start = max((m.end() for m in _SENTENCE_MARK.finditer(text, 0, at)), default=0)
            doubt = _doubt_before(text, max((m.end() for m in _PLAIN_SENTENCE_MARK.finditer(text, 0, at)), default=0))
            if doubt is not None:
                start = doubt  # "Honestly, I am not sure at all here. I'd answer C.": the doubt just before it
            text = text[start:]
        if at >= 0 and long_reply:
            # batch 90: "**Answer: B – right side**" opening a systematic review: its sentence, and those that name
            # an answer or what is asked, as for an answer a long reply opens with
            text = _answering_sentences(text, item, "leading", label)
    elif placed and len(text.split()) > LONG_WORDS:
        text = _answering_sentences(text, item, method, label)
    text = blank_matches(_DENIED_POSSIBILITY, blank_matches(_OTHERS_VIEW, blank_matches(_CONCEDED_WHY, text)))
    if method in _MARKED and _asks_an_attribute(item):
        text = _side_differentials(text, item)
    if method in _DECLARED:  # (a reply that only says so answers nothing: "The radius might have been chosen.")
        text = blank_matches(_NEXT_CHECK, blank_matches(_OTHERS_CHOICE, text))
    if item.kind == "yesno":
        text = blank_matches(_COMPARED_ODDS, text)
    text = blank_matches(_HEDGED_NUMBER, text, lambda m: not _CLEAR_LEAD <= int(m.group(1)) <= 100)
    return _RANKED_BELOW.sub("", _SUPERLATIVE.sub("", text)) if item.kind == "choice" else text


#: beyond this many sentences a reply's hedges are heard anywhere in it (a real long reply has a few dozen)
_MOST_SENTENCES = 200


def _sentences(text: str) -> list[str]:
    """The reply's sentences and lines, without those that are only markup."""
    return [x for x in re.split(r"(?<=[.!?;\n])\s+", text) if x.strip(" \t\n*_#>-")]


# batch 90: the sentence a reply concludes with, wherever it stands ("So: **mildly enlarged** — option B.",
# "**Impression:** Solitary left lung mass (C).", "So I think the hydronephrosis is due to **prostatic enlargement
# (D)**"), a recommendation or a caveat after it
_CONCLUDING_SENTENCE = re.compile(r"(?i)\A[\W_]*(?:so|therefore|thus|hence|overall|in\s+summary|in\s+conclusion|"
                                  # held-out batch 125: "The fracture therefore involves the left femur only, which is
                                  # option A.", "### Result\n3 wisdom teeth are visible - option C."
                                  r"(?:[^\W\d_][\w\-']*\s+){1,3}(?:therefore|thus|hence)|result|summary|"
                                  r"to\s+sum\s+up|impression|conclusion|answer|final\s+answer|diagnosis|verdict|"
                                  r"bottom\s+line|main\s+finding|(?:putting|taking|taken|pulling)\s+(?:(?:it|this|"
                                  r"these|everything|all\s+(?:of\s+)?this)\s+)?together|all\s+things\s+considered)\b")


# hedges that can only be about the answer itself, wherever they stand in its sentence ("My answer is yes - that's a
# coin toss though, given the AP projection", a hostile review): not "likely", "may", which may grade a detail
_OF_THE_ANSWER = re.compile(r"(?i)\bcoin[\s\-]+(?:toss|flip)|\b(?:go|goes|going|could\s+be)\s+either\s+way\b|"
                            r"\bequally\b|\bborderline\b|\btentative(?:ly)?\b|\buncertain\b|\bunclear\b|\bguess\w*|"
                            r"\b50[ \t]*/[ \t]*50\b|\bfifty[\s\-]fifty\b|\blow[\s\-]+confidence\b|\blean\w*|"
                            + SELF_DOUBT.pattern.removeprefix("(?i)"))


def _concluding(sentences: list[str]) -> list[str]:
    """The sentences a reply concludes with (:data:`_CONCLUDING_SENTENCE`), and those under a short heading that
    does ("### Result\n\n**3 wisdom teeth** are visible - **option C**.", held-out batch 125)."""
    return [x for i, x in enumerate(sentences) if _CONCLUDING_SENTENCE.match(x) or (
        # (a heading with a full stop too: "**Conclusion.** ... are the signature of **D — atelectasis**.", held-out
        # batch 171)
        i and _HEADING_ONLY.fullmatch(sentences[i - 1].strip().removesuffix(".")) and _CONCLUDING_SENTENCE.match(
            sentences[i - 1]))]


_SUPPOSED = re.compile(r"(?i)\b(?:would|could|might|if|unless|not|no|n't|rather\s+than|instead\s+of|except)\b|n't")


# the marks and spaces around a letter that stands alone ("**B.**", "(B)", "- B:")
_AROUND_LETTER = " \t\n*_#>-.:()[]"


def _placed(text: str, item: Item, method: str, label: str | None) -> bool:
    """Whether the reading comes from where the reply puts its answer: its opening or its closing (``_PLACED``), or
    a lone letter in its first or last sentence, in the sentence it concludes with (:data:`_CONCLUDING_SENTENCE`)
    or on a line of its own ("Most likely diagnosis\nC."), or a long reply's opening sentence that gives the same
    answer, read alone and sure (:func:`_opens_with`)."""
    if method in _PLACED:
        return True
    if _opens_with(text, item, method, label) or _closes_with(text, item, method, label):
        return True
    if method != "bare" or label is None or item.kind != "choice":
        return False
    sentences = _sentences(text)
    letter = lone_letter(label)
    opening = _sentences(_after_preamble(text.lstrip()))[:1]
    concluding = _concluding(sentences)
    held = [x for x in sentences if x.strip(_AROUND_LETTER) == label or (letter.search(x) and (
        x is sentences[0] or x in opening or x is sentences[-1] or any(x is c for c in concluding)))]
    # (not "Option D would be the default in a normal study, and this is not a normal study.": a letter supposed or
    # denied; hostile review of batches 90-91). A sentence that is only the letter's own option text and the letter
    # supposes nothing (batch 121: "**No free fluid (B).**" where B is "No free fluid"; not "B, not dilated, is
    # unlikely at 9 mm.", a hostile review of e723c60)
    own = [phrase_regex(opt) for opt, lab in item.option_map if lab == label]
    return any(not _SUPPOSED.search(x) or any(p.sub("", x).strip(_AROUND_LETTER) == label for p in own)
               for x in held)


# a heading of a few words on a line of its own before the answer ("### Short answer\n**Yes**, the image shows the
# chest.", its marks already cleaned away)
_OPENING_HEADING = re.compile(r"[ \t*_#>]*(?:[^\W\d_][\w\-']*[ \t]*){1,4}:?[ \t*_]*\n\s*")


def _after_preamble(text: str) -> str:
    """The reply from its first line that is neither a short heading ("### Short answer") nor the question restated
    ("## Is there a nodule in the right upper lobe?"): where an answer it opens with stands."""
    for _ in range(4):
        m = _OPENING_HEADING.match(text) or RESTATED_QUESTION.match(text)
        if m is None:
            break
        text = text[m.end():]
    return text


# the end of a reply's opening sentence: a full stop, "!" or "?" before a space, or a line break
_OPENING_END = re.compile(r"[.!?](?=\s|\Z)|\n")
#: an opening sentence longer than this is itself an explanation, not a stated answer
_OPENING_WORDS = 30
_SUPPOSING = re.compile(r"(?i)\b(?:would|could|might|if|unless|whether)\b")
# what in the body after an opening answer says it may as well be another ("looks just the same", "I couldn't separate
# them", "indistinguishable", "equally likely")
_BODY_DOUBT = re.compile(r"(?i)\b(?:looks?|appears?)\s+(?:just|exactly|much)\s+the\s+same\b|\bindistinguishable\b|"
                         r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not)\s+(?:really\s+|reliably\s+)?"
                         r"(?:separate|distinguish|tell\s+(?:them\s+)?apart|differentiate)\b|\bequally\s+(?:likely|possible|"
                         r"plausible)\b|\bjust\s+as\s+(?:likely|well\s+be)\b|\bno\s+way\s+to\s+(?:tell|distinguish)\b")


def _opens_with(text: str, item: Item, method: str, label: str | None) -> bool:
    """Batch 112: whether a long reply opens with the answer it is read as, in a sentence that, read alone, gives that
    answer sure ("### Short answer\n**Yes**, the image shows the chest.", "**Verdict: I agree with the physician — A,
    left side.**", "Sim, há líquido livre no espaço de Morison."), then describes, weighs and recommends: a reading
    from where the reply puts its answer, as a leading letter is, not a word found somewhere in a long text. Not a
    yes or no read from the subject it names in a general remark or a how-to (lexicon.generic_statement), nor a reply
    in another language, whose body the doubts cannot read ("Sí, a primera vista parece haber un derrame ... Sin
    embargo, ... Por lo tanto, no hay derrame pleural.": a hostile review of 9e8e215). A yes or no read from the subject
    an opening sentence names ("This looks to me like an axial T2-weighted MRI of the brain rather than anything
    acquired with X-rays." to "Is this a CT?") is placed as any other: across the corpus and held-out batches 112-119,
    of the long replies so read whose opening alone gave the same reading sure, 41 were right and 2 wrong, both
    opening with a general remark or a how-to heading, which now reads nothing."""
    if label is None or method in _MARKED or method in ("language", "bare") \
            or len(text.split()) <= LONG_WORDS:
        return False  # (a lone letter has its own place, _placed)
    alone = _opening_alone(text, item)
    return alone is not None and alone.choice == label and alone.sure \
        and (alone.method != "question_subject" or method == "question_subject")


def _opening_alone(text: str, item: Item) -> Answer | None:
    """The reading of a reply's opening sentence alone (after any short heading or the question restated), where that
    sentence can be an answer: short, supposing nothing, and no body after it that doubts it."""
    rest = _after_preamble(text.lstrip())
    end = _OPENING_END.search(rest)
    opening = rest[:end.end()] if end is not None else rest
    if not opening.strip(" \t\n*_#>.") or len(opening.split()) > _OPENING_WORDS or _SUPPOSING.search(opening):
        return None  # (nor an answer supposed: "Option D would be the default in a normal study, and ...")
    if _BODY_DOUBT.search(text, len(text) - len(rest) + len(opening)):
        return None  # a review of 6ce9d37: "Hemangioma. ... FNH looks just the same ..., and I couldn't separate them"
    return read_alone(opening, item)


# how an answer a long reply opens with begins: a verdict's field ("Most likely diagnosis:", not "Excluded:" or
# "Differential:"), what the image is ("This is ...", "It isn't cystic."), an option denied ("Not the arterial
# phase.", "There's nothing solid about this nodule."); a hostile review of 397d1cb found openings of any other shape
# read sure against a body that concludes otherwise
_ANSWER_OPENING = re.compile(
    r"(?i)[ \t*_#>]*(?:(?:the[ \t]+)?(?:most[ \t]+likely|likeliest|final|working|short|quick|brief)?[ \t]*"
    r"(?:diagnosis|cause|answer|impression|verdict|conclusion)[ \t*_]*[:\-\u2013\u2014]"
    # held-out batch 151: an answer taken ("I'm going to go with C - Unknown, ..."), or an opening line that ends on
    # the option's letter ("This looks like a benign melanocytic nevus to me - D.", "Non-communicating (obstructive)
    # hydrocephalus - B")
    r"|i(?:'m|[ \t]+am|'ll|[ \t]+will|'d|[ \t]+would)[ \t]+(?:going[ \t]+to[ \t]+)?go[ \t]+with[ \t]"
    r"|[^\n.!?]{3,200}?[ \t][\-\u2013\u2014][ \t]*[*_]*[(\[]?(?-i:[A-Z])[)\]]?[*_]*[ \t]*[.!]?[ \t]*(?:\n|\Z)"
    r"|(?:i[ \t]+think[ \t]+)?(?:this|it)(?:'s|[ \t]+(?:is|isn't|is[ \t]+not))[ \t]+(?!(?:what|the\s+classic|tempting|"
    r"a\s+(?:difficult|tricky|hard))\b)"
    r"|not[ \t]|(?:there's[ \t]+|there[ \t]+is[ \t]+)?nothing[ \t]+[\w\-]+[ \t]+about\b)")
_FIRST_LOOK = re.compile(r"(?i)\b(?:at[ \t]+first|first[ \t]+(?:glance|look|impression)|initial(?:ly)?|originally)\b")


def opening_answer(text: str, item: Item) -> str | None:
    """Held-out batch 133: the answer a long reply opens with, in a sentence that read alone gives it sure ("### Most
    likely diagnosis: **Benign intracranial hypertension**", "This is early localised **Lyme disease** - ...", "###
    This isn't a portal venous phase."), where the rest goes through the other options by name and never changes its
    mind: what a reader takes as its answer. None otherwise (a short reply, an answer read from the subject named)."""
    if len(text.split()) <= LONG_WORDS or _change_of_mind_cues(text):
        return None
    rest = _after_preamble(text.lstrip())
    if len([x for x in text.lstrip()[:len(text.lstrip()) - len(rest)].splitlines() if x.strip()]) > 1 \
            or not _ANSWER_OPENING.match(rest) or _FIRST_LOOK.search(rest[:200].split("\n", 1)[0]):
        # (not a finding listed under headings, "## Contrast phase\n### What I see\n- The aorta ...", nor an opening
        # that is no answer: "I'll go through both hips in turn before answering.", "My first impression was ...",
        # "Nothing about this lesion looks malignant.", "The film shows bilateral airspace opacities ...")
        return None
    alone = _opening_alone(text, item)
    return alone.choice if alone is not None and alone.sure and alone.method != "question_subject" else None


def _closes_with(text: str, item: Item, method: str, label: str | None) -> bool:
    """Batch 116: whether a long reply closes with the answer it is read as, in a sentence that, read alone, gives that
    answer sure, and only advice after it ("... No, the common bile duct isn't dilated. If liver tests are obstructive
    despite this, an MRCP would be worth considering.", "### Answer\n**No** — the fracture is **undisplaced**.
    Clinical assessment of finger rotation is still recommended."): the closing counterpart of :func:`_opens_with`."""
    if label is None or method in _MARKED or method in ("question_subject", "language") \
            or len(text.split()) <= LONG_WORDS:
        return False
    sentences = [text[a:b] for a, b in _closing_sentences(text)]
    sentences = sentences[:len(sentences) - _advice_after(text, item)]
    if len(sentences) < 2:
        return False
    closing = sentences[-1].strip()
    if len(closing.split()) > _OPENING_WORDS or _SUPPOSING.search(closing):
        return False
    alone = read_alone(closing, item)
    return alone.choice == label and alone.sure and alone.method != "question_subject"


def _closing_sentences(text: str) -> list[tuple[int, int]]:
    """Where the sentences of a reply's close start and end (each line too; of the last 3,000 characters, where a
    closing and its advice stand)."""
    spans, at = [], max(0, len(text) - 3000)
    for m in _SENTENCE_END.finditer(text, at):
        spans.append((at, m.start()))
        at = m.end()
    spans.append((at, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip(" \t\n*_#>-")]


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


def _advice_after(text: str, item: Item) -> int:
    """How many of the reply's closing sentences (:func:`_closing_sentences`) are only advice, or the headings over
    it ("### Recommendation", "MR venography to confirm extent.", "Screen for prothrombotic states."): advice that
    names no option and nothing the question asks about, and raises no doubt or other possibility (not a last
    sentence of a few words: "... no wait, red is deeper. green is closest")."""
    sentences = [text[a:b] for a, b in _closing_sentences(text)]
    n = 0
    while n < len(sentences) and ((n and _HEADING_ONLY.fullmatch(sentences[-1 - n].strip())) or (
            _ADVICE.search(sentences[-1 - n]) and not _answering(sentences[-1 - n], item, set())
            and not HEDGE.search(sentences[-1 - n]) and not _OPEN_ADVICE.search(sentences[-1 - n])
            and not _BACK_TO.search(sentences[-1 - n]))):
        n += 1
    return n


# advice that goes back to an answer given before ("Recommendation: go with the first instinct.", a hostile review of
# held-out batch 129's fixes)
_BACK_TO = re.compile(r"(?i)\b(?:first|initial\w*|original\w*|earlier|previous\w*|prior|preliminary|opening|above|"
                      r"instinct|gut|go(?:ing)?\s+with|stick\s+with|stay\s+with|keep|revert\w*|back|disregard\w*|"
                      r"as\s+per)\b")


# what keeps advice from being only advice: a possibility it raises ("Follow-up imaging may reveal that this is a skin
# fold.", a hostile review of 5f68aa0)
_OPEN_ADVICE = re.compile(r"(?i)\b(?:may|might|could)\b|\b(?:artefact|artifact|skin\s+fold|mimic\w*|normal\s+variant|"
                          r"overlap\w*)\b")
# a line that is only a heading ("### Note", "**Recommendation:**")
_HEADING_ONLY = re.compile(r"[#>*_\s]*(?:[^\W\d_][\w\-']*[ \t]*){1,4}:?[*_\s]*")


# what a doubt about the finding names instead of it ("Yes, there's a fracture. ... The line may be a nutrient
# canal."): a sentence that names one is weighed too
_ANOTHER_EXPLANATION = re.compile(r"(?i)\b(?:artefact|artifact|normal\s+variant|nutrient\s+(?:canal|foramen)|"
                                  r"vascular\s+(?:channel|groove|marking)|skin\s+fold|overlapp?\w*|superimpos\w*|"
                                  r"mimic\w*|projectional|positional|rotation)\b")


# what the finding itself may be instead, in a sentence that need name neither it nor an answer ("Yes, there is a
# pleural effusion. ... Though it could be thickening.", "This could also be a raised hemidiaphragm."): not a size, a
# next step or a recommendation ("the true volume may be larger", "it might be worth checking", "this may be
# discussed")
_IT_MAY_BE = re.compile(r"(?i)\b(?:it|this|that|these|they|the\s+(?:finding|opacity|density|lesion|line|lucency|shadow|"
                        r"blunting|appearance|abnormality|collection|mass|nodule|focus|area|change|signal)s?)\s+"
                        r"(?:could|may|might)\s+(?:also\s+|equally\s+|instead\s+|just\s+|simply\s+|still\s+|well\s+)?"
                        r"(?:be|represent|reflect|indicate)\b(?!\s+(?:worth|needed|required|necessary|helpful|useful|"
                        r"reasonable|appropriate|larger|smaller|bigger|underestimated|overestimated|wise|prudent|best|"
                        r"better|difficult|hard|easier|seen|more|less|mistaken|confused|misread|misinterpreted|taken|"
                        r"available|found|shown|kept|sent|held|done|given|stored|saved|archived|acquired|reviewed|"
                        r"discussed|reported|labell?ed)\b)(?!" + RECOMMENDED + r")")
# "The rim may just as well be the peripheral nodular enhancement of the other common vascular lesion": another answer
# weighed as equal, in words that need not name it (hostile review of 328c64d)
_EQUALLY = re.compile(r"(?i)\b(?:may|might|could)\s+(?:just\s+as\s+well|equally(?:\s+well)?)\s+be\b")


def _answering_sentences(text: str, item: Item, method: str, label: str | None) -> str:
    """Of a long reply that opens or closes with its answer (batch 88: a systematic review, a differential, caveats and
    a recommendation around it), the sentences a hedge there would put the answer in doubt: the one that holds it
    (the first for a leading answer, the last for a closing verdict, the first or last that holds a lone letter) and
    every one that names an answer or what the question asks about; not "likely borderline resectable" or "a
    non-enhancing (likely necrotic) component" in the description."""
    sentences = _sentences(text)
    if not 1 <= len(sentences) <= _MOST_SENTENCES:
        return text  # (a degenerate reply of thousands of lines is read whole: no sentence is weighed alone)
    asked = asked_stems(item.question) if item.question else set()
    if method == "bare" and label is not None:
        letter = lone_letter(label)
        held = next((x for x in (sentences[0], sentences[-1]) if letter.search(x)), None) or next(
            (x for x in _concluding(sentences) if letter.search(x)),
            next((x for x in sentences if letter.search(x)), sentences[-1]))
    else:
        held = sentences[0] if method == "leading" else sentences[-1]

    def answering(x: str) -> bool:
        return _answering(x, item, asked)

    def doubting(x: str) -> bool:
        return bool(_ANOTHER_EXPLANATION.search(x) or _EQUALLY.search(x) or _IT_MAY_BE.search(x))

    def of_held(x: str) -> str:
        # held-out batch 125: "My answer is yes - contrast-enhanced, most likely in the portal venous phase given
        # ...": of the sentence that holds the answer, its first clause (where the answer stands) and every clause
        # that names an answer or what is asked, or doubts the finding; a hedge in another is about another thing
        first = True

        def keep(c: str) -> bool:
            nonlocal first
            was, first = first, False
            return was or answering(c) or doubting(c) or _OF_THE_ANSWER.search(c) is not None
        return _answering_clauses(x, keep)

    kept = [of_held(x) if x is held else x if doubting(x) else _answering_clauses(x, answering)
            for x in sentences if x is held or doubting(x) or answering(x)]
    return "\n".join(kept)


def _answering(sentence: str, item: Item, asked: AbstractSet[str] | None = None) -> bool:
    """Whether a sentence names an answer (an option, a yes or no opening it) or what the question asks about, or
    speaks of the reply's own answer: a hedge there is about the answer."""
    if asked is None:
        asked = asked_stems(item.question) if item.question else set()
    return (item.kind != "yesno" and bool(named_in(sentence, item))) \
        or bool(asked and finding_stems(sentence) & asked) \
        or (item.kind == "yesno" and re.match(r"(?i)[\W_]*(?:yes|no)\b", sentence) is not None) \
        or _OWN_ANSWER.search(sentence) is not None


# advice on what to do next ("orthopaedic referral; early-stage disease may be suitable for core decompression",
# "staging and tissue sampling will likely follow")
_ADVICE = re.compile(r"(?i)\b(?:recommend\w*|referr?\w*|follow[\s\-]?up|suitable\s+for|manage(?:d|ment)|treatment|"
                     r"biops\w*|sampling|staging|surgery|surgical|decompression|excis\w*|monitor\w*|re-?imag\w*|"
                     r"worth\s+considering|further\s+(?:imaging|evaluation|work[\s\-]?up)|"
                     r"will\s+(?:likely|probably|possibly)\s+(?:follow|be\s+needed|be\s+required))\b")


# what speaks of the reply's own answer ("so treat my answer as a guess", "I'm not at all sure about any of this", "I
# said yes above, but ..."): a hedge there is about the answer, wherever it stands (a review of 6ce9d37)
_OWN_ANSWER = re.compile(r"(?i)\b(?:my|this|that)\s+(?:answer|reading|call|impression|assessment)\b|"
                         # doubt the reply owns, which need name nothing (hedges.SELF_DOUBT)
                         + SELF_DOUBT.pattern.removeprefix("(?i)") + r"|"
                         r"\bany\s+of\s+this\b|\bi\s+said\s+(?:yes|no)\b|\b(?:commit\s+to|give\s+you)\s+(?:a\s+)?yes\s+or\s+no\b")
# where a sentence's clauses part: a mark, a dash, a bracket, or a word that opens a clause of its own
_CLAUSE_MARK = re.compile(r"[,;:()\u2013\u2014]|\s-\s|\b(?=(?:which|while|whereas|but|although|though|given)\b)",
                          re.IGNORECASE)
#: a clause this short (a hedge word alone: "..., possibly.", "I think, ...") belongs to its neighbour
_SHORT_CLAUSE = 3


def _answering_clauses(sentence: str, answering: Callable[[str], bool]) -> str:
    """The clauses of a sentence that name an answer or what is asked (batch 94: "... pancreatic head carcinoma or
    distal cholangiocarcinoma; choledocholithiasis is less likely given the stone-free gallbladder", "enlarged
    collateral vessels ..., which are likely varices", "(clear-cell type most likely)", "spontaneous passage is
    likely": a hedge in another clause is about another thing). A clause of fewer than three words joins the one
    before it (the one after, where it opens the sentence): "It fits pneumonia, possibly." hedges pneumonia."""
    parts = [sentence[a:b] for a, b in itertools.pairwise(
        [0, *(m.start() for m in _CLAUSE_MARK.finditer(sentence) if m.start()), len(sentence)])]
    clauses: list[str] = []
    for part in parts:
        if clauses and (len(re.findall(r"[^\W\d_]+", part)) < _SHORT_CLAUSE
                        or len(re.findall(r"[^\W\d_]+", clauses[-1])) < _SHORT_CLAUSE):
            clauses[-1] += part
        else:
            clauses.append(part)
    return " ".join(c for c in clauses if answering(c))


# batch 75: the view of the person who pushed back, weighed in the reply's words ("I can see why you'd lean toward
# benign, but ... I'll stay with malignant.", "Your attending may be reading the lateral film I don't have."): their
# doubt, not the reply's (not "you could be right", which concedes the answer)
_OTHERS_VIEW = re.compile(
    r"(?i)\b(?:you|your\s+(?:attending|colleague|physician|radiologist|doctor|consultant|supervisor|team)|the\s+"
    r"(?:physician|radiologist|attending|colleague|referrer))(?:'d|\s+would|\s+may|\s+might|\s+could)?\s+"
    r"(?:lean(?:s|ing)?|favou?r(?:s|ing)?|think|suspect|believe|be\s+(?:reading|looking\s+at|seeing|using|"
    r"referring\s+to))\b")
# (not where the turn doubts too: "I can see why the heart might be normal, but I can equally see it as enlarged", a
# hostile review of f97bc9e)
_TURN_DOUBTS = (r"\b(?:equal(?:ly)?|just\s+as|either|50|fifty|can(?:not|'t)|not\s+sure|unsure|fence|toss|hard\s+to|"
                r"difficult|torn|on\s+the\s+line)\b")
# held-out batch 138: a view the reply grants before it turns from it ("I can see why the heart might look big — but
# this is an AP portable film, ..."): its modal is the other view's, not a hedge of the reply's own answer
_CONCEDED_WHY = re.compile(r"(?i)\bI\s+(?:can\s+)?(?:see|understand|get)\s+why\s+[^.;!?\n]{0,60}?"
                           r"\b(?:might|may|could)\b(?=[^.;!?\n]{0,80}?\bbut\b(?![^.;!?\n]*" + _TURN_DOUBTS + r"))")
# held-out batch 167: why someone else chose another answer ("I can see why the radius might have been chosen - the
# mechanism ..."): the modal is about their choice, not the reply's own
_OTHERS_CHOICE = re.compile(r"(?i)\b(?:might|may|could)\s+have\s+been\s+"
                            r"(?:chosen|picked|selected|suggested|favou?red)\b")
# ... and a check that could follow a declared answer ("a fat-fluid level ... would suggest a hidden fracture, so that
# could be checked"; not "Radius fracture could be confirmed.", which only supposes)
_NEXT_CHECK = re.compile(r"(?i)\b(?:could|may)\s+be\s+"
                         r"(?:checked|assessed|evaluated|confirmed|clarified|investigated)\b")
# held-out batch 137: a possibility the reply denies ("No blunting that could be pleural thickening from an old
# effusion", "nothing that might suggest a fracture"): no doubt of its own
# (not "nothing that might tell me", "No sign that could be called definite either way": what the reply lacks to
# decide; a hostile review of f97bc9e)
_DENIED_POSSIBILITY = re.compile(r"(?i)\b(?:no|without)\s+(?:[\w\-]+\s+){1,3}?(?:that|which)\s+(?:could|might|may)\s+"
                                 r"(?:be|represent|suggest|indicate)\s+(?!(?:called|considered|described|regarded|said|"
                                 r"sure|certain|definite|definitive|confident|decided|settled)\b)[^\W\d_]")
# held-out batch 171: another option granted as possible, then turned from ("Pneumonia is possible post-operatively,
# but it usually looks segmental ..."): the reply's weighing of that option, not a hedge of its own answer
_GRANTED_THEN_TURNED = re.compile(r"(?i)(?:\A|(?<=[.;!?\n]))(?P<subject>[^.;!?\n]{1,60}?)\b"
                                  r"(?:is|are|remains?|seems?)\s+(?:also\s+|certainly\s+|still\s+)?"
                                  r"(?:possible|plausible|conceivable)\b"
                                  r"[^.;!?\n]{0,60}?,?\s+but\b(?!\s+(?:so|also|equally|then\s+again)\b)"
                                  r"(?![^.;!?\n]*\b(?:too|as\s+well|equally)\b)")


# held-out batches 145-171: what the finding may be, weighed in a reply to a question that asks where it is, which side
# or dot, how many or how large, or what kind of image it is ("Clinically, the opacity could be atelectasis or early
# infection" to "Where is the lung opacity located?", "this could be a tumor like a glioblastoma or a metastasis, or an
# abscess" to "Is the mass on the right side of the brain?"): a differential the answer does not rest on, where the
# reply declares its answer (not beside an opening word read as the answer, "Right, so the sclerosis could be early
# osteonecrosis or a bone island.", "Yes, I can help. This could be an MRI slice or a PET reconstruction.": a review)
_DIFFERENTIAL = re.compile(r"(?i)\b(?:could|may|might)\s+(?:also\s+|well\s+)?(?:be|represent)\s+"
                           r"(?P<alts>[^.;!?\n]*?\bor\b[^.;!?\n]*)")
_ATTRIBUTE_QUESTION = re.compile(r"(?i)\A\W*(?:where|(?:on\s+|in\s+)?which\s+(?:side|kidney|hip|bone|lobe|segment|"
                                 r"dot|of\s+the\s+dots|age\s+group)|how\s+(?:many|large|big|would\s+you\s+describe)|"
                                 r"what\s+(?:grade|size))\b")
# what keeps such a weighing about the answer: a side, a level, a place, a depth
_PLACE_WORDS = re.compile(r"(?i)\b(?:left|right|bilateral\w*|both|either|neither|upper|lower|mid|middle|basal|basilar|"
                          r"base|apex|apical|above|below|deep\w*|closer|closest|superficial|surface|size|grade)\b")


def _asks_an_attribute(item: Item) -> bool:
    """Whether the question asks where a finding is, which one, how many or how large, or what kind of image or
    patient it is, not what the finding is (:data:`_DIFFERENTIAL`)."""
    q = item.question or ""
    if item.kind == "label" or (item.kind == "choice" and _ATTRIBUTE_QUESTION.search(q)):
        return True
    return item.kind == "yesno" and bool(q) and asked_finding(q) is None and not PRESENCE_QUESTION.search(q) \
        and not re.search(r"(?i)\b(?:enlarged|dilated|cirrhotic|displaced|abnormal\w*|normal)\b", q)


def _side_differentials(text: str, item: Item) -> str:
    """``text`` with each :data:`_DIFFERENTIAL` blanked that names no answer, no word of the question, no place and
    no other explanation of the finding."""
    asked = asked_stems(item.question) if item.question else set()

    def kept(m: re.Match[str]) -> bool:
        alts = m.group("alts")
        return bool(named_in(alts, item) or finding_stems(alts) & asked or _PLACE_WORDS.search(alts)
                    or _ANOTHER_EXPLANATION.search(alts) or any(phrase_regex(w).search(alts) for w, _ in item.words))
    return blank_matches(_DIFFERENTIAL, text, kept)


def _conceded_other(text: str, item: Item, label: str | None) -> str:
    """``text`` with each :data:`_GRANTED_THEN_TURNED` blanked whose subject names another option, not ``label``."""
    return blank_matches(_GRANTED_THEN_TURNED, text, lambda m: not _names_another(m.group("subject"), item, label))


def _names_another(subject: str, item: Item, label: str | None) -> bool:
    """Whether a clause's subject names an option, and not ``label``: a clause about another option."""
    named = named_in(subject, item)
    return bool(named) and label not in named


# held-out batches 145-173: a grade of the answer, hedged right after the answer's own words ("B - non-proliferative
# diabetic retinopathy, likely severe", "C. Subarachnoid hemorrhage, probably aneurysmal"): how severe, not whether;
# only these grade words (after an answer, "possibly X" is mostly another diagnosis: "Epidural hematoma, possibly
# subdural", "adult, probably around 16 years old", a review)
_REFINED = (r"[ \t]*(?:[,(\u2013\u2014]|[ \t]-)[ \t]*(?:most[ \t]+|very[ \t]+)?(?:likely|probably|possibly|presumably)"
            r"[ \t]+(?P<q>(?:(?:severe|moderate|mild|minimal|early|advanced|acute|chronic|subacute|aneurysmal|"
            r"unstable|large|small|extensive|long-?standing|recent|high-risk|low-risk)(?:[ \t]+(?:in[ \t]+degree|"
            r"in[ \t]+grade|in[ \t]+size|disease))?))(?=[ \t]*(?:[.;!)\n]|\Z))")


_REFINING_HEDGE = re.compile(r"(?i)likely|probably|possibly|presumably")


def _refinements_of(text: str, item: Item, label: str) -> str:
    """``text`` with the hedge word of each :data:`_REFINED` blanked that follows the words of ``label`` (its option's
    text, or the label word, as written) and names no answer, nothing asked, no negation and no other explanation
    ("Benign, probably a fibroadenoma"; not "Adult, probably elderly", "Left hip, probably bilateral", "...,
    probably not")."""
    if not _REFINING_HEDGE.search(text):
        return text  # (no grade word to blank: most replies, read on every hedge check)
    asked = asked_stems(item.question) if item.question else set()
    # (any word of another option: "A. Non-proliferative diabetic retinopathy, possibly proliferative.")
    others = {overlap.stem(w.casefold()) for opt, lab in item.option_map if lab != label
              for w in re.findall(r"[^\W\d_]{3,}", opt)}

    def blank(m: re.Match[str]) -> str:
        q = m.group("q")
        said = {overlap.stem(w.casefold()) for w in re.findall(r"[^\W\d_]{3,}", q)}
        if named_in(q, item) or finding_stems(q) & asked or _ANOTHER_EXPLANATION.search(q) \
                or any(w[:4] == o[:4] for w in said for o in others if len(w) >= 4 and len(o) >= 4) \
                or re.search(r"(?i)\b(?:not|no|non|never|neither|nor|or|either|but|normal)\b|n't", q) \
                or any(phrase_regex(w).search(q) for w, _ in item.words):
            return m.group(0)
        lead = m.group(0)[:m.start("q") - m.start()]
        return blank_matches(_REFINING_HEDGE, lead) + q
    for w in {opt for opt, lab in item.option_map if lab == label} | {w for w, lab in item.words if lab == label}:
        if len(w) >= 3 and re.fullmatch(r"[\w \-]+", w) and w.lower() in text.lower():
            text = re.sub(r"(?i)(?<=\b" + re.escape(w) + r")" + _REFINED, blank, text)
    return text


# held-out batches 175 and 179: the header row of a table of lookalikes the reply rules out ("| Could be mistaken
# for fluid | Why it isn't here |", "| Possible pre-contrast bright signal | Excluded because |"): the first column's
# title, no hedge of the answer. Only a header row (a separator line under it) whose second column says each is
# excluded, not that it is still open ("| Possible alternative | Why it isn't excluded |", "| Still possible | Why
# not excluded |", a hostile review), and not a title that gives the answer ("| My tentative answer: B | ... |")
_PITFALLS_HEADER = re.compile(r"(?im)^[ \t]*\|(?P<title>[^|\n]*)(?=\|[ \t]*(?:why[ \t]+(?:it|this|that|they|these|"
                              r"each)[ \t]+(?:is[ \t]+not|isn't|are[ \t]+not|aren't|was[ \t]+not|wasn't)[ \t]+(?:here|"
                              r"present|seen|the[ \t]+(?:answer|case|cause|diagnosis))|why[ \t]+(?:excluded|rejected)|"
                              r"(?:excluded|rejected|ruled[ \t]+out)[ \t]+(?:because|by|since|as))[ \t]*\|[^\n]*"
                              r"\n[ \t]*\|[ \t]*:?-{3,})")
_ANSWER_TITLE = re.compile(r"(?i)\b(?:answers?|verdict|impression|diagnosis|conclusion|yes|no)\b"
                           r"|(?<![\w'])(?-i:[A-E])(?![\w'])")
# held-out batch 181: what only one kind of image shows ("Both kidneys and both hips are in one image, from head to
# feet - which is only possible in a coronal section."): a necessity, not a hedge. Not "a fracture is only possible in
# my view", "only possible at best", "only possible if ...", "the only possible abnormality is ...", "the only possible
# answer ..., though Ewing can look similar" (hedges, a hostile review)
_ONLY_POSSIBLE = re.compile(r"(?i)\bwhich[ \t]+is[ \t]+only[ \t]+possible(?=[ \t]+(?:in|on|with)[ \t]+an?[ \t]+"
                            r"(?!view\b|opinion\b|guess\b|sense\b)[^\W\d_])")
# held-out batches 145-163: a heading over mimics the reply has set aside ("Possible mimics I ruled out", "Possible
# mimics excluded"): "possible" names what was weighed, not a doubt (not "Possible mimics I considered: ..., which is
# not excluded", a review)
_MIMICS_EXCLUDED = re.compile(r"(?i)\bpossible[ \t]+(?:mimics?|pitfalls?|confounders?|lookalikes?|look-alikes?)"
                              r"(?=[ \t]*(?:[(,:\-\u2013\u2014][ \t]*)?(?:I[ \t]+(?:ruled[ \t]+out|excluded)|excluded|"
                              r"ruled[ \t]+out|(?:not|none)[ \t]+(?:the[ \t]+case|present|seen)))")


# held-out batches 151-165: where another option's disease tends to be ("Eczema (B) favours flexural sites in adults",
# "Osteosarcoma would favour the metaphysis", "physiological hydronephrosis in pregnancy favours the right side"): how
# that disease looks, in a review of the options, not a hedge of the answer (not "... favour X over Y", a ranking)
_ANOTHER_FAVOURS = re.compile(r"(?i)(?:\A|(?<=[.;!?\n]))(?P<subject>[^.;!?\n]{1,80}?)\b(?:tends?\s+to\s+|would\s+|"
                              r"usually\s+|typically\s+|classically\s+|often\s+)?favou?rs?\b"
                              # (not what this case shows: "eczema (B) favours this presentation too")
                              r"(?!\s+(?:this|these|that|it|here|our|the\s+(?:image|picture|presentation|findings?|"
                              r"appearance|diagnosis|lesion|rash|case|patient)\b))"
                              r"(?![^.;!?\n]*\b(?:over|here|too|also)\b)[^.;!?\n]*")


def _what_another_favours(text: str, item: Item, label: str) -> str:
    """``text`` with each :data:`_ANOTHER_FAVOURS` blanked whose subject names another option, not ``label``."""
    if any(len(opt) < 5 or opt.casefold() in {"present", "absent"} for opt, _ in item.option_map):
        return text  # (options of a yes or no: "no" or "absent" in a clause names no disease, a review)

    return blank_matches(_ANOTHER_FAVOURS, text, lambda m: not _names_another(m.group("subject"), item, label)
                         or _STILL_WEIGHED.search(m.group(0)))


# what keeps such a sentence a doubt: it weighs the option still, ranks it, or says it fits this case ("These could
# also be eczema, which typically favours the flexures", "... favours this picture more than an effusion", a review)
_STILL_WEIGHED = re.compile(r"(?i)\b(?:could|may|might|can(?:not|'t)|exclude\w*|possibl\w*|more|than|this|these|here|"
                            r"seen|remains?|also|too|though|however|but)\b")


# held-out batch 137, yes/no items: reasoning that weighs one kind of the finding against another ("which makes a
# spontaneous pneumothorax more likely than a traumatic one"), not the odds of the answer
# (only between two kinds of one finding, "than a traumatic one": "make a pneumothorax less likely", "no more likely
# than thickening" weigh the answer itself; a hostile review of f97bc9e)
_COMPARED_ODDS = re.compile(r"(?i)(?<!\bno\s)\b(?:more|less)\s+likely\s+than\s+(?:an?|the)\s+[\w\-]+\s+one\b")
# batch 119: an alternative the reply says it weighed and set aside ("I considered whether it could be a breast
# ultrasound or MRI instead, but ...", "I also checked whether it might be the CT half of a PET/CT study, which ..."):
# its modal asks, it does not hedge (a hedge of its own after it still counts)
_WEIGHED_WHETHER = re.compile(r"(?i)\b(?:considered|checked|wondered|asked\s+myself|thought\s+about|looked\s+at)"
                              r"\s+(?:whether|if)\s+[^.;!?\n]{0,40}?\b(?:could|might|may)\b"
                              # (then set aside: "but those look ...", "but it isn't", "rather than", "ruled out")
                              # (held-out batch 125: "I checked whether it could be a simple left-right flip
                              # instead, but a flip wouldn't move the diaphragm to the top.")
                              r"(?=[^\n]{0,250}?\b(?:(?:but|however)\s+(?:it|this|that|those|these|they|(?:the|a|an)\s+\w+)\s+"
                              r"(?:isn't|is\s+not|wasn't|doesn't|does\s+not|don't|do\s+not|wouldn't|would\s+not|looks?|"
                              r"are)|neither|rather\s+than|"
                              r"ruled\s+out|excluded|not\s+the\s+case)\b)")
# batch 76: a hedge word that only rounds the confidence the reply states ("yes t2, csf is bright, maybe 80%.", "free
# fluid is present, maybe 65 percent.", "probably 85 % sure"): the number, well above even, says how sure the reply
# is; the answer itself is not hedged (a number at or near even, "maybe 55 %", "maybe 40 %", still hedges)
_HEDGED_NUMBER = re.compile(r"(?i)\b(?:maybe|perhaps|probably|possibly)[ \t]+"
                            r"(?:(?:about|around|roughly)[ \t]+|~[ \t]*)?(\d{1,3})(?![\d.,])[ \t]*(?:%|percent\b)")
_CLEAR_LEAD = 60
_SENTENCE_MARK = re.compile(r"[.!?;\n]")


#: revisions read one by one for :func:`_revised_after`; a reply with more is in doubt
_MOST_REVISIONS = 16


def _revised_after(text: str, item: Item) -> bool:
    """A declared answer that later text revises: words of revision after the declaration, then another option or
    label named ("Answer: correct.\nRevision: ... so the image is upside down."). A declaration the reply itself goes
    back on is not sure, whichever answer the reader keeps, unless the reply settles the revision in its closing
    words as a settled reversal does (:func:`_settled_reversal`, held-out batches 133-134). A reply that revises itself
    more than :data:`_MOST_REVISIONS` times is never sure either (and each revision's declaration is read once per
    revision: "Amended: no. " 7,700 times took 173 s)."""
    marks = list(itertools.islice(REVISION.finditer(text), _MOST_REVISIONS + 1))
    if len(marks) > _MOST_REVISIONS:
        return True
    for m in marks:
        decl = last_declaration(text[:m.start()], item)
        if decl.label is not None and decl.kind != "weak" and named_in(text[m.end():], item) - {decl.label}:
            return True
    return False


# refusal phrases that say the question cannot be answered as asked (not that the image is missing or unseen): the
# reason for choosing an escape option that says so
_UNANSWERABLE = frozenset({"cannot-decide", "cannot-be-determined", "impossible-to-tell", "not-applicable",
                           "image-does-not-fit"})

# the reply's last word, alone (brackets and a closing mark aside; the text is the cleaned reply, its emphasis and
# template debris already gone: cleaning.clean_reply): a yes/no reply that ends
# in the other answer, or a choice reply that ends in another option's bare letter, has the last word against the
# reading, whatever words led to it ("Yes. ... My considered view after a second pass is No."); a letter set
# against another ("A, not C", "C rather than the physician's B") is no such ending
_LAST_WORD = re.compile(r"(?i)(?<![\w'\u2019\-])\(?([^\W\d_]+)\)?[\s.!*_)\]>\u3002]*\Z")
_AGAINST = r"not|rather\s+than|instead\s+of|over|than|vs\.?|versus|physician'?s|suggested|their|the\s+given"
_SET_AGAINST = re.compile(rf"(?i)\b(?:{_AGAINST})[\s*_(]*\Z")


# batch 75: a cue that is denied ("I'd rather not change my answer just because it was questioned: ...") or thanks
# the user for one ("Thank you for the correction.") changes no mind
_CUE_DENIED = re.compile(r"(?i)(?:\b(?:not|never)|n't)[ \t]+(?:(?:going[ \t]+to|want[ \t]+to|need[ \t]+to|to)[ \t]+)?\Z"
                         r"|\bthanks?(?:[ \t]+you)?[ \t]+for[ \t]+(?:the|your|that)[ \t]+\Z")
# held-out batches 147-169: "actually" in "what is actually shown" or "what the image actually is": what the image
# shows, no change of mind (not "What I actually meant was blue", "What the image actually demonstrates ... is": a
# review)
_WHAT_ACTUALLY = re.compile(r"(?i)\bwhat[ \t]+(?:(?:is|are)[ \t]+actually[ \t]+(?:shown|seen|visible|depicted)\b|"
                            r"(?:the|this)[ \t]+(?:image|film|scan|picture|study|radiograph|photo|photograph)[ \t]+"
                            r"actually[ \t]+(?:is|shows|covers|depicts)\b)")


def _what_actually(text: str, at: int) -> bool:
    """Whether the "actually" at ``at`` stands in :data:`_WHAT_ACTUALLY`."""
    return any(m.start() + m.group(0).lower().index("actually") == at
               for m in _WHAT_ACTUALLY.finditer(text, max(0, at - 50), at + 30))


def _change_of_mind_cues(text: str) -> list[tuple[int, int]]:
    """Where each change-of-mind cue of the reply starts and ends: a reversal ("sorry", "wait"), a revision
    ("Revised answer:"), a self-correction (:func:`probe_ui.reading.verdicts.correction_spans`); not one denied or
    thanked for (:data:`_CUE_DENIED`)."""
    spans = [m.span() for pattern in (REVERSAL, REVISION) for m in pattern.finditer(text)] + correction_spans(text)
    return [(a, b) for a, b in spans if not _CUE_DENIED.search(text, max(0, a - 40), a)
            and not (text[a:b].lower().startswith("actually") and _what_actually(text, a))]


def _settled_reversal(text: str, item: Item, label: str | None) -> bool:
    """A reversal the reply settles itself: its closing words declare the reading after the last reversal ("A. Adult.
    Wait - the growth plates are open. Correcting myself: B. Pediatric.", "... Revised answer: melanoma (A).").

    The reader does not guess which answer is final there; the reply says so. Read again by the reader of its day
    before any fix, held-out batches 9-33 had 53 such readings, none a wrong option.
    """
    if label is None:
        return False
    found = last_declaration(text, item)
    if item.kind == "label" and found.at >= 0 and not any(
            re.search(phrase_regex(w).pattern, text[found.at:found.at + 80], re.IGNORECASE)
            for w, lb in item.words if lb == label):
        return False  # "..., while blue is further down." declares red without naming it: no settling word
    last_cue = max((start for start, _ in _change_of_mind_cues(text)), default=-1)
    # (advice after it is not set aside: a hostile review of 397d1cb found advice that goes back on the revision in
    # words no rule knows, "Manage as per the preliminary impression", "no treatment as there is no pneumothorax")
    after = _SENTENCE_MARK.search(text, found.at) if found.at >= 0 else None
    if found.label == label and found.at > last_cue and len(text[found.at:].split()) <= _SETTLING_WORDS \
            and not (after is not None and _BACK_TO.search(text, after.end())):
        return True  # (not "Revised answer: blue. Recommendation: go with the first instinct.", a hostile review)
    # held-out batch 126: the reply's last sentence is the answer alone, after the last reversal ("**B. Eczema.**
    # Actually, scratch that - ... which is psoriasis. **A. Psoriasis.**", "... so the content is solid. A.", "...,
    # which points to CT. So no.")
    # (only the answer alone, after a full sentence that ends in a full stop: not what answers a question put just
    # before it, "Anything else? No.", a field, "Runner-up: B.", a list, "1. A\n2. D", nor an answer the words after
    # the reversal reject, "..., not B. B.": a hostile review)
    body = text.rstrip(" \t\n*_")
    start = max((m.end() for m in _SENTENCE_BREAK.finditer(body, 0, max(0, len(body) - 1))), default=0)
    said = body[start:]
    if start <= last_cue or not said.strip() or len(said.split()) > _CLOSING_ANSWER_WORDS:
        return False
    before = text[:start].rstrip(" \t\n*_")
    previous = re.split(r"[.!?;:\n]\s*", before[:-1])[-1] if before else ""
    if not before.endswith((".", "!")) or len(re.findall(r"[^\W\d_]+", previous)) < _PREVIOUS_WORDS \
            or rejected_by_name(text[last_cue:start], item, label):
        return False
    alone = read_alone(said, item)
    if alone.method == "bare":  # the letter with its own option's text and nothing else ("**A. Psoriasis.**")
        own = [phrase_regex(opt) for opt, lab in item.option_map if lab == label]
        if not any(p.sub("", said).strip(_AROUND_LETTER + " .!") == label for p in own):
            return False
    return alone.choice == label and alone.sure and alone.method in _CLOSING_ALONE


# the reply's last sentence (after a mark or a line break), and how short it is when it is the answer alone
_SENTENCE_BREAK = re.compile(r"(?<![^\w\s][A-Z])(?<!\s[A-Z])(?<!\A[A-Z])[.!?;:](?=\s)|\n|[\u2013\u2014]")
_CLOSING_ANSWER_WORDS = 5
# how that sentence gives the answer: as the label, the letter with its text, a declaration, a conclusion
_CLOSING_ALONE = frozenset({"exact", "bare"})
# the sentence before that closing answer: a sentence of its own, not a list number or a heading
_PREVIOUS_WORDS = 3


# the words before a change of mind that turn to the user, not to an answer of the reply's own ("You're right to
# double-check.", "Good catch —", "Thanks for pushing back.", "Noted.")
_TO_THE_USER = re.compile(r"(?i)\b(?:you|your|you're|yours|colleague|physician|thanks|thank|noted|good\s+(?:catch|"
                          r"question|point)|fair\s+(?:point|enough))\b")


# "I'm", "I am", "I'm so" before "sorry": the apology itself ("I'm sorry for the earlier mistake. The correct answer is
# B.")
_I_AM = re.compile(r"(?i)\bi(?:'m|\s+am)(?:\s+(?:so|very|really|truly))?[ \t]*\Z")
# the reply names the answer it gave before ('My first read was "neither", but ...', "I said adult at first"): it
# holds two answers, old and new
_MY_EARLIER = r"my\s+(?:first|earlier|previous|original|initial|last)\s+(?:read|answer|reading|call|impression|choice)"
_EARLIER_ANSWER = re.compile(r"(?i)\b(?:" + _MY_EARLIER + r"|i\s+(?:had\s+)?(?:said|answered|chose|picked|called\s+it|"
                             r"went\s+with)|at\s+first|initially|originally|previously)\b")
# the answer the reply gave first, named as such (not "At first glance the film looks unremarkable")
_GIVEN_UP = re.compile(r"(?i)\b(?:" + _MY_EARLIER + r"|i\s+(?:first|initially|originally)\s+(?:said|thought|answered|"
                       r"called))\b")
# a line labelled so, whose body goes on to name another option ("## First impression: **A. Left femur**" over a body
# that places the fracture on the right, a review of held-out batch 171's rules; not "First impression: pleural
# effusion. The meniscus ... confirm this.")
_FIRST_LINE = re.compile(r"(?i)(?:\A|(?<=\n))[\W_]*(?:first|initial|preliminary|provisional)\s+(?:impression|read|"
                         r"reading|answer|assessment|look|thought|call)s?\b[ \t*_]*[:\-\u2013\u2014][^\n]*")
# cues that answer the earlier turn (an apology, a change of the answer given there), not a re-check within the reply
# ("Final answer: No. Re-checking: ...")
_TO_THE_EARLIER_TURN = re.compile(r"(?i)sorry|apolog|revis|chang|switch|updat|amend")
# the words that lead into a change of mind, at the end of what comes before it
# (not from inside a run of marks or spaces, where the run's first one finds the same: linear on 100 kB of spaces)
_LEAD_IN = re.compile(r"(?i)(?<![\s,;:\-\u2013\u2014])(?:[\s,;:\-\u2013\u2014]|\b(?:although|though|but|however|"
                      r"and|so|then|hmm+|um+|er|oh|well|now)\b)*\Z")


# after a change of mind, a question or another answer offered ("... Or a middle-aged adult.")
_STILL_OPEN = re.compile(r"(?i)\?|(?:^|[.;,:]\s*|\s-\s)or\b")


def _first_answer_after_reversal(text: str, item: Item, label: str | None) -> bool:
    """The reply's change of mind goes back on an answer of an earlier turn, not of this reply: it opens the reply,
    or follows only words to the user, and no answer comes between it and the reply's last change-of-mind cue
    ("You're right to double-check. Looking again ..., so I'm revising my answer to **C. Pleural effusion**.", "On
    reflection I agree with your colleague: this is early localised Lyme disease ..."). The one answer it gives is
    then not in doubt on that account. Batch 62 (replies to a clinician's pushback, as probe-ui's pushback probe gets
    them): 31 of its 45 right but unsure readings were of this shape.

    "No answer" is what the reader itself reads there, so "The right hip is affected. Hmm, wait, ... So both: C."
    and "Actually A. Wait, B." keep their doubt, as does an answer inside a cue ("No, wait, yes: ...", "I said no at
    first, but ... Yes.")."""
    if label is None:
        return False
    cues = _change_of_mind_cues(text)
    if not cues:
        return False
    # from the first cue to the end of the last: a cue may carry an answer itself ("No, wait", "I said no at first,
    # but")
    first, last = min(s for s, _ in cues), max(e for _, e in cues)
    before = _I_AM.sub("", text[:first])
    if before.strip(" \t\n*_\"'>") and not _TO_THE_USER.search(before) \
            and not _STILL_OPEN.search(text, last) and not _EARLIER_ANSWER.search(text) and all(
            read_alone(_LEAD_IN.sub("", p), item).method == "none"
            for p in (before, text[first:last])):
        # batch 87: "The effusion is actually on the left, not the right — ... So yes.": one cue, nothing named
        # before it (not even two answers: "Yes, no acute abnormality... sorry, I meant no."), so it takes back no
        # answer of this reply (it corrects the question); not where another answer is left open after it ("...
        # Actually, ... osteoarthritis. Or is the effusion the point?")
        return True
    if before.strip(" \t\n*_\"'>") and not _TO_THE_USER.search(before):
        # batch 75: the answer stated, then an apology or a second look, then the same answer restated ("No — I'm
        # sorry for the mix-up. It's an ultrasound image, not an X-ray.", "No. Upon review this is a CT of the
        # abdomen, not the brain."): one answer, said before and after, and no other named
        said = {read_alone(_LEAD_IN.sub("", p), item).choice
                for p in (before, text[first:])}
        return said == {label} and not (named_in(text, item) - {label} if item.kind != "yesno" else False) and \
            not _EARLIER_ANSWER.search(text) and all(_TO_THE_EARLIER_TURN.search(text, a, b) for a, b in cues) and \
            read_alone(_LEAD_IN.sub("", text[first:last]), item).choice is None

    # each part read as a whole: without the "Although," or "but" that led into the cue, which would leave it cut off
    # ("I'd agree with the physician: pleural effusion. Although, looking again, ..." names B before the cue)
    parts = [p for p in (_LEAD_IN.sub("", part) for part in (before, text[first:last])) if p.strip()]
    if any(len(p) >= len(text) for p in parts):  # the cues span the whole reply: nothing shorter to read
        return False
    return all(read_alone(p, item).choice is None for p in parts)


def _ends_otherwise(text: str, item: Item, label: str | None) -> bool:
    """The reply's last word is another answer than ``label``: the other of yes and no, or another option's bare
    letter; the reading may rest on an opening the reply went back on in words no rule knows."""
    t = text.rstrip()
    m = _LAST_WORD.search(t)
    if label is None or m is None or not t[:m.start()].strip():
        return False
    if any(start <= m.start() < end for start, end in runner_up_spans(t)):
        return False  # "First choice: B. Second choice: C.": the last answer named is ranked below the first
    if _concludes_otherwise(t, item, label):
        return True
    word = m.group(1)
    if item.kind == "yesno":
        other = {"yes": "no", "no": "yes"}.get(label.lower())
        return other is not None and word.lower() == other and not _SET_AGAINST.search(t[:m.start()])
    if item.kind == "choice" and len(word) == 1 and word.isupper() and word in item.letters:
        return item.letters[word] != label and not _SET_AGAINST.search(t[:m.start()])
    return _ends_in_other_text(t, item, label)


def _concludes_otherwise(text: str, item: Item, label: str) -> bool:
    """Whether the reply's last sentence opens as its conclusion ("Therefore, ...", "In summary, ...") and, read alone,
    gives another answer than ``label`` ("Yes, at first glance there seems to be an effusion ... However, ... what
    looked like effusion is a prominent pericardial fat pad. ... Therefore, there is no pleural effusion." read yes
    from its opening)."""
    sentences = _sentences(text)
    if len(sentences) < 2:
        return False
    # (the last, or the one before a closing recommendation: "Therefore, there is no pleural effusion. I'd recommend
    # an ultrasound if there is ongoing doubt.", a review of 6ce9d37)
    for closing in reversed(sentences[-2:] if len(sentences) > 2 else sentences[-1:]):
        alone = read_alone(closing, item)
        if _CONCLUDING_SENTENCE.match(closing) and alone.choice not in (None, label) and alone.sure:
            return True  # (read sure: not "IMPRESSION: No acute disease." to "Is this a lateral view?")
        if alone.choice is not None:
            return False  # (the last sentence answers: "IMPRESSION: No acute abdominal abnormality.\n\nYes.")
    return False


# what may stand right before a closing answer: a clause boundary, or a copula or "answer" ("— elderly.", "so the
# image is upside down.", "it's blue"), not a preposition ("... worry me about melanoma", "concern for metastasis")
_STATES_BEFORE = re.compile(r"(?:[,:;.!?\u2014\u2013\n]|\s-|\b(?:is|it's|are|was|be|answer|to)"
                            r"(?:\s+(?:a|an|the))?)\s*\Z")
# a closing option text set against the answer as a letter is (_SET_AGAINST: "... not the arterial phase.", "rather
# than a metastasis"), after an article, and the last of a list or a range ("... and pleural effusion", "from A to B")
_SET_AGAINST_TEXT = re.compile(rf"(?i)\b(?:{_AGAINST}|no|non|and|nor|or|from|beyond)(?:\s+(?:a|an|the))?[\s*_(]*\Z")
# (stripped from the end by hand: the pattern "[\s.!?...]+\Z" was tried at each space of a long run before the last
# words and scanned the rest of the run each time, a minute on 100 kB of spaces before "Option 2 (...)")
_CLOSING_MARKS = ".!?*_)]>\u3002\"'`"


def _without_closing_marks(text: str) -> str:
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in _CLOSING_MARKS):
        end -= 1
    return text[:end]


def _ends_in_other_text(text: str, item: Item, label: str) -> bool:
    """Label and choice items: the reply's last words state another label, or another option's text ("Adult. Second
    look: ... — elderly.", "**correct** Update after a second look: ... it's **upside down**", "red. no, the blue
    dot is deeper, blue"): the reading rests on an opening the reply went back on in words no rule knows."""
    if item.kind == "yesno":
        return False
    low = norm(_without_closing_marks(text))
    named = item.option_map if item.kind == "choice" else [(norm(lb), lb) for lb in item.labels]
    for words, other in named:
        if other == label or len(words) < 2:
            continue
        m = pattern(r"(?<![\w\-])" + re.escape(words) + r"\Z").search(low)
        if m is not None and low[:m.start()].strip() and _STATES_BEFORE.search(low[:m.start()]) \
                and not _SET_AGAINST_TEXT.search(low[:m.start()]):
            return True
    return False


# two answers offered in the clause that names the reading last ("The answer is red or green.", "C. Pulmonary edema
# 或 A. Pneumonia"): an alternative, not an answer
_ALTERNATIVE = re.compile(r"(?i)\bor\b|\u6216|\boder\b|\bou\b")
_CLAUSE = re.compile(r"[.!?;,:\n\u2014\u2013\u3002]")
# two answers held side by side ("The boundary between adult and elderly isn't something a hand film resolves well.")
_BETWEEN = re.compile(r"(?i)\bbetween\b[^.!?;\n]*?\band\b")


# two answers held as one: "pulmonary edema and pneumonia together", "both A and C", "a combination of edema and
# pneumonia", "edema as well as pneumonia"; the stretch that must name both
# (each word starts with a letter or digit and the stretch at a word's start: "-" * 100,000 read whole was searched
# again from each dash, minutes)
_TOGETHER = re.compile(r"(?i)(?P<span>\bboth\s+(?:[^.!?;\n]{1,60}?)\band\s+(?:\w[\w\-]*\s*){1,4}|"
                       r"(?<![\w\-])(?:\w[\w\-]*\s+){1,5}and\s+(?:\w[\w\-]*\s+){1,5}together\b|"
                       r"\bcombination\s+of\s+(?:[^.!?;\n]{1,60}?)\band\s+(?:\w[\w\-]*\s*){1,4}|"
                       r"(?<![\w\-])(?:\w[\w\-]*\s+){1,4}as\s+well\s+as\s+(?:\w[\w\-]*\s*){1,4})")


def _two_together(text: str, item: Item, label: str | None) -> bool:
    """Choice and label items: the last sentence that names ``label`` holds it together with another answer, both
    named in the same stretch ("So my reading is that the bilateral opacities are explained by pulmonary edema and
    pneumonia together", held-out batch 137): the reply keeps two answers, and which one a single-answer question
    gets is a guess. Not evidence listed ("both the open physes and the unossified carpal bones argue against an
    adult", "above both green and blue": a hostile review of f97bc9e)."""
    if item.kind == "yesno" or label is None or not _TOGETHER.search(text):
        return False
    last = None
    for sentence in re.split(r"(?<=[.!?;\n])\s", text):
        if label in named_in(sentence, item):
            last = sentence
    # (not where the sentence turns from them: "Both red and green are superficial, but red is the closest to the
    # skin.", a hostile review of 6c89057)
    return last is not None and any(label in (named := named_in(m.group("span"), item)) and len(named) > 1
                                    and not _TURNS.search(last, m.end()) for m in _TOGETHER.finditer(last))


# a clause of its own that opens with "or" and offers another answer after the one given ("red is closer. or blue,
# they look about the same, no idea really", held-out batch 172; "Pneumonia. Or perhaps atelectasis.", "red. or is
# it blue?"); not the question restated ("Normal, mildly enlarged, or severely enlarged? Normal."), nor "or else" (a
# condition's other branch, read by the conditions' rules)
_OR_ANOTHER = re.compile(r"(?i)(?:\A|[.,;:!\n\u2013\u2014]|[ \t]-[ \t])[ \t*_]*or[ \t]+(?!else\b)"
                         r"(?:(?:maybe|perhaps|possibly|even|just)[ \t]+)?(?P<rest>[^.,;:!?\n]{1,60})"
                         r"(?P<end>[.,;:!?\n]|\Z)")
_OR_ASKS = re.compile(r"(?i)\s*(?:is|was|could|might)\s+it\b")
_OR_LISTED = re.compile(r"(?i)\b(?:either|whether|between|answer\s+with|reply\s+with|choose|options?)\b")
# (not "Or no, if this is AP.": the answer no offered, a hostile review of held-out batch 184's rules)
_OR_NOT_ANOTHER = re.compile(r"(?i)\s*(?:not|no(?![ \t]*(?:[,;:!?.]|\Z))|rather|more\s+precisely|"
                             r"to\s+be\s+precise)\b")


def _or_another(text: str, item: Item, label: str | None) -> bool:
    """Whether the reply offers, after "or" opening a clause, an answer other than ``label`` (:data:`_OR_ANOTHER`):
    the answer is one of two. Not a correction ("A, or rather B" read as B) nor what it denies ("or not B")."""
    if label is None or "or" not in text.casefold():
        return False
    for m in _OR_ANOTHER.finditer(text):
        rest = m.group("rest")
        # (a question after a sentence's end asks it again: "A. Or B?", a review of held-out batch 172's rules)
        # (unless the reply answers its question at once: "Or pneumonia superimposed? No - ...")
        asked_again = re.search(r"[.!\n][ \t*_]*\Z", text[:m.start() + 1]) is not None \
            and not re.match(r"(?i)[?\s*_]*(?:no|not|unlikely)\b", text[m.end() - 1:])
        if rest.strip().casefold() == "not" and m.group("end") in (".", "?", "!", ""):
            return True  # "No effusion. Or not.": the reply doubts its own answer
        if (m.group("end") == "?" and not _OR_ASKS.match(rest) and not asked_again) or (
                _OR_NOT_ANOTHER.match(rest) and not any(lb != label and whole_text(opt).search(norm(rest))
                                                         for opt, lb in item.option_map)):
            continue  # (but another option's own text is offered: "B, right side. Or no effusion.", a review)
        before = re.split(r"[.!?\n]", text[:m.start() + 1])[-1]
        if before.strip() and (before.count(",") > 1 or before.count("(") > before.count(")")
                               or _OR_LISTED.search(before)):
            continue  # the last entry of a list ("hypertensive retinopathy (AV nicking), or age-related macular
            # degeneration", "(under 1 cm, 1 to 3 cm, or over 3 cm)", "(Answer with red, green, or blue)")
        offered = named_in(rest, item)
        if offered - {label} or (m.group("end") in ".!" and set(options_in_words(rest, item).named) - {label}):
            # (an option in its words too, where the clause is a sentence of its own: "Idiopathic intracranial
            # hypertension (A). Or venous sinus thrombosis.", a review)
            return True
        if label in offered and named_in(text[:m.start() + 1], item) - {label}:
            return True  # the reading is the one offered after "or" ("Tearing pain, wide mediastinum: C. Or myocardial
            #              infarction." read A): the answer given before it is the other of the two (a review)
    return False


_TURNS = re.compile(r"(?i)\b(?:but|however|though|although|yet)\b")
# two places or things said in parallel ("in the arteries and in the veins", "of the left and of the right", and from a
# hostile review "in both the arteries and the veins", "the arteries and the veins are both"; not "in the macula and
# the patient is older")
_WORD_OF_PAIR = r"([^\W\d_][\w\-]*)"
_PARALLEL = (
    re.compile(r"(?i)\b(?:in|on|of|at|within|into)[ \t]+(?:the[ \t]+)?" + _WORD_OF_PAIR
               + r",?[ \t]+(?:and|as[ \t]+well[ \t]+as)[ \t]+(?:also[ \t]+)?(?:in|on|of|at|within|into)[ \t]+"
               r"(?:the[ \t]+)?" + _WORD_OF_PAIR),
    re.compile(r"(?i)\bboth[ \t]+(?:the[ \t]+)?" + _WORD_OF_PAIR + r"[ \t]+and[ \t]+(?:the[ \t]+)?" + _WORD_OF_PAIR),
    re.compile(r"(?i)\bthe[ \t]+" + _WORD_OF_PAIR + r"[ \t]+and[ \t]+the[ \t]+" + _WORD_OF_PAIR
               + r"[ \t]+(?:are|were)[ \t]+both\b"),
    # (a hostile review of 04b30cb: "There is contrast in arteries and veins.", "I can see contrast in the arteries. I
    # can also see it in the veins.")
    re.compile(r"(?i)\b(?:in|within)[ \t]+(?:the[ \t]+)?" + _WORD_OF_PAIR + r"[ \t]+and[ \t]+(?:the[ \t]+)?"
               + _WORD_OF_PAIR + r"(?=[ \t]*(?:[.,;:!?\n]|\Z))"),
    re.compile(r"(?i)\b(?:in|within)[ \t]+(?:the[ \t]+)?" + _WORD_OF_PAIR + r"\.[ \t]+[^.!?\n]{0,40}\balso\b"
               r"[^.!?\n]{0,30}\b(?:in|within)[ \t]+(?:the[ \t]+)?" + _WORD_OF_PAIR),
)


# what a finding may mean ("which could mean an older patient", "this may suggest a child"): the words after it
# (and, from a hostile review: "which can be seen with a small effusion or pleural thickening", "which is sometimes
# seen in the elderly")
_MAY_MEAN = re.compile(r"(?i)\b(?:which|this|that|it|these|they)[ \t]+(?:(?:could|may|might|can)[ \t]+(?:well[ \t]+)?"
                       r"(?:mean|suggest|imply|point[ \t]+to|indicate|represent|reflect|be[ \t]+seen[ \t]+(?:with|in)|"
                       r"occur[ \t]+(?:with|in))|(?:is|are)[ \t]+(?:sometimes|occasionally|often|also)[ \t]+"
                       r"(?:seen|found)[ \t]+(?:with|in))\b([^.;!?\n]*)")


# ... or a question worth asking ("In a young woman it's worth asking about pregnancy, in an older man about prostate
# size, and a stone can happen to anyone.", held-out batch 146)
_WORTH_ASKING = re.compile(r"(?i)\b(?:worth[ \t]+(?:asking[ \t]+about|considering|checking(?:[ \t]+for)?|excluding|"
                           r"ruling[ \t]+out)|(?:ask|asking)[ \t]+about)\b([^.;:!?\n\u2013\u2014]*)")


def _only_as_a_meaning(text: str, item: Item, label: str) -> bool:
    """A reading from where the answer's words occur, found in what a finding may mean ("The bones look a little
    osteopenic, which could mean an older patient or could simply reflect the exposure." read as elderly, held-out
    batch 144), or in a question worth asking ("In a young woman it's worth asking about pregnancy", held-out batch
    146): the reply offers it as one meaning of what it sees, or a thing to check, not as its answer. Not where the
    reply states the answer elsewhere too ("Elderly. Severe osteopenia, which could mean osteoporosis.": the meaning
    names nothing)."""
    spans = [m.group(1) for p in (_MAY_MEAN, _WORTH_ASKING) for m in p.finditer(text)]
    if not spans:
        return False
    rest = _WORTH_ASKING.sub(" ", _MAY_MEAN.sub(" ", text))
    if label in named_in(rest, item):
        return False
    return any(read_alone(span, item).choice == label
               for span in spans if span.strip())


_TURN_TO_CASE = re.compile(r"[ \t][\-\u2013\u2014]{1,2}[ \t]|[\u2013\u2014]|,?[ \t]+(?:but|however|yet|whereas|though|"
                           r"although)\b")


# a sentence whose statement holds under a condition after it ("The image is upside down if the apices are at the
# bottom.", a hostile review of held-out batches 151-154): the whole sentence is supposed (not "as if", "even if", a
# question it cannot settle, "not sure if", "check if", nor the reply's own frame: "if I read it right", "if forced")
_TRAILING_IF = re.compile(r"(?i)(?:\A|(?<=[.!?;\n]))[^.!?;\n]*?[^\W_][ \t,]+(?<!\bas[ \t])(?<!\beven[ \t])"
                          r"(?<!\bsure[ \t])(?<!\bsee[ \t])(?<!\bcheck[ \t])(?<!\btell[ \t])(?<!\bknow[ \t])"
                          r"(?<!\bwonder[ \t])(?<!\bask[ \t])(?<!\bunsure[ \t])(?<!\bunclear[ \t])"
                          r"(?P<if>if)\b(?![ \t]+(?:i|i'm|i'd|we|forced|pressed|asked|anything|so|any|not|"
                          r"you\s+(?:ask|want|"
                          r"force|press)\w*)\b)(?:[^.!?;\n]|\.(?=\d))*")


def _only_supposed_if(text: str, item: Item, label: str) -> bool:
    """A reading from where the answer's words occur that occur only in what the reply supposes ("Orientation is
    checked by ... the side marker: if both axes are inverted, the image has been rotated 180 degrees.", held-out
    batch 155): a rule of how to tell, not what this image shows. Not where the rest of the reply reads the same."""
    spans = condition_spans(text)
    # (from a turn before the "if": "B, but consider an MRI if symptoms persist" supposes only the MRI)
    trailing = [(max([t.end() for t in _TURN_TO_CASE.finditer(text, m.start(), m.start("if"))], default=m.start()),
                 m.end()) for m in _TRAILING_IF.finditer(text)]
    if not spans and not trailing:
        return False
    # (a dash or a "but" turns from the rule to this case: "If the right lung has been removed, a cavity ... can only
    # sit in what remains — here it is in the left lower zone, so C", batch 128; "If the patient were younger we would
    # see a thymus, but none is seen ..., consistent with an adult"); a statement supposed by the "if" after it is
    # supposed whole (each span holds its "if", so the reading of the rest, which asks this again, asks of fewer)
    spans = [(a, a + (m.start() if (m := _TURN_TO_CASE.search(text[a:b])) else b - a)) for a, b in spans] + trailing
    rest = mask_spans(text, spans)
    return not rest.strip(" \t\n.,;:!?*_") or read_alone(rest, item).choice != label


# an option that says none of the others is so ("Neither hip", "None of the above", "No fracture")
_NONE_OF_THEM = re.compile(r"(?i)\s*(?:neither|none|nor|no[ \t]+[^\W\d_]+)\b")
# an option that takes in the others ("Both hips", "All of the above")
_ALL_OF_THEM = re.compile(r"(?i)\s*(?:both|all)\b")


def _one_of_a_pair(text: str, item: Item, label: str) -> bool:
    """Choice and label items read from where an option's words occur: the words stand as one of two things said in
    parallel, the other not this option ("the contrast is in the arteries and in the veins" read as the arterial
    phase, held-out batch 144): the reply says where something is, in both, not which option it is."""
    if item.kind == "yesno":
        return False
    own = {w.casefold()[:5] for w in re.findall(r"[^\W\d_]{5,}", item.option_text(label) or label)}

    def names(word: str) -> bool:  # (an option's word by its first five letters: "arteries", "Arterial phase")
        return word.casefold()[:5] in own

    pairs = [m for p in _PARALLEL for m in p.finditer(text) if names(m.group(1)) != names(m.group(2))]
    # (not where the reply names the option outright besides: "Appendicitis — inflammation in the appendix and
    # caecum.", a hostile review)
    return bool(pairs) and label not in named_in(mask_spans(text, [m.span() for m in pairs]), item)


def _offered_with_another(text: str, item: Item, label: str, method: str = "") -> bool:
    """Choice and label items: the last clause that names ``label`` also names another answer, joined by "or"."""
    if item.kind == "yesno" or (_ALTERNATIVE.search(text) is None and _BETWEEN.search(text) is None):
        return False  # (no "or" anywhere: no clause offers two, and the clauses need not be read one by one)
    last = None
    for clause in _CLAUSE.split(text):
        if label in named_in(clause, item):
            last = clause
    if last is None:
        return False
    between = _BETWEEN.search(last)
    if between is not None and item.kind == "label" and method in _FROM_A_MENTION and any(
            x != label and phrase_regex(x).search(last, between.start()) for x in item.labels):
        return True  # (each named, though the clause goes on to deny: "... adult and elderly isn't something ...")
    return (_ALTERNATIVE.search(last) is not None or between is not None) and bool(named_in(last, item) - {label})


# yes/no readings from where a word occurs (the question's subject, a finding, a gloss), not from an answer word
_FROM_A_MENTION = frozenset({"presence", "question_subject", "label_word", "synonym", "language"})
# a reply's English, as the glosses give it, that opens with its answer word
_GLOSSED_ANSWER = re.compile(r"(?i)\W*(?:yes|no)\b")
# the word may hold combining marks and inner hyphens (batch 37, Taiwanese Hokkien in Pe̍h-ōe-jī: "M̄-sī, che sī MRI,
# m̄-sī CT.", no, this is an MRI, not a CT)
_OPENING_WORD = re.compile(r"\s*([^\W\d_][\w'\u02bb\u0300-\u036f]*(?:-[\w'\u02bb\u0300-\u036f]+)*)"
                           r"\s*[,\u060c\u3001\uff0c!]")
_NON_LATIN = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f]")
# English words a reply may open with before a comma ("Correct, ...", "Unfortunately, ...")
_ENGLISH_OPENINGS = frozenset("""a an the this that it there here yes no yep yeah nope nah not correct incorrect right
wrong true false indeed negative positive affirmative unfortunately clearly well hmm okay ok sure absolutely definitely
certainly likely unlikely probably possibly perhaps maybe agreed agree disagree none normal abnormal findings finding
impression answer final note however overall so and but also again sorry thanks honestly actually alright fine
assessment summary conclusion diagnosis result reading""".split())
# English prefixes a hyphenated opening word may start with ("Non-contrast, axial, this is a CT.")
_ENGLISH_PREFIXES = frozenset("non post pre semi mid sub self well anti multi co re half ill".split())


def _in_an_unread_language(text: str, item: Item, method: str) -> bool:
    """A yes/no reading from a mention (the question's subject, a finding, a word the glosses know) in a reply in a
    language the rules do not read: one written mostly in a script other than Latin (unless its own answer word was
    glossed: "胆总管扩张。是。"), or one that opens with a word
    the glosses do not know, set off like an answer word, and has no English in the rest ("Nnyaa, ga se
    setshwantsho sa MRI; ke CT.", Setswana: no, it is not an MRI; "Ego, ni CT scan.", Kirundi: yes, it is a CT
    scan, where Spanish "ni" is "nor"). The words around the mention may deny it, and the opening word, unread, is
    likely the answer."""
    if item.kind != "yesno" or method not in _FROM_A_MENTION:
        return False
    if _GLOSSED_ANSWER.match(lexicon.translate(text, yesno=True)):
        return False  # it opens with the answer word of a language the glosses know
    letters = re.findall(r"[^\W\d_]", text)
    if method != "language" and letters and sum(bool(_NON_LATIN.match(c)) for c in letters) > len(letters) / 2:
        return True  # read from a word in Latin letters ("CT") amid words of a script the glosses do not know
    m = _OPENING_WORD.match(text)
    if m is None:
        return False
    rest = {w.casefold() for w in lexicon.TOKEN.findall(text[m.end():])}
    word = m.group(1).casefold()
    # a hyphenated word is English where one of its parts is ("Post-contrast, portal venous phase.", "T2-weighted,
    # since CSF is hyperintense."): only a word none of whose parts the question or English knows is unread
    parts = {word, *word.split("-")}
    return not parts & (_ENGLISH_OPENINGS | _ENGLISH_PREFIXES | item.own_words) and not rest & lexicon.ENGLISH_SIGNS


def _read_otherwise_in_english(text: str, item: Item, method: str, label: str | None) -> bool:
    """Batch 114: a choice read from where an option's words occur, in a reply written in another language whose
    English the glosses give ("- **Dermatofibroma:** parche blanco central ...; aquí no hay área blanca central. ...
    **Conclusión:** ... **nevo melanocítico benigno**." had read Dermatofibroma, the one word it shares with English,
    sure): the reply, read in that English, names another answer."""
    if item.kind != "choice" or method not in _MENTIONS or label is None:
        return False
    words = lexicon.TOKEN.findall(text[:3000])
    if len(words) < 8 or sum(w.casefold() in lexicon.ENGLISH_SIGNS for w in words) > len(words) / 20:
        return False  # (English, or too short to tell)
    english = lexicon.translate(text)
    if english == text or getattr(_ENGLISH_CHECK, "active", False):
        return False  # (nor again inside the reading of that English: one pass, whatever the glosses give)
    _ENGLISH_CHECK.active = True
    try:
        found = read_alone(english, item).choice
        return found not in (None, label)
    finally:
        _ENGLISH_CHECK.active = False


# whether a reply's glossed English is being read for :func:`_read_otherwise_in_english` (per thread: the app reads
# replies in worker threads)
_ENGLISH_CHECK = threading.local()


# an opening word or two that stand as a sentence of their own ("Absolutely.", "Certainly."), and the sentence after
# them
_OPENER_ALONE = re.compile(r"[\W_]*(?:[^\W\d_][\w']*[ \t]*){1,4}[.!][ \t*_]*\n*[ \t*_]*([^.!?\n]{3,300})")


def _next_sentence_against(text: str, item: Item, label: str | None) -> bool:
    """Yes/no items read from an opening word that stands alone: whether the next sentence answers the other way by
    the question's adjective ("Absolutely. The heart is not enlarged." to "Is the heart enlarged?"; not by a subject it
    names, "No. The left kidney appears normal ..." to "Is there a mass in the left kidney?")."""
    m = _OPENER_ALONE.match(text)
    if m is None or label is None or not item.question or not item.aliases:
        return False
    said = answer_from_predicate(m.group(1), item.question)
    return said is not None and item.aliases["yep" if said == "yes" else "nope"] != label


# a lone letter closing the reply ("..., d", "... (E)."): a hostile review of the closing lower-case letter found "the
# heart size is normal, d" (three options) read A surely from its words
# (and "the rash has silvery scale, psoriasis, i": a letter past the options, or a cut "I ...", either way a guess)
_CLOSING_LETTER = re.compile(r"(?:\A|[\s,.:;\-])[(\[]?([b-hB-H])[)\]]?[ \t.!*_]*\Z|,[ \t]*(i)[ \t.!*_]*\Z")


def _ends_out_of_range(text: str, item: Item) -> bool:
    """Whether a choice reply closes on a lone letter that is none of the item's: its own answer, which the reader
    cannot take, against the words it reads."""
    m = _CLOSING_LETTER.search(text[-40:])
    return item.kind == "choice" and bool(item.letters) and m is not None \
        and item.letter(m.group(1) or m.group(2)) is None


# the words that place a finding along an axis, each with its opposite ("above the carina" / "below the carina")
_OPPOSITE_PLACE = {"above": "below", "below": "above", "upper": "lower", "lower": "upper", "superior": "inferior",
                   "inferior": "superior", "proximal": "distal", "distal": "proximal", "anterior": "posterior",
                   "posterior": "anterior"}
_PLACED_BY = re.compile(r"(?i)\b(" + "|".join(_OPPOSITE_PLACE) + r")\s+(?:the\s+)?([^\W\d_]{3,})")


def _placed_opposite(text: str, item: Item, label: str | None) -> bool:
    """Whether the option read places its finding ("Mid trachea, above the carina") where the reply places it on the
    other side ("the tube tip is below the carina", read from "carina"; a hostile review of held-out batches 163-166)
    and nowhere on the option's own."""
    for m in _PLACED_BY.finditer(item.option_text(label) or ""):
        word, noun = m.group(1).casefold(), re.escape(m.group(2))
        if pattern(rf"(?i)\b{word}\s+(?:the\s+)?{noun}\b").search(text):
            continue
        for o in pattern(rf"(?i)\b{_OPPOSITE_PLACE[word]}\s+(?:the\s+)?{noun}\b").finditer(text):
            # (not denied, nor asked: "The tube is not below the carina.", "The cuff sits below the carina? No ...")
            if not is_negated(text[max(0, o.start() - 80):o.start()]) and not re.match(r"[^.!\n]*\?", text[o.end():]):
                return True
    return False


def _table_marks_another(text: str, item: Item, label: str | None) -> bool:
    """Whether a table reviewing every option by its letter marks another one "**Correct**" ("Answer: B" over "| A.
    Mid trachea, above the carina | **Correct** |", a hostile review of held-out batch 167's table rows)."""
    marked = marked_table(text, item) if label is not None else None
    return marked is not None and marked[0] != label


def doubts(text: str, item: Item, method: str, label: str | None = None, *, refusal: bool = False) -> list[str]:
    """What puts the reading ``label`` of ``text`` in doubt, by name (empty: nothing does)."""
    t = fold_quotes(text)
    found: list[str] = []
    # "Cannot be determined." choosing the option that says so is an answer, and so is choosing the option that the
    # question does not suit the image or rests on a wrong premise: the words that say it cannot be answered as asked
    # give the reason for the choice ("This is a chest radiograph, so reflux can't be graded: A.")
    unknown = label is not None and (label in item.escapes.get("unknown", []) or (
        any(label in item.escapes.get(k, []) for k in ("unsuitable", "premise"))
        and refusal and refusal_names(t) <= _UNANSWERABLE))
    if refusal and not unknown:
        found.append("refusal")
    elif not refusal and (undecided_between(t) or TORN.search(t)):
        # batch 95: "**A. Stable.** Although, ..., the sac may have grown ..., which would make it aggravating. I can't
        # say which with confidence now.": two answers weighed, no decline (refusals._EQUIVOCAL), and the reply says
        # it cannot choose
        found.append("undecided")
    if (REVERSAL.search(t) or (method != "exact" and self_corrected(t) is not None)) and _change_of_mind_cues(t) \
            and not _settled_reversal(
            t, item, label) and not _first_answer_after_reversal(t, item, label):
        found.append("reversal")
    placed = _placed(t, item, method, label)  # (where the reply puts its answer: weighed once, used twice)
    part = _hedged_part(t, item, method, label, placed)
    if HEDGE.search(part) or FOREIGN_HEDGE.search(part):
        found.append("hedge")
    if item.options and _negated_choice(t, item, label):
        found.append("negation")
    elif _side_called_normal(t, item, label):
        found.append("negation")  # "Right-sided hydronephrosis; normal left kidney." read as the left kidney
    if method not in {"exact", "structured"} and _placed_opposite(t, item, label):
        found.append("opposite")  # "The tube tip is below the carina." read as "Mid trachea, above the carina"
    if method != "structured" and _praised_or_kept_open(t, item, label, method in _DECLARED | {"final_verdict"}):
        found.append("praised another")  # "Herpes zoster (A) couldn't fit better. Impetigo (B) has honey crusts."
    if _both_called_normal(t, item, label, method):
        found.append("both normal")  # "Both costophrenic angles are sharp." read as "bilateral"
    if _other_side_too(t, item, label):
        found.append("other side")  # "Answer: Left hip\nThe right femoral head also shows subchondral sclerosis."
    if item.kind != "yesno" and method not in _DECLARED and _COMPARED.search(_last_clause(t)):
        found.append("compared")  # "Obstructive, favoured versus communicating.": which one it favours is in words
    elif item.kind == "yesno" and item.aliases and label == item.aliases["yep"] \
            and method not in {"exact", "structured"} and _finding_versus_another(t, item.question):
        found.append("compared")  # "Impression: Small effusion versus pleural thickening." to "... an effusion?"
    if item.kind != "yesno" and method in _MENTIONS | {"language", "label_word"} and (
            NOT_ANYWHERE.search(t) or NOT_OPENING.search(opening := first_sentence(t.lstrip(" \t\n*_#>")))
            or (method != "language" and GLOSSED_NOT.search(opening)
                and not _only_another_label_denied(opening, item, label))):
        found.append("negation")  # "Jawaban akhir: bukan anak-anak" (not a child), "소아가 아닙니다." (not a child)
    elif method not in {"exact", "structured", "negated_option"} and denied_in_place(
            t, item, label, declared=method in _MARKED):
        found.append("negation")  # "Upside down, I don't think so.", "Correct it is not.", "Far from an adult."
    elif method not in _MARKED and judged_otherwise(t, item, label):
        found.append("negation")  # "I would not describe the liver as cirrhotic.", "A stretch to call it enlarged."
    elif method not in _MARKED and verdict_only(t, item, label):
        found.append("verdict only")  # "Proliferative: no.", "Left kidney: normal.", "Pneumothorax: false"
    elif method not in _MARKED and answers_an_echo(t, item, label):
        found.append("own question")  # "Absent? No.", "Upside down? That's correct."
    elif item.kind == "yesno" and item.aliases and label == item.aliases["yep"] and method in _FROM_A_MENTION \
            and _foreign_not_before_asked(first_sentence(t.lstrip(" \t\n*_#>")), item.question):
        # a reader check of 2026-12-06: a yes read from the subject a reply names, where another language's "not"
        # stands just before what the question asks ("Dit is geen CT maar een MRI.", "Đây không phải CT mà là MRI.",
        # "Walang cardiomegaly." to "Is the heart enlarged?", read yes, sure): the word may be the one denied
        found.append("negation")
    elif item.kind == "yesno" and item.aliases and label == item.aliases["nope"] and method == "question_subject" \
            and NOT_AFTER.search(t) and not _GLOSSED_ANSWER.match(lexicon.translate(first_sentence(t), yesno=True)):
        # (the same check: "CT입니다. MRI 아님." (it is a CT; not an MRI) read no from the MRI it names, sure: the other
        # subject it names may be the one denied; only a "not" written after the noun, as "PA view." opens with
        # Mauritian Creole's "pa" and "Không, đây là ... (PA), không phải ..." with Vietnamese "no", from the corpus)
        found.append("negation")
    stated = stated_answers(t, item, after_lead_in=True) if item.kind == "yesno" else set()
    if len(stated) > 1 or (label is not None and stated and label not in stated
                           and method not in _MARKED | {"final_verdict"}):
        # "Yes, ... No, ...": both stated as the answer; "Looks like it, doesn't it? No, the lucency is a nutrient
        # canal." (read yes from the idiom): the answer the reply states is the other
        found.append("contradiction")
    elif method == "declaration" and _held_apart(t, item):
        found.append("kept two")  # "I stand by D. I stand by A.": two answers held
    elif method not in {"exact", "structured", "marked"} and _two_together(t, item, label):
        found.append("kept two")  # "... explained by pulmonary edema and pneumonia together ..."
    elif method in _MENTIONS and label is not None and _one_of_a_pair(t, item, label):
        found.append("kept two")  # held-out batch 144: "the contrast is in the arteries and in the veins"
    elif method not in {"exact", "structured", "marked"} and _or_another(t, item, label):
        found.append("kept two")  # held-out batch 172: "red is closer. or blue, they look about the same"
    if method in _FROM_A_MENTION | _MENTIONS and label is not None and "hedge" not in found \
            and _only_as_a_meaning(t, item, label):
        found.append("hedge")  # held-out batch 144: "osteopenic, which could mean an older patient" read as elderly
    if method in _FROM_A_MENTION | _MENTIONS | {"declaration", "leading"} and label is not None \
            and "hedge" not in found and _only_supposed_if(t, item, label):
        # "...: if both axes are inverted, the image has been rotated 180 degrees.", "If the CTR is above 0.6, it is
        # severely enlarged." (a hostile review)
        found.append("supposed")
    if method in _MENTIONS and label is not None and _NONE_OF_THEM.match(item.option_text(label) or "") \
            and {lb for lb in named_in(t, item) - {label} if not _ALL_OF_THEM.match(item.option_text(lb) or "")}:
        found.append("alternative")  # a hostile review: "The left hip is intact." read as "Neither hip"
    elif method in _MENTIONS and label is not None and any(
            item.letter(m.group(1)) not in (None, label) for m in _FITS_LETTER.finditer(t)):
        found.append("alternative")  # held-out batch 152: "... haze at both bases ... That fits A better than B." as B
    elif _declared_for_each(t, item, label) or (method not in {"exact", "structured"} and _yes_no_for_each(t, item)) \
            or (method not in _MARKED and _answer_per_part(t, item)):
        found.append("each its own")  # "Lesion 1 ... Most consistent with: B. Lesion 2 ... Most consistent with: C."
    if method == "leading" and item.kind == "yesno" and _next_sentence_against(t, item, label):
        found.append("contradiction")  # a hostile review of 9a5c55c: "Absolutely. The heart is not enlarged."
    if method == "label_word" and item.aliases and label == item.aliases["nope"] and _AFFIRMED.search(t):
        found.append("affirmed")  # "There is a transverse lucent line ... In summary, no fracture."
    if method == "declaration" and item.kind == "yesno" and _body_against_yes_no(t, item, label):
        found.append("body")  # "... uniform enhancement and no focal lesion.\nAnswer: yes"
    if method not in {"exact", "structured", "marked"} and (_ends_otherwise(t, item, label)
                                                          or _ends_out_of_range(t, item)):
        found.append("ends otherwise")  # "Yes. ... My considered view after a second pass is No."
    if method not in {"exact", "structured", "marked"} and label is not None \
            and _offered_with_another(t, item, label, method):
        found.append("alternative")  # "The answer is red or green."
    elif item.kind == "yesno" and method in {"presence", "question_subject"} and _PLACE_OR_PLACE.search(t):
        found.append("alternative")  # "... in the right middle lobe or the anterior basal segment of the right ..."
    if lexicon.sense_assumed(t):
        found.append("two senses")  # "Tak." alone: the Polish yes, the Malay "no"
    if _in_an_unread_language(t, item, method):
        found.append("unread language")  # "Nnyaa, ga se setshwantsho sa MRI; ke CT."
    elif _read_otherwise_in_english(t, item, method, label):
        found.append("unread language")  # "- Dermatofibroma: ... no hay área blanca central. ... Conclusión: ... nevo"
    if method != "exact" and _revised_after(t, item) and not _settled_reversal(t, item, label):
        found.append("revised")  # batch 20: "Answer: correct.\nRevised reading - ... upside down."
    elif method != "exact" and _taken_back(unmarked(t)):
        found.append("revised")  # "I'm **withdrawing the "arterial" answer**, but ..." (held-out batch 185)
    elif (again := _LOOKED_AGAIN.search(t)) is not None and not _settled_reversal(t, item, label) and (
            named_in(t[again.end():], item) - {label}
            or _MISREAD_LEFT_UNSAID.match(t, again.end())):
        # held-out batch 164: "D. 4. Let me recount: ... B. 2."; and what it misread left unsaid ("**B.
        # Pneumothorax**\n\nI misread that.", a hostile review of 163-166)
        found.append("revised")
    elif method in _MENTIONS | {"label_word", "presence", "question_subject"} and "reversal" not in found and (
            _GIVEN_UP.search(t) or ((first := _FIRST_LINE.search(t)) is not None
                                    and (named_in(t[first.end():], item)
                                         | set(options_in_words(t[first.end():], item).named)) - {label})):
        # "My first impression was a fracture of the left femoral neck ... a skin fold.": an answer given up, in a reply
        # read from where a word occurs
        found.append("reversal")
    if method != "structured" and not {"revised", "reversal"} & set(found) and undercut.shows_another(t, item, label):
        found.append("revised")  # "male. What it actually shows, looking at the breast shadows, is a female patient."
    if method != "structured" and undercut.put_down_to_a_mimic(t, item, label):
        found.append("mimic")  # "A. Present - a 9 mm density ..., though it is most likely due to a nipple shadow."
    if method not in {"exact", "structured"} and undercut.measure_unavailable(t, item):
        found.append("deferred")  # "No. ... Its craniocaudal span cannot be measured on a single axial image, ..."
    if method != "structured" and _LETTER_AS_EXAMPLE.search(t):
        found.append("example")  # "the opacity is in the lower zone, e.g. b.": a letter given as an example or gloss
    if method not in {"exact", "structured"} and undercut.both_fit(t):
        found.append("alternative")  # "Prostatic enlargement and a stone would both fit what I see."
    if method not in _MARKED and undercut.named_as_a_view(t, item, label):
        found.append("other words")  # "On the frontal and lateral views together, ..." read as "Lateral segment"
    if question_and_answer_lines(t, item):
        found.append("transcript")  # "Q: segment of the left middle lobe ...?\nA: On the frontal ..."
    if method not in _MARKED and (is_truncated(t) or (method == "final_verdict" and _cut_on_the_other_side(t))):
        found.append("truncated")  # (a declared answer ends the reply: "...: B: No")
    if _THINKING.search(t) or (method not in _MARKED and _REASONING.search(t)):
        found.append("thinking")
    words = len(t.split())
    if method not in _MARKED and not placed and (words > LONG_WORDS
                                            or (method == "question_subject" and words > SUBJECT_WORDS)):
        found.append("long")
    if item.options and not unknown and label not in item.escape_labels and (
            (method in _MENTIONS and _denied_by_name(t, item, label))
            or (method == "declaration" and _declaration_denied(t, last_declaration(t, item).at))
            or (method not in {"exact", "structured"} and rejected_by_name(t, item, label))
            or (method == "declaration" and item.kind == "choice" and _letter_then_another(t, item, label))):
        found.append("denied")  # "These findings don't point to A, erythema migrans.", "I don't think it is A."
    if method in _MENTIONS and _only_in_advice(t, item, label):
        found.append("advice")
    if (method in _MENTIONS and _general_remark(t)) or (
            method not in _MARKED and (_DEFINING.search(t) or len(_TIMING.findall(t)) > 1)
            and not _OF_THIS_CASE.search(t)) or (
            # "A pneumothorax occurs when ... It typically appears on chest X-ray as a thin pleural line with absent
            # lung markings.": a yes or no read from how a finding shows on any film
            method in {"presence", "question_subject", "label_word"} and _WHERE_TO_LOOK.search(t)) or (
            method == "presence" and _GENERIC.search(t) and not _OF_THIS_CASE.search(t) and not _AFFIRMED.search(t)
            and not re.search(r"(?i)\bthere\s+(?:is|are)\b|\b(?:is|are)\s+(?:present|seen|noted|visible)\b", t)):
        found.append("generic")
    if method not in _MARKED and deferred_spans(t, item):
        found.append("deferred")  # "... whether either has ... avascular necrosis would need an MRI to say."
    if method not in _MARKED - {"declaration"} and _normal_except(t, item, label):
        found.append("exception")  # "Normal radiograph apart from a subtle distal radius fracture." read no
    if method not in _MARKED and _not_ranked_first(t, item, label):
        found.append("alternative")  # "Differential: 1. Pneumonia 2. Atelectasis 3. Pleural effusion" read effusion
    if method in _FROM_A_MENTION | _MENTIONS and label is not None and len(t.split()) <= _GONE_WORDS \
            and _GONE.search(t) and (
            item.kind != "yesno" or (item.aliases and label == item.aliases["yep"])):
        found.append("resolved")  # "The right lower lobe consolidation has resolved." read yes
    if method not in _MARKED and _scoped_denial(t, item, label):
        found.append("turns")  # "No tension pneumothorax. Small right apical pneumothorax." read no
    if method in _MENTIONS | {"synonym"} and _count_in_parts(t, item, label):
        found.append("alternative")  # "Two upper and two lower wisdom teeth." read 2 (of 0, 2, 3, 4)
    if (method == "likelihood" and not clear_lead(t, item)) or _no_share_ahead(t):
        found.append("close")  # batch 17: "A 50%, B 25%, ...": ahead, but not beyond doubt
    if method == "option_value" and _range_across(t, item):
        found.append("alternative")  # "9-12 mm." to "Under 1 cm / 1 to 3 cm / ...": a range across two options
    if method in {"presence", "leading"} and item.aliases and label == item.aliases["yep"] \
            and _only_another_finding(t, item):
        found.append("another finding")  # "Cardiomegaly is present." to "Is pleural effusion present?"
    if method == "question_subject" and between_regions(t):
        found.append("junction")  # batch 70: "This slice sits at the thoracoabdominal junction: ..."
    if method == "question_subject" and item.aliases and label == item.aliases["yep"] \
            and (why := doubted_yes(t, item.question)) is not None:
        found.append(why)  # "More like an MRI than a CT.", "CT, I don't think so." to "Is this a CT?"
    if method not in {"exact", "structured", "marked"} and label is not None and findings_per_option(t, item, label):
        # batch 71: "Findings: Right kidney: dilated pelvis ... Left kidney: normal.\nImpression: Left hydronephrosis.
        # \nAnswer: The left kidney": findings given per option, the answer rests on which entry is abnormal
        found.append("findings")
    if method not in _MARKED | {"bare", "leading"} and label is not None and item.kind == "choice" \
            and described_in_turn(t, item, label):
        found.append("each described")  # "Epidural: biconvex ...\nSubdural: ...\nIntraparenchymal: ...": a glossary
    if method not in {"exact", "structured"} and (marks_against(t, item, label)
                                                 or _table_marks_another(t, item, label)):
        found.append("table")  # "| D. Pneumothorax | No pleural line | Present |" above "So: C." (a hostile review)
    if few_shot_layout(t):
        # batch 73: "Q: Is a mass present in the left kidney?\nA: no\n\nQ: ... right kidney?\nA: yes", "Example
        # answer: B", a closing empty "A:": which answer is the reply's own rests on the layout
        found.append("transcript")
    if method not in _DECLARED and label is not None and _letters_in_option_texts(t, item):
        found.append("lettered names")  # "..., so A rather than B." when the options are Stanford type B and A
    if method not in {"exact", "structured"} and label is not None and label in mislabelled_options(t, item):
        found.append("mislabelled")  # held-out batch 156: "Mildly enlarged (C)." when mildly enlarged is B
    if method in ("bare", "leading") and label is not None and _words_of_another(t, item, label):
        found.append("other words")  # "A — there's a transverse lucent line through the patella ..." (A: effusion)
    if label is not None and _odds_against(t, item, label):
        found.append("odds")  # batch 69: "No. Confidence that a pleural effusion is present: 0.9."
    if label is not None and (own := read_confidence(t)) is not None and own <= LOW_CONFIDENCE:
        found.append("low confidence")  # a black-box check (rev33): "Answer: B\nConfidence: 20%", "No — 30% sure."
    if method not in _DECLARED and result_for_another_finding(t, item, label):
        found.append("another finding")  # "Negative for pneumothorax." to "Is there a pleural effusion?"
    if method == "leading" and item.aliases and label == item.aliases["nope"] and only_of_others(t, item):
        found.append("another finding")  # "No extra-axial collection, no parenchymal bleed." to "... hemorrhage?"
    elif method == "label_word" and item.aliases and label == item.aliases["yep"] and set_aside_no(t, item) \
            and not _yes_names_the_question(t, item):
        found.append("another finding")  # "No free air under the diaphragm. Yes, the film is erect."
    elif method == "leading" and item.aliases and label == item.aliases["nope"] and _DENIED_FIRST.match(t) and (
            _DENIED_THEN_BUT.match(t) or _another_side(t, item.question) or shows_predicate(t, item.question)
            or _denied_there_then_found(t) or _sign_denied_then_another(t, item.question)
            or _denied_qualified_then_found(t, item.question) or _subject_after_denial(t, item.question)):
        # "No meniscus, but subpulmonic fluid elevates the right hemidiaphragm.", "No blunting on the left; ...", "No
        # rotation. The fragments are overriding by 1 cm." (hostile review of 2363cef)
        found.append("turns")
    if method == "label_word" and item.aliases and label == item.aliases["yep"] and _conceded_yes(t):
        found.append("another finding")  # "It's a radiograph, yes, but I don't see a fracture."
    if method == "presence" and item.aliases and label == item.aliases["nope"] and _BUT_UNSEEN.search(t):
        found.append("turns")  # "Nowhere to be found in the usual places, but the left apex is obscured ..."
    if method in {"presence", "question_subject", "label_word", "leading"} and _SCANT.search(t):
        found.append("negation")  # "The film hardly shows a fracture."
    elif method not in {"exact", "structured"} and "negation" not in found and _TWICE_DENIED.search(t):
        found.append("negation")  # "Certainly not not enlarged.": a denial denied (older near misses of the reviews)
    elif item.kind == "yesno" and item.aliases and label == item.aliases["nope"] and _absence_denied(t, item):
        found.append("negation")  # "The effusion is not absent." read no (a hostile review of 04b30cb)
    if method == "label_word" and _word_about_another(t, item, label):
        found.append("another finding")  # "- No pleural effusions.\nYes, the film is adequately inspired ..."
    if method in {"label_word", "final_verdict"} and _answers_its_own_question(t, item, label):
        found.append("own question")  # "Is there a fracture? Yes. Displacement: none." to "Is it displaced?"
    if method == "label_word" and _word_only_supposed(t, item, label):
        found.append("supposed")  # "The growth plates are wide open, which would not be the case in an adult."
    fields = field_values(t, item.question) if item.kind == "yesno" and item.aliases and item.question else set()
    if label is not None and "cannot judge" in fields:
        found.append("deferred")  # "Displacement: no lateral view to assess."
    elif method in _FROM_A_MENTION and label == item.aliases.get("nope") and "not denied" in fields:
        # "Displacement: no change, still 5 mm." to "Is the fracture displaced?" (not where the reply says its answer:
        # "Displacement: no change, still anatomically aligned. No.", a hostile review of 6c89057)
        found.append("something else")
    elif method in _FROM_A_MENTION and label == item.aliases.get("yep") and "denied" in fields:
        found.append("contradiction")  # "Spleen enlargement - nil." read yes from "enlargement"
    elif method == "presence" and label == item.aliases.get("nope") and "another time" in fields:
        found.append("another time")  # "Splenomegaly: none, previously; now 16 cm." (older near misses of the reviews)
    if item.kind == "yesno" and item.aliases and label == item.aliases["nope"] \
            and method not in {"exact", "structured"} and item.question and PRESENCE_QUESTION.search(item.question) \
            and still_there(t, item.question):
        found.append("contradiction")  # "No, the effusion has not resolved.", "Unresolved: no. The effusion persists."
    if (method not in _DECLARED or _SIDE_WORD.search(item.question or "")) and _side_against(t, item, label):
        found.append("per side")  # "| Pleural effusion | none on the right, large on the left |" read no
    if method == "label_word" and item.aliases and label == item.aliases["nope"] and _only_no_change(t, item):
        found.append("something else")  # "Left pleural effusion - no change from prior."
    if method == "presence" and item.aliases and label == item.aliases["nope"] and item.question \
            and asked_unseen(t, item.question):
        found.append("deferred")  # "Cardiomegaly: not seen. The heart borders are obscured by bilateral effusions."
    if method == "label_word" and _word_against_its_clause(t, item, label):
        found.append("contradiction")  # "Yes, I'm confident this liver is normal." to "Is the liver cirrhotic?"
    if method in ("label_word", "leading") and item.kind == "label" and _placed_the_other_way(t, item, label):
        found.append("contradiction")  # batch 98: "the blue dot is deep in the reticular dermis." to "... closest ...?"
    return found


# a "no" that only says nothing changed ("no change from prior", "no interval difference")
_NO_CHANGE = re.compile(r"[ \t]+(?:(?:significant|interval|appreciable|measurable|further)[ \t]+)?(?:change|difference|"
                        r"progression|growth|increase|decrease)\b", re.IGNORECASE)


def _only_no_change(text: str, item: Item) -> bool:
    """Whether every "no" of the reply says only that nothing changed ("Left pleural effusion - no change from
    prior." to "Is there a pleural effusion?": the older near misses of the hostile reviews)."""
    hits = list(_label_hits(text, item, item.aliases["nope"]))
    return bool(hits) and all(_NO_CHANGE.match(text, m.end()) for m in hits)


# the two senses a dot question asks in (closest to the camera or the surface; deepest, farthest)
_NEAR = frozenset("close closer closest near nearer nearest shallow shallower shallowest superficial surface front "
                  "foreground".split())
_FAR = frozenset("deep deeper deepest far farther farthest further furthest distant behind background".split())


def _placed_the_other_way(text: str, item: Item, label: str | None) -> bool:
    """Label items asked in one sense of depth ("Which dot is closest to the surface?"): every clause that names the
    label read places it in the other sense ("the blue dot is deep in the reticular dermis"): the reply says where
    that dot is, not that it is the answer."""
    asked = set(re.findall(r"[a-z]+", item.question.casefold()))
    sense = _NEAR if asked & _NEAR and not asked & _FAR else _FAR if asked & _FAR and not asked & _NEAR else None
    if sense is None or label is None:
        return False
    other = _FAR if sense is _NEAR else _NEAR
    words = [w for w, lb in item.words if lb == label]
    clauses = [c for c in re.split(r"[.;:!?\n,]|\b(?:while|whereas|but|and)\b", text.casefold())
               if any(re.search(r"(?<![\w\-])" + re.escape(w.casefold()) + r"(?![\w\-])", c) for w in words)]
    return bool(clauses) and all(set(re.findall(r"[a-z]+", c)) & other and not set(re.findall(r"[a-z]+", c)) & sense
                                 for c in clauses)


def _clauses_after(text: str, item: Item, label: str | None, marked: bool = True) -> Iterator[str]:
    """What follows each of the reply's words for ``label`` ("yes", "no", their like), after a mark (or, where not
    ``marked``, with or without one), to the end of its sentence: "Yes, the film is adequately inspired ..." gives "the
    film is adequately inspired ..."."""
    tail = _WORD_THEN_CLAUSE if marked else _WORD_THEN_ANY_CLAUSE
    for word, lab in item.words:
        if lab == label:
            for m in re.finditer(phrase_regex(word).pattern + tail, text, re.IGNORECASE):
                yield m.group(m.lastindex or 0)


def _names_the_question(words: list[str], item: Item) -> bool:
    """Whether ``words`` hold a word of the question or what it asks (their stems, or their first six letters)."""
    terms = (*asked_terms(item.question), *question_words(item.question))
    return any(overlap.stem(w) in terms or any(w.casefold().startswith(t[:6]) for t in terms if len(t) >= 6)
               for w in words)


def _yes_names_the_question(text: str, item: Item) -> bool:
    """Whether a yes of the reply goes on, in its sentence, to name a word of the question or what it asks ("IMPRESSION:
    Yes — CT of the abdomen." to "Is this CT scan of the abdomen?", "so yes there is a pneumothorax")."""
    return any(_names_the_question(re.findall(r"[^\W\d_][\w\-']*", clause), item)
               for clause in _clauses_after(text, item, item.aliases.get("yep"), marked=False))


# what, earlier in a clause, denies or supposes the answer word it holds ("which would not be the case in an adult",
# "unless this is a child"); and a yes or no the reply says it cannot say ("Nor can I say no.", "I can't say yes")
_SUPPOSING_CLAUSE = re.compile(r"(?i)\b(?:not|never|if|unless|whether|rather\s+than|instead\s+of|except|unlike)\b|n't")
_SAY_DENIED = re.compile(r"(?i)\b(?:can(?:'t|not|\s+not)|could(?:n't|\s+not)|nor\s+(?:can|could)\s+I|won't|"
                         r"wouldn't|will\s+not|would\s+not)\s+(?:\w+\s+){0,2}?(?:say|answer|call\s+it)[ \t:]*(?:a\s+)?"
                         r"[\"']?\Z")


# where a clause turns to what the reply asserts ("..., so this is an adult", "... because it is a child")
_ASSERTED = re.compile(r"(?i)\b(?:so|and|because|therefore|thus|hence|this\s+is|it\s+is|it's|that\s+is)\b")
# a relative clause of what would not hold, or be unusual ("Open growth plates, which would not be the case in a
# typical healthy adult.", "..., neither of which would ever be present in a fully grown adult.": the older near misses
# of 397d1cb); not what it would mean ("which would indicate an adult skeleton", a hostile review of 6c89057)
_COUNTERFACTUAL = re.compile(r"(?i)\W*(?:(?:neither|none)\s+of\s+which\b[^.;:!?\n]*\bwould\b|"
                             r"which\b[^.;:!?\n]*\bwould\b[^.;:!?\n]*\b(?:not|never|unusual|unexpected|atypical|rare|odd))")
# a sentence that supposes what is not so, then says what would follow ("If the growth plates were visible and fused,
# it would be an adult."; not "If I had to choose, I would say adult.")
# (not "Even if the film were rotated, the physes would still make this an adult", nor "If I were reporting this, I
# would call it an adult", nor an answer after a turn, "If the patient were younger we would see a thymus, but none is
# seen, consistent with an adult": a hostile review)
# (nor a choice the speaker is asked to make, "If a single label were required, it would be adult", "If it were up to
# me", "If one were to classify this": a hostile review of a7eaf5c; not "If one were to see open physes", "If the
# plates were to be open", and "nonetheless" is no turn, "If there were shadowing, it would nonetheless be worrying for
# malignant": its fix's review)
_TURN_WORDS = r"but|however|yet|though|although|whereas|still|instead"
# (the older near misses of the hostile reviews: the same supposition inverted, "Had the physes been fused, it would
# be an adult.", "Were the growth plates closed, this would be an adult."; not what is asserted, "Were there any
# doubt, the fused physes would settle it", "Were it not for the small thorax, ...": the review of that rule)
_IF_IT_WERE = re.compile(r"(?i)[\W_]*(?:if\s+(?!I\b|we\b|it\s+were\s+up\s+to\b|"
                         r"one\s+were\s+to\s+(?:classify|choose|pick|answer|label|categori[sz]e|call)\b|"
                         r"(?:a|an|one|the)\s+(?:single\s+)?(?:label|answer|choice|category|classification)\s+were\b)"
                         r"[^.;:!?\n]*?\b(?:were|had\s+been)\b|had\s+(?!I\b|we\b|there\b)[^.;:!?\n]*?\bbeen\b|"
                         r"were\s+(?!I\b|we\b|you\b|there\s+(?:still\s+)?any\b|it\s+not\b)"
                         r"(?:the|this|these|those|its|there|it)\b[^.;:!?\n]*?,)"
                         rf"(?:(?!\b(?:{_TURN_WORDS})\b)[^.;:!?\n])*\bwould\b"
                         rf"(?:(?!\b(?:{_TURN_WORDS})\b)[^.;:!?\n])*\Z")
#: the words before an answer word in which a denial or a supposition is its own
_SUPPOSED_WITHIN = 6


def _label_hits(text: str, item: Item, label: str) -> Iterator[re.Match[str]]:
    """Each place the reply names ``label`` by one of its words ("yes", "no", their like; "adult", "grown-up")."""
    for word, lab in item.words:
        if lab == label:
            yield from re.finditer(phrase_regex(word).pattern, text, re.IGNORECASE)


def _word_only_supposed(text: str, item: Item, label: str | None) -> bool:
    """A label read from where its word occurs (a hostile review of 397d1cb), where every occurrence stands in a clause
    that denies or supposes it before it ("The growth plates are wide open, which would not be the case in an adult."
    to "pediatric or adult?"), or, for yes and no, after words that say it cannot be said ("Nor can I say no.")."""
    if label is None:
        return False
    seen = False
    for m in _label_hits(text, item, label):
        seen = True
        start = max((x.end() for x in _CLAUSE_MARK.finditer(text, max(0, m.start() - 200), m.start())),
                    default=max(0, m.start() - 200))
        start = max([start, *(x.end() for x in _SENTENCE_MARK.finditer(text, start, m.start()))])
        before = text[start:m.start()]
        if _SAY_DENIED.search(before):
            continue
        # (of the clause, what follows its last "so", "and", "this is": "If you look, they are fused, so this is an
        # adult."; and only its last few words: "Except for mild scoliosis the spine is that of an adult.")
        near = " ".join(_ASSERTED.split(before)[-1].split()[-_SUPPOSED_WITHIN:])
        if item.kind == "label" and (_SUPPOSING_CLAUSE.search(near) or _COUNTERFACTUAL.match(before)):
            continue
        sentence = text[max((x.end() for x in _SENTENCE_MARK.finditer(text, max(0, m.start() - 300), m.start())),
                            default=max(0, m.start() - 300)):m.start()]
        if item.kind == "label" and _IF_IT_WERE.match(sentence):
            continue
        return False
    return seen


# what, after a finding's noun, makes its denial one of a change ("No enlargement since then", "compared with 2019")
_SINCE_OR_THAN = re.compile(r"(?i)[^.;!?\n]{0,40}?\b(?:since|compared|relative|beyond|further|than|then|before|"
                            r"prior|previous|interval)\b")


def _denies_the_finding(text: str, word: re.Match[str], predicate: str, question: str) -> bool:
    """A "no" that denies the finding asked by its noun ("No cardiomegaly", "No enlargement", "No displacement"), not
    an answer to the question before it ("No it is enlarged", "No way"; a hostile review of the fix of a7eaf5c), nor
    another organ's ("No hepatomegaly" to the heart), the adjective ("No enlarged"), or the noun of another thing ("No
    enlargement of nodes": the review of the fix of a4b4af3)."""
    after = re.match(r"[ \t*_]+([^\W\d_]+)(?:[ \t]+of[ \t]+(?:the[ \t]+)?([^\W\d_]+))?", text[word.end():])
    if word.group(0).casefold() != "no" or after is None:
        return False
    noun = after.group(1).casefold()
    asked = asked_stems(question)
    parts = overlap.term_parts(noun)
    if parts:
        return set(parts) <= asked  # "No cardiomegaly" to "Is the heart enlarged?"
    if not noun.startswith(predicate.casefold()[:5]) or noun.endswith("ed"):
        return False
    of = after.group(2)
    if _SINCE_OR_THAN.match(text, after.end()):
        return False  # "No enlargement since then.", "No displacement beyond what was seen before" (a change)
    return of is None or overlap.stem(of.casefold()) in asked


# a question asked in the negative ("Isn't the heart enlarged?"), whose yes agrees with it
_NEGATIVE_QUESTION = re.compile(r"(?i)n't\b|\bnot\b")
# a question of the reply's own that asks only whether a finding is there ("Is there a fracture?", "Fracture present?")
_PRESENCE_ASKED = re.compile(r"(?i)\b(?:is|are)\s+there\b|\bany\b|\b(?:present|seen|visible|identified)\b")


# what, after a yes or no that answers the reply's own question (or in the sentence before that question), puts the
# answer at another time, under a condition, on another's word, or in doubt ("Yes, in 2019. Now CTR 0.45.", "Yes, if
# this is an AP film", "Yes, the report says so, but ...", "Yes, suggestive.", "Known cardiomegaly.", "Comparison with
# prior (2019):": the third review of the rules that read it)
_ELSEWHERE = re.compile(r"(?i)\b(?:since|now|today|current(?:ly)?|but|however|although|though|report\w*|"
                        r"historic\w*|previous(?:ly)?|prior|before|earlier|known|compar\w*|follow[\s\-]?up|serial|"
                        r"interval|stable|normalised|normalized|resolved|(?:19|20)\d\d|if|assum\w*|unless|only|"
                        r"clinical\w*|requested|needs?|check|assess\w*|suggest\w*|equivocal|arguabl[ey]|seems?|"
                        r"appears?|apparently|guess|palpable|accessory|question|last|ago|was|were)\b")
# what may follow a yes or no to the question asked in other words, to the end of the reply: nothing, or its adjective
# and degree ("Yes.", "Yes, markedly.", "Yes, it is enlarged.", "Yes, by 4 mm."), not a measurement alone ("Yes,
# 10 cm."), another thing's adjective ("Yes, the atrium is enlarged.") or anything else
_NOTHING_AFTER = re.compile(r"(?i)[ \t]*(?:[,:\-\u2013\u2014][ \t]*)?(?:it[ \t]+(?:is|does)[ \t]+)?"
                            r"(?:(?:very|markedly|clearly|definitely|mildly|moderately|severely|quite|certainly)"
                            r"[ \t]*)?"
                            r"(?:(?:enlarged|dilated|displaced|big|large|present)[ \t]*)?"
                            r"(?:,?[ \t]*by[ \t]+(?:about[ \t]+)?[1-9]\d*(?:\.\d+)?[ \t]*(?:mm|cm)[ \t]*)?"
                            r"[.!]*[ \t*_\n]*\Z")
# what a denial of the finding by its noun may go on to say, to the end of the reply ("No cardiomegaly is seen."), not
# "can be excluded", "was reported in 2019", "(CTR 0.62)", "; CTR 0.44."
_DENIAL_SEEN = re.compile(r"(?i)[ \t*_]+[^\W\d_]+[ \t]*(?:(?:is[ \t]+)?(?:seen|present|identified|evident|visible)"
                          r"[ \t]*)?[.!]*[ \t*_\n]*\Z")


def _answers_its_own_question(text: str, item: Item, label: str | None) -> bool:
    """Yes/no items: every yes or no read answers a question the reply asks itself on the way, and that question is not
    the one asked: it leaves out the adjective asked ("Is there a fracture? Yes. Displacement: none." to "Is the
    fracture displaced?") or names another finding ("Effusion? No." to "Is there a pneumothorax?"); a hostile review
    of 397d1cb). Where the question asks an adjective, only a question that asks whether the finding is there at all
    counts ("Is there a fracture?" to "Is the fracture displaced?"), or one that asks its opposite ("Heart size
    normal? Yes." to "Is the heart enlarged?")."""
    if item.kind != "yesno" or label is None or not item.question:
        return False
    predicate = asked_predicate(item.question)
    asked = asked_stems(item.question)
    seen = False
    for m in _label_hits(text, item, label):
        near = max(0, m.start() - 10)
        mark = re.search(r"\?[ \t*_]*\Z", text[near:m.start()])
        if mark is None:
            return False  # (the word stands outside such an answer too)
        end = near + mark.start()  # where the reply's own question ends
        own = text[max((x.end() for x in _SENTENCE_MARK.finditer(text, max(0, end - 200), end)),
                       default=max(0, end - 200)):end]
        if predicate is not None and not _NEGATIVE_QUESTION.search(own) \
                and not _denies_the_finding(text, m, predicate, item.question) \
                and answer_from_predicate(own, item.question) == "no":
            seen = True  # "Heart size normal? Yes." to "Is the heart enlarged?": its yes says the heart is normal
            continue  # (not "Isn't the heart enlarged? Yes.", the question asked in the negative, nor "Heart size
            #           normal? No cardiomegaly.", a no that denies the finding itself: hostile reviews)
        # (what the reply says after it, and before the question, may put the answer elsewhere: "Any cardiomegaly?
        # Yes, in 2019. Now CTR 0.45.", "Known cardiomegaly.\nAny increase in heart size? No.": the third review)
        # (and only where the question and its answer are the whole reply: what stands before or after them may put
        # the answer on another study, patient or view, or measure it otherwise, "CT chest findings:\nAny
        # cardiomegaly? Yes.", "Any cardiomegaly? Yes.\nThe CTR is 0.44.": the fourth review, 82 new sure errors)
        plain = predicate is not None and not _ELSEWHERE.search(text, m.end()) \
            and not text[:end - len(own)].strip(" \t\n*_#>-")
        if predicate is not None and plain and _denies_the_finding(text, m, predicate, item.question) \
                and _DENIAL_SEEN.match(text, m.end()) and answer_from_predicate(own, item.question) == "no":
            return False  # "Is the heart size normal? No cardiomegaly is seen.": a no that denies the finding itself
        if predicate is not None and plain and _asks_the_predicate(own, item.question, predicate) \
                and not _PREDICATE_SPLIT.search(own) and _NOTHING_AFTER.match(text, m.end()):
            return False  # (not "Cardiomegaly? Yes.": the question asked, in other words; a hostile review of 042a1db)
        if plain and not _said_otherwise_after(text, m, item, label) and _clause_ends_the_reply(text, m.end()) \
                and _only_of_the_asked(own, item.question) and _said_after(text, m, item, of_the_asked=True) == label:
            return False  # "Heart size? Yes, enlarged.": what follows the yes says it by the adjective asked
        # (the older near misses of the hostile reviews: "Is the heart normal? Yes", "Alignment anatomic? No.",
        # "Cardiothoracic ratio under 0.5? No.", "Is the heart enlarged or is the heart size normal? Yes", "Is the
        # heart normal, not enlarged? Yes.", "Is the heart not enlarged? No, it is enlarged.": a question of the
        # reply's own that is not the one asked, asks two, or denies the adjective)
        if predicate is None and not another_finding(own, asked):
            return False
        seen = True
    return seen


# a question of the reply's own that asks two things ("Is the heart enlarged or is the heart size normal?")
_PREDICATE_SPLIT = re.compile(r"(?i)\bor\b")


# what a question of the reply's own may say for "enlarged" ("Is the heart size increased?", "Cardiac silhouette
# large?", "Is the cardiac silhouette widened?"), and the words it may add ("size", "silhouette"), beside the asked
# finding's own words
_ENLARGED_ASKED = frozenset(overlap.stem(w) for w in "big large widened".split())
_OWN_FILLERS = frozenset(itertools.chain.from_iterable(
    finding_stems(w) | {overlap.stem(w)} for w in (
        "size silhouette shadow present seen visible any isn't aren't wasn't wouldn't doesn't don't didn't is are does "
        "do would you call look looks looking seem seems appear appears ask asked whether so really true say".split())))


def _named(text: str) -> set[str]:
    """What ``text`` names (:func:`finding_stems`), a compound term by its parts ("cardiomegaly": heart, enlarged)."""
    said = finding_stems(text)
    for word in re.findall(r"[^\W\d_][\w\-]*", synonyms.canonical(text)):
        parts = overlap.term_parts(word.casefold())
        if parts:
            said.discard(overlap.stem(word.casefold()))
            said |= set(parts)
    return said


_OPENING_NEGATIVE = re.compile(r"(?i)(?:\A|[\u2013\u2014:;,]|\s-)[\W_]*(?:so,?\s+)?(?:isn't|aren't|doesn't|don't|"
                               r"wouldn't|won't|wasn't|hasn't)\b")
_DENIED_OR_SUPPOSED_OWN = re.compile(r"(?i)\bnot\b|n't\b|\banything\s+but\b|\bwithout\b|\bexcept\b|"
                                     r"\A[\W_]*(?:so,?\s+)?(?:could|can|might|may|would|should|will)\b|"
                                     r"\b(?:could|might|may|question\s+of|possib\w*|likel\w*|probabl\w*|suggest\w*|"
                                     r"increase\w*|larger|bigger|change\w*|progress\w*)\b|"
                                     r"\b(?:was|were|had|before|prior|previous(?:ly)?|then|earlier|old)\b")


def _denies_or_supposes(own: str) -> bool:
    """Whether a question of the reply's own denies what it asks, supposes it, or asks it of another time ("Is the
    heart seen as anything but large?", "Is there any sign that the heart is not large?", "Could a large heart be
    present?", "Was the heart enlarged before?": the second review of that rule); not a question asked in the negative
    by its opening verb ("Isn't the heart enlarged?", "So, isn't the liver enlarged?")."""
    return _DENIED_OR_SUPPOSED_OWN.search(_OPENING_NEGATIVE.sub(" ", own)) is not None


def _asks_the_predicate(own: str, question: str, predicate: str) -> bool:
    """Whether a question of the reply's own asks the adjective asked ("enlarged", "big", "increased"), or names the
    organ's one word for it ("Cardiomegaly?", "Splenomegaly present?"), of nothing but the finding asked (not "Is the
    left atrium enlarged?", "Any hepatomegaly?", "Is there a big pericardial effusion?": the review of the fix of
    a4b4af3), and does not deny it ("Is the heart normal, not enlarged?", "Is the heart not enlarged?",
    "non-displaced"; not "Isn't the heart enlarged?")."""
    if re.search(r"(?i)\b(?:not|non|un)[\s\-]*(?:[^\W\d_]+\s+)?" + re.escape(predicate[:5]), own) \
            or _denies_or_supposes(own):
        return False
    said = _named(own)
    same = {overlap.stem(w) for w in (predicate, *SAME_AS.get(predicate, ()))}
    if overlap.stem(predicate).startswith("enlarg"):
        same |= _ENLARGED_ASKED
    organ = {overlap.stem(w) for w in (asked_subject(question) or "",) if w}
    if not said & (organ | {overlap.stem(predicate)}):
        return False  # "Any widening seen? Yes, mediastinal." (an adjective alone, of no organ)
    return bool(same & said) and not said - _named(question) - same - _OWN_FILLERS


# what makes a question of the reply's own about another finding than the one asked ("Any other fracture seen?", "Is
# there an ulnar fracture too?")
_ANOTHER_ONE = re.compile(r"(?i)\b(?:other|another|second|additional|further|too|also|else)\b")
# what puts a clause at another time or only supposes it ("Yes, the heart was enlarged then.", "Yes, the heart would
# then be enlarged.")
# the degree words a clause after a yes or no may add ("Yes, markedly enlarged.")
_DEGREES = frozenset(overlap.stem(w) for w in ("very", "markedly", "clearly", "definitely", "mildly", "moderately",
                                               "severely"))
_NOT_NOW = re.compile(r"(?i)\b(?:was|were|had|then|would|could|may|might|if|previously|prior|before|earlier|old)\b")


def _clause_ends_the_reply(text: str, at: int) -> bool:
    """Whether the clause that follows ``at`` (a yes or no) is the last thing the reply says ("Heart size? Yes,
    enlarged."; not "... Yes, enlarged.\nThe liver span is 13 cm.")."""
    clause = re.match(r"[^.;!?\n]*", text[at:])
    return clause is not None and not text[at + clause.end():].strip(" \t\n*_.!#>-")


def _only_of_the_asked(own: str, question: str) -> bool:
    """Whether a question of the reply's own names nothing but the finding asked ("Heart size?"; not "Is there
    hepatomegaly?" to the spleen, "Any other fracture seen?": the second review of that rule) and neither denies nor
    supposes it."""
    return not (_named(own) - _named(question) - _OWN_FILLERS) and not _ANOTHER_ONE.search(own) \
        and not _denies_or_supposes(own)


def _said_after(text: str, word: re.Match[str], item: Item, *, of_the_asked: bool = False) -> str | None:
    """The label that the clause after a yes or no says by the question's adjective ("Yes, enlarged." says yes), or
    None; where ``of_the_asked``, only a clause that names nothing but the finding asked, or "it" ("Yes, it is
    enlarged."; not "Yes, enlarged hilar nodes.": the review of the fix of a4b4af3)."""
    clause = re.match(r"[ \t,:;\-\u2013\u2014*_]*([^.;!?\n]*)", text[word.end():])
    if clause is None or not clause.group(1).strip():
        return None
    if of_the_asked and _NOT_NOW.search(clause.group(1)):
        return None
    if of_the_asked and _named(clause.group(1)) - _named(item.question or "") - _OWN_FILLERS - _DEGREES:
        return None
    said = answer_from_predicate(clause.group(1), item.question or "")
    return item.aliases["yep" if said == "yes" else "nope"] if said is not None and item.aliases else None


def _said_otherwise_after(text: str, word: re.Match[str], item: Item, label: str) -> bool:
    """Whether the clause after a yes or no says the other label by the question's adjective ("No, it is enlarged."
    read no to "Is the heart enlarged?"; "No enlarged, CTR 0.62.")."""
    said = _said_after(text, word, item)
    return said is not None and said != label


def _word_against_its_clause(text: str, item: Item, label: str | None) -> bool:
    """Yes/no items, a reading from a yes or no met inside the reply: a clause after the word says the other answer by
    the question's adjective ("Yes, I'm confident this liver is normal." to "Is the liver cirrhotic?": hostile review
    of batch 91's rules)."""
    if item.kind != "yesno" or not item.question or not item.aliases or label is None:
        return False
    for clause in _clauses_after(text, item, label):
        said = answer_from_predicate(clause, item.question)
        if said is not None and item.aliases["yep" if said == "yes" else "nope"] != label:
            return True
    # the rest of the reply says the other answer by the adjective ("It doesn't look cirrhotic. Yes, I'm sure.")
    said = answer_from_predicate(text, item.question) if len(text) < _SHORT_REPLY_CHARS else None
    return said is not None and item.aliases["yep" if said == "yes" else "nope"] != label


#: a reply read whole by the adjective's reader for :func:`_word_against_its_clause` (a short one)
_SHORT_REPLY_CHARS = 400


# a yes granted to something else before the reply turns ("It's a radiograph, yes, but I don't see a fracture."): the
# words of its clause before the ", yes, but"
_CONCEDED_YES = re.compile(r"(?i)[^\W\d_][^.?!\n]{0,200},[ \t]*yes[ \t]*,[ \t]*but\b")
_YES_BUT = re.compile(r"(?i),[ \t]*yes[ \t]*,[ \t]*but\b")


def _conceded_yes(text: str) -> bool:
    """Whether a clause grants something with a yes before it turns ("It's a radiograph, yes, but ...")."""
    return any(_CONCEDED_YES.search(text, max(0, m.start() - 201), m.end()) for m in _YES_BUT.finditer(text))


# a part of the image said unseen after a finding is denied (a hostile review of 5f68aa0)
_BUT_UNSEEN = re.compile(r"(?i)\bbut\b[^.;!?\n]{0,80}?\b(?:obscured|hidden|not\s+(?:well\s+)?(?:seen|visible|"
                         r"assessable|included)|cut\s+off)\b")
# a verb all but denied ("The film hardly shows a fracture.")
# a denial denied ("not not enlarged", "isn't not", "never not", held-out batch 143's "it is not the non
# proliferative kind"): which way it goes is the reader's guess (not a heading's "Why not non-contrast", held-out
# batch 102)
# (and, from a hostile review: "No, not no fracture", "Not unenlarged", "not without an effusion", "The effusion is not
# absent", "I don't think it's absent", "I wouldn't say there is no effusion")
_TWICE_DENIED = re.compile(r"(?i)(?:(?<!why[ \t])(?<!\byes,[ \t])(?<!\byes[ \t])\b(?:not|never)|n't)[ \t]+"
                           r"(?:(?:the|a|an)[ \t]+)?(?:not|never|non|no|none|without)\b|"
                           r"\bnot[ \t]+un[a-z]{3,}(?:ed|able)\b|"
                           r"n't[ \t]+(?:think|say|believe)[ \t]+(?:that[ \t]+)?(?:it's|it[ \t]+is|there's|"
                           r"there[ \t]+(?:is|are))[ \t]+(?:no|absent|none|not)\b")
# an absence denied, against a "no" ("The effusion is not absent."); a "yes" it supports ("Not absent - a nodule is
# seen."), and the caveat "a tiny effusion can't be excluded" leaves a "no" (held-out batches 90, 94)
_NOT_ABSENT = re.compile(r"(?i)(?:\bnot|n't)[ \t]+absent\b")
_ABSENCE_CLAUSE = re.compile(r"[.;,!?\n\u2013\u2014]|\s-\s")  # (not a colon: "Effusion: not absent.")


def _absence_denied(text: str, item: Item) -> bool:
    """Whether the reply says the finding asked is "not absent" ("The effusion is not absent."): not a sign of
    something else ("lung markings are not absent", "the lung sliding isn't absent"), nor the answer to a question
    that asks whether something is absent ("Is the corpus callosum absent?" "No, it's not absent")."""
    question = item.question or ""
    if "absent" in question.casefold():
        return False
    asked = asked_stems(question)
    for m in _NOT_ABSENT.finditer(text):
        start = max((c.end() for c in _ABSENCE_CLAUSE.finditer(text, 0, m.start())), default=0)
        said = finding_stems(re.sub(r"(?i)\b[a-z]+ly\b", " ", text[start:m.start()]))
        if said & asked or not said:  # (nothing named before it: "Not absent - a nodule is seen.", "Definitely not
            # absent.")
            return True
    return False
_SCANT = re.compile(r"(?i)\b[^\W\d_]+[ \t]+(?:hardly|scarcely)\b")  # (not the opening "Hardly - ...", a no)
# a reply that opens by denying a noun phrase ("No meniscus", "No fracture of the scaphoid") and then turns ("but",
# "however"): what it denies may be one sign or one place, and what it turns to may be the finding asked about (hostile
# review of 2363cef)
_DENIED_FIRST = re.compile(r"(?i)[\W_]*no[ \t]+(?!(?:it|it's|there|this|that|i|the|not|we|you|they|doubt|question|way|"
                           r"sir|wait)\b)[^\W\d_]")
_DENIED_THEN_BUT = re.compile(r"(?is).{0,400}?\b(?:but|however|although|though|yet|whereas)\b")
_FIRST_CLAUSE = re.compile(r"[^.;,:!?\n\u2013\u2014]*")


# a denial limited to a place or a view ("No pneumothorax at the apex.", "No fracture of the femoral neck.", "No
# effusion at the base", "No pneumothorax anteriorly", "on the expiratory film"), and a finding stated after it
# ("There is a deep sulcus sign ...", "The intertrochanteric line is disrupted.", "A lucent line crosses the distal
# radius."): hostile review of 328c64d
_LIMITED = re.compile(r"(?i)\b(?:(?:at|on|of|in|along)\s+the\s+[\w\-]+|(?:anterior|posterior|medial|lateral|superior|"
                      r"inferior|apical|basal)ly)\b")
_FOUND_AFTER = re.compile(r"(?i)\bthere\s+(?:is|are)\b(?!\s+(?:no|not|none|nothing)\b)|\b(?:is|are)\s+(?:seen|present|"
                          # a hostile review of 5f68aa0: "The left clavicle is fractured at its midshaft", "The common
                          # bile duct measures 11 mm, which is dilated."
                          r"visible|disrupted|noted|identified|fractured|dilated|enlarged|displaced|thickened)\b"
                          r"|\bshows?\b(?!\s+no\b)|\bcross(?:es|ing)\b")


def _denied_there_then_found(text: str) -> bool:
    """An opening denial limited to a place or a view, then another sentence that states a finding."""
    first = SENTENCE_END.search(text)
    clause = _FIRST_CLAUSE.match(text)
    return first is not None and clause is not None and _LIMITED.search(clause.group(0)) is not None \
        and _FOUND_AFTER.search(text, first.end()) is not None


def _denied_qualified_then_found(text: str, question: str) -> bool:
    """An opening denial of a kind of the finding asked about, then the finding stated of another kind ("No evidence
    of a displaced fracture; there is an undisplaced hairline fracture." to "Is there a fracture?")."""
    clause = _FIRST_CLAUSE.match(text)
    terms = asked_terms(question)
    if clause is None or not terms:
        return False
    words = re.findall(r"[^\W\d_][\w\-]*", clause.group(0).casefold())
    at = next((i for i, w in enumerate(words) if any(_stem_is(w, x) for x in terms)), None)
    if at is None or not set(words[1:at]) - _NOT_A_KIND:
        return False  # the finding itself denied ("No evidence of a fracture")
    return any(_FOUND_AFTER.search(c) and any(_stem_is(w, x) for w in re.findall(r"[^\W\d_][\w\-]*", c.casefold())
                                              for x in terms)
               for c in re.split(r"[.;!?\n]", text[clause.end():]))


# the words between an opening "no" and the finding that do not name a kind of it
_NOT_A_KIND = frozenset({"evidence", "of", "a", "an", "any", "the", "sign", "signs", "definite", "obvious", "visible",
                         "clear", "convincing", "significant", "radiographic", "suggestion", "finding", "findings"})


def _stem_is(word: str, term: str) -> bool:
    """Whether a reply's word is the question's term (stems compared)."""
    return overlap.stem(word) == term


def _subject_after_denial(text: str, question: str) -> bool:
    """An opening denial of something else, then a sentence that says the image is what the question asks ("No image
    artefact. This is a longitudinal ultrasound of the right kidney." to "Is this an ultrasound image?")."""
    if PRESENCE_QUESTION.search(question):
        return False  # what the image is, not whether a finding is there ("No renal mass. The left kidney has ...")
    first = SENTENCE_END.search(text)
    rest = text[first.end():].strip() if first is not None else ""
    return bool(rest) and answer_from_subject(rest, question) == "yes"


def _sign_denied_then_another(text: str, question: str) -> bool:
    """An opening denial of one sign of the finding asked about, then another of its signs, or the finding itself,
    stated undenied in a later sentence ("No cortical step. A lucent line crosses the distal radius." to "Is there a
    fracture?")."""
    first = SENTENCE_END.search(text)
    if first is None:
        return False
    q = question.casefold()
    for finding, signs in SIGNS_OF.items():
        if finding not in q:
            continue
        opening = text[:first.start()].casefold()
        if any(re.search(r"\b" + re.escape(x) + r"\b", opening) for x in signs):
            for clause in re.split(r"[.;!?\n,]", text[first.end():]):
                # review 96: or the finding itself ("No lucency around the screws; there is a new fracture of the
                # greater trochanter.")
                if not CLAUSE_NEGATION.search(clause) and (
                        any(re.search(r"(?i)\b" + re.escape(x) + r"\b", clause) for x in signs)
                        or re.search(r"(?i)\b" + re.escape(finding), clause)):
                    return True
    return False


# a side a clause places what it says on ("none on the right", "large on the left", "left-sided", "R none, L
# large"), what denies or clears it there, and the words that say something is there
_SIDE_WORD = re.compile(r"(?i)\b(left|right)\b|(?-i:\b([RL])\b)")
_SIDE_CLAUSES = re.compile(r"[,;.!?\n|()\u2013\u2014]|\s-\s|\b(?:but|while|whereas|although|though)\b", re.IGNORECASE)
_TABLE_RULE = re.compile(r"\s*\|?[\s:\-|]+\Z")
# a piece that is only a side, split from its result by a dash or a bracket ("Right — none", "Effusion (right): none")
_SIDE_ONLY = re.compile(r"(?i)\A\W*(?:on[ \t]+the[ \t]+)?(?:left|right|(?-i:[RL]))(?:[ \t]+side)?\W*\Z")
_SIDE_DENIED = re.compile(r"(?i)\b(?:no|none|not|nil|absent|without|clear|normal|negative|free|unremarkable|"
                          r"resolved|sharp)\b|n't\b")
_SIDE_THERE = re.compile(r"(?i)\b(?:small|moderate|large|massive|mild|trace|tiny|big|present|seen|noted|visible|"
                         r"persists?|persistent|yes|positive|blunted|blunting|loculated|layering|severe|extensive|marked)\b")
# a side of the screen, not of the patient ("on the viewer's right side of the screen": held-out batches 131, 133)
_SIDE_OF_THE_VIEW = re.compile(r"(?i)\b(?:viewer|screen|convention|displayed|display|appears?|monitor|image's|"
                               r"patient's)\b")
# ... nor the question, echoed ("So the answer to \"is the mass on the right side of the brain?\" is no")
_SIDE_ASKED = re.compile(r"(?i)\b(?:answer[ \t]+to|question|asked|asks)\b|\A\W*(?:is|are|does|do|was|were|has|have)\b")
# ... or says the side cannot be judged ("the left side is obscured", "the right base is not included")
_SIDE_UNSEEN = re.compile(r"(?i)\b(?:obscured|hidden|not[ \t]+(?:well[ \t]+)?(?:seen|visuali[sz]ed|assess(?:ed|able)|"
                          r"included|evaluable|imaged)|cut[ \t]+off|excluded|"
                          r"out[ \t]+of[ \t]+(?:the[ \t]+)?(?:field|view)|"
                          r"(?:can(?:no|')t|unable[ \t]+to)[ \t]+(?:be[ \t]+)?(?:assess|judge|evaluat|see|seen)\w*)")


def _side_clauses(text: str, asked: AbstractSet[str]) -> Iterator[str]:
    """The reply's clauses for :func:`_side_against`; a table row that names one side in a cell of its own is one
    clause ("| Right | none |", "| Left pleura | moderate effusion |"), a row of a table with a column per side is
    one clause a side ("| Finding | Right | Left |" over "| Pleural effusion | none | moderate |"), and a side split
    from its result by a dash, a bracket or a comma goes with the piece after it ("Right — none", "Effusion (right):
    none", "left apical, small"), so the side and its result stay together."""
    columns: dict[int, str] = {}  # a table's columns headed by a side ("| Finding | Right | Left |")
    for line in text.splitlines():
        if "|" not in line:
            columns = {}
        else:
            row = [c.strip() for c in line.strip().strip("|").split("|")]  # (empty cells kept: the columns hold)
            if columns and not _TABLE_RULE.match(line):
                # (only a row of the finding asked, nothing else: not "Pleural thickening", "Effusion (prior)")
                if (stems := finding_stems(row[0])) and stems <= asked:
                    yield from (f"{row[0]} {side} {row[i]}" for i, side in columns.items() if 0 < i < len(row))
                continue
            heads = {i: _side_of(m) for i, c in enumerate(row) if _SIDE_ONLY.match(c.strip("*_ "))
                     and (m := _SIDE_WORD.search(c)) is not None}
            if len(heads) == 2 and len(set(heads.values())) == 2 and 0 not in heads:
                columns = heads
                continue
            cells = [c for c in row if c]
            named = [{_side_of(m) for m in _SIDE_WORD.finditer(c)} for c in cells]
            if any(_SIDE_ONLY.match(c.strip("*_ ")) for c in cells) or (
                    len(cells) <= 3 and sum(bool(n) for n in named) == 1 and max(len(n) for n in named) == 1):
                yield " ".join(cells)
                continue
        carried = ""
        for piece in _SIDE_CLAUSES.split(line):
            if _SIDE_ONLY.match(piece):
                carried += piece + " "
                continue
            if carried and (_SIDE_ONLY.match(carried) or not _SIDE_WORD.search(piece)):
                yield carried + piece  # "Right — none"; "left apical, small": a side, where, then its result
                carried = ""
                continue
            if carried:
                yield carried
            carried = ""
            if _SIDE_WORD.search(piece) and not (_SIDE_DENIED.search(piece) or _SIDE_THERE.search(piece)):
                carried = piece + " "
                continue
            yield piece
        if carried:
            yield carried


# the stems of what such a clause may hold besides the finding asked ("large on the left", "small left effusion", "a
# small one", "Left lung: moderate effusion")
_SIDE_FILLER = frozenset(finding_stems("small moderate large massive mild trace tiny big present seen noted visible "
                                       "persist persists persistent left right side sided again also still only one "
                                       "yes positive blunted blunting loculated layering severe extensive marked "
                                       "amount volume bit rim lung "
                                       "hemithorax base apex apical basal zone chest"))


def _side_of(match: re.Match[str]) -> str:
    """"left" or "right", from the word or its letter ("R none, L large")."""
    side = (match.group(1) or match.group(2)).casefold()
    return {"l": "left", "r": "right"}.get(side, side)


def _side_against(text: str, item: Item, label: str | None) -> bool:
    """Yes/no items: whether the reply gives the finding a different result on each side, against the reading
    ("| Pleural effusion | none on the right, large on the left |" read no to "Is there a pleural effusion?" or to
    "... a left pleural effusion?": the older near misses of the reviews). Where the question names no side, a
    finding on one side is a yes, so a "no" is in doubt; where it names one, a reading against what the reply says on
    that side is. A clause that names one side counts: denied there ("none", "clear", "no ..."; a denial after what it
    says is there, "moderate effusion that is not loculated", denies something else), or there ("large", "present", the
    finding asked named) where it names the finding asked or no other finding."""
    question = item.question
    if item.kind != "yesno" or not item.aliases or label is None or not question:
        return False
    asked = asked_stems(question)
    denied: set[str] = set()
    there: set[str] = set()
    unseen: set[str] = set()
    stated: set[str] = set()
    for clause in _side_clauses(text, asked):
        sides = {_side_of(m) for m in _SIDE_WORD.finditer(clause)}
        if len(sides) != 1 or _SIDE_OF_THE_VIEW.search(clause) or _SIDE_ASKED.search(clause):
            continue
        stems = finding_stems(clause)
        no = _SIDE_DENIED.search(clause)
        yes = _SIDE_THERE.search(clause)
        named = bool(stems & asked)
        if _SIDE_UNSEEN.search(clause):
            unseen |= sides
        elif no and not (yes and yes.start() < no.start()):
            denied |= sides
        elif yes and (named or not stems - asked - _SIDE_FILLER):
            there |= sides
            if named:
                stated |= sides  # "| Left pleura | moderate effusion |": the finding asked, there, by name
        elif not no and asked <= stems:
            there |= sides  # "Left wrist: distal radius fracture.": all the finding asked, named and not denied
            stated |= sides
    named_sides = {_side_of(m) for m in _SIDE_WORD.finditer(question)}
    if not named_sides and label == item.aliases["nope"] and denied and unseen - denied:
        return True  # "There is no effusion on the right, the left side is obscured.": one side not judged
    if not denied or not there or denied == there:
        return False
    if not named_sides:  # (a side also called clear elsewhere, "| Left lung | clear |", still has what it names)
        return label == item.aliases["nope"] and bool((there - denied) | stated)
    if len(named_sides) != 1:
        return False
    side = next(iter(named_sides))
    says = "nope" if side in denied and side not in there else "yep" if side in there and side not in denied else None
    return says is not None and label != item.aliases[says]


def _another_side(text: str, question: str) -> bool:
    """Whether the reply's first clause places what it denies on a side or level the question does not name ("No
    blunting on the left; the right costophrenic angle is blunted ..." to "Is there a pleural effusion?")."""
    clause = _FIRST_CLAUSE.match(text)
    return clause is not None and names_another_place(clause.group(0), question)


# "Yes, the film is adequately inspired ...": what follows a yes/no word and a mark, to the end of its sentence
_WORD_THEN_CLAUSE = r"[ \t]*[,;:\u2013\u2014\-][ \t]*((?:[^.;!?\n]|\.(?=\d))*)"
# ... or with no mark between ("so yes there is a pneumothorax")
_WORD_THEN_ANY_CLAUSE = r"[ \t]*[,;:\u2013\u2014\-]?[ \t]*((?:[^.;!?\n]|\.(?=\d))*)"
# words that keep a clause about what was asked ("Yes, there is.", "No, it isn't.")
_ABOUT_THE_ASKED = frozenset("it its it's there there's this that these those one they both confident sure certain "
                             "confidence certainly definitely".split())
# a clause that opens by giving the answer's reason ("I said yes, but only because the surface is nodular.")
_REASON_OPENS = frozenset("because since given due".split())


def _word_about_another(text: str, item: Item, label: str | None) -> bool:
    """Yes/no items, a reading from a yes or no met inside the reply (not opening it): each time the word is said,
    a clause of three words or more follows it that names nothing the question asks ("- No pleural effusions.\nYes,
    the film is adequately inspired, with 10 posterior ribs visible." to "Is the heart enlarged?", "Yes, I'd still
    get a scaphoid series": hostile review of batch 91's rules): the word may answer another question."""
    if item.kind != "yesno" or not item.question or label is None:
        return False
    asked = asked_stems(item.question) | set(asked_terms(item.question)) | set(question_words(item.question))
    said = False
    for clause in _clauses_after(text, item, label):
        words = re.findall(r"[^\W\d_][\w\-']*", clause)
        # what its words imply ("the cardiothoracic ratio is well above 0.5" speaks of the heart)
        words += [x for w in words for x in overlap.IMPLIED_CONTEXT.get(w.casefold(), ())]
        if len(words) < 3 or {w.casefold() for w in words} & _ABOUT_THE_ASKED \
                or {w.casefold() for w in words[:3]} & _REASON_OPENS or any(overlap.stem(w) in asked for w in words) \
                or _names_the_question(words, item) or not another_finding(clause, asked):
            return False
        said = True
    return said


#: a probability of the finding this close to even names no answer ("Malignancy probability: 0.5")
_EVEN_ODDS = 0.1
#: a confidence the reply states in its own answer at or below this is a guess, as "Confidence: low" is (a black-box
#: check of 2026-12-06, rev33: "Answer: B (confidence 10%)", "No. I'd put my confidence at about 20 percent." and
#: "B — confidence: 2/10" read sure)
LOW_CONFIDENCE = 0.5


# a range of values with its unit ("9-12 mm", "0.8 to 1.2 cm", "between 0.5 and 1.5 cm"): a reader check of 2026-12-06
# found seven read surely as the option holding one end
_RANGE = re.compile(r"(?i)(?P<a>\d+(?:[.,]\d+)?)[ \t]*(?:mm|cm)?[ \t]*(?:[\-\u2013\u2014]|to|and)[ \t]*"
                    r"(?P<b>\d+(?:[.,]\d+)?)[ \t]*(?P<unit>mm|cm)\b")
# the findings a "present" may name besides the one asked: distinct diagnoses, not signs ("Yes, blunted costophrenic
# angle.", "Yes, free fluid." stay sure: a review of the first draft)
_DISTINCT_FINDINGS = frozenset(overlap.stem(w) for w in "pneumothorax effusion cardiomegaly atelectasis fracture "
                               "ascites hemorrhage haemorrhage consolidation edema oedema hepatomegaly splenomegaly "
                               "nodule mass cyst hydronephrosis".split())


# the stems of the words that say a finding is there, which a reply and a question about another finding share
_PRESENCE_STEMS = frozenset(finding_stems("present presence seen visible evident identified detected noted observed "
                                          "there yes"))


# a share in brackets ("(40%)", "(0.35)")
_BRACKETED_SHARE = re.compile(r"\([ \t]*(?:~|≈|about[ \t]+)?(?P<n>\d{1,3}(?:\.\d+)?)[ \t]*%[ \t]*\)")


def _no_share_ahead(text: str) -> bool:
    """Whether the reply gives shares in brackets to two or more answers and none reaches half ("Most likely: B (40%).
    Next: C (35%).", a black-box check of 2026-12-06): ahead, but not beyond doubt."""
    shares = [float(m.group("n")) for m in _BRACKETED_SHARE.finditer(text[:6000])]
    return len(shares) >= 2 and max(shares) <= 50


# a black-box check of 2026-12-06 (rev34): a study called normal except for a finding ("Normal radiograph apart from a
# subtle distal radius fracture." read no to "Is there a fracture?", "Normal study except for a small right apical
# pneumothorax." read "Normal study", "Heart size would be normal were it not for the mild enlargement ...": 27 read
# sure): the exception is the finding
_EXCEPT = re.compile(r"(?i)\b(?:except(?:[ \t]+for)?|apart[ \t]+from|aside[ \t]+from|other[ \t]+than|besides|"
                     r"save[ \t]+for|but[ \t]+for(?![ \t]+(?:the[ \t]+)?(?:question|purposes?|record|now|"
                     r"completeness))|were[ \t]+it[ \t]+not[ \t]+for|if[ \t]+not[ \t]+for|"
                     r"had[ \t]+it[ \t]+not[ \t]+been[ \t]+for|with[ \t]+the[ \t]+exception[ \t]+of)\b"
                     r"(?P<what>[^.;!?\n]{1,120})")
# an option that says nothing is found ("Normal study", "None of the above", "Neither hip", "No fracture")
_NOTHING_FOUND = re.compile(r"(?i)\A\W*(?:normal|none|neither|no|nothing|unremarkable)\b")
_ANY_ABNORMALITY = re.compile(r"(?i)\babnormal|\bany\s+(?:signs?|findings?|lesions?|pathology)\b")
#: a reply longer than this weighs exceptions of its own in its findings ("... homogeneous apart from a small wedge of
#: lower density ..., focal fatty infiltration", "But for the question as asked, the answer is no", read from the
#: corpus)
_EXCEPT_WORDS = 40


def _normal_except(text: str, item: Item, label: str | None) -> bool:
    """Whether the reading says nothing is found (a yes/no item's no; an option "Normal ...", "None ...", "Neither
    ...") where the reply makes an exception that names a finding: of what is asked, for a yes/no question (any, to
    "any abnormality?")."""
    if label is None or len(text.split()) > _EXCEPT_WORDS:
        return False
    if item.kind == "yesno":
        if not item.aliases or label != item.aliases["nope"]:
            return False
        asked = asked_stems(item.question)
        return any((said := finding_stems(m.group("what"))) and (
            said & asked or _ANY_ABNORMALITY.search(item.question) or not another_finding(m.group("what"), asked))
            for m in _EXCEPT.finditer(text))
    words = item.option_text(label) if item.kind == "choice" else label
    return bool(words and _NOTHING_FOUND.match(words) and any(finding_stems(m.group("what"))
                                                              for m in _EXCEPT.finditer(text)))


# a black-box check of 2026-12-06 (rev34): a ranked differential on one line ("Differential: 1. Pneumonia 2. Atelectasis
# 3. Pleural effusion", "DDx: 1. Osteosarcoma 2. Ewing sarcoma 3. Osteomyelitis"), read as its last entry, sure
_RANKED = re.compile(r"(?i)\b(?:differential(?:[ \t]+diagnos[ie]s)?|ddx|top[ \t]+\d|ranked)\b[^\n\d]{0,20}?"
                     r"\b1[.)][ \t]*(?P<first>[^\n]{1,80}?)[ \t,;]*\b2[.)]")


def _not_ranked_first(text: str, item: Item, label: str | None) -> bool:
    """Whether the reply ranks a differential and ``label`` is not its first entry (the favourite)."""
    m = _RANKED.search(text[:3000])
    if m is None or label is None:
        return False
    return read_alone(m.group("first"), item).choice != label


# a black-box check of 2026-12-06 (rev34): a finding named as gone, or of an earlier study ("The right lower lobe
# consolidation has resolved.", "The left renal mass has been resected.", "Previously enlarged, now normal.", read yes,
# sure): the finding named is not there now
#: a longer reply says what has gone of other things ("... the rim of thrombus that was there before has largely
#: disappeared", "the sac has gone from 2.1 cm to 2.9 cm", read from the corpus)
_GONE_WORDS = 25
_GONE = re.compile(r"(?i)\b(?:has|have|had)[ \t]+(?:[\w\-]+[ \t]+){0,2}?(?:resolved|cleared|regressed|disappeared|"
                   r"been[ \t]+(?:resected|removed|reduced|drained|excised|evacuated|treated))\b|"
                   r"\bnow[ \t]+(?:(?:\w+[ \t]+){0,2}?normal|resolved|gone|absent|reduced)\b|"
                   r"\bno[ \t]+longer[ \t]+(?:present|seen|visible|there|evident|identified|apparent|detectable|"
                   r"enlarged|dilated|displaced)\b")


# a black-box check of 2026-12-06 (rev34): a denial scoped by a qualifier, then the finding itself ("No tension
# pneumothorax. Small right apical pneumothorax.", "No large effusion; small bilateral effusions.", "No acute
# abnormality; there is an old left MCA infarct.", read no, sure)
_SCOPED_NO = re.compile(r"(?i)\A\W*no[ \t]+(?:tension|large(?:[\- ]volume)?|significant|acute|new|gross|sizeable|"
                        r"substantial|major|massive|frank|definite|obvious|displaced)\b[^.;!?\n]*[.;,!\n]")


def _scoped_denial(text: str, item: Item, label: str | None) -> bool:
    """Whether a yes/no reply's no opens with a denial a qualifier scopes, and a later clause names what is asked
    (any finding, to "any abnormality?") without a negation."""
    if item.kind != "yesno" or not item.aliases or label != item.aliases["nope"] or len(text) > 1500:
        return False
    m = _SCOPED_NO.match(text)
    if m is None:
        return False
    asked = asked_stems(item.question)
    return any((said := finding_stems(clause)) and not CLAUSE_NEGATION.search(clause) and (
        said & asked or _ANY_ABNORMALITY.search(item.question))
        for clause in re.split(r"[.;,!?\n]", text[m.end():]))


# a black-box check of 2026-12-06 (rev34): a count given in parts ("Two upper and two lower wisdom teeth.", "2 in the
# maxilla, 2 in the mandible.", "Two wisdom teeth on each side.", read 2 of options 0/2/3/4, sure): the total is a sum
# (not a step's, a question's or a heading's number: "### Step 4 — count\nTwo wisdom teeth, both in the mandible.")
_COUNT_WORD = re.compile(r"(?i)(?<![\w.\-#])(?<!step )(?<!question )(?<!part )(?<!q)(?:\d+|"
                         + "|".join(NUMBER_WORDS) + r")(?![\w\-]|\.\d)")
_PART_NAMED = re.compile(r"(?i)\b(?:left|right|upper|lower|top|bottom|maxill\w*|mandib\w*|side|jaw|each|both)\b")
_PER_PART = re.compile(r"(?i)\b(?:each|per|either)[ \t]+(?:side|jaw|quadrant|arch|half|lung|kidney)\b")


def _count_in_parts(text: str, item: Item, label: str | None) -> bool:
    """Whether a reply to a question whose options are all counts gives two counts or more, or one per part, and does
    not state the count read as the total ("4 — all four third molars are present, two in the maxilla and two in the
    mandible.", "i see two lower wisdom teeth and one upper on the right, ..., so 3": the corpus)."""
    if item.kind != "choice" or not item.options or not all(o.strip().isdigit() for o in item.options) \
            or len(text) > 1500 or label is None:
        return False
    value = int((item.option_text(label) or "-1").strip())
    said = rf"(?:{value}|{NUMBER_WORDS[value]})" if 0 <= value < len(NUMBER_WORDS) else rf"{value}"
    if re.search(rf"(?i)(?:\bso[ \t]+|=[ \t]*|\btotal(?:[ \t]+of)?[ \t:]*|\ball[ \t]+|\banswer\W*|"
                 rf"\b[A-E][.)][ \t]*|\bcount\W*){said}\b|\b{said}[ \t]+in[ \t]+(?:total|all)\b", text):
        return False
    if _PER_PART.search(text):
        return True
    if re.match(rf"(?i)[\W_]*{said}(?=[ \t]*(?:[,.:;\n\u2014\u2013\-]|\Z))", text):
        return False  # ("4 — all four third molars ..., two in the maxilla and two in the mandible.")
    # ("there are 4 wisdom teeth, two upper and two lower": the count and its noun in a clause that names no part;
    # not "The right side has 2 wisdom teeth and the left side has 2.")
    for m in re.finditer(rf"(?i)\b{said}[ \t]+(?:wisdom[ \t]+teeth|third[ \t]+molars|teeth|molars)\b", text):
        start = max(text.rfind(c, 0, m.start()) for c in ",;.:\n\u2014") + 1
        ends = [i for i in (text.find(c, m.end()) for c in ",;.:\n\u2014") if i >= 0]
        if not _PART_NAMED.search(text[start:min(ends, default=len(text))]):
            return False
    boths = len(re.findall(r"(?i)\bboth\b", text))  # ("both upper and both lower"; not "Two, both in the mandible")
    return len(_COUNT_WORD.findall(text)) + (boths if boths > 1 else 0) > 1


def _range_across(text: str, item: Item) -> bool:
    """A value read from a range whose two ends, each with the unit, read as two different options."""
    for m in _RANGE.finditer(text):
        ends = {read_alone(f"{m.group(n)} {m.group('unit')}", item).choice for n in ("a", "b")}
        if len(ends) > 1:
            return True
    return False


def _only_another_finding(text: str, item: Item) -> bool:
    """A reader check of 2026-12-06: a short yes read from "present" to a question whether a finding is present, in a
    reply that names another distinct finding and not the one asked ("Cardiomegaly is present.", "Free air present."
    to "Is pleural effusion present?", read yes, sure); not to a question about any abnormality ("Does this CT show
    any abnormality of the brain?")."""
    if len(text.split()) > SUBJECT_WORDS or not PRESENCE_QUESTION.search(item.question) \
            or re.search(r"(?i)\babnormal|\bany\s+(?:signs?|findings?|lesions?)\b", item.question):
        return False
    said = finding_stems(text) - _PRESENCE_STEMS
    return bool(said & _DISTINCT_FINDINGS) and not said & (asked_stems(item.question) - _PRESENCE_STEMS)


def _odds_against(text: str, item: Item, label: str) -> bool:
    """Whether the odds the reply gives of the finding itself (:func:`confidence.finding_odds`) are even, or, on a
    yes/no item, point the other way from ``label`` ("No. Confidence that a pleural effusion is present: 0.9.")."""
    odds = finding_odds(text)
    if odds is None:
        return False
    x, present = odds
    if abs(x - 0.5) <= _EVEN_ODDS:
        return True
    return present and item.kind == "yesno" and label in ("yes", "no") and (label == "yes") != (x > 0.5)


def is_sure(text: str, item: Item, method: str, label: str | None = None, *, refusal: bool = False) -> bool:
    """Whether the reading ``label`` of ``text`` by ``method`` is sure (module doc)."""
    return label is not None and method in SURE_METHODS and not doubts(text, item, method, label, refusal=refusal)
