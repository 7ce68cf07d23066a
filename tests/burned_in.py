"""A synthetic set of medical-looking images with burned-in text, for the send gate (issue 47): deterministic by seed.

Four styles as they look on the wire: CT (grey, a round body on black), radiograph (grey, a chest-like shape on a
grey gradient), ultrasound (a dark speckled fan) and fundus (an orange-red disc on black, RGB), 256-768 px. About
half the images carry identifying text (a DICOM ``^`` name, a labelled name, a birth date, an MRN, an accession
number, an ID), 10-24 px tall, in corners and at mid-edges, white / yellow / green / grey, in the DejaVu fonts that
matplotlib bundles (no system font needed); every image carries anatomical / technical labels (L, R, AP, "W:400
L:40", "4.2 cm", slice numbers, ...) that the gate must let through. Each case keeps its truth: the identifying
strings with their kind and box, and the labels with theirs.

    from burned_in import make_set
    cases = make_set(seed=47, n=64)

Used by tests/test_send_gate_detect.py and perf/send_gate.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from probe_ui.images import CanonicalImage

STYLES = ("ct", "radiograph", "ultrasound", "fundus")
SIZES = (256, 384, 512, 512, 640, 768)
COLOURS = {"white": (255, 255, 255), "yellow": (255, 235, 60), "green": (90, 255, 90), "grey": (185, 185, 185)}

# (text, kind): what a scanner or a PACS burns in. Dates in the common forms, names in DICOM ^ form and after labels.
IDENTIFYING: tuple[tuple[str, str], ...] = (
    ("DOE^JANE", "name"),
    ("SMITH^JOHN^A", "name"),
    ("MULLER^ANNA", "name"),
    ("GARCIA^MARIA^L", "name"),
    ("NGUYEN^VAN", "name"),
    ("OKAFOR^CHIDI", "name"),
    ("Name: Jane Doe", "name"),
    ("Patient: John Smith", "name"),
    ("Pt: Ravi Patel", "name"),
    ("Name: KOWALSKI, PIOTR", "name"),
    ("DOB: 1984-03-12", "date"),
    ("DOB 12/03/1984", "date"),
    ("Birth: 12.03.1984", "date"),
    ("12-Mar-1984", "date"),
    ("DOB 19840312", "date"),
    ("2019-11-05", "date"),
    ("05/11/2019 14:32", "date"),
    ("MRN: 00482913", "record number"),
    ("MRN 7731092", "record number"),
    ("Acc: 20190511-0042", "record number"),
    ("Accession: A12345678", "record number"),
    ("ID: 5512093", "id"),
    ("PID 77881234", "id"),
    ("NHS 943 476 5919", "id"),
    ("B98765432", "id"),
    ("SSN 123-45-6789", "id"),
)
# What must pass: anatomical and technical labels as they appear on real images.
LABELS: dict[str, tuple[str, ...]] = {
    "ct": ("L", "R", "W:400 L:40", "W:1500 L:-600", "Im: 23/120", "Se: 3", "120 kV", "250 mAs", "5 mm", "AXIAL",
           "4.2 cm", "SUP", "ANT", "POST", "D1 2.3cm"),
    "radiograph": ("L", "R", "AP", "PA", "LAT", "LT", "RT", "ERECT", "80 kV", "12 mAs", "100 mA", "PORTABLE",
                   "INF", "SUP"),
    "ultrasound": ("L SAG", "TRANS", "RT KIDNEY", "LT KIDNEY", "FR 30Hz", "Gain 50", "15 cm", "D1 2.3cm",
                   "D2 4.1 cm", "12/48", "C5-1", "THI", "DR 60"),
    "fundus": ("OD", "OS", "R", "L", "45", "FLASH 50", "1/12", "MACULA"),
}
SLOTS = ("top-left", "top-right", "bottom-left", "bottom-right", "top", "bottom", "left", "right")


@dataclass(frozen=True)
class TextTruth:
    """One burned-in string: its text, kind ("name", "date", "record number", "id", or "label") and box."""

    text: str
    kind: str
    box: tuple[int, int, int, int]  # x, y, w, h of the drawn glyphs


@dataclass
class BurnedInCase:
    """One image of the set and its truth."""

    name: str
    style: str
    image: CanonicalImage
    identifying: list[TextTruth] = field(default_factory=list)
    labels: list[TextTruth] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.identifying


def font_path(mono: bool) -> Path:
    """matplotlib's bundled DejaVu font (always there: matplotlib is a dependency)."""
    import matplotlib

    name = "DejaVuSansMono.ttf" if mono else "DejaVuSans.ttf"
    return Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / name


