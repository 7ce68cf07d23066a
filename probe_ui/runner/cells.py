"""A batch's unit of work, the cell (one variant x model x sample), and the rows a cell stores: the exact request
sent (images by hash), its settings, the reply and its robust reading."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from probe_ui import catalogue, prompts
from probe_ui.items import Variant
from probe_ui.messages import GenerationSettings, ImagePart, Request, Response
from probe_ui.providers.answer_format import STRUCTURED_MIN_TOKENS
from probe_ui.providers.base import ModelConfig
from probe_ui.security import redact


@dataclass
class Cell:
    variant: Variant
    model: ModelConfig
    request: Request

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.variant.id, self.model.name, self.request.prompt, self.request.sample)


def generation_settings(model: ModelConfig, template: prompts.Template, seed: int,
                        temperature: float | None = None, answer_format: str = "free") -> GenerationSettings:
    """A cell's settings: the catalogue's, this batch's temperature, and its answer format (a structured answer
    gets at least :data:`~probe_ui.providers.answer_format.STRUCTURED_MIN_TOKENS` unless the catalogue says)."""
    g = model.generation
    # a structured answer, or an answer with its confidence line, needs more room than a letter
    budget = max(template.max_tokens, STRUCTURED_MIN_TOKENS) if answer_format != "free" else template.max_tokens
    return GenerationSettings(
        temperature=float(g.get("temperature", 0.0) if temperature is None else temperature),
        max_tokens=int(g.get("max_tokens", budget)),
        top_p=g.get("top_p"),
        seed=seed,
        timeout_s=float(g.get("timeout_s", 120.0)),
        stream=bool(g.get("stream", False)),
        answer_format=answer_format,
    )


def plan_cells(vs: list[Variant], models: list[ModelConfig], prompt: str | None, seed: int,
               prompt_per_source: dict[str, str | None] | None = None, samples: int = 1,
               temperature: float | None = None, answer_format: str = "free") -> list[Cell]:
    """One cell per variant x model x sample (sampling: n answers at temperature T, scored by majority vote)."""
    return [c for v in vs for c in variant_cells(v, models, prompt, seed, prompt_per_source, samples, temperature,
                                                 answer_format)]


def variant_cells(v: Variant, models: list[ModelConfig], prompt: str | None, seed: int,
                  prompt_per_source: dict[str, str | None] | None = None, samples: int = 1,
                  temperature: float | None = None, answer_format: str = "free") -> Iterator[Cell]:
    """The cells of one variant (see :func:`plan_cells`). ``answer_format`` "json" asks for a structured answer
    where the prompt offers labels; a free-text prompt (template ``free``, items of kind free) stays free."""
    requested = prompt or (prompt_per_source or {}).get(v.source)
    template = prompts.template_for(v, requested)
    fmt = answer_format if template.name != "free" and v.labels else "free"
    for m in models:
        settings = generation_settings(m, template, seed, temperature, fmt)
        for k in range(samples):
            yield Cell(v, m, prompts.render(v, template.name, settings, sample=k))


def unusable_rows(run_id: int, variants: list[Variant], unusable: dict[str, str], prompt: str | None, seed: int,
                  extra: dict[str, ModelConfig] | None = None) -> list[tuple[Cell, dict[str, Any]]]:
    """The failed calls of models that could not be asked (no key, no server, an unknown name), one per variant:
    each a stored row whose ``error`` is the reason, with the request it would have sent, so that the run's
    tables, its redraws and the Results tab show those failures like any other (``failed calls``)."""
    try:
        cat = catalogue.load_catalogue() | dict(extra or {})
    except ValueError:
        cat = dict(extra or {})
    out = []
    for spec, reason in unusable.items():
        try:
            cfg = replace(catalogue.resolve(spec, cat), name=spec)
        except (ValueError, ImportError):
            provider, _, model = spec.partition("/")
            cfg = ModelConfig(name=spec, provider=provider or "unknown", model=model or spec)
        for cell in plan_cells(variants, [cfg], prompt, seed):
            out.append((cell, response_row(run_id, cell, Response(error=reason))))
    return out


def score_response(v: Variant, req: Request, resp: Response, model: ModelConfig | None = None) -> dict[str, Any]:
    """Parse and grade one response (robust extraction), stamped with the parser's version: the cache of the
    robust reading that :func:`probe_ui.scoring.scored_answers` reuses. Error responses get no parse. A point
    item's reply is read as coordinates in ``model``'s convention, in the image ``req`` sent
    (:func:`probe_ui.reading.pointing.read_answer`)."""
    if resp.error is not None:
        return {"parsed": None, "method": None, "invalid": None, "refusal": None, "sure": None, "correct": None,
                "parse_version": None}
    if v.kind == "point" and req.prompt != "free":
        return score_point(v, req, resp.text, model)
    from probe_ui.reading import answers  # the reader: imported by the planning thread meanwhile (BatchPlan)

    kind = "free" if req.prompt == "free" else v.kind
    return answers.cache_row(resp.text, kind, v.labels, v.options, v.answer_label if kind != "free" else None,
                             question=v.question, suggested=v.suggested)


def score_point(v: Variant, req: Request, text: str | None, model: ModelConfig | None) -> dict[str, Any]:
    """A point item's reading: the reply's coordinates, in the model's convention, in the first image sent, scaled
    back to the item image's pixels where its region is."""
    from probe_ui.perturb.regions import regions_of
    from probe_ui.reading.pointing import convention_of, read_answer

    sent = next((p.image for m in req.messages for p in m.content if isinstance(p, ImagePart)), None)
    own = v.images[0] if v.images else None
    if sent is None or own is None:  # asked without its image (the no-image control): the point is on nothing, so
        sent = own = None            # it is neither right nor wrong, and never counted as a reading
    size = (own.width, own.height) if own is not None else (0, 0)
    sent_size = (sent.width, sent.height) if sent is not None else size
    return read_answer(text, convention_of(model.options if model is not None else None), sent_size, size,
                       [list(b) for b in regions_of(v)])


