"""95% intervals for the benchmark's two kinds of figure, pure Python (no scipy):

- recall, k calls heard of n: the Wilson score interval (Wilson 1927), which
  stays inside [0, 1] and is sensible at k = 0 and k = n, unlike k/n ± 1.96·se;
- a false-wake rate, k wakes in T hours: the exact (Garwood) Poisson interval,
  found by bisection on the Poisson CDF, so "0 in 2 h" reads 0–1.8 per hour,
  not "0".

Both are two-sided at `CONFIDENCE` (each tail 2.5%)."""
from __future__ import annotations

import math

CONFIDENCE = 0.95
Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile


def wilson(hits: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion hits/n, as (low, high) in [0, 1].
    n = 0 gives (0, 1): nothing measured, nothing known."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= hits <= n:
        raise ValueError(f"hits must be within 0…{n}, got {hits}")
    p = hits / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # Rounding must not put the bound past the point estimate at k = 0 or k = n.
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


def poisson_cdf(k: int, mean: float) -> float:
    """P(X ≤ k) for X ~ Poisson(mean), summed in log space (k up to thousands)."""
    if mean <= 0:
        return 1.0
    total, term = 0.0, -mean  # log of e^-mean · mean^0 / 0!
    for i in range(k + 1):
        if i:
            term += math.log(mean) - math.log(i)
        total += math.exp(term)
    return min(1.0, total)


def _solve(f, lo: float, hi: float, iterations: int = 200) -> float:
    """The root of a function decreasing in [lo, hi] (f(lo) > 0 > f(hi)), by bisection."""
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def poisson_count(k: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The exact two-sided interval on a Poisson mean after observing k events."""
    if k < 0:
        raise ValueError(f"a count cannot be negative, got {k}")
    tail = (1 - confidence) / 2
    high_end = k + 10 * math.sqrt(k + 1) + 10
    # Upper: the mean at which seeing ≤ k has probability `tail`.
    upper = _solve(lambda m: poisson_cdf(k, m) - tail, 0.0, high_end)
    # Lower (k > 0): the mean at which seeing ≥ k has probability `tail`.
    lower = 0.0 if k == 0 else _solve(lambda m: tail - (1 - poisson_cdf(k - 1, m)), 0.0, high_end)
    return lower, upper


def poisson_rate(events: int, hours: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The interval on a rate per hour after `events` in `hours` of audio."""
    if hours <= 0:
        raise ValueError("a rate needs some hours of audio")
    low, high = poisson_count(events, confidence)
    return low / hours, high / hours


def pct_interval(hits: int, n: int) -> str:
    """"93.3% (89.1–96.0)": a recall and its Wilson interval, in percent; "n/a" for n = 0."""
    if n <= 0:
        return "n/a"
    low, high = wilson(hits, n)
    return f"{100 * hits / n:.1f}% ({100 * low:.0f}–{100 * high:.0f})"


def rate_interval(events: int, hours: float) -> str:
    """"0.50 (0.06–1.81)": false wakes per hour and the exact Poisson interval."""
    if hours <= 0:
        return "—"
    low, high = poisson_rate(events, hours)
    return f"{events / hours:.2f} ({low:.2f}–{high:.2f})"
