"""Asking cells: all models of a variant concurrently, each model behind its own concurrency limit
(:class:`ProviderPool`), every response stored as it arrives (with the others that arrive meanwhile, one
transaction a group: :mod:`probe_ui.runner.grouped_writes`), a failing call an error cell while the
others complete, and a judge asked about the answers that need one."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import Any, Callable

from probe_ui.messages import GenerationSettings, ImagePart, Request, Response
from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig, Provider, ProviderError, fit_images
from probe_ui.providers.rate_control import DEFAULT_RATE_LIMIT_WAIT_S, Pacing, control_for
from probe_ui.runner.cells import Cell, response_row, score_response
from probe_ui.runner.grouped_writes import BATCH_LINGER_S, GroupedWrites
from probe_ui.runner.pushback import converse, spec_of
from probe_ui.runner.spend import Cap, SpendCapReached
from probe_ui.send_gate.policy import Decision, GatePolicy, check_request, where_words
from probe_ui.store import Run, Store


async def ask(provider: Provider, request: Request, pacing: Pacing | None = None) -> Response:
    """One call with a hard timeout; every failure becomes an error response, never an exception. With ``pacing``
    (:mod:`probe_ui.providers.rate_control`) the call waits its turn at the server, and rate-limit refusals are
    waited out and sent again (each attempt with the hard timeout)."""
    t0 = time.perf_counter()
    limit = request.settings.timeout_s
    try:
        if pacing is None:
            resp = await asyncio.wait_for(provider.generate(request), timeout=limit * 3 + 5)
        else:
            resp = await pacing.call(lambda: asyncio.wait_for(provider.generate(request), timeout=limit * 3 + 5))
    except asyncio.TimeoutError:
        resp = Response(error=f"{provider.config.name}: no answer within {limit * 3 + 5:.0f} s")
    except ProviderError as exc:
        resp = Response(error=str(exc))
    except Exception as exc:  # a provider bug must not take the batch down
        resp = Response(error=f"{provider.config.name}: {exc.__class__.__name__}: {exc}")
    if not resp.latency_s:
        resp.latency_s = time.perf_counter() - t0
    return resp


def cell_label(cell: Cell) -> str:
    """How the ledger names a cell: variant id / model / sample."""
    return f"{cell.variant.id}/{cell.model.name}/{cell.request.sample}"


@dataclass
class Judge:
    model: ModelConfig
    mode: str = "mediconfusion"


@dataclass(frozen=True)
class Answered:
    """A cell answered and stored elsewhere (through a provider's batch API): only its judge is left to ask, and
    :func:`execute_cells` asks it as it asks a live answer's (the same checks, ledger, cache and spend cap)."""

    cell: Cell
    response: Response
    invalid: bool | None

    @property
    def model(self) -> ModelConfig:
        return self.cell.model


#: the most request hashes a batch reads to know which requests the cache may answer (``cache_index``; beyond,
#: it asks the database about each request): about 15 MB of memory
CACHE_INDEX_MOST = 100_000

#: what :func:`execute_cells` is handed: cells to ask, or answers whose judge is to ask
Work = Cell | Answered


#: what a call waits on before it is sent: ``async with limit:`` holds one of its slots
CallLimit = AbstractAsyncContextManager[Any]


class ProviderPool:
    """Providers created once and reused across calls, with one concurrency limit per API provider.

    A local model (:meth:`is_local`) gets a limit of its own. Which limit a model's calls wait on, and how many
    may be in flight, is :meth:`limit_of`: a pool that shares limits otherwise (the live probes' pool,
    :class:`probe_ui.live.calls.LivePool`) overrides that one method.

    An API model's calls are also paced by the process's controller for its server (:meth:`pacing_of`,
    :mod:`probe_ui.providers.rate_control`): the pool's limit is the ceiling, the controller's adaptive limit and the
    server's rate decide how many leave; rate-limit refusals are waited out for up to ``rate_limit_wait_s``.
    """

    def __init__(self, concurrency: int | None = None, rate_limit_wait_s: float | None = None) -> None:
        self.concurrency = concurrency
        self.rate_limit_wait_s = DEFAULT_RATE_LIMIT_WAIT_S if rate_limit_wait_s is None else rate_limit_wait_s
        self.pacings: dict[str, Pacing | None] = {}  # by model name
        self.providers: dict[str, Provider] = {}
        self.limits: dict[str, CallLimit] = {}  # by model name
        self.capacities: dict[str, int] = {}  # by model name
        self._shared: dict[str, tuple[asyncio.Semaphore, int]] = {}  # by provider, or by model for a local one
        #: images shrunk for a provider's size limit, by (image id, long side): each resized once per batch
        self.resized: dict[tuple[str, int], Any] = {}

    @staticmethod
    def is_local(provider: Provider) -> bool:
        """A model asked one call at a time (``default_concurrency`` 1) or in this process (``limit_per_model``)."""
        return provider.default_concurrency == 1 or bool(getattr(provider, "limit_per_model", False))

    def limit_of(self, provider: Provider, model: ModelConfig) -> tuple[CallLimit, int]:
        """The limit ``model``'s calls wait on and how many may be in flight: one semaphore per API provider (the
        pool's ``concurrency``, else the model's, else the provider's default), one per local model."""
        key = model.name if self.is_local(provider) else model.provider
        if key not in self._shared:
            capacity = self.concurrency or model.concurrency or provider.default_concurrency
            self._shared[key] = (asyncio.Semaphore(capacity), capacity)
        return self._shared[key]

    def get(self, model: ModelConfig) -> tuple[Provider, CallLimit]:
        """The model's provider (created on first use) and the limit its calls wait on."""
        if model.name not in self.providers:
            provider = self.providers[model.name] = create(model)
            self.limits[model.name], self.capacities[model.name] = self.limit_of(provider, model)
            self.pacings[model.name] = self.pacing_of(provider, model)
        return self.providers[model.name], self.limits[model.name]

    def pacing_of(self, provider: Provider, model: ModelConfig) -> Pacing | None:
        """The shared controller of an API model's server, its ceiling this pool's limit; None for a local model
        or one without a server."""
        if self.is_local(provider) or not provider.takes_url:
            return None
        return Pacing(control_for(provider, model, self.capacities[model.name]), self.rate_limit_wait_s)

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
        self.pacings.clear()
        self._shared.clear()
        self.resized.clear()


async def execute_cells(store: Store, run: Run, cells: Iterable[Work] | AsyncIterator[Work], pool: ProviderPool,
                        on_result: Callable[[Cell, Response], None], *, use_cache: bool = True,
                        judge: Judge | None = None, cancel: threading.Event | None = None,
                        queue_per_model: int = 4096,
                        on_stored: Callable[[Cell, Response, dict[str, Any], int | None], None] | None = None,
                        store_off_loop: bool = False, cache_index: bool = False, gate: GatePolicy | None = None,
                        user: str | None = None,
                        spend: Cap | None = None) -> None:
    """Ask every cell (a list, or a stream that is still being planned) concurrently within the pool's limits,
    storing each response as soon as it arrives.

    Each model has its own queue and as many workers as requests it may have in flight, so a slow model holds up
    only its own cells; a model's queue holds at most ``queue_per_model`` cells (a stream that outruns a slow
    model waits for it there, which bounds memory). Once ``cancel`` is set, cells not yet sent are skipped (and
    stay to do); answers in flight are still kept. ``on_stored`` (before ``on_result``) gets the row as stored and
    its id (None when the store kept another row for the cell): a caller that shows answers reads nothing back.
    ``store_off_loop``: the store's reads and writes run on threads, not on the loop (a loop shared by many
    probes must not wait for each commit: :mod:`probe_ui.live.calls`). ``cache_index`` (a batch): the request
    hashes the store has answers for are read once (up to :data:`CACHE_INDEX_MOST`), and the request cache is
    asked only about those, not once per call.

    ``gate`` (:class:`probe_ui.send_gate.policy.GatePolicy`; None: the default policy) checks every request's
    images for burned-in identifying text before it leaves, and every request to a host that is not trusted is
    appended to the store's send ledger with ``user`` (default: who made the run).

    ``spend`` (:class:`probe_ui.runner.spend.SpendCap`, or a user's limit in the app,
    :class:`probe_ui.runner.allowance.UserCap`): every request reserves its estimated cost first; once one
    would pass the cap, it and every cell not yet sent are left unasked (nothing stored for them); the rest of the
    plan is still made, so that the batch can say how many cells are left.
    """
    gate = gate if gate is not None else GatePolicy.from_options()
    decisions: dict[str, Decision] = {}
    who = user if user is not None else (run.created_by or "")
    found: dict[str, list[Any]] = {}  # burned-in text per image id: each image read once, whichever models see it

    def detect(image: Any) -> list[Any]:
        if image.id not in found:
            from probe_ui.send_gate.detect import find_identifying_text

            found[image.id] = list(find_identifying_text(image))
        return found[image.id]

    async def blocking(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args) if store_off_loop else fn(*args)

    # answers stored a group at a time; where nothing here needs a row's id (no card to show, no judge to tie to
    # it), a slot goes on to its next cell while its answer waits for its group
    waited = on_stored is not None or judge is not None
    known: list[set[str] | None] = []  # with cache_index: the request hashes the store has answers for

    async def seen_answered(key: str) -> bool:
        """Whether the store may hold an answer to this request (always, without ``cache_index``)."""
        if not cache_index:
            return True
        if not known:
            known.append(await blocking(store.answered_hashes, CACHE_INDEX_MOST))
        return known[0] is None or key in known[0]

    writes = GroupedWrites(store.save_responses, off_loop=store_off_loop, linger_s=0.0 if waited else BATCH_LINGER_S)

    async def call(model: ModelConfig, request: Request, cell: str = "") -> tuple[Request, Response]:
        provider, limit = pool.get(model)
        sent, resized = fit_images(request, model.max_image_side or provider.max_image_side, pool.resized)
        decision = decisions.get(model.name)
        if decision is None:
            decision = decisions[model.name] = gate.decide(model)
        checked = await asyncio.to_thread(check_request, decision, sent, detect) if decision.mode else None
        if checked is not None:
            sent = checked.request  # redacted where the policy redacts: what is stored and shown as sent
        verdict = checked.verdict if checked is not None else ("unchecked" if decision.record else "sent")

        async def record() -> None:
            if decision.record:
                await blocking(store.record_sends, [{
                    "user": who, "run": run.name, "cell": cell, "provider": model.provider,
                    "host": ", ".join(decision.hosts), "model": model.model, "verdict": verdict,
                    "images": [p.image.id for m in sent.messages for p in m.content if isinstance(p, ImagePart)]}])

        if checked is not None and checked.verdict == "blocked":
            await record()  # stopped: on the ledger, never sent
            return sent, Response(error=f"{model.name}: burned-in text at {where_words(checked.found)}; not sent",
                                  details={"send_gate": {"verdict": "blocked", "found": checked.found}})
        for im in {p.image.id: p.image for m in sent.messages for p in m.content if isinstance(p, ImagePart)}.values():
            if not store.stored_here(im.id):  # each of a live probe's 18 calls hopped to a thread to learn it
                await blocking(store.put_image, im)  # the exact pixels sent, resized or not, are kept
        cached = None
        if use_cache and provider.cacheable and sent.settings.deterministic and sent.sample == 0:
            key = sent.cache_key(model.provider, model.model, model.options, model.base_url)
            if await seen_answered(key):
                cached = await blocking(store.cached_response, key)
        if cached is not None:
            resp = Response(text=cached["raw_text"] or "", latency_s=0.0, input_tokens=cached["input_tokens"],
                            output_tokens=cached["output_tokens"], cost=0.0, finish_reason=cached["finish_reason"],
                            details={"cached_from": cached["id"], "cached_cost": cached["cost"]})
        else:
            async with limit:
                if cancel is not None and cancel.is_set():
                    raise asyncio.CancelledError
                reserved = spend.reserve(model, sent) if spend is not None else 0.0  # SpendCapReached: not sent
                answer: Response | None = None
                try:
                    await record()  # before it leaves: a request that left is on the ledger even if the call fails
                    answer = resp = await ask(provider, sent, pool.pacings.get(model.name))
                finally:
                    if spend is not None:
                        spend.settle(reserved, answer)
        if resized:
            resp.details = dict(resp.details, resized=resized)
        if checked is not None and checked.found:
            resp.details = dict(resp.details, send_gate={"verdict": checked.verdict, "found": checked.found})
        return sent, resp

    async def one(item: Work) -> None:
        if cancel is not None and cancel.is_set():
            return
        if isinstance(item, Answered):  # past the cap too: its judge's row says it was not asked, as a live one's
            await judge_if_needed(item.cell, item.response, item.invalid)
            return
        if spend is not None and spend.reached:
            return
        cell = item
        if spec_of(cell.variant) is not None:  # a pushback: the first answer, then each pressure turn
            sent, resp = await converse(cell.variant, cell.model, cell.request,
                                        lambda m, r: call(m, r, cell_label(cell)),
                                        lambda req, first: score_response(cell.variant, req, first)["parsed"])
        else:
            sent, resp = await call(cell.model, cell.request, cell_label(cell))
        row = dict(response_row(run.id, cell, resp, sent), asked_by=who)
        if known and known[0] is not None and row["error"] is None:
            known[0].add(row["request_hash"])  # asked again in this batch (another cell sending the same): cached
            if len(known[0]) > CACHE_INDEX_MOST:
                known[0] = None  # no more kept: looked up per call from here
        if not waited:
            # a failed write stops the batch as a failed call's store would; the answer counts once it is stored
            writes.put(row, failures.append, lambda: on_result(cell, resp))
            return
        # a live probe shows the row's id, and a judge's row names it: stored on its own at once, as before groups
        stored = await blocking(store.save_response, row)
        if on_stored is not None:
            on_stored(cell, resp, row, stored)
        await judge_if_needed(cell, resp, row["invalid"])
        on_result(cell, resp)

    async def judge_if_needed(cell: Cell, resp: Response, invalid: bool | None) -> None:
        if judge is not None and resp.error is None:
            from probe_ui.runner.judge import needs_judge  # the reader with it: imported once a judge is asked

            if needs_judge(judge.mode, cell.variant, cell.request.prompt, invalid):
                await judge_one(cell, resp)

    async def judge_one(cell: Cell, resp: Response) -> None:
        assert judge is not None
        from probe_ui.reading import answers
        from probe_ui.runner.judge import JUDGE_MODES, judge_request, parse_judgement

        temperature = JUDGE_MODES.get(judge.mode).temperature
        settings = GenerationSettings(temperature=temperature, max_tokens=256, seed=run.seed,
                                      timeout_s=float(judge.model.generation.get("timeout_s", 120.0)))
        req = judge_request(judge.mode, cell.variant, resp.text, settings)
        req = replace(req, sample=cell.request.sample)
        parent = store.response_id(run.id, cell.variant.id, cell.model.name, cell.request.prompt,
                                   cell.request.sample)
        jcell = Cell(cell.variant, judge.model, req)
        try:
            sent, jresp = await call(judge.model, req, f"{cell_label(cell)}/judge")
        except SpendCapReached as exc:  # the answer is stored; its judge's row says why there is no verdict
            why = getattr(exc, "line", None) or "the spend cap was reached (--max-cost)"  # a user's limit says its own
            sent, jresp = req, Response(error=f"{judge.model.name}: not asked: {why}")
        jrow = response_row(run.id, jcell, jresp, sent)
        jrow["prompt"] = f"judge-{judge.mode}:{cell.model.name}:{cell.request.prompt}"
        if jresp.error is None:
            ans = parse_judgement(judge.mode, jresp.text, req.labels)
            parse = {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid,
                     "correct": answers.is_correct(ans, cell.variant.answer_label)}
            jrow.update(parse)  # the judge's reading lives on its own row; the answer keeps the robust one
        store.save_response(dict(jrow, role="judge", parent_id=parent, asked_by=who))

    queues: dict[str, asyncio.Queue[Work | None]] = {}
    workers: dict[str, list[asyncio.Task[None]]] = {}
    failures: list[BaseException] = []

    async def work(q: asyncio.Queue[Work | None]) -> None:
        while (cell := await q.get()) is not None:
            if failures or (cancel is not None and cancel.is_set()) or (spend is not None and spend.reached):
                continue  # drain: the dispatcher must never wait on a queue nobody reads
            try:
                await one(cell)
            except SpendCapReached:
                continue  # not sent, nothing stored: the cell stays to do
            except asyncio.CancelledError:
                if cancel is None or not cancel.is_set():
                    raise
            except Exception as exc:  # e.g. the store failed: stop sending, keep what is in flight, then raise
                failures.append(exc)

    def queue_for(model: ModelConfig) -> asyncio.Queue[Work | None]:
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
            if spend is not None and spend.reached:
                continue  # the rest of the plan is made and counted (what is left to ask), not sent
            await queue_for(cell.model).put(cell)
    except BaseException as exc:
        failures.append(exc)  # the plan failed (the workers ask nothing more) or Ctrl+C cancelled the batch
        interrupted = isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt))
        raise
    finally:
        tasks = [t for ts in workers.values() for t in ts]
        try:
            if interrupted:  # Ctrl+C: stop now, requests in flight included
                for t in tasks:
                    t.cancel()
            else:
                for name, q in queues.items():
                    for _ in workers[name]:
                        await q.put(None)
            await asyncio.gather(*tasks, return_exceptions=True)  # Ctrl+C once all is handed over: cancelled here
        finally:
            await writes.drain()  # every answer that came back is stored, Ctrl+C or not
            if isinstance(source, PlannedCells):
                await source.aclose()
    if failures:
        raise failures[0]


