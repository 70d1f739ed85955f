"""The Hoeffding side of the paper (section 3.1 and Appendix C) as functions, so each step can be checked.

* :func:`sigma` — σ(m, q) of Lemma C.2, with M_m(q) = q + (2q − 1)σ(m, q) for odd m;
* :func:`mean_gap_ratio` — E[G(M_m(q))] / E[G(q)], the factor by which m-majority labels raise the
  expected gap; Hoeffding's bound (Lemma 1) prefers single labels, B(G(q), nm) < B(G(M_m(q)), n), exactly
  when it is below √m (eqs. (1)–(2) independent, eq. (7) correlated). For the independent model it is
  (2M_m(q) − 1)/(2q − 1) = 1 + 2σ(m, q) (eq. (6));
* :func:`lemma_c3_bound` — Lemma C.3: 1 + 2σ(m, q) ≤ 1 + (2√((m − 1)/2) − 1)/√π, which is < √m for every
  odd m ≥ 3 (Proposition C.1);
* :func:`proposition_c2_bound` — Proposition C.2: for correlated errors with q_b ≥ q_w the ratio of eq. (7)
  is at most (2M_m(q_b) − 1)/(2q_b − 1) (Lemma C.4), hence < √m.

Even m (Lemma C.1): with ties counted as failures M_2k < M_2k−1, with a fair coin M_2k = M_2k−1; either
way the ratio at 2k is at most the one at 2k − 1 < √(2k − 1) < √(2k).

>>> from humanly.budget import IndependentErrors
>>> round(float(sigma(3, 0.8)), 4), round(float(mean_gap_ratio(IndependentErrors(0.7, 0.1, 0.8), 3)), 4)
(0.16, 1.32)
>>> round(lemma_c3_bound(3), 4) < round(3 ** 0.5, 4)
True
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .._core.checks import check_int
from ..errors import InputError, setting
from ._args import VoteTies, check_vote_ties
from .models import CorrelatedErrors, ErrorModel, majority_accuracy

__all__ = [
    "lemma_c3_bound",
    "mean_gap_ratio",
    "proposition_c2_bound",
    "sigma",
]


def _odd(m: int, name: str = "m") -> int:
    m = int(check_int(name, m, minimum=1))
    if m % 2 == 0:
        raise InputError(f"{setting(name, m)}: give an odd number (Lemma C.2 is for odd m)")
    return m


def sigma(m: int, q: float | np.ndarray) -> float | np.ndarray:
    """Lemma C.2's σ(m, q) = Σ over odd k ≤ m − 2 of C(k, ⌈k/2⌉)(q(1 − q))^⌈k/2⌉ (0 for m = 1).

    >>> float(sigma(1, 0.7)), round(float(sigma(5, 0.7)), 6)
    (0.0, 0.3423)
    """
    m = _odd(m)
    qa = np.asarray(q, dtype=float)
    pq = qa * (1.0 - qa)
    out = np.zeros_like(qa)
    for k in range(1, m - 1, 2):
        h = (k + 1) // 2
        out = out + special.comb(k, h, exact=False) * pq**h
    return float(out) if np.ndim(out) == 0 else out


def mean_gap_ratio(error_model: ErrorModel, m: int, vote_ties: VoteTies = "coin") -> float:
    """E[G] with m-majority labels over E[G] with single labels: (2M_m(q) − 1)/(2q − 1) for the
    independent model (eq. (2)), the ratio of eq. (7) for the correlated one. Hoeffding's bound prefers
    single labels for this m exactly when the ratio is below √m (Propositions C.1, C.2). NaN when
    E[G] = 0 with single labels.

    >>> round(mean_gap_ratio(CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9), 3), 4)
    1.3033
    """
    m = int(check_int("m", m, minimum=1))
    vote_ties = check_vote_ties(vote_ties)
    single = error_model.gap(1).mean
    if single == 0:
        return float("nan")
    return float(error_model.gap(m, vote_ties).mean / single)


def lemma_c3_bound(m: int) -> float:
    """Lemma C.3's upper bound on 1 + 2σ(m, q) for odd m: 1 + (2√((m − 1)/2) − 1)/√π.

    >>> round(lemma_c3_bound(3), 4), round(math.sqrt(3), 4)
    (1.5642, 1.7321)
    """
    m = _odd(m)
    return 1.0 + (2.0 * math.sqrt((m - 1) / 2.0) - 1.0) / math.sqrt(math.pi)


def proposition_c2_bound(
    error_model: CorrelatedErrors, m: int, vote_ties: VoteTies = "coin"
) -> float:
    """Proposition C.2's bound on the correlated ratio of eq. (7) (via Lemma C.4, when q_b ≥ q_w):
    (2M_m(q_b) − 1)/(2q_b − 1); NaN when q_b = ½.

    >>> errors = CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9)
    >>> mean_gap_ratio(errors, 3) <= proposition_c2_bound(errors, 3) < 3 ** 0.5
    True
    """
    m = int(check_int("m", m, minimum=1))
    if error_model.q_b == 0.5:
        return float("nan")
    mm = float(majority_accuracy(error_model.q_b, m, check_vote_ties(vote_ties)))
    return (2.0 * mm - 1.0) / (2.0 * error_model.q_b - 1.0)
