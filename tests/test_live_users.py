"""Users are live and sessions are bound (issue 52, F47 and F48).

F47: a changed users file had no effect until a restart: a removed user kept their session and could sign in again,
a demoted prober kept a prober's rights, an old password still worked. F48: with alice's session id, bob got her
private upload back as a preview. Each is tried first on the library (the accounts, the login cookies, the session
owners, the HTTP guard) and then on a served app, as the hostile round did.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import CancelledError
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator

import httpx
import pytest
from app_server import USERS, AppServer, api_client, serving
from gradio_client import handle_file

from probe_ui.app.http_guard import HttpGuard
from probe_ui.app.sessions import REFUSED, SessionOwners
from probe_ui.security.users import Accounts, LiveTokens, add_user, remove_user, write_users

STEPS0 = {"headers": ["variant", "perturbation", "parameters"], "data": []}


@pytest.fixture
def users(tmp_path: Path) -> Path:
    path = tmp_path / "users"
    add_user(path, "alice", "prober", "alice-pass-1")
    add_user(path, "bob", "prober", "bob-pass-12")
    return path


def touch_later(path: Path) -> None:
    """Make sure a rewrite within the same clock tick is still seen as a change (size, time or inode)."""
    st = path.stat()
    import os

    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


# ---- F47: the accounts follow the file -----------------------------------------------------------------------

def test_a_removed_user_cannot_sign_in_and_is_no_longer_known(users: Path) -> None:
    accounts = Accounts.from_file(users)
    assert accounts.check("alice", "alice-pass-1") is not None
    remove_user(users, "alice")
    touch_later(users)
    assert accounts.check("alice", "alice-pass-1") is None
    assert accounts.user("alice") is None
    assert accounts.user("bob") is not None and accounts.names() == ["bob"]


def test_a_demotion_and_a_new_password_count_from_the_next_request(users: Path) -> None:
    accounts = Accounts.from_file(users)
    assert accounts.user("alice").can("probe")  # type: ignore[union-attr]
    add_user(users, "alice", "viewer", "alice-new-pass")
    touch_later(users)
    assert accounts.user("alice").role == "viewer"  # type: ignore[union-attr]
    assert accounts.check("alice", "alice-pass-1") is None
    assert accounts.check("alice", "alice-new-pass") is not None


def test_a_broken_users_file_lets_nobody_in_and_says_so(users: Path, caplog: pytest.LogCaptureFixture) -> None:
    accounts = Accounts.from_file(users)
    users.write_text("alice:prober:plain-text-password\n")
    with caplog.at_level(logging.ERROR, logger="probe_ui.security.users"):
        assert accounts.check("alice", "alice-pass-1") is None and accounts.user("bob") is None
    assert "nobody can sign in until it is fixed" in caplog.text and str(users) in caplog.text
    write_users(users, {})  # emptied: still nobody
    assert accounts.user("bob") is None
    add_user(users, "bob", "prober", "bob-pass-12")  # fixed: bob is back, alice is not
    assert accounts.check("bob", "bob-pass-12") is not None and accounts.user("alice") is None


def test_a_login_cookie_ends_when_its_user_changes(users: Path) -> None:
    accounts = Accounts.from_file(users)
    tokens = LiveTokens(accounts)
    tokens["alice-cookie"] = "alice"
    tokens["bob-cookie"] = "bob"
    assert tokens.get("alice-cookie") == "alice" and "alice-cookie" in tokens
    add_user(users, "alice", "prober", "alice-other-pass")  # a new password (same role)
    touch_later(users)
    assert tokens.get("alice-cookie") is None and "alice-cookie" not in tokens
    assert tokens.get("bob-cookie") == "bob"  # bob is unchanged: his session goes on
    tokens["alice-cookie-2"] = "alice"  # she signs in again with the new password
    remove_user(users, "alice")
    touch_later(users)
    assert tokens.get("alice-cookie-2") is None


# ---- F48: a session is its user's ---------------------------------------------------------------------------

def test_a_session_belongs_to_the_first_user_who_uses_it() -> None:
    owners = SessionOwners(max_kept=3)
    assert owners.claim("s1", "alice") and owners.claim("s1", "alice")
    assert not owners.claim("s1", "bob")
    assert owners.claim("s2", "bob")
    assert owners.claim(None, "bob") and owners.claim("s1", "")  # no session, or an app without a login
    for n in range(5):
        owners.claim(f"other-{n}", "carol")
    assert len(owners) == 3


def test_an_event_under_another_users_session_is_refused() -> None:
    """Every event of the app asks :func:`probe_ui.app.access.who` who is calling: the session must be theirs."""
    from probe_ui.app.access import AccessDenied, who
    from probe_ui.security.users import Account, hash_password

    accounts = Accounts({n: Account(n, "prober", hash_password(f"{n}-password")) for n in ("alice", "bob")})
    ctx = SimpleNamespace(accounts=accounts, sessions=SessionOwners())
    assert who(ctx, SimpleNamespace(username="alice", session_hash="s-alice")).name == "alice"  # type: ignore[arg-type]
    with pytest.raises(AccessDenied, match="another person's sign-in"):
        who(ctx, SimpleNamespace(username="bob", session_hash="s-alice"))  # type: ignore[arg-type]
    assert who(ctx, SimpleNamespace(username="bob", session_hash="s-bob")).name == "bob"  # type: ignore[arg-type]


def _scope(path: str, user_cookie: str, query: bytes = b"", method: str = "GET") -> dict[str, Any]:
    app = SimpleNamespace(auth=object(), cookie_id="c", tokens={"ta": "alice", "tb": "bob"})
    return {"type": "http", "method": method, "path": path, "query_string": query, "app": app,
            "headers": [(b"cookie", f"access-token-c={user_cookie}".encode())], "client": ("192.0.2.7", 1)}


def _call(guard: HttpGuard, scope: dict[str, Any], body: bytes = b"") -> tuple[int, bytes]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


async def _inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Gradio's stand-in: it echoes the body it was handed (the guard must hand it on unchanged)."""
    message = await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": message.get("body", b""), "more_body": False})


