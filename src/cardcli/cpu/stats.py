"""The few statistics ``compare`` needs, with the standard library only.

Every interval is two-sided and 95% unless said otherwise.  Differences
between rulesets are *paired*: game ``i`` of each ruleset was played from the
same seed, so the interval comes from the spread of the per-game
differences, which is small wherever the two games stayed alike.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def t_quantile(df: int, z: float = Z95) -> float:
    """Student's t quantile matching the normal quantile ``z`` (Cornish-Fisher
    expansion in ``1/df``; within 0.2% of the exact value from 5 degrees of
    freedom, and the normal quantile itself for large samples)."""
    if df <= 0:
        return math.inf
    z2 = z * z
    return (z + (z2 + 1) * z / (4 * df) + ((5 * z2 + 16) * z2 + 3) * z / (96 * df ** 2)
            + (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / (384 * df ** 3))


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile, interpolating between order statistics
    (the "inclusive" method: the median of 1, 2, 3, 4 is 2.5)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def rank_quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile as one of ``values`` (the nearest-rank method): the
    smallest value that at least a share ``q`` of them do not exceed, so a
    90th percentile of game lengths is a length some game had."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval."""

    value: float
    low: float
    high: float

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def as_list(self, digits: int = 4) -> list[float]:
        return [round(self.low, digits), round(self.high, digits)]


def paired_difference(first: Sequence[float], second: Sequence[float], z: float = Z95) -> Estimate:
    """Mean of ``first[i] - second[i]`` with a t interval over the games.

    Identical samples give exactly zero with the interval ``[0, 0]``.
    """
    differences = [a - b for a, b in zip(first, second, strict=True)]
    n = len(differences)
    mean = math.fsum(differences) / n
    if n < 2:
        return Estimate(mean, -math.inf, math.inf)
    half = t_quantile(n - 1, z) * statistics.stdev(differences) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half)


def paired_ratio(first: Sequence[float], second: Sequence[float], z: float = Z95) -> Estimate | None:
    """How much larger the mean of ``first`` is than that of ``second``, as a
    fraction (0.18 = 18% larger), with a delta-method interval for paired
    samples: the ratio ``R`` of the means has the standard error of the mean
    of ``first[i] - R * second[i]``, divided by the mean of ``second``.
    ``None`` when ``second`` averages zero."""
    n = len(first)
    mean_second = math.fsum(second) / n
    if mean_second == 0:
        return None
    ratio = math.fsum(first) / n / mean_second
    if n < 2:
        return Estimate(ratio - 1, -math.inf, math.inf)
    residuals = [a - ratio * b for a, b in zip(first, second, strict=True)]
    half = t_quantile(n - 1, z) * statistics.stdev(residuals) / math.sqrt(n) / abs(mean_second)
    return Estimate(ratio - 1, ratio - 1 - half, ratio - 1 + half)


def bonferroni_z(tests: int, level: float = 0.95) -> float:
    """The normal quantile for ``tests`` simultaneous two-sided intervals that
    together hold with probability ``level``."""
    return statistics.NormalDist().inv_cdf(1 - (1 - level) / (2 * max(1, tests)))
