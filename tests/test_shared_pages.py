"""The page, /config and /gradio_api/info are built once per user and address and served from memory
(probe_ui/app/shared_pages.py): fifty people arriving together do not each wait for Gradio to rebuild ~1 MB of
layout. A kept response goes only to the user it was built for, never to a visitor who has not signed in."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from app_server import USERS, AppServer
from test_many_users import login_app, open_app  # noqa: F401 - fixtures

from probe_ui.app.shared_pages import SharedPages, user_of


class FakeGradio:
    """The little of Gradio's app the middleware reads (login tokens, the layout), answering with who asked."""

    def __init__(self, auth: bool = True) -> None:
        self.auth = object() if auth else None
        self.cookie_id = "c1"
        self.tokens = {"tok-a": "alice", "tok-b": "bob"}
        self.config = {"layout": 1}
        self.calls = 0
        self.status = 200
        self.cookie = False
        self.delay = 0.0

    def get_blocks(self) -> "FakeGradio":
        return self

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.calls += 1
        await asyncio.sleep(self.delay)
        headers = [(b"content-type", b"application/json")] + ([(b"set-cookie", b"x=1")] if self.cookie else [])
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        body = json.dumps({"username": user_of(scope) or None, "call": self.calls}).encode()
        await send({"type": "http.response.body", "body": body[:5], "more_body": True})
        await send({"type": "http.response.body", "body": body[5:], "more_body": False})


def get(mw: SharedPages, gradio: FakeGradio, path: str = "/config", token: str | None = "tok-a",
        method: str = "GET", host: bytes = b"127.0.0.1:7860") -> tuple[int, dict[str, Any]]:
    headers = [(b"host", host)] + ([(b"cookie", f"access-token-c1={token}".encode())] if token else [])
    scope = {"type": "http", "method": method, "path": path, "query_string": b"", "headers": headers,
             "app": gradio}
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    asyncio.run(mw(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


def test_pages_are_built_once_and_each_user_gets_their_own() -> None:
    gradio = FakeGradio()
    mw = SharedPages(gradio)
    assert get(mw, gradio, "/") == (200, {"username": "alice", "call": 1})
    assert get(mw, gradio, "/") == (200, {"username": "alice", "call": 1})  # from memory, whole
    assert gradio.calls == 1 and mw.served == 1
    assert get(mw, gradio, "/", token="tok-b") == (200, {"username": "bob", "call": 2})  # the page: per user
    # the configuration: built once, each user's own name written in
    assert get(mw, gradio, "/config") == (200, {"username": "alice", "call": 3})
    assert get(mw, gradio, "/config", token="tok-b") == (200, {"username": "bob", "call": 3})
    assert get(mw, gradio, "/config") == (200, {"username": "alice", "call": 3})
    # the API description: the same for everyone signed in
    assert get(mw, gradio, "/gradio_api/info")[1]["call"] == 4
    assert get(mw, gradio, "/gradio_api/info", token="tok-b")[1]["call"] == 4
    assert get(mw, gradio, "/config", host=b"probe.example.org")[1]["call"] == 5  # another root URL
    assert get(mw, gradio, "/config", token=None)[1] == {"username": None, "call": 6}  # not signed in: never kept
    assert get(mw, gradio, "/gradio_api/info", token=None)[1]["call"] == 7
    assert get(mw, gradio, "/config", token="stale")[1]["call"] == 8  # signed out: not anyone's
    assert get(mw, gradio, "/gradio_api/queue/data")[1]["call"] == 9  # other routes pass through
    assert get(mw, gradio, "/config", method="POST")[1]["call"] == 10


def test_errors_cookies_and_a_changed_layout_are_not_served_again() -> None:
    gradio = FakeGradio()
    mw = SharedPages(gradio)
    gradio.status = 500
    get(mw, gradio), get(mw, gradio)
    assert gradio.calls == 2
    gradio.status, gradio.cookie = 200, True
    get(mw, gradio), get(mw, gradio)
    assert gradio.calls == 4
    gradio.cookie = False
    get(mw, gradio), get(mw, gradio)
    assert gradio.calls == 5
    gradio.config = {"layout": 2}  # Gradio rebuilt its layout: built again
    assert get(mw, gradio)[1]["call"] == 6


def test_people_arriving_together_wait_for_one_build() -> None:
    gradio = FakeGradio()
    gradio.delay = 0.2
    mw = SharedPages(gradio)

    async def arrive(token: str) -> tuple[int, dict[str, Any]]:
        headers = [(b"host", b"h"), (b"cookie", f"access-token-c1={token}".encode())]
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await mw({"type": "http", "method": "GET", "path": "/config", "query_string": b"", "headers": headers,
                  "app": gradio}, None, send)
        return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))

    async def together() -> list[tuple[int, dict[str, Any]]]:
        return list(await asyncio.gather(arrive("tok-a"), arrive("tok-b"), arrive("tok-a")))

    got = asyncio.run(together())
    assert gradio.calls == 1  # one build, three answers, each with its own name
    assert got == [(200, {"username": "alice", "call": 1}), (200, {"username": "bob", "call": 1}),
                   (200, {"username": "alice", "call": 1})]
    gradio.status = 500  # a build that fails is not handed on: each waiter builds its own
    mw = SharedPages(gradio)
    assert [code for code, _ in asyncio.run(together())] == [500, 500, 500] and gradio.calls == 4


def test_kept_responses_expire_and_are_bounded() -> None:
    gradio = FakeGradio(auth=False)  # no login: one local user
    mw = SharedPages(gradio, keep_s=0.0, max_kept=2)
    get(mw, gradio, token=None), get(mw, gradio, token=None)
    assert gradio.calls == 2  # expired at once
    mw = SharedPages(gradio, max_kept=2)
    for path in ("/", "/config", "/gradio_api/info"):
        get(mw, gradio, path, token=None)
    assert len(mw._kept) == 2


def test_the_served_app_gives_each_user_their_own_config(login_app: AppServer) -> None:  # noqa: F811
    """Through the real app: alice's second /config is the same bytes as her first and names her; bob's names
    him; before login, the config is refused and the page carries no API description."""
    url = login_app.url.rstrip("/")

    def signed(user: str) -> httpx.Client:
        http = httpx.Client(trust_env=False, timeout=60)
        assert http.post(f"{url}/login", data={"username": user, "password": USERS[user][1]}).status_code == 200
        return http

    a, b, anon = signed("alice"), signed("bob"), httpx.Client(trust_env=False, timeout=60)
    try:
        first, again = a.get(f"{url}/config"), a.get(f"{url}/config")
        assert first.status_code == again.status_code == 200
        assert first.content == again.content and first.json()["username"] == "alice"
        bobs = b.get(f"{url}/config").json()
        assert bobs == {**first.json(), "username": "bob"}  # the same layout, his own name
        assert a.get(f"{url}/gradio_api/info").content == a.get(f"{url}/gradio_api/info").content
        assert '"alice"' in a.get(f"{url}/").text
        assert anon.get(f"{url}/config").status_code in (401, 403)
        assert "add_endpoint" not in anon.get(f"{url}/").text
        assert '"alice"' not in b.get(f"{url}/").text
    finally:
        for http in (a, b, anon):
            http.close()


def test_without_a_login_the_page_is_served(open_app: AppServer) -> None:  # noqa: F811
    url = open_app.url.rstrip("/")
    with httpx.Client(trust_env=False, timeout=60) as http:
        pages = [http.get(f"{url}/config") for _ in range(2)]
    assert [p.status_code for p in pages] == [200, 200] and pages[0].content == pages[1].content
