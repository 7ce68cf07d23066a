"""A loopback server with Anthropic's Message Batches, for offline tests of ``batch --provider-batch`` (issue 50).

:class:`FakeAnthropicBatchServer` is the Messages fake (tests/fake_anthropic.py) plus the endpoints the
``anthropic`` SDK calls for a batch: ``POST /v1/messages/batches`` (the requests in the body), ``GET
/v1/messages/batches/{id}``, ``POST /v1/messages/batches/{id}/cancel`` and the batch's ``results_url``
(``GET /v1/messages/batches/{id}/results``, JSONL). A batch is ``in_progress`` until its
:attr:`~FakeAnthropicBatchServer.polls_to_finish`-th look, then ``ended``: every request answered as the live
endpoint answers the same params (``succeeded``), or refused as it would refuse them (``errored``, as are those
:attr:`~FakeAnthropicBatchServer.fail_when` picks); with ``end_as`` "expired" or "cancelled" the second half is
``expired`` / ``canceled``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest
from fake_anthropic import FakeAnthropicServer, _error, _Handler, _invalid
from fake_openai import loopback_no_proxy
from fake_openai_batch import BatchControls, BatchJob


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat().replace("+00:00", "Z")


class FakeAnthropicBatchServer(BatchControls, FakeAnthropicServer):
    """The Messages fake with Message Batches (module doc)."""

    thread_name = "fake-anthropic-batch"
    creations_path = "/v1/messages/batches"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.init_batches()


class _BatchHandler(_Handler):
    fake: FakeAnthropicBatchServer

    def do_GET(self) -> None:  # noqa: N802
        route = self.route
        if not route.startswith("/v1/messages/batches/"):
            super().do_GET()
            return
        req = self._read("GET")
        self.fake._log(req)
        parts = route.split("/")
        job = self.fake.batches.get(parts[4])
        if job is None or "anthropic-version" not in req.headers:
            self._send_json(404 if job is None else 400, _error(404 if job is None else 400, "no such batch"))
            return
        if len(parts) == 6 and parts[5] == "results":
            if not job.ended:
                self._send_json(400, _error(400, "the batch has not ended"))
                return
            data = "".join(json.dumps(line) + "\n" for line in self._results(job)).encode()
            self._send_raw(200, data, "application/binary")
            return
        job.look(self.fake.hold, lambda cid, params: self._answer(cid, params, job.metadata["version"]))
        self._send_json(200, self._batch_json(job))

    def do_POST(self) -> None:  # noqa: N802
        route = self.route
        if route == "/v1/messages/batches":
            req = self._read("POST")
            self.fake._log(req)
            self._create(req.body, req.headers)
        elif route.startswith("/v1/messages/batches/") and route.endswith("/cancel"):
            self.fake._log(self._read("POST"))
            job = self.fake.batches.get(route.split("/")[4])
            if job is None:
                self._send_json(404, _error(404, "no such batch"))
                return
            job.cancelling = True
            self._send_json(200, self._batch_json(job))
        else:
            super().do_POST()

    def _create(self, body: Any, headers: dict[str, str]) -> None:
        requests = body.get("requests") if isinstance(body, dict) else None
        if "anthropic-version" not in headers or not isinstance(requests, list) or not requests or \
                not all(isinstance(r, dict) and isinstance(r.get("params"), dict) and r.get("custom_id")
                        for r in requests):
            self._send_json(400, _error(400, "requests: a list of {custom_id, params} is required"))
            return
        ids = [str(r["custom_id"]) for r in requests]
        if len(set(ids)) != len(ids):
            self._send_json(400, _error(400, "custom_id values must be unique"))
            return
        job = BatchJob(f"msgbatch_{len(self.fake.batches) + 1}", [(str(r["custom_id"]), r["params"])
                                                               for r in requests], self.fake.end_as,
                       self.fake.polls_to_finish)
        job.metadata["version"] = headers["anthropic-version"]
        self.fake.batches[job.id] = job
        self._send_json(200, self._batch_json(job))

    def _answer(self, cid: str, params: dict[str, Any], version: str) -> tuple[int, dict[str, Any]]:
        """One request answered as the live endpoint answers the same params under the batch's API version."""
        problem = _invalid(params, version)
        if not problem and params.get("stream"):
            problem = "stream: not allowed in a batch"
        if not problem and self.fake.fail_when is not None and self.fake.fail_when(cid, params):
            problem = "fake error for this request"
        if problem:
            return 400, _error(400, problem)
        with self.fake._lock:
            scripted = self.fake.answers.popleft() if self.fake.answers else None
        return 200, self._message(params, self.fake._answer_for(params, scripted))

    def _results(self, job: BatchJob) -> list[dict[str, Any]]:
        out = []
        for cid, _params in job.lines:
            found = (job.results or {}).get(cid)
            if found is None:
                kind = "canceled" if job.status == "cancelled" else "expired"
                out.append({"custom_id": cid, "result": {"type": kind}})
            elif found[0] == 200:
                out.append({"custom_id": cid, "result": {"type": "succeeded", "message": found[1]}})
            else:
                out.append({"custom_id": cid, "result": {"type": "errored", "error": found[1]}})
        return out

    def _batch_json(self, job: BatchJob) -> dict[str, Any]:
        results = job.results or {}
        n = len(job.lines)
        succeeded = sum(1 for s, _ in results.values() if s == 200)
        errored = sum(1 for s, _ in results.values() if s != 200)
        rest = n - succeeded - errored
        counts = {"processing": 0 if job.ended else n, "succeeded": succeeded, "errored": errored,
                  "canceled": rest if job.ended and job.status == "cancelled" else 0,
                  "expired": rest if job.ended and job.status != "cancelled" else 0}
        return {"id": job.id, "type": "message_batch",
                "processing_status": "ended" if job.ended else ("canceling" if job.cancelling else "in_progress"),
                "request_counts": counts, "created_at": _iso(job.created_at),
                "expires_at": _iso(job.created_at + 86400), "ended_at": _iso(time.time()) if job.ended else None,
                "cancel_initiated_at": _iso(time.time()) if job.cancelling else None, "archived_at": None,
                "results_url": f"{self.fake.root_url}/v1/messages/batches/{job.id}/results" if job.ended else None}


FakeAnthropicBatchServer.handler_class = _BatchHandler


@pytest.fixture
def fake_anthropic_batch(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropicBatchServer]:
    """A running :class:`FakeAnthropicBatchServer`; stopped after the test."""
    loopback_no_proxy(monkeypatch)
    with FakeAnthropicBatchServer() as server:
        yield server
