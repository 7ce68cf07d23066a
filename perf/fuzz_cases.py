"""Fuzz cases for every input a user or a file controls: the generators and checks shared by the long run
(``perf/fuzz.py``) and the quick gate (``tests/test_fuzz.py``).

One *target* per input::

    images      probe_ui.images.load_image on PNG/JPEG/TIFF/BMP/DICOM/NIfTI bytes   LoadedImage | ImageError
    presets     probe_ui.presets.load_preset on YAML text                          Preset | PresetError
    importers   import_results / questions_to_preset on the four formats' JSON     summary | ImportFileError |
                                                                                   ImportUsageError
    answers     probe_ui.reading.answers.extract / extract_legacy on any reply and options  Answer (and fast)
    catalogue   probe_ui.catalogue.resolve / load_entry on any spec / backend YAML  ModelConfig | ModelSpecError
    params      probe_ui.perturb.apply, and a preset's step, on any parameters      Variant | PerturbationError |
                                                                                   PresetError
    keys        a key of any shape through batch, export and report, echoed back  no 8-character piece of it
                by a loopback provider (tests/fake_openai.py, fake_anthropic.py)  anywhere: store, exports,
                                                                                   report, stdout, stderr

``Target.make(r)`` builds one case from the random source ``r`` alone: a ``random.Random``. The script seeds one
per case from ``--seed``, the target and the case index, so ``(seed, target, index)`` reproduces a case; the test
hands in hypothesis' ``st.randoms()``, which shrinks a failure. Valid seed files are made in memory (Pillow,
pydicom, nibabel) or read from this repository (``tests/data``, ``presets/``, ``backends/``); each case applies a
few mutations to one (truncation, bit flips, byte insertions/deletions, header fields, wrong extensions for images;
wrong types, missing/unknown fields, huge numbers, unicode, deep nesting, anchors/aliases, bad encodings for
YAML and JSON).

``run_case`` runs a case under a SIGALRM time limit and classifies it: ``accepted`` (a result), ``typed`` (an
allowed error), ``unhandled`` (any other exception, or a :class:`Bug`: a typed error that does not name the file,
a result that breaks the function's promise), or ``hang`` (over the target's time limit).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import logging
import random
import signal
import struct
import threading
import time
import traceback
import warnings
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = ROOT / "tests" / "data"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Bug(AssertionError):
    """A result or a typed error that breaks the promise of the function under test."""


class CaseTimeout(BaseException):
    """Raised by the SIGALRM handler: a BaseException, so that no ``except Exception`` in the code swallows it."""


@dataclass
class Case:
    target: str
    desc: str  # how the case was made: the seed input and the mutations, for the report
    payload: dict[str, Any]  # what the target's run() needs
    files: dict[str, bytes] = field(default_factory=dict)  # the input as files, written out for a reproducer


@dataclass
class Target:
    name: str
    make: Callable[[random.Random], Case]
    run: Callable[[Case, Path], str]  # "accepted" or "typed"; raises for anything else
    limit_s: float  # a case over this many seconds is a hang


@dataclass
class Outcome:
    """What one case did; plain strings, so that it crosses from the worker process."""

    kind: str  # accepted | typed | unhandled | hang
    elapsed: float
    key: str = ""  # what makes two failures the same bug: the exception type and the innermost probe_ui frame
    line: str = ""  # the traceback's last line
    traceback: str = ""


# ----------------------------------------------------------------------------------------------------------------
# Running cases
# ----------------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`CaseTimeout` in the main thread after ``seconds`` (a no-op elsewhere or without SIGALRM; the
    caller still compares the elapsed time with the limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"over the {seconds:g} s time limit")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _failure(kind: str, elapsed: float, exc: BaseException) -> Outcome:
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    ours = [f for f in frames if "probe_ui" in Path(f.filename).parts] or frames
    where = f" at {Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else ""
    line = " ".join(f"{type(exc).__name__}: {exc}".split())
    return Outcome(kind, elapsed, f"{type(exc).__name__}{where}", line if len(line) <= 240 else line[:237] + "...",
                   "".join(traceback.format_exception(exc)))


def run_case(target: Target, case: Case, workdir: Path) -> Outcome:
    """Run one case in this process within the target's time limit (SIGALRM) and classify what happened."""
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pydicom, nibabel and Pillow warn about every damaged file
            with time_limit(target.limit_s):
                kind = target.run(case, workdir)
    except CaseTimeout as exc:
        return _failure("hang", time.perf_counter() - t0, exc)
    except Exception as exc:  # a bug: any exception that is not one of the target's typed errors
        return _failure("unhandled", time.perf_counter() - t0, exc)
    elapsed = time.perf_counter() - t0
    if elapsed > target.limit_s:  # C code the alarm could not interrupt before it returned
        return Outcome("hang", elapsed, "hang", f"took {elapsed:.2f} s, over the {target.limit_s:g} s limit")
    return Outcome(kind, elapsed)


def _worker(conn: Any, target_name: str, seed: int, workdir: str, memory_bytes: int) -> None:
    """The child's loop: receive a case index, make and run the case, send the Outcome back."""
    import logging
    import resource

    logging.disable(logging.CRITICAL)  # nibabel and pydicom log every damaged header
    if memory_bytes:  # a runaway allocation becomes a MemoryError (a bug) instead of exhausting the machine
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    target = TARGETS[target_name]
    while True:
        index = conn.recv()
        if index is None:
            return
        try:
            case = target.make(case_random(seed, target_name, index))
        except Exception as exc:  # a bug in this file, not in the code under test: say so
            outcome = _failure("unhandled", 0.0, exc)
            outcome.key = f"the fuzzer's own generator failed ({outcome.key})"
            conn.send(outcome)
            continue
        conn.send(run_case(target, case, Path(workdir)))


