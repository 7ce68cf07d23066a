"""CSV: ``data.csv``, safe to open in a spreadsheet (formula-like cells neutralised, restored on import)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

from probe_ui.export_formats.base import ExportFormat, flat, register_format
from probe_ui.files import spreadsheet
from probe_ui.files.safe_write import atomic_file

#: text columns whose empty cell is an empty text, not a missing value
TEXT_COLUMNS = ("question", "raw_text", "note", "prompt_text")


@register_format
class CSV(ExportFormat):
    name = "csv"
    data_file = "data.csv"
    order = 40
    lists_as_json = True

    def write(self, path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
        def cell(v: Any) -> Any:
            if v is None:
                return ""
            if isinstance(v, bool):
                return "true" if v else "false"
            return v

        with atomic_file(path, newline="") as f:
            w = spreadsheet.writer(f)  # cells a spreadsheet would run as formulas are neutralised
            w.writerow(columns)
            for row in rows:
                cells = flat(row, columns, lists=False)
                w.writerow([cell(cells[c]) for c in columns])

    def read(self, path: Path) -> list[dict[str, Any]]:
        csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
        with path.open(encoding="utf-8", newline="") as f:  # cells neutralised for spreadsheets, as written
            return [spreadsheet.restore_row(row) for row in csv.DictReader(f)]

    def restore(self, row: dict[str, Any]) -> dict[str, Any]:
        """CSV has no null: an empty cell is a missing value, except in free-text columns."""
        return {k: None if v == "" and k not in TEXT_COLUMNS else v for k, v in row.items()}

    def layout(self, by: str) -> list[str]:
        return [f"- `{self.data_file}`: a header row, then one row per record; lists and objects are JSON strings, "
                "booleans `true`/`false`, missing values empty. Safe to open in a spreadsheet: a text cell "
                "that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (which a spreadsheet would "
                "run as a formula), or with an apostrophe, is written with one more apostrophe in front "
                "(OWASP's advice against CSV injection); remove that one leading `'` to get the raw text "
                "(`probe-ui import dataset` does). The JSONL and Parquet exports keep the raw text."]
