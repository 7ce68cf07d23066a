"""A denial, a checklist verdict, a put-down, a supposition or a joke set beside the words a reading comes from makes
the reading a guess (probe_ui.reading.denials, issue 46): each "guess" case below was read surely and wrongly before
(a reader check of 2026-12-06 by a black-box tester, 737 replies, 196 sure errors), and each "sure" case is one a
review of the first drafts found made a guess for nothing."""
from __future__ import annotations

import pytest

from probe_ui.reading.answers import extract

YN = ("yes", "no")
ABCD = ("A", "B", "C", "D")
_DX = ("Pneumothorax", "Pleural effusion", "Pneumonia", "Atelectasis")
_Q = {"effusion": "Is pleural effusion present in the given chest x-ray? (please answer yes/no)",
      "heart": "Is the heart enlarged in this radiograph? (please answer yes/no)",
      "ct": "Is this a CT scan? (please answer yes/no)",
      "xray": "Is this image an X-ray? (please answer yes/no)",
      "ptx": "Is there a pneumothorax in this chest x-ray? (please answer yes/no)",
      "fracture": "Is there a fracture in this radiograph? (please answer yes/no)"}


@pytest.mark.parametrize(("reply", "asked"), [
    # a checklist's verdict after the finding, in shorthand or symbols
    ("Effusion: ruled out", "effusion"),
    ("Effusion (-)", "effusion"),
    ("Effusion ❌", "effusion"),
    ("Effusion: doubtful.", "effusion"),
    ("PTX: neg", "ptx"),
    ("Cardiomegaly: ruled out.", "heart"),
    ("Fracture (-)", "fracture"),
    ("CT: false", "ct"),
    # another language's "no" after the finding
    ("Cardiomegaly nahi hai.", "heart"),
    ("Cardiomegaly wala.", "heart"),
    ("Pleural effusion: 없음", "effusion"),
    # a joke, a sneer, a put-down, what only looks so, what another says
    ("A CT, my foot.", "ct"),
    ("CT, yeah right.", "ct"),
    ("Yes. Just kidding.", "ct"),
    ("Definitely a CT. Not.", "ct"),
    ("CT is a stretch.", "ct"),
    ("Cardiomegaly would be an overcall.", "heart"),
    ("Apparent cardiomegaly (AP projection artifact).", "heart"),
    # a supposition
    ("Were this a CT, we'd see Hounsfield windowing.", "ct"),
    # another finding than the one asked
    ("Cardiomegaly is present.", "effusion"),
    ("Atelectasis present.", "effusion"),
])
def test_a_yes_beside_a_verdict_against_it_is_a_guess(reply: str, asked: str) -> None:
    answer = extract(reply, "yesno", YN, (), question=_Q[asked])
    assert not (answer.choice == "yes" and answer.sure), answer


@pytest.mark.parametrize(("reply", "asked"), [
    # a review of the first drafts: these keep their sure yes
    ("Ein CT, keine Frage.", "ct"),
    ("X-ray ng kamay ito, walang bali.", "xray"),
    ("Đây là ảnh CT sọ não thường quy.", "ct"),
    ("Dit is een CT-scan van de buik, geen MRI.", "ct"),
    ("Ez egy CT.", "ct"),
    ("This is a CT, and an MRI would be better for soft tissue.", "ct"),
    ("I have no hesitation calling this a CT.", "ct"),
    ("Yes. Transverse fracture of the distal radius; displaced, I don't think so.", "fracture"),
    ("Yes - calling it normal would be wrong.", "heart"),
    ("Yes, a small effusion at the right base.", "effusion"),
    ("Yes, blunted costophrenic angle.", "effusion"),
    ("Yes, pleural effusion (no mediastinal shift).", "effusion"),
    ("Yes. Pleural effusion: present. Pneumothorax: absent.", "effusion"),
    ("Yes, as previously reported.", "effusion"),
])
def test_a_yes_beside_other_words_stays_sure(reply: str, asked: str) -> None:
    answer = extract(reply, "yesno", YN, (), question=_Q[asked])
    assert (answer.choice, answer.sure) == ("yes", True), answer


@pytest.mark.parametrize("reply", [
    "Pneumothorax (-)",
    "~~Pneumothorax~~",
    "Pneumothorax → no",
    "Pneumothorax, my foot.",
    "Pneumothorax mimic (skin fold).",
    "Pleural effusion. Just kidding.",
    "Pleural effusion: the one thing it's not.",
    '{"pneumothorax": false}',
    '{"answer": "B", "retracted": true}',
    "Had it been effusion, the angle would be blunted.",
    "Pneumonia, unless it's atelectasis.",
    "Pas un pneumothorax.",
])
def test_an_option_beside_a_verdict_against_it_is_no_sure_reading(reply: str) -> None:
    answer = extract(reply, "choice", ABCD, _DX, question="What is the most likely diagnosis?")
    assert not answer.sure, answer


@pytest.mark.parametrize(("reply", "choice"), [
    ("I wouldn't call it anything but pleural effusion.", "B"),
    ("Pleural effusion, no way around it.", "B"),
    ("B: no doubt about it.", "B"),
    ("Pleural effusion (no pneumothorax).", "B"),
    ("Pleural effusion, unless proven otherwise by ultrasound.", "B"),
    ('{"answer": "B", "needs_followup": false}', "B"),
    ("Answer: B. If the pleural effusion is large, consider thoracentesis.", "B"),
])
def test_an_option_beside_words_that_affirm_it_stays_sure(reply: str, choice: str) -> None:
    answer = extract(reply, "choice", ABCD, _DX, question="What is the most likely diagnosis?")
    assert (answer.choice, answer.sure) == (choice, True), answer


@pytest.mark.parametrize(("reply", "sure"), [
    ("9-12 mm.", False),
    ("between 0.5 and 1.5 cm", False),
    ("About 2 cm.", True),
])
def test_a_range_that_may_straddle_two_options_is_a_guess(reply: str, sure: bool) -> None:
    answer = extract(reply, "choice", ABCD, ("Under 1 cm", "Not a suitable question for the image", "1 to 3 cm",
                                             "Over 3 cm"), question="How large is the renal cyst?")
    assert answer.sure is sure, answer


@pytest.mark.parametrize(("reply", "sure"), [
    ("Upside down, my foot.", False),
    ("Upside down: false", False),
    ("Correct, no way around it.", True),
    ("The diaphragm is at the bottom, so it's correct; upside down it is not.", True),
])
def test_a_label_beside_a_put_down(reply: str, sure: bool) -> None:
    answer = extract(reply, "label", ("correct", "upside down"), (),
                     question="Is this X-ray image in its correct anatomical orientation or upside down?")
    assert answer.sure is sure, answer


@pytest.mark.parametrize(("reply", "labels", "choice", "sure"), [
    # German "not" before another label leaves the reading sure (a review of the first draft) ...
    ("Adult (Erwachsener), nicht pädiatrisch.", ("pediatric", "adult"), "adult", True),
    ("Blue (blau), nicht rot.", ("red", "green", "blue"), "blue", True),
    # ... where the glosses do not give the words after it, the doubt stays ("Kind" is also English)
    ("Nicht Kind, adult.", ("child", "adult"), "adult", False),
])
def test_a_german_not_before_another_label(reply: str, labels: tuple[str, ...], choice: str, sure: bool) -> None:
    answer = extract(reply, "label", labels, (), question="Which is it?")
    assert (answer.choice, answer.sure) == (choice, sure), answer
