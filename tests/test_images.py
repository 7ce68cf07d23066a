"""Image loading: formats, DICOM windowing/colour/frames/PHI, NIfTI slicing and orientation, limits, errors.

Everything is offline: real DICOM test files are copied into tests/data/ (from pydicom's wheel, see
tests/data/README.md); other inputs are synthesised here.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import logging
import struct
import sys
import zlib
from pathlib import Path

import nibabel as nib
import numpy as np
import pydicom
import pytest
from helpers import require_module
from PIL import Image
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.pixels import apply_modality_lut, apply_voi_lut
from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage, generate_uid

from probe_ui.images import (
    DEFAULT_MAX_PIXELS,
    CanonicalImage,
    ImageError,
    LoadedImage,
    image_from_bytes,
    load_image,
    load_image_file,
)

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parent.parent
PLANTED_NAME = "Plantedsurname^Secretgiven"
PLANTED_ID = "PLANTED-ID-98765"
PLANTED_INSTITUTION = "Planted Secret Hospital"


def pixels(loaded: LoadedImage) -> np.ndarray:
    return np.asarray(loaded.image.pil())


def png_bytes(arr: np.ndarray, mode: str | None = None, **save: object) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(arr, mode=mode).save(buf, format="PNG", **save)
    return buf.getvalue()


def write_dicom(
    path: Path,
    frames: np.ndarray,
    *,
    photometric: str = "MONOCHROME2",
    bits_stored: int = 12,
    phi: bool = True,
    preamble: bool = True,
    **elements: object,
) -> Path:
    """A minimal Secondary Capture file; ``frames`` is (rows, cols) or (n, rows, cols) uint16."""
    ds = Dataset()
    ds.file_meta = FileMetaDataset()
    ds.file_meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds.file_meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    ds.file_meta.MediaStorageSOPInstanceUID = generate_uid()
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = ds.file_meta.MediaStorageSOPInstanceUID
    ds.Modality = "OT"
    if phi:
        ds.PatientName = PLANTED_NAME
        ds.PatientID = PLANTED_ID
        ds.PatientBirthDate = "19010203"
        ds.InstitutionName = PLANTED_INSTITUTION
        ds.ReferringPhysicianName = ""  # present but empty: must not be reported
    ds.set_pixel_data(frames.astype(np.uint16), photometric, bits_stored)
    for keyword, value in elements.items():
        setattr(ds, keyword, value)
    ds.save_as(path, enforce_file_format=True)
    if not preamble:
        path.write_bytes(path.read_bytes()[132:])
    return path


def write_nifti(path: Path, data: np.ndarray, affine: np.ndarray | None = None) -> Path:
    nib.save(nib.Nifti1Image(data, np.eye(4) if affine is None else affine), str(path))
    return path


def huge_png_header(width: int, height: int) -> bytes:
    """A PNG whose IHDR claims ``width`` x ``height`` with a tiny IDAT: cheap to make, huge if decoded."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00" * (width + 1) * 4)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# --- formats -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt,kind", [("PNG", "png"), ("JPEG", "jpeg"), ("TIFF", "tiff"), ("BMP", "bmp")])
def test_pillow_formats_are_detected(tmp_path: Path, fmt: str, kind: str) -> None:
    arr = np.tile(np.arange(64, dtype=np.uint8) * 4, (32, 1))
    path = tmp_path / f"img.{kind}"
    Image.fromarray(arr).convert("RGB").save(path, format=fmt)
    loaded = load_image(path)
    assert loaded.format == kind
    assert (loaded.image.width, loaded.image.height) == (64, 32)
    assert loaded.image.mode == "RGB"
    assert loaded.phi_fields == ()
    json.dumps(loaded.info)


def test_detection_uses_magic_bytes_not_extension(tmp_path: Path) -> None:
    path = tmp_path / "really_a_png.jpg"
    path.write_bytes(png_bytes(np.zeros((4, 4), np.uint8)))
    assert load_image(path).format == "png"
    assert load_image(DATA / "CT_small.dcm").format == "dicom"
    renamed = tmp_path / "scan.bin"
    renamed.write_bytes((DATA / "CT_small.dcm").read_bytes())
    assert load_image(renamed).format == "dicom"  # DICM at offset 128 decides