def response_row(run_id: int, cell: Cell, resp: Response, sent: Request | None = None) -> dict[str, Any]:
    """The stored row: the exact request sent (images by hash, after any resize), settings, reply and its parse."""
    row = {**call_row(run_id, cell.variant.id, cell.model, sent or cell.request, resp),
           **score_response(cell.variant, sent or cell.request, resp, cell.model)}
    if cell.variant.kind == "point":  # how its coordinates were read, kept with the answer (the model may change)
        from probe_ui.reading.pointing import OPTION, convention_of

        row["settings"] = {**row["settings"], OPTION: convention_of(cell.model.options)}
    return row


def call_row(run_id: int, variant_id: str, m: ModelConfig, req: Request, resp: Response) -> dict[str, Any]:
    """What is stored of any call, answer or judge: the exact request (images by hash), settings, the reply."""
    settings = dict(req.settings.to_dict(), provider=m.provider, model=m.model,
                    base_url=redact.public_url(list(m.base_url) if isinstance(m.base_url, tuple) else m.base_url))
    return {
        "run_id": run_id, "variant_id": variant_id, "model": m.name, "prompt": req.prompt,
        "sample": req.sample, "request_hash": req.cache_key(m.provider, m.model, m.options, m.base_url),
        "messages": req.rendered(), "settings": settings, "raw_text": resp.text,
        "latency_s": resp.latency_s, "input_tokens": resp.input_tokens, "output_tokens": resp.output_tokens,
        "cost": resp.cost, "error": resp.error, "finish_reason": resp.finish_reason, "details": resp.details or None,
    }


def shard_of(cell: Cell, n: int) -> int:
    """Which of n shards a cell belongs to: a stable hash of its key, the same on every machine."""
    import hashlib

    key = "\x1f".join(map(str, cell.key)).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % n
