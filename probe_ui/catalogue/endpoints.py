"""The library behind the app's Models tab: endpoints added by hand, the table of every model, and a one-request
connection test.

An :class:`Endpoints` holds the model servers a person added in one app process (provider, base URL, model name
and, optionally, a key). The key lives only in memory, in :attr:`ModelConfig.secret`: it is never put in an
environment variable, written to a file, the store, a run's settings or a log, and never shown (tables say "set" or
"none"; error messages replace it with ``***``). Pass :meth:`Endpoints.configs` as ``extra`` to
:func:`probe_ui.runner.resolve_models` (``extra_models`` of :func:`~probe_ui.runner.run_batch`) to use them.

An endpoint added without a key is sent a placeholder key, never the environment's ``OPENAI_API_KEY`` or
``ANTHROPIC_API_KEY``: a server typed into a form must not receive a credential meant for another.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping
from urllib.parse import urlsplit

import pandas as pd

from probe_ui import catalogue, prompts
from probe_ui.errors import SpendCapReached
from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.providers import PROVIDERS, all_ready_models, create, url_providers
from probe_ui.providers.base import ModelConfig, ModelSpecError, ProviderError, fit_images
from probe_ui.providers.sdk import PLACEHOLDER_KEY
from probe_ui.security.outbound import OPEN, OutboundPolicy, OutboundRefused, local_model_refused
from probe_ui.security.redact import clip, env_key, public_url, veil_server

if TYPE_CHECKING:
    from probe_ui.runner.allowance import UserCap

__all__ = ["EndpointBook", "EndpointError", "Endpoints", "MODEL_COLUMNS", "TABLE_COLUMNS", "models_table", "test_model"]

TABLE_COLUMNS = ["name", "provider", "model", "base_url", "key"]
MODEL_COLUMNS = ["name", "provider", "model", "usable", "reason", "description"]
MAX_NAME = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class EndpointError(ModelSpecError):
    """An endpoint cannot be added as filled in; the message names the field to fix (never the key)."""


def _scrub(text: str, key: str | None) -> str:
    """One line, with the key (and every key this process knows) masked in any encoding, before the cut."""
    from probe_ui.security.redact import known_secrets

    return clip(text, 400, known_secrets() | ({key} if key else set()))


class Endpoints:
    """The model endpoints added in one app process, by name (thread-safe)."""

    def __init__(self) -> None:
        self._configs: dict[str, ModelConfig] = {}
        self._keyed: set[str] = set()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Endpoints({sorted(self._configs)})"

    def __len__(self) -> int:
        return len(self._configs)

    def __contains__(self, name: object) -> bool:
        return name in self._configs

    def add(self, provider: str, base_url: str, model: str, key: str | None = None,
            name: str | None = None, *, check_url: Callable[[str], None] | None = None,
            reserved: Collection[str] = (), description: str | None = None, shared: bool = False) -> ModelConfig:
        """Check and store an endpoint; return its config (the key in ``secret``, which repr never shows).

        ``provider`` must be one of :data:`probe_ui.providers.PROVIDERS` that talks to a server (not ``baseline``
        or ``hf``); ``base_url`` an ``http(s)://host[:port][/path]`` URL without credentials, query or fragment
        (for openai / vllm / ollama a bare ``http://host:port`` gets ``/v1``); ``model`` the model's name on that
        server. ``name`` defaults to ``provider/model@host:port`` (``shared``, an endpoint for everyone:
        ``provider/model (shared)``, which names no server, and every message names it by that name). Adding
        under a name already used replaces that endpoint (e.g. to change its key); a default name already used for
        another URL gets `` #2``, `` #3``...
        ``check_url`` (an outbound policy's check) may refuse the URL; names in ``reserved`` (models shared with
        everyone) cannot be taken. Raises :class:`EndpointError` (or what ``check_url`` raises).
        """
        provider = (provider or "").strip().lower()
        if provider not in PROVIDERS:
            raise EndpointError(f"unknown provider {provider!r}; known: {', '.join(sorted(PROVIDERS))}")
        if not PROVIDERS.get(provider).takes_url:
            usable = ", ".join(url_providers())
            raise EndpointError(f"provider '{provider}' runs without a server, so it takes no base URL; "
                                f"use it as '{provider}/<model>', or choose one of {usable}")
        model = (model or "").strip()
        if not model:
            raise EndpointError("type the model's name (as the server knows it, e.g. Qwen/Qwen2.5-VL-7B-Instruct)")
        if _CONTROL.search(model):
            raise EndpointError("the model name must be one line of text")
        url = _check_url(base_url, provider)
        if check_url is not None:
            check_url(url)
        if key is not None:
            key = key.strip() or None
        if key is not None and (any(ch.isspace() for ch in key) or _CONTROL.search(key)):
            raise EndpointError("the key must not contain spaces or line breaks (paste only the key)")
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
        with self._lock:
            if name is not None and name.strip():
                name = name.strip()
                if len(name) > MAX_NAME or _CONTROL.search(name):
                    raise EndpointError(f"the name must be one line of at most {MAX_NAME} characters")
                if name in _catalogue_names():
                    raise EndpointError(f"'{name}' is already a catalogue model: choose another name")
                if name in reserved:
                    raise EndpointError(f"'{name}' is already the name of a shared model: choose another name")
            else:
                name = f"{provider}/{model} (shared)" if shared else f"{provider}/{model}@{host}:{port}"
                if len(name) > MAX_NAME:
                    raise EndpointError(f"the model name is too long (a name is at most {MAX_NAME} characters)")
                base, n = name, 2
                while (name in self._configs and self._configs[name].base_url != url) or name in reserved:
                    name, n = f"{base} #{n}", n + 1
            described = description or f"added in this session, by you: {provider} server at {public_url(url)}"
            cfg = ModelConfig(name=name, provider=provider, model=model, base_url=url, description=described,
                              secret=key or PLACEHOLDER_KEY, shown_as=f"shared endpoint '{name}'" if shared else None)
            self._configs[name] = cfg
            if key:
                self._keyed.add(name)
            else:
                self._keyed.discard(name)
        return cfg

    def remove(self, name: str) -> None:
        """Forget an endpoint (and its key); raises :class:`EndpointError` for an unknown name."""
        with self._lock:
            if name not in self._configs:
                known = ", ".join(sorted(self._configs)) or "none added"
                raise EndpointError(f"no endpoint named {name!r} (endpoints: {known})")
            del self._configs[name]
            self._keyed.discard(name)

    def configs(self) -> dict[str, ModelConfig]:
        """Name → config, to pass as ``extra`` to :func:`probe_ui.runner.resolve_models`."""
        with self._lock:
            return dict(self._configs)

    def has_key(self, name: str) -> bool:
        return name in self._keyed

    def table(self) -> pd.DataFrame:
        """One row per endpoint: name, provider, model, base_url, key ("set" or "none"; never the key)."""
        with self._lock:
            rows = [{"name": c.name, "provider": c.provider, "model": c.model, "base_url": c.base_url,
                     "key": "set" if c.name in self._keyed else "none"} for c in self._configs.values()]
        return pd.DataFrame(rows, columns=TABLE_COLUMNS)


class EndpointBook:
    """The endpoints added in one app, each person's their own (an :class:`Endpoints` per owner: a signed-in user,
    or one browser session of an app without a login), plus those an admin shares with everyone.

    A person's endpoints and keys are listed, tested and called for that person only: nobody else sees their names,
    and nobody else can replace them (each owner has their own names). A shared endpoint is offered to everyone
    under its name; its URL and key are never shown. Every URL passes the app's outbound policy
    (:mod:`probe_ui.security.outbound`) when it is added, and again when it is used (:meth:`usable`). Memory only.
    """

    def __init__(self, policy: OutboundPolicy | None = None, *, many_users: bool = False) -> None:
        self.policy = policy or OPEN
        #: the app has logins (several people): local models (hf/) are then named by admins only
        self.many_users = many_users
        self.shared = Endpoints()
        self._own: dict[str, Endpoints] = {}
        self._lock = threading.Lock()

    def own(self, owner: str) -> Endpoints:
        """``owner``'s own endpoints (made empty on first use)."""
        with self._lock:
            return self._own.setdefault(owner, Endpoints())

    def add(self, owner: str, provider: str, base_url: str, model: str, key: str | None = None,
            name: str | None = None, *, admin: bool = False, share: bool = False) -> ModelConfig:
        """Add an endpoint for ``owner`` (:meth:`Endpoints.add`), or for everyone with ``share`` (admins only)."""
        def check(url: str) -> None:
            self.policy.check(url, admin=admin)

        if share:
            if not admin:
                raise EndpointError("only an admin can add an endpoint for everyone")
            return self.shared.add(provider, base_url, model, key, name, check_url=check, shared=True,
                                   description=f"shared with everyone by an admin ({provider} server)")
        return self.own(owner).add(provider, base_url, model, key, name, check_url=check,
                                   reserved=set(self.shared.configs()))

    def configs(self, owner: str) -> dict[str, ModelConfig]:
        """The added endpoints ``owner`` may pick: the shared ones, then their own."""
        with self._lock:
            own = self._own.get(owner)
        return {**self.shared.configs(), **(own.configs() if own is not None else {})}

    def usable(self, owner: str, names: Collection[str] | None = None, *, admin: bool = False
               ) -> dict[str, ModelConfig]:
        """:meth:`configs`, the owner's own endpoints among ``names`` (all when None) checked again against the
        outbound policy (a host name may resolve elsewhere now): raises OutboundRefused naming the endpoint. A name
        among ``names`` that would load a model into the server's own process (``hf/<folder or Hub id>``, not a
        catalogue entry) raises :class:`~probe_ui.security.outbound.LocalModelRefused` unless this person may name one
        (:meth:`may_name_local_models`), before anything looks at the name."""
        out = self.configs(owner)
        if names is not None and not self.may_name_local_models(admin=admin):
            if any(_on_the_server(spec, out) for spec in names):
                raise local_model_refused()
        with self._lock:
            own = self._own.get(owner)
        for name, cfg in (own.configs() if own is not None else {}).items():
            if names is None or name in names:
                urls = cfg.base_url if isinstance(cfg.base_url, tuple) else (cfg.base_url or "",)
                try:
                    for url in urls:  # an endpoint has one URL; replicas (a tuple) are each checked
                        self.policy.check(url, admin=admin)
                except OutboundRefused as exc:
                    raise OutboundRefused(f"endpoint '{name}': {exc}") from None
        return out

    # ---- what a person sees of the shared endpoints: their names, never their URLs (admins see them) ------------
    def hidden_servers(self, owner: str, *, admin: bool = False) -> dict[str, str]:
        """Server (as :func:`probe_ui.providers.rate_control.server_of` keys it: the base URL) → the words shown
        instead, for every endpoint shared with everyone that ``owner`` may call but not see: empty for an admin,
        and a server ``owner`` added an endpoint at themselves is theirs to see."""
        if admin:
            return {}
        with self._lock:
            own = self._own.get(owner)
        mine = {_server_of(c) for c in (own.configs() if own is not None else {}).values()}
        return {server: f"shared endpoint '{name}'" for name, cfg in self.shared.configs().items()
                if (server := _server_of(cfg)) not in mine}

    def veil(self, text: str, owner: str, *, admin: bool = False) -> str:
        """``text`` with every shared endpoint's URL, its ``scheme://host:port`` and ``host:port`` replaced by the
        endpoint's name (:meth:`hidden_servers`), for someone who may not see them."""
        for server, words in self.hidden_servers(owner, admin=admin).items():
            text = veil_server(text, server, words)
        return text

    def models_table(self, owner: str, *, admin: bool = False, discover: bool = False) -> pd.DataFrame:
        """:func:`models_table` of what ``owner`` may pick (the shared endpoints and their own), with the shared
        endpoints' URLs veiled (:meth:`veil`) in the reasons and descriptions."""
        out = models_table(self.configs(owner), discover=discover)
        for col in ("reason", "description"):
            out[col] = [self.veil(str(v), owner, admin=admin) for v in out[col]]
        return out

    def test(self, owner: str, spec: str, *, admin: bool = False, timeout_s: float = 30,
             spend: UserCap | None = None) -> dict[str, Any]:
        """:func:`test_model` of ``spec`` for ``owner`` (the endpoints they may use, checked by :meth:`usable`),
        with the shared endpoints' URLs veiled in the error (:meth:`veil`), held to ``owner``'s spending limit
        (``spend``)."""
        hidden = self.hidden_servers(owner, admin=admin)  # who may see a shared server is told its URL here
        configs = {n: c if c.shown_as is None or _server_of(c) in hidden else replace(c, shown_as=None)
                   for n, c in self.usable(owner, [spec], admin=admin).items()}
        result = test_model(spec, configs, timeout_s=timeout_s, spend=spend)
        if result.get("error"):
            result["error"] = self.veil(str(result["error"]), owner, admin=admin)
        return result

    def may_name_local_models(self, *, admin: bool = False) -> bool:
        """Whether a person may type a model loaded in the server's own process (``hf/<folder or Hub id>``): an
        admin, or anyone in an app used on its owner's machine (no login, no outbound policy). Everyone else picks
        the local models an admin put in the catalogue."""
        return admin or not (self.many_users or self.policy.enforced)

    def forget(self, owner: str) -> None:
        """Drop ``owner``'s endpoints and keys (a browser session that closed)."""
        with self._lock:
            self._own.pop(owner, None)

    def owners(self) -> int:
        with self._lock:
            return len(self._own)


