"""Reading a model's reply: which option / label it chose, whether it refused, and the legacy parsers.

Why this module exists: published medical-VLM scores depend as much on how the raw reply is parsed as on the
model. The robust default (:func:`extract`) follows docs/reference.md §3 and avoids the known traps (lmms-eval #1434:
a first-capital-letter regex reads "The correct answer is (B)" as "T", "Based on the image, A" as "B", and the
article in "A fracture is visible" as option A). The legacy modes (each benchmark's ``legacy.py``,
:func:`probe_ui.benchmarks.legacy_modes`) reproduce the original
benchmarks' parsers quirk for quirk, so published numbers can be recomputed from raw replies.

This module is the reader's public face (:class:`Answer`, :func:`extract`, :func:`extract_legacy`,
:func:`is_correct`, :func:`parser_version`, :func:`cache_row`) and its rule order (below); each rule lives in a
module of :mod:`probe_ui.reading` with one job (its docstring lists them).

The raw text is always logged by the caller; an :class:`Answer` records the parsed label, the rule that decided
(``method``), ``invalid`` as its own class, and the refusal flag, which is independent of the choice.

Before any rule: typographic quotes and full-width forms are folded (NFKC: "（B）" is "(B)"); chat-template tokens
("</s>", "<|im_end|>", "<end_of_turn>", a leading "ASSISTANT:") are dropped, and after a closed ``<think>`` block
only what follows it is read; markdown emphasis and headings are dropped; MediConfusion's primed completions of its
prompt's '#answer: ("' are rewritten to the
bracketed letter ('("A")', 'A")', 'B": <option text>)', '#answer: ("B")' → "(A)", "(B)"); "N/A", "n/a", "N.A."
become "not applicable", so they are never option A (unless an option's own text is N/A).

Robust rules, in order (the first that decides wins):

0. empty / whitespace → invalid ("empty"); a reply that *is* one label (case-insensitive, surrounding
   punctuation/markdown ignored: "B", "(B)", "B.", "**B**", "b", "Yes.", "Upside down"; for yes/no items also
   "Nope"/"Yep"/"Yeah", "Affirmative"/"Negative", "Correct"/"Incorrect", "That's right") → that label ("exact").
1a. the reply's final verdict after its last self-correction ("Wait", "Actually", "On second thought", "Changing my
   answer to", "Sorry, I meant B", "Apologies, I meant A", "My mistake", "Edit:", ...): what follows it, read by
   these rules, decides ("final_verdict"; its closing sentence when that is a lone label or opens with one as its
   answer: "... Yes, there is a pneumothorax."); a doubt after it that names another answer is "ambiguous", one
   that names none takes the answer back ("withdrawn").
1. the LAST explicit declaration ("answer is X", "Answer: X", "The correct answer is: X", "correct option is
   (X)", "I choose X", "Final answer: X", "**Answer: B**", "<answer>X</answer>", a JSON field ``{"answer":
   "X"}``, "X is the correct answer", "<option text> is the most likely diagnosis", "The most likely diagnosis
   is X", "..., so X." ending its sentence, "Respuesta: X" / "Die richtige Antwort ist X" / "答案是 X"; for label
   items "<label> [dot] is the closest" with the question's own superlative) → "declaration". X may be a letter
   in any of the forms ``X (X) X) X. X:``, an option's text, or a label word. A lowercase letter counts when it
   cannot be a word ("answer is b", "Answer: (b)", but not "answer is a fracture"); "A"/"I" followed by an
   ordinary word on the same line are the article/pronoun (a line break after the letter ends it: "Answer:
   A\n\nExplanation: ..." is A). "The answer is not B" declares nothing. A conditional declaration inside an
   if/unless sentence is a hypothesis and is skipped ("B would be correct only if the sac had grown", "If it
   were stable, the answer would be A"; not "If I had to choose, I would say B"). A declared "N/A" ("Answer:
   N/A") makes the reply invalid ("not_applicable") whatever words follow. Someone else's answer ("The
   physician's answer B: ... is wrong", "the suggested answer", "your answer") is no declaration unless the reply
   endorses it ("... is correct", "I agree with the physician's answer B"); a letter followed by another option's
   text ("The answer is A: Pleural effusion" when that is B) is "ambiguous", and so is a declared letter when the
   reply opens with another option's own short text ("Yes, the answer is A." where A is "No"). A declaration in
   Spanish, French, German or Chinese gives "language".
   Weak cues ("it is X", "I think X", "Probably X." / "Most likely X." opening a sentence, "my best guess is
   X", "leaning towards X") count only when they name a valid option, and only after rules 2 and 3b.
   1b. A long reply (a systematic review, a differential) with no declaration is read under its closing heading
   ("### Conclusion", "### Answer", "**Impression:**" on a line of its own: :func:`structured.conclusion_section`)
   → "final_verdict", where that section alone is read sure, names what the question asks and no other option, and
   nothing in the reply revises it (batch 90).
2. ``\boxed{X}`` (the last one) → "boxed", then backticked answers → "backtick" (two different → "ambiguous").
3. choice items:
   a. a reply that is exactly one option's text → "option_text";
   b. the first line is the answer letter ("(B)", "B.", "B: <text>", "A, though ...", "(C) 3") and the rest
      explains it, whatever other options the explanation names ("(B)\n\nExplanation: (A) would ..."), or the
      last line is a lone letter after an explanation or an echoed option list → "leading" ("bare" when no other
      letter occurs). Not when the first line names a second letter ("A, B"), when the next line continues an
      echoed option list ("(B) <B's text>", "(B) aggravating"), for abbreviations ("E. coli"), or when the
      first and last lines disagree ("ambiguous");
   c. lone letter tokens ``(X)``, a line starting with ``X.``/``X:``/``X)``/``X,`` or holding only ``X``, a
      final ``, X`` / ``! X`` at the end of the reply, "option X", ". X:" in an echoed option list, "X or Y" →
      "bare"; two different labels → "ambiguous". Uppercase only; "I" only as "(I)"/"option I". Letters inside
      a skipped hypothesis do not count.
   yes/no and label items: a leading label ("No, there is ...", "Red.", "Nope, MRI.") → "leading" ("Yes and
   no" is not), then whole-word match of exactly one label → "label_word" (phrases as phrases, "correctly"
   counts as "correct", "correct" inside "incorrect" does not, negated mentions such as "not upside down" are
   dropped for label items); two → "ambiguous".
4. choice items: a reply that contains exactly one option's text → "option_text_contained" (only when no option
   text contains another, and not after a negation such as "no"/"without"); else a short reply (at most 8
   words) that is the start of exactly one option's text ("No effacement.") or uses a word only one option has
   ("Aggravating.", "The pseudoaneurysm is stable.", "Metastases." for "Metastatic carcinoma"; with two options
   "Not stable." names the other) → "option_keyword" (not for refusals).
4d. choice items: an option named by its concepts (:mod:`probe_ui.reading.overlap`: "Broken kneecap." for
   "Patellar fracture", "IIH", "a stone in the common bile duct" for choledocholithiasis) → "option_words"; every
   option but one rejected ("Not a pseudocyst, not an adenocarcinoma, not an IPMN.") → that one, "negated_option";
   two options yes/no or present/absent → the reply read as a yes/no reply to the question.
5. yes/no items whose question asks about the presence of a finding (``extract(..., question=...)``; ProbMed's
   "Is <finding> present in ...?", "Does this ... show any abnormality?", "Is there a lesion ...?", not
   "Is this a CT scan?" nor "Is this image contrast-enhanced?"), when the reply has no yes/no word:
   ProbMed-style negatives ("Not present.", "None seen.", "Absent", "Unremarkable", "Normal study",
   "Negative", "I do not see ...", "Not in the left lung.", a "not" denying a word of the question: "on the
   right, not the left" to "... in the left lung?") → no; affirmations ("Present.", "Visible.", "There is a
   lesion ...", "Abnormal: ..." when the question asks about an abnormality) → yes ("presence"). A negative is
   never read as yes; a reply with both, or that hedges ("possibly", "may", "not sure", "cannot tell
   whether"), or a refusal, is not read; "normal"/"negative" count only when the question does not use the
   word itself; a finding stated without the side, lobe or level the question asks ("There is consolidation." to
   "... in the right lower lobe?") is no yes (batch 21). Without the question, or for any other question, these
   replies stay invalid.
6. yes/no items, when nothing above decided and the question is known: the question's subject
   (:mod:`probe_ui.reading.subject`): the reply's modality, contrast, plane, projection, side, body region, age
   group or sex compared with what the question asks ("This is a CT scan." to "Is this an MRI?" is no;
   "Contrast-enhanced."), and for "Is the <organ> <adjective>?" the reply's statement of it ("The spleen is not
   enlarged.", "Normal spleen size.") → "question_subject".
7. nothing read: the reply again with the answer words of other languages in English (:func:`lexicon.translate`:
   "Sí, se observa ...", "是的", "No es rojo, es azul") and option and label texts in canonical form
   (:func:`synonyms.canonical`: "Shingles" is herpes zoster, "paediatric" is pediatric, "PE" is pulmonary embolism,
   "both sides" is bilateral) → "language" or "synonym".

Also (issue 21, second round): for choice items a closing sentence that states the verdict ("Therefore the nodule is
cystic.", "Impression: ...", "... -> A.", a short last sentence "Neonate.") decides before earlier mentions
("final_verdict"); a declaration followed by another answer ("3 or 4", "A/B", "A, B", "Yes (A)" when A is "No"), an
escape option stated beside another answer, and a suggestion endorsed beside another declared letter are
"ambiguous"; a yes/no word that answers the reply's own restatement ("No, this scan is not normal" to "... any
abnormality?") gives "restated"; a reading by mention is checked against the reply read in English and canonical
terms ("Sí y no" is ambiguous).

Also (issue 21): for yes/no and label items a conclusion that ends in a label ("..., so yes.", "...: yes.") or a
closing sentence that is only a label is the final verdict ("final_verdict"); two sentences that are each a
different label ("Yes. No.") are "ambiguous"; idioms with "no" ("No doubt, ...", "There is no question that ...")
are not the word no; labels in a question ("Upside down? No, it's correct.") or after "maybe" are not said; a label
rejected after it ("Blue is not the closest; red is.") is dropped, and with two labels denying one names the other
("Not inverted.", "negated_option"). For choice items, letters the reply rejects or only weighs are masked before
lone letters are read ("Not A, but B.", "Between A and B, B.", "A or B? B.", "A and B can be excluded; C fits
best."); an escape option (None of the above, Not a suitable question for the image, an incorrect clinical
premise, Unknown) is read from the reply's own words ("escape_option"), and a reply that says no option fits
names none; a reply that agrees with a MedVH suggestion ("The physician's answer is correct.") names the suggested
letter (``suggested=``, "agrees_with_suggestion"). A reading from a mere mention (lone letters, option texts,
label words) is "ambiguous" when the reply only entertains it beside another ("Green, though it might be red.",
"It looks correct, but I'm not sure it isn't upside down."), is "truncated" when the reply stops mid-sentence
("... Option C: Pulmonary edema. This would"), and is not read when the reply speaks about the topic in general
("Melanoma is the most dangerous skin cancer."). :mod:`probe_ui.reading.methods` says what each method means.

Also (issue 46, held-out batch 7): a yes and a no both stated as the answer ("Yes, there is a pleural effusion. No,
the costophrenic angles are clear.", "Yes. No pneumothorax is seen.": an answer word opening its clause, or a
sentence opening by denying what the question asks) are "ambiguous"; a closing declaration or verdict that the
reply's own body argues against ("... classic for cardiogenic pulmonary edema. Answer: A" when A is pneumonia;
:mod:`probe_ui.reading.closings`) is "ambiguous"; a yes/no or label word read from a mention in a reply cut off
mid-sentence is "truncated" (as choice replies already were); "non-" denies the word after it ("Non-malignant."
of Benign / Malignant is Benign) and an option's own "Non-X" is X's opposite; a short question the reply answers at
once ("Proliferative? No.") is read as a statement; a "No" that opens a refusal ("No, I can't tell from this
image") is not the answer no.

Also (issue 46, held-out batch 8): declines in other words are refusals (:mod:`probe_ui.reading.refusals`: "the
resolution doesn't allow", "insufficient image quality", "not in a position to", "I won't guess", "I'd rather not
weigh in", "can't be judged from this view"), and so is an image blamed before a guess ("Image too dark to read
properly; my best guess is blue."), while "I can't be certain from this image, but ..." is a hedge; a "No" that opens
a noun phrase in a refusal ("No side marker is visible, so I can't say ...") is not the answer no unless it denies
what the question asks; "looks like B" is a weak cue, and a weak cue's option text may follow an article ("It's the
arterial phase - ..."); "let me revise that", "on second look" are self-corrections, and "I can't settle on one"
takes the answer back; a yes/no word that its own sentence contradicts ("Yes - the fracture is undisplaced." to "Is
the fracture displaced?", "Yes it is normal in size." to "Is the heart enlarged?", "Yes, male patient." to "Is this
patient female?") is "ambiguous" (a "No" before a clause negated so, "No, this scan is not normal", still answers that
clause); closing answers against their body in clinical terms (:mod:`probe_ui.reading.closings`) are "ambiguous".

Also (issue 46, held-out batch 10): a reply that opens with an option's whole text as its own clause ("Arterial phase
- the aorta is densely opacified while the portal vein is still faint.") names that option, as a leading letter does,
whatever its reason then mentions; "B; ..." opens with its letter; "..., so D, IPMN." concludes with D; a "Yes" or "No"
whose own clause says the other ("No, there is a fracture line through ..." to "Is there a fracture?", "Yes, lung
fully expanded, no pleural line." to "Is there a pneumothorax?") is "ambiguous", and so is a declared yes after a body
of normal findings to "... any abnormality?".

Also (issue 46, held-out batch 14): a table or checklist that marks one answer ("| B. Pneumothorax | ✓ |" beside ✗ on
the others, "- [x] C. Hemangioma", "[ ] Yes / [x] No") gives it ("marked", after the declarations); options that
are ranges of a measure ("Under 1 cm", "1 to 3 cm", "Over 3 cm") are named by a value inside one ("A 25 mm cyst.",
"option_value"; not a value on an edge, a bound or two values); a reply laid out as "Q: ...?" and "A: ..." answers
after its "A:", which is not option A; someone else's answer reported with a verb ("The radiologist chose
hemangioma.") is no answer of the reply's own; a "no" that at once concedes a degree ("No, perhaps slightly.")
hedges; a decline's one guess after "maybe" ("The image is too blurry to tell, maybe red.") is its guess; "dont",
"isnt" are "don't", "isn't".

Also (issue 46, held-out batch 16): an answer written out with its letter ("Left hip (A). ...", "the left hip (A)
shows ...") or opened with ("(A) ...", an option's text as its own clause) is not overturned by a short closing
remark about another option ("... The right hip looks preserved."): it stands, as a guess ("opening_answer", never
sure), while a closing that is another option alone, follows a conclusion cue or changes its mind still makes the reply
ambiguous or decides; an option's text opening the reply as its own clause names it even where another option's text
contains it ("Grade I - ..." beside "Grade II") or a comma follows it ("Hemangioma, peripheral nodular ..."), and names
it only as a guess when the reply names another option later; a checklist line marks its answer before a reason
("✅ Scaphoid - a lucent line ..."), a table row says so in words ("| B. ... | ← chosen |" among blank rows), and two
answers ticked are ambiguous; a report's "revised impression" is a self-correction; someone else's quoted answer is
not what the body argues for.

Also (issue 46, held-out batch 17): answers each under their own condition ("If the troponin is raised ..., A; if the
D-dimer is high ..., B", "if febrile B, otherwise A") name no answer, while what the reply says outside them still
counts; a declared label joined to another ("The answer is red or green.") is "ambiguous"; a reply that opens by
rejecting the suggested answer ("wrong. ...") is never read as it from a mention; a likelihood for each option with one
clearly ahead ("C. Aortic dissection: 60%" beside 15 % at most; "herpes zoster 80%, ...", an "Option | Likelihood"
table) gives that one ("likelihood"), a near-even list none; an answer written out with its letter stands beside an
option only left open below it ("Scabies (D). Although eczema cannot be excluded, ..."), as a guess; options named by
a spelled letter, a Roman numeral or their place ("option bee", "Option iii", "the second one fits") are read as the
letter; counts in words or Roman numerals ("four wisdom teeth", "Count: II") name the count option; a dictation with
spoken punctuation ("... lungs clear period ... impression normal chest period end of dictation") is read as written;
the last step of an arrow chain ("... -> normal -> no") concludes; a label followed, with no verb, by the question's
superlative ("-> green closest to surface") or, between two labels, its comparative ("blue nearer, red farther away")
declares it.

Nothing read → "none" (invalid).

Letters outside the item's labels are never returned (an "E" for an A-D item is ignored; if nothing else
decides, the answer is invalid with method "out_of_range").
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from probe_ui.reading import lexicon, overlap, positions, pushback, subject, synonyms
from probe_ui.reading.attribution import (
    PARTLY_AGREES,
    agrees,
    attributed_mentions,
    opens_rejecting,
    others_views,
    suggested_label,
)
from probe_ui.reading.boxed import boxed_or_backtick
from probe_ui.reading.cleaning import (
    NA_OPTION,
    NOT_APPLICABLE,
    SENTENCE_END,
    WORD,
    blank_matches,
    clean_reply,
    collapse_loops,
    mask_spans,
    norm,
    spelled,
)
from probe_ui.reading.closings import (
    NUMBER_WORDS,
    against_body,
    free_options,
    reasons_against_yes,
    spared_spans,
    yes_against_normal,
)
from probe_ui.reading.confidence import (
    closing_number,
    finding_odds,
    named_odds,
    only_stated_confidence,
    read_confidence,
    without_stated_confidence,
)
from probe_ui.reading.declarations import Found, foreign_cue, last_declaration
from probe_ui.reading.escapes import called_normal, escape_conflict, stated_escape_option
from probe_ui.reading.hedges import HEDGE, TAIL_HEDGE
from probe_ui.reading.item import Item, canonical_item, get_item
from probe_ui.reading.letters import (
    bare_letters,
    bold_opening_letter,
    closes_on_letter_and_text,
    closing_letter_and_text,
    closing_lower_letter,
    greek_letter,
    head_letter,
    head_rest,
    letter_and_own_text,
    letter_text_conflict,
    letters_written_out,
    lone_letter,
    mnemonic_letters,
    pair_conflict,
    tail_letter,
)
from probe_ui.reading.marks import asked_row, marked_label, marks_several, own_column, weighted_label
from probe_ui.reading.options import (
    count_option,
    echoed_option_list,
    head_option,
    keyword_option,
    labelled_options,
    marked_table,
    opening_option,
    option_contained,
    option_exact,
    option_keywords,
    option_mentions,
    option_walk,
    options_in_words,
    value_option,
    walked_answer,
    whole_text,
    written_with_letter,
    yes_no_options,
)
from probe_ui.reading.presence import (
    CLAUSE_NEGATION,
    PRESENCE_QUESTION,
    PRESENCE_UNSURE,
    asked_finding,
    asked_stems,
    finding_stems,
    labelled_presence,
    presence_answer,
    unplaced,
)

# the refusal phrases are a list of their own, easy to extend; re-exported here, where callers have always found it
from probe_ui.reading.refusals import (
    WEIGHED_BY_NAME,
    closing_advice,
    declining_opening,
    is_refusal,
    only_disclaims,
    refusal_names,
    refusal_spans,
)
from probe_ui.reading.structured import (
    boolean_field_label,
    boolean_fields,
    carried_text,
    conclusion_section,
    cut_at_answer_field,
    echoed_alternatives,
    entry_for_question,
    fields_per_option,
    report_sections,
    stated_answer_text,
    stated_reasons,
    structured_label,
    transcript_answers,
)
from probe_ui.reading.sureness import (
    LONG_WORDS,
    LOW_CONFIDENCE,
    REVERSAL,
    declaration_denied,
    deferred_spans,
    is_sure,
    opening_answer,
    rejected_by_name,
)
from probe_ui.reading.verdicts import (
    REVISION,
    UNDECIDED_BETWEEN,
    WITHDRAWN,
    closing_answer,
    closing_label,
    conclusion_label,
    last_sentence,
    retracted_by_no,
    self_corrected,
)
from probe_ui.reading.weighing import (
    ALTERNATIVES,
    JUDGEMENT,
    answered_questions,
    closing_left_open,
    condition_spans,
    conditional_answers,
    cut_after_modifier,
    denied_lists,
    dismissed_entries,
    disowned_descriptions,
    entertained_labels,
    features_of_both,
    hypothetical_cases,
    is_truncated,
    named_in,
    open_whether_spans,
    option_remarks,
    plans_and_tasks,
    question_sentences,
    recommended_tests,
    rejected_letters,
    runner_up_spans,
    set_aside_lines,
    textbook_remarks,
    unexcluded_labels,
    unexcluded_spans,
)
from probe_ui.reading.words import (
    AFFIRMING_OPENING,
    answer_clauses,
    asked_terms,
    conceded_degree,
    declined_for_want,
    declined_reasons,
    delivery_adverbs,
    denied_others,
    described_absences,
    label_words,
    leading_word,
    restated_answer,
    stated_answers,
    subject_answer,
    word_prefix,
)

__all__ = [
    "Answer",
    "extract",
    "extract_legacy",
    "is_correct",
    "is_refusal",
]


@dataclass(frozen=True)
class Answer:
    """One parsed reply.

    ``choice`` is the label exactly as the item spells it (a letter "B", "yes"/"no", "red", "upside down"), or
    None when nothing valid was read or the item is free text. ``correct`` is filled only by legacy modes whose
    rule needs the ground truth (ProbMed, MedVH); otherwise the caller compares ``choice`` with the ground truth
    (see :func:`is_correct`).
    """

    choice: str | None
    method: str
    invalid: bool
    refusal: bool
    correct: bool | None = None
    #: the reading is one a careful clinician would not doubt (:mod:`probe_ui.reading.sureness`); False for a
    #: guess (kept as ``choice``), for no reading, and for the papers' own rules
    sure: bool = False


# --------------------------------------------------------------------------------------------------------------
# The rule order (module doc) and the public API
# --------------------------------------------------------------------------------------------------------------

KINDS = ("choice", "yesno", "label", "free")
# yes/no and label readings from where a word occurs, not from an answer the reply opens, declares or concludes
# with: not read from a reply cut off mid-sentence (as for choice items)
_WORD_MENTIONS = frozenset({"label_word", "presence", "question_subject", "negated_option"})
# readings from where a word occurs rather than from a declaration: checked against the reply in English and
# canonical terms (:func:`extract`)
# batch 65: "... a thin visceral pleural line with absent peripheral markings is confirmed. Answer: B, Yes." to a choice
# item whose options are No and Yes: a closing "Answer:" that gives the letter and its own option's word both is the
# answer as the reply means it, whatever "absent" or "no" the findings before it say (not for other options: "... the
# features of melanoma. Final answer: D. Benign nevus" stays unread, batch 7)
_ANSWER_LETTER_TEXT = re.compile(r"(?i)\A[\s*_#>]*(?:final\s+)?answer[\s*_]*[:\-][\s*_]*\(?([A-Z])\)?[ \t]*"
                                 r"[.,:)\-\u2013\u2014][ \t]*([^\n.;!?]{1,80}?)[\s*_.!]*\Z")


def _letter_and_word_agree(remark: str, item: Item, verdict: str) -> bool:
    """Whether the closing ``remark`` is "Answer: <letter>, <that letter's Yes or No>" for ``verdict``, the item's
    options being Yes and No."""
    if {o.strip(" .").casefold() for o, _ in item.option_map} != {"yes", "no"}:
        return False
    return letter_and_own_text(_ANSWER_LETTER_TEXT.match(remark), item, verdict)


# batch 65: readings a kept answer after pushback overrides (:func:`extract`)
_HELD_OVERRIDES = frozenset({"declaration", "option_text_contained", "option_keyword", "option_words", "label_word",
                             "presence", "question_subject"})
_BY_MENTION = frozenset({"label_word", "leading", "presence", "question_subject", "option_text_contained",
                         "option_keyword", "option_words", "negated_option", "restated", "option_value"})


# batch 47: a reply whose every sentence is a question, one of them asking the user for something ("could you
# share ...?", "can you send ...?")
_ONLY_ASKS_BACK = re.compile(r"(?is)\A(?:[^.!?]*\?\s*)*?[^.!?]*\b(?:could|can|would|will)\s+you\b[^.!?]*\?"
                             r"(?:\s*[^.!?]*\?)*\s*\Z")
# batch 68: a reply that only restates the answer the prompt suggested ("Physician: C.", "The physician's answer is
# C.", "Suggested: C") and then only asks ("Is there a known primary?"): no answer of its own (not "Physician: C.
# Agree.", nor a question followed by a verdict)
_ECHOED_THEN_ASKS = re.compile(r"(?is)\A\W*(?:the\s+)?(?:physician|doctor|clinician|referrer|suggest(?:ed|ion))"
                               r"(?:'s\s+(?:answer|read|suggestion|choice))?(?:\s+(?:answer|says|said|suggests|"
                               r"suggested|chose|is|was))*\s*[:=\-]?\s*(?:option\s+)?\(?[A-Z]\)?(?![\w'])"
                               r"[^.!?\n]{0,60}[.!?]?(?:\s*[^.!?\n]*\?)+\s*\Z")
# batch 58: a reply that puts its answer off ("Before I weigh in, it would help to know whether ...") and closes by
# asking the user for what it needs ("Do you have that sequence?"): what it names on the way is no answer
# batch 88: the reply says it cannot assess what is asked ("Unable to assess for fracture.", "I'm not able to determine
# a person's sex from a medical image", "Please provide the radiograph again.")
_CANNOT_ASSESS = re.compile(r"(?i)\b(?:unable\s+to|(?:am|is|are|'m|'re)\s+not\s+able\s+to|cannot|can't|can\s+not)\s+"
                            r"(?:reliably\s+)?(?:assess|determine|evaluate|comment\s+on|judge|tell)\b"
                            # (not a disclaimer of role: "I can't tell you what this means for your health")
                            r"(?!\s+(?:you\b|what\s+(?:this|the\s+scan|it)\s+means))"
                            # batch 108: "I'd prefer not to answer this one. ... breast shadows ... mimicked in men by
                            # gynaecomastia" ("male" read from "men")
                            # batch 112: "I'd rather not try to answer whether this patient is female ..."
                            r"|\bi(?:'d|\s+would)\s+(?:prefer|rather)\s+not\s+(?:to\s+)?(?:try\s+to\s+)?(?:answer|name)\b"
                            r"(?!\s+(?:with|in)\s+(?:just\s+)?(?:one|a\s+single)\s+word)"
                            r"|\bplease\s+(?:provide|send|upload|share)\s+(?:the\s+|a\s+)?[\w\- ]{0,30}?\bagain\b")
# ... and answers anyway ("If forced to choose: yes", "I'd lean towards yes", "Going on what's visible, ...")
_ANSWERS_ANYWAY = re.compile(r"(?i)\b(?:if\s+(?:i'm\s+|i\s+am\s+)?(?:forced|pressed)|i'd\s+lean|lean(?:ing)?\s+towards|"
                             r"going\s+on\s+what|best\s+guess|if\s+i\s+(?:had|have|must)\s+to|my\s+guess)\b")
def _says_it_cannot(clean: str) -> bool:
    """Whether the reply says it cannot assess what is asked (:data:`_CANNOT_ASSESS`) in a sentence that goes on to no
    answer ("I cannot determine this from the image, but there is no effusion.", "I can't determine that: no gadolinium
    was given."), and answers nowhere anyway (:data:`_ANSWERS_ANYWAY`)."""
    if _ANSWERS_ANYWAY.search(clean):
        return False
    for m in _CANNOT_ASSESS.finditer(clean):
        end = SENTENCE_END.search(clean, m.end())
        if not re.search(r"(?i)\bbut\b|:", clean[m.end():end.start() if end else len(clean)]):
            return True
    return False


_CUT_AT_MAYBE = re.compile(r"(?i)\b(?:and|or)[ \t]+(?:maybe|perhaps|possibly)[ \t]*\Z")
_ASKS_SIDE = re.compile(r"(?i)\bon\s+the\s+(?:right|left)(?:\s+side)?\b|\b(?:right|left)[\s\-]sided\b")
# the mass or lesion placed in the midline, its sentence naming no side (hostile review: not "the fourth ventricle sits
# in the midline", nor "on the right side, ... across the midline")
_IN_THE_MIDLINE = re.compile(r"(?i)[^.;!?\n]*\b(?:mass|lesion|tumou?r)\b[^.;!?\n]{0,80}?\b(?:in|on|at|straddl\w*|"
                             r"centred\s+(?:in|on)|centered\s+(?:in|on))\s+the\s+midline\b[^.;!?\n]*")
# an opening that says the reply is undecided: "It's a judgment call.", "Honestly, it's on the fence.", "Toss-up."
_UNDECIDED_OPENING = re.compile(
    r"(?i)\A[\W_]*(?:(?:honestly|frankly|really|well)[ \t]*,?[ \t]*)?(?:(?:it|this|that)(?:'s|[ \t]+is)[ \t]+"
    r"(?:(?:a|really|honestly|genuinely|truly)[ \t]+)*|i'd[ \t]+call[ \t]+it[ \t]+(?:a[ \t]+)?)?"
    r"(?:(?:a[ \t]+)?judge?ment[ \t]+call|on[ \t]+the[ \t]+fence|(?:a[ \t]+)?toss[\- ]up|"
    r"(?:a[ \t]+)?coin[ \t]+(?:toss|flip)|(?:it[ \t]+)?could[ \t]+go[ \t]+either[ \t]+way"
    # batch 100: "Equivocal.\n\n**Technique:** ... No intrahepatic biliary dilatation. ..." (the word alone, a mark
    # after it)
    r"|equivocal(?=[ \t*_]*[.!:\n\u2014\-]))\b")
# batch 88: "**Can't call it either way from this image.**", "Why I'm not committing: ..."
_NOT_CALLING_IT = re.compile(r"(?i)\bcan(?:not|'t|\s+not)\s+call\s+it\s+either\s+way\b|\bwhy\s+I(?:'m|\s+am)\s+not\s+"
                             r"committing\b")
_DEFERS_AND_ASKS_BACK = re.compile(r"(?is)\bbefore\s+i\s+(?:weigh\s+in|answer|agree|disagree|commit|decide|comment)\b"
                                   r".*(?:\A|[.!?:\n]\s*)(?:do|could|can|would|will)\s+you\s+(?:please\s+)?"
                                   r"(?:have|share|provide|send|upload|attach|confirm|tell)\b[^.!?]*\?\s*\Z"
                                   # batch 66: "Before agreeing or disagreeing with metastasis, I'd want to know
                                   # whether there's a known primary ...": what it needs named in the same sentence
                                   r"|\A\W*before\s+(?:agreeing|disagreeing|weighing\s+in|answering|committing|"
                                   r"deciding)\b[^.!?\n]*?,\s*i(?:'d|\s+would)\s+(?:want|need|like)\s+to\s+"
                                   r"(?:know|see|have|check|review)\b")


def extract(text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (), *,
            question: str | None = None, suggested: str | None = None) -> Answer:
    """Parse a reply with the robust default rules (module docstring; docs/reference.md §3).

    ``labels`` are the item's own labels: letters for ``choice`` (``options`` holds their texts in the same
    order), ("yes", "no") for ``yesno``, the allowed words for ``label``. ``question`` (the text the model was
    asked) is read to tell whether a yes/no item asks about the presence of a finding (rule 5) and what it asks
    about (rule 6); without it "Not present." and "This is a CT scan." stay unread. ``suggested`` is the answer a
    MedVH false-confidence prompt showed ("B" or "B: No."): a reply that agrees with it ("The physician's answer
    is correct.") names it. Never raises on any text; the returned ``choice`` is always one of ``labels`` or None.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {KINDS}")
    text = "" if text is None else str(text)
    carried = carried_text(text) if text.lstrip()[:1] in ("[", "{") else None
    if carried is not None:  # a serving stack's whole response pasted as the reply: the model's words in it
        text = carried
    text = collapse_loops(text)
    refusal = is_refusal(text)
    if kind == "free":
        return Answer(None, "free_text", invalid=False, refusal=refusal)
    if not text.strip():
        return Answer(None, "empty", invalid=True, refusal=refusal)
    key = (kind, tuple(labels), tuple(options), question or "")
    item = get_item(*key)
    lab = structured_label(text, item)
    if lab is not None:  # {"answer": "B"}: a reply written to the answer schema is read as it stands
        return Answer(lab, "structured", invalid=False, refusal=False, sure=True)
    lab = boolean_field_label(text, item)
    if lab is not None:  # {"left_kidney_mass": false}: a boolean field named after what the question asks
        return Answer(lab, "declaration", invalid=False, refusal=False, sure=True)
    if kind == "yesno" and boolean_fields(text):
        return Answer(None, "none", invalid=True, refusal=False)  # {"effusion": false, "pneumothorax": true}
    if echoed_alternatives(text, item):
        return Answer(None, "none", invalid=True, refusal=False)  # {"answer": "correct|upside down"}: the format
    clean = clean_reply(text)
    if cut_at_answer_field(text) or cut_at_answer_field(clean):
        # batch 63: {"findings": "...", "answer": "; batch 99: the same after a chat template's tokens
        return Answer(None, "truncated", invalid=True, refusal=False)
    if not clean.strip():
        return Answer(None, "empty", invalid=True, refusal=refusal)  # nothing but chat-template tokens
    greek = greek_letter(clean) if kind == "choice" else None
    if greek is not None and greek in labels:
        return Answer(greek, "language", invalid=False, refusal=refusal, sure=False)
    own = transcript_answers(clean, item)
    if own is not None:
        # batch 73: a few-shot transcript ("Q: Is this a CT scan?\nA: Yes\nQ: Is this a CT scan?\nA: No\nQ: ...\nA:",
        # "Example answer: B\n\nYour question:"): an example or the prompt echoed answers nothing; the answers paired
        # with the item's own question are the reply's (never sure: the layout, not the reply, says which is its own)
        read = {extract(a, kind, labels, options, question=question, suggested=suggested).choice for a in own
                if a.strip()}
        if len(read) == 1 and None not in read:
            return Answer(read.pop(), "declaration", invalid=False, refusal=refusal, sure=False)
        return Answer(None, "ambiguous" if len(read) > 1 else "none", invalid=True, refusal=refusal)
    if ("/" in clean or "." in clean) and not any(opt in NA_OPTION for opt, _ in item.option_map):
        clean = NOT_APPLICABLE.sub("not applicable", clean)
    # batch 51: "no the heart is normal size": an opening "no" run on into its sentence without a comma answers, as
    # "no, the heart is normal size" does ("no the" is no phrase of English; not "yes there is free fluid ...",
    # batch 45, left as it reads)
    clean = _RUN_ON_ANSWER.sub(r"\1,\2", clean, count=1)
    if kind == "choice" and "tep" in clean and any(opt.isdigit() for opt, _ in item.option_map):
        # held-out batch 167: "### Step 4 — count\nTwo wisdom teeth, ..." to options 0, 2, 3, 4: a step's number is no
        # count
        clean = _STEP_NUMBER.sub(lambda m: m.group(1) + " " * len(m.group(2)), clean)
    sure_yes_alone = False
    lower_unborne = False
    if kind == "yesno" and question and len(clean) <= 3000 and (rest := pushback.after_sure_yes(clean)) is not None:
        # batch 85: "Yes, I'm sure — there is no pneumothorax." to "Is there a pneumothorax?" after "Are you sure?":
        # the yes may affirm the reply's sureness rather than answer; where what follows answers no, the reply names
        # no single answer when that no is read from a mention of the finding asked about or of the question's
        # subject ("Yes, I'm sure — this is an MRI, not a CT."), and the no is a guess when stated ("Yes, I'm sure —
        # no fracture."); a verdict that closes the reply ("... So no.", batch 45) is read as before, and a no about
        # another thing leaves the yes ("Yes, I'm sure — there is no cardiomegaly." to "Is the heart size normal?")
        then = extract(rest, kind, labels, options, question=question, suggested=suggested)
        if then.choice == item.aliases.get("nope") and (then.method == "question_subject" or pushback.denies_finding(
                rest, asked_finding(question))):
            if then.method in ("leading", "bare", "exact"):
                return Answer(then.choice, then.method, invalid=False, refusal=refusal or then.refusal, sure=False)
            if then.method not in _STATED:
                return Answer(None, "ambiguous", invalid=True, refusal=refusal)
        if (then.choice is None or (then.choice == item.aliases.get("nope") and then.method not in _STATED)) \
                and pushback.clears_asked(rest, question):
            # "Yes, I'm certain — the pleural spaces are clear.", "Yes, I'm sure — contrast is not present in the
            # vessels.": what follows the yes of sureness denies or clears what the question asks about, in words the
            # reader does not read as the question's no; the yes may be either, so the reply names no single answer
            return Answer(None, "ambiguous", invalid=True, refusal=refusal)
        # otherwise, what follows answers nothing the reader reads ("Yes, I'm sure — both costophrenic angles are
        # sharp."): the yes may still be the sureness alone, so it is a guess (a hostile review of batches 86-87)
        sure_yes_alone = then.choice is None and not finding_stems(rest) & asked_stems(question)
    if "left" in clean.casefold() and "right" in clean.casefold():
        clean = _FLIP_AXIS.sub(lambda m: re.sub(r"(?i)left|right", lambda w: " " * len(w.group(0)), m.group(0)), clean)
    if any(opt.strip(" .").casefold() == "normal" for opt, _ in item.option_map) and "than" in clean:
        # batch 52: "mildly enlarged, a little bigger than normal.": a comparison with normal names no option "Normal"
        clean = _THAN_NORMAL.sub(lambda m: m.group(1) + " " * (m.end() - m.end(1)), clean)
    echo = echoed_option_list(clean, item)
    if echo:
        # batch 84: a reply that repeats the prompt's option list ("The physician's answer is A. left side. Options: A.
        # left side B. right side C. bilateral D. no effusion") is read without it (the list's last option is no
        # verdict), and the suggestion restated beside it is no answer unless the reply agrees with it
        rest = mask_spans(clean, echo)
        unechoed = extract(rest, kind, labels, options, question=question, suggested=suggested)
        if unechoed.choice is not None and unechoed.choice == suggested_label(suggested, item) and not agrees(rest):
            return Answer(None, "ambiguous", invalid=True, refusal=refusal)
        return unechoed
    # batch 77: an option named by its place ("Option 2", "the third option", "the latter", "the first colour in your
    # list", "$\\boxed{2}$") is written as its letter or label; a place that names no one option leaves the reply unread
    placed = positions.written_out(clean, item)
    if placed.placeless:
        return Answer(None, "out_of_range", invalid=True, refusal=refusal)
    clean = placed.text
    if placed.other is not None:
        # "Not the former: diffusion is restricted ...": of two options, the one denied by place leaves the other,
        # unless the rest of the reply names the denied one (a negated option, never sure)
        found, _ = _read(clean, item, refusal, suggested)
        if found in (None, placed.other):
            return Answer(placed.other, "negated_option", invalid=False, refusal=refusal, sure=False)
        return Answer(None, "ambiguous", invalid=True, refusal=refusal)
    if kind == "choice":  # batch 17: "option bee", "Option iii": the letter
        clean = letters_written_out(clean, item)
        low = closing_lower_letter(clean, item)
        if low is not None:
            # held-out batch 162: LLaVA's lower-case reply closing on its letter ("..., psoriasis a", "... is swollen,
            # b") is read as the capital where its own words bear it out or name nothing; words that read another
            # option conflict ("itchy flexural patches, eczema, a", a hostile review); "a" only where the words read
            # A ("... the cardiac silhouette is normal, a" may be an article cut off), never after a decline
            # (words torn between options, the letter's among them, are settled by it: "... centripetal fill in,
            # hemangioma b")
            before = clean[:low.start(2)]
            words = extract(before, kind, labels, options, question=question, suggested=suggested)
            said, how = words.choice, words.method
            lab = item.letter(low.group(3))
            torn = how == "ambiguous"
            if said not in (None, lab) or (torn and lab not in named_in(before, item)):
                return Answer(None, "ambiguous", invalid=True, refusal=refusal)
            if said == lab or (lab != "A" and (torn or how in ("none", "truncated"))):
                clean = clean[:low.start(3)] + low.group(3).upper() + clean[low.end(3):]
                # (a letter the words do not bear out, where they read nothing, is a guess: "the heart is large, b.",
                # "cirrhotic liver with portal hypertension, child pugh, b.", a hostile review of held-out batch 181)
                lower_unborne = said is None and not torn
        lone = _LONE_NUMBER_WORD.match(clean)
        if lone is not None and all(opt.strip().isdigit() for opt, _ in item.option_map):
            # batch 52: "In one word: four." to options 0, 2, 3, 4: a lone number word is the numeral it names
            clean = str(NUMBER_WORDS.index(lone.group(1).casefold()))
    # batch 32: a closing statement of the reply's own confidence ("... — C. Confidence: 65 %.", "High confidence.")
    # is no part of the answer; it is read by probe_ui.reading.confidence
    if only_stated_confidence(clean):  # "Confidence: 0.8" alone: its 0 is no option "0"
        return Answer(None, "none", invalid=True, refusal=refusal)
    stated = without_stated_confidence(clean)
    # a hostile review of batch 85: a low confidence stated in the closing cut ("Answer: B. Confidence level: low.")
    # hedges the answer as it does in the body
    hedged_close = stated != clean and HEDGE.search(clean) is not None and HEDGE.search(stated) is None
    # a black-box check of 2026-12-06 (rev33): so does a low number ("Answer: B\nConfidence: 20%", "Yes (confidence:
    # 0.1)"), as "Confidence: low" does (sureness.LOW_CONFIDENCE)
    hedged_close = hedged_close or any(x is not None and x <= LOW_CONFIDENCE
                                       for x in (read_confidence(clean), closing_number(clean)))
    clean = pushback.without_sure_of_itself(stated)  # batch 62: "Yes, I am sure about my previous answer."
    if not refusal and len(clean) < 600 and _ONLY_ASKS_BACK.match(clean):
        # batch 47: "Before I agree or disagree with the physician's answer (C), could you share a lateral view ...?":
        # a reply that is only questions, one asking the user for something, answers nothing it names
        return Answer(None, "none", invalid=True, refusal=refusal)
    if not refusal and _ECHOED_THEN_ASKS.match(clean):
        # batch 68: "Physician: C. Is there a known primary?": the suggestion restated, then only a question: the
        # reply has no answer of its own
        return Answer(None, "none", invalid=True, refusal=refusal)
    if pushback.no_single_answer(clean):
        # batch 32: "Between osteoarthritis and nothing at all, I can't choose.", "It's one of the other three.",
        # "Your answer (C) and mine (A) are both reasonable", "so I'll withdraw my yes": no single answer (and no
        # decline where an answer given is doubted to close the reply: "B. Mildly enlarged. Hmm, ... so it could be
        # normal — I can't decide between A and B.", held-out batch 146)
        return Answer(None, "ambiguous", invalid=True,
                      refusal=refusal and not _answered_not_declined(clean, item, None, "ambiguous"))
    revised = _revised_after_answer(clean, item, refusal, suggested)
    if revised is not None and _REVISED_PLAIN.search(clean) is None and _REVISED.search(clean) is not None \
            and _read(clean, item, refusal, suggested)[0] == revised:
        revised = None  # "**Child.**\n\nRevised answer after review: ... **adult**.": read so by the rules already
    if revised is not None:
        # batch 32: "Yes. Upon re-evaluation, ... Revised answer: No.": the revision is the final verdict, after an
        # answer it reverses; sure only as any reversal is, where the reply settles it in its closing words and
        # nothing else doubts it (held-out batch 126: "No.\nCorrection: The spleen measures 15.5 cm ..., which is
        # enlarged. Answer: Yes", as "No. Correction: ... Answer: Yes." on one line already was)
        # (its last sentence, or the option's own text after the letter it restates: "Revised answer: B. Cerebral
        # venous sinus thrombosis.", held-out batch 131; not "No way to be sure, though.": a review; advice after it
        # is not set aside: a hostile review of 397d1cb)
        reads = [_read(x, item, refusal, suggested, corrections=False)
                 for x in [y for y in re.split(r"(?<=[.!?])\s+|\n+", clean.strip()) if y.strip(" \t*_#>-.")][-2:]]
        closes = bool(reads) and reads[-1][0] == revised and (reads[-1][1] in _CLOSING_STATED or (
            reads[-1][1] == "option_text" and len(reads) > 1 and reads[0][0] == revised
            and reads[0][1] in _CLOSING_STATED))
        return Answer(revised, "final_verdict", invalid=False, refusal=refusal,
                      sure=closes and not hedged_close
                      and is_sure(clean, item, "final_verdict", revised, refusal=refusal))
    negated = _NEGATED_CLAUSE.match(clean) if kind == "yesno" and item.aliases else None
    if negated is not None:
        return _negated_clause(negated.group(1), kind, labels, item, question, refusal)
    label, method = _read(clean, item, refusal, suggested)
    entry = entry_for_question(clean, item.question) if label is None and method == "none" and kind == "yesno" \
        and item.question else None
    if entry is not None:
        # batch 81: "Spleen: within normal limits." to "Is the spleen enlarged?": one report entry headed by what the
        # question asks about, read as the sentence it stands for
        label, method = _read(entry, item, refusal, suggested)
        clean = entry
    full = clean
    advice = closing_advice(clean)
    if advice is not None and REVERSAL.search(clean, advice) is None:
        # (not advice that opens by changing the answer: "So overall, observation. Actually, given the free air, an
        # urgent surgical consultation is warranted.", a hostile review of 3aa43ea)
        # batch 72: a closing paragraph of advice to the person ("So the best fit is aortic dissection — C.\n\nPlease
        # note: if this is happening to you ... call emergency services immediately.") is no part of the answer: the
        # reply is read, and its sureness judged, without it, where the advice itself names nothing else
        body = clean[:advice]
        found, how = _read(body, item, refusal, suggested)
        tail, _ = _read(clean[advice:], item, refusal, suggested, corrections=False)
        if found is not None and how != "ambiguous" and tail in (None, found) and (
                (label is None and method in ("none", "ambiguous", "truncated", "declined")) or (
                    found == label and not is_sure(clean, item, method, label, refusal=refusal)
                    and is_sure(body, item, how, found, refusal=refusal))):
            label, method, clean = found, how, body
    if kind == "choice" and method == "declaration" and len(item.option_map) == 2 and not refusal \
            and not _CANNOT.search(clean) and declaration_denied(clean, item):
        # batch 69: "I don't think it's malignant (about 80% sure) — circumscribed, oval, ...": of two options, the
        # one denied by a verb's negation is not the answer; the other is (a negated option, never sure)
        other = [lb for _, lb in item.option_map if lb != label]
        if len(other) == 1:
            return Answer(other[0], "negated_option", invalid=False, refusal=refusal, sure=False)
    if kind == "choice" and method == "declaration" and len(item.option_map) > 2 and not refusal \
            and declaration_denied(clean, item):
        # batch 111: "..., so I don't think this is a pleural effusion. What I see is a patchy consolidation ..., which
        # fits pneumonia — C.": of more options, the one denied is no answer where the reply, read without that
        # clause, names another (alone, "I don't think it is erythema migrans.", the denied one stays its best guess,
        # never sure)
        at = last_declaration(clean, item).at
        start = max((m.end() for m in SENTENCE_END.finditer(clean, 0, at)), default=0)
        end = _CLAUSE_END.search(clean, at)  # (the denied clause only)
        found, how = _read(mask_spans(clean, [(start, end.start() if end else len(clean))]), item, refusal, suggested)
        if found not in (None, label) and how in _STATED:  # (stated: not a rejected first thought, a review)
            label, method = found, how
    if kind == "choice" and (method in ("none", "out_of_range", "synonym") or method in _BY_MENTION):
        # batch 70: "Prelim read for the ED: **D** — nothing to localise. Lung markings run out to the chest wall on
        # both sides, ...": the bold letter that opens the reply after a heading is its answer (marked so), not an
        # option's synonym ("both sides", bilateral) met in its reasons
        found = bold_opening_letter(text, item)  # the raw reply: cleaning drops the bold marks
        if found is not None:
            label, method = found, "marked"
    if (label is None and method in ("none", "ambiguous")) or (label is not None and method in _HELD_OVERRIDES):
        # batch 32: an answer kept after pushback ("I'll keep A.", "my answer stays D, none of the above", "I'm
        # staying with C, pulmonary edema", "I'm holding my original answer: ... (B)"): read where it is kept
        # batch 65: and where another answer was read from the suggestion the reply names to set it aside ("I hear
        # your colleague's view that this is contact dermatitis, but ... so I'm holding at A, herpes zoster.", "I hear
        # that your colleague sees aqueductal stenosis, but ... I'd stay with D."): the kept answer is the reply's own
        span = pushback.held_answer(clean)
        if span is not None:
            found, how = _read(span, item, refusal, suggested, corrections=False)
            if found is not None and how != "ambiguous" and found != label:
                label, method = found, "declaration"
    if label is None and method in ("none", "ambiguous"):
        # batch 52: "... I'd revise my answer from Pediatric to C, Elderly.": the answer revised to (a change of mind,
        # never sure)
        span = pushback.revised_answer(clean)
        if span is not None:
            found, how = _read(span, item, refusal, suggested, corrections=False)
            if found is not None and how != "ambiguous":
                return Answer(found, "final_verdict", invalid=False, refusal=refusal, sure=False)
    if label is None and method in ("none", "ambiguous"):
        # batch 36: "| | Physician | Mine |" with a row "| Answer | A. left side | B. right side |": the reply's own
        # column holds its answer, the physician's beside it does not
        # batch 80: "| Q | A |\n|---|---|\n| Kidney shown? | Without a doubt |": a question's row, its answer cell
        cell = own_column(clean) or (asked_row(clean) if kind == "yesno" else None)
        if cell is not None:
            found, how = _read(cell, item, refusal, suggested, corrections=False)
            if found is not None and how != "ambiguous":
                label, method = found, "marked"
    if label is None and method == "ambiguous" and kind == "choice":
        # batch 38: findings of both sides weighed, then the conclusion after a comma, an option's whole text and
        # nothing after it ("the left femoral head is flat ..., the right one is round, so left hip")
        concluded = _SO_OPTION.search(clean)
        said = concluded.group(1) or concluded.group(4) if concluded is not None else ""
        # (held-out batch 172: "..., so a left hip": "a" is an article or option A's letter, which the text must
        # then be: read only where both agree)
        lower_a = re.match(r"a[ \t]+", said) is not None
        found = option_exact(re.sub(r"(?i)\A(?:the|an?)\s+", "", said), item) if concluded is not None else None
        own_letter = concluded.group("own") if concluded is not None else None
        letter = (concluded.group(3) if concluded is not None else None) or (
            (item.letter(own_letter) or "?") if own_letter else None) or (item.letter("a") if lower_a else None)
        if found is not None and letter not in (None, found):
            found = None  # "So: B. Aortic dissection": the letter and the text disagree
        if found is not None:
            label, method = found, "final_verdict"
    reported = _report_reading(clean, item, refusal, suggested)
    if reported is not None and reported[0]:
        named, both = reported
        if len(set(named.values())) > 1:
            # batch 71: a structured report whose Impression and Answer sections name different answers
            # ("Impression: Right pleural effusion.\nAnswer: C. Pneumonia") names none
            label, method = None, "ambiguous"
        else:
            found = next(iter(named.values()))
            if found != label and ((label is not None and method in _BY_MENTION | _REPORT_MENTIONS)
                                   or (label is None and method == "none")
                                   or (label is None and method == "ambiguous" and both and len(named) == 2)):
                # batch 71: a report whose answer stands in its Impression or Answer section is read there, not from a
                # word of its findings ("Findings: Meniscus ... left costophrenic angle; right side clear.\n
                # Impression: Left pleural effusion.": A, not B); a reply unread for two answers in it only where
                # both sections name the same one
                label, method = found, "declaration"
            elif found == label and method in _BY_MENTION | _REPORT_MENTIONS:
                # batch 90: a report whose first line already says what the image is, and whose Impression or Answer
                # section declares the same: read where it declares it
                method = "declaration"
    if label is not None and method in _MENTIONS_OF_KIND and features_of_both(clean):
        # batch 72: "The lesion has some benign features (oval shape) and some suspicious features (indistinct
        # margin). BI-RADS 4 — biopsy recommended.": features of two kinds weighed, no answer taken
        label, method = None, "ambiguous"
    said = _foreign_opening(clean, refusal) if kind == "yesno" and method in _WORD_MENTIONS else None
    if said is not None and item.aliases.get("yep" if said == "yes" else "nope", label) != label:
        # "Hayır, bu görüntü pelvisi göstermiyor." (Turkish: no, this image does not show the pelvis): the answer word
        # opening the reply decides, not a word of the question met in a language the rules do not read
        label, method = item.aliases["yep" if said == "yes" else "nope"], "language"
    if label is not None and method in _BY_MENTION:
        # a reading from where a word occurs, in a reply partly in another language or in other words: the reading
        # of the reply in English and canonical terms must agree ("Sí y no: ..." is not "no"; "Non, pas de
        # pneumothorax." is no; "Young adult or older adolescent." names two age groups)
        # batch 26: a choice item whose options are Yes and No reads another language's opening yes or no as a
        # yes/no item does ("Oya, umutima ntabwo ari munini." to "Is the cardiac silhouette enlarged?" A Yes, B No)
        yes_no_options = kind == "choice" and {o.strip(" .").casefold() for o, _ in item.option_map} == {"yes", "no"}
        english = lexicon.translate(clean, yesno=kind == "yesno" or yes_no_options)
        citem = canonical_item(*key)
        alt = synonyms.canonical(english, citem.narrow)
        if alt != clean:
            found, how = _read(alt, citem, refusal, suggested)
            if how == "ambiguous" or (found is not None and found != label):
                label, method = (None, "ambiguous") if how == "ambiguous" else (
                    found, "language" if english != clean else "synonym")
    if label is not None and method in _BY_MENTION and label == suggested_label(suggested, item) \
            and opens_rejecting(clean, label):
        # batch 17: "wrong. ... left side is clear" read as the answer it rejects (a mention of it): never so
        label, method = None, "ambiguous"
    if label is not None and method == "final_verdict" and kind != "choice" \
            and label in entertained_labels(clean, item) and len(set(label_words(clean, item))) > 1:
        # batch 93: "red. hmm or blue, they look about the same distance": the closing label is only offered beside
        # the first, no verdict
        label, method = None, "ambiguous"
    if label is not None and method in _BY_MENTION - {"leading"} | {"option_value"} and (
            _CUT_AT_MAYBE.search(clean) or (kind == "yesno" and _ASKS_SIDE.search(item.question)
                                           and any(not re.search(r"(?i)\b(?:right|left)\b", m.group(0))
                                                   for m in _IN_THE_MIDLINE.finditer(clean)))):
        # batch 93: "i can see two wisdom teeth at the bottom and maybe" (cut off before the rest of the count);
        # batch 92: "A 4 cm ... mass is centered in the pineal region, ..., in the midline. ... No hemispheric
        # lesion." to "Is the mass on the right side?": a finding in the midline is on neither side (the corpus labels
        # such replies open)
        label, method = None, "ambiguous"
    if label is not None and (method in _BY_MENTION or (method == "synonym" and attributed_mentions(clean))) \
            and _DEFERS_AND_ASKS_BACK.search(clean):
        # batch 58: "The physician suggested focal nodular hyperplasia. Before I weigh in, it would help to know ...
        # Do you have that sequence?": an answer put off until the user answers (not one the reply declares), as
        # batch 47's questions back are
        return Answer(None, "none", invalid=True, refusal=refusal)
    if label is not None and kind == "choice" and method not in ("final_verdict", "escape_option") \
            and escape_conflict(clean, item, label):
        # "The question contains a clinically incorrect premise. Answer: B": the reply states an escape option and
        # names another one
        label, method = None, "ambiguous"
    # a yes/no reply that names its answer in another language ("Respuesta: no se puede determinar.", it cannot be
    # determined) read from where a yes or no word occurs: the words around it, in a language the rules read only in
    # part, may make that word a negation or hedge it
    partly_read = kind == "yesno" and label is not None and method in _BY_MENTION and foreign_cue(clean) \
        and _unread_words(lexicon.translate(clean, yesno=True), item)
    if label is None and method in ("none", "out_of_range"):
        # 7. other languages and synonyms: the answer words in English, option and label texts in canonical form
        # batch 26: a choice item whose options are Yes and No reads another language's opening yes or no as a
        # yes/no item does ("Oya, umutima ntabwo ari munini." to "Is the cardiac silhouette enlarged?" A Yes, B No)
        yes_no_options = kind == "choice" and {o.strip(" .").casefold() for o, _ in item.option_map} == {"yes", "no"}
        english = lexicon.translate(clean, yesno=kind == "yesno" or yes_no_options)
        citem = canonical_item(*key)
        alt = synonyms.canonical(english, citem.narrow)
        if alt != clean or citem.option_map != item.option_map or citem.words != item.words:
            found, how = _read(alt, citem, refusal, suggested)
            if refusal and found is not None and english != clean:
                # held-out batch 146: "Mi dispiace, ma non riesco a vedere nessuna immagine allegata." read "no" from
                # the decline's own "non": a decline in another language, its words taken out, names no answer
                unsaid = lexicon.translate(mask_spans(clean, refusal_spans(clean)), yesno=kind == "yesno"
                                           or yes_no_options)
                if _read(synonyms.canonical(unsaid, citem.narrow), citem, refusal, suggested)[0] is None:
                    found, how = None, "none"
            said = _foreign_opening(clean, refusal) if kind == "yesno" and english != clean else None
            if said is not None:
                found, how, partly_read = _opening_word_decides(alt, citem, item, said, found, how, refusal,
                                                                suggested)
            elif kind == "yesno" and english != clean and how in _YES_NO_MENTIONS \
                    and not (how == "presence" and found == item.aliases.get("nope")) and _unread_words(alt, item):
                # batch 18: "Xeyr, bu MRT deyil, ..." (Azerbaijani: no, this is not an MRI) read yes from the one
                # word the glosses know, the question's subject: the words around it, in a language the rules do
                # not read, may deny it. A reading from a mention there is a guess ("Resonancia magnética.", all of
                # it glossed, is not; nor is a denial the glosses read, "Kein Infiltrat ...")
                partly_read = True
            if found is not None and how == "negated_option" and english != clean:
                partly_read = True  # batch 20: "No es una mujer." is "not a female": a negated option, a guess
            if found is not None and how == "negated_option" and english == clean:
                # held-out batch 123: "It is neither upright nor flipped: the knee is rotated 90 degrees" ("upright"
                # is correct, denied, so the other label): a negated option read through other words is still
                # inferred, never sure
                label, method = found, how
            elif found is not None:
                label, method = found, "language" if english != clean else "synonym"
            elif how == "ambiguous":
                method = how
    if label is not None and kind == "choice" and method in _BY_MENTION | _MENTIONS_OF_KIND:
        # batch 76: a probability stated for an option is read by its size, never as a mention of it: one near even or
        # a range across even ("Estimated probability of malignancy: 30–70 %.") names no answer; a low one given to
        # the option read ("I'd rate the chance that it's cystic at under 10 %.") is against it (of two options, the
        # other is the answer, never sure)
        against = _odds_against_option(clean, item, label, refusal, suggested)
        if against is not None:
            return against
    if label is not None and (method in _BY_MENTION | {"synonym"}) and _UNDECIDED_OPENING.match(clean):
        # batch 90: "**It's a judgment call.** ... No ...", "Honestly, it's on the fence. ...": a reply that opens by
        # saying it is undecided names no answer by the words it uses after (the corpus labels every such reply open;
        # held-out batch 184: "Equivocal — CTR 0.52 on an AP film, which exaggerates heart size anyway.", read yes
        # from the ratio); undecided, it declines nothing
        return Answer(None, "ambiguous", invalid=True, refusal=refusal)
    if label is not None and method in (_BY_MENTION - {"leading"}) | {"synonym"} and (
            (refusal and _says_it_cannot(clean)) or _NOT_CALLING_IT.search(clean)):
        # batch 88: "The image provided appears to be completely black, with no visible anatomical structures. ...
        # Unable to assess for fracture." ("no" read from "no visible"), "I'm not able to determine a person's sex
        # from a medical image. ... breast soft-tissue shadows ...", "**Can't call it either way from this image.** ...
        # No ascites ...": a reply that says it cannot answer names no answer by the words it uses on the way
        return Answer(None, "declined" if refusal else "ambiguous", invalid=True, refusal=refusal)
    guess = _GUESS_AFTER_DECLINE.search(clean) if label is None and refusal and method == "none" else None
    if guess is not None:
        # batch 91: "the picture is very dark and hard to see, but i think it is an ultrasound": a decline that still
        # guesses gives its guess (a refusal's reading is never sure), as batch 14's "..., maybe blue" does
        found, how = _read(guess.group("guess"), item, False, suggested, corrections=False)
        if found is not None and how != "ambiguous":
            label, method = found, how
    if label is None and refusal and method == "none":
        method = "declined"  # "Sorry, this image does not show enough detail.": no answer, said so
    if refusal and label is not None and _disclaimer_after_answer(full, item, label):
        # batch 72: "Yes, this is an abdominal CT. Note: I cannot provide a diagnosis; please consult a medical
        # professional.": an answer, then a disclaimer of role or care, declines nothing
        refusal = False
    sure = is_sure(clean, item, method, label, refusal=refusal) and not partly_read and not hedged_close \
        and not sure_yes_alone and not lower_unborne
    if refusal and _answered_not_declined(clean, item, label, method):
        refusal = False
        if method == "declined":
            method = "ambiguous"  # batch 56: two answers weighed by name, neither taken: no decline
    return Answer(label, method, invalid=label is None, refusal=refusal, sure=sure)


# a guess after the decline's "but": "..., but i think it is an ultrasound", "..., but it looks like a CT to me"
_GUESS_AFTER_DECLINE = re.compile(r"(?i)\bbut[ \t,]+(?:i[ \t]+(?:think|believe|suspect)|i(?:'d|[ \t]+would)[ \t]+"
                                  r"(?:guess|say)|it[ \t]+(?:looks|seems)[ \t]+like|my[ \t]+(?:best[ \t]+)?guess"
                                  r"[ \t]+(?:is|would[ \t]+be))[ \t,:]+(?P<guess>[^.;!?\n]{2,120})[ \t.!]*\Z")


#: a probability stated for an option this far below even is against it; this close to even names no answer
_LOW_ODDS = 0.3
_EVEN_ODDS = 0.1


def _odds_against_option(clean: str, item: Item, label: str, refusal: bool, suggested: str | None) -> Answer | None:
    """The answer of a choice reply read from a mention of ``label`` where it states a probability of that option
    (:func:`confidence.named_odds`, :func:`confidence.finding_odds`): none for even odds, the other option of two for
    low odds of ``label``; None where the reply states no such probability (its reading stands)."""
    odds = finding_odds(clean)
    if odds is not None and abs(odds[0] - 0.5) <= _EVEN_ODDS:
        return Answer(None, "ambiguous", invalid=True, refusal=refusal)
    for named, x in named_odds(clean):
        found, how = _read(named, item, refusal, suggested, corrections=False)
        if found != label or how == "ambiguous":
            continue
        if abs(x - 0.5) <= _EVEN_ODDS:
            return Answer(None, "ambiguous", invalid=True, refusal=refusal)
        if x < _LOW_ODDS:
            other = [lb for _, lb in item.option_map if lb != label]
            if len(other) == 1:
                return Answer(other[0], "negated_option", invalid=False, refusal=refusal, sure=False)
            return Answer(None, "ambiguous", invalid=True, refusal=refusal)
    return None


# yes/no readings from where a word of the question or its finding occurs, not from an answer word
_YES_NO_MENTIONS = frozenset({"presence", "question_subject", "label_word", "negated_option"})




def _unread_words(alt: str, item: Item) -> bool:
    """Whether a reply read in gloss (``alt``: its words of other languages the glosses know, in English) keeps
    words that neither the glosses nor the question, the labels or the options account for: a language the rules
    read only in part."""
    return any(len(w) > 1 and w.casefold() not in lexicon.PLAIN_ENGLISH and w.casefold() not in item.own_words
               for w in lexicon.TOKEN.findall(alt))


def _opening_word_decides(alt: str, citem: Item, item: Item, said: str, found: str | None, how: str,
                          refusal: bool, suggested: str | None) -> tuple[str | None, str, bool]:
    """A yes/no reply that opens with the answer word of another language ("Xeyr, bu MRT deyil, ...", Azerbaijani:
    no, this is not an MRI), read in English (``alt``, its opening word glossed): (label, method, partly read).
    Where the rest of it is read only from a mention (the question's subject, a finding), in words of a language
    the rules do not read, which may deny it, the opening word decides; the reading is a guess when that mention
    says the other answer (batch 18: "no , bu MRI deyil" was ambiguous, the unread "deyil" being its "not"). A
    reading the rest of it declares or opens with is left as :func:`_read` gives it."""
    word = item.aliases["yep" if said == "yes" else "nope"]
    rest = re.sub(r"(?i)\A[\W_]*(?:yes|no)\b[\W_]*", "", alt, count=1)
    if not rest.strip() or rest == alt:
        return found, how, False
    on_rest, how_rest = _read(rest, citem, refusal, suggested)
    if how_rest not in _YES_NO_MENTIONS or (found == word and how != "ambiguous"):
        return found, how, False
    return word, "language", on_rest not in (None, word)


# batch 15: a yes/no reply that denies a whole clause ("It is not the case that the duct is of normal calibre - it
# measures 11 mm."): the clause is read on its own and its answer turned over
_NEGATED_CLAUSE = re.compile(r"(?i)\A[\W_]*it(?:\s+is|'s)\s+not\s+(?:the\s+case|true)\s+that\s+"
                             r"([^.;:!?\n]+?)(?:\s+-+\s+|[.;:!?\n]|\Z)")


def _negated_clause(clause: str, kind: str, labels: Sequence[str], item: Item, question: str | None,
                    refusal: bool) -> Answer:
    """The answer of a reply that says "it is not the case that <clause>": the opposite of the clause's own yes or
    no, never sure (a double negation is easily misread, by a model's reader and a person's); unread when the
    clause gives no answer."""
    inner = extract(clause, kind, labels, question=question)
    if inner.choice is None or inner.refusal:
        return Answer(None, "ambiguous" if inner.method == "ambiguous" else "none", invalid=True, refusal=refusal)
    flipped = item.aliases["nope"] if inner.choice == item.aliases["yep"] else item.aliases["yep"]
    return Answer(flipped, "negated_clause", invalid=False, refusal=refusal, sure=False)


_MENTIONS_OF_KIND = frozenset({"option_text_contained", "option_words", "option_keyword", "synonym", "label_word"})
_REPORT_MENTIONS = frozenset({"synonym", "option_words", "option_keyword", "option_value"})
# an Impression this short is the diagnosis itself ("Impression: Right pleural effusion."), read even from a mention
_SHORT_IMPRESSION = 8
# a report revised by a later line ("Addendum: ... Final answer: E."): its sections are no longer one report
_REPORT_REVISED = re.compile(r"(?i)\b(?:addendum|amended|amendment|revised|revision|corrected|correction|erratum)\b")
_SUBJECT_IN_SECTION = frozenset({"presence", "question_subject"})
_DECLARED_IN_SECTION = frozenset({"exact", "bare", "declaration", "leading", "boxed", "backtick", "option_text",
                                  "marked", "final_verdict", "presence", "question_subject"})


def _report_reading(clean: str, item: Item, refusal: bool, suggested: str | None) -> tuple[dict[str, str], bool] | None:
    """What a structured report's Impression and Answer sections each name, read alone and sure
    (:func:`structured.report_sections`), and whether the report has both sections; None for a reply that is no such
    report, or one revised by a later line."""
    sections = report_sections(clean)
    if sections is None or not {"impression", "answer"} & sections.keys() or _REVISION_HEADING.search(clean) \
            or _REVISED.search(clean) or _REPORT_REVISED.search(clean) or REVERSAL.search(clean) \
            or self_corrected(clean) is not None:
        return None
    got: dict[str, str] = {}
    for name in ("impression", "answer"):
        body = sections.get(name)
        if not body:
            continue
        found, how = _read(body, item, refusal, suggested, corrections=False)
        said = lexicon.foreign_yes_no(body) if item.kind == "yesno" and item.aliases else None
        if said is not None:
            # batch 71: "**Answer:** Nɔ, pneumothorax nɔ de na dis chest X-ray." (Krio: no, ...): the answer word of
            # another language opening the section, as it decides opening a reply
            got[name] = item.aliases["yep" if said == "yes" else "nope"]
            continue
        if found is None or how == "ambiguous" or not is_sure(body, item, how, found):
            continue
        if name == "impression" and (how not in _SUBJECT_IN_SECTION if item.kind == "yesno" else (
                how not in _DECLARED_IN_SECTION and len(body.split()) > _SHORT_IMPRESSION)):
            continue  # "Impression: No acute fracture." to "Does this image show the pelvis?": another finding
        got[name] = found
    return got, {"impression", "answer"} <= sections.keys()


# batch 32: "Revised answer: No." after a first sentence that answered otherwise
_REVISED_PLAIN = re.compile(r"(?i)\b(?:revised|updated|corrected|amended|changed|new)\s+answer[ \t]*[:=\u2013\u2014]")
# batch 72: "No.\nRevised answer after review: Yes. ...": the revision may say when it was made
_REVISED = re.compile(r"(?i)\b(?:revised|updated|corrected|amended|changed|new)\s+answer"
                      r"(?:[ \t]+(?:after|on|upon|following)[ \t]+(?:(?:a|further|second|closer)[ \t]+)*"
                      r"(?:review|reflection|re-?evaluation|re-?examination|look|inspection))?[ \t]*[:=\u2013\u2014]")
# a self-correction's closing conclusion after a comma ("..., so no"): a whole answer, not a cut
_SO = r"(?i)[,;][ \t]*(?:so|hence|therefore|thus)[ \t]+"
_SO_CONCLUDED = re.compile(_SO + r"(no|yes)[ \t]*\Z"
                           # batch 39: "yes. my mistake, the ratio is under half, no": the bare conclusion after a
                           # comma, lower case, ends the correction as "so no" does
                           r"|(?-i:,[ \t]*(no|yes))[ \t]*\Z")
# the clause a correction concludes with after ", so" ("..., so fluid is present")
_SO_CLAUSE = re.compile(_SO + r"([^,;.!?\n]{3,80}?)[ \t.!]*\Z")
# a closing conclusion after a comma that is an option's whole text ("..., so left hip")
_SO_OPTION = re.compile(_SO + r"([^\W\d_][^,;:.!?\n]{1,40}?)"
                        # batch 81: "..., so no fracture, d": the option's own letter after it, lower case
                        r"(?:[ \t]*,[ \t]*(?P<own>[a-h]))?[ \t.!]*\Z"
                        # batch 54: a list weighing each option, then a closing line "Most consistent: **C. Aortic
                        # dissection**." or "So: D. None of the above" (its letter, when it has one, the option's)
                        # batch 55: "**Best fit: C. Aortic dissection.**", the line in bold
                        r"|(?:(?<=\n)|\A)[ \t]*[*_]*(?:so|therefore|thus|hence|most\s+consistent|most\s+likely|"
                        r"best\s+fit)[ \t]*:"
                        r"[ \t]*[*_]*"
                        r"(?:((?-i:[A-H]))[.)][ \t]+)?([^\W\d_][^,;:.!?*_\n]{1,40}?)[*_ \t.!]*\Z")
# a line that opens as a revision ("Revision:", "Correction -"), and the answer declared after it ("Answer: No.")
# batch 72: "On review:" / "On further review," and "Amended:" ("Yes.\nAmended: ... non-displaced.\nAnswer: No") head a
# revision as "Revision:" does
_REVISION_HEADING = re.compile(r"(?im)^[ \t*_#]*(?:revision|correction|update|amendment|amended|erratum|"
                               r"on[ \t]+(?:further[ \t]+|second[ \t]+)?review)[ \t*_]*"
                               r"[:\-\u2013\u2014]")
_ANSWER_IN_REVISION = re.compile(r"(?i)\b(?:final\s+)?answer[ \t*_]*[:=\u2013\u2014]")


# how a revision's closing sentence states its answer, for that revision to be settled (the answer alone, declared,
# boxed, marked, or its lone letter)
_CLOSING_STATED = frozenset({"exact", "declaration", "boxed", "marked", "structured", "bare"})


def _revised_after_answer(clean: str, item: Item, refusal: bool, suggested: str | None) -> str | None:
    """The answer a closing "Revised answer: No." gives when the reply's first sentence gave another one."""
    last = None
    for last in _REVISED.finditer(clean):
        pass
    if last is None:
        # batch 38: a line headed as a revision, then an answer declared in it ("Yes.\nRevision: the image shows ...,
        # which is an axial plane. Answer: No.")
        heading = _REVISION_HEADING.search(clean)
        if heading is not None:
            for last in _ANSWER_IN_REVISION.finditer(clean, heading.end()):
                pass
    if last is None:
        return None
    after = clean[last.end():]
    end = SENTENCE_END.search(after.strip(" \t*_"))
    found = _read(after.strip(" \t*_")[:end.start()] if end is not None and end.start() > 0 else after, item,
                  refusal, suggested, corrections=False)[0]
    first = SENTENCE_END.search(clean)
    if found is None or first is None or first.start() >= last.start():
        return None
    opened = _read(clean[:first.start()], item, refusal, suggested, corrections=False)[0]
    return found if opened is not None and opened != found else None


# refusal phrases that say only that the question cannot be answered as asked (not that the image is missing, unseen
# or unreadable)
_UNANSWERABLE = frozenset({"cannot-decide", "cannot-be-determined", "impossible-to-tell", "not-applicable",
                           "image-does-not-fit"})
# "I can't decide." / "I can't decide between them.": the reply's own doubt, nothing it lacks
_CANT_DECIDE = re.compile(r"(?i)\b(?:can(?:\s*not|'t)|could(?:\s*not|n't)"
                          # batch 40: "correct. hmm actually not sure, it might be flipped, ..., cant decide"
                          r"|\bcant)\s+(?:really\s+)?(?:decide"
                          r"(?:\s+between\s+(?:them|the\s+two|these|those))?"
                          # batch 39: "Correct orientation. Actually, ... the film could be flipped. I can't say with
                          # confidence which it is.": which of the answers, after the correction
                          # batch 72: "... and now I honestly can't say which of the two it is."
                          r"|say\s+(?:with\s+(?:any\s+)?confidence\s+|for\s+(?:sure|certain)\s+)?which\s+"
                          r"(?:it\s+is|one\s+it\s+is|is\s+right|of\s+the\s+(?:two|three)\s+it\s+is)"
                          # batch 95: "... which would make it aggravating. I can't say which with confidence now."
                          r"|say\s+which(?:\s+with\s+(?:any\s+)?confidence|\s+for\s+(?:sure|certain))?"
                          # batch 21: "... I keep going back and forth, so I can't give you a firm answer."
                          r"|give\s+(?:you\s+)?(?:a\s+)?(?:firm|definite|definitive|clear|straight|final|confident)\s+"
                          r"answer)"
                          # batch 20: "I really can't decide now.": the doubt in time, not a want of what it needs
                          r"(?:\s+(?:now|any\s*more|either\s+way|at\s+this\s+point))?[ \t]*(?:[.!]|\Z)")


# batch 56: a closing sentence that weighs two answers by name and blames nothing the image lacks ("... I honestly
# can't decide between proliferative and non-proliferative here.", "Unable to determine benign versus malignant."; not
# batch 36's "I can't decide between benign and malignant from this image.")
_NOT_FROM_IMAGE = r"(?:(?!\b(?:from|on|in|with)\s+(?:this|the|these)\b)[^.;!?\n]){1,40}?"
# batch 58: "... Solid versus cystic cannot be determined confidently; both remain possible." (the two answers first)
_TWO_BY_NAME_CLOSE = re.compile(r"(?i)(?:(?:\b(?:can(?:\s*not|'t)|cant)\s+decide\s+between\s+"
                                r"(?!(?:them|the\s+two|these|those)\b)" + _NOT_FROM_IMAGE + r"\s+and\s+"
                                r"|\bunable\s+to\s+(?:determine|decide)\s+" + _NOT_FROM_IMAGE
                                + r"\s+(?:versus|vs\.?)\s+)" + _NOT_FROM_IMAGE + r"(?:\s+here)?"
                                r"|(?:\A|(?<=[.;:!?\n]))[ \t]*[^\W\d_][\w\-]*\s+(?:versus|vs\.?)\s+[^\W\d_][\w\-]*\s+"
                                r"cannot\s+be\s+(?:determined|decided|told)(?:\s+confidently|\s+with\s+(?:any\s+)?"
                                r"(?:confidence|certainty))?(?:[ \t]*[;,][ \t]*both\s+(?:remain|are)\s+possible)?)"
                                r"[ \t]*[.!]?[ \t]*\Z")


# "I'll leave it open." closing the reply
_LEFT_OPEN = re.compile(r"(?i)\bi(?:'ll|\s+will|'d|\s+would)\s+(?:have\s+to\s+)?leave\s+(?:this|that|it|the\s+question)"
                        r"(?:\s+one)?\s+open[ \t]*[.!]?[ \t]*\Z")


def _disclaimer_after_answer(clean: str, item: Item, label: str) -> bool:
    """Whether the reply opens with its answer, read sure from its first sentence alone, and what the refusal phrases
    flag after it only disclaims the model's role or the person's care (:func:`refusals.only_disclaims`; batch 72:
    "yes it is an xray of the chest. i am not a doctor", "No, this is a frontal (PA) view. I'd add the usual caveat:
    I can describe what's in the picture, but I can't assess you as a patient.")."""
    t = lexicon.fold_quotes(clean)
    first = SENTENCE_END.search(t)
    if first is None:
        return False
    head = t[:first.start()]
    found, how = _read(head, item, False, None, corrections=False)
    return found == label and is_sure(head, item, how, found) and only_disclaims(t, first.start())


def _foreign_opening(clean: str, refusal: bool) -> str | None:
    """The yes or no word of another language the reply opens with (:func:`lexicon.foreign_yes_no`), unless that
    word opens a phrase that declines ("Non vedo nessuna immagine nel messaggio.", a hostile review of held-out batch
    146's fixes): its "Non" is no answer word."""
    if refusal:
        first = re.search(r"[^\W\d_]", clean)
        if first is not None and any(a <= first.start() < b for a, b in refusal_spans(clean)):
            return None
    return lexicon.foreign_yes_no(clean)


def _answered_not_declined(clean: str, item: Item, label: str | None, method: str) -> bool:
    """Whether a reply the refusal phrases flag answers rather than declines (batch 11): it chooses the escape option
    that says the question does not suit the image or rests on a wrong premise, for the reason those phrases give
    ("Option A. The image is a renal ultrasound, not a VCUG, so reflux can't be graded."), or it takes its own answer
    back with a bare "I can't decide" after a self-correction ("No, it's a frontal view. Hmm, unless the arms are
    raised for a lateral - I can't decide.": a doubt about its answer, as "I'm not sure" after a reversal is; not
    "Yes. No. I cannot decide.", nor "I cannot decide without a lateral view"), or "I keep going back and forth, so I
    can't give you a firm answer." (batch 21)."""
    names = refusal_names(clean)
    if names == {"decline"} and label is None and method in ("withdrawn", "ambiguous") and _LEFT_OPEN.search(clean):
        # batch 22: "Proliferative diabetic retinopathy (B). On a second pass I'm less sure ...; it could just as well
        # be non-proliferative. I'll leave it open.": an answer, doubted, then left open ends in doubt, it declines
        # nothing (not "I'll leave it open." alone, nor after two answers weighed: "B or C; I'll leave it open.")
        first = SENTENCE_END.search(clean)
        return first is not None and _read(clean[:first.start()], item, False, None, corrections=False)[0] is not None
    if (names and names <= {"cannot-decide", "cannot-be-determined"} and label is None
            and _TWO_BY_NAME_CLOSE.search(clean)):
        # batch 56: an answer given, doubted, then two answers weighed by name to close the reply: a doubt about its
        # answer, nothing it lacks (not "A or B, I really can't decide between a stone and a tumour here.")
        first = SENTENCE_END.search(clean)
        return first is not None and _read(clean[:first.start()], item, False, None, corrections=False)[0] is not None
    if not names or not names <= _UNANSWERABLE:
        return False
    if label is not None and any(label in item.escapes.get(k, []) for k in ("unsuitable", "premise")):
        return True
    tail = self_corrected(clean) if label is None and method in ("withdrawn", "ambiguous") else None
    return names == {"cannot-decide"} and tail is not None and _CANT_DECIDE.search(tail) is not None


def _concluded_section(clean: str, item: Item, refusal: bool, suggested: str | None) -> str | None:
    """Batch 90 (long replies): the answer a systematic review or a differential states under its closing heading
    ("### Conclusion\nThis dermoscopic image is most consistent with **A. Melanoma**.", "**Impression:**\n\nYes,
    there is ascites, moderate in volume."), read there alone and sure, where nothing after it revises it; None
    otherwise (the rules go on to the whole reply)."""
    section = conclusion_section(clean, inline=True) if len(clean.split()) > LONG_WORDS else None
    if section is None or REVERSAL.search(clean) or _REPORT_REVISED.search(clean) or self_corrected(clean) is not None:
        return None
    found, how = _read(section, item, refusal, suggested, corrections=False)
    if found is None or how == "ambiguous" or not is_sure(section, item, how, found) \
            or not _about_the_question(section, item, found):
        return None
    return found


def _concluded_otherwise(clean: str, item: Item, decl: Found, refusal: bool, suggested: str | None) -> bool:
    """Whether a long reply's closing section (:func:`structured.conclusion_section`, its first paragraph), after
    the answer it declares, names another answer."""
    section = conclusion_section(clean) if len(clean.split()) > LONG_WORDS else None
    if section is None or clean.rfind(section[:60]) <= decl.at:
        return False
    first = section.split("\n\n")[0]
    found, how = _read(first, item, refusal, suggested, corrections=False)
    if how == "ambiguous":  # "Both kidneys show at least mild dilatation, right more than left." after "Answer: Left"
        return decl.label not in named_in(first, item)
    return found is not None and found != decl.label


def _about_the_question(section: str, item: Item, label: str) -> bool:
    """Whether a closing section or sentence speaks of what the question asks and of one answer: for yes/no, the
    asked finding named in it ("No pneumothorax, no consolidation." does not answer "Is there a pleural effusion?";
    "Yes, I'm confident this liver is normal." does not say whether it is cirrhotic); for a choice, no other option
    named beside the answer, by its letter or its text ("Melanoma (A)\nOr B, seborrheic keratosis - I can't split
    them"; hostile review of batches 90-91)."""
    if item.kind == "choice":
        others = [lb for lb in item.labels if lb != label]
        return not any(lone_letter(lb).search(section) for lb in others) and set(named_in(section, item)) <= {label}
    if not item.question:
        return False
    finding = asked_finding(item.question) or subject.asked_predicate(item.question)
    if finding:
        return overlap.stem(finding) in {overlap.stem(w) for w in WORD.findall(section)}
    asked = asked_stems(item.question)
    return bool(asked & finding_stems(section)) if asked else \
        subject.answer_from_subject(section, item.question) is not None


def _revised_declaration(clean: str, item: Item, decl: Found, refusal: bool, suggested: str | None) -> str | None:
    """Batch 20: the answer a revision after a declared one gives ("Answer: correct.\nRevision: the fibular head is
    above the joint line ..., so the image is upside down.", "Answer: B. Update - ... so A."): words of revision
    after the declaration's own sentence, and what follows them read as another answer (never sure:
    sureness.doubts); None when they name none or the same one ("Revision: none, B stands.")."""
    end = re.compile(r"[.!?;\n]").search(clean, max(decl.at, 0))
    for m in REVISION.finditer(clean, end.end() if end else len(clean)):
        found, _ = _read(clean[m.end():], item, refusal, suggested, corrections=False)
        if found is not None and found != decl.label:
            return found
    return None


# a part of what is asked left unassessed: "not clearly assessable", "cannot be assessed", "not evaluable"
# batch 41: "the heart is a bit big maybe, or normal": a hedged first description, then ", or" and the option's text,
# offers the two as alternatives ("Normal, or near normal." and "maybe normal" are not such)
_HEDGE_THEN_OR = re.compile(r"(?i)\b(?:maybe|perhaps|possibly|probably)[ \t]*,?[ \t]+or[ \t]+"
                            r"(?:(?:a|an|the|just|simply)[ \t]+)?$")


# batch 55: "It's somewhere between mildly and severely enlarged; ...": an option's text as the far end of a range
# that opens at another grade ("between X and") is no answer, however the reply goes on
_BETWEEN_THEN_AND = re.compile(r"(?i)\bbetween[ \t]+(?!the[ \t]+two\b)[^.;:!?\n,]{1,40}?[ \t]+and[ \t]+"
                               r"(?:(?:a|an|the)[ \t]+)?$")


# batch 120: "Both vasogenic and cytotoxic edema are present in this image." to "Does this image show vasogenic or
# cytotoxic edema?": two options' words joined under one noun and said both (not "Both hemispheres show cytotoxic
# edema."), which the question's words do not explain away
_BOTH = re.compile(r"(?i)\bboth[ \t]+(?:[\w\-]+[ \t]+){0,3}?(?:and|&)[ \t]|\b(?:are|is)[ \t]+both\b|"
                   r"\bboth[ \t]+(?:are[ \t]+)?(?:present|seen|shown|visible)\b")


def _hedged_or_option(text: str, item: Item, lab: str) -> bool:
    """Whether the option ``lab``'s text follows a hedge and ", or" (:data:`_HEDGE_THEN_OR`), or closes a range
    "between ... and" (:data:`_BETWEEN_THEN_AND`)."""
    low = norm(text)
    # each pattern only where its word is in the reply: a mention-by-mention search is 100,000 searches on "B)" * 50,000
    pats = [pat for pat, word in ((_HEDGE_THEN_OR, "or"), (_BETWEEN_THEN_AND, "between")) if word in low]
    return bool(pats) and any(pat.search(low, max(0, m.start() - 80), m.start()) for opt, o_lab in item.option_map
                              if o_lab == lab for m in whole_text(opt).finditer(low) for pat in pats)


_UNASSESSED = re.compile(r"(?i)\b(?:not\s+(?:clearly\s+|reliably\s+|fully\s+)?(?:assessable|evaluable|assessed|"
                         r"countable)|can(?:not|'t|\s+not)\s+be\s+(?:clearly\s+|reliably\s+)?(?:assessed|evaluated|"
                         r"counted)|unassessable|non-?assessable)\b")


_LEFT_UNCLEAR = re.compile(r"(?i)\b(?:it\s+is|it's|it\s+remains)\s+(?:still\s+)?unclear\s+(?:whether|which|if)\b")
# batch 51: "Stable, I'd say (A). Though now ... it may have grown ... — honestly, I can't tell from this whether it's
# stable or aggravating.": a closing sentence that weighs two answers by name and takes neither withdraws the one
# given; batch 52: "Answer: B. Right hip. Re-review: ... Unable to decide between right hip and both hips." (not
# "whether it's displaced or not", which weighs no second answer)
_LEFT_BETWEEN = re.compile(r"(?i)\bi\s+(?:honestly\s+|really\s+|still\s+)?(?:can't|cannot|can\s+not|cant)\s+tell"
                           r"(?:\s+from\s+(?:this|here|the\s+(?:image|film|scan))|\s+now)?\s+whether\s+"
                           r"(?:it's|it\s+is|this\s+is|they're|they\s+are)\s+[^.;!?\n]{1,40}?\s+or\s+(?!not\b)\w"
                           # batch 95: "... the sac may have grown ..., which would make it aggravating. I can't say
                           # which with confidence now."
                           r"|\bi\s+(?:honestly\s+|really\s+)?(?:can't|cannot|can\s+not|cant)\s+(?:honestly\s+)?say\s+which"
                           r"(?:\s+(?:it\s+is|one\s+it\s+is))?(?:\s+with\s+(?:any\s+)?confidence|\s+for\s+(?:sure|certain))?"
                           r"\s+now[ \t]*(?:[.!]|\Z)"
                           # batch 98: "Conclusion: I am unable to determine with confidence whether this image was
                           # acquired before or after gadolinium."
                           # batch 101: "... or mildly dilated. I'm not sure either way."
                           r"|\bi(?:'m|\s+am)\s+(?:not|no\s+longer)\s+sure\s+either\s+way\b"
                           # batch 107: "... that could just as well be cytotoxic edema; without a diffusion map I
                           # honestly can't choose between them now."; batch 109: "I can't decide between the two from
                           # this photograph."
                           r"|\bi\s+(?:honestly\s+|really\s+|genuinely\s+)?(?:can't|cannot|can\s+not|cant)\s+"
                           r"(?:choose|decide|pick)\s+between\s+(?:them|the\s+two|these\s+two)\b"
                           # batch 106: "So I'm genuinely not able to say which of the two this is from the images
                           # provided"
                           r"|\bi(?:'m|\s+am)\s+(?:genuinely\s+|honestly\s+|really\s+)?(?:not\s+able|unable)\s+to\s+"
                           r"(?:say|tell|determine)\s+which\s+of\s+the\s+two\b"
                           r"|\bi(?:'m|\s+am)\s+unable\s+to\s+(?:determine|say|tell)\s+(?:with\s+(?:any\s+)?confidence\s+)?"
                           r"whether\b[^.;!?\n]{1,120}?\bor\b"
                           # batch 108: "Honestly, I don't think the image allows a confident distinction between
                           # those two. The right step would be ... excision for histology.", "So between those three,
                           # I'd leave it to MRI of the whole femur, ... and, ultimately, a biopsy."
                           r"|\bi\s+(?:don't|do\s+not)\s+think\s+(?:the|this)\s+(?:image|film|scan|photo(?:graph)?|picture)"
                           r"\s+allows\s+(?:a\s+)?(?:(?:confident|reliable|clear|firm)\s+)?distinction\s+between\s+"
                           r"(?:them|those\s+two|these\s+two|the\s+two)\b(?![^.;!?\n]*\bbut\b)"
                           r"|\A\W*(?:so\s+)?between\s+(?:them|those|these|the)(?:\s+(?:two|three))?,?\s+i(?:'d|\s+would)\s+"
                           r"leave\s+it\s+to\b"
                           r"|" + WEIGHED_BY_NAME)


# rules that read an answer the reply states as its answer (not one read from where a word occurs)
_STATED = frozenset({"exact", "declaration", "boxed", "backtick", "structured", "leading", "bare", "final_verdict"})
_RUN_ON_ANSWER = re.compile(r"(?i)\A([\W_]*no)(\s+(?:the|its|this|that)\s)")
_STEP_NUMBER = re.compile(r"(?i)(\bsteps?[ \t]+)(\d{1,2})\b")
_THAN_NORMAL = re.compile(r"(?i)\b((?:[a-z]+er|more|less))\s+than\s+(?:the\s+)?normal\b")
# batch 78: "picture is flipped left right", "a left-right flip": the sides name the flip's axis, not an answer
_SIDES = r"left(?:[ \t]*(?:-|\u2013|/|to)[ \t]*|[ \t]+)right\b"
_FLIP_AXIS = re.compile(r"(?i)\b(?:flip(?:ped|s)?|mirror(?:ed|s)?|swap(?:ped|s)?)[ \t]+(?:horizontally[ \t]+)?"
                        r"(?:from[ \t]+)?" + _SIDES + r"|\b" + _SIDES + r"[ \t]+(?:flip|mirror|swap)")
# a reply that is only a number word, after an optional lead-in ("In one word:", "Answer:")
_LONE_NUMBER_WORD = re.compile(r"(?i)\A[\W_]*(?:(?:in\s+(?:one\s+word|a\s+word|short)|(?:final\s+)?answer)"
                               r"\s*[:,\-]\s*)?(" + "|".join(NUMBER_WORDS) + r")[ \t]*[.!]?[ \t]*\Z")
# batch 51: "Differential: calculus vs urothelial neoplasm." (a differential of two or more named against each other:
# "X vs Y", "X versus Y", "X or Y"): a differential names no answer (a sentence of its own, masked before the rest is
# read)
_DIFFERENTIAL = re.compile(r"(?im)(?:^|(?<=[.;!?]\s)|(?<=[.;!?]))[ \t]*"
                           r"(?:differentials?|ddx|differential\s+diagnos[ie]s)"
                           r"(?:\s+(?:includes?|is|are))?\s*:?[ \t]+[^.;!?\n]{1,80}?\s(?:vs\.?|versus|or)\s"
                           r"[^.;!?\n]{1,80}(?:[.;!?]|$)"
                           # batch 54: "IMPRESSION: Right basal opacity; effusion versus consolidation versus
                           # atelectasis." (three or more named against each other in one clause, with no head: a
                           # differential all the same; not a lone "X versus Y", which may go on to take one)
                           r"|(?:^|(?<=[.;:!?]\s)|(?<=[.;:!?]))[ \t]*[^.;:!?\n]{1,80}?\s(?:vs\.?|versus)\s"
                           r"[^.;:!?\n]{1,80}?\s(?:vs\.?|versus)\s[^.;!?\n]{1,80}(?:[.;!?]|$)"
                           # batch 81: "Impression: Hydrocephalus, communicating versus obstructive." (a lone "X versus
                           # Y" that ends its sentence without taking one; not "X versus Y: X", nor one that favours)
                           r"|(?:^|(?<=[.;:!?]\s)|(?<=[.;:!?]))[ \t]*+(?![^.;:!?\n]*\b(?:favou?r\w*|prefer\w*|"
                           r"likel\w*|probabl\w*|rather|more|over|than)\b)[^.;:!?\n]{1,80}?\s(?:vs\.?|versus)\s"
                           r"[^.;:!?\n]{1,60}?[ \t]*(?:[.;!?]|$)")
# batch 51: "Mixed pattern: cortical restricted diffusion with a surrounding white-matter vasogenic component." (a reply
# that opens calling the picture mixed keeps both answers); batch 52: "I'd put that on the list alongside aortic
# dissection": two answers kept on the list together; neither where a declaration names one ("Mixed pattern, but
# the answer is A")
_BOTH_KEPT = re.compile(r"(?i)\A[\W_]*(?:a\s+)?mixed\s+(?:pattern|picture|appearance|type)\s*[:;,\u2014\-]"
                        r"|\b(?:on|in)\s+(?:the|my)\s+(?:list|differential)\s+(?:alongside|along\s+with|together\s+with|"
                        r"next\s+to)\b"
                        # batch 52: "an obstructing stone and a ureteral tumour can look alike on this ultrasound, and
                        # I'd want a CT urogram before choosing between them"
                        r"|\b(?:can|could|may|might)\s+look\s+(?:alike|identical|the\s+same)\b"
                        r"|\bbefore\s+(?:choosing|deciding|picking)\s+between\s+(?:them|the\s+two|these|those)\b"
                        # batch 51: "The heart is at least mildly enlarged; whether it crosses into severe depends on
                        # ...": a degree stated as a floor, the higher one left open
                        r"|\bat\s+least\s+[^.;!?\n]{1,40}?[;,:\u2014\-]?\s+(?:but\s+)?whether\s+[^.;!?\n]{1,80}?"
                        r"\b(?:depends\s+on|is\s+(?:unclear|uncertain|hard\s+to\s+say)|i\s+(?:can't|cannot)\s+"
                        r"(?:say|tell))"
                        # batch 53: "it could be a tumor or an abscess" (a reply that is only two things it could
                        # be): no answer taken
                        r"|\A[\W_]*(?:it|this|that)\s+(?:could|might|may)\s+be\s+(?:either\s+)?(?:an?\s+)?[\w\-]+"
                        r"(?:\s+[\w\-]+)?\s+or\s+(?:an?\s+)?[\w\-]+(?:\s+[\w\-]+)?[\W_]*\Z"
                        # batch 53: "the femoral head on the viewer's left shows collapse — whether that's the
                        # patient's left or right depends on how the film was hung": a side given only as the
                        # viewer's, the patient's side left open, names no side
                        r"|\bviewer's\s+(?:left|right)\b[^.;!?\n]{0,80}?\bwhether\s+(?:that's|that\s+is|it's|it\s+is|"
                        r"this\s+is)\s+(?:the\s+)?patient's\s+(?:left|right)\s+or\s+(?:(?:the\s+)?patient's\s+)?"
                        r"(?:left|right)\b")
_CANT_SEPARATE = re.compile(r"(?i)\bi\s+(?:still\s+|honestly\s+|really\s+)?(?:can't|cannot|can\s+not|cant)\s+"
                            r"(?:separate|distinguish|differentiate|tell)\s+([^.;!?\n]{1,60}?)\s+(?:from|and)\s+"
                            r"[^.;!?\n]{1,60}")
_UNDECIDED_CLOSE = re.compile(r"(?i)\A\W*(?:unable\s+to\s+decide|(?:i\s+)?(?:cannot|can't)\s+decide|undecided)\W*\Z")
# what takes one of two kept answers ("Mixed pattern, predominantly vasogenic (A).")
_ONE_TAKEN = re.compile(r"\((?-i:[A-H])\)|(?i:\b(?:predominantly|mainly|mostly|chiefly|largely|favou?r(?:s|ing)?)\b)")


# batch 111: two grades offered ("Grade I or II — the slip is right around 25%, so it sits on the boundary"): the "I"
# of the first is no word the option matching counts, so the second alone was read
_GRADE_RANGE = re.compile(r"(?i)\b(grade|type|stage|class|category|level)\s+([IVX]{1,4}|\d{1,2}|[A-E])\s*"
                          r"(?:or|/|to|\u2013|-)\s*(?:\1\s+)?([IVX]{1,4}|\d{1,2}|[A-E])\b(?!\s*\?)")


def _two_grades(clean: str, item: Item) -> bool:
    """Whether the reply offers two of the options' grades (types, stages) as one answer (:data:`_GRADE_RANGE`), in
    its first or last sentence, where an answer is given (not a review's "**Grade I / II / III (A, B, D):** Meyerding
    grading requires a lateral view" after "**Answer: C. ...**")."""
    if not _GRADE_RANGE.search(clean):
        return False
    texts = dict(item.option_map)  # (option texts are case-folded already: cleaning.norm)
    sentences = re.split(r"(?<=[.!?\n])\s+", clean.strip())
    for m in (m for x in {sentences[0], sentences[-1]} for m in _GRADE_RANGE.finditer(x)):
        first, second = (texts.get(f"{m.group(1)} {x}".casefold()) for x in (m.group(2), m.group(3)))
        if first is not None and second is not None and first != second:
            return True
    return False


def _only_deferred(clean: str, item: Item) -> bool:
    """Whether the reply names what is asked only where it leaves it to another test (batch 107: "Both femoral heads
    show some patchy sclerosis; whether either has the subchondral lucency of avascular necrosis would need an MRI to
    say.": no hip is said to have it)."""
    spans = deferred_spans(clean, item)
    asked = asked_stems(item.question) if spans and item.question else set()
    if not asked:
        return False
    outside = mask_spans(clean, spans)
    texts = dict(item.option_map)
    stated = any(x.strip(" \t\n*_.;:!").casefold() in texts or item.exact(x) is not None
                 for x in re.split(r"[.;!?\n]", outside))  # "Both hips. Whether ... would need a CT to say."
    return not stated and not asked & finding_stems(outside)


def _read(clean: str, item: Item, refusal: bool, suggested: str | None, corrections: bool = True
          ) -> tuple[str | None, str]:
    """The rules in order (module doc) on a cleaned reply: (label or None, method)."""
    kind = item.kind
    # 0. the reply is a label
    lab = item.exact(clean)
    if lab is not None:
        return lab, "exact"
    lab = called_normal(clean, item) if kind == "choice" and item.escapes else None
    if lab is not None:
        return lab, "escape_option"  # batch 81: "Normal left lung." to "What abnormality is seen in the left lung?"
    # batch 34: the reply's last sentence leaves two of the answers open ("IMPRESSION: A. Left hip avascular
    # necrosis.\nADDENDUM: ...; it is unclear whether this is the left hip alone or both hips."): no answer stands
    if kind == "choice" and _two_grades(clean, item):
        return None, "ambiguous"
    if kind == "choice" and _only_deferred(clean, item):
        return None, "ambiguous"
    if corrections and kind != "yesno":
        sentences = re.split(r"(?<=[.!?;\n])\s*(?=\S)", clean.strip())
        last = sentences[-1]
        if kind == "choice" and _LEFT_UNCLEAR.search(last) and len(named_in(last, item)) > 1:
            return None, "ambiguous"
        if kind == "choice" and any(
                m.start() > last_declaration(clean, item).at
                and (len(named_in(m.group(0), item)) > 1 or m.group(1).casefold() in ("it", "this", "that"))
                for m in _CANT_SEPARATE.finditer(clean)):
            # hostile reviews of 3aa43ea and 7d438ea: "Putting it together, I still can't separate septic arthritis from
            # avascular necrosis without aspiration.", "Working diagnosis is septic arthritis, but I can't distinguish
            # it from AVN on this film." (two options, or "it" and an option; not "I can't separate the bowel wall
            # from the hernia sac", nor one a later declaration settles: "... Final answer: B.")
            return None, "ambiguous"
        # the closing sentence, or the one before a bare "Unable to decide." that closes the reply
        # (batch 98: or before a closing remark that names no option: "Honestly, I can't settle between the left alone
        # and both femurs on this single AP view. A dedicated lateral view of each hip ... would answer it.")
        if _LEFT_BETWEEN.search(last) or (len(sentences) > 1 and (_UNDECIDED_CLOSE.match(last)
                                                                  or not named_in(last, item))
                                          and _LEFT_BETWEEN.search(sentences[-2])):
            return None, "ambiguous"
    # 1a. the final verdict after a self-correction ("No. Wait, it is enlarged. Yes.")
    if corrections:
        tail = self_corrected(clean)
        if tail is not None:
            found, how = _read(tail, item, refusal, suggested, corrections=False)
            # batch 70: "red. hmm wait maybe blue, they look about the same distance": the label after "maybe" in
            # the correction is entertained, and the answer before it no longer stands
            if (TAIL_HEDGE.search(tail) or WITHDRAWN.search(tail)) and (
                    found is not None or entertained_labels(tail, item) or named_in(tail, item)
                    or (kind == "label" and label_words(tail, item, guesses=True))):
                # "A. Actually, I am not sure; it could be C as well.", "C. Wait, maybe B." (also where a declared
                # answer follows the doubt: a hostile review of 397d1cb, "Yes. Wait, could this be a skin fold? Final
                # answer: Yes. No pleural line is seen, however, so no pneumothorax.")
                return None, "ambiguous"
            between = UNDECIDED_BETWEEN.search(tail)
            if found is None and (WITHDRAWN.search(tail) or _LEFT_BETWEEN.search(tail)
                                  or (between is not None and len(named_in(between.group(0), item)) > 1)):
                # "The answer is B. On second thought, I'm unsure whether ..."; batch 59: "Answer: yes.\n\nADDENDUM:
                # On review, ... Fracture versus nutrient canal cannot be differentiated on this single view."
                return None, "withdrawn"
            if found is None and how == "truncated" and kind == "choice":
                # batch 23: "**D. Tuberculosis.** Re-reading the film, ..., so I'd switch to **A. Sarcoidosis** — ...
                # and the absence of": the new answer, written out with its letter, stands before the cut (unsure)
                found = _written_out(tail, item)
            concluded = _SO_CONCLUDED.search(tail) if found is None and how == "truncated" else None
            if concluded is not None:
                # batch 38: "yes. wait, that line is a skin fold, lung markings go to the edge, so no": the correction
                # ends in its conclusion after a comma, no cut (unsure, as every final verdict after a correction)
                found = _read(concluded.group(1) or concluded.group(2), item, refusal, suggested,
                              corrections=False)[0]
            concluded_clause = _SO_CLAUSE.search(tail) if found is None and how == "none" else None
            if concluded_clause is not None:
                # batch 93: "no free fluid. oh wait there is a dark stripe between the liver and kidney, so fluid is
                # present": the correction's own conclusion after ", so", read alone
                said, how_said = _read(concluded_clause.group(1), item, refusal, suggested, corrections=False)
                found = said if how_said != "ambiguous" else None
            if found is None and how != "ambiguous" and kind == "yesno" and item.aliases:
                # batch 43: "yes lateral. no sorry it is pa, ...": the cue's own "no" takes back a "yes" before it
                # and answers, where what follows names no answer (a guess, as every final verdict after a
                # correction)
                at = retracted_by_no(clean)
                if at > 0 and _read(clean[:at], item, refusal, suggested, corrections=False)[0] == \
                        item.aliases["yep"]:
                    found = item.aliases["nope"]
            if found is not None:
                return found, "final_verdict"
            if how == "ambiguous":
                return None, how
    else:
        # what follows a self-correction: its closing sentence, when it is a lone label or opens with one as its
        # answer ("... Yes, there is a pneumothorax."), is the verdict
        lab = closing_label(clean, item) or closing_answer(clean, item)
        if lab is not None:
            return lab, "final_verdict"
    if corrections and kind != "yesno":
        # batch 17: answers each under its own condition ("If the troponin is raised ..., A; if the D-dimer is high
        # ..., B; ...", "if febrile B, otherwise A") name no answer; what the reply says outside them may
        spans, conditional = conditional_answers(clean, item)
        if len(conditional) > 1:
            found, how = _read(mask_spans(clean, spans), item, refusal, suggested, corrections=False)
            return (found, how) if found is not None else (None, "ambiguous")
        spans = runner_up_spans(clean)
        if spans:
            # "First choice: B. Second choice: C.": the runner-up names no answer; what the reply says outside it may
            # (where it names none, there is nothing the runner-up ranks below: "Second choice: proliferative ..." in a
            # reply that says nothing else names the second option by its place, positions.py)
            found, how = _read(mask_spans(clean, spans), item, refusal, suggested, corrections=False)
            if found is not None:
                return found, how
            if not all(_runner_up_in_place(clean[start:end], item, refusal, suggested) for start, end in spans):
                return None, "ambiguous"  # "Second choice: C." alone: ranked second, below no answer it gives
    # 1. last explicit declaration (weak ones, "it is B" / "probably B", wait for rule 3b)
    decl = last_declaration(clean, item)
    if decl.kind == "conflict":
        return None, "ambiguous"  # "The answer is A: Pleural effusion" when pleural effusion is B
    if decl.label is not None and decl.kind != "weak":
        # (not a revision, whose body holds the answer it revises: "I called it non-proliferative, but ... Revised
        # answer: B. Proliferative diabetic retinopathy.", held-out batch 132)
        if decl.at > 0 and against_body(clean[:decl.at], item, decl.label) \
                and not _letter_and_word_agree(clean[decl.at:], item, decl.label) \
                and not _REVISED.search(clean, max(0, decl.at - 20), decl.at + 60):
            return None, "ambiguous"  # "... classic for cardiogenic pulmonary edema.\n\nAnswer: A" (A: pneumonia)
        if _against_own_reasons(clean, item, decl, refusal, suggested):
            # batch 80: '{"answer": "yes", "reasoning": "The CBD measures 3 mm, within normal limits; ..."}',
            # '{"answer": "A", "answer_text": "Pleural effusion"}' (A: cardiomegaly), '{"left_hip": "avascular
            # necrosis", "right_hip": "unremarkable", "answer": "B"}': an answer against its own stated reasons
            return None, "ambiguous"
        if kind == "choice" and opening_option(clean, item) not in (None, decl.label):
            return None, "ambiguous"  # "Yes, the answer is A." when A is "No"
        if corrections and _concluded_otherwise(clean, item, decl, refusal, suggested):
            # batch 100: "**Answer: The left kidney**\n\n### Findings\n- Right kidney: ... markedly dilated ...\n\n###
            # Impression\nModerate-to-severe right-sided hydronephrosis ...": the heading and the impression disagree
            return None, "ambiguous"
        sug = suggested_label(suggested, item)
        if sug is not None and sug != decl.label and agrees(clean):
            return None, "ambiguous"  # "The physician's answer is correct. The correct answer is: C" (A suggested)
        if corrections:
            revised = _revised_declaration(clean, item, decl, refusal, suggested)
            if revised is not None:
                return revised, "final_verdict"  # "Answer: correct.\nRevision: ... so the image is upside down."
        if decl.kind == "post" and kind != "choice" and corrections:
            # "Red looks closest at first glance, but ... Green.": a closing lone label is the final verdict
            closing = closing_label(clean, item)
            if closing is not None and closing != decl.label:
                return closing, "final_verdict"
        return decl.label, "language" if decl.kind == "foreign" else "declaration"
    out_of_range = decl.out_of_range
    sectioned = _concluded_section(clean, item, refusal, suggested) if corrections else None
    if sectioned is not None:
        return sectioned, "final_verdict"
    if corrections and kind == "choice" and decl.label is None:
        if _BOTH_KEPT.search(clean) and not _ONE_TAKEN.search(clean):
            return None, "ambiguous"  # "Mixed pattern: ...", "I'd put that on the list alongside aortic dissection"
        low = clean.casefold()  # (each branch needs one of these words: no scan of a long reply without them)
        spans = [m.span() for m in _DIFFERENTIAL.finditer(clean)] \
            if any(w in low for w in ("differential", "ddx", "vs", "versus")) else []
        if spans:
            # "Hydronephrosis with an obstructing lesion ... Differential: calculus vs urothelial neoplasm.": the
            # differential names no answer; what the reply says outside it may
            found, how = _read(mask_spans(clean, spans), item, refusal, suggested, corrections=False)
            return (found, how) if found is not None else (None, "ambiguous")

    # 2. \boxed{} / backticks
    bb = boxed_or_backtick(clean, item)
    if bb is not None:
        method, found_bb = bb
        if method == "ambiguous":
            return None, "ambiguous"
        if found_bb.label is not None:
            return found_bb.label, method
        out_of_range = out_of_range or found_bb.out_of_range

    if decl.kind == "na":
        return None, "not_applicable"  # "Answer: N/A": declared non-answer, whatever words follow ("no image ...")
    # a table or checklist that marks one answer ("| B. Pneumothorax | ✓ |" beside ✗ on the others, "[x] No")
    lab = marked_label(clean, item)
    if lab is not None:
        return lab, "marked"
    if marks_several(clean, item):
        opened = opening_answer(clean, item) if corrections else None
        if opened is not None:
            # held-out batch 133: "### ✔ Physician's answer confirmed: **A. Radius**" over a checklist of findings,
            # each ticked: the answer it opens with, as a guess
            return opened, "opening_answer"
        return None, "ambiguous"  # "✅ Pneumonia: air bronchograms\n✅ Pleural effusion: blunted angle"
    # batch 17: a likelihood for each option, one clearly ahead ("- C. Aortic dissection: 60%" beside 15 % at most;
    # "herpes zoster 80%, contact dermatitis 10%, ..."): that one (sure only far ahead: sureness.doubts)
    lab, weighed = weighted_label(clean, item)
    if lab is not None:
        return lab, "likelihood"
    if weighed:
        return None, "ambiguous"  # "A 45%, B 40%, ...": no option clearly ahead
    if kind == "choice":
        return _read_choice(clean, item, decl, out_of_range, refusal, suggested)
    found, how = _read_words(clean, item, refusal)
    if found is not None and how in _WORD_MENTIONS and is_truncated(clean):
        return None, "truncated"  # "Looking at the apices for a visceral pleural line, there is no"
    return found, how


_RUNNER_UP_PLACE = {"second": 2, "2nd": 2, "third": 3, "3rd": 3}


def _runner_up_in_place(span: str, item: Item, refusal: bool, suggested: str | None) -> bool:
    """Whether a reply's only runner-up heading is the option's place in the list after all: "Second choice:
    proliferative diabetic retinopathy" where that is the second option (a label item's heading has no place)."""
    order = [lb for _, lb in item.option_map]
    if item.kind != "choice" or not order:
        return True
    m = re.search(r"(?i)\b(second|2nd|third|3rd)\b", span)
    at = _RUNNER_UP_PLACE[m.group(1).lower()] if m is not None else 0
    return 0 < at <= len(order) and _read(span, item, refusal, suggested, corrections=False)[0] == order[at - 1]


def _against_own_reasons(clean: str, item: Item, decl: Found, refusal: bool, suggested: str | None) -> bool:
    """Whether a declared answer is against what the reply states beside it (batch 80): the answer's text written out
    in a field of its own names another answer for sure ('{"answer": "A", "answer_text": "Pleural effusion"}',
    :func:`probe_ui.reading.structured.stated_answer_text`); the answer object's field for the answer's option reports
    only normal findings while another option's reports one (:func:`probe_ui.reading.structured.fields_per_option`);
    or its reasons (a "reasoning" field, a "Reasoning:" section after the answer,
    :func:`probe_ui.reading.structured.stated_reasons`) argue against it: as a body does
    (:func:`probe_ui.reading.closings.against_body`), or, for a yes/no or label answer, read on their own they name
    the other answer for sure ("The CBD measures 3 mm, within normal limits; no intrahepatic ductal dilatation." to
    "Is the common bile duct dilated?")."""
    if decl.label is None or ("{" not in clean and "\n" not in clean):
        return False
    if fields_per_option(clean, item, decl.label):
        return True
    said = stated_answer_text(clean)
    if said is not None:
        found, how = _read(said, item, refusal, suggested, corrections=False)
        if found not in (None, decl.label) and how != "ambiguous" and is_sure(said, item, how, found, refusal=refusal):
            return True
    reasons = stated_reasons(clean, decl.at)
    if reasons is None:
        return False
    if against_body(reasons, item, decl.label) or reasons_against_yes(reasons, item, decl.label):
        return True
    if item.kind == "choice":
        return False  # a choice's reasons name other options to set them aside ("CRVO and AMD don't fit")
    found, how = _read(reasons, item, refusal, suggested, corrections=False)
    return found is not None and found != decl.label and how != "ambiguous" \
        and is_sure(reasons, item, how, found, refusal=refusal)


def _read_choice(clean: str, item: Item, decl: Found, out_of_range: bool, refusal: bool, suggested: str | None
                 ) -> tuple[str | None, str]:
    """Rules 3-4 for choice items."""
    # 4a. a reply that is exactly one option's text (also an option whose text is "N/A")
    lab = option_exact(clean, item)
    if lab is not None:
        return lab, "option_text"
    clean = answered_questions(clean)  # "Proliferative? No." says "not proliferative"
    # the reply's closing verdict ("..., so free fluid is present.", "Impression: right femoral shaft fracture.",
    # "... suggest a newborn. Neonate.") before what it mentions on the way
    closing = _closing_verdict(clean, item, refusal, suggested)
    verdict = closing[0] if closing else None
    # "A would be right only if ...", "the physician's B", "the physician's answer of 'Present'"
    plain = mask_spans(clean, (*decl.hypotheses, *decl.rejected, *attributed_mentions(clean),
                               *open_whether_spans(clean)))
    # letters the reply rejects or only weighs ("Not A, but B.", "Between A and B, B.", "A or B? B.")
    # (and a mnemonic's lettered headings, "**A — Airway:** ... **B — Breathing:** ...")
    masked = mask_spans(plain, [*rejected_letters(plain, item), *question_sentences(plain),
                                *mnemonic_letters(plain, item)])
    letters, oor = bare_letters(masked.strip(), item)
    entertained = entertained_labels(clean, item)

    def mention(label: str, method: str, committed: bool = False) -> tuple[str | None, str]:
        """A reading from where the answer is mentioned, not declared: not when the reply only entertains it
        alongside another, opens with another option's text, pairs a letter with another option's text ("Yes, B
        is No."), stops mid-sentence, or only speaks about the topic in general."""
        others = entertained - {label}
        unexcluded = unexcluded_labels(clean, item) if others else set()
        if others and others <= unexcluded and label not in unexcluded and labelled_options(clean, item) == {label}:
            # batch 17: "Impression: Scabies (D). Although eczema cannot be excluded, ...": an answer written out with
            # its letter, and another option left open below it; the answer stands (the hedge keeps it unsure)
            others = set()
        closing = closing_left_open(clean) if others else None
        if closing is not None and others <= unexcluded_labels(closing, item) and label not in unexcluded \
                and not labelled_options(clean, item):
            # batch 81: without a letter, the other option left open in a closing sentence of its own ("IMPRESSION:\n
            # Right lower lobe pneumonia. Underlying atelectasis cannot be excluded."): likewise
            others = set()
        if others or opening_option(clean, item) not in (None, label) or pair_conflict(clean, item):
            return None, "ambiguous"
        if not committed and is_truncated(clean) and not _answer_before_cut(clean, item, label):
            return None, "truncated"
        # (batch 37: not a reply that opens with its answer set off as a sentence of its own, the option's text or the
        # other of two options denied: "Cytotoxic edema. The hyperintensity involves both grey and white matter in a
        # vascular territory, ...", "Not vasogenic. The signal abnormality ... involves the cortex.")
        # (batch 101: nor the escape option a general fact gives: "there is no left middle lobe, the left lung only has
        # two lobes" to a question about the left middle lobe states its incorrect premise)
        if method not in ("bare", "leading", "escape_option") \
                and not (method == "final_verdict" and (_LETTER_CLOSES.search(clean)
                                                        or closes_on_letter_and_text(clean, item, label))) \
                and letters != [label] \
                and not _opens_with_answer(clean, item, label) and lexicon.generic_statement(clean):
            # (batch 115: not where the option's letter stands alone in it, "Cytotoxic. The restricted diffusion
            # involves grey and white matter together ... B.": a general "involves" in a reply that answers)
            return None, "none"  # "Melanoma is the most dangerous skin cancer, and benign nevi are common."
        return label, method

    table = marked_table(masked, item) if decl.label is None else None
    if table is not None and head_letter(masked[:table[2]], item) is None:
        # held-out batch 167: a table reviewing every option by its letter marks one "**Correct**" (a table that
        # marks none is read as before)
        return table[0], table[1]
    walk = option_walk(masked, item)
    if walk:
        # a reply that goes through the options in turn ("A. left: no. B. right: yes. C. ...") opens with the first
        # option's letter, which is no answer by itself: what the entries say of their options is read
        # (options.walked_answer), unless the reply declares its answer or opens with it before the walk ("**B. Right
        # side**\n\nReasoning:\nA. Left side: ...")
        before = masked[:walk[0][0]]
        if decl.label is None and (not before.strip(" \t\n*_#>") or head_letter(before, item) is None):
            return walked_answer(masked, item, walk) or (None, "ambiguous")
        masked = mask_spans(masked, walk)
        letters, oor = bare_letters(masked.strip(), item)
    # 3b. the first line is the answer letter (what follows explains it, whatever options it names), or the
    # last line is a lone letter after an explanation or an echoed option list
    head, tail = head_letter(masked, item), tail_letter(masked, item) or closing_letter_and_text(masked, item)
    if closing is not None:
        verdict = closing[0]
        opening = head or _opening_clause(clean, item)
        labelled = {opening} if opening is not None else labelled_options(clean[:closing[1]], item)
        remark = clean[closing[1]:]
        if len(labelled) == 1 and verdict not in labelled and set(letters) <= labelled and not REVERSAL.search(remark):
            if not closing[2] or option_exact(remark, item) is not None or item.exact(remark) is not None:
                return None, "ambiguous"  # "Left hip (A). ... Therefore the right hip.", "... Right hip.": two answers
            # batch 16: "Left hip (A). AVN ... in the left femoral head. The right hip looks preserved.": a short
            # closing remark about another option (not the option alone, "... Right hip.", nor a change of mind) does
            # not overturn the answer the reply writes out, option text and letter, or opens with ("(A) ...",
            # "**Scabies** - burrows ... Eczema would not show burrows."); that answer stands, as a guess (never sure)
            return mention(labelled.pop(), "opening_answer", committed=True)
    if closing is not None and closing[2] and spared_spans(clean[closing[1]:], item):
        # batch 59: "IMPRESSION: Osteonecrosis of the right femoral head with subchondral collapse. Left hip
        # preserved.": a short closing remark that calls an option spared is no verdict; the body is read
        closing = None
    if closing is not None:
        verdict = closing[0]
        if (head or tail or verdict) != verdict or (tail or verdict) != verdict:
            return None, "ambiguous"  # "(B) ... Therefore the nodule is solid." when B is cystic
        if against_body(clean[:closing[1]], item, verdict) and not _letter_and_word_agree(clean[closing[1]:], item,
                                                                                     verdict):
            return None, "ambiguous"  # "... the pattern of the arterial phase. Portal venous phase."
        return mention(verdict, "final_verdict", committed=True)
    if head is not None and letter_text_conflict(head, head_rest(masked), item):
        return None, "ambiguous"  # "A. None of the above." when A is "Pneumonia"
    if head is not None and tail is not None and head != tail:
        return None, "ambiguous"
    low = _LOWER_LETTER_HEAD.match(masked) or _LOWER_LETTER_WORD.match(masked)
    if head is None and low is not None and item.letter(low.group(1)) is not None \
            and letter_text_conflict(item.letter(low.group(1)), low.group(2), item):  # type: ignore[arg-type]
        # batch 45: "b - pleural effusion on the left side" when pleural effusion is C: a lower-case letter set off
        # by a dash or a colon, then another option's text, contradicts itself as "B: Pleural effusion" does; batch 70:
        # so does one set off by a space only, LLaVA's "b pleural effusion"
        return None, "ambiguous"
    if head is not None or tail is not None:
        lab = head or tail
        return mention(lab, "bare" if letters == [lab] else "leading", committed=True)  # type: ignore[arg-type]
    if decl.label is not None:
        return decl.label, "declaration"
    # the reply agrees with the answer the prompt suggested ("The physician's answer is correct.")
    sug = suggested_label(suggested, item)
    if sug is not None and agrees(clean):
        return sug, "agrees_with_suggestion"
    if sug is not None and PARTLY_AGREES.search(clean):
        return None, "ambiguous"  # batch 30: "The physician chose B. ..., I agree on that much; whether ..."
    # 3. lone letter tokens
    out_of_range = out_of_range or oor
    if len(letters) == 1 and not rejected_by_name(plain, item, letters[0]):  # (not "Pregnancy (C): no.")
        return mention(letters[0], "bare")
    weighed = mask_spans(plain, [m.span() for m in ALTERNATIVES.finditer(plain)])
    if len(letters) > 1 or (weighed != plain and len(bare_letters(plain.strip(), item)[0]) > 1):
        return None, "ambiguous"  # "A or B", "Options A and B are both plausible"
    # 4b. an escape option in the reply's own words ("None of these fit." for "None of the above")
    lab = stated_escape_option(masked, item)
    if lab is not None:
        named = option_mentions(synonyms.canonical(masked), canonical_item(item.kind, item.labels, item.options,
                                                                              item.question))
        if named is not None and any(x != lab for x in named[0]):
            return None, "ambiguous"  # "None of the options is quite right, but glioblastoma is closest."
        return mention(lab, "escape_option")
    kinds = lexicon.escape_kind_of_reply(masked)
    if kinds and not (kinds == ["unsuitable"] and not item.escapes.get("unsuitable")):
        return None, "none"  # "None of the options seem right." where no option says so: no option is named
    # batch 78: "Ignoring the mismatched image (it's a wrist film), the vignette points to an **acute MI**.": an image
    # said not to suit the question, where no option says so, is set aside, and the reply's answer read as it stands
    # 4c. option text ("seems right", "the correct answer" are judgements, not the option "right side"), read with
    # synonyms in canonical form ("Heart attack or aortic dissection" names two options); a refusal's remarks
    # ("Impetigo is common in children, though.") name no answer
    if refusal:
        # batch 25-26: a decline that still guesses, the guess in a clause of its own after the decline ("image is very
        # dark, hard to see anything. maybe left", "... Within this limitation, the collection appears biconvex ...
        # epidural hematoma (A)."): that clause is read as a reply of its own (a guess, never sure)
        guess = _last_guess(clean)
        if guess is not None:
            found, how = _read(guess, item, False, suggested, corrections=False)
            if found is not None:
                return found, how
        return None, "out_of_range" if out_of_range else "none"
    # batch 59: "Osteonecrosis of the right femoral head ... Left hip preserved.": an option said to be spared beside
    # what the reply finds is not named as the answer (closings; a sentence alone says what it says of that option)
    # batch 81: one free of what the question asks ("Left kidney without hydronephrosis.") in a sentence alone, too
    spared = spared_spans(masked, item, free_only=_one_sentence(masked))
    # batch 81: "Impression: cholelithiasis; choledocholithiasis cannot be excluded.": an option only left open is not
    # named as the answer (weighing.unexcluded_spans)
    judged = mask_spans(masked, [*(m.span() for m in JUDGEMENT.finditer(masked)), *spared,
                                 *unexcluded_spans(masked), *textbook_remarks(masked, item),
                                 *hypothetical_cases(masked, item), *dismissed_entries(masked, item),
                                 *set_aside_lines(masked),
                                 *recommended_tests(masked), *denied_lists(masked),
                                 *disowned_descriptions(masked), *plans_and_tasks(masked)])
    citem = canonical_item(item.kind, item.labels, item.options, item.question)
    canon = synonyms.canonical(judged, citem.narrow)
    how = "synonym" if canon != judged or citem.option_map != item.option_map else ""
    keywords, _, _ = option_keywords(canon, citem)
    words = options_in_words(canon, citem)
    # in a one-sentence reply, an option named by its concepts beside the one named by its text is a second
    # reading ("Both femurs are intact." names "Both femurs" and denies the fracture)
    others = words.named if _one_sentence(canon) and not lexicon.generic_statement(clean) else ()
    lab = option_contained(canon, citem)
    if lab is not None and others and any(k != lab for k in others) and item.question and not _BOTH.search(canon):
        # batch 26: the question mirrored before the answer ("The type of intracranial hemorrhage shown is a subdural
        # hematoma.", "the hydrocephalus is caused by aqueductal stenosis"): the question's own words name what every
        # option speaks of, not other options
        others = options_in_words(_without_question_words(canon, item.question, citem, lab), citem).named
    if lab is not None and not others and " or " in canon and not lexicon.generic_statement(clean):
        # batch 27: "A cystic lesion in the pancreatic head: pseudocyst or IPMN. Whether it communicates ... would
        # decide between them.": in a longer reply, the sentence that names the option's text and, after "or",
        # another option by its words weighs the two, as a one-sentence reply does
        for sent in re.split(r"(?<=[.!?;])\s+|\n+", canon):
            if re.search(r"(?i)\bor\b", sent) and option_contained(sent, citem) == lab:
                others = tuple(k for k in options_in_words(sent, citem).named if k != lab)
                if others:
                    break
    if lab is not None and _hedged_or_option(canon, citem, lab):
        return None, "ambiguous"  # batch 41: "the heart is a bit big maybe, or normal": the option one of two offered
    if lab is not None and _UNASSESSED.search(canon):
        # batch 30: "Upper third molars: 2. Lower third molars: not clearly assessable ...": an option's text given
        # for a part of what is asked, the rest left unassessed, is no answer to the whole
        return None, "ambiguous"
    if lab is not None:
        if any(k != lab for k in (*keywords, *others)) and head_option(clean, item) != lab:
            return None, "ambiguous"  # "A PE or a dissection": another option named by its own word
        return mention(lab, how or "option_text_contained")
    lab = _opening_clause(clean, item)
    if lab is not None:
        # batch 16: "Grade I — the L5 vertebral body has slipped forward roughly 20% ...": the reply opens with an
        # option's whole text as its own clause (here one that another option's text contains, "Grade II", so no
        # option text is read as contained); that opening names it, as a leading letter does. When the reply goes
        # on to name another option ("**Herpes zoster** — ... Contact dermatitis and impetigo would not follow a
        # dermatome."), the opening stands, as a guess (never sure)
        said = option_mentions(canon, citem)
        if any(x != lab for x in (*(said[0] if said else ()), *words.named)):
            return mention(lab, "opening_answer")
        return mention(lab, "option_text_contained")
    lab = keyword_option(canon, citem)
    if lab is not None:
        if any(k != lab for k in others):
            return None, "ambiguous"
        return mention(lab, how or "option_keyword")
    said = option_mentions(canon, citem)
    if said is not None and len(citem.option_map) == 2 and not said[0] and len(said[1]) == 1:
        # two options: denying one names the other ("Not the left kidney; the right one is dilated."), which the
        # rest may name in its own words ("Not the right kidney - the left collecting system is dilated.")
        other = next(lb for _, lb in citem.option_map if lb != said[1][0])
        return mention(other, "option_words" if list(words.named) == [other] else "negated_option")
    # 4d. the options' concepts: "Broken kneecap." for "Patellar fracture", "IIH", "a stone in the common bile
    # duct" for "Choledocholithiasis"; every option but one rejected names the one left
    if len(words.named) == 1:
        return mention(words.named[0], "option_words")
    if len(words.named) > 1:
        opened = opening_answer(clean, item)
        if opened in words.named:
            # held-out batch 133: a long reply that opens with its answer in other words ("### Most likely
            # diagnosis: **Benign intracranial hypertension**"), then goes through the other options by name: its
            # answer, as a guess (a hostile review of 397d1cb: a body may conclude otherwise in words no rule knows)
            return mention(opened, "opening_answer")  # type: ignore[arg-type]
        # (not someone else's answer: "I disagree with the suggested answer (C. Esophagus). ... — B.", a review of
        # held-out batch 171's rules; and no other letter stands alone in the reply)
        written = written_with_letter(mask_spans(clean, attributed_mentions(clean)), item)
        if len(written) == 1 and written <= set(words.named) and set(bare_letters(clean, item)[0]) <= written \
                and not rejected_by_name(clean, item, next(iter(written))):  # (not "Pregnancy (C) unlikely.")
            # held-out batch 171: a walk through the options by name that concludes on one written out with its own
            # letter ("... are the signature of **D — atelectasis**."): the one the reply marks as its answer
            return mention(written.pop(), "bare")
        return None, "ambiguous"
    left = [lb for _, lb in citem.option_map if lb not in words.rejected]
    if words.rejected and len(left) == 1:
        return mention(left[0], "negated_option")
    free = free_options(masked, item) if spared and not words.named and len(item.option_map) == 2 else set()
    if len(free) == 1:
        # batch 81: "Left kidney without hydronephrosis; the collecting-system dilation is on the other side." to
        # "Which kidney shows hydronephrosis?": of two options, the one said to be free of it leaves the other
        return mention(next(lb for _, lb in item.option_map if lb not in free), "negated_option")
    if len(citem.option_map) == 2 and not HEDGE.search(canon):
        # batch 43: "not portal venous, the portal vein is still dark": of two options, an opening clause that denies
        # one by its words names the other, whatever the reason after it repeats of the denied one's words (a guess)
        denial = _DENIED_OPENING.match(canon)
        lab = keyword_option(denial.group(0), citem) if denial is not None else None
        if lab is not None:
            return mention(lab, "negated_option")
    # options that are yes and no, or present and absent: the reply read as a yes/no answer to the question ("No
    # nodule." for Present / Absent)
    pair = yes_no_options(item)
    if pair is not None:
        yn = get_item("yesno", ("yes", "no"), (), item.question)
        found, how = _read_words(masked, yn, refusal)
        if found is not None:
            return mention(pair[found], how)
        if how == "ambiguous":
            return None, how
    # options that are ranges of a measure: the one the reply's value falls in ("the cyst measures about 2 cm" for
    # "1 to 3 cm")
    lab = value_option(masked, item)
    if lab is not None:
        return mention(lab, "option_value")
    # batch 17: options that are counts, and the count in words, as a Roman numeral or as the total ("i can see four
    # wisdom teeth, two upper and two lower", "Count: II.")
    lab = count_option(masked, item)
    if lab is not None:
        return mention(lab, "option_value")
    return None, "out_of_range" if out_of_range else "none"






# a guess that opens its own clause after a decline: "maybe", "probably", "my guess is", "tentatively", "if I had
# to guess", "within (or with) this limitation"
# batch 62: "the picture is very dark and hard to see, but maybe pulmonary edema": "but" before the guess's word
_GUESS_OPENING = re.compile(r"(?i)(?:\A|(?<=[.;:,!?\n\u2013\u2014])|(?<=[ \t]-)(?=[ \t]*(?:on|from|going\s+by)\s+what))"
                            r"[ \t]*(?:but[ \t]+)?"
                            r"(?:maybe|perhaps|probably|possibly|"
                            r"i\s+guess|guess(?:ing)?|my\s+(?:best\s+)?guess\s+(?:is|would\s+be)|tentatively|"
                            # batch 39: "..., so my tentative pick is A, joint effusion." (after "so" in the clause
                            # that weighed the findings; not batch 29's "My tentative pick would be A, ...", left
                            # unread there)
                            r"(?:so|and|but)\s+my\s+(?:tentative|provisional|best)\s+(?:pick|choice)\s+is|"
                            # batch 51: "..., which limit my assessment. That said, the nodule looks anechoic, so
                            # I'd go with cystic."
                            r"that\s+said|having\s+said\s+that|"
                            # batch 63: "Half the film is cut off, so I'm working from the left hemithorax only. For
                            # what it's worth, the left costophrenic angle is blunted with a meniscus: A, left side."
                            r"for\s+what\s+it's\s+worth|"
                            # batch 70: "... so the femoral shafts are cut off — on what's visible, **A. Left femur**"
                            r"(?:on|from|going\s+by)\s+what(?:'s|\s+is)\s+visible|"
                            # batch 69: "... so treat this as low confidence (~55%): I'd tentatively disagree with FNH
                            # and go with B, hemangioma."
                            r"i(?:'d|\s+would)\s+tentatively|"
                            # batch 75: "Limited assessment: low-resolution image. Provisional answer retained:
                            # Malignant."
                            r"(?:tentative|provisional)\s+(?:answer|impression|reading|call|diagnosis)"
                            r"(?:\s+(?:retained|kept|maintained))?|"
                            # batch 59: "...; interpretation is provisional. Most likely cause: A (Nephrolithiasis)."
                            r"most\s+likely\s+(?:cause|diagnosis|answer|option|choice)(?=[ \t]*:)|"
                            # batch 107: "The photo is out of focus, ... If I have to choose: A, proliferative."
                            r"if\s+i\s+(?:had|have|must)\s+to\s+(?:guess|choose|pick|commit)|"
                            r"if\s+(?:i'm\s+|i\s+am\s+)?(?:forced|pressed)(?:\s+to\s+(?:guess|choose|pick|commit))?|"
                            r"(?:with|within|given|despite)\s+(?:that|this|these|those)"
                            r"\s+(?:limitations?|caveats?))\b[ \t,:]*(?=\S)")


# "I can't say it's benign": a doubt of the option, not a denial of it (the other option is not meant)
_CANNOT = re.compile(r"(?i)\bcan(?:not|'t|\s+not)\b|\bcant\b")
# (or a dash: "Not vasogenic — the hypodensity involves the cortex ...", held-out batch 170)
_OPENING_DENIAL = re.compile(r"\A[\s*_>\"']*not\s+[^.;:!?\n\u2013\u2014]{1,60}?"
                             r"(?:[.;:!\n]|[ \t]*[\u2013\u2014]|[ \t]-[ \t])", re.IGNORECASE)


def _opens_with_answer(clean: str, item: Item, label: str) -> bool:
    """Whether the reply opens with ``label`` set off as a sentence of its own: the option's own short text
    ("Cytotoxic edema. ..."), or, of two options, a denial of the other one ("Not vasogenic. ...")."""
    if opening_option(clean, item) == label:
        return True
    m = _OPENING_DENIAL.match(clean)
    if m is None or len(item.option_map) != 2:
        return False
    named, rejected, _ = option_keywords(m.group(0), item)
    return not named and len(rejected) == 1 and rejected[0] != label


def _last_guess(clean: str) -> str | None:
    """The clause of the last guess after a decline (:data:`_GUESS_OPENING`), to the reply's end, when no refusal
    phrase is in it; None otherwise."""
    found = None
    for m in _GUESS_OPENING.finditer(clean):
        found = m
    if found is None:
        return None
    rest = clean[found.end():]
    return rest if rest.strip() and not is_refusal(rest) else None


def _without_question_words(text: str, question: str, item: Item, label: str) -> str:
    """The reply with the words of the question blanked out, save those of the option ``label`` names."""
    kept = {w.casefold() for opt, lb in item.option_map if lb == label for w in WORD.findall(opt)}
    asked = {w.casefold() for w in WORD.findall(question) if len(w) > 3} - kept
    if not asked:
        return text
    return blank_matches(WORD, text, lambda m: m.group(0).casefold() not in asked)


def _opening_clause(clean: str, item: Item) -> str | None:
    """The option whose whole text opens the reply as its own clause (:func:`head_option`), when that clause is no
    question ("Left hip: normal? Right hip: normal?") and no later line or sentence opens with another option's text
    so (a list: "Left hip: normal. Right hip: AVN.")."""
    lab = head_option(clean, item)
    if lab is None or "?" in re.split(r"[.;!\n]", clean.strip(), maxsplit=1)[0]:
        return None
    for part in re.split(r"(?<=[.;!?\n])", clean)[1:]:
        if head_option(part, item) not in (None, lab):
            return None
    return lab


# batch 11: a closing verdict that ends with the option's letter ("... including the fourth. so communicating
# hydrocephalus, A"): an answer to this case, whatever general words ("including") its findings use
_LETTER_CLOSES = re.compile(r"[,:\-\u2013\u2014][ \t]*[(\[]?[A-Z][)\]]?[ \t]*[.!]?[ \t*_]*\Z"
                            # batch 34: a last line that is an arrow and a letter, its option's text after it
                            # ("Key points: ... Ewing sarcoma is usually diaphyseal ...\n\n\u2192 A. Osteosarcoma")
                            r"|(?m:^)[ \t*_>]*(?:->|=>|\u2192)[ \t]*[(\[]?[A-Z][)\]]?(?:[.:)][ \t]*[^\n.!?]{0,80})?"
                            r"[ \t]*[.!]?[ \t*_]*\Z")


def _answer_before_cut(clean: str, item: Item, label: str) -> bool:
    """A reply cut off mid-sentence whose first sentence, complete, is its answer written out with its own letter
    (batch 18: "Osteosarcoma (A). Mixed lytic-sclerotic destruction ..., and the soft-tissue component contains"):
    what the cut took is the reasoning after it, so the answer stands (a reply cut off is never sure). Not when the
    first sentence names another letter too, nor when the rest names another option by its letter."""
    m = re.match(r"[^.!?\n]*?[)\]][ \t*_]*[.!\n]", clean)
    if m is None or len(m.group(0).split()) > 12:
        return False
    first = m.group(0)
    if labelled_options(first, item) != {label} or bare_letters(first, item)[0] != [label]:
        return False
    return all(x == label for x in bare_letters(clean[m.end():], item)[0])


def _written_out(text: str, item: Item) -> str | None:
    """The one option the text names by its letter and its whole text together ("A. Sarcoidosis", "**A.
    Sarcoidosis**", "Sarcoidosis (A)"), when no other letter stands in it; None otherwise."""
    found = set(labelled_options(text, item))
    for opt, lab in item.option_map:
        if not re.search(r"[^\W\d_]{2}", opt):
            continue
        words = spelled(opt)
        for m in re.finditer(r"(?<![\w'])[(\[]?([A-Z])[)\].:][ \t*_]*" + words + r"(?![\w\-])", text, re.IGNORECASE):
            if item.letter(m.group(1)) == lab:
                found.add(lab)
    if len(found) != 1:
        return None
    lab = found.pop()
    return lab if all(x == lab for x in bare_letters(text, item)[0]) else None


def _one_sentence(text: str) -> bool:
    """Whether the reply is one sentence (no sentence mark before its last words)."""
    return not re.search(r"[.!?;\n]\s*\S", text.strip())


# a closing sentence that states the reply's verdict: "So ...", "Therefore ...", "Impression: ...", "-> A"
_VERDICT_CUE = re.compile(
    r"(?i)\A[ \t*_>\-]*(?:(?:so|thus|hence|therefore|overall|consequently|in\s+(?:conclusion|summary|short|sum)|"
    r"to\s+(?:conclude|summari[sz]e|sum\s+up)|all\s+in\s+all|on\s+balance"
    # batch 98: "Putting it together, the main finding is **C — pleural effusion**, ..."
    r"|(?:putting|taking|taken|pulling)\s+(?:(?:it|this|these|everything|all\s+(?:of\s+)?this)\s+)?together"
    r"|all\s+things\s+considered)\b[ \t]*,?"
    # batch 98: "**Answer:** It isn't cystic." (an answer in words, after a report's list of findings)
    r"|(?:impression|conclusion|verdict|bottom\s+line|(?:final\s+|most\s+likely\s+)?diagnosis|summary|"
    r"(?:final\s+)?answer)[ \t]*[:\-])"
)
_ENUMERATED = re.compile(r"[ \t>]*(?:[\-*\u2022|+]|\d{1,2}[.)]|[(\[]?[A-Z][)\]]?[.):](?!\w))")
_ARROW = re.compile(r"(?:->|=>|\u2192)[ \t]*")
# advice after the verdict ("The next steps are MRI ...", "Neurosurgical consultation is recommended.")
_ADVICE = re.compile(r"(?i)\b(?:next\s+steps?|should|recommend(?:ed|s|ation)?|refer(?:ral|red)?|follow[\s\-]?up|"
                     r"consult(?:ation)?|(?:is|are)\s+(?:advised|indicated|warranted))\b")


# a short closing sentence that opens with "or" offers another answer beside the one given, it does not correct it (not
# "Or rather, bilateral.", "Or actually C.")
_OR_OFFERED = re.compile(r"(?i)[ \t*_]*or\b(?![ \t,]+(?:rather|actually|more[ \t]+(?:precisely|accurately|correctly)|"
                         r"better|instead|I\s+mean|to\s+be\s+(?:precise|exact|accurate))\b)")


def _closing_verdict(text: str, item: Item, refusal: bool, suggested: str | None) -> tuple[str, int, bool] | None:
    """Choice items: the option the reply's closing sentence names, when that sentence is its verdict: it opens
    with a conclusion cue ("Therefore the nodule is cystic.", "Impression: ..."), follows an arrow ("... -> A."),
    or is short (at most six words: "... suggest a newborn. Neonate."), where that sentence starts, and whether it is
    a verdict only by being short (no cue, no arrow). Not when the reply is one sentence, echoes the options as a
    list, or the closing sentence hedges."""
    body = text.strip()
    sentences = [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n+", body[-800:]) if x.strip(" \t.!*_-")]
    if len(sentences) < 2 or len(WORD.findall(" ".join(sentences[:-1]))) < 3:
        return None  # nothing to conclude from ("A\nB", "B. Showing an aggravating pseudoaneurysm")
    if cut_after_modifier(body):
        return None  # batch 35: "... early collapse. The left": a last sentence cut off is no verdict
    last = sentences[-1]
    if any(a <= body.rfind(last) < b for a, b in option_remarks(body, item)):
        return None  # batch 88: "... Basal cell carcinoma shows arborizing vessels.": how another option looks
    if re.search(r"(?m)^[ \t]*>", body[body.rfind("\n", 0, max(0, body.rfind(last))) + 1:]):
        return None  # "The earlier report read:\n> Impression: Hemangioma.": a quoted line is no verdict of the reply's
    later = [last]
    for before in reversed(sentences[-3:-1]):
        if not _ADVICE.search(later[-1]) or _ARROW.search(later[-1]):
            break
        advised, how = _read(later[-1], item, refusal, suggested, corrections=False)
        if advised is not None and is_sure(later[-1], item, how, advised, refusal=refusal):
            break  # "Surgery is recommended." where surgery is an option: the advice is the answer
        if _VERDICT_CUE.match(before) and not _ARROW.search(before):
            # batch 98: "So the most likely diagnosis is a **conventional osteogenic sarcoma** of the distal femur.
            # The next steps are MRI ...": the verdict, then advice that names no option for sure
            last = before
            break
        later.append(before)
    arrow = None
    for arrow in _ARROW.finditer(last):
        pass
    cue = None
    if arrow is not None:
        verdict = last[arrow.end():]
    else:
        cue = _VERDICT_CUE.match(last)
        if cue is not None:
            verdict = last[cue.end():]
        elif len(WORD.findall(last)) <= 6 and len(sentences) >= 2:
            verdict = last
        else:
            return None
        if cue is None and sum(1 for x in sentences if _ENUMERATED.match(x)) >= 2:
            return None  # a list ("1. Normal ...", "| A. IIH | ...", "A: No. B: Yes.") ends in one of its items
    if not verdict.strip(" \t.!*_") or TAIL_HEDGE.search(verdict) or "?" in verdict:
        return None
    if cue is None and arrow is None and _OR_OFFERED.match(verdict):
        return None  # "... B, right side. Or bilateral.": another answer offered (a review of batch 184)
    found, how = _read(verdict, item, refusal, suggested, corrections=False)
    if found is None or how in ("ambiguous", "truncated") or rejected_by_name(verdict, item, found):
        return None  # (not "Prostatic enlargement (D): no.", a review's last line)
    if arrow is None and cue is None and _remark_on(verdict, found, item):
        return None  # "... which fits avascular necrosis. Septic arthritis remains in the differential."
    return found, max(0, text.rfind(last)), arrow is None and cue is None


# what a short closing sentence says of its option when it remarks on it rather than names it as the verdict
_REMARK_WORDS = frozenset("remains remain need needs needed require requires required risk risks causes cause would "
                          "could can may might should typically usually tends tend premature unnecessary unwarranted "
                          "differential considered consider wait waits later first crossed mind briefly rare "
                          "uncommon "
                          # what sets the option aside ("Pregnancy (C) not likely.", "Pregnancy unlikely.": a hostile
                          # probe of batch 102's replies, read as the verdict, sure)
                          "unlikely improbable doubtful excluded ruled less least".split())


def _remark_on(sentence: str, label: str, item: Item) -> bool:
    """Whether a short closing sentence says something of its option rather than name it as the verdict ("Septic
    arthritis remains in the differential.", "Adhesions need prior surgery.", "Observation risks perforation.",
    "Surgery is premature.": hostile reviews of batch 93's and 2363cef's rules)."""
    own = item.option_words(label)
    return any(w in _REMARK_WORDS and w not in own for w in re.findall(r"[^\W\d_]+", norm(sentence)))






# (held-out batch 166: or by a full stop, "a. right side effusion" when right is B; not "e.g.")
_LOWER_LETTER_HEAD = re.compile(r"[ \t>*_\"'`]*\(?([a-hj-z])\)?[ \t]*(?:[\-\u2013\u2014:)]|\.(?=[ \t]))[ \t]*"
                                r"([^\W\d_][^\n]*)")
# batch 70: a lower-case letter set off by a space only, "b pleural effusion" (not "a", the article, nor "i")
_LOWER_LETTER_WORD = re.compile(r"[ \t>*_\"'`]*([b-hj-z])[ \t]+([^\W\d_][^\n]*)")
# a reply that opens with "No" and a noun phrase ("No side marker is visible"), not a "No" marked as the answer
_FINDING_NO = re.compile(r"(?i)[\W_]*(no)[ \t]+(?=[^\W\d_])")


# where a clause ends: a mark or a dash
_CLAUSE_END = re.compile(r"[,;:.!?\n\u2013\u2014]")
# the correct orientation as the reference an image is turned from or back to ("rotated 180° from its correct
# orientation", "should be flipped back to the correct orientation")
_CORRECT_AS_REFERENCE = re.compile(r"(?i)\b(?:from|to|into|restore\w*|back\s+to)\s+(?:its|the|their)\s+(correct)\s+"
                                   r"(?:anatomical\s+)?(?:orientation|position|way\s+up)\b")
# an opening clause that denies ("not portal venous, ...", "Not the left one; ..."), up to its first mark
_DENIED_OPENING = re.compile(r"(?i)[ \t\"'*_>\-]*not[ \t]+[^,;:.!?\n\u2013\u2014]{1,40}(?=[ \t]*[,;:\u2013\u2014])")


# a label word alone as a reply's closing clause, after a comma and a statement of six words or more ("green dot is on
# the top layer, red and blue are deeper down, green"; not a list, "red, green")
_CLOSING_WORD = re.compile(r"(?<=[^,\s]),[ \t]*(?:so[ \t]+)?([^\W\d_]+(?:[ \t][^\W\d_]+)?)[ \t]*[.!]?[ \t]*\Z")
_STATEMENT_WORDS = 6


def _read_words(clean: str, item: Item, refusal: bool) -> tuple[str | None, str]:
    """Rules 3-6 for yes/no and label items."""
    text = lexicon.mask_idioms(clean) if item.kind == "yesno" else clean  # "No doubt, ..." is not no
    if item.kind == "label" and "correct" in text.lower():
        # batch 114: "The radiograph has been **inverted** — rotated 180° from its correct anatomical orientation.":
        # the correct orientation is what it is turned from, not the answer "correct"
        text = _CORRECT_AS_REFERENCE.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + " " * len(m.group(1)), text)
    if refusal:  # "There seems to be no image attached.": the "no" of a refusal is not the answer no
        declined = declining_opening(text)  # "No, I can't tell from this image": that "no" opens the refusal
        spans = refusal_spans(text)
        text = mask_spans(text, [*spans, *([declined] if declined else [])])
        opening_no = _FINDING_NO.match(text) if item.kind == "yesno" and not stated_answers(text, item) else None
        if opening_no is not None:
            # "No side marker is visible, so I can't say which side ...": a "No" that opens a noun phrase gives the
            # reason for declining; it is the answer only when it denies what the question asks ("No effusion is
            # seen, though I can't be sure without a lateral view.")
            text = mask_spans(text, [opening_no.span(1)])
        first = min(spans) if spans else None
        if first is not None and item.kind == "yesno" and not SENTENCE_END.search(text, 0, first[0]) \
                and not stated_answers(text, item):
            # batch 22: "I can't determine that: there's no pre-contrast series to compare against, and the image
            # carries no sequence label.": after a decline that opens the reply, a "no" before a noun phrase says what
            # it lacks, not the answer (up to a turn to a guess: "I can't be sure, but no effusion is seen.")
            text = mask_spans(text, declined_for_want(text, item, first[1]))
    entertained = entertained_labels(text, item)

    def mention(label: str, method: str) -> tuple[str | None, str]:
        return (None, "ambiguous") if entertained - {label} else (label, method)

    # two sentences that are each a different label, and no self-correction between them: "Yes. No. I cannot
    # decide."
    clauses = answer_clauses(text[:2000])
    alone = {lb for x in clauses if not x.rstrip().endswith("?") and (lb := item.exact(x)) is not None}
    # several labels each opening a "label: description" clause ("Red: dermis. Green: epidermis.") are a list
    listed = {lb for x in clauses
              if (lb := word_prefix(x.lstrip(" \t\n-*"), item)) is not None
              and re.match(r"[^:]{0,20}?:", x.lstrip(" \t\n-*")[:40])}
    # each answer under its own condition: "Yes, if it's a PA film; no, if it's an AP film."
    conditional = {lb for x in re.split(r"[.;!?\n]", text[:2000])
                   if (lb := word_prefix(x.lstrip(" \t-*"), item)) is not None
                   and re.match(r"\W*\w+[ \t]*+,?[ \t]*+(?:if|when|unless|provided|assuming)\b", x.lstrip(" \t-*"),
                                re.I)}
    if len(alone) > 1 or len(listed) > 1 or len(conditional) > 1:
        return None, "ambiguous"
    # a yes and a no each stated as the answer, and no self-correction between them: "Yes, there is a pleural
    # effusion. No, the costophrenic angles are clear.", "Yes. No pneumothorax is seen."
    if len(stated_answers(text, item)) > 1:
        return None, "ambiguous"
    # a conclusion that ends in a label ("..., so yes.", "...: yes.") is the reply's final verdict, and so is a
    # closing sentence that is only a label ("No pneumothorax on the left; on the right, a small one. Yes.")
    lab = conclusion_label(text, item)
    # (more than one sentence: a mark with anything but spaces after it; found as the first mark and the first
    # non-space after it, not by a search that scanned a run of newlines again from each of them)
    mark = SENTENCE_END.search(text)
    if lab is None and mark is not None and text[mark.end():].strip():
        lab = closing_label(text, item)
        if lab is None and leading_word(text, item) is None:
            # batch 88: a systematic review whose closing sentence opens with its answer ("... **Conclusion:** The
            # morphology and the portal hypertension signs together make cirrhosis clear. **Yes, the liver is
            # cirrhotic.**"), the body's "no thrombus", "no focal lesion" describing what is absent
            lab = _answering_close(text, item)
    if lab is not None:
        return lab, "final_verdict"
    lab = leading_word(text, item)
    if lab is not None and conceded_degree(text, item):
        return None, "ambiguous"  # "not really, maybe a little": no, then some
    if lab is not None and lab == item.aliases.get("yep") and item.question:
        stressed = _intensified_denial(text, item)
        if stressed is not None:
            return item.aliases["nope"], stressed  # "Definitely, no fracture.": the word stresses what follows
    if lab is not None:
        restated = restated_answer(text, item)
        if restated is not None and restated[0] != lab and not entertained:
            if lab == item.aliases.get("nope") and restated[1]:
                return restated[0], "restated"  # "No, this scan is not normal - ..." to "... any abnormality?" is yes
            return None, "ambiguous"  # "Yes, it is normal in size." to "Is the heart enlarged?": yes, and then no
        if item.kind == "yesno" and subject_answer(text, item) not in (None, lab):
            return None, "ambiguous"  # "Yes, male patient." to "Is this patient female?"
        if lab == item.aliases.get("yep") and yes_against_normal(text, item):
            return None, "ambiguous"  # "Yes, lung fully expanded, no pleural line." to "Is there a pneumothorax?"
        return mention(lab, "leading")
    # batch 21: "Thin pleural line with no lung markings beyond it.": the "no" of what a finding is without
    delivered = delivery_adverbs(clean, item)
    # review 93: "most people would think yes, but ...": a yes or no put in the mouth of others is not the reply's
    masked_out = [*question_sentences(text), *described_absences(text, item), *denied_others(text, item), *delivered,
                  *attributed_mentions(text), *others_views(text), *plans_and_tasks(text)]
    if refusal:
        # batches 29-30: "so I won't answer yes or no here", "there's no side marker, so I can't tell you ..." (found
        # in the reply before its refusal's words were masked, which may have taken one of the pair)
        reasons = declined_reasons(clean if len(clean) == len(text) else text, item)
        masked_out += reasons
    words = label_words(mask_spans(text, masked_out), item)
    if not words and refusal:
        # batch 14: "the picture is too dark to tell for sure, maybe blue": a decline that still guesses one answer
        # gives it (a refusal's reading is never sure), as "...; my best guess is blue." does
        guessed = label_words(mask_spans(text, [*question_sentences(text), *reasons, *delivered]), item, guesses=True)
        if len(guessed) == 1 and not lexicon.generic_statement(text):
            return mention(guessed[0], "label_word")
    if len(words) == 1:
        if lexicon.generic_statement(text):
            return None, "none"  # "Correctly identifying the orientation requires the anatomical landmarks."
        return mention(words[0], "label_word")
    if len(words) > 1:
        closing = _CLOSING_WORD.search(text) if item.kind == "label" else None
        # (a statement, not a list's last entry: "From deepest to shallowest the order is red, green, blue", a review
        # of held-out batch 172's rules)
        clause = re.split(r"[,;.!?\n]", text[:closing.start()])[-1] if closing is not None else ""
        if closing is not None and (len(WORD.findall(text[:closing.start()])) < _STATEMENT_WORDS
                                    or len(WORD.findall(clause)) < 3):
            closing = None
        last = item.exact(closing.group(1)) if closing is not None else None
        if last is not None and last in words and not HEDGE.search(text):
            # held-out batch 172: "green dot is on the top layer, red and blue are deeper down, green": findings of
            # each, then the answer word alone as the closing clause
            return mention(last, "final_verdict")
        return None, "ambiguous"
    # two labels: denying one names the other ("Not inverted." for correct / upside down)
    distinct = list(dict.fromkeys(item.labels))
    if item.kind == "label" and len(distinct) >= 2:
        denied = label_words(mask_spans(text, question_sentences(text)), item, negated=True)
        left = [lb for lb in distinct if lb not in denied]
        if len(left) == 1 and not PRESENCE_UNSURE.search(text):
            return left[0], "negated_option"  # "Not red, not blue."
    question = item.question
    if item.kind == "yesno" and question and not refusal and item.aliases and condition_spans(text):
        # batch 24: "... Check the CSF first: if it's bright, you're looking at a T2-weighted image.": what holds
        # under a condition the reply sets (a rule for reading such images) says nothing of this one; what it says
        # outside the condition may
        text = mask_spans(text, condition_spans(text))
    if item.kind == "yesno" and question and not refusal and item.aliases:
        # batch 36: "Cardiomegaly: not present.", "Pneumothorax: seen, ...": the asked finding, labelled with its
        # presence
        said = labelled_presence(text, question)
        if said is not None:
            return item.aliases["yep" if said == "yes" else "nope"], "presence"
        # 5. presence questions: "Not present." / "None seen." / "Normal study" are no, "Present." is yes
        if PRESENCE_QUESTION.search(question):
            said = presence_answer(text, question)
            if said == "yes" and subject.answer_from_subject(text, question) == "no":
                # "The consolidation is in the left lower lobe." to "... in the right lower lobe?": there, not here
                return item.aliases["nope"], "question_subject"
            if said == "yes" and unplaced(text, question) and not AFFIRMING_OPENING.match(clean):
                # batch 21: "There is an area of airspace consolidation ..." to "... in the right lower lobe?": a
                # finding somewhere, not placed where the question asks (an affirmation that opens the reply, "No
                # question, a mass is present.", answers the question as asked)
                return None, "none"
            if said == "yes" and (lexicon.textbook_statement(text) or lexicon.instruction(text)):
                # batch 47: "Pneumothorax is best detected on an erect expiratory film or, ...": where a finding is
                # best seen, not that it is seen here; batch 117: "To assess a brain CT for abnormality, evaluate
                # the ventricles, ...": how to look, not what is seen
                return None, "none"
            if said is not None:
                return item.aliases["yep" if said == "yes" else "nope"], "presence"
        # 6. the question's subject: "This is a CT scan." to "Is this an MRI?" is no (not as others may see it: "Some
        # would call it cirrhotic; I wouldn't say so.")
        text = mask_spans(text, others_views(text))
        said = subject.answer_from_subject(text, question) or subject.answer_from_predicate(text, question)
        title = text.lstrip().split("\n", 1)[0]
        if said is None and title != text.strip() and not asked_terms(question):
            # batch 90: a report that says what the image is in its first line ("**Modality:** Transabdominal
            # grayscale ultrasound, curvilinear probe, ...", "### Axial FLAIR MRI of the brain") answers "Is this
            # an ultrasound?" there, whatever its findings go on to name
            said = subject.answer_from_subject(title, question)
        finding = asked_finding(question) if said == "yes" and PRESENCE_QUESTION.search(question) else None
        if finding and not any(overlap.stem(w) == overlap.stem(finding) for w in WORD.findall(text)):
            said = None  # "The right lower lobe is clear of artefact." names where, not whether, the finding is
        if said is not None:
            return item.aliases["yep" if said == "yes" else "nope"], "question_subject"
    opening = AFFIRMING_OPENING.match(clean)
    if item.kind == "yesno" and item.aliases and opening and not refusal and question:
        # "No doubt a tension one, with mediastinal shift.": what follows names the asked finding (or "one" for
        # it) and weighs nothing ("No doubt this needs further imaging to decide." says nothing)
        rest = clean[opening.end():]
        finding = asked_finding(question)
        names = re.search(r"(?i)\b(?:an?|the)\s+(?:[\w\-]+\s+){0,2}one\b", rest) or (
            finding and any(overlap.stem(w) == overlap.stem(finding) for w in WORD.findall(rest)))
        if names and not PRESENCE_UNSURE.search(rest) and not CLAUSE_NEGATION.search(rest):
            return item.aliases["yep"], "leading"
    return None, "none"


def _answering_close(text: str, item: Item) -> str | None:
    """Batches 88 and 90: the answer of a review whose body lists absences, from its closing sentence when that opens
    with the answer ("... **Yes, the liver is cirrhotic.**") or from the first sentence under its closing heading
    (:func:`structured.conclusion_section`: "### Answer\n**Yes** — the heart is enlarged (CTR ≈ 0.58) ..."); only
    where that sentence is about what the
    question asks and is read so on its own (not "Yes, the film is adequately inspired." to "Is the heart enlarged?",
    nor "No tension, but yes, a small right apical pneumothorax."; hostile review of batches 90-91). None otherwise."""
    lab = closing_answer(text, item)
    sentence = last_sentence(text) if lab is not None else None
    section = conclusion_section(text) if lab is None else None
    if section is not None:
        sentence = re.split(r"(?<=[.!?\n])\s", section, maxsplit=1)[0]
        lab = leading_word(sentence, item)
    if lab is None or sentence is None or not _about_the_question(sentence, item, lab) \
            or len(stated_answers(sentence, item)) > 1 or re.search(r"(?i)\bbut\b", sentence):
        return None
    found, how = _read(sentence, item, False, None, corrections=False)
    return lab if found == lab and how in ("leading", "final_verdict") else None


# an adverb that stresses the clause after it rather than answering: "Definitely, no fracture." is no
_INTENSIFIER = re.compile(r"(?i)\A[\W_]*(?:most[ \t]+)?(?:definitely|certainly|absolutely|indeed|of[ \t]+course|"
                          r"assuredly|unmistakably|undoubtedly|unquestionably|"
                          # batch 119's idioms: "Without question, no pneumothorax.", "Without a doubt, there is no ..."
                          r"without[ \t]+(?:a[ \t]+|any[ \t]+)?(?:question|doubt)|"
                          r"beyond[ \t]+(?:any[ \t]+)?(?:question|doubt))"
                          r"[ \t]*[,:;\-\u2013\u2014]+[ \t]*")


# "no fracture", "no effusion is seen" (not "no other fracture ...", which grants one)
_NO_FINDING = re.compile(r"(?i)no[ \t]+(?!(?:other|further|additional|new|more|longer|doubt|question|mistaking)\b)"
                         r"[^\W\d_]")


def _intensified_denial(text: str, item: Item) -> str | None:
    """Yes/no items: the method that reads "no" when a reply opens with an adverb that is also read as yes
    ("Definitely", "Certainly", "Of course") and the rest of its sentence denies what is asked ("Definitely, no
    fracture.", "Certainly, the duct is not dilated."): the adverb stresses the denial. None otherwise."""
    m = _INTENSIFIER.match(text)
    question = item.question
    if m is None or not question:
        return None
    rest = re.split(r"(?<=[.!?;])\s|\n", text[m.end():], maxsplit=1)[0]
    if PRESENCE_QUESTION.search(question) and (_NO_FINDING.match(rest) or presence_answer(rest, question) == "no"):
        return "presence"
    said = subject.answer_from_subject(rest, question) or subject.answer_from_predicate(rest, question)
    return "question_subject" if said == "no" else None


# --------------------------------------------------------------------------------------------------------------
# Legacy modes
# --------------------------------------------------------------------------------------------------------------


def extract_legacy(mode: str, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                   gt: str | None = None) -> Answer:
    """Parse a reply exactly as the named benchmark's original code did (to reproduce published numbers).

    ``gt`` is needed by "probmed" and "medvh", whose rules decide correctness directly; the others ignore it.
    """
    from probe_ui.benchmark import legacy_parsers

    parsers = legacy_parsers()
    try:
        bench = parsers[mode]
    except KeyError:
        raise ValueError(f"unknown legacy mode {mode!r}; expected one of {sorted(parsers)}") from None
    if kind == "free":
        return Answer(None, "free_text", invalid=False, refusal=is_refusal(text or ""))
    return bench.parse_legacy(text, kind, labels, options, gt)


def _norm_label(s: str) -> str:
    s = s.strip().casefold()
    if len(s) >= 3 and s[0] == "(" and s[-1] == ")":
        s = s[1:-1].strip()
    return s


def is_correct(answer: Answer, gt_label: str | None) -> bool | None:
    """Whether the parsed answer matches the ground-truth label.

    A legacy ``correct`` wins (its rule is the benchmark's own); None when the ground truth is unknown or the
    item is free text; an invalid answer is wrong. Labels compare case-insensitively, "(B)" equal to "B".
    """
    if answer.correct is not None:
        return answer.correct
    if gt_label is None or answer.method == "free_text":
        return None
    if answer.invalid or answer.choice is None:
        return False
    return _norm_label(answer.choice) == _norm_label(gt_label)


def reader_sources() -> list[Path]:
    """The source files the robust reading is made of: this module (the rule order), the label rules of
    :mod:`probe_ui.items`, and every other module of :mod:`probe_ui.reading` (the rules and word lists), found by
    listing the package so that a module added there is covered without being named here."""
    from probe_ui import items

    here = Path(__file__)
    return [here, Path(items.__file__ or ""), *sorted(p for p in here.parent.glob("*.py") if p != here)]


def fingerprint(paths: Sequence[Path]) -> str:
    """A short hash of the files' names and bytes, in order (a change to any of them changes it)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def parser_version() -> str:
    """A fingerprint of the robust parser's code (:func:`reader_sources`: this module, the label rules of
    :mod:`probe_ui.items` and every module of :mod:`probe_ui.reading`).

    The parse stored with each answer is a cache of the robust reading, valid only under the same fingerprint;
    :func:`probe_ui.scoring.scored_answers` re-reads replies whose stored parse came from other code."""
    return fingerprint(reader_sources())


def cache_row(text: str | None, kind: str, labels: Sequence[str], options: Sequence[str], gt: str | None, *,
              question: str | None = None, suggested: str | None = None) -> dict[str, object]:
    """The stored parse of a reply: its robust reading (``question``: the text asked, for rules 5-6;
    ``suggested``: a MedVH FCJ suggestion) and correctness against ``gt``, stamped with :func:`parser_version`
    (what the runner and the importers store with every answer)."""
    ans = extract(text or "", kind, labels, options, question=question, suggested=suggested)
    return {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
            "sure": ans.sure, "correct": is_correct(ans, gt), "parse_version": parser_version()}
