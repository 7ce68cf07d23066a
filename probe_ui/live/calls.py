"""How live probes send their calls: all at once, within one fair limit per provider and server, on shared loops.

A live probe is a person waiting for a table to fill. Every call of it leaves at once, up to the **live limit** of
its provider and base URL (``openai/a``, ``openai/b`` and ``openai/c`` on one server share one limit; two servers
have two). The limit is one per process, shared by every probe of every session of the app, so thirty people
probing one server never put more than the limit in flight there; while calls wait, slots go round-robin between
the probes that wait (one probe of 80 calls does not hold up a probe of 6 behind it). A 429 (or 503) reply with
``Retry-After`` holds back every new call to that server for that long; the call itself is sent again after the wait
by the server's rate controller (:mod:`probe_ui.providers.rate_control`, shared with batches in the process), which
also lowers how many calls are in flight while the server refuses them; a call fails once the server has refused
everything for :data:`LIVE_RATE_LIMIT_WAIT_S`.

Live probes run on a few long-lived background event loops (:func:`run`), so the SDK clients, their connection pools
and TLS settings are made once per loop, provider, server and key and reused by every later probe of every session
(:mod:`probe_ui.providers.shared_clients`); they are closed when the process ends (:func:`shutdown`).

Batches do not come here: they keep their own throughput-oriented limits (:class:`probe_ui.runner.ProviderPool`).

The limit: ``live_concurrency`` of the catalogue entry (the smallest of the entries that share a server), else
``PROBE_UI_LIVE_LIMIT``, else :data:`DEFAULT_LIVE_LIMIT`.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import importlib
import itertools
import logging
import os
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from probe_ui.providers import rate_control, shared_clients
from probe_ui.providers.base import ModelConfig, Provider
from probe_ui.runner.execute import CallLimit, ProviderPool

log = logging.getLogger("probe_ui.live")

#: calls in flight at once per provider and base URL, across all live probes: a 10-variant x 8-model probe (80)
#: leaves at once with room for another, and ten people pressing Run on a 6 x 3 probe at the same moment (180)
#: leave in one wave, where 100 sent them in two (each of the later ones a whole model latency late: 1.41 against
#: 1.07 s for the slowest of ten, one model at 0.5 s, perf/live_probe.py); thirty such people share two.
#: A 429 still holds back every new call to that server (below), and a catalogue entry's ``live_concurrency``
#: or PROBE_UI_LIVE_LIMIT sets a smaller limit for a server that wants one.
DEFAULT_LIVE_LIMIT = 200
LIVE_LIMIT_ENV = "PROBE_UI_LIVE_LIMIT"
#: a Retry-After longer than this is taken as this (a server asking for an hour is not worth a frozen page)
MAX_PAUSE_S = 60.0
#: a live call's cells fail once their server has refused every request (429) for this long (a batch waits 10 min)
LIVE_RATE_LIMIT_WAIT_S = 60.0
T = TypeVar("T")


def default_limit() -> int:
    raw = os.environ.get(LIVE_LIMIT_ENV, "")
    try:
        value = int(raw) if raw.strip() else DEFAULT_LIVE_LIMIT
    except ValueError:
        log.warning("%s=%r is not a whole number; using %d", LIVE_LIMIT_ENV, raw, DEFAULT_LIVE_LIMIT)
        return DEFAULT_LIVE_LIMIT
    return max(1, value)


# ---- the fair limit --------------------------------------------------------------------------------------------
class FairLimit:
    """At most ``capacity`` calls in flight; waiting calls are let in round-robin by owner (a probe), and none
    while the server has asked to wait (:meth:`pause`). Shared by the live loops' threads (a lock guards it; a
    waiter is woken on its own loop)."""

    def __init__(self, provider: str, where: str, capacity: int) -> None:
        self.provider, self.where, self.capacity = provider, where, capacity
        self.in_flight = 0
        self.waiting: OrderedDict[str, deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]] = OrderedDict()
        self.paused_until = 0.0
        self.users: set[str] = set()  # who has sent calls here (the Models tab shows a server to them)
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    @property
    def queued(self) -> int:
        return sum(len(q) for q in self.waiting.values())

    def paused_for(self) -> float:
        return max(0.0, self.paused_until - time.monotonic())

    async def acquire(self, owner: str) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if not self.waiting and self.in_flight < self.capacity and not self.paused_for():
                self.in_flight += 1
                return
            fut: asyncio.Future[None] = loop.create_future()
            self.waiting.setdefault(owner, deque()).append((loop, fut))
        self._wake()
        try:
            await fut
        except asyncio.CancelledError:
            with self._lock:
                q = self.waiting.get(owner)
                queued = q is not None and (loop, fut) in q
                if queued:
                    q.remove((loop, fut))  # type: ignore[union-attr]
                    if not q:
                        del self.waiting[owner]
            if not queued and fut.done() and not fut.cancelled():
                self.release()  # let in just as it was cancelled: the slot goes to the next
            raise  # (let in but not yet woken: _grant passes the slot on)

    def release(self) -> None:
        with self._lock:
            self.in_flight -= 1
        self._wake()

    def pause(self, seconds: float) -> None:
        """The server said to wait: no new call leaves before ``seconds`` from now (calls in flight go on)."""
        seconds = min(max(seconds, 0.0), MAX_PAUSE_S)
        with self._lock:
            self.paused_until = max(self.paused_until, time.monotonic() + seconds)
        log.info("%s at %s asked to wait %.1f s; new live calls there wait", self.provider, _public(self.where),
                 seconds)

    def _wake(self) -> None:
        with self._lock:
            wait = self.paused_for()
            if wait:
                if self.waiting and self._timer is None:
                    self._timer = threading.Timer(wait, self._resume)
                    self._timer.daemon = True
                    self._timer.start()
                return
            while self.waiting and self.in_flight < self.capacity:
                owner, q = next(iter(self.waiting.items()))
                loop, fut = q.popleft()
                if q:
                    self.waiting.move_to_end(owner)  # round-robin: the next probe's call goes next
                else:
                    del self.waiting[owner]
                self.in_flight += 1
                try:
                    loop.call_soon_threadsafe(self._grant, fut)
                except RuntimeError:  # its loop is closed: the slot is free again
                    self.in_flight -= 1

    def _grant(self, fut: asyncio.Future[None]) -> None:
        """On the waiter's loop: let it in, or pass the slot on when it gave up meanwhile."""
        if fut.done():
            self.release()
        else:
            fut.set_result(None)

    def _resume(self) -> None:
        with self._lock:
            self._timer = None
        self._wake()


