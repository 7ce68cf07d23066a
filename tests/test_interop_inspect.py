"""A set runs in Inspect AI and comes back: export-set --to inspect, `inspect eval` against the loopback OpenAI
server, import the log, and `probe-ui score` of the imported run equals `probe-ui batch` of the same preset, suite
and seed against the same server (same per-model accuracy, same paper metrics). Then what a bad log gets: one line
naming the file, the sample and the field, and nothing half-imported.

The server answers through :mod:`harness_fixtures`: the reply is a function of the exact conversation, so the two runs
agree exactly when Inspect sent what a batch sends (the same messages, the same image bytes).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest
from fake_openai import FakeOpenAIServer
from harness_fixtures import responder, wire_conversation
from helpers import require_module

from probe_ui.cli import main
from probe_ui.store import Store

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

require_module("inspect_ai", 'pip install -e ".[dev]" (or the inspect extra)')

PRESET, SUITE, SEED, MODEL = "mediconfusion_pairs", "circular", "3", "openai/gpt-4o"
INSPECT = Path(sys.executable).with_name("inspect")


def inspect_eval(cwd: Path, task: str, server: FakeOpenAIServer, log_dir: Path, *extra: str,
                 env: dict[str, str] | None = None) -> Path:
    """Run `inspect eval` as a user would (its own process), against the loopback server; the log it wrote."""
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "INSPECT_"))}
    run_env.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-loopback", NO_PROXY="127.0.0.1,localhost",
                   no_proxy="127.0.0.1,localhost", INSPECT_DISPLAY="none", **(env or {}))
    r = subprocess.run([str(INSPECT), "eval", task, "--model", MODEL, "--log-dir", str(log_dir), *extra], cwd=cwd,
                       env=run_env, capture_output=True, text=True, timeout=540)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    logs = sorted(log_dir.glob("*.eval"))
    assert len(logs) == 1, logs
    return logs[0]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(responder=responder) as s:
        yield s


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, server: FakeOpenAIServer) -> dict[str, Any]:
    """The set exported and run once by Inspect: the folder, its log, and what the server received."""
    root = tmp_path_factory.mktemp("inspect")
    assert main(["export-set", PRESET, "--suite", SUITE, "--seed", SEED, "--to", "inspect", "--out",
                 str(root / "set")]) == 0
    written = {p.name for p in (root / "set").iterdir()}  # before Inspect imports task.py (Python's __pycache__)
    server.reset()
    log = inspect_eval(root, "set/task.py", server, root / "logs")  # the command the export prints
    return {"root": root, "set": root / "set", "written": written, "log": log,
            "requests": [r.body for r in server.chat_requests]}


def score_json(db: Path, run: str | None, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["score", "--db", str(db), "--json"] + (["--run", run] if run else [])) == 0
    return json.loads(capsys.readouterr().out)


def test_export_writes_a_task_over_the_sets_samples(exported: dict[str, Any]) -> None:
    folder = exported["set"]
    assert exported["written"] == {"task.py", "samples.jsonl", "probe-ui-set.json", "images"}
    records = [json.loads(x) for x in (folder / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 32  # 16 items, each as given and with its options shifted (CircularEval)
    first = records[0]
    assert first["input"][0] == {"role": "system", "content": "You are a helpful assitant expert in medical domain."}
    image, text = first["input"][1]["content"]
    assert image["type"] == "image" and (folder / image["image"]).is_file()
    assert text["text"].startswith("Based on the image, choose the correct option")
    md = first["metadata"]
    assert {"probe_ui_set", "variant_id", "item_id", "condition", "image_ids", "seed", "preset_sha256"} <= set(md)
    assert md["seed"] == 3 and image["image"] == f"images/{md['image_ids'][0]}.png"
    assert {r["metadata"]["condition"] for r in records} == {"original", "circular/shift1"}
    # the unit of evidence rides along: Inspect's standard error counts a pair's four samples together
    units = Counter(r["metadata"]["unit"] for r in records)
    assert len(units) == 8 and set(units.values()) == {4} and all(u.startswith("pair ") for u in units)


def test_the_tasks_standard_error_is_over_the_units(exported: dict[str, Any]) -> None:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(exported["log"]))
    metrics = log.results.scores[0].metrics
    assert metrics["stderr"].params.get("cluster") == "unit"


def test_inspect_round_trip_scores_like_a_batch(exported: dict[str, Any], server: FakeOpenAIServer,
                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    imported, batch = tmp_path / "imported.db", tmp_path / "batch.db"
    assert main(["import", "inspect", str(exported["log"]), "--db", str(imported)]) == 0
    out = capsys.readouterr().out
    assert "32 new" in out and f"inspect-{PRESET}+{SUITE}-seed{SEED}" in out

    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
    server.reset()
    assert main(["batch", PRESET, "--suite", SUITE, "--seed", SEED, "--model", MODEL, "--db", str(batch),
                 "--no-progress"]) == 0
    # the server received the same conversations (texts and image bytes) from Inspect and from the batch
    assert Counter(json.dumps(wire_conversation(b)) for b in exported["requests"]) == \
        Counter(json.dumps(wire_conversation(r.body)) for r in server.chat_requests)

    a, b = score_json(imported, None, capsys), score_json(batch, None, capsys)
    assert a["models"] == b["models"]  # per-model accuracy, invalid and refusal rates, every paper metric
    assert (a["variants"], a["items_not_loaded"], a["seed"]) == (b["variants"], b["items_not_loaded"], b["seed"])
    acc = a["models"][MODEL]["accuracy"]
    assert acc["n"] == 32 and 0 < acc["value"] < 100  # some right, some wrong: the comparison can fail
    assert {"mediconfusion", "groups"} <= set(a["models"][MODEL]["paper"])
    # Inspect's scorer read the replies with probe-ui's reader: its verdicts agree with score's on every reply
    agreement = a["harness_agreement"]["models"][MODEL]
    assert agreement["compared"] == 32 and agreement["agree"] == 32 and agreement["rate"] == 100.0

    # stored as a batch stores them: the same variants, image hashes and prompts
    si, sb = Store(str(imported)), Store(str(batch))
    fi = si.answers_frame(si.get_run().id, detail=True).sort_values("variant_id")
    fb = sb.answers_frame(sb.get_run().id, detail=True).sort_values("variant_id")
    assert list(fi["variant_id"]) == list(fb["variant_id"])
    assert list(fi["image_ids"]) == list(fb["image_ids"]) and list(fi["prompt"]) == list(fb["prompt"])
    assert list(fi["messages"]) == list(fb["messages"]) and list(fi["raw_text"]) == list(fb["raw_text"])
    assert all(d["harness"]["name"] == "inspect" for d in fi["details"])

    # the score table says how often Inspect's verdicts and probe-ui's reading agree
    assert main(["score", "--db", str(imported)]) == 0
    assert "inspect's own verdicts against probe-ui's reading" in capsys.readouterr().out


def test_importing_the_same_log_again_adds_nothing_and_json_logs_read_too(exported: dict[str, Any], tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    db = str(tmp_path / "s.db")
    assert main(["import", "inspect", str(exported["log"]), "--db", db]) == 0
    as_json = tmp_path / "log.json"
    write_eval_log(read_eval_log(str(exported["log"])), str(as_json))
    capsys.readouterr()
    assert main(["import", "inspect", str(as_json), "--db", db, "--set", str(exported["set"])]) == 0
    assert "0 new, 32 already there" in capsys.readouterr().out


def _edited_log(exported: dict[str, Any], tmp_path: Path, edit: Any) -> Path:
    from inspect_ai.log import read_eval_log, write_eval_log

    log = read_eval_log(str(exported["log"]))
    edit(log)
    out = tmp_path / "edited.eval"
    write_eval_log(log, str(out))
    return out


def _fails(args: list[str], capsys: pytest.CaptureFixture[str], db: Path) -> str:
    capsys.readouterr()
    assert main(args + ["--db", str(db)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert not db.exists() or not Store(str(db)).list_runs()  # nothing half-imported
    return err


def test_a_log_of_another_task_is_refused_in_one_line(exported: dict[str, Any], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def strip(log: Any) -> None:
        log.eval.metadata = None
        for s in log.samples:
            s.metadata = {}

    path = _edited_log(exported, tmp_path, strip)
    err = _fails(["import", "inspect", str(path)], capsys, tmp_path / "s.db")
    assert str(path) in err and "not of a probe-ui set" in err and "probe_ui_set" in err


def test_a_sample_that_maps_to_no_item_is_refused_and_nothing_is_imported(exported: dict[str, Any], tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    def retarget(log: Any) -> None:
        log.samples[5].metadata = dict(log.samples[5].metadata, variant_id="0000000000000000")

    path = _edited_log(exported, tmp_path, retarget)
    err = _fails(["import", "inspect", str(path)], capsys, tmp_path / "s.db")
    assert str(path) in err and "variant '0000000000000000'" in err and "maps to no item" in err and "sample '" in err


def test_a_sample_whose_prompt_was_edited_is_refused(exported: dict[str, Any], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_ai.model import ChatMessageUser

    def edit(log: Any) -> None:
        s = log.samples[2]
        s.input = [m if m.role != "user" else ChatMessageUser(content="Just guess.") for m in s.input]

    path = _edited_log(exported, tmp_path, edit)
    err = _fails(["import", "inspect", str(path)], capsys, tmp_path / "s.db")
    assert "the prompt in the results is not the set's prompt" in err and "sample '" in err


def test_a_file_that_is_not_a_log_and_a_missing_set(exported: dict[str, Any], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.eval"
    junk.write_text("not a log", encoding="utf-8")
    err = _fails(["import", "inspect", str(junk)], capsys, tmp_path / "s.db")
    assert str(junk) in err and "not an Inspect log" in err
    # the log copied elsewhere, its set moved: found again with --set, and a usage error naming --set without it
    moved = tmp_path / "moved"
    shutil.copytree(exported["set"], moved)
    log = tmp_path / "elsewhere" / "x.eval"
    log.parent.mkdir()
    shutil.copy(exported["log"], log)
    shutil.move(str(exported["set"]), str(tmp_path / "gone"))
    try:
        with pytest.raises(SystemExit) as exc:
            main(["import", "inspect", str(log), "--db", str(tmp_path / "s.db")])
        assert exc.value.code == 2 and "--set DIR" in capsys.readouterr().err
        assert main(["import", "inspect", str(log), "--db", str(tmp_path / "s.db"), "--set", str(moved)]) == 0
    finally:
        shutil.move(str(tmp_path / "gone"), str(exported["set"]))


def test_an_edited_set_is_refused(exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "set"
    shutil.copytree(exported["set"], copy)
    manifest = copy / "probe-ui-set.json"
    doc = json.loads(manifest.read_text(encoding="utf-8"))
    vid = next(iter(doc["variants"]))
    doc["variants"][vid]["question"] += " (edited)"
    manifest.write_text(json.dumps(doc), encoding="utf-8")
    err = _fails(["import", "inspect", str(exported["log"]), "--set", str(copy)], capsys, tmp_path / "s.db")
    assert str(manifest) in err and f"variant {vid}" in err and "changed after export" in err
    image = next((copy / "images").iterdir())
    shutil.copy(exported["set"] / "probe-ui-set.json", manifest)
    image.write_bytes(image.read_bytes()[:-4] + b"\x00\x00\x00\x00")
    err = _fails(["import", "inspect", str(exported["log"]), "--set", str(copy)], capsys, tmp_path / "s.db")
    assert image.name in err and "changed after the set was exported" in err


def test_a_batch_run_is_not_mixed_with_harness_answers(exported: dict[str, Any], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    run = f"{PRESET}+{SUITE}-seed{SEED}"
    assert main(["batch", PRESET, "-m", "baseline/random", "--suite", SUITE, "--seed", SEED, "--db", db,
                 "--no-progress"]) == 0
    with pytest.raises(SystemExit) as exc:
        main(["import", "inspect", str(exported["log"]), "--db", db, "--run", run])
    assert exc.value.code == 2 and "holds a batch run's answers" in capsys.readouterr().err


def test_sample_errors_become_error_cells(exported: dict[str, Any], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_ai.log import EvalError

    def fail_one(log: Any) -> None:
        log.samples[0].error = EvalError(message="RateLimitError: too many requests", traceback="",
                                         traceback_ansi="")

    path = _edited_log(exported, tmp_path, fail_one)
    db = tmp_path / "s.db"
    assert main(["import", "inspect", str(path), "--db", str(db)]) == 0
    assert "1 samples have no reply" in capsys.readouterr().err
    report = score_json(db, None, capsys)
    assert report["models"][MODEL]["errors"] == 1 and report["models"][MODEL]["answered"] == 31


def test_without_probe_ui_the_task_scores_with_inspects_own_pattern(exported: dict[str, Any],
                                                                     server: FakeOpenAIServer, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Where probe-ui is not installed (a harness machine), the task still runs and scores; the import reads the
    raw replies with probe-ui's reader anyway and keeps Inspect's verdicts beside them."""
    shadow = tmp_path / "shadow" / "probe_ui"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('probe-ui is not installed here')\n", encoding="utf-8")
    log = inspect_eval(exported["root"], "set/task.py", server, tmp_path / "logs", "--limit", "8",
                       env={"PYTHONPATH": str(shadow.parent)})
    from inspect_ai.log import read_eval_log

    scores = [s.scores["probe_ui_reader"] for s in read_eval_log(str(log)).samples]
    assert len(scores) == 8 and {s.metadata["reader"] for s in scores} == {"inspect pattern()"}
    db = tmp_path / "s.db"
    assert main(["import", "inspect", str(log), "--db", str(db)]) == 0
    report = score_json(db, None, capsys)
    assert report["models"][MODEL]["n"] == 8
    assert report["harness_agreement"]["models"][MODEL]["compared"] >= 1


