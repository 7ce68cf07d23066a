"""What the web server says before anyone has signed in: nothing about the app.

Gradio 6 puts the app's whole API description (every endpoint, its parameters and example values: preset names,
paths) into the page it serves at ``/``, even to a visitor who has not signed in and only sees the login form.
:class:`HttpGuard` (an ASGI middleware inside Gradio's own) empties that description in the login page; every
other route that describes the app (``/config``, ``/gradio_api/info``, ``/gradio_api/openapi.json``, the queue,
files) already requires the login.

It also tells the login check who is knocking: :data:`CLIENT` holds the client's address while a request is
handled, so that failed logins are slowed per address and user name (:class:`probe_ui.app.serve.LoginGate`), not
for everyone. Behind a reverse proxy every client has the proxy's address, unless the proxy is named in
``--trusted-proxies`` (the web server then believes its ``X-Forwarded-For``). For a login it also tells the check
whether the browser signed in as that name before (:mod:`probe_ui.app.known_devices`).
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from typing import Any
from urllib.parse import parse_qs

from probe_ui.app import known_devices
from probe_ui.app.sessions import REFUSED, SessionOwners

#: the address of the client whose request is being handled ("unknown" outside a request)
CLIENT: ContextVar[str] = ContextVar("probe_ui_client", default="unknown")
#: the API description Gradio writes into its page
_API_INFO = re.compile(rb"window\.gradio_api_info\s*=\s*.*?;</script>", re.S)
_EMPTY = b"window.gradio_api_info = {};</script>"
#: the routes that serve Gradio's page (the login form, for a visitor who has not signed in)
PAGES = frozenset({"", "/"})


def client_address() -> str:
    return CLIENT.get()


def signed_in(scope: dict[str, Any]) -> bool:
    """Whether the request carries a login cookie the app knows (or the app has no login)."""
    from probe_ui.app.shared_pages import user_of

    return user_of(scope) is not None


class HttpGuard:
    """ASGI middleware: :data:`CLIENT` for every request; the login page served without the API description; a
    request naming another signed-in user's browser session refused (``sessions``: :mod:`probe_ui.app.sessions`)."""

    def __init__(self, app: Any, sessions: SessionOwners | None = None) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = CLIENT.set(str(client[0]) if client else "unknown")
        try:
            if self.sessions is not None and str(scope.get("path", "")).startswith(_API):
                receive, allowed = await self._session_allowed(scope, receive)
                if not allowed:
                    await _refuse(send)
                    return
            if scope.get("method") == "POST" and scope.get("path") in LOGIN:
                await self._login(scope, receive, send)
            elif scope.get("method") in ("GET", "HEAD") and scope.get("path", "/") in PAGES and not signed_in(scope):
                await self.app(scope, receive, _without_api_info(send))
            else:
                await self.app(scope, receive, send)
        finally:
            CLIENT.reset(token)


    async def _login(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """A login: the login check learns whether this browser signed in as that name before
        (:mod:`probe_ui.app.known_devices`), and a successful login's answer marks the browser."""
        body, receive = await _read_small_body(receive)
        user = known_devices.login_name(body)
        cookies = b"; ".join(v for k, v in scope.get("headers", []) if k.lower() == b"cookie").decode("latin-1")
        token = known_devices.KNOWN.set(user if known_devices.known_for_login(cookies, user) else "")
        secure = scope.get("scheme") == "https"

        async def marked(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 200 and user:
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"set-cookie", known_devices.cookie_header(user, secure))]}
            await send(message)

        try:
            await self.app(scope, receive, marked)
        finally:
            known_devices.KNOWN.reset(token)

    async def _session_allowed(self, scope: dict[str, Any], receive: Any) -> tuple[Any, bool]:
        """(the ``receive`` to go on with, whether the session the request names, if any, is its user's). A cancel's
        small JSON body is read here and handed on unchanged."""
        from probe_ui.app.shared_pages import user_of

        path = str(scope.get("path", ""))
        session = _SESSION_IN_PATH.match(path)
        named = session.group(1) if session else parse_qs(scope.get("query_string", b"").decode("latin-1")).get(
            "session_hash", [None])[0]
        if named is None and scope.get("method") == "POST" and path in _BODY_NAMES_SESSION:
            body, receive = await _read_small_body(receive)
            try:
                doc = json.loads(body) if body else None
            except ValueError:
                doc = None
            named = doc.get("session_hash") if isinstance(doc, dict) else None
        if not isinstance(named, str) or not named:
            return receive, True
        user = user_of(scope)
        return receive, self.sessions is None or self.sessions.claim(named, user)


#: Gradio's login form posts here
LOGIN = frozenset({"/login", "/login/"})
#: Gradio's routes, and those that name a session in their path or (small) body
_API = "/gradio_api/"
_SESSION_IN_PATH = re.compile(r"^/gradio_api/(?:heartbeat|stream)/([^/]+)")
_BODY_NAMES_SESSION = frozenset({"/gradio_api/cancel"})
_SMALL_BODY = 64 * 1024


async def _read_small_body(receive: Any) -> tuple[bytes, Any]:
    """Up to :data:`_SMALL_BODY` bytes of the request body, and a ``receive`` that hands the whole body on."""
    messages, body = [], bytearray()
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        body.extend(message.get("body", b""))
        if not message.get("more_body") or len(body) > _SMALL_BODY:
            break

    async def replay() -> Any:
        return messages.pop(0) if messages else await receive()

    return (bytes(body) if len(body) <= _SMALL_BODY else b""), replay


async def _refuse(send: Any) -> None:
    body = REFUSED.encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _without_api_info(send: Any) -> Any:
    """A ``send`` that holds the page back until it is complete, then sends it with the API description emptied
    (and its length corrected)."""
    start: dict[str, Any] = {}
    body = bytearray()

    async def wrapped(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
            return
        if message["type"] != "http.response.body":
            await send(message)
            return
        body.extend(message.get("body", b""))
        if message.get("more_body"):
            return
        page = _API_INFO.sub(lambda _m: _EMPTY, bytes(body))
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(page)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": page, "more_body": False})

    return wrapped
