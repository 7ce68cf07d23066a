"""Option perturbations: reordering (Illusion T3, CircularEval), distractor replacement (Illusion T4), and the
added "none of the above" / escape options of MedVH (NOTA, wrongful image, clinically incorrect premise).

Every function here works on option TEXTS: ``variant.answer`` is the correct option's text, so it survives any
reordering and only moves when the correct option itself is removed or an escape option becomes the answer.
Added options go to a recorded position, drawn with the step's ``rng`` by default, because MedVH's data always
puts them last (so "always pick the last letter" scores 100% there; docs/reference.md §1).
"""

from __future__ import annotations

import random
import re
from typing import Annotated, Any, Literal

from pydantic import Field

from probe_ui.items import LETTERS, Variant
from probe_ui.perturb.params import NonBlank
from probe_ui.perturb.registry import PerturbationError, PerturbContext, register

# MedVH's NOTA option. Its data writes choices as "A: x. B: y. C: None of the above." where the trailing "." is
# the separator every option gets (ground truths read "A: Yes", without it), so the option text has no period.
NOTA = "None of the above"

# Illusion of Readiness T4: one distractor replaced by "Unknown" (the paper prints “Unknown.”, period inside the
# quotes being typography).
UNKNOWN = "Unknown"

# MedVH escape options, the paper's wording (§E, Figure 5), without the separator period (see NOTA).
#  - wrongful image: the paper's text says "This is not a suitable question for the image"; its data and
#    Figure 2 use "Not a suitable question for the image." (test_wrongful_image.json) - the data's form is what
#    models were actually shown, so it is used here.
#  - incorrect premise: paper "The question contains a clinically incorrect premise"; MedVH's data (test_cli_src.json)
#    has "this question contains an incorrect clinical statement." instead (pass it as ``text`` to reproduce it).
ESCAPE_TEXTS: dict[str, str] = {
    "unsuitable": "Not a suitable question for the image",
    "premise": "The question contains a clinically incorrect premise",
}
MEDVH_CODE_PREMISE_TEXT = "this question contains an incorrect clinical statement."

# Texts that are not content options: never drawn as replacement distractors.
SPECIAL_OPTIONS: frozenset[str] = frozenset(t.lower() for t in (NOTA, UNKNOWN, *ESCAPE_TEXTS.values(),
                                                                MEDVH_CODE_PREMISE_TEXT))

# Illusion T4 "unrelated options": plausible medical terms (findings, anatomy, modalities) from all over the body,
# so that for any one question most of them are clearly off-topic. Candidates that equal, contain or are contained
# in one of the item's options are skipped.
UNRELATED_OPTIONS: tuple[str, ...] = (
    # findings and diagnoses
    "Pneumothorax", "Pleural effusion", "Cardiomegaly", "Renal calculus", "Hepatic cyst", "Subdural hematoma",
    "Osteosarcoma", "Acute appendicitis", "Cholelithiasis", "Pulmonary embolism", "Aortic dissection",
    "Sigmoid diverticulitis", "Meniscal tear", "Rotator cuff tear", "Scaphoid fracture", "Hydronephrosis",
    "Splenomegaly", "Ovarian dermoid cyst", "Uterine fibroid", "Thyroid nodule", "Berry aneurysm",
    "Demyelinating plaques", "Spondylolisthesis", "Scoliosis", "Pneumoperitoneum", "Pericardial effusion",
    "Bronchiectasis", "Centrilobular emphysema", "Sarcoidosis", "Acute pancreatitis", "Ileocolic intussusception",
    "Sigmoid volvulus", "Hiatal hernia", "Avascular necrosis of the femoral head", "Baker's cyst",
    "Retinal detachment", "Cortical cataract", "Basal cell carcinoma", "Melanocytic nevus", "Achalasia",
    "Pyloric stenosis", "Osteochondroma", "Vestibular schwannoma", "Pituitary macroadenoma", "Hepatic steatosis",
    "Horseshoe kidney", "Patent ductus arteriosus", "Carpal tunnel syndrome", "Plantar fasciitis",
    "Testicular torsion",
    # anatomy
    "Left ventricle", "Pituitary gland", "Cochlea", "Gallbladder", "Adrenal gland", "Carotid bifurcation",
    "Corpus callosum", "Thymus", "Prostate", "Tibial plateau", "Optic nerve", "Pancreatic tail", "Sacroiliac joint",
    # modalities and techniques
    "Mammography", "Bone scintigraphy", "Fundus photography", "Echocardiography", "PET-CT", "Fluoroscopy",
    "Dermoscopy", "Colonoscopy", "DEXA scan", "Doppler ultrasound",
)