class _Slot:
    """``async with`` one slot of a :class:`FairLimit` for one owner, with 429s noted against that limit."""

    def __init__(self, limit: FairLimit, owner: str, ready: asyncio.Future[Any] | None = None) -> None:
        self.limit, self.owner, self.ready = limit, owner, ready

    async def __aenter__(self) -> None:
        if self.ready is not None:
            await asyncio.shield(self.ready)  # the provider's SDK, imported off the loop
        await self.limit.acquire(self.owner)
        # each worker is a task with a context of its own: this call's 429s reach this limit only
        shared_clients.RATE_LIMITED.set(self.limit.pause)

    async def __aexit__(self, *exc: object) -> None:
        shared_clients.RATE_LIMITED.set(None)
        self.limit.release()


# ---- the process's limits --------------------------------------------------------------------------------------
_limits: dict[tuple[str, str], FairLimit] = {}
_lock = threading.Lock()


def where_of(provider: Provider, config: ModelConfig) -> str:
    """The server a model's calls go to, as the limit is keyed: its base URL(s), else the SDK's own variable,
    else the provider's default host (:func:`probe_ui.providers.rate_control.server_of`)."""
    return rate_control.server_of(provider, config)


def limit_for(provider: Provider, config: ModelConfig) -> FairLimit:
    """The one live limit of this model's provider and server (made on first use)."""
    key = (config.provider, where_of(provider, config))
    wanted = config.live_concurrency
    with _lock:
        limit = _limits.get(key)
        if limit is None:
            limit = _limits[key] = FairLimit(key[0], key[1], wanted or default_limit())
        elif wanted and wanted < limit.capacity:
            limit.capacity = wanted  # the smallest limit any entry on this server sets
        return limit


