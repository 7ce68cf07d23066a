"""Image perturbations: geometry (rotation and flips, MedBLINK / RotationalEval), removal (Illusion T1/T2) and
substitution (MediConfusion pairs, Illusion T5, MedVH wrongful image)."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Annotated, Any, Callable, Literal

from PIL import Image
from pydantic import Field

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.lazy import lazy_module
from probe_ui.perturb.params import NonBlank, Number
from probe_ui.perturb.registry import PerturbationError, PerturbContext, Sweep, phrase_number, register

if TYPE_CHECKING:
    import numpy as np
else:  # imported when an image is perturbed, not when perturbations are listed
    np = lazy_module("numpy")

_EXACT = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}
_BAND_BYTES = 1 << 20  # pixels move between Pillow and numpy in bands of about this size


def map_images(variant: Variant, fn: Callable[[Image.Image], Image.Image], op: str = "this perturbation") -> Variant:
    """Apply a pixel function to every image (shared by the image families: dots, markers, degradations).

    ``fn`` gets a private copy of each image (it may modify it in place and return it, see :func:`with_pixels`) and
    returns the new pixels, in any mode and size; they are made canonical (L or RGB) here.
    """
    if not variant.images:
        raise PerturbationError(f"{op} needs an image, and the variant has none")
    return variant.evolve(images=tuple(CanonicalImage.from_pil(fn(im.pil()), copy=False) for im in variant.images))


def pixels_of(im: Image.Image, rgbx: bool = False) -> np.ndarray:
    """An L or RGB image's pixels as a new C-contiguous uint8 array: H×W, or H×W×3 (H×W×4 with ``rgbx``: Pillow's
    own layout, the fourth byte being padding; cheaper to read, and OpenCV warps four channels faster than three).

    Read band by band: the same values as ``np.asarray(im)``, but without one image-sized temporary bytes object,
    whose fresh memory costs more to touch than the copy itself on a 2048-px image.
    """
    w, h = im.size
    four = rgbx and im.mode == "RGB"
    out = np.empty((h, w) if im.mode == "L" else (h, w, 4 if four else 3), np.uint8)
    rows = max(1, _BAND_BYTES // max(1, out[:1].nbytes))
    for y in range(0, h, rows):
        band = im.crop((0, y, w, min(h, y + rows)))
        out[y:y + rows] = np.frombuffer(band.tobytes("raw", "RGBX"), np.uint8).reshape(-1, w, 4) if four \
            else np.asarray(band)
    return out


def _image(pixels: np.ndarray) -> Image.Image:
    """A new L or RGB image from an array as :func:`pixels_of` returns it (H×W×4 is read as RGBX)."""
    if pixels.ndim == 2:
        return Image.fromarray(pixels)  # L: shares the array's memory
    h, w, channels = pixels.shape
    im = Image.new("RGB", (w, h), None)  # not initialised: every pixel is written next
    im.frombytes(np.ascontiguousarray(pixels), "raw", "RGBX" if channels == 4 else "RGB")
    return im


def with_pixels(im: Image.Image, pixels: np.ndarray) -> Image.Image:
    """Put an array of ``im``'s own size and mode (as from :func:`pixels_of`) into ``im``, in place; return ``im``.

    ``im`` must be the private copy :func:`map_images` handed over; reusing its memory saves allocating (and
    faulting in) a second image-sized buffer, which is what ``Image.fromarray`` would do.
    """
    im.frombytes(np.ascontiguousarray(pixels))
    return im


def _rotate_matrix(w: int, h: int, angle: float) -> tuple[np.ndarray, int, int]:
    """Pillow's ``rotate(angle, expand=True)`` geometry as an OpenCV inverse map: the 2×3 matrix taking an output
    pixel index to the source position it samples, and the expanded canvas size (the rotated image's bounding
    box, centred)."""
    rad = -math.radians(angle)
    c, s = round(math.cos(rad), 15), round(math.sin(rad), 15)
    cx, cy = w / 2.0, h / 2.0
    tx, ty = cx - (c * cx + s * cy), cy - (-s * cx + c * cy)  # rotation about the centre (output → input)
    xs = [c * x + s * y + tx for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    ys = [-s * x + c * y + ty for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    nw = math.ceil(max(xs)) - math.floor(min(xs))
    nh = math.ceil(max(ys)) - math.floor(min(ys))
    dx, dy = -(nw - w) / 2.0, -(nh - h) / 2.0
    tx, ty = c * dx + s * dy + tx, -s * dx + c * dy + ty
    # Pillow samples pixel centres (x + 0.5, y + 0.5); OpenCV indexes them by integers
    m = np.array([[c, s, c * 0.5 + s * 0.5 + tx - 0.5], [-s, c, -s * 0.5 + c * 0.5 + ty - 0.5]])
    return m, nw, nh


@register(
    "rotate",
    "Rotate every image counter-clockwise by `angle` degrees (90/180/270 are exact pixel moves; other angles "
    "expand the canvas, resample bilinearly and fill the border with `fill`).",
    "unchanged for content questions; use answer_map for orientation questions (e.g. correct → upside down)",
    label="rotate", phrase=lambda p: f"rotated {phrase_number(p.get('angle', 90))}°",
    sweep=Sweep(80, param="angle", levels=(15, 30, 45, 90, 180), top=359, unit="°", unit_name="degrees",
                axis="rotation (degrees)", turns_image=True),
)
def rotate(variant: Variant, rng: random.Random,
           angle: Annotated[Number, Field(ge=-360, le=360, description="degrees to turn counter-clockwise (negative: "
                                          "clockwise); 90, 180 and 270 move pixels exactly")] = 90,
           fill: Annotated[Literal["black", "white"], Field(description="colour of the corners that a turn other "
                                                             "than a multiple of 90° uncovers")] = "black") -> Variant:
    """Rotation about the image centre. A multiple of 90° moves pixels exactly (four quarter turns give back the
    original); any other angle samples the source bilinearly onto a canvas just large enough for the rotated
    image (Pillow's ``expand=True`` size), whose uncovered corners get ``fill`` (black or white); the image's
    own edge is blended with the fill over one pixel."""
    a = float(angle) % 360
    if a == 0:
        return variant
    if a in _EXACT:
        return map_images(variant, lambda im: im.transpose(_EXACT[int(a)]))
    colour = {"black": 0, "white": 255}[fill]

    def turn(im: Image.Image) -> Image.Image:
        import cv2  # here, not at the top: 0.3 s that only image perturbations pay

        m, nw, nh = _rotate_matrix(im.width, im.height, a)
        out = cv2.warpAffine(pixels_of(im, rgbx=True), m, (nw, nh), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=(colour,) * 4)
        return _image(out)

    return map_images(variant, turn)


@register("flip", "Mirror every image horizontally (`axis: h`) or vertically (`axis: v`).",
          "unchanged for content questions; laterality questions need answer_map (left ↔ right)",
          label="mirror",
          phrase=lambda p: "mirrored top to bottom" if p.get("axis") == "v" else "mirrored left to right")
def flip(variant: Variant, rng: random.Random,
         axis: Annotated[Literal["h", "v"], Field(description="h mirrors left and right, v top and bottom")] = "h",
         ) -> Variant:
    ops = {"h": Image.Transpose.FLIP_LEFT_RIGHT, "v": Image.Transpose.FLIP_TOP_BOTTOM}
    return map_images(variant, lambda im: im.transpose(ops[axis]))


# ---------------------------------------------------------------------------------------------------------------
# Removal and substitution (Illusion of Readiness T1/T2 and T5; MediConfusion pairs; MedVH wrongful image)
# ---------------------------------------------------------------------------------------------------------------


@register("remove", "Send the question without its image(s) (text only).",
          "unchanged; the right behaviour is to abstain, so report accuracy against chance and the abstention rate",
          label="send without the image", phrase=lambda p: "no image")
def remove(variant: Variant, rng: random.Random) -> Variant:
    """Illusion of Readiness T1/T2: does the model still answer (above chance) with nothing to look at?"""
    if not variant.images:
        raise PerturbationError("remove: the variant has no image to remove")
    return variant.evolve(images=())


Prefer = Literal["same-question", "distractor", "unrelated", "any"]


def _same_question(a: Variant, b: Variant) -> bool:
    """Same question text and the same set of option texts: b's ground truth then answers a's question."""
    return a.question == b.question and set(a.options) == set(b.options)


def _swap_candidates(variant: Variant, ctx: PerturbContext, prefer: str) -> list[Variant]:
    # "another picture" is judged against the item's original images (already hashed with the pool), so that a
    # variant perturbed earlier in a chain is not PNG-encoded just for this comparison
    own = next((v for v in ctx.pool if v.item_id == variant.item_id), variant)
    others = [v for v in ctx.others(variant) if v.images and v.image_ids != own.image_ids]
    if prefer == "any":
        return others
    if prefer == "unrelated":
        # MedVH wrongful image: an image the question was not asked about (another question, no shared category)
        return [v for v in others if v.question != variant.question and not set(v.category) & set(variant.category)]
    partners = [v for v in others if _same_question(variant, v) and v.answer is not None]
    if prefer == "same-question":
        return partners
    if variant.answer is None:
        raise PerturbationError("swap: prefer 'distractor' needs the variant's own answer, and it is unknown")
    wrong = set(variant.options) - {variant.answer}
    return [v for v in partners if v.answer in wrong]


def _swap_phrase(p: dict[str, Any]) -> str:
    if p.get("source") == "image" and p.get("image"):
        return f"image replaced by {p['image']}"
    return {"same-question": "image swapped for the partner image",
            "distractor": "image swapped for one showing a wrong option",
            "unrelated": "image swapped for an unrelated one"}.get(str(p.get("prefer")), "image swapped for another")


@register(
    "swap",
    "Replace the image(s) with another item's (`source: preset`: a named `item`, or one chosen by `prefer`: "
    "same-question = the MediConfusion partner, distractor = a partner whose answer is one of this item's wrong "
    "options (Illusion T5), unrelated = another question and no shared category (MedVH wrongful image), any = "
    "any other item) or with a named bundled/uploaded image (`source: image`).",
    "follows the new image's ground truth when it is known (source item with the same question and option set); "
    "otherwise unknown (None); `answer: keep` keeps it",
    label="swap in another image", phrase=_swap_phrase,
)
def swap(variant: Variant, rng: random.Random, *, ctx: PerturbContext,
         source: Annotated[Literal["preset", "image"], Field(
             description="preset: another item's image(s); image: a named bundled or uploaded image")] = "preset",
         item: Annotated[NonBlank | None, Field(
             description="the id of the preset item whose image(s) to use (source: preset); unset: chosen by prefer"
         )] = None,
         image: Annotated[NonBlank | None, Field(
             description="the file name of a bundled or uploaded image (source: image)")] = None,
         prefer: Annotated[Prefer, Field(
             description="which other item to take when no item is named: same-question (the MediConfusion "
                         "partner), distractor, unrelated or any")] = "any",
         answer: Annotated[Literal["follow", "keep"], Field(
             description="follow: the answer follows the new image when it is known; keep: it stays")] = "follow",
         ) -> tuple[Variant, dict[str, Any]]:
    """P2: does the answer follow the pixels? The question and options stay; only the images change.

    The ground truth follows the new image only when it is known to answer the same question: the source item
    has the same question text and the same set of option texts (a MediConfusion partner). Otherwise it becomes
    None (unknown), unless ``answer: keep``.
    """
    if source == "image":
        if item is not None:
            raise PerturbationError("swap: `item` applies to source: preset; with source: image name an `image`")
        if image is None:
            raise PerturbationError("swap: source: image needs `image`, the name of a bundled or uploaded image")
        if image not in ctx.images:
            known = ", ".join(sorted(ctx.images)) or "none"
            raise PerturbationError(f"swap: no image named {image!r} (available: {known})")
        new = (ctx.images[image],)
        out = variant.evolve(images=new, answer=variant.answer if answer == "keep" else None)
        return out, {"item": None, "image": image, "image_ids": [im.id for im in new]}
    if image is not None:
        raise PerturbationError("swap: `image` names a bundled/uploaded image; set source: image to use it")
    if item is not None:
        if item == variant.item_id:
            raise PerturbationError(f"swap: item {item!r} is this variant's own item")
        found = [v for v in ctx.pool if v.item_id == item]
        if not found:
            raise PerturbationError(f"swap: no item {item!r} in this preset")
        chosen = found[0]
        if not chosen.images:
            raise PerturbationError(f"swap: item {item!r} has no image")
    else:
        candidates = _swap_candidates(variant, ctx, prefer)
        if not candidates:
            what = {"same-question": "with the same question and options and a known answer",
                    "distractor": "with the same question and options whose answer is one of this item's wrong "
                                  "options",
                    "unrelated": "with a different question and no shared category",
                    "any": "with an image"}[prefer]
            raise PerturbationError(f"swap: no other item {what} in the pool for item {variant.item_id!r}")
        chosen = rng.choice(candidates)
    if answer == "keep":
        new_answer = variant.answer
    else:
        new_answer = chosen.answer if _same_question(variant, chosen) else None
    out = variant.evolve(images=chosen.images, answer=new_answer)
    return out, {"item": chosen.item_id, "image": None, "image_ids": list(chosen.image_ids)}
