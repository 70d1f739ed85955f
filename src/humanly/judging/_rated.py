"""Ratings on plain arrays (public through :mod:`humanly.judging.arrays`): the share at or above a
threshold, a paired difference of two models, a quantile, and the small-sample rule's interval.

The arithmetic is in :mod:`humanly.judging._scores` (quantiles, indicators) and
:mod:`humanly.judging._small` (the small-sample interval); the mean of a rating is PPI++ itself."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.checks import check_choice, check_number, check_probability
from .._core.result import Interval
from ..errors import InputError, setting
from . import _scores, _small
from ._parts import Estimate, estimate_of
from ._ppi import Fit, fit, moments, z_value
from ._vectors import INF, lam_of, three
from .extended import IntervalChoice, QuantileEstimate

__all__ = [
    "paired_difference",
    "rating_mean",
    "rating_quantile",
    "share_at_least",
    "small_sample_mean",
]


def rating_mean(
    y: Any, f: Any, f_unlabelled: Any, *, level: float = 0.95, lam: float | None = None
) -> Estimate:
    """The mean human rating (1–5, 1–10, any real score) from human ratings on the labelled items
    and the judge's on all items: PPI++ (ppi-python's ``ppi_mean_ci``).

    Parameters
    ----------
    y : array_like
        The human rating on the labelled items.
    f, f_unlabelled : array_like
        The judge's rating on the labelled and the unlabelled items.
    level : float
        The interval's level.
    lam : float or None
        λ; ``None`` tunes it (PPI++), 1 is PPI, 0 the human ratings alone.

    Returns
    -------
    Estimate

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> human = rng.integers(1, 6, 1100); judged = np.clip(human + rng.integers(-1, 2, 1100), 1, 5)
    >>> e = rating_mean(human[:100], judged[:100], judged[100:])
    >>> bool(e.interval.low < 3 < e.interval.high), bool(e.effective_n > 100)
    (True, True)
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    y_, f_, fu = three(y, f, f_unlabelled)
    return estimate_of(fit(y_, f_, moments(fu), lam=lam_of(lam)), 0, level, -INF, INF)


def share_at_least(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    threshold: float,
    *,
    level: float = 0.95,
    lam: float | None = None,
    probability: bool = False,
) -> Estimate:
    """The share of items whose human rating is at or above ``threshold`` (PPI++ on the indicators
    1{rating ≥ threshold}).

    Parameters
    ----------
    y : array_like
        The human rating on the labelled items.
    f, f_unlabelled : array_like
        The judge's rating on the labelled and the unlabelled items (or, with ``probability``, its
        probability that the rating is at or above ``threshold``).
    threshold : float
        k: the share of ratings ≥ k is estimated.
    level : float
        The interval's level.
    lam : float or None
        λ; ``None`` tunes it (PPI++).
    probability : bool
        ``f`` and ``f_unlabelled`` are the judge's probabilities of a rating ≥ k, used as they are.

    Returns
    -------
    Estimate

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> human = rng.integers(1, 6, 1100); judged = np.clip(human + rng.integers(-1, 2, 1100), 1, 5)
    >>> e = share_at_least(human[:100], judged[:100], judged[100:], 4)
    >>> bool(e.interval.width < e.classical_interval.width)
    True
    """
    k = float(check_number("threshold", threshold))
    level = check_probability("level", level, open_low=True, open_high=True)
    y_, f_, fu = three(y, f, f_unlabelled)
    if probability and (min(f_.min(), fu.min()) < 0 or max(f_.max(), fu.max()) > 1):
        raise InputError(
            "f: probability=True but the judge's values leave [0, 1]; give probabilities"
        )
    if not probability:
        f_, fu = _scores.at_least(f_, k), _scores.at_least(fu, k)
    r = fit(_scores.at_least(y_, k), f_, moments(fu), lam=lam_of(lam))
    return estimate_of(r, 0, level, -INF, INF)


def paired_difference(
    y: Any,
    y_other: Any,
    f: Any,
    f_other: Any,
    f_unlabelled: Any,
    f_unlabelled_other: Any,
    *,
    level: float = 0.95,
    lam: float | None = None,
) -> Estimate:
    """Two models rated on the same items: the mean of (model − other), PPI++ on the per-item
    differences of the human ratings and of the judge's (what the items share cancels).

    Parameters
    ----------
    y, y_other : array_like
        The human rating of each model's output on the labelled items.
    f, f_other : array_like
        The judge's rating of each model's output on the labelled items.
    f_unlabelled, f_unlabelled_other : array_like
        The judge's rating of each model's output on the unlabelled items.
    level : float
        The interval's level.
    lam : float or None
        λ; ``None`` tunes it (PPI++).

    Returns
    -------
    Estimate

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.normal(4, 1, 1100), rng.normal(3.5, 1, 1100)
    >>> ja, jb = a + rng.normal(0, 0.3, 1100), b + rng.normal(0, 0.3, 1100)
    >>> e = paired_difference(a[:100], b[:100], ja[:100], jb[:100], ja[100:], jb[100:])
    >>> bool(e.interval.low > 0)
    True
    """
    y_, f_, fu = three(y, f, f_unlabelled)
    y2, f2, fu2 = three(y_other, f_other, f_unlabelled_other)
    if (len(y2), len(fu2)) != (len(y_), len(fu)):
        raise InputError(
            f"y_other: {len(y2)} labelled and {len(fu2)} unlabelled items for {len(y_)} and "
            f"{len(fu)}; rate both models on the same items"
        )
    level = check_probability("level", level, open_low=True, open_high=True)
    r = fit(y_ - y2, f_ - f2, moments(fu - fu2), lam=lam_of(lam))
    return estimate_of(r, 0, level, -INF, INF)


