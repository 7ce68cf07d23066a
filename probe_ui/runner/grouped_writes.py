"""Answers written in groups: each answer that comes back joins the group being gathered, and one write (one
transaction, :meth:`probe_ui.store.Store.save_responses`) stores the group. A batch does not wait for its rows:
they gather for a moment (:data:`BATCH_LINGER_S`) while its slots ask their next cells (a live probe, which shows
each answer's id, stores each row on its own, as before), and its progress counts each answer once its group is
written. :meth:`GroupedWrites.save`, for a caller that needs its row's id, waits for nothing to fill a group: the
first answer is written at once, and the answers that arrive while a write is under way form the next group. At 64
calls in flight that is a commit for a dozen answers instead of one each (issue 50)."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Sequence

#: the most answers one write stores (a transaction's size stays small on any back end)
MOST = 256
#: how long a batch's answers gather before they are written: what a killed process can lose is at most this
#: moment's answers (an interrupted one loses none: :meth:`GroupedWrites.drain`)
BATCH_LINGER_S = 0.1


class GroupedWrites:
    """Stores answers through ``write_many`` (rows → the id written for each, or None), grouped as they arrive.

    ``off_loop``: each write runs on a thread (a loop shared by many probes must not wait for a commit). Each
    caller of :meth:`save` gets its own row's outcome, or the write's exception; :meth:`put` hands a row over
    without waiting, and ``linger_s`` lets such rows gather a moment before they are written. :meth:`drain` writes
    whatever is still gathered, so an interrupted batch keeps every answer that came back.
    """

    def __init__(self, write_many: Callable[[Sequence[dict[str, Any]]], list[int | None]], *,
                 off_loop: bool = False, most: int = MOST, linger_s: float = 0.0) -> None:
        self._write_many, self._off_loop, self._most, self._linger_s = write_many, off_loop, most, linger_s
        self._gathered: list[tuple[dict[str, Any], asyncio.Future[int | None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def save(self, row: dict[str, Any]) -> int | None:
        """Store ``row`` with the group it arrives in; the id written (None: another row stands for the cell)."""
        return await asyncio.shield(self._join(row))  # a caller cancelled meanwhile: its answer is still kept

    def put(self, row: dict[str, Any], on_failure: Callable[[BaseException], None],
            on_written: Callable[[], None] | None = None) -> None:
        """Store ``row`` with its group without waiting for it (a batch's slot goes on to its next cell); a write
        that fails is handed to ``on_failure``, and ``on_written`` hears that the row is stored (a batch counts its
        answer then, so its progress never counts an answer that a kill in the moment before the write would lose).
        :meth:`drain` waits for every row put."""
        def done_with(done: asyncio.Future[int | None]) -> None:
            if done.cancelled():
                return
            exc = done.exception()
            if exc is not None:
                on_failure(exc)
            elif on_written is not None:
                on_written()

        self._join(row).add_done_callback(done_with)

    def _join(self, row: dict[str, Any]) -> asyncio.Future[int | None]:
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._gathered.append((row, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())
        return done

    async def drain(self) -> None:
        """Write what is gathered (and wait for a write under way)."""
        while self._gathered or (self._writer is not None and not self._writer.done()):
            if self._writer is None or self._writer.done():
                self._writer = asyncio.ensure_future(self._write())
            await asyncio.shield(self._writer)

    async def _write(self) -> None:
        # the answers that come back meanwhile join the group: those of the same turn of the loop, or, where
        # nobody waits on the write (``linger_s``), those of the next moments
        await asyncio.sleep(self._linger_s)
        while self._gathered:
            group, self._gathered = self._gathered[:self._most], self._gathered[self._most:]
            rows = [row for row, _ in group]
            try:
                ids = await asyncio.to_thread(self._write_many, rows) if self._off_loop else self._write_many(rows)
            except Exception as exc:  # noqa: BLE001 - each caller gets it, as a lone write would raise it
                for _, done in group:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for (_, done), new in zip(group, ids, strict=True):
                if not done.done():
                    done.set_result(new)
