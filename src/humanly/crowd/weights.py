"""Measurement scales, the numeric values behind classes, agreement weights and Krippendorff's metrics.

A *scale* (``"nominal"``, ``"ordinal"``, ``"interval"``, ``"ratio"``) says what the labels measure.
Ordinal classes are ordered as :attr:`humanly.data.Ratings.classes` holds them, or by value when every
class is a number (or a string that reads as one); interval and ratio data need numeric labels.

Two families of distance between classes are defined here, and they are different things:

* **Agreement weights** (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed., ch. 3): a matrix
  ``w[k, l]`` in [0, 1] with 1 on the diagonal, the credit two raters earn when one says ``k`` and the
  other ``l``. The named weights are Gwet's: ``identity``, ``linear``, ``quadratic``, ``ordinal``,
  ``radical``, ``ratio``, ``circular``, ``bipolar`` (computed from the classes' numeric values, or
  from their positions 1…q when the classes are not numbers, as irrCAC does). They weight percent
  agreement, κ, AC2, Brennan–Prediger and the "weighted" α.
* **Krippendorff's metrics** δ²(k, l) (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"):
  nominal, ordinal (rank-based: it depends on how often each value is used), interval, ratio. They
  define Krippendorff's α at each scale. As weights, ``w = 1 − δ² / max δ²``.

On interval data the two coincide (quadratic weights are an affine function of the interval metric, and
α does not change under such a map), and so they do on ratio data (ratio weights); on ordinal data they
do not: Krippendorff's rank metric gives α = 0.815 on his 2011 example, Gwet's ordinal weights 0.834.

>>> import numpy as np
>>> weight_matrix("linear", np.array([1.0, 2.0, 3.0]))
array([[1. , 0.5, 0. ],
       [0.5, 1. , 0.5],
       [0. , 0.5, 1. ]])
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from .._core.checks import check_choice
from ..errors import InputError, setting

__all__ = [
    "DEFAULT_WEIGHTS",
    "SCALES",
    "WEIGHTS",
    "Scale",
    "check_weight_matrix",
    "class_values",
    "krippendorff_metric",
    "metric_weights",
    "ordinal_scores",
    "same_alpha",
    "weight_matrix",
]

Scale = Literal["nominal", "ordinal", "interval", "ratio"]

#: the measurement scales, from least to most structure
SCALES: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")

#: Gwet's named weights (Handbook, 4th ed., §3.x); ``identity`` is the unweighted case
WEIGHTS: tuple[str, ...] = (
    "identity",
    "linear",
    "quadratic",
    "ordinal",
    "radical",
    "ratio",
    "circular",
    "bipolar",
)

#: the weights used when ``weights=None``: the ones Gwet recommends for each scale
DEFAULT_WEIGHTS: dict[str, str] = {
    "nominal": "identity",
    "ordinal": "ordinal",
    "interval": "quadratic",
    "ratio": "ratio",
}


def _number(value: Any) -> float | None:
    """``value`` as a float when it is a real number or a string that reads as one, else None."""
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        return x if math.isfinite(x) else None
    if isinstance(value, str):
        try:
            x = float(value.strip())
        except ValueError:
            return None
        return x if math.isfinite(x) else None
    return None


def class_values(classes: Sequence[Any], scale: str) -> np.ndarray:
    """The numeric value behind each class, used by the weights and the metrics.

    Numeric classes (numbers, or strings that read as numbers) keep their values. Otherwise the classes
    are numbered 1…q in the order given, which is their order on an ordinal scale; interval and ratio
    scales need numeric classes.

    Parameters
    ----------
    classes : sequence
        The classes, as :attr:`humanly.data.Ratings.classes` holds them.
    scale : {"nominal", "ordinal", "interval", "ratio"}
        The measurement scale.

    Returns
    -------
    numpy.ndarray
        One float per class, in the classes' order.

    Raises
    ------
    InputError
        If some classes are numbers and others are not on an ordinal scale (no order follows), if an
        interval or ratio scale is given non-numeric classes, a ratio scale negative values, or two
        classes share one value.

    Examples
    --------
    >>> class_values(["1", "2", "10"], "ordinal").tolist()
    [1.0, 2.0, 10.0]
    >>> class_values(["low", "mid", "high"], "ordinal").tolist()
    [1.0, 2.0, 3.0]

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced Analytics, ch. 3.
    """
    check_choice("scale", scale, SCALES)
    numbers_ = [_number(c) for c in classes]
    numeric = [x for x in numbers_ if x is not None]
    if len(numeric) == len(classes):
        values = np.array(numeric, dtype=float)
        if len(np.unique(values)) < len(values):
            raise InputError(
                f"{setting('scale', scale)}: two of the classes {_short(classes)} have the same numeric "
                "value; "
                "give each class its own value"
            )
        if scale == "ratio" and bool((values < 0).any()):
            raise InputError(
                f"{setting('scale', 'ratio')}: the classes include negative values (the lowest is "
                f"{values.min():g}); a ratio scale needs values ≥ 0 (use {setting('scale', 'interval')})"
            )
        return values
    if scale in ("interval", "ratio"):
        raise InputError(
            f"{setting('scale', scale)}: the classes {_short(classes)} are not numbers; an {scale} scale "
            f"needs numeric labels (use {setting('scale', 'ordinal')} for ordered categories)"
        )
    if scale == "ordinal" and numeric:
        raise InputError(
            f"{setting('scale', 'ordinal')}: the classes {_short(classes)} mix numbers and words, so they "
            "have no "
            "order; declare the classes in order (classes=...) with one kind of label"
        )
    return np.arange(1.0, len(classes) + 1.0)


def _short(classes: Sequence[Any]) -> str:
    shown = tuple(classes)[:6]
    more = f" … ({len(classes)} classes)" if len(classes) > 6 else ""
    return f"{shown!r}{more}"


def _ranks(values: np.ndarray) -> np.ndarray:
    """1-based rank of each value (values are distinct)."""
    ranks = np.empty(len(values))
    ranks[np.argsort(values, kind="stable")] = np.arange(1.0, len(values) + 1.0)
    return ranks


def weight_matrix(name: str, values: np.ndarray) -> np.ndarray:
    """Gwet's named agreement weights for classes with the given numeric values.

    Parameters
    ----------
    name : {"identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"}
        The weights. ``ordinal`` uses the classes' ranks, the others their values (as irrCAC does).
    values : numpy.ndarray
        The classes' numeric values (:func:`class_values`), in the classes' order.

    Returns
    -------
    numpy.ndarray
        The q × q symmetric matrix, 1 on the diagonal, entries in [0, 1].

    Raises
    ------
    InputError
        If ``name`` is not one of the named weights.

    Examples
    --------
    >>> weight_matrix("ordinal", np.array([1.0, 2.0, 3.0])).round(3).tolist()
    [[1.0, 0.667, 0.0], [0.667, 1.0, 0.667], [0.0, 0.667, 1.0]]

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., §3.4 (the weights).
    """
    check_choice("weights", name, WEIGHTS)
    x = np.asarray(values, dtype=float)
    q = len(x)
    if name == "identity" or q < 2:
        return np.eye(q)
    lo, hi = float(x.min()), float(x.max())
    diff = x[:, None] - x[None, :]
    if name == "linear":
        return 1.0 - np.abs(diff) / (hi - lo)
    if name == "quadratic":
        return 1.0 - (diff / (hi - lo)) ** 2
    if name == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / math.sqrt(hi - lo)
    if name == "ratio":
        return 1.0 - _ratio_delta(x) / ((hi - lo) / (hi + lo)) ** 2
    if name == "ordinal":
        rank = _ranks(x)
        span = np.abs(rank[:, None] - rank[None, :]) + 1.0
        d = span * (span - 1.0) / 2.0
    elif name == "circular":
        d = np.sin(np.pi * diff / (hi - lo + 1.0)) ** 2
    else:  # bipolar
        with np.errstate(divide="ignore", invalid="ignore"):
            d = diff**2 / ((x[:, None] + x[None, :] - 2 * lo) * (2 * hi - x[:, None] - x[None, :]))
        np.fill_diagonal(d, 0.0)
    return 1.0 - d / d.max()


def _ratio_delta(x: np.ndarray) -> np.ndarray:
    """((a − b) / (a + b))² for every pair of values, 0 where a = b = 0."""
    total = x[:, None] + x[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        d = ((x[:, None] - x[None, :]) / total) ** 2
    return np.where(total == 0, 0.0, d)


def ordinal_scores(marginals: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Krippendorff's ordinal metric as positions: ``δ²(k, l) = (s_k − s_l)²``.

    Krippendorff (2011) defines ``δ²(k, l) = (Σ_{g=k..l} n_g − (n_k + n_l)/2)²`` with ``n_g`` the number
    of pairable values ``g`` and classes in rank order; with ``s_k = Σ_{g<k} n_g + n_k/2`` (the mid-rank
    of class k among all pairable values) that is ``(s_l − s_k)²``. So ordinal α is interval α on the
    mid-ranks, which is what lets it run from values without a q × q matrix.

    Parameters
    ----------
    marginals : numpy.ndarray
        Pairable values per class (last axis; earlier axes, e.g. bootstrap replicates, are kept).
    values : numpy.ndarray
        The classes' numeric values, which give their rank order.

    Returns
    -------
    numpy.ndarray
        The mid-rank of each class, same shape as ``marginals``.

    Examples
    --------
    >>> ordinal_scores(np.array([2.0, 1.0, 3.0]), np.array([1.0, 2.0, 3.0])).tolist()
    [1.0, 2.5, 4.5]

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability (the ordinal metric).
    """
    n = np.asarray(marginals, dtype=float)
    order = np.argsort(values, kind="stable")
    sorted_n = n[..., order]
    scores_sorted = np.cumsum(sorted_n, axis=-1) - sorted_n / 2.0
    scores = np.empty_like(scores_sorted)
    scores[..., order] = scores_sorted
    return scores


