"""Judge extraction: a configured model maps a free-form answer to an option (docs/reference.md §3).

Two modes, as in the papers (registered in :data:`JUDGE_MODES`; a new one is a :class:`JudgeMode` subclass
decorated with :func:`register_judge_mode`): ``mediconfusion`` asks the judge to score the answer's closeness to
each option from 1 to 10 and picks an option only when its score beats every other by at least ``margin`` (k = 3),
else invalid; ``blink`` asks the judge to name the matching option's letter, or Z when none matches (Z is wrong).
Judge calls are ordinary requests, stored like any other response. Never falls back to a random letter.

A third use, as VLMEvalKit does (issue 21): the *fallback* judge (:func:`fallback_request`,
:func:`parse_fallback`) is asked only about replies the reading rules leave invalid, for choice, yes/no and label
items alike, and answers with the letter or word the reply gives, or NONE. :mod:`probe_ui.scoring.fallback` asks it
about a stored run; its decisions carry the method ``judge``.
"""

from __future__ import annotations

import re
from typing import ClassVar, TypeVar

from probe_ui.errors import ProbeUIError
from probe_ui.items import LETTERS, Variant, labels_for
from probe_ui.messages import GenerationSettings, Message, Request, TextPart
from probe_ui.reading.answers import Answer, extract, is_refusal
from probe_ui.registry import Registry

MARGIN = 3

# MediConfusion's judge instructions, verbatim from its answering.json ("conversion"); generalised from two
# answers to k. The framing ([Question], [Answer X], [AI Assistant], [System]) follows the LLaVA review format
# its keys ("role", "instruct_prompt") come from.
MEDICONFUSION_SYSTEM = "You are a helpful and precise assistant for checking the quality of the answer."
MEDICONFUSION_INSTRUCT = (
    "We would like to request your feedback on the performance of an AI assistant in response to the user question "
    "displayed above. The user asks the question on observing an image. We have provided {n_words} possible "
    "answers, {answer_list} to the question. Your job is to evaluate how close the AI assistant's answer is to "
    "each of the answers. You don't have to decide whether the answers are correct or not. Each answer should "
    "receive an overall score on a scale of 1 to 10, where a higher score indicates the AI assistant's answer is "
    "closer to the specific answer. After providing the scores, concisely provide your explanation for the given "
    "scores. Remember, you don't need to comment on the correctness of the answers. Please provide your answer in "
    "the following format:\n{format_lines}\nYour explanation: <EXPLANATION>"
)
MEDICONFUSION_TEMPERATURE = 0.7  # the original judge's setting

# BLINK-style matching; our wording of BLINK's "pick a letter or Z" step.
BLINK_PROMPT = (
    "Match an answer to one of the options of a multiple-choice question.\n"
    "Question: {question}\nOptions:\n{options}\n(Z) None of the options; the answer does not choose one, or it "
    "refuses.\nAnswer: {answer}\n"
    "Reply with only the letter of the matching option in parentheses, e.g. (A), or (Z)."
)
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class JudgeModeError(ProbeUIError, ValueError):
    """An unknown judge mode (the message lists the registered ones)."""


class JudgeMode:
    """One way a judge model reads a free-form answer: the request it is sent, how its reply is read, which answers
    it is asked about. A subclass decorated with :func:`register_judge_mode` adds a mode (``--judge-mode NAME``)."""

    #: the mode's name (``--judge-mode``)
    name: ClassVar[str]
    #: the judge's sampling temperature (the original judge's setting)
    temperature: ClassVar[float] = 0.0

    def request(self, v: Variant, answer_text: str, settings: GenerationSettings) -> tuple[Message, ...]:
        """The judge's messages about one free-form answer to a choice variant (text only: no image)."""
        raise NotImplementedError

    def parse(self, text: str, labels: tuple[str, ...], margin: int = MARGIN) -> Answer:
        """The option the judge picked, or invalid; ``method`` says which judge rule decided."""
        raise NotImplementedError

    def needs(self, v: Variant, prompt: str, parsed_invalid: bool | None) -> bool:
        """Whether an answer is sent to the judge: free-form answers to choice items."""
        return v.kind == "choice" and bool(v.options) and prompt == "free"


#: the judge modes by name, in menu order
JUDGE_MODES: Registry[JudgeMode] = Registry("judge mode", error=JudgeModeError, ordered=True, instances=True)

M = TypeVar("M", bound=type[JudgeMode])


def register_judge_mode(cls: M) -> M:
    """Class decorator: register one instance of the mode under its ``name``."""
    return JUDGE_MODES.put(cls)  # type: ignore[no-any-return]


@register_judge_mode
class MediConfusionJudge(JudgeMode):
    """MediConfusion's: the judge scores the answer's closeness to each option from 1 to 10; an option is picked
    only when its score beats every other by at least ``margin``."""

    name = "mediconfusion"
    temperature = MEDICONFUSION_TEMPERATURE

    def request(self, v: Variant, answer_text: str, settings: GenerationSettings) -> tuple[Message, ...]:
        letters = LETTERS[: len(v.options)]
        answers = "".join(f"[Answer {L}]\n{o}\n\n" for L, o in zip(letters, v.options))
        listed = ", ".join(f"[Answer {L}]" for L in letters[:-1]) + f" and [Answer {letters[-1]}]"
        instruct = MEDICONFUSION_INSTRUCT.format(
            n_words=_NUMBER_WORDS.get(len(letters), str(len(letters))), answer_list=listed,
            format_lines="\n".join(f"{L}: <SCORE>" for L in letters))
        text = f"[Question]\n{v.question}\n\n{answers}[AI Assistant]\n{answer_text}\n\n[System]\n{instruct}\n\n"
        return (Message("system", (TextPart(MEDICONFUSION_SYSTEM),)), Message("user", (TextPart(text),)))

    def parse(self, text: str, labels: tuple[str, ...], margin: int = MARGIN) -> Answer:
        scores: dict[str, float] = {}
        for label in labels:
            m = re.search(rf"(?m)^\W*{re.escape(label)}\W*[:=]\s*(\d+(?:\.\d+)?)", text)
            if m:
                scores[label] = float(m.group(1))
        if len(scores) != len(labels):
            return Answer(None, "judge-mediconfusion-unreadable", True, is_refusal(text))
        best = max(scores, key=lambda k: scores[k])
        rest = [s for k, s in scores.items() if k != best]
        if all(scores[best] - s >= margin for s in rest):
            return Answer(best, "judge-mediconfusion", False, False)
        return Answer(None, "judge-mediconfusion-margin", True, False)


