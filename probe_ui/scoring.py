"""Scoring a stored run: load its answer table and apply the metric functions."""

from __future__ import annotations

from typing import Any

from probe_ui.metrics import accuracy_by_model
from probe_ui.metrics.samples import majority_vote
from probe_ui.store import Store, run_variants


def score_run(store: Store, run_name: str | None = None) -> dict[str, Any]:
    """The per-model accuracy report of a run (the most recent one when no name is given)."""
    run = store.get_run(run_name)
    df = majority_vote(store.answers_frame(run.id))
    return {
        "run": run.name,
        "seed": run.seed,
        "variants": store.count(run_variants, run.id),
        "items_not_loaded": len(store.item_errors(run.id)),
        "models": accuracy_by_model(df),
    }
