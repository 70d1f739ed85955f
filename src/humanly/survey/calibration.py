"""Calibration of classifier outputs against the crowd (Survey Equivalence, Appendix A).

A soft classifier's cross-entropy is only an information measure when it is calibrated (footnote 7).
Two calibrators, both targeting each item's label frequencies (Algorithm 1 averages over items, so every
item weighs the same):

* ``isotonic`` — isotonic (non-decreasing) regression of the item's fraction of positive labels on the
  classifier's positive-class probability or score (two classes; Wikipedia case study, A.1): equal
  outputs are pooled into their mean first, the fit is SciPy's pool-adjacent-violators
  (:func:`scipy.optimize.isotonic_regression`), new outputs are interpolated linearly between the
  fitted points and held constant beyond the smallest and largest fitted output (the same numbers as
  scikit-learn's ``IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip")``, which it replaces);
* ``per-value`` — for a classifier with a few discrete outputs, each output value maps to the mean label
  distribution of the items that received it (CredBank case study, A.2).

``folds=None`` fits and predicts on the same items, as the paper does (in-sample; optimistic);
``folds=K`` cross-fits: each item's calibrated output comes from a calibrator fitted on the other folds.
Calibrated probabilities are kept inside [``eps``, 1 - ``eps``] (default 0.001).
"""

from __future__ import annotations

import numpy as np

from .._core.checks import check_choice, check_int, check_number
from ..data import InputError

__all__ = ["CALIBRATIONS", "calibrate_outputs", "isotonic_fit"]

CALIBRATIONS = ("none", "isotonic", "per-value")

#: Outputs closer than this to the first of a run of sorted outputs are pooled as one value (the
#: resolution of a float64, as scikit-learn's ``IsotonicRegression``).
_POOL_EPS = float(np.finfo(np.float64).resolution)


