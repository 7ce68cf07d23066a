"""The app's login (issue 14 F17): credentials from an environment variable or a file (``--auth user:password``
still works, with a warning that the process list shows it), and repeated failed logins slowed down.

No wall-clock assertions: the gate's sleep is replaced by one that records the delays it was asked for.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
from pathlib import Path

import httpx
import pytest

from probe_ui.app import serve
from probe_ui.app.serve import ServeError, options


def test_credentials_from_an_environment_variable_or_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("PROBE_UI_AUTH", raising=False)
    secret_file = tmp_path / "login"
    secret_file.write_text("alice:s3cret word\r\n")  # saved on Windows: the line ending is not part of it
    secret_file.chmod(0o600)
    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        assert options("x.db", "0.0.0.0", auth_file=str(secret_file)).auth == ("alice", "s3cret word")
        monkeypatch.setenv("PROBE_UI_AUTH", "bob:from-env")
        assert options("x.db", "0.0.0.0").auth == ("bob", "from-env")
    assert not caplog.records  # neither source shows the password to other users
    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        assert options("x.db", "0.0.0.0", auth="carol:typed").auth == ("carol", "typed")
    assert "process list" in caplog.text and "typed" not in caplog.text
    secret_file.chmod(0o644)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        options("x.db", "0.0.0.0", auth_file=str(secret_file))
    assert "readable by other users" in caplog.text
    with pytest.raises(ServeError, match="cannot be read"):
        options("x.db", "0.0.0.0", auth_file=str(tmp_path / "missing"))
    (tmp_path / "bad").write_text("no colon here\n")
    with pytest.raises(ServeError, match="user:password") as info:
        options("x.db", "0.0.0.0", auth_file=str(tmp_path / "bad"))
    assert "no colon here" not in str(info.value)


class Recorder:
    """Stands in for asyncio.sleep: remembers the delays asked for."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def test_failed_logins_are_slowed_more_and_more(caplog: pytest.LogCaptureFixture) -> None:
    sleep = Recorder()
    gate = serve.LoginGate("alice", "s3cret", sleep=sleep)

    async def attempts() -> list[bool]:
        out = [await gate.login("alice", f"guess-{i}") for i in range(12)]
        out.append(await gate.login("mallory", "s3cret"))
        out.append(await gate.login("alice", "s3cret"))
        out.append(await gate.login("alice", "s3cret"))
        return out

    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        results = asyncio.run(attempts())
    assert results == [False] * 13 + [True, True]
    waited = sleep.delays
    assert waited[:gate.free_attempts] == [0] * gate.free_attempts  # a typo or two costs nothing
    slowed = waited[gate.free_attempts:13]
    assert all(b >= a for a, b in zip(slowed, slowed[1:])) and slowed[0] > 0 and slowed[-1] == gate.max_delay_s
    assert sum(waited) >= 200  # 13 guesses cost minutes, where 200 took half a second
    assert waited[13] == gate.max_delay_s and waited[14] == 0  # the right password, after failures, then none
    assert "guess-" not in caplog.text and "s3cret" not in caplog.text and "failed login" in caplog.text


def test_the_running_app_uses_the_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app_server import free_port

    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("PROBE_UI_AUTH", "alice:s3cret")
    monkeypatch.chdir(tmp_path)
    port = free_port()
    app = serve.launch(options(str(tmp_path / "x.db"), "127.0.0.1", port), block=False, quiet=True)
    try:
        assert inspect.iscoroutinefunction(app.auth)  # Gradio awaits it (else any password would pass)
        gate = app.auth.__self__
        assert isinstance(gate, serve.LoginGate)
        sleep = Recorder()
        gate.sleep = sleep
        url = f"http://127.0.0.1:{port}/login"
        with httpx.Client(trust_env=False) as http:
            codes = [http.post(url, data={"username": "alice", "password": f"no-{i}"}).status_code
                     for i in range(6)]
            ok = http.post(url, data={"username": "alice", "password": "s3cret"})
        assert codes == [400] * 6 and ok.status_code == 200
        assert sleep.delays[:3] == [0, 0, 0] and all(d > 0 for d in sleep.delays[3:7])
    finally:
        app.close()
    assert os.environ["PROBE_UI_AUTH"] == "alice:s3cret"
