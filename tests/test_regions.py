"""Regions and the occlude steps (issue 45): an item says where its finding is; ``occlude`` changes only the pixels
inside it, ``occlude_elsewhere`` the same area outside it, and an item says what the answer becomes."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from fake_openai import FakeOpenAIServer
from PIL import Image

from probe_ui.cli import main
from probe_ui.presets import PresetError, load_preset

BOX = [20, 10, 36, 22]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")


def _image(body: dict[str, Any]) -> np.ndarray:
    for m in body["messages"]:
        for part in m["content"] if isinstance(m["content"], list) else []:
            if part.get("type") == "image_url":
                return np.asarray(Image.open(io.BytesIO(base64.b64decode(part["image_url"]["url"].split(",", 1)[1]))))
    raise AssertionError("no image in the request")


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    """A textured grey image with a bright 'nodule' inside BOX, and three conditions: occlude (the answer becomes
    no), occlude with inpainting, and the control elsewhere."""
    rng = np.random.default_rng(0)
    px = rng.integers(60, 120, size=(48, 64), dtype=np.uint8)
    px[12:20, 24:32] = 250
    Image.fromarray(px).save(tmp_path / "chest.png")
    doc = {"perturbations": [
        {"name": "covered", "steps": [{"op": "occlude", "answer_map": {"yes": "no"}}]},
        {"name": "inpainted", "steps": [{"op": "occlude", "fill": "inpaint", "answer_map": {"yes": "no"}}]},
        {"name": "elsewhere", "steps": [{"op": "occlude_elsewhere"}]}],
        "items": [{"id": "nod", "image": "chest.png", "question": "Is there a nodule?", "kind": "yesno",
                   "answer": "yes", "region": BOX}]}
    path = tmp_path / "regions.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_occlude_sends_an_image_that_differs_only_inside_the_region_and_the_control_only_outside(
        preset: Path, tmp_path: Path, fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    fake_openai.responder = lambda body: "Yes" if _image(body).max() >= 250 else "No"  # sees the bright nodule
    db = str(tmp_path / "r.db")
    assert main(["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--no-progress", "--run", "r"]) == 0
    images = [_image(r.body) for r in fake_openai.chat_requests]
    original = next(a for a in images if (a == np.asarray(Image.open(preset.parent / "chest.png"))).all())
    inside = np.zeros(original.shape, bool)
    inside[BOX[1]:BOX[3], BOX[0]:BOX[2]] = True
    changed = [a != original for a in images if not (a == original).all()]
    assert len(changed) == 3
    occluded = [c for c in changed if not (c & ~inside).any()]
    control = [c for c in changed if not (c & inside).any()]
    assert len(occluded) == 2 and len(control) == 1  # occlude (mean and inpaint) inside; the control outside
    assert all(c[inside].mean() > 0.5 for c in occluded)  # the region itself was covered
    assert control[0].sum() <= inside.sum()  # a box of the region's size
    capsys.readouterr()
    assert main(["score", "--db", db, "--run", "r", "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["models"]["openai/fake-vlm"]["accuracy"]["value"] == 100.0  # no after covering, yes elsewhere


def test_a_region_is_checked_where_the_preset_is_read(tmp_path: Path) -> None:
    Image.new("L", (10, 10)).save(tmp_path / "a.png")
    for bad, said in (([5, 5, 2, 8], "x0 < x1"), ([1, 2, 3], "not a box")):
        path = tmp_path / "bad.yaml"
        path.write_text(yaml.safe_dump({"items": [{"id": "i", "image": "a.png", "question": "Q?", "kind": "yesno",
                                                   "answer": "no", "region": bad}]}))
        with pytest.raises(PresetError, match="region"):
            load_preset(path)
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump({"items": [{"id": "i", "image": "a.png", "question": "Q?", "kind": "yesno",
                                               "answer": "no", "region": [[0, 0, 2, 2], [5, 5, 9, 9]]}]}))
    assert load_preset(path).items[0].attributes["region"] == [[0, 0, 2, 2], [5, 5, 9, 9]]


def test_occlude_needs_a_region_inside_the_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from probe_ui.images import CanonicalImage
    from probe_ui.items import Variant
    from probe_ui.perturb import PerturbationError, apply

    im = CanonicalImage.from_pil(Image.new("L", (40, 30), 90))
    v = Variant(item_id="x", question="Is there a nodule?", kind="yesno", answer="yes", images=(im,))
    with pytest.raises(PerturbationError, match="region"):
        apply(v, "occlude", {}, seed=1)
    far = v.evolve(attributes={"region": [[30, 20, 60, 29]]})
    with pytest.raises(PerturbationError, match="not inside the 40x30 image"):
        apply(far, "occlude", {}, seed=1)
    whole = v.evolve(attributes={"region": [[0, 0, 40, 30]]})
    with pytest.raises(PerturbationError, match="no place"):
        apply(whole, "occlude_elsewhere", {}, seed=1)


def test_the_probe_tabs_region_is_drawn_with_two_corners_or_typed_and_checked() -> None:
    """The library behind the Probe tab's region tool: two clicks on opposite corners make a box (in either
    order), a typed region is read box by box, and a wrong one is named with the field it belongs to."""
    from probe_ui.images import CanonicalImage
    from probe_ui.images.regions import add_corner, boxes_of, parse_region, region_text, with_regions
    from probe_ui.live import ProbeError

    corner, boxes = add_corner(None, 36.4, 22, [])
    assert corner == [36, 22] and boxes == []
    corner, boxes = add_corner(corner, 20, 10.2, boxes)  # the opposite corner, up and to the left
    assert corner is None and boxes == [BOX]
    with pytest.raises(ProbeError, match="differ from the first in both directions"):
        add_corner([5, 5], 5, 30, [])
    assert parse_region("20, 10, 36, 22; 1 2 8 9") == [BOX, [1, 2, 8, 9]]
    assert parse_region(region_text([BOX, [1, 2, 8, 9]])) == [BOX, [1, 2, 8, 9]] and parse_region("  ") == []
    for bad, why in (("20, 10, 36", "box 1 .* four numbers"), ("1,1,1,9", "needs a width and a height"),
                     ("0,0,4,4; 10, 10, 70, 20", r"box 2 .* outside the 64x48 image")):
        with pytest.raises(ProbeError, match=why) as err:
            parse_region(bad, (64, 48))
        assert err.value.field == "region"
    assert boxes_of({"region": BOX}) == [BOX] and boxes_of({"region": [BOX, BOX]}) == [BOX, BOX]
    grey = CanonicalImage.from_pil(Image.fromarray(np.full((48, 64), 100, np.uint8)))
    drawn = np.asarray(with_regions(grey, [BOX]).pil())
    assert (drawn[BOX[1], BOX[0] + 5] == (255, 200, 0)).all()  # the outline, on what the page shows
    assert (drawn[16, 28] == 100).all() and (drawn[0, 0] == 100).all()  # inside and outside untouched
    assert with_regions(grey, []) is grey


def test_a_region_drawn_on_the_probe_tab_is_saved_with_the_item_and_comes_back(tmp_path: Path) -> None:
    """"Add to benchmark set" keeps the region as the item's own ``region:``; the set loads with it, and a point
    question without one says what is missing, beside the region field."""
    from probe_ui.images import CanonicalImage
    from probe_ui.live import ProbeError, build_item
    from probe_ui.live.sets import save_item

    im = CanonicalImage.from_pil(Image.fromarray(np.full((48, 64), 100, np.uint8)))
    item = build_item("Point to the nodule.", "point", "", None, images=(im,),
                      extra={"attributes": {"region": [BOX]}})
    path, preset = save_item(tmp_path / "sets", "nodules", item, (im,), [])
    saved = yaml.safe_load(path.read_text())["items"][0]
    assert saved["region"] == [BOX] and "attributes" not in saved and saved["kind"] == "point"
    assert preset.items[0].attributes["region"] == [BOX] and load_preset(path).items[0].kind == "point"
    with pytest.raises(ProbeError, match="needs the finding's region") as err:
        build_item("Point to the nodule.", "point", "", None, images=(im,))
    assert err.value.field == "region"
    # an item whose region came among its attributes (a dataset export) loads with it as its region
    doc = {"items": [{"id": "x", "image": "images/" + Path(preset.items[0].images[0].path).name,
                      "question": "Point to it.", "kind": "point", "attributes": {"region": [BOX]}}]}
    (tmp_path / "sets" / "from-export.yaml").write_text(yaml.safe_dump(doc))
    assert load_preset(tmp_path / "sets" / "from-export.yaml").items[0].attributes["region"] == [BOX]


def test_the_occlusion_family_sets_flips_with_the_finding_covered_beside_flips_with_elsewhere_covered(
        tmp_path: Path, fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two models on six nodules, each asked as it is, with its nodule covered and with the same area covered
    elsewhere: one reads the nodule (it flips only when the nodule is covered), one answers yes whatever it sees
    (it never flips). score --json reports both flip rates side by side and the finding-specific difference."""
    import json

    from helpers import family_block

    rng = np.random.default_rng(1)
    items = []
    for k in range(6):
        px = rng.integers(60, 120, size=(48, 64), dtype=np.uint8)
        x, y = 6 + 8 * k, 6 + 4 * k
        px[y:y + 8, x:x + 8] = 250
        Image.fromarray(px).save(tmp_path / f"n{k}.png")
        items.append({"id": f"n{k}", "image": f"n{k}.png", "question": "Is there a nodule?", "kind": "yesno",
                      "answer": "yes", "region": [x - 2, y - 2, x + 10, y + 10]})
    doc = {"perturbations": [{"name": "covered", "steps": [{"op": "occlude", "answer_map": {"yes": "no"}}]},
                             {"name": "elsewhere", "steps": [{"op": "occlude_elsewhere"}]}], "items": items}
    (tmp_path / "nodules.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    fake_openai.responder = lambda body: ("Yes" if body["model"] == "blind" or _image(body).max() >= 250 else "No")
    db = str(tmp_path / "o.db")
    assert main(["batch", str(tmp_path / "nodules.yaml"), "-m", "openai/reader", "-m", "openai/blind", "--db", db,
                 "--no-progress", "--run", "o"]) == 0
    capsys.readouterr()
    assert main(["score", "--db", db, "--run", "o", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    reader = family_block(report, "occlusion", "openai/reader")
    blind = family_block(report, "occlusion", "openai/blind")
    assert reader["covered"]["value"] == 100.0 and reader["elsewhere"]["value"] == 0.0
    assert reader["specific"]["value"] == pytest.approx(100.0, abs=1e-6) and reader["specific"]["n"] == 6
    assert reader["specific"]["ci"][0] > 0  # six images: the interval excludes 0
    assert blind["covered"]["value"] == 0.0 and blind["elsewhere"]["value"] == 0.0
    assert blind["specific"]["value"] == pytest.approx(0.0, abs=1e-6) and blind["specific"]["ci"][0] < 0
