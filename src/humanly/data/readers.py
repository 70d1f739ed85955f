"""Readers: ratings, predictions and gold labels from files, DataFrames and arrays.

* :func:`read_ratings` — long, wide or counts tables (files or DataFrames), cleanlab's items × raters
  arrays (``wide=True``), or a Parquet dataset streamed to counts (``options.stream``);
* :func:`read_predictions` — model outputs: hard labels, ``prob_<class>`` columns, one positive-class
  probability or a real-valued score, optionally several models in one file;
* :func:`read_gold` — oracle labels, any subset of items.

Files are read by extension (:mod:`humanly.data.tables`); columns are found by name
(:mod:`humanly.data.columns`) unless given. Every problem is one
:class:`~humanly.errors.InputError` line naming the file, line or row, column or value, and the
fix, written with the Python parameter (``item_col=``) that the command line shows as its flag.
To read ratings, predictions and gold together, joined by item id, use :func:`humanly.read_study`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import code_labels, coerce_classes, has_duplicates, ids_to_index, show
from ._parquet_long import parquet_long
from ._scale import on_scale
from .columns import (
    GOLD_NAMES,
    HARD_NAMES,
    ITEM_NAMES,
    MODEL_NAMES,
    PROB_NAMES,
    id_text_columns,
    normalise_name,
    pick_column,
)
from .formats import special_format
from .layouts import (
    counts_layout,
    index_as_items,
    long_layout,
    wide_array,
    wide_layout,
)
from .options import Counts, CountsSpec, ReadOptions, as_counts, as_read_options
from .predictions import Gold, ModelOutput, Predictions, check_probabilities
from .ratings import Ratings
from .stream import read_counts_stream
from .tables import Source, Table, read_table, source_name

__all__ = ["read_gold", "read_predictions", "read_ratings"]

_ARRAY_HINT = (
    "say what the array holds: pass wide=True for an items × raters label matrix (NaN = missing), "
    "or use humanly.Ratings.from_counts(array) for items × classes counts"
)


# ------------------------------------------------------------------------------------------ ratings
#: ReadOptions fields that name columns of a predictions table, not of ratings
_PREDICTION_KEYS = ("score_col", "model_col", "positive", "prediction_cols")


def read_ratings(
    source: Source | np.ndarray | Ratings,
    *,
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    wide: bool = False,
    counts: CountsSpec | Counts | None = None,
    classes: Sequence[Any] | None = None,
    rater_cols: Sequence[str] | None = None,
    ignore_cols: Sequence[str] = (),
    name: str | None = None,
    options: ReadOptions | None = None,
) -> Ratings:
    """Read ratings from a file, a DataFrame or an array.

    Three layouts: **long** (the default: one row per label, item, rater and label columns found by
    name), **wide** (``wide=True``: one row per item, one column per rater or slot, blank cells
    missing) and **counts** (``counts=``: one row per item, one count column per class, anonymous
    raters). A numpy array with ``wide=True`` is cleanlab's items × raters matrix (NaN for a missing
    label; items ``0..N-1``, raters ``0..M-1``); an items × classes array of counts is
    :meth:`Ratings.from_counts`'s.

    Parameters
    ----------
    source : str, path, DataFrame, numpy.ndarray or Ratings
        A file (``.csv``, ``.tsv``, ``.parquet`` or a folder of Parquet files, ``.jsonl``, ``.json``),
        a DataFrame, an array (``wide=True``), or a :class:`Ratings` (returned as it is).
    item_col, rater_col, label_col : str or None
        The item, rater and label columns (default: found by name, see :mod:`humanly.data.columns`).
        A wide or counts DataFrame without an item column has its index as the items.
    wide : bool
        One row per item, one column per rater or slot.
    counts : str, sequence, mapping or Counts
        The count columns (:class:`Counts`, or its ``columns`` alone).
    classes : sequence or None
        The classes in order (default: the sorted distinct labels, or the count columns' classes).
    rater_cols : sequence of str or None
        The rater columns of a wide table (default: every column but the item column and
        ``ignore_cols``).
    ignore_cols : sequence of str
        Columns of a wide table that are not raters.
    name : str or None
        The source's name in messages (default: the path, or ``"DataFrame"``).
    options : ReadOptions or None
        ``duplicates`` (a rater labelling an item twice) and ``stream`` (a long Parquet file or folder
        read in batches into per-item counts: memory grows with the items, not the labels).

    Returns
    -------
    Ratings
        Named raters (long and wide layouts) or anonymous counts (counts layout, ``stream``).

    Raises
    ------
    InputError
        A file that cannot be read, a missing or ambiguous column, a blank id or label, a label outside
        ``classes``: one line naming the file, row and column. ``TypeError``: a source of the wrong
        type, or an array without ``wide=True``.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"task": ["t1", "t1", "t2"], "worker": ["w1", "w2", "w1"],
    ...                      "label": ["cat", "dog", "dog"]})  # crowd-kit's layout
    >>> read_ratings(long)
    Ratings(2 items, 2 raters, 3 labels, classes=('cat', 'dog'), source='DataFrame')
    >>> import numpy as np
    >>> labels = np.array([[1, 0, np.nan], [1, 1, 0]])  # cleanlab: items × raters, NaN = missing
    >>> r = read_ratings(labels, wide=True)
    >>> r.classes, r.counts.tolist()
    ((0, 1), [[1, 1], [1, 2]])
    """
    if source is None:
        raise TypeError("source=None: give a file path, a DataFrame or an array of labels")
    if isinstance(source, Ratings):
        return source
    opts = as_read_options(options)
    if opts.scale is not None:  # read as nominal, then put the labels on their scale
        args = (item_col, rater_col, label_col, wide, counts, classes, rater_cols, ignore_cols)
        return on_scale(_nominal(source, (*args, name), opts), opts.scale, classes, counts)
    named = [k for k in _PREDICTION_KEYS if getattr(opts, k) is not None]
    if named:
        raise InputError(
            f"options.{named[0]}= names a column of a predictions table; read_ratings reads ratings "
            "only: use read_study or read_predictions"
        )
    spec = as_counts(counts)
    if wide and spec is not None:
        raise InputError(f"give {setting('wide', True)} or {setting('counts')}, not both")
    if opts.stream:
        return _stream(source, item_col, label_col, wide or spec is not None, classes, name)
    if isinstance(source, (np.ndarray, list, tuple)):
        if not wide:
            shape = np.shape(source) if isinstance(source, np.ndarray) else (len(source),)
            raise TypeError(f"read_ratings(array of shape {shape}): {_ARRAY_HINT}")
        return Ratings._from_coded(wide_array(source, classes=classes, source=name), source=name)
    if not isinstance(source, (pd.DataFrame, str, os.PathLike)):
        raise TypeError(
            f"source={type(source).__name__}: give a file path, a DataFrame or an array of labels"
        )
    special = special_format(source, item_col, classes, name, opts, wide or spec is not None)
    if special is not None:
        return Ratings._from_coded(special[0], source=special[1])
    if spec is not None:
        return _one_row_per_item(source, item_col, classes, name, counts=spec)
    if wide:
        rest = {"rater_cols": rater_cols, "ignore_cols": ignore_cols}
        return _one_row_per_item(source, item_col, classes, name, **rest)
    cols = {"item_col": item_col, "rater_col": rater_col, "label_col": label_col}
    fast = parquet_long(source, classes=classes, duplicates=opts.duplicates, name=name, **cols)
    if fast is not None:  # a long Parquet file, coded from its dictionaries
        return Ratings._from_coded(fast[0], source=fast[1])
    table = read_table(source, text_columns=id_text_columns([item_col, rater_col]), name=name)
    coded = long_layout(table, classes=classes, duplicates=opts.duplicates, **cols)
    return Ratings._from_coded(coded, source=table.name)


def _nominal(source: Any, args: tuple[Any, ...], opts: ReadOptions) -> Ratings:
    """:func:`read_ratings` with ``args`` (its keyword arguments in order) and ``opts`` on no scale."""
    keys = ("item_col", "rater_col", "label_col", "wide", "counts", "classes", "rater_cols")
    kwargs = dict(zip((*keys, "ignore_cols", "name"), args, strict=True))
    return read_ratings(source, options=dataclasses.replace(opts, scale=None), **kwargs)


def _stream(
    source: Any,
    item_col: str | None,
    label_col: str | None,
    one_row_per_item: bool,
    classes: Sequence[Any] | None,
    name: str | None,
) -> Ratings:
    """A long-format Parquet file or folder, streamed to per-item counts."""
    if not isinstance(source, (str, os.PathLike)) or one_row_per_item:
        raise InputError(
            f"{setting('stream', True)} reads a long-format Parquet file or folder; drop "
            f"{setting('wide', True)}/{setting('counts')} or {setting('stream', True)}"
        )
    return read_counts_stream(
        source, item_col=item_col, label_col=label_col, classes=classes, name=name
    )


def _one_row_per_item(
    source: Source,
    item_col: str | None,
    classes: Sequence[Any] | None,
    name: str | None,
    **layout: Any,
) -> Ratings:
    """Ratings from a wide table (``rater_cols``, ``ignore_cols``) or a counts table (``counts``, a
    :class:`Counts`); a DataFrame with no item column has its items in the index."""
    if isinstance(source, pd.DataFrame):
        source, item_col = index_as_items(source, item_col)
    table = read_table(source, text_columns=id_text_columns([item_col]), name=name)
    if "counts" in layout:
        coded = counts_layout(table, item_col=item_col, classes=classes, **layout)
    else:
        coded = wide_layout(table, item_col=item_col, classes=classes, **layout)
    return Ratings._from_coded(coded, source=table.name)


# ------------------------------------------------------------------------------------ predictions
#: the advice for a predicted label outside the classes: they are the ratings' (no flag adds one)
_FIX_OUTPUT = "fix the label (outputs are in the ratings' classes)"


def read_predictions(
    source: Source,
    *,
    item_col: str | None = None,
    prediction_col: str | None = None,
    prob_col: str | None = None,
    score_col: str | None = None,
    model_col: str | None = None,
    positive: Any = None,
    classes: Sequence[Any] | None = None,
    prob_prefix: str = "prob_",
    model_name: str | None = None,
) -> Predictions:
    """Read models' outputs from a table: hard labels, probabilities or real-valued scores.

    A model column holds several models in one table (one row per item and model); each model's kind
    is read from the columns its rows fill, so a hard and a soft model can share a file (blank cells
    where a column does not apply). Without a column named explicitly, the columns are found by name:
    ``prediction`` (hard labels), ``prob_<class>`` (one probability per class) or ``prob`` (two
    classes: the probability of ``positive``).

    Parameters
    ----------
    source : str, path or DataFrame
        The predictions table.
    item_col : str or None
        The item column (default: found by name).
    prediction_col, prob_col, score_col : str or None
        A column of hard labels, of the probability of ``positive`` (two classes), or of real-valued
        scores that are not probabilities.
    model_col : str or None
        The model name column (default: a column named ``model``, if any).
    positive : object
        The class whose probability ``prob_col`` holds (default: the second class).
    classes : sequence or None
        The classes the outputs refer to (pass the ratings' classes; hard labels outside them are an
        error).
    prob_prefix : str
        The prefix of the per-class probability columns.
    model_name : str or None
        The model's name when the table has no model column (default: the column named explicitly,
        else the file's name).

    Returns
    -------
    Predictions
        One :class:`ModelOutput` per model, over the table's items.

    Raises
    ------
    InputError
        For a missing or ambiguous column, a model without a prediction for an item another model
        predicts, a duplicate (item, model) row, or probabilities that are not probabilities.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"item": ["a", "b", "a", "b"], "model": ["m1", "m1", "m2", "m2"],
    ...                       "prediction": ["yes", "no", None, None],
    ...                       "prob_no": [None, None, 0.3, 0.8], "prob_yes": [None, None, 0.7, 0.2]})
    >>> p = read_predictions(frame, classes=["no", "yes"])
    >>> p
    Predictions(2 items, classes=('no', 'yes'), models={'m1': label, 'm2': proba})
    >>> p.hard("m2").tolist()
    [1, 0]
    """
    if source is None:
        raise TypeError("source=None: give a predictions file path or DataFrame")
    src_name = "DataFrame" if isinstance(source, pd.DataFrame) else str(source)
    table = read_table(source, text_columns=id_text_columns([item_col, model_col]))
    cols = table.columns
    icol = pick_column(cols, item_col, ITEM_NAMES, role="item", param="item_col", where=table.name)
    mcol = pick_column(
        cols,
        model_col,
        MODEL_NAMES,
        role="model",
        param="model_col",
        where=table.name,
        required=False,
    )
    assert icol is not None
    groups = _prediction_groups(table, prediction_col, prob_col, score_col, prob_prefix)
    cls_ = _prediction_classes(table, groups, classes, prob_prefix)
    explicit = score_col or prob_col or prediction_col
    default = model_name or (explicit if explicit else source_name(src_name))
    item_codes, item_index, model_codes, model_names = _rows_by_model(
        table, icol, mcol, groups, default
    )
    models = []
    for m, mname in enumerate(model_names):
        rows = np.flatnonzero(model_codes == m)
        if len(rows) != len(item_index):
            have = np.zeros(len(item_index), dtype=bool)
            have[item_codes[rows]] = True
            missing_item = item_index[~have][0]
            raise InputError(
                f"{table.name}: model {mname!r} has no prediction for {int((~have).sum())} item(s) "
                f"that other models predict (first: {show(missing_item)}); give every model every item"
            )
        kind, values = _model_outputs(table, rows, groups, cls_, positive, mname)
        out = np.empty_like(values)
        out[item_codes[rows]] = values
        models.append(ModelOutput(mname, kind, out))  # type: ignore[arg-type]
    return Predictions(item_index, cls_, models, source=src_name)


def _prediction_groups(
    table: Table,
    prediction_col: str | None,
    prob_col: str | None,
    score_col: str | None,
    prob_prefix: str,
) -> dict[str, list[str]]:
    """Candidate prediction columns by kind: ``label``, ``prob1`` (one probability), ``proba``
    (``prob_<class>`` columns) or ``score`` — the named ones, else those found by name."""
    cols = table.columns
    groups: dict[str, list[str]] = {}
    for kind, col, role, param in (
        ("score", score_col, "score", "score_col"),
        ("label", prediction_col, "prediction", "prediction_col"),
        ("prob1", prob_col, "probability", "prob_col"),
    ):
        if col is not None:
            groups[kind] = [
                str(pick_column(cols, col, (), role=role, param=param, where=table.name))
            ]
    if groups:
        return groups
    hard = [c for c in cols if normalise_name(c) in HARD_NAMES]
    single = [c for c in cols if normalise_name(c) in PROB_NAMES]
    multi = [c for c in cols if c.startswith(prob_prefix) and len(c) > len(prob_prefix)]
    for kind, found in (("label", hard), ("prob1", single), ("proba", multi)):
        if len(found) > 1 and kind != "proba":
            raise InputError(
                f"{table.name}: several columns could be the prediction ({', '.join(found)}); "
                f"choose one with {setting('prediction_col')} or {setting('prob_col')}"
            )
        if found:
            groups[kind] = found
    if not groups:
        raise InputError(
            f"{table.name}: no prediction columns (columns: {', '.join(cols)}); give a "
            f"'prediction' column, one '{prob_prefix}<class>' column per class, or a single 'prob' "
            f"column for two classes (or name one with {setting('prediction_col')}, {setting('prob_col')} "
            f"or {setting('score_col')})"
        )
    return groups


def _prediction_classes(
    table: Table,
    groups: dict[str, list[str]],
    classes: Sequence[Any] | None,
    prob_prefix: str,
) -> tuple[Any, ...]:
    """The classes the outputs refer to (declared, else from the ``prob_`` columns or the hard labels,
    else 0 and 1); puts the ``prob_<class>`` columns in class order."""
    cls_ = coerce_classes(classes) if classes is not None else None
    if "proba" in groups:
        suffixes = coerce_classes([c[len(prob_prefix) :] for c in groups["proba"]])
        if cls_ is None:
            cls_ = suffixes
        if sorted(map(str, suffixes)) != sorted(map(str, cls_)):
            raise InputError(
                f"{table.name}: prediction columns {', '.join(groups['proba'])} do not match the "
                f"classes {cls_!r}; give exactly one '{prob_prefix}<class>' column per class"
            )
        order = [list(map(str, suffixes)).index(str(c)) for c in cls_]
        groups["proba"] = [groups["proba"][j] for j in order]
    if cls_ is None and "label" in groups:
        _, cls_ = code_labels(
            table.frame[groups["label"][0]],
            None,
            column=groups["label"][0],
            locate=table.locate,
            allow_missing=True,
        )
    return (0, 1) if cls_ is None else cls_


def _rows_by_model(
    table: Table, icol: str, mcol: str | None, groups: dict[str, list[str]], default: str
) -> tuple[np.ndarray, pd.Index, np.ndarray, list[str]]:
    """Item codes and ids, model codes and names of the table's rows (one row per item and model)."""
    df = table.frame
    item_codes, item_index = ids_to_index(df[icol], column=str(icol), locate=table.locate)
    if mcol is None:
        if len(groups) > 1:
            found = ", ".join(c for cols in groups.values() for c in cols)
            raise InputError(
                f"{table.name}: several kinds of prediction columns ({found}) but no model column; "
                f"choose one with {setting('prediction_col')}, {setting('prob_col')} or "
                f"{setting('score_col')}, or add a 'model' column"
            )
        model_codes = np.zeros(len(df), dtype=np.int64)
        model_names = [str(default)]
    else:
        mc, mi = ids_to_index(df[mcol], column=mcol, locate=table.locate)
        # models in order of name, not of first row: the row order of the file never matters
        by_name = np.argsort([str(x) for x in mi], kind="stable")
        rank = np.empty(len(mi), dtype=np.int64)
        rank[by_name] = np.arange(len(mi))
        model_codes, model_names = rank[mc], [str(mi[j]) for j in by_name]
    key = model_codes * len(item_index) + item_codes
    if has_duplicates(key, len(model_names) * len(item_index)):
        i = int(np.flatnonzero(pd.Series(key).duplicated().to_numpy())[0])
        raise InputError(
            f"{table.locate(i)}: more than one prediction for item {show(df[icol].iloc[i])}"
            + (f" and model {show(df[mcol].iloc[i])}" if mcol else "")
            + "; give one row per item (and model)"
        )
    return item_codes, item_index, model_codes, model_names


