"""Providers, found by spec prefix: ``openai/gpt-4o`` → the class registered as "openai".

Every provider class registers itself (:func:`~probe_ui.providers.base.register_provider`) in the module that
defines it; the modules of this package are found by walking it, and plugins by ``PROBE_UI_PLUGINS``
(:mod:`probe_ui.registry`). A provider imports its SDK only when a model of it is used, so a provider whose SDK is
missing is reported as unavailable instead of breaking the tool. What the rest of probe-ui needs to know about a
provider (whether it takes a URL, speaks the OpenAI format, costs nothing, how many tokens an image costs, which
models are ready without setup) is a class attribute or method of :class:`~probe_ui.providers.base.Provider`.
Add a provider with one file; a hosted OpenAI-compatible service with one class (:mod:`probe_ui.providers.hosted`).
"""

from __future__ import annotations

from probe_ui.providers.base import PROVIDERS, ModelConfig, ModelSpecError, Provider, ProviderError, \
    all_ready_models, register_provider


def provider_class(name: str) -> type[Provider]:
    """The provider class registered as ``name``; :class:`ModelSpecError` naming the known ones otherwise."""
    return PROVIDERS.get(name)


def url_providers() -> list[str]:
    """The providers whose models live on a server a person can point at (an endpoint can be added for them)."""
    return [n for n in PROVIDERS.names() if PROVIDERS.get(n).takes_url]


def create(config: ModelConfig) -> Provider:
    """A ready provider for one model; several base URLs make a replica set. Raises ModelSpecError with a reason."""
    cls = provider_class(config.provider)
    if isinstance(config.base_url, tuple) and len(config.base_url) > 1:
        from dataclasses import replace

        from probe_ui.providers.replicas import ReplicaSet

        return ReplicaSet(config, [cls(replace(config, base_url=url)) for url in config.base_url])
    return cls(config)


__all__ = ["PROVIDERS", "ModelConfig", "ModelSpecError", "Provider", "ProviderError", "all_ready_models", "create",
           "provider_class", "register_provider", "url_providers"]
