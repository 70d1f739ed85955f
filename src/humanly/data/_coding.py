"""Shared helpers to turn raw label / id columns into integer codes with readable errors."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting

__all__ = [
    "Locator",
    "blank_ids",
    "code_labels",
    "coerce_classes",
    "counted_codes",
    "default_locator",
    "has_duplicates",
    "ids_to_index",
    "pairs_repeat",
    "python_scalar",
    "show",
    "sort_classes",
    "stable_order",
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


def show(value: Any) -> str:
    """A data value as shown in an error message (``4``, not ``np.int64(4)``)."""
    return repr(python_scalar(value))


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
    if isinstance(declared, (str, bytes)):
        raise TypeError(
            f"classes={declared!r}: give a list of classes (e.g. {list(str(declared))!r}), not a "
            "string"
        )
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


def sort_classes(uniques: Iterable[Any]) -> tuple[Any, ...]:
    """Distinct labels in order: sorted, or by their text when their types differ."""
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
    fix: str | None = None,
) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Integer-code ``values`` against ``classes`` (inferred as the sorted distinct values if ``None``).

    Returns ``(codes, classes)``; codes are int8/int16/int32 with -1 for missing values (only if
    ``allow_missing``). Raises :class:`InputError` naming the first bad row for blank values or values
    outside declared classes; ``fix`` is the advice for a value outside ``classes`` when those are not
    the caller's to extend (e.g. predictions read with the ratings' classes).

    A value matches a class by value or, when the two differ in kind (``"1"`` read beside a word
    from a file, against the class ``1``), by text:

    >>> code_labels(["1", "maybe"], (0, 1), column="c", locate=lambda i: f"line {i + 2}", fix="!")
    Traceback (most recent call last):
    humanly.errors.InputError: line 3: label 'maybe' in column 'c' is not one of the classes (0, 1); !
    """
    locate = locate or default_locator()
    s = values if isinstance(values, pd.Series) else pd.Series(values)
    s = s.reset_index(drop=True)
    if isinstance(s.dtype, pd.CategoricalDtype):
        return _code_categorical(s, classes, column, locate, allow_missing, fix)
    if (
        pd.api.types.is_integer_dtype(s.dtype)
        and not pd.api.types.is_bool_dtype(s.dtype)
        and len(s)
    ):
        fast = _code_small_ints(s.to_numpy(), classes, column, locate, fix)
        if fast is not None:
            return fast
    blank = _blank_mask(s)
    present = s[~blank]
    present = _normalise_values(present) if len(present) else present
    if classes is None:
        uniques = pd.unique(present.to_numpy())
        cls = sort_classes(uniques)
    else:
        cls = coerce_classes(classes)
    sub = pd.Index(list(cls), dtype=object).get_indexer(present.to_numpy(dtype=object))
    if (sub < 0).any():  # as text: "1" among words in a file against the class 1
        text = pd.Index([str(c) for c in cls], dtype=object)
        unmatched = sub < 0
        sub[unmatched] = text.get_indexer(
            [str(v) for v in present.to_numpy(dtype=object)[unmatched]]
        )
    _first_bad_row(present, blank, sub, allow_missing, cls, column, locate, fix)
    dtype = np.int8 if len(cls) < 127 else (np.int16 if len(cls) < 32000 else np.int32)
    codes = np.full(len(s), -1, dtype=dtype)
    codes[~blank] = sub
    return codes, tuple(python_scalar(c) for c in cls)


def _code_dtype(n_classes: int) -> type[np.signedinteger[Any]]:
    return np.int8 if n_classes < 127 else (np.int16 if n_classes < 32000 else np.int32)