def test_bytes_and_helpers_agree(tmp_path: Path) -> None:
    data = (DATA / "MR_small.dcm").read_bytes()
    a = load_image(data, name="upload.dcm")
    b = image_from_bytes("upload.dcm", data)
    c = load_image_file(DATA / "MR_small.dcm")
    assert a.image.id == b.image.id == c.image.id


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello, this is not an image")
    with pytest.raises(ImageError, match=r"notes\.txt is not an image format.*PNG, JPEG, TIFF, BMP, DICOM"):
        load_image(path)
    gif = io.BytesIO()
    Image.new("L", (4, 4)).save(gif, format="GIF")
    with pytest.raises(ImageError, match="not an image format"):
        load_image(gif.getvalue(), name="anim.gif")


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match=r"nope\.png: no such file"):
        load_image(tmp_path / "nope.png")


# --- broken files ------------------------------------------------------------------------------------------------


def test_corrupt_png_is_refused(tmp_path: Path) -> None:
    good = png_bytes(np.random.default_rng(0).integers(0, 255, (64, 64), dtype=np.uint8))
    idat = good.index(b"IDAT")
    corrupt = good[: idat + 8] + bytes(b ^ 0xFF for b in good[idat + 8 : idat + 40]) + good[idat + 40 :]
    for name, data in (("corrupt.png", corrupt), ("truncated.png", good[: len(good) // 2])):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(ImageError, match=rf"{name} is not a readable PNG file"):
            load_image(path)


def test_truncated_jpeg_is_refused(tmp_path: Path) -> None:
    buf = io.BytesIO()
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (128, 128, 3), dtype=np.uint8)).save(buf, "JPEG")
    path = tmp_path / "cut.jpg"
    path.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(ImageError, match=r"cut\.jpg is not a readable JPEG file"):
        load_image(path)


def test_text_file_named_dcm_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "x.dcm"
    path.write_text("Patient notes: this is plain text, not DICOM.\n" * 20)
    with pytest.raises(ImageError, match=r"^x\.dcm is not a readable DICOM file: "):
        load_image(path)


def test_dicom_without_image_is_refused(tmp_path: Path) -> None:
    ds = pydicom.dcmread(DATA / "CT_small.dcm")
    del ds.PixelData
    path = tmp_path / "noimage.dcm"
    ds.save_as(path)
    with pytest.raises(ImageError, match=r"noimage\.dcm is a DICOM file without an image"):
        load_image(path)


def test_dicom_without_preamble_loads_only_with_dcm_extension(tmp_path: Path) -> None:
    frames = np.arange(16 * 16, dtype=np.uint16).reshape(16, 16)
    path = write_dicom(tmp_path / "bare.dcm", frames, preamble=False)
    assert path.read_bytes()[128:132] != b"DICM"
    assert load_image(path).format == "dicom"
    other = tmp_path / "bare.bin"
    other.write_bytes(path.read_bytes())
    with pytest.raises(ImageError, match="not an image format"):
        load_image(other)


# --- size limits -------------------------------------------------------------------------------------------------


def test_huge_png_is_refused_from_its_header_without_decoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import ImageFile

    def no_decoding(self: ImageFile.ImageFile) -> None:
        raise AssertionError("the pixels were decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", no_decoding)
    path = tmp_path / "scan.png"
    path.write_bytes(huge_png_header(40000, 40000))
    assert path.stat().st_size < 10_000
    with pytest.raises(ImageError) as err:
        load_image(path)
    message = str(err.value)
    assert "scan.png is 40000x40000 = 1,600,000,000 pixels" in message
    assert f"over the limit of {DEFAULT_MAX_PIXELS:,}" in message
    assert "PROBE_UI_MAX_PIXELS" in message


def test_pixel_limit_from_argument_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "small.png"
    path.write_bytes(png_bytes(np.zeros((20, 30), np.uint8)))
    with pytest.raises(ImageError, match=r"small\.png is 30x20 = 600 pixels, over the limit of 100"):
        load_image(path, max_pixels=100)
    monkeypatch.setenv("PROBE_UI_MAX_PIXELS", "500")
    with pytest.raises(ImageError, match="over the limit of 500"):
        load_image(path)
    assert load_image(path, max_pixels=600).image.width == 30  # the argument wins over the environment


def test_pillow_bomb_limit_becomes_an_image_error(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    path.write_bytes(huge_png_header(10000, 10000))  # over Pillow's MAX_IMAGE_PIXELS warning threshold
    with pytest.raises(ImageError, match="pixels"):
        load_image(path, max_pixels=10**12)


def test_huge_dicom_is_refused_from_its_header(tmp_path: Path) -> None:
    ds = pydicom.dcmread(DATA / "CT_small.dcm")
    ds.Rows = ds.Columns = 40000  # the pixel data stays 128x128: decoding would fail, the header check must come first
    path = tmp_path / "huge.dcm"
    ds.save_as(path)
    with pytest.raises(ImageError, match=r"huge\.dcm is 40000x40000 = 1,600,000,000 pixels, over the limit"):
        load_image(path)


def test_byte_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (DATA / "MR_small.dcm").read_bytes()
    with pytest.raises(ImageError, match=rf"upload\.dcm is {len(data):,} bytes, over the limit of 1,000 bytes"):
        load_image(data, name="upload.dcm", max_bytes=1000)
    monkeypatch.setenv("PROBE_UI_MAX_BYTES", "2000")
    with pytest.raises(ImageError, match="PROBE_UI_MAX_BYTES"):
        load_image(DATA / "MR_small.dcm")


def test_gzip_bomb_nifti_is_refused(tmp_path: Path) -> None:
    path = write_nifti(tmp_path / "big.nii.gz", np.zeros((64, 64, 64), np.float32))
    assert path.stat().st_size < 20_000
    with pytest.raises(ImageError, match="decompresses to more than 100,000 bytes"):
        load_image(path, max_bytes=100_000)


# --- DICOM -------------------------------------------------------------------------------------------------------


def test_dicom_file_window_is_applied_exactly_once() -> None:
    ds = pydicom.dcmread(DATA / "MR_small.dcm")
    assert (float(ds.WindowCenter), float(ds.WindowWidth)) == (600.0, 1600.0)
    loaded = load_image(DATA / "MR_small.dcm")
    assert loaded.info["window"] == [600.0, 1600.0]
    assert loaded.info["window_source"] == "file"

    values = apply_modality_lut(ds.pixel_array, ds)
    windowed = apply_voi_lut(values, ds)  # pydicom's output spans the signed 16-bit range here
    lo, hi = -(2 ** (ds.BitsStored - 1)), 2 ** (ds.BitsStored - 1) - 1
    expected = np.rint((windowed - lo) / (hi - lo) * 255)
    got = pixels(loaded).astype(int)
    assert np.abs(got - expected).max() <= 1

    # the DICOM LINEAR formula, written out
    c, w = 600 - 0.5, 1600 - 1
    formula = np.clip(((values - c) / w + 0.5) * 255, 0, 255)
    assert np.abs(got - formula).max() <= 1.01
    # windowing a second time would clip almost everything to black or white
    twice = apply_voi_lut(windowed, ds)
    assert ((twice == twice.min()) | (twice == twice.max())).mean() > 0.9
    assert ((got == 0) | (got == 255)).mean() < 0.1


def test_user_window_replaces_the_file_window() -> None:
    default = load_image(DATA / "CT_small.dcm")
    assert default.info["window_source"] == "minmax"  # CT_small has no window of its own
    soft = load_image(DATA / "CT_small.dcm", window=(40, 400))
    assert soft.info["window"] == [40.0, 400.0] and soft.info["window_source"] == "user"
    ds = pydicom.dcmread(DATA / "CT_small.dcm")
    hu = apply_modality_lut(ds.pixel_array, ds)
    got = pixels(soft)
    assert (got[hu <= -160] == 0).all()
    assert (got[hu > 240] == 255).all()
    mid = (hu > -100) & (hu < 200)
    expected = ((hu[mid] - 39.5) / 399 + 0.5) * 255
    assert np.abs(got[mid] - expected).max() <= 1.01
    assert soft.image.id != default.image.id

    mr = load_image(DATA / "MR_small.dcm", window=(1000, 500))  # also replaces a window the file has
    assert mr.info["window"] == [1000.0, 500.0]
    assert mr.image.id != load_image(DATA / "MR_small.dcm").image.id


def test_voi_lut_sequence_is_used_once(tmp_path: Path) -> None:
    ramp = np.tile(np.linspace(0, 4095, 64).astype(np.uint16), (8, 1))
    path = write_dicom(tmp_path / "lut.dcm", ramp)
    ds = pydicom.dcmread(path)
    item = Dataset()
    item.add_new(0x00283002, "US", [4096, 0, 12])  # LUT Descriptor
    item.add_new(0x00283006, "US", [4095 - v for v in range(4096)])  # an inverting LUT: unmistakable if ignored
    ds.VOILUTSequence = [item]
    ds.WindowCenter, ds.WindowWidth = 100, 50  # ignored: the LUT is preferred, as pydicom does by default
    ds.save_as(path)
    loaded = load_image(path)
    out = pixels(loaded)
    assert loaded.info["window_source"] == "file" and loaded.info["voi"] == "lut"
    assert out[0, 0] == 255 and out[0, -1] == 0
    expected = np.rint(apply_voi_lut(ds.pixel_array, ds) / 4095 * 255)
    assert np.abs(out - expected).max() <= 1


def test_unusable_file_window_falls_back_to_min_max(tmp_path: Path) -> None:
    ramp = np.tile(np.linspace(0, 4095, 32).astype(np.uint16), (4, 1))
    path = write_dicom(tmp_path / "badwin.dcm", ramp, WindowCenter=100, WindowWidth=0)
    loaded = load_image(path)
    assert loaded.info["window_source"] == "minmax"
    assert any("window is not usable" in w for w in loaded.warnings)
    assert pixels(loaded)[0, 0] == 0 and pixels(loaded)[0, -1] == 255


def test_invalid_window_is_refused() -> None:
    with pytest.raises(ImageError, match="window width must be a positive number"):
        load_image(DATA / "MR_small.dcm", window=(40, 0))


def test_monochrome1_is_inverted(tmp_path: Path) -> None:
    ramp = np.tile(np.linspace(0, 4095, 32).astype(np.uint16), (16, 1))
    path = write_dicom(tmp_path / "cr.dcm", ramp, photometric="MONOCHROME1")
    loaded = load_image(path)
    out = pixels(loaded)
    assert loaded.info["photometric"] == "MONOCHROME1" and loaded.info["inverted"] is True
    assert out[0, 0] == 255  # raw 0 is white in MONOCHROME1
    assert out[0, -1] == 0
    as_mono2 = write_dicom(tmp_path / "mono2.dcm", ramp, photometric="MONOCHROME2")
    assert np.array_equal(out, 255 - pixels(load_image(as_mono2)))


def test_frames_are_selectable_and_out_of_range_is_clear(tmp_path: Path) -> None:
    frames = np.zeros((3, 16, 16), np.uint16)
    for k in range(3):
        frames[k, :, :] = 100
        frames[k, 4 * k : 4 * k + 4, 2:6] = 4000  # a bright block that moves down with the frame
    path = write_dicom(tmp_path / "cine.dcm", frames)
    for k in range(3):
        loaded = load_image(path, frame=k)
        out = pixels(loaded)
        assert loaded.info["frame"] == k and loaded.info["n_frames"] == 3
        assert out[4 * k + 1, 3] == 255 and out[(4 * k + 8) % 16, 3] == 0
    assert load_image(path).info["frame"] == 0
    with pytest.raises(ImageError, match=r"cine\.dcm: frame 3 is out of range; the file has 3 frame\(s\)"):
        load_image(path, frame=3)
    with pytest.raises(ImageError, match="frame must be a non-negative integer"):
        load_image(path, frame=-1)


def test_ybr_and_rgb_give_the_same_colours() -> None:
    ybr = load_image(DATA / "SC_ybr_full_422_uncompressed.dcm")
    rgb = load_image(DATA / "SC_rgb_rle.dcm")
    assert ybr.info["photometric"] == "YBR_FULL_422" and rgb.info["photometric"] == "RGB"
    assert ybr.image.mode == rgb.image.mode == "RGB"
    a, b = pixels(ybr).astype(int), pixels(rgb).astype(int)
    assert np.abs(a - b).mean() < 1.5 and np.abs(a - b).max() <= 8
    # the stripes of this test pattern: red, green, blue (converting YBR twice would turn them green/purple)
    assert np.abs(a[5, 50] - [255, 0, 0]).max() <= 3
    assert np.abs(a[25, 50] - [0, 255, 0]).max() <= 6
    assert np.abs(a[45, 50] - [0, 0, 255]).max() <= 3


def test_phi_field_names_are_reported_and_values_never_kept(tmp_path: Path) -> None:
    path = write_dicom(tmp_path / "patient.dcm", np.arange(64, dtype=np.uint16).reshape(8, 8))
    loaded = load_image(path)
    assert set(loaded.phi_fields) >= {"PatientName", "PatientID", "PatientBirthDate", "InstitutionName"}
    assert "ReferringPhysicianName" not in loaded.phi_fields  # present but empty
    assert any("PatientName" in w and "never leave this process" in w for w in loaded.warnings)
    everything = (repr(loaded) + json.dumps(loaded.info) + " ".join(loaded.warnings)
                  + repr({k: getattr(loaded.image, k) for k in ("width", "height", "mode", "id")}))
    for secret in (PLANTED_NAME, "Plantedsurname", PLANTED_ID, PLANTED_INSTITUTION, "19010203"):
        assert secret not in everything
        assert secret.encode() not in loaded.image.png


def test_real_dicom_phi_names_without_values() -> None:
    loaded = load_image(DATA / "CT_small.dcm")
    assert {"PatientName", "PatientID", "InstitutionName"} <= set(loaded.phi_fields)
    text = repr(loaded) + json.dumps(loaded.info)
    for value in ("CompressedSamples", "1CT1", "JFK IMAGING"):
        assert value not in text


def test_dicom_info_describes_the_derivation() -> None:
    info = load_image(DATA / "CT_small.dcm").info
    assert info["modality"] == "CT" and info["photometric"] == "MONOCHROME2"
    assert info["rescale"] == [1.0, -1024.0]
    assert info["n_frames"] == 1 and info["frame"] == 0
    json.dumps(info)


# --- NIfTI -------------------------------------------------------------------------------------------------------


def marker_volume(shape: tuple[int, int, int], voxel: tuple[int, int, int]) -> np.ndarray:
    vol = np.full(shape, 10.0, np.float32)
    vol[voxel] = 1000.0
    return vol


@pytest.mark.parametrize("flip_x", [False, True])
def test_nifti_axial_slice_is_radiological_whatever_the_voxel_order(tmp_path: Path, flip_x: bool) -> None:
    # a marker at the patient's right (+x, RAS) and anterior (+y) must land top-left of an axial image
    shape = (20, 16, 8)
    vol = marker_volume(shape, (18, 14, 3))
    affine = np.eye(4)
    if flip_x:  # same anatomy stored LAS: voxel x runs to the patient's left
        vol = vol[::-1].copy()
        affine = np.diag([-1.0, 1, 1, 1])
        affine[0, 3] = shape[0] - 1
    loaded = load_image(write_nifti(tmp_path / "vol.nii", vol, affine), axis=2, slice=3)
    out = pixels(loaded)
    assert loaded.format == "nifti"
    assert out.shape == (16, 20)  # rows: anterior→posterior, columns: right→left
    assert np.unravel_index(out.argmax(), out.shape) == (1, 1)
    assert loaded.info["axis"] == 2 and loaded.info["view"] == "axial" and loaded.info["slice"] == 3
    assert loaded.info["axcodes"] == ("LAS" if flip_x else "RAS")


def test_nifti_sagittal_and_coronal_have_superior_up(tmp_path: Path) -> None:
    vol = marker_volume((20, 16, 8), (18, 14, 6))  # right, anterior, superior
    path = write_nifti(tmp_path / "vol.nii.gz", vol)
    sag = pixels(load_image(path, axis=0, slice=18))
    assert sag.shape == (8, 16)  # rows: superior→inferior, columns: anterior→posterior
    assert np.unravel_index(sag.argmax(), sag.shape) == (1, 1)
    cor = pixels(load_image(path, axis=1, slice=14))
    assert cor.shape == (8, 20)  # rows: superior→inferior, columns: right→left
    assert np.unravel_index(cor.argmax(), cor.shape) == (1, 1)
    with pytest.raises(ImageError, match=r"slice 20 is out of range; axis 0 \(sagittal\) has 20 slices"):
        load_image(path, axis=0, slice=20)
    with pytest.raises(ImageError, match="axis must be 0"):
        load_image(path, axis=3)


def test_nifti_defaults_frames_and_windows(tmp_path: Path) -> None:
    vol = np.zeros((10, 10, 5, 3), np.int16)
    for t in range(3):
        vol[..., t] = t * 100
        vol[2, 2, :, t] = 1000 + t
    path = write_nifti(tmp_path / "fmri.nii.gz", vol)
    default = load_image(path)
    assert default.info["slice"] == 2 and default.info["frame"] == 0 and default.info["n_frames"] == 3
    assert default.info["window_source"] == "percentile"
    assert default.info["shape"] == [10, 10, 5, 3]
    second = load_image(path, frame=2, window=(150, 100))  # window 100..200: background (200) saturates
    assert second.info["window_source"] == "user"
    assert (pixels(second) == 255).all()
    first = load_image(path, frame=1, window=(150, 100))  # background 100 is the bottom of the window
    assert (pixels(first) <= 1).sum() == 99
    with pytest.raises(ImageError, match=r"frame 3 is out of range; the file has 3 volume\(s\)"):
        load_image(path, frame=3)


def test_nifti_gzip_and_plain_give_the_same_image(tmp_path: Path) -> None:
    vol = np.random.default_rng(3).normal(size=(12, 10, 6)).astype(np.float32)
    a = load_image(write_nifti(tmp_path / "v.nii", vol))
    b = load_image(write_nifti(tmp_path / "v.nii.gz", vol))
    c = load_image((tmp_path / "v.nii.gz").read_bytes(), name="upload.nii.gz")
    assert a.image.id == b.image.id == c.image.id


def test_gzip_that_is_not_nifti_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.nii.gz"
    path.write_bytes(gzip.compress(b"just text" * 100))
    with pytest.raises(ImageError, match=r"notes\.nii\.gz is gzip-compressed but is not a NIfTI image"):
        load_image(path)


# --- Pillow specifics --------------------------------------------------------------------------------------------


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    arr = np.zeros((20, 40, 3), np.uint8)
    arr[:, :10] = 255  # a white band on the left of the stored pixels
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 CW to display"
    path = tmp_path / "phone.jpg"
    Image.fromarray(arr).save(path, exif=exif.tobytes(), quality=95)
    loaded = load_image(path)
    out = pixels(loaded)
    assert (loaded.image.width, loaded.image.height) == (20, 40)
    assert loaded.info["exif_orientation"] == 6
    assert out[:10].mean() > 200 and out[-10:].mean() < 50  # the left band is now at the top


def test_sixteen_bit_png_is_min_max_scaled(tmp_path: Path) -> None:
    arr = np.tile(np.linspace(1000, 3000, 50).astype(np.uint16), (10, 1))
    path = tmp_path / "deep.png"
    Image.fromarray(arr).save(path)
    assert Image.open(path).mode.startswith("I")
    loaded = load_image(path)
    out = pixels(loaded)
    assert loaded.image.mode == "L"
    assert out.min() == 0 and out.max() == 255
    assert loaded.info["window_source"] == "minmax" and loaded.info["window"] == [2000.0, 2000.0]
    windowed = pixels(load_image(path, window=(2000, 1000)))
    assert windowed[0, 0] == 0 and windowed[0, -1] == 255


def test_multipage_tiff_frame(tmp_path: Path) -> None:
    pages = [Image.new("L", (8, 8), v) for v in (10, 120, 240)]
    path = tmp_path / "stack.tif"
    pages[0].save(path, save_all=True, append_images=pages[1:])
    loaded = load_image(path, frame=2)
    assert loaded.info["n_frames"] == 3 and (pixels(loaded) == 240).all()
    assert (pixels(load_image(path)) == 10).all()
    with pytest.raises(ImageError, match=r"stack\.tif: frame 3 is out of range; the file has 3 frame"):
        load_image(path, frame=3)


def test_axis_and_slice_are_ignored_with_a_warning_for_flat_images(tmp_path: Path) -> None:
    path = tmp_path / "flat.png"
    path.write_bytes(png_bytes(np.zeros((4, 4), np.uint8)))
    assert any("NIfTI" in w for w in load_image(path, axis=1).warnings)


# --- canonical ids -----------------------------------------------------------------------------------------------


def test_canonical_id_depends_on_pixels_only(tmp_path: Path) -> None:
    from PIL import PngImagePlugin

    arr = np.random.default_rng(7).integers(0, 255, (24, 32, 3), dtype=np.uint8)
    meta = PngImagePlugin.PngInfo()
    meta.add_text("Comment", "taken at Planted Secret Hospital")
    plain = load_image(png_bytes(arr), name="a.png")
    with_text = load_image(png_bytes(arr, pnginfo=meta, compress_level=1), name="b.png")
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="TIFF")
    as_tiff = load_image(buf.getvalue(), name="c.tif")
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="BMP")
    as_bmp = load_image(buf.getvalue(), name="d.bmp")
    assert plain.image.id == with_text.image.id == as_tiff.image.id == as_bmp.image.id
    assert b"Planted" not in with_text.image.png
    assert load_image(png_bytes(arr), name="again.png").image.id == plain.image.id
    changed = arr.copy()
    changed[0, 0, 0] ^= 1
    assert load_image(png_bytes(changed), name="e.png").image.id != plain.image.id
    assert CanonicalImage.from_png(plain.image.png).id == plain.image.id