def _model_outputs(
    table: Table,
    rows: np.ndarray,
    groups: dict[str, list[str]],
    classes: tuple[Any, ...],
    positive: Any,
    model: str,
) -> tuple[str, np.ndarray]:
    """The kind and values of one model's outputs (its ``rows`` of the table: all of them, in order,
    taken as they are)."""
    frame = table.frame[[c for cols in groups.values() for c in cols]]
    sub = frame if len(rows) == len(frame) else frame.iloc[rows]

    def locate(k: int) -> str:
        return table.locate(int(rows[k]))

    filled = {k: bool(sub[c].notna().all(axis=None)) for k, c in groups.items()}
    usable = [k for k, ok in filled.items() if ok]
    if len(groups) == 1:
        usable = list(groups)
    if len(usable) != 1:
        names = ", ".join(c for cols in groups.values() for c in cols)
        what = "several complete" if usable else "no complete"
        raise InputError(
            f"{table.name}: model {model!r} has {what} prediction columns among {names}; fill exactly "
            f"one kind per model (blank the others) or choose with {setting('prediction_col')} or "
            f"{setting('prob_col')}"
        )
    kind = usable[0]
    cols = groups[kind]
    if kind == "label":
        codes, _ = code_labels(
            sub[cols[0]], classes, column=cols[0], locate=locate, fix=_FIX_OUTPUT
        )
        return "label", codes
    if kind == "score":
        s = pd.to_numeric(sub[cols[0]], errors="coerce").to_numpy(dtype=float)
        if not np.isfinite(s).all():
            i = int(np.flatnonzero(~np.isfinite(s))[0])
            raise InputError(
                f"{locate(i)}: score {show(sub[cols[0]].iloc[i])} in column '{cols[0]}' is not a finite "
                "number; fix it"
            )
        return "score", s
    if kind == "proba":
        floats = all(isinstance(t, np.dtype) and t.kind == "f" for t in sub[cols].dtypes)
        numeric = sub[cols] if floats else sub[cols].apply(pd.to_numeric, errors="coerce")
        raw = numeric.to_numpy(dtype=float)
        check_probabilities(raw, locate)
        return "proba", raw
    return "proba", _positive_probability(table, sub[cols[0]], classes, positive, locate)


