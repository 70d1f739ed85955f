"""How the human-labelled items were chosen, per item of a study: each item's stratum and its
probability of having been sent to raters — columns a study carries beside its labels and outputs
(:class:`ItemDesign`, ``Study.design``), joined by item id in the one join.

* **Strata** (``strata``): a label per item, known for every item (a prompt category, a bin of the
  judge's confidence). Given as a column of the predictions or judge table (``ReadOptions(strata=)``,
  ``--strata COLUMN``) or as a ``pandas.Series`` indexed by item id (``join(..., strata=)``). An item
  with no stratum is an error (the strata's shares of the items would be wrong without it).
* **Sampling weights** (``sampling_weights``): 1/π per item, π its probability of having been sent to
  human raters (an active or stratified design), known for every item; held as π. A weight below 1
  (π > 1), 0, negative or missing is an error.

A bare array follows the ratings' items in the order the caller holds them, as every input does
(:mod:`humanly.data.positional`).

>>> import pandas as pd
>>> d = design_for(pd.Index(["a", "b"]), pd.Series(["x", "y"], index=["b", "a"]), None)
>>> d.strata.tolist()
['y', 'x']
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, plain, setting
from ._coding import counted_codes, show
from .columns import ITEM_NAMES, pick_column
from .matching import MissingPolicy, align_index
from .tables import read_columns, read_table

__all__ = ["ItemDesign", "design_columns", "design_for"]


@dataclasses.dataclass(frozen=True, eq=False)
class ItemDesign:
    """Per item of a study (in its order): its stratum and its probability of having been sent to
    human raters; ``None`` where the study has none.

    Parameters
    ----------
    strata : numpy.ndarray or None
        Each item's stratum, as text.
    probabilities : numpy.ndarray or None
        Each item's probability π of having been sent to raters (from its sampling weight 1/π).
    strata_source, weights_source : str
        Where the values came from (``"strata='category'"`` for a column, else the parameter's
        name), as Python callers read it; given to :func:`design_for` as a
        :func:`humanly.errors.setting`, so an error shows it as the command line's flag.

    Examples
    --------
    >>> ItemDesign(np.array(["a", "b"]), None).take(np.array([1, 0])).strata.tolist()
    ['b', 'a']
    """

    strata: np.ndarray | None = None
    probabilities: np.ndarray | None = None
    strata_source: str = "strata"
    weights_source: str = "sampling_weights"

    def take(self, positions: np.ndarray) -> ItemDesign:
        """The design of the items at ``positions``, in that order.

        Parameters
        ----------
        positions : numpy.ndarray
            Item positions.

        Returns
        -------
        ItemDesign

        Examples
        --------
        >>> ItemDesign(None, np.array([0.5, 0.25])).take(np.array([1])).probabilities.tolist()
        [0.25]
        """
        return dataclasses.replace(
            self,
            strata=None if self.strata is None else self.strata[positions],
            probabilities=None if self.probabilities is None else self.probabilities[positions],
        )


def _aligned(values: pd.Series, items: pd.Index, what: str, missing: MissingPolicy) -> np.ndarray:
    """``values`` (by item id) at each of ``items``; an item without one is an error, and so is a
    value for an item the study does not have unless ``missing="drop"``."""
    if values.index.has_duplicates:
        dup = values.index[values.index.duplicated()][0]
        raise InputError(
            f"{what}: item {show(dup)} has more than one value; give one per item (a stratum or a "
            "weight is a property of the item)"
        )
    same = values.index.equals(items)
    pos = np.arange(len(items)) if same else align_index(items, values.index)
    present = pos >= 0
    if present.all():
        out = values.to_numpy() if same else values.to_numpy()[pos]
        absent = pd.isna(out)
    else:
        out = np.empty(len(items), dtype=object)
        out[present] = values.to_numpy()[pos[present]]
        absent = ~present | pd.isna(out)
    if absent.any():
        raise InputError(
            f"{what}: {int(absent.sum()):,} of {len(items):,} items have none (first: "
            f"{show(items[absent][0])}); give a value for every item, the labelled and the "
            "unlabelled ones"
        )
    if not same and len(values) > len(items) and missing == "error":
        used = np.zeros(len(values), dtype=bool)
        used[pos] = True
        raise InputError(
            f"{what}: {int((~used).sum()):,} value(s) are for items the study does not have (first: "
            f"{show(values.index[~used][0])}); give them for the study's items, or pass "
            f"{setting('missing', 'drop')}"
        )
    return out


def _as_series(value: Any, what: str) -> pd.Series:
    if isinstance(value, pd.DataFrame) and value.shape[1] == 1:
        return value.iloc[:, 0]
    if isinstance(value, pd.Series):
        return value
    raise TypeError(
        f"{what}={type(value).__name__}: give a pandas Series indexed by item id (or a column of "
        "the predictions or judge file)"
    )


def design_for(
    items: pd.Index,
    strata: Any,
    sampling_weights: Any,
    *,
    missing: MissingPolicy = "error",
    strata_source: str = "strata",
    weights_source: str = "sampling_weights",
) -> ItemDesign | None:
    """The design of ``items`` from ``strata`` and ``sampling_weights`` (each a Series by item id,
    or ``None``); ``None`` when neither is given. See the module docstring for the rules."""
    if strata is None and sampling_weights is None:
        return None
    labels = probabilities = None
    if strata is not None:
        values = _aligned(_as_series(strata, strata_source), items, strata_source, missing)
        if values.dtype.kind in "iub":  # whole numbers, booleans: each distinct value's text once
            inverse, uniques = pd.factorize(values, sort=True)  # np.unique's, hashed not sorted
            labels = np.asarray([str(v) for v in uniques], dtype=object)[inverse]
        else:
            labels = np.asarray([str(v) for v in values], dtype=object)
    if sampling_weights is not None:
        series = _as_series(sampling_weights, weights_source)
        raw = _aligned(series, items, weights_source, missing)
        weight = pd.to_numeric(pd.Series(raw), errors="coerce").to_numpy(dtype=float)
        bad = ~(np.isfinite(weight) & (weight >= 1.0))
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{weights_source}: item {show(items[k])} has weight {show(raw[k])}; give each "
                "item's sampling weight 1/π, a number ≥ 1 (π: its probability of having been sent "
                "to human raters)"
            )
        probabilities = 1.0 / weight
    return ItemDesign(labels, probabilities, plain(strata_source), plain(weights_source))


def _column_of(
    source: Any, item_col: str | None, column: str, what: str
) -> tuple[pd.Series | None, list[str]]:
    """The per-item values of ``column`` in one table (``None`` when it has no such column), and the
    table's columns; a column that differs between an item's rows is an error. A file is read for
    the item column and ``column`` only (its columns from its header or schema first)."""
    names = _names(source)
    if names is not None and column not in names:
        return None, names
    table = read_table(
        source,
        text_columns=lambda cols: [c for c in cols if c == item_col],
        columns=_wanted(names, item_col, column),
    )
    if column not in table.columns:
        return None, table.columns
    icol = pick_column(
        table.columns if names is None else names,
        item_col if item_col in table.columns else None,
        ITEM_NAMES,
        role="item",
        param="item_col",
        where=table.name,
    )
    assert icol is not None
    frame = table.frame[[icol, column]]
    first = _first_rows(frame, icol, column)
    if first is None:  # not the plain case: pandas finds the first rows and any conflict
        first = frame.drop_duplicates(icol)
        if len(first) < len(frame):
            distinct = frame.drop_duplicates()
            if len(distinct) > len(first):
                dup = distinct[icol][distinct[icol].duplicated()].iloc[0]
                raise InputError(
                    f"{what}: {table.name} gives item {show(dup)} more than one value in column "
                    f"{column!r}; give one per item"
                )
    series = pd.Series(first[column].to_numpy(), index=pd.Index(first[icol]))
    return series, table.columns if names is None else names


def _names(source: Any) -> list[str] | None:
    """A file's column names from its header or schema (``None``: a DataFrame, or a file whose
    header cannot be read here; the full reader then reads it, or says what is wrong)."""
    if isinstance(source, pd.DataFrame):
        return None
    try:
        return read_columns(source)
    except Exception:  # the full reader's one-line error speaks instead
        return None


def _wanted(names: list[str] | None, item_col: str | None, column: str) -> list[str] | None:
    """The columns to read: the item column (as the full table would give it) and ``column``."""
    if names is None:
        return None
    try:
        icol = pick_column(
            names,
            item_col if item_col in names else None,
            ITEM_NAMES,
            role="item",
            param="item_col",
        )
    except InputError:  # said by the full reader's pick, with the table's name
        return None
    return None if icol is None or icol == column else [icol, column]


def _first_rows(frame: pd.DataFrame, icol: str, column: str) -> pd.DataFrame | None:
    """Each item's first row (``frame.drop_duplicates(icol)``) when every item's rows agree on
    ``column``, in one pass: the ids' codes in order of first appearance mark each first row, and
    each row's value is compared with its item's first. ``None`` (pandas decides) for missing ids,
    a column of any other kind than whole numbers or categories, or rows that disagree."""
    values = frame[column]
    if isinstance(values.dtype, pd.CategoricalDtype):
        v = np.asarray(values.cat.codes)
    elif values.dtype.kind in "iub":
        v = values.to_numpy()
    else:
        return None
    ids = frame[icol]
    plain_ints = isinstance(ids.dtype, np.dtype) and ids.dtype.kind in "iu"
    counted = counted_codes(ids.to_numpy()) if plain_ints else None
    codes = counted[0] if counted is not None else pd.factorize(ids)[0]
    if len(codes) == 0 or (codes < 0).any():
        return None
    # codes count up in order of first appearance: a row is its item's first iff its code is new
    seen = np.maximum.accumulate(codes)
    is_first = np.empty(len(codes), dtype=bool)
    is_first[0] = True
    is_first[1:] = codes[1:] > seen[:-1]
    rows = np.flatnonzero(is_first)
    if len(rows) < len(codes) and not np.array_equal(v[rows][codes], v):
        return None
    return frame.iloc[rows]


def design_columns(
    sources: Sequence[Any], item_col: str | None, column: str | None, what: str
) -> pd.Series | None:
    """The per-item values of ``column`` from the first of ``sources`` (the predictions and judge
    tables) that has it; an error naming ``what`` when none has it."""
    if column is None:
        return None
    seen = []
    for source in sources:
        if source is None or not isinstance(source, (str, os.PathLike, pd.DataFrame)):
            continue
        values, columns = _column_of(source, item_col, column, what)
        if values is not None:
            return values
        seen.append(f"{getattr(source, 'name', None) or source}: {', '.join(columns)}")
    where = "; ".join(seen) if seen else "no predictions or judge table was given"
    raise InputError(
        f"{what}: no column {column!r} in the predictions or judge tables ({where}); name a column "
        "they hold for every item"
    )
