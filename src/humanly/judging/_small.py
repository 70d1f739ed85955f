"""Small samples, honestly: the interval that keeps its level when there are too few human labels for
PPI's central-limit interval, and the rule that chooses it.

Why PPI under-covers with few labels. PPI's interval estimates the variance of the residual y − λf from
the n labelled items. A good judge is rarely wrong, so the residual is 0 on most items and the few
items where it is not carry the whole variance: with 50 labels and a judge wrong on 10% of them, the
residual of a *difference* of two models is non-zero only where the judge errs and the models
disagree, a handful of items or none. Then the estimated variance is far too small and the interval is
centred on the judge's (biased) difference. The coverage table in docs/judge.md
(:mod:`humanly.judging._coverage`) measures it: at n = 50 and a judge right 90% of the time, the 95%
interval of a difference covers 91% (PPI++) and 88% (PPI). A bootstrap of the same estimate does not
help (the resamples see the same few residuals); the human-only interval with a small-sample
correction does.

The small-sample interval (``"adjusted"``): the human-only mean with pseudo-observations at the ends of
the estimand's range, the corrections that keep the level of intervals for proportions at small n:

* a mean of values in [low, high] (an accuracy, a rating): z²/2 pseudo-observations at ``low`` and as
  many at ``high`` — Agresti & Coull (1998) for a proportion (z = 1.96: "add two successes and two
  failures"), the same pseudo-items for a bounded rating;
* a paired difference of two such means (values in [low − high, high − low]): half a pseudo-pair at
  each end and one at 0 — Agresti & Min (2005), adding ½ to each cell of the 2 × 2 table of the two
  models' paired outcomes.

The mean and its standard error are then those of the n + pseudo items (divisor n + pseudo), and the
interval is mean ± z·se. The rule (:func:`interval_method`): ``"auto"`` gives the adjusted interval
below :func:`small_n` labelled items for the estimand's kind and the judge's kind (the n from which
PPI++'s interval covers at least 94% in every setting of the coverage table, by more than a Monte Carlo
standard error) and PPI's central-limit interval (``"clt"``) from there on, and says so with the code
``small_sample``; ``"clt"`` and ``"adjusted"`` force one. The table (docs/judge.md) has a judge that
gives labels and a calibrated soft judge (class probabilities): for one model's accuracy both need
500 labelled items (PPI++ covers 93.2–94.2% at n = 200: a proportion near 0.85 is skewed, and the human
labels alone under-cover there too); for a difference of two models a judge that gives labels needs
200 (its residuals are mostly exactly 0) and a soft judge 100. Ratings and several judges of mixed
kinds follow the labels' thresholds.

References
----------
Agresti & Coull, "Approximate is better than 'exact' for interval estimation of binomial
proportions", *The American Statistician* 52 (1998).
Agresti & Min, "Simple improved confidence intervals for comparing matched proportions", *Statistics
in Medicine* 24 (2005).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.checks import check_choice
from ._ppi import z_value
from ._vectors import columns

__all__ = [
    "INTERVALS",
    "KINDS",
    "SMALL_N",
    "SMALL_N_SOFT",
    "adjusted",
    "interval_method",
    "small_n",
]

#: the interval choices: the rule, PPI's central-limit interval, the small-sample one
INTERVALS = ("auto", "clt", "adjusted")
#: what an estimand is: a mean (of values in [low, high]) or a paired difference of two such means
KINDS = ("mean", "difference")
#: below this many labelled items ``"auto"`` gives the adjusted interval (docs/judge.md's coverage
#: table: PPI++ covers ≥ 94% from these n on, in every setting of the table): a judge that gives
#: labels (or ratings), and a soft judge (class probabilities)
SMALL_N = {"mean": 500, "difference": 200}
SMALL_N_SOFT = {"mean": 500, "difference": 100}


def _pseudo(kind: str, low: float, high: float, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The pseudo-observations' values and weights."""
    if kind == "mean":
        half = z_value(level) ** 2 / 2
        return np.array([low, high]), np.array([half, half])
    span = high - low
    return np.array([-span, 0.0, span]), np.array([0.5, 1.0, 0.5])


def adjusted(
    y: Any, *, kind: str = "mean", low: float = 0.0, high: float = 1.0, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """The small-sample mean and standard error per column of ``y`` (n × E or n).

    Parameters
    ----------
    y : array_like
        The human reference on the labelled items (a paired difference for ``kind="difference"``).
    kind : {"mean", "difference"}
        Agresti–Coull pseudo-observations for a mean, Agresti–Min for a paired difference.
    low, high : float
        The range of one model's values (0 and 1 for an accuracy, the scale's ends for a rating).
    level : float
        The interval's level (the Agresti–Coull pseudo-counts are z²/2).

    Returns
    -------
    tuple of numpy.ndarray
        The adjusted mean and its standard error.

    Examples
    --------
    >>> point, se = adjusted(np.array([1.0] * 8 + [0.0] * 2))  # 8 of 10: (8 + 1.92)/(10 + 3.84)
    >>> round(float(point[0]), 4)
    0.7167
    """
    x = columns(y)
    check_choice("kind", kind, KINDS)
    values, weights = _pseudo(kind, low, high, level)
    total = x.shape[0] + weights.sum()
    mean = (x.sum(axis=0) + weights @ values) / total
    ss = ((x - mean) ** 2).sum(axis=0) + weights @ (values[:, None] - mean) ** 2
    return mean, np.sqrt(ss / total) / np.sqrt(total)


def small_n(kind: str, judge_kind: str = "label") -> int:
    """The number of labelled items below which ``interval="auto"`` takes the small-sample interval
    for an estimand of ``kind``, with a judge of ``judge_kind`` (``"proba"``: class probabilities;
    anything else: labels, ratings, several judges of mixed kinds).

    >>> small_n("difference"), small_n("difference", "proba"), small_n("mean", "proba")
    (200, 100, 500)
    """
    check_choice("kind", kind, KINDS)
    return (SMALL_N_SOFT if judge_kind == "proba" else SMALL_N)[kind]


def interval_method(
    n: int, kind: str, interval: str = "auto", judge_kind: str = "label"
) -> tuple[str, str | None]:
    """The interval used for an estimand of ``kind`` from ``n`` labelled items, and the code that
    says the rule chose the small-sample one (``None`` otherwise).

    >>> interval_method(50, "difference")
    ('adjusted', 'small_sample')
    >>> interval_method(150, "difference", judge_kind="proba")
    ('clt', None)
    """
    check_choice("interval", interval, INTERVALS)
    check_choice("kind", kind, KINDS)
    if interval != "auto":
        return interval, None
    if n < small_n(kind, judge_kind):
        return "adjusted", "small_sample"
    return "clt", None
