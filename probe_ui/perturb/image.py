"""Image perturbations: geometry first (rotation and flips, MedBLINK / RotationalEval)."""

from __future__ import annotations

import random

from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.perturb.registry import PerturbationError, register

_EXACT = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}


def _map_images(variant: Variant, fn) -> Variant:
    if not variant.images:
        raise PerturbationError("this perturbation needs an image, and the variant has none")
    return variant.evolve(images=tuple(CanonicalImage.from_pil(fn(im.pil())) for im in variant.images))


@register(
    "rotate",
    "Rotate every image counter-clockwise by `angle` degrees (90/180/270 are exact pixel moves; other angles "
    "expand the canvas and fill the border with `fill`).",
    "unchanged for content questions; use answer_map for orientation questions (e.g. correct → upside down)",
)
def rotate(variant: Variant, rng: random.Random, angle: float = 90, fill: str = "black") -> Variant:
    a = float(angle) % 360
    if a == 0:
        return variant
    if a in _EXACT:
        return _map_images(variant, lambda im: im.transpose(_EXACT[int(a)]))
    colour = {"black": 0, "white": 255}.get(fill)
    if colour is None:
        raise PerturbationError(f"rotate: fill must be 'black' or 'white', not {fill!r}")

    def turn(im: Image.Image) -> Image.Image:
        c = colour if im.mode == "L" else (colour,) * 3
        return im.rotate(a, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=c)

    return _map_images(variant, turn)


@register("flip", "Mirror every image horizontally (`axis: h`) or vertically (`axis: v`).",
          "unchanged for content questions; laterality questions need answer_map (left ↔ right)")
def flip(variant: Variant, rng: random.Random, axis: str = "h") -> Variant:
    ops = {"h": Image.Transpose.FLIP_LEFT_RIGHT, "v": Image.Transpose.FLIP_TOP_BOTTOM}
    if axis not in ops:
        raise PerturbationError(f"flip: axis must be 'h' or 'v', not {axis!r}")
    return _map_images(variant, lambda im: im.transpose(ops[axis]))
