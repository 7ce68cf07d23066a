"""Anthropic Claude through the official ``anthropic`` SDK (Messages API).

The SDK does the HTTP work: retries with backoff that honour ``Retry-After`` (429, 5xx, 529 overloaded, timeouts,
dropped connections) and its environment variables (``ANTHROPIC_BASE_URL``, ``ANTHROPIC_CUSTOM_HEADERS``). This
module translates the provider-neutral :class:`~probe_ui.providers.base.Request` to the Messages wire format
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
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import inspect
import json
import os
import re
import time
from typing import Any

from probe_ui.providers.base import (
    ImagePart,
    Message,
    ModelConfig,
    Provider,
    ProviderError,
    Request,
    Response,
    TextPart,
)
from probe_ui.providers.sdk_errors import configured_base_url
from probe_ui.providers.sdk_errors import int_or_none as _int_or_none
from probe_ui.providers.sdk_errors import one_line as _one_line
from probe_ui.providers.sdk_errors import retries_suffix as _retries_suffix
from probe_ui.providers.sdk_errors import safe_url as _safe_url
from probe_ui.providers.sdk_errors import status_message

DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"
#: sent as the key to a proxy or compatible server configured by base URL alone
PLACEHOLDER_KEY = "not-needed"
NOT_INSTALLED = "the anthropic package is not installed (pip install anthropic)"
DEFAULT_CLIENT_TIMEOUT_S = 120.0

#: the first API version whose Messages API rejects temperature / top_p / top_k
NO_SAMPLING_FROM = "2026-10-21"
#: ``details["sampling"]`` when temperature and top_p were not sent
API_DEFAULT_SAMPLING = "api-default"
#: error types of an ``event: error`` inside a stream (answered with HTTP 200) that are worth retrying
_RETRIABLE_ERROR_TYPES = {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}


def resolve_api_key(config: ModelConfig) -> tuple[str | None, str | None]:
    """``(key, None)`` when the model can be called, ``(None, reason)`` when it cannot.

    A configured endpoint (base URL in the catalogue or ``ANTHROPIC_BASE_URL``) gets a placeholder key (a local
    proxy may need none) unless the catalogue entry names its own ``api_key_env``: then that key is required.
    """
    key = config.api_key(default_env=DEFAULT_KEY_ENV)
    if key:
        return key, None
    if not config.api_key_env and (configured_base_url(config) or os.environ.get(BASE_URL_ENV)):
        return PLACEHOLDER_KEY, None
    return None, f"{config.api_key_env or DEFAULT_KEY_ENV} is not set"


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
                    "data": base64.b64encode(p.image.png).decode("ascii")}})
            else:  # pragma: no cover - the protocol has two part types
                raise ValueError(f"unknown message part {type(p).__name__}")
        if not blocks:
            raise ValueError(f"a {m.role} message has no content")
        out.append({"role": m.role, "content": blocks})
    if not out:
        raise ValueError("the request has no user message")
    joined = "\n\n".join(t for t in system if t)
    return (joined or None), out


class AnthropicProvider(Provider):
    """A Claude model behind the Anthropic Messages API (or a server or proxy speaking it)."""

    name = "anthropic"
    default_concurrency = 4
    sdk = "anthropic"
    #: Anthropic downsizes images whose long side exceeds 1568 px; do it here so the pixels sent are recorded
    max_image_side = 1568

    def __init__(self, config: ModelConfig) -> None:
        super().__init__(config)
        self._client: Any = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._key: str | None = None

    @property
    def label(self) -> str:
        return f"{self.config.provider}/{self.config.model}"

    @classmethod
    def unavailable_reason(cls, config: ModelConfig | None = None) -> str | None:
        # find_spec, not import: importing the SDK takes over a second, and `probe-ui models` asks every provider
        if importlib.util.find_spec("anthropic") is None:
            return NOT_INSTALLED
        if config is None:
            return None
        return resolve_api_key(config)[1]

    # ---- client ----------------------------------------------------------------------------------------------
    def _get_client(self) -> Any:
        """The SDK client, created on first use and again for a new event loop (its pool belongs to one loop)."""
        loop = asyncio.get_running_loop()
        if self._client is not None and self._client_loop is loop:
            return self._client
        try:
            from anthropic import AsyncAnthropic
        except ImportError:
            raise ProviderError(f"{self.label}: {NOT_INSTALLED}") from None
        key, problem = resolve_api_key(self.config)
        if problem:
            raise ProviderError(f"{self.label}: {problem}")
        options = self.config.options
        max_retries = options.get("max_retries", 2)
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
            raise ProviderError(f"{self.label}: options.max_retries must be a non-negative integer, "
                                f"got {max_retries!r}")
        version = options.get("api_version")
        if version is not None and not (isinstance(version, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", version)):
            raise ProviderError(f"{self.label}: options.api_version must be a date like '2023-06-01', got {version!r}")
        self._key = key
        # an explicit api_key keeps the SDK from looking for other credentials (auth tokens, profiles on disk)
        self._client = AsyncAnthropic(
            api_key=key,
            base_url=configured_base_url(self.config),  # None → the SDK honours ANTHROPIC_BASE_URL
            max_retries=max_retries,
            timeout=float(options.get("timeout_s", DEFAULT_CLIENT_TIMEOUT_S)),
            default_headers={"anthropic-version": version} if version else None,
        )
        self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        loop, self._client_loop = self._client_loop, None
        if client is not None and loop is asyncio.get_running_loop():
            await client.close()

    # ---- request ---------------------------------------------------------------------------------------------
    def _build_kwargs(self, request: Request) -> dict[str, Any]:
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

    async def generate(self, request: Request) -> Response:
        """Send one message request (streamed when ``settings.stream``); raise :class:`ProviderError` on failure."""
        client = self._get_client()
        kwargs = self._build_kwargs(request)
        start = time.perf_counter()
        error: ProviderError | None = None
        try:
            raw = await client.messages.with_raw_response.create(**kwargs)
            parsed = raw.parse()
            if inspect.isawaitable(parsed):
                parsed = await parsed
            if request.settings.stream:
                response = await self._read_stream(parsed, start)
            else:
                response = self._read_message(parsed)
            response.latency_s = time.perf_counter() - start
            response.details["retries"] = raw.retries_taken
            if not self.sends_sampling():
                response.details["sampling"] = API_DEFAULT_SAMPLING
            response.cost = self.config.cost(response.input_tokens, response.output_tokens)
            return response
        except ProviderError:
            raise
        except Exception as exc:  # every SDK / transport / parsing failure becomes one clear ProviderError
            error = self._map_error(exc, request.settings.timeout_s)
        # raised outside the except block so the SDK exception (whose text may quote the key) is not chained
        raise error

    def _read_message(self, message: Any) -> Response:
        content = getattr(message, "content", None)
        if not isinstance(content, list):
            raise _Malformed(f"no content in {_one_line(repr(message), 120)}")
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
        return Response(
            text="".join(texts),
            input_tokens=_int_or_none(getattr(usage, "input_tokens", None)),
            output_tokens=_int_or_none(getattr(usage, "output_tokens", None)),
            finish_reason=stop_reason,
            details=details,
        )

    async def _read_stream(self, stream: Any, start: float) -> Response:
        """Accumulate ``text_delta`` events; input tokens from ``message_start``, output tokens and the stop reason
        from ``message_delta`` (whose usage is cumulative)."""
        pieces: list[str] = []
        reasoning: list[str] = []
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
                    input_tokens = _int_or_none(getattr(usage, "input_tokens", None))
                    output_tokens = _int_or_none(getattr(usage, "output_tokens", None))
                elif kind == "content_block_start":
                    block = event.content_block
                    if getattr(block, "type", None) == "text" and getattr(block, "text", ""):
                        pieces.append(block.text)
                elif kind == "content_block_delta":
                    delta = event.delta
                    dtype = getattr(delta, "type", None)
                    if dtype == "text_delta" and delta.text:
                        if first_token_s is None:
                            first_token_s = time.perf_counter() - start
                        pieces.append(delta.text)
                    elif dtype == "thinking_delta" and getattr(delta, "thinking", None):
                        reasoning.append(delta.thinking)
                elif kind == "message_delta":
                    stop_reason = getattr(event.delta, "stop_reason", None) or stop_reason
                    usage = getattr(event, "usage", None)
                    n_in = _int_or_none(getattr(usage, "input_tokens", None))
                    n_out = _int_or_none(getattr(usage, "output_tokens", None))
                    input_tokens = input_tokens if n_in is None else n_in  # cumulative: the latest wins
                    output_tokens = output_tokens if n_out is None else n_out
                elif kind == "message_stop":
                    stopped = True
        finally:
            await stream.close()
        if message is None:
            raise _Malformed("the stream ended without a message_start event")
        if not stopped:
            raise _Malformed("the stream ended before message_stop")
        details = self._details(message, None)
        if first_token_s is not None:
            details["first_token_s"] = first_token_s
        if reasoning:
            details["reasoning"] = "".join(reasoning)
        if stop_reason == "refusal":
            details["refusal"] = True
        return Response(text="".join(pieces), input_tokens=input_tokens, output_tokens=output_tokens,
                        finish_reason=stop_reason, details=details)

    @staticmethod
    def _details(message: Any, usage: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attr, key in (("model", "response_model"), ("id", "id")):
            value = getattr(message, attr, None)
            if isinstance(value, str) and value:
                out[key] = value
        for attr in ("cache_read_input_tokens", "cache_creation_input_tokens"):
            value = _int_or_none(getattr(usage, attr, None))
            if value:
                out[attr] = value
        return out

    # ---- errors ----------------------------------------------------------------------------------------------
    def _endpoint(self) -> str:
        url = str(getattr(self._client, "base_url", "") or configured_base_url(self.config) or "")
        return _safe_url(url) if url else "the API"

    def _scrub(self, text: str) -> str:
        key = self._key
        if key and key != PLACEHOLDER_KEY:
            text = text.replace(key, "***")
        return text

    def _map_error(self, exc: Exception, timeout_s: float) -> ProviderError:
        """One line naming the model and the failure; ``retriable`` for 408/409/429/5xx/529, timeouts,
        connections and retriable in-stream errors."""
        import anthropic

        retries = _retries_suffix(exc)
        retriable = False
        status: int | None = None
        retry_after: str | None = None
        if isinstance(exc, _Malformed):
            message = f"malformed response: {exc}"
        elif isinstance(exc, anthropic.APITimeoutError):
            message, retriable = f"timed out after {timeout_s:g} s{retries}", True
        elif isinstance(exc, anthropic.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            why = _cause_text(exc)
            if cause is not None and type(cause).__name__ == "ConnectError":
                message = f"cannot connect to {self._endpoint()}{retries} ({why})"
            else:
                message = f"connection to {self._endpoint()} failed{retries} ({why})"
            retriable = True
        elif isinstance(exc, anthropic.APIStatusError) and exc.status_code < 400:
            # an `event: error` in the middle of a stream that had started with HTTP 200
            kind, detail = _error_type(exc.body), _error_detail(exc)
            message = f"error in the stream: {kind or 'error'}" + (f": {detail}" if detail else "")
            retriable = kind in _RETRIABLE_ERROR_TYPES
        elif isinstance(exc, anthropic.APIStatusError):
            status = exc.status_code
            retry_after = exc.response.headers.get("retry-after")
            message, retriable = status_message(status, retries, _error_detail(exc))
        elif isinstance(exc, anthropic.APIResponseValidationError):
            message = f"malformed response: {exc.message}"
        elif isinstance(exc, anthropic.APIError):
            message, retriable = f"API error: {exc.message}", True
        elif isinstance(exc, json.JSONDecodeError) or type(exc).__name__ == "ValidationError":  # pydantic
            message = f"malformed response: {type(exc).__name__}: {exc}"
        elif isinstance(exc, anthropic.AnthropicError):
            message = str(exc)
        else:
            message = f"unexpected {type(exc).__name__}: {exc}"
        error = ProviderError(self._scrub(_one_line(f"{self.label}: {message}", 400)), retriable=retriable)
        error.status = status  # type: ignore[attr-defined]
        error.retry_after = retry_after  # type: ignore[attr-defined]
        return error


class _Malformed(Exception):
    """The server answered 200 with something that is not a usable message."""


def _cause_text(exc: BaseException) -> str:
    """``Type: message`` of the transport failure behind an SDK connection error: the first exception down the
    chain that says something (httpx's ``ReadError('')`` hides a ``ConnectionResetError`` further down)."""
    chain: list[BaseException] = []
    current: BaseException | None = exc.__cause__ or exc.__context__
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    for cause in chain:
        if str(cause).strip():
            return f"{type(cause).__name__}: {cause}"
    return type(chain[0]).__name__ if chain else str(exc)


def _error_type(body: Any) -> str | None:
    error = body.get("error") if isinstance(body, dict) else None
    kind = error.get("type") if isinstance(error, dict) else None
    return kind if isinstance(kind, str) else None


def _error_detail(exc: Any) -> str:
    """The server's own message (``{"type": "error", "error": {"type": ..., "message": ...}}``), else the raw body."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str) and error["message"]:
            return _one_line(error["message"])
        msg = body.get("message") or body.get("detail") or error
        if msg:
            return _one_line(msg if isinstance(msg, str) else json.dumps(msg))
        return _one_line(json.dumps(body))
    if isinstance(body, str) and body.strip():
        return _one_line(body)
    try:
        text = exc.response.text
    except Exception:  # noqa: BLE001 - a streamed error body may be unreadable; the status says enough
        text = ""
    return _one_line(text) if text.strip() else ""
