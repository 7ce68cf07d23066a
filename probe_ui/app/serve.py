"""Starting the app: loopback by default; any other address only with a password, because the app can spend
API credit and shows everything in the store."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probe_ui.errors import ProbeUIError

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 7860
#: uploads over this are refused in the browser before they are sent (the loader has its own, larger limits)
DEFAULT_MAX_UPLOAD_MB = 100
#: where the app's login (user:password) may come from instead of the command line
AUTH_ENV = "PROBE_UI_AUTH"
log = logging.getLogger("probe_ui.app")


class ServeError(ProbeUIError, ValueError):
    """The app cannot start as asked (an unsafe host without auth, a malformed --auth)."""


@dataclass(frozen=True)
class ServeOptions:
    db: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    auth: tuple[str, str] | None = field(default=None, repr=False)
    demo: bool = False
    max_upload_mb: int = DEFAULT_MAX_UPLOAD_MB


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_auth(value: str | None, source: str = "--auth") -> tuple[str, str] | None:
    """``user:password`` (surrounding whitespace, a Windows line ending included, is not part of it)."""
    if value is None:
        return None
    user, sep, password = value.strip().partition(":")
    if not sep or not user.strip() or not password:
        raise ServeError(f"{source} takes user:password (both non-empty), e.g. alice:s3cret")
    return user.strip(), password


def credentials(auth: str | None = None, auth_file: str | None = None) -> tuple[str, str] | None:
    """The login the app requires: ``--auth user:password`` (shown to every user of this machine by the process
    list: a warning says so), else the first line of ``--auth-file``, else ``$PROBE_UI_AUTH``; None for none."""
    if auth is not None:
        log.warning("--auth on the command line is visible to other users of this machine in the process list; "
                    "put user:password in a file (--auth-file PATH, readable by you only) or in %s instead", AUTH_ENV)
        return parse_auth(auth)
    if auth_file is not None:
        path = Path(auth_file)
        try:
            text = path.read_text(encoding="utf-8")
            mode = path.stat().st_mode
        except (OSError, UnicodeDecodeError) as exc:
            raise ServeError(f"--auth-file {path} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
        if mode & 0o077:
            log.warning("--auth-file %s is readable by other users of this machine: chmod 600 it", path)
        line = next((x for x in text.splitlines() if x.strip()), "")
        return parse_auth(line, f"--auth-file {path}: the first line")
    if os.environ.get(AUTH_ENV):
        return parse_auth(os.environ[AUTH_ENV], AUTH_ENV)
    return None


class LoginGate:
    """The app's login check (Gradio's ``auth=`` callable): constant-time comparison, and every failed attempt
    after the first :attr:`free_attempts` in a row waits longer before it is answered (doubling from
    :attr:`base_delay_s` to :attr:`max_delay_s`), one attempt at a time: 200 guesses take hours, not half a second.
    A success resets the count, and so do :attr:`forget_after_s` seconds without a failure. Failures are logged,
    one line each, without the password."""

    free_attempts = 3
    base_delay_s = 1.0
    max_delay_s = 30.0
    forget_after_s = 900.0

    def __init__(self, user: str, password: str, *, sleep: Any = asyncio.sleep) -> None:
        self._user, self._password = user.encode(), password.encode()
        self.sleep = sleep
        self.failures = 0
        self._last_failure = 0.0
        self._lock: asyncio.Lock | None = None

    def delay(self) -> float:
        """How long the next attempt waits, after ``failures`` failures in a row."""
        if self.failures < self.free_attempts:
            return 0.0
        return min(self.base_delay_s * 2 ** (self.failures - self.free_attempts), self.max_delay_s)

    async def login(self, username: str, password: str) -> bool:
        """Whether the login is right; a coroutine *function*, which is how Gradio knows to await it (an object
        with an async ``__call__`` would be called without awaiting, and its coroutine taken for True)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one attempt at a time: parallel guesses queue behind the delay
            if self.failures and time.monotonic() - self._last_failure > self.forget_after_s:
                self.failures = 0
            await self.sleep(self.delay())
            ok = hmac.compare_digest(str(username).encode(), self._user) & \
                hmac.compare_digest(str(password).encode(), self._password)
            if ok:
                self.failures = 0
                return True
            self.failures += 1
            self._last_failure = time.monotonic()
            log.warning("failed login for user %r (%d in a row; the next attempt waits %g s)", str(username)[:80],
                        self.failures, self.delay())
            return False


def check(host: str, auth: tuple[str, str] | None) -> None:
    """Refuse to listen beyond this machine without a password."""
    if not is_loopback(host) and auth is None:
        raise ServeError(
            f"refusing to listen on {host} without --auth: anyone who can reach this address could read every "
            f"stored image and answer and spend your API keys. Give a login with --auth-file PATH or {AUTH_ENV}="
            "user:password (and put the app behind HTTPS), or keep the default --host 127.0.0.1.")


def options(db: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, auth: str | None = None,
            demo: bool = False, max_upload_mb: int | None = None, auth_file: str | None = None) -> ServeOptions:
    creds = credentials(auth, auth_file)
    check(host, creds)
    if not 0 < port < 65536:
        raise ServeError(f"--port must be 1-65535, not {port}")
    mb = max_upload_mb or int(os.environ.get("PROBE_UI_MAX_UPLOAD_MB", DEFAULT_MAX_UPLOAD_MB))
    return ServeOptions(db=db, host=host, port=port, auth=creds, demo=demo, max_upload_mb=mb)


def theme() -> Any:
    """Gradio's default look with system fonts: the page loads nothing from outside this machine."""
    import gradio as gr

    return gr.themes.Default(font=["ui-sans-serif", "system-ui", "sans-serif"],
                             font_mono=["ui-monospace", "monospace"])


def launch(opts: ServeOptions, *, block: bool = True, quiet: bool = False) -> Any:
    """Build the app on its store and serve it; returns the Blocks (with ``block=False``, for tests)."""
    from probe_ui.app.blocks import CSS, JS, AppContext, build_app
    from probe_ui.store import Store

    store = Store(opts.db)
    app = build_app(AppContext(store=store, db_location=opts.db, demo=opts.demo))
    url = f"http://{opts.host if ':' not in opts.host else f'[{opts.host}]'}:{opts.port}"
    if not quiet:
        print(f"probe-ui: serving at {url} (store {opts.db}){' · demo' if opts.demo else ''}; Ctrl+C stops",
              flush=True)
    gate = LoginGate(*opts.auth).login if opts.auth else None
    app.launch(server_name=opts.host, server_port=opts.port, auth=gate, max_file_size=f"{opts.max_upload_mb}mb",
               show_error=True, prevent_thread_lock=not block, quiet=True, css=CSS, js=JS, inbrowser=False,
               footer_links=["api"], theme=theme())
    return app
