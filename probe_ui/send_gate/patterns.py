"""What counts as identifying text burned into an image, as rules over one line of OCR output.

:func:`classify` takes the text of one line (as the OCR read it: spaces dropped, ``O`` read as ``0``, ``^`` read as
``~``) and returns the kind of identifying text it holds, or None. The kinds, tried in this order:

``name``
    a DICOM person name with its ``^`` separators: ``DOE^JANE``, ``SMITH^JOHN^A`` (the OCR often reads ``^`` as
    ``~``: ``NGUYEN~VAN``); a name after a label: ``Name: Jane Doe``, ``Patient: SMITH, JOHN``, ``Pt: R. Patel``;
    and one all-capital word of 7+ letters that is not made of known technical words (``MULLERANNA``: a ``^`` name
    whose ``^`` the OCR lost; ``PORTABLE``, ``LTKIDNEY`` = ``LT`` + ``KIDNEY`` are made of known words and pass).
``date``
    1984-03-12, 1984/03/12, 12/03/1984, 12.03.1984, 12-03-1984, 12-Mar-1984, 12 Mar 1984, Mar 12 1984, and
    19840312 after ``DOB`` / ``Birth`` (a birth date, a study date: both identify the patient).
``record number``
    a number after ``MRN``, ``Acc``, ``Accession``, ``Record``, ``Study``: ``MRN: 00482913``,
    ``Acc: 20190511-0042``, ``Accession: A12345678``.
``id``
    a value after ``ID``, ``PID``, ``NHS``, ``SSN``, ``Patient ID``: ``ID: 5512093``, ``PID 77881234``; a run of
    6+ digits (``7731092``), grouped as NHS or SSN numbers are (``943 476 5919``, ``123-45-6789``); a letter or
    three and 6+ digits (``A12345678``).

What passes (the labels on real images, and the tests' examples): L, R, AP, PA, LAT, LT, RT, SUP, INF, ANT, POST,
"L SAG", "TRANS", "RT KIDNEY"; measurements ("4.2 cm", "D1 2.3cm", "15 cm", "5 mm"); "120 kV", "250 mAs",
"100 mA"; "W:400 L:40", "W:1500 L:-600"; "Im: 23/120", "Se: 3", frame counters "12/48"; "FR 30Hz", "Gain 50",
"DR 60", "C5-1". None has a 4-digit year, 6+ digits in a row, a ``^``, a label, or an unknown long capital word.

The text itself never leaves this module: callers get a kind, never the match.
"""

from __future__ import annotations

import re
from functools import lru_cache

KINDS = ("name", "date", "record number", "id")

_MONTHS = (r"(?:JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEPT?(?:EMBER)?"
           r"|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)\.?")

#: (kind, pattern, example) in the order they are tried; every pattern is searched case-insensitively unless it
#: says (?-i)
RULES: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE | re.VERBOSE), example)
    for kind, pattern, example in (
        # DICOM PN: family^given[^middle...]; the OCR reads ^ as ^ or ~ (sometimes with a space beside it)
        ("name", r"(?-i:[A-Z][A-Za-z'\-]+\s?[\^~]\s?[A-Z][A-Za-z'\-]*)", "DOE^JANE"),
        # a label, then a name: "Name: Jane Doe", "Patient SMITH, JOHN", "Pt: R. Patel", "Pat.Name:DOE"
        ("name", r"\b(?:pat(?:ient)?\.?\s?name|name|patient|pat|pt)\s?[:.;]\s?[A-Za-z]", "Name: Jane Doe"),
        ("name", r"\b(?:name|patient)\s(?-i:[A-Z][a-z]+|[A-Z]{2,},)", "Patient John Smith"),
        # dates: year first or last, with - / . separators, or a month name
        ("date", r"(?<!\d)(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?!\d)", "1984-03-12"),
        ("date", r"(?<!\d)(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:19|20)\d\d", "12/03/1984"),
        ("date", r"(?<!\d)(?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])[-/.](?:19|20)\d\d", "03/12/1984"),
        ("date", rf"(?<!\d)(?:0?[1-9]|[12]\d|3[01])[-\s/.]?{_MONTHS}[-\s/.,]?(?:19|20)?\d\d(?!\d)", "12-Mar-1984"),
        ("date", rf"\b{_MONTHS}\s?(?:0?[1-9]|[12]\d|3[01]),?\s?(?:19|20)\d\d(?!\d)", "Mar 12, 1984"),
        # a birth date in any form after its label (DOB, D0B, Birth, Born): 19840312, 12031984, 1984
        ("date", r"(?:\bD[O0Q]B|birth|born)\s?[:.]?\s?\d", "DOB 19840312"),
        # record and accession numbers after their label
        ("record number", r"(?:\bMRN|\bacc(?:ession)?|\brecord|\bstudy\s?(?:no|id|\#))\s?(?:no\.?|\#)?\s?[:.#]?\s?"
                          r"[A-Z]{0,3}\d{3,}", "MRN: 00482913"),
        # IDs after their label
        ("id", r"(?:\b|(?<=\d))(?:patient\s?id|PID|ID|NHS|SSN|MR)\s?(?:no\.?|\#)?\s?[:.#]?\s?[A-Z]{0,3}\d{4,}",
         "ID: 5512093"),
        # NHS (3 3 4) and SSN (3-2-4) groupings, and any run of 6+ digits that is not part of a decimal
        ("id", r"(?<![\d.])\d{3}[\s-]\d{3}[\s-]\d{4}(?![\d.])", "943 476 5919"),
        ("id", r"(?<![\d.])\d{3}-\d{2}-\d{4}(?![\d.])", "123-45-6789"),
        ("id", r"(?<![\d.,])\d{6,}(?![.,]\d)", "7731092"),
        # an alphanumeric ID: 1-3 letters, then 6+ digits
        ("id", r"(?-i:\b[A-Z]{1,3}\d{6,}\b)", "A12345678"),
    )
)

