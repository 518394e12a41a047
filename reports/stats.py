"""Estimates with 95 % intervals, as report tables need them.

Every function returns plain floats or numpy arrays; ``Z`` is the two-sided 95 % normal
quantile used throughout.
"""

from __future__ import annotations

import math

import numpy as np

Z = 1.959963984540054


def wilson(k: np.ndarray | float, n: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score 95 % interval (lo, hi) of a proportion ``k / n``; ``k`` may be
    fractional (shared wins). ``n = 0`` gives (nan, nan)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + Z * Z / n
        centre = (p + Z * Z / (2 * n)) / denom
        half = Z * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi): the sample mean with a normal 95 % interval."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan
    return m, m - Z * se, m + Z * se


def quantile_ci(x: np.ndarray, q: float) -> tuple[float, float, float]:
    """(quantile, lo, hi): the ``q`` quantile (the order statistic of rank ceil(n q))
    with a distribution-free 95 % interval from the binomial ranks
    n q -/+ Z sqrt(n q (1 - q)) (normal approximation), clipped to the sample."""
    s = np.sort(np.asarray(x))
    n = len(s)
    half = Z * math.sqrt(n * q * (1 - q))
    rank = max(1, math.ceil(n * q))
    lo = min(n, max(1, math.floor(n * q - half)))
    hi = min(n, max(1, math.ceil(n * q + half) + 1))
    return float(s[rank - 1]), float(s[lo - 1]), float(s[hi - 1])


def ratio_ci(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """(ratio, lo, hi) of sum(num) / sum(den) over independent units (games), with the
    ratio estimator's 95 % interval: units, not the events inside them, are the
    independent draws (e.g. the share of one action kind among all actions). One unit
    gives no interval (nan, nan)."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    n = len(num)
    r = float(num.sum() / den.sum())
    if n < 2:
        return r, math.nan, math.nan
    resid = num - r * den
    se = math.sqrt(float((resid ** 2).sum()) / (n * (n - 1))) / float(den.mean())
    return r, r - Z * se, r + Z * se


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (closed forms
    of the regularised upper incomplete gamma function at half-integers)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    term = math.sqrt(h) / math.gamma(1.5)
    for i in range(1, (df + 1) // 2):
        total += math.exp(-h) * term
        term *= h / (i + 0.5)
    return min(1.0, total)


def uniformity_test(counts: np.ndarray) -> tuple[float, int, float]:
    """Pearson's chi-square test that ``counts`` (e.g. wins per seat) come from equal
    probabilities: (statistic, degrees of freedom, p-value)."""
    counts = np.asarray(counts, dtype=float)
    expected = counts.sum() / len(counts)
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = len(counts) - 1
    return stat, df, chi2_sf(stat, df)
