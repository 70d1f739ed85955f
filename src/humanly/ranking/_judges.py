"""What a judge is worth, measured on the comparisons that have both a human vote and the judge's:
its agreement with the humans (a 3 × 3 table, ties included), its position bias, and the
Dorner–Nastl–Hardt frontier check per model.

Position bias. A vote's score for position A is 1 when model A won, 0 when model B won, ½ for a tie;
per comparison, the judge's mean score for A minus the humans' on the same comparison is the judge's
*shift* toward the first position beyond the humans' own. Its mean over the comparisons has a CLT
interval and a two-sided z-test; the status says which position the judge favours when the interval
excludes 0. Swapping model A and model B in every record (the outcome flipped) changes only the sign.

Frontier check (as :mod:`humanly.judging` makes it). For model m, on its human-voted comparisons:
the model's "accuracy" is its human win rate (a win 1, a tie ½), the judge's is its agreement with
the human vote; the paired difference has a CLT interval. Unless the judge is shown more accurate
than the model, Dorner, Nastl & Hardt (ICLR 2025) bound what any debiasing can save at a factor two;
the saving measured here is beside it.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from .._core.normal import z_value
from .._core.result import Interval
from ..data.votes import FIRST, SECOND, TIE, VoteSet
from ._design import Design
from .judge_results import FrontierModel, JudgeAgreement, PositionBias

__all__ = ["agreement", "frontier", "position_bias"]


def _num(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _mean_interval(values: np.ndarray, z: float) -> tuple[float, float, Interval]:
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    se = float(values.std() / math.sqrt(n)) if n else math.nan
    return mean, se, Interval(_num(mean - z * se), _num(mean + z * se))


def _shares(d: Design, j: int, both: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Human and judge outcome shares (first, second, tie) on the comparisons ``both``."""
    x = d.x[both]
    tie_h = np.clip(1.0 - x[:, 0] - x[:, 1], 0.0, 1.0)  # shares of votes: no rounding below 0
    tie_j = np.clip(1.0 - x[:, 2 * j] - x[:, 2 * j + 1], 0.0, 1.0)
    h = np.column_stack([x[:, 0], x[:, 1], tie_h])
    g = np.column_stack([x[:, 2 * j], x[:, 2 * j + 1], tie_j])
    return h, g


def agreement(d: Design, j: int, level: float) -> JudgeAgreement:
    """The judge ``j`` (1-based) against the human votes."""
    both = d.labelled & d.judged[:, j - 1]
    h, g = _shares(d, j, both)
    z = z_value(level)
    table = h.T @ g
    rate, _, interval = _mean_interval((h * g).sum(axis=1), z)
    num = h[:, 0] * g[:, 0] + h[:, 1] * g[:, 1]
    den = (h[:, 0] + h[:, 1]) * (g[:, 0] + g[:, 1])
    decisive, dec_interval = None, Interval(None, None)
    if den.sum() > 0:
        decisive = float(num.sum() / den.sum())
        se = float(np.sqrt(((num - decisive * den) ** 2).sum()) / den.sum())
        dec_interval = Interval(_num(decisive - z * se), _num(decisive + z * se))
    total = table.sum()
    kappa = None
    if total > 0:
        p_o = np.trace(table) / total
        p_e = float(table.sum(axis=1) @ table.sum(axis=0)) / total**2
        kappa = _num((p_o - p_e) / (1 - p_e)) if p_e < 1 else None
    return JudgeAgreement(
        comparisons=int(both.sum()),
        table=table,
        rate=rate,
        interval=interval,
        decisive_rate=decisive,
        decisive_interval=dec_interval,
        kappa=kappa,
    )


