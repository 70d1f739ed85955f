"""Bootstrap intervals shared by the analyses.

Replicates are drawn by the analyses themselves (replicate ``i`` from :func:`humanly._core.rng.stream`
``(seed, i)``, so results do not depend on how the work is split); this module turns replicate values
into percentile intervals, one rule for every analysis.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .result import Interval

__all__ = ["percentile", "percentile_interval"]

#: ``"inverted_cdf"``: an order statistic of the replicates (survey equivalence, agreement);
#: ``"linear"``: numpy's default interpolation between order statistics (the budget planner).
Method = Literal["inverted_cdf", "linear"]


def percentile(values: np.ndarray, q: float, method: Method = "inverted_cdf") -> float | None:
    """The ``q``-th percentile (0–100) of the values, NaN left out; ``None`` when nothing is left or
    the percentile is infinite (e.g. replicates "above the largest k" coded as +inf)."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return None
    v = float(np.percentile(x, q, method=method))
    return v if np.isfinite(v) else None


def percentile_interval(
    values: np.ndarray, level: float = 0.95, method: Method = "inverted_cdf"
) -> Interval:
    """The central ``level`` percentile interval of bootstrap replicates (NaN replicates ignored; an end
    is ``None`` when no replicate is left or it is infinite).

    >>> percentile_interval(np.arange(1, 101))
    Interval(low=3.0, high=98.0)
    """
    tail = round(50.0 * (1.0 - level), 10)  # 2.5 exactly for level 0.95 (1 − 0.95 is not 0.05)
    return Interval(percentile(values, tail, method), percentile(values, 100.0 - tail, method))
