"""OpenAI chat completions, and every server that speaks the same wire format (vLLM, Ollama, LM Studio, proxies).

The official ``openai`` SDK does the HTTP work: its retry machinery (exponential backoff, ``Retry-After``,
idempotency keys) and its environment variables (``OPENAI_BASE_URL``) behave exactly as users of the SDK expect.
This module only translates the provider-neutral :class:`~probe_ui.providers.base.Request` to the wire format,
and every SDK failure to a one-line :class:`~probe_ui.providers.base.ProviderError` that names the model and what
went wrong, and never contains the API key.
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import inspect
import json
import os
import time
from typing import Any, ClassVar

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

DEFAULT_KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
#: sent as the key to servers configured by base URL alone (vLLM, Ollama, LM Studio accept anything)
PLACEHOLDER_KEY = "not-needed"
NOT_INSTALLED = "the openai package is not installed (pip install openai)"
#: the client-wide timeout; every request overrides it with ``settings.timeout_s``
DEFAULT_CLIENT_TIMEOUT_S = 120.0

def resolve_api_key(config: ModelConfig) -> tuple[str | None, str | None]:
    """``(key, None)`` when the model can be called, ``(None, reason)`` when it cannot.

    A configured endpoint (base URL in the catalogue or ``OPENAI_BASE_URL``) gets a placeholder key, because local
    servers need none, unless the catalogue entry names its own ``api_key_env``: then that key is required.
    """
    env = config.api_key_env or DEFAULT_KEY_ENV
    key = config.api_key(default_env=DEFAULT_KEY_ENV)
    if key:
        return key, None
    if not config.api_key_env and (configured_base_url(config) or os.environ.get(BASE_URL_ENV)):
        return PLACEHOLDER_KEY, None
    return None, f"{env} is not set"


def resolve_local_key(config: ModelConfig, key_env: str | None) -> tuple[str | None, str | None]:
    """A key for a local server (vLLM, Ollama), which needs none: the catalogue entry's ``api_key_env`` (required
    when named), else ``key_env`` when that variable is set, else a placeholder. ``OPENAI_API_KEY`` is never sent
    to such a server."""
    if config.secret:
        return config.secret, None
    if config.api_key_env:
        key = os.environ.get(config.api_key_env) or None
        return (key, None) if key else (None, f"{config.api_key_env} is not set")
    key = os.environ.get(key_env) if key_env else None
    return key or PLACEHOLDER_KEY, None


def to_wire_messages(messages: tuple[Message, ...], image_detail: str | None = None) -> list[dict[str, Any]]:
    """Provider-neutral messages → chat-completions messages (images as base64 PNG data URLs).

    System and assistant messages carry text only (the API rejects images there), sent as a plain string, which
    every OpenAI-compatible server accepts; user messages are a list of parts, in order.
    """
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role != "user":
            if any(isinstance(p, ImagePart) for p in m.content):
                raise ValueError(f"images are only allowed in user messages, not in a {m.role} message")
            out.append({"role": m.role, "content": m.text()})
            continue
        parts: list[dict[str, Any]] = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append({"type": "text", "text": p.text})
            elif isinstance(p, ImagePart):
                url: dict[str, Any] = {"url": "data:image/png;base64," + base64.b64encode(p.image.png).decode("ascii")}
                if image_detail:
                    url["detail"] = image_detail
                parts.append({"type": "image_url", "image_url": url})
            else:  # pragma: no cover - the protocol has two part types
                raise ValueError(f"unknown message part {type(p).__name__}")
        out.append({"role": "user", "content": parts})
    return out


class OpenAIProvider(Provider):
    """A model behind the OpenAI chat-completions API or any server compatible with it."""

    name = "openai"
    default_concurrency = 8
    sdk = "openai"
    #: OpenAI scales images to fit 2048x2048 anyway; sending no more keeps requests small and the pixels known
    max_image_side = 2048
    #: local servers (vLLM, Ollama) need no key and have a default address; API providers need both configured
    local_server: ClassVar[bool] = False
    #: a local server's address when neither the catalogue nor ``base_url_env`` gives one
    default_base_url: ClassVar[str | None] = None
    #: the environment variable naming a local server's address (the OpenAI provider leaves OPENAI_BASE_URL to the SDK)
    base_url_env: ClassVar[str | None] = None
    #: the variable holding a local server's optional key
    key_env: ClassVar[str | None] = None
    #: added to a "cannot connect" error, e.g. how to start the server
    connect_hint: ClassVar[str] = ""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__(config)
        self._client: Any = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._key: str | None = None

    @property
    def label(self) -> str:
        """How errors name the model: the ``provider/model`` spec."""
        return f"{self.config.provider}/{self.config.model}"

    @classmethod
    def unavailable_reason(cls, config: ModelConfig | None = None) -> str | None:
        # find_spec, not import: the SDK takes 0.5-0.8 s to import, which a batch pays only when it asks something
        if importlib.util.find_spec(cls.sdk) is None:
            return NOT_INSTALLED
        if config is None:
            return None
        return cls.resolve_key(config)[1]

    @classmethod
    def base_url_for(cls, config: ModelConfig) -> str | None:
        """The catalogue's base URL; for a local server then ``base_url_env`` and ``default_base_url``; None lets
        the SDK read ``OPENAI_BASE_URL``."""
        url = configured_base_url(config)
        if url or not cls.local_server:
            return url
        return (os.environ.get(cls.base_url_env) if cls.base_url_env else None) or cls.default_base_url

    @classmethod
    def resolve_key(cls, config: ModelConfig) -> tuple[str | None, str | None]:
        """``(key, None)`` or ``(None, why not)``."""
        return resolve_local_key(config, cls.key_env) if cls.local_server else resolve_api_key(config)

    # ---- client ----------------------------------------------------------------------------------------------
    def _get_client(self) -> Any:
        """The SDK client, created on first use (and again if called from a different event loop, since its
        connection pool belongs to the loop that created it)."""
        loop = asyncio.get_running_loop()
        if self._client is not None and self._client_loop is loop:
            return self._client
        try:
            from openai import AsyncOpenAI
        except ImportError:
            raise ProviderError(f"{self.label}: {NOT_INSTALLED}") from None
        key, problem = self.resolve_key(self.config)
        if problem:
            raise ProviderError(f"{self.label}: {problem}")
        options = self.config.options
        max_retries = options.get("max_retries", 2)
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
            raise ProviderError(f"{self.label}: options.max_retries must be a non-negative integer, got {max_retries!r}")
        self._key = key
        self._client = AsyncOpenAI(
            base_url=self.base_url_for(self.config),  # None → the SDK honours OPENAI_BASE_URL
            api_key=key,
            max_retries=max_retries,
            timeout=float(options.get("timeout_s", DEFAULT_CLIENT_TIMEOUT_S)),
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
        tokens_param = options.get("max_tokens_param", "max_tokens")
        if tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise ProviderError(f"{self.label}: options.max_tokens_param must be 'max_tokens' or "
                                f"'max_completion_tokens', got {tokens_param!r}")
        try:
            messages = to_wire_messages(request.messages, options.get("image_detail"))
        except ValueError as exc:
            raise ProviderError(f"{self.label}: {exc}") from None
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": s.temperature,
            tokens_param: s.max_tokens,
            "n": 1,
            "timeout": s.timeout_s,
        }
        if s.top_p is not None:
            kwargs["top_p"] = s.top_p
        if s.seed is not None:
            kwargs["seed"] = s.seed
        if options.get("extra_body"):
            kwargs["extra_body"] = dict(options["extra_body"])
        if s.stream:
            kwargs["stream"] = True
            if options.get("stream_include_usage", True):
                kwargs["stream_options"] = {"include_usage": True}
        return kwargs

    async def generate(self, request: Request) -> Response:
        """Send one chat completion (streamed when ``settings.stream``); raise :class:`ProviderError` on failure."""
        client = self._get_client()
        kwargs = self._build_kwargs(request)
        start = time.perf_counter()
        error: ProviderError | None = None
        try:
            # the raw-response wrapper also tells how many retries the SDK needed
            raw = await client.chat.completions.with_raw_response.create(**kwargs)
            parsed = raw.parse()  # sync in the SDK's legacy wrapper; awaitable in some versions
            if inspect.isawaitable(parsed):
                parsed = await parsed
            if request.settings.stream:
                response = await self._read_stream(parsed, start)
            else:
                response = self._read_completion(parsed)
            response.latency_s = time.perf_counter() - start
            response.details["retries"] = raw.retries_taken
            response.cost = self.config.cost(response.input_tokens, response.output_tokens)
            return response
        except ProviderError:
            raise
        except Exception as exc:  # every SDK / transport / parsing failure becomes one clear ProviderError
            error = self._map_error(exc, request.settings.timeout_s)
        # raised outside the except block so the SDK exception (whose text may quote the key) is not chained
        raise error

    def _read_completion(self, completion: Any) -> Response:
        choices = getattr(completion, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise _Malformed(f"no choices in {_one_line(repr(completion), 120)}")
        message = getattr(choices[0], "message", None)
        if message is None:
            raise _Malformed("first choice has no message")
        content = getattr(message, "content", None)
        refusal = getattr(message, "refusal", None)
        if content is not None and not isinstance(content, str):
            raise _Malformed(f"message content is {type(content).__name__}, not text")
        usage = getattr(completion, "usage", None)
        details = self._details(completion)
        if refusal and not content:
            details["refusal"] = refusal
        reasoning = getattr(message, "reasoning_content", None)  # vLLM / DeepSeek-style reasoning models
        if isinstance(reasoning, str) and reasoning:
            details["reasoning"] = reasoning
        return Response(
            text=content if content is not None else (refusal or ""),
            input_tokens=_int_or_none(getattr(usage, "prompt_tokens", None)),
            output_tokens=_int_or_none(getattr(usage, "completion_tokens", None)),
            finish_reason=getattr(choices[0], "finish_reason", None),
            details=details,
        )

    async def _read_stream(self, stream: Any, start: float) -> Response:
        """Accumulate content deltas of choice 0; usage comes from the final chunk (``include_usage``)."""
        pieces: list[str] = []
        finish_reason: str | None = None
        usage: Any = None
        first_token_s: float | None = None
        last: Any = None
        try:
            async for chunk in stream:
                last = chunk
                if getattr(chunk, "usage", None) is not None:
                    usage = chunk.usage
                for choice in getattr(chunk, "choices", None) or []:
                    if getattr(choice, "index", 0) != 0:
                        continue
                    content = getattr(getattr(choice, "delta", None), "content", None)
                    if content:
                        if first_token_s is None:
                            first_token_s = time.perf_counter() - start
                        pieces.append(content)
                    if getattr(choice, "finish_reason", None):
                        finish_reason = choice.finish_reason
        finally:
            await stream.close()
        if last is None:
            raise _Malformed("the stream ended without any chunk")
        details = self._details(last)
        if first_token_s is not None:
            details["first_token_s"] = first_token_s
        return Response(
            text="".join(pieces),
            input_tokens=_int_or_none(getattr(usage, "prompt_tokens", None)),
            output_tokens=_int_or_none(getattr(usage, "completion_tokens", None)),
            finish_reason=finish_reason,
            details=details,
        )

    @staticmethod
    def _details(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attr in ("model", "id", "system_fingerprint"):
            value = getattr(obj, attr, None)
            if isinstance(value, str) and value:
                out["response_model" if attr == "model" else attr] = value
        return out

    # ---- errors ----------------------------------------------------------------------------------------------
    def _endpoint(self) -> str:
        url = str(getattr(self._client, "base_url", "") or self.base_url_for(self.config) or "")
        return _safe_url(url) if url else "the API"

    def _scrub(self, text: str) -> str:
        key = self._key
        if key and key != PLACEHOLDER_KEY:
            text = text.replace(key, "***")
        return text

    def _map_error(self, exc: Exception, timeout_s: float) -> ProviderError:
        """One line naming the model and the failure; ``retriable`` for 408/409/429/5xx, timeouts, connections."""
        import openai

        retries = _retries_suffix(exc)
        retriable = False
        status: int | None = None
        retry_after: str | None = None
        if isinstance(exc, _Malformed):
            message = f"malformed response: {exc}"
        elif isinstance(exc, openai.APITimeoutError):
            message, retriable = f"timed out after {timeout_s:g} s{retries}", True
        elif isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            why = f"{type(cause).__name__}: {cause}" if cause is not None else str(exc)
            if cause is not None and type(cause).__name__ == "ConnectError":
                message = f"cannot connect to {self._endpoint()}{retries} ({why})"
                if self.connect_hint:
                    message += f"; {self.connect_hint}"
            else:
                message = f"connection to {self._endpoint()} failed{retries} ({why})"
            retriable = True
        elif isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            retry_after = exc.response.headers.get("retry-after")
            message, retriable = status_message(status, retries, _error_detail(exc))
        elif isinstance(exc, openai.APIResponseValidationError):
            message = f"malformed response: {exc.message}"
        elif isinstance(exc, openai.APIError):  # e.g. an error event in the middle of a stream
            message, retriable = f"API error: {exc.message}", True
        elif isinstance(exc, json.JSONDecodeError) or type(exc).__name__ == "ValidationError":  # pydantic
            message = f"malformed response: {type(exc).__name__}: {exc}"
        elif isinstance(exc, openai.OpenAIError):
            message = str(exc)
        else:
            message = f"unexpected {type(exc).__name__}: {exc}"
        error = ProviderError(self._scrub(_one_line(f"{self.label}: {message}", 400)), retriable=retriable)
        # extras the runner may use (not part of the base protocol)
        error.status = status  # type: ignore[attr-defined]
        error.retry_after = retry_after  # type: ignore[attr-defined]
        return error


class VLLMProvider(OpenAIProvider):
    """A model on a vLLM server (``vllm serve <model>``): OpenAI-compatible, local by default, no key needed
    (``VLLM_API_KEY`` is sent when set, as for a server started with ``--api-key``)."""

    name = "vllm"
    local_server = True
    default_base_url = "http://127.0.0.1:8000/v1"
    base_url_env = "VLLM_BASE_URL"
    key_env = "VLLM_API_KEY"
    connect_hint = "is the vLLM server running? (vllm serve <model>; or set VLLM_BASE_URL)"


class _Malformed(Exception):
    """The server answered 200 with something that is not a usable chat completion."""


def _error_detail(exc: Any) -> str:
    """The server's own error message (OpenAI-style ``{"error": {"message": ...}}``), else the raw body."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        msg = body.get("message") or body.get("detail") or body.get("error")
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
