"""Which models a batch asks, checked before any work starts: each spec resolved through the catalogue and
checked (a known name, its key variable set, its server or extra there), the temperature checked, and what a run
records of a model (never a key)."""

from __future__ import annotations

import math
from typing import Any

from probe_ui import catalogue
from probe_ui.errors import ProbeUIError
from probe_ui.providers import answer_format as formats
from probe_ui.providers import create, provider_class
from probe_ui.providers.base import (
    ModelConfig,
)
from probe_ui.security import redact
from probe_ui.store import StoreError, check_key


class BatchError(ProbeUIError, RuntimeError):
    """The batch cannot start (unknown or unusable model, bad settings); nothing was run."""


def resolve_each(specs: list[str], extra: dict[str, ModelConfig] | None = None
                 ) -> tuple[list[ModelConfig], dict[str, str]]:
    """Resolve and check every model: the usable ones, and for each one that is not, the reason in words (an
    unknown name, a missing key variable, a server that is not running, an extra that is not installed).

    ``extra`` adds entries to the catalogue for this call (endpoints added in the app, with their in-memory key).
    """
    try:
        cat = catalogue.load_catalogue() | dict(extra or {})
    except ValueError as exc:
        raise BatchError(str(exc)) from None
    configs: list[ModelConfig] = []
    unusable: dict[str, str] = {}
    for spec in specs:
        try:
            cfg = catalogue.resolve(spec, cat)
            create(cfg)  # validates the model part (e.g. an unknown baseline)
        except ValueError as exc:
            unusable[spec] = str(exc)
            continue
        try:
            check_key(cfg.name, "the model name")
        except StoreError as exc:
            unusable[spec] = f"model '{spec[:60]}...': {exc}"
            continue
        reason = catalogue.availability(cfg)
        if reason:
            unusable[spec] = f"model '{spec}' is not usable here: {reason}"
        elif cfg.name not in {c.name for c in configs}:
            configs.append(cfg)
    return configs, unusable


def resolve_models(specs: list[str], extra: dict[str, ModelConfig] | None = None) -> list[ModelConfig]:
    """Resolve and check every model before any work starts; raise BatchError naming the first problem."""
    if not specs:
        raise BatchError("no model given: add --model SPEC (e.g. --model baseline/random); see 'probe-ui models'")
    configs, unusable = resolve_each(specs, extra)
    if unusable:
        raise BatchError(next(iter(unusable.values())))
    return configs


def check_answer_format(models: list[ModelConfig], answer_format: str) -> str:
    """``answer_format`` when it is known and every model can be asked in it; else a one-line BatchError naming
    the format, or the first model that cannot honour it (a run must never record a format its answers were not
    asked in)."""
    try:
        formats.check(answer_format)
    except ValueError as exc:
        raise BatchError(f"--answer-format: {exc}") from None
    problems = format_problems(models, answer_format)
    if problems:
        raise BatchError(next(iter(problems.values())))
    return answer_format


def check_point_conventions(models: list[ModelConfig]) -> None:
    """Every model's ``point_convention`` option is one :mod:`probe_ui.reading.pointing` knows, or a one-line BatchError
    naming the model, before anything is asked."""
    from probe_ui.reading.pointing import PointError, convention_of

    for m in models:
        try:
            convention_of(m.options)
        except PointError as exc:
            raise BatchError(f"model '{m.name}': options.point_convention: {exc}") from None


def format_problems(models: list[ModelConfig], answer_format: str) -> dict[str, str]:
    """For each model that cannot be asked in ``answer_format``, why (by model name)."""
    problems = {}
    for m in models:
        problem = provider_class(m.provider).answer_format_problem(m, answer_format)
        if problem:
            problems[m.name] = problem
    return problems


#: the highest sampling temperature any provider takes (OpenAI's API: 0 to 2; Anthropic's: 0 to 1)
MAX_TEMPERATURE = 2.0


def check_temperature(value: Any, what: str = "--temperature") -> float:
    """``value`` as a temperature every call can send, else a one-line BatchError naming it (``nan`` was sent to
    every model, each refusing it as an unexpected ValueError)."""
    try:
        t = float(value)
    except (TypeError, ValueError, OverflowError):
        t = math.nan
    if isinstance(value, bool) or not (math.isfinite(t) and 0 <= t <= MAX_TEMPERATURE):
        raise BatchError(f"{what} {value!r}: give a number from 0 to {MAX_TEMPERATURE:g}")
    return t


def public_config(m: ModelConfig) -> dict[str, Any]:
    """What a run records about a model: :func:`probe_ui.security.redact.model_record` (only the key's variable
    name)."""
    return redact.model_record(m)
