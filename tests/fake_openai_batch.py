"""A loopback server with OpenAI's Batch API, for offline tests of ``batch --provider-batch`` (issue 50).

:class:`FakeOpenAIBatchServer` is the chat-completions fake (tests/fake_openai.py) plus the Batch endpoints the
``openai`` SDK calls: ``POST /v1/files`` (multipart, ``purpose=batch``), ``POST /v1/batches`` (for
``/v1/chat/completions``), ``GET /v1/batches`` and ``GET /v1/batches/{id}``, ``POST /v1/batches/{id}/cancel`` and
``GET /v1/files/{id}/content``. A batch is ``validating`` at its first look, ``in_progress`` for the next
:attr:`~FakeOpenAIBatchServer.polls_to_finish` - 1 looks (its ``request_counts`` growing), then ends as
:attr:`~FakeOpenAIBatchServer.end_as` says: ``completed`` (every line answered as the chat-completions fake answers
the same body: its scripted answers, responder or default answer), ``failed`` (no output), ``expired`` or
``cancelled`` (the first half answered, the rest ``batch_expired`` / ``batch_cancelled`` in the error file). A line
whose body the live endpoint would refuse, or that :attr:`~FakeOpenAIBatchServer.fail_when` picks, is an
error line (HTTP 400) in the error file. ``hold = True`` keeps every batch ``in_progress`` until it is set back.

:class:`BatchJob` (a batch's life by looks) is shared with tests/fake_anthropic_batch.py.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

import pytest
from fake_openai import FakeOpenAIServer, RecordedRequest, _Handler, _invalid_response_format, loopback_no_proxy


@dataclass
class BatchJob:
    """One batch: its lines (custom_id, body), how many looks it has had, and how it ends."""

    id: str
    lines: list[tuple[str, dict[str, Any]]]
    end_as: str
    polls_to_finish: int
    created_at: float = field(default_factory=time.time)
    polls: int = 0
    cancelling: bool = False
    status: str = "validating"
    #: custom_id -> (HTTP status, body) once ended; an answered line has status 200 and a reply
    results: dict[str, tuple[int, dict[str, Any]]] | None = None
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def ended(self) -> bool:
        return self.results is not None

    def look(self, hold: bool, answer: Callable[[str, dict[str, Any]], tuple[int, dict[str, Any]]]) -> None:
        """One look at the batch: it moves on, and ends (answering its lines) when its time has come."""
        if self.ended:
            return
        self.polls += 1
        end = "cancelled" if self.cancelling else self.end_as
        if not self.cancelling and (hold or self.polls < self.polls_to_finish):
            self.status = "validating" if self.polls == 1 else "in_progress"
            return
        self.status = end
        self.results = {}
        if end == "failed":
            return
        answered = self.lines if end == "completed" else self.lines[: len(self.lines) // 2]
        for cid, body in answered:
            self.results[cid] = answer(cid, body)

    def done(self) -> int:
        if self.results is not None:
            return sum(1 for s, _ in self.results.values() if s == 200)
        if self.status == "in_progress":
            return min(len(self.lines) - 1, (self.polls - 1) * len(self.lines) // max(1, self.polls_to_finish))
        return 0


class BatchControls:
    """What a test sets on a batch fake, and the batches it holds: one home for the OpenAI and Anthropic fakes
    (mixed into a loopback server class, whose ``requests`` it reads)."""

    #: the path whose POST creates a batch
    creations_path = ""
    requests: list[RecordedRequest]

    def init_batches(self) -> None:
        #: looks until a batch ends (1: its first look sees it ended)
        self.polls_to_finish = 3
        #: how a batch ends: completed, failed, expired or cancelled
        self.end_as = "completed"
        #: keep every batch in progress while True
        self.hold = False
        #: ``(custom_id, body) -> bool``: the lines answered with an error line (HTTP 400) instead of a reply
        self.fail_when: Callable[[str, dict[str, Any]], bool] | None = None
        self.batches: dict[str, BatchJob] = {}

    @property
    def batch_creations(self) -> list[RecordedRequest]:
        """Every POST that created a batch."""
        return [r for r in self.requests
                if r.method == "POST" and r.path.split("?")[0].rstrip("/") == self.creations_path]

    @property
    def batch_bodies(self) -> dict[str, dict[str, Any]]:
        """Every line of every batch, custom_id -> the request body it carries."""
        return {cid: body for job in self.batches.values() for cid, body in job.lines}


class FakeOpenAIBatchServer(BatchControls, FakeOpenAIServer):
    """The chat-completions fake with OpenAI's Batch API (module doc)."""

    thread_name = "fake-openai-batch"
    creations_path = "/v1/batches"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.init_batches()
        #: file id -> (purpose, file name, bytes)
        self.files: dict[str, tuple[str, str, bytes]] = {}
        #: refuse every batch creation (HTTP 400), as a provider refusing the upload's contents would
        self.refuse_creation = False
        self._ids = 0
        self._batch_lock = threading.Lock()

    def new_id(self, prefix: str) -> str:
        with self._batch_lock:
            self._ids += 1
            return f"{prefix}{self._ids}"

