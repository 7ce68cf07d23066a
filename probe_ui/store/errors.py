"""The store's errors: every one a :class:`~probe_ui.errors.ProbeUIError`, each a one-line message for the user."""

from __future__ import annotations

from probe_ui.errors import ProbeUIError


class StoreError(ProbeUIError, RuntimeError):
    """The store cannot be opened or a run does not exist."""


class NoStoreError(StoreError):
    """A read-only open found no probe-ui store where it was pointed (no file, or a file without its tables)."""


class StoreNeedsUpgrade(StoreError):
    """A read-only open found a store older than this probe-ui: reading it needs an upgrade, which writes."""


class RunInUseError(StoreError):
    """Another probe-ui batch holds this run (or this shard of it): see :meth:`probe_ui.store.Store.run_lock`."""


#: what a command that only reads says when its store is not there (the path as the user typed it)
NO_STORE = "no store at {where}: stores are per folder; pass --db or set PROBE_UI_DB"
