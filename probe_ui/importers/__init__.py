"""Importers: other tools' result files (and question files) into the run store, and question files into presets.

One module per format, each a benchmark's ``importer.py`` (:mod:`probe_ui.benchmarks`), registered with its
benchmark (or by :func:`register_importer`, e.g. from a plugin) and found by walking the benchmarks' folders::

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

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from probe_ui.importers.common import (
    ImportFileError,
    ImportFlag,
    ImportOptions,
    ImportSummary,
    ImportUsageError,
    PresetSummary,
)
from probe_ui.registry import Registry

if TYPE_CHECKING:
    from probe_ui.store import Store


@runtime_checkable
class Importer(Protocol):
    """What an importer module provides (see :mod:`probe_ui.importers.common` for how each is used)."""

    __name__: str  # the module's
    NAME: str  # the format's name (``probe-ui import <NAME>``)
    PROMPT: str  # the prompt template its variants record

    def check(self, opts: ImportOptions, to_preset: bool) -> None: ...
    def default_model(self, path: Path) -> str: ...
    def default_run(self, model: str, opts: ImportOptions, parsed: Any) -> str: ...
    def read_results(self, path: Path, data: Any, opts: ImportOptions) -> Any: ...
    def read_questions(self, path: Path, data: Any, opts: ImportOptions) -> Any: ...


#: every importer: the benchmarks' ``importer.py`` modules and plugins
IMPORTERS: Registry[Importer] = Registry("import format", packages=("probe_ui.benchmarks",), error=ImportUsageError,
                                         key="NAME")


def register_importer(module: Importer) -> Importer:
    """Register an importer module under its ``NAME`` (a benchmark registers its own; :meth:`Registry.put`)."""
    return IMPORTERS.put(module)  # type: ignore[no-any-return]


def formats() -> tuple[str, ...]:
    """Every import format, in the benchmarks' order, then any other (a plugin's)."""
    from probe_ui.benchmark import benchmarks

    ordered = [b.importer.NAME for b in benchmarks() if b.importer is not None]
    return tuple(dict.fromkeys([*ordered, *IMPORTERS.names()]))


def __getattr__(name: str) -> Any:
    """``FORMATS``: :func:`formats`, computed when asked (the benchmarks register the importers)."""
    if name == "FORMATS":
        return formats()
    raise AttributeError(name)


__all__ = [
    "FORMATS",
    "IMPORTERS",
    "Importer",
    "ImportFileError",
    "ImportFlag",
    "ImportOptions",
    "ImportSummary",
    "ImportUsageError",
    "PresetSummary",
    "formats",
    "get_importer",
    "import_results",
    "questions_to_preset",
    "register_importer",
]


def get_importer(name: str) -> Importer:
    """The format's importer module; :class:`ImportUsageError` naming the known formats for an unknown name."""
    if name not in IMPORTERS:
        raise ImportUsageError(f"unknown import format '{name}'; known: {', '.join(formats())}")
    return IMPORTERS.get(name)


def import_results(store: Store, fmt: str, path: str, options: ImportOptions | None = None) -> ImportSummary:
    """Load a foreign results file into ``store`` as (part of) a run; see :func:`common.import_into_store`."""
    from probe_ui.importers.common import import_into_store

    return import_into_store(store, get_importer(fmt), path, options or ImportOptions())


def questions_to_preset(fmt: str, path: str, out: str, options: ImportOptions | None = None, *, force: bool = False
                        ) -> PresetSummary:
    """Write a preset YAML (accepted by :func:`probe_ui.presets.load_preset`) from a format's question file; an
    existing ``out`` is replaced only with ``force`` (:mod:`probe_ui.files.safe_write`)."""
    from probe_ui.importers.common import write_preset

    return write_preset(get_importer(fmt), path, out, options or ImportOptions(), force=force)
