"""The two small option objects of the loader: :class:`Counts` (how a counts table holds its labels)
and :class:`ReadOptions` (the rarer knobs of :func:`humanly.read_study`).

Both are frozen dataclasses: a misspelt field is a ``TypeError`` when the object is built, and every
field is checked there, in one sentence that names it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .._core.checks import check_choice
from ..errors import InputError, setting
from ._scale import SCALES

__all__ = ["Counts", "CountsSpec", "DuplicatePolicy", "ReadOptions"]

DuplicatePolicy = Literal["error", "keep", "first", "last"]

#: Which columns hold the class counts: ``"e,n,c"``, ``"CLASS=COL,..."``, a glob ``"credCount*_ret"``,
#: a prefix ``"n_"``, a list of columns, or a mapping class → column.
CountsSpec = str | Sequence[str] | Mapping[Any, str]

_DUPLICATES: tuple[DuplicatePolicy, ...] = ("error", "keep", "first", "last")


def _column_name(name: str, value: Any) -> None:
    """A column name: a non-empty string (``None`` is checked by the caller)."""
    if not isinstance(value, str):
        raise TypeError(f"{name}={value!r}: give a column name (a string)")
    if not value.strip():
        raise InputError(f"{setting(name, value)}: give a column name, not an empty string")


@dataclasses.dataclass(frozen=True)
class Counts:
    """The count columns of a ratings table with one row per item (the *counts* layout).

    Pass it as ``counts=`` to :func:`humanly.read_study` or :func:`humanly.data.read_ratings` (a plain
    ``columns`` value there means ``Counts(columns)``).

    Parameters
    ----------
    columns : str, sequence of str or mapping
        Which columns hold the counts: ``"e,n,c"`` (the class names are the column names),
        ``"CLASS=COL,..."``, a glob ``"credCount*_ret"`` (the classes are what ``*`` matched), a prefix
        ``"n_"``, a list of column names, or a mapping class → column.
    total : str or None
        A column with each item's number of labels. With it, the count columns may leave one class
        out: its count is the total minus the others.
    rest_class : str
        The name of that class (placed first among the classes); used only with ``total``.

    Raises
    ------
    TypeError
        For a field of the wrong type.
    InputError
        For an empty column or class name.

    Examples
    --------
    >>> import pandas as pd, humanly
    >>> table = pd.DataFrame({"rev_id": [7, 8], "n_attack": [1, 4], "n": [5, 5]})
    >>> counts = Counts("attack=n_attack", total="n", rest_class="none")
    >>> humanly.data.read_ratings(table, item_col="rev_id", counts=counts).counts.tolist()
    [[4, 1], [1, 4]]
    """

    columns: CountsSpec
    total: str | None = None
    rest_class: str = "other"

    def __post_init__(self) -> None:
        columns = self.columns
        if isinstance(columns, str):
            _column_name("counts", columns)
        elif isinstance(columns, Mapping):
            if not columns:
                raise InputError("counts={}: give at least one class → column")
        elif isinstance(columns, Sequence):
            if not columns:
                raise InputError("counts=[]: give at least one count column")
            for c in columns:
                _column_name("counts", c)
            object.__setattr__(self, "columns", tuple(columns))
        else:
            raise TypeError(
                f"counts={columns!r}: give the count columns as a string, a list of column names "
                "or a mapping class → column"
            )
        if self.total is not None:
            _column_name("total", self.total)
        _column_name("rest_class", self.rest_class)


@dataclasses.dataclass(frozen=True)
class ReadOptions:
    """The rarer knobs of :func:`humanly.read_study` (and :func:`humanly.data.read_ratings`).

    Parameters
    ----------
    duplicates : {"error", "keep", "first", "last"}
        What to do when a rater labelled the same item twice (long layout): an error naming the row,
        keep the first or the last label, or keep (count) every label.
    stream : bool
        Read a long-format Parquet file or folder in batches and keep only per-item class counts
        (memory grows with the items, not the labels; rater identity is dropped).
    score_col : str or None
        A column of real-valued scores (not probabilities) of the predictions table, or of the ratings
        table when no predictions are given.
    model_col : str or None
        The model name column of a predictions table holding several models (one row per item and
        model); default: a column named ``model``.
    positive : object
        The class whose probability a single probability column holds (two classes; default: the
        second class).
    scale : {"nominal", "ordinal", "interval", "ratio"} or None
        The labels' measurement scale (:meth:`humanly.data.Ratings.with_scale`); ``None``: nominal for
        a file or table, a :class:`~humanly.data.Ratings`' own scale.
    counts_col : str or None
        A ratings column holding each item's count dictionary (``{"e": 30, "n": 70}``, ChaosNLI's
        ``label_counter``); detected in JSON tables without rater and label columns.
    gold_item_col, predictions_item_col : str or None
        The item column of the gold and of the predictions table when it is named differently from
        the ratings' (default: ``item_col`` if the table has it, else found by name).
    prediction_cols : sequence of str or None
        Several models as columns of one predictions table, one hard-label (or, for two classes,
        positive-class probability) column per model, named by the column.
    strata : str or None
        A column of the predictions or judge table holding each item's stratum, known for every
        item (``Study.design``; :mod:`humanly.data.design`).
    sampling_weights : str or None
        A column of the predictions or judge table holding each item's sampling weight 1/π (≥ 1; π
        its probability of having been sent to human raters), for every item.

    Raises
    ------
    TypeError
        For a field of the wrong type.
    InputError
        For a ``duplicates`` policy or a ``scale`` that is not one of the four.

    Examples
    --------
    >>> import pandas as pd, humanly
    >>> frame = pd.DataFrame({"item": [1, 1, 2], "rater": ["a", "a", "a"], "label": [0, 1, 1]})
    >>> humanly.read_study(frame, options=ReadOptions(duplicates="last")).ratings.counts.tolist()
    [[0, 1], [0, 1]]
    """

    duplicates: DuplicatePolicy = "error"
    stream: bool = False
    score_col: str | None = None
    model_col: str | None = None
    positive: Any = None
    scale: str | None = None
    counts_col: str | None = None
    gold_item_col: str | None = None
    predictions_item_col: str | None = None
    prediction_cols: Sequence[str] | None = None
    strata: str | None = None
    sampling_weights: str | None = None

    def __post_init__(self) -> None:
        check_choice("duplicates", self.duplicates, _DUPLICATES)
        if self.scale is not None:
            check_choice("scale", self.scale, SCALES)
        if not isinstance(self.stream, bool):
            raise TypeError(f"stream={self.stream!r}: give True or False")
        for name in (
            "score_col",
            "model_col",
            "counts_col",
            "gold_item_col",
            "predictions_item_col",
            "strata",
            "sampling_weights",
        ):
            value = getattr(self, name)
            if value is not None:
                _column_name(name, value)
        cols = self.prediction_cols
        if cols is not None:
            if isinstance(cols, str):
                cols = [c.strip() for c in cols.split(",") if c.strip()]
            if len(cols) < 1:
                raise InputError("prediction_cols=(): name at least one prediction column")
            for c in cols:
                _column_name("prediction_cols", c)
            object.__setattr__(self, "prediction_cols", tuple(cols))


def as_counts(counts: Any) -> Counts | None:
    """``counts=`` as a :class:`Counts` (a plain spec is ``Counts(spec)``; ``None`` stays ``None``)."""
    if counts is None or isinstance(counts, Counts):
        return counts
    return Counts(counts)


def as_read_options(options: Any) -> ReadOptions:
    """``options=`` as a :class:`ReadOptions` (``None`` gives the defaults; ``TypeError`` otherwise)."""
    if options is None:
        return ReadOptions()
    if not isinstance(options, ReadOptions):
        raise TypeError(
            f"options={type(options).__name__}: give a humanly.data.ReadOptions (or leave it out)"
        )
    return options
