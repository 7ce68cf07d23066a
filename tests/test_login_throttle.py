"""Login throttling that cannot be forged and does not punish the innocent (issue 52, F38 and F39).

F38: a forged ``X-Forwarded-For`` from loopback escaped the slowdown (12 wrong passwords at 0.1-0.7 s each), and
nothing limited one name across many addresses (30 guesses in 6.6 s). F39: after 25 failed logins from one
address (a hospital's NAT), five real users signing in from it waited 30, 60, 91, 121 and 151 s. Each is tried on
the login check itself (its waits and its queues) and, for the forwarded address and the device cookie, on a
served app.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_server import launch_on_free_port, users_file

from probe_ui.app import known_devices
from probe_ui.app.http_guard import HttpGuard
from probe_ui.app.serve import LoginGate, ServeError, options, parse_proxies
from probe_ui.security.users import Account, Accounts, hash_password

PASSWORDS = {f"user{i}": f"password-{i}-ok" for i in range(6)} | {"alice": "alice-pass-1"}


@pytest.fixture(scope="module")
def accounts() -> Accounts:
    return Accounts({n: Account(n, "prober", hash_password(p)) for n, p in PASSWORDS.items()})


class Waits:
    """Stands in for asyncio.sleep: remembers each wait and how many attempts were waiting at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.now = self.most = 0

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        self.now += 1
        self.most = max(self.most, self.now)
        await asyncio.sleep(0.02)
        self.now -= 1


def test_people_behind_a_shared_address_are_not_queued_behind_a_strangers_failures(accounts: Accounts) -> None:
    waits = Waits()
    gate = LoginGate(accounts, sleep=waits, address=lambda: "203.0.113.9")

    async def run() -> list[bool]:
        for i in range(25):  # the stranger, many names
            await gate.login(f"nobody{i}", "guess")
        waits.delays.clear()
        waits.most = 0
        return list(await asyncio.gather(*(gate.login(f"user{i}", PASSWORDS[f"user{i}"]) for i in range(5))))

    assert asyncio.run(run()) == [True] * 5
    assert max(waits.delays) <= gate.address_max_delay_s  # a few seconds at most, where it was 30-151 s
    assert waits.most == 5  # all five at once, none behind another