def rating_quantile(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    quantile: float,
    *,
    level: float = 0.95,
    exact_grid: bool = False,
    weights: Any = None,
    weights_unlabelled: Any = None,
) -> QuantileEstimate:
    """A quantile of the human rating from human ratings on some items and the judge's on all (PPI).

    Ratings with at most 20 distinct values (a 1–5 or 1–10 scale) are quantiled level by level (the
    least level whose rectified distribution function reaches q; the interval every level not
    rejected by the two one-sided tests); other ratings on ppi-python's grid, as its
    ``ppi_quantile_ci`` (5,000 values, or every value seen with ``exact_grid``).

    Parameters
    ----------
    y, f, f_unlabelled : array_like
        The human rating and the judge's on the labelled items, the judge's on the unlabelled ones.
    quantile : float
        q in (0, 1) (0.5: the median).
    level : float
        The interval's level.
    exact_grid : bool
        ppi-python's grid of every value seen instead of 5,000 evenly spaced ones.
    weights, weights_unlabelled : array_like, optional
        Sample weights of the labelled and unlabelled items (ppi-python's ``w``, ``w_unlabeled``).

    Returns
    -------
    QuantileEstimate

    Raises
    ------
    InputError
        ``quantile`` outside (0, 1), arrays that do not match.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> human = rng.normal(0, 1, 5100); judged = human + rng.normal(0, 0.5, 5100)
    >>> r = rating_quantile(human[:100], judged[:100], judged[100:], 0.5)
    >>> r.method, bool(r.interval.low < 0 < r.interval.high)
    ('grid', True)

    References
    ----------
    Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science*
    (2023); ppi-python 0.2.3 ``ppi_quantile_ci``.
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    q = float(
        check_number("quantile", quantile, minimum=0, maximum=1, open_low=True, open_high=True)
    )
    y_, f_, fu = three(y, f, f_unlabelled)
    r = _scores.fit_quantile(
        y_,
        f_,
        fu,
        q,
        level=level,
        exact_grid=bool(exact_grid),
        weights=weights,
        weights_unlabelled=weights_unlabelled,
    )
    end = (None if np.isnan(r.low) else r.low, None if np.isnan(r.high) else r.high)
    return QuantileEstimate(
        q,
        r.point,
        Interval(*end),
        r.classical_point,
        Interval(r.classical_low, r.classical_high),
        r.n,
        r.n_unlabelled,
        r.method,
    )


def small_sample_mean(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    *,
    kind: str = "mean",
    scale: tuple[float, float] = (0.0, 1.0),
    level: float = 0.95,
    interval: str = "auto",
    lam: float | None = None,
) -> IntervalChoice:
    """PPI++ with the interval the small-sample rule chooses: below the n where PPI's interval
    under-covers (docs/judge.md's coverage table) the adjusted human-only interval, which keeps its
    level, and the code ``small_sample``.

    Parameters
    ----------
    y, f, f_unlabelled : array_like
        The human reference and the judge's score on the labelled items, the judge's on the
        unlabelled ones (for ``kind="difference"``, the per-item differences of two models').
    kind : {"mean", "difference"}
        A mean (an accuracy, a rating) or a paired difference of two.
    scale : tuple of float
        The range of one model's values: (0, 1) for an accuracy, the rating scale's ends.
    level : float
        The interval's level.
    interval : {"auto", "clt", "adjusted"}
        The rule, or either interval forced.
    lam : float or None
        λ for the central-limit interval; ``None`` tunes it (PPI++).

    Returns
    -------
    IntervalChoice

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = (rng.random(50) < 0.8).astype(float); f = np.where(rng.random(50) < 0.9, y, 1 - y)
    >>> r = small_sample_mean(y, f, (rng.random(5000) < 0.78).astype(float))
    >>> r.method, r.code, r.small_n
    ('adjusted', 'small_sample', 500)
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    check_choice("kind", kind, _small.KINDS)
    low, high = (float(check_number("scale", v)) for v in scale)
    if not low < high:
        raise InputError(f"{setting('scale', tuple(scale))}: give (low, high) with low < high")
    y_, f_, fu = three(y, f, f_unlabelled)
    r: Fit = fit(y_, f_, moments(fu), lam=lam_of(lam))
    method, code = _small.interval_method(len(y_), kind, interval)
    e = estimate_of(r, 0, level, -INF, INF)
    if method == "adjusted":
        point, se = _small.adjusted(y_, kind=kind, low=low, high=high, level=level)
        z = z_value(level)
        p, s = float(point[0]), float(se[0])
        eff = e.sd**2 / s**2 if s > 0 else None
        e = Estimate(
            p,
            Interval(p - z * s, p + z * s),
            s,
            0.0,
            e.classical_point,
            e.classical_interval,
            eff,
            None if eff is None else eff / e.n,
            e.correlation,
            e.sd,
            e.n,
        )
    return IntervalChoice(e, method, kind, _small.SMALL_N[kind], code)
