"""What every visitor's browser or client fetches on arrival, built once and served from memory.

A browser loading the app, or a ``gradio_client`` connecting, fetches the page (``/``: ~550 KB, the app's whole
layout and API description), its configuration (``/config``: ~370 KB, a deep copy of the app's layout made for
each request) and the API description (``/gradio_api/info``: ~160 KB, encoded afresh for each request). Gradio
builds each of these anew on every request: tens of milliseconds of CPU each, so that fifty people arriving
together waited seconds behind one another (issue 23's "connect" and "page load"). They are the same for every
request of one signed-in user at one address, so :class:`SharedPages` (an ASGI middleware) keeps the finished
response, per route, query and the address the client used (the page names its own root URL), and serves it
again for :data:`KEEP_S` seconds; a request that comes while the same response is being built waits for it:

- the API description is the same for everyone signed in (Gradio itself builds it once);
- the configuration differs between users only by the name it gives (``username``): it is built once, and
  another user gets it with their own name written in (a re-encoding, ~1 ms, not a ~40 ms deep copy);
- the page embeds its configuration in a script: it is kept per user.

Only complete ``200`` responses without cookies are kept, only for visitors who have signed in (or an app
without a login); a visitor who has not signed in gets what Gradio gives them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from starlette.requests import HTTPConnection

from probe_ui.kept import Kept

try:  # what Gradio encodes its JSON with (a dependency of Gradio's); the standard library otherwise
    import orjson
except ImportError:  # pragma: no cover - Gradio installs orjson
    orjson = None  # type: ignore[assignment]


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value) if orjson is not None else json.dumps(value, separators=(",", ":")).encode()


def _loads(body: bytes) -> Any:
    return orjson.loads(body) if orjson is not None else json.loads(body)


#: the routes kept: the page, its configuration and the API description
ROUTES = frozenset({"/", "/config", "/config/", "/gradio_api/info", "/gradio_api/info/"})
#: the same for everyone signed in
EVERYONE = frozenset({"/gradio_api/info", "/gradio_api/info/"})
#: JSON that differs between users only by its ``username``
NAMED = frozenset({"/config", "/config/"})
#: how long a kept response is served again (the app's layout does not change while it runs; a short life
#: bounds any surprise)
KEEP_S = 60.0
#: seconds a request waits for the same response being built for another before it builds its own
BUILD_WAIT_S = 10.0
#: responses kept at most (users x routes x addresses), oldest dropped first
MAX_KEPT = 512
#: the request headers that change what Gradio writes (the root URL it names, the encoding)
_VARY = (b"host", b"x-forwarded-host", b"x-forwarded-proto", b"x-forwarded-port", b"x-forwarded-prefix",
         b"x-script-name", b"forwarded", b"accept-encoding")


def user_of(scope: dict[str, Any]) -> str | None:
    """The signed-in user of a request ("" for an app without a login), or None when not signed in."""
    app = scope.get("app")
    if app is None or getattr(app, "auth", None) is None:
        return ""
    cookies = HTTPConnection(scope).cookies
    cookie_id = getattr(app, "cookie_id", "")
    tokens = getattr(app, "tokens", {})
    for name in (f"access-token-{cookie_id}", f"access-token-unsecure-{cookie_id}"):
        user = tokens.get(cookies.get(name))
        if user is not None:
            return str(user)
    return None


class SharedPages:
    """ASGI middleware: the page, ``/config`` and ``/gradio_api/info`` built once per user and address, then
    served from memory for :data:`KEEP_S` seconds."""

    def __init__(self, app: Any, keep_s: float = KEEP_S, max_kept: int = MAX_KEPT) -> None:
        self.app, self.keep_s = app, keep_s
        self._kept: Kept[tuple[Any, ...], tuple[float, dict[str, Any], bytes]] = Kept(max_kept)
        #: responses being built now, by key: a second request for one waits for it (all on the server's loop)
        self._building: dict[tuple[Any, ...], asyncio.Event] = {}

    @property
    def served(self) -> int:
        """Responses served from memory (tests and the benchmark read it)."""
        return self._kept.hits

    def key(self, scope: dict[str, Any]) -> tuple[tuple[Any, ...], str] | None:
        """What a kept response is filed under, and the request's user; None when this request is not one to
        keep."""
        if scope["type"] != "http" or scope.get("method") != "GET" or scope.get("path") not in ROUTES:
            return None
        user = user_of(scope)
        if user is None:
            return None
        app = scope.get("app")
        blocks = app.get_blocks() if app is not None and hasattr(app, "get_blocks") else None
        headers = dict(scope.get("headers") or [])
        shared = scope["path"] in EVERYONE or scope["path"] in NAMED
        return (scope["path"], scope.get("query_string", b""), scope.get("root_path", ""),
                None if shared else user, id(getattr(blocks, "config", None)), *(headers.get(h) for h in _VARY)), user

    def _hit(self, key: tuple[Any, ...], now: float) -> tuple[dict[str, Any], bytes] | None:
        hit = self._kept.get(key, fresh=lambda kept: now - kept[0] <= self.keep_s)
        return (hit[1], hit[2]) if hit is not None else None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        found = self.key(scope)
        if found is None:
            await self.app(scope, receive, send)
            return
        key, user = found
        hit = self._hit(key, time.monotonic())
        if hit is None and key in self._building:
            # the same response is being built for someone else: wait for it rather than build it again (people
            # arriving together at a cold app each made Gradio rebuild the same 370 KB configuration)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._building[key].wait(), BUILD_WAIT_S)
            hit = self._hit(key, time.monotonic())
        if hit is not None:
            start, body = hit
            if scope["path"] in NAMED:
                start, body = _named(start, body, user)
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})
            return
        building = self._building.setdefault(key, asyncio.Event())
        try:
            await self.app(scope, receive, self._keeping(key, time.monotonic(), send))
        finally:
            if self._building.get(key) is building:
                del self._building[key]
            building.set()

    def _keeping(self, key: tuple[Any, ...], now: float, send: Any) -> Any:
        """A ``send`` that passes the response on as it goes and keeps it once complete, when it may be kept."""
        start: dict[str, Any] = {}
        body = bytearray()

        async def wrapped(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body" and start:
                body.extend(message.get("body", b""))
                if not message.get("more_body") and self._may_keep(start):
                    self._kept.put(key, (now, dict(start), bytes(body)))
            await send(message)

        return wrapped

    @staticmethod
    def _may_keep(start: dict[str, Any]) -> bool:
        names = {k.lower() for k, _ in start.get("headers", [])}
        return start.get("status") == 200 and not names & {b"set-cookie", b"content-encoding"}


def _named(start: dict[str, Any], body: bytes, user: str | None) -> tuple[dict[str, Any], bytes]:
    """A kept configuration with ``user``'s name in it (unchanged when it already is)."""
    config = _loads(body)
    if not isinstance(config, dict) or config.get("username") == (user or None):
        return start, body
    body = _dumps({**config, "username": user or None})
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
    return {**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]}, body


__all__ = ["KEEP_S", "ROUTES", "SharedPages", "user_of"]
