"""Store schema versions: a stored version number and ordered, idempotent upgrade steps.

A store records its schema version in the one-row table ``schema_version``. Opening a store:

- a new store gets every table of :mod:`probe_ui.store` and the latest version;
- an older one (a store written before versions existed counts as version 0) is first copied aside (SQLite: a
  consistent copy of the database file next to it, ``<name>.schema<old>-backup-<time>.db``; PostgreSQL: every
  table copied into a schema ``probe_ui_backup_v<old>_<time>`` of the same database), then upgraded in place in
  one transaction, holding the write lock so that two processes opening it at once upgrade it once;
- a newer one (written by a later probe-ui) is refused with a message saying so: the code cannot know its tables.

Each step brings the schema from ``version - 1`` to ``version`` and is idempotent (it checks before it adds), so a
store that was half-way through an interrupted manual upgrade still upgrades. Add a schema change by editing the
table in :mod:`probe_ui.store` (new stores) and appending one :class:`Step` here (existing stores).
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, ContextManager

import sqlalchemy as sa

from probe_ui.errors import ProbeUIError

log = logging.getLogger("probe_ui.store")


class SchemaError(ProbeUIError, RuntimeError):
    """The store's schema cannot be used by this version of probe-ui (newer, or an upgrade failed)."""


@dataclass(frozen=True)
class Step:
    version: int
    summary: str
    apply: Callable[[sa.Connection], None]


def _columns(c: sa.Connection, table: str) -> set[str]:
    return {col["name"] for col in sa.inspect(c).get_columns(table)}


def add_column(c: sa.Connection, table: sa.Table, name: str) -> None:
    """``ALTER TABLE ... ADD COLUMN`` for the column of ``table`` named ``name``, unless it is there already."""
    if name in _columns(c, table.name):
        return
    ddl = sa.schema.CreateColumn(table.c[name]).compile(dialect=c.dialect)
    c.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {ddl}")


def _create_missing(c: sa.Connection, *tables: sa.Table) -> None:
    for t in tables:
        t.create(c, checkfirst=True)


def _v1(c: sa.Connection) -> None:
    """The schema of 0.1.0 (commit 04c68d0): columns and tables added during its development."""
    from probe_ui import store as st

    for name in ("prompt", "prompt_args", "example_ids"):
        add_column(c, st.variants, name)
    for name in ("finish_reason", "details", "role", "parent_id"):
        add_column(c, st.responses, name)
    _create_missing(c, st.item_errors, st.ratings, st.image_data)


def _v2(c: sa.Connection) -> None:
    """``responses.parse_version``: the stored parse becomes a cache of the robust reading, valid only for the
    parser version that wrote it. Existing rows get none, so the next read re-parses them, including answers
    whose parse a judge overwrote (the judge's reading now comes from its own row)."""
    from probe_ui import store as st

    add_column(c, st.responses, "parse_version")


def _v3(c: sa.Connection) -> None:
    """``ratings.rater``: several clinicians rate the same answer; the latest rating of each rater counts. Ratings
    made before have no rater ("")."""
    from probe_ui import store as st

    add_column(c, st.ratings, "rater")


#: columns that were VARCHAR(n) up to schema version 3 and are TEXT from version 4 (table, column)
_WIDENED = (("runs", "name"), ("variants", "item_id"), ("variants", "condition"), ("variants", "group_id"),
            ("variants", "item_group"), ("variants", "prompt"), ("responses", "model"), ("responses", "prompt"),
            ("item_errors", "source"), ("item_errors", "item_id"))


