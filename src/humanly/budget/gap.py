"""The gap indicator G of one test item (section 2) and its distribution under the paper's two
scenarios of errors.

G = +1 when only the better classifier c_b agrees with the test label, −1 when only the worse c_w does,
0 when the two agree with each other; P(G = 1) = x, P(G = −1) = y, P(G = 0) = z.

* :func:`gap_independent` — Proposition 1: x = qε + (1 − p − ε)p, y = (1 − q)ε + (1 − p − ε)p;
* :func:`gap_correlated` — Proposition 2: x = q_b(1 − p_w)p_b⁰ + (1 − q_w)p_w(1 − p_b¹),
  y = (1 − q_b)(1 − p_w)p_b⁰ + q_w p_w(1 − p_b¹).

Both are vectorised and unchecked (the error models of :mod:`humanly.budget.models` check their
parameters).

>>> g = Gap(0.1875, 0.1375, 0.675)
>>> round(g.mean, 4), round(g.cramer_rate, 6)
(0.05, -0.003877)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.checks import check_number
from .._core.result import Result
from .bounds import cramer_exponent

__all__ = ["Gap", "as_gap", "gap_correlated", "gap_independent"]


@dataclass(frozen=True, repr=False)
class Gap(Result):
    """The distribution of the gap indicator G of one test item.

    G = +1 when only the better classifier agrees with the test label, −1 when only the worse one
    does, 0 when they agree with each other.

    Parameters
    ----------
    x : float
        P(G = 1).
    y : float
        P(G = −1).
    z : float
        P(G = 0).

    Examples
    --------
    >>> Gap(0.3, 0.2, 0.5).mean
    0.09999999999999998

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 2.
    """

    x: float
    y: float
    z: float

    def __post_init__(self) -> None:
        for name in ("x", "y", "z"):
            check_number(name, getattr(self, name))

    @property
    def mean(self) -> float:
        """E[G] = x − y.

        Examples
        --------
        >>> round(Gap(0.1875, 0.1375, 0.675).mean, 4)
        0.05
        """
        return self.x - self.y

    @property
    def cramer_rate(self) -> float:
        """log(2√(xy) + z) = −Λ*(0) of −G (Lemma 2): the per-item log error exponent, ≤ 0.

        Examples
        --------
        >>> round(Gap(0.1875, 0.1375, 0.675).cramer_rate, 6)
        -0.003877
        """
        return float(cramer_exponent(self.x, self.y))


def as_gap(gap: Gap | tuple[float, float, float]) -> Gap:
    """A :class:`Gap` from a Gap or an (x, y, z) triple."""
    if isinstance(gap, Gap):
        return gap
    x, y, z = gap
    return Gap(float(x), float(y), float(z))


def _gap_arrays(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.clip(x, 0.0, 1.0)
    y = np.clip(y, 0.0, 1.0)
    z = np.clip(1.0 - x - y, 0.0, 1.0)
    return x, y, z


def gap_independent(
    q: float | np.ndarray, p: float | np.ndarray, eps: float | np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, z) of G(q, p, ε), Proposition 1 (vectorised, no checks):
    x = qε + (1 − p − ε)p, y = (1 − q)ε + (1 − p − ε)p.

    >>> [round(float(v), 4) for v in gap_independent(0.8, 0.8, 0.01)]
    [0.16, 0.154, 0.686]
    """
    qa, pa, ea = (np.asarray(v, dtype=float) for v in (q, p, eps))
    both = (1.0 - pa - ea) * pa
    return _gap_arrays(qa * ea + both, (1.0 - qa) * ea + both)


def gap_correlated(
    q_b: float | np.ndarray,
    q_w: float | np.ndarray,
    p_w: float | np.ndarray,
    p_b0: float | np.ndarray,
    p_b1: float | np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, y, z) of G(q_b, q_w, p_w, p_b⁰, p_b¹), Proposition 2 (vectorised, no checks):
    x = q_b(1 − p_w)p_b⁰ + (1 − q_w)p_w(1 − p_b¹), y = (1 − q_b)(1 − p_w)p_b⁰ + q_w p_w(1 − p_b¹).

    >>> [round(float(v), 4) for v in gap_correlated(0.8, 0.7, 0.6, 0.7, 0.9)]
    [0.242, 0.098, 0.66]
    """
    qb, qw, pw, pb0, pb1 = (np.asarray(v, dtype=float) for v in (q_b, q_w, p_w, p_b0, p_b1))
    a = (1.0 - pw) * pb0  # only c_b right
    b = pw * (1.0 - pb1)  # only c_w right
    return _gap_arrays(qb * a + (1.0 - qw) * b, (1.0 - qb) * a + qw * b)
