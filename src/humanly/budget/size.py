"""How many labels are needed, and how many classifiers a benchmark can rank.

* :func:`sample_size` — the smallest budget k = m·n with error ≤ δ: exact (bisection on the exact
  error), by Cramér ((2√(xy) + z)ⁿ ≤ δ, Lemma 2) and by Hoeffding (exp(−nE[G]²/2) ≤ δ, Lemma 1);
* :func:`capacity` — δ / P(error), the number of worse classifiers that can be compared with c_b at
  family error δ by a union bound (section 3.3, Fig. 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import pandas as pd

from .._result import Result
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_delta,
    check_ms,
    check_ties,
    check_vote_ties,
    items_for_budget,
)
from .bounds import cramer_error, cramer_exponent, hoeffding_error, hoeffding_exponent
from .exact import MAX_N, outcome
from .models import Model

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
    """Smallest budget (= m · n) with error ≤ δ: exact, and what the Cramér and Hoeffding bounds require
    (None when c_b does not have the higher expected gap, E[G] ≤ 0, or, for the exact search, when
    Cramér's n exceeds 10⁹ items)."""

    m: int
    budget_exact: int | None
    budget_cramer: int | None
    budget_hoeffding: int | None
    n_exact: int | None
    n_cramer: int | None
    n_hoeffding: int | None
    label_accuracy: float


@dataclass(frozen=True, repr=False)
class SizeResult(Result):
    """Label budgets for error ≤ δ, one row per m, and the cheapest m (``None`` when none reaches δ).
    ``scenario`` (JSON also ``model``), ``params``, ``ties`` and ``vote_ties`` as in
    :class:`~humanly.budget.Comparison`."""

    json_aliases: ClassVar[dict[str, str]] = {"model": "scenario"}

    scenario: str
    params: Model
    delta: float
    ties: str
    rows: tuple[SizeRow, ...]
    best_m: int | None
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`SizeRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.rows])


def _bound_n(exponent: float, delta: float) -> int | None:
    if exponent >= 0:
        return None
    return max(1, math.ceil(math.log(delta) / exponent - 1e-12))


def _exact_n(
    model: Model, m: int, delta: float, ties: Ties, vote_ties: VoteTies, upper: int
) -> int:
    """Smallest n with error(n) ≤ δ by bisection on [0, upper] (error(upper) ≤ δ is guaranteed by
    Cramér's bound), then stepping down while the next smaller n also qualifies (ties make the error
    depend on the parity of n, so it is monotone only up to parity)."""
    g = model.gap(m, vote_ties)

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
    model: Model,
    delta: float = 0.05,
    m: Sequence[int] | int = (1, 3),
    *,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
) -> SizeResult:
    """Smallest label budget k = m·n with P(c_b not identified) ≤ δ for each m: exactly, by Cramér's and
    by Hoeffding's bound.

    >>> from humanly.budget import IndependentModel
    >>> res = sample_size(IndependentModel(0.7, 0.1, 0.9), 0.05, (1, 3))
    >>> res.best_m, [r.budget_exact for r in res.rows]
    (1, [171, 372])
    """
    delta = check_delta(delta)
    ms = check_ms(m)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    rows = []
    for mm in ms:
        g = model.gap(mm, vote_ties)
        n_c = _bound_n(float(cramer_exponent(g.x, g.y)), delta)
        n_h = _bound_n(float(hoeffding_exponent(g.x, g.y)), delta)
        n_e = (
            None if n_c is None or n_c > MAX_N else _exact_n(model, mm, delta, ties, vote_ties, n_c)
        )
        rows.append(
            SizeRow(
                m=mm,
                budget_exact=None if n_e is None else mm * n_e,
                budget_cramer=None if n_c is None else mm * n_c,
                budget_hoeffding=None if n_h is None else mm * n_h,
                n_exact=n_e,
                n_cramer=n_c,
                n_hoeffding=n_h,
                label_accuracy=model.label_accuracy(mm, vote_ties),
            )
        )
    best = min(
        (r for r in rows if r.budget_exact is not None),
        key=lambda r: (r.budget_exact, r.m),
        default=None,
    )
    return SizeResult(
        model.scenario,
        model,
        delta,
        ties,
        tuple(rows),
        None if best is None else best.m,
        vote_ties,
    )


# --------------------------------------------------------------------------- capacity (Fig. 1)
@dataclass(frozen=True, repr=False)
class CapacityRow(Result):
    """How many worse classifiers can be compared with c_b at family error δ (union bound, section 3.3):
    δ / P(error) with the exact error, Cramér's and Hoeffding's bounds on it."""

    m: int
    n: int
    exact: float
    cramer: float
    hoeffding: float
    error_exact: float
    error_cramer: float
    error_hoeffding: float


@dataclass(frozen=True, repr=False)
class CapacityResult(Result):
    """Benchmark capacity per m for one budget. ``scenario`` (JSON also ``model``), ``params``,
    ``ties`` and ``vote_ties`` as in :class:`~humanly.budget.Comparison`."""

    json_aliases: ClassVar[dict[str, str]] = {"model": "scenario"}

    scenario: str
    params: Model
    delta: float
    budget: int
    ties: str
    rows: tuple[CapacityRow, ...]
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`CapacityRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.rows])


def capacity(
    model: Model,
    delta: float = 0.05,
    budget: int = 1500,
    m: Sequence[int] | int = (1,),
    *,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
) -> CapacityResult:
    """Benchmark capacity δ / error for n = ⌊budget/m⌋ items (section 3.3 and Fig. 1).

    The paper's Fig. 1 (p = q = 0.75, ε = 0.1, δ = 0.05, 1,500 labels): Cramér's bound allows "more than
    17 models", Hoeffding's "not two"; the exact error allows about 142.

    >>> from humanly.budget import IndependentModel
    >>> row = capacity(IndependentModel(0.75, 0.1, 0.75), 0.05, 1500).rows[0]
    >>> round(row.cramer, 1), round(row.hoeffding, 2), round(row.exact)
    (16.8, 0.33, 142)
    """
    delta, budget = check_delta(delta), check_budget(budget)
    ms = check_ms(m)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    rows = []
    for mm in ms:
        n = items_for_budget(budget, mm)
        g = model.gap(mm, vote_ties)
        e_x = outcome(g, n).error(ties)
        e_c, e_h = cramer_error(g, n), hoeffding_error(g, n)
        rows.append(
            CapacityRow(
                m=mm,
                n=n,
                exact=delta / e_x if e_x > 0 else math.inf,
                cramer=delta / e_c if e_c > 0 else math.inf,
                hoeffding=delta / e_h if e_h > 0 else math.inf,
                error_exact=e_x,
                error_cramer=e_c,
                error_hoeffding=e_h,
            )
        )
    return CapacityResult(model.scenario, model, delta, budget, ties, tuple(rows), vote_ties)
