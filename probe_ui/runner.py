"""Batch fan-out: presets × models → stored, scored responses.

All models for a variant are asked concurrently, each model behind its own concurrency limit; a failing call
becomes an error cell while the others complete. Every finished response is written immediately, so a killed
batch loses nothing, and cells already answered are skipped when the batch runs again.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from tqdm import tqdm

from probe_ui import answers, catalogue, prompts
from probe_ui.items import Variant
from probe_ui.presets import Preset
from probe_ui.providers import create
from probe_ui.providers.base import GenerationSettings, ModelConfig, Provider, ProviderError, Request, Response
from probe_ui.store import Run, Store
from probe_ui.suites import ItemError, SuiteError, expand, get_suite


class BatchError(RuntimeError):
    """The batch cannot start (unknown or unusable model, bad settings); nothing was run."""


@dataclass
class Cell:
    variant: Variant
    model: ModelConfig
    request: Request

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.variant.id, self.model.name, self.request.prompt, self.request.sample)


@dataclass
class BatchResult:
    run: Run
    variants: int = 0
    planned: int = 0
    skipped: int = 0
    answered: int = 0
    errors: int = 0
    item_errors: list[ItemError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error_messages: list[str] = field(default_factory=list)


def default_run_name(presets: list[Preset], seed: int, suites: tuple[str, ...] | list[str] = ()) -> str:
    """Deterministic, so that running the same batch again resumes it instead of starting over."""
    return "+".join(p.name for p in presets) + "".join(f"+{s}" for s in suites) + f"-seed{seed}"


def resolve_models(specs: list[str]) -> list[ModelConfig]:
    """Resolve and check every model before any work starts; raise BatchError naming the first problem."""
    if not specs:
        raise BatchError("no model given: add --model SPEC (e.g. --model baseline/random); see 'probe-ui models'")
    cat = catalogue.load_catalogue()
    configs = []
    for spec in specs:
        try:
            cfg = catalogue.resolve(spec, cat)
            create(cfg)  # validates the model part (e.g. an unknown baseline)
        except ValueError as exc:
            raise BatchError(str(exc)) from None
        reason = catalogue.availability(cfg)
        if reason:
            raise BatchError(f"model '{spec}' is not usable here: {reason}")
        if cfg.name in {c.name for c in configs}:
            continue
        configs.append(cfg)
    return configs


def generation_settings(model: ModelConfig, template: prompts.Template, seed: int) -> GenerationSettings:
    g = model.generation
    return GenerationSettings(
        temperature=float(g.get("temperature", 0.0)),
        max_tokens=int(g.get("max_tokens", template.max_tokens)),
        top_p=g.get("top_p"),
        seed=seed,
        timeout_s=float(g.get("timeout_s", 120.0)),
        stream=bool(g.get("stream", False)),
    )


def plan_cells(vs: list[Variant], models: list[ModelConfig], prompt: str | None, seed: int,
               prompt_per_source: dict[str, str | None] | None = None) -> list[Cell]:
    cells = []
    for v in vs:
        requested = prompt or (prompt_per_source or {}).get(v.source)
        template = prompts.template_for(v, requested)
        for m in models:
            req = prompts.render(v, template.name, generation_settings(m, template, seed))
            cells.append(Cell(v, m, req))
    return cells


def score_response(v: Variant, req: Request, resp: Response) -> dict[str, Any]:
    """Parse and grade one response (robust extraction); error responses get no parse."""
    if resp.error is not None:
        return {"parsed": None, "method": None, "invalid": None, "refusal": None, "correct": None}
    kind = "free" if req.prompt == "free" else v.kind
    ans = answers.extract(resp.text, kind, v.labels, v.options)
    return {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
            "correct": answers.is_correct(ans, v.answer_label if kind != "free" else None)}


def response_row(run_id: int, cell: Cell, resp: Response) -> dict[str, Any]:
    m = cell.model
    settings = dict(cell.request.settings.to_dict(), provider=m.provider, model=m.model,
                    base_url=list(m.base_url) if isinstance(m.base_url, tuple) else m.base_url)
    return {
        "run_id": run_id, "variant_id": cell.variant.id, "model": m.name, "prompt": cell.request.prompt,
        "sample": cell.request.sample, "request_hash": cell.request.cache_key(m.provider, m.model),
        "messages": cell.request.rendered(), "settings": settings, "raw_text": resp.text,
        "latency_s": resp.latency_s, "input_tokens": resp.input_tokens, "output_tokens": resp.output_tokens,
        "cost": resp.cost, "error": resp.error, "finish_reason": resp.finish_reason, "details": resp.details or None,
        **score_response(cell.variant, cell.request, resp),
    }


async def ask(provider: Provider, request: Request) -> Response:
    """One call with a hard timeout; every failure becomes an error response, never an exception."""
    t0 = time.perf_counter()
    limit = request.settings.timeout_s
    try:
        resp = await asyncio.wait_for(provider.generate(request), timeout=limit * 3 + 5)
    except asyncio.TimeoutError:
        resp = Response(error=f"{provider.config.name}: no answer within {limit * 3 + 5:.0f} s")
    except ProviderError as exc:
        resp = Response(error=str(exc))
    except Exception as exc:  # a provider bug must not take the batch down
        resp = Response(error=f"{provider.config.name}: {exc.__class__.__name__}: {exc}")
    if not resp.latency_s:
        resp.latency_s = time.perf_counter() - t0
    return resp


async def _execute(store: Store, run: Run, cells: list[Cell], concurrency: int | None,
                   on_result: Callable[[Cell, Response], None]) -> None:
    providers: dict[str, Provider] = {}
    limits: dict[str, asyncio.Semaphore] = {}
    for c in cells:
        if c.model.name not in providers:
            p = create(c.model)
            providers[c.model.name] = p
            limits[c.model.name] = asyncio.Semaphore(concurrency or c.model.concurrency or p.default_concurrency)

    async def one(cell: Cell) -> None:
        async with limits[cell.model.name]:
            resp = await ask(providers[cell.model.name], cell.request)
        store.save_response(response_row(run.id, cell, resp))
        on_result(cell, resp)

    try:
        await asyncio.gather(*(one(c) for c in cells))
    finally:
        for p in providers.values():
            await p.aclose()


def run_batch(store: Store, presets: list[Preset], model_specs: list[str], *, run_name: str | None = None,
              seed: int = 0, concurrency: int | None = None, prompt: str | None = None,
              suites: tuple[str, ...] | list[str] = (), progress: bool = True) -> BatchResult:
    """Run (or resume) a batch; returns counts. Raises BatchError before doing anything if a model is unusable."""
    if prompt is not None and prompt not in prompts.TEMPLATES:
        raise BatchError(f"unknown prompt template '{prompt}'; known: {', '.join(prompts.TEMPLATES)}")
    for s in suites:
        try:
            get_suite(s)
        except SuiteError as exc:
            raise BatchError(str(exc)) from None
    models = resolve_models(model_specs)
    name = run_name or default_run_name(presets, seed, suites)
    settings = {
        "presets": [{"name": p.name, "path": p.path, "sha256": p.sha256} for p in presets],
        "models": [_public_config(m) for m in models],
        "prompt": prompt, "concurrency": concurrency, "seed": seed, "suites": list(suites),
    }
    run = store.ensure_run(name, seed, settings)
    result = BatchResult(run=run)
    all_variants: list[Variant] = []
    for p in presets:
        ex = expand(p, seed, suites)
        store.add_variants(run.id, ex.variants)
        for e in ex.errors:
            store.record_item_error(run.id, e.source, e.item_id, e.message)
        store.clear_item_errors(run.id, p.path, {v.item_id for v in ex.variants} - {e.item_id for e in ex.errors})
        result.item_errors.extend(ex.errors)
        result.warnings.extend(ex.warnings)
        all_variants.extend(ex.variants)
    result.variants = len(all_variants)
    cells = plan_cells(all_variants, models, prompt, seed, {p.path: p.prompt for p in presets})
    done = store.done_cells(run.id)
    todo = [c for c in cells if c.key not in done]
    result.planned, result.skipped = len(cells), len(cells) - len(todo)

    bar = tqdm(total=len(cells), initial=result.skipped, unit="answer", desc=name, disable=not progress,
               dynamic_ncols=True)

    def on_result(cell: Cell, resp: Response) -> None:
        if resp.error is None:
            result.answered += 1
        else:
            result.errors += 1
            if len(result.error_messages) < 20:
                result.error_messages.append(f"{cell.model.name} on {cell.variant.item_id}: {resp.error}")
        bar.update(1)
        bar.set_postfix(errors=result.errors, refresh=False)

    try:
        if todo:
            asyncio.run(_execute(store, run, todo, concurrency, on_result))
    finally:
        bar.close()
        store.touch_run(run.id)
    return result


def _public_config(m: ModelConfig) -> dict[str, Any]:
    """What a run records about a model: everything but secrets (only the key's variable name)."""
    return {"name": m.name, "provider": m.provider, "model": m.model,
            "base_url": list(m.base_url) if isinstance(m.base_url, tuple) else m.base_url,
            "api_key_env": m.api_key_env, "generation": m.generation}
