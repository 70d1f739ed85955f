"""Tables for ``humanly rank``: the ranking (each model's win rate, strength and Elo with their
intervals and rank-sets, the human-only rank-set beside them) and what each judge is worth. Views of
a :class:`~humanly.ranking.RankResult`, whose text comes from :mod:`humanly.verdicts.rank` (the
notebook view shows the same table); no statistics here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..verdicts.rank import ESTIMATOR_NAMES, judges_table, ranking_table
from ..verdicts.rank_repeat import repeat_table
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from ..ranking import RankResult

__all__ = ["render"]

#: columns shown left-aligned (text); the others are numbers
_TEXT = ("model", "judge", "position", "votes")


def _table(title: str, headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> CleanTable:
    t = new_table(title)
    for header in headers:
        t.column(header, justify="left" if header in _TEXT else "right")
    for row in rows:
        t.row(*row)
    return t


def render(r: RankResult) -> tuple[CleanTable, ...]:
    """A table per family (strengths, then win rates), with judges the judges' table, and the
    one-vote-or-several plan."""
    level = f"{round(r.level * 100, 6):g}%"
    how = (
        "human votes only"
        if not r.best.judges
        else f"{ESTIMATOR_NAMES.get(r.best.estimator, r.best.estimator)} with {r.best.name}"
    )
    unl = f" + {r.best.unlabelled:,} judge-only comparisons" if r.best.unlabelled else ""
    human = "; human only: the rank-set from the human votes alone" if r.best.judges else ""
    out = []
    for kind, name in (("strength", "Bradley–Terry strengths"), ("win_rate", "Win rates")):
        t = _table(
            f"{name} · {how} · {r.labelled:,} human-voted comparisons ({r.votes:,} votes){unl}",
            *ranking_table(r, kind),
        )
        t.caption(
            f"rank-set: the ranks a model may hold, for all {len(r.models):,} models at once at "
            f"{level}{human}; ties: {r.ties}"
        )
        out.append(t)
    if r.judge_worth:
        judges = _table("What each judge is worth", *judges_table(r))
        judges.caption(
            f"on the {r.labelled:,} human-voted comparisons: agreement with the human votes (with "
            "ties; decisive: where both named a winner); position: does it favour the answer shown "
            "first; worth: the human votes the estimates with this judge alone are worth"
        )
        out.append(judges)
    plan = r.repeat
    repeat = _table(
        f"One vote per comparison or several · a budget of {plan.budget:,} human votes",
        *repeat_table(r),
    )
    sim = (
        f"; sim.: {plan.simulations:,} seeded replicates per design of the fitted model (win rates "
        f"of {len(plan.simulated_models):,} models), ± one Monte Carlo standard error"
        if plan.simulations
        else ""
    )
    repeat.caption(
        "variance ratio: of m averaged votes per comparison against one vote each (exact; a range "
        f"when not identified); P(closest right): {plan.higher or '—'} above "
        f"{plan.lower or '—'} by each comparison's majority (exact, Dorner & Hardt){sim}"
    )
    out.append(repeat)
    return tuple(out)
