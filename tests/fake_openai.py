"""A loopback server that speaks the OpenAI chat-completions wire format, for offline tests.

Tests drive the real ``openai`` SDK (and anything built on it: providers, the runner, the CLI) against this server
instead of the internet. It answers ``POST /v1/chat/completions`` (JSON, or SSE when ``"stream": true``) and
``GET /v1/models``, records every request it receives, and can be scripted with answers, latency and faults
(429 with Retry-After, 5xx, slow answers, malformed bodies, dropped connections).

Use the ``fake_openai`` pytest fixture (wired in ``tests/conftest.py``)::

    def test_x(fake_openai):
        fake_openai.script("B")                       # the next call answers "B"
        fake_openai.fail(429, retry_after=0.2)        # ... after one rate-limited attempt
        cfg = ModelConfig(name="m", provider="openai", model="gpt-4o", base_url=fake_openai.base_url)
        ...
        assert fake_openai.requests[-1].body["temperature"] == 0

or ``with FakeOpenAIServer() as server: ...`` outside pytest.
"""

from __future__ import annotations

import collections
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

#: prompt tokens charged per image part (deterministic, so tests can assert on usage and cost)
TOKENS_PER_IMAGE = 85

Responder = Callable[[dict[str, Any]], str]


@dataclass
class Fault:
    """What the server does instead of (or before) answering one request.

    ``status``: answer with this HTTP error (JSON error body, ``Retry-After`` when ``retry_after`` is set);
    ``delay_s``: wait this long first (longer than the client timeout = a timeout);
    ``malformed``: a 200 whose body is not valid JSON (for a streaming request: an SSE chunk that is not JSON);
    ``close``: drop the connection without any response; ``body``: raw body to send with ``status``.
    """

    status: int | None = None
    retry_after: float | str | None = None
    delay_s: float = 0.0
    malformed: bool = False
    close: bool = False
    body: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class RecordedRequest:
    """One HTTP request as the server saw it (headers with lower-case names)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON, or None for GET
    received_at: float  # time.monotonic()

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")


def count_words(text: str) -> int:
    return len(text.split())


def prompt_tokens(body: dict[str, Any]) -> int:
    """Words in every text part (or string content) plus a fixed charge per image."""
    total = 0
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            total += count_words(content)
        elif isinstance(content, list):
            for part in content:
                if part.get("type") == "text":
                    total += count_words(part.get("text", ""))
                elif part.get("type") == "image_url":
                    total += TOKENS_PER_IMAGE
    return total


class FakeOpenAIServer:
    """A scriptable OpenAI-compatible chat-completions server on 127.0.0.1 (an ephemeral port)."""

    def __init__(self, *, answer: str = "A", responder: Responder | None = None, latency_s: float = 0.0,
                 models: tuple[str, ...] = ("gpt-4o", "fake-vlm"), expected_key: str | None = None) -> None:
        self.answer = answer
        #: ``(request_json) -> answer text``; used when no scripted answer is queued
        self.responder: Responder | None = responder
        #: seconds to wait before every answer (on top of any fault delay)
        self.latency_s = latency_s
        self.models = models
        #: when set, any other bearer key gets a 401 whose body echoes the key it got (as real servers do in part)
        self.expected_key = expected_key
        #: faults for the next calls, consumed one per chat-completions request, in order
        self.faults: collections.deque[Fault] = collections.deque()
        #: scripted answers for the next calls (after any fault for that call), in order
        self.answers: collections.deque[str] = collections.deque()
        #: every request received, faulted ones and retries included
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle -------------------------------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # a handler still sleeping in a delay fault must not hold up stop()
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """What to give the SDK (or a catalogue entry) as ``base_url``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # ---- scripting -------------------------------------------------------------------------------------------
    def script(self, *answers: str) -> FakeOpenAIServer:
        """Queue answer texts for the next successful calls (then the responder / default answer resumes)."""
        self.answers.extend(answers)
        return self

    def fail(self, status: int | None = None, *, times: int = 1, retry_after: float | str | None = None,
             delay_s: float = 0.0, malformed: bool = False, close: bool = False, body: str | None = None,
             headers: dict[str, str] | None = None) -> FakeOpenAIServer:
        """Queue the same fault for the next ``times`` calls, e.g. ``fail(429, retry_after=0.2)``,
        ``fail(500, times=3)``, ``fail(delay_s=2)``, ``fail(malformed=True)``, ``fail(close=True)``."""
        for _ in range(times):
            self.faults.append(Fault(status=status, retry_after=retry_after, delay_s=delay_s, malformed=malformed,
                                     close=close, body=body, headers=dict(headers or {})))
        return self

    def reset(self) -> None:
        """Forget recorded requests and queued answers and faults."""
        with self._lock:
            self.requests.clear()
            self.faults.clear()
            self.answers.clear()

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def last_body(self) -> dict[str, Any]:
        """The JSON body of the latest chat-completions request."""
        return self.chat_requests[-1].body

    # ---- used by the handler ---------------------------------------------------------------------------------
    def _record(self, req: RecordedRequest) -> tuple[Fault | None, str | None]:
        """Record a chat request and take its fault and scripted answer (if any), atomically."""
        with self._lock:
            self.requests.append(req)
            fault = self.faults.popleft() if self.faults else None
            failing = fault is not None and (fault.status is not None or fault.close or fault.malformed)
            answer = self.answers.popleft() if self.answers and not failing else None
        return fault, answer

    def _answer_for(self, body: dict[str, Any], scripted: str | None) -> str:
        if scripted is not None:
            return scripted
        if self.responder is not None:
            return self.responder(body)
        return self.answer

    def _sleep(self, seconds: float) -> None:
        """Sleep, but wake up when the server stops (so a stuck handler never outlives a test)."""
        if seconds > 0:
            self._stopping.wait(seconds)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence per-request stderr lines
        pass

    # ---- GET /v1/models --------------------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802
        headers = {k.lower(): v for k, v in self.headers.items()}
        with self.fake._lock:
            self.fake.requests.append(RecordedRequest("GET", self.path, headers, None, time.monotonic()))
        if self.path.rstrip("/").endswith("/models"):
            created = 1_700_000_000
            data = [{"id": m, "object": "model", "created": created, "owned_by": "fake"} for m in self.fake.models]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    # ---- POST /v1/chat/completions ---------------------------------------------------------------------------
    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        try:
            body: Any = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            body = raw
        headers = {k.lower(): v for k, v in self.headers.items()}
        req = RecordedRequest("POST", self.path, headers, body, time.monotonic())
        if not self.path.rstrip("/").endswith("/chat/completions"):
            with self.fake._lock:
                self.fake.requests.append(req)
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        fault, scripted = self.fake._record(req)
        try:
            self._serve_chat(body, fault, scripted, headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing to do

    def _serve_chat(self, body: Any, fault: Fault | None, scripted: str | None, headers: dict[str, str]) -> None:
        fake = self.fake
        fake._sleep(fake.latency_s + (fault.delay_s if fault else 0.0))
        if fake._stopping.is_set():
            return
        if fault is not None and fault.close:
            self.close_connection = True
            self.connection.close()
            return
        if fault is not None and fault.status is not None:
            extra = dict(fault.headers)
            if fault.retry_after is not None:
                extra["Retry-After"] = str(fault.retry_after)
            if fault.body is not None:
                self._send_raw(fault.status, fault.body.encode(), "application/json", extra)
            else:
                kind = {429: "rate_limit_exceeded", 500: "server_error", 503: "overloaded"}.get(fault.status, "error")
                self._send_json(fault.status, {"error": {"message": f"fake {fault.status}", "type": kind,
                                                         "code": kind}}, extra)
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send_json(400, {"error": {"message": "request body must be JSON with 'messages'",
                                            "type": "invalid_request_error"}})
            return
        if fake.expected_key is not None and headers.get("authorization") != f"Bearer {fake.expected_key}":
            got = headers.get("authorization", "").removeprefix("Bearer ")
            self._send_json(401, {"error": {"message": f"Incorrect API key provided: {got}",
                                            "type": "invalid_request_error", "code": "invalid_api_key"}})
            return
        malformed = fault is not None and fault.malformed
        if body.get("stream"):
            self._stream(body, fake._answer_for(body, scripted), malformed)
        elif malformed:
            self._send_raw(200, b'{"id": "chatcmpl-broken", "choices": [', "application/json")
        else:
            self._send_json(200, self._completion(body, fake._answer_for(body, scripted)))

    @staticmethod
    def _truncate(body: dict[str, Any], answer: str) -> tuple[str, str]:
        """Honour max_tokens (one word = one token) so finish_reason 'length' can be tested."""
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        words = answer.split()
        if isinstance(limit, int) and len(words) > limit:
            return " ".join(words[:limit]), "length"
        return answer, "stop"

    def _completion(self, body: dict[str, Any], answer: str) -> dict[str, Any]:
        text, finish = self._truncate(body, answer)
        p, c = prompt_tokens(body), count_words(text)
        return {
            "id": f"chatcmpl-fake{len(self.fake.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
        }

    def _stream(self, body: dict[str, Any], answer: str, malformed: bool) -> None:
        text, finish = self._truncate(body, answer)
        base = {"id": f"chatcmpl-fake{len(self.fake.requests)}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body.get("model", "fake"), "system_fingerprint": "fp_fake"}
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def send(obj: Any) -> None:
            data = obj if isinstance(obj, str) else json.dumps(obj)
            self.wfile.write(f"data: {data}\n\n".encode())
            self.wfile.flush()

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            out = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]}
            if include_usage:
                out["usage"] = None
            return out

        send(chunk({"role": "assistant", "content": ""}))
        if malformed:
            send('{"id": "chatcmpl-broken", "choices": [')
            return
        words = text.split(" ")
        for i, word in enumerate(words):
            send(chunk({"content": word if i == 0 else " " + word}))
        send(chunk({}, finish))
        if include_usage:
            p, c = prompt_tokens(body), count_words(text)
            send({**base, "choices": [], "usage": {"prompt_tokens": p, "completion_tokens": c,
                                                    "total_tokens": p + c}})
        send("[DONE]")

    # ---- helpers ---------------------------------------------------------------------------------------------
    def _send_json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(obj).encode(), "application/json", headers)

    def _send_raw(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """A running :class:`FakeOpenAIServer`; stopped after the test.

    Also makes sure a proxy configured in the environment is never used for the loopback address.
    """
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(var, ",".join(x for x in ("127.0.0.1", "localhost", os.environ.get(var, "")) if x))
    with FakeOpenAIServer() as server:
        yield server
