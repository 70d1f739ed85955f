"""Streaming reader for ratings too large to hold as labels: a Parquet dataset (a file or a folder of
files) read in record batches and reduced to per-item class counts.

Memory stays proportional to the number of *items* (ids and a small counts matrix), not the number of
labels: 10⁷ items × 20 labels (2·10⁸ rows) reduce to a 10⁷ × C counts matrix. Rater identity is dropped
(the result is anonymous counts, which is what the slots reading of certify and every survey-equivalence
combiner need); an item's rows may be spread over any number of files and batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._coding import _sort_classes, coerce_classes, python_scalar, show
from .errors import InputError
from .ratings import Ratings

__all__ = ["read_counts_stream"]


def _dataset(path: Path, label: str) -> Any:
    import pyarrow.dataset as ds

    if not path.exists():
        raise InputError(f"{label}: no such file or folder; check the path")
    if path.is_file() and path.suffix.lower() not in (".parquet", ".pq"):
        raise InputError(
            f"{label}: streaming reads Parquet (a .parquet file or a folder of them); convert the "
            "file or drop --stream"
        )
    try:
        return ds.dataset(path, format="parquet")
    except Exception as exc:  # pyarrow raises several types; one line for all
        raise InputError(f"{label}: could not open as a Parquet dataset ({exc})") from None


def read_counts_stream(
    source: str | Path,
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
    import pyarrow as pa
    import pyarrow.compute as pc

    from .io import ITEM_NAMES, LABEL_NAMES, Table, _pick

    path = Path(source)
    label = name or str(path)
    dataset = _dataset(path, label)
    columns = [f.name for f in dataset.schema]
    stub = Table(pd.DataFrame(columns=columns), label, None)
    icol = _pick(stub, item_col, ITEM_NAMES, "item", "--item-col")
    lcol = _pick(stub, label_col, LABEL_NAMES, "label", "--label-col")
    declared = coerce_classes(classes) if classes is not None else None

    ids: list[Any] = []  # per batch: the batch's distinct item ids (Arrow)
    partial: list[np.ndarray] = []  # per batch: distinct items × batch classes counts
    batch_classes: list[list[Any]] = []
    seen: dict[Any, None] = {}
    row0 = 0
    for batch in dataset.to_batches(columns=[icol, lcol], batch_size=batch_rows):
        if batch.num_rows == 0:
            continue
        items, labels = batch.column(0), batch.column(1)
        for arr, col in ((items, icol), (labels, lcol)):
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
                        f"classes {declared!r}; fix the label or --classes"
                    )
        n_i, n_c = len(ienc.dictionary), len(values)
        counts = np.bincount(ii * n_c + li, minlength=n_i * n_c).reshape(n_i, n_c)
        ids.append(ienc.dictionary)
        partial.append(counts.astype(np.int32))
        batch_classes.append(values)
        seen.update(dict.fromkeys(values))
        row0 += batch.num_rows
    if row0 == 0:
        raise InputError(f"{label}: no rows; give at least one")

    if declared is not None:
        final = declared
        position = {
            **{str(c): j for j, c in enumerate(final)},
            **{c: j for j, c in enumerate(final)},
        }
    else:
        final = _sort_classes(list(seen))
        position = {c: j for j, c in enumerate(final)}
    n_cls = len(final)
    # one row per (batch, distinct item) in global class order, then one sum per global item
    rows = np.zeros((sum(len(p) for p in partial), n_cls), dtype=np.int32)
    at = 0
    for counts, values in zip(partial, batch_classes, strict=True):
        cols = [position[v] if v in position else position[str(v)] for v in values]
        rows[at : at + len(counts), cols] = counts
        at += len(counts)
    del partial
    all_ids = pa.concat_arrays([a.cast(ids[0].type) for a in ids])
    genc = pc.dictionary_encode(all_ids)
    gidx = genc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    n_items = len(genc.dictionary)
    total = np.empty((n_items, n_cls), dtype=np.int64)
    for j in range(n_cls):
        total[:, j] = np.bincount(gidx, weights=rows[:, j], minlength=n_items)
    item_index = pd.Index(genc.dictionary.to_pandas())
    return Ratings(items=item_index, classes=final, counts=total, source=label)
