"""OpenAI chat completions, and every server that speaks the same wire format (vLLM, Ollama, LM Studio, proxies,
and the hosted services in :mod:`probe_ui.providers.hosted`).

The official ``openai`` SDK does the HTTP work: its retry machinery (exponential backoff, ``Retry-After``,
idempotency keys) and its environment variables (``OPENAI_BASE_URL``) behave exactly as users of the SDK expect.
What every SDK provider shares (keys, client, errors, masking, the reply cap) is in :mod:`probe_ui.providers.sdk`;
this module holds the wire format only: the provider-neutral :class:`~probe_ui.messages.Request` as
chat-completions messages, and a completion (or its stream) back as a :class:`~probe_ui.messages.Response`.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, ClassVar

from probe_ui.messages import ImagePart, Message, Request, Response, TextPart
from probe_ui.providers import answer_format
from probe_ui.providers.base import ModelConfig, ProviderError, register_provider
from probe_ui.providers.logprobs import TOP_LOGPROBS, option_probs, top_logprobs
from probe_ui.providers.sdk import PLACEHOLDER_KEY, Malformed, SDKProvider, configured_base_url, int_or_none

DEFAULT_KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"

__all__ = ["OpenAIProvider", "PLACEHOLDER_KEY", "VLLMProvider", "configured_base_url", "to_wire_messages"]


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
                url: dict[str, Any] = {"url": "data:image/png;base64," + p.image.base64}
                if image_detail:
                    url["detail"] = image_detail
                parts.append({"type": "image_url", "image_url": url})
            else:  # pragma: no cover - the protocol has two part types
                raise ValueError(f"unknown message part {type(p).__name__}")
        out.append({"role": "user", "content": parts})
    return out


#: what the SDK's create() keeps as its own arguments rather than as body fields: the model (a required argument),
#: its call options, and whether to stream (it decides what it hands back)
SDK_OWN = ("model", "timeout", "stream")


class JSONReply:
    """A chat completion's JSON read by attribute, as the SDK's objects are (``getattr(reply, "choices", None)``,
    ``choices[0].message.content``): objects within it are read the same way, lists as lists, other values as
    they are. A field the reply lacks is missing (AttributeError), so ``getattr`` with a default gives that."""

    __slots__ = ("_fields",)

    def __init__(self, fields: dict[str, Any]) -> None:
        self._fields = fields

    def __getattr__(self, name: str) -> Any:
        try:
            return _by_attribute(self._fields[name])
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:  # what the JSON object would print (a token that is an object is stored as such)
        return repr(self._fields)


def _by_attribute(value: Any) -> Any:
    if isinstance(value, dict):
        return JSONReply(value)
    if isinstance(value, list):
        return [_by_attribute(v) for v in value]
    return value


@register_provider
class OpenAIProvider(SDKProvider):
    """A model behind the OpenAI chat-completions API or any server compatible with it."""

    name = "openai"
    sdk = "openai"
    sdk_error = "OpenAIError"
    key_env: ClassVar[str | None] = DEFAULT_KEY_ENV
    own_hosts: ClassVar[tuple[str, ...]] = ("api.openai.com",)
    sdk_base_url_env: ClassVar[str | None] = BASE_URL_ENV
    openai_style = True
    default_concurrency = 8
    #: OpenAI scales images to fit 2048x2048 anyway; sending no more keeps requests small and the pixels known
    max_image_side = 2048
    #: json: ``response_format`` with a strict JSON schema (vLLM, Ollama and the hosted services take it too)
    answer_formats = ("free", "json")
    #: local servers (vLLM, Ollama) need no key and have a default address
    local_server: ClassVar[bool] = False
    #: the environment variable naming a local server's address (the OpenAI provider leaves OPENAI_BASE_URL to the SDK)
    base_url_env: ClassVar[str | None] = None
    #: OpenAI's Batch API (``/v1/files`` and ``/v1/batches``), which OpenAI-compatible servers may offer too
    batch_api: ClassVar[str | None] = "openai"

    @classmethod
    def base_url_for(cls, config: ModelConfig) -> str | None:
        """The catalogue's base URL; then ``base_url_env`` and ``default_base_url``; None lets the SDK read
        ``OPENAI_BASE_URL``."""
        url = configured_base_url(config)
        if url:
            return url
        return (os.environ.get(cls.base_url_env) if cls.base_url_env else None) or cls.default_base_url

    def make_client(self, key: str, max_retries: int, timeout_s: float, http_client: Any) -> Any:
        from openai import AsyncOpenAI

        return AsyncOpenAI(base_url=self.base_url_for(self.config),  # None → the SDK honours OPENAI_BASE_URL
                           api_key=key, max_retries=max_retries, timeout=timeout_s, http_client=http_client)

    async def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        # The SDK walks every parameter through its type-directed transform before sending: about 5 ms for a
        # request with an image, a third of probe-ui's own CPU per answer, and still a twentieth of a batch's CPU
        # once the messages were spared it. Our body is plain JSON already, so all of it but the model travels in
        # extra_body, which the SDK merges into the body as given (the catalogue's extra_body still wins, as
        # before); the SDK keeps its own options (timeout) and learns whether to stream. The bytes sent are the
        # same but for the order of the body's keys.
        own = {k: kwargs[k] for k in SDK_OWN if k in kwargs and k != "model"}
        body = {k: v for k, v in kwargs.items() if k not in SDK_OWN and k != "extra_body"}
        extra = {**body, **(kwargs.get("extra_body") or {})}
        return await client.chat.completions.with_raw_response.create(model=kwargs["model"], messages=[],
                                                                      extra_body=extra, **own)

    # ---- request ---------------------------------------------------------------------------------------------
    def build_kwargs(self, request: Request) -> dict[str, Any]:
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
        if answer_format.structured(request):
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": answer_format.TOOL_NAME, "strict": True, "schema": answer_format.schema(request)}}
        if options.get("logprobs") and request.labels and not s.stream:
            # the server's probability of each label where the answer starts (details["option_probs"]): the model's
            # own confidence in its answer, beside the one it states (issue 44)
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = int(options.get("top_logprobs", TOP_LOGPROBS))
        if options.get("extra_body"):
            kwargs["extra_body"] = dict(options["extra_body"])
        if s.stream:
            kwargs["stream"] = True
            if options.get("stream_include_usage", True):
                kwargs["stream_options"] = {"include_usage": True}
        return kwargs

    async def generate(self, request: Request) -> Response:
        return self._option_probs(await super().generate(request), request)

    def reply_from_body(self, reply: Any, request: Request) -> Response:
        return self._option_probs(super().reply_from_body(reply, request), request)

    def reply_of(self, raw: Any) -> Any:
        """The reply's JSON read by attribute (:class:`JSONReply`), not built into the SDK's types: building them
        was a twentieth of a batch's CPU, for the handful of fields :meth:`read_reply` reads. A body that is not
        a JSON object is given as None (read as "no choices in the reply", as the SDK's parse of it was)."""
        try:
            body = json.loads(raw.http_response.content)
        except ValueError:
            return None
        return self.parse_body(body) if isinstance(body, dict) else None

    def parse_body(self, body: dict[str, Any]) -> Any:
        return JSONReply(body)  # a live reply and a batch API's read the same way

    @staticmethod
    def _option_probs(response: Response, request: Request) -> Response:
        """The server's probability of each label where the answer starts, from the reply's top log-probabilities."""
        top = response.details.pop("top_logprobs", None)
        found = option_probs(top, request.labels) if top and request.labels else None
        if found is not None:
            response.details["option_probs"], response.details["label_mass"] = found
        return response

    # ---- reply -----------------------------------------------------------------------------------------------
    def read_reply(self, completion: Any) -> Response:
        choices = getattr(completion, "choices", None)
        if not isinstance(choices, list) or not choices:
            # what came back is not quoted: an endpoint typed into the app may point at something that is no model
            raise Malformed("no choices in the reply (not a chat completion; not shown)")
        message = getattr(choices[0], "message", None)
        if message is None:
            raise Malformed("first choice has no message")
        content = getattr(message, "content", None)
        refusal = getattr(message, "refusal", None)
        if content is not None and not isinstance(content, str):
            kind = "dict" if isinstance(content, JSONReply) else type(content).__name__  # named as JSON's type
            raise Malformed(f"message content is {kind}, not text")
        usage = getattr(completion, "usage", None)
        details = self._details(completion)
        if refusal and not content:
            details["refusal"] = refusal
        top = top_logprobs(getattr(choices[0], "logprobs", None))
        if top:
            details["top_logprobs"] = top
        reasoning = getattr(message, "reasoning_content", None)  # vLLM / DeepSeek-style reasoning models
        if isinstance(reasoning, str) and reasoning:
            details["reasoning"] = reasoning
        return Response(
            text=content if content is not None else (refusal or ""),
            input_tokens=int_or_none(getattr(usage, "prompt_tokens", None)),
            output_tokens=int_or_none(getattr(usage, "completion_tokens", None)),
            finish_reason=getattr(choices[0], "finish_reason", None),
            details=details,
        )

    async def read_stream(self, stream: Any, start: float) -> Response:
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
            raise Malformed("the stream ended without any chunk")
        details = self._details(last)
        if first_token_s is not None:
            details["first_token_s"] = first_token_s
        return Response(
            text="".join(pieces),
            input_tokens=int_or_none(getattr(usage, "prompt_tokens", None)),
            output_tokens=int_or_none(getattr(usage, "completion_tokens", None)),
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


@register_provider
class VLLMProvider(OpenAIProvider):
    """A model on a vLLM server (``vllm serve <model>``): OpenAI-compatible, local by default, no key needed
    (``VLLM_API_KEY`` is sent when set, as for a server started with ``--api-key``)."""

    name = "vllm"
    local_server = True
    batch_api = None  # vLLM's server has no /v1/batches (its batches are `vllm run-batch`, offline)
    key_required = False
    key_env = "VLLM_API_KEY"
    own_hosts = ()
    sdk_base_url_env = None
    default_base_url = "http://127.0.0.1:8000/v1"
    base_url_env = "VLLM_BASE_URL"
    connect_hint = "is the vLLM server running? (vllm serve <model>; or set VLLM_BASE_URL)"
