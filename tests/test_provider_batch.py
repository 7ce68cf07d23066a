"""Provider batch APIs (issue 50, ``batch --provider-batch``), through the real ``openai`` and ``anthropic`` SDKs
against loopback servers with the Batch endpoints (tests/fake_openai_batch.py, tests/fake_anthropic_batch.py):
every answer arrives and is stored and read like the same preset asked live, the requests are the bodies a live
call sends, a run killed between submit and results collects the batch without submitting it again, error lines
become failed cells with a reason, a batch that failed, expired or was cancelled leaves its cells to ask again, and
the price is halved."""

from __future__ import annotations

import io
import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fake_openai_batch import FakeOpenAIBatchServer
from helpers import choice_item, run_cli, stop, write_png, write_preset
from test_spend_cap import priced_model

from probe_ui.runner import BatchOptions
from probe_ui.store import Store, migrations, provider_batches, responses

ROOT = Path(__file__).resolve().parent.parent
N = 6
#: what a row of the responses table must read the same whether it came live or from a batch
SAME = ("raw_text", "parsed", "method", "invalid", "refusal", "sure", "correct", "finish_reason", "input_tokens",
        "output_tokens", "request_hash", "messages", "settings", "error")


def text_of(body: dict[str, Any]) -> str:
    """Every text of a chat-completions or Messages body."""
    out = []
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, str):
            out.append(content)
        for part in content if isinstance(content, list) else []:
            if part.get("type") == "text":
                out.append(part["text"])
    return " ".join(out)


def reply(body: dict[str, Any]) -> str:
    """Answers that differ by item, some read by the rules in words: the same body gets the same answer."""
    i = int(re.search(r"image (\d+)", text_of(body)).group(1))
    return ["B", "The answer is (A).", "I think it is finding 2-1, so B.", "A", "Neither, really.", "(B)"][i % 6]


def preset(folder: Path, n: int = N) -> Path:
    for i in range(3):
        write_png(folder / f"im{i}.png", seed=i)
    return write_preset(folder / "p.yaml", [choice_item(i, f"im{i % 3}.png", answer="AB"[i % 2]) for i in range(n)])


def rows(db: str | Path) -> dict[tuple[str, str], dict[str, Any]]:
    with Store(db).engine.connect() as c:
        return {(r["variant_id"], r["model"]): dict(r) for r in c.execute(sa.select(responses)).mappings()}


def batches(db: str | Path) -> list[dict[str, Any]]:
    with Store(db).engine.connect() as c:
        return [dict(r) for r in c.execute(sa.select(provider_batches).order_by(provider_batches.c.id)).mappings()]


