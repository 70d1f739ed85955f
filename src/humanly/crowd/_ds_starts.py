"""Where Dawid–Skene's EM starts, and how the starts are screened and polished (private; used by
:func:`humanly.crowd.dawid_skene.dawid_skene`).

The likelihood of a sparse, ragged crowd has many local maxima, and which one EM ends in depends on
where it starts. So EM runs from many starts, cheaply at first:

* **screening** — every start takes a few SQUAREM cycles (:data:`ROUNDS`: 6 cycles, about 18 EM
  steps), all starts advancing together in batches (:class:`~humanly.crowd._ds_em.Runs`); then the
  8 best by log-likelihood go on to 18 cycles, the 4 best of those to 36, and the best
  :data:`POLISH` after that (successive halving). A start that meets the stopping rule while screened
  is finished;
* **polishing** — the best of the starts left runs on to the stopping rule, with its own limit of
  ``max_iter`` further M steps (the screening rounds do not count against it); then the other one,
  and the first start (the one ties go to: on a flat ridge it may end level with the best), run on
  too, until they converge or clearly cannot come within :data:`BEHIND` of the best
  (:meth:`~humanly.crowd._ds_em.Runs.advance`'s ``race``: a closer margin stopped a start on the
  relevance analogue that would have ended 0.55 higher); and so does any start whose log-likelihood
  — a lower bound of where it would end, as EM never lowers it — is above the best one's.

The rounds are a compromise between cost and safety, chosen on simulated crowds: on the relevance
analogue of ``tests/crowd/ds_sim.py`` (seeds 0–5) the start that ends highest is always among the
polished, but on flatter data — 5,000 items, 300 raters, 3 classes — a start can trail the others for
a hundred cycles and then overtake them all, and no screening much cheaper than running every start to
the end finds it.

The fit kept is the polished start with the highest log-likelihood (ties within :data:`TIE` relative go
to the earlier start). A start's path is the same, to the last bit, whether it runs alone or among
others, and the random start ``j`` of a fit with seed ``s`` is the random start of a fit with seed
``s + j``: the default fit with seed ``s`` is never below the fit from a single random start with any
seed ``s … s + random_starts − 1`` that it screened through to polishing, and any start it tried can be
rerun alone (``starts=("random",), random_starts=1, seed=s + j``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from .._core.counts import plurality_shares
from .._core.rng import stream
from ..data import Ratings
from ._ds_em import FLOOR, Codes, Runs, log_likelihoods, m_step

#: the kinds of start, in the order they are tried by default (ties go to the earlier start)
STARTS = ("plurality", "vote_shares", "random", "random_plurality")
#: the random kinds: each runs ``random_starts`` times, start j with seed ``seed + j``
RANDOM = ("random", "random_plurality")
#: random starts of each random kind by default
RANDOM_STARTS = 10
#: the screening rounds: (SQUAREM cycles — two EM steps and an extrapolated one — in all, starts that
#: go on after the round); the last keeps :data:`POLISH`
ROUNDS = ((6, 8), (18, 4), (36, 2))
#: starts left after screening, run on to convergence
POLISH = 2
#: log-likelihoods this close (relative) are a tie, which goes to the earlier start: sums in another
#: order must not pick another start on a flat likelihood
TIE = 1e-9
#: the runner-up and the first start stop early only when they cannot come within this much (relative)
#: of the best: a start that may end level with it (a flat ridge) runs on to the stopping rule
BEHIND = 1e-4


class Start(NamedTuple):
    """One start: its kind and, for a random start, the seed that gives it alone."""

    name: str
    seed: int | None


class Outcome(NamedTuple):
    """Where one start ended: its log-likelihood there, M steps, whether it met the stopping rule,
    whether it was polished (run to the rule or to its limit, not dropped while screened) and the
    raters' accuracies (in the ratings' rater order)."""

    start: Start
    log_likelihood: float
    steps: int
    converged: bool
    polished: bool
    accuracy: np.ndarray


def plan(names: Sequence[str], seed: int, random_starts: int) -> list[Start]:
    """The starts of the kinds ``names``, in order: one of each fixed kind, ``random_starts`` of each
    random kind (seeds ``seed, seed + 1, …``)."""
    out: list[Start] = []
    for name in names:
        if name in RANDOM:
            out.extend(Start(name, seed + j) for j in range(random_starts))
        else:
            out.append(Start(name, None))
    return out


def start_posteriors(ratings: Ratings, start: Start, k: Codes) -> np.ndarray:
    """The classes × items posteriors (canonical item order) a start's first M step turns into π, θ.

    * ``plurality`` — uniform over each item's most frequent classes;
    * ``vote_shares`` — each item's label shares (crowd-kit's start);
    * ``random`` — the vote shares times independent exponential weights, renormalised (a random
      point near the data, so it tries another basin without swapping the classes' names), drawn
      from :func:`humanly._core.rng.stream` ``(seed, 0)`` in the canonical item order;
    * ``random_plurality`` — the plurality start with its ties weighted the same way (stream
      ``(seed, 1)``): a random tie-break, soft.
    """
    counts = np.empty((k.n_items, k.n_classes))
    counts[k.item_rank] = np.asarray(ratings.counts, dtype=np.float64)
    if start.name in ("plurality", "random_plurality"):
        post = plurality_shares(counts).astype(np.float64)
    else:
        post = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    if start.name in RANDOM:
        post *= stream(start.seed, RANDOM.index(start.name)).exponential(size=post.shape)
        post /= np.maximum(post.sum(axis=1, keepdims=True), FLOOR)
    return np.ascontiguousarray(post.T, dtype=np.float64)


def best_of(loglik: np.ndarray, among: Sequence[int]) -> int:
    """The start of ``among`` with the highest log-likelihood, ties (:data:`TIE`) to the earliest."""
    idx = sorted(among)
    top = max(float(loglik[i]) for i in idx)
    return next(i for i in idx if loglik[i] >= top - TIE * max(1.0, abs(top)))


def _better(alive: np.ndarray, loglik: np.ndarray, keep: int) -> np.ndarray:
    """The ``keep`` starts of ``alive`` with the highest log-likelihood (equal ones in start order),
    in start order."""
    order = sorted(alive.tolist(), key=lambda i: (-loglik[i], i))
    return np.array(sorted(order[:keep]), dtype=np.int64)


def _first_steps(ratings: Ratings, k: Codes, starts: list[Start]) -> tuple[np.ndarray, np.ndarray]:
    """Each start's parameters after its first M step, and for each start the first start with the
    same parameters (itself when none: a random plurality start on data without ties is the
    plurality start)."""
    x0 = []
    for start in starts:
        prior, theta = m_step(start_posteriors(ratings, start, k), k)
        x0.append(np.concatenate([prior, theta.reshape(-1)]))
    x = np.stack(x0)
    twin = np.arange(len(x))
    for i in range(1, len(x)):
        same = np.flatnonzero((x[:i] == x[i]).all(axis=1) & (twin[:i] == np.arange(i)))
        if len(same):
            twin[i] = same[0]
    return x, twin


def multistart(
    ratings: Ratings,
    k: Codes,
    starts: list[Start],
    rule: tuple[float, int, bool],
    tick: Callable[[int], None] | None = None,
) -> tuple[list[Outcome], Runs, int]:
    """Every start screened and the best polished (module docstring); ``rule`` is (tol, max_iter,
    accelerate). The outcome of each start, the runs (their parameters) and the kept start."""
    tol, max_iter, accelerate = rule
    x0, twin = _first_steps(ratings, k, starts)
    runs = Runs(x0)
    n = len(starts)
    loglik = np.full(n, -np.inf)
    alive = np.flatnonzero(twin == np.arange(n))  # a start's twins follow the same path
    unlimited = np.full(n, np.iinfo(np.int64).max)
    cycles = 0
    for end, keep in ROUNDS:
        if len(alive) <= keep:
            break
        runs.advance(alive, k, (tol, accelerate), unlimited, cycles=end - cycles, tick=tick)
        cycles = end
        loglik[alive] = log_likelihoods(runs.x[alive], k)
        alive = _better(alive, loglik, keep)
    limit = runs.steps - 1 + max_iter  # max_iter M steps each beyond the first and the screening
    finished = set(np.flatnonzero(runs.done).tolist())  # met the stopping rule while screened

    def run_on(which: list[int], race: float | None = None) -> None:
        idx = np.array([i for i in which if i not in finished], dtype=np.int64)
        if len(idx):
            runs.advance(idx, k, (tol, accelerate), limit, tick=tick, race=race)
            loglik[idx] = log_likelihoods(runs.x[idx], k)
            finished.update(idx.tolist())

    # the best after screening to the stopping rule; then the others left, and the first start (ties
    # go to it: on a flat ridge it may end level with the best), until they converge or cannot reach
    # the best's log-likelihood
    lead = best_of(loglik, alive.tolist())
    run_on([lead])
    while True:
        best = best_of(loglik, sorted(finished))
        behind = loglik[best] - BEHIND * max(1.0, abs(loglik[best]))
        run_on(sorted({0, *alive.tolist()} - finished), race=behind)
        # a start whose log-likelihood (a lower bound of where it would end) is above the best's
        best = best_of(loglik, sorted(finished))
        bar = loglik[best] + TIE * max(1.0, abs(loglik[best]))
        rest = [
            i
            for i in range(n)
            if loglik[i] > bar and not runs.converged[i] and runs.steps[i] < limit[i]
        ]
        if not rest:
            break
        runs.done[rest[:1]] = False  # stopped behind, or dropped: run on to the stopping rule
        finished.difference_update(rest[:1])
        run_on(rest[:1])
    return _outcomes(runs, starts, twin, loglik, finished, k), runs, best


def _outcomes(
    runs: Runs,
    starts: list[Start],
    twin: np.ndarray,
    loglik: np.ndarray,
    polished: set[int],
    k: Codes,
) -> list[Outcome]:
    """Where each start ended (a twin where the start it follows ended)."""
    n, n_c = len(starts), k.n_classes
    prior, theta = runs.x[:, :n_c], runs.x[:, n_c:].reshape(n, k.n_raters, n_c, n_c)
    accuracy = np.einsum("sc,srcc->sr", prior, theta)[:, k.rater_rank]
    return [
        Outcome(
            starts[i],
            float(loglik[twin[i]]),
            int(runs.steps[twin[i]]),
            bool(runs.converged[twin[i]]),
            twin[i] in polished,
            accuracy[twin[i]],
        )
        for i in range(n)
    ]
