"""Bounds against the number of raters k (the paper's Fig. 3): its points and how they are computed.

Slots mode is exact (hypergeometric weights over the k-subsets of an item's labels, on the items with at
least ``k_max`` labels so every k describes the same items); named mode averages over k-subsets of the
raters, all of them when there are at most ``max_subsets``, else that many sampled with the stream
``(seed, k)`` — on dask.distributed when asked, with the same numbers.

>>> from humanly import simulate
>>> from humanly.certify import certify
>>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
>>> [p.k for p in certify(d.ratings, d.predictions, curve=True).curve]
[1, 2, 3]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any

import numpy as np
import pandas as pd

from .._counts import (
    expected_plurality_credit,
    pairwise_agreement,
    plurality_credit,
    unique_rows_with_target,
)
from .._parallel import run_tasks
from .._random import stream
from .._result import Result
from ..data import InputError, Ratings
from ._agreement import named_agreement, offdiag_mean

__all__ = ["BoundCurve", "BoundCurvePoint", "bound_curve", "curve_k_max"]


@dataclasses.dataclass(frozen=True, repr=False)
class BoundCurvePoint(Result):
    """Bounds with k raters (Fig. 3): U⁽ᵗ⁾_N, U⁽ᵉ⁾_N, each model's L_N (``lower``) against the
    aggregate of k raters, and with gold the aggregate's accuracy. ``exact`` is False when subsets were
    sampled (``subsets`` of them, named raters).

    >>> BoundCurvePoint(1, 1.0, None, {"m": 0.8}, 100, True).lower["m"]
    0.8
    """

    k: int
    theoretical: float | None
    empirical: float | None
    lower: dict[str, float | None]
    n_items: int
    exact: bool
    aggregate_accuracy: float | None = None
    subsets: int | None = None


class BoundCurve(tuple[BoundCurvePoint, ...]):
    """The curve of Fig. 3: one :class:`BoundCurvePoint` per k (a tuple; ``--json`` shows a list).

    >>> curve = BoundCurve([BoundCurvePoint(1, 1.0, None, {"m": 0.8}, 100, True)])
    >>> curve.to_frame()[["k", "theoretical", "lower:m"]]
       k  theoretical  lower:m
    0  1          1.0      0.8
    """

    __slots__ = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per k: U⁽ᵗ⁾_N, U⁽ᵉ⁾_N, ``lower:<model>`` (L_N), the aggregate's accuracy, items."""
        rows = []
        for p in self:
            row: dict[str, Any] = {
                "k": p.k,
                "theoretical": p.theoretical,
                "empirical": p.empirical,
            }
            row.update({f"lower:{name}": v for name, v in p.lower.items()})
            row.update(
                {
                    "aggregate_accuracy": p.aggregate_accuracy,
                    "n_items": p.n_items,
                    "exact": p.exact,
                    "subsets": p.subsets,
                }
            )
            rows.append(row)
        return pd.DataFrame(rows)


def curve_k_max(ratings: Ratings, raters: str, curve_max_k: int | None) -> tuple[int, list[str]]:
    """The largest k of the curve and a note when slots mode keeps only some items: by default K in
    a complete design, else (ragged slots) the median number of labels per item, or (named) the largest
    number of labels of an item, capped by the number of raters."""
    n_lab = ratings.counts.sum(axis=1)
    notes: list[str] = []
    if raters == "named":
        k_cap = len(ratings.raters) if ratings.raters is not None else 1
        return min(curve_max_k or int(n_lab.max()), k_cap), notes
    k_max = curve_max_k or int(np.median(n_lab[n_lab >= 1]))
    n_pop = int((n_lab >= k_max).sum())
    if n_pop == 0:
        raise InputError(f"curve_max_k={k_max}: no item has that many labels")
    if n_pop < ratings.n_items:
        notes.append(
            f"curve over k = 1 … {k_max} uses the {n_pop} items with ≥ {k_max} labels "
            "(the same items at every k)"
        )
    return k_max, notes


