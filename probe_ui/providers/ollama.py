"""Ollama through its OpenAI-compatible endpoint: ``ollama/llava`` → ``POST {OLLAMA_HOST}/v1/chat/completions``.

The address is the catalogue's ``base_url`` when given, else ``OLLAMA_HOST`` read the way the ``ollama`` command
reads it (``127.0.0.1:11434``, ``0.0.0.0``, ``http://host:port``, ``https://host``), else ``http://127.0.0.1:11434``.
No key is needed (``OLLAMA_API_KEY`` is sent when set, e.g. for a server behind an authenticating proxy).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from probe_ui.providers.base import ModelConfig, register_provider
from probe_ui.providers.openai_compat import OpenAIProvider, configured_base_url

DEFAULT_HOST = "http://127.0.0.1:11434"
HOST_ENV = "OLLAMA_HOST"


def ollama_root_url(host: str | None = None) -> str:
    """The server's root URL (no ``/v1``) from an ``OLLAMA_HOST``-style value (default: the environment's)."""
    value = (os.environ.get(HOST_ENV, "") if host is None else host).strip()
    if not value:
        return DEFAULT_HOST
    scheme, sep, rest = value.partition("://")
    if not sep:
        scheme, rest = "http", value
    default_port = {"http": 80, "https": 443}.get(scheme.lower(), 11434) if sep else 11434
    hostport, _, path = rest.partition("/")
    try:
        parts = urlsplit(f"//{hostport}")
        hostname, port = parts.hostname or "", parts.port
    except ValueError:  # a port that is not a number: fall back to the default, as ollama does
        hostname, port = hostport.rsplit(":", 1)[0].strip("[]"), None
    if hostname in ("", "0.0.0.0", "::"):  # a bind-everything address: connect to this machine
        hostname = "127.0.0.1"
    if ":" in hostname:
        hostname = f"[{hostname}]"
    path = f"/{path.strip('/')}" if path.strip("/") else ""
    return f"{scheme.lower()}://{hostname}:{port or default_port}{path}"


@register_provider
class OllamaProvider(OpenAIProvider):
    """A model pulled into a local Ollama (``ollama pull llava``), through Ollama's OpenAI-compatible API."""

    name = "ollama"
    default_concurrency = 4  # Ollama serves a few requests per model in parallel (OLLAMA_NUM_PARALLEL)
    local_server = True
    batch_api = None  # no batch API
    key_required = False
    key_env = "OLLAMA_API_KEY"
    own_hosts = ()
    sdk_base_url_env = None
    connect_hint = "is Ollama running? (ollama serve; or set OLLAMA_HOST)"

    @classmethod
    def base_url_for(cls, config: ModelConfig) -> str | None:
        return configured_base_url(config) or ollama_root_url() + "/v1"

    @classmethod
    def same_model(cls, model: str) -> str:
        return model.removesuffix(":latest")  # Ollama reads a name without a tag as its ``latest``
