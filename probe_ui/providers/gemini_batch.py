"""Gemini's batch mode (``batch --provider-batch`` for ``gemini/`` models, issue 50), in its own REST wire format.

The ``gemini`` provider asks Google's OpenAI-compatible endpoint live; its batch mode is not OpenAI's Batch API but
the Gemini API's own (``generativelanguage.googleapis.com/v1beta``, the key in ``x-goog-api-key``):

- ``POST models/{model}:batchGenerateContent`` with ``{"batch": {"displayName": ..., "inputConfig": {"requests":
  {"requests": [{"request": GenerateContentRequest, "metadata": {"key": ...}}, ...]}}}}``: the requests inline, up to
  20 MB in all; the answer is a long-running operation named ``batches/...``;
- ``GET batches/{id}``: the operation, its ``metadata`` the batch (``state`` ``BATCH_STATE_PENDING`` / ``RUNNING`` /
  ``SUCCEEDED`` / ``FAILED`` / ``CANCELLED`` / ``EXPIRED``, ``batchStats`` with ``requestCount``,
  ``successfulRequestCount``, ``failedRequestCount``, ``pendingRequestCount``, and once ended ``output``:
  ``inlinedResponses.inlinedResponses[]``, each ``{"response": GenerateContentResponse | "error": Status,
  "metadata": {"key": ...}}``, or a ``responsesFile`` read at ``download/v1beta/{file}:download?alt=media``, one
  ``{"key": ..., "response" | "error" | "status": ...}`` a line);
- ``GET batches?pageSize=&pageToken=`` (``operations``, ``nextPageToken``) and ``POST batches/{id}:cancel``.

Each line is the live call's chat-completions body (:meth:`~probe_ui.providers.sdk.SDKProvider.request_body`)
rewritten as a GenerateContentRequest (:func:`generate_content_request`: system messages as ``systemInstruction``,
images as ``inlineData``, the settings as ``generationConfig``); a body with a field it cannot carry is asked live.
Each reply is rewritten as the chat completion Google's OpenAI-compatible endpoint answers (:func:`chat_completion`),
so the provider reads it as a live reply. Requests go inline only: a model's cells are split into batches of at
most :attr:`GeminiBatches.max_bytes`, and a batch that would still pass the 20 MB limit (one request alone larger)
is refused in one line; uploading a file through the Files API is not done. Every call is made on the provider's own
HTTP client (no redirect followed, replies capped, the key registered for masking and never in a URL or a message).
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote, urlsplit, urlunsplit

from probe_ui.providers.base import ProviderError
from probe_ui.providers.batch_api import APIS, RESULT_FILE_CAP, BatchAPI, BatchState, Outcome
from probe_ui.providers.sdk import (
    MAX_ERROR_CHARS,
    PLACEHOLDER_KEY,
    ReplyRefused,
    capped_http_client,
    cause_text,
    not_json,
    status_message,
)

#: Gemini's limit on a batch created with its requests inline (bytes of the create call's body)
INLINE_LIMIT = 20 * 1000 * 1000
#: a Gemini batch's resource name, as it may go into a URL
BATCH_NAME = re.compile(r"batches/[A-Za-z0-9_-]{1,200}")
#: how a finished candidate's reason reads in a chat completion (Google's OpenAI-compatible endpoint's words)
FINISH = {"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter", "RECITATION": "content_filter",
          "BLOCKLIST": "content_filter", "PROHIBITED_CONTENT": "content_filter", "SPII": "content_filter",
          "IMAGE_SAFETY": "content_filter", "LANGUAGE": "content_filter"}
#: google.rpc.Code names, by number: a failed request's status in a batch's results
GRPC = ("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED")
#: a chat-completions body's fields that :func:`generate_content_request` carries over (or drops: model, n = 1)
CARRIED = frozenset({"model", "messages", "temperature", "max_tokens", "max_completion_tokens", "top_p", "seed", "n",
                     "response_format", "logprobs", "top_logprobs", "stream"})
_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+-]+);base64,(.*)", re.S)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")


def generate_content_request(body: dict[str, Any], label: str) -> dict[str, Any]:
    """A live call's chat-completions body as Gemini's GenerateContentRequest (module doc); a body with a field it
    cannot carry raises :class:`ProviderError` (the cell is then asked live)."""
    extra = sorted(set(body) - CARRIED)
    if extra:
        raise ProviderError(f"{label}: Gemini's batch mode cannot carry {', '.join(map(repr, extra))} of the live "
                            "request (options.extra_body?): asked directly")
    if body.get("n", 1) != 1:
        raise ProviderError(f"{label}: Gemini's batch mode asks one answer a request, not n={body['n']}")
    system: list[dict[str, Any]] = []
    contents: list[dict[str, Any]] = []
    for m in body.get("messages") or []:
        role, content = m.get("role"), m.get("content")
        if role in ("system", "developer"):
            if _text(content):
                system.append({"text": _text(content)})
            continue
        parts: list[dict[str, Any]] = []
        given: list[dict[str, Any]] = [{"type": "text", "text": content}] if isinstance(content, str) else \
            list(content or [])
        for p in given:
            if p.get("type") == "text":
                if p.get("text"):
                    parts.append({"text": p["text"]})
            elif p.get("type") == "image_url":
                found = _DATA_URL.fullmatch(str((p.get("image_url") or {}).get("url") or ""))
                if found is None:
                    raise ProviderError(f"{label}: Gemini's batch mode takes images as data, not by URL")
                parts.append({"inlineData": {"mimeType": found.group(1), "data": found.group(2)}})
            else:
                raise ProviderError(f"{label}: Gemini's batch mode cannot carry a {p.get('type')!r} part")
        contents.append({"role": "model" if role == "assistant" else "user", "parts": parts})
    request: dict[str, Any] = {"contents": contents}
    if system:
        request["systemInstruction"] = {"parts": system}
    config: dict[str, Any] = {}
    for ours, theirs in (("temperature", "temperature"), ("max_tokens", "maxOutputTokens"),
                         ("max_completion_tokens", "maxOutputTokens"), ("top_p", "topP"), ("seed", "seed")):
        if body.get(ours) is not None:
            config[theirs] = body[ours]
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") in ("json_schema", "json_object"):
        config["responseMimeType"] = "application/json"
        schema = (fmt.get("json_schema") or {}).get("schema")
        if schema is not None:
            config["responseJsonSchema"] = schema
    if body.get("logprobs"):
        config["responseLogprobs"] = True
        if body.get("top_logprobs"):
            config["logprobs"] = int(body["top_logprobs"])
    if config:
        request["generationConfig"] = config
    return request


def _count(value: Any) -> int:
    """A count as the API writes it (int64 as a JSON string)."""
    try:
        return max(0, int(value))
    except (TypeError, ValueError):
        return 0


def _logprobs(result: Any) -> dict[str, Any] | None:
    """A candidate's ``logprobsResult`` as a chat completion's ``logprobs``."""
    if not isinstance(result, dict):
        return None
    chosen, top = result.get("chosenCandidates") or [], result.get("topCandidates") or []
    content = []
    for i, c in enumerate(chosen):
        alts = (top[i] if i < len(top) and isinstance(top[i], dict) else {}).get("candidates") or []
        content.append({"token": str(c.get("token", "")), "logprob": float(c.get("logProbability", 0.0)),
                        "bytes": None, "top_logprobs": [{"token": str(a.get("token", "")), "bytes": None,
                                                         "logprob": float(a.get("logProbability", 0.0))}
                                                        for a in alts]})
    return {"content": content, "refusal": None} if content else None


def chat_completion(response: dict[str, Any], model: str) -> dict[str, Any]:
    """A GenerateContentResponse as the chat completion the OpenAI-compatible endpoint answers: the first
    candidate's text (thought parts as ``reasoning_content``), its finish reason in OpenAI's words, the usage
    (thinking tokens counted as output, as they are billed)."""
    candidate = (response.get("candidates") or [{}])[0]
    parts = (candidate.get("content") or {}).get("parts") or []
    text = "".join(p["text"] for p in parts if isinstance(p.get("text"), str) and not p.get("thought"))
    thoughts = "".join(p["text"] for p in parts if isinstance(p.get("text"), str) and p.get("thought"))
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if thoughts:
        message["reasoning_content"] = thoughts
    reason = candidate.get("finishReason")
    out: dict[str, Any] = {
        "id": str(response.get("responseId") or ""), "object": "chat.completion", "created": 0,
        "model": str(response.get("modelVersion") or model),
        "choices": [{"index": 0, "message": message, "logprobs": _logprobs(candidate.get("logprobsResult")),
                     "finish_reason": FINISH.get(reason, str(reason).lower()) if reason else None}],
    }
    usage = response.get("usageMetadata")
    if isinstance(usage, dict):
        prompt = _count(usage.get("promptTokenCount"))
        completion = _count(usage.get("candidatesTokenCount")) + _count(usage.get("thoughtsTokenCount"))
        out["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                        "total_tokens": prompt + completion}
    return out


def status_text(status: dict[str, Any]) -> str:
    """A failed request's status (google.rpc.Status, or an HTTP error body's ``error``) in one line."""
    code, message = status.get("code"), str(status.get("message") or "")
    if isinstance(code, int) and code >= 100:
        return status_message(code, "", message)[0]
    name = status.get("status") if isinstance(status.get("status"), str) else None
    if name is None and isinstance(code, int) and 0 <= code < len(GRPC):
        name = GRPC[code]
    return f"{name or 'error'}: {message}".strip().rstrip(":")


@APIS.put
class GeminiBatches(BatchAPI):
    """Gemini's batch mode over REST (module doc)."""

    name = "gemini"
    words = "Gemini Batch Mode"
    max_requests = 100_000
    #: the lines of one batch: its create call's body stays under :data:`INLINE_LIMIT` (the envelope is small)
    max_bytes = 19 * 1000 * 1000
    inline_limit: ClassVar[int] = INLINE_LIMIT

    def __init__(self, provider: Any) -> None:
        super().__init__(provider)
        self._key: str | None = None
        self._timeout = 120.0

    @property
    def client(self) -> Any:
        """The provider's HTTP client (:func:`~probe_ui.providers.sdk.capped_http_client`: no redirect followed,
        replies of up to a result file's size), made with the provider's key rules."""
        if self._client is None:
            key, _retries, self._timeout = self.provider._client_settings()
            self._key = key if key and key != PLACEHOLDER_KEY else None
            self._client = capped_http_client(importlib.import_module(self.provider.sdk), RESULT_FILE_CAP)
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    # ---- where --------------------------------------------------------------------------------------------------
    def roots(self) -> tuple[str, str]:
        """The native API's root (``.../v1beta/``) and its download root (``.../download/v1beta/``), from the
        provider's base URL (the OpenAI-compatible ``.../v1beta/openai/``, or a catalogue entry's)."""
        url = self.provider.base_url_for(self.provider.config) or ""
        parts = urlsplit(url)
        path = parts.path.rstrip("/")
        path = path.removesuffix("/openai")
        return (urlunsplit((parts.scheme, parts.netloc, path + "/", "", "")),
                urlunsplit((parts.scheme, parts.netloc, "/download" + path + "/", "", "")))

    def _model_path(self) -> str:
        model = self.provider.config.model.removeprefix("models/")
        return f"models/{quote(model, safe='-._~@')}"

    def _batch_path(self, batch_id: str) -> str:
        if not BATCH_NAME.fullmatch(batch_id):
            raise ProviderError(f"{self.label}: {batch_id!r} is not a Gemini batch's name (batches/...)")
        return batch_id

    # ---- calls --------------------------------------------------------------------------------------------------
    async def _call(self, method: str, url: str, what: str, *, content: bytes | None = None,
                    timeout: float | None = None, raw: bool = False) -> Any:
        client = self.client
        headers = {"Content-Type": "application/json"} if content is not None else {}
        if self._key:
            headers["x-goog-api-key"] = self._key
        try:
            response = await client.request(method, url, headers=headers, content=content,
                                            timeout=timeout or self._timeout)
        except Exception as exc:  # noqa: BLE001 - named in one line
            raise self._failure(exc, what) from None
        if response.status_code >= 300:
            raise self._refused(response, url, what)
        if raw:
            return response.content
        try:
            return response.json()
        except ValueError:
            raise ProviderError(f"{self.label}: {what}: malformed response: "
                                f"{not_json(response) or 'not JSON'}") from None

    def _line(self, text: str, *, retriable: bool = False) -> ProviderError:
        return ProviderError(self.provider.clipped(f"{self.label}: {text}", MAX_ERROR_CHARS), retriable=retriable)

    def _failure(self, exc: Exception, what: str) -> ProviderError:
        import httpx

        refused = exc if isinstance(exc, ReplyRefused) else exc.__cause__
        if isinstance(refused, ReplyRefused):
            return self._line(f"{what}: {refused}")
        if isinstance(exc, httpx.TimeoutException):
            return self._line(f"{what}: timed out after {self._timeout:g} s", retriable=True)
        if self.provider.config.shown_as:  # a shared endpoint: the transport's words would name its address
            why = type(exc).__name__
        else:
            why = cause_text(exc) if exc.__cause__ or exc.__context__ else f"{type(exc).__name__}: {exc}"
        where = self.provider.endpoint()
        if isinstance(exc, httpx.ConnectError):
            return self._line(f"{what}: cannot connect to {where} ({why})", retriable=True)
        return self._line(f"{what}: connection to {where} failed ({why})", retriable=True)

    def _refused(self, response: Any, url: str, what: str) -> ProviderError:
        from probe_ui.security import outbound

        status = response.status_code
        if status in outbound.REDIRECTS:
            return self._line(f"{what}: " + outbound.redirect_refused(status, response.headers.get("location"), url))
        try:
            body = response.json()
        except ValueError:
            body = None
        error = body.get("error") if isinstance(body, dict) else None
        detail = str(error.get("message") or "") if isinstance(error, dict) else not_json(response)
        message, retriable = status_message(status, "", self.provider.clipped(detail) if detail else "")
        return self._line(f"{what}: {message}", retriable=retriable)

    # ---- the batch API ------------------------------------------------------------------------------------------
    def line(self, custom_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"request": generate_content_request(body, self.label), "metadata": {"key": custom_id}}

    @staticmethod
    def display_name(metadata: dict[str, str]) -> str:
        """What the batch is called at Google: the run's name and the token that finds it again (:meth:`find`)."""
        run = " ".join(str(metadata.get("probe_ui_run", "")).split())[:80]
        return f"probe-ui {run} [{metadata.get('probe_ui_batch', '')}]"

    async def submit(self, lines: Path, metadata: dict[str, str]) -> str:
        with lines.open("rb") as f:
            requests = [raw.rstrip(b"\r\n") for raw in f if raw.strip()]
        head = json.dumps({"displayName": self.display_name(metadata)})[:-1].encode()
        body = b'{"batch":' + head + b',"inputConfig":{"requests":{"requests":[' + b",".join(requests) + b"]}}}}"
        if len(body) > self.inline_limit:
            raise ProviderError(f"{self.label}: creating the batch failed: its {len(requests):,} requests take "
                                f"{len(body):,} bytes, over the {self.inline_limit:,} bytes Gemini takes in a batch "
                                "sent inline (sending the requests as an uploaded file is not supported)")
        root, _ = self.roots()
        op = await self._call("POST", f"{root}{self._model_path()}:batchGenerateContent", "creating the batch failed",
                              content=body, timeout=900.0)
        name = op.get("name") if isinstance(op, dict) else None
        if not isinstance(name, str) or not BATCH_NAME.fullmatch(name):
            raise ProviderError(f"{self.label}: creating the batch failed: malformed response: no batch name")
        return name

    async def find(self, token: str) -> str | None:
        """The name of a batch created with ``token`` in its display name (:meth:`display_name`), among the
        account's batches (up to 10 pages of 100), or None."""
        root, _ = self.roots()
        page: str | None = ""
        for _ in range(10):
            query = "pageSize=100" + (f"&pageToken={quote(page)}" if page else "")
            found = await self._call("GET", f"{root}batches?{query}", "listing the batches failed")
            for op in (found.get("operations") if isinstance(found, dict) else None) or []:
                batch = op.get("metadata") if isinstance(op.get("metadata"), dict) else op
                if str(batch.get("displayName") or "").endswith(f"[{token}]") and isinstance(op.get("name"), str):
                    return str(op["name"])
            page = found.get("nextPageToken") if isinstance(found, dict) else None
            if not page:
                break
        return None

    async def state(self, batch_id: str) -> BatchState:
        root, _ = self.roots()
        op = await self._call("GET", root + self._batch_path(batch_id), f"reading batch {batch_id} failed")
        if not isinstance(op, dict):
            raise ProviderError(f"{self.label}: reading batch {batch_id} failed: malformed response")
        batch: dict[str, Any] = op["metadata"] if isinstance(op.get("metadata"), dict) else op
        word = str(batch.get("state") or "").removeprefix("BATCH_STATE_").removeprefix("JOB_STATE_").lower()
        word = word or ("ended" if op.get("done") else "pending")
        stats = batch.get("batchStats") or {}
        total, good, bad = (_count(stats.get(k)) for k in ("requestCount", "successfulRequestCount",
                                                           "failedRequestCount"))
        problem = None
        if word == "failed" or (op.get("done") and isinstance(op.get("error"), dict)):
            why = (op.get("error") or {}).get("message") or "no reason given"
            word, problem = "failed", f"failed ({self.provider.clipped(str(why))})"
        elif word == "expired":
            problem = "expired (not finished in time: Gemini expires a batch pending or running for 48 h)"
        elif word in ("cancelled", "canceled"):
            word, problem = "cancelled", "was cancelled"
        output = batch.get("output") or op.get("response") or {}
        inlined = (output.get("inlinedResponses") or {}).get("inlinedResponses") if isinstance(output, dict) else None
        return BatchState(batch_id, word, word in ("succeeded", "failed", "expired", "cancelled", "ended"),
                          {"total": total, "done": good + bad, "failed": bad}, problem,
                          {"inlined": inlined if isinstance(inlined, list) else None,
                           "file": output.get("responsesFile") if isinstance(output, dict) else None})

    async def results(self, state: BatchState) -> AsyncIterator[Outcome]:  # type: ignore[override]
        for item in state.refs.get("inlined") or []:
            yield self._outcome(item)
        name = state.refs.get("file")
        if isinstance(name, str) and re.fullmatch(r"files/[A-Za-z0-9_-]{1,200}", name):
            _, download = self.roots()
            data = await self._call("GET", f"{download}{name}:download?alt=media",
                                    f"reading the results of batch {state.id} failed", raw=True)
            for raw in data.decode("utf-8", "replace").splitlines():
                if raw.strip():
                    try:
                        item = json.loads(raw)
                    except ValueError:
                        item = None
                    yield self._outcome(item)
        elif name:
            yield Outcome("", error="a results file whose name is not a Gemini file's")

    def _outcome(self, item: Any) -> Outcome:
        if not isinstance(item, dict):
            return Outcome("", error="a result that is not JSON with a key")
        key = item.get("key") or (item.get("metadata") or {}).get("key")
        if not isinstance(key, str) or not key:
            return Outcome("", error="a result without its key")
        response = item.get("response")
        error = item.get("error") if isinstance(item.get("error"), dict) else item.get("status")
        if not isinstance(response, dict) and isinstance(error, dict) and error:
            return Outcome(key, error=self.provider.clipped(status_text(error), 300))
        if not isinstance(response, dict):
            return Outcome(key, error="malformed response: a result without a reply")
        if not response.get("candidates"):
            blocked = (response.get("promptFeedback") or {}).get("blockReason")
            return Outcome(key, error=f"the prompt was blocked ({blocked})" if blocked else
                           "malformed response: a reply without candidates")
        return Outcome(key, reply=chat_completion(response, self.provider.config.model))

    async def cancel(self, batch_id: str) -> None:
        root, _ = self.roots()
        await self._call("POST", f"{root}{self._batch_path(batch_id)}:cancel", f"cancelling batch {batch_id} failed",
                         content=b"{}")

__all__ = ["GeminiBatches", "chat_completion", "generate_content_request", "status_text"]