@pytest.fixture
def openai_env(fake_openai_batch: FakeOpenAIBatchServer, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAIBatchServer:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai_batch.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    fake_openai_batch.responder = reply
    return fake_openai_batch


def batch_args(p: Path, db: Path, *extra: str) -> list[str]:
    return ["batch", str(p), "-m", "openai/fake-vlm", "-m", "baseline/first", "--db", str(db), "--no-progress",
            *extra]


PB = ("--provider-batch", "--poll-interval", "0.05")


def test_every_answer_arrives_and_reads_as_the_same_preset_asked_live(tmp_path: Path, openai_env, capsys) -> None:
    fake = openai_env
    p = preset(tmp_path)
    code, out, err = run_cli(capsys, *batch_args(p, tmp_path / "live.db"))
    assert code == 0, err
    live_bodies = [r.body for r in fake.chat_requests]
    assert len(live_bodies) == N

    code, out, err = run_cli(capsys, *batch_args(p, tmp_path / "batch.db", *PB))
    assert code == 0, err
    assert len(fake.chat_requests) == N  # nothing asked live the second time
    assert len(fake.batch_creations) == 1
    assert f"{2 * N} answers planned, 0 already done, {2 * N} new, 0 errors" in out
    assert ("by provider batch: openai/fake-vlm (OpenAI Batch API, half price); asked directly (no batch API): "
            "baseline/first") in err
    assert re.search(r"openai/fake-vlm: batch batch_\d+ in_progress: \d/6 done", err), err
    assert re.search(rf"openai/fake-vlm: batch batch_\d+: {N} answers stored", err), err
    # each line carries exactly the body a live call sends
    canon = sorted(json.dumps(b, sort_keys=True) for b in live_bodies)
    assert sorted(json.dumps(b, sort_keys=True) for b in fake.batch_bodies.values()) == canon

    live, batch = rows(tmp_path / "live.db"), rows(tmp_path / "batch.db")
    assert live.keys() == batch.keys() and len(live) == 2 * N
    for key, row in batch.items():
        assert {k: row[k] for k in SAME} == {k: live[key][k] for k in SAME}, key
        if key[1] == "openai/fake-vlm":
            assert row["latency_s"] is None  # not known for a batch's answer
            assert row["details"]["provider_batch"]["api"] == "openai"
            assert row["details"]["provider_batch"]["price_factor"] == 0.5
    assert {r["parsed"] for k, r in batch.items() if k[1] == "openai/fake-vlm"} == {"A", "B", None}
    # every view reads them alike: the scores of the two runs are the same
    scores = [json.loads(run_cli(capsys, "score", "--db", str(tmp_path / db), "--json")[1])["models"]
              for db in ("live.db", "batch.db")]
    assert scores[0] == scores[1]
    [b] = batches(tmp_path / "batch.db")
    assert b["status"] == "collected" and len(b["cells"]) == N and b["batch_id"].startswith("batch_")

    # the same command again: everything is stored, nothing is sent
    code, out, err = run_cli(capsys, *batch_args(p, tmp_path / "batch.db", *PB))
    assert code == 0 and f"{2 * N} already done, 0 new" in out
    assert len(fake.batch_creations) == 1 and len(fake.chat_requests) == N


def wait_for_pending(db: Path, proc: subprocess.Popen[Any], timeout: float = 120.0) -> str:
    """The id of the batch the process recorded, once it is recorded (fails if the process ends first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        try:
            with sqlite3.connect(db) as c:
                found = c.execute("SELECT batch_id FROM provider_batches WHERE status = 'pending'").fetchall()
        except sqlite3.Error:
            found = []
        if found and found[0][0]:
            return str(found[0][0])
        time.sleep(0.1)
    raise AssertionError("no batch was recorded")


def test_a_run_killed_between_submit_and_results_collects_without_a_second_submission(
        tmp_path: Path, openai_env, capsys) -> None:
    fake = openai_env
    fake.hold = True  # the batch stays in progress while the first process polls it
    p, db = preset(tmp_path), tmp_path / "k.db"
    proc = subprocess.Popen([sys.executable, "-m", "probe_ui", *batch_args(p, db, *PB)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        batch_id = wait_for_pending(db, proc)
        proc.send_signal(signal.SIGKILL)  # killed between submit and results
        proc.wait(timeout=30)
    finally:
        stop(proc)
    assert len(fake.batch_creations) == 1
    assert len(rows(db)) == N  # the baseline's answers; none of the batch's yet

    # a run without --provider-batch never asks a cell that waits in a batch, and says how to collect it
    code, out, err = run_cli(capsys, *batch_args(p, db))
    assert code == 1 and not fake.chat_requests
    assert f"{N} cells wait in batch {batch_id} (OpenAI Batch API): run the batch again with --provider-batch " \
           "to collect them" in err
    assert f"{N} cells wait in provider batches" in out

    fake.hold = False
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code == 0, err
    assert len(fake.batch_creations) == 1  # collected, not submitted again
    assert not fake.chat_requests
    assert f"{N} already done, {N} new, 0 errors" in out
    stored = rows(db)
    assert len(stored) == 2 * N and all(r["error"] is None for r in stored.values())
    assert [b["status"] for b in batches(db)] == ["collected"]


def test_a_batch_created_but_not_recorded_is_found_by_its_metadata(tmp_path: Path, openai_env, capsys,
                                                                    monkeypatch) -> None:
    """The process dies after the provider made the batch and before its id is stored: the next run finds it by
    the metadata it was created with and collects it."""
    fake = openai_env
    p, db = preset(tmp_path), tmp_path / "m.db"
    real = Store.update_provider_batch

    def die(self: Store, row_id: int, **kw: Any) -> None:
        if kw.get("batch_id"):
            raise KeyboardInterrupt
        real(self, row_id, **kw)

    monkeypatch.setattr(Store, "update_provider_batch", die)
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code != 0 and len(fake.batch_creations) == 1
    assert [b["status"] for b in batches(db)] == ["submitting"]
    monkeypatch.setattr(Store, "update_provider_batch", real)
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code == 0, err
    assert len(fake.batch_creations) == 1 and f"{2 * N} answers planned" in out and f"{N} new" in out
    assert "sent by a process that stopped before recording it, found" in err
    assert [b["status"] for b in batches(db)] == ["collected"]


def test_error_lines_become_failed_cells_with_a_reason_and_run_again_are_asked(tmp_path: Path, openai_env,
                                                                               capsys) -> None:
    fake = openai_env
    fake.fail_when = lambda cid, body: "image 1 " in text_of(body) or "image 4 " in text_of(body)
    p, db = preset(tmp_path), tmp_path / "e.db"
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code == 1
    assert f"{2 * N - 2} new, 2 errors" in out
    assert re.search(r"openai/fake-vlm: batch batch_\d+: 4 answers and 2 failed calls stored", err), err
    line = next(x for x in err.splitlines() if "openai/fake-vlm on 2 cells" in x)
    assert re.search(r"openai/fake-vlm on 2 cells \(items q[14], q[14]\): openai/fake-vlm: HTTP 400 bad request: "
                     r"fake error for this request \(batch batch_\d+\)", line), line
    failed = [r for r in rows(db).values() if r["error"]]
    assert len(failed) == 2 and all(r["details"]["provider_batch"]["api"] == "openai" for r in failed)
    report = json.loads(run_cli(capsys, "score", "--db", str(db), "--json")[1])
    assert report["models"]["openai/fake-vlm"]["errors"] == 2

    fake.fail_when = None
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code == 0, err
    assert f"{2 * N - 2} already done, 2 new, 0 errors" in out
    assert len(fake.batch_creations) == 2 and len(fake.batches[max(fake.batches)].lines) == 2
    assert not fake.chat_requests


def test_a_refused_batch_deletes_its_uploaded_file_and_leaves_its_cells_to_ask(tmp_path: Path, openai_env,
                                                                                capsys) -> None:
    """The provider refuses to create the batch after its file was uploaded: the file is deleted (no orphan left in
    the account's storage), the run says why in one line, and the cells are asked by the next run."""
    fake = openai_env
    fake.refuse_creation = True
    p = preset(tmp_path)
    code, out, err = run_cli(capsys, *batch_args(p, tmp_path / "b.db", *PB))
    assert "creating the batch failed" in err and "this batch cannot be created" in err, err
    assert fake.files == {} and any(r.method == "DELETE" for r in fake.requests)
    assert not fake.batches
    fake.refuse_creation = False
    code, out, err = run_cli(capsys, *batch_args(p, tmp_path / "b.db", *PB))
    assert code == 0, err
    assert f"{N} new, 0 errors" in out and len(fake.batches) == 1


@pytest.mark.parametrize("end_as,stored_first,words", [
    ("failed", 0, "failed (fake failure)"),
    ("expired", N // 2, "expired (not finished within its 24 h window)"),
    ("cancelled", N // 2, "was cancelled"),
])
def test_a_batch_that_failed_expired_or_was_cancelled_leaves_its_cells_to_ask_again(
        tmp_path: Path, openai_env, capsys, end_as: str, stored_first: int, words: str) -> None:
    fake = openai_env
    fake.end_as = end_as
    p, db = preset(tmp_path), tmp_path / "f.db"
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code == 1
    assert re.search(rf"openai/fake-vlm: batch batch_\d+ {re.escape(words)}: {stored_first} of its {N} answers "
                     rf"stored; the {N - stored_first} others stay unasked: run the batch again to ask them", err), err
    assert f"{N + stored_first} new, 0 errors" in out
    assert [b["status"] for b in batches(db)] == [end_as]
    assert all(r["error"] is None for r in rows(db).values())  # the cells not answered are not failed cells

    fake.end_as = "completed"
    code, out, err = run_cli(capsys, *batch_args(p, db, *PB))
    assert code == 0, err
    assert f"{N + stored_first} already done, {N - stored_first} new, 0 errors" in out
    assert len(fake.batches[max(fake.batches)].lines) == N - stored_first
    assert [b["status"] for b in batches(db)] == [end_as, "collected"]


def test_batch_answers_cost_half_the_catalogue_price_and_dry_run_says_so(tmp_path: Path, openai_env, capsys,
                                                                         monkeypatch) -> None:
    priced_model(tmp_path, openai_env.base_url, monkeypatch, key=None)
    p = preset(tmp_path)
    argv = ["batch", str(p), "-m", "priced", "--no-progress"]
    assert run_cli(capsys, *argv, "--db", str(tmp_path / "live.db"))[0] == 0
    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "b.db"), *PB, "--max-cost", "100")
    assert code == 0, err
    live, batch = rows(tmp_path / "live.db"), rows(tmp_path / "b.db")
    assert all(r["cost"] > 0 for r in live.values())
    for key, row in batch.items():
        assert row["input_tokens"] == live[key]["input_tokens"]
        assert row["cost"] == pytest.approx(live[key]["cost"] / 2)
    assert Store(tmp_path / "b.db").run_cost(1) == pytest.approx(Store(tmp_path / "live.db").run_cost(1) / 2)

    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "new.db"), "--dry-run")
    full = float(re.search(r"priced: .*, \$([\d.]+)", out).group(1))
    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "new.db"), "--dry-run", "--provider-batch")
    assert code == 0
    assert float(re.search(r"priced: .*, \$([\d.]+)", out).group(1)) == pytest.approx(full / 2, abs=1e-4)
    assert "--provider-batch: priced through their provider's batch API, priced at half the catalogue price" in out


