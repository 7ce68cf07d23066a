"""Degradations a clinician meets: noise, blur, compression, poor contrast or exposure, a zoomed crop, low resolution.

Each takes ``severity`` 1 (mild) .. 5 (severe), mapped to the documented level in its docstring, or an explicit
parameter that overrides the level. They apply to every image of the variant and keep its size (``crop`` with
``resize: false`` is the one exception). A model that answers a content question correctly should keep doing so
under mild degradation; the answer never changes.

OpenCV is imported inside the functions that use it: it costs 0.3 s, which a batch without image degradations
(or the start of one) need not pay.
"""

from __future__ import annotations

import functools
import io
import math
import random
from statistics import NormalDist
from typing import TYPE_CHECKING, Annotated, Any, Callable, Literal

from PIL import Image
from pydantic import Field

from probe_ui.items import Variant
from probe_ui.lazy import lazy_module
from probe_ui.perturb.image import map_images, pixels_of, with_pixels
from probe_ui.perturb.params import Number
from probe_ui.perturb.registry import Sweep, register, severity_phrase

if TYPE_CHECKING:
    import numpy as np
else:  # imported when an image is perturbed, not when perturbations are listed
    np = lazy_module("numpy")

NOISE_SIGMA = (5, 10, 20, 35, 50)  # grey levels (0-255)
BLUR_RADIUS_512 = (1, 2, 3, 5, 8)  # px for a 512-px long side, scaled to the image
JPEG_QUALITY = (90, 70, 50, 30, 10)
CONTRAST_FACTOR = (0.8, 0.6, 0.45, 0.3, 0.15)
BRIGHTNESS_FACTOR = (0.8, 0.6, 0.45, 0.3, 0.15)
CROP_KEEP = (0.9, 0.8, 0.7, 0.6, 0.5)
DOWNSCALE_FACTOR = (2, 4, 8, 16, 32)
UNCHANGED = "unchanged"

Severity = Annotated[int, Field(ge=1, le=5, description="how strong: 1 (mild) to 5 (severe), each a fixed level "
                                                         "(see the table)")]


def _pick(severity: int, table: tuple[Any, ...], value: float | None) -> tuple[float, int | None]:
    """The effective level: an explicit value wins over severity (then recorded with severity None)."""
    if value is not None:
        return float(value), None
    return float(table[severity - 1]), severity


@functools.lru_cache(maxsize=1)
def _normal_quantiles() -> np.ndarray:
    """Standard-normal quantiles at the midpoints of 65,536 equal-probability bins."""
    nd = NormalDist()
    return np.array([nd.inv_cdf((i + 0.5) / 65536) for i in range(65536)])


def _same_channels(a: np.ndarray) -> bool:
    """Whether an H×W×3 array's three channels are equal."""
    return bool(np.array_equal(a[..., 0], a[..., 1]) and np.array_equal(a[..., 1], a[..., 2]))


@register("noise", "Add seeded Gaussian noise (severity 1-5: sigma 5, 10, 20, 35, 50 grey levels; or `sigma`).",
          UNCHANGED,
          label="add noise", phrase=severity_phrase("noise added"), sweep=Sweep(10))
