"""Providers' batch APIs, in their wire formats: OpenAI's Batch API (a JSONL file uploaded to ``/v1/files``, a batch
made of it at ``/v1/batches``, its replies in an output file and its failures in an error file) and Anthropic's
Message Batches (``/v1/messages/batches``, the requests in the body, the results as JSONL at the batch's
``results_url``); Gemini's batch mode is in :mod:`probe_ui.providers.gemini_batch`, which adds itself to
:data:`APIS`. Each answers within 24 hours at half the price of live calls.

Each is a :class:`BatchAPI` made for one model's provider (:class:`~probe_ui.providers.sdk.SDKProvider`, on a client
of its own, through the same SDK, key rules and refusal of redirects as its live calls). It writes one request as a
line of the provider's batch file, submits a file of such lines, reports a batch's state and reads its results as
:class:`Outcome` s. What to send, when to poll and where the answers go is :mod:`probe_ui.runner.provider_batch`'s.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from probe_ui.errors import ProbeUIError
from probe_ui.providers.base import ModelConfig, ProviderError
from probe_ui.providers.sdk import SDKProvider, status_message
from probe_ui.registry import Registry

log = logging.getLogger(__name__)

#: a batch's result file may hold this many bytes (every reply of up to 50,000 requests)
RESULT_FILE_CAP = 1 << 30


def batch_api_of(model: ModelConfig) -> str | None:
    """The batch API a model's cells can go through (:attr:`~probe_ui.providers.base.Provider.batch_api`), or None:
    its provider has none, or it is served by several replicas (each asked live)."""
    from probe_ui.providers import provider_class

    try:
        cls = provider_class(model.provider)
    except ProbeUIError:
        return None
    if isinstance(model.base_url, tuple) and len(model.base_url) > 1:
        return None
    return cls.batch_api if issubclass(cls, SDKProvider) and cls.batch_api in APIS else None


@dataclass
class BatchState:
    """A submitted batch as its provider reports it: its own status word, whether it has ended (no more results will
    come), its request counts, and why it ended without all of its answers (failed, expired, cancelled)."""

    id: str
    status: str
    ended: bool
    counts: dict[str, int] = field(default_factory=dict)
    problem: str | None = None
    #: what reading its results needs (OpenAI: the output and error files)
    refs: dict[str, Any] = field(default_factory=dict)

    def counts_text(self) -> str:
        """``12/40 done, 1 failed``: the request counts in words."""
        c = self.counts
        total = c.get("total", 0)
        done = c.get("done", 0)
        text = f"{done}/{total} done" if total else f"{done} done"
        extra = [f"{c[k]} {k}" for k in ("failed", "expired", "cancelled") if c.get(k)]
        return ", ".join([text, *extra])


@dataclass
class Outcome:
    """One request's result: its reply (a JSON body or the SDK's object), or an error in words, or neither when it
    was never answered (expired, cancelled: the cell stays to ask)."""

    custom_id: str
    reply: Any = None
    error: str | None = None

    @property
    def unasked(self) -> bool:
        return self.reply is None and self.error is None


class BatchAPI:
    """One provider's batch API for one model (module doc)."""

    name: ClassVar[str]
    #: what the API is called in messages ("OpenAI Batch API")
    words: ClassVar[str]
    #: how much of the catalogue price its calls cost (the providers' batch APIs halve it)
    price_factor: ClassVar[float] = 0.5
    #: the most requests, and bytes, one batch takes (the provider's limits)
    max_requests: ClassVar[int]
    max_bytes: ClassVar[int]

    def __init__(self, provider: SDKProvider) -> None:
        self.provider = provider
        self._client: Any = None

    @property
    def label(self) -> str:
        return self.provider.label

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = self.provider.batch_client(RESULT_FILE_CAP)
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    def line(self, custom_id: str, body: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover - abstract
        """One request as a line of this API's batch file."""
        raise NotImplementedError

    async def submit(self, lines: Path, metadata: dict[str, str]) -> str:  # pragma: no cover - abstract
        """Submit the batch of a file of :meth:`line` s; return its id."""
        raise NotImplementedError

    async def state(self, batch_id: str) -> BatchState:  # pragma: no cover - abstract
        raise NotImplementedError

    def results(self, state: BatchState) -> AsyncIterator[Outcome]:  # pragma: no cover - abstract
        """Every result of an ended batch (answers, errors, requests never answered)."""
        raise NotImplementedError

    async def cancel(self, batch_id: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    async def find(self, token: str) -> str | None:
        """The id of a batch created with ``token`` (``probe_ui_batch`` in :meth:`submit`'s metadata), for a batch
        whose process stopped before its id was recorded; None where it is not found or the API cannot say."""
        return None

    def error(self, exc: Exception, what: str) -> ProviderError:
        """A failed call of the batch API as one line naming the model and what was being done."""
        if isinstance(exc, ProviderError):
            return exc
        mapped = self.provider.map_error(exc, 120.0)
        text = str(mapped).removeprefix(f"{self.label}: ")
        error = ProviderError(f"{self.label}: {what}: {text}", retriable=mapped.retriable)
        return error


#: every batch API by name (:attr:`~probe_ui.providers.base.Provider.batch_api`): this module's and
#: :mod:`probe_ui.providers.gemini_batch`'s, found by walking the package, as every registry finds its entries
APIS: Registry[type[BatchAPI]] = Registry("batch API", packages=("probe_ui.providers",),
                                         only=("batch_api", "gemini_batch"))


@APIS.put
class OpenAIBatches(BatchAPI):
    """OpenAI's Batch API: ``POST /v1/files`` (purpose ``batch``), ``POST /v1/batches`` for
    ``/v1/chat/completions``, ``GET /v1/batches/{id}``, ``GET /v1/files/{id}/content``."""

    name = "openai"
    words = "OpenAI Batch API"
    max_requests = 50_000
    max_bytes = 190 * 1024 * 1024  # the API takes 200 MB
    ENDPOINT = "/v1/chat/completions"
    #: a request's error code that means it was never answered (the batch expired or was cancelled first)
    NOT_ANSWERED = ("batch_expired", "batch_cancelled")

    def line(self, custom_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"custom_id": custom_id, "method": "POST", "url": self.ENDPOINT, "body": body}

    async def submit(self, lines: Path, metadata: dict[str, str]) -> str:
        try:
            with lines.open("rb") as f:
                uploaded = await self.client.files.create(file=(lines.name, f, "application/jsonl"),
                                                          purpose="batch", timeout=900.0)
        except Exception as exc:  # noqa: BLE001 - named in one line
            raise self.error(exc, "uploading the batch file failed") from None
        try:
            batch = await self.client.batches.create(input_file_id=uploaded.id, endpoint=self.ENDPOINT,
                                                     completion_window="24h", metadata=metadata)
        except Exception as exc:  # noqa: BLE001
            error = self.error(exc, "creating the batch failed")
            try:  # the uploaded file would stay in the account's storage with nothing to use it
                await self.client.files.delete(uploaded.id)
            except Exception as gone:  # noqa: BLE001 - the creation's failure is what the user needs to read
                log.warning("%s: the uploaded batch file %s could not be deleted: %s", self.label, uploaded.id, gone)
            raise error from None
        return str(batch.id)

    async def find(self, token: str) -> str | None:
        """The id of a recent batch created with ``probe_ui_batch: token`` in its metadata, or None."""
        try:
            page = await self.client.batches.list(limit=100)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, "listing the batches failed") from None
        for b in getattr(page, "data", None) or []:
            if (getattr(b, "metadata", None) or {}).get("probe_ui_batch") == token:
                return str(b.id)
        return None

    async def state(self, batch_id: str) -> BatchState:
        try:
            b = await self.client.batches.retrieve(batch_id)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, f"reading batch {batch_id} failed") from None
        rc = b.request_counts
        total, done, failed = (getattr(rc, "total", 0) or 0, getattr(rc, "completed", 0) or 0,
                               getattr(rc, "failed", 0) or 0)
        status = str(b.status)
        problem = None
        if status == "failed":
            errors = getattr(getattr(b, "errors", None), "data", None) or []
            first = errors[0] if errors else None
            why = getattr(first, "message", None) or getattr(first, "code", None) or "no reason given"
            problem = f"failed ({why})"
        elif status == "expired":
            problem = "expired (not finished within its 24 h window)"
        elif status == "cancelled":
            problem = "was cancelled"
        return BatchState(batch_id, status, status in ("completed", "failed", "expired", "cancelled"),
                          {"total": total, "done": done, "failed": failed}, problem,
                          {"output_file_id": b.output_file_id, "error_file_id": b.error_file_id})

    async def results(self, state: BatchState) -> AsyncIterator[Outcome]:  # type: ignore[override]
        for key in ("output_file_id", "error_file_id"):
            file_id = state.refs.get(key)
            if not file_id:
                continue
            try:
                content = await self.client.files.content(file_id)
                text = content.text
            except Exception as exc:  # noqa: BLE001
                raise self.error(exc, f"reading the results of batch {state.id} failed") from None
            for raw in text.splitlines():
                if raw.strip():
                    yield self._outcome(raw)

    def _outcome(self, raw: str) -> Outcome:
        try:
            line = json.loads(raw)
            custom_id = str(line["custom_id"])
        except (ValueError, KeyError, TypeError):
            return Outcome("", error="a result line that is not JSON with a custom_id")
        error = line.get("error")
        if isinstance(error, dict) and error:
            if error.get("code") in self.NOT_ANSWERED:
                return Outcome(custom_id)
            text = f"{error.get('code') or 'error'}: {error.get('message') or ''}".strip().rstrip(":")
            return Outcome(custom_id, error=self.provider.clipped(text, 300))
        response = line.get("response") if isinstance(line.get("response"), dict) else {}
        status, body = response.get("status_code"), response.get("body")
        if status == 200 and isinstance(body, dict):
            return Outcome(custom_id, reply=body)
        detail = ""
        if isinstance(body, dict):
            err = body.get("error")
            detail = err.get("message", "") if isinstance(err, dict) else str(err or "")
        if isinstance(status, int):
            detail = self.provider.clipped(detail) if detail else ""
            return Outcome(custom_id, error=status_message(status, "", detail)[0])
        return Outcome(custom_id, error="malformed response: a result line without a reply")

    async def cancel(self, batch_id: str) -> None:
        try:
            await self.client.batches.cancel(batch_id)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, f"cancelling batch {batch_id} failed") from None


