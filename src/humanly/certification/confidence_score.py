"""The confidence that a model beats the average rater (Theorem 7): ``S = 1 − δ_u − δ_l`` (eq. 33).

For a margin τ ≥ 0 (the claim "the model beats the average rater by at least τ", eq. 29),
``t_l = L_N − τ − sqrt(t_u + U_N²)`` (eq. 35), so S is a function of ``t_u`` alone (eq. 38; the paper
sets τ = 0): :func:`score` evaluates it, :func:`confidence` picks ``t_u`` by the heuristic split (HMS,
Algorithm 1, eqs. 36–37) and by maximisation (OMS, Algorithm 2), and :func:`joint_confidence` gives one
confidence for several models sharing the upper bound. Written once for every bound of
:data:`~._bounds.BOUNDS`; ``tau=0.0`` gives the paper's numbers bit for bit.

>>> from humanly.certification import hoeffding_tail
>>> round(confidence(0.971, 0.939, hoeffding_tail(1821), hoeffding_tail(1821)).oms, 4)  # Table 4
0.6208
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from ._bounds import Tail

__all__ = ["ConfidenceScore", "confidence", "joint_confidence", "score"]


@dataclass(frozen=True)
class ConfidenceScore:
    """HMS and OMS confidence scores (Theorem 7) and where they were attained (the form
    :class:`~humanly.certification.Confidence` reports).

    Parameters
    ----------
    admissible : bool
        Whether some t_u is admissible.
    hms, hms_t_u, hms_t_l : float or None
        S at the heuristic split and its deviations.
    oms, t_u, t_l : float or None
        The maximum of S and its deviations.
    t_u_max : float or None
        The end of the admissible range.
    method : str
        How OMS was found, as a code: ``bounded_maximisation`` (over [0, L_N² − U_N²]),
        ``bounded_maximisation_tau`` (over [0, (L_N − τ)² − U_N²]), ``gradient_ascent`` (the
        paper's, with ``options.oms_steps`` and ``options.oms_lr``) or ``none`` (no t_u is
        admissible); :mod:`humanly.verdicts.methods` words them.

    Examples
    --------
    >>> from humanly.certification import hoeffding_tail
    >>> confidence(0.8, 0.85, hoeffding_tail(100), hoeffding_tail(100)).admissible
    False
    """

    admissible: bool
    hms: float | None
    hms_t_u: float | None
    hms_t_l: float | None
    oms: float | None
    t_u: float | None
    t_l: float | None
    t_u_max: float | None
    method: str


def score(
    t_u: float, lower: float, upper: float, tail_u: Tail, tail_l: Tail, tau: float = 0.0
) -> tuple[float, float]:
    """S(t_u) of eq. 38 with t_l = L_N − τ − sqrt(t_u + U_N²) from eq. 35; returns ``(S, t_l)``.

    >>> from humanly.certification import hoeffding_tail
    >>> s, t_l = score(0.016, 0.971, 0.939, hoeffding_tail(1821), hoeffding_tail(1821))  # HMS
    >>> round(s, 4), round(t_l, 4)
    (0.473, 0.0235)
    """
    t_l = lower - tau - math.sqrt(t_u + upper * upper)
    return 1.0 - tail_u.delta(t_u) - tail_l.delta(t_l), t_l


def confidence(
    lower: float,
    upper: float,
    tail_u: Tail,
    tail_l: Tail,
    *,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
    tau: float = 0.0,
) -> ConfidenceScore:
    """The confidence S = 1 − δ_u − δ_l that a model beats the average rater by at least τ.

    Theorem 7, eqs. 29 and 33.

    ``tail_u`` bounds U_N² (``δ_u(t_u)``: P(U² ≥ U_N² + t_u)) and ``tail_l`` bounds L_N
    (``δ_l(t_l)``: P(L ≤ L_N − t_l)). ``t_l = L_N − τ − sqrt(t_u + U_N²)`` (eq. 35); both must be ≥ 0,
    so the admissible range is ``t_u ∈ [0, (L_N − τ)² − U_N²]``. When ``L_N − τ ≤ U_N`` it is empty and
    no confidence is reported (``admissible = False``, scores ``None``).

    * HMS (Algorithm 1): ``t_u = (L_N − τ − U_N)/2`` — half of the margin left after τ (eq. 36 at
      τ = 0) — and t_l from eq. 37; ``None`` when that t_u lies outside the admissible range.
    * OMS (Algorithm 2): the maximum of S(t_u) over the admissible range, found with a bounded scalar
      optimiser (``scipy.optimize.minimize_scalar``) started from the best of a 2,001-point grid. With
      ``oms_steps``/``oms_lr`` the paper's plain gradient ascent from the HMS point is run instead (footnote
      3: 100 steps, learning rate 1e-4), each step clipped to the admissible range so that the score is
      always a valid certificate.

    Parameters
    ----------
    lower, upper : float
        L_N and U_N.
    tail_u, tail_l : Tail
        The concentration bounds of U_N² and L_N.
    oms_steps, oms_lr : optional
        The paper's gradient ascent instead of the bounded maximisation.
    tau : float
        The margin τ.

    Returns
    -------
    ConfidenceScore
        HMS and OMS with their deviations.

    Examples
    --------
    >>> from humanly.certification import hoeffding_tail
    >>> c = confidence(0.919, 0.879, hoeffding_tail(10000), hoeffding_tail(10000))  # SemBERT, SNLI
    >>> round(c.hms, 4), round(c.oms, 6)
    (0.9997, 0.999996)
    """
    reach = lower - tau  # L_N − τ: what the finite-sample upper bound must stay below
    if not (reach > upper and reach > 0):
        return ConfidenceScore(False, None, None, None, None, None, None, None, "none")
    t_max = reach * reach - upper * upper
    hms = hms_tu = hms_tl = None
    tu_h = (reach - upper) / 2.0
    if 0 <= tu_h <= t_max:
        hms, hms_tl = score(tu_h, lower, upper, tail_u, tail_l, tau)
        hms_tu = tu_h

    def neg(t: float) -> float:
        return -score(float(t), lower, upper, tail_u, tail_l, tau)[0]

    if oms_steps is not None or oms_lr is not None:
        steps = 100 if oms_steps is None else int(oms_steps)
        lr = 1e-4 if oms_lr is None else float(oms_lr)
        t = min(max(tu_h, 0.0), t_max)
        h = max(t_max * 1e-7, 1e-12)
        for _ in range(steps):
            lo, hi = max(t - h, 0.0), min(t + h, t_max)
            grad = (neg(lo) - neg(hi)) / (hi - lo)
            t = min(max(t + lr * grad, 0.0), t_max)
        best_t, method = t, "gradient_ascent"
    else:
        grid = np.linspace(0.0, t_max, 2001)
        values = np.array([neg(t) for t in grid])
        i = int(np.argmin(values))
        a, b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        res = optimize.minimize_scalar(
            neg, bounds=(a, b), method="bounded", options={"xatol": max(t_max * 1e-12, 1e-15)}
        )
        best_t = float(res.x) if res.fun <= values[i] else float(grid[i])
        method = "bounded_maximisation_tau" if tau else "bounded_maximisation"
    oms, t_l = score(best_t, lower, upper, tail_u, tail_l, tau)
    return ConfidenceScore(True, hms, hms_tu, hms_tl, oms, best_t, t_l, t_max, method)


def joint_confidence(
    lowers: list[float], upper: float, tail_u: Tail, tails_l: list[Tail], tau: float = 0.0
) -> tuple[float | None, float | None]:
    """Confidence that *every* model beats the average rater by at least ``tau`` at once (union bound
    over the M + 1 events of Theorem 7 sharing one upper bound):
    ``S = 1 − δ_u(t_u) − Σ_m δ_l,m(L_m − τ − sqrt(t_u + U²))`` maximised over
    ``t_u ∈ [0, min_m (L_m − τ)² − U²]``. Sharper than Bonferroni on per-model scores because δ_u is
    paid once. Returns ``(S, t_u)``, or ``(None, None)`` when some L_m − τ ≤ U (no admissible t_u).

    >>> from humanly.certification import hoeffding_tail
    >>> t = hoeffding_tail(10000)
    >>> s, t_u = joint_confidence([0.919, 0.93], 0.879, t, [t, t])
    >>> s > 0.9999
    True
    """
    if not lowers or min(lowers) - tau <= upper:
        return None, None
    t_max = min((lo - tau) * (lo - tau) for lo in lowers) - upper * upper

    def neg(t: float) -> float:
        r = tau + math.sqrt(t + upper * upper)
        return -(
            1.0
            - tail_u.delta(t)
            - sum(tl.delta(lo - r) for lo, tl in zip(lowers, tails_l, strict=True))
        )

    grid = np.linspace(0.0, t_max, 1001)
    values = np.array([neg(t) for t in grid])
    i = int(np.argmin(values))
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    res = optimize.minimize_scalar(
        neg, bounds=(a, b), method="bounded", options={"xatol": max(t_max * 1e-12, 1e-15)}
    )
    best = float(res.x) if res.fun <= values[i] else float(grid[i])
    return -neg(best), best
