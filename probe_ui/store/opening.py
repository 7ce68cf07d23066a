"""Opening a store: the engine for a file path or SQLAlchemy URL, the schema created or upgraded (after a backup)
or, read-only, checked; SQLite's pragmas and read-only URLs; the write lock; the statements a read-only store
refuses. :class:`StoreBase` is what every part of :class:`probe_ui.store.Store` stands on.

Images live on disk beside the database, content-addressed by their sha256 (``images/ab/abcd….png``); rows only
reference the hash. The URL may also be any SQLAlchemy URL (e.g. ``postgresql://...``).
"""

from __future__ import annotations

import functools
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import sqlalchemy as sa
from sqlalchemy import event

from probe_ui.files.data_folder import DATA_DIR, DEFAULT_DB
from probe_ui.security.redact import public_text
from probe_ui.store.errors import NO_STORE, NoStoreError, StoreError, StoreNeedsUpgrade
from probe_ui.store.schema import MAX_ID, md


class StoreBase:
    """Open (creating if needed) a store at a file path or SQLAlchemy URL.

    ``read_only=True`` opens an existing store for reading only, for the commands that write nothing: SQLite
    through a read-only URI (``mode=ro``; also ``immutable=1`` when its folder cannot be written, so that SQLite
    needs no ``-wal`` / ``-shm`` files there), no WAL switch, no table creation, no schema upgrade (a store older
    than this probe-ui raises a one-line StoreError saying how to upgrade it), the parse cache not written; every
    write raises StoreError. PostgreSQL: every transaction read-only. ``read_only="auto"``: read-only when the
    store is a SQLite file that this process cannot write (a read-only filesystem, folder or file), else as usual:
    the read commands use it, so that where the store can be written they still upgrade it and refresh the parse
    cache (:func:`sqlite_writable`).
    """

    def __init__(self, location: str | os.PathLike[str] = DEFAULT_DB, images_dir: str | os.PathLike[str] | None = None,
                 read_only: bool | str = False, trust: bool | None = None):
        loc = str(location)
        #: open a store holding triggers probe-ui did not create (:mod:`probe_ui.store.check`; None: the default)
        self.trust = trust
        #: ratings written through this Store so far: a page redrawing a run in progress re-reads its ratings only
        #: when this has moved (:func:`probe_ui.live.ratings_of`)
        self.ratings_written = 0
        #: what opening found that probe-ui did not create (shown as warnings; :mod:`probe_ui.store.check`)
        self.warnings: list[str] = []
        #: triggers and rules probe-ui did not create that the store was opened with (--trust-store)
        self.foreign_triggers: list[str] = []
        if read_only not in (True, False, "auto"):
            raise ValueError(f"read_only must be True, False or 'auto', not {read_only!r}")
        db_file = sqlite_file(loc)
        if read_only == "auto":
            read_only = db_file is not None and db_file.exists() and not sqlite_writable(db_file)
        #: opened for reading only (see the class doc)
        self.read_only = bool(read_only)
        #: where the store is, fit for messages (a URL without credentials)
        self.where = public_text(loc)
        connect_url = None
        if "://" in loc:
            self.url = database_url(loc)
            default_images = DATA_DIR / "images"
        else:
            path = Path(loc)
            if path.exists() and path.is_dir():
                raise StoreError(f"{path} is a folder; give the database file path, e.g. {path / 'probe-ui.db'}")
            if not self.read_only:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:  # a parent that is a file, no permission, ...
                    blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
                    why = f"{blocker} is a file, not a folder" if blocker else exc.strerror or type(exc).__name__
                    raise StoreError(f"cannot create the folder for the store {path}: {why}") from None
            self.url = f"sqlite:///{path}"
            default_images = path.parent / "images"
        if self.read_only and db_file is not None:
            connect_url = read_only_sqlite_url(db_file)
        self.images_dir = Path(images_dir) if images_dir else default_images
        self._stored_images: set[str] = set()
        try:
            kwargs: dict[str, Any] = {}
            if self.read_only and self.url.startswith("postgresql"):  # every transaction read-only, on the server
                kwargs["connect_args"] = {"options": "-c default_transaction_read_only=on"}
            # a server's connections can drop while pooled (restarts, idle timeouts): checked before each use; a
            # SQLite file's cannot, and the check was 3 % of the app's CPU in a live probe
            ping = sa.engine.make_url(connect_url or self.url).get_backend_name() != "sqlite"
            self.engine = sa.create_engine(connect_url or self.url, future=True, pool_pre_ping=ping, **kwargs)
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as exc:
            raise StoreError(public_text(f"cannot use the database URL {loc}: {exc}")) from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect",
                         functools.partial(_sqlite_pragmas, read_only=self.read_only))
        if self.read_only:
            event.listen(self.engine, "before_cursor_execute", self._refuse_writes)
        event.listen(self.engine, "handle_error", self._explain_error)
        #: a server database is shared (e.g. by --shard machines): images go into it, not onto one machine's disk
        self.images_in_db = self.engine.dialect.name != "sqlite"
        #: (old version, new version, backup) when opening upgraded the store's schema (probe_ui.store.migrations)
        self.upgraded: tuple[int, int, str] | None = None
        self._open_schema(loc)

    def _refuse_writes(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """A store opened read-only refuses every statement that would write, on any database, with one line."""
        first = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else ""
        if first in _WRITES or statement.lstrip().upper().startswith(("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE")):
            raise StoreError(f"the store at {self.where} was opened read-only: cannot {first.lower()} "
                             "(open it without read_only to change it)")

    def _explain_error(self, context: Any) -> None:
        """The database errors that are the user's situation, not a bug, as one-line StoreErrors: a full disk, and
        a write refused by a trigger (one that probe-ui did not create: the store was opened with --trust-store)."""
        orig = context.original_exception
        name = getattr(orig, "sqlite_errorname", None)
        state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        if name == "SQLITE_FULL" or state == "53100":
            from probe_ui.files.safe_write import free_space

            path = sqlite_file(self.url)
            space = f"{free_space(path.parent)} on its filesystem" if path is not None else "on the database server"
            raise StoreError(f"the store at {self.where} cannot be written: the disk is full ({space}); free some "
                             "space and run the same command again (what was stored before is kept)") from None
        if name == "SQLITE_CONSTRAINT_TRIGGER" or state == "P0001":
            raise StoreError(f"the store at {self.where} refused a write: a trigger in the database aborted it "
                             f"({public_text(str(orig).splitlines()[0] if str(orig) else type(orig).__name__)}); "
                             "probe-ui creates no triggers: remove it (DROP TRIGGER ...)") from None

    def _open_schema(self, loc: str) -> None:
        """Create a new store's tables, or upgrade an older store's schema (after a backup copy). Read-only: only
        check that the schema is this code's."""
        from probe_ui.store import check as store_check
        from probe_ui.store import migrations

        where = self.where
        sqlite_path = Path(loc) if "://" not in loc and loc != ":memory:" else None
        if self.read_only and sqlite_path is not None and not sqlite_path.exists():
            raise NoStoreError(NO_STORE.format(where=where))
        try:
            with self.engine.connect() as c:  # triggers and views it did not create, before anything is written
                self.warnings, self.foreign_triggers = store_check.check(c, where, store_check.trusted(self.trust))
                version = migrations.stored_version(c, where)
            for w in self.warnings:
                store_check.warn_once(w)
            if self.read_only:
                self._check_read_only_schema(version, where)
            elif version is None:
                _create_tables(self.engine)
                with self.write_lock() as c:
                    if (migrations.stored_version(c) or 0) == 0:  # not stamped by a process racing us
                        migrations.set_version(c, migrations.LATEST)
            else:
                self.upgraded = migrations.upgrade(self.engine, where, self.write_lock, sqlite_path)
        except (migrations.SchemaError, store_check.ForeignObjectsError) as exc:
            raise StoreError(str(exc)) from None
        except sa.exc.SQLAlchemyError as exc:
            hint = ""
            if self.read_only and sqlite_path is not None and _wal_has_data(sqlite_path):
                hint = (f" (its write-ahead log {sqlite_path.name}-wal holds changes that SQLite can only read with "
                        "its -shm file or a writable folder: open it once where it can be written)")
            raise StoreError(f"cannot open the store at {where}{' read-only' if self.read_only else ''}: "
                             f"{exc.__class__.__name__}: {public_text(str(exc).splitlines()[0])}{hint}") from None

    def _check_read_only_schema(self, version: int | None, where: str) -> None:
        from probe_ui.store import migrations

        if version is None:
            raise NoStoreError(f"{where} holds no probe-ui store (no tables): check --db")
        if version > migrations.LATEST:
            raise migrations.too_new(version, where)
        if version < migrations.LATEST:
            raise StoreNeedsUpgrade(f"the store at {where} has schema version {version}, older than this probe-ui's "
                             f"{migrations.LATEST}, and was opened read-only: it needs an upgrade, which writes to it; "
                             "open it once writable (any write command, e.g. probe-ui batch, or probe-ui score where "
                             "the store can be written, or on a writable copy) to upgrade it")

    @contextmanager
    def write_lock(self, key: int = 727274) -> Iterator[sa.Connection]:
        """A transaction that holds the database's write lock from its start (SQLite: BEGIN IMMEDIATE; PostgreSQL:
        an advisory lock numbered ``key``), for read-then-write work that must not interleave with another
        process's; committed when the block ends, rolled back when it raises."""
        with self.engine.connect() as c:
            if self.engine.dialect.name == "sqlite":
                c.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                c.exec_driver_sql(f"SELECT pg_advisory_xact_lock({int(key)})")
            try:
                yield c
            except BaseException:
                c.rollback()
                raise
            c.commit()

    def close(self) -> None:
        self.engine.dispose()

    def _insert_ignore(self, table: sa.Table, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        dialect = self.engine.dialect.name
        stmt: sa.Insert
        if dialect == "sqlite":
            from sqlalchemy.dialects import sqlite

            stmt = sqlite.insert(table).on_conflict_do_nothing()
        elif dialect == "postgresql":
            from sqlalchemy.dialects import postgresql

            stmt = postgresql.insert(table).on_conflict_do_nothing()
        else:  # pragma: no cover - other databases are not supported yet
            raise StoreError(f"unsupported database '{dialect}': use SQLite or PostgreSQL")
        with self.engine.begin() as c:
            for start in range(0, len(rows), 500):
                c.execute(stmt, rows[start:start + 500])

    def _known_id(self, response_id: Any) -> int:
        """``response_id`` as an int a query can hold, else StoreError: no answer has an id past :data:`MAX_ID`
        (10**30 overflowed the database driver)."""
        rid = int(response_id)
        if not 1 <= rid <= MAX_ID:
            raise StoreError(f"no response #{rid if len(str(rid)) <= 40 else str(rid)[:20] + '...'} in {self.where} "
                             f"(answer ids run from 1 to {MAX_ID:,})")
        return rid


def _create_tables(engine: sa.Engine, attempts: int = 6) -> None:
    """Create missing tables; when another process (a shard, a second app) creates them at the same moment, the
    loser's CREATE fails with "already exists" / a duplicate key: look again, the tables are there now."""
    import time

    for attempt in range(attempts):
        try:
            md.create_all(engine)
            return
        except (sa.exc.OperationalError, sa.exc.ProgrammingError, sa.exc.IntegrityError) as exc:
            text = str(exc).lower()
            if attempt == attempts - 1 or not ("already exists" in text or "duplicate key" in text):
                raise
            time.sleep(0.1 * (attempt + 1))


def database_url(url: str) -> str:
    """A PostgreSQL URL without a driver uses psycopg 3 when psycopg2 is not installed (pip install psycopg)."""
    if url.startswith(("postgresql://", "postgres://")):
        import importlib.util

        if importlib.util.find_spec("psycopg2") is None and importlib.util.find_spec("psycopg") is not None:
            return "postgresql+psycopg://" + url.split("://", 1)[1]
        if url.startswith("postgres://"):
            return "postgresql://" + url.split("://", 1)[1]
    return url


def _sqlite_pragmas(dbapi_conn: Any, _record: Any, read_only: bool = False) -> None:
    cur = dbapi_conn.cursor()
    if read_only:  # switching to WAL writes the file; query_only refuses writes even where the file allows them
        cur.execute("PRAGMA query_only=ON")
    else:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


#: the first words of statements that write (a read-only store refuses them; see StoreBase._refuse_writes)
_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "ALTER", "DROP", "VACUUM", "REINDEX",
                     "TRUNCATE", "GRANT", "REVOKE", "COPY", "UPSERT", "MERGE"})