def test_dicom_metadata_does_not_change_the_id(tmp_path: Path) -> None:
    frames = np.arange(16 * 16, dtype=np.uint16).reshape(16, 16)
    a = load_image(write_dicom(tmp_path / "a.dcm", frames, phi=True))
    b = load_image(write_dicom(tmp_path / "b.dcm", frames, phi=False))
    assert a.image.id == b.image.id
    assert a.phi_fields and not b.phi_fields


# --- damaged files found by fuzzing (perf/fuzz.py): each is one clear ImageError, never another exception ---


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


@pytest.mark.filterwarnings("ignore:Truncated File Read")
def test_tiff_with_a_broken_page_chain_is_refused() -> None:
    buf = io.BytesIO()
    Image.fromarray(np.zeros((6, 8, 3), np.uint8)).convert("CMYK").save(buf, "TIFF")
    data = bytearray(buf.getvalue())
    ifd = struct.unpack("<I", data[4:8])[0]
    end = ifd + 2 + 12 * struct.unpack("<H", data[ifd:ifd + 2])[0]
    data[end:end + 4] = struct.pack("<I", 4)  # the next page "starts" inside the header (Pillow: TypeError)
    with pytest.raises(ImageError, match=r"^x\.tif is not a readable TIFF file"):
        load_image(bytes(data), name="x.tif")


