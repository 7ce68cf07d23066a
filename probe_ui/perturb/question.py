"""Question perturbations: an incorrect premise (MedVH, P8) and ProbMed's adversarial yes/no pairs (P10).

Both rewrite ``variant.question`` from the item's ``attributes`` (what a preset knows about the image: its
modality, organ, findings and their positions, a finding it does NOT show), so the same preset item can be asked
the way each paper asks it. The original question is always kept in the provenance details.
"""

from __future__ import annotations

import random
import string
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from probe_ui.items import Variant
from probe_ui.perturb.params import NonBlank
from probe_ui.perturb.registry import PerturbationError, register

# Templates that presuppose a finding the image does not show (attribute ``absent_finding``). "given" wraps the
# original question, so the item's options still fit; the others replace it with a MedVH-style question about the
# absent finding ("is the atelectasis located on the left side or right side?"), whose options the preset must
# then supply or an escape option must answer. ``{question}`` is the original question with a lower-case initial.
PREMISE_TEMPLATES: dict[str, str] = {
    "given": "Given the {absent_finding} in this image, {question}",
    "location": "Where is the {absent_finding} located in this image?",
    "side": "Is the {absent_finding} located on the left side or right side?",
    "severity": "What is the severity of the {absent_finding} in this image?",
}
if TYPE_CHECKING:  # statically a text; pydantic's schema (and the form's menu) offers the template names
    PremiseTemplate = str
else:
    PremiseTemplate = Literal[tuple(PREMISE_TEMPLATES)]

# ProbMed's vocabulary (eric-ai-lab/ProbMed image types: ct scan / mri / x-ray; abdomen / brain / chest / spine),
# spelt as its questions spell them ("Is this a CT Scan?", "Does this show an Abdomen?").
PROBMED_MODALITIES: tuple[str, ...] = ("CT Scan", "MRI", "X-ray")
PROBMED_ORGANS: tuple[str, ...] = ("Abdomen", "Brain", "Chest", "Spine")
_MODALITY_ALIASES = {"ct scan": "CT Scan", "ct": "CT Scan", "mri": "MRI", "x-ray": "X-ray", "xray": "X-ray",
                     "x ray": "X-ray"}

# Hallucinated findings / positions drawn when the item gives none (ProbMed draws "random entities" from its
# metadata for the same organ and modality; these are findings and locations from across its four organs).
PROBMED_FINDINGS: tuple[str, ...] = (
    "pleural effusion", "pneumothorax", "cardiomegaly", "pulmonary nodule", "consolidation", "atelectasis",
    "pulmonary edema", "rib fracture", "subdural hematoma", "calcified meningioma", "ischemic infarct",
    "intraventricular hemorrhage", "hydrocephalus", "ring-enhancing lesion", "multifocal hypodense lesions",
    "hepatic cyst", "renal calculus", "splenomegaly", "free intraperitoneal air", "bowel obstruction",
    "pancreatic pseudocyst", "vertebral compression fracture", "disc herniation", "spinal canal stenosis",
    "osteolytic lesion", "lymphadenopathy", "aortic aneurysm", "ascites",
)
PROBMED_POSITIONS: tuple[str, ...] = (
    "right upper lobe", "left lower lobe", "right middle lobe", "left hilum", "mediastinum", "cerebellum",
    "occipital lobe", "right frontal lobe", "left temporal lobe", "basal ganglia", "liver", "spleen",
    "left kidney", "right kidney", "pancreatic head", "gallbladder", "esophagojejunostomy site", "sigmoid colon",
    "L4-L5 level", "cervical spine", "thoracic spine", "sacrum",
)
QaType = Literal["modality", "body_part", "entity", "grounding"]
QA_TYPES: tuple[str, ...] = typing.get_args(QaType)
PROBMED_SUFFIX = "(please answer yes/no)"


def _lower_initial(question: str) -> str:
    """'What is ...' -> 'what is ...' for embedding after a clause; acronyms ('CT shows ...') stay as they are."""
    q = question.strip()
    if len(q) > 1 and q[0].isupper() and not q[1].isupper():
        return q[0].lower() + q[1:]
    return q


@register("premise", "Rewrite the question so that it presupposes a finding the image does not show (MedVH "
          "clinically incorrect premise): the given text, or a template filled from the item's attributes "
          "(default 'Given the {absent_finding} in this image, {question}').",
          "unchanged (pair with escape kind=premise answer=escape)",
          label="add a false premise", phrase=lambda p: "question with a false premise")
