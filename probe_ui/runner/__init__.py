"""Batch fan-out: presets × models → stored, scored responses.

All models for a variant are asked concurrently, each model behind its own concurrency limit; a failing call
becomes an error cell while the others complete. Every finished response is written immediately, so a killed
batch loses nothing, and cells already answered are skipped when the batch runs again.

A batch is a stream: a planning thread expands the presets one item at a time, stores each new variant (in
batches) and hands over its cells, which the models' workers ask while the rest is still being planned. Memory
holds the items, a bounded queue of cells and what is in flight, never the whole plan, so a 100k-item preset runs
in bounded memory and the first request leaves as soon as the first variant exists.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from tqdm import tqdm

from probe_ui import answers, catalogue, prompts, redact
from probe_ui.errors import ProbeUIError
from probe_ui.items import Variant
from probe_ui.judge import MEDICONFUSION_TEMPERATURE, judge_request, needs_judge, parse_judgement
from probe_ui.judge import MODES as JUDGE_MODES
from probe_ui.presets import Preset
from probe_ui.providers import create
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
from probe_ui.run_identity import RunChange, run_change
from probe_ui.run_identity import check as check_change
from probe_ui.store import Run, Store, StoreError, check_key
from probe_ui.suites import ImageFiles, ItemError, SuiteError, get_suite, stream_variants


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
    #: what this batch did to its run: a new run, the same plan again, or additions (probe_ui.run_identity)
    change: RunChange | None = None
    #: whether every cell was planned (False: stopped while planning, so ``planned`` is a lower bound)
    plan_complete: bool = False

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
        try:
            check_key(cfg.name, "the model name")
        except StoreError as exc:
            unusable[spec] = f"model '{spec[:60]}...': {exc}"
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
    return [c for v in vs for c in variant_cells(v, models, prompt, seed, prompt_per_source, samples, temperature)]


def variant_cells(v: Variant, models: list[ModelConfig], prompt: str | None, seed: int,
                  prompt_per_source: dict[str, str | None] | None = None, samples: int = 1,
                  temperature: float | None = None) -> Iterator[Cell]:
    """The cells of one variant (see :func:`plan_cells`)."""
    requested = prompt or (prompt_per_source or {}).get(v.source)
    template = prompts.template_for(v, requested)
    for m in models:
        settings = generation_settings(m, template, seed, temperature)
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


def score_response(v: Variant, req: Request, resp: Response) -> dict[str, Any]:
    """Parse and grade one response (robust extraction), stamped with the parser's version: the cache of the
    robust reading that :func:`probe_ui.scoring.scored_answers` reuses. Error responses get no parse."""
    if resp.error is not None:
        return {"parsed": None, "method": None, "invalid": None, "refusal": None, "correct": None,
                "parse_version": None}
    kind = "free" if req.prompt == "free" else v.kind
    return answers.cache_row(resp.text, kind, v.labels, v.options, v.answer_label if kind != "free" else None,
                             question=v.question, suggested=v.suggested)


def response_row(run_id: int, cell: Cell, resp: Response, sent: Request | None = None) -> dict[str, Any]:
    """The stored row: the exact request sent (images by hash, after any resize), settings, reply and its parse."""
    return {**call_row(run_id, cell.variant.id, cell.model, sent or cell.request, resp),
            **score_response(cell.variant, cell.request, resp)}


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


#: the highest sampling temperature any provider takes (OpenAI's API: 0 to 2; Anthropic's: 0 to 1)
MAX_TEMPERATURE = 2.0


def check_temperature(value: Any, what: str = "--temperature") -> float:
    """``value`` as a temperature every call can send, else a one-line BatchError naming it (``nan`` was sent to
    every model, each refusing it as an unexpected ValueError)."""
    try:
        t = float(value)
    except (TypeError, ValueError, OverflowError):
        t = math.nan
    if isinstance(value, bool) or not (math.isfinite(t) and 0 <= t <= MAX_TEMPERATURE):
        raise BatchError(f"{what} {value!r}: give a number from 0 to {MAX_TEMPERATURE:g}")
    return t


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
        self.capacities: dict[str, int] = {}
        #: images shrunk for a provider's size limit, by (image id, long side): each resized once per batch
        self.resized: dict[tuple[str, int], Any] = {}

    def get(self, model: ModelConfig) -> tuple[Provider, asyncio.Semaphore]:
        if model.name not in self.providers:
            p = self.providers[model.name] = create(model)
            key = model.name if p.default_concurrency == 1 or getattr(p, "limit_per_model", False) else model.provider
            if key not in self.limits:
                self.capacities[key] = self.concurrency or model.concurrency or p.default_concurrency
                self.limits[key] = asyncio.Semaphore(self.capacities[key])
            self.limits[model.name] = self.limits[key]
            self.capacities[model.name] = self.capacities[key]
        return self.providers[model.name], self.limits[model.name]

    def capacity(self, model: ModelConfig) -> int:
        """How many requests to this model may be in flight at once (its limit, perhaps shared)."""
        self.get(model)
        return self.capacities[model.name]

    async def aclose(self) -> None:
        for p in self.providers.values():
            await p.aclose()
        self.providers.clear()
        self.limits.clear()
        self.capacities.clear()
        self.resized.clear()


async def execute_cells(store: Store, run: Run, cells: Iterable[Cell] | AsyncIterator[Cell], pool: ProviderPool,
                        on_result: Callable[[Cell, Response], None], *, use_cache: bool = True,
                        judge: Judge | None = None, cancel: threading.Event | None = None,
                        queue_per_model: int = 4096,
                        on_stored: Callable[[Cell, Response, dict[str, Any], int | None], None] | None = None,
                        store_off_loop: bool = False) -> None:
    """Ask every cell (a list, or a stream that is still being planned) concurrently within the pool's limits,
    storing each response as soon as it arrives.

    Each model has its own queue and as many workers as requests it may have in flight, so a slow model holds up
    only its own cells; a model's queue holds at most ``queue_per_model`` cells (a stream that outruns a slow
    model waits for it there, which bounds memory). Once ``cancel`` is set, cells not yet sent are skipped (and
    stay to do); answers in flight are still kept. ``on_stored`` (before ``on_result``) gets the row as stored and
    its id (None when the store kept another row for the cell): a caller that shows answers reads nothing back.
    ``store_off_loop``: the store's reads and writes run on threads, not on the loop (a loop shared by many
    probes must not wait for each commit: :mod:`probe_ui.live_calls`).
    """

    async def blocking(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args) if store_off_loop else fn(*args)

    async def call(model: ModelConfig, request: Request) -> tuple[Request, Response]:
        provider, limit = pool.get(model)
        sent, resized = fit_images(request, model.max_image_side or provider.max_image_side, pool.resized)
        for im in {p.image.id: p.image for m in sent.messages for p in m.content if isinstance(p, ImagePart)}.values():
            await blocking(store.put_image, im)  # the exact pixels sent, resized or not, are kept
        cached = None
        if use_cache and sent.settings.deterministic and sent.sample == 0:
            cached = await blocking(store.cached_response, sent.cache_key(model.provider, model.model, model.options,
                                                                          model.base_url))
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
        stored = await blocking(store.save_response, row)
        if on_stored is not None:
            on_stored(cell, resp, row, stored)
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

    queues: dict[str, asyncio.Queue[Cell | None]] = {}
    workers: dict[str, list[asyncio.Task[None]]] = {}
    failures: list[BaseException] = []

    async def work(q: asyncio.Queue[Cell | None]) -> None:
        while (cell := await q.get()) is not None:
            if failures or (cancel is not None and cancel.is_set()):
                continue  # drain: the dispatcher must never wait on a queue nobody reads
            try:
                await one(cell)
            except asyncio.CancelledError:
                if cancel is None or not cancel.is_set():
                    raise
            except Exception as exc:  # e.g. the store failed: stop sending, keep what is in flight, then raise
                failures.append(exc)

    def queue_for(model: ModelConfig) -> asyncio.Queue[Cell | None]:
        q = queues.get(model.name)
        if q is None:
            q = queues[model.name] = asyncio.Queue(queue_per_model)
            workers[model.name] = [asyncio.create_task(work(q)) for _ in range(pool.capacity(model))]
        return q

    source = cells if isinstance(cells, AsyncIterator) else _aiter(cells)
    interrupted = False
    try:
        async for cell in source:
            if failures or (cancel is not None and cancel.is_set()):
                break
            await queue_for(cell.model).put(cell)
    except BaseException as exc:
        failures.append(exc)  # the plan failed (the workers ask nothing more) or Ctrl+C cancelled the batch
        interrupted = isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt))
        raise
    finally:
        tasks = [t for ts in workers.values() for t in ts]
        if interrupted:  # Ctrl+C: stop now, requests in flight included
            for t in tasks:
                t.cancel()
        else:
            for name, q in queues.items():
                for _ in workers[name]:
                    await q.put(None)
        await asyncio.gather(*tasks, return_exceptions=True)
        if isinstance(source, _Planned):
            await source.aclose()
    if failures:
        raise failures[0]


async def _aiter(cells: Iterable[Cell]) -> AsyncIterator[Cell]:
    for cell in cells:
        yield cell


async def execute_run(store: Store, run: Run, cells: Iterable[Cell] | AsyncIterator[Cell], concurrency: int | None,
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
              cancel: threading.Event | None = None, shard: tuple[int, int] | None = None,
              extend: bool = False, on_change: Callable[[RunChange], None] | None = None,
              user: str | None = None) -> BatchResult:
    """Run (or resume) a batch; returns counts. Raises BatchError before doing anything if a model is unusable.
    ``user`` is recorded as who made the run when it is created (default: the system user).

    A run that exists is planned whole (:mod:`probe_ui.run_identity`): every preset, model and suite it was ever
    asked, plus this batch's. A batch that would add models, suites or presets to it raises
    :class:`probe_ui.run_identity.RunExtensionError` unless ``extend`` (``--extend``); one that would change what
    its answers mean (another seed, prompt, number of samples or temperature) is always refused. ``on_change``
    hears what the batch does to its run (:class:`~probe_ui.run_identity.RunChange`) before anything is asked.

    ``on_progress(done, total, result)`` is called after every answer (the app's progress bar; ``total`` grows
    until the plan is complete, since cells are asked while the rest is planned); setting ``cancel``
    stops sending new requests: what was answered is kept and running the batch again resumes it.
    ``shard=(i, n)`` asks only the i-th of n disjoint parts of the cells (1-based), so n machines writing to one
    database share a batch; every shard plans the same cells, so the parts together are the whole batch.

    The batch holds its run (and shard) for its whole length (:meth:`probe_ui.store.Store.run_lock`): a second
    batch of the same run and shard on the same store raises :class:`probe_ui.store.RunInUseError` before it
    writes or asks anything. Shards of one run run at once; live probes (:mod:`probe_ui.live`) take no lock.
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
    if temperature is not None:
        check_temperature(temperature)
    if samples > 1 and (temperature or 0) == 0:
        raise BatchError("several samples at temperature 0 would all be the same answer: set --temperature > 0")
    if judge_mode not in JUDGE_MODES:
        raise BatchError(f"unknown judge mode '{judge_mode}'; known: {', '.join(JUDGE_MODES)}")
    models = resolve_models(model_specs, extra_models)
    judge_cfg = Judge(resolve_models([judge], extra_models)[0], judge_mode) if judge else None
    name = run_name or default_run_name(presets, seed, suites)
    change = run_change(store, name, presets, [m.name for m in models], list(suites), seed=seed, prompt=prompt,
                        samples=samples, temperature=temperature)
    check_change(change, extend)
    if on_change is not None:
        on_change(change)  # e.g. the CLI says "adds 2 models to run X (94 answers done)" before anything is asked
    if change.exists:  # the run's whole plan: every preset, model and suite it was ever asked
        presets, models, suites = whole_plan(change, presets, models, list(suites), extra_models)
    settings = {
        "presets": [{"name": p.name, "path": p.path, "sha256": p.sha256} for p in presets],
        "models": [public_config(m) for m in models],
        "prompt": prompt, "concurrency": concurrency, "seed": seed, "suites": list(suites), "samples": samples,
        "temperature": temperature,
        "judge": public_config(judge_cfg.model) | {"mode": judge_mode} if judge_cfg else None,
        # not known until the plan is made (BatchPlan records it): a batch stopped before that leaves the run
        # incomplete, never "complete" against an earlier, smaller plan
        "planned": None,
    }
    # one batch per run and shard at a time (another one stops here, before it writes anything): held until the
    # batch ends, so that two identical batches never ask, and pay for, the same cells twice
    with store.run_lock(name, shard):
        result = _run_locked(store, presets, models, name, seed, settings, concurrency=concurrency, prompt=prompt,
                             suites=suites, samples=samples, temperature=temperature, judge_cfg=judge_cfg,
                             use_cache=use_cache, progress=progress, on_progress=on_progress, cancel=cancel,
                             shard=shard, user=user)
    result.change = change
    return result