def test_a_spend_cap_counts_batch_cells_at_the_batch_price(tmp_path: Path, openai_env, capsys,
                                                           monkeypatch) -> None:
    priced_model(tmp_path, openai_env.base_url, monkeypatch, key=None)
    p = preset(tmp_path)
    argv = ["batch", str(p), "-m", "priced", "--no-progress", "--db", str(tmp_path / "c.db"), *PB]
    out = run_cli(capsys, "batch", str(p), "-m", "priced", "--db", str(tmp_path / "x.db"), "--dry-run",
                  "--provider-batch")[1]
    half = float(re.search(r"priced: .*, \$([\d.]+)", out).group(1))
    # a cap between half and the whole estimate: the whole batch fits only at the batch price
    code, out, err = run_cli(capsys, *argv, "--max-cost", f"{half * 1.5:.4f}")
    assert code == 0, err
    assert len(rows(tmp_path / "c.db")) == N and "spend cap" not in err


def test_a_judge_is_asked_of_each_answer_a_batch_brings_once_it_is_collected(tmp_path: Path, openai_env,
                                                                             capsys) -> None:
    fake = openai_env
    p, db = preset(tmp_path), tmp_path / "j.db"
    argv = ["batch", str(p), "-m", "openai/fake-vlm", "--prompt", "free", "--judge", "baseline/first", "--db", str(db),
            "--no-progress", *PB]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert len(fake.batch_creations) == 1 and not fake.chat_requests  # every answer came through the batch
    got = list(rows(db).values())
    answers = {r["id"]: r for r in got if r["role"] == "answer"}
    judges = [r for r in got if r["role"] == "judge"]
    assert len(answers) == N and len(judges) == N  # each free-form answer to a choice item judged, once
    assert {j["parent_id"] for j in judges} == set(answers)
    assert all(j["model"] == "baseline/first" and j["raw_text"] == "A" and j["error"] is None
               and j["method"].startswith("judge-mediconfusion") for j in judges)  # read as a live judge is
    assert all(answers[j["parent_id"]]["details"]["provider_batch"]["api"] == "openai" for j in judges)
    code, out, err = run_cli(capsys, *argv)  # again: nothing left to ask, nothing judged twice
    assert code == 0 and f"{N} already done, 0 new" in out
    assert sum(r["role"] == "judge" for r in rows(db).values()) == N


