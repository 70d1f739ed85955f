"""The stratified active design of :func:`~humanly.judging.select`: the expected number of items to send
to raters split across strata by the Neyman allocation, then the active rule inside each stratum.

Stratum h has P_h items that could be sent (its unlabelled items: the labelled ones are known already).
With a_h of them sent in expectation (Bernoulli sampling, probabilities π summing to a_h), the
inverse-probability-weighted estimate of the mean over all items has a design variance of about
Σ_h P_h² σ_h² / a_h / (n + N)², σ_h the spread of what the estimate averages over stratum h. For a total
of A = Σ a_h expected items it is smallest at (Neyman 1934)::

    a_h ∝ P_h · σ_h,   clipped to [min(2, cap·P_h), cap·P_h],   Σ a_h = A

(cap = ``max_probability``: no item is sent with a higher probability; the minimum, 2 expected items
per stratum — or all a stratum can take below that — keeps every stratum in the sample). With the
bounds the optimum is a_h = clip(κ·P_h·σ_h, low_h, high_h) with κ solving Σ a_h = A (the
Karush–Kuhn–Tucker conditions of a separable convex problem), found exactly here by locating κ
between the breakpoints of that piecewise-linear sum.

σ_h, the *spread*, comes from (``spread_source``):

* ``"labelled"`` — every stratum that can send items has at least 2 labelled items: the standard
  deviation of the PPI++ rectifier Y − λ_h·f on the stratum's labelled items (λ_h tuned on them as
  :func:`humanly.judge` tunes it), its variance averaged over the models; the spread the estimate
  afterwards actually averages;
* ``"judge"`` — fewer labels, a judge that gives probabilities: √(mean over the stratum's pool of
  mean_m f_m(1 − f_m)), the rectifier's spread were the judge calibrated (as the active rule itself
  assumes);
* ``"none"`` — fewer labels and a judge that gives labels: no spread to go by, every σ_h equal, so the
  allocation is proportional to the pool sizes.

Whatever the spreads, the design is valid: the probabilities are recorded and the estimate afterwards
weighs by them; the spreads only decide how efficient it is.

References
----------
Neyman, "On the two different aspects of the representative method", JRSS 97 (1934).
Zrnic & Candès, "Active statistical inference", ICML 2024.
Fisch, Maynez, Hofer, Dhingra, Globerson & Cohen, "Stratified prediction-powered inference for hybrid
language model evaluation", NeurIPS 2024.
"""

from __future__ import annotations

import numpy as np

from .._core.sampling import probabilities
from ..errors import InputError
from ._inputs import JudgeInputs
from ._ppi import Moments, fit
from ._scoring import reference_credit

__all__ = [
    "MIN_STRATUM_ITEMS",
    "SPREAD_SOURCES",
    "neyman_split",
    "spreads",
    "stratum_probabilities",
]

#: the fewest items each stratum sends in expectation (or all it can take, ``max_probability`` × its
#: pool, when that is fewer): 2, the fewest that estimate a stratum's variance
MIN_STRATUM_ITEMS = 2.0
#: where the strata's spreads come from (see the module docstring)
SPREAD_SOURCES = ("labelled", "judge", "none")


def bounds(size: np.ndarray, cap: float, minimum: float) -> tuple[np.ndarray, np.ndarray]:
    """Each stratum's least and greatest expected items: [min(minimum, cap·P_h), cap·P_h]."""
    high = cap * np.asarray(size, dtype=float)
    return np.minimum(minimum, high), high


def neyman_split(
    expected_items: float,
    size: np.ndarray,
    spread: np.ndarray,
    cap: float,
    minimum: float = MIN_STRATUM_ITEMS,
) -> np.ndarray:
    """a_h = clip(κ·P_h·σ_h, low_h, high_h) with Σ a_h = ``expected_items`` (the module docstring):
    the minimiser of Σ_h (P_h σ_h)² / a_h within the bounds. With no spread anywhere, σ_h = 1 (the
    allocation in proportion to the pool sizes); when the strata with a spread are full, the rest
    goes to those without one (where it changes nothing), in proportion to their room.

    >>> neyman_split(10.0, np.array([100, 100]), np.array([1.0, 4.0]), 0.9).tolist()
    [2.0, 8.0]
    """
    size = np.asarray(size, dtype=float)
    c = size * np.asarray(spread, dtype=float)
    if not (c > 0).any():
        c = size.copy()
    low, high = bounds(size, cap, minimum)
    total = float(expected_items)
    if total <= low.sum():
        return low.copy()
    if total >= high.sum():
        return high.copy()
    pos = c > 0
    kappas = np.unique(np.concatenate([low[pos] / c[pos], high[pos] / c[pos]]))

    def summed(kappa: float) -> float:
        return float(np.clip(kappa * c, low, high).sum())

    # the last breakpoint whose sum is at most the total (the sum grows with κ): κ lies after it
    lo, hi = 0, len(kappas) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if summed(kappas[mid]) <= total:
            lo = mid
        else:
            hi = mid - 1
    if lo + 1 < len(kappas):  # κ is strictly between two breakpoints: the strata free there
        between = (kappas[lo] + kappas[lo + 1]) / 2
        free = pos & (low < between * c) & (between * c < high)
        a = np.clip(between * c, low, high)
        if free.any():
            kappa = (total - a[~free].sum()) / c[free].sum()
            a[free] = kappa * c[free]
    else:  # past the last breakpoint: every stratum with a spread is full
        a = np.where(pos, high, low)
    room = np.where(pos, 0.0, high - a)
    short = total - a.sum()
    if short > 0 and room.sum() > 0:  # every stratum with a spread is full: the rest costs nothing
        a += short * room / room.sum()
    return a


