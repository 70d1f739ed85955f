"""The canonical order of a study: items and raters sorted by id, each item's labels sorted by rater.

Every analysis draws its random streams over items (bootstrap, certify's curves, the planner's pilot,
the judge's sample) by position. So that the same data and seed give the same numbers, and the report
the same bytes, whatever the row order of every input, :class:`~humanly.data.Study` (what
:func:`~humanly.data.join` and :func:`humanly.read_study` return) and ``as_ratings`` hold the ratings
in this order, and the predictions and gold in the same order.

Ids of one type sort as they compare (numbers as numbers, text as text); ids of mixed types (``3`` and
``"a"``) sort by type name, then by text.

>>> import pandas as pd
>>> sort_positions(pd.Index(["b", "a", "c"])).tolist()
[1, 0, 2]
>>> sort_positions(pd.Index([1, 2, 3])) is None  # already sorted
True
>>> sort_positions(pd.Index([2, "a", 1])).tolist()
[2, 0, 1]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from .ratings import Ratings

__all__ = ["canonical_ratings", "is_sorted", "sort_positions"]


def _mixed_keys(index: pd.Index) -> np.ndarray:
    """Positions that sort ids of mixed types: by type name, then by text (then by position)."""
    kinds = np.array([type(x).__name__ for x in index], dtype=object)
    text = np.array([str(x) for x in index], dtype=object)
    return np.lexsort((np.arange(len(index)), text, kinds))


def is_sorted(index: pd.Index) -> bool:
    """Whether the ids are in canonical (sorted) order."""
    if len(index) < 2:
        return True
    if getattr(index.array, "__arrow_array__", None) is not None and index.dtype.kind not in "iufb":
        from .matching import increasing  # Arrow-backed text: compared by Arrow, not as objects

        return increasing(index)
    try:
        return bool(index.is_monotonic_increasing)
    except TypeError:
        return bool(np.array_equal(_mixed_keys(index), np.arange(len(index))))


def sort_positions(index: pd.Index) -> np.ndarray | None:
    """The positions that put ``index`` in canonical order, or ``None`` when it already is."""
    if is_sorted(index):
        return None
    try:
        return np.asarray(index.argsort(kind="stable"), dtype=np.int64)
    except TypeError:  # ids of mixed types
        return _mixed_keys(index).astype(np.int64)


def _inverse(order: np.ndarray | None, n: int) -> np.ndarray:
    inv = np.empty(n, dtype=np.int64)
    inv[np.arange(n) if order is None else order] = np.arange(n)
    return inv


def _labels_sorted(item: np.ndarray, rater: np.ndarray, label: np.ndarray, n_r: int) -> bool:
    if len(item) < 2:
        return True
    key = item.astype(np.int64) * max(n_r, 1) + rater
    step = np.diff(key)
    if (step < 0).any():
        return False
    same = step == 0
    return not same.any() or bool((np.diff(label.astype(np.int64))[same] >= 0).all())


def canonical_ratings(ratings: Ratings) -> tuple[Ratings, np.ndarray | None]:
    """The ratings in canonical order, and the item positions that order them (``None``: unchanged).

    Items and raters sorted by id; each item's labels sorted by rater, then label. Counts, classes and
    source are unchanged.
    """
    item_order = sort_positions(ratings.items)
    if not ratings.has_raters:
        return (ratings, None) if item_order is None else (ratings.take(item_order), item_order)
    raters = ratings.raters
    assert raters is not None
    rater_order = sort_positions(raters)
    item_c, rater_c, label_c = ratings.item_codes, ratings.rater_codes, ratings.label_codes
    if (
        item_order is None
        and rater_order is None
        and _labels_sorted(item_c, rater_c, label_c, len(raters))
    ):
        return ratings, None
    new_item = _inverse(item_order, ratings.n_items)[item_c]
    new_rater = _inverse(rater_order, len(raters))[rater_c]
    order = np.lexsort((label_c, new_rater, new_item))
    out = type(ratings)(
        items=ratings.items if item_order is None else ratings.items[item_order],
        classes=ratings.classes,
        item_codes=new_item[order].astype(item_c.dtype),
        rater_codes=new_rater[order].astype(rater_c.dtype),
        label_codes=label_c[order],
        raters=raters if rater_order is None else raters[rater_order],
        source=ratings.source,
        scale=ratings.scale,
    )
    return out, item_order
