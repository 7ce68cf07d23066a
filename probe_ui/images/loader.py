"""The entry point: read a path or bytes within the size limits, sniff the format, dispatch to its loader."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import numpy as np

from probe_ui.images.canonical import ImageError
from probe_ui.images.common import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_PIXELS,
    MAX_BYTES_ENV,
    MAX_PIXELS_ENV,
    SUPPORTED_FORMATS,
    LoadedImage,
    LoadOptions,
)
from probe_ui.images.dicom import DICOM_SUFFIXES, load_dicom
from probe_ui.images.nifti import load_nifti, nifti_kind
from probe_ui.images.raster import PILLOW_FORMATS, PILLOW_MAGIC, load_raster


def load_image(
    source: str | os.PathLike[str] | bytes,
    *,
    name: str | None = None,
    window: tuple[float, float] | None = None,
    frame: int | None = None,
    axis: int | None = None,
    slice: int | None = None,
    max_pixels: int | None = None,
    max_bytes: int | None = None,
) -> LoadedImage:
    """Load PNG/JPEG/TIFF/BMP/DICOM/NIfTI from a path or bytes into canonical 8-bit pixels.

    ``window`` is (center, width) and replaces a DICOM file's own window (or the automatic range of other
    grayscale data). ``frame`` picks a DICOM frame, a TIFF page or a NIfTI volume of a 4-D series (default 0).
    ``axis`` (0 sagittal, 1 coronal, 2 axial, in RAS+ world space) and ``slice`` (default: the middle one) pick
    the plane of a NIfTI volume. ``max_pixels``/``max_bytes`` default to the environment variables
    ``PROBE_UI_MAX_PIXELS``/``PROBE_UI_MAX_BYTES``, else 50,000,000 pixels / 512 MiB; images over the pixel limit
    are refused from their header, before any pixels are decoded. Every failure is an :class:`ImageError`
    whose message names the file.
    """
    limit_px = env_limit(max_pixels, MAX_PIXELS_ENV, DEFAULT_MAX_PIXELS)
    limit_bytes = env_limit(max_bytes, MAX_BYTES_ENV, DEFAULT_MAX_BYTES)
    data, name = _read_source(source, name, limit_bytes)
    if window is not None:
        window = _check_window(window, name)
    if frame is not None and (isinstance(frame, bool) or not isinstance(frame, (int, np.integer)) or frame < 0):
        raise ImageError(f"{name}: frame must be a non-negative integer, got {frame!r}")
    if not data:
        raise ImageError(f"{name} is empty (0 bytes)")
    opts = LoadOptions(name, window, frame, axis, slice, limit_px, limit_bytes)

    kind = _sniff(data, name)
    if kind == "dicom":
        loaded = load_dicom(data, opts, forced=False)
    elif kind == "dicom?":
        loaded = load_dicom(data, opts, forced=True)
    elif kind == "nifti":
        loaded = load_nifti(data, opts)
    elif kind in PILLOW_FORMATS:
        loaded = load_raster(data, kind, opts)
    else:
        raise ImageError(
            f"{name} is not an image format this tool reads (supported: {SUPPORTED_FORMATS}); "
            f"its first bytes are {data[:8]!r}"
        )
    if kind != "nifti" and (axis is not None or slice is not None):
        note = "axis and slice apply to NIfTI volumes only; they were ignored"
        loaded = dataclasses.replace(loaded, warnings=loaded.warnings + (note,))
    return loaded


def load_image_file(path: str | os.PathLike[str], **options: Any) -> LoadedImage:
    """Load an image from a path (same options as :func:`load_image`)."""
    return load_image(Path(path), **options)


def image_from_bytes(name: str, data: bytes, **options: Any) -> LoadedImage:
    """Load an uploaded file's bytes; ``name`` (the upload's file name) is used for messages and for the
    extension-based fallbacks (DICOM without preamble)."""
    return load_image(data, name=name, **options)


def env_limit(value: int | None, env: str, default: int) -> int:
    """An explicit argument wins, then the environment variable, then the default."""
    if value is None:
        raw = os.environ.get(env, "").strip().replace("_", "").replace(",", "")
        if not raw:
            return default
        try:
            value = int(float(raw))
        except ValueError:
            raise ImageError(f"{env}={os.environ[env]!r} is not a number") from None
    if value <= 0:
        raise ImageError(f"size limits must be positive, got {value}")
    return int(value)


def _read_source(source: str | os.PathLike[str] | bytes, name: str | None, max_bytes: int) -> tuple[bytes, str]:
    """Bytes and a display name; a file over ``max_bytes`` is refused before it is read."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = name or "uploaded image"
        if len(data) > max_bytes:
            raise ImageError(_bytes_message(name, len(data), max_bytes))
        return data, name
    path = Path(source)
    name = name or path.name
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise ImageError(f"{name} is a folder, not an image file")
        if size > max_bytes:
            raise ImageError(_bytes_message(name, size, max_bytes))
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise ImageError(f"{name}: no such file ({path})") from None
    except PermissionError:
        raise ImageError(f"{name}: permission denied ({path})") from None
    except OSError as exc:
        raise ImageError(f"{name} could not be read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # grew while we looked
        raise ImageError(_bytes_message(name, len(data), max_bytes))
    return data, name


def _bytes_message(name: str, size: int, limit: int) -> str:
    return f"{name} is {size:,} bytes, over the limit of {limit:,} bytes (set {MAX_BYTES_ENV} to raise it)"


def _check_window(window: tuple[float, float], name: str) -> tuple[float, float]:
    try:
        center, width = (float(v) for v in window)
    except (TypeError, ValueError):
        raise ImageError(f"{name}: window must be (center, width), got {window!r}") from None
    if not (np.isfinite(center) and np.isfinite(width)) or width <= 0:
        raise ImageError(f"{name}: window width must be a positive number, got {window!r}")
    return center, width


def _sniff(data: bytes, name: str) -> str:
    """Magic bytes decide; the file name only lets a preamble-less DICOM through."""
    if len(data) >= 132 and data[128:132] == b"DICM":
        return "dicom"
    if data[:2] == b"\x1f\x8b" or nifti_kind(data):
        return "nifti"
    for magic, kind in PILLOW_MAGIC:
        if data.startswith(magic):
            return kind
    if name.lower().endswith(DICOM_SUFFIXES):
        return "dicom?"
    return "unknown"
