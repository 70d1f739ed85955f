"""Sufficient statistics per pair of models: every estimator of the ranking reads them, never the
comparisons again.

Each comparison c carries, for every source (the humans, then each judge), the share of its votes
won by its ``first`` model and the share won by its ``second`` model: a vector x_c of K = 2·(1 + J)
numbers. Every quantity an estimator needs for a comparison — a model's score y and weight d, a
gradient of the Bradley–Terry loss at given strengths, a rectified residual for given λ — is an
affine function z_c = α_p + β_pᵀ x_c whose coefficients depend only on the comparison's pair p. So
the sums over comparisons reduce to sums over pairs of

    S0 = Σ v,  S1 = Σ v·x,  S2 = Σ v·x xᵀ      (means)
    Q0 = Σ v², Q1 = Σ v²·x, Q2 = Σ v²·x xᵀ     (variances; Q = S when every weight v is 1)

over the comparisons of the pair in a set (the labelled comparisons L, or the unlabelled U), with v
the comparison's weight (1, or 1/π and 1/(1 − π) under an active design). They are computed once,
with ``numpy.bincount``, in O(comparisons · K²) time and memory linear in the comparisons; all the
rest costs O(pairs · K²), whatever the number of comparisons.

>>> import numpy as np
>>> x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
>>> m = pair_moments(np.array([0, 0, 1]), x, 2)
>>> m.s0.tolist(), m.s1.tolist()
([2.0, 1.0], [[1.0, 1.0], [1.0, 0.0]])
>>> float(sum_of(m, np.array([0.5, 0.5]), np.array([[0.5, -0.5], [0.5, -0.5]]))[0])  # Σ (½ + ½f − ½s)
1.0
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["PairMoments", "cross_of", "pair_moments", "sum_of"]


@dataclasses.dataclass(frozen=True)
class PairMoments:
    """The sums over one set of comparisons, per pair (P pairs, K variables).

    ``s0`` (P,), ``s1`` (P, K), ``s2`` (P, K, K); ``q0``, ``q1``, ``q2`` the same with squared
    weights (the same arrays when unweighted); ``n`` the number of comparisons per pair.
    """

    s0: np.ndarray
    s1: np.ndarray
    s2: np.ndarray
    q0: np.ndarray
    q1: np.ndarray
    q2: np.ndarray
    n: np.ndarray
    weighted: bool

    @property
    def total(self) -> float:
        """Σ v over the set (the number of comparisons when unweighted)."""
        return float(self.s0.sum())

    def restricted(self, keep: np.ndarray) -> PairMoments:
        """The same sums with the variables outside ``keep`` (bool, K) set to 0."""
        k = keep.astype(float)
        kk = np.outer(k, k)
        s1, q1 = self.s1 * k, self.q1 * k
        s2, q2 = self.s2 * kk, self.q2 * kk
        return dataclasses.replace(self, s1=s1, s2=s2, q1=q1, q2=q2)


def _sums(pair: np.ndarray, x: np.ndarray, w: np.ndarray | None, n_pairs: int):
    k = x.shape[1]
    s0 = np.bincount(pair, weights=w, minlength=n_pairs).astype(float)
    s1 = np.empty((n_pairs, k))
    s2 = np.empty((n_pairs, k, k))
    wx = x if w is None else x * w[:, None]
    used = np.asarray(
        x.any(axis=0), dtype=bool
    )  # a variable that is 0 throughout (the humans' on judge-only
    s1[:, ~used] = 0.0  # comparisons) sums to 0 with every other
    s2[:, ~used, :] = 0.0
    s2[:, :, ~used] = 0.0
    for a in np.flatnonzero(used):
        s1[:, a] = np.bincount(pair, weights=wx[:, a], minlength=n_pairs)
        for b in np.flatnonzero(used[a:]) + a:
            col = wx[:, a] * x[:, b]
            s2[:, a, b] = s2[:, b, a] = np.bincount(pair, weights=col, minlength=n_pairs)
    return s0, s1, s2


def pair_moments(
    pair: np.ndarray, x: np.ndarray, n_pairs: int, weights: np.ndarray | None = None
) -> PairMoments:
    """The sums of one set of comparisons: ``pair`` (the pair index of each comparison), ``x`` (its
    K variables), ``weights`` (its v; ``None``: every v is 1).

    Variables that are 0 for every comparison (a judge that never says "tie" is a common case, not
    this) cost the same as the others: K is small (2 per source).
    """
    s0, s1, s2 = _sums(pair, x, weights, n_pairs)
    n = np.bincount(pair, minlength=n_pairs)
    if weights is None:
        return PairMoments(s0, s1, s2, s0, s1, s2, n, weighted=False)
    q0, q1, q2 = _sums(pair, x, weights * weights, n_pairs)
    return PairMoments(s0, s1, s2, q0, q1, q2, n, weighted=True)


def sum_of(m: PairMoments, alpha: np.ndarray, beta: np.ndarray, *, squared: bool = False):
    """Σ v·z per pair for z = α + βᵀx (``squared``: Σ v²·z)."""
    s0, s1 = (m.q0, m.q1) if squared else (m.s0, m.s1)
    return alpha * s0 + np.einsum("pk,pk->p", beta, s1)


def cross_of(
    m: PairMoments,
    alpha1: np.ndarray,
    beta1: np.ndarray,
    alpha2: np.ndarray,
    beta2: np.ndarray,
    *,
    squared: bool = True,
) -> np.ndarray:
    """Σ v²·z₁·z₂ per pair (``squared=False``: Σ v·z₁·z₂) for z = α + βᵀx."""
    s0, s1, s2 = (m.q0, m.q1, m.q2) if squared else (m.s0, m.s1, m.s2)
    out = alpha1 * alpha2 * s0
    out = out + alpha1 * np.einsum("pk,pk->p", beta2, s1)
    out = out + alpha2 * np.einsum("pk,pk->p", beta1, s1)
    return out + np.einsum("pk,pkl,pl->p", beta1, s2, beta2, optimize=True)
