"""What every provider built on an official SDK (``openai``, ``anthropic``) shares; a subclass holds only its wire
format.

The base class owns: which key is sent where (:meth:`SDKProvider.resolve_key`), the SDK client (one per event loop:
its connection pool belongs to the loop that made it), the call itself (raw response for the SDK's retry count,
streamed or not), cost, a cap on the reply's size, the one-line error for every failure (status wording and
whether a retry may help), and masking the key out of everything that comes back (errors, replies, details).

A subclass sets the class attributes below and implements :meth:`~SDKProvider.make_client`,
:meth:`~SDKProvider.build_kwargs`, :meth:`~SDKProvider.create`, :meth:`~SDKProvider.read_reply` and
:meth:`~SDKProvider.read_stream`.

Keys: the provider's own key variable (``OPENAI_API_KEY``) goes only to the provider's own hosts, or to the server
the SDK's own variable names (``OPENAI_BASE_URL``), as the SDK would send it. A catalogue entry or endpoint with
another base URL gets the key its ``api_key_env`` names, else a placeholder (local servers need none): a hosted
service or proxy never receives another provider's key by accident.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import sys
import time
import zlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from probe_ui.messages import Request, Response
from probe_ui.providers import wire_images
from probe_ui.providers.base import ModelConfig, Provider, ProviderError
from probe_ui.security import redact

if TYPE_CHECKING:  # asyncio, the outbound policy and the rate control are imported when a call is made, not
    import asyncio  # when the providers are listed (probe-ui models)

#: sent as the key to servers that need none (vLLM, Ollama, LM Studio, a local proxy accept anything)
PLACEHOLDER_KEY = "not-needed"
#: the client-wide timeout; every request overrides it with ``settings.timeout_s``
DEFAULT_CLIENT_TIMEOUT_S = 120.0
#: a reply (text, reasoning and details together) larger than this is refused; ``options.max_reply_bytes``
DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024
#: the server's own message is cut to this many characters in an error (after masking)
MAX_DETAIL_CHARS = 200
#: an error message as a whole
MAX_ERROR_CHARS = 400

STATUS_REASONS = {
    400: "bad request",
    401: "unauthorized (check the API key)",
    403: "forbidden",
    404: "not found (check the model name and base URL)",
    408: "request timeout",
    409: "conflict",
    413: "request too large",
    422: "unprocessable request",
    429: "rate limited",
    500: "server error",
    502: "bad gateway",
    503: "service unavailable",
    504: "gateway timeout",
    529: "overloaded",
}
#: error types of an ``event: error`` inside a stream (answered with HTTP 200) that are worth retrying
RETRIABLE_STREAM_ERRORS = {"overloaded_error", "api_error", "rate_limit_error", "timeout_error", "server_error"}


class Malformed(Exception):
    """The server answered 200 with something that is not a usable reply."""


class ReplyRefused(Exception):
    """The reply's body is not read: larger than the provider's cap, or in an encoding that cannot be capped."""


def configured_base_url(config: ModelConfig) -> str | None:
    """The base URL to use: a string as is, the first of several replicas, or None (the SDK then reads its own
    variable, e.g. ``OPENAI_BASE_URL``)."""
    url = config.base_url
    if isinstance(url, (tuple, list)):
        url = url[0] if url else None
    return url or None


def int_or_none(value: Any) -> int | None:
    """A token count as the provider reported it: a non-negative int, else None (never a bool or a negative)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def host_of(url: str | None) -> str:
    try:
        return (urlsplit(url or "").hostname or "").lower()
    except ValueError:
        return ""