@APIS.put
class AnthropicBatches(BatchAPI):
    """Anthropic's Message Batches: ``POST /v1/messages/batches`` (the requests in the body),
    ``GET /v1/messages/batches/{id}``, its ``results_url`` (JSONL)."""

    name = "anthropic"
    words = "Anthropic Message Batches"
    max_requests = 100_000
    max_bytes = 240 * 1024 * 1024  # the API takes 256 MB

    def line(self, custom_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return {"custom_id": custom_id, "params": body}

    async def submit(self, lines: Path, metadata: dict[str, str]) -> str:
        with lines.open("rb") as f:
            requests = [json.loads(raw) for raw in f if raw.strip()]
        try:
            # the requests travel as given (extra_body): the SDK's type-directed walk over every part would cost
            # about 5 ms a request with an image, for JSON that is already what the API takes
            batch = await self.client.messages.batches.create(requests=[], extra_body={"requests": requests},
                                                              timeout=900.0)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, "creating the batch failed") from None
        return str(batch.id)

    async def state(self, batch_id: str) -> BatchState:
        try:
            b = await self.client.messages.batches.retrieve(batch_id)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, f"reading batch {batch_id} failed") from None
        rc = b.request_counts
        counts = {k: int(getattr(rc, k, 0) or 0) for k in ("processing", "succeeded", "errored", "canceled",
                                                            "expired")}
        total = sum(counts.values())
        status = str(b.processing_status)
        problem = None
        if counts["expired"]:
            problem = f"expired for {counts['expired']} of its {total} requests (not finished within 24 h)"
        elif counts["canceled"] or getattr(b, "cancel_initiated_at", None):
            problem = "was cancelled"
        return BatchState(batch_id, status, status == "ended",
                          {"total": total, "done": counts["succeeded"] + counts["errored"], "failed": counts["errored"],
                           "expired": counts["expired"], "cancelled": counts["canceled"]}, problem)

    async def results(self, state: BatchState) -> AsyncIterator[Outcome]:  # type: ignore[override]
        try:
            entries = await self.client.messages.batches.results(state.id)
            async for entry in entries:
                yield self._outcome(entry)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, f"reading the results of batch {state.id} failed") from None

    def _outcome(self, entry: Any) -> Outcome:
        custom_id = str(getattr(entry, "custom_id", "") or "")
        result = getattr(entry, "result", None)
        kind = getattr(result, "type", None)
        if kind == "succeeded":
            return Outcome(custom_id, reply=result.message)  # type: ignore[union-attr]
        if kind == "errored":
            err = getattr(getattr(result, "error", None), "error", None)
            kind_, message = getattr(err, "type", None) or "error", getattr(err, "message", None) or ""
            return Outcome(custom_id, error=self.provider.clipped(f"{kind_}: {message}".strip().rstrip(":"), 300))
        if kind in ("canceled", "expired"):
            return Outcome(custom_id)
        return Outcome(custom_id, error=f"malformed response: a result of type {kind!r}")

    async def cancel(self, batch_id: str) -> None:
        try:
            await self.client.messages.batches.cancel(batch_id)
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc, f"cancelling batch {batch_id} failed") from None


def for_provider(provider: SDKProvider) -> BatchAPI:
    """The batch API of a model's provider (:func:`batch_api_of` said it has one)."""
    cls = APIS.find(type(provider).batch_api or "")
    if cls is None:
        raise ProviderError(f"{provider.label}: its provider has no batch API that probe-ui speaks")
    return cls(provider)


def price_factor(api: str) -> float:
    """How much of the catalogue price a call through batch API ``api`` costs (1.0 for an API not known here)."""
    cls = APIS.find(api)
    return cls.price_factor if cls is not None else 1.0


def api_words(api: str) -> str:
    """What batch API ``api`` is called in messages (its name, for one not known here)."""
    cls = APIS.find(api)
    return cls.words if cls is not None else api


__all__ = ["APIS", "AnthropicBatches", "BatchAPI", "BatchState", "OpenAIBatches", "Outcome", "api_words",
           "batch_api_of", "for_provider", "price_factor"]