def _need_choice(variant: Variant, op: str, minimum: int = 2) -> None:
    if variant.kind != "choice":
        raise PerturbationError(f"{op} needs a multiple-choice item; this one is '{variant.kind}'")
    if len(variant.options) < minimum:
        raise PerturbationError(f"{op} needs at least {minimum} options; this item has {len(variant.options)}")


def _answer_index(variant: Variant, op: str) -> int:
    """Where the correct option is; perturbations that must not touch it need to know."""
    if variant.answer is None:
        raise PerturbationError(f"{op} needs the item's correct answer, and this item has none")
    try:
        return variant.options.index(variant.answer)
    except ValueError:
        raise PerturbationError(f"{op}: the answer '{variant.answer}' is not one of the options") from None


def _has_option(options: tuple[str, ...], text: str) -> bool:
    return text.strip().lower() in {o.strip().lower() for o in options}


def _overlaps(a: str, b: str) -> bool:
    """Whether one text appears as whole words in the other (so "pneumothorax" is not a distractor for
    "tension pneumothorax"). A plain substring test comes first: it is necessary, and rules out almost every
    pair without a regular expression."""
    return bool((a in b and re.search(rf"\b{re.escape(a)}\b", b))
                or (b in a and re.search(rf"\b{re.escape(b)}\b", a)))


# the built-in pool in lower case, once: (text, key) pairs in pool order
_UNRELATED_KEYS: tuple[tuple[str, str], ...] = tuple((t, t.lower()) for t in UNRELATED_OPTIONS)


#: where an added option goes: a seeded position, the last, or an index (0 = first, -1 = last)
Position = Annotated[Literal["seeded", "last"] | int, Field(
    description="where the added option goes: seeded (a position drawn from the seed), last, or an index (0: "
                "first, -1: last)")]


def _position(position: str | int, slots: int, rng: random.Random, op: str) -> int:
    """The index (0-based) an added option takes among ``slots`` positions: 'last', 'seeded' or an int."""
    if position == "last":
        return slots - 1
    if position == "seeded":
        return rng.randrange(slots)
    assert isinstance(position, int)  # declared: 'seeded' | 'last' | int
    idx = position + slots if position < 0 else position
    if 0 <= idx < slots:
        return idx
    raise PerturbationError(f"{op}: position {position} is outside the {slots} positions (0..{slots - 1})")


def _sync_suggestion(out: Variant) -> Variant:
    """Keep a suggested answer's letter (set by ``suggest``) pointing at its text after options move."""
    sug = out.prompt_args.get("suggestion")
    if not sug or sug.get("text") not in out.options:
        return out
    letter = LETTERS[out.options.index(sug["text"])]
    if letter == sug.get("letter"):
        return out
    return out.evolve(prompt_args={**out.prompt_args, "suggestion": {**sug, "letter": letter}})


def _as_choice(variant: Variant, op: str) -> tuple[Variant, dict[str, Any]]:
    """A yes/no variant as a choice over ("Yes", "No"), as MedVH writes them ("A: Yes. B: No. C: ...")."""
    if variant.kind == "yesno":
        answer = None if variant.answer is None else variant.answer.strip().capitalize()
        return variant.evolve(kind="choice", options=("Yes", "No"), answer=answer), {"converted": "yesno"}
    _need_choice(variant, op)
    return variant, {}


@register("shuffle", "Reorder the answer options with a seeded random permutation that moves at least one option.",
          "the same option text, at its new letter",
          label="shuffle the options", phrase=lambda p: "options shuffled")