class LivePool(ProviderPool):
    """A :class:`ProviderPool` for one live probe: API models wait on the process's shared :class:`FairLimit`
    (by provider and server) instead of a limit of the probe's own; a local model (one at a time, or in-process)
    keeps its own limit, as in a batch."""

    def __init__(self, owner: str, user: str | None = None, calls: dict[str, int] | None = None) -> None:
        super().__init__(None, LIVE_RATE_LIMIT_WAIT_S)
        self.owner, self.user = owner, user or ""
        self.calls = calls or {}  # calls per model in this probe: no more workers than that
        self._imports: dict[str, asyncio.Future[Any]] = {}

    def _sdk_ready(self, provider: Provider) -> asyncio.Future[Any] | None:
        """The import of the provider's SDK, on a thread (seconds the first time; an import on the loop would
        hold up every probe's answers, and a model that needs no SDK waits for nothing)."""
        sdk = provider.sdk
        if not sdk or sdk in sys.modules:
            return None
        if sdk not in self._imports:
            self._imports[sdk] = asyncio.ensure_future(asyncio.to_thread(_try_import, sdk))
        return self._imports[sdk]

    def limit_of(self, provider: Provider, model: ModelConfig) -> tuple[CallLimit, int]:
        """An API model: a slot of the shared live limit of its provider and server, with no more workers than
        this probe's calls to it; a local model: its own limit, as in a batch. A model without a server (a baseline,
        one in this process) has no server's limit to share."""
        if self.is_local(provider) or not provider.takes_url:
            return super().limit_of(provider, model)
        limit = limit_for(provider, model)
        limit.users.add(self.user)
        capacity = max(1, min(limit.capacity, self.calls.get(model.name, limit.capacity)))
        return _Slot(limit, self.owner, self._sdk_ready(provider)), capacity

    def pacing_of(self, provider: Provider, model: ModelConfig) -> rate_control.Pacing | None:
        """The server's rate controller, shared with batches, its ceiling the live limit of the server (not this
        probe's calls to one model: the probe's other models share it)."""
        if self.is_local(provider) or not provider.takes_url:
            return None
        ceiling = limit_for(provider, model).capacity
        return rate_control.Pacing(rate_control.control_for(provider, model, ceiling), self.rate_limit_wait_s)


# ---- the shared event loops -----------------------------------------------------------------------------------
#: live loops, each on a thread of its own; probes take them in turn. One loop would do the work, but on a busy
#: machine the scheduler shares the cores out by thread, and one thread for every probe got a small share
LOOPS = 4
_loops: list[tuple[asyncio.AbstractEventLoop, threading.Thread]] = []
_turn = itertools.count()


def _start_loop(n: int) -> tuple[asyncio.AbstractEventLoop, threading.Thread]:
    ready = threading.Event()
    new = asyncio.new_event_loop()
    shared_clients.share_on(new)

    def serve() -> None:
        asyncio.set_event_loop(new)
        new.call_soon(ready.set)
        new.run_forever()

    thread = threading.Thread(target=serve, name=f"probe-ui live calls {n}", daemon=True)
    thread.start()
    ready.wait()
    return new, thread


def loop() -> asyncio.AbstractEventLoop:
    """A live loop (in turn), started on first use on a daemon thread; its SDK clients are shared."""
    with _lock:
        if not _loops:
            _loops.extend(_start_loop(n) for n in range(LOOPS))
        return _loops[next(_turn) % len(_loops)][0]


