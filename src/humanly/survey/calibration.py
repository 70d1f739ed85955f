"""Calibration of classifier outputs against the crowd (Survey Equivalence, Appendix A).

A soft classifier's cross-entropy is only an information measure when it is calibrated (footnote 7).
Every calibrator targets each item's label frequencies (Algorithm 1 averages over items, so every item
weighs the same):

* ``isotonic`` — isotonic (non-decreasing) regression of the item's fraction of positive labels on the
  classifier's positive-class probability or score (two classes; Wikipedia case study, A.1): equal
  outputs are pooled into their mean first, the fit is the pool-adjacent-violators algorithm (one pass
  with a stack of blocks, :func:`_pava`; above ``_PAVA_SCIPY_ABOVE`` points SciPy's
  :func:`scipy.optimize.isotonic_regression`, whose import alone takes about 0.25 s — longer than the
  whole fit of the paper's running example), new outputs are interpolated linearly between the
  fitted points and held constant beyond the smallest and largest fitted output (the same numbers as
  scikit-learn's ``IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip")``, which it replaces).
  With more than two classes it is one-vs-rest: class j's probability is fitted on the items'
  fraction of j labels, each output row is then divided by its sum (a row fitted to all zeros becomes
  uniform) — scikit-learn's ``CalibratedClassifierCV(method="isotonic")``; labels are one-hot outputs;
* ``temperature`` — temperature scaling of probability outputs: ``softmax(log p / T)`` with the one T
  that maximises the items' mean log-likelihood of their label frequencies (any number of classes;
  SciPy's bounded scalar minimiser over log T);
* ``per-value`` — for a classifier with a few discrete outputs, each output value maps to the mean label
  distribution of the items that received it (CredBank case study, A.2);
* ``auto`` (:data:`DEFAULT_CALIBRATION`, the default of the API, the command line and the report) —
  what the paper does: with a proper scorer (cross-entropy) isotonic for two classes, and for more
  classes per-value for labels and scores, isotonic for probabilities; with any other scorer none
  (agreement, AUC and the rest score the outputs as given, as the paper's tables do).

``folds=None`` fits and predicts on the same items, as the paper does (in-sample; optimistic);
``folds=K`` cross-fits: each item's calibrated output comes from a calibrator fitted on the other folds
(the folds are drawn with ``seed`` over the items in a canonical order, ``order``, so that they do not
depend on the order of the input rows). Calibrated probabilities are kept inside [``eps``, 1 - ``eps``]
(default 0.001).
"""

from __future__ import annotations

import numpy as np

from .._core.checks import check_choice, check_int, check_number
from ..data import InputError
from ..errors import setting

__all__ = [
    "CALIBRATIONS",
    "DEFAULT_CALIBRATION",
    "calibrate_outputs",
    "isotonic_fit",
    "resolve_calibration",
    "temperature_fit",
]

#: The calibrations ``calibrate=`` accepts (``--calibrate`` on the command line).
CALIBRATIONS = ("auto", "none", "isotonic", "per-value", "temperature")

#: THE default calibration of :func:`humanly.survey.equivalence`, :func:`humanly.survey.truth_equivalence`,
#: ``humanly equivalence`` and the report: the paper calibrates soft classifiers before scoring them by
#: cross-entropy (footnote 7, Appendix A), so ``"auto"`` calibrates exactly when the scorer is proper.
DEFAULT_CALIBRATION = "auto"

#: Outputs closer than this to the first of a run of sorted outputs are pooled as one value (the
#: resolution of a float64, as scikit-learn's ``IsotonicRegression``).
_POOL_EPS = float(np.finfo(np.float64).resolution)

#: Above this many distinct outputs the isotonic fit is SciPy's (compiled; ~0.2 s per 10⁶ points in
#: :func:`_pava`'s Python loop against SciPy's 0.04 s, beside SciPy's 0.25 s import).
_PAVA_SCIPY_ABOVE = 200_000

#: Temperatures searched by :func:`temperature_fit`: T in [1/100, 100].
_LOG_T_BOUNDS = (-np.log(100.0), np.log(100.0))


def resolve_calibration(calibrate: str, *, proper: bool, kind: str, n_classes: int) -> str:
    """The calibration a model gets: ``calibrate`` itself, or what ``"auto"`` means for this scorer
    (``proper``: cross-entropy), output ``kind`` and number of classes (see the module docstring).

    >>> resolve_calibration("auto", proper=True, kind="proba", n_classes=3)
    'isotonic'
    >>> resolve_calibration("auto", proper=True, kind="label", n_classes=3)
    'per-value'
    >>> resolve_calibration("auto", proper=False, kind="proba", n_classes=2)
    'none'
    """
    if calibrate != "auto":
        return calibrate
    if not proper:
        return "none"
    if n_classes == 2 or kind == "proba":
        return "isotonic"
    return "per-value"


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


