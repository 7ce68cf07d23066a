"""Browsers that signed in before: they pass a login attack on their user's name (issue 52, F38 and F39).

Failed logins for one name are slowed across every address (a guesser with many addresses gets no more tries than
one), and that slowdown must not lock the real user out. So a browser that signs in successfully gets a device
cookie for that name: an HMAC of the name under a key this server process made at start (OWASP's "device cookie"
pattern). A login attempt that brings a valid device cookie for the name it tries is not slowed or queued by the
other addresses' failures for that name (its own address and name pair still is). The key lives in memory only: a
restart makes every device cookie unknown, which costs nothing until someone attacks a name.

:class:`probe_ui.app.http_guard.HttpGuard` reads the cookie of a ``POST /login`` (:func:`known_for_login`), sets
:data:`KNOWN` for the login check (:class:`probe_ui.app.serve.LoginGate`) and adds the cookie to a successful
login's answer (:func:`cookie_header`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from contextvars import ContextVar
from urllib.parse import parse_qs

from starlette.requests import cookie_parser

#: the user name whose device cookie the request being handled brought ("" for none)
KNOWN: ContextVar[str] = ContextVar("probe_ui_known_device", default="")
#: how long a device cookie lasts (a browser that signs in again renews it)
MAX_AGE_S = 90 * 24 * 3600
_KEY = secrets.token_bytes(32)
_PREFIX = "probe-ui-device-"


def cookie_name(user: str) -> str:
    """The cookie for ``user`` (a short hash of the name: one browser may hold several users' cookies)."""
    return _PREFIX + hashlib.sha256(user.encode()).hexdigest()[:16]


def _mac(user: str) -> str:
    return hmac.new(_KEY, user.encode(), hashlib.sha256).hexdigest()


def known_device() -> str:
    """The user whose device cookie this request brought ("" for none)."""
    return KNOWN.get()


def login_name(body: bytes) -> str:
    """The user name of a login form (what Gradio's ``/login`` reads, stripped as it strips it)."""
    try:
        form = parse_qs(body.decode("utf-8"), max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        return ""
    return (form.get("username") or [""])[0].strip()


def known_for_login(cookie_header: str, user: str) -> bool:
    """Whether the cookies of a login request hold a valid device cookie for ``user``."""
    if not user or not cookie_header:
        return False
    value = cookie_parser(cookie_header).get(cookie_name(user))  # read as the web server reads its own cookies
    return value is not None and hmac.compare_digest(value, _mac(user))


def cookie_header(user: str, secure: bool) -> bytes:
    """The ``Set-Cookie`` value that marks this browser as one ``user`` signed in from."""
    attrs = f"; Max-Age={MAX_AGE_S}; Path=/; HttpOnly; SameSite=Lax" + ("; Secure" if secure else "")
    return f"{cookie_name(user)}={_mac(user)}{attrs}".encode()
