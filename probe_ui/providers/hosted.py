"""Hosted services that speak the OpenAI chat-completions wire format: one line each.

``gemini/gemini-2.5-flash`` asks Google's OpenAI-compatible endpoint with ``GEMINI_API_KEY``; nothing else is
needed. Each service's key goes only to its own host (a catalogue entry that points the same provider at another
``base_url`` must name its key in ``api_key_env``), and no service ever receives ``OPENAI_API_KEY``: that key
belongs to :class:`~probe_ui.providers.openai_compat.OpenAIProvider`.

Add a service with one line in :data:`HOSTED` (the provider name, its base URL and its key variable).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

#: provider name → (base URL, key variable)
HOSTED: dict[str, tuple[str, str]] = {
    "gemini": ("https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"),
    "groq": ("https://api.groq.com/openai/v1", "GROQ_API_KEY"),
    "openrouter": ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "together": ("https://api.together.xyz/v1", "TOGETHER_API_KEY"),
}


@lru_cache(maxsize=None)
def hosted_provider(name: str) -> type:
    """The provider class of a hosted service in :data:`HOSTED` (made once, on first use)."""
    from probe_ui.providers.openai_compat import OpenAIProvider
    from probe_ui.providers.sdk import host_of

    base_url, key_env = HOSTED[name]
    attrs = {"__doc__": f"A model of the hosted service '{name}' ({base_url}), with the key in {key_env}.",
             "__module__": __name__, "name": name, "default_base_url": base_url, "key_env": key_env,
             "own_hosts": (host_of(base_url),), "sdk_base_url_env": None, "key_required": True}
    return type(f"{name.capitalize()}Provider", (OpenAIProvider,), attrs)


def __getattr__(name: str) -> Any:
    """``probe_ui.providers.hosted:<name>`` (how :data:`probe_ui.providers.PROVIDERS` names them)."""
    if name in HOSTED:
        return hosted_provider(name)
    raise AttributeError(name)


__all__ = ["HOSTED", "hosted_provider"]