def batch_change(store: Store, presets: list[Preset], model_specs: list[str], *, run_name: str | None = None,
                 seed: int = 0, suites: tuple[str, ...] | list[str] = (), prompt: str | None = None, samples: int = 1,
                 temperature: float | None = None, extra_models: dict[str, ModelConfig] | None = None) -> RunChange:
    """What :func:`run_batch` with these arguments would do to its run (a new run, the same plan, additions,
    conflicts), asking nothing: the Batch tab shows it before it starts."""
    models = resolve_models(model_specs, extra_models)
    name = run_name or default_run_name(presets, seed, suites)
    return run_change(store, name, presets, [m.name for m in models], list(suites), seed=seed, prompt=prompt,
                      samples=samples, temperature=temperature)


def whole_plan(change: RunChange, presets: list[Preset], models: list[ModelConfig], suites: list[str],
               extra_models: dict[str, ModelConfig] | None = None
               ) -> tuple[list[Preset], list[ModelConfig], list[str]]:
    """An existing run's whole plan: the presets, models and suites it recorded, then this batch's new ones, so
    that its planned count, completeness and Resume cover everything it was ever asked."""
    from probe_ui.presets import PresetError, load_preset

    given = {m.name for m in models}
    earlier: list[ModelConfig] = []
    for spec in change.models:
        if spec in given:
            continue
        try:
            earlier += resolve_models([spec], extra_models)
        except BatchError as exc:
            raise BatchError(f"run '{change.name}' also asks {spec}, which cannot be asked now ({exc}); "
                             "choose another run name for these models") from None
    known = {p.path for p in presets} | {p.sha256 for p in presets}
    recorded: list[Preset] = []
    for rec in change.presets:
        if rec.get("path") in known or rec.get("sha256") in known:
            continue
        try:
            recorded.append(load_preset(rec["path"]))
        except (PresetError, KeyError, TypeError) as exc:
            raise BatchError(f"run '{change.name}' also asks the preset {rec.get('name', '?')}, which cannot be "
                             f"loaded now ({exc}); choose another run name") from None
    order = {name: i for i, name in enumerate(change.models)}
    every = sorted([*earlier, *models], key=lambda m: order.get(m.name, len(order)))  # the run's order first
    return ([*recorded, *presets], every,
            list(dict.fromkeys([*change.suites, *suites])))


