"""The Models tab's rate-limit table (issue 50, probe_ui.catalogue.rate_table), without the UI: each server's requests
in flight, limit and ceiling, answers and refusals, and until when it asked to wait; its host only, never a key; a
person who is not an admin sees only the servers of the models they can call."""

from __future__ import annotations

import asyncio
import time

import pytest

from probe_ui.catalogue.rate_table import COLUMNS, rate_rows, server_words, visible_keys
from probe_ui.providers import create, rate_control
from probe_ui.providers.base import ModelConfig

MINE = ModelConfig(name="mine", provider="openai", model="m", base_url="http://user:pw@127.0.0.1:8123/v1?api_key=q1",
                   secret="sk-mine-1234567890")
THEIRS = ModelConfig(name="theirs", provider="openai", model="m", base_url="https://llm.example.org/v1",
                     secret="sk-theirs-0987654321")
THEIRS_TOO = ModelConfig(name="theirs2", provider="openai", model="m", base_url="https://llm.example.org/v1",
                         secret="sk-another-5555555555")


@pytest.fixture(autouse=True)
def fresh_controllers(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-key-000000")
    rate_control.forget()
    yield
    rate_control.forget()


def control(cfg: ModelConfig, ceiling: int) -> rate_control.RateControl:
    return rate_control.control_for(create(cfg), cfg, ceiling)


def test_each_server_shows_its_calls_limit_refusals_and_wait() -> None:
    mine, theirs, theirs_too = control(MINE, 8), control(THEIRS, 4), control(THEIRS_TOO, 4)
    assert len({id(mine), id(theirs), id(theirs_too)}) == 3  # one server, two keys: two accounts, two controllers

    async def traffic() -> None:
        a, b, c = [await mine.acquire() for _ in range(3)]
        mine.observe(a, 200, {})
        mine.release(a)
        mine.observe(b, 429, {"retry-after": "30"})  # halves 8 -> 4 and pauses the server 30 s
        mine.release(b)
        del c  # still in flight
        t = await theirs.acquire()
        theirs.observe(t, 200, {})
        theirs.release(t)

    asyncio.run(traffic())
    now = time.time()
    rows = rate_rows(now=now)
    assert [r[0] for r in rows] == ["127.0.0.1:8123", "llm.example.org", "llm.example.org"]
    row = dict(zip(COLUMNS, rows[0]))
    assert row["provider"] == "openai" and row["in flight now"] == 1 and row["limit now / ceiling"] == "4 / 8"
    assert row["answered so far"] == 1 and row["refused (429) so far"] == 1
    until = time.strftime("%H:%M:%S", time.gmtime(now + mine.status()["paused_s"]))
    assert row["waiting until"].startswith(f"{until} UTC (in ") and row["waiting until"].endswith(" s)")
    others = [dict(zip(COLUMNS, r)) for r in rows[1:]]
    assert sorted((o["answered so far"], o["in flight now"], o["waiting until"]) for o in others) == [
        (0, 0, ""), (1, 0, "")]
    text = repr(rows)
    for secret in ("sk-", "user", "pw", "api_key", "q1", "/v1"):
        assert secret not in text


def test_a_person_who_is_not_an_admin_sees_only_the_servers_of_their_models() -> None:
    control(MINE, 8), control(THEIRS, 4)
    default = ModelConfig(name="openai/gpt-4o", provider="openai", model="gpt-4o")  # the provider's own server
    control(default, 8)
    everyone = [r[0] for r in rate_rows(visible_keys([]))]  # what anyone may call: the provider's own server
    assert everyone == [server_words(rate_control.server_of(create(default), default))]
    assert "127.0.0.1:8123" not in everyone
    mine = [r[0] for r in rate_rows(visible_keys([MINE]))]
    assert "127.0.0.1:8123" in mine and "llm.example.org" not in mine
    assert len(rate_rows()) == 3  # an admin: every row


def test_server_words() -> None:
    assert server_words("https://u:p@api.example.com/v1?key=x") == "api.example.com"
    assert server_words("http://[::1]:11434/v1 http://10.0.0.2:8000/v1") == "[::1]:11434 10.0.0.2:8000"
    assert server_words("openai (default server)") == "openai (default server)"
