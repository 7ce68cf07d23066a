"""Visual-reliance controls (issue 45): a blank image, a noise image and no image beside each real one, and the
family's figures (accuracy per control, reliance, image-blind answers)."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fake_openai import FakeOpenAIServer
from helpers import choice_item, write_preset
from PIL import Image

from probe_ui.cli import main
from probe_ui.items import Variant
from probe_ui.metrics.visual_reliance import visual_reliance
from probe_ui.perturb import PerturbationError, apply


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")


def _images(body: dict[str, Any]) -> list[np.ndarray]:
    out = []
    for m in body["messages"]:
        for part in m["content"] if isinstance(m["content"], list) else []:
            if part.get("type") == "image_url":
                data = part["image_url"]["url"].split(",", 1)[1]
                out.append(np.asarray(Image.open(io.BytesIO(base64.b64decode(data)))))
    return out


def _looks(body: dict[str, Any]) -> str:
    """What the image of a request is: "none", "blank" (one level), "noise" (every level), or "real"."""
    ims = _images(body)
    if not ims:
        return "none"
    a = ims[0]
    levels = len(np.unique(a))
    return "blank" if levels == 1 else "real" if levels <= 16 else "noise"  # the originals hold 8 grey bands


def test_the_suite_sends_a_blank_a_noise_and_no_image_beside_each_real_one(
        tmp_path: Path, fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The done-when, and the figures: a model that reads the image (right only with the real one) relies on it
    fully; one that answers from the words (right whatever it sees) has no reliance and only image-blind answers."""
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    for i in range(3):  # eight grey bands each, unlike a blank (one level) or noise (every level)
        Image.fromarray(np.repeat(np.arange(8, dtype=np.uint8) * 30 + 5 * i, 8)[None, :].repeat(40, 0)).save(
            tmp_path / f"im{i}.png")
    preset = write_preset(tmp_path / "vr.yaml", [choice_item(i, f"im{i}.png", answer="B", n=3) for i in range(3)])
    fake_openai.responder = lambda body: "B" if body["model"] == "words" or _looks(body) == "real" else "A"
    db = str(tmp_path / "v.db")
    code = main(["batch", str(preset), "-m", "openai/looks", "-m", "openai/words", "--suite", "visual-reliance",
                 "--db", db, "--no-progress"])
    assert code == 0, capsys.readouterr().err
    seen: dict[str, dict[str, Any]] = {}
    for r in fake_openai.chat_requests:
        if r.body["model"] == "looks":
            kind = _looks(r.body)
            seen.setdefault(kind, r.body)
    assert set(seen) == {"real", "blank", "noise", "none"}
    real, blank, noise = (_images(seen[k])[0] for k in ("real", "blank", "noise"))
    assert blank.shape == noise.shape == real.shape  # the original's size and mode
    assert len(np.unique(blank)) == 1
    capsys.readouterr()
    assert main(["score", "--db", db, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    blocks = {m: b["paper"]["visual_reliance"] for m, b in report["models"].items()}
    looks, words = blocks["openai/looks"]["controls"], blocks["openai/words"]["controls"]
    for control in ("blank", "noise", "no-image"):
        assert looks[control]["accuracy"]["value"] == 0.0 and looks[control]["reliance"]["value"] == 100.0
        assert looks[control]["image_blind"]["value"] == 0.0
        assert words[control]["reliance"]["value"] == 0.0 and words[control]["image_blind"]["value"] == 100.0
        assert looks[control]["reliance"]["ci"][0] > 0  # the interval excludes no reliance


def test_the_controls_keep_the_size_and_mode_and_need_an_image() -> None:
    from probe_ui.images import CanonicalImage

    rgb = CanonicalImage.from_pil(Image.new("RGB", (33, 21), (10, 200, 30)))
    v = Variant(item_id="x", question="Is it broken?", kind="yesno", answer="no", images=(rgb,))
    b = apply(v, "blank", {"level": 0}, seed=1).images[0].pil()
    n1, n2 = (apply(v, "noise_image", {}, seed=s).images[0].pil() for s in (1, 2))
    assert b.size == n1.size == (33, 21) and b.getextrema() == ((0, 0),) * 3
    assert n1.tobytes() != n2.tobytes()  # seeded
    assert apply(v, "noise_image", {}, seed=1).images[0].pil().tobytes() == n1.tobytes()
    with pytest.raises(PerturbationError, match="image"):
        apply(Variant(item_id="y", question="?", kind="yesno", answer="no"), "blank", {}, seed=1)


def test_the_family_pairs_each_control_with_its_own_original(tmp_path: Path) -> None:
    """Two items: one answered right only with the image, one right in every case: reliance 50 points, half the
    right answers image-blind."""
    rows = []
    for item, with_image, without in (("a", True, False), ("b", True, True)):
        rows.append({"model": "m", "item_id": item, "group_id": item, "condition": "original", "correct": with_image,
                     "parsed": "B", "variant_id": f"{item}0", "kind": "choice", "n_labels": 3})
        for control in ("blank", "noise", "no-image"):
            rows.append({"model": "m", "item_id": item, "group_id": item, "condition": f"visual-reliance/{control}",
                         "correct": without, "parsed": "B" if without else "A", "variant_id": f"{item}{control}",
                         "kind": "choice", "n_labels": 3})
    import pandas as pd

    block = visual_reliance(pd.DataFrame(rows).assign(error=None))
    for control in ("blank", "noise", "no-image"):
        b = block["controls"][control]
        assert b["original"]["value"] == 100.0 and b["accuracy"]["value"] == 50.0
        assert b["reliance"]["value"] == 50.0 and b["image_blind"]["value"] == 50.0
