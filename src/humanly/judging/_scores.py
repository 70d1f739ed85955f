"""Scores, not only accuracy: the mean of a numeric rating, the share at or above a threshold, and
quantiles, from human ratings on some items and a judge's ratings on all, on plain arrays.

A rating is any number a person (or the judge) gives a model's output on an item: 1–5, 1–10, a real
score. ``y`` is the human rating of a model's output on the labelled items, ``f`` the judge's rating
of the same outputs, ``f̃`` the judge's on the unlabelled items.

* The mean rating is PPI++ on (y, f) (:func:`humanly.judging._ppi.fit`), the share at or above a
  threshold k PPI++ on (1{y ≥ k}, 1{f ≥ k}) — or, when the judge gives a distribution over the
  rating's levels, on its probability of a rating ≥ k. A paired difference between two models rated
  on the same items is PPI++ on (y_a − y_b, f_a − f_b).
* A quantile is PPI's (Angelopoulos et al. 2023, section 3): the rectified distribution function
  F̂(t) = F̃(t) + (F_y(t) − F_f(t)) (the judge's distribution on the unlabelled items, corrected by the
  labelled items' difference between the human and the judge's distribution) on a grid of values;
  the estimate is the grid value where F̂ is nearest to q, the interval every grid value t whose
  z-test of F̂(t) = q is not rejected at ``level``::

      z(t) = (F̂(t) − q) / sqrt(sd_f̃(t)²/N + sd_(y−f)(t)²/n),   keep t with |z(t)| < z_(1−α/2)

  as ppi-python 0.2.3's ``ppi_quantile_ci`` and ``ppi_quantile_pointestimate`` (a grid of 5,000
  values from the smallest to the largest seen, or every value seen with ``exact_grid=True``), with
  the distribution functions counted from sorted values instead of an items × grid matrix of
  indicators (the same counts; 10⁶ items take seconds, not gigabytes). The human-only interval beside
  it is the order-statistic one (ppi-python's ``classical_quantile_ci``: ranks q·n ∓ z·√(q(1 − q)n),
  truncated, and kept within the sample).

References
----------
Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science* 382 (2023).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._ppi import z_value

__all__ = ["GRID", "MAX_LEVELS", "QuantileFit", "at_least", "fit_quantile"]

#: the number of grid values of ppi-python's (non-exact) quantile grid
GRID = 5000
#: ratings with at most this many distinct values are quantiled level by level
MAX_LEVELS = 20


def at_least(x: Any, threshold: float) -> np.ndarray:
    """1.0 where a rating is at or above ``threshold``, else 0.0 (NaN stays NaN).

    >>> at_least(np.array([1, 3, 5]), 3).tolist()
    [0.0, 1.0, 1.0]
    """
    a = np.asarray(x, dtype=float)
    return np.where(np.isnan(a), np.nan, (a >= threshold).astype(float))


@dataclasses.dataclass(frozen=True)
class QuantileFit:
    """A quantile's PPI estimate and interval, and the human-only ones beside them."""

    q: float
    point: float
    low: float
    high: float
    classical_point: float
    classical_low: float
    classical_high: float
    n: int
    n_unlabelled: int
    method: str


def _normalised(w: Any, n: int) -> np.ndarray | None:
    if w is None:
        return None
    v = np.asarray(w, dtype=float).reshape(-1)
    return v / v.sum() * n


def _below(values: np.ndarray, w: np.ndarray | None, grid: np.ndarray, levels: bool):
    """(Σ w·1{v ≤ t}, Σ w²·1{v ≤ t}) at every grid value t (counts when unweighted). With
    ``levels`` the grid holds every value seen, and the values are counted per level (a bincount)
    instead of sorted."""
    if levels:
        codes = np.searchsorted(grid, values)
        size = len(grid)
        if w is None:
            c = np.cumsum(np.bincount(codes, minlength=size)).astype(float)
            return c, c
        s1 = np.cumsum(np.bincount(codes, weights=w, minlength=size))
        return s1, np.cumsum(np.bincount(codes, weights=w**2, minlength=size))
    order = np.argsort(values, kind="stable")
    pos = np.searchsorted(values[order], grid, side="right")
    if w is None:
        c = pos.astype(float)
        return c, c
    ws = w[order]
    s1 = np.concatenate([[0.0], np.cumsum(ws)])
    s2 = np.concatenate([[0.0], np.cumsum(ws**2)])
    return s1[pos], s2[pos]


def _cdf(values: np.ndarray, w: np.ndarray | None, grid: np.ndarray, levels: bool = False):
    """The (weighted) empirical distribution function and the standard deviation of its terms."""
    n = len(values)
    s1, s2 = _below(values, w, grid, levels)
    mean = s1 / n
    return mean, np.sqrt(np.maximum(s2 / n - mean**2, 0.0))


