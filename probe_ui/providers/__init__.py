"""Providers, registered lazily by spec prefix: ``openai/gpt-4o`` → ``OpenAIProvider``.

Each entry is ``"module:Class"`` so that an SDK is imported only when its provider is used; a provider whose SDK
is missing is reported as unavailable instead of breaking the tool. Add a provider with one file and one line here.
"""

from __future__ import annotations

import importlib

from probe_ui.providers.base import ModelConfig, ModelSpecError, Provider, ProviderError

PROVIDERS: dict[str, str] = {
    "baseline": "probe_ui.providers.baselines:BaselineProvider",
    "openai": "probe_ui.providers.openai_compat:OpenAIProvider",
}


def provider_class(name: str) -> type[Provider]:
    try:
        target = PROVIDERS[name]
    except KeyError:
        raise ModelSpecError(f"unknown provider '{name}'; known: {', '.join(sorted(PROVIDERS))}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def create(config: ModelConfig) -> Provider:
    """A ready provider for one model; raises ModelSpecError/ProviderError with a clear reason."""
    cls = provider_class(config.provider)
    return cls(config)


__all__ = ["PROVIDERS", "ModelConfig", "ModelSpecError", "Provider", "ProviderError", "create", "provider_class"]
