"""The reading rules of issue 21, one shape at a time, and their word lists (probe_ui/reading/).

The corpus (tests/test_reading_corpus.py) measures the reader on hundreds of replies; these tests pin the
behaviour each kind of the issue asks for, with the method that decided, and check that the lists stay usable:
every refusal phrase flags its own example, and ordinary answers are not flagged.
"""

from __future__ import annotations

import re

import pytest

from probe_ui.answers import extract, is_refusal
from probe_ui.reading import lexicon, methods, subject
from probe_ui.reading.refusals import REFUSAL_PHRASES

YN = ("yes", "no")
ABCD = ("A", "B", "C", "D")
DX = ("Pneumothorax", "Pleural effusion", "Pneumonia", "Atelectasis")
DOTS = ("red", "green", "blue")
ORIENT = ("correct", "upside down")


@pytest.mark.parametrize("reply,kind,labels,options,question,choice,method", [
    # the reply's final verdict before earlier mentions; someone else's answer that it rejects is not its answer
    ("The correct answer is: A: Pneumothorax. The physician's answer B: Pleural effusion is wrong.", "choice", ABCD,
     DX, None, "A", "declaration"),
    ("The physician's answer C is incorrect; I cannot tell which is right", "choice", ABCD, DX, None, None, "none"),
    ("The physician's answer A is incorrect. The correct answer is: A", "choice", ABCD, DX, None, None, "ambiguous"),
    ("A. Actually, on closer inspection the lung edge is visible, so A is out: B.", "choice", ABCD, DX, None, "B",
     "final_verdict"),
    ("My answer is A. Hmm, on reflection, I'm changing my answer to C.", "choice", ABCD, DX, None, "C",
     "final_verdict"),
    ("The answer is B. On second thought, I'm unsure whether that line is real.", "choice", ABCD, DX, None, None,
     "withdrawn"),
    # yes/no idioms and self-corrections
    ("No doubt, there is an effusion.", "yesno", YN, (), "Is there a pleural effusion?", "yes", "presence"),
    ("There is no question that a pneumothorax is present.", "yesno", YN, (), "Is a pneumothorax present?", "yes",
     "presence"),
    ("No evidence of pneumothorax? Actually there is a thin pleural line, so yes.", "yesno", YN, (), None, "yes",
     "final_verdict"),
    ("No. Wait, it is enlarged. Yes.", "yesno", YN, (), None, "yes", "final_verdict"),
    ("No oral contrast, but IV contrast is present: yes.", "yesno", YN, (), None, "yes", "final_verdict"),
    ("Yes, no other lesions.", "yesno", YN, (), None, "yes", "leading"),
    ("Yes. No. I cannot decide.", "yesno", YN, (), None, None, "ambiguous"),
    ("Not really.", "yesno", YN, (), None, "no", "exact"),
    # the question's subject, no yes/no word
    ("This is a CT scan.", "yesno", YN, (), "Is this an MRI?", "no", "question_subject"),
    ("Contrast-enhanced.", "yesno", YN, (), "Is this CT scan image contrast-enhanced?", "yes", "question_subject"),
    ("Non-contrast.", "yesno", YN, (), "Is this CT scan image contrast-enhanced?", "no", "question_subject"),
    ("It shows the abdomen.", "yesno", YN, (), "Does this image show the chest?", "no", "question_subject"),
    ("The spleen is not enlarged.", "yesno", YN, (), "Is the spleen enlarged?", "no", "question_subject"),
    ("Splenomegaly is present.", "yesno", YN, (), "Is the spleen enlarged?", "yes", "question_subject"),
    ("The liver is enlarged.", "yesno", YN, (), "Is the spleen enlarged?", None, "none"),
    ("Magnetic resonance imaging uses strong magnets.", "yesno", YN, (), "Is this an MRI?", None, "none"),
    ("Patients can be male or female.", "yesno", YN, (), "Is this patient female?", None, "none"),
    # other languages and scripts
    ("是的", "yesno", YN, (), None, "yes", "language"),
    ("不是", "yesno", YN, (), None, "no", "language"),
    ("Sí, se observa un derrame pleural.", "yesno", YN, (), None, "yes", "language"),
    ("Ja, der Befund zeigt einen Erguss.", "yesno", YN, (), None, "yes", "language"),
    ("La bonne réponse est A", "choice", ABCD, DX, None, "A", "language"),
    ("La respuesta correcta es A.", "choice", ABCD, DX, None, "A", "language"),
    ("不是红色，是蓝色。", "label", DOTS, (), None, "blue", "language"),
    ("Ｃ", "choice", ABCD, DX, None, "C", "exact"),
    # negated options
    ("Not A, but B.", "choice", ABCD, DX, None, "B", "bare"),
    ("Blue is not the closest; red is.", "label", DOTS, (), "Which dot is closest to the skin?", "red",
     "label_word"),
    ("Between A and B, B.", "choice", ABCD, DX, None, "B", "bare"),
    ("A and B can be excluded; C fits best.", "choice", ABCD, DX, None, "C", "declaration"),
    ("Not red, not blue.", "label", DOTS, (), None, "green", "negated_option"),
    ("Not the left kidney; the right one is dilated.", "choice", ("A", "B"), ("The left kidney", "The right kidney"),
     None, "B", "negated_option"),
    # MedBLINK orientation and label synonyms
    ("Inverted.", "label", ORIENT, (), None, "upside down", "synonym"),
    ("It has been rotated 180 degrees.", "label", ORIENT, (), None, "upside down", "synonym"),
    ("Upside down? No, it's correct.", "label", ORIENT, (), None, "correct", "label_word"),
    ("The green one is the deepest, red is the shallowest.", "label", DOTS, (),
     "Which of the dots is at the greatest depth?", "green", "declaration"),
    ("Shingles", "choice", ABCD, ("Herpes zoster", "Impetigo", "Psoriasis", "Eczema"), None, "A", "synonym"),
    ("Paediatric.", "label", ("child", "adult"), (), None, "child", "synonym"),
    # chat-template debris
    ("A</s>", "choice", ABCD, DX, None, "A", "exact"),
    ("C<|im_end|>", "choice", ABCD, DX, None, "C", "exact"),
    ("<start_of_turn>model\nB<end_of_turn>", "choice", ABCD, DX, None, "B", "exact"),
    ("<think>A or B?</think>\nB", "choice", ABCD, DX, None, "B", "exact"),
    # escape options, wherever they sit
    ("None of these options fit the image.", "choice", ABCD, ("Pneumonia", "Effusion", "Edema", "None of the above"),
     None, "D", "escape_option"),
    ("The question is not suitable for this image.", "choice", ABCD,
     ("Pneumonia", "Not a suitable question for the image", "Edema", "Effusion"), None, "B", "escape_option"),
    ("The question's premise is clinically wrong.", "choice", ABCD,
     ("Pneumonia", "Edema", "The question contains a clinically incorrect premise", "Effusion"), None, "C",
     "escape_option"),
    ("A. None of the above.", "choice", ABCD, ("Pneumonia", "Effusion", "Edema", "None of the above"), None, None,
     "ambiguous"),
    # over-reading: must stay invalid
    ("Let's go through the options. Option C: Pulmonary edema. This would", "choice", ABCD,
     ("Pneumonia", "Effusion", "Pulmonary edema", "Atelectasis"), None, None, "truncated"),
    ("Yes and no.", "yesno", YN, (), None, None, "ambiguous"),
    ("Yes, the answer is A.", "choice", ("A", "B"), ("No", "Yes"), None, None, "ambiguous"),
    ("None of the options seem right.", "choice", ABCD, ("left side", "right side", "bilateral", "neither"), None,
     None, "none"),
    ("It looks correct, but I'm not sure it isn't upside down.", "label", ORIENT, (), None, None, "ambiguous"),
    ("Red, green, blue.", "label", DOTS, (), None, None, "ambiguous"),
    ("Melanoma is the most dangerous skin cancer, and benign nevi are common.", "choice", ABCD,
     ("Melanoma", "Basal cell carcinoma", "Seborrheic keratosis", "Benign nevus"), None, None, "none"),
])
def test_each_shape_is_read_as_a_careful_reader_would(reply: str, kind: str, labels: tuple[str, ...],
                                                     options: tuple[str, ...], question: str | None,
                                                     choice: str | None, method: str) -> None:
    a = extract(reply, kind, labels, options, question=question)
    assert (a.choice, a.method) == (choice, method)
    assert a.invalid == (choice is None)


