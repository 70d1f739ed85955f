"""What :func:`~humanly.ranking.rank` returns: frozen, typed values that print, serialise
(``to_dict()`` / ``from_dict()``) and tabulate (``to_frame()``); statuses are codes, never prose.

* :class:`Estimates` — one family (``win_rate`` or ``strength``) of one ranking: a row per model,
  the order, the simultaneous critical value, the pairwise table, the adjacent pairs and their plan;
* :class:`Ranking` — both families from one source of evidence (the humans alone, or with judges);
* :class:`RankResult` — all of it, with what each judge is worth (:mod:`.judge_results`) and one vote
  per comparison or several (:class:`~.result_parts.RepeatPlan`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .._core.result import Result
from .judge_results import JudgeWorth
from .result_parts import Flag, ModelRow, PairTable, RepeatPlan, Separation, SeparationPoint

__all__ = ["Estimates", "RankResult", "Ranking"]


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
    curve : tuple of SeparationPoint
        The planning curve: adjacent pairs expected to be separated with ½, 1, 2, 4, 8, 16 and 32 times
        the human votes given.

    Examples
    --------
    >>> from humanly import Interval
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
    curve: tuple[SeparationPoint, ...] = ()

    def row(self, model: str) -> ModelRow:
        """The row of ``model``.

        Parameters
        ----------
        model : str
            A model's name.

        Returns
        -------
        ModelRow

        Raises
        ------
        KeyError
            No such model.

        Examples
        --------
        >>> import pandas as pd, humanly
        >>> votes = pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "y", "x"],
        ...                       "model_b": ["y", "x", "y"], "winner": ["model_a", "tie", "model_b"]})
        >>> humanly.rank(votes).human.win_rate.row("x").estimate
        0.5
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
        """``"human"``, or the judges joined by ``+``.

        Examples
        --------
        >>> import pandas as pd, humanly
        >>> votes = pd.DataFrame({"id": [1, 2], "model_a": ["x", "y"], "model_b": ["y", "x"],
        ...                       "winner": ["model_a", "model_a"]})
        >>> [r.name for r in humanly.rank(votes, judges={"llm": votes}).rankings]
        ['human', 'llm']
        """
        return "+".join(self.judges) if self.judges else "human"


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
        """The ranking from the human votes alone.

        Examples
        --------
        >>> import pandas as pd, humanly
        >>> votes = pd.DataFrame({"id": [1, 2, 3, 4], "model_a": ["x", "y", "x", "y"],
        ...                       "model_b": ["y", "x", "y", "x"],
        ...                       "winner": ["model_a", "model_a", "tie", "model_b"]})
        >>> res = humanly.rank(votes.iloc[:2], judges={"llm": votes})
        >>> res.human.judges, res.human.unlabelled
        ((), 0)
        """
        return self.rankings[0]

    @property
    def best(self) -> Ranking:
        """The ranking with every judge (the humans alone without judges).

        Examples
        --------
        >>> import pandas as pd, humanly
        >>> votes = pd.DataFrame({"id": [1, 2, 3, 4], "model_a": ["x", "y", "x", "y"],
        ...                       "model_b": ["y", "x", "y", "x"],
        ...                       "winner": ["model_a", "model_a", "tie", "model_b"]})
        >>> res = humanly.rank(votes.iloc[:2], judges={"llm": votes})
        >>> res.best.judges, res.best.unlabelled
        (('llm',), 2)
        """
        return self.rankings[-1]

    def ranking(self, judges: str | tuple[str, ...] = ()) -> Ranking:
        """The ranking with exactly these judges.

        Parameters
        ----------
        judges : str or tuple of str
            A judge's name, or several (``()``: the humans alone).

        Returns
        -------
        Ranking

        Raises
        ------
        KeyError
            No ranking uses those judges.

        Examples
        --------
        >>> import pandas as pd, humanly
        >>> votes = pd.DataFrame({"id": [1, 2, 3, 4], "model_a": ["x", "y", "x", "y"],
        ...                       "model_b": ["y", "x", "y", "x"],
        ...                       "winner": ["model_a", "model_a", "tie", "model_b"]})
        >>> res = humanly.rank(votes.iloc[:2], judges={"llm": votes})
        >>> res.ranking("llm").estimator
        'ppi++'
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

        Parameters
        ----------
        name : str
            The judge's name.

        Returns
        -------
        JudgeWorth

        Raises
        ------
        KeyError
            No such judge.

        Examples
        --------
        >>> import pandas as pd, humanly
        >>> votes = pd.DataFrame({"id": [1, 2, 3, 4], "model_a": ["x", "y", "x", "y"],
        ...                       "model_b": ["y", "x", "y", "x"],
        ...                       "winner": ["model_a", "model_a", "tie", "model_b"]})
        >>> res = humanly.rank(votes.iloc[:2], judges={"llm": votes})
        >>> res.judge("llm").agreement.comparisons
        2
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