def _background(style: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """Pixels of one style (H x W for grey, H x W x 3 for fundus)."""
    h = w = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cy, cx = h / 2 + rng.uniform(-0.04, 0.04) * h, w / 2 + rng.uniform(-0.04, 0.04) * w
    if style == "ct":
        ry, rx = h * rng.uniform(0.30, 0.36), w * rng.uniform(0.38, 0.44)
        body = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 <= 1
        img = np.where(body, rng.uniform(95, 125), 0).astype(np.float32)
        for side in (-1, 1):  # lungs
            lung = ((yy - cy) / (ry * 0.65)) ** 2 + ((xx - cx - side * rx * 0.45) / (rx * 0.32)) ** 2 <= 1
            img[lung] = 25
        spine = ((yy - cy - ry * 0.7) / (ry * 0.14)) ** 2 + ((xx - cx) / (rx * 0.1)) ** 2 <= 1
        img[spine] = 230
        img += rng.normal(0, 6, img.shape) * body
        return img
    if style == "radiograph":
        img = 40 + 30 * (yy / h) + rng.normal(0, 3, (h, w))
        chest = ((yy - cy) / (h * 0.38)) ** 2 + ((xx - cx) / (w * 0.34)) ** 2 <= 1
        img[chest] += 90
        for k in range(7):  # ribs
            ry = cy - h * 0.25 + k * h * 0.075
            band = (np.abs(yy - ry - 0.08 * (xx - cx) ** 2 / w) < h * 0.012) & chest
            img[band] += 45
        mediastinum = (np.abs(xx - cx) < w * 0.07) & chest
        img[mediastinum] += 50
        return img
    if style == "ultrasound":
        img = np.zeros((h, w), np.float32)
        ay = h * 0.08
        r = np.hypot(yy - ay, xx - cx)
        ang = np.degrees(np.arctan2(xx - cx, yy - ay))
        fan = (r > h * 0.08) & (r < h * 0.86) & (np.abs(ang) < 38)
        speckle = rng.gamma(1.5, 30, (h, w)).astype(np.float32)
        img[fan] = np.clip(speckle[fan] * (1.1 - r[fan] / h * 0.7), 0, 200)
        cyst = ((yy - h * 0.5) / (h * 0.08)) ** 2 + ((xx - cx) / (w * 0.1)) ** 2 <= 1
        img[cyst & fan] *= 0.15
        return img
    # fundus: an orange-red disc, a bright optic disc, dark vessels
    r = np.hypot(yy - cy, xx - cx)
    disc = r < min(h, w) * 0.44
    img3 = np.zeros((h, w, 3), np.float32)
    shade = np.clip(1.0 - (r / (min(h, w) * 0.44)) ** 2 * 0.45, 0, 1)
    base = np.array([rng.uniform(190, 225), rng.uniform(80, 110), rng.uniform(25, 45)], np.float32)
    img3[disc] = base * shade[disc, None]
    ox, oy = cx + w * 0.16 * rng.choice([-1, 1]), cy
    od = np.hypot(yy - oy, xx - ox) < min(h, w) * 0.07
    img3[od & disc] = (250, 210, 140)
    for k in range(6):
        a = k * np.pi / 3 + rng.uniform(-0.3, 0.3)
        d = np.abs((xx - ox) * np.sin(a) - (yy - oy) * np.cos(a))
        along = (xx - ox) * np.cos(a) + (yy - oy) * np.sin(a)
        vessel = (d < max(1.5, h * 0.004)) & (along > 0) & disc
        img3[vessel] *= 0.55
    img3 += rng.normal(0, 3, img3.shape) * disc[..., None]
    return img3


def _place(slot: str, tw: int, th: int, size: int, margin: int, used: dict[str, int]) -> tuple[int, int]:
    """Top-left corner for a text of tw x th in ``slot``; a second text in a slot goes on the next line (``used``
    keeps how far down, or up, each slot's lines reach)."""
    offset = used.get(slot, 0)
    gap = max(4, th // 3)
    if slot.startswith("top"):
        y = margin + offset
    elif slot.startswith("bottom"):
        y = size - margin - th - offset
    else:
        y = size // 2 - th // 2 + offset
    if slot.endswith("left"):
        x = margin
    elif slot.endswith("right"):
        x = size - margin - tw
    else:
        x = size // 2 - tw // 2
    used[slot] = offset + th + gap + (th // 2 if slot in ("left", "right") and not offset else 0)
    return x, y


def _draw(draw: ImageDraw.ImageDraw, text: str, xy: tuple[int, int], font: ImageFont.FreeTypeFont,
          colour: tuple[int, int, int], grey: bool, stroke: int = 0) -> tuple[int, int, int, int]:
    fill: int | tuple[int, int, int] = int(round(0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2])) \
        if grey else colour
    # the box of the drawn glyphs: offset the anchor so that the glyphs start at xy
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((xy[0] - left, xy[1] - top), text, font=font, fill=fill, stroke_width=stroke,
              stroke_fill=0 if grey else (0, 0, 0))
    return xy[0], xy[1], right - left, bottom - top


def make_case(index: int, seed: int = 47) -> BurnedInCase:
    """The ``index``-th image of the set for ``seed`` (identifying text on odd indices... by a seeded draw)."""
    rng = random.Random(seed * 100_003 + index)
    nrng = np.random.default_rng(seed * 100_003 + index)
    style = STYLES[index % len(STYLES)]
    size = rng.choice(SIZES)
    identifying = index % 2 == 1
    pixels = np.clip(_background(style, size, nrng), 0, 255).astype(np.uint8)
    grey = pixels.ndim == 2
    im = Image.fromarray(pixels, mode="L" if grey else "RGB")
    if style == "ultrasound" and rng.random() < 0.5:  # many ultrasound exports are RGB
        im, grey = im.convert("RGB"), False
    draw = ImageDraw.Draw(im)
    slots = list(SLOTS)
    rng.shuffle(slots)
    used: dict[str, int] = {}
    margin = max(4, size // 64)
    out_id: list[TextTruth] = []
    out_labels: list[TextTruth] = []
    placed: list[tuple[int, int, int, int]] = []

    def put(text: str, kind: str, slot: str) -> None:
        height = rng.randint(10, 24)  # the box height of the drawn text, in px
        mono = rng.random() < 0.5
        colour = COLOURS[rng.choice(list(COLOURS))]
        font = ImageFont.truetype(str(font_path(mono)), height)
        # the font size that makes the text's glyph box `height` tall
        for _ in range(4):
            box = draw.textbbox((0, 0), text, font=font)
            actual = box[3] - box[1]
            if actual == height:
                break
            font = ImageFont.truetype(str(font_path(mono)), max(6, round(font.size * height / max(actual, 1))))
        tw = draw.textbbox((0, 0), text, font=font)
        while (tw[2] - tw[0]) > size * (0.45 if slot not in ("top", "bottom") else 0.9) - 2 * margin \
                and tw[3] - tw[1] > 10:  # shrunk to fit, never under 10 px tall
            font = ImageFont.truetype(str(font_path(mono)), font.size - 1)
            tw = draw.textbbox((0, 0), text, font=font)
        tw_, th_ = tw[2] - tw[0], tw[3] - tw[1]
        # the asked slot first, then the others: never over a text already drawn
        for candidate in [slot] + [s for s in SLOTS if s != slot]:
            trial = dict(used)
            x, y = _place(candidate, tw_, th_, size, margin, trial)
            pad = 4
            if x >= 0 and y >= 0 and x + tw_ <= size and y + th_ <= size and not any(
                    x < bx + bw + pad and bx < x + tw_ + pad and y < by + bh + pad and by < y + th_ + pad
                    for bx, by, bw, bh in placed):
                used.update(trial)
                break
        else:
            return
        # scanners outline their text where it crosses bright anatomy: a dark 1-px stroke where the contrast is low
        under = np.asarray(im.convert("L"))[y:y + th_, x:x + tw_]
        lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
        stroke = 1 if abs(lum - float(under.mean())) < 90 else 0
        box = _draw(draw, text, (x, y), font, colour, grey, stroke)
        placed.append(box)
        (out_id if kind != "label" else out_labels).append(TextTruth(text, kind, box))

    labels = list(LABELS[style])
    rng.shuffle(labels)
    n_labels = rng.randint(2, 4)
    slot_iter = iter(slots)
    if identifying:
        chosen = rng.sample(IDENTIFYING, rng.randint(1, 3))
        # a scanner stacks the patient's lines in one corner: two identifying strings may share a slot
        first = next(slot_iter)
        for k, (text, kind) in enumerate(chosen):
            put(text, kind, first if k < 2 else next(slot_iter))
        n_labels = rng.randint(1, 3)
    for text in labels[:n_labels]:
        put(text, "label", next(slot_iter))
    return BurnedInCase(f"{style}-{index:03d}-{size}", style, CanonicalImage.from_pil(im, copy=False),
                        out_id, out_labels)


def make_set(seed: int = 47, n: int = 64) -> list[BurnedInCase]:
    """``n`` cases (half with identifying text), the same for the same seed."""
    return [make_case(i, seed) for i in range(n)]


def covered(truth: tuple[int, int, int, int], boxes: list[tuple[int, int, int, int]]) -> float:
    """The share of the truth box's pixels inside the union of ``boxes``."""
    x, y, w, h = truth
    if w <= 0 or h <= 0:
        return 0.0
    mask = np.zeros((h, w), bool)
    for bx, by, bw, bh in boxes:
        x0, y0 = max(bx - x, 0), max(by - y, 0)
        x1, y1 = min(bx + bw - x, w), min(by + bh - y, h)
        if x1 > x0 and y1 > y0:
            mask[y0:y1, x0:x1] = True
    return float(mask.mean())


if __name__ == "__main__":  # write the set as PNGs to look at: python tests/burned_in.py OUT_DIR
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "burned_in_set")
    out.mkdir(parents=True, exist_ok=True)
    for case in make_set():
        (out / f"{case.name}.png").write_bytes(case.image.png)
        print(case.name, [t.text for t in case.identifying], [t.text for t in case.labels])