async def _aiter(cells: Iterable[Work]) -> AsyncIterator[Work]:
    for cell in cells:
        yield cell


async def execute_run(store: Store, run: Run, cells: Iterable[Work] | AsyncIterator[Work], concurrency: int | None,
                   on_result: Callable[[Cell, Response], None], *, use_cache: bool = True,
                   judge: Judge | None = None, cancel: threading.Event | None = None, gate: GatePolicy | None = None,
                   user: str | None = None, rate_limit_wait_s: float | None = None,
                   spend: Cap | None = None) -> None:
    pool = ProviderPool(concurrency, rate_limit_wait_s)
    try:
        await execute_cells(store, run, cells, pool, on_result, use_cache=use_cache, judge=judge, cancel=cancel,
                            gate=gate, user=user, spend=spend, cache_index=True)
    finally:
        await pool.aclose()


_END = object()


@dataclass
class _Failure:
    exc: BaseException


class PlannedCells:
    """A plan's cells, made on a thread of its own and handed to the event loop through a bounded queue: image
    work and store writes for the next variants go on while the first cells are being asked."""

    def __init__(self, plan: Iterable[Work], maxsize: int = 1024) -> None:
        self._plan = plan
        self._maxsize = maxsize
        self._queue: asyncio.Queue[Any] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def __aiter__(self) -> PlannedCells:
        return self

    async def __anext__(self) -> Work:
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
