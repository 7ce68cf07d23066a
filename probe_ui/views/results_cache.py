"""A cache of scored-answer tables, so that a Results view of a large run is read and scored once, not per click.

Scoring a 10,000-answer run (reading the store, re-reading every reply, joining judges and ratings) takes seconds;
a person changing filters or coming back to the tab asks for the same table again and again. :class:`ScoredCache`
keeps the unfiltered table of :func:`probe_ui.scoring.scored_answers` per

- **who asks** (their owner key: one person's cached tables are never handed to another, whatever runs they may
  read now or later),
- **run set** (the run names, in order), **parser** and **fallback judge**,
- **store state** of those runs (:func:`store_stamp`): the number and largest id of their stored calls (answers and
  judge calls), of the ratings of their answers, and each run's settings and last update. A new answer, judge call
  or rating, or a run extended or re-planned, changes the stamp, so the next view scores afresh.

The stamp is one small query; the table itself is filtered per view (:func:`probe_ui.scoring.filter_answers`),
which is cheap. Entries are few (``size``, least recently used dropped first): a table of 10,000 answers is a few
megabytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Sequence

from probe_ui.kept import Kept

if TYPE_CHECKING:  # pragma: no cover - hints only
    import pandas as pd

    from probe_ui.store import Store

#: tables and views kept per process: a handful of people each looking at a run or two, a few filters each
DEFAULT_SIZE = 32


def store_stamp(store: Store, run_names: Sequence[str]) -> tuple[Any, ...]:
    """What the cached table of ``run_names`` depends on in the store, as one comparable value: per run its id,
    settings and last update, the count and largest id of its stored calls, of the ratings and of the settled
    readings of its answers.
    An unknown run raises the store's StoreError, which names it."""
    import json

    import sqlalchemy as sa

    from probe_ui.store import StoreError, ratings, responses, runs, settlements

    names = list(run_names)
    with store.engine.connect() as c:
        rows = {r.name: r for r in c.execute(sa.select(runs.c.id, runs.c.name, runs.c.settings, runs.c.updated_at)
                                               .where(runs.c.name.in_(names)))}
        missing = [n for n in names if n not in rows]
        if missing:
            store.get_run(missing[0])  # raises StoreError naming the run and the runs there are
            raise StoreError(f"no run named '{missing[0]}'")
        ids = [rows[n].id for n in names]
        calls = {r[0]: (int(r[1]), r[2]) for r in c.execute(
            sa.select(responses.c.run_id, sa.func.count(), sa.func.max(responses.c.id))
            .where(responses.c.run_id.in_(ids)).group_by(responses.c.run_id))}
        # the people's judgements of its answers (ratings, settled readings): each table counted the same way
        judged = [{r[0]: (int(r[1]), r[2]) for r in c.execute(
            sa.select(responses.c.run_id, sa.func.count(), sa.func.max(table.c.id))
            .join(responses, responses.c.id == table.c.response_id)
            .where(responses.c.run_id.in_(ids)).group_by(responses.c.run_id))} for table in (ratings, settlements)]
    return tuple((rows[n].id, json.dumps(rows[n].settings, sort_keys=True, default=str), str(rows[n].updated_at),
                  calls.get(rows[n].id, (0, None)), *(j.get(rows[n].id, (0, None)) for j in judged)) for n in names)


class ScoredCache:
    """Scored-answer tables, and views built from them, by (owner, runs, parser, judge, store stamp, what);
    thread-safe (module doc)."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._values: Kept[tuple[Any, ...], tuple[Any]] = Kept(size)

    @property
    def hits(self) -> int:
        """Views served from the cache."""
        return self._values.hits

    @property
    def misses(self) -> int:
        """Views that had to be built (a build that failed included)."""
        return self._values.misses

    def scored(self, store: Store, owner: str, runs: Sequence[str], parser: str = "robust", judge: str | None = None,
               score: Callable[[], pd.DataFrame] | None = None) -> pd.DataFrame:
        """The unfiltered scored-answer table of ``runs`` for ``owner``: from the cache while the store's stamp of
        those runs is unchanged, else scored (``score()``, by default :func:`probe_ui.scoring.scored_answers`)
        and kept. The table returned is shared: callers filter or copy it, never change it in place."""
        from probe_ui.scoring import scored_answers

        names = tuple(dict.fromkeys(str(r) for r in runs))
        return self.memo(store, owner, names, parser, judge, ("table",),
                         score or (lambda: scored_answers(store, list(names), parser, judge=judge)))

    def memo(self, store: Store, owner: str, runs: Sequence[str], parser: str, judge: str | None,
             what: tuple[Hashable, ...], build: Callable[[], Any]) -> Any:
        """``build()``'s value for ``what`` (a hashable description: the table, or a view with its filters) of
        ``owner``'s ``runs`` read by ``parser`` and ``judge``, kept while the store's stamp of those runs is
        unchanged. Values of the same runs at an older store state are dropped when a new one is kept."""
        names = tuple(dict.fromkeys(str(r) for r in runs))
        base = (str(owner), names, parser, judge or "")
        stamp = store_stamp(store, names)
        key = (*base, stamp, what)
        kept = self._values.get(key)  # (value,): a view's value may itself be None
        if kept is not None:
            return kept[0]
        value = build()
        self._values.drop(lambda k: k[:4] == base and k[4] != stamp)
        self._values.put(key, (value,))
        return value

    def forget(self, owner: str | None = None) -> None:
        """Drop every table (of one owner, when given)."""
        self._values.drop(lambda k: owner is None or k[0] == owner)

    def owners(self) -> set[str]:
        """Whose tables are kept (for tests and the benchmark)."""
        return {str(k[0]) for k in self._values.keys()}


def cached_answers(cache: ScoredCache, store: Store, owner: str, runs: Sequence[str], parser: str = "robust", *,
                   models: Iterable[str] | None = None, conditions: Iterable[str] | None = None,
                   categories: Iterable[str] | None = None, ratings: Iterable[str] | None = None,
                   judge: str | None = None) -> pd.DataFrame:
    """:func:`probe_ui.views.results.answers` through ``cache``: the same frame, filtered the same way, scored once per
    owner, run set, parser, judge and store state."""
    import pandas as pd

    from probe_ui.scoring import filter_answers
    from probe_ui.store import StoreError
    from probe_ui.views.results import EMPTY_COLUMNS

    names = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs or [])))
    if not names:
        return pd.DataFrame(columns=EMPTY_COLUMNS)
    if any(not str(n).strip() for n in names):
        raise StoreError("an empty run name was given: choose a run")
    full = cache.scored(store, owner, names, parser, judge)
    out = filter_answers(full, models=models, conditions=conditions, categories=categories, ratings=ratings)
    out.attrs = dict(full.attrs)
    return out
