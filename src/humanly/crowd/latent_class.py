"""Latent classes with a pooled crowd: the Dawid–Skene model for anonymous counts, with extra sources.

Item i has a hidden true class g (prior π over the K classes). Its crowd labels are exchangeable:
each is drawn independently from one confusion matrix θ shared by every label (``θ[g, j]`` = P(label
j | class g)), so only the item's count vector matters. Optional *sources* — a model's prediction, a
binned model output — give each item at most one more categorical value, drawn from the source's own
confusion matrix φ_s (K × L_s), independently of the labels given g. This is Dawid–Skene with every
crowd label from one "rater", plus one rater per source: what the K-class budget pilot fits (the crowd
and two models) and what the t = ∞ target of survey equivalence fits to anonymous counts.

EM over g, items grouped by their pattern (count vector, source values), so a fit costs the same for
10³ or 10⁶ items; a batch of item weightings (bootstrap replicates) is fitted at once, one row each.
The E step gives each pattern's posterior, the M step the posterior-weighted proportions (a row of θ
or φ no item informs keeps its value); the start is the crowd plurality (each item's most frequent
labels, ties shared — which also fixes the labelling of the classes); SQUAREM (Varadhan & Roland
2008, scheme S3, with a monotone safeguard) extrapolates between EM steps. A row stops when an EM step
moves no parameter by more than ``tol``.

Identification: with exchangeable labels, a K-component mixture of multinomials needs at least three
labels per item to separate the classes (two for sources that carry signal); items with fewer still
enter the likelihood.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.counts import logfact
from ..errors import InputError

__all__ = [
    "LatentClassEM",
    "LatentPatterns",
    "fit_latent_classes",
    "latent_patterns",
    "pack",
    "pattern_loglik",
]

_FLOOR = 1e-300


@dataclasses.dataclass(frozen=True)
class LatentPatterns:
    """Items grouped by their pattern (crowd count vector, source values).

    Parameters
    ----------
    counts : numpy.ndarray
        (P, K) crowd label counts of each pattern.
    sources : numpy.ndarray
        (P, S) each pattern's source values (−1: none).
    freq : numpy.ndarray
        (P,) items per pattern.
    inverse : numpy.ndarray
        (n,) each item's pattern.
    levels : tuple of int
        The number of values of each source.
    log_coef : numpy.ndarray
        (P,) the multinomial coefficient of each count vector (log).

    Examples
    --------
    >>> latent_patterns([[1, 2], [1, 2]]).freq.tolist()
    [2.0]
    """

    counts: np.ndarray
    sources: np.ndarray
    freq: np.ndarray
    inverse: np.ndarray
    levels: tuple[int, ...]
    log_coef: np.ndarray


@dataclasses.dataclass(frozen=True)
class LatentClassEM:
    """A batch of fits of the pooled latent-class model, one row per weighting.

    Parameters
    ----------
    prior : numpy.ndarray
        (B, K) the class prior.
    crowd : numpy.ndarray
        (B, K, K) the crowd's confusion matrix (rows the true class).
    sources : tuple of numpy.ndarray
        One (B, K, L_s) confusion matrix per source.
    posterior : numpy.ndarray
        (B, P, K) P(class | pattern).
    loglik : numpy.ndarray
        (B,) the log-likelihood.
    iterations : numpy.ndarray
        (B,) EM steps.
    converged : numpy.ndarray
        (B,) whether each row met the stopping rule.

    Examples
    --------
    >>> em = fit_latent_classes(latent_patterns([[3, 0], [0, 3], [2, 1], [1, 2]]))
    >>> em.prior.shape, em.crowd.shape
    ((1, 2), (1, 2, 2))
    """

    prior: np.ndarray
    crowd: np.ndarray
    sources: tuple[np.ndarray, ...]
    posterior: np.ndarray
    loglik: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray


def latent_patterns(
    counts: Any, sources: Sequence[Any] = (), levels: Sequence[int] | None = None
) -> LatentPatterns:
    """Group items by pattern.

    Parameters
    ----------
    counts : array-like
        Items × K crowd label counts.
    sources : sequence of array-like
        One array of value codes per source (0 … L_s − 1; −1 for an item without one), in the items'
        order.
    levels : sequence of int, optional
        L_s per source (default: the largest code + 1, at least K).

    Returns
    -------
    LatentPatterns

    Examples
    --------
    >>> pat = latent_patterns([[2, 1], [2, 1], [0, 3]], [[0, 0, 1]])
    >>> pat.freq.tolist(), pat.levels
    ([1.0, 2.0], (2,))
    """
    c = np.asarray(counts, dtype=np.int64)
    if c.ndim != 2 or c.shape[1] < 2 or (c < 0).any():
        raise InputError("counts: give an items × classes matrix of label counts (≥ 2 classes)")
    cols = [np.asarray(v, dtype=np.int64).ravel() for v in sources]
    if any(len(v) != len(c) for v in cols):
        raise InputError(f"sources: give one value per item ({len(c)} items)")
    src = np.column_stack(cols) if cols else np.zeros((len(c), 0), dtype=np.int64)
    if (src < -1).any():
        raise InputError("sources: give value codes ≥ 0 (or −1 for none)")
    top = src.max(axis=0, initial=-1) + 1 if len(sources) else np.zeros(0, dtype=np.int64)
    lv = (
        tuple(max(int(t), c.shape[1]) for t in top)
        if levels is None
        else tuple(int(v) for v in levels)
    )
    if len(lv) != src.shape[1] or any(int(t) > v for t, v in zip(top, lv, strict=True)):
        raise InputError("levels: give one number of values per source, above every code")
    keys = np.concatenate([c, src], axis=1)
    uniq, inverse, freq = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    k = c.shape[1]
    pc = uniq[:, :k]
    coef = logfact(pc.sum(axis=1)) - logfact(pc).sum(axis=1)
    return LatentPatterns(pc, uniq[:, k:], freq.astype(float), inverse.ravel(), lv, coef)


# ----------------------------------------------------------------------------- packing
def _blocks(k: int, levels: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(start, rows, columns) of π, θ and each φ_s in the packed parameter vector."""
    out = [(0, 1, k), (k, k, k)]
    at = k + k * k
    for lv in levels:
        out.append((at, k, lv))
        at += k * lv
    return out


