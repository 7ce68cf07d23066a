"""Option perturbations: reordering (Illusion T3)."""

from __future__ import annotations

import random

from probe_ui.items import Variant
from probe_ui.perturb.registry import PerturbationError, register


@register("shuffle", "Reorder the answer options with a seeded random permutation.",
          "the same option text, at its new letter")
def shuffle(variant: Variant, rng: random.Random) -> Variant:
    if variant.kind != "choice" or len(variant.options) < 2:
        raise PerturbationError("shuffle needs a multiple-choice item with at least two options")
    options = list(variant.options)
    rng.shuffle(options)
    return variant.evolve(options=tuple(options))