def sqlite_file(location: str) -> Path | None:
    """The database file of a SQLite store location (a path, or a ``sqlite:///`` URL); None for an in-memory
    database or a server URL."""
    if "://" not in location:
        return None if location in ("", ":memory:") else Path(location)
    if not location.lower().startswith("sqlite"):
        return None
    database = sa.engine.make_url(location).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def sqlite_writable(path: Path) -> bool:
    """Whether this process can write the SQLite store ``path``: the file and its folder (where SQLite makes its
    ``-wal`` / ``-shm`` / journal files). False on a read-only filesystem, folder or file (root included on a
    read-only mount; root passes permission bits, so a chmod alone does not make a store read-only for it)."""
    return _can_write(path) and _can_write(path.parent)


def _can_write(path: Path) -> bool:
    """Whether this process may write ``path`` (a file or folder); one place, so that a test can pretend."""
    return os.access(path, os.W_OK)


def _wal_has_data(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def read_only_sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL that opens a SQLite file read-only: ``mode=ro``, and ``immutable=1`` when its folder
    cannot be written and no write-ahead log holds changes (SQLite then needs no -wal / -shm files, and reads the
    file as it is; a non-empty -wal must be read through SQLite's WAL index, so it is left mutable)."""
    from urllib.parse import quote

    immutable = not _can_write(path.parent) and not _wal_has_data(path)
    target = quote(str(path.resolve()), safe="/")
    return f"sqlite:///file:{target}?mode=ro{'&immutable=1' if immutable else ''}&uri=true"
