"""Batch fan-out: presets × models → stored, scored responses.

All models for a variant are asked concurrently, each model behind its own concurrency limit; a failing call
becomes an error cell while the others complete. Every finished response is written immediately, so a killed
batch loses nothing, and cells already answered are skipped when the batch runs again.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from tqdm import tqdm

from probe_ui import answers, catalogue, prompts, redact
from probe_ui.errors import ProbeUIError
from probe_ui.items import Variant
from probe_ui.presets import Preset
from probe_ui.providers import create
from probe_ui.judge import MEDICONFUSION_TEMPERATURE, judge_request, needs_judge, parse_judgement
from probe_ui.judge import MODES as JUDGE_MODES
from probe_ui.providers.base import (
    GenerationSettings,
    ImagePart,
    ModelConfig,
    Provider,
    ProviderError,
    Request,
    Response,
    fit_images,
)
from probe_ui.store import Run, Store
from probe_ui.suites import ItemError, SuiteError, expand, get_suite


class BatchError(ProbeUIError, RuntimeError):
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
    cancelled: bool = False

    @property
    def remaining(self) -> int:
        """Cells still to do (cancelled, or failed with an error): running the batch again asks these."""
        return self.planned - self.skipped - self.answered


def default_run_name(presets: list[Preset], seed: int, suites: tuple[str, ...] | list[str] = ()) -> str:
    """Deterministic, so that running the same batch again resumes it instead of starting over."""
    return "+".join(p.name for p in presets) + "".join(f"+{s}" for s in suites) + f"-seed{seed}"


def resolve_each(specs: list[str], extra: dict[str, ModelConfig] | None = None
                 ) -> tuple[list[ModelConfig], dict[str, str]]:
    """Resolve and check every model: the usable ones, and for each one that is not, the reason in words (an
    unknown name, a missing key variable, a server that is not running, an extra that is not installed).

    ``extra`` adds entries to the catalogue for this call (endpoints added in the app, with their in-memory key).
    """
    try:
        cat = catalogue.load_catalogue() | dict(extra or {})
    except ValueError as exc:
        raise BatchError(str(exc)) from None
    configs: list[ModelConfig] = []
    unusable: dict[str, str] = {}
    for spec in specs:
        try:
            cfg = catalogue.resolve(spec, cat)
            create(cfg)  # validates the model part (e.g. an unknown baseline)
        except ValueError as exc:
            unusable[spec] = str(exc)
            continue
        reason = catalogue.availability(cfg)
        if reason:
            unusable[spec] = f"model '{spec}' is not usable here: {reason}"
        elif cfg.name not in {c.name for c in configs}:
            configs.append(cfg)
    return configs, unusable


def resolve_models(specs: list[str], extra: dict[str, ModelConfig] | None = None) -> list[ModelConfig]:
    """Resolve and check every model before any work starts; raise BatchError naming the first problem."""
    if not specs:
        raise BatchError("no model given: add --model SPEC (e.g. --model baseline/random); see 'probe-ui models'")
    configs, unusable = resolve_each(specs, extra)
    if unusable:
        raise BatchError(next(iter(unusable.values())))
    return configs


def generation_settings(model: ModelConfig, template: prompts.Template, seed: int,
                        temperature: float | None = None) -> GenerationSettings:
    g = model.generation
    return GenerationSettings(
        temperature=float(g.get("temperature", 0.0) if temperature is None else temperature),
        max_tokens=int(g.get("max_tokens", template.max_tokens)),
        top_p=g.get("top_p"),
        seed=seed,
        timeout_s=float(g.get("timeout_s", 120.0)),
        stream=bool(g.get("stream", False)),
    )


def plan_cells(vs: list[Variant], models: list[ModelConfig], prompt: str | None, seed: int,
               prompt_per_source: dict[str, str | None] | None = None, samples: int = 1,
               temperature: float | None = None) -> list[Cell]:
    """One cell per variant x model x sample (sampling: n answers at temperature T, scored by majority vote)."""
    cells = []
    for v in vs:
        requested = prompt or (prompt_per_source or {}).get(v.source)
        template = prompts.template_for(v, requested)
        for m in models:
            settings = generation_settings(m, template, seed, temperature)
            for k in range(samples):
                cells.append(Cell(v, m, prompts.render(v, template.name, settings, sample=k)))
    return cells


def score_response(v: Variant, req: Request, resp: Response) -> dict[str, Any]:
    """Parse and grade one response (robust extraction), stamped with the parser's version: the cache of the
    robust reading that :func:`probe_ui.scoring.scored_answers` reuses. Error responses get no parse."""
    if resp.error is not None:
        return {"parsed": None, "method": None, "invalid": None, "refusal": None, "correct": None,
                "parse_version": None}
    kind = "free" if req.prompt == "free" else v.kind
    return answers.cache_row(resp.text, kind, v.labels, v.options, v.answer_label if kind != "free" else None,
                             question=v.question)


def response_row(run_id: int, cell: Cell, resp: Response, sent: Request | None = None) -> dict[str, Any]:
    """The stored row: the exact request sent (images by hash, after any resize), settings, reply and its parse."""
    m, req = cell.model, sent or cell.request
    settings = dict(req.settings.to_dict(), provider=m.provider, model=m.model,
                    base_url=redact.public_url(list(m.base_url) if isinstance(m.base_url, tuple) else m.base_url))
    return {
        "run_id": run_id, "variant_id": cell.variant.id, "model": m.name, "prompt": req.prompt,
        "sample": req.sample, "request_hash": req.cache_key(m.provider, m.model, m.options),
        "messages": req.rendered(), "settings": settings, "raw_text": resp.text,
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


@dataclass
class Judge:
    model: ModelConfig
    mode: str = "mediconfusion"


class ProviderPool:
    """Providers created once and reused across calls, with one concurrency limit per API provider.

    A local model (``default_concurrency`` 1, or ``limit_per_model``: an in-process model) gets a limit of its own.
    """

    def __init__(self, concurrency: int | None = None) -> None:
        self.concurrency = concurrency
        self.providers: dict[str, Provider] = {}
        self.limits: dict[str, asyncio.Semaphore] = {}

    def get(self, model: ModelConfig) -> tuple[Provider, asyncio.Semaphore]:
        if model.name not in self.providers:
            p = self.providers[model.name] = create(model)
            key = model.name if p.default_concurrency == 1 or getattr(p, "limit_per_model", False) else model.provider
            if key not in self.limits:
                self.limits[key] = asyncio.Semaphore(self.concurrency or model.concurrency or p.default_concurrency)
            self.limits[model.name] = self.limits[key]
        return self.providers[model.name], self.limits[model.name]

    async def aclose(self) -> None:
        for p in self.providers.values():
            await p.aclose()
        self.providers.clear()
        self.limits.clear()


async def execute_cells(store: Store, run: Run, cells: list[Cell], pool: ProviderPool,
                        on_result: Callable[[Cell, Response], None], *, use_cache: bool = True,
                        judge: Judge | None = None, cancel: threading.Event | None = None) -> None:
    """Ask every cell concurrently (within the pool's limits), storing each response as soon as it arrives.

    Once ``cancel`` is set, cells not yet sent are skipped (and stay to do); answers in flight are still kept.
    """

    async def call(model: ModelConfig, request: Request) -> tuple[Request, Response]:
        provider, limit = pool.get(model)
        sent, resized = fit_images(request, model.max_image_side or provider.max_image_side)
        for im in {p.image.id: p.image for m in sent.messages for p in m.content if isinstance(p, ImagePart)}.values():
            store.put_image(im)  # the exact pixels sent, resized or not, are kept
        cached = None
        if use_cache and sent.settings.deterministic and sent.sample == 0:
            cached = store.cached_response(sent.cache_key(model.provider, model.model, model.options))
        if cached is not None:
            resp = Response(text=cached["raw_text"] or "", latency_s=0.0, input_tokens=cached["input_tokens"],
                            output_tokens=cached["output_tokens"], cost=0.0, finish_reason=cached["finish_reason"],
                            details={"cached_from": cached["id"], "cached_cost": cached["cost"]})
        else:
            async with limit:
                if cancel is not None and cancel.is_set():
                    raise asyncio.CancelledError
                resp = await ask(provider, sent)
        if resized:
            resp.details = dict(resp.details, resized=resized)
        return sent, resp

    async def one(cell: Cell) -> None:
        if cancel is not None and cancel.is_set():
            return
        sent, resp = await call(cell.model, cell.request)
        row = response_row(run.id, cell, resp, sent)
        store.save_response(row)
        if judge is not None and resp.error is None and needs_judge(judge.mode, cell.variant, sent.prompt,
                                                                     row["invalid"]):
            await judge_one(cell, resp)
        on_result(cell, resp)

    async def judge_one(cell: Cell, resp: Response) -> None:
        assert judge is not None
        temperature = MEDICONFUSION_TEMPERATURE if judge.mode == "mediconfusion" else 0.0
        settings = GenerationSettings(temperature=temperature, max_tokens=256, seed=run.seed,
                                      timeout_s=float(judge.model.generation.get("timeout_s", 120.0)))
        req = judge_request(judge.mode, cell.variant, resp.text, settings)
        req = replace(req, sample=cell.request.sample)
        parent = store.response_id(run.id, cell.variant.id, cell.model.name, cell.request.prompt,
                                   cell.request.sample)
        jcell = Cell(cell.variant, judge.model, req)
        sent, jresp = await call(judge.model, req)
        jrow = response_row(run.id, jcell, jresp, sent)
        jrow["prompt"] = f"judge-{judge.mode}:{cell.model.name}:{cell.request.prompt}"
        if jresp.error is None:
            ans = parse_judgement(judge.mode, jresp.text, req.labels)
            parse = {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid,
                     "correct": answers.is_correct(ans, cell.variant.answer_label)}
            jrow.update(parse)  # the judge's reading lives on its own row; the answer keeps the robust one
        store.save_response(dict(jrow, role="judge", parent_id=parent))

    async def guarded(cell: Cell) -> None:
        try:
            await one(cell)
        except asyncio.CancelledError:
            if cancel is None or not cancel.is_set():
                raise

    await asyncio.gather(*(guarded(c) for c in cells))


async def _execute(store: Store, run: Run, cells: list[Cell], concurrency: int | None,
                   on_result: Callable[[Cell, Response], None], *, use_cache: bool = True,
                   judge: Judge | None = None, cancel: threading.Event | None = None) -> None:
    pool = ProviderPool(concurrency)
    try:
        await execute_cells(store, run, cells, pool, on_result, use_cache=use_cache, judge=judge, cancel=cancel)
    finally:
        await pool.aclose()


def run_batch(store: Store, presets: list[Preset], model_specs: list[str], *, run_name: str | None = None,
              seed: int = 0, concurrency: int | None = None, prompt: str | None = None,
              suites: tuple[str, ...] | list[str] = (), samples: int = 1, temperature: float | None = None,
              judge: str | None = None, judge_mode: str = "mediconfusion", use_cache: bool = True,
              progress: bool = True, extra_models: dict[str, ModelConfig] | None = None,
              on_progress: Callable[[int, int, BatchResult], None] | None = None,
              cancel: threading.Event | None = None, shard: tuple[int, int] | None = None) -> BatchResult:
    """Run (or resume) a batch; returns counts. Raises BatchError before doing anything if a model is unusable.

    ``on_progress(done, total, result)`` is called after every answer (the app's progress bar); setting ``cancel``
    stops sending new requests: what was answered is kept and running the batch again resumes it.
    ``shard=(i, n)`` asks only the i-th of n disjoint parts of the cells (1-based), so n machines writing to one
    database share a batch; every shard plans the same cells, so the parts together are the whole batch.
    """
    if shard is not None:
        i, n = shard
        if not (n >= 1 and 1 <= i <= n):
            raise BatchError(f"--shard {i}/{n}: give i/n with 1 <= i <= n, e.g. --shard 2/4")
    if prompt is not None and prompt not in prompts.TEMPLATES:
        raise BatchError(f"unknown prompt template '{prompt}'; known: {', '.join(prompts.TEMPLATES)}")
    for s in suites:
        try:
            get_suite(s)
        except SuiteError as exc:
            raise BatchError(str(exc)) from None
    if samples < 1:
        raise BatchError("--samples must be at least 1")
    if samples > 1 and (temperature or 0) == 0:
        raise BatchError("several samples at temperature 0 would all be the same answer: set --temperature > 0")
    if judge_mode not in JUDGE_MODES:
        raise BatchError(f"unknown judge mode '{judge_mode}'; known: {', '.join(JUDGE_MODES)}")
    models = resolve_models(model_specs, extra_models)
    judge_cfg = Judge(resolve_models([judge], extra_models)[0], judge_mode) if judge else None
    name = run_name or default_run_name(presets, seed, suites)
    settings = {
        "presets": [{"name": p.name, "path": p.path, "sha256": p.sha256} for p in presets],
        "models": [_public_config(m) for m in models],
        "prompt": prompt, "concurrency": concurrency, "seed": seed, "suites": list(suites), "samples": samples,
        "temperature": temperature,
        "judge": _public_config(judge_cfg.model) | {"mode": judge_mode} if judge_cfg else None,
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
    all_variants = list({v.id: v for v in all_variants}.values())  # the same variant from two presets: once
    result.variants = len(all_variants)
    cells = plan_cells(all_variants, models, prompt, seed, {p.path: p.prompt for p in presets}, samples, temperature)
    store.merge_run_settings(run.id, {"planned": len(cells)})
    if shard is not None:
        cells = [c for c in cells if shard_of(c, shard[1]) == shard[0] - 1]
    done = store.done_cells(run.id)
    todo = [c for c in cells if c.key not in done]
    result.planned, result.skipped = len(cells), len(cells) - len(todo)

    # tqdm shows done/total, rate and ETA; into a log file (not a terminal) it writes a line every 10 s at most
    bar = tqdm(total=len(cells), initial=result.skipped, unit="answer", desc=name, disable=not progress,
               dynamic_ncols=True, mininterval=0.1 if sys.stderr.isatty() else 10.0)

    def on_result(cell: Cell, resp: Response) -> None:
        if resp.error is None:
            result.answered += 1
        else:
            result.errors += 1
            if len(result.error_messages) < 20:
                result.error_messages.append(f"{cell.model.name} on {cell.variant.item_id}: {resp.error}")
        bar.update(1)
        bar.set_postfix(errors=result.errors, refresh=False)
        if on_progress is not None:
            on_progress(result.skipped + result.answered + result.errors, result.planned, result)

    if on_progress is not None:
        on_progress(result.skipped, result.planned, result)
    try:
        if todo:
            asyncio.run(_execute(store, run, todo, concurrency, on_result, use_cache=use_cache, judge=judge_cfg,
                                 cancel=cancel))
    finally:
        bar.close()
        store.touch_run(run.id)
    result.cancelled = bool(cancel is not None and cancel.is_set())
    return result


def shard_of(cell: Cell, n: int) -> int:
    """Which of n shards a cell belongs to: a stable hash of its key, the same on every machine."""
    import hashlib

    key = "\x1f".join(map(str, cell.key)).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % n


def resume_batch(store: Store, run_name: str, *, extra_models: dict[str, ModelConfig] | None = None,
                 **kwargs: Any) -> BatchResult:
    """Run an interrupted batch again with the presets, models and settings it recorded; done cells are skipped."""
    from probe_ui.presets import PresetError, load_preset

    run = store.get_run(run_name)
    s = run.settings
    if s.get("kind") == "live":
        raise BatchError(f"run '{run_name}' is a live probe, not a batch: it has nothing left to resume")
    try:
        presets = [load_preset(p["path"]) for p in s.get("presets", [])]
    except PresetError as exc:
        raise BatchError(f"cannot resume '{run_name}': {exc}") from None
    if not presets:
        raise BatchError(f"run '{run_name}' records no presets, so it cannot be resumed")
    judge = s.get("judge") or {}
    return run_batch(store, presets, [m["name"] for m in s.get("models", [])], run_name=run.name, seed=run.seed,
                     concurrency=s.get("concurrency"), prompt=s.get("prompt"), suites=s.get("suites", []),
                     samples=s.get("samples", 1), temperature=s.get("temperature"), judge=judge.get("name"),
                     judge_mode=judge.get("mode", "mediconfusion"), extra_models=extra_models, **kwargs)


def _public_config(m: ModelConfig) -> dict[str, Any]:
    """What a run records about a model: :func:`probe_ui.redact.model_record` (only the key's variable name)."""
    return redact.model_record(m)
