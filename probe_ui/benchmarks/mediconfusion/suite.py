"""MediConfusion's suites: the same question on the partner image, and its prompt phrasings (Appendix C) with
chain of thought."""

from __future__ import annotations

from probe_ui.items import Variant
from probe_ui.perturb import PerturbContext
from probe_ui.presets import Condition
from probe_ui.presets.suites import Suite, condition, partners, register_suite


def _mediconfusion_pair(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if v.images and partners(v, ctx):
        return [condition("partner-image", ("swap", {"prefer": "same-question"}))]
    return []


def _prompt_variants(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if v.kind != "choice":
        return [condition("cot", ("cot", {}))]
    from probe_ui.perturb.prompting import PHRASINGS

    return [condition(s, ("phrasing", {"style": s})) for s in PHRASINGS if s != "original"] \
        + [condition("cot", ("cot", {}))]


register_suite(Suite("mediconfusion-pair", "MediConfusion: the same question on the partner image (answer follows it)",
                     ("mediconfusion",), _mediconfusion_pair, label="the partner image (MediConfusion)"))
register_suite(Suite("prompt-variants", "MediConfusion's prompt phrasings and chain-of-thought; answers must not "
                     "change", ("groups",), _prompt_variants,
                     label="other phrasings and reasoning (MediConfusion)"))
