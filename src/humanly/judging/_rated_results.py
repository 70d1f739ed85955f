"""What the judge analysis of ratings returns per model and per pair of models (part of
:class:`~humanly.judging.JudgeResult`): the mean rating, the share at or above a threshold and a
quantile, from human ratings on some items and the judges' on all, and the paired differences."""

from __future__ import annotations

import dataclasses

from .._core.result import Result
from ._parts import Estimate
from .extended import QuantileEstimate

__all__ = ["ModelRating", "RatingComparison"]


@dataclasses.dataclass(frozen=True, repr=False)
class ModelRating(Result):
    """One model's ratings: the mean, the share at or above the threshold, a quantile.

    Parameters
    ----------
    model : str
        The model.
    mean : Estimate
        The mean human rating of its outputs (PPI++ with the judges' ratings).
    share : Estimate or None
        The share of its outputs rated at or above the result's ``threshold`` (``None`` without one).
    quantile : QuantileEstimate or None
        The result's ``quantile`` of its rating (PPI, ppi-python's ``ppi_quantile_ci``; ``None``
        without one).

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> e = Estimate(3.9, Interval(3.8, 4.0), 0.05, 0.6, 3.9, Interval(3.7, 4.1), 180.0, 1.8,
    ...              0.7, 1.0, 100)
    >>> ModelRating("m", e, None, None).mean.point
    3.9
    """

    model: str
    mean: Estimate
    share: Estimate | None = None
    quantile: QuantileEstimate | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class RatingComparison(Result):
    """Two models rated on the same items: the paired differences ``first − second``.

    Parameters
    ----------
    first, second : str
        The models.
    mean_difference : Estimate
        mean rating(first) − mean rating(second), from the per-item differences.
    share_difference : Estimate or None
        The difference of their shares at or above the threshold (``None`` without one).

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> d = Estimate(0.3, Interval(0.1, 0.5), 0.1, 0.6, 0.3, Interval(0.0, 0.6), 180.0, 1.8,
    ...              0.7, 1.0, 100)
    >>> RatingComparison("a", "b", d).mean_difference.interval.low > 0
    True
    """

    first: str
    second: str
    mean_difference: Estimate
    share_difference: Estimate | None = None
