"""Baselines: the papers' random-guess row and position-bias probes, answering without looking.

``baseline/random`` picks uniformly with a seed derived from the run seed, the variant and the sample (and, after
pushback, the turn), so the same batch gives the same answers in any order or concurrency; its answers are never
served from the request cache, whose key leaves the variant out. ``baseline/first`` and ``baseline/last`` always
pick the first / last label: on data where the right answer sits at a fixed position (MedVH's escape option is
always last) they expose that bias.

Each way of picking is a function registered in :data:`BASELINE_MODES` (``@BASELINE_MODES.register("name")``
adds ``baseline/name``, from a module of this package or a plugin file).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from probe_ui.messages import Request, Response
from probe_ui.providers import answer_format
from probe_ui.providers.base import ModelConfig, ModelSpecError, Provider, register_provider
from probe_ui.registry import Registry

#: a baseline's rule: the label it answers a request with (the request has at least one label)
BaselineMode = Callable[[Request], str]

#: the baselines by name (``baseline/<name>``), in menu order
BASELINE_MODES: Registry[BaselineMode] = Registry("baseline", error=ModelSpecError, ordered=True)


@BASELINE_MODES.register("random")
def random_label(request: Request) -> str:
    """A label drawn uniformly, seeded by the run seed, variant, sample and prompt (reproducible in any order), and
    in a conversation by the turn: each answer after pushback is a draw of its own, as a guesser's would be."""
    from probe_ui.perturb.registry import derive_seed  # not at import: listing the providers needs no perturbation

    turn = sum(1 for m in request.messages if m.role == "assistant")
    seed = derive_seed(request.settings.seed or 0, request.variant_id, request.sample, request.prompt,
                       *([turn] if turn else []))
    return random.Random(seed).choice(request.labels)


@BASELINE_MODES.register("first")
def first_label(request: Request) -> str:
    """Always the first label (position bias)."""
    return request.labels[0]


@BASELINE_MODES.register("last")
def last_label(request: Request) -> str:
    """Always the last label (MedVH's escape option is always last)."""
    return request.labels[-1]


@register_provider
class BaselineProvider(Provider):
    name: ClassVar[str] = "baseline"
    default_concurrency: ClassVar[int] = 64
    takes_url: ClassVar[bool] = False  # answers without a server
    free: ClassVar[bool] = True
    # baseline/random draws by the variant, which the request cache's key leaves out: served from the cache, one
    # variant's draw would answer another that sends the same words (a pushback's first turn, the original's), and
    # what it answered would depend on which was stored first. A baseline costs nothing to ask again.
    cacheable: ClassVar[bool] = False
    #: the built-in baselines, ready to ask (a plugin's baseline is asked by its name)
    ready_models: ClassVar[tuple[str, ...]] = tuple(f"baseline/{m}" for m in BASELINE_MODES.loaded())
    #: a baseline answers with a label whatever the format; asked for json, it writes the label as the object
    answer_formats: ClassVar[tuple[str, ...]] = ("free", "json")

    def __init__(self, config: ModelConfig) -> None:
        self.pick = BASELINE_MODES.get(config.model)  # an unknown name: ModelSpecError listing the known ones
        super().__init__(config)

    async def generate(self, request: Request) -> Response:
        if not request.labels:
            return Response(text="", details={"note": "no labels to choose from (free-text question)"})
        label = self.pick(request)
        text = answer_format.reply(label) if answer_format.structured(request) else label
        if request.settings.answer_format == "confidence":  # a guesser that knows it guesses: 1 / the labels
            text = f"{label}\nConfidence: {round(100 / len(request.labels))}%"
        return Response(text=text, input_tokens=0, output_tokens=0, cost=0.0)
