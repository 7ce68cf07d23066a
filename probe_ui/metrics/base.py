"""The shape every metric reports: value (percent), numerator, denominator, n, CI and the random-guess reference."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from probe_ui.stats import Z95, wilson


@dataclass(frozen=True)
class MetricValue:
    value: float | None  # percent; None when the denominator is 0
    numerator: float
    denominator: float
    n: int
    ci: tuple[float, float] | None = None  # percent, 95 %
    random: float | None = None  # percent a random guesser is expected to score
    #: where the answers come in clusters (:mod:`probe_ui.metrics.units`): how many units of evidence, of which
    #: kind ("items", "pairs", ...), the design effect and the interval's method in words; None: not computed
    units: int | None = None
    unit: str | None = None
    deff: float | None = None
    method: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields by name (what ``asdict`` gives, without its deep copies: every metric block calls this); the
        units of evidence only where they were counted."""
        out: dict[str, Any] = {"value": self.value, "numerator": self.numerator, "denominator": self.denominator,
                               "n": self.n, "ci": list(self.ci) if self.ci else None, "random": self.random}
        if self.units is not None:
            out.update(units=self.units, unit=self.unit, deff=None if self.deff is None else round(self.deff, 4),
                       method=self.method)
        return out


def ratio(num: float, den: float, n: int | None = None, *, ci: bool = True, random: float | None = None) -> MetricValue:
    value = 100.0 * num / den if den else None
    interval = wilson_ci(num, den) if ci and den else None
    return MetricValue(value, num, den, int(den if n is None else n), interval, random)


def clustered_ratio(right: Any, unit_keys: Any, item_keys: Any | None = None, *, random: float | None = None
                    ) -> MetricValue:
    """A proportion over answer rows that come in units of evidence (``right``: 1/0 per row; ``unit_keys``: its
    unit, :mod:`probe_ui.metrics.units`; ``item_keys``: the finer grouping inside): the value over the rows, its
    interval over the units (:func:`probe_ui.stats.clustered_wilson`; Wilson's where each unit holds one row)."""
    import numpy as np

    from probe_ui.stats import clustered_wilson, per_cluster

    x = np.asarray(right, dtype=float)
    n = len(x)
    if not n:
        return ratio(0, 0, random=random)

    xu, mu = per_cluster(x, unit_keys)
    iv = clustered_wilson(xu, mu, nested=per_cluster(x, item_keys) if item_keys is not None else None)
    s = float(x.sum())
    num: float = int(s) if s.is_integer() else s
    return MetricValue(100.0 * s / n, num, n, n, (round(100 * iv.low, 4), round(100 * iv.high, 4)), random,
                       units=iv.units, deff=iv.deff, method=iv.method)


def wilson_ci(successes: float, total: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval in percent, rounded to 4 decimals (:func:`probe_ui.stats.wilson`): well-behaved at 0 %
    and 100 % and for small n, unlike the normal one."""
    lo, hi = wilson(successes, total, z)
    return (round(100 * lo, 4), round(100 * hi, 4))
