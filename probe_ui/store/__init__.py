"""The run store: every variant, request and response, in one SQLite file (WAL) by default, or PostgreSQL.

One module per job: :mod:`~probe_ui.store.schema` (tables, limits, storable rows), :mod:`~probe_ui.store.opening`
(engine, schema created, upgraded or checked, read-only opening, the write lock), :mod:`~probe_ui.store.runs`,
:mod:`~probe_ui.store.images` (images and variants), :mod:`~probe_ui.store.answers` (writing answers),
:mod:`~probe_ui.store.ratings`, :mod:`~probe_ui.store.reading` (frames and drill-down), assembled into
:class:`Store` by :mod:`~probe_ui.store.core`. The names below are the store's public face, the ones the rest
of probe-ui uses: import them from ``probe_ui.store``; the rest lives in its module.
"""

from probe_ui.store.core import Store, open_existing
from probe_ui.store.errors import NoStoreError, RunInUseError, StoreError, StoreNeedsUpgrade
from probe_ui.store.opening import DEFAULT_DB, database_url, read_only_sqlite_url
from probe_ui.store.runs import Run
from probe_ui.store.schema import (
    KEY_MAX_BYTES,
    MAX_ID,
    NO_ANSWER,
    RATINGS,
    CellKey,
    check_key,
    image_data,
    images,
    item_errors,
    md,
    now,
    provider_batches,
    rater_name,
    ratings,
    responses,
    run_variants,
    runs,
    schema_version,
    send_ledger,
    settlements,
    variants,
)

__all__ = ["DEFAULT_DB", "KEY_MAX_BYTES", "MAX_ID", "NO_ANSWER", "RATINGS", "CellKey", "NoStoreError", "Run",
           "RunInUseError", "Store", "StoreError", "StoreNeedsUpgrade", "check_key", "database_url", "image_data",
           "images", "item_errors", "md", "now", "open_existing", "provider_batches", "rater_name", "ratings",
           "read_only_sqlite_url", "responses", "run_variants", "runs", "schema_version", "send_ledger",
           "settlements", "variants"]
