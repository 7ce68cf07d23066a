"""Rate limits: one adaptive controller per provider, server and key in the process, shared by every pool that calls
there (a batch's :class:`probe_ui.runner.ProviderPool`, stress runs, the live probes' :class:`probe_ui.live.calls.
LivePool`), and the retries of rate-limit refusals.

Real APIs allow so many requests a second and refuse the rest with 429 and ``Retry-After``. A client that sends at
its configured concurrency and lets the SDK retry twice loses cells (200 items at 10 requests/s, 0.2 s a reply:
20 of 200 cells failed at the default concurrency, 89 at ``--concurrency 32``, with 64-300 % of the requests
refused; perf/rate_limits.py). Here:

**How many requests are in flight** (:class:`RateControl`): AIMD on an in-flight limit between 1 and the ceiling
(the largest concurrency any pool configured for this server: ``--concurrency 32`` is a ceiling, not a promise).
A 429, or a 503, halves it (once per round: refusals of requests sent before the last halving do not halve again);
each run of as many clean answers as the limit adds one slot back.

**When the next request may leave**: a refusal's ``Retry-After`` (or ``retry-after-ms``; 1 s when a 429 gives
none) pauses every new request to the server until then, requests in flight go on. Where the server sends OpenAI's
``x-ratelimit-limit-requests`` / ``-remaining-requests`` / ``-reset-requests`` (or Anthropic's
``anthropic-ratelimit-requests-limit`` / ``-remaining`` / ``-reset``, :func:`bucket_headers`), the controller keeps a
copy of the server's token bucket (size = the limit, refill rate = (limit - remaining) / reset, tokens = remaining at
the time the request was sent, less the requests sent since) and sends a request only when that copy holds a token:
the server's rate is then met without being hit (the AIMD limit is the fallback for servers that send no such
headers).

**Refusals are waited out, not failures** (:class:`Pacing`, used by :func:`probe_ui.runner.execute.ask`): a
rate-limit refusal (429 other than ``insufficient_quota``, or 503 with a ``Retry-After``) is retried after the
pause, as often as needed, and does not count against the retry budget for real errors. A cell fails only for a real
error (after the SDK's ``max_retries``, default 2) or when the server has refused every request for the whole
**rate-limit wait** (``--rate-limit-wait``, default :data:`DEFAULT_RATE_LIMIT_WAIT_S` = 10 min; 60 s for live
probes): no request to it was accepted for that long. The wait is the server's, not a cell's: a long batch that goes
on being answered at the server's pace never reaches it, and once a server has refused everything for that long the
cells still to send fail at once, saying "still rate limited after 10 min".

**The SDK's own retries** stay for real errors (5xx, timeouts, dropped connections) but not for rate-limit refusals:
while a call is paced, the capped HTTP client (:mod:`probe_ui.providers.sdk`) reports every reply's status and
headers to :data:`WATCH` and marks a refusal ``x-should-retry: false``, which both official SDKs (openai,
anthropic) obey. Their retry of a 429 would leave at once or after its own backoff, past the in-flight limit and the
pause, counted against ``max_retries``; setting ``max_retries`` to 0 instead would lose the retries of real errors.

The controller is thread-safe (the live probes' loops are threads of their own); a waiter waits on its own loop.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import math
import os
import re
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from probe_ui.providers.base import ModelConfig, Provider, ProviderError
from probe_ui.providers.shared_clients import retry_after_s
from probe_ui.security import redact

#: how long a server may refuse every request before the cells still waiting for it fail (``--rate-limit-wait``)
DEFAULT_RATE_LIMIT_WAIT_S = 600.0
#: the pause after a 429 that says nothing of how long to wait
DEFAULT_PAUSE_S = 1.0
#: statuses that halve the in-flight limit
BACKOFF_STATUSES = (429, 503)
#: a slot is added after this many times the limit clean answers in a row
CLEAN_RUN = 2
#: how much later than it left a request is taken to reach the server, in the copy of its bucket (the server counts
#: a token at arrival; without a margin, a request that took a few ms longer made the next one a few ms early: 3-7
#: refusals in 200 at 10 requests/s, none with it)
ARRIVAL_MARGIN_S = 0.01

#: set around one paced call: called with the status and headers of every HTTP reply it gets (the SDK's own
#: retries included); while set, a rate-limit refusal is marked ``x-should-retry: false`` for the SDK
WATCH: contextvars.ContextVar[Callable[[int, Mapping[str, str]], None] | None] = contextvars.ContextVar(
    "probe_ui_rate_watch", default=None)

T = TypeVar("T")


class RateLimitWaitOver(Exception):
    """The server has refused every request for longer than the caller's rate-limit wait."""

    def __init__(self, refused_for_s: float, last: str) -> None:
        super().__init__(f"still rate limited after {duration_text(refused_for_s)}")
        self.refused_for_s, self.last = refused_for_s, last


