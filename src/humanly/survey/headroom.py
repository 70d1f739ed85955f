"""Information view and headroom (Survey Equivalence, Theorem 1 and section 7's "future work").

With the ABC and cross-entropy, c_k − c_0 tends to MI(Y_{k+1}; Y_1..Y_k) (Theorem 1), which increases to
the information an *ideal* classifier gives, one that knows each item's state s (its label
distribution): ``MI(s; Y) = H(E[s]) − E[H(s)]`` bits. We estimate it from label counts alone by a
nonparametric maximum-likelihood mixture of item states (NPMLE, Kiefer–Wolfowitz): the mixing weights
on a fixed grid of the simplex maximise ``sum_i log sum_g w_g prod_l theta_{g,l}^{n_{i,l}}``, fitted by
EM (each step cannot decrease the likelihood). A model's *performance ratio* is its information
(score − c_0) over the ideal information.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import logsumexp

from .._checks import check_int, check_number
from .._counts import compositions
from ..data import InputError, join
from .results import Headroom, HeadroomSupport

__all__ = ["Headroom", "headroom", "urn_information"]


def _entropy_bits(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1)), 0.0)
    return -t.sum(axis=-1)


def urn_information(states: np.ndarray, weights: np.ndarray) -> float:
    """MI(s; Y) in bits for a finite mixture of states (the closed-form asymptote).

    >>> round(urn_information([[0.8, 0.2], [0.5, 0.5], [0.1, 0.9]], [0.7, 0.1, 0.2]), 3)
    0.252
    """
    states = np.asarray(states, dtype=float)
    weights = np.asarray(weights, dtype=float)
    return float(_entropy_bits(weights @ states) - weights @ _entropy_bits(states))


def headroom(
    ratings: Any,
    *,
    grid: int | None = None,
    max_iter: int = 3000,
    tol: float = 1e-9,
    seed: int | None = 0,
) -> Headroom:
    """NPMLE of the item-state distribution and the ideal classifier's information (see module).

    ``ratings``: a :class:`~humanly.Ratings`, a long DataFrame or a file path. ``grid``: divisions of
    each simplex edge (default 200 for two classes, 40 for three, 16 beyond); EM stops after
    ``max_iter`` steps or when the log-likelihood gains less than ``tol`` (relative). ``seed`` is kept
    for a uniform signature (the fit draws nothing at random).

    >>> from humanly.simulate import running_example
    >>> h = headroom(running_example(500, 10, seed=2).ratings)
    >>> round(h.information, 2), h.grid_points
    (0.26, 201)
    """
    check_int("grid", grid, minimum=1, allow_none=True)
    check_int("max_iter", max_iter, minimum=1)
    check_number("tol", tol, minimum=0.0)
    counts = np.asarray(join(ratings).ratings.counts, dtype=np.int64)
    counts = counts[counts.sum(axis=1) > 0]
    if len(counts) < 2:
        raise InputError("headroom needs at least two items with labels")
    n_cls = counts.shape[1]
    g = grid or (200 if n_cls == 2 else 40 if n_cls == 3 else 16)
    theta = compositions(g, np.full(n_cls, g)) / g
    v, mult = np.unique(counts, axis=0, return_counts=True)
    logt = np.log(np.maximum(theta, 1e-300))  # 0^0 = 1 below; 0^n (n > 0) is ~exp(-690 n)
    ll = (v[:, None, :] * logt[None, :, :]).sum(-1)  # (D, G): log prod theta^n
    w = np.full(len(theta), 1.0 / len(theta))
    prev = -np.inf
    converged = False
    it = 0
    n = mult.sum()
    for it in range(1, max_iter + 1):  # noqa: B007
        with np.errstate(divide="ignore"):
            lw = np.log(w)
        joint = ll + lw[None, :]
        norm = logsumexp(joint, axis=1)
        loglik = float(mult @ norm)
        post = np.exp(joint - norm[:, None])
        w = (mult @ post) / n
        if loglik - prev < tol * max(1.0, abs(loglik)):
            converged = True
            break
        prev = loglik
    pi = w @ theta
    ideal = -float(w @ _entropy_bits(theta))
    base = -float(_entropy_bits(pi))
    top = np.argsort(w)[::-1]
    support = tuple(
        HeadroomSupport(tuple(theta[j].round(4).tolist()), float(w[j]))
        for j in top[:10]
        if w[j] > 1e-3
    )
    return Headroom(
        information=ideal - base,
        ideal_score=ideal,
        baseline_score=base,
        n_items=int(n),
        grid_points=len(theta),
        support=support,
        iterations=it,
        converged=converged,
        log_likelihood=loglik,
    )