def _run_locked(store: Store, presets: list[Preset], models: list[ModelConfig], name: str, seed: int,
                settings: dict[str, Any], *, concurrency: int | None, prompt: str | None,
                suites: tuple[str, ...] | list[str], samples: int, temperature: float | None, judge_cfg: Judge | None,
                use_cache: bool, progress: bool, on_progress: Callable[[int, int, BatchResult], None] | None,
                cancel: threading.Event | None, shard: tuple[int, int] | None, user: str | None = None
                ) -> BatchResult:
    """:func:`run_batch` once it holds the run."""
    run = store.ensure_run(name, seed, settings, created_by=user)
    result = BatchResult(run=run)
    plan = BatchPlan(store, run, presets, models, result, prompt=prompt, seed=seed, suites=suites, samples=samples,
                     temperature=temperature, shard=shard)

    # tqdm shows done/total, rate and ETA; into a log file (not a terminal) it writes a line every 10 s at most.
    # The total grows while the plan is being made (cells are asked as they are planned).
    bar = tqdm(total=0, unit="answer", desc=name, disable=not progress, dynamic_ncols=True,
               mininterval=0.1 if sys.stderr.isatty() else 10.0)

    def show() -> None:
        done = result.skipped + result.answered + result.errors
        bar.total = max(result.planned, done)
        bar.update(done - bar.n)
        if on_progress is not None:
            on_progress(done, result.planned, result)

    def on_result(cell: Cell, resp: Response) -> None:
        if resp.error is None:
            result.answered += 1
        else:
            result.errors += 1
            if len(result.error_messages) < 20:
                result.error_messages.append(f"{cell.model.name} on {cell.variant.item_id}: {resp.error}")
        bar.set_postfix(errors=result.errors, refresh=False)
        show()

    show()
    try:
        asyncio.run(execute_run(store, run, _Planned(plan), concurrency, on_result, use_cache=use_cache,
                             judge=judge_cfg, cancel=cancel))
    finally:
        show()
        bar.close()
        store.touch_run(run.id)
    result.cancelled = bool(cancel is not None and cancel.is_set())
    return result