def _code_small_ints(
    arr: np.ndarray,
    classes: Sequence[Any] | None,
    column: str,
    locate: Locator,
    fix: str | None = None,
) -> tuple[np.ndarray, tuple[Any, ...]] | None:
    """Integer labels in a small range: a lookup table instead of hashing (O(n), millions of labels)."""
    lo, hi = int(arr.min()), int(arr.max())
    if hi - lo > 1_000_000:
        return None
    shifted = arr - lo if lo else arr
    present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1)) + lo
    if classes is None:
        cls = tuple(int(v) for v in present)
    else:
        cls = coerce_classes(classes)
        if not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in cls):
            return None  # let the general path report the mismatch
    table = np.full(hi - lo + 1, -1, dtype=_code_dtype(len(cls)))
    for j, c in enumerate(cls):
        if lo <= int(c) <= hi:
            table[int(c) - lo] = j
    codes = np.take(table, shifted)
    if codes.min() < 0:
        i = int(np.flatnonzero(codes < 0)[0])
        raise InputError(_outside(locate(i), int(arr[i]), column, cls, fix))
    return codes, tuple(python_scalar(c) for c in cls)


def _first_bad_row(
    present: pd.Series,
    blank: np.ndarray,
    sub: np.ndarray,
    allow_missing: bool,
    cls: tuple[Any, ...],
    column: str,
    locate: Locator,
    fix: str | None,
) -> None:
    """The error for the first offending row — a blank value (unless ``allow_missing``) or a value
    outside the classes (``sub`` is -1 for it in ``present``, the non-blank values indexed by row),
    whichever comes first; nothing when every row is fine."""
    rows = np.flatnonzero(~blank)
    outside = rows[sub < 0]
    blanks = np.flatnonzero(blank) if not allow_missing else np.empty(0, dtype=np.int64)
    if not len(outside) and not len(blanks):
        return
    if len(blanks) and (not len(outside) or blanks[0] < outside[0]):
        i = int(blanks[0])
        raise InputError(
            f"{locate(i)}: blank or missing value in column '{column}' "
            f"({len(blanks)} such rows); fill it in or remove the row"
        )
    i = int(outside[0])
    raise InputError(_outside(locate(i), present.loc[i], column, cls, fix))


def _outside(where: str, value: Any, column: str, cls: tuple[Any, ...], fix: str | None) -> str:
    """The message for a label outside the classes: the caller's ``fix``, or to declare the class."""
    if fix is None:
        return (
            f"{where}: label {show(value)} in column '{column}' is not one of the declared classes "
            f"{cls!r}; fix the label or add it to {setting('classes')}"
        )
    return f"{where}: label {show(value)} in column '{column}' is not one of the classes {cls!r}; {fix}"


