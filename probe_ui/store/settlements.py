"""Settled readings (issue 46): a clinician's reading of a reply the reader was not sure of.

Why apart from ratings: a rating judges whether an answer is right; a settlement says what a reply answers ("B",
"yes", or no answer at all), so that figures can count it as a clinician reads it (``--parser settled``). Both are
kept the same way (:mod:`probe_ui.store.appended`): append-only, each clinician's latest counts, several
clinicians side by side, written all or none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import sqlalchemy as sa

from probe_ui.items import labels_for
from probe_ui.store.appended import append_checked, check_responses, latest_frame
from probe_ui.store.errors import StoreError
from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import NO_ANSWER, now, rater_name, responses, settlements, variants

if TYPE_CHECKING:
    import pandas as pd


class SettlementsMixin(StoreBase):
    """The settled readings of a store (see :class:`probe_ui.store.Store`)."""

    def settle_readings(self, rows: Iterable[dict[str, Any]]) -> int:
        """Record clinicians' readings (``response_id``, ``label``: one of the item's labels or
        :data:`~probe_ui.store.schema.NO_ANSWER`, ``settled_by``, optional ``verified``) in ONE transaction: all,
        or none when an answer does not exist, has no reply, or a label is not one of its item's labels (the error
        names the first). Returns how many were recorded."""
        values: list[dict[str, Any]] = []
        for r in rows:
            verified = r.get("verified")
            values.append({"response_id": self._known_id(r["response_id"]), "label": str(r.get("label") or ""),
                           "settled_by": rater_name(r.get("settled_by")), "created_at": now(),
                           "verified": None if verified is None else bool(verified)})
        if not values:
            return 0
        with self.engine.begin() as c:
            check_responses(c, values, self.where)
            ids: list[int] = sorted({v["response_id"] for v in values})
            allowed = self._labels_of(c, ids)
            for v in values:
                labels = allowed[v["response_id"]]
                if labels is None:
                    raise StoreError(f"answer #{v['response_id']} has no reply to read (its call failed)")
                if v["label"] != NO_ANSWER and v["label"] not in labels:
                    raise StoreError(f"answer #{v['response_id']}: {v['label']!r} is not one of its answers "
                                     f"({', '.join(labels) or 'free text: nothing to choose'})")
            append_checked(c, settlements, values, ("response_id", "label", "settled_by"), self.where,
                           "settled readings")
        return len(values)

    @staticmethod
    def _labels_of(c: sa.Connection, ids: list[int]) -> dict[int, tuple[str, ...] | None]:
        """Each answer's allowed labels (None: an answer without a reply)."""
        out: dict[int, tuple[str, ...] | None] = {}
        for start in range(0, len(ids), 900):
            chunk = ids[start:start + 900]
            q = sa.select(responses.c.id, responses.c.prompt, responses.c.error, responses.c.raw_text,
                          variants.c.kind, variants.c.options) \
                .join(variants, variants.c.id == responses.c.variant_id).where(responses.c.id.in_(chunk))
            for rid, prompt, error, text, kind, options in c.execute(q):
                if error is not None or text is None:
                    out[int(rid)] = None
                else:
                    out[int(rid)] = labels_for("free" if prompt == "free" else kind, tuple(options or ()))
        return out

    def settlements_frame(self, run_id: int | None = None, *, per_settler: bool = False) -> pd.DataFrame:
        """The settled readings that count, of one run or all: the latest of anyone per answer (response_id,
        label, settled_by, created_at), or with ``per_settler`` each clinician's latest (also ``verified``)."""
        cols = ["response_id", "label", "settled_by", "created_at"] + (["verified"] if per_settler else [])
        return latest_frame(self.engine, settlements, "settled_by", cols, run_id, per_settler)