def test_png_transparency_beyond_the_palette_is_refused() -> None:
    im = Image.fromarray(np.arange(48, dtype=np.uint8).reshape(6, 8) % 4, mode="P")
    im.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    buf = io.BytesIO()
    im.save(buf, "PNG")
    data = buf.getvalue()
    at = data.index(b"IDAT") - 4
    damaged = data[:at] + _png_chunk(b"tRNS", b"\x80" * 300) + data[at:]  # Pillow: "palette index out of range"
    with pytest.raises(ImageError, match=r"^x\.png: the PNG pixels could not be converted"):
        load_image(damaged, name="x.png")


def _dicom_bytes(tmp_path: Path, **elements: object) -> bytes:
    return write_dicom(tmp_path / "x.dcm", np.arange(48, dtype=np.uint16).reshape(6, 8), phi=False,
                       **elements).read_bytes()


def test_dicom_header_value_pydicom_cannot_convert_is_refused(tmp_path: Path) -> None:
    data = _dicom_bytes(tmp_path)
    at = data.index(b"\x28\x00\x10\x00US")  # Rows, explicit VR "US"
    damaged = data[:at + 4] + b"QS" + data[at + 6:]  # pydicom: NotImplementedError (unknown VR), at first use
    with pytest.raises(ImageError, match=r"^x\.dcm: the DICOM header field Rows cannot be read as a number$"):
        load_image(damaged, name="x.dcm")  # the field by name; never the value (issue 14 F10)


