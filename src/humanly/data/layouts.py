"""Table layouts of ratings → coded arrays (:class:`Coded`) that :class:`~humanly.data.Ratings` holds.

Three layouts of a table, and two of an array:

* **long** — one row per label: item, rater and label columns (crowd-kit ``task, worker, label``);
* **wide** — one row per item, one column per rater or slot, blank cells missing; a cleanlab-style
  items × raters array with NaN for missing is the same layout without names (items and raters are
  the row and column numbers);
* **counts** — one row per item, one count column per class; an items × classes array is the same
  layout without names.

Every function here validates its input and returns a :class:`Coded` (or raises
:class:`~humanly.errors.InputError` naming the row and column at fault); none builds a
``Ratings``, so ``Ratings``' own constructors build on this module and not on the file readers.

>>> import numpy as np
>>> c = wide_array(np.array([[1.0, 0.0, np.nan], [1.0, 1.0, 0.0]]))
>>> c.classes, c.items.tolist(), c.label_codes.tolist()
((0, 1), [0, 1], [1, 0, 1, 1, 0])
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import (
    Locator,
    code_labels,
    coerce_classes,
    ids_to_index,
    pairs_repeat,
    python_scalar,
    show,
    stable_order,
)
from .columns import ITEM_NAMES, LABEL_NAMES, RATER_NAMES, normalise_name, pick_column
from .options import Counts, CountsSpec, DuplicatePolicy
from .tables import Table

__all__ = [
    "Coded",
    "CountsSpec",
    "DuplicatePolicy",
    "code_long",
    "counts_layout",
    "counts_matrix",
    "finish_long",
    "index_as_items",
    "long_layout",
    "parse_counts_spec",
    "wide_array",
    "wide_layout",
]


@dataclasses.dataclass(frozen=True, eq=False)
class Coded:
    """Ratings as integer codes: item ids and classes, and either one (item, rater, label) code triple
    per label (named raters) or an items × classes ``counts`` matrix (anonymous)."""

    items: pd.Index
    classes: tuple[Any, ...]
    counts: np.ndarray | None = None
    item_codes: np.ndarray | None = None
    rater_codes: np.ndarray | None = None
    label_codes: np.ndarray | None = None
    raters: pd.Index | None = None


# ------------------------------------------------------------------------------------------ long
def _one_dimensional(param: str, value: Any) -> None:
    """One id or label per row: a 1-D sequence of hashable values (one sentence otherwise)."""
    if isinstance(value, str):
        raise TypeError(f"{param}={value!r}: give a sequence with one {param[:-1]} per label")
    shape = np.shape(value) if isinstance(value, np.ndarray) else None
    if shape is not None and len(shape) != 1:
        raise InputError(
            f"{param}=array of shape {shape}: give a 1-D sequence with one entry per label"
        )
    if shape is None and not isinstance(value, (pd.Series, pd.Index)):
        for k, v in enumerate(value):
            try:
                hash(v)
            except TypeError:
                raise InputError(
                    f"{param}[{k}]={v!r}: each {param[:-1]} must be a single id or label (a string "
                    "or a number), not a list; give one per row"
                ) from None
    elif isinstance(value, (pd.Series, np.ndarray)) and value.dtype == object and len(value):
        bad = [k for k, v in enumerate(value) if isinstance(v, (list, dict, set, np.ndarray))]
        if bad:
            raise InputError(
                f"{param}[{bad[0]}]={value[bad[0]]!r}: each {param[:-1]} must be a single id or label "
                "(a string or a number), not a list; give one per row"
            )


def _item_order(item_codes: np.ndarray) -> np.ndarray | None:
    """The stable order that puts each item's rows together, ``None`` when they already are."""
    if len(item_codes) < 2 or bool((item_codes[1:] >= item_codes[:-1]).all()):
        return None
    return stable_order(item_codes)


