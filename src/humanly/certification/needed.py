"""Items needed to certify: the smallest number of test items N at which the same L_N and U_N would be
certified (S_OMS ≥ level, Theorem 7) with a chosen finite-sample bound.

"The same" means: the same point bounds L_N and U_N, the same margin τ, the same OMS method, and per
bound what the tails read from the data — for ``bernstein`` the same sample variances, for ``exact`` the
same success rate (``successes · N / n`` successes, a real number: the Clopper–Pearson tail
``I_p(k, N − k + 1)`` is the regularised incomplete beta, defined for real k). Both bounds use the same N
(the items are labelled by the same crowd), so with N items the certificate is recomputed with N behind
U_N *and* behind L_N.

Monotonicity. For a fixed deviation t, Hoeffding's ``exp(−2Nt²)`` decreases in N, and so does the
empirical-Bernstein δ(t) (its inverse ``s = 2t / (b + sqrt(b² + 4at))`` grows as ``a = 7/(3(N−1))`` and
``b = sqrt(2V/N)`` shrink); so S(t_u) grows with N at every t_u and its maximum S_OMS does too: certified
at N ⇒ certified at every N' ≥ N. The exact (Clopper–Pearson) tail at a fixed success rate has no such
proof; ``tests/certify/test_certify_needed.py`` checks max S(N) non-decreasing for all three bounds on 25
random configurations (success rates on both sides of L_N) × 250 values of N from 2 to 200,000, and
that every N' among N + 1, N + 7, 2N and 10N is certified too on 50 random cases; no exception was
found (a wider search, 60 configurations × 600 values of N with the certificate's own OMS, found none
either). :func:`items_needed` returns the N at which the
certificate changes from "not certified" (at N − 1) to "certified" (at N), found by bisection with the
certificate's own OMS — so recomputing the certificate at N says certified and at N − 1 says not, by
construction.

It is ``None`` when no N suffices: ``L_N − τ ≤ U_N`` (no margin to share between the deviations); for the
exact bound also when the success rate ``successes / n`` is ≤ U_N + τ (the exact tail concentrates at the
success rate, not at L_N); and when more than :data:`N_MAX` items would be needed.

>>> from humanly.certification import BOUNDS, Sample
>>> h = BOUNDS["hoeffding"]
>>> items_needed(0.971, 0.939, h, Sample(1821, 0.939**2), Sample(1821, 0.971))  # Table 4
4149
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._bounds import Bound, Sample, Tail
from .confidence_score import ConfidenceScore, confidence

__all__ = ["N_MAX", "confidence_at", "items_needed", "reachable", "sample_at"]

#: the largest number of items :func:`items_needed` looks at (beyond it: ``None``)
N_MAX = 10**12


def sample_at(sample: Sample, n: int) -> Sample:
    """``sample`` with ``n`` items: the same mean and variance, and the same success rate.

    >>> sample_at(Sample(200, 0.85, 0.1, 170), 400)
    Sample(n=400, mean=0.85, variance=0.1, successes=340.0)
    """
    if n == sample.n:
        return sample
    k = None if sample.successes is None else sample.successes * n / sample.n
    return Sample(n, sample.mean, sample.variance, k)


def confidence_at(
    n: int,
    lower: float,
    upper: float,
    bound: Bound,
    sample_u: Sample,
    sample_l: Sample,
    *,
    tau: float = 0.0,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
) -> ConfidenceScore:
    """The confidence (Theorem 7) that the same L_N and U_N would have with ``n`` items behind both.

    >>> from humanly.certification import BOUNDS
    >>> c = confidence_at(5000, 0.971, 0.939, BOUNDS["hoeffding"], Sample(1821), Sample(1821))
    >>> round(c.oms, 3)
    0.976
    """
    tail_u, tail_l = _tails(bound, sample_u, sample_l, n)
    return confidence(lower, upper, tail_u, tail_l, oms_steps=oms_steps, oms_lr=oms_lr, tau=tau)


def reachable(bound: Bound, lower: float, upper: float, sample_l: Sample, tau: float = 0.0) -> bool:
    """Whether some N certifies: ``L_N − τ > U_N``, and for the exact bound also a success rate above
    ``U_N + τ``.

    >>> from humanly.certification import BOUNDS
    >>> reachable(BOUNDS["exact"], 0.9, 0.85, Sample(100, 0.9, 0.09, 84))
    False
    """
    if not lower - tau > upper:
        return False
    if bound.name == "exact" and sample_l.successes is not None:
        return bool(sample_l.successes / sample_l.n - tau > upper)
    return True


def items_needed(
    lower: float,
    upper: float,
    bound: Bound,
    sample_u: Sample,
    sample_l: Sample,
    *,
    level: float = 0.95,
    tau: float = 0.0,
    oms_steps: int | None = None,
    oms_lr: float | None = None,
) -> int | None:
    """The smallest number of items N at which the same L_N and U_N would be certified.

    Certified means S_OMS ≥ ``level`` (Theorem 7) under ``bound`` with N items behind both bounds (the
    items are labelled by the same crowd); see the module for what "the same" keeps per bound and for
    the monotonicity in N. A vectorised search over N (the same S(t_u) on a refined grid) finds the
    transition quickly; the certificate's own OMS then confirms it: certified at N, not at N − 1.

    Parameters
    ----------
    lower, upper : float
        L_N and U_N.
    bound : Bound
        The concentration bound, an entry of :data:`~humanly.certification.BOUNDS`.
    sample_u, sample_l : Sample
        What the bound reads behind U_N² and behind L_N (n, mean, variance, successes).
    level : float
        The level S_OMS must reach (default 0.95).
    tau : float
        The margin τ of the claim (default 0).
    oms_steps, oms_lr : optional
        The paper's gradient ascent for OMS instead of the bounded maximisation.

    Returns
    -------
    int or None
        N, or ``None`` when no N ≤ :data:`N_MAX` certifies (L_N − τ ≤ U_N; for the exact bound also a
        success rate ≤ U_N + τ).

    Examples
    --------
    >>> from humanly.certification import BOUNDS
    >>> items_needed(0.919, 0.879, BOUNDS["hoeffding"], Sample(10000), Sample(10000))  # Table 4
    2785
    """
    if not reachable(bound, lower, upper, sample_l, tau):
        return None
    cache: dict[int, bool] = {}

    def certified(n: int) -> bool:
        if n < 1:
            return False
        if n not in cache:
            c = confidence_at(
                n,
                lower,
                upper,
                bound,
                sample_u,
                sample_l,
                tau=tau,
                oms_steps=oms_steps,
                oms_lr=oms_lr,
            )
            cache[n] = c.oms is not None and c.oms >= level
        return cache[n]

    def fast(n: int) -> bool:
        return _max_score(n, lower, upper, bound, sample_u, sample_l, tau) >= level

    start = max(sample_u.n, sample_l.n, 1)
    guess = _transition(fast, start)
    if guess is None:
        guess = start
    return _transition(certified, guess)


def _tails(bound: Bound, sample_u: Sample, sample_l: Sample, n: int) -> tuple[Tail, Tail]:
    """The tails of ``bound`` for U_N² and L_N with ``n`` items behind each."""
    return bound.upper(sample_at(sample_u, n)), bound.lower(sample_at(sample_l, n))


def _max_score(
    n: int,
    lower: float,
    upper: float,
    bound: Bound,
    sample_u: Sample,
    sample_l: Sample,
    tau: float,
) -> float:
    """max over t_u of S(t_u) on a 257-point grid refined once around its best point (vectorised);
    −inf when no t_u is admissible."""
    reach = lower - tau
    t_max = reach * reach - upper * upper
    if not (reach > upper and t_max > 0):
        return -math.inf
    tail_u, tail_l = _tails(bound, sample_u, sample_l, n)

    def s(t: np.ndarray) -> np.ndarray:
        t_l = reach - np.sqrt(t + upper * upper)
        return 1.0 - tail_u.delta_array(t) - tail_l.delta_array(t_l)

    grid = np.linspace(0.0, t_max, 257)
    values = s(grid)
    i = int(np.argmax(values))
    fine = np.linspace(grid[max(i - 1, 0)], grid[min(i + 1, 256)], 257)
    return float(max(values[i], s(fine).max()))


def _transition(certified: Callable[[int], bool], start: int) -> int | None:
    """The N with ``certified(N)`` and not ``certified(N − 1)`` nearest ``start`` (galloping away from
    ``start`` to bracket it, then bisection); ``None`` when nothing up to :data:`N_MAX` is certified.
    ``certified(0)`` is taken as false."""
    start = min(max(int(start), 1), N_MAX)
    step = 1
    if certified(start):
        hi, lo = start, start - 1
        while lo >= 1 and certified(lo):
            hi = lo
            step *= 2
            lo = max(hi - step, 0)
        lo = max(lo, 0)
    else:
        lo, hi = start, start + 1
        while not certified(hi):
            if hi >= N_MAX:
                return None
            lo = hi
            step *= 2
            hi = min(lo + step, N_MAX)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if certified(mid):
            hi = mid
        else:
            lo = mid
    return hi
