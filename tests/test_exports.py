"""Exports of a run (JSONL, CSV, Parquet, imagefolder) and their import back into a preset that replays it."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from helpers import choice_item, require_module, write_png, write_preset

from probe_ui.cli import main
from probe_ui.exports import FORMATS, ExportError, export_run
from probe_ui.importers.dataset import DatasetError, import_dataset
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store, responses, run_variants, variants

MODELS = ["baseline/first", "baseline/random", "baseline/last"]
SUITES = ["rotations"]
PRESETS = [PRESETS_DIR / "mediconfusion_pairs.yaml", PRESETS_DIR / "medblink_orientation.yaml"]
LOCAL = ("/home", "/work", "/tmp")


@pytest.fixture(scope="module")
def rated_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two bundled presets with the rotations suite, asked of three baselines; one answer rated by hand."""
    root = tmp_path_factory.mktemp("run")
    store = Store(root / "store" / "probe-ui.db")
    result = run_batch(store, [load_preset(p) for p in PRESETS], MODELS,
                       BatchOptions(run_name="exp", seed=3, suites=SUITES, progress=False))
    assert result.errors == 0 and not result.item_errors
    rid = store.answers_frame(store.get_run("exp").id)["response_id"].iloc[5]
    store.rate_response(int(rid), "incorrect", "checked by hand")
    return {"store": store, "root": root, "rated": int(rid), "answers": result.planned}


@pytest.fixture
def hf_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """datasets offline, with every cache inside tmp_path."""
    cache = tmp_path / "hf"
    for k, v in {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(cache),
                 "HF_DATASETS_CACHE": str(cache / "datasets"), "HF_HUB_CACHE": str(cache / "hub")}.items():
        monkeypatch.setenv(k, v)
    return cache / "datasets"


def variant_triples(store: Store, run: str) -> set[tuple[str, str, tuple[str, ...]]]:
    """(item id, condition, image hashes) of every variant of a run."""
    q = (sa.select(variants.c.item_id, variants.c.condition, variants.c.image_ids)
         .join(run_variants, run_variants.c.variant_id == variants.c.id)
         .where(run_variants.c.run_id == store.get_run(run).id))
    with store.engine.connect() as c:
        return {(r.item_id, r.condition, tuple(r.image_ids)) for r in c.execute(q)}


def text_files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in folder.rglob("*")
            if p.is_file() and p.suffix != ".png" and p.name != "data.parquet"}


def parquet_text(path: Path) -> str:
    import pyarrow.parquet as pq

    return json.dumps(pq.read_table(path).to_pylist(), default=str)


