"""What the perturbations that draw on an image share: colours by name, the image drawn on, lengths scaled to it.

Why a module: the coloured dots (:mod:`probe_ui.perturb.dots`) and the visual prompts (:mod:`probe_ui.perturb.markers`)
both draw on one of a variant's images, in colours named the same way (exact primaries for "red", "green", "blue",
as MedBLINK draws them), with lengths given for a 512-px image; this is that common ground.
"""

from __future__ import annotations

from typing import Annotated, Any

from PIL import Image, ImageColor
from pydantic import AfterValidator, Field

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.perturb.params import Shape
from probe_ui.perturb.registry import PerturbationError

# Exact RGB for the usual names: Pillow's own table says "green" is (0, 128, 0); MedBLINK's dots are pure primaries.
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "cyan": (0, 255, 255),
    "magenta": (255, 0, 255),
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "orange": (255, 165, 0),
    "purple": (128, 0, 128),
}


def colour_rgb(name: Any) -> tuple[int, int, int]:
    """A colour name (table above, else any Pillow colour name or ``#rrggbb``) as exact RGB."""
    if not isinstance(name, str):
        raise PerturbationError(f"colours are given by name (e.g. 'red'), not {name!r}")
    key = name.strip().lower()
    if key in COLOURS:
        return COLOURS[key]
    try:
        rgb = ImageColor.getrgb(key)
    except ValueError:
        raise PerturbationError(f"unknown colour {name!r}; use one of {', '.join(COLOURS)} or '#rrggbb'") from None
    return (int(rgb[0]), int(rgb[1]), int(rgb[2]))


def _colour_name(name: str) -> str:
    colour_rgb(name)  # raises (a ValueError) for a name that is no colour
    return name


# parameter types of the drawing perturbations
Colour = Annotated[str, AfterValidator(_colour_name),
                   Shape("text", f"a colour name ({', '.join(COLOURS)}, another Pillow colour name or #rrggbb)")]
Relative = Annotated[bool, Field(description="coordinates are fractions 0-1 of the width and height, not pixels")]
ImageIndex = Annotated[int, Field(description="which of the variant's images to draw on (0: the first; -1: the "
                                              "last)")]


def pick_image(variant: Variant, image_index: int, op: str) -> tuple[int, CanonicalImage]:
    """The one image a positional overlay draws on (coordinates only make sense for one image)."""
    if not variant.images:
        raise PerturbationError(f"{op} needs an image, and the variant has none")
    if not -len(variant.images) <= image_index < len(variant.images):
        raise PerturbationError(f"{op}: image_index {image_index!r} is out of range for {len(variant.images)} image(s)")
    return image_index % len(variant.images), variant.images[image_index]


def replace_image(variant: Variant, index: int, image: Image.Image) -> Variant:
    images = list(variant.images)
    images[index] = CanonicalImage.from_pil(image, copy=False)  # built from a private .pil() copy
    return variant.evolve(images=tuple(images))


def scaled_px(per_512: float, width: int, height: int, minimum: int = 1) -> int:
    """A length given in px for a 512-px image, scaled to this image's long side (MedBLINK drew on 512x512)."""
    return max(minimum, int(round(per_512 * max(width, height) / 512)))
