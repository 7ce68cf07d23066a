"""The outbound policy of a served app (issue 52): redirects, hf/ names and shared endpoints' URLs.

Each test tries a defect of the fourth hostile round the way a prober would: an allowed host that answers a redirect
to another loopback port (which records whether anything reached it), an ``hf/`` name that points at the server's
files, and an admin's shared endpoint whose URL must not reach anyone else.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest
from fake_openai import loopback_no_proxy

from probe_ui.catalogue.endpoints import Endpoints, test_model
from probe_ui.providers import readiness

REDIRECTS = (301, 302, 303, 307, 308)


class _Server:
    """A loopback HTTP server answering every request with ``answer(handler)``; remembers the paths it was sent."""

    def __init__(self, answer: Any) -> None:
        self.paths: list[str] = []
        seen = self.paths

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _any(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                seen.append(self.path)
                answer(self)

            do_GET = do_POST = do_HEAD = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.root = f"http://127.0.0.1:{self.httpd.server_port}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _internal_page(h: BaseHTTPRequestHandler) -> None:
    body = b'{"id": "x", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop", ' \
           b'"message": {"role": "assistant", "content": "INTERNAL-SECRET"}}], "data": []}'
    h.send_response(200)
    h.send_header("content-type", "application/json")
    h.send_header("content-length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


@pytest.fixture
def internal(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Server]:
    """The internal service a redirect points at: it answers like a model API, and must never be reached."""
    loopback_no_proxy(monkeypatch)
    server = _Server(_internal_page)
    yield server
    server.close()


def _redirecting(status: int, target: str, *, only_posts: bool = False) -> _Server:
    """Redirects every request (``only_posts``: only the calls; its ``/models`` answers, so it looks ready)."""
    def answer(h: BaseHTTPRequestHandler) -> None:
        if only_posts and h.command != "POST":
            _internal_page(h)
            return
        h.send_response(status)
        h.send_header("location", target + h.path)
        h.send_header("content-length", "0")
        h.end_headers()

    return _Server(answer)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("status", REDIRECTS)
def test_a_redirect_is_never_followed_by_a_model_call(internal: _Server, provider: str, status: int) -> None:
    """Issue 52, F36: an allowed host answering a redirect sent the question, the image and the key to 127.0.0.1,
    and the internal reply was shown as the model's answer."""
    allowed = _redirecting(status, internal.root, only_posts=True)
    try:
        book = Endpoints()
        cfg = book.add(provider, allowed.root + "/v1", "m", key="sk-test-key-98765432", name="allowed")
        result = test_model(cfg.name, book)
    finally:
        allowed.close()
    assert any(p.endswith(("/chat/completions", "/messages")) for p in allowed.paths), "the call was sent"
    assert internal.paths == [], "the redirect was followed"
    assert not result["ok"] and "INTERNAL-SECRET" not in str(result)
    error = result["error"]
    assert "\n" not in error and f"answered {status} (a redirect to 127.0.0.1)" in error
    assert "does not follow redirects" in error and "sk-test-key" not in error


@pytest.mark.parametrize("status", [302, 307, 308])
def test_the_readiness_look_follows_no_redirect(internal: _Server, status: int) -> None:
    """Issue 52, F36: the readiness look (GET /models) followed redirects: an allowed host could make the server
    look at an internal address, and call it ready."""
    allowed = _redirecting(status, internal.root)
    try:
        readiness.forget()
        problem = readiness.server_problem(allowed.root + "/v1")
    finally:
        allowed.close()
    assert allowed.paths == ["/v1/models"] and internal.paths == []
    assert problem is not None and "\n" not in problem
    assert f"the server answered {status} (a redirect to 127.0.0.1)" in problem and "final URL" in problem


def test_a_redirect_message_names_only_the_target_host() -> None:
    from probe_ui.security.outbound import redirect_refused

    assert redirect_refused(302, "/elsewhere", "http://models.example.org/v1/chat") == (
        "the server answered 302 (a redirect to models.example.org); probe-ui does not follow redirects: use the "
        "final URL as the base URL")
    hostile = redirect_refused(307, "http://evil\x1b]0;title\x07.example/p?q=secret", "http://a.example/v1")
    assert "\x1b" not in hostile and "\x07" not in hostile and "secret" not in hostile
    assert "an unreadable address" in redirect_refused(301, "http://[::1", "http://a.example/v1")


# ---- hf/ names (F37) -------------------------------------------------------------------------------------------

def _looks_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any look at the file system or the Hub for a typed model name fails the test."""
    from probe_ui.providers import readiness as r

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a typed hf/ name was looked at")

    monkeypatch.setattr(r, "hf_weights_problem", never)
    monkeypatch.setattr(r, "hub_problem", never)


def test_a_prober_cannot_name_a_local_model_in_a_served_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Issue 52, F37: a prober typed hf//etc/passwd ("is a file, not a model folder" mapped the server's files),
    made the server reach the Hub, or loaded any local model folder."""
    from probe_ui.catalogue.endpoints import EndpointBook
    from probe_ui.security.outbound import LOCAL_MODELS_ADMIN_ONLY, LocalModelRefused, OutboundPolicy

    _looks_forbidden(monkeypatch)
    (tmp_path / "weights").mkdir()
    typed = ["hf//etc/passwd", "hf//no/such/folder", f"hf/{tmp_path / 'weights'}", "hf/Qwen/Qwen2.5-VL-3B-Instruct",
             " hf/~/.ssh ",
             "ollama/llava", "vllm/anything"]  # their default server is the server's own loopback: no allowlist saw it
    for book in (EndpointBook(OutboundPolicy.parse("", enforced=True)),  # served beyond loopback
                 EndpointBook(many_users=True)):  # logins on loopback
        for spec in typed:
            with pytest.raises(LocalModelRefused) as refused:
                book.usable("alice", ["baseline/first", spec])
            assert str(refused.value) == LOCAL_MODELS_ADMIN_ONLY  # the same line whatever the name: no file named
        book.usable("alice", ["hf-smolvlm", "baseline/first", "openai/gpt-4o"])  # the catalogue (an admin's list)
        for spec in typed:
            book.usable("root", [spec], admin=True)  # an admin may name any
    EndpointBook().usable("local", typed)  # the app on its owner's machine: as the CLI


