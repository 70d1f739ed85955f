"""Reading a score off a power curve (Survey Equivalence, Algorithm 4) and the bootstrap ranges of the
curve and of the reading, with the percentile rule shared by every analysis (:mod:`humanly._core.bootstrap`).
"""

from __future__ import annotations

import dataclasses
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
    "flag_points",
    "information_intervals",
    "informative",
    "model_equivalence",
    "model_information_interval",
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
    computed: tuple[str, ...] | None = None,
    fallback: np.ndarray | None = None,
) -> tuple[PowerCurvePoint, ...]:
    """Typed curve points from the point estimate, the items per level and the bootstrap replicates
    (replicates × levels; ``None``: no range), with ranges at ``level``. ``computed`` says what each
    level holds (:mod:`humanly.survey._adaptive`; every level exact when ``None``): a range not
    computed is drawn straight between the nearest exact levels', a score between the nearest
    computed ones; ``fallback``: the ABC's share of fallback draws per level (NaN: not computed).

    >>> curve_points(np.arange(2), np.array([0.5, 0.6]), np.array([9, 8]), None)[1]
    PowerCurvePoint(k=1, score=0.6, score_interval=(None, None), n_items=8, computed='exact', \
fallback_share=None, flags=())
    >>> pts = curve_points(np.arange(3), np.array([0.5, np.nan, 0.7]), np.array([9, 9, 9]), None,
    ...                    computed=("exact", "interpolated", "exact"))
    >>> round(pts[1].score, 3), pts[1].computed
    (0.6, 'interpolated')
    """
    n_lv = len(ks)
    what = computed if computed is not None else ("exact",) * n_lv
    ranges: list[Interval | None] = [None] * n_lv
    for j in range(n_lv):
        if what[j] == "exact":
            ranges[j] = (
                Interval(None, None)
                if replicates is None
                else percentile_interval(replicates[:, j], level)
            )
    scores = np.array(curve, dtype=float)
    known = np.flatnonzero([w != "interpolated" for w in what])
    exact = list(ranges)
    for j in range(n_lv):
        if what[j] == "interpolated":
            scores[j] = _straight(ks, known, scores, j)
        if exact[j] is None:
            ranges[j] = straight_interval(ks, exact, j)
    out = []
    for j, k in enumerate(ks):
        share = None if fallback is None or not np.isfinite(fallback[j]) else float(fallback[j])
        rng = ranges[j]
        assert rng is not None
        out.append(PowerCurvePoint(int(k), float(scores[j]), rng, int(n_items[j]), what[j], share))
    return tuple(out)


def _straight(ks: np.ndarray, known: np.ndarray, values: np.ndarray, j: int) -> float:
    """The value at level j on the straight line between the nearest levels ``known`` around it."""
    left, right = known[known < j], known[known > j]
    if not len(left) or not len(right):
        return math.nan
    a, b = int(left[-1]), int(right[0])
    t = (ks[j] - ks[a]) / (ks[b] - ks[a])
    return float(values[a] + (values[b] - values[a]) * t)


def straight_interval(ks: np.ndarray, ranges: list[Interval | None], j: int) -> Interval:
    """A range at level j drawn straight between the nearest levels with a range (``None``: none),
    each end ``None`` when either neighbour's is."""
    known = np.array([i for i, r in enumerate(ranges) if r is not None and i != j], dtype=int)
    lows = np.array([np.nan if r is None or r.low is None else r.low for r in ranges], dtype=float)
    highs = np.array(
        [np.nan if r is None or r.high is None else r.high for r in ranges], dtype=float
    )
    ends = [_straight(ks, known, x, j) for x in (lows, highs)]
    low, high = (float(v) if np.isfinite(v) else None for v in ends)
    return Interval(low, high)