def test_judges_lost_to_a_kill_after_the_batch_was_collected_are_asked_by_the_next_run(tmp_path: Path, openai_env,
                                                                                      capsys, monkeypatch) -> None:
    import probe_ui.runner.batch as runner_batch

    p, db = preset(tmp_path), tmp_path / "j.db"
    argv = ["batch", str(p), "-m", "openai/fake-vlm", "--prompt", "free", "--judge", "baseline/first", "--db", str(db),
            "--no-progress", *PB]
    real = runner_batch.execute_run

    def killed(store: Store, run: Any, cells: Any, *a: Any, **kw: Any) -> Any:
        if isinstance(cells, list) and cells and isinstance(cells[0], runner_batch.Answered):
            raise KeyboardInterrupt  # Ctrl+C once the batch is collected, before its judges
        return real(store, run, cells, *a, **kw)

    monkeypatch.setattr(runner_batch, "execute_run", killed)
    assert run_cli(capsys, *argv)[0] != 0
    got = list(rows(db).values())
    assert sum(r["role"] == "answer" for r in got) == N and not any(r["role"] == "judge" for r in got)
    monkeypatch.setattr(runner_batch, "execute_run", real)
    code, out, err = run_cli(capsys, *argv)  # the same command again
    assert code == 0, err
    assert f"{N} already done, 0 new" in out and len(openai_env.batch_creations) == 1
    got = list(rows(db).values())
    answers = {r["id"] for r in got if r["role"] == "answer"}
    assert sorted(r["parent_id"] for r in got if r["role"] == "judge") == sorted(answers)  # each judged once
    assert run_cli(capsys, *argv)[0] == 0  # and not again
    assert sum(r["role"] == "judge" for r in rows(db).values()) == N


