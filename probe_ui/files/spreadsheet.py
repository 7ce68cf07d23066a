"""CSV that is safe to open in a spreadsheet: every CSV probe-ui writes goes through :func:`writer`.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and TAB or CR can hide such a
start), so a model's answer, a rater's note or a preset's question such as ``=HYPERLINK("http://...")`` would run
when a clinician opens the export. OWASP's advice (CSV injection) is followed: such a text cell is written with a
leading apostrophe, which spreadsheets read as "this is text". A text cell that already begins with an apostrophe
gets one more, so that :func:`restore` gives back exactly what was written (``probe-ui import dataset`` and
``probe-ui ratings import`` read CSV through it). Numbers are written as numbers (a negative number is not a
formula). JSONL and Parquet keep the raw text: they are read by programs, not spreadsheets.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

#: first characters that make a spreadsheet read a cell as a formula (OWASP: =, +, -, @, TAB, CR)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
MARK = "'"


def neutral(value: Any) -> Any:
    """A cell as written: text that a spreadsheet would run (or that begins with the mark) gets a leading ``'``."""
    if isinstance(value, str) and value and (value[0] in FORMULA_STARTS or value[0] == MARK):
        return MARK + value
    return value


def restore(value: Any) -> Any:
    """A cell as it was before :func:`neutral` (a hand-written ``'text`` is left as it is)."""
    if isinstance(value, str) and len(value) > 1 and value[0] == MARK and (value[1] in FORMULA_STARTS
                                                                           or value[1] == MARK):
        return value[1:]
    return value


class SpreadsheetWriter:
    """:func:`csv.writer` whose every cell passes through :func:`neutral`, and whose cells holding a line break of
    either kind are quoted (:mod:`csv` quotes only the characters of its ``lineterminator``: with ``"\n"`` a note
    holding a CR was written bare, and read back as two rows)."""

    def __init__(self, f: Any, **kwargs: Any) -> None:
        self._f = f
        self._end = kwargs.pop("lineterminator", "\r\n")
        self._buf = io.StringIO()
        self._w = csv.writer(self._buf, lineterminator="\r\n", **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        self._buf.seek(0)
        self._buf.truncate()
        self._w.writerow([neutral(c) for c in row])
        return self._f.write(self._buf.getvalue()[:-2] + self._end)

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(f: Any, **kwargs: Any) -> SpreadsheetWriter:
    """The CSV writer every probe-ui CSV is written with (``kwargs`` as for :func:`csv.writer`)."""
    return SpreadsheetWriter(f, **kwargs)


def restore_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row read by :class:`csv.DictReader` with every cell :func:`restore`\\ d (extra fields, under ``None``,
    are kept as they are)."""
    return {k: (restore(v) if k is not None else v) for k, v in row.items()}


__all__ = ["FORMULA_STARTS", "SpreadsheetWriter", "neutral", "restore", "restore_row", "writer"]