def _pool_ties(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort by (x, y) and pool equal x (within ``_POOL_EPS`` of a run's first x) into one point:
    (distinct x, mean y, number of points), summing in sorted order."""
    order = np.lexsort((y, x))
    xs, ys = x[order], y[order]
    if not len(xs):
        raise InputError("isotonic calibration needs at least one labelled item")
    gaps = np.diff(xs) >= _POOL_EPS
    if gaps.all() or not (np.diff(xs)[~gaps] > 0).any():
        starts = np.concatenate([[True], gaps])
    else:  # a run of distinct values within the resolution: group relative to the run's first
        starts = np.zeros(len(xs), dtype=bool)
        first = xs[0]
        starts[0] = True
        for i in range(1, len(xs)):
            if xs[i] - first >= _POOL_EPS:
                starts[i], first = True, xs[i]
    group = np.cumsum(starts) - 1
    weight = np.bincount(group).astype(float)
    mean = np.bincount(group, weights=ys) / weight
    return xs[starts], mean, weight


def isotonic_fit(x_fit: np.ndarray, y_fit: np.ndarray, x_new: np.ndarray) -> np.ndarray:
    """Non-decreasing least-squares fit of ``y_fit`` on ``x_fit`` in [0, 1], read at ``x_new`` (linear
    between fitted points, constant beyond them); see the module docstring.

    >>> isotonic_fit(np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.0, 1.0, 0.0, 1.0]),
    ...              np.array([0.0, 0.25, 0.4, 0.9])).tolist()
    [0.0, 0.5, 1.0, 1.0]
    """
    from scipy.optimize import isotonic_regression

    xs, ys, ws = _pool_ties(np.asarray(x_fit, dtype=float), np.asarray(y_fit, dtype=float))
    fit = np.clip(isotonic_regression(ys, weights=ws, increasing=True).x, 0.0, 1.0)
    t = np.clip(np.asarray(x_new, dtype=float), xs[0], xs[-1])
    if len(xs) == 1:
        return np.full(t.shape, fit[0])
    return np.interp(t, xs, fit)


def _fit_predict(
    method: str, x_fit: np.ndarray, f_fit: np.ndarray, x_new: np.ndarray, positive: int
) -> np.ndarray:
    n_cls = f_fit.shape[1]
    if method == "isotonic":
        q = isotonic_fit(x_fit, f_fit[:, positive], x_new)
        out = np.zeros((len(x_new), 2))
        out[:, positive] = q
        out[:, 1 - positive] = 1 - q
        return out
    # per-value: x are keys (1-D array of hashable row codes)
    keys, inv = np.unique(x_fit, return_inverse=True)
    sums = np.zeros((len(keys), n_cls))
    np.add.at(sums, inv.reshape(-1), f_fit)
    cnt = np.bincount(inv.reshape(-1), minlength=len(keys))
    means = sums / cnt[:, None]
    pos = np.searchsorted(keys, x_new)
    pos = np.minimum(pos, len(keys) - 1)
    found = keys[pos] == x_new
    overall = f_fit.mean(axis=0)
    return np.where(found[:, None], means[pos], overall[None, :])


def calibrate_outputs(
    kind: str,
    values: np.ndarray,
    counts: np.ndarray,
    method: str,
    *,
    positive: int,
    folds: int | None = None,
    seed: int | None = 0,
    eps: float = 1e-3,
    name: str = "model",
) -> np.ndarray:
    """Calibrated probability vectors (n × C) for one model's outputs.

    ``kind`` is the model's output kind (``label``, ``proba`` or ``score``); ``counts`` the items'
    label counts (items with no labels are ignored when fitting); ``method`` ``"isotonic"`` or
    ``"per-value"``; ``folds`` ``None`` (in-sample) or K ≥ 2 (cross-fitted, folds drawn with
    ``seed``); ``positive`` the position of the positive class.

    >>> counts = np.array([[3, 1], [1, 3], [0, 4], [4, 0]])
    >>> calibrate_outputs("label", np.array([0, 1, 1, 0]), counts, "per-value", positive=1)[:, 1]
    array([0.125, 0.875, 0.875, 0.125])
    """
    check_choice("method", method, CALIBRATIONS[1:])
    folds = check_int("folds", folds, minimum=2, allow_none=True)
    check_number("eps", eps, minimum=0.0, maximum=0.5, open_high=True)
    counts = np.asarray(counts, dtype=float)
    n_cls = counts.shape[1]
    tot = counts.sum(axis=1)
    frac = counts / np.where(tot > 0, tot, 1)[:, None]
    has = tot > 0
    vals = np.asarray(values)
    if method == "isotonic":
        if n_cls != 2:
            raise InputError(
                f'isotonic calibration needs two classes ({n_cls} here); use calibrate="per-value"'
            )
        x = vals[:, positive].astype(float) if kind == "proba" else vals.astype(float)
    else:
        if kind == "proba":
            _, x = np.unique(np.round(vals, 12), axis=0, return_inverse=True)
            x = x.reshape(-1)
        else:
            x = vals
        n_distinct = len(np.unique(x))
        if n_distinct > max(50, len(x) // 5):
            raise InputError(
                f"model {name!r} has {n_distinct} distinct outputs; per-value calibration is for a few "
                'discrete outputs: use calibrate="isotonic"'
            )
    out = np.zeros((len(vals), n_cls))
    if folds is None:
        out = _fit_predict(method, x[has], frac[has], x, positive)
    else:
        if folds > int(has.sum()):
            raise InputError(f"folds={folds}: more folds than labelled items")
        order = np.random.default_rng(seed).permutation(len(vals))
        fold = np.empty(len(vals), dtype=np.int64)
        fold[order] = np.arange(len(vals)) % folds
        for f in range(folds):
            fit = has & (fold != f)
            out[fold == f] = _fit_predict(method, x[fit], frac[fit], x[fold == f], positive)
    out = np.clip(out, eps, 1 - eps)
    return out / out.sum(axis=1, keepdims=True)
