"""Region perturbations: change only the finding, or the same area elsewhere as the control (issue 45).

An item may say where its finding is: ``region: [x0, y0, x1, y1]`` in its image's pixels (several boxes allowed;
kept in ``attributes["region"]`` as a list of boxes). ``occlude`` covers every box, and the pixels outside are
untouched: filled with the mean of the tissue around it (a ring as wide as a quarter of the box), blurred until the
finding is gone, or inpainted from its border (OpenCV, Telea). ``occlude_elsewhere`` covers boxes of the same sizes
at a seeded place that overlaps no region: the control. A model that still answers "nodule present" with the nodule
occluded, and changes its answer under the control, is not reading the finding.

The answer stays by default; an item that asks whether the finding is there says what the answer becomes with the
step's ``answer_map`` (``{yes: no}``). The boxes are in the item image's own pixels: apply these steps before a
rotation, crop or resize (a box outside the image is refused).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Annotated, Any, Literal

from PIL import Image
from pydantic import Field

from probe_ui.items import Variant
from probe_ui.lazy import lazy_module
from probe_ui.perturb.image import map_images
from probe_ui.perturb.registry import PerturbationError, register

if TYPE_CHECKING:
    import numpy as np
else:  # imported when an image is perturbed, not when perturbations are listed
    np = lazy_module("numpy")

Fill = Annotated[Literal["mean", "blur", "inpaint"], Field(
    description="mean: the mean of the tissue around the box; blur: a blur that wipes out detail inside it; "
                "inpaint: filled from the box's border (OpenCV, Telea)")]
Box = tuple[int, int, int, int]


def regions_of(variant: Variant) -> list[Box]:
    """The variant's regions as integer boxes (x0, y0, x1, y1); [] where it has none."""
    raw = variant.attributes.get("region")
    if not raw:
        return []
    boxes = raw if isinstance(raw[0], (list, tuple)) else [raw]
    return [(int(round(b[0])), int(round(b[1])), int(round(b[2])), int(round(b[3]))) for b in boxes]


def _checked(variant: Variant, op: str) -> list[Box]:
    boxes = regions_of(variant)
    if not boxes:
        raise PerturbationError(f"{op} needs the item's region (region: [x0, y0, x1, y1] in its image's pixels)")
    if not variant.images:
        raise PerturbationError(f"{op} needs an image, and the variant has none")
    w, h = variant.images[0].pil().size
    for b in boxes:
        if not (0 <= b[0] < b[2] <= w and 0 <= b[1] < b[3] <= h):
            raise PerturbationError(f"{op}: region {list(b)} is not inside the {w}x{h} image (apply it before a "
                                    "rotation, crop or resize)")
    return boxes


def _fill(px: np.ndarray, box: Box, how: str) -> None:
    """Cover ``box`` of ``px`` (H×W or H×W×3, changed in place) as ``how`` says; nothing outside it changes."""
    import cv2

    x0, y0, x1, y1 = box
    if how == "mean":
        mx, my = max(1, (x1 - x0) // 4), max(1, (y1 - y0) // 4)
        ring = px[max(0, y0 - my):y1 + my, max(0, x0 - mx):x1 + mx].astype(float)
        inner = np.zeros(ring.shape[:2], bool)
        inner[y0 - max(0, y0 - my):y1 - max(0, y0 - my), x0 - max(0, x0 - mx):x1 - max(0, x0 - mx)] = True
        around = ring[~inner] if (~inner).any() else ring.reshape(-1, *ring.shape[2:])
        px[y0:y1, x0:x1] = np.rint(around.mean(axis=0)).astype(np.uint8)
    elif how == "blur":
        k = max(x1 - x0, y1 - y0) | 1  # an odd kernel as large as the box: no detail of the finding survives
        blurred = cv2.GaussianBlur(np.ascontiguousarray(px), (k, k), 0)
        px[y0:y1, x0:x1] = blurred[y0:y1, x0:x1]
    else:
        mask = np.zeros(px.shape[:2], np.uint8)
        mask[y0:y1, x0:x1] = 255
        painted = cv2.inpaint(np.ascontiguousarray(px), mask, 5, cv2.INPAINT_TELEA)
        px[y0:y1, x0:x1] = painted[y0:y1, x0:x1]


def _covered(variant: Variant, boxes: list[Box], how: str, op: str) -> Variant:
    def cover(im: Image.Image) -> Image.Image:
        px = np.array(im)
        for b in boxes:
            _fill(px, b, how)
        return Image.fromarray(px, im.mode)

    return map_images(variant, cover, op)


@register("occlude", "Cover the item's region (its finding) with the surrounding tissue's mean, a blur or "
          "inpainting; the pixels outside are untouched. answer_map says what the answer becomes (e.g. {yes: no}).",
          "unchanged unless answer_map moves it (\"is there a nodule?\" becomes no once it is covered)",
          label="cover the finding (its region)", phrase=lambda p: f"finding covered ({p.get('fill') or 'mean'})")
def occlude(variant: Variant, rng: random.Random, *, fill: Fill = "mean") -> tuple[Variant, dict[str, Any]]:
    boxes = _checked(variant, "occlude")
    return _covered(variant, boxes, fill, "occlude"), {"boxes": [list(b) for b in boxes], "fill": fill}


@register("occlude_elsewhere", "The control of occlude: cover boxes of the region's sizes at a seeded place that "
          "overlaps no region, filled the same way.", "unchanged (the finding is still in view)",
          label="cover the same area elsewhere (control)",
          phrase=lambda p: f"same area covered elsewhere ({p.get('fill') or 'mean'})")
def occlude_elsewhere(variant: Variant, rng: random.Random, *, fill: Fill = "mean") -> tuple[Variant, dict[str, Any]]:
    boxes = _checked(variant, "occlude_elsewhere")
    w, h = variant.images[0].pil().size
    placed: list[Box] = []
    for b in boxes:
        bw, bh = b[2] - b[0], b[3] - b[1]
        spots = [(x, y) for x in range(0, w - bw + 1, max(1, bw // 4)) for y in range(0, h - bh + 1, max(1, bh // 4))
                 if not any(x < r[2] and r[0] < x + bw and y < r[3] and r[1] < y + bh for r in boxes + placed)]
        if not spots:
            raise PerturbationError(f"occlude_elsewhere: no place for a {bw}x{bh} box outside the region in the "
                                    f"{w}x{h} image")
        x, y = rng.choice(spots)
        placed.append((x, y, x + bw, y + bh))
    return _covered(variant, placed, fill, "occlude_elsewhere"), {"boxes": [list(b) for b in placed], "fill": fill}
