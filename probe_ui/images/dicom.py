"""DICOM, through pydicom: modality and VOI LUTs/windowing, frames, colour and palettes, PHI field names."""

from __future__ import annotations

import io
import logging
import re
import warnings
from typing import Any

import numpy as np
from PIL import Image

from probe_ui.images.canonical import CanonicalImage, ImageError
from probe_ui.images.common import LoadedImage, LoadOptions, jsonable, pixels_message
from probe_ui.images.scaling import finite_minmax, linear_to_8bit

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

DICOM_SUFFIXES = (".dcm", ".dicom")

#: header fields read as numbers: a value that is not one is reported by the field's name, never shown
NUMERIC_FIELDS = ("Rows", "Columns", "NumberOfFrames", "BitsAllocated", "BitsStored", "HighBit",
                  "PixelRepresentation", "SamplesPerPixel", "RescaleSlope", "RescaleIntercept", "WindowCenter",
                  "WindowWidth")
PHOTOMETRIC = {"MONOCHROME1", "MONOCHROME2", "RGB", "PALETTE COLOR", "YBR_FULL", "YBR_FULL_422", "YBR_PARTIAL_422",
               "YBR_PARTIAL_420", "YBR_ICT", "YBR_RCT", "HSV", "ARGB", "CMYK", "XYB"}
VOI_FUNCTIONS = {"LINEAR", "LINEAR_EXACT", "SIGMOID"}

# pydicom logs (and warns) every non-conformant value it converts, quoting it: header values must not reach the
# terminal or the app's log, so its records stop here (the loader reports problems itself, by field name)
logging.getLogger("pydicom").addFilter(lambda record: False)


