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

from probe_ui.images.canonical import CanonicalImage, ImageError, canonical_mode
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
