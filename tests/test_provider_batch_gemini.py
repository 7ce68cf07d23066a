"""Gemini's batch mode (issue 50, ``batch --provider-batch`` for ``gemini/`` models) against a loopback server that
speaks its REST wire format (tests/fake_gemini_batch.py): every answer arrives and reads as the same preset asked
live through the OpenAI-compatible endpoint, each request carries the item's text and image bytes as a
GenerateContentRequest, the key goes in ``x-goog-api-key`` and nowhere else, a run killed between submit and results
collects the batch without submitting it again (and one killed before its id was stored finds it by its display
name), failed requests become failed cells with a reason, a batch that failed, expired or was cancelled leaves its
cells to ask again, and the price is halved."""

from __future__ import annotations

import base64
import json
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from fake_gemini_batch import GEMINI_KEY, FakeGeminiBatchServer, fake_gemini_batch  # noqa: F401
from helpers import run_cli, stop
from test_provider_batch import PB, SAME, batches, preset, reply, rows, wait_for_pending

from probe_ui.providers.base import ProviderError
from probe_ui.providers.gemini_batch import chat_completion, generate_content_request
from probe_ui.store import Store

N = 6
KEY_ENV = "GEMINI_TEST_KEY"
LABEL = "gemini/gemini-2.5-flash"


def gemini_text(request: dict[str, Any]) -> str:
    """The texts of a GenerateContentRequest's contents (not its system instruction)."""
    return " ".join(p["text"] for c in request["contents"] for p in c["parts"] if "text" in p)


def user_text(body: dict[str, Any]) -> str:
    """The texts of a chat body's user messages."""
    return " ".join(part["text"] for m in body["messages"] if m["role"] == "user" for part in m["content"]
                    if part["type"] == "text")


@pytest.fixture
def gem(fake_gemini_batch: FakeGeminiBatchServer, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> FakeGeminiBatchServer:
    """A catalogue entry ``gem`` (provider gemini) on the loopback server, its key named by the entry, priced."""
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "gem.yaml").write_text(yaml.safe_dump({
        "name": "gem", "provider": "gemini", "model": "gemini-2.5-flash", "base_url": fake_gemini_batch.base_url,
        "api_key_env": KEY_ENV, "price_input_per_m": 1000.0, "price_output_per_m": 1000.0}))
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    monkeypatch.setenv(KEY_ENV, GEMINI_KEY)
    fake_gemini_batch.responder = reply
    return fake_gemini_batch


def args(p: Path, db: Path, *extra: str) -> list[str]:
    return ["batch", str(p), "-m", "gem", "-m", "baseline/first", "--db", str(db), "--no-progress", *extra]


