"""ProbMed's suite: ground-truth and hallucinated yes/no questions from an item's attributes."""

from __future__ import annotations

from probe_ui.items import Variant
from probe_ui.perturb import PerturbContext
from probe_ui.presets import Condition
from probe_ui.presets.suites import Suite, condition, register_suite


def _probmed_pairs(v: Variant, ctx: PerturbContext) -> list[Condition]:
    a = v.attributes
    out: list[Condition] = []
    for qa, needed in (("modality", "modality"), ("body_part", "organ")):
        if a.get(needed):
            out += [condition(f"{qa}-{ver}", ("probmed_question", {"qa_type": qa, "version": ver}))
                    for ver in ("gt", "hallu")]
    findings = a.get("findings") or []
    for i, _ in enumerate(findings):
        out += [condition(f"entity-{ver}-{i}", ("probmed_question", {"qa_type": "entity", "version": ver, "index": i}))
                for ver in ("gt", "hallu")]
        if i < len(a.get("positions") or []):
            out += [condition(f"grounding-{ver}-{i}",
                       ("probmed_question", {"qa_type": "grounding", "version": ver, "index": i}))
                    for ver in ("gt", "hallu")]
    return out


register_suite(Suite("probmed-pairs", "ProbMed: ground-truth and hallucinated yes/no questions from the item's "
                     "attributes", ("probmed",), _probmed_pairs,
                     label="true and false yes/no questions (ProbMed)"))
