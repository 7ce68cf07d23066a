"""Canonical pixels: the only form in which an image leaves the process.

A :class:`CanonicalImage` is an 8-bit L or RGB PNG with no metadata, and its id is the sha256 of those bytes.
:class:`ImageError` is the one exception every loader raises.
"""

from __future__ import annotations

import hashlib
import io
from base64 import b64encode

from PIL import Image

from probe_ui.errors import ProbeUIError


class ImageError(ProbeUIError, ValueError):
    """An image could not be loaded or is not acceptable; the message names the file and the problem."""


class CanonicalImage:
    """Pixels only: canonical PNG bytes and their sha256.

    Built from pixels, the PNG is encoded (and the id computed) only when first needed: a perturbation chain does
    pixel work only, and the encode is paid once, when the variant is hashed or stored. zlib level 1: the id must
    be stable, not the file small, and level 1 encodes about 2.5x faster than the default for ~25 % more bytes.
    Treat instances as immutable.
    """

    __slots__ = ("_png", "_id", "_pil", "_b64", "width", "height", "mode")

    def __init__(self, png: bytes | None = None, *, pil: Image.Image | None = None) -> None:
        if png is None and pil is None:
            raise ValueError("CanonicalImage needs PNG bytes or pixels")
        self._png = png
        self._id: str | None = None
        self._b64: str | None = None
        self._pil = pil
        if pil is not None:
            self.width, self.height, self.mode = pil.width, pil.height, pil.mode
        else:
            with Image.open(io.BytesIO(png)) as im:  # type: ignore[arg-type]
                self.width, self.height, self.mode = im.width, im.height, im.mode

    @classmethod
    def from_pil(cls, image: Image.Image, *, copy: bool = True) -> CanonicalImage:
        """``copy=False`` hands the image over (the caller keeps no reference): saves a full-size copy."""
        return cls(pil=canonical_mode(image, copy=copy))

    @classmethod
    def from_png(cls, png: bytes) -> CanonicalImage:
        """Rebuild from stored bytes (already canonical); the id is recomputed, never trusted."""
        return cls(png=png)

    @property
    def png(self) -> bytes:
        if self._png is None:
            buf = io.BytesIO()
            self._pil.save(buf, format="PNG", optimize=False, compress_level=1)  # type: ignore[union-attr]
            self._png = buf.getvalue()
        return self._png

    @property
    def base64(self) -> str:
        """The PNG bytes in base64, as the APIs take them: made once, since a batch sends one image many times."""
        if self._b64 is None:
            self._b64 = b64encode(self.png).decode("ascii")
        return self._b64

    @property
    def id(self) -> str:
        if self._id is None:
            self._id = hashlib.sha256(self.png).hexdigest()
        return self._id

    def pil(self) -> Image.Image:
        """A decoded copy (callers may modify it)."""
        if self._pil is None:
            with Image.open(io.BytesIO(self.png)) as im:
                self._pil = im.copy()
        return self._pil.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CanonicalImage) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"CanonicalImage({self.width}x{self.height} {self.mode}, id={self.id[:12]})"


def canonical_mode(image: Image.Image, copy: bool = True) -> Image.Image:
    """8-bit grayscale stays L, colour becomes RGB, alpha is composited on black, metadata is dropped."""
    mode = image.mode
    if mode in ("L", "RGB"):
        img = image.copy() if copy else image
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
