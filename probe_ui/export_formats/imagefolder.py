"""Imagefolder: ``metadata.jsonl`` beside ``images/``, what ``datasets.load_dataset("imagefolder")`` reads.

The one image column is ``images`` in every format: here ``images_file_names``, which datasets' folder-based
builder loads as the list-of-images column ``images`` (a ``<name>_file_names`` column becomes ``<name>``). Not
``file_names``: datasets 4 reads an empty ``file_names`` (a question without an image) as missing and fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from probe_ui.export_formats.base import DataFileError, ExportFormat, flat, json_text, register_format
from probe_ui.export_formats.jsonl import read_jsonl
from probe_ui.files.safe_write import atomic_file


@register_format
class ImageFolder(ExportFormat):
    name = "imagefolder"
    #: the list of image files, loaded by datasets as ``images`` (module doc)
    images_column = "images_file_names"
    data_file = "metadata.jsonl"
    order = 30
    needs_images = True
    detect_order = 0  # its metadata.jsonl may sit beside another layout's file (export-set --to hf)

    def write(self, path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
        rest = [c for c in columns if c != "images"]
        with atomic_file(path) as f:
            for row in rows:
                rec = {self.images_column: list(row.get("images") or []), **flat(row, rest, lists=True)}
                f.write(json_text(rec) + "\n")

    def read(self, path: Path) -> list[dict[str, Any]]:
        return read_jsonl(path)

    def restore(self, row: dict[str, Any]) -> dict[str, Any]:
        """``file_name`` / ``file_names`` back into ``images``; ``images_file_names`` is ``export-set --to hf``'s
        name for the list (datasets reads an empty ``file_names`` as missing)."""
        r = dict(row)
        names = r.pop("file_names", None) or r.pop("images_file_names", None)
        first = r.pop("file_name", None)
        if isinstance(names, str):
            try:
                names = json.loads(names)
            except ValueError:
                raise DataFileError("column 'file_names' is not JSON") from None
        r["images"] = list(names) if names else ([first] if first else [])
        return r

    def data_files(self, images_dir: str) -> list[str]:
        return [self.data_file, f"{images_dir}/*.png"]

    def card_columns(self, columns: list[str]) -> list[tuple[str, str | None]]:
        return [(self.images_column, f"| `{self.images_column}` (`images`) | list[string] (images) | the "
                                     "variant's images, images/<sha256>.png, in the order sent; loaded as the "
                                     "`images` column |")] + [(c, None) for c in columns if c != "images"]

    def layout(self, by: str) -> list[str]:
        return [f"- `{self.data_file}`: one JSON object per row; `{self.images_column}` lists the variant's images, "
                "in the order they were sent, as paths relative to this folder (empty for a question asked without "
                "an image). `datasets.load_dataset(\"imagefolder\", data_dir=...)` loads it as `images`, a list of "
                "images: the same column name as in the JSONL, CSV and Parquet exports, and a question about "
                "several images keeps all of them.",
                "- Free-form nested columns (attributes, provenance, prompt_args, settings, details, judge"
                + (", answers" if by == "variant" else "") + ") are JSON strings (`json.loads`), so that every "
                "row has the same types. Text is raw, exactly as stored (only the CSV export neutralises cells "
                "for spreadsheets)."]

    def load_hint(self, path: Path) -> str:
        return f"load it with: datasets.load_dataset(\"imagefolder\", data_dir={str(path)!r}, split=\"train\")"
