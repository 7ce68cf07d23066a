"""The model catalogue: ``backends/*.yaml`` gives models short names and settings; bare specs work too.

A spec is either a catalogue name (``gpt-4o``) or ``provider/model`` (``openai/gpt-4o``, ``baseline/random``);
the model part may itself contain slashes (``openai/Qwen/Qwen2.5-VL-7B-Instruct``).
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from probe_ui.files.resources import BACKENDS_DIR
from probe_ui.files.yaml_limits import place_in, safe_load, yaml_problem, yaml_within
from probe_ui.providers import PROVIDERS, provider_class
from probe_ui.providers.base import ModelConfig, ModelSpecError


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # schema built on first use (issue 48)
    name: str = Field(min_length=1)
    provider: str
    model: str = Field(min_length=1)
    base_url: str | list[str] | None = None
    api_key_env: str | None = None
    generation: dict[str, Any] = {}
    max_image_side: int | None = Field(default=None, gt=0)
    price_input_per_m: float | None = Field(default=None, ge=0)
    price_output_per_m: float | None = Field(default=None, ge=0)
    concurrency: int | None = Field(default=None, gt=0)
    live_concurrency: int | None = Field(default=None, gt=0)
    needs: str = ""
    description: str = ""
    options: dict[str, Any] = {}
    #: the host is the site's own (issue 47): images sent there skip the send gate and the ledger, as loopback does
    trusted: bool = False


#: the environment variable naming extra catalogue folders (os.pathsep-separated)
BACKENDS_ENV = "PROBE_UI_BACKENDS"
#: the catalogue folder read from the working folder when ``PROBE_UI_BACKENDS`` is not set (as the README shows)
LOCAL_BACKENDS = "backends"


def catalogue_dirs() -> list[Path]:
    """Where catalogue entries are looked for, first wins: the folders in ``PROBE_UI_BACKENDS`` when it is set, else
    ``./backends`` when the working folder has one; then the shipped catalogue."""
    extra = [Path(p) for p in os.environ.get(BACKENDS_ENV, "").split(os.pathsep) if p]
    if not extra and Path(LOCAL_BACKENDS).is_dir():
        extra = [Path(LOCAL_BACKENDS).resolve()]
    shipped = BACKENDS_DIR.resolve()
    return [*(d for d in extra if d.resolve() != shipped), BACKENDS_DIR]


def catalogue_places() -> str:
    """Where catalogue entries are looked for, for messages: the folders read and how to add one."""
    extra = ["./backends/" if d == Path(LOCAL_BACKENDS).resolve() else f"{d}/"
             for d in catalogue_dirs() if d != BACKENDS_DIR]
    read = ", ".join(extra) + (", " if extra else "") + "the shipped backends/"
    unset = "" if os.environ.get(BACKENDS_ENV) else " (not set)"
    return (f"catalogue entries are read from {read}; put a YAML in ./backends/ or name its folder in "
            f"{BACKENDS_ENV}{unset}")


def load_catalogue() -> dict[str, ModelConfig]:
    out: dict[str, ModelConfig] = {}
    for d in catalogue_dirs():
        for f in sorted(d.glob("*.yaml")) if d.is_dir() else []:
            cfg = load_entry(f)
            out.setdefault(cfg.name, cfg)
    return out


MAX_ENTRY_VALUES = 10_000  # a backend entry holds a few dozen values; YAML aliases can multiply them without end


def load_entry(path: Path) -> ModelConfig:
    """One catalogue entry; each content of a file is parsed once (the app lists the catalogue for every person's
    every model list, and parsing YAML is the slow part)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ModelSpecError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    return _load_entry(path, raw)


