"""Hosted services that speak the OpenAI chat-completions wire format: one small class each.

``gemini/gemini-2.5-flash`` asks Google's OpenAI-compatible endpoint with ``GEMINI_API_KEY``; nothing else is
needed. Each service's key goes only to its own host (a catalogue entry that points the same provider at another
``base_url`` must name its key in ``api_key_env``), and no service ever receives ``OPENAI_API_KEY``: that key
belongs to :class:`~probe_ui.providers.openai_compat.OpenAIProvider`.

Add a service with one class (here, or in a file of its own in this package or a plugin)::

    @register_provider
    class MyService(HostedService):
        name = "myservice"
        default_base_url = "https://api.example.com/v1"
        key_env = "MYSERVICE_API_KEY"
"""

from __future__ import annotations

from typing import Any, ClassVar

from probe_ui.providers import gemini_batch
from probe_ui.providers.base import register_provider
from probe_ui.providers.openai_compat import OpenAIProvider
from probe_ui.providers.sdk import host_of


class HostedService(OpenAIProvider):
    """A model of a hosted OpenAI-compatible service: its base URL and key variable are all a subclass sets; the
    key is required and goes only to the service's own host."""

    key_required: ClassVar[bool] = True
    sdk_base_url_env: ClassVar[str | None] = None
    openai_style: ClassVar[bool] = False  # the service's URL is given whole
    #: none assumed: a service's batch API, where it has one, is not OpenAI's (Gemini's batch mode is its own)
    batch_api: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.default_base_url:
            cls.own_hosts = (host_of(cls.default_base_url),)
        if "__doc__" not in cls.__dict__ or not cls.__doc__:
            cls.__doc__ = f"A model of the hosted service '{cls.name}' ({cls.default_base_url}), with the key in " \
                          f"{cls.key_env}."


@register_provider
class GeminiProvider(HostedService):
    """A model of the hosted service 'gemini' (https://generativelanguage.googleapis.com/v1beta/openai/), with the key
    in GEMINI_API_KEY; ``--provider-batch`` sends its cells through Gemini's own batch mode
    (:mod:`probe_ui.providers.gemini_batch`, on the same host without ``openai/``)."""

    name = "gemini"
    default_base_url = "https://generativelanguage.googleapis.com/v1beta/openai/"
    key_env = "GEMINI_API_KEY"
    batch_api: ClassVar[str | None] = gemini_batch.GeminiBatches.name


@register_provider
class GroqProvider(HostedService):
    name = "groq"
    default_base_url = "https://api.groq.com/openai/v1"
    key_env = "GROQ_API_KEY"


@register_provider
class OpenrouterProvider(HostedService):
    name = "openrouter"
    default_base_url = "https://openrouter.ai/api/v1"
    key_env = "OPENROUTER_API_KEY"


@register_provider
class TogetherProvider(HostedService):
    name = "together"
    default_base_url = "https://api.together.xyz/v1"
    key_env = "TOGETHER_API_KEY"


__all__ = ["GeminiProvider", "GroqProvider", "HostedService", "OpenrouterProvider", "TogetherProvider"]