@pytest.mark.slow
def test_imagefolder_loads_in_datasets_and_imports_back_to_the_same_variants(rated_run: dict[str, Any],
                                                                               tmp_path: Path,
                                                                               hf_offline: Path) -> None:
    datasets = require_module("datasets", 'pip install -e ".[dev]"')
    store: Store = rated_run["store"]
    out = tmp_path / "export"
    summary = export_run(store, "exp", "imagefolder", out)
    assert summary.rows == rated_run["answers"] == 3 * len(variant_triples(store, "exp"))
    assert (out / "metadata.jsonl").is_file() and (out / "README.md").is_file()
    pngs = sorted((out / "images").glob("*.png"))
    assert summary.images == len(pngs) > 0
    # every image once, named by the hash of the bytes the store holds
    for p in pngs:
        assert hashlib.sha256(p.read_bytes()).hexdigest() == p.stem
        assert store.get_image(p.stem).png == p.read_bytes()

    ds = datasets.load_dataset("imagefolder", data_dir=str(out), split="train", cache_dir=str(hf_offline))
    assert ds.num_rows == summary.rows
    assert "image" not in ds.column_names  # one image column, named as in every other format
    for col in ("images", "question", "options", "model", "raw_text", "parsed", "correct", "rating",
                "note", "condition", "provenance", "prompt_text", "settings", "source"):
        assert col in ds.column_names, col
    assert set(ds["model"]) == set(MODELS)
    assert set(ds["source"]) == {p.name for p in PRESETS}
    plain = ds.remove_columns(["images"])  # the text columns, without decoding every image
    by_id = {r["response_id"]: r for r in plain}
    rated = by_id[rated_run["rated"]]
    assert rated["rating"] == "incorrect" and rated["note"] == "checked by hand"
    assert sum(r["rating"] is not None for r in plain) == 1
    assert all(isinstance(r["correct"], bool) for r in plain)
    # the image decodes to the stored pixels' size (90-degree rotations swap width and height)
    seen: set[str] = set()
    for i, r in enumerate(plain):
        if r["variant_id"] in seen:
            continue
        seen.add(r["variant_id"])
        img = ds[i]["images"][0]
        stored = store.get_image(_first_image(out, i))
        assert (img.width, img.height) == (stored.width, stored.height)
        assert len(ds[i]["images"]) == 1
    assert "<image 1>" in plain[0]["prompt_text"] and "[user]" in plain[0]["prompt_text"]
    # the card's YAML front matter points datasets at the same files
    ds2 = datasets.load_dataset(str(out), split="train", cache_dir=str(hf_offline))
    assert ds2.num_rows == summary.rows

    # back to a preset, with every condition as the item's own perturbation chain
    imported = import_dataset(out, tmp_path / "again" / "probes.yaml", with_perturbations=True)
    preset = load_preset(imported.preset_path)
    original_ids = {it.id for p in PRESETS for it in load_preset(p).items}
    assert {it.id for it in preset.items} == original_ids and imported.items == len(original_ids)
    assert all((imported.preset_path.parent / src.path).is_file() for it in preset.items for src in it.images)
    assert imported.perturbations > 0 and not imported.warnings
    store2 = Store(tmp_path / "again" / "store.db")
    again = run_batch(store2, [preset], MODELS, BatchOptions(run_name="again", seed=3, suites=SUITES, progress=False))
    assert again.errors == 0 and not again.item_errors
    first, second = variant_triples(store, "exp"), variant_triples(store2, "again")
    assert {t[0] for t in second} == {t[0] for t in first} == original_ids
    assert second == first  # same items, conditions and pixels: the variants are the same


