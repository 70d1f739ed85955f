"""Bounds against the number of raters k (the paper's Fig. 3): its points and how they are computed.

Slots mode is exact (hypergeometric weights over the k-subsets of an item's labels, on the items with at
least ``k_max`` labels so every k describes the same items); named mode averages over k-subsets of the
raters, all of them when there are at most ``max_subsets``, else that many sampled with the stream
``(seed, k)`` — on dask.distributed when asked, with the same numbers.

>>> from humanly import simulate
>>> from humanly.certification import certify
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

from .._core.counts import (
    expected_plurality_credit,
    pairwise_agreement,
    plurality_credit,
    unique_rows_with_target,
)
from .._core.parallel import run_tasks
from .._core.result import Note, Result
from .._core.rng import stream
from ..data import InputError, Ratings
from ..errors import setting
from ._agreement import MATRIX_MAX_RATERS, dedupe_last, offdiag_mean, rater_pairs

__all__ = ["NAMED_MAX_K", "BoundCurve", "BoundCurvePoint", "bound_curve", "curve_k_max", "curve_ks"]

#: the default largest k of the named curve (a note says when it binds; ``CertifyOptions.curve_max_k``
#: overrides it)
NAMED_MAX_K = 50
#: items × raters cells up to which the named curve reads one dense items × raters matrix
_DENSE_CURVE_CELLS = 2**26


@dataclasses.dataclass(frozen=True, repr=False)
class BoundCurvePoint(Result):
    """The bounds with k raters (one point of Fig. 3).

    Parameters
    ----------
    k : int
        The number of raters.
    theoretical, empirical : float or None
        U⁽ᵗ⁾_N and U⁽ᵉ⁾_N of k raters (U⁽ᵉ⁾ needs k ≥ 2).
    lower : dict of str to float or None
        Each model's L_N against the plurality of k raters.
    n_items : int
        The items behind the point (named raters: the median over subsets).
    exact : bool
        False when rater subsets were sampled (named raters).
    aggregate_accuracy : float, optional
        With gold: the accuracy of the plurality of k raters.
    subsets : int, optional
        Named raters: the rater subsets averaged over.

    Examples
    --------
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

    Parameters
    ----------
    iterable : iterable of BoundCurvePoint
        The points, k = 1, 2, …

    Examples
    --------
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


def curve_k_max(ratings: Ratings, raters: str, curve_max_k: int | None) -> tuple[int, list[Note]]:
    """The largest k of the curve and a note when slots mode keeps only some items: by default K in
    a complete design, else (ragged slots) the median number of labels per item, or (named) the largest
    number of labels of an item, capped by the number of raters and by default by :data:`NAMED_MAX_K`
    (a note says so)."""
    n_lab = ratings.counts.sum(axis=1)
    notes: list[Note] = []
    if raters == "named":
        k_cap = len(ratings.raters) if ratings.raters is not None else 1
        k_named = min(curve_max_k or int(n_lab.max()), k_cap)
        if curve_max_k is None and k_named > NAMED_MAX_K:
            notes.append(Note("named_curve_capped", {"max_k": NAMED_MAX_K, "raters": k_named}))
            k_named = NAMED_MAX_K
        return k_named, notes
    k_max = curve_max_k or int(np.median(n_lab[n_lab >= 1]))
    n_pop = int((n_lab >= k_max).sum())
    if n_pop == 0:
        raise InputError(f"{setting('curve_max_k', k_max)}: no item has that many labels")
    if n_pop < ratings.n_items:
        notes.append(Note("curve_items_subset", {"k": k_max, "items": n_pop}))
    return k_max, notes


#: ``curve_ks(k_max, every_k=False)``: every k up to this one, then every ``_THINNED_STEP``-th
_THINNED_ALL = 20
_THINNED_STEP = 5


