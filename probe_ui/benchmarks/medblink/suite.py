"""MedBLINK's suites: the orientation task upright and upside down, and the colour-bias check over the dots'
colour-location permutations."""

from __future__ import annotations

from math import factorial

from probe_ui.items import Variant
from probe_ui.perturb import PerturbContext
from probe_ui.presets import Condition
from probe_ui.presets.suites import Suite, condition, register_suite


def _orientation(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if not v.images:
        return []
    moves = {"answer_map": {"correct": "upside down"}} if v.kind == "label" and "upside down" in v.options else {}
    return [condition("upside-down", ("rotate", {"angle": 180, **moves}))]


def _colour_permutations(v: Variant, ctx: PerturbContext) -> list[Condition]:
    """MedBLINK's colour-bias check: the same three dot locations under all 6 colour assignments."""
    if not v.images or "dots" not in v.attributes:
        return []
    params = dict(v.attributes["dots"])
    n = len(params.get("colours") or params.get("points") or "rgb")
    return [condition(f"perm{i}", ("dots", {**params, "permutation": i, "seed_group": "dot-colours"}))
            for i in range(factorial(n))]


register_suite(Suite("medblink-orientation", "MedBLINK task 5: upright and upside down (answer moves to 'upside "
                     "down')", ("medblink",), _orientation,
                     label="upright and upside down (MedBLINK)"))
register_suite(Suite("dot-colours", "MedBLINK colour bias: all colour-location permutations of the item's dots",
                     ("medblink", "groups"), _colour_permutations, label="dot colours (MedBLINK)"))
