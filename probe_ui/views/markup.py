"""The report's HTML mini-language: elements built from escaped text, so that no string from a user, a preset or
a model reaches the page as markup.

:func:`el` escapes its text and every attribute value; :func:`wrap` takes markup that these functions built.
Attribute names are spelled as Python keywords allow (``class_`` → ``class``, ``data_col`` → ``data-col``).
Numbers print with a typographic minus and ``–`` for a missing value; :func:`data_num` gives the exact figure for a
``data-*`` attribute, which the tests read back.
"""

from __future__ import annotations

import html
import math
from typing import Any, Sequence

from probe_ui.metrics.frame import value_or_none


def esc(x: Any) -> str:
    """Any value as text, HTML-escaped (quotes too, so it is safe in attributes)."""
    return html.escape("" if value_or_none(x) is None else str(x), quote=True)


def _attrs(attrs: dict[str, Any]) -> str:
    return "".join(f' {k}="{esc(v)}"' for k, v in attrs.items() if v is not None)


def el(tag: str, text: Any = "", **attrs: Any) -> str:
    """An element holding escaped text; attribute names come from this module (``class_`` → ``class``,
    ``data_x`` → ``data-x``), every value is escaped."""
    return f"<{tag}{_attrs(_names(attrs))}>{esc(text)}</{tag}>"


def wrap(tag: str, inner_html: str, **attrs: Any) -> str:
    """An element around markup this module built (already escaped)."""
    return f"<{tag}{_attrs(_names(attrs))}>{inner_html}</{tag}>"


def _names(attrs: dict[str, Any]) -> dict[str, Any]:
    return {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}


def num(v: Any, digits: int = 2, signed: bool = False, none: str = "–") -> str:
    v = value_or_none(v)
    if v is None:
        return none
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, float) and not math.isfinite(v):
        return none
    if isinstance(v, int) and not signed:
        return str(v)
    s = f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"
    return s.replace("-", "−")


def data_num(v: Any) -> str | None:
    """A number for a data-* attribute (round-tripped by tests), or None."""
    v = value_or_none(v)
    if v is None or isinstance(v, bool):
        return None if v is None else str(v)
    if isinstance(v, float):
        return None if not math.isfinite(v) else repr(round(v, 6))
    return str(v)


def grid_table(header: Sequence[str], rows: Sequence[str], cls: str = "grid", numeric_from: int = 1) -> str:
    """A table: escaped header labels, rows already rendered as ``<tr>`` markup."""
    ths = "".join(el("th", h, class_="num" if i >= numeric_from else None) for i, h in enumerate(header))
    # a scrolling box takes the focus, so that a keyboard can scroll a table wider than the page (WCAG 2.1.1)
    return (f'<div class="scroll" tabindex="0"><table class="{cls}"><thead><tr>{ths}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def titled_section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}">' + el("h2", title) + body + "</section>"


def para(text: str, cls: str | None = None) -> str:
    return el("p", text, class_=cls)


def md_cell(s: Any) -> str:
    """Text fit for one cell of a Markdown table: pipes escaped, line breaks folded."""
    return str(s).replace("|", "\\|").replace("\n", " ")
