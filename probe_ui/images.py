"""Images: loading every format a clinician brings, and the canonical pixels that leave the process.

Only pixels ever travel (to a model, into an export): a :class:`CanonicalImage` is an 8-bit L or RGB PNG with no
metadata, and its id is the sha256 of those bytes.
"""

from __future__ import annotations

import builtins
import dataclasses
import gzip
import hashlib
import io
import os
import re
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
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


# ---------------------------------------------------------------------------------------------------------------
# Loading: every format a clinician brings, reduced to canonical 8-bit pixels plus a record of how.
# ---------------------------------------------------------------------------------------------------------------

DEFAULT_MAX_PIXELS = 50_000_000
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
MAX_PIXELS_ENV = "PROBE_UI_MAX_PIXELS"
MAX_BYTES_ENV = "PROBE_UI_MAX_BYTES"

SUPPORTED_FORMATS = "PNG, JPEG, TIFF, BMP, DICOM (.dcm) and NIfTI (.nii, .nii.gz)"

# DICOM attributes that identify (or help identify) a patient: only their *names* are ever reported.
PHI_KEYWORDS: tuple[str, ...] = (
    "PatientName",
    "PatientID",
    "IssuerOfPatientID",
    "OtherPatientIDs",
    "OtherPatientIDsSequence",
    "OtherPatientNames",
    "PatientBirthName",
    "PatientMotherBirthName",
    "PatientBirthDate",
    "PatientBirthTime",
    "PatientAddress",
    "PatientTelephoneNumbers",
    "PatientTelecomInformation",
    "MedicalRecordLocator",
    "ResponsiblePerson",
    "PatientInsurancePlanCodeSequence",
    "MilitaryRank",
    "BranchOfService",
    "EthnicGroup",
    "Occupation",
    "AdditionalPatientHistory",
    "PatientComments",
    "AccessionNumber",
    "StudyID",
    "StudyDate",
    "SeriesDate",
    "AcquisitionDate",
    "ContentDate",
    "AcquisitionDateTime",
    "InstitutionName",
    "InstitutionAddress",
    "InstitutionalDepartmentName",
    "StationName",
    "DeviceSerialNumber",
    "ReferringPhysicianName",
    "ReferringPhysicianAddress",
    "ReferringPhysicianTelephoneNumbers",
    "PerformingPhysicianName",
    "NameOfPhysiciansReadingStudy",
    "PhysiciansOfRecord",
    "RequestingPhysician",
    "OperatorsName",
)

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_PILLOW_MAGIC: tuple[tuple[bytes, str], ...] = (
    (_PNG_MAGIC, "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"II+\x00", "tiff"),  # BigTIFF
    (b"MM\x00+", "tiff"),
    (b"BM", "bmp"),
)
_PILLOW_FORMATS = {"png": ["PNG"], "jpeg": ["JPEG", "MPO"], "tiff": ["TIFF"], "bmp": ["BMP"]}
_DICOM_SUFFIXES = (".dcm", ".dicom")


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
    limit_px = _limit(max_pixels, MAX_PIXELS_ENV, DEFAULT_MAX_PIXELS)
    limit_bytes = _limit(max_bytes, MAX_BYTES_ENV, DEFAULT_MAX_BYTES)
    data, name = _read_source(source, name, limit_bytes)
    if window is not None:
        window = _check_window(window, name)
    if frame is not None and (isinstance(frame, bool) or not isinstance(frame, (int, np.integer)) or frame < 0):
        raise ImageError(f"{name}: frame must be a non-negative integer, got {frame!r}")
    if not data:
        raise ImageError(f"{name} is empty (0 bytes)")
    opts = _Options(name, window, frame, axis, slice, limit_px, limit_bytes)

    kind = _sniff(data, name)
    if kind == "dicom":
        loaded = _load_dicom(data, opts, forced=False)
    elif kind == "dicom?":
        loaded = _load_dicom(data, opts, forced=True)
    elif kind == "nifti":
        loaded = _load_nifti(data, opts)
    elif kind in _PILLOW_FORMATS:
        loaded = _load_pillow(data, kind, opts)
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


# --- plumbing --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    name: str
    window: tuple[float, float] | None
    frame: int | None
    axis: int | None
    slice: int | None
    max_pixels: int
    max_bytes: int


def _limit(value: int | None, env: str, default: int) -> int:
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


def _pixels_message(name: str, width: int | None, height: int | None, pixels: int, limit: int, what: str = "") -> str:
    dims = f"{width}x{height} = " if width is not None and height is not None else ""
    return f"{name}{what} is {dims}{pixels:,} pixels, over the limit of {limit:,} (set {MAX_PIXELS_ENV} to raise it)"


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
    if data[:2] == b"\x1f\x8b" or _nifti_kind(data):
        return "nifti"
    for magic, kind in _PILLOW_MAGIC:
        if data.startswith(magic):
            return kind
    if name.lower().endswith(_DICOM_SUFFIXES):
        return "dicom?"
    return "unknown"


def _nifti_kind(head: bytes) -> str | None:
    if len(head) >= 348 and head[344:348] in (b"n+1\x00", b"ni1\x00"):
        return head[344:347].decode()
    if len(head) >= 12 and head[4:8] in (b"n+2\x00", b"ni2\x00"):
        return head[4:7].decode()
    return None


def _linear_to_8bit(arr: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Map [lo, hi] linearly onto 0..255 (clipping outside, NaN to 0)."""
    arr = np.asarray(arr, dtype=np.float64)
    if hi <= lo:
        out = np.where(arr > lo, 255.0, 0.0)
    else:
        out = (arr - lo) * (255.0 / (hi - lo))
    out = np.nan_to_num(out, nan=0.0, posinf=255.0, neginf=0.0)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _window_bounds(center: float, width: float) -> tuple[float, float]:
    return center - width / 2.0, center + width / 2.0


def _finite_minmax(arr: np.ndarray) -> tuple[float, float]:
    finite = arr[np.isfinite(arr)] if np.issubdtype(arr.dtype, np.floating) else arr
    if finite.size == 0:
        return 0.0, 0.0
    return float(finite.min()), float(finite.max())


def _jsonable(value: Any) -> Any:
    """Plain Python numbers so that ``info`` survives json.dumps."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


# --- Pillow: PNG / JPEG / TIFF / BMP ---------------------------------------------------------------------------


def _load_pillow(data: bytes, kind: str, opts: _Options) -> LoadedImage:
    from PIL import ImageOps, UnidentifiedImageError

    name, label = opts.name, kind.upper()
    warns: list[str] = []
    # Pillow's own bomb check runs inside Image.open: its warning becomes an error here, its error an ImageError.
    # (catch_warnings is process-global; a race between threads could at worst leave this filter installed.)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data), formats=_PILLOW_FORMATS[kind])
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageError(_bomb_message(name, data, kind, exc, opts.max_pixels)) from None
        except UnidentifiedImageError:
            raise ImageError(f"{name} is not a readable {label} file: Pillow cannot parse its header") from None
        except Exception as exc:  # Pillow raises SyntaxError, OSError, ValueError, struct.error ...
            raise ImageError(f"{name} is not a readable {label} file: {exc}") from None

        n_frames = int(getattr(im, "n_frames", 1) or 1)
        frame = opts.frame or 0
        if frame >= n_frames:
            raise ImageError(
                f"{name}: frame {frame} is out of range; the file has {n_frames} frame(s) (0..{n_frames - 1})"
            )
        try:
            if frame:
                im.seek(frame)
            width, height = im.size
            if width * height > opts.max_pixels:
                raise ImageError(_pixels_message(name, width, height, width * height, opts.max_pixels))
            im.load()
            exif_orientation = int(im.getexif().get(0x0112, 1) or 1)
            im = ImageOps.exif_transpose(im)
        except ImageError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageError(_bomb_message(name, data, kind, exc, opts.max_pixels)) from None
        except Exception as exc:
            raise ImageError(f"{name} is not a readable {label} file (damaged or truncated?): {exc}") from None

    info: dict[str, Any] = {"mode": im.mode, "size": [im.width, im.height]}
    if n_frames > 1:
        info.update(frame=frame, n_frames=n_frames)
    if exif_orientation != 1:
        info["exif_orientation"] = exif_orientation
        info["exif_transposed"] = True

    gray_high = im.mode in ("I", "F") or im.mode.startswith("I;")
    if gray_high or (im.mode == "L" and opts.window is not None):
        arr = np.asarray(im)
        if opts.window is not None:
            lo, hi = _window_bounds(*opts.window)
            info.update(window=list(opts.window), window_source="user")
        else:
            lo, hi = _finite_minmax(arr)
            info.update(window=[(lo + hi) / 2, hi - lo], window_source="minmax")
        out = Image.fromarray(_linear_to_8bit(arr, lo, hi), mode="L")
    else:
        if opts.window is not None:
            warns.append("window applies to grayscale images only; it was ignored for this colour image")
        out = im
    return LoadedImage(image=CanonicalImage.from_pil(out), format=kind, info=_jsonable(info), warnings=tuple(warns))


def _bomb_message(name: str, data: bytes, kind: str, exc: Exception, limit: int) -> str:
    """Pillow refused the header as a decompression bomb; say how big it claims to be."""
    width = height = None
    if kind == "png" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        pixels = width * height
    else:
        match = re.search(r"\((\d+) pixels\)", str(exc))
        pixels = int(match.group(1)) if match else 0
    if pixels > limit:
        return _pixels_message(name, width, height, pixels, limit)
    return (
        f"{name} is {pixels:,} pixels, over Pillow's own decompression-bomb limit "
        f"(PIL.Image.MAX_IMAGE_PIXELS = {Image.MAX_IMAGE_PIXELS:,}); the limit here is {limit:,} "
        f"(set {MAX_PIXELS_ENV} to raise it)"
    )


# --- DICOM -----------------------------------------------------------------------------------------------------


def _load_dicom(data: bytes, opts: _Options, *, forced: bool) -> LoadedImage:
    import pydicom

    name = opts.name
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pydicom warns about every non-conformant value
            ds = pydicom.dcmread(io.BytesIO(data), force=forced)
            ds.get("PixelData")  # parse up to the pixel data, so that garbage fails here
    except Exception as exc:  # pydicom raises many types on garbage
        raise ImageError(f"{name} is not a readable DICOM file: {_short(exc)}") from None
    pixel_keyword = next((k for k in ("PixelData", "FloatPixelData", "DoubleFloatPixelData") if k in ds), None)
    if forced and (pixel_keyword is None or "Rows" not in ds):
        raise ImageError(
            f"{name} is not a readable DICOM file: it has no DICOM preamble and does not parse as a DICOM image"
        )

    phi = tuple(kw for kw in PHI_KEYWORDS if _present(ds, kw))
    warns: list[str] = []
    if phi:
        warns.append(f"file carried patient fields {', '.join(phi)}; they were not kept and never leave this process")
    if str(ds.get("BurnedInAnnotation", "")).upper() == "YES":
        warns.append(
            "the file says text is burned into the pixels (BurnedInAnnotation YES); it may identify the patient"
        )

    if pixel_keyword is None:
        sop = getattr(ds.get("SOPClassUID"), "name", None) or "DICOM object"
        raise ImageError(f"{name} is a DICOM file without an image (no pixel data; it is a {sop})")
    try:
        rows, cols = int(ds.Rows), int(ds.Columns)
    except (AttributeError, TypeError, ValueError):
        raise ImageError(f"{name} is not a readable DICOM image: Rows/Columns are missing") from None
    if rows * cols > opts.max_pixels:
        raise ImageError(_pixels_message(name, cols, rows, rows * cols, opts.max_pixels))
    n_frames = _int_or(ds.get("NumberOfFrames"), 1)
    frame = opts.frame or 0
    if frame >= n_frames:
        raise ImageError(f"{name}: frame {frame} is out of range; the file has {n_frames} frame(s) (0..{n_frames - 1})")

    if "TransferSyntaxUID" not in ds.file_meta:  # read with force and no file meta: infer from the encoding
        _set_transfer_syntax(ds)
    photometric = str(ds.get("PhotometricInterpretation", "MONOCHROME2")).upper()
    info: dict[str, Any] = {
        "modality": str(ds.get("Modality", "")) or None,
        "photometric": photometric,
        "transfer_syntax": _ts_name(ds),
        "rows": rows,
        "columns": cols,
        "frame": frame,
        "n_frames": n_frames,
    }
    if ds.get("PixelSpacing"):
        info["pixel_spacing_mm"] = [float(v) for v in ds.PixelSpacing]
    if ds.get("BodyPartExamined"):
        info["body_part"] = str(ds.BodyPartExamined)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = pydicom.pixels.pixel_array(ds, index=frame)  # raw=False: YBR_FULL(_422) arrives as RGB
    except Exception as exc:
        uid = ds.file_meta.get("TransferSyntaxUID")
        hint = (
            " (this compression may need an extra decoder: pylibjpeg with pylibjpeg-libjpeg/-openjpeg, or python-gdcm)"
            if uid is not None and getattr(uid, "is_compressed", False)
            else ""
        )
        raise ImageError(
            f"{name}: the {info['transfer_syntax']} pixel data could not be decoded: {_short(exc)}{hint}"
        ) from None
    if arr.ndim == 4 or (arr.ndim == 3 and int(ds.get("SamplesPerPixel", 1)) == 1):
        arr = arr[0]  # some decoders keep a frame axis even for one frame

    overlays = sorted(
        {f"{tag.group:04X}" for tag in ds.keys() if 0x6000 <= tag.group <= 0x601E and tag.element == 0x3000}
    )
    if overlays:
        info["overlays_not_drawn"] = overlays
        warns.append(f"the file has overlay plane(s) {', '.join(overlays)} (graphics or text); they were not drawn")

    try:
        if photometric == "PALETTE COLOR":
            rgb, detail = _dicom_palette(arr, ds)
        elif arr.ndim == 3:
            rgb, detail = _dicom_colour(arr, ds, photometric)
        else:
            rgb, detail = _dicom_gray(arr, ds, frame, photometric, opts.window)
            if detail.pop("file_window_unusable", False):
                warns.append("the file's own window is not usable (e.g. width < 1); min-max scaling was used")
    except ImageError:
        raise
    except Exception as exc:
        raise ImageError(f"{name}: the DICOM pixel values could not be mapped for display: {_short(exc)}") from None
    info.update(detail)
    if opts.window is not None and arr.ndim == 3:
        warns.append("window applies to grayscale images only; it was ignored for this colour image")

    mode = "RGB" if rgb.ndim == 3 else "L"
    image = CanonicalImage.from_pil(Image.fromarray(np.ascontiguousarray(rgb), mode=mode))
    return LoadedImage(image=image, format="dicom", phi_fields=phi, info=_jsonable(info), warnings=tuple(warns))


def _dicom_gray(
    arr: np.ndarray, ds: Any, frame: int, photometric: str, window: tuple[float, float] | None
) -> tuple[np.ndarray, dict[str, Any]]:
    """Modality LUT, then the VOI LUT/window exactly once (the file's, or the user's instead), then 8 bits."""
    from pydicom.pixels import apply_modality_lut, apply_voi_lut

    fds = _frame_pixel_module(ds, frame)
    detail: dict[str, Any] = {}
    values = apply_modality_lut(arr, fds)
    if fds.get("ModalityLUTSequence"):
        detail["modality_lut"] = "lut"
    elif "RescaleSlope" in fds or "RescaleIntercept" in fds:
        detail["rescale"] = [float(fds.get("RescaleSlope", 1.0)), float(fds.get("RescaleIntercept", 0.0))]

    if window is not None:
        for keyword in ("VOILUTSequence", "WindowCenter", "WindowWidth", "VOILUTFunction"):
            if keyword in fds:
                del fds[keyword]
        fds.WindowCenter, fds.WindowWidth = window
        detail.update(window=list(window), window_source="user")
    elif fds.get("VOILUTSequence"):
        detail.update(window_source="file", voi="lut")
        if not np.issubdtype(values.dtype, np.integer):  # LUTs are indexed by stored integers
            values = np.rint(values).astype(np.int64)
    elif "WindowCenter" in fds and "WindowWidth" in fds:
        centers, widths = _multi(fds.WindowCenter), _multi(fds.WindowWidth)
        detail.update(window=[centers[0], widths[0]], window_source="file")
        if len(centers) > 1:
            detail["file_windows"] = [list(pair) for pair in zip(centers, widths, strict=False)]
    else:
        fds = None

    out = None
    if fds is not None:
        if fds.get("VOILUTFunction"):
            detail["voi_function"] = str(fds.VOILUTFunction)
        try:
            lo, hi = _voi_output_range(fds)
            out = _linear_to_8bit(apply_voi_lut(values, fds), lo, hi)
        except (ValueError, NotImplementedError, IndexError):
            if window is not None:
                raise
            detail = {k: v for k, v in detail.items() if k not in ("window", "file_windows", "voi", "voi_function")}
            detail["file_window_unusable"] = True
    if out is None:
        lo, hi = _finite_minmax(np.asarray(values))
        detail.update(window=[(lo + hi) / 2, hi - lo], window_source="minmax")
        out = _linear_to_8bit(values, lo, hi)
    if photometric == "MONOCHROME1":
        out = 255 - out
        detail["inverted"] = True
    return out, detail


def _voi_output_range(fds: Any) -> tuple[float, float]:
    """The range apply_voi_lut maps onto, found by asking pydicom itself (so the two never disagree)."""
    from pydicom.pixels import apply_voi, apply_windowing

    if fds.get("VOILUTSequence"):
        item = fds.VOILUTSequence[0]
        entries, first = int(item.LUTDescriptor[0]) or 2**16, int(item.LUTDescriptor[1])
        if first >= 2**15:  # the descriptor's first value is US or SS; treat it as signed
            first -= 2**16
        lut = apply_voi(np.arange(first, first + entries, dtype=np.int64), fds)
        return float(lut.min()), float(lut.max())
    with np.errstate(over="ignore"):
        ends = apply_windowing(np.array([-1e300, 1e300]), fds)
    return float(ends[0]), float(ends[1])


def _frame_pixel_module(ds: Any, frame: int) -> Any:
    """A small dataset with the pixel-value transforms that apply to one frame.

    Classic DICOM keeps rescale and window at the top level; enhanced multi-frame objects keep them in the
    shared or per-frame functional groups. pydicom's LUT functions read the top level, so we flatten.
    """
    from pydicom.dataset import Dataset

    out = Dataset()
    for keyword in (
        "RescaleSlope",
        "RescaleIntercept",
        "RescaleType",
        "ModalityLUTSequence",
        "WindowCenter",
        "WindowWidth",
        "VOILUTFunction",
        "VOILUTSequence",
    ):
        if keyword in ds:
            setattr(out, keyword, ds[keyword].value)
    out.PhotometricInterpretation = str(ds.get("PhotometricInterpretation", "MONOCHROME2"))
    out.BitsAllocated = _int_or(ds.get("BitsAllocated"), 16)
    out.BitsStored = _int_or(ds.get("BitsStored"), out.BitsAllocated)
    out.PixelRepresentation = _int_or(ds.get("PixelRepresentation"), 0)
    groups = []
    for seq in ("SharedFunctionalGroupsSequence", "PerFrameFunctionalGroupsSequence"):
        items = ds.get(seq)
        if items:
            index = 0 if seq.startswith("Shared") else frame
            if index < len(items):
                groups.append(items[index])
    for group in groups:
        for macro in ("PixelValueTransformationSequence", "FrameVOILUTSequence"):
            for item in group.get(macro) or []:
                for keyword in (
                    "RescaleSlope",
                    "RescaleIntercept",
                    "RescaleType",
                    "WindowCenter",
                    "WindowWidth",
                    "VOILUTFunction",
                ):
                    if keyword in item:
                        setattr(out, keyword, item[keyword].value)
    if not (_multi(out.get("WindowWidth")) and _multi(out.get("WindowCenter"))):  # absent or empty: no window
        for keyword in ("WindowCenter", "WindowWidth"):
            if keyword in out:
                del out[keyword]
    return out


def _dicom_colour(arr: np.ndarray, ds: Any, photometric: str) -> tuple[np.ndarray, dict[str, Any]]:
    """RGB stays RGB. pydicom's pixel_array (raw=False) already converts YBR_FULL/YBR_FULL_422 to RGB and the
    JPEG/JPEG 2000 decoders undo YBR_ICT/RCT; converting again would shift every colour, so we do not."""
    detail: dict[str, Any] = {}
    if photometric != "RGB":
        detail["colour"] = f"{photometric} converted to RGB by the decoder"
    bits = int(ds.get("BitsStored", 8) or 8)
    if arr.dtype != np.uint8 or bits != 8:
        arr = _linear_to_8bit(arr, 0, 2**bits - 1)
        detail["scaled_from_bits"] = bits
    return arr.astype(np.uint8), detail


def _dicom_palette(arr: np.ndarray, ds: Any) -> tuple[np.ndarray, dict[str, Any]]:
    from pydicom.pixels import apply_color_lut

    rgb = apply_color_lut(arr, ds)
    bits = int(ds.RedPaletteColorLookupTableDescriptor[2])
    top = 255 if rgb.dtype == np.uint8 and bits <= 8 else 2**bits - 1
    if rgb.dtype != np.uint8 or top != 255:
        rgb = _linear_to_8bit(rgb, 0, top)
    return rgb, {"colour": "PALETTE COLOR expanded to RGB"}


def _present(ds: Any, keyword: str) -> bool:
    try:
        element = ds.get(keyword)
    except Exception:  # a malformed value still counts as present
        return True
    if element is None:
        return False
    if hasattr(element, "__len__"):
        return len(element) > 0 and str(element).strip() not in ("",)
    return True


def _multi(value: Any) -> list[float]:
    """DICOM multi-valued numbers (MultiValue, list or single) as floats."""
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)) or type(value).__name__ == "MultiValue":
        return [float(v) for v in value]
    return [float(value)]