def test_an_admin_and_the_cli_still_load_local_models(tmp_path: Path) -> None:
    """The CLI (one person, their own machine) and an admin keep hf/ names: the reason names the file."""
    from probe_ui.catalogue.endpoints import EndpointBook
    from probe_ui.runner import resolve_each
    from probe_ui.security.outbound import OutboundPolicy

    (tmp_path / "note.txt").write_text("x")
    spec = f"hf/{tmp_path / 'note.txt'}"
    _models, unusable = resolve_each([spec])
    assert "is a file, not a model folder" in unusable[spec]
    book = EndpointBook(OutboundPolicy.parse("", enforced=True), many_users=True)
    result = test_model(spec, book.usable("root", [spec], admin=True))
    assert not result["ok"] and "is a file, not a model folder" in result["error"]


# ---- a shared endpoint's URL (F35) -------------------------------------------------------------------------------

def test_a_shared_endpoints_url_is_shown_to_admins_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 52, F35: an admin's shared endpoint showed its URL to every prober (the Models table, the Test message,
    the live calls); they now see its name, the admin (and whoever added an endpoint there) the URL."""
    from app_server import free_port

    from probe_ui.catalogue.endpoints import EndpointBook
    from probe_ui.catalogue.rate_table import rate_rows, visible_keys
    from probe_ui.live import calls as live_calls
    from probe_ui.providers import create, rate_control
    from probe_ui.security.outbound import OutboundPolicy

    loopback_no_proxy(monkeypatch)
    port = free_port()  # nobody listens: the table's reason and the test's error name the server
    url = f"http://127.0.0.1:{port}/v1"
    book = EndpointBook(OutboundPolicy.parse("127.0.0.1", enforced=True), many_users=True)
    cfg = book.add("root", "openai", url, "gpt-4o", key="sk-shared-1234567890", name="department", admin=True,
                   share=True)
    forms = (url, f"127.0.0.1:{port}", str(port))

    def shown(text: str) -> bool:
        return any(f in text for f in forms)

    alice_table = book.models_table("alice").to_string()
    assert "department" in alice_table and not shown(alice_table) and "shared endpoint 'department'" in alice_table
    assert shown(book.models_table("root", admin=True).to_string())
    tested = book.test("alice", "department", timeout_s=5)
    assert not tested["ok"] and "shared endpoint 'department'" in tested["error"] and not shown(tested["error"])
    assert shown(book.test("root", "department", admin=True, timeout_s=5)["error"])

    try:  # the live calls and the rate limits of the Models tab, after alice's probe sent calls there
        limit = live_calls.limit_for(create(cfg), cfg)
        limit.users.add("alice")
        assert shown(live_calls.status_text("alice"))  # what every prober saw
        calls = live_calls.status_text("alice", hidden=book.hidden_servers("alice"))
        assert "shared endpoint 'department'" in calls and not shown(calls)
        assert shown(live_calls.status_text("root", admin=True, hidden=book.hidden_servers("root", admin=True)))
        rate_control.forget()
        rate_control.control_for(create(cfg), cfg, 4)
        rows = repr(rate_rows(visible_keys(book.configs("alice").values()), hidden=book.hidden_servers("alice")))
        assert "shared endpoint 'department'" in rows and not shown(rows)
        assert shown(repr(rate_rows(None, hidden=book.hidden_servers("root", admin=True))))
    finally:
        live_calls.shutdown()
        rate_control.forget()

    book.add("bob", "openai", url, "m", name="bob's own")  # bob typed that URL himself: it is his to see
    assert book.hidden_servers("bob") == {} and shown(book.models_table("bob").to_string())


def test_a_failed_call_to_a_shared_endpoint_names_it_not_its_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed call's message is stored with the answer that every reader of the run sees (the Probe tab's card,
    Results, exports): for a shared endpoint it names the endpoint, never the URL; its default name names no host."""
    from app_server import free_port
    from tiny_vlm import ask, mc_request

    from probe_ui.catalogue.endpoints import EndpointBook
    from probe_ui.providers import create
    from probe_ui.providers.base import ProviderError
    from probe_ui.security.outbound import OutboundPolicy

    loopback_no_proxy(monkeypatch)
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    book = EndpointBook(OutboundPolicy.parse("127.0.0.1", enforced=True), many_users=True)
    cfg = book.add("root", "openai", url, "gpt-4o", key="sk-shared-1234567890", admin=True, share=True)
    assert cfg.name == "openai/gpt-4o (shared)" and str(port) not in cfg.name
    with pytest.raises(ProviderError) as caught:
        ask(create(book.configs("alice")[cfg.name]), mc_request())
    assert "shared endpoint 'openai/gpt-4o (shared)'" in str(caught.value) and str(port) not in str(caught.value)
    own = book.add("bob", "openai", url, "m")  # an endpoint a person added is named by its URL, to them
    with pytest.raises(ProviderError, match=str(port)):
        ask(create(own), mc_request())