def duration_text(seconds: float) -> str:
    """``45 s``, ``10 min``, ``1.5 min``."""
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    return f"{seconds / 60:.1f}".rstrip("0").rstrip(".") + " min"


def is_refusal(status: int, headers: Mapping[str, str]) -> bool:
    """A reply that says "not now": 429, or 503 with a wait (a 503 without one is an outage, a real error)."""
    return status == 429 or (status == 503 and retry_after_s(headers) is not None)


_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def reset_seconds(text: str | None) -> float | None:
    """OpenAI's ``x-ratelimit-reset-*``: ``120ms``, ``1.5s``, ``6m0s``, ``1h2m3s``, or plain seconds."""
    if not text:
        return None
    text = text.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * scale[u] for n, u in parts)


def _until(text: str | None) -> float | None:
    """Anthropic's ``anthropic-ratelimit-requests-reset``: the RFC 3339 time the bucket is full again, as seconds
    from now (None when it does not parse)."""
    if not text:
        return None
    from datetime import datetime, timezone

    try:
        at = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return max(0.0, (at - datetime.now(timezone.utc)).total_seconds())


def bucket_headers(headers: Mapping[str, str]) -> tuple[float | None, float | None, float | None]:
    """The server's request bucket as its headers give it: (limit, remaining, seconds until full), from OpenAI's
    ``x-ratelimit-*-requests`` (the reset a duration) or Anthropic's ``anthropic-ratelimit-requests-*`` (the reset a
    time); Nones where a server sends neither."""
    limit = _number(headers.get("x-ratelimit-limit-requests"))
    if limit is not None:
        return (limit, _number(headers.get("x-ratelimit-remaining-requests")),
                reset_seconds(headers.get("x-ratelimit-reset-requests")))
    return (_number(headers.get("anthropic-ratelimit-requests-limit")),
            _number(headers.get("anthropic-ratelimit-requests-remaining")),
            _until(headers.get("anthropic-ratelimit-requests-reset")))


def _number(text: str | None) -> float | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) and value >= 0 else None


@dataclass
class Ticket:
    """One request let through: its order and when it left."""

    seq: int
    sent_at: float
    observed: bool = False


