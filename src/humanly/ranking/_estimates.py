"""One family of estimates (win rates or strengths) as a typed :class:`~.results.Estimates`: a row per
model with its interval, rank and rank-set, the pairwise table, and each adjacent pair with the
human votes that would separate it.

A win rate and its interval are shown clipped to [0, 1] (a prediction-powered estimate can leave the
range when the judge is far off; ppi-python does not clip, :mod:`humanly.judging` does); the order,
the differences and the rank-sets use the estimates as computed.

Votes needed: with the comparisons spread over the pairs of models as now (and, with judges, the
judge-only comparisons growing with them), every variance scales as 1/(human votes), so a difference
Δ with standard error se from n votes is separated — its simultaneous interval excludes 0 — with
probability ``power`` once n·((c + z_power)·se/Δ)² votes are in (c the critical value of the
rank-sets; ``votes_needed_pairwise`` uses the marginal z of ``level`` instead).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from statistics import NormalDist

import numpy as np

from .._core.normal import z_value
from .._core.result import Interval
from ._bt import sigmoid
from ._ranksets import critical_value, pairs, rank_sets
from .result_parts import ModelRow, PairTable, RankSet, Separation, SeparationPoint
from .results import Estimates

__all__ = ["FEW_VOTES", "Family", "build"]

#: below this many human-voted comparisons a model's CLT interval may cover less than its level
FEW_VOTES = 30
#: Elo points per natural-log unit of strength (an Elo point is 1/400 of a base-10 logit)
ELO_PER_LOGIT = 400.0 / math.log(10.0)


@dataclasses.dataclass(frozen=True)
class Family:
    """What :func:`build` needs from a fit (arrays over every model, in name order)."""

    kind: str
    point: np.ndarray
    cov: np.ndarray
    ok: np.ndarray
    lam: np.ndarray  # (M, J) per model, or (J,) for the whole fit
    comparisons: np.ndarray
    votes: np.ndarray
    unlabelled: np.ndarray
    codes: tuple[tuple[str, ...], ...]
    status: str = "ok"
    groups: tuple[tuple[str, ...], ...] = ()
    iterations: int = 0


@dataclasses.dataclass(frozen=True)
class Settings:
    """The knobs every family shares."""

    level: float
    draws: int
    seed: int | None
    power: float
    votes: int  # human votes in all


def _num(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _interval(low: float, high: float, clip: bool) -> Interval:
    if clip:
        low, high = min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)
    return Interval(_num(low), _num(high))


def _needed(votes: int, diff: float, se: float, crit: float, z_power: float) -> int | None:
    if not diff > 0 or not np.isfinite(se):
        return None
    return max(1, math.ceil(votes * ((crit + z_power) * se / diff) ** 2 - 1e-9))


def _effective(fam: Family, human: Family | None, var: np.ndarray):
    """Per model and in all: the human votes a human-only estimate needs for the same variance."""
    m = len(fam.point)
    per = np.full(m, np.nan)
    if human is None:
        return per, None
    hv = np.diag(human.cov)
    both = fam.ok & human.ok & (var > 0) & np.isfinite(hv)
    per[both] = fam.votes[both] * hv[both] / var[both]
    if not both.any():
        return per, None
    return per, float(hv[both].sum() / var[both].sum())


def build(
    fam: Family, models: tuple[str, ...], s: Settings, index: int, human: Family | None
) -> Estimates:
    """The :class:`Estimates` of one fit; ``index`` numbers the family's random stream, ``human`` is
    the human-only fit of the same family (for the effective votes), ``None`` for that fit itself."""
    est = np.flatnonzero(fam.ok)
    point, cov = fam.point[est], fam.cov[np.ix_(est, est)]
    p = pairs(point, cov)
    crit, method = critical_value(cov, p, s.level, s.draws, s.seed, index)
    rank, low, high = rank_sets(point, p, crit)
    z = z_value(s.level)
    var = np.diag(fam.cov)
    per, ratio = _effective(fam, human, var)
    win = fam.kind == "win_rate"
    rows = []
    where = {int(k): n for n, k in enumerate(est)}
    for k, name in enumerate(models):
        n = where.get(k)
        lam = fam.lam[k] if fam.lam.ndim == 2 else fam.lam
        codes = fam.codes[k]
        if n is not None and fam.comparisons[k] < FEW_VOTES:
            codes = (*codes, "few_votes")
        se = math.sqrt(max(var[k], 0.0)) if n is not None else None
        est_k = float(fam.point[k]) if n is not None else None
        shown = min(max(est_k, 0.0), 1.0) if (win and est_k is not None) else est_k
        rows.append(
            ModelRow(
                model=name,
                estimate=shown,
                se=se,
                interval=(
                    _interval(est_k - z * se, est_k + z * se, win)
                    if est_k is not None and se is not None
                    else Interval(None, None)
                ),
                elo=(1000.0 + ELO_PER_LOGIT * est_k) if (est_k is not None and not win) else None,
                rank=int(rank[n]) if n is not None else None,
                rank_set=RankSet(int(low[n]), int(high[n])) if n is not None else None,
                comparisons=int(fam.comparisons[k]),
                votes=int(fam.votes[k]),
                unlabelled=int(fam.unlabelled[k]),
                lam=tuple(float(x) for x in np.atleast_1d(lam)),
                effective_votes=_num(per[k]),
                codes=codes,
            )
        )
    names = np.asarray(models, dtype=object)[est]
    order = tuple(str(names[i]) for i in sorted(range(len(est)), key=lambda i: (-point[i], i)))
    return Estimates(
        kind=fam.kind,
        status=fam.status if len(est) else "no_estimates",
        rows=tuple(rows),
        order=order,
        critical_value=float(crit) if len(est) >= 2 else None,
        simultaneous=method,
        covariance_models=tuple(str(x) for x in names),
        covariance=cov,
        pairs=_pair_table(names, p, crit, z, win),
        adjacent=(adjacent := _adjacent(order, names, point, cov, crit, z, s)),
        effective_votes=None if ratio is None else ratio * s.votes,
        saving=ratio,
        groups=fam.groups,
        iterations=fam.iterations,
        curve=_curve(adjacent, crit, s.votes),
    )


#: the planning curve's human votes, as multiples of the votes given
CURVE = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)


def _curve(
    adjacent: tuple[Separation, ...], crit: float, votes: int
) -> tuple[SeparationPoint, ...]:
    """Adjacent pairs expected to be separated at each multiple of the votes (se ∝ 1/√votes)."""
    if not adjacent or votes <= 0:
        return ()
    norm = NormalDist()
    out = []
    for factor in CURVE:
        total = 0.0
        for a in adjacent:
            if a.se > 0:
                total += norm.cdf(abs(a.difference) / (a.se / math.sqrt(factor)) - crit)
            else:
                total += float(a.difference != 0)
        n = max(1, round(votes * factor))
        out.append(SeparationPoint(n, total, total / len(adjacent)))
    return tuple(out)


def _pair_table(names: np.ndarray, p, crit: float, z: float, win: bool) -> PairTable:
    lo, hi = p.difference - z * p.se, p.difference + z * p.se
    s_lo, s_hi = p.difference - crit * p.se, p.difference + crit * p.se
    status = np.where(s_lo > 0, "first_better", np.where(s_hi < 0, "second_better", "unresolved"))
    return PairTable(
        first=tuple(str(x) for x in names[p.i]),
        second=tuple(str(x) for x in names[p.j]),
        difference=p.difference,
        se=p.se,
        low=lo,
        high=hi,
        simultaneous_low=s_lo,
        simultaneous_high=s_hi,
        probability=None if win else sigmoid(p.difference),
        probability_low=None if win else sigmoid(lo),
        probability_high=None if win else sigmoid(hi),
        status=tuple(str(x) for x in status),
    )


def _adjacent(
    order: tuple[str, ...],
    names: np.ndarray,
    point: np.ndarray,
    cov: np.ndarray,
    crit: float,
    z: float,
    s: Settings,
) -> tuple[Separation, ...]:
    pos = {str(n): k for k, n in enumerate(names)}
    z_power = NormalDist().inv_cdf(s.power)
    out = []
    for higher, lower in itertools.pairwise(order):
        a, b = pos[higher], pos[lower]
        diff = float(point[a] - point[b])
        se = math.sqrt(max(cov[a, a] + cov[b, b] - 2 * cov[a, b], 0.0))
        out.append(
            Separation(
                higher=higher,
                lower=lower,
                difference=diff,
                se=se,
                separated=bool(diff - crit * se > 0),
                votes_needed=_needed(s.votes, diff, se, crit, z_power),
                votes_needed_pairwise=_needed(s.votes, diff, se, z, z_power),
            )
        )
    return tuple(out)
