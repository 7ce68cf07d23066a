"""Writing answers: a response per cell (run, variant, model, prompt, sample), an error cell replaced when it
is retried and succeeds, a finished one never overwritten; the deterministic-request cache; items that could not
be loaded; the robust parser's cached readings."""

from __future__ import annotations

import logging
from typing import Any, Iterable, Sequence

import sqlalchemy as sa

from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import CellKey, clean_text, clip_key, item_errors, now, responses, runs, storable

log = logging.getLogger("probe_ui.store")

# Statements built once (a batch runs them for every answer): bound parameters, so each compiles once.
_CACHED = (sa.select(*(responses.c[k] for k in ("id", "raw_text", "input_tokens", "output_tokens", "cost",
                                                 "finish_reason")))
           .where(responses.c.request_hash == sa.bindparam("h"), responses.c.error.is_(None),
                  responses.c.role == sa.bindparam("role")).order_by(responses.c.id).limit(1))
_CELL = ("run_id", "variant_id", "model", "prompt", "sample")
_CELL_ROW = sa.select(responses.c.id, responses.c.error).where(
    *(responses.c[k] == sa.bindparam(f"k_{k}") for k in _CELL))
# the rows standing for a group's cells, found in one query (the group's runs and variants, then matched whole)
_GROUP_ROWS = sa.select(responses.c.id, responses.c.error, *(responses.c[k] for k in _CELL)).where(
    responses.c.run_id.in_(sa.bindparam("runs", expanding=True)),
    responses.c.variant_id.in_(sa.bindparam("variants", expanding=True)))


def _cell(row: Any) -> tuple[Any, ...]:
    return tuple(row[k] for k in _CELL)


