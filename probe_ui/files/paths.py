"""Files probe-ui reads from folders it was given, and files it writes where it was told: the checks in one place.

- :func:`file_inside`: a file named by a folder's own data (an export's ``images/<hash>.png``) is read only when it
  is a regular file inside that folder, reached without following any symbolic link: a crafted folder cannot make
  probe-ui copy ``/etc/shadow`` or an outside image.
- :func:`safe_file_name`: text from a file (an item id such as ``../../x`` or ``/abs/x``) as one file name.
- :func:`output_folder`, :func:`output_file`, :func:`inside`: where output goes, checked before anything is
  written (a dangling symbolic link, a file where a folder should be, a parent that is a file: one clear line),
  and never outside the folder named.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path, PurePosixPath

from probe_ui.errors import ProbeUIError

MAX_NAME = 120


class PathError(ProbeUIError, ValueError):
    """A path cannot be read or written as asked; the message names it and says why."""


def safe_file_name(text: str, default: str = "item", limit: int = MAX_NAME, unique: bool = False) -> str:
    """``text`` as a single file name: letters, digits and ``_.+-`` only (anything else, separators included,
    becomes ``_``), no leading dot, at most ``limit`` characters; ``default`` when nothing is left. ``unique``:
    a name that had to change gets a short hash of the original, so two ids never share a file."""
    name = re.sub(r"[^A-Za-z0-9_.+\-]+|\.{2,}", "_", str(text)).strip("._")[:limit].rstrip("._") or default
    if unique and name != text:
        name += "-" + hashlib.sha256(str(text).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return name


def file_inside(root: Path, relative: str, what: str) -> Path:
    """``root / relative`` when it is a regular file inside ``root`` reached through no symbolic link; else
    :class:`PathError` naming ``what`` (e.g. "item 'x': image 'images/a.png'")."""
    rel = PurePosixPath(relative.replace("\\", "/"))
    if rel.is_absolute() or not rel.parts or ".." in rel.parts or re.match(r"^[A-Za-z]:", relative):
        raise PathError(f"{what} is not a path inside {root}")
    current = Path(root)
    for part in rel.parts:
        current = current / part
        if current.is_symlink():
            raise PathError(f"{what} is a symbolic link ({current}); links are not followed out of {root}")
    if not current.is_file():
        raise PathError(f"{what} is missing from {root}" if not current.exists()
                        else f"{what} is not a regular file")
    if not current.resolve().is_relative_to(Path(root).resolve()):  # pragma: no cover - no link was followed
        raise PathError(f"{what} leaves {root}")
    return current


def _blocker(path: Path) -> str | None:
    """Why a folder cannot be made at ``path``: an existing file on the way, or a dangling link."""
    for p in [path, *path.parents]:
        if p.is_symlink() and not p.exists():
            return f"{p} is a symbolic link to {os.readlink(p)}, which does not exist"
        if p.exists():
            return None if p.is_dir() else f"{p} is a file, not a folder"
    return None


def folder_blocker(path: Path) -> str | None:
    """Why no folder can be at ``path`` (an existing file on the way, a dangling link), or None."""
    return _blocker(Path(path))


def check_output_folder(path: Path, what: str = "--out") -> None:
    """Raise :class:`PathError` when a folder cannot be made (or used) at ``path``; creates nothing."""
    why = _blocker(Path(path))
    if why:
        raise PathError(f"{what} {path}: {why}")


def output_folder(path: Path, what: str = "--out") -> Path:
    """Make (if needed) the folder ``path`` for output; a clear :class:`PathError` when it cannot be."""
    path = Path(path)
    check_output_folder(path, what)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PathError(f"{what} {path}: cannot create the folder: {exc.strerror or type(exc).__name__}") from None
    return path


def output_file(path: Path, what: str = "--out") -> Path:
    """Check that a file can be written at ``path``, making its folder if needed: not a folder, not a dangling
    symbolic link (writing would create a file wherever it points), no file where a folder should be."""
    path = Path(path)
    if path.is_symlink() and not path.exists():
        raise PathError(f"{what} {path}: it is a symbolic link to {os.readlink(path)}, which does not exist")
    if path.is_dir():
        raise PathError(f"{what} {path}: it is a folder; give a file name")
    parent = path.parent if str(path.parent) else Path(".")
    why = _blocker(parent)
    if why:
        raise PathError(f"{what} {path}: {why}")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PathError(f"{what} {path}: cannot create its folder: {exc.strerror or type(exc).__name__}") from None
    return path


def inside(folder: Path, name: str) -> Path:
    """``folder / name`` for a name made by :func:`safe_file_name`, checked to stay inside ``folder``."""
    target = Path(folder) / name
    if target.resolve().parent != Path(folder).resolve():
        raise PathError(f"{name!r} would be written outside {folder}")
    return target


__all__ = ["PathError", "check_output_folder", "file_inside", "folder_blocker", "inside", "output_file",
           "output_folder", "safe_file_name"]