@functools.lru_cache(maxsize=256)
def _load_entry(path: Path, raw: bytes) -> ModelConfig:
    try:
        data = safe_load(raw.decode("utf-8"))
        if not yaml_within(data, MAX_ENTRY_VALUES):
            raise ModelSpecError(f"{path}: the YAML expands to more than {MAX_ENTRY_VALUES:,} values (aliases "
                                 "repeating a structure?); a backend entry is a few fields")
        e = _Entry.model_validate(data)
    except UnicodeDecodeError:
        raise ModelSpecError(f"{path}: not a UTF-8 text file") from None
    except yaml.YAMLError as exc:
        raise ModelSpecError(f"{path}: {yaml_problem(exc)}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(map(str, err["loc"])) or "(top level)"
        at = place_in(raw.decode("utf-8"), err["loc"])
        raise ModelSpecError(f"{path}: field '{field}': {err['msg']}{at}") from None
    if e.provider not in PROVIDERS:
        at = place_in(raw.decode("utf-8"), ("provider",))
        raise ModelSpecError(f"{path}: unknown provider '{e.provider}'{at}; known: {', '.join(sorted(PROVIDERS))}")
    for name in ("generation", "options"):  # a run stores both as JSON
        try:
            json.dumps(getattr(e, name))
        except (TypeError, ValueError) as exc:
            raise ModelSpecError(f"{path}: field '{name}': only numbers, text, true/false, null, lists and mappings "
                                 f"are allowed ({exc})") from None
    base = tuple(e.base_url) if isinstance(e.base_url, list) else e.base_url
    return ModelConfig(name=e.name, provider=e.provider, model=e.model, base_url=base, api_key_env=e.api_key_env,
                       generation=e.generation, max_image_side=e.max_image_side,
                       price_input_per_m=e.price_input_per_m, price_output_per_m=e.price_output_per_m,
                       concurrency=e.concurrency, live_concurrency=e.live_concurrency, needs=e.needs,
                       description=e.description, options=e.options, trusted=e.trusted)


def resolve(spec: str, catalogue: dict[str, ModelConfig] | None = None) -> ModelConfig:
    """A catalogue entry by name, or a bare ``provider/model`` spec."""
    spec = spec.strip()
    cat = load_catalogue() if catalogue is None else catalogue
    if spec in cat:
        return cat[spec]
    provider, sep, model = spec.partition("/")
    if not sep or not provider or not model:
        names = ", ".join(sorted(cat)) or "(none)"
        raise ModelSpecError(f"unknown model '{spec}': use provider/model (providers: "
                             f"{', '.join(sorted(PROVIDERS))}) or a catalogue name ({names}); "
                             f"{catalogue_places()}")
    provider_class(provider)  # raises for an unknown provider
    return ModelConfig(name=spec, provider=provider, model=model)


def availability(config: ModelConfig) -> str | None:
    """None when usable here, else the reason (missing SDK, key, server)."""
    try:
        cls = provider_class(config.provider)
    except ImportError as exc:
        return f"provider '{config.provider}' cannot be imported: {exc}"
    reason = cls.unavailable_reason(config)
    if reason is None:  # a base URL that does not answer, hf/ weights that are not here (checked once a while)
        from probe_ui.providers import readiness

        reason = readiness.problem(cls, config)
    return reason


def ready_word(usable: bool) -> str:
    """Whether a model is ready here, in the word people read: ``probe-ui models`` and the Models tab say the same."""
    return "yes" if usable else "no"


def list_models(discover: bool = True) -> list[dict[str, Any]]:
    """Every provider (as ``provider/<model>``) and catalogue entry, with whether it is usable here and why not;
    then the models found on running local servers (Ollama's vision models, and the models of the servers listed
    in ``PROBE_UI_OPENAI_SERVERS``; see :mod:`probe_ui.providers.discovery`), unless ``discover`` is false or
    ``PROBE_UI_DISCOVER=0``."""
    rows: list[dict[str, Any]] = []
    for name in sorted(PROVIDERS):
        try:
            from probe_ui.providers.readiness import placeholder_problem

            reason = placeholder_problem(name)  # any model of it: its key, or a server that answers
        except ImportError as exc:
            reason = f"cannot be imported: {exc}"
        rows.append({"name": f"{name}/<model>", "provider": name, "model": "", "usable": reason is None,
                     "reason": reason, "needs": "", "description": "any model of this provider"})
    try:
        cat = load_catalogue()
    except ModelSpecError as exc:
        rows.append({"name": "(catalogue)", "provider": "", "model": "", "usable": False, "reason": str(exc),
                     "needs": "", "description": ""})
        cat = {}
    catalogue_rows: dict[tuple[str, str], dict[str, Any]] = {}
    for cfg in cat.values():
        reason = availability(cfg)
        row = {"name": cfg.name, "provider": cfg.provider, "model": cfg.model, "usable": reason is None,
               "reason": reason, "needs": cfg.needs, "description": cfg.description}
        rows.append(row)
        catalogue_rows.setdefault((cfg.provider, _same_model(cfg.provider, cfg.model)), row)
    if discover:
        rows.extend(_discovered_rows(catalogue_rows))
    return rows


def _same_model(provider: str, model: str) -> str:
    """A model's one spelling as its provider reads it (:meth:`~probe_ui.providers.base.Provider.same_model`)."""
    from probe_ui.providers import PROVIDERS

    cls = PROVIDERS.find(provider)
    return cls.same_model(model) if cls is not None else model


def _discovered_rows(catalogue_rows: dict[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows for models found on running servers. A model a catalogue entry already names only adds where it was
    found to that entry's description."""
    from probe_ui.providers.discovery import discover_all

    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for found in discover_all():
        if found.spec in seen:
            continue
        seen.add(found.spec)
        where = f"found on {found.source}"
        known = catalogue_rows.get((found.provider, _same_model(found.provider, found.model)))
        if known is not None and found.provider == "ollama":
            known["description"] = f"{known['description']} ({where})" if known["description"] else where
            continue
        cfg = found.config()
        reason = availability(cfg)
        if found.provider == "openai":  # a bare openai/<model> spec would go to OPENAI_BASE_URL or api.openai.com
            where += f"; use it with OPENAI_BASE_URL={found.base_url} or a backends/ YAML with this base_url"
        if found.vision is None:
            where += " (the server does not say whether it takes images)"
        out.append({"name": found.spec, "provider": found.provider, "model": found.model, "usable": reason is None,
                    "reason": reason, "needs": "", "description": where})
    return out