class AnswersMixin(StoreBase):
    """The answers a store is written (see :class:`probe_ui.store.Store`)."""

    def done_cells(self, run_id: int, role: str = "answer") -> set[CellKey]:
        """Cells with a finished (non-error) response: a re-run skips these."""
        q = sa.select(responses.c.variant_id, responses.c.model, responses.c.prompt, responses.c.sample).where(
            responses.c.run_id == run_id, responses.c.error.is_(None), responses.c.role == role)
        with self.engine.connect() as c:
            return {(r[0], r[1], r[2], int(r[3])) for r in c.execute(q)}

    def run_cost(self, run_id: int) -> float:
        """What a run's stored calls cost (answers and judges, USD; a call without a known cost counts 0): the
        spend a batch's cap (``--max-cost``, :mod:`probe_ui.runner.spend`) starts from."""
        q = sa.select(sa.func.coalesce(sa.func.sum(responses.c.cost), 0.0)).where(responses.c.run_id == run_id)
        with self.engine.connect() as c:
            return float(c.execute(q).scalar() or 0.0)

    def user_cost(self, user: str) -> float:
        """What the stored calls ``user`` asked cost (answers and judges, in any run, USD; a call without a known
        cost, a cached answer, counts 0): what a user's spending limit in the app counts
        (:mod:`probe_ui.runner.allowance`). A call records who asked it (``asked_by``); one that does not (stored
        before schema 11, or imported) counts as asked by its run's maker."""
        who = sa.func.coalesce(responses.c.asked_by, runs.c.created_by)
        q = (sa.select(sa.func.coalesce(sa.func.sum(responses.c.cost), 0.0))
             .select_from(responses.join(runs, runs.c.id == responses.c.run_id)).where(who == user))
        with self.engine.connect() as c:
            return float(c.execute(q).scalar() or 0.0)

    def cached_response(self, request_hash: str, role: str = "answer") -> dict[str, Any] | None:
        """A finished response to exactly this request (any run), for the deterministic-request cache: its id, raw
        text, token counts, cost and finish reason. ``role="judge"``: a judge's call (the fallback judge reuses
        its verdict on the same reply, question and judge model)."""
        with self.engine.connect() as c:
            row = c.execute(_CACHED, {"h": request_hash, "role": role}).mappings().first()
        return dict(row) if row else None

    def unjudged_answers(self, run_id: int) -> dict[CellKey, tuple[str, bool | None]]:
        """A run's finished answers that no judge's row stands for (their text and whether the reader left them
        unread), by cell: what a batch with a judge asks its judge about again, so that a judge lost to a kill
        or Ctrl+C between an answer and its judge (a provider batch's answers are judged once it is collected) is
        asked by the next run. An answer whose judge was asked and failed has its judge's row: not asked again."""
        judge = responses.alias("judge")
        judged = sa.exists().where(judge.c.parent_id == responses.c.id, judge.c.role == "judge")
        q = sa.select(responses.c.variant_id, responses.c.model, responses.c.prompt, responses.c.sample,
                      responses.c.raw_text, responses.c.invalid).where(
            responses.c.run_id == run_id, responses.c.role == "answer", responses.c.error.is_(None), ~judged)
        with self.engine.connect() as c:
            return {(r[0], r[1], r[2], int(r[3])): (r[4] or "", r[5]) for r in c.execute(q)}

    def answered_hashes(self, most: int, role: str = "answer") -> set[str] | None:
        """The request hashes of the store's finished answers (``role``), or None where there are more than
        ``most``: a batch reads them once and asks the request cache only about requests it has seen answered (a
        fresh batch then asks the database nothing per call)."""
        q = (sa.select(responses.c.request_hash).where(responses.c.error.is_(None), responses.c.role == role)
             .distinct().limit(most + 1))
        with self.engine.connect() as c:
            found = set(c.execute(q).scalars())
        return None if len(found) > most else found

    def response_id(self, run_id: int, variant_id: str, model: str, prompt: str, sample: int) -> int | None:
        q = sa.select(responses.c.id).where(responses.c.run_id == run_id, responses.c.variant_id == variant_id,
                                            responses.c.model == model, responses.c.prompt == prompt,
                                            responses.c.sample == sample)
        with self.engine.connect() as c:
            return c.execute(q).scalar()

    def save_response(self, row: dict[str, Any]) -> int | None:
        """Insert a response; replace an earlier error row for the same cell; never overwrite a finished one.
        Returns the id of the row written, None when another row stands for the cell (or an error replaced it).

        The row is made storable first (:func:`storable`). Should the database still refuse it, the cell is stored
        as an error that says so (the request kept, the reply dropped), so that one reply never stops a batch and
        the cell is asked again by the next run; only a store that cannot be written at all raises.
        """
        row = storable(responses, dict(row, created_at=now()))
        try:
            return self._write_response(row)
        except sa.exc.IntegrityError as exc:
            self._lost_race(row, exc)
            return None
        except sa.exc.StatementError as exc:
            if isinstance(exc, sa.exc.OperationalError):
                raise  # the database itself (locked, gone, full): not this reply's fault
            why = type(getattr(exc, "orig", None) or exc).__name__
            log.warning("run #%s, variant %s, model %s: the reply could not be stored (%s); kept as an error cell, "
                        "asked again by the next run", row["run_id"], row["variant_id"], row["model"], why)
            blank = {k: None for k in ("raw_text", "parsed", "method", "invalid", "refusal", "sure", "correct",
                                       "input_tokens", "output_tokens", "cost", "finish_reason", "details",
                                       "parse_version")}
            self._write_response(dict(row, **blank, error=f"the reply could not be stored ({why}): ask again"))
            return None

    def save_responses(self, rows: Sequence[dict[str, Any]]) -> list[int | None]:
        """Several responses in one transaction, each kept exactly as :meth:`save_response` keeps it (the id written,
        or None). A batch hands over the answers that came back while the last group was being written, so a
        commit and a few statements serve many answers instead of one each (issue 50: "write answers in
        batches"). A group the database will not take whole (a reply it refuses, a cell another process stored
        meanwhile, the same cell twice) is written row by row instead, with the same outcome for each row. A row that
        cannot be stored at all (an unknown variant) raises, after every other row of the group is stored."""
        made = [storable(responses, dict(r, created_at=now())) for r in rows] if len(rows) > 1 else []
        if made and len({_cell(r) for r in made}) == len(made):
            try:
                return self._write_group(made)
            except sa.exc.OperationalError:
                raise  # the database itself (locked, gone, full)
            except (sa.exc.IntegrityError, sa.exc.StatementError):
                pass  # nothing of the group was written: row by row below
        out: list[int | None] = []
        failed: Exception | None = None
        for row in rows:  # each row stored that can be; the first failure is raised once all were tried
            try:
                out.append(self.save_response(row))
            except Exception as exc:  # noqa: BLE001 - raised below, after the rows that can be stored are
                failed = failed or exc
                out.append(None)
        if failed is not None:
            raise failed
        return out

    def _write_group(self, rows: list[dict[str, Any]]) -> list[int | None]:
        """:meth:`_write_response` for distinct cells at once: one query finds the rows standing for them, new
        cells are inserted together (their ids in order), an error row standing for a cell is replaced."""
        out: list[int | None] = [None] * len(rows)
        with self.engine.begin() as c:
            found = {_cell(r): r for r in c.execute(_GROUP_ROWS, {
                "runs": sorted({r["run_id"] for r in rows}),
                "variants": sorted({r["variant_id"] for r in rows})}).mappings()}
            fresh: dict[frozenset[str], list[int]] = {}  # new rows by their columns: one INSERT for each shape
            for i, row in enumerate(rows):
                standing = found.get(_cell(row))
                if standing is None:
                    fresh.setdefault(frozenset(row), []).append(i)
                elif standing["error"] is not None:
                    c.execute(responses.update().where(responses.c.id == standing["id"]).values(**row))
                    out[i] = int(standing["id"])
            for at in fresh.values():
                ids = c.execute(responses.insert().returning(responses.c.id, sort_by_parameter_order=True),
                                [rows[i] for i in at]).scalars().all()
                for i, new in zip(at, ids, strict=True):
                    out[i] = int(new)
        return out

    def _lost_race(self, row: dict[str, Any], exc: sa.exc.IntegrityError) -> None:
        """Another process stored the same cell at the same moment (the unique cell key refused this insert): the
        row that got there first is kept when it is a finished answer (or both are errors); an error row there is
        replaced by this finished one. Any other integrity error (e.g. an unknown variant) is raised."""
        key = {f"k_{k}": row[k] for k in _CELL}
        with self.engine.connect() as c:
            existing = c.execute(_CELL_ROW, key).first()
        if existing is None:  # not the cell race
            raise exc
        if existing.error is not None and row.get("error") is None:
            self._write_response(row)  # replaces the error row, as a retry does

    def _write_response(self, row: dict[str, Any]) -> int | None:
        """The id of the row written; None when a finished answer already stands for the cell."""
        key = {f"k_{k}": row[k] for k in _CELL}
        with self.engine.begin() as c:
            existing = c.execute(_CELL_ROW, key).first()
            if existing is None:
                # parameters, not .values(): the compiled statement is reused
                key_row = c.execute(responses.insert(), row).inserted_primary_key
                assert key_row is not None  # a single-row INSERT always reports its key
                return int(key_row[0])
            if existing.error is not None:
                c.execute(responses.update().where(responses.c.id == existing.id).values(**row))
                return int(existing.id)
        return None

    def record_item_error(self, run_id: int, source: str, item_id: str, message: str) -> None:
        source, item_id, message = clip_key(source), clip_key(item_id), clean_text(message)
        with self.engine.begin() as c:
            c.execute(item_errors.delete().where((item_errors.c.run_id == run_id) & (item_errors.c.source == source)
                                                 & (item_errors.c.item_id == item_id)))
            c.execute(item_errors.insert().values(run_id=run_id, source=source, item_id=item_id, message=message,
                                                  created_at=now()))

    def clear_item_errors(self, run_id: int, source: str, item_ids: Iterable[str]) -> None:
        ids = [clip_key(i) for i in item_ids]
        source = clip_key(source)
        if not ids:
            return
        with self.engine.begin() as c:
            for start in range(0, len(ids), 500):  # SQLite allows a few thousand parameters per statement
                c.execute(item_errors.delete().where((item_errors.c.run_id == run_id)
                                                     & (item_errors.c.source == source)
                                                     & item_errors.c.item_id.in_(ids[start:start + 500])))

    def cache_parses(self, rows: list[dict[str, Any]]) -> None:
        """Store fresh robust readings (``id`` plus parsed, method, invalid, refusal, sure, correct, parse_version) as
        the answers' parse cache; finished answers only, so a retried error cell is never touched. A read-only
        store keeps its cache as it is (the readings are only made again on the next read)."""
        if not rows or self.read_only:
            return
        stmt = (responses.update()
                .where(responses.c.id == sa.bindparam("_id"), responses.c.error.is_(None),
                       responses.c.role == "answer")
                .values({k: sa.bindparam(k) for k in ("parsed", "method", "invalid", "refusal", "sure", "correct",
                                                       "parse_version")}))
        with self.engine.begin() as c:
            for start in range(0, len(rows), 1000):
                c.execute(stmt, [dict(r, _id=r["id"]) for r in rows[start:start + 1000]])
