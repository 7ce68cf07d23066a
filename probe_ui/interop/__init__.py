"""Interop with the evaluation harnesses labs already use: a benchmark set runs anywhere, and its answers come back.

``probe-ui export-set PRESET --to HARNESS --out DIR`` writes a preset, its suites expanded into variants (each
variant's exact images and prompt, :mod:`probe_ui.interop.benchset`), in a harness's own conventions, ready to run;
``probe-ui import HARNESS PATH`` reads that harness's results back into a run of the store whose variants, image
hashes and prompts are those of a ``probe-ui batch`` of the same preset, suites and seed
(:mod:`probe_ui.interop.importing`), so ``score``, the Results tab, the report and every paper metric read it as
they read a batch. Raw replies are re-read by probe-ui's reader; the harness's own verdict is kept beside them and
``score`` says how often the two agree (:mod:`probe_ui.scoring.verdicts`).

One module per harness, registering itself (:func:`register_harness`); this package is walked, so a harness is one
file here (or a plugin, :mod:`probe_ui.registry`)::

    inspect     Inspect AI: task.py + samples.jsonl; import .eval / .json logs (inspect_ai.log)
    lmms-eval   a task folder (YAML + utils.py over a local JSON-lines file); import --log_samples JSONL
    vlmevalkit  VLMEvalKit's custom multiple-choice TSV; import its prediction / result xlsx, tsv or csv
    hf          a Hugging Face dataset folder with a card and Croissant metadata (export only)

A harness module declares ``NAME``, ``TITLE``, ``write(bset, out) -> Written`` and, when its results can be
imported, ``read_results(path) -> HarnessResults``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from probe_ui.registry import Registry


@runtime_checkable
class Harness(Protocol):
    """What a harness module provides (``read_results`` only when its results can be imported)."""

    NAME: str
    TITLE: str

    def write(self, bset: Any, out: Path) -> Any: ...


def _unknown(message: str) -> Exception:
    from probe_ui.interop.benchset import SetError

    return SetError(message)


#: every harness: the modules of this package and plugins
HARNESS_REGISTRY: Registry[Harness] = Registry("harness", packages=("probe_ui.interop",), error=_unknown,
                                              key="NAME")


def register_harness(module: Harness) -> Harness:
    """Register a harness module under its ``NAME`` (:meth:`Registry.put`)."""
    return HARNESS_REGISTRY.put(module)  # type: ignore[no-any-return]


def harnesses() -> tuple[str, ...]:
    """Every harness ``export-set --to`` writes for."""
    return tuple(HARNESS_REGISTRY.names())


def importable() -> tuple[str, ...]:
    """The harnesses whose results ``probe-ui import`` reads."""
    return tuple(n for n in HARNESS_REGISTRY.names() if hasattr(HARNESS_REGISTRY.get(n), "read_results"))


def get_harness(name: str) -> Harness:
    """The harness's module; a :class:`~probe_ui.interop.benchset.SetError` naming the known ones otherwise."""
    return HARNESS_REGISTRY.get(name)


def __getattr__(name: str) -> Any:
    """``HARNESSES`` and ``IMPORTABLE``: :func:`harnesses` and :func:`importable`, computed when asked."""
    if name == "HARNESSES":
        return harnesses()
    if name == "IMPORTABLE":
        return importable()
    raise AttributeError(name)


__all__ = ["HARNESSES", "HARNESS_REGISTRY", "IMPORTABLE", "Harness", "get_harness", "harnesses", "importable",
           "register_harness"]
