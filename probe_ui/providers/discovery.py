"""Find models on local servers without any configuration: Ollama's vision models, and the models of any
OpenAI-compatible server (vLLM, LM Studio, llama.cpp, a proxy) named in ``PROBE_UI_OPENAI_SERVERS``.

Discovery never raises and never waits long: a server that is not there (connection refused) gives an empty list
at once, one that does not answer within ``timeout`` gives an empty list after it, and one that answers something
unexpected gives an empty list and a logged warning. Keys are sent only when given and never logged.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
import os
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from probe_ui.providers.base import ModelConfig
from probe_ui.providers.ollama import ollama_root_url
from probe_ui.security import outbound
from probe_ui.security.redact import public_url

log = logging.getLogger(__name__)

#: comma-separated base URLs of OpenAI-compatible servers whose models ``probe-ui models`` lists
SERVERS_ENV = "PROBE_UI_OPENAI_SERVERS"
#: set to 0 / false / no / off to skip discovery in ``list_models()``
DISCOVER_ENV = "PROBE_UI_DISCOVER"
MAX_BODY_BYTES = 8 * 1024 * 1024
#: what marks an Ollama model as a vision model when the server predates ``capabilities`` (Ollama < 0.6.4)
VISION_FAMILIES = ("clip", "mllama")


@dataclass(frozen=True)
class DiscoveredModel:
    """A model a server says it serves. ``vision``: True/False when the server tells, None when it cannot."""

    spec: str  # e.g. "ollama/llava:7b"
    provider: str  # a key of probe_ui.providers.PROVIDERS
    model: str
    base_url: str  # the OpenAI-compatible base URL to send requests to
    vision: bool | None
    source: str  # where it was found, for people: "Ollama at http://127.0.0.1:11434"

    def config(self) -> ModelConfig:
        """A catalogue entry for this model on this server."""
        return ModelConfig(name=self.spec, provider=self.provider, model=self.model, base_url=self.base_url,
                           description=f"found on {self.source}")


class _Unreachable(Exception):
    """Nothing answers there (refused, timed out, unknown host): not worth a warning."""


class _BadAnswer(Exception):
    """Something answered, but not what the protocol says: worth a warning."""


class _Redirected(_BadAnswer):
    """The server answered a redirect, which is not followed (:mod:`probe_ui.security.outbound`); the message says
    so."""


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _without_userinfo(url: str) -> tuple[str, str | None]:
    """``url`` without ``user:password@`` (urllib would take it for part of the host name), and the Basic
    ``Authorization`` header it stands for (None when there is none)."""
    try:
        parts = urlsplit(url)
        if parts.username is None and parts.password is None:
            return url, None
        host = parts.hostname or ""
        netloc = (f"[{host}]" if ":" in host else host) + (f":{parts.port}" if parts.port else "")
    except ValueError:
        return url, None
    login = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()
    return urlunsplit(parts._replace(netloc=netloc)), "Basic " + base64.b64encode(login).decode("ascii")


def _request_json(url: str, *, timeout: float, body: Any = None, api_key: str | None = None) -> Any:
    """GET (or POST ``body`` as JSON) and parse the JSON answer. A proxy from the environment is never used for
    the loopback address."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Accept": "application/json", "User-Agent": "probe-ui-discovery"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    url, basic = _without_userinfo(url)
    if basic:  # a proxy's login in the URL (user:password@host): sent as the SDKs' HTTP client sends it
        headers["Authorization"] = basic
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    opener = outbound.url_opener(use_proxy=not _is_loopback(url))  # follows no redirect
    try:
        with opener.open(request, timeout=timeout) as response:
            raw = response.read(MAX_BODY_BYTES + 1)
    except urllib.error.HTTPError as exc:
        if exc.code in outbound.REDIRECTS:
            raise _Redirected(outbound.redirect_refused(exc.code, exc.headers.get("Location"), url)) from None
        raise _BadAnswer(f"HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:  # refused, timeout, DNS, bad URL
        reason = getattr(exc, "reason", exc)
        raise _Unreachable(f"{type(reason).__name__}: {reason}") from None
    except Exception as exc:  # noqa: BLE001 - e.g. http.client.RemoteDisconnected, BadStatusLine
        raise _BadAnswer(f"{type(exc).__name__}: {exc}") from None
    if len(raw) > MAX_BODY_BYTES:
        raise _BadAnswer("answer larger than 8 MB")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise _BadAnswer(f"not JSON: {raw[:60]!r}") from None


# ---- Ollama --------------------------------------------------------------------------------------------------

def _ollama_vision(show: dict[str, Any] | None, tag: dict[str, Any]) -> bool:
    """``capabilities`` when the server reports them; else the families or model info name a vision part."""
    if isinstance(show, dict) and isinstance(show.get("capabilities"), list):
        return "vision" in show["capabilities"]
    details = (show or {}).get("details") or tag.get("details") or {}
    families = details.get("families") if isinstance(details, dict) else None
    if isinstance(families, list) and any(f in VISION_FAMILIES for f in families):
        return True
    if isinstance(show, dict):
        if show.get("projector_info"):
            return True
        info = show.get("model_info")
        if isinstance(info, dict) and any("vision" in k or "projector" in k for k in info):
            return True
    return False


def discover_ollama(base: str | None = None, timeout: float = 0.5) -> list[DiscoveredModel]:
    """The vision models of the Ollama server at ``base`` (default: ``OLLAMA_HOST``, else
    ``http://127.0.0.1:11434``): ``GET /api/tags``, then ``POST /api/show`` for each model."""
    root = (ollama_root_url() if base is None else base).rstrip("/")
    if root.endswith("/v1"):
        root = root[: -len("/v1")]
    where = f"Ollama at {public_url(root)}"
    try:
        tags = _request_json(f"{root}/api/tags", timeout=timeout)
    except _Unreachable as exc:
        log.debug("no Ollama at %s (%s)", public_url(root), exc)
        return []
    except _BadAnswer as exc:
        log.warning("%s: GET /api/tags gave %s; is this an Ollama server?", where, exc)
        return []
    entries = tags.get("models") if isinstance(tags, dict) else None
    if not isinstance(entries, list):
        log.warning("%s: GET /api/tags: no 'models' list in the answer", where)
        return []
    named: list[tuple[str, dict[str, Any]]] = []
    for e in entries:
        n = (e.get("name") or e.get("model")) if isinstance(e, dict) else None
        if isinstance(n, str) and n:
            named.append((n, e))
    if len(named) < len(entries):
        log.warning("%s: GET /api/tags: skipped %d entries without a name", where, len(entries) - len(named))

    def show(name: str) -> dict[str, Any] | None:
        try:
            answer = _request_json(f"{root}/api/show", timeout=timeout, body={"model": name})
        except (_Unreachable, _BadAnswer) as exc:
            log.warning("%s: POST /api/show for %s gave %s", where, name, exc)
            return None
        if not isinstance(answer, dict):
            log.warning("%s: POST /api/show for %s: not a JSON object", where, name)
            return None
        return answer

    with ThreadPoolExecutor(max_workers=min(8, max(1, len(named)))) as pool:
        shows = list(pool.map(show, [n for n, _ in named]))
    return [DiscoveredModel(spec=f"ollama/{name}", provider="ollama", model=name, base_url=f"{root}/v1",
                            vision=True, source=where)
            for (name, tag), info in zip(named, shows, strict=True) if _ollama_vision(info, tag)]


# ---- OpenAI-compatible servers -------------------------------------------------------------------------------

def discover_openai_compatible(base_url: str, timeout: float = 0.5, api_key: str | None = None, *,
                               provider: str = "openai") -> list[DiscoveredModel]:
    """The models an OpenAI-compatible server lists at ``GET {base_url}/models`` (``/v1`` is tried too when the
    base URL lacks it). The list does not say which models take images: ``vision`` is None."""
    base = base_url.strip().rstrip("/")
    if not base:
        return []
    if "://" not in base:
        base = f"http://{base}"
    candidates = [base] if base.endswith("/v1") else [base, f"{base}/v1"]
    problem = ""
    for candidate in candidates:
        where = public_url(candidate)
        try:
            listing = _request_json(f"{candidate}/models", timeout=timeout, api_key=api_key)
        except _Unreachable as exc:
            log.debug("no server at %s (%s)", where, exc)
            return []
        except _BadAnswer as exc:
            problem = f"GET {where}/models gave {exc}"
            continue
        data = listing.get("data") if isinstance(listing, dict) else None
        if not isinstance(data, list):
            problem = f"GET {where}/models: no 'data' list in the answer"
            continue
        ids = [m.get("id") for m in data if isinstance(m, dict)]
        if not all(isinstance(i, str) and i for i in ids) or len(ids) < len(data):
            log.warning("%s: skipped model entries without an id", where)
        return [DiscoveredModel(spec=f"{provider}/{i}", provider=provider, model=i, base_url=candidate,
                                vision=None, source=f"the server at {where}")
                for i in ids if isinstance(i, str) and i]
    log.warning("%s; is this an OpenAI-compatible server?", problem)
    return []


def server_answers(base_url: str, timeout: float = 0.5) -> str | None:
    """None when something answers HTTP at ``base_url`` (any status but a redirect, which is not followed), else
    why not: a fast check that a local server (vLLM, Ollama) is running before a batch relies on it."""
    try:
        _request_json(base_url.rstrip("/") + "/models", timeout=timeout)
    except _Unreachable as exc:
        return f"no server answering at {public_url(base_url)} ({exc})"
    except _Redirected as exc:  # every call would be refused the same way: not ready, and why
        return str(exc)
    except _BadAnswer:
        return None
    return None


def configured_servers() -> list[str]:
    """The base URLs listed in ``PROBE_UI_OPENAI_SERVERS`` (comma-separated)."""
    return [u.strip() for u in os.environ.get(SERVERS_ENV, "").split(",") if u.strip()]


def discovery_enabled() -> bool:
    return os.environ.get(DISCOVER_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def discover_all(timeout: float = 0.5) -> list[DiscoveredModel]:
    """Ollama's vision models (``OLLAMA_HOST`` or the default address) and the models of every server in
    ``PROBE_UI_OPENAI_SERVERS``, asked in parallel; [] when ``PROBE_UI_DISCOVER=0``."""
    if not discovery_enabled():
        return []
    jobs: list[Any] = [lambda: discover_ollama(timeout=timeout)]
    jobs += [lambda url=url: discover_openai_compatible(url, timeout=timeout) for url in configured_servers()]
    with ThreadPoolExecutor(max_workers=min(8, len(jobs))) as pool:
        results = list(pool.map(lambda job: job(), jobs))
    return [m for found in results for m in found]


__all__ = ["DiscoveredModel", "discover_all", "discover_ollama", "discover_openai_compatible"]