def _server_of(cfg: ModelConfig) -> str:
    from probe_ui.providers.rate_control import server_of

    return server_of(PROVIDERS.get(cfg.provider), cfg)


def _on_the_server(spec: str, offered: Mapping[str, ModelConfig]) -> bool:
    """Whether ``spec``, typed by a person, names a model on the server's own machine rather than an endpoint or a
    catalogue entry: a provider that runs in this process and loads what it is given (``hf/<folder or Hub id>``;
    baselines load nothing), or one whose default server is this machine's (``ollama/``, ``vllm/``: a request to a
    port of the server's loopback, which no allowlist checked)."""
    spec = (spec or "").strip()
    if spec in offered or spec in _catalogue_names():
        return False
    provider = spec.partition("/")[0].strip().lower()
    if provider not in PROVIDERS or provider == "baseline":
        return False
    try:
        cls = PROVIDERS.get(provider)
        return not cls.takes_url or bool(getattr(cls, "local_server", False))
    except Exception:  # noqa: BLE001 - a provider that cannot load: refused when it may be a local one
        return provider in ("hf", "ollama", "vllm")


def _check_url(base_url: str, provider: str) -> str:
    url = (base_url or "").strip()
    if not url:
        raise EndpointError("type the server's base URL, e.g. http://127.0.0.1:8000/v1")
    if _CONTROL.search(url) or any(ch.isspace() for ch in url):
        raise EndpointError("the base URL must not contain spaces or line breaks")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:
        raise EndpointError("the base URL is not valid: check the host and the port (a number), "
                            "e.g. http://127.0.0.1:8000/v1") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise EndpointError(f"the base URL must start with http:// or https:// and name a host, "
                            f"e.g. http://127.0.0.1:8000/v1 (got {public_url(url)!r})")
    if parts.username is not None or parts.password is not None:
        raise EndpointError("the base URL must not contain a user name or password: put the key in the key field")
    if parts.query or parts.fragment:
        raise EndpointError("the base URL must not contain a query (?...) or fragment (#...): "
                            "put the key in the key field")
    if PROVIDERS.get(provider).openai_style and parts.path.strip("/") == "":
        url = url.rstrip("/") + "/v1"
    return url


