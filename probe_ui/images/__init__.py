"""Images: loading every format a clinician brings, and the canonical pixels that leave the process.

Only pixels ever travel (to a model, into an export): a :class:`CanonicalImage` is an 8-bit L or RGB PNG with no
metadata, and its id is the sha256 of those bytes.

Import from here; the modules behind it are:

- ``canonical``: :class:`CanonicalImage`, :func:`canonical_mode` and :class:`ImageError`.
- ``loader``: :func:`load_image` (and its path/bytes wrappers): size limits, format sniffing, dispatch.
- ``raster``: PNG, JPEG, TIFF and BMP, through Pillow.
- ``dicom``: DICOM, through pydicom (windowing, frames, colour, PHI field names).
- ``nifti``: NIfTI ``.nii``/``.nii.gz``, through nibabel (slicing, orientation).
- ``common`` and ``scaling``: what the format modules share (:class:`LoadedImage`, options, limits, 8-bit maps).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from probe_ui.images.canonical import CanonicalImage, ImageError, canonical_mode

if TYPE_CHECKING:
    from probe_ui.images.common import (
        DEFAULT_MAX_BYTES,
        DEFAULT_MAX_PIXELS,
        MAX_BYTES_ENV,
        MAX_PIXELS_ENV,
        SUPPORTED_FORMATS,
        LoadedImage,
    )
    from probe_ui.images.dicom import PHI_KEYWORDS
    from probe_ui.images.loader import image_from_bytes, load_image, load_image_file
    from probe_ui.images.nifti import NIFTI_PERCENTILES

# the loaders (numpy, pydicom, nibabel) load on first use: a command that only lists perturbations or models, or
# passes canonical images along, need not pay for them
_LAZY = {name: "common" for name in ("DEFAULT_MAX_BYTES", "DEFAULT_MAX_PIXELS", "MAX_BYTES_ENV", "MAX_PIXELS_ENV",
                                     "SUPPORTED_FORMATS", "LoadedImage")} | {
    "PHI_KEYWORDS": "dicom", "image_from_bytes": "loader", "load_image": "loader", "load_image_file": "loader",
    "NIFTI_PERCENTILES": "nifti"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_PIXELS",
    "MAX_BYTES_ENV",
    "MAX_PIXELS_ENV",
    "NIFTI_PERCENTILES",
    "PHI_KEYWORDS",
    "SUPPORTED_FORMATS",
    "CanonicalImage",
    "ImageError",
    "LoadedImage",
    "canonical_mode",
    "image_from_bytes",
    "load_image",
    "load_image_file",
]
