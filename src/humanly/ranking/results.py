"""What :func:`~humanly.ranking.rank` returns: frozen, typed values that print, serialise
(``to_dict()`` / ``from_dict()``) and tabulate (``to_frame()``); statuses are codes, never prose.

* :class:`Estimates` — one family (``win_rate`` or ``strength``) of one ranking: a row per model,
  the order, the simultaneous critical value, the pairwise table, the adjacent pairs and their plan;
* :class:`Ranking` — both families from one source of evidence (the humans alone, or with judges);
* :class:`JudgeAgreement`, :class:`PositionBias`, :class:`FrontierModel`, :class:`JudgeWorth` —
  what a judge is worth;
* :class:`RepeatRow`, :class:`RepeatPlan` — one vote per comparison or several (*Don't Label Twice*);
* :class:`RankResult` — all of it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .._core.result import Interval, Result
from .result_parts import Flag, ModelRow, PairTable, Separation

__all__ = [
    "Estimates",
    "FrontierModel",
    "JudgeAgreement",
    "JudgeWorth",
    "PositionBias",
    "RankResult",
    "Ranking",
    "RepeatPlan",
    "RepeatRow",
]

#: the rows and columns of :attr:`JudgeAgreement.table`: the comparison's first model (in name
#: order) won, its second model won, a tie
OUTCOME_ROWS = ("first", "second", "tie")


@dataclasses.dataclass(frozen=True, repr=False)
class Estimates(Result):
    """One family of estimates — win rates or Bradley–Terry strengths — in one ranking.

    Parameters
    ----------
    kind : str
        ``"win_rate"`` or ``"strength"``.
    status : str
        ``"ok"``; strengths: ``"disconnected"`` (the human votes leave groups of models that were never
        compared), ``"separated"`` (a model won, or lost, every comparison with some group: no finite
        strength), both fitted on the largest group; ``"not_converged"``; ``"no_estimates"``.
    rows : tuple of ModelRow
        One row per model, in name order.
    order : tuple of str
        The estimable models, best first.
    critical_value : float or None
        c of the simultaneous intervals (θ̂_i − θ̂_j ± c·se_ij for every pair at once).
    simultaneous : str
        How c was found: ``"max_z"`` (simulated from the joint normal) or ``"bonferroni"``.
    covariance_models : tuple of str
        The models of ``covariance``, in name order.
    covariance : numpy.ndarray
        The joint covariance of their estimates.
    pairs : PairTable
        Every pair of estimable models.
    adjacent : tuple of Separation
        Each model and the one right below it in ``order``.
    effective_votes : float or None
        With judges: the human votes a human-only estimate would need for the same total variance
        (summed over the models both estimate).
    saving : float or None
        ``effective_votes`` / human votes.
    groups : tuple of tuple of str
        Strengths: the groups of models the human votes connect both ways (largest first), when
        there is more than one.
    iterations : int
        Strengths: Newton steps taken (0 for win rates).

    Examples
    --------
    >>> from humanly.ranking.result_parts import RankSet
    >>> row = ModelRow("a", 0.6, 0.02, Interval(0.56, 0.64), None, 1, RankSet(1, 1), 500, 500, 0,
    ...                (), None, ())
    >>> pairs = PairTable((), (), np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0),
    ...                   np.zeros(0), None, None, None, ())
    >>> e = Estimates("win_rate", "ok", (row,), ("a",), None, "max_z", ("a",), np.eye(1) * 4e-4,
    ...               pairs, (), None, None, (), 0)
    >>> e.row("a").estimate
    0.6
    """

    kind: str
    status: str
    rows: tuple[ModelRow, ...]
    order: tuple[str, ...]
    critical_value: float | None
    simultaneous: str
    covariance_models: tuple[str, ...]
    covariance: np.ndarray
    pairs: PairTable
    adjacent: tuple[Separation, ...]
    effective_votes: float | None
    saving: float | None
    groups: tuple[tuple[str, ...], ...]
    iterations: int

    def row(self, model: str) -> ModelRow:
        """The row of ``model``.

        Raises
        ------
        KeyError
            No such model.
        """
        for r in self.rows:
            if r.model == model:
                return r
        raise KeyError(f"no model {model!r}")

    def to_frame(self) -> pd.DataFrame:
        """One row per model, best first (models without an estimate last)."""
        rank = {m: k for k, m in enumerate(self.order)}
        rows = sorted(self.rows, key=lambda r: (rank.get(r.model, len(rank)), r.model))
        out = []
        for r in rows:
            out.append(
                {
                    "model": r.model,
                    "estimate": r.estimate,
                    "se": r.se,
                    "low": r.interval.low,
                    "high": r.interval.high,
                    **({"elo": r.elo} if self.kind == "strength" else {}),
                    "rank": r.rank,
                    "rank_low": r.rank_set.low if r.rank_set else None,
                    "rank_high": r.rank_set.high if r.rank_set else None,
                    "comparisons": r.comparisons,
                    "votes": r.votes,
                    "effective_votes": r.effective_votes,
                    "codes": ", ".join(r.codes),
                }
            )
        return pd.DataFrame(out)


@dataclasses.dataclass(frozen=True, repr=False)
class Ranking(Result):
    """Win rates and strengths from one source of evidence: the human votes alone
    (``judges=()``), or with one judge or several.

    Parameters
    ----------
    judges : tuple of str
        The judges used (empty: the humans alone).
    estimator : str
        ``"classical"`` (λ = 0), ``"ppi"`` (λ = 1, or 1/J each) or ``"ppi++"`` (λ tuned).
    comparisons : int
        Human-voted comparisons.
    votes : int
        Human votes.
    unlabelled : int
        Judge-only comparisons used (every judge of the ranking voted on them).
    lam : tuple of float
        The strengths' λ per judge.
    win_rate, strength : Estimates
        The two families.

    Examples
    --------
    >>> Ranking.__name__
    'Ranking'
    """

    judges: tuple[str, ...]
    estimator: str
    comparisons: int
    votes: int
    unlabelled: int
    lam: tuple[float, ...]
    win_rate: Estimates
    strength: Estimates

    @property
    def name(self) -> str:
        """``"human"``, or the judges joined by ``+``."""
        return "+".join(self.judges) if self.judges else "human"


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


@dataclasses.dataclass(frozen=True, repr=False)
class RepeatRow(Result):
    """One design: ``votes_per_comparison`` votes on each of ``comparisons`` comparisons, for the
    same budget of human votes.

    Parameters
    ----------
    votes_per_comparison : int
        m.
    comparisons : int
        budget // m.
    variance_ratio : float or None
        The variance of an estimate that averages the m votes of each comparison, over that of one
        vote on each of m times as many comparisons: 1 + (m − 1)·ICC (exact; ``None`` when the ICC is
        not identified).
    variance_ratio_range : Interval
        What the ratio can be whatever the ICC: [1, m].
    probability_correct : float or None
        Under Dorner & Hardt's model (each vote names the truly better answer with probability q,
        ties with probability t), the probability that the higher of the two closest models wins
        their head-to-head when each comparison's m votes are combined by majority (exact, binomial).

    Examples
    --------
    >>> RepeatRow(3, 1000, 1.4, Interval(1.0, 3.0), 0.91).comparisons
    1000
    """

    votes_per_comparison: int
    comparisons: int
    variance_ratio: float | None
    variance_ratio_range: Interval
    probability_correct: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class RepeatPlan(Result):
    """One vote per comparison, or several (*Don't Label Twice*, Dorner & Hardt 2024, in the pairwise
    setting), for a budget of human votes.

    Parameters
    ----------
    status : str
        ``"identified"`` (comparisons with several human votes measure the noise of a vote),
        ``"not_identified"`` (one vote per comparison: the noise cannot be told from real
        disagreement; the paper's theorem still says one vote each is best when a vote is better
        than chance).
    method : str
        ``"exact"``: the variance ratios are exact for averaged votes (variance components), the
        probabilities exact binomial sums under the paper's model.
    budget : int
        The human votes planned for.
    icc : float or None
        The intra-comparison correlation of human votes (one-way ANOVA on the comparisons with
        several votes).
    repeated : int
        Comparisons with two or more human votes.
    accuracy : float or None
        q: a decisive vote's chance of naming the better answer, from the agreement of two decisive
        votes on one comparison (q² + (1 − q)²).
    tie_share : float
        t: the share of human votes that are ties.
    higher, lower : str or None
        The two closest models of the human-only strengths (the head-to-head the probabilities are
        about).
    rows : tuple of RepeatRow
        One per number of votes per comparison.

    Examples
    --------
    >>> RepeatPlan("not_identified", "exact", 1000, None, 0, None, 0.3, "a", "b", ()).status
    'not_identified'
    """

    status: str
    method: str
    budget: int
    icc: float | None
    repeated: int
    accuracy: float | None
    tie_share: float
    higher: str | None
    lower: str | None
    rows: tuple[RepeatRow, ...]


@dataclasses.dataclass(frozen=True, repr=False)
class RankResult(Result):
    """Models ranked from pairwise votes (:func:`humanly.rank`).

    Parameters
    ----------
    ties : str
        How a tie counts: ``"half"``, ``"loss"`` or ``"drop"`` (strengths treat ``"loss"`` as
        ``"drop"``).
    level : float
        The level of every interval and rank-set.
    estimator : str
        The judge-assisted estimator: ``"ppi++"``, ``"ppi"`` or ``"classical"``.
    seed : int or None
        The seed of the simulated critical values.
    models : tuple of str
        Every model, in name order.
    comparisons : int
        Every comparison (human-voted or judge-only).
    labelled : int
        Human-voted comparisons.
    votes : int
        Human votes.
    judges : tuple of str
        The judges, in the order given.
    rankings : tuple of Ranking
        The humans alone first, then each judge alone, then every judge together (two or more).
    judge_worth : tuple of JudgeWorth
        One per judge.
    repeat : RepeatPlan
        One vote per comparison or several.
    flags : tuple of Flag
        Reason codes about the study (few votes, models without votes, a disconnected graph, what the
        join dropped …).

    Examples
    --------
    >>> RankResult.__name__
    'RankResult'
    """

    ties: str
    level: float
    estimator: str
    seed: int | None
    models: tuple[str, ...]
    comparisons: int
    labelled: int
    votes: int
    judges: tuple[str, ...]
    rankings: tuple[Ranking, ...]
    judge_worth: tuple[JudgeWorth, ...]
    repeat: RepeatPlan
    flags: tuple[Flag, ...] = ()

    @property
    def human(self) -> Ranking:
        """The ranking from the human votes alone."""
        return self.rankings[0]

    @property
    def best(self) -> Ranking:
        """The ranking with every judge (the humans alone without judges)."""
        return self.rankings[-1]

    def ranking(self, judges: str | tuple[str, ...] = ()) -> Ranking:
        """The ranking with exactly these judges (``()``: the humans alone).

        Raises
        ------
        KeyError
            No ranking uses those judges.
        """
        want = (judges,) if isinstance(judges, str) else tuple(judges)
        for r in self.rankings:
            if set(r.judges) == set(want):
                return r
        raise KeyError(
            f"no ranking with judges {want!r}; rankings: {[r.name for r in self.rankings]}"
        )

    def judge(self, name: str) -> JudgeWorth:
        """What the judge called ``name`` is worth.

        Raises
        ------
        KeyError
            No such judge.
        """
        for j in self.judge_worth:
            if j.judge == name:
                return j
        raise KeyError(f"no judge {name!r}; judges are {list(self.judges)}")

    def to_frame(self) -> pd.DataFrame:
        """One row per ranking, family and model."""
        parts = []
        for r in self.rankings:
            for e in (r.win_rate, r.strength):
                f = e.to_frame()
                f.insert(0, "kind", e.kind)
                f.insert(0, "ranking", r.name)
                parts.append(f)
        return pd.concat(parts, ignore_index=True)
