"""Reading a score off a power curve (Survey Equivalence, Algorithm 4) and the bootstrap ranges of the
curve and of the reading, with the percentile rule shared by every analysis (:mod:`humanly._core.bootstrap`).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.bootstrap import percentile_interval
from .._core.result import Interval
from .results import ModelEquivalence, PowerCurvePoint

__all__ = [
    "curve_points",
    "equivalence_interval",
    "equivalence_mean",
    "equivalence_point",
    "equivalence_replicates",
    "information_ranges",
    "model_equivalence",
    "model_information_range",
]

#: Codes of a score the curve does not place: at or below c_0, or above every point of the curve.
BELOW_0 = "below_0"
ABOVE_MAX = "above_max"
#: Scores this close to c_0 (relative) are equal to it: the same number computed two ways.
SAME = 1e-12


def equivalence_point(
    ks: np.ndarray, curve: np.ndarray, h: float
) -> tuple[float | None, str | None]:
    """Algorithm 4: the fractional survey equivalence of score ``h`` on curve ``c_k`` (leftmost
    crossing, linear interpolation between k − 1 and k); ``(None, "below_0")`` when h ≤ c_0 (a score
    equal to c_0 up to rounding, within 1e-12 relative, counts as equal) and ``(None, "above_max")``
    when no point of the curve exceeds h.

    >>> curve = np.array([0.5, 0.625, 0.875])
    >>> equivalence_point(np.arange(3), curve, 0.75)
    (1.5, None)
    >>> equivalence_point(np.arange(3), curve, 0.9)
    (None, 'above_max')
    """
    if not np.isfinite(h) or not len(curve) or not np.isfinite(curve[0]):
        return None, None
    if h <= curve[0] + SAME * max(1.0, abs(float(curve[0]))):
        return None, BELOW_0
    for j in range(1, len(curve)):
        if not np.isfinite(curve[j]):
            break
        if curve[j] > h:
            return float(
                ks[j - 1] + (h - curve[j - 1]) / (curve[j] - curve[j - 1]) * (ks[j] - ks[j - 1])
            ), None
    return None, ABOVE_MAX


def equivalence_replicates(ks: np.ndarray, curves: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Each bootstrap replicate's survey equivalence: replicate b reads ``scores[b]`` off ``curves[b]``;
    a replicate below 0 counts as 0, one above the curve as +∞, one the curve cannot place as NaN.

    >>> curves = np.array([[0.5, 0.625, 0.875], [0.5, 0.75, 1.0], [0.5, 0.6, 0.7]])
    >>> equivalence_replicates(np.arange(3), curves, np.array([0.75, 0.25, 0.9])).tolist()
    [1.5, 0.0, inf]
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
    return np.array(values, dtype=float)


def equivalence_interval(
    ks: np.ndarray, curves: np.ndarray, scores: np.ndarray, level: float = 0.95
) -> Interval:
    """The ``level`` range of the survey equivalence over bootstrap replicates (see
    :func:`equivalence_replicates`; a range reaching above the curve has a ``None`` high end).

    >>> curves = np.array([[0.5, 0.625, 0.875], [0.5, 0.75, 1.0]])
    >>> equivalence_interval(np.arange(3), curves, np.array([0.75, 0.25]))
    Interval(low=0.0, high=1.5)
    """
    return percentile_interval(equivalence_replicates(ks, curves, scores), level)


def equivalence_mean(values: np.ndarray) -> float | None:
    """Mean of the replicates' survey equivalences (the paper's "mean survey equivalence", section
    3.4): replicates below 0 count as 0; ``None`` when a replicate lies above the curve (the mean is
    then unbounded) or none could be placed.

    >>> equivalence_mean(np.array([1.5, 0.0, 2.5])), equivalence_mean(np.array([1.0, np.inf]))
    (1.3333333333333333, None)
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if not len(x) or not np.isfinite(x).all():
        return None
    return float(x.mean())


def curve_points(
    ks: np.ndarray,
    curve: np.ndarray,
    n_items: np.ndarray,
    replicates: np.ndarray | None,
    level: float = 0.95,
) -> tuple[PowerCurvePoint, ...]:
    """Typed curve points from the point estimate, the items per level and the bootstrap replicates
    (replicates × levels; ``None``: no range), with ranges at ``level``.

    >>> curve_points(np.arange(2), np.array([0.5, 0.6]), np.array([9, 8]), None)[1]
    PowerCurvePoint(k=1, score=0.6, score_range=(None, None), n_items=8)
    """
    out = []
    for j, k in enumerate(ks):
        rng = (
            Interval(None, None)
            if replicates is None
            else percentile_interval(replicates[:, j], level)
        )
        out.append(PowerCurvePoint(int(k), float(curve[j]), rng, int(n_items[j])))
    return tuple(out)


def information_ranges(
    samples: np.ndarray | None, points: tuple[PowerCurvePoint, ...], level: float = 0.95
) -> tuple[Interval, ...]:
    """The ``level`` range of c_k − c_0 at each k, replicate by replicate (c_0 moves with the
    replicate), by the library's percentile rule; without replicates, no range.

    >>> curves = np.array([[0.5, 0.75], [0.25, 0.75], [0.5, 1.0]])
    >>> information_ranges(curves, (), level=0.5)[1]
    Interval(low=0.25, high=0.5)
    """
    if samples is None or not len(samples):
        return tuple(Interval(None, None) for _ in points)
    rel = samples - samples[:, :1]
    return tuple(percentile_interval(rel[:, j], level) for j in range(rel.shape[1]))


def model_information_range(
    curves: np.ndarray | None, scores: np.ndarray | None, level: float = 0.95
) -> Interval:
    """The ``level`` range of a model's score minus c_0, replicate by replicate (``scores``: the
    model's score in each replicate); no range without replicates.

    >>> model_information_range(np.array([[0.5], [0.25], [0.5]]), np.array([0.75, 0.75, 1.0]), 0.5)
    Interval(low=0.25, high=0.5)
    """
    if curves is None or scores is None or not len(curves):
        return Interval(None, None)
    return percentile_interval(scores - curves[:, 0], level)


def model_equivalence(
    name: str,
    score: float,
    samples: np.ndarray | None,
    ks: np.ndarray,
    curve: np.ndarray,
    curves: np.ndarray | None,
    level: float,
    n_items: int,
    calibration: str = "none",
    uncalibrated: bool = False,
) -> ModelEquivalence:
    """A model's row from its score on a curve: the equivalence (Algorithm 4) and, with bootstrap
    replicates (``samples`` of the score, ``curves`` of the curve), the ranges and the mean.

    >>> row = model_equivalence("m", 0.75, None, np.arange(3), np.array([0.5, 0.625, 0.875]), None,
    ...                         0.95, 10)
    >>> row.equivalence, row.equivalence_range
    (1.5, Interval(low=None, high=None))
    """
    eq, note = equivalence_point(ks, curve, score)
    score_range = eq_range = Interval(None, None)
    mean = None
    if samples is not None and curves is not None:
        score_range = percentile_interval(samples, level)
        values = equivalence_replicates(ks, curves, samples)
        eq_range = percentile_interval(values, level)
        mean = equivalence_mean(values)
    return ModelEquivalence(
        model=name,
        score=float(score),
        score_range=score_range,
        equivalence=eq,
        equivalence_note=note,
        equivalence_range=eq_range,
        n_items=int(n_items),
        equivalence_mean=mean,
        calibration=calibration,
        uncalibrated=uncalibrated,
    )
