"""The OCR engine behind the send gate: RapidOCR (PP-OCRv4 detection and recognition on onnxruntime).

Why this engine (measured on tests/burned_in.py's set, 64 images of 256-768 px, 67 identifying texts, 32 clean
images; one CPU core: ``OMP_NUM_THREADS=1`` and the engine's own thread options at 1; CPU ms per image, as the machine
was shared with other work; wall times matched them within 5 %). The same rules (:mod:`probe_ui.send_gate.patterns`)
read both engines' text:

============================================ ============= ============= ====================
engine                                       texts caught  clean flagged CPU ms / image (p95)
============================================ ============= ============= ====================
rapidocr-onnxruntime 1.4.4, onnxruntime 1.32 67/67 (100 %) 0/32 (0 %)    301 (656)
tesseract 5.3.0 (Debian), TSV, --psm 11      33/67 (49 %)  0/32 (0 %)    274 (452)
============================================ ============= ============= ====================

With the core to itself (four runs), RapidOCR took 269-291 ms an image (p95 516-616), 237-267 ms on 512 px
images; the larger images (640, 768 px) raise the mean. A recognition batch of 1 or 3 lines instead of 6 made no
difference. Tesseract lost most text on bright anatomy and most small text; it would need its own preprocessing
to compete.

presidio-image-redactor itself was not run: it reads the text through the same tesseract, and its analyzer needs
a spaCy model downloaded at run time, which this project cannot do offline; the tesseract row is the OCR it would
have had. RapidOCR's models (about 15 MB) ship inside its wheel: nothing is downloaded at run time.

The extra: :data:`INSTALL_HINT`. rapidocr-onnxruntime declares ``opencv-python``, a second OpenCV beside the
``opencv-python-headless`` probe-ui already has (both install ``cv2``; the GUI one needs libGL); it runs on the
headless one alone, so the ``ocr`` extra holds its other dependencies and rapidocr is installed with ``--no-deps``
(pip installs ``opencv-python`` with any extra that names rapidocr, even one installed before without it).

The engine is loaded lazily, once per process, under a lock, the first time a gate runs (about a second); calls go
through the same lock (one onnxruntime thread each, so a gate never takes more than one core). Without the extra,
:func:`engine` raises :class:`GateUnavailable`. The text read never leaves this package.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from probe_ui.errors import ProbeUIError
from probe_ui.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # imported when an image is read, not with the batch runner
    np = lazy_module("numpy")

#: the import name of the engine (the ``ocr`` extra) and how to install it
ENGINE_MODULE = "rapidocr_onnxruntime"
INSTALL_HINT = 'pip install -e ".[ocr]" && pip install --no-deps "rapidocr-onnxruntime>=1.4.4,<1.5"'
#: detection runs on the image scaled so that its longer side is at most this (measured: see detect.py)
DET_MAX_SIDE = 512
#: text lines read with a lower confidence than this are dropped (the engine's default)
MIN_SCORE = 0.5


class GateUnavailable(ProbeUIError, RuntimeError):
    """The send gate cannot run here: the OCR extra is not installed."""


@dataclass(frozen=True)
class TextLine:
    """One line of text the OCR found: its box in the pixels it was given, what it read and how sure it was.
    Internal to the send gate: ``text`` is never logged, stored or shown."""

    x: int
    y: int
    w: int
    h: int
    text: str
    score: float

    def __repr__(self) -> str:  # never the text, even in a traceback or a debugger's view
        return f"TextLine({self.x}, {self.y}, {self.w}, {self.h}, score={self.score:.2f})"


_lock = threading.Lock()
_engine: Any = None


def _load() -> Any:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError as exc:
        raise GateUnavailable(f"the send gate needs the OCR extra, which is not installed: {INSTALL_HINT}") from exc
    return RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1, use_cls=False, print_verbose=False,
                    det_limit_type="max", det_limit_side_len=DET_MAX_SIDE)


def engine() -> Any:
    """The process's OCR engine, loaded on first use (thread-safe); :class:`GateUnavailable` without the extra."""
    global _engine
    if _engine is None:
        with _lock:
            if _engine is None:
                _engine = _load()
    return _engine


def read_lines(pixels: np.ndarray) -> list[TextLine]:
    """The text lines in ``pixels`` (H x W grey or H x W x 3 RGB, uint8), with axis-aligned boxes."""
    ocr = engine()
    if pixels.ndim == 2:
        bgr = np.repeat(pixels[:, :, None], 3, axis=2)
    else:
        bgr = np.ascontiguousarray(pixels[:, :, ::-1])
    with _lock:
        result, _elapsed = ocr(bgr, use_cls=False)
    lines: list[TextLine] = []
    for points, text, score in result or ():
        score = float(score)
        if score < MIN_SCORE:
            continue
        pts = np.asarray(points, dtype=np.float64)
        x0, y0 = np.floor(pts.min(axis=0))
        x1, y1 = np.ceil(pts.max(axis=0))
        lines.append(TextLine(int(x0), int(y0), int(x1 - x0), int(y1 - y0), str(text), score))
    return lines
