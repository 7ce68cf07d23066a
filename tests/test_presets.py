"""Preset loading: the format authors write, and errors that name the file, the item and the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from helpers import choice_item, write_png, write_preset

from probe_ui.files import yaml_stream
from probe_ui.files.yaml_limits import YAMLNestingError, yaml_problem
from probe_ui.presets import PresetError, bundled_presets, load_preset
from probe_ui.presets.suites import expand


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_png(tmp_path / "a.png", seed=1)
    write_png(tmp_path / "b.png", seed=2)
    return tmp_path


def test_kinds_and_answers_are_normalised(folder: Path) -> None:
    p = write_preset(folder / "p.yaml", [
        choice_item(1, "a.png", answer="B"),
        choice_item(2, "b.png", answer="finding 2-0"),
        {"id": "yn", "image": "a.png", "question": "Is there a fracture?", "answer": True},
        {"id": "lab", "image": "a.png", "question": "Which dot is deepest?", "labels": ["red", "green", "blue"],
         "answer": "green", "category": "Ultrasound", "group": "g1", "tags": ["depth"]},
        {"id": "free", "image": "b.png", "question": "Describe the image."},
    ])
    preset = load_preset(p)
    kinds = {it.id: it.kind for it in preset.items}
    assert kinds == {"q1": "choice", "q2": "choice", "yn": "yesno", "lab": "label", "free": "free"}
    byid = {it.id: it for it in preset.items}
    assert byid["q1"].answer == "finding 1-1"  # a letter becomes the option text
    assert byid["q2"].answer == "finding 2-0"
    assert byid["yn"].answer == "yes"  # YAML's boolean true is the word yes
    assert byid["lab"].category == ("Ultrasound",) and byid["lab"].group == "g1"
    assert byid["free"].answer is None
    assert preset.name == "p" and len(preset.sha256) == 64


@pytest.mark.parametrize("item, expected", [
    ({"id": "x", "image": "a.png", "options": ["a", "b"], "answer": "C"}, "item 1 ('x'): field 'question'"),
    ({"id": "x", "image": "a.png", "question": "q", "options": ["a", "b"], "answer": "C"},
     "item 1 ('x'): answer 'C' is not an option's letter"),
    ({"id": "x", "image": "a.png", "question": "q", "options": ["only one"]}, "at least two options"),
    ({"id": "x", "image": "a.png", "question": "q", "optoins": ["a", "b"]}, "field 'optoins': unknown field"),
    ({"id": "x", "image": "a.png", "question": "q", "kind": "yesno", "answer": "maybe"}, "must be yes or no"),
    ({"id": "x", "image": "a.png", "question": "q", "labels": ["red", "blue"], "answer": "green"},
     "not one of the labels"),
    ({"id": "x", "image": "a.png", "images": ["b.png"], "question": "q"}, "either 'image' or 'images'"),
    ({"id": "x", "image": {"path": "a.png", "frame": -1}, "question": "q"}, "field 'image"),
])
def test_validation_errors_name_file_item_and_field(folder: Path, item: dict, expected: str) -> None:
    p = write_preset(folder / "bad.yaml", [item])
    with pytest.raises(PresetError) as err:
        load_preset(p)
    msg = str(err.value)
    assert msg.startswith(str(p)) and expected in msg, msg
    assert "\n" not in msg


def test_whole_file_problems(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("items: [\n  - id: x\n", encoding="utf-8")
    with pytest.raises(PresetError, match=r"broken.yaml: invalid YAML \(line"):
        load_preset(tmp_path / "broken.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n", encoding="utf-8")
    with pytest.raises(PresetError, match="must be a mapping"):
        load_preset(tmp_path / "list.yaml")
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PresetError, match="not a UTF-8"):
        load_preset(tmp_path / "bin.yaml")
    with pytest.raises(PresetError, match="no such preset file"):
        load_preset(tmp_path / "missing.yaml")
    write_preset(tmp_path / "dup.yaml", [choice_item(1, "a.png"), choice_item(1, "a.png")])
    with pytest.raises(PresetError, match=r"item 2 \('q1'\): field 'id': duplicate id"):
        load_preset(tmp_path / "dup.yaml")


def test_unknown_perturbation_and_bad_parameter(folder: Path) -> None:
    p = write_preset(folder / "p.yaml", [choice_item(1, "a.png")],
                     perturbations=[{"name": "spin", "steps": [{"op": "spin"}]}])
    with pytest.raises(PresetError,
                       match="p.yaml: perturbation 'spin' \\(condition 'spin'\\): unknown perturbation 'spin'"):
        load_preset(p)
    p = write_preset(folder / "p.yaml", [choice_item(1, "a.png")],
                     perturbations=[{"name": "r", "steps": [{"op": "rotate", "angel": 90}]}])
    with pytest.raises(PresetError, match="no parameter 'angel'"):
        load_preset(p)


# F8 (issue 14): one bad perturbation parameter used to abort the whole batch with a message naming neither file nor
# item (a ValueError from float('90deg') deep in rotate, a TypeError from len(5) in dots).
BAD_STEPS = [
    ({"op": "rotate", "angle": "90deg"},
     "parameter 'angle': must be a number between -360 and 360, not '90deg'"),
    ({"op": "rotate", "angle": float("nan")}, "parameter 'angle': must be a number between -360 and 360, not nan"),
    ({"op": "dots", "colours": 5}, "parameter 'colours': must be a list of 1 to 10 different colour names (red, "
                                   "green, blue, ... or #rrggbb), not 5"),
    ({"op": "flip", "axis": ["h"]}, "parameter 'axis': must be one of 'h', 'v', not ['h']"),
    ({"op": "blur", "severity": 9}, "parameter 'severity': must be a whole number between 1 and 5, not 9"),
    ({"op": "rotate", "angel": 90}, "no parameter 'angel'; rotate takes angle, fill, answer_map"),
]


@pytest.mark.parametrize("step, message", BAD_STEPS)
def test_a_bad_step_of_an_item_is_recorded_for_that_item_and_the_rest_runs(folder: Path, step: dict,
                                                                           message: str) -> None:
    own = [{"name": "tilt", "steps": [step]}, {"name": "mirror", "steps": [{"op": "flip", "axis": "v"}]}]
    p = write_preset(folder / "x.yaml", [choice_item(1, "a.png"), choice_item(2, "b.png"),
                                         choice_item(3, "a.png", perturbations=own)],
                     perturbations=[{"name": "turned", "steps": [{"op": "rotate", "angle": 180}]}])
    preset = load_preset(p)
    line = f"{p}: item 3 ('q3'): perturbation '{step['op']}' (condition 'tilt'): {message}"
    assert preset.step_errors == {"q3": (line,)}
    ex = expand(preset, seed=0)
    assert [(e.item_id, e.message) for e in ex.errors] == [("q3", line)]
    assert {(v.item_id, v.condition) for v in ex.variants} == \
        {(f"q{i}", c) for i in (1, 2, 3) for c in ("original", "turned")} | {("q3", "mirror")}


@pytest.mark.parametrize("step, message", BAD_STEPS)
def test_a_bad_step_of_a_preset_wide_condition_refuses_the_preset_in_one_line(folder: Path, step: dict,
                                                                              message: str) -> None:
    p = write_preset(folder / "x.yaml", [choice_item(1, "a.png")],
                     perturbations=[{"name": "ok", "steps": [{"op": "shuffle"}]},
                                    {"name": "tilt", "steps": [{"op": "shuffle"}, step]}])
    with pytest.raises(PresetError) as err:
        load_preset(p)
    assert str(err.value) == f"{p}: perturbation '{step['op']}' (condition 'tilt', step 2): {message}"


def test_a_batch_with_a_bad_step_asks_the_rest_and_names_file_item_and_parameter(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from probe_ui.cli import main

    own = [{"name": "tilt", "steps": [{"op": "rotate", "angle": "90deg"}]},
           {"name": "mirror", "steps": [{"op": "flip"}]}]
    p = write_preset(folder / "x.yaml", [choice_item(1, "a.png"), choice_item(2, "b.png", perturbations=own),
                                         choice_item(3, "a.png")])
    db = str(tmp_path / "x.db")
    code = main(["batch", str(p), "-m", "baseline/first", "--db", db, "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 1  # an item error: the run is not complete
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        f"error: {p}: item 2 ('q2'): perturbation 'rotate' (condition 'tilt'): parameter 'angle': must be a number "
        "between -360 and 360, not '90deg'"]
    assert "4 answers planned" in out and "4 new" in out  # three originals and q2's mirror


def test_missing_image_is_an_item_error_and_the_rest_expands(folder: Path) -> None:
    p = write_preset(folder / "p.yaml", [choice_item(1, "a.png"), choice_item(2, "nope.png"), choice_item(3, "b.png")])
    ex = expand(load_preset(p), seed=0)
    assert [v.item_id for v in ex.variants] == ["q1", "q3"]
    assert len(ex.errors) == 1
    assert ex.errors[0].item_id == "q2"
    assert "item 'q2'" in ex.errors[0].message and "image 'nope.png' not found" in ex.errors[0].message


def test_conditions_make_grouped_variants_with_answer_moves(folder: Path) -> None:
    p = write_preset(folder / "p.yaml", [
        {"id": "o1", "image": "a.png", "question": "Is the image upright?", "labels": ["correct", "upside down"],
         "answer": "correct"},
    ], perturbations=[{"name": "upside-down", "steps": [{"op": "rotate", "angle": 180,
                                                           "answer_map": {"correct": "upside down"}}]}])
    ex = expand(load_preset(p), seed=3)
    orig, rot = ex.variants
    assert (orig.condition, rot.condition) == ("original", "upside-down")
    assert orig.group == rot.group == "o1"
    assert orig.answer == "correct" and rot.answer == "upside down"
    assert rot.provenance[0]["op"] == "rotate" and rot.provenance[0]["answer"] == ["correct", "upside down"]
    assert rot.images[0].pil().tobytes() == orig.images[0].pil().rotate(180).tobytes()
    assert rot.id != orig.id
    # same seed, same bytes and ids; shuffle depends on the seed
    assert [v.id for v in expand(load_preset(p), seed=3).variants] == [orig.id, rot.id]


@pytest.mark.parametrize("path", bundled_presets(), ids=lambda p: p.name)
def test_shipped_presets_load_and_every_image_resolves(path: Path) -> None:
    preset = load_preset(path)
    ex = expand(preset, seed=0)
    assert not ex.errors, ex.errors
    assert len(ex.variants) >= len(preset.items) >= 2
    for v in ex.variants:
        assert v.images, f"{v.item_id} has no image"
        if v.kind != "free":
            assert v.answer_label in v.labels, v.item_id


def test_four_paper_styles_are_shipped() -> None:
    names = {p.stem for p in bundled_presets()}
    for style in ("mediconfusion", "probmed", "medblink", "medvh"):
        assert any(style in n for n in names), f"no {style}-style preset in presets/"


def test_a_preset_cannot_read_images_outside_its_allowed_folders(tmp_path, monkeypatch):
    """Absolute paths, '..' and symbolic links out of the preset's folder are refused unless the user allows the
    folder (--image-root / PROBE_UI_IMAGE_ROOTS); a preset cannot allow it itself."""
    monkeypatch.delenv("PROBE_UI_IMAGE_ROOTS", raising=False)
    private = tmp_path / "private"
    private.mkdir()
    secret = write_png(private / "secret.png")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "link.png").symlink_to(secret)
    write_png(shared / "ok.png")
    items = [choice_item(1, str(secret)), choice_item(2, "../private/secret.png"), choice_item(3, "link.png"),
             choice_item(4, "ok.png"), choice_item(5, "ct_head_axial.png")]
    preset_path = write_preset(shared / "p.yaml", items)
    ex = expand(load_preset(preset_path), 0)
    assert sorted(v.item_id for v in ex.variants) == ["q4", "q5"]  # its own folder and the bundled assets
    assert sorted(e.item_id for e in ex.errors) == ["q1", "q2", "q3"]
    assert all("outside the folders a preset may read" in e.message for e in ex.errors)
    allowed = expand(load_preset(preset_path, [str(private)]), 0)
    assert not allowed.errors and len(allowed.variants) == 5
    monkeypatch.setenv("PROBE_UI_IMAGE_ROOTS", str(private))
    assert not expand(load_preset(preset_path), 0).errors


def _laughs(levels: int = 9) -> str:
    """A "billion laughs" YAML value: 9 levels of 9 aliases each (387 million strings) in a few hundred bytes."""
    parts = ["l0: &l0 [" + ", ".join(["lol"] * 9) + "]"]
    parts += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "{" + ", ".join(parts) + "}"


@pytest.mark.parametrize("parser", ["libyaml", "pure-python"])
@pytest.mark.parametrize("depth", [900, 1000, 5000])
def test_deep_nesting_is_one_message_whichever_layer_refuses(tmp_path, monkeypatch, parser: str, depth: int) -> None:
    """Deep nesting is refused by libyaml's scanner (PyYAML >= 6.0.4: past its own depth limit), by libyaml feeding
    PyYAML's recursive composer (below that limit), or by the pure-Python parser (no libyaml): the user reads the
    same line naming the file and where, whichever layer it was."""
    if parser == "pure-python":
        monkeypatch.setattr(yaml_stream, "CParser", None)
    elif yaml_stream.CParser is None:
        pytest.skip("this PyYAML was built without libyaml")
    path = tmp_path / "deep.yaml"
    path.write_text("items: " + "[" * depth + "]" * depth, encoding="utf-8")
    with pytest.raises(PresetError) as err:
        load_preset(path)
    assert re.fullmatch(rf"{re.escape(str(path))}: the YAML is nested too deeply \(line 1, column \d+\)",
                        str(err.value)), str(err.value)


def test_libyaml_depth_refusal_reads_as_the_projects_own() -> None:
    """PyYAML 6.0.4's libyaml refusal ("exceeded maximum nesting depth", a ScannerError) and the project's own
    (a RecursionError turned into YAMLNestingError) read the same, whatever PyYAML is installed here."""
    mark = yaml.error.Mark("<file>", 1006, 0, 1006, None, None)
    libyaml = yaml.scanner.ScannerError("while increasing flow level", mark, "exceeded maximum nesting depth", mark)
    assert yaml_problem(libyaml) == "the YAML is nested too deeply (line 1, column 1007)"
    assert yaml_problem(YAMLNestingError(mark)) == "the YAML is nested too deeply (line 1, column 1007)"
    assert yaml_problem(RecursionError()) == "the YAML is nested too deeply"
    other = yaml.scanner.ScannerError("while scanning", mark, "found character '\\t'", mark)
    assert yaml_problem(other) == "invalid YAML (line 1, column 1007): found character '\\t'"


@pytest.mark.parametrize("text, message", [
    (f"items:\n  - id: x\n    question: q\n    answer: {_laughs()}\n", "more than 2,000,000 values"),
    (f"items:\n  - id: {_laughs()}\n    question: q\n", "more than 2,000,000 values"),
    ("items:\n  - id: [1, 2]\n    question: q\n    answer: [yes]\n", "item 1: field"),
])
def test_hostile_yaml_is_refused_quickly(tmp_path, text, message):
    """Found by perf/fuzz.py: deep nesting and alias bombs end in a PresetError, not a crash or a hang
    (perf/limits.py times them: goal under 5 s)."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PresetError, match=message):
        load_preset(path)