def _first_image(out: Path, row: int) -> str:
    with (out / "metadata.jsonl").open(encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i == row:
                return Path(json.loads(line)["images_file_names"][0]).stem
    raise AssertionError(row)


def test_every_format_round_trips_through_import(rated_run: dict[str, Any], tmp_path: Path) -> None:
    store: Store = rated_run["store"]
    presets: dict[str, Any] = {}
    for fmt in ("jsonl", "csv", "parquet"):
        out = tmp_path / fmt
        summary = export_run(store, None, fmt, out)  # None: the most recent run
        assert summary.rows == rated_run["answers"] and summary.run == "exp"
        assert sorted(p.name for p in out.iterdir()) == ["README.md", f"data.{fmt}", "images"]
        imported = import_dataset(out, out / "preset.yaml", with_perturbations=True)
        assert imported.layout == fmt and imported.seed == 3 and not imported.warnings
        load_preset(imported.preset_path)
        presets[fmt] = yaml.safe_load(imported.preset_path.read_text(encoding="utf-8"))["items"]
    assert presets["jsonl"] == presets["csv"] == presets["parquet"]
    items = {it["id"]: it for it in presets["jsonl"]}
    head = items["orient-ct-head"]
    assert head["kind"] == "label" and head["labels"] == ["correct", "upside down"] and head["answer"] == "correct"
    names = [c["name"] for c in head["perturbations"]]
    assert set(names) == {"upside-down", "rotations/rot90", "rotations/rot180", "rotations/rot270"}
    upside = next(c for c in head["perturbations"] if c["name"] == "upside-down")
    assert upside["steps"] == [{"op": "rotate", "angle": 180, "answer_map": {"correct": "upside down"}}]
    pair = items["modality-1a"]
    assert pair["group"] == "pair-modality" and pair["answer"] == "Computed tomography (CT)"

    # typed values survive each format
    rows = [json.loads(line) for line in (tmp_path / "jsonl" / "data.jsonl").read_text().splitlines()]
    with (tmp_path / "csv" / "data.csv").open(encoding="utf-8", newline="") as f:
        crow = next(csv.DictReader(f))
    assert crow["correct"] in ("true", "false") and json.loads(crow["options"]) == rows[0]["options"]
    import pyarrow.parquet as pq

    prow = pq.read_table(tmp_path / "parquet" / "data.parquet").to_pylist()[0]
    assert prow["options"] == rows[0]["options"] and isinstance(prow["correct"], bool)
    assert json.loads(prow["settings"]) == rows[0]["settings"] and rows[0]["settings"]["model"] == "first"
    assert rows[0]["images"][0].startswith("images/") and rows[0]["source"] == "mediconfusion_pairs.yaml"


@pytest.mark.slow
def test_by_variant_has_one_row_per_variant(rated_run: dict[str, Any], tmp_path: Path, hf_offline: Path) -> None:
    store: Store = rated_run["store"]
    n_variants = len(variant_triples(store, "exp"))
    summary = export_run(store, "exp", "jsonl", tmp_path / "v", by="variant")
    rows = [json.loads(line) for line in (tmp_path / "v" / "data.jsonl").read_text().splitlines()]
    assert summary.rows == len(rows) == n_variants == len({r["variant_id"] for r in rows})
    assert all(r["n_answers"] == 3 and {a["model"] for a in r["answers"]} == set(MODELS) for r in rows)
    rated = [a for r in rows for a in r["answers"] if a["rating"]]
    assert [(a["response_id"], a["rating"]) for a in rated] == [(rated_run["rated"], "incorrect")]
    imported = import_dataset(tmp_path / "v", tmp_path / "v" / "p.yaml", with_perturbations=True)
    assert imported.items == len({r["item_id"] for r in rows}) and imported.rows == n_variants

    datasets = require_module("datasets", 'pip install -e ".[dev]"')
    export_run(store, "exp", "imagefolder", tmp_path / "vi", by="variant")
    ds = datasets.load_dataset("imagefolder", data_dir=str(tmp_path / "vi"), split="train",
                               cache_dir=str(hf_offline))
    assert ds.num_rows == n_variants and len(json.loads(ds[0]["answers"])) == 3


@pytest.mark.slow
def test_no_local_paths_keys_or_key_names_in_any_exported_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                hf_offline: Path) -> None:
    secret = "sk-planted-0123456789abcdefghijklmnopqrstuv"
    monkeypatch.setenv("PROBE_UI_PLANTED_KEY", secret)
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "keyed.yaml").write_text(yaml.safe_dump({
        "name": "keyed-first", "provider": "baseline", "model": "first", "api_key_env": "PROBE_UI_PLANTED_KEY",
        "base_url": "https://planted-user:planted-pass@example.invalid/v1"}), encoding="utf-8")
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    write_png(tmp_path / "scan.png", seed=1)
    write_png(tmp_path / "other.png", seed=2, mode="RGB")
    preset = write_preset(tmp_path / "mine.yaml", [
        choice_item(1, "scan.png", attributes={"image_ref": str(tmp_path / "scan.png")}),
        choice_item(2, "other.png", answer="B", tags=["t"]),
        {"id": "two", "images": ["scan.png", "other.png"], "question": "Are these the same?", "answer": "no"},
        {"id": "none", "question": "Is the sky blue?", "answer": "yes"}])
    store = Store(tmp_path / "data" / "probe-ui.db")
    run_batch(store, [load_preset(preset), load_preset(PRESETS_DIR / "medblink_orientation.yaml")],
              ["keyed-first", "baseline/last"], BatchOptions(run_name="leaky", suites=SUITES, progress=False))
    # a reply's bookkeeping that mentions local files (as importers and providers may write)
    with store.engine.begin() as c:
        rid = c.execute(sa.select(sa.func.min(responses.c.id))).scalar()
        c.execute(responses.update().where(responses.c.id == rid).values(
            details={"file": str(tmp_path / "results.json"), "resized": [[1, 2]]},
            error=f"cannot read {tmp_path / 'scan.png'} (looked in {tmp_path}, {Path.home()})"))
        parent = dict(c.execute(sa.select(responses).where(responses.c.id == rid)).mappings().one())
    judge = {k: v for k, v in parent.items() if k not in ("id", "created_at")}
    store.save_response(dict(judge, model="baseline/random", prompt=f"judge-blink:{parent['model']}:x", role="judge",
                             parent_id=rid, raw_text="(B)", parsed="B", correct=False, error=None, details=None))
    banned = [str(tmp_path), *LOCAL, secret, "PROBE_UI_PLANTED_KEY", "planted-pass", "api_key_env"]
    for fmt in FORMATS:
        for by in ("response", "variant"):
            out = tmp_path / "exports" / f"{fmt}-{by}"
            summary = export_run(store, "leaky", fmt, out, by=by)
            assert not summary.warnings
            texts = text_files(out)
            if fmt == "parquet":
                texts["data.parquet"] = parquet_text(out / "data.parquet")
            assert set(texts) >= {"README.md"}
            for name, text in texts.items():
                for bad in banned:
                    assert bad not in text, (fmt, by, name, bad)
            for p in out.rglob("*.png"):
                assert secret.encode() not in p.read_bytes()
    card = (tmp_path / "exports" / "jsonl-response" / "README.md").read_text(encoding="utf-8")
    assert "`mine.yaml`" in card and "user-supplied, licence unknown" in card and "pydicom (MIT)" in card
    assert "--model keyed-first --model baseline/last" in card and "example.invalid" in card
    rows = [json.loads(x) for x in (tmp_path / "exports" / "jsonl-response" / "data.jsonl").read_text().splitlines()]
    two = next(r for r in rows if r["item_id"] == "two" and r["condition"] == "original")
    none = next(r for r in rows if r["item_id"] == "none")
    assert len(two["images"]) == 2 and none["images"] == []
    assert next(r for r in rows if r["item_id"] == "q1")["attributes"] == {"image_ref": "scan.png"}
    judged = next(r for r in rows if r["response_id"] == rid)
    assert judged["judge"]["model"] == "baseline/random" and judged["judge"]["parsed"] == "B"
    assert judged["details"] == {"file": "results.json", "resized": [[1, 2]]} and "baseline/random" not in \
        {r["model"] for r in rows}  # judge calls are not rows of their own
    # several images per row and rows without an image in an imagefolder
    meta = [json.loads(x) for x in (tmp_path / "exports" / "imagefolder-response" / "metadata.jsonl")
            .read_text().splitlines()]
    m_two = next(m for m in meta if m["item_id"] == "two")
    assert len(m_two["images_file_names"]) == 2 and "file_name" not in m_two and "file_names" not in m_two
    assert next(m for m in meta if m["item_id"] == "none")["images_file_names"] == []
    # datasets 4 loads it, the question without an image included (an empty file_names used to fail it)
    datasets = require_module("datasets", 'pip install -e ".[dev]"')
    ds = datasets.load_dataset("imagefolder", data_dir=str(tmp_path / "exports" / "imagefolder-response"),
                               split="train", cache_dir=str(hf_offline))
    loaded = {r["item_id"]: len(r["images"]) for r in ds}
    assert loaded["none"] == 0 and loaded["two"] == 2
    # and it comes back: a multi-image item keeps both images, an image-free one has none
    imported = import_dataset(tmp_path / "exports" / "imagefolder-response", tmp_path / "back" / "p.yaml")
    items = {it.id: it for it in load_preset(imported.preset_path).items}
    assert len(items["two"].images) == 2 and items["none"].images == () and items["none"].kind == "yesno"


