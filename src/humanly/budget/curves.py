"""The curves behind the paper's figures, as results: the figures of :mod:`humanly.plots.budget` draw
them and compute nothing.

* :func:`win_curve` — the exact P(c_b ranked first) against the label budget, per m (Fig. 2 b);
* :func:`accuracy_curve` — the same against the label accuracy q at one budget (Fig. 2 a);
* :func:`capacity_curve` — the benchmark capacity against the budget (Fig. 1);
* :func:`rate_curve` — the Cramér and Hoeffding error exponents per label against q (Fig. 3 b).

>>> from humanly.budget import IndependentErrors
>>> curve = win_curve(IndependentErrors(0.8, 0.01, 0.8), (1, 3), [300, 1500])
>>> [round(w, 3) for w in curve.series(1)[1]]
[0.553, 0.652]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._core.result import Result
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_level,
    check_ms,
    check_ties,
    check_vote_ties,
)
from .bounds import cramer_exponent, hoeffding_exponent
from .confusion import ConfusionErrors
from .exact import outcome
from .models import CorrelatedErrors, ErrorModel, IndependentErrors
from .size import CapacityRow, capacity_row

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AccuracyCurve",
    "AccuracyPoint",
    "CapacityCurve",
    "RateCurve",
    "RatePoint",
    "WinCurve",
    "WinPoint",
    "accuracy_curve",
    "capacity_curve",
    "curve_budgets",
    "rate_curve",
    "win_curve",
]


def curve_budgets(top: int, m: Sequence[int]) -> tuple[int, ...]:
    """About 100 budgets up to ``top``, multiples of lcm(m) (every m labels whole items, so the curves
    are smooth); at least up to 10·lcm(m).

    >>> curve_budgets(300, (1, 3))[:3], curve_budgets(300, (1, 3))[-1]
    ((3, 6, 9), 300)
    """
    step = math.lcm(*m)
    top = max(int(top), 10 * step)
    step *= max(1, math.ceil(top / step / 100))
    return tuple(range(step, top + 1, step))


# ------------------------------------------------------------------------------ win vs budget
@dataclass(frozen=True, repr=False)
class WinPoint(Result):
    """One point of a :class:`WinCurve`.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    budget : int
        The label budget.
    n : int
        Items, ⌊budget/m⌋ (at least 1).
    win : float
        The exact P(c_b ranked first).

    Examples
    --------
    >>> WinPoint(1, 1500, 1500, 0.652).to_dict()["win"]
    0.652
    """

    labels_per_item: int
    budget: int
    n: int
    win: float


@dataclass(frozen=True, repr=False)
class WinCurve(Result):
    """The exact probability of ranking the better classifier first against the budget (Fig. 2 b).

    Parameters
    ----------
    scenario : str
        The error model's scenario.
    params : IndependentErrors, CorrelatedErrors or ConfusionErrors
        The error model.
    labels_per_item : tuple of int
        Labels per item, one curve each.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    points : tuple of WinPoint
        The points, m by m.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> curve = win_curve(IndependentErrors(0.8, 0.01, 0.8), (1, 3), [300, 1500])
    >>> curve.series(3)[0]
    (300, 1500)
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors | ConfusionErrors
    labels_per_item: tuple[int, ...]
    ties: str
    vote_ties: str
    points: tuple[WinPoint, ...]

    def series(self, labels_per_item: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The curve of one m.

        Parameters
        ----------
        labels_per_item : int
            Labels per item.

        Returns
        -------
        tuple
            (budgets, win probabilities).

        Examples
        --------
        >>> from humanly.budget import IndependentErrors
        >>> budgets, wins = win_curve(IndependentErrors(0.8, 0.01, 0.8), (1,), [10, 20]).series(1)
        >>> budgets, len(wins)
        ((10, 20), 2)
        """
        mine = [p for p in self.points if p.labels_per_item == labels_per_item]
        return tuple(p.budget for p in mine), tuple(p.win for p in mine)

    def to_frame(self) -> pd.DataFrame:
        """One row per point (the columns of :class:`WinPoint`)."""
        import pandas as pd

        return pd.DataFrame([p.to_dict() for p in self.points])


def win_curve(
    error_model: ErrorModel | ConfusionErrors,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    budgets: Sequence[int] | None = None,
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
) -> WinCurve:
    """The exact P(c_b ranked first) against the label budget, one curve per m (Fig. 2 b).

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    labels_per_item : int or sequence of int
        Labels per item.
    budgets : sequence of int, optional
        Label budgets (default 60 from the largest m to 5,000); each m labels max(1, ⌊k/m⌋) items.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    WinCurve
        The points, m by m.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> curve = win_curve(IndependentErrors(0.8, 0.01, 0.8), (1, 3, 5), [1500])
    >>> [round(p.win, 3) for p in curve.points]
    [0.652, 0.609, 0.588]

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Fig. 2 b.
    """
    ms = check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    grid = _budgets(budgets, max(ms), 5000, 60)
    points = []
    for mm in ms:
        g = error_model.gap(mm, vote_ties)
        for k in grid:
            n = max(1, k // mm)
            points.append(WinPoint(mm, k, n, outcome(g, n).win_probability(ties)))
    return WinCurve(error_model.scenario, error_model, ms, ties, vote_ties, tuple(points))


def _budgets(budgets: Sequence[int] | None, low: int, high: int, count: int) -> tuple[int, ...]:
    if budgets is None:
        return tuple(int(k) for k in np.unique(np.linspace(low, high, count).astype(int)))
    return tuple(check_budget(k, "budgets") for k in budgets)


# ------------------------------------------------------------------------------ win vs q
@dataclass(frozen=True, repr=False)
class AccuracyPoint(Result):
    """One point of an :class:`AccuracyCurve`.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    q : float
        The accuracy of one label.
    win : float
        The exact P(c_b ranked first).

    Examples
    --------
    >>> AccuracyPoint(1, 0.8, 0.652).q
    0.8
    """

    labels_per_item: int
    q: float
    win: float


@dataclass(frozen=True, repr=False)
class AccuracyCurve(Result):
    """The exact probability of ranking the better classifier first against the label accuracy q, at
    one budget (Fig. 2 a; independent errors).

    Parameters
    ----------
    p : float
        The worse classifier's accuracy.
    eps : float
        The better classifier's margin.
    budget : int
        The label budget; each m labels ⌊budget/m⌋ items.
    labels_per_item : tuple of int
        Labels per item, one curve each.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    points : tuple of AccuracyPoint
        The points, m by m.

    Examples
    --------
    >>> accuracy_curve(qs=[0.6, 0.8], labels_per_item=(1, 3)).series(1)[0]
    (0.6, 0.8)
    """

    p: float
    eps: float
    budget: int
    labels_per_item: tuple[int, ...]
    ties: str
    vote_ties: str
    points: tuple[AccuracyPoint, ...]

    def series(self, labels_per_item: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The curve of one m.

        Parameters
        ----------
        labels_per_item : int
            Labels per item.

        Returns
        -------
        tuple
            (label accuracies, win probabilities).

        Examples
        --------
        >>> [round(w, 3) for w in accuracy_curve(qs=[0.8], labels_per_item=(1,)).series(1)[1]]
        [0.652]
        """
        mine = [p for p in self.points if p.labels_per_item == labels_per_item]
        return tuple(p.q for p in mine), tuple(p.win for p in mine)


def accuracy_curve(
    p: float = 0.8,
    eps: float = 0.01,
    budget: int = 1500,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    qs: Sequence[float] | None = None,
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
) -> AccuracyCurve:
    """The exact P(c_b ranked first) against the label accuracy q, per m, at one budget (Fig. 2 a).

    Parameters
    ----------
    p : float
        The worse classifier's accuracy (independent errors).
    eps : float
        The better classifier's margin.
    budget : int
        The label budget.
    labels_per_item : int or sequence of int
        Labels per item.
    qs : sequence of float, optional
        Label accuracies in (0.5, 1] (default 50 from 0.51 to 1).
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    AccuracyCurve
        The points, m by m.

    Raises
    ------
    InputError
        For parameters outside the independent error model's ranges.

    Examples
    --------
    >>> curve = accuracy_curve(0.8, 0.01, 1500, (1, 3), qs=[0.8])
    >>> [round(pt.win, 3) for pt in curve.points]
    [0.652, 0.609]

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Fig. 2 a.
    """
    ms, budget = check_ms(labels_per_item), check_budget(budget)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    grid = np.asarray(qs if qs is not None else np.linspace(0.51, 1.0, 50), dtype=float)
    models = [IndependentErrors(p, eps, float(q)) for q in grid]
    points = [
        AccuracyPoint(mm, e.q, outcome(e.gap(mm, vote_ties), budget // mm).win_probability(ties))
        for mm in ms
        for e in models
    ]
    return AccuracyCurve(float(p), float(eps), budget, ms, ties, vote_ties, tuple(points))


# ------------------------------------------------------------------------------ capacity vs budget
@dataclass(frozen=True, repr=False)
class CapacityCurve(Result):
    """The benchmark capacity against the label budget, for one m (Fig. 1).

    Parameters
    ----------
    scenario : str
        The error model's scenario.
    params : IndependentErrors or CorrelatedErrors
        The error model.
    level : float
        The probability that every worse classifier is ranked below the best.
    labels_per_item : int
        Labels per item.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    budgets : tuple of int
        The label budgets.
    rows : tuple of CapacityRow
        The capacity at each budget (max(1, ⌊k/m⌋) items).

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> curve = capacity_curve(IndependentErrors(0.75, 0.1, 0.75), 0.95, [1500])
    >>> curve.rows[0].classifiers_cramer_bound
    16
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors
    level: float
    labels_per_item: int
    ties: str
    vote_ties: str
    budgets: tuple[int, ...]
    rows: tuple[CapacityRow, ...]


def capacity_curve(
    error_model: ErrorModel,
    level: float = 0.95,
    budgets: Sequence[int] | None = None,
    labels_per_item: int = 1,
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
) -> CapacityCurve:
    """How many worse classifiers a benchmark can rank below the best, against the budget (Fig. 1).

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    level : float
        The probability that every worse classifier is ranked below the best.
    budgets : sequence of int, optional
        Label budgets (default 60 from m to 3,000).
    labels_per_item : int
        Labels per item.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    CapacityCurve
        One :class:`~humanly.budget.CapacityRow` per budget.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> curve = capacity_curve(IndependentErrors(0.75, 0.1, 0.75), budgets=[300, 1500])
    >>> [r.classifiers_exact for r in curve.rows]
    [0, 141]

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3.3 and Fig. 1.
    """
    (level, delta), (mm,) = check_level(level), check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    grid = _budgets(budgets, mm, 3000, 60)
    rows = tuple(
        capacity_row(error_model, delta, mm, max(1, k // mm), ties, vote_ties) for k in grid
    )
    return CapacityCurve(error_model.scenario, error_model, level, mm, ties, vote_ties, grid, rows)


# ------------------------------------------------------------------------------ rates vs q
@dataclass(frozen=True, repr=False)
class RatePoint(Result):
    """One point of a :class:`RateCurve`.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    q : float
        The accuracy of one label.
    cramer_per_label, hoeffding_per_label : float
        The exponents of Cramér's and Hoeffding's upper bounds on the error, per label.

    Examples
    --------
    >>> RatePoint(1, 0.75, -0.0033, -0.00125).labels_per_item
    1
    """

    labels_per_item: int
    q: float
    cramer_per_label: float
    hoeffding_per_label: float


@dataclass(frozen=True, repr=False)
class RateCurve(Result):
    """The per-label exponents of the two error bounds against the label accuracy q (Fig. 3 b).

    Parameters
    ----------
    p : float
        The worse classifier's accuracy (independent errors).
    eps : float
        The better classifier's margin.
    labels_per_item : tuple of int
        Labels per item, one pair of curves each.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    points : tuple of RatePoint
        The points, m by m.

    Examples
    --------
    >>> curve = rate_curve(0.7, 0.1, (1, 3), qs=[0.75])
    >>> [round(pt.cramer_per_label, 5) for pt in curve.points]
    [-0.00331, -0.0021]
    """

    p: float
    eps: float
    labels_per_item: tuple[int, ...]
    vote_ties: str
    points: tuple[RatePoint, ...]

    def series(
        self, labels_per_item: int
    ) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
        """The curves of one m.

        Parameters
        ----------
        labels_per_item : int
            Labels per item.

        Returns
        -------
        tuple
            (label accuracies, Cramér exponents per label, Hoeffding exponents per label).

        Examples
        --------
        >>> len(rate_curve(qs=[0.6, 0.8]).series(3)[0])
        2
        """
        mine = [p for p in self.points if p.labels_per_item == labels_per_item]
        return (
            tuple(p.q for p in mine),
            tuple(p.cramer_per_label for p in mine),
            tuple(p.hoeffding_per_label for p in mine),
        )


def rate_curve(
    p: float = 0.7,
    eps: float = 0.1,
    labels_per_item: Sequence[int] | int = (1, 3),
    qs: Sequence[float] | None = None,
    *,
    vote_ties: VoteTies = "coin",
) -> RateCurve:
    """The per-label exponents of Cramér's and Hoeffding's error bounds against q (Fig. 3 b).

    Cramér: log(2√(xy) + z)/m; Hoeffding: −E[G]²/(2m) (independent errors).

    Parameters
    ----------
    p : float
        The worse classifier's accuracy.
    eps : float
        The better classifier's margin.
    labels_per_item : int or sequence of int
        Labels per item.
    qs : sequence of float, optional
        Label accuracies in (0.5, 1] (default 100 from 0.505 to 1).
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    RateCurve
        The points, m by m.

    Raises
    ------
    InputError
        For parameters outside the independent error model's ranges.

    Examples
    --------
    >>> curve = rate_curve(0.7, 0.1, (1,), qs=[0.75])
    >>> round(curve.points[0].hoeffding_per_label, 6)
    -0.00125

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, Theorem 2 and Fig. 3 b.
    """
    ms, vote_ties = check_ms(labels_per_item), check_vote_ties(vote_ties)
    grid = np.asarray(qs if qs is not None else np.linspace(0.5, 1.0, 101)[1:], dtype=float)
    models = [IndependentErrors(p, eps, float(q)) for q in grid]
    points = []
    for mm in ms:
        for e in models:
            g = e.gap(mm, vote_ties)
            c, h = float(cramer_exponent(g.x, g.y)), float(hoeffding_exponent(g.x, g.y))
            points.append(RatePoint(mm, e.q, c / mm, h / mm))
    return RateCurve(float(p), float(eps), ms, vote_ties, tuple(points))
