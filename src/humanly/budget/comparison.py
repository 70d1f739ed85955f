"""Which m wins for a budget (section 3, Fig. 2): the exact probability that m-majority labels on
⌊k/m⌋ items identify the better classifier, per m, with the Hoeffding and Cramér lower bounds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._core.checks import check_int
from .._core.result import Result
from ..errors import InputError, setting
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
from .confusion import ConfusionErrors
from .exact import outcome
from .models import CorrelatedErrors, ErrorModel, IndependentErrors
from .montecarlo import simulate_win

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Comparison", "ComparisonRow", "compare", "error_probability"]


def error_probability(
    error_model: ErrorModel,
    labels_per_item: int,
    n: int,
    ties: Ties = "loss",
    *,
    vote_ties: VoteTies = "coin",
) -> float:
    """Exact P(c_b not identified) with n items of m-majority labels.

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    labels_per_item : int
        Labels per item.
    n : int
        Items.
    ties : {"loss", "half"}
        What a tied comparison ΣG = 0 counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    float
        The error probability.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> round(error_probability(IndependentErrors(0.75, 0.1, 0.75), 1, 1500), 6)
    0.000352
    """
    n = check_n(n)
    gap = error_model.gap(labels_per_item, check_vote_ties(vote_ties))
    return outcome(gap, n).error(ties)


@dataclass(frozen=True, repr=False)
class ComparisonRow(Result):
    """One m of a :class:`Comparison`: the exact win probability and two lower bounds on it.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    n : int
        Items, ⌊budget/m⌋.
    budget : int
        The label budget.
    labels_used : int
        m · n.
    label_accuracy : float
        The accuracy of an m-majority label (where the classifiers disagree, correlated errors).
    exact : float
        The exact P(c_b identified).
    win_hoeffding_bound, win_cramer_bound : float
        1 − Hoeffding's (Lemma 1) and 1 − Cramér's (Lemma 2) upper bound on the error; 0 when vacuous.
    tie : float
        P(ΣG = 0).
    monte_carlo, monte_carlo_se : float, optional
        A Monte Carlo estimate and its standard error (``compare(simulations=R)``).

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, compare
    >>> row = compare(IndependentErrors(0.8, 0.01, 0.8), 1500, (1,)).rows[0]
    >>> row.win_hoeffding_bound <= row.win_cramer_bound <= row.exact
    True
    """

    labels_per_item: int
    n: int
    budget: int
    labels_used: int
    label_accuracy: float
    exact: float
    win_hoeffding_bound: float
    win_cramer_bound: float
    tie: float
    monte_carlo: float | None = None
    monte_carlo_se: float | None = None


@dataclass(frozen=True, repr=False)
class Comparison(Result):
    """Win probabilities of m-majority labelling for one budget (section 3, Fig. 2).

    Parameters
    ----------
    scenario : str
        The error model's scenario, ``"independent"`` or ``"correlated"``.
    params : IndependentErrors, CorrelatedErrors or ConfusionErrors
        The error model itself.
    budget : int
        The label budget.
    ties : {"loss", "half"}
        What a tied comparison ΣG = 0 counts as.
    rows : tuple of ComparisonRow
        One row per m.
    best_labels_per_item : int
        The m with the highest exact win probability (the smaller on a tie).
    assumption1 : bool, optional
        q_b ≥ q_w (correlated errors only).
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> res = compare(IndependentErrors(0.8, 0.01, 0.8), 1500, (1, 3))
    >>> res.to_dict()["scenario"], res.to_frame()[["labels_per_item", "n"]].values.tolist()
    ('independent', [[1, 1500], [3, 500]])
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors | ConfusionErrors
    budget: int
    ties: str
    rows: tuple[ComparisonRow, ...]
    best_labels_per_item: int
    assumption1: bool | None = None
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`ComparisonRow`)."""
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self.rows])


def compare(
    error_model: ErrorModel | ConfusionErrors,
    budget: int,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    simulations: int = 0,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Comparison:
    """The exact probability of ranking the better classifier first, per m, for one label budget.

    P(ΣᵢGᵢ > 0) for n = ⌊budget/m⌋ items with m-majority labels, with the Hoeffding (Lemma 1) and
    Cramér (Lemma 2) lower bounds.

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    budget : int
        The label budget k (labels in total).
    labels_per_item : int or sequence of int
        Labels per item to compare.
    ties : {"loss", "half"}
        What a tied comparison ΣG = 0 counts as: a failure (the paper) or half a win.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    simulations : int
        Also estimate by Monte Carlo with this many replicates (0: no).
    seed : int
        The Monte Carlo seed.
    workers : int, optional
        Run the Monte Carlo on a dask LocalCluster of this many workers.
    scheduler : str, optional
        Run the Monte Carlo on a running dask scheduler.

    Returns
    -------
    Comparison
        One row per m and the best m.

    Raises
    ------
    InputError
        For a budget below 1 or below an m, or bad settings.
    TypeError
        For an ``error_model`` that is not one of the two error models.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> res = compare(IndependentErrors(0.8, 0.01, 0.8), 1500, (1, 3, 5))
    >>> res.best_labels_per_item, [round(r.exact, 3) for r in res.rows]
    (1, [0.652, 0.609, 0.588])

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3 and Fig. 2.
    """
    if not isinstance(error_model, (IndependentErrors, CorrelatedErrors, ConfusionErrors)):
        got = None if error_model is None else type(error_model).__name__
        raise TypeError(
            f"error_model={got}: give humanly.budget.IndependentErrors(...), CorrelatedErrors(...) "
            "or ConfusionErrors(...)"
        )
    budget = check_budget(budget)
    ms = check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    simulations = check_int("simulations", simulations, minimum=0)
    seed = check_int("seed", seed, minimum=0)
    run = dict(seed=seed, ties=ties, vote_ties=vote_ties, workers=workers, scheduler=scheduler)
    rows = []
    for mm in ms:
        n = items_for_budget(budget, mm)
        g = error_model.gap(mm, vote_ties)
        out = outcome(g, n)
        if simulations and isinstance(error_model, ConfusionErrors):
            raise InputError(
                "simulations: the Monte Carlo of humanly.budget.simulate_win is for the two binary "
                f"error models; leave {setting('simulations', 0)} for ConfusionErrors"
            )
        mc = simulate_win(error_model, mm, n, simulations, **run) if simulations else None  # type: ignore[arg-type]
        rows.append(
            ComparisonRow(
                labels_per_item=mm,
                n=n,
                budget=budget,
                labels_used=mm * n,
                label_accuracy=error_model.label_accuracy(mm, vote_ties),
                exact=out.win_probability(ties),
                win_hoeffding_bound=max(0.0, 1.0 - hoeffding_error(g, n)),
                win_cramer_bound=max(0.0, 1.0 - cramer_error(g, n)),
                tie=out.tie,
                monte_carlo=None if mc is None else mc.win,
                monte_carlo_se=None if mc is None else mc.se,
            )
        )
    best = max(rows, key=lambda r: (r.exact, -r.labels_per_item)).labels_per_item
    return Comparison(
        scenario=error_model.scenario,
        params=error_model,
        budget=budget,
        ties=ties,
        rows=tuple(rows),
        best_labels_per_item=best,
        assumption1=getattr(error_model, "assumption1", None),
        vote_ties=vote_ties,
    )