def test_provider_batch_is_refused_without_a_batch_api(tmp_path: Path, capsys) -> None:
    p = preset(tmp_path)
    code, out, err = run_cli(capsys, "batch", str(p), "-m", "baseline/first", "--db", str(tmp_path / "x.db"),
                             "--provider-batch")
    assert code == 1 and "--provider-batch: no batch API for baseline/first" in err and not out
    with pytest.raises(SystemExit) as stopped:
        run_cli(capsys, "batch", str(p), "-m", "baseline/first", "--provider-batch", "--poll-interval", "-1")
    assert stopped.value.code == 2 and "--poll-interval must be a number of seconds" in capsys.readouterr().err


def test_help_lists_provider_batch_with_the_everyday_options() -> None:
    from probe_ui.cli.entry import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    text = sub.choices["batch"].format_help()
    heading = text.index("advanced options:")
    assert text.index("\n  --provider-batch") < heading < text.index("\n  --poll-interval SECONDS")


# ---- Anthropic Message Batches ---------------------------------------------------------------------------------

def test_anthropic_message_batches_answer_as_live_and_resume_after_a_kill(tmp_path: Path, fake_anthropic_batch,
                                                                          capsys, monkeypatch) -> None:
    fake = fake_anthropic_batch
    fake.responder = reply
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-real")
    p = preset(tmp_path)
    argv = ["batch", str(p), "-m", "anthropic/claude-haiku-4-5", "--no-progress", "--answer-format", "json"]
    assert run_cli(capsys, *argv, "--db", str(tmp_path / "live.db"))[0] == 0
    live_bodies = [r.body for r in fake.message_requests]
    assert len(live_bodies) == N and all(b.get("tool_choice") for b in live_bodies)

    # killed between submit and results: the first collection stops the process once the batch is recorded
    from probe_ui.runner.provider_batch import ProviderBatches

    real = ProviderBatches._collect

    async def killed(self: ProviderBatches, *a: Any, **kw: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ProviderBatches, "_collect", killed)
    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "b.db"), *PB)
    assert code != 0 and len(fake.batch_creations) == 1
    assert [b["status"] for b in batches(tmp_path / "b.db")] == ["pending"]
    monkeypatch.setattr(ProviderBatches, "_collect", real)
    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "b.db"), *PB)
    assert code == 0, err
    assert len(fake.batch_creations) == 1 and len(fake.message_requests) == N  # nothing asked live, once sent
    assert "by provider batch: anthropic/claude-haiku-4-5 (Anthropic Message Batches, half price)" in err
    canon = sorted(json.dumps(b, sort_keys=True) for b in live_bodies)
    assert sorted(json.dumps(b, sort_keys=True) for b in fake.batch_bodies.values()) == canon
    live, batch = rows(tmp_path / "live.db"), rows(tmp_path / "b.db")
    assert live.keys() == batch.keys()
    for key, row in batch.items():
        assert {k: row[k] for k in SAME} == {k: live[key][k] for k in SAME}, key
        assert row["details"]["sampling"] == "api-default"  # what the provider notes on a live reply too
        assert row["details"]["provider_batch"]["api"] == "anthropic"


