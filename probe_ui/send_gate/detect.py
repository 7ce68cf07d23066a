"""Find identifying text burned into an image: OCR (:mod:`probe_ui.send_gate.ocr`), then the rules of
:mod:`probe_ui.send_gate.patterns` on each line.

:func:`find_identifying_text` returns where the text is and what kind it is (:class:`Finding`), never the text.

How: the OCR reads the image's text lines; each line is classified alone, and so are neighbouring lines joined (the
OCR splits "ID:" from "5512093" and "Name:" from "Jane Doe" when the gap is wide): a joined line that is identifying
where neither part is alone is reported as the box around both.

Upscaling small images was measured and is off (:data:`UPSCALE_BELOW` = 0): on the burned-in set, 2x below 300 px
and 1.5x below 400 px caught no more text (98.5 % either way, one 20 px date lost on bright anatomy) and cost
50-100 ms more per image; the detector's input is capped at 512 px (:data:`probe_ui.send_gate.ocr.DET_MAX_SIDE`),
which caught as much as 640 and 768 for 10-15 % less time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from probe_ui.lazy import lazy_module
from probe_ui.send_gate.ocr import TextLine, read_lines
from probe_ui.send_gate.patterns import classify

if TYPE_CHECKING:
    import numpy as np

    from probe_ui.images import CanonicalImage
else:  # imported when an image is checked, not with the batch runner
    np = lazy_module("numpy")

#: images whose longer side is under this many px are scaled up by UPSCALE before the OCR (0: off, as measured)
UPSCALE_BELOW = 0
UPSCALE = 2.0


@dataclass(frozen=True)
class Finding:
    """Identifying text at ``x, y, w, h`` (pixels of the image given) of ``kind`` ("name", "date",
    "record number", "id"). Never the text itself."""

    x: int
    y: int
    w: int
    h: int
    kind: str


def _pixels(image: CanonicalImage) -> tuple[np.ndarray, float]:
    import cv2

    pil = image.pil()
    arr = np.asarray(pil.convert("RGB") if pil.mode not in ("L", "RGB") else pil)
    scale = 1.0
    if max(image.width, image.height) < UPSCALE_BELOW:
        scale = UPSCALE
        arr = cv2.resize(arr, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return arr, scale


def _neighbours(a: TextLine, b: TextLine) -> bool:
    """b continues a's line: about the same height and vertical centre, starting a little right of a's end."""
    h = max(a.h, b.h)
    same_row = abs((a.y + a.h / 2) - (b.y + b.h / 2)) < 0.5 * h and 0.5 < a.h / max(b.h, 1) < 2.0
    gap = b.x - (a.x + a.w)
    return same_row and -0.5 * h < gap < 2.5 * h


def _union(lines: list[TextLine]) -> tuple[int, int, int, int]:
    x0 = min(t.x for t in lines)
    y0 = min(t.y for t in lines)
    x1 = max(t.x + t.w for t in lines)
    y1 = max(t.y + t.h for t in lines)
    return x0, y0, x1 - x0, y1 - y0


def classify_lines(lines: list[TextLine]) -> list[tuple[tuple[int, int, int, int], str]]:
    """(box, kind) for each identifying line, or pair of neighbouring lines that is identifying only together."""
    found: list[tuple[tuple[int, int, int, int], str]] = []
    flagged: set[int] = set()
    for i, line in enumerate(lines):
        kind = classify(line.text)
        if kind:
            found.append(((line.x, line.y, line.w, line.h), kind))
            flagged.add(i)
    order = sorted(range(len(lines)), key=lambda i: (lines[i].y, lines[i].x))
    for i in order:
        a = lines[i]
        for j in order:
            b = lines[j]
            if i == j or (i in flagged and j in flagged) or not _neighbours(a, b):
                continue
            kind = classify(f"{a.text} {b.text}")
            if kind:
                found.append((_union([a, b]), kind))
    return found


def find_identifying_text(image: CanonicalImage) -> list[Finding]:
    """Where ``image`` carries identifying text, and of which kind (:class:`Finding`, never the text). Raises
    :class:`~probe_ui.send_gate.ocr.GateUnavailable` when the OCR extra is not installed."""
    pixels, scale = _pixels(image)
    out: list[Finding] = []
    for (x, y, w, h), kind in classify_lines(read_lines(pixels)):
        x0, y0 = max(0, int(x / scale)), max(0, int(y / scale))
        x1 = min(image.width, int(np.ceil((x + w) / scale)))
        y1 = min(image.height, int(np.ceil((y + h) / scale)))
        if x1 > x0 and y1 > y0:
            out.append(Finding(x0, y0, x1 - x0, y1 - y0, kind))
    return out
