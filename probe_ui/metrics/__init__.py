"""Metrics over a table of scored answers (one row per response), each reporting value, counts and references.

One module per family; ``accuracy`` holds the plain per-model accuracy every paper reports.
"""

from probe_ui.metrics.base import MetricValue, wilson_ci
from probe_ui.metrics.accuracy import accuracy_by_model

__all__ = ["MetricValue", "accuracy_by_model", "wilson_ci"]
