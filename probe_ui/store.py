"""The run store: every variant, request and response, in one SQLite file (WAL) by default.

Rows are append-only except that a response row holding an error is replaced when the same cell is retried and
succeeds. A unique key (run, variant, model, prompt, sample) makes a re-run skip work that is already done.
Images live on disk beside the database, content-addressed by their sha256 (``images/ab/abcd….png``); rows only
reference the hash. The URL may also be any SQLAlchemy URL (e.g. ``postgresql://...``).
"""

from __future__ import annotations

import functools
import logging
import math
import os
import platform
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

import sqlalchemy as sa
from sqlalchemy import event

from probe_ui.errors import ProbeUIError
from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.redact import public_text

if TYPE_CHECKING:  # pandas costs 0.7 s to import: only the reading side (scores, exports, the app) needs it
    import pandas as pd

    from probe_ui.run_settings import RunSettings

DEFAULT_DB = Path("probe-ui-data") / "probe-ui.db"
log = logging.getLogger("probe_ui.store")

md = sa.MetaData()
runs = sa.Table(
    "runs", md,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.Text, nullable=False, unique=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("versions", sa.JSON, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    # who made the run: the app's signed-in user ("local" without a login), else the system user that ran probe-ui
    sa.Column("created_by", sa.Text),
)
images = sa.Table(
    "images", md,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("width", sa.Integer, nullable=False),
    sa.Column("height", sa.Integer, nullable=False),
    sa.Column("mode", sa.String(8), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
variants = sa.Table(
    "variants", md,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("item_id", sa.Text, nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("condition", sa.Text, nullable=False),
    sa.Column("group_id", sa.Text, nullable=False),
    sa.Column("item_group", sa.Text),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("answer", sa.Text),
    sa.Column("answer_label", sa.Text),
    sa.Column("n_labels", sa.Integer, nullable=False),
    sa.Column("image_ids", sa.JSON, nullable=False),
    sa.Column("category", sa.JSON, nullable=False),
    sa.Column("tags", sa.JSON, nullable=False),
    sa.Column("attributes", sa.JSON, nullable=False),
    sa.Column("provenance", sa.JSON, nullable=False),
    sa.Column("prompt", sa.Text),  # a template chosen by a perturbation
    sa.Column("prompt_args", sa.JSON),  # e.g. MedVH FCJ's suggested answer
    sa.Column("example_ids", sa.JSON),  # few-shot examples (variant ids)
    sa.Column("created_at", sa.String(40), nullable=False),
)
image_data = sa.Table(
    "image_data", md,  # the PNG bytes themselves, for a shared database (PostgreSQL): every machine sees them
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("png", sa.LargeBinary, nullable=False),
)
run_variants = sa.Table(
    "run_variants", md,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), primary_key=True),
    sa.Column("variant_id", sa.String(64), sa.ForeignKey("variants.id"), primary_key=True),
)
responses = sa.Table(
    "responses", md,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), nullable=False),
    sa.Column("variant_id", sa.String(64), sa.ForeignKey("variants.id"), nullable=False),
    sa.Column("model", sa.Text, nullable=False),
    sa.Column("prompt", sa.Text, nullable=False),
    sa.Column("sample", sa.Integer, nullable=False),
    sa.Column("request_hash", sa.String(64), nullable=False),
    sa.Column("messages", sa.JSON, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("raw_text", sa.Text),
    sa.Column("parsed", sa.Text),
    sa.Column("method", sa.String(60)),
    sa.Column("invalid", sa.Boolean),
    sa.Column("refusal", sa.Boolean),
    sa.Column("correct", sa.Boolean),
    sa.Column("latency_s", sa.Float),
    sa.Column("input_tokens", sa.Integer),
    sa.Column("output_tokens", sa.Integer),
    sa.Column("cost", sa.Float),
    sa.Column("error", sa.Text),
    sa.Column("finish_reason", sa.String(60)),
    sa.Column("details", sa.JSON),
    sa.Column("role", sa.String(16), nullable=False, server_default="answer"),  # answer | judge
    sa.Column("parent_id", sa.Integer),  # a judge call: the answer it judged
    sa.Column("parse_version", sa.String(40)),  # the robust parser that wrote parsed..correct (a cache of it)
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("run_id", "variant_id", "model", "prompt", "sample", name="uq_response_cell"),
    sa.Index("ix_responses_request_hash", "request_hash"),
)
item_errors = sa.Table(
    "item_errors", md,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), primary_key=True),
    sa.Column("source", sa.Text, primary_key=True),
    sa.Column("item_id", sa.Text, primary_key=True),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)

RATER_MAX = 100  # characters in a rater's name
ratings = sa.Table(
    "ratings", md,  # a person's judgement of one answer; append-only, the latest per response counts
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("response_id", sa.Integer, sa.ForeignKey("responses.id"), nullable=False, index=True),
    sa.Column("rating", sa.String(16), nullable=False),
    sa.Column("note", sa.Text, nullable=False, server_default=""),
    sa.Column("created_at", sa.String(40), nullable=False),
    # who rated: the app's --auth user or rater field, the CLI's --rater, a CSV's column; "" = nobody named (ratings
    # made before raters were recorded). The latest rating of each rater per response counts.
    sa.Column("rater", sa.String(RATER_MAX), nullable=False, server_default=""),
    # whether the rater's identity was checked: true = the app's signed-in user; false = a name typed in an app
    # without a login (anyone could have typed it); null = not from the app (a CSV import, a script, older ratings)
    sa.Column("verified", sa.Boolean),
)
RATINGS = ("correct", "incorrect", "unsure")

