"""Prompt templates: the papers' verbatim ones, selectable by name, rendering a variant into messages.

Add a template by writing one function ``(variant) -> (system, user_text)`` and one ``TEMPLATES`` line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from probe_ui.items import LETTERS, Variant
from probe_ui.providers.base import GenerationSettings, ImagePart, Message, Request, TextPart

# MediConfusion's system prompt, typo included ("assitant"): reproduce published numbers exactly.
MEDICONFUSION_SYSTEM = "You are a helpful assitant expert in medical domain."
PROBMED_SYSTEM = (
    "You are a student in medical school. You are preparing for your final exam. Answer the following question in "
    "your practice exam as directed to earn higher scores. You answer will only be for academic purpose."
)
MEDVH_SYSTEM = "You are a well-trained radiologist being asked a multi-choice question regarding an image. "


class PromptError(ValueError):
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


@dataclass(frozen=True)
class Template:
    name: str
    kinds: tuple[str, ...]
    render: Callable[[Variant], tuple[str | None, str]]
    max_tokens: int
    description: str


TEMPLATES: dict[str, Template] = {
    t.name: t
    for t in (
        Template("mediconfusion-mc", ("choice",), mediconfusion_mc, 32,
                 "MediConfusion multiple choice, verbatim (system prompt and 'Answer: ' cue)"),
        Template("medvh-mc", ("choice",), medvh_mc, 32, "MedVH multiple choice ('A: x. B: y.' on one line)"),
        Template("blink-mc", ("choice",), blink_mc, 256, "BLINK / MedBLINK '(A) ...' choices"),
        Template("yesno", ("yesno",), yesno, 32, "the question, ending in '(please answer yes/no)'"),
        Template("probmed", ("yesno",), probmed, 32, "ProbMed: yes/no with its GPT system prompt"),
        Template("label", ("label",), label, 32, "MedBLINK: '(Answer with red, green, or blue)'"),
        Template("free", ("free", "choice", "yesno", "label"), free, 512,
                 "MediConfusion free-form: no options shown; needs a judge to score"),
    )
}
DEFAULT_FOR_KIND = {"choice": "mediconfusion-mc", "yesno": "yesno", "label": "label", "free": "free"}


def template_for(v: Variant, requested: str | None) -> Template:
    """The requested template when it fits the variant's kind, else the kind's default."""
    if requested is not None:
        if requested not in TEMPLATES:
            raise PromptError(f"unknown prompt template '{requested}'; known: {', '.join(TEMPLATES)}")
        t = TEMPLATES[requested]
        if v.kind in t.kinds:
            return t
    return TEMPLATES[DEFAULT_FOR_KIND[v.kind]]


def render(v: Variant, template: str | None = None, settings: GenerationSettings | None = None,
           sample: int = 0) -> Request:
    """A request: images first, then the prompt text (the order most VLM chat templates expect)."""
    t = template_for(v, template)
    system, text = t.render(v)
    messages: list[Message] = []
    if system:
        messages.append(Message("system", (TextPart(system),)))
    parts = tuple(ImagePart(im) for im in v.images) + (TextPart(text),)
    messages.append(Message("user", parts))
    settings = settings or GenerationSettings(max_tokens=t.max_tokens)
    labels = () if t.name == "free" else v.labels
    return Request(tuple(messages), settings, labels, v.id, sample, t.name)
