"""What the web server says before anyone has signed in: nothing about the app.

Gradio 6 puts the app's whole API description (every endpoint, its parameters and example values: preset names,
paths) into the page it serves at ``/``, even to a visitor who has not signed in and only sees the login form.
:class:`HttpGuard` (an ASGI middleware inside Gradio's own) empties that description in the login page; every
other route that describes the app (``/config``, ``/gradio_api/info``, ``/gradio_api/openapi.json``, the queue,
files) already requires the login.

It also tells the login check who is knocking: :data:`CLIENT` holds the client's address while a request is
handled, so that failed logins are slowed per address and user name (:class:`probe_ui.app.serve.LoginGate`), not
for everyone. Behind a reverse proxy every client has the proxy's address: the slowdown is then per user name.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Any

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
    """ASGI middleware: :data:`CLIENT` for every request; the login page served without the API description."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = CLIENT.set(str(client[0]) if client else "unknown")
        try:
            if scope.get("method") in ("GET", "HEAD") and scope.get("path", "/") in PAGES and not signed_in(scope):
                await self.app(scope, receive, _without_api_info(send))
            else:
                await self.app(scope, receive, send)
        finally:
            CLIENT.reset(token)


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
