"""The EM machinery behind :func:`humanly.crowd.dawid_skene.dawid_skene` (private).

Vectorised over the coded labels: each step costs ``O(labels × classes)`` time and memory, plus the
``raters × classes²`` confusion matrices the fit estimates. The parameters travel as one flat vector
``x = [π, θ.ravel()]``.

The stopping rule is on the parameters: two successive EM steps that move the parameters by ``d₁`` then
``d₂`` (largest absolute change of any entry of π or θ) contract at the rate ``ρ = d₂ / d₁``, so the
distance from the fixed point is about ``d₂ / (1 − ρ)``; the fit has converged when that estimate is at
most ``tol``. Near a flat stretch of the likelihood ``ρ`` is close to 1 and a tiny step does not mean the
fit is close to its fixed point (the classic stopping rule ``d₂ ≤ tol`` stops there, at a lower
likelihood); the estimate is never below ``d₂``, so this rule is stricter than the classic one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._core.counts import plurality_shares
from .._core.rng import stream
from ..data import InputError, Ratings

#: probabilities are floored at this value inside logarithms (as crowd-kit does)
FLOOR = 1e-10

#: the starts, in the order they are tried (ties in log-likelihood go to the earlier one)
STARTS = ("majority", "vote_shares", "random")


class Codes(NamedTuple):
    """The coded labels as the EM steps use them, in a canonical order (items and raters sorted by
    id, labels sorted within each row), so the arithmetic — and so the fit, to the last bit — does
    not depend on the order of the input rows. ``by_cell`` is the (rater × C + label) × items matrix
    of label counts (sparse: one entry per label), ``by_item`` its transpose; ``item_rank`` and
    ``rater_rank`` give the canonical position of each of the ratings' items and raters;
    ``labelled`` marks the (canonical) items with at least one label."""

    by_cell: sp.csr_matrix
    by_item: sp.csr_matrix
    n_items: int
    n_raters: int
    n_classes: int
    labelled: np.ndarray
    item_rank: np.ndarray
    rater_rank: np.ndarray

    def canonical_x(self, prior: np.ndarray, theta: np.ndarray) -> np.ndarray:
        """The flat parameter vector of π and θ given in the ratings' rater order."""
        canon = np.empty_like(theta)
        canon[self.rater_rank] = theta
        return np.concatenate([prior, canon.reshape(-1)])

    def unpack(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """π and θ (in the ratings' rater order) of a flat parameter vector."""
        n_c = self.n_classes
        theta = x[n_c:].reshape(self.n_raters, n_c, n_c)
        return x[:n_c], theta[self.rater_rank]


def _rank(index: pd.Index, n: int) -> np.ndarray:
    """Each element's position when the ids are sorted (as text; ties keep their order)."""
    keys = np.array([str(v) for v in index], dtype=object)
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(keys, kind="stable")] = np.arange(n)
    return rank


def codes(ratings: Ratings, n_raters: int) -> Codes:
    n_c, n_i = ratings.n_classes, ratings.n_items
    item_rank = _rank(ratings.items, n_i)
    raters = ratings.raters if ratings.raters is not None else pd.RangeIndex(n_raters)
    rater_rank = _rank(raters, n_raters)
    items = item_rank[ratings.item_codes]
    cells = rater_rank[ratings.rater_codes] * n_c + ratings.label_codes.astype(np.int64)
    by_cell = sp.csr_matrix(
        (np.ones(len(items)), (cells, items)), shape=(n_raters * n_c, n_i), dtype=np.float64
    )
    by_cell.sum_duplicates()
    by_cell.sort_indices()
    by_item = by_cell.T.tocsr()
    by_item.sort_indices()
    labelled = np.empty(n_i, dtype=bool)
    labelled[item_rank] = ratings.labels_per_item > 0
    return Codes(by_cell, by_item, n_i, n_raters, n_c, labelled, item_rank, rater_rank)


def log_likelihood(prior: np.ndarray, theta: np.ndarray, k: Codes) -> float:
    """The observed-data log-likelihood of π and θ (θ in the ratings' rater order)."""
    x = k.canonical_x(prior, theta)
    return e_step(x[: k.n_classes], x[k.n_classes :].reshape(theta.shape), k)[1]


def _bytes(n: float) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} bytes"


def memory_needed(n_items: int, n_raters: int, n_classes: int, n_labels: int) -> int:
    """Bytes the fit holds at its peak: about six copies of the ``raters × classes²`` parameters (the
    SQUAREM points, the M step's counts, the logarithms), four ``classes × items`` posterior arrays and
    two label-length arrays per class in flight."""
    theta = n_raters * n_classes * n_classes
    return 8 * (6 * theta + 4 * n_classes * n_items + 2 * n_labels + 8 * n_labels)


def check_memory(ratings: Ratings, n_raters: int, memory: int) -> None:
    """Refuse, in one sentence and before allocating, a fit that would not fit ``memory`` bytes."""
    need = memory_needed(ratings.n_items, n_raters, ratings.n_classes, len(ratings.item_codes))
    if need > memory:
        raise InputError(
            f"ratings: Dawid–Skene with {ratings.n_classes:,} classes and {n_raters:,} raters needs "
            f"{n_raters:,} × {ratings.n_classes:,}² confusion cells, about {_bytes(need)} in all, over "
            f"the memory budget of {_bytes(memory)}: merge rare classes, or pass dawid_skene=False"
        )