def _v4(c: sa.Connection) -> None:
    """Names, ids and conditions as unbounded text (issue 14, F12): PostgreSQL refused an item id or condition
    over 200 characters and a model name over 300 that SQLite took. SQLite ignores declared lengths: nothing to
    do there. The indexed names share one limit on both back ends (``probe_ui.store.KEY_MAX_BYTES``)."""
    if c.dialect.name != "postgresql":
        return
    for table, column in _WIDENED:
        c.exec_driver_sql(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE TEXT')


def _v5(c: sa.Connection) -> None:
    """Users (issue 23): ``runs.created_by`` (who made a run; runs made before have none) and ``ratings.verified``
    (whether the rater was a signed-in user; ratings made before have none: not from a login that was checked)."""
    from probe_ui import store as st

    add_column(c, st.runs, "created_by")
    add_column(c, st.ratings, "verified")


def _v6(c: sa.Connection) -> None:
    """Sure readings (issue 46): ``responses.sure``, whether the stored robust reading is one nobody would doubt.
    Answers stored before have none; the reader's new fingerprint makes their cached parse stale, so the next
    read fills it."""
    from probe_ui import store as st

    add_column(c, st.responses, "sure")


def _v7(c: sa.Connection) -> None:
    """Settled readings (issue 46): the ``settlements`` table, each clinician's reading of a reply the reader was
    not sure of."""
    from probe_ui import store as st

    _create_missing(c, st.settlements)


def _v8(c: sa.Connection) -> None:
    """The send ledger (issue 47): one hash-chained row per request that left for a host that is not trusted."""
    from probe_ui import store as st

    _create_missing(c, st.send_ledger)


def _v9(c: sa.Connection) -> None:
    """Variant ids without the preset's folder (issue 48): an id hashed the source's whole path, so the same preset
    in another folder (another machine, a clone) made other ids, another random baseline and another set id. Each
    stored variant whose id is its content's hash the old way gets today's id (the source by file name), carried to
    the runs and answers that name it; one whose id does not check (written by hand), or whose new id is already
    taken, keeps its id. Examples first, so that a few-shot variant hashes its examples' new ids."""
    from probe_ui import store as st
    from probe_ui.items import content_hash, source_name

    v = st.variants
    rows = [dict(r) for r in c.execute(sa.select(v)).mappings()]
    taken = {r["id"] for r in rows}
    moved: dict[str, str] = {}
    for r in sorted(rows, key=lambda r: bool(r["example_ids"])):  # variants without examples first
        old_examples = list(r["example_ids"] or [])
        if content_hash(_variant_content(r, r["source"], old_examples)) != r["id"]:
            continue
        new_id = content_hash(_variant_content(r, source_name(r["source"]),
                                               [moved.get(e, e) for e in old_examples]))
        if new_id == r["id"] or new_id in taken:
            continue
        c.execute(v.insert().values({**r, "id": new_id,
                                     "example_ids": [moved.get(e, e) for e in old_examples] or None}))
        for table in (st.run_variants, st.responses):
            c.execute(table.update().where(table.c.variant_id == r["id"]).values(variant_id=new_id))
        c.execute(v.delete().where(v.c.id == r["id"]))
        taken.add(new_id)
        moved[r["id"]] = new_id
    if moved:
        log.info("store: %d variant ids no longer hash the preset's folder", len(moved))


def _v10(c: sa.Connection) -> None:
    """Provider batches (issue 50): the ``provider_batches`` table, each batch sent through a provider's batch API
    with the cells it asks, recorded before its results come back so that a killed batch collects them."""
    from probe_ui import store as st

    _create_missing(c, st.provider_batches)


def _v11(c: sa.Connection) -> None:
    """Who asked each call (issue 50): a judge asked of someone else's run is charged to the person who asked it,
    not to the run's maker. Calls stored before have none (read as asked by the run's maker)."""
    from probe_ui import store as st

    add_column(c, st.responses, "asked_by")


def _variant_content(r: dict[str, Any], source: str, examples: list[str]) -> dict[str, Any]:
    """A stored variant's content as :meth:`probe_ui.items.Variant.content` builds it, with this ``source``."""
    out: dict[str, Any] = {
        "item_id": r["item_id"], "question": r["question"], "kind": r["kind"], "options": list(r["options"] or []),
        "answer": r["answer"], "image_ids": list(r["image_ids"] or []), "condition": r["condition"],
        "group": r["group_id"], "item_group": r["item_group"], "category": list(r["category"] or []),
        "tags": list(r["tags"] or []), "attributes": r["attributes"], "provenance": list(r["provenance"] or []),
        "source": source,
    }
    if r["prompt"] is not None:
        out["prompt"] = r["prompt"]
    if r["prompt_args"]:
        out["prompt_args"] = r["prompt_args"]
    if examples:
        out["examples"] = examples
    return out


STEPS: tuple[Step, ...] = (
    Step(1, "the tables and columns of probe-ui 0.1.0", _v1),
    Step(2, "a parser version with every stored parse (the parse becomes a cache of the robust reading)", _v2),
    Step(3, "a rater with every rating (ratings by several clinicians)", _v3),
    Step(4, "names, ids and conditions as unbounded text on PostgreSQL, as on SQLite", _v4),
    Step(5, "who made each run, and whether each rater was a signed-in user", _v5),
    Step(6, "whether each stored reading is sure", _v6),
    Step(7, "clinicians' settled readings of replies", _v7),
    Step(8, "the send ledger: every request that left for a host that is not trusted", _v8),
    Step(9, "variant ids that do not depend on the preset's folder", _v9),
    Step(10, "batches sent through a provider's batch API, with the cells they ask", _v10),
    Step(11, "who asked each call (a judge asked of another person's run is charged to who asked)", _v11),
)
LATEST = STEPS[-1].version


def stored_version(c: sa.Connection, where: str = "this database") -> int | None:
    """The store's schema version: 0 for a store written before versions; None for an empty database, or one
    whose tables are still being created (a new store: its tables are made, the ones already there kept). A
    stamp that is not a whole number (changed by hand: 'abc') raises a SchemaError naming the store ``where``."""
    names = set(sa.inspect(c).get_table_names())
    if "schema_version" not in names:
        # every 0.1.0 store has these three; without them the store is being created by another process (SQLite
        # commits each CREATE TABLE on its own) or its creation was interrupted: finish it as a new store
        return 0 if {"runs", "variants", "responses"} <= names else None
    from probe_ui.store import schema_version

    v = c.execute(sa.select(sa.func.max(schema_version.c.version))).scalar()
    if v is None:
        return None  # created, not stamped yet: a new store too
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        backups = " (probe-ui keeps one beside a SQLite store before each upgrade: *.schema<N>-backup-*.db)"
        raise SchemaError(f"the store at {where} has {str(v)[:40]!r} as its schema version, which is not a version "
                          f"number: its table schema_version was changed outside probe-ui; restore the store from a "
                          f"backup{backups if c.dialect.name == 'sqlite' else ''}, or set the version back if you "
                          f"know it (this probe-ui writes version {LATEST})")
    return v


def set_version(c: sa.Connection, version: int) -> None:
    from probe_ui.store import now, schema_version

    schema_version.create(c, checkfirst=True)
    c.execute(schema_version.delete())
    c.execute(schema_version.insert().values(id=1, version=version, updated_at=now()))


def too_new(version: int, where: str) -> SchemaError:
    return SchemaError(f"the store at {where} has schema version {version}, written by a newer probe-ui; this one "
                       f"reads versions up to {LATEST}: upgrade probe-ui to open it")


def upgrade(engine: sa.Engine, where: str, lock: Callable[[], ContextManager[sa.Connection]],
            sqlite_path: Path | None = None) -> tuple[int, int, str] | None:
    """Bring an existing store to :data:`LATEST` (module doc). Returns (old version, new version, backup) when it
    upgraded, None when nothing was to do. ``lock()`` is a transaction that holds the database's write lock
    (:meth:`probe_ui.store.Store.write_lock`), so one process upgrades while the others wait; ``where`` names the
    store in messages."""
    with engine.connect() as c:
        version = stored_version(c, where)
    if version is None or version == LATEST:
        return None
    if version > LATEST:
        raise too_new(version, where)
    try:
        with lock() as conn:
            version = stored_version(conn, where) or 0
            if version >= LATEST:  # another process upgraded it while we waited for the lock
                if version > LATEST:
                    raise too_new(version, where)
                return None
            backup = _backup(conn, version, sqlite_path)
            for step in STEPS:
                if step.version > version:
                    step.apply(conn)
            set_version(conn, LATEST)
    except sa.exc.SQLAlchemyError as exc:
        raise SchemaError(f"upgrading the store at {where} from schema version {version} failed, nothing was "
                          f"changed: {exc.__class__.__name__}: {str(exc).splitlines()[0]}") from None
    log.warning("upgraded the store at %s from schema version %s to %s (backup: %s)", where, version, LATEST, backup)
    return version, LATEST, backup


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _backup(c: sa.Connection, version: int, sqlite_path: Path | None) -> str:
    """A copy of the store as it is before the upgrade; returns where it is."""
    if c.dialect.name == "sqlite":
        if sqlite_path is None:  # an in-memory database: nothing to keep
            return "none (in-memory database)"
        dest = sqlite_path.with_name(f"{sqlite_path.stem}.schema{version}-backup-{_stamp()}{sqlite_path.suffix}")
        # SQLite's online backup through a second, reading connection (WAL lets it read while ``c`` holds the write
        # lock; a backup through ``c`` itself would wait for its own lock): a consistent copy, WAL content included
        src, out = sqlite3.connect(sqlite_path), sqlite3.connect(dest)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, however the store is journalled
        finally:
            out.close()
            src.close()
        return str(dest)
    schema = f"probe_ui_backup_v{version}_{_stamp().lower()}"
    c.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    for table in sa.inspect(c).get_table_names():
        c.exec_driver_sql(f'CREATE TABLE "{schema}"."{table}" AS TABLE "{table}"')
    return f"schema {schema} of the same database"