def shuffle(variant: Variant, rng: random.Random) -> Variant:
    """A seeded reorder, drawn again while it leaves the order as it was: with two options half the draws would,
    and a "shuffled" variant identical to the original measures nothing (Illusion T3). Options that are all the
    same text cannot move."""
    if variant.kind != "choice" or len(variant.options) < 2:
        raise PerturbationError("shuffle needs a multiple-choice item with at least two options")
    options = list(variant.options)
    rng.shuffle(options)
    while options == list(variant.options) and len(set(options)) > 1:
        rng.shuffle(options)
    return _sync_suggestion(variant.evolve(options=tuple(options)))


@register("cyclic_shift", "Rotate the options: option i moves to position (i + shift) mod k (CircularEval uses "
          "all k shifts as one group).", "the same option text, at its new letter",
          label="rotate the options' order", phrase=lambda p: f"options rotated by {p.get('shift')}")
def cyclic_shift(variant: Variant, rng: random.Random, *,
                 shift: Annotated[int, Field(description="how many places each option moves down (wrapping round; "
                                             "negative: up)")]) -> tuple[Variant, dict[str, Any]]:
    _need_choice(variant, "cyclic_shift")
    k = len(variant.options)
    s = shift % k
    options = tuple(variant.options[(j - s) % k] for j in range(k))  # new[(i + s) % k] = old[i]
    return _sync_suggestion(variant.evolve(options=options)), {"shift_mod_k": s}


def _distractors_phrase(p: dict[str, Any]) -> str:
    if p.get("source") == "unknown":
        return "a wrong option replaced by 'Unknown'"
    k = int(p.get("k", 1) or 1)
    return f"{k} wrong option{'s' if k != 1 else ''} replaced"


@register("replace_distractors", "Replace k wrong options by unrelated ones (Illusion T4 1R..4R): source 'pool' = "
          "built-in medical terms, 'preset' = other items' options, 'unknown' = one distractor becomes 'Unknown'.",
          "unchanged (the correct option is never replaced)",
          label="replace wrong options", phrase=_distractors_phrase)
def replace_distractors(variant: Variant, rng: random.Random, *,
                        k: Annotated[int, Field(ge=1, le=len(LETTERS) - 1, description="how many wrong options to "
                                                "replace (Illusion T4: 1R to 4R)")] = 1,
                        source: Annotated[Literal["pool", "preset", "unknown"], Field(
                            description="where new options come from: pool (built-in medical terms), preset (other "
                                        "items' options) or unknown (one becomes 'Unknown')")] = "pool",
                        ctx: PerturbContext | None = None) -> tuple[Variant, dict[str, Any]]:
    _need_choice(variant, "replace_distractors")
    correct = _answer_index(variant, "replace_distractors")
    wrong = [i for i in range(len(variant.options)) if i != correct]
    if k > len(wrong):
        raise PerturbationError(f"replace_distractors: k={k} but this item has only {len(wrong)} wrong option(s)")
    own = {o.strip().lower() for o in variant.options}
    if source == "unknown":
        if k != 1:
            raise PerturbationError("replace_distractors: source 'unknown' replaces exactly one distractor (k=1)")
        if UNKNOWN.lower() in own:
            raise PerturbationError("replace_distractors: the item already has an 'Unknown' option")
        candidates = [UNKNOWN]
    elif source == "preset":
        if ctx is None or not ctx.others(variant):
            raise PerturbationError("replace_distractors: source 'preset' needs the other items of the preset")
        seen: set[str] = set()
        candidates = []
        for other in ctx.others(variant):
            for o in other.options:
                key = o.strip().lower()
                if key and key not in own and key not in seen and key not in SPECIAL_OPTIONS:
                    seen.add(key)
                    candidates.append(o)
    else:
        keys = [o for o in own if o]
        candidates = [t for t, key in _UNRELATED_KEYS if not any(_overlaps(key, o) for o in keys)]
    if len(candidates) < k:
        raise PerturbationError(f"replace_distractors: only {len(candidates)} unrelated option(s) available from "
                                f"source '{source}', {k} needed")
    positions = sorted(rng.sample(wrong, k))
    new_texts = rng.sample(candidates, k)
    options = list(variant.options)
    replaced = []
    for pos, new in zip(positions, new_texts):
        replaced.append({"position": pos, "letter": LETTERS[pos], "old": options[pos], "new": new})
        options[pos] = new
    out = variant.evolve(options=tuple(options))
    if "suggestion" in variant.prompt_args and variant.prompt_args["suggestion"].get("text") not in options:
        raise PerturbationError("replace_distractors would replace the suggested answer; apply 'suggest' afterwards")
    return out, {"source": source, "replaced": replaced}


