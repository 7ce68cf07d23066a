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

    def to_dict(self) -> dict[str, Any]:
        """The fields by name (what ``asdict`` gives, without its deep copies: every metric block calls this)."""
        return {"value": self.value, "numerator": self.numerator, "denominator": self.denominator, "n": self.n,
                "ci": list(self.ci) if self.ci else None, "random": self.random}


def ratio(num: float, den: float, n: int | None = None, *, ci: bool = True, random: float | None = None) -> MetricValue:
    value = 100.0 * num / den if den else None
    interval = wilson_ci(num, den) if ci and den else None
    return MetricValue(value, num, den, int(den if n is None else n), interval, random)


def wilson_ci(successes: float, total: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval in percent, rounded to 4 decimals (:func:`probe_ui.stats.wilson`): well-behaved at 0 %
    and 100 % and for small n, unlike the normal one."""
    lo, hi = wilson(successes, total, z)
    return (round(100 * lo, 4), round(100 * hi, 4))
