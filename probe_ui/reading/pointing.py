"""Pointing answers: "point to the finding" read as coordinates and scored against the item's region (issue 45).

A reply gives a point or a box; models write them in different conventions, so the convention is the model's, said
in its catalogue entry or endpoint (``options: {point_convention: ...}``), never guessed from the numbers. The
point prompt (:data:`probe_ui.prompts.POINT_INSTRUCTION`) asks for ``unit``, the default; a model trained to point
its own way answers in its own convention whatever the prompt says:

========== ================================================================ =====================================
convention what the numbers are                                             models
========== ================================================================ =====================================
pixels     x, y in the pixels of the image as sent                          Qwen2.5-VL (``point_2d``, ``bbox_2d``)
unit       x, y from 0 to 1 of the width and height (the default)            API models, as the prompt asks
percent    x, y from 0 to 100 (Molmo's ``<point x="61.5" y="40.6">``)        Molmo
1000       y, x from 0 to 1000 (Gemini's ``[y, x]`` and ``[y0, x0, y1, x1]``) Gemini
loc        PaliGemma's ``<locYYYY><locXXXX>`` tokens, 0-1023 in y, x order   PaliGemma
========== ================================================================ =====================================

What is read: the last point or box the reply gives: ``(x, y)``, ``[x, y]``, ``x=…, y=…``, ``{"point_2d": [x, y]}``,
``[x0, y0, x1, y1]``, ``{"bbox_2d": [...]}``, Molmo's ``<point …>`` and PaliGemma's ``<loc…>`` tokens. A reply with
no such numbers, or numbers outside the convention's range, is unreadable (invalid), never guessed. A point is right
when it falls inside one of the item's boxes; a box when its IoU with one of them is at least 0.5.

Coordinates are read in the image as sent (a model sees the resized image where its side limit shrank it) and
stored in the item image's own pixels, where the region is (:func:`read_answer`). A region follows the steps that
keep every pixel where it was (occlude, colour, noise, blur, ...); a step that moves pixels (rotate, flip, crop)
moves the finding away from its region, so point items are asked as they are or with those steps only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from probe_ui.errors import ProbeUIError

CONVENTIONS = ("pixels", "unit", "percent", "1000", "loc")
#: the convention the point prompt asks for, and how a model's reply is read unless its options say otherwise
DEFAULT_CONVENTION = "unit"
#: the model option that names a model's own convention
OPTION = "point_convention"
IOU_RIGHT = 0.5

_NUM = r"[-+]?\d+(?:\.\d+)?"
_PAIR = re.compile(rf"[\[(]\s*({_NUM})\s*,\s*({_NUM})\s*[\])]")
_QUAD = re.compile(rf"\[\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*\]")
_XY = re.compile(rf"(?i)\bx\s*[:=]\s*\"?({_NUM})\"?\s*[,;]?\s*(?:and\s+)?y\s*[:=]\s*\"?({_NUM})")
_MOLMO = re.compile(rf"(?i)<point\b[^>]*?\bx\s*=\s*\"({_NUM})\"[^>]*?\by\s*=\s*\"({_NUM})\"")
_LOC = re.compile(r"<loc(\d{4})>")


class PointError(ProbeUIError, ValueError):
    """An unknown coordinate convention."""


@dataclass(frozen=True)
class Pointed:
    """What a reply points at, in the image's pixels: a point (x0 == x1, y0 == y1) or a box."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def is_point(self) -> bool:
        return self.x0 == self.x1 and self.y0 == self.y1


def check_convention(name: str) -> str:
    if name not in CONVENTIONS:
        raise PointError(f"unknown point convention {name!r}; known: {', '.join(CONVENTIONS)}")
    return name


def _numbers(text: str) -> list[float] | None:
    """The numbers of the last point or box the reply gives (2 or 4), in the order written."""
    found: list[tuple[int, list[float]]] = []
    for pattern in (_QUAD, _PAIR, _XY, _MOLMO):
        found += [(m.start(), [float(g) for g in m.groups()]) for m in pattern.finditer(text)]
    for key in ("point_2d", "bbox_2d", "point", "box", "bbox"):
        for m in re.finditer(rf"\"{key}\"\s*:\s*(\[[^\]]*\])", text):
            try:
                vals = [float(v) for v in json.loads(m.group(1))]
            except (ValueError, TypeError):
                continue
            if len(vals) in (2, 4):
                found.append((m.start(), vals))
    if not found:
        return None
    return max(found, key=lambda f: (f[0], len(f[1])))[1]