def test_agreeing_with_the_suggestion_names_it() -> None:
    a = extract("The physician's answer is correct.", "choice", ABCD, DX, suggested="B: Pleural effusion")
    assert (a.choice, a.method) == ("B", "agrees_with_suggestion")
    assert extract("The physician's answer is correct.", "choice", ABCD, DX).choice is None  # no suggestion known
    assert extract("The physician's answer is wrong.", "choice", ABCD, DX, suggested="B").choice is None


@pytest.mark.parametrize("name,pattern,example", REFUSAL_PHRASES)
def test_every_refusal_phrase_flags_its_own_example(name: str, pattern: str, example: str) -> None:
    assert re.search(pattern, lexicon.fold_quotes(example), re.IGNORECASE), name
    assert is_refusal(example), name


@pytest.mark.parametrize("reply", [
    "I can't be sure without the image, but the answer is B",
    "Without the image I can't be certain",
    "I'm unable to view the attached image",
    "I cannot see any coloured dots",
    "I'd need to see the image. Statistically it is most often normal, so A.",
    "No idea.",
])
def test_the_refusals_of_issue_21_are_flagged(reply: str) -> None:
    assert is_refusal(reply)


@pytest.mark.parametrize("reply", [
    "B", "No, there is no pleural effusion.", "It is difficult to be certain, but B is most likely.",
    "I can see a small nodule in the right upper lobe.", "There is no image artifact; the answer is A.",
    "I don't see any effusion.", "The image shows a CT of the abdomen without contrast.", "Not sure, but B.",
])
def test_ordinary_answers_are_not_refusals(reply: str) -> None:
    assert not is_refusal(reply)


