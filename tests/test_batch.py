"""End to end on the command line: preset → variants → models → stored, scored answers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from helpers import choice_item, run_cli, write_png, write_preset

from probe_ui.cli import main
from probe_ui.runner.batch import BatchResult
from probe_ui.store import Store, responses, variants


@pytest.fixture
def pair_preset(tmp_path: Path) -> Path:
    for i in range(4):
        write_png(tmp_path / f"im{i}.png", seed=i)
    items = [choice_item(i, f"im{i % 4}.png", answer="AB"[i % 2], group=f"pair{i // 2}") for i in range(400)]
    return write_preset(tmp_path / "pairs.yaml", items)


@pytest.mark.slow
def test_random_baseline_is_near_chance_and_first_is_exact(pair_preset: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    code, out, _ = run_cli(capsys, "batch", str(pair_preset), "--model", "baseline/random", "--model",
                           "baseline/first", "--db", db, "--no-progress")
    assert code == 0, out
    assert "800 answers planned, 0 already done, 800 new, 0 errors" in out
    code, out, _ = run_cli(capsys, "score", "--db", db, "--json")
    assert code == 0
    report = json.loads(out)
    rnd, first = report["models"]["baseline/random"], report["models"]["baseline/first"]
    assert rnd["n"] == 400 and rnd["accuracy"]["random"] == pytest.approx(50.0)
    # 400 fair coin flips: sd = 2.5 pp; 4 sd either side
    assert abs(rnd["accuracy"]["value"] - 50.0) < 10.0
    lo, hi = rnd["accuracy"]["ci"]
    assert lo < rnd["accuracy"]["value"] < hi
    # answer A on even items, B on odd: 'always first' is right exactly half the time
    assert first["accuracy"]["numerator"] == 200 and first["accuracy"]["value"] == pytest.approx(50.0)
    assert first["invalid_rate"]["value"] == 0.0 and first["errors"] == 0
    # the terminal table names both models
    code, out, _ = run_cli(capsys, "score", "--db", db)
    assert "baseline/random" in out and "baseline/first" in out and "accuracy" in out


@pytest.mark.slow
def test_same_seed_same_random_answers(pair_preset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def answers(db: str, seed: str) -> list[str]:
        assert main(["batch", str(pair_preset), "-m", "baseline/random", "--db", db, "--seed", seed,
                     "--no-progress"]) == 0
        with Store(db).engine.connect() as c:
            return [r[0] for r in c.execute(sa.select(responses.c.raw_text).order_by(responses.c.variant_id))]

    a = answers(str(tmp_path / "a.db"), "7")
    assert a == answers(str(tmp_path / "b.db"), "7")
    assert a != answers(str(tmp_path / "c.db"), "8")
    capsys.readouterr()


@pytest.mark.slow
def test_rerun_adds_no_rows_and_makes_no_second_call(tmp_path: Path, fake_openai, monkeypatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    for i in range(3):
        write_png(tmp_path / f"im{i}.png", seed=i)
    p = write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i}.png", answer="B") for i in range(3)],
                     perturbations=[{"name": "rot90", "steps": [{"op": "rotate", "angle": 90}]}])
    fake_openai.answer = "The correct answer is (B)."
    db = str(tmp_path / "x.db")
    args = ["batch", str(p), "-m", "openai/fake-vlm", "-m", "baseline/last", "--db", db, "--no-progress"]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert len(fake_openai.chat_requests) == 6  # 3 items x (original + rot90)
    store = Store(db)
    n_rows, n_var = store.count(responses), store.count(variants)
    assert (n_rows, n_var) == (12, 6)
    code, out, _ = run_cli(capsys, *args)
    assert code == 0 and "12 already done, 0 new" in out
    assert len(fake_openai.chat_requests) == 6
    assert (store.count(responses), store.count(variants)) == (n_rows, n_var)
    report = json.loads(run_cli(capsys, "score", "--db", db, "--json")[1])
    assert report["models"]["openai/fake-vlm"]["accuracy"]["value"] == 100.0
    # every logged answer traces to the exact prompt, image hashes and settings
    with store.engine.connect() as c:
        row = c.execute(sa.select(responses).where(responses.c.model == "openai/fake-vlm")).mappings().first()
    assert row["parsed"] == "B" and row["method"] and row["correct"] is True
    image_id = row["messages"][1]["content"][0]["image_id"]
    assert store.get_image(image_id).id == image_id
    assert row["settings"]["temperature"] == 0 and row["settings"]["seed"] == 0
    assert "sk-test-not-real" not in json.dumps(dict(row), default=str)


@pytest.mark.slow
def test_failing_model_gives_error_cells_the_others_complete_and_rerun_retries(
        tmp_path: Path, fake_openai, monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    write_png(tmp_path / "a.png")
    p = write_preset(tmp_path / "p.yaml", [choice_item(i, "a.png") for i in range(4)])
    db = str(tmp_path / "x.db")
    fake_openai.fail(400, times=100)  # not retriable by the SDK
    code, out, err = run_cli(capsys, "batch", str(p), "-m", "openai/fake-vlm", "-m", "baseline/first", "--db", db,
                             "--no-progress")
    assert code == 1
    assert "4 new, 4 errors" in out
    # one line for the four cells that failed alike, not four
    failures = [line for line in err.splitlines() if "openai/fake-vlm" in line]
    assert len(failures) == 1, err
    named = re.search(r"openai/fake-vlm on 4 cells \(items (.+?)\): .*400", failures[0])
    assert named and sorted(named.group(1).split(", ")) == ["q0", "q1", "q2", "q3"], failures[0]
    report = json.loads(run_cli(capsys, "score", "--db", db, "--json")[1])
    assert report["models"]["openai/fake-vlm"]["errors"] == 4 and report["models"]["baseline/first"]["n"] == 4
    fake_openai.faults.clear()
    code, out, err = run_cli(capsys, "batch", str(p), "-m", "openai/fake-vlm", "-m", "baseline/first", "--db", db,
                             "--no-progress")
    assert code == 0 and "4 already done, 4 new, 0 errors" in out
    assert Store(db).count(responses) == 8  # error rows were replaced, not duplicated


def test_bad_items_are_recorded_and_the_rest_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_png(tmp_path / "good.png")
    (tmp_path / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    (tmp_path / "notes.dcm").write_text("this is a text file, not DICOM", encoding="utf-8")
    p = write_preset(tmp_path / "p.yaml", [
        choice_item(0, "good.png"), choice_item(1, "corrupt.png"), choice_item(2, "notes.dcm"),
        choice_item(3, "missing.png"), choice_item(4, "good.png")])
    db = str(tmp_path / "x.db")
    code, out, err = run_cli(capsys, "batch", str(p), "-m", "baseline/first", "--db", db, "--no-progress")
    assert code == 1
    assert "2 answers planned" in out and "3 items not loaded" in out
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 3
    assert any("item 'q1'" in line and "corrupt.png" in line for line in lines)
    assert any("item 'q2'" in line and "notes.dcm" in line for line in lines)
    assert any("item 'q3'" in line and "missing.png" in line and "not found" in line for line in lines)
    report = json.loads(run_cli(capsys, "score", "--db", db, "--json")[1])
    assert report["items_not_loaded"] == 3 and report["models"]["baseline/first"]["n"] == 2


@pytest.mark.parametrize("argv, message", [
    (["-m", "nosuch/model"], "unknown provider 'nosuch'"),
    (["-m", "gpt-5-imaginary"], "unknown model 'gpt-5-imaginary'"),
    (["-m", "baseline/sometimes"], "unknown baseline 'sometimes'"),
    ([], "no model given"),
])
def test_unknown_models_fail_before_any_work(tmp_path: Path, capsys, argv, message) -> None:
    write_png(tmp_path / "a.png")
    p = write_preset(tmp_path / "p.yaml", [choice_item(0, "a.png")])
    db = tmp_path / "x.db"
    code, out, err = run_cli(capsys, "batch", str(p), "--db", str(db), "--no-progress", *argv)
    assert code == 1 and err.startswith("error: ") and message in err and err.count("\n") == 1
    assert "Traceback" not in err
    assert not db.exists() or Store(str(db)).count(responses) == 0


def test_missing_key_is_one_clear_line(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    write_png(tmp_path / "a.png")
    p = write_preset(tmp_path / "p.yaml", [choice_item(0, "a.png")])
    code, _, err = run_cli(capsys, "batch", str(p), "-m", "openai/gpt-4o", "--db", str(tmp_path / "x.db"))
    assert code == 1 and "OPENAI_API_KEY" in err and err.count("\n") == 1


def test_preset_errors_and_usage_errors(tmp_path: Path, capsys) -> None:
    (tmp_path / "bad.yaml").write_text("items:\n  - id: x\n    options: [a, b]\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "batch", str(tmp_path / "bad.yaml"), "-m", "baseline/random", "--db",
                           str(tmp_path / "x.db"))
    assert code == 1 and "bad.yaml: item 1 ('x'): field 'question': required field is missing" in err
    with pytest.raises(SystemExit) as exc:
        main(["batch"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["batch", str(tmp_path / "bad.yaml"), "--concurrency", "0", "-m", "baseline/random"])
    assert exc.value.code == 2
    Store(tmp_path / "empty.db").close()  # a store with no runs yet
    code, _, err = run_cli(capsys, "score", "--db", str(tmp_path / "empty.db"))
    assert code == 1 and f"no runs in {tmp_path / 'empty.db'} yet" in err
    code, _, err = run_cli(capsys, "score", "--db", str(tmp_path / "empty.db"), "--run", "nope")
    assert code == 1 and "no run named 'nope'" in err


@pytest.mark.slow
def test_run_name_reuse_with_another_seed_is_refused(pair_preset: Path, tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "x.db")
    assert main(["batch", str(pair_preset), "-m", "baseline/first", "--db", db, "--run", "r1", "--no-progress"]) == 0
    code, _, err = run_cli(capsys, "batch", str(pair_preset), "-m", "baseline/first", "--db", db, "--run", "r1",
                           "--seed", "5", "--no-progress")
    assert code == 1 and "seed" in err


def test_models_lists_providers_and_catalogue(capsys, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    code, out, _ = run_cli(capsys, "models", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["baseline/<model>"]["usable"] is True
    assert rows["gpt-4o"]["usable"] is False and "OPENAI_API_KEY" in rows["gpt-4o"]["reason"]
    code, out, _ = run_cli(capsys, "models")
    assert code == 0 and "gpt-4o" in out and "baseline/<model>" in out


def test_dicom_patient_fields_warn_and_never_reach_store_or_model(tmp_path: Path, fake_openai, monkeypatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    shutil.copy(Path(__file__).parent / "data" / "CT_small.dcm", tmp_path / "scan.dcm")
    p = write_preset(tmp_path / "p.yaml", [
        {"id": "ct", "image": {"path": "scan.dcm", "window": [40, 400]}, "question": "Is this a CT scan?",
         "answer": "yes"}])
    data = tmp_path / "data"
    code, out, err = run_cli(capsys, "batch", str(p), "-m", "openai/fake-vlm", "--db", str(data / "x.db"),
                             "--no-progress")
    assert code == 0
    assert "warning:" in err and "PatientName" in err and "CompressedSamples" not in err
    sent = json.dumps([r.body for r in fake_openai.chat_requests])
    assert "CompressedSamples" not in sent and "1CT1" not in sent
    for f in data.rglob("*"):
        if f.is_file():
            blob = f.read_bytes()
            assert b"CompressedSamples" not in blob and b"1CT1" not in blob, f


def test_a_local_server_that_is_not_running_fails_before_any_work(tmp_path: Path, capsys, monkeypatch) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{port}")
    write_png(tmp_path / "a.png")
    p = write_preset(tmp_path / "p.yaml", [choice_item(0, "a.png")])
    code, _, err = run_cli(capsys, "batch", str(p), "-m", "ollama/llava", "--db", str(tmp_path / "x.db"))
    assert code == 1 and "no server answering" in err and "ollama serve" in err and err.count("\n") == 1


def test_a_failure_shared_by_many_cells_is_one_line_naming_its_first_items() -> None:
    """A model that cannot load fails every cell alike: the batch's summary says so once, with the count and the
    first items, and keeps a different message of the same model (or another model's) on its own line."""
    result = BatchResult(run=None)  # type: ignore[arg-type]
    for i in range(16):
        result.record_failure("hf/llava", f"q{i // 2}", "cannot load: its processor needs torchvision")
    result.record_failure("hf/llava", "q3", "CUDA out of memory")
    result.record_failure("openai/a", "q1", "HTTP 400")
    assert result.error_messages == [
        "hf/llava on 16 cells (items q0, q1, q2, q3, q4, ...): cannot load: its processor needs torchvision",
        "hf/llava on q3: CUDA out of memory",
        "openai/a on q1: HTTP 400"]


def test_random_baseline_answers_a_pushback_the_same_whatever_the_store_held_before(tmp_path: Path,
                                                                                    capsys) -> None:
    """baseline/random draws by the variant, which the request cache's key leaves out: a pushback's first turn sends
    the original question's words, and served from the cache it was the original's draw when the original had been
    stored first (and its own when not), so the figures hung on the order. Each turn is also a draw of its own."""

    def turns(db: Path) -> dict[str, list[str]]:
        with Store(db).engine.connect() as c:
            got = c.execute(sa.select(responses.c.variant_id, responses.c.details)
                            .where(responses.c.model == "baseline/random")).all()
        return {v: [t["text"] for t in (d or {}).get("pushback", {}).get("turns", [])] for v, d in got
                if (d or {}).get("pushback")}

    push = ["-m", "baseline/random", "--suite", "pushback", "--no-progress"]
    assert run_cli(capsys, "batch", "mediconfusion_pairs", *push, "--db", str(tmp_path / "a.db"))[0] == 0
    b = str(tmp_path / "b.db")  # the same store answered the original questions first, in another run
    assert run_cli(capsys, "batch", "mediconfusion_pairs", "-m", "baseline/random", "--no-progress", "--db", b,
                   "--run", "plain")[0] == 0
    assert run_cli(capsys, "batch", "mediconfusion_pairs", *push, "--db", b)[0] == 0
    first, second = turns(tmp_path / "a.db"), turns(Path(b))
    assert first and first == second
    assert any(len(set(t)) > 1 for t in first.values())  # a guesser's answers after pushback are draws of their own
