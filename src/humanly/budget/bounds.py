"""Upper bounds on the error P(ΣG ≤ 0) over n items: Hoeffding (Lemma 1) and Cramér (Lemma 2).

Both are exp(n · exponent) with a per-item exponent of the gap indicator's distribution (x, y):

* Hoeffding: −E[G]²/2 with E[G] = x − y;
* Cramér: log(2√(xy) + z) = log(1 − (√x − √y)²), the optimal Chernoff exponent; the bound holds for
  every n.

Both exponents are 0 (the bound is vacuous) when c_b does not have the higher expected gap, x ≤ y.

The paper's Fig. 1 setting (p = q = 0.75, ε = 0.1: x = 0.1875, y = 0.1375) at 1,500 items:

>>> g = (0.1875, 0.1375, 0.675)
>>> f"{cramer_error(g, 1500):.3g}", f"{hoeffding_error(g, 1500):.3g}"
('0.00298', '0.153')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from ._args import check_n

if TYPE_CHECKING:
    from .gap import Gap

__all__ = ["cramer_error", "cramer_exponent", "hoeffding_error", "hoeffding_exponent"]


def _finite(xa: np.ndarray, ya: np.ndarray) -> None:
    if not (np.all(np.isfinite(xa)) and np.all(np.isfinite(ya))):
        raise InputError("x, y: gap probabilities must be finite numbers (found NaN or inf)")


def hoeffding_exponent(x: float | np.ndarray, y: float | np.ndarray) -> float | np.ndarray:
    """Per-item log error bound of Lemma 1: −E[G]²/2 when E[G] = x − y > 0, else 0 (vacuous).

    >>> hoeffding_exponent(0.3, 0.1), hoeffding_exponent(0.1, 0.3)
    (-0.019999999999999997, 0.0)
    """
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    _finite(xa, ya)
    mean = xa - ya
    out = np.where(mean > 0, -0.5 * mean**2, 0.0)
    return float(out) if np.ndim(out) == 0 else out


def cramer_exponent(x: float | np.ndarray, y: float | np.ndarray) -> float | np.ndarray:
    """Per-item log error bound of Lemma 2: log(2√(xy) + z) = log(1 − (√x − √y)²) when x > y, else 0.

    >>> round(cramer_exponent(0.3, 0.1), 5)
    -0.05508
    """
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    _finite(xa, ya)
    gap = (np.sqrt(xa) - np.sqrt(ya)) ** 2  # 1 − (2√(xy) + z), without cancellation
    out = np.where(xa > ya, np.log1p(-np.minimum(gap, 1.0)), 0.0)
    return float(out) if np.ndim(out) == 0 else out


def _xy(gap: Gap | tuple[float, float, float]) -> tuple[float, float]:
    """(x, y) of a :class:`~humanly.budget.Gap` or an (x, y, z) triple."""
    if isinstance(gap, (tuple, list)):
        x, y, _ = gap
        return float(x), float(y)
    return gap.x, gap.y


def hoeffding_error(gap: Gap | tuple[float, float, float], n: int) -> float:
    """Hoeffding's upper bound on the error over n items: P(ΣG ≤ 0) ≤ exp(−n E[G]²/2) (Lemma 1).

    Parameters
    ----------
    gap : Gap or tuple of float
        The gap indicator's distribution (or an (x, y, z) triple).
    n : int
        Items.

    Returns
    -------
    float
        The bound; 1 when E[G] ≤ 0 (vacuous).

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> gap = IndependentErrors(p=0.8, eps=0.01, q=0.8).gap(1)  # single labels
    >>> round(hoeffding_error(gap, 1500), 4)  # an upper bound on P(error) at 1,500 labels
    0.9734

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Lemma 1.
    """
    n = check_n(n)
    x, y = _xy(gap)
    return float(math.exp(n * hoeffding_exponent(x, y)))


def cramer_error(gap: Gap | tuple[float, float, float], n: int) -> float:
    """Cramér's upper bound on the error over n items: P(ΣG ≤ 0) ≤ (2√(xy) + z)ⁿ (Lemma 2).

    The bound holds for every n.

    Parameters
    ----------
    gap : Gap or tuple of float
        The gap indicator's distribution (or an (x, y, z) triple).
    n : int
        Items.

    Returns
    -------
    float
        The bound; 1 when E[G] ≤ 0 (vacuous).

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> gap = IndependentErrors(p=0.8, eps=0.01, q=0.8).gap(1)
    >>> round(cramer_error(gap, 1500), 4)  # tighter than Hoeffding's 0.9734
    0.9176

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Lemma 2.
    """
    n = check_n(n)
    x, y = _xy(gap)
    return float(math.exp(n * cramer_exponent(x, y)))
