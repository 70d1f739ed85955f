"""What a judge is worth, as :func:`~humanly.ranking.rank` reports it (``RankResult.judge_worth``):
its agreement with the human votes, its position bias, the frontier check per model, and the human
votes it saves — frozen, typed values with status codes, no prose.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .._core.result import Interval, Result

__all__ = ["OUTCOME_ROWS", "FrontierModel", "JudgeAgreement", "JudgeWorth", "PositionBias"]

#: the rows and columns of :attr:`JudgeAgreement.table`: the comparison's first model (in name
#: order) won, its second model won, a tie
OUTCOME_ROWS = ("first", "second", "tie")


@dataclasses.dataclass(frozen=True, repr=False)
class JudgeAgreement(Result):
    """A judge's votes against the human votes on the comparisons both voted on.

    Parameters
    ----------
    comparisons : int
        Comparisons with a human vote and a judge vote.
    table : numpy.ndarray
        3 × 3: rows the human outcome, columns the judge's, each ``first``, ``second``, ``tie`` (the
        comparison's models in name order); a comparison counts 1 in all (shared out when it has
        several votes).
    rate : float
        The share of comparisons where they agree (a tie agreeing with a tie).
    interval : Interval
        Its CLT interval at ``level``.
    decisive_rate : float or None
        The agreement where both named a winner.
    decisive_interval : Interval
        Its CLT (delta-method) interval.
    kappa : float or None
        Cohen's κ of the table.

    Examples
    --------
    >>> a = JudgeAgreement(10, np.eye(3) * 3 + 1 / 6, 0.95, Interval(0.8, 1.0), 1.0,
    ...                    Interval(1.0, 1.0), 0.9)
    >>> a.table.shape
    (3, 3)
    """

    comparisons: int
    table: np.ndarray
    rate: float
    interval: Interval
    decisive_rate: float | None
    decisive_interval: Interval
    kappa: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class PositionBias(Result):
    """Does the judge favour the answer shown first (model A) or second, beyond what the humans did
    on the same comparisons?

    Parameters
    ----------
    status : str
        ``"favours_first"`` / ``"favours_second"`` (the interval of ``shift`` excludes 0),
        ``"no_position_bias"``, or ``"no_positions"`` (votes made from scores have none).
    comparisons : int
        The human-labelled comparisons measured.
    judge_first_share : float or None
        The share of the judge's decisive votes that went to model A.
    human_first_share : float or None
        The same for the human votes on these comparisons.
    shift : float or None
        mean(judge's score for model A − humans' score for model A) per comparison (a win 1, a tie
        ½): positive when the judge favours the first position more than the humans do.
    interval : Interval
        The CLT interval of ``shift`` at ``level``.
    p_value : float or None
        The two-sided p-value of shift = 0.

    Examples
    --------
    >>> PositionBias("favours_first", 500, 0.8, 0.5, 0.2, Interval(0.15, 0.25), 1e-9).status
    'favours_first'
    """

    status: str
    comparisons: int
    judge_first_share: float | None
    human_first_share: float | None
    shift: float | None
    interval: Interval
    p_value: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class FrontierModel(Result):
    """The judge against one model on the human-voted comparisons of that model (the
    Dorner–Nastl–Hardt check, as :mod:`humanly.judging` makes it).

    Parameters
    ----------
    model : str
        The model.
    model_accuracy : float
        The model's human win rate on these comparisons (its "accuracy": the share it wins).
    judge_accuracy : float
        The judge's agreement with the human votes on them.
    difference : float
        judge_accuracy − model_accuracy, comparison by comparison.
    interval : Interval
        Its paired CLT interval.
    status : str
        ``"judge_more_accurate"``, ``"no_clear_difference"`` or ``"judge_less_accurate"``.
    at_most_twice : bool
        True unless the judge is shown more accurate: by Dorner, Nastl & Hardt no debiasing then
        saves more than half the human votes (a saving of at most 2).
    saving : float or None
        The saving measured for the model's win rate with this judge (effective / human votes).

    Examples
    --------
    >>> FrontierModel("m", 0.55, 0.6, 0.05, Interval(-0.02, 0.12), "no_clear_difference", True,
    ...               1.3).at_most_twice
    True
    """

    model: str
    model_accuracy: float
    judge_accuracy: float
    difference: float
    interval: Interval
    status: str
    at_most_twice: bool
    saving: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class JudgeWorth(Result):
    """What one judge is worth: its agreement with the humans, its position bias, the frontier
    check, and the human votes it saves.

    Parameters
    ----------
    judge : str
        The judge.
    comparisons : int
        Human-voted comparisons it voted on.
    unlabelled : int
        Comparisons only it (and other judges) voted on.
    agreement : JudgeAgreement
    position : PositionBias
    frontier : tuple of FrontierModel
        One row per model with a human win rate.
    effective_votes_win_rate, effective_votes_strength : float or None
        With this judge alone: the human votes the human-only estimates would need for the same
        total variance.
    saving_win_rate, saving_strength : float or None
        The same divided by the human votes.

    Examples
    --------
    >>> JudgeWorth.__name__
    'JudgeWorth'
    """

    judge: str
    comparisons: int
    unlabelled: int
    agreement: JudgeAgreement
    position: PositionBias
    frontier: tuple[FrontierModel, ...]
    effective_votes_win_rate: float | None
    effective_votes_strength: float | None
    saving_win_rate: float | None
    saving_strength: float | None
