"""How each architecture family is prompted, registered by the ``model_type`` of its config.

Most families need nothing of their own: their processor renders the conversation with the checkpoint's chat
template and batches images itself (LLaVA 1.5, LLaVA-NeXT, Gemma 3 / MedGemma, Idefics3 / SmolVLM, Qwen2-VL,
Qwen2.5-VL, ...), which :class:`~probe_ui.providers.hf.families.base.Family` does. A family that differs (no chat
template, other token types for scored text) subclasses it in one file here and adds one line to ``FAMILIES``.
"""

from __future__ import annotations

import importlib

from probe_ui.providers.hf.families.base import Family

#: config.model_type → "module:Class"; anything else uses Family
FAMILIES: dict[str, str] = {
    "paligemma": "probe_ui.providers.hf.families.paligemma:PaliGemma",
}


def family_for(model_type: str) -> Family:
    """The prompting rules of a ``model_type`` (the default family for any not registered)."""
    target = FAMILIES.get(model_type)
    if target is None:
        return Family()
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)()


__all__ = ["FAMILIES", "Family", "family_for"]
