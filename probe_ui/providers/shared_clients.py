"""SDK clients shared by every call on one event loop: one per provider class, server, key and client settings.

An SDK client owns an HTTP connection pool (and its TLS settings), which belong to the event loop that made them.
A batch makes its clients on its own loop and closes them at its end. The live probes all run on one long-lived
loop (:mod:`probe_ui.live.calls`), which registers itself here with :func:`share_on`: a provider on that loop then
takes its client from this registry, so the second probe of a session, and every other session's probe, reuse
the connections the first one opened. The registry closes them (:func:`aclose`), never a provider.

A client is keyed by everything it carries: the provider class, base URL, the key (hashed), retries, timeout and
reply cap. Two people's keys never share a client. (The HTTP library scans every pooled connection of a client on each
request: the live loops' separate pools, one per loop, also keep that scan short.)

:data:`RATE_LIMITED` is how a 429 reaches the live limit: the call's task sets it to the limit's ``pause``, and the
response hook of a shared client calls it with the server's ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextvars
import email.utils
import hashlib
import logging
import time
from typing import Any, Callable

log = logging.getLogger("probe_ui.providers")

#: set by the live limit around one call: called with the seconds a 429 / 503 reply asks to wait
RATE_LIMITED: contextvars.ContextVar[Callable[[float], None] | None] = contextvars.ContextVar(
    "probe_ui_rate_limited", default=None)
#: statuses whose Retry-After holds back new calls
WAIT_STATUSES = (429, 503)
#: seconds to hold back after a 429 that gives no Retry-After
DEFAULT_WAIT_S = 1.0

_registries: dict[asyncio.AbstractEventLoop, dict[tuple[Any, ...], Any]] = {}


def share_on(loop: asyncio.AbstractEventLoop) -> None:
    """Clients made on ``loop`` are shared by every provider on it until :func:`aclose`."""
    _registries.setdefault(loop, {})


def shared(loop: asyncio.AbstractEventLoop) -> bool:
    return loop in _registries


def client_key(provider_class: type, base_url: str | None, key: str, *settings: Any) -> tuple[Any, ...]:
    """The identity of a shared client on one loop: provider class, server, key (hashed), client settings."""
    return (provider_class, base_url, hashlib.sha256(key.encode()).hexdigest(), *settings)


def get(loop: asyncio.AbstractEventLoop, ident: tuple[Any, ...], make: Callable[[], tuple[Any, Any]]) -> Any:
    """The shared client for ``ident`` on ``loop``, made by ``make`` (which returns the SDK client and its HTTP
    client) on first use; the HTTP client then reports 429s to :data:`RATE_LIMITED`."""
    clients = _registries[loop]
    client = clients.get(ident)
    if client is None:
        client, http_client = make()
        http_client.event_hooks = {**http_client.event_hooks,
                                   "response": [*http_client.event_hooks.get("response", []), _note_wait]}
        clients[ident] = client
    return client


async def aclose(loop: asyncio.AbstractEventLoop) -> None:
    """Close every client shared on ``loop`` (run on that loop) and stop sharing there."""
    clients = _registries.pop(loop, {})
    for client in clients.values():
        try:
            await client.close()
        except Exception as exc:  # noqa: BLE001 - closing: one client's failure must not keep the others open
            log.info("a shared client did not close cleanly: %s", exc)


def retry_after_s(headers: Any) -> float | None:
    """The wait a reply asks for: ``retry-after-ms``, ``Retry-After`` in seconds or as an HTTP date; None when
    it gives none that can be read."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


async def _note_wait(response: Any) -> None:
    if response.status_code not in WAIT_STATUSES:
        return
    pause = RATE_LIMITED.get()
    if pause is None:
        return
    wait = retry_after_s(response.headers)
    if wait is None and response.status_code == 429:
        wait = DEFAULT_WAIT_S
    if wait is not None:
        pause(wait)


__all__ = ["RATE_LIMITED", "aclose", "client_key", "get", "retry_after_s", "share_on", "shared"]