def _catalogue_names() -> set[str]:
    try:
        return set(catalogue.load_catalogue())
    except ValueError:
        return set()


def _configs_of(endpoints: Endpoints | Mapping[str, ModelConfig] | None) -> dict[str, ModelConfig]:
    if endpoints is None:
        return {}
    return endpoints.configs() if isinstance(endpoints, Endpoints) else dict(endpoints)


def models_table(endpoints: Endpoints | Mapping[str, ModelConfig] | None = None, discover: bool = True
                 ) -> pd.DataFrame:
    """Every model: :func:`probe_ui.catalogue.list_models` (providers, catalogue entries and, unless ``discover``
    is false, models found on running servers), then the added endpoints, with whether each is usable here and
    why not. Columns: name, provider, model, usable (bool), reason ("" when usable), description."""
    rows = [{k: r.get(k) for k in MODEL_COLUMNS} for r in catalogue.list_models(discover=discover)]
    for cfg in _configs_of(endpoints).values():
        try:
            reason = catalogue.availability(cfg)
        except Exception as exc:  # noqa: BLE001 - one endpoint must not break the table
            reason = f"{type(exc).__name__}: {exc}"
        rows.append({"name": cfg.name, "provider": cfg.provider, "model": cfg.model, "usable": reason is None,
                     "reason": None if reason is None else _scrub(reason, _key_of(cfg)),
                     "description": cfg.description})
    out = pd.DataFrame(rows, columns=MODEL_COLUMNS)
    out["usable"] = out["usable"].astype(bool)
    for col in ("model", "reason", "description"):  # "" rather than None/NaN: a table for people
        out[col] = out[col].fillna("").astype(str)
    return out