def krippendorff_metric(scale: str, values: np.ndarray, marginals: np.ndarray | None) -> np.ndarray:
    """Krippendorff's squared difference δ²(k, l) between classes, at a measurement scale.

    Parameters
    ----------
    scale : {"nominal", "ordinal", "interval", "ratio"}
        The scale: nominal ``[k ≠ l]``; ordinal rank-based (needs ``marginals``); interval
        ``(v_k − v_l)²``; ratio ``((v_k − v_l) / (v_k + v_l))²``.
    values : numpy.ndarray
        The classes' numeric values (:func:`class_values`).
    marginals : numpy.ndarray or None
        For the ordinal metric, how many pairable values fall in each class.

    Returns
    -------
    numpy.ndarray
        The q × q matrix of δ², 0 on the diagonal.

    Examples
    --------
    >>> krippendorff_metric("interval", np.array([1.0, 3.0]), None).tolist()
    [[0.0, 4.0], [4.0, 0.0]]

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication, University of Pennsylvania.
    """
    x = np.asarray(values, dtype=float)
    if scale == "nominal":
        return 1.0 - np.eye(len(x))
    if scale == "ordinal":
        assert marginals is not None
        s = ordinal_scores(marginals, x)
        return (s[:, None] - s[None, :]) ** 2
    if scale == "interval":
        return (x[:, None] - x[None, :]) ** 2
    return _ratio_delta(x)


