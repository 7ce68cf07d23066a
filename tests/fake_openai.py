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

The same server also answers Ollama's native ``GET /api/tags`` and ``POST /api/show`` (for model discovery): put
models in ``ollama_models`` (see :func:`ollama_model`). ``override(path, body)`` makes any route answer a fixed
(e.g. malformed) body.

The machinery shared with other fake servers (tests/fake_anthropic.py) is here too: :class:`ScriptedServer`
(lifecycle, scripted answers and faults, the request log) and :class:`BaseHandler` (reading, faults, JSON and SSE).
"""

from __future__ import annotations

import collections
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from typing_extensions import Self

#: prompt tokens charged per image part (deterministic, so tests can assert on usage and cost)
TOKENS_PER_IMAGE = 85

Responder = Callable[[dict[str, Any]], str]


@dataclass
class Fault:
    """What the server does instead of (or before) answering one request.

    ``status``: answer with this HTTP error (JSON error body, ``Retry-After`` when ``retry_after`` is set);
    ``delay_s``: wait this long first (longer than the client timeout = a timeout);
    ``malformed``: a 200 whose body is not valid JSON (for a streaming request: an SSE chunk that is not JSON);
    ``close``: drop the connection without any response; ``reset``: abort it with a TCP reset (RST);
    ``body``: raw body to send with ``status``; ``stream_error``: for a streaming request, answer 200 and then
    send an in-stream error event of this type (e.g. "overloaded_error"; the Anthropic fake only); ``data``: raw
    bytes to send with ``status`` instead of a JSON body (e.g. gzip data, with ``headers`` naming its encoding).
    """

    status: int | None = None
    retry_after: float | str | None = None
    delay_s: float = 0.0
    malformed: bool = False
    close: bool = False
    body: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    reset: bool = False
    stream_error: str | None = None
    data: bytes | None = None  # raw bytes to send with ``status`` (e.g. a gzip body with its Content-Encoding)

    @property
    def failing(self) -> bool:
        """Whether this fault replaces the answer (a delay alone only postpones it)."""
        return self.status is not None or self.close or self.reset or self.malformed or self.stream_error is not None


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

    @property
    def api_key(self) -> str | None:
        """The key as sent, either as ``x-api-key`` or as ``Authorization: Bearer``."""
        if self.headers.get("x-api-key"):
            return self.headers["x-api-key"]
        auth = self.headers.get("authorization") or ""
        return auth[len("Bearer "):] if auth.startswith("Bearer ") else None


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


def ollama_model(name: str, *, vision: bool = True, legacy: bool = False, families: list[str] | None = None,
                 model_info: dict[str, Any] | None = None) -> dict[str, Any]:
    """An ``/api/show`` answer for :attr:`FakeOpenAIServer.ollama_models`: ``capabilities`` includes "vision" for a
    vision model, as a current Ollama reports it; ``legacy=True`` leaves ``capabilities`` out (Ollama < 0.6.4), so
    only ``families`` (default ``["llama", "clip"]`` for vision) and ``model_info`` keys tell."""
    fams = families if families is not None else (["llama", "clip"] if vision else ["llama"])
    show: dict[str, Any] = {
        "license": "fake", "modelfile": f"FROM {name}", "parameters": "", "template": "{{ .Prompt }}",
        "details": {"parent_model": "", "format": "gguf", "family": fams[0] if fams else "", "families": fams,
                    "parameter_size": "7B", "quantization_level": "Q4_0"},
        "model_info": dict(model_info or {"general.architecture": fams[0] if fams else "llama"}),
        "modified_at": "2025-01-01T00:00:00Z",
    }
    if not legacy:
        show["capabilities"] = ["completion", "vision"] if vision else ["completion", "tools"]
    return show


class ScriptedServer:
    """The shared core of the fake servers: a threaded HTTP server on 127.0.0.1 (an ephemeral port) with a queue
    of scripted answers, a queue of faults, and a log of every request. Subclasses set :attr:`handler_class`."""

    handler_class: type[BaseHandler]
    thread_name = "fake-server"

    def __init__(self, *, answer: str = "A", responder: Responder | None = None, latency_s: float = 0.0,
                 expected_key: str | None = None) -> None:
        self.answer = answer
        #: ``(request_json) -> answer text``; used when no scripted answer is queued
        self.responder: Responder | None = responder
        #: seconds to wait before every answer (on top of any fault delay)
        self.latency_s = latency_s
        #: when set, any other key gets a 401 whose body echoes the key it got (as real servers do in part)
        self.expected_key = expected_key
        #: ``key -> (status, text)``: a server that echoes the key it received, as the answer (status 200) or in
        #: the message of an error with that status (the key fuzz and the redaction tests)
        self.key_echo: Callable[[str], tuple[int, str]] | None = None
        #: faults for the next calls, consumed one per model request (not per GET), in order
        self.faults: collections.deque[Fault] = collections.deque()
        #: scripted answers for the next calls (after any fault for that call), in order
        self.answers: collections.deque[str] = collections.deque()
        #: a word of the reply → its alternatives' probabilities, sent as ``logprobs`` when a request asks for them
        self.top_logprobs: dict[str, dict[str, float]] = {}
        #: every request received, faulted ones and retries included
        self.requests: list[RecordedRequest] = []
        #: path → (status, raw body): fixed answers for any route (see :meth:`override`)
        self.overrides: dict[str, tuple[int, str]] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle -------------------------------------------------------------------------------------------
    def start(self) -> Self:
        handler = type("Handler", (self.handler_class,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # a handler still sleeping in a delay fault must not hold up stop()
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=self.thread_name, daemon=True)
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

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:<port>``, without any path."""
        return f"http://127.0.0.1:{self.port}"

    # ---- scripting -------------------------------------------------------------------------------------------
    def script(self, *answers: str) -> Self:
        """Queue answer texts for the next successful calls (then the responder / default answer resumes)."""
        self.answers.extend(answers)
        return self

    def fail(self, status: int | None = None, *, times: int = 1, retry_after: float | str | None = None,
             delay_s: float = 0.0, malformed: bool = False, close: bool = False, body: str | None = None,
             headers: dict[str, str] | None = None, reset: bool = False,
             stream_error: str | None = None, data: bytes | None = None) -> Self:
        """Queue the same fault for the next ``times`` calls, e.g. ``fail(429, retry_after=0.2)``,
        ``fail(500, times=3)``, ``fail(delay_s=2)``, ``fail(malformed=True)``, ``fail(close=True)``,
        ``fail(reset=True)``."""
        for _ in range(times):
            self.faults.append(Fault(status=status, retry_after=retry_after, delay_s=delay_s, malformed=malformed,
                                     close=close, body=body, headers=dict(headers or {}), reset=reset,
                                     stream_error=stream_error, data=data))
        return self

    def override(self, path: str, body: str, status: int = 200) -> Self:
        """Answer every request to ``path`` (exact, without query) with this raw body, e.g. malformed JSON."""
        self.overrides[path] = (status, body)
        return self

    def reset(self) -> None:
        """Forget recorded requests and queued answers and faults."""
        with self._lock:
            self.requests.clear()
            self.faults.clear()
            self.answers.clear()
            self.overrides.clear()

    # ---- used by the handler ---------------------------------------------------------------------------------
    def _log(self, req: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(req)

    def _record(self, req: RecordedRequest) -> tuple[Fault | None, str | None]:
        """Record a model request and take its fault and scripted answer (if any), atomically."""
        with self._lock:
            self.requests.append(req)
            fault = self.faults.popleft() if self.faults else None
            failing = fault is not None and fault.failing
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


class BaseHandler(BaseHTTPRequestHandler):
    """Request plumbing shared by the fakes: reading and recording, faults, JSON and SSE answers."""

    fake: ScriptedServer
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as real servers (uvicorn, vLLM, the APIs) set it: http.server writes the headers and the body
    # separately, and with Nagle's algorithm the body then waits for the client's delayed ACK, adding ~40 ms to
    # every answer on a kept-alive connection
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence per-request stderr lines
        pass

    def _read(self, method: str) -> RecordedRequest:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        body: Any = None
        if method != "GET" or raw:
            try:
                body = json.loads(raw) if raw else {}
            except json.JSONDecodeError:
                body = raw
        headers = {k.lower(): v for k, v in self.headers.items()}
        return RecordedRequest(method, self.path, headers, body, time.monotonic())

    @property
    def route(self) -> str:
        return self.path.split("?", 1)[0].rstrip("/")

    def _serve_override(self) -> bool:
        """Answer with a fixed body set by :meth:`ScriptedServer.override`; True when it did."""
        hit = self.fake.overrides.get(self.route) or self.fake.overrides.get(self.path)
        if hit is None:
            return False
        self._send_raw(hit[0], hit[1].encode(), "application/json")
        return True

    def _error_json(self, status: int) -> Any:
        """The JSON error body for a faulted status (each wire format has its own)."""
        kind = {429: "rate_limit_exceeded", 500: "server_error", 503: "overloaded"}.get(status, "error")
        return {"error": {"message": f"fake {status}", "type": kind, "code": kind}}

    def _apply_fault(self, fault: Fault | None) -> bool:
        """Wait (latency and delay), then play a fault that replaces the answer; True when nothing more must be
        sent (the fault answered, the connection is gone, or the server is stopping)."""
        fake = self.fake
        fake._sleep(fake.latency_s + (fault.delay_s if fault else 0.0))
        if fake._stopping.is_set():
            return True
        if fault is None:
            return False
        if fault.reset:
            # SO_LINGER with a zero timeout: close() sends RST instead of FIN ("connection reset by peer")
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return True
        if fault.close:
            self.close_connection = True
            self.connection.close()
            return True
        if fault.status is not None:
            extra = dict(fault.headers)
            if fault.retry_after is not None:
                extra["Retry-After"] = str(fault.retry_after)
            if fault.data is not None:
                self._send_raw(fault.status, fault.data, "application/json", extra)
            elif fault.body is not None:
                self._send_raw(fault.status, fault.body.encode(), "application/json", extra)
            else:
                self._send_json(fault.status, self._error_json(fault.status), extra)
            return True
        return False

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

    def _start_sse(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _sse(self, data: Any, event: str | None = None) -> None:
        """One server-sent event (``data`` as is when a string, else as JSON)."""
        text = data if isinstance(data, str) else json.dumps(data)
        prefix = f"event: {event}\n" if event else ""
        self.wfile.write(f"{prefix}data: {text}\n\n".encode())
        self.wfile.flush()


class FakeOpenAIServer(ScriptedServer):
    """A scriptable OpenAI-compatible chat-completions server on 127.0.0.1 (an ephemeral port), which also answers
    Ollama's ``/api/tags`` and ``/api/show``."""

    thread_name = "fake-openai"

    def __init__(self, *, answer: str = "A", responder: Responder | None = None, latency_s: float = 0.0,
                 models: tuple[str, ...] = ("gpt-4o", "fake-vlm"), expected_key: str | None = None,
                 ollama_models: dict[str, dict[str, Any]] | None = None) -> None:
        super().__init__(answer=answer, responder=responder, latency_s=latency_s, expected_key=expected_key)
        self.models = models
        #: name → ``/api/show`` answer (see :func:`ollama_model`); ``/api/tags`` lists these names
        self.ollama_models: dict[str, dict[str, Any]] = dict(ollama_models or {})

    @property
    def base_url(self) -> str:
        """What to give the SDK (or a catalogue entry) as ``base_url``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def last_body(self) -> dict[str, Any]:
        """The JSON body of the latest chat-completions request."""
        return self.chat_requests[-1].body


class _Handler(BaseHandler):
    fake: FakeOpenAIServer

    # ---- GET /v1/models, GET /api/tags -----------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802
        self.fake._log(self._read("GET"))
        if self._serve_override():
            return
        if self.route.endswith("/models"):
            created = 1_700_000_000
            data = [{"id": m, "object": "model", "created": created, "owned_by": "fake"} for m in self.fake.models]
            self._send_json(200, {"object": "list", "data": data})
        elif self.route == "/api/tags":
            self._send_json(200, {"models": [self._ollama_tag(name, show)
                                             for name, show in self.fake.ollama_models.items()]})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    @staticmethod
    def _ollama_tag(name: str, show: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, "model": name, "modified_at": show.get("modified_at", ""), "size": 4_000_000_000,
                "digest": f"sha256:{abs(hash(name)):064x}"[:71], "details": show.get("details", {})}

    # ---- POST /v1/chat/completions, POST /api/show -----------------------------------------------------------
    def do_POST(self) -> None:  # noqa: N802
        req = self._read("POST")
        body = req.body
        if self.route == "/api/show" or not self.route.endswith("/chat/completions"):
            self.fake._log(req)
            if self._serve_override():
                return
            if self.route == "/api/show":
                name = (body.get("model") or body.get("name")) if isinstance(body, dict) else None
                show = self.fake.ollama_models.get(name or "")
                if show is None:
                    self._send_json(404, {"error": f"model '{name}' not found"})
                else:
                    self._send_json(200, show)
                return
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        fault, scripted = self.fake._record(req)
        try:
            self._serve_chat(body, fault, scripted, req.headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing to do

    def _serve_chat(self, body: Any, fault: Fault | None, scripted: str | None, headers: dict[str, str]) -> None:
        fake = self.fake
        if self._apply_fault(fault):
            return
        if self._serve_override():
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send_json(400, {"error": {"message": "request body must be JSON with 'messages'",
                                            "type": "invalid_request_error"}})
            return
        if fake.key_echo is not None:
            status, text = fake.key_echo(headers.get("authorization", "").removeprefix("Bearer "))
            if status != 200:
                self._send_json(status, {"error": {"message": text, "type": "invalid_request_error"}})
                return
            scripted = text
        if fake.expected_key is not None and headers.get("authorization") != f"Bearer {fake.expected_key}":
            got = headers.get("authorization", "").removeprefix("Bearer ")
            self._send_json(401, {"error": {"message": f"Incorrect API key provided: {got}",
                                            "type": "invalid_request_error", "code": "invalid_api_key"}})
            return
        problem = _invalid_response_format(body.get("response_format"))
        if problem:
            self._send_json(400, {"error": {"message": problem, "type": "invalid_request_error"}})
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
                         "finish_reason": finish, "logprobs": self._logprobs(body, text)}],
            "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
        }

    def _logprobs(self, body: dict[str, Any], text: str) -> dict[str, Any] | None:
        """``logprobs`` as OpenAI sends it when asked (``logprobs: true``): one entry per word of the reply (the
        words stand in for tokens), each word's top alternatives from :attr:`ScriptedServer.top_logprobs` where it
        names the word (``{"B": {"B": 0.7, "A": 0.2, "C": 0.1}}``), else the word alone at probability 1."""
        import math

        if not body.get("logprobs"):
            return None
        k = int(body.get("top_logprobs") or 0)
        content = []
        for i, word in enumerate(text.split(" ")):
            token = word if i == 0 else " " + word
            alts = self.fake.top_logprobs.get(word.strip(" .,:()*"), {word: 1.0})
            top = [{"token": (t if i == 0 else " " + t), "logprob": math.log(pr), "bytes": None}
                   for t, pr in sorted(alts.items(), key=lambda x: -x[1])[:k]]
            content.append({"token": token, "logprob": math.log(alts.get(word.strip(" .,:()*"), 1.0)),
                            "bytes": None, "top_logprobs": top})
        return {"content": content, "refusal": None}

    def _stream(self, body: dict[str, Any], answer: str, malformed: bool) -> None:
        text, finish = self._truncate(body, answer)
        base = {"id": f"chatcmpl-fake{len(self.fake.requests)}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body.get("model", "fake"), "system_fingerprint": "fp_fake"}
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        self._start_sse()

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            out = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]}
            if include_usage:
                out["usage"] = None
            return out

        self._sse(chunk({"role": "assistant", "content": ""}))
        if malformed:
            self._sse('{"id": "chatcmpl-broken", "choices": [')
            return
        words = text.split(" ")
        for i, word in enumerate(words):
            self._sse(chunk({"content": word if i == 0 else " " + word}))
        self._sse(chunk({}, finish))
        if include_usage:
            p, c = prompt_tokens(body), count_words(text)
            self._sse({**base, "choices": [], "usage": {"prompt_tokens": p, "completion_tokens": c,
                                                         "total_tokens": p + c}})
        self._sse("[DONE]")


FakeOpenAIServer.handler_class = _Handler


def _invalid_response_format(fmt: Any) -> str | None:
    """What the real API rejects about ``response_format``: an unknown type, a json_schema without a name or an
    object schema, a strict schema that allows other properties."""
    if fmt is None:
        return None
    if not isinstance(fmt, dict) or fmt.get("type") not in ("text", "json_object", "json_schema"):
        return "response_format.type: must be 'text', 'json_object' or 'json_schema'"
    if fmt["type"] != "json_schema":
        return None
    spec = fmt.get("json_schema")
    if not isinstance(spec, dict) or not spec.get("name") or (spec.get("schema") or {}).get("type") != "object":
        return "response_format.json_schema: needs a name and a schema of type object"
    if spec.get("strict") and spec["schema"].get("additionalProperties") is not False:
        return "response_format.json_schema.schema: strict mode needs additionalProperties: false"
    return None


def loopback_no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make sure a proxy configured in the environment is never used for the loopback address."""
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(var, ",".join(x for x in ("127.0.0.1", "localhost", os.environ.get(var, "")) if x))


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """A running :class:`FakeOpenAIServer`; stopped after the test.

    Also makes sure a proxy configured in the environment is never used for the loopback address.
    """
    loopback_no_proxy(monkeypatch)
    with FakeOpenAIServer() as server:
        yield server