def spreads(data: JudgeInputs, size: np.ndarray, f_pool: np.ndarray) -> tuple[np.ndarray, str]:
    """σ_h per stratum and where it comes from (``"labelled"``, ``"judge"`` or ``"none"``);
    ``f_pool`` is the judge's score of each model on the pool items (pool × models)."""
    assert data.strata is not None
    k = len(data.strata_names)
    lab, pool = data.labelled, data.unlabelled
    n_lab = np.bincount(data.strata[lab], minlength=k)
    if (n_lab[size > 0] >= 2).all():
        return _rectifier_spreads(data, k, f_pool), "labelled"
    if data.judge_proba is None:
        return np.ones(k), "none"
    u = np.clip(f_pool * (1 - f_pool), 0, None).mean(axis=1)
    sums = np.bincount(data.strata[pool], weights=u, minlength=k)
    return np.sqrt(np.where(size > 0, sums / np.maximum(size, 1), 0.0)), "judge"


def _rectifier_spreads(data: JudgeInputs, k: int, f_pool: np.ndarray) -> np.ndarray:
    """Per stratum: √(mean over the models of var(Y − λ·f)) on its labelled items, λ tuned per
    stratum and model (PPI++, clipped to [0, 1]; the pool's moments per stratum by sums)."""
    assert data.strata is not None
    lab = data.labelled
    credit = reference_credit(data.counts, "label")
    y = np.take_along_axis(credit, data.model_codes[lab].astype(np.intp), axis=1)
    f = data.scores(lab)
    s_lab, s_pool = data.strata[lab], data.strata[data.unlabelled]
    count = np.bincount(s_pool, minlength=k).astype(float)
    models = f_pool.shape[1]
    total = np.column_stack([np.bincount(s_pool, f_pool[:, m], k) for m in range(models)])
    square = np.column_stack([np.bincount(s_pool, f_pool[:, m] ** 2, k) for m in range(models)])
    out = np.zeros(k)
    for h in range(k):
        rows = s_lab == h
        if rows.sum() < 2 or count[h] == 0:
            continue
        n_h = np.full(models, count[h])
        mean = total[h] / count[h]
        var = np.maximum(square[h] / count[h] - mean**2, 0.0)
        lam = fit(y[rows], f[rows], Moments(n_h, mean, var / n_h, weighted=False)).lam
        out[h] = float(np.sqrt((y[rows] - lam * f[rows]).var(axis=0).mean()))
    return out


def stratum_probabilities(
    u: np.ndarray,
    codes: np.ndarray,
    allocation: np.ndarray,
    *,
    mixing: float,
    cap: float,
) -> np.ndarray:
    """π per pool item: inside stratum h the active rule (:func:`humanly._core.sampling.probabilities`
    on the items' uncertainty ``u``) spending that stratum's ``allocation[h]`` expected items."""
    pi = np.zeros(len(u))
    for h, a_h in enumerate(allocation):
        rows = np.flatnonzero(codes == h)
        if len(rows):
            pi[rows] = probabilities(
                u[rows], float(min(a_h, cap * len(rows))), mixing=mixing, cap=cap
            )
    return pi


def checked_total(expected_items: float, size: np.ndarray, cap: float) -> None:
    """At least the strata's minimum expected items in all (one sentence otherwise)."""
    low, _ = bounds(size, cap, MIN_STRATUM_ITEMS)
    if expected_items < low.sum() - 1e-9:
        raise InputError(
            f"expected_items={expected_items:g}: with {int((size > 0).sum())} strata to send from, "
            f"give at least {low.sum():g} (each stratum sends at least {MIN_STRATUM_ITEMS:g} items "
            "in expectation, or all it can)"
        )
