"""Provider batches (issue 50): the batches a run sent through a provider's batch API, each with the cells it asks.

A batch is recorded before it is created at the provider (``submitting``), given the provider's id as soon as it
exists (``pending``), and closed once its results are stored (``collected``) or it ended without them (``failed``,
``expired``, ``cancelled``). A run started again finds its ``pending`` batches here and collects them instead of
asking their cells again (:mod:`probe_ui.runner.provider_batch`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import CellKey, decode_json, now, provider_batches

#: the statuses of a batch whose cells must not be asked again: it may still answer them
OPEN = ("submitting", "pending")
STATUSES = (*OPEN, "collected", "failed", "expired", "cancelled")


@dataclass(frozen=True)
class ProviderBatch:
    """One recorded batch (module doc). ``cells``: custom_id -> (variant id, prompt, sample, request hash)."""

    id: int
    run_id: int
    model: str
    api: str
    batch_id: str | None
    status: str
    cells: dict[str, tuple[str, str, int, str]]
    shard: str
    estimate: float | None
    details: dict[str, Any]
    created_at: str
    updated_at: str

    def keys(self) -> dict[CellKey, str]:
        """The cells' keys (variant id, model, prompt, sample), each with its custom_id."""
        return {(v, self.model, p, int(s)): cid for cid, (v, p, s, _h) in self.cells.items()}


class ProviderBatchesMixin(StoreBase):
    """The provider batches of a store (see :class:`probe_ui.store.Store`)."""

    def add_provider_batch(self, run_id: int, model: str, api: str, cells: dict[str, tuple[str, str, int, str]],
                           shard: str = "", estimate: float | None = None,
                           details: dict[str, Any] | None = None) -> int:
        """Record a batch about to be submitted (``submitting``); returns its row id."""
        with self.engine.begin() as c:
            result = c.execute(provider_batches.insert().values(
                run_id=run_id, model=model, api=api, batch_id=None, status="submitting",
                cells={k: list(v) for k, v in cells.items()}, shard=shard, estimate=estimate,
                details=dict(details or {}), created_at=now(), updated_at=now()))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def update_provider_batch(self, row_id: int, *, batch_id: str | None = None, status: str | None = None,
                              details: dict[str, Any] | None = None) -> None:
        """Set a batch's provider id, status or details (merged into what it had)."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown provider batch status {status!r}")
        with self.engine.begin() as c:
            old = c.execute(sa.select(provider_batches.c.details).where(provider_batches.c.id == row_id)).scalar_one()
            values: dict[str, Any] = {"updated_at": now()}
            if batch_id is not None:
                values["batch_id"] = batch_id
            if status is not None:
                values["status"] = status
            if details is not None:
                values["details"] = dict(decode_json(old) or {}, **details)
            c.execute(provider_batches.update().where(provider_batches.c.id == row_id).values(values))

    def provider_batches(self, run_id: int, statuses: tuple[str, ...] | None = OPEN) -> list[ProviderBatch]:
        """A run's batches (those with one of ``statuses``; None: all), oldest first."""
        q = sa.select(provider_batches).where(provider_batches.c.run_id == run_id).order_by(provider_batches.c.id)
        if statuses is not None:
            q = q.where(provider_batches.c.status.in_(statuses))
        with self.engine.connect() as c:
            rows = [dict(r) for r in c.execute(q).mappings()]
        return [ProviderBatch(
            id=r["id"], run_id=r["run_id"], model=r["model"], api=r["api"], batch_id=r["batch_id"],
            status=r["status"], cells={k: (str(v[0]), str(v[1]), int(v[2]), str(v[3]))
                                       for k, v in (decode_json(r["cells"]) or {}).items()},
            shard=r["shard"] or "", estimate=r["estimate"], details=decode_json(r["details"]) or {},
            created_at=r["created_at"], updated_at=r["updated_at"]) for r in rows]
