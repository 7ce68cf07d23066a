"""Every file probe-ui writes, written one way: never half a file, never over something it did not make.

- The bytes go to a temporary file beside the target (same folder, so the rename is atomic), are flushed to disk
  (``fsync``), get the mode a new file would get (``0o666`` less the umask: ``0644`` under the usual ``022``), and
  only then take the target's name. A failed or interrupted write leaves the target as it was and no temporary file.
- The target is never a device, a FIFO, a socket or a folder: those are refused (``probe-ui report --out /dev/full``
  run as root replaced the system's ``/dev/full`` with a world-writable HTML file; a FIFO blocked the writer).
- An existing regular file (or symbolic link) is replaced only when the caller says so (``force``: the CLI's
  ``--force``); without it the new file is linked into place, which fails if anything took the name meanwhile, so
  nothing is replaced even in a race. The app never replaces: it picks a fresh name (:func:`fresh_path`).
- A full disk (``ENOSPC``) or an exhausted quota is one line naming the file and the space left.

All bytes pass through :func:`os.write` (:class:`_FdWriter`), one place for the disk to refuse them.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from probe_ui.files.paths import PathError, folder_blocker, output_file

#: errors of a write that ran out of room
_FULL = (errno.ENOSPC, errno.EDQUOT)
#: link() is not offered by every filesystem (FAT, some network mounts): those fall back to a checked rename
_NO_LINK = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS, errno.EACCES}


class WriteError(PathError):
    """A file cannot be written where asked: what is there, or why the write failed (the disk is full, ...)."""


def _read_umask() -> int:
    """The process umask, read without changing it where the system allows (``os.umask`` sets it, and another thread
    creating a file at that moment would get the wrong mode): ``/proc/self/status`` on Linux, else read once here."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def new_file_mode() -> int:
    """The mode a new file gets: ``0o666`` less the umask (``0644`` under the usual umask ``022``)."""
    return 0o666 & ~_read_umask()


def size_text(n: float) -> str:
    """A byte count for people: ``0 bytes``, ``12.3 MB``."""
    if n < 1000:
        return f"{int(n)} bytes"
    for unit in ("kB", "MB", "GB", "TB"):
        n /= 1000
        if n < 1000 or unit == "TB":
            return f"{n:.1f} {unit}"
    return f"{n:.1f} TB"  # pragma: no cover - the loop returns


def free_space(path: Path) -> str:
    """The space left on the filesystem holding ``path`` (or its nearest existing folder), for messages."""
    for p in [Path(path), *Path(path).parents]:
        try:
            return f"{size_text(shutil.disk_usage(p).free)} free"
        except OSError:
            continue
    return "free space unknown"


def full_disk_message(path: Path, what: str = "cannot write") -> str:
    """One line for a write refused for want of room: the file, and the space left where it goes."""
    return (f"{what} {path}: the disk is full ({free_space(Path(path).parent)} on its filesystem); free some space "
            "and run it again")


def os_error_message(path: Path, exc: OSError, what: str = "cannot write") -> str:
    """One line for an OSError while writing ``path``: the full-disk message, or the system's reason."""
    if exc.errno in _FULL:
        return full_disk_message(path, what)
    return f"{what} {path}: {exc.strerror or type(exc).__name__}"


def _kind(mode: int) -> str | None:
    """What a file of this mode is, when probe-ui must never write over it; None for a regular file or a link."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return "not a regular file"  # pragma: no cover - door files and the like


def check_target(path: Path, force: bool = False, what: str = "cannot write") -> None:
    """Raise :class:`WriteError` unless a file may be written at ``path``: nothing there, or (with ``force``) a
    regular file or a symbolic link, which the new file replaces (a link is replaced, not followed)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except NotADirectoryError:  # a file where one of its folders should be
        why = folder_blocker(Path(path).parent) or "one of its folders is a file"
        raise WriteError(f"{what} {path}: {why}") from None
    except OSError as exc:
        raise WriteError(os_error_message(path, exc, what)) from None
    if stat.S_ISLNK(st.st_mode) and not os.path.exists(path):  # writing would create a file wherever it points
        raise WriteError(f"{what} {path}: it is a symbolic link to {os.readlink(path)}, which does not exist")
    kind = _kind(st.st_mode)
    if kind is not None:
        raise WriteError(f"{what} {path}: it is {kind}, which probe-ui never writes over: give a new file name")
    if not force:
        raise WriteError(f"{what} {path}: the file already exists; add --force to replace it, or give another name")


