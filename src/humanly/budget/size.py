"""How many labels are needed, and how many classifiers a benchmark can rank.

A target ``level`` is the probability of ranking the better classifier first that a budget must reach;
the paper's error δ is 1 − level.

* :func:`sample_size` — the smallest budget k = m·n with P(c_b ranked first) ≥ level: exact (bisection
  on the exact error), by Cramér ((2√(xy) + z)ⁿ ≤ δ, Lemma 2) and by Hoeffding (exp(−nE[G]²/2) ≤ δ,
  Lemma 1);
* :func:`capacity` — ⌊(1 − level) / P(error)⌋, the whole number of worse classifiers that can each be
  ranked below c_b, with probability ≥ level for them all by a union bound (section 3.3, Fig. 1), by the
  exact error and by what the Cramér and Hoeffding bounds guarantee.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._core.result import Result
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_level,
    check_ms,
    check_ties,
    check_vote_ties,
    items_for_budget,
)
from .bounds import cramer_error, cramer_exponent, hoeffding_error, hoeffding_exponent
from .confusion import ConfusionErrors
from .exact import MAX_N, outcome
from .models import CorrelatedErrors, ErrorModel, IndependentErrors

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CapacityResult",
    "CapacityRow",
    "SizeResult",
    "SizeRow",
    "capacity",
    "sample_size",
]


# --------------------------------------------------------------------------- sample size
@dataclass(frozen=True, repr=False)
class SizeRow(Result):
    """One m of a :class:`SizeResult`: the smallest budget reaching the level, exactly and by two bounds.

    budget_exact ≤ budget_cramer_bound ≤ budget_hoeffding_bound.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    budget_exact : int or None
        The smallest budget (= m · n) from the exact error; None when c_b does not have the higher
        expected gap (E[G] ≤ 0) or when Cramér's n exceeds 10⁹ items.
    budget_cramer_bound, budget_hoeffding_bound : int or None
        The budgets the Cramér (Lemma 2) and Hoeffding (Lemma 1) upper bounds on the error guarantee
        to suffice; None when E[G] ≤ 0.
    n_exact, n_cramer_bound, n_hoeffding_bound : int or None
        The same in items.
    label_accuracy : float
        The accuracy of an m-majority label.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, sample_size
    >>> row = sample_size(IndependentErrors(0.7, 0.1, 0.9), 0.95, (1,)).rows[0]
    >>> row.budget_exact <= row.budget_cramer_bound <= row.budget_hoeffding_bound
    True
    """

    labels_per_item: int
    budget_exact: int | None
    budget_cramer_bound: int | None
    budget_hoeffding_bound: int | None
    n_exact: int | None
    n_cramer_bound: int | None
    n_hoeffding_bound: int | None
    label_accuracy: float


@dataclass(frozen=True, repr=False)
class SizeResult(Result):
    """Label budgets that reach a level, one row per m, and the cheapest m.

    Parameters
    ----------
    scenario : str
        The error model's scenario.
    params : IndependentErrors, CorrelatedErrors or ConfusionErrors
        The error model.
    level : float
        The probability of ranking the better classifier first that a budget must reach.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    rows : tuple of SizeRow
        One row per m.
    best_labels_per_item : int or None
        The m with the smallest exact budget (None when no m reaches the level).
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, sample_size
    >>> sample_size(IndependentErrors(0.7, 0.1, 0.9), 0.95, (1, 3)).to_dict()["level"]
    0.95
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors | ConfusionErrors
    level: float
    ties: str
    rows: tuple[SizeRow, ...]
    best_labels_per_item: int | None
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`SizeRow`)."""
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self.rows])


def _bound_n(exponent: float, delta: float) -> int | None:
    if exponent >= 0:
        return None
    return max(1, math.ceil(math.log(delta) / exponent - 1e-12))


def _exact_n(
    error_model: ErrorModel | ConfusionErrors,
    m: int,
    delta: float,
    ties: Ties,
    vote_ties: VoteTies,
    upper: int,
) -> int:
    """Smallest n with error(n) ≤ δ by bisection on [0, upper] (error(upper) ≤ δ is guaranteed by
    Cramér's bound), then stepping down while the next smaller n also qualifies (ties make the error
    depend on the parity of n, so it is monotone only up to parity)."""
    g = error_model.gap(m, vote_ties)

    def err(n: int) -> float:
        return outcome(g, n).error(ties)

    lo, hi = 0, upper  # err(lo) > δ (n = 0 never identifies c_b), err(hi) ≤ δ
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if err(mid) <= delta:
            hi = mid
        else:
            lo = mid
    n = hi
    for step in (1, 2):
        while n - step >= 1 and err(n - step) <= delta:
            n -= step
    return n


def sample_size(
    error_model: ErrorModel | ConfusionErrors,
    level: float = 0.95,
    labels_per_item: Sequence[int] | int = (1, 3),
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
) -> SizeResult:
    """The smallest label budget k = m·n that ranks the better classifier first with probability ≥ level.

    Per m: exactly, and by Cramér's and Hoeffding's bounds (the paper's error δ is 1 − level).

    Parameters
    ----------
    error_model : IndependentErrors, CorrelatedErrors or ConfusionErrors
        How the classifiers' and the labels' errors relate.
    level : float
        The probability of ranking the better classifier first that the budget must reach.
    labels_per_item : int or sequence of int
        Labels per item to compare.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    SizeResult
        One row per m and the cheapest m.

    Raises
    ------
    InputError
        For a level outside (0, 1) or bad settings.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> res = sample_size(IndependentErrors(0.7, 0.1, 0.9), 0.95, (1, 3))
    >>> res.best_labels_per_item, [r.budget_exact for r in res.rows]
    (1, [171, 372])

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, sections 3.1 and 4.
    """
    level, delta = check_level(level)
    ms = check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    rows = []
    for mm in ms:
        g = error_model.gap(mm, vote_ties)
        n_c = _bound_n(float(cramer_exponent(g.x, g.y)), delta)
        n_h = _bound_n(float(hoeffding_exponent(g.x, g.y)), delta)
        n_e = (
            None
            if n_c is None or n_c > MAX_N
            else _exact_n(error_model, mm, delta, ties, vote_ties, n_c)
        )
        rows.append(
            SizeRow(
                labels_per_item=mm,
                budget_exact=None if n_e is None else mm * n_e,
                budget_cramer_bound=None if n_c is None else mm * n_c,
                budget_hoeffding_bound=None if n_h is None else mm * n_h,
                n_exact=n_e,
                n_cramer_bound=n_c,
                n_hoeffding_bound=n_h,
                label_accuracy=error_model.label_accuracy(mm, vote_ties),
            )
        )
    best = min(
        (r for r in rows if r.budget_exact is not None),
        key=lambda r: (r.budget_exact, r.labels_per_item),
        default=None,
    )
    return SizeResult(
        error_model.scenario,
        error_model,
        level,
        ties,
        tuple(rows),
        None if best is None else best.labels_per_item,
        vote_ties,
    )


# --------------------------------------------------------------------------- capacity (Fig. 1)
def _whole(ratio: float) -> int | None:
    """⌊ratio⌋ (rounding error at an exact integer forgiven); None when unbounded."""
    if not math.isfinite(ratio):
        return None
    return max(0, math.floor(ratio * (1.0 + 1e-12)))


@dataclass(frozen=True, repr=False)
class CapacityRow(Result):
    """One m of a :class:`CapacityResult`: how many worse classifiers a benchmark can rank below c_b.

    Each is ranked below c_b with probability ≥ level for them all, by a union bound (section 3.3):
    the whole number ⌊(1 − level) / P(error)⌋.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    n : int
        Items, ⌊budget/m⌋.
    classifiers_exact : int or None
        By the exact error (None when unbounded: the error underflows to 0).
    classifiers_cramer_bound, classifiers_hoeffding_bound : int or None
        What the Cramér (Lemma 2) and Hoeffding (Lemma 1) upper bounds on the error guarantee.
    ratio_exact, ratio_cramer_bound, ratio_hoeffding_bound : float
        The real-valued (1 − level) / P(error) behind them.
    error_exact : float
        The exact error.
    error_cramer_bound, error_hoeffding_bound : float
        The two upper bounds on it.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, capacity
    >>> row = capacity(IndependentErrors(0.75, 0.1, 0.75), 0.95, 1500).rows[0]
    >>> row.classifiers_exact, row.classifiers_cramer_bound, row.classifiers_hoeffding_bound
    (141, 16, 0)
    """

    labels_per_item: int
    n: int
    classifiers_exact: int | None
    classifiers_cramer_bound: int | None
    classifiers_hoeffding_bound: int | None
    ratio_exact: float
    ratio_cramer_bound: float
    ratio_hoeffding_bound: float
    error_exact: float
    error_cramer_bound: float
    error_hoeffding_bound: float


@dataclass(frozen=True, repr=False)
class CapacityResult(Result):
    """Benchmark capacity per m for one budget.

    Parameters
    ----------
    scenario : str
        The error model's scenario.
    params : IndependentErrors, CorrelatedErrors or ConfusionErrors
        The error model.
    level : float
        The probability that every worse classifier is ranked below c_b.
    budget : int
        The label budget.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    rows : tuple of CapacityRow
        One row per m.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, capacity
    >>> capacity(IndependentErrors(0.75, 0.1, 0.75), 0.95, 1500).rows[0].n
    1500
    """

    scenario: str
    params: IndependentErrors | CorrelatedErrors
    level: float
    budget: int
    ties: str
    rows: tuple[CapacityRow, ...]
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`CapacityRow`)."""
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self.rows])


