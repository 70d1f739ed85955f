"""Ratings files as public data sets ship them, beyond long / wide / counts tables:

* a column holding each item's **count dictionary** (ChaosNLI's ``label_counter``:
  ``{"e": 30, "n": 70}``), in JSON lines or any table — named with ``ReadOptions(counts_col=)`` or
  detected when a JSON table has no rater and label columns;
* a **JSON object keyed by item id** (LeWiDi: ``{"17": {"annotators": "Ann1,Ann2",
  "annotations": "0,1", ...}, ...}``): the annotation list (with its annotators, named ratings;
  without, anonymous counts) or the count dictionary inside each item;
* a **.npy / .npz count matrix** (CIFAR-10H): items × classes counts, items ``0..n-1`` in row order,
  classes ``0..K-1`` unless declared with ``classes=``.

Each gives the same :class:`~humanly.data.Ratings` as the equivalent long table.

>>> import pandas as pd
>>> t = pd.DataFrame({"uid": ["a", "b"], "label_counter": [{"e": 3, "n": 1}, {"n": 4}]})
>>> dict_counts(t, "label_counter", item_col="uid").counts.tolist()
[[3, 1], [0, 4]]
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import coerce_classes, show, sort_classes
from .columns import (
    ITEM_NAMES,
    LABEL_NAMES,
    RATER_NAMES,
    id_text_columns,
    normalise_name,
    pick_column,
)
from .layouts import Coded, code_long, counts_matrix
from .options import ReadOptions
from .tables import read_table

__all__ = [
    "detect_counts_col",
    "dict_counts",
    "item_objects",
    "read_count_matrix",
    "special_format",
]

#: column names of the annotation list and of its annotators in a JSON object per item (LeWiDi)
ANNOTATION_NAMES = ("annotations", "labels", "annotation")
ANNOTATOR_NAMES = ("annotators", "raters", "workers")
ID_COLUMN = "item"


class _Pairs:
    """An ``object_pairs_hook`` for :mod:`json` that remembers the first key an object holds twice
    (the standard reader keeps the last entry and says nothing)."""

    def __init__(self) -> None:
        self.twice: Any = None

    def __call__(self, pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
        out = dict(pairs)
        if len(out) < len(pairs) and self.twice is None:
            seen: set[Any] = set()
            for key, _ in pairs:
                if key in seen:
                    self.twice = key
                    break
                seen.add(key)
        return out


def _as_dict(value: Any, where: str = "input") -> dict[Any, Any] | None:
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.lstrip().startswith("{"):
        hook = _Pairs()
        try:
            out = json.loads(value, object_pairs_hook=hook)
        except ValueError:
            return None
        if hook.twice is not None:
            raise InputError(
                f"{where}: key {show(hook.twice)} appears twice in {value[:40]!r}; give each class "
                "once (JSON would keep only the last count)"
            )
        return out if isinstance(out, dict) else None
    return None


def detect_counts_col(frame: pd.DataFrame) -> str | None:
    """The one column whose every cell is a dictionary of whole-number counts (``None``: none, or the
    table has rater and label columns)."""
    names = {normalise_name(c) for c in frame.columns}
    if names & set(RATER_NAMES) and names & set(LABEL_NAMES):
        return None
    found = []
    for col in frame.columns:
        dtype = frame[col].dtype
        if not len(frame) or not (
            pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
        ):
            continue
        first = _as_dict(frame[col].iloc[0])
        if first and all(isinstance(v, (int, np.integer)) for v in first.values()):
            found.append(str(col))
    return found[0] if len(found) == 1 else None


def dict_counts(
    frame: pd.DataFrame,
    counts_col: str,
    *,
    item_col: str | None = None,
    classes: Sequence[Any] | None = None,
    source: str | None = None,
) -> Coded:
    """Anonymous counts from a column of per-item count dictionaries (classes: declared, else the
    sorted keys of every dictionary)."""
    where = source or "input"
    if counts_col not in frame.columns:
        raise InputError(
            f"{setting('counts_col', counts_col)}: {where} has no such column (columns: "
            f"{', '.join(map(str, frame.columns))}); name the column of count dictionaries"
        )
    icol = pick_column(
        [str(c) for c in frame.columns],
        item_col,
        ITEM_NAMES,
        role="item",
        param="item_col",
        where=where,
    )
    dicts = []
    for i, value in enumerate(frame[counts_col]):
        d = _as_dict(value, f"{where} row {i + 1}")
        if d is None:
            raise InputError(
                f"{where} row {i + 1}: {show(value)} in column '{counts_col}' is not a dictionary of "
                'counts (e.g. {"e": 30, "n": 70}); give one per item'
            )
        dicts.append(d)
    keys = coerce_classes(sorted({str(k) for d in dicts for k in d}))
    cls_ = coerce_classes(classes) if classes is not None else sort_classes(keys)
    text = {str(c): j for j, c in enumerate(cls_)}
    values = np.zeros((len(dicts), len(cls_)), dtype=object)
    for i, d in enumerate(dicts):
        for k, v in d.items():
            j = text.get(str(k))
            if j is None:
                raise InputError(
                    f"{where} row {i + 1}: class {show(k)} in column '{counts_col}' is not one of the "
                    f"classes {cls_!r}; declare it with {setting('classes')}"
                )
            values[i, j] = v
    return counts_matrix(values, items=list(frame[icol]), classes=cls_, source=source)


def item_objects(path: Path) -> pd.DataFrame | None:
    """A ``.json`` file holding one object keyed by item id whose values are objects: one row per
    item with the id in column ``item`` (``None`` for any other JSON)."""
    with open(path, encoding="utf-8") as fh:
        head = fh.read(1)
        while head.isspace():
            head = fh.read(1)
        if head != "{":
            return None
        fh.seek(0)
        hook = _Pairs()
        try:
            data = json.load(fh, object_pairs_hook=hook)
        except ValueError:
            return None
    if not data or not all(isinstance(v, dict) for v in data.values()):
        return None
    if hook.twice is not None:
        item = hook.twice in data
        raise InputError(
            f"{path}: {'item' if item else 'key'} {show(hook.twice)} appears twice in one JSON "
            "object, and JSON keeps only the last entry; "
            + ("give each item once (merge its entries)" if item else "give each key once")
        )
    frame = pd.DataFrame.from_dict(data, orient="index")
    frame.insert(0, ID_COLUMN, [str(k) for k in data])
    return frame.reset_index(drop=True)


def _split(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            out = json.loads(text)
            return list(out)
        return [v.strip() for v in text.split(",") if v.strip()]
    return [] if value is None or (isinstance(value, float) and np.isnan(value)) else [value]


def annotation_lists(
    frame: pd.DataFrame,
    *,
    classes: Sequence[Any] | None = None,
    source: str | None = None,
) -> Coded | None:
    """Named ratings (or anonymous counts without annotators) from per-item annotation lists
    (``"0,1,1"`` or ``[0, 1, 1]``); ``None`` when the frame has no annotation column."""
    names = {normalise_name(c): c for c in frame.columns}
    acol = next((names[n] for n in ANNOTATION_NAMES if n in names), None)
    if acol is None:
        return None
    wcol = next((names[n] for n in ANNOTATOR_NAMES if n in names), None)
    items: list[Any] = []
    raters: list[Any] = []
    labels: list[Any] = []
    for i, (item, value) in enumerate(zip(frame[ID_COLUMN], frame[acol], strict=True)):
        labs = _split(value)
        who = _split(frame[wcol].iloc[i]) if wcol is not None else list(range(len(labs)))
        if len(who) != len(labs):
            raise InputError(
                f"{source or 'input'} item {show(item)}: {len(labs)} annotations but {len(who)} "
                f"annotators in '{wcol}'; give one annotator per annotation"
            )
        items += [item] * len(labs)
        raters += who
        labels += [str(x) if isinstance(x, str) else x for x in labs]
    coded = code_long(items, raters, labels, classes=classes, source=source)
    if wcol is not None:
        return coded
    counts = np.zeros((len(coded.items), len(coded.classes)), dtype=np.int64)
    assert coded.item_codes is not None and coded.label_codes is not None
    np.add.at(counts, (coded.item_codes, coded.label_codes), 1)
    return counts_matrix(counts, items=list(coded.items), classes=coded.classes, source=source)


def read_count_matrix(path: str | os.PathLike[str], classes: Sequence[Any] | None = None) -> Coded:
    """Items × classes counts from a ``.npy`` file or a ``.npz`` archive holding one array; items
    ``0..n-1`` in row order, classes ``0..K-1`` unless declared."""
    p = Path(path)
    try:
        loaded = np.load(p, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise InputError(
            f"{p}: cannot read it as a numpy array ({exc}); give a .npy or .npz file"
        ) from None
    if isinstance(loaded, np.lib.npyio.NpzFile):
        with loaded:
            names = list(loaded.files)
            if len(names) != 1:
                raise InputError(
                    f"{p}: holds {len(names)} arrays ({', '.join(names)}); save the items × classes "
                    "counts alone (np.savez(path, counts=array))"
                )
            array = loaded[names[0]]
    else:
        array = loaded
    if array.ndim != 2:
        raise InputError(
            f"{p}: an array of shape {array.shape}; give an items × classes matrix of counts"
        )
    return counts_matrix(array, classes=classes, source=str(p))


def special_format(
    source: Any,
    item_col: str | None,
    classes: Sequence[Any] | None,
    name: str | None,
    opts: ReadOptions,
    other_layout: bool,
) -> tuple[Coded, str] | None:
    """The coded ratings and source name of a ``.npy``/``.npz`` count matrix, a JSON object keyed by
    item id, or a table with a column of count dictionaries; ``None`` for every other source."""
    path = Path(source) if isinstance(source, (str, os.PathLike)) else None
    suffix = path.suffix.lower() if path is not None else ""
    if path is not None and suffix in (".npy", ".npz"):
        return read_count_matrix(path, classes), name or str(path)
    frame = item_objects(path) if path is not None and suffix == ".json" else None
    label = name or (str(path) if path is not None else "DataFrame")
    if frame is not None and not other_layout:
        col = opts.counts_col or detect_counts_col(frame)
        coded = (
            dict_counts(frame, col, item_col="item", classes=classes, source=label)
            if col is not None
            else annotation_lists(frame, classes=classes, source=label)
        )
        if coded is None:
            raise InputError(
                f"{label}: a JSON object per item, but no 'annotations' list and no count "
                f"dictionary inside; name the count dictionaries with {setting('counts_col')}"
            )
        return coded, label
    if other_layout or (opts.counts_col is None and suffix not in (".jsonl", ".ndjson", ".json")):
        return None
    if isinstance(source, pd.DataFrame):
        table_frame = source
    else:
        table_frame = read_table(source, text_columns=id_text_columns([item_col]), name=name).frame
    col = opts.counts_col or detect_counts_col(table_frame)
    if col is None:
        return None
    coded = dict_counts(table_frame, col, item_col=item_col, classes=classes, source=label)
    return coded, label
