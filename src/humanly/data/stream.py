"""Streaming reader for ratings too large to hold as labels: a Parquet dataset (a file or a folder of
files) read in record batches and reduced to per-item class counts.

Memory stays proportional to the number of *items* (ids and a small counts matrix), not the number of
labels: 10⁷ items × 20 labels (2·10⁸ rows) reduce to a 10⁷ × C counts matrix. Rater identity is dropped
(the result is anonymous counts, which is what the slots reading of certify and every survey-equivalence
combiner need); an item's rows may be spread over any number of files and batches.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import coerce_classes, python_scalar, show, sort_classes
from .columns import ITEM_NAMES, LABEL_NAMES, pick_column
from .ratings import Ratings

__all__ = ["read_counts_stream"]


def _dataset(path: Path, label: str) -> Any:
    import pyarrow.dataset as ds

    if not path.exists():
        raise InputError(f"{label}: no such file or folder; check the path")
    if path.is_file() and path.suffix.lower() not in (".parquet", ".pq"):
        raise InputError(
            f"{label}: streaming reads Parquet (a .parquet file or a folder of them); convert the "
            f"file or drop {setting('stream', True)}"
        )
    try:
        return ds.dataset(path, format="parquet")
    except Exception as exc:  # pyarrow raises several types; one line for all
        raise InputError(f"{label}: could not open as a Parquet dataset ({exc})") from None


def read_counts_stream(
    source: str | os.PathLike[str],
    *,
    item_col: str | None = None,
    label_col: str | None = None,
    classes: Sequence[Any] | None = None,
    batch_rows: int = 1 << 20,
    name: str | None = None,
) -> Ratings:
    """Per-item class counts of a long-format Parquet dataset (``item, [rater,] label`` rows), read
    ``batch_rows`` rows at a time. Returns anonymous-count :class:`Ratings` (items in order of first
    appearance; classes declared or the sorted distinct labels)."""
    path = Path(source)
    label = name or str(path)
    dataset = _dataset(path, label)
    columns = [f.name for f in dataset.schema]
    icol = pick_column(columns, item_col, ITEM_NAMES, role="item", param="item_col", where=label)
    lcol = pick_column(
        columns, label_col, LABEL_NAMES, role="label", param="label_col", where=label
    )
    assert icol is not None and lcol is not None
    declared = coerce_classes(classes) if classes is not None else None

    parts: list[_BatchCounts] = []
    row0 = 0
    for batch in _batches(dataset, [icol, lcol], batch_rows, label):
        if batch.num_rows:
            parts.append(_batch_counts(batch, (icol, lcol), declared, label, row0))
            row0 += batch.num_rows
    if row0 == 0:
        raise InputError(f"{label}: no rows; give at least one")
    return _merge(parts, declared, label)


def _batches(dataset: Any, columns: list[str], batch_rows: int, label: str) -> Iterator[Any]:
    """The dataset's record batches; a damaged part (a truncated or corrupt file) is one line."""
    import pyarrow as pa

    batches = iter(dataset.to_batches(columns=columns, batch_size=batch_rows))
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowException, OSError) as exc:
            msg = " ".join(str(exc).split())[:200]
            raise InputError(
                f"{label}: a part of the Parquet data could not be read ({msg}); replace or remove "
                "the damaged file"
            ) from None
        yield batch


class _BatchCounts(NamedTuple):
    ids: Any  # the batch's distinct item ids (Arrow)
    counts: np.ndarray  # distinct items × batch classes
    classes: list[Any]  # the batch's classes, in the order of the columns of counts


def _batch_counts(
    batch: Any, columns: tuple[str, str], declared: tuple[Any, ...] | None, label: str, row0: int
) -> _BatchCounts:
    """One record batch → its distinct items × its classes counts."""
    import pyarrow as pa
    import pyarrow.compute as pc

    items, labels = batch.column(0), batch.column(1)
    for arr, col in zip((items, labels), columns, strict=True):
        if arr.null_count:
            i = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
            raise InputError(
                f"{label} row {row0 + i + 1}: blank or missing value in column '{col}'; fill it "
                "in or remove the row"
            )
    if pa.types.is_dictionary(items.type):
        items = items.cast(items.type.value_type)
    if pa.types.is_dictionary(labels.type):
        labels = labels.cast(labels.type.value_type)
    ienc = pc.dictionary_encode(items)
    lenc = pc.dictionary_encode(labels)
    ii = ienc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    li = lenc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    values = [python_scalar(v) for v in lenc.dictionary.to_pylist()]
    if declared is not None:
        text = {str(c) for c in declared}
        for v in values:
            if v not in declared and str(v) not in text:
                i = int(np.flatnonzero(li == values.index(v))[0])
                raise InputError(
                    f"{label} row {row0 + i + 1}: label {show(v)} is not one of the declared "
                    f"classes {declared!r}; fix the label or {setting('classes')}"
                )
    n_i, n_c = len(ienc.dictionary), len(values)
    counts = np.bincount(ii * n_c + li, minlength=n_i * n_c).reshape(n_i, n_c)
    return _BatchCounts(ienc.dictionary, counts.astype(np.int32), values)


def _merge(parts: list[_BatchCounts], declared: tuple[Any, ...] | None, label: str) -> Ratings:
    """Sum the batches' counts per item, in one global class order."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if declared is not None:
        final = declared
        position = {
            **{str(c): j for j, c in enumerate(final)},
            **{c: j for j, c in enumerate(final)},
        }
    else:
        seen: dict[Any, None] = {}
        for part in parts:
            seen.update(dict.fromkeys(part.classes))
        final = sort_classes(list(seen))
        position = {c: j for j, c in enumerate(final)}
    n_cls = len(final)
    # one row per (batch, distinct item) in global class order, then one sum per global item
    rows = np.zeros((sum(len(p.counts) for p in parts), n_cls), dtype=np.int32)
    at = 0
    for part in parts:
        cols = [position[v] if v in position else position[str(v)] for v in part.classes]
        rows[at : at + len(part.counts), cols] = part.counts
        at += len(part.counts)
    all_ids = pa.concat_arrays([p.ids.cast(parts[0].ids.type) for p in parts])
    parts.clear()  # free the per-batch counts before the final sum
    genc = pc.dictionary_encode(all_ids)
    gidx = genc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    n_items = len(genc.dictionary)
    total = np.empty((n_items, n_cls), dtype=np.int64)
    for j in range(n_cls):
        total[:, j] = np.bincount(gidx, weights=rows[:, j], minlength=n_items)
    item_index = pd.Index(genc.dictionary.to_pandas())
    return Ratings(items=item_index, classes=final, counts=total, source=label)