def noise(variant: Variant, rng: random.Random, severity: Severity = 3,
          sigma: Annotated[Number | None, Field(gt=0, le=255, description="the noise's standard deviation in grey "
                                                "levels (0-255); overrides severity")] = None,
          ) -> tuple[Variant, dict[str, Any]]:
    """Gaussian noise, as in a low-dose or low-signal acquisition.

    ======== ============
    severity sigma (0-255)
    ======== ============
    1        5
    2        10
    3        20
    4        35
    5        50
    ======== ============

    Grey images (L, or RGB with three equal channels) get the same noise in every channel so they stay grey.
    The normal deviates come from a 65,536-entry inverse-CDF table indexed by 16 random bits (tails clipped at
    ±4.3 sigma); since the result is rounded to whole grey levels anyway this matches exact Gaussian noise, at a
    fraction of the cost. The result is clipped to 0-255. The work goes a band of rows at a time in cache-sized
    buffers; each band draws whole 64-bit words, so the random stream, and the result, are those of a single
    image-sized draw.
    """
    s, sev = _pick(severity, NOISE_SIGMA, sigma)
    bits = np.random.PCG64(rng.getrandbits(63))  # raw 64-bit draws, split into 16-bit table indices
    table = np.rint(_normal_quantiles() * s).astype(np.int16)

    def add(im: Image.Image) -> Image.Image:
        import cv2

        w, h = im.size
        channels = len(im.getbands())
        # bands of a multiple of 4 rows: each band draws whole 64-bit words (4 table indices each)
        rows = max(4, (1 << 16) // (w * channels) // 4 * 4)
        starts = range(0, h, rows)

        def read(y: int) -> np.ndarray:
            return np.asarray(im.crop((0, y, w, min(h, y + rows))))

        ahead: list[np.ndarray] = []  # bands read to tell a grey RGB image (three equal channels) from colour
        grey = channels == 1
        if not grey:
            for y in starts:
                ahead.append(read(y))
                if not _same_channels(ahead[-1]):
                    break
            else:
                grey = True
        single = grey and channels == 3  # one noise field for all three channels
        shape = (w,) if grey else (w, channels)
        out = np.empty((h,) + shape, np.uint8)
        index = np.empty((rows,) + shape, np.intp)
        values = np.empty((rows,) + shape, np.int16)
        for i, y in enumerate(starts):
            band = ahead[i] if i < len(ahead) else read(y)
            if single:
                band = np.ascontiguousarray(band[..., 0])
            n = band.shape[0]
            raw = bits.random_raw((band.size + 3) // 4).astype("<u8", copy=False)
            np.copyto(index[:n], raw.view("<u2")[:band.size].reshape(band.shape))
            v = values[:n]
            np.take(table, index[:n], out=v, mode="clip")  # every index is valid: clip is a no-op
            np.add(v, band, out=v)
            np.clip(v, 0, 255, out=out[y:y + n], casting="unsafe")
        if single:
            return with_pixels(im, cv2.cvtColor(out, cv2.COLOR_GRAY2RGB))
        return with_pixels(im, out)

    return map_images(variant, add, "noise"), {"severity": sev, "sigma": s}


def _box3_kernel(sigma: float) -> np.ndarray:
    """The 1-D kernel of three successive box blurs whose variances add up to ``sigma``² (Pillow's Gaussian blur,
    after Gwosdek et al. 2011): boxes of fractional width 2r + 1, the two end taps weighing the fraction."""
    s2 = sigma * sigma / 3
    ell = math.floor((math.sqrt(12 * s2 + 1) - 1) / 2)
    frac = (2 * ell + 1) * (ell * (ell + 1) - 3 * s2) / (6 * (s2 - (ell + 1) ** 2))
    box = np.ones(2 * ell + 3)
    box[0] = box[-1] = frac
    box /= box.sum()
    kernel = np.convolve(np.convolve(box, box), box)
    return (kernel + kernel[::-1]) / 2  # exactly symmetric


def _gaussian(a: np.ndarray, sx: float, sy: float) -> np.ndarray:
    """Separable three-box Gaussian blur (:func:`_box3_kernel`), edges replicated, rounded once."""
    import cv2

    return cv2.sepFilter2D(a, -1, _box3_kernel(sx), _box3_kernel(sy), borderType=cv2.BORDER_REPLICATE)


BLUR_REDUCE_FROM = 2.0  # px: from this sigma on, the blur is computed on a reduced copy
BLUR_MAX_RADIUS = 1000  # px: far past blurring any image to its mean; bounds the kernel's size


def _blur_factor(sigma: float, side: int) -> int:
    """How many times a side is reduced for the blur: 1 below BLUR_REDUCE_FROM, else the largest power of two
    ≤ sigma/2.5, at least 2 (so the reduced copy's sigma is under 5 px), keeping at least 8 px."""
    if sigma < BLUR_REDUCE_FROM:
        return 1
    f = max(2, 1 << int(math.log2(sigma / 2.5)))
    while f > 1 and f * 8 > side:
        f //= 2
    return f


def _shrink(im: Image.Image, fx: int, fy: int) -> np.ndarray:
    """Average fx×fy blocks: Pillow's ``reduce`` when the factors divide the size (reads the image directly;
    fast), else an area-weighted resize to the nearest whole size."""
    import cv2

    w, h = im.size
    if w % fx == 0 and h % fy == 0:
        return np.asarray(im.reduce((fx, fy)))
    return cv2.resize(pixels_of(im), (max(1, round(w / fx)), max(1, round(h / fy))), interpolation=cv2.INTER_AREA)


@register("blur", "Gaussian blur, three box passes as in Pillow (severity 1-5: radius 1, 2, 3, 5, 8 px per 512 px "
          "of the long side; or `radius` in px); from 2 px on computed on an area-reduced copy, scaled back up.",
          UNCHANGED,
          label="blur", phrase=severity_phrase("blurred"), sweep=Sweep(20))
def blur(variant: Variant, rng: random.Random, severity: Severity = 3,
         radius: Annotated[Number | None, Field(gt=0, le=BLUR_MAX_RADIUS, description="the blur's standard deviation "
                                                "in pixels of the image as it is; overrides severity")] = None,
         ) -> tuple[Variant, dict[str, Any]]:
    """Gaussian blur, as in motion, defocus or a smoothing reconstruction kernel. ``radius`` is the standard
    deviation (sigma), as in Pillow's ``GaussianBlur``.

    ======== ====================================
    severity radius (px per 512 px of long side)
    ======== ====================================
    1        1
    2        2
    3        3
    4        5
    5        8
    ======== ====================================

    The level is scaled to each image's long side so that a severity looks alike on a 256- and a 2048-px image;
    an explicit ``radius`` is in pixels of the image as it is.

    The kernel is Pillow's approximation of a Gaussian: three successive box blurs of fractional width whose
    variances add up to radius² (applied as one separable kernel, edges replicated, rounded once). From a radius
    of 2 px on, the blur is computed on a copy reduced f times per side by averaging f×f blocks (f the largest
    power of two ≤ radius / 2.5, at least 2; at least 8 px are kept) and scaled back up bilinearly, the reduced
    copy's radius chosen so that the total variance is still radius². Measured against an exact Gaussian on the
    bundled histology tile at 2048 px this is as close as Pillow's full-size blur (about 0.3-0.5 grey levels on
    average, a few at most), at a small fraction of the cost. Within about one radius of the border the image is
    extended by its outer f-pixel band rather than by its outermost row, which can differ from Pillow's result
    there by up to about 10 grey levels for radii of 30 px and more.
    """
    r, sev = _pick(severity, BLUR_RADIUS_512, radius)
    radii: list[float] = []

    def run(im: Image.Image) -> Image.Image:
        import cv2

        px = r if sev is None else r * max(im.size) / 512
        radii.append(round(px, 3))
        w, h = im.size
        fx, fy = _blur_factor(px, w), _blur_factor(px, h)
        if fx == fy == 1:
            return with_pixels(im, _gaussian(pixels_of(im), px, px))
        small = _shrink(im, fx, fy)
        # the area reduction and the bilinear enlargement blur too: about (f² − 1)/12 + f²/6 px² of variance
        gx, gy = w / small.shape[1], h / small.shape[0]
        sx, sy = (math.sqrt(max(px * px - (g * g - 1) / 12 - g * g / 6, 0.0)) / g for g in (gx, gy))
        low = _gaussian(small, sx, sy)
        return with_pixels(im, cv2.resize(low, (w, h), interpolation=cv2.INTER_LINEAR))

    out = map_images(variant, run, "blur")
    return out, {"severity": sev, "radius": radii if len(radii) > 1 else radii[0]}


@register("jpeg", "Re-encode as JPEG and decode (severity 1-5: quality 90, 70, 50, 30, 10; or `quality`).",
          UNCHANGED,
          label="JPEG compression", phrase=severity_phrase("JPEG artefacts"), sweep=Sweep(30))
def jpeg(variant: Variant, rng: random.Random, severity: Severity = 3,
         quality: Annotated[int | None, Field(ge=1, le=95, description="JPEG quality, 1 (worst) to 95; overrides "
                                              "severity")] = None) -> tuple[Variant, dict[str, Any]]:
    """Lossy compression, as in images sent by e-mail, messaging or a web PACS viewer.

    ======== =======
    severity quality
    ======== =======
    1        90
    2        70
    3        50
    4        30
    5        10
    ======== =======

    Colour images use 4:2:0 chroma subsampling (the common default); grey images stay grey.
    """
    q = quality if quality is not None else JPEG_QUALITY[severity - 1]
    sev = None if quality is not None else severity

    def run(im: Image.Image) -> Image.Image:
        buf = io.BytesIO()
        extra = {"subsampling": "4:2:0"} if im.mode == "RGB" else {}
        im.save(buf, format="JPEG", quality=q, optimize=False, **extra)
        with Image.open(io.BytesIO(buf.getvalue())) as dec:
            return dec.convert(im.mode)

    return map_images(variant, run, "jpeg"), {"severity": sev, "quality": q}


def _lut(im: Image.Image, fn: Callable[[int], float]) -> Image.Image:
    """Apply a grey-level mapping to every channel through a 256-entry table (rounded, clipped)."""
    table = [min(255, max(0, int(math.floor(fn(v) + 0.5)))) for v in range(256)]
    return im.point(table * len(im.getbands()))


def _contrast_phrase(p: dict[str, Any]) -> str:
    f = p.get("factor")
    return severity_phrase("more contrast" if f is not None and f > 1 else "less contrast")(p)


@register("contrast", "Reduce contrast (severity 1-5: factor 0.8, 0.6, 0.45, 0.3, 0.15; or `factor`, > 1 raises it).",
          UNCHANGED,
          label="lower or raise contrast", phrase=_contrast_phrase, sweep=Sweep(40))
def contrast(variant: Variant, rng: random.Random, severity: Severity = 3,
             factor: Annotated[Number | None, Field(gt=0, le=100, description="how far each value moves from the "
                                                    "mean: below 1 flattens, above 1 raises contrast; overrides "
                                                    "severity")] = None) -> tuple[Variant, dict[str, Any]]:
    """Flattened contrast, as with a poor window or a washed-out screen capture: every value v becomes
    ``m + factor·(v − m)`` (rounded, clipped to 0-255), m = the image's mean grey level (as Pillow's
    ``ImageEnhance.Contrast``, done with a lookup table).

    ======== ======
    severity factor
    ======== ======
    1        0.8
    2        0.6
    3        0.45
    4        0.3
    5        0.15
    ======== ======
    """
    f, sev = _pick(severity, CONTRAST_FACTOR, factor)
    means: list[int] = []

    def run(im: Image.Image) -> Image.Image:
        hist = (im if im.mode == "L" else im.convert("L")).histogram()
        m = int(sum(i * c for i, c in enumerate(hist)) / max(1, sum(hist)) + 0.5)
        means.append(m)
        return _lut(im, lambda v: m + f * (v - m))

    out = map_images(variant, run, "contrast")
    return out, {"severity": sev, "factor": f, "mean": means if len(means) > 1 else means[0]}


def _brightness_phrase(p: dict[str, Any]) -> str:
    f = p.get("factor")
    return severity_phrase("brighter" if f is not None and f > 1 else "darker")(p)


@register("brightness", "Darken (severity 1-5: factor 0.8, 0.6, 0.45, 0.3, 0.15; or `factor`, > 1 brightens).",
          UNCHANGED,
          label="darken or brighten", phrase=_brightness_phrase, sweep=Sweep(50))
def brightness(variant: Variant, rng: random.Random, severity: Severity = 3,
               factor: Annotated[Number | None, Field(gt=0, le=100, description="every value is multiplied by it: "
                                                      "below 1 darkens, above 1 brightens; overrides severity")] = None,
               ) -> tuple[Variant, dict[str, Any]]:
    """Under-exposure (or over-exposure with ``factor`` > 1): every value is multiplied by ``factor``, rounded and
    clipped (like Pillow's ``ImageEnhance.Brightness``, via a lookup table).

    ======== ======
    severity factor
    ======== ======
    1        0.8
    2        0.6
    3        0.45
    4        0.3
    5        0.15
    ======== ======
    """
    f, sev = _pick(severity, BRIGHTNESS_FACTOR, factor)
    return map_images(variant, lambda im: _lut(im, lambda v: v * f), "brightness"), \
        {"severity": sev, "factor": f}


@register("crop", "Central crop/zoom keeping a fraction of each side (severity 1-5: 0.9, 0.8, 0.7, 0.6, 0.5; or "
          "`keep`), resized back to the original size (bicubic) unless `resize: false`.", UNCHANGED,
          label="crop (zoom in)", phrase=severity_phrase("cropped"), sweep=Sweep(60))
def crop(variant: Variant, rng: random.Random, severity: Severity = 3,
         keep: Annotated[Number | None, Field(gt=0, le=1, description="the fraction of each side kept around the "
                                              "centre; overrides severity")] = None,
         resize: Annotated[bool, Field(description="scale the crop back to the original size")] = True,
         ) -> tuple[Variant, dict[str, Any]]:
    """Zoomed-in central crop, as in a screenshot of part of a scan: the edges (and what lies there) are lost.

    ======== =========================
    severity kept fraction of each side
    ======== =========================
    1        0.9
    2        0.8
    3        0.7
    4        0.6
    5        0.5
    ======== =========================

    The crop is scaled back to the original size (bicubic, OpenCV's: a = −0.75) unless ``resize: false``, which
    keeps the smaller crop (the one degradation that changes the size).
    """
    k, sev = _pick(severity, CROP_KEEP, keep)
    boxes: list[list[int]] = []

    def run(im: Image.Image) -> Image.Image:
        import cv2

        w, h = im.size
        cw, ch = max(1, int(round(w * k))), max(1, int(round(h * k)))
        x0, y0 = (w - cw) // 2, (h - ch) // 2
        box = (x0, y0, x0 + cw, y0 + ch)
        boxes.append(list(box))
        if not resize:
            return im.crop(box)
        part = pixels_of(im)[box[1]:box[3], box[0]:box[2]]
        return with_pixels(im, cv2.resize(part, (w, h), interpolation=cv2.INTER_CUBIC))

    out = map_images(variant, run, "crop")
    return out, {"severity": sev, "keep": k, "box": boxes if len(boxes) > 1 else boxes[0], "resize": bool(resize)}


_RESAMPLE = {"nearest": "INTER_NEAREST_EXACT", "bilinear": "INTER_LINEAR"}  # cv2 flags, looked up when used
DOWNSCALE_MAX_FACTOR = 100_000  # more than any image's long side: the shrunken copy is then 1 px


@register("downscale", "Lower the resolution: shrink by a factor (severity 1-5: 2, 4, 8, 16, 32; or `factor`) with "
          "area averaging, then scale back up (`resample`: bilinear or nearest).", UNCHANGED,
          label="lower the resolution", phrase=severity_phrase("lower resolution"), sweep=Sweep(70))
def downscale(variant: Variant, rng: random.Random, severity: Severity = 3,
              factor: Annotated[Number | None, Field(ge=1, le=DOWNSCALE_MAX_FACTOR, description="how many times "
                                                     "smaller each side gets before it is scaled back up; overrides "
                                                     "severity")] = None,
              resample: Annotated[Literal["bilinear", "nearest"], Field(
                  description="how the small copy is scaled back up: bilinear (smooth) or nearest (blocky)")
              ] = "bilinear") -> tuple[Variant, dict[str, Any]]:
    """Low resolution, as in a thumbnail or a downsampled upload viewed at full size.

    ======== ======
    severity factor
    ======== ======
    1        2
    2        4
    3        8
    4        16
    5        32
    ======== ======

    The small side of the shrunken copy is at least 1 px. Shrinking averages whole f×f blocks when f divides the
    size (area-weighted otherwise); enlarging samples pixel centres, as Pillow does.
    """
    f, sev = _pick(severity, DOWNSCALE_FACTOR, factor)
    sizes: list[list[int]] = []

    def run(im: Image.Image) -> Image.Image:
        import cv2

        w, h = im.size
        small = (max(1, int(round(w / f))), max(1, int(round(h / f))))
        sizes.append(list(small))
        if float(f).is_integer() and w % int(f) == 0 and h % int(f) == 0:
            low = np.asarray(im.reduce(int(f)))  # exact block average, straight from the image
        else:
            low = cv2.resize(pixels_of(im), small, interpolation=cv2.INTER_AREA)
        return with_pixels(im, cv2.resize(low, (w, h), interpolation=getattr(cv2, _RESAMPLE[resample])))

    out = map_images(variant, run, "downscale")
    return out, {"severity": sev, "factor": f, "size": sizes if len(sizes) > 1 else sizes[0], "resample": resample}
