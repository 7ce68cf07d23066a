"""Answer extraction: the robust default (docs/reference.md §3) and the legacy parsers of the original benchmarks.

The replies are written the way real VLMs answer (GPT-4o terse letters, Qwen "B: <option>", LLaVA-Med rambling,
chain of thought, markdown), including the lmms-eval #1434 traps that a first-capital-letter regex falls into.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from probe_ui.benchmarks import legacy_modes
from probe_ui.reading import cleaning
from probe_ui.reading.answers import Answer, extract, extract_legacy, is_correct, is_refusal

AB = ("A", "B")
ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")
# a MediConfusion-style pair (two options, long texts)
MC_OPTS = ("Showing a stable pseudoaneurysm", "Showing an aggravating pseudoaneurysm")
# a MedVH-style four-option item
MVH_OPTS = ("left side", "right side", "bilateral", "this question contains an incorrect clinical statement.")
YN = ("yes", "no")
DOTS = ("red", "green", "blue")
ORIENT = ("correct", "upside down")


# --------------------------------------------------------------------------------------------------------------
# Robust default: multiple choice
# --------------------------------------------------------------------------------------------------------------

CHOICE_CASES = [
    # (reply, labels, options, expected choice, expected method)
    # GPT-4o terse
    ("B", AB, MC_OPTS, "B", "exact"),
    ("B.", AB, MC_OPTS, "B", "exact"),
    ("(B)", AB, MC_OPTS, "B", "exact"),
    (" B \n", AB, MC_OPTS, "B", "exact"),
    ("**B**", AB, MC_OPTS, "B", "exact"),
    ("Answer: B", AB, MC_OPTS, "B", "declaration"),
    ("The correct answer is (B).", AB, MC_OPTS, "B", "declaration"),  # lmms-eval #1434: not "T"
    ("The correct answer is: B", ABCD, MVH_OPTS, "B", "declaration"),
    ("**Answer: B**\n\nThe contrast blush has enlarged compared with the prior study.", AB, MC_OPTS, "B",
     "declaration"),
    ("**Final answer:** C", ABCD, MVH_OPTS, "C", "declaration"),
    ("Final Answer:\n\n**D**", ABCD, MVH_OPTS, "D", "declaration"),
    ("The correct option is (C) bilateral.", ABCD, MVH_OPTS, "C", "declaration"),
    ("I choose A.", AB, MC_OPTS, "A", "declaration"),
    ("I would select option B because the sac has grown.", AB, MC_OPTS, "B", "declaration"),
    ("B is the correct answer because the contrast blush grew.", AB, MC_OPTS, "B", "declaration"),
    ("The answer is A because the lesion is unchanged.", AB, MC_OPTS, "A", "declaration"),
    ("<answer>B</answer>", AB, MC_OPTS, "B", "declaration"),
    # Qwen style: letter + option text
    ("B: Showing an aggravating pseudoaneurysm", AB, MC_OPTS, "B", "bare"),
    ("B. Showing an aggravating pseudoaneurysm", AB, MC_OPTS, "B", "bare"),
    ("C) bilateral", ABCD, MVH_OPTS, "C", "bare"),
    # lmms-eval #1434: "Based on" must not become B
    ("Based on the image, A", AB, MC_OPTS, "A", "bare"),
    ("Based on the image, A.", AB, MC_OPTS, "A", "bare"),
    ("Based on the image, I would say A.", AB, MC_OPTS, "A", "declaration"),
    # chain of thought that weighs A and concludes B
    ("Let's think step by step. Option A would imply the sac is unchanged, but the second image shows a larger "
     "sac with more contrast extravasation. Therefore, the correct answer is B.", AB, MC_OPTS, "B", "declaration"),
    ("(A) is unlikely given the growth of the sac.\n(B) fits the enlarging contrast blush.\n\nThe answer is (B).",
     AB, MC_OPTS, "B", "declaration"),
    ("At first I considered A, but the answer is B.", AB, MC_OPTS, "B", "declaration"),
    ("The answer is not A, it's B.", AB, MC_OPTS, "B", "declaration"),
    ("I think it is B.", AB, MC_OPTS, "B", "declaration"),
    # \boxed and backticks
    ("Reasoning about the lesion size...\n\n\\boxed{B}", AB, MC_OPTS, "B", "boxed"),
    ("$\\boxed{\\text{C}}$", ABCD, MVH_OPTS, "C", "boxed"),
    ("My pick: `D`", ABCD, MVH_OPTS, "D", "backtick"),
    # LLaVA-Med rambling that names an option
    ("The image shows a CT angiogram of the abdomen with a contrast-filled outpouching of the splenic artery, "
     "which is consistent with option B.", AB, MC_OPTS, "B", "bare"),
    # option text instead of a letter
    ("Showing an aggravating pseudoaneurysm.", AB, MC_OPTS, "B", "option_text"),
    ("right side", ABCD, MVH_OPTS, "B", "option_text"),
    ("The atelectasis is located on the right side.", ABCD, MVH_OPTS, "B", "option_text_contained"),
    ("The answer is right side.", ABCD, MVH_OPTS, "B", "declaration"),
    # lowercase letters: accepted where they cannot be the article
    ("b", AB, MC_OPTS, "B", "exact"),
    ("the answer is b", AB, MC_OPTS, "B", "declaration"),
    ("Answer: (b)", AB, MC_OPTS, "B", "declaration"),
    ("the answer is c, since the opacity is on both sides", ABCD, MVH_OPTS, "C", "declaration"),
]


@pytest.mark.parametrize("reply,labels,options,choice,method", CHOICE_CASES)
def test_choice_replies(reply: str, labels: tuple[str, ...], options: tuple[str, ...], choice: str,
                        method: str) -> None:
    a = extract(reply, "choice", labels, options)
    assert (a.choice, a.method, a.invalid) == (choice, method, False)


INVALID_CHOICE_CASES = [
    # (reply, labels, options, expected method)
    # the article is not option A (lmms-eval #1434)
    ("A fracture is visible in the distal radius.", AB, MC_OPTS, "none"),
    ("A large mass is seen in the left upper quadrant with surrounding edema.", AB, MC_OPTS, "none"),
    ("The answer is a fracture of the radius.", AB, MC_OPTS, "none"),
    ("It is a fracture.", AB, MC_OPTS, "none"),
    # "I" is never a letter in running text, even when the item has an option I
    ("I think the lesion is benign.", tuple("ABCDEFGHI"), (), "none"),
    # ambiguous
    ("A or B", AB, MC_OPTS, "ambiguous"),
    ("A/B", AB, MC_OPTS, "ambiguous"),
    ("(A) stable\n(B) aggravating\nBoth are possible.", AB, MC_OPTS, "ambiguous"),
    ("Options A and B are both plausible; I cannot decide.", AB, MC_OPTS, "ambiguous"),
    ("Both `A` and `B` fit.", AB, MC_OPTS, "ambiguous"),
    # letters beyond the item's labels
    ("E", ABCD, MVH_OPTS, "out_of_range"),
    ("The answer is E.", ABCD, MVH_OPTS, "out_of_range"),
    ("(C)", AB, MC_OPTS, "out_of_range"),
    # nothing to read
    ("", AB, MC_OPTS, "empty"),
    ("   \n\t", AB, MC_OPTS, "empty"),
    ("The image shows a CT scan of the abdomen with contrast in the vessels.", AB, MC_OPTS, "none"),
    # a negated option mention does not choose it
    ("There is no bilateral involvement.", ABCD, MVH_OPTS, "none"),
]


@pytest.mark.parametrize("reply,labels,options,method", INVALID_CHOICE_CASES)
def test_choice_invalid(reply: str, labels: tuple[str, ...], options: tuple[str, ...], method: str) -> None:
    a = extract(reply, "choice", labels, options)
    assert (a.choice, a.method, a.invalid) == (None, method, True)


def test_out_of_range_letter_is_ignored_when_something_else_decides() -> None:
    # "E" does not exist in an A-D item; the boxed C decides
    a = extract("Not E. \\boxed{C}", "choice", ABCD, MVH_OPTS)
    assert (a.choice, a.method) == ("C", "boxed")


def test_last_declaration_wins() -> None:
    a = extract("Answer: A\nWait, looking again at the sac size, the final answer is B.", "choice", AB, MC_OPTS)
    assert a.choice == "B"


def test_option_text_containment_is_off_when_options_overlap() -> None:
    opts = ("fracture", "no fracture")
    assert extract("There is a fracture of the radius.", "choice", AB, opts).choice is None
    assert extract("no fracture", "choice", AB, opts).choice == "B"  # exact text still works


def test_option_with_letter_labels_other_than_ab() -> None:
    a = extract("The answer is D: this question contains an incorrect clinical statement.", "choice", ABCD,
                MVH_OPTS)
    assert a.choice == "D"


# MediConfusion's own prompt ends in '#answer: ("' (formats/mediconfusion/answering.json, prompts.mc.default)
@pytest.mark.parametrize("reply,choice,method", [
    ('("A")', "A", "exact"),
    ('A")', "A", "exact"),
    ('B")\n', "B", "exact"),
    ('#answer: ("B")', "B", "declaration"),
    ('B": Showing an aggravating pseudoaneurysm)', "B", "bare"),
    ('B")\n#answer: ("B")\n#answer: ("B")', "B", "declaration"),
    ('("A": Showing a stable pseudoaneurysm)\n("B": Showing an aggravating pseudoaneurysm)\n#answer: ("A")', "A",
     "declaration"),
    ('#answer: ("', None, "none"),
])
def test_mediconfusion_primed_completions(reply: str, choice: str | None, method: str) -> None:
    a = extract(reply, "choice", AB, MC_OPTS)
    assert (a.choice, a.method) == (choice, method)


@pytest.mark.parametrize("reply", ["N/A", "n/a", "NA", "N/A.", "**N/A**", "(N/A)", "n.a.", "Answer: N/A",
                                   '{"answer": "N/A"}', '#answer: ("N/A")', "The answer is N/A because no image was "
                                   "attached.", "N/A - the image is not available."])
def test_not_applicable_is_never_option_a(reply: str) -> None:
    for labels, options in ((AB, MC_OPTS), (ABCD, MVH_OPTS)):
        a = extract(reply, "choice", labels, options)
        assert (a.choice, a.invalid, a.refusal) == (None, True, True), a
    assert extract(reply, "yesno", YN).choice is None


def test_not_applicable_as_an_options_own_text_is_read() -> None:
    a = extract("N/A", "choice", ABC, ("fracture", "no fracture", "N/A"))
    assert (a.choice, a.method) == ("C", "option_text")


@pytest.mark.parametrize("reply,labels,options,choice", [
    ("Answer: A\n\nExplanation: option B is wrong because the sac has not grown.", AB, MC_OPTS, "A"),
    ("(B)\n\nExplanation: (A) would imply a stable sac, but the contrast blush has grown.", AB, MC_OPTS, "B"),
    ("(A)\n\nExplanation: (B) is incorrect because there is no interval growth.", AB, MC_OPTS, "A"),
    ("B.\n\nRationale: Option A (stable) does not fit the enlarging contrast collection.", AB, MC_OPTS, "B"),
    ("E\n\nWhy not the others: A, B, C and D do not explain the nodules.", tuple("ABCDE"), (), "E"),
    ("(C) severe\n\n(A) mild and (B) moderate underestimate the enlargement.", ABCD,
     ("mild", "moderate", "severe", "not a suitable question"), "C"),
    ("A: left side\n\nWhy: the opacity is at the left base; it is not bilateral (C).", ABCD, MVH_OPTS, "A"),
    # a conditional naming another option is a hypothesis, not the answer
    ("The answer is A.\n\nB would be correct only if the sac had enlarged, which it has not.", AB, MC_OPTS, "A"),
    ("**B.** Option A would be right if the sac had not grown.", AB, MC_OPTS, "B"),
    ("If the sac had enlarged, the answer would be B. It has not, so the answer is A.", AB, MC_OPTS, "A"),
    ("If I had to choose, I would say B.", AB, MC_OPTS, "B"),  # a forced choice is an answer
    # a lone letter after an echoed option list
    ("A: left side\nB: right side\nC: bilateral\nD: this question contains an incorrect clinical statement.\n\nB",
     ABCD, MVH_OPTS, "B"),
])
def test_a_declared_answer_beats_later_mentions(reply: str, labels: tuple[str, ...], options: tuple[str, ...],
                                                choice: str) -> None:
    assert extract(reply, "choice", labels, options).choice == choice


@pytest.mark.parametrize("reply,labels,options", [
    ("(A) stable\n(B) aggravating\nBoth are possible.", AB, MC_OPTS),  # an echoed list, not a leading answer
    ("A: Showing a stable pseudoaneurysm\nB: Showing an aggravating pseudoaneurysm", AB, MC_OPTS),
    ("A: left side\nB: right side\nC: bilateral", ABCD, MVH_OPTS),
    ("A, B", AB, MC_OPTS),
    ("(A) or (C)?", ABCD, MVH_OPTS),
    ("A\nB", AB, MC_OPTS),
    ("A\n\nOn reflection the image could show either.\n\nB", AB, MC_OPTS),  # first and last lines disagree
])
def test_head_and_tail_letters_do_not_read_lists_or_contradictions(reply: str, labels: tuple[str, ...],
                                                                   options: tuple[str, ...]) -> None:
    assert extract(reply, "choice", labels, options).choice is None


@pytest.mark.parametrize("reply,choice,method", [
    ('{"answer": "B"}', "B", "structured"),
    ('```json\n{"answer": "A", "explanation": "Option B would require growth of the sac."}\n```', "A",
     "declaration"),
    ("{'choice': '(B)', 'confidence': 0.8}", "B", "declaration"),
    ("Respuesta: B", "B", "language"),  # a declaration in another language
    ("La r\u00e9ponse correcte est B.", "B", "language"),
    ("\u7b54\u6848\u662f A", "A", "language"),
    ("\uff08B\uff09", "B", "exact"),  # full-width brackets
    ("\uff21", "A", "exact"),  # full-width A
    ("Probably B.", "B", "declaration"),
    ("My best guess would be B.", "B", "declaration"),
    ("It is not A; the sac has clearly grown, so B.", "B", "declaration"),
    ("Aggravating.", "B", "option_keyword"),
    ("The pseudoaneurysm is stable.", "A", "option_keyword"),
    ("Not stable.", "B", "option_keyword"),  # two options: denying one names the other
])
def test_more_real_shapes(reply: str, choice: str, method: str) -> None:
    a = extract(reply, "choice", AB, MC_OPTS)
    assert (a.choice, a.method) == (choice, method)


def test_weak_cues_read_only_at_a_sentence_start_or_with_a_letter() -> None:
    assert extract("It is likely a pseudoaneurysm.", "choice", AB, MC_OPTS).choice is None
    assert extract("A is likely benign.", "choice", AB, MC_OPTS).choice is None  # the article, not option A
    assert extract("Kerley B lines are visible.", "choice", ABCD, MVH_OPTS).choice is None
    assert extract("B symptoms are present with a mediastinal mass.", "choice", tuple("ABCDE"), ()).choice is None


# ProbMed's questions (formats/probmed/sample_responses.json)
PRESENT_Q = "Is enhancing rounded pseudo-aneurysm present in the given abdomen ct scan? (please answer yes/no)"
GROUND_Q = "In the given chest x-ray, is pleural effusion present in the left lung? (please answer yes/no)"
ABNORMAL_Q = "Does this ct scan show any abnormality of the abdomen? (please answer yes/no)"
MODALITY_Q = "Is this a CT Scan? (please answer yes/no)"


@pytest.mark.parametrize("reply,question,choice", [
    ("Not present.", PRESENT_Q, "no"),
    ("None seen.", PRESENT_Q, "no"),
    ("Normal study", PRESENT_Q, "no"),
    ("Normal study", ABNORMAL_Q, "no"),
    ("Unremarkable.", ABNORMAL_Q, "no"),
    ("I don't see any pseudo-aneurysm in the abdomen.", PRESENT_Q, "no"),
    ("Not in the left lung.", GROUND_Q, "no"),
    ("Present on the right, not on the left.", GROUND_Q, "no"),  # the asked side is the one denied
    ("Present.", PRESENT_Q, "yes"),
    ("Present in the left lung, not the right.", GROUND_Q, "yes"),
    ("Abnormal: there is a large hepatic mass.", ABNORMAL_Q, "yes"),
    ("There is a lesion in the right lobe.", "Is there a lesion in the liver? (please answer yes/no)", "yes"),
    # hedged or contradictory: unread
    ("Possibly.", PRESENT_Q, None),
    ("I cannot determine whether a pseudo-aneurysm is present.", PRESENT_Q, None),
    ("It may be present but the image is blurred.", PRESENT_Q, None),
    ("Normal study", "Is there a normal heart size? (please answer yes/no)", None),  # the question says normal
])
def test_presence_negatives_read_as_no_only_for_presence_questions(reply: str, question: str,
                                                                    choice: str | None) -> None:
    a = extract(reply, "yesno", YN, question=question)
    assert a.choice == choice
    if choice is not None:
        assert a.method == "presence"


@pytest.mark.parametrize("reply", ["Not present.", "None seen.", "Normal study", "Absent.", "Negative.",
                                   "Unremarkable."])
def test_presence_negatives_are_never_yes_and_need_a_presence_question(reply: str) -> None:
    assert extract(reply, "yesno", YN).choice in (None, "no")  # no question known
    assert extract(reply, "yesno", YN, question=MODALITY_Q).choice in (None, "no")
    assert extract(reply, "yesno", YN, question=PRESENT_Q).choice == "no"
    assert extract(reply, "yesno", YN, question=MODALITY_Q).method != "presence"


@pytest.mark.parametrize("reply,choice", [("Nope", "no"), ("Nope, MRI.", "no"), ("Yep", "yes"),
                                          ("Yeah, that's a CT.", "yes"), ("Affirmative.", "yes"),
                                          ("Negative, this is an ultrasound.", "no"), ("S\u00ed", "yes"),
                                          ("Yes and no.", None)])
def test_yes_no_slang(reply: str, choice: str | None) -> None:
    assert extract(reply, "yesno", ("Yes", "No"), question=MODALITY_Q).choice == (
        choice.capitalize() if choice else None)


def test_label_superlative_declaration() -> None:
    q = "Which of the dots is closest to the surface of the skin? (Answer with red, green, or blue)"
    assert extract("Green is the closest; red and blue are deeper.", "label", DOTS, question=q).choice == "green"
    # the rejected label is not the answer; the one the reply keeps is (issue 21: "Blue is not the closest; red is.")
    assert extract("Red is not the closest; blue is.", "label", DOTS, question=q).choice == "blue"
    assert extract("The red dot is closer to the skin than the blue dot.", "label", DOTS, question=q).choice is None


# --------------------------------------------------------------------------------------------------------------
# Robust default: yes/no and label items
# --------------------------------------------------------------------------------------------------------------

YESNO_CASES = [
    ("No, there is no pleural effusion.", "no", "leading"),
    ("Yes.", "yes", "exact"),
    ("yes", "yes", "exact"),
    ("NO", "no", "exact"),
    ("Yes, this appears to be a CT scan.", "yes", "leading"),
    ("Yes, there is a nodule, but no effusion.", "yes", "leading"),
    ("No evidence of pneumothorax.", "no", "leading"),
    ("Yes there is a mass in the liver but no calcification.", "yes", "leading"),
    ("There is no evidence of pneumothorax.", "no", "label_word"),
    ("The answer is no.", "no", "declaration"),
    ("Based on the image, the answer is yes: the scan is contrast-enhanced.", "yes", "declaration"),
    ("**Answer:** No", "no", "declaration"),
]


@pytest.mark.parametrize("reply,choice,method", YESNO_CASES)
def test_yesno_replies(reply: str, choice: str, method: str) -> None:
    a = extract(reply, "yesno", YN)
    assert (a.choice, a.method, a.invalid) == (choice, method, False)


@pytest.mark.parametrize("reply,method", [
    ("Normal", "none"),  # robust mode: "Normal" is not "no" (ProbMed's legacy rule says it is)
    ("Not sure.", "none"),
    ("There is a nodule; yes, maybe, but no, I am not certain.", "ambiguous"),
    ("", "empty"),
])
def test_yesno_invalid(reply: str, method: str) -> None:
    a = extract(reply, "yesno", YN)
    assert (a.choice, a.method, a.invalid) == (None, method, True)


def test_yesno_labels_keep_the_items_spelling() -> None:
    assert extract("no.", "yesno", ("Yes", "No")).choice == "No"


LABEL_CASES = [
    ("The red dot is closest to the skin.", DOTS, "red", "declaration"),  # "<label> dot is <superlative>"
    ("Red.", DOTS, "red", "exact"),
    ("Blue, since it lies just beneath the epidermis.", DOTS, "blue", "leading"),
    ("The answer is green.", DOTS, "green", "declaration"),
    ("It is upside down.", ORIENT, "upside down", "label_word"),
    ("Upside-down", ORIENT, "upside down", "leading"),
    ("The image is correctly oriented.", ORIENT, "correct", "label_word"),
    ("correct", ORIENT, "correct", "exact"),
    ("The image is not upside down; it is in the correct anatomical orientation.", ORIENT, "correct",
     "label_word"),
    ("The X-ray is not correctly oriented: it has been rotated by 180 degrees, so it is upside down.", ORIENT,
     "upside down", "final_verdict"),  # "so it is upside down" concludes
]


@pytest.mark.parametrize("reply,labels,choice,method", LABEL_CASES)
def test_label_replies(reply: str, labels: tuple[str, ...], choice: str, method: str) -> None:
    a = extract(reply, "label", labels)
    assert (a.choice, a.method, a.invalid) == (choice, method, False)


@pytest.mark.parametrize("reply,labels,method", [
    ("The orientation is incorrect.", ORIENT, "none"),  # "correct" inside "incorrect" does not count
    ("This image is incorrectly displayed.", ORIENT, "none"),
    ("The red dot is closer to the skin than the blue dot.", DOTS, "ambiguous"),
    ("The dots are all at a similar depth.", DOTS, "none"),
    ("Reddish staining is seen.", DOTS, "none"),
])
def test_label_invalid(reply: str, labels: tuple[str, ...], method: str) -> None:
    a = extract(reply, "label", labels)
    assert (a.choice, a.method, a.invalid) == (None, method, True)


def test_free_kind_does_not_extract() -> None:
    assert extract("B", "free", ()) == Answer(None, "free_text", invalid=False, refusal=False)
    a = extract("I'm unable to provide a diagnosis from this image.", "free", ())
    assert (a.choice, a.invalid, a.refusal) == (None, False, True)


def test_unknown_kind_is_an_error() -> None:
    with pytest.raises(ValueError):
        extract("B", "multi", AB)


# --------------------------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "I cannot determine this from the image.",
    "It is not possible to tell from the image whether the aneurysm has grown.",
    "I'm unable to view images.",
    "I'm unable to provide a diagnosis.",
    "As an AI, I can't interpret medical images.",
    "I'm sorry, but I can't help with that.",
    "I am sorry, but I cannot assist with this request.",
    "This cannot be determined without the prior study.",
    "Unable to determine from the provided image.",
    "There is not enough information to answer.",
    "I can't provide medical advice or a diagnosis.",
    "I cannot provide a diagnosis; please consult a radiologist.",
    "No image was provided, so I cannot answer.",
])
def test_refusals(reply: str) -> None:
    assert is_refusal(reply)


@pytest.mark.parametrize("reply", [
    "B",
    "No, there is no pleural effusion.",
    "The answer is B. Please consult a physician for a definitive diagnosis.",
    "It is difficult to be certain, but B is most likely.",
    "I can see a small nodule in the right upper lobe.",
    "",
])
def test_not_refusals(reply: str) -> None:
    assert not is_refusal(reply)


def test_refusal_flag_is_independent_of_choice() -> None:
    refused_invalid = extract("I'm sorry, but I can't determine this from the image.", "choice", AB, MC_OPTS)
    assert (refused_invalid.refusal, refused_invalid.invalid, refused_invalid.choice) == (True, True, None)
    refused_but_answered = extract("I cannot determine this with certainty from one image, but the answer is B.",
                                   "choice", AB, MC_OPTS)
    assert (refused_but_answered.refusal, refused_but_answered.choice) == (True, "B")


# --------------------------------------------------------------------------------------------------------------
# Legacy: MediConfusion (split on spaces, exact token forms)
# --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply,choice", [
    ("A", "A"),
    ("B.", "B"),
    ("B:", "B"),
    ("Answer: B", "B"),
    ("The answer is .A:", "A"),
    ('("B")', "B"),
    ('("A": 1', "A"),  # token '("A":'
    ('option B")', "B"),
    ("A large mass is seen in the liver.", "A"),  # the article counts as A (quirk)
    ("B\nbecause the sac grew", "B"),  # newline replaced by a space first
    ("(A)", None),  # not a recognised form (quirk)
    ("**B**", None),
    ("B,", None),
    ("The correct option is B, not A.", "A"),  # "B," is not a recognised form, "A." is (quirk)
    ("A or B", None),  # both match → invalid
    ("", None),
    ("B\tis right", None),  # split(' ') only: "B\tis" is one token
])
def test_legacy_mediconfusion(reply: str, choice: str | None) -> None:
    a = extract_legacy("mediconfusion", reply, "choice", AB, MC_OPTS)
    assert a.choice == choice
    assert a.invalid == (choice is None)
    assert a.method == "legacy-mediconfusion"
    assert a.correct is None


# --------------------------------------------------------------------------------------------------------------
# Legacy: ProbMed ('Yes' in r / 'No' in r)
# --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply,gt,correct,choice", [
    ("Yes, this appears to be a CT scan.", "yes", True, "yes"),
    ("yes", "yes", True, "yes"),  # no 'Yes' substring, but r.lower() == 'yes'
    ("  yes.  ", "yes", True, "yes"),  # stripped first
    ("yes, it is", "yes", False, None),  # lowercase and not exactly yes/yes. → wrong, neither test passes
    ("Normal", "no", True, "no"),  # 'No' in 'Normal' (quirk)
    ("Normal", "yes", False, "no"),
    ("No.", "no", True, "no"),
    ("no", "no", True, "no"),
    ("no, it shows the abdomen", "no", False, None),
    ("Yes, multiple lesions are seen.", "no", False, "yes"),
    ("Yes and No", "yes", True, "yes"),  # both substrings: correct whatever the gt
    ("Yes and No", "no", True, "no"),
    ("There is Not enough detail.", "no", True, "no"),  # 'No' in 'Not'
    ("I cannot tell.", "yes", False, None),
])
def test_legacy_probmed(reply: str, gt: str, correct: bool, choice: str | None) -> None:
    a = extract_legacy("probmed", reply, "yesno", YN, gt=gt)
    assert (a.correct, a.choice, a.method) == (correct, choice, "legacy-probmed")
    assert a.invalid == (choice is None)
    assert is_correct(a, gt) is correct


def test_legacy_probmed_without_gt() -> None:
    assert extract_legacy("probmed", "No.", "yesno", YN).choice == "no"
    assert extract_legacy("probmed", "No.", "yesno", YN).correct is None
    assert extract_legacy("probmed", "Yes and No", "yesno", YN).invalid


# --------------------------------------------------------------------------------------------------------------
# Legacy: MedVH (first character)
# --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply,gt,correct,choice", [
    ("A", "A", True, "A"),
    ("A. left side", "A", True, "A"),
    ("A: Yes", "A: Yes", True, "A"),  # gt in "A: Yes" style: first characters compared
    ("C", "C: this question contains an incorrect clinical statement.", True, "C"),
    ("B", "A", False, "B"),
    ("The answer is C.", "C", False, None),  # first char 'T'
    ("(C)", "C", False, None),  # first char '('
    (" C", "C", False, None),  # no strip
    ("", "C", False, None),  # the original would crash; scored wrong
    ("A fracture is visible.", "A", True, "A"),  # the article counts (quirk)
])
def test_legacy_medvh(reply: str, gt: str, correct: bool, choice: str | None) -> None:
    a = extract_legacy("medvh", reply, "choice", ABCD, MVH_OPTS, gt=gt)
    assert (a.correct, a.choice, a.method) == (correct, choice, "legacy-medvh")
    assert is_correct(a, gt[0]) is correct


# --------------------------------------------------------------------------------------------------------------
# Legacy: BLINK / MedBLINK
# --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply,labels,choice,method", [
    ("B", AB, "B", "legacy-blink"),  # bare letter → (B)
    ("(A)", AB, "A", "legacy-blink"),  # exact (A) kept
    ("The point labeled A is closer. (A)", AB, "A", "legacy-blink"),  # sample_predictions.json
    ("(A) looks closer at first, but (B) is nearer.\n\nSo the answer is (B)", AB, "B", "legacy-blink"),
    ("(A) is the red dot.\n\n(B) is the green dot.\n\nBoth (A) and (B) look similar.", AB, None,
     "legacy-blink-nomatch"),  # two in the last paragraph and in the whole text → judge
    ("Comparing (A) and (B)...\n\nThe deeper one is (A)", AB, "A", "legacy-blink"),  # last paragraph decides
    ("(B).", AB, None, "legacy-blink-nomatch"),  # whitespace tokens must equal "(B)" exactly
    ("B\n", AB, None, "legacy-blink-nomatch"),  # no strip
    ("I cannot determine this from the image.", ("A", "B", "C"), None, "legacy-blink-nomatch"),
    ("The answer is (C)", AB, None, "legacy-blink-nomatch"),  # (C) is not a choice of a 2-option item
    ("E", ABCD, None, "legacy-blink-outside"),  # accepted as "(E)" by the original, which is then wrong
])
def test_legacy_blink(reply: str, labels: tuple[str, ...], choice: str | None, method: str) -> None:
    a = extract_legacy("blink", reply, "choice", labels)
    assert (a.choice, a.method, a.invalid) == (choice, method, choice is None)


def test_legacy_blink_sample_predictions_file() -> None:
    """The four rows of formats/blink/sample_predictions.json, re-scored."""
    rows = [("(A)", "(A)"), ("The point labeled A is closer. (A)", "(A)"),
            ("I cannot determine this from the image.", "(Z)"), ("B", "(B)")]
    for full, pred in rows:
        a = extract_legacy("blink", full, "choice", ("A", "B", "C"))
        assert (f"({a.choice})" if a.choice else "(Z)") == pred


def test_legacy_refusal_flag_set() -> None:
    for mode in legacy_modes():
        a = extract_legacy(mode, "I'm sorry, but I can't determine this.", "choice", AB, gt="A")
        assert a.refusal, mode


def test_legacy_unknown_mode() -> None:
    with pytest.raises(ValueError):
        extract_legacy("mmmu", "B", "choice", AB)


# --------------------------------------------------------------------------------------------------------------
# is_correct
# --------------------------------------------------------------------------------------------------------------

def test_is_correct() -> None:
    assert is_correct(extract("B", "choice", AB), "B") is True
    assert is_correct(extract("B", "choice", AB), "(B)") is True  # BLINK-style gt
    assert is_correct(extract("B", "choice", AB), "A") is False
    assert is_correct(extract("", "choice", AB), "A") is False  # invalid → wrong
    assert is_correct(extract("B", "choice", AB), None) is None
    assert is_correct(extract("anything", "free", ()), "B") is None
    assert is_correct(extract("Yes.", "yesno", YN), "Yes") is True
    # legacy correct wins over the choice comparison
    legacy = extract_legacy("probmed", "Normal", "yesno", YN, gt="no")
    assert is_correct(legacy, "yes") is True


# --------------------------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------------------------

WORDS = ["red", "green", "blue", "yellow", "correct", "upside down", "left", "right", "yes", "no", "normal",
         "abnormal", "rotated", "flipped", "mild", "severe", "moderate"]
KIND_LABELS = st.one_of(
    st.integers(2, 8).map(lambda n: ("choice", tuple("ABCDEFGH"[:n]))),
    st.just(("yesno", YN)),
    st.lists(st.sampled_from(WORDS), min_size=2, max_size=5, unique=True).map(lambda ws: ("label", tuple(ws))),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=300), kl=KIND_LABELS,
       options=st.lists(st.text(max_size=30), max_size=8))
@pytest.mark.slow
def test_extract_never_raises_and_returns_a_label(text: str, kl: tuple[str, tuple[str, ...]],
                                                  options: list[str]) -> None:
    kind, labels = kl
    a = extract(text, kind, labels, tuple(options[:len(labels)]) if kind == "choice" else ())
    assert a.choice is None or a.choice in labels
    assert a.invalid == (a.choice is None)
    assert isinstance(a.refusal, bool)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ABCDE abcde()[].:,;\n*`\\{}IiOoNnYesS")), max_size=80),
       kl=KIND_LABELS)
def test_extract_never_raises_on_answer_like_noise(text: str, kl: tuple[str, tuple[str, ...]]) -> None:
    kind, labels = kl
    a = extract(text, kind, labels)
    assert a.choice is None or a.choice in labels


@settings(max_examples=300, deadline=None)
@given(kl=KIND_LABELS, data=st.data(),
       wrap=st.sampled_from(["{}", " {} ", "{}.", "**{}**", "{}\n", "({})", "'{}'"]))
def test_a_reply_that_is_a_label_is_read_as_that_label(kl: tuple[str, tuple[str, ...]], data: st.DataObject,
                                                       wrap: str) -> None:
    kind, labels = kl
    label = data.draw(st.sampled_from(labels))
    a = extract(wrap.format(label), kind, labels)
    assert (a.choice, a.invalid) == (label, False)


@settings(max_examples=200, deadline=None)
@given(labels=st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz -", min_size=1, max_size=12), min_size=2,
                       max_size=5),
       data=st.data())
def test_any_label_text_read_exactly(labels: list[str], data: st.DataObject) -> None:
    from probe_ui.reading.cleaning import norm as _norm

    norms = [_norm(x) for x in labels]
    assume(all(norms) and len(set(norms)) == len(norms))
    label = data.draw(st.sampled_from(labels))
    assert extract(label, "label", tuple(labels)).choice == label


MED_WORDS = ["stable", "aggravating", "pseudoaneurysm", "left", "right", "side", "bilateral", "mass", "lesion",
             "fracture", "of", "the", "distal", "radius", "showing", "an", "enhancing", "hypodense", "liver",
             "none", "above", "effusion", "pleural", "small", "large"]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
@pytest.mark.slow
def test_any_option_text_reply_reads_its_letter(data: st.DataObject) -> None:
    from probe_ui.reading.cleaning import norm as _norm

    phrase = st.lists(st.sampled_from(MED_WORDS), min_size=1, max_size=6).map(" ".join)
    opts = data.draw(st.lists(phrase, min_size=2, max_size=5, unique_by=_norm))
    labels = tuple("ABCDE"[:len(opts)])
    i = data.draw(st.integers(0, len(opts) - 1))
    reply = data.draw(st.sampled_from(["{}", "{}.", "{}\n", "**{}**"])).format(opts[i].capitalize())
    a = extract(reply, "choice", labels, tuple(opts))
    assert (a.choice, a.method) == (labels[i], "option_text")


# --------------------------------------------------------------------------------------------------------------
# Degenerate replies found by fuzzing (perf/fuzz.py): linear time, the same answers as before
# --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "kind", "labels", "options", "expected"), [
    # _norm's trailing-punctuation regex backtracked over every ", " run: 17 s
    (", " * 25000 + "x", "label", ORIENT, (), (None, "none")),
    # every "it is" cue read 20 kB (the longest option) after it: 24 s; the last cue still decides
    ("it is " * 16666 + "it is B", "choice", ABC, ("x" * 20000, "b", "c"), ("B", "declaration")),
    # a full negation search before each of 50,000 mentions of option "b": 2.6 s
    ("B)" * 50000, "choice", ABC, ("x" * 2000, "b", "c"), ("B", "option_text_contained")),
    # issue 46: a body read against its closing answer (the last 3,000 characters of it), clauses read for a yes and
    # a no stated as the answer (the first 2,000)
    ("The opacities are classic for pneumonia. " * 4000 + "Answer: C", "choice", ("A", "B", "C", "D"),
     ("Pneumothorax", "Pleural effusion", "Pneumonia", "Atelectasis"), ("C", "declaration")),
    ("Yes, there is one. No, there is not. " * 4000, "yesno", ("yes", "no"), (), (None, "ambiguous")),
    # the closing paragraph of advice (batch 72) looked for a blank line after each of 33,000 paragraph breaks: 8 s
    ("A\n\n" * 33000, "choice", ABC, ("x", "b", "c"), ("A", "final_verdict")),
    # the declaration before each of 7,700 revisions read afresh for the reading's sureness: 173 s
    ("Amended: no. " * 7700, "yesno", ("yes", "no"), (), ("no", "final_verdict")),
    # runs of marks or spaces that a pattern scanned again from each of their characters: "Fundus image not
    # provided" after 20,000 newlines 81 s, the closing confidence after spaces or tabs about 11 minutes
    ("\n" * 100000 + "A:", "choice", ABC, ("x", "b", "c"), ("A", "exact")),
    (". " * 50000 + "A", "choice", ABC, ("x", "b", "c"), ("A", "bare")),
    ("\t" * 100000 + "no", "yesno", ("yes", "no"), (), ("no", "exact")),
    ("-" * 100000 + "A", "choice", ABC, ("x", "b", "c"), ("A", "bare")),
    ("?" * 100000 + "Confidence: 80 %", "choice", ABC, ("x", "b", "c"), (None, "none")),
    (" " * 100000 + "Answer: B.", "choice", ABC, ("x", "b", "c"), ("B", "declaration")),
    ("\r\n" * 50000 + "Confidence: 80 %", "yesno", ("yes", "no"), (), (None, "none")),
    # batch 77: an option named by its place, then a text, after spaces: the closing marks stripped by sureness
    # (_ends_in_other_text) were scanned again from each space, a minute
    (" " * 100000 + "Option 2 (Pulmonary edema)", "choice", ABC, ("x", "b", "c"), ("B", "bare")),
    # an answer word, spaces, then "no wait": the words after the opening one, read with nested runs of spaces: 421 s
    ("yes" + " " * 100000 + "no wait", "yesno", ("yes", "no"), (), ("yes", "leading")),
    # batch 85: each answer kept ("I stand by A") read for two answers kept, each span again with its own phrases:
    # over 10 minutes at 13 kB before the spans were cut at the next phrase
    ("I stand by A " * 8000, "choice", ABC, ("x", "b", "c"), ("A", "declaration")),
    # a "no" list item ran to the reply's end and back looking for "or", from each "no": 9 s
    ("Yes, " + "no pneumothorax " * 6000, "yesno", ("yes", "no"), (), ("yes", "leading")),
    # batch 84: the prompt's option list echoed 8,000 times
    ("Options: A. x B. b C. c " * 8000, "choice", ABC, ("x", "b", "c"), (None, "none")),
])
@pytest.mark.parametrize("loops_cut", [True, False], ids=["loops cut", "read whole"])
@pytest.mark.slow
def test_degenerate_100k_replies_are_read(text: str, kind: str, labels: tuple[str, ...], options: tuple[str, ...],
                                          expected: tuple[str | None, str], loops_cut: bool,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each once took seconds to minutes; perf/limits.py times them (goal: under a second). A loop is now read as
    its first 50 turns; read whole (as a long reply with no loop is), every rule still reads it in linear time and
    to the same answer."""
    if not loops_cut:
        monkeypatch.setattr(cleaning, "LOOPED_CHARS", 10**9)
    a = extract(text, kind, labels, options)
    assert (a.choice, a.method) == expected


