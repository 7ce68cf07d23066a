"""Calibration in words and as a reliability diagram: the section the report and the Results tab show when the
answers carry a confidence (``--confidence``, or a provider's probabilities; issue 44)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from probe_ui.views.markup import el, esc, grid_table, num, para, wrap


def _ratio(v: dict[str, Any] | None, digits: int = 1) -> str:
    """A MetricValue dict as a cell's HTML: the value over its 95 % interval (small); "–" where there is none."""
    if not v or v.get("value") is None:
        return "–"
    ci = v.get("ci")
    small = f"<br><small>{esc(num(ci[0], digits))}-{esc(num(ci[1], digits))}</small>" if ci else ""
    return esc(num(v["value"], digits)) + small


def blocks(raw: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The calibration family's block per model (run and model where several runs are shown)."""
    from probe_ui.metrics.calibration import calibration, detect
    from probe_ui.metrics.samples import majority_vote

    if raw is None or raw.empty or detect(raw) is None:
        return {}
    voted = majority_vote(raw)
    keys = ["run", "model"] if "run" in voted.columns and voted["run"].nunique() > 1 else ["model"]
    out = {}
    for key, g in voted.groupby(keys, sort=True):
        b = calibration(g, detail=False)
        if b.get("n"):
            out[" · ".join(map(str, key if isinstance(key, tuple) else (key,)))] = b
    return out


def calibration_html(raw: pd.DataFrame, figure: Any | None = None) -> str:
    """A table per model of what it says against how often it is right; ``figure``: an image of the reliability
    diagram to place under it (the report's static copy; the Results tab draws it interactive)."""
    found = blocks(raw)
    if not found:
        return ""
    head = ["model", "answers", "mean confidence (%)", "accuracy (%)", "ECE (points)", "Brier score",
            "accuracy, surest half (%)"]
    rows = [wrap("tr", el("th", name, scope="row") + el("td", b["n"], class_="num")
                 + "".join(wrap("td", _ratio(b.get(k)), class_="num") for k in ("mean_confidence", "accuracy", "ece",
                                                                                 "brier"))
                 + wrap("td", _ratio((b.get("coverage") or {}).get("50")), class_="num")) for name, b in found.items()]
    return (para("What each model says about how sure it is, against how often it is right. ECE: the gap between "
                 "the two over 10 bins of confidence (0 = calibrated); a well calibrated model's accuracy rises when "
                 "only its most confident answers are kept (the surest half). Under each figure: its 95 % interval "
                 "over the units of evidence.",
                 "muted") + grid_table(head, rows, "grid calibration", 1) + (figure or ""))
