"""The app, launched for real on a free loopback port with its own store, for gradio_client and browser tests."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AppServer:
    url: str
    db: Path
    app: Any

    def store(self) -> Any:
        from probe_ui.store import Store

        return Store(self.db)


def start_app(tmp_path: Path, *, demo: bool = False, max_upload_mb: int | None = None) -> AppServer:
    from probe_ui.app.serve import launch, options

    db = tmp_path / "data" / "probe-ui.db"
    port = free_port()
    app = launch(options(str(db), "127.0.0.1", port, demo=demo, max_upload_mb=max_upload_mb), block=False,
                 quiet=True)
    return AppServer(url=f"http://127.0.0.1:{port}/", db=db, app=app)


def serving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, demo: bool, max_upload_mb: int) -> Iterator[AppServer]:
    """The app on a free port, working in ``tmp_path``, offline (no probing of local model servers)."""
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.chdir(tmp_path)
    server = start_app(tmp_path, demo=demo, max_upload_mb=max_upload_mb)
    try:
        yield server
    finally:
        server.app.close()


@pytest.fixture
def app_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppServer]:
    yield from serving(tmp_path, monkeypatch, demo=True, max_upload_mb=20)
