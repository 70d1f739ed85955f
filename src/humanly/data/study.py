"""The one loader: :func:`read_study` reads ratings, predictions and gold labels in whatever form they
are held and joins them by item id (:func:`~humanly.data.inputs.join`) into a :class:`Study`.

It lives above both the readers and :mod:`humanly.data.inputs` because it uses both: the readers turn
files, frames and arrays into data objects, and ``join`` matches them by item id with its one rule.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from .inputs import Study, join
from .layouts import CountsSpec, DuplicatePolicy, index_as_items
from .matching import MissingPolicy, check_missing
from .ratings import Ratings
from .readers import read_gold, read_predictions, read_ratings
from .tables import read_columns

__all__ = ["read_study"]

_TABLE = (str, os.PathLike, pd.DataFrame)


def read_study(
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    missing: MissingPolicy = "error",
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    wide: bool = False,
    counts: CountsSpec | None = None,
    total_col: str | None = None,
    rest_class: str = "other",
    classes: Sequence[Any] | None = None,
    duplicates: DuplicatePolicy = "error",
    stream: bool = False,
    prediction_col: str | None = None,
    prob_col: str | None = None,
    score_col: str | None = None,
    model_col: str | None = None,
    positive: Any = None,
    gold_col: str | None = None,
) -> Study:
    """Read ratings, predictions and gold as they are held and join them by item id.

    ``ratings`` is a file path, a DataFrame, an items × raters array (``wide=True``) or a
    :class:`Ratings`; the layout options (``item_col`` … ``stream``) are those of
    :func:`~humanly.read_ratings`. ``predictions`` is a file path, or any in-memory form
    :func:`~humanly.join` accepts (a DataFrame is read as a predictions table when a column option
    names its columns); ``gold`` is a file path, a DataFrame (an item and a gold column), or any form
    :func:`~humanly.data.as_gold` accepts.

    * ``prediction_col`` / ``prob_col`` / ``score_col`` (and ``model_col``, ``positive``) name columns
      of the predictions file, or of the ratings file when ``predictions`` is ``None``;
    * ``gold_col`` names the gold column of the gold file, or of the ratings file when ``gold`` is
      ``None``; columns of the ratings file named this way are never read as rater columns (``wide``);
    * ``item_col`` is the item column of the ratings, and of a predictions or gold file that has a
      column of that name (otherwise their item column is found by name);
    * predictions and gold are read with the ratings' classes;
    * rated items without a prediction, and predictions or gold for items with no ratings, are an
      error naming the counts and the first id unless ``missing="drop"``, which keeps the items both
      have; gold may cover any subset of the rated items.

    Returns a :class:`Study` in the ratings' item order: ``predictions`` cover exactly the rated items,
    ``gold`` holds one code per rated item (-1: no gold label). (Long because this docstring states
    every option's rule; the work is in the helpers below.)

    >>> import pandas as pd
    >>> counts = pd.DataFrame({"rev_id": [7, 8, 9], "n_attack": [1, 4, 0], "n": [5, 5, 4],
    ...                        "prob": [0.2, 0.9, 0.1]})
    >>> s = read_study(counts, item_col="rev_id", counts="attack=n_attack", total_col="n",
    ...                rest_class="none", prob_col="prob")
    >>> s.ratings
    Ratings(3 items, anonymous counts, 14 labels, classes=('none', 'attack'), source='DataFrame')
    >>> s.predictions.proba("prob")[:, 1].tolist()
    [0.2, 0.9, 0.1]
    >>> model = pd.Series([1.0, 0.0], index=[9, 7])  # P(attack) by item id; none for item 8
    >>> gold = pd.Series(["attack"], index=[9])
    >>> s = read_study(counts, {"m": model}, gold, item_col="rev_id", counts="attack=n_attack",
    ...                total_col="n", rest_class="none", missing="drop")
    >>> list(s.ratings.items), s.predictions.hard("m").tolist(), s.gold.codes.tolist()
    ([7, 9], [0, 1], [-1, 1])
    """
    missing = check_missing(missing)
    if ratings is None:
        raise TypeError(
            "ratings=None: give the crowd's labels as a file path, a DataFrame, an items × raters "
            "array (wide=True) or a humanly.Ratings"
        )
    pred_cols = {"prediction_col": prediction_col, "prob_col": prob_col, "score_col": score_col}
    preds_here, gold_here = _columns_of_ratings(ratings, predictions, gold, pred_cols, gold_col)
    source = ratings
    if isinstance(ratings, pd.DataFrame) and (wide or counts is not None):
        source, item_col = index_as_items(ratings, item_col)  # items in the index
    ignore = [gold_col] if gold_here else []
    ignore += [c for c in pred_cols.values() if preds_here and c is not None]
    r = _ratings(
        source,
        item_col=item_col,
        rater_col=rater_col,
        label_col=label_col,
        wide=wide,
        counts=counts,
        total_col=total_col,
        rest_class=rest_class,
        classes=classes,
        duplicates=duplicates,
        stream=stream,
        ignore_cols=[c for c in ignore if c is not None],
    )
    column_options = {**pred_cols, "model_col": model_col, "positive": positive}
    p = _predictions(source if preds_here else predictions, r, item_col, column_options)
    g = _gold(source if gold_here else gold, r, item_col, gold_col)
    return join(r, p, g, missing=missing)


def _columns_of_ratings(
    ratings: Any, predictions: Any, gold: Any, pred_cols: dict[str, Any], gold_col: str | None
) -> tuple[bool, bool]:
    """Whether the predictions and the gold labels are columns of the ratings file."""
    named = [k for k, v in pred_cols.items() if v is not None]
    preds_here = predictions is None and bool(named)
    gold_here = gold is None and gold_col is not None
    if (preds_here or gold_here) and not isinstance(ratings, _TABLE):
        param = named[0] if preds_here else "gold_col"
        raise InputError(
            f"{param}= names a column of the ratings file, but ratings= is a "
            f"{type(ratings).__name__}; give the {'predictions' if preds_here else 'gold labels'} "
            f"with {'predictions=' if preds_here else 'gold='}"
        )
    return preds_here, gold_here


def _ratings(source: Any, **options: Any) -> Ratings:
    """The ratings: read from a path, frame or array, or a :class:`Ratings` as given."""
    if isinstance(source, Ratings):
        defaults = {
            "rater_col": None,
            "label_col": None,
            "wide": False,
            "counts": None,
            "total_col": None,
            "rest_class": "other",
            "classes": None,
            "duplicates": "error",
            "stream": False,
        }
        given = [k for k, v in defaults.items() if options[k] != v]
        if given:
            raise InputError(
                f"{', '.join(k + '=' for k in given)}: options for reading ratings, but ratings= is "
                "already a humanly.Ratings; drop them"
            )
        return source
    if isinstance(source, (np.ndarray, list, tuple)) and not options["wide"]:
        raise TypeError(
            f"ratings=array of shape {np.shape(source)}: say what the array holds — pass wide=True "
            "for an items × raters label matrix (NaN = missing), or use "
            "humanly.Ratings.from_counts(array) for items × classes counts"
        )
    return read_ratings(source, **options)


def _item_col(source: Any, item_col: str | None) -> str | None:
    """``item_col`` if the file or frame ``source`` has that column (else its item column is found by
    name); a file that cannot be read is left to the full reader's error."""
    if item_col is None:
        return None
    try:
        columns = read_columns(source)
    except (InputError, OSError, ValueError):
        return item_col
    return item_col if item_col in columns else None


def _predictions(
    value: Any, ratings: Ratings, item_col: str | None, options: dict[str, Any]
) -> Any:
    """Predictions read from a file or table, or the in-memory value for :func:`join`."""
    given = [k for k, v in options.items() if v is not None]
    if isinstance(value, (str, os.PathLike)) or (isinstance(value, pd.DataFrame) and given):
        icol = _item_col(value, item_col)
        if isinstance(value, pd.DataFrame):
            value, icol = index_as_items(value, icol)  # a table indexed by item id
        return read_predictions(value, classes=ratings.classes, item_col=icol, **options)
    if given and value is not None:
        raise InputError(
            f"{', '.join(k + '=' for k in given)}: name columns of a predictions file or table, but "
            f"predictions= is a {type(value).__name__}; drop them"
        )
    return value


def _gold(value: Any, ratings: Ratings, item_col: str | None, gold_col: str | None) -> Any:
    """Gold read from a file or table, or the in-memory value for :func:`join`."""
    if isinstance(value, _TABLE):
        icol = _item_col(value, item_col)
        if isinstance(value, pd.DataFrame):
            value, icol = index_as_items(value, icol)  # a table indexed by item id
        return read_gold(value, classes=ratings.classes, item_col=icol, gold_col=gold_col)
    if gold_col is not None and value is not None:
        raise InputError(
            f"gold_col= names a column of a gold file or table, but gold= is a "
            f"{type(value).__name__}; drop it"
        )
    return value
