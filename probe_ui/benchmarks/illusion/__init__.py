"""Visual illusions (the illusion seed paper): does the model see what is drawn or what the illusion suggests;
its metric family is ``metric.py``, its suite ``illusion`` is in ``suite.py``."""

from __future__ import annotations

from probe_ui.benchmarks.base import Benchmark, register_benchmark


@register_benchmark
class Illusion(Benchmark):
    name = "illusion"
    order = 60
    suites = ("illusion",)