def _try_import(sdk: str) -> None:
    try:
        importlib.import_module(sdk)
    except ImportError:
        pass  # the call itself says the SDK is missing, on its cards


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the live loop and wait for its result (from any thread but the loop's own)."""
    fut: concurrent.futures.Future[T] = asyncio.run_coroutine_threadsafe(coro, loop())
    try:
        return fut.result()
    except BaseException:
        fut.cancel()
        raise


def shutdown() -> None:
    """Close the shared clients and stop the loops (at exit; a later probe starts fresh loops)."""
    with _lock:
        current = list(_loops)
        _loops.clear()
    for lp, thread in current:
        if lp.is_closed():
            continue
        try:
            asyncio.run_coroutine_threadsafe(shared_clients.aclose(lp), lp).result(timeout=10)
        except Exception as exc:  # noqa: BLE001 - closing at exit: say so, never fail the exit
            log.info("the live probes' clients were not closed cleanly: %s", exc)
        lp.call_soon_threadsafe(lp.stop)
        thread.join(timeout=10)
        if not thread.is_alive():
            lp.close()
    with _lock:
        _limits.clear()


atexit.register(shutdown)


# ---- what the Models tab shows ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LimitStatus:
    provider: str
    where: str  # the server, or "another server" when it is not the caller's to see
    limit: int
    in_flight: int
    waiting: int
    paused_s: float


def status(user: str | None = None, *, admin: bool = False, hidden: Mapping[str, str] | None = None
           ) -> list[LimitStatus]:
    """The live limits of this process: calls in flight and waiting per provider and server. A server is named
    only to an admin and to people who have probed it (an endpoint someone typed in stays theirs); a server in
    ``hidden`` (an endpoint an admin shared: :meth:`probe_ui.catalogue.endpoints.EndpointBook.hidden_servers`) by the
    words given there, never by its URL."""
    with _lock:
        limits = list(_limits.values())
    hidden = hidden or {}

    def where(lim: FairLimit) -> str:
        if not (admin or (user or "") in lim.users):
            return "another server"
        return hidden.get(lim.where, lim.where)

    return [LimitStatus(lim.provider, where(lim), lim.capacity, lim.in_flight, lim.queued, round(lim.paused_for(), 1))
            for lim in sorted(limits, key=lambda x: (x.provider, x.where))]


def status_text(user: str | None = None, *, admin: bool = False, hidden: Mapping[str, str] | None = None) -> str:
    """:func:`status` in words, for the Models tab."""
    rows = status(user, admin=admin, hidden=hidden)
    head = (f"Live probes send every call at once, up to **{default_limit()}** at a time per provider and server "
            "(a catalogue entry's `live_concurrency` can lower it), shared fairly by everyone using this app.")
    if not rows:
        return head + "\n\nNo live calls yet."
    lines = [head, "", "| provider | server | in flight | waiting | limit |", "|---|---|---|---|---|"]
    for r in rows:
        wait = f"{r.waiting}" + (f" (server asked to wait {r.paused_s:g} s)" if r.paused_s else "")
        lines.append(f"| {r.provider} | {_cell(r.where)} | {r.in_flight} | {wait} | {r.limit} |")
    return "\n".join(lines)


def _public(where: str) -> str:
    """A server's URL(s) without user info, query or fragment (:func:`probe_ui.security.redact.public_url`)."""
    from probe_ui.security import redact

    return " ".join(str(redact.public_url(u)) for u in where.split()) if "://" in where else where


def _cell(where: str) -> str:
    """A server as the table shows it: its public URL in code type, or the words as they are."""
    if "://" not in where:
        return where
    return "`" + _public(where).replace("`", "").replace("|", "%7C") + "`"


__all__ = ["DEFAULT_LIVE_LIMIT", "FairLimit", "LIVE_LIMIT_ENV", "LimitStatus", "LivePool", "limit_for", "loop",
           "run", "shutdown", "status", "status_text", "where_of"]
