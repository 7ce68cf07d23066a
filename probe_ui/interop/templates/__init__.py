"""The files ``probe-ui export-set`` writes as code (an Inspect ``task.py``, an lmms-eval ``utils.py``), kept as
templates beside this module: plain files with ``__NAME__`` placeholders, filled by :func:`fill`."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
_PLACEHOLDER = re.compile(r"__[A-Z][A-Z_]*[A-Z]__")


def fill(name: str, **values: str) -> str:
    """The template ``name`` with every ``__KEY__`` replaced by ``values[KEY]``; a placeholder left unfilled is a
    bug in the caller (ValueError), never written out."""
    text = (HERE / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(f"__{key}__", value)
    left = sorted(set(_PLACEHOLDER.findall(text)) - {"__future__", "__file__", "__name__", "__init__"})
    if left:
        raise ValueError(f"template {name}: placeholders left unfilled: {', '.join(left)}")
    return text
