"""A Hugging Face dataset folder: `datasets` loads it with its images, mlcroissant validates and reads its Croissant
metadata, the card documents it (push_to_hub shown, never run), it carries no local path, and probe-ui turns it
back into a preset."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from harness_fixtures import mixed_preset
from helpers import require_module

from probe_ui.cli import main
from probe_ui.interop.benchset import build_set


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "p").mkdir()
    preset = mixed_preset(tmp_path / "p")
    assert main(["export-set", str(preset), "--seed", "4", "--to", "hf", "--out", str(tmp_path / "hf")]) == 0
    return tmp_path / "hf", preset


def test_datasets_loads_the_folder_with_its_images(exported: tuple[Path, Path], tmp_path: Path) -> None:
    datasets = require_module("datasets", 'pip install -e ".[dev]"')
    folder, preset = exported
    assert {p.name for p in folder.iterdir()} == {"metadata.jsonl", "images", "README.md", "croissant.json"}
    ds = datasets.load_dataset(str(folder), split="test", cache_dir=str(tmp_path / "cache"))  # the card's config
    bset = build_set(str(preset), 4)
    assert len(ds) == len(bset.samples) == 7
    for row in ds:
        s = bset.sample(row["variant_id"])
        want = [bset.images[h].pil() for h in s.image_ids]
        if want:
            assert np.array_equal(np.asarray(row["image"]), np.asarray(want[0]))
        else:
            assert row["image"] is None
        assert row["prompt"] == s.template and row["answer_label"] == (s.answer_label or None)
        assert json.loads(row["provenance"]) == json.loads(json.dumps(list(s.variant.provenance)))
    two = next(r for r in ds if r["item_id"] == "mc-two")
    assert len(two["images"]) == 2  # images_file_names: every image of the question


@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated")  # rdflib, inside mlcroissant
def test_the_croissant_metadata_validates_and_reads(exported: tuple[Path, Path]) -> None:
    mlc = require_module("mlcroissant", 'pip install -e ".[dev]"')
    folder, _ = exported
    ds = mlc.Dataset(jsonld=str(folder / "croissant.json"))  # raises on any validation error
    assert not ds.metadata.ctx.issues.errors
    records = list(ds.records("variants"))
    assert len(records) == 7
    first = json.loads((folder / "metadata.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert records[0]["variants/variant_id"].decode() == first["variant_id"]
    assert [x.decode() for x in records[0]["variants/options"]] == first["options"]
    assert len(list(ds.records("images"))) == len(list((folder / "images").iterdir())) == 3


def test_the_card_describes_the_set_and_no_local_path_leaves(exported: tuple[Path, Path], tmp_path: Path) -> None:
    folder, preset = exported
    card = (folder / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(card.split("---")[1])
    assert front["configs"][0]["data_files"][0]["split"] == "test" and front["task_categories"]
    assert "push_to_hub" in card and "probe-ui batch mixed.yaml --seed 4" in card
    assert "user-supplied, licence unknown" in card  # the preset's own images
    for f in folder.rglob("*"):
        if f.is_file() and f.suffix != ".png":
            text = f.read_text(encoding="utf-8")
            assert str(tmp_path) not in text and str(Path.home()) + "/" not in text, f
    rows = [json.loads(x) for x in (folder / "metadata.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["source"] for r in rows} == {"mixed.yaml"}


def test_probe_ui_turns_the_folder_back_into_a_preset(exported: tuple[Path, Path], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = exported
    out = tmp_path / "again" / "preset.yaml"
    assert main(["import", "dataset", str(folder), "--to-preset", str(out), "--with-perturbations"]) == 0
    assert "6 items" in capsys.readouterr().out
    doc = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert {it["id"] for it in doc["items"]} == {"mc-a", "mc-b", "mc-two", "yn", "text-only", "colour"}
