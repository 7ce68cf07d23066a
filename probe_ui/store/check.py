"""What a store holds besides probe-ui's own tables, looked at every time a store is opened (SQLite and PostgreSQL).

A store is a file (or a database) that others can hand over or change. Issue 24 planted a trigger that rewrote
every stored answer to "HACKED" (``score`` then reported what the trigger wrote), another that deleted ratings as
they were imported, a view in place of a table, and a trigger that aborted every insert. So, on open:

- a view (or anything else) where probe-ui keeps a table is refused: nothing can be stored or read through it;
- a trigger (PostgreSQL: or a rewrite rule) that probe-ui did not create is refused, naming it, because it can
  change or drop answers and ratings as they are written or read. ``--trust-store`` (``PROBE_UI_TRUST_STORE=1``,
  or ``Store(trust=True)``) opens the store anyway, with a warning naming every one, and the warning goes with
  every score read from it;
- tables and views probe-ui did not create are named in a warning: they cannot change what probe-ui stores.

probe-ui creates no trigger, rule or view; its tables are those of :data:`probe_ui.store.md`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

import sqlalchemy as sa

from probe_ui.errors import ProbeUIError

log = logging.getLogger("probe_ui.store")

TRUST_ENV = "PROBE_UI_TRUST_STORE"
_trust_default: bool | None = None


class ForeignObjectsError(ProbeUIError, RuntimeError):
    """The store holds triggers, rules or views probe-ui did not create, which could change what it stores."""


_warned: set[str] = set()


def warn_once(message: str) -> None:
    """Log a store's warning once per process (a command may open its store twice: once to look, once to use)."""
    if message not in _warned:
        _warned.add(message)
        log.warning(message)


def set_trust(flag: bool | None) -> None:
    """The process's default for stores opened without ``trust`` (the CLI's ``--trust-store``, set as each command
    starts; None: the environment's, :data:`TRUST_ENV`); the command's warnings are shown again."""
    global _trust_default
    _trust_default = flag
    _warned.clear()


def trusted(explicit: bool | None = None) -> bool:
    """Whether to open a store holding triggers probe-ui did not create: ``explicit``, else the process default,
    else ``PROBE_UI_TRUST_STORE``."""
    if explicit is not None:
        return explicit
    if _trust_default is not None:
        return _trust_default
    return os.environ.get(TRUST_ENV, "").strip().lower() in ("1", "true", "yes")


@dataclass
class Findings:
    """What a store holds that probe-ui did not create."""

    in_place: list[str] = field(default_factory=list)  # probe-ui table names held by a view (or other object)
    triggers: list[str] = field(default_factory=list)  # "'name' on table" (PostgreSQL: rules too)
    tables: list[str] = field(default_factory=list)
    views: list[str] = field(default_factory=list)

    @property
    def harmless(self) -> bool:
        return not self.in_place and not self.triggers


def _own_tables() -> set[str]:
    from probe_ui.store import md

    return set(md.tables)


def _triggers(c: sa.Connection) -> list[str]:
    if c.dialect.name == "sqlite":
        rows = c.exec_driver_sql("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        return [f"trigger '{name}' on {table}" for name, table in rows]
    if c.dialect.name == "postgresql":
        rows = c.exec_driver_sql(
            "SELECT t.tgname, cl.relname FROM pg_trigger t JOIN pg_class cl ON cl.oid = t.tgrelid "
            "JOIN pg_namespace n ON n.oid = cl.relnamespace "
            "WHERE NOT t.tgisinternal AND n.nspname = current_schema() ORDER BY t.tgname")
        found = [f"trigger '{name}' on {table}" for name, table in rows]
        rules = c.exec_driver_sql("SELECT rulename, tablename FROM pg_rules WHERE schemaname = current_schema() "
                                  "ORDER BY rulename")
        return found + [f"rule '{name}' on {table}" for name, table in rules]
    return []  # pragma: no cover - other databases are refused elsewhere


def inspect(c: sa.Connection) -> Findings:
    """What the database behind ``c`` holds besides probe-ui's tables."""
    insp = sa.inspect(c)
    own = _own_tables()
    tables = {t for t in insp.get_table_names() if not t.startswith("sqlite_")}
    views = set(insp.get_view_names())
    found = Findings(triggers=_triggers(c), tables=sorted(tables - own), views=sorted(views - own))
    found.in_place = sorted(own & views)
    if c.dialect.name == "postgresql":  # a materialized view, a sequence or a foreign table of that name
        others = {name for (name,) in c.exec_driver_sql(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind NOT IN ('r', 'p', 'i', 'I', 'S', 'v', 'c', 't')")}
        found.in_place = sorted(set(found.in_place) | (own & others))
    return found


def check(c: sa.Connection, where: str, trust: bool) -> tuple[list[str], list[str]]:
    """Refuse (:class:`ForeignObjectsError`, one line) a store whose tables are held by views, or that holds
    triggers or rules probe-ui did not create unless ``trust``; return the warnings to show (none for a store that
    holds only probe-ui's tables) and the triggers and rules it was opened with (``--trust-store``)."""
    found = inspect(c)
    if found.in_place:
        names = ", ".join(f"'{n}'" for n in found.in_place)
        raise ForeignObjectsError(f"the store at {where} has a view (or another object that is not a table) where "
                                  f"probe-ui keeps its table(s) {names}: nothing can be stored or read through it; "
                                  "put the table back (e.g. from a backup) or give another --db")
    warnings = []
    if found.triggers:
        listed = ", ".join(found.triggers)
        if not trust:
            raise ForeignObjectsError(f"the store at {where} has {listed}, which probe-ui did not create: a trigger "
                                      "can change or drop answers and ratings as they are written, so the store is "
                                      "not opened; remove it (DROP TRIGGER ...), or add --trust-store to open it "
                                      "anyway")
        warnings.append(f"the store at {where} has {listed}, which probe-ui did not create; opened anyway "
                        "(--trust-store): answers, ratings and scores read from it may have been changed by it")
    extra = [f"table '{t}'" for t in found.tables] + [f"view '{v}'" for v in found.views]
    if extra:
        warnings.append(f"the store at {where} also holds {', '.join(extra)}, which probe-ui did not create "
                        "(left as they are)")
    return warnings, found.triggers


__all__ = ["Findings", "ForeignObjectsError", "TRUST_ENV", "check", "inspect", "set_trust", "trusted", "warn_once"]