def fresh_path(path: Path) -> Path:
    """``path`` if nothing is there, else the first free ``<stem>-2<suffix>``, ``<stem>-3<suffix>``, ... beside it
    (the app's downloads: a new name rather than a replaced file)."""
    path = Path(path)
    if not os.path.lexists(path):
        return path
    n = 2
    while os.path.lexists(path.with_name(f"{path.stem}-{n}{path.suffix}")):
        n += 1
    return path.with_name(f"{path.stem}-{n}{path.suffix}")


class _FdWriter(io.RawIOBase):
    """A raw binary stream over a file descriptor whose every write is one :func:`os.write` call."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return os.write(self.fd, data)

    def fileno(self) -> int:
        return self.fd

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self.fd)
            finally:
                super().close()


@contextmanager
def atomic_file(path: str | os.PathLike[str], *, force: bool = False, text: bool = True, newline: str | None = None,
                what: str = "cannot write", check: Callable[[Path], object] | None = None,
                mode: int | None = None) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for writing (text, UTF-8, or binary) and, when the block ends without
    an error, put it in place (module doc); on any error the temporary file is removed and ``path`` is untouched.
    ``check`` is called with the finished temporary file before it takes the name (e.g. to load a preset back);
    whatever it raises leaves ``path`` as it was. Errors of the filesystem become :class:`WriteError` naming
    ``path`` (``what`` starts the message). ``mode``: the file's mode instead of a new file's (e.g. ``0o600`` for a
    file only its owner may read: it never has another mode, not even for a moment)."""
    path = Path(path)
    check_target(path, force, what)
    try:
        output_file(path, what)  # a parent that is a file, a dangling link: one clear line, before the work
    except WriteError:
        raise
    except PathError as exc:
        raise WriteError(str(exc)) from None
    parent = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{path.name[:100]}.", suffix=".tmp")
    except OSError as exc:
        raise WriteError(os_error_message(path, exc, what)) from None
    raw = _FdWriter(fd)
    stream: IO[Any] | None = None
    try:
        buffered = io.BufferedWriter(raw, buffer_size=1 << 16)
        stream = io.TextIOWrapper(buffered, encoding="utf-8", newline=newline) if text else buffered
        yield stream
        stream.flush()
        os.fsync(fd)
        if hasattr(os, "fchmod"):  # POSIX (mkstemp made it 0600)
            os.fchmod(fd, new_file_mode() if mode is None else mode)
        stream.close()
        stream = None
        if check is not None:
            check(Path(tmp))
        _put_in_place(Path(tmp), path, force, what)
    except OSError as exc:
        _discard(stream, raw, tmp)
        raise WriteError(os_error_message(path, exc, what)) from None
    except BaseException:
        _discard(stream, raw, tmp)
        raise


def _discard(stream: IO[Any] | None, raw: _FdWriter, tmp: str) -> None:
    """Close the stream and its descriptor (a buffer the disk refused is dropped) and remove the temporary file."""
    if stream is not None:
        try:
            stream.close()
        except (OSError, ValueError):
            pass
    try:
        raw.close()  # a no-op when the stream closed it
    except OSError:
        pass
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _put_in_place(tmp: Path, path: Path, force: bool, what: str) -> None:
    """The finished temporary file takes ``path``'s name: linked (never replacing anything) unless ``force``, then
    renamed over the regular file or link there, checked once more just before."""
    if not force:
        try:
            os.link(tmp, path)
        except FileExistsError:
            check_target(path, force=False, what=what)  # says what is there
            raise  # pragma: no cover - check_target raised
        except OSError as exc:
            if exc.errno not in _NO_LINK:
                raise
            check_target(path, force=False, what=what)
            os.replace(tmp, path)
        else:
            os.unlink(tmp)
    else:
        check_target(path, force=True, what=what)
        os.replace(tmp, path)
    _sync_folder(path.parent if str(path.parent) else Path("."))


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system lets a folder be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path: str | os.PathLike[str], data: bytes, *, force: bool = False, what: str = "cannot write",
                check: Callable[[Path], object] | None = None, mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` safely (module doc; ``check`` and ``mode`` as in :func:`atomic_file`); returns
    the path."""
    with atomic_file(path, force=force, text=False, what=what, check=check, mode=mode) as f:
        f.write(data)
    return Path(path)


def write_text(path: str | os.PathLike[str], text: str, *, force: bool = False, what: str = "cannot write",
               check: Callable[[Path], object] | None = None, mode: int | None = None) -> Path:
    """Write ``text`` (UTF-8) to ``path`` safely (module doc; ``check`` and ``mode`` as in :func:`atomic_file`);
    returns the path."""
    return write_bytes(path, text.encode("utf-8"), force=force, what=what, check=check, mode=mode)


__all__ = ["WriteError", "atomic_file", "check_target", "free_space", "fresh_path", "full_disk_message",
           "new_file_mode", "os_error_message", "size_text", "write_bytes", "write_text"]