class SDKProvider(Provider):
    """A model behind an official SDK. See the module docstring for what a subclass provides."""

    #: the SDK's import name, e.g. "openai"
    sdk: ClassVar[str]
    #: the SDK's base exception class name, e.g. "OpenAIError"
    sdk_error: ClassVar[str]
    #: the provider's own key variable (the SDK's, or a hosted service's)
    key_env: ClassVar[str | None] = None
    #: whether a key is needed (API providers) or optional (local servers: ``key_env`` when set, else a placeholder)
    key_required: ClassVar[bool] = True
    #: the hosts ``key_env``'s key may be sent to without ``api_key_env`` naming it (empty: any)
    own_hosts: ClassVar[tuple[str, ...]] = ()
    #: the SDK's own base-URL variable; a server named there gets ``key_env``'s key, as the SDK would send it
    sdk_base_url_env: ClassVar[str | None] = None
    #: where the model is when neither the catalogue nor an environment variable says
    default_base_url: ClassVar[str | None] = None
    #: added to a "cannot connect" error, e.g. how to start the server
    connect_hint: ClassVar[str] = ""
    #: a reply body larger than this (after decompression) is refused; ``options.max_reply_bytes`` overrides
    default_max_reply_bytes: ClassVar[int] = DEFAULT_MAX_REPLY_BYTES

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
    def not_installed(cls) -> str:
        return f"the {cls.sdk} package is not installed (pip install {cls.sdk})"

    @classmethod
    def unavailable_reason(cls, config: ModelConfig | None = None) -> str | None:
        # find_spec, not import: importing an SDK takes a second, and `probe-ui models` asks every provider
        try:
            installed = importlib.util.find_spec(cls.sdk) is not None
        except (ImportError, ValueError):
            installed = False
        if not installed:
            return cls.not_installed()
        if config is None:
            return None
        return cls.resolve_key(config)[1]

    # ---- keys ------------------------------------------------------------------------------------------------
    @classmethod
    def base_url_for(cls, config: ModelConfig) -> str | None:
        """The catalogue's base URL, else ``default_base_url``; None lets the SDK read its own variable."""
        return configured_base_url(config) or cls.default_base_url

    @classmethod
    def resolve_key(cls, config: ModelConfig) -> tuple[str | None, str | None]:
        """``(key, None)`` when the model can be called, ``(None, why not)`` when it cannot; the key is stripped
        of surrounding whitespace and registered for masking."""
        if config.secret:  # typed into the app for this endpoint
            return cls._checked(redact.clean_key(config.secret), "the key typed for this endpoint")
        if config.api_key_env:  # the catalogue entry names its key: it is required
            return cls._checked(redact.env_key(config.api_key_env), config.api_key_env)
        url = configured_base_url(config)
        if url and cls.own_hosts and host_of(url) not in cls.own_hosts:
            return PLACEHOLDER_KEY, None  # someone else's server: none of our keys
        key = redact.env_key(cls.key_env)
        if key or (cls.key_required and not (cls.sdk_base_url_env and os.environ.get(cls.sdk_base_url_env))):
            return cls._checked(key, cls.key_env or "the key")
        return PLACEHOLDER_KEY, None  # a local server (or the SDK's base-URL variable) needs no key

    @staticmethod
    def _checked(key: str | None, where: str) -> tuple[str | None, str | None]:
        """The key, registered for masking, unless it is missing or cannot be sent (a reason naming ``where``)."""
        if not key:
            return None, f"{where} is not set"
        if key != PLACEHOLDER_KEY:
            redact.register_secret(key)
        problem = redact.key_problem(key, where)
        return (None, problem) if problem else (key, None)

    # ---- client ----------------------------------------------------------------------------------------------
    def _get_client(self) -> Any:
        """The SDK client, created on first use and again for a new event loop (its pool belongs to one loop)."""
        import asyncio

        from probe_ui.providers import shared_clients

        loop = asyncio.get_running_loop()
        if self._client is not None and self._client_loop is loop:
            return self._client
        key, max_retries, timeout = self._client_settings()
        options, cap = self.config.options, self.max_reply_bytes()

        def make() -> tuple[Any, Any]:
            http_client = capped_http_client(importlib.import_module(self.sdk), cap)
            return self.make_client(key or PLACEHOLDER_KEY, max_retries, timeout, http_client), http_client

        if shared_clients.shared(loop):  # the live probes' loop: one client per server and key, for everyone
            ident = shared_clients.client_key(
                type(self), self.base_url_for(self.config), key or PLACEHOLDER_KEY, max_retries, timeout, cap,
                os.environ.get(self.sdk_base_url_env or "", ""), json.dumps(options, sort_keys=True, default=str))
            self._client = shared_clients.get(loop, ident, make)
        else:
            self._client = make()[0]
        self._client_loop = loop
        return self._client

    def _client_settings(self) -> tuple[str | None, int, float]:
        """The key, retries and client-wide timeout a client of this model is made with (the SDK imported first);
        a :class:`ProviderError` for what is missing or wrong."""
        try:
            importlib.import_module(self.sdk)
        except ImportError:
            raise ProviderError(f"{self.label}: {self.not_installed()}") from None
        key, problem = self.resolve_key(self.config)
        if problem:
            raise ProviderError(f"{self.label}: {problem}")
        options = self.config.options
        max_retries = options.get("max_retries", 2)
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
            raise ProviderError(f"{self.label}: options.max_retries must be a non-negative integer, "
                                f"got {max_retries!r}")
        self._key = key
        return key, max_retries, float(options.get("timeout_s", DEFAULT_CLIENT_TIMEOUT_S))

    async def aclose(self) -> None:
        import asyncio

        from probe_ui.providers import shared_clients

        client, self._client = self._client, None
        loop, self._client_loop = self._client_loop, None
        if client is not None and loop is asyncio.get_running_loop() and not shared_clients.shared(loop):
            await client.close()  # a shared client is closed by its registry

    def max_reply_bytes(self) -> int:
        """The largest reply body accepted (after decompression): ``options.max_reply_bytes``, else the
        provider's default."""
        cap = self.config.options.get("max_reply_bytes", self.default_max_reply_bytes)
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
            raise ProviderError(f"{self.label}: options.max_reply_bytes must be a positive integer, got {cap!r}")
        return cap

    # ---- what a subclass provides ----------------------------------------------------------------------------
    def make_client(self, key: str, max_retries: int, timeout_s: float, http_client: Any
                    ) -> Any:  # pragma: no cover - abstract
        """The SDK's async client, on ``http_client`` (which caps the reply's size)."""
        raise NotImplementedError

    def build_kwargs(self, request: Request) -> dict[str, Any]:  # pragma: no cover - abstract
        """The request in the wire format (raise :class:`ProviderError` for what cannot be sent)."""
        raise NotImplementedError

    async def create(self, client: Any, kwargs: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        """Send through the SDK's raw-response wrapper (``client.x.with_raw_response.create(**kwargs)``)."""
        raise NotImplementedError

    def read_reply(self, parsed: Any) -> Response:  # pragma: no cover - abstract
        """A parsed (non-streamed) reply as a Response; raise :class:`Malformed` when it is not usable."""
        raise NotImplementedError

    async def read_stream(self, stream: Any, start: float) -> Response:  # pragma: no cover - abstract
        """A streamed reply as a Response."""
        raise NotImplementedError

    def finish(self, response: Response) -> None:
        """Provider-specific notes on a finished response (e.g. how sampling was done)."""

    # ---- a batch API's requests and replies (probe_ui.providers.batch_api) ----------------------------------
    def request_body(self, request: Request) -> dict[str, Any]:
        """The JSON body a live call of ``request`` sends, not streamed (a batch API answers whole replies): what
        :meth:`build_kwargs` gives, its ``extra_body`` merged in as the SDK merges it, without the SDK's own call
        options (``timeout``). One line of a batch file carries it as it stands."""
        from dataclasses import replace

        unstreamed = replace(request, settings=replace(request.settings, stream=False))
        kwargs = self.build_kwargs(unstreamed)
        body = {k: v for k, v in kwargs.items() if k not in ("timeout", "extra_body")}
        body.update(kwargs.get("extra_body") or {})
        return body

    def reply_of(self, raw: Any) -> Any:
        """A whole (not streamed) reply from the SDK's raw-response wrapper, as :meth:`read_reply` reads it: by
        default the SDK's own object (``raw.parse()``)."""
        return raw.parse()

    def parse_body(self, body: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        """A reply's JSON body as the SDK's object (what :meth:`read_reply` reads), built as leniently as the SDK
        builds the replies of a live call."""
        raise NotImplementedError

    def reply_from_body(self, reply: Any, request: Request) -> Response:
        """A reply that came back through a batch API (its JSON body, or the SDK's object) as the Response a live
        call of ``request`` makes of it: text, finish reason, usage, cost at the catalogue's price, the key masked;
        its latency is not known. A reply that is not usable raises :class:`ProviderError`."""
        try:
            response = self.read_reply(self.parse_body(reply) if isinstance(reply, dict) else reply)
        except Exception as exc:  # noqa: BLE001 - one clear line, as for a live call
            error = self.map_error(exc, request.settings.timeout_s)
        else:
            response.latency_s = None
            self.finish(response)
            response.cost = self.config.cost(response.input_tokens, response.output_tokens)
            return self._masked(response)
        raise error

    def batch_client(self, reply_cap: int) -> Any:
        """A client of its own for a batch API's calls (uploads, status, result files), reading replies of up to
        ``reply_cap`` bytes (a batch's result file holds every reply); the caller closes it."""
        key, max_retries, timeout = self._client_settings()
        http_client = capped_http_client(importlib.import_module(self.sdk), reply_cap)
        return self.make_client(key or PLACEHOLDER_KEY, max_retries, timeout, http_client)

    # ---- the call --------------------------------------------------------------------------------------------
    async def generate(self, request: Request) -> Response:
        """Send one request (streamed when ``settings.stream``); raise :class:`ProviderError` on failure."""
        client = self._get_client()
        images = [im for m in request.messages for im in m.images()]
        # each image's base64 text rides as a stand-in that the HTTP client writes back (wire_images): the SDK
        # would otherwise JSON-encode it again for every call and retry
        kwargs = wire_images.stand_in(self.build_kwargs(request), images)
        start = time.perf_counter()
        error: ProviderError | None = None
        try:
            with wire_images.lent(images):
                raw = await self.create(client, kwargs)  # the raw-response wrapper also tells the retry count
            parsed = self.reply_of(raw) if not request.settings.stream else raw.parse()
            if inspect.isawaitable(parsed):  # the SDKs' legacy wrapper parses synchronously; some versions await
                parsed = await parsed
            if request.settings.stream:
                response = await self.read_stream(parsed, start)
            else:
                response = self.read_reply(parsed)
            response.latency_s = time.perf_counter() - start
            response.details["retries"] = raw.retries_taken
            self.finish(response)
            response.cost = self.config.cost(response.input_tokens, response.output_tokens)
            return self._masked(response)
        except ProviderError:
            raise
        except Exception as exc:  # every SDK / transport / parsing failure becomes one clear ProviderError
            error = self.map_error(exc, request.settings.timeout_s)
        # raised outside the except block so the SDK exception (whose text may quote the key) is not chained
        raise error

    def _masked(self, response: Response) -> Response:
        """The key this provider sent, masked out of everything the server sent back (an echo in a reply or in
        its details would otherwise reach the store)."""
        secrets = self._secrets()
        if secrets:
            response.text = redact.mask(response.text, secrets)
            response.finish_reason = redact.mask(response.finish_reason, secrets)
            response.details = redact.mask_deep(response.details, secrets)
        return response

    def _secrets(self) -> frozenset[str]:
        return frozenset({self._key} if self._key and self._key != PLACEHOLDER_KEY else ())

    def clipped(self, text: str, limit: int = MAX_DETAIL_CHARS) -> str:
        """A server's words about a failure as one line of at most ``limit`` characters, the key masked out first."""
        return redact.clip(text, limit, self._secrets())

    # ---- errors ----------------------------------------------------------------------------------------------
    def endpoint(self) -> str:
        """The server as a message names it: a shared endpoint by its name, else its URL without secrets."""
        if self.config.shown_as:
            return self.config.shown_as
        url = str(getattr(self._client, "base_url", "") or self.base_url_for(self.config) or "")
        return redact.public_url(url) if url else "the API"

    def map_error(self, exc: Exception, timeout_s: float) -> ProviderError:
        """One line naming the model and the failure, the key masked on the full text before any cut;
        ``retriable`` for 408/409/429/5xx/529, timeouts, connections and retriable in-stream errors."""
        from probe_ui.providers import shared_clients
        from probe_ui.security import outbound

        sdk = importlib.import_module(self.sdk)
        secrets = self._secrets()
        retries = retries_suffix(exc)
        retriable = False
        status: int | None = None
        retry_after: str | None = None
        quota = False
        refused = next((e for e in _chain(exc) if isinstance(e, ReplyRefused)), None)
        if refused is not None:  # raised while reading the body (the SDK may have wrapped it)
            message = str(refused)
        elif isinstance(exc, Malformed):
            message = f"malformed response: {exc}"
        elif isinstance(exc, sdk.APITimeoutError):
            message, retriable = f"timed out after {timeout_s:g} s{retries}", True
        elif isinstance(exc, sdk.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            # a shared endpoint's failure is read by everyone: the transport's words name its address, so only its kind
            why = type(cause).__name__ if self.config.shown_as and cause is not None else cause_text(exc)
            if cause is not None and type(cause).__name__ == "ConnectError":
                message = f"cannot connect to {self.endpoint()}{retries} ({why})"
                if self.connect_hint:
                    message += f"; {self.connect_hint}"
            else:
                message = f"connection to {self.endpoint()} failed{retries} ({why})"
            retriable = True
        elif isinstance(exc, sdk.APIStatusError) and exc.status_code in outbound.REDIRECTS:
            status = exc.status_code  # not followed (probe_ui.security.outbound): named, with the host it pointed to
            request_url = getattr(getattr(exc.response, "request", None), "url", None)
            message = outbound.redirect_refused(status, exc.response.headers.get("location"),
                                                str(request_url or self.endpoint()))
        elif isinstance(exc, sdk.APIStatusError) and exc.status_code < 400:
            # an `event: error` in the middle of a stream that had started with HTTP 200
            kind, detail = _error_type(exc.body), error_detail(exc, secrets)
            message = f"error in the stream: {kind or 'error'}" + (f": {detail}" if detail else "")
            retriable = kind in RETRIABLE_STREAM_ERRORS
        elif isinstance(exc, sdk.APIStatusError):
            status = exc.status_code
            wait = shared_clients.retry_after_s(exc.response.headers)
            retry_after = None if wait is None else f"{wait:g}"
            quota = status == 429 and "insufficient_quota" in (_error_type(exc.body), _error_code(exc.body))
            message, retriable = status_message(status, retries, error_detail(exc, secrets))
        elif isinstance(exc, sdk.APIResponseValidationError):
            message = f"malformed response: {exc.message}"
        elif isinstance(exc, sdk.APIError):  # e.g. an error event in the middle of a stream
            message, retriable = f"API error: {exc.message}", True
        elif isinstance(exc, json.JSONDecodeError) or type(exc).__name__ == "ValidationError":  # pydantic
            message = f"malformed response: {type(exc).__name__}: {exc}"
        elif isinstance(exc, getattr(sdk, self.sdk_error)):
            message = str(exc)
        else:
            message = f"unexpected {type(exc).__name__}: {exc}"
        if self.config.shown_as:  # whatever the server or the transport said, its address is not repeated
            base = self.config.base_url
            for server in (base if isinstance(base, tuple) else (base or "",)):
                message = redact.veil_server(message, server, self.config.shown_as) if server else message
        error = ProviderError(redact.clip(f"{self.label}: {message}", MAX_ERROR_CHARS, secrets), retriable=retriable)
        # extras the runner may use (not part of the base protocol)
        error.status = status  # type: ignore[attr-defined]
        error.retry_after = retry_after  # type: ignore[attr-defined]
        error.quota = quota  # type: ignore[attr-defined]  # a 429 for a spent quota: waiting does not help
        return error


# ---- the reply size cap --------------------------------------------------------------------------------------

def capped_http_client(sdk_module: Any, cap: int) -> Any:
    """The SDK's own default HTTP client (its limits and timeouts; made by
    :func:`probe_ui.security.outbound.http_client`, so it follows no redirect), reading at most ``cap`` bytes of any
    reply body after decompression: a larger one, or one compressed in an encoding other than gzip, raises
    :class:`ReplyRefused` before it is held in memory (a 300 MB gzip reply would otherwise take gigabytes)."""
    from probe_ui.security import outbound

    base = http_client_class(sdk_module)
    client = outbound.http_client(_capped_class(base), verify=_tls_context(base))
    client.max_reply_bytes = cap
    return client


def http_client_class(sdk_module: Any) -> type:
    """The SDK's HTTP client on aiohttp's transport where aiohttp is installed (a dependency of probe-ui), else its
    default. Both SDKs offer it (``DefaultAioHttpClient``: the same client and API, aiohttp underneath, replies
    not decompressed by aiohttp so the cap above still counts every byte). Measured against a loopback server,
    180 calls at once: 4.4 ms of CPU a call on the default transport, 2.3 ms on aiohttp; a live probe's calls were
    over half of the app's CPU."""
    aio = getattr(sdk_module, "DefaultAioHttpClient", None)
    if aio is not None and importlib.util.find_spec("aiohttp") is not None:
        return aio
    return sdk_module.DefaultAsyncHttpxClient


@lru_cache(maxsize=None)
def _tls_context(client_class: type) -> Any:
    """The TLS settings every client of this HTTP library gets, made once: the library's own default (its CA
    bundle, ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` as set when first made). Loading the CA bundle took 70 ms of CPU
    for each new client, two per live probe of two models: a sixth of the app's CPU with 20 people probing."""
    library = sys.modules[next(c for c in client_class.__mro__ if c.__name__ == "AsyncClient").__module__
                          .split(".")[0]]
    return library.create_ssl_context()


@lru_cache(maxsize=None)
def _capped_class(base: type) -> type:
    from probe_ui.providers import rate_control
    from probe_ui.security import outbound

    class CappedClient(base):  # type: ignore[misc, valid-type]
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES

        async def send(self, request: Any, *, stream: bool = False, **kwargs: Any) -> Any:
            request = _with_images(request)
            request.headers["Accept-Encoding"] = "gzip"  # nothing we cannot decompress within the cap
            try:
                response = await super().send(request, stream=True, **outbound.no_redirects(kwargs))
            except Exception as exc:  # noqa: BLE001 - re-raised, named as what it was
                failure = _transport_failure(exc)
                if failure is exc:
                    raise
                raise failure from exc.__cause__
            try:
                watch = rate_control.WATCH.get()
                if watch is not None:  # a paced call: rate-limit refusals are retried by the caller, not the SDK
                    if rate_control.is_refusal(response.status_code, response.headers):
                        response.headers["x-should-retry"] = "false"
                    watch(response.status_code, response.headers)
                encoding = response.headers.get("content-encoding", "").strip().lower()
                if encoding not in ("", "identity", "gzip", "x-gzip"):
                    raise ReplyRefused(f"the reply is compressed as {encoding!r}, which is not accepted; refused")
                declared = response.headers.get("content-length", "")
                if not encoding.endswith("gzip") and declared.isdigit() and int(declared) > self.max_reply_bytes:
                    raise ReplyRefused(_too_large(self.max_reply_bytes))
                stream_base = sys.modules[type(response).__module__.split(".")[0]].AsyncByteStream
                response.stream = _capped_stream(stream_base, response.stream, self.max_reply_bytes,
                                                 gzip=encoding.endswith("gzip"))
                if encoding:  # decoded (and counted) by the capped stream
                    del response.headers["content-encoding"]
                if not stream:
                    await response.aread()
            except BaseException:
                await response.aclose()
                raise
            return response

    return CappedClient


def _with_images(request: Any) -> Any:
    """``request`` with the images its body carries by reference written in (:mod:`probe_ui.providers.
    wire_images`); the request itself when it carries none, or streams its body (a file upload)."""
    try:
        body = request.content
    except Exception:  # noqa: BLE001 - a streamed body (multipart upload) is not read here, and holds no stand-in
        return request
    filled = wire_images.fill(body) if isinstance(body, bytes) else None
    if filled is None:
        return request
    headers = request.headers.copy()
    headers.pop("Content-Length", None)  # set again for the filled body
    return type(request)(request.method, request.url, headers=headers, content=filled, extensions=request.extensions)


def _transport_failure(exc: Exception) -> Exception:
    """What a failed request was, in the HTTP library's terms. aiohttp's transport, as the SDKs ship it, names
    every broken connection alike: a connect *timeout* in openai's copy, a connect error in anthropic's (a refused
    connection, a server that hung up, a reset). That would tell a user whose server hung up that it "timed out" or
    could not be reached: each becomes a connect error (never connected) or a read error (connected, then dropped),
    as on the default transport. Real timeouts stay."""
    cause = exc.__cause__
    if cause is None or type(cause).__module__.split(".")[0] != "aiohttp":
        return exc
    import asyncio

    import aiohttp

    if (not isinstance(cause, aiohttp.ClientConnectionError)
            or isinstance(cause, (aiohttp.ServerTimeoutError, asyncio.TimeoutError))):
        return exc
    library = sys.modules[type(exc).__module__.split(".")[0]]
    kind = library.ConnectError if isinstance(cause, aiohttp.ClientConnectorError) else library.ReadError
    return kind(str(cause) or type(cause).__name__, request=getattr(exc, "_request", None))


def _too_large(cap: int) -> str:
    return f"the reply is larger than {cap:,} bytes (the provider's cap; options.max_reply_bytes); refused"


def _capped_stream(base: type, inner: Any, cap: int, *, gzip: bool) -> Any:
    """A response byte stream that decodes gzip itself and stops with :class:`ReplyRefused` past ``cap`` bytes."""

    class CappedStream(base):  # type: ignore[misc, valid-type]
        async def __aiter__(self) -> Any:
            size = 0
            decoder = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
            async for chunk in inner:
                if decoder is not None:
                    try:
                        chunk = decoder.decompress(chunk, cap - size + 1)
                    except zlib.error as exc:
                        raise ReplyRefused(f"the reply's gzip data is damaged ({exc})") from None
                    if decoder.unconsumed_tail:
                        raise ReplyRefused(_too_large(cap))
                size += len(chunk)
                if size > cap:
                    raise ReplyRefused(_too_large(cap))
                if chunk:
                    yield chunk

        async def aclose(self) -> None:
            await inner.aclose()

    return CappedStream()


def retries_suffix(exc: Exception) -> str:
    """' (after N retries)' from the SDK's own retry-count header on the last request sent."""
    request = getattr(exc, "request", None)
    if request is None:
        response = getattr(exc, "response", None)
        request = getattr(response, "request", None)
    try:
        n = int(request.headers.get("x-stainless-retry-count", "0")) if request is not None else 0
    except (TypeError, ValueError, RuntimeError):
        n = 0
    return f" (after {n} {'retry' if n == 1 else 'retries'})" if n > 0 else ""


def status_message(status: int, retries: str, detail: str) -> tuple[str, bool]:
    """'HTTP 429 rate limited (after 2 retries): detail', and whether trying again may help (408/409/429/5xx)."""
    reason = STATUS_REASONS.get(status, "server error" if status >= 500 else "error")
    message = f"HTTP {status} {reason}{retries}" + (f": {detail}" if detail else "")
    return message, status in (408, 409, 429) or status >= 500


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the exceptions behind it (``__cause__``, else ``__context__``), at most 10."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def cause_text(exc: BaseException) -> str:
    """``Type: message`` of the transport failure behind an SDK connection error: the first exception down the
    chain that says something (httpx's ``ReadError('')`` hides a ``ConnectionResetError`` further down)."""
    chain = _chain(exc)[1:]
    for cause in chain:
        if str(cause).strip():
            return f"{type(cause).__name__}: {cause}"
    return type(chain[0]).__name__ if chain else str(exc)


def _error_type(body: Any) -> str | None:
    error = body.get("error") if isinstance(body, dict) else None
    kind = error.get("type") if isinstance(error, dict) else None
    return kind if isinstance(kind, str) else None


def _error_code(body: Any) -> str | None:
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


def error_detail(exc: Any, secrets: frozenset[str]) -> str:
    """The server's own message from its JSON body (``{"error": {"message": ...}}``, ``{"message": ...}``,
    ``{"detail": ...}``), masked on the full text, then cut to one short line. A body that is not JSON (an HTML
    page, plain text) is never quoted, only described (:func:`not_json`): an endpoint typed into the app may point
    at a page that was never meant to be read through it."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str) and error["message"]:
            text = error["message"]
        else:
            msg = body.get("message") or body.get("detail") or error
            text = (msg if isinstance(msg, str) else json.dumps(msg, default=str)) if msg else json.dumps(body,
                                                                                                          default=str)
    else:
        return not_json(getattr(exc, "response", None), body)
    return redact.clip(text, MAX_DETAIL_CHARS, secrets) if text.strip() else ""


def not_json(response: Any, body: Any = None) -> str:
    """A reply that is not a model API's JSON, described by its type and size, never by its content."""
    kind = ""
    size: int | None = None
    try:
        kind = str(response.headers.get("content-type") or "").split(";")[0].strip()
        size = len(response.content)
    except Exception:  # noqa: BLE001 - a streamed or closed reply: its type is enough, or nothing
        pass
    if size is None and isinstance(body, (str, bytes)):
        size = len(body)
    if not kind and not size:
        return ""
    what = f"{kind or 'unknown type'}" + (f", {size} bytes" if size is not None else "")
    return f"the reply is not a model API's JSON ({what}; not shown)"


__all__ = ["DEFAULT_MAX_REPLY_BYTES", "Malformed", "PLACEHOLDER_KEY", "ReplyRefused", "SDKProvider",
           "capped_http_client",
           "configured_base_url", "int_or_none", "not_json", "status_message"]
