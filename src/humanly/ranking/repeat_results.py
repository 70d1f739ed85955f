"""The parts of a :class:`~humanly.ranking.RepeatPlan` beyond the human-only exact numbers: the
simulated rankings of one design (:class:`SimulatedOrder`) and, per judge, the exact variance ratio of
the judge-assisted estimates and their simulated rankings (:class:`JudgeRepeat`,
:class:`JudgeRepeatRow`). Codes and numbers only; the sentences are in :mod:`humanly.verdicts`.
"""

from __future__ import annotations

import dataclasses

from .._core.result import Interval, Result

__all__ = ["JudgeRepeat", "JudgeRepeatRow", "SimulatedOrder"]


@dataclasses.dataclass(frozen=True, repr=False)
class SimulatedOrder(Result):
    """How often one design orders the simulated models right, from a seeded parametric simulation
    (see :class:`~humanly.ranking.RepeatPlan`): each number with its Monte Carlo standard error.

    Parameters
    ----------
    probability_pair : float
        The share of replicates in which the estimated win rates put the two closest models (the
        plan's ``higher`` and ``lower``) in their true order (equal estimates, or a model without
        an estimate, count half: a coin flip).
    probability_pair_se : float
        Its Monte Carlo standard error.
    ordered_share : float
        The mean share of the pairs of simulated models that the estimated win rates order as the
        true win rates (equal estimates count half).
    ordered_share_se : float
        Its Monte Carlo standard error.
    probability_ranking : float
        The share of replicates in which every simulated model is in its true place.
    probability_ranking_se : float
        Its Monte Carlo standard error.

    Examples
    --------
    >>> SimulatedOrder(0.9, 0.02, 0.95, 0.01, 0.4, 0.03).probability_pair
    0.9
    """

    probability_pair: float
    probability_pair_se: float
    ordered_share: float
    ordered_share_se: float
    probability_ranking: float
    probability_ranking_se: float


@dataclasses.dataclass(frozen=True, repr=False)
class JudgeRepeatRow(Result):
    """One design with a judge: ``votes_per_comparison`` human votes averaged on each of
    ``comparisons`` comparisons, the judge on these and on the judge-only comparisons.

    Parameters
    ----------
    votes_per_comparison : int
        m.
    comparisons : int
        budget // m.
    variance_ratio : float or None
        The variance of the judge-assisted (PPI++) estimate with m votes per comparison over that
        with one vote each, λ tuned for each design (exact moment formula; ``None`` when not
        identified).
    variance_ratio_interval : Interval
        What the ratio can be whatever the noise of a vote: [1, m].
    lam : float or None
        The λ the estimator tunes to for this design (population value from the moments).
    simulated : SimulatedOrder or None
        The simulated rankings of this design with the judge (``None``: not simulated).

    Examples
    --------
    >>> JudgeRepeatRow(3, 300, 1.2, Interval(1.0, 3.0), 0.6).comparisons
    300
    """

    votes_per_comparison: int
    comparisons: int
    variance_ratio: float | None
    variance_ratio_interval: Interval
    lam: float | None
    simulated: SimulatedOrder | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class JudgeRepeat(Result):
    """One vote per comparison or several, with one judge.

    Parameters
    ----------
    judge : str
        The judge's name.
    status : str
        ``"identified"`` (comparisons with several human votes measure a vote's noise) or
        ``"not_identified"``.
    icc : float or None
        ICC_judge = A/(A + σ²_w): the share of the variance of the rectified residual (human score
        minus λ × the judge's) that lies between comparisons, at the λ of one vote each; below the
        human-only ICC when the judge explains the differences between comparisons.
    accuracy : float or None
        q_j: the chance that a decisive judge vote names the truly better answer, from its
        agreement with decisive human votes, a = q·q_j + (1 − q)(1 − q_j).
    tie_share : float or None
        The share of the judge's votes that are ties.
    unlabelled : int
        The judge-only comparisons (N) the judge term is computed for.
    rows : tuple of JudgeRepeatRow
        One per number of votes per comparison.

    Examples
    --------
    >>> JudgeRepeat("llm", "not_identified", None, None, 0.1, 500, ()).status
    'not_identified'
    """

    judge: str
    status: str
    icc: float | None
    accuracy: float | None
    tie_share: float | None
    unlabelled: int
    rows: tuple[JudgeRepeatRow, ...]