def test_anthropic_errored_and_expired_requests(tmp_path: Path, fake_anthropic_batch, capsys,
                                                monkeypatch) -> None:
    fake = fake_anthropic_batch
    fake.responder = reply
    fake.end_as = "expired"
    fake.fail_when = lambda cid, params: "image 0 " in text_of(params)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-real")
    p, db = preset(tmp_path), tmp_path / "a.db"
    argv = ["batch", str(p), "-m", "anthropic/claude-haiku-4-5", "--no-progress", "--db", str(db), *PB]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1
    assert "anthropic/claude-haiku-4-5 on q0: anthropic/claude-haiku-4-5: invalid_request_error: fake error for " \
           "this request (batch msgbatch_1)" in err
    assert re.search(r"batch msgbatch_1 expired for 3 of its 6 requests \(not finished within 24 h\): 3 of its 6 "
                     r"answers stored; the 3 others stay unasked", err), err
    fake.end_as, fake.fail_when = "completed", None
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert "2 already done, 4 new, 0 errors" in out and len(fake.batches["msgbatch_2"].lines) == 4


def test_an_anthropic_batch_never_recorded_is_not_taken_from_another_run(tmp_path: Path, fake_anthropic_batch,
                                                                         capsys, monkeypatch) -> None:
    """Message Batches keep no metadata, and a batch's custom_ids are the same for any run of the same plan: a batch
    whose process stopped before recording its id is not looked for, so another run's batch of the same preset
    (here: the only batch at the provider, the lost one never created) is never collected as this run's."""
    fake = fake_anthropic_batch
    fake.responder = reply
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-real")
    p = preset(tmp_path)
    argv = ["batch", str(p), "-m", "anthropic/claude-haiku-4-5", "--no-progress", *PB]
    from probe_ui.providers.batch_api import AnthropicBatches

    real = AnthropicBatches.submit

    async def killed(self: AnthropicBatches, *a: Any, **kw: Any) -> str:
        raise KeyboardInterrupt  # recorded as being submitted, never created

    monkeypatch.setattr(AnthropicBatches, "submit", killed)
    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "a.db"))
    assert code != 0 and [b["status"] for b in batches(tmp_path / "a.db")] == ["submitting"]
    monkeypatch.setattr(AnthropicBatches, "submit", real)
    assert run_cli(capsys, *argv, "--db", str(tmp_path / "other.db"))[0] == 0  # another run sends the same preset
    assert len(fake.batch_creations) == 1
    code, out, err = run_cli(capsys, *argv, "--db", str(tmp_path / "a.db"))
    assert code == 0, err
    assert "is not found at the provider: its cells are asked again" in err
    assert [(b["status"], b["batch_id"]) for b in batches(tmp_path / "a.db")] == [("failed", None),
                                                                                   ("collected", "msgbatch_2")]
    assert len(fake.batch_creations) == 2


