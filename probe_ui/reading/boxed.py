"""Rule 2: an answer written in ``\\boxed{X}`` (the last one) or in backticks.

Why a module: models trained on maths write their answer boxed or in code marks; such a short answer-only string
is read whole, and two different ones make the reply ambiguous.
"""

from __future__ import annotations

import re

from probe_ui.reading.declarations import Found
from probe_ui.reading.item import Item
from probe_ui.reading.options import option_exact
from probe_ui.reading.verdicts import self_corrected

_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_BACKTICK = re.compile(r"`{1,3}([^`\n]{1,200}?)`{1,3}")


def _strip_tex(s: str) -> str:
    return re.sub(r"\\(?:text|textbf|mathrm|mathbf|mbox)\s*\{([^{}]*)\}", r"\1", s).strip()


def _whole(s: str, item: Item) -> Found:
    """Read a short answer-only string (boxed / backticked content)."""
    s = _strip_tex(s)
    lab = item.exact(s)
    if lab is not None:
        return Found(lab)
    if item.kind == "choice":
        m = re.fullmatch(r"\s*[(\[]?([A-Za-z])[)\]]?\s*(?:[.:)\-]\s*(.*))?", s, re.DOTALL)
        if m:
            lab = item.letter(m.group(1))
            if lab is not None:
                return Found(lab)
            if m.group(1).isupper():
                return Found(None, out_of_range=True)
        return Found(option_exact(s, item))
    return Found(None)


def boxed_or_backtick(text: str, item: Item) -> tuple[str, Found] | None:
    """Rule 2: last \\boxed{X}; else backticked answers (two different → ambiguous)."""
    boxed = list(_BOXED.finditer(text))
    oor = False
    said = {f.label for m in boxed[-20:] if (f := _whole(m.group(1), item)).label is not None}
    if len(said) > 1 and not self_corrected(text):
        return "ambiguous", Found(None)  # "$\\boxed{A}$ or $\\boxed{D}$"
    for m in reversed(boxed):
        f = _whole(m.group(1), item)
        if f.label is not None:
            return "boxed", f
        oor = oor or f.out_of_range
    seen: list[str] = []
    for m in _BACKTICK.finditer(text):
        f = _whole(m.group(1), item)
        if f.label is not None and f.label not in seen:
            seen.append(f.label)
        oor = oor or f.out_of_range
    if len(seen) == 1:
        return "backtick", Found(seen[0])
    if len(seen) > 1:
        return "ambiguous", Found(None)
    return None if not oor else ("", Found(None, out_of_range=True))
