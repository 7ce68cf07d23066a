"""Images for a live probe: loading an upload (and dropping the server's copy), describing it, and the
window / frame / slice controls a freshly loaded DICOM or NIfTI image starts with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from probe_ui.images import ImageError, LoadedImage, load_image


# ---- images ----------------------------------------------------------------------------------------------------
def load_upload(source: str | bytes, window: tuple[float, float] | None = None, frame: int | None = None,
                axis: int | None = None, slice: int | None = None, name: str | None = None) -> LoadedImage:
    """Load an uploaded file (a path, or bytes with their file ``name``) with the app's window and slice controls.

    Raises :class:`ImageError` naming the file for anything unreadable, too large or of the wrong type.
    """
    if window is not None and (window[1] is None or window[0] is None or float(window[1]) <= 0):
        window = None
    return load_image(source, name=name, window=window, frame=frame, axis=axis, slice=slice)


def take_upload(path: str) -> tuple[str, bytes]:
    """Read an uploaded file into memory and delete the web server's copy (name, bytes).

    A DICOM file's header (patient name, dates, ...) then does not stay in the server's upload cache; only the
    pixels derived from it are ever stored. Files over the loader's byte limit are refused before reading.
    """
    import os
    from pathlib import Path

    from probe_ui.images.loader import DEFAULT_MAX_BYTES, MAX_BYTES_ENV, env_limit

    p = Path(path)
    try:
        size = p.stat().st_size
        limit = env_limit(None, MAX_BYTES_ENV, DEFAULT_MAX_BYTES)
        if size > limit:
            raise ImageError(f"{p.name}: {size:,} bytes is over the {limit:,}-byte limit ({MAX_BYTES_ENV})")
        data = p.read_bytes()
    finally:
        try:
            os.unlink(p)
        except OSError:
            pass
    return p.name, data


def describe_loaded(li: LoadedImage, name: str | None = None) -> str:
    """One short paragraph for the page: the file's name (an upload's), format, size, window/slice, and which
    header fields were withheld."""
    from probe_ui import labels
    from probe_ui.views.results import md_text

    im = li.image
    parts = [f"**{li.format.upper()}** · {im.width}×{im.height} {im.mode} · image `{im.id[:12]}`"]
    if name:
        parts.insert(0, f"**{md_text(PurePath(name).name)}**")
    info = li.info
    if "n_frames" in info and int(info.get("n_frames", 1)) > 1:
        parts.append(f"frame {info.get('frame', 0)} of {info['n_frames']}")
    if "n_slices" in info:
        parts.append(f"slice {info.get('slice')} of {info['n_slices']} (axis {info.get('axis')})")
    if info.get("window"):
        c, w = info["window"][:2]
        parts.append(f"window {c:g}/{w:g} (centre/width: {labels.window_source(info.get('window_source', 'file'))})")
    if li.phi_fields:
        parts.append(f"{len(li.phi_fields)} patient-identifying header fields withheld (never stored or sent)")
    text = " · ".join(parts)
    if li.warnings:  # they name the file: shown as text, never as Markdown
        text += "\n\n" + "\n".join(f"- ⚠ {md_text(w)}" for w in li.warnings)
    return text


#: DICOM window presets (centre, width) offered next to the numeric fields, as radiology viewers name them
WINDOW_PRESETS: dict[str, tuple[float, float]] = {
    "brain": (40, 80), "subdural": (75, 215), "stroke": (40, 40), "lung": (-600, 1500),
    "mediastinum": (50, 350), "bone": (400, 1800), "abdomen": (50, 400), "liver": (30, 150),
}
#: formats whose pixels a window, frame or slice choice changes (other images are shown and sent as they are)
WINDOWED = ("dicom", "nifti")


@dataclass(frozen=True)
class ImageControls:
    """What the page's image controls show for a freshly loaded image: its own defaults, never the last image's.

    ``window`` is the file's own window (DICOM: its tags, else the range the loader chose; NIfTI: its automatic
    range); None for PNG/JPEG/TIFF, which are shown and sent unwindowed. ``frame`` starts at 0; ``axis`` and
    ``slice`` are a NIfTI's (its middle slice), None otherwise."""

    format: str
    window: tuple[float, float] | None = None
    frame: int | None = None
    n_frames: int = 1
    axis: int | None = None
    slice: int | None = None
    n_slices: int | None = None

    @property
    def windowed(self) -> bool:
        return self.format in WINDOWED


def controls_for(li: LoadedImage) -> ImageControls:
    """The controls' values for a loaded image (see :class:`ImageControls`)."""
    info = li.info or {}
    if li.format not in WINDOWED:
        return ImageControls(li.format)
    win = info.get("window")
    window = (float(win[0]), float(win[1])) if isinstance(win, (list, tuple)) and len(win) >= 2 else None
    nifti = li.format == "nifti"
    return ImageControls(li.format, window, int(info.get("frame", 0) or 0), int(info.get("n_frames", 1) or 1),
                         int(info["axis"]) if nifti and info.get("axis") is not None else None,
                         int(info["slice"]) if nifti and info.get("slice") is not None else None,
                         int(info["n_slices"]) if nifti and info.get("n_slices") is not None else None)


def load_new_image(source: str | bytes, name: str | None = None) -> tuple[LoadedImage, ImageControls]:
    """A newly chosen image (an upload, a bundled image) with its OWN defaults: no window, frame or slice carried
    over from the image before it, so the pixels shown are the pixels the file holds."""
    li = load_upload(source, name=name)
    return li, controls_for(li)


def reload_image(source: str | bytes, name: str | None, window: tuple[float, float] | None, frame: int | None,
                 axis: int | None, slice: int | None) -> tuple[LoadedImage, ImageControls]:
    """The same file again with the page's window / frame / slice: these apply only to DICOM and NIfTI (a PNG
    is never re-windowed); the format is read from the file first."""
    li, ctl = load_new_image(source, name)
    if not ctl.windowed:
        return li, ctl
    li = load_upload(source, window=window, frame=frame, axis=axis if ctl.format == "nifti" else None,
                     slice=slice if ctl.format == "nifti" else None, name=name)
    return li, controls_for(li)
