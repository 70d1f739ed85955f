"""Ratings of models' outputs — a number (1–5, 1–10, a real score) that a person or a judge gives each
model's output on an item — joined by item id: :class:`RatingStudy`, :func:`join_ratings`,
:func:`read_rating_study`.

Human raters rate each model's output on some items (the *labelled* items); one or more judges rate
every model's output on every item. A table of ratings is read in either layout:

* **long**: one row per rating — an item column, a model column and a rating column (found by name:
  ``item``…, ``model``, ``rating``/``score``/``grade``; or named), and for human ratings perhaps a
  rater column: an item's rating of a model is the mean of its raters';
* **wide**: one row per item (the index, or an item column) and one numeric column per model.

A ``dict`` model → ``pandas.Series`` (by item id) is one judge's (or the humans') ratings; several
judges are a ``dict`` judge name → table. The study's items are those the judges rate (every judge
every model on every item); an item is labelled when humans rated every model's output on it. Items
are held sorted by id (the canonical order of every study), so the same data give the same numbers
whatever the row order.

>>> import pandas as pd
>>> human = pd.DataFrame({"item": [1, 1, 2, 2], "model": ["a", "b"] * 2, "rating": [4, 3, 5, 2]})
>>> judge = pd.DataFrame({"a": [4, 5, 3], "b": [3, 3, 4]}, index=[1, 2, 3])
>>> s = join_ratings(human, judge)
>>> s.models, s.n_labelled, s.human[:, 0].tolist()
(('a', 'b'), 2, [4.0, 5.0, nan])
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._core.result import Note
from ..errors import InputError, setting
from ._canonical import sort_positions
from ._coding import show
from .columns import ITEM_NAMES, MODEL_NAMES, normalise_name, pick_column
from .design import ItemDesign, design_columns, design_for
from .matching import MissingPolicy, align_index, check_missing
from .tables import read_table

__all__ = ["RATING_NAMES", "RatingStudy", "join_ratings", "read_rating_study"]

#: the names a rating column is found by
RATING_NAMES = ("rating", "score", "grade")
_TABLE = (str, os.PathLike, pd.DataFrame)


@dataclasses.dataclass(frozen=True, eq=False)
class RatingStudy:
    """Human and judges' ratings of each model's output, over the study's items in canonical order.

    Parameters
    ----------
    items : pandas.Index
        The items (sorted by id).
    models : tuple of str
        The models whose outputs are rated.
    human : numpy.ndarray
        items × models: the mean human rating of each model's output (NaN on unlabelled items).
    judges : tuple of str
        The judges.
    judge : numpy.ndarray
        judges × items × models: each judge's rating of each model's output.
    design : ItemDesign or None
        Each item's stratum and sampling probability, when given.
    scale : tuple of float or None
        The rating scale's ends (low, high), when declared.
    notes : tuple of Note
        What ``missing="drop"`` dropped (``dropped_unjudged_ratings``, worded by
        :mod:`humanly.verdicts.notes`).

    Examples
    --------
    >>> s = RatingStudy(pd.Index([1, 2]), ("m",), np.array([[3.0], [np.nan]]), ("llm",),
    ...                 np.array([[[3.0], [4.0]]]))
    >>> s.n_labelled, s.n_items
    (1, 2)
    """

    items: pd.Index
    models: tuple[str, ...]
    human: np.ndarray
    judges: tuple[str, ...]
    judge: np.ndarray
    design: ItemDesign | None = None
    scale: tuple[float, float] | None = None
    notes: tuple[Note, ...] = ()

    @property
    def labelled(self) -> np.ndarray:
        """Whether humans rated each item (every model's output on it).

        Examples
        --------
        >>> s = RatingStudy(pd.Index([1, 2]), ("m",), np.array([[3.0], [np.nan]]), ("llm",),
        ...                 np.array([[[3.0], [4.0]]]))
        >>> s.labelled.tolist()
        [True, False]
        """
        return ~np.isnan(self.human).any(axis=1)

    @property
    def n_items(self) -> int:
        """The number of items.

        Examples
        --------
        >>> s = RatingStudy(pd.Index([1, 2]), ("m",), np.array([[3.0], [np.nan]]), ("llm",),
        ...                 np.array([[[3.0], [4.0]]]))
        >>> s.n_items
        2
        """
        return len(self.items)

    @property
    def n_labelled(self) -> int:
        """The number of items with human ratings.

        Examples
        --------
        >>> s = RatingStudy(pd.Index([1, 2]), ("m",), np.array([[3.0], [np.nan]]), ("llm",),
        ...                 np.array([[[3.0], [4.0]]]))
        >>> s.n_labelled
        1
        """
        return int(self.labelled.sum())


def _numeric(values: pd.Series, what: str) -> np.ndarray:
    out = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(out) & values.notna().to_numpy()
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{what}: rating {show(values.iloc[k])} (row {k + 1}) is not a number; give numeric "
            "ratings (1–5, 1–10, or any real number)"
        )
    return out


def _frame(value: Any, what: str, rating_col: str | None, model_col: str | None) -> pd.DataFrame:
    """One source's ratings as an items × models frame (the mean over raters)."""
    if isinstance(value, Mapping):
        series = {str(k): v for k, v in value.items()}
        bad = [k for k, v in series.items() if not isinstance(v, pd.Series)]
        if bad:
            raise TypeError(
                f"{what}[{bad[0]!r}]: give each model's ratings as a pandas Series indexed by item id"
            )
        return pd.DataFrame(
            {k: pd.Series(_numeric(v, what), index=v.index) for k, v in series.items()}
        )
    if not isinstance(value, _TABLE):
        raise TypeError(
            f"{what}={type(value).__name__}: give a table of ratings (item, model, rating), a file, "
            "or a dict model → Series of ratings by item id"
        )
    if isinstance(value, pd.DataFrame) and not any(
        normalise_name(str(c)) in ITEM_NAMES for c in value.columns
    ):  # items in the index (a wide table indexed by item id)
        value = value.rename_axis("item").reset_index()
    table = read_table(
        value, text_columns=lambda cols: [c for c in cols if c.lower() in ITEM_NAMES]
    )
    cols = table.columns
    icol = pick_column(cols, None, ITEM_NAMES, role="item", param="item_col", where=table.name)
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
    frame = table.frame
    if mcol is None:  # wide: one column per model
        models = [c for c in cols if c != icol]
        wide = pd.DataFrame(
            {m: _numeric(frame[m], f"{table.name} column {m!r}") for m in models},
            index=pd.Index(frame[icol]),
        )
        values = wide.to_numpy()
        if wide.index.is_unique and not (np.signbit(values) & (values == 0)).any():
            return wide  # one row per item: each mean is its one rating (pandas decides −0's sign)
        return wide.groupby(level=0, sort=False).mean()
    rcol = pick_column(
        cols,
        rating_col,
        RATING_NAMES,
        role="rating",
        param="rating_col",
        where=table.name,
        exclude=(icol, mcol),
    )
    assert rcol is not None
    long = pd.DataFrame(
        {
            "item": frame[icol].to_numpy(),
            "model": frame[mcol].astype(str).to_numpy(),
            "rating": _numeric(frame[rcol], f"{table.name} column {rcol!r}"),
        }
    )
    long = long[~np.isnan(long["rating"].to_numpy())]
    # models in name order: the same models in the same order whatever the order of the rows
    wide = long.pivot_table(index="item", columns="model", values="rating", aggfunc="mean")
    wide.columns = [str(c) for c in wide.columns]
    return wide


def _judges(judge: Any, rating_col: str | None, model_col: str | None) -> dict[str, pd.DataFrame]:
    """judge name → items × models frame."""
    several = isinstance(judge, Mapping) and all(
        isinstance(v, (*_TABLE, Mapping)) for v in judge.values()
    )
    if several:
        return {str(k): _frame(v, f"judge[{k!r}]", rating_col, model_col) for k, v in judge.items()}
    name = "judge"
    if isinstance(judge, (str, os.PathLike)):
        name = os.path.splitext(os.path.basename(os.fspath(judge)))[0]
    return {name: _frame(judge, "judge", rating_col, model_col)}


def _on(frame: pd.DataFrame, items: pd.Index, models: list[str], what: str) -> np.ndarray:
    """``frame`` at ``items`` × ``models`` (NaN where absent)."""
    pos = align_index(items, frame.index)
    values = frame.reindex(columns=models).to_numpy(dtype=float)
    out = np.full((len(items), len(models)), np.nan)
    out[pos >= 0] = values[pos[pos >= 0]]
    return out


def join_ratings(
    human: Any,
    judge: Any,
    *,
    strata: Any = None,
    sampling_weights: Any = None,
    scale: tuple[float, float] | None = None,
    missing: MissingPolicy = "error",
    rating_col: str | None = None,
    model_col: str | None = None,
) -> RatingStudy:
    """Join human and judges' ratings of models' outputs by item id (see the module docstring).

    Parameters
    ----------
    human : DataFrame, str, path or dict
        The human ratings on the labelled items: long (item, model, rating, perhaps a rater) or wide
        (items × models), a file, or a dict model → Series by item id.
    judge : DataFrame, str, path or dict
        One judge's ratings of every model's output on every item (the same forms), or several: a
        dict judge name → table.
    strata : Series or None
        Each item's stratum, by item id (:mod:`humanly.data.design`).
    sampling_weights : Series or None
        Each item's sampling weight 1/π, by item id.
    scale : tuple of float or None
        The rating scale's ends (low, high), e.g. (1, 5); checked against every rating.
    missing : {"error", "drop"}
        Human ratings of items or models the judges do not rate, or judges whose items differ: an
        error, or keep what every input has.
    rating_col, model_col : str or None
        The rating and model columns of long tables (default: found by name).

    Returns
    -------
    RatingStudy

    Raises
    ------
    InputError
        Ratings that are not numbers, outside ``scale``, items or models that do not match, a
        labelled item with human ratings of some models only, no labelled or no unlabelled item.

    Examples
    --------
    >>> human = {"a": pd.Series([4, 5], index=["x", "y"]), "b": pd.Series([3, 2], index=["x", "y"])}
    >>> judge = pd.DataFrame({"a": [4, 5, 3], "b": [3, 3, 4]}, index=["x", "y", "z"])
    >>> join_ratings(human, judge).judge.shape  # judges × items × models
    (1, 3, 2)
    """
    missing = check_missing(missing)
    judges = _judges(judge, rating_col, model_col)
    names = list(judges)
    first = judges[names[0]]
    models = [str(m) for m in first.columns]
    items = first.index
    for name in names[1:]:
        other = judges[name]
        if set(other.columns) != set(models):
            raise InputError(
                f"judge[{name!r}]: rates the models {sorted(other.columns)}, the first judge "
                f"{sorted(models)}; every judge rates the same models"
            )
        if not other.index.equals(items):
            keep = align_index(items, other.index) >= 0
            if not keep.all() or len(other.index) != len(items):
                if missing == "error":
                    raise InputError(
                        f"judge[{name!r}]: rates other items than judge[{names[0]!r}]; give every "
                        f"judge the same items, or pass {setting('missing', 'drop')}"
                    )
                items = items[keep]
    order = sort_positions(items)
    if order is not None:
        items = items[order]
    values = np.stack([_on(judges[n], items, models, f"judge[{n!r}]") for n in names])
    absent = np.isnan(values)
    if absent.any():
        j, i, m = (int(x[0]) for x in np.nonzero(absent))
        raise InputError(
            f"judge{'' if len(names) == 1 else f'[{names[j]!r}]'}: no rating of model "
            f"{models[m]!r} on item {show(items[i])}; a judge rates every model's output on every item"
        )
    human_frame = _frame(human, "human ratings", rating_col, model_col)
    notes = _checked_human(human_frame, items, models, missing)
    human_values = _on(human_frame, items, models, "human ratings")
    partly = np.isnan(human_values).any(axis=1) & ~np.isnan(human_values).all(axis=1)
    if partly.any():
        if missing == "error":
            k = int(np.flatnonzero(partly)[0])
            raise InputError(
                f"human ratings: item {show(items[k])} has human ratings of some models only; rate "
                f"every model's output on a labelled item, or pass {setting('missing', 'drop')} (it is "
                "then unlabelled)"
            )
        human_values[partly] = np.nan
    _checked_scale(scale, values, human_values)
    design = design_for(items, strata, sampling_weights, missing=missing)
    study = RatingStudy(
        items,
        tuple(models),
        human_values,
        tuple(names),
        values,
        design,
        None if scale is None else (float(scale[0]), float(scale[1])),
        notes,
    )
    _checked_sizes(study)
    return study


def _checked_human(
    frame: pd.DataFrame, items: pd.Index, models: list[str], missing: MissingPolicy
) -> tuple[Note, ...]:
    extra = [m for m in frame.columns if m not in models]
    if extra and missing == "error":
        raise InputError(
            f"human ratings: model {extra[0]!r} is not rated by the judge (judged models: "
            f"{models}); give the judge's ratings of it, or pass {setting('missing', 'drop')}"
        )
    pos = align_index(frame.index, items)
    outside = pos < 0
    if outside.any() and missing == "error":
        raise InputError(
            f"human ratings: {int(outside.sum()):,} rated item(s) have no judge rating (first: "
            f"{show(frame.index[outside][0])}); give the judge's ratings of every item, or pass "
            f"{setting('missing', 'drop')}"
        )
    if outside.any() or extra:
        values = {"items": int(outside.sum()), "models": len(extra)}
        return (Note("dropped_unjudged_ratings", values),)
    return ()


def _checked_scale(scale: Any, judged: np.ndarray, human: np.ndarray) -> None:
    if scale is None:
        return
    low, high = (float(x) for x in scale)
    if not low < high:
        raise InputError(f"{setting('scale', tuple(scale))}: give (low, high) with low < high")
    for what, values in (("judge", judged), ("human ratings", human)):
        bad = (values < low) | (values > high)
        if bad.any():
            raise InputError(
                f"{what}: rating {values[bad][0]:g} is outside {setting('scale', (low, high))}; fix the "
                "rating or the scale"
            )


def _checked_sizes(study: RatingStudy) -> None:
    n = study.n_labelled
    if n < 2:
        raise InputError(
            f"human ratings: {n} item(s) with human ratings of every model among the "
            f"{study.n_items:,} items the judge rates; give at least 2"
        )
    if n == study.n_items:
        raise InputError(
            "judge: every item has human ratings, so there is nothing for the judge to add; give the "
            "judge's ratings of the unrated items too"
        )


def read_rating_study(
    human: Any,
    judge: Any,
    *,
    rating_col: str | None = None,
    model_col: str | None = None,
    item_col: str | None = None,
    strata: str | None = None,
    sampling_weights: str | None = None,
    scale: tuple[float, float] | None = None,
    missing: MissingPolicy = "error",
) -> RatingStudy:
    """Read human and judges' ratings of models' outputs from files or tables and join them by item
    id (:func:`join_ratings`); ``strata`` and ``sampling_weights`` name columns of the judge tables.

    Parameters
    ----------
    human : str, path or DataFrame
        The human ratings (long or wide).
    judge : str, path, DataFrame or dict
        One judge's ratings, or a dict judge name → file or table.
    rating_col, model_col : str or None
        The rating and model columns (default: found by name).
    item_col : str or None
        The item column of the judge tables, for ``strata`` and ``sampling_weights``.
    strata, sampling_weights : str or None
        Columns of the judge tables holding each item's stratum and sampling weight 1/π.
    scale : tuple of float or None
        The rating scale's ends.
    missing : {"error", "drop"}
        As :func:`join_ratings`.

    Returns
    -------
    RatingStudy

    Raises
    ------
    InputError
        As :func:`join_ratings`, and a ``strata`` or ``sampling_weights`` column no judge table has.

    Examples
    --------
    >>> judge = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "model": ["a", "b"] * 3,
    ...                       "rating": [4, 3, 5, 3, 3, 4], "topic": ["x", "x", "y", "y", "x", "x"]})
    >>> human = judge[judge["item"] < 3].drop(columns="topic")
    >>> read_rating_study(human, judge, strata="topic").design.strata.tolist()
    ['x', 'y', 'x']
    """
    tables = list(judge.values()) if isinstance(judge, Mapping) else [judge]
    s_values, w_values = (
        design_columns(tables, item_col, column, setting(name, column))
        for name, column in (("strata", strata), ("sampling_weights", sampling_weights))
    )
    study = join_ratings(
        human, judge, scale=scale, missing=missing, rating_col=rating_col, model_col=model_col
    )
    design = design_for(
        study.items,
        s_values,
        w_values,
        missing=missing,
        strata_source=setting("strata", strata),
        weights_source=setting("sampling_weights", sampling_weights),
    )
    return dataclasses.replace(study, design=design)