schema_version = sa.Table(
    "schema_version", md,  # one row: the schema version of this store (probe_ui.migrations)
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

CellKey = tuple[str, str, str, int]  # variant id, model, prompt, sample

#: the longest run, model and prompt name, and item id or source in an item error, in UTF-8 bytes, on every back
#: end: these columns are indexed, and a PostgreSQL index entry holds about 2.7 kB (SQLite would take any length)
KEY_MAX_BYTES = 1000
_INT_RANGE = {sa.Integer: (-2**31, 2**31 - 1), sa.BigInteger: (-2**63, 2**63 - 1)}
#: the largest row id (an answer's, a rating's) any back end holds: ids are 32-bit integers on PostgreSQL
MAX_ID = _INT_RANGE[sa.Integer][1]


def check_key(value: str, what: str) -> str:
    """``value`` if it fits an indexed name column (:data:`KEY_MAX_BYTES`), else a one-line StoreError."""
    n = len(value.encode("utf-8", "surrogatepass"))
    if n > KEY_MAX_BYTES:
        raise StoreError(f"{what} is {n:,} bytes long; at most {KEY_MAX_BYTES:,} are stored: choose a shorter one")
    return value


def clip_key(value: str) -> str:
    """``value`` cleaned (:func:`clean_text`) and cut to :data:`KEY_MAX_BYTES` (item ids and sources in item
    errors: the error is kept, its id shortened)."""
    value = clean_text(value)
    data = value.encode("utf-8")
    return value if len(data) <= KEY_MAX_BYTES else data[:KEY_MAX_BYTES - 3].decode("utf-8", "ignore") + "..."


def clean_text(text: str) -> str:
    """Text every back end stores: a lone surrogate (valid in Python, not in UTF-8) and NUL (refused by
    PostgreSQL) become U+FFFD; everything else is kept."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def clean_json(value: Any) -> Any:
    """A JSON value every back end stores: strings cleaned, non-finite floats and integers past 64 bits as null.
    Other types are left for the database driver to refuse (a bug upstream, stored as an error cell)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if -2**63 <= value < 2**63 else None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {clean_text(k) if isinstance(k, str) else k: clean_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_json(v) for v in value]
    return value


def storable(table: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` as every back end takes it (issue 14, F6): text cleaned (:func:`clean_text`), text cut to its
    column's length, integers outside their column's range and non-finite floats stored as null, JSON cleaned
    (:func:`clean_json`). A reply with a lone surrogate, NUL bytes, token counts of 10**30 or a 5,000-character
    finish reason is stored, the same way on SQLite and PostgreSQL."""
    out = {}
    for key, value in row.items():
        col = table.c.get(key)
        if col is None or value is None:
            out[key] = value
            continue
        kind = col.type
        if isinstance(kind, sa.JSON):
            value = clean_json(value)
        elif isinstance(value, str):
            value = clean_text(value)
            length = getattr(kind, "length", None)
            if length and len(value) > length:
                value = value[:length]
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int) and type(kind) in _INT_RANGE:
            lo, hi = _INT_RANGE[type(kind)]
            value = value if lo <= value <= hi else None
        elif isinstance(value, float) and isinstance(kind, sa.Float):
            value = value if math.isfinite(value) else None
        out[key] = value
    return out


# Statements built once (a batch runs them for every answer): bound parameters, so each compiles once.
_CACHED = (sa.select(*(responses.c[k] for k in ("id", "raw_text", "input_tokens", "output_tokens", "cost",
                                                 "finish_reason")))
           .where(responses.c.request_hash == sa.bindparam("h"), responses.c.error.is_(None),
                  responses.c.role == sa.bindparam("role")).order_by(responses.c.id).limit(1))
_CELL_ROW = sa.select(responses.c.id, responses.c.error).where(
    *(responses.c[k] == sa.bindparam(f"k_{k}") for k in ("run_id", "variant_id", "model", "prompt", "sample")))


class StoreError(ProbeUIError, RuntimeError):
    """The store cannot be opened or a run does not exist."""


class NoStoreError(StoreError):
    """A read-only open found no probe-ui store where it was pointed (no file, or a file without its tables)."""


class StoreNeedsUpgrade(StoreError):
    """A read-only open found a store older than this probe-ui: reading it needs an upgrade, which writes."""


#: what a command that only reads says when its store is not there (the path as the user typed it)
NO_STORE = "no store at {where}: stores are per folder; pass --db or set PROBE_UI_DB"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def package_versions() -> dict[str, str]:
    """What produced a run: Python, platform and the versions of the packages that touch results (read once per
    process: the code running is what was imported, and each read scans the installed packages, ~10 ms a run)."""
    return dict(_package_versions())


@functools.cache
def _package_versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for pkg in ("probe-ui", "numpy", "pillow", "pydicom", "nibabel", "openai", "anthropic", "transformers", "torch",
                "sqlalchemy", "pandas"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    return out


@dataclass(frozen=True)
class Run:
    id: int
    name: str
    seed: int
    settings: dict[str, Any]
    versions: dict[str, str]
    created_at: str
    updated_at: str
    created_by: str | None = None

    @property
    def config(self) -> RunSettings:
        """The recorded settings, typed (:class:`probe_ui.run_settings.RunSettings`; ``settings`` is the JSON)."""
        from probe_ui.run_settings import RunSettings

        return RunSettings.of(self.settings)


class RunInUseError(StoreError):
    """Another probe-ui batch holds this run (or this shard of it): see :meth:`Store.run_lock`."""


class Store:
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
        #: open a store holding triggers probe-ui did not create (:mod:`probe_ui.store_check`; None: the default)
        self.trust = trust
        #: ratings written through this Store so far: a page redrawing a run in progress re-reads its ratings only
        #: when this has moved (:func:`probe_ui.live.ratings_of`)
        self.ratings_written = 0
        #: what opening found that probe-ui did not create (shown as warnings; :mod:`probe_ui.store_check`)
        self.warnings: list[str] = []
        #: triggers and rules probe-ui did not create that the store was opened with (--trust-store)
        self.foreign_triggers: list[str] = []
        if read_only not in (True, False, "auto"):
            raise ValueError(f"read_only must be True, False or 'auto', not {read_only!r}")
        sqlite_file = _sqlite_file(loc)
        if read_only == "auto":
            read_only = sqlite_file is not None and sqlite_file.exists() and not sqlite_writable(sqlite_file)
        #: opened for reading only (see the class doc)
        self.read_only = bool(read_only)
        #: where the store is, fit for messages (a URL without credentials)
        self.where = public_text(loc)
        connect_url = None
        if "://" in loc:
            self.url = database_url(loc)
            default_images = Path("probe-ui-data") / "images"
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
        if self.read_only and sqlite_file is not None:
            connect_url = read_only_sqlite_url(sqlite_file)
        self.images_dir = Path(images_dir) if images_dir else default_images
        self._stored_images: set[str] = set()
        try:
            kwargs: dict[str, Any] = {}
            if self.read_only and self.url.startswith("postgresql"):  # every transaction read-only, on the server
                kwargs["connect_args"] = {"options": "-c default_transaction_read_only=on"}
            self.engine = sa.create_engine(connect_url or self.url, future=True, pool_pre_ping=True, **kwargs)
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
        #: (old version, new version, backup) when opening upgraded the store's schema (probe_ui.migrations)
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
            from probe_ui.safe_write import free_space

            path = _sqlite_file(self.url)
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
        from probe_ui import migrations, store_check

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
        from probe_ui import migrations

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

    # ---- runs -------------------------------------------------------------------------------------------------
    def ensure_run(self, name: str, seed: int, settings: dict[str, Any], created_by: str | None = None) -> Run:
        """Create the run, or reopen it (same seed required) and merge the new settings into its record.
        ``created_by`` (who makes it: the app's user; default the system user) is recorded when it is created."""
        check_key(name, "run name")
        created = False
        if created_by is None:
            from probe_ui.users import system_user

            created_by = system_user()
        try:
            with self.engine.begin() as c:
                if c.execute(sa.select(runs.c.id).where(runs.c.name == name)).first() is None:
                    c.execute(runs.insert().values(name=name, seed=seed, settings=settings,
                                                   versions=package_versions(), created_at=now(), updated_at=now(),
                                                   created_by=clean_text(created_by)))
                    created = True
        except sa.exc.IntegrityError:
            pass  # another shard created it at the same moment: reopen it below
        if created:
            return self.get_run(name)
        with self.engine.begin() as c:
            row = c.execute(sa.select(runs).where(runs.c.name == name)).mappings().first()
            if row is None:  # pragma: no cover - deleted in between
                raise StoreError(f"run '{name}' vanished while it was being opened")
            else:
                if int(row["seed"]) != seed:
                    raise StoreError(f"run '{name}' was made with seed {row['seed']}, not {seed}: "
                                     "choose another --run name or the same --seed")
                merged = _merge_settings(dict(row["settings"]), settings)
                c.execute(runs.update().where(runs.c.id == row["id"]).values(settings=merged, updated_at=now()))
        return self.get_run(name)

    def get_run(self, name: str | None = None) -> Run:
        """A run by name, or the most recently updated one."""
        q = sa.select(runs)
        q = q.where(runs.c.name == name) if name else q.order_by(runs.c.updated_at.desc(), runs.c.id.desc()).limit(1)
        with self.engine.connect() as c:
            row = c.execute(q).mappings().first()
        if row is None:
            if name:
                known = ", ".join(r.name for r in self.list_runs()) or "none yet"
                raise StoreError(f"no run named '{name}' in {self.where} (runs: {known})")
            raise StoreError(f"no runs in {self.where} yet: run 'probe-ui batch' first")
        return Run(**dict(row))

    def list_runs(self) -> list[Run]:
        with self.engine.connect() as c:
            return [Run(**dict(r)) for r in c.execute(sa.select(runs).order_by(runs.c.id)).mappings()]

    def merge_run_settings(self, run_id: int, patch: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            old = c.execute(sa.select(runs.c.settings).where(runs.c.id == run_id)).scalar_one()
            c.execute(runs.update().where(runs.c.id == run_id).values(settings=dict(_json(old), **patch),
                                                                        updated_at=now()))

    def run_progress(self) -> list[dict[str, Any]]:
        """Every run with its finished answers, errors and planned cells (planned is recorded by batch runs)."""
        done = (sa.select(responses.c.run_id, sa.func.count().label("n"),
                          sa.func.count(responses.c.error).label("errors"))
                .where(responses.c.role == "answer").group_by(responses.c.run_id).subquery())
        q = (sa.select(runs.c.id, runs.c.name, runs.c.settings, runs.c.created_at, runs.c.updated_at,
                       sa.func.coalesce(done.c.n, 0).label("responses"),
                       sa.func.coalesce(done.c.errors, 0).label("errors"))
             .outerjoin(done, done.c.run_id == runs.c.id).order_by(runs.c.id))
        out = []
        with self.engine.connect() as c:
            for r in c.execute(q).mappings():
                settings = _json(r["settings"])
                answered = int(r["responses"]) - int(r["errors"])
                planned = settings.get("planned")
                out.append({"run": r["name"], "kind": settings.get("kind", "batch"), "answered": answered,
                            "errors": int(r["errors"]), "planned": planned,
                            "complete": planned is not None and answered >= planned,
                            "created_at": r["created_at"], "updated_at": r["updated_at"]})
        return out

    def touch_run(self, run_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(runs.update().where(runs.c.id == run_id).values(updated_at=now()))

    # ---- images and variants ----------------------------------------------------------------------------------
    def image_path(self, image_id: str) -> Path:
        return self.images_dir / image_id[:2] / f"{image_id}.png"

    def put_image(self, image: CanonicalImage) -> None:
        if image.id in self._stored_images:  # stored by this process already (images are never removed)
            return
        self._put_image(image)
        self._stored_images.add(image.id)

    def _put_image(self, image: CanonicalImage) -> None:
        if self.images_in_db:
            self._insert_ignore(image_data, [{"id": image.id, "png": image.png}])
            self._insert_ignore(images, [{"id": image.id, "width": image.width, "height": image.height,
                                          "mode": image.mode, "created_at": now()}])
            return
        path = self.image_path(image.id)
        if not path.is_file():
            from probe_ui.safe_write import WriteError, write_bytes

            try:
                write_bytes(path, image.png, what=f"cannot store image {image.id[:12]} at")
            except WriteError as exc:
                if not path.is_file():  # else another process stored the same image (the same bytes) meanwhile
                    raise StoreError(str(exc)) from None
        self._insert_ignore(images, [{"id": image.id, "width": image.width, "height": image.height,
                                      "mode": image.mode, "created_at": now()}])

    def image_png(self, image_id: str) -> bytes:
        """The stored canonical PNG bytes of an image (whose sha256 is its id)."""
        if self.images_in_db:
            with self.engine.connect() as c:
                data = c.execute(sa.select(image_data.c.png).where(image_data.c.id == image_id)).scalar()
            if data is None:
                raise StoreError(f"image {image_id} is not in the database")
            return bytes(data)
        path = self.image_path(image_id)
        if not path.exists():
            raise StoreError(f"image {image_id} is not in {self.images_dir}")
        return path.read_bytes()

    def get_image(self, image_id: str) -> CanonicalImage:
        img = CanonicalImage.from_png(self.image_png(image_id))
        if img.id != image_id:
            raise StoreError(f"image {image_id} does not match its hash: it was changed after it was stored")
        return img

    def add_variants(self, run_id: int, vs: Iterable[Variant]) -> None:
        vs = list(vs)
        for im in {im.id: im for v in vs for im in v.images}.values():  # variants share images: each once
            self.put_image(im)
        self._insert_ignore(variants, [_variant_row(v) for v in vs])
        self._insert_ignore(run_variants, [{"run_id": run_id, "variant_id": v.id} for v in vs])

    # ---- responses --------------------------------------------------------------------------------------------
    def done_cells(self, run_id: int, role: str = "answer") -> set[CellKey]:
        """Cells with a finished (non-error) response: a re-run skips these."""
        q = sa.select(responses.c.variant_id, responses.c.model, responses.c.prompt, responses.c.sample).where(
            responses.c.run_id == run_id, responses.c.error.is_(None), responses.c.role == role)
        with self.engine.connect() as c:
            return {(r[0], r[1], r[2], int(r[3])) for r in c.execute(q)}

    def cached_response(self, request_hash: str, role: str = "answer") -> dict[str, Any] | None:
        """A finished response to exactly this request (any run), for the deterministic-request cache: its id, raw
        text, token counts, cost and finish reason. ``role="judge"``: a judge's call (the fallback judge reuses
        its verdict on the same reply, question and judge model)."""
        with self.engine.connect() as c:
            row = c.execute(_CACHED, {"h": request_hash, "role": role}).mappings().first()
        return dict(row) if row else None

    def response_id(self, run_id: int, variant_id: str, model: str, prompt: str, sample: int) -> int | None:
        q = sa.select(responses.c.id).where(responses.c.run_id == run_id, responses.c.variant_id == variant_id,
                                            responses.c.model == model, responses.c.prompt == prompt,
                                            responses.c.sample == sample)
        with self.engine.connect() as c:
            return c.execute(q).scalar()

    def save_response(self, row: dict[str, Any]) -> int | None:
        """Insert a response; replace an earlier error row for the same cell; never overwrite a finished one.
        Returns the id of the row written, None when another row stands for the cell (or an error replaced it).

        The row is made storable first (:func:`storable`). Should the database still refuse it, the cell is stored
        as an error that says so (the request kept, the reply dropped), so that one reply never stops a batch and
        the cell is asked again by the next run; only a store that cannot be written at all raises.
        """
        row = storable(responses, dict(row, created_at=now()))
        try:
            return self._write_response(row)
        except sa.exc.IntegrityError as exc:
            self._lost_race(row, exc)
            return None
        except sa.exc.StatementError as exc:
            if isinstance(exc, sa.exc.OperationalError):
                raise  # the database itself (locked, gone, full): not this reply's fault
            why = type(getattr(exc, "orig", None) or exc).__name__
            log.warning("run #%s, variant %s, model %s: the reply could not be stored (%s); kept as an error cell, "
                        "asked again by the next run", row["run_id"], row["variant_id"], row["model"], why)
            blank = {k: None for k in ("raw_text", "parsed", "method", "invalid", "refusal", "correct",
                                       "input_tokens", "output_tokens", "cost", "finish_reason", "details",
                                       "parse_version")}
            self._write_response(dict(row, **blank, error=f"the reply could not be stored ({why}): ask again"))
            return None

    def _lost_race(self, row: dict[str, Any], exc: sa.exc.IntegrityError) -> None:
        """Another process stored the same cell at the same moment (the unique cell key refused this insert): the
        row that got there first is kept when it is a finished answer (or both are errors); an error row there is
        replaced by this finished one. Any other integrity error (e.g. an unknown variant) is raised."""
        key = {f"k_{k}": row[k] for k in ("run_id", "variant_id", "model", "prompt", "sample")}
        with self.engine.connect() as c:
            existing = c.execute(_CELL_ROW, key).first()
        if existing is None:  # not the cell race
            raise exc
        if existing.error is not None and row.get("error") is None:
            self._write_response(row)  # replaces the error row, as a retry does

    def _write_response(self, row: dict[str, Any]) -> int | None:
        """The id of the row written; None when a finished answer already stands for the cell."""
        key = {f"k_{k}": row[k] for k in ("run_id", "variant_id", "model", "prompt", "sample")}
        with self.engine.begin() as c:
            existing = c.execute(_CELL_ROW, key).first()
            if existing is None:
                # parameters, not .values(): the compiled statement is reused
                return int(c.execute(responses.insert(), row).inserted_primary_key[0])
            if existing.error is not None:
                c.execute(responses.update().where(responses.c.id == existing.id).values(**row))
                return int(existing.id)
        return None

    def record_item_error(self, run_id: int, source: str, item_id: str, message: str) -> None:
        source, item_id, message = clip_key(source), clip_key(item_id), clean_text(message)
        with self.engine.begin() as c:
            c.execute(item_errors.delete().where((item_errors.c.run_id == run_id) & (item_errors.c.source == source)
                                                 & (item_errors.c.item_id == item_id)))
            c.execute(item_errors.insert().values(run_id=run_id, source=source, item_id=item_id, message=message,
                                                  created_at=now()))

    def clear_item_errors(self, run_id: int, source: str, item_ids: Iterable[str]) -> None:
        ids = [clip_key(i) for i in item_ids]
        source = clip_key(source)
        if not ids:
            return
        with self.engine.begin() as c:
            for start in range(0, len(ids), 500):  # SQLite allows a few thousand parameters per statement
                c.execute(item_errors.delete().where((item_errors.c.run_id == run_id)
                                                     & (item_errors.c.source == source)
                                                     & item_errors.c.item_id.in_(ids[start:start + 500])))

    # ---- ratings ----------------------------------------------------------------------------------------------
    def rate_response(self, response_id: int, rating: str, note: str = "", rater: str = "",
                      verified: bool | None = None) -> None:
        """Record ``rater``'s rating of one answer (kept with the response; that rater's later rating supersedes
        it, other raters' ratings stand beside it). ``rater`` "" is a rating nobody put a name to. ``verified``:
        True for the app's signed-in user, False for a name typed without a login (see the ``ratings`` table)."""
        self.add_ratings([{"response_id": response_id, "rating": rating, "note": note, "rater": rater,
                           "verified": verified}])

    def add_ratings(self, rows: Iterable[dict[str, Any]]) -> int:
        """Record several ratings (``response_id``, ``rating``, optional ``note`` and ``rater``) in ONE transaction:
        all of them, or none when a rating is not one of :data:`RATINGS`, a rater's name is too long or a response
        does not exist (the error names the first). Returns how many were recorded."""
        values = []
        for r in rows:
            rating = r.get("rating")
            if rating not in RATINGS:
                raise StoreError(f"rating must be one of {', '.join(RATINGS)}, not {rating!r}")
            verified = r.get("verified")
            values.append({"response_id": int(r["response_id"]), "rating": rating, "note": r.get("note") or "",
                           "rater": rater_name(r.get("rater")), "created_at": now(),
                           "verified": None if verified is None else bool(verified)})
        if not values:
            return 0
        ids = sorted({v["response_id"] for v in values})
        for i in (ids[0], ids[-1]):
            self._known_id(i)
        with self.engine.begin() as c:
            known: set[int] = set()
            for start in range(0, len(ids), 900):
                chunk = ids[start:start + 900]
                known |= {int(x) for x in c.execute(sa.select(responses.c.id).where(responses.c.id.in_(chunk)))
                          .scalars()}
            missing = [i for i in ids if i not in known]
            if missing:
                raise StoreError(f"no response #{missing[0]} in {self.where}"
                                 + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
            stored = 0
            for start in range(0, len(values), 500):
                chunk = values[start:start + 500]
                ids = [int(x) for x in c.execute(ratings.insert().returning(ratings.c.id), chunk).scalars()]
                stored += _kept(c, ids, chunk)
            if stored != len(values):  # rolled back: a trigger or rule of the database dropped or changed rows
                raise StoreError(f"the store at {self.where} did not keep {len(values) - stored} of the "
                                 f"{len(values)} ratings as they were written (a trigger or rule in the database "
                                 "deleted or changed them); nothing was stored")
        self.ratings_written += 1
        return len(values)

    def _known_id(self, response_id: Any) -> int:
        """``response_id`` as an int a query can hold, else StoreError: no answer has an id past :data:`MAX_ID`
        (10**30 overflowed the database driver)."""
        rid = int(response_id)
        if not 1 <= rid <= MAX_ID:
            raise StoreError(f"no response #{rid if len(str(rid)) <= 40 else str(rid)[:20] + '...'} in {self.where} "
                             f"(answer ids run from 1 to {MAX_ID:,})")
        return rid

    def ratings_frame(self, run_id: int | None = None, *, per_rater: bool = False) -> pd.DataFrame:
        """The ratings that count, of one run or all: by default the latest rating of each rated response,
        whoever gave it (response_id, rating, note); with ``per_rater`` the latest of each rater per
        response (response_id, rater, rating, note, created_at, verified), ordered by response and rater. A name
        typed without a login (``verified`` false) is another rater than the signed-in user of that name."""
        keys = [ratings.c.response_id] + ([ratings.c.rater, ratings.c.verified] if per_rater else [])
        latest = sa.select(sa.func.max(ratings.c.id)).group_by(*keys)
        cols = [ratings.c.response_id, ratings.c.rater, ratings.c.rating, ratings.c.note, ratings.c.created_at,
                ratings.c.verified] if per_rater else [ratings.c.response_id, ratings.c.rating, ratings.c.note]
        q = sa.select(*cols).where(ratings.c.id.in_(latest))
        if run_id is not None:
            q = q.join(responses, responses.c.id == ratings.c.response_id).where(responses.c.run_id == run_id)
        import pandas as pd

        with self.engine.connect() as c:
            return pd.read_sql(q.order_by(*keys), c)

    def latest_rating(self, response_id: int, rater: str | None = None, verified: bool | None = None
                      ) -> tuple[str | None, str]:
        """One answer's latest rating and note, by anyone (``rater`` None) or by one rater (None, "" when
        unrated); ``verified`` True / False: only that rater's ratings made signed in / typed without a login."""
        q = sa.select(ratings.c.rating, ratings.c.note).where(ratings.c.response_id == self._known_id(response_id))
        if rater is not None:
            q = q.where(ratings.c.rater == rater_name(rater))
        if verified is not None:
            q = q.where(ratings.c.verified.is_(bool(verified)))
        with self.engine.connect() as c:
            row = c.execute(q.order_by(ratings.c.id.desc()).limit(1)).first()
        return (str(row[0]), str(row[1] or "")) if row else (None, "")

    def get_response(self, response_id: int) -> dict[str, Any]:
        """One response joined with its variant (for drill-down), JSON columns decoded."""
        r, v = responses, variants
        q = (sa.select(r, v.c.item_id, v.c.question, v.c.options, v.c.answer, v.c.answer_label, v.c.condition,
                       v.c.image_ids, v.c.provenance, v.c.category, v.c.kind, v.c.source, v.c.attributes,
                       v.c.prompt_args)
             .join(v, v.c.id == r.c.variant_id).where(r.c.id == self._known_id(response_id)))
        with self.engine.connect() as c:
            row = c.execute(q).mappings().first()
        if row is None:
            raise StoreError(f"no response #{response_id} in {self.where}")
        return {k: _json(x) if k in ("messages", "settings", "details", "options", "image_ids", "provenance",
                                     "category", "attributes", "prompt_args") else x for k, x in dict(row).items()}

    def judge_calls(self, response_id: int) -> list[dict[str, Any]]:
        """Every judge call on one answer, oldest first: model, prompt, raw_text, parsed, method, error."""
        r = responses
        q = (sa.select(r.c.model, r.c.prompt, r.c.raw_text, r.c.parsed, r.c.method, r.c.error)
             .where(r.c.parent_id == int(response_id), r.c.role == "judge").order_by(r.c.id))
        with self.engine.connect() as c:
            return [dict(x) for x in c.execute(q).mappings()]

    def item_errors(self, run_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = sa.select(item_errors).where(item_errors.c.run_id == run_id).order_by(item_errors.c.source,
                                                                                      item_errors.c.item_id)
            return [dict(r) for r in c.execute(q).mappings()]

    def count(self, table: sa.Table, run_id: int | None = None) -> int:
        q = sa.select(sa.func.count()).select_from(table)
        if run_id is not None and "run_id" in table.c:
            q = q.where(table.c.run_id == run_id)
        with self.engine.connect() as c:
            return int(c.execute(q).scalar_one())

    def answers_frame(self, run_id: int, full: bool = False, detail: bool = False) -> pd.DataFrame:
        """One row per answer (not judge calls) joined with its variant, as stored; views read
        :func:`probe_ui.scoring.scored_answers`, which re-reads the replies, rather than this.

        ``full`` adds what re-parsing and the per-paper metrics need (raw text, options, categories, attributes,
        prompt arguments, provenance, image ids; JSON columns decoded), at some cost on very large runs;
        ``detail`` adds what was sent and received besides (messages, settings, details, finish reason).
        """
        r, v = responses, variants
        cols = [r.c.id.label("response_id"), r.c.model, r.c.prompt, r.c.sample, r.c.variant_id, r.c.parsed,
                r.c.method, r.c.invalid, r.c.refusal, r.c.correct, r.c.parse_version, r.c.error, r.c.latency_s,
                r.c.input_tokens, r.c.output_tokens, r.c.cost, v.c.item_id, v.c.source, v.c.condition, v.c.group_id,
                v.c.item_group, v.c.kind, v.c.answer_label, v.c.n_labels]
        decode = ["options", "category", "tags", "attributes", "prompt_args", "provenance", "image_ids"]
        if full or detail:
            cols += [r.c.raw_text, v.c.question, v.c.options, v.c.answer, v.c.category, v.c.tags, v.c.attributes,
                     v.c.prompt_args, v.c.provenance, v.c.image_ids]
        if detail:
            cols += [r.c.messages, r.c.settings, r.c.details, r.c.finish_reason, r.c.created_at]
            decode += ["messages", "settings", "details"]
        q = (sa.select(*cols).join(v, v.c.id == r.c.variant_id)
             .where(r.c.run_id == run_id, r.c.role == "answer").order_by(r.c.id))
        import pandas as pd

        with self.engine.connect() as c:
            df = pd.read_sql(q, c)
        for col in decode:
            if col in df.columns:
                df[col] = [_json(x) for x in df[col]]
        return df

    def judge_frame(self, run_id: int) -> pd.DataFrame:
        """The latest judge call for each judged answer of a run: parent_id (the answer), judge_model, judge_prompt,
        judge_text (its raw reply), judge_error, and the judge's reading (parsed, method, invalid, correct). The
        fallback judge's calls are not among them (:meth:`fallback_judge_frame`)."""
        return self._judge_calls(run_id, responses.c.prompt.not_like("judge-fallback:%"))

    def fallback_judge_frame(self, run_id: int, judge_model: str) -> pd.DataFrame:
        """The fallback judge's calls (``--judge``, :mod:`probe_ui.fallback`) of one judge model on a run's answers:
        the same columns as :meth:`judge_frame`, the latest call per answer."""
        return self._judge_calls(run_id, responses.c.model == judge_model, responses.c.prompt.like("judge-fallback:%"))

    def _judge_calls(self, run_id: int, *where: Any) -> pd.DataFrame:
        """The latest judge call per judged answer of a run, among those ``where`` keeps."""
        r = responses
        latest = (sa.select(sa.func.max(r.c.id)).where(r.c.run_id == run_id, r.c.role == "judge",
                                                        r.c.parent_id.is_not(None), *where)
                  .group_by(r.c.parent_id))
        q = sa.select(r.c.parent_id, r.c.model.label("judge_model"), r.c.prompt.label("judge_prompt"),
                      r.c.raw_text.label("judge_text"), r.c.error.label("judge_error"), r.c.parsed, r.c.method,
                      r.c.invalid, r.c.correct).where(r.c.id.in_(latest))
        import pandas as pd

        with self.engine.connect() as c:
            return pd.read_sql(q, c)

    def cache_parses(self, rows: list[dict[str, Any]]) -> None:
        """Store fresh robust readings (``id`` plus parsed, method, invalid, refusal, correct, parse_version) as
        the answers' parse cache; finished answers only, so a retried error cell is never touched. A read-only
        store keeps its cache as it is (the readings are only made again on the next read)."""
        if not rows or self.read_only:
            return
        stmt = (responses.update()
                .where(responses.c.id == sa.bindparam("_id"), responses.c.error.is_(None),
                       responses.c.role == "answer")
                .values({k: sa.bindparam(k) for k in ("parsed", "method", "invalid", "refusal", "correct",
                                                       "parse_version")}))
        with self.engine.begin() as c:
            for start in range(0, len(rows), 1000):
                c.execute(stmt, [dict(r, _id=r["id"]) for r in rows[start:start + 1000]])

    def close(self) -> None:
        self.engine.dispose()

    # ---- one batch per run ------------------------------------------------------------------------------------
    @contextmanager
    def run_lock(self, name: str, shard: tuple[int, int] | None = None, flag: str = "--run") -> Iterator[None]:
        """Hold the run ``name`` (its part ``shard``, 1-based ``(i, n)``, or the whole run) for a batch: another
        batch of the same run and part, or a whole batch beside a shard, raises :class:`RunInUseError` at once,
        in one line naming the holder (pid, host, since when) and ``flag`` to choose another run name. Shards of
        one run hold it together. SQLite: OS file locks beside the database, dropped when the process dies;
        PostgreSQL: session advisory locks on a connection held for the block (:mod:`probe_ui.run_lock`). An
        in-memory database is one process's own: nothing to lock."""
        from probe_ui import run_lock

        if self.read_only:
            raise StoreError(f"the store at {self.where} was opened read-only: a batch cannot run")
        if self.engine.dialect.name == "postgresql":
            with run_lock.postgres_run_lock(self.engine, name, shard, RunInUseError, flag):
                yield
            return
        path = _sqlite_file(self.url)
        if path is None:
            yield
            return
        with run_lock.sqlite_run_lock(path, name, shard, RunInUseError, flag):
            yield

    def _insert_ignore(self, table: sa.Table, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            from sqlalchemy.dialects.sqlite import insert
        elif dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:  # pragma: no cover - other databases are not supported yet
            raise StoreError(f"unsupported database '{dialect}': use SQLite or PostgreSQL")
        with self.engine.begin() as c:
            for start in range(0, len(rows), 500):
                c.execute(insert(table).on_conflict_do_nothing(), rows[start:start + 500])


def open_existing(location: str | os.PathLike[str], images_dir: str | os.PathLike[str] | None = None) -> Store:
    """The store for a command that only reads (score, export, report, ratings export): never creates or fills
    one. A location with no probe-ui store (no file, or a database without its tables) raises
    :class:`NoStoreError` with :data:`NO_STORE`, naming the location as it was typed; nothing is written there,
    not even a folder. An existing store opens with ``read_only="auto"`` (read-only where it cannot be written;
    where it can, an older store is upgraded and the parse cache refreshed, as every open does)."""
    loc = str(location)
    where = public_text(loc)
    file = _sqlite_file(loc)
    if file is not None and not file.is_file():
        if file.is_dir():
            raise StoreError(f"{loc} is a folder; give the database file path, e.g. {file / 'probe-ui.db'}")
        blocker = next((p for p in file.parents if p.exists() and not p.is_dir()), None)
        if blocker is not None:  # e.g. --db notes.txt/x.db
            raise NoStoreError(f"no store at {where}: {blocker} is a file, not a folder; pass --db or set "
                               "PROBE_UI_DB")
        raise NoStoreError(NO_STORE.format(where=where))
    try:
        Store(loc, images_dir, read_only=True).close()  # looks without writing: tables there, schema not newer
    except NoStoreError:
        raise NoStoreError(NO_STORE.format(where=where)) from None
    except StoreNeedsUpgrade:
        pass  # opened below, where it can be written, which upgrades it
    return Store(loc, images_dir, read_only="auto")


def _kept(c: sa.Connection, ids: list[int], rows: list[dict[str, Any]]) -> int:
    """How many of the rating ``rows`` just inserted (as ``ids``) read back as they were written."""
    if not ids:
        return 0
    q = sa.select(ratings.c.response_id, ratings.c.rating, ratings.c.note, ratings.c.rater).where(ratings.c.id.in_(ids))
    back = {tuple(r) for r in c.execute(q)}
    return sum((r["response_id"], r["rating"], r["note"], r["rater"]) in back for r in rows[:len(ids)])


def rater_name(name: Any) -> str:
    """A rater's name as stored: surrounding and repeated whitespace removed, "" for none; raises StoreError for a
    name longer than :data:`RATER_MAX` characters or one holding control characters."""
    text = " ".join(str(name or "").split())
    if len(text) > RATER_MAX:
        raise StoreError(f"rater name longer than {RATER_MAX} characters: {text[:40]!r}...")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise StoreError(f"rater name {text!r} holds control characters")
    return text


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


def _json(value: Any) -> Any:
    """JSON columns come back decoded from SQLAlchemy but as text through pandas; decode once here."""
    import json

    return json.loads(value) if isinstance(value, str) else value


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


def _variant_row(v: Variant) -> dict[str, Any]:
    return {
        "id": v.id, "item_id": v.item_id, "source": v.source, "condition": v.condition, "group_id": v.group,
        "item_group": v.item_group, "kind": v.kind, "question": v.question, "options": list(v.options),
        "answer": v.answer, "answer_label": v.answer_label, "n_labels": len(v.labels),
        "image_ids": list(v.image_ids), "category": list(v.category), "tags": list(v.tags),
        "attributes": v.attributes, "provenance": list(v.provenance), "prompt": v.prompt,
        "prompt_args": v.prompt_args or None, "example_ids": [e.id for e in v.examples] or None, "created_at": now(),
    }


def _merge_settings(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Lists (presets, models) accumulate; scalars take the newest value."""
    out = dict(old)
    for k, v in new.items():
        if isinstance(v, list) and isinstance(old.get(k), list):
            merged = list(old[k])
            for x in v:
                if x not in merged:
                    merged.append(x)
            out[k] = merged
        else:
            out[k] = v
    return out


#: the first words of statements that write (a read-only store refuses them; see Store._refuse_writes)
_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "ALTER", "DROP", "VACUUM", "REINDEX",
                     "TRUNCATE", "GRANT", "REVOKE", "COPY", "UPSERT", "MERGE"})


def _sqlite_file(location: str) -> Path | None:
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