def models_for_people(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`models_table` as the Models tab shows it, in the words of ``probe-ui models``: "yes" / "no" instead
    of True / False, under headings a person reads ("ready here", "why not")."""
    out = table.copy()
    out["usable"] = out["usable"].map(catalogue.ready_word)
    return out.rename(columns={"usable": "ready here", "reason": "why not"})


def model_menu(endpoints: Endpoints | Mapping[str, ModelConfig] | None = None, discover: bool = False
               ) -> list[dict[str, Any]]:
    """The models a person can pick, baselines first, then catalogue entries and added endpoints (and, with
    ``discover``, models found on local servers): name, usable, and the reason in words when it is not usable
    here (a missing key variable, a server that is not running, an extra that is not installed)."""
    table = models_table(endpoints, discover=discover)
    ready = all_ready_models()
    rows = [{"name": b, "usable": True, "reason": ""} for b in ready]
    for r in table.to_dict("records"):
        if r["name"].endswith("/<model>") or r["name"] in ready or r["name"].startswith("("):
            continue
        rows.append({"name": r["name"], "usable": bool(r["usable"]), "reason": r["reason"] or ""})
    return rows


# ---- the connection test -----------------------------------------------------------------------------------------
TEST_QUESTION = "Is this image entirely grey?"


def test_request(timeout_s: float = 30.0):  # noqa: ANN201 - a providers.base.Request
    """The tiny request :func:`test_model` sends: one 64×64 mid-grey PNG and a yes/no question."""
    from PIL import Image

    from probe_ui.messages import GenerationSettings

    image = CanonicalImage.from_pil(Image.new("L", (64, 64), 128))
    v = Variant(item_id="connection-test", question=TEST_QUESTION, kind="yesno", answer="yes", images=(image,),
                group="connection-test")
    template = prompts.template_for(v, None)
    settings = GenerationSettings(temperature=0.0, max_tokens=template.max_tokens, seed=0, timeout_s=float(timeout_s))
    return prompts.render(v, template.name, settings)


test_request.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def _key_of(cfg: ModelConfig) -> str | None:
    """The key a model would send (to scrub it from messages): a typed key, else its catalogue variable's."""
    if cfg.secret and cfg.secret != PLACEHOLDER_KEY:
        return cfg.secret
    return env_key(cfg.api_key_env)


def _result(ok: bool, model: str, latency_s: float | None = None, text: str = "", error: str | None = None
            ) -> dict[str, Any]:
    return {"ok": ok, "model": model, "latency_s": latency_s, "text": text, "error": error}


def model_check_html(result: Mapping[str, Any], spec: str = "") -> str:
    """A :func:`test_model` result as the Models tab shows it: a word first ("Works" or "Does not work", never a
    sign a font may lack), the model, and its reply or error; only what a model API answered (its parsed reply,
    or the error's message), escaped."""
    from html import escape

    model = escape(str(result.get("model") or spec))
    if result.get("ok"):
        return (f"<b>Works</b>: <b>{model}</b> answered in {float(result.get('latency_s') or 0):.2f} s: "
                f"<q>{escape(str(result.get('text'))[:300])}</q>")
    return f"<b>Does not work</b>: <b>{model}</b>: {escape(str(result.get('error')))}"


def test_model(spec: str, endpoints: Endpoints | Mapping[str, ModelConfig] | None = None, timeout_s: float = 30,
               spend: UserCap | None = None) -> dict[str, Any]:
    """Send ONE tiny real request (a 64×64 grey image and a yes/no question) to a model: a catalogue name, an added
    endpoint's name, or ``provider/model``.

    Returns ``{"ok", "model", "latency_s", "text", "error"}``: ``ok`` True with the reply's ``text`` and the
    request's ``latency_s``, or False with a one-line ``error`` (unknown model, missing key, unreachable server,
    provider error, no answer within ``timeout_s``). Never raises for a model or provider failure, never retries,
    and no message contains the key. Nothing is stored.

    ``spend`` (the app's user's spending limit, :class:`probe_ui.runner.allowance.UserCap`): the call is held to it
    as any other (refused, with the limit's one line, when it would pass it or when its model has no price), and
    its cost counts against the user although it is not stored.
    """
    spec = (spec or "").strip()
    if not spec:
        return _result(False, "", error="choose a model to test")
    extra = _configs_of(endpoints)
    try:
        cfg = catalogue.resolve(spec, catalogue.load_catalogue() | extra)
    except ValueError as exc:
        return _result(False, spec, error=clip(str(exc), 400))
    key = _key_of(cfg)
    if spend is not None:  # a model the user's limit cannot hold (no price): refused before anything is looked up
        why = spend.refusals([cfg]).get(cfg.name)
        if why is not None:
            return _result(False, cfg.name, error=why)
    try:
        create(cfg)  # checks the model part (e.g. an unknown baseline) and the provider's import
        reason = catalogue.availability(cfg)
    except (ValueError, ImportError) as exc:
        return _result(False, cfg.name, error=_scrub(f"{cfg.name}: {exc}", key))
    if reason:
        return _result(False, cfg.name, error=_scrub(f"model '{cfg.name}' is not usable here: {reason}", key))
    if "max_retries" not in cfg.options:  # one request, not one plus the SDK's retries
        cfg = replace(cfg, options={**cfg.options, "max_retries": 0})
    timeout_s = float(timeout_s)
    t0 = time.perf_counter()
    try:
        with spend if spend is not None else contextlib.nullcontext():
            resp = _run(_ask_once(cfg, timeout_s, spend))
    except asyncio.TimeoutError:
        return _result(False, cfg.name, time.perf_counter() - t0,
                       error=f"{cfg.name}: no answer within {timeout_s:g} s")
    except ProviderError as exc:
        return _result(False, cfg.name, time.perf_counter() - t0, error=_scrub(str(exc), key))
    except SpendCapReached as exc:  # the user's spending limit (runner.allowance.LimitReached): not sent
        return _result(False, cfg.name, error=_scrub(str(getattr(exc, "line", None) or exc), key))
    except Exception as exc:  # noqa: BLE001 - a provider bug is reported, not raised
        return _result(False, cfg.name, time.perf_counter() - t0,
                       error=_scrub(f"{cfg.name}: {type(exc).__name__}: {exc}", key))
    latency = time.perf_counter() - t0
    if resp.error is not None:
        return _result(False, cfg.name, latency, error=_scrub(resp.error, key))
    return _result(True, cfg.name, resp.latency_s or latency, text=resp.text or "")


test_model.__test__ = False  # type: ignore[attr-defined]  # not a pytest test, whatever imports it


async def _ask_once(cfg: ModelConfig, timeout_s: float, spend: UserCap | None = None):  # noqa: ANN202 - a Response
    provider = create(cfg)
    try:
        request, _ = fit_images(test_request(timeout_s), cfg.max_image_side or provider.max_image_side)
        reserved = spend.reserve(cfg, request) if spend is not None else 0.0  # LimitReached: not sent
        resp = None
        try:
            resp = await asyncio.wait_for(provider.generate(request), timeout=timeout_s + 5)
        finally:
            if spend is not None:
                spend.settle_unstored(reserved, resp)
        return resp
    finally:
        try:
            await provider.aclose()
        except Exception:  # noqa: BLE001 - closing a failed client must not hide the failure
            pass


def _run(coro):  # noqa: ANN001, ANN202
    """Run a coroutine to completion, also when called from a thread that already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def worker() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = exc

    t = threading.Thread(target=worker, name="probe-ui-test-model", daemon=True)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
