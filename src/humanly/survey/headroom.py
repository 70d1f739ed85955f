"""Information view and headroom (Survey Equivalence, Theorem 1 and section 7's "future work").

With the ABC and cross-entropy, c_k − c_0 tends to MI(Y_{k+1}; Y_1..Y_k) (Theorem 1), which increases to
the information an *ideal* classifier gives, one that knows each item's state s (its label
distribution): ``MI(s; Y) = H(E[s]) − E[H(s)]`` bits. We estimate it from label counts alone by a
nonparametric maximum-likelihood mixture of item states (NPMLE, Kiefer–Wolfowitz): the mixing weights
on a set of candidate states maximise ``sum_i log sum_g w_g prod_l theta_{g,l}^{n_{i,l}}``.

Candidates: a grid of the simplex (``grid`` divisions per edge: 200 for two classes, 40 for three, 16
for four, 9 for five), coarsened until there are at most :data:`MAX_CANDIDATES` candidates and the
likelihood table (distinct count vectors × candidates) has at most :data:`MAX_CELLS` cells; beyond
five classes (where any grid is too coarse or too large) the items' own label frequencies shrunk
towards the pooled frequencies (two strengths) and the pooled frequencies themselves, for the most
frequent count vectors first within the same limits.

Fit: a constrained Newton method (Wang 2007, "On fast computation of the non-parametric maximum
likelihood estimate of a mixing distribution"): each step maximises the quadratic approximation of the
log-likelihood over the simplex (a non-negative least-squares problem with the sum-to-one row weighted
heavily), then a backtracking line search; it stops when the duality bound
``max_g D_g − 1`` on the distance of the mean log-likelihood (per item) to its maximum (D_g the
gradient of the mean log-likelihood at candidate g) is at most ``tol``. ``converged`` says whether
it did within ``max_iter`` steps. A model's *performance ratio* is its information (score − c_0)
over the ideal information.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.checks import check_int, check_number
from .._core.counts import compositions
from ..data import InputError, Study, as_ratings
from .results import Headroom, HeadroomSupport

__all__ = ["headroom", "urn_information"]

#: Largest likelihood table (distinct count vectors × candidate states) the fit builds, and the most
#: candidate states.
MAX_CELLS, MAX_CANDIDATES = 4_000_000, 1000
#: Beyond this many cells, when every candidate gives every item a positive likelihood, a Newton step
#: works on the current support and the ``_ADDED`` candidates of steepest ascent (support expansion).
_FULL_NEWTON_CELLS, _ADDED = 200_000, 50


def _entropy_bits(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1)), 0.0)
    return -t.sum(axis=-1)


def urn_information(states: Any, weights: Any) -> float:
    """MI(s; Y) in bits for a finite mixture of item states: the closed-form asymptote of the ABC +
    cross-entropy power curve (what :func:`headroom` estimates from labels).

    Parameters
    ----------
    states : array_like
        The states (one label distribution per row).
    weights : array_like
        Their weights in the mixture.

    Returns
    -------
    float
        ``H(E[s]) − E[H(s)]`` in bits.

    Examples
    --------
    >>> round(urn_information([[0.8, 0.2], [0.5, 0.5], [0.1, 0.9]], [0.7, 0.1, 0.2]), 3)
    0.252
    """
    states = np.asarray(states, dtype=float)
    weights = np.asarray(weights, dtype=float)
    return float(_entropy_bits(weights @ states) - weights @ _entropy_bits(states))


def _grid_size(g: int, n_cls: int) -> int:
    """Points of the simplex grid with g divisions per edge: C(g + C − 1, C − 1)."""
    return math.comb(g + n_cls - 1, n_cls - 1)


def _candidates(v: np.ndarray, mult: np.ndarray, grid: int | None) -> tuple[np.ndarray, str]:
    """Candidate states (G, C) and what they are (see the module docstring)."""
    n_cls = v.shape[1]
    most = min(MAX_CANDIDATES, MAX_CELLS // max(1, len(v)))
    if grid is not None or n_cls <= 5:
        g = grid or (200 if n_cls == 2 else 40 if n_cls == 3 else 16)
        while g > 1 and _grid_size(g, n_cls) > max(most, n_cls):
            g -= 1
        return compositions(g, np.full(n_cls, g)) / g, f"grid {g}"
    n_lab = v.sum(axis=1, keepdims=True)
    pooled = (mult @ v) / (mult @ n_lab[:, 0])
    keep = max(1, min(len(v), (most - 1) // 2))
    top = np.argsort(-mult, kind="stable")[:keep]
    shrunk = [(v[top] + c * pooled) / (n_lab[top] + c) for c in (0.5, 2.0)]
    theta = np.unique(np.vstack([*shrunk, pooled[None]]), axis=0)
    return theta, "item frequencies"


def _fit(
    lik: np.ndarray, mult: np.ndarray, max_iter: int, tol: float
) -> tuple[np.ndarray, int, bool, float]:
    """Constrained Newton NPMLE of the weights (see the module docstring) on the likelihood table
    ``lik`` (D, G; rows scaled by their maximum): ``(weights, steps, converged, duality bound on the
    mean log-likelihood)``."""
    from scipy.optimize import nnls

    n = float(mult.sum())
    sq = np.sqrt(mult)
    w = np.full(lik.shape[1], 1.0 / lik.shape[1])
    restricted = lik.size > _FULL_NEWTON_CELLS and bool((lik > 0).all())
    if restricted:  # start on the steepest candidates of the uniform mixture
        w = np.zeros_like(w)
        w[np.argsort((mult / (lik.mean(axis=1))) @ lik)[-_ADDED:]] = 1.0 / _ADDED
    f = lik @ w
    ll = float(mult @ np.log(f))
    penalty = 1e3 * np.sqrt(n)
    gap = np.inf
    for it in range(1, max_iter + 1):
        grad = (mult / f) @ lik / n
        gap = float(grad.max()) - 1.0
        if gap <= tol:
            return w, it, True, gap
        support = np.arange(len(w))
        if restricted:  # the current support and the steepest candidates (support expansion)
            support = np.union1d(np.flatnonzero(w > 0), np.argsort(grad)[-_ADDED:])
        a = np.vstack([lik[:, support] / f[:, None] * sq[:, None], np.full(len(support), penalty)])
        x, _ = nnls(a, np.r_[2.0 * sq, penalty], maxiter=100 * len(support))
        if x.sum() <= 0:
            break
        target = np.zeros_like(w)
        target[support] = x / x.sum()
        step = 1.0
        while step > 1e-12:
            trial = (1.0 - step) * w + step * target
            f_trial = lik @ trial
            ll_trial = float(mult @ np.log(f_trial))
            if ll_trial > ll:
                break
            step /= 2
        else:
            break  # no ascent left at machine precision
        w, f, ll = trial, f_trial, ll_trial
    return w, it, gap <= tol, gap


def headroom(
    ratings: Any,
    *,
    grid: int | None = None,
    max_iter: int = 3000,
    tol: float = 1e-8,
) -> Headroom:
    """The information an ideal classifier that knows each item's state would give: the asymptote of
    the ABC + cross-entropy power curve, from label counts alone.

    A nonparametric maximum-likelihood mixture of item states (NPMLE) is fitted to the items' label
    counts by a constrained Newton method; its information ``H(E[s]) − E[H(s)]`` is the headroom
    (see :mod:`humanly.survey.headroom`). The fit draws nothing at random.

    Parameters
    ----------
    ratings : Ratings, DataFrame or path
        The crowd's labels.
    grid : int, optional
        Divisions of each simplex edge for the candidate states (default 200 for two classes, 40
        for three, 16 for four, 9 for five); beyond five classes the candidates are the items'
        shrunk label frequencies.
    max_iter : int
        The most Newton steps.
    tol : float
        Stop when the mean log-likelihood per item is provably within ``tol`` of its maximum.

    Returns
    -------
    Headroom
        The information in bits, the ideal and baseline scores, the fitted support and whether the
        fit converged.

    Raises
    ------
    InputError
        With fewer than two labelled items, or settings out of range.

    References
    ----------
    Wang, Y. (2007). On fast computation of the non-parametric maximum likelihood estimate of a
    mixing distribution. JRSS B 69(2), 185–198.

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> h = headroom(running_example(500, 10, seed=2).ratings)
    >>> round(h.information, 2), h.grid_points, h.converged
    (0.26, 201, True)
    """
    check_int("grid", grid, minimum=1, allow_none=True)
    check_int("max_iter", max_iter, minimum=1)
    check_number("tol", tol, minimum=0.0)
    r = ratings.ratings if isinstance(ratings, Study) else as_ratings(ratings, canonical=False)
    counts = np.asarray(r.counts, dtype=np.int64)  # the order of the rows does not matter
    counts = counts[counts.sum(axis=1) > 0]
    if len(counts) < 2:
        raise InputError("headroom needs at least two items with labels")
    v, mult = np.unique(counts, axis=0, return_counts=True)
    theta, kind = _candidates(v, mult, grid)
    logt = np.log(np.maximum(theta, 1e-300))  # 0^0 = 1 below; 0^n (n > 0) is ~exp(-690 n)
    ll = v.astype(float) @ logt.T  # (D, G): log prod theta^n
    top = ll.max(axis=1, keepdims=True)
    w, it, converged, gap = _fit(np.exp(ll - top), mult.astype(float), max_iter, tol)
    loglik = float(mult @ (np.log(np.exp(ll - top) @ w) + top[:, 0]))
    pi = w @ theta
    ideal = -float(w @ _entropy_bits(theta))
    base = -float(_entropy_bits(pi))
    order = np.argsort(w)[::-1]
    support = tuple(
        HeadroomSupport(tuple(theta[j].round(4).tolist()), float(w[j]))
        for j in order[:10]
        if w[j] > 1e-3
    )
    return Headroom(
        information=ideal - base,
        ideal_score=ideal,
        baseline_score=base,
        n_items=int(mult.sum()),
        grid_points=len(theta),
        support=support,
        iterations=it,
        converged=converged,
        log_likelihood=loglik,
        gap=float(gap),
        candidates=kind,
    )
