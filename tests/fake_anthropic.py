"""A loopback server that speaks the Anthropic Messages wire format, for offline tests.

Tests drive the real ``anthropic`` SDK (and the provider built on it) against this server instead of the internet.
It answers ``POST /v1/messages`` (a JSON message, or server-sent events when ``"stream": true``: message_start,
content_block_start, ping, content_block_delta (text_delta), content_block_stop, message_delta (stop_reason and
cumulative usage), message_stop) and ``GET /v1/models``, records every request with its headers, accepts the key as
``x-api-key`` or ``Authorization: Bearer``, rejects what the real API rejects (no ``anthropic-version`` header,
sampling parameters from API version 2026-10-21 on, empty text blocks, images outside user turns), and can be
scripted with answers, latency and faults: 429 with Retry-After, 500, 529 overloaded, a hang past the client
timeout, malformed JSON, a dropped or reset connection, an error event in the middle of a stream. A request that
forces a tool (``tool_choice: {type: tool}``, as ``--answer-format json`` sends) is answered with a ``tool_use``
block whose input is the scripted answer (a JSON object as it stands, other text as ``{"answer": text}``), streamed
as ``input_json_delta`` pieces. The machinery (and :class:`~fake_openai.Fault`) is shared with
tests/fake_openai.py.

Use the ``fake_anthropic`` pytest fixture (wired in ``tests/conftest.py``)::

    def test_x(fake_anthropic):
        fake_anthropic.script("B")                       # the next call answers "B"
        fake_anthropic.fail(529)                         # ... after one overloaded attempt
        cfg = ModelConfig(name="c", provider="anthropic", model="claude-sonnet-4-6",
                          base_url=fake_anthropic.base_url)
        ...
        assert fake_anthropic.last_body["max_tokens"] == 32

or ``with FakeAnthropicServer() as server: ...`` outside pytest.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fake_openai import (
    TOKENS_PER_IMAGE,
    BaseHandler,
    Fault,
    RecordedRequest,
    Responder,
    ScriptedServer,
    count_words,
    loopback_no_proxy,
)

#: the API version (``anthropic-version``) from which temperature / top_p / top_k are rejected
SAMPLING_REMOVED_IN = "2026-10-21"
#: the error ``type`` Anthropic sends for each status
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def input_tokens(body: dict[str, Any]) -> int:
    """Words in the system prompt and every text block, plus :data:`TOKENS_PER_IMAGE` per image block."""
    total = 0
    system = body.get("system")
    if isinstance(system, str):
        total += count_words(system)
    elif isinstance(system, list):
        total += sum(count_words(b.get("text", "")) for b in system if isinstance(b, dict))
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            total += count_words(content)
        elif isinstance(content, list):
            for block in content:
                if block.get("type") == "text":
                    total += count_words(block.get("text", ""))
                elif block.get("type") == "image":
                    total += TOKENS_PER_IMAGE
    return total


class FakeAnthropicServer(ScriptedServer):
    """A scriptable Anthropic Messages API server on 127.0.0.1 (an ephemeral port)."""

    thread_name = "fake-anthropic"

    def __init__(self, *, answer: str = "A", responder: Responder | None = None, latency_s: float = 0.0,
                 models: tuple[str, ...] = ("claude-sonnet-4-6", "claude-haiku-4-5"),
                 expected_key: str | None = None, stop_reason: str | None = None,
                 thinking: str | None = None) -> None:
        super().__init__(answer=answer, responder=responder, latency_s=latency_s, expected_key=expected_key)
        self.models = models
        #: when set, every answer ends with this stop_reason (e.g. "refusal"); else end_turn / max_tokens
        self.stop_reason = stop_reason
        #: when set, every answer starts with a thinking block with this text (as a model that thinks by default)
        self.thinking = thinking

    @property
    def base_url(self) -> str:
        """What to give the SDK (or a catalogue entry, or ``ANTHROPIC_BASE_URL``): the root, as the SDK adds
        ``/v1/messages`` itself."""
        return self.root_url

    @property
    def message_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.split("?", 1)[0].rstrip("/") == "/v1/messages"]

    @property
    def last_body(self) -> dict[str, Any]:
        """The JSON body of the latest messages request."""
        return self.message_requests[-1].body


def _error(status: int, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message},
            "request_id": "req_fake"}


class _Handler(BaseHandler):
    fake: FakeAnthropicServer

    def _error_json(self, status: int) -> Any:
        return _error(status, "Overloaded" if status == 529 else f"fake {status}")

    # ---- GET /v1/models --------------------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802
        self.fake._log(self._read("GET"))
        if self._serve_override():
            return
        if self.route == "/v1/models":
            data = [{"type": "model", "id": m, "display_name": m, "created_at": "2025-01-01T00:00:00Z"}
                    for m in self.fake.models]
            self._send_json(200, {"data": data, "has_more": False, "first_id": data[0]["id"] if data else None,
                                  "last_id": data[-1]["id"] if data else None})
        else:
            self._send_json(404, _error(404, f"no route {self.path}"))

    # ---- POST /v1/messages -----------------------------------------------------------------------------------
    def do_POST(self) -> None:  # noqa: N802
        req = self._read("POST")
        if self.route != "/v1/messages":
            self.fake._log(req)
            if not self._serve_override():
                self._send_json(404, _error(404, f"no route {self.path}"))
            return
        fault, scripted = self.fake._record(req)
        try:
            self._serve_messages(req, fault, scripted)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing to do

    def _serve_messages(self, req: RecordedRequest, fault: Fault | None, scripted: str | None) -> None:
        fake, body = self.fake, req.body
        if self._apply_fault(fault):
            return
        if self._serve_override():
            return
        if "anthropic-version" not in req.headers:
            self._send_json(400, _error(400, "anthropic-version: header is required"))
            return
        if fake.key_echo is not None:
            status, text = fake.key_echo(req.api_key or "")
            if status != 200:
                self._send_json(status, _error(status, text))
                return
            scripted = text
        if fake.expected_key is not None and req.api_key != fake.expected_key:
            self._send_json(401, _error(401, f"invalid x-api-key: {req.api_key}"))
            return
        problem = _invalid(body, req.headers["anthropic-version"])
        if problem:
            self._send_json(400, _error(400, problem))
            return
        malformed = fault is not None and fault.malformed
        answer = fake._answer_for(body, scripted)
        if body.get("stream"):
            self._stream(body, answer, malformed, fault.stream_error if fault else None)
        elif malformed:
            self._send_raw(200, b'{"id": "msg_broken", "type": "message", "content": [', "application/json")
        else:
            self._send_json(200, self._message(body, answer), {"request-id": "req_fake"})

    def _truncate(self, body: dict[str, Any], answer: str) -> tuple[str, str]:
        """Honour max_tokens (one word = one token) so stop_reason 'max_tokens' can be tested."""
        words = answer.split()
        limit = body["max_tokens"]
        text, stop = (" ".join(words[:limit]), "max_tokens") if len(words) > limit else (answer, "end_turn")
        return text, self.fake.stop_reason or stop

    def _envelope(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"id": f"msg_fake{len(self.fake.requests)}", "type": "message", "role": "assistant",
                "model": body.get("model", "fake"), "stop_sequence": None}

    def _thinking(self, body: dict[str, Any]) -> str | None:
        disabled = (body.get("thinking") or {}).get("type") == "disabled"
        return None if disabled else self.fake.thinking

    def _message(self, body: dict[str, Any], answer: str) -> dict[str, Any]:
        tool = _forced_tool(body)
        if tool:
            call = _tool_use(tool, answer)
            return {**self._envelope(body), "content": [call], "stop_reason": "tool_use",
                    "usage": {"input_tokens": input_tokens(body), "output_tokens": count_words(answer) + 10,
                              "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
        text, stop = self._truncate(body, answer)
        thinking = self._thinking(body)
        content = [{"type": "thinking", "thinking": thinking, "signature": "sig"}] if thinking else []
        content.append({"type": "text", "text": text})
        return {**self._envelope(body), "content": content, "stop_reason": stop,
                "usage": {"input_tokens": input_tokens(body),
                          "output_tokens": count_words(text) + count_words(thinking or ""),
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}

    def _stream(self, body: dict[str, Any], answer: str, malformed: bool, stream_error: str | None) -> None:
        text, stop = self._truncate(body, answer)
        thinking = self._thinking(body)
        self._start_sse()
        start = {**self._envelope(body), "content": [], "stop_reason": None,
                 "usage": {"input_tokens": input_tokens(body), "output_tokens": 1}}
        self._sse({"type": "message_start", "message": start}, "message_start")
        index = 0
        if thinking:
            self._sse({"type": "content_block_start", "index": 0,
                       "content_block": {"type": "thinking", "thinking": "", "signature": ""}}, "content_block_start")
            self._sse({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "thinking_delta", "thinking": thinking}}, "content_block_delta")
            self._sse({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "signature_delta", "signature": "sig"}}, "content_block_delta")
            self._sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
            index = 1
        tool = _forced_tool(body)
        if tool:
            self._stream_tool(index, _tool_use(tool, answer))
            return
        self._sse({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
                  "content_block_start")
        self._sse({"type": "ping"}, "ping")
        if malformed:
            self._sse('{"type": "content_block_delta", "index": 0, "delta": {', "content_block_delta")
            return
        words = text.split(" ")
        if stream_error:  # part of the answer, then an error event (as when the API is overloaded mid-answer)
            words = words[: max(1, len(words) // 2)]
        for i, word in enumerate(words):
            delta = {"type": "text_delta", "text": word if i == 0 else " " + word}
            self._sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta")
        if stream_error:
            self._sse({"type": "error", "error": {"type": stream_error, "message": f"fake {stream_error}"}}, "error")
            return
        self._sse({"type": "content_block_stop", "index": index}, "content_block_stop")
        self._sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                   "usage": {"output_tokens": count_words(text) + count_words(thinking or "")}}, "message_delta")
        self._sse({"type": "message_stop"}, "message_stop")

    def _stream_tool(self, index: int, call: dict[str, Any]) -> None:
        """A forced tool call as the API streams it: the block with an empty input, its JSON in pieces, the end."""
        self._sse({"type": "content_block_start", "index": index, "content_block": dict(call, input={})},
                  "content_block_start")
        raw = json.dumps(call["input"])
        cut = max(1, len(raw) // 2)
        for piece in ("", raw[:cut], raw[cut:]):
            self._sse({"type": "content_block_delta", "index": index,
                       "delta": {"type": "input_json_delta", "partial_json": piece}}, "content_block_delta")
        self._sse({"type": "content_block_stop", "index": index}, "content_block_stop")
        self._sse({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                   "usage": {"output_tokens": count_words(raw) + 10}}, "message_delta")
        self._sse({"type": "message_stop"}, "message_stop")


FakeAnthropicServer.handler_class = _Handler


def _forced_tool(body: dict[str, Any]) -> str | None:
    """The tool a request forces (``tool_choice: {type: tool, name}``), or None."""
    choice = body.get("tool_choice")
    return choice.get("name") if isinstance(choice, dict) and choice.get("type") == "tool" else None


def _tool_use(name: str, answer: str) -> dict[str, Any]:
    """A tool_use block whose input is the answer: a JSON object as it stands, other text as ``{"answer": text}``."""
    try:
        value = json.loads(answer)
    except ValueError:
        value = None
    return {"type": "tool_use", "id": "toolu_fake", "name": name,
            "input": value if isinstance(value, dict) else {"answer": answer}}


def _invalid(body: Any, version: str) -> str | None:
    """What the real API would reject with a 400 (a few checks that catch translation bugs), including sampling
    parameters from API version 2026-10-21 (the anthropic SDK 2.x default) on."""
    if not isinstance(body, dict):
        return "request body must be a JSON object"
    thinking = body.get("thinking")
    if thinking is not None and (not isinstance(thinking, dict) or
                                 thinking.get("type") not in ("enabled", "disabled", "adaptive")):
        return "thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'"
    if version >= SAMPLING_REMOVED_IN:
        for param in ("temperature", "top_p", "top_k"):
            if param in body:
                return f"{param}: Extra inputs are not permitted"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: Field required"
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: Field required"
    problem = _invalid_tools(body)
    if problem:
        return problem
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            return f"messages.{i}.role: Input should be 'user' or 'assistant'"
        content = m.get("content")
        if isinstance(content, list):
            for j, block in enumerate(content):
                kind = block.get("type") if isinstance(block, dict) else None
                if kind == "text" and not block.get("text"):
                    return f"messages.{i}.content.{j}.text: text content blocks must be non-empty"
                if kind == "image":
                    source = block.get("source") or {}
                    if source.get("type") != "base64" or not source.get("data") or \
                            source.get("media_type") not in ("image/png", "image/jpeg", "image/gif", "image/webp"):
                        return f"messages.{i}.content.{j}.source: invalid image source"
                    if m["role"] != "user":
                        return f"messages.{i}: images are only allowed in user messages"
                elif kind != "text":
                    return f"messages.{i}.content.{j}.type: unsupported block type {kind!r}"
        elif not isinstance(content, str):
            return f"messages.{i}.content: Input should be a string or a list of blocks"
    return None


def _invalid_tools(body: dict[str, Any]) -> str | None:
    """What the real API rejects about tools: a tool without a name or an object input_schema, a tool_choice that
    names no tool sent, a forced tool while thinking is on."""
    tools = body.get("tools")
    names = set()
    if tools is not None:
        if not isinstance(tools, list):
            return "tools: Input should be a valid list"
        for i, t in enumerate(tools):
            if not isinstance(t, dict) or not t.get("name") or (t.get("input_schema") or {}).get("type") != "object":
                return f"tools.{i}: a tool needs a name and an input_schema of type object"
            names.add(t["name"])
    choice = body.get("tool_choice")
    if choice is not None:
        if not isinstance(choice, dict) or choice.get("type") not in ("auto", "any", "tool", "none"):
            return "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'"
        if choice["type"] == "tool" and choice.get("name") not in names:
            return f"tool_choice.name: no tool named {choice.get('name')!r} in tools"
        thinking = (body.get("thinking") or {}).get("type")
        if choice["type"] in ("tool", "any") and thinking in ("enabled", "adaptive"):
            return "Thinking may not be enabled when tool_choice forces tool use."
    return None


@pytest.fixture
def fake_anthropic(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropicServer]:
    """A running :class:`FakeAnthropicServer`; stopped after the test. A proxy configured in the environment is
    never used for the loopback address."""
    loopback_no_proxy(monkeypatch)
    with FakeAnthropicServer() as server:
        yield server