def _code_categorical(
    s: pd.Series,
    classes: Sequence[Any] | None,
    column: str,
    locate: Locator,
    allow_missing: bool,
    fix: str | None = None,
) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Categorical labels: code the (few) categories, then map the per-row codes."""
    cat_codes = np.asarray(s.cat.codes)
    cats = pd.Series(s.cat.categories)
    cat_blank = _blank_mask(cats)
    used = np.bincount(cat_codes[cat_codes >= 0], minlength=len(cats)) > 0
    row_blank = (cat_codes < 0) | cat_blank[np.maximum(cat_codes, 0)]
    if row_blank.any() and not allow_missing:
        i = int(np.flatnonzero(row_blank)[0])
        raise InputError(
            f"{locate(i)}: blank or missing value in column '{column}' "
            f"({int(row_blank.sum())} such rows); fill it in or remove the row"
        )
    keep = used & ~cat_blank
    sub_codes, cls = code_labels(
        cats[keep], classes, column=column, locate=lambda i: column, fix=fix
    )
    mapping = np.full(len(cats), -1, dtype=np.int64)
    mapping[np.flatnonzero(keep)] = sub_codes
    codes = np.where(row_blank, -1, mapping[np.maximum(cat_codes, 0)])
    return codes.astype(_code_dtype(len(cls))), cls


def blank_ids(s: pd.Series) -> np.ndarray:
    """Per value: missing, or text that is empty once stripped."""
    missing = s.isna().to_numpy()
    if s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
        missing = missing | (s.astype("string").str.strip() == "").fillna(True).to_numpy(dtype=bool)
    return missing


#: slots of the table that finds a repeated pair (16 MB of int32)
_PAIR_SLOTS = 1 << 22


def pairs_repeat(first: np.ndarray, second: np.ndarray, n_second: int) -> bool:
    """Whether a pair (``first[i]``, ``second[i]``) of non-negative codes occurs twice, with ``first``
    non-decreasing (item codes in item order) and ``second`` below ``n_second`` (rater codes).

    The pairs of a block of consecutive firsts are keys into one table: each row writes its position
    there and reads it back, and of two rows with one key one reads the other's position, whatever
    order the writes took (linear time, no sort and no hash; the table is reused block by block).

    >>> pairs_repeat(np.array([0, 0, 2]), np.array([1, 0, 1]), 2)
    False
    >>> pairs_repeat(np.array([0, 1, 1]), np.array([1, 0, 0]), 2)
    True
    """
    n, n_second = len(first), max(n_second, 1)
    if n < 2:
        return False
    if n_second > _PAIR_SLOTS or n >= 2**31 - 1:
        key = np.sort(first.astype(np.int64) * n_second + second)
        return bool((key[1:] == key[:-1]).any())
    per = _PAIR_SLOTS // n_second  # firsts per block
    bounds = np.searchsorted(first, np.arange(0, int(first[-1]) + per + 1, per))
    table = np.empty(min(_PAIR_SLOTS, (int(first[-1]) + 1) * n_second), dtype=np.int32)
    for b, (lo, hi) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)):
        if hi - lo < 2:
            continue
        key = (first[lo:hi] - b * per).astype(np.int64) * n_second + second[lo:hi]
        pos = np.arange(hi - lo, dtype=np.int32)
        table[key] = pos
        if (table[key] != pos).any():
            return True
    return False


def stable_order(codes: np.ndarray) -> np.ndarray:
    """``np.argsort(codes, kind="stable")`` for non-negative integer codes, in linear time: numpy
    sorts 16-bit integers by radix, so codes below 2^32 are ordered by their low, then their high
    16 bits (each pass stable).

    >>> stable_order(np.array([70000, 3, 70000, 2])).tolist()
    [3, 1, 0, 2]
    """
    if not len(codes) or codes.dtype.kind not in "iu" or codes.min() < 0 or codes.max() >= 2**32:
        return np.argsort(codes, kind="stable")
    if codes.max() < 2**16:
        return np.argsort(codes.astype(np.uint16), kind="stable")
    order = np.argsort((codes & 0xFFFF).astype(np.uint16), kind="stable")
    high = (codes[order] >> 16).astype(np.uint16)
    return order[np.argsort(high, kind="stable")]


def ids_to_index(
    values: Any, *, column: str, locate: Locator | None = None
) -> tuple[np.ndarray, pd.Index]:
    """Factorise an id column (items or raters) in order of first appearance, ids kept as given."""
    locate = locate or default_locator()
    s = values if isinstance(values, pd.Series) else pd.Series(values)
    s = s.reset_index(drop=True)
    if isinstance(s.dtype, pd.CategoricalDtype):
        return _ids_from_categorical(s, column, locate)
    codes: np.ndarray | None = None
    uniques: Any = None
    plain_ints = isinstance(s.dtype, np.dtype) and s.dtype.kind in "iu"
    counted = counted_codes(s.to_numpy()) if plain_ints else None
    if counted is not None:  # whole numbers: no id is blank
        return counted[0], pd.Index(counted[1])
    try:
        codes, uniques = pd.factorize(s, sort=False)
    except TypeError:  # unhashable ids: the blank check below still speaks first
        pass
    # a blank id is looked for among the distinct ids (few), and in the rows only when one is there
    suspect = codes is None or (codes < 0).any() or blank_ids(pd.Series(uniques)).any()
    missing = blank_ids(s) if suspect else np.zeros(1, dtype=bool)
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise InputError(
            f"{locate(i)}: blank id in column '{column}' ({int(missing.sum())} such rows); "
            "every row needs an id"
        )
    if codes is None:
        codes, uniques = pd.factorize(s, sort=False)
    if isinstance(uniques, pd.Index):
        index = uniques
    else:
        index = pd.Index(uniques)
    return codes.astype(np.int32 if len(index) < 2**31 - 1 else np.int64), index


def _ids_from_categorical(
    s: pd.Series, column: str, locate: Locator
) -> tuple[np.ndarray, pd.Index]:
    codes = np.asarray(s.cat.codes)
    cats = s.cat.categories
    blank_cat = (pd.Series(cats).astype("string").str.strip() == "").fillna(True).to_numpy(bool)
    suspect = blank_cat.any() or (codes < 0).any()  # the rows are looked at only then
    missing = (codes < 0) | blank_cat[np.maximum(codes, 0)] if suspect else np.zeros(1, dtype=bool)
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise InputError(
            f"{locate(i)}: blank id in column '{column}' ({int(missing.sum())} such rows); "
            "every row needs an id"
        )
    used = np.bincount(codes, minlength=len(cats)) > 0
    if used.all():
        return codes.astype(np.int32, copy=False), pd.Index(cats)
    remap = np.cumsum(used) - 1
    return remap[codes].astype(np.int32), pd.Index(cats[used])


def has_duplicates(key: np.ndarray, size: int) -> bool:
    """Whether a key (each a whole number in 0 … ``size`` − 1) is there twice: counted when the
    keys are about as many as the possible ones (one pass, no hash table), else hashed.

    >>> has_duplicates(np.array([3, 0, 3]), 4), has_duplicates(np.array([3, 0]), 10**9)
    (True, False)
    """
    if size <= 2 * len(key) + 1024:  # a flag per possible key: fewer set than keys → one twice
        seen = np.zeros(size, dtype=bool)
        seen[key] = True
        return int(np.count_nonzero(seen)) < len(key)
    return bool(pd.Series(key, copy=False).duplicated().any())


def _repeated_increasing(values: np.ndarray) -> int | None:
    """The length b of the first strictly increasing run of ``values`` when ``values`` is that run
    repeated (``n / b`` times: ids in order, or one block per model of a long table), else ``None``
    (two comparisons of the array, no hashing or counting)."""
    n = len(values)
    down = np.flatnonzero(values[1:] <= values[:-1])
    if not len(down):
        return n
    b = int(down[0]) + 1
    if n % b or len(down) != n // b - 1:
        return None
    return (
        b
        if np.array_equal(values.reshape(-1, b), np.broadcast_to(values[:b], (n // b, b)))
        else None
    )


def counted_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``pandas.factorize(values)`` (codes in order of first appearance, int32; the distinct values
    in that order) for whole numbers ≥ 0 not much larger than their count, found by counting, not
    hashing: each value's first row (``np.minimum.at``), then the first rows in order are the
    distinct values. ``None`` for any other array.

    >>> codes, uniques = counted_codes(np.array([7, 2, 7, 0]))
    >>> codes.tolist(), uniques.tolist()
    ([0, 1, 0, 2], [7, 2, 0])
    """
    n = len(values)
    if n == 0 or n >= 2**31 - 1 or values.dtype.kind not in "iu" or values.min() < 0:
        return None
    runs = _repeated_increasing(values)
    if runs is not None:  # every id new until the first repeat, then that block again and again
        return np.tile(np.arange(runs, dtype=np.int32), n // runs), values[:runs].copy()
    top = int(values.max())
    if top >= 2 * n + 1024:
        return None
    first = np.full(top + 1, n, dtype=np.int64)
    np.minimum.at(first, values, np.arange(n, dtype=np.int64))
    is_first = np.zeros(n + 1, dtype=bool)
    is_first[first] = True  # values absent from the data point at row n, past the end
    uniques = values[np.flatnonzero(is_first[:n])]
    code_of = np.empty(top + 1, dtype=np.int32)
    code_of[uniques] = np.arange(len(uniques), dtype=np.int32)
    return code_of[values], uniques
