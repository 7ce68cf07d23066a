"""People's judgements kept append-only (ratings, settled readings): each person's latest counts.

Why one module: a rating ("this answer is correct") and a settlement ("this reply means B") are stored the same
way: a row per judgement, never updated, written all or none after checking that every answer exists, read back
to check that the database kept them as written (a trigger cannot change them unseen), and read as each person's
latest (or anyone's latest) per answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import sqlalchemy as sa

from probe_ui.store.errors import StoreError
from probe_ui.store.schema import responses

if TYPE_CHECKING:
    import pandas as pd


def missing_responses(c: sa.Connection, ids: Sequence[int]) -> list[int]:
    """The ids among ``ids`` (sorted) that no stored answer has."""
    known: set[int] = set()
    for start in range(0, len(ids), 900):
        chunk = list(ids[start:start + 900])
        known |= {int(x) for x in c.execute(sa.select(responses.c.id).where(responses.c.id.in_(chunk))).scalars()}
    return [i for i in ids if i not in known]


def append_checked(c: sa.Connection, table: sa.Table, values: list[dict[str, Any]], compare: Sequence[str],
                   where: str, what: str) -> int:
    """Insert ``values`` into ``table`` on connection ``c`` (inside the caller's transaction) and read them back:
    a StoreError (so the transaction rolls back) when the database did not keep them as written, comparing the
    ``compare`` columns. ``what`` names the rows in the message ("ratings")."""
    stored = 0
    for start in range(0, len(values), 500):
        chunk = values[start:start + 500]
        ids = [int(x) for x in c.execute(table.insert().returning(table.c.id), chunk).scalars()]
        if ids:
            q = sa.select(*(table.c[k] for k in compare)).where(table.c.id.in_(ids))
            back = {tuple(r) for r in c.execute(q)}
            stored += sum(tuple(r[k] for k in compare) in back for r in chunk[:len(ids)])
    if stored != len(values):
        raise StoreError(f"the store at {where} did not keep {len(values) - stored} of the {len(values)} {what} "
                         "as they were written (a trigger or rule in the database deleted or changed them); nothing "
                         "was stored")
    return stored


def check_responses(c: sa.Connection, values: list[dict[str, Any]], where: str) -> None:
    """A StoreError naming the first ``response_id`` of ``values`` that no stored answer has."""
    ids = sorted({int(v["response_id"]) for v in values})
    missing = missing_responses(c, ids)
    if missing:
        raise StoreError(f"no response #{missing[0]} in {where}"
                         + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))


def latest_frame(engine: sa.Engine, table: sa.Table, person: str, cols: Sequence[str], run_id: int | None,
                 per_person: bool) -> pd.DataFrame:
    """Each answer's latest row of ``table`` (of one run, or all): by anyone, or with ``per_person`` the latest of
    each person (the ``person`` column and ``verified``: a name typed without a login is another person than the
    signed-in user of that name), ordered by answer (and person)."""
    keys = [table.c.response_id] + ([table.c[person], table.c.verified] if per_person else [])
    latest = sa.select(sa.func.max(table.c.id)).group_by(*keys)
    q = sa.select(*(table.c[k] for k in cols)).where(table.c.id.in_(latest))
    if run_id is not None:
        q = q.join(responses, responses.c.id == table.c.response_id).where(responses.c.run_id == run_id)
    import pandas as pd

    with engine.connect() as c:
        return pd.read_sql(q.order_by(*keys), c)