def test_refusals_name_the_problem(rated_run: dict[str, Any], tmp_path: Path) -> None:
    store: Store = rated_run["store"]
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    with pytest.raises(ExportError, match="full.* is not empty"):
        export_run(store, "exp", "jsonl", full)
    assert [p.name for p in full.iterdir()] == ["keep.txt"]
    with pytest.raises(ExportError, match="no run named 'nope'.*exp"):
        export_run(store, "nope", "jsonl", tmp_path / "a")
    with pytest.raises(ExportError, match="unknown export format 'xlsx'"):
        export_run(store, "exp", "xlsx", tmp_path / "b")
    with pytest.raises(ExportError, match="no runs"):
        export_run(Store(tmp_path / "empty.db"), None, "jsonl", tmp_path / "c")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    (tmp_path / "d").mkdir()  # an empty folder is fine
    assert export_run(store, "exp", "csv", tmp_path / "d").rows == rated_run["answers"]
    with pytest.raises(DatasetError, match="not a probe-ui export"):
        import_dataset(full, tmp_path / "p.yaml")
    with pytest.raises(DatasetError, match="not a folder"):
        import_dataset(tmp_path / "missing", tmp_path / "p.yaml")
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "data.jsonl").write_text('{"x": 1}\n')
    with pytest.raises(DatasetError, match="no column 'item_id'"):
        import_dataset(tmp_path / "e", tmp_path / "p.yaml")