def code_long(
    items: Any,
    raters: Any,
    labels: Any,
    *,
    classes: Sequence[Any] | None = None,
    duplicates: DuplicatePolicy = "error",
    source: str | None = None,
    columns: tuple[str, str, str] = ("item", "rater", "label"),
    locate: Locator | None = None,
) -> Coded:
    """Code three equal-length sequences (item id, rater id, label per row).

    ``duplicates`` says what to do when a rater labelled the same item twice: ``"error"``,
    ``"first"``/``"last"`` (keep one), ``"keep"`` (count every label).

    >>> code_long(["a", "a", "b"], ["r1", "r2", "r1"], ["x", "y", "x"]).label_codes.tolist()
    [0, 1, 0]
    """
    where = source or "input"
    locate = locate or (lambda i: f"{where} row {i + 1}")
    for param, value in (("items", items), ("raters", raters), ("labels", labels)):
        if value is None:
            raise TypeError(f"{param}=None: give one {param[:-1]} per label")
    item_col, rater_col, label_col = columns
    for param, value in (("items", items), ("raters", raters), ("labels", labels)):
        _one_dimensional(param, value)
    n = len(items)
    if not (len(raters) == n == len(labels)):
        raise InputError("items, raters and labels must have the same length")
    if n == 0:
        raise InputError(f"{where}: no ratings (zero rows); give at least one label")
    if duplicates not in ("error", "keep", "first", "last"):
        raise InputError(
            f"{setting('duplicates', duplicates)}: use one of error, keep, first, last"
        )
    label_codes, cls_ = code_labels(labels, classes, column=label_col, locate=locate)
    item_codes, item_index = ids_to_index(items, column=item_col, locate=locate)
    rater_codes, rater_index = ids_to_index(raters, column=rater_col, locate=locate)
    ids = (item_codes, item_index, rater_codes, rater_index)
    return finish_long(*ids, label_codes, cls_, duplicates=duplicates, locate=locate)


def finish_long(
    item_codes: np.ndarray,
    item_index: pd.Index,
    rater_codes: np.ndarray,
    rater_index: pd.Index,
    label_codes: np.ndarray,
    cls_: tuple[Any, ...],
    *,
    duplicates: DuplicatePolicy,
    locate: Locator,
) -> Coded:
    """Coded named ratings from the per-row codes of :func:`code_long`: a rater's repeated label of an
    item handled by ``duplicates``, each item's labels together in row order."""
    order = _item_order(item_codes)
    if duplicates != "keep":
        # looked for in item order, with no hash or sort of 10^7 keys; the hash runs only on failure
        first, second = (
            (item_codes, rater_codes) if order is None else (item_codes[order], rater_codes[order])
        )
        has_dup = pairs_repeat(first, second, len(rater_index))
        if has_dup:
            key = item_codes.astype(np.int64) * max(len(rater_index), 1) + rater_codes
            keep_which: Literal["first", "last"] = "last" if duplicates == "last" else "first"
            dup = pd.Series(key).duplicated(keep=keep_which).to_numpy()
            if duplicates == "error":
                i = int(np.flatnonzero(dup)[0])
                it, ra = item_index[item_codes[i]], rater_index[rater_codes[i]]
                raise InputError(
                    f"{locate(i)}: rater {show(ra)} labelled item {show(it)} more than once "
                    f"({int(dup.sum())} duplicate (item, rater) pairs); remove them or choose "
                    f"{setting('duplicates', 'keep')}, {setting('duplicates', 'first')} or "
                    f"{setting('duplicates', 'last')}"
                )
            keep = ~dup
            item_codes, rater_codes, label_codes = (
                item_codes[keep],
                rater_codes[keep],
                label_codes[keep],
            )
            order = _item_order(item_codes)
    if order is not None:  # each item's labels together, in row order (as Ratings holds them)
        item_codes, rater_codes, label_codes = (
            item_codes[order],
            rater_codes[order],
            label_codes[order],
        )
    return Coded(
        items=item_index,
        classes=cls_,
        item_codes=item_codes.astype(np.int32, copy=False),
        rater_codes=rater_codes.astype(np.int32, copy=False),
        label_codes=label_codes,
        raters=rater_index,
    )


