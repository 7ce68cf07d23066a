"""Interop with the evaluation harnesses labs already use: a benchmark set runs anywhere, and its answers come back.

``probe-ui export-set PRESET --to HARNESS --out DIR`` writes a preset, its suites expanded into variants (each
variant's exact images and prompt, :mod:`probe_ui.interop.benchset`), in a harness's own conventions, ready to run;
``probe-ui import HARNESS PATH`` reads that harness's results back into a run of the store whose variants, image
hashes and prompts are those of a ``probe-ui batch`` of the same preset, suites and seed
(:mod:`probe_ui.interop.importing`), so ``score``, the Results tab, the report and every paper metric read it as
they read a batch. Raw replies are re-read by probe-ui's reader; the harness's own verdict is kept beside them and
``score`` says how often the two agree (:mod:`probe_ui.interop.verdicts`).

One module per harness; this registry maps a name to it, imported only when used::

    inspect     Inspect AI: task.py + samples.jsonl; import .eval / .json logs (inspect_ai.log)
    lmms-eval   a task folder (YAML + utils.py over a local JSON-lines file); import --log_samples JSONL
    vlmevalkit  VLMEvalKit's custom multiple-choice TSV; import its prediction / result xlsx, tsv or csv
    hf          a Hugging Face dataset folder with a card and Croissant metadata (export only)

A harness module declares ``NAME``, ``TITLE``, ``write(bset, out) -> Written`` and, when its results can be
imported, ``read_results(path) -> HarnessResults``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

REGISTRY: dict[str, str] = {
    "inspect": "probe_ui.interop.inspect",
    "lmms-eval": "probe_ui.interop.lmms_eval",
    "vlmevalkit": "probe_ui.interop.vlmevalkit",
    "hf": "probe_ui.interop.hf",
}
#: harnesses whose results ``probe-ui import`` reads
IMPORTABLE: tuple[str, ...] = ("inspect", "lmms-eval", "vlmevalkit")
HARNESSES: tuple[str, ...] = tuple(REGISTRY)


def get_harness(name: str) -> ModuleType:
    """The harness's module (imported on first use); a ValueError naming the known ones otherwise."""
    from probe_ui.interop.benchset import SetError

    try:
        return importlib.import_module(REGISTRY[name])
    except KeyError:
        raise SetError(f"unknown harness '{name}'; known: {', '.join(HARNESSES)}") from None


__all__ = ["HARNESSES", "IMPORTABLE", "REGISTRY", "get_harness"]
