"""One micro-batch on a loaded model: chat messages → left-padded tensors → generation or option scores.

Runs in the model's worker thread (probe_ui.providers.hf.batching). Every mode is batched:

- ``generate``: one ``model.generate`` over the left-padded batch (the attention mask hides the padding, and
  position ids follow it, as transformers' generation does); each request keeps its own ``max_tokens`` (the batch
  runs to the largest, each answer is cut to its own), and the batch stops at the smallest ``timeout_s``. Greedy
  requests decode exactly as they do alone. Sampled requests draw from their own ``torch.Generator``, seeded by
  their ``settings.seed``, one draw per step from their own row only, so a seeded request gives the same sample
  alone or in any batch.
- ``gd`` / ``ps``: each (request, continuation) pair is a row: the prompt, then the continuation's token ids (a
  multi-token label spelling in ``gd``, an option text in ``ps``) appended on the right and padded; one forward
  pass per chunk of ``batch_size`` rows, prepared as the first step of generation, scores every row. Results match
  scoring the request alone up to float rounding.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

from probe_ui.messages import ImagePart, Message, Response, TextPart
from probe_ui.providers.base import ProviderError
from probe_ui.providers.hf.batching import Job
from probe_ui.providers.hf.loading import cut_text

PS_PROMPT = "Question: {q} Answer: "
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def run_jobs(entry: Any, jobs: list[Job]) -> list[Response | Exception]:
    """Answer a micro-batch of jobs of one mode: a Response or a ProviderError per job, in order. Raises
    ProviderError when the batch as a whole fails (the batcher then runs its jobs one by one)."""
    import torch

    label = jobs[0].label
    results: list[Response | Exception | None] = [None] * len(jobs)
    ready: list[tuple[int, list[dict[str, Any]]]] = []
    for i, job in enumerate(jobs):
        try:
            ready.append((i, _prepare(entry, job)))
        except ProviderError as exc:
            results[i] = exc
    if ready:
        start = time.perf_counter()
        try:
            with torch.inference_mode():
                answers = MODES[jobs[0].mode](entry, [jobs[i] for i, _ in ready], [c for _, c in ready])
        except ProviderError:
            raise
        except Exception as exc:  # noqa: BLE001 - one clear line per failure
            if type(exc).__name__ == "OutOfMemoryError" and torch.cuda.is_available():
                torch.cuda.empty_cache()  # before the batcher retries the requests one by one
            raise ProviderError(_run_error(label, exc)) from None
        latency = time.perf_counter() - start
        for (i, _), response in zip(ready, answers):
            response.latency_s, response.cost = latency, 0.0
            response.details["batch_size"] = len(ready)
            results[i] = response
    return [r if r is not None else ProviderError(f"{label}: no answer") for r in results]


def _run_error(label: str, exc: Exception) -> str:
    if type(exc).__name__ == "OutOfMemoryError":
        return f"{label}: out of GPU memory (try a smaller model, options.dtype, options.batch_size, or fewer images)"
    return f"{label}: {type(exc).__name__}: {cut_text(str(exc))}"


# ---- requests → conversations ----------------------------------------------------------------------------------
def _prepare(entry: Any, job: Job) -> list[dict[str, Any]]:
    """The chat-template conversation of a job, after the checks its mode and family need (raised per job)."""
    request = job.request
    messages = request.messages
    if job.mode == "gd" and not request.labels:
        raise ProviderError(f"{job.label}: mode 'gd' needs answer labels (a multiple-choice, yes/no or label prompt; "
                            "not 'free')")
    if job.mode == "ps":
        if not request.question or not ps_options(request):
            raise ProviderError(f"{job.label}: mode 'ps' needs the question and the option texts (Request.question "
                                "and Request.options)")
        images = next((m.images() for m in reversed(messages) if m.role == "user"), ())
        prompt = TextPart(PS_PROMPT.format(q=request.question))
        messages = (Message("user", tuple(ImagePart(im) for im in images) + (prompt,)),)
    turns = conversation(entry, messages, job.label)
    entry.family.check(turns, job.label)
    return turns


def ps_options(request: Any) -> list[tuple[str, str]]:
    """``(label, option text)`` pairs scored in ``ps`` mode (yes/no items without options score their labels)."""
    options = tuple(request.options or ()) or tuple(request.labels)
    labels = list(request.labels) if len(request.labels) == len(options) else list(LETTERS[: len(options)])
    return list(zip(labels, options))


def conversation(entry: Any, messages: tuple[Message, ...], label: str) -> list[dict[str, Any]]:
    """Provider-neutral messages → the chat-template conversation (a system turn, or the system text folded into
    the first user text when the template has no system role)."""
    if not entry.system_checked:
        entry.system_style = entry.family.system_style(entry)
        entry.system_checked = True
    system = "\n\n".join(m.text() for m in messages if m.role == "system" and m.text())
    turns: list[dict[str, Any]] = []
    if system and entry.system_style == "parts":
        turns.append({"role": "system", "content": [{"type": "text", "text": system}]})
    elif system and entry.system_style == "string":
        turns.append({"role": "system", "content": system})
    fold = system if system and entry.system_style is None else ""
    for m in messages:
        if m.role == "system":
            continue
        parts: list[dict[str, Any]] = []
        for p in m.content:
            if isinstance(p, ImagePart):
                if not entry.takes_images:
                    raise ProviderError(f"{label}: this model takes no images (a text-only checkpoint)")
                parts.append({"type": "image", "image": p.image.pil().convert("RGB")})
            elif isinstance(p, TextPart):
                parts.append({"type": "text", "text": p.text})
        if fold and m.role == "user":
            texts = [i for i, p in enumerate(parts) if p["type"] == "text"]
            if texts:
                parts[texts[0]] = {"type": "text", "text": f"{fold}\n\n{parts[texts[0]]['text']}"}
            else:
                parts.append({"type": "text", "text": fold})
            fold = ""
        if not entry.takes_images:  # text-only templates often expect a plain string
            turns.append({"role": m.role, "content": "".join(p["text"] for p in parts)})
        else:
            turns.append({"role": m.role, "content": parts})
    return turns


def encode(entry: Any, conversations: list[list[dict[str, Any]]], label: str) -> Any:
    """The family's left-padded batch encoding, on the model's input device (floating tensors in its dtype)."""
    inputs = entry.family.encode(entry, conversations, label)
    try:
        return inputs.to(entry.input_device, dtype=entry.model.dtype)
    except (TypeError, ValueError):  # a tokenizer's BatchEncoding moves, it does not cast
        return inputs.to(entry.input_device)


# ---- generate --------------------------------------------------------------------------------------------------
def generate_or_constrain(entry: Any, jobs: list[Job], conversations: list[list[dict[str, Any]]]) -> list[Response]:
    """``generate`` mode: free requests are generated; structured ones (``--answer-format json``) are decoded under
    the constraint that the reply spell one of their labels (:mod:`~probe_ui.providers.hf.constrained`). One
    micro-batch may hold both; the answers come back in the jobs' order."""
    from probe_ui.providers import answer_format
    from probe_ui.providers.hf.constrained import constrained

    picked = [answer_format.structured(j.request) for j in jobs]
    out: list[Response | None] = [None] * len(jobs)
    for flag, answer in ((False, generate), (True, constrained)):
        rows = [i for i, p in enumerate(picked) if p is flag]
        if rows:
            for i, response in zip(rows, answer(entry, [jobs[i] for i in rows], [conversations[i] for i in rows])):
                out[i] = response
    return [r for r in out if r is not None]


