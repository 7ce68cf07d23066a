"""MedVH's suite: wrongful image, none of the above and incorrect premise, each with its baseline, and false
confidence justification (FCJ)."""

from __future__ import annotations

from probe_ui.items import Variant
from probe_ui.perturb import PerturbContext
from probe_ui.presets import Condition
from probe_ui.presets.suites import Suite, condition, register_suite


def _medvh(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if v.kind not in ("choice", "yesno"):
        return []
    out: list[Condition] = []
    if v.images and any(o.images and o.question != v.question and not set(o.category) & set(v.category)
                        for o in ctx.others(v)):
        out.append(condition("wrongful-image", ("swap", {"prefer": "unrelated", "answer": "follow"}),
                      ("escape", {"kind": "unsuitable", "answer": "escape"})))
        out.append(condition("wrongful-image-baseline", ("escape", {"kind": "unsuitable", "answer": "keep"})))
    if v.kind == "choice":
        out.append(condition("nota", ("nota", {"mode": "hallucination"})))
        out.append(condition("nota-baseline", ("nota", {"mode": "baseline"})))
    if v.attributes.get("absent_finding"):
        out.append(condition("premise", ("premise", {}), ("escape", {"kind": "premise", "answer": "escape"})))
        out.append(condition("premise-baseline", ("escape", {"kind": "premise", "answer": "keep"})))
    if v.kind == "choice":
        out.append(condition("fcj", ("suggest", {"answer": "wrong", "wording": "physician"})))
        out.append(condition("fcj-student", ("suggest", {"answer": "wrong", "wording": "student", "hint": True})))
    return out


register_suite(Suite("medvh", "MedVH: wrongful image, NOTA and incorrect premise, each with its baseline, and FCJ",
                     ("medvh", "medvh_fcj"), _medvh, label="hallucination tests (MedVH)"))