def test_a_looping_reply_is_read_as_its_first_turns() -> None:
    """A model caught in a loop: the loop is cut to 50 turns, what comes after it is kept; a reply under 10,000
    characters stands as written, however often it repeats itself."""
    looped = "it is " * 16666 + "it is B"
    assert cleaning.collapse_loops(looped) == "it is " * 50 + "B"
    assert cleaning.collapse_loops("yes\n" * 2000) == "yes\n" * 2000  # 8,000 characters: as written
    assert cleaning.collapse_loops("I think " + "no " * 5000 + "Answer: A") == "I think " + "no " * 50 + "Answer: A"
    assert extract("Findings: " + "normal. " * 3000 + "Answer: B", "choice", ABC, ("x", "b", "c")).choice == "B"


def test_legacy_mediconfusion_with_many_labels() -> None:
    """perf/limits.py times it (goal: under a second)."""
    labels = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    a = extract_legacy("mediconfusion", "x " * 50000 + "Q.", "choice", labels)
    assert a.choice == "Q"


def _negated_reference(before: str) -> bool:
    """The negation test as first written: the whole clause searched (slow on long clauses, same answers)."""
    import re

    from probe_ui.reading.cleaning import _NEGATION_BEFORE

    clause = re.split(r"[.;:!?\n,]", before)[-1]
    return bool(_NEGATION_BEFORE.search(clause.lower().rstrip() + " ")) if clause.strip() else False


