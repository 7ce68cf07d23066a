"""The benchmarks the seed papers define, one folder each (:mod:`probe_ui.benchmarks.base` says what a folder
holds): ``mediconfusion``, ``probmed``, ``medvh``, ``medblink``, ``illusion`` and ``blink``. Each folder is found
by walking this package; nothing lists them."""

from probe_ui.benchmarks.base import BENCHMARKS, Benchmark, benchmarks, legacy_modes, legacy_parsers, \
    register_benchmark

__all__ = ["BENCHMARKS", "Benchmark", "benchmarks", "legacy_modes", "legacy_parsers", "register_benchmark"]