def metric_weights(delta: np.ndarray) -> np.ndarray:
    """Agreement weights from a metric: ``1 − δ² / max δ²`` (the identity when every δ² is 0).

    Parameters
    ----------
    delta : numpy.ndarray
        A q × q matrix of squared differences (:func:`krippendorff_metric`).

    Returns
    -------
    numpy.ndarray
        The q × q weights, 1 on the diagonal, in [0, 1].

    Examples
    --------
    >>> metric_weights(np.array([[0.0, 4.0], [4.0, 0.0]])).tolist()
    [[1.0, 0.0], [0.0, 1.0]]

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. (Krippendorff's α as a weighted
    coefficient).
    """
    top = float(delta.max()) if delta.size else 0.0
    return np.eye(len(delta)) if top <= 0 else 1.0 - delta / top


def same_alpha(weights: np.ndarray, delta: np.ndarray) -> bool:
    """Whether α under ``weights`` equals α under the metric ``delta``.

    True when ``1 − w`` is a positive multiple of δ²: α does not change under an affine map of the
    disagreements, so quadratic weights give interval α and ratio weights ratio α.

    Parameters
    ----------
    weights : numpy.ndarray
        Agreement weights (q × q).
    delta : numpy.ndarray
        A metric's squared differences (q × q).

    Returns
    -------
    bool

    Examples
    --------
    >>> same_alpha(weight_matrix("quadratic", np.array([1.0, 2.0, 4.0])),
    ...            krippendorff_metric("interval", np.array([1.0, 2.0, 4.0]), None))
    True

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    """
    dis = 1.0 - np.asarray(weights, dtype=float)
    top_d, top_w = float(delta.max()), float(dis.max())
    if top_d <= 0 or top_w <= 0:
        return top_d <= 0 and top_w <= 0
    return bool(np.allclose(dis / top_w, delta / top_d, rtol=1e-12, atol=1e-12))


