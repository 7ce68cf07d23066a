"""NIfTI (.nii, .nii.gz), through nibabel: one slice of a volume, in radiological RAS+ orientation."""

from __future__ import annotations

import builtins
import gzip
import io
import zlib
from typing import Any

import numpy as np
from PIL import Image

from probe_ui.images.canonical import CanonicalImage, ImageError
from probe_ui.images.common import (
    MAX_BYTES_ENV,
    SUPPORTED_FORMATS,
    LoadedImage,
    LoadOptions,
    jsonable,
    pixels_message,
    short_error,
)
from probe_ui.images.scaling import linear_to_8bit, window_bounds

_AXIS_NAMES = ("sagittal", "coronal", "axial")
_NIFTI_ORIENTATION = (
    "radiological: the volume is read in its closest RAS+ orientation; axial and coronal slices show the "
    "patient's right on the image left; axial has anterior up, coronal and sagittal have superior up, "
    "sagittal has anterior on the left"
)
NIFTI_PERCENTILES = (0.5, 99.5)


def nifti_kind(head: bytes) -> str | None:
    """'n+1'/'n+2' for a single-file NIfTI-1/-2 header, 'ni1'/'ni2' for a .hdr/.img pair, else None."""
    if len(head) >= 348 and head[344:348] in (b"n+1\x00", b"ni1\x00"):
        return head[344:347].decode()
    if len(head) >= 12 and head[4:8] in (b"n+2\x00", b"ni2\x00"):
        return head[4:7].decode()
    return None


def load_nifti(data: bytes, opts: LoadOptions) -> LoadedImage:
    """One 2-D slice (``opts.axis``/``opts.slice``) of one volume (``opts.frame``), windowed to 8 bits."""
    import nibabel as nib

    name = opts.name
    raw = _gunzip_nifti(data, name, opts.max_bytes) if data[:2] == b"\x1f\x8b" else data
    kind = nifti_kind(raw)
    if kind is None:
        raise ImageError(f"{name} is gzip-compressed but is not a NIfTI image (supported: {SUPPORTED_FORMATS})")
    if kind.startswith("ni"):
        raise ImageError(f"{name} is a NIfTI header of a .hdr/.img pair; load a single-file .nii or .nii.gz instead")
    klass = nib.Nifti1Image if kind == "n+1" else nib.Nifti2Image
    try:
        img = klass.from_bytes(raw)
        shape = tuple(int(n) for n in img.header.get_data_shape())
    except Exception as exc:
        raise ImageError(f"{name} is not a readable NIfTI file: {short_error(exc)}") from None

    dims = list(shape)
    while len(dims) > 4 and dims[-1] == 1:
        dims.pop()
    if len(dims) > 4 or len(dims) < 2:
        raise ImageError(f"{name}: NIfTI data of shape {list(shape)} is not supported (2-D, 3-D or 4-D only)")
    n_frames = dims[3] if len(dims) == 4 else 1
    frame = opts.frame or 0
    if frame >= n_frames:
        raise ImageError(
            f"{name}: frame {frame} is out of range; the file has {n_frames} volume(s) (0..{n_frames - 1})"
        )

    axis = 2 if opts.axis is None else opts.axis
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or axis not in (0, 1, 2):
        raise ImageError(f"{name}: axis must be 0 (sagittal), 1 (coronal) or 2 (axial), got {axis!r}")
    spatial = (dims + [1, 1])[:3]
    ornt, oriented = _orientation(img.affine)
    vox_axis = int(np.nonzero(ornt[:, 0] == axis)[0][0])
    n_slices = spatial[vox_axis]
    in_plane = [spatial[i] for i in range(3) if i != vox_axis]
    if min(spatial) < 1:
        raise ImageError(f"{name}: NIfTI data of shape {list(shape)} has no voxels")
    if in_plane[0] * in_plane[1] > opts.max_pixels:
        raise ImageError(
            pixels_message(name, in_plane[0], in_plane[1], in_plane[0] * in_plane[1], opts.max_pixels, " (one slice)")
        )
    slice_index = n_slices // 2 if opts.slice is None else opts.slice
    valid = isinstance(slice_index, (int, np.integer)) and not isinstance(slice_index, bool)
    if not valid or not 0 <= slice_index < n_slices:
        raise ImageError(
            f"{name}: slice {opts.slice!r} is out of range; "
            f"axis {axis} ({_AXIS_NAMES[axis]}) has {n_slices} slices (0..{n_slices - 1})"
        )
    slice_index = int(slice_index)

    flips = ornt[:, 1]
    index: list[Any] = [builtins.slice(None)] * 3
    index[vox_axis] = slice_index if flips[vox_axis] > 0 else n_slices - 1 - slice_index
    index += [frame] if len(dims) == 4 else []
    index += [0] * (len(shape) - len(dims))
    try:
        source = img.dataobj if len(shape) >= 3 else np.asanyarray(img.dataobj)[:, :, None]
        plane = np.asarray(source[tuple(index)])
        if plane.dtype.names or np.iscomplexobj(plane):
            raise ImageError(f"{name}: NIfTI voxel type {plane.dtype} (RGB or complex) is not supported")
        plane = plane.astype(np.float64)
    except ImageError:
        raise
    except Exception as exc:
        raise ImageError(f"{name} is not a readable NIfTI file (damaged or truncated?): {short_error(exc)}") from None

    rest = [i for i in range(3) if i != vox_axis]
    for k, i in enumerate(rest):  # make both in-plane axes run in the +world direction
        if flips[i] < 0:
            plane = np.flip(plane, k)
    if ornt[rest[0], 0] > ornt[rest[1], 0]:
        plane = plane.T
    display = plane[::-1, ::-1].T  # rows: higher world axis decreasing; columns: lower world axis decreasing

    info: dict[str, Any] = {
        "shape": list(shape),
        "axis": axis,
        "view": _AXIS_NAMES[axis],
        "slice": slice_index,
        "n_slices": n_slices,
        "voxel_axis": vox_axis,
        "axcodes": "".join(nib.aff2axcodes(img.affine)) if oriented else None,
        "orientation": _NIFTI_ORIENTATION if oriented else "voxel order (the affine gives no usable orientation)",
    }
    zooms = [float(z) for z in img.header.get_zooms()[:3]] + [1.0] * 3
    row_world, col_world = max(ornt[rest, 0]), min(ornt[rest, 0])
    world_zoom = {int(ornt[i, 0]): zooms[i] for i in range(3)}
    info["pixel_spacing_mm"] = [world_zoom[int(row_world)], world_zoom[int(col_world)]]
    if n_frames > 1 or len(dims) == 4:
        info.update(frame=frame, n_frames=n_frames)
    if opts.window is not None:
        lo, hi = window_bounds(*opts.window)
        info.update(window=list(opts.window), window_source="user")
    else:
        finite = display[np.isfinite(display)]
        if finite.size:
            lo, hi = (float(v) for v in np.percentile(finite, NIFTI_PERCENTILES))
            if hi <= lo:
                lo, hi = float(finite.min()), float(finite.max())
        else:
            lo = hi = 0.0
        info.update(window=[(lo + hi) / 2, hi - lo], window_source="percentile", percentiles=list(NIFTI_PERCENTILES))
    warns = () if oriented else ("the NIfTI affine gives no usable orientation; the slice is shown in voxel order",)
    out = Image.fromarray(np.ascontiguousarray(linear_to_8bit(display, lo, hi)), mode="L")
    return LoadedImage(image=CanonicalImage.from_pil(out), format="nifti", info=jsonable(info), warnings=warns)


