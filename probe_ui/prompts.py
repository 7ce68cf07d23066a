"""Prompt templates: the papers' verbatim ones, selectable by name, rendering a variant into messages.

Add a template by writing one function ``(variant) -> (system, user_text)`` and one ``TEMPLATES`` entry (here, or
:func:`register_template` from a plugin, :mod:`probe_ui.registry`).

A variant can carry its own template (``variant.prompt``, set by a perturbation such as ``phrasing`` or
``suggest``; it wins over the run's choice when it fits the variant's kind), arguments that every template honours
(``prompt_args``: ``cot`` adds a chain-of-thought instruction and raises max_tokens; ``suggestion`` is read by the
MedVH FCJ template), and few-shot ``examples`` that become earlier user / assistant turns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from probe_ui.errors import ProbeUIError
from probe_ui.items import LETTERS, Variant
from probe_ui.providers.base import GenerationSettings, ImagePart, Message, Request, TextPart
from probe_ui.registry import Registry

if TYPE_CHECKING:
    from PIL import Image

# MediConfusion's system prompt, typo included ("assitant"): reproduce published numbers exactly.
MEDICONFUSION_SYSTEM = "You are a helpful assitant expert in medical domain."
PROBMED_SYSTEM = (
    "You are a student in medical school. You are preparing for your final exam. Answer the following question in "
    "your practice exam as directed to earn higher scores. You answer will only be for academic purpose."
)
MEDVH_SYSTEM = "You are a well-trained radiologist being asked a multi-choice question regarding an image. "


class PromptError(ProbeUIError, ValueError):
    """Unknown template, or a template that does not fit the item's kind."""


def _letters(v: Variant) -> str:
    return "".join(f"{LETTERS[i]}: {o}\n" for i, o in enumerate(v.options))


def mediconfusion_mc(v: Variant) -> tuple[str | None, str]:
    """REFERENCE §2, verbatim, generalised from two options to k."""
    return MEDICONFUSION_SYSTEM, (
        "Based on the image, choose the correct option for the following question.\n"
        f"Question: {v.question}\n{_letters(v)}"
        "Answer with the option's letter from the given choices directly. Your answer should be just one letter.\n"
        "Answer: "
    )


def medvh_mc(v: Variant) -> tuple[str | None, str]:
    choices = " ".join(f"{LETTERS[i]}: {o}." for i, o in enumerate(v.options))
    return MEDVH_SYSTEM, (
        f"Please respond with the correct answer letter. No explanation is needed. Question: {v.question} "
        f"Choices: {choices}"
    )


def blink_mc(v: Variant) -> tuple[str | None, str]:
    lines = "\n".join(f"({LETTERS[i]}) {o}" for i, o in enumerate(v.options))
    return None, f"{v.question}\nSelect from the following choices.\n{lines}"


def _with_suffix(question: str, suffix: str, marker: str) -> str:
    return question if marker.lower() in question.lower() else f"{question.rstrip()} {suffix}"


def yesno(v: Variant) -> tuple[str | None, str]:
    """ProbMed's wording: the question ends in '(please answer yes/no)'."""
    return None, _with_suffix(v.question, "(please answer yes/no)", "answer yes/no")


def probmed(v: Variant) -> tuple[str | None, str]:
    return PROBMED_SYSTEM, yesno(v)[1]


def label(v: Variant) -> tuple[str | None, str]:
    """MedBLINK's wording: '(Answer with red, green, or blue)' unless the question already says how."""
    words = list(v.options)
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + (", or " if len(words) > 2 else " or ") + words[-1]
    return None, _with_suffix(v.question, f"(Answer with {listed})", "(answer with")


def free(v: Variant) -> tuple[str | None, str]:
    """MediConfusion's free-form prompt (no options)."""
    return None, f"Based on the image, answer following question.\n{v.question}"


# --------------------------------------------------------------------------------------------------------------
# MediConfusion Appendix C, Table 4: the original MC prompt and its 10 variations (P11). The table prints each
# prompt on one line with empty "Question: A: B:" slots; line breaks are placed as in the original prompt
# (preamble / question / one line per option / instruction / "Answer: "), except for #7, whose point is to
# have none. The paper's typographic apostrophe (option’s) is written ' as in the original prompt in their code.
# Two options generalise to k: "'A' or 'B'" becomes "'A', 'B' or 'C'", "two answer options: A and B" becomes
# "three answer options: A, B and C".
# --------------------------------------------------------------------------------------------------------------

