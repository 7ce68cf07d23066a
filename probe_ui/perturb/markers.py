"""Visual prompts (P6, MediConfusion §4.2): an arrow, a box or a circle drawn on the image to point at a region.

The question is not changed: the marker tests whether pointing at the finding helps (or whether a marker in the
wrong place misleads). Coordinates are pixels, or fractions 0-1 of the width/height with ``relative: true``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from PIL import ImageDraw
from pydantic import Field

from probe_ui.items import Variant
from probe_ui.perturb.overlay import Colour, ImageIndex, Relative, colour_rgb, pick_image, replace_image, scaled_px
from probe_ui.perturb.params import Box, Number, Point, Shape
from probe_ui.perturb.registry import PerturbationError, register

ARROW_LENGTH = 0.15  # default arrow length, as a fraction of the image's long side
Circle = Annotated[list[Number], Field(min_length=3, max_length=3),
                   Shape("list", "a circle [cx, cy, r] of three numbers")]


def _coords(value: Sequence[float] | None, shape: str) -> list[float]:
    """A shape's coordinates as floats (the caller checked that the shape's parameter is given)."""
    if value is None:
        raise PerturbationError(f"marker: shape {shape} needs `{shape}` coordinates")
    return [float(v) for v in value]


def _point(x: float, y: float, size: tuple[int, int], relative: bool, name: str) -> tuple[int, int]:
    w, h = size
    if relative:
        if not (0 <= x <= 1 and 0 <= y <= 1):
            raise PerturbationError(f"marker: relative {name} coordinates are fractions 0-1, not {[x, y]!r}")
        x, y = x * (w - 1), y * (h - 1)
    px, py = int(round(x)), int(round(y))
    if not (0 <= px < w and 0 <= py < h):
        raise PerturbationError(f"marker: {name} point {[x, y]!r} lies outside the {w}x{h} image")
    return px, py


def _default_tail(tip: tuple[int, int], size: tuple[int, int]) -> tuple[int, int]:
    """A tail up-left of the tip (else up-right, down-left, down-right: the first that stays inside the image)."""
    w, h = size
    length = ARROW_LENGTH * max(w, h)
    d = length / math.sqrt(2)
    best = None
    for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        x, y = tip[0] + sx * d, tip[1] + sy * d
        cx, cy = min(max(x, 0), w - 1), min(max(y, 0), h - 1)
        if (cx, cy) == (x, y):
            return int(round(x)), int(round(y))
        got = math.hypot(cx - tip[0], cy - tip[1])
        if best is None or got > best[0]:
            best = (got, (int(round(cx)), int(round(cy))))
    return best[1]  # type: ignore[index]


@register(
    "marker",
    "Draw a visual prompt: an arrow to `arrow: [x, y]` (from `tail`, default up-left at 15% of the long side), a "
    "box `box: [x0, y0, x1, y1]` or a circle `circle: [cx, cy, r]`, in `colour` (default red) with a line `width` "
    "(default 3 px per 512 px of the long side).",
    "unchanged",
    label="draw a marker (arrow, box or circle)", phrase=lambda p: f"{p.get('shape', 'arrow')} drawn on the image",
)
def marker(variant: Variant, rng: random.Random,
           shape: Annotated[Literal["arrow", "box", "circle"], Field(
               description="what to draw; its coordinates go in the parameter of the same name")] = "arrow",
           box: Annotated[Box | None, Field(description="a rectangle's corners [x0, y0, x1, y1] (shape: box)")] = None,
           circle: Annotated[Circle | None, Field(
               description="a circle's centre and radius [cx, cy, r] (shape: circle)")] = None,
           arrow: Annotated[Point | None, Field(description="where the arrow points, [x, y] (shape: arrow)")] = None,
           tail: Annotated[Point | None, Field(
               description="where the arrow starts, [x, y]; unset: up-left of the tip at 15% of the long side")] = None,
           colour: Annotated[Colour, Field(description="the marker's colour: a name or #rrggbb")] = "red",
           width: Annotated[Number | None, Field(ge=1, description="line width in pixels (at most a quarter of the "
                                                 "long side); unset: 3 px per 512 px of the long side")] = None,
           relative: Relative = False, image_index: ImageIndex = 0) -> tuple[Variant, dict[str, Any]]:
    """One marker on one image (``image_index``), converted to RGB; lines are not antialiased (exact colour).

    A circle's radius with ``relative: true`` is a fraction of the long side. Without ``tail`` the arrow comes
    from the upper left (or the first other diagonal that stays inside the image) at 15% of the long side.
    """
    given = {"arrow": arrow, "box": box, "circle": circle}
    if given[shape] is None:
        raise PerturbationError(f"marker: shape {shape} needs `{shape}` coordinates")
    extra = [k for k, v in given.items() if v is not None and k != shape]
    if extra or (tail is not None and shape != "arrow"):
        raise PerturbationError(f"marker: shape {shape} takes no {', '.join(extra) or 'tail'}")
    index, canon = pick_image(variant, image_index, "marker")
    image = canon.pil()
    if image.mode != "RGB":
        image = image.convert("RGB")
    size = image.size
    rgb = colour_rgb(colour)
    if width is None:
        line = scaled_px(3, *size)
    elif width > max(size) / 4:
        raise PerturbationError(f"marker: a width of {width!r} px is over a quarter of the {size[0]}x{size[1]} image")
    else:
        line = int(round(width))
    rel = bool(relative)
    draw = ImageDraw.Draw(image)
    geometry: dict[str, Any]
    if shape == "box":
        x0, y0, x1, y1 = _coords(box, shape)
        a, b = _point(x0, y0, size, rel, "box"), _point(x1, y1, size, rel, "box")
        left, top, right, bottom = min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])
        if right - left < 2 or bottom - top < 2:
            raise PerturbationError(f"marker: box {box!r} is too small to draw")
        draw.rectangle([left, top, right, bottom], outline=rgb, width=line)
        geometry = {"box": [left, top, right, bottom]}
    elif shape == "circle":
        cx, cy, r = _coords(circle, shape)
        c = _point(cx, cy, size, rel, "circle centre")
        rad = r * max(size) if rel else r  # relative: a fraction of the long side
        if not rad <= 4 * max(size):  # also inf (a huge relative radius): nothing of it would be on the image
            raise PerturbationError(f"marker: circle radius {r!r} is far larger than the {size[0]}x{size[1]} image")
        rad = int(round(rad))
        if rad < 2:
            raise PerturbationError(f"marker: circle radius {r!r} is too small to draw")
        draw.ellipse([c[0] - rad, c[1] - rad, c[0] + rad, c[1] + rad], outline=rgb, width=line)
        geometry = {"circle": [c[0], c[1], rad]}
    else:
        ax, ay = _coords(arrow, shape)
        tip = _point(ax, ay, size, rel, "arrow tip")
        if tail is not None:
            tx, ty = _coords(tail, "arrow")
            start = _point(tx, ty, size, rel, "arrow tail")
        else:
            start = _default_tail(tip, size)
        length = math.hypot(tip[0] - start[0], tip[1] - start[1])
        if length < 4 * line:
            raise PerturbationError(f"marker: the arrow from {list(start)} to {list(tip)} is too short to draw")
        ux, uy = (tip[0] - start[0]) / length, (tip[1] - start[1]) / length
        head_len, head_half = 4 * line, 2.5 * line
        bx, by = tip[0] - ux * head_len, tip[1] - uy * head_len  # base of the head
        head = [list(tip), [int(round(bx - uy * head_half)), int(round(by + ux * head_half))],
                [int(round(bx + uy * head_half)), int(round(by - ux * head_half))]]
        draw.line([start, (int(round(bx)), int(round(by)))], fill=rgb, width=line)
        draw.polygon([tuple(p) for p in head], fill=rgb)
        geometry = {"arrow": {"tip": list(tip), "tail": list(start), "head": head}}
    out = replace_image(variant, index, image)
    details = {"shape": shape, **geometry, "colour": colour, "rgb": list(rgb), "width": line}
    if len(variant.images) > 1:
        details["image_index"] = index
    return out, details
