"""A preset's item, whole: its ids for the picker, and one item with its images, chains, suites and
extras, for the Probe tab to ask exactly what the preset asks."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from probe_ui.errors import ProbeError
from probe_ui.images import CanonicalImage, LoadedImage
from probe_ui.items import Item


def preset_item_ids(path: str) -> list[str]:
    """The ids of a preset's items, for the item picker."""
    from probe_ui.presets import load_preset

    return [it.id for it in load_preset(path).items]


# ---- a preset item, whole ----------------------------------------------------------------------------------------
@dataclass
class LoadedItem:
    """Everything a preset asks of one item, for the Probe tab to show and ask exactly that."""

    item: Item
    images: tuple[CanonicalImage, ...]
    loaded: list[LoadedImage]
    steps: list[list[Any]]  # the preset's and the item's own perturbation chains, as step rows
    suites: tuple[str, ...]
    include_original: bool
    extra: dict[str, Any]  # attributes, tags, group: kept with the item when it is asked; its preset's name
    dropped: list[str] = field(default_factory=list)  # the item's own steps its preset could not use, and why

    @property
    def options_text(self) -> str:
        return "\n".join(self.item.options)


def load_preset_item(path: str, item_id: str, image_roots: tuple[str, ...] = ()) -> LoadedItem:
    """One item of a preset with all of it: question, options, answer, category, attributes, its images, the
    perturbation chains the preset applies to it (preset-wide ones that fit its tags, and its own), its suites
    and whether the preset asks the original."""
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import load_item_images

    if not path or not item_id:
        raise ProbeError("choose a preset and one of its items")
    p = load_preset(path, image_roots)
    it = next((i for i in p.items if i.id == item_id), None)
    if it is None:
        raise ProbeError(f"no item {item_id!r} in {path}")
    ims, loaded = load_item_images(it, p.image_roots)
    conditions = [c for c in p.conditions if c.applies_to(it)] + list(p.item_conditions.get(it.id, ()))
    rows = [[n, op, json.dumps(params)] for n, c in enumerate(conditions, 1) for op, params in c.steps]
    suites = tuple(dict.fromkeys([*p.suites, *p.item_suites.get(it.id, ())]))
    return LoadedItem(it, ims, loaded, rows, suites, p.include_original,
                      {"attributes": dict(it.attributes), "tags": list(it.tags), "group": it.group,
                       "preset": p.name},
                      list(p.step_errors.get(it.id, ())))
