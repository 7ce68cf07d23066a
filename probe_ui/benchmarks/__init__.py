"""The benchmarks the seed papers define, one folder each (:mod:`probe_ui.benchmark` says what a folder
holds; ``probe-ui presets`` and docs/reference.md name them). Each folder is found by walking this package;
nothing lists them, here included."""

from probe_ui.benchmark import BENCHMARKS, Benchmark, benchmarks, legacy_modes, legacy_parsers
from probe_ui.benchmarks.base import register_benchmark

__all__ = ["BENCHMARKS", "Benchmark", "benchmarks", "legacy_modes", "legacy_parsers", "register_benchmark"]
