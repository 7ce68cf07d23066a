"""Anthropic Claude through the official ``anthropic`` SDK (Messages API).

The SDK does the HTTP work: retries with backoff that honour ``Retry-After`` (429, 5xx, 529 overloaded, timeouts,
dropped connections) and its environment variables (``ANTHROPIC_BASE_URL``, ``ANTHROPIC_CUSTOM_HEADERS``). This
module translates the provider-neutral :class:`~probe_ui.messages.Request` to the Messages wire format
(system prompt as the ``system`` parameter, images as base64 PNG blocks in the order the prompt puts them, which is
images first), reads text, usage and ``stop_reason`` back (from the JSON answer or the SSE stream), and turns every
SDK failure into a one-line :class:`~probe_ui.providers.base.ProviderError` that names the model and never contains
the API key.

Sampling: the SDK (2.x) sends ``anthropic-version: 2026-10-21``, and from that API version the Messages API has no
sampling parameters: ``temperature``, ``top_p`` and ``top_k`` are rejected with HTTP 400, even at their defaults
(the SDK dropped them from ``messages.create``). So by default they are not sent, the model samples at the API's
default, and the response says so (``details["sampling"] == "api-default"``). A catalogue entry that needs
``settings.temperature`` honoured sets ``options.api_version: "2023-06-01"``; they are then sent in the body.

Catalogue ``options``: ``max_retries`` (default 2), ``timeout_s`` (client-wide, default 120; each request uses
``settings.timeout_s``), ``api_version`` (the ``anthropic-version`` header; default the SDK's), ``sampling``
(send ``temperature``/``top_p``: default only for an ``api_version`` before 2026-10-21), ``thinking`` (the API's
``thinking`` parameter as is, e.g. ``{type: disabled}``: models that think by default spend ``max_tokens`` on
thinking first; default: not sent), ``extra_body`` (merged into the request JSON).

Structured answers (``--answer-format json``): the request carries one tool, ``answer``, whose input schema is the
item's answer schema, and ``tool_choice`` forces it; the tool call's input comes back as the reply text
(``{"answer": "B"}``), which the reader takes as it stands. The API refuses a forced tool while thinking is on, so a
model whose ``options.thinking`` enables it is refused for that format before a batch starts.
"""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

from probe_ui.messages import ImagePart, Message, Request, Response, TextPart
from probe_ui.providers import answer_format, base
from probe_ui.providers.base import ProviderError, register_provider
from probe_ui.providers.sdk import Malformed, SDKProvider, configured_base_url, int_or_none

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"

#: the first API version whose Messages API rejects temperature / top_p / top_k
NO_SAMPLING_FROM = "2026-10-21"
#: ``details["sampling"]`` when temperature and top_p were not sent
API_DEFAULT_SAMPLING = "api-default"


def to_wire(messages: tuple[Message, ...]) -> tuple[str | None, list[dict[str, Any]]]:
    """Provider-neutral messages → ``(system, messages)`` for the Messages API.

    System messages are joined into the ``system`` parameter; user and assistant messages become lists of content
    blocks in the order of their parts (images as base64 PNG ``image`` blocks). Images are only allowed in user
    messages.
    """
    system: list[str] = []
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role != "user" and any(isinstance(p, ImagePart) for p in m.content):
            raise ValueError(f"images are only allowed in user messages, not in a {m.role} message")
        if m.role == "system":
            system.append(m.text())
            continue
        blocks: list[dict[str, Any]] = []
        for p in m.content:
            if isinstance(p, TextPart):
                if p.text:  # the API rejects empty text blocks
                    blocks.append({"type": "text", "text": p.text})
            elif isinstance(p, ImagePart):
                blocks.append({"type": "image", "source": {
                    "type": "base64", "media_type": "image/png",
                    "data": p.image.base64}})
            else:  # pragma: no cover - the protocol has two part types
                raise ValueError(f"unknown message part {type(p).__name__}")
        if not blocks:
            raise ValueError(f"a {m.role} message has no content")
        out.append({"role": m.role, "content": blocks})
    if not out:
        raise ValueError("the request has no user message")
    joined = "\n\n".join(t for t in system if t)
    return (joined or None), out