class RateControl:
    """The in-flight limit, pause and token-bucket copy of one provider + server + key (module docstring)."""

    def __init__(self, name: str, ceiling: int, key: tuple[str, str, str] = ("", "", "")) -> None:
        self.name = name
        #: (provider, server, hashed key): what it is shared by (:func:`control_key`; the key never in clear)
        self.key = key
        self.ceiling = max(1, ceiling)
        self.limit = float(self.ceiling)
        self.in_flight = 0
        self.paused_until = 0.0
        self.seq = 0  # requests let through so far
        self._halved_at_seq = -1  # a refusal of a request sent before this one does not halve again
        self._halved = False
        self._clean = 0
        #: since when every reply has been a refusal (None: the last reply was an answer)
        self.refusing_since: float | None = None
        self.last_refusal = ""
        # the copy of the server's token bucket (None: it sends no x-ratelimit-* headers)
        self.rate: float | None = None
        self.bucket = 0.0
        self.tokens = 0.0
        self.tokens_at = 0.0
        # counters (what the Models tab and the benchmark show)
        self.sent = self.answered = self.refused = 0
        self._lock = threading.Lock()
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    # ---- configuration -------------------------------------------------------------------------------------
    def raise_ceiling(self, ceiling: int) -> None:
        """A pool that allows more in flight: the ceiling is the largest configured (the limit too, until the
        first halving)."""
        with self._lock:
            if ceiling > self.ceiling:
                self.ceiling = ceiling
                if not self._halved:
                    self.limit = float(ceiling)
        self._wake()

    # ---- letting requests through --------------------------------------------------------------------------
    def _wait_locked(self, now: float) -> float:
        """Seconds until a request may leave as far as pause and bucket go (0: now)."""
        wait = max(0.0, self.paused_until - now)
        if self.rate:
            tokens = min(self.bucket, self.tokens + (now - self.tokens_at) * self.rate)
            if tokens < 1:
                wait = max(wait, (1 - tokens) / self.rate)
        return wait

    async def acquire(self, give_up_after_s: float = DEFAULT_RATE_LIMIT_WAIT_S, since: float = 0.0) -> Ticket:
        """Wait for a slot, the end of any pause and a token; raise :class:`RateLimitWaitOver` once the server has
        refused everything for ``give_up_after_s`` (counted from ``since`` at the earliest: a caller that came
        later gets its whole wait)."""
        loop = asyncio.get_running_loop()
        while True:
            with self._lock:
                now = time.monotonic()
                start = None if self.refusing_since is None else max(self.refusing_since, since)
                if start is not None and now - start >= give_up_after_s:
                    raise RateLimitWaitOver(now - start, self.last_refusal)
                wait = self._wait_locked(now)
                if wait <= 0 and self.in_flight < max(1, int(self.limit)):
                    self.in_flight += 1
                    self.seq += 1
                    self.sent += 1
                    if self.rate:
                        self.tokens = min(self.bucket, self.tokens + (now - self.tokens_at) * self.rate) - 1
                        self.tokens_at = now
                    return Ticket(self.seq, now)
                fut: asyncio.Future[None] = loop.create_future()
                self._waiters.append((loop, fut))
                timeout: float | None = wait if wait > 0 else None
                if start is not None:
                    left = give_up_after_s - (now - start)
                    timeout = left if timeout is None else min(timeout, left)
            try:
                await asyncio.wait_for(fut, timeout)
            except asyncio.TimeoutError:
                pass
            finally:
                with self._lock:
                    try:
                        self._waiters.remove((loop, fut))
                    except ValueError:
                        pass

    def release(self, ticket: Ticket) -> None:
        with self._lock:
            self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        """Wake as many waiters as there are free slots (they check pause and bucket themselves)."""
        with self._lock:
            free = max(1, int(self.limit)) - self.in_flight
            woken = []
            while free > 0 and self._waiters:
                woken.append(self._waiters.popleft())
                free -= 1
        for loop, fut in woken:
            try:
                loop.call_soon_threadsafe(_set, fut)
            except RuntimeError:  # its loop is closed
                pass

    # ---- what the server said ------------------------------------------------------------------------------
    def observe(self, ticket: Ticket, status: int, headers: Mapping[str, str], message: str = "") -> None:
        """A reply to ``ticket``'s request: learn the bucket from the headers, halve and pause on a refusal, add a
        slot after a run of clean answers."""
        now = time.monotonic()
        ticket.observed = True
        limit, remaining, reset = bucket_headers(headers)
        refused = is_refusal(status, headers)
        wait = retry_after_s(headers) if status in BACKOFF_STATUSES else None
        grew = False
        with self._lock:
            if limit is None and remaining is None and status < 400:
                self.rate = None  # an answer without the headers: this server keeps no bucket we can copy
            if limit and remaining is not None:
                if reset and limit > remaining:
                    # remaining is the whole tokens left, the reset counts the fraction too: (limit - remaining) /
                    # reset is an upper bound of the rate, up to one token high. The lowest recent bound is kept
                    # (it may rise 2 % an answer, for a server whose limit was raised)
                    bound = (limit - remaining) / reset
                    self.rate = bound if self.rate is None else min(bound, self.rate * 1.02)
                if self.rate:
                    # the server's tokens when this request reached it, less every request let through since
                    self.bucket = limit
                    self.tokens = min(limit, remaining - (self.seq - ticket.seq))
                    self.tokens_at = ticket.sent_at + ARRIVAL_MARGIN_S  # counted when it arrived, a little later
            if status in BACKOFF_STATUSES:
                self._clean = 0
                if ticket.seq > self._halved_at_seq:
                    self.limit = max(1.0, self.limit / 2)
                    self._halved_at_seq, self._halved = self.seq, True
            if refused:
                self.refused += 1
                if self.refusing_since is None:
                    self.refusing_since = now
                if message:
                    self.last_refusal = message
                if wait is None:
                    wait = DEFAULT_PAUSE_S if status == 429 and not self.rate else 0.0
                self.paused_until = max(self.paused_until, now + wait)
            elif status < 400:
                self.answered += 1
                self.refusing_since = None
                self._clean += 1
                if self._clean >= CLEAN_RUN * max(1, int(self.limit)) and self.limit < self.ceiling:
                    self.limit = min(float(self.ceiling), math.floor(self.limit) + 1.0)
                    self._clean, grew = 0, True
        if grew:
            self._wake()

    def status(self) -> dict[str, Any]:
        """Now: the in-flight limit and ceiling, requests in flight, pause left, the learnt rate and the counts."""
        with self._lock:
            return {"name": self.name, "limit": int(self.limit), "ceiling": self.ceiling, "in_flight": self.in_flight,
                    "paused_s": round(max(0.0, self.paused_until - time.monotonic()), 2),
                    "rate_per_s": round(self.rate, 2) if self.rate else None, "sent": self.sent,
                    "answered": self.answered, "refused": self.refused}