def test_the_word_lists() -> None:
    assert lexicon.canonical("Paediatric oedema; Shingles; a PE") == "pediatric edema; herpes zoster; a pulmonary embolism"
    assert lexicon.canonical("Newborn", frozenset({"neonate"})) == "neonate"  # the item offers the narrow term
    assert lexicon.canonical("Newborn") == "pediatric"
    assert lexicon.translate(lexicon.fold_quotes("是的，有积液"), yesno=True).startswith("yes ")
    assert lexicon.translate("No es rojo, es azul.") == "No is red, is blue."
    assert lexicon.strip_debris("C<|im_end|>").strip() == "C"
    assert lexicon.escape_kind_of_option("None of the above") == "none"
    assert lexicon.escape_kind_of_option("The question contains a clinically incorrect premise") == "premise"
    assert lexicon.escape_kind_of_reply("None of these options fit.") == ["none"]
    assert lexicon.mask_idioms("No doubt, there is an effusion.").strip(" ,") == "there is an effusion."


def test_the_question_subject() -> None:
    assert subject.asked_values("Is this CT scan image contrast-enhanced? (Answer with yes or no)") == \
        {("contrast", "with")}
    assert subject.asked_values("Is this a T2-weighted MRI?") == {("sequence", "t2"), ("modality", "mri")}
    assert subject.asked_values("Is the spleen enlarged?") == set()  # an adjective question: the predicate rule
    assert subject.answer_from_subject("This is a mammogram.", "Is this an X-ray?") == "yes"  # a kind of X-ray
    assert subject.answer_from_subject("It may be an MRI.", "Is this an MRI?") is None  # a hedge
    assert subject.answer_from_predicate("Normal heart size.", "Is the heart enlarged in this radiograph?") == "no"
    assert subject.answer_from_predicate("The CBD is not dilated.", "Is the common bile duct dilated?") == "no"


def test_every_method_the_reader_returns_is_described() -> None:
    for name in ("exact", "declaration", "final_verdict", "language", "synonym", "question_subject", "escape_option",
                 "negated_option", "agrees_with_suggestion", "ambiguous", "truncated", "withdrawn", "judge",
                 "judge-none", "legacy-probmed", "none"):
        assert name in methods.METHODS and methods.describe(name) != f"read by the rule '{name}'"
    assert methods.describe(None) == ""