NEGATION_TOKENS = ["no", "NOT", "without", "absent", "absence", "of", "neither", "nor", "rather", "than", "instead",
                   "excluding", "excludes", "ruled", "rule", "out", "unlikely", "isn't", "don't", "n't", "never",
                   "mass", "upside", "down", "(no", "x-no", "snot", "a1", "_no", "é", "ſ", ".", ",", "\n", "-"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NEGATION_TOKENS), st.sampled_from(["", " ", "  ", "\t", "\xa0"])),
                max_size=8))
@pytest.mark.slow
def test_fast_negation_test_agrees_with_the_full_search(parts: list[tuple[str, str]]) -> None:
    from probe_ui.reading.cleaning import is_negated as _negated

    before = "".join(w + sep for w, sep in parts)
    assert _negated(before) == _negated_reference(before)


@pytest.mark.parametrize("text", [
    "Sorry, this image does not show enough detail.",
    "The image is not clear enough to tell.",
    "This radiograph lacks the resolution needed to answer that.",
])
def test_a_decline_is_never_read_as_an_answer(text: str) -> None:
    """Issue 46: a decline read as "no" (rule final_verdict: "Sorry" taken for a change of mind, then "does not
    show" for absence) turned declines into right answers in the MedVH files."""
    q = "Is there lung opacity in the right apical region?"
    yn = extract(text, "yesno", ["yes", "no"], question=q)
    assert (yn.choice, yn.method, yn.refusal) == (None, "declined", True)
    ch = extract(text, "choice", ["A", "B"], ["Yes", "No"], question=q)
    assert (ch.choice, ch.refusal) == (None, True)


