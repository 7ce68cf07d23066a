"""MedBLINK (scored as BLINK's ``eval/evaluate.py``): accuracy per task, and the unweighted mean of the task
accuracies (BLINK's "Total").

Task of a row: ``attributes.task`` (e.g. BLINK's ``sub_task`` set by an importer), else the first entry of
``category``, else ``source``. Every condition counts toward its task (MedBLINK's orientation task asks the upright
and the upside-down image; the colour-permutation suite asks each item under all colour assignments). Invalid
answers (BLINK's "(Z)") are wrong; provider errors are left out (BLINK counts an item with no prediction as
wrong: re-run failed cells before comparing with published numbers). Random per task = mean 1/n_labels (50 % for
two options, 33.3 % for three); MedBLINK reports 42.58 % random and 96.4 % for human experts over its tasks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.base import MetricValue
from probe_ui.metrics.frame import (
    cmv,
    cond_mask,
    correct_values,
    has_attribute,
    item_codes,
    lower_contains,
    mean_pct,
    per_variant,
    prepare,
    random_share,
    sources_text,
    unit_codes,
    unit_kind,
    variant_attr,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric

EXPERT = 96.4


def tasks(df: pd.DataFrame) -> pd.Series:
    """The task name of every row (see the module doc)."""
    t = variant_attr(df, "task")
    if t.isna().any() and "category" in df.columns:
        t = t.where(t.notna(), _first_category(df))
    if t.isna().any() and "source" in df.columns:
        t = t.where(t.notna(), df["source"])
    return t.map(lambda v: None if v is None or (isinstance(v, float) and np.isnan(v)) else str(v))


def _first_category(df: pd.DataFrame) -> pd.Series:
    return per_variant(df, "category", lambda c: (c[0] if isinstance(c, (list, tuple, np.ndarray)) and len(c) else
                                                   (c if isinstance(c, str) and c else None)))


def score(df: pd.DataFrame) -> dict[str, Any]:
    """``{"tasks": {task: MetricValue}, "macro": MetricValue (unweighted mean of task accuracies; numerator = sum
    of task accuracies / 100, denominator = number of tasks, n = rows), "random": float (mean of the task
    random references), "expert": 96.4}``."""
    d = prepare(df)
    c = correct_values(d)
    keep = ~np.isnan(c)
    d, c = d[keep], c[keep]
    f = pd.DataFrame({"task": tasks(d).to_numpy(dtype=object), "c": c, "p": random_share(d), "unit": unit_codes(d),
                      "item": item_codes(d)})
    kind = unit_kind(d)
    f = f[f["task"].notna()]
    out_tasks: dict[str, Any] = {}
    accs, rnds = [], []
    for t, g in f.groupby("task", sort=True):
        rnd = mean_pct(g["p"].to_numpy())
        out_tasks[str(t)] = cmv(g["c"], g["unit"], items=g["item"], kind=kind, random=rnd)
        accs.append(100 * g["c"].mean())
        if rnd is not None:
            rnds.append(rnd)
    macro_rnd = round(float(np.mean(rnds)), 4) if rnds else None
    macro = MetricValue(round(float(np.mean(accs)), 6) if accs else None, round(float(np.sum(accs)) / 100, 6),
                        len(accs), int(len(f)), None, macro_rnd).to_dict()
    return {"tasks": out_tasks, "macro": macro, "random": macro_rnd, "expert": EXPERT}


_SUITES = ("medblink-orientation/", "dot-colours/")


def _detect(d: pd.DataFrame) -> str | None:
    if has_attribute(d, "task"):
        return "attributes.task"
    if "blink" in sources_text(d):
        return "a (Med)BLINK source"
    if cond_mask(d, lambda c: c.startswith(_SUITES)).any():
        return "the medblink-orientation / dot-colours suite ran"
    return None


def rows(d: pd.DataFrame) -> pd.DataFrame:
    """The rows MedBLINK scores inside a mixed table: ``attributes.task`` set, a (Med)BLINK source, or an item
    (group) asked under the medblink-orientation / dot-colours suite; other presets in the same run are not tasks."""
    keep = variant_attr(d, "task").notna().to_numpy()
    if "source" in d.columns:
        keep = keep | lower_contains(d["source"], "blink")
    suite = cond_mask(d, lambda c: c.startswith(_SUITES))
    if suite.any():
        items = item_codes(d)
        keep = keep | np.isin(items, np.unique(items[suite]))
    return d[keep]


@metric("medblink", "paper", order=40, detect=_detect, attributes=("task",),
        headline=lambda b: {"macro accuracy": b["macro"]},
        figures={"macro accuracy": "the unweighted mean of the per-task accuracies (MedBLINK)"},
        description="MedBLINK: accuracy per task and their unweighted mean (BLINK's eval/evaluate.py)",
        explain={"macro accuracy": Explanation(
            measures="basic visual perception on medical images (orientation, depth, colours of marked points), "
                     "each task counting the same",
            paper="MedBLINK (BLINK's eval/evaluate.py); docs/reference.md §4",
            computed="the unweighted mean of the per-task accuracies (a task's accuracy: right / asked)",
            chance="50 % for two options, 33.3 % for three; MedBLINK's random row is 42.58 over its tasks, human "
                   "experts 96.4",
            ci="no interval for the mean; each task's accuracy in score --json carries its interval over the units "
               "of evidence")})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    return score(rows(d))