def _nota_phrase(p: dict[str, Any]) -> str:
    return ("none of the above added, right option removed" if p.get("mode", "hallucination") == "hallucination"
            else "none of the above added")


@register("nota", "Add 'None of the above' (MedVH NOTA). mode 'hallucination' removes the correct option first; "
          "'baseline' keeps it. position: 'seeded' (default), 'last' or an index.",
          "hallucination: 'None of the above'; baseline: unchanged",
          label="add 'none of the above'", phrase=_nota_phrase)
def nota(variant: Variant, rng: random.Random, *,
         mode: Annotated[Literal["hallucination", "baseline"], Field(
             description="hallucination: remove the correct option first (the answer becomes 'None of the above'); "
                         "baseline: keep it")] = "hallucination",
         position: Position = "seeded") -> tuple[Variant, dict[str, Any]]:
    if variant.kind == "yesno":
        raise PerturbationError("nota does not apply to a yes/no item: without its correct option only one answer "
                                "would be left (MedVH uses NOTA on multiple-choice items only); use 'escape' to add an "
                                "escape option to a yes/no question")
    _need_choice(variant, "nota")
    if _has_option(variant.options, NOTA):
        raise PerturbationError("nota: the item already has a 'None of the above' option")
    options = list(variant.options)
    details: dict[str, Any] = {"mode": mode}
    answer = variant.answer
    if mode == "hallucination":
        correct = _answer_index(variant, "nota")
        details.update(removed=options.pop(correct), removed_position=correct)
        answer = NOTA
    idx = _position(position, len(options) + 1, rng, "nota")
    options.insert(idx, NOTA)
    details.update(position=idx, letter=LETTERS[idx])
    if "suggestion" in variant.prompt_args and variant.prompt_args["suggestion"].get("text") not in options:
        raise PerturbationError("nota would remove the suggested answer; apply 'suggest' afterwards")
    return _sync_suggestion(variant.evolve(options=tuple(options), answer=answer)), details


def _escape_phrase(p: dict[str, Any]) -> str:
    return {"unsuitable": "'not a suitable question' option added",
            "unknown": "'I don't know' option added"}.get(str(p.get("kind")), "an escape option added")


@register("escape", "Add an escape option at a seeded position: kind 'unsuitable' = 'Not a suitable question for "
          "the image' (MedVH wrongful image), 'premise' = 'The question contains a clinically incorrect premise' "
          "(MedVH); a yes/no item becomes Yes / No / escape.",
          "answer 'keep': unchanged (Yes/No for a yes/no item); answer 'escape': the escape option",
          label="add an escape option", phrase=_escape_phrase)
def escape(variant: Variant, rng: random.Random, *,
           kind: Annotated[Literal["unsuitable", "premise"], Field(
               description="unsuitable: 'Not a suitable question for the image' (wrongful image); premise: 'The "
                           "question contains a clinically incorrect premise'")] = "unsuitable",
           answer: Annotated[Literal["keep", "escape"], Field(
               description="keep: the answer stays; escape: the escape option becomes the answer")] = "keep",
           position: Position = "seeded",
           text: Annotated[NonBlank | None, Field(description="the escape option's wording instead of kind's")] = None,
           ) -> tuple[Variant, dict[str, Any]]:
    if variant.kind not in ("choice", "yesno"):
        raise PerturbationError(f"escape needs a multiple-choice or yes/no item; this one is '{variant.kind}'")
    option = text.strip() if text is not None else ESCAPE_TEXTS[kind]
    v, details = _as_choice(variant, "escape")
    if _has_option(v.options, option):
        raise PerturbationError(f"escape: the item already has the option '{option}'")
    options = list(v.options)
    idx = _position(position, len(options) + 1, rng, "escape")
    options.insert(idx, option)
    new_answer = option if answer == "escape" else v.answer
    details.update(kind=kind, text=option, position=idx, letter=LETTERS[idx])
    return _sync_suggestion(v.evolve(options=tuple(options), answer=new_answer)), details