class BatchPlan:
    """The cells of a batch, made one variant at a time on the planning thread.

    Each preset's variants stream out of :func:`~probe_ui.suites.stream_variants` (every image file loaded once
    for the whole batch) and are planned in batches (1, 2, 4, ... up to 256, so the first cell goes out at once);
    the variants of a batch's cells are stored before the cells are handed over, since a response row names its
    variant. Item errors are recorded
    as they are found. Counts go into ``result``; the total number of cells (all shards) is recorded in the run's
    settings once the plan is complete.
    """

    MAX_BATCH = 256

    def __init__(self, store: Store, run: Run, presets: list[Preset], models: list[ModelConfig],
                 result: BatchResult, *, prompt: str | None, seed: int, suites: tuple[str, ...] | list[str],
                 samples: int, temperature: float | None, shard: tuple[int, int] | None) -> None:
        self.store, self.run, self.presets, self.models, self.result = store, run, presets, models, result
        self.prompt, self.seed, self.suites = prompt, seed, suites
        self.samples, self.temperature, self.shard = samples, temperature, shard
        self.files = ImageFiles()
        self.planned_all = 0  # cells of every shard
        self.sdk_ready: set[str] = set()

    def __iter__(self) -> Iterator[Cell]:
        store, run, result = self.store, self.run, self.result
        done = store.done_cells(run.id)
        seen: set[str] = set()  # the same variant from two presets: asked once
        batch: list[Variant] = []
        size = 1
        for p in self.presets:
            loaded: set[str] = set()
            failed: set[str] = set()
            for x in stream_variants(p, self.seed, self.suites, self.files):
                if isinstance(x, ItemError):
                    store.record_item_error(run.id, x.source, x.item_id, x.message)
                    result.item_errors.append(x)
                    failed.add(x.item_id)
                elif isinstance(x, str):
                    result.warnings.append(x)
                else:
                    loaded.add(x.item_id)
                    if x.id not in seen:
                        seen.add(x.id)
                        result.variants += 1
                        batch.append(x)
                        if len(batch) >= size:
                            yield from self._cells(batch, done)
                            size = min(2 * size, self.MAX_BATCH)
            yield from self._cells(batch, done)
            store.clear_item_errors(run.id, p.path, loaded - failed)
        store.merge_run_settings(run.id, {"planned": self.planned_all})
        result.plan_complete = True

    def _cells(self, batch: list[Variant], done: set[tuple[str, str, str, int]]) -> Iterator[Cell]:
        """Hand over a batch's cells that are not done (and are in this shard), after storing the variants they
        ask. A variant with nothing left to ask was stored when it was first asked (its answers name it), so a
        re-run of a finished batch writes nothing."""
        if not batch:
            return
        by_source = {p.path: p.prompt for p in self.presets}
        todo: list[Cell] = []
        for v in batch:
            for cell in variant_cells(v, self.models, self.prompt, self.seed, by_source, self.samples,
                                      self.temperature):
                self.planned_all += 1
                if self.shard is not None and shard_of(cell, self.shard[1]) != self.shard[0] - 1:
                    continue
                self.result.planned += 1
                if cell.key in done:
                    self.result.skipped += 1
                else:
                    todo.append(cell)
        batch.clear()
        if todo:
            self.store.add_variants(self.run.id, list({c.variant.id: c.variant for c in todo}.values()))
        for cell in todo:
            self._import_sdk(cell.model)
            yield cell

    def _import_sdk(self, model: ModelConfig) -> None:
        """Import a model's SDK here, before its first cell is handed over: nothing can be sent to it before the
        import is done (openai's takes about a second), and planning on meanwhile would only slow the import down
        (one GIL). A batch with nothing left to ask never imports it."""
        if model.name in self.sdk_ready:
            return
        self.sdk_ready.add(model.name)
        import importlib

        from probe_ui.providers import provider_class

        sdk = provider_class(model.provider).sdk
        if sdk and sdk not in sys.modules:
            try:
                importlib.import_module(sdk)
            except Exception:  # the provider reports it properly when it is used
                pass


