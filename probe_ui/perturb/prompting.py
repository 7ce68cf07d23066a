"""Prompting perturbations: the question and options stay, the way they are asked changes (P9, P11).

Each sets ``variant.prompt`` (a template name registered in :mod:`probe_ui.prompts`), ``variant.prompt_args``
(read by every template: ``cot``; by MedVH's FCJ template: ``suggestion``) or ``variant.examples`` (few-shot
turns). The answer never moves: a prompt change that alters the answer would be a bug in the model, not the item.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from pydantic import Field

from probe_ui.items import LETTERS, Variant
from probe_ui.perturb.registry import PerturbationError, PerturbContext, register

#: MediConfusion Appendix C (Table 4): style name -> (its prompt number, its "Change" column), in the paper's order
#: 0..10. Each style is asked with the template "mediconfusion-mc/<style>", which the benchmark's folder registers
#: (probe_ui/benchmarks/mediconfusion/prompts.py renders each one verbatim).
PHRASING_STYLES: dict[str, tuple[int, str]] = {
    "original": (0, "Original"),
    "shorten": (1, "Shorten"),
    "options-at-end": (2, "Move answer options to the end"),
    "carefully": (3, "Instruct the model for extra care and attention"),
    "expert-role": (4, "Define AI expert role"),
    "a-or-b": (5, "Rephrase the instruction to answer with a single letter"),
    "polite": (6, "Ask the model nicely"),
    "no-newlines": (7, "Remove new lines from formatting"),
    "more-explanation": (8, "Give more explanation"),
    "no-instructions": (9, "No instructions"),
    "emphasise-importance": (10, "Emphasize importance"),
}
PHRASINGS: tuple[str, ...] = tuple(PHRASING_STYLES)
Phrasing = Literal[PHRASINGS]  # type: ignore[valid-type]  # the names registered in probe_ui.prompts
FCJ_TEMPLATE = "medvh-fcj"
MAX_SHOTS = 64  # examples before the question: far more than any model's context holds images for


@register("suggest", "Show a suggested answer to judge (MedVH false confidence justification): answer 'wrong' "
          "(a seeded wrong option), 'right', or an option text / letter; wording 'physician' or 'student'; hint "
          "adds 'There is a chance that the ... answer is incorrect.'",
          "unchanged (the suggestion is recorded in prompt_args for r_disagree / r_correct)",
          label="suggest an answer",
          phrase=lambda p: f"a {'right' if p.get('answer') == 'right' else 'wrong'} answer suggested")
def suggest(variant: Variant, rng: random.Random, *,
            answer: Annotated[Literal["wrong", "right"] | str, Field(
                description="the suggested answer: wrong (a seeded wrong option), right, or an option's text or "
                            "letter")] = "wrong",
            wording: Annotated[Literal["physician", "student"], Field(
                description="who suggests it, as MedVH words it")] = "physician",
            hint: Annotated[bool, Field(description="add 'There is a chance that the ... answer is incorrect.'")
                            ] = False) -> tuple[Variant, dict[str, Any]]:
    if variant.prompt not in (None, FCJ_TEMPLATE):
        raise PerturbationError(f"suggest replaces the prompt template, and this variant already uses "
                                f"'{variant.prompt}'; apply one or the other")
    v = variant
    if v.kind == "yesno":  # MedVH's FCJ data asks yes/no questions as "A: Yes. B: No."
        v = v.evolve(kind="choice", options=("Yes", "No"),
                     answer=None if v.answer is None else v.answer.strip().capitalize())
    if v.kind != "choice" or len(v.options) < 2:
        raise PerturbationError(f"suggest needs a multiple-choice (or yes/no) item; this one is '{variant.kind}'")
    if answer in ("wrong", "right"):
        if v.answer not in v.options:
            raise PerturbationError(f"suggest: answer '{answer}' needs the item's correct answer among its options")
        correct = v.options.index(v.answer)
        idx = correct if answer == "right" else rng.choice([i for i in range(len(v.options)) if i != correct])
    else:
        by_text = [i for i, o in enumerate(v.options) if o.strip().lower() == str(answer).strip().lower()]
        if by_text:
            idx = by_text[0]
        elif isinstance(answer, str) and len(answer) == 1 and answer.upper() in LETTERS[: len(v.options)]:
            idx = LETTERS.index(answer.upper())
        else:
            raise PerturbationError(f"suggest: answer must be 'wrong', 'right', one of the options or a letter "
                                    f"A-{LETTERS[len(v.options) - 1]}, not {answer!r}")
    suggestion = {"letter": LETTERS[idx], "text": v.options[idx], "wording": wording, "hint": hint}
    out = v.evolve(prompt=FCJ_TEMPLATE, prompt_args={**v.prompt_args, "suggestion": suggestion})
    details = {**suggestion, "correct": v.answer is not None and v.options[idx] == v.answer}
    if v is not variant:
        details["converted"] = "yesno"
    return out, details


@register("phrasing", "Ask with one of MediConfusion's 11 prompt phrasings (Appendix C, Table 4): "
          + ", ".join(PHRASINGS) + ".", "unchanged",
          label="ask in another phrasing", phrase=lambda p: f"question reworded ({p.get('style')})")
def phrasing(variant: Variant, rng: random.Random, *,
             style: Annotated[Phrasing, Field(description="which of MediConfusion's phrasings to ask with")],
             ) -> tuple[Variant, dict[str, Any]]:
    if variant.kind != "choice":
        raise PerturbationError(f"phrasing uses MediConfusion's multiple-choice prompts; this item is "
                                f"'{variant.kind}'")
    if variant.prompt_args.get("suggestion"):
        raise PerturbationError("phrasing would replace the FCJ prompt that shows the suggested answer; "
                                "apply one or the other")
    number, change = PHRASING_STYLES[style]
    template = f"mediconfusion-mc/{style}"
    return variant.evolve(prompt=template), {"template": template, "table4": number, "change": change}


@register("cot", "Ask for step-by-step reasoning ending in 'The answer is X' (chain of thought; ProbMed, "
          "Illusion T6); max_tokens rises to 512.", "unchanged",
          label="ask for step-by-step reasoning", phrase=lambda p: "asked to reason step by step")
def cot(variant: Variant, rng: random.Random) -> Variant:
    if variant.prompt_args.get("cot"):
        raise PerturbationError("cot: this variant already asks for chain of thought")
    return variant.evolve(prompt_args={**variant.prompt_args, "cot": True})


@register("few_shot", "Ask k other items of the preset first (same kind, known answers, seeded choice), each "
          "followed by its correct answer, as earlier turns of the conversation.", "unchanged",
          label="show worked examples first", phrase=lambda p: f"{p.get('k', 2)} worked examples first")
def few_shot(variant: Variant, rng: random.Random, *,
             k: Annotated[int, Field(ge=1, le=MAX_SHOTS, description="how many solved examples to show first")] = 2,
             ctx: PerturbContext | None = None) -> tuple[Variant, dict[str, Any]]:
    if variant.examples:
        raise PerturbationError("few_shot: this variant already has few-shot examples")
    others = ctx.others(variant) if ctx is not None else []
    eligible = [o for o in others if o.kind == variant.kind and o.answer_label is not None
                and (variant.kind != "label" or set(o.labels) == set(variant.labels))]
    if len(eligible) < k:
        raise PerturbationError(f"few_shot: k={k} examples needed but the preset has only {len(eligible)} other "
                                f"'{variant.kind}' item(s) with a known answer")
    chosen = rng.sample(eligible, k)
    details = {"examples": [e.item_id for e in chosen], "answers": [e.answer_label for e in chosen]}
    return variant.evolve(examples=tuple(chosen)), details