def m_step(post: np.ndarray, k: Codes) -> tuple[np.ndarray, np.ndarray]:
    """Class prior (mean posterior over labelled items) and confusion matrices (posterior-weighted
    label counts per rater and true class, normalised over labels; a true class a rater never met
    gets a uniform row). ``post`` is classes × items (class-major: reductions over classes are then
    element-wise over items, much faster than row reductions of a narrow items × classes array)."""
    n_c, n_r = k.n_classes, k.n_raters
    prior = post.sum(axis=1) / max(np.count_nonzero(k.labelled), 1)  # unlabelled: zero columns
    # (cells × classes): mass of rater r, label l, true class c at [r·C + l, c]
    mass = np.ascontiguousarray((k.by_cell @ post.T).reshape(n_r, n_c, n_c).transpose(0, 2, 1))
    tot = mass.sum(axis=2)
    met = tot > 0
    mass /= np.where(met, tot, 1.0)[:, :, None]
    mass[~met] = 1.0 / n_c
    return prior, mass


def e_step(prior: np.ndarray, theta: np.ndarray, k: Codes) -> tuple[np.ndarray, float]:
    """Item posteriors (classes × items) ∝ π_c Π_labels θ_r[c, label] (floored at :data:`FLOOR` in
    logs) and the observed-data log-likelihood Σ_items log Σ_c π_c Π_labels θ_r[c, label]."""
    n_c = k.n_classes
    log_theta = np.log(np.maximum(theta, FLOOR)).transpose(0, 2, 1).reshape(-1, n_c)
    log_post = np.ascontiguousarray((k.by_item @ log_theta).T)
    log_post += np.log(np.maximum(prior, FLOOR))[:, None]
    top = log_post.max(axis=0)
    post = np.exp(log_post - top, out=log_post)
    total = post.sum(axis=0)
    post /= total
    post[:, ~k.labelled] = 0.0
    norm = top + np.log(total)  # log Σ_c exp(log_post[c])
    return post, float(norm[k.labelled].sum())


def em_map(x: np.ndarray, k: Codes) -> tuple[np.ndarray, float]:
    """One EM step on the flat parameter vector ``x = [π, θ.ravel()]``: the next vector and the
    log-likelihood at ``x``."""
    n_c = k.n_classes
    prior, theta = x[:n_c], x[n_c:].reshape(k.n_raters, n_c, n_c)
    post, loglik = e_step(prior, theta, k)
    new_prior, new_theta = m_step(post, k)
    return np.concatenate([new_prior, new_theta.reshape(-1)]), loglik


def _sq(v: np.ndarray) -> float:
    """``v · v`` without BLAS (a BLAS dot wakes its thread pool: slow on a busy machine)."""
    return float(np.einsum("i,i->", v, v))