def capacity_row(
    error_model: ErrorModel, delta: float, m: int, n: int, ties: Ties, vote_ties: VoteTies
) -> CapacityRow:
    """The :class:`CapacityRow` of n items of m-majority labels at error δ."""
    g = error_model.gap(m, vote_ties)
    e_x = outcome(g, n).error(ties)
    e_c, e_h = cramer_error(g, n), hoeffding_error(g, n)
    ratios = [delta / e if e > 0 else math.inf for e in (e_x, e_c, e_h)]
    return CapacityRow(
        labels_per_item=m,
        n=n,
        classifiers_exact=_whole(ratios[0]),
        classifiers_cramer_bound=_whole(ratios[1]),
        classifiers_hoeffding_bound=_whole(ratios[2]),
        ratio_exact=ratios[0],
        ratio_cramer_bound=ratios[1],
        ratio_hoeffding_bound=ratios[2],
        error_exact=e_x,
        error_cramer_bound=e_c,
        error_hoeffding_bound=e_h,
    )


def capacity(
    error_model: ErrorModel,
    level: float = 0.95,
    budget: int = 1500,
    labels_per_item: Sequence[int] | int = (1,),
    *,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
) -> CapacityResult:
    """How many worse classifiers a benchmark of ``budget`` labels can rank below the best.

    The whole number ⌊(1 − level) / P(error)⌋ for n = ⌊budget/m⌋ items (section 3.3 and Fig. 1): by a
    union bound, every one of them is ranked below the best with probability ≥ level.

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    level : float
        The probability that every worse classifier is ranked below the best.
    budget : int
        The label budget k.
    labels_per_item : int or sequence of int
        Labels per item.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Returns
    -------
    CapacityResult
        One row per m.

    Raises
    ------
    InputError
        For a level outside (0, 1), a budget below m, or bad settings.

    Examples
    --------
    The paper's Fig. 1 (p = q = 0.75, ε = 0.1, level 0.95, 1,500 labels): Cramér's bound allows "more
    than 17 models" (16.8: 16 worse classifiers besides the best), Hoeffding's "not two" (0.33: none);
    the exact error allows 141 worse classifiers.

    >>> from humanly.budget import IndependentErrors
    >>> row = capacity(IndependentErrors(0.75, 0.1, 0.75), 0.95, 1500).rows[0]
    >>> round(row.ratio_cramer_bound, 1), round(row.ratio_hoeffding_bound, 2), round(row.ratio_exact)
    (16.8, 0.33, 142)
    >>> row.classifiers_exact, row.classifiers_cramer_bound, row.classifiers_hoeffding_bound
    (141, 16, 0)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3.3 and Fig. 1.
    """
    (level, delta), budget = check_level(level), check_budget(budget)
    ms = check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    rows = tuple(
        capacity_row(error_model, delta, mm, items_for_budget(budget, mm), ties, vote_ties)
        for mm in ms
    )
    return CapacityResult(error_model.scenario, error_model, level, budget, ties, rows, vote_ties)
