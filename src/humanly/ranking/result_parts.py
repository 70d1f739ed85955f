"""The parts of a :class:`~humanly.ranking.RankResult`: frozen, typed values with no prose — every
status is a code (listed in docs/rank.md with what its sentence says) and every number a view needs
is a field.

* :class:`RankSet` — the ranks a model may hold, simultaneous over the models;
* :class:`ModelRow` — one model's win rate or strength, its interval, rank and rank-set;
* :class:`PairTable` — every pair "A beats B": the difference, its marginal and simultaneous
  intervals, a status code (columns, one entry per pair);
* :class:`Separation` — two models adjacent in the order: separated or not, and the human votes
  needed to separate them; :class:`SeparationPoint` — the planning curve (adjacent pairs separated
  against human votes);
* :class:`Flag` — a reason code with the models and count it is about;
* :class:`RepeatRow`, :class:`RepeatPlan` — one vote per comparison or several (*Don't Label Twice*).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .._core.result import Interval, Result
from .repeat_results import JudgeRepeat, SimulatedOrder

__all__ = [
    "Flag",
    "ModelRow",
    "PairTable",
    "RankSet",
    "RepeatPlan",
    "RepeatRow",
    "Separation",
    "SeparationPoint",
]


@dataclasses.dataclass(frozen=True)
class RankSet:
    """The ranks a model may hold, ``low`` (best) to ``high`` (worst), 1 = first.

    Parameters
    ----------
    low, high : int
        The best and the worst rank of the set.

    Examples
    --------
    >>> r = RankSet(2, 3)
    >>> r.size, 2 in r, 1 in r
    (2, True, False)
    """

    low: int
    high: int

    def __contains__(self, rank: object) -> bool:
        return isinstance(rank, int) and self.low <= rank <= self.high

    @property
    def size(self) -> int:
        """How many ranks the set holds.

        Examples
        --------
        >>> RankSet(1, 4).size
        4
        """
        return self.high - self.low + 1

    @property
    def ranks(self) -> range:
        """The ranks, as a range.

        Examples
        --------
        >>> list(RankSet(2, 3).ranks)
        [2, 3]
        """
        return range(self.low, self.high + 1)


@dataclasses.dataclass(frozen=True)
class Flag:
    """A reason code, and what it is about.

    Parameters
    ----------
    code : str
        The reason (docs/rank.md lists every code and what its sentence says).
    models : tuple of str
        The models concerned (empty: the whole study).
    count : int or None
        A count the sentence quotes (votes, comparisons), when there is one.
    source : str
        The source concerned (``"human"`` or a judge's name), when it matters.

    Examples
    --------
    >>> Flag("few_votes", ("gpt-4",), 12).code
    'few_votes'
    """

    code: str
    models: tuple[str, ...] = ()
    count: int | None = None
    source: str = ""


@dataclasses.dataclass(frozen=True, repr=False)
class ModelRow(Result):
    """One model's win rate or strength in one ranking.

    Parameters
    ----------
    model : str
        The model.
    estimate : float or None
        Its win rate (in [0, 1]) or strength (natural-log scale, centred); ``None`` when not estimable
        (see ``codes``).
    se : float or None
        The standard error.
    interval : Interval
        The marginal CLT interval at the result's ``level`` (win rates clipped to [0, 1]).
    elo : float or None
        Strengths only: 1000 + 400·strength/ln 10, the Elo scale (an Elo point is a tenth of a
        logistic unit in base 10; 1000 is the average model).
    rank : int or None
        The rank of the estimate (1 = best; equal estimates share the better rank).
    rank_set : RankSet or None
        The ranks the model may hold, simultaneously for every model at ``level``.
    comparisons : int
        Human-voted comparisons that involve the model.
    votes : int
        Human votes on them.
    unlabelled : int
        Judge-only comparisons that involve the model (used with judges).
    lam : tuple of float
        λ per judge (win rates: tuned per model; strengths: one λ for the fit).
    effective_votes : float or None
        With judges: the human votes a human-only estimate would need for the same variance
        (``votes`` × human-only variance / this variance).
    codes : tuple of str
        Reasons about this model: ``no_human_votes``, ``too_few_votes``, ``few_votes``,
        ``no_decisive_votes``, ``no_unlabelled``, ``not_fitted``.

    Examples
    --------
    >>> row = ModelRow("a", 0.6, 0.02, Interval(0.56, 0.64), None, 1, RankSet(1, 2), 500, 500, 0,
    ...                (), None, ())
    >>> row.rank_set.size
    2
    """

    model: str
    estimate: float | None
    se: float | None
    interval: Interval
    elo: float | None
    rank: int | None
    rank_set: RankSet | None
    comparisons: int
    votes: int
    unlabelled: int
    lam: tuple[float, ...]
    effective_votes: float | None
    codes: tuple[str, ...]


#: the pairwise statuses, from the simultaneous interval of first − second
PAIR_STATUSES = ("first_better", "second_better", "unresolved")


@dataclasses.dataclass(frozen=True, repr=False)
class PairTable(Result):
    """Every pair of ranked models, "first beats second": one entry per pair, as columns.

    Parameters
    ----------
    first, second : tuple of str
        The two models of each pair (``first`` before ``second`` in name order).
    difference : numpy.ndarray
        estimate(first) − estimate(second).
    se : numpy.ndarray
        Its standard error, from the joint covariance.
    low, high : numpy.ndarray
        The marginal interval at ``level``.
    simultaneous_low, simultaneous_high : numpy.ndarray
        The interval that holds for every pair at once (the rank-sets' critical value).
    probability : numpy.ndarray or None
        Strengths only: σ(difference), the probability that ``first`` wins a comparison (ties half),
        and its marginal interval ``probability_low``, ``probability_high``.
    probability_low, probability_high : numpy.ndarray or None
        See ``probability``.
    status : tuple of str
        ``first_better``, ``second_better`` or ``unresolved`` (the simultaneous interval).

    Examples
    --------
    >>> t = PairTable(("a",), ("b",), np.array([0.1]), np.array([0.02]), np.array([0.06]),
    ...               np.array([0.14]), np.array([0.05]), np.array([0.15]), None, None, None,
    ...               ("first_better",))
    >>> t.to_frame()[["first", "second", "status"]].values.tolist()
    [['a', 'b', 'first_better']]
    """

    first: tuple[str, ...]
    second: tuple[str, ...]
    difference: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    simultaneous_low: np.ndarray
    simultaneous_high: np.ndarray
    probability: np.ndarray | None
    probability_low: np.ndarray | None
    probability_high: np.ndarray | None
    status: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.first)

    def to_frame(self) -> pd.DataFrame:
        """One row per pair."""
        out: dict[str, object] = {
            "first": list(self.first),
            "second": list(self.second),
            "difference": self.difference,
            "se": self.se,
            "low": self.low,
            "high": self.high,
            "simultaneous_low": self.simultaneous_low,
            "simultaneous_high": self.simultaneous_high,
        }
        if self.probability is not None:
            out["probability"] = self.probability
            out["probability_low"] = self.probability_low
            out["probability_high"] = self.probability_high
        out["status"] = list(self.status)
        return pd.DataFrame(out)

    def pair(self, first: str, second: str) -> dict[str, object]:
        """The entry of one pair, in either order: the numbers are for ``first`` − ``second``.

        Parameters
        ----------
        first, second : str
            The two models.

        Returns
        -------
        dict
            ``first``, ``second``, ``difference``, ``se``, ``interval`` and
            ``simultaneous_interval`` (:class:`~humanly.Interval`), ``status``.

        Raises
        ------
        KeyError
            The pair is not in the table.

        Examples
        --------
        >>> t = PairTable(("a",), ("b",), np.array([0.1]), np.array([0.02]), np.array([0.06]),
        ...               np.array([0.14]), np.array([0.05]), np.array([0.15]), None, None, None,
        ...               ("first_better",))
        >>> e = t.pair("b", "a")
        >>> e["difference"], e["status"], e["interval"].high
        (-0.1, 'second_better', -0.06)
        """
        for k, (a, b) in enumerate(zip(self.first, self.second, strict=True)):
            if (a, b) in ((first, second), (second, first)):
                sign = 1.0 if a == first else -1.0
                status = self.status[k]
                if sign < 0 and status != "unresolved":
                    status = "second_better" if status == "first_better" else "first_better"
                low, high = sorted((sign * self.low[k], sign * self.high[k]))
                s_low, s_high = sorted(
                    (sign * self.simultaneous_low[k], sign * self.simultaneous_high[k])
                )
                return {
                    "first": first,
                    "second": second,
                    "difference": sign * float(self.difference[k]),
                    "se": float(self.se[k]),
                    "interval": Interval(float(low), float(high)),
                    "simultaneous_interval": Interval(float(s_low), float(s_high)),
                    "status": status,
                }
        raise KeyError(f"no pair {first!r}, {second!r}")


@dataclasses.dataclass(frozen=True, repr=False)
class Separation(Result):
    """Two models next to each other in the order of the estimates, and what separating them takes.

    Parameters
    ----------
    higher, lower : str
        The model ranked above, and the one below.
    difference : float
        estimate(higher) − estimate(lower) (≥ 0).
    se : float
        Its standard error.
    separated : bool
        Whether the simultaneous interval of the difference is above 0 (their rank-sets no longer
        force them to share a rank).
    votes_needed : int or None
        Human votes (in all, spread over the comparisons as now) for the simultaneous interval to
        exclude 0 with probability ``power``; ``None`` when the estimates are equal.
    votes_needed_pairwise : int or None
        The same for the pair's own (marginal) interval at ``level``.

    Examples
    --------
    >>> Separation("a", "b", 0.05, 0.02, False, 3200, 1700).votes_needed
    3200
    """

    higher: str
    lower: str
    difference: float
    se: float
    separated: bool
    votes_needed: int | None
    votes_needed_pairwise: int | None


@dataclasses.dataclass(frozen=True, repr=False)
class SeparationPoint(Result):
    """One point of the planning curve: with ``votes`` human votes (spread over the pairs as now),
    how many adjacent pairs the rank-sets are expected to separate, the estimates taken as the truth.

    Parameters
    ----------
    votes : int
        Human votes in all.
    separated : float
        Σ_k Φ(abs(Δ_k)/se_k(votes) − c) over the adjacent pairs k: the expected number whose simultaneous
        interval excludes 0.
    share : float
        ``separated`` over the number of adjacent pairs.

    Examples
    --------
    >>> SeparationPoint(2000, 3.4, 0.18).share
    0.18
    """

    votes: int
    separated: float
    share: float


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
    variance_ratio_interval : Interval
        What the ratio can be whatever the ICC: [1, m].
    probability_correct : float or None
        Under Dorner & Hardt's model (each vote names the truly better answer with probability q,
        ties with probability t), the probability that the higher of the two closest models wins
        their head-to-head when each comparison's m votes are combined by majority (exact, binomial).
    simulated : SimulatedOrder or None
        The human-only rankings of this design in the plan's seeded simulation (m votes averaged per
        comparison, as :func:`~humanly.ranking.rank` averages them); ``None``: not simulated.

    Examples
    --------
    >>> RepeatRow(3, 1000, 1.4, Interval(1.0, 3.0), 0.91).comparisons
    1000
    """

    votes_per_comparison: int
    comparisons: int
    variance_ratio: float | None
    variance_ratio_interval: Interval
    probability_correct: float | None
    simulated: SimulatedOrder | None = None


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
        probabilities exact binomial sums under the paper's model; ``"exact_and_simulated"``: the
        same, and the ``simulated`` fields of the rows come from the seeded simulation.
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
    judges : tuple of JudgeRepeat
        Per judge: the exact variance ratio of the judge-assisted estimate and its simulated
        rankings.
    simulation : str
        ``"identified"`` (simulated with the accuracy q measured on repeated votes),
        ``"least_accurate"`` (q not identified: simulated at the least accurate votes the fitted
        strengths allow, the case most favourable to several votes), ``"off"``
        (``RankOptions.repeat_simulations=0``, the classical estimator for the judges, or votes no
        better than chance), ``"no_pair"`` (fewer than two models with a strength).
    simulations : int
        Replicates per design (0: not simulated).
    simulated_accuracy : float or None
        The q the simulation used.
    simulated_models : tuple of str
        The models simulated: all the fitted ones, or at most ten around the two closest (their
        pairs, and the share of the budget that falls on them).
    seed : int or None
        The seed of the simulation (the ranking's ``seed``).

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
    judges: tuple[JudgeRepeat, ...] = ()
    simulation: str = "off"
    simulations: int = 0
    simulated_accuracy: float | None = None
    simulated_models: tuple[str, ...] = ()
    seed: int | None = None