def test_guessing_one_name_from_many_addresses_is_slowed_and_queued(accounts: Accounts,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    waits, where = Waits(), {"addr": ""}
    gate = LoginGate(accounts, sleep=waits, address=lambda: where["addr"])

    async def run() -> None:
        for i in range(gate.free_name_attempts):
            where["addr"] = f"198.51.100.{i}"
            await gate.login("alice", f"guess-{i}")
        waits.most = 0

        async def guess(i: int) -> bool:
            return await gate.login("alice", f"guess-{i}")

        where["addr"] = "192.0.2.77"  # (the address is read at once by each attempt: one per address below)
        attempts = []
        for i in range(20):
            where["addr"] = f"192.0.2.{i}"
            attempts.append(asyncio.ensure_future(guess(100 + i)))
            await asyncio.sleep(0)
        await asyncio.gather(*attempts)

    with caplog.at_level(logging.ERROR, logger="probe_ui.app"):
        asyncio.run(run())
    assert waits.delays[:gate.free_name_attempts] == [0] * gate.free_name_attempts
    slowed = waits.delays[gate.free_name_attempts:]
    assert slowed[0] > 0 and max(slowed) == gate.name_max_delay_s and sum(slowed) >= 60  # was 30 guesses in 6.6 s
    assert waits.most == 1  # one at a time across every address
    assert "possible password guessing" in caplog.text and "'alice'" in caplog.text and "guess-" not in caplog.text


def test_the_real_user_from_a_browser_that_signed_in_before_passes_the_attack(accounts: Accounts) -> None:
    waits, who = Waits(), {"known": ""}
    gate = LoginGate(accounts, sleep=waits, address=lambda: "198.51.100.200", known=lambda: who["known"])

    async def run() -> tuple[bool, bool]:
        for i in range(gate.free_name_attempts + 8):
            await gate.login("alice", f"guess-{i}")
        stranger = await gate.login("alice", "alice-pass-1")  # right password, no device cookie: slowed
        for i in range(gate.free_name_attempts + 8):
            await gate.login("alice", f"guess-{i}")
        waits.delays.clear()
        who["known"] = "alice"
        return stranger, await gate.login("alice", "alice-pass-1")

    # the attacker's address is the pair's here too: take another for the real user
    gate.address = iter(["203.0.113.1"] * 18 + ["198.51.100.9"] + ["203.0.113.1"] * 18 + ["198.51.100.10"]).__next__
    assert asyncio.run(run()) == (True, True)
    assert waits.delays == [0]  # not slowed by the name's failures from elsewhere


def test_a_known_device_cookie_is_bound_to_its_name_and_this_server() -> None:
    header = known_devices.cookie_header("alice", secure=True).decode()
    cookie = header.split(";")[0]
    assert "HttpOnly" in header and "Secure" in header and "SameSite=Lax" in header
    assert known_devices.known_for_login(cookie, "alice")
    assert not known_devices.known_for_login(cookie, "bob")
    forged = cookie.split("=")[0] + "=" + "0" * 64
    assert not known_devices.known_for_login(forged, "alice")
    assert not known_devices.known_for_login("garbage;;==\x00", "alice")


def test_the_http_guard_tells_the_login_check_about_the_device_and_marks_a_successful_login() -> None:
    seen: list[str] = []

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = (await receive())["body"]
        seen.append(known_devices.known_device())
        ok = b"password=right" in body
        await send({"type": "http.response.start", "status": 200 if ok else 400, "headers": []})
        await send({"type": "http.response.body", "body": b"{}", "more_body": False})

    def post(body: bytes, cookie: str = "") -> list[tuple[bytes, bytes]]:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/login", "scheme": "http", "client": ("10.0.0.1", 1),
                 "headers": [(b"cookie", cookie.encode())] if cookie else []}
        asyncio.run(HttpGuard(inner)(scope, receive, send))
        return sent[0]["headers"]

    assert post(b"username=alice&password=wrong") == [] and seen[-1] == ""
    headers = post(b"username=+alice+&password=right")
    cookie = dict(headers)[b"set-cookie"].decode().split(";")[0]
    assert cookie.startswith(known_devices.cookie_name("alice"))
    post(b"username=alice&password=wrong", cookie)
    assert seen[-1] == "alice"
    post(b"username=bob&password=wrong", cookie)
    assert seen[-1] == ""


def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert parse_proxies("10.0.0.5, 10.1.0.0/16,[::1]") == ("10.0.0.5/32", "10.1.0.0/16", "::1/128")
    assert parse_proxies(None) == () and parse_proxies("") == ()
    with pytest.raises(ServeError, match="'proxy.example.org' is not an address or network"):
        parse_proxies("proxy.example.org")
    with pytest.raises(ServeError, match="PROBE_UI_TRUSTED_PROXIES"):
        parse_proxies("x", "PROBE_UI_TRUSTED_PROXIES")


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_a_forged_forwarded_address_is_believed_only_from_a_trusted_proxy(
        trusted: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """F38 as found: wrong passwords from loopback, each with another X-Forwarded-For, went through unslowed."""
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.delenv("PROBE_UI_AUTH", raising=False)
    monkeypatch.chdir(tmp_path)
    auth = users_file(tmp_path / "users", {"alice": ("prober", "alice-pass-1")})
    app, port = launch_on_free_port(lambda p: options(str(tmp_path / "x.db"), "127.0.0.1", p,
                                                      auth_file=str(auth), trusted_proxies=trusted))
    try:
        gate = app.auth.__self__
        waits = Waits()
        gate.sleep = waits
        url = f"http://127.0.0.1:{port}/login"
        with httpx.Client(trust_env=False) as http, caplog.at_level(logging.WARNING, logger="probe_ui.app"):
            codes = [http.post(url, data={"username": "alice", "password": f"no-{i}"},
                               headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(6)]
            ok = http.post(url, data={"username": "alice", "password": "alice-pass-1"})
        assert codes == [400] * 6
        if trusted is None:  # every guess counted against the connection's own address: slowed after the free ones
            assert "203.0.113." not in caplog.text and waits.delays[gate.free_attempts:6] == [1, 2, 4]
        else:  # behind a named proxy, the forwarded address is the client's
            assert "203.0.113.5" in caplog.text and waits.delays[:6] == [0] * 6
        assert ok.status_code == 200
        assert known_devices.cookie_name("alice") in ok.headers.get("set-cookie", "")  # this browser is now known
    finally:
        app.close()
