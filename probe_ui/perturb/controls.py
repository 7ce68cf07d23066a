"""Visual-reliance controls: the question asked about an image that holds nothing (issue 45).

A model that answers as well without the pixels is not reading them (on VQA-RAD a text-trained model keeps 81 % of
its performance with a blank image, arXiv 2603.03437; SURE-VQA makes no-image baselines mandatory). ``blank``
replaces every image by one grey level and ``noise_image`` by seeded noise, each the original's size and colour
mode, so that the request differs from the original only in its pixels; ``remove`` (no image at all) is in
:mod:`probe_ui.perturb.image`. The ``visual-reliance`` suite asks all three; its metric family is
:mod:`probe_ui.metrics.visual_reliance`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Annotated, Any

from PIL import Image
from pydantic import Field

from probe_ui.items import Variant
from probe_ui.lazy import lazy_module
from probe_ui.perturb.image import map_images
from probe_ui.perturb.registry import register

if TYPE_CHECKING:
    import numpy as np
else:  # imported when an image is perturbed, not when perturbations are listed
    np = lazy_module("numpy")

CONTROL = "unchanged (the question's answer stays the image's: a model right without the pixels was not reading them)"


@register("blank", "Replace every image by one grey level (default 128), the original's size and colour mode: a "
          "control for whether the answer needs the pixels.", CONTROL,
          label="replace the image by a blank one", phrase=lambda p: "blank image (one grey level)")
def blank(variant: Variant, rng: random.Random, *,
          level: Annotated[int, Field(ge=0, le=255, description="the grey level of every pixel (0 black, 255 white)")
                           ] = 128) -> tuple[Variant, dict[str, Any]]:
    def flat(im: Image.Image) -> Image.Image:
        return Image.new(im.mode, im.size, level if im.mode == "L" else (level, level, level))

    return map_images(variant, flat, "blank"), {"level": level}


@register("noise_image", "Replace every image by seeded uniform noise, the original's size and colour mode: a "
          "control for whether the answer needs the pixels.", CONTROL,
          label="replace the image by noise", phrase=lambda p: "noise instead of the image")
def noise_image(variant: Variant, rng: random.Random) -> tuple[Variant, dict[str, Any]]:
    gen = np.random.default_rng(rng.getrandbits(63))

    def noise(im: Image.Image) -> Image.Image:
        w, h = im.size
        shape = (h, w) if im.mode == "L" else (h, w, 3)
        return Image.fromarray(gen.integers(0, 256, size=shape, dtype=np.uint8), "L" if im.mode == "L" else "RGB")

    return map_images(variant, noise, "noise_image"), {}
