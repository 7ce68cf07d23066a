"""Whether a model can really be asked here, checked once and before any cell is sent.

A provider's own ``unavailable_reason`` says what it knows without the network (an SDK or torch missing, a key
variable unset). This module adds the two things that need a quick look outside the process, so that ``probe-ui
models``, the app's model lists, the demo, ``batch`` and ``--dry-run`` never offer as ready a model whose every
cell would then fail:

- **a base URL that does not answer** (or answers a redirect, which probe-ui never follows:
  :mod:`probe_ui.security.outbound`): a catalogue entry's ``base_url``, or the SDK's own variable
  (``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``) when it points away from the provider's own host, or a local
  server's default address (vLLM, Ollama). One quick request, remembered for :data:`TTL_S` seconds, so a batch of
  twelve cells reports a dead server once, naming its URL, instead of twelve times.
- **an** ``hf/`` **model whose weights are not here**: ready when the Hub id is in the local Hugging Face cache
  (``huggingface_hub.try_to_load_from_cache``: nothing is downloaded) or the Hub answers; otherwise the reason
  names the one command that fixes it, ``hf download REPO``.

``provider/<model>`` rows of ``probe-ui models`` (any model of a provider) are ready only when a model of that
provider could be asked: its key is set, or its base-URL variable names a server that answers.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from probe_ui.providers.base import ModelConfig

#: how long a look at a server, the Hub or the import path is trusted: one listing, one batch's check, one page
#: load (a server started, or a package installed, a moment later is seen at the next)
TTL_S = 5.0
#: how long one look may take: a server answers in milliseconds, a port nobody listens on refuses at once; the
#: margin is for a busy machine, where a live server must not be reported dead
TIMEOUT_S = 3.0
#: the placeholder model of a ``provider/<model>`` row
PLACEHOLDER = "<model>"

_seen: dict[str, tuple[float, str | None]] = {}
_lock = threading.Lock()


def remembered(key: str, look: Any) -> str | None:
    """``look()`` (None or a reason), done at most once per :data:`TTL_S` per key and shared between threads."""
    now = time.monotonic()
    with _lock:
        hit = _seen.get(key)
        if hit is not None and now - hit[0] < TTL_S:
            return hit[1]
    answer = look()
    with _lock:
        _seen[key] = (time.monotonic(), answer)
    return answer


def forget() -> None:
    """Drop every remembered look (tests; a user who has just started a server)."""
    with _lock:
        _seen.clear()


# ---- servers ---------------------------------------------------------------------------------------------------
def server_problem(url: str) -> str | None:
    """None when something answers HTTP at ``url`` (any status: a key may be wanted), else "no server answering at
    URL (why)". Remembered per URL."""
    from probe_ui.providers.discovery import server_answers

    return remembered(f"url:{url}", lambda: server_answers(url, timeout=TIMEOUT_S))


def _checked_url(cls: type, config: ModelConfig) -> str | None:
    """The base URL this model's calls would go to when it is one to check: configured for this model, named by the
    SDK's variable, or a local server's default; None for the provider's own public host (its key decides)."""
    from probe_ui.providers.sdk import SDKProvider, configured_base_url, host_of

    if not (isinstance(cls, type) and issubclass(cls, SDKProvider)):
        return None
    url = configured_base_url(config)
    if not url and getattr(cls, "local_server", False):
        url = cls.base_url_for(config)
    if not url and cls.sdk_base_url_env:
        url = os.environ.get(cls.sdk_base_url_env, "").strip() or None
    if not url or (cls.own_hosts and host_of(url) in cls.own_hosts):
        return None
    return url


# ---- hf/ weights -----------------------------------------------------------------------------------------------
def hub_problem() -> str | None:
    """None when the Hugging Face Hub (``HF_ENDPOINT``) can be reached (a TCP connection opens; behind a proxy, yes
    is assumed), else why not, in a few words. ``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE`` mean no."""
    if any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes", "on")
           for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")):
        return "HF_HUB_OFFLINE is set"

    return remembered("hub", lambda: hub_unreachable(TIMEOUT_S))


def hub_unreachable(timeout_s: float) -> str | None:
    """None when a TCP connection to the Hub endpoint (``HF_ENDPOINT``) opens within ``timeout_s``, else why not.
    Behind a proxy the direct connection says nothing, so the answer is yes and the download is left to try. Not
    remembered (the loader asks it once per load; :func:`hub_problem` remembers)."""
    if any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        return None
    url = urlsplit(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    if not url.hostname:
        return None
    try:
        socket.create_connection((url.hostname, url.port or (443 if url.scheme == "https" else 80)),
                                 timeout=timeout_s).close()
    except OSError as exc:
        return f"{url.hostname}: {exc.strerror or type(exc).__name__}"
    return None


def _hub_cache_folder(repo_id: str) -> Path:
    """Where huggingface_hub keeps ``repo_id``, so that a model never downloaded is known without importing
    huggingface_hub and httpx (a quarter of ``probe-ui models``' time): its own setting once it is imported, else
    the folder it would take from the environment (its order of variables)."""
    constants = sys.modules.get("huggingface_hub.constants")
    root = getattr(constants, "HF_HUB_CACHE", None) or (
        os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
        or os.path.join(os.environ.get("HF_HOME")
                        or os.path.join(os.environ.get("XDG_CACHE_HOME") or "~/.cache", "huggingface"), "hub"))
    return Path(os.path.expandvars(os.path.expanduser(root))) / f"models--{repo_id.replace('/', '--')}"


def hub_cached(repo_id: str) -> bool:
    """Whether ``repo_id``'s config.json is in the local Hugging Face cache (no download, no network)."""
    if not _hub_cache_folder(repo_id).is_dir():
        return False
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # a dependency of gradio and transformers: always there in practice
        return False
    try:
        return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)
    except Exception:  # noqa: BLE001 - a malformed id is simply not cached
        return False


def hf_weights_problem(model: str) -> str | None:
    """None when ``hf/<model>`` can be loaded here without surprise: a local folder, a Hub id in the cache, or a Hub
    id while the Hub answers; else the reason, with the command that fixes it."""
    model = model.strip()
    if not model or model == PLACEHOLDER or os.path.exists(os.path.expanduser(model)):
        return None  # a folder (or none named): the provider's own check says what is wrong with it
    if hub_cached(model):
        return None
    why = hub_problem()
    if why is None:
        return None
    return (f"the weights of {model} are not on this machine and the Hub cannot be reached ({why}); download "
            f"them first with  hf download {model}  or give a local folder")


# ---- one model -------------------------------------------------------------------------------------------------
def problem(cls: type, config: ModelConfig) -> str | None:
    """What stops ``config`` from being asked here beyond what its provider class already said (None: ready).
    Called after ``cls.unavailable_reason(config)`` found nothing."""
    if config.provider == "hf":
        return hf_weights_problem(config.model)
    url = _checked_url(cls, config)
    if url is None:
        return None
    down = server_problem(url)
    if down is None:
        return None
    hint = getattr(cls, "connect_hint", "")
    return f"{down}{'; ' + hint if hint else ''}"


def placeholder_problem(provider: str) -> str | None:
    """Why "any model of ``provider``" (the ``provider/<model>`` row) cannot be asked here, or None: the provider's
    own reason for a placeholder model (a key not set), then its base URL (a server that does not answer)."""
    from probe_ui.providers import provider_class

    cls = provider_class(provider)
    config = ModelConfig(name=f"{provider}/{PLACEHOLDER}", provider=provider, model=PLACEHOLDER)
    reason = cls.unavailable_reason(config)
    return reason if reason is not None else problem(cls, config)
