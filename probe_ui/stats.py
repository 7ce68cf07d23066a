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

Answers that come in clusters (issue 43: 41 variants of one image are one image's worth of evidence, not 41):

- Rao & Scott (1981, 1992), JASA 76:221-230 and Biometrics 48:577-585: the design effect of a proportion over
  clusters, its cluster-robust (sandwich) variance over the binomial one; the interval is Wilson's over the
  effective sample size n / deff, with Student's t on (clusters - 1) degrees of freedom for its quantile
  (:func:`clustered_wilson`). Where every cluster holds one answer it is Wilson's interval itself.
- Durkalski, Palesch, Lipsitz & Rust (2003), Statistics in Medicine 22:2417-2428: McNemar's test for clustered
  matched pairs, X^2 = (sum_k (b_k - c_k) / n_k)^2 / sum_k ((b_k - c_k) / n_k)^2 on 1 degree of freedom
  (:func:`durkalski`). Where every cluster holds one pair, the exact McNemar test is used (:func:`clustered_mcnemar`).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
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


def per_cluster(values: Sequence[float] | np.ndarray, keys: Sequence[Any] | np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each cluster's sum of ``values`` and its size (clusters by ``keys``, in order of first appearance): the
    counts every clustered interval and test starts from."""
    import pandas as pd

    k = np.asarray(keys)
    codes, uniq = pd.factorize(k if k.dtype.kind in "iu" else pd.Series(k.astype(object)))  # ints: fast path
    return (np.bincount(codes, weights=np.asarray(values, dtype=float), minlength=len(uniq)),
            np.bincount(codes, minlength=len(uniq)).astype(float))


def cluster_bootstrap_means(values: np.ndarray, units: np.ndarray, n_boot: int, rng: np.random.Generator
                            ) -> np.ndarray:
    """``n_boot`` bootstrap means of ``values`` drawing whole units of evidence (``units``: each value's unit key)
    with replacement: the mean of a replicate is its values' sum over its values' count. Each unit holding one
    value: :func:`bootstrap_means`, unchanged."""
    v = np.asarray(values, dtype=float)
    x, m = per_cluster(v, units)
    k = len(x)
    if k == len(v) or n_boot <= 0 or not len(v):
        return bootstrap_means(v, n_boot, rng)
    out = np.empty(n_boot)
    step = max(1, int(2e7 // k))
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        idx = rng.integers(0, k, size=(b, k))
        out[start:start + b] = x[idx].sum(axis=1) / m[idx].sum(axis=1)
    return out


def cluster_bootstrap_ci(values: np.ndarray, units: np.ndarray, items: np.ndarray, n_boot: int,
                         rng: np.random.Generator) -> tuple[float, float] | None:
    """The 95 % percentile interval (percent) of the mean of ``values`` by :func:`cluster_bootstrap_means` over the
    units of evidence, and, where units hold several items, the wider of it and the interval over the items: a
    pair whose two answers always differ by design (one right, one wrong) has no spread between pairs and would
    otherwise look certain (the rule :func:`clustered_wilson` follows). Each unit holding one value: the plain
    bootstrap's interval, unchanged."""
    ci = percentile_ci(cluster_bootstrap_means(values, units, n_boot, rng))
    if ci is None or len(per_cluster(values, units)[1]) == len(per_cluster(values, items)[1]):
        return ci
    other = percentile_ci(cluster_bootstrap_means(values, items, n_boot, rng))
    return ci if other is None else (min(ci[0], other[0]), max(ci[1], other[1]))


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


def _weights(n: int, n_boot: int, seed: int, clusters: Sequence[Any] | None = None) -> np.ndarray:
    """Bootstrap resamples of n subjects as counts (n_boot x n): how often each subject is drawn. With
    ``clusters`` (each subject's unit of evidence), whole units are drawn, each subject as often as its unit
    (a cluster bootstrap: the answers of one image agree more than answers of two)."""
    rng = np.random.default_rng(seed)
    if clusters is None:
        return rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(float)
    import pandas as pd

    codes = pd.factorize(pd.Series(list(clusters), dtype=object))[0]
    k = int(codes.max()) + 1 if len(codes) else 0
    if k == 0:
        return np.zeros((n_boot, n))
    return rng.multinomial(k, np.full(k, 1.0 / k), size=n_boot).astype(float)[:, codes]


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
                seed: int = 0, clusters: Sequence[Any] | None = None) -> dict[str, Any]:
    """Cohen's kappa of two raters' paired ratings (module doc): ``{method, kappa, ci, n, observed, expected}``;
    ``clusters``: each rated answer's unit of evidence, whose answers the bootstrap draws together (issue 43)."""
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
        boot, _, _ = _kappa_from_confusion((_weights(n, n_boot, seed, clusters) @ onehot).reshape(-1, k, k))
        out["ci"] = _ci(boot)
    return out


def fleiss_kappa(counts: np.ndarray, *, n_boot: int = 2000, seed: int = 0, clusters: Sequence[Any] | None = None
                 ) -> dict[str, Any]:
    """Fleiss' kappa of a subjects x categories table of rating counts (module doc; subjects rated fewer than
    twice are left out): ``{method, kappa, ci, n, observed, expected}``; ``clusters``: each subject's unit of
    evidence, drawn whole by the bootstrap."""
    counts = np.asarray(counts, dtype=float)
    keep = counts.sum(axis=1) >= 2 if counts.ndim == 2 else np.zeros(0, dtype=bool)
    counts = counts[keep] if counts.ndim == 2 else counts.reshape(0, 1)
    if clusters is not None:
        clusters = [c for c, k in zip(clusters, keep) if k]
    n = len(counts)
    out: dict[str, Any] = {"method": "fleiss", "kappa": None, "ci": None, "n": n, "observed": None, "expected": None}
    if not n:
        return out
    kappa, p_bar, pe = _kappa_from_counts(counts)
    out.update(kappa=_r(kappa[0]), observed=_r(p_bar[0]), expected=_r(pe[0]))
    if n_boot and n > 1:
        boot, _, _ = _kappa_from_counts(counts, _weights(n, n_boot, seed, clusters))
        out["ci"] = _ci(boot)
    return out


# ---- answers in clusters: the unit of evidence (issue 43) -----------------------------------------------------------

def t95(df: int) -> float:
    """Student's t 97.5th percentile on ``df`` degrees of freedom (the normal's for ``df`` <= 0 or very large)."""
    if df <= 0 or df > 10_000:
        return Z95
    from scipy.special import stdtrit  # t's quantile function (scipy.stats.t.ppf), without importing scipy.stats

    return float(stdtrit(df, 0.975))


def design_effect(right: Sequence[float] | np.ndarray, cells: Sequence[float] | np.ndarray) -> float | None:
    """Rao & Scott's design effect of the proportion sum(right) / sum(cells) over clusters (one entry per cluster):
    its cluster-robust variance, with the small-sample factor k / (k - 1), over the binomial p (1 - p) / n. None
    where it is undefined: fewer than two clusters, or p at 0 or 1 (no variance to compare)."""
    x, m = np.asarray(right, dtype=float), np.asarray(cells, dtype=float)
    k, n = len(x), float(m.sum())
    if k < 2 or n <= 0:
        return None
    p = float(x.sum()) / n
    binomial = p * (1 - p) / n
    if binomial <= 0:
        return None
    robust = k / (k - 1) * float(((x - p * m) ** 2).sum()) / (n * n)
    return robust / binomial


@dataclass(frozen=True)
class ClusteredInterval:
    """A proportion's 95 % interval (0-1) and what it rests on: ``units`` clusters holding ``cells`` answers, the
    design effect ``deff`` used (1: every cluster holds one answer, the interval is Wilson's), and ``method`` in
    words, as the page says it."""

    low: float
    high: float
    units: int
    cells: int
    deff: float
    method: str

    @property
    def rough(self) -> bool:
        """Fewer than 10 units: the interval is rough whatever method drew it."""
        return self.units < ROUGH_UNITS


#: below this many units an interval is rough, and the page says so
ROUGH_UNITS = 10
WILSON = "Wilson score interval"
CLUSTERED_WILSON = "Wilson interval over the effective number of units (design effect, Rao & Scott)"


def _largest_deff(levels: Sequence[tuple[np.ndarray, np.ndarray]]) -> float:
    """The largest design effect over the groupings, at least 1; where p is 0 or 1 (no variance to estimate) the
    most a grouping allows, sum(m^2) / n: every cell of a cluster alike."""
    out = 1.0
    for x, m in levels:
        if float(m.max(initial=0)) <= 1:  # a grouping of single answers: no clustering to allow for
            continue
        d = design_effect(x, m)
        if d is None:
            n = float(m.sum())
            d = float((m * m).sum()) / n if n else 1.0
        out = max(out, d)
    return out


def clustered_wilson(right: Sequence[float] | np.ndarray, cells: Sequence[float] | np.ndarray, *,
                     nested: tuple[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray] | None = None
                     ) -> ClusteredInterval:
    """The 95 % interval of sum(right) / sum(cells) where the cells come in clusters (one entry per cluster: its
    right answers and its cells). Each cluster holding one cell: Wilson's interval, unchanged. Otherwise Wilson's
    over the effective sample size n / deff (:func:`design_effect`), with t on k - 1 degrees of freedom.

    ``nested``: the same counts by a finer grouping inside the clusters (the items inside pairs). The design
    effect is the larger of the two and never below 1: a pair whose two answers always disagree by design (a
    position-biased baseline on a pair with one answer A and one B) has no variance between pairs, and would
    otherwise look certain; no interval is narrower than independent cells would give."""
    x, m = np.asarray(right, dtype=float), np.asarray(cells, dtype=float)
    k, n, s = len(x), float(m.sum()), float(x.sum())
    if n <= 0:
        return ClusteredInterval(0.0, 1.0, k, 0, 1.0, WILSON)
    levels = [(x, m)] + ([(np.asarray(nested[0], dtype=float), np.asarray(nested[1], dtype=float))] if nested else [])
    if all(float(lm.max(initial=0)) <= 1 for _, lm in levels):
        lo, hi = wilson(s, n)
        return ClusteredInterval(lo, hi, k, int(n), 1.0, WILSON)
    deff = _largest_deff(levels)
    n_eff = n / deff
    lo, hi = wilson(s / n * n_eff, n_eff, t95(k - 1))
    return ClusteredInterval(lo, hi, k, int(n), deff, CLUSTERED_WILSON)


def durkalski(b: Sequence[float] | np.ndarray, c: Sequence[float] | np.ndarray, n: Sequence[float] | np.ndarray
              ) -> tuple[float, float]:
    """Durkalski et al.'s (2003) McNemar test for clustered matched pairs: per cluster k, ``b[k]`` pairs right
    only under the first, ``c[k]`` right only under the second, of ``n[k]`` pairs. Returns (chi-square on 1 df,
    two-sided p-value); (0, 1) when no cluster has a discordant pair."""
    bb, cc, nn = (np.asarray(v, dtype=float) for v in (b, c, n))
    keep = nn > 0
    d = (bb[keep] - cc[keep]) / nn[keep]
    den = float((d * d).sum())
    if den <= 0:
        return 0.0, 1.0
    x2 = float(d.sum()) ** 2 / den
    from scipy.special import chdtrc  # chi-square's survival function (scipy.stats.chi2.sf), a lighter import

    return x2, float(chdtrc(1, x2))


def clustered_mcnemar(b: Sequence[float] | np.ndarray, c: Sequence[float] | np.ndarray,
                      n: Sequence[float] | np.ndarray, *,
                      nested: tuple[Sequence[float], Sequence[float], Sequence[float]] | None = None
                      ) -> tuple[float, str]:
    """The p-value of "no difference" for matched pairs in clusters (per cluster: ``b`` right only under the first,
    ``c`` only under the second, ``n`` pairs) and the test's name. Each cluster holding one pair: the exact
    McNemar test on the totals, unchanged. Otherwise Durkalski's test, at the clusters and at the ``nested``
    grouping inside them, and the larger p-value (as :func:`clustered_wilson`, never more certain than either)."""
    bb, cc, nn = (np.asarray(v, dtype=float) for v in (b, c, n))
    levels = [(bb, cc, nn)] + ([tuple(np.asarray(v, dtype=float) for v in nested)] if nested else [])
    if all(float(ln.max(initial=0)) <= 1 for _, _, ln in levels):
        return mcnemar_exact(int(bb.sum()), int(cc.sum())), "exact McNemar test"
    return max(durkalski(lb, lc, ln)[1] for lb, lc, ln in levels), "McNemar test for clustered pairs (Durkalski)"


def clustered_paired_difference(both: Sequence[float], first_only: Sequence[float], second_only: Sequence[float],
                                neither: Sequence[float], *, nested: tuple[Sequence[float], ...] | None = None
                                ) -> tuple[float, float, float, float] | None:
    """The paired difference p1 - p2 (first minus second) of clustered pairs, in percentage points, with its 95 %
    interval, and the design effect used: (difference, low, high, deff); None for no pair. The counts are per
    cluster (``nested``: the same four per finer grouping). Newcombe's paired interval (:func:`newcombe_paired`)
    over the table divided by the design effect of the difference (its cluster-robust variance over the variance
    of independent pairs; the larger of the two groupings', at least 1): unchanged where each cluster holds one
    pair."""
    def table(v: Sequence[Sequence[float]]) -> np.ndarray:
        return np.asarray(v, dtype=float).reshape(4, -1)

    levels = [table([both, first_only, second_only, neither])] + ([table(nested)] if nested else [])
    t = levels[0].sum(axis=1)
    n = float(t.sum())
    if n <= 0:
        return None
    deff = 1.0
    d = (t[1] - t[2]) / n
    independent = ((t[1] + t[2]) / n - d * d) / n
    for lv in levels:
        size = lv.sum(axis=0)
        k = int((size > 0).sum())
        if float(size.max(initial=0)) <= 1:
            continue
        e = (lv[1] - lv[2]) - d * size
        robust = k / (k - 1) * float((e * e).sum()) / (n * n) if k > 1 else math.inf
        if independent > 0:
            deff = max(deff, robust / independent)
        else:  # no discordant pair at all, or all one way: the most the clustering allows
            deff = max(deff, float((size * size).sum()) / n)
    if not math.isfinite(deff):
        deff = n
    r = newcombe_paired(*(float(v) / deff for v in t))  # type: ignore[arg-type]
    if r is None:
        return None
    return 100.0 * d, r[1], r[2], deff


def clustered_wilson_groups(groups: np.ndarray, right: np.ndarray, units: np.ndarray,
                            nested: np.ndarray | None = None) -> list[ClusteredInterval]:
    """:func:`clustered_wilson` for many groups of rows at once (a model's accuracy per perturbation, per level,
    per category): ``groups`` gives each row's group code (0..G-1), ``right`` its 1/0, ``units`` its unit key and
    ``nested`` its item key. One interval per group code, in code order."""
    import pandas as pd

    g = np.asarray(groups, dtype=np.int64)
    x = np.asarray(right, dtype=float)
    # a NaN counts as a row of its cluster that adds nothing to its sum (as pandas' groupby sum skips it)
    weights = np.nan_to_num(x, nan=0.0)
    n_groups = int(g.max()) + 1 if len(g) else 0

    def per(keys: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each group's clusters (their sums and sizes), in the order a ``groupby(["g", "k"], sort=False)`` gives
        them: each group's (g, k) pairs in the order they first appear (the order the design effect sums them in);
        bincount instead of a DataFrame per call, which was most of the time of a paired bootstrap
        (views/compare.py)."""
        k = pd.factorize(pd.Series(np.asarray(keys, dtype=object)))[0]
        out: list[tuple[np.ndarray, np.ndarray]] = [(np.zeros(0), np.zeros(0))] * n_groups
        if not len(g):
            return out
        kk = k.astype(np.int64) + 1  # factorize's -1 (a missing key) is a key of its own, as in the groupby
        width = int(kk.max()) + 1
        pairs, first, inv = np.unique(g * width + kk, return_index=True, return_inverse=True)
        totals = np.bincount(inv, weights=weights, minlength=len(pairs))
        sizes = np.bincount(inv, minlength=len(pairs)).astype(float)
        seen = np.argsort(first, kind="stable")
        by_group = seen[np.argsort(pairs[seen] // width, kind="stable")]
        codes = pairs[by_group] // width
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        for lo, hi in zip(starts, np.r_[starts[1:], len(codes)]):
            at = by_group[lo:hi]
            out[int(codes[lo])] = (totals[at], sizes[at])
        return out

    by_unit = per(units)
    by_item = per(nested) if nested is not None else None
    return [clustered_wilson(xu, mu, nested=by_item[i] if by_item is not None else None)
            for i, (xu, mu) in enumerate(by_unit)]


# ---- calibration: a stated confidence against being right (issue 44) ------------------------------------------------
#
# Guo, Pleiss, Sun & Weinberger (2017), "On Calibration of Modern Neural Networks", ICML, eq. 3: the expected
# calibration error over M equal-width bins of confidence, ECE = sum_m |B_m| / n * |acc(B_m) - conf(B_m)|, which is
# (1 / n) * sum_m |sum_{i in B_m} (c_i - y_i)|. HELM reports it with 10 bins (Liang et al. 2022, "Holistic
# Evaluation of Language Models", calibration), binned as Kumar, Liang & Ma's calibration library bins: right-closed,
# (0, 0.1], (0.1, 0.2], ..., (0.9, 1], a confidence of 0 in the first. Brier (1950): the mean of (c_i - y_i)^2.
#
# Its interval: the plug-in ECE is biased upward (a perfectly calibrated model's answers show a few points of ECE
# by chance), so a percentile bootstrap of it never reaches the true value near 0. :func:`clustered_calibration`
# takes, over whole units of evidence, the union of the basic bootstrap interval of the plug-in ECE (2 ECE - the
# replicates' 97.5th and 2.5th percentiles, as Kumar et al. 2019, "Verified Uncertainty Calibration", NeurIPS,
# bootstrap it) and the percentile interval of the bias-corrected ECE (each bin's |gap| less its estimated bias,
# the folded normal mean of its cluster-robust sampling spread: Kumar et al.'s normal debiasing, in closed form);
# its lower end is 0 where a wild cluster bootstrap test (each unit's residuals c - y multiplied by a random sign,
# which keeps the answers of a unit together; Cameron, Gelbach & Miller 2008) does not reject perfect calibration at
# 5 %. tests/test_calibration.py simulates calibrated and overconfident answers in clusters: over 600 runs the
# interval covered the true ECE 94 % and 97.5 % of the time.

CALIBRATION_BINS = 10


def calibration_bins(confidence: Sequence[float] | np.ndarray, n_bins: int = CALIBRATION_BINS) -> np.ndarray:
    """Each confidence's bin (0 .. n_bins - 1) among ``n_bins`` equal-width, right-closed bins of [0, 1] (the
    module's note: a confidence of 0.9 is in (0.8, 0.9], of 0 in the first bin)."""
    edges = np.arange(1, n_bins + 1) / n_bins  # k / n: the same double as a stated "90%" read as 90 / 100
    return np.clip(np.searchsorted(edges, np.asarray(confidence, dtype=float), side="left"), 0, n_bins - 1)


def expected_calibration_error(confidence: Sequence[float] | np.ndarray, correct: Sequence[float] | np.ndarray,
                               n_bins: int = CALIBRATION_BINS) -> float | None:
    """Guo et al.'s expected calibration error (0-1) over ``n_bins`` equal-width bins (the module's note); None for
    no answer."""
    c, y = np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float)
    if not len(c):
        return None
    gaps = np.bincount(calibration_bins(c, n_bins), weights=c - y, minlength=n_bins)
    return float(np.abs(gaps).sum() / len(c))


def brier_score(confidence: Sequence[float] | np.ndarray, correct: Sequence[float] | np.ndarray) -> float | None:
    """Brier's score (0-1, lower is better): the mean of (confidence - right)^2 over the answers; None for none."""
    c, y = np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float)
    return float(np.mean((c - y) ** 2)) if len(c) else None


def selective_weights(confidence: Sequence[float] | np.ndarray, coverage: float) -> np.ndarray:
    """Which answers selective prediction keeps at ``coverage`` (0-1): the ceil(coverage * n) most confident, each
    with weight 1; where answers of one confidence straddle the cut (ten answers at 90 % for four places), each of
    them shares the places left (weight 0.4): the expected choice when ties are broken at random. The accuracy at
    that coverage is sum(w * right) / sum(w)."""
    c = np.asarray(confidence, dtype=float)
    n = len(c)
    w = np.zeros(n)
    k = min(n, math.ceil(coverage * n - 1e-9))
    if not k:
        return w
    t = np.sort(c)[::-1][k - 1]  # the confidence of the last answer kept
    above = c > t
    at = c == t
    w[above] = 1.0
    w[at] = (k - int(above.sum())) / int(at.sum())
    return w


def _per_unit(values: np.ndarray, units: Any) -> np.ndarray:
    """Each unit's column sums of ``values`` (rows x columns), units in order of first appearance."""
    import pandas as pd

    k = np.asarray(units)
    codes, uniq = pd.factorize(k if k.dtype.kind in "iu" else pd.Series(k.astype(object)))
    flat = (codes[:, None] * values.shape[1] + np.arange(values.shape[1])).ravel()
    return np.bincount(flat, weights=values.ravel(), minlength=len(uniq) * values.shape[1]).reshape(len(uniq), -1)


def _profiles(per_unit: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The distinct unit rows and how many units share each, where at most half the units are distinct: units
    alike are then drawn as one profile, and a bootstrap costs the number of profiles, not of units (answers stated
    in a few round percentages repeat a lot). None where most units differ (a row hash tells, cheaply)."""
    import pandas as pd

    rows = np.ascontiguousarray(np.round(per_unit, 12) + 0.0)  # + 0.0: -0.0 and 0.0 are one value
    if pd.unique(pd.util.hash_pandas_object(pd.DataFrame(rows), index=False).to_numpy()).size > len(rows) // 2:
        return None
    as_bytes = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, counts = np.unique(as_bytes, return_index=True, return_counts=True)  # exact, byte for byte
    return rows[first], counts.astype(np.int64)


#: at most this many unit draws per bootstrap (replicates x units): 2,000 replicates up to 10,000 units, 400 over
#: 50,000 (:func:`replicates`)
MAX_DRAWS = 20_000_000
#: the fewest replicates :func:`replicates` draws (where so many units leave intervals a fraction of a point wide)
MIN_REPLICATES = 250


def replicates(n_boot: int, units: int) -> int:
    """The bootstrap replicates to draw over ``units`` units: ``n_boot``, fewer where replicates x units would pass
    :data:`MAX_DRAWS`, never under :data:`MIN_REPLICATES`."""
    return min(n_boot, max(MIN_REPLICATES, MAX_DRAWS // max(units, 1)))


def cluster_bootstrap_totals(per_unit: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``n_boot`` replicates of the column totals of ``per_unit`` (one row per unit of evidence: its sums), each
    drawing as many units as there are, with replacement: the totals of any statistic of sums (a mean, a ratio,
    binned gaps) replicate by replicate. Returns an (n_boot, columns) array."""
    u = np.asarray(per_unit, dtype=float)
    k = len(u)
    if not k or n_boot <= 0:
        return np.zeros((max(n_boot, 0), u.shape[1] if u.ndim == 2 else 0))
    found = _profiles(u)
    if found is not None:  # how many units of each profile a replicate draws is multinomial
        prof, counts = found
        return rng.multinomial(k, counts / k, size=n_boot) @ prof
    out = np.empty((n_boot, u.shape[1]))
    step = max(1, int(2e7 // k))
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        idx = rng.integers(0, k, size=(b, k))
        draws = np.bincount((np.arange(b)[:, None] * k + idx).ravel(), minlength=b * k).reshape(b, k)
        out[start:start + b] = draws @ u
    return out


def cluster_sign_flip_totals(per_unit: np.ndarray, n_flip: int, rng: np.random.Generator) -> np.ndarray:
    """``n_flip`` replicates of the column totals of ``per_unit`` with each unit's row multiplied by a random sign
    (the wild cluster bootstrap with Rademacher weights): where each unit's sums have mean 0 (a calibrated model's
    residuals c - y), the distribution of any statistic of the totals under that hypothesis, with the answers of a
    unit kept together. Returns an (n_flip, columns) array."""
    u = np.asarray(per_unit, dtype=float)
    if not len(u) or n_flip <= 0:
        return np.zeros((max(n_flip, 0), u.shape[1] if u.ndim == 2 else 0))
    prof, counts = _profiles(u) or (u, np.ones(len(u), dtype=np.int64))
    out = np.empty((n_flip, u.shape[1]))
    step = max(1, int(2e7 // len(prof)))
    for start in range(0, n_flip, step):
        b = min(step, n_flip - start)
        if counts.max() == 1:  # every unit its own profile: one sign each
            signs = rng.integers(0, 2, size=(b, len(prof)), dtype=np.int8) * 2.0 - 1.0
        else:  # the sum of each profile's signs
            signs = 2.0 * rng.binomial(counts, 0.5, size=(b, len(prof))) - counts
        out[start:start + b] = signs @ prof
    return out


def _levels(values: np.ndarray, units: Any, items: Any | None) -> list[Any]:
    """The groupings an interval is drawn over: the units, and the items where units hold several of them (the
    rule of :func:`cluster_bootstrap_ci` and :func:`clustered_wilson`: the wider interval of the two)."""
    if items is not None and len(per_cluster(values, items)[1]) != len(per_cluster(values, units)[1]):
        return [units, items]
    return [units]


def cluster_bootstrap_mean_ci(values: Sequence[float] | np.ndarray, units: Any, items: Any | None, n_boot: int,
                              rng: np.random.Generator, scale: float = 100.0) -> tuple[float, float] | None:
    """The 95 % percentile interval (x ``scale``) of the mean of ``values`` over units of evidence, and over the
    items where units hold several (the wider), as :func:`cluster_bootstrap_ci` gives it, its replicates drawn by
    :func:`cluster_bootstrap_totals` (units alike drawn as one profile, a matrix product otherwise) and as many as
    :func:`replicates` allows: fast on a hundred thousand units. None for no value."""
    v = np.asarray(values, dtype=float)
    if not len(v) or n_boot <= 0:
        return None
    lo, hi = math.inf, -math.inf
    for keys in _levels(v, units, items):
        per = _per_unit(np.column_stack([v, np.ones(len(v))]), keys)
        t = cluster_bootstrap_totals(per, replicates(n_boot, len(per)), rng)
        ci = percentile_ci(t[:, 0] / t[:, 1], scale=scale)
        if ci is not None:
            lo, hi = min(lo, ci[0]), max(hi, ci[1])
    return (lo, hi) if math.isfinite(lo) else None


def _ece_totals(t: np.ndarray, m: int) -> np.ndarray:
    """The plug-in ECE (0-1) of totals laid out as :func:`_calibration_units` lays them out (any leading shape)."""
    n = t[..., m:2 * m].sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.abs(t[..., :m]).sum(-1) / n


def _debiased_ece_totals(t: np.ndarray, m: int) -> np.ndarray:
    """The bias-corrected ECE (0-1) of totals laid out as :func:`_calibration_units`: per bin, 2 |g| - E|N(g, s^2)|,
    g its gap and s its cluster-robust standard error (the units holding answers of the bin count as its
    clusters)."""
    d, n_b, d2, dn, n2, k = (t[..., i * m:(i + 1) * m] for i in range(6))
    n = n_b.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(n_b > 0, d / np.where(n_b > 0, n_b, 1.0), 0.0)
        rss = np.maximum(d2 - 2 * g * dn + g * g * n2, 0.0)
        var = np.where(k > 1, k / np.maximum(k - 1, 1.0) * rss / np.where(n_b > 0, n_b, 1.0) ** 2, 0.0)
        s = np.sqrt(var)
        a = np.abs(g)
        z = np.where(s > 0, a / np.where(s > 0, s, 1.0), 0.0)
        from scipy.special import ndtr  # the normal CDF, without importing scipy.stats

        folded = np.where(s > 0, s * math.sqrt(2 / math.pi) * np.exp(-0.5 * z * z) + a * (1 - 2 * ndtr(-z)), a)
        return (n_b / n * (2 * a - folded)).sum(-1)


def _calibration_units(confidence: np.ndarray, correct: np.ndarray, keys: Any, m: int) -> np.ndarray:
    """Per unit (one row each), per bin: the sum of c - y, the count, and the squares and products the
    bias-corrected ECE needs (d^2, d n, n^2, and 1 where the unit has answers in the bin); then the unit's sums of
    c and of (c - y)^2 (the mean confidence and the Brier score)."""
    b = calibration_bins(confidence, m)
    x = np.zeros((len(confidence), 2 * m + 2))
    rows = np.arange(len(confidence))
    x[rows, b] = confidence - correct
    x[rows, m + b] = 1.0
    x[:, 2 * m] = confidence
    x[:, 2 * m + 1] = (confidence - correct) ** 2
    u = _per_unit(x, keys)
    d, nb = u[:, :m], u[:, m:2 * m]
    return np.concatenate([d, nb, d * d, d * nb, nb * nb, (nb > 0).astype(float), u[:, 2 * m:]], axis=1)


@dataclass(frozen=True)
class Calibration:
    """Calibration figures (0-1) of answers in units of evidence, with their 95 % intervals (the module's note):
    ``ece`` and its interval, ``p_calibrated`` (the p-value of "perfectly calibrated", the wild cluster bootstrap
    test), ``by_chance`` (the median ECE a perfectly calibrated model would show on these answers), ``mean`` (the
    mean confidence) and ``brier`` (the Brier score) with percentile bootstrap intervals, ``units`` and
    ``n_boot`` (replicates drawn). The intervals, ``p_calibrated`` and ``by_chance`` are None where no replicate
    was asked for."""

    ece: float
    mean: float
    brier: float
    units: int
    n_boot: int
    ece_ci: tuple[float, float] | None = None
    p_calibrated: float | None = None
    by_chance: float | None = None
    mean_ci: tuple[float, float] | None = None
    brier_ci: tuple[float, float] | None = None

    ECE_METHOD = ("basic bootstrap of the ECE and percentile bootstrap of the bias-corrected ECE over the units of "
                  "evidence, from 0 where a wild cluster bootstrap test does not reject perfect calibration")


def clustered_calibration(confidence: Sequence[float] | np.ndarray, correct: Sequence[float] | np.ndarray,
                          units: Any, items: Any | None = None, *, n_bins: int = CALIBRATION_BINS,
                          n_boot: int = 2000, rng: np.random.Generator | None = None) -> Calibration | None:
    """The expected calibration error, mean confidence and Brier score of answers that come in units of evidence
    (``units``: each answer's unit; ``items``: the finer grouping inside, as :func:`clustered_wilson` takes it),
    with their intervals (the module's note): over the units and, where units hold several items, over the items
    too, the wider; the test's larger p-value. One bootstrap gives all three. None for no answer. ``n_boot``
    replicates (:func:`replicates`); 0: the values alone."""
    c, y = np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float)
    if not len(c):
        return None
    ece, brier = expected_calibration_error(c, y, n_bins), brier_score(c, y)
    assert ece is not None and brier is not None
    n_units = len(per_cluster(c, units)[1])
    if n_boot <= 0:
        return Calibration(ece, float(c.mean()), brier, n_units, 0)
    rng = rng if rng is not None else np.random.default_rng(0)
    m = n_bins
    low, high = math.inf, -math.inf
    mean_ci: tuple[float, float] = (math.inf, -math.inf)
    brier_ci: tuple[float, float] = (math.inf, -math.inf)
    p, chance, drawn = 0.0, None, n_boot
    for keys in _levels(c, units, items):
        v = _calibration_units(c, y, keys, m)
        b = replicates(n_boot, len(v))
        drawn = min(drawn, b)
        t = cluster_bootstrap_totals(v, b, rng)
        n = t[:, m:2 * m].sum(-1)
        lo_p, hi_p = np.percentile(_ece_totals(t, m), [2.5, 97.5])
        lo_d, hi_d = np.percentile(_debiased_ece_totals(t, m), [2.5, 97.5])
        low, high = min(low, 2 * ece - hi_p, lo_d), max(high, 2 * ece - lo_p, hi_d)
        for name, col in (("mean", 6 * m), ("brier", 6 * m + 1)):
            lo, hi = np.percentile(t[:, col] / n, [2.5, 97.5])
            old = mean_ci if name == "mean" else brier_ci
            new = (min(old[0], float(lo)), max(old[1], float(hi)))
            mean_ci, brier_ci = (new, brier_ci) if name == "mean" else (mean_ci, new)
        null = np.abs(cluster_sign_flip_totals(v[:, :m], b, rng)).sum(-1) / len(c)
        p = max(p, (1 + int((null >= ece - 1e-12).sum())) / (1 + b))
        if chance is None:
            chance = float(np.median(null))
    low = 0.0 if p >= 0.05 else max(0.0, float(low))
    return Calibration(ece, float(c.mean()), brier, n_units, drawn, (low, max(low, float(high))), p, chance,
                       mean_ci, brier_ci)
