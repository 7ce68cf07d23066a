"""A server's token probabilities → the probability it gave each answer label (issue 44).

Why a module: an OpenAI-compatible server asked for ``logprobs`` (a model option ``logprobs: true``; vLLM, OpenAI's
chat models) returns, per generated token, its top alternatives with their log-probabilities. Where the reply
states its answer, the alternatives that spell a label say how sure the model was of each: that is the model's own
confidence, beside any it states in words. The same shape as an ``hf/`` model's ``option_probs`` (its gd and ps
modes), so one column of the scored-answer table reads both (:mod:`probe_ui.scoring`, ``token_confidence``).
"""

from __future__ import annotations

import math
from typing import Any

#: how many alternatives per token are asked for (OpenAI allows 0-20)
TOP_LOGPROBS = 5
#: how many of the reply's first tokens are kept to look for the answer in
KEPT_TOKENS = 24
_STRIP = " \t\n.,:;()[]*\"'`"


def top_logprobs(logprobs: Any) -> list[list[Any]]:
    """The first :data:`KEPT_TOKENS` tokens of an OpenAI ``choices[0].logprobs`` as ``[token, [[alt, logprob],
    ...]]`` (JSON-able, stored in details); [] where there are none."""
    content = getattr(logprobs, "content", None) or []
    out: list[list[Any]] = []
    for t in content[:KEPT_TOKENS]:
        alts = [[str(getattr(a, "token", "")), float(getattr(a, "logprob", -math.inf))]
                for a in getattr(t, "top_logprobs", None) or []]
        out.append([str(getattr(t, "token", "")), alts])
    return out


def _label_of(token: str, labels: dict[str, str]) -> str | None:
    return labels.get(token.strip(_STRIP).casefold())


def option_probs(top: list[list[Any]], labels: tuple[str, ...]) -> tuple[dict[str, float], float] | None:
    """(each label's probability, renormalised over the labels; their mass before that) at the first token of the
    reply that spells a label ("B", " (B", "Yes"); None where no token does or no alternative is a label."""
    by_fold = {lab.casefold(): lab for lab in labels}
    for token, alts in top:
        if _label_of(str(token), by_fold) is None:
            continue
        mass: dict[str, float] = {}
        for alt, logprob in alts:
            lab = _label_of(str(alt), by_fold)
            if lab is not None and math.isfinite(float(logprob)):
                mass[lab] = mass.get(lab, 0.0) + math.exp(float(logprob))
        total = sum(mass.values())
        if total <= 0:
            return None
        return {lab: round(mass.get(lab, 0.0) / total, 6) for lab in labels}, round(total, 6)
    return None
