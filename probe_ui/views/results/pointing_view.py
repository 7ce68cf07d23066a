"""Where a model pointed (issue 45): a point item's answer drawn on the item's image beside the finding's region.

Why a view of its own: a point answer is a pair of numbers, and "(183, 96), wrong" says little to a clinician; the
picture with the region outlined (yellow) and the model's point or box (cyan) shows how far off it was. Drawn on
the item's image (the pixels the region and the stored reading are in), never on what was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from probe_ui.images import CanonicalImage
from probe_ui.images.regions import boxes_of, with_regions
from probe_ui.reading.pointing import parse_pointed

if TYPE_CHECKING:
    from probe_ui.store import Store

#: the colour of the model's point or box (cyan: apart from the region's yellow outline)
POINTED = (0, 220, 255)


def pointing_picture(store: Store, response: dict[str, Any]) -> CanonicalImage | None:
    """The item's image with its region and the model's point or box drawn (``response``: a stored answer as
    :meth:`probe_ui.store.Store.get_response` gives it); None for an answer that is not to a point item or whose
    image is not in the store."""
    from PIL import ImageDraw

    if response.get("kind") != "point" or not response.get("image_ids"):
        return None
    try:
        image = store.get_image(str(response["image_ids"][0]))
    except Exception:  # noqa: BLE001 - a picture missing from the store: the detail shows the rest
        return None
    pic = with_regions(image, boxes_of(response.get("attributes"))).pil().convert("RGB")
    got = parse_pointed(response.get("parsed"))
    if got is not None:
        draw = ImageDraw.Draw(pic)
        width = max(2, round(max(pic.size) / 200))
        if got.is_point:
            r = 4 * width
            draw.line([got.x0 - r, got.y0, got.x0 + r, got.y0], fill=POINTED, width=width)
            draw.line([got.x0, got.y0 - r, got.x0, got.y0 + r], fill=POINTED, width=width)
        else:
            draw.rectangle([got.x0, got.y0, got.x1, got.y1], outline=POINTED, width=width)
    return CanonicalImage.from_pil(pic)


def caption(response: dict[str, Any]) -> str:
    """The picture's caption in words."""
    verdicts: dict[Any, str] = {True: "inside the region: right", False: "outside the region: wrong"}
    verdict = verdicts.get(response.get("correct"), "not scored")
    where = response.get("parsed")
    return (f"where it pointed (cyan) and the finding's region (yellow): {where}, {verdict}" if where else
            "the finding's region (yellow); no point could be read from the reply")