def read_point(text: str, convention: str, width: int, height: int) -> Pointed | None:
    """What ``text`` points at, in pixels of a ``width`` x ``height`` image (module doc); None when unreadable."""
    check_convention(convention)
    vals: list[float]
    if convention == "loc":
        locs = [float(v) for v in _LOC.findall(text or "")]
        if len(locs) not in (2, 4):
            return None
        vals = [v for y, x in zip(locs[0::2], locs[1::2]) for v in (x, y)]  # y, x pairs in 1024 bins
        sx, sy = width / 1023.0, height / 1023.0
    else:
        nums = _numbers(text or "")
        if nums is None:
            return None
        if convention == "1000":  # Gemini: y before x
            nums = [nums[1], nums[0]] if len(nums) == 2 else [nums[1], nums[0], nums[3], nums[2]]
        vals = nums
        top = {"unit": 1.0, "percent": 100.0, "1000": 1000.0}.get(convention)
        sx, sy = (1.0, 1.0) if top is None else (width / top, height / top)
        if top is not None and any(v < 0 or v > top for v in vals):
            return None
    xs = [v * sx for v in vals[0::2]]
    ys = [v * sy for v in vals[1::2]]
    if any(x < 0 or x > width for x in xs) or any(y < 0 or y > height for y in ys):
        return None
    if len(xs) == 1:
        return Pointed(xs[0], ys[0], xs[0], ys[0])
    return Pointed(min(xs), min(ys), max(xs), max(ys))


def iou(a: Pointed, b: tuple[float, float, float, float]) -> float:
    """Intersection over union of a box and a region box (x0, y0, x1, y1)."""
    ix = max(0.0, min(a.x1, b[2]) - max(a.x0, b[0]))
    iy = max(0.0, min(a.y1, b[3]) - max(a.y0, b[1]))
    inter = ix * iy
    union = (a.x1 - a.x0) * (a.y1 - a.y0) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def is_right(pointed: Pointed, regions: list[list[float]]) -> bool:
    """A point inside one of the boxes, or a box with an IoU of at least 0.5 with one of them."""
    for b in regions:
        if pointed.is_point:
            if b[0] <= pointed.x0 <= b[2] and b[1] <= pointed.y0 <= b[3]:
                return True
        elif iou(pointed, (b[0], b[1], b[2], b[3])) >= IOU_RIGHT:
            return True
    return False


def convention_of(options: dict[str, Any] | None) -> str:
    """A model's pointing convention: its ``point_convention`` option, else :data:`DEFAULT_CONVENTION`."""
    return check_convention(str((options or {}).get(OPTION) or DEFAULT_CONVENTION))


def pointed_text(p: Pointed) -> str:
    """How a reading is stored (``parsed``): "(x, y)" or "[x0, y0, x1, y1]" in the item image's pixels, rounded."""
    if p.is_point:
        return f"({round(p.x0)}, {round(p.y0)})"
    return f"[{round(p.x0)}, {round(p.y0)}, {round(p.x1)}, {round(p.y1)}]"


def parse_pointed(text: str | None) -> Pointed | None:
    """A stored reading (:func:`pointed_text`) back as a :class:`Pointed`, for the detail view's drawing."""
    nums = [float(x) for x in re.findall(_NUM, text or "")]
    if len(nums) == 2:
        return Pointed(nums[0], nums[1], nums[0], nums[1])
    if len(nums) == 4:
        return Pointed(*nums)
    return None


def read_answer(text: str | None, convention: str, sent_size: tuple[int, int], size: tuple[int, int],
                regions: list[list[float]]) -> dict[str, Any]:
    """The stored reading of a point item's reply (the parse columns of :func:`probe_ui.reading.answers.cache_row`):
    ``parsed`` the point or box in the item image's pixels (``size``; read in the image as sent, ``sent_size``, and
    scaled back), method ``point`` or ``box``, ``correct`` inside the region (IoU >= 0.5 for a box); unreadable
    coordinates are invalid and never guessed. ``sure`` is true for any reading: coordinates are read exactly or
    not at all."""
    from probe_ui.reading.answers import parser_version
    from probe_ui.reading.refusals import is_refusal

    if not (sent_size[0] and sent_size[1] and size[0] and size[1]):  # no image was sent: nothing to point at
        return {"parsed": None, "method": "no_image", "invalid": True, "refusal": is_refusal(text or ""),
                "sure": True, "correct": None, "parse_version": parser_version()}
    got = read_point(text or "", convention, *sent_size)
    if got is None:
        return {"parsed": None, "method": "invalid", "invalid": True, "refusal": is_refusal(text or ""), "sure": True,
                "correct": False if regions else None, "parse_version": parser_version()}
    sx, sy = size[0] / sent_size[0], size[1] / sent_size[1]
    p = Pointed(got.x0 * sx, got.y0 * sy, got.x1 * sx, got.y1 * sy)
    return {"parsed": pointed_text(p), "method": "point" if p.is_point else "box", "invalid": False,
            "refusal": False, "sure": True, "correct": is_right(p, regions) if regions else None,
            "parse_version": parser_version()}
