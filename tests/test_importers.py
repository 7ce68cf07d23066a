"""Importers: foreign results files → a run of raw replies; question files → presets (probe_ui.importers)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa
from helpers import run_cli, write_png

from probe_ui.cli import main
from probe_ui.importers import (
    FORMATS,
    IMPORTERS,
    Importer,
    ImportFileError,
    ImportOptions,
    ImportUsageError,
    get_importer,
    import_results,
    questions_to_preset,
)
from probe_ui.presets import load_preset
from probe_ui.presets.suites import expand
from probe_ui.store import Store, responses, run_variants, variants

DATA = Path(__file__).parent / "data" / "importers"
MC_DATASET = DATA / "mediconfusion_dataset.json"


def rows(db: str | Path, table: sa.Table = responses) -> list[dict]:
    with Store(db).engine.connect() as c:
        return [dict(r) for r in c.execute(sa.select(table)).mappings()]


# ----------------------------------------------------------------------------------------------------------------
# registry
# ----------------------------------------------------------------------------------------------------------------

#: the seed benchmarks' importers, in their order; a benchmark folder added later adds its own after them
SEED_FORMATS = ("mediconfusion", "probmed", "medvh", "blink")


def test_registry_is_lazy_and_names_every_format() -> None:
    # includes, in order: a new benchmark's importer does not break it
    assert FORMATS[:len(SEED_FORMATS)] == SEED_FORMATS
    for name in FORMATS:
        mod = get_importer(name)
        assert IMPORTERS.get(name) is mod and mod.NAME == name and isinstance(mod, Importer)
        for fn in ("check", "read_results", "read_questions", "default_model", "default_run"):
            assert callable(getattr(mod, fn))
    with pytest.raises(ImportUsageError, match="unknown import format 'nope'"):
        get_importer("nope")


# ----------------------------------------------------------------------------------------------------------------
# MediConfusion
# ----------------------------------------------------------------------------------------------------------------

def test_mediconfusion_import_stores_raw_replies_and_ignores_the_files_scores(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    code, out, err = run_cli(capsys, "import", "mediconfusion", str(DATA / "gpt4o_mc.json"), "--dataset",
                             str(MC_DATASET), "--db", db)
    assert code == 0, err
    assert "16 replies of 'gpt4o'" in out and "run 'mediconfusion-gpt4o'" in out and "16 new" in out
    assert "13 of 13 not found (no --images given)" in out and "attributes.image_ref" in out

    store = Store(db)
    run = store.get_run("mediconfusion-gpt4o")
    assert run.settings["benchmark"] == "mediconfusion"
    (entry,) = run.settings["imports"]
    assert entry["path"] == str((DATA / "gpt4o_mc.json").resolve())
    assert entry["sha256"] == hashlib.sha256((DATA / "gpt4o_mc.json").read_bytes()).hexdigest()
    assert entry["dataset"]["sha256"] == hashlib.sha256(MC_DATASET.read_bytes()).hexdigest()
    assert entry["model"] == "gpt4o" and entry["mode"] == "mc"

    df = store.answers_frame(run.id, full=True)
    assert len(df) == 16 and set(df["model"]) == {"gpt4o"} and set(df["prompt"]) == {"mediconfusion-mc"}
    by_item = {r["item_id"]: r for r in df.to_dict("records")}
    r = by_item["10002-im1"]
    assert r["raw_text"] == "(B)"  # raw, untouched
    assert r["options"] == ["It is totally occluded.",
                            "It terminates into the ophthalmic artery with no cerebral contribution."]
    assert r["answer"] == r["options"][1] and r["answer_label"] == "B"
    a = r["attributes"]
    assert a["benchmark"] == "mediconfusion" and a["pair"] == "10002" and a["pair_member"] == 1 and a["gt"] == "B"
    assert a["image_ref"] == "train/radiology/images/ROCO_28778.jpg" and a["image_local"] == 20192
    assert a["categories"] == ["Cerebral", "Vascular"] and r["category"] == ["Cerebral", "Vascular"]
    assert r["item_group"] == "10002" and by_item["10002-im2"]["attributes"]["pair_member"] == 2
    assert pd.isna(by_item["10150-im2"]["raw_text"])  # a null reply stays null (parsed as empty: invalid)
    assert by_item["10150-im1"]["attributes"]["category_1"] == ["Pulmonary"]
    assert by_item["10150-im2"]["category"] == ["Cerebral"]
    # the stored parse is ours (robust), never the file's A/B scores (which claim A for every im1)
    assert r["parsed"] == "B" and r["correct"] == 1
    assert by_item["10007-im1"]["parsed"] == "B"
    stored = {x["variant_id"]: x for x in rows(db)}
    details = stored[r["variant_id"]]["details"]
    assert details["file_parse"] == {"A": 10, "B": 0} and details["record"] == "pair '10002' im1"
    assert stored[r["variant_id"]]["settings"]["imported"] is True
    assert all(x["messages"] == [] and x["error"] is None for x in stored.values())


def test_reimporting_the_same_file_adds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    args = ["import", "mediconfusion", str(DATA / "gpt4o_mc.json"), "--dataset", str(MC_DATASET), "--db", db,
            "--run", "mc"]
    assert run_cli(capsys, *args)[0] == 0
    before = (len(rows(db)), len(rows(db, variants)), len(rows(db, run_variants)))
    settings_before = Store(db).get_run("mc").settings
    code, out, _ = run_cli(capsys, *args)
    assert code == 0 and "0 new, 16 already there" in out
    assert (len(rows(db)), len(rows(db, variants)), len(rows(db, run_variants))) == before == (16, 16, 16)
    assert Store(db).get_run("mc").settings == settings_before  # the import entry is not repeated
    # the same questions with a changed reply: nothing is overwritten, and the summary says so
    changed = json.loads((DATA / "gpt4o_mc.json").read_text())
    changed["10001"]["answer"]["im1"]["full_answer"] = "B"
    p = tmp_path / "gpt4o_mc.json"
    p.write_text(json.dumps(changed))
    code, out, err = run_cli(capsys, "import", "mediconfusion", str(p), "--dataset", str(MC_DATASET), "--db", db,
                             "--run", "mc")
    assert code == 0 and "0 new, 16 already there" in out and "1 replies already in run 'mc'" in err
    assert len(rows(db)) == 16
    # a second model into the same run shares the variants (same questions), adds its replies
    code, out, _ = run_cli(capsys, "import", "mediconfusion", str(DATA / "claude_mc.json"), "--dataset",
                           str(MC_DATASET), "--db", db, "--run", "mc")
    assert code == 0 and "16 new" in out
    assert len(rows(db)) == 32 and len(rows(db, variants)) == 16
    assert [e["model"] for e in Store(db).get_run("mc").settings["imports"]] == ["gpt4o", "gpt4o", "claude"]


def test_model_name_and_run_overrides(tmp_path: Path) -> None:
    store = Store(tmp_path / "x.db")
    s = import_results(store, "mediconfusion", str(DATA / "gpt4o_mc.json"),
                       ImportOptions(dataset=str(MC_DATASET), model="GPT-4o (2024-05)", run="r1"))
    assert s.model == "GPT-4o (2024-05)" and s.run == "r1" and s.added == 16
    assert set(store.answers_frame(store.get_run("r1").id)["model"]) == {"GPT-4o (2024-05)"}
    mc, pm, vh, bl = (get_importer(n) for n in SEED_FORMATS)
    assert mc.default_model(Path("Results/gpt/gpt_mc.json")) == "gpt"
    assert mc.default_model(Path("llava_med_greedy.json")) == "llava_med"
    assert pm.default_model(Path("response_file/gpt4o.json")) == "gpt4o"
    assert vh.default_model(Path("gpt4o_test_nota_baseline.json")) == "gpt4o"
    assert vh.default_model(Path("test_nota_src.json")) == "test_nota_src"  # nothing left: the stem itself
    assert bl.default_model(Path("saved_outputs/GPT4o/Relative_Depth.json")) == "GPT4o"
    assert bl.default_model(Path("saved_outputs/GPT4V/Relative Depth.json")) == "GPT4V"
    assert bl.default_model(Path("gpt4o_predictions.json")) == "gpt4o"


def test_images_are_loaded_when_found_under_images_dir(tmp_path: Path) -> None:
    imgs = tmp_path / "imgs"
    (imgs / "train" / "radiology" / "images").mkdir(parents=True)
    write_png(imgs / "train" / "radiology" / "images" / "ROCO_28778.jpg.png", seed=1)  # wrong name: not found
    write_png(imgs / "20192.jpg", seed=1)  # the original's local layout: <im_1_local>.jpg (PNG bytes; sniffed)
    write_png(imgs / "ROCO_62117.jpg", seed=2)  # the base name of im_2
    store = Store(tmp_path / "x.db")
    s = import_results(store, "mediconfusion", str(DATA / "gpt4o_mc.json"),
                       ImportOptions(dataset=str(MC_DATASET), images=str(imgs)))
    assert s.images_total == 13 and s.images_loaded == 2 and len(s.images_missing) == 11
    text = "\n".join(s.lines())
    assert "2 of 13 loaded" in text and "11 of 13 not found under" in text
    with store.engine.connect() as c:
        vs = {r["item_id"]: r for r in c.execute(sa.select(variants)).mappings()}
    assert len(vs["10001-im1"]["image_ids"]) == 1 and len(vs["10001-im2"]["image_ids"]) == 1
    assert vs["10002-im1"]["image_ids"] == vs["10001-im1"]["image_ids"]  # same ROCO image, same stored pixels
    assert vs["10003-im2"]["image_ids"] == [] and vs["10003-im2"]["attributes"]["image_ref"].endswith(".jpg")
    assert store.image_path(vs["10001-im1"]["image_ids"][0]).is_file()


def test_mediconfusion_usage_and_file_errors(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    with pytest.raises(SystemExit) as e:
        main(["import", "mediconfusion", str(DATA / "gpt4o_mc.json"), "--db", db])
    assert e.value.code == 2 and "--dataset dataset.json" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["import", "nope", str(DATA / "gpt4o_mc.json"), "--db", db])
    assert e.value.code == 2 and "invalid choice: 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["import", "probmed", str(DATA / "gpt4o_probmed.json"), "--task", "nota", "--db", db])
    assert e.value.code == 2 and "--task does not apply to probmed" in capsys.readouterr().err

    bad = json.loads((DATA / "gpt4o_mc.json").read_text())
    bad["10003"]["answer"]["im2"] = {"A": 0, "B": 10}  # no full_answer
    p = tmp_path / "bad_mc.json"
    p.write_text(json.dumps(bad))
    code, out, err = run_cli(capsys, "import", "mediconfusion", str(p), "--dataset", str(MC_DATASET), "--db", db)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert str(p) in err and "pair '10003': answer.im2" in err and "'full_answer'" in err
    assert not rows(db)  # nothing half-imported

    bad = json.loads((DATA / "gpt4o_mc.json").read_text())
    bad["99999"] = bad.pop("10001")
    p.write_text(json.dumps(bad))
    code, _, err = run_cli(capsys, "import", "mediconfusion", str(p), "--dataset", str(MC_DATASET), "--db", db)
    assert code == 1 and "pair '99999': not in the dataset" in err

    p.write_text('{"10001": {"answer": ')
    code, _, err = run_cli(capsys, "import", "mediconfusion", str(p), "--dataset", str(MC_DATASET), "--db", db)
    assert code == 1 and f"{p}: not valid JSON (line 1" in err
    code, _, err = run_cli(capsys, "import", "mediconfusion", str(tmp_path / "missing.json"), "--dataset",
                           str(MC_DATASET), "--db", db)
    assert code == 1 and "no such mediconfusion results file" in err

    ds = json.loads(MC_DATASET.read_text())
    ds["10007"]["im_2_correct"] = "C"
    dp = tmp_path / "ds.json"
    dp.write_text(json.dumps(ds))
    code, _, err = run_cli(capsys, "import", "mediconfusion", str(DATA / "gpt4o_mc.json"), "--dataset", str(dp),
                           "--db", db)
    assert code == 1 and f"{dp}: pair '10007': field 'im_2_correct'" in err


def test_a_run_holds_one_benchmark(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    assert run_cli(capsys, "import", "probmed", str(DATA / "gpt4o_probmed.json"), "--db", db, "--run", "r")[0] == 0
    code, _, err = run_cli(capsys, "import", "mediconfusion", str(DATA / "gpt4o_mc.json"), "--dataset",
                           str(MC_DATASET), "--db", db, "--run", "r")
    assert code == 1 and "run 'r' holds probmed results" in err


# ----------------------------------------------------------------------------------------------------------------
# ProbMed
# ----------------------------------------------------------------------------------------------------------------

def test_probmed_import_keeps_file_order_and_pairs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    code, out, _ = run_cli(capsys, "import", "probmed", str(DATA / "gpt4o_probmed.json"), "--db", db)
    assert code == 0 and "51 replies of 'gpt4o'" in out and "run 'probmed-gpt4o'" in out
    store = Store(db)
    df = store.answers_frame(store.get_run("probmed-gpt4o").id, full=True)
    src = json.loads((DATA / "gpt4o_probmed.json").read_text())
    assert len(df) == len(src) == 51
    for r in df.to_dict("records"):
        a = r["attributes"]
        rec = src[a["order"]]
        assert (a["image_id"], a["image_type"], a["qa_type"]) == (rec["id"], rec["image_type"], rec["qa_type"])
        assert r["raw_text"] == rec["response"] and r["answer"] == rec["gt_ans"] and r["kind"] == "yesno"
        assert a["image_ref"] == rec["image"] and r["item_id"] == f"{rec['id']}:{rec['qa_type']}"
    groups = {r["item_id"]: r["item_group"] for r in df.to_dict("records")}
    assert groups["206:modality_gt"] == groups["206:modality_hallu"] == "206:modality"
    assert groups["412:entity_gt_1"] == "412:entity_1" and groups["412:entity_hallu_2"] == "412:entity_2"
    assert groups["311:entity_hallu"] == "311:entity" and pd.isna(groups["206:abnormality"])


def test_probmed_jsonl_and_malformed_records(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    src = json.loads((DATA / "gpt4o_probmed.json").read_text())
    p = tmp_path / "m.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in src[:9]) + "\n")
    db = str(tmp_path / "x.db")
    code, out, _ = run_cli(capsys, "import", "probmed", str(p), "--db", db)
    assert code == 0 and "9 replies of 'm'" in out
    bad = [dict(r) for r in src[:5]]
    bad[3]["gt_ans"] = "maybe"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    code, _, err = run_cli(capsys, "import", "probmed", str(p), "--db", db)
    assert code == 1 and f"{p}: record 4 (id 206, body_part_hallu): field 'gt_ans' should be yes or no" in err
    bad = [dict(r) for r in src[:5]]
    del bad[1]["response"]
    p.write_text(json.dumps(bad))
    code, _, err = run_cli(capsys, "import", "probmed", str(p), "--db", db)
    assert code == 1 and "record 2 (id 206, modality_hallu): field 'response'" in err and "--to-preset" in err


# ----------------------------------------------------------------------------------------------------------------
# MedVH
# ----------------------------------------------------------------------------------------------------------------

def test_medvh_hallucination_and_baseline_into_one_run(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    code, out, _ = run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_nota_src.json"), "--task", "nota",
                           "--db", db)
    assert code == 0 and "run 'medvh-nota-gpt4o'" in out and "6 new" in out
    code, out, _ = run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_nota_baseline.json"), "--task", "nota",
                           "--db", db)
    assert code == 0 and "run 'medvh-nota-gpt4o'" in out and "6 new" in out  # detected as baseline: new variants
    store = Store(db)
    run = store.get_run("medvh-nota-gpt4o")
    assert [(e["task"], e["version"]) for e in run.settings["imports"]] == [("nota", "hallucination"),
                                                                            ("nota", "baseline")]
    df = store.answers_frame(run.id, full=True)
    by = {r["item_id"]: r for r in df.to_dict("records")}
    h, b = by["nota-hallucination-2"], by["nota-baseline-2"]
    assert h["options"] == ["mild", "moderate", "severe", "None of the above"] and h["answer_label"] == "D"
    assert h["raw_text"] == "(D)" and h["attributes"]["gt"] == "D" and h["attributes"]["version"] == "hallucination"
    assert h["attributes"]["medvh_task"] == "nota" and "task" not in h["attributes"]  # 'task' = BLINK sub-task
    assert h["attributes"]["question_id"] == 2 and h["attributes"]["img_id"] == 102
    assert h["attributes"]["image_ref"] == "medvh_102.jpg"
    assert b["attributes"]["version"] == "baseline" and h["item_group"] == b["item_group"] == "nota-2"
    assert by["nota-hallucination-5"]["options"] == ["small, stable", "large, growing", "None of the above"]
    # --no-baseline overrides the file name
    code, out, _ = run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_nota_baseline.json"), "--task", "nota",
                           "--no-baseline", "--db", db, "--run", "forced")
    assert code == 0
    assert {e["version"] for e in Store(db).get_run("forced").settings["imports"]} == {"hallucination"}


def test_medvh_gt_with_text_and_unknown_gt(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    code, out, err = run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_wrongful_image_baseline_src.json"),
                             "--task", "wrongful_image", "--db", db)
    assert code == 0 and "gt that names no single option" in err and "'n: Nodule'" in err
    store = Store(db)
    df = store.answers_frame(store.get_run("medvh-wrongful_image-gpt4o").id, full=True)
    by = {r["attributes"]["question_id"]: r for r in df.to_dict("records")}
    assert by[0]["answer"] == "Yes" and by[0]["answer_label"] == "A" and by[0]["attributes"]["gt"] == "A: Yes"
    assert by[1]["answer_label"] == "B"  # 't: moderate': matched by its text
    assert pd.isna(by[2]["answer"]) and pd.isna(by[2]["answer_label"])  # 'n: Nodule' names no option
    assert by[3]["options"] == ["Yes", "Not a suitable question for the image"] and by[3]["answer_label"] == "B"


def test_medvh_fcj_records_the_suggestion(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    code, _, _ = run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_FCJ_src.json"), "--task", "fcj",
                         "--db", db)
    assert code == 0
    store = Store(db)
    df = store.answers_frame(store.get_run("medvh-fcj-gpt4o").id, full=True)
    assert set(df["prompt"]) == {"medvh-fcj"}
    r = df[df["item_id"] == "fcj-suggested-2"].iloc[0]
    assert r["prompt_args"]["suggestion"] == {"letter": "D", "text": "Ultrasound", "wording": "physician",
                                              "hint": False}
    assert r["attributes"]["suggested_answer"] == "D: Ultrasound." and r["attributes"]["fcj"] == "suggested"
    assert "version" not in r["attributes"] and r["answer_label"] == "C" and r["parsed"] == "C"


def test_medvh_usage_and_bad_choices(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    with pytest.raises(SystemExit) as e:
        main(["import", "medvh", str(DATA / "gpt4o_test_nota_src.json"), "--db", db])
    assert e.value.code == 2 and "needs --task" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["import", "medvh", str(DATA / "gpt4o_test_nota_src.json"), "--task", "report", "--db", db])
    assert e.value.code == 2 and "unknown MedVH task 'report'" in capsys.readouterr().err
    bad = json.loads((DATA / "gpt4o_test_nota_src.json").read_text())
    bad[4]["choices"] = "pneumonia or edema"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    code, _, err = run_cli(capsys, "import", "medvh", str(p), "--task", "nota", "--db", db)
    assert code == 1 and f"{p}: record 5 (question_id 4): cannot read the options" in err


# ----------------------------------------------------------------------------------------------------------------
# BLINK
# ----------------------------------------------------------------------------------------------------------------

def test_blink_import_with_items_reads_full_prediction_only(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    code, out, _ = run_cli(capsys, "import", "blink", str(DATA / "gpt4o_predictions.json"), "--dataset",
                           str(DATA / "blink_items.json"), "--db", db)
    assert code == 0 and "14 replies of 'gpt4o'" in out  # val only (what evaluate.py scores)
    store = Store(db)
    df = store.answers_frame(store.get_run("blink-gpt4o").id, full=True)
    by = {r["item_id"]: r for r in df.to_dict("records")}
    r = by["val_Relative_Depth_3"]
    assert r["raw_text"] == "B" and r["parsed"] == "B"  # the file's prediction says (A): ignored
    assert r["options"] == ["A is closer", "B is closer"] and r["answer_label"] == "B"
    assert r["attributes"]["task"] == "Relative_Depth" and r["attributes"]["idx"] == "val_Relative_Depth_3"
    assert r["attributes"]["image_ref"] == "val_Relative_Depth_3_1.jpg" and r["question"].startswith("Which point")
    assert by["val_Counting_1"]["n_labels"] == 4
    code, out, err = run_cli(capsys, "import", "blink", str(DATA / "gpt4o_predictions.json"), "--split", "all",
                             "--dataset", str(DATA / "blink_items.json"), "--db", db, "--run", "all")
    assert code == 0 and "15 replies" in out and "1 predictions have a hidden" in err


def test_blink_without_items_reads_the_option_count_from_the_file(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "x.db")
    path = DATA / "gpt4o_predictions_prompts.json"
    code, out, err = run_cli(capsys, "import", "blink", str(path), "--db", db, "--model", "gpt4o", "--run", "p")
    assert code == 0 and "8 replies of 'gpt4o'" in out
    # one line naming the file, the sub-task and its first record; the other sub-tasks are not mentioned
    lines = [ln for ln in err.splitlines() if "not say how many options" in ln]
    assert lines == [f"warning: {path}: sub-task 'Jigsaw': 2 of its 2 replies (first: val_Jigsaw_1) do not say how "
                     "many options the item has (no 'choices', no '(A) ...' list in 'prompt' or 'question'); the "
                     "sub-task is imported unscored, not scored with a guessed count (give --dataset ITEMS.json)"]
    store = Store(db)
    run = store.get_run("p")
    assert run.settings["imports"][0]["unscored_tasks"] == ["Jigsaw"]
    by = {r["item_id"]: r for r in store.answers_frame(run.id, full=True).to_dict("records")}
    depth = by["val_Relative_Depth_1"]
    assert depth["n_labels"] == 2 and depth["options"] == ["A is closer", "B is closer"]
    assert depth["question"] == "Which point is closer to the camera?" and depth["correct"]
    assert depth["attributes"]["options_from"] == "prompt"
    # "(C)" names no option of a two-option item: invalid, so wrong (a guessed count of 3 or more would read it)
    assert by["val_Relative_Depth_2"]["method"] == "out_of_range" and by["val_Relative_Depth_2"]["correct"] is False
    assert by["val_Counting_1"]["n_labels"] == 4 and by["val_Counting_1"]["answer_label"] == "C"
    assert by["val_Counting_2"]["n_labels"] == 3 and by["val_Counting_2"]["question"] == "How many nodules are visible?"
    assert by["val_Counting_2"]["attributes"]["options_from"] == "question" and by["val_Counting_2"]["correct"]
    assert by["val_IQ_Test_1"]["options"] == ["pattern 1", "pattern 2", "pattern 3", "pattern 4"]
    # a worked example's choice list comes first; the question's own (the last) decides
    assert by["val_Functional_Correspondence_1"]["n_labels"] == 4 and by["val_Functional_Correspondence_1"]["correct"]
    for idx, letter in (("val_Jigsaw_1", "(A)"), ("val_Jigsaw_2", "(B)")):
        r = by[idx]
        assert pd.isna(r["answer_label"]) and pd.isna(r["correct"]), idx
        assert r["attributes"]["options_known"] is False and r["attributes"]["file_answer"] == letter


def test_blink_without_items_or_counts_scores_nothing(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """BLINK's own saved predictions carry no question: without --dataset no sub-task can be scored."""
    db = str(tmp_path / "x.db")
    code, out, err = run_cli(capsys, "import", "blink", str(DATA / "gpt4o_predictions.json"), "--db", db)
    assert code == 0 and "14 replies of 'gpt4o'" in out
    tasks = {ln.split("sub-task '")[1].split("'")[0] for ln in err.splitlines() if "not say how many options" in ln}
    assert tasks == {"Relative_Depth", "Counting", "IQ_Test"}
    store = Store(db)
    df = store.answers_frame(store.get_run("blink-gpt4o").id, full=True)
    assert df["correct"].isna().all() and df["answer_label"].isna().all()
    assert main(["score", "--db", db, "--run", "blink-gpt4o", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["models"]["gpt4o"]["accuracy"]["denominator"] == 0


def test_blink_choice_lists_in_text() -> None:
    from probe_ui.benchmarks.blink.importer import choices_in_text

    assert choices_in_text("Q?\nSelect from the following choices.\n(A) 1\n(B) 2\n(C) 3") == ("1", "2", "3")
    assert choices_in_text("(A) x\n(B) y\nAnswer: (B)\n\nQ?\n(A) p\n(B) q\n(C) r\n(D) s") == ("p", "q", "r", "s")
    assert choices_in_text("Which point is closer to the camera?") is None
    assert choices_in_text("(A) only one") is None
    assert choices_in_text("(B) starts at B\n(C) then C") is None  # not from A
    assert choices_in_text("(A) a\n(C) skips B") is None


def test_blink_count_in_the_file_must_include_the_answer(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    p = tmp_path / "p.json"
    p.write_text(json.dumps({"val": [{"idx": "val_Counting_1", "answer": "(C)", "full_prediction": "C",
                                      "prompt": "How many?\n(A) 1\n(B) 2"}]}))
    code, _, err = run_cli(capsys, "import", "blink", str(p), "--db", str(tmp_path / "x.db"))
    assert code == 1
    assert f"{p}: val record 1 (val_Counting_1): field 'answer' '(C)' is not one of the 2 choices listed in its " \
           "'prompt'" in err


def test_blink_malformed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    p = tmp_path / "p.json"
    p.write_text(json.dumps({"val": [{"idx": "val_Counting_1", "answer": "(C)", "full_prediction": 3}]}))
    code, _, err = run_cli(capsys, "import", "blink", str(p), "--db", str(tmp_path / "x.db"))
    assert code == 1 and f"{p}: val record 1 (val_Counting_1): field 'full_prediction'" in err
    p.write_text(json.dumps({"val": [{"idx": "val_Counting_9", "answer": "(C)", "full_prediction": "C"}]}))
    code, _, err = run_cli(capsys, "import", "blink", str(p), "--dataset", str(DATA / "blink_items.json"),
                           "--db", str(tmp_path / "x.db"))
    assert code == 1 and "idx 'val_Counting_9' is not in the items file" in err


# ----------------------------------------------------------------------------------------------------------------
# question files → presets
# ----------------------------------------------------------------------------------------------------------------

def test_mediconfusion_dataset_to_preset_loads_and_expands(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    imgs = tmp_path / "imgs"
    imgs.mkdir()
    ds = json.loads(MC_DATASET.read_text())
    for i, e in enumerate(ds.values()):
        write_png(imgs / f"{e['im_1_local']}.jpg", seed=i)
        write_png(imgs / f"{e['im_2_local']}.jpg", seed=100 + i)
    out = tmp_path / "presets" / "mc.yaml"
    code, text, _ = run_cli(capsys, "import", "mediconfusion", str(MC_DATASET), "--to-preset", str(out),
                            "--images", str(imgs))
    assert code == 0 and "16 items" in text and "all 13 found" in text
    assert f"--image-root {imgs}" in text  # the images are outside the preset's folder: the hint says how to allow
    assert expand(load_preset(out), 0).errors[0].message.count("outside the folders a preset may read") == 1
    preset = load_preset(out, [str(imgs)])
    assert preset.prompt == "mediconfusion-mc" and len(preset.items) == 16
    it = {i.id: i for i in preset.items}["10002-im1"]
    assert it.answer == "It terminates into the ophthalmic artery with no cerebral contribution."
    assert it.group == "10002" and it.category == ("Cerebral", "Vascular")
    assert it.attributes["benchmark"] == "mediconfusion" and it.attributes["pair_member"] == 1
    assert Path(it.images[0].path).is_file()
    ex = expand(preset, 0)
    assert not ex.errors and len(ex.variants) == 16 and all(len(v.images) == 1 for v in ex.variants)

    # without --images the original names are written and the summary says so
    out2 = tmp_path / "mc2.yaml"
    code, text, _ = run_cli(capsys, "import", "mediconfusion", str(MC_DATASET), "--to-preset", str(out2))
    assert code == 0 and "13 of 13 not found (no --images given)" in text
    assert {i.images[0].path for i in load_preset(out2).items} >= {"train/radiology/images/ROCO_28778.jpg"}
    with pytest.raises(SystemExit) as e:
        main(["import", "mediconfusion", str(MC_DATASET), "--to-preset", str(out2), "--dataset", str(MC_DATASET)])
    assert e.value.code == 2


def test_probmed_medvh_blink_question_files_to_presets(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # ProbMed question file: 'answer' instead of 'gt_ans', no response
    q = [{k: v for k, v in r.items() if k not in ("response", "gt_ans")} | {"answer": r["gt_ans"]}
         for r in json.loads((DATA / "gpt4o_probmed.json").read_text())]
    qp = tmp_path / "test.json"
    qp.write_text(json.dumps(q))
    out = tmp_path / "pm.yaml"
    assert run_cli(capsys, "import", "probmed", str(qp), "--to-preset", str(out))[0] == 0
    items = {i.id: i for i in load_preset(out).items}
    assert len(items) == 51 and items["311:abnormality"].answer == "no" and items["311:abnormality"].kind == "yesno"
    assert items["412:entity_hallu_2"].attributes == {"benchmark": "probmed", "image_id": 412,
                                                      "image_type": "mri_brain", "qa_type": "entity_hallu_2",
                                                      "order": 23, "image_ref": "probmed_412.png"}

    # MedVH: the NOTA question file (responses are ignored for a preset)
    out = tmp_path / "nota.yaml"
    assert run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_nota_src.json"), "--task", "nota",
                   "--to-preset", str(out))[0] == 0
    p = load_preset(out)
    assert p.prompt == "medvh-mc" and {i.attributes["version"] for i in p.items} == {"hallucination"}
    assert {i.id: i for i in p.items}["nota-hallucination-4"].answer == "None of the above"

    # MedVH FCJ: one 'suggest' condition per suggested letter, selected by tag; the plain question is r_baseline
    imgs = tmp_path / "imgs"
    imgs.mkdir()
    for r in json.loads((DATA / "gpt4o_test_FCJ_src.json").read_text()):
        write_png(imgs / r["img_name"], seed=r["question_id"])
    out = tmp_path / "fcj.yaml"
    assert run_cli(capsys, "import", "medvh", str(DATA / "gpt4o_test_FCJ_src.json"), "--task", "fcj",
                   "--to-preset", str(out), "--images", str(imgs))[0] == 0
    p = load_preset(out)
    assert [c.name for c in p.conditions] == ["fcj-suggest-A", "fcj-suggest-B", "fcj-suggest-D"]
    ex = expand(p, 0)
    assert not ex.errors and len(ex.variants) == 6
    sug = {v.item_id: v.prompt_args["suggestion"] for v in ex.variants if v.prompt_args.get("suggestion")}
    assert sug["fcj-suggested-0"]["letter"] == "B" and sug["fcj-suggested-0"]["text"] == "No"
    assert sug["fcj-suggested-2"]["text"] == "Ultrasound"
    assert all(v.prompt == "medvh-fcj" for v in ex.variants if v.condition != "original")

    # BLINK items
    out = tmp_path / "blink.yaml"
    code, text, _ = run_cli(capsys, "import", "blink", str(DATA / "blink_items.json"), "--to-preset", str(out))
    assert code == 0 and "15 items" in text
    p = load_preset(out)
    it = {i.id: i for i in p.items}["val_Counting_3"]
    assert p.prompt == "blink-mc" and it.options == ("1", "2", "3", "4") and it.answer == "4"
    assert it.attributes["task"] == "Counting" and it.images[0].path == "val_Counting_3_1.jpg"
    assert {i.id: i for i in p.items}["test_Counting_1"].answer is None


def test_question_file_errors_name_the_record(tmp_path: Path) -> None:
    q = [{"id": 1, "qa_type": "modality_gt", "image_type": "x", "question": "", "answer": "yes"}]
    p = tmp_path / "q.json"
    p.write_text(json.dumps(q))
    with pytest.raises(ImportFileError, match=r"q.json: record 1 \(id 1, modality_gt\): the question is empty"):
        questions_to_preset("probmed", str(p), str(tmp_path / "o.yaml"))
    with pytest.raises(ImportUsageError, match="--model and --run apply to results files"):
        questions_to_preset("probmed", str(p), str(tmp_path / "o.yaml"), ImportOptions(model="x"))


# ----------------------------------------------------------------------------------------------------------------
# damaged files found by fuzzing (perf/fuzz.py): each is one ImportFileError naming the file
# ----------------------------------------------------------------------------------------------------------------

PROBMED_RECORD = {"id": 1, "qa_type": "modality_gt", "image_type": "x", "question": "Q?", "gt_ans": "yes",
                  "response": "Yes"}


@pytest.mark.parametrize(("text", "expected"), [
    ('[{"id": ' + "[" * 5000 + "]" * 5000 + "}]", "nested too deeply"),  # json: RecursionError
    ('[{"id": 1' + "0" * 4400 + "}]", "Exceeds the limit"),  # json: ValueError (int digits)
    ('[{"id": 1, "x": ' + "[" * 70 + "]" * 70 + "}]", "nested more than 64 levels"),  # YAML/JSON writers recurse
    (json.dumps([{**PROBMED_RECORD, "response": "Yes \ud800"}]), "lone UTF-16 surrogate"),  # SQLite/UTF-8 refuse
])
def test_json_the_importers_cannot_use_is_refused(tmp_path: Path, text: str, expected: str) -> None:
    p = tmp_path / "r.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFileError, match=f"^{p}: .*{expected}"):
        import_results(Store(tmp_path / "x.db"), "probmed", str(p))


def test_surrogate_pairs_and_line_separators_are_text(tmp_path: Path) -> None:
    rows = [{**PROBMED_RECORD, "response": "Yes \U0001f600"}, {**PROBMED_RECORD, "id": 2, "response": "No\u2028."}]
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")  # U+2028 unescaped
    summary = import_results(Store(tmp_path / "x.db"), "probmed", str(p))
    assert summary.records == 2  # JSON lines split at "\n" only (str.splitlines also splits at U+2028)


def test_image_name_the_file_system_refuses_is_not_found(tmp_path: Path) -> None:
    rows = [{**PROBMED_RECORD, "image": "x" * 300 + ".png"}]  # ENAMETOOLONG from is_file() (was OSError)
    p = tmp_path / "r.json"
    p.write_text(json.dumps(rows))
    summary = import_results(Store(tmp_path / "x.db"), "probmed", str(p), ImportOptions(images=str(tmp_path)))
    assert summary.images_missing == ["x" * 300 + ".png"]


def test_blink_items_without_a_split_prefix_empty_idx_and_too_many_choices(tmp_path: Path) -> None:
    p, out = tmp_path / "items.json", str(tmp_path / "o.yaml")
    p.write_text(json.dumps([{"idx": "depth_1", "question": "Q?", "choices": ["a", "b"], "answer": "(A)"}]))
    questions_to_preset("blink", str(p), out)  # was ValueError: empty separator (no val_/test_ prefix)
    assert load_preset(out).items[0].attributes["task"] == ""
    p.write_text(json.dumps([{"idx": "", "question": "Q?", "choices": ["a", "b"]}]))
    with pytest.raises(ImportFileError, match=r"items.json: record 1: field 'idx' is empty"):
        questions_to_preset("blink", str(p), out)  # was a preset that does not load (empty id)
    p.write_text(json.dumps([{"idx": "val_X_1", "question": "Q?", "choices": [f"c{i}" for i in range(27)]}]))
    with pytest.raises(ImportFileError, match=r"record 1 \(val_X_1\): field 'choices' has 27 options; at most 26"):
        questions_to_preset("blink", str(p), out)  # was a preset that does not load (27 options)