@pytest.mark.parametrize("as_file", [False, True], ids=["inline", "responses-file"])
def test_every_answer_arrives_reads_as_live_and_carries_the_text_and_image_bytes(
        tmp_path: Path, gem: FakeGeminiBatchServer, capsys, as_file: bool) -> None:
    fake = gem
    fake.output_as_file = as_file
    p = preset(tmp_path)
    code, out, err = run_cli(capsys, *args(p, tmp_path / "live.db"))
    assert code == 0, err
    live = {user_text(r.body): r.body for r in fake.chat_requests}
    assert len(live) == N and not fake.native_requests

    code, out, err = run_cli(capsys, *args(p, tmp_path / "batch.db", *PB))
    assert code == 0, err
    assert len(fake.chat_requests) == N and len(fake.batch_creations) == 1  # nothing asked live the second time
    assert ("by provider batch: gem (Gemini Batch Mode, half price); asked directly (no batch API): "
            "baseline/first") in err
    assert re.search(r"gem: batch batches/fake1 running: \d/6 done", err), err
    assert re.search(rf"gem: batch batches/fake1: {N} answers stored", err), err
    # the key went in x-goog-api-key, on every call, and never in a URL
    assert all(r.headers.get("x-goog-api-key") == GEMINI_KEY and GEMINI_KEY not in r.path
               for r in fake.native_requests)
    [creation] = fake.batch_creations
    assert creation.path == "/v1beta/models/gemini-2.5-flash:batchGenerateContent"
    assert re.fullmatch(r"probe-ui \S+ \[[0-9a-f]{32}\]", creation.body["batch"]["displayName"])
    # each request: the live body's text and image bytes, as a GenerateContentRequest, with the same settings
    assert len(fake.batch_bodies) == N
    for request in fake.batch_bodies.values():
        body = live[gemini_text(request)]
        [user] = request["contents"]
        image = next(p["inlineData"] for p in user["parts"] if "inlineData" in p)
        url = next(part["image_url"]["url"] for part in body["messages"][-1]["content"]
                   if part["type"] == "image_url")
        assert image["mimeType"] == "image/png" and url == f"data:image/png;base64,{image['data']}"
        assert base64.b64decode(image["data"]).startswith(b"\x89PNG")
        assert user["role"] == "user" and [p["text"] for p in user["parts"] if "text" in p] == \
            [part["text"] for part in body["messages"][-1]["content"] if part["type"] == "text"]
        config = request["generationConfig"]
        assert config["temperature"] == body["temperature"] and config["maxOutputTokens"] == body["max_tokens"]
        system = [m["content"] for m in body["messages"] if m["role"] == "system"]
        assert [p["text"] for p in (request.get("systemInstruction") or {}).get("parts", [])] == system

    lived, batched = rows(tmp_path / "live.db"), rows(tmp_path / "batch.db")
    assert lived.keys() == batched.keys() and len(lived) == 2 * N
    for key, row in batched.items():
        assert {k: row[k] for k in SAME} == {k: lived[key][k] for k in SAME}, key
        if key[1] == "gem":
            assert row["latency_s"] is None
            assert row["details"]["provider_batch"] == {"api": "gemini", "batch_id": "batches/fake1",
                                                        "price_factor": 0.5}
            assert row["cost"] == pytest.approx(lived[key]["cost"] / 2)  # half price
    assert {r["parsed"] for k, r in batched.items() if k[1] == "gem"} == {"A", "B", None}
    scores = [json.loads(run_cli(capsys, "score", "--db", str(tmp_path / db), "--json")[1])["models"]
              for db in ("live.db", "batch.db")]
    assert scores[0] == scores[1]
    [b] = batches(tmp_path / "batch.db")
    assert (b["status"], b["api"], b["batch_id"]) == ("collected", "gemini", "batches/fake1")
    assert Store(tmp_path / "batch.db").run_cost(1) < Store(tmp_path / "live.db").run_cost(1)

    # the same command again: everything is stored, nothing is sent
    code, out, err = run_cli(capsys, *args(p, tmp_path / "batch.db", *PB))
    assert code == 0 and f"{2 * N} already done, 0 new" in out and len(fake.batch_creations) == 1


