"""The one rule for arrays without item ids — for ratings, predictions, gold and judges alike.

**An array is matched by position to the items of the ratings in the order the caller holds them,
and refused when that order is not one the caller holds.** The order the caller holds is the order in
which they could have built the array: ``R.items`` of a :class:`~humanly.data.Ratings` they pass, and
for ratings given as a file or a DataFrame the items in order of first appearance in its rows — the
order :func:`humanly.data.read_ratings` gives (ratings given as an array are items ``0..n-1``, its
rows). Nothing sorts the ratings before the match: the canonical order a
:class:`~humanly.data.Study` is held in (items sorted by id) comes after it. An array whose length
is not the number of the ratings' items (e.g. a judge's outputs on items no rater labelled) has no
order the caller holds, and is refused with the fix — a ``pandas.Series`` indexed by item id.

:func:`keyed` applies the rule: it turns an array into a ``Series`` (or, for an items × classes array,
a ``DataFrame``) indexed by the ratings' items, so everything downstream is joined by id.

>>> import numpy as np, pandas as pd
>>> keyed(np.array([1, 0]), pd.Index(["b", "a"]), (0, 1), what="predictions").to_dict()
{'b': 1, 'a': 0}
>>> keyed(np.array([1, 0, 1]), pd.Index(["b", "a"]), (0, 1), what="gold")
Traceback (most recent call last):
humanly.errors.InputError: gold: an array has no item ids, so its entries follow the ratings' 2 \
items in their order ('b', …), but it has 3 entries; give a pandas Series indexed by item id, \
e.g. pd.Series(values, index=item_ids)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ._coding import show

__all__ = ["is_array", "keyed"]


def is_array(value: Any) -> bool:
    """Whether ``value`` is a bare array (numpy array, list or tuple): values without item ids."""
    return isinstance(value, (np.ndarray, list, tuple))


def _order(items: pd.Index) -> str:
    if len(items) == 0:
        return "no items"
    return f"{len(items):,} items in their order ({show(items[0])}, …)"


def keyed(
    value: Any,
    items: pd.Index,
    classes: tuple[Any, ...],
    *,
    what: str,
    ordered_columns: bool = False,
) -> pd.Series | pd.DataFrame:
    """A bare array as a ``Series`` (1-D) or a ``DataFrame`` with one column per class (items × classes)
    indexed by ``items``, the ratings' items in the order the caller holds them.

    With ``ordered_columns`` the columns of an items × classes array are the classes in order (where
    the parameter says so, e.g. true item states); otherwise only classes ``0..K-1`` say which
    column is which.

    Raises
    ------
    InputError
        For an array of another length than ``items``, of more than two dimensions, or items ×
        classes when the classes are not ``0..K-1`` (the columns' classes are then unknown).
    """
    arr = np.asarray(value)
    if arr.ndim == 0 or arr.ndim > 2 or len(arr) != len(items):
        got = "a scalar" if arr.ndim == 0 else f"{len(arr):,} entries"
        if arr.ndim > 2:
            got = f"shape {arr.shape}"
        raise InputError(
            f"{what}: an array has no item ids, so its entries follow the ratings' {_order(items)},"
            f" but it has {got}; give a pandas Series indexed by item id, e.g. "
            "pd.Series(values, index=item_ids)"
        )
    if arr.ndim == 1:
        return pd.Series(arr, index=items)
    if arr.shape[1] != len(classes):
        raise InputError(
            f"{what}: {arr.shape[1]} probability columns for the {len(classes)} classes "
            f"{tuple(classes)!r}; give one column per class"
        )
    if not ordered_columns and tuple(classes) != tuple(range(len(classes))):
        raise InputError(
            f"{what}: an items × classes array does not say which column is which of the classes "
            f"{tuple(classes)!r}; give a pandas DataFrame indexed by item id with one column per "
            "class (named by class)"
        )
    return pd.DataFrame(arr, index=items, columns=list(classes))
