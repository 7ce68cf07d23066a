"""Cells asked through providers' batch APIs (``probe-ui batch --provider-batch``, issue 50): submit, poll, collect.

**Submit.** While a batch is planned, the cells of each model whose provider has a batch API
(:func:`probe_ui.providers.batch_api.batch_api_of`: OpenAI and OpenAI-compatible servers through ``/v1/files`` and
``/v1/batches``, Anthropic through Message Batches, Gemini through its batch mode) are taken out of the stream the
live path asks (:meth:`ProviderBatches.divert`); every other cell is asked the normal way meanwhile. Each taken cell
is prepared as a live call prepares it (its images shrunk to the provider's limit, checked by the send gate,
stored), rendered by the provider's own request code (:meth:`~probe_ui.providers.sdk.SDKProvider.request_body`: the
body a live call sends; Gemini's rewritten as a GenerateContentRequest) and written as one line of the model's batch
file, its ``custom_id`` a stable hash of the cell
(:func:`custom_id`). Once the plan is complete each file is submitted, split where it would pass the provider's
limits. Each batch is recorded in the store (:mod:`probe_ui.store.provider_batches`: the model, the API, every
custom_id with its cell and request hash) BEFORE it is created at the provider, and its id as soon as it exists,
so a process killed at any point after that leaves a batch that the next run finds. Every request goes on the send
ledger before it leaves, as a live call's does. A cell the send gate blocks, or one the request cache answers, is
left to the live path, which blocks it or answers it from the cache as it always does.

**Poll.** After the live cells, each open batch of the run is asked for its state every ``poll_interval_s`` seconds
(``--poll-interval``, default 30), its request counts said as they change (``note: openai/gpt-4o: batch b1
in_progress: 12/40 done``).

**Collect.** An ended batch's results (OpenAI: its output and error files; Anthropic: its results; Gemini: the
batch's inline responses, or its responses file) are read, and the
plan is made again to find each result's cell: each reply becomes the Response a live call makes of it
(:meth:`~probe_ui.providers.sdk.SDKProvider.reply_from_body`: text, finish reason, usage; latency not known), priced
at the batch price (:attr:`~probe_ui.providers.batch_api.BatchAPI.price_factor`: half the catalogue's), and is stored
through :func:`~probe_ui.runner.cells.response_row` and ``save_response`` like any live answer, so the reader, the
scores and every view see it. A request that failed becomes a failed cell whose error names the model and the batch. A
batch that failed, expired or was cancelled is said in one line; its cells without an answer stay unasked, so the
next run asks them again.

**Resume.** The same command again (or a run resumed with ``provider_batch=True``) finds the run's open batches:
their cells are never asked or submitted again while a batch is open, and the batches are polled and collected. A
batch recorded but never given its id (the process died while submitting it) is looked up at OpenAI by the
metadata it was created with, at Gemini by its display name (:meth:`~probe_ui.providers.batch_api.BatchAPI.find`);
one not found, or at Anthropic (no metadata; and its custom_ids, a hash of each cell, are the same for any run of the
same plan, so nothing tells it from a batch another run sent), is closed and its cells asked again. A
run without ``--provider-batch`` leaves the cells of open batches unasked and says how to collect them.

**Price and the spend cap.** A batched cell reserves its estimate at the batch price against ``--max-cost`` when it
is written; an open batch's estimate counts as in flight for a later process until its answers are stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probe_ui.messages import ImagePart, Request, Response
from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig, ProviderError, fit_images
from probe_ui.providers.batch_api import APIS, BatchAPI, BatchState, Outcome, api_words, batch_api_of, price_factor
from probe_ui.providers.sdk import SDKProvider
from probe_ui.runner.cells import Cell, response_row
from probe_ui.runner.execute import Answered, Work, cell_label
from probe_ui.runner.grouped_writes import MOST
from probe_ui.runner.pushback import spec_of
from probe_ui.runner.spend import Cap, SpendCapReached
from probe_ui.send_gate.policy import Decision, GatePolicy, check_request
from probe_ui.store import Run, Store
from probe_ui.store.provider_batches import OPEN, ProviderBatch

log = logging.getLogger("probe_ui.batch")

#: seconds between two looks at a batch's state (``--poll-interval``)
POLL_INTERVAL_S = 30.0


def custom_id(cell: Cell) -> str:
    """A cell's id in a batch file: a hash of its key (variant, model, prompt, sample), the same in every process
    (48 characters of ``[0-9a-f]``, within both APIs' limits)."""
    key = "\x1f".join(map(str, cell.key)).encode("utf-8", "surrogatepass")
    return "c" + hashlib.sha256(key).hexdigest()[:47]


@dataclass
class Prepared:
    """A cell's request as it would leave (images shrunk and gated), the gate's verdict, and what the answer's
    details record of that."""

    sent: Request
    verdict: str
    details: dict[str, Any]
    blocked: bool
    decision: Decision


@dataclass
class _File:
    """One batch being written: its lines, the cells they ask, the ledger rows, the estimated cost."""

    path: Path
    cells: dict[str, tuple[str, str, int, str]] = field(default_factory=dict)
    sends: list[dict[str, Any]] = field(default_factory=list)
    size: int = 0
    estimate: float = 0.0


class _Model:
    """One model's batch API, its provider and the files being written for it."""

    def __init__(self, model: ModelConfig, api_name: str, folder: Path) -> None:
        self.model, self.api_name, self.folder = model, api_name, folder
        provider = create(model)
        assert isinstance(provider, SDKProvider)  # batch_api_of said so
        self.provider: SDKProvider = provider
        self.api: BatchAPI = APIS[api_name](provider)
        self.files: list[_File] = []
        self._stream: Any = None

    def add(self, cid: str, line: dict[str, Any], cell: tuple[str, str, int, str], send: dict[str, Any] | None,
            estimate: float) -> None:
        data = (json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        current = self.files[-1] if self.files else None
        if current is None or len(current.cells) >= self.api.max_requests or \
                (current.cells and current.size + len(data) > self.api.max_bytes):
            if self._stream is not None:
                self._stream.close()
            safe = "".join(ch if ch.isalnum() else "-" for ch in self.model.name)[:60]
            current = _File(self.folder / f"{safe}-{len(self.files) + 1}.jsonl")
            self.files.append(current)
            self._stream = current.path.open("wb")
        self._stream.write(data)
        current.size += len(data)
        current.cells[cid] = cell
        current.estimate += estimate
        if send is not None:
            current.sends.append(send)

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None


class ProviderBatches:
    """A batch run's use of providers' batch APIs (module doc). Made by :func:`probe_ui.runner.batch.run_batch` for
    every batch: with ``enabled`` (``--provider-batch``) it sends the cells of models that have a batch API through
    it; without, it only keeps the cells of the run's open batches from being asked again.

    ``on_answer(cell, response, row)`` hears every answer stored from a batch (the batch's counts and progress bar,
    and its judge, asked once the batches are collected);
    ``shard`` (i, n) is recorded with each batch, and a shard collects only its own."""

    def __init__(self, store: Store, run: Run, models: list[ModelConfig], result: Any, *, enabled: bool,
                 poll_interval_s: float = POLL_INTERVAL_S, gate: GatePolicy | None = None, user: str | None = None,
                 spend: Cap | None = None, use_cache: bool = True, shard: tuple[int, int] | None = None,
                 cancel: threading.Event | None = None,
                 on_answer: Callable[[Cell, Response, dict[str, Any]], None] | None = None) -> None:
        self.store, self.run, self.result, self.enabled = store, run, result, enabled
        self.poll_interval_s = max(0.0, float(poll_interval_s))
        self.gate = gate if gate is not None else GatePolicy.from_options()
        self.who = user if user is not None else (run.created_by or "")
        self.spend, self.use_cache, self.cancel = spend, use_cache, cancel
        self.shard = f"{shard[0]}/{shard[1]}" if shard else ""
        self.on_answer = on_answer
        self.models = {m.name: m for m in models}
        self.apis = {m.name: api for m in models if enabled and (api := batch_api_of(m)) is not None}
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._batched: dict[str, _Model] = {}
        self._decisions: dict[str, Decision] = {}
        self._found: dict[str, list[Any]] = {}
        self._resized: dict[tuple[str, int], Any] = {}
        self._unbatched: set[str] = set()
        self.open = store.provider_batches(run.id, OPEN)
        if enabled:
            self._settle_submitting()
        self.open_keys = {k for b in self.open for k in b.keys()}
        if spend is not None:  # what the open batches will cost is in flight until their answers are stored
            spend.carry(sum(b.estimate or 0.0 for b in self.open))

    # ---- which models go by batch ------------------------------------------------------------------------------
    def plan_line(self) -> str | None:
        """What ``--provider-batch`` does with each model, in a line: which go through a batch API, which are asked
        directly (no batch API); None without it."""
        if not self.enabled:
            return None
        direct = [name for name in self.models if name not in self.apis]
        by = ", ".join(f"{name} ({api_words(api)}, half price)" for name, api in self.apis.items())
        line = f"by provider batch: {by}"
        if direct:
            line += f"; asked directly (no batch API): {', '.join(direct)}"
        return line

    # ---- submit ------------------------------------------------------------------------------------------------
    def divert(self, cells: Iterable[Work]) -> Iterator[Work]:
        """The plan's cells for the live path: every cell of a batched model is written to its batch file instead
        (module doc), every cell waiting in an open batch is left out; once the plan is complete the files are
        submitted (on this thread: the planning thread, while the live cells are being asked)."""
        try:
            for cell in cells:
                if isinstance(cell, Answered):
                    yield cell  # answered already: its judge is asked live
                    continue
                if cell.key in self.open_keys:
                    continue  # waits in an open batch: never asked twice
                if cell.model.name not in self.apis or spec_of(cell.variant) is not None:
                    yield cell  # no batch API, or a conversation (pushback) whose turns depend on each other
                    continue
                if self.spend is not None and self.spend.reached:
                    continue  # the cap is reached: the cell stays to do
                if not self._write(cell):
                    yield cell
            self._submit_all()
        finally:
            for m in self._batched.values():
                m.close()
            if self._folder is not None:
                self._folder.cleanup()
                self._folder = None

    def _model(self, model: ModelConfig) -> _Model:
        m = self._batched.get(model.name)
        if m is None:
            if self._folder is None:
                self._folder = tempfile.TemporaryDirectory(prefix="probe-ui-batch-")
            m = self._batched[model.name] = _Model(model, self.apis[model.name], Path(self._folder.name))
        return m

    def prepare(self, cell: Cell, provider: SDKProvider) -> Prepared:
        """The request as a live call would send it (:func:`probe_ui.runner.execute.execute_cells`): images shrunk to
        the provider's limit, then checked (and redacted where the policy redacts) by the send gate."""
        model = cell.model
        sent, resized = fit_images(cell.request, model.max_image_side or provider.max_image_side, self._resized)
        decision = self._decisions.get(model.name)
        if decision is None:
            decision = self._decisions[model.name] = self.gate.decide(model)
        checked = check_request(decision, sent, self._detect) if decision.mode else None
        if checked is not None:
            sent = checked.request
        verdict = checked.verdict if checked is not None else ("unchecked" if decision.record else "sent")
        details: dict[str, Any] = {}
        if resized:
            details["resized"] = resized
        if checked is not None and checked.found:
            details["send_gate"] = {"verdict": checked.verdict, "found": checked.found}
        return Prepared(sent, verdict, details, checked is not None and checked.verdict == "blocked", decision)

    def _detect(self, image: Any) -> list[Any]:
        if image.id not in self._found:
            from probe_ui.send_gate.detect import find_identifying_text

            self._found[image.id] = list(find_identifying_text(image))
        return self._found[image.id]

    def _write(self, cell: Cell) -> bool:
        """Write a cell into its model's batch file; False leaves it to the live path (blocked by the send gate,
        answered by the cache, or a request its provider cannot render, which the live path fails in one line)."""
        model = cell.model
        m = self._model(model)
        p = self.prepare(cell, m.provider)
        if p.blocked:
            return False
        sent = p.sent
        request_hash = sent.cache_key(model.provider, model.model, model.options, model.base_url)
        if self.use_cache and sent.settings.deterministic and sent.sample == 0 and \
                self.store.cached_response(request_hash) is not None:
            return False
        cid = custom_id(cell)
        try:
            line = m.api.line(cid, m.provider.request_body(sent))
        except ProviderError as exc:
            if str(exc) not in self._unbatched:  # said once a model and reason: the cell is asked live
                self._unbatched.add(str(exc))
                log.warning("%s", exc)
            return False
        estimate = 0.0
        if self.spend is not None:
            try:
                estimate = self.spend.reserve(model, sent, price_factor(m.api_name))
            except SpendCapReached:
                return True  # not sent, nothing stored: the cell stays to do
        images = {part.image.id: part.image for msg in sent.messages for part in msg.content
                  if isinstance(part, ImagePart)}
        for im in images.values():
            self.store.put_image(im)  # the exact pixels sent are kept, as for a live call
        send = {"user": self.who, "run": self.run.name, "cell": cell_label(cell), "provider": model.provider,
                "host": ", ".join(p.decision.hosts), "model": model.model, "verdict": p.verdict,
                "images": list(images)} if p.decision.record else None
        m.add(cid, line, (cell.variant.id, cell.request.prompt, cell.request.sample, request_hash),
              send, estimate)
        return True

    def _submit_all(self) -> None:
        work = [(m, f) for m in self._batched.values() for f in m.files if f.cells]
        for m in self._batched.values():
            m.close()
        if work:
            asyncio.run(self._submit(work))

    async def _submit(self, work: list[tuple[_Model, _File]]) -> None:
        try:
            for m, f in work:
                await self._submit_one(m, f)
        finally:
            for m in self._batched.values():
                await m.api.aclose()

    async def _submit_one(self, m: _Model, f: _File) -> None:
        n, name = len(f.cells), m.model.name
        token = uuid.uuid4().hex  # in the batch's metadata: finds it if this process dies before its id is recorded
        row = self.store.add_provider_batch(self.run.id, name, m.api_name, f.cells, self.shard, f.estimate,
                                            {"token": token})
        if f.sends:
            self.store.record_sends(f.sends)  # before anything leaves, as a live call's
        try:
            batch_id = await m.api.submit(f.path, {"probe_ui_run": self.run.name[:500], "probe_ui_batch": token})
        except ProviderError as exc:
            self.store.update_provider_batch(row, status="failed", details={"problem": str(exc)})
            if self.spend is not None:
                self.spend.settle_cost(f.estimate, 0.0)
            self.result.batch_errors.append(f"{exc}: its {n:,} cells stay unasked; run the batch again to ask them")
            return
        self.store.update_provider_batch(row, batch_id=batch_id, status="pending",
                                         details={"submitted_at": _now(), "requests": n})
        log.info("%s: %d cells sent in batch %s (%s)", name, n, batch_id, api_words(m.api_name))

    # ---- batches a killed process was submitting ---------------------------------------------------------------
    def _settle_submitting(self) -> None:
        """A batch recorded but never given its id: found at the provider by what it was created with (OpenAI's
        metadata, Gemini's display name), else closed so that its cells are asked again."""
        rows = [b for b in self.open if b.status == "submitting" and b.shard == self.shard]
        if not rows:
            return
        found = asyncio.run(self._find(rows))
        for b in rows:
            if found.get(b.id):
                self.store.update_provider_batch(b.id, batch_id=found[b.id], status="pending")
                log.info("%s: batch %s, sent by a process that stopped before recording it, found", b.model,
                         found[b.id])
            else:
                self.store.update_provider_batch(b.id, status="failed", details={
                    "problem": "not found at the provider: the process stopped while submitting it"})
                log.warning("%s: a batch of %d cells was being submitted when its process stopped and is not found "
                            "at the provider: its cells are asked again", b.model, len(b.cells))
        self.open = self.store.provider_batches(self.run.id, OPEN)

    async def _find(self, rows: list[ProviderBatch]) -> dict[int, str | None]:
        out: dict[int, str | None] = {}
        apis: dict[str, BatchAPI] = {}
        try:
            for b in rows:
                model = self.models.get(b.model)
                if model is None or b.api not in APIS or batch_api_of(model) != b.api:
                    out[b.id] = None
                    continue
                api = apis.get(b.model)
                if api is None:
                    api = apis[b.model] = APIS[b.api](create(model))  # type: ignore[arg-type]
                token = _token(b)
                try:
                    out[b.id] = await api.find(token) if token else None
                except ProviderError as exc:
                    log.warning("%s", exc)
                    out[b.id] = None
        finally:
            for api in apis.values():
                await api.aclose()
        return out

    # ---- poll and collect --------------------------------------------------------------------------------------
    def collect(self, replan: Callable[[], Iterable[Cell]]) -> None:
        """Poll the run's open batches (this shard's) until each has ended, storing each one's answers as it ends
        (module doc). ``replan()`` makes the plan again (its cells not yet answered), to find each result's cell.
        Without ``enabled``, only says which batches are open and how to collect them."""
        rows = [b for b in self.store.provider_batches(self.run.id, OPEN) if b.shard == self.shard]
        if not self.enabled:
            for b in rows:
                self.result.batch_notes.append(
                    f"{b.model}: {len(b.cells):,} cells wait in batch {b.batch_id or '(being submitted)'} "
                    f"({api_words(b.api)}): run the batch again with --provider-batch to collect them")
        elif rows:
            asyncio.run(self._collect(rows, replan))
        left = [b for b in self.store.provider_batches(self.run.id, OPEN) if b.shard == self.shard]
        self.result.in_batch = sum(len(b.cells) for b in left)

    async def _collect(self, rows: list[ProviderBatch], replan: Callable[[], Iterable[Cell]]) -> None:
        waiting = {b.id: b for b in rows if b.batch_id}
        apis: dict[str, BatchAPI] = {}
        said: dict[int, str] = {}
        try:
            for b in rows:
                model = self.models.get(b.model)
                if model is None or b.api not in APIS:
                    waiting.pop(b.id, None)
                    self.result.batch_errors.append(f"{b.model}: batch {b.batch_id} cannot be collected: the model is "
                                                    "not part of this batch")
                    continue
                provider = create(model)
                if not isinstance(provider, SDKProvider):
                    waiting.pop(b.id, None)
                    continue
                apis.setdefault(b.model, APIS[b.api](provider))
            while waiting:
                if self.cancel is not None and self.cancel.is_set():
                    return
                ended: list[tuple[ProviderBatch, BatchState]] = []
                for b in list(waiting.values()):
                    assert b.batch_id is not None
                    try:
                        state = await apis[b.model].state(b.batch_id)
                    except ProviderError as exc:
                        if exc.retriable:
                            log.warning("%s (tried again in %g s)", exc, self.poll_interval_s)
                            continue
                        waiting.pop(b.id)
                        self.result.batch_errors.append(f"{exc}; the batch stays recorded: run the batch again to "
                                                        "collect it")
                        continue
                    words = f"{b.model}: batch {b.batch_id} {state.status}: {state.counts_text()}"
                    if said.get(b.id) != words:
                        said[b.id] = words
                        log.info("%s", words)
                        self.store.update_provider_batch(b.id, details={"status": state.status,
                                                                        "counts": state.counts})
                    if state.ended:
                        ended.append((b, state))
                for b, state in ended:
                    waiting.pop(b.id)
                    await self._store_results(b, state, apis[b.model], replan)
                if waiting:
                    await self._sleep()
        finally:
            for api in apis.values():
                await api.aclose()

    async def _sleep(self) -> None:
        """The poll interval, cut short when the batch is cancelled."""
        end = time.monotonic() + self.poll_interval_s
        while (left := end - time.monotonic()) > 0:
            if self.cancel is not None and self.cancel.is_set():
                return
            await asyncio.sleep(min(left, 0.5))

    async def _store_results(self, b: ProviderBatch, state: BatchState, api: BatchAPI,
                             replan: Callable[[], Iterable[Cell]]) -> None:
        outcomes: dict[str, Outcome] = {}
        try:
            async for o in api.results(state):
                if o.custom_id in b.cells:
                    outcomes[o.custom_id] = o
        except ProviderError as exc:
            self.result.batch_errors.append(f"{exc}; the batch stays recorded: run the batch again to collect it")
            return
        answered = {cid: o for cid, o in outcomes.items() if not o.unasked}
        stored, changed, cost = await asyncio.to_thread(self._store_outcomes, b, answered, api.provider, replan)
        unasked = len(b.cells) - stored
        status = "collected"
        if state.problem is not None:
            status = {"failed": "failed", "expired": "expired", "cancelled": "cancelled",
                      "canceled": "cancelled"}.get(state.status, "expired" if "expired" in state.problem
                                                   else "cancelled")
        self.store.update_provider_batch(b.id, status=status, details={
            "status": state.status, "counts": state.counts, "stored": stored, "unasked": unasked,
            "problem": state.problem, "collected_at": _now()})
        if self.spend is not None:
            self.spend.settle_cost(b.estimate or 0.0, cost)
        if changed:
            self.result.batch_errors.append(f"{b.model}: {changed:,} results of batch {b.batch_id} are for requests "
                                            "that are no longer the ones this run sends (the model's settings "
                                            "changed): not stored; run the batch again to ask them")
        if state.problem is not None:
            self.result.batch_errors.append(
                f"{b.model}: batch {b.batch_id} {state.problem}: {stored:,} of its {len(b.cells):,} answers stored; "
                f"the {unasked:,} others stay unasked: run the batch again to ask them")
        else:
            if unasked > changed:
                self.result.batch_errors.append(
                    f"{b.model}: batch {b.batch_id} ended without {unasked - changed:,} of its answers (not in its "
                    "results, or their cells are no longer in this run's plan): they stay unasked")
            failed = sum(1 for o in answered.values() if o.error is not None)
            log.info("%s: batch %s: %d answers%s stored", b.model, b.batch_id, stored - failed,
                     f" and {failed} failed calls" if failed else "")

    def _store_outcomes(self, b: ProviderBatch, answered: dict[str, Outcome], provider: SDKProvider,
                        replan: Callable[[], Iterable[Cell]]) -> tuple[int, int, float]:
        """Store each result as its cell's answer (made again by ``replan``); returns how many were stored, how
        many were for a request that is no longer what the cell sends, and what the stored answers cost."""
        want = {key: cid for key, cid in b.keys().items() if cid in answered}
        factor = price_factor(b.api)
        stored = changed = 0
        cost = 0.0
        if not want:
            return 0, 0, 0.0
        group: list[tuple[Cell, Response, dict[str, Any]]] = []  # written together (Store.save_responses)

        def write() -> None:
            self.store.save_responses([row for _, _, row in group])
            for cell, resp, row in group:
                if self.on_answer is not None:
                    self.on_answer(cell, resp, row)
            group.clear()

        for cell in replan():
            cid = want.pop(cell.key, None)
            if cid is None:
                continue
            p = self.prepare(cell, provider)
            model = cell.model
            if p.sent.cache_key(model.provider, model.model, model.options, model.base_url) != b.cells[cid][3]:
                changed += 1
            else:
                resp = self._response(answered[cid], provider, p.sent, factor, b)
                if p.details:
                    resp.details = dict(resp.details, **p.details)
                group.append((cell, resp, dict(response_row(self.run.id, cell, resp, p.sent), asked_by=self.who)))
                stored += 1
                cost += resp.cost or 0.0
                if len(group) >= MOST:
                    write()
            if not want:
                break
        write()
        return stored, changed, cost

    @staticmethod
    def _response(o: Outcome, provider: SDKProvider, sent: Request, factor: float, b: ProviderBatch) -> Response:
        """A result as the Response a live call makes (module doc), at the batch price."""
        where = {"provider_batch": {"api": b.api, "batch_id": b.batch_id, "price_factor": factor}}
        if o.error is not None:
            return Response(error=f"{provider.label}: {o.error} (batch {b.batch_id})", latency_s=None, details=where)
        try:
            resp = provider.reply_from_body(o.reply, sent)
        except ProviderError as exc:
            return Response(error=f"{exc} (batch {b.batch_id})", latency_s=None, details=where)
        if resp.cost is not None:
            resp.cost *= factor
        resp.details = dict(resp.details, **where)
        return resp


def _token(b: ProviderBatch) -> str | None:
    """What a batch was created with (OpenAI: in its metadata; Gemini: in its display name), to find it when its id
    was never recorded."""
    token = b.details.get("token")
    return token if isinstance(token, str) and token else None


def _now() -> str:
    from probe_ui.store import now

    return now()


__all__ = ["POLL_INTERVAL_S", "Prepared", "ProviderBatches", "custom_id"]
