"""Metrics over a table of scored answers (one row per response), each reporting value, counts and references.

One module per family, each registering itself in :mod:`probe_ui.metrics.registry` (its detection rule, the
attributes it reads, its headline columns, and its paper-exact and/or clean definition); the registry finds the
family modules by walking this package (and the benchmarks' folders, and plugins): there is no list to extend.
``accuracy`` holds the plain per-model accuracy every paper reports. :func:`paper_metrics` runs every registered
family whose data is present in one model's table.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from probe_ui.metrics import frame
from probe_ui.metrics.accuracy import accuracy_by_model
from probe_ui.metrics.base import MetricValue, wilson_ci
from probe_ui.metrics.groups import circular_eval, flip_rate, group_consistency, same_option_under_shuffles
from probe_ui.metrics.registry import FAMILIES, MetricContext, MetricError, families, get_family, metric

__all__ = [
    "FAMILIES",
    "MetricContext",
    "MetricError",
    "MetricValue",
    "accuracy_by_model",
    "circular_eval",
    "detect_families",
    "families",
    "flip_rate",
    "get_family",
    "group_consistency",
    "headlines",
    "metric",
    "paper_metrics",
    "same_option_under_shuffles",
    "wilson_ci",
]


def detect_families(df: pd.DataFrame) -> dict[str, str]:
    """Which registered families have data in this table, each with the rule that matched (see each family's
    module for its rule)."""
    d = frame.prepare(df)
    if not len(d):
        return {}
    found = {}
    for fam in families():
        why = fam.detect(d)
        if why:
            found[fam.name] = why
    return found


def _safe(fn: Any) -> Any:
    try:
        return fn()
    except Exception as exc:  # one family failing must not hide the others; the message says which and why
        return {"error": f"{exc.__class__.__name__}: {exc}"}


def paper_metrics(df: pd.DataFrame, *, definition: str = "clean", n_boot: int = 2000, seed: int = 0,
                  medvh_weights: tuple[float, float] = (0.5, 0.5), only: tuple[str, ...] | None = None
                  ) -> dict[str, Any]:
    """Every registered metric family whose data is present in ONE model's answer table.

    Returns ``{"detected": {family: rule}, <family>: block, ...}``; each block is the family's result under
    ``definition`` ("paper": the paper's exact definition, "clean": ours; a family with only one definition
    uses that one) with a ``"definition"`` key saying which was used. A family that fails reports ``{"error":
    "...", "definition": ...}`` instead of hiding the others. ``only`` restricts the families computed.
    """
    d = frame.prepare(df)
    found = detect_families(d)
    out: dict[str, Any] = {"detected": found}
    ctx = MetricContext(n_boot=n_boot, seed=seed, medvh_weights=medvh_weights)
    for fam in families():
        if fam.name not in found or (only is not None and fam.name not in only):
            continue
        which = fam.definition_for(definition)
        block = _safe(lambda fam=fam, which=which: fam.definitions[which](d, ctx))
        out[fam.name] = {"definition": which, **block} if isinstance(block, dict) else \
            {"definition": which, "value": block}
    return out


def headlines(paper: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each computed family's headline figures (family → {label: metric leaf}) from a :func:`paper_metrics`
    result; a family whose block failed or whose headline cannot be read gives none."""
    out: dict[str, dict[str, Any]] = {}
    for name, block in paper.items():
        fam = FAMILIES.find(name)
        if fam is None or not isinstance(block, dict) or "error" in block:
            continue
        try:
            out[name] = {k: v for k, v in fam.headline(block).items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return out