def load_dicom(data: bytes, opts: LoadOptions, *, forced: bool) -> LoadedImage:
    """One frame as 8-bit pixels; ``forced`` reads a file without the DICM preamble (and refuses non-images).

    Header values never appear in a message, a warning or the log: errors name the field (issue 14 F10)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydicom warns about every non-conformant value, quoting it
        return _load_dicom(data, opts, forced=forced)


def _load_dicom(data: bytes, opts: LoadOptions, *, forced: bool) -> LoadedImage:
    import pydicom

    name = opts.name
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pydicom warns about every non-conformant value
            ds = pydicom.dcmread(io.BytesIO(data), force=forced)
            ds.get("PixelData")  # parse up to the pixel data, so that garbage fails here
    except Exception as exc:  # pydicom raises many types on garbage
        raise ImageError(f"{name} is not a readable DICOM file: {_no_values(exc)}") from None
    pixel_keyword = next((k for k in ("PixelData", "FloatPixelData", "DoubleFloatPixelData") if k in ds), None)
    if forced and (pixel_keyword is None or "Rows" not in ds):
        raise ImageError(
            f"{name} is not a readable DICOM file: it has no DICOM preamble and does not parse as a DICOM image"
        )

    try:  # pydicom converts a header value when it is first read: a damaged one raises here
        phi = tuple(kw for kw in PHI_KEYWORDS if _present(ds, kw))
        warns: list[str] = []
        if phi:
            warns.append(
                f"file carried patient fields {', '.join(phi)}; they were not kept and never leave this process"
            )
        if str(ds.get("BurnedInAnnotation", "")).upper() == "YES":
            warns.append(
                "the file says text is burned into the pixels (BurnedInAnnotation YES); it may identify the patient"
            )

        if pixel_keyword is None:
            sop = getattr(ds.get("SOPClassUID"), "name", None) or "DICOM object"
            raise ImageError(f"{name} is a DICOM file without an image (no pixel data; it is a {sop})")
        if "Rows" not in ds or "Columns" not in ds:
            raise ImageError(f"{name} is not a readable DICOM image: Rows/Columns are missing")
        _check_fields(ds, name)
        rows, cols = int(ds.Rows), int(ds.Columns)
        if rows * cols > opts.max_pixels:
            raise ImageError(pixels_message(name, cols, rows, rows * cols, opts.max_pixels))
        n_frames = _int_or(ds.get("NumberOfFrames"), 1)
        frame = opts.frame or 0
        if frame >= n_frames:
            raise ImageError(
                f"{name}: frame {frame} is out of range; the file has {n_frames} frame(s) (0..{n_frames - 1})"
            )

        if "TransferSyntaxUID" not in ds.file_meta:  # read with force and no file meta: infer from the encoding
            _set_transfer_syntax(ds)
        photometric = str(ds.get("PhotometricInterpretation", "MONOCHROME2")).strip().upper()
        info: dict[str, Any] = {
            "modality": _code(ds.get("Modality")),
            "photometric": photometric,
            "transfer_syntax": _ts_name(ds),
            "rows": rows,
            "columns": cols,
            "frame": frame,
            "n_frames": n_frames,
        }
        spacing = _pixel_spacing(ds)
        if spacing:
            info["pixel_spacing_mm"] = spacing
        if _code(ds.get("BodyPartExamined")):
            info["body_part"] = _code(ds.BodyPartExamined)
    except ImageError:
        raise
    except Exception as exc:  # an unknown VR, a value that is not a number, ...
        raise ImageError(f"{name}: a DICOM header field could not be read: {_no_values(exc)}") from None

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = pydicom.pixels.pixel_array(ds, index=frame)  # raw=False: YBR_FULL(_422) arrives as RGB
    except Exception as exc:
        hint = (
            " (this compression may need an extra decoder: pylibjpeg with pylibjpeg-libjpeg/-openjpeg, or python-gdcm)"
            if _is_compressed(ds.file_meta.get("TransferSyntaxUID"))
            else ""
        )
        raise ImageError(
            f"{name}: the {info['transfer_syntax']} pixel data could not be decoded: {_no_values(exc)}{hint}"
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
        raise ImageError(
            f"{name}: the DICOM pixel values could not be mapped for display: {_no_values(exc)}"
        ) from None
    info.update(detail)
    if opts.window is not None and arr.ndim == 3:
        warns.append("window applies to grayscale images only; it was ignored for this colour image")

    mode = "RGB" if rgb.ndim == 3 else "L"
    image = CanonicalImage.from_pil(Image.fromarray(np.ascontiguousarray(rgb), mode=mode))
    return LoadedImage(image=image, format="dicom", phi_fields=phi, info=jsonable(info), warnings=tuple(warns))


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
            function = str(fds.VOILUTFunction).strip().upper()
            detail["voi_function"] = function if function in VOI_FUNCTIONS else "unknown (ignored)"
            if function not in VOI_FUNCTIONS:
                del fds.VOILUTFunction
        try:
            lo, hi = _voi_output_range(fds)
            out = linear_to_8bit(apply_voi_lut(values, fds), lo, hi)
        except (ValueError, NotImplementedError, IndexError):
            if window is not None:
                raise
            detail = {k: v for k, v in detail.items() if k not in ("window", "file_windows", "voi", "voi_function")}
            detail["file_window_unusable"] = True
    if out is None:
        lo, hi = finite_minmax(np.asarray(values))
        detail.update(window=[(lo + hi) / 2, hi - lo], window_source="minmax")
        out = linear_to_8bit(values, lo, hi)
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
        arr = linear_to_8bit(arr, 0, 2**bits - 1)
        detail["scaled_from_bits"] = bits
    return arr.astype(np.uint8), detail


def _dicom_palette(arr: np.ndarray, ds: Any) -> tuple[np.ndarray, dict[str, Any]]:
    from pydicom.pixels import apply_color_lut

    rgb = apply_color_lut(arr, ds)
    bits = int(ds.RedPaletteColorLookupTableDescriptor[2])
    top = 255 if rgb.dtype == np.uint8 and bits <= 8 else 2**bits - 1
    if rgb.dtype != np.uint8 or top != 255:
        rgb = linear_to_8bit(rgb, 0, top)
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


def _pixel_spacing(ds: Any) -> list[float] | None:
    """PixelSpacing as floats, or None when it is absent or malformed (it is only reported, never used)."""
    try:
        return _multi(ds.get("PixelSpacing")) or None
    except Exception:
        return None


def _is_compressed(uid: Any) -> bool:
    """Whether a transfer syntax UID names a compressed syntax (False for a UID that is not a transfer syntax)."""
    try:
        return bool(uid is not None and uid.is_compressed)
    except (AttributeError, ValueError):
        return False


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


def _check_fields(ds: Any, name: str) -> None:
    """Every header field read as a number must hold numbers, and the photometric interpretation a known code, in
    the top level and in the functional groups of an enhanced multi-frame object; an error names the field only."""
    groups = [ds]
    for seq in ("SharedFunctionalGroupsSequence", "PerFrameFunctionalGroupsSequence"):
        for group in ds.get(seq) or []:
            for macro in ("PixelValueTransformationSequence", "FrameVOILUTSequence"):
                groups.extend(group.get(macro) or [])
    for where in groups:
        for keyword in NUMERIC_FIELDS:
            if keyword not in where:
                continue
            try:
                value = where[keyword].value
                values = list(value) if isinstance(value, (list, tuple)) or type(value).__name__ == "MultiValue" \
                    else [value]
                for v in values:
                    if v not in (None, "") and not np.isfinite(float(v)):
                        raise ValueError
            except Exception:  # noqa: BLE001 - pydicom converts lazily and raises many types
                raise ImageError(f"{name}: the DICOM header field {keyword} cannot be read as a number") from None
    photometric = ds.get("PhotometricInterpretation")
    if photometric is not None and str(photometric).strip().upper() not in PHOTOMETRIC:
        raise ImageError(f"{name}: the DICOM header field PhotometricInterpretation holds an unknown value")


def _code(value: Any) -> str | None:
    """A coded header value (Modality, BodyPartExamined) when it looks like one, else None: never free text."""
    text = str(value or "").strip().upper()
    return text if re.fullmatch(r"[A-Z0-9_ ]{1,16}", text) else None


def _no_values(exc: BaseException) -> str:
    """A library's error text without anything it quotes (header values, bytes): what failed, not with what."""
    text = re.sub(r"b?'[^']*(?:'|$)|b?\"[^\"]*(?:\"|$)", "…", " ".join(str(exc).split()))  # before any cut
    text = text if text.strip("… ") else type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."

