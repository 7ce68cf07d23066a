"""Prompt templates: the papers' verbatim ones, selectable by name, rendering a variant into messages.

Add a template by writing one function ``(variant) -> (system, user_text)`` and one :func:`register_template` call,
in a benchmark's folder (``probe_ui/benchmarks/<name>/prompts.py``: the papers' verbatim templates live there) or a
plugin file (:mod:`probe_ui.registry`). This module keeps the mechanism and each kind's plain wording (``yesno``,
``label``, ``free``).

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
from probe_ui.messages import GenerationSettings, ImagePart, Message, Request, TextPart
from probe_ui.registry import Registry

#: the sentence the prompt appends when a probe asks for the model's confidence (``--confidence``, the answer format
#: "confidence"); :mod:`probe_ui.reading.confidence` reads the number the reply gives
CONFIDENCE_INSTRUCTION = ("After your answer, give your confidence that it is right as 'Confidence: N%', "
                          "N from 0 to 100.")

if TYPE_CHECKING:
    from PIL import Image

class PromptError(ProbeUIError, ValueError):
    """Unknown template, or a template that does not fit the item's kind."""


def _with_suffix(question: str, suffix: str, marker: str) -> str:
    return question if marker.lower() in question.lower() else f"{question.rstrip()} {suffix}"


def yesno(v: Variant) -> tuple[str | None, str]:
    """ProbMed's wording: the question ends in '(please answer yes/no)'."""
    return None, _with_suffix(v.question, "(please answer yes/no)", "answer yes/no")


def label(v: Variant) -> tuple[str | None, str]:
    """MedBLINK's wording: '(Answer with red, green, or blue)' unless the question already says how."""
    words = list(v.options)
    listed = (words[0] if len(words) == 1
              else ", ".join(words[:-1]) + (", or " if len(words) > 2 else " or ") + words[-1])
    return None, _with_suffix(v.question, f"(Answer with {listed})", "(answer with")


def free(v: Variant) -> tuple[str | None, str]:
    """MediConfusion's free-form prompt (no options)."""
    return None, f"Based on the image, answer following question.\n{v.question}"


#: what a point item asks for; the coordinates' convention it names is
#: :data:`probe_ui.reading.pointing.DEFAULT_CONVENTION`
POINT_INSTRUCTION = ("Answer with the coordinates of one point on it as (x, y), each from 0 to 1 of the image's "
                     "width and height, (0, 0) being the top left corner.")


def point(v: Variant) -> tuple[str | None, str]:
    """Ours, for "point to the finding" items (issue 45): the question and how to write the point. A model that
    points in its own convention anyway (Qwen's pixels, Molmo's percent, Gemini's 0-1000, PaliGemma's loc tokens)
    is read in it where its options say so (``point_convention``)."""
    return None, f"{v.question.rstrip()}\n{POINT_INSTRUCTION}"


def choice(v: Variant) -> tuple[str | None, str]:
    """Ours, for a question a person types in the Probe tab: the question, its options by letter and a request
    for the letter, with no system prompt (a paper's verbatim prompt, typos and all, belongs to its own items)."""
    letters = "".join(f"{LETTERS[i]}. {o}\n" for i, o in enumerate(v.options))
    return None, (f"Look at the image and answer the question.\nQuestion: {v.question}\n{letters}"
                  "Answer with the letter of the correct option.")


def series(words: list[str], conj: str = "or") -> str:
    """"a, b or c": words joined as a sentence lists them (the phrasings' and chain of thought's letters)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conj} {words[-1]}"



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
        what = series(list(LETTERS[: len(v.options)]))
    else:
        what = series(list(v.labels))
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
    #: what a variant needs besides its kind for this template to fit (e.g. a suggested answer); None: nothing
    needs: Callable[[Variant], bool] | None = None
    #: its name as a page shows it ("" : its code name in words)
    label: str = ""


#: every prompt template, in menu order: the shared ones below (each kind's plain wording), then each benchmark
#: folder's (``probe_ui/benchmarks/<name>/prompts.py``), then plugins' (:func:`register_template`)
TEMPLATES: Registry[Template] = Registry("prompt template", packages=("probe_ui.benchmarks",),
                                        only=("prompts",), error=PromptError, ordered=True)
for _t in (
        Template("yesno", ("yesno",), yesno, 32, "the question, ending in '(please answer yes/no)'",
                 label="yes or no question"),
        Template("label", ("label",), label, 32, "MedBLINK: '(Answer with red, green, or blue)'",
                 label="MedBLINK answer words"),
        Template("free", ("free", "choice", "yesno", "label"), free, 512,
                 "MediConfusion free-form: no options shown; needs a judge to score",
                 label="free answer (no options shown)"),
        Template("choice", ("choice",), choice, 32,
                 "ours, plain: the question and its lettered options, no system prompt (a typed question's default)",
                 label="plain multiple choice (a typed question)"),
        Template("point", ("point",), point, 64,
                 "ours: 'point to the finding', the point as (x, y) from 0 to 1 of the image's width and height",
                 label="point to the finding (x, y)"),
):
    TEMPLATES.add(_t.name, _t)


def register_template(t: Template) -> Template:
    """Add a prompt template (a plugin's; :meth:`Registry.put`)."""
    return TEMPLATES.put(t)  # type: ignore[no-any-return]

DEFAULT_FOR_KIND = {"choice": "mediconfusion-mc", "yesno": "yesno", "label": "label", "free": "free",
                    "point": "point"}


def _fits(t: Template, v: Variant) -> bool:
    return v.kind in t.kinds and (t.needs is None or t.needs(v))


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
    settings = settings or GenerationSettings(max_tokens=t.max_tokens)
    labels = () if t.name == "free" else v.labels
    if settings.answer_format == "confidence" and labels:  # the answer, then how sure the model is of it
        text = f"{text.rstrip()}\n{CONFIDENCE_INSTRUCTION}"
    parts = tuple(ImagePart(im) for im in v.images) + (TextPart(text),)
    messages.append(Message("user", parts))
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