def generate(entry: Any, jobs: list[Job], conversations: list[list[dict[str, Any]]]) -> list[Response]:
    from transformers import LogitsProcessorList

    settings = [j.request.settings for j in jobs]
    inputs = encode(entry, conversations, jobs[0].label)
    width = int(inputs["input_ids"].shape[1])
    kwargs: dict[str, Any] = {"max_new_tokens": max(s.max_tokens for s in settings), "do_sample": False,
                              "num_beams": 1, "max_time": float(min(s.timeout_s for s in settings))}
    if not all(s.deterministic for s in settings):
        kwargs["logits_processor"] = LogitsProcessorList([SeededSampler(settings)])
    gc = entry.model.generation_config
    # greedy here whatever the checkpoint's own sampling defaults say (they would only trigger warnings)
    for attr, neutral in (("temperature", 1.0), ("top_p", 1.0), ("top_k", 50)):
        if getattr(gc, attr, None) not in (None, neutral):
            kwargs[attr] = neutral
    eos_ids = end_ids(entry)
    if getattr(gc, "pad_token_id", None) is None:
        kwargs["pad_token_id"] = entry.tokenizer.pad_token_id if entry.tokenizer.pad_token_id is not None \
            else next(iter(sorted(eos_ids)), None)
    out = entry.model.generate(**inputs, **kwargs)
    responses = []
    for row, s in enumerate(settings):
        new = out[row, width:].tolist()[: s.max_tokens]
        stop = next((k for k, t in enumerate(new) if t in eos_ids), None)
        if stop is not None:
            new, finish = new[: stop + 1], "stop"
        elif len(new) >= s.max_tokens:
            finish = "length"
        else:
            finish = "time_limit"
        text = entry.tokenizer.decode(new, skip_special_tokens=True).strip()
        responses.append(Response(text=text, input_tokens=_prompt_tokens(inputs, row), output_tokens=len(new),
                                  finish_reason=finish))
    return responses


