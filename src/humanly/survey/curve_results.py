"""The survey power curve as a result: its points (:class:`PowerCurvePoint`) and the curve with its
bootstrap ranges (:class:`PowerCurve`), and the mixin every result holding a curve shares."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .._core.result import Interval, Result
from ._tables import frame as _frame

__all__ = ["PowerCurve", "PowerCurvePoint"]


@dataclasses.dataclass(frozen=True, repr=False)
class PowerCurvePoint(Result):
    """One point of the survey power curve.

    Parameters
    ----------
    k : int
        The number of raters whose labels are combined.
    score : float
        c_k: the expected score of their combined labels against held-out raters.
    score_interval : Interval
        Its percentile bootstrap range at the result's ``level`` (both ends ``None`` without a
        bootstrap).
    n_items : int
        The items with at least k + r labels (the items used at this k).
    computed : {"exact", "score", "interpolated"}
        ``"exact"``: score and range from the data and every replicate (as ``every_k=True``);
        ``"score"``: the score, its range drawn straight; ``"interpolated"``: both drawn straight.
    fallback_share : float or None
        The ABC: the share of the draws at this k whose prediction used the fallback rule (no
        other item has any y + e_l); ``None`` for other combiners or when not computed.
    flags : tuple of str
        ``"outside_range"`` (the estimate outside its own range), ``"fallback"`` (fallback share
        above one half), ``"not_informative"`` (past the result's ``informative_max_k``).

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> p = PowerCurvePoint(k=1, score=0.7, score_interval=Interval(0.65, 0.75), n_items=100)
    >>> p.score_interval.width
    0.09999999999999998
    """

    k: int
    score: float
    score_interval: Interval
    n_items: int
    computed: str = "exact"
    fallback_share: float | None = None
    flags: tuple[str, ...] = ()


_POINT_COLUMNS = ("k", "score", "score_interval", "n_items")


class _Curve:
    """The arrays of a result that holds a ``power_curve``."""

    power_curve: tuple[PowerCurvePoint, ...]

    @property
    def ks(self) -> np.ndarray:
        """The survey sizes k of the curve's points, as an array.

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import power_curve
        >>> power_curve(running_example(100, 4, seed=1).ratings, bootstrap=0).ks.tolist()
        [0, 1, 2, 3]
        """
        return np.array([p.k for p in self.power_curve])

    @property
    def scores(self) -> np.ndarray:
        """The curve's scores c_k, as an array.

        Examples
        --------
        >>> from humanly.simulate import running_example
        >>> from humanly.survey import power_curve
        >>> pc = power_curve(running_example(100, 4, seed=1).ratings, bootstrap=0)
        >>> bool((pc.scores[1:] >= pc.scores[0]).all())
        True
        """
        return np.array([p.score for p in self.power_curve])


@dataclasses.dataclass(frozen=True, repr=False)
class PowerCurve(_Curve, Result):
    """A survey power curve (Algorithm 3) with its bootstrap ranges.

    Parameters
    ----------
    combiner, scorer : str
        The combiner of k labels and the scorer (their names).
    method : str
        ``"exact"`` or ``"sampled"``.
    n_items : int
        The rated items.
    bootstrap : int
        The bootstrap replicates behind the ranges (0: none).
    level : float
        The confidence level of the ranges.
    reference_size : int
        r, the held-out raters whose plurality is the reference label.
    power_curve : tuple of PowerCurvePoint
        c_0 … c_K'.
    information_intervals : tuple of Interval or None
        With the ABC and cross-entropy: the range of c_k − c_0 at each k, taken replicate by
        replicate.
    curve_samples : numpy.ndarray or None
        The bootstrap replicates of the curve (replicates × points); in memory only, not in the JSON.
    informative_max_k, informative_reason : int or None, {None, "falls"}
        As :class:`~humanly.survey.EquivalenceResult`'s: the last computed k before the curve first
        falls below an earlier point, and why.

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> none = Interval(None, None)
    >>> pc = PowerCurve("abc", "cross_entropy", "exact", 10, 0, 0.95, 1,
    ...                 (PowerCurvePoint(0, -1.0, none, 10), PowerCurvePoint(1, -0.9, none, 10)))
    >>> pc.to_frame()[["k", "score"]].to_dict("list")
    {'k': [0, 1], 'score': [-1.0, -0.9]}
    """

    combiner: str
    scorer: str
    method: str
    n_items: int
    bootstrap: int
    level: float
    reference_size: int
    power_curve: tuple[PowerCurvePoint, ...]
    information_intervals: tuple[Interval, ...] | None = None
    curve_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    informative_max_k: int | None = None
    informative_reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """The curve as a table: one row per k (``k, score, score_low, score_high, n_items``)."""
        return _frame(self.power_curve, _POINT_COLUMNS)