#: words that appear on images as labels (anatomy, views, sequences, settings): an all-capital word made of these
#: is a label, not a name whose ^ the OCR lost. Upper case; a word of 1-2 letters is always allowed between them.
TECHNICAL_WORDS = frozenset("""
    AP PA LAT LT RT SUP INF ANT POST SAG SAGITTAL TRANS TRANSVERSE AXIAL CORONAL OBLIQUE OBL LATERAL MEDIAL
    LEFT RIGHT ERECT SUPINE PRONE DECUBITUS PORTABLE UPRIGHT STANDING SITTING VIEW FRONTAL INSP EXP INSPIRATION
    EXPIRATION KIDNEY KIDNEYS LIVER SPLEEN GALLBLADDER PANCREAS BLADDER UTERUS OVARY OVARIES THYROID BREAST HEART
    LUNG LUNGS CHEST ABDOMEN PELVIS HEAD NECK BRAIN SPINE CERVICAL THORACIC LUMBAR SACRUM KNEE HIP SHOULDER ELBOW
    WRIST ANKLE FOOT HAND FEMUR TIBIA HUMERUS SKULL ORBIT SINUS AORTA CAROTID VEIN ARTERY PORTAL VENOUS ARTERIAL
    DELAYED PHASE CONTRAST NONCONTRAST NATIVE PRE POSTCONTRAST SCOUT TOPOGRAM LOCALIZER SURVIEW SOFT TISSUE BONE
    WINDOW MEDIASTINUM MEDIASTINAL MACULA MACULAR DISC FOVEA RETINA FUNDUS FLASH RED FREE REDFREE COLOR COLOUR
    DOPPLER POWER THI HARMONIC GAIN DEPTH FREQ FOCUS ZOOM FREEZE FROZEN MODE CINE LOOP FRAME FRAMES MARKER SCALE
    CALIPER DIST DISTANCE AREA VOLUME LENGTH WIDTH HEIGHT DIAMETER RATIO INDEX DYNAMIC RANGE PERSIST PERSISTENCE
    AUTO MANUAL STANDARD HIGH LOW RESOLUTION SHARP SMOOTH DETAIL LUNGWINDOW BONEWINDOW HELICAL SPIRAL SLICE SLICES
    SERIES IMAGE IMAGES SEQUENCE RECON MIP MPR AVERAGE THICK THIN CURVED FLAIR DIFFUSION PERFUSION GRADIENT ECHO
    SPIN INVERSION RECOVERY WEIGHTED FATSAT WATER FAT SHIM ANGIO TIME RESOLVED STAT TRAUMA DIGITAL SUBTRACTION
    FLUORO FLUOROSCOPY MAMMO MAMMOGRAPHY TOMO TOMOSYNTHESIS CRANIOCAUDAL MEDIOLATERAL IMPLANT SPOT MAG MAGNIFICATION
    RETRO RETROGRADE ANTEGRADE ORAL RECTAL IV CONTRASTE SAGITAL GAUCHE DROITE LINKS RECHTS HORIZONTAL VERTICAL
    REFERENCE CALIBRATION PHANTOM TEST QUALITY CONTROL LOCATION POSITION TABLE GANTRY TILT PITCH KERNEL FILTER
    DOSE EXPOSURE ACQUISITION RECONSTRUCTION PROCESSED ORIGINAL PRIMARY SECONDARY DERIVED SUMMARY REPORT RESULT
    NORMAL ABNORMAL LESION MASS NODULE CYST TUMOR TUMOUR FLUID EFFUSION FRACTURE
""".split())


def _made_of_technical_words(word: str) -> bool:
    """``LTKIDNEY`` -> ``LT`` + ``KIDNEY``: whether the capital word splits into known words (and 1-2 letter
    abbreviations, at most half of the word)."""
    return _split(word.upper()) is not None


@lru_cache(maxsize=4096)
def _split(word: str) -> tuple[int, int] | None:
    """The fewest pieces ``word`` splits into (known words, short abbreviations): (pieces, letters in
    abbreviations), or None where no split exists."""
    if not word:
        return (0, 0)
    best: tuple[int, int] | None = None
    for end in range(1, len(word) + 1):
        head, rest = word[:end], word[end:]
        if head in TECHNICAL_WORDS or len(head) <= 2:
            tail = _split(rest)
            if tail is None:
                continue
            short = tail[1] + (len(head) if head not in TECHNICAL_WORDS else 0)
            if short * 2 > len(word):
                continue
            cand = (tail[0] + 1, short)
            if best is None or cand < best:
                best = cand
    return best


_CAPS_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Z]{7,}(?![A-Za-z0-9])")


def classify(text: str) -> str | None:
    """The kind of identifying text in one OCR line (:data:`KINDS`), or None where it holds none."""
    text = text.strip()
    if not text:
        return None
    for kind, pattern, _example in RULES:
        if pattern.search(text):
            return kind
    for m in _CAPS_WORD.finditer(text):
        if not _made_of_technical_words(m.group()):
            return "name"
    return None


def is_identifying(text: str) -> bool:
    return classify(text) is not None
