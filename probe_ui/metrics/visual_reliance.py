"""Visual reliance: does the answer follow the pixels (issue 45)?

The ``visual-reliance`` suite asks each question three more ways: with a blank image, a noise image, and no image
(:mod:`probe_ui.perturb.controls`). Per model, for each control (``blank``, ``noise``, ``no-image``), over the
questions whose original and control were both scored:

- ``accuracy``: the accuracy with the control (and ``original``, with the image);
- ``reliance``: the accuracy with the image minus with the control, in points, with the 95 % interval of a paired
  difference over clustered pairs (:func:`probe_ui.stats.clustered_paired_difference`); near 0, the model answers
  as well without looking;
- ``image_blind``: among the questions answered right with the image, the share answered the same way with the
  control: the right answers that did not need the pixels.

Ratios carry intervals over the units of evidence. Headline: the reliance and the image-blind share of each control.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import (
    ORIGINAL,
    cmv,
    cond_values,
    correct_values,
    item_codes,
    prepare,
    unit_codes,
    unit_kind,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words
from probe_ui.stats import clustered_paired_difference, per_cluster

FAMILY = "visual_reliance"
SUITE = "visual-reliance"
CONTROLS = ("blank", "noise", "no-image")


def _same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and not (isinstance(a, float) and np.isnan(a)) \
        and str(a).strip().lower() == str(b).strip().lower()


def paired_points(a: np.ndarray, b: np.ndarray, unit: np.ndarray, item: np.ndarray) -> dict[str, Any]:
    """The share of ``a`` minus the share of ``b`` (paired 0/1 outcomes, in points) with Newcombe's paired interval
    over clustered pairs (``unit``: each pair's unit of evidence, ``item``: its item): visual reliance (with the
    image minus with a control) and the occlusion family's finding-specific flips (covered minus elsewhere)."""
    cells = [(a == 1) & (b == 1), (a == 1) & (b == 0), (a == 0) & (b == 1), (a == 0) & (b == 0)]
    by_unit = [per_cluster(c.astype(float), unit)[0].tolist() for c in cells]
    by_item = [per_cluster(c.astype(float), item)[0].tolist() for c in cells]
    found = clustered_paired_difference(by_unit[0], by_unit[1], by_unit[2], by_unit[3], nested=tuple(by_item))
    if found is None:
        return {"value": None, "ci": None, "n": 0}
    d, lo, hi, deff = found
    return {"value": round(d, 4), "ci": [round(lo, 4), round(hi, 4)], "n": int(len(a)), "deff": round(deff, 4),
            "method": "Newcombe's paired interval over clustered pairs (design effect)"}


def visual_reliance(df: pd.DataFrame) -> dict[str, Any]:
    """The family's block for ONE model's table (module doc)."""
    d = prepare(df)
    cond = cond_values(d)
    right = correct_values(d)
    item, unit, kind = item_codes(d), unit_codes(d), unit_kind(d)
    parsed = d["parsed"].to_numpy(dtype=object)
    first: dict[int, int] = {}
    for i in np.flatnonzero(cond == ORIGINAL):
        if not np.isnan(right[i]):
            first.setdefault(int(item[i]), int(i))
    out: dict[str, Any] = {"n": 0, "controls": {}}
    for control in CONTROLS:
        rows = [i for i in np.flatnonzero(cond == f"{SUITE}/{control}")
                if not np.isnan(right[i]) and int(item[i]) in first]
        if not rows:
            continue
        o = np.array([first[int(item[i])] for i in rows])
        c = np.array(rows)
        orig, ctrl = right[o], right[c]
        was_right = orig == 1
        blind = np.array([_same(parsed[a], parsed[b]) for a, b in zip(o, c)], dtype=float)
        out["controls"][control] = {
            "n": int(len(rows)),
            "original": cmv(orig, unit[o], items=item[o], kind=kind),
            "accuracy": cmv(ctrl, unit[c], items=item[c], kind=kind),
            "reliance": paired_points(orig, ctrl, unit[o], item[o]),
            "image_blind": cmv(blind[was_right], unit[o][was_right], items=item[o][was_right], kind=kind),
        }
        out["n"] = max(out["n"], int(len(rows)))
    return out


def _detect(d: pd.DataFrame) -> str | None:
    if "condition" in d.columns and d["condition"].astype(str).str.startswith(SUITE + "/").any():
        return "the visual-reliance suite's controls (blank, noise, no image)"
    return None


def _headline(block: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for control, b in (block.get("controls") or {}).items():
        out[f"visual reliance ({control})"] = b["reliance"]
        out[f"image-blind answers ({control})"] = b["image_blind"]
    return out


_PAPER = ("the blank-image control of arXiv 2603.03437 (VQA-RAD: a text-trained model keeps 81 % of its performance "
          "with a blank image) and SURE-VQA's mandatory no-image baselines; the noise control is probe-ui's own")


@metric(FAMILY, "clean", order=980, detect=_detect, headline=_headline, figures={
            "visual reliance ({control})": "accuracy with the image minus accuracy with the control (a blank image, "
                                           "a noise image, no image), in points: how much the answers need the "
                                           "pixels",
            "image-blind answers ({control})": "of the questions answered right with the image, the share answered "
                                               "the same way with the control: right answers that did not need the "
                                               "pixels"},
        description="visual reliance: accuracy with a blank image, a noise image and no image against the original; "
                    "the difference (paired, clustered interval) and the right answers that stay the same without "
                    "the pixels",
        explain={
            "visual reliance ({control})": Explanation(
                measures="whether the model reads the image: a model that answers as well with a blank or noise "
                         "image, or none, is answering from the words of the question",
                paper=_PAPER,
                computed="over the questions whose original and control were both scored: accuracy with the image "
                         "minus accuracy with the control, in points",
                chance="0 for a model that ignores the image; a model that reads it loses down to chance (1 / the "
                       "number of options) without it",
                ci="the 95 % interval of a paired difference (Newcombe), widened by the design effect of the units "
                   "of evidence (an image's questions and variants count once)"),
            "image-blind answers ({control})": Explanation(
                measures="how many of the right answers survive without the pixels: those are not evidence that the "
                         "model saw the finding",
                paper=_PAPER,
                computed="the questions answered right with the image; the share whose answer with the control is "
                         "the same option",
                chance="a model guessing at random keeps 1 / the number of options of its right answers",
                ci=ci_words("the right answers with the image", "an image's questions count once"))})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    return visual_reliance(d)