_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _series(words: list[str], conj: str = "or") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conj} {words[-1]}"


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
    letters = _series([f"'{x}'" for x in LETTERS[: len(v.options)]])
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
    letters = _series(list(LETTERS[:k]), "and")
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


#: style name -> (Table 4 number, its "Change" column, renderer); registered as "mediconfusion-mc/<style>"
MEDICONFUSION_PHRASINGS: dict[str, tuple[int, str, Callable[[Variant], tuple[str | None, str]]]] = {
    "original": (0, "Original", mediconfusion_mc),
    "shorten": (1, "Shorten", mc_shorten),
    "options-at-end": (2, "Move answer options to the end", mc_options_at_end),
    "carefully": (3, "Instruct the model for extra care and attention", mc_carefully),
    "expert-role": (4, "Define AI expert role", mc_expert_role),
    "a-or-b": (5, "Rephrase the instruction to answer with a single letter", mc_a_or_b),
    "polite": (6, "Ask the model nicely", mc_polite),
    "no-newlines": (7, "Remove new lines from formatting", mc_no_newlines),
    "more-explanation": (8, "Give more explanation", mc_more_explanation),
    "no-instructions": (9, "No instructions", mc_no_instructions),
    "emphasise-importance": (10, "Emphasize importance", mc_emphasise_importance),
}


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


# --------------------------------------------------------------------------------------------------------------
# Chain of thought (P11; ProbMed §4.3.1, Illusion T6). Neither paper prints its instruction, so this wording is
# ours. It ends in the "The answer is X" declaration that the robust extractor reads (answers.py, rule 1), and it
# goes before a template's final answer cue ("Answer: ") so the cue still comes last.
# --------------------------------------------------------------------------------------------------------------

COT_MAX_TOKENS = 512
_CUE = re.compile(r"(^|[\n ])((?:Correct answer option|Answer): ?)$")


def cot_instruction(v: Variant, template: str) -> str:
    if template == "free" or v.kind == "free":
        what = "your answer"
    elif v.kind == "choice":
        what = _series(list(LETTERS[: len(v.options)]))
    else:
        what = _series(list(v.labels))
    return ("Think step by step before answering, even if asked above to answer directly: describe what in the "
            "image is relevant to the question, reason it through, and then end your reply with a final sentence "
            f'of the form "The answer is X", where X is {what}.')


def _with_cot(text: str, v: Variant, template: str) -> str:
    instruction = cot_instruction(v, template)
    m = _CUE.search(text)
    if m:
        return text[: m.start(2)] + instruction + (m.group(1) or "\n") + m.group(2)
    return f"{text.rstrip()}\n{instruction}"


@dataclass(frozen=True)
class Template:
    name: str
    kinds: tuple[str, ...]
    render: Callable[[Variant], tuple[str | None, str]]
    max_tokens: int
    description: str


#: every prompt template, in menu order: the built-in ones below, then plugins' (:func:`register_template`)
TEMPLATES: Registry[Template] = Registry("prompt template", error=PromptError, ordered=True)
for _t in (
        Template("mediconfusion-mc", ("choice",), mediconfusion_mc, 32,
                 "MediConfusion multiple choice, verbatim (system prompt and 'Answer: ' cue)"),
        Template("medvh-mc", ("choice",), medvh_mc, 32, "MedVH multiple choice ('A: x. B: y.' on one line)"),
        Template("blink-mc", ("choice",), blink_mc, 256, "BLINK / MedBLINK '(A) ...' choices"),
        Template("yesno", ("yesno",), yesno, 32, "the question, ending in '(please answer yes/no)'"),
        Template("probmed", ("yesno",), probmed, 32, "ProbMed: yes/no with its GPT system prompt"),
        Template("label", ("label",), label, 32, "MedBLINK: '(Answer with red, green, or blue)'"),
        Template("free", ("free", "choice", "yesno", "label"), free, 512,
                 "MediConfusion free-form: no options shown; needs a judge to score"),
        Template("medvh-fcj", ("choice",), medvh_fcj, 512,
                 "MedVH false confidence justification: judge a physician's / student's suggested answer "
                 "(needs the 'suggest' perturbation)"),
        *(Template(f"mediconfusion-mc/{style}", ("choice",), fn, 32, f"MediConfusion App. C prompt {n}: {change}")
          for style, (n, change, fn) in MEDICONFUSION_PHRASINGS.items()),
):
    TEMPLATES.add(_t.name, _t)


