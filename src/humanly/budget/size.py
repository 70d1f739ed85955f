"""How many labels are needed, and how many classifiers a benchmark can rank.

* :func:`sample_size` — the smallest budget k = m·n with error ≤ δ: exact (bisection on the exact
  error), by Cramér ((2√(xy) + z)ⁿ ≤ δ, Lemma 2) and by Hoeffding (exp(−nE[G]²/2) ≤ δ, Lemma 1);
* :func:`capacity` — ⌊δ / P(error)⌋, the whole number of worse classifiers that can be compared with
  c_b at family error δ by a union bound (section 3.3, Fig. 1), by the exact error and by what the
  Cramér and Hoeffding bounds guarantee.
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
    check_delta,
    check_ms,
    check_ties,
    check_vote_ties,
    items_for_budget,
)
from .bounds import cramer_error, cramer_exponent, hoeffding_error, hoeffding_exponent
from .exact import MAX_N, outcome
from .models import Model

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
    """Smallest budget (= m · n) with error ≤ δ: ``budget_exact`` (from the exact error), and the budgets
    the two *upper bounds* on the error guarantee to suffice, ``budget_cramer_bound`` (Lemma 2) and
    ``budget_hoeffding_bound`` (Lemma 1) — so budget_exact ≤ budget_cramer_bound ≤ budget_hoeffding_bound;
    the same in items (``n_*``). None when c_b does not have the higher expected gap, E[G] ≤ 0, or, for
    the exact search, when Cramér's n exceeds 10⁹ items. JSON also keeps the old keys
    ``budget_cramer``, ``budget_hoeffding``, ``n_cramer``, ``n_hoeffding`` (also readable as
    attributes)."""

    m: int
    budget_exact: int | None
    budget_cramer_bound: int | None
    budget_hoeffding_bound: int | None
    n_exact: int | None
    n_cramer_bound: int | None
    n_hoeffding_bound: int | None
    label_accuracy: float

    @property
    def budget_cramer(self) -> int | None:
        """The old name of :attr:`budget_cramer_bound`."""
        return self.budget_cramer_bound

    @property
    def budget_hoeffding(self) -> int | None:
        """The old name of :attr:`budget_hoeffding_bound`."""
        return self.budget_hoeffding_bound

    @property
    def n_cramer(self) -> int | None:
        """The old name of :attr:`n_cramer_bound`."""
        return self.n_cramer_bound

    @property
    def n_hoeffding(self) -> int | None:
        """The old name of :attr:`n_hoeffding_bound`."""
        return self.n_hoeffding_bound


@dataclass(frozen=True, repr=False)
class SizeResult(Result):
    """Label budgets for error ≤ δ, one row per m, and the cheapest m (``None`` when none reaches δ).
    ``scenario`` (JSON also ``model``), ``params``, ``ties`` and ``vote_ties`` as in
    :class:`~humanly.budget.Comparison`."""

    scenario: str
    params: Model
    delta: float
    ties: str
    rows: tuple[SizeRow, ...]
    best_m: int | None
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
                budget_cramer_bound=None if n_c is None else mm * n_c,
                budget_hoeffding_bound=None if n_h is None else mm * n_h,
                n_exact=n_e,
                n_cramer_bound=n_c,
                n_hoeffding_bound=n_h,
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
def _whole(ratio: float) -> int | None:
    """⌊ratio⌋ (rounding error at an exact integer forgiven); None when unbounded."""
    if not math.isfinite(ratio):
        return None
    return max(0, math.floor(ratio * (1.0 + 1e-12)))


@dataclass(frozen=True, repr=False)
class CapacityRow(Result):
    """How many worse classifiers can be compared with c_b at family error δ (union bound, section 3.3).

    ``classifiers_exact``: the whole number ⌊δ / P(error)⌋ by the exact error; ``classifiers_cramer_bound``
    / ``classifiers_hoeffding_bound``: the whole numbers the Cramér (Lemma 2) / Hoeffding (Lemma 1) upper
    bounds on the error guarantee (None when unbounded). ``ratio_*``: the real-valued δ / P(error) behind
    them; ``error_exact`` the exact error, ``error_cramer_bound`` / ``error_hoeffding_bound`` the two upper
    bounds on it. JSON also keeps the old keys ``exact``, ``cramer``, ``hoeffding`` (the real-valued
    ratios) and ``error_cramer``, ``error_hoeffding`` (also readable as attributes)."""

    m: int
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

    @property
    def exact(self) -> float:
        """The old name of :attr:`ratio_exact` (δ / exact error, real-valued)."""
        return self.ratio_exact

    @property
    def cramer(self) -> float:
        """The old name of :attr:`ratio_cramer_bound` (δ / Cramér's error bound, real-valued)."""
        return self.ratio_cramer_bound

    @property
    def hoeffding(self) -> float:
        """The old name of :attr:`ratio_hoeffding_bound` (δ / Hoeffding's error bound, real-valued)."""
        return self.ratio_hoeffding_bound

    @property
    def error_cramer(self) -> float:
        """The old name of :attr:`error_cramer_bound`."""
        return self.error_cramer_bound

    @property
    def error_hoeffding(self) -> float:
        """The old name of :attr:`error_hoeffding_bound`."""
        return self.error_hoeffding_bound


@dataclass(frozen=True, repr=False)
class CapacityResult(Result):
    """Benchmark capacity per m for one budget. ``scenario`` (JSON also ``model``), ``params``,
    ``ties`` and ``vote_ties`` as in :class:`~humanly.budget.Comparison`."""

    scenario: str
    params: Model
    delta: float
    budget: int
    ties: str
    rows: tuple[CapacityRow, ...]
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m (the columns of :class:`CapacityRow`)."""
        import pandas as pd

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
    17 models" (δ / bound = 16.8: 16 worse classifiers besides the best, 17 models), Hoeffding's "not
    two" (0.33: none); the exact error allows 141 worse classifiers.

    >>> from humanly.budget import IndependentModel
    >>> row = capacity(IndependentModel(0.75, 0.1, 0.75), 0.05, 1500).rows[0]
    >>> round(row.cramer, 1), round(row.hoeffding, 2), round(row.exact)
    (16.8, 0.33, 142)
    >>> row.classifiers_exact, row.classifiers_cramer_bound, row.classifiers_hoeffding_bound
    (141, 16, 0)
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
        ratios = [delta / e if e > 0 else math.inf for e in (e_x, e_c, e_h)]
        rows.append(
            CapacityRow(
                m=mm,
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
        )
    return CapacityResult(model.scenario, model, delta, budget, ties, tuple(rows), vote_ties)