def _positive_probability(
    table: Table, column: pd.Series, classes: tuple[Any, ...], positive: Any, locate: Any
) -> np.ndarray:
    """Items × 2 probabilities from one column holding the probability of ``positive``."""
    if len(classes) != 2:
        raise InputError(
            f"{table.name}: a single probability column '{column.name}' needs two classes, but there "
            f"are {len(classes)} {classes!r}; give one 'prob_<class>' column per class"
        )
    pos = classes[1] if positive is None else coerce_classes([positive])[0]
    if str(pos) not in map(str, classes):
        raise InputError(f"{setting('positive', positive)} is not one of the classes {classes!r}")
    j = list(map(str, classes)).index(str(pos))
    p1 = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    outside = np.isfinite(p1) & ((p1 < 0) | (p1 > 1))
    if outside.any():  # name the value as written, not 1 − p of the other class
        i = int(np.flatnonzero(outside)[0])
        raise InputError(
            f"{locate(i)}: probability {p1[i]:g} in column '{column.name}' is outside [0, 1]; fix it"
        )
    values = np.empty((len(p1), 2))
    values[:, j], values[:, 1 - j] = p1, 1 - p1
    check_probabilities(values, locate)
    return values


# ------------------------------------------------------------------------------------------- gold
def read_gold(
    source: Source,
    *,
    item_col: str | None = None,
    gold_col: str | None = None,
    classes: Sequence[Any] | None = None,
) -> Gold:
    """Read gold (oracle) labels from a table with an item column and a gold column.

    An item may appear on several rows (gold stored beside each rating, say) if its rows agree.

    Parameters
    ----------
    source : str, path or DataFrame
        The gold table.
    item_col : str or None
        The item column (default: found by name: ``item``, ``task``, …).
    gold_col : str or None
        The gold column (default: found by name: ``label``, ``gold``, ``truth``, ``gold_label``,
        ``true_label``).
    classes : sequence or None
        The classes in order (pass the ratings' classes; default: the sorted distinct gold labels).

    Returns
    -------
    Gold
        One code per distinct item id of the table.

    Raises
    ------
    InputError
        For a missing column, a blank id or label, a label outside ``classes``, or an item with
        conflicting gold labels.

    Examples
    --------
    >>> import pandas as pd
    >>> g = read_gold(pd.DataFrame({"item": ["a", "a", "c"], "truth": ["yes", "yes", "no"]}))
    >>> g, g.codes.tolist()
    (Gold(2 items, classes=('no', 'yes'), source='DataFrame'), [1, 0])
    """
    if source is None:
        raise TypeError("source=None: give a gold file path or DataFrame")
    src_name = "DataFrame" if isinstance(source, pd.DataFrame) else str(source)
    table = read_table(source, text_columns=id_text_columns([item_col]))
    cols = table.columns
    icol = pick_column(cols, item_col, ITEM_NAMES, role="item", param="item_col", where=table.name)
    gcol = pick_column(
        cols, gold_col, GOLD_NAMES, role="gold label", param="gold_col", where=table.name
    )
    assert icol is not None and gcol is not None
    df = table.frame
    fix = "fix the label (gold labels are in the ratings' classes)"
    codes, cls_ = code_labels(df[gcol], classes, column=gcol, locate=table.locate, fix=fix)
    item_codes, item_index = ids_to_index(df[icol], column=icol, locate=table.locate)
    out = np.full(len(item_index), -1, dtype=np.int16)
    out[item_codes] = codes
    conflict = out[item_codes] != codes
    if conflict.any():
        i = int(np.flatnonzero(conflict)[0])
        raise InputError(
            f"{table.locate(i)}: item {show(df[icol].iloc[i])} has conflicting gold labels; give one gold "
            "label per item"
        )
    return Gold(item_index, cls_, out, source=src_name)
