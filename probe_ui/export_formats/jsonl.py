"""JSONL: ``data.jsonl``, one JSON object per row, nested values as JSON, text raw."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from probe_ui.export_formats.base import DataFileError, ExportFormat, json_text, register_format
from probe_ui.files.safe_write import atomic_file


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The objects of a JSON-lines file (blank lines skipped); :class:`DataFileError` naming the line otherwise."""
    out = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as exc:
                raise DataFileError(f"{path}: line {n} is not JSON: {exc}") from None
            if not isinstance(rec, dict):
                raise DataFileError(f"{path}: line {n} is not a JSON object")
            out.append(rec)
    return out


@register_format
class JSONL(ExportFormat):
    name = "jsonl"
    data_file = "data.jsonl"
    order = 10
    nested_as_json = False

    def write(self, path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
        with atomic_file(path) as f:
            for row in rows:
                f.write(json_text({c: row.get(c) for c in columns}) + "\n")

    def read(self, path: Path) -> list[dict[str, Any]]:
        return read_jsonl(path)

    def layout(self, by: str) -> list[str]:
        return [f"- `{self.data_file}`: one JSON object per row; nested values are JSON. Text is raw, exactly as "
                "stored: a reply beginning with `=`, `+`, `-` or `@` is not altered (only the CSV export "
                "neutralises such cells for spreadsheets)."]
