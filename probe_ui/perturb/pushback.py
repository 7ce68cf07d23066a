"""The pushback perturbation: the question, image and answer stay; after the model's own answer the conversation
goes on with a pressure message (issue 44). Does the model hold a right answer when pushed, and correct a wrong one?

The variant records its pushback in ``prompt_args["pushback"]``: the pressure type and the number of pushback
turns. The runner draws the pushed option once it has read the model's first answer, seeded by the variant (whose
id holds this step's seed: the same option for the same run seed, item, model and sample), so that two runs that
differ only in their seed still ask the same question. The runner asks the turns
(:mod:`probe_ui.runner.pushback`); the variant's stored answer is the one after the last pushback.

The probe's parts, each in the room of its job: the pressure types (:mod:`probe_ui.perturb.pressures`), asking the
turns (:mod:`probe_ui.runner.pushback`), the scored-answer table's columns read from the stored turns
(:mod:`probe_ui.scoring.pushback`), the metric family (:mod:`probe_ui.metrics.pushback`) and the report's section
(:mod:`probe_ui.views.pushback`).
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from pydantic import Field

from probe_ui.items import Variant
from probe_ui.perturb.pressures import pressure_names, pressure_words
from probe_ui.perturb.registry import PerturbationError, register

PRESSURE_KINDS: tuple[str, ...] = tuple(pressure_names())  # the built-in pressure types, in order
Kind = Literal[PRESSURE_KINDS]  # type: ignore[valid-type]
MAX_TURNS = 2  # pushback turns after the first answer: a second turn, and optionally a third


def _pushback_phrase(p: dict[str, Any]) -> str:
    pressure = str(p.get("pressure", "doubt"))
    times = " (twice)" if int(p.get("turns", 1)) > 1 else ""
    return f"pushed back{times}: {pressure_words(pressure)}"


@register("pushback", "After the model's own answer, press it in the same conversation: 'doubt' (\"Are you "
          "sure?\"), 'expert', 'authority', 'consensus', 'emotional', 'guideline' or 'self_doubt'; 'turns' 2 "
          "presses twice. The stored answer is the one after the last pushback.",
          "unchanged (the first answer and the pushed option are stored with the conversation)",
          label="push back after its answer (\"Are you sure?\", ...)", phrase=_pushback_phrase)
def pushback(variant: Variant, rng: random.Random, *,
             pressure: Annotated[Kind, Field(description="what the next message says: doubt, an expert's or the "
                                                        "attending's correction, colleagues, an appeal, a guideline, "
                                                        "or asking it to find its own mistake")
                                 ] = "doubt",
             turns: Annotated[int, Field(ge=1, le=MAX_TURNS, description="pushback turns after the first answer")
                              ] = 1) -> tuple[Variant, dict[str, Any]]:
    if variant.prompt_args.get("pushback"):
        raise PerturbationError("pushback: this variant is already pushed back; apply it once")
    if not variant.labels:
        raise PerturbationError(f"pushback needs an item whose answer is one of its labels (multiple choice, yes/no "
                                f"or label); this one is '{variant.kind}'")
    spec = {"pressure": pressure, "turns": turns}
    return variant.evolve(prompt_args={**variant.prompt_args, "pushback": spec}), dict(spec)
