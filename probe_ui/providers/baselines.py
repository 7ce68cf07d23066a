"""Baselines: the papers' random-guess row and position-bias probes, answering without looking.

``baseline/random`` picks uniformly with a seed derived from the run seed, the variant and the sample, so the
same batch gives the same answers in any order or concurrency. ``baseline/first`` and ``baseline/last`` always
pick the first / last label: on data where the right answer sits at a fixed position (MedVH's escape option is
always last) they expose that bias.
"""

from __future__ import annotations

import random
from typing import ClassVar

from probe_ui.perturb.registry import derive_seed
from probe_ui.providers.base import ModelConfig, ModelSpecError, Provider, Request, Response, register_provider

MODES = ("random", "first", "last")


@register_provider
class BaselineProvider(Provider):
    name: ClassVar[str] = "baseline"
    default_concurrency: ClassVar[int] = 64
    takes_url: ClassVar[bool] = False  # answers without a server
    free: ClassVar[bool] = True
    ready_models: ClassVar[tuple[str, ...]] = tuple(f"baseline/{m}" for m in MODES)

    def __init__(self, config: ModelConfig) -> None:
        if config.model not in MODES:
            raise ModelSpecError(f"unknown baseline '{config.model}'; known: {', '.join(MODES)}")
        super().__init__(config)

    async def generate(self, request: Request) -> Response:
        labels = request.labels
        if not labels:
            return Response(text="", details={"note": "no labels to choose from (free-text question)"})
        if self.config.model == "first":
            choice = labels[0]
        elif self.config.model == "last":
            choice = labels[-1]
        else:
            seed = derive_seed(request.settings.seed or 0, request.variant_id, request.sample, request.prompt)
            choice = random.Random(seed).choice(labels)
        return Response(text=choice, input_tokens=0, output_tokens=0, cost=0.0)
