"""Before a sweep runs: how many calls it will make, and what it may cost where the catalogue knows prices.

``calls = sum over items of (conditions of the item + its original) x models x samples``: the cells
:func:`probe_ui.runner.run_batch` plans for the same items and suites (a condition named twice is asked once).
Answers already in the run, or in the deterministic-request cache, are not asked again, so a re-run costs less
than the estimate says.

The cost is an estimate per call, from the catalogue's ``price_input_per_m`` / ``price_output_per_m`` (USD per
million tokens), with tokens estimated before anything is sent:

- **text**: the characters of the item's rendered prompt (system and user text, few-shot turns included) / 4,
  rounded up: the usual rule of thumb for English with GPT-style tokenizers;
- **images**: each image of the item at the size it would be sent (shrunk to the model's ``max_image_side`` or
  its provider's limit), then Anthropic's rule for ``anthropic/`` models (width x height / 750) and OpenAI's
  high-detail tiles for every other provider (fit in 2048 x 2048, shortest side at most 768, then 85 + 170 per
  512-px tile);
- **output**: the call's ``max_tokens`` (the catalogue's, else the prompt template's): an upper bound, since a
  short answer stops early.

Every condition of an item is costed like its original (the severity suite's degradations keep the image size
and the text; a rotation by an angle that is not a multiple of 90 degrees enlarges the canvas a little, and
chain-of-thought or few-shot conditions send more text, so those cost somewhat more). Baselines cost nothing;
a model without prices (a local server, an ``hf/`` model) is counted but not costed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from probe_ui.items import Variant
from probe_ui.messages import Request
from probe_ui.presets import Condition, Preset
from probe_ui.providers.base import ModelConfig

CHARS_PER_TOKEN = 4


@dataclass
class ModelEstimate:
    model: str
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None  # None: the catalogue gives no price for this model, or it cannot run here
    #: why this model cannot be asked here (probe_ui.providers.readiness); its calls would fail
    unusable: str | None = None
    stored: int = 0  # answers the run holds already: not asked again, not counted in ``calls`` (without_stored)


@dataclass
class SweepPlan:
    items: int
    variants: int  # distinct (item, condition) pairs, originals included
    models: int
    samples: int
    calls: int
    per_model: list[ModelEstimate] = field(default_factory=list)
    items_not_loaded: list[str] = field(default_factory=list)

    @property
    def cost_usd(self) -> float | None:
        """The estimated cost of the priced models together; None when no model has a price."""
        known = [m.cost_usd for m in self.per_model if m.cost_usd is not None]
        return round(sum(known), 6) if known else None

    @property
    def unpriced(self) -> list[str]:
        return [m.model for m in self.per_model if m.cost_usd is None and m.unusable is None]

    @property
    def unusable(self) -> list[str]:
        """The models that cannot be asked here: not priced, and every call of theirs would fail."""
        return [m.model for m in self.per_model if m.unusable is not None]

    def text(self) -> str:
        """One line for people: what will be asked and what it may cost."""
        line = (f"{self.variants:,} variants ({self.items} items) x {self.models} models"
                + (f" x {self.samples} samples" if self.samples > 1 else "") + f" = {self.calls:,} calls")
        stored = sum(m.stored for m in self.per_model)
        if stored:
            line += f" to make ({stored:,} answers already stored are not asked again)"
        if self.cost_usd is not None:
            line += f"; estimated cost at most ${self.cost_usd:,.2f}"
        if self.unpriced:
            line += f" (no price known for {', '.join(self.unpriced)})"
        if self.unusable:
            line += f"; cannot run here, not priced: {', '.join(self.unusable)}"
        if self.items_not_loaded:
            line += f"; {len(self.items_not_loaded)} items could not be loaded"
        return line


def image_tokens(width: int, height: int, provider: str) -> int:
    """Estimated input tokens of one image as sent: the provider's own count (:meth:`Provider.image_tokens`)."""
    from probe_ui.providers import provider_class

    return provider_class(provider).image_tokens(width, height)


def _sent_size(width: int, height: int, max_side: int | None) -> tuple[int, int]:
    if not max_side or max(width, height) <= max_side:
        return width, height
    s = max_side / max(width, height)
    return max(1, round(width * s)), max(1, round(height * s))


