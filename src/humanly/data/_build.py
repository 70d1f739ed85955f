"""The public constructors of :class:`~humanly.data.Ratings` (``from_long``, ``from_frame``,
``from_counts``, ``from_wide``), attached to it as class methods: each validates its input with
:mod:`humanly.data.layouts` and builds the ratings from the coded arrays.

>>> import humanly
>>> humanly.Ratings.from_long(["a", "b"], ["u", "u"], [0, 1]).n_raters
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .layouts import code_long, counts_matrix, index_as_items, long_layout, wide_array, wide_layout
from .options import DuplicatePolicy
from .tables import read_table

if TYPE_CHECKING:
    from .ratings import Ratings

__all__: list[str] = []


def from_long(
    cls: type[Ratings],
    items: Any,
    raters: Any,
    labels: Any,
    *,
    classes: Sequence[Any] | None = None,
    duplicates: DuplicatePolicy = "error",
    source: str | None = None,
) -> Ratings:
    """Named ratings from three equal-length sequences: the item, rater and label of each label.

    Parameters
    ----------
    items, raters, labels : sequence
        One entry per label.
    classes : sequence or None
        The classes in order (default: the sorted distinct labels).
    duplicates : {"error", "keep", "first", "last"}
        A rater who labelled an item twice: an error, keep the first or last label, or count
        every label (:meth:`matrix` then shows the last one).
    source : str or None
        The source's name in messages.

    Returns
    -------
    Ratings
        Named ratings.

    Raises
    ------
    InputError
        For sequences of different lengths, a blank id or label, or a duplicate (item, rater).

    Examples
    --------
    >>> from humanly import Ratings
    >>> Ratings.from_long(["a", "a", "b"], ["r1", "r2", "r1"], ["x", "y", "x"]).counts.tolist()
    [[1, 1], [1, 0]]
    """
    coded = code_long(items, raters, labels, classes=classes, duplicates=duplicates, source=source)
    return cls._from_coded(coded, source=source)


def from_frame(
    cls: type[Ratings],
    frame: pd.DataFrame,
    *,
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    classes: Sequence[Any] | None = None,
    duplicates: DuplicatePolicy = "error",
    source: str | None = None,
) -> Ratings:
    """Named ratings from a long DataFrame (crowd-kit's and cleanlab's ``task, worker, label``).

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per label.
    item_col, rater_col, label_col : str or None
        The columns (default: found by name, see :mod:`humanly.data.columns`).
    classes : sequence or None
        The classes in order (default: the sorted distinct labels).
    duplicates : {"error", "keep", "first", "last"}
        A rater who labelled an item twice (see :meth:`from_long`).
    source : str or None
        The frame's name in messages (default ``"DataFrame"``).

    Returns
    -------
    Ratings
        Named ratings.

    Raises
    ------
    InputError
        For a missing or ambiguous column, a blank id or label, or a duplicate (item, rater).
    TypeError
        For ``frame`` that is not a DataFrame.

    Examples
    --------
    >>> from humanly import Ratings
    >>> frame = pd.DataFrame({"task": [1, 1, 2], "worker": ["u", "v", "u"], "label": [0, 1, 1]})
    >>> Ratings.from_frame(frame)
    Ratings(2 items, 2 raters, 3 labels, classes=(0, 1), source='DataFrame')
    """
    if not isinstance(frame, pd.DataFrame):
        got = "None" if frame is None else type(frame).__name__
        raise TypeError(f"frame={got}: give a pandas DataFrame")
    table = read_table(frame, name=source)
    coded = long_layout(
        table,
        item_col=item_col,
        rater_col=rater_col,
        label_col=label_col,
        classes=classes,
        duplicates=duplicates,
    )
    return cls._from_coded(coded, source=table.name)


def from_counts(
    cls: type[Ratings],
    counts: Any,
    *,
    items: Sequence[Any] | None = None,
    classes: Sequence[Any] | None = None,
    source: str | None = None,
) -> Ratings:
    """Anonymous ratings from per-item class counts.

    Parameters
    ----------
    counts : array-like or pandas.DataFrame
        Items × classes non-negative whole numbers, or a DataFrame whose columns are the classes
        (in order) and whose index holds the items.
    items : sequence or None
        The item ids (default: the DataFrame's index, or ``0..n-1``).
    classes : sequence or None
        The classes (default: the DataFrame's columns, or ``0..C-1``).
    source : str or None
        The source's name in messages.

    Returns
    -------
    Ratings
        Anonymous counts.

    Raises
    ------
    InputError
        For a count that is not a non-negative whole number, or sizes that do not fit.

    Examples
    --------
    >>> from humanly import Ratings
    >>> r = Ratings.from_counts([[3, 1], [0, 4]], items=["a", "b"], classes=["no", "yes"])
    >>> r
    Ratings(2 items, anonymous counts, 8 labels, classes=('no', 'yes'))
    >>> r.labels_per_item.tolist()
    [4, 4]
    """
    coded = counts_matrix(counts, items=items, classes=classes, source=source)
    return cls._from_coded(coded, source=source)


def from_wide(
    cls: type[Ratings],
    frame: Any,
    *,
    item_col: str | None = None,
    rater_cols: Sequence[str] | None = None,
    classes: Sequence[Any] | None = None,
    source: str | None = None,
) -> Ratings:
    """Named ratings from a wide table: one row per item, one column per rater (or slot).

    Parameters
    ----------
    frame : pandas.DataFrame or numpy.ndarray
        Blank cells are missing labels; rater ids are the column names, items come from the item
        column or, when there is none, the index. A numpy array (cleanlab's items × raters, NaN
        for missing) has items and raters numbered ``0..N-1`` and ``0..M-1``.
    item_col : str or None
        The item column (default: found by name, else the index).
    rater_cols : sequence of str or None
        The rater columns (default: every other column).
    classes : sequence or None
        The classes in order (default: the sorted distinct labels).
    source : str or None
        The source's name in messages.

    Returns
    -------
    Ratings
        Named ratings.

    Raises
    ------
    InputError
        For an item on two rows, a missing rater column, or no label at all.
    TypeError
        For ``frame`` that is neither a DataFrame nor an array.

    Examples
    --------
    >>> from humanly import Ratings
    >>> Ratings.from_wide(pd.DataFrame({"r1": ["x", None], "r2": ["y", "y"]}, index=["a", "b"]))
    Ratings(2 items, 2 raters, 3 labels, classes=('x', 'y'), source='DataFrame')
    """
    if isinstance(frame, pd.DataFrame):
        framed, icol = index_as_items(frame, item_col)
        table = read_table(framed, name=source)
        coded = wide_layout(table, item_col=icol, rater_cols=rater_cols, classes=classes)
        return cls._from_coded(coded, source=table.name)
    if isinstance(frame, (np.ndarray, list)):
        return cls._from_coded(wide_array(frame, classes=classes, source=source), source=source)
    got = "None" if frame is None else type(frame).__name__
    raise TypeError(f"frame={got}: give a wide DataFrame or an items × raters array")