def end_ids(entry: Any) -> set[int]:
    """The token ids that end a reply: the checkpoint's ``eos_token_id`` (one id or several)."""
    eos = entry.model.generation_config.eos_token_id
    return set(eos if isinstance(eos, (list, tuple)) else [eos] if eos is not None else [])


class SeededSampler:
    """A logits processor that samples each sampled row's next token with that row's own ``torch.Generator`` and
    leaves only that token finite, so greedy decoding picks it; greedy rows pass through untouched. Seeded per
    request, independent of the global RNG, other threads and the other rows of its batch."""

    def __init__(self, settings: list[Any]) -> None:
        self.rows = [None if s.deterministic else (s.temperature, s.top_p, s.seed) for s in settings]
        self.generators: list[Any] = [None] * len(settings)

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch

        out = scores.clone()
        for row, spec in enumerate(self.rows):
            if spec is None:
                continue
            temperature, top_p, seed = spec
            if self.generators[row] is None:
                self.generators[row] = torch.Generator(device=scores.device)
                if seed is None:
                    self.generators[row].seed()
                else:
                    self.generators[row].manual_seed(int(seed))
            logits = scores[row : row + 1].float() / max(temperature, 1e-6)
            if top_p is not None and 0 < top_p < 1:
                sorted_logits, order = torch.sort(logits, descending=True, dim=-1)
                probs = torch.softmax(sorted_logits, dim=-1)
                drop = probs.cumsum(dim=-1) - probs > top_p  # keep the smallest set reaching top_p (>= 1 token)
                sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
                logits = torch.full_like(logits, float("-inf")).scatter(-1, order, sorted_logits)
            chosen = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1, generator=self.generators[row])
            out[row : row + 1] = torch.full_like(scores[row : row + 1], float("-inf")).scatter(-1, chosen, 0.0)
        return out


