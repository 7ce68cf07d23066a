"""The app's login (issue 14 F17, issue 23): users from a file of salted hashes with roles (``probe-ui users add``),
one admin from an environment variable (``--auth user:password`` still works, with a warning that the process list
shows it), and repeated failed logins slowed down.

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
from helpers import Recorder

from probe_ui.app import serve
from probe_ui.app.serve import ServeError, options

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow


def test_credentials_from_an_environment_variable_or_a_users_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    from probe_ui.security.users import add_user

    monkeypatch.delenv("PROBE_UI_AUTH", raising=False)
    users = tmp_path / "users"
    add_user(users, "alice", "prober", "s3cret word")
    add_user(users, "bob", "viewer", "bobs-password")
    assert users.stat().st_mode & 0o777 == 0o600
    assert "s3cret" not in users.read_text()  # salted hashes, no password
    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        accounts = options("x.db", "0.0.0.0", auth_file=str(users)).accounts
        assert accounts.check("alice", "s3cret word").role == "prober"
        assert accounts.check("bob", "bobs-password").role == "viewer"
        assert accounts.check("alice", "bobs-password") is None and accounts.check("eve", "s3cret word") is None
        monkeypatch.setenv("PROBE_UI_AUTH", "bob:from-env")
        assert options("x.db", "0.0.0.0").accounts.check("bob", "from-env").role == "admin"  # one admin
    assert not caplog.records  # neither source shows the password to other users
    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        assert options("x.db", "0.0.0.0", auth="carol:typed").accounts.check("carol", "typed").role == "admin"
    assert "process list" in caplog.text and "typed" not in caplog.text
    users.chmod(0o644)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="probe_ui"):
        options("x.db", "0.0.0.0", auth_file=str(users))
    assert "readable by other users" in caplog.text
    with pytest.raises(ServeError, match="no such users file"):
        options("x.db", "0.0.0.0", auth_file=str(tmp_path / "missing"))
    (tmp_path / "plain").write_text("alice:s3cret\r\n")  # the old user:password file: refused, not quoted
    with pytest.raises(ServeError, match="plain-text password.*probe-ui users add") as info:
        options("x.db", "0.0.0.0", auth_file=str(tmp_path / "plain"))
    assert "s3cret" not in str(info.value)
    (tmp_path / "bad").write_text("no colon here\n")
    with pytest.raises(ServeError, match="line 1") as info:
        options("x.db", "0.0.0.0", auth_file=str(tmp_path / "bad"))
    assert "no colon here" not in str(info.value)


def test_users_add_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    from probe_ui.security.users import UsersError, add_user, read_users, remove_user

    (tmp_path / "folder").mkdir()
    target = tmp_path / "elsewhere"
    target.write_text("not ours\n")
    (tmp_path / "link").symlink_to(target)
    for path in (tmp_path / "folder", tmp_path / "link"):
        with pytest.raises(UsersError, match="not a regular file"):
            add_user(path, "alice", "prober", "long-enough")
    assert target.read_text() == "not ours\n"
    with pytest.raises(UsersError, match="at least 8"):
        add_user(tmp_path / "u", "alice", "prober", "short")
    with pytest.raises(UsersError, match="not one of"):
        add_user(tmp_path / "u", "alice", "boss", "long-enough")
    with pytest.raises(UsersError, match="not valid"):
        add_user(tmp_path / "u", "al:ice", "prober", "long-enough")
    assert add_user(tmp_path / "u", "alice", "prober", "long-enough") is True
    assert add_user(tmp_path / "u", "alice", "admin", "longer-still") is False  # changed, not added twice
    assert {a.role for a in read_users(tmp_path / "u").values()} == {"admin"}
    assert not list(tmp_path.glob(".u.*"))  # no temporary file left behind
    remove_user(tmp_path / "u", "alice")
    assert read_users(tmp_path / "u") == {}


def test_users_add_reads_the_password_from_stdin_never_argv(tmp_path: Path) -> None:
    import subprocess
    import sys

    users = tmp_path / "users"
    r = subprocess.run([sys.executable, "-m", "probe_ui", "users", "add", "dana", "--role", "viewer", "--file",
                        str(users)], input="dana-password-1\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "added dana (viewer)" in r.stdout and "dana-password-1" not in r.stdout + r.stderr
    listed = subprocess.run([sys.executable, "-m", "probe_ui", "users", "list", "--file", str(users)],
                            capture_output=True, text=True, timeout=120)
    assert listed.stdout.split() == ["dana", "viewer"]
    from probe_ui.security.users import read_users

    assert read_users(users)["dana"].role == "viewer"


def test_failed_logins_are_slowed_more_and_more(caplog: pytest.LogCaptureFixture) -> None:
    from probe_ui.security.users import Accounts

    sleep = Recorder()
    gate = serve.LoginGate(Accounts.single("alice", "s3cret"), sleep=sleep, address=lambda: "192.0.2.1")

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
    slowed = waited[gate.free_attempts:12]
    assert all(b >= a for a, b in zip(slowed, slowed[1:])) and slowed[0] > 0 and slowed[-1] == gate.max_delay_s
    assert sum(waited) >= 150  # 12 guesses cost minutes, where 200 took half a second
    assert waited[12] == 0  # another name from the same address: not slowed (until the address's own limit)
    assert waited[13] == gate.max_delay_s and waited[14] == 0  # the right password, after failures, then none
    assert "guess-" not in caplog.text and "s3cret" not in caplog.text and "failed login" in caplog.text


def test_the_running_app_uses_the_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app_server import launch_on_free_port

    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("PROBE_UI_AUTH", "alice:s3cret")
    monkeypatch.chdir(tmp_path)
    app, port = launch_on_free_port(lambda port: options(str(tmp_path / "x.db"), "127.0.0.1", port))
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
