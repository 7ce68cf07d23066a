"""Structured answers on a local model (``--answer-format json``): decoding constrained to the item's labels.

The reply may only spell one of the request's labels, in one of the spellings a model writes it as its next
token (as is or after a space; words also capitalised or lower-cased: :func:`~probe_ui.providers.hf.engine.
label_variants`), then end. Decoding under that constraint walks the spellings' token tree: at each step only the
tokens that continue some spelling are allowed (and the end of the reply, where a spelling is complete), and the
most likely of them is taken (greedy), or one is drawn from them at the request's temperature and top-p with the
request's own seeded generator.

Why the walk reads scores rather than running ``model.generate`` with a logits processor: every step's
probabilities are those of the prompt followed by a spelling's first tokens, which one forward pass over the rows
"prompt + spelling" gives (:func:`~probe_ui.providers.hf.engine.score_rows`, batched as ``gd`` mode is). The walk
then takes exactly the steps constrained greedy decoding would, from the model's own distribution, and a
checkpoint's generation settings (a suppressed token list, a repetition penalty) cannot veto every label. The end
of the reply is scored only where it decides something: where one spelling is the start of another ("No" and
"None"), from rows that append each end-of-sequence id.

The answer text is the chosen label; the provider writes it as ``{"answer": <label>}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from probe_ui.messages import Response
from probe_ui.providers.base import ProviderError
from probe_ui.providers.hf.batching import Job
from probe_ui.providers.hf.engine import end_ids, label_variants, score_rows


@dataclass
class Spelling:
    """One way of writing a label as tokens, with the rows that score it."""

    label: str
    ids: tuple[int, ...]
    row: int  # the row "prompt + ids": log P of each of its tokens
    end_rows: tuple[int, ...] = ()  # rows "prompt + ids + eos": where the reply may end after it


def spellings(entry: Any, labels: tuple[str, ...], label: str) -> list[Spelling]:
    """Every distinct token spelling of every label (the first label to spell a token sequence keeps it); rows are
    numbered from 0 in the order :func:`rows_of` lists them."""
    out: list[Spelling] = []
    seen: set[tuple[int, ...]] = set()
    for lab in labels:
        for text in label_variants(lab):
            ids = tuple(entry.tokenizer.encode(text, add_special_tokens=False))
            if ids and ids not in seen:
                seen.add(ids)
                out.append(Spelling(lab, ids, -1))
    if not out:
        raise ProviderError(f"{label}: none of the labels {list(labels)} can be tokenized")
    return out


def rows_of(spelled: list[Spelling], ends: list[int], first: int) -> list[tuple[int, ...]]:
    """The continuation of each row a job scores (numbered from ``first``): each spelling, and after each spelling
    that starts another, the spelling followed by each end id."""
    rows: list[tuple[int, ...]] = []
    for sp in spelled:
        sp.row = first + len(rows)
        rows.append(sp.ids)
        if any(o.ids[: len(sp.ids)] == sp.ids and len(o.ids) > len(sp.ids) for o in spelled):
            sp.end_rows = tuple(first + len(rows) + k for k in range(len(ends)))
            rows += [sp.ids + (e,) for e in ends]
    return rows


def walk(spelled: list[Spelling], scored: list[tuple[Any, list[float], int]], settings: Any,
         generator: Any) -> tuple[Spelling, float]:
    """Constrained decoding over the spellings' token tree: the chosen spelling and its log-probability."""
    alive, depth, total = list(spelled), 0, 0.0
    while True:
        choices: dict[Any, tuple[float, list[Spelling]]] = {}  # next token (or ("end", spelling)) → log P, spellings
        for sp in alive:
            if len(sp.ids) == depth:
                if not sp.end_rows:  # no longer spelling continues from here: the reply ends with it
                    return sp, total
                end = _logsumexp([scored[r][1][-1] for r in sp.end_rows])
                choices[("end", sp.row)] = (end, [sp])
            else:
                tok = sp.ids[depth]
                lp = scored[sp.row][1][depth]
                choices.setdefault(tok, (lp, []))[1].append(sp)
        key = _pick({k: v[0] for k, v in choices.items()}, settings, generator)
        lp, alive = choices[key]
        total += lp
        if isinstance(key, tuple):
            return alive[0], total
        depth += 1


def _pick(logps: dict[Any, float], settings: Any, generator: Any) -> Any:
    """The most likely choice (temperature 0), else one drawn at the request's temperature and top-p."""
    keys = list(logps)
    if settings.deterministic or len(keys) == 1:
        return max(keys, key=lambda k: logps[k])
    import torch

    logits = torch.tensor([logps[k] for k in keys], dtype=torch.float64) / max(settings.temperature, 1e-6)
    probs = torch.softmax(logits, dim=-1)
    if settings.top_p is not None and 0 < settings.top_p < 1:
        ordered, order = torch.sort(probs, descending=True)
        drop = ordered.cumsum(-1) - ordered > settings.top_p  # keep the smallest set reaching top_p
        probs = torch.zeros_like(probs).scatter(0, order, ordered.masked_fill(drop, 0.0))
    return keys[int(torch.multinomial(probs, 1, generator=generator))]


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    return top if top == float("-inf") else top + math.log(sum(math.exp(v - top) for v in values))


def _generator(settings: Any) -> Any:
    """A request's own generator (seeded by its settings), so a drawn answer is the same alone or batched."""
    if settings.deterministic:
        return None
    import torch

    g = torch.Generator()
    if settings.seed is None:
        g.seed()
    else:
        g.manual_seed(int(settings.seed))
    return g


def constrained(entry: Any, jobs: list[Job], conversations: list[list[dict[str, Any]]]) -> list[Response]:
    """Each job's label, decoded under the constraint (module docstring); rows of all jobs scored together."""
    ends = sorted(end_ids(entry))
    rows: list[tuple[list[dict[str, Any]], list[int]]] = []
    plans: list[list[Spelling]] = []
    for job, conv in zip(jobs, conversations):
        spelled = spellings(entry, job.request.labels, job.label)
        rows += [(conv, list(ids)) for ids in rows_of(spelled, ends, len(rows))]
        plans.append(spelled)
    scored = score_rows(entry, rows, jobs[0])
    responses = []
    for job, spelled in zip(jobs, plans):
        settings = job.request.settings
        chosen, logp = walk(spelled, scored, settings, _generator(settings))
        responses.append(Response(text=chosen.label, input_tokens=scored[chosen.row][2],
                                  output_tokens=len(chosen.ids), finish_reason="stop",
                                  details={"constrained": True, "label_logprob": logp}))
    return responses
