"""Named suites: each item becomes a group of variants whose provenance replays, on the shipped presets too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.cli.listings import perturbations_markdown
from probe_ui.perturb import PerturbContext, describe, replay
from probe_ui.presets import PRESETS_DIR, PresetError, load_preset
from probe_ui.presets.suites import SUITES, SuiteError, describe_suites, expand, get_suite
from probe_ui.store import Store

GUIDE = (Path(__file__).resolve().parent.parent / "docs" / "guide" / "commands" / "perturbations.md").read_text(
    encoding="utf-8")


def _pairs(tmp_path: Path) -> Path:
    for i in range(4):
        write_png(tmp_path / f"im{i}.png", seed=i, mode="RGB")
    items = []
    for i in range(4):
        it = choice_item(i // 2, f"im{i}.png", answer="AB"[i % 2], n=5, group=f"pair{i // 2}")
        it["id"] = f"q{i}"
        it["attributes"] = {"modality": "CT Scan", "organ": "Abdomen", "findings": ["a hepatic cyst"],
                            "positions": ["liver"], "absent_finding": "pneumoperitoneum",
                            "dots": {"placement": "uniform", "target": "shallowest"}}
        items.append(it)
    return write_preset(tmp_path / "pairs.yaml", items)


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_every_suite_expands_and_every_variant_replays(tmp_path: Path, suite: str) -> None:
    preset = load_preset(_pairs(tmp_path))
    ex = expand(preset, seed=11, suites=[suite])
    assert not ex.errors, ex.errors
    originals = {v.item_id: v for v in ex.variants if v.condition == "original"}
    ctx = PerturbContext(pool=tuple(originals.values()))
    for v in ex.variants:
        assert v.group == v.item_id  # every variant sits in its item's group
        if v.condition != "original":
            assert v.condition.startswith(f"{suite}/")
            again = replay(originals[v.item_id], v.provenance, ctx).evolve(condition=v.condition)
            assert again.id == v.id, f"{v.condition} does not replay"
    # the same seed gives the same variants, byte for byte
    assert [v.id for v in expand(preset, seed=11, suites=[suite]).variants] == [v.id for v in ex.variants]


def test_circular_and_illusion_make_the_expected_conditions(tmp_path: Path) -> None:
    preset = load_preset(_pairs(tmp_path))
    conds = {v.condition for v in expand(preset, 0, ["circular"]).variants if v.item_id == "q0"}
    assert conds == {"original"} | {f"circular/shift{s}" for s in range(1, 5)}
    ill = {v.condition: v for v in expand(preset, 0, ["illusion"]).variants if v.item_id == "q0"}
    assert {"illusion/no-image", "illusion/shuffle", "illusion/1R", "illusion/4R", "illusion/unknown",
            "illusion/substitution"} <= set(ill)
    assert ill["illusion/no-image"].images == ()
    # substitution: the partner's image supports a distractor, and the answer follows it
    sub, orig = ill["illusion/substitution"], ill["original"]
    assert sub.answer != orig.answer and sub.answer in orig.options
    assert sub.images != orig.images


def test_unknown_suite_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="unknown suite 'nope'"):
        get_suite("nope")
    p = write_preset(tmp_path / "p.yaml", [choice_item(0, "a.png")], suites=["nope"])
    with pytest.raises(PresetError, match="field 'suites': unknown suite 'nope'"):
        load_preset(p)


def test_batch_with_suite_stores_every_variant_in_its_group(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "s.db")
    preset = PRESETS_DIR / "mediconfusion_pairs.yaml"
    code = main(["batch", str(preset), "--suite", "illusion", "-m", "baseline/first", "--db", db, "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    expected = expand(load_preset(preset), 0, ["illusion"]).variants
    frame = Store(db).answers_frame(Store(db).get_run().id)
    assert sorted(frame["variant_id"]) == sorted(v.id for v in expected)
    assert (frame["group_id"] == frame["item_id"]).all()
    assert set(frame["condition"]) >= {"original", "illusion/no-image", "illusion/shuffle", "illusion/1R",
                                       "illusion/unknown", "illusion/substitution"}


def test_perturbations_command_and_guide_table_agree(capsys) -> None:
    assert main(["perturbations", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in listed["suites"]} == set(SUITES)
    for line in perturbations_markdown(describe(), describe_suites()).splitlines():
        assert line in GUIDE, f"docs/guide/commands/perturbations.md's table is out of date: {line[:80]}"


def test_preview_prints_exact_prompts_and_writes_images(tmp_path: Path, capsys) -> None:
    preset = PRESETS_DIR / "medblink_orientation.yaml"
    code = main(["preview", str(preset), "--item", "orient-ct-head", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("=== item orient-ct-head") == 2
    assert "answer 'upside down'" in out and "answer 'correct'" in out
    assert "Is this CT image in its correct anatomical orientation or upside down?" in out
    assert len(list(tmp_path.glob("orient-ct-head__*.png"))) == 2