@pytest.mark.parametrize("path,query", [("/gradio_api/queue/data", b"session_hash=alices"),
                                        ("/gradio_api/heartbeat/alices", b""),
                                        ("/gradio_api/stream/alices/run/3/playlist.m3u8", b""),
                                        ("/gradio_api/deep_link", b"session_hash=alices")])
def test_the_routes_that_name_a_session_refuse_another_users(path: str, query: bytes) -> None:
    guard = HttpGuard(_inner, sessions=SessionOwners())
    assert _call(guard, _scope(path, "ta", query))[0] == 200  # alice's own session: hers from now on
    status, body = _call(guard, _scope(path, "tb", query))  # bob, naming it
    assert status == 403 and body.decode() == REFUSED
    assert _call(guard, _scope(path, "ta", query))[0] == 200


def test_a_cancel_naming_another_users_session_is_refused_and_a_body_handed_on_whole() -> None:
    guard = HttpGuard(_inner, sessions=SessionOwners())
    body = json.dumps({"session_hash": "alices", "fn_index": 3, "event_id": "e"}).encode()
    assert _call(guard, _scope("/gradio_api/cancel", "ta", method="POST"), body) == (200, body)
    assert _call(guard, _scope("/gradio_api/cancel", "tb", method="POST"), body)[0] == 403


# ---- on a served app, as the hostile round tried it ---------------------------------------------------------

@pytest.fixture
def live_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppServer]:
    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=20, users=USERS)


def _client(server: AppServer, user: str) -> Any:
    return api_client(server.url, auth=(user, USERS[user][1]))


def test_on_a_served_app_a_removed_user_is_signed_out_and_a_demoted_one_loses_rights(live_app: AppServer) -> None:
    from gradio_client.exceptions import AppError

    users_path = live_app.folder / "users"
    bob = _client(live_app, "bob")
    assert bob.predict("mr_small.png", STEPS0, api_name="/use_bundled_image") is not None
    add_user(users_path, "bob", "viewer", USERS["bob"][1])  # demoted: his session ends with the change
    touch_later(users_path)
    with pytest.raises(httpx.HTTPStatusError, match="401"):
        bob.predict("mr_small.png", STEPS0, api_name="/use_bundled_image")
    bob = _client(live_app, "bob")  # signed in again, as what he is now: a viewer may not probe
    with pytest.raises(AppError, match="viewer"):
        bob.predict("mr_small.png", STEPS0, api_name="/use_bundled_image")
    remove_user(users_path, "bob")
    touch_later(users_path)
    with pytest.raises(Exception):  # his cookie is gone: the app no longer knows him, and he cannot sign in
        _client(live_app, "bob")


def test_on_a_served_app_another_users_session_id_is_refused(live_app: AppServer) -> None:
    """F48 as found: alice uploads a DICOM; bob, signed in, sends her session id and asked for the window preview."""
    from gradio_client.exceptions import AppError
    from pydicom.data import get_testdata_file

    alice, bob = _client(live_app, "alice"), _client(live_app, "bob")
    info = alice.predict(handle_file(get_testdata_file("CT_small.dcm", download=False)), STEPS0,
                         api_name="/load_image")[1]
    assert "DICOM" in info
    bob.session_hash = alice.session_hash
    # refused: the event by its session's owner, and the stream of her session's results by the HTTP guard (the
    # client then sees its stream cut)
    with pytest.raises((AppError, CancelledError, httpx.HTTPStatusError)):
        bob.predict(40, 400, 0, None, None, api_name="/apply_window")
    assert "window 40/400" in alice.predict(40, 400, 0, None, None, api_name="/apply_window")[1]
