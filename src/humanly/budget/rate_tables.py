"""Error rates per label (section 4): Theorem 2's comparison of Cramér rates and Fig. 3 a/b.

* :func:`rates` — per m, the per-item exponents of the two upper bounds on P(ΣG ≤ 0): Cramér's
  −Λ*(0) = log(2√(xy) + z) (Lemma 2) and Hoeffding's −E[G]²/2 (Lemma 1), and both per label (÷ m), the
  quantity Theorem 2 compares: under assumption 1 a single label has the most negative Cramér rate per
  label, −Λ*_X(0) > −Λ*_X′(0) (eq. (8)), for every m > 1 (Fig. 3 b draws them against q);
* :func:`cramer_convergence` — Fig. 3 a: the exact normalised log error (1/k) log P(ΣG ≤ 0) at budget k
  (n = k/m items) against the Cramér rate per label it converges to from below, and the budget from which
  the gap between the m's Cramér rates exceeds every m's approximation error — where the bounds alone
  prove single labels better (the paper: "here around k = 1800" for q = 0.75, p = 0.7, ε = 0.1).

>>> from humanly.budget import IndependentErrors
>>> table = rates(IndependentErrors(0.7, 0.1, 0.75), (1, 3))
>>> table.best_labels_per_item, [round(r.cramer_per_label, 5) for r in table.rows]
(1, [-0.00331, -0.0021])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.result import Result
from ..errors import InputError
from ._args import (
    Ties,
    VoteTies,
    check_ms,
    check_ties,
    check_vote_ties,
)
from .bounds import hoeffding_exponent
from .exact import outcome
from .models import CorrelatedErrors, ErrorModel, IndependentErrors

__all__ = [
    "ConvergencePoint",
    "CramerConvergence",
    "RateRow",
    "RateTable",
    "cramer_convergence",
    "rates",
]


@dataclass(frozen=True, repr=False)
class RateRow(Result):
    """One m of a :class:`RateTable`: the exponents of the two upper bounds on log P(ΣG ≤ 0).

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    label_accuracy : float
        The accuracy of an m-majority label.
    cramer_per_item, cramer_per_label : float
        Cramér's exponent log(2√(xy) + z) (Lemma 2) per item, and per label (÷ m); ≤ 0, 0 when
        vacuous.
    hoeffding_per_item, hoeffding_per_label : float
        Hoeffding's exponent −E[G]²/2 (Lemma 1) per item and per label.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, rates
    >>> row = rates(IndependentErrors(0.7, 0.1, 0.75), (3,)).rows[0]
    >>> round(row.cramer_per_label * 3 - row.cramer_per_item, 12)
    0.0
    """

    labels_per_item: int
    label_accuracy: float
    cramer_per_item: float
    cramer_per_label: float
    hoeffding_per_item: float
    hoeffding_per_label: float


@dataclass(frozen=True, repr=False)
class RateTable(Result):
    """Bound exponents per m; ``best_labels_per_item`` has the most negative Cramér rate per label
    (Theorem 2).

    Parameters
    ----------
    scenario : str
        The error model's scenario.
    params : IndependentErrors or CorrelatedErrors
        The error model.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    rows : tuple of RateRow
        One row per m.
    best_labels_per_item : int
        The m with the most negative Cramér rate per label (m = 1 under assumption 1, Theorem 2).

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, rates
    >>> rates(IndependentErrors(0.7, 0.1, 0.75), (1, 3)).best_labels_per_item
    1
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors
    vote_ties: str
    rows: tuple[RateRow, ...]
    best_labels_per_item: int

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`RateRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.rows])


def rates(
    error_model: ErrorModel,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    *,
    vote_ties: VoteTies = "coin",
) -> RateTable:
    """Cramér and Hoeffding error exponents per item and per label for each m (Theorem 2, Fig. 3 b).

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    labels_per_item : int or sequence of int
        Labels per item.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    RateTable
        One row per m and the m with the most negative Cramér rate per label.

    Examples
    --------
    >>> from humanly.budget import CorrelatedErrors
    >>> rates(CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9), (1, 3, 5)).best_labels_per_item
    1

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Theorem 2 (eq. 8) and Fig. 3 b.
    """
    ms = check_ms(labels_per_item)
    vote_ties = check_vote_ties(vote_ties)
    rows = []
    for mm in ms:
        g = error_model.gap(mm, vote_ties)
        c, h = g.cramer_rate, float(hoeffding_exponent(g.x, g.y))
        rows.append(RateRow(mm, error_model.label_accuracy(mm, vote_ties), c, c / mm, h, h / mm))
    best = min(rows, key=lambda r: (r.cramer_per_label, r.labels_per_item)).labels_per_item
    return RateTable(error_model.scenario, error_model, vote_ties, tuple(rows), best)


@dataclass(frozen=True, repr=False)
class ConvergencePoint(Result):
    """One m at one budget k of a :class:`CramerConvergence` (n = ⌊k/m⌋ items).

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    budget : int
        The label budget k.
    n : int
        Items.
    log_error_per_label : float
        The exact (1/(m·n)) log P(c_b not identified).
    cramer_per_label : float
        The Cramér rate per label it converges to.
    approximation_error : float
        rate − exact (≥ 0: Cramér's bound holds for every n).

    Examples
    --------
    >>> ConvergencePoint(1, 300, 300, -0.004, -0.0033, 0.0007).to_dict()["n"]
    300
    """

    labels_per_item: int
    budget: int
    n: int
    log_error_per_label: float
    cramer_per_label: float
    approximation_error: float


@dataclass(frozen=True, repr=False)
class CramerConvergence(Result):
    """Fig. 3 a: the exact normalised log error per m and budget against the Cramér rate per label.

    Parameters
    ----------
    scenario : str
        The error model's scenario.
    params : IndependentErrors or CorrelatedErrors
        The error model.
    labels_per_item : tuple of int
        Labels per item compared.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    cramer_per_label : tuple of float
        The Cramér rate per label of each m (in the order of ``m``).
    points : tuple of ConvergencePoint
        One point per m and budget.
    crossing : int or None
        The smallest budget of the grid from which on the gap between the lowest Cramér rate per
        label and every other m's exceeds every m's approximation error — from there the bounds
        alone show the lowest-rate m (a single label, by Theorem 2) to be better; None if that never
        happens on the grid.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, cramer_convergence
    >>> res = cramer_convergence(IndependentErrors(0.7, 0.1, 0.75), (1, 3), range(1500, 2101, 30))
    >>> res.crossing
    1800
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors
    labels_per_item: tuple[int, ...]
    ties: str
    vote_ties: str
    cramer_per_label: tuple[float, ...]
    points: tuple[ConvergencePoint, ...]
    crossing: int | None

    def to_frame(self) -> pd.DataFrame:
        """One row per (m, budget) (the columns of :class:`ConvergencePoint`)."""
        return pd.DataFrame([p.to_dict() for p in self.points])


def _default_budgets(ms: tuple[int, ...], largest: int = 3000, points: int = 200) -> list[int]:
    step = math.lcm(*ms)
    step *= max(1, math.ceil(largest / step / points))
    return list(range(step, largest + 1, step))


def cramer_convergence(
    error_model: ErrorModel,
    labels_per_item: Sequence[int] | int = (1, 3),
    budgets: Sequence[int] | None = None,
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
) -> CramerConvergence:
    """Fig. 3 a: the exact normalised log error against the Cramér rate per label, per m and budget.

    Each m labels ⌊k/m⌋ items of budget k; the error is normalised by the labels used.

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate (the paper's setting is
        ``IndependentErrors(0.7, 0.1, 0.75)``).
    labels_per_item : int or sequence of int
        Labels per item.
    budgets : sequence of int, optional
        Label budgets (default about 200 multiples of lcm(m) up to 3,000).
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    CramerConvergence
        The points, the rates and the crossing.

    Raises
    ------
    InputError
        When no budget is at least the largest m.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> curve = cramer_convergence(IndependentErrors(0.7, 0.1, 0.75), (1, 3), range(1500, 2101, 30))
    >>> curve.crossing
    1800

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 4 and Fig. 3 a.
    """
    ms = check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    grid = sorted({int(k) for k in (budgets if budgets is not None else _default_budgets(ms))})
    grid = [k for k in grid if k >= max(ms)]
    if not grid:
        raise InputError(
            f"budgets: give at least one budget ≥ the largest m ({max(ms)}); each m labels ⌊k/m⌋ items"
        )
    rate = {mm: error_model.gap(mm, vote_ties).cramer_rate / mm for mm in ms}
    points = []
    worst = np.zeros(len(grid))
    for mm in ms:
        g = error_model.gap(mm, vote_ties)
        for i, k in enumerate(grid):
            n = k // mm
            err = outcome(g, n).error(ties)
            value = math.log(err) / (mm * n) if err > 0 else -math.inf
            approx = rate[mm] - value
            worst[i] = max(worst[i], approx)
            points.append(ConvergencePoint(mm, k, n, value, rate[mm], approx))
    ordered = sorted(rate.values())
    gap = ordered[1] - ordered[0] if len(ordered) > 1 else math.inf
    bad = np.flatnonzero(~(gap > worst))
    crossing = (
        grid[0] if bad.size == 0 else (grid[bad[-1] + 1] if bad[-1] + 1 < len(grid) else None)
    )
    return CramerConvergence(
        error_model.scenario,
        error_model,
        ms,
        ties,
        vote_ties,
        tuple(rate[mm] for mm in ms),
        tuple(points),
        crossing,
    )