def _first_score(votes: VoteSet, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per comparison: the mean score of position A over its votes, and its A-wins and decisive
    votes."""
    a_won = ((votes.outcome == FIRST) & ~votes.swapped) | (
        (votes.outcome == SECOND) & votes.swapped
    )
    tie = votes.outcome == TIE
    score = a_won + 0.5 * tie
    count = np.bincount(votes.comparison, minlength=n).astype(float)
    total = np.bincount(votes.comparison, weights=score, minlength=n)
    wins = np.bincount(votes.comparison, weights=a_won.astype(float), minlength=n)
    decisive = count - np.bincount(votes.comparison, weights=tie.astype(float), minlength=n)
    return total / np.where(count > 0, count, 1.0), wins, decisive


def position_bias(d: Design, j: int, level: float) -> PositionBias:
    """The judge ``j`` (1-based)'s preference for the first position, beyond the humans'."""
    human, judge = d.study.human, d.study.judges[j - 1]
    both = d.labelled & d.judged[:, j - 1]
    n = int(both.sum())
    if not (human.positional and judge.positional) or n == 0:
        return PositionBias("no_positions", n, None, None, None, Interval(None, None), None)
    nc = d.study.n_comparisons
    h_score, h_wins, h_dec = _first_score(human, nc)
    j_score, j_wins, j_dec = _first_score(judge, nc)
    shift = j_score[both] - h_score[both]
    mean, se, interval = _mean_interval(shift, z_value(level))
    p_value = None
    if se > 0:
        p_value = 2.0 * (1.0 - NormalDist().cdf(abs(mean) / se))
    status = "no_position_bias"
    if interval.low is not None and interval.low > 0:
        status = "favours_first"
    elif interval.high is not None and interval.high < 0:
        status = "favours_second"
    jd, hd = j_dec[both].sum(), h_dec[both].sum()
    return PositionBias(
        status=status,
        comparisons=n,
        judge_first_share=float(j_wins[both].sum() / jd) if jd > 0 else None,
        human_first_share=float(h_wins[both].sum() / hd) if hd > 0 else None,
        shift=mean,
        interval=interval,
        p_value=p_value,
    )


def frontier(d: Design, j: int, level: float, saving: np.ndarray) -> tuple[FrontierModel, ...]:
    """The frontier check of judge ``j`` (1-based) against every model with human votes; ``saving``
    per model is its win rate's effective / human votes with this judge."""
    both = d.labelled & d.judged[:, j - 1]
    h, g = _shares(d, j, both)
    agree = (h * g).sum(axis=1)
    won_first = h[:, 0] + 0.5 * h[:, 2]
    pair = d.pair_of[both]
    first, second = d.first[pair], d.second[pair]
    m = d.n_models
    z = z_value(level)

    def per_model(on_first: np.ndarray, on_second: np.ndarray) -> np.ndarray:
        return np.bincount(first, weights=on_first, minlength=m) + np.bincount(
            second, weights=on_second, minlength=m
        )

    n = per_model(np.ones(len(pair)), np.ones(len(pair)))
    model_acc = per_model(won_first, 1.0 - won_first)
    judge_acc = per_model(agree, agree)
    d1, d2 = agree - won_first, agree - (1.0 - won_first)
    diff_sum, diff_sq = per_model(d1, d2), per_model(d1 * d1, d2 * d2)
    rows = []
    for k in np.flatnonzero(n >= 2):
        mean = diff_sum[k] / n[k]
        se = math.sqrt(max(diff_sq[k] / n[k] - mean * mean, 0.0) / n[k])
        interval = Interval(_num(mean - z * se), _num(mean + z * se))
        status = "no_clear_difference"
        if mean - z * se > 0:
            status = "judge_more_accurate"
        elif mean + z * se < 0:
            status = "judge_less_accurate"
        rows.append(
            FrontierModel(
                model=d.models[k],
                model_accuracy=float(model_acc[k] / n[k]),
                judge_accuracy=float(judge_acc[k] / n[k]),
                difference=float(mean),
                interval=interval,
                status=status,
                at_most_twice=status != "judge_more_accurate",
                saving=_num(saving[k]),
            )
        )
    return tuple(rows)