def test_cli_export_and_import(rated_run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(rated_run["root"] / "store" / "probe-ui.db")
    out = tmp_path / "cli"
    assert main(["export", "--db", db, "--run", "exp", "--format", "parquet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{rated_run['answers']} rows" in printed and "probe-ui import dataset" in printed
    assert main(["import", "dataset", str(out), "--with-perturbations"]) == 0
    printed = capsys.readouterr().out
    assert "22 items" in printed and f"probe-ui batch {out / 'preset.yaml'}" in printed
    assert load_preset(out / "preset.yaml").item_conditions


def test_shared_seed_groups_come_back_and_items_without_an_original_are_flagged(tmp_path: Path) -> None:
    # MedBLINK depth: every colour permutation shares one seed (seed_group) so the dots sit in the same places
    text = (PRESETS_DIR / "medblink_depth.yaml").read_text(encoding="utf-8")
    with_original = tmp_path / "depth.yaml"
    with_original.write_text(text.replace("include_original: false", "include_original: true"), encoding="utf-8")
    store = Store(tmp_path / "a.db")
    run_batch(store, [load_preset(with_original)], ["baseline/first"],
              BatchOptions(run_name="dots", seed=5, progress=False))
    export_run(store, "dots", "jsonl", tmp_path / "x")
    imported = import_dataset(tmp_path / "x", tmp_path / "x" / "p.yaml", with_perturbations=True)
    assert not imported.warnings
    steps = [s for it in yaml.safe_load(imported.preset_path.read_text())["items"] for c in it["perturbations"]
             for s in c["steps"]]
    assert steps and all(s["op"] == "dots" and s["seed_group"] == "dot-colours" for s in steps)
    store2 = Store(tmp_path / "b.db")
    run_batch(store2, [load_preset(imported.preset_path)], ["baseline/first"],
              BatchOptions(run_name="dots", seed=5, progress=False))
    assert variant_triples(store2, "dots") == variant_triples(store, "dots")

    # the bundled preset asks no original: the first variant stands in for the item, and the import says so
    run_batch(store, [load_preset(PRESETS_DIR / "medblink_depth.yaml")], ["baseline/first"],
              BatchOptions(run_name="no-orig", seed=5, progress=False))
    export_run(store, "no-orig", "csv", tmp_path / "y")
    imported = import_dataset(tmp_path / "y", tmp_path / "y" / "p.yaml", with_perturbations=True)
    assert imported.items == 2 and len(imported.warnings) == 2
    assert all("has no original variant" in w for w in imported.warnings)


def test_an_image_missing_from_the_store_is_left_out_with_a_warning(tmp_path: Path) -> None:
    write_png(tmp_path / "a.png", seed=1)
    write_png(tmp_path / "b.png", seed=2)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(1, "a.png"), choice_item(2, "b.png")])
    store = Store(tmp_path / "s" / "probe-ui.db")
    run_batch(store, [load_preset(preset)], ["baseline/first"], BatchOptions(run_name="gap", progress=False))
    rows = store.answers_frame(store.get_run("gap").id, full=True)
    with store.engine.connect() as c:
        lost = c.execute(sa.select(variants.c.image_ids).where(variants.c.item_id == "q2")).scalar()[0]
    store.image_path(lost).unlink()
    summary = export_run(store, "gap", "jsonl", tmp_path / "out")
    assert summary.rows == len(rows) and summary.images == 1
    assert any("not in the store" in w and lost[:12] in w for w in summary.warnings)
    assert any(line.startswith("warning: ") for line in summary.lines())
    data = [json.loads(x) for x in (tmp_path / "out" / "data.jsonl").read_text().splitlines()]
    assert next(r for r in data if r["item_id"] == "q2")["images"] == []


def test_parquet_without_pyarrow_says_which_extra_to_install_and_writes_nothing(
        rated_run: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # pyarrow is an extra (170 MB): the base install exports jsonl, csv and imagefolder, and says what Parquet needs
    good = tmp_path / "good"
    export_run(rated_run["store"], "exp", "parquet", good)
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    out = tmp_path / "out"
    with pytest.raises(ExportError, match=r"pip install 'probe-ui\[parquet\]'"):
        export_run(rated_run["store"], "exp", "parquet", out)
    assert not out.exists()
    with pytest.raises(DatasetError, match=r"data.parquet.*pip install 'probe-ui\[parquet\]'"):
        import_dataset(good, tmp_path / "back")