def test_a_run_killed_between_submit_and_results_collects_with_one_submission(
        tmp_path: Path, gem: FakeGeminiBatchServer, capsys) -> None:
    fake = gem
    fake.hold = True
    p, db = preset(tmp_path), tmp_path / "k.db"
    proc = subprocess.Popen([sys.executable, "-m", "probe_ui", *args(p, db, *PB)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        batch_id = wait_for_pending(db, proc)
        proc.send_signal(signal.SIGKILL)  # killed between submit and results
        proc.wait(timeout=30)
    finally:
        stop(proc)
    assert batch_id == "batches/fake1" and len(fake.batch_creations) == 1
    assert len(rows(db)) == N  # the baseline's answers only

    code, out, err = run_cli(capsys, *args(p, db))  # without --provider-batch: waits, says how to collect
    assert code == 1 and not fake.chat_requests
    assert f"gem: {N} cells wait in batch batches/fake1 (Gemini Batch Mode): run the batch again with " \
           "--provider-batch to collect them" in err

    fake.hold = False
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code == 0, err
    assert len(fake.batch_creations) == 1 and not fake.chat_requests
    assert f"{N} already done, {N} new, 0 errors" in out
    assert all(r["error"] is None for r in rows(db).values()) and len(rows(db)) == 2 * N
    assert [b["status"] for b in batches(db)] == ["collected"]


def test_a_batch_created_but_not_recorded_is_found_by_its_display_name(
        tmp_path: Path, gem: FakeGeminiBatchServer, capsys, monkeypatch) -> None:
    fake = gem
    p, db = preset(tmp_path), tmp_path / "m.db"
    real = Store.update_provider_batch

    def die(self: Store, row_id: int, **kw: Any) -> None:
        if kw.get("batch_id"):
            raise KeyboardInterrupt
        real(self, row_id, **kw)

    monkeypatch.setattr(Store, "update_provider_batch", die)
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code != 0 and len(fake.batch_creations) == 1
    assert [b["status"] for b in batches(db)] == ["submitting"]
    monkeypatch.setattr(Store, "update_provider_batch", real)
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code == 0, err
    assert len(fake.batch_creations) == 1 and f"{N} new" in out
    assert "gem: batch batches/fake1, sent by a process that stopped before recording it, found" in err
    assert any(r.path.startswith("/v1beta/batches?pageSize=") for r in fake.native_requests)
    assert [b["status"] for b in batches(db)] == ["collected"]


def test_failed_requests_become_failed_cells_with_a_reason(tmp_path: Path, gem: FakeGeminiBatchServer,
                                                           capsys) -> None:
    fake = gem
    fake.fail_when = lambda cid, request: "image 1 " in gemini_text(request) or "image 4 " in gemini_text(request)
    p, db = preset(tmp_path), tmp_path / "e.db"
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code == 1
    assert f"{2 * N - 2} new, 2 errors" in out
    assert "gem: batch batches/fake1: 4 answers and 2 failed calls stored" in err
    line = next(x for x in err.splitlines() if "gem on 2 cells" in x)
    assert re.search(rf"gem on 2 cells \(items q[14], q[14]\): {LABEL}: INVALID_ARGUMENT: fake error for this "
                     r"request \(batch batches/fake1\)", line), line
    fake.fail_when = None
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code == 0, err
    assert f"{2 * N - 2} already done, 2 new, 0 errors" in out
    assert len(fake.batches["batches/fake2"].lines) == 2 and not fake.chat_requests


@pytest.mark.parametrize("end_as,stored_first,words", [
    ("failed", 0, "failed (fake failure)"),
    ("expired", N // 2, "expired (not finished in time: Gemini expires a batch pending or running for 48 h)"),
    ("cancelled", N // 2, "was cancelled"),
])
def test_a_batch_that_failed_expired_or_was_cancelled_leaves_its_cells_to_ask_again(
        tmp_path: Path, gem: FakeGeminiBatchServer, capsys, end_as: str, stored_first: int, words: str) -> None:
    fake = gem
    fake.end_as = end_as
    p, db = preset(tmp_path), tmp_path / "f.db"
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code == 1
    assert (f"gem: batch batches/fake1 {words}: {stored_first} of its {N} answers stored; the {N - stored_first} "
            "others stay unasked: run the batch again to ask them") in err, err
    assert [b["status"] for b in batches(db)] == [end_as]
    assert all(r["error"] is None for r in rows(db).values())
    fake.end_as = "completed"
    code, out, err = run_cli(capsys, *args(p, db, *PB))
    assert code == 0, err
    assert f"{N + stored_first} already done, {N - stored_first} new, 0 errors" in out
    assert len(fake.batches["batches/fake2"].lines) == N - stored_first


def test_a_wrong_key_or_a_batch_over_the_inline_limit_is_one_line_and_its_cells_stay_unasked(
        tmp_path: Path, gem: FakeGeminiBatchServer, capsys, monkeypatch) -> None:
    fake = gem
    p = preset(tmp_path)
    monkeypatch.setenv(KEY_ENV, "gm-the-wrong-key-0123456789")
    code, out, err = run_cli(capsys, *args(p, tmp_path / "w.db", *PB))
    assert code == 1 and not fake.batch_bodies and "gm-the-wrong-key-0123456789" not in out + err
    assert f"{LABEL}: creating the batch failed: HTTP 401 unauthorized (check the API key): API key not valid. " \
           f"Please pass a valid API key.: its {N} cells stay unasked" in err, err

    monkeypatch.setenv(KEY_ENV, GEMINI_KEY)
    from probe_ui.providers.gemini_batch import GeminiBatches

    monkeypatch.setattr(GeminiBatches, "inline_limit", 2000)
    code, out, err = run_cli(capsys, *args(p, tmp_path / "big.db", *PB))
    assert code == 1 and len(fake.batch_creations) == 1  # the refused one above: nothing more sent
    assert re.search(rf"{LABEL}: creating the batch failed: its {N} requests take [\d,]+ bytes, over the 2,000 "
                     r"bytes Gemini takes in a batch sent inline \(sending the requests as an uploaded file is not "
                     rf"supported\): its {N} cells stay unasked", err), err
    assert [b["status"] for b in batches(tmp_path / "big.db")] == ["failed"]


def test_dry_run_prices_gemini_at_half(tmp_path: Path, gem: FakeGeminiBatchServer, capsys) -> None:
    p = preset(tmp_path)
    argv = ["batch", str(p), "-m", "gem", "--db", str(tmp_path / "d.db"), "--dry-run"]
    full = float(re.search(r"gem: .*, \$([\d.]+)", run_cli(capsys, *argv)[1]).group(1))
    half = float(re.search(r"gem: .*, \$([\d.]+)", run_cli(capsys, *argv, "--provider-batch")[1]).group(1))
    assert half == pytest.approx(full / 2, abs=1e-4)


def test_the_request_and_reply_translations() -> None:
    body = {"model": "gemini-2.5-flash", "n": 1, "temperature": 0.0, "max_tokens": 64, "top_p": 0.9, "seed": 7,
            "messages": [{"role": "system", "content": "Be brief."},
                         {"role": "user", "content": [{"type": "text", "text": "Which?"}, {
                             "type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}}]},
                         {"role": "assistant", "content": "A"}, {"role": "user", "content": "Sure?"}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "strict": True,
                                                                       "schema": {"type": "object"}}},
            "logprobs": True, "top_logprobs": 5}
    assert generate_content_request(body, LABEL) == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [{"role": "user", "parts": [{"text": "Which?"},
                                                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0K"}}]},
                     {"role": "model", "parts": [{"text": "A"}]}, {"role": "user", "parts": [{"text": "Sure?"}]}],
        "generationConfig": {"temperature": 0.0, "maxOutputTokens": 64, "topP": 0.9, "seed": 7,
                             "responseMimeType": "application/json", "responseJsonSchema": {"type": "object"},
                             "responseLogprobs": True, "logprobs": 5}}
    with pytest.raises(ProviderError, match="cannot carry 'reasoning_effort'"):
        generate_content_request({**body, "reasoning_effort": "low"}, LABEL)
    with pytest.raises(ProviderError, match="images as data"):
        generate_content_request({"messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "https://example.org/x.png"}}]}]}, LABEL)

    reply = chat_completion({
        "candidates": [{"content": {"role": "model", "parts": [{"text": "thinking", "thought": True},
                                                               {"text": "B"}]},
                        "finishReason": "MAX_TOKENS", "logprobsResult": {
                            "chosenCandidates": [{"token": "B", "logProbability": -0.1}],
                            "topCandidates": [{"candidates": [{"token": "B", "logProbability": -0.1},
                                                              {"token": "A", "logProbability": -2.3}]}]}}],
        "usageMetadata": {"promptTokenCount": 90, "candidatesTokenCount": 1, "thoughtsTokenCount": 4},
        "modelVersion": "gemini-2.5-flash-001", "responseId": "r1"}, "gemini-2.5-flash")
    [choice] = reply["choices"]
    assert choice["message"] == {"role": "assistant", "content": "B", "reasoning_content": "thinking"}
    assert choice["finish_reason"] == "length" and reply["model"] == "gemini-2.5-flash-001"
    assert reply["usage"] == {"prompt_tokens": 90, "completion_tokens": 5, "total_tokens": 95}
    assert [t["token"] for t in choice["logprobs"]["content"][0]["top_logprobs"]] == ["B", "A"]
