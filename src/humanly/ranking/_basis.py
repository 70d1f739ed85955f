"""The per-comparison quantities of every estimator, as affine functions of the comparison's vote
shares, summed per pair once (:mod:`._moments`) and then combined with small coefficient vectors.

For a source (the humans, or a judge) and a model on one side of a comparison, two numbers describe
the comparison (``ties`` decides which):

========== ===================================== ========================
``ties``   score y (the model's outcome)         weight d (counted votes)
========== ===================================== ========================
``half``   won + ½·tied = ½ + ½·own − ½·other    1
``loss``   won = own                             1
``drop``   won = own                             own + other (decisive)
========== ===================================== ========================

with *own* / *other* the shares of the source's votes won by the model and by its opponent. The
basis of an estimate is (y, d) of each of its sources — humans first, then its judges — so
2·(1 + J) functions; an estimator's residual for a comparison is a coefficient vector over this
basis (e.g. the rectified residual (y_h − θ·d_h) − λ·(y_j − θ·d_j)).

:class:`Tables` holds, per entry (a pair of models seen from one side), the sums over a set of
comparisons of each basis function and of each product of two; everything after that is linear
algebra on arrays of size pairs × basis².

:func:`box_lambda` is PPI++'s power tuning with several judges: the λ in [0, 1]^J minimising
λᵀCλ − 2bᵀλ (with one judge, b/C clipped to [0, 1], as ppi-python clips λ̂).
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from ._moments import PairMoments

__all__ = ["Tables", "basis", "box_lambda", "cross_tables", "tables"]


def basis(ties: str, side: int, sources: tuple[int, ...], k: int) -> tuple[np.ndarray, np.ndarray]:
    """α (B,) and β (B, K) of the basis (y, d per source) for a model on ``side`` (0: the comparison's
    first model, 1: its second); ``sources`` index the sources in x (0 the humans, j the j-th judge)."""
    alpha = np.zeros(2 * len(sources))
    beta = np.zeros((2 * len(sources), k))
    for i, s in enumerate(sources):
        own, other = 2 * s + side, 2 * s + 1 - side
        y, d = 2 * i, 2 * i + 1
        if ties == "half":
            alpha[y], beta[y, own], beta[y, other] = 0.5, 0.5, -0.5
            alpha[d] = 1.0
        elif ties == "loss":
            beta[y, own] = 1.0
            alpha[d] = 1.0
        else:  # drop
            beta[y, own] = 1.0
            beta[d, own] = beta[d, other] = 1.0
    return alpha, beta


@dataclasses.dataclass(frozen=True)
class Tables:
    """Sums over one set of comparisons, per entry (E entries) and basis function (B):

    ``t1`` Σ v·z_b (E, B); ``t1q`` Σ v²·z_b; ``t2`` Σ v²·z_b·z_c (E, B, B); ``t2s`` Σ v·z_b·z_c;
    ``s0`` Σ v and ``q0`` Σ v² (E,)."""

    t1: np.ndarray
    t1q: np.ndarray
    t2: np.ndarray
    t2s: np.ndarray
    s0: np.ndarray
    q0: np.ndarray

    def take(self, index: np.ndarray) -> Tables:
        """The rows ``index`` (e.g. the entries of one side)."""
        return Tables(*(a[index] for a in dataclasses.astuple(self)))


def _t1(s0: np.ndarray, s1: np.ndarray, alpha: np.ndarray, beta: np.ndarray) -> np.ndarray:
    return s0[:, None] * alpha[None, :] + s1 @ beta.T


def _t2(
    s0: np.ndarray,
    s1: np.ndarray,
    s2: np.ndarray,
    a1: np.ndarray,
    b1: np.ndarray,
    a2: np.ndarray,
    b2: np.ndarray,
) -> np.ndarray:
    out = s0[:, None, None] * np.outer(a1, a2)[None]
    out = out + a1[None, :, None] * (s1 @ b2.T)[:, None, :]
    out = out + a2[None, None, :] * (s1 @ b1.T)[:, :, None]
    return out + np.matmul(np.matmul(b1, s2), b2.T)


def tables(m: PairMoments, alpha: np.ndarray, beta: np.ndarray) -> Tables:
    """The :class:`Tables` of every pair of ``m`` for one side's basis (α, β)."""
    t2 = _t2(m.q0, m.q1, m.q2, alpha, beta, alpha, beta)
    t2s = t2 if not m.weighted else _t2(m.s0, m.s1, m.s2, alpha, beta, alpha, beta)
    return Tables(
        t1=_t1(m.s0, m.s1, alpha, beta),
        t1q=_t1(m.q0, m.q1, alpha, beta) if m.weighted else _t1(m.s0, m.s1, alpha, beta),
        t2=t2,
        t2s=t2s,
        s0=m.s0,
        q0=m.q0,
    )


def cross_tables(
    m: PairMoments, first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]
) -> np.ndarray:
    """Σ v²·z_b(first side)·z_c(second side) per pair (P, B, B): the two models of a comparison are
    estimated from the same votes, so their estimates covary through it."""
    return _t2(m.q0, m.q1, m.q2, first[0], first[1], second[0], second[1])


def box_lambda(c: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The λ in [0, 1]^J minimising λᵀCλ − 2bᵀλ (C symmetric, positive semi-definite).

    Every face of the box is tried (each λ_j at 0, at 1, or free) — 3^J small solves, J being the
    number of judges. A λ_j whose judge does not vary (C_jj = 0) is 0.

    >>> box_lambda(np.array([[2.0]]), np.array([1.0])).tolist(), box_lambda(np.array([[1.0]]),
    ...                                                                     np.array([3.0])).tolist()
    ([0.5], [1.0])
    """
    j = len(b)
    if j == 1:
        if not c[0, 0] > 0 or not np.isfinite(c[0, 0]) or not np.isfinite(b[0]):
            return np.zeros(1)
        return np.clip(b / c[0, 0], 0.0, 1.0)
    usable = np.diag(c) > 0
    best, best_value = np.zeros(j), 0.0
    for faces in itertools.product((0, 1, 2), repeat=j):
        lam = np.array([float(f == 1) for f in faces])
        free = np.array([f == 2 for f in faces]) & usable
        if (np.array(faces) == 2).any() and not free.any():
            continue
        if free.any():
            rhs = b[free] - c[np.ix_(free, ~free)] @ lam[~free]
            try:
                lam[free] = np.linalg.solve(c[np.ix_(free, free)], rhs)
            except np.linalg.LinAlgError:
                continue
            if (lam < -1e-12).any() or (lam > 1 + 1e-12).any():
                continue
            lam = np.clip(lam, 0.0, 1.0)
        value = float(lam @ c @ lam - 2 * b @ lam)
        if value < best_value - 1e-15:
            best, best_value = lam, value
    return best