# ---- gd / ps ---------------------------------------------------------------------------------------------------
def gd(entry: Any, jobs: list[Job], conversations: list[list[dict[str, Any]]]) -> list[Response]:
    """Greedy-decoding probe (docs/reference.md §3): each label's probability as the next token, best spelling."""
    rows: list[tuple[list[dict[str, Any]], list[int]]] = []
    plans = []  # per job: its next-token row, and (label, spelling, ids, row or None) per spelling
    for job, conv in zip(jobs, conversations):
        base = len(rows)
        rows.append((conv, []))
        spellings = []
        for label in job.request.labels:
            for variant in label_variants(label):
                ids = entry.tokenizer.encode(variant, add_special_tokens=False)
                if not ids:
                    continue
                if len(ids) > 1:  # several tokens: the product of their probabilities, from its own row
                    rows.append((conv, ids))
                spellings.append((label, variant, ids, len(rows) - 1 if len(ids) > 1 else None))
        plans.append((base, spellings))
    scored = score_rows(entry, rows, jobs[0])
    responses = []
    for job, (base, spellings) in zip(jobs, plans):
        labels = list(job.request.labels)
        next_logp, _, n_in = scored[base]
        best: dict[str, float] = {}
        chosen: dict[str, str] = {}
        for label, variant, ids, row in spellings:
            lp = float(next_logp[ids[0]]) if row is None else sum(scored[row][1])
            if label not in best or lp > best[label]:
                best[label], chosen[label] = lp, variant
        if not best:
            raise ProviderError(f"{job.label}: none of the labels {labels} can be tokenized")
        probs = _normalise({k: best.get(k, float("-inf")) for k in labels})
        responses.append(Response(text=max(labels, key=lambda k: probs[k]), input_tokens=n_in, output_tokens=0,
                                  finish_reason="stop",
                                  details={"option_probs": probs, "label_mass": sum(math.exp(v) for v in best.values()),
                                           "label_tokens": chosen}))
    return responses


def ps(entry: Any, jobs: list[Job], conversations: list[list[dict[str, Any]]]) -> list[Response]:
    """Prefix scoring (docs/reference.md §3): each option text's length-normalised likelihood after the PS prompt."""
    rows: list[tuple[list[dict[str, Any]], list[int]]] = []
    plans = []
    for job, conv in zip(jobs, conversations):
        options = ps_options(job.request)
        for label, text in options:
            ids = entry.tokenizer.encode(text, add_special_tokens=False)
            if not ids:
                raise ProviderError(f"{job.label}: option {label} ('{text}') has no tokens to score")
            rows.append((conv, ids))
        plans.append((len(rows) - len(options), options))
    scored = score_rows(entry, rows, jobs[0])
    responses = []
    for job, (first, options) in zip(jobs, plans):
        means: dict[str, float] = {}
        lengths: dict[str, int] = {}
        for k, (label, _) in enumerate(options):
            lps = scored[first + k][1]
            means[label], lengths[label] = sum(lps) / len(lps), len(lps)
        question = job.request.question
        responses.append(Response(text=max(means, key=lambda k: means[k]), input_tokens=scored[first][2],
                                  output_tokens=0, finish_reason="stop",
                                  details={"option_probs": _normalise(means), "option_logprob_mean": means,
                                           "option_tokens": lengths, "ps_prompt": PS_PROMPT.format(q=question)}))
    return responses


def score_rows(entry: Any, rows: list[tuple[list[dict[str, Any]], list[int]]],
               job: Job) -> list[tuple[Any, list[float], int]]:
    """For each (conversation, continuation ids) row: the next-token log-probabilities after the prompt (a vocab
    vector, for rows without continuation; else None), log P(ids[j] | prompt, ids[:j]) for each j, and the
    prompt's length in tokens. Rows run in chunks of
    the job's ``batch_size``, one forward pass each."""
    import torch

    out: list[tuple[Any, list[float], int]] = []
    step = max(1, job.batch_size)
    for start in range(0, len(rows), step):
        chunk = rows[start : start + step]
        inputs = encode(entry, [c for c, _ in chunk], job.label)
        continuations = [ids for _, ids in chunk]
        longest = max(len(ids) for ids in continuations)
        extended = _extend(inputs, continuations, _pad_id(entry), entry.family.continuation_type_ids)
        logp = torch.log_softmax(first_step_logits(entry.model, extended, longest + 1).float(), dim=-1)
        for row, ids in enumerate(continuations):
            taken = [float(logp[row, j, t]) for j, t in enumerate(ids)]
            # the next-token vector is kept only where it is read (a row without continuation: gd's prompt row)
            out.append((None if ids else logp[row, 0].clone(), taken, _prompt_tokens(inputs, row)))
    return out