def long_layout(
    table: Table,
    *,
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    classes: Sequence[Any] | None = None,
    duplicates: DuplicatePolicy = "error",
) -> Coded:
    """A long table (one row per label); columns detected by name unless given."""
    cols = table.columns
    icol = pick_column(cols, item_col, ITEM_NAMES, role="item", param="item_col", where=table.name)
    rcol = pick_column(
        cols, rater_col, RATER_NAMES, role="rater", param="rater_col", where=table.name
    )
    lcol = pick_column(
        cols, label_col, LABEL_NAMES, role="label", param="label_col", where=table.name
    )
    assert icol and rcol and lcol
    df = table.frame
    return code_long(
        df[icol],
        df[rcol],
        df[lcol],
        classes=classes,
        duplicates=duplicates,
        source=table.name,
        columns=(icol, rcol, lcol),
        locate=table.locate,
    )


# ------------------------------------------------------------------------------------------ wide
def index_as_items(frame: pd.DataFrame, item_col: str | None) -> tuple[pd.DataFrame, str | None]:
    """A wide DataFrame with no item column gets its index as one (cleanlab frames: items are rows).

    Returns the frame (with the index as a first column when used) and the item column to use.

    >>> f, col = index_as_items(pd.DataFrame({"r1": [0, 1]}, index=["a", "b"]), None)
    >>> col, f["item"].tolist()
    ('item', ['a', 'b'])
    """
    names = [str(c) for c in frame.columns]
    if item_col is not None or any(normalise_name(c) in ITEM_NAMES for c in names):
        return frame, item_col
    name = frame.index.name if isinstance(frame.index.name, str) else None
    if name is None or name in names:
        name = "item"
    out = frame.copy(deep=False)
    out.insert(0, name, frame.index.to_numpy())
    return out, name


def wide_layout(
    table: Table,
    *,
    item_col: str | None = None,
    rater_cols: Sequence[str] | None = None,
    ignore_cols: Sequence[str] = (),
    classes: Sequence[Any] | None = None,
) -> Coded:
    """A wide table: one row per item, one column per rater (``rater_cols``, default every column but
    the item column and ``ignore_cols``); blank cells are missing labels; raters are the column names."""
    df = table.frame
    icol = pick_column(
        table.columns, item_col, ITEM_NAMES, role="item", param="item_col", where=table.name
    )
    assert icol is not None
    if rater_cols is None:
        rater_cols = [c for c in table.columns if c != icol and c not in ignore_cols]
    for c in rater_cols:
        if c not in table.columns:
            raise InputError(f"{table.name}: no rater column {c!r}; check rater_cols=")
    if not rater_cols:
        raise InputError(f"{table.name}: no rater columns besides the item column '{icol}'")
    item_codes, item_index = ids_to_index(df[icol], column=str(icol), locate=table.locate)
    if len(item_index) != len(df):
        dup = pd.Series(item_codes).duplicated().to_numpy()
        i = int(np.flatnonzero(dup)[0])
        raise InputError(
            f"{table.locate(i)}: item {show(df[icol].iloc[i])} appears on more than one row of a wide "
            "file; give one row per item"
        )
    names = list(rater_cols)
    return _code_cells(
        df[names].to_numpy(dtype=object),
        item_codes,
        item_index,
        pd.Index([str(c) for c in names]),
        classes,
        lambda i, j: f"{table.locate(i)} column '{names[j]}'",
        table.name,
    )


def wide_array(
    values: Any, *, classes: Sequence[Any] | None = None, source: str | None = None
) -> Coded:
    """An items × raters array of labels (cleanlab's ``N × M`` with NaN for missing): items are the
    row numbers ``0..N-1`` and raters the column numbers; integral floats become integer labels."""
    where = source or "array"
    arr = np.asarray(values)
    if arr.ndim != 2:
        raise InputError(
            f"{where}: a wide array is items × raters (2-D), got shape {arr.shape}; for one label "
            "per item use a long table"
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"{where}: empty array of shape {arr.shape}; give at least one label")
    n_items, n_raters = arr.shape
    return _code_cells(
        arr.astype(object) if arr.dtype.kind not in "fiub" else arr,
        np.arange(n_items, dtype=np.int32),
        pd.Index(range(n_items)),
        pd.Index(range(n_raters)),
        classes,
        lambda i, j: f"{where} row {i} column {j}",
        where,
    )