def extrapolate(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> np.ndarray | None:
    """SQUAREM's squared extrapolation from two EM steps ``x0 → x1 → x2``: ``x0 − 2αr + α²v`` with
    ``r = x1 − x0``, ``v = x2 − 2 x1 + x0``, ``α = −‖r‖/‖v‖`` (at most −1). The coefficients sum to
    one, so π and every row of θ keep summing to one; while an entry would be negative α is moved
    half-way to −1 (at most 8 times). ``None`` when no such point exists short of ``α ≈ −1``, i.e.
    the plain step ``x2`` (clipping negative entries at zero instead would park them on the boundary,
    where EM creeps away from zero by tiny steps that look like convergence)."""
    r = x1 - x0
    v = x2 - x1 - r
    norm_v = np.sqrt(_sq(v))
    if norm_v == 0.0:
        return None
    alpha = min(-float(np.sqrt(_sq(r))) / norm_v, -1.0)
    for _ in range(8):
        if alpha > -1.01:
            return None
        x = x0 - 2.0 * alpha * r + alpha * alpha * v
        if x.min() >= 0.0:
            return x
        alpha = (alpha - 1.0) / 2.0
    return None


def _distance(d1: float, d2: float) -> float:
    """The estimated distance from the fixed point after steps of sizes ``d1`` then ``d2``:
    ``d2 / (1 − ρ)`` with ``ρ = d2 / d1`` (infinite when the steps do not shrink)."""
    if d2 == 0.0:
        return 0.0
    rho = d2 / d1 if d1 > 0.0 else 1.0
    return d2 / (1.0 - rho) if rho < 1.0 else np.inf


class Run(NamedTuple):
    """One EM run: the parameters, M steps taken, whether the stopping rule was met."""

    x: np.ndarray
    steps: int
    converged: bool


def solve(
    x: np.ndarray,
    k: Codes,
    tol: float,
    max_iter: int,
    accelerate: bool,
    tick: Callable[[], None] | None = None,
    steps: int = 1,
) -> Run:
    """EM (SQUAREM when ``accelerate``) from ``x`` (``steps`` M steps already taken) until the stopping
    rule of the module docstring is met or ``max_iter`` M steps are taken. SQUAREM: two EM steps, an
    extrapolated point, one EM step from it when its log-likelihood is no worse than the plain path's
    (the monotone safeguard: never worse than plain EM, so the log-likelihood never decreases)."""
    last = np.inf

    def step(y: np.ndarray) -> tuple[np.ndarray, float]:
        nonlocal steps
        steps += 1
        if tick is not None:
            tick()
        return em_map(y, k)

    while steps < max_iter:
        x1, _ = step(x)
        d1 = float(np.abs(x1 - x).max())
        if not accelerate:
            if _distance(last, d1) <= tol:
                return Run(x1, steps, True)
            x, last = x1, d1
            continue
        if steps >= max_iter:
            return Run(x1, steps, False)
        x2, loglik_1 = step(x1)
        d2 = float(np.abs(x2 - x1).max())
        if _distance(d1, d2) <= tol:
            return Run(x2, steps, True)
        jump = extrapolate(x, x1, x2)
        if jump is None or steps >= max_iter:
            x = x2
            continue
        x3, loglik_jump = step(jump)
        x = x3 if np.isfinite(loglik_jump) and loglik_jump >= loglik_1 else x2
    return Run(x, steps, False)


Outcome = tuple[str, float, Run, np.ndarray]

#: log-likelihoods this close (relative) are a tie, which goes to the earlier start: sums in another
#: order must not pick another start on a flat likelihood
TIE = 1e-9


def best_of(runs: list[Outcome], among: Iterable[int] | None = None) -> int:
    """The index of the highest log-likelihood (of ``among``, default all), ties to the earliest."""
    idx = list(range(len(runs))) if among is None else sorted(among)
    top = max(runs[i][1] for i in idx)
    return next(i for i in idx if runs[i][1] >= top - TIE * max(1.0, abs(top)))


def multistart(
    ratings: Ratings,
    k: Codes,
    names: tuple[str, ...],
    seed: int | None,
    rule: tuple[float, float, int, bool, float],
    tick: Callable[[], None] | None = None,
) -> list[Outcome]:
    """EM from each start to the screening tolerance, then the best on to ``tol`` — and any other
    start whose screened log-likelihood (a lower bound of its final one: EM never lowers it) is above
    the polished best's, or whose raters' accuracies differ from the best's by more than
    ``disagree`` (on a flat ridge the screening rule can stop a start far from where it would end).
    ``rule`` is (screen, tol, max_iter, accelerate, disagree). Per start: its name, final
    log-likelihood, run and raters' accuracies (in the ratings' rater order)."""
    screen, tol, max_iter, accelerate, disagree = rule
    n_c = k.n_classes

    def finish(run: Run, name: str) -> Outcome:
        prior, theta = run.x[:n_c], run.x[n_c:].reshape(k.n_raters, n_c, n_c)
        _, loglik = e_step(prior, theta, k)
        return name, loglik, run, np.einsum("c,rcc->r", prior, theta)[k.rater_rank]

    runs = []
    for name in names:
        prior, theta = m_step(start_posteriors(ratings, name, seed, k), k)
        start = np.concatenate([prior, theta.reshape(-1)])
        runs.append(finish(solve(start, k, screen, max_iter, accelerate, tick), name))
    polished: set[int] = set()

    def polish(i: int) -> None:
        name, _, run, _ = runs[i]
        runs[i] = finish(solve(run.x, k, tol, max_iter, accelerate, tick, run.steps), name)
        polished.add(i)

    while screen > tol:
        todo = [i for i in range(len(runs)) if i not in polished]
        top = max((runs[i][1] for i in polished), default=-np.inf)
        nxt = best_of(runs, todo) if todo else None
        if nxt is None or runs[nxt][1] < top:
            break
        polish(nxt)
    if screen > tol:  # a start that seems to disagree is run on to ``tol`` before it is believed
        best = best_of(runs, polished)
        for i in range(len(runs)):
            if i not in polished and np.abs(runs[i][3] - runs[best][3]).max() > disagree:
                polish(i)
    return runs


def start_posteriors(ratings: Ratings, name: str, seed: int | None, k: Codes) -> np.ndarray:
    """The classes × items posteriors (canonical item order) a start's first M step turns into π, θ.

    * ``majority`` — uniform over each item's most frequent classes;
    * ``vote_shares`` — each item's label shares (crowd-kit's start);
    * ``random`` — the vote shares times independent exponential weights, renormalised (a random
      point near the data, so it tries another basin without swapping the classes' names), drawn
      from :func:`humanly._core.rng.stream` ``(seed, 0)`` in the canonical item order.
    """
    counts = np.empty((k.n_items, k.n_classes))
    counts[k.item_rank] = np.asarray(ratings.counts, dtype=np.float64)
    if name == "majority":
        post = plurality_shares(counts)
    else:
        post = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
        if name == "random":
            post *= stream(seed, 0).exponential(size=post.shape)
            post /= np.maximum(post.sum(axis=1, keepdims=True), FLOOR)
    return np.ascontiguousarray(post.T, dtype=np.float64)
