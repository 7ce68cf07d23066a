"""The Illusion of Readiness suite (T1-T5): no image, shuffled options without and with the image, 1R-4R
distractors, 'Unknown', visual substitution."""

from __future__ import annotations

from probe_ui.items import Variant
from probe_ui.perturb import PerturbContext
from probe_ui.presets import Condition
from probe_ui.presets.suites import Suite, condition, partners, register_suite


def _illusion(v: Variant, ctx: PerturbContext) -> list[Condition]:
    out: list[Condition] = []
    if v.images:
        out.append(condition("no-image", ("remove", {})))
    if v.kind != "choice":
        return out
    if v.images:  # T3 as the paper measures it: the options re-ordered in the text-only condition
        out.append(condition("no-image+shuffle", ("remove", {}), ("shuffle", {})))
    out.append(condition("shuffle", ("shuffle", {})))  # the same with the image (reported beside it)
    wrong = len(v.options) - 1
    out += [condition(f"{k}R", ("replace_distractors",
                                {"k": k, "source": "preset" if _enough_foreign(v, ctx, k) else "pool"}))
            for k in range(1, min(4, wrong) + 1)]
    if wrong >= 1:
        out.append(condition("unknown", ("replace_distractors", {"k": 1, "source": "unknown"})))
    if v.images and any(p.answer in v.options and p.answer != v.answer for p in partners(v, ctx)):
        out.append(condition("substitution", ("swap", {"prefer": "distractor"})))
    return out


def _enough_foreign(v: Variant, ctx: PerturbContext, k: int) -> bool:
    own = {o.lower() for o in v.options}
    foreign = {o.lower() for p in ctx.others(v) for o in p.options} - own
    return len(foreign) >= k


register_suite(Suite("illusion", "Illusion of Readiness T1-T5: no image, shuffled options without and with the image, "
                     "1R-4R distractors, 'Unknown', visual substitution", ("illusion",), _illusion,
                     label="Illusion of Readiness tests (T1-T5)"))