def _code_cells(
    block: np.ndarray,
    item_codes: np.ndarray,
    item_index: pd.Index,
    raters: pd.Index,
    classes: Sequence[Any] | None,
    cell: Callable[[int, int], str],
    where: str,
) -> Coded:
    """Code an items × raters block of labels (blank / NaN cells missing)."""
    n_rows, n_cols = block.shape
    rows = np.repeat(np.arange(n_rows), n_cols)  # row-major: item-major order
    cols = np.tile(np.arange(n_cols), n_rows)
    codes, cls_ = code_labels(
        pd.Series(block.ravel()),
        classes,
        column="rater columns",
        locate=lambda k: cell(int(rows[k]), int(cols[k])),
        allow_missing=True,
    )
    keep = codes >= 0
    if not keep.any():
        raise InputError(f"{where}: every rater cell is blank; there are no labels")
    return Coded(
        items=item_index,
        classes=cls_,
        item_codes=np.asarray(item_codes)[rows[keep]],
        rater_codes=cols[keep].astype(np.int32),
        label_codes=codes[keep],
        raters=raters,
    )


# ---------------------------------------------------------------------------------------- counts
def parse_counts_spec(
    spec: CountsSpec, columns: Sequence[str], where: str
) -> list[tuple[Any, str]]:
    """(class, column) pairs of a counts spec: ``e,n,c`` / ``CLASS=COL,...`` / a glob
    ``credCount*_ret`` (classes = what ``*`` matched) / a prefix ``count_`` / a mapping class → column.

    >>> parse_counts_spec("cnt*_x", ["id", "cnt1_x", "cnt-1_x"], "c.csv")
    [(-1, 'cnt-1_x'), (1, 'cnt1_x')]
    """
    columns = list(columns)
    if isinstance(spec, str) and "," not in spec and "=" not in spec and spec not in columns:
        pattern = spec if "*" in spec else spec + "*"
        matched = [c for c in columns if fnmatch.fnmatchcase(c, pattern)]
        if not matched:
            raise InputError(
                f"{where}: no columns match the counts pattern {pattern!r} "
                f"(columns: {', '.join(columns)}); check {setting('counts')}"
            )
        star = pattern.index("*")
        tail = len(pattern) - star - 1
        names = [c[star : len(c) - tail] if tail else c[star:] for c in matched]
        classes = coerce_classes(names)
        pairs = list(zip(classes, matched, strict=True))
        if all(isinstance(c, int) for c in classes):
            pairs.sort(key=lambda p: p[0])
        return pairs
    if isinstance(spec, Mapping):
        entries = [(str(k), str(v)) for k, v in spec.items()]
    else:
        items = [e.strip() for e in spec.split(",")] if isinstance(spec, str) else list(spec)
        entries = [
            (e.partition("=")[0], e.partition("=")[2]) if "=" in e else (e, e) for e in items if e
        ]
    for _, col in entries:
        if col not in columns:
            raise InputError(
                f"{where}: no count column {col!r} (columns: {', '.join(columns)}); check {setting('counts')}"
            )
    classes = coerce_classes([e[0] for e in entries])
    return list(zip(classes, [e[1] for e in entries], strict=True))


def counts_layout(
    table: Table,
    *,
    counts: Counts,
    item_col: str | None = None,
    classes: Sequence[Any] | None = None,
) -> Coded:
    """A counts table: one row per item, one count column per class (``counts.columns``, see
    :func:`parse_counts_spec`). With ``counts.total`` the count columns may omit one class, counted as
    the total minus the others and named ``counts.rest_class`` (placed first)."""
    total_col, rest_class = counts.total, counts.rest_class
    df = table.frame
    icol = pick_column(
        table.columns, item_col, ITEM_NAMES, role="item", param="item_col", where=table.name
    )
    assert icol is not None
    pairs = parse_counts_spec(counts.columns, table.columns, table.name)
    values = {}
    for cls_name, col in pairs:
        values[cls_name] = _whole_numbers(df[col], table, f"count {{}} in column '{col}'")
    names = [p[0] for p in pairs]
    if total_col is not None:
        rest_name = _rest_class(table, total_col, rest_class, names)
        total = pd.to_numeric(df[total_col], errors="coerce").to_numpy(dtype=float)
        rest = total - np.sum([values[n] for n in names], axis=0)
        bad = ~np.isfinite(rest) | (rest < 0) | (rest != np.round(rest))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{table.locate(i)}: total {show(df[total_col].iloc[i])} in column '{total_col}' is "
                "smaller than the sum of the class counts or not a whole number; fix the total"
            )
        names = [rest_name, *names]
        values[rest_name] = rest
    mat = np.column_stack([values[n] for n in names]).astype(np.int64)
    cls_ = tuple(python_scalar(n) for n in names)
    if classes is not None:
        declared = coerce_classes(classes)
        if set(map(str, declared)) != set(map(str, cls_)):
            raise InputError(
                f"{table.name}: declared classes {declared!r} differ from the count columns' classes "
                f"{cls_!r}; make them match"
            )
        order = [list(map(str, cls_)).index(str(c)) for c in declared]
        mat, cls_ = mat[:, order], tuple(cls_[j] for j in order)
    codes, item_index = ids_to_index(df[icol], column=icol, locate=table.locate)
    if len(item_index) != len(df):
        dup = pd.Series(codes).duplicated().to_numpy()
        i = int(np.flatnonzero(dup)[0])
        raise InputError(
            f"{table.locate(i)}: item {show(df[icol].iloc[i])} appears on more than one row of a counts "
            "file; give one row per item"
        )
    return Coded(items=item_index, classes=cls_, counts=mat)