def informative(
    scores: np.ndarray, computed: tuple[str, ...], ks: np.ndarray
) -> tuple[int | None, str | None]:
    """The ABC's ``informative_max_k`` and its reason: the largest computed k before the first
    computed point below an earlier one (``"falls"``: the ABC scored by cross-entropy rises with k
    when it learns from enough other items, Corollary 2; it falls where the other items that hold
    the surveyed sequence become few); the largest k and ``None`` when it never falls.

    >>> informative(np.array([-1.5, -1.2, -1.1, -1.3]), ("exact",) * 4, np.arange(4))
    (2, 'falls')
    """
    best, last = -math.inf, None
    for j, k in enumerate(ks):
        if computed[j] == "interpolated" or not np.isfinite(scores[j]):
            continue
        if scores[j] < best:
            return last, "falls"
        best, last = max(best, float(scores[j])), int(k)
    return (int(ks[-1]) if len(ks) else None), None


def flag_points(
    points: tuple[PowerCurvePoint, ...], abc: bool
) -> tuple[tuple[PowerCurvePoint, ...], int | None, str | None]:
    """The points with their flags (``"outside_range"``: a computed estimate outside its own range;
    ``"fallback"``: more than half of its draws on the ABC's fallback rule; ``"not_informative"``:
    past the ABC's ``informative_max_k``), and, for the ABC, ``informative_max_k`` and its reason
    (:func:`informative`).

    >>> from humanly._core.result import Interval as I
    >>> pts = (PowerCurvePoint(0, -1.5, I(-1.6, -1.4), 9), PowerCurvePoint(1, -1.0, I(-1.3, -1.1), 9))
    >>> [p.flags for p in flag_points(pts, abc=False)[0]]
    [(), ('outside_range',)]
    """
    ks = np.array([p.k for p in points])
    scores = np.array([p.score for p in points])
    reach, why = informative(scores, tuple(p.computed for p in points), ks) if abc else (None, None)
    out = []
    for p in points:
        flags = []
        low, high = p.score_interval
        if p.computed == "exact" and (
            (low is not None and p.score < low) or (high is not None and p.score > high)
        ):
            flags.append("outside_range")
        if p.fallback_share is not None and p.fallback_share > 0.5:
            flags.append("fallback")
        if why is not None and (reach is None or p.k > reach):
            flags.append("not_informative")
        out.append(dataclasses.replace(p, flags=tuple(flags)) if flags else p)
    return tuple(out), reach, why


def information_intervals(
    samples: np.ndarray | None, points: tuple[PowerCurvePoint, ...], level: float = 0.95
) -> tuple[Interval, ...]:
    """The ``level`` range of c_k − c_0 at each k, replicate by replicate (c_0 moves with the
    replicate), by the library's percentile rule; without replicates, no range.

    >>> curves = np.array([[0.5, 0.75], [0.25, 0.75], [0.5, 1.0]])
    >>> information_intervals(curves, (), level=0.5)[1]
    Interval(low=0.25, high=0.5)
    """
    if samples is None or not len(samples):
        return tuple(Interval(None, None) for _ in points)
    rel = samples - samples[:, :1]
    return tuple(percentile_interval(rel[:, j], level) for j in range(rel.shape[1]))


def model_information_interval(
    curves: np.ndarray | None, scores: np.ndarray | None, level: float = 0.95
) -> Interval:
    """The ``level`` range of a model's score minus c_0, replicate by replicate (``scores``: the
    model's score in each replicate); no range without replicates.

    >>> model_information_interval(np.array([[0.5], [0.25], [0.5]]), np.array([0.75, 0.75, 1.0]), 0.5)
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
    >>> row.equivalence, row.equivalence_interval
    (1.5, Interval(low=None, high=None))
    """
    eq, note = equivalence_point(ks, curve, score)
    score_interval = eq_range = Interval(None, None)
    mean = None
    if samples is not None and curves is not None:
        score_interval = percentile_interval(samples, level)
        values = equivalence_replicates(ks, curves, samples)
        eq_range = percentile_interval(values, level)
        mean = equivalence_mean(values)
    return ModelEquivalence(
        model=name,
        score=float(score),
        score_interval=score_interval,
        equivalence=eq,
        equivalence_note=note,
        equivalence_interval=eq_range,
        n_items=int(n_items),
        equivalence_mean=mean,
        calibration=calibration,
        uncalibrated=uncalibrated,
    )
