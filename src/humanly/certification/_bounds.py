"""Finite-sample concentration bounds of *Humanly Certifying Superhuman Classifiers*, as one registry.

* Hoeffding (Theorem 4; used by Theorems 5 and 6): ``δ = exp(−2 N t²)`` for a mean of N independent
  variables in [0, 1] — the paper's bound and the default.
* Empirical Bernstein (Maurer & Pontil 2009, Theorem 4): with probability ≥ 1 − δ,
  ``E[X] ≤ X̄ + sqrt(2 V ln(2/δ) / N) + 7 ln(2/δ) / (3 (N − 1))`` with ``V`` the unbiased sample variance;
  the same holds for the lower tail. Tighter than Hoeffding when the variance is small (agreement near 1).
* Exact binomial (Clopper–Pearson) for a mean of Bernoulli variables: the lower confidence limit ``p`` of a
  success probability after ``k`` successes in ``N`` trials solves ``P(Binom(N, p) ≥ k) = δ``, so
  ``δ(p) = I_p(k, N − k + 1)`` (regularised incomplete beta).

Each bound is a :class:`Tail` mapping a deviation ``t`` to its failure probability ``δ(t)`` and back.
:data:`BOUNDS` names every bound a user can choose (``bound="hoeffding" | "bernstein" | "exact"``) and
says which tail it uses for the upper bound U_N² (Theorem 5) and for the lower bound L_N (Theorem 6),
built from a :class:`Sample` (n, mean, variance, successes); every caller —
:func:`humanly.certification.certify`, :func:`~humanly.certification.certify_summary`,
:func:`~humanly.certification.coverage` and the confidence curve — goes through it.

>>> tail = BOUNDS["hoeffding"].lower(Sample(n=1821, mean=0.971))
>>> round(tail.t(0.025), 4)
0.0318
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import special

from ..data import InputError
from ..errors import setting

__all__ = [
    "BOUNDS",
    "BOUND_NAMES",
    "Bound",
    "Sample",
    "Tail",
    "bernstein_tail",
    "clopper_pearson_tail",
    "hoeffding_delta",
    "hoeffding_t",
    "hoeffding_tail",
]


def hoeffding_delta(n: int, t: float) -> float:
    """The failure probability of Hoeffding's inequality for a deviation t: δ = exp(−2 N t²).

    Eqs. 15, 22, 30 and 31 of the paper; the inverse of :func:`hoeffding_t`.

    Parameters
    ----------
    n : int
        N, the variables in [0, 1] averaged.
    t : float
        The deviation.

    Returns
    -------
    float
        δ; 1 for t ≤ 0.

    Examples
    --------
    >>> round(hoeffding_delta(1821, 0.02), 4)
    0.233
    """
    if t <= 0:
        return 1.0
    return float(math.exp(-2.0 * n * t * t))


def hoeffding_t(n: int, delta: float) -> float:
    """The deviation Hoeffding's inequality allows at failure probability δ: t = sqrt(ln(1/δ) / (2N)).

    The inverse of :func:`hoeffding_delta` (exp(−2 N t²) = δ).

    Parameters
    ----------
    n : int
        N, the variables in [0, 1] averaged.
    delta : float
        δ, in (0, 1).

    Returns
    -------
    float
        t.

    Examples
    --------
    >>> round(hoeffding_t(1821, 0.025), 4)
    0.0318
    """
    return float(math.sqrt(math.log(1.0 / delta) / (2.0 * n)))


@dataclass(frozen=True)
class Tail:
    """A one-sided concentration bound for a mean in [0, 1].

    Parameters
    ----------
    name : str
        ``"hoeffding"``, ``"bernstein"`` or ``"exact"``.
    delta : callable
        t ↦ the failure probability of the claim "the true mean is beyond estimate ± t" (the sign
        depends on the side).
    t : callable
        δ ↦ t, its inverse.
    deltas : callable, optional
        ``delta`` on a numpy array at once (the same formula, vectorised), used to search quickly
        before the scalar ``delta`` decides (:mod:`~humanly.certification.needed`).

    Examples
    --------
    >>> tail = hoeffding_tail(100)
    >>> round(tail.delta(tail.t(0.05)), 12)
    0.05
    """

    name: str
    delta: Callable[[float], float]
    t: Callable[[float], float]
    deltas: Callable[[np.ndarray], np.ndarray] | None = None

    def delta_array(self, t: np.ndarray) -> np.ndarray:
        """``delta`` at every value of ``t`` (vectorised when the tail has ``deltas``).

        Parameters
        ----------
        t : numpy.ndarray
            Deviations.

        Returns
        -------
        numpy.ndarray
            δ(t), of the same shape.

        Examples
        --------
        >>> hoeffding_tail(100).delta_array(np.array([0.0, 0.1])).round(4).tolist()
        [1.0, 0.1353]
        """
        t = np.asarray(t, dtype=float)
        if self.deltas is not None:
            return self.deltas(t)
        return np.array([self.delta(float(x)) for x in t.ravel()]).reshape(t.shape)


def hoeffding_tail(n: int) -> Tail:
    """Hoeffding's inequality (Theorem 4) as a :class:`Tail`.

    Parameters
    ----------
    n : int
        N, the variables in [0, 1] averaged.

    Returns
    -------
    Tail
        δ(t) = exp(−2Nt²) and its inverse.

    Examples
    --------
    >>> round(hoeffding_tail(10000).t(0.025), 4)
    0.0136
    """

    def deltas(t: np.ndarray) -> np.ndarray:
        return np.where(t > 0, np.exp(-2.0 * n * t * t), 1.0)

    return Tail("hoeffding", lambda t: hoeffding_delta(n, t), lambda d: hoeffding_t(n, d), deltas)


def bernstein_tail(n: int, variance: float) -> Tail:
    """The empirical Bernstein bound (Maurer & Pontil 2009, Theorem 4) as a :class:`Tail`.

    ``t(δ) = sqrt(2 V ln(2/δ)/n) + 7 ln(2/δ)/(3(n − 1))``; its inverse solves a quadratic in
    ``s = sqrt(ln(2/δ))``: ``a s² + b s − t = 0`` with ``a = 7/(3(n−1))``, ``b = sqrt(2V/n)``.

    Parameters
    ----------
    n : int
        The variables in [0, 1] averaged (below 2 the tail never bounds anything: δ = 1).
    variance : float
        Their unbiased sample variance V.

    Returns
    -------
    Tail
        δ(t) and its inverse.

    References
    ----------
    A. Maurer & M. Pontil (2009), *Empirical Bernstein Bounds and Sample Variance Penalization*.

    Examples
    --------
    >>> round(bernstein_tail(10000, 0.01).t(0.025), 4)
    0.004
    """
    if n < 2:
        return Tail("bernstein", lambda t: 1.0, lambda d: math.inf, lambda t: np.ones_like(t))
    a = 7.0 / (3.0 * (n - 1))
    b = math.sqrt(2.0 * max(variance, 0.0) / n)

    def delta(t: float) -> float:
        if t <= 0:
            return 1.0
        s = (-b + math.sqrt(b * b + 4.0 * a * t)) / (2.0 * a)
        return float(min(1.0, 2.0 * math.exp(-s * s)))

    def t_of(d: float) -> float:
        x = math.log(2.0 / d)
        return b * math.sqrt(x) + a * x

    def deltas(t: np.ndarray) -> np.ndarray:
        tp = np.maximum(t, 0.0)
        s = (-b + np.sqrt(b * b + 4.0 * a * tp)) / (2.0 * a)
        return np.where(t > 0, np.minimum(1.0, 2.0 * np.exp(-s * s)), 1.0)

    return Tail("bernstein", delta, t_of, deltas)


def clopper_pearson_tail(n: int, successes: float, estimate: float) -> Tail:
    """The exact binomial (Clopper–Pearson) lower tail of a Bernoulli mean as a :class:`Tail`.

    ``successes`` may be fractional: ``I_p(k, n − k + 1)`` is then the regularised incomplete beta at a
    real ``k`` (the continuous extension used to ask what ``n`` items at the same success rate would
    certify, :mod:`~humanly.certification.needed`); for a whole ``k`` it is the binomial tail.

    ``t`` is measured from ``estimate`` (the reported L_N, which with fractional tie credit may exceed
    ``successes / n``): the claim "p ≥ estimate − t" fails with probability at most
    ``P(Binom(n, p) ≥ k) = I_p(k, n − k + 1)`` at ``p = estimate − t``.

    Parameters
    ----------
    n : int
        The trials.
    successes : float
        The successes k (a real number is allowed).
    estimate : float
        The estimate t is measured from.

    Returns
    -------
    Tail
        δ(t) and its inverse.

    Examples
    --------
    >>> round(0.85 - clopper_pearson_tail(200, 170, 0.85).t(0.025), 4)  # the lower limit
    0.7928
    """
    k = float(successes)

    def delta(t: float) -> float:
        p = estimate - t
        if k == 0:
            return 0.0 if p <= 0 else 1.0
        if p <= 0:
            return 0.0
        if p >= 1:
            return 1.0
        return float(special.betainc(k, n - k + 1, p))

    def t_of(d: float) -> float:
        if k == 0:
            return estimate
        p = float(special.betaincinv(k, n - k + 1, d))
        return estimate - p

    def deltas(t: np.ndarray) -> np.ndarray:
        p = estimate - t
        if k == 0:
            return np.where(p <= 0, 0.0, 1.0)
        inner = special.betainc(k, n - k + 1, np.clip(p, 0.0, 1.0))
        return np.where(p <= 0, 0.0, np.where(p >= 1, 1.0, inner))

    return Tail("exact", delta, t_of, deltas)


# ------------------------------------------------------------------------------------ registry
@dataclass(frozen=True)
class Sample:
    """What a concentration bound needs to know about a mean of variables in [0, 1].

    Published numbers give only ``n`` and ``mean``.

    Parameters
    ----------
    n : int
        The variables averaged.
    mean : float
        Their mean.
    variance : float, optional
        Their unbiased sample variance (empirical Bernstein).
    successes : float, optional
        For a mean of Bernoulli variables, the successes (Clopper–Pearson).

    Examples
    --------
    >>> Sample(n=300, mean=0.87, variance=0.11).n
    300
    """

    n: int
    mean: float = math.nan
    variance: float | None = None
    successes: float | None = None


def _hoeffding(s: Sample) -> Tail:
    return hoeffding_tail(s.n)


def _bernstein(s: Sample) -> Tail:
    if s.variance is None:
        raise InputError(
            f"{setting('bound', 'bernstein')} needs the per-item variance; give the data, or use "
            f"{setting('bound', 'hoeffding')}"
        )
    return bernstein_tail(s.n, s.variance)


def _clopper_pearson(s: Sample) -> Tail:
    if s.successes is None:
        raise InputError(
            f"{setting('bound', 'exact')} needs the per-item successes; give the data, or use "
            f"{setting('bound', 'hoeffding')}"
        )
    return clopper_pearson_tail(s.n, s.successes, s.mean)


@dataclass(frozen=True)
class Bound:
    """A concentration bound a user can choose (``bound=``).

    Parameters
    ----------
    name : str
        Its name.
    upper : callable
        :class:`Sample` ↦ the :class:`Tail` it uses for U_N² (Theorem 5).
    lower : callable
        :class:`Sample` ↦ the :class:`Tail` it uses for L_N (Theorem 6).
    from_numbers : bool
        Whether published numbers (n and the mean) are enough.
    description : str
        One line for a reader.

    Examples
    --------
    >>> BOUNDS["exact"].lower(Sample(200, 0.85, successes=170)).name
    'exact'
    """

    name: str
    upper: Callable[[Sample], Tail]
    lower: Callable[[Sample], Tail]
    from_numbers: bool
    description: str


#: every bound by name (the choices of ``bound=``); the order is the order of ``by_bound`` in results
BOUNDS: dict[str, Bound] = {
    "hoeffding": Bound(
        "hoeffding", _hoeffding, _hoeffding, True, "Hoeffding (Theorem 4), the paper's bound"
    ),
    "bernstein": Bound(
        "bernstein", _bernstein, _bernstein, False, "empirical Bernstein for U_N² and L_N"
    ),
    "exact": Bound(
        "exact",
        _bernstein,
        _clopper_pearson,
        False,
        "empirical Bernstein for U_N², Clopper–Pearson (exact binomial) for L_N",
    ),
}

#: the names of :data:`BOUNDS`, in order
BOUND_NAMES: tuple[str, ...] = tuple(BOUNDS)