def register_template(t: Template) -> Template:
    """Add a prompt template (a plugin's; a module imported again re-registers its own)."""
    old = TEMPLATES.loaded().get(t.name)
    same = old is not None and getattr(old.render, "__module__", None) == getattr(t.render, "__module__", None)
    return TEMPLATES.add(t.name, t, replace=same)

DEFAULT_FOR_KIND = {"choice": "mediconfusion-mc", "yesno": "yesno", "label": "label", "free": "free"}


def _fits(t: Template, v: Variant) -> bool:
    return v.kind in t.kinds and (t.name != "medvh-fcj" or bool(v.prompt_args.get("suggestion")))


def _known(name: str) -> Template:
    return TEMPLATES.get(name)


def template_for(v: Variant, requested: str | None) -> Template:
    """The variant's own template (``v.prompt``, set by a perturbation) when it fits its kind, else the requested
    one when it fits, else the kind's default; with chain of thought, max_tokens rises to ``COT_MAX_TOKENS``."""
    chosen = TEMPLATES[DEFAULT_FOR_KIND[v.kind]]
    candidates = [_known(n) for n in (v.prompt, requested) if n is not None]
    for t in candidates:
        if _fits(t, v):
            chosen = t
            break
    if v.prompt_args.get("cot") and chosen.max_tokens < COT_MAX_TOKENS:
        chosen = replace(chosen, max_tokens=COT_MAX_TOKENS)
    return chosen


def _prompt_text(v: Variant, t: Template) -> tuple[str | None, str]:
    system, text = t.render(v)
    if v.prompt_args.get("cot"):
        text = _with_cot(text, v, t.name)
    return system, text


def render(v: Variant, template: str | None = None, settings: GenerationSettings | None = None,
           sample: int = 0) -> Request:
    """A request: images first, then the prompt text (the order most VLM chat templates expect).

    Few-shot examples come first as user turns (their images and prompt, same template) each followed by an
    assistant turn holding the example's answer label; the system prompt is the variant's, once, at the top.
    """
    t = template_for(v, template)
    system, text = _prompt_text(v, t)
    messages: list[Message] = []
    if system:
        messages.append(Message("system", (TextPart(system),)))
    for ex in v.examples:
        te = t if _fits(t, ex) else template_for(ex.evolve(prompt=None), None)
        _, ex_text = te.render(ex)
        label = ex.answer_label
        if label is None:
            raise PromptError(f"few-shot example '{ex.item_id}' has no answer to show")
        messages.append(Message("user", tuple(ImagePart(im) for im in ex.images) + (TextPart(ex_text),)))
        messages.append(Message("assistant", (TextPart(label),)))
    parts = tuple(ImagePart(im) for im in v.images) + (TextPart(text),)
    messages.append(Message("user", parts))
    settings = settings or GenerationSettings(max_tokens=t.max_tokens)
    labels = () if t.name == "free" else v.labels
    return Request(tuple(messages), settings, labels, v.id, sample, t.name, question=v.question, options=v.options)


def preview(v: Variant, template: str | None = None) -> tuple[list[Image.Image], str]:
    """What the model will see, for the UI and CLI: every image of the request in order (few-shot examples'
    first) and the exact prompt as one string (:func:`messages_text`)."""
    req = render(v, template)
    images = [p.image.pil() for m in req.messages for p in m.content if isinstance(p, ImagePart)]
    return images, messages_text(req.rendered())


def messages_text(messages: list[dict[str, Any]] | None) -> str:
    """A request's messages in their stored form (``Request.rendered()``) as one string: each message under a
    ``[role]`` header, each image marked ``<image N>`` where it sits. Previews, exports and the Results tab all
    show a prompt this way."""
    blocks, n = [], 0
    for m in messages or []:
        lines = []
        for part in m.get("content") or []:
            if part.get("type") == "image":
                n += 1
                lines.append(f"<image {n}>")
            else:
                lines.append(str(part.get("text", "")))
        blocks.append(f"[{m.get('role', 'user')}]\n" + "\n".join(lines))
    return "\n\n".join(blocks)