@pytest.mark.parametrize("text,kind,labels,options,sure", [
    ("B", "choice", ["A", "B"], ["Pneumonia", "Edema"], True),
    ("The answer is B.", "choice", ["A", "B"], ["Pneumonia", "Edema"], True),
    ("Edema.", "choice", ["A", "B"], ["Pneumonia", "Edema"], True),
    ("Yes.", "yesno", ["yes", "no"], [], True),
    ("Probably B.", "choice", ["A", "B"], ["Pneumonia", "Edema"], False),
    ("I think the answer is B.", "choice", ["A", "B"], ["Pneumonia", "Edema"], False),
    ("D - sorry, I meant B", "choice", ["A", "B", "C", "D"], ["w", "x", "y", "z"], False),
    ("No. Wait, it is enlarged. Yes.", "yesno", ["yes", "no"], [], False),
    ("Yes, there is an effusion. No, it is a fat pad.", "yesno", ["yes", "no"], [], False),
    ("Yes, the heart is", "yesno", ["yes", "no"], [], False),
    ("I can't be sure without the image, but the answer is B", "choice", ["A", "B"], ["Pneumonia", "Edema"],
     False),
    ("Not proliferative.", "choice", ["A", "B"], ["Proliferative retinopathy", "Non-proliferative retinopathy"],
     True),  # read as B, the option that says so
])
def test_a_reading_is_sure_only_where_nobody_would_doubt_it(text: str, kind: str, labels: list[str],
                                                           options: list[str], sure: bool) -> None:
    """Issue 46: every reading says whether it is sure; the reader's best guess is kept either way."""
    a = extract(text, kind, labels, options)
    assert a.sure is sure, a
    assert not a.sure or a.choice is not None


