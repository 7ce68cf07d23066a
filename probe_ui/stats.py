"""The statistics every view quotes, in one place: Wilson intervals, Newcombe's differences (independent and paired),
the exact McNemar test, Holm's adjustment and percentile bootstrap intervals.

Pure functions of counts (no pandas), so that score, the Results tab, the report and ``probe-ui compare`` give the
same figure for the same counts. Proportions are in 0-1 here; callers that show percent multiply.

References:

- Wilson (1927): the score interval for one proportion.
- Newcombe (1998a), Statistics in Medicine 17:873-890, method 10: the difference of two independent proportions
  from their two Wilson intervals ("square and add").
- Newcombe (1998b), Statistics in Medicine 17:2635-2650, method 10: the same for paired proportions, with the
  correlation of the two estimates (phi, continuity-corrected as in Fagerland, Lydersen & Laake, "Statistical
  Analysis of Contingency Tables", 2017, ch. 8).
- McNemar's test, exact conditional form: of the discordant pairs, how many went each way, tested against a fair
  coin (a two-sided binomial test).
- Holm (1979): step-down adjustment of several p-values, controlling the family-wise error rate.
"""

from __future__ import annotations

import math
import zlib
from typing import Any, Callable, Sequence

import numpy as np

Z95 = 1.959964  # the standard normal's 97.5th percentile (two-sided 95 %), as every figure so far was computed


def wilson(successes: float, total: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / total`` as proportions (0-1); (0, 1) when ``total`` is 0."""
    if total <= 0:
        return 0.0, 1.0
    p = successes / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / total + z * z / (4 * total * total))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe_interval(x1: float, n1: float, x2: float, n2: float, z: float = Z95
                      ) -> tuple[float, float, float] | None:
    """The difference x1/n1 - x2/n2 of two INDEPENDENT proportions and its interval by Newcombe's hybrid score
    method (1998a, method 10), in percentage points: (difference, low, high); None when a denominator is 0.

    For paired data (the same items under two conditions) it is conservative: use :func:`newcombe_paired`."""
    if n1 <= 0 or n2 <= 0:
        return None
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return 100.0 * d, 100.0 * lo, 100.0 * hi


def newcombe_paired(both: int, first_only: int, second_only: int, neither: int, z: float = Z95
                    ) -> tuple[float, float, float] | None:
    """The difference p1 - p2 of two PAIRED proportions and its interval (Newcombe 1998b, method 10), in
    percentage points: (difference, low, high); None for an empty table.

    The table counts pairs: ``both`` right under the first and the second, ``first_only`` right only under the
    first, ``second_only`` right only under the second, ``neither``. p1 = (both + first_only) / n,
    p2 = (both + second_only) / n."""
    n = both + first_only + second_only + neither
    if n <= 0:
        return None
    r1, r2 = both + first_only, second_only + neither  # row sums: first right / wrong
    c1, c2 = both + second_only, first_only + neither  # column sums: second right / wrong
    p1, p2 = r1 / n, c1 / n
    l1, u1 = wilson(r1, n, z)
    l2, u2 = wilson(c1, n, z)
    if min(r1, r2, c1, c2) == 0:
        psi = 0.0
    else:
        a: float = both * neither - first_only * second_only
        if a > n / 2:
            a -= n / 2  # continuity correction of the correlation, as in Newcombe's method 10
        elif a >= 0:
            a = 0.0
        psi = a / math.sqrt(r1 * r2 * c1 * c2)
    d = p1 - p2
    lo = d - math.sqrt(max(0.0, (p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * psi * (p1 - l1) * (u2 - p2)))
    hi = d + math.sqrt(max(0.0, (p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * psi * (p2 - l2) * (u1 - p1)))
    return 100.0 * d, 100.0 * max(-1.0, lo), 100.0 * min(1.0, hi)


def mcnemar_exact(b: int, c: int) -> float:
    """The exact (conditional) McNemar test's two-sided p-value: of the ``b + c`` discordant pairs, ``b`` went one
    way and ``c`` the other; under "no difference" each way is a fair coin. 1.0 when there is no discordant pair.

    Computed in log space, so thousands of pairs stay exact to floating point (no overflow, no normal
    approximation)."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    if 2 * k == n:
        return 1.0
    log_half_n = -n * math.log(2.0)
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half_n for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(x - top) for x in logs)
    return min(1.0, 2.0 * tail)


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values, in the input order (None stays None and is not counted): the i-th
    smallest of m p-values is multiplied by m - i + 1, then made non-decreasing, capped at 1."""
    present = [(p, i) for i, p in enumerate(pvalues) if p is not None]
    m = len(present)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(sorted(present)):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def percentile_interval(values: Sequence[float] | np.ndarray, level: float = 0.95) -> tuple[float, float] | None:
    """The percentile interval of bootstrap replicates (NaNs dropped); None when none is finite."""
    arr = np.asarray(values, dtype=float)
    arr = arr[np.isfinite(arr)]
    if not arr.size:
        return None
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(arr, [tail, 100 - tail])
    return float(lo), float(hi)


def bootstrap(statistic: Callable[[np.ndarray], float], units: int, n_boot: int = 2000, seed: int = 0
              ) -> np.ndarray:
    """``n_boot`` replicates of ``statistic(indices)``, each over ``units`` indices drawn with replacement (the
    caller resamples whatever a unit is: an item, a pair, a group of variants). Seeded: the same call gives the
    same replicates."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, units, size=(n_boot, units)) if units else np.zeros((n_boot, 0), dtype=int)
    return np.array([statistic(idx) for idx in draws], dtype=float)