def bound_curve(
    ratings: Ratings,
    hard: dict[str, np.ndarray],
    gold: np.ndarray | None,
    raters: str,
    max_subsets: int,
    seed: int | None,
    k_max: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
) -> BoundCurve:
    """Fig. 3 for k = 1 … ``k_max``: ``hard`` holds each model's class codes and ``gold`` the gold codes
    (-1: none) in the ratings' item order."""
    if raters == "named":
        a, _, mat = named_agreement(ratings)
        args = [
            (mat, a, hard, gold, k, max_subsets, seed, ratings.n_classes)
            for k in range(1, k_max + 1)
        ]
        points = run_tasks(
            _named_curve_point,
            args,
            workers=workers,
            scheduler=scheduler,
            client=client,
            description="curve",
        )
        return BoundCurve(points)
    return _slots_curve(ratings.counts, hard, gold, k_max)


def _mean_credit_k(rows: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> float:
    """Mean over items of the exact expected plurality credit of a random k-subset of their labels."""
    uniq, target, inv = rows
    vals = expected_plurality_credit(uniq, target, k)[inv]
    return float(np.nanmean(vals)) if np.isfinite(vals).any() else float("nan")


def _slots_curve(
    counts: np.ndarray, hard: dict[str, np.ndarray], g: np.ndarray | None, k_max: int
) -> BoundCurve:
    """Slots mode, exact: one population for every k, the items with at least ``k_max`` labels (all
    items when K is constant)."""
    n = counts.sum(axis=1)
    pop = n >= k_max
    counts, n = counts[pop], n[pop]
    hard = {name: pred[pop] for name, pred in hard.items()}
    g = None if g is None else g[pop]
    e2 = float(pairwise_agreement(counts).mean()) if k_max >= 2 else float("nan")
    rows = {name: unique_rows_with_target(counts, pred) for name, pred in hard.items()}
    rows_gold = unique_rows_with_target(counts, g) if g is not None else None
    points = []
    for k in range(1, k_max + 1):
        emp: float | None
        if k >= 2:
            # a random k-subset of an item's distinct raters has the same expected agreement
            emp = math.sqrt(e2)
            theo = math.sqrt(1.0 / k + (k - 1.0) / k * e2)
        else:
            emp, theo = None, 1.0
        lower: dict[str, float | None] = {name: _mean_credit_k(rows[name], k) for name in hard}
        acc = None
        if rows_gold is not None and g is not None and (g >= 0).any():
            acc = _mean_credit_k(rows_gold, k)
        points.append(BoundCurvePoint(k, theo, emp, lower, int(pop.sum()), True, acc, None))
    return BoundCurve(points)


def _named_curve_point(
    mat: np.ndarray,
    a: np.ndarray,
    hard: dict[str, np.ndarray],
    g: np.ndarray | None,
    k: int,
    max_subsets: int,
    seed: int | None,
    n_cls: int,
) -> BoundCurvePoint:
    """Fig. 3 at k named raters: averages over k-subsets of raters (all if few, else sampled with
    the stream (seed, k))."""
    k_all = a.shape[0]
    total = math.comb(k_all, k)
    if total <= max_subsets:
        subsets = [np.asarray(s) for s in itertools.combinations(range(k_all), k)]
        exact = True
    else:
        r = stream(seed, k)
        subsets = [np.sort(r.choice(k_all, size=k, replace=False)) for _ in range(max_subsets)]
        exact = False
    theo, emp, accs = [], [], []
    lows: dict[str, list[float]] = {name: [] for name in hard}
    n_items = []
    for s in subsets:
        sub = a[np.ix_(s, s)]
        e2 = offdiag_mean(sub) if k >= 2 else float("nan")
        if k >= 2 and math.isfinite(e2):
            emp.append(math.sqrt(e2))
            theo.append(math.sqrt(1.0 / k + (k - 1.0) / k * e2))
        elif k == 1:
            theo.append(1.0)
        m = mat[:, s]
        cnt = np.stack([(m == c).sum(axis=1) for c in range(n_cls)], axis=1)
        has = cnt.sum(axis=1) > 0
        n_items.append(int(has.sum()))
        if not has.any():
            continue
        for name, pred in hard.items():
            lows[name].append(float(np.nanmean(plurality_credit(cnt[has], pred[has]))))
        if g is not None and ((g >= 0) & has).any():
            sel = has & (g >= 0)
            accs.append(float(np.nanmean(plurality_credit(cnt[sel], g[sel]))))
    return BoundCurvePoint(
        k,
        float(np.mean(theo)) if theo else None,
        float(np.mean(emp)) if emp else None,
        {name: (float(np.mean(v)) if v else None) for name, v in lows.items()},
        int(np.median(n_items)) if n_items else 0,
        exact,
        float(np.mean(accs)) if accs else None,
        len(subsets),
    )
