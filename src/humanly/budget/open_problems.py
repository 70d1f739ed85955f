"""The paper's open problems (section 5), by seeded Monte Carlo simulation.

* :func:`plurality_vs_single` — more than two classes with plurality voting: K classes, a label is right
  with probability q and otherwise uniform over the K − 1 wrong classes; c_w / c_b are right with
  probability p / p + ε independently and otherwise predict a uniform wrong class; the test label is the
  plurality of m labels (ties broken uniformly at random). Compares P(c_b has the higher test accuracy)
  for m labels on ⌊k/m⌋ items against one label on k items; the exact value (``exact``) comes from
  :mod:`humanly.budget.multiclass`, which also handles class-conditional confusion matrices.
* :func:`adaptive_vs_single` — binary labels, "two labels, a third only on a tie": the adaptive label is
  right with probability M_3(q) (a tie is broken by the third label) at an expected cost of
  2 + 2q(1 − q) labels per item. Items are labelled one after another until the budget k is spent, so the
  number of items is random; compared with single labels on k items and 3-majority labels on ⌊k/3⌋ items.
  The exact probability at the expected number of items, n = ⌊k / (2 + 2q(1 − q))⌋, is reported too
  (independent model: the adaptive label is a single label of accuracy M_3(q)).

Replicate chunk i draws from ``stream(seed, i)``: same seed, same numbers on any number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number, check_probability
from .._core.parallel import run_tasks
from .._core.result import Result
from .._core.rng import stream
from ..errors import InputError, setting
from ._args import check_budget, check_ms, items_for_budget
from .exact import outcome
from .models import CorrelatedErrors, ErrorModel, IndependentErrors, majority_accuracy
from .montecarlo import _chunk_params
from .multiclass import multiclass_gap, multiclass_setting, symmetric_confusion

__all__ = [
    "PluralitySetting",
    "StrategyComparison",
    "StrategyRow",
    "adaptive_label_accuracy",
    "adaptive_vs_single",
    "plurality_vs_single",
]


@dataclass(frozen=True, repr=False)
class StrategyRow(Result):
    """One labelling strategy of a :class:`StrategyComparison` at a fixed budget.

    Parameters
    ----------
    strategy : str
        The strategy ("plurality of 3", "single", "majority3", "adaptive").
    labels_per_item : float
        Labels per item (expected, for the adaptive strategy).
    items : float
        Items (expected, for the adaptive strategy).
    win : float
        The Monte Carlo P(c_b identified) (ties count as failure).
    se : float
        Its standard error.
    exact : float, optional
        The exact value where one is known.

    Examples
    --------
    >>> StrategyRow("single", 1.0, 600.0, 0.9, 0.01).to_dict()["exact"] is None
    True
    """

    strategy: str
    labels_per_item: float
    items: float
    win: float
    se: float
    exact: float | None = None


@dataclass(frozen=True, repr=False)
class PluralitySetting(Result):
    """The plurality problem's parameters.

    Parameters
    ----------
    n_classes : int
        K.
    q : float
        The accuracy of one label.
    p : float
        The worse classifier's accuracy.
    eps : float
        The better classifier's margin.

    Examples
    --------
    >>> PluralitySetting(3, 0.7, 0.7, 0.1).to_dict()
    {'n_classes': 3, 'q': 0.7, 'p': 0.7, 'eps': 0.1}
    """

    n_classes: int
    q: float
    p: float
    eps: float


@dataclass(frozen=True, repr=False)
class StrategyComparison(Result):
    """Monte Carlo P(c_b identified) per labelling strategy at one budget (the open problems, §5).

    Parameters
    ----------
    problem : {"plurality", "adaptive"}
        Which open problem.
    params : PluralitySetting or IndependentErrors or CorrelatedErrors
        The setting (:class:`PluralitySetting` for ``"plurality"``, the error model for
        ``"adaptive"``).
    budget : int
        The label budget.
    simulations : int
        Replicates.
    seed : int
        The seed.
    rows : tuple of StrategyRow
        One row per strategy.
    best : str
        The strategy with the highest win probability.
    vote_ties : str
        A tied plurality is broken uniformly at random (a fair coin for two classes; the adaptive
        strategy never ties).

    Examples
    --------
    >>> res = plurality_vs_single(3, 0.7, 0.7, 0.1, 60, (1,), simulations=20, seed=1)
    >>> res.problem, len(res.rows)
    ('plurality', 1)
    """

    problem: str
    params: PluralitySetting | IndependentErrors | CorrelatedErrors
    budget: int
    simulations: int
    seed: int
    rows: tuple[StrategyRow, ...]
    best: str
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per strategy (the columns of :class:`StrategyRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.rows])


def _check(budget: int, simulations: int, seed: int) -> tuple[int, int, int]:
    return (
        check_budget(budget),
        check_int("simulations", simulations, minimum=1),
        check_int("seed", seed, minimum=0),
    )


def _chunks(simulations: int, per: int) -> list[int]:
    return [min(per, simulations - s) for s in range(0, simulations, per)]


# --------------------------------------------------------------------------- plurality voting
def _plurality_chunk(
    k: int, q: float, p: float, eps: float, m: int, n: int, simulations: int, seed: int, index: int
) -> int:
    g = stream(seed, index)
    shape = (simulations, n)
    # truth is class 0 by symmetry; wrong answers are uniform over 1..K-1
    pv = np.array([q] + [(1 - q) / (k - 1)] * (k - 1))
    counts = g.multinomial(m, pv, size=shape)  # (simulations, n, K)
    label = np.argmax(counts + g.random(counts.shape) * 0.5, axis=2)  # random tie-break
    wrong_w = g.integers(1, k, size=shape)
    wrong_b = g.integers(1, k, size=shape)
    cw = np.where(g.random(shape) < p, 0, wrong_w)
    cb = np.where(g.random(shape) < p + eps, 0, wrong_b)
    gap = (cb == label).astype(np.int64) - (cw == label).astype(np.int64)
    return int((gap.sum(axis=1) > 0).sum())


def plurality_vs_single(
    n_classes: int,
    q: float,
    p: float,
    eps: float,
    budget: int,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    *,
    simulations: int = 2000,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
) -> StrategyComparison:
    """Monte Carlo P(c_b identified) with K-class plurality labels of m labels on ⌊k/m⌋ items, per m.

    Labels are right with probability q, otherwise a uniform wrong class; the classifiers likewise
    with p and p + ε; a tied plurality is broken at random. The exact value comes from
    :func:`multiclass_compare`.

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    q : float
        The accuracy of one label (above 1/K).
    p : float
        The worse classifier's accuracy.
    eps : float
        The better classifier's margin.
    budget : int
        The label budget.
    labels_per_item : int or sequence of int
        Labels per item.
    simulations : int
        Replicates.
    seed : int
        The seed.
    workers : int, optional
        Run the replicates on a dask LocalCluster of this many workers.
    scheduler : str, optional
        Run the replicates on a running dask scheduler.

    Returns
    -------
    StrategyComparison
        One row per m, with the exact value.

    Examples
    --------
    >>> res = plurality_vs_single(3, 0.7, 0.7, 0.1, 60, (1, 3), simulations=100, seed=1)
    >>> [r.strategy for r in res.rows]
    ['plurality of 1', 'plurality of 3']
    """
    budget, simulations, seed = _check(budget, simulations, seed)
    ms = check_ms(labels_per_item)
    n_classes = check_int("n_classes", n_classes, minimum=2)
    q = float(check_probability("q", q))
    if not 1 / n_classes < q:
        raise InputError(
            f"{setting('q', format(q, 'g'), raw=True)}: label accuracy must exceed chance 1/K = "
            f"{1 / n_classes:.3g}"
        )
    p = float(check_probability("p", p))
    eps = float(check_number("eps", eps, minimum=0.0, maximum=1.0 - p, open_low=True))
    rows = []
    for i, mm in enumerate(ms):
        n = items_for_budget(budget, mm)
        per = max(1, 4_000_000 // max(1, n * mm * n_classes))
        sizes = _chunks(simulations, per)
        args = [
            (n_classes, q, p, eps, mm, n, size, seed, 1000 * i + c) for c, size in enumerate(sizes)
        ]
        wins = sum(
            run_tasks(
                _plurality_chunk, args, workers=workers, scheduler=scheduler, show_progress=False
            )
        )
        w = wins / simulations
        exact = None
        if n_classes == 2:
            exact = outcome(IndependentErrors(p, eps, q, check=False).gap(mm), n).win
        else:  # the same setting exactly (humanly.budget.multiclass)
            exact_setting = multiclass_setting(
                symmetric_confusion(n_classes, q),
                symmetric_confusion(n_classes, p + eps),
                symmetric_confusion(n_classes, p),
                None,
            )
            exact = outcome(multiclass_gap(exact_setting, mm, "plurality"), n).win
        rows.append(
            StrategyRow(f"plurality of {mm}", mm, n, w, math.sqrt(w * (1 - w) / simulations), exact)
        )
    best = max(rows, key=lambda r: r.win).strategy
    plurality = PluralitySetting(n_classes, q, p, eps)
    return StrategyComparison("plurality", plurality, budget, simulations, seed, tuple(rows), best)


# --------------------------------------------------------------------------- adaptive labelling
def _adaptive_chunk(
    params: tuple[float, ...], strategy: str, budget: int, simulations: int, seed: int, index: int
) -> int:
    q_b, q_w, q_agree, p_w, p_b0, p_b1 = params
    g = stream(seed, index)
    shape = (simulations, _strategy_items(strategy, budget))
    w_right = g.random(shape) < p_w
    b_right = g.random(shape) < np.where(w_right, p_b1, p_b0)
    only_b, only_w = b_right & ~w_right, w_right & ~b_right
    qi = np.where(only_b, q_b, np.where(only_w, q_w, q_agree))
    first = g.random(shape) < qi
    if strategy == "single":
        ok = first
        used = np.ones(shape, dtype=bool)
    elif strategy == "majority3":
        ok = g.binomial(3, qi) >= 2
        used = np.ones(shape, dtype=bool)
    else:
        second = g.random(shape) < qi
        third = g.random(shape) < qi
        tie = first != second
        ok = np.where(tie, third, first)
        cost = np.where(tie, 3, 2)
        used = np.cumsum(cost, axis=1) <= budget  # items labelled before the budget runs out
    gap = np.where(only_b, np.where(ok, 1, -1), 0) + np.where(only_w, np.where(ok, -1, 1), 0)
    total = np.where(used, gap, 0).sum(axis=1)
    return int((total > 0).sum())


def _strategy_items(strategy: str, budget: int) -> int:
    """Most items a strategy can label: k (single), ⌊k/3⌋ (3-majority), ⌊k/2⌋ (adaptive)."""
    return (
        budget if strategy == "single" else budget // 3 if strategy == "majority3" else budget // 2
    )


def adaptive_vs_single(
    error_model: ErrorModel,
    budget: int,
    *,
    simulations: int = 2000,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
) -> StrategyComparison:
    """Monte Carlo P(c_b identified) for single labels, 3-majority labels and "a third label only on a tie".

    The three strategies spend the same label budget; the adaptive one labels items until the budget
    runs out.

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    budget : int
        The label budget.
    simulations : int
        Replicates.
    seed : int
        The seed.
    workers : int, optional
        Run the replicates on a dask LocalCluster of this many workers.
    scheduler : str, optional
        Run the replicates on a running dask scheduler.

    Returns
    -------
    StrategyComparison
        One row per strategy, with the exact value where the label accuracy is one number.

    Examples
    --------
    >>> res = adaptive_vs_single(IndependentErrors(0.8, 0.05, 0.8), 90, simulations=100, seed=1)
    >>> [r.strategy for r in res.rows]
    ['single', 'majority3', 'adaptive']
    """
    budget, simulations, seed = _check(budget, simulations, seed)
    params = _chunk_params(error_model)
    q_mean = params[0] if params[0] == params[1] else None
    rows = []
    for i, strategy in enumerate(("single", "majority3", "adaptive")):
        cap = _strategy_items(strategy, budget)
        per = max(1, 4_000_000 // max(1, cap))
        sizes = _chunks(simulations, per)
        args = [(params, strategy, budget, s, seed, 1000 * i + c) for c, s in enumerate(sizes)]
        wins = sum(
            run_tasks(
                _adaptive_chunk, args, workers=workers, scheduler=scheduler, show_progress=False
            )
        )
        w = wins / simulations
        if strategy == "adaptive":
            per_item = 2 + 2 * q_mean * (1 - q_mean) if q_mean is not None else float("nan")
        else:
            per_item = 1.0 if strategy == "single" else 3.0
        items = budget / per_item if math.isfinite(per_item) else float("nan")
        exact = None
        if q_mean is not None:
            gap = error_model.gap(1 if strategy == "single" else 3)
            n_items = budget if strategy == "single" else budget // 3
            if strategy == "adaptive":
                n_items = int(budget // per_item)
            exact = outcome(gap, n_items).win
        rows.append(
            StrategyRow(strategy, per_item, items, w, math.sqrt(w * (1 - w) / simulations), exact)
        )
    best = max(rows, key=lambda r: r.win).strategy
    return StrategyComparison("adaptive", error_model, budget, simulations, seed, tuple(rows), best)


def adaptive_label_accuracy(q: float) -> float:
    """Accuracy of "two labels, a third only on a tie": q² + 2q(1 − q)·q = M_3(q).

    >>> round(adaptive_label_accuracy(0.8), 3)
    0.896
    """
    return float(majority_accuracy(q, 3))
