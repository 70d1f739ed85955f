"""Stratified PPI++ on plain arrays (Fisch, Maynez, Hofer, Dhingra, Globerson & Cohen 2024), and the
Neyman allocation of a label budget across strata.

The items fall into K strata known for every item (a prompt category, a bin of the judge's
confidence). Stratum k holds n_k labelled and N_k unlabelled items; its population share is
w_k = (n_k + N_k) / (n + N) (or given). Within each stratum the estimate is PPI++ (or PPI, classical,
several judges, the active design) exactly as without strata, and the strata combine as independent
samples::

    θ̂ = Σ_k w_k θ̂_k,        se² = Σ_k w_k² se_k²

Each stratum has its own λ_k, tuned as ppi-python 0.2.3 tunes a mean (``ppi_mean_ci(lam=None)``): the
variance of the sum is the weighted sum of the strata's variances, so minimising each stratum's
variance over its own λ_k minimises the whole (Fisch et al., section 4). The human-only interval
beside it is the stratified classical one (the same sums with λ_k = 0); σ, the spread of the reference
in the population, is sqrt(Σ_k w_k (σ_k² + (ȳ_k − ȳ_w)²)), and ρ (a summary only: planning uses the
strata's own) the share-weighted mean of the strata's correlations. With one stratum every one of
these sums has a single term with weight 1, so the result is today's PPI++ to the last bit.

A stratum whose items are all labelled (N_k = 0) contributes its human-only mean (the judge adds
nothing there). A stratum with fewer than 2 labelled items cannot estimate its variance: an error
naming ``strata``.

Neyman allocation. With n_k human labels in stratum k and many unlabelled items, PPI++'s variance is
Σ_k w_k² σ_k² (1 − ρ_k²) / n_k; for a total of n labels it is smallest at n_k ∝ w_k σ_k √(1 − ρ_k²)
(Neyman 1934, with the PPI++ residual spread in place of σ_k; Fisch et al., section 4.2). Several
estimands share one allocation: n_k ∝ w_k √(Σ_e σ_ke² (1 − ρ_ke²)), the minimiser of the sum of their
variances. Each stratum gets at least ``minimum`` labels and at most its ``sizes`` items, and the
counts are the whole numbers that minimise the variance exactly (labels added one at a time where they
help most: the greedy solution of a separable convex allocation, Gross 1956).

References
----------
Fisch, Maynez, Hofer, Dhingra, Globerson & Cohen, "Stratified prediction-powered inference for hybrid
language model evaluation", NeurIPS 2024.
Neyman, "On the two different aspects of the representative method", JRSS 97 (1934).
Ibaraki & Katoh, *Resource Allocation Problems: Algorithmic Approaches*, MIT Press (1988), ch. 4
(the greedy algorithm for separable convex resource allocation, after Gross 1956).
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from typing import Any

import numpy as np

from ..errors import InputError
from ._blocks import Blocks
from ._ppi import Fit, Moments, classical, fit, moments
from ._vectors import columns, factorize

__all__ = [
    "StrataFit",
    "allocate",
    "codes_of",
    "combine",
    "fit_strata",
    "groups",
    "human_only",
    "shares_of",
]


def codes_of(labelled: Any, unlabelled: Any) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Integer stratum codes of the labelled and unlabelled items and the strata's names, from any
    labels: whole numbers sorted as numbers, anything else sorted as text.

    >>> codes_of(np.array([2, 10]), np.array([2]))
    (array([0, 1]), array([0]), ('2', '10'))
    """
    a, b = np.asarray(labelled).reshape(-1), np.asarray(unlabelled).reshape(-1)
    if not (a.dtype.kind in "iub" and b.dtype.kind in "iub"):
        a, b = a.astype(str), b.astype(str)
    codes, names = factorize(np.concatenate([a, b]))
    return codes[: len(a)], codes[len(a) :], names


def shares_of(codes_labelled: np.ndarray, codes_unlabelled: np.ndarray, k: int) -> np.ndarray:
    """w_k = (n_k + N_k) / (n + N): each stratum's share of all items."""
    counts = np.bincount(codes_labelled, minlength=k) + np.bincount(codes_unlabelled, minlength=k)
    return counts / counts.sum()


@dataclasses.dataclass(frozen=True)
class StrataFit:
    """The combined fit (a :class:`~humanly.judging._ppi.Fit` with λ the share-weighted mean of the
    strata's), each stratum's own fit, and the strata's shares and counts."""

    combined: Fit
    strata: tuple[Any, ...]
    shares: np.ndarray
    n: np.ndarray
    n_unlabelled: np.ndarray
    names: tuple[str, ...]


