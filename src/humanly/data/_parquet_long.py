"""A long Parquet file of ratings (item, rater, label) coded straight from its Arrow dictionaries.

The general reader (:func:`~humanly.data.tables.read_table`, then
:func:`~humanly.data.layouts.long_layout`) turns each text column into a pandas Categorical, whose
constructor checks that the categories are distinct by hashing them again: a second pass over every
distinct item id (a million ids: a third of the load). Here the item and rater columns go from
:func:`~humanly.data.tables.dictionary_codes` to codes and ids directly, with the same result: ids in
the dictionaries' order, unused entries dropped, the labels coded by
:func:`~humanly.data._coding.code_labels` as the general reader codes them. Anything unusual — a
folder, a missing or ambiguous column, ids that are not text, a blank or missing id, a dictionary
holding a value twice, no rows — returns ``None``, and the general reader reads the file and says what
is wrong, so every message stays the one it gives.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ._coding import blank_ids, code_labels
from .columns import ITEM_NAMES, LABEL_NAMES, RATER_NAMES, pick_column
from .layouts import Coded, finish_long
from .options import DuplicatePolicy
from .tables import column_to_pandas, dictionary_codes

__all__ = ["parquet_long"]

_POLICIES = ("error", "keep", "first", "last")


def parquet_long(
    source: Any,
    *,
    item_col: str | None,
    rater_col: str | None,
    label_col: str | None,
    classes: Sequence[Any] | None,
    duplicates: DuplicatePolicy,
    name: str | None,
) -> tuple[Coded, str] | None:
    """The coded ratings and source name of a long Parquet file (a file, not a folder), or ``None``
    to read it with the general reader (see the module docstring)."""
    if not isinstance(source, (str, os.PathLike)) or duplicates not in _POLICIES:
        return None
    path = Path(source)
    if path.suffix.lower() not in (".parquet", ".pq") or not path.is_file():
        return None
    import pyarrow as pa
    import pyarrow.parquet as pq

    label = name or str(path)
    try:
        schema = pq.read_schema(path)
        names = list(schema.names)
        picked = [
            pick_column(names, given, found, role=role, param=param, where=label)
            for given, found, role, param in (
                (item_col, ITEM_NAMES, "item", "item_col"),
                (rater_col, RATER_NAMES, "rater", "rater_col"),
                (label_col, LABEL_NAMES, "label", "label_col"),
            )
        ]
    except (InputError, OSError, pa.ArrowException):
        return None
    icol, rcol, lcol = (str(c) for c in picked)
    if len({icol, rcol, lcol}) < 3 or len(set(names)) < len(names):
        return None
    text = [c for c in (icol, rcol, lcol) if _text(schema.field(c).type)]
    if text[:2] != [icol, rcol] or not _plain(schema.field(lcol).type):
        return None
    plain = [c for c in text if not pa.types.is_dictionary(schema.field(c).type)]
    table = pq.read_table(path, columns=[icol, rcol, lcol], read_dictionary=plain or None)
    if table.num_rows == 0:
        return None
    items, raters = _ids(table.column(icol)), _ids(table.column(rcol))
    if items is None or raters is None:
        return None

    def locate(i: int) -> str:
        return f"{label} row {i + 1}"

    labels = pd.Series(column_to_pandas(table.column(lcol)))
    label_codes, cls_ = code_labels(labels, classes, column=lcol, locate=locate)
    coded = finish_long(*items, *raters, label_codes, cls_, duplicates=duplicates, locate=locate)
    return coded, label


def _text(kind: Any) -> bool:
    """A text column, read as dictionaries (as :func:`~humanly.data.tables.read_table` reads it), or
    a dictionary of text (a column written from a pandas Categorical)."""
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        return _text(kind.value_type)
    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


def _plain(kind: Any) -> bool:
    """A label column the general reader holds as one value a row (numbers, text, booleans)."""
    import pyarrow as pa

    kinds = (pa.types.is_integer, pa.types.is_floating, pa.types.is_boolean)
    return _text(kind) or any(is_kind(kind) for is_kind in kinds)


def _ids(col: Any) -> tuple[np.ndarray, pd.Index] | None:
    """Codes and ids of a text id column read as dictionaries, as the general reader's Categorical
    gives them (the dictionaries' order, unused entries dropped); ``None``: let it read the column."""
    import pyarrow.compute as pc

    got = dictionary_codes(col)
    if got is None:
        return None
    codes, values, unified = got
    if values.null_count or (not unified and pc.count_distinct(values).as_py() != len(values)):
        return None  # a dictionary holding a value twice (or a null): the general reader unifies it
    if len(codes) and int(codes.min()) < 0:
        return None  # a missing id: the general reader names its row
    cats = pd.Index(values.to_pandas())
    used = np.bincount(codes, minlength=len(cats)) > 0
    if blank_ids(pd.Series(cats))[used].any():
        return None  # a blank id: the general reader names its row
    if used.all():
        return codes, cats
    remap = np.cumsum(used) - 1
    return remap[codes].astype(np.int32), pd.Index(cats[used])