@register_provider
class AnthropicProvider(SDKProvider):
    """A Claude model behind the Anthropic Messages API (or a server or proxy speaking it)."""

    name = "anthropic"
    sdk = "anthropic"
    sdk_error = "AnthropicError"
    key_env = DEFAULT_KEY_ENV
    own_hosts = ("api.anthropic.com",)
    sdk_base_url_env = BASE_URL_ENV
    default_concurrency = 4
    #: Anthropic downsizes images whose long side exceeds 1568 px; do it here so the pixels sent are recorded
    max_image_side = 1568
    #: json: a forced tool whose input schema is the answer schema (module docstring)
    answer_formats = ("free", "json")
    #: Message Batches (``/v1/messages/batches``)
    batch_api = "anthropic"

    @classmethod
    def answer_format_problem(cls, config: base.ModelConfig, answer_format: str) -> str | None:
        problem = super().answer_format_problem(config, answer_format)
        thinking = config.options.get("thinking")
        if problem or answer_format != "json" or not isinstance(thinking, dict):
            return problem
        if thinking.get("type") in ("disabled", None):
            return None
        return (f"model '{config.name}' cannot be asked for --answer-format json while its options.thinking is "
                f"{thinking.get('type')!r}: the API refuses a forced tool with thinking on; set options.thinking to "
                "{type: disabled} for it, or ask it in free text")

    @classmethod
    def image_tokens(cls, width: int, height: int) -> int:
        """Anthropic's published estimate: width x height / 750 tokens per image."""
        return math.ceil(width * height / 750)

    def make_client(self, key: str, max_retries: int, timeout_s: float, http_client: Any) -> Any:
        from anthropic import AsyncAnthropic

        version = self.config.options.get("api_version")
        if version is not None and not (isinstance(version, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", version)):
            raise ProviderError(f"{self.label}: options.api_version must be a date like '2023-06-01', got {version!r}")
        # an explicit api_key keeps the SDK from looking for other credentials (auth tokens, profiles on disk)
        return AsyncAnthropic(api_key=key, base_url=configured_base_url(self.config),  # None → ANTHROPIC_BASE_URL
                              max_retries=max_retries, timeout=timeout_s, http_client=http_client,
                              default_headers={"anthropic-version": version} if version else None)

    async def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return await client.messages.with_raw_response.create(**kwargs)

    # ---- request ---------------------------------------------------------------------------------------------
    def build_kwargs(self, request: Request) -> dict[str, Any]:
        s = request.settings
        options = self.config.options
        try:
            system, messages = to_wire(request.messages)
        except ValueError as exc:
            raise ProviderError(f"{self.label}: {exc}") from None
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "max_tokens": s.max_tokens,
            "timeout": s.timeout_s,
        }
        if system:
            kwargs["system"] = system
        if answer_format.structured(request):
            problem = self.answer_format_problem(self.config, "json")
            if problem:
                raise ProviderError(f"{self.label}: {problem}")
            kwargs["tools"] = [{"name": answer_format.TOOL_NAME, "description": "Your answer to the question.",
                                "input_schema": answer_format.schema(request)}]
            kwargs["tool_choice"] = {"type": "tool", "name": answer_format.TOOL_NAME}
        thinking = options.get("thinking")
        if thinking is not None:
            if not (isinstance(thinking, dict) and isinstance(thinking.get("type"), str)):
                raise ProviderError(f"{self.label}: options.thinking must be a mapping like {{type: disabled}}, "
                                    f"got {thinking!r}")
            kwargs["thinking"] = dict(thinking)
        extra: dict[str, Any] = {}
        if self.sends_sampling():  # not in the SDK's create(): in the body, for API versions that take them
            extra["temperature"] = s.temperature
            if s.top_p is not None:
                extra["top_p"] = s.top_p
        if options.get("extra_body"):
            extra.update(options["extra_body"])
        if extra:
            kwargs["extra_body"] = extra
        if s.stream:
            kwargs["stream"] = True
        return kwargs

    def sends_sampling(self) -> bool:
        """Whether temperature and top_p are sent: ``options.sampling`` when set, else only for an
        ``options.api_version`` before 2026-10-21 (the default version rejects them)."""
        options = self.config.options
        if options.get("sampling") is not None:
            return bool(options["sampling"])
        version = options.get("api_version")
        return isinstance(version, str) and version < NO_SAMPLING_FROM

    def finish(self, response: Response) -> None:
        if not self.sends_sampling():
            response.details["sampling"] = API_DEFAULT_SAMPLING

    def parse_body(self, body: dict[str, Any]) -> Any:
        from anthropic.types import Message

        return Message.construct(**body)  # as leniently as the SDK reads a live reply (nested types built)

    def read_reply(self, message: Any) -> Response:
        content = getattr(message, "content", None)
        if not isinstance(content, list):
            # what came back is not quoted: an endpoint typed into the app may point at something that is no model
            raise Malformed("no content in the reply (not a message; not shown)")
        texts = [b.text for b in content
                 if getattr(b, "type", None) == "text" and isinstance(getattr(b, "text", None), str)]
        usage = getattr(message, "usage", None)
        stop_reason = getattr(message, "stop_reason", None)
        details = self._details(message, usage)
        thinking = [b.thinking for b in content if getattr(b, "type", None) == "thinking"
                    and isinstance(getattr(b, "thinking", None), str)]
        if thinking:
            details["reasoning"] = "\n".join(thinking)
        if stop_reason == "refusal":
            details["refusal"] = True
        tool = next((b for b in content if _is_answer_tool(b)), None)
        return Response(
            text=_answer_text(getattr(tool, "input", None), "".join(texts), details) if tool else "".join(texts),
            input_tokens=int_or_none(getattr(usage, "input_tokens", None)),
            output_tokens=int_or_none(getattr(usage, "output_tokens", None)),
            finish_reason=stop_reason,
            details=details,
        )

    async def read_stream(self, stream: Any, start: float) -> Response:
        """Accumulate ``text_delta`` events; input tokens from ``message_start``, output tokens and the stop reason
        from ``message_delta`` (whose usage is cumulative)."""
        pieces: list[str] = []
        reasoning: list[str] = []
        tool_json: list[str] | None = None  # the answer tool's input, as the stream sends it (JSON in pieces)
        first_token_s: float | None = None
        message: Any = None
        input_tokens: int | None = None
        output_tokens: int | None = None
        stop_reason: str | None = None
        stopped = False
        try:
            async for event in stream:
                kind = getattr(event, "type", None)
                if kind == "message_start":
                    message = event.message
                    usage = getattr(message, "usage", None)
                    input_tokens = int_or_none(getattr(usage, "input_tokens", None))
                    output_tokens = int_or_none(getattr(usage, "output_tokens", None))
                elif kind == "content_block_start":
                    block = event.content_block
                    if getattr(block, "type", None) == "text" and getattr(block, "text", ""):
                        pieces.append(block.text)
                    elif _is_answer_tool(block):
                        tool_json = []
                elif kind == "content_block_delta":
                    delta = event.delta
                    dtype = getattr(delta, "type", None)
                    if dtype == "text_delta" and delta.text:
                        if first_token_s is None:
                            first_token_s = time.perf_counter() - start
                        pieces.append(delta.text)
                    elif dtype == "thinking_delta" and getattr(delta, "thinking", None):
                        reasoning.append(delta.thinking)
                    elif dtype == "input_json_delta" and tool_json is not None:
                        if first_token_s is None:
                            first_token_s = time.perf_counter() - start
                        tool_json.append(delta.partial_json or "")
                elif kind == "message_delta":
                    stop_reason = getattr(event.delta, "stop_reason", None) or stop_reason
                    usage = getattr(event, "usage", None)
                    n_in = int_or_none(getattr(usage, "input_tokens", None))
                    n_out = int_or_none(getattr(usage, "output_tokens", None))
                    input_tokens = input_tokens if n_in is None else n_in  # cumulative: the latest wins
                    output_tokens = output_tokens if n_out is None else n_out
                elif kind == "message_stop":
                    stopped = True
        finally:
            await stream.close()
        if message is None:
            raise Malformed("the stream ended without a message_start event")
        if not stopped:
            raise Malformed("the stream ended before message_stop")
        details = self._details(message, None)
        if first_token_s is not None:
            details["first_token_s"] = first_token_s
        if reasoning:
            details["reasoning"] = "".join(reasoning)
        if stop_reason == "refusal":
            details["refusal"] = True
        text = "".join(pieces)
        if tool_json is not None:
            text = _answer_text(_json_or_text("".join(tool_json)), text, details)
        return Response(text=text, input_tokens=input_tokens, output_tokens=output_tokens,
                        finish_reason=stop_reason, details=details)

    @staticmethod
    def _details(message: Any, usage: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attr, key in (("model", "response_model"), ("id", "id")):
            value = getattr(message, attr, None)
            if isinstance(value, str) and value:
                out[key] = value
        for attr in ("cache_read_input_tokens", "cache_creation_input_tokens"):
            value = int_or_none(getattr(usage, attr, None))
            if value:
                out[attr] = value
        return out


def _is_answer_tool(block: Any) -> bool:
    return getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == answer_format.TOOL_NAME


def _json_or_text(raw: str) -> Any:
    """A streamed tool input: the object it spells (an empty input is ``{}``), else the raw text."""
    try:
        return json.loads(raw) if raw.strip() else {}
    except ValueError:
        return raw


def _answer_text(tool_input: Any, text: str, details: dict[str, Any]) -> str:
    """The reply of a forced ``answer`` tool call: its input as JSON text (``{"answer": "B"}``, read as it stands);
    any text beside the call is kept in ``details["text"]``. An input that is not an object (a call cut off by
    ``max_tokens``) is returned as it came, for the reader's rules."""
    if text:
        details["text"] = text
    return json.dumps(tool_input) if isinstance(tool_input, dict) else str(tool_input or text)