# ---- bootstrap over resampled values (the Illusion of Readiness and MedVH families) ---------------------------

def cond_rng(seed: int, name: str) -> np.random.Generator:
    """A random stream for one condition: independent of which other conditions exist."""
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, zlib.crc32(name.encode())])


def bootstrap_means(values: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``n_boot`` bootstrap resample means of ``values`` (vectorised; exact multinomial shortcut when the values
    take few distinct levels, chunked index resampling otherwise)."""
    v = np.asarray(values, dtype=float)
    n = len(v)
    if n == 0 or n_boot <= 0:
        return np.empty(0)
    levels, counts = np.unique(v, return_counts=True)
    if len(levels) <= 256:
        draws = rng.multinomial(n, counts / n, size=n_boot)
        return draws @ levels / n
    out = np.empty(n_boot)
    step = max(1, int(2e7 // n))
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        out[start:start + b] = v[rng.integers(0, n, size=(b, n))].mean(axis=1)
    return out


def percentile_ci(samples: np.ndarray, level: float = 0.95, scale: float = 100.0) -> tuple[float, float] | None:
    if not len(samples):
        return None
    lo, hi = np.percentile(samples, [50 * (1 - level), 50 * (1 + level)])
    return (round(float(scale * lo), 4), round(float(scale * hi), 4))


def sign_flip_pvalue(d: np.ndarray, n_perm: int, rng: np.random.Generator) -> tuple[float, str]:
    """Two-sided paired permutation (sign-flip) p-value for mean(d) = 0: exact for d in {-1, 0, 1}."""
    d = np.asarray(d, dtype=float)
    if not len(d):
        return 1.0, "exact"
    if np.isin(d, (-1.0, 0.0, 1.0)).all():
        m = int(np.count_nonzero(d))
        s = abs(int(round(d.sum())))
        if m == 0:
            return 1.0, "exact"
        k = np.arange(m + 1)
        logfact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, m + 1)))])
        logpmf = logfact[m] - logfact[k] - logfact[m - k] - m * np.log(2.0)
        extreme = np.abs(2 * k - m) >= s
        return float(min(1.0, np.exp(logpmf[extreme]).sum())), "exact"
    n = len(d)
    obs = abs(d.mean())
    hits = 0
    step = max(1, int(2e7 // n))
    for start in range(0, n_perm, step):
        b = min(step, n_perm - start)
        signs = rng.integers(0, 2, size=(b, n), dtype=np.int8) * 2 - 1
        hits += int((np.abs((signs * d).mean(axis=1)) >= obs - 1e-12).sum())
    return (1 + hits) / (1 + n_perm), "monte-carlo"


# ---- agreement: Cohen's and Fleiss' kappa with percentile bootstrap intervals ----------------------------------

def _r(x: Any) -> float | None:
    return None if x is None or not np.isfinite(x) else round(float(x), 4)


def _weights(n: int, n_boot: int, seed: int) -> np.ndarray:
    """Bootstrap resamples of n subjects as counts (n_boot x n): how often each subject is drawn."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(float)


def _kappa_from_confusion(conf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cohen's kappa, p_o, p_e of confusion tables (..., k, k); kappa NaN where p_e = 1."""
    total = conf.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        po = np.trace(conf, axis1=-2, axis2=-1) / total
        pe = (conf.sum(axis=-1) * conf.sum(axis=-2)).sum(axis=-1) / (total * total)
        kappa = np.where(pe < 1 - 1e-12, (po - pe) / (1 - pe), np.nan)
    return kappa, po, pe


def _kappa_from_counts(counts: np.ndarray, weights: np.ndarray | None = None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fleiss' kappa, P, P_e of a subjects x categories count table (rows with n_i >= 2), optionally under
    bootstrap weights (B x subjects)."""
    n_i = counts.sum(axis=1)
    p_i = (counts * (counts - 1)).sum(axis=1) / (n_i * (n_i - 1))
    w = np.ones((1, len(counts))) if weights is None else weights
    with np.errstate(divide="ignore", invalid="ignore"):
        p_bar = (w @ p_i) / w.sum(axis=1)
        p_k = (w @ counts) / (w @ n_i)[:, None]
        pe = (p_k * p_k).sum(axis=1)
        kappa = np.where(pe < 1 - 1e-12, (p_bar - pe) / (1 - pe), np.nan)
    return kappa, p_bar, pe


def _ci(samples: np.ndarray) -> list[float | None] | None:
    ok = samples[np.isfinite(samples)]
    if not len(ok):
        return None
    lo, hi = np.percentile(ok, [2.5, 97.5])
    return [_r(lo), _r(hi)]


def cohen_kappa(a: Sequence[str], b: Sequence[str], categories: Sequence[str] | None = None, *, n_boot: int = 2000,
                seed: int = 0) -> dict[str, Any]:
    """Cohen's kappa of two raters' paired ratings (module doc): ``{method, kappa, ci, n, observed, expected}``."""
    if categories is None:
        categories = sorted(set(a) | set(b))
    k = len(categories)
    idx = {c: i for i, c in enumerate(categories)}
    codes = np.array([idx[x] * k + idx[y] for x, y in zip(a, b)], dtype=np.int64)
    n = len(codes)
    out: dict[str, Any] = {"method": "cohen", "kappa": None, "ci": None, "n": n, "observed": None, "expected": None}
    if not n:
        return out
    onehot = np.zeros((n, k * k))
    onehot[np.arange(n), codes] = 1.0
    kappa, po, pe = _kappa_from_confusion(onehot.sum(axis=0).reshape(k, k))
    out.update(kappa=_r(kappa), observed=_r(po), expected=_r(pe))
    if n_boot and n > 1:
        boot, _, _ = _kappa_from_confusion((_weights(n, n_boot, seed) @ onehot).reshape(-1, k, k))
        out["ci"] = _ci(boot)
    return out


def fleiss_kappa(counts: np.ndarray, *, n_boot: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Fleiss' kappa of a subjects x categories table of rating counts (module doc; subjects rated fewer than
    twice are left out): ``{method, kappa, ci, n, observed, expected}``."""
    counts = np.asarray(counts, dtype=float)
    counts = counts[counts.sum(axis=1) >= 2] if counts.ndim == 2 else counts.reshape(0, 1)
    n = len(counts)
    out: dict[str, Any] = {"method": "fleiss", "kappa": None, "ci": None, "n": n, "observed": None, "expected": None}
    if not n:
        return out
    kappa, p_bar, pe = _kappa_from_counts(counts)
    out.update(kappa=_r(kappa[0]), observed=_r(p_bar[0]), expected=_r(pe[0]))
    if n_boot and n > 1:
        boot, _, _ = _kappa_from_counts(counts, _weights(n, n_boot, seed))
        out["ci"] = _ci(boot)
    return out