def _set(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


# ---- one controller per provider, server and key ------------------------------------------------------------
_controls: dict[tuple[str, str, str], RateControl] = {}
_lock = threading.Lock()


def server_of(provider: Provider | type[Provider], config: ModelConfig) -> str:
    """The server a model's calls go to: its base URL(s), else the SDK's own variable, else the provider's default
    host."""
    url = config.base_url
    if isinstance(url, (tuple, list)):
        return " ".join(url)
    if url:
        return str(url)
    env = getattr(provider, "sdk_base_url_env", None)
    if env and os.environ.get(env):
        return os.environ[env]
    return str(getattr(provider, "default_base_url", None) or f"{config.provider} (default server)")


def _key_id(provider: Provider | type[Provider], config: ModelConfig) -> str:
    """The account a call is counted against (rate limits are per key), hashed; '' when there is none."""
    resolve = getattr(provider, "resolve_key", None)
    try:
        key = resolve(config)[0] if resolve is not None else None
    except Exception:  # noqa: BLE001 - no key: the call itself says why
        key = None
    return hashlib.sha256(key.encode()).hexdigest()[:16] if key else ""


def control_key(provider: Provider | type[Provider], config: ModelConfig) -> tuple[str, str, str]:
    """Which controller a model's calls share: (provider, server, the key hashed). ``provider`` may be the class:
    the Models tab asks which servers a person's models call without making a provider."""
    return (config.provider, server_of(provider, config), _key_id(provider, config))


def control_for(provider: Provider, config: ModelConfig, ceiling: int) -> RateControl:
    """The process's controller for this model's provider, server and key (made on first use), its ceiling at
    least ``ceiling``."""
    key = control_key(provider, config)
    with _lock:
        control = _controls.get(key)
        if control is None:
            where = " ".join(str(redact.public_url(u)) if "://" in u else u for u in key[1].split())
            control = _controls[key] = RateControl(f"{key[0]} at {where}", ceiling, key)
            return control
    control.raise_ceiling(ceiling)
    return control


def controls() -> list[RateControl]:
    with _lock:
        return list(_controls.values())


def forget() -> None:
    """Drop every controller (tests: a later server on the same port is another server)."""
    with _lock:
        _controls.clear()


def rate_limited(exc: ProviderError) -> bool:
    """A refusal to wait out: 429 (not a spent quota) or 503 with a wait, as :func:`probe_ui.providers.sdk`'s errors
    carry it (``status``, ``retry_after``, ``quota``)."""
    status = getattr(exc, "status", None)
    if status == 429:
        return not getattr(exc, "quota", False)
    return status == 503 and getattr(exc, "retry_after", None) is not None


@dataclass
class Pacing:
    """How one pool's calls to one server are paced: the shared controller and the pool's rate-limit wait."""

    control: RateControl
    wait_s: float = DEFAULT_RATE_LIMIT_WAIT_S
    #: when the pool began: refusals before that do not count against its wait
    started: float = field(default_factory=time.monotonic)

    async def call(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt()`` within the controller's limit, again after each rate-limit refusal (module docstring);
        raises the refusal's :class:`ProviderError` with "still rate limited after ..." once the wait is over."""
        last: ProviderError | None = None
        while True:
            try:
                ticket = await self.control.acquire(self.wait_s, self.started)
            except RateLimitWaitOver as over:
                why = str(last) if last is not None else over.last
                raise ProviderError(f"{why}; {over} (--rate-limit-wait)" if why
                                    else f"{self.control.name}: {over} (--rate-limit-wait)", retriable=True) from None
            token = WATCH.set(functools.partial(self.control.observe, ticket))
            try:
                result = await attempt()
            except ProviderError as exc:
                if not ticket.observed and getattr(exc, "status", None) is not None:  # no HTTP reply seen here
                    after = getattr(exc, "retry_after", None)
                    self.control.observe(ticket, exc.status, {"retry-after": after} if after else {})  # type: ignore[attr-defined]
                if not rate_limited(exc):
                    raise
                self.control.last_refusal = str(exc)
                last = exc
                continue
            finally:
                WATCH.reset(token)
                self.control.release(ticket)
            if not ticket.observed:
                self.control.observe(ticket, 200, {})
            return result


__all__ = ["BACKOFF_STATUSES", "DEFAULT_RATE_LIMIT_WAIT_S", "Pacing", "RateControl", "RateLimitWaitOver", "WATCH",
           "control_for", "control_key", "controls", "duration_text", "forget", "is_refusal", "rate_limited",
           "reset_seconds", "server_of"]