def _pava(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted non-decreasing least-squares fit of ``y`` (in order) with positive weights ``w``: the
    pool-adjacent-violators algorithm in one pass, each new point merged into the blocks before it
    while their mean is larger (the same fit as :func:`scipy.optimize.isotonic_regression`).

    >>> _pava(np.array([1.0, 3.0, 2.0, 4.0]), np.array([1.0, 1.0, 3.0, 1.0])).tolist()
    [1.0, 2.25, 2.25, 4.0]
    """
    sums: list[float] = []  # per block: Σ w·y, Σ w and the number of points
    weights: list[float] = []
    sizes: list[int] = []
    for yi, wi in zip(
        np.asarray(y, dtype=float).tolist(), np.asarray(w, dtype=float).tolist(), strict=True
    ):
        s, ww, k = yi * wi, wi, 1
        while sums and sums[-1] * ww > s * weights[-1]:  # the previous block's mean is larger
            s += sums.pop()
            ww += weights.pop()
            k += sizes.pop()
        sums.append(s)
        weights.append(ww)
        sizes.append(k)
    return np.repeat(np.array(sums) / np.array(weights), sizes)


def isotonic_fit(x_fit: np.ndarray, y_fit: np.ndarray, x_new: np.ndarray) -> np.ndarray:
    """Non-decreasing least-squares fit of ``y_fit`` on ``x_fit`` in [0, 1], read at ``x_new`` (linear
    between fitted points, constant beyond them); see the module docstring.

    >>> isotonic_fit(np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.0, 1.0, 0.0, 1.0]),
    ...              np.array([0.0, 0.25, 0.4, 0.9])).tolist()
    [0.0, 0.5, 1.0, 1.0]
    """
    xs, ys, ws = _pool_ties(np.asarray(x_fit, dtype=float), np.asarray(y_fit, dtype=float))
    if len(xs) > _PAVA_SCIPY_ABOVE:
        from scipy.optimize import isotonic_regression

        fit = isotonic_regression(ys, weights=ws, increasing=True).x
    else:
        fit = _pava(ys, ws)
    fit = np.clip(fit, 0.0, 1.0)
    t = np.clip(np.asarray(x_new, dtype=float), xs[0], xs[-1])
    if len(xs) == 1:
        return np.full(t.shape, fit[0])
    return np.interp(t, xs, fit)


def _ovr_isotonic(x_fit: np.ndarray, f_fit: np.ndarray, x_new: np.ndarray) -> np.ndarray:
    """One-vs-rest isotonic: column j of ``x`` (n × C) fitted to the items' fraction of class j, each
    row divided by its sum (uniform where every column fitted 0)."""
    q = np.column_stack(
        [isotonic_fit(x_fit[:, j], f_fit[:, j], x_new[:, j]) for j in range(f_fit.shape[1])]
    )
    tot = q.sum(axis=1, keepdims=True)
    uniform = np.full_like(q, 1.0 / q.shape[1])
    return np.divide(q, tot, out=uniform, where=tot > 0)


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def temperature_fit(logits: np.ndarray, freq: np.ndarray) -> float:
    """The temperature T that maximises the mean log-likelihood ``Σ_c freq_ic log softmax(z_i / T)_c``
    over the items (rows of ``freq``, label frequencies; T searched in [1/100, 100]).

    >>> g = np.random.default_rng(0)
    >>> z = g.normal(size=(2000, 3)) * 2
    >>> y = np.exp(_log_softmax(z))  # the calibrated probabilities of the logits z
    >>> round(temperature_fit(3 * z, y), 2)  # over-confident by a factor 3
    3.0
    """
    from scipy.optimize import minimize_scalar

    z = np.asarray(logits, dtype=float)
    zc = z - z.max(axis=1, keepdims=True)  # softmax(z / T) = softmax(zc / T); zc ≤ 0, max 0
    f = np.asarray(freq, dtype=float)
    w = f.sum(axis=1)
    a = float((f * zc).sum())

    def loss(log_t: float) -> float:  # −mean Σ_c f_ic (zc_ic / T − log Σ_c' exp(zc_ic' / T))
        inv = float(np.exp(-log_t))
        lse = np.log(np.exp(zc * inv).sum(axis=1))  # each sum ≥ 1 (its largest term is 1)
        return -(a * inv - float(w @ lse)) / len(z)

    res = minimize_scalar(loss, bounds=_LOG_T_BOUNDS, method="bounded", options={"xatol": 1e-9})
    return float(np.exp(res.x))


def _per_value(x_fit: np.ndarray, f_fit: np.ndarray, x_new: np.ndarray) -> np.ndarray:
    """Each output key maps to the mean label distribution of the items that received it (keys not
    seen when fitting: the overall mean)."""
    keys, inv = np.unique(x_fit, return_inverse=True)
    sums = np.zeros((len(keys), f_fit.shape[1]))
    np.add.at(sums, inv.reshape(-1), f_fit)
    cnt = np.bincount(inv.reshape(-1), minlength=len(keys))
    means = sums / cnt[:, None]
    pos = np.minimum(np.searchsorted(keys, x_new), len(keys) - 1)
    found = keys[pos] == x_new
    overall = f_fit.mean(axis=0)
    return np.where(found[:, None], means[pos], overall[None, :])


def _fit_predict(
    method: str, x_fit: np.ndarray, f_fit: np.ndarray, x_new: np.ndarray, positive: int
) -> np.ndarray:
    if method == "isotonic":
        if x_fit.ndim == 2:  # one-vs-rest, more than two classes
            return _ovr_isotonic(x_fit, f_fit, x_new)
        q = isotonic_fit(x_fit, f_fit[:, positive], x_new)
        out = np.zeros((len(x_new), 2))
        out[:, positive] = q
        out[:, 1 - positive] = 1 - q
        return out
    if method == "temperature":
        t = temperature_fit(x_fit, f_fit)
        return np.exp(_log_softmax(x_new / t))
    return _per_value(x_fit, f_fit, x_new)  # per-value: x are keys (row codes)


def _features(
    method: str, kind: str, vals: np.ndarray, n_cls: int, positive: int, name: str
) -> np.ndarray:
    """What the calibrator is fitted on: a 1-D array (two-class isotonic, per-value keys) or an
    items × classes array (one-vs-rest isotonic, temperature logits)."""
    if method == "temperature":
        if kind != "proba":
            raise InputError(
                f"model {name!r} gives {kind}s; temperature scaling rescales probabilities: use "
                f"{setting('calibrate', 'per-value')} or {setting('calibrate', 'isotonic')}"
            )
        return np.log(np.clip(vals.astype(float), 1e-12, 1.0))
    if method == "isotonic":
        if n_cls == 2:
            return vals[:, positive].astype(float) if kind == "proba" else vals.astype(float)
        if kind == "proba":
            return vals.astype(float)
        if kind == "label":
            return np.eye(n_cls)[vals]
        raise InputError(
            f"isotonic calibration of a score needs two classes ({n_cls} here); use "
            f"{setting('calibrate', 'per-value')}"
        )
    if kind == "proba":
        _, x = np.unique(np.round(vals, 12), axis=0, return_inverse=True)
        x = x.reshape(-1)
    else:
        x = vals
    n_distinct = len(np.unique(x))
    if n_distinct > max(50, len(x) // 5):
        better = "isotonic" if kind == "proba" or n_cls == 2 else "none"
        raise InputError(
            f"model {name!r} has {n_distinct} distinct outputs; per-value calibration is for a few "
            f'discrete outputs: use calibrate="{better}"'
        )
    return x


def _folds(n: int, folds: int, seed: int | None) -> np.ndarray:
    """Fold of each row: a seeded permutation of the rows dealt round-robin into ``folds`` folds."""
    perm = np.random.default_rng(seed).permutation(n)
    fold = np.empty(n, dtype=np.int64)
    fold[perm] = np.arange(n) % folds
    return fold


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
    order: np.ndarray | None = None,
) -> np.ndarray:
    """Calibrated probability vectors (n × C) for one model's outputs.

    ``kind`` is the model's output kind (``label``, ``proba`` or ``score``); ``counts`` the items'
    label counts (items with no labels are ignored when fitting); ``method`` ``"isotonic"``,
    ``"temperature"`` or ``"per-value"``; ``folds`` ``None`` (in-sample) or K ≥ 2 (cross-fitted,
    folds drawn with ``seed`` over the rows' canonical positions ``order``, a permutation of
    0 … n − 1, row order when ``None``); ``positive`` the position of the positive class.

    >>> counts = np.array([[3, 1], [1, 3], [0, 4], [4, 0]])
    >>> calibrate_outputs("label", np.array([0, 1, 1, 0]), counts, "per-value", positive=1)[:, 1]
    array([0.125, 0.875, 0.875, 0.125])
    """
    check_choice("method", method, CALIBRATIONS[2:])
    folds = check_int("folds", folds, minimum=2, allow_none=True)
    check_number("eps", eps, minimum=0.0, maximum=0.5, open_high=True)
    counts = np.asarray(counts, dtype=float)
    n_cls = counts.shape[1]
    tot = counts.sum(axis=1)
    vals = np.asarray(values)
    if order is not None:  # work in the canonical order, so every sum is taken in the same order
        rows = np.argsort(np.asarray(order, dtype=np.int64), kind="stable")
        out = np.empty((len(vals), n_cls))
        out[rows] = calibrate_outputs(
            kind,
            vals[rows],
            counts[rows],
            method,
            positive=positive,
            folds=folds,
            seed=seed,
            eps=eps,
            name=name,
        )
        return out
    frac = counts / np.where(tot > 0, tot, 1)[:, None]
    has = tot > 0
    x = _features(method, kind, vals, n_cls, positive, name)
    out = np.zeros((len(vals), n_cls))
    if folds is None:
        out = _fit_predict(method, x[has], frac[has], x, positive)
    else:
        if folds > int(has.sum()):
            raise InputError(f"{setting('folds', folds)}: more folds than labelled items")
        fold = _folds(len(vals), folds, seed)
        for f in range(folds):
            fit = has & (fold != f)
            out[fold == f] = _fit_predict(method, x[fit], frac[fit], x[fold == f], positive)
    out = np.clip(out, eps, 1 - eps)
    return out / out.sum(axis=1, keepdims=True)