class _BatchHandler(_Handler):
    fake: FakeOpenAIBatchServer

    def do_GET(self) -> None:  # noqa: N802
        route = self.route
        if not (route == "/v1/batches" or route.startswith("/v1/batches/") or
                (route.startswith("/v1/files/") and route.endswith("/content"))):
            super().do_GET()
            return
        self.fake._log(self._read("GET"))
        if route == "/v1/batches":
            data = [self._batch_json(j) for j in reversed(list(self.fake.batches.values()))]
            self._send_json(200, {"object": "list", "data": data, "has_more": False,
                                  "first_id": data[0]["id"] if data else None,
                                  "last_id": data[-1]["id"] if data else None})
        elif route.startswith("/v1/batches/"):
            job = self.fake.batches.get(route.split("/")[3])
            if job is None:
                self._send_json(404, {"error": {"message": "no such batch", "type": "invalid_request_error"}})
                return
            with self.fake._batch_lock:
                job.look(self.fake.hold, self._answer)
            self._send_json(200, self._batch_json(job))
        else:
            found = self.fake.files.get(route.split("/")[3])
            if found is None:
                self._send_json(404, {"error": {"message": "no such file", "type": "invalid_request_error"}})
                return
            self._send_raw(200, found[2], "application/octet-stream")

    def do_POST(self) -> None:  # noqa: N802
        route = self.route
        if route == "/v1/files":
            self._upload()
        elif route == "/v1/batches":
            req = self._read("POST")
            self.fake._log(req)
            self._create(req.body)
        elif route.startswith("/v1/batches/") and route.endswith("/cancel"):
            self.fake._log(self._read("POST"))
            job = self.fake.batches.get(route.split("/")[3])
            if job is None:
                self._send_json(404, {"error": {"message": "no such batch", "type": "invalid_request_error"}})
                return
            job.cancelling = True
            job.status = "cancelling" if not job.ended else job.status
            self._send_json(200, self._batch_json(job))
        else:
            super().do_POST()

    # ---- files -----------------------------------------------------------------------------------------------
    def _upload(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.fake._log(RecordedRequest("POST", self.path, headers, None, time.monotonic()))
        message = BytesParser(policy=HTTP).parsebytes(
            f"Content-Type: {self.headers.get('content-type')}\r\n\r\n".encode() + raw)
        fields: dict[str, tuple[str | None, bytes]] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            fields[str(name)] = (part.get_filename(), part.get_payload(decode=True) or b"")
        purpose = fields.get("purpose", (None, b""))[1].decode()
        if "file" not in fields or purpose != "batch":
            self._send_json(400, {"error": {"message": "a file with purpose 'batch' is needed",
                                            "type": "invalid_request_error"}})
            return
        filename, data = fields["file"]
        file_id = self.fake.new_id("file-")
        self.fake.files[file_id] = (purpose, filename or "upload.jsonl", data)
        self._send_json(200, {"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                              "filename": filename or "upload.jsonl", "purpose": purpose, "status": "processed"})

    def _result_file(self, job: BatchJob, errors: bool) -> str | None:
        """The output (or error) file of an ended batch, made on first use."""
        key = f"file-{job.id}-{'errors' if errors else 'output'}"
        if key not in self.fake.files:
            lines = []
            for cid, _body in job.lines:
                found = (job.results or {}).get(cid)
                if found is None:
                    if errors and job.status in ("expired", "cancelled"):
                        code = "batch_expired" if job.status == "expired" else "batch_cancelled"
                        lines.append({"id": f"batch_req_{cid}", "custom_id": cid, "response": None,
                                      "error": {"code": code, "message": "This request could not be executed."}})
                    continue
                status, body = found
                if (status == 200) != errors:
                    lines.append({"id": f"batch_req_{cid}", "custom_id": cid,
                                  "response": {"status_code": status, "request_id": f"req_{cid}", "body": body},
                                  "error": None})
            if not lines:
                return None
            data = "".join(json.dumps(line) + "\n" for line in lines).encode()
            self.fake.files[key] = ("batch_output", f"{key}.jsonl", data)
        return key

    # ---- batches ---------------------------------------------------------------------------------------------
    def do_DELETE(self) -> None:  # noqa: N802
        route = self.route
        self.fake._log(self._read("DELETE"))
        if route.startswith("/v1/files/") and self.fake.files.pop(route.split("/")[3], None) is not None:
            self._send_json(200, {"id": route.split("/")[3], "object": "file", "deleted": True})
            return
        self._send_json(404, {"error": {"message": "no such file", "type": "invalid_request_error"}})

    def _create(self, body: Any) -> None:
        fake = self.fake
        if fake.refuse_creation:
            self._send_json(400, {"error": {"message": "this batch cannot be created",
                                            "type": "invalid_request_error"}})
            return
        if not isinstance(body, dict) or body.get("endpoint") != "/v1/chat/completions" or \
                body.get("completion_window") != "24h" or body.get("input_file_id") not in fake.files:
            self._send_json(400, {"error": {"message": "a batch needs an uploaded input_file_id, endpoint "
                                                       "/v1/chat/completions and completion_window 24h",
                                            "type": "invalid_request_error"}})
            return
        lines: list[tuple[str, dict[str, Any]]] = []
        for raw in fake.files[body["input_file_id"]][2].decode().splitlines():
            if not raw.strip():
                continue
            line = json.loads(raw)
            if line.get("method") != "POST" or line.get("url") != "/v1/chat/completions" or \
                    not isinstance(line.get("body"), dict):
                self._send_json(400, {"error": {"message": "every line needs method POST, url "
                                                           "/v1/chat/completions and a body",
                                                "type": "invalid_request_error"}})
                return
            lines.append((str(line["custom_id"]), line["body"]))
        if len({cid for cid, _ in lines}) != len(lines):
            self._send_json(400, {"error": {"message": "custom_id values must be unique",
                                            "type": "invalid_request_error"}})
            return
        job = BatchJob(fake.new_id("batch_"), lines, fake.end_as, fake.polls_to_finish,
                       metadata=dict(body.get("metadata") or {}))
        fake.batches[job.id] = job
        self._send_json(200, self._batch_json(job))

    def _answer(self, cid: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """One line answered as the live endpoint answers the same body (or refuses it)."""
        problem = _invalid_response_format(body.get("response_format"))
        if not problem and not isinstance(body.get("messages"), list):
            problem = "request body must be JSON with 'messages'"
        if not problem and body.get("stream"):
            problem = "stream is not allowed in a batch"
        if not problem and self.fake.fail_when is not None and self.fake.fail_when(cid, body):
            problem = "fake error for this request"
        if problem:
            return 400, {"error": {"message": problem, "type": "invalid_request_error"}}
        with self.fake._lock:
            scripted = self.fake.answers.popleft() if self.fake.answers else None
        return 200, self._completion(body, self.fake._answer_for(body, scripted))

    def _batch_json(self, job: BatchJob) -> dict[str, Any]:
        ended = job.ended
        failed = sum(1 for s, _ in (job.results or {}).values() if s != 200)
        out = {
            "id": job.id, "object": "batch", "endpoint": "/v1/chat/completions", "errors": None,
            "input_file_id": "file-input", "completion_window": "24h", "status": job.status,
            "output_file_id": self._result_file(job, False) if ended else None,
            "error_file_id": self._result_file(job, True) if ended else None,
            "created_at": int(job.created_at), "metadata": job.metadata or None,
            "request_counts": {"total": len(job.lines), "completed": job.done(), "failed": failed},
        }
        if job.status == "failed":
            out["errors"] = {"object": "list", "data": [{"code": "invalid_request", "message": "fake failure",
                                                         "line": None, "param": None}]}
        return out


FakeOpenAIBatchServer.handler_class = _BatchHandler


@pytest.fixture
def fake_openai_batch(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIBatchServer]:
    """A running :class:`FakeOpenAIBatchServer`; stopped after the test."""
    loopback_no_proxy(monkeypatch)
    with FakeOpenAIBatchServer() as server:
        yield server
