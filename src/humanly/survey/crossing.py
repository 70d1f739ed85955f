"""Reading a score off a power curve (Survey Equivalence, Algorithm 4) and the bootstrap ranges of the
curve and of the reading, with the percentile rule shared by every analysis (:mod:`humanly._bootstrap`).
"""

from __future__ import annotations

import math

import numpy as np

from .._bootstrap import percentile_interval
from .._result import Interval
from .results import PowerCurvePoint

__all__ = ["curve_points", "equivalence_interval", "equivalence_point"]

#: Codes of a score the curve does not place: at or below c_0, or above every point of the curve.
BELOW_0 = "below_0"
ABOVE_MAX = "above_max"


def equivalence_point(
    ks: np.ndarray, curve: np.ndarray, h: float
) -> tuple[float | None, str | None]:
    """Algorithm 4: the fractional survey equivalence of score ``h`` on curve ``c_k`` (leftmost
    crossing, linear interpolation between k − 1 and k); ``(None, "below_0")`` when h ≤ c_0 and
    ``(None, "above_max")`` when no point of the curve exceeds h.

    >>> curve = np.array([0.5, 0.625, 0.875])
    >>> equivalence_point(np.arange(3), curve, 0.75)
    (1.5, None)
    >>> equivalence_point(np.arange(3), curve, 0.9)
    (None, 'above_max')
    """
    if not np.isfinite(h) or not len(curve) or not np.isfinite(curve[0]):
        return None, None
    if h <= curve[0]:
        return None, BELOW_0
    for j in range(1, len(curve)):
        if not np.isfinite(curve[j]):
            break
        if curve[j] > h:
            return float(
                ks[j - 1] + (h - curve[j - 1]) / (curve[j] - curve[j - 1]) * (ks[j] - ks[j - 1])
            ), None
    return None, ABOVE_MAX


def equivalence_interval(ks: np.ndarray, curves: np.ndarray, scores: np.ndarray) -> Interval:
    """95% range of the survey equivalence over bootstrap replicates: replicate b reads ``scores[b]``
    off ``curves[b]``; a replicate below 0 counts as 0, one above the curve as +∞ (a ``None`` high end),
    one the curve cannot place is left out.

    >>> curves = np.array([[0.5, 0.625, 0.875], [0.5, 0.75, 1.0]])
    >>> equivalence_interval(np.arange(3), curves, np.array([0.75, 0.25]))
    Interval(low=0.0, high=1.5)
    """
    values = []
    for b in range(len(curves)):
        e, note = equivalence_point(ks, curves[b], float(scores[b]))
        values.append(
            0.0
            if note == BELOW_0
            else math.inf
            if note == ABOVE_MAX
            else (np.nan if e is None else e)
        )
    return percentile_interval(np.array(values))


def curve_points(
    ks: np.ndarray, curve: np.ndarray, n_items: np.ndarray, replicates: np.ndarray | None
) -> tuple[PowerCurvePoint, ...]:
    """Typed curve points from the point estimate, the items per level and the bootstrap replicates
    (replicates × levels; ``None``: no range).

    >>> curve_points(np.arange(2), np.array([0.5, 0.6]), np.array([9, 8]), None)[1]
    PowerCurvePoint(k=1, score=0.6, low=None, high=None, n_items=8)
    """
    out = []
    for j, k in enumerate(ks):
        low, high = (None, None) if replicates is None else percentile_interval(replicates[:, j])
        out.append(PowerCurvePoint(int(k), float(curve[j]), low, high, int(n_items[j])))
    return tuple(out)
