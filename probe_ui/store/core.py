"""The store: every variant, request and response, in one SQLite file (WAL) by default, or any SQLAlchemy URL
(e.g. ``postgresql://...``). :class:`Store` is assembled from one part per job: opening
(:mod:`probe_ui.store.opening`), runs, images and variants, writing answers, ratings, settled readings, the send
ledger, provider batches, reading.
"""

from __future__ import annotations

import os

from probe_ui.security.redact import public_text
from probe_ui.store.answers import AnswersMixin
from probe_ui.store.errors import NO_STORE, NoStoreError, StoreError, StoreNeedsUpgrade
from probe_ui.store.images import ImagesMixin
from probe_ui.store.ledger import LedgerMixin
from probe_ui.store.opening import sqlite_file
from probe_ui.store.provider_batches import ProviderBatchesMixin
from probe_ui.store.ratings import RatingsMixin
from probe_ui.store.reading import ReadingMixin
from probe_ui.store.runs import RunsMixin
from probe_ui.store.settlements import SettlementsMixin


class Store(RunsMixin, ImagesMixin, AnswersMixin, RatingsMixin, SettlementsMixin, LedgerMixin, ProviderBatchesMixin,
            ReadingMixin):
    """Open (creating if needed) a store at a file path or SQLAlchemy URL; ``read_only``: see
    :class:`probe_ui.store.opening.StoreBase`."""


def open_existing(location: str | os.PathLike[str], images_dir: str | os.PathLike[str] | None = None) -> Store:
    """The store for a command that only reads (score, export, report, ratings export): never creates or fills
    one. A location with no probe-ui store (no file, or a database without its tables) raises
    :class:`NoStoreError` with :data:`NO_STORE`, naming the location as it was typed; nothing is written there,
    not even a folder. An existing store opens with ``read_only="auto"`` (read-only where it cannot be written;
    where it can, an older store is upgraded and the parse cache refreshed, as every open does)."""
    loc = str(location)
    where = public_text(loc)
    file = sqlite_file(loc)
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
