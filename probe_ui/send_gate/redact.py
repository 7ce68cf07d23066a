"""Fill the boxes of identifying text with black: :func:`redact` returns a new image, every other pixel unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from probe_ui.images import CanonicalImage
from probe_ui.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np

    from probe_ui.send_gate.detect import Finding
else:  # imported when an image is redacted, not with the batch runner
    np = lazy_module("numpy")

#: pixels added on each side of a box (the OCR's boxes hug the glyphs; a margin takes the anti-aliased edge too)
MARGIN = 3


def redact(image: CanonicalImage, findings: Iterable[Finding], margin: int = MARGIN) -> CanonicalImage:
    """``image`` with each finding's box, grown by ``margin`` px on every side, filled with 0 (black)."""
    findings = list(findings)
    if not findings:
        return image
    arr = np.array(image.pil())
    height, width = arr.shape[:2]
    for f in findings:
        x0, y0 = max(0, f.x - margin), max(0, f.y - margin)
        x1, y1 = min(width, f.x + f.w + margin), min(height, f.y + f.h + margin)
        if x1 > x0 and y1 > y0:
            arr[y0:y1, x0:x1] = 0
    from PIL import Image

    return CanonicalImage.from_pil(Image.fromarray(arr), copy=False)
