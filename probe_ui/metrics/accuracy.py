"""Accuracy with invalid and refusal rates, per model (docs/reference.md §4: invalid counts as wrong)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.base import clustered_ratio, ratio
from probe_ui.metrics.units import Units


def accuracy_by_model(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Per model: accuracy (its 95 % interval over the units of evidence, :mod:`probe_ui.metrics.units`: Wilson's
    where each unit holds one answer; and the random-guess reference), invalid and refusal rates, errors.

    Error rows (no answer from the provider) are counted separately and excluded; rows whose ground truth is
    unknown or free-text are answered but not scored.
    """
    from dataclasses import replace

    from probe_ui.metrics.units import codes_of

    out: dict[str, dict[str, Any]] = {}
    if df.empty:
        return out
    units = codes_of(df)
    at = pd.Series(np.arange(len(df)), index=df.index)
    for model, g in df.groupby("model", sort=True):
        ok = g[g["error"].isna()]
        scored = ok[ok["correct"].notna()]
        labels = scored["n_labels"].where(scored["n_labels"] > 0)
        random = float((100.0 / labels).mean()) if labels.notna().any() else None
        rows = at[scored.index].to_numpy()
        kind = Units(units.keys[rows], units.kinds[rows], units.items[rows]).kind()
        accuracy = replace(clustered_ratio(scored["correct"].astype(bool).to_numpy(), units.keys[rows],
                                           units.items[rows], random=random), unit=kind)
        out[str(model)] = {
            "accuracy": accuracy.to_dict(),
            "invalid_rate": ratio(int(ok["invalid"].fillna(False).astype(bool).sum()), len(ok), ci=False).to_dict(),
            "refusal_rate": ratio(int(ok["refusal"].fillna(False).astype(bool).sum()), len(ok), ci=False).to_dict(),
            # issue 46: of the answers read, how many readings are sure (the rest are the reader's best guesses)
            "sure_rate": ratio(int(ok["sure"].eq(True).sum()) if "sure" in ok.columns else 0,
                               int(ok["parsed"].notna().sum()), ci=False).to_dict(),
            # how the readings were settled: by a clinician, sure, or the reader's best guess (issue 46)
            "readings": _readings(ok),
            "n": len(scored),
            "answered": len(ok),
            "errors": int(g["error"].notna().sum()),
        }
    return out


def _readings(ok: pd.DataFrame) -> dict[str, int]:
    """How many of the answered rows' readings were settled by a clinician, sure, or unsure (the scored table's
    ``reading`` column, :func:`probe_ui.scoring.apply_settlements`); empty when the table has none."""
    if "reading" not in ok.columns:
        return {}
    counts = ok["reading"].value_counts()
    return {k: int(counts.get(k, 0)) for k in ("settled", "sure", "unsure")}