# ---- the store ---------------------------------------------------------------------------------------------------

def test_step_10_adds_the_provider_batches_table_to_an_older_store(tmp_path: Path) -> None:
    db = tmp_path / "v9.db"
    store = Store(db)
    run = store.ensure_run("before-batches", 0, {})
    store.close()
    with sqlite3.connect(db) as c:  # the store as schema version 9 had it
        c.execute("DROP TABLE provider_batches")
        c.execute("UPDATE schema_version SET version = 9")
    upgraded = Store(db)
    assert upgraded.upgraded is not None and upgraded.upgraded[:2] == (9, migrations.LATEST)
    assert "provider_batches" in sa.inspect(upgraded.engine).get_table_names()
    assert upgraded.provider_batches(run.id) == []
    row = upgraded.add_provider_batch(run.id, "m", "openai", {"c1": ("v", "mc", 0, "h")})
    upgraded.update_provider_batch(row, batch_id="batch_1", status="pending")
    [b] = upgraded.provider_batches(run.id)
    assert (b.batch_id, b.status, b.keys()) == ("batch_1", "pending", {("v", "m", "mc", 0): "c1"})


# ---- the send gate and the send ledger ---------------------------------------------------------------------------

def test_the_send_gate_and_ledger_see_every_batched_request(tmp_path: Path, openai_env, monkeypatch) -> None:
    """Under ``block`` a request with burned-in text is stopped (a failed cell, never in the batch file) and the clean
    one goes in the batch; under ``redact`` the covered image is what the batch carries; every request is on the
    send ledger, as for live calls."""
    import numpy as np
    from PIL import Image
    from test_send_ledger import _image, marked, tagged_and_clean

    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.send_gate.policy import GatePolicy, check_request

    for where in ("probe_ui.runner.execute.check_request", "probe_ui.runner.provider_batch.check_request"):
        monkeypatch.setattr(where, lambda d, r, detector=None: check_request(d, r, marked))
    p = tagged_and_clean(tmp_path, "g.yaml")
    fake = openai_env
    fake.responder = None
    fake.answer = "Yes"
    store = Store(tmp_path / "g.db")
    result = run_batch(store, [load_preset(str(p))], ["openai/fake-vlm"],
                       BatchOptions(run_name="b", progress=False,
                                    gate=GatePolicy("block", available=True, trust_loopback=False), user="dr-ames",
                                    provider_batch=True, poll_interval_s=0.05))
    assert result.answered == 1 and result.errors == 1 and not fake.chat_requests
    [body] = fake.batch_bodies.values()  # only the clean image left
    assert not (np.asarray(Image.open(io.BytesIO(_image(body))))[:8, :8] == 255).all()
    assert "burned-in text at 0,0,8,8 (name); not sent" in result.error_messages[0]
    assert sorted(r["verdict"] for r in store.ledger_rows()) == ["blocked", "sent"]
    assert all(r["user"] == "dr-ames" and r["run"] == "b" for r in store.ledger_rows())

    result = run_batch(store, [load_preset(str(p))], ["openai/fake-vlm"],
                       BatchOptions(run_name="r", progress=False,
                                    gate=GatePolicy("redact", available=True, trust_loopback=False),
                                    provider_batch=True, poll_interval_s=0.05, use_cache=False))
    assert result.answered == 2 and result.errors == 0 and not fake.chat_requests
    covered = [np.asarray(Image.open(io.BytesIO(_image(b))))
               for b in list(fake.batch_bodies.values())[1:]]
    assert sum((a[:8, :8] == 0).all() for a in covered) == 1 and not any((a[:8, :8] == 255).all() for a in covered)
    with store.engine.connect() as c:
        details = [d for (d,) in c.execute(sa.select(responses.c.details).where(
            responses.c.run_id == store.get_run("r").id))]
    assert sum(1 for d in details if (d.get("send_gate") or {}).get("verdict") == "redacted") == 1
    assert [r["verdict"] for r in store.ledger_rows()][-2:].count("redacted") == 1
    assert store.verify_ledger().intact