def _cdf_difference(
    y: np.ndarray, f: np.ndarray, w: np.ndarray | None, grid: np.ndarray, levels: bool = False
):
    """mean and standard deviation of w·(1{y ≤ t} − 1{f ≤ t}) at every t."""
    n = len(y)
    y1, y2 = _below(y, w, grid, levels)
    f1, f2 = _below(f, w, grid, levels)
    _, both2 = _below(np.maximum(y, f), w, grid, levels)
    mean = (y1 - f1) / n
    second = (y2 + f2 - 2 * both2) / n  # w²(1{y ≤ t} − 1{f ≤ t})², with 1{y ≤ t}1{f ≤ t}
    return mean, np.sqrt(np.maximum(second - mean**2, 0.0))


def grid_of(y: np.ndarray, f: np.ndarray, f_u: np.ndarray, exact_grid: bool) -> np.ndarray:
    """ppi-python's grid: every value seen (sorted), or 5,000 evenly spaced from the least to the
    greatest."""
    every = np.concatenate([y, f, f_u])
    if exact_grid:
        return np.sort(every)
    return np.linspace(every.min(), every.max(), GRID)


def _classical(y: np.ndarray, q: float, level: float) -> tuple[float, float, float]:
    n = len(y)
    s = np.sort(y)
    z = z_value(level)
    half = z * math.sqrt(q * (1 - q) * n)
    lo = min(max(int(q * n - half), 0), n - 1)
    hi = min(max(int(q * n + half), 0), n - 1)
    point = float(s[max(math.ceil(q * n) - 1, 0)])
    return point, float(s[lo]), float(s[hi])


def _levels(
    y: np.ndarray, f: np.ndarray, fu: np.ndarray, w, w_u, q: float, zc: float
) -> tuple[float, float, float]:
    """A quantile of a rating with few levels: the least level t with F̂(t) ≥ q, and every level t
    where neither F̂(t) < q nor F̂(t⁻) > q is rejected (one-sided tests at (1 − level)/2 each)."""
    grid = np.sort(pd.unique(np.concatenate([y, f, fu])))
    cdf_u, sd_u = _cdf(fu, w_u, grid, levels=True)
    rect, sd_r = _cdf_difference(y, f, w, grid, levels=True)
    rectified = cdf_u + rect
    sd = np.maximum(np.sqrt(sd_u**2 / len(fu) + sd_r**2 / len(y)), 1e-16)
    z = (rectified - q) / sd
    z_before = np.concatenate([[-np.inf], z[:-1]])
    keep = (z > -zc) & (z_before < zc)
    reached = np.flatnonzero(rectified >= q)
    point = float(grid[reached[0]] if len(reached) else grid[-1])
    if not keep.any():
        return point, math.nan, math.nan
    return point, float(grid[keep][0]), float(grid[keep][-1])


def fit_quantile(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    q: float,
    *,
    level: float = 0.95,
    exact_grid: bool = False,
    weights: Any = None,
    weights_unlabelled: Any = None,
    max_levels: int = MAX_LEVELS,
) -> QuantileFit:
    """The PPI q-quantile of the human rating, its interval, and the human-only ones (1-D inputs).

    Ratings with at most ``max_levels`` distinct values (a 1–5 or 1–10 scale) use the levels method;
    others ppi-python's grid (``method`` in the result says which)."""
    y_, f_, fu = (np.asarray(a, dtype=float).reshape(-1) for a in (y, f, f_unlabelled))
    if not 0 < q < 1:
        raise InputError(f"{setting('quantile', q)}: give a probability strictly between 0 and 1")
    n, big_n = len(y_), len(fu)
    if len(f_) != n:
        raise InputError(f"f: {len(f_)} judge ratings for {n} human ratings; give one per item")
    w, w_u = _normalised(weights, n), _normalised(weights_unlabelled, big_n)
    c_point, c_low, c_high = _classical(y_, q, level)
    zc = z_value(level)
    every = np.concatenate([y_, f_, fu])
    if len(pd.unique(every[:10_000])) <= max_levels and len(pd.unique(every)) <= max_levels:
        point, low, high = _levels(y_, f_, fu, w, w_u, q, zc)
        return QuantileFit(q, point, low, high, c_point, c_low, c_high, n, big_n, "levels")
    grid = grid_of(y_, f_, fu, exact_grid)
    cdf_u, sd_u = _cdf(fu, w_u, grid)
    rect, sd_r = _cdf_difference(y_, f_, w, grid)
    rectified = cdf_u + rect
    point = float(grid[int(np.argmin(np.abs(rectified - q)))])
    sd = np.maximum(np.sqrt((sd_u / math.sqrt(big_n)) ** 2 + (sd_r / math.sqrt(n)) ** 2), 1e-16)
    keep = np.abs((rectified - q) / sd) < zc
    low, high = (float(grid[keep][0]), float(grid[keep][-1])) if keep.any() else (math.nan,) * 2
    return QuantileFit(q, point, low, high, c_point, c_low, c_high, n, big_n, "grid")