def test_malformed_pixel_spacing_is_left_out_of_info(tmp_path: Path) -> None:
    assert load_image(_dicom_bytes(tmp_path, PixelSpacing="1"), name="x.dcm").info["pixel_spacing_mm"] == [1.0]
    data = _dicom_bytes(tmp_path, PixelSpacing=[0.5, 0.5])
    at = data.index(b"\x28\x00\x30\x00DS")
    old = struct.unpack("<H", data[at + 6:at + 8])[0]
    damaged = data[:at + 6] + struct.pack("<H", 4) + b"\x03\x005 " + data[at + 8 + old:]  # not a number
    loaded = load_image(damaged, name="x.dcm")
    assert "pixel_spacing_mm" not in loaded.info and loaded.image.width == 8


def test_dicom_with_an_unknown_transfer_syntax_uid_is_refused(tmp_path: Path) -> None:
    data = _dicom_bytes(tmp_path).replace(b"1.2.840.10008.1.2.1\x00", b"1.2.840.10008.1.2.9\x00", 1)
    with pytest.raises(ImageError, match=r"^x\.dcm: the 1\.2\.840\.10008\.1\.2\.9 pixel data could not be decoded"):
        load_image(data, name="x.dcm")  # was ValueError("UID is not a transfer syntax") while building the hint


