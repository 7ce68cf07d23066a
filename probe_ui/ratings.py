"""Ratings by several clinicians in and out of the store as CSV: ``probe-ui ratings import`` / ``ratings export``.

The CSV has a header row with the columns ``response_id`` (the answer's id: the export's, the app's, ``probe-ui
export``'s ``response_id``), ``rater`` (who rated it), ``rating`` (correct, incorrect or unsure; case is ignored)
and ``note`` (optional). Other columns are ignored, so an export (which adds run, model, item_id, condition and
created_at for people reading it) imports back as it is. A file is imported whole or not at all: every row is
checked first (a whole number for ``response_id``, an answer that exists, a known rating, a rater), every
problem is reported with its line number, and only a file without problems is written, in one transaction.

The file is read strictly (issue 24: an unclosed quote swallowed the rest of the file, a second ``rating`` column
was taken silently, ``/dev/zero`` was read until memory ran out): it must be a regular file of at most
:data:`MAX_RATINGS_BYTES`; a quoted field never closed, a column named twice and a row with more or fewer fields
than the header are refused, naming the line. Cells are trimmed and their spreadsheet neutralisation
(:mod:`probe_ui.files.spreadsheet`, which ``ratings export`` applies) removed, so an export imports back exactly.

What counts is each rater's latest rating of an answer (:meth:`probe_ui.store.Store.ratings_frame`): a row that
repeats a rater's latest rating and note is read but not stored again (importing a file twice adds nothing), and a
rater's later rating supersedes their earlier one. The summary says how many rows were read, stored and skipped,
and why.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probe_ui.errors import ProbeUIError
from probe_ui.files import spreadsheet
from probe_ui.store import MAX_ID, RATINGS, Store, StoreError, rater_name

COLUMNS = ("response_id", "rater", "rating", "note")
EXPORT_COLUMNS = (*COLUMNS, "run", "model", "item_id", "condition", "created_at")
MAX_ERRORS = 50  # problems listed before the rest are counted


class RatingsFileError(ProbeUIError, ValueError):
    """A ratings CSV that cannot be imported; ``problems`` holds one line per problem (file, line, field)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


#: the largest ratings file read (bytes); PROBE_UI_MAX_RATINGS_BYTES sets another
MAX_RATINGS_BYTES = 64 * 1024 * 1024
MAX_RATINGS_BYTES_ENV = "PROBE_UI_MAX_RATINGS_BYTES"
#: why a row of the file was read but not stored
SKIP_BLANK = "blank line"
SKIP_SAME = "already that rater's latest rating of the answer, with the same note"


@dataclass
class ImportSummary:
    path: str
    ratings: int
    raters: list[str] = field(default_factory=list)
    answers: int = 0
    read: int = 0  # data rows read from the file (the header not counted)
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> rows read but not stored

    def lines(self) -> list[str]:
        who = ", ".join(r or "(unnamed)" for r in self.raters)
        n_skipped = sum(self.skipped.values())
        why = "; ".join(f"{n} {reason}" for reason, n in self.skipped.items())
        return [f"read {self.read} rows of {self.path}: imported {self.ratings} ratings of {self.answers} answers by "
                f"{len(self.raters)} rater(s) ({who}); skipped {n_skipped}" + (f" ({why})" if why else "")]


def _max_bytes() -> int:
    text = os.environ.get(MAX_RATINGS_BYTES_ENV, "").strip()
    try:
        return int(text) if text else MAX_RATINGS_BYTES
    except ValueError:
        raise RatingsFileError([f"{MAX_RATINGS_BYTES_ENV}={text!r}: give a number of bytes"]) from None