def _unpack(
    x: np.ndarray, k: int, levels: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    b = len(x)
    blocks = _blocks(k, levels)
    prior = x[:, :k]
    crowd = x[:, k : k + k * k].reshape(b, k, k)
    srcs = [x[:, s : s + r * c].reshape(b, r, c) for s, r, c in blocks[2:]]
    return prior, crowd, srcs


def _project(x: np.ndarray, k: int, levels: tuple[int, ...]) -> np.ndarray:
    """Back onto the product of simplices (rows clipped at 0 and renormalised)."""
    out = np.clip(x, 0.0, None)
    for s, r, c in _blocks(k, levels):
        blk = out[:, s : s + r * c].reshape(len(x), r, c)
        blk /= np.maximum(blk.sum(axis=2, keepdims=True), _FLOOR)
        out[:, s : s + r * c] = blk.reshape(len(x), r * c)
    return out


# ----------------------------------------------------------------------------- E and M steps
def _log_terms(pat: LatentPatterns, x: np.ndarray) -> np.ndarray:
    """log P(pattern, g) (B, P, K), multinomial coefficient included."""
    k = pat.counts.shape[1]
    prior, crowd, srcs = _unpack(x, k, pat.levels)
    out = np.log(np.maximum(prior, _FLOOR))[:, None, :] + pat.log_coef[None, :, None]
    # (P, J) @ (B, J, K) — a matrix product (BLAS), not einsum's loop: the pilot's bootstrap spends
    # most of its time here
    out = out + np.matmul(pat.counts, np.log(np.maximum(crowd, _FLOOR)).transpose(0, 2, 1))
    for s, phi in enumerate(srcs):
        v = pat.sources[:, s]
        has = v >= 0
        logphi = np.log(np.maximum(phi, _FLOOR))  # (B, K, L)
        add = np.zeros((len(x), len(v), k))
        add[:, has, :] = np.transpose(logphi[:, :, v[has]], (0, 2, 1))
        out = out + add
    return out


def pattern_loglik(pat: LatentPatterns, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pattern's log-likelihood and posterior under a batch of packed parameters.

    Parameters
    ----------
    pat : LatentPatterns
        The items grouped by pattern.
    x : numpy.ndarray
        (B, D) packed parameters (:func:`pack`).

    Returns
    -------
    tuple of numpy.ndarray
        The log-likelihood of each pattern (B, P) and its posterior over the classes (B, P, K).

    Examples
    --------
    >>> pat = latent_patterns([[2, 0], [0, 2]])
    >>> x = pack(np.array([[0.5, 0.5]]), np.array([[[0.9, 0.1], [0.1, 0.9]]]))
    >>> pattern_loglik(pat, x)[1][0].round(3).tolist()
    [[0.012, 0.988], [0.988, 0.012]]
    """
    lt = _log_terms(pat, np.atleast_2d(x))
    top = lt.max(axis=2, keepdims=True)
    e = np.exp(lt - top)
    norm = e.sum(axis=2, keepdims=True)
    return (top + np.log(norm))[:, :, 0], e / norm


def _m_step(pat: LatentPatterns, w: np.ndarray, post: np.ndarray, x_prev: np.ndarray) -> np.ndarray:
    k = pat.counts.shape[1]
    wp = w[:, :, None] * post  # (B, P, K)
    n = np.maximum(w.sum(axis=1), _FLOOR)
    prior = wp.sum(axis=1) / n[:, None]
    wt = wp.transpose(0, 2, 1)  # (B, K, P)
    crowd = np.matmul(wt, pat.counts)
    parts = [prior, crowd.reshape(len(w), k * k)]
    for s, lv in enumerate(pat.levels):
        v = pat.sources[:, s]
        onehot = np.zeros((len(v), lv))
        onehot[v >= 0, v[v >= 0]] = 1.0
        parts.append(np.matmul(wt, onehot).reshape(len(w), k * lv))
    raw = np.concatenate(parts, axis=1)
    out = raw.copy()
    for s, r, c in _blocks(k, pat.levels):
        blk = raw[:, s : s + r * c].reshape(len(w), r, c)
        tot = blk.sum(axis=2, keepdims=True)
        prev = x_prev[:, s : s + r * c].reshape(len(w), r, c)
        new = np.where(tot > 0, blk / np.where(tot > 0, tot, 1.0), prev)
        out[:, s : s + r * c] = new.reshape(len(w), r * c)
    return out


def _em_map(pat: LatentPatterns, w: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One EM step per row: the new parameters and the log-likelihood at ``x``."""
    ll, post = pattern_loglik(pat, x)
    return _m_step(pat, w, post, x), (w * ll).sum(axis=1)


def _start(pat: LatentPatterns, w: np.ndarray) -> np.ndarray:
    """The first M step from the crowd plurality (ties shared; uniform without labels)."""
    k = pat.counts.shape[1]
    c = pat.counts.astype(float)
    top = (c == c.max(axis=1, keepdims=True)).astype(float)
    post = top / top.sum(axis=1, keepdims=True)
    b = len(w)
    dim = k + k * k + sum(k * lv for lv in pat.levels)
    uniform = _project(np.ones((b, dim)), k, pat.levels)
    return _m_step(pat, w, np.broadcast_to(post, (b, *post.shape)), uniform)


def _squarem(
    pat: LatentPatterns, w: np.ndarray, t0: np.ndarray, t1: np.ndarray, ll0: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One SQUAREM (S3) extrapolation from t0 (t1 = F(t0)), kept only where the log-likelihood does
    not fall; returns the new parameters and the EM steps spent per row."""
    k = pat.counts.shape[1]
    t2, _ = _em_map(pat, w, t1)
    r, v = t1 - t0, t2 - 2.0 * t1 + t0
    nr, nv = np.linalg.norm(r, axis=1), np.linalg.norm(v, axis=1)
    alpha = np.minimum(-nr / np.where(nv > 0, nv, 1.0), -1.0)[:, None]
    tp = _project(t0 - 2.0 * alpha * r + alpha**2 * v, k, pat.levels)
    t_new, ll_p = _em_map(pat, w, tp)
    bad = ~(ll_p >= ll0 - 1e-12 * np.abs(ll0)) | ~np.all(np.isfinite(t_new), axis=1)
    if bad.any():
        t_new[bad] = _em_map(pat, w[bad], t2[bad])[0]
    return t_new, 3 + bad.astype(np.int64)


def fit_latent_classes(
    pat: LatentPatterns,
    weights: Any = None,
    *,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    accelerate: bool = True,
) -> LatentClassEM:
    """EM for the pooled latent-class model (see the module docstring), one fit per row of
    ``weights``.

    Parameters
    ----------
    pat : LatentPatterns
        The items grouped by pattern (:func:`latent_patterns`).
    weights : array-like, optional
        (B, P) item weights per pattern (bootstrap replicates); default one row, ``pat.freq``.
    tol : float
        A row stops when an EM step moves no parameter by more than this.
    max_iter : int
        The most EM steps per row.
    accelerate : bool
        Extrapolate with SQUAREM between EM steps (the same fixed points, fewer steps).

    Returns
    -------
    LatentClassEM

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 2000)
    >>> theta = np.array([[0.8, 0.2], [0.3, 0.7]])
    >>> counts = np.stack([rng.multinomial(5, theta[c]) for c in g])
    >>> em = fit_latent_classes(latent_patterns(counts))
    >>> bool(em.converged[0]), em.crowd[0].round(1).tolist()
    (True, [[0.8, 0.2], [0.3, 0.7]])
    """
    w = np.atleast_2d(np.asarray(pat.freq if weights is None else weights, dtype=float))
    x = _start(pat, w)
    b = len(w)
    iterations = np.ones(b, dtype=np.int64)
    converged = np.zeros(b, dtype=bool)
    active = np.flatnonzero(w.sum(axis=1) > 0)
    while active.size:
        wa, t0 = w[active], x[active]
        t1, ll0 = _em_map(pat, wa, t0)
        done = np.abs(t1 - t0).max(axis=1) <= tol
        x[active] = t1
        iterations[active] += 1
        converged[active[done]] = True
        active, t0, t1, ll0 = active[~done], t0[~done], t1[~done], ll0[~done]
        room = iterations[active] + 3 <= max_iter
        if accelerate and room.any():
            sel = active[room]
            x[sel], steps = _squarem(pat, w[sel], t0[room], t1[room], ll0[room])
            iterations[sel] += steps - 1
        active = active[iterations[active] < max_iter]
    ll, post = pattern_loglik(pat, x)
    k = pat.counts.shape[1]
    prior, crowd, srcs = _unpack(x, k, pat.levels)
    return LatentClassEM(
        prior, crowd, tuple(srcs), post, (w * ll).sum(axis=1), iterations, converged
    )


def pack(prior: np.ndarray, crowd: np.ndarray, sources: Sequence[np.ndarray] = ()) -> np.ndarray:
    """The packed parameter rows of a batch of fits (the layout :func:`pattern_loglik` reads).

    Parameters
    ----------
    prior : numpy.ndarray
        (B, K) class priors.
    crowd : numpy.ndarray
        (B, K, K) the crowd's confusion matrices.
    sources : sequence of numpy.ndarray
        One (B, K, L_s) confusion matrix per source.

    Returns
    -------
    numpy.ndarray
        (B, D): the prior, then each matrix row by row.

    Examples
    --------
    >>> pack(np.array([[0.5, 0.5]]), np.array([[[0.9, 0.1], [0.2, 0.8]]])).shape
    (1, 6)
    """
    b = len(prior)
    parts = [prior, crowd.reshape(b, -1)] + [s.reshape(b, -1) for s in sources]
    return np.concatenate(parts, axis=1)
