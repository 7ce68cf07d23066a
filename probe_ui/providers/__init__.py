"""Providers, registered lazily by spec prefix: ``openai/gpt-4o`` → ``OpenAIProvider``.

Each entry is ``"module:Class"`` so that an SDK is imported only when its provider is used; a provider whose SDK
is missing is reported as unavailable instead of breaking the tool. Add a provider with one file and one line here;
a hosted OpenAI-compatible service with one line in :data:`probe_ui.providers.hosted.HOSTED`.
"""

from __future__ import annotations

import importlib

from probe_ui.providers.base import ModelConfig, ModelSpecError, Provider, ProviderError
from probe_ui.providers.hosted import HOSTED

PROVIDERS: dict[str, str] = {
    "anthropic": "probe_ui.providers.anthropic:AnthropicProvider",
    "baseline": "probe_ui.providers.baselines:BaselineProvider",
    "hf": "probe_ui.providers.hf:HFLocalProvider",
    "ollama": "probe_ui.providers.ollama:OllamaProvider",
    "openai": "probe_ui.providers.openai_compat:OpenAIProvider",
    "vllm": "probe_ui.providers.openai_compat:VLLMProvider",
    **{name: f"probe_ui.providers.hosted:{name}" for name in HOSTED},
}


def provider_class(name: str) -> type[Provider]:
    try:
        target = PROVIDERS[name]
    except KeyError:
        raise ModelSpecError(f"unknown provider '{name}'; known: {', '.join(sorted(PROVIDERS))}") from None
    module, cls = target.split(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except AttributeError:
        raise ImportError(f"{module} has no {cls}") from None


def create(config: ModelConfig) -> Provider:
    """A ready provider for one model; several base URLs make a replica set. Raises ModelSpecError with a reason."""
    cls = provider_class(config.provider)
    if isinstance(config.base_url, tuple) and len(config.base_url) > 1:
        from dataclasses import replace

        from probe_ui.providers.replicas import ReplicaSet

        return ReplicaSet(config, [cls(replace(config, base_url=url)) for url in config.base_url])
    return cls(config)


__all__ = ["PROVIDERS", "ModelConfig", "ModelSpecError", "Provider", "ProviderError", "create", "provider_class"]
