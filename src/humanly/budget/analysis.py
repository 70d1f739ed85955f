"""Budget questions built on the exact probabilities: which m wins for a budget (Fig. 2), the budget needed
for an error δ (sample size), how many classifiers a benchmark can rank (section 3.3, Fig. 1), and a Monte
Carlo check of any of them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .._parallel import run_tasks
from .._random import stream
from .._result import Result
from ..data.errors import InputError
from .core import (
    MAX_N,
    Model,
    Ties,
    cramer_error,
    cramer_exponent,
    hoeffding_error,
    hoeffding_exponent,
    make_model,
    outcome,
)

__all__ = [
    "CapacityResult",
    "CapacityRow",
    "Comparison",
    "ComparisonRow",
    "MonteCarlo",
    "QuickComparison",
    "SizeResult",
    "SizeRow",
    "capacity",
    "compare",
    "error_probability",
    "quick_compare",
    "sample_size",
    "simulate_win",
]


def _ms(m: Sequence[int] | int) -> tuple[int, ...]:
    ms = (m,) if isinstance(m, (int, np.integer)) else tuple(m)
    if not ms:
        raise InputError("--m: give at least one number of labels per item, e.g. --m 1 3 5")
    for v in ms:
        if int(v) != v or v < 1:
            raise InputError(f"--m {v}: labels per item must be positive integers")
    return tuple(int(v) for v in ms)


def _check_budget(budget: int) -> int:
    if int(budget) != budget or budget < 1:
        raise InputError(f"--budget {budget}: give a positive whole number of labels")
    return int(budget)


def _check_delta(delta: float) -> float:
    if not 0 < delta < 1:
        raise InputError(f"--delta {delta}: the error tolerance must lie in (0, 1)")
    return float(delta)


def error_probability(model: Model, m: int, n: int, ties: Ties = "failure") -> float:
    """Exact P(c_b not identified) with n items of m-majority labels."""
    return outcome(model.gap(m), n).error(ties)


# --------------------------------------------------------------------------- win table (Fig. 2)
@dataclass(frozen=True, repr=False)
class ComparisonRow(Result):
    """One m: n = ⌊budget/m⌋ items; exact P(c_b identified) and the lower bounds 1 − Hoeffding / Cramér
    error bounds give (0 when vacuous)."""

    m: int
    n: int
    budget: int
    labels_used: int
    label_accuracy: float
    exact: float
    hoeffding: float
    cramer: float
    tie: float
    monte_carlo: float | None = None
    monte_carlo_se: float | None = None


@dataclass(frozen=True, repr=False)
class Comparison(Result):
    """Win probabilities of m-majority labelling for one budget (section 3, Fig. 2)."""

    model: str
    params: dict[str, float]
    budget: int
    ties: str
    rows: list[ComparisonRow]
    best_m: int
    assumption1: bool | None = None


def compare(
    model: Model,
    budget: int,
    m: Sequence[int] | int = (1, 3, 5),
    *,
    ties: Ties = "failure",
    simulate: int = 0,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Comparison:
    """Exact P(ΣᵢGᵢ > 0) for n = ⌊budget/m⌋ items with m-majority labels, per m, with the Hoeffding
    (Lemma 1) and Cramér (Lemma 2) lower bounds; ``simulate=R`` adds a seeded Monte Carlo estimate."""
    budget = _check_budget(budget)
    rows = []
    for mm in _ms(m):
        n = budget // mm
        if n < 1:
            raise InputError(f"--budget {budget} is smaller than m = {mm}: no item can be labelled")
        g = model.gap(mm)
        out = outcome(g, n)
        mc = (
            simulate_win(
                model, mm, n, simulate, seed=seed, ties=ties, workers=workers, scheduler=scheduler
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
                label_accuracy=model.label_accuracy(mm),
                exact=out.win_probability(ties),
                hoeffding=max(0.0, 1.0 - hoeffding_error(g, n)),
                cramer=max(0.0, 1.0 - cramer_error(g, n)),
                tie=out.tie,
                monte_carlo=None if mc is None else mc.win,
                monte_carlo_se=None if mc is None else mc.se,
            )
        )
    best = max(rows, key=lambda r: (r.exact, -r.m)).m
    return Comparison(
        model=model.kind,
        params=model.params(),
        budget=budget,
        ties=ties,
        rows=rows,
        best_m=best,
        assumption1=getattr(model, "assumption1", None),
    )


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
    model: str
    params: dict[str, float]
    delta: float
    ties: str
    rows: list[SizeRow]
    best_m: int | None


def _bound_n(exponent: float, delta: float) -> int | None:
    if exponent >= 0:
        return None
    return max(1, math.ceil(math.log(delta) / exponent - 1e-12))


def _exact_n(model: Model, m: int, delta: float, ties: Ties, upper: int) -> int:
    """Smallest n with error(n) ≤ δ by bisection on [0, upper] (error(upper) ≤ δ is guaranteed by
    Cramér's bound), then stepping down while the next smaller n also qualifies (ties make the error
    depend on the parity of n, so it is monotone only up to parity)."""
    g = model.gap(m)

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
    model: Model, delta: float = 0.05, m: Sequence[int] | int = (1, 3), *, ties: Ties = "failure"
) -> SizeResult:
    """Smallest label budget k = m·n with P(c_b not identified) ≤ δ for each m: exactly (bisection on the
    exact error), by Cramér ((2√(xy) + z)ⁿ ≤ δ, Lemma 2) and by Hoeffding (exp(−nE[G]²/2) ≤ δ, Lemma 1)."""
    delta = _check_delta(delta)
    rows = []
    for mm in _ms(m):
        g = model.gap(mm)
        n_c = _bound_n(float(cramer_exponent(g.x, g.y)), delta)
        n_h = _bound_n(float(hoeffding_exponent(g.x, g.y)), delta)
        n_e = None if n_c is None or n_c > MAX_N else _exact_n(model, mm, delta, ties, n_c)
        rows.append(
            SizeRow(
                m=mm,
                budget_exact=None if n_e is None else mm * n_e,
                budget_cramer=None if n_c is None else mm * n_c,
                budget_hoeffding=None if n_h is None else mm * n_h,
                n_exact=n_e,
                n_cramer=n_c,
                n_hoeffding=n_h,
                label_accuracy=model.label_accuracy(mm),
            )
        )
    feasible = [r for r in rows if r.budget_exact is not None]
    best = min(feasible, key=lambda r: (r.budget_exact, r.m)).m if feasible else None
    return SizeResult(model.kind, model.params(), delta, ties, rows, best)


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
    model: str
    params: dict[str, float]
    delta: float
    budget: int
    ties: str
    rows: list[CapacityRow]


def capacity(
    model: Model,
    delta: float = 0.05,
    budget: int = 1500,
    m: Sequence[int] | int = (1,),
    *,
    ties: Ties = "failure",
) -> CapacityResult:
    """Benchmark capacity δ / error for n = ⌊budget/m⌋ items (section 3.3 and Fig. 1)."""
    delta, budget = _check_delta(delta), _check_budget(budget)
    rows = []
    for mm in _ms(m):
        n = budget // mm
        if n < 1:
            raise InputError(f"--budget {budget} is smaller than m = {mm}: no item can be labelled")
        g = model.gap(mm)
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
    return CapacityResult(model.kind, model.params(), delta, budget, ties, rows)


# --------------------------------------------------------------------------- Monte Carlo
@dataclass(frozen=True, repr=False)
class MonteCarlo(Result):
    """Monte Carlo estimate of the win / tie / loss probabilities (seeded; standard error of win)."""

    m: int
    n: int
    reps: int
    seed: int
    win: float
    tie: float
    loss: float
    se: float


def _mc_chunk(
    params: tuple[float, float, float, float, float, float],
    m: int,
    n: int,
    reps: int,
    seed: int,
    index: int,
) -> tuple[int, int, int]:
    """One chunk of replicates: items, classifiers and m crowd labels drawn as in
    :func:`humanly.simulate.pair` (majority label, ties by a fair coin); returns win/tie/loss counts."""
    q_b, q_w, q_agree, p_w, p_b0, p_b1 = params
    g = stream(seed, index)
    w_right = g.random((reps, n)) < p_w
    b_right = g.random((reps, n)) < np.where(w_right, p_b1, p_b0)
    only_b = b_right & ~w_right
    only_w = w_right & ~b_right
    q_item = np.where(only_b, q_b, np.where(only_w, q_w, q_agree))
    right = g.binomial(m, q_item)
    label_ok = 2 * right > m
    if m % 2 == 0:
        label_ok |= (2 * right == m) & (g.random((reps, n)) < 0.5)
    gap = np.where(only_b, np.where(label_ok, 1, -1), 0) + np.where(
        only_w, np.where(label_ok, -1, 1), 0
    )
    total = gap.sum(axis=1)
    return int((total > 0).sum()), int((total == 0).sum()), int((total < 0).sum())


def simulate_win(
    model: Model,
    m: int,
    n: int,
    reps: int,
    *,
    seed: int = 0,
    ties: Ties = "failure",
    workers: int | None = None,
    scheduler: str | None = None,
) -> MonteCarlo:
    """Monte Carlo P(c_b identified) with n items and m labels each: simulates items, both classifiers and
    the crowd labels (not G directly), so it checks Propositions 1/2, M_m and the exact sum together.
    Chunk i of replicates draws from ``stream(seed, i)``: same seed, same numbers on any number of
    workers."""
    if reps < 1:
        raise InputError(f"--simulate {reps}: give a positive number of replicates")
    if n < 1:
        raise InputError(f"n = {n}: simulate at least one item")
    p = model.params()
    if model.kind == "independent":
        params = (p["q"], p["q"], p["q"], p["p"], p["p"] + p["eps"], p["p"] + p["eps"])
    else:
        qa = (p["q_b"] + p["q_w"]) / 2
        params = (p["q_b"], p["q_w"], qa, p["p_w"], p["p_b0"], p["p_b1"])
    per = max(1, min(reps, 2_000_000 // max(n, 1)))
    sizes = [min(per, reps - s) for s in range(0, reps, per)]
    args = [(params, int(m), int(n), size, int(seed), i) for i, size in enumerate(sizes)]
    counts = run_tasks(
        _mc_chunk,
        args,
        workers=workers,
        scheduler=scheduler,
        description="simulating",
        show_progress=len(args) > 4,
    )
    win, tie, loss = (sum(c[k] for c in counts) for k in range(3))
    pw, pt = win / reps, tie / reps
    est = pw + 0.5 * pt if ties == "half" else pw
    var = est * (1 - est) if ties == "failure" else (pw + 0.25 * pt) - est**2
    return MonteCarlo(
        int(m), int(n), int(reps), int(seed), est, pt, loss / reps, math.sqrt(max(var, 0) / reps)
    )


# --------------------------------------------------------------------------- one clean call (report)
@dataclass(frozen=True, repr=False)
class QuickComparison(Result):
    """For a label accuracy q: win probability of single vs m-majority labelling at a budget, and the
    budget each needs for error ≤ δ (independent model, Proposition 1)."""

    label_accuracy: float
    p: float
    eps: float
    budget: int
    delta: float
    m: list[int]
    win: list[float]
    budget_needed: list[int | None]
    best_m: int
    single_is_best: bool
    notes: list[str] = field(default_factory=list)


def quick_compare(
    label_accuracy: float,
    budget: int = 1500,
    *,
    p: float = 0.8,
    eps: float = 0.01,
    m: Sequence[int] = (1, 3, 5),
    delta: float = 0.05,
) -> QuickComparison:
    """One call for reports: for an estimated label accuracy q (e.g. from pilot data), the exact
    probability that single labels (m = 1) vs m-majority labels identify the better of two classifiers
    with accuracies p and p + ε for ``budget`` labels, and the budget each needs for error ≤ δ. Defaults
    p = 0.8, ε = 0.01 are the paper's Fig. 2. A q ≤ 0.5 (labels no better than chance) is clipped to
    0.5 + 1e-9 and noted."""
    notes = []
    q = float(label_accuracy)
    if q <= 0.5:
        notes.append(
            f"label accuracy {q:.3g} ≤ 0.5: labels carry no signal; clipped to just above 0.5"
        )
        q = 0.5 + 1e-9
    q = min(q, 1.0)
    model = make_model(p=p, eps=eps, q=q)
    ms = _ms(m)
    cmp = compare(model, budget, ms)
    size = sample_size(model, delta, ms)
    return QuickComparison(
        label_accuracy=float(label_accuracy),
        p=p,
        eps=eps,
        budget=int(budget),
        delta=delta,
        m=list(ms),
        win=[r.exact for r in cmp.rows],
        budget_needed=[r.budget_exact for r in size.rows],
        best_m=cmp.best_m,
        single_is_best=cmp.best_m == 1,
        notes=notes,
    )