def groups(codes: np.ndarray, k: int) -> list[Any]:
    """Each stratum's rows, in their order: a slice (its rows are viewed, not copied) when the codes
    are already in stratum order, else its positions."""
    bounds = np.concatenate([[0], np.cumsum(np.bincount(codes, minlength=k))]).tolist()
    if len(codes) < 2 or bool((codes[1:] >= codes[:-1]).all()):
        return [slice(bounds[j], bounds[j + 1]) for j in range(k)]
    order = np.argsort(codes, kind="stable")
    return [order[bounds[j] : bounds[j + 1]] for j in range(k)]


def human_only(y: np.ndarray, weights: Any) -> Fit:
    """A stratum with no unlabelled item: its human-only mean (λ = 0)."""
    point, se = classical(y, weights)
    e = point.shape[0]
    nan = np.full(e, np.nan)
    if weights is None:
        sd, n = y.std(axis=0), np.full(e, float(y.shape[0]))
    else:
        v = np.broadcast_to(np.asarray(weights, dtype=float).reshape(len(y), -1), y.shape)
        sd = np.sqrt((v * (y - point) ** 2).sum(axis=0) / v.sum(axis=0))
        n = (v > 0).sum(axis=0).astype(float)
    return Fit(point, se, np.zeros(e), point, se, sd, nan, n)


def _take(x: Any, rows: Any) -> Any:
    if isinstance(x, Blocks):  # the stratum's block, built now
        return x[slice(None) if rows is None else rows]
    if x is None or rows is None:
        return x
    return np.asarray(x)[rows]


def _fit_one(y, f, f_u, lam, weights, weights_u, estimator) -> Any:
    if f_u.shape[0] == 0:
        return human_only(y, weights)
    if estimator is not None:
        return estimator(y, f, f_u)
    unl: Moments = moments(f_u, weights_u)
    return fit(y, f, unl, lam=lam, weights=weights)


def combine(parts: list[Any], shares: np.ndarray) -> Fit:
    """Σ_k w_k θ̂_k and sqrt(Σ_k w_k² se_k²), and the same for the human-only estimate; σ from the
    strata's spreads and means, ρ and λ share-weighted (one stratum: its own values, bit for bit)."""
    w = shares[:, None]
    stack = {name: np.stack([getattr(p, name) for p in parts]) for name in Fit.__dataclass_fields__}
    point = (w * stack["point"]).sum(axis=0)
    se = np.sqrt((w**2 * stack["se"] ** 2).sum(axis=0))
    c_point = (w * stack["classical_point"]).sum(axis=0)
    c_se = np.sqrt((w**2 * stack["classical_se"] ** 2).sum(axis=0))
    spread = stack["sd"] ** 2 + (stack["classical_point"] - c_point) ** 2
    sd = np.sqrt((w * spread).sum(axis=0))
    with np.errstate(invalid="ignore"):
        rho = (w * stack["rho"]).sum(axis=0)
        lam = (w * stack["lam"]).sum(axis=0)
    return Fit(point, se, lam, c_point, c_se, sd, rho, stack["n"].sum(axis=0))


def fit_strata(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    strata: Any,
    strata_unlabelled: Any,
    *,
    lam: float | None = None,
    shares: Any = None,
    weights: Any = None,
    weights_unlabelled: Any = None,
    estimator: Any = None,
) -> StrataFit:
    """Stratified PPI++ column by column (n × E labelled, N × E unlabelled).

    ``strata`` and ``strata_unlabelled`` label each labelled and unlabelled item's stratum; ``shares``
    (one per stratum, in the sorted order of the strata's names, summing to 1) replaces the item
    counts' shares; ``weights``/``weights_unlabelled`` are the active design's 1/π and 1/(1 − π);
    ``estimator`` (a callable ``(y, f, f_unlabelled) -> fit``) replaces PPI++ within each stratum
    (several judges: :func:`humanly.judging._multi.fit_judges`).
    """
    y_, f_ = columns(y), columns(f)
    fu = f_unlabelled if isinstance(f_unlabelled, Blocks) else columns(f_unlabelled)
    cl, cu, names = codes_of(strata, strata_unlabelled)
    if len(cl) != len(y_) or len(cu) != len(fu):
        raise InputError(
            f"strata: {len(cl)} labelled and {len(cu)} unlabelled stratum labels for {len(y_)} "
            f"labelled and {len(fu)} unlabelled items; give one stratum per item"
        )
    k = len(names)
    n_k = np.bincount(cl, minlength=k)
    if (n_k < 2).any():
        j = int(np.argmax(n_k < 2))
        raise InputError(
            f"strata: stratum {names[j]!r} has {int(n_k[j])} labelled item(s); each stratum needs at "
            "least 2 to estimate its variance: label more items there or merge it with another"
        )
    w = shares_of(cl, cu, k) if shares is None else _checked_shares(shares, k)
    if k == 1:  # the arrays as given, so that the arithmetic is today's PPI++ exactly
        groups_l: list[Any] = [None]
        groups_u: list[Any] = [None]
    else:
        groups_l, groups_u = groups(cl, k), groups(cu, k)
    parts = []
    for gl, gu in zip(groups_l, groups_u, strict=True):
        parts.append(
            _fit_one(
                _take(y_, gl),
                _take(f_, gl),
                _take(fu, gu),
                lam,
                _take(weights, gl),
                _take(weights_unlabelled, gu),
                estimator,
            )
        )
    n_u = np.bincount(cu, minlength=k)
    return StrataFit(combine(parts, w), tuple(parts), w, n_k, n_u, names)