def _whole_numbers(column: pd.Series, table: Table, what: str) -> np.ndarray:
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values) | (values < 0) | (values != np.round(values))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{table.locate(i)}: {what.format(show(column.iloc[i]))} is not a non-negative integer; "
            "counts must be whole numbers of raters"
        )
    return values


def _rest_class(table: Table, total_col: str, rest_class: str, names: list[Any]) -> Any:
    if total_col not in table.columns:
        raise InputError(
            f"{table.name}: no total column {total_col!r} (columns: {', '.join(table.columns)}); "
            f"check {setting('total')}"
        )
    rest_name = coerce_classes([rest_class])[0]
    if rest_name in names:
        raise InputError(
            f"{setting('rest_class', rest_class)} is already a class of the counts; choose another name"
        )
    return rest_name


def counts_matrix(
    counts: Any,
    *,
    items: Sequence[Any] | None = None,
    classes: Sequence[Any] | None = None,
    source: str | None = None,
    locate: Locator | None = None,
) -> Coded:
    """An items × classes array of non-negative integers, or a DataFrame whose columns are the classes
    (items: its index); ``items`` default to ``0..n-1``, ``classes`` to ``0..C-1``."""
    where = source or "input"
    locate = locate or (lambda i: f"{where} row {i + 1}")
    if counts is None:
        raise TypeError("counts=None: give an items × classes array of label counts")
    if isinstance(counts, pd.DataFrame):
        if classes is None:
            classes = list(counts.columns)
        ids: Any = counts.index if items is None else items
        values = counts.to_numpy()
    else:
        ids, values = items, np.asarray(counts)
    if values.ndim != 2:
        raise InputError(f"counts must be a 2-D items × classes table, got shape {values.shape}")
    if classes is None:
        classes = list(range(values.shape[1]))
    cls_ = coerce_classes(classes)
    if len(cls_) != values.shape[1]:
        raise InputError(f"{len(cls_)} classes given for {values.shape[1]} count columns")
    if values.shape[0] == 0:
        raise InputError(f"{where}: no items (zero rows); give at least one item")
    try:
        num = values.astype(float)
    except (TypeError, ValueError):
        num = pd.DataFrame(values).apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(num) | (num < 0) | (num != np.round(num))
    if bad.any():
        i, j = (int(x[0]) for x in np.nonzero(bad))
        raise InputError(
            f"{locate(i)}: count {show(values[i, j])} for class {cls_[j]!r} is not a non-negative "
            "integer; counts must be whole numbers of raters"
        )
    item_index = pd.Index(range(values.shape[0]) if ids is None else ids)
    if len(item_index) != values.shape[0]:
        raise InputError(f"{len(item_index)} items given for {values.shape[0]} rows of counts")
    if item_index.has_duplicates:
        dup = item_index[item_index.duplicated()][0]
        i = int(np.flatnonzero(item_index == dup)[1])
        raise InputError(
            f"{locate(i)}: item {show(dup)} appears on more than one row of a counts table; "
            "give one row per item"
        )
    return Coded(items=item_index, classes=cls_, counts=num.astype(np.int64))
