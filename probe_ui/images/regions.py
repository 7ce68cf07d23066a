"""Where the finding is, marked on the Probe tab (issue 45): the region's boxes as a clinician types or draws them.

Why a module: the region travels with the item (``attributes["region"]``, a list of boxes [x0, y0, x1, y1] in the
image's own pixels) to the occlude steps, to point items' scoring and into a benchmark set; the page only shows it.
A box is drawn with two clicks on opposite corners (:func:`add_corner`), or typed as "x0, y0, x1, y1", several
boxes separated by ";" (:func:`parse_region`). :func:`with_regions` draws the boxes (and a first corner waiting for
its second) on the image, so the clinician sees what will be covered or pointed at.
"""

from __future__ import annotations

import re
from typing import Any

from probe_ui.errors import ProbeError
from probe_ui.images import CanonicalImage

Box = list[int]
#: the colour of the region's outline on the page (a yellow that shows on grey images) and of a pending corner
OUTLINE = (255, 200, 0)
_NUM = re.compile(r"[-+]?\d+(?:\.\d+)?")


def parse_region(text: str | None, size: tuple[int, int] | None = None) -> list[Box]:
    """The boxes typed in the region field ("x0, y0, x1, y1; ..."), each inside the image of ``size`` when given;
    [] for an empty field. A ProbeError (field ``region``) says which box is wrong and why."""
    boxes: list[Box] = []
    for n, part in enumerate([p for p in re.split(r"[;\n]", text or "") if p.strip()], start=1):
        nums = [float(x) for x in _NUM.findall(part)]
        if len(nums) != 4:
            raise ProbeError(f"region box {n} ({part.strip()!r}): give four numbers x0, y0, x1, y1 in pixels",
                             field="region")
        x0, y0, x1, y1 = (round(v) for v in nums)
        box = [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]
        if box[0] < 0 or box[1] < 0 or box[0] == box[2] or box[1] == box[3]:
            raise ProbeError(f"region box {n} ({part.strip()!r}): a box needs a width and a height, from the "
                             "image's top left corner (0, 0)", field="region")
        if size is not None and (box[2] > size[0] or box[3] > size[1]):
            raise ProbeError(f"region box {n} ({part.strip()!r}) goes outside the {size[0]}x{size[1]} image",
                             field="region")
        boxes.append(box)
    return boxes


def region_text(boxes: list[Box] | None) -> str:
    """The boxes as the region field shows them."""
    return "; ".join(", ".join(str(int(v)) for v in b) for b in boxes or [])


def boxes_of(attributes: dict[str, Any] | None) -> list[Box]:
    """An item's region from its attributes (one box or several), as a list of integer boxes."""
    raw = (attributes or {}).get("region")
    if not raw:
        return []
    boxes = raw if isinstance(raw[0], (list, tuple)) else [raw]
    return [[round(float(v)) for v in b] for b in boxes]


def add_corner(pending: list[int] | None, x: float, y: float, boxes: list[Box]) -> tuple[list[int] | None, list[Box]]:
    """A click while drawing the region: the first click is a corner waiting for its opposite one; the second
    completes a box, added to ``boxes``. Returns (the corner waiting, or None; the boxes)."""
    point = [round(float(x)), round(float(y))]
    if pending is None:
        return point, list(boxes)
    box = [min(pending[0], point[0]), min(pending[1], point[1]), max(pending[0], point[0]), max(pending[1], point[1])]
    if box[0] == box[2] or box[1] == box[3]:
        raise ProbeError("the second corner must differ from the first in both directions: click the corner "
                         "opposite the first one", field="region")
    return None, [*boxes, box]


def with_regions(image: CanonicalImage, boxes: list[Box], pending: list[int] | None = None) -> CanonicalImage:
    """The image with each box outlined (and a pending corner marked), as the page shows it; the pixels asked are
    the image's own, never these outlines."""
    from PIL import ImageDraw

    if not boxes and pending is None:
        return image
    pic = image.pil().convert("RGB")
    draw = ImageDraw.Draw(pic)
    width = max(1, round(max(pic.size) / 250))  # thin on a small image, which the page enlarges
    for b in boxes:
        draw.rectangle([b[0], b[1], b[2] - 1, b[3] - 1], outline=OUTLINE, width=width)
    if pending is not None:
        r = 2 * width
        draw.ellipse([pending[0] - r, pending[1] - r, pending[0] + r, pending[1] + r], outline=OUTLINE, width=width)
    return CanonicalImage.from_pil(pic)
