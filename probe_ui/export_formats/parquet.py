"""Parquet: ``data.parquet`` (pyarrow, an extra: imported only when a Parquet file is written or read)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from probe_ui.export_formats.base import ExportFormat, flat, register_format
from probe_ui.files.safe_write import atomic_file


def require_pyarrow(error: type[Exception], where: str = "") -> None:
    """Parquet needs pyarrow, an extra (``probe-ui[parquet]``, 170 MB): say so (``where``: the file, if any) before
    anything is read or written."""
    import importlib.util

    head = f"{where}{': ' if where else ''}"
    try:
        found = importlib.util.find_spec("pyarrow") is not None
    except (ImportError, ValueError):  # a half-removed package (no spec) counts as a broken one
        found = True
    if not found:
        raise error(f"{head}Parquet needs pyarrow, which is not installed: pip install 'probe-ui[parquet]' (or use "
                    "jsonl, csv or imagefolder)")
    try:  # installed is not loadable: a missing shared library, a wheel for another Python, a partial upgrade
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - whatever a broken install raises, the remedy is the same
        why = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else 'no message'}"
        raise error(f"{head}pyarrow is installed but cannot be loaded ({why[:200]}): reinstall the extra with pip "
                    "install --force-reinstall 'probe-ui[parquet]' (or use jsonl, csv or imagefolder)") from None


@register_format
class Parquet(ExportFormat):
    name = "parquet"
    data_file = "data.parquet"
    order = 20

    def check(self, error: type[Exception], where: str = "") -> None:
        require_pyarrow(error, where)

    def write(self, path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
        import pandas as pd

        rows_flat = [flat(row, columns, lists=True) for row in rows]
        # object columns: pyarrow types each from its values (ints with nulls stay ints, lists of strings stay lists)
        df = pd.DataFrame({c: pd.Series([r[c] for r in rows_flat], dtype=object) for c in columns}, columns=columns)
        with atomic_file(path, text=False) as f:
            df.to_parquet(f, engine="pyarrow", index=False)

    def read(self, path: Path) -> list[dict[str, Any]]:
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()

    def layout(self, by: str) -> list[str]:
        return [f"- `{self.data_file}`: one table (pyarrow); lists of strings are lists, free-form nested columns "
                "are JSON strings (`json.loads`), since their types vary from row to row. Text is raw, exactly as "
                "stored (only the CSV export neutralises cells for spreadsheets)."]
