"""Accuracy with invalid and refusal rates, per model (docs/reference.md §4: invalid counts as wrong)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from probe_ui.metrics.base import ratio


def accuracy_by_model(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Per model: accuracy (with Wilson CI and random-guess reference), invalid and refusal rates, errors.

    Error rows (no answer from the provider) are counted separately and excluded; rows whose ground truth is
    unknown or free-text are answered but not scored.
    """
    out: dict[str, dict[str, Any]] = {}
    if df.empty:
        return out
    for model, g in df.groupby("model", sort=True):
        ok = g[g["error"].isna()]
        scored = ok[ok["correct"].notna()]
        correct = int(scored["correct"].astype(bool).sum())
        n = len(scored)
        labels = scored["n_labels"].where(scored["n_labels"] > 0)
        random = float((100.0 / labels).mean()) if labels.notna().any() else None
        out[str(model)] = {
            "accuracy": ratio(correct, n, random=random).to_dict(),
            "invalid_rate": ratio(int(ok["invalid"].fillna(False).astype(bool).sum()), len(ok), ci=False).to_dict(),
            "refusal_rate": ratio(int(ok["refusal"].fillna(False).astype(bool).sum()), len(ok), ci=False).to_dict(),
            "n": n,
            "answered": len(ok),
            "errors": int(g["error"].notna().sum()),
        }
    return out
