"""Images as sent, shown whole: every "image sent" view (an answer's detail, the Stress tab's "where it broke")
shows the whole picture first, scaled down to fit, with its size and hash; a full-size view opens on demand.

A gallery crops or zooms to fill its tiles; a clinician checking what a model saw needs all of it, and the hash
names the exact bytes logged.
"""

from __future__ import annotations

import base64
from html import escape
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from probe_ui.store import Store


def _uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def figure(image: Any, caption: str = "") -> str:
    """One stored image (:class:`probe_ui.images.CanonicalImage`) whole, its caption, size and hash, and a
    full-size view in a disclosure (keyboard and screen-reader friendly, no script)."""
    uri = _uri(image.png)
    what = escape(caption) if caption else "image sent"
    facts = f"{image.width}×{image.height} px · sha256 {escape(image.id[:12])}…"
    return (f"<figure class='pu-sent-one' data-image='{escape(image.id, quote=True)}'>"
            f"<img class='pu-whole' src='{uri}' alt='{what}, whole'>"
            f"<figcaption>{'<b>' + what + '</b> · ' if caption else ''}{facts}</figcaption>"
            f"<details><summary>zoom: full size ({image.width}×{image.height})</summary><div class='pu-zoom'>"
            f"<img src='{uri}' alt='{what}, full size' width='{image.width}' height='{image.height}'></div>"
            "</details></figure>")


def figures(images: Iterable[tuple[Any, str]], empty: str = "") -> str:
    """Several images whole, side by side (wrapping on a narrow screen)."""
    parts = [figure(im, caption) for im, caption in images]
    if not parts:
        return f"<p class='pu-note'>{escape(empty)}</p>" if empty else ""
    return "<div class='pu-sent'>" + "".join(parts) + "</div>"


def stored(store: Store, ids: Iterable[str], captions: Iterable[str] = ()) -> str:
    """The stored images ``ids`` whole (an image that cannot be read is named instead)."""
    caps = list(captions)
    out, missing = [], []
    for k, i in enumerate(ids):
        try:
            out.append((store.get_image(i), caps[k] if k < len(caps) else ""))
        except Exception as exc:  # noqa: BLE001 - a missing picture is said, the others are shown
            missing.append(f"{i[:12]}: {exc}")
    note = "".join(f"<p class='pu-note'>Not shown: {escape(m)}</p>" for m in missing)
    return figures(out, empty="" if missing else "No image was sent.") + note
