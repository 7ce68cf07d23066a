"""Ratings by several clinicians in and out of the store as CSV: ``probe-ui ratings import`` / ``ratings export``.

The CSV has a header row with the columns ``response_id`` (the answer's id: the export's, the app's, ``probe-ui
export``'s ``response_id``), ``rater`` (who rated it), ``rating`` (correct, incorrect or unsure; case is ignored)
and ``note`` (optional). Other columns are ignored, so an export (which adds run, model, item_id, condition and
created_at for people reading it) imports back as it is. A file is imported whole or not at all: every row is
checked first (a whole number for ``response_id``, an answer that exists, a known rating, a rater), every
problem is reported with its line number, and only a file without problems is written, in one transaction.

What counts is each rater's latest rating of an answer (:meth:`probe_ui.store.Store.ratings_frame`): importing a
file twice changes nothing that counts, and a rater's later rating supersedes their earlier one.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probe_ui.errors import ProbeUIError
from probe_ui.store import RATINGS, Store, StoreError, rater_name

COLUMNS = ("response_id", "rater", "rating", "note")
EXPORT_COLUMNS = (*COLUMNS, "run", "model", "item_id", "condition", "created_at")
MAX_ERRORS = 50  # problems listed before the rest are counted


class RatingsFileError(ProbeUIError, ValueError):
    """A ratings CSV that cannot be imported; ``problems`` holds one line per problem (file, line, field)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class ImportSummary:
    path: str
    ratings: int
    raters: list[str] = field(default_factory=list)
    answers: int = 0

    def lines(self) -> list[str]:
        who = ", ".join(r or "(unnamed)" for r in self.raters)
        return [f"imported {self.ratings} ratings of {self.answers} answers by {len(self.raters)} rater(s) "
                f"({who}) from {self.path}"]


def _reader(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """The header and (line number, row) of every data row; raises RatingsFileError for an unreadable file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RatingsFileError([f"{path}: no such file"]) from None
    except UnicodeDecodeError:
        raise RatingsFileError([f"{path}: not a UTF-8 text file (save the CSV as UTF-8)"]) from None
    except OSError as exc:
        raise RatingsFileError([f"{path}: cannot be read: {exc.strerror or exc}"]) from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = [h.strip() for h in reader.fieldnames or []]
        reader.fieldnames = header
        rows = []
        for row in reader:
            if not any((v or "").strip() for k, v in row.items() if k is not None):
                continue  # a blank line
            rows.append((reader.line_num, row))
    except csv.Error as exc:
        raise RatingsFileError([f"{path}: line {reader.line_num}: not valid CSV: {exc}"]) from None
    return header, rows


def read_ratings(path: str | os.PathLike[str], default_rater: str | None = None) -> list[dict[str, Any]]:
    """The ratings of a CSV file (module doc) as rows for :meth:`Store.add_ratings`, each with its ``line``;
    ``default_rater`` names the rater of rows whose ``rater`` is empty (or of a file without that column).
    Raises RatingsFileError listing every problem that can be seen without the store (whether the answers exist
    is checked by :func:`import_ratings`)."""
    rows, problems = _parse(Path(path), default_rater)
    if problems:
        raise RatingsFileError(_capped([p for _, p in problems]))
    return rows


def _parse(path: Path, default_rater: str | None) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """The good rows and (line, problem) of the bad ones; a file that cannot be read at all raises."""
    header, rows = _reader(path)
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
        if None in row:
            problems.append((line, f"{where}: more fields than the header has columns"))
            continue
        rid_text = (row.get("response_id") or "").strip()
        try:
            rid = int(rid_text)
            if rid < 1:
                raise ValueError
        except ValueError:
            problems.append((line, f"{where}: field 'response_id': {rid_text!r} is not an answer id (a whole "
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
        out.append({"line": line, "response_id": rid, "rating": rating, "note": (row.get("note") or "").strip(),
                    "rater": rater})
    return out, problems


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
    rows, problems = _parse(Path(path), default_rater)
    known = _known_ids(store, sorted({r["response_id"] for r in rows}))
    problems += [(r["line"], f"{path}: line {r['line']}: field 'response_id': no answer #{r['response_id']} in "
                             "this store") for r in rows if r["response_id"] not in known]
    if problems:
        raise RatingsFileError(_capped([p for _, p in sorted(problems, key=lambda x: x[0])]))
    n = store.add_ratings(rows)
    return ImportSummary(str(path), n, sorted({r["rater"] for r in rows}), len({r["response_id"] for r in rows}))


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
    w = csv.DictWriter(buf, fieldnames=list(EXPORT_COLUMNS), lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for row in rows:
        w.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in EXPORT_COLUMNS})
    return buf.getvalue()