def first_step_logits(model: Any, inputs: dict[str, Any], keep: int) -> Any:
    """Logits of the last ``keep`` positions of every row, shape (rows, keep, vocab), from one forward pass
    prepared as the first step of ``generate`` prepares it (position ids that follow the left padding, Qwen's
    M-RoPE, PaliGemma's 1-based positions, ...)."""
    kwargs = dict(inputs)
    input_ids = kwargs.pop("input_ids")
    try:
        prepare_positions = getattr(model, "_prepare_position_ids_for_generation", None)
        if prepare_positions is not None and "attention_mask" in kwargs and "position_ids" not in kwargs:
            kwargs["position_ids"] = prepare_positions(input_ids, {"input_ids": input_ids, **kwargs})
        model_inputs = model.prepare_inputs_for_generation(input_ids, is_first_iteration=True, use_cache=False,
                                                           **kwargs)
    except (AttributeError, TypeError):  # remote code without generation's helpers: a plain forward pass
        model_inputs = dict(inputs, use_cache=False)
    try:
        logits = model(**model_inputs, logits_to_keep=keep).logits
    except TypeError:  # remote code without logits_to_keep
        logits = model(**model_inputs).logits
    return logits[:, -keep:]


def _extend(inputs: Any, continuations: list[list[int]], pad_id: int, type_ids: dict[str, int]) -> dict[str, Any]:
    """The encoded prompts with each row's continuation appended on the right and right-padded to the longest:
    input_ids grow by the ids (then padding), attention_mask by ones (then zeros), and any other per-token integer
    tensor (token_type_ids, mm_token_type_ids) by the family's value for text (then zeros)."""
    import torch

    input_ids = inputs["input_ids"]
    rows, width = input_ids.shape
    longest = max(len(ids) for ids in continuations)
    if longest == 0:
        return dict(inputs)
    add = torch.full((rows, longest), pad_id, dtype=input_ids.dtype, device=input_ids.device)
    real = torch.zeros((rows, longest), dtype=torch.bool, device=input_ids.device)
    for row, ids in enumerate(continuations):
        add[row, : len(ids)] = torch.tensor(ids, dtype=input_ids.dtype)
        real[row, : len(ids)] = True
    out = dict(inputs)
    for k, v in inputs.items():
        if not (torch.is_tensor(v) and v.dim() == 2 and tuple(v.shape) == (rows, width)
                and not torch.is_floating_point(v)):
            continue
        if k == "input_ids":
            out[k] = torch.cat([v, add], dim=1)
        elif k == "attention_mask":
            out[k] = torch.cat([v, real.to(v.dtype)], dim=1)
        else:
            out[k] = torch.cat([v, (real * type_ids.get(k, 0)).to(v.dtype)], dim=1)
    return out


def _pad_id(entry: Any) -> int:
    pad = entry.tokenizer.pad_token_id
    return int(pad) if pad is not None else 0


def _prompt_tokens(inputs: Any, row: int) -> int:
    """Tokens of a row's prompt, padding excluded."""
    mask = inputs.get("attention_mask") if hasattr(inputs, "get") else None
    if mask is None:
        return int(inputs["input_ids"].shape[1])
    return int(mask[row].sum())


def label_variants(label: str) -> list[str]:
    """The spellings of a label a model may use as its next token: as is and after a space; words also
    capitalised / lower-cased ("Yes", "yes")."""
    forms = [label]
    if len(label) > 1:
        forms += [label[0].upper() + label[1:], label.lower()]
    out: list[str] = []
    for f in forms:
        for v in (f, " " + f):
            if v not in out:
                out.append(v)
    return out


def _normalise(logps: dict[str, float]) -> dict[str, float]:
    """exp(logp) normalised to sum to 1 (a softmax over the log-probabilities)."""
    top = max(logps.values())
    if top == float("-inf"):
        return {k: 1.0 / len(logps) for k in logps}
    weights = {k: math.exp(v - top) for k, v in logps.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


#: mode → the function that answers a micro-batch of it
MODES: dict[str, Callable[[Any, list[Job], list[list[dict[str, Any]]]], list[Response]]] = {
    "generate": generate_or_constrain, "gd": gd, "ps": ps,
}
