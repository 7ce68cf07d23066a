"""Coloured dots (P6): MedBLINK tasks 2-4 — which of the red/green/blue dots is deepest / closest to the skin?

Three filled circles of exact colours are drawn at given or sampled points; the variant can become a ``label``
question whose answer is the colour of the dot at the target location. ``permutation`` re-assigns the colours to
the *same* locations (MedBLINK's colour-bias check: all 3! = 6 assignments from one seed). The ultrasound
placement reproduces MedBLINK task 3: a grey-level mask of the scan cone, its vertical extent split into thirds
with a gap between them, one dot in each third.

Masks are computed on a working copy whose long side is at most 512 px (block-averaged); for larger images the
mask is that copy's mask scaled back up by whole blocks, which keeps placement fast on 2048-px images.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, Literal

from PIL import Image, ImageDraw, ImageFont
from pydantic import AfterValidator, Field

from probe_ui.items import Variant
from probe_ui.lazy import lazy_module
from probe_ui.perturb.overlay import (
    COLOURS,
    Colour,
    ImageIndex,
    Relative,
    colour_rgb,
    pick_image,
    replace_image,
    scaled_px,
)
from probe_ui.perturb.params import NonBlank, Points, Shape, fractional
from probe_ui.perturb.registry import PerturbationError, register

if TYPE_CHECKING:
    import numpy as np
else:  # imported when an image is perturbed, not when perturbations are listed
    np = lazy_module("numpy")

DEFAULT_COLOURS = tuple(COLOURS)  # red, green, blue first; more dots take the next names
WORK_SIDE = 512  # long side of the working copy used for masks
CLOSE_SIZE = 5  # morphological closing (square, working-copy px) that joins the speckled cone into one piece
MAX_DOTS = 10
MIN_DISTANCE = 2.5  # dot centres at least this many radii apart (sampled placements)


def _distinct(names: list[str]) -> list[str]:
    if len({c.strip().lower() for c in names}) != len(names):
        raise ValueError("colours must differ")
    return names


Colours = Annotated[list[Colour], Field(min_length=1, max_length=MAX_DOTS), AfterValidator(_distinct),
                    Shape("list", f"a list of 1 to {MAX_DOTS} different colour names (red, green, blue, ... "
                                   "or #rrggbb)")]
if TYPE_CHECKING:  # what the parameters hold once validated: a number, or a fraction kept as text ("1/70")
    DotRadius = float | str
    RadiusFraction = float | str
    Threshold = float | str
else:  # the same, with their bounds, for pydantic
    DotRadius = fractional(ge=1)
    RadiusFraction = fractional(gt=0, lt=0.5)
    Threshold = fractional(ge=0, le=255)
MAX_GAP = 100_000  # px


def _number(value: float | str) -> float:
    """A declared :data:`~probe_ui.perturb.params.Fractional` value as a float: a number, or a text with a fraction
    such as "1/70" (YAML-friendly), already checked."""
    return float(Fraction(value)) if isinstance(value, str) else float(value)


def _radius(width: int, height: int, radius: float | str | None, radius_fraction: float | str | None) -> int:
    if radius is not None and radius_fraction is not None:
        raise PerturbationError("dots: give either radius or radius_fraction, not both")
    if radius is not None:
        r = _number(radius)
    elif radius_fraction is not None:
        r = _number(radius_fraction) * max(width, height)
    else:
        return scaled_px(10, width, height, minimum=2)
    if not 1 <= r <= max(width, height) / 4:
        raise PerturbationError(f"dots: a radius of {r:g} px does not fit a {width}x{height} image")
    return max(1, int(round(r)))


def nth_permutation(n: int, index: int) -> tuple[int, ...]:
    """``list(itertools.permutations(range(n)))[index]`` without building the list (factorial number system)."""
    pool = list(range(n))
    out = []
    for k in range(n, 0, -1):
        step = math.factorial(k - 1)
        out.append(pool.pop(index // step))
        index %= step
    return tuple(out)


# --- masks -------------------------------------------------------------------------------------------------------


def _work_grey(image: Image.Image) -> tuple[np.ndarray, int]:
    """Grey levels of a working copy (long side ≤ WORK_SIDE, block-averaged) and the block size."""
    f = max(1, math.ceil(max(image.size) / WORK_SIDE))
    small = image.reduce(f) if f > 1 else image
    return np.asarray(small if small.mode == "L" else small.convert("L")), f


def _shift_reduce(mask: np.ndarray, half: int, op: np.ufunc) -> np.ndarray:
    """OR (dilation) or AND (erosion) over a (2·half+1)² square, separably, by shifting slices."""
    out = mask
    for axis in (0, 1):
        acc = out.copy()
        n = out.shape[axis]
        for s in range(1, half + 1):
            if s >= n:
                break
            lo = [slice(None)] * 2
            hi = [slice(None)] * 2
            lo[axis], hi[axis] = slice(0, n - s), slice(s, n)
            op(acc[tuple(lo)], out[tuple(hi)], out=acc[tuple(lo)])
            op(acc[tuple(hi)], out[tuple(lo)], out=acc[tuple(hi)])
        out = acc
    return out


def _close(mask: np.ndarray, size: int) -> np.ndarray:
    """Binary closing with a square (dilate, then erode); the margin keeps border components from eroding."""
    h, w = mask.shape
    half = size // 2
    big = np.zeros((h + 2 * size, w + 2 * size), dtype=bool)
    big[size:size + h, size:size + w] = mask
    closed = _shift_reduce(_shift_reduce(big, half, np.logical_or), half, np.logical_and)
    return closed[size:size + h, size:size + w]


def _row_runs(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """Per row, the half-open [start, end) runs of True (found for the whole mask at once)."""
    h, w = mask.shape
    padded = np.zeros((h, w + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    d = np.diff(padded, axis=1)
    sy, sx = np.nonzero(d == 1)  # row-major order: starts and ends pair up
    _, ex = np.nonzero(d == -1)
    rows: list[list[tuple[int, int]]] = [[] for _ in range(h)]
    for y, s, e in zip(sy.tolist(), sx.tolist(), ex.tolist()):
        rows[y].append((s, e))
    return rows


def largest_component(mask: np.ndarray) -> np.ndarray:
    """The largest 8-connected component of a boolean mask (run-length labelling with union-find; no scipy)."""
    parent: list[int] = []

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    rows: list[list[tuple[int, int, int]]] = []  # per row: (start, end, run id)
    prev: list[tuple[int, int, int]] = []
    for runs in _row_runs(mask):
        cur = []
        j = 0
        for s, e in runs:
            rid = len(parent)
            parent.append(rid)
            while j < len(prev) and prev[j][1] < s:  # previous runs ending before s-1 cannot touch (8-connected)
                j += 1
            k = j
            while k < len(prev) and prev[k][0] <= e:
                ra, rb = find(rid), find(prev[k][2])
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
                k += 1
            cur.append((s, e, rid))
        rows.append(cur)
        prev = cur
    if not parent:
        return np.zeros_like(mask, dtype=bool)
    sizes: dict[int, int] = {}
    for cur in rows:
        for s, e, rid in cur:
            root = find(rid)
            sizes[root] = sizes.get(root, 0) + e - s
    best = min(sizes, key=lambda r: (-sizes[r], r))
    out = np.zeros_like(mask, dtype=bool)
    for y, cur in enumerate(rows):
        for s, e, rid in cur:
            if find(rid) == best:
                out[y, s:e] = True
    return out


def _fill_rows(mask: np.ndarray) -> np.ndarray:
    """Fill each row between its leftmost and rightmost pixel: a scan sector is convex along every row."""
    out = np.zeros_like(mask)
    any_row = mask.any(axis=1)
    left = np.argmax(mask, axis=1)
    right = mask.shape[1] - np.argmax(mask[:, ::-1], axis=1)
    cols = np.arange(mask.shape[1])
    out[any_row] = (cols >= left[any_row, None]) & (cols < right[any_row, None])
    return out


def _work_cone(grey: np.ndarray, threshold: float) -> np.ndarray:
    return _fill_rows(largest_component(_close(grey > threshold, CLOSE_SIZE)))


def _upscale(mask: np.ndarray, f: int, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    if f == 1:
        return mask.copy()
    return np.repeat(np.repeat(mask, f, axis=0), f, axis=1)[:h, :w]


def cone_mask(image: Image.Image, threshold: float = 10) -> np.ndarray:
    """MedBLINK's ultrasound cone: grey > threshold, closed, largest connected component, rows filled.

    Burned-in text and scanner annotations are separate components and drop out. Returns a full-size (H, W)
    boolean array.
    """
    grey, f = _work_grey(image)
    return _upscale(_work_cone(grey, threshold), f, image.size)


def foreground_mask(image: Image.Image, threshold: float = 10) -> np.ndarray:
    """Non-background pixels: grey level > threshold (on the working copy for large images), full size."""
    grey, f = _work_grey(image)
    return _upscale(grey > threshold, f, image.size)


def _fits(mask: np.ndarray, half: int) -> np.ndarray:
    """Pixels whose (2·half+1)² square lies wholly inside the mask (an erosion, via an integral image)."""
    h, w = mask.shape
    k = 2 * half + 1
    if k > h or k > w:
        return np.zeros_like(mask)
    s = np.zeros((h + 1, w + 1), dtype=np.int32)
    s[1:, 1:] = mask.astype(np.int32).cumsum(0).cumsum(1)
    win = s[k:, k:] - s[:-k, k:] - s[k:, :-k] + s[:-k, :-k]
    out = np.zeros_like(mask)
    out[half:h - half, half:w - half] = win == k * k
    return out


# --- placement ---------------------------------------------------------------------------------------------------


def _sample(cands: np.ndarray, f: int, size: tuple[int, int], r: int, placed: list[list[int]],
            rng: random.Random, rows: tuple[int, int] | None = None) -> list[int] | None:
    """One point, uniform over the candidate working-copy pixels, jittered inside its block, away from ``placed``."""
    w, h = size
    ys, xs = np.nonzero(cands)
    if rows is not None:  # keep blocks that lie wholly in the band [y0, y1)
        keep = (ys * f >= rows[0]) & ((ys + 1) * f <= rows[1])
        ys, xs = ys[keep], xs[keep]
    if placed:
        px = np.array([p[0] for p in placed])[:, None]
        py = np.array([p[1] for p in placed])[:, None]
        cx, cy = xs[None, :] * f + (f - 1) / 2, ys[None, :] * f + (f - 1) / 2
        # distance from block centre, less the jitter reach, must still clear MIN_DISTANCE radii
        far = (np.hypot(cx - px, cy - py) - (f - 1) >= MIN_DISTANCE * r).all(axis=0)
        ys, xs = ys[far], xs[far]
    if len(xs) == 0:
        return None
    i = rng.randrange(len(xs))
    x = min(int(xs[i]) * f + rng.randrange(f), w - 1)
    y = min(int(ys[i]) * f + rng.randrange(f), h - 1)
    return [x, y]


def _disc_candidates(mask_work: np.ndarray, f: int, size: tuple[int, int], r: int) -> np.ndarray:
    """Working-copy pixels where a dot of radius r (full-size px) fits wholly inside the mask and the image."""
    w, h = size
    m = mask_work.copy()
    if w % f:
        m[:, -1] = False  # partial blocks at the border: keep discs off them
    if h % f:
        m[-1, :] = False
    return _fits(m, math.ceil(r / f) + (1 if f > 1 else 0))


def _place_uniform(size: tuple[int, int], n: int, r: int, rng: random.Random) -> list[list[int]]:
    w, h = size
    if 2 * r + 1 > min(w, h):
        raise PerturbationError(f"dots: a dot of radius {r} px does not fit in a {w}x{h} image")
    for _ in range(100):  # restart the whole set if it gets stuck (rare)
        placed: list[list[int]] = []
        for _ in range(200):
            p = [rng.randint(r, w - 1 - r), rng.randint(r, h - 1 - r)]
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= MIN_DISTANCE * r for q in placed):
                placed.append(p)
                if len(placed) == n:
                    return placed
    raise PerturbationError(f"dots: cannot place {n} non-overlapping dots of radius {r} px in a {w}x{h} image")


def _place_mask(image: Image.Image, n: int, r: int, threshold: float, rng: random.Random) -> list[list[int]]:
    grey, f = _work_grey(image)
    cands = _disc_candidates(grey > threshold, f, image.size, r)
    placed: list[list[int]] = []
    for _ in range(n):
        p = _sample(cands, f, image.size, r, placed, rng)
        if p is None:
            raise PerturbationError(
                f"dots: no room for {n} non-overlapping dots of radius {r} px inside the mask (grey > {threshold}); "
                "lower the threshold or the radius")
        placed.append(p)
    return placed


def _place_ultrasound(image: Image.Image, n: int, r: int, threshold: float, gap: int,
                      rng: random.Random) -> tuple[list[list[int]], list[list[int]]]:
    grey, f = _work_grey(image)
    cone_work = _work_cone(grey, threshold)
    if not cone_work.any():
        raise PerturbationError(f"dots: no ultrasound cone found (no pixel has grey level > {threshold})")
    rows = np.flatnonzero(cone_work.any(axis=1))
    top, bottom = int(rows[0]) * f, min((int(rows[-1]) + 1) * f, image.height)  # [top, bottom)
    band = (bottom - top - (n - 1) * gap) / n
    if band < 1:
        raise PerturbationError(f"dots: the cone is {bottom - top} px tall, too short for {n} bands with {gap}-px gaps")
    bands = [[int(round(top + i * (band + gap))), int(round(top + i * (band + gap) + band))] for i in range(n)]
    inside = _disc_candidates(cone_work, f, image.size, r)
    centre_only = cone_work.copy()
    placed: list[list[int]] = []
    for i, (y0, y1) in enumerate(bands):
        p = _sample(inside, f, image.size, r, placed, rng, (y0, y1))
        if p is None:  # a narrow apex: settle for the centre inside the cone
            p = _sample(centre_only, f, image.size, r, placed, rng, (y0, y1))
        if p is None:
            raise PerturbationError(f"dots: no room for a dot of radius {r} px in band {i + 1} (rows {y0}-{y1 - 1})")
        placed.append(p)
    return placed, bands


def _given_points(points: list[list[float | str]] | None, relative: bool, size: tuple[int, int]) -> list[list[int]]:
    w, h = size
    if not points:
        raise PerturbationError("dots: placement 'given' needs points: [[x, y], ...]")
    out = []
    for p in points:
        x, y = (_number(v) for v in p)
        if relative:
            if not (0 <= x <= 1 and 0 <= y <= 1):
                raise PerturbationError(f"dots: relative points are fractions 0-1, not {list(p)!r}")
            x, y = x * (w - 1), y * (h - 1)
        x, y = int(round(x)), int(round(y))
        if not (0 <= x < w and 0 <= y < h):
            raise PerturbationError(f"dots: point {list(p)!r} lies outside the {w}x{h} image")
        out.append([x, y])
    return out


def _or_list(names: list[str]) -> str:
    if len(names) <= 2:
        return " or ".join(names)
    return ", ".join(names[:-1]) + ", or " + names[-1]


def _label_font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType
        return ImageFont.load_default()


def _dots_phrase(p: dict[str, Any]) -> str:
    colours = p.get("colours")
    n = len(colours) if isinstance(colours, (list, tuple)) else p.get("n") or (len(p["points"]) if p.get("points")
                                                                                else None)
    what = f"{n} coloured dots" if n else "coloured dots"
    if p.get("permutation"):
        what += f" (colour order {p['permutation']})"
    return what + " added"


@register(
    "dots",
    "Draw N filled dots of exact colours (default red/green/blue; radius 10 px per 512 px of the long side) at "
    "given points or sampled ones (uniform, inside a grey-level mask, or MedBLINK's ultrasound rule: one dot per "
    "third of the scan cone); `target` turns the item into 'which dot ...?' and `permutation` re-colours the same "
    "locations (MedBLINK's 6 colour-location permutations).",
    "with `target`: a label question whose answer is the colour of the dot at the target location (follows "
    "`permutation`); without: unchanged",
    label="draw coloured dots", phrase=_dots_phrase,
)
def dots(variant: Variant, rng: random.Random,
         n: Annotated[int | None, Field(ge=1, le=MAX_DOTS, description="how many dots; unset: as many as the "
                                        "colours or points given, else 3")] = None,
         colours: Annotated[Colours | None, Field(description="the dots' colours in order; unset: red, green, blue, "
                                                  "then the next names of the table")] = None,
         radius: Annotated[DotRadius | None, Field(description="dot radius in pixels (at most a quarter of the long "
                                                   "side); unset: 10 px per 512 px of the long side")] = None,
         radius_fraction: Annotated[RadiusFraction | None, Field(description="dot radius as a fraction of the long "
                                                                 "side, e.g. '1/70' (instead of radius)")] = None,
         placement: Annotated[Literal["given", "uniform", "mask", "ultrasound"], Field(
             description="where the dots go: uniform (anywhere), given (at points), mask (on pixels brighter than "
                         "threshold) or ultrasound (one per third of the scan cone, MedBLINK)")] = "uniform",
         points: Annotated[Points | None, Field(description="the dots' centres [[x, y], ...] (placement: given)")
                           ] = None,
         relative: Relative = False,
         threshold: Annotated[Threshold, Field(description="grey level (0-255) above which a pixel belongs to the "
                                               "mask or scan cone (placement: mask, ultrasound)")] = 10,
         gap: Annotated[int, Field(ge=0, le=MAX_GAP, description="pixels left between the cone's thirds (placement: "
                                   "ultrasound)")] = 10,
         labels: Annotated[bool | Annotated[list[str], Field(min_length=1, max_length=MAX_DOTS)] | None, Field(
             description="write a label beside each dot: true for 1, 2, 3 ..., or a list of texts")] = False,
         target: Annotated[Literal["shallowest", "deepest"] | Annotated[int, Field(ge=0, le=MAX_DOTS - 1)] | None,
                           Field(description="ask which dot is shallowest or deepest (or is the dot with this "
                                             "index): the answer becomes that dot's colour")] = None,
         question: Annotated[NonBlank | None, Field(description="the question to ask instead (with target: "
                                                    "instead of MedBLINK's wording)")] = None,
         permutation: Annotated[int, Field(ge=0, le=math.factorial(MAX_DOTS) - 1, description=(
             "which assignment of the colours to the same locations (0 to n! - 1; MedBLINK's colour-bias check)"))
         ] = 0,
         image_index: ImageIndex = 0) -> tuple[Variant, dict[str, Any]]:
    """Dots on one image (``image_index``), converted to RGB so that the colours are exact.

    Locations are drawn first (from the seed alone), then coloured by ``permutation``: location i wears
    ``colours[perm[i]]`` with perm = the permutation'th of ``itertools.permutations(range(n))``, so one seed gives
    all n! colourings of the same points. Sampled locations come in random order (the ultrasound bands are
    shuffled too), so permutation 0 does not tie a colour to a depth. ``target``: shallowest = smallest y,
    deepest = largest y, an int = that location; the question then defaults to MedBLINK's wording (an int target
    keeps the item's question unless ``question`` is given). ``labels`` draws text beside each dot (true: 1, 2, 3
    by colour order), before the discs so that disc pixels stay exactly the stated colour.
    """
    if n is None:
        n = len(colours) if colours is not None else len(points) if points is not None else 3
    names = list(colours) if colours is not None else list(DEFAULT_COLOURS[:n])
    if len(names) != n:
        raise PerturbationError(f"dots: {n} dots need {n} colours, got {len(names)}: {names}")
    rgbs = [colour_rgb(c) for c in names]
    if permutation >= math.factorial(n):
        raise PerturbationError(f"dots: permutation must be an integer 0..{math.factorial(n) - 1}, not {permutation!r}")
    if points is not None and placement != "given":
        raise PerturbationError("dots: points are used with placement: given")
    index, canon = pick_image(variant, image_index, "dots")
    image = canon.pil()
    if image.mode != "RGB":
        image = image.convert("RGB")
    size = image.size
    r = _radius(*size, radius, radius_fraction)

    bands: list[list[int]] | None = None
    if placement == "given":
        locs = _given_points(points, bool(relative), size)
        if len(locs) != n:
            raise PerturbationError(f"dots: {len(locs)} points given for {n} dots")
    elif placement == "uniform":
        locs = _place_uniform(size, n, r, rng)
    elif placement == "mask":
        locs = _place_mask(image, n, r, _number(threshold), rng)
    else:
        locs, bands = _place_ultrasound(image, n, r, _number(threshold), gap, rng)
        order = list(range(n))
        rng.shuffle(order)  # location order must not encode depth, else permutation 0 always puts red on top
        locs = [locs[i] for i in order]

    perm = nth_permutation(n, permutation)
    loc_colour = [perm[i] for i in range(n)]  # location i wears colour names[perm[i]]

    if labels is True:
        texts = [str(k + 1) for k in range(n)]
    elif labels in (False, None):
        texts = None
    elif isinstance(labels, list) and len(labels) == n:
        texts = list(labels)
    else:
        raise PerturbationError(f"dots: labels is true/false or a list of {n} strings, not {labels!r}")

    draw = ImageDraw.Draw(image)
    if texts is not None:  # labels first, so that the discs drawn next keep their exact colour
        font = _label_font(max(10, 2 * r))
        for (x, y), c in zip(locs, loc_colour):
            right = x + r + 2 + 2 * r * len(texts[c]) < size[0]
            draw.text((x + r + 2, y) if right else (x - r - 2, y), texts[c], fill=rgbs[c], font=font,
                      anchor="lm" if right else "rm", stroke_width=max(1, r // 5), stroke_fill=(0, 0, 0))
    for (x, y), c in zip(locs, loc_colour):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=rgbs[c])

    out = replace_image(variant, index, image)
    target_index: int | None = None
    if target is not None:
        if target == "shallowest":
            target_index = min(range(n), key=lambda i: (locs[i][1], i))
        elif target == "deepest":
            target_index = max(range(n), key=lambda i: (locs[i][1], -i))
        elif isinstance(target, int) and target < n:
            target_index = target
        else:
            raise PerturbationError(f"dots: target is 'shallowest', 'deepest' or a point index 0..{n - 1}, "
                                    f"not {target!r}")
        if question is None:
            choices = f"(Answer with {_or_list(names)})"
            question = {"shallowest": f"Which of the dots is closest to the surface of the skin? {choices}",
                        "deepest": f"Which of the dots is at the greatest depth? {choices}"}.get(
                str(target), variant.question)
        out = out.evolve(kind="label", options=tuple(names), answer=names[loc_colour[target_index]],
                         question=question)
    elif question is not None:
        out = out.evolve(question=question)

    details: dict[str, Any] = {"points": locs, "colours": [names[c] for c in loc_colour],
                               "rgb": [list(rgbs[c]) for c in loc_colour], "radius": r,
                               "target_index": target_index, "permutation": permutation}
    if bands is not None:
        details["bands"] = bands
    if texts is not None:
        details["labels"] = [texts[c] for c in loc_colour]
    if len(variant.images) > 1:
        details["image_index"] = index
    return out, details
