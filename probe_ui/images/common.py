"""What the format loaders share: their result, their options, size limits and small helpers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from probe_ui.images.canonical import CanonicalImage

DEFAULT_MAX_PIXELS = 50_000_000
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
MAX_PIXELS_ENV = "PROBE_UI_MAX_PIXELS"
MAX_BYTES_ENV = "PROBE_UI_MAX_BYTES"

SUPPORTED_FORMATS = "PNG, JPEG, TIFF, BMP, DICOM (.dcm) and NIfTI (.nii, .nii.gz)"


@dataclass(frozen=True)
class LoadedImage:
    """What :func:`load_image` returns: canonical pixels, the source format, and how the pixels were derived.

    ``phi_fields`` holds only the *names* of patient-identifying header fields that were present; their values
    are never kept, so nothing here can leak them. ``info`` is JSON-able.
    """

    image: CanonicalImage
    format: str
    phi_fields: tuple[str, ...] = ()
    info: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadOptions:
    """:func:`~probe_ui.images.load_image`'s options, checked, with the size limits resolved."""

    name: str
    window: tuple[float, float] | None
    frame: int | None
    axis: int | None
    slice: int | None
    max_pixels: int
    max_bytes: int


def pixels_message(name: str, width: int | None, height: int | None, pixels: int, limit: int, what: str = "") -> str:
    """The refusal for an image over the pixel limit (it names the setting that raises it)."""
    dims = f"{width}x{height} = " if width is not None and height is not None else ""
    return f"{name}{what} is {dims}{pixels:,} pixels, over the limit of {limit:,} (set {MAX_PIXELS_ENV} to raise it)"


def jsonable(value: Any) -> Any:
    """Plain Python numbers so that ``info`` survives json.dumps."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def short_error(exc: BaseException) -> str:
    """An exception's text on one line, at most 300 characters, for an ImageError message."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."
