"""The EM machinery behind :func:`humanly.crowd.dawid_skene.dawid_skene` (private).

Vectorised over the coded labels: each step costs ``O(labels × classes)`` time and memory, plus the
``raters × classes²`` confusion matrices the fit estimates. The parameters travel as one flat vector
``x = [π, θ.ravel()]``.

Several starts run in lockstep: the parameters of ``B`` starts are the rows of a ``B × P`` matrix, and
one EM step of all of them is one sparse product per half-step (:func:`em_maps`). Each start's
arithmetic is the same, to the last bit, whichever other starts share its batch (every output column of
a sparse product is summed in the same order, over items in canonical order), so a start's path does
not depend on how the starts were grouped, nor on whether it ran alone.

The stopping rule is on the parameters: two successive EM steps that move the parameters by ``d₁`` then
``d₂`` (largest absolute change of any entry of π or θ) contract at the rate ``ρ = d₂ / d₁``, so the
distance from the fixed point is about ``d₂ / (1 − ρ)``; the fit has converged when that estimate is at
most ``tol``. Near a flat stretch of the likelihood ``ρ`` is close to 1 and a tiny step does not mean the
fit is close to its fixed point (the classic stopping rule ``d₂ ≤ tol`` stops there, at a lower
likelihood); the estimate is never below ``d₂``, so this rule is stricter than the classic one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..data import InputError, Ratings
from ..errors import setting

#: probabilities are floored at this value inside logarithms (as crowd-kit does)
FLOOR = 1e-10

#: a start racing to a log-likelihood stops when even this many times the rest of its gains (a geometric
#: series from its gains over the last two blocks of :data:`BLOCK` cycles) would not get it there
SAFETY = 10.0
BLOCK = 3
#: ... and only after this many cycles in all
SETTLE = 36

#: a batch of starts holds at most about this many bytes of posteriors (items × starts × classes): the
#: sparse products stay in a core's cache, several starts share one pass over the labels (on the
#: relevance analogue, 20,000 items × 4 classes, three starts a batch cost about 0.8 of one start
#: each), and a batch of many small fits costs one Python step, not many
BATCH_BYTES = 2**21


class Codes(NamedTuple):
    """The coded labels as the EM steps use them, in a canonical order (items and raters sorted by
    id, labels sorted within each row), so the arithmetic — and so the fit, to the last bit — does
    not depend on the order of the input rows. ``by_cell`` is the (rater × C + label) × items matrix
    of label counts (sparse: one entry per label), ``by_item`` its transpose with one more column
    of ones (where the E step's product adds the log prior); ``item_rank`` and
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
    # the cells × items matrix compressed by cell, items sorted within each cell: the M step's product
    # sums each cell over its items in canonical order
    by_cell = by_item.T.tocsr()
    by_cell.sort_indices()
    # the E step's matrix has one more column, after every cell, of ones: the log prior, added to each
    # item's sum of log θ last (as an addition after the product would), in the same pass
    ones = sp.csr_matrix(np.ones((n_i, 1)))
    by_item = sp.hstack([by_item, ones], format="csr")
    by_item.sort_indices()
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


def memory_needed(
    n_items: int, n_raters: int, n_classes: int, n_labels: int, n_starts: int = 1
) -> int:
    """Bytes the fit holds at its peak: every start's ``raters × classes²`` parameters, about six more
    copies per start of a batch (the SQUAREM points, the M step's counts, the logarithms), four
    ``classes × items`` posterior arrays per start of a batch and two label-length arrays per class
    in flight."""
    theta = n_raters * n_classes * n_classes
    batch = batch_size(n_items, n_classes, n_starts)
    posts = 4 * n_classes * n_items * batch
    return 8 * ((n_starts + 6 * batch) * theta + posts + 2 * n_labels + 8 * n_labels)


def batch_size(n_items: int, n_classes: int, n_starts: int) -> int:
    """How many starts share one EM step: as many as keep the batch's posteriors within
    :data:`BATCH_BYTES` (at least one, at most ``n_starts``)."""
    per_start = 8 * max(n_items, 1) * n_classes
    return int(max(1, min(n_starts, BATCH_BYTES // per_start)))


def check_memory(ratings: Ratings, n_raters: int, memory: int, n_starts: int = 1) -> None:
    """Refuse, in one sentence and before allocating, a fit that would not fit ``memory`` bytes."""
    need = memory_needed(
        ratings.n_items, n_raters, ratings.n_classes, len(ratings.item_codes), n_starts
    )
    if need > memory:
        raise InputError(
            f"ratings: Dawid–Skene with {ratings.n_classes:,} classes and {n_raters:,} raters needs "
            f"{n_raters:,} × {ratings.n_classes:,}² confusion cells, about {_bytes(need)} in all, over "
            f"the memory budget of {_bytes(memory)}: merge rare classes, or pass "
            f"{setting('dawid_skene', False)}"
        )


def m_step(post: np.ndarray, k: Codes) -> tuple[np.ndarray, np.ndarray]:
    """Class prior (mean posterior over labelled items) and confusion matrices (posterior-weighted
    label counts per rater and true class, normalised over labels; a true class a rater never met
    gets a uniform row). ``post`` is classes × items (class-major: reductions over classes are then
    element-wise over items, much faster than row reductions of a narrow items × classes array)."""
    x = _m_steps(post[None], k)[0]
    return x[: k.n_classes], x[k.n_classes :].reshape(k.n_raters, k.n_classes, k.n_classes)


def _m_steps(post: np.ndarray, k: Codes) -> np.ndarray:
    """The M step of a batch: ``post`` is starts × classes × items; one flat parameter vector per
    start. The label counts are one product of the (items × cells) transpose — items in canonical
    order, read in sequence — with all the starts' posteriors."""
    b, n_c, n_i = post.shape
    n_r = k.n_raters
    prior = post.sum(axis=2) / max(np.count_nonzero(k.labelled), 1)  # unlabelled: zero columns
    # (cells × starts·classes): mass of rater r, label l, start s, true class c at [r·C + l, s·C + c]
    flat = np.ascontiguousarray(post.reshape(b * n_c, n_i).T)
    mass = np.asarray(k.by_cell @ flat).reshape(n_r, n_c, b, n_c).transpose(2, 0, 3, 1)
    mass = np.ascontiguousarray(mass)  # starts × raters × true class × label
    tot = mass.sum(axis=3)
    met = tot > 0
    mass /= np.where(met, tot, 1.0)[..., None]
    mass[~met] = 1.0 / n_c
    return np.concatenate([prior, mass.reshape(b, -1)], axis=1)


def _e_steps(xs: np.ndarray, k: Codes) -> tuple[np.ndarray, np.ndarray]:
    """The E step of a batch of flat parameter vectors (starts × P): posteriors (starts × classes ×
    items) ∝ π_c Π_labels θ_r[c, label] (floored at :data:`FLOOR` in logs) and each start's
    observed-data log-likelihood Σ_items log Σ_c π_c Π_labels θ_r[c, label]."""
    b, n_c, n_r = len(xs), k.n_classes, k.n_raters
    theta = xs[:, n_c:].reshape(b, n_r, n_c, n_c)
    # (cells + 1 × starts·classes): log θ_r[c, l] at [r·C + l, s·C + c], then log π_c at [-1, s·C + c]
    logs = np.empty((n_r * n_c + 1, b * n_c))
    logs[:-1] = np.log(np.maximum(theta, FLOOR)).transpose(1, 3, 0, 2).reshape(n_r * n_c, b * n_c)
    logs[-1] = np.log(np.maximum(xs[:, :n_c], FLOOR)).reshape(-1)
    log_post = np.ascontiguousarray((k.by_item @ logs).T).reshape(b, n_c, k.n_items)
    top = log_post.max(axis=1)
    post = np.exp(np.subtract(log_post, top[:, None, :], out=log_post), out=log_post)
    total = post.sum(axis=1)
    post /= total[:, None, :]
    norm = np.log(total, out=total)
    norm += top  # log Σ_c exp(log_post[c])
    if k.labelled.all():
        return post, norm.sum(axis=1)
    post[:, :, ~k.labelled] = 0.0
    return post, norm[:, k.labelled].sum(axis=1)


def e_step(prior: np.ndarray, theta: np.ndarray, k: Codes) -> tuple[np.ndarray, float]:
    """Item posteriors (classes × items) and the observed-data log-likelihood of one π, θ (canonical
    rater order): :func:`_e_steps` of one start."""
    post, loglik = _e_steps(np.concatenate([prior, theta.reshape(-1)])[None], k)
    return post[0], float(loglik[0])


def log_likelihoods(xs: np.ndarray, k: Codes) -> np.ndarray:
    """The observed-data log-likelihood of each flat parameter vector (row of ``xs``)."""
    out = np.empty(len(xs))
    step = batch_size(k.n_items, k.n_classes, len(xs))
    for lo in range(0, len(xs), step):
        out[lo : lo + step] = _e_steps(xs[lo : lo + step], k)[1]
    return out


def em_maps(xs: np.ndarray, k: Codes) -> tuple[np.ndarray, np.ndarray]:
    """One EM step of each flat parameter vector ``x = [π, θ.ravel()]`` (rows of ``xs``): the next
    vectors and the log-likelihoods at ``xs``; in batches of :func:`batch_size` starts."""
    out, loglik = np.empty_like(xs), np.empty(len(xs))
    step = batch_size(k.n_items, k.n_classes, len(xs))
    for lo in range(0, len(xs), step):
        post, loglik[lo : lo + step] = _e_steps(xs[lo : lo + step], k)
        out[lo : lo + step] = _m_steps(post, k)
    return out, loglik


def em_maps_above(
    xs: np.ndarray, bar: np.ndarray, k: Codes
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The E step of each flat parameter vector (rows of ``xs``) and, only where its log-likelihood is
    finite and at least ``bar`` (per row), the M step after it: which rows passed, their next vectors
    (in order) and every row's log-likelihood. A row that fails costs an E step only."""
    out, loglik = np.empty_like(xs), np.empty(len(xs))
    passed = np.zeros(len(xs), dtype=bool)
    step = batch_size(k.n_items, k.n_classes, len(xs))
    for lo in range(0, len(xs), step):
        hi = min(lo + step, len(xs))
        post, loglik[lo:hi] = _e_steps(xs[lo:hi], k)
        ok = np.isfinite(loglik[lo:hi]) & (loglik[lo:hi] >= bar[lo:hi])
        passed[lo:hi] = ok
        if ok.any():
            out[lo:hi][ok] = _m_steps(post[ok] if not ok.all() else post, k)
    return passed, out[passed], loglik


def em_map(x: np.ndarray, k: Codes) -> tuple[np.ndarray, float]:
    """One EM step on the flat parameter vector ``x = [π, θ.ravel()]``: the next vector and the
    log-likelihood at ``x``."""
    out, loglik = em_maps(x[None], k)
    return out[0], float(loglik[0])


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


class Runs:
    """The EM runs of several starts, advanced together (:meth:`advance`): per start its parameters
    (row of ``x``), the M steps taken (``steps``, the first M step from the start's posteriors
    included), whether it met the stopping rule (``converged``), whether it is finished (``done``:
    converged, or stopped at its step limit) and, for plain EM, the size of its last step."""

    def __init__(self, x: np.ndarray) -> None:
        self.x = np.array(x, dtype=np.float64)
        n = len(self.x)
        self.steps = np.ones(n, dtype=np.int64)
        self.converged = np.zeros(n, dtype=bool)
        self.done = np.zeros(n, dtype=bool)
        self.last = np.full(n, np.inf)
        # the cycles taken, and the log-likelihood at the start of the last 2·BLOCK + 1 (for ``race``)
        self.cycles = np.zeros(n, dtype=np.int64)
        self.history = np.full((n, 2 * BLOCK + 1), -np.inf)

    def advance(
        self,
        which: np.ndarray,
        k: Codes,
        rule: tuple[float, bool],
        limit: np.ndarray,
        cycles: int | None = None,
        tick: Callable[[int], None] | None = None,
        race: float | None = None,
    ) -> None:
        """Run starts ``which`` (indices) until each meets the stopping rule, reaches its step limit
        (``limit``, per start: it is then done, not converged), or — with ``cycles`` — has taken that
        many cycles (two EM steps and, with SQUAREM, the extrapolated one), after which it can be
        advanced again along the same path. ``rule`` is (tol, accelerate). With ``race`` (a
        log-likelihood), a start also stops, not converged, once it cannot reach ``race``: its
        log-likelihood plus :data:`SAFETY` times the rest of its gains — a geometric series from its
        gains over the last two blocks of :data:`BLOCK` cycles (EM never lowers the
        log-likelihood) — is below it, after :data:`SETTLE` cycles."""
        active = np.array([i for i in which if not self.done[i]], dtype=np.int64)
        n_cycles = 0
        while len(active) and (cycles is None or n_cycles < cycles):
            active = self._cycle(active, k, rule, limit, tick, race)
            n_cycles += 1

    def _behind(self, active: np.ndarray, loglik: np.ndarray, race: float | None) -> np.ndarray:
        """Which starts of ``active`` (log-likelihoods ``loglik`` now) cannot reach ``race``."""
        h = np.concatenate([self.history[active, 1:], loglik[:, None]], axis=1)
        self.history[active] = h
        self.cycles[active] += 1
        if race is None:
            return np.zeros(len(active), dtype=bool)
        with np.errstate(invalid="ignore", divide="ignore"):  # -inf before a start's first cycles
            gain, previous = h[:, -1] - h[:, BLOCK], h[:, BLOCK] - h[:, 0]
            rate = np.where(previous > 0, gain / previous, np.inf)
            rest = np.where(rate < 1.0, gain * rate / (1.0 - rate), np.inf)
        settled = self.cycles[active] > SETTLE  # early gains say little about where a start ends
        return settled & np.isfinite(rest) & (loglik + SAFETY * np.maximum(rest, 0.0) < race)

    def _step(
        self, idx: np.ndarray, xs: np.ndarray, k: Codes, tick: Callable[[int], None] | None
    ) -> tuple[np.ndarray, np.ndarray]:
        self.steps[idx] += 1
        if tick is not None:
            tick(len(idx))
        return em_maps(xs, k)

    def _finish(self, idx: np.ndarray, x: np.ndarray, converged: bool) -> None:
        self.x[idx] = x
        self.done[idx] = True
        self.converged[idx] = converged

    def _cycle(
        self,
        active: np.ndarray,
        k: Codes,
        rule: tuple[float, bool],
        limit: np.ndarray,
        tick: Callable[[int], None] | None,
        race: float | None = None,
    ) -> np.ndarray:
        """One cycle of the starts ``active``; the ones still running after it."""
        tol, accelerate = rule
        stop = self.steps[active] >= limit[active]
        self._finish(active[stop], self.x[active[stop]], False)
        active = active[~stop]
        if not len(active):
            return active
        x0 = self.x[active]
        x1, loglik_0 = self._step(active, x0, k, tick)
        behind = self._behind(active, loglik_0, race)
        self._finish(active[behind], x1[behind], False)
        active, x0, x1 = active[~behind], x0[~behind], x1[~behind]
        if not len(active):
            return active
        d1 = np.abs(x1 - x0).max(axis=1)
        if not accelerate:
            met = np.array(
                [_distance(a, b) <= tol for a, b in zip(self.last[active], d1, strict=True)], bool
            )
            self.x[active], self.last[active] = x1, d1
            self._finish(active[met], x1[met], True)
            return active[~met]
        more = self.steps[active] < limit[active]
        self._finish(active[~more], x1[~more], False)
        active, x0, x1, d1 = active[more], x0[more], x1[more], d1[more]
        if not len(active):
            return active
        x2, loglik_1 = self._step(active, x1, k, tick)
        d2 = np.abs(x2 - x1).max(axis=1)
        met = np.array([_distance(a, b) <= tol for a, b in zip(d1, d2, strict=True)], dtype=bool)
        self._finish(active[met], x2[met], True)
        active, x0, x1, x2, loglik_1 = (a[~met] for a in (active, x0, x1, x2, loglik_1))
        self.x[active] = x2
        jumps = [extrapolate(a, b, c) for a, b, c in zip(x0, x1, x2, strict=True)]
        go = np.array(
            [
                j is not None and s < m
                for j, s, m in zip(jumps, self.steps[active], limit[active], strict=True)
            ],
            dtype=bool,
        )
        if go.any():
            jump = np.stack([j for j, g in zip(jumps, go, strict=True) if g and j is not None])
            # the jump's E step, and its M step (the stabilising EM step) only where it is kept
            keep, x3, _ = em_maps_above(jump, loglik_1[go], k)
            kept = active[go][keep]
            self.steps[kept] += 1
            if tick is not None and len(kept):
                tick(len(kept))
            self.x[kept] = x3
        return active


def solve(
    x: np.ndarray,
    k: Codes,
    tol: float,
    max_iter: int,
    accelerate: bool,
    tick: Callable[[int], None] | None = None,
) -> Runs:
    """EM (SQUAREM when ``accelerate``) from one flat parameter vector ``x`` (one M step taken) until
    the stopping rule of the module docstring is met or ``max_iter`` M steps are taken. SQUAREM: two
    EM steps, an extrapolated point, one EM step from it when its log-likelihood is no worse than the
    plain path's (the monotone safeguard: never worse than plain EM, so the log-likelihood never
    decreases); a refused point costs its E step only."""
    runs = Runs(x[None])
    runs.advance(np.array([0]), k, (tol, accelerate), np.array([max_iter]), tick=tick)
    return runs