@pytest.mark.slow
def test_the_batch_tab_sends_through_the_batch_api_when_ticked_and_resume_collects_a_cancelled_one(
        app_server, fake_openai_batch: FakeOpenAIBatchServer) -> None:
    """The Batch tab's tick "Send through the providers' batch APIs": Start sends the model's cells as one batch
    (none asked live) and stores its answers at half price; a batch still at the provider when Cancel is pressed
    stays recorded, and Resume collects it without sending it again."""
    from app_server import api_client

    fake = fake_openai_batch
    fake.responder = lambda body: "A"
    fake.polls_to_finish = 1
    client = api_client(app_server.url)
    client.predict("openai", fake.base_url, "fake-vlm", "sk-test-not-real", "viabatch", api_name="/add_endpoint")
    args = (["mediconfusion_pairs"], None, [], "viabatch", [], 0)
    status = client.predict(*args, "tab-batch", False, False, False, True, api_name="/batch")[0]
    assert "tab-batch" in status and "0 errors" in status, status
    store = app_server.store()
    run = store.get_run("tab-batch")
    [b] = store.provider_batches(run.id, None)
    assert b.status == "collected" and len(b.cells) == 16 and not fake.chat_requests
    with store.engine.connect() as c:
        got = c.execute(sa.select(responses.c.details, responses.c.error).where(responses.c.run_id == run.id)).all()
    assert len(got) == 16 and all(e is None and d["provider_batch"]["price_factor"] == 0.5 for d, e in got)

    fake.hold = True  # the next batch stays in progress until released
    # another model on the server (the first one's answers would come from the cache, asking nothing)
    client.predict("openai", fake.base_url, "fake-vlm-2", "sk-test-not-real", "viabatch2", api_name="/add_endpoint")
    job = client.submit(args[0], None, [], "viabatch2", [], 0, "tab-held", False, False, False, True,
                        api_name="/batch")
    deadline = time.monotonic() + 60
    while len(fake.batch_creations) < 2:
        assert time.monotonic() < deadline, "the batch was never submitted"
        time.sleep(0.1)
    time.sleep(0.5)  # its id recorded
    assert "Cancel sent" in client.predict("tab-held", api_name="/cancel_batch")
    assert "Cancelled" in job.result(timeout=120)[0]
    assert len(fake.batch_creations) == 2 and not fake.chat_requests
    fake.hold = False
    status = client.predict("tab-held", api_name="/resume_batch")[0]
    assert "0 errors" in status, status
    held = store.get_run("tab-held")
    assert [x.status for x in store.provider_batches(held.id, None)] == ["collected"]
    assert len(fake.batch_creations) == 2 and not fake.chat_requests  # collected, not sent again
    assert sum(r["answered"] for r in store.run_progress() if r["run"] == "tab-held") == 16
