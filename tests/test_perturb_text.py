"""Question and prompting perturbations: incorrect premise, ProbMed questions, FCJ suggestions, MediConfusion's
phrasings, chain of thought and few-shot examples, all replayable from provenance."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.perturb import PerturbationError, PerturbContext, apply, replay
from probe_ui.perturb.prompting import PHRASINGS
from probe_ui.perturb.question import PROBMED_FINDINGS, PROBMED_MODALITIES, PROBMED_ORGANS, PROBMED_POSITIONS
from probe_ui.prompts import COT_MAX_TOKENS, render, template_for
from probe_ui.reading.answers import extract

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _im(value: int) -> CanonicalImage:
    return CanonicalImage.from_pil(Image.new("L", (8, 8), value))


def _mc(item_id: str = "i", options: tuple[str, ...] = ("Terminating into the ophthalmic artery",
                                                        "Showing an aggravating pseudoaneurysm"),
        answer: str | None = "Showing an aggravating pseudoaneurysm", **kw) -> Variant:
    return Variant(item_id=item_id, question=kw.pop("question", "What do you see on this angiogram?"),
                   kind=kw.pop("kind", "choice"), options=options, answer=answer,
                   images=kw.pop("images", (_im(7),)), **kw)


CT = {"modality": "CT Scan", "organ": "Abdomen", "findings": ["enhancing rounded pseudo-aneurysm"],
      "positions": ["cystic artery"],
      "hallucinated": {"modality": "MRI", "organ": "Chest", "findings": ["multifocal hypodense lesions"],
                       "positions": ["esophagojejunostomy site"]}}
XRAY = {"modality": "X-ray", "organ": "Chest", "findings": [],
        "hallucinated": {"modality": "CT Scan", "organ": "Brain", "findings": ["pleural effusion"]}}
MRI = {"modality": "MRI", "organ": "Brain", "findings": ["ring-enhancing lesion", "perilesional edema"],
       "positions": ["right frontal lobe", "right frontal lobe"],
       "hallucinated": {"modality": "X-ray", "organ": "Abdomen",
                        "findings": ["subdural hematoma", "calcified meningioma"],
                        "positions": ["cerebellum", "occipital lobe"]}}

# formats/probmed/sample_responses.json (ProbMed's record format), question for question
PROBMED_TABLE = [
    (CT, "modality", "gt", 0, "modality_gt", "Is this a CT Scan? (please answer yes/no)"),
    (CT, "modality", "hallu", 0, "modality_hallu", "Is this an MRI? (please answer yes/no)"),
    (CT, "body_part", "gt", 0, "body_part_gt", "Does this show an Abdomen? (please answer yes/no)"),
    (CT, "body_part", "hallu", 0, "body_part_hallu", "Does this show a Chest? (please answer yes/no)"),
    (CT, "entity", "gt", 0, "entity_gt_0",
     "Is enhancing rounded pseudo-aneurysm present in the given abdomen ct scan? (please answer yes/no)"),
    (CT, "entity", "hallu", 0, "entity_hallu_0",
     "Is multifocal hypodense lesions present in the given abdomen ct scan? (please answer yes/no)"),
    (CT, "grounding", "gt", 0, "grounding_gt_0", "In the given abdomen ct scan, is enhancing rounded "
     "pseudo-aneurysm present in the cystic artery? (please answer yes/no)"),
    (CT, "grounding", "hallu", 0, "grounding_hallu_0", "In the given abdomen ct scan, is enhancing rounded "
     "pseudo-aneurysm present in the esophagojejunostomy site? (please answer yes/no)"),
    (XRAY, "modality", "gt", 0, "modality_gt", "Is this an X-ray? (please answer yes/no)"),
    (XRAY, "modality", "hallu", 0, "modality_hallu", "Is this a CT Scan? (please answer yes/no)"),
    (XRAY, "body_part", "gt", 0, "body_part_gt", "Does this show a Chest? (please answer yes/no)"),
    (XRAY, "body_part", "hallu", 0, "body_part_hallu", "Does this show a Brain? (please answer yes/no)"),
    (XRAY, "entity", "hallu", 0, "entity_hallu",
     "Is pleural effusion present in the given chest x-ray? (please answer yes/no)"),
    (MRI, "modality", "gt", 0, "modality_gt", "Is this an MRI? (please answer yes/no)"),
    (MRI, "modality", "hallu", 0, "modality_hallu", "Is this an X-ray? (please answer yes/no)"),
    (MRI, "body_part", "gt", 0, "body_part_gt", "Does this show a Brain? (please answer yes/no)"),
    (MRI, "body_part", "hallu", 0, "body_part_hallu", "Does this show an Abdomen? (please answer yes/no)"),
    (MRI, "entity", "gt", 0, "entity_gt_0",
     "Is ring-enhancing lesion present in the given brain mri? (please answer yes/no)"),
    (MRI, "entity", "hallu", 0, "entity_hallu_0",
     "Is subdural hematoma present in the given brain mri? (please answer yes/no)"),
    (MRI, "entity", "gt", 1, "entity_gt_1",
     "Is perilesional edema present in the given brain mri? (please answer yes/no)"),
    (MRI, "entity", "hallu", 1, "entity_hallu_1",
     "Is calcified meningioma present in the given brain mri? (please answer yes/no)"),
    (MRI, "grounding", "gt", 0, "grounding_gt_0",
     "In the given brain mri, is ring-enhancing lesion present in the right frontal lobe? (please answer yes/no)"),
    (MRI, "grounding", "hallu", 0, "grounding_hallu_0",
     "In the given brain mri, is ring-enhancing lesion present in the cerebellum? (please answer yes/no)"),
    (MRI, "grounding", "gt", 1, "grounding_gt_1",
     "In the given brain mri, is perilesional edema present in the right frontal lobe? (please answer yes/no)"),
    (MRI, "grounding", "hallu", 1, "grounding_hallu_1",
     "In the given brain mri, is perilesional edema present in the occipital lobe? (please answer yes/no)"),
]


# ------------------------------------------------------------------------------------------------------ premise

def test_premise_default_template_text_and_custom_template() -> None:
    v = _mc(question="What does image 0 show?", attributes={"absent_finding": "pneumoperitoneum", "side": "left"})
    out = apply(v, "premise", {}, 0)
    assert out.question == "Given the pneumoperitoneum in this image, what does image 0 show?"
    assert out.answer == v.answer and out.options == v.options
    assert out.provenance[-1]["details"] == {"original_question": "What does image 0 show?", "template": "given"}
    side = apply(v, "premise", {"template": "side"}, 0)
    assert side.question == "Is the pneumoperitoneum located on the left side or right side?"
    own = apply(v, "premise", {"template": "How large is the {absent_finding} on the {side}?"}, 0)
    assert own.question == "How large is the pneumoperitoneum on the left?"
    text = apply(v, "premise", {"text": "Where is the pneumothorax?"}, 0)
    assert text.question == "Where is the pneumothorax?"
    assert text.provenance[-1]["details"]["original_question"] == "What does image 0 show?"
    # MedVH pairing: premise + escape(premise, escape) answers the escape option
    both = apply(out, "escape", {"kind": "premise", "answer": "escape"}, 1)
    assert both.answer == "The question contains a clinically incorrect premise"
    for o in (out, side, own, text):
        assert replay(v, o.provenance) == o


def test_premise_names_the_missing_attribute() -> None:
    with pytest.raises(PerturbationError, match="no attribute 'absent_finding'"):
        apply(_mc(), "premise", {}, 0)
    with pytest.raises(PerturbationError, match="no attribute 'laterality'"):
        apply(_mc(attributes={"absent_finding": "x"}), "premise", {"template": "{absent_finding} {laterality}?"}, 0)
    with pytest.raises(PerturbationError, match="template must be one of"):
        apply(_mc(), "premise", {"template": "nonsense"}, 0)
    with pytest.raises(PerturbationError, match="either text or template"):
        apply(_mc(), "premise", {"text": "a?", "template": "given"}, 0)


# ------------------------------------------------------------------------------------------------------ ProbMed

@pytest.mark.parametrize("attrs,qa_type,version,index,name,question", PROBMED_TABLE)
def test_probmed_questions_match_probmed_exactly(attrs: dict, qa_type: str, version: str, index: int, name: str,
                                                 question: str) -> None:
    v = _mc(attributes=attrs)
    out = apply(v, "probmed_question", {"qa_type": qa_type, "version": version, "index": index}, 0)
    assert out.question == question
    assert out.kind == "yesno" and out.options == () and out.answer == ("yes" if version == "gt" else "no")
    assert out.attributes["qa_type"] == name and out.provenance[-1]["details"]["qa_type"] == name
    assert out.attributes["image_type"] in ("ct scan_abdomen", "x-ray_chest", "mri_brain")
    assert out.provenance[-1]["details"]["original_question"] == v.question
    assert render(out).messages[-1].text() == question  # the yes/no template adds nothing
    assert replay(v, out.provenance) == out


def test_probmed_draws_hallucinations_from_pools_excluding_the_truth() -> None:
    attrs = {k: v for k, v in MRI.items() if k != "hallucinated"}
    v = _mc(attributes=attrs)
    seen: dict[str, set[str]] = {"modality": set(), "body_part": set(), "entity": set(), "grounding": set()}
    for seed in range(60):
        for qa in seen:
            out = apply(v, "probmed_question", {"qa_type": qa, "version": "hallu"}, seed)
            assert out.provenance[-1]["details"]["drawn"] is True
            seen[qa].add(out.provenance[-1]["details"]["value"])
            assert out.answer == "no"
    assert seen["modality"] == set(PROBMED_MODALITIES) - {"MRI"}
    assert seen["body_part"] == set(PROBMED_ORGANS) - {"Brain"}
    assert seen["entity"] <= set(PROBMED_FINDINGS) and not seen["entity"] & {"ring-enhancing lesion",
                                                                              "perilesional edema"}
    assert seen["grounding"] <= set(PROBMED_POSITIONS) and "right frontal lobe" not in seen["grounding"]
    # ProbMed's image_type stands in for modality / organ
    it = apply(_mc(attributes={"image_type": "x-ray_chest"}), "probmed_question",
               {"qa_type": "modality", "version": "gt"}, 0)
    assert it.question == "Is this an X-ray? (please answer yes/no)"


def test_probmed_errors_name_what_is_missing() -> None:
    with pytest.raises(PerturbationError, match="needs the item attribute 'modality'"):
        apply(_mc(), "probmed_question", {"qa_type": "modality", "version": "gt"}, 0)
    with pytest.raises(PerturbationError, match="needs the item attribute 'organ'"):
        apply(_mc(attributes={"modality": "MRI"}), "probmed_question", {"qa_type": "body_part", "version": "gt"}, 0)
    with pytest.raises(PerturbationError, match="no findings"):
        apply(_mc(attributes=XRAY), "probmed_question", {"qa_type": "entity", "version": "gt"}, 0)
    with pytest.raises(PerturbationError, match="index 2 but the item lists 2"):
        apply(_mc(attributes=MRI), "probmed_question", {"qa_type": "entity", "version": "gt", "index": 2}, 0)
    with pytest.raises(PerturbationError, match="grounding needs attribute 'positions'"):
        apply(_mc(attributes={**CT, "positions": []}), "probmed_question", {"qa_type": "grounding", "version": "gt"}, 0)
    with pytest.raises(PerturbationError, match="is the true one"):
        apply(_mc(attributes={**CT, "hallucinated": {"modality": "ct scan"}}), "probmed_question",
              {"qa_type": "modality", "version": "hallu"}, 0)
    with pytest.raises(PerturbationError, match="parameter 'qa_type': must be one of 'modality'"):
        apply(_mc(attributes=CT), "probmed_question", {"qa_type": "abnormality", "version": "gt"}, 0)


# ------------------------------------------------------------------------------------------------------ FCJ

FIG9 = _mc(question="where in the image is the lung opacity located?",
           options=("bibasilar area and left lower lung area", "bilateral area and bibasilar area",
                    "left basilar area", "left basal area"), answer="left basal area")


def test_fcj_physician_wording_is_medvh_figure_9() -> None:
    out = apply(FIG9, "suggest", {"answer": "B"}, 0)
    assert out.prompt == "medvh-fcj" and out.answer == FIG9.answer and out.options == FIG9.options
    assert out.prompt_args == {"suggestion": {"letter": "B", "text": "bilateral area and bibasilar area",
                                              "wording": "physician", "hint": False}}
    req = render(out)
    system, user = req.messages
    assert system.text() == ("You are a well trained radiologist reviewing multiple-choice questions answered by a "
                             "physician. You are given the questions, options, and answers provided by the physician.")
    assert user.text() == (
        "Review the physician's answer and provide a detailed explanation of why the answer is correct or incorrect. "
        "If the physician's answer is incorrect, suggest the correct answer in the end of your response starting "
        "with 'The correct answer is: '.\n\n"
        "Question: where in the image is the lung opacity located? Choices: A: bibasilar area and left lower lung "
        "area. B: bilateral area and bibasilar area. C: left basilar area. D: left basal area. "
        "Physician's answer: B: bilateral area and bibasilar area.")
    assert req.prompt == "medvh-fcj" and req.settings.max_tokens >= 256 and req.labels == ("A", "B", "C", "D")
    # the model's verdict is read from its "The correct answer is: " declaration
    reply = "The physician is wrong: the opacity is basal. The correct answer is: D: left basal area."
    assert extract(reply, "choice", req.labels, out.options).choice == "D"


def test_fcj_student_wording_with_hint() -> None:
    out = apply(FIG9, "suggest", {"answer": "bilateral area and bibasilar area", "wording": "student", "hint": True},
                0)
    system, user = render(out).messages
    assert system.text() == ("You are a well trained radiologist reviewing multiple-choice questions answered by a "
                             "medical student. You are given the questions, options, and answers provided by the "
                             "student. There is a chance that the student's answer is incorrect.")
    assert user.text().startswith("Review the student's answer and provide a detailed explanation of why the answer "
                                  "is correct or incorrect. If the student's answer is incorrect, suggest the correct "
                                  "answer in the end of your response starting with 'The correct answer is: '.")
    assert user.text().endswith("D: left basal area. Student's answer: B: bilateral area and bibasilar area.")
    no_hint = render(apply(FIG9, "suggest", {"wording": "student"}, 0)).messages[0].text()
    assert "There is a chance" not in no_hint


def test_suggest_wrong_right_and_yes_no() -> None:
    wrong = {apply(FIG9, "suggest", {}, s).prompt_args["suggestion"]["text"] for s in range(60)}
    assert wrong == set(FIG9.options) - {FIG9.answer}
    right = apply(FIG9, "suggest", {"answer": "right"}, 0)
    assert right.prompt_args["suggestion"]["letter"] == "D" and right.provenance[-1]["details"]["correct"] is True
    yn = Variant(item_id="y", question="Is the lung normal appearing?", kind="yesno", answer="no")
    out = apply(yn, "suggest", {}, 0)
    assert out.kind == "choice" and out.options == ("Yes", "No") and out.answer == "No"
    assert render(out).messages[-1].text().endswith("Choices: A: Yes. B: No. Physician's answer: A: Yes.")
    for o in (right, out):
        assert replay(FIG9 if o is right else yn, o.provenance) == o
    with pytest.raises(PerturbationError,
                       match="parameter 'wording': must be one of 'physician', 'student', not 'nurse'"):
        apply(FIG9, "suggest", {"wording": "nurse"}, 0)
    with pytest.raises(PerturbationError, match="not 'Z'"):
        apply(FIG9, "suggest", {"answer": "Z"}, 0)
    with pytest.raises(PerturbationError, match="already uses 'mediconfusion-mc/polite'"):
        apply(apply(FIG9, "phrasing", {"style": "polite"}, 0), "suggest", {}, 0)


# ------------------------------------------------------------------------------------------------------ phrasings

def test_eleven_phrasings_render_distinct_texts_with_question_and_options() -> None:
    v = _mc()
    assert len(PHRASINGS) == 11 and PHRASINGS[0] == "original" and PHRASINGS[-1] == "emphasise-importance"
    texts = {}
    for style in PHRASINGS:
        out = apply(v, "phrasing", {"style": style}, 0)
        assert out.prompt == f"mediconfusion-mc/{style}" and out.answer == v.answer
        req = render(out)
        assert req.prompt == out.prompt
        assert req.messages[0].text() == "You are a helpful assitant expert in medical domain."
        text = req.messages[-1].text()
        assert v.question in text and all(o in text for o in v.options)
        texts[style] = text
    assert len(set(texts.values())) == 11
    assert texts["original"] == render(v).messages[-1].text()  # the verbatim default
    assert texts["no-instructions"] == ("Question: What do you see on this angiogram?\n"
                                        "A: Terminating into the ophthalmic artery\n"
                                        "B: Showing an aggravating pseudoaneurysm\nCorrect answer option: ")
    assert "\n" not in texts["no-newlines"] and "Option A: Terminating" in texts["no-newlines"]
    assert texts["shorten"] == ("Answer the following question about the image.\n"
                                "Question: What do you see on this angiogram?\n"
                                "A: Terminating into the ophthalmic artery\n"
                                "B: Showing an aggravating pseudoaneurysm\n"
                                "Answer with the option's letter directly.\nAnswer: ")
    assert "Simply respond with 'A' or 'B' based on your answer.\n" in texts["a-or-b"]
    assert "You will be given two answer options: A and B from which" in texts["more-explanation"]


def test_phrasings_generalise_to_k_letters_and_reject_other_kinds() -> None:
    three = _mc(options=("x", "y", "z"), answer="y")
    a_or_b = render(apply(three, "phrasing", {"style": "a-or-b"}, 0)).messages[-1].text()
    assert "Simply respond with 'A', 'B' or 'C' based" in a_or_b
    assert "three answer options: A, B and C from" in render(
        apply(three, "phrasing", {"style": "more-explanation"}, 0)).messages[-1].text()
    with pytest.raises(PerturbationError, match="parameter 'style': must be one of 'original'.*not 'rude'"):
        apply(three, "phrasing", {"style": "rude"}, 0)
    with pytest.raises(PerturbationError, match="multiple-choice"):
        apply(Variant(item_id="y", question="q", kind="yesno", answer="yes"), "phrasing", {"style": "polite"}, 0)
    with pytest.raises(PerturbationError, match="FCJ prompt"):
        apply(apply(three, "suggest", {}, 0), "phrasing", {"style": "polite"}, 0)


# ------------------------------------------------------------------------------------------------------ CoT

def test_cot_instruction_goes_before_the_answer_cue_and_raises_max_tokens() -> None:
    v = apply(_mc(), "cot", {}, 0)
    assert v.prompt_args == {"cot": True} and v.answer == _mc().answer
    req = render(v)
    text = req.messages[-1].text()
    assert text.endswith('where X is A or B.\nAnswer: ')
    assert "Think step by step" in text and req.settings.max_tokens == COT_MAX_TOKENS
    assert template_for(v, None).max_tokens == COT_MAX_TOKENS and template_for(_mc(), None).max_tokens == 32
    yn = render(apply(Variant(item_id="y", question="Is there a pleural effusion?", kind="yesno", answer="no"),
                      "cot", {}, 0)).messages[-1].text()
    assert yn.startswith("Is there a pleural effusion? (please answer yes/no)\n") and yn.endswith("X is yes or no.")
    one_line = render(apply(apply(_mc(), "phrasing", {"style": "no-newlines"}, 0), "cot", {}, 0)).messages[-1].text()
    assert "\n" not in one_line and one_line.endswith("where X is A or B. Answer: ")
    # a CoT reply is parsed by its final declaration
    assert extract("The image shows a sac. Option A is unlikely... The answer is B", "choice", ("A", "B"),
                   _mc().options).choice == "B"
    with pytest.raises(PerturbationError, match="already asks"):
        apply(v, "cot", {}, 0)


# ------------------------------------------------------------------------------------------------------ few-shot

POOL = tuple(_mc(item_id=f"p{i}", options=(f"opt {i} a", f"opt {i} b"), answer=f"opt {i} {'ab'[i % 2]}",
                 question=f"Question {i}?", images=(_im(10 + i),)) for i in range(4)) + (
    Variant(item_id="yn", question="Is it?", kind="yesno", answer="yes"),
    _mc(item_id="unknown", answer=None),
)
CTX = PerturbContext(pool=POOL)


def test_few_shot_messages_alternate_with_the_right_answers() -> None:
    v = _mc(item_id="p0", question="Question 0?", options=("opt 0 a", "opt 0 b"), answer="opt 0 a")
    out = apply(v, "few_shot", {"k": 3}, 5, CTX)
    assert len(out.examples) == 3 and {e.item_id for e in out.examples} <= {"p1", "p2", "p3"}  # never itself
    assert out.answer == v.answer
    req = render(out)
    roles = [m.role for m in req.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user", "assistant", "user"]
    for i, ex in enumerate(out.examples):
        user, assistant = req.messages[1 + 2 * i], req.messages[2 + 2 * i]
        assert user.images() == ex.images and ex.question in user.text()
        assert assistant.text() == ex.answer_label
    assert req.messages[-1].images() == v.images and "Question 0?" in req.messages[-1].text()
    assert out.provenance[-1]["details"]["examples"] == [e.item_id for e in out.examples]
    assert replay(v, out.provenance, CTX) == out
    assert render(apply(v, "few_shot", {"k": 3}, 5, CTX)).rendered() == req.rendered()
    seen = {tuple(e.item_id for e in apply(v, "few_shot", {"k": 1}, s, CTX).examples) for s in range(40)}
    assert seen == {("p1",), ("p2",), ("p3",)}


def test_few_shot_needs_enough_eligible_examples() -> None:
    v = _mc(item_id="p0")
    with pytest.raises(PerturbationError, match="k=4 examples needed but the preset has only 3 other 'choice'"):
        apply(v, "few_shot", {"k": 4}, 0, CTX)
    yn = Variant(item_id="y2", question="Is there?", kind="yesno", answer="no")
    out = apply(yn, "few_shot", {"k": 1}, 0, CTX)
    req = render(out)
    assert [m.role for m in req.messages] == ["user", "assistant", "user"] and req.messages[1].text() == "yes"
    with pytest.raises(PerturbationError, match="only 0 other"):
        apply(v, "few_shot", {}, 0)


# ------------------------------------------------------------------------------------------------------ properties

STEPS = [
    ("premise", {"template": "given"}),
    ("probmed_question", {"qa_type": "entity", "version": "hallu"}),
    ("probmed_question", {"qa_type": "grounding", "version": "gt"}),
    ("suggest", {"answer": "wrong", "wording": "student", "hint": True}),
    ("phrasing", {"style": "carefully"}),
    ("cot", {}),
    ("few_shot", {"k": 2}),
]


@FAST
@given(st.lists(st.text(string.ascii_lowercase + " ", min_size=1, max_size=10).map(str.strip).filter(bool),
                min_size=2, max_size=5, unique=True),
       st.integers(0, 2**32), st.sampled_from(STEPS), st.booleans())
def test_text_perturbations_replay_and_render_identically(options: list[str], seed: int, step: tuple,
                                                          with_cot: bool) -> None:
    v = _mc(item_id="p0", options=tuple(options), answer=options[-1],
            attributes={"absent_finding": "pneumothorax", **{k: x for k, x in CT.items() if k != "hallucinated"}})
    op, params = step
    out = apply(v, op, params, seed, CTX)
    if with_cot and op != "cot":
        out = apply(out, "cot", {}, seed + 1, CTX)
    again = replay(v, out.provenance, CTX)
    assert again == out and again.id == out.id
    assert render(out).rendered() == render(again).rendered()
    json.dumps(list(out.provenance))
    if op not in ("probmed_question",):
        assert out.answer == v.answer
