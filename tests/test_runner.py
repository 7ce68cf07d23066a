"""The runner as a batch user relies on it: replicas, resizing, the cache, sampling, judges, faults, secrets."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from fake_openai import FakeOpenAIServer
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.store import Store, responses


def backend(folder: Path, name: str, **entry) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.yaml").write_text(yaml.safe_dump({"name": name, "provider": "openai", **entry}),
                                         encoding="utf-8")


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    for i in range(4):
        write_png(tmp_path / f"im{i}.png", size=(48, 32), seed=i)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i % 4}.png", answer="B") for i in range(6)])


def rows(db: str) -> list[dict]:
    with Store(db).engine.connect() as c:
        return [dict(r) for r in c.execute(sa.select(responses).order_by(responses.c.id)).mappings()]


def test_replicas_share_the_load_and_a_failing_replica_is_skipped(tmp_path, preset, monkeypatch, capsys) -> None:
    with FakeOpenAIServer(answer="B", latency_s=0.05) as a, FakeOpenAIServer(answer="B", latency_s=0.05) as b, \
            FakeOpenAIServer(answer="B") as broken:
        broken.fail(503, times=1000)
        backend(tmp_path / "be", "pool", model="m", base_url=[a.base_url, b.base_url, broken.base_url],
                options={"max_retries": 0})
        monkeypatch.setenv("PROBE_UI_BACKENDS", str(tmp_path / "be"))
        db = str(tmp_path / "x.db")
        assert main(["batch", str(preset), "-m", "pool", "--db", db, "--no-progress"]) == 0
        assert len(a.chat_requests) >= 1 and len(b.chat_requests) >= 1
        assert len(a.chat_requests) + len(b.chat_requests) == 6
        served = [r["details"]["replica"] for r in rows(db)]
        assert set(served) <= {a.base_url, b.base_url}
    capsys.readouterr()


def test_images_are_resized_to_the_model_limit_and_the_resize_is_recorded(tmp_path, preset, fake_openai,
                                                                          monkeypatch, capsys) -> None:
    import base64
    import io

    from PIL import Image

    backend(tmp_path / "be", "small", model="m", base_url=fake_openai.base_url, max_image_side=16)
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(tmp_path / "be"))
    fake_openai.answer = "B"
    db = str(tmp_path / "x.db")
    assert main(["batch", str(preset), "-m", "small", "--db", db, "--no-progress"]) == 0
    url = fake_openai.chat_requests[0].body["messages"][-1]["content"][0]["image_url"]["url"]
    sent = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert sent.size == (16, 11)
    row = rows(db)[0]
    rec = row["details"]["resized"][0]
    assert rec["from_size"] == [48, 32] and rec["size"] == [16, 11]
    sent_id = row["messages"][-1]["content"][0]["image_id"]
    assert sent_id == rec["to"] and Store(db).get_image(sent_id).width == 16
    capsys.readouterr()


def test_a_deterministic_request_answered_before_is_served_from_the_cache(tmp_path, preset, fake_openai,
                                                                         monkeypatch, capsys) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    db = str(tmp_path / "x.db")
    args = ["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--no-progress"]
    assert main(args + ["--run", "first"]) == 0
    assert len(fake_openai.chat_requests) == 6
    assert main(args + ["--run", "second"]) == 0  # another run, same requests
    assert len(fake_openai.chat_requests) == 6
    second = [r for r in rows(db) if r["run_id"] == 2]
    assert len(second) == 6 and all("cached_from" in r["details"] for r in second)
    assert main(args + ["--run", "third", "--no-cache"]) == 0
    assert len(fake_openai.chat_requests) == 12
    capsys.readouterr()


@pytest.mark.parametrize("most", [100_000, 3], ids=["index", "too-many-to-read"])
def test_a_batch_reads_which_requests_were_answered_once_and_asks_the_cache_only_about_those(
        tmp_path, preset, fake_openai, monkeypatch, capsys, most) -> None:
    """A fresh store: nothing to look up per call. Answers in the store: each of their requests served from the
    cache, as before. More answered requests than a batch reads (``most``): it asks the database per call."""
    from probe_ui.runner import execute

    monkeypatch.setattr(execute, "CACHE_INDEX_MOST", most)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    looked: list[str] = []
    real = Store.cached_response
    monkeypatch.setattr(Store, "cached_response",
                        lambda self, h, role="answer": looked.append(h) or real(self, h, role))
    db = str(tmp_path / "x.db")
    args = ["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--no-progress"]
    assert main(args + ["--run", "first"]) == 0
    assert len(fake_openai.chat_requests) == 6
    assert not looked or most == 3  # a fresh store: nothing looked up (but past `most` answers kept, per call)
    looked.clear()
    assert main(args + ["--run", "second"]) == 0
    assert len(looked) == 6 and len(fake_openai.chat_requests) == 6  # each served from the cache
    assert all("cached_from" in r["details"] for r in rows(db) if r["run_id"] == 2)
    looked.clear()
    assert main(args + ["--run", "third", "--seed", "5"]) == 0  # requests never answered (another seed)
    assert len(fake_openai.chat_requests) == 12
    assert len(looked) == (0 if most > 3 else 6)  # read once; beyond `most`, looked up per call
    capsys.readouterr()


def test_sampling_stores_every_sample_and_scores_the_majority(tmp_path, preset, fake_openai, monkeypatch,
                                                             capsys) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    answers = iter(["B", "A", "B"] * 6)
    fake_openai.responder = lambda body: next(answers)
    db = str(tmp_path / "x.db")
    assert main(["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--samples", "3", "--temperature",
                 "0.8", "--concurrency", "1", "--no-progress"]) == 0
    stored = rows(db)
    assert len(stored) == 18 and {r["sample"] for r in stored} == {0, 1, 2}
    assert all(r["settings"]["temperature"] == 0.8 for r in stored)
    report = json.loads(_out(capsys, ["score", "--db", db, "--json"]))
    acc = report["models"]["openai/fake-vlm"]["accuracy"]
    assert acc["denominator"] == 6 and acc["value"] == 100.0  # B wins 2 votes to 1 in every cell
    code = main(["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--samples", "3"])
    assert code == 1 and "temperature" in capsys.readouterr().err


def test_a_judge_maps_free_form_answers_with_mediconfusion_margin(tmp_path, preset, fake_openai, monkeypatch,
                                                                 capsys) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")

    def respond(body: dict) -> str:
        text = json.dumps(body["messages"])
        if "[AI Assistant]" in text:
            # the judge: the reply names finding i-1 clearly for even items, vaguely for odd ones
            clear = "finding 0-1" in text or "finding 2-1" in text or "finding 4-1" in text
            return "A: 2\nB: 9\nYour explanation: close to B" if clear else "A: 5\nB: 7\nYour explanation: unsure"
        return "It looks like the second finding to me."

    fake_openai.responder = respond
    db = str(tmp_path / "x.db")
    assert main(["batch", str(preset), "-m", "openai/fake-vlm", "--prompt", "free", "--judge", "openai/judge",
                 "--db", db, "--no-progress"]) == 0
    stored = rows(db)
    answers = [r for r in stored if r["role"] == "answer"]
    judged = [r for r in stored if r["role"] == "judge"]
    assert len(answers) == 6 and len(judged) == 6
    assert all(j["parent_id"] in {a["id"] for a in answers} for j in judged)
    # the answers keep the parser's reading; the scored table reads each through its judge
    from probe_ui.scoring import scored_answers
    from probe_ui.store import Store

    assert all(a["method"] is None or not a["method"].startswith("judge") for a in answers)
    scored = scored_answers(Store(db)).set_index("response_id")
    by_item = {json.loads(json.dumps(a["messages"]))[-1]["content"][-1]["text"].split("image ")[1][0]:
               scored.loc[a["id"]] for a in answers}
    assert by_item["0"]["parsed"] == "B" and by_item["0"]["method"] == "judge-mediconfusion" and by_item["0"]["correct"]
    assert by_item["1"]["parsed"] is None and by_item["1"]["method"] == "judge-mediconfusion-margin"
    assert by_item["0"]["judge_model"] == "openai/judge" and "B: 9" in by_item["0"]["judge_text"]
    report = json.loads(_out(capsys, ["score", "--db", db, "--json"]))
    assert set(report["models"]) == {"openai/fake-vlm"}  # judge calls are not a model's answers
    assert report["models"]["openai/fake-vlm"]["accuracy"]["numerator"] == 3


def test_ten_percent_faults_every_cell_answered_or_a_clear_error(tmp_path, fake_openai, monkeypatch, capsys) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    write_png(tmp_path / "a.png")
    p = write_preset(tmp_path / "p.yaml", [choice_item(i, "a.png") for i in range(200)])
    rng = random.Random(5)
    kinds = [dict(status=429, retry_after=0.01), dict(status=500), dict(status=503), dict(malformed=True),
             dict(close=True), dict(delay_s=3.0)]
    backend(tmp_path / "be", "flaky", model="fake-vlm", base_url=fake_openai.base_url,
            generation={"timeout_s": 1.0}, options={"max_retries": 2})
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(tmp_path / "be"))
    fake_openai.answer = "A"
    original = fake_openai._record

    def faulty(req):  # 10 % of calls get a fault of a random kind
        if req.path.endswith("/chat/completions") and rng.random() < 0.10:
            fake_openai.fail(**rng.choice(kinds))
        return original(req)

    fake_openai._record = faulty
    db = str(tmp_path / "x.db")
    main(["batch", str(p), "-m", "flaky", "--db", db, "--no-progress", "--concurrency", "16"])
    out = capsys.readouterr()
    stored = rows(db)
    assert len(stored) == 200 and len({r["variant_id"] for r in stored}) == 200
    for r in stored:
        assert ((r["error"] is None and r["parsed"] == "A")
                or (r["error"] and r["error"].startswith("openai/fake-vlm: ")))
    assert "Traceback" not in out.err


def test_an_api_key_never_reaches_the_store_or_the_output(tmp_path, preset, monkeypatch, capsys) -> None:
    key = "sk-planted-secret-0123456789"
    with FakeOpenAIServer(answer="B", expected_key="sk-the-right-one") as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", key)
        db = tmp_path / "data" / "x.db"
        main(["batch", str(preset), "-m", "openai/fake-vlm", "--db", str(db), "--no-progress"])
        main(["score", "--db", str(db), "--json"])
        out = capsys.readouterr()
        assert any(key in (r.authorization or "") for r in server.requests)  # it was sent, and the server echoed it
    assert key not in out.out and key not in out.err
    assert "401" in out.err
    for f in db.parent.rglob("*"):
        if f.is_file():
            assert key.encode() not in f.read_bytes(), f


def _out(capsys, argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 0
    return capsys.readouterr().out


def test_a_local_model_answers_a_batch_and_gd_mode_stores_option_probabilities(tmp_path, preset, tiny_llava,
                                                                              monkeypatch, capsys) -> None:
    backend(tmp_path / "be", "tiny-gd", provider="hf", model=str(tiny_llava), options={"mode": "gd"})
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(tmp_path / "be"))
    db = str(tmp_path / "x.db")
    assert main(["batch", str(preset), "-m", f"hf/{tiny_llava}", "-m", "tiny-gd", "--db", db, "--no-progress"]) == 0
    stored = rows(db)
    assert len(stored) == 12 and all(r["error"] is None for r in stored)
    gd = [r for r in stored if r["model"] == "tiny-gd"]
    for r in gd:
        probs = r["details"]["option_probs"]
        assert set(probs) == {"A", "B"} and abs(sum(probs.values()) - 1) < 1e-6
        assert r["parsed"] == max(probs, key=probs.get)
    # the same model in another mode is a different cache entry
    assert {r["request_hash"] for r in gd}.isdisjoint({r["request_hash"] for r in stored if r["model"] != "tiny-gd"})
    capsys.readouterr()
