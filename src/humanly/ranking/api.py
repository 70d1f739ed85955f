"""``rank(votes, judges=...)``: models ranked from pairwise votes — a few human votes, judges on many
comparisons — as a sequence of named steps: check the arguments, join the votes by comparison id
(:func:`humanly.data.join_votes`), sum them per pair of models (:mod:`._design`), estimate win rates
(:mod:`._winrate`) and strengths (:mod:`._bt`) for the humans alone, each judge and every judge
together, turn each into rank-sets (:mod:`._ranksets`, :mod:`._estimates`), measure each judge
(:mod:`._judges`) and plan (:mod:`._repeat`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np

from .._core.checks import check_choice, check_int, check_probability
from ..data.matching import check_missing
from ..data.types import JudgeVotesLike, VotesLike
from ..data.votes import VoteStudy
from ..errors import InputError
from ._bt import component, strengths
from ._design import Design, design
from ._estimates import Family, Settings, build
from ._judges import agreement, frontier, position_bias
from ._repeat import repeat_plan
from ._weights import comparison_weights
from ._winrate import win_rates
from .judge_results import JudgeWorth
from .result_parts import Flag
from .results import Ranking, RankResult

__all__ = ["ESTIMATORS", "TIES", "RankOptions", "rank", "rank_study"]

TIES = ("half", "loss", "drop")
ESTIMATORS = ("ppi++", "ppi", "classical")
#: below this many human-voted comparisons the study is flagged (CLT intervals may cover less)
FEW_COMPARISONS = 100


@dataclasses.dataclass(frozen=True)
class RankOptions:
    """The rarer knobs of :func:`rank` (and of :func:`~humanly.ranking.select`).

    Parameters
    ----------
    draws : int
        Normal vectors drawn for each simultaneous critical value (the quantile of the largest
        standardised difference); 0 uses Bonferroni's. Default 4000.
    power : float
        The chance of separating two models that the votes needed are planned for. Default 0.8.
    probabilities : pandas.Series or ComparisonSelection, optional
        The active design: each comparison's probability of having been sent to human voters
        (indexed by comparison id); every judge-only comparison needs one, a human-voted comparison
        without one was sent for sure. The estimates are then inverse-probability weighted.
    budget : int, optional
        The human votes the one-vote-or-several plan is for (default: the human votes given).
    votes_per_comparison : tuple of int
        The designs that plan compares. Default (1, 3, 5).
    combine : bool
        With two or more judges, also rank with every judge together. Default True.
    repeat_simulations : int
        Replicates per design of the one-vote-or-several plan's seeded simulation (how often each
        design orders the models right, human only and with each judge); 0 turns it off. Default
        50 (Monte Carlo standard errors up to 0.07 on a probability, about 0.01 on the share of
        pairs ordered right; about 0.07 s on the 10⁶-comparison benchmark).
    mixing, max_probability : float
        :func:`~humanly.ranking.select`: the share of the budget spread uniformly (default 0.5), and
        the largest probability (default 0.9).

    Examples
    --------
    >>> RankOptions(draws=0).draws
    0
    """

    draws: int = 4000
    power: float = 0.8
    probabilities: Any = None
    budget: int | None = None
    votes_per_comparison: tuple[int, ...] = (1, 3, 5)
    combine: bool = True
    mixing: float = 0.5
    max_probability: float = 0.9
    repeat_simulations: int = 50


def checked_options(options: Any) -> RankOptions:
    """``options`` itself (or the defaults for ``None``); ``TypeError`` for anything else."""
    if options is None:
        return RankOptions()
    if not isinstance(options, RankOptions):
        raise TypeError(
            f"options={type(options).__name__}: give a humanly.ranking.RankOptions (or leave it out)"
        )
    check_int("options.draws", options.draws, minimum=0)
    check_probability("options.power", options.power, open_low=True, open_high=True)
    check_int("options.budget", options.budget, minimum=1, allow_none=True)
    for m in options.votes_per_comparison:
        check_int("options.votes_per_comparison", m, minimum=1)
    check_int("options.repeat_simulations", options.repeat_simulations, minimum=0)
    check_probability("options.mixing", options.mixing)
    check_probability(
        "options.max_probability", options.max_probability, open_low=True, open_high=True
    )
    return options


def as_study(votes: Any, judges: Any, missing: str) -> VoteStudy:
    """The joined study: ``votes`` itself when it is one (then ``judges`` must be left out)."""
    from ..data import join_votes

    if isinstance(votes, VoteStudy):
        if judges is not None:
            raise InputError(
                "judges: votes is already a joined VoteStudy, which holds its judges; give the "
                "human votes instead, or leave judges out"
            )
        return votes
    return join_votes(votes, judges, missing=missing)


def rank(
    votes: VotesLike,
    *,
    judges: JudgeVotesLike | None = None,
    ties: Literal["half", "loss", "drop"] = "half",
    level: float = 0.95,
    estimator: Literal["ppi++", "ppi", "classical"] = "ppi++",
    missing: Literal["error", "drop"] = "error",
    seed: int | None = 0,
    options: RankOptions | None = None,
) -> RankResult:
    """Rank models from pairwise votes: win rates, Bradley–Terry strengths and rank-sets, from human
    votes alone and with judges.

    A *comparison* is one prompt answered by two models; a *vote* says which answer is better, or
    that they tie. Comparisons with a human vote are the labelled ones; a judge (an LLM) may also
    vote on comparisons no human saw. Prediction-powered inference (PPI++) uses the judges' votes
    without trusting them: the estimates stay unbiased however good the judge, and the intervals
    narrow when it agrees with the humans.

    Parameters
    ----------
    votes : path, DataFrame, Votes or VoteStudy
        The human votes: comparison id, model A, model B, outcome (``model_a``, ``model_b``, a tie;
        see :func:`humanly.data.read_votes`), or a study already joined.
    judges : mapping, sequence, path, DataFrame or Votes, optional
        Each judge's votes, joined by comparison id: ``{"name": votes, ...}``.
    ties : {"half", "loss", "drop"}
        A tie counts half a win for each model, a loss for both, or not at all. Strengths count a
        tie as half a win each with ``"half"`` and leave ties out otherwise.
    level : float
        The level of every interval and rank-set (default 0.95).
    estimator : {"ppi++", "ppi", "classical"}
        With judges: λ tuned (PPI++), λ = 1 (PPI), or the human votes only.
    missing : {"error", "drop"}
        Human-voted comparisons a judge did not vote on (and judge votes on unknown comparisons): an
        error, or dropped.
    seed : int or None
        The seed of the simulated critical values.
    options : RankOptions, optional
        Simulation draws, power, the active design's probabilities, the plan's budget.

    Returns
    -------
    RankResult

    Raises
    ------
    InputError
        Bad votes (a model compared with itself, an unknown outcome, a judge vote for an unknown
        comparison, …), fewer than 2 human-voted comparisons, a bad argument.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> strength = {"a": 1.0, "b": 0.5, "c": 0.0}
    >>> pairs = rng.choice([("a", "b"), ("a", "c"), ("b", "c")], 3000)
    >>> p = [1 / (1 + np.exp(strength[y] - strength[x])) for x, y in pairs]
    >>> wins = rng.random(3000) < np.array(p)
    >>> human = pd.DataFrame({"id": range(3000), "model_a": pairs[:, 0], "model_b": pairs[:, 1],
    ...                       "winner": np.where(wins, "model_a", "model_b")})
    >>> res = rank(human.iloc[:600], judges={"llm": human.assign(winner=np.where(
    ...     rng.random(3000) < 0.8, human["winner"], "tie"))})
    >>> res.human.strength.order, [r.name for r in res.rankings]
    (('a', 'b', 'c'), ['human', 'llm'])
    >>> res.best.strength.row("a").rank_set
    RankSet(low=1, high=1)
    """
    level = float(check_probability("level", level, open_low=True, open_high=True))
    check_choice("ties", ties, TIES)
    check_choice("estimator", estimator, ESTIMATORS)
    missing = check_missing(missing)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    opts = checked_options(options)
    study = as_study(votes, judges, missing)
    return rank_study(study, ties=ties, level=level, estimator=estimator, seed=seed, options=opts)


def rank_study(
    study: VoteStudy,
    *,
    ties: str = "half",
    level: float = 0.95,
    estimator: str = "ppi++",
    seed: int | None = 0,
    options: RankOptions | None = None,
) -> RankResult:
    """:func:`rank` on a joined :class:`~humanly.data.VoteStudy` (arguments already checked).

    Parameters
    ----------
    study : VoteStudy
        The votes, joined.
    ties, level, estimator, seed, options
        As for :func:`rank`.

    Returns
    -------
    RankResult

    Raises
    ------
    InputError
        Fewer than 2 human-voted comparisons.

    Examples
    --------
    >>> import pandas as pd
    >>> from humanly.data import join_votes
    >>> frame = pd.DataFrame({"id": range(4), "model_a": ["x", "y", "x", "y"],
    ...                       "model_b": ["y", "x", "y", "x"], "winner": ["model_a"] * 4})
    >>> rank_study(join_votes(frame)).human.strength.status  # each won once from each side
    'ok'
    """
    opts = checked_options(options)
    labelled = int((study.human.counts(study.n_comparisons) > 0).sum())
    if labelled < 2:
        raise InputError(
            f"votes: {labelled} human-voted comparison(s); ranking needs at least 2 (give more human "
            "votes)"
        )
    d = design(study, comparison_weights(study, opts.probabilities))
    main, groups, connected = component(d, ties)
    names = d.models
    group_names = tuple(tuple(names[i] for i in g) for g in groups) if len(groups) > 1 else ()
    bt_status = "ok" if len(groups) <= 1 else ("separated" if connected else "disconnected")
    settings = Settings(level, opts.draws, seed, opts.power, int(study.human.n_votes))
    subsets: list[tuple[int, ...]] = [()]
    if estimator != "classical":
        subsets += [(j,) for j in range(1, len(study.judges) + 1)]
        if opts.combine and len(study.judges) >= 2:
            subsets.append(tuple(range(1, len(study.judges) + 1)))
    rule = {"ppi++": "ppi++", "ppi": "ppi", "classical": "classical"}[estimator]
    rankings: list[Ranking] = []
    human_fams: tuple[Family, Family] | None = None
    votes_m = d.votes_per_model()
    for k, subset in enumerate(subsets):
        fams = _families(
            d, subset, rule if subset else "classical", ties, main, votes_m, bt_status, group_names
        )
        if human_fams is None:
            human_fams = fams
        win = build(fams[0], names, settings, 2 * k, None if not subset else human_fams[0])
        strength = build(fams[1], names, settings, 2 * k + 1, None if not subset else human_fams[1])
        unl = int(d.unlabelled_mask(subset).sum())
        rankings.append(
            Ranking(
                judges=tuple(study.judges[j - 1].name for j in subset),
                estimator=estimator if subset else "classical",
                comparisons=labelled,
                votes=settings.votes,
                unlabelled=unl,
                lam=tuple(float(x) for x in fams[1].lam),
                win_rate=win,
                strength=strength,
            )
        )
    worth = tuple(_worth(d, j, level, rankings, estimator) for j in range(1, len(study.judges) + 1))
    budget = opts.budget or settings.votes
    return RankResult(
        ties=ties,
        level=level,
        estimator=estimator,
        seed=seed,
        models=names,
        comparisons=study.n_comparisons,
        labelled=labelled,
        votes=settings.votes,
        judges=study.judge_names,
        rankings=tuple(rankings),
        judge_worth=worth,
        repeat=repeat_plan(
            d,
            rankings[0].strength,
            budget,
            tuple(opts.votes_per_comparison),
            ties=ties,
            rule=rule,
            simulations=opts.repeat_simulations,
            seed=seed,
            agreements=tuple(w.agreement.decisive_rate for w in worth),
        ),
        flags=_flags(d, study, labelled, ties, bt_status, group_names, rankings[0]),
    )


def _families(
    d: Design,
    subset: tuple[int, ...],
    rule: str,
    ties: str,
    main: np.ndarray,
    votes_m: np.ndarray,
    bt_status: str,
    groups: tuple[tuple[str, ...], ...],
) -> tuple[Family, Family]:
    wr = win_rates(d, subset, rule, ties)
    st = strengths(d, subset, rule, ties, main)
    status = bt_status if st.converged else "not_converged"
    st_codes = tuple(
        (*codes, "not_fitted") if not main[k] and "no_human_votes" not in codes else codes
        for k, codes in enumerate(wr.codes)
    )
    st_codes = tuple(tuple(c for c in codes if c != "no_unlabelled") for codes in st_codes)
    ok_st = np.isfinite(st.point)
    return (
        Family("win_rate", wr.point, wr.cov, wr.ok, wr.lam, wr.n, votes_m, wr.big_n, wr.codes),
        Family(
            "strength",
            st.point,
            st.cov,
            ok_st,
            st.lam,
            wr.n,
            votes_m,
            wr.big_n,
            st_codes,
            status,
            groups,
            st.iterations,
        ),
    )


def _worth(d: Design, j: int, level: float, rankings: list[Ranking], estimator: str) -> JudgeWorth:
    name = d.study.judges[j - 1].name
    single = next((r for r in rankings if r.judges == (name,)), None)
    saving = np.full(d.n_models, np.nan)
    if single is not None:
        for k, row in enumerate(single.win_rate.rows):
            if row.effective_votes is not None and row.votes:
                saving[k] = row.effective_votes / row.votes
    both = d.labelled & d.judged[:, j - 1]
    return JudgeWorth(
        judge=name,
        comparisons=int(both.sum()),
        unlabelled=int(d.unlabelled_mask((j,)).sum()),
        agreement=agreement(d, j, level),
        position=position_bias(d, j, level),
        frontier=frontier(d, j, level, saving),
        effective_votes_win_rate=single.win_rate.effective_votes if single else None,
        effective_votes_strength=single.strength.effective_votes if single else None,
        saving_win_rate=single.win_rate.saving if single else None,
        saving_strength=single.strength.saving if single else None,
    )


def _flags(
    d: Design,
    study: VoteStudy,
    labelled: int,
    ties: str,
    bt_status: str,
    groups: tuple[tuple[str, ...], ...],
    human: Ranking,
) -> tuple[Flag, ...]:
    out = [Flag(n.code, (), n.count, n.source) for n in study.notes]
    if labelled < FEW_COMPARISONS:
        out.append(Flag("few_comparisons", (), labelled))
    rows = human.win_rate.rows
    for code in ("no_human_votes", "too_few_votes", "few_votes"):
        models = tuple(r.model for r in rows if code in r.codes)
        if models:
            out.append(Flag(code, models))
    if bt_status != "ok":
        out += [Flag(bt_status, g) for g in groups]
    if ties == "loss":
        out.append(Flag("strength_ties_dropped"))
    return tuple(out)