def test_nifti_axis_must_be_an_integer_and_empty_volumes_are_refused(tmp_path: Path) -> None:
    raw = bytearray(nib.Nifti1Image(np.arange(60, dtype=np.int16).reshape(5, 4, 3), np.eye(4)).to_bytes())
    with pytest.raises(ImageError, match=r"^x\.nii: axis must be 0 \(sagittal\), .* got 1\.0"):
        load_image(bytes(raw), name="x.nii", axis=1.0)  # was TypeError (tuple index)
    raw[42:44] = struct.pack("<h", 0)  # dim[1] = 0: a volume with no voxels (was an empty image, unwritable)
    with pytest.raises(ImageError, match=r"^x\.nii: NIfTI data of shape \[0, 4, 3\] has no voxels"):
        load_image(bytes(raw), name="x.nii")


# --- bundled assets ----------------------------------------------------------------------------------------------


def test_assets_are_reproducible(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_module("skimage", 'pip install -e ".[dev]"')  # scikit-image provides three of the bundled images
    spec = importlib.util.spec_from_file_location("build_assets", REPO / "assets" / "build_assets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "build_assets", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    rows = module.build(tmp_path)
    committed = sorted(p.name for p in (REPO / "assets").glob("*.png"))
    assert sorted(row["name"] for row in rows) == committed
    manifest = json.loads((REPO / "assets" / "manifest.json").read_text(encoding="utf-8"))
    for row in rows:
        built = (tmp_path / row["name"]).read_bytes()
        assert built == (REPO / "assets" / row["name"]).read_bytes(), (
            f"{row['name']} differs from the committed asset: rebuild with `python assets/build_assets.py` "
            "(a different Pillow/zlib/pydicom version can change the bytes) and check the images"
        )
        assert manifest[row["name"]]["id"] == row["id"]


# ---- issue 14 F10: header values never reach a message ----------------------------------------------------------

F10_VALUE = "Zq9PLANTEDVAL"  # 13 characters, a valid length for IS, DS and CS
F10_FIELDS = ("WindowCenter", "WindowWidth", "RescaleIntercept", "RescaleSlope", "NumberOfFrames",
              "PhotometricInterpretation", "VOILUTFunction")


def planted_header_value(field: str) -> bytes:
    """CT_small with ``field`` holding a value that is not what the field should hold (not a number, an unknown
    code): written with a numeric stand-in of the same length, then replaced in the bytes."""
    ds = pydicom.dcmread(DATA / "CT_small.dcm")
    stand_in = "1234567.89012"
    if field in ("PhotometricInterpretation", "VOILUTFunction"):
        setattr(ds, field, F10_VALUE)
    elif field == "NumberOfFrames":
        ds.NumberOfFrames = "1234567890123"
    else:
        setattr(ds, field, stand_in)
    if field in ("WindowCenter", "WindowWidth", "VOILUTFunction"):
        ds.WindowCenter = ds.WindowCenter if field == "WindowCenter" else 40
        ds.WindowWidth = ds.WindowWidth if field == "WindowWidth" else 400
    buf = io.BytesIO()
    ds.save_as(buf)
    data = buf.getvalue().replace(stand_in.encode(), F10_VALUE.encode()).replace(b"1234567890123",
                                                                                 F10_VALUE.encode())
    assert F10_VALUE.encode() in data
    return data


@pytest.mark.parametrize("field", F10_FIELDS)
def test_f10_a_bad_header_value_is_named_by_field_never_shown(field: str, capfd: pytest.CaptureFixture[str],
                                                              caplog: pytest.LogCaptureFixture) -> None:
    data = planted_header_value(field)
    with caplog.at_level(logging.DEBUG):
        try:
            loaded = load_image(data, name="IM0001")
            said = " ".join(loaded.warnings) + json.dumps(loaded.info)
        except ImageError as exc:
            said = str(exc)
            assert field in said, said  # the field is named
    printed = capfd.readouterr()
    for where, text in {"message": said, "stderr": printed.err, "stdout": printed.out, "log": caplog.text}.items():
        assert F10_VALUE not in text, (where, text)


def test_f10_a_batch_with_a_bad_header_shows_no_value(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from probe_ui.cli import main

    for field in F10_FIELDS:
        (tmp_path / f"{field}.dcm").write_bytes(planted_header_value(field))
    items = [{"id": f, "image": f"{f}.dcm", "question": "Which?", "options": ["a", "b"], "answer": "a"}
             for f in F10_FIELDS]
    (tmp_path / "p.yaml").write_text(json.dumps({"items": items}), encoding="utf-8")
    db = tmp_path / "data" / "x.db"
    main(["batch", str(tmp_path / "p.yaml"), "-m", "baseline/first", "--db", str(db), "--no-progress"])
    printed = capfd.readouterr()
    assert "error:" in printed.err and F10_VALUE not in printed.err + printed.out
    for f in db.parent.rglob("*"):
        if f.is_file():
            assert F10_VALUE.encode() not in f.read_bytes(), f
