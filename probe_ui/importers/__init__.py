"""Importers: other tools' result files (and question files) into the run store, and question files into presets.

One module per format; this registry maps a format name to its module, imported only when used::

    mediconfusion  AIF4S/MediConfusion ``Results/<model>/<model>_mc.json`` (+ ``--dataset dataset.json``)
    probmed        eric-ai-lab/ProbMed ``eval/response_file/<model>.json`` (the input of ``calculate_score.py``)
    medvh          dongzizhu/MedVH question files with an added ``response`` per record (``--task``)
    blink          zeyofu/BLINK_Benchmark saved predictions ``{"val": [{idx, answer, full_prediction, ...}]}``

Every importer stores the RAW reply text and nothing a foreign parser decided: MediConfusion's A/B scores,
BLINK's ``prediction`` and similar fields are kept in the response's ``details`` for reference only and are never
read back. Scoring re-extracts every reply (``probe-ui score --parser robust|legacy``).

Use :func:`import_results` / :func:`questions_to_preset` (or ``probe-ui import``); see ``common`` for the shared
machinery and each format module's docstring for what it reads and the attributes its variants carry.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from probe_ui.importers.common import (
    ImportFileError,
    ImportOptions,
    ImportSummary,
    ImportUsageError,
    PresetSummary,
)

REGISTRY: dict[str, str] = {
    "mediconfusion": "probe_ui.importers.mediconfusion",
    "probmed": "probe_ui.importers.probmed",
    "medvh": "probe_ui.importers.medvh",
    "blink": "probe_ui.importers.blink",
}
FORMATS: tuple[str, ...] = tuple(REGISTRY)

__all__ = [
    "FORMATS",
    "REGISTRY",
    "ImportFileError",
    "ImportOptions",
    "ImportSummary",
    "ImportUsageError",
    "PresetSummary",
    "get_importer",
    "import_results",
    "questions_to_preset",
]


def get_importer(name: str) -> ModuleType:
    """The format's module (imported on first use); :class:`ImportUsageError` for an unknown name."""
    try:
        module = REGISTRY[name]
    except KeyError:
        raise ImportUsageError(f"unknown import format '{name}'; known: {', '.join(FORMATS)}") from None
    return importlib.import_module(module)


def import_results(store: Any, fmt: str, path: str, options: ImportOptions | None = None) -> ImportSummary:
    """Load a foreign results file into ``store`` as (part of) a run; see :func:`common.import_into_store`."""
    from probe_ui.importers.common import import_into_store

    return import_into_store(store, get_importer(fmt), path, options or ImportOptions())


def questions_to_preset(fmt: str, path: str, out: str, options: ImportOptions | None = None, *, force: bool = False
                        ) -> PresetSummary:
    """Write a preset YAML (accepted by :func:`probe_ui.presets.load_preset`) from a format's question file; an
    existing ``out`` is replaced only with ``force`` (:mod:`probe_ui.safe_write`)."""
    from probe_ui.importers.common import write_preset

    return write_preset(get_importer(fmt), path, out, options or ImportOptions(), force=force)