_END = object()


@dataclass
class _Failure:
    exc: BaseException


class _Planned:
    """A plan's cells, made on a thread of its own and handed to the event loop through a bounded queue: image
    work and store writes for the next variants go on while the first cells are being asked."""

    def __init__(self, plan: Iterable[Cell], maxsize: int = 1024) -> None:
        self._plan = plan
        self._maxsize = maxsize
        self._queue: asyncio.Queue[Any] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def __aiter__(self) -> _Planned:
        return self

    async def __anext__(self) -> Cell:
        if self._queue is None:
            self._queue = asyncio.Queue(self._maxsize)
            self._thread = threading.Thread(target=self._produce, args=(asyncio.get_running_loop(),),
                                            name="probe-ui plan", daemon=True)
            self._thread.start()
        item = await self._queue.get()
        if item is _END:
            raise StopAsyncIteration
        if isinstance(item, _Failure):
            raise item.exc
        return item  # type: ignore[no-any-return]

    def _produce(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            for cell in self._plan:
                if self._stop.is_set() or not self._put(loop, cell):
                    return
            self._put(loop, _END)
        except BaseException as exc:  # handed to the loop, which raises it in run_batch
            self._put(loop, _Failure(exc))

    def _put(self, loop: asyncio.AbstractEventLoop, item: Any) -> bool:
        """Wait for room in the queue; give up (False) once the consumer has stopped."""
        assert self._queue is not None
        fut = asyncio.run_coroutine_threadsafe(self._queue.put(item), loop)
        while True:
            try:
                fut.result(timeout=0.2)
                return True
            except concurrent.futures.TimeoutError:
                if self._stop.is_set():
                    fut.cancel()
                    return False
            except concurrent.futures.CancelledError:
                return False

    async def aclose(self) -> None:
        """Stop planning and wait for the thread, so that its store writes end before the batch does."""
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)


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
    s = run.config
    if s.kind == "live":
        raise BatchError(f"run '{run_name}' is a live probe, not a batch: it has nothing left to resume")
    try:
        presets = [load_preset(p["path"]) for p in s.presets]
    except (PresetError, KeyError) as exc:
        raise BatchError(f"cannot resume '{run_name}': {exc}") from None
    if not presets:
        raise BatchError(f"run '{run_name}' records no presets, so it cannot be resumed")
    return run_batch(store, presets, s.model_names, run_name=run.name, seed=run.seed,
                     concurrency=s.concurrency, prompt=s.prompt, suites=s.suites,
                     samples=s.samples, temperature=s.temperature, judge=s.judge_name,
                     judge_mode=s.judge_mode, extra_models=extra_models, **kwargs)


def public_config(m: ModelConfig) -> dict[str, Any]:
    """What a run records about a model: :func:`probe_ui.redact.model_record` (only the key's variable name)."""
    return redact.model_record(m)
