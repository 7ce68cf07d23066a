"""The send ledger (issue 47): every request that left for a host that is not trusted, on a record that cannot be
edited quietly.

Why: a hospital lets a tool send images out only if it can show what was sent, by whom, to which service. Each row
names the time, user, run, cell, provider, host, model, the sha256 of every image sent and the send gate's verdict,
and carries the hash of the row before it: ``entry_hash = sha256(prev_hash + the row's fields)``. A row changed,
removed or inserted afterwards breaks the chain from that row on, and :meth:`LedgerMixin.verify_ledger` names the
first row that does not fit. Rows are appended holding the store's write lock, so two processes never fork the
chain. The ledger is never exported or put in a report.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import sqlalchemy as sa

from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import now, send_ledger

#: the hash the first row chains to
GENESIS = "0" * 64
#: the fields a row's hash covers, in this order (every column but the id and the hash itself)
HASHED = ("created_at", "user", "run", "cell", "provider", "host", "model", "images", "verdict", "prev_hash")
VERDICTS = ("sent", "redacted", "warned", "blocked", "unchecked")
#: the write lock key of the ledger (PostgreSQL advisory lock; SQLite's write lock is the database's)
LEDGER_LOCK = 727275


def entry_hash(row: dict[str, Any]) -> str:
    """The hash of one row: sha256 over its :data:`HASHED` fields as canonical JSON."""
    body = json.dumps([str(row.get(k) or "") for k in HASHED], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LedgerCheck:
    """What :meth:`LedgerMixin.verify_ledger` found: the rows checked, and the first that does not fit (None when
    the chain is intact) with why."""

    rows: int
    bad_id: int | None = None
    why: str = ""

    @property
    def intact(self) -> bool:
        return self.bad_id is None


class LedgerMixin(StoreBase):
    """The send ledger of a store (see :class:`probe_ui.store.Store`)."""

    def record_sends(self, entries: Iterable[dict[str, Any]]) -> list[str]:
        """Append one row per request that left (or was stopped) for an untrusted host (``user``, ``run``, ``cell``,
        ``provider``, ``host``, ``model``, ``images``: the sha256 of each image, ``verdict``: one of
        :data:`VERDICTS`), chained to the last row, all in one transaction under the write lock. Returns the new
        rows' hashes."""
        rows = [dict(e) for e in entries]
        for r in rows:
            if r.get("verdict") not in VERDICTS:
                raise ValueError(f"send ledger: verdict must be one of {', '.join(VERDICTS)}, not {r.get('verdict')!r}")
        if not rows:
            return []
        out: list[str] = []
        with self.write_lock(LEDGER_LOCK) as c:
            prev = c.execute(sa.select(send_ledger.c.entry_hash).order_by(send_ledger.c.id.desc()).limit(1)) \
                .scalar() or GENESIS
            for r in rows:
                images = r.get("images") or ()
                row = {"created_at": now(), "user": str(r.get("user") or ""), "run": str(r.get("run") or ""),
                       "cell": str(r.get("cell") or ""), "provider": str(r["provider"]), "host": str(r["host"]),
                       "model": str(r["model"]),
                       "images": images if isinstance(images, str) else ", ".join(str(i) for i in images),
                       "verdict": str(r["verdict"]), "prev_hash": prev}
                row["entry_hash"] = prev = entry_hash(row)
                c.execute(send_ledger.insert(), [row])
                out.append(prev)
        return out

    def ledger_rows(self, *, since: str | None = None, user: str | None = None) -> Iterator[dict[str, Any]]:
        """The ledger's rows in order (``since``: an ISO date or time, rows at or after it; ``user``: one user's)."""
        q = sa.select(send_ledger).order_by(send_ledger.c.id)
        if since:
            q = q.where(send_ledger.c.created_at >= since)
        if user is not None:
            q = q.where(send_ledger.c.user == user)
        with self.engine.connect() as c:
            for r in c.execute(q).mappings():
                yield dict(r)

    def verify_ledger(self) -> LedgerCheck:
        """Walk the chain from the first row: each row's ``prev_hash`` must be the row before's ``entry_hash``
        (:data:`GENESIS` for the first) and its ``entry_hash`` the hash of its fields. Returns the first row that
        does not fit, with why."""
        prev, n = GENESIS, 0
        for r in self.ledger_rows():
            n += 1
            if r["prev_hash"] != prev:
                return LedgerCheck(n, int(r["id"]), "it does not follow the row before it (a row was removed, "
                                                    "inserted or changed before it)")
            if entry_hash(r) != r["entry_hash"]:
                return LedgerCheck(n, int(r["id"]), "its fields do not match its hash (the row was changed)")
            prev = r["entry_hash"]
        return LedgerCheck(n)