def test_a_log_whose_calls_failed_imports_them_as_failed_calls(exported: dict[str, Any], server: FakeOpenAIServer,
                                                               tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    """Issue 48: Inspect's Responses API against a server that speaks only chat completions fails every call; the
    import said "unexpected IndexError … (a bug in probe-ui …)". What the log holds comes in as failed calls, in one
    line each way, and a log with no samples at all is one line."""
    log_dir = tmp_path / "logs"
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "INSPECT_"))}
    run_env.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-loopback", NO_PROXY="127.0.0.1,localhost",
                   no_proxy="127.0.0.1,localhost", INSPECT_DISPLAY="none")
    subprocess.run([str(INSPECT), "eval", "set/task.py", "--model", MODEL, "--log-dir", str(log_dir), "--limit", "4",
                    "-M", "responses_api=true", "--max-retries", "0"],
                   cwd=exported["root"], env=run_env, capture_output=True, text=True, timeout=540)
    logs = sorted(log_dir.glob("*.eval"))
    assert len(logs) == 1, logs
    db = tmp_path / "s.db"
    capsys.readouterr()
    code = main(["import", "inspect", str(logs[0]), "--db", str(db)])
    out = capsys.readouterr()
    assert "bug in probe-ui" not in out.err and "Traceback" not in out.err
    assert code == 0, out.err
    assert "4 samples have no reply" in out.err and "-M responses_api=false" in out.err
    report = score_json(db, None, capsys)
    assert report["models"][MODEL]["errors"] == 4 and report["models"][MODEL]["answered"] == 0

    def no_samples(log: Any) -> None:
        log.samples = []

    empty = _edited_log(exported, tmp_path, no_samples)
    err = _fails(["import", "inspect", str(empty)], capsys, tmp_path / "e.db")
    assert str(empty) in err and "holds no samples" in err