class IsolatedRunner:
    """Runs the cases of one target in a forked child process: a case that the child does not answer within
    ``hard_s`` (stuck in C code, where SIGALRM cannot interrupt it) is a hang, and so is a crash of the child;
    either way the child is replaced and the run goes on. Each case is made in the child from (seed, index)."""

    def __init__(self, target: str, seed: int, workdir: Path, *, hard_s: float | None = None,
                 memory_gb: float = 4.0) -> None:
        import multiprocessing

        self.target, self.seed, self.workdir = target, seed, workdir
        self.hard_s = hard_s or max(15.0, 3 * TARGETS[target].limit_s)
        self.memory_gb = memory_gb
        self._ctx = multiprocessing.get_context("fork")
        self._proc: Any = None
        self._conn: Any = None

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        vm = _virtual_memory_bytes()
        memory = int(vm + self.memory_gb * 2**30) if vm else 0
        self._proc = self._ctx.Process(target=_worker, args=(child, self.target, self.seed, str(self.workdir), memory),
                                       daemon=True)
        self._proc.start()
        child.close()
        self._conn = parent

    def _stop(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.join()
            self._conn.close()
        self._proc = self._conn = None

    def run(self, index: int) -> Outcome:
        if self._proc is None or not self._proc.is_alive():
            self._stop()
            self._start()
        t0 = time.perf_counter()
        self._conn.send(index)
        try:
            if self._conn.poll(self.hard_s):
                return self._conn.recv()
            outcome = Outcome("hang", time.perf_counter() - t0, "hang (uninterruptible)",
                              f"no answer within {self.hard_s:g} s: stuck where SIGALRM cannot interrupt it")
        except (EOFError, OSError):
            self._proc.join(1)
            code = self._proc.exitcode
            outcome = Outcome("unhandled", time.perf_counter() - t0, f"crash (exit code {code})",
                              f"the worker process died (exit code {code}): a crash in C code?")
        self._stop()
        return outcome

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            with contextlib.suppress(OSError):
                self._conn.send(None)
            self._proc.join(5)
        self._stop()

    def __enter__(self) -> IsolatedRunner:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _virtual_memory_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


# ----------------------------------------------------------------------------------------------------------------
# Random helpers (only r.random/randint/choice/choices/getrandbits: the script's random.Random and hypothesis'
# st.randoms() both provide them)
# ----------------------------------------------------------------------------------------------------------------


def chance(r: random.Random, p: float) -> bool:
    return r.random() < p


def rbytes(r: random.Random, n: int) -> bytes:
    return r.getrandbits(8 * n).to_bytes(n, "little") if n > 0 else b""


def pick(r: random.Random, weighted: dict[Any, float]) -> Any:
    keys = list(weighted)
    return r.choices(keys, weights=[weighted[k] for k in keys])[0]


INTERESTING_INTS = (0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 63, 64, 127, 128, 255, 256, 1000, 4096, 0x7FFF, 0x8000,
                    0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, -1, -2, -128, -32768, -(2**31))
INTERESTING_FLOATS = (0.0, -0.0, 1.0, -1.0, 0.5, 1e-30, 1e30, 1e38, -1e38, 3.4e38, float("inf"), float("-inf"),
                      float("nan"))

# ----------------------------------------------------------------------------------------------------------------
# Byte-level mutations (any file format)
# ----------------------------------------------------------------------------------------------------------------


def _pos(r: random.Random, n: int, head: int = 0) -> int:
    """A position in 0..n, biased towards the first ``head`` bytes (headers) half of the time."""
    if n <= 0:
        return 0
    if head and chance(r, 0.5):
        return r.randint(0, min(n, head))
    return r.randint(0, n)


def mutate_bytes(r: random.Random, data: bytes, head: int = 512) -> tuple[bytes, str]:
    """One generic mutation of a byte string; returns the new bytes and what was done."""
    n = len(data)
    op = pick(r, {"truncate": 3, "bitflip": 3, "set": 2, "insert": 2, "delete": 2, "dup": 1, "int": 3, "zero": 1})
    b = bytearray(data)
    if op == "truncate":
        at = r.choice([_pos(r, n, head), max(0, n - r.randint(1, 64)), r.randint(0, min(n, 200))])
        return bytes(b[:at]), f"truncate({at})"
    if op == "bitflip":
        k = r.choice([1, 1, 2, 4, 8, 32])
        for _ in range(k):
            if b:
                i = _pos(r, n - 1, head)
                b[i] ^= 1 << r.randint(0, 7)
        return bytes(b), f"bitflip(x{k})"
    if op == "set":
        k = r.randint(1, 8)
        for _ in range(k):
            if b:
                b[_pos(r, n - 1, head)] = r.choice([0x00, 0xFF, 0x7F, 0x80, 0x01, r.getrandbits(8)])
        return bytes(b), f"set-bytes(x{k})"
    if op == "insert":
        at = _pos(r, n, head)
        chunk = r.choice([rbytes(r, r.randint(1, 16)), b"\x00" * r.randint(1, 300), b"\xff" * r.randint(1, 64),
                          rbytes(r, r.randint(100, 2000))])
        return bytes(b[:at] + chunk + b[at:]), f"insert({at}, {len(chunk)})"
    if op == "delete":
        at = _pos(r, n, head)
        k = r.choice([1, 2, 4, r.randint(1, 64), r.randint(1, max(1, n // 2))])
        return bytes(b[:at] + b[at + k:]), f"delete({at}, {k})"
    if op == "dup":
        at = _pos(r, n, head)
        k = r.randint(1, 256)
        return bytes(b[:at] + b[at:at + k] + b[at:]), f"dup({at}, {k})"
    if op == "zero":
        at = _pos(r, n, head)
        k = r.randint(1, 512)
        return bytes(b[:at] + b"\x00" * len(b[at:at + k]) + b[at + k:]), f"zero({at}, {k})"
    # an aligned integer somewhere in the header, little or big endian
    size = r.choice([1, 2, 4, 8])
    at = _pos(r, max(0, min(n, head) - size))
    at -= at % size
    value = r.choice(INTERESTING_INTS) % (1 << (8 * size))
    order = r.choice(["little", "big"])
    b[at:at + size] = value.to_bytes(size, order)
    return bytes(b), f"int{size * 8}{order[0]}e({at}={value})"


# ----------------------------------------------------------------------------------------------------------------
# Image seeds: small valid files of every format, made in memory (or read from tests/data and pydicom's test data)
# ----------------------------------------------------------------------------------------------------------------

_IMAGE_SEEDS: dict[str, tuple[str, str, bytes]] | None = None  # seed name -> (format, file name, bytes)


def image_seeds() -> dict[str, tuple[str, str, bytes]]:
    global _IMAGE_SEEDS
    if _IMAGE_SEEDS is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _IMAGE_SEEDS = {**_raster_seeds(), **_dicom_seeds(), **_nifti_seeds()}
    return _IMAGE_SEEDS


def _pil(im: Any, fmt: str, **kw: Any) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def _raster_seeds() -> dict[str, tuple[str, str, bytes]]:
    from PIL import Image

    rng = np.random.default_rng(0)
    g8 = rng.integers(0, 256, (6, 8), dtype=np.uint8)
    rgb = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
    rgba = rng.integers(0, 256, (6, 8, 4), dtype=np.uint8)
    g16 = rng.integers(0, 65536, (6, 8), dtype=np.uint16)
    f32 = rng.normal(0, 100, (6, 8)).astype(np.float32)
    L, RGB = Image.fromarray(g8), Image.fromarray(rgb)
    P = RGB.convert("P", palette=Image.Palette.ADAPTIVE, colors=8)
    P.info["transparency"] = 0
    exif = Image.Exif()
    exif[0x0112] = 6
    out: dict[str, tuple[str, str, bytes]] = {
        "png-L": ("png", "scan.png", _pil(L, "PNG")),
        "png-RGB": ("png", "photo.png", _pil(RGB, "PNG")),
        "png-RGBA": ("png", "alpha.png", _pil(Image.fromarray(rgba), "PNG")),
        "png-P": ("png", "palette.png", _pil(P, "PNG")),
        "png-16": ("png", "deep.png", _pil(Image.fromarray(g16), "PNG")),
        "png-LA": ("png", "la.png", _pil(Image.fromarray(rgba[:, :, :2].copy(), "LA"), "PNG")),
        "png-1": ("png", "bits.png", _pil(L.convert("1"), "PNG")),
        "png-exif": ("png", "exif.png", _pil(RGB, "PNG", exif=exif.tobytes())),
        "apng": ("png", "anim.png", _pil(RGB, "PNG", save_all=True, append_images=[L.convert("RGB")])),
        "jpeg-L": ("jpeg", "scan.jpg", _pil(L, "JPEG")),
        "jpeg-RGB": ("jpeg", "photo.jpg", _pil(RGB, "JPEG", quality=80)),
        "jpeg-CMYK": ("jpeg", "cmyk.jpg", _pil(RGB.convert("CMYK"), "JPEG")),
        "jpeg-progressive": ("jpeg", "prog.jpeg", _pil(RGB, "JPEG", progressive=True)),
        "jpeg-exif6": ("jpeg", "rotated.jpg", _pil(RGB, "JPEG", exif=exif.tobytes())),
        "tiff-L": ("tiff", "scan.tif", _pil(L, "TIFF")),
        "tiff-RGB-lzw": ("tiff", "photo.tiff", _pil(RGB, "TIFF", compression="tiff_lzw")),
        "tiff-16": ("tiff", "deep.tif", _pil(Image.fromarray(g16), "TIFF")),
        "tiff-F": ("tiff", "float.tif", _pil(Image.fromarray(f32), "TIFF")),
        "tiff-pages": ("tiff", "pages.tif", _pil(L, "TIFF", save_all=True, append_images=[L, L.transpose(0)])),
        "tiff-deflate": ("tiff", "deflate.tif", _pil(RGB, "TIFF", compression="tiff_adobe_deflate")),
        "tiff-packbits": ("tiff", "packbits.tif", _pil(RGB, "TIFF", compression="packbits")),
        "tiff-CMYK": ("tiff", "cmyk.tif", _pil(RGB.convert("CMYK"), "TIFF")),
        "tiff-RGBA": ("tiff", "rgba.tif", _pil(Image.fromarray(rgba), "TIFF")),
        "bmp-RGB": ("bmp", "photo.bmp", _pil(RGB, "BMP")),
        "bmp-P": ("bmp", "palette.bmp", _pil(P, "BMP")),
        "bmp-1": ("bmp", "bits.bmp", _pil(L.convert("1"), "BMP")),
        "bmp-L": ("bmp", "scan.bmp", _pil(L, "BMP")),
        "bmp-RGBA": ("bmp", "alpha.bmp", _pil(Image.fromarray(rgba), "BMP")),
    }
    return out


def _dicom_bytes(arr: np.ndarray, *, photometric: str = "MONOCHROME2", frames: int = 0,
                 pixel_keyword: str = "PixelData", ts: str | None = None, **fields: Any) -> bytes:
    import pydicom
    from pydicom.dataset import Dataset, FileMetaDataset
    from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage

    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = "1.2.826.0.1.3680043.8.498.1"
    meta.TransferSyntaxUID = ts or ExplicitVRLittleEndian
    ds = Dataset()
    ds.file_meta = meta
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.Modality = "OT"
    ds.PatientName = "Doe^Jane"
    ds.PatientID = "12345"
    colour = photometric in ("RGB", "YBR_FULL")
    shape = arr.shape[1:] if frames else arr.shape
    ds.Rows, ds.Columns = int(shape[0]), int(shape[1])
    ds.SamplesPerPixel = 3 if colour else 1
    ds.PhotometricInterpretation = photometric
    ds.BitsAllocated = arr.dtype.itemsize * 8
    ds.BitsStored = arr.dtype.itemsize * 8
    ds.HighBit = arr.dtype.itemsize * 8 - 1
    ds.PixelRepresentation = 1 if arr.dtype.kind == "i" else 0
    if colour:
        ds.PlanarConfiguration = 0
    if frames:
        ds.NumberOfFrames = frames
    for k, v in fields.items():
        setattr(ds, k, v)
    if pixel_keyword != "PixelData":
        del ds.PixelRepresentation
    setattr(ds, pixel_keyword, arr.tobytes())
    buf = io.BytesIO()
    pydicom.dcmwrite(buf, ds, enforce_file_format=True)
    return buf.getvalue()


def _dicom_seeds() -> dict[str, tuple[str, str, bytes]]:
    import pydicom
    from pydicom.dataset import Dataset
    from pydicom.sequence import Sequence

    out: dict[str, tuple[str, str, bytes]] = {}
    for name in ("CT_small.dcm", "MR_small.dcm", "MR_small_RLE.dcm", "MR_small_bigendian.dcm",
                 "MR_small_implicit.dcm", "JPEG2000.dcm", "SC_rgb_jpeg_gdcm.dcm", "rtplan.dcm"):
        path = None
        with contextlib.suppress(Exception):
            path = pydicom.data.get_testdata_file(name, download=False)
        path = path or (TEST_DATA / name if (TEST_DATA / name).is_file() else None)
        if path:
            out[f"dcm-{name[:-4]}"] = ("dicom", name, Path(path).read_bytes())
    for name in ("SC_rgb_rle.dcm", "SC_ybr_full_422_uncompressed.dcm"):
        if (TEST_DATA / name).is_file():
            out[f"dcm-{name[:-4]}"] = ("dicom", name, (TEST_DATA / name).read_bytes())

    rng = np.random.default_rng(1)
    g8 = rng.integers(0, 256, (6, 8), dtype=np.uint8)
    s16 = rng.integers(-1000, 3000, (6, 8), dtype=np.int16)
    rgb = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
    out["dcm-mono8"] = ("dicom", "mono8.dcm", _dicom_bytes(g8))
    out["dcm-ct16"] = ("dicom", "ct.dcm", _dicom_bytes(s16, RescaleSlope=1, RescaleIntercept=-1024,
                                                       WindowCenter=40, WindowWidth=400, PixelSpacing=[0.5, 0.5],
                                                       BodyPartExamined="CHEST", Modality="CT"))
    out["dcm-mono1"] = ("dicom", "mono1.dcm", _dicom_bytes(g8, photometric="MONOCHROME1"))
    out["dcm-frames"] = ("dicom", "frames.dcm", _dicom_bytes(rng.integers(0, 4096, (3, 6, 8), dtype=np.uint16),
                                                             frames=3, BitsStored=12, HighBit=11))
    out["dcm-rgb"] = ("dicom", "rgb.dcm", _dicom_bytes(rgb, photometric="RGB"))
    out["dcm-float"] = ("dicom", "float.dcm", _dicom_bytes(rng.normal(0, 1, (6, 8)).astype(np.float32),
                                                           pixel_keyword="FloatPixelData"))
    lut = np.arange(256, dtype=np.uint16) * 257
    out["dcm-palette"] = ("dicom", "palette.dcm", _dicom_bytes(
        g8, photometric="PALETTE COLOR",
        RedPaletteColorLookupTableDescriptor=[256, 0, 16], GreenPaletteColorLookupTableDescriptor=[256, 0, 16],
        BluePaletteColorLookupTableDescriptor=[256, 0, 16], RedPaletteColorLookupTableData=lut.tobytes(),
        GreenPaletteColorLookupTableData=lut[::-1].copy().tobytes(), BluePaletteColorLookupTableData=lut.tobytes()))
    voi = Dataset()
    voi.LUTDescriptor = [256, 0, 8]
    voi.LUTData = np.arange(255, -1, -1, dtype=np.uint16).tobytes()
    out["dcm-voilut"] = ("dicom", "voilut.dcm", _dicom_bytes(g8, VOILUTSequence=Sequence([voi])))
    shared, pixel = Dataset(), Dataset()
    pixel.RescaleSlope, pixel.RescaleIntercept, pixel.RescaleType = 2, -100, "US"
    shared.PixelValueTransformationSequence = Sequence([pixel])
    per_frame = []
    for c in (10, 20):
        item, window = Dataset(), Dataset()
        window.WindowCenter, window.WindowWidth = c, 50
        item.FrameVOILUTSequence = Sequence([window])
        per_frame.append(item)
    out["dcm-enhanced"] = ("dicom", "enhanced.dcm", _dicom_bytes(
        rng.integers(0, 255, (2, 6, 8), dtype=np.uint8), frames=2,
        SharedFunctionalGroupsSequence=Sequence([shared]), PerFrameFunctionalGroupsSequence=Sequence(per_frame)))
    full = out["dcm-mono8"][2]
    meta_end = 144 + struct.unpack("<I", full[140:144])[0]
    out["dcm-nopreamble"] = ("dicom", "raw.dcm", full[meta_end:])
    return out


def _nifti_seeds() -> dict[str, tuple[str, str, bytes]]:
    import nibabel as nib

    rng = np.random.default_rng(2)
    rot = np.array([[0, 0.8, -0.6, 3], [0.6, 0, 0.8, -2], [0.8, -0.6, 0, 1], [0, 0, 0, 1]], dtype=float)

    def nii(arr: np.ndarray, affine: np.ndarray | None = None, klass: Any = nib.Nifti1Image,
            slope: float | None = None) -> bytes:
        img = klass(arr, np.eye(4) if affine is None else affine)
        if slope is not None:
            img.header.set_slope_inter(slope, 10.0)
        return img.to_bytes()

    rgb_dtype = np.dtype([("R", "u1"), ("G", "u1"), ("B", "u1")])
    rgb = np.zeros((4, 4, 2), dtype=rgb_dtype)
    rgb["R"] = rng.integers(0, 255, (4, 4, 2))
    v3 = rng.integers(-100, 1000, (6, 5, 4), dtype=np.int16)
    flat = bytearray(nii(v3))  # an all-zero sform (nibabel will not write one): patch the header
    flat[252:256] = struct.pack("<hh", 0, 1)
    flat[280:328] = b"\x00" * 48
    flat = bytes(flat)
    out: dict[str, tuple[str, str, bytes]] = {
        "nii-3d": ("nifti", "brain.nii", nii(v3)),
        "nii-4d": ("nifti", "series.nii", nii(rng.normal(0, 1, (4, 4, 3, 2)).astype(np.float32))),
        "nii-2d": ("nifti", "plane.nii", nii(rng.integers(0, 255, (6, 5), dtype=np.uint8))),
        "nii-5d": ("nifti", "five.nii", nii(rng.integers(0, 9, (4, 4, 3, 1, 2), dtype=np.int16))),
        "nii-rgb": ("nifti", "rgb.nii", nii(rgb)),
        "nii-complex": ("nifti", "complex.nii", nii((rng.normal(0, 1, (4, 4, 2)) + 1j).astype(np.complex64))),
        "nii-oblique": ("nifti", "oblique.nii", nii(v3, affine=rot)),
        "nii-degenerate": ("nifti", "flat.nii", flat),
        "nii-scaled": ("nifti", "scaled.nii", nii(v3, slope=0.5)),
        "nii2-3d": ("nifti", "v2.nii", nii(v3, klass=nib.Nifti2Image)),
        "nii-pair-header": ("nifti", "pair.hdr", nib.Nifti1Pair(v3, np.eye(4)).header.binaryblock),
    }
    for name in ("nii-3d", "nii-4d", "nii2-3d"):
        fmt, fname, data = out[name]
        out[name + "-gz"] = (fmt, fname + ".gz", gzip.compress(data, compresslevel=1, mtime=0))
    return out


# ---- format-aware header mutations ---------------------------------------------------------------------------


def _png_chunks(data: bytes) -> list[tuple[int, int, bytes]]:
    """(offset, length, type) of each chunk, as far as the file parses."""
    out, pos = [], 8
    while pos + 8 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        out.append((pos, length, data[pos + 4:pos + 8]))
        pos += 12 + length
    return out


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _mutate_png(r: random.Random, data: bytes) -> tuple[bytes, str]:
    chunks = _png_chunks(data)
    if not chunks:
        return mutate_bytes(r, data)
    op = r.choice(["ihdr", "ihdr", "chunk-body", "chunk-length", "drop", "insert"])
    if op == "ihdr" and chunks[0][2] == b"IHDR" and chunks[0][1] == 13:
        body = bytearray(data[16:29])
        fld = r.choice(["width", "height", "both", "depth", "colour", "compression", "filter", "interlace"])
        big = r.choice([0, 1, 2, 7, 8, 9, 255, 256, 4096, 7071, 20000, 65535, 0x7FFFFFFF, 0xFFFFFFFF])
        if fld in ("width", "both"):
            body[0:4] = struct.pack(">I", big)
        if fld in ("height", "both"):
            body[4:8] = struct.pack(">I", r.choice([0, 1, 3, 255, 4096, 7071, 20000, 0x7FFFFFFF, 0xFFFFFFFF]))
        if fld == "depth":
            body[8] = r.choice([0, 1, 2, 3, 4, 8, 16, 32, 255])
        if fld == "colour":
            body[9] = r.choice([0, 1, 2, 3, 4, 5, 6, 7, 255])
        if fld in ("compression", "filter", "interlace"):
            body[{"compression": 10, "filter": 11, "interlace": 12}[fld]] = r.choice([1, 2, 255])
        new = data[:8] + _png_chunk(b"IHDR", bytes(body)) + data[33:]
        return new, f"png-ihdr-{fld}"
    pos, length, kind = r.choice(chunks)
    if op == "chunk-body" and length:
        body = bytearray(data[pos + 8:pos + 8 + length])
        for _ in range(r.randint(1, 4)):
            if body:
                body[r.randrange(len(body))] = r.getrandbits(8)
        new = data[:pos] + _png_chunk(kind, bytes(body)) + data[pos + 12 + length:]
        return new, f"png-body-{kind.decode('latin-1')}"
    if op == "chunk-length":
        value = r.choice([0, 1, length + 1, max(0, length - 1), 0x7FFFFFFF, 0xFFFFFFFF])
        return data[:pos] + struct.pack(">I", value) + data[pos + 4:], f"png-length-{kind.decode('latin-1')}"
    if op == "drop":
        return data[:pos] + data[pos + 12 + length:], f"png-drop-{kind.decode('latin-1')}"
    extra = r.choice([
        (b"IHDR", data[16:29] if len(data) >= 29 else b""),
        (b"acTL", struct.pack(">II", r.choice([0, 2, 0x7FFFFFFF]), 0)),
        (b"fcTL", rbytes(r, 26)),
        (b"tRNS", rbytes(r, r.randint(0, 300))),
        (b"PLTE", rbytes(r, r.choice([0, 3, 4, 768, 771]))),
        (b"eXIf", b"II*\x00\x08\x00\x00\x00" + rbytes(r, r.randint(0, 40))),
        (b"eXIf", b"MM\x00*\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01" + bytes([0, r.randint(0, 12)])
         + b"\x00\x00\x00\x00\x00\x00"),
        (b"iCCP", b"x\x00\x00" + rbytes(r, 30)),
        (b"zTXt", b"k\x00\x00" + zlib.compress(b"\x00" * 100000)),
        (b"IDAT", rbytes(r, r.randint(0, 64))),
        (b"sBIT", rbytes(r, r.randint(0, 5))),
        (b"gAMA", rbytes(r, 4)),
        (bytes(rbytes(r, 4)), rbytes(r, 8)),
    ])
    at = r.choice(chunks)[0]
    return data[:at] + _png_chunk(*extra) + data[at:], f"png-insert-{extra[0].decode('latin-1')}"


def _jpeg_segments(data: bytes) -> list[tuple[int, int, int]]:
    """(offset, marker, length) of each marker segment before the scan data."""
    out, pos = [], 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        out.append((pos, marker, length))
        if marker == 0xDA:
            break
        pos += 2 + length
    return out


def _mutate_jpeg(r: random.Random, data: bytes) -> tuple[bytes, str]:
    segs = _jpeg_segments(data)
    sof = [s for s in segs if 0xC0 <= s[1] <= 0xCF and s[1] not in (0xC4, 0xC8, 0xCC)]
    op = r.choice(["sof", "sof", "segment", "drop", "exif", "marker"])
    b = bytearray(data)
    if op == "sof" and sof:
        pos = sof[0][0]
        fld = r.choice(["precision", "height", "width", "components", "sampling", "table"])
        if fld == "precision":
            b[pos + 4] = r.choice([0, 1, 8, 12, 16, 255])
        elif fld in ("height", "width"):
            at = pos + (5 if fld == "height" else 7)
            b[at:at + 2] = struct.pack(">H", r.choice([0, 1, 2, 255, 7071, 0x7FFF, 0xFFFF]))
        elif fld == "components":
            b[pos + 9] = r.choice([0, 1, 2, 3, 4, 5, 255])
        elif fld == "sampling" and len(b) > pos + 11:
            b[pos + 11] = r.choice([0x00, 0x11, 0x22, 0x44, 0xFF, 0x13])
        elif len(b) > pos + 12:
            b[pos + 12] = r.choice([0, 1, 3, 4, 255])
        return bytes(b), f"jpeg-sof-{fld}"
    if op == "segment" and segs:
        pos, marker, length = r.choice(segs)
        b[pos + 2:pos + 4] = struct.pack(">H", r.choice([0, 1, 2, max(0, length - 1), min(0xFFFF, length + 1), 0xFFFF]))
        return bytes(b), f"jpeg-length-{marker:02X}"
    if op == "drop" and segs:
        pos, marker, length = r.choice(segs)
        return data[:pos] + data[pos + 2 + length:], f"jpeg-drop-{marker:02X}"
    if op == "exif":
        orient = r.choice([0, 1, 3, 6, 8, 9, 255, 65535])
        tiff = (b"MM\x00*\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01" + struct.pack(">H", orient)
                + b"\x00\x00" + b"\x00" * 4)
        if chance(r, 0.3):
            tiff = tiff[:r.randint(0, len(tiff))]
        app1 = b"Exif\x00\x00" + tiff
        seg = b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
        return data[:2] + seg + data[2:], f"jpeg-exif-{orient}"
    marker = r.choice([b"\xff\xd9", b"\xff\xd8", b"\xff\xc0\x00\x02", b"\xff\xff\xff", b"\xff\xda\x00\x02",
                       b"\xff\x00"])
    at = r.randint(2, max(2, len(data)))
    return data[:at] + marker + data[at:], "jpeg-marker"


_TIFF_TAGS = (256, 257, 258, 259, 262, 273, 274, 277, 278, 279, 284, 317, 320, 338, 339, 322, 323, 324, 325, 330,
              34665, 700)


def _mutate_tiff(r: random.Random, data: bytes) -> tuple[bytes, str]:
    if data[:2] != b"II" or len(data) < 8:
        return mutate_bytes(r, data)
    b = bytearray(data)
    ifd = struct.unpack("<I", data[4:8])[0]
    if ifd + 2 > len(data):
        return mutate_bytes(r, data)
    n = struct.unpack("<H", data[ifd:ifd + 2])[0]
    entries = [ifd + 2 + 12 * i for i in range(n) if ifd + 14 + 12 * i <= len(data)]
    op = r.choice(["value", "value", "value", "type", "count", "tag", "next", "entries", "ifd"])
    if op == "ifd":
        b[4:8] = struct.pack("<I", r.choice([0, 1, 4, 8, len(data), 0xFFFFFFFF]))
        return bytes(b), "tiff-ifd-offset"
    if op == "entries":
        b[ifd:ifd + 2] = struct.pack("<H", r.choice([0, 1, min(0xFFFF, n + 1), 0xFFFF]))
        return bytes(b), "tiff-entry-count"
    if op == "next" and ifd + 2 + 12 * n + 4 <= len(data):
        at = ifd + 2 + 12 * n
        b[at:at + 4] = struct.pack("<I", r.choice([ifd, 8, 4, max(0, len(data) - 2), 0xFFFFFFFF]))
        return bytes(b), "tiff-next-ifd"
    if not entries:
        return mutate_bytes(r, data)
    at = r.choice(entries)
    tag = struct.unpack("<H", data[at:at + 2])[0]
    if op == "type":
        b[at + 2:at + 4] = struct.pack("<H", r.choice([0, 1, 2, 3, 4, 5, 7, 11, 12, 13, 16, 17, 99]))
    elif op == "count":
        b[at + 4:at + 8] = struct.pack("<I", r.choice([0, 1, 2, 3, 1000, 0x7FFFFFFF, 0xFFFFFFFF]))
    elif op == "tag":
        b[at:at + 2] = struct.pack("<H", r.choice(_TIFF_TAGS))
    else:
        value = r.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 32, 64, 255, 0xFFFF, 7071, 50000, len(data),
                          0x7FFFFFFF, 0xFFFFFFFF])
        b[at + 8:at + 12] = struct.pack("<I", value)
    return bytes(b), f"tiff-{op}-{tag}"


def _mutate_bmp(r: random.Random, data: bytes) -> tuple[bytes, str]:
    fields = {"size": (2, "<I"), "offset": (10, "<I"), "header": (14, "<I"), "width": (18, "<i"), "height": (22, "<i"),
              "planes": (26, "<H"), "bpp": (28, "<H"), "compression": (30, "<I"), "image-size": (34, "<I"),
              "colours": (46, "<I")}
    name = r.choice(list(fields))
    at, fmt = fields[name]
    if len(data) < at + struct.calcsize(fmt):
        return mutate_bytes(r, data)
    values = {"<I": [0, 1, 12, 14, 40, 54, 108, 124, 1000, 0x7FFFFFFF, 0xFFFFFFFF],
              "<i": [0, 1, -1, -8, 2, 7071, 65535, -(2**31), 2**31 - 1],
              "<H": [0, 1, 2, 4, 8, 15, 16, 24, 32, 64, 0xFFFF]}[fmt]
    value = r.choice(values + [r.randint(0, 5)])
    b = bytearray(data)
    b[at:at + struct.calcsize(fmt)] = struct.pack(fmt, value)
    return bytes(b), f"bmp-{name}={value}"


_NIFTI1_FIELDS: dict[str, tuple[int, str, tuple[Any, ...]]] = {
    "sizeof_hdr": (0, "<i", (0, 348, 540, -1, 1000)),
    "dim0": (40, "<h", (0, 1, 2, 3, 4, 5, 7, 8, 9, -1)),
    "dim1": (42, "<h", (0, 1, 2, -1, 32767, 7071)),
    "dim2": (44, "<h", (0, 1, 2, -1, 32767, 7071)),
    "dim3": (46, "<h", (0, 1, 2, -1, 32767)),
    "dim4": (48, "<h", (0, 1, 2, 3, -1, 32767)),
    "dim5": (50, "<h", (0, 1, 2, -1)),
    "datatype": (70, "<h", (0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 999,
                            -1)),
    "bitpix": (72, "<h", (0, 1, 8, 16, 24, 64, 128, -8)),
    "pixdim0": (76, "<f", (-1.0, 0.0, 1.0, float("nan"))),
    "pixdim1": (80, "<f", INTERESTING_FLOATS),
    "pixdim3": (88, "<f", INTERESTING_FLOATS),
    "vox_offset": (108, "<f", (0.0, 1.0, 347.0, 348.0, 352.0, 353.0, 1e9, -1.0, float("nan"), float("inf"))),
    "scl_slope": (112, "<f", INTERESTING_FLOATS),
    "scl_inter": (116, "<f", INTERESTING_FLOATS),
    "xyzt_units": (123, "<B", (0, 2, 255)),
    "cal_max": (124, "<f", INTERESTING_FLOATS),
    "qform_code": (252, "<h", (0, 1, 2, 3, 4, 5, -1)),
    "sform_code": (254, "<h", (0, 1, 2, 3, 4, 5, -1)),
    "quatern_b": (256, "<f", INTERESTING_FLOATS),
    "quatern_d": (264, "<f", INTERESTING_FLOATS),
    "srow_x0": (280, "<f", INTERESTING_FLOATS),
    "srow_y1": (300, "<f", INTERESTING_FLOATS),
    "srow_z2": (320, "<f", INTERESTING_FLOATS),
    "magic": (344, "4s", (b"n+1\x00", b"ni1\x00", b"n+2\x00", b"\x00\x00\x00\x00")),
}
_NIFTI2_FIELDS: dict[str, tuple[int, str, tuple[Any, ...]]] = {
    "sizeof_hdr": (0, "<i", (0, 348, 540, -1)),
    "datatype": (12, "<h", (0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 768, 1024, 1536, 2304, 999, -1)),
    "bitpix": (14, "<h", (0, 8, 16, 64, -8)),
    "dim0": (16, "<q", (0, 1, 2, 3, 4, 5, 7, 8, 9, -1)),
    "dim1": (24, "<q", (0, 1, -1, 2**31, 2**62, 7071)),
    "dim2": (32, "<q", (0, 1, -1, 2**31, 7071)),
    "dim3": (40, "<q", (0, 1, -1, 2**40)),
    "dim4": (48, "<q", (0, 1, 2, -1)),
    "pixdim1": (112, "<d", INTERESTING_FLOATS),
    "vox_offset": (168, "<q", (0, 1, 540, 544, 10**12, -1)),
    "scl_slope": (176, "<d", INTERESTING_FLOATS),
    "scl_inter": (184, "<d", INTERESTING_FLOATS),
    "qform_code": (344, "<i", (0, 1, 2, 5, -1)),
    "sform_code": (348, "<i", (0, 1, 2, 5, -1)),
    "srow_x0": (400, "<d", INTERESTING_FLOATS),
}


def _mutate_nifti(r: random.Random, data: bytes) -> tuple[bytes, str]:
    gz = data[:2] == b"\x1f\x8b"
    if gz:
        try:
            raw = gzip.decompress(data)
        except Exception:
            return mutate_bytes(r, data)
    else:
        raw = data
    fields = _NIFTI2_FIELDS if raw[4:7] in (b"n+2", b"ni2") else _NIFTI1_FIELDS
    name = r.choice(list(fields))
    at, fmt, values = fields[name]
    if len(raw) < at + struct.calcsize(fmt):
        return mutate_bytes(r, data)
    value = r.choice(values)
    b = bytearray(raw)
    b[at:at + struct.calcsize(fmt)] = struct.pack(fmt, value)
    if chance(r, 0.1):  # swap the header's byte order marker (sizeof_hdr) as a big-endian file would have it
        b[0:4] = b[0:4][::-1]
    out = bytes(b)
    return (gzip.compress(out, compresslevel=1, mtime=0) if gz else out), f"nifti-{name}={value!r}"


_DICOM_US = ("Rows", "Columns", "BitsAllocated", "BitsStored", "HighBit", "PixelRepresentation", "SamplesPerPixel",
             "PlanarConfiguration")
_DICOM_TEXT = {
    "NumberOfFrames": ("IS", ["0", "1", "2", "3", "-1", "abc", "", "1e9", "99999999", "2.5", " 2"]),
    "PhotometricInterpretation": ("CS", ["MONOCHROME1", "MONOCHROME2", "RGB", "PALETTE COLOR", "YBR_FULL",
                                         "YBR_FULL_422", "YBR_ICT", "YBR_RCT", "ARGB", "CMYK", "HSV", "", "BOGUS"]),
    "RescaleSlope": ("DS", ["0", "1", "-1", "1e308", "nan", "inf", "abc", "", "1\\2"]),
    "RescaleIntercept": ("DS", ["0", "-1024", "1e308", "-1e308", "nan", "abc", ""]),
    "WindowCenter": ("DS", ["40", "0", "-1e308", "nan", "inf", "abc", "", "40\\80", "1e308"]),
    "WindowWidth": ("DS", ["400", "0", "1", "-5", "0.5", "nan", "inf", "abc", "", "400\\10", "1e308"]),
    "VOILUTFunction": ("CS", ["LINEAR", "LINEAR_EXACT", "SIGMOID", "BOGUS", ""]),
    "PixelSpacing": ("DS", ["0.5\\0.5", "abc", "", "1", "1\\2\\3", "nan\\inf", "1e999\\1"]),
    "BodyPartExamined": ("CS", ["CHEST", "", "\x00"]),
    "BurnedInAnnotation": ("CS", ["YES", "NO", ""]),
    "Modality": ("CS", ["CT", "", "MR"]),
    "PatientName": ("PN", ["Doe^Jane", "", "=^^"]),
    "RescaleType": ("LO", ["HU", ""]),
}
_TRANSFER_SYNTAXES = ("1.2.840.10008.1.2", "1.2.840.10008.1.2.1", "1.2.840.10008.1.2.2", "1.2.840.10008.1.2.1.99",
                      "1.2.840.10008.1.2.4.50", "1.2.840.10008.1.2.4.51", "1.2.840.10008.1.2.4.57",
                      "1.2.840.10008.1.2.4.70", "1.2.840.10008.1.2.4.80", "1.2.840.10008.1.2.4.90",
                      "1.2.840.10008.1.2.4.91", "1.2.840.10008.1.2.4.201", "1.2.840.10008.1.2.5",
                      "1.2.840.10008.1.2.8.1", "1.2.3.4", "", "abc")


@contextlib.contextmanager
def _pydicom_writes_anything() -> Iterator[None]:
    from pydicom import config

    old_w, old_r = config.settings.writing_validation_mode, config.settings.reading_validation_mode
    config.settings.writing_validation_mode = config.IGNORE
    config.settings.reading_validation_mode = config.IGNORE
    try:
        yield
    finally:
        config.settings.writing_validation_mode, config.settings.reading_validation_mode = old_w, old_r


def _mutate_dicom(r: random.Random, data: bytes) -> tuple[bytes, str]:
    """A header field set to an odd value (through pydicom), or the file meta's transfer syntax swapped."""
    import pydicom
    from pydicom.datadict import tag_for_keyword
    from pydicom.dataelem import DataElement
    from pydicom.dataset import Dataset
    from pydicom.sequence import Sequence

    op = r.choice(["us", "us", "text", "text", "ts", "delete", "pixels", "lut", "seq"])
    try:
        with _pydicom_writes_anything(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if op == "ts" and len(data) >= 144 and data[128:132] == b"DICM":
                meta_end = 144 + struct.unpack("<I", data[140:144])[0]
                ds = pydicom.dcmread(io.BytesIO(data), force=True)
                uid = r.choice(_TRANSFER_SYNTAXES)
                ds.file_meta.TransferSyntaxUID = uid
                buf = pydicom.filebase.DicomBytesIO()
                pydicom.filewriter.write_file_meta_info(buf, ds.file_meta, enforce_standard=True)
                return data[:132] + buf.getvalue() + data[meta_end:], f"dicom-ts={uid}"
            ds = pydicom.dcmread(io.BytesIO(data), force=True)
            if op == "us":
                kw = r.choice(_DICOM_US)
                value = r.choice([0, 1, 2, 3, 4, 7, 8, 12, 15, 16, 17, 24, 31, 32, 33, 64, 255, 7071, 0x7FFF, 0xFFFF])
                ds[tag_for_keyword(kw)] = DataElement(tag_for_keyword(kw), "US", value)
                desc = f"dicom-{kw}={value}"
            elif op == "text":
                kw = r.choice(list(_DICOM_TEXT))
                vr, values = _DICOM_TEXT[kw]
                value = r.choice(values)
                ds[tag_for_keyword(kw)] = DataElement(tag_for_keyword(kw), vr, value)
                desc = f"dicom-{kw}={value!r}"
            elif op == "delete":
                kw = r.choice(list(_DICOM_US) + list(_DICOM_TEXT) + ["PixelData", "FloatPixelData"])
                if kw in ds:
                    del ds[kw]
                desc = f"dicom-delete-{kw}"
            elif op == "pixels":
                kw = next((k for k in ("PixelData", "FloatPixelData") if k in ds), "PixelData")
                old = ds[kw].value if kw in ds else b""
                new = r.choice([old[: r.randint(0, len(old))], old + rbytes(r, r.randint(1, 64)), b"", old * 2,
                                old[:-1]])
                ds[kw].value = new
                desc = f"dicom-{kw}-{len(old)}->{len(new)}"
            elif op == "lut":
                item = Dataset()
                item.LUTDescriptor = [r.choice([0, 1, 2, 256, 4096, 65535]), r.choice([0, 1, 100, 32768, 65535]),
                                      r.choice([0, 1, 8, 16, 17, 32])]
                item.LUTData = rbytes(r, 2 * r.choice([0, 1, 2, 256]))
                which = r.choice(["VOILUTSequence", "ModalityLUTSequence", "palette"])
                if which == "palette":
                    for c in ("Red", "Green", "Blue"):
                        setattr(ds, f"{c}PaletteColorLookupTableDescriptor", list(item.LUTDescriptor))
                        setattr(ds, f"{c}PaletteColorLookupTableData",
                                bytes(rbytes(r, r.choice([0, 2, 512, 513]))))
                    ds.PhotometricInterpretation = "PALETTE COLOR"
                else:
                    if which == "ModalityLUTSequence":
                        item.ModalityLUTType = "HU"
                    setattr(ds, which, Sequence([item]))
                desc = f"dicom-{which}-{list(item.LUTDescriptor)}"
            else:
                item = Dataset()
                for kw in ("WindowCenter", "WindowWidth", "RescaleSlope", "RescaleIntercept"):
                    if chance(r, 0.5):
                        vr, values = _DICOM_TEXT[kw]
                        item[tag_for_keyword(kw)] = DataElement(tag_for_keyword(kw), vr, r.choice(values))
                group = Dataset()
                group.FrameVOILUTSequence = Sequence([item])
                group.PixelValueTransformationSequence = Sequence([item])
                which = r.choice(["SharedFunctionalGroupsSequence", "PerFrameFunctionalGroupsSequence"])
                setattr(ds, which, Sequence([group] * r.choice([0, 1, 2, 5])))
                desc = f"dicom-{which}"
            buf = io.BytesIO()
            ds.save_as(buf, enforce_file_format=False)
            return buf.getvalue(), desc
    except Exception:  # pydicom could not write the odd value: mutate the bytes instead
        return mutate_bytes(r, data)


_HEADER_MUTATORS: dict[str, Callable[[random.Random, bytes], tuple[bytes, str]]] = {
    "png": _mutate_png, "jpeg": _mutate_jpeg, "tiff": _mutate_tiff, "bmp": _mutate_bmp, "dicom": _mutate_dicom,
    "nifti": _mutate_nifti,
}
IMAGE_NAMES = ("x.png", "x.jpg", "x.jpeg", "x.tif", "x.tiff", "x.bmp", "x.dcm", "x.DCM", "x.dicom", "x.nii",
               "x.nii.gz", "x.hdr", "x.txt", "x", ".dcm", "scan with spaces.dcm", "ünïcødé.png", "a/b.dcm",
               "x.gz", "x.jpg.dcm")


def make_image_case(r: random.Random) -> Case:
    seeds = image_seeds()
    kind = pick(r, {"seed": 90, "garbage": 3, "empty": 1, "cross": 6})
    desc: list[str] = []
    if kind == "seed":
        seed_name = r.choice(sorted(seeds))
        fmt, fname, data = seeds[seed_name]
        desc.append(seed_name)
        for _ in range(pick(r, {0: 5, 1: 60, 2: 25, 3: 10})):
            if chance(r, 0.45):
                try:
                    data, what = _HEADER_MUTATORS[fmt](r, data)
                except (struct.error, ValueError, OverflowError, IndexError):  # a field the file is too short for
                    data, what = mutate_bytes(r, data)
            else:
                data, what = mutate_bytes(r, data)
            desc.append(what)
    elif kind == "garbage":
        data = rbytes(r, r.choice([1, 2, 8, 131, 132, 348, 540, 1000]))
        fname = r.choice(IMAGE_NAMES)
        desc.append("random-bytes")
    elif kind == "empty":
        data, fname = b"", r.choice(IMAGE_NAMES)
        desc.append("empty")
    else:  # one format's magic or wrapper around another's body
        seed_name = r.choice(sorted(seeds))
        fmt, fname, body = seeds[seed_name]
        how = r.choice(["gzip", "dicm", "png-magic", "jpeg-magic", "nifti-magic", "bm", "tiff-magic", "gzip-trunc"])
        if how == "gzip":
            data = gzip.compress(body, mtime=0)
        elif how == "gzip-trunc":
            data = gzip.compress(body, mtime=0)[: r.randint(2, 40)]
        elif how == "dicm":
            data = b"\x00" * 128 + b"DICM" + body
        elif how == "png-magic":
            data = b"\x89PNG\r\n\x1a\n" + body
        elif how == "jpeg-magic":
            data = b"\xff\xd8\xff" + body
        elif how == "bm":
            data = b"BM" + body
        elif how == "tiff-magic":
            data = b"II*\x00" + body
        else:
            data = body[:344].ljust(344, b"\x00") + b"n+1\x00" + body[348:]
        desc += [seed_name, f"cross-{how}"]
    if chance(r, 0.15):
        fname = r.choice(IMAGE_NAMES)
        desc.append(f"name={fname}")
    opts: dict[str, Any] = {"max_pixels": r.choice([2_000_000, 2_000_000, 2_000_000, 100, 10_000, None])}
    if chance(r, 0.25):
        opts.update(_image_options(r))
    desc.append(f"opts={ {k: v for k, v in opts.items() if k != 'max_pixels'} }")
    return Case("images", " | ".join(desc), {"data": data, "name": fname, "opts": opts},
                files={_safe_file_name(fname): data})


def _image_options(r: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if chance(r, 0.4):
        out["window"] = r.choice([(40, 400), (0, 1), (0.5, 1e-300), (1e308, 1e308), (float("nan"), 1), (0, 0),
                                  (0, -5), (0, float("inf")), "ab", (1, 2, 3), (1,), ("1", "2"), None, [40, 400]])
    if chance(r, 0.4):
        out["frame"] = r.choice([0, 1, 2, 5, -1, True, 1.5, 2**63, "1", None, np.int64(1)])
    if chance(r, 0.4):
        out["axis"] = r.choice([0, 1, 2, 3, -1, None, "x", 1.0, True, np.int64(2)])
    if chance(r, 0.4):
        out["slice"] = r.choice([0, 1, 3, -1, 10**9, 1.5, True, None, "2", np.int64(1), 2**70])
    return out


def _safe_file_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name) or "input"


def run_image_case(case: Case, workdir: Path) -> str:
    from probe_ui.images import ImageError, LoadedImage, load_image

    p = case.payload
    name = p["name"] or "uploaded image"
    try:
        loaded = load_image(p["data"], name=p["name"], **p["opts"])
    except ImageError as exc:
        if name not in str(exc):
            raise Bug(f"ImageError does not name the file {name!r}: {exc}") from exc
        return "typed"
    if not isinstance(loaded, LoadedImage):
        raise Bug(f"load_image returned {type(loaded).__name__}")
    if loaded.image.mode not in ("L", "RGB") or not loaded.image.id:
        raise Bug(f"not canonical pixels: {loaded.image!r}")
    json.dumps(loaded.info)  # promised JSON-able
    return "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Structured documents (YAML presets, backend YAML, importers' JSON): tree mutations and text mutations
# ----------------------------------------------------------------------------------------------------------------

WEIRD_STRINGS = ("", " ", "\t", "yes", "no", "Yes", "NO", "~", "null", "true", "A", "(B)", "Z", "é", "日本語",
                 "\u202e", "\x00", "\x7f", "\x1b[31m", "\ufeff", "😀", "2001-12-14", "0x1F", "1e400", "-.inf",
                 ".nan", "*alias", "&anchor", "!!python/object", "%", "{", "[", ": ", "- ", "#", "'", '"', "\\",
                 "\n", "\r\n", "\u2028", "\u0085", "a" * 300, "x" * 5000, "../../etc/passwd", "/abs/path.png",
                 "C:\\x.png", "a/b", "original", "__proto__", "constructor", "0", "-0", "1_000", "<<", "=")


def weird_value(r: random.Random, depth: int = 0, extra: tuple[Any, ...] = ()) -> Any:
    kind = pick(r, {"str": 5, "num": 3, "const": 2, "list": 2, "dict": 2, "extra": 4 if extra else 0})
    if kind == "extra":
        return _copy(r.choice(extra))
    if kind == "str":
        if chance(r, 0.2):
            return "".join(chr(r.choice([r.randint(32, 126), r.randint(0xA0, 0x2FFF), r.randint(0x1F300, 0x1F6FF),
                                         r.randint(1, 31)])) for _ in range(r.randint(0, 12)))
        return r.choice(WEIRD_STRINGS)
    if kind == "num":
        return r.choice([0, -1, 1, 2, 3, 255, 2**31, 2**63, 2**64 + 1, 10**30, -10**30, 0.5, -0.0, 1e308,
                         float("inf"), float("-inf"), float("nan"), 3.0, 10**400 if chance(r, 0.3) else 7])
    if kind == "const":
        return r.choice([None, True, False])
    if depth > 3:
        return None
    if kind == "list":
        return [weird_value(r, depth + 1, extra) for _ in range(r.choice([0, 1, 2, 3, 30]))]
    return {r.choice(["a", "id", "path", "", "1", "x y", "items"]): weird_value(r, depth + 1, extra)
            for _ in range(r.choice([0, 1, 2, 3]))}


def _nodes(obj: Any, limit: int = 3000) -> list[tuple[Any, Any]]:
    """(container, key) of every value inside ``obj`` (breadth first, at most ``limit``)."""
    out: list[tuple[Any, Any]] = []
    queue = [obj]
    while queue and len(out) < limit:
        cur = queue.pop(0)
        if isinstance(cur, dict):
            for k, v in cur.items():
                out.append((cur, k))
                queue.append(v)
        elif isinstance(cur, list):
            for i, v in enumerate(cur):
                out.append((cur, i))
                queue.append(v)
    return out


def _copy(obj: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars): several times faster than copy.deepcopy."""
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_copy(v) for v in obj]
    return obj


def mutate_tree(r: random.Random, doc: Any, extra: tuple[Any, ...] = (), keys: tuple[str, ...] = ()) -> tuple[Any, str]:
    """One structural mutation of a JSON/YAML document (a deep copy is mutated)."""
    doc = _copy(doc)
    nodes = _nodes(doc)
    op = pick(r, {"replace": 6, "delete": 3, "add-key": 2, "wrap": 1, "type": 2, "dup": 1, "clear": 1,
                  "rename": 1, "top": 0.3, "sentinel": 1.5})
    if op == "top" or not nodes:
        return weird_value(r, extra=extra), "top-level=weird"
    container, key = r.choice(nodes)
    value = container[key]
    name = f"{key!r:.30}"
    if op == "replace":
        container[key] = weird_value(r, extra=extra)
        return doc, f"replace({name})"
    if op == "delete":
        del container[key]
        return doc, f"delete({name})"
    if op == "add-key":
        target = value if isinstance(value, dict) else container if isinstance(container, dict) else None
        if target is None:
            container.insert(key, weird_value(r, extra=extra))  # type: ignore[union-attr]
            return doc, f"insert({name})"
        new_key = r.choice(list(keys) + ["unknown_field", "Id", "id ", "", "extra", "\u00e9", "1"])
        target[new_key] = weird_value(r, extra=extra)
        return doc, f"add-key({new_key!r})"
    if op == "wrap":
        container[key] = r.choice([[value], {"value": value}, [value, value]])
        return doc, f"wrap({name})"
    if op == "type":
        if isinstance(value, str):
            container[key] = r.choice([int(value) if value.isdecimal() and len(value) < 100 else len(value),
                                       list(value[:5]), {value: value}, value.encode("utf-8", "surrogatepass").hex(),
                                       None, float(len(value))])
        elif isinstance(value, bool) or value is None:
            container[key] = r.choice(["yes", "True", 1, 0, "", []])
        elif isinstance(value, (int, float)):
            container[key] = r.choice([str(value) if abs(value) < 10**1000 else "1e1000", [value],
                                       -value if value == value else 0, value * 10**20,
                                       value + 0.5 if isinstance(value, int) and abs(value) < 2**53 else 1e300,
                                       bool(value)])
        elif isinstance(value, list):
            container[key] = r.choice([value[0] if value else "", {str(i): v for i, v in enumerate(value)},
                                       " ".join(map(str, value)), len(value)])
        elif isinstance(value, dict):
            container[key] = r.choice([list(value.values()), list(value.keys()), str(value), len(value)])
        return doc, f"type({name})"
    if op == "dup":
        if isinstance(value, list) and value:
            value.extend(_copy(value[: r.randint(1, len(value))]))
        elif isinstance(container, list):
            container.insert(key, _copy(value))
        return doc, f"dup({name})"
    if op == "clear":
        container[key] = type(value)() if isinstance(value, (list, dict, str)) else None
        return doc, f"clear({name})"
    if op == "rename" and isinstance(container, dict):
        new_key = r.choice([str(key).upper(), f"{key}_", f" {key}", str(key)[:-1], "", 1,
                            None if chance(r, 0.2) else "x"])
        if new_key not in container:
            container[new_key] = container.pop(key)
        return doc, f"rename({name}->{new_key!r})"
    container[key] = r.choice(["__LAUGHS__", "__DEEP__", "__RECURSIVE__", "__ALIAS__"])
    return doc, f"sentinel({name})={container[key]}"


def _laughs(levels: int, width: int) -> str:
    parts = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        parts.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "{" + ", ".join(parts) + "}"


def _deep_yaml(r: random.Random) -> str:
    n = pick(r, {10: 3, 100: 3, 500: 2, 1000: 2, 5000: 0.7, 50000: 0.3})
    if chance(r, 0.5):
        return "[" * n + "]" * n
    return "{a: " * n + "1" + "}" * n


def emit_yaml(r: random.Random, doc: Any) -> str:
    """YAML text for a document, in a random style, with the tree sentinels expanded."""
    import yaml

    style = r.choice(["block", "flow", "mixed", "json"])
    try:
        if style == "json":
            text = json.dumps(doc, ensure_ascii=chance(r, 0.5), indent=r.choice([None, 2]), default=str)
        else:
            text = yaml.dump(doc, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                             default_flow_style={"block": False, "flow": True, "mixed": None}[style],
                             allow_unicode=chance(r, 0.5), sort_keys=chance(r, 0.2), width=r.choice([80, 10**6, 20]))
    except Exception:  # a value the emitter refuses (e.g. a lone surrogate): emit it as JSON
        text = json.dumps(doc, ensure_ascii=True, default=str)
    if "__LAUGHS__" in text:
        text = text.replace("__LAUGHS__", _laughs(r.choice([3, 6, 9]), r.choice([3, 9])), 1)
    if "__DEEP__" in text:
        text = text.replace("__DEEP__", _deep_yaml(r), 1)
    if "__RECURSIVE__" in text:
        text = text.replace("__RECURSIVE__", r.choice(["&r [*r]", "&r {a: *r}", "&r [1, [*r]]"]), 1)
    if "__ALIAS__" in text:
        text = text.replace("__ALIAS__", r.choice(["*nope", "&a x", "&a [1] ", "!!binary aGk=", "!!set {a}",
                                                   "!!omap [a: 1]", "!!python/name:os.system",
                                                   "!!timestamp 2001-12-14", "!!float 1e999", "!!int 0b101",
                                                   "!<tag:yaml.org,2002:str> x", "!!merge <<"]), 1)
    return text


YAML_SNIPPETS = ("\t", "\x00", ":", "- ", "&a ", "*a", "*undefined", "!!binary ",
                 "!!python/object/apply:os.system ['x']",
                 "? ", "{", "}", "[", "]", '"', "'", "#", "%YAML 1.1\n", "---\n", "...\n", "<<: *a\n", "\ufeff",
                 "\u2028", "\x85", "\r", "\x1b", "\\", "|", ">", "%TAG ! tag:x,2000:\n", "!x ", "\t- ", "  ",
                 "@", "`", "\ud7ff", "\uffff")


def mutate_text(r: random.Random, text: str, snippets: tuple[str, ...]) -> tuple[str, str]:
    op = pick(r, {"truncate": 2, "snippet": 4, "delete": 2, "tab": 2, "dup-line": 1, "char": 2, "crlf": 0.5})
    n = len(text)
    if op == "truncate":
        at = r.randint(0, n)
        return text[:at], f"truncate({at})"
    if op == "snippet":
        at = r.randint(0, n)
        s = r.choice(snippets)
        return text[:at] + s + text[at:], f"insert({at}, {s!r})"
    if op == "delete":
        at = r.randint(0, n)
        k = r.randint(1, 40)
        return text[:at] + text[at + k:], f"delete({at}, {k})"
    if op == "tab":
        lines = text.split("\n")
        i = r.randrange(len(lines))
        stripped = lines[i].lstrip(" ")
        lines[i] = "\t" * max(1, (len(lines[i]) - len(stripped)) // 2) + stripped
        return "\n".join(lines), f"tab-indent(line {i + 1})"
    if op == "dup-line":
        lines = text.split("\n")
        i = r.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines), f"dup-line({i + 1})"
    if op == "crlf":
        return text.replace("\n", "\r\n"), "crlf"
    at = r.randint(0, max(0, n - 1))
    c = chr(r.choice([r.randint(0, 0x7F), r.randint(0x80, 0xFFFF), r.randint(0x10000, 0x10FFFF)]))
    if 0xD800 <= ord(c) <= 0xDFFF:
        c = "\ufffd"
    return text[:at] + c + text[at + 1:], f"char({at}, {c!r})"


def encode_text(r: random.Random, text: str) -> tuple[bytes, str]:
    how = pick(r, {"utf-8": 90, "utf-8-sig": 2, "utf-16": 2, "latin-1": 2, "bad-byte": 3, "surrogate": 1})
    if how == "utf-16":
        return text.encode("utf-16", "surrogatepass"), how
    if how == "latin-1":
        return text.encode("latin-1", "replace") + "é".encode("latin-1"), how
    raw = text.encode("utf-8-sig" if how == "utf-8-sig" else "utf-8", "surrogatepass")
    if how == "bad-byte":
        at = r.randint(0, len(raw))
        bad = r.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])
        return raw[:at] + bad + raw[at:], how
    if how == "surrogate":
        at = r.randint(0, len(raw))
        return raw[:at] + b"\xed\xb2\x80" + raw[at:], how
    return raw, how


def make_yaml_document(r: random.Random, seeds: list[Any], extra: tuple[Any, ...],
                       keys: tuple[str, ...]) -> tuple[bytes, str]:
    """A YAML file: a seed document, a few tree mutations, a random emitter style, maybe text/byte mutations."""
    desc = []
    kind = pick(r, {"seed": 92, "random": 3, "garbage": 2, "deep": 2, "empty": 1})
    if kind == "random":
        text = emit_yaml(r, weird_value(r, extra=extra))
        desc.append("random-document")
    elif kind == "garbage":
        data = rbytes(r, r.randint(1, 200))
        return data, "random-bytes"
    elif kind == "deep":
        text = r.choice(["items: ", "", "generation: ", "items:\n  - attributes: "]) + _deep_yaml(r)
        desc.append("deep-nesting")
    elif kind == "empty":
        text = r.choice(["", "\n", "---\n", "~", "# comment only\n", "items:", "[]", "{}"])
        desc.append(f"empty({text!r})")
    else:
        i = r.randrange(len(seeds))
        doc = seeds[i]
        desc.append(f"seed#{i}")
        for _ in range(pick(r, {0: 8, 1: 55, 2: 25, 3: 12})):
            doc, what = mutate_tree(r, doc, extra, keys)
            desc.append(what)
        text = emit_yaml(r, doc)
    for _ in range(pick(r, {0: 70, 1: 22, 2: 8})):
        text, what = mutate_text(r, text, YAML_SNIPPETS)
        desc.append(what)
    data, enc = encode_text(r, text)
    if enc != "utf-8":
        desc.append(enc)
    return data, " | ".join(desc)


# ----------------------------------------------------------------------------------------------------------------
# Presets
# ----------------------------------------------------------------------------------------------------------------

_PRESET_SEEDS: list[Any] | None = None


def preset_seeds() -> list[Any]:
    global _PRESET_SEEDS
    if _PRESET_SEEDS is None:
        import yaml

        seeds = []
        for path in sorted((ROOT / "presets").glob("*.yaml")):  # the bundled presets, cut to three items each:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))  # loading a preset is pure-Python YAML, slow
            doc["items"] = doc["items"][:3]
            seeds.append(doc)
        seeds.append({
            "name": "fuzz", "description": "every field", "prompt": "default", "include_original": False,
            "suites": ["rotations"],
            "perturbations": [{"name": "rot", "steps": [{"op": "rotate", "angle": 90}], "only_tags": ["t"]},
                              {"name": "blurred", "steps": [{"op": "blur", "severity": 2}, {"op": "shuffle"}]}],
            "items": [
                {"id": "c1", "question": "Which?", "kind": "choice", "options": ["left", "right", "both"],
                 "answer": "B", "image": {"path": "x.dcm", "window": [40, 400], "frame": 0, "axis": 2, "slice": 3},
                 "category": ["CT"], "tags": ["t"], "group": "g", "attributes": {"k": [1, {"a": None}]},
                 "perturbations": [{"name": "mine", "steps": [{"op": "flip", "axis": "h"}]}], "suites": ["circular"]},
                {"id": "y1", "question": "Is there a mass?", "answer": "yes", "images": ["a.png", {"path": "b.nii"}]},
                {"id": "l1", "question": "Which colour?", "labels": ["red", "green"], "answer": "red"},
                {"id": "f1", "question": "Describe."},
            ],
        })
        _PRESET_SEEDS = seeds
    return _PRESET_SEEDS


def _preset_extra() -> tuple[Any, ...]:
    from probe_ui.perturb import all_perturbations

    ops = [p.name for p in all_perturbations()]
    return (
        {"op": "rotate", "angle": 90}, {"op": "rotate"}, {"op": "nope"}, {"op": "blur", "severity": "x"},
        *({"op": op} for op in ops),
        {"op": "swap", 1: 2}, {"op": "dots", "labels": True, "answer_map": {"a": "b"}},
        {"name": "c", "steps": [{"op": "flip"}]}, {"name": "original", "steps": [{"op": "flip", "axis": "v"}]},
        {"id": "q", "question": "Q?", "options": ["a", "a"]}, {"id": "q", "question": "Q?", "labels": ["x"]},
        {"id": "q", "question": "Q?", "options": [f"o{i}" for i in range(30)], "answer": "Z"},
        {"id": "q", "question": "Q?", "kind": "yesno", "answer": "maybe"},
        {"id": "q", "question": "Q?", "image": "a.png", "images": ["b.png"]},
        {"path": "x.dcm", "window": [1, 2, 3]}, {"path": "x.dcm", "frame": -1}, {"path": 5},
        ["rotations", "nope"], "circular", "medvh",
    )


PRESET_KEYS = ("name", "description", "prompt", "include_original", "perturbations", "suites", "items", "id",
               "question", "kind", "image", "images", "options", "labels", "answer", "category", "tags", "group",
               "attributes", "steps", "op", "only_tags", "path", "window", "frame", "axis", "slice", "seed_group",
               "answer_map")


def make_preset_case(r: random.Random) -> Case:
    data, desc = make_yaml_document(r, preset_seeds(), _preset_extra(), PRESET_KEYS)
    return Case("presets", desc, {"data": data}, files={"preset.yaml": data})


def load_preset_or_none(path: Path) -> Any:
    """``load_preset(path)``, or None when it refuses the file with a PresetError (which must name the file)."""
    from probe_ui.presets import PresetError, load_preset

    try:
        return load_preset(path)
    except PresetError as exc:
        if str(path) not in str(exc):
            raise Bug(f"PresetError does not name the file: {exc}") from exc
        return None


def run_preset_case(case: Case, workdir: Path) -> str:
    from probe_ui.presets import Preset

    path = workdir / "preset.yaml"
    path.write_bytes(case.payload["data"])
    preset = load_preset_or_none(path)
    if preset is None:
        return "typed"
    if not isinstance(preset, Preset):
        raise Bug(f"load_preset returned {type(preset).__name__}")
    return "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Model specs and backend YAML (catalogue)
# ----------------------------------------------------------------------------------------------------------------

_BACKEND_SEEDS: list[Any] | None = None
_CATALOGUE: dict[str, Any] | None = None


def backend_seeds() -> list[Any]:
    global _BACKEND_SEEDS
    if _BACKEND_SEEDS is None:
        import yaml

        _BACKEND_SEEDS = [yaml.safe_load(p.read_text(encoding="utf-8"))
                          for p in sorted((ROOT / "backends").glob("*.yaml"))]
    return _BACKEND_SEEDS


SPEC_PIECES = ("openai", "anthropic", "baseline", "hf", "ollama", "vllm", "OpenAI", "unknown", "random", "gpt-4o",
               "claude-haiku", "Qwen", "Qwen2.5-VL-7B-Instruct", "llava:latest", "", " ", "\t", "\n", "\x00", "é",
               "😀", ":", "..", "~", "$HOME", "a" * 1000, "/", "//", "\\", "%2F", "\u202e", "*", "?", "-")


def make_catalogue_case(r: random.Random) -> Case:
    if chance(r, 0.5):
        n = r.randint(0, 6)
        parts = [r.choice(SPEC_PIECES) for _ in range(n)]
        sep = r.choice(["/", "", " ", "/"])
        spec = sep.join(parts)
        if chance(r, 0.2):
            spec = "".join(chr(r.randint(0, 0x2FFF)) for _ in range(r.randint(0, 30)))
        if chance(r, 0.05):
            spec = r.choice(["openai/", "A" * 100_000, "/" * 50_000, "openai/" + "x/" * 20_000])
        catalogue = pick(r, {"loaded": 70, "empty": 25, "none": 5})
        return Case("catalogue", f"resolve({spec[:60]!r})", {"spec": spec, "catalogue": catalogue},
                    files={"spec.txt": spec.encode("utf-8", "surrogatepass")})
    extra = ({"temperature": 0}, "openai", "vllm", "nope", "http://127.0.0.1:8000/v1", ["http://a", "http://b"],
             -1, 0, 2**70, "OPENAI_API_KEY")
    keys = ("name", "provider", "model", "base_url", "api_key_env", "generation", "max_image_side",
            "price_input_per_m", "price_output_per_m", "concurrency", "needs", "description", "options")
    data, desc = make_yaml_document(r, backend_seeds(), extra, keys)
    return Case("catalogue", f"load_entry: {desc}", {"entry": data}, files={"entry.yaml": data})


def run_catalogue_case(case: Case, workdir: Path) -> str:
    from probe_ui.catalogue import load_catalogue, load_entry, resolve
    from probe_ui.providers import PROVIDERS
    from probe_ui.providers.base import ModelConfig, ModelSpecError

    global _CATALOGUE
    p = case.payload
    if "spec" in p:
        if _CATALOGUE is None:
            _CATALOGUE = load_catalogue()
        cat = {"loaded": _CATALOGUE, "empty": {}, "none": None}[p["catalogue"]]
        try:
            cfg = resolve(p["spec"], cat)
        except ModelSpecError:
            return "typed"
    else:
        path = workdir / "entry.yaml"
        path.write_bytes(p["entry"])
        try:
            cfg = load_entry(path)
        except ModelSpecError as exc:
            if str(path) not in str(exc):
                raise Bug(f"ModelSpecError does not name the file: {exc}") from exc
            return "typed"
    if not isinstance(cfg, ModelConfig) or cfg.provider not in PROVIDERS:
        raise Bug(f"not a usable ModelConfig (provider {getattr(cfg, 'provider', None)!r:.80})")
    # a run stores the entry's generation settings and options as JSON (runner.public_config, request hashes)
    json.dumps({"generation": cfg.generation, "options": cfg.options})
    return "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Answer extraction
# ----------------------------------------------------------------------------------------------------------------

ANSWER_PIECES = (
    "The answer is ", "Answer: ", "answer is not ", "The correct answer is: ", "correct option is ", "I choose ",
    "Final answer: ", "**Answer: ", "**", "*", "__", "<answer>", "</answer>", " is the correct answer", "it is ",
    "I think ", "\\boxed{", "}", "{", "`", "```", "(", ")", "[", "]", "option ", "Option", " or ", " and ", "/",
    ", ", ". ", ": ", "\n", "\n\n", " ", "\t", "A", "B", "C", "D", "E", "Z", "I", "a", "b", "(A)", "(B)", "[C]",
    "A.", "B)", "A:", "yes", "No", "Yes.", "no,", "upside down", "not ", "no ", "without ", "isn't ",
    "I cannot determine", "As an AI", "I'm sorry, but I can't", "not possible to tell", "clearly ",
    "most likely ", "because ", "the ", "letter ", "choice ", "\\text{", "\\textbf{B}", "#", "## ", "> ", "- ",
    "\u2022 ", "\u201cB\u201d", "\u2019", "\uff08B\uff09", "\uff1a", "\u00a0", "\u2013", "é", "ß", "İ", "ﬁ",
    "\u0301", "\u200b", "\u202e", "\x00", "\x1b", "\x7f", "\r", "\x0b", "\x0c", "\x1c", "\u0085", "\u2028", "😀",
    "𝐀", "Ａ", "red", "green", "correct", "incorrect", "correctly", "normal", "left", "right", "\ud800",
)
BIG_PIECES = ("A", "(", ")", "A ", "answer ", "The answer is ", "\\boxed{", "`", "*", "**", "(A)", " ", "\n", "A or ",
              "a", ", ", "I think ", "not ", "option ", "most ", "#", "can not ", "[", "{", "\\boxed{{", "answer: ",
              "yes ", "no ", "upside ", "B.", "\t", "A\n", "(((", "a b ", "I cannot ", "<answer>", "- A\n",
              "mass ", "it is ")
OPTION_POOL = ("mass", "mass lesion", "pneumothorax", "no pneumothorax", "A", "B", "(A)", "yes", "no",
               "upside down", "left", "right", "both", "none of the above", "", " ", "(.*)+", "[", "\\", "$^", "é",
               "ÉCHO", "İstanbul", "ﬁbrosis", "\x00", "The answer is A", "answer", "a" * 300, "not", "Left.",
               "left lung", "right-sided", "correct", "incorrect", "**bold**", "`code`", "\\boxed{A}", "\n", "??",
               "😀", "(B) b", "B: b")


def _answer_text(r: random.Random, options: list[str], labels: list[str]) -> str:
    if chance(r, 0.01):  # JSON nested deeper than the parser goes, fenced or not (it once raised RecursionError)
        n = r.choice([1_000, 10_000, 50_000])
        opening, closing = r.choice([('{"answer": ', "}"), ('{"a": ', "}"), ("[", "]"), ('{"choices": [', "]}")])
        body = opening * n + r.choice(['"A"', "1", "null", '"yes"']) + closing * n
        return f"```json\n{body}\n```" if chance(r, 0.5) else body
    if chance(r, 0.02):  # big and pathological
        target = r.choice([10_000, 50_000, 100_000])
        parts = []
        for _ in range(r.choice([1, 1, 2, 3])):
            piece = r.choice(BIG_PIECES + tuple(o for o in options[:3] if o) + tuple(labels[:2]))
            if not piece:
                piece = "A"
            parts.append(piece * max(1, target // len(piece) // 2))
            parts.append(r.choice(ANSWER_PIECES))
        return "".join(parts)[:target + 100]
    pieces = ANSWER_PIECES + tuple(options) + tuple(labels)
    n = r.choice([0, 1, 1, 2, 3, 5, 8, 13, 30])
    out = []
    for _ in range(n):
        if chance(r, 0.05):
            out.append("".join(chr(r.choice([r.randint(0, 0x7F), r.randint(0x80, 0x2FFF), r.randint(0x1F300, 0x1F6FF)]))
                               for _ in range(r.randint(1, 20))))
        else:
            p = r.choice(pieces)
            out.append(p * r.choice([1, 1, 1, 2, 50]) if chance(r, 0.2) and len(p) <= 100 else p)
    return "".join(out)[:100_000]


def make_answer_case(r: random.Random) -> Case:
    kind = pick(r, {"choice": 5, "yesno": 2, "label": 2, "free": 0.5})
    if kind == "choice":
        n = r.choice([0, 1, 2, 2, 3, 4, 5, 5, 8, 26, 30])
        labels = list(LETTERS[:n]) + [f"{i}" for i in range(max(0, n - 26))]
        options = [r.choice(OPTION_POOL) if chance(r, 0.7) else f"finding {i}" for i in range(n)]
        if chance(r, 0.03):
            options = options + ["x" * r.choice([1000, 20_000])]
            labels = labels + ["Z"]
    elif kind == "yesno":
        labels = r.choice([["yes", "no"], ["yes", "no"], ["Yes", "No"], ["", "no"], ["yes"]])
        options = []
    elif kind == "label":
        labels = r.choice([["red", "green", "blue"], ["upside down", "normal"], ["correct", "incorrect"],
                           ["left", "right", "both"], ["a", "a"], ["", " "], ["(.*)+", "\\"]])
        labels = labels + [r.choice(OPTION_POOL) for _ in range(r.choice([0, 0, 1, 3]))]
        options = []
    else:
        labels, options = [], []
    if chance(r, 0.08):  # labels from a damaged file
        labels = [r.choice(("a", "AB", "", " ", "1", "é", "(A)", "A", "A", "İ", "ß", "\x00", "**")) for _ in
                  range(r.randint(0, 6))]
    if chance(r, 0.08):
        options = [r.choice(OPTION_POOL) for _ in range(r.randint(0, 6))]
    text = _answer_text(r, options, labels)
    from probe_ui.benchmarks import legacy_modes

    mode = None if chance(r, 0.7) else r.choice(sorted(legacy_modes()))
    gt = r.choice([None, "", "A", "B", "A: Yes", "yes", "no", "Yes", "(B)", " ", "é", "maybe"] + labels[:2])
    payload = {"text": text, "kind": kind, "labels": labels, "options": options, "mode": mode, "gt": gt}
    desc = f"{mode or 'robust'} {kind} labels={labels[:6]!r:.80} len(text)={len(text)} text={text[:60]!r}"
    files = {"text.txt": text.encode("utf-8", "surrogatepass"),
             "case.json": json.dumps({k: v for k, v in payload.items() if k != "text"}).encode()}
    return Case("answers", desc, payload, files=files)


def run_answer_case(case: Case, workdir: Path) -> str:
    from probe_ui.reading.answers import Answer, extract, extract_legacy, is_correct

    p = case.payload
    if p["mode"] is None:
        ans = extract(p["text"], p["kind"], p["labels"], p["options"])
        if ans.choice is not None and ans.choice not in p["labels"]:
            raise Bug(f"extract chose {ans.choice!r}, not one of the labels {p['labels']!r}")
    else:
        ans = extract_legacy(p["mode"], p["text"], p["kind"], p["labels"], p["options"], p["gt"])
    if not isinstance(ans, Answer):
        raise Bug(f"returned {type(ans).__name__}")
    is_correct(ans, p["gt"])
    return "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Importers
# ----------------------------------------------------------------------------------------------------------------

IMPORT_DATA = TEST_DATA / "importers"
# (format, mode, file, dataset, options): every importer seed, results files and question files
_IMPORT_SEEDS: tuple[tuple[str, str, str, str | None, dict[str, Any]], ...] = (
    ("mediconfusion", "results", "gpt4o_mc.json", "mediconfusion_dataset.json", {}),
    ("mediconfusion", "results", "claude_mc.json", "mediconfusion_dataset.json", {}),
    ("mediconfusion", "questions", "mediconfusion_dataset.json", None, {}),
    ("probmed", "results", "gpt4o_probmed.json", None, {}),
    ("probmed", "questions", "probmed:questions", None, {}),
    ("medvh", "results", "gpt4o_test_nota_src.json", None, {"task": "nota"}),
    ("medvh", "results", "gpt4o_test_nota_baseline.json", None, {"task": "nota"}),
    ("medvh", "results", "gpt4o_test_cli_src.json", None, {"task": "cli"}),
    ("medvh", "results", "gpt4o_test_wrongful_image_baseline_src.json", None, {"task": "wrongful_image"}),
    ("medvh", "results", "gpt4o_test_FCJ_src.json", None, {"task": "fcj"}),
    ("medvh", "questions", "gpt4o_test_FCJ_src.json", None, {"task": "fcj"}),
    ("medvh", "questions", "gpt4o_test_nota_src.json", None, {"task": "nota"}),
    ("medvh", "questions", "gpt4o_test_wrongful_image_baseline_src.json", None, {"task": "wrongful_image"}),
    ("blink", "results", "gpt4o_predictions.json", "blink_items.json", {}),
    ("blink", "results", "gpt4o_predictions.json", None, {}),
    ("blink", "questions", "blink_items.json", None, {}),
)
IMPORT_VALUES = ("A", "B", "(A)", "(B)", "(Z)", "(E)", "E", "Z", "a", "A: Yes", "B: No.", "t: moderate", "yes", "no",
                  "YES", "Yes.", "hidden", "val_Relative_Depth_1", "test_Counting_3", "val_", "test_", "_", "val",
                  "A: x. B: y.", "A: x", "A: . B: .", "A:B:C:", "(A): x (B): y", "A: x, B: y, C: z", "B: y. A: x.",
                  "A: " + ". ".join(f"{c}: {c.lower()}" for c in LETTERS[1:]) + ".", "modality_gt", "entity_hallu_2",
                  "abnormality", "grounding_gt_1", "im1", "im2", "10001", "Cerebral", "\ud800", "\udfff",
                  "x\ud83d", "\u0000", "\ufeff", "nota", "A: Yes\u2028B: No", "foo_1", "val_1", "test",
                  [f"choice {i}" for i in range(30)], ["a", "a"], ["only one"], [], ["a", 1], [None, "b"],
                  "".join(f"{c}: {c.lower()}{i}. " for i, c in enumerate(LETTERS)) + "[: x.",
                  {"path": "val_Relative_Depth_1_1.jpg"}, {"path": 3})


def _load_import_seed(name: str) -> Any:
    if name == "probmed:questions":  # the question file: ``answer`` instead of ``gt_ans``, no ``response``
        rows = json.loads((IMPORT_DATA / "gpt4o_probmed.json").read_text(encoding="utf-8"))
        return [{("answer" if k == "gt_ans" else k): v for k, v in row.items() if k != "response"} for row in rows]
    return json.loads((IMPORT_DATA / name).read_text(encoding="utf-8"))


_IMPORT_CACHE: dict[str, Any] = {}


def import_seed(name: str) -> Any:
    if name not in _IMPORT_CACHE:
        _IMPORT_CACHE[name] = _load_import_seed(name)
    return _IMPORT_CACHE[name]


JSON_SNIPPETS = ("NaN", "Infinity", "-Infinity", "1" * 5000, "1e999", "\\ud800", "\\udc00", "\\u0000", '"', "\\",
                 "[", "{", "]", "}", ",", ":", "\ufeff", "null", "true", "\x00", "\n", "//", "/*", "'")


def emit_json(r: random.Random, doc: Any) -> str:
    if isinstance(doc, list) and chance(r, 0.1):  # JSON lines
        text = "\n".join(json.dumps(x, ensure_ascii=chance(r, 0.5)) for x in doc)
    else:
        text = json.dumps(doc, ensure_ascii=chance(r, 0.5), indent=r.choice([None, 1]))
    if '"__DEEP__"' in text:
        n = r.choice([10, 100, 900, 1000, 5000, 100000])
        text = text.replace('"__DEEP__"', "[" * n + "]" * n, 1)
    for s in ("__LAUGHS__", "__RECURSIVE__", "__ALIAS__"):
        text = text.replace(f'"{s}"', r.choice(['"\\ud800"', '"\\udc00x"', "1e999", "-0", "NaN", "[]", "{}",
                                                '"' + "x" * 100000 + '"', "1" + "0" * 4400]), 1)
    return text


def reshape(r: random.Random, doc: Any) -> tuple[Any, str]:
    """Another top-level layout of the same records: a plain list, {"val": [...]}, {"data": [...]}, keyed by id."""
    if isinstance(doc, dict) and any(isinstance(doc.get(k), list) for k in ("val", "test", "data")):
        records = [x for k in ("val", "test", "data") if isinstance(doc.get(k), list) for x in doc[k]]
    elif isinstance(doc, dict):
        records = list(doc.values())
    elif isinstance(doc, list):
        records = doc
    else:
        return doc, "reshape-none"
    how = r.choice(["list", "val", "test", "both", "data", "records", "keyed", "keyed-idx", "nested"])
    if how == "list":
        return records, "reshape-list"
    if how in ("val", "test", "data", "records"):
        return {how: records}, f"reshape-{how}"
    if how == "both":
        return {"val": records, "test": records[:1]}, "reshape-both"
    if how == "keyed":
        return {str(i): rec for i, rec in enumerate(records)}, "reshape-keyed"
    if how == "keyed-idx":
        return {str(rec.get("idx", i)) if isinstance(rec, dict) else str(i): rec for i, rec in enumerate(records)}, \
            "reshape-keyed-idx"
    return [records], "reshape-nested"


def make_json_file(r: random.Random, seed: Any) -> tuple[bytes, str]:
    desc = []
    doc = seed
    if chance(r, 0.1):
        doc, what = reshape(r, doc)
        desc.append(what)
    kind = pick(r, {"seed": 94, "random": 2, "garbage": 2, "empty": 1})
    if kind == "garbage":
        return rbytes(r, r.randint(0, 100)), "random-bytes"
    if kind == "empty":
        text = r.choice(["", " ", "\n", "[]", "{}", "null", "0", '""', "[{}]", '{"val": []}', '{"data": null}'])
        return text.encode(), f"empty({text!r})"
    if kind == "random":
        doc = weird_value(r, extra=IMPORT_VALUES)
        desc.append("random-document")
    for _ in range(pick(r, {0: 8, 1: 50, 2: 27, 3: 15})):
        doc, what = mutate_tree(r, doc, IMPORT_VALUES)
        desc.append(what)
    text = emit_json(r, doc)
    for _ in range(pick(r, {0: 80, 1: 15, 2: 5})):
        text, what = mutate_text(r, text, JSON_SNIPPETS)
        desc.append(what)
    data, enc = encode_text(r, text)
    if enc != "utf-8":
        desc.append(enc)
    return data, " | ".join(desc)


IMPORT_FILE_NAMES = ("gpt4o_mc.json", "x.json", "model_gpt4_mc.json", "_mc.json", "gpt4o_probmed.json",
                     "test_nota_baseline.json", "Counting.json", "gpt4o_predictions.json", "é model.jsonl",
                     "baseline.json", ".json", "x")


def make_import_case(r: random.Random) -> Case:
    fmt, mode, fname, dataset, base_opts = r.choice(_IMPORT_SEEDS)
    data, desc = make_json_file(r, import_seed(fname))
    desc = f"{fmt} {mode} {fname}: {desc}"
    file_name = fname if fname != "probmed:questions" else "test.json"
    if chance(r, 0.1):
        file_name = r.choice(IMPORT_FILE_NAMES)
    opts = dict(base_opts)
    files = {file_name: data}
    ds_name = None
    if dataset and mode == "results":
        ds_kind = pick(r, {"seed": 70, "mutated": 22, "missing": 3, "none": 5})
        if ds_kind in ("seed", "mutated"):
            ds_data = json.dumps(import_seed(dataset)).encode()
            if ds_kind == "mutated":
                ds_data, ds_desc = make_json_file(r, import_seed(dataset))
                desc += f" || dataset: {ds_desc}"
            ds_name = "dataset_" + dataset
            files[ds_name] = ds_data
            opts["dataset"] = ds_name
        elif ds_kind == "missing":
            opts["dataset"] = "no_such_dataset.json"
    if chance(r, 0.05):
        opts["dataset"] = r.choice(["no_such.json", file_name])
    if fmt == "medvh" and chance(r, 0.1):
        opts["task"] = r.choice(["nota", "wrongful_image", "cli", "pre", "fcj", "bogus", None, ""])
    if fmt == "medvh" and chance(r, 0.2):
        opts["baseline"] = r.choice([True, False])
    if fmt == "blink" and chance(r, 0.3):
        opts["split"] = r.choice(["val", "test", "all", "bogus", ""])
    if chance(r, 0.08) and mode == "results":
        opts["model"] = r.choice(["", "  ", "m/x", "é😀", "\x00", "a" * 300])
    if chance(r, 0.05) and mode == "results":
        opts["run"] = r.choice(["my run", "\x00", "é", "r" * 300])
    if chance(r, 0.1):
        opts["images"] = "images"
    return Case("importers", desc, {"fmt": fmt, "mode": mode, "file": file_name, "opts": opts}, files=files)


def _import_images(folder: Path) -> None:
    """A fixed images folder: a few of the seeds' image names, some readable, some not."""
    if folder.is_dir():
        return
    from PIL import Image

    folder.mkdir(parents=True)
    png = _pil(Image.fromarray(np.arange(48, dtype=np.uint8).reshape(6, 8)), "PNG")
    (folder / "ROCO_28778.jpg").write_bytes(png)
    (folder / "probmed_206.png").write_bytes(b"not an image")
    (folder / "medvh_100.jpg").write_bytes(_pil(Image.fromarray(np.zeros((4, 4, 3), np.uint8)), "JPEG"))
    (folder / "val_Relative_Depth_1_1.jpg").write_bytes(png[:40])


class _LazyStore:
    """A fresh in-memory store, made only when the importer first uses it (most damaged files never get there)."""

    def __init__(self, images_dir: Path) -> None:
        self._images_dir = images_dir
        self._store: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._store is None:
            from probe_ui.store import Store

            self._store = Store("sqlite://", images_dir=self._images_dir)
        return getattr(self._store, name)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def run_import_case(case: Case, workdir: Path) -> str:
    import shutil

    from probe_ui.importers import (
        ImportFileError,
        ImportOptions,
        ImportSummary,
        ImportUsageError,
        PresetSummary,
        import_results,
        questions_to_preset,
    )

    p = case.payload
    folder = workdir / "import-case"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    _import_images(workdir / "import-images")
    opts = dict(p["opts"])
    if "dataset" in opts:
        opts["dataset"] = str(folder / opts["dataset"])
    if "images" in opts:
        opts["images"] = str(workdir / "import-images")
    path = str(folder / p["file"])
    store = None
    try:
        if p["mode"] == "results":
            store = _LazyStore(folder / "store-images")
            summary: Any = import_results(store, p["fmt"], path, ImportOptions(**opts))
            if not isinstance(summary, ImportSummary):
                raise Bug(f"import_results returned {type(summary).__name__}")
        else:
            summary = questions_to_preset(p["fmt"], path, str(folder / "out" / "preset.yaml"), ImportOptions(**opts))
            if not isinstance(summary, PresetSummary):
                raise Bug(f"questions_to_preset returned {type(summary).__name__}")
        summary.lines()
    except ImportUsageError:
        return "typed"
    except ImportFileError as exc:
        msg = str(exc)
        if "does not load" in msg:  # the importer wrote a preset that load_preset refuses: an importer bug
            raise Bug(msg) from exc
        if not any(str(folder / n) in msg for n in case.files) and "no_such" not in msg:
            raise Bug(f"ImportFileError does not name the file: {msg}") from exc
        return "typed"
    finally:
        if store is not None:
            store.close()
    return "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Ratings CSV (issue 24): probe-ui ratings import on mutated files, and CSV cells through the spreadsheet writer
# ----------------------------------------------------------------------------------------------------------------

RATING_CELLS: tuple[str, ...] = (
    "=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=x", "\r=x", "'=quoted", "'", "''", "a,b", 'say "hi"',
    "two\nlines", "cr\ronly", "", " ", "é", "日本語", "\u202e", "😀", "x" * 300, "correct", "Incorrect", "UNSURE",
    "maybe", "0", "-1", "1", "2", "3", "4", "99999", str(10**30), "1e3", "1.0", " 2 ", "+5", "٣", "\x00")
RATING_SNIPPETS: tuple[str, ...] = ('"', '""', ",", "\n", "\r", "\r\n", "\ufeff", "'", "=", ",rating", ",,,,",
                                    '"\n', "\x00", "response_id,", "rater", "\n\n\n")


def make_ratings_case(r: random.Random) -> Case:
    """A ratings CSV: a header (maybe with extra, missing or repeated columns), rows of good and hostile cells
    written by the spreadsheet writer, then a few text mutations and an encoding."""
    import io

    from probe_ui.files.spreadsheet import writer

    header = ["response_id", "rater", "rating", "note"]
    if chance(r, 0.2):
        header.append(r.choice(["run", "model", "rating", "note", "", "extra"]))
    if chance(r, 0.1):
        header.remove(r.choice(["rater", "note", "rating"]))
    r.shuffle(header) if chance(r, 0.2) else None
    buf = io.StringIO()
    w = writer(buf, lineterminator=r.choice(["\n", "\r\n"]))
    w.writerow(header)
    good = {"response_id": lambda: str(r.randint(1, 3)), "rater": lambda: r.choice(["ames", "boyd", "@x", "-y"]),
            "rating": lambda: r.choice(["correct", "incorrect", "unsure"]), "note": lambda: r.choice(RATING_CELLS)}
    for _ in range(r.randint(0, 8)):
        w.writerow([good.get(h, lambda: r.choice(RATING_CELLS))() if not chance(r, 0.15) else r.choice(RATING_CELLS)
                    for h in header[:len(header) + r.choice([0, 0, 0, 0, -1, 1])]])
    text, desc = buf.getvalue(), f"header {header}"
    for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
        text, how = mutate_text(r, text, RATING_SNIPPETS)
        desc += f", {how}"
    data, how = encode_text(r, text)
    cells = [r.choice(RATING_CELLS) + (r.choice(RATING_CELLS) if chance(r, 0.5) else "") for _ in range(6)]
    return Case("ratings", f"{desc}, {how}", {"file": "ratings.csv", "cells": cells}, files={"ratings.csv": data})


_RATINGS_STORE: dict[str, Any] = {}


def _ratings_store(workdir: Path) -> Any:
    """One store per worker with three answers (ids 1 to 3) to rate."""
    if "store" not in _RATINGS_STORE:
        import os

        from probe_ui.items import Item, original_variant
        from probe_ui.store import Store

        folder = workdir / "ratings-store"
        folder.mkdir(parents=True, exist_ok=True)
        store = Store(folder / f"store-{os.getpid()}.db")
        run = store.ensure_run("fuzz", 0, {})
        variant = original_variant(Item(id="q", question="Which?", kind="choice", options=("CT", "MRI"),
                                        answer="CT"), ())
        store.add_variants(run.id, [variant])
        for sample in range(3):
            store.save_response({"run_id": run.id, "variant_id": variant.id, "model": "m", "prompt": "p",
                                 "sample": sample, "request_hash": f"h{sample}", "messages": [], "settings": {},
                                 "raw_text": "A"})
        _RATINGS_STORE["store"] = store
    return _RATINGS_STORE["store"]


def run_ratings_case(case: Case, workdir: Path) -> str:
    import csv
    import io
    import shutil

    from probe_ui.files.spreadsheet import FORMULA_STARTS, restore, writer
    from probe_ui.ratings import ImportSummary, RatingsFileError, import_ratings
    from probe_ui.store import RATINGS, StoreError

    buf = io.StringIO()  # any cells: none starts a formula, and they read back exactly
    w = writer(buf, lineterminator="\n")
    w.writerow(case.payload["cells"])
    back = [restore(c) for c in next(csv.reader(io.StringIO(buf.getvalue(), newline="")))]
    if back != case.payload["cells"]:
        raise Bug(f"spreadsheet cells did not read back: {case.payload['cells']!r} -> {back!r}")
    written = next(csv.reader(io.StringIO(buf.getvalue(), newline="")))
    if any(c[:1] in FORMULA_STARTS for c in written):
        raise Bug(f"a cell starts a formula: {written!r}")

    folder = workdir / "ratings-case"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    path = folder / case.payload["file"]
    path.write_bytes(case.files["ratings.csv"])
    store = _ratings_store(workdir)
    before = len(store.ratings_frame(per_rater=True))
    try:
        summary = import_ratings(store, path)
    except RatingsFileError as exc:
        if not all(str(path) in line or line.startswith(("... and", "--rater")) for line in exc.problems):
            raise Bug(f"a problem does not name the file: {exc.problems[:3]}") from exc
        if len(store.ratings_frame(per_rater=True)) != before:
            raise Bug("a refused file changed the ratings") from exc
        return "typed"
    except StoreError as exc:
        raise Bug(f"the store refused a checked file: {exc}") from exc
    if not isinstance(summary, ImportSummary):
        raise Bug(f"import_ratings returned {type(summary).__name__}")
    if summary.read != summary.ratings + sum(summary.skipped.values()):
        raise Bug(f"read {summary.read} != stored {summary.ratings} + skipped {summary.skipped}")
    summary.lines()
    if not set(store.ratings_frame()["rating"]) <= set(RATINGS):
        raise Bug("a rating outside correct / incorrect / unsure was stored")
    return "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Perturbation parameters: every registered perturbation, called directly and as a preset's step
# ----------------------------------------------------------------------------------------------------------------

PARAM_HOSTILE: tuple[Any, ...] = (
    "90deg", "", " ", "h", "V", "true", "false", "yes", "null", "1/70", "1/0", "0x1F", "1e400", "nan", "inf", "-inf",
    "é", "日本語", "\u202e", "\x00", "\n", "😀", "\ud800", "a" * 5000, "red", "RED", "#ff0000", "#gg0000",
    "rgb(1, 2, 3)", "{absent_finding}", "{", "{0}", "{question.__class__}", "seeded", "last", "A", "Z",
    True, False, None, 0, -1, 1, 2, 3, 5, 6, 9, 10, 11, 95, 96, 255, 256, 360, 361, -360, -361, 1000, 1001,
    0.5, 1.5, 2.5, -0.0, 3.0, 1e-300, 1e308, -1e308, float("inf"), float("-inf"), float("nan"),
    2**31, 2**63, 2**64 + 1, 10**30, -10**30, 10**400,
    [], [[]], [1], ["h"], [1, 2], [1.5, "2"], [[1, 2]], [[1, 2], [3, 4], [5, 6]], [1, 2, 3], [1, 2, 3, 4],
    [float("nan"), 1], [10**400, 1], ["red", "green"], ["red", "red"], [True, False], list(range(1000)),
    {}, {"a": 1}, {"correct": "upside down"}, {"x": [1]}, {1: 2}, {None: None},
)
PARAM_UNKNOWN_KEYS: tuple[Any, ...] = ("angel", "", "x" * 100, "ctx", "seed_group", "op", "ANGLE", 1, None, "é")
# valid values by parameter name where the kind alone does not say enough (coordinates on the 64x48 fixture)
PARAM_VALID: dict[str, tuple[Any, ...]] = {
    "colours": (["red", "green", "blue"], ["yellow", "#00ffff"], ["red"]),
    "colour": ("red", "blue", "#123456", "orange"),
    "points": ([[5, 5], [30, 20], [55, 40]], [[0.1, 0.2], [0.5, "1/2"], [0.9, 0.8]], [[10, 10]]),
    "arrow": ([30, 20], [0.5, 0.5], [63, 47]), "tail": ([5, 5], [0.1, 0.1]),
    "box": ([5, 5, 40, 30], [0.1, 0.1, 0.9, 0.9]), "circle": ([30, 20, 10], [0.5, 0.5, 0.2]),
    "labels": (True, False, ["1", "2", "3"], ["a"]), "target": ("shallowest", "deepest", 0, 2, None),
    "item": ("q2", "q1", "nope"), "image": ("x.png", "nope.png"), "answer": ("wrong", "right", "B", "CT", "keep"),
    "text": ("Given the mass, what is it?", "Not visible"), "template": ("given", "side", "{absent_finding}?", "x"),
    "question": ("Which dot is red?",), "radius_fraction": ("1/70", 0.05, "1/3"),
    "answer_map": ({"CT": "MRI"}, {"correct": "upside down"}, None, {}),
}


def _param_fixtures() -> tuple[list[Any], Any]:
    """Small variants of every kind a perturbation meets (choice, yes/no, label, two images, no image) and the
    context (a pool with a MediConfusion-style partner, one named image)."""
    from PIL import Image

    from probe_ui.images import CanonicalImage
    from probe_ui.items import Variant
    from probe_ui.perturb import PerturbContext

    grad = np.tile(np.arange(64, dtype=np.uint8) * 4, (48, 1))
    rgb = CanonicalImage.from_pil(Image.fromarray(np.dstack([grad, grad[::-1], np.full_like(grad, 90)])))
    grey = CanonicalImage.from_pil(Image.fromarray(grad.T.copy()))
    attrs = {"absent_finding": "pneumothorax", "modality": "CT", "organ": "chest", "findings": ["mass", "nodule"],
             "positions": ["left upper lobe", "right hilum"]}
    variants = [
        Variant("q1", "Which modality?", "choice", ("CT", "MRI", "X-ray", "Ultrasound"), "CT", (rgb,),
                category=("Chest",), attributes=attrs),
        Variant("q2", "Which modality?", "choice", ("CT", "MRI", "X-ray", "Ultrasound"), "MRI", (grey,),
                category=("Chest",), attributes=attrs),
        Variant("q3", "Is there a mass?", "yesno", (), "yes", (grey,), attributes=attrs),
        Variant("q4", "Which dot is closest to the skin?", "label", ("red", "green", "blue"), "red", (rgb,)),
        Variant("q5", "Which side?", "choice", ("left", "right"), "left", (rgb, grey), category=("Knee",)),
        Variant("q6", "What is shown?", "choice", ("a", "b", "c"), "b", ()),
    ]
    return variants, PerturbContext(pool=tuple(variants), images={"x.png": grey})


_PARAM_FIXTURES: tuple[list[Any], Any] | None = None


def param_fixtures() -> tuple[list[Any], Any]:
    global _PARAM_FIXTURES
    if _PARAM_FIXTURES is None:
        _PARAM_FIXTURES = _param_fixtures()
    return _PARAM_FIXTURES


def _valid_param(r: random.Random, spec: Any) -> Any:
    if spec.name in PARAM_VALID:
        return _copy(r.choice(PARAM_VALID[spec.name]))
    if spec.kind == "choice":
        return r.choice(spec.choices)
    if spec.kind in ("int", "float"):
        lo = spec.minimum if spec.minimum is not None else -5
        hi = spec.maximum if spec.maximum is not None else 20
        lo, hi = max(lo, -1000), min(hi, max(lo, -1000) + 50)
        value = r.choice([lo, hi, (lo + hi) / 2, lo + r.random() * (hi - lo)])
        return int(round(value)) if spec.kind == "int" or chance(r, 0.5) else value
    if spec.kind == "bool":
        return r.choice([True, False])
    return spec.default


def _hostile_param(r: random.Random) -> Any:
    kind = pick(r, {"table": 80, "nested": 8, "string": 8, "dict": 4})
    if kind == "table":
        return _copy(r.choice(PARAM_HOSTILE))
    if kind == "nested":
        value: Any = r.choice([1, "h", float("nan"), None])
        for _ in range(r.choice([2, 5, 30, 200])):
            value = [value]
        return value
    if kind == "string":
        return "".join(chr(r.choice([r.randint(32, 126), r.randint(0xA0, 0x2FFF), r.randint(0x1F300, 0x1F6FF),
                                     r.randint(1, 31)])) for _ in range(r.randint(0, 12)))
    return weird_value(r, extra=PARAM_HOSTILE)


def make_params_case(r: random.Random) -> Case:
    """One perturbation (now and then an unknown name) with parameters drawn from valid values, hostile values
    and unknown keys, on one of the fixture variants; a quarter go through a preset file (an item's own condition
    or a preset-wide one), the rest straight to ``apply``."""
    from probe_ui.perturb import all_perturbations

    perts = all_perturbations()
    pert = r.choice(perts)
    op = pert.name if not chance(r, 0.02) else r.choice(["spin", "", "ROTATE", "rotate "])
    params: dict[Any, Any] = {}
    desc = []
    for spec in pert.specs():
        if not chance(r, 0.9 if spec.required else 0.45):
            continue
        if chance(r, 0.55):
            params[spec.name] = _valid_param(r, spec)
        else:
            params[spec.name] = _hostile_param(r)
            desc.append(f"hostile {spec.name}")
    if chance(r, 0.2):
        params["answer_map"] = _copy(r.choice(PARAM_VALID["answer_map"])) if chance(r, 0.5) else _hostile_param(r)
        desc.append("answer_map")
    if chance(r, 0.12):
        key = r.choice(PARAM_UNKNOWN_KEYS)
        params[key] = _hostile_param(r)
        desc.append(f"unknown key {key!r}")
    variant = r.randint(0, len(param_fixtures()[0]) - 1)
    seed = r.choice([0, 1, 2**62, r.getrandbits(63)])
    route = pick(r, {"apply": 75, "item": 18, "preset": 7})
    payload = {"op": op, "params": params, "variant": variant, "seed": seed, "route": route}
    text = f"op={op!r} variant={variant} seed={seed} route={route}\nparams={params!r}\n"
    return Case("params", f"{op} via {route}: " + (", ".join(desc) or "valid values"), payload,
                files={"case.txt": text.encode("utf-8", "backslashreplace")})


def _check_applied(out: Any, payload: dict[str, Any]) -> None:
    from probe_ui.items import Variant

    if not isinstance(out, Variant):
        raise Bug(f"apply returned {type(out).__name__}")
    record = out.provenance[-1]
    if record["op"] != payload["op"]:
        raise Bug(f"provenance records {record['op']!r}")
    json.dumps(record, allow_nan=False)  # stored as JSON: a NaN or infinity here would be a bug
    _ = out.id


def run_params_case(case: Case, workdir: Path) -> str:
    from probe_ui.perturb import PerturbationError, apply
    from probe_ui.perturb.params import shown

    p = case.payload
    if p["route"] != "apply":
        return _run_params_preset(case, workdir)
    variants, ctx = param_fixtures()
    try:
        out = apply(variants[p["variant"]], p["op"], p["params"], p["seed"], ctx)
    except PerturbationError as exc:
        if "\n" in str(exc):
            raise Bug(f"a PerturbationError of several lines: {str(exc)[:300]!r}") from exc
        if exc.param is not None and shown(exc.param) not in str(exc):
            raise Bug(f"a PerturbationError about {exc.param!r} that does not name it: {exc}") from exc
        return "typed"
    _check_applied(out, p)
    again = apply(variants[p["variant"]], p["op"], p["params"], p["seed"], ctx)
    if again.id != out.id:
        raise Bug("the same perturbation, parameters and seed gave another variant")
    return "accepted"


def _run_params_preset(case: Case, workdir: Path) -> str:
    """The step in a preset: refused with a PresetError naming the file, or read, with a bad item-level step
    recorded for its item (naming file and item) and the rest expanded."""
    import yaml

    from probe_ui.presets.suites import expand

    p = case.payload
    step = {"op": p["op"], **p["params"]}
    condition = {"name": "fuzz", "steps": [step]}
    items = [{"id": "q1", "question": "Which modality?", "options": ["CT", "MRI", "X-ray"], "answer": "CT",
              "image": "fuzz.png", "category": ["Chest"], "attributes": {"absent_finding": "mass", "modality": "CT",
                                                                         "organ": "chest", "findings": ["mass"],
                                                                         "positions": ["left"]}},
             {"id": "q2", "question": "Which modality?", "options": ["CT", "MRI", "X-ray"], "answer": "MRI",
              "image": "fuzz.png"}]
    doc: dict[str, Any] = {"items": items}
    if p["route"] == "item":
        items[0]["perturbations"] = [condition]
    else:
        doc["perturbations"] = [condition]
    try:
        text = yaml.safe_dump(doc, allow_unicode=True)
    except yaml.YAMLError:
        return "typed"  # not writable as YAML (a lone surrogate): no preset can hold it
    image = workdir / "fuzz.png"
    if not image.exists():
        from PIL import Image

        Image.fromarray(np.tile(np.arange(64, dtype=np.uint8) * 4, (48, 1))).save(image)
    path = workdir / "params.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    preset = load_preset_or_none(path)
    if preset is None:
        return "typed"
    ex = expand(preset, p["seed"] % 1000)
    for e in ex.errors:
        if str(path) not in e.message or f"'{e.item_id}'" not in e.message:
            raise Bug(f"an item error that names neither file nor item: {e.message}")
    for v in ex.variants:
        json.dumps([r for r in v.provenance], allow_nan=False)
    bad = preset.step_errors.get("q1", ())
    if bad and not any(v.condition == "original" for v in ex.variants if v.item_id == "q1"):
        raise Bug("an item with a bad step lost its other variants")
    return "typed" if ex.errors else "accepted"


# ----------------------------------------------------------------------------------------------------------------
# Keys: a key of any shape, echoed back by a loopback provider, must leave no 8-character piece in any artifact
# ----------------------------------------------------------------------------------------------------------------

KEY_ENV = "FUZZ_PROBE_KEY"
KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
KEY_INSERTS = ('"', "'", "\\", "\\\\", '\\"', "%", "%2F", "&", "<", ">", "=", "+", "/", " ", "  ", "\t", "#", "?",
               "@", ":", ";", ",", "{", "}", "é", "日本", "😀", "\u00a0", "\u200b", "\x01", "\x7f", "\\u00e9",
               "$(", "`", "*", "***")
KEY_ENDS = ("", "", "", "\r", "\n", "\r\n", "\t", " ", " \r\n", "\n\n", "\u00a0", "\ufeff")
#: how the loopback server gives the key back: a function of the key it received
ECHO_WAYS = ("raw", "json", "json-ascii", "repr", "bytes-repr", "url", "url-plus", "html", "folded", "prefix",
             "suffix", "middle", "twice")
ECHO_STATUS = (200, 200, 400, 401, 403, 404, 422, 429, 500, 503)


def make_key_case(r: random.Random) -> Case:
    """A key (a plausible token, then quotes, backslashes, whitespace, non-ASCII put in and around it), the
    provider that sends it, and how the server echoes it (in the reply or an error, in some encoding, after some
    padding that may push it past any cut)."""
    key = r.choice(["sk-", "sk-proj-", "sk-ant-api03-", "AIza", "gsk_", "", "key-"])
    key += "".join(r.choice(KEY_ALPHABET) for _ in range(r.randint(4, 60)))
    desc = []
    for _ in range(pick(r, {0: 30, 1: 35, 2: 20, 4: 15})):
        piece, at = r.choice(KEY_INSERTS), r.randint(0, len(key))
        key = key[:at] + piece + key[at:]
        desc.append(f"insert {piece!r} at {at}")
    end = r.choice(KEY_ENDS)
    start = r.choice(("", "", "", " ", "\t", "\ufeff", "\n"))
    key = start + key + end
    padding = r.choice(["", "x" * r.randint(1, 400), "é" * r.randint(1, 250), "key: ",
                        "日本語 " * r.randint(1, 60)])
    payload = {"key": key, "provider": r.choice(["openai", "anthropic"]), "stream": chance(r, 0.3),
               "echo": r.choice(ECHO_WAYS), "status": r.choice(ECHO_STATUS), "padding": padding,
               "format": r.choice(["jsonl", "csv", "parquet", "imagefolder"]), "report": chance(r, 0.5)}
    desc.insert(0, f"key {key!r}")
    desc.append(f"{payload['provider']}{' streamed' if payload['stream'] else ''}, echo {payload['echo']} with "
                f"status {payload['status']} after {len(padding)} characters; export {payload['format']}"
                + (" and report" if payload["report"] else ""))
    return Case("keys", "; ".join(desc), payload, files={"key.txt": key.encode("utf-8", "surrogatepass")})


def echoed(way: str, key: str, padding: str) -> str:
    """The key as the loopback server gives it back."""
    import html
    from urllib.parse import quote, quote_plus

    forms = {
        "raw": key, "json": json.dumps({"key": key}, ensure_ascii=False), "json-ascii": json.dumps({"key": key}),
        "repr": repr(key), "bytes-repr": repr(key.encode("utf-8", "surrogatepass")), "url": quote(key, safe=""),
        "url-plus": quote_plus(key), "html": html.escape(key), "folded": " ".join(key.split()),
        "prefix": key[: max(8, len(key) // 2)] + "...", "suffix": "..." + key[-max(8, len(key) // 2):],
        "middle": key[len(key) // 4: len(key) // 4 + 12], "twice": f"{key} / {key}",
    }
    return f"{padding}{forms[way]} (the key you sent)"


class _KeyHarness:
    """Per worker process: the two loopback servers, a catalogue with one entry per provider and mode, a preset."""

    def __init__(self, workdir: Path) -> None:
        import sys

        sys.path.insert(0, str(ROOT / "tests"))
        from fake_anthropic import FakeAnthropicServer
        from fake_openai import FakeOpenAIServer
        from helpers import write_png, write_preset

        self.servers = {"openai": FakeOpenAIServer().start(), "anthropic": FakeAnthropicServer().start()}
        self.root = workdir / "keys-harness"
        backends = self.root / "backends"
        backends.mkdir(parents=True, exist_ok=True)
        for name, server in self.servers.items():
            for stream in (False, True):
                (backends / f"fuzz-{name}-{stream}.yaml").write_text(json.dumps({
                    "name": f"fuzz-{name}{'-stream' if stream else ''}", "provider": name, "model": "m",
                    "base_url": server.base_url, "api_key_env": KEY_ENV,
                    "generation": {"stream": stream, "max_tokens": 4000, "timeout_s": 10},
                    "options": {"max_retries": 0}}), encoding="utf-8")
        write_png(self.root / "x.png")
        self.preset = write_preset(self.root / "p.yaml", [{"id": "q", "image": "x.png", "question": "Which side?",
                                                           "options": ["left", "right"], "answer": "left"}])
        self.backends = backends


_KEY_HARNESS: _KeyHarness | None = None


def run_key_case(case: Case, workdir: Path) -> str:
    """Batch one request whose key the server echoes, export the run (one format) and maybe report it, then
    search every artifact and everything printed for any 8-character piece of the key."""
    import os
    import shutil

    global _KEY_HARNESS
    if _KEY_HARNESS is None:
        _KEY_HARNESS = _KeyHarness(workdir)
    h, p = _KEY_HARNESS, case.payload
    from helpers import artifact_texts, leaked

    from probe_ui.cli import main
    from probe_ui.store import Store

    folder = workdir / "keys-case"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    server = h.servers[p["provider"]]
    server.reset()
    server.key_echo = lambda got: (p["status"], echoed(p["echo"], got, p["padding"]))
    model = f"fuzz-{p['provider']}{'-stream' if p['stream'] else ''}"
    db = folder / "data" / "probe-ui.db"
    saved = {k: os.environ.get(k) for k in (KEY_ENV, "PROBE_UI_BACKENDS", "PROBE_UI_DISCOVER", "NO_PROXY")}
    out, err = io.StringIO(), io.StringIO()
    logging_was = logging.root.manager.disable
    logging.disable(logging.NOTSET)  # the worker silences logging; the CLI's stderr is part of what is searched
    try:
        os.environ.update({KEY_ENV: p["key"], "PROBE_UI_BACKENDS": str(h.backends), "PROBE_UI_DISCOVER": "0",
                           "NO_PROXY": "127.0.0.1,localhost"})
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["batch", str(h.preset), "-m", model, "--db", str(db), "--run", "k", "--no-progress",
                         "--no-cache", "--rate-limit-wait", "0.1"])
            # a server that always says 429 is waited out 0.1 s, not 10 min: the refused request is sent once, as it
            # was with 1 s (the pause after a 429 is longer than either), and the run fails saying so; 1 s was a
            # second of idle per 429 case (about 13 s of the 200 seeded cases)
            if code not in (0, 1):
                raise Bug(f"batch exited {code}")
            ran = db.exists() and "k" in {r.name for r in Store(db).list_runs()}  # a refused key runs nothing
            if ran and main(["export", "--db", str(db), "--run", "k", "--format", p["format"],
                             "--out", str(folder / "export")]) != 0:
                raise Bug("export failed")
            if ran and p["report"] and main(["report", "--db", str(db), "--run", "k", "--out",
                                             str(folder / "report.html")]) != 0:
                raise Bug("report failed")
    finally:
        logging.disable(logging_was)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    texts = artifact_texts(folder) | {"stdout": out.getvalue(), "stderr": err.getvalue()}
    hits = leaked(texts, p["key"])
    if hits:
        raise Bug(f"the key leaked: {hits[0]}" + (f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""))
    if code == 1 and "error:" not in err.getvalue():
        raise Bug("the batch failed without saying why")
    return "accepted" if code == 0 else "typed"  # typed: an error cell or a refused key, said in one line



# ----------------------------------------------------------------------------------------------------------------
# The targets
# ----------------------------------------------------------------------------------------------------------------

TARGETS: dict[str, Target] = {
    "images": Target("images", make_image_case, run_image_case, limit_s=10.0),
    "presets": Target("presets", make_preset_case, run_preset_case, limit_s=5.0),
    "importers": Target("importers", make_import_case, run_import_case, limit_s=10.0),
    "answers": Target("answers", make_answer_case, run_answer_case, limit_s=1.0),
    "catalogue": Target("catalogue", make_catalogue_case, run_catalogue_case, limit_s=5.0),
    "params": Target("params", make_params_case, run_params_case, limit_s=5.0),
    "keys": Target("keys", make_key_case, run_key_case, limit_s=30.0),
    "ratings": Target("ratings", make_ratings_case, run_ratings_case, limit_s=10.0),
}


def case_random(seed: int, target: str, index: int) -> random.Random:
    """The random source of one case: the same (seed, target, index) always gives the same case."""
    return random.Random(f"probe-ui-fuzz:{seed}:{target}:{index}")

