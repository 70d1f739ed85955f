"""A judge fitted or calibrated on the labelled items: cross-prediction-powered inference (cross-PPI,
Zrnic & Candès 2024) with K folds, on plain arrays; and the check that the judge is not one of the
models under evaluation.

PPI's interval assumes the judge is fixed before the labelled items are drawn. A judge trained or
calibrated on those very items fits their noise, its errors on them look smaller than they are, and
the interval is too narrow. Cross-PPI splits the labelled items into K folds; the judge is fitted K
times, each time on the other K − 1 folds, and scores the held-out fold (``f``, out of fold) and every
unlabelled item (``f̃_k``, k = 1…K)::

    θ̂ = mean over unlabelled of (1/K Σ_k f̃_k) + mean over labelled of (y − f)
    se² = var(1/K Σ_k f̃_k) / N + var(y − f) / n

as ppi-python 0.2.3's ``crossppi_mean_ci`` (λ = 1; ``lam=None`` tunes it as PPI++ does, on the
cross-fitted scores). The folds are a seeded permutation of the labelled items in their canonical
order (fold of item i: its rank in the permutation modulo K), so the same data and seed give the same
folds.

What is fitted (``calibrate``): ``"linear"`` — the human reference regressed on the judge's raw score
by least squares (ŷ = a + b·s, a calibration of the score), or any callable ``(s, y) -> predict``
(a function from scores to predictions) fitted on the training folds, e.g. a scikit-learn model's
``fit(...).predict`` wrapped.

The self-judge check: a model's own predictions passed as the judge agree with it on every item, and
the "judge" then measures nothing about that model (its errors are invisible to it). The check gives
each model's agreement with the judge and fires (code ``self_judge``) where it is 1.

References
----------
Zrnic & Candès, "Cross-prediction-powered inference", PNAS 121 (15) (2024).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.rng import stream
from ..errors import InputError, setting
from ._ppi import Fit, fit, moments
from ._vectors import columns

__all__ = [
    "CALIBRATIONS",
    "CrossFit",
    "crossfit_scores",
    "fit_crossppi",
    "folds_of",
    "line_fit",
    "linear",
]

Calibrate = Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]


def line_fit(s: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Intercept and slope of the least-squares line of ``y`` on ``s`` (slope 0 when ``s`` is
    constant)."""
    ms, my = s.mean(), y.mean()
    var = ((s - ms) ** 2).mean()
    slope = ((s - ms) * (y - my)).mean() / var if var > 0 else 0.0
    return float(my - slope * ms), float(slope)


def linear(s: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """The least-squares line of ``y`` on ``s`` (a constant when ``s`` does not vary).

    >>> predict = linear(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0]))
    >>> predict(np.array([3.0])).tolist()
    [7.0]
    """
    intercept, slope = line_fit(s, y)
    return lambda x: intercept + slope * np.asarray(x, dtype=float)


#: the calibrations fitted by name
CALIBRATIONS: dict[str, Calibrate] = {"linear": linear}


def folds_of(n: int, folds: int, seed: int | None) -> np.ndarray:
    """Each labelled item's fold (0 … folds − 1), balanced, from ``stream(seed, 0)``.

    >>> np.bincount(folds_of(10, 3, 0)).tolist()
    [4, 3, 3]
    """
    if not 2 <= folds <= n:
        raise InputError(
            f"{setting('folds', folds)}: give between 2 and the number of labelled items ({n}) folds"
        )
    out = np.empty(n, dtype=np.int64)
    out[stream(seed, 0).permutation(n)] = np.arange(n) % folds
    return out


def _calibration(calibrate: Any) -> Calibrate:
    if callable(calibrate):
        return calibrate
    if calibrate in CALIBRATIONS:
        return CALIBRATIONS[calibrate]
    raise InputError(
        f"{setting('calibrate', calibrate)}: give one of {sorted(CALIBRATIONS)} or a function "
        "(scores, reference) -> predict"
    )


@dataclasses.dataclass(frozen=True)
class CrossFit:
    """The cross-fitted scores: out of fold on the labelled items (n × E), and the mean over the K
    fitted judges on the unlabelled items (N × E), with the folds used."""

    f: np.ndarray
    f_unlabelled: np.ndarray
    folds: np.ndarray


def crossfit_scores(
    y: Any, score: Any, score_unlabelled: Any, folds: np.ndarray, calibrate: Any = "linear"
) -> CrossFit:
    """Fit the judge K times (each on the other folds), column by column; score the held-out fold
    and every unlabelled item (the K fitted judges' mean)."""
    fitter = _calibration(calibrate)
    y_, s, su = columns(y), columns(score), columns(score_unlabelled)
    k = int(folds.max()) + 1
    f = np.empty_like(y_)
    f_u = np.zeros((su.shape[0], y_.shape[1]))
    if isinstance(calibrate, str) and calibrate == "linear":
        # the mean of the K fitted lines is the line of their mean coefficients: one pass over N
        mean_line = np.zeros((2, y_.shape[1]))
        for fold in range(k):
            held = folds == fold
            for col in range(y_.shape[1]):
                a, b = line_fit(s[~held, col], y_[~held, col])
                f[held, col] = a + b * s[held, col]
                mean_line[:, col] += (a / k, b / k)
        return CrossFit(f, mean_line[0] + mean_line[1] * su, folds)
    for fold in range(k):
        held = folds == fold
        for col in range(y_.shape[1]):
            predict = fitter(s[~held, col], y_[~held, col])
            f[held, col] = predict(s[held, col])
            f_u[:, col] += predict(su[:, col])
    return CrossFit(f, f_u / k, folds)


def fit_crossppi(y: Any, f: Any, f_unlabelled: Any, *, lam: float | None = 1.0) -> Fit:
    """Cross-PPI from cross-fitted scores: ``f`` out of fold (n or n × E), ``f_unlabelled`` the K
    fitted judges' scores (N × K for one estimand, N × E × K), or already their mean (N × E)."""
    fu = np.asarray(f_unlabelled, dtype=float)
    f_ = np.asarray(f, dtype=float)
    if fu.ndim == 2 and f_.ndim == 1:
        fu = fu.mean(axis=1)
    elif fu.ndim == 3:
        fu = fu.mean(axis=2)
    return fit(y, f_, moments(fu), lam=lam)


def agreement(judge: Any, model: Any) -> float:
    """The share of items on which the judge's output equals the model's (NaN equals NaN).

    >>> agreement(np.array([1, 0, 1]), np.array([1, 0, 0]))
    0.6666666666666666
    """
    a, b = np.asarray(judge), np.asarray(model)
    if a.shape != b.shape:
        raise InputError(
            f"model: {b.shape[0] if b.ndim else 0} outputs for {a.shape[0] if a.ndim else 0} judge "
            "outputs; give both on the same items, in the same order"
        )
    same = a == b
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        same |= np.isnan(a) & np.isnan(b)
    if same.ndim > 1:
        same = same.reshape(len(same), -1).all(axis=1)
    return float(same.mean()) if same.size else float("nan")
