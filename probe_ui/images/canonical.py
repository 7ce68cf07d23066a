"""Canonical pixels: the only form in which an image leaves the process.

A :class:`CanonicalImage` is an 8-bit L or RGB PNG with no metadata, and its id is the sha256 of those bytes.
:class:`ImageError` is the one exception every loader raises.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

from PIL import Image


class ImageError(ValueError):
    """An image could not be loaded or is not acceptable; the message names the file and the problem."""


@dataclass(frozen=True, eq=False)
class CanonicalImage:
    """Pixels only: canonical PNG bytes and their sha256."""

    png: bytes
    id: str
    width: int
    height: int
    mode: str
    _pil: list = field(default_factory=list, repr=False, compare=False)  # lazy decode cache

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CanonicalImage) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    @classmethod
    def from_pil(cls, image: Image.Image) -> CanonicalImage:
        img = canonical_mode(image)
        buf = io.BytesIO()
        img.save(buf, format="PNG", optimize=False, compress_level=6)
        png = buf.getvalue()
        return cls(png=png, id=hashlib.sha256(png).hexdigest(), width=img.width, height=img.height, mode=img.mode)

    @classmethod
    def from_png(cls, png: bytes) -> CanonicalImage:
        """Rebuild from stored bytes (already canonical); the id is recomputed, never trusted."""
        with Image.open(io.BytesIO(png)) as im:
            width, height, mode = im.width, im.height, im.mode
        return cls(png=png, id=hashlib.sha256(png).hexdigest(), width=width, height=height, mode=mode)

    def pil(self) -> Image.Image:
        """A decoded copy (callers may modify it)."""
        if not self._pil:
            with Image.open(io.BytesIO(self.png)) as im:
                self._pil.append(im.copy())
        return self._pil[0].copy()


def canonical_mode(image: Image.Image) -> Image.Image:
    """8-bit grayscale stays L, colour becomes RGB, alpha is composited on black, metadata is dropped."""
    mode = image.mode
    if mode == "L":
        img = image.copy()
    elif mode == "1":
        img = image.convert("L")
    elif mode in ("I", "F") or mode.startswith("I;"):
        img = _scale_to_l(image)
    elif mode == "LA":
        la = image.convert("LA")
        img = Image.new("L", la.size, 0)
        img.paste(la.getchannel("L"), mask=la.getchannel("A"))
    else:
        rgba = image.convert("RGBA")
        img = Image.new("RGB", rgba.size, (0, 0, 0))
        img.paste(rgba.convert("RGB"), mask=rgba.getchannel("A"))
        if mode == "P" and _all_gray(img):
            img = img.convert("L")
    img.info.clear()
    return img


def _all_gray(img: Image.Image) -> bool:
    r, g, b = img.split()
    return r.tobytes() == g.tobytes() == b.tobytes()


def _scale_to_l(image: Image.Image) -> Image.Image:
    """Min-max scale a high-bit-depth grayscale image to 8 bits (only for formats with no window of their own)."""
    import numpy as np

    arr = np.asarray(image, dtype=np.float64)
    lo, hi = float(np.nanmin(arr)), float(np.nanmax(arr))
    scaled = np.zeros_like(arr) if hi <= lo else (arr - lo) / (hi - lo) * 255.0
    return Image.fromarray(np.clip(np.rint(scaled), 0, 255).astype("uint8"), mode="L")
