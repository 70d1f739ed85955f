"""Shared helpers to turn raw label / id columns into integer codes with readable errors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .errors import InputError

__all__ = [
    "Locator",
    "code_labels",
    "coerce_classes",
    "default_locator",
    "ids_to_index",
    "python_scalar",
]

#: ``locate(i)`` describes row ``i`` (0-based data row) for an error message, e.g. ``"rte.tsv line 7"``.
Locator = Callable[[int], str]

_MISSING_STRINGS = frozenset({"", "nan", "NaN", "NA", "N/A", "null", "NULL", "None"})


def default_locator(name: str = "input") -> Locator:
    return lambda i: f"{name} row {i + 1}"


def python_scalar(value: Any) -> Any:
    """numpy scalar -> the equivalent Python scalar (so classes print and serialise cleanly)."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def _blank_mask(values: pd.Series) -> np.ndarray:
    mask = values.isna().to_numpy()
    if values.dtype == object or pd.api.types.is_string_dtype(values.dtype):
        as_str = values.astype("string").str.strip()
        mask = mask | as_str.isin(list(_MISSING_STRINGS)).fillna(True).to_numpy(dtype=bool)
    return mask


def _normalise_values(values: pd.Series) -> pd.Series:
    """Integral floats -> int, numeric-looking strings stay strings, strings stripped."""
    if pd.api.types.is_bool_dtype(values.dtype):
        return values.astype(bool)
    if pd.api.types.is_float_dtype(values.dtype):
        arr = values.to_numpy(dtype=float)
        if np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            return pd.Series(arr.astype(np.int64), index=values.index)
        return values
    if pd.api.types.is_integer_dtype(values.dtype):
        return values.astype(np.int64)
    # strings / objects: strip whitespace; if every value is an integer literal, use ints
    s = values.astype("string").str.strip()
    as_num = pd.to_numeric(s, errors="coerce")
    if not as_num.isna().any():
        arr = as_num.to_numpy(dtype=float)
        if np.all(arr == np.round(arr)) and not s.str.contains(r"^[+-]?0\d", regex=True).any():
            return pd.Series(arr.astype(np.int64), index=values.index)
    return s.astype(object)


def coerce_classes(declared: Sequence[Any]) -> tuple[Any, ...]:
    """Declared class names, coerced to integers when they all look like integers.

    Command-line users type ``--classes 0,1``; the labels in a CSV are read as the integers 0 and 1.
    """
    out: list[Any] = []
    for c in declared:
        c = python_scalar(c)
        if isinstance(c, str):
            t = c.strip()
            try:
                as_int = int(t)
            except ValueError:
                out.append(t)
            else:
                out.append(as_int if str(as_int) == t.lstrip("+") else t)
        else:
            out.append(c)
    if len(set(out)) != len(out):
        raise InputError(
            f"declared classes {tuple(declared)!r} contain duplicates; list each class once"
        )
    return tuple(out)


def _sort_classes(uniques: Sequence[Any]) -> tuple[Any, ...]:
    vals = [python_scalar(u) for u in uniques]
    try:
        return tuple(sorted(vals))
    except TypeError:  # mixed types (e.g. from JSON): order by their text
        return tuple(sorted(vals, key=lambda v: (str(type(v)), str(v))))


def code_labels(
    values: Any,
    classes: Sequence[Any] | None = None,
    *,
    column: str = "label",
    locate: Locator | None = None,
    allow_missing: bool = False,
) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Integer-code ``values`` against ``classes`` (inferred as the sorted distinct values if ``None``).

    Returns ``(codes, classes)``; codes are int8/int16/int32 with -1 for missing values (only if
    ``allow_missing``). Raises :class:`InputError` naming the first bad row for blank values or values
    outside declared classes.
    """
    locate = locate or default_locator()
    s = values if isinstance(values, pd.Series) else pd.Series(values)
    s = s.reset_index(drop=True)
    blank = _blank_mask(s)
    if blank.any() and not allow_missing:
        i = int(np.flatnonzero(blank)[0])
        raise InputError(
            f"{locate(i)}: blank or missing value in column '{column}' "
            f"({int(blank.sum())} such rows); fill it in or remove the row"
        )
    present = s[~blank]
    present = _normalise_values(present) if len(present) else present
    if classes is None:
        uniques = pd.unique(present.to_numpy())
        cls = _sort_classes(uniques)
    else:
        cls = coerce_classes(classes)
    cat = pd.Categorical(present.to_numpy(), categories=list(cls))
    sub = np.asarray(cat.codes)
    if (sub < 0).any():
        j = int(np.flatnonzero(sub < 0)[0])
        bad = present.iloc[j]
        i = int(np.flatnonzero(~blank)[j])
        raise InputError(
            f"{locate(i)}: label {bad!r} in column '{column}' is not one of the declared classes "
            f"{cls!r}; fix the label or add it to --classes"
        )
    dtype = np.int8 if len(cls) < 127 else (np.int16 if len(cls) < 32000 else np.int32)
    codes = np.full(len(s), -1, dtype=dtype)
    codes[~blank] = sub
    return codes, tuple(python_scalar(c) for c in cls)


def ids_to_index(
    values: Any, *, column: str, locate: Locator | None = None
) -> tuple[np.ndarray, pd.Index]:
    """Factorise an id column (items or raters) in order of first appearance, ids kept as given."""
    locate = locate or default_locator()
    s = values if isinstance(values, pd.Series) else pd.Series(values)
    s = s.reset_index(drop=True)
    missing = s.isna().to_numpy()
    if s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
        missing = missing | (s.astype("string").str.strip() == "").fillna(True).to_numpy(dtype=bool)
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise InputError(
            f"{locate(i)}: blank id in column '{column}' ({int(missing.sum())} such rows); "
            "every row needs an id"
        )
    codes, uniques = pd.factorize(s, sort=False)
    if isinstance(uniques, pd.Index):
        index = uniques
    else:
        index = pd.Index(uniques)
    return codes.astype(np.int32 if len(index) < 2**31 - 1 else np.int64), index
