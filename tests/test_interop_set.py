"""export-set: the set is what a batch asks (same variant ids, images and prompts), written only into a new or empty
folder, and bad requests get one line; import <harness> refuses what does not apply to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_fixtures import mixed_preset, reply_for, set_conversation
from helpers import write_png, write_preset

from probe_ui.catalogue import resolve
from probe_ui.cli import main
from probe_ui.interop.benchset import build_set, load_set
from probe_ui.presets import load_preset
from probe_ui.presets.suites import expand
from probe_ui.runner import plan_cells
from probe_ui.store import Store


def test_the_set_is_what_a_batch_asks(tmp_path: Path) -> None:
    preset = mixed_preset(tmp_path)
    bset = build_set(str(preset), 7, ["rotations"])
    p = load_preset(str(preset))
    variants = expand(p, 7, ["rotations"]).variants
    cells = plan_cells(variants, [resolve("openai/gpt-4o", {})], None, 7, {p.path: p.prompt})
    assert [s.variant.id for s in bset.samples] == [c.variant.id for c in cells]
    assert [s.request.rendered() for s in bset.samples] == [c.request.rendered() for c in cells]
    assert [(s.template, s.max_tokens) for s in bset.samples] == [(c.request.prompt, c.request.settings.max_tokens)
                                                                  for c in cells]
    assert bset.set_id != build_set(str(preset), 8, ["rotations"]).set_id  # another seed, another set
    assert {s.variant.condition for s in bset.samples} >= {"original", "shots", "rotations/rot90"}


def test_an_export_reads_back_as_the_same_set(tmp_path: Path) -> None:
    preset = mixed_preset(tmp_path)
    assert main(["export-set", str(preset), "--to", "inspect", "--out", str(tmp_path / "out"), "--seed", "5"]) == 0
    again, built = load_set(tmp_path / "out"), build_set(str(preset), 5)
    assert again.set_id == built.set_id
    assert [s.request.rendered() for s in again.samples] == [s.request.rendered() for s in built.samples]
    shots = next(s for s in again.samples if s.variant.condition == "shots")
    assert [t.role for t in shots.turns] == ["system", "user", "assistant", "user"] and shots.variant.examples
    records = [json.loads(x) for x in (tmp_path / "out" / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    rec = next(r for r in records if r["id"] == shots.variant.id)
    assert [m["role"] for m in rec["input"]] == ["system", "user", "assistant", "user"]
    assert rec["input"][2]["content"] == shots.variant.examples[0].answer_label


def test_export_set_writes_only_into_a_new_or_empty_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep", encoding="utf-8")
    assert main(["export-set", "medblink_depth", "--to", "inspect", "--out", str(out)]) == 1
    assert "is not empty" in capsys.readouterr().err and [p.name for p in out.iterdir()] == ["mine.txt"]


def test_bad_requests_get_one_line_and_leave_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["export-set", "medblink_depth", "--to", "lmms-eval", "--out", str(out), "--suite", "nope"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nope" in err and not out.exists()
    assert main(["export-set", str(tmp_path / "missing.yaml"), "--to", "hf", "--out", str(out)]) == 1
    assert "no such preset file" in capsys.readouterr().err and not out.exists()
    assert main(["export-set", "medblink_depth", "--to", "hf", "--out", str(out), "--prompt", "nope"]) == 1
    assert "unknown prompt template 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["export-set", "medblink_depth", "--to", "openai-evals", "--out", str(out)])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_items_that_do_not_load_are_left_out_and_recorded_in_the_imported_run(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]
                                                                            ) -> None:
    write_png(tmp_path / "a.png")
    preset = write_preset(tmp_path / "p.yaml", [
        {"id": "ok", "image": "a.png", "question": "Is it normal?", "kind": "yesno", "answer": "yes"},
        {"id": "broken", "image": "missing.png", "question": "Is it normal?", "kind": "yesno", "answer": "no"}])
    out = tmp_path / "set"
    assert main(["export-set", str(preset), "--to", "lmms-eval", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert ("1 samples" in captured.out and "1 item(s) could not be loaded" in captured.err
            and "'broken'" in captured.err)
    bset = load_set(out)
    (sample,) = bset.samples
    log = tmp_path / "20260101_000000_samples_probe_ui_p_seed0.jsonl"
    log.write_text(json.dumps({"doc_id": 0, "target": "yes", "filtered_resps": reply_for(set_conversation(sample)),
                               "input": sample.user_text,
                               "probe_ui_accuracy": {"probe_ui_set": bset.set_id, "variant_id": sample.variant.id,
                                                     "correct": None}}) + "\n", encoding="utf-8")
    db = tmp_path / "s.db"
    assert main(["import", "lmms-eval", str(log), "--db", str(db), "--set", str(out), "--model", "m"]) == 0
    store = Store(str(db))
    errors = store.item_errors(store.get_run().id)
    assert [e["item_id"] for e in errors] == ["broken"]  # as a batch records it: score counts it as not loaded


def test_import_options_that_do_not_apply_to_a_harness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.eval"
    log.write_text("x", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["import", "inspect", str(log), "--images", str(tmp_path), "--db", str(tmp_path / "s.db")])
    assert exc.value.code == 2 and "--images does not apply to inspect results" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["import", "probmed", str(log), "--set", str(tmp_path), "--db", str(tmp_path / "s.db")])
    assert exc.value.code == 2 and "--set applies to inspect, lmms-eval, vlmevalkit results" in \
        capsys.readouterr().err
