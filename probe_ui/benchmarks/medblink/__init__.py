"""MedBLINK: BLINK's perception tasks on medical images (depth, orientation); its metric family is
``metric.py``, and its replies are read with BLINK's legacy parser (:mod:`probe_ui.benchmarks.blink`)."""

from __future__ import annotations

from probe_ui.benchmarks.base import Benchmark, register_benchmark


@register_benchmark
class MedBlink(Benchmark):
    name = "medblink"
    order = 50
    presets = ("medblink_depth.yaml", "medblink_orientation.yaml")
    templates = ("blink-mc", "label")
    suites = ("medblink-orientation", "dot-colours")
