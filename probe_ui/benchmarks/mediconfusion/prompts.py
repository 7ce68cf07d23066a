"""MediConfusion's prompt templates: its multiple-choice prompt verbatim (``mediconfusion-mc``) and the 10 phrasings
of its Appendix C (``mediconfusion-mc/<style>``)."""

from __future__ import annotations

from typing import Callable

from probe_ui.items import LETTERS, Variant
from probe_ui.perturb.prompting import PHRASING_STYLES
from probe_ui.prompts import Template, register_template, series

# MediConfusion's system prompt, typo included ("assitant"): reproduce published numbers exactly.
MEDICONFUSION_SYSTEM = "You are a helpful assitant expert in medical domain."


def _letters(v: Variant) -> str:
    return "".join(f"{LETTERS[i]}: {o}\n" for i, o in enumerate(v.options))


def mediconfusion_mc(v: Variant) -> tuple[str | None, str]:
    """docs/reference.md §2, verbatim, generalised from two options to k."""
    return MEDICONFUSION_SYSTEM, (
        "Based on the image, choose the correct option for the following question.\n"
        f"Question: {v.question}\n{_letters(v)}"
        "Answer with the option's letter from the given choices directly. Your answer should be just one letter.\n"
        "Answer: "
    )


# --------------------------------------------------------------------------------------------------------------
# MediConfusion Appendix C, Table 4: the original MC prompt and its 10 variations (P11). The table prints each
# prompt on one line with empty "Question: A: B:" slots; line breaks are placed as in the original prompt
# (preamble / question / one line per option / instruction / "Answer: "), except for #7, whose point is to
# have none. The paper's typographic apostrophe (option’s) is written ' as in the original prompt in their code.
# Two options generalise to k: "'A' or 'B'" becomes "'A', 'B' or 'C'", "two answer options: A and B" becomes
# "three answer options: A, B and C".
# --------------------------------------------------------------------------------------------------------------

_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _mc(preamble: str, v: Variant, instruction: str | None, cue: str = "Answer: ") -> str:
    head = f"{preamble}\n" if preamble else ""
    tail = f"{instruction}\n" if instruction else ""
    return f"{head}Question: {v.question}\n{_letters(v)}{tail}{cue}"


_DIRECT = "Answer with the option's letter directly."
_DIRECT_ONE = ("Answer with the option's letter from the given choices directly. "
               "Your answer should be just one letter.")
_BASED = "Based on the image, choose the correct option for the following question."


def mc_shorten(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc("Answer the following question about the image.", v, _DIRECT)


def mc_options_at_end(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc(
        "Answer the following question about the image with the correct option's letter directly.", v, None)


def mc_carefully(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc(
        "Carefully and skillfully review the image and answer the following question.", v, _DIRECT)


def mc_expert_role(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc(
        "You are an expert radiologist AI with deep knowledge in radiology image analysis. " + _BASED, v, _DIRECT)


def mc_a_or_b(v: Variant) -> tuple[str | None, str]:
    letters = series([f"'{x}'" for x in LETTERS[: len(v.options)]])
    return MEDICONFUSION_SYSTEM, _mc(_BASED, v, f"Simply respond with {letters} based on your answer.")


def mc_polite(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc(
        "Based on the image, please choose the correct option for the following question.", v,
        "Please answer with the option's letter from the given choices directly.")


def mc_no_newlines(v: Variant) -> tuple[str | None, str]:
    opts = " ".join(f"Option {LETTERS[i]}: {o}" for i, o in enumerate(v.options))
    return MEDICONFUSION_SYSTEM, f"{_BASED} Question: {v.question} {opts} {_DIRECT_ONE} Answer: "


def mc_more_explanation(v: Variant) -> tuple[str | None, str]:
    k = len(v.options)
    count = _NUMBERS.get(k, str(k))
    letters = series(list(LETTERS[:k]), "and")
    return MEDICONFUSION_SYSTEM, _mc(
        "You are given a radiology image, based on which you will need to carefully answer a medical question "
        f"related to the image. You will be given {count} answer options: {letters} from which you have to choose "
        "the right answer. The correct answer can always be determined just by looking at the radiology image "
        "itself. Take a close look at the image, think carefully, and answer the following question.", v,
        _DIRECT_ONE)


def mc_no_instructions(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc("", v, None, "Correct answer option: ")


def mc_emphasise_importance(v: Variant) -> tuple[str | None, str]:
    return MEDICONFUSION_SYSTEM, _mc(
        "You are given a radiology image, and your critical task is to take a close look and choose the correct "
        "option for the following question. It is extremely important to answer the following question correctly.",
        v, _DIRECT_ONE)


#: style name (:data:`probe_ui.perturb.prompting.PHRASING_STYLES`, the paper's Table 4) -> its renderer
_RENDERERS: dict[str, Callable[[Variant], tuple[str | None, str]]] = {
    "original": mediconfusion_mc,
    "shorten": mc_shorten,
    "options-at-end": mc_options_at_end,
    "carefully": mc_carefully,
    "expert-role": mc_expert_role,
    "a-or-b": mc_a_or_b,
    "polite": mc_polite,
    "no-newlines": mc_no_newlines,
    "more-explanation": mc_more_explanation,
    "no-instructions": mc_no_instructions,
    "emphasise-importance": mc_emphasise_importance,
}
#: style name -> (Table 4 number, its "Change" column, renderer); registered as "mediconfusion-mc/<style>"
MEDICONFUSION_PHRASINGS: dict[str, tuple[int, str, Callable[[Variant], tuple[str | None, str]]]] = {
    style: (number, change, _RENDERERS[style]) for style, (number, change) in PHRASING_STYLES.items()}


#: each phrasing in a few words, for its template's label ("MediConfusion prompt 1 (shorter)")
_STYLE_WORDS = {"original": "original", "shorten": "shorter", "options-at-end": "options at the end",
                "carefully": "extra care", "expert-role": "expert role", "a-or-b": "one letter",
                "polite": "asked nicely", "no-newlines": "one line", "more-explanation": "more explanation",
                "no-instructions": "no instructions", "emphasise-importance": "importance stressed"}

register_template(Template("mediconfusion-mc", ("choice",), mediconfusion_mc, 32,
                           "MediConfusion multiple choice, verbatim (system prompt and 'Answer: ' cue)",
                           label="MediConfusion multiple choice"))
for _style, (_n, _change, _fn) in MEDICONFUSION_PHRASINGS.items():
    register_template(Template(f"mediconfusion-mc/{_style}", ("choice",), _fn, 32,
                               f"MediConfusion App. C prompt {_n}: {_change}",
                               label=f"MediConfusion prompt {_n} ({_STYLE_WORDS.get(_style, _style)})"))