def _checked_shares(shares: Any, k: int) -> np.ndarray:
    w = np.asarray(shares, dtype=float).reshape(-1)
    if len(w) != k or not np.isfinite(w).all() or (w < 0).any() or abs(w.sum() - 1.0) > 1e-9:
        raise InputError(
            f"shares={np.round(w, 6).tolist()}: give {k} non-negative shares (one per stratum, in "
            "the sorted order of the strata) that sum to 1"
        )
    return w


# ---------------------------------------------------------------------------------- allocation
def allocate(
    budget: int,
    shares: np.ndarray,
    spread: np.ndarray,
    sizes: np.ndarray | None,
    minimum: int,
) -> np.ndarray:
    """Whole n_k minimising Σ_k (w_k·spread_k)² / n_k with ``minimum`` ≤ n_k ≤ ``sizes`` and
    Σ n_k = ``budget``: labels are added one at a time where they reduce the sum most, which is the
    exact optimum for a separable convex objective (Gross 1956; Ibaraki & Katoh 1988). With no
    spread anywhere, the allocation in proportion to the shares (spread 1 everywhere)."""
    k = len(shares)
    high = np.full(k, budget, dtype=np.int64) if sizes is None else np.asarray(sizes, np.int64)
    n = np.minimum(np.full(k, minimum, dtype=np.int64), high)
    r = (shares * spread) ** 2
    if not r.sum() > 0:
        r = shares.astype(float) ** 2
    n = np.maximum(n, _sure(r, budget - int(n.sum()), n, high))
    heap: list[tuple[float, int]] = []
    for j in range(k):
        if n[j] < high[j]:
            heapq.heappush(heap, (-_gain(r[j], n[j]), j))
    left = budget - int(n.sum())
    while left > 0 and heap:
        _, j = heapq.heappop(heap)
        n[j] += 1
        left -= 1
        if n[j] < high[j]:
            heapq.heappush(heap, (-_gain(r[j], n[j]), j))
    return n


def _sure(r: np.ndarray, left: int, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Counts the greedy allocation surely reaches, found at once: every label whose gain is at least
    a threshold τ (the c-th label of stratum k gains r_k / (c(c − 1)), the first infinitely), with τ
    the smallest for which they fit in the budget — the greedy takes the labels in order of gain, so
    it takes all of these. The greedy then adds the rest one at a time."""

    def counts(tau: float) -> np.ndarray:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            c = np.floor((1 + np.sqrt(1 + 4 * r / tau)) / 2)
            c = np.minimum(np.nan_to_num(c, posinf=float(high.max())), float(high.max()) + 1)
            c = np.where((c >= 2) & (r / ((c - 1) * c) < tau), c - 1, c)  # against rounding
            c = np.where(r / (c * (c + 1)) >= tau, c + 1, c)
        c = np.where(r > 0, c, 0.0)
        return np.clip(c, low, high).astype(np.int64)

    total = int(low.sum()) + left
    lo, hi = -700.0, math.log(max(float(r.max()), 1e-300))  # log τ
    for _ in range(100):
        mid = (lo + hi) / 2
        if counts(math.exp(mid)).sum() <= total:
            hi = mid
        else:
            lo = mid
    return counts(math.exp(hi))


def _gain(r: float, count: int) -> float:
    """How much one more label reduces r / count (infinite at 0 labels when r > 0)."""
    if count == 0:
        return math.inf if r > 0 else 0.0
    return r / (count * (count + 1))
