"""Issue 24: every file probe-ui writes goes through one safe writer (probe_ui.files.safe_write). It never replaces a
device, FIFO, socket or folder, replaces a regular file only with --force, writes a temporary file beside the
target and renames it (nothing half-written on failure), gives the file the umask's mode, and says "the disk is
full" naming the file and the space left."""

from __future__ import annotations

import errno
import os
import socket
import stat
from pathlib import Path

import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.files import safe_write
from probe_ui.files.safe_write import WriteError, atomic_file, fresh_path, write_bytes, write_text
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A store with one small run 'r' (three answers of a baseline)."""
    for i in range(2):
        write_png(tmp_path / f"i{i}.png", seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"i{i}.png") for i in range(2)])
    path = tmp_path / "store" / "probe-ui.db"
    store = Store(path)
    run_batch(store, [load_preset(preset)], ["baseline/first"], BatchOptions(run_name="r", progress=False))
    store.rate_response(1, "correct", "fine", rater="ames")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root; run as root to check device nodes")
def test_a_device_node_is_never_replaced(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`probe-ui report --out /dev/full` run as root replaced the system's /dev/full with an HTML file. A
    character device made with mknod in a throwaway folder (never /dev) stands in for it."""
    dev = tmp_path / "full"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # the numbers of /dev/full
    before = os.lstat(dev)
    for argv in (["report", "--db", str(db), "--out", str(dev)],
                 ["report", "--db", str(db), "--out", str(dev), "--force"],
                 ["ratings", "export", "--db", str(db), "--out", str(dev), "--force"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert f"{dev}: it is a character device, which probe-ui never writes over" in err, err
        assert "bug" not in err and len(err.strip().splitlines()) == 1
    after = os.lstat(dev)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_mode == before.st_mode
    with pytest.raises(WriteError, match="character device"):
        write_text(dev, "x", force=True)
    assert leftovers(tmp_path) == []


def test_a_fifo_is_refused_without_blocking(tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO was opened for writing (blocking until a reader came) and then replaced by the report."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(["report", "--db", str(db), "--out", str(fifo), "--force"]) == 1
    assert "it is a named pipe (FIFO), which probe-ui never writes over" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert main(["ratings", "export", "--db", str(db), "--out", str(fifo)]) == 1
    assert "named pipe (FIFO)" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_sockets_and_folders_are_refused(tmp_path: Path) -> None:
    sock_path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        with pytest.raises(WriteError, match="it is a socket"):
            write_text(sock_path, "x", force=True)
    (tmp_path / "d").mkdir()
    with pytest.raises(WriteError, match="it is a folder"):
        write_text(tmp_path / "d", "x", force=True)


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path, db: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`report` and `ratings export` silently overwrote an existing file."""
    mine = tmp_path / "notes.html"
    mine.write_text("my own notes", encoding="utf-8")
    assert main(["report", "--db", str(db), "--out", str(mine)]) == 1
    assert "the file already exists; add --force to replace it" in capsys.readouterr().err
    assert main(["ratings", "export", "--db", str(db), "--out", str(mine)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert mine.read_text(encoding="utf-8") == "my own notes"
    assert main(["ratings", "export", "--db", str(db), "--out", str(mine), "--force"]) == 0
    assert mine.read_text(encoding="utf-8").startswith("response_id,rater,rating")
    assert main(["report", "--db", str(db), "--out", str(mine), "--force"]) == 0
    assert mine.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_files_get_the_umasks_mode(tmp_path: Path, umask: int, mode: int) -> None:
    """The report took the mode of whatever it replaced (0666 from /dev/full: world-writable)."""
    old = os.umask(umask)
    try:
        path = write_bytes(tmp_path / "a.bin", b"x")
        assert stat.S_IMODE(os.stat(path).st_mode) == mode
        open_to_all = tmp_path / "b.bin"
        open_to_all.write_bytes(b"old")
        os.chmod(open_to_all, 0o666)
        write_bytes(open_to_all, b"new", force=True)
        assert stat.S_IMODE(os.stat(open_to_all).st_mode) == mode
    finally:
        os.umask(old)


def test_a_failed_write_leaves_the_target_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "data.txt"
    target.write_text("before", encoding="utf-8")
    with pytest.raises(RuntimeError):
        with atomic_file(target, force=True) as f:
            f.write("half")
            raise RuntimeError("interrupted")
    assert target.read_text(encoding="utf-8") == "before" and leftovers(tmp_path) == []

    def refuse(tmp: Path) -> None:
        assert tmp.read_text(encoding="utf-8") == "new" and tmp.parent == tmp_path
        raise ValueError("does not validate")

    with pytest.raises(ValueError, match="does not validate"):
        write_text(target, "new", force=True, check=refuse)
    assert target.read_text(encoding="utf-8") == "before" and leftovers(tmp_path) == []


def full_disk_for(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """os.write into any file under ``folder`` fails with ENOSPC, as on a full disk; other writes go through."""
    real = os.write

    def write(fd: int, data: bytes) -> int:
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            where = ""
        if where.startswith(str(folder)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(safe_write.os, "write", write)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell file descriptors apart")
def test_a_full_disk_is_one_line_naming_the_file_and_the_space(tmp_path: Path, db: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A full disk during a ratings export or an export was reported as a bug in probe-ui."""
    out = tmp_path / "out"
    out.mkdir()
    full_disk_for(out, monkeypatch)
    cases = [(["ratings", "export", "--db", str(db), "--out", str(out / "ratings.csv")], out / "ratings.csv"),
             (["export", "--db", str(db), "--format", "csv", "--out", str(out / "ex")], out / "ex"),
             (["report", "--db", str(db), "--out", str(out / "report.html")], out / "report.html")]
    for argv, path in cases:
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "the disk is full (" in err and " free on its filesystem)" in err and str(path) in err, err
        assert "bug" not in err and len(err.strip().splitlines()) == 1
    assert list(out.iterdir()) == []  # nothing half-written, no temporary files, no empty export folder


def test_the_app_picks_a_fresh_name(tmp_path: Path) -> None:
    first = tmp_path / "r-report.html"
    assert fresh_path(first) == first
    first.write_text("x", encoding="utf-8")
    assert fresh_path(first) == tmp_path / "r-report-2.html"
    (tmp_path / "r-report-2.html").write_text("x", encoding="utf-8")
    assert fresh_path(first) == tmp_path / "r-report-3.html"
