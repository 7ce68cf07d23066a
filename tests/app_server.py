"""The app, launched for real on a free loopback port with its own store, for gradio_client and browser tests."""

from __future__ import annotations

import contextlib
import functools
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


_TLS: Any = None


def api_client(url: str, **kwargs: Any) -> Any:
    """A ``gradio_client.Client`` of ``url`` that shares one TLS context with every other one opened here.
    gradio_client opens a new HTTP client for each request it makes (two per call: the job and its stream), and
    httpx builds a new TLS context for each, reading the whole CA bundle, even for a plain-http loopback app: 43 ms
    of CPU each, 86 of the ~100 ms a call costs the client (measured on two cores). Handed a finished context (with
    the same verification), httpx uses it as it is. Used by the tests and by perf/many_users.py and
    live_probe.py, whose clients must not take the CPU the app they measure needs."""
    import ssl

    import certifi

    global _TLS
    if _TLS is None:
        _TLS = ssl.create_default_context(cafile=certifi.where())  # what httpx itself makes, made once
    kwargs.setdefault("verbose", False)
    return _settled_client()(url, ssl_verify=_TLS, **kwargs)


@functools.cache
def _settled_client() -> type:
    """``gradio_client.Client`` that lets the last call's event stream close before it sends the next call.

    Why: the app closes a session's stream (``close_stream``) right after the last pending event completes. The
    client returns from ``predict`` on ``process_completed``; if the next call is sent before its reader has read
    the ``close_stream`` that follows, the new event joins the stream being closed and is cancelled
    (``concurrent.futures.CancelledError``, seen once in CI on ``/add_point``). A user's script calling the app
    sees the same race; the tests wait, for at most two seconds, for a stream with nothing pending to close."""
    import time

    from gradio_client import Client

    class SettledClient(Client):  # type: ignore[misc]
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                with self.pending_lock:
                    closing = self.stream_open and not self.pending_event_ids
                if not closing:
                    break
                time.sleep(0.005)
            return super().submit(*args, **kwargs)

    return SettledClient


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch_on_free_port(options_for: Callable[[int], Any]) -> tuple[Any, int]:
    """The app launched (not blocking) with ``options_for(port)`` on a free loopback port, and that port. A free port
    can be taken between :func:`free_port` and the launch (an outgoing connection of another test is given ports
    from the same range: CI saw "Cannot find empty port in range: 40901-40901"): another one is tried, twice."""
    from probe_ui.app.serve import launch

    for attempt in range(3):
        port = free_port()
        try:
            return launch(options_for(port), block=False, quiet=True), port
        except OSError as exc:
            if "Cannot find empty port" not in str(exc) or attempt == 2:
                raise
    raise AssertionError("unreachable: the last attempt raises")


@dataclass
class AppServer:
    url: str
    db: Path
    app: Any

    @property
    def folder(self) -> Path:
        """The folder the app works in (its store is ``data/probe-ui.db`` there)."""
        return self.db.parent.parent

    def store(self) -> Any:
        from probe_ui.store import Store

        return Store(self.db)


#: users of the app tests that sign in: name → (role, password)
USERS = {"alice": ("prober", "alice-pass-1"), "bob": ("prober", "bob-pass-22"), "vera": ("viewer", "vera-pass-3"),
         "root": ("admin", "root-pass-44")}


def users_file(path: Path, users: dict[str, tuple[str, str]] = USERS) -> Path:
    """A users file (probe-ui users add) with ``users``."""
    from probe_ui.security.users import add_user

    for name, (role, password) in users.items():
        add_user(path, name, role, password)
    return path


def start_app(tmp_path: Path, *, demo: bool = False, max_upload_mb: int | None = None,
              users: dict[str, tuple[str, str]] | None = None, endpoint_hosts: str | None = None) -> AppServer:
    """The app on a free loopback port; with ``users``, a login (a users file) is required."""
    from probe_ui.app.serve import options

    db = tmp_path / "data" / "probe-ui.db"
    extra: dict[str, Any] = {}
    if users:
        extra["auth_file"] = str(users_file(tmp_path / "users", users))
    if endpoint_hosts is not None:
        extra["endpoint_hosts"] = endpoint_hosts
    app, port = launch_on_free_port(lambda port: options(str(db), "127.0.0.1", port, demo=demo,
                                                         max_upload_mb=max_upload_mb, **extra))
    return AppServer(url=f"http://127.0.0.1:{port}/", db=db, app=app)


def serving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, demo: bool, max_upload_mb: int,
            users: dict[str, tuple[str, str]] | None = None, endpoint_hosts: str | None = None
            ) -> Iterator[AppServer]:
    """The app on a free port, working in ``tmp_path``, offline (no probing of local model servers)."""
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.delenv("PROBE_UI_AUTH", raising=False)
    monkeypatch.chdir(tmp_path)
    server = start_app(tmp_path, demo=demo, max_upload_mb=max_upload_mb, users=users,
                       endpoint_hosts=endpoint_hosts)
    try:
        yield server
    finally:
        server.app.close()


@pytest.fixture
def app_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppServer]:
    yield from serving(tmp_path, monkeypatch, demo=True, max_upload_mb=20)


@contextlib.contextmanager
def served(folder: Path, **kwargs: Any) -> Iterator[AppServer]:
    """:func:`serving` for a fixture wider than one test (``monkeypatch`` is function-scoped): its environment,
    working folder and server are undone when the block ends, whatever the tests' outcome."""
    with pytest.MonkeyPatch.context() as mp:
        yield from serving(folder, mp, **kwargs)


def module_app(**kwargs: Any) -> Callable[..., Iterator[AppServer]]:
    """A module-scoped fixture: one app (``serving``'s ``kwargs``) for every test of the module that asks for it,
    stopped after the last. Starting an app costs seconds of CPU (the first in a process about 12 s); the app is
    many-user by design, so tests that work in their own browser context, ``gradio_client`` session or login, and
    name their own runs, endpoints and sets, share it as a room's users share one server. A test that changes
    what the whole server remembers (the login gate's failed attempts, a run name another test also uses) asks
    for a fresh one instead."""
    @pytest.fixture(scope="module")
    def fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
        with served(tmp_path_factory.mktemp("app"), **kwargs) as server:
            yield server

    return fixture
