"""The app's files on disk: uploads leave Gradio's cache as soon as they are refused or read, and downloads are
made inside Gradio's cache, which deletes them (never in the system temp folder, where nothing would).

Gradio writes every upload into its cache before any callback runs, and refuses a file of the wrong type (an
extension-less DICOM such as ``IM0001``, a ``DICOMDIR``, a zip) in the component's ``preprocess``, before the
callback that would have deleted it: the full header then stayed on disk. :func:`guard_uploads` wraps every upload
component so that a refused file is deleted at once; the Probe tab's callback deletes an accepted one as it reads
it (:func:`probe_ui.live.take_upload`); the Blocks' ``delete_cache`` removes anything else within the hour.

:func:`download_folder` gives each export or report a folder inside Gradio's cache: Gradio serves the file from
there without a copy elsewhere, and its ``delete_cache`` removes it; folders older than :data:`KEEP_DOWNLOADS_S`
are pruned whenever a new one is made.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import gradio as gr

log = logging.getLogger("probe_ui.app")

#: downloads older than this are deleted when the next one is made (Gradio has served them long before)
KEEP_DOWNLOADS_S = 3600
DOWNLOAD_PREFIX = "probe-ui-download-"
#: where the pictures the page shows are written (inside Gradio's cache, which deletes them: delete_cache)
SHOWN_FOLDER = "probe-ui-shown"


def upload_paths(payload: Any) -> list[Path]:
    """The cached files a component's payload names (one FileData, a list of them, or dicts as sent)."""
    items = payload if isinstance(payload, (list, tuple)) else getattr(payload, "root", None) or [payload]
    out = []
    for item in items if isinstance(items, (list, tuple)) else [items]:
        path = getattr(item, "path", None) or (item.get("path") if isinstance(item, dict) else None)
        if isinstance(path, str) and path:
            out.append(Path(path))
    return out


def delete_uploads(payload: Any) -> None:
    """Delete the uploaded files of ``payload`` from Gradio's cache (and nothing outside it)."""
    cache = Path(gr.utils.get_upload_folder()).resolve()
    for path in upload_paths(payload):
        try:
            if path.resolve().is_relative_to(cache) and path.is_file():
                os.unlink(path)
        except OSError as exc:  # pragma: no cover - already gone, or not ours to delete
            log.debug("could not delete an upload: %s", exc.strerror)


def guard_uploads(app: gr.Blocks) -> None:
    """Make every upload component of ``app`` delete the files it refuses (wrong type, too large, ...)."""
    for block in app.blocks.values():
        if isinstance(block, (gr.File, gr.UploadButton, gr.Image)) and not getattr(block, "_probe_ui_guarded", False):
            block.preprocess = _deleting_on_refusal(block.preprocess)
            block._probe_ui_guarded = True  # type: ignore[attr-defined]


def _deleting_on_refusal(preprocess: Any) -> Any:
    @functools.wraps(preprocess)
    def wrapper(payload: Any) -> Any:
        try:
            return preprocess(payload)
        except BaseException:
            delete_uploads(payload)
            raise
    return wrapper


def download_folder() -> Path:
    """A new folder for one download, inside Gradio's cache (served from there, deleted by ``delete_cache``);
    earlier download folders older than :data:`KEEP_DOWNLOADS_S` are removed first."""
    cache = Path(gr.utils.get_upload_folder())
    cache.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for old in cache.glob(f"{DOWNLOAD_PREFIX}*"):
        try:
            if old.is_dir() and not old.is_symlink() and now - old.stat().st_mtime > KEEP_DOWNLOADS_S:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:  # pragma: no cover - removed by another process meanwhile
            pass
    return Path(tempfile.mkdtemp(prefix=DOWNLOAD_PREFIX, dir=cache))


def png_file(image: Any) -> str:
    """A picture the page shows, as a PNG file in Gradio's cache named by its content, written atomically (a
    temporary file renamed into place) and only once. Gradio writes a PIL image it is handed over the same
    content-named file every time, so two people shown the same picture at once could be sent a file being
    rewritten (an empty image); a finished file's path is copied by Gradio without that race."""
    import hashlib
    import io

    buf = io.BytesIO()
    image.save(buf, format="PNG")
    data = buf.getvalue()
    folder = Path(gr.utils.get_upload_folder()) / SHOWN_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.png"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return str(path)


__all__ = ["delete_uploads", "download_folder", "guard_uploads", "png_file", "upload_paths"]