def request_tokens(v: Variant, model: ModelConfig, prompt: str | None = None,
                   answer_format: str = "free") -> tuple[int, int]:
    """(input, output) tokens estimated for asking ``model`` about ``v`` (module doc); the reply budget is the one a
    batch in ``answer_format`` gives it (:func:`probe_ui.runner.generation_settings`)."""
    from probe_ui.runner import variant_cells

    req = next(variant_cells(v, [model], prompt, 0, answer_format=answer_format)).request  # as a batch sends it
    return request_tokens_of(req, model)


def request_tokens_of(req: Request, model: ModelConfig) -> tuple[int, int]:
    """(input, output) tokens estimated for sending ``req`` to ``model`` (module doc): what a batch's spend cap
    (:mod:`probe_ui.runner.spend`) reserves before each request."""
    from probe_ui.messages import ImagePart, TextPart
    from probe_ui.providers import provider_class

    try:
        limit = model.max_image_side or provider_class(model.provider).max_image_side
    except ImportError:
        limit = model.max_image_side
    chars, images = 0, 0
    for m in req.messages:
        for part in m.content:
            if isinstance(part, TextPart):
                chars += len(part.text)
            elif isinstance(part, ImagePart):
                images += image_tokens(*_sent_size(part.image.width, part.image.height, limit), model.provider)
    return math.ceil(chars / CHARS_PER_TOKEN) + images, req.settings.max_tokens


def _free(provider: str) -> bool:
    """Whether the provider's answers cost nothing (:attr:`Provider.free`)."""
    from probe_ui.providers import provider_class

    return provider_class(provider).free


def _costs_nothing(cfg: ModelConfig) -> bool:
    """A free provider (the baselines), or an entry priced for its provider's own API (no ``base_url`` of its own)
    whose calls go to a server on this machine (``OPENAI_BASE_URL=http://127.0.0.1:8000/v1`` under the shipped
    ``gpt-4o`` entry): a local server is not that provider. An entry with its own ``base_url`` and prices keeps
    them (its prices were written for that server)."""
    if _free(cfg.provider):
        return True
    if cfg.base_url:
        return False
    from probe_ui.runner.spend import costs_nothing

    return costs_nothing(cfg)


def without_stored(plan: SweepPlan, stored: dict[str, int]) -> dict[str, int]:
    """Take the answers a run already holds (``stored``: model name → count) off ``plan``'s calls, tokens and cost,
    as the runner skips them when it resumes; returns what is left of ``stored`` for the next preset's plan."""
    left = dict(stored)
    for e in plan.per_model:
        done = min(e.calls, left.get(e.model, 0))
        if not done:
            continue
        left[e.model] -= done
        share = (e.calls - done) / e.calls
        e.calls, e.stored = e.calls - done, done
        e.input_tokens, e.output_tokens = round(e.input_tokens * share), round(e.output_tokens * share)
        if e.cost_usd is not None:
            e.cost_usd = round(e.cost_usd * share, 6)
    plan.calls = sum(e.calls for e in plan.per_model)
    return left


def _models(specs: Sequence[str], extra: dict[str, ModelConfig] | None) -> list[ModelConfig]:
    from probe_ui import catalogue

    cat = catalogue.load_catalogue() | dict(extra or {})
    out: list[ModelConfig] = []
    for spec in dict.fromkeys(s.strip() for s in specs if s and s.strip()):
        cfg = catalogue.resolve(spec, cat)
        if cfg.name not in {c.name for c in out}:
            out.append(cfg)
    return out


