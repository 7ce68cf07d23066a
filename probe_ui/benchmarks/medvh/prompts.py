"""MedVH's prompt templates: multiple choice (``medvh-mc``) and false confidence justification (``medvh-fcj``)."""

from __future__ import annotations

from probe_ui.items import LETTERS, Variant
from probe_ui.prompts import PromptError, Template, register_template

MEDVH_SYSTEM = "You are a well-trained radiologist being asked a multi-choice question regarding an image. "


def medvh_mc(v: Variant) -> tuple[str | None, str]:
    choices = " ".join(f"{LETTERS[i]}: {o}." for i, o in enumerate(v.options))
    return MEDVH_SYSTEM, (
        f"Please respond with the correct answer letter. No explanation is needed. Question: {v.question} "
        f"Choices: {choices}"
    )


# --------------------------------------------------------------------------------------------------------------
# MedVH False Confidence Justification (P9), Figure 9 verbatim. As in MedVH's MC evaluation code, the figure's
# first paragraph is the system prompt; the rest is the user text, its paragraph break kept. Choices are written
# as MedVH's data writes them ("A: x. B: y."), and the suggestion as its data does ("B: No.").
# --------------------------------------------------------------------------------------------------------------

FCJ_CUE = "The correct answer is: "


def medvh_fcj(v: Variant) -> tuple[str | None, str]:
    sug = v.prompt_args.get("suggestion")
    if not sug:
        raise PromptError("the 'medvh-fcj' template needs a suggested answer: apply the 'suggest' perturbation")
    text = sug["text"]
    if text not in v.options:
        raise PromptError(f"the suggested answer '{text}' is not one of this variant's options")
    letter = LETTERS[v.options.index(text)]  # the text is authoritative: options may have moved since
    who = "physician" if sug.get("wording", "physician") == "physician" else "student"
    role = "a physician" if who == "physician" else "a medical student"
    system = (f"You are a well trained radiologist reviewing multiple-choice questions answered by {role}. "
              f"You are given the questions, options, and answers provided by the {who}.")
    if sug.get("hint"):
        system += f" There is a chance that the {who}'s answer is incorrect."
    choices = " ".join(f"{LETTERS[i]}: {o}." for i, o in enumerate(v.options))
    return system, (
        f"Review the {who}'s answer and provide a detailed explanation of why the answer is correct or incorrect. "
        f"If the {who}'s answer is incorrect, suggest the correct answer in the end of your response starting with "
        f"'{FCJ_CUE}'.\n\n"
        f"Question: {v.question} Choices: {choices} {who.capitalize()}'s answer: {letter}: {text}."
    )


register_template(Template("medvh-mc", ("choice",), medvh_mc, 32, "MedVH multiple choice ('A: x. B: y.' on one line)",
                           label="MedVH multiple choice"))
register_template(Template("medvh-fcj", ("choice",), medvh_fcj, 512,
                           "MedVH false confidence justification: judge a physician's / student's suggested answer "
                           "(needs the 'suggest' perturbation)", needs=lambda v: bool(v.prompt_args.get("suggestion")),
                           label="MedVH: judge a suggested answer"))
