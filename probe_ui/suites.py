"""From a preset to variants: load each item's images once, then apply every perturbation condition.

Loading errors are per item: a missing or unreadable image is reported for that item and the rest go on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from probe_ui.images import CanonicalImage, ImageError, LoadedImage, load_image
from probe_ui.items import Item, Variant, original_variant
from probe_ui.perturb import PerturbationError, apply, derive_seed
from probe_ui.presets import Preset, PresetError, resolve_image


@dataclass
class ItemError:
    source: str
    item_id: str
    message: str


@dataclass
class Expansion:
    variants: list[Variant] = field(default_factory=list)
    errors: list[ItemError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def load_item_images(item: Item, roots: tuple[str, ...]) -> tuple[tuple[CanonicalImage, ...], list[LoadedImage]]:
    """Load an item's images; raise ``ImageError``/``PresetError`` naming the item and file."""
    where = f"{item.source}: item '{item.id}'"
    loaded = []
    for src in item.images:
        path = resolve_image(src, roots, where=where)
        try:
            loaded.append(load_image(path, **src.load_options()))
        except ImageError as exc:
            raise ImageError(f"{where}: {exc}") from None
    return tuple(li.image for li in loaded), loaded


def expand(preset: Preset, seed: int) -> Expansion:
    """All variants of a preset: the original of each item (unless switched off) and one per condition."""
    out = Expansion()
    for item in preset.items:
        try:
            images, loaded = load_item_images(item, preset.image_roots)
        except (ImageError, PresetError) as exc:
            out.errors.append(ItemError(preset.path, item.id, str(exc)))
            continue
        for li in loaded:
            out.warnings.extend(f"{preset.path}: item '{item.id}': {w}" for w in li.warnings)
        base = original_variant(item, images)
        if preset.include_original:
            out.variants.append(base)
        for cond in preset.conditions:
            if not cond.applies_to(item):
                continue
            try:
                out.variants.append(apply_condition(base, cond.name, cond.steps, seed))
            except PerturbationError as exc:
                out.errors.append(ItemError(preset.path, item.id, f"{preset.path}: item '{item.id}': "
                                                                  f"perturbation '{cond.name}': {exc}"))
    return out


def apply_condition(base: Variant, name: str, steps: tuple[tuple[str, dict], ...], seed: int) -> Variant:
    """Apply a chain of steps; each step's seed derives from the run seed, item, condition and position."""
    v = base
    for i, (op, params) in enumerate(steps):
        v = apply(v, op, params, derive_seed(seed, base.item_id, name, i))
    return v.evolve(condition=name)
