"""A loopback server with Gemini's batch mode, for offline tests of ``batch --provider-batch`` (issue 50).

:class:`FakeGeminiBatchServer` is the chat-completions fake (tests/fake_openai.py) under Google's
OpenAI-compatible path (``/v1beta/openai/chat/completions``, the live calls) plus the Gemini API's own batch
endpoints, each answered only with the right ``x-goog-api-key`` (else 401, as the API answers a bad key):
``POST /v1beta/models/{model}:batchGenerateContent`` (the requests inline: ``{"batch": {"displayName",
"inputConfig": {"requests": {"requests": [{"request", "metadata": {"key"}}]}}}}``), ``GET /v1beta/batches/{id}``
and ``GET /v1beta/batches`` (long-running operations whose ``metadata`` is the batch: ``state``, ``batchStats``,
``output``), ``POST /v1beta/batches/{id}:cancel`` and ``GET /download/v1beta/files/{id}:download?alt=media``.

A batch is ``BATCH_STATE_PENDING`` at its first look, ``RUNNING`` until its :attr:`polls_to_finish`-th, then ends as
:attr:`end_as` says (the life of :class:`~fake_openai_batch.BatchJob`): each request answered as the live endpoint
answers the same request (the fake turns the GenerateContentRequest back into the chat body for the responder and
the token counts), or refused (an ``error`` status) where it is not a valid GenerateContentRequest or
:attr:`fail_when` picks it. Results come inline, or with ``output_as_file`` as a responses file.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest
from fake_openai import FakeOpenAIServer, RecordedRequest, _Handler, count_words, loopback_no_proxy, prompt_tokens
from fake_openai_batch import BatchControls, BatchJob

#: the key the fake takes
GEMINI_KEY = "gm-test-not-a-real-key-4f9a2c"
STATES = {"validating": "BATCH_STATE_PENDING", "in_progress": "BATCH_STATE_RUNNING", "completed":
          "BATCH_STATE_SUCCEEDED", "failed": "BATCH_STATE_FAILED", "expired": "BATCH_STATE_EXPIRED",
          "cancelled": "BATCH_STATE_CANCELLED"}
REQUEST_FIELDS = {"contents", "systemInstruction", "generationConfig", "safetySettings", "tools", "toolConfig",
                  "cachedContent"}
CONFIG_FIELDS = {"temperature", "maxOutputTokens", "topP", "topK", "seed", "candidateCount", "responseMimeType",
                 "responseJsonSchema", "responseSchema", "responseLogprobs", "logprobs", "stopSequences",
                 "thinkingConfig", "presencePenalty", "frequencyPenalty"}


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat().replace("+00:00", "Z")


def invalid(request: Any) -> str | None:
    """What the API refuses in a GenerateContentRequest (the fields it knows, in its JSON names)."""
    if not isinstance(request, dict):
        return "request: must be a GenerateContentRequest"
    unknown = sorted(set(request) - REQUEST_FIELDS)
    if unknown:
        return f'Invalid JSON payload received. Unknown name "{unknown[0]}"'
    contents = request.get("contents")
    if not isinstance(contents, list) or not contents:
        return "contents: must not be empty"
    for c in contents:
        if c.get("role") not in ("user", "model") or not isinstance(c.get("parts"), list) or not c["parts"]:
            return "contents[]: needs a role (user, model) and parts"
        for p in c["parts"]:
            if len(p) != 1 or not ({"text", "inlineData"} & set(p)):
                return "parts[]: one of text, inlineData"
            if "inlineData" in p:
                blob = p["inlineData"]
                if set(blob) != {"mimeType", "data"}:
                    return "inlineData: mimeType and data"
                try:
                    base64.b64decode(blob["data"], validate=True)
                except (binascii.Error, ValueError):
                    return "inlineData.data: not base64"
    config = request.get("generationConfig") or {}
    unknown = sorted(set(config) - CONFIG_FIELDS)
    if unknown:
        return f'Invalid JSON payload received. Unknown name "{unknown[0]}" at \'generation_config\''
    if "responseJsonSchema" in config and config.get("responseMimeType") != "application/json":
        return "responseJsonSchema needs responseMimeType application/json"
    return None


def chat_body(request: dict[str, Any], model: str) -> dict[str, Any]:
    """A GenerateContentRequest as the chat body the live endpoint would have had (for the responder and tokens)."""
    messages: list[dict[str, Any]] = []
    system = request.get("systemInstruction")
    if system:
        messages.append({"role": "system", "content": "".join(p.get("text", "") for p in system["parts"])})
    for c in request["contents"]:
        if c["role"] == "model":
            messages.append({"role": "assistant", "content": "".join(p.get("text", "") for p in c["parts"])})
            continue
        parts = []
        for p in c["parts"]:
            if "text" in p:
                parts.append({"type": "text", "text": p["text"]})
            else:
                blob = p["inlineData"]
                parts.append({"type": "image_url", "image_url": {"url": f"data:{blob['mimeType']};base64,"
                                                                         f"{blob['data']}"}})
        messages.append({"role": "user", "content": parts})
    config = request.get("generationConfig") or {}
    body: dict[str, Any] = {"model": model, "messages": messages}
    for theirs, ours in (("temperature", "temperature"), ("maxOutputTokens", "max_tokens"), ("topP", "top_p"),
                         ("seed", "seed")):
        if theirs in config:
            body[ours] = config[theirs]
    return body


class FakeGeminiBatchServer(BatchControls, FakeOpenAIServer):
    """The chat-completions fake under ``/v1beta/openai/`` with Gemini's batch mode (module doc)."""

    thread_name = "fake-gemini-batch"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.init_batches()
        #: results as a responses file (``output.responsesFile``) instead of inline
        self.output_as_file = False
        #: file name -> bytes
        self.files: dict[str, bytes] = {}
        #: batch id -> its display name
        self.names: dict[str, str] = {}
        self._batch_lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """What a catalogue entry of provider ``gemini`` gives as ``base_url`` (the OpenAI-compatible path)."""
        return f"http://127.0.0.1:{self.port}/v1beta/openai/"

    @property
    def batch_creations(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "POST" and r.path.endswith(":batchGenerateContent")]

    @property
    def native_requests(self) -> list[RecordedRequest]:
        """Every request to the native endpoints (not the OpenAI-compatible ones the live calls use)."""
        return [r for r in self.requests if not r.path.startswith("/v1beta/openai/")]


