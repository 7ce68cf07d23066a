"""Small builders shared by tests: images and presets written into a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml
from PIL import Image


def write_png(path: Path, size: tuple[int, int] = (48, 32), seed: int = 0, mode: str = "L") -> Path:
    rng = np.random.default_rng(seed)
    shape = (size[1], size[0]) if mode == "L" else (size[1], size[0], 3)
    Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8), mode=mode).save(path)
    return path


def write_preset(path: Path, items: list[dict[str, Any]], **top: Any) -> Path:
    path.write_text(yaml.safe_dump({"items": items, **top}, sort_keys=False), encoding="utf-8")
    return path


def choice_item(i: int, image: str, answer: str = "A", n: int = 2, **extra: Any) -> dict[str, Any]:
    opts = [f"finding {i}-{k}" for k in range(n)]
    return {"id": f"q{i}", "image": image, "question": f"What does image {i} show?", "options": opts,
            "answer": answer, **extra}
