"""A loopback OpenAI-compatible server with a rate limit, as every real API has one: a token bucket of ``burst``
requests refilled at ``rate_per_s``, a fixed reply latency, and ``429`` with ``Retry-After`` for a request that
finds the bucket empty.

Each chat-completions request takes one token when it arrives. One that finds none is refused at once (no latency:
a real API refuses before any model work) with::

    HTTP 429  {"error": {"type": "requests", "code": "rate_limit_exceeded", ...}}
    Retry-After: 0.083             (seconds until a token is back; ``integer_retry_after=True``: whole seconds, >= 1)

and every chat answer, accepted or refused, carries OpenAI's headers (``x-ratelimit-limit-requests``: the bucket's
size, ``x-ratelimit-remaining-requests``: whole tokens left, ``x-ratelimit-reset-requests``: the time until the
bucket is full again, written as OpenAI writes it: ``120ms``, ``1.5s``, ``1m0s``; ``rate_headers=False`` leaves
them out, as many servers do). Streamed answers carry none.

Counters: :attr:`ThrottledOpenAIServer.accepted`, :attr:`~ThrottledOpenAIServer.refused` and the log
:attr:`~ThrottledOpenAIServer.events` (arrival time, accepted or not, the wait a refusal asked for, when the
refusal was sent). Scripted faults (``fail(500)``) still work: they are played on accepted requests only.

Whatever starts the server stops it in ``finally`` (``with ThrottledOpenAIServer(...) as server:`` does).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from fake_openai import FakeOpenAIServer, Fault, RecordedRequest, _Handler


@dataclass
class Event:
    """One chat request as the throttle saw it (``time.monotonic()`` on the server)."""

    at: float
    accepted: bool
    retry_after_s: float | None = None  # what a refusal asked for
    answered_at: float | None = None  # when the refusal left (set by the handler)


@dataclass
class Refusal(Fault):
    """A 429 sent at once, without the reply latency."""

    event: Event | None = None


def reset_text(seconds: float) -> str:
    """A duration as OpenAI writes ``x-ratelimit-reset-*``: ``17ms``, ``1.5s``, ``6m0s``."""
    if seconds < 1:
        return f"{max(0, round(seconds * 1000))}ms"
    minutes, secs = divmod(seconds, 60)
    secs_text = f"{secs:.3f}".rstrip("0").rstrip(".")
    if minutes >= 60:
        hours, minutes = divmod(minutes, 60)
        return f"{int(hours)}h{int(minutes)}m{secs_text}s"
    return f"{int(minutes)}m{secs_text}s" if minutes else f"{secs_text}s"


class ThrottledOpenAIServer(FakeOpenAIServer):
    """:class:`FakeOpenAIServer` behind a token bucket (see the module docstring)."""

    thread_name = "fake-openai-throttled"

    def __init__(self, *, rate_per_s: float = 10.0, burst: int | None = None, latency_s: float = 0.2,
                 integer_retry_after: bool = False, rate_headers: bool = True, **kwargs: Any) -> None:
        super().__init__(latency_s=latency_s, **kwargs)
        self.rate_per_s = float(rate_per_s)
        #: the bucket's size (default: one second's worth)
        self.burst = int(burst if burst is not None else max(1, round(rate_per_s)))
        self.integer_retry_after = integer_retry_after
        #: whether answers carry the x-ratelimit-* headers (False: only a refusal's Retry-After tells the client)
        self.rate_headers = rate_headers
        self.accepted = 0
        self.refused = 0
        self.events: list[Event] = []
        self._tokens = float(self.burst)
        self._stamp = time.monotonic()
        self._tls = threading.local()  # the rate headers of the request this handler thread is answering

    def _take(self, now: float) -> tuple[bool, float]:
        """Refill, then take a token: (accepted, seconds until the next token when refused). Under the lock."""
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate_per_s)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True, 0.0
        return False, (1 - self._tokens) / self.rate_per_s

    def _headers(self) -> dict[str, str]:
        """OpenAI's request-limit headers for the bucket as it is now (none when ``rate_headers`` is off). Under
        the lock."""
        if not self.rate_headers:
            return {}
        full_in = (self.burst - self._tokens) / self.rate_per_s
        return {"x-ratelimit-limit-requests": str(self.burst),
                "x-ratelimit-remaining-requests": str(max(0, math.floor(self._tokens))),
                "x-ratelimit-reset-requests": reset_text(full_in)}

    def _record(self, req: RecordedRequest) -> tuple[Fault | None, str | None]:
        with self._lock:
            ok, wait = self._take(req.received_at)
            headers = self._headers()
            event = Event(req.received_at, ok, None if ok else wait)
            self.events.append(event)
            if ok:
                self.accepted += 1
            else:
                self.refused += 1
                self.requests.append(req)
        self._tls.rate_headers = headers
        if not ok:
            after = str(max(1, math.ceil(wait))) if self.integer_retry_after else f"{wait:.3f}"
            return Refusal(status=429, retry_after=after, headers=headers, event=event), None
        return super()._record(req)

    def reset(self) -> None:
        super().reset()
        with self._lock:
            self.accepted = self.refused = 0
            self.events.clear()
            self._tokens, self._stamp = float(self.burst), time.monotonic()

    @property
    def refusals(self) -> list[Event]:
        return [e for e in self.events if not e.accepted]


class _ThrottledHandler(_Handler):
    fake: ThrottledOpenAIServer

    def _apply_fault(self, fault: Fault | None) -> bool:
        if isinstance(fault, Refusal):
            extra = dict(fault.headers, **{"Retry-After": str(fault.retry_after)})
            body = {"error": {"message": "Rate limit reached for requests (fake): "
                                         f"limit {self.fake.burst}, {self.fake.rate_per_s:g}/s",
                              "type": "requests", "param": None, "code": "rate_limit_exceeded"}}
            self._send_json(429, body, extra)
            if fault.event is not None:
                fault.event.answered_at = time.monotonic()
            return True
        return super()._apply_fault(fault)

    def _send_raw(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        rate = getattr(self.fake._tls, "rate_headers", None) if self.route.endswith("/chat/completions") else None
        self.fake._tls.rate_headers = None
        super()._send_raw(status, data, content_type, {**(rate or {}), **(headers or {})})


ThrottledOpenAIServer.handler_class = _ThrottledHandler
