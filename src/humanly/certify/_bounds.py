"""Finite-sample bounds and the confidence score of *Humanly Certifying Superhuman Classifiers*.

* Hoeffding (Theorem 4; used by Theorems 5 and 6): ``δ = exp(−2 N t²)`` for a mean of N independent
  variables in [0, 1] — the paper's bound and the default.
* Empirical Bernstein (Maurer & Pontil 2009, Theorem 4): with probability ≥ 1 − δ,
  ``E[X] ≤ X̄ + sqrt(2 V ln(2/δ) / N) + 7 ln(2/δ) / (3 (N − 1))`` with ``V`` the unbiased sample variance;
  the same holds for the lower tail. Tighter than Hoeffding when the variance is small (agreement near 1).
* Exact binomial (Clopper–Pearson) for a mean of Bernoulli variables: the lower confidence limit ``p`` of a
  success probability after ``k`` successes in ``N`` trials solves ``P(Binom(N, p) ≥ k) = δ``, so
  ``δ(p) = I_p(k, N − k + 1)`` (regularised incomplete beta).

Each bound is represented by a *tail function* mapping a claimed bound to its failure probability δ, so
the confidence score of Theorem 7, ``S = 1 − δ_u − δ_l`` (eq. 33), and its optimisation over ``t_u``
(HMS, eqs. 36–37; OMS, eq. 38) are written once for all bounds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

__all__ = [
    "Tail",
    "bernstein_tail",
    "clopper_pearson_tail",
    "confidence",
    "hoeffding_delta",
    "hoeffding_t",
    "hoeffding_tail",
]


def hoeffding_delta(n: int, t: float) -> float:
    """δ = exp(−2 N t²) (eqs. 15, 22, 30, 31); 1 for t ≤ 0."""
    if t <= 0:
        return 1.0
    return float(math.exp(-2.0 * n * t * t))


def hoeffding_t(n: int, delta: float) -> float:
    """The deviation t with exp(−2 N t²) = δ, i.e. t = sqrt(ln(1/δ) / (2N))."""
    return float(math.sqrt(math.log(1.0 / delta) / (2.0 * n)))


@dataclass(frozen=True)
class Tail:
    """A one-sided concentration bound for a mean in [0, 1].

    ``delta(t)`` is the failure probability of the claim "true mean is beyond estimate ± t" (the sign
    depends on the side), and ``t(delta)`` its inverse. ``name`` is hoeffding, bernstein or exact.
    """

    name: str
    delta: Callable[[float], float]
    t: Callable[[float], float]


def hoeffding_tail(n: int) -> Tail:
    """Hoeffding's inequality (Theorem 4) for a mean of ``n`` variables in [0, 1]."""
    return Tail("hoeffding", lambda t: hoeffding_delta(n, t), lambda d: hoeffding_t(n, d))


def bernstein_tail(n: int, variance: float) -> Tail:
    """Empirical Bernstein bound (Maurer & Pontil 2009, Thm 4) for ``n`` variables in [0, 1] with
    unbiased sample variance ``variance``: ``t(δ) = sqrt(2 V ln(2/δ)/n) + 7 ln(2/δ)/(3(n − 1))``.

    Its inverse solves a quadratic in ``s = sqrt(ln(2/δ))``: ``a s² + b s − t = 0`` with
    ``a = 7/(3(n−1))``, ``b = sqrt(2V/n)``. Needs ``n ≥ 2``.
    """
    if n < 2:
        return Tail("bernstein", lambda t: 1.0, lambda d: math.inf)
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

    return Tail("bernstein", delta, t_of)


def clopper_pearson_tail(n: int, successes: int, estimate: float) -> Tail:
    """Exact binomial lower tail (Clopper–Pearson) for a Bernoulli mean with ``successes`` of ``n``.

    ``t`` is measured from ``estimate`` (the reported L_N, which with fractional tie credit may exceed
    ``successes / n``): the claim "p ≥ estimate − t" fails with probability at most
    ``P(Binom(n, p) ≥ k) = I_p(k, n − k + 1)`` at ``p = estimate − t``.
    """
    k = int(successes)

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

    return Tail("exact", delta, t_of)


