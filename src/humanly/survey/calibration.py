"""Calibration of classifier outputs against the crowd (Survey Equivalence, Appendix A).

A soft classifier's cross-entropy is only an information measure when it is calibrated (footnote 7).
Two calibrators, both targeting each item's label frequencies (Algorithm 1 averages over items, so every
item weighs the same):

* ``isotonic`` — isotonic regression (scikit-learn) of the item's fraction of positive labels on the
  classifier's positive-class probability or score (two classes; Wikipedia case study, A.1);
* ``per-value`` — for a classifier with a few discrete outputs, each output value maps to the mean label
  distribution of the items that received it (CredBank case study, A.2).

``folds=None`` fits and predicts on the same items, as the paper does (in-sample; optimistic);
``folds=K`` cross-fits: each item's calibrated output comes from a calibrator fitted on the other folds.
Calibrated probabilities are kept inside [``eps``, 1 - ``eps``] (default 0.001).
"""

from __future__ import annotations

import numpy as np

from ..data.errors import InputError

__all__ = ["CALIBRATIONS", "calibrate_outputs"]

CALIBRATIONS = ("none", "isotonic", "per-value")


def _fit_predict(
    method: str, x_fit: np.ndarray, f_fit: np.ndarray, x_new: np.ndarray, positive: int
) -> np.ndarray:
    n_cls = f_fit.shape[1]
    if method == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
        iso.fit(x_fit, f_fit[:, positive])
        q = iso.predict(x_new)
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
    label counts (items with no labels are ignored when fitting)."""
    if method not in CALIBRATIONS or method == "none":
        raise InputError(f"calibration {method!r}: use isotonic or per-value")
    counts = np.asarray(counts, dtype=float)
    n_cls = counts.shape[1]
    tot = counts.sum(axis=1)
    frac = counts / np.where(tot > 0, tot, 1)[:, None]
    has = tot > 0
    vals = np.asarray(values)
    if method == "isotonic":
        if n_cls != 2:
            raise InputError(
                f"isotonic calibration needs two classes ({n_cls} here); use --calibrate per-value"
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
                "discrete outputs: use --calibrate isotonic"
            )
    out = np.zeros((len(vals), n_cls))
    if folds is None or folds <= 1:
        out = _fit_predict(method, x[has], frac[has], x, positive)
    else:
        if folds > int(has.sum()):
            raise InputError(f"--calibration-folds {folds}: more folds than labelled items")
        order = np.random.default_rng(seed).permutation(len(vals))
        fold = np.empty(len(vals), dtype=np.int64)
        fold[order] = np.arange(len(vals)) % folds
        for f in range(folds):
            fit = has & (fold != f)
            out[fold == f] = _fit_predict(method, x[fit], frac[fit], x[fold == f], positive)
    out = np.clip(out, eps, 1 - eps)
    return out / out.sum(axis=1, keepdims=True)
