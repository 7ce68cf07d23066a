"""One batch per run (and shard) at a time: the lock a batch holds from before it opens its run until it ends.

Two identical batches started at once on one store would both ask every cell (paying twice) and race to store
the same answers. :meth:`probe_ui.store.Store.run_lock` makes the second one stop at once, before it writes
anything, naming the batch that holds the run. Shards of one run (``--shard i/n``, cluster ranks) run at once:

- a whole batch (no shard) holds the run exclusively;
- shard ``i/n`` shares the run with the other shards and holds ``i/n`` exclusively, so two copies of the same
  shard, or a whole batch beside any shard, are refused.

SQLite: ``fcntl.flock`` (non-blocking) on lock files beside the database, ``<db>.run-<hash of the name>.lock``
(the run) and ``<db>.run-<hash>-<all | iofn>.lock`` (the part, holding the holder's pid, host and start time).
The operating system drops the locks of a process that dies, so a killed batch never leaves its run locked; a lock
file is removed by the batch that held it. PostgreSQL: session-level ``pg_try_advisory_lock`` (shared for the run
when a shard holds it) on a connection held for the batch, released when that connection ends; the holder is named
through its connection's ``application_name``.

Live probing (:mod:`probe_ui.live`, the app's Probe tab, stress and sweeps run through it) takes no lock: each of
its runs belongs to one probe.
"""

from __future__ import annotations

import errno
import glob
import hashlib
import json
import os
import socket
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    import sqlalchemy as sa

#: the first key of every probe-ui advisory lock on PostgreSQL (run-level and part-level locks use two classes)
PG_CLASS_RUN = 0x70726F62  # "prob"
PG_CLASS_PART = 0x70726F63


def part_name(shard: tuple[int, int] | None) -> str:
    """The lock's part: ``all`` for a whole batch, ``2of4`` for shard 2/4."""
    return "all" if shard is None else f"{shard[0]}of{shard[1]}"


def _shown_part(part: str) -> str:
    return "" if part == "all" else f" (shard {part.replace('of', '/')})"


