"""BLINK's prompt template (``blink-mc``), which MedBLINK uses too."""

from __future__ import annotations

from probe_ui.items import LETTERS, Variant
from probe_ui.prompts import Template, register_template


def blink_mc(v: Variant) -> tuple[str | None, str]:
    lines = "\n".join(f"({LETTERS[i]}) {o}" for i, o in enumerate(v.options))
    return None, f"{v.question}\nSelect from the following choices.\n{lines}"


register_template(Template("blink-mc", ("choice",), blink_mc, 256, "BLINK / MedBLINK '(A) ...' choices",
                           label="BLINK multiple choice"))