#: decompressed bytes kept while the size is still being counted; a larger file is decompressed a second time
KEEP_WHILE_COUNTING = 64 * 1024 * 1024
_CHUNK = 1024 * 1024


def _gunzip_nifti(data: bytes, name: str, max_bytes: int) -> bytes:
    """Decompress a .nii.gz, never holding more than ``max_bytes`` and never more than it keeps.

    The stream is read in 1 MiB pieces and counted; reading stops as soon as the count passes ``max_bytes`` (a
    gzip bomb is refused having cost one piece of memory, not the cap: issue 24 measured +1.0 GB for a 0.9 MB
    bomb, +1.5 GB for four at once). Pieces are kept while the total is at most :data:`KEEP_WHILE_COUNTING`; a
    larger file, known by then to fit the cap, is decompressed once more straight into one buffer of its size."""
    kept: list[bytes] | None = []
    total = 0
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
            head = fh.read(540)
            if nifti_kind(head) is None:
                raise ImageError(f"{name} is gzip-compressed but is not a NIfTI image (supported: {SUPPORTED_FORMATS})")
            total = len(head)
            kept = [head]
            while piece := fh.read(_CHUNK):
                total += len(piece)
                if total > max_bytes:
                    raise ImageError(f"{name} decompresses to more than {max_bytes:,} bytes, over the limit (set "
                                     f"{MAX_BYTES_ENV} to raise it)")
                if kept is not None:
                    kept.append(piece)
                    if total > KEEP_WHILE_COUNTING:
                        kept = None  # count the rest without keeping it
        if kept is not None:
            return b"".join(kept)
        kept = None
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
            raw = fh.read(total)  # one buffer of the counted size, filled in place
    except ImageError:
        raise
    except (OSError, EOFError, zlib.error) as exc:
        raise ImageError(
            f"{name} is not a readable .nii.gz file (damaged or truncated gzip?): {short_error(exc)}"
        ) from None
    return raw


def _orientation(affine: np.ndarray) -> tuple[np.ndarray, bool]:
    """nibabel's voxel-to-RAS axis mapping, or identity when the affine is degenerate."""
    import nibabel as nib

    try:
        ornt = nib.io_orientation(affine)
    except Exception:
        ornt = np.full((3, 2), np.nan)
    if np.isnan(ornt).any() or sorted(ornt[:, 0].astype(int)) != [0, 1, 2]:
        return np.array([[0, 1], [1, 1], [2, 1]], dtype=float), False
    return ornt, True
