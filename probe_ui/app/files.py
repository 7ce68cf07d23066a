"""The app's files on disk: uploads leave Gradio's cache as soon as they are refused or read, and downloads are
made inside Gradio's cache, which deletes them (never in the system temp folder, where nothing would).

Gradio writes every upload into its cache before any callback runs, and refuses a file of the wrong type (an
extension-less DICOM such as ``IM0001``, a ``DICOMDIR``, a zip) in the component's ``preprocess``, before the
callback that would have deleted it: the full header then stayed on disk. :func:`guard_uploads` wraps every upload
component so that a refused file is deleted at once; the Probe tab's callback deletes an accepted one as it reads
it (:func:`probe_ui.live.take_upload)`. :func:`watch_uploads` covers the rest (issue 24: an API call that failed
validation, or a bare ``POST /gradio_api/upload`` that no call ever used, left a DICOM with its full patient header
in the cache until the hourly cleanup): the uploads named by a call that fails are deleted when it fails, and an
upload that no call has used within :data:`UNUSED_UPLOAD_S` seconds is deleted by a sweep that runs every
:data:`SWEEP_EVERY_S` seconds while the app serves. Uploads a call used (a preset YAML waiting for Start) are left to
the Blocks' ``delete_cache``, which removes everything within the hour.

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
import threading
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
#: an upload that no call has used for this long is deleted (a browser's upload is used within a second or two)
UNUSED_UPLOAD_S = 60.0
#: how often the sweep for unused uploads runs
SWEEP_EVERY_S = 10.0


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
            setattr(block, "preprocess", _deleting_on_refusal(block.preprocess))  # wraps Gradio's own method
            setattr(block, "_probe_ui_guarded", True)


def _deleting_on_refusal(preprocess: Any) -> Any:
    @functools.wraps(preprocess)
    def wrapper(payload: Any) -> Any:
        try:
            return preprocess(payload)
        except BaseException:
            delete_uploads(payload)
            raise
    return wrapper


def watch_uploads(app: gr.Blocks) -> None:
    """Delete the uploads of ``app`` that a failed call named, at once, and those that no call used within
    :data:`UNUSED_UPLOAD_S` seconds, by a sweep every :data:`SWEEP_EVERY_S` seconds (a daemon thread that ends when
    the app has stopped serving); see the module doc."""
    if getattr(app, "_probe_ui_watched", False):
        return
    used: set[str] = set()
    app._probe_ui_used_uploads = used  # type: ignore[attr-defined]
    process_api = app.process_api

    @functools.wraps(process_api)
    async def watched(block_fn: Any, inputs: list[Any], *args: Any, **kwargs: Any) -> Any:
        named = [str(p) for payload in (inputs or []) for p in upload_paths(payload)]
        try:
            result = await process_api(block_fn, inputs, *args, **kwargs)
        except BaseException:
            fresh = [p for p in named if p not in used]  # an upload an earlier call used stays (the user's preset)
            if fresh:
                delete_uploads([{"path": p} for p in fresh])
            raise
        used.update(named)
        return result

    app.process_api = watched  # type: ignore[method-assign]
    app._probe_ui_watched = True  # type: ignore[attr-defined]
    threading.Thread(target=_sweep_forever, args=(app,), name="probe-ui-upload-sweep", daemon=True).start()


def sweep_unused_uploads(app: gr.Blocks, now: float | None = None) -> list[Path]:
    """Delete the uploads of ``app`` that no call has used and that are older than :data:`UNUSED_UPLOAD_S`;
    return them."""
    used: set[str] = getattr(app, "_probe_ui_used_uploads", set())
    now = time.time() if now is None else now
    for name in [n for n in used if not os.path.lexists(n)]:  # read and deleted since, or cleaned by Gradio
        used.discard(name)
    gone = []
    for name in list(getattr(app, "upload_file_set", ())):
        if name in used:
            continue
        path = Path(name)
        try:
            if now - path.lstat().st_ctime < UNUSED_UPLOAD_S:
                continue
        except OSError:  # already gone (read and deleted by its callback)
            app.upload_file_set.discard(name)
            continue
        delete_uploads([{"path": name}])
        if not path.exists():
            app.upload_file_set.discard(name)
            gone.append(path)
    return gone


def _sweep_forever(app: gr.Blocks) -> None:
    served = False
    while True:
        time.sleep(SWEEP_EVERY_S)
        running = bool(getattr(app, "is_running", False))
        if served and not running:
            return  # the app was closed
        served = served or running
        try:
            sweep_unused_uploads(app)
        except Exception as exc:  # noqa: BLE001 - the sweep must go on; it is tried again at the next tick
            log.warning("could not sweep unused uploads: %s", exc)


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
    """A picture the page shows, as a PNG file in Gradio's cache named by its content, written once, safely
    (:mod:`probe_ui.files.safe_write`: never half a file). Gradio writes a PIL image it is handed over the same
    content-named file every time, so two people shown the same picture at once could be sent a file being
    rewritten (an empty image); a finished file's path is copied by Gradio without that race."""
    import hashlib
    import io

    from probe_ui.files.safe_write import WriteError, write_bytes

    buf = io.BytesIO()
    image.save(buf, format="PNG")
    data = buf.getvalue()
    folder = Path(gr.utils.get_upload_folder()) / SHOWN_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.png"
    if not path.exists():
        try:
            write_bytes(path, data)
        except WriteError:
            if not path.is_file():  # not another session's copy of the same picture, written meanwhile
                raise
    return str(path)


def zip_folder(root: Path, target: Path) -> Path:
    """The files under ``root`` as one zip at ``target``, written safely (:mod:`probe_ui.files.safe_write`: a new file,
    never over anything)."""
    import zipfile

    from probe_ui.files.safe_write import atomic_file

    with atomic_file(target, text=False) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(Path(root).rglob("*")):
            if path.is_file() and not path.is_symlink():
                z.write(path, path.relative_to(root).as_posix())
    return target


__all__ = ["delete_uploads", "download_folder", "guard_uploads", "png_file", "sweep_unused_uploads", "upload_paths",
           "watch_uploads", "zip_folder"]