def premise(variant: Variant, rng: random.Random, *,
            text: Annotated[NonBlank | None, Field(description="the whole new question, written out")] = None,
            template: Annotated[PremiseTemplate | str | None, Field(
                description="a named template, or a format text with {attribute} fields filled from the item's "
                            "attributes; unset: given")] = None) -> tuple[Variant, dict[str, Any]]:
    details: dict[str, Any] = {"original_question": variant.question}
    if text is not None:
        if template is not None:
            raise PerturbationError("premise: give either text or template, not both")
        return variant.evolve(question=text.strip()), details
    name = "given" if template is None else template
    fmt = PREMISE_TEMPLATES.get(name, name)
    if "{" not in fmt:
        raise PerturbationError(f"premise: template must be one of {', '.join(PREMISE_TEMPLATES)} or a format string "
                                f"with {{attribute}} fields, not {template!r}")
    values = {**{k: v for k, v in variant.attributes.items()}, "question": _lower_initial(variant.question),
              "Question": variant.question.strip()}
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(fmt) if f is not None]
    except ValueError as exc:
        raise PerturbationError(f"premise: bad template {fmt!r}: {exc}") from None
    for f in fields:
        key = f.split(".")[0].split("[")[0]
        if not key:
            raise PerturbationError(f"premise: template {fmt!r} has an unnamed field; name an attribute")
        if key not in values or values[key] in (None, "", []):
            raise PerturbationError(f"premise: the item has no attribute '{key}' (needed by the template {fmt!r}); "
                                    f"add it to the item's attributes or pass text=")
    question = fmt.format(**values)
    details.update(template=name)
    return variant.evolve(question=question), details


def _article(word: str) -> str:
    """'a' / 'an' by sound, as ProbMed writes them: an MRI, an X-ray, an Abdomen, a CT Scan, a Chest."""
    head = word.strip().split("-")[0].split(" ")[0]
    if head[:1].lower() in "aeiou":
        return "an"
    if len(head) <= 4 and head.isupper() and head[:1] in "FHLMNRSX":  # initialisms read letter by letter
        return "an"
    return "a"


def _canonical_modality(value: str) -> str:
    return _MODALITY_ALIASES.get(value.strip().lower(), value.strip())


def _canonical_organ(value: str) -> str:
    v = value.strip()
    for o in PROBMED_ORGANS:
        if o.lower() == v.lower():
            return o
    return v[:1].upper() + v[1:]


def _attr(variant: Variant, name: str) -> Any:
    """An attribute, with ProbMed's ``image_type`` ('ct scan_abdomen') standing in for modality / organ."""
    a = variant.attributes
    if a.get(name) not in (None, ""):
        return a[name]
    image_type = a.get("image_type")
    if isinstance(image_type, str) and "_" in image_type and name in ("modality", "organ"):
        modality, organ = image_type.split("_", 1)
        return modality if name == "modality" else organ
    return None


def _draw(pool: tuple[str, ...], exclude: list[str], rng: random.Random, what: str) -> str:
    ex = {e.strip().lower() for e in exclude}
    choices = [p for p in pool if p.lower() not in ex]
    if not choices:
        raise PerturbationError(f"probmed_question: no hallucinated {what} left to draw")
    return rng.choice(choices)


def _hallucinated(variant: Variant, key: str, index: int | None) -> str | None:
    h = variant.attributes.get("hallucinated") or {}
    if not isinstance(h, dict):
        raise PerturbationError("probmed_question: attribute 'hallucinated' must be a mapping "
                                "(modality, organ, findings, positions)")
    value = h.get(key)
    if index is not None:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)):
            value = [value]
        return value[index] if index < len(value) and value[index] else None
    return value or None


@register("probmed_question", "Replace the question by ProbMed's yes/no question about the item's modality, "
          "body part, finding (entity) or finding position (grounding), the ground-truth version or one naming a "
          "hallucinated alternative (from attributes.hallucinated, else drawn from built-in pools).",
          "yes for version gt, no for version hallu (kind becomes yes/no)",
          label="ask a yes/no question about the image",
          phrase=lambda p: f"ProbMed question ({str(p.get('qa_type', '')).replace('_', ' ')})")