def test_an_option_read_from_its_negation_is_not_sure() -> None:
    """Issue 46: "non-proliferative" read as "Proliferative retinopathy" is the shape that went wrong; whatever rule
    reads it so, the negation before the chosen option's words puts the reading in doubt."""
    from probe_ui.reading.item import Item
    from probe_ui.reading.sureness import doubts

    item = Item("choice", ["A", "B"], ["Proliferative retinopathy", "Macular oedema"])
    assert "negation" in doubts("Non-proliferative changes only.", item, "option_keyword", "A")
    assert "negation" not in doubts("Proliferative changes.", item, "option_keyword", "A")
    both = Item("choice", ["A", "B"], ["Proliferative retinopathy", "Non-proliferative retinopathy"])
    assert "negation" not in doubts("Non-proliferative retinopathy.", both, "option_text", "B")


@pytest.mark.parametrize("text,kind,labels,options,question,sure", [
    # a hedge about the answer puts it in doubt; weighing alternatives before a declared answer does not, nor does
    # ranking the options ("most likely", "less likely") or "either" outside "either ... or"
    ("There is no pneumothorax on either side.", "yesno", ["yes", "no"], [], "Is there a pneumothorax?", True),
    ("The answer is B, either an effusion or an empyema.", "choice", ["A", "B"], ["Pneumonia", "Effusion"], None,
     False),
    ("Sarcoidosis fits best; lymphoma is less likely. Final answer: A", "choice", ["A", "B"],
     ["Sarcoidosis", "Lymphoma"], None, True),
    ("This could be pulmonary embolism (A) or aortic dissection (B). Given the widened mediastinum, my final answer "
     "is B.", "choice", ["A", "B"], ["Pulmonary embolism", "Aortic dissection"], None, True),
    ("Myocardial infarction (A) is the most likely.", "choice", ["A", "B"], ["Myocardial infarction", "Pericarditis"],
     "What is the most likely diagnosis?", True),
    ("The answer is A. Though honestly, I'm not sure.", "choice", ["A", "B"], ["Pneumonia", "Edema"], None, False),
    ("It is difficult to be certain, but B is most likely.", "choice", ["A", "B"], ["Pneumonia", "Edema"], None, False),
    ("I think the answer is B.", "choice", ["A", "B"], ["Pneumonia", "Edema"], None, False),
    ("I can't be certain from this film, but the answer is B.", "choice", ["A", "B"], ["Pneumonia", "Edema"], None,
     False),  # a hedge (batch 8), not a refusal: the image was read
    ("Most likely yes.", "yesno", ["yes", "no"], [], "Is there a pneumothorax?", False),
    # reasoning written out before a declared answer is no doubt; a thinking trace left open is
    ("Let's think step by step.\n1. The ratio is 0.6.\n2. That is above 0.5.\nThus the correct option is (B).",
     "choice", ["A", "B"], ["Normal", "Enlarged"], None, True),
    ("<think>The ratio is 0.6, so B", "choice", ["A", "B"], ["Normal", "Enlarged"], None, False),
    # a contradiction is a yes and a no both stated as the answer, not a "no" about something else
    ("Yes. There is a large left pneumothorax. No mediastinal shift is seen.", "yesno", ["yes", "no"], [],
     "Is there a pneumothorax?", True),
])
def test_what_puts_a_reading_in_doubt_and_what_does_not(text: str, kind: str, labels: list[str], options: list[str],
                                                        question: str | None, sure: bool) -> None:
    a = extract(text, kind, labels, options, question=question)
    assert a.choice is not None and a.sure is sure, a
