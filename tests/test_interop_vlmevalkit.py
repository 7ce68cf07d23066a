"""VLMEvalKit: the custom multiple-choice TSV export-set writes reads as VLMEvalKit reads one, and its prediction and
result files (xlsx, tsv) import back with VLMEvalKit's own prompt and verdicts kept.

VLMEvalKit is not installed here: the facts come from its source (docs/en/Development.md; dataset/__init__.py
build_dataset: a TSV with A/B and image columns is a CustomMCQDataset; image_base.py: images as base64, a list
written as "['...', '...']", rows without an image dropped; image_mcq.py build_prompt; inference.py: the prediction
file is the data without the image plus a prediction column; smp/file.py get_pred_file_path: <model>_<dataset>.xlsx
by default, tsv with PRED_FORMAT=tsv; multiple_choice.py: the result file adds GT, hit and log).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from harness_fixtures import mixed_preset
from helpers import require_module
from PIL import Image

from probe_ui.cli import main
from probe_ui.interop.benchset import load_set
from probe_ui.store import Store


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    (tmp_path / "p").mkdir()
    assert main(["export-set", str(mixed_preset(tmp_path / "p")), "--to", "vlmevalkit", "--out",
                 str(tmp_path / "LMUData")]) == 0
    return tmp_path / "LMUData"


def read_like_vlmevalkit(folder: Path) -> tuple[str, pd.DataFrame]:
    """The dataset name and its rows as VLMEvalKit loads a custom TSV ($LMUData/<name>.tsv, pandas, tab)."""
    (tsv,) = folder.glob("*.tsv")
    data = pd.read_csv(tsv, sep="\t")
    data = data[~pd.isna(data["image"])]  # ImageBaseDataset(skip_noimg=True)
    return tsv.stem, data


def vlmevalkit_images(cell: str) -> list[bytes]:
    """toliststr: a cell "[...]" is a Python list literal of base64 strings, anything else one base64 string."""
    items = [str(x) for x in ast.literal_eval(cell)] if cell.startswith("[") and cell.endswith("]") else [cell]
    return [base64.b64decode(x) for x in items]


def vlmevalkit_prompt(row: pd.Series) -> str:
    """ImageMCQDataset.build_prompt for a row without a hint."""
    options = {c: row[c] for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c in row and not pd.isna(row[c])}
    text = f"Question: {row['question']}\nOptions:\n" + "".join(f"{k}. {v}\n" for k, v in options.items())
    return text + "Please select the correct answer from the options above. \n"


def test_the_tsv_is_a_custom_multiple_choice_dataset(exported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name, data = read_like_vlmevalkit(exported)
    bset = load_set(exported)
    assert name == f"probeui_mixed_{bset.set_id}"
    assert {"index", "image", "question", "A", "B", "answer", "category"} <= set(data.columns)  # CustomMCQDataset
    assert "circular" not in name.lower() and "mmbench" not in name.lower()
    # the multiple-choice variants with an image and no few-shot turns; the rest are named in the summary
    assert sorted(data["probe_ui_item"]) == ["mc-a", "mc-b", "mc-two"] and list(data["index"]) == [1, 2, 3]
    for _, row in data.iterrows():
        s = bset.sample(row["probe_ui_variant"])
        assert s is not None and row["answer"] == s.answer_label and row["category"] == s.variant.condition
        assert [hashlib.sha256(b).hexdigest() for b in vlmevalkit_images(row["image"])] == list(s.variant.image_ids)
        assert [row[L] for L in "AB"] == list(s.variant.options[:2])
    three = data[data["probe_ui_item"] == "mc-a"].iloc[0]
    assert three["C"] == "normal" and pd.isna(data[data["probe_ui_item"] == "mc-b"].iloc[0]["C"])
    two = data[data["probe_ui_item"] == "mc-two"].iloc[0]  # a question about two images: both, in order
    pixels = [np.asarray(Image.open(io.BytesIO(b))) for b in vlmevalkit_images(two["image"])]
    want = [np.asarray(im.pil()) for im in bset.sample(two["probe_ui_variant"]).variant.images]
    assert len(pixels) == 2 and all(np.array_equal(a, b) for a, b in zip(pixels, want))


def predictions(folder: Path, out: Path, model: str, fmt: str = "xlsx", result: bool = False) -> Path:
    """What `python run.py --data <name> --model <model>` writes: the data without the image plus `prediction`
    (and, for the evaluation's result file, GT / hit / log)."""
    name, data = read_like_vlmevalkit(folder)
    data = data.drop(columns=["image"])
    replies = {"mc-a": "A", "mc-b": "(B) pneumothorax", "mc-two": "I think the first one."}
    data["prediction"] = [replies[i] for i in data["probe_ui_item"]]
    if result:  # exact matching reads a bare letter only here
        data["GT"] = data["answer"]
        data["hit"] = [int(p.strip() == a) for p, a in zip(data["prediction"], data["answer"])]
        data["log"] = ["matched" if h else "no match" for h in data["hit"]]
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{model}_{name}{'_exact_matching_result' if result else ''}.{fmt}"
    if fmt == "xlsx":
        data.to_excel(path, index=False)
    else:
        data.to_csv(path, sep="\t", index=False)
    return path


@pytest.mark.parametrize("fmt", ["xlsx", "tsv"])
def test_predictions_import_with_vlmevalkits_prompt(exported: Path, tmp_path: Path, fmt: str,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    if fmt == "xlsx":
        require_module("openpyxl", 'pip install -e ".[dev]" (or the vlmevalkit extra)')
    path = predictions(exported, tmp_path / "outputs" / "GPT4o", "GPT4o", fmt)
    monkeypatch.setenv("LMUData", str(exported))  # where VLMEvalKit found the TSV: the set is there
    db = tmp_path / "s.db"
    assert main(["import", "vlmevalkit", str(path), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "imported 3 replies of 'GPT4o'" in out and "3 new" in out
    store = Store(str(db))
    rows = store.answers_frame(store.get_run().id, detail=True)
    _, data = read_like_vlmevalkit(exported)
    by_variant = {r["probe_ui_variant"]: r for _, r in data.iterrows()}
    for r in rows.to_dict("records"):
        assert r["prompt"] == "vlmevalkit-mcq"
        (msg,) = r["messages"]
        *images, text = msg["content"]
        assert text["text"] == vlmevalkit_prompt(by_variant[r["variant_id"]])  # what VLMEvalKit sent
        assert [p["image_id"] for p in images] == list(r["image_ids"])
    assert main(["score", "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    model = report["models"]["GPT4o"]
    assert report["variants"] == 3  # the run holds the variants VLMEvalKit was asked, not the whole set's 7
    assert model["n"] == 3 and model["accuracy"]["numerator"] == 2  # "A" and "(B) pneumothorax" read right
    assert report["harness_agreement"]["models"]["GPT4o"]["no_verdict"] == 3  # predictions carry no verdict


def test_the_result_files_hit_is_kept_as_vlmevalkits_verdict(exported: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = predictions(exported, tmp_path / "outputs", "GPT4o", "tsv", result=True)
    db = tmp_path / "s.db"
    assert main(["import", "vlmevalkit", str(path), "--db", str(db), "--set", str(exported)]) == 0
    capsys.readouterr()
    assert main(["score", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    # VLMEvalKit's exact match took "(B) pneumothorax" as wrong; probe-ui's reader reads it as B, right
    assert "vlmevalkit's own verdicts against probe-ui's reading" in out
    assert "GPT4o: agree on 2 of 3 replies (66.7%)" in out


def _fails(args: list[str], db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(args + ["--db", str(db)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert not db.exists() or not Store(str(db)).list_runs()
    return err


def test_bad_prediction_files(exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    other = tmp_path / "GPT4o_MMBench_DEV_EN.tsv"
    other.write_text("index\tquestion\tA\tB\tanswer\tprediction\n1\tq\ta\tb\tA\tA\n", encoding="utf-8")
    err = _fails(["import", "vlmevalkit", str(other), "--set", str(exported)], db, capsys)
    assert str(other) in err and "no column 'probe_ui_variant'" in err

    path = predictions(exported, tmp_path / "o", "GPT4o", "tsv")
    text = path.read_text(encoding="utf-8").splitlines()
    cells = text[2].split("\t")
    cells[text[0].split("\t").index("probe_ui_variant")] = "0123456789abcdef"
    path.write_text("\n".join(text[:2] + ["\t".join(cells)] + text[3:]) + "\n", encoding="utf-8")
    err = _fails(["import", "vlmevalkit", str(path), "--set", str(exported)], db, capsys)
    assert "row 3 (index 2): variant '0123456789abcdef' is not in the set" in err

    monkeypatch.setitem(sys.modules, "openpyxl", None)  # not installed
    xlsx = tmp_path / "GPT4o_x.xlsx"
    xlsx.write_bytes(b"PK\x03\x04")
    err = _fails(["import", "vlmevalkit", str(xlsx), "--set", str(exported)], db, capsys)
    assert str(xlsx) in err and "needs openpyxl" in err and "PRED_FORMAT=tsv" in err

    with pytest.raises(SystemExit) as exc:  # the set is neither given nor in $LMUData
        monkeypatch.delenv("LMUData", raising=False)
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        main(["import", "vlmevalkit", str(predictions(exported, tmp_path / "p2", "GPT4o", "tsv")), "--db", str(db)])
    assert exc.value.code == 2 and "--set DIR" in capsys.readouterr().err


def test_a_set_without_any_multiple_choice_question_with_an_image_is_refused(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]
                                                                            ) -> None:
    out = tmp_path / "x"
    assert main(["export-set", "probmed_adversarial", "--to", "vlmevalkit", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "fits VLMEvalKit's custom multiple-choice format" in err and "--to inspect" in err
    assert not out.exists()  # nothing left behind