def holder_record(name: str, part: str) -> dict[str, Any]:
    """What a lock holder records about itself: run, part, pid, host and since when (UTC)."""
    return {"run": name, "part": part, "pid": os.getpid(), "host": socket.gethostname(),
            "since": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def in_use_message(name: str, part: str, holder: dict[str, Any] | None, flag: str = "--run") -> str:
    """The one line a refused batch prints."""
    who = "another probe-ui batch"
    if holder:
        bits = []
        if holder.get("pid"):
            bits.append(f"pid {holder['pid']}")
        if holder.get("host"):
            bits.append(f"on {holder['host']}")
        if holder.get("since"):
            bits.append(f"since {holder['since']}")
        if holder.get("part") and holder.get("part") != part:
            bits.append("the whole run" if holder["part"] == "all" else f"shard {holder['part'].replace('of', '/')}")
        if bits:
            who += f" ({', '.join(bits)})"
    return (f"run '{name}'{_shown_part(part)} is in use by {who}: nothing was asked or stored; wait for it to "
            f"finish, or use another {flag}")


# ---- SQLite: flock on files beside the database ---------------------------------------------------------------
def lock_paths(db: Path, name: str, part: str) -> tuple[Path, Path]:
    """The run's lock file and the part's, beside the database file ``db``."""
    h = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return db.with_name(f"{db.name}.run-{h}.lock"), db.with_name(f"{db.name}.run-{h}-{part}.lock")


class _Flock:
    """A non-blocking flock on a file that this process may remove when it lets go (see :func:`_acquire`)."""

    def __init__(self, path: Path, fd: int, shared: bool) -> None:
        self.path, self.fd, self.shared = path, fd, shared

    def release(self) -> None:
        import fcntl

        try:
            if self.shared:  # remove the file only when no other holder shares it
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    self.shared = False
                except OSError:
                    pass
            if not self.shared and _same_file(self.path, self.fd):
                self.path.unlink(missing_ok=True)
        finally:
            os.close(self.fd)  # closing drops the lock


def _same_file(path: Path, fd: int) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except OSError:
        return False


def _acquire(path: Path, shared: bool) -> _Flock | None:
    """Lock ``path`` without waiting; None when another process holds it. A holder removes its file when it lets
    go, so a lock taken on a file that was removed meanwhile is taken again on the new file."""
    import fcntl

    for _ in range(20):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:  # another user's lock file (a shared folder): flock needs no write access
            fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return None
            raise
        if _same_file(path, fd):
            return _Flock(path, fd, shared)
        os.close(fd)  # removed by its last holder after we opened it: try the file that is there now
    return None  # pragma: no cover - a file removed and re-made 20 times in a row


def _read_holder(path: Path) -> dict[str, Any] | None:
    """The record in a part's lock file, when a live process holds it (a file nobody locks is stale)."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            held = False  # we could lock it: nobody holds it
        except OSError:
            held = True
        if not held:
            return None
        data = os.read(fd, 4096)
        record = json.loads(data.decode("utf-8", "replace") or "null")
        return record if isinstance(record, dict) else {}
    except (OSError, ValueError):
        return {}
    finally:
        os.close(fd)


def _sqlite_holder(db: Path, name: str, part: str) -> dict[str, Any] | None:
    run_file, part_file = lock_paths(db, name, part)
    holder = _read_holder(part_file)
    if holder is None:  # another part holds the run: name one of them
        for other in sorted(db.parent.glob(glob.escape(run_file.name[:-len(".lock")]) + "-*.lock")):
            holder = _read_holder(other)
            if holder is not None:
                break
    return holder


@contextmanager
def sqlite_run_lock(db: Path, name: str, shard: tuple[int, int] | None, error: type[Exception],
                    flag: str = "--run") -> Iterator[None]:
    """Hold the run ``name`` (and its part ``shard``) of the SQLite store ``db`` for the block; raise ``error``
    with :func:`in_use_message` when another batch holds it."""
    try:
        import fcntl  # noqa: F401 - POSIX only
    except ImportError:  # pragma: no cover - Windows: the unique cell key still keeps one answer per cell
        yield
        return
    part = part_name(shard)
    run_file, part_file = lock_paths(db, name, part)
    held: list[_Flock] = []
    try:
        try:
            run = _acquire(run_file, shared=shard is not None)
            if run is not None:
                held.append(run)
                mine = _acquire(part_file, shared=False)
                if mine is not None:
                    held.append(mine)
                    try:
                        os.ftruncate(mine.fd, 0)
                        os.pwrite(mine.fd, (json.dumps(holder_record(name, part)) + "\n").encode(), 0)
                    except OSError:  # opened read-only (another user's file): the lock holds, unnamed
                        pass
        except OSError as exc:
            raise error(f"cannot lock run '{name}' beside the store {db}: {exc.strerror or exc}") from None
        if len(held) < 2:
            for f in reversed(held):
                f.release()
            held.clear()
            raise error(in_use_message(name, part, _sqlite_holder(db, name, part), flag))
        yield
    finally:
        for f in reversed(held):
            f.release()


# ---- PostgreSQL: session-level advisory locks --------------------------------------------------------------------
def _key32(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:4], "big") & 0x7FFFFFFF


@contextmanager
def postgres_run_lock(engine: sa.Engine, name: str, shard: tuple[int, int] | None, error: type[Exception],
                      flag: str = "--run") -> Iterator[None]:
    """The same as :func:`sqlite_run_lock` on a PostgreSQL store: advisory locks held by one connection (kept out
    of the pool for the block), released when the block ends or that connection is lost."""
    import sqlalchemy as sa

    part = part_name(shard)
    run_key, part_key = _key32(name), _key32(f"{name}\x1f{part}")
    me = holder_record(name, part)
    conn = engine.connect()
    try:
        conn.execute(sa.text("SELECT set_config('application_name', :a, false)"),
                     {"a": f"probe-ui {me['pid']} {me['since']} {part} {me['host']}"[:63]})
        run_fn = "pg_try_advisory_lock_shared" if shard is not None else "pg_try_advisory_lock"
        got_run = bool(conn.execute(sa.text(f"SELECT {run_fn}(:c, :k)"), {"c": PG_CLASS_RUN, "k": run_key}).scalar())
        got_part = got_run and bool(conn.execute(sa.text("SELECT pg_try_advisory_lock(:c, :k)"),
                                                 {"c": PG_CLASS_PART, "k": part_key}).scalar())
        conn.commit()
        if not got_part:
            raise error(in_use_message(name, part, _pg_holder(conn, run_key, part_key), flag))
        yield
    finally:
        # let go of the locks now, then end the session rather than hand it back to the pool. Closing alone frees
        # them only once the server's backend has noticed and exited, a moment later: a batch started straight
        # after (CI once: a test's next lock) found the run still "in use"
        try:
            conn.execute(sa.text("SELECT pg_advisory_unlock_all()"))
            conn.commit()
        except sa.exc.SQLAlchemyError:  # the connection is lost: its locks end with its session
            pass
        finally:
            try:
                conn.invalidate()
            finally:
                conn.close()


def _pg_holder(conn: sa.Connection, run_key: int, part_key: int) -> dict[str, Any] | None:
    """The holder of this part (else of the run), from its connection's application_name."""
    import sqlalchemy as sa

    q = sa.text("SELECT a.application_name, l.classid::bigint AS classid FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
                "AND l.objsubid = 2 AND a.pid <> pg_backend_pid() AND ((l.classid::bigint = :cp AND "
                "l.objid::bigint = :kp) OR (l.classid::bigint = :cr AND l.objid::bigint = :kr)) "
                "ORDER BY l.classid::bigint DESC")
    try:
        rows = conn.execute(q, {"cp": PG_CLASS_PART, "kp": part_key, "cr": PG_CLASS_RUN, "kr": run_key}).all()
        conn.commit()
    except sa.exc.SQLAlchemyError:  # no right to see other sessions: say less
        conn.rollback()
        return None
    for app, _cls in rows:
        parts = str(app or "").split(maxsplit=4)
        if len(parts) >= 4 and parts[0] == "probe-ui":
            return {"pid": parts[1], "since": parts[2], "part": parts[3], "host": parts[4] if len(parts) > 4 else None}
    return None
