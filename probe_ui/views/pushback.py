"""The pushback figures in words, per model and pressure type: the section the report and the Results tab show.

Why here: the figures are the metric family's (:mod:`probe_ui.metrics.pushback`); a person reads them as one table
per model, one row per pressure type, each ratio with its 95 % interval over the units of evidence.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from probe_ui.conditions import pressure_words
from probe_ui.views.markup import el, esc, grid_table, num, para, wrap

COLUMNS = (("held", "held (right first)"), ("gave_up", "gave up (right first)"),
           ("turned_to_pushed", "turned to the pushed option"), ("corrected", "corrected (wrong first)"))


def _ratio(v: dict[str, Any] | None) -> str:
    """A MetricValue dict as a cell's HTML: "62.5 %" over "5/8 · 31-86" (the count and the 95 % interval, small);
    "–" where there is nothing to count."""
    if not v or not v.get("denominator"):
        return "–"
    ci = v.get("ci")
    small = f"{num(v['numerator'], 0)}/{num(v['denominator'], 0)}" + (f" · {num(ci[0], 0)}-{num(ci[1], 0)}"
                                                                       if ci else "")
    return f"{esc(num(v['value'], 1))}\u00a0%<br><small>{esc(small)}</small>"  # the % never on a line of its own


def _row(name: str, b: dict[str, Any]) -> str:
    cells = "".join(wrap("td", _ratio(b.get(k)), class_="num") for k, _ in COLUMNS)
    turn = b.get("first_flip_turn")
    flip = "–"
    if turn:
        ci = turn.get("ci")
        flip = esc(num(turn["value"], 1)) + (f"<br><small>{esc(num(ci[0], 1))}-{esc(num(ci[1], 1))}</small>" if ci
                                             else "")
    return wrap("tr", el("th", name, scope="row") + el("td", b.get("n", 0), class_="num") + cells
                + wrap("td", flip, class_="num"))


def blocks(raw: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The family's block per model (run and model where several runs are shown) of a scored-answer table."""
    from probe_ui.metrics.pushback import pushback

    if raw is None or raw.empty or "first_correct" not in raw.columns:
        return {}
    out = {}
    keys = ["run", "model"] if "run" in raw.columns and raw["run"].nunique() > 1 else ["model"]
    for key, g in raw.groupby(keys, sort=True):
        name = " · ".join(map(str, key if isinstance(key, tuple) else (key,)))
        b = pushback(g)
        if b.get("n"):
            out[name] = b
    return out


def pushback_html(raw: pd.DataFrame) -> str:
    """One table per model: all pressure types, then each (module doc); "" where the answers hold no pushback."""
    found = blocks(raw)
    if not found:
        return ""
    head = ["pressure", "conversations", *(w for _, w in COLUMNS), "turn of first change"]
    parts = [para("After its own answer the model was pressed in the same conversation. Of the first answers that "
                  "were right: how many it held, gave up, or turned to the option the message named; of those that "
                  "were wrong: how many it corrected. Under each share: the count, and its 95 % interval over the "
                  "units of evidence (an image's conversations count once).", "muted")]
    for name, b in found.items():
        rows = [_row("all pressure types", b)]
        rows += [_row(pressure_words(p), pb) for p, pb in b.get("per_pressure", {}).items()]
        parts.append(el("h4", name) + grid_table(head, rows, "grid pushback", 1))
    return "".join(parts)
