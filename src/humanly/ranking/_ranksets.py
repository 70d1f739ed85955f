"""Simultaneous intervals for every difference of two estimates, and the rank-sets they imply
(Chatzi, Straitouri, Thejaswi & Gomez-Rodriguez 2024, "Prediction-Powered Ranking of Large Language
Models").

From estimates θ̂ (E models) with joint covariance Σ, the difference of models i and j has standard
error se_ij = √(Σ_ii + Σ_jj − 2Σ_ij). The intervals θ̂_i − θ̂_j ± c·se_ij hold for every pair at once
with probability ``level`` (asymptotically) when c is the ``level`` quantile of
max_{i<j} |Z_i − Z_j| / se_ij for Z ~ N(0, Σ) — the max-|z| (Tukey-type) critical value, computed from
``draws`` normal vectors drawn from ``humanly._core.rng.stream(seed, index)``. It is never above the
Bonferroni value z_{1 − (1 − level)/(2P)} for P pairs, which is the fallback (``draws=0``), nor below
the one-pair value z_{1 − (1 − level)/2} (the simulated quantile is clamped to that range, which only
Monte Carlo error can leave). Chatzi et
al. project a χ² ellipsoid instead, which is wider still; the max-|z| value is the sharpest constant
c that covers every pairwise difference together.

Model i is *surely better* than j when the simultaneous interval of θ_i − θ_j is above 0. Its rank-set
is [1 + #{j surely better than i}, E − #{j that i is surely better than}]: with probability at least
``level`` every model's true rank is in its set, and the set always holds the rank of its point
estimate (1 + the number of models with a larger estimate).
"""

from __future__ import annotations

import dataclasses
from statistics import NormalDist

import numpy as np

from .._core.rng import stream

__all__ = ["Pairs", "critical_value", "pairs", "rank_sets"]


@dataclasses.dataclass(frozen=True)
class Pairs:
    """Every pair i < j (positions in the estimate's model order): the difference θ̂_i − θ̂_j and its
    standard error."""

    i: np.ndarray
    j: np.ndarray
    difference: np.ndarray
    se: np.ndarray


def pairs(point: np.ndarray, cov: np.ndarray) -> Pairs:
    """The :class:`Pairs` of estimates ``point`` with covariance ``cov``."""
    e = len(point)
    i, j = np.triu_indices(e, k=1)
    var = np.diag(cov)
    se2 = var[i] + var[j] - 2 * cov[i, j]
    return Pairs(i, j, point[i] - point[j], np.sqrt(np.clip(se2, 0.0, None)))


def bonferroni(level: float, n_pairs: int) -> float:
    """z_{1 − (1 − level)/(2P)}: the Bonferroni critical value for P two-sided intervals."""
    return NormalDist().inv_cdf(1.0 - (1.0 - level) / (2.0 * max(n_pairs, 1)))


def critical_value(
    cov: np.ndarray, p: Pairs, level: float, draws: int, seed: int | None, index: int
) -> tuple[float, str]:
    """The simultaneous critical value c and how it was found (``"max_z"`` or ``"bonferroni"``)."""
    usable = p.se > 0
    n_pairs = int(usable.sum())
    if n_pairs == 0:
        return NormalDist().inv_cdf(0.5 + level / 2.0), "bonferroni"
    if draws <= 0:
        return bonferroni(level, n_pairs), "bonferroni"
    root = _root(cov)
    inv = np.zeros((len(cov), len(cov)), dtype=np.float32)
    inv[p.i[usable], p.j[usable]] = 1.0 / p.se[usable]
    z = (root @ stream(seed, index).standard_normal((len(cov), draws))).astype(np.float32)
    maxima = np.zeros(draws, dtype=np.float32)
    buf = np.empty_like(z)
    for a in range(len(cov) - 1):  # pairs (a, b > a): contiguous slices, no gather, in place
        block = buf[: len(cov) - a - 1]
        np.subtract(z[a + 1 :], z[a], out=block)
        block *= inv[a, a + 1 :, None]
        np.abs(block, out=block)
        np.maximum(maxima, block.max(axis=0), out=maxima)
    c = float(np.quantile(maxima.astype(float), level, method="higher"))
    # never below one pair's own z (all pairs cannot hold more often than one), nor above Bonferroni
    return min(max(c, NormalDist().inv_cdf(0.5 + level / 2.0)), bonferroni(level, n_pairs)), "max_z"


def _root(cov: np.ndarray) -> np.ndarray:
    """A matrix R with R Rᵀ = Σ + s·11ᵀ: adding the same normal to every coordinate changes no
    difference, and makes the centred strengths' covariance (singular along 1) positive definite,
    so a Cholesky factor serves (an eigendecomposition when it still fails)."""
    e = len(cov)
    shift = float(np.mean(np.diag(cov))) if e else 0.0
    try:
        return np.linalg.cholesky(cov + shift * np.ones((e, e)))
    except np.linalg.LinAlgError:
        w, v = np.linalg.eigh(cov)
        return v * np.sqrt(np.clip(w, 0.0, None))


def rank_sets(point: np.ndarray, p: Pairs, c: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per model: the rank of its point estimate and the low and high ends of its rank-set."""
    e = len(point)
    above = p.difference - c * p.se > 0  # i surely better than j
    below = p.difference + c * p.se < 0  # j surely better than i
    better_than = np.bincount(p.i[above], minlength=e) + np.bincount(p.j[below], minlength=e)
    worse_than = np.bincount(p.j[above], minlength=e) + np.bincount(p.i[below], minlength=e)
    rank = 1 + (point[None, :] > point[:, None]).sum(axis=1)
    return rank, 1 + worse_than, e - better_than