class _GeminiHandler(_Handler):
    fake: FakeGeminiBatchServer

    def _native(self) -> bool:
        return self.route.startswith(("/v1beta/batches", "/v1beta/models/", "/download/"))

    def _refuse_key(self, req: RecordedRequest) -> bool:
        if req.headers.get("x-goog-api-key") == GEMINI_KEY:
            return False
        self._send_json(401, {"error": {"code": 401, "message": "API key not valid. Please pass a valid API key.",
                                        "status": "UNAUTHENTICATED"}})
        return True

    def _not_found(self) -> None:
        self._send_json(404, {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}})

    def do_GET(self) -> None:  # noqa: N802
        if not self._native():
            super().do_GET()
            return
        req = self._read("GET")
        self.fake._log(req)
        if self._refuse_key(req):
            return
        route = self.route
        if route == "/v1beta/batches":
            ops = [self._operation(j) for j in reversed(list(self.fake.batches.values()))]
            self._send_json(200, {"operations": ops})
        elif route.startswith("/v1beta/batches/"):
            job = self.fake.batches.get(route.removeprefix("/v1beta/"))
            if job is None:
                self._not_found()
                return
            with self.fake._batch_lock:
                job.look(self.fake.hold, lambda cid, request: self._answer(cid, request, job))
            self._send_json(200, self._operation(job))
        elif route.startswith("/download/v1beta/") and route.endswith(":download") and "alt=media" in self.path:
            data = self.fake.files.get(route.removeprefix("/download/v1beta/").removesuffix(":download"))
            if data is None:
                self._not_found()
                return
            self._send_raw(200, data, "application/octet-stream")
        else:
            self._not_found()

    def do_POST(self) -> None:  # noqa: N802
        if not self._native():
            super().do_POST()
            return
        req = self._read("POST")
        self.fake._log(req)
        if self._refuse_key(req):
            return
        route = self.route
        if route.startswith("/v1beta/models/") and route.endswith(":batchGenerateContent"):
            self._create(route.removeprefix("/v1beta/").removesuffix(":batchGenerateContent"), req.body)
        elif route.startswith("/v1beta/batches/") and route.endswith(":cancel"):
            job = self.fake.batches.get(route.removeprefix("/v1beta/").removesuffix(":cancel"))
            if job is None:
                self._not_found()
                return
            job.cancelling = True
            self._send_json(200, {})
        else:
            self._not_found()

    def _create(self, model: str, body: Any) -> None:
        batch = body.get("batch") if isinstance(body, dict) else None
        items = (((batch or {}).get("inputConfig") or {}).get("requests") or {}).get("requests")
        if not isinstance(batch, dict) or not batch.get("displayName") or not isinstance(items, list) or not items \
                or not all(isinstance(i, dict) and isinstance(i.get("request"), dict) and
                           isinstance((i.get("metadata") or {}).get("key"), str) for i in items):
            self._send_json(400, {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message":
                                            "batch: needs a displayName and inputConfig.requests.requests[] of "
                                            "{request, metadata: {key}}"}})
            return
        keys = [i["metadata"]["key"] for i in items]
        if len(set(keys)) != len(keys):
            self._send_json(400, {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "duplicate keys"}})
            return
        job = BatchJob(f"batches/fake{len(self.fake.batches) + 1}", [(i["metadata"]["key"], i["request"])
                                                                   for i in items],
                       self.fake.end_as, self.fake.polls_to_finish, metadata={"model": model})
        self.fake.names[job.id] = batch["displayName"]
        self.fake.batches[job.id] = job
        self._send_json(200, self._operation(job))

    def _answer(self, cid: str, request: dict[str, Any], job: BatchJob) -> tuple[int, dict[str, Any]]:
        problem = invalid(request)
        if not problem and self.fake.fail_when is not None and self.fake.fail_when(cid, request):
            problem = "fake error for this request"
        if problem:
            return 400, {"code": 3, "message": problem, "details": []}
        body = chat_body(request, job.metadata["model"].removeprefix("models/"))
        with self.fake._lock:
            scripted = self.fake.answers.popleft() if self.fake.answers else None
        text, finish = self._truncate(body, self.fake._answer_for(body, scripted))
        p, c = prompt_tokens(body), count_words(text)
        return 200, {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"},
                                     "finishReason": "STOP" if finish == "stop" else "MAX_TOKENS", "index": 0}],
                     "usageMetadata": {"promptTokenCount": p, "candidatesTokenCount": c, "totalTokenCount": p + c},
                     "modelVersion": body["model"], "responseId": f"resp-{cid[:12]}"}

    def _entries(self, job: BatchJob) -> list[dict[str, Any]]:
        out = []
        for cid, _request in job.lines:
            found = (job.results or {}).get(cid)
            if found is None:
                continue
            status, body = found
            out.append({"response": body} if status == 200 else {"error": body})
            out[-1]["metadata"] = {"key": cid}
        return out

    def _operation(self, job: BatchJob) -> dict[str, Any]:
        results = job.results or {}
        n, good = len(job.lines), sum(1 for s, _ in results.values() if s == 200)
        bad = len(results) - good
        batch: dict[str, Any] = {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
            "model": job.metadata["model"], "displayName": self.fake.names[job.id],
            "createTime": _iso(job.created_at), "updateTime": _iso(time.time()),
            "batchStats": {"requestCount": str(n), "successfulRequestCount": str(good) if good else None,
                           "failedRequestCount": str(bad) if bad else None,
                           "pendingRequestCount": str(0 if job.ended else n - job.done())},
            "state": STATES["cancelled" if job.cancelling and job.ended else job.status],
        }
        batch["batchStats"] = {k: v for k, v in batch["batchStats"].items() if v is not None}
        op: dict[str, Any] = {"name": job.id, "metadata": batch, "done": job.ended}
        if job.ended and job.status != "failed":
            entries = self._entries(job)
            if self.fake.output_as_file:
                name = f"files/out-{job.id.split('/')[1]}"
                self.fake.files[name] = "".join(json.dumps({"key": e["metadata"]["key"], **{
                    k: v for k, v in e.items() if k != "metadata"}}) + "\n" for e in entries).encode()
                output: dict[str, Any] = {"responsesFile": name}
            else:
                output = {"inlinedResponses": {"inlinedResponses": entries}}
            batch["output"] = output
            op["response"] = {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                                       "GenerateContentBatchOutput", **output}
        if job.status == "failed":
            op["error"] = {"code": 13, "message": "fake failure"}
        return op


FakeGeminiBatchServer.handler_class = _GeminiHandler


@pytest.fixture
def fake_gemini_batch(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGeminiBatchServer]:
    """A running :class:`FakeGeminiBatchServer`; stopped after the test (in ``finally``)."""
    loopback_no_proxy(monkeypatch)
    server = FakeGeminiBatchServer().start()
    try:
        yield server
    finally:
        server.stop()
