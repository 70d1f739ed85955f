"""The seeded simulation behind :class:`~humanly.ranking.RepeatPlan`'s ``simulated`` fields: how
often a design of m human votes per comparison (and a judge) orders the models right, where no exact
formula applies.

The world is the fitted model. Truth: the human-only Bradley–Terry strengths θ over the study's pairs
of models, each pair drawn with its share of all the study's comparisons. Each comparison has a truly
better answer — the first model's with probability π_p, from σ(θ_a − θ_b) = t/2 + (1 − t)·(π_p·q +
(1 − π_p)(1 − q)) as :mod:`._repeat` derives it — and each human vote is a tie with probability t and
otherwise names the better answer with probability q; a judge's vote is a tie with probability t_j
and otherwise names it with probability q_j (from the judge's agreement with decisive human votes,
a = q·q_j + (1 − q)(1 − q_j)), independently of the human votes given the truth. When q is not
identified (one human vote per comparison), the world takes the least accurate votes the strengths
allow, q = max_p max(p_p, 1 − p_p) with p_p the decisive share of pair p: the case most favourable to
several votes per comparison (with q = 1 every vote on a comparison agrees, and repeating a vote only
spends the budget).

A replicate of design m: budget // m comparisons drawn over the pairs (multinomial on the pairs'
shares), each with m human votes, averaged as :func:`~humanly.ranking.rank` averages them (the
``"majority"`` combination, each comparison's votes replaced by their majority, is the paper's and is
kept for the tests), and the judge's vote; with a judge, the study's judge-only comparisons on the same
pairs with new judge votes. The estimator is the real one: :func:`._winrate.win_rates` (human only,
or PPI++ / PPI with λ tuned per model as in the ranking) run on the replicate's per-pair sums. The
replicates are stacked as separate copies of the models in one call — a win rate reads only its own
model's comparisons and tunes its own λ, so every copy's estimate is exactly the one the replicate
alone would give. Per-pair sums are drawn directly: a comparison's votes take one of finitely many
values (the counts of first-won, second-won and tied votes among m, times the judge's three outcomes),
so a replicate is a multinomial draw of those counts per pair and costs O(pairs × values), whatever
the budget.

The rankings are by win rate (the estimator that can be stacked; the strengths' PPI++ λ is tuned
jointly over the models) against the true win rates of the world (each model's mean chance of
winning over the pairs' shares). Above :data:`SIM_MODELS` fitted models, the simulation keeps the
:data:`SIM_MODELS` models around the two closest (their pairs, and the share of the budget that falls
on them), and says which.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from ._bt import sigmoid
from ._design import Design
from ._moments import PairMoments
from ._winrate import win_rates
from .repeat_results import SimulatedOrder

__all__ = ["SIM_MODELS", "World", "simulate_design", "world"]

#: the most models a simulation keeps (around the two closest)
SIM_MODELS = 10


@dataclasses.dataclass(frozen=True)
class World:
    """The simulated world (see the module docstring): ``models`` (indices into the study's), the
    pairs as local indices ``first``, ``second``, each pair's ``share`` of all comparisons, ``pi``,
    human ``q`` and ``t``, the local indices ``hi``, ``lo`` of the two closest models, and ``truth``,
    each model's true win rate (the order to recover)."""

    models: np.ndarray
    pairs: np.ndarray  # the study's pair index of each simulated pair
    first: np.ndarray
    second: np.ndarray
    share: np.ndarray
    pi: np.ndarray
    q: float
    t: float
    hi: int
    lo: int
    truth: np.ndarray


def world(
    d: Design, theta: np.ndarray, higher: int, lower: int, q: float | None, t: float
) -> World | None:
    """The world of the fitted strengths ``theta`` (NaN: not fitted) with the two closest models
    ``higher``, ``lower``; ``q`` ``None`` takes the least accurate votes the strengths allow. ``None``
    when fewer than two models are fitted or t = 1."""
    fitted = np.flatnonzero(np.isfinite(theta))
    if len(fitted) < 2 or t >= 1 or higher not in fitted or lower not in fitted:
        return None
    order = fitted[np.argsort(-theta[fitted], kind="stable")]
    if len(order) > SIM_MODELS:
        at = min(int(np.flatnonzero(order == higher)[0]), int(np.flatnonzero(order == lower)[0]))
        start = min(max(at - (SIM_MODELS // 2 - 1), 0), len(order) - SIM_MODELS)
        order = order[start : start + SIM_MODELS]
    models = np.sort(order)
    local = np.full(d.n_models, -1)
    local[models] = np.arange(len(models))
    every = np.bincount(d.pair_of, minlength=d.n_pairs).astype(float)
    inside = np.flatnonzero((local[d.first] >= 0) & (local[d.second] >= 0) & (every > 0))
    a, b = d.first[inside], d.second[inside]
    p_dec = np.clip((sigmoid(theta[a] - theta[b]) - t / 2) / (1 - t), 0.0, 1.0)
    if q is None:
        q = float(np.maximum(p_dec, 1 - p_dec).max(initial=0.5))
    if q > 0.5:
        pi = np.clip((p_dec - (1 - q)) / (2 * q - 1), 0.0, 1.0)
    else:
        pi = np.full(len(inside), 0.5)
    won = pi * q + (1 - pi) * (1 - q)
    share = every[inside] / every.sum()
    m = len(models)
    first, second = local[a], local[b]
    wins = np.bincount(first, share * won, m) + np.bincount(second, share * (1 - won), m)
    games = np.bincount(first, share, m) + np.bincount(second, share, m)
    truth = wins / np.where(games > 0, games, 1.0)
    return World(
        models, inside, first, second, share, pi, q, t, int(local[higher]), int(local[lower]), truth
    )


def _human_values(m: int, q: float, t: float, combine: str):
    """Every value of m human votes on a comparison: x = (first's share, second's share) and its
    probability when the first (``pf``) or the second (``ps``) answer is truly better."""
    xs, pf, ps = [], [], []
    right, wrong = (1 - t) * q, (1 - t) * (1 - q)
    for c, w in itertools.product(range(m + 1), repeat=2):
        if c + w > m:
            continue
        coef = math.factorial(m) / (
            math.factorial(c) * math.factorial(w) * math.factorial(m - c - w)
        )
        if combine == "majority":
            xs.append((float(c > w), float(w > c)))
        else:
            xs.append((c / m, w / m))
        pf.append(coef * right**c * wrong**w * t ** (m - c - w))
        ps.append(coef * wrong**c * right**w * t ** (m - c - w))
    return np.array(xs), np.array(pf), np.array(ps)


def _judge_values(q: float, t: float):
    xs = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    right, wrong = (1 - t) * q, (1 - t) * (1 - q)
    return xs, np.array([right, wrong, t]), np.array([wrong, right, t])


def _moments(counts: np.ndarray, x: np.ndarray) -> PairMoments:
    """The per-pair sums of :mod:`._moments` from counts (pairs, values) of the values ``x``."""
    c = counts.astype(float).T  # (values, pairs): the products below as one (K, V) × (V, P)
    k = x.shape[1]
    s0 = c.sum(axis=0)
    s1 = (x.T @ c).T
    s2 = (np.einsum("vk,vl->vkl", x, x).reshape(len(x), k * k).T @ c).T.reshape(-1, k, k)
    return PairMoments(s0, s1, s2, s0, s1, s2, s0.astype(np.int64), weighted=False)


def _draw(rng: np.random.Generator, n: np.ndarray, pi: np.ndarray, pf, ps) -> np.ndarray:
    """Counts of each value per replicate and pair, (R·P, V), for n (R, P) comparisons per pair:
    a multinomial draw per replicate and pair, or — when there are fewer comparisons than counts to
    draw — each comparison's value drawn by inverting its pair's distribution and counted (the
    same distribution, at a cost linear in the comparisons)."""
    p = pi[:, None] * pf[None, :] + (1 - pi[:, None]) * ps[None, :]
    p = np.clip(p, 0.0, None)
    p = p / p.sum(axis=1, keepdims=True)
    reps, pairs = n.shape
    values = p.shape[1]
    total = int(n.sum())
    if total >= n.size * values:
        return rng.multinomial(n, p).reshape(reps * pairs, values)
    cdf = np.cumsum(p, axis=1)
    cdf[:, -1] = 1.0
    cdf_flat = (cdf + np.arange(pairs)[:, None]).ravel()
    cell = np.repeat(np.arange(reps * pairs), n.ravel())
    pair = cell % pairs
    value = np.searchsorted(cdf_flat, rng.random(total) + pair, side="right") - pair * values
    value = np.minimum(value, values - 1)
    return np.bincount(cell * values + value, minlength=reps * pairs * values).reshape(
        reps * pairs, values
    )


def simulate_design(
    d: Design,
    w: World,
    m: int,
    budget: int,
    reps: int,
    rng: np.random.Generator,
    *,
    judge: tuple[float, float, np.ndarray] | None = None,
    rule: str = "ppi++",
    ties: str = "half",
    combine: str = "mean",
) -> SimulatedOrder:
    """``reps`` replicates of design m (see the module docstring); ``judge`` = (q_j, t_j, the
    judge-only comparisons per simulated pair) or ``None`` for the humans alone."""
    n_pairs, n_models = len(w.first), len(w.models)
    probs = np.append(w.share, max(1.0 - float(w.share.sum()), 0.0))
    per_pair = rng.multinomial(budget // m, probs / probs.sum(), size=reps)[:, :n_pairs]
    xh, hf, hs = _human_values(m, w.q, w.t, combine)
    if judge is None:
        x, pf, ps = xh, hf, hs
    else:
        xj, jf, js = _judge_values(judge[0], judge[1])
        nj = len(xj)
        x = np.hstack([np.repeat(xh, nj, axis=0), np.tile(xj, (len(xh), 1))])
        pf, ps = np.outer(hf, jf).ravel(), np.outer(hs, js).ravel()
    counts = _draw(rng, per_pair, w.pi, pf, ps)
    unl = None
    if judge is not None:
        big_n = np.broadcast_to(judge[2], (reps, n_pairs))
        u_counts = _draw(rng, np.ascontiguousarray(big_n), w.pi, jf, js)
        unl = _moments(u_counts, np.hstack([np.zeros((nj, 2)), xj]))
    offset = (np.arange(reps) * n_models)[:, None]
    k = x.shape[1]
    stacked = Design(
        study=d.study,
        models=("",) * (reps * n_models),
        first=(offset + w.first[None, :]).ravel(),
        second=(offset + w.second[None, :]).ravel(),
        pair_of=np.zeros(0, dtype=np.int64),
        x=np.zeros((0, k)),
        labelled=np.zeros(0, dtype=bool),
        judged=np.zeros((0, 1), dtype=bool),
        human_votes=np.zeros(0, dtype=np.int64),
        weights=None,
        moments_l=_moments(counts, x),
        _u={} if unl is None else {(1,): unl},
    )
    if judge is None:
        fit = win_rates(stacked, (), "classical", ties, covariance=False)
    else:
        fit = win_rates(stacked, (1,), rule, ties, covariance=False)
    return _score(fit.point.reshape(reps, n_models), w)


def _agree(diff: np.ndarray, sign: np.ndarray) -> np.ndarray:
    """1 where the estimates order a pair as the truth, 0 where the other way, ½ for equal estimates,
    a missing estimate or equal truths."""
    out = np.where(diff * sign > 0, 1.0, np.where(diff * sign < 0, 0.0, 0.5))
    return np.where(np.isnan(diff), 0.5, out)


def _mean_se(v: np.ndarray) -> tuple[float, float]:
    se = float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else 0.0
    return float(v.mean()), se


def _score(est: np.ndarray, w: World) -> SimulatedOrder:
    i, j = np.triu_indices(len(w.models), 1)
    sign = np.sign(w.truth[i] - w.truth[j])
    agree = _agree(est[:, i] - est[:, j], sign[None, :])
    pair = _agree(est[:, w.hi] - est[:, w.lo], np.sign(w.truth[w.hi] - w.truth[w.lo]))
    whole = np.all(agree == 1.0, axis=1).astype(float)
    return SimulatedOrder(*_mean_se(pair), *_mean_se(agree.mean(axis=1)), *_mean_se(whole))
