"""How each architecture family is prompted, registered by the ``model_type`` of its config.

Most families need nothing of their own: their processor renders the conversation with the checkpoint's chat
template and batches images itself (LLaVA 1.5, LLaVA-NeXT, Gemma 3 / MedGemma, Idefics3 / SmolVLM, Qwen2-VL,
Qwen2.5-VL, ...), which :class:`~probe_ui.providers.hf.families.base.Family` does. A family that differs (no chat
template, other token types for scored text) subclasses it in one file here (or a plugin,
:mod:`probe_ui.registry`) and registers it with :func:`register_family`; this package is walked, so there is no
list to extend.
"""

from __future__ import annotations

from typing import TypeVar

from probe_ui.providers.hf.families.base import Family
from probe_ui.registry import Registry

#: config.model_type → its Family subclass; anything else uses Family
FAMILIES: Registry[type[Family]] = Registry("hf model family", packages=("probe_ui.providers.hf.families",),
                                            key="model_type")

F = TypeVar("F", bound=type[Family])


def register_family(cls: F) -> F:
    """Class decorator: the prompting rules of checkpoints whose config's ``model_type`` is the class's
    ``model_type`` (:meth:`Registry.put`)."""
    return FAMILIES.put(cls)  # type: ignore[no-any-return]


def family_for(model_type: str) -> Family:
    """The prompting rules of a ``model_type`` (the default family for any not registered)."""
    cls = FAMILIES.find(model_type)
    return Family() if cls is None else cls()


__all__ = ["FAMILIES", "Family", "family_for", "register_family"]