def curve_ks(k_max: int, every_k: bool = True) -> tuple[int, ...]:
    """The k of the curve: every k = 1 … ``k_max``, or (``every_k=False``) every k up to 20, then
    every fifth k and ``k_max``.

    >>> curve_ks(23, every_k=False)
    (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23)
    >>> curve_ks(100, every_k=False)[-4:], len(curve_ks(100, every_k=False))
    ((85, 90, 95, 100), 36)
    """
    if every_k or k_max <= _THINNED_ALL:
        return tuple(range(1, k_max + 1))
    ks = list(range(1, _THINNED_ALL + 1))
    ks += range(_THINNED_ALL + _THINNED_STEP, k_max + 1, _THINNED_STEP)
    return tuple(ks if ks[-1] == k_max else [*ks, k_max])


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
    agreement: np.ndarray | None = None,
    every_k: bool = True,
) -> BoundCurve:
    """Fig. 3 for k = 1 … ``k_max`` (the k of :func:`curve_ks`; each point as it is with every k):
    ``hard`` holds each model's class codes and ``gold`` the gold codes
    (-1: none) in the ratings' item order. Named raters: ``agreement`` is the R × R agreement matrix
    when already computed (up to :data:`~._agreement.MATRIX_MAX_RATERS` raters); with more raters, or
    more items × raters than one dense matrix should hold, each subset reads only its own raters'
    labels (the same numbers)."""
    if raters == "named":
        n_r = int(ratings.n_raters or 0)
        if agreement is None and n_r <= MATRIX_MAX_RATERS:
            agreement = rater_pairs(ratings).matrix
        labels: np.ndarray | _ByRater
        if ratings.n_items * n_r <= _DENSE_CURVE_CELLS:
            labels = ratings.matrix()
        else:
            labels = _ByRater.of(ratings)
        args = [
            (labels, agreement, hard, gold, k, max_subsets, seed, ratings.n_classes, n_r)
            for k in curve_ks(k_max, every_k)
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
    return _slots_curve(ratings.counts, hard, gold, k_max, curve_ks(k_max, every_k))


def _mean_credit_k(rows: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> float:
    """Mean over items of the exact expected plurality credit of a random k-subset of their labels."""
    uniq, target, inv = rows
    vals = expected_plurality_credit(uniq, target, k)[inv]
    return float(np.nanmean(vals)) if np.isfinite(vals).any() else float("nan")


def _slots_curve(
    counts: np.ndarray,
    hard: dict[str, np.ndarray],
    g: np.ndarray | None,
    k_max: int,
    ks: tuple[int, ...],
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
    for k in ks:
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


@dataclasses.dataclass(frozen=True)
class _ByRater:
    """The labels grouped by rater (one per item and rater): rater ``r`` labelled ``item[o[r]:o[r+1]]``
    with ``label[o[r]:o[r+1]]``."""

    item: np.ndarray
    label: np.ndarray
    offsets: np.ndarray
    n_items: int

    @classmethod
    def of(cls, ratings: Ratings) -> _ByRater:
        item, rater, label = dedupe_last(ratings)
        order = np.argsort(rater, kind="stable")
        counts = np.bincount(rater, minlength=int(ratings.n_raters or 0))
        offsets = np.concatenate([[0], np.cumsum(counts)])
        return cls(item[order], label[order], offsets, ratings.n_items)

    def matrix(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The items the raters ``s`` labelled (ascending) and their items × len(s) label matrix."""
        parts = [np.arange(self.offsets[r], self.offsets[r + 1]) for r in s]
        idx = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        col = np.repeat(np.arange(len(s)), [len(p) for p in parts])
        items = np.unique(self.item[idx])
        mat = np.full((len(items), len(s)), -1, dtype=np.int64)
        mat[np.searchsorted(items, self.item[idx]), col] = self.label[idx]
        return items, mat


def _subset_agreement(mat: np.ndarray, n_cls: int) -> float:
    """Mean pairwise agreement (eq. 8) of the raters of ``mat`` (items × raters, -1: none), from the
    whole-number counts of their common items — the entries of the full agreement matrix."""
    labelled = (mat >= 0).astype(np.float64)
    common = labelled.T @ labelled
    agree = np.zeros_like(common)
    for c in range(n_cls):
        y = (mat == c).astype(np.float64)
        agree += y.T @ y
    with np.errstate(invalid="ignore", divide="ignore"):
        a = agree / common
    a[common == 0] = np.nan
    return offdiag_mean(a)


def _named_curve_point(
    labels: np.ndarray | _ByRater,
    a: np.ndarray | None,
    hard: dict[str, np.ndarray],
    g: np.ndarray | None,
    k: int,
    max_subsets: int,
    seed: int | None,
    n_cls: int,
    k_all: int,
) -> BoundCurvePoint:
    """Fig. 3 at k named raters: averages over k-subsets of raters (all if few, else sampled with
    the stream (seed, k)). ``labels`` is the items × raters matrix, or the labels by rater when that
    matrix would be too large; ``a`` the agreement matrix (``None`` above
    :data:`~._agreement.MATRIX_MAX_RATERS` raters: each subset's agreement is counted from its
    labels)."""
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
        if isinstance(labels, _ByRater):
            rows, m = labels.matrix(s)
        else:
            rows, m = np.arange(labels.shape[0]), labels[:, s]
        if k >= 2:
            e2 = offdiag_mean(a[np.ix_(s, s)]) if a is not None else _subset_agreement(m, n_cls)
        else:
            e2 = float("nan")
        if k >= 2 and math.isfinite(e2):
            emp.append(math.sqrt(e2))
            theo.append(math.sqrt(1.0 / k + (k - 1.0) / k * e2))
        elif k == 1:
            theo.append(1.0)
        cnt = np.stack([(m == c).sum(axis=1) for c in range(n_cls)], axis=1)
        has = cnt.sum(axis=1) > 0
        n_items.append(int(has.sum()))
        if not has.any():
            continue
        on = rows[has]
        for name, pred in hard.items():
            lows[name].append(float(np.nanmean(plurality_credit(cnt[has], pred[on]))))
        if g is not None and ((g[rows] >= 0) & has).any():
            sel = has & (g[rows] >= 0)
            accs.append(float(np.nanmean(plurality_credit(cnt[sel], g[rows][sel]))))
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
