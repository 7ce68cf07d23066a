"""Registering a benchmark: the class decorator every ``probe_ui/benchmarks/<name>/__init__.py`` uses.

What a benchmark declares (:class:`~probe_ui.benchmark.Benchmark`) and the registry of them live in
:mod:`probe_ui.benchmark`, below the rooms that read them; registering one also registers its importer, which is
why this decorator sits here, above :mod:`probe_ui.importers`.
"""

from __future__ import annotations

from typing import TypeVar

from probe_ui.benchmark import BENCHMARKS, Benchmark
from probe_ui.importers import register_importer

B = TypeVar("B", bound=type[Benchmark])


def register_benchmark(cls: B) -> B:
    """Class decorator: register the benchmark (and its importer, under the importer's ``NAME``)."""
    BENCHMARKS.put(cls)
    if cls.importer is not None:
        register_importer(cls.importer)
    return cls


__all__ = ["Benchmark", "register_benchmark"]