def _read_text(path: Path) -> str:
    """The file's text: a regular file (a FIFO, device or folder is refused without being read, or waited on), at
    most :data:`MAX_RATINGS_BYTES`, UTF-8 (a byte-order mark is dropped)."""
    limit = _max_bytes()
    try:  # O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then says what was opened
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise RatingsFileError([f"{path}: no such file"]) from None
    except IsADirectoryError:
        raise RatingsFileError([f"{path}: is a folder, not a CSV file"]) from None
    except OSError as exc:
        raise RatingsFileError([f"{path}: cannot be read: {exc.strerror or exc}"]) from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) \
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file"
            raise RatingsFileError([f"{path}: is {kind}, not a CSV file; give the ratings file itself"])
        if st.st_size > limit:
            raise RatingsFileError([f"{path}: {st.st_size:,} bytes, over the {limit:,}-byte limit for a ratings "
                                    f"file (set {MAX_RATINGS_BYTES_ENV} to raise it, or split the file)"])
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise RatingsFileError([f"{path}: cannot be read: {exc.strerror or exc}"]) from None
    if len(data) > limit:  # it grew while being read
        raise RatingsFileError([f"{path}: over the {limit:,}-byte limit for a ratings file (set "
                                f"{MAX_RATINGS_BYTES_ENV} to raise it, or split the file)"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RatingsFileError([f"{path}: line {line}: not UTF-8 text (save the CSV as UTF-8)"]) from None


def _reader(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]], int]:
    """The header, (line number, row) of every data row and how many blank rows were passed over; raises
    RatingsFileError for a file that is not strictly valid CSV, naming the line: a quoted field never closed, a
    stray quote, a column named twice, a row with more or fewer fields than the header has columns. Cells are
    trimmed and their spreadsheet neutralisation removed (:mod:`probe_ui.files.spreadsheet`)."""
    text = _read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    records: list[tuple[int, list[str]]] = []
    start = 1  # the line the next record begins on (a quoted note may span lines)
    try:
        for rec in reader:
            records.append((start, rec))
            start = reader.line_num + 1
    except csv.Error as exc:
        why = str(exc)
        if "unexpected end of data" in why:
            why = "a quoted field that begins on this line is never closed (a missing \")"
        raise RatingsFileError([f"{path}: line {start}: not valid CSV: {why}; nothing was imported"]) from None
    if not records:
        return [], [], 0
    header = [h.strip() for h in records[0][1]]
    seen: set[str] = set()
    for name in header:
        if name and name in seen:
            raise RatingsFileError([f"{path}: line {records[0][0]}: column {name!r} appears twice in the header; "
                                    "keep one"])
        seen.add(name)
    rows, problems, blank = [], [], 0
    for line, rec in records[1:]:
        if not any(c.strip() for c in rec):
            blank += 1
            continue
        if len(rec) != len(header):
            problems.append(f"{path}: line {line}: {len(rec)} fields, but the header has {len(header)} columns")
            continue
        rows.append((line, {k: spreadsheet.restore(v.strip()) for k, v in zip(header, rec) if k}))
    if problems:
        raise RatingsFileError(_capped(problems))
    return header, rows, blank


def read_ratings(path: str | os.PathLike[str], default_rater: str | None = None) -> list[dict[str, Any]]:
    """The ratings of a CSV file (module doc) as rows for :meth:`Store.add_ratings`, each with its ``line``;
    ``default_rater`` names the rater of rows whose ``rater`` is empty (or of a file without that column).
    Raises RatingsFileError listing every problem that can be seen without the store (whether the answers exist
    is checked by :func:`import_ratings`)."""
    rows, problems, _ = _parse(Path(path), default_rater)
    if problems:
        raise RatingsFileError(_capped([p for _, p in problems]))
    return rows


def _parse(path: Path, default_rater: str | None) -> tuple[list[dict[str, Any]], list[tuple[int, str]], int]:
    """The good rows, (line, problem) of the bad ones, and the number of blank rows; a file that cannot be read at
    all raises."""
    header, rows, blank = _reader(path)
    if not header:
        raise RatingsFileError([f"{path}: empty file: expected a header row {','.join(COLUMNS)}"])
    needed = ["response_id", "rating"] + ([] if default_rater else ["rater"])
    missing = [c for c in needed if c not in header]
    if missing:
        hint = " (or give --rater NAME)" if missing == ["rater"] else ""
        raise RatingsFileError([f"{path}: line 1: missing column(s) {', '.join(map(repr, missing))}{hint}; "
                                f"expected {','.join(COLUMNS)}"])
    try:
        fallback = rater_name(default_rater) if default_rater else ""
    except StoreError as exc:
        raise RatingsFileError([f"--rater: {exc}"]) from None
    out: list[dict[str, Any]] = []
    problems: list[tuple[int, str]] = []
    for line, row in rows:
        where = f"{path}: line {line}"
        rid_text = row.get("response_id") or ""
        digits = rid_text.isascii() and rid_text.isdigit()
        if digits and (len(rid_text) > 12 or int(rid_text) > MAX_ID):
            shown = rid_text if len(rid_text) <= 40 else f"{rid_text[:12]}...({len(rid_text)} digits)"
            problems.append((line, f"{where}: field 'response_id': {shown} is larger than any answer id (at most "
                                   f"{MAX_ID:,})"))
            continue
        rid = int(rid_text) if digits else 0
        if rid < 1:
            problems.append((line, f"{where}: field 'response_id': {rid_text[:40]!r} is not an answer id (a whole "
                                   "number from 1)"))
            continue
        rating = (row.get("rating") or "").strip().lower()
        if rating not in RATINGS:
            problems.append((line, f"{where}: field 'rating': {row.get('rating')!r} is not one of "
                                   f"{', '.join(RATINGS)}"))
            continue
        try:
            rater = rater_name(row.get("rater")) or fallback
        except StoreError as exc:
            problems.append((line, f"{where}: field 'rater': {exc}"))
            continue
        if not rater:
            problems.append((line, f"{where}: field 'rater': empty (name the rater, or give --rater NAME for "
                                   "rows without one)"))
            continue
        out.append({"line": line, "response_id": rid, "rating": rating, "note": row.get("note") or "",
                    "rater": rater})
    return out, problems, blank


