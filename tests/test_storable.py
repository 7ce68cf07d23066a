"""Issue 14, F6 and F12: what a provider or a preset sends must never stop a batch at the store.

F6: a reply that the database cannot take as it is (a lone surrogate, a NUL byte, token counts of 10**30, a very
long finish reason) is stored cleaned, or as an error cell when even that fails; the other models' answers are kept
and a re-run finishes. F12: item ids, conditions, run and model names have the same limits on SQLite and
PostgreSQL (long ones work on both; names past the limit are refused in one line).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from fake_openai import FakeOpenAIServer
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.store import KEY_MAX_BYTES, Store, StoreError, responses


def _reply(content: str, *, finish_reason: str = "stop", tokens: int = 7) -> str:
    """A chat-completions body written by hand, so that it can carry what a real server might: escapes for lone
    surrogates and NUL, absurd token counts."""
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": tokens, "completion_tokens": tokens, "total_tokens": tokens}}
    return json.dumps(body)  # ensure_ascii: "\ud800" and "\x00" travel as JSON escapes, as a server would send them


def _backends(folder: Path, **models: str) -> Path:
    folder.mkdir(exist_ok=True)
    for name, url in models.items():
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(
            {"name": name, "provider": "openai", "model": "m", "base_url": url, "options": {"max_retries": 0}}),
            encoding="utf-8")
    return folder


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    write_png(tmp_path / "im.png", size=(32, 32), seed=1)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, "im.png", answer="B") for i in range(4)])


def _rows(db: str) -> list[dict]:
    with Store(db).engine.connect() as c:
        return [dict(r) for r in c.execute(sa.select(responses).order_by(responses.c.id)).mappings()]


HOSTILE = [
    pytest.param({"content": "B \ud800 and \udfff"}, id="lone-surrogates"),
    pytest.param({"content": "B\x00C"}, id="nul-byte"),
    pytest.param({"content": "B", "tokens": 10**30}, id="huge-token-counts"),
    pytest.param({"content": "B", "finish_reason": "x" * 5000}, id="long-finish-reason"),
]


def _batch_with_a_hostile_model(tmp_path: Path, preset: Path, db: str, reply: dict, monkeypatch, capsys) -> None:
    with FakeOpenAIServer(answer="B") as good, FakeOpenAIServer(answer="B") as bad:
        bad.override("/v1/chat/completions", _reply(**reply))
        monkeypatch.setenv("PROBE_UI_BACKENDS", str(_backends(tmp_path / "be", good=good.base_url,
                                                               bad=bad.base_url)))
        args = ["batch", str(preset), "-m", "good", "-m", "bad", "--db", db, "--no-progress", "--run", "r"]
        main(args)
        first = _rows(db)
        asked = len(good.chat_requests) + len(bad.chat_requests)
        assert asked == 8
        # every answer of both models is there: the good model's whole, the hostile one's cleaned or an error cell
        assert sorted(r["model"] for r in first) == ["bad"] * 4 + ["good"] * 4
        assert all(r["error"] is None and r["raw_text"] == "B" for r in first if r["model"] == "good")
        bad_rows = [r for r in first if r["model"] == "bad"]
        for r in bad_rows:
            assert r["error"] is None, r["error"]  # cleaned, not refused: the reply is readable
            assert "\x00" not in (r["raw_text"] or "") and len(r["finish_reason"] or "") <= 60
            r["raw_text"].encode("utf-8")  # no lone surrogate left
            assert r["input_tokens"] in (None, 7) and r["output_tokens"] in (None, 7)
            assert r["parse_version"] is not None and r["invalid"] is not None  # the reply was read and graded
        # a re-run asks nothing and finishes
        assert main(args) == 0
        assert len(good.chat_requests) + len(bad.chat_requests) == asked
    capsys.readouterr()


@pytest.mark.parametrize("reply", HOSTILE)
def test_a_reply_sqlite_cannot_take_as_it_is_is_stored_cleaned_and_the_batch_goes_on(tmp_path, preset, reply,
                                                                                      monkeypatch, capsys) -> None:
    _batch_with_a_hostile_model(tmp_path, preset, str(tmp_path / "s.db"), reply, monkeypatch, capsys)


@pytest.mark.parametrize("reply", HOSTILE)
def test_a_reply_postgres_cannot_take_as_it_is_is_stored_cleaned_and_the_batch_goes_on(tmp_path, preset, reply,
                                                                                        postgres_db, monkeypatch,
                                                                                        capsys) -> None:
    _batch_with_a_hostile_model(tmp_path, preset, postgres_db, reply, monkeypatch, capsys)


def test_a_row_the_database_refuses_after_cleaning_becomes_an_error_cell(tmp_path) -> None:
    store = Store(tmp_path / "s.db")
    run = store.ensure_run("r", 0, {})
    from probe_ui.items import Variant

    v = Variant("q1", "Which?", "choice", ("a", "b"), "a", ())
    store.add_variants(run.id, [v])
    row = {"run_id": run.id, "variant_id": v.id, "model": "m", "prompt": "default", "sample": 0,
           "request_hash": "h", "messages": [], "settings": {}, "raw_text": "A", "parsed": "A", "method": "x",
           "invalid": False, "refusal": False, "correct": True, "latency_s": 0.1, "input_tokens": 1,
           "output_tokens": 1, "cost": 0.0, "error": None, "finish_reason": "stop",
           "details": {"not json": object()}}  # nothing can store this
    store.save_response(row)
    (saved,) = _rows(str(tmp_path / "s.db"))
    assert saved["error"] and "could not be stored" in saved["error"]
    assert saved["raw_text"] is None and saved["correct"] is None
    # the cell stays to do: a re-run asks it again
    assert store.done_cells(run.id) == set()


LONG_ID = "item-" + "é" * 400  # 805 bytes: over the old 200-character columns, under the limit


def _long_batch(tmp_path: Path, db: str, fake_openai, monkeypatch, capsys) -> list[dict]:
    write_png(tmp_path / "im.png", size=(32, 32), seed=1)
    item = dict(choice_item(0, "im.png", answer="B"), id=LONG_ID)
    p = write_preset(tmp_path / "p.yaml", [item], perturbations=[
        {"name": "c" * 300, "steps": [{"op": "rotate", "angle": 90}]}])
    name = "m" * 400
    be = tmp_path / "be"
    be.mkdir()
    (be / "x.yaml").write_text(yaml.safe_dump({"name": name, "provider": "openai", "model": "m",
                                               "base_url": fake_openai.base_url}), encoding="utf-8")
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(be))
    assert main(["batch", str(p), "-m", name, "--db", db, "--no-progress", "--run", "r" * 500]) == 0
    capsys.readouterr()
    return _rows(db)


def test_long_ids_conditions_and_names_are_stored_on_sqlite(tmp_path, fake_openai, monkeypatch, capsys) -> None:
    got = _long_batch(tmp_path, str(tmp_path / "s.db"), fake_openai, monkeypatch, capsys)
    assert len(got) == 2 and all(r["error"] is None for r in got)


def test_long_ids_conditions_and_names_are_stored_on_postgres(tmp_path, fake_openai, postgres_db, monkeypatch,
                                                              capsys) -> None:
    got = _long_batch(tmp_path, postgres_db, fake_openai, monkeypatch, capsys)
    assert len(got) == 2 and all(r["error"] is None for r in got)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_names_past_the_limit_are_refused_in_one_line_on_both_back_ends(tmp_path, backend, request) -> None:
    db = str(tmp_path / "s.db") if backend == "sqlite" else request.getfixturevalue("postgres_db")
    store = Store(db)
    with pytest.raises(StoreError, match=r"run name is \d[\d,]* bytes long; at most 1,000"):
        store.ensure_run("r" * (KEY_MAX_BYTES + 1), 0, {})
    assert store.list_runs() == []