@register_judge_mode
class BlinkJudge(JudgeMode):
    """BLINK's: the judge names the matching option's letter, or Z when none matches (Z is wrong); it is also
    asked about replies the rules could not read (BLINK's fallback)."""

    name = "blink"

    def request(self, v: Variant, answer_text: str, settings: GenerationSettings) -> tuple[Message, ...]:
        letters = LETTERS[: len(v.options)]
        options = "\n".join(f"({L}) {o}" for L, o in zip(letters, v.options))
        text = BLINK_PROMPT.format(question=v.question, options=options, answer=answer_text)
        return (Message("user", (TextPart(text),)),)

    def parse(self, text: str, labels: tuple[str, ...], margin: int = MARGIN) -> Answer:
        found = set(re.findall(r"\(([A-Z])\)", text)) or set(re.findall(r"^\s*([A-Z])\s*$", text))
        if len(found) == 1:
            letter = found.pop()
            if letter in labels:
                return Answer(letter, "judge-blink", False, False)
        return Answer(None, "judge-blink-z", True, False)

    def needs(self, v: Variant, prompt: str, parsed_invalid: bool | None) -> bool:
        return super().needs(v, prompt, parsed_invalid) or (
            v.kind == "choice" and bool(v.options) and bool(parsed_invalid))


def judge_request(mode: str, v: Variant, answer_text: str, settings: GenerationSettings) -> Request:
    """The judge's request for one free-form answer to a choice variant (text only: the judge sees no image)."""
    messages = JUDGE_MODES.get(mode).request(v, answer_text, settings)
    return Request(messages, settings, tuple(LETTERS[: len(v.options)]), v.id, 0, f"judge-{mode}",
                   question=v.question, options=v.options)


def parse_judgement(mode: str, text: str, labels: tuple[str, ...], margin: int = MARGIN) -> Answer:
    """The option the judge picked, or invalid; ``method`` says which judge rule decided."""
    return JUDGE_MODES.get(mode).parse(text, labels, margin)


# The fallback judge's instructions (ours): the question, the answers it may give, the reply; one word back.
FALLBACK_PROMPT = (
    "A model was asked a question about a medical image and replied in its own words. Say which answer its reply "
    "gives.\n\nQuestion: {question}\n{answers}\n\nReply:\n{reply}\n\n"
    "Answer with only the {what} of the answer the reply gives, or with NONE if it gives no single answer (it "
    "refuses, hedges between answers, names several, or does not answer)."
)
FALLBACK_PREFIX = "judge-fallback:"
FALLBACK_MAX_TOKENS = 64


def fallback_prompt_name(model: str, prompt: str) -> str:
    """The ``prompt`` a fallback judge call is stored under: one call per judged answer and judge model."""
    return f"{FALLBACK_PREFIX}{model}:{prompt}"


def fallback_request(kind: str, question: str, options: tuple[str, ...], reply: str, settings: GenerationSettings,
                     *, variant_id: str = "", sample: int = 0, prompt: str = "") -> Request:
    """The fallback judge's request about one reply (text only: the judge sees no image)."""
    labels = tuple(labels_for(kind, options))
    if kind == "choice":
        answers = "Options:\n" + "\n".join(f"({L}) {o}" for L, o in zip(labels, options))
        what = "letter"
    else:
        answers = "Possible answers: " + ", ".join(labels)
        what = "word"
    text = FALLBACK_PROMPT.format(question=question, answers=answers, reply=reply, what=what)
    return Request((Message("user", (TextPart(text),)),), settings, labels, variant_id, sample, prompt,
                   question=question, options=options)


def parse_fallback(text: str, kind: str, labels: tuple[str, ...], options: tuple[str, ...] = ()) -> Answer:
    """The fallback judge's answer: a label (method ``judge``), NONE (``judge-none``), or unreadable
    (``judge-unreadable``). The judge's reply is read by the robust rules; only a reply that *is* its answer (or
    declares it) counts."""
    if re.fullmatch(r"\W*(?:none|no\s+(?:single\s+)?answer|n/?a)\W*", text or "", re.IGNORECASE):
        return Answer(None, "judge-none", True, False)
    got = extract(text or "", kind, labels, options if kind == "choice" else ())
    if got.choice is not None and got.method in ("exact", "declaration", "leading", "bare", "option_text",
                                                  "label_word", "boxed", "backtick", "final_verdict"):
        return Answer(got.choice, "judge", False, False)
    return Answer(None, "judge-unreadable", True, False)


def needs_judge(mode: str, v: Variant, prompt: str, parsed_invalid: bool | None) -> bool:
    """Whether an answer goes to the judge of ``mode`` (:meth:`JudgeMode.needs`)."""
    return JUDGE_MODES.get(mode).needs(v, prompt, parsed_invalid)