def probmed_question(variant: Variant, rng: random.Random, *,
                     qa_type: Annotated[QaType, Field(description="what the question asks about: modality, "
                                                      "body_part, entity (a finding) or grounding (its position)")],
                     version: Annotated[Literal["gt", "hallu"], Field(
                         description="gt: the true value (answer yes); hallu: a hallucinated one (answer no)")],
                     index: Annotated[int, Field(ge=0, description="which of the item's findings (entity, "
                                                 "grounding), counting from 0")] = 0,
                     ) -> tuple[Variant, dict[str, Any]]:
    hallu = version == "hallu"
    details: dict[str, Any] = {"original_question": variant.question}

    def need(name: str) -> Any:
        value = _attr(variant, name)
        if value in (None, "", []):
            raise PerturbationError(f"probmed_question: qa_type '{qa_type}' needs the item attribute '{name}'")
        return value

    def pick(key: str, true_values: list[str], pool: tuple[str, ...], idx: int | None, what: str) -> str:
        given = _hallucinated(variant, key, idx)
        details["drawn"] = given is None
        if given is not None:
            if given.strip().lower() in {t.strip().lower() for t in true_values}:
                raise PerturbationError(f"probmed_question: the hallucinated {what} '{given}' is the true one")
            return given
        return _draw(pool, true_values, rng, what)

    modality = organ = None
    if qa_type in ("modality", "entity", "grounding"):
        modality = _canonical_modality(str(need("modality")))
    if qa_type in ("body_part", "entity", "grounding"):
        organ = _canonical_organ(str(need("organ")))

    if qa_type == "modality":
        assert modality is not None
        value = _canonical_modality(pick("modality", [modality], PROBMED_MODALITIES, None, "modality")) \
            if hallu else modality
        question = f"Is this {_article(value)} {value}? {PROBMED_SUFFIX}"
        name = f"modality_{version}"
    elif qa_type == "body_part":
        assert organ is not None
        value = _canonical_organ(pick("organ", [organ], PROBMED_ORGANS, None, "organ")) if hallu else organ
        question = f"Does this show {_article(value)} {value}? {PROBMED_SUFFIX}"
        name = f"body_part_{version}"
    else:
        assert modality is not None and organ is not None
        findings = [str(f) for f in (variant.attributes.get("findings") or [])]
        where = f"{organ.lower()} {modality.lower()}"
        if qa_type == "entity" and not findings:
            # a normal image: ProbMed asks one lone hallucinated finding question, with no index
            if not hallu or index != 0:
                raise PerturbationError("probmed_question: the item has no findings (attribute 'findings' is empty); "
                                        "ProbMed asks a normal image only one hallucinated entity question "
                                        "(version=hallu, index=0)")
            value = pick("findings", [], PROBMED_FINDINGS, 0, "finding")
            question = f"Is {value} present in the given {where}? {PROBMED_SUFFIX}"
            name = "entity_hallu"
        else:
            if index >= len(findings):
                raise PerturbationError(f"probmed_question: index {index} but the item lists {len(findings)} "
                                        f"finding(s) in attribute 'findings'")
            finding = findings[index]
            if qa_type == "entity":
                value = pick("findings", findings, PROBMED_FINDINGS, index, "finding") if hallu else finding
                question = f"Is {value} present in the given {where}? {PROBMED_SUFFIX}"
            else:
                positions = [str(p) for p in (variant.attributes.get("positions") or [])]
                if index >= len(positions) or not positions[index]:
                    raise PerturbationError(f"probmed_question: grounding needs attribute 'positions' with an entry "
                                            f"for finding {index} ('{finding}')")
                value = pick("positions", positions, PROBMED_POSITIONS, index, "position") if hallu \
                    else positions[index]
                question = f"In the given {where}, is {finding} present in the {value}? {PROBMED_SUFFIX}"
            name = f"{qa_type}_{version}_{index}"
    details.update(qa_type=name, value=value)
    if not hallu:
        details.pop("drawn", None)
    attributes = {**variant.attributes, "qa_type": name}
    m, o = _attr(variant, "modality"), _attr(variant, "organ")
    if m and o and "image_type" not in attributes:  # ProbMed scores per image type ('ct scan_abdomen')
        attributes["image_type"] = f"{_canonical_modality(str(m)).lower()}_{str(o).strip().lower()}"
    out = variant.evolve(question=question, kind="yesno", options=(), answer="no" if hallu else "yes",
                         attributes=attributes)
    return out, details
