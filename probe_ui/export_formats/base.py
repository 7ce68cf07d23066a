"""What an export format is: a data file name, a writer, a reader, and the lines the dataset card says about it.

A format subclasses :class:`ExportFormat` and registers itself with :func:`register_format`::

    @register_format
    class TSV(ExportFormat):
        name = "tsv"
        data_file = "data.tsv"
        order = 50
        def write(self, path, rows, columns): ...
        def read(self, path): ...
        def layout(self, by): return ["- `data.tsv`: ..."]

The rows it writes are :mod:`probe_ui.exports`' rows (nested values as Python lists and dicts); what it reads back
must be rows :func:`probe_ui.importers.dataset.import_dataset` understands: the same columns, nested values as
values or as JSON strings (:meth:`ExportFormat.restore` undoes any format-specific encoding first).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from probe_ui.errors import ProbeUIError
from probe_ui.registry import Registry

# Columns whose values are lists of strings, and free-form nested columns (JSON strings outside JSONL).
LIST_COLUMNS = ("options", "category", "tags", "images")
JSON_COLUMNS = ("attributes", "provenance", "prompt_args", "settings", "details", "judge", "answers")


class DataFileError(ProbeUIError, ValueError):
    """A data file that cannot be read back (the message names the file and the line or row)."""


def json_text(v: Any) -> str:
    """A value as one line of JSON (non-ASCII kept; anything else as its text)."""
    return json.dumps(v, ensure_ascii=False, sort_keys=False, default=str)


def flat(row: dict[str, Any], columns: list[str], *, lists: bool) -> dict[str, Any]:
    """Nested free-form values as JSON strings; lists of strings kept (``lists``) or JSON too."""
    out = {}
    for c in columns:
        v = row.get(c)
        if c in JSON_COLUMNS:
            v = None if v is None else json_text(v)
        elif c in LIST_COLUMNS and not lists:
            v = json_text(v if v is not None else [])
        out[c] = v
    return out


class ExportFormat:
    """One export format. Subclasses set the class attributes and implement :meth:`write`, :meth:`read` and
    :meth:`layout`; the other methods have defaults that suit a one-file table."""

    #: the name ``--format`` takes
    name: ClassVar[str]
    #: the data file written beside ``images/`` (and looked for by ``probe-ui import dataset``)
    data_file: ClassVar[str]
    #: where the format shows among the others (menus, ``--format`` choices)
    order: ClassVar[int] = 100
    #: free-form nested columns become JSON strings (every format but JSONL)
    nested_as_json: ClassVar[bool] = True
    #: lists of strings become JSON strings too (CSV)
    lists_as_json: ClassVar[bool] = False
    #: the export needs at least one image (an imagefolder)
    needs_images: ClassVar[bool] = False
    #: which layout ``probe-ui import dataset`` tries first when a folder holds several data files (lower first)
    detect_order: ClassVar[int] = 50

    def check(self, error: type[Exception], where: str = "") -> None:
        """Raise ``error`` (with ``where``, the file, if any) when this format cannot be used here (a missing
        optional dependency), before anything is read or written."""

    def write(self, path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
        """Write ``rows`` (only ``columns``, in that order) to ``path`` (atomically: a failure leaves nothing)."""
        raise NotImplementedError

    def read(self, path: Path) -> list[dict[str, Any]]:
        """The rows of a data file this format wrote; :class:`DataFileError` naming the file and line when one
        cannot be read."""
        raise NotImplementedError

    def restore(self, row: dict[str, Any]) -> dict[str, Any]:
        """Undo what this format does to a row beyond JSON-encoding nested values (default: nothing)."""
        return row

    def layout(self, by: str) -> list[str]:
        """The dataset card's bullet(s) describing the data file (Markdown)."""
        raise NotImplementedError

    def data_files(self, images_dir: str) -> list[str]:
        """The files a Hugging Face ``configs`` entry lists for this layout."""
        return [self.data_file]

    def card_columns(self, columns: list[str]) -> list[tuple[str, str | None]]:
        """The columns the card lists, in order: (column, a ready table row, or None for the usual row)."""
        return [(c, None) for c in columns]

    def type_in(self, column: str, typ: str) -> str:
        """How a column's type reads in this format (a nested value may be a JSON string)."""
        if (self.nested_as_json and column in JSON_COLUMNS) or (self.lists_as_json and column in LIST_COLUMNS):
            return f"{typ} as a JSON string"
        return typ

    def load_hint(self, path: Path) -> str:
        """One line: how to read the export."""
        return f"read {path / self.data_file}; README.md describes every column"


#: every export format: the modules of this package and plugins
FORMATS: Registry[ExportFormat] = Registry("export format", packages=("probe_ui.export_formats",), instances=True)

F = TypeVar("F", bound=type[ExportFormat])


def register_format(cls: F) -> F:
    """Class decorator: register one instance of the format under its ``name``."""
    return FORMATS.put(cls)  # type: ignore[no-any-return]


def format_names() -> list[str]:
    """Every format's name, in display order (what ``--format`` and the Results tab offer)."""
    return [f.name for f in sorted(FORMATS.entries(), key=lambda f: (f.order, f.name))]


__all__ = ["DataFileError", "ExportFormat", "FORMATS", "JSON_COLUMNS", "LIST_COLUMNS", "flat", "format_names",
           "json_text", "register_format"]