@dataclass(frozen=True)
class ConfidenceScore:
    """HMS and OMS confidence scores (Theorem 7) and where they were attained."""

    admissible: bool
    hms: float | None
    hms_t_u: float | None
    hms_t_l: float | None
    oms: float | None
    t_u: float | None
    t_l: float | None
    t_u_max: float | None
    method: str


def _score(
    t_u: float, lower: float, upper: float, tail_u: Tail, tail_l: Tail
) -> tuple[float, float]:
    """S(t_u) of eq. 38 with τ = 0 and t_l from eq. 35; returns (S, t_l)."""
    t_l = lower - math.sqrt(t_u + upper * upper)
    return 1.0 - tail_u.delta(t_u) - tail_l.delta(t_l), t_l


def confidence(
    lower: float,
    upper: float,
    tail_u: Tail,
    tail_l: Tail,
    *,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
) -> ConfidenceScore:
    """Confidence that the model beats the average annotator (Theorem 7, S = 1 − δ_u − δ_l, eq. 33).

    ``tail_u`` bounds U_N² (``δ_u(t_u)``: P(U² ≥ U_N² + t_u)) and ``tail_l`` bounds L_N
    (``δ_l(t_l)``: P(L ≤ L_N − t_l)). With τ = 0, ``t_l = L_N − sqrt(t_u + U_N²)`` (eq. 35); both must be
    ≥ 0, so the admissible range is ``t_u ∈ [0, L_N² − U_N²]``. When ``L_N ≤ U_N`` it is empty and no
    confidence is reported (``admissible = False``, scores ``None``).

    * HMS (Algorithm 1): ``t_u = (L_N − U_N)/2`` (eq. 36) and t_l from eq. 37; ``None`` when that t_u
      lies outside the admissible range.
    * OMS (Algorithm 2): the maximum of S(t_u) over the admissible range, found with a bounded scalar
      optimiser (``scipy.optimize.minimize_scalar``) started from the best of a 2,001-point grid. With
      ``oms_steps``/``oms_lr`` the paper's plain gradient ascent from the HMS point is run instead (footnote
      3: 100 steps, learning rate 1e-4), each step clipped to the admissible range so that the score is
      always a valid certificate.
    """
    if not (lower > upper and lower > 0):
        return ConfidenceScore(False, None, None, None, None, None, None, None, "none")
    t_max = lower * lower - upper * upper
    hms = hms_tu = hms_tl = None
    tu_h = (lower - upper) / 2.0
    if 0 <= tu_h <= t_max:
        hms, hms_tl = _score(tu_h, lower, upper, tail_u, tail_l)
        hms_tu = tu_h

    def neg(t: float) -> float:
        return -_score(float(t), lower, upper, tail_u, tail_l)[0]

    if oms_steps is not None or oms_lr is not None:
        steps = 100 if oms_steps is None else int(oms_steps)
        lr = 1e-4 if oms_lr is None else float(oms_lr)
        t = min(max(tu_h, 0.0), t_max)
        h = max(t_max * 1e-7, 1e-12)
        for _ in range(steps):
            lo, hi = max(t - h, 0.0), min(t + h, t_max)
            grad = (neg(lo) - neg(hi)) / (hi - lo)
            t = min(max(t + lr * grad, 0.0), t_max)
        best_t, method = t, f"gradient ascent ({steps} steps, lr {lr:g})"
    else:
        grid = np.linspace(0.0, t_max, 2001)
        values = np.array([neg(t) for t in grid])
        i = int(np.argmin(values))
        a, b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        res = optimize.minimize_scalar(
            neg, bounds=(a, b), method="bounded", options={"xatol": max(t_max * 1e-12, 1e-15)}
        )
        best_t = float(res.x) if res.fun <= values[i] else float(grid[i])
        method = "bounded maximisation over [0, L_N² − U_N²]"
    oms, t_l = _score(best_t, lower, upper, tail_u, tail_l)
    return ConfidenceScore(True, hms, hms_tu, hms_tl, oms, best_t, t_l, t_max, method)
