"""Occlusion: does the answer follow the finding (issue 45)?

An item that says where its finding is (``region``) can be asked with the finding covered (step ``occlude``) and,
as the control, with an area of the same size covered elsewhere (``occlude_elsewhere``). A model that reads the
finding changes its answer when the finding is covered and keeps it when something else is; a model that still
answers "nodule present" with the nodule covered, or changes its answer under the control as often, is not reading
the finding. Per model, over the questions whose original answer and the condition's were both read:

- ``covered``: the answer flip rate with the finding covered (the answer differs from the original's);
- ``elsewhere``: the answer flip rate with the same area covered elsewhere;
- ``specific``: covered minus elsewhere, in points, over the questions asked both ways, with the 95 % interval of a
  paired difference over clustered pairs (:func:`probe_ui.stats.clustered_paired_difference`): the flips that the
  finding itself causes.

The two flip rates are reported side by side, as the issue asks; accuracy under each condition (with the answer an
item says the question takes once the finding is covered) is the robustness family's, per condition.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import ORIGINAL, cmv, cond_values, item_codes, prepare, unit_codes, unit_kind
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words
from probe_ui.metrics.visual_reliance import paired_points

FAMILY = "occlusion"
COVERED, ELSEWHERE = "occlude", "occlude_elsewhere"


def _ops(provenance: Any) -> tuple[str, ...]:
    return tuple(str(s.get("op")) for s in provenance or () if isinstance(s, dict))


def _read(v: Any) -> str | None:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return None
    return str(v).strip().lower() or None


def occlusion(df: pd.DataFrame) -> dict[str, Any]:
    """The family's block for ONE model's table (module doc)."""
    d = prepare(df)
    cond = cond_values(d)
    item, unit, kind = item_codes(d), unit_codes(d), unit_kind(d)
    parsed = [_read(v) for v in d["parsed"].to_numpy(dtype=object)]
    ops = [_ops(p) for p in d["provenance"].to_numpy(dtype=object)] if "provenance" in d.columns \
        else [()] * len(d)
    first: dict[int, int] = {}
    for at in np.flatnonzero(cond == ORIGINAL):
        if parsed[int(at)] is not None:
            first.setdefault(int(item[at]), int(at))
    flips: dict[str, dict[int, list[float]]] = {COVERED: {}, ELSEWHERE: {}}
    rows: dict[str, list[int]] = {COVERED: [], ELSEWHERE: []}
    for i in range(len(d)):
        op = COVERED if COVERED in ops[i] else ELSEWHERE if ELSEWHERE in ops[i] else None
        if op is None or parsed[i] is None or int(item[i]) not in first:
            continue
        rows[op].append(i)
        flips[op].setdefault(int(item[i]), []).append(float(parsed[i] != parsed[first[int(item[i])]]))
    out: dict[str, Any] = {"n": 0}
    for op, name in ((COVERED, "covered"), (ELSEWHERE, "elsewhere")):
        r = np.array(rows[op], dtype=int)
        hit = np.array([float(parsed[i] != parsed[first[int(item[i])]]) for i in r])
        out[name] = cmv(hit, unit[r], items=item[r], kind=kind) if len(r) else None
        out["n"] = max(out["n"], int(len(r)))
    both = sorted(set(flips[COVERED]) & set(flips[ELSEWHERE]))
    if both:
        # a question asked several ways under one condition (two fills) counts as flipped when most of them flip
        cov = np.array([float(np.mean(flips[COVERED][k]) >= 0.5) for k in both])
        els = np.array([float(np.mean(flips[ELSEWHERE][k]) >= 0.5) for k in both])
        firsts = np.array([first[k] for k in both], dtype=int)
        out["specific"] = paired_points(cov, els, unit[firsts], item[firsts])
    else:
        out["specific"] = None
    return out


def _detect(d: pd.DataFrame) -> str | None:
    if "provenance" not in d.columns:
        return None
    ops = {op for p in d["provenance"].to_numpy(dtype=object) for op in _ops(p)}
    if COVERED in ops or ELSEWHERE in ops:
        return "conditions that cover the finding's region (occlude) or the same area elsewhere (occlude_elsewhere)"
    return None


def _headline(block: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, label in (("covered", "flips, finding covered"), ("elsewhere", "flips, elsewhere covered"),
                       ("specific", "finding-specific flips")):
        if block.get(key) is not None:
            out[label] = block[key]
    return out


_SOURCE = ("probe-ui's own, after the occlusion tests of saliency work (a region's evidence removed, a same-sized "
           "control elsewhere) applied to a VLM's answer (issue 45)")


@metric(FAMILY, "clean", order=985, detect=_detect, headline=_headline, figures={
            "flips, finding covered": "the share of answers that change when the finding's region is covered",
            "flips, elsewhere covered": "the share of answers that change when an area of the same size elsewhere is "
                                        "covered (the control)",
            "finding-specific flips": "flips with the finding covered minus flips with elsewhere covered, in points: "
                                      "the changes the finding itself causes"},
        description="occlusion: the answer flip rate with the finding's region covered and with the same area "
                    "covered elsewhere, side by side, and their difference (paired, clustered interval)",
        explain={
            "flips, finding covered": Explanation(
                measures="whether covering the finding changes the answer; a model that reads the finding should "
                         "change an answer about it",
                paper=_SOURCE,
                computed="over the questions whose original and covered answers were both read: the share whose "
                         "answer differs from the original's",
                chance="a model that ignores the image flips 0 %; one that guesses flips at its guessing rate under "
                       "both conditions alike",
                ci=ci_words("the answers with the finding covered", "an image's questions count once")),
            "flips, elsewhere covered": Explanation(
                measures="how much covering any area of that size changes the answer: the control",
                paper=_SOURCE,
                computed="as for the finding covered, with boxes of the region's sizes placed outside it",
                chance="as for the finding covered",
                ci=ci_words("the answers with elsewhere covered", "an image's questions count once")),
            "finding-specific flips": Explanation(
                measures="the flips the finding causes beyond any covering: near 0 with a high covered flip rate, "
                         "the model reacts to any change; near 0 with both low, it does not read the finding",
                paper=_SOURCE,
                computed="over the questions asked both ways: flip rate covered minus flip rate elsewhere, in "
                         "points",
                chance="0 for a model that does not read the finding",
                ci="the 95 % interval of a paired difference (Newcombe), widened by the design effect of the units "
                   "of evidence (an image's questions and variants count once)")})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    return occlusion(d)
