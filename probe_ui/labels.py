"""Names people read for the registry's code names: perturbations, suites, prompt templates, answer parsers and
the settings an answer was asked with, as the page shows them.

Code names (``nota``, ``cot``, ``cyclic_shift``) stay the keys in presets, the CLI and the store; the page shows
labels and maps a label back to its code name where a person may type one (the steps table). Each registered entry
carries its own label where it is defined: a perturbation's ``@register(..., label=...)``, a suite's and a
template's ``label`` field, a parser's ``register_parser(name, label)`` and a benchmark's ``legacy_label`` (its
legacy parser's answers). One registered without a label is shown with its code name's words ("probmed_question" →
"probmed question"), so a new one is never hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: the settings an answer was asked with (a response's ``settings``), in the order the detail lists them
SETTINGS: dict[str, str] = {
    "provider": "provider", "model": "model", "base_url": "server address", "max_tokens": "longest reply",
    "temperature": "temperature", "top_p": "top-p sampling", "seed": "seed", "timeout_s": "time limit",
    "stream": "streamed reply",
}
_UNITS = {"max_tokens": " tokens", "timeout_s": " s"}

#: perturbation parameters whose code name does not read as words (the others are shown with spaces for "_")
PARAMETERS: dict[str, str] = {
    "qa_type": "what the question asks about", "image_index": "which image (0 = the first)",
    "radius_fraction": "dot radius (share of the long side)", "n": "number of dots", "k": "how many",
    "sigma": "noise strength (sigma)", "shift": "shift by (options)", "keep": "share of the image kept",
    "resample": "resampling", "relative": "points as fractions of the size", "gap": "least gap between dots (px)",
    "threshold": "mask threshold (grey level)", "labels": "letters beside the dots", "hint": "give a hint",
    "prefer": "prefer", "fill": "fill the corners with", "axis": "mirror axis", "version": "ProbMed version",
    "index": "which question (0 = the first)",
}

#: where a DICOM or NIfTI image's window came from (the loaders' ``window_source``), as the line under the image says
WINDOW_SOURCES: dict[str, str] = {
    "file": "the file's own", "user": "chosen here", "minmax": "the image's full range (the file names none)",
    "percentile": "the image's 0.5–99.5 % range",
}


def when(ts: Any, *, full: bool = False) -> str:
    """A stored time as people read it: the day and time on this server's clock for the page ("29 Nov 07:50:17"),
    or with ``full`` the date and time in UTC for a report, which travels ("2026-11-29 07:50:17 UTC"). A value that
    is not a time is shown as it is."""
    from datetime import datetime, timezone

    try:
        moment = datetime.fromisoformat(str(ts))
    except (TypeError, ValueError):
        return "" if ts is None else str(ts)
    if full:
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return moment.astimezone().strftime("%d %b %H:%M:%S")


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def perturbation(name: str) -> str:
    """A perturbation's label (its code name in words when it has none)."""
    from probe_ui.perturb import REGISTRY

    found = REGISTRY.find(name)
    return found.label if found is not None and found.label else _words(name)


def suite(name: str) -> str:
    """A suite's label (its code name in words when it has none)."""
    from probe_ui.presets.suites import SUITES

    found = SUITES.find(name)
    return found.label if found is not None and found.label else _words(name)


def template(name: str) -> str:
    """A prompt template's label (its code name in words when it has none)."""
    from probe_ui.prompts import TEMPLATES

    found = TEMPLATES.find(name)
    return found.label if found is not None and found.label else _words(name)


def parser(name: str) -> str:
    """An answer parser's label: a registered parser's (:func:`probe_ui.scoring.register_parser`), or for an answer
    method ``legacy-<mode>`` its benchmark's ``legacy_label``; its code name in words when it has none."""
    from probe_ui.scoring import PARSERS

    label = getattr(PARSERS.find(name), "label", "")
    if not label and name.startswith("legacy-"):
        from probe_ui.benchmark import legacy_parsers

        label = getattr(legacy_parsers().get(name.removeprefix("legacy-")), "legacy_label", "")
    return label if isinstance(label, str) and label else _words(name)


def perturbations() -> dict[str, str]:
    """Every registered perturbation's code name → its label."""
    from probe_ui.perturb import REGISTRY

    return {n: perturbation(n) for n in REGISTRY.names()}


def suites() -> dict[str, str]:
    """Every registered suite's code name → its label."""
    from probe_ui.presets.suites import SUITES

    return {n: suite(n) for n in SUITES.names()}


def templates() -> dict[str, str]:
    """Every registered prompt template's code name → its label."""
    from probe_ui.prompts import TEMPLATES

    return {n: template(n) for n in TEMPLATES.names()}


def parsers() -> dict[str, str]:
    """Every answer parser's code name → its label: the registered parsers, then the answer methods of the
    benchmarks' legacy parsers (``legacy-<mode>``)."""
    from probe_ui.benchmark import legacy_modes
    from probe_ui.scoring import PARSERS

    return {n: parser(n) for n in [*PARSERS.names(), *(f"legacy-{m}" for m in legacy_modes())]}


def parameter(name: str) -> str:
    """A perturbation parameter's label."""
    return PARAMETERS.get(name, _words(name))


def window_source(name: str) -> str:
    """Where an image's window came from, in words."""
    return WINDOW_SOURCES.get(name, _words(name))


def _setting_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value}{_UNITS.get(key, '')}"


def settings_words(settings: Mapping[str, Any] | None) -> list[str]:
    """An answer's settings as short "what: value" lines: the known ones first in :data:`SETTINGS`' order, then
    any other in words; unset values (None, "") are left out, so the list says only what was set."""
    given = {str(k): v for k, v in (settings or {}).items() if v is not None and v != ""}
    keys = [k for k in SETTINGS if k in given] + sorted(k for k in given if k not in SETTINGS)
    out = []
    for k in keys:
        v = given[k]
        shown = ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else (
            "; ".join(f"{_words(str(a))} {b}" for a, b in v.items()) if isinstance(v, Mapping) else
            _setting_value(k, v))
        out.append(f"{SETTINGS.get(k, _words(k))}: {shown}")
    return out


def perturbation_name(text: str) -> str:
    """The code name of a perturbation typed as its label or its code name (anything else is returned as it is,
    for the registry to refuse with its own message)."""
    text = " ".join(str(text or "").split())
    by_label = {label.lower(): code for code, label in perturbations().items()}
    return by_label.get(text.lower(), text)


def choices(names: list[str], *, kind: str = "perturbation") -> list[tuple[str, str]]:
    """(label, code name) pairs for a dropdown: the page shows the label, the callback gets the code name."""
    fn = perturbation if kind == "perturbation" else suite
    return [(fn(n), n) for n in names]