def plan_sweep(originals: Sequence[Variant], models: Sequence[str], *, conditions_per_item: Sequence[Sequence[
               Condition]] | None = None, suites: Sequence[str] = (), conditions: Sequence[Condition] = (),
               include_original: bool = True, samples: int = 1, prompt: str | None = None,
               extra_models: dict[str, ModelConfig] | None = None, answer_format: str = "free") -> SweepPlan:
    """The calls and estimated cost of asking ``models`` every variant of ``originals``: each original (unless
    ``include_original`` is off) and, per item, ``conditions_per_item[i]`` when given, else the ``conditions``
    (e.g. :func:`probe_ui.presets.suites.sweep_conditions` for the Stress tab's perturbation and range) plus those of
    the named ``suites``. Conditions are counted by name (one named twice is asked once), nothing is perturbed and
    nothing is sent. Raises ModelSpecError for an unknown model and SuiteError for an unknown suite."""
    from probe_ui import catalogue
    from probe_ui.perturb import PerturbContext
    from probe_ui.presets.suites import BundledImages, get_suite

    cfgs = _models(models, extra_models)
    chosen = [get_suite(s) for s in dict.fromkeys(suites)]
    ctx = PerturbContext(pool=tuple(originals), images=BundledImages())
    per_item: list[int] = []
    for i, base in enumerate(originals):
        conds = list(conditions_per_item[i]) if conditions_per_item is not None else \
            list(conditions) + [c for s in chosen for c in s.for_variant(base, ctx)]
        per_item.append(len({c.name for c in conds}) + (1 if include_original else 0))
    samples = max(1, int(samples))
    estimates = []
    for cfg in cfgs:
        tin = tout = 0
        for base, n in zip(originals, per_item):
            if not n:
                continue
            i_tok, o_tok = request_tokens(base, cfg, prompt, answer_format)
            tin += i_tok * n * samples
            tout += o_tok * n * samples
        calls = sum(per_item) * samples
        unusable = catalogue.availability(cfg)
        cost = None if unusable else 0.0 if _costs_nothing(cfg) else cfg.cost(tin, tout)
        estimates.append(ModelEstimate(cfg.name, calls, tin, tout, None if cost is None else round(cost, 6),
                                       unusable))
    variants = sum(per_item)
    return SweepPlan(items=len(originals), variants=variants, models=len(cfgs), samples=samples,
                     calls=variants * len(cfgs) * samples, per_model=estimates)


def plan_preset_sweep(preset: Preset, models: Sequence[str], *, suites: Sequence[str] = (),
                      item_ids: Sequence[str] = (), samples: int = 1, prompt: str | None = None,
                      extra_models: dict[str, ModelConfig] | None = None, answer_format: str = "free") -> SweepPlan:
    """:func:`plan_sweep` for a preset (all its items, or ``item_ids``) with the conditions ``probe-ui batch`` /
    :func:`probe_ui.stress.run_stress` would ask: the preset's own, its suites and ``suites``. Items whose images
    cannot be loaded are listed in ``items_not_loaded`` and not counted."""
    from probe_ui.perturb import PerturbContext
    from probe_ui.presets.suites import BundledImages, get_suite, item_conditions

    chosen = [get_suite(s) for s in dict.fromkeys([*preset.suites, *suites])]
    originals, loaded_items, failed = load_originals(preset, item_ids)
    ctx = PerturbContext(pool=tuple(originals), images=BundledImages())
    conds = [item_conditions(preset, it, base, chosen, ctx) for it, base in zip(loaded_items, originals)]
    plan = plan_sweep(originals, models, conditions_per_item=conds, include_original=preset.include_original,
                      samples=samples, prompt=prompt or preset.prompt, extra_models=extra_models,
                      answer_format=answer_format)
    plan.items_not_loaded = failed
    return plan


def load_originals(preset: Preset, item_ids: Sequence[str] = ()) -> tuple[list[Variant], list[Any], list[str]]:
    """The unperturbed variant of each of a preset's items (all, or ``item_ids``), their items, and a line for each
    item whose images could not be loaded (left out). Each image file is loaded once however many items name it
    (:class:`~probe_ui.presets.suites.ImageFiles`, as a batch loads them): a plan of 2,000 items on 13 images decoded
    and PNG-encoded 2,000 images, and cost three times the CPU of the batch it planned (issue 50)."""
    from probe_ui.images import ImageError
    from probe_ui.items import original_variant
    from probe_ui.presets import PresetError
    from probe_ui.presets.suites import ImageFiles, load_item_images

    files = ImageFiles()
    wanted = set(item_ids)
    originals, loaded, failed = [], [], []
    for item in (it for it in preset.items if not wanted or it.id in wanted):
        try:
            images, _ = load_item_images(item, preset.image_roots, files)
        except (ImageError, PresetError) as exc:
            failed.append(str(exc))
            continue
        originals.append(original_variant(item, images))
        loaded.append(item)
    return originals, loaded, failed


def plan_dict(plan: SweepPlan) -> dict[str, Any]:
    """The plan as plain JSON types (for a page or ``--json``)."""
    return {"items": plan.items, "variants": plan.variants, "models": plan.models, "samples": plan.samples,
            "calls": plan.calls, "cost_usd": plan.cost_usd, "unpriced": plan.unpriced, "unusable": plan.unusable,
            "items_not_loaded": plan.items_not_loaded, "text": plan.text(),
            "per_model": [vars(m) for m in plan.per_model]}