def _int_or(value: Any, default: int) -> int:
    try:
        return int(value) if value not in (None, "") else default
    except (TypeError, ValueError):
        return default


def _set_transfer_syntax(ds: Any) -> None:
    from pydicom.uid import ExplicitVRBigEndian, ExplicitVRLittleEndian, ImplicitVRLittleEndian

    implicit, little = ds.original_encoding
    ds.file_meta.TransferSyntaxUID = (
        ImplicitVRLittleEndian if implicit else ExplicitVRLittleEndian if little else ExplicitVRBigEndian
    )


def _ts_name(ds: Any) -> str:
    uid = ds.file_meta.get("TransferSyntaxUID")
    return getattr(uid, "name", None) or str(uid or "unknown")


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


# --- NIfTI -----------------------------------------------------------------------------------------------------

_AXIS_NAMES = ("sagittal", "coronal", "axial")
_NIFTI_ORIENTATION = (
    "radiological: the volume is read in its closest RAS+ orientation; axial and coronal slices show the "
    "patient's right on the image left; axial has anterior up, coronal and sagittal have superior up, "
    "sagittal has anterior on the left"
)
NIFTI_PERCENTILES = (0.5, 99.5)


def _load_nifti(data: bytes, opts: _Options) -> LoadedImage:
    import nibabel as nib

    name = opts.name
    raw = _gunzip_nifti(data, name, opts.max_bytes) if data[:2] == b"\x1f\x8b" else data
    kind = _nifti_kind(raw)
    if kind is None:
        raise ImageError(f"{name} is gzip-compressed but is not a NIfTI image (supported: {SUPPORTED_FORMATS})")
    if kind.startswith("ni"):
        raise ImageError(f"{name} is a NIfTI header of a .hdr/.img pair; load a single-file .nii or .nii.gz instead")
    klass = nib.Nifti1Image if kind == "n+1" else nib.Nifti2Image
    try:
        img = klass.from_bytes(raw)
        shape = tuple(int(n) for n in img.header.get_data_shape())
    except Exception as exc:
        raise ImageError(f"{name} is not a readable NIfTI file: {_short(exc)}") from None

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
    if axis not in (0, 1, 2):
        raise ImageError(f"{name}: axis must be 0 (sagittal), 1 (coronal) or 2 (axial), got {axis!r}")
    spatial = (dims + [1, 1])[:3]
    ornt, oriented = _orientation(img.affine)
    vox_axis = int(np.nonzero(ornt[:, 0] == axis)[0][0])
    n_slices = spatial[vox_axis]
    in_plane = [spatial[i] for i in range(3) if i != vox_axis]
    if in_plane[0] * in_plane[1] > opts.max_pixels:
        raise ImageError(
            _pixels_message(name, in_plane[0], in_plane[1], in_plane[0] * in_plane[1], opts.max_pixels, " (one slice)")
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
        raise ImageError(f"{name} is not a readable NIfTI file (damaged or truncated?): {_short(exc)}") from None

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
        lo, hi = _window_bounds(*opts.window)
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
    out = Image.fromarray(np.ascontiguousarray(_linear_to_8bit(display, lo, hi)), mode="L")
    return LoadedImage(image=CanonicalImage.from_pil(out), format="nifti", info=_jsonable(info), warnings=warns)


def _gunzip_nifti(data: bytes, name: str, max_bytes: int) -> bytes:
    """Decompress, peeking at the header first and never holding more than ``max_bytes``."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
            head = fh.read(540)
            if _nifti_kind(head) is None:
                raise ImageError(f"{name} is gzip-compressed but is not a NIfTI image (supported: {SUPPORTED_FORMATS})")
            rest = fh.read(max_bytes + 1 - len(head))
    except ImageError:
        raise
    except (OSError, EOFError, zlib.error) as exc:
        raise ImageError(f"{name} is not a readable .nii.gz file (damaged or truncated gzip?): {_short(exc)}") from None
    raw = head + rest
    if len(raw) > max_bytes:
        raise ImageError(
            f"{name} decompresses to more than {max_bytes:,} bytes, over the limit (set {MAX_BYTES_ENV} to raise it)"
        )
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
