"""PNG, JPEG, TIFF and BMP, through Pillow: frames/pages, EXIF orientation, high-bit-depth grayscale."""

from __future__ import annotations

import io
import re
import warnings
from typing import Any

import numpy as np
from PIL import Image

from probe_ui.images.canonical import CanonicalImage, ImageError
from probe_ui.images.common import MAX_PIXELS_ENV, LoadedImage, LoadOptions, jsonable, pixels_message
from probe_ui.images.scaling import finite_minmax, linear_to_8bit, window_bounds

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PILLOW_MAGIC: tuple[tuple[bytes, str], ...] = (
    (_PNG_MAGIC, "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"II+\x00", "tiff"),  # BigTIFF
    (b"MM\x00+", "tiff"),
    (b"BM", "bmp"),
)
PILLOW_FORMATS = {"png": ["PNG"], "jpeg": ["JPEG", "MPO"], "tiff": ["TIFF"], "bmp": ["BMP"]}


def load_raster(data: bytes, kind: str, opts: LoadOptions) -> LoadedImage:
    """One frame/page of a ``kind`` (a key of PILLOW_FORMATS) file, EXIF-transposed, as 8-bit pixels."""
    from PIL import ImageOps, UnidentifiedImageError

    name, label = opts.name, kind.upper()
    warns: list[str] = []
    # Pillow's own bomb check runs inside Image.open: its warning becomes an error here, its error an ImageError.
    # (catch_warnings is process-global; a race between threads could at worst leave this filter installed.)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im: Image.Image = Image.open(io.BytesIO(data), formats=PILLOW_FORMATS[kind])
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageError(_bomb_message(name, data, kind, exc, opts.max_pixels)) from None
        except UnidentifiedImageError:
            raise ImageError(f"{name} is not a readable {label} file: Pillow cannot parse its header") from None
        except Exception as exc:  # Pillow raises SyntaxError, OSError, ValueError, struct.error ...
            raise ImageError(f"{name} is not a readable {label} file: {exc}") from None

        try:
            n_frames = int(getattr(im, "n_frames", 1) or 1)  # a TIFF walks its whole page chain here
            frame = opts.frame or 0
            if frame >= n_frames:
                raise ImageError(
                    f"{name}: frame {frame} is out of range; the file has {n_frames} frame(s) (0..{n_frames - 1})"
                )
            if frame:
                im.seek(frame)
            width, height = im.size
            if width * height > opts.max_pixels:
                raise ImageError(pixels_message(name, width, height, width * height, opts.max_pixels))
            im.load()
            exif_orientation = int(im.getexif().get(0x0112, 1) or 1)
            im = ImageOps.exif_transpose(im)
        except ImageError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageError(_bomb_message(name, data, kind, exc, opts.max_pixels)) from None
        except Exception as exc:
            raise ImageError(f"{name} is not a readable {label} file (damaged or truncated?): {exc}") from None

    info: dict[str, Any] = {"mode": im.mode, "size": [im.width, im.height]}
    if n_frames > 1:
        info.update(frame=frame, n_frames=n_frames)
    if exif_orientation != 1:
        info["exif_orientation"] = exif_orientation
        info["exif_transposed"] = True

    gray_high = im.mode in ("I", "F") or im.mode.startswith("I;")
    if gray_high or (im.mode == "L" and opts.window is not None):
        arr = np.asarray(im)
        if opts.window is not None:
            lo, hi = window_bounds(*opts.window)
            info.update(window=list(opts.window), window_source="user")
        else:
            lo, hi = finite_minmax(arr)
            info.update(window=[(lo + hi) / 2, hi - lo], window_source="minmax")
        out = Image.fromarray(linear_to_8bit(arr, lo, hi), mode="L")
    else:
        if opts.window is not None:
            warns.append("window applies to grayscale images only; it was ignored for this colour image")
        out = im
    try:  # a damaged file can still fail here, e.g. a transparency chunk naming a palette index it lacks
        image = CanonicalImage.from_pil(out)
    except Exception as exc:
        raise ImageError(f"{name}: the {label} pixels could not be converted to 8 bits: {exc}") from None
    return LoadedImage(image=image, format=kind, info=jsonable(info), warnings=tuple(warns))


def _bomb_message(name: str, data: bytes, kind: str, exc: Exception, limit: int) -> str:
    """Pillow refused the header as a decompression bomb; say how big it claims to be."""
    width = height = None
    if kind == "png" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        pixels = width * height
    else:
        match = re.search(r"\((\d+) pixels\)", str(exc))
        pixels = int(match.group(1)) if match else 0
    if pixels > limit:
        return pixels_message(name, width, height, pixels, limit)
    return (
        f"{name} is {pixels:,} pixels, over Pillow's own decompression-bomb limit "
        f"(PIL.Image.MAX_IMAGE_PIXELS = {Image.MAX_IMAGE_PIXELS:,}); the limit here is {limit:,} "
        f"(set {MAX_PIXELS_ENV} to raise it)"
    )