def check_weight_matrix(matrix: Any, classes: Sequence[Any]) -> np.ndarray:
    """A user-given weight matrix, checked: square, one row and column per class, symmetric, 1 on the
    diagonal, every entry in [0, 1].

    Parameters
    ----------
    matrix : array_like
        The q × q matrix, rows and columns in the order of ``classes``.
    classes : sequence
        The classes.

    Returns
    -------
    numpy.ndarray
        The matrix as floats.

    Raises
    ------
    InputError
        One sentence naming ``weights=`` and what is wrong.

    Examples
    --------
    >>> check_weight_matrix([[1, 0.5], [0.5, 1]], ["a", "b"]).tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    >>> check_weight_matrix([[1, 0.5], [0.2, 1]], ["a", "b"])
    Traceback (most recent call last):
    ...
    humanly.errors.InputError: weights=matrix: not symmetric (w[0, 1] = 0.5 but w[1, 0] = 0.2); ...
    """
    q = len(classes)
    try:
        w = np.asarray(matrix, dtype=float)
    except (TypeError, ValueError):
        raise InputError(
            f"{setting('weights', type(matrix).__name__, raw=True)}: give a weight name "
            f"({', '.join(WEIGHTS)}) or a "
            f"{q} × {q} matrix of numbers"
        ) from None
    if w.ndim != 2 or w.shape != (q, q):
        raise InputError(
            f"weights=matrix of shape {w.shape}: give a {q} × {q} matrix, one row and one column per "
            f"class in the order {_short(classes)}"
        )
    if not np.all(np.isfinite(w)):
        raise InputError("weights=matrix: it holds NaN or infinite entries; give numbers in [0, 1]")
    asym = np.argwhere(~np.isclose(w, w.T, rtol=0, atol=1e-12))
    if len(asym):
        k, l_ = (int(v) for v in asym[0])
        raise InputError(
            f"weights=matrix: not symmetric (w[{k}, {l_}] = {w[k, l_]:g} but w[{l_}, {k}] = "
            f"{w[l_, k]:g}); give the same credit to (k, l) and (l, k)"
        )
    if not np.allclose(np.diag(w), 1.0, rtol=0, atol=1e-12):
        k = int(np.flatnonzero(~np.isclose(np.diag(w), 1.0, rtol=0, atol=1e-12))[0])
        raise InputError(
            f"weights=matrix: w[{k}, {k}] = {w[k, k]:g}; the diagonal must be 1 (full credit when two "
            "raters give the same class)"
        )
    if bool((w < 0).any()) or bool((w > 1).any()):
        k, l_ = (int(v) for v in np.argwhere((w < 0) | (w > 1))[0])
        raise InputError(
            f"weights=matrix: w[{k}, {l_}] = {w[k, l_]:g} is outside [0, 1]; give credits between 0 "
            "(no agreement) and 1 (full agreement)"
        )
    return w