def _capped(problems: list[str]) -> list[str]:
    if len(problems) <= MAX_ERRORS:
        return problems
    return problems[:MAX_ERRORS] + [f"... and {len(problems) - MAX_ERRORS} more problems"]


def _known_ids(store: Store, ids: list[int]) -> set[int]:
    import sqlalchemy as sa

    from probe_ui.store import responses

    known: set[int] = set()
    with store.engine.connect() as c:
        for start in range(0, len(ids), 900):
            q = sa.select(responses.c.id).where(responses.c.id.in_(ids[start:start + 900]),
                                                responses.c.role == "answer")
            known |= {int(x) for x in c.execute(q).scalars()}
    return known


def import_ratings(store: Store, path: str | os.PathLike[str], default_rater: str | None = None) -> ImportSummary:
    """Import a ratings CSV (module doc) into ``store``: all of it in one transaction, or nothing when any row has
    a problem (RatingsFileError lists every one by line: a malformed id, an id with no answer in the store, a
    rating that is not correct / incorrect / unsure, a missing rater)."""
    rows, problems, blank = _parse(Path(path), default_rater)
    known = _known_ids(store, sorted({r["response_id"] for r in rows}))
    problems += [(r["line"], f"{path}: line {r['line']}: field 'response_id': no answer #{r['response_id']} in "
                             "this store") for r in rows if r["response_id"] not in known]
    if problems:
        raise RatingsFileError(_capped([p for _, p in sorted(problems, key=lambda x: x[0])]))
    latest = _latest(store, rows)
    new, same = [], 0
    for r in rows:  # a row that repeats what already counts is not stored again (importing twice adds nothing)
        key = (r["response_id"], r["rater"])
        if latest.get(key) == (r["rating"], r["note"]):
            same += 1
            continue
        new.append(r)
        latest[key] = (r["rating"], r["note"])
    n = store.add_ratings(new)
    skipped = {k: v for k, v in ((SKIP_BLANK if blank == 1 else SKIP_BLANK + "s", blank), (SKIP_SAME, same)) if v}
    return ImportSummary(str(path), n, sorted({r["rater"] for r in new}), len({r["response_id"] for r in new}),
                         read=len(rows) + blank, skipped=skipped)


def _latest(store: Store, rows: list[dict[str, Any]]) -> dict[tuple[int, str], tuple[str, str]]:
    """Each (answer, rater) of ``rows``: that rater's latest rating and note already in the store."""
    if not rows:
        return {}
    frame = store.ratings_frame(per_rater=True)
    wanted = {(r["response_id"], r["rater"]) for r in rows}
    return {(int(r["response_id"]), r["rater"]): (r["rating"], r["note"] or "")
            for r in frame.to_dict("records") if (int(r["response_id"]), r["rater"]) in wanted}


def export_rows(store: Store, run: str | None = None) -> list[dict[str, Any]]:
    """Each rater's latest rating of each answer (of one run, or of every run when ``run`` is None), with the run,
    model, item and condition it rated: the rows of :data:`EXPORT_COLUMNS`, by response and rater."""
    import sqlalchemy as sa

    from probe_ui.store import responses, runs, variants

    run_id = store.get_run(run).id if run else None
    rated = store.ratings_frame(run_id, per_rater=True)
    if rated.empty:
        return []
    ids = sorted({int(i) for i in rated["response_id"]})
    context: dict[int, dict[str, Any]] = {}
    q = (sa.select(responses.c.id, runs.c.name, responses.c.model, variants.c.item_id, variants.c.condition)
         .join(runs, runs.c.id == responses.c.run_id).join(variants, variants.c.id == responses.c.variant_id))
    with store.engine.connect() as c:
        for start in range(0, len(ids), 900):
            for r in c.execute(q.where(responses.c.id.in_(ids[start:start + 900]))):
                context[int(r[0])] = {"run": r[1], "model": r[2], "item_id": r[3], "condition": r[4]}
    return [{"response_id": int(r["response_id"]), "rater": r["rater"], "rating": r["rating"], "note": r["note"],
             **context.get(int(r["response_id"]), {}), "created_at": r["created_at"]}
            for r in rated.to_dict("records")]


def export_csv(store: Store, run: str | None = None) -> str:
    """:func:`export_rows` as CSV text, which :func:`import_ratings` reads back."""
    return rows_csv(export_rows(store, run))


def rows_csv(rows: list[dict[str, Any]]) -> str:
    """Rating rows as CSV text: a header row of :data:`EXPORT_COLUMNS`, then one row each."""
    buf = io.StringIO()
    w = spreadsheet.writer(buf, lineterminator="\n")  # a note such as "=1+1" is text in a spreadsheet
    w.writerow(EXPORT_COLUMNS)
    for row in rows:
        w.writerow(["" if row.get(k) is None else row.get(k) for k in EXPORT_COLUMNS])
    return buf.getvalue()
