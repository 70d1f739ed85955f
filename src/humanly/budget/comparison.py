"""Which m wins for a budget (section 3, Fig. 2): the exact probability that m-majority labels on
⌊k/m⌋ items identify the better classifier, per m, with the Hoeffding and Cramér lower bounds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._core.checks import check_int
from .._core.result import Result
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_ms,
    check_n,
    check_ties,
    check_vote_ties,
    items_for_budget,
)
from .bounds import cramer_error, hoeffding_error
from .exact import outcome
from .models import Model
from .montecarlo import simulate_win

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Comparison", "ComparisonRow", "compare", "error_probability"]


def error_probability(
    model: Model, m: int, n: int, ties: Ties = "failure", *, vote_ties: VoteTies = "coin"
) -> float:
    """Exact P(c_b not identified) with n items of m-majority labels.

    >>> from humanly.budget import IndependentModel
    >>> round(error_probability(IndependentModel(0.75, 0.1, 0.75), 1, 1500), 6)
    0.000352
    """
    n = check_n(n)
    return outcome(model.gap(m, check_vote_ties(vote_ties)), n).error(ties)


@dataclass(frozen=True, repr=False)
class ComparisonRow(Result):
    """One m: n = ⌊budget/m⌋ items; ``exact`` P(c_b identified), and two *lower bounds* on it:
    ``hoeffding_lower_bound`` = 1 − Hoeffding's error bound (Lemma 1) and ``cramer_lower_bound`` = 1 −
    Cramér's (Lemma 2), 0 when vacuous. JSON also keeps the old keys ``hoeffding`` and ``cramer`` (the
    same lower bounds; also readable as attributes)."""

    m: int
    n: int
    budget: int
    labels_used: int
    label_accuracy: float
    exact: float
    hoeffding_lower_bound: float
    cramer_lower_bound: float
    tie: float
    monte_carlo: float | None = None
    monte_carlo_se: float | None = None

    @property
    def hoeffding(self) -> float:
        """The old name of :attr:`hoeffding_lower_bound` (a lower bound on the win probability)."""
        return self.hoeffding_lower_bound

    @property
    def cramer(self) -> float:
        """The old name of :attr:`cramer_lower_bound` (a lower bound on the win probability)."""
        return self.cramer_lower_bound


@dataclass(frozen=True, repr=False)
class Comparison(Result):
    """Win probabilities of m-majority labelling for one budget (section 3, Fig. 2).

    ``scenario`` is the error model's scenario ("independent" or "correlated"; JSON also ``model``),
    ``params`` the model itself, ``ties`` what a tied comparison ΣG = 0 counts as and ``vote_ties``
    how a tied vote of an even m is settled ("coin", the default, or "failure", Lemma C.1's rule).

    >>> from humanly.budget import IndependentModel
    >>> res = compare(IndependentModel(0.8, 0.01, 0.8), 1500, (1, 3))
    >>> res.to_dict()["scenario"], res.to_frame()[["m", "n"]].values.tolist()
    ('independent', [[1, 1500], [3, 500]])
    """

    scenario: str
    params: Model
    budget: int
    ties: str
    rows: tuple[ComparisonRow, ...]
    best_m: int
    assumption1: bool | None = None
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`ComparisonRow`)."""
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self.rows])


def compare(
    model: Model,
    budget: int,
    m: Sequence[int] | int = (1, 3, 5),
    *,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
    simulate: int = 0,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Comparison:
    """Exact P(ΣᵢGᵢ > 0) for n = ⌊budget/m⌋ items with m-majority labels, per m, with the Hoeffding
    (Lemma 1) and Cramér (Lemma 2) lower bounds; ``simulate=R`` adds a seeded Monte Carlo estimate.

    >>> from humanly.budget import IndependentModel
    >>> res = compare(IndependentModel(0.8, 0.01, 0.8), 1500, (1, 3, 5))
    >>> res.best_m, [round(r.exact, 3) for r in res.rows]
    (1, [0.652, 0.609, 0.588])
    """
    budget = check_budget(budget)
    ms = check_ms(m)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    simulate = check_int("simulate", simulate, minimum=0)
    seed = check_int("seed", seed, minimum=0)
    rows = []
    for mm in ms:
        n = items_for_budget(budget, mm)
        g = model.gap(mm, vote_ties)
        out = outcome(g, n)
        mc = (
            simulate_win(
                model,
                mm,
                n,
                simulate,
                seed=seed,
                ties=ties,
                vote_ties=vote_ties,
                workers=workers,
                scheduler=scheduler,
            )
            if simulate
            else None
        )
        rows.append(
            ComparisonRow(
                m=mm,
                n=n,
                budget=budget,
                labels_used=mm * n,
                label_accuracy=model.label_accuracy(mm, vote_ties),
                exact=out.win_probability(ties),
                hoeffding_lower_bound=max(0.0, 1.0 - hoeffding_error(g, n)),
                cramer_lower_bound=max(0.0, 1.0 - cramer_error(g, n)),
                tie=out.tie,
                monte_carlo=None if mc is None else mc.win,
                monte_carlo_se=None if mc is None else mc.se,
            )
        )
    best = max(rows, key=lambda r: (r.exact, -r.m)).m
    return Comparison(
        scenario=model.scenario,
        params=model,
        budget=budget,
        ties=ties,
        rows=tuple(rows),
        best_m=best,
        assumption1=getattr(model, "assumption1", None),
        vote_ties=vote_ties,
    )
