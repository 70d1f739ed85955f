"""Data as users hold it, joined by item id in one place.

Every analysis calls :func:`join` on what it was given, so each accepts the same forms:

* ``ratings``: a :class:`Ratings`, a long DataFrame (crowd-kit ``task, worker, label``), or a file path
  (other layouts and arrays: :func:`humanly.data.read_ratings`, or :func:`humanly.read_study`);
* ``predictions``: a :class:`Predictions`; a file path; a ``dict`` mapping model name → a
  ``pandas.Series`` indexed by item id (labels, or the positive-class probability for two classes), a
  ``pandas.DataFrame`` indexed by item id with one column per class (probabilities), or a numpy array
  in the ratings' item order when that order is unambiguous (the rated items sorted by id, e.g. ratings
  from an array) — 1-D labels or positive-class probabilities, or items × classes probabilities when
  the classes are ``0..K-1``; or one such value alone (a model named ``"model"``, or the Series' name);
* ``gold``: a :class:`Gold`, a file path, a ``Series`` indexed by item id, or an array in the ratings'
  item order (every entry a class; use a Series for gold on a subset of items).

Series and frames are joined by item id, never by position; arrays must have one entry per rated item.
Items with ratings but no prediction, and predictions or gold for items without ratings, are an error
naming the counts and the first id unless ``missing="drop"``, which keeps the items both have (gold
may cover any subset of the rated items). :mod:`humanly.data.matching` holds that rule and its wording.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ._canonical import canonical_ratings, is_sorted
from ._coding import code_labels, show
from .matching import MissingPolicy, align_index, check_missing, mismatch, no_match
from .predictions import Gold, ModelOutput, Predictions, align, model_output
from .ratings import Ratings
from .readers import read_gold, read_predictions, read_ratings

__all__ = ["MissingPolicy", "Study", "as_gold", "as_ratings", "join"]

_PATH = (str, os.PathLike)


@dataclasses.dataclass(frozen=True)
class Study:
    """Ratings with the predictions and gold labels that go with them, aligned to the rated items.

    What :func:`humanly.read_study` and :func:`humanly.data.join` return, and what every analysis accepts
    as ``ratings`` (it carries the other two). Unpacks as ``ratings, predictions, gold = study``.
    A study holds its items and raters in the canonical order (sorted by id; each item's labels by
    rater), predictions and gold along: the same data give the same random streams, numbers and
    report bytes whatever the row order of the inputs.

    Parameters
    ----------
    ratings : Ratings
        The crowd's labels.
    predictions : Predictions or None
        The models' outputs for exactly the rated items, in the ratings' order.
    gold : Gold or None
        One gold code per rated item, -1 where an item has no gold label.
    judge : Predictions, Series, DataFrame or None
        A judge's labels or class probabilities on every item (one entry, by item id), for
        :func:`humanly.judge`: items with no human label (no labels in ``ratings``) are the
        unlabelled ones. Not unpacked with the other three.
    notes : tuple of str
        What the join did that a reader should know: with ``missing="drop"``, how many rows of each
        input it dropped.

    Examples
    --------
    >>> import pandas as pd
    >>> r = Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"], classes=[0, 1])
    >>> ratings, predictions, gold = join(r, gold=pd.Series([1], index=["b"]))
    >>> predictions is None, gold.codes.tolist()
    (True, [-1, 1])
    """

    ratings: Ratings
    predictions: Predictions | None = None
    gold: Gold | None = None
    judge: Any = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # the canonical order (items and raters sorted by id): the same data give the same random
        # streams, numbers and report bytes whatever the row order of every input
        r, order = canonical_ratings(self.ratings)
        if r is self.ratings:
            return
        object.__setattr__(self, "ratings", r)
        if order is None:
            return
        p, g = self.predictions, self.gold
        if p is not None and len(p.items) == len(order):
            object.__setattr__(self, "predictions", p.take(order))
        if g is not None and len(g.items) == len(order):
            object.__setattr__(self, "gold", Gold(r.items, g.classes, g.codes[order], g.source))

    def __iter__(self) -> Iterator[Any]:
        """``ratings, predictions, gold = join(...)``."""
        return iter((self.ratings, self.predictions, self.gold))


def as_ratings(value: Any, *, name: str = "ratings", canonical: bool = True) -> Ratings:
    """A :class:`Ratings` from a Ratings, a long DataFrame or a file path (``TypeError`` otherwise).

    >>> as_ratings(None)
    Traceback (most recent call last):
    TypeError: ratings=None: give the crowd's labels as a humanly.Ratings, a long DataFrame or a file path
    """
    if isinstance(value, (pd.DataFrame, *_PATH)):
        value = read_ratings(value)
    if isinstance(value, Ratings):
        return canonical_ratings(value)[0] if canonical else value
    if value is None:
        raise TypeError(
            f"{name}=None: give the crowd's labels as a humanly.Ratings, a long DataFrame or a file path"
        )
    if isinstance(value, (np.ndarray, list)):
        shape = np.shape(value)
        raise TypeError(
            f"{name}=array of shape {shape}: say what the array holds — "
            "humanly.data.read_ratings(array, wide=True) for an items × raters label matrix (NaN = missing), "
            "or humanly.Ratings.from_counts(array) for items × classes counts"
        )
    raise TypeError(
        f"{name}={type(value).__name__}: give a humanly.Ratings, a long DataFrame or a file path"
    )


# ------------------------------------------------------------------------------- predictions
def _what(name: str, model: str | None) -> str:
    return f"{name}[{model!r}]" if model is not None else name


def _frame_probabilities(frame: pd.DataFrame, classes: tuple[Any, ...], what: str) -> np.ndarray:
    cols = [str(c) for c in frame.columns]
    want = [str(c) for c in classes]
    if sorted(cols) != sorted(want):
        raise InputError(
            f"{what}: columns {cols} are not the classes {list(classes)}; give one probability "
            "column per class"
        )
    return frame.iloc[:, [cols.index(c) for c in want]].to_numpy(dtype=float)


def _positions(index: pd.Index, ratings: Ratings, what: str) -> np.ndarray:
    if index.has_duplicates:
        dup = index[index.duplicated()][0]
        raise InputError(f"{what}: item {show(dup)} appears more than once; give one row per item")
    return align_index(ratings.items, index)


def _as_mapping(value: Any) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    if isinstance(value, pd.Series) and value.name is not None:
        return {str(value.name): value}
    return {"model": value}


def _model_values(
    raw: Any, ratings: Ratings, missing: MissingPolicy, what: str
) -> tuple[np.ndarray, Any]:
    """(position in ``raw`` of each rated item or -1, values) of one model's outputs."""
    if isinstance(raw, (pd.Series, pd.DataFrame)):
        pos = _positions(raw.index, ratings, what)
        problem = mismatch(ratings.items, pos, raw.index, what=what, noun="prediction")
        if problem and missing == "error":
            raise InputError(problem)
        if isinstance(raw, pd.DataFrame):
            return pos, _frame_probabilities(raw, ratings.classes, what)
        return pos, raw.to_numpy()
    if isinstance(raw, (np.ndarray, list, tuple)):
        vals = np.asarray(raw)
        if vals.ndim == 0 or len(vals) != ratings.n_items:
            got = "a scalar" if vals.ndim == 0 else f"{len(vals)} entries"
            raise InputError(
                f"{what}: an array in the ratings' item order needs {ratings.n_items} entries "
                f"(one per rated item), got {got}; or give a pandas Series indexed by item id"
            )
        _check_positional(ratings, what)
        if vals.ndim == 2 and ratings.classes != tuple(range(ratings.n_classes)):
            raise InputError(
                f"{what}: an items × classes array does not say which column is which of the classes "
                f"{ratings.classes!r}; give a pandas DataFrame indexed by item id with one column per "
                "class (named by class)"
            )
        return np.arange(ratings.n_items), vals
    if raw is None:
        raise TypeError(f"{what}=None: give labels, probabilities or a Series per model")
    raise TypeError(
        f"{what}={type(raw).__name__}: give a pandas Series or DataFrame indexed by item id, "
        "or a numpy array in the ratings' item order"
    )


def _check_positional(ratings: Ratings, what: str) -> None:
    """An array without ids is matched by position only when the order is unambiguous: the rated
    items are in sorted order (e.g. ratings from an array, items ``0..n-1``)."""
    if not is_sorted(ratings.items):
        raise InputError(
            f"{what}: an array has no item ids and the rated items are not in sorted order (they are "
            f"in order of first appearance: {show(ratings.items[0])}, {show(ratings.items[1])}, …), "
            "so which entry is which item is ambiguous; give a pandas Series indexed by item id, "
            "e.g. pd.Series(values, index=item_ids)"
        )


def _predictions(
    value: Any, ratings: Ratings, missing: MissingPolicy, name: str
) -> tuple[np.ndarray, Predictions | None]:
    """Per-model outputs in the ratings' order; returns (items kept, predictions on those items)."""
    if value is None:
        return np.ones(ratings.n_items, dtype=bool), None
    if isinstance(value, _PATH):
        value = read_predictions(value, classes=ratings.classes)
    if isinstance(value, Predictions):
        r, p = align(ratings, value, missing=missing)
        return align_index(ratings.items, r.items) >= 0, p
    outputs: dict[str, tuple[np.ndarray, Any]] = {}  # model -> (positions into its values, values)
    keep = np.ones(ratings.n_items, dtype=bool)
    for model, raw in _as_mapping(value).items():
        what = _what(name, str(model)) if isinstance(value, Mapping) else name
        pos, vals = _model_values(raw, ratings, missing, what)
        keep &= pos >= 0
        outputs[str(model)] = (pos, vals)
    if not keep.any():
        raise no_match(name, "prediction")
    rows = np.flatnonzero(keep)
    models: list[ModelOutput] = []
    for model, (pos, vals) in outputs.items():
        what = _what(name, model) if isinstance(value, Mapping) else name
        models.append(
            model_output(
                model,
                np.asarray(vals)[pos[rows]],
                ratings.classes,
                what=what,
                score_hint='build humanly.Predictions.from_arrays(..., kind="score")',
            )
        )
    return keep, Predictions(ratings.items[rows], ratings.classes, models, source=name)


# ------------------------------------------------------------------------------- gold
def _recode(gold: Gold, classes: tuple[Any, ...], name: str) -> np.ndarray:
    """``gold``'s codes as codes into ``classes`` (classes matched by value, or by text)."""
    if tuple(map(str, gold.classes)) == tuple(map(str, classes)):
        return np.asarray(gold.codes)
    text = [str(c) for c in classes]
    table = np.full(len(gold.classes) + 1, -1, dtype=np.int64)  # last entry: code -1 stays -1
    for j, c in enumerate(gold.classes):
        if str(c) not in text:
            raise InputError(
                f"{gold.source or name}: gold class {c!r} is not one of the ratings' classes "
                f"{classes!r}; fix the gold labels or declare the class with classes="
            )
        table[j] = text.index(str(c))
    return table[np.asarray(gold.codes, dtype=np.int64)]


def _gold_from(value: Gold, ratings: Ratings, missing: MissingPolicy, name: str) -> Gold:
    codes = _recode(value, ratings.classes, name)
    labelled = codes >= 0
    index, codes = pd.Index(value.items)[labelled], codes[labelled]
    pos = _positions(index, ratings, name)
    what = value.source or name
    problem = mismatch(ratings.items, pos, index, what=what, noun="gold label", subset_ok=True)
    if problem and missing == "error":
        raise InputError(problem)
    has = pos >= 0
    if missing == "drop" and len(index) and not has.any():
        raise no_match(what, "gold label")
    out = np.full(ratings.n_items, -1, dtype=np.int16)
    out[has] = codes[pos[has]]
    return Gold(ratings.items, ratings.classes, out, source=what)


def _gold_series(value: pd.Series, ratings: Ratings, missing: MissingPolicy, name: str) -> Gold:
    series = value[value.notna()]
    pos = _positions(series.index, ratings, name)
    problem = mismatch(
        ratings.items, pos, series.index, what=name, noun="gold label", subset_ok=True
    )
    if problem and missing == "error":
        raise InputError(problem)
    has = pos >= 0
    if missing == "drop" and len(series) and not has.any():
        raise no_match(name, "gold label")
    out = np.full(ratings.n_items, -1, dtype=np.int16)
    if has.any():
        rows = np.flatnonzero(has)
        codes, _ = code_labels(
            series.iloc[pos[has]].reset_index(drop=True),
            ratings.classes,
            column=name,
            locate=lambda i: f"{name} item {show(ratings.items[rows[i]])}",
        )
        out[has] = codes
    return Gold(ratings.items, ratings.classes, out, source=name)


def as_gold(
    value: Any, ratings: Ratings, *, missing: MissingPolicy = "error", name: str = "gold"
) -> Gold:
    """Gold labels aligned to ``ratings``: one code per rated item, -1 where there is none.

    ``value`` is a :class:`Gold`, a file path, a Series indexed by item id (any subset of the rated
    items) or an array in the ratings' item order. Gold for items with no ratings is an error unless
    ``missing="drop"``.

    >>> r = Ratings.from_counts([[2, 1], [0, 3], [1, 1]], items=["a", "b", "c"], classes=["no", "yes"])
    >>> as_gold(pd.Series(["yes", "no"], index=["c", "a"]), r).codes.tolist()
    [0, -1, 1]
    """
    missing = check_missing(missing)
    if isinstance(value, _PATH):
        value = read_gold(value, classes=ratings.classes)
    if isinstance(value, Gold):
        return _gold_from(value, ratings, missing, name)
    if isinstance(value, pd.DataFrame):
        raise TypeError(f"{name}=DataFrame: give a Series of gold labels indexed by item id")
    if isinstance(value, pd.Series):
        return _gold_series(value, ratings, missing, name)
    if isinstance(value, (np.ndarray, list, tuple)):
        arr = np.asarray(value)
        if arr.ndim != 1 or len(arr) != ratings.n_items:
            raise InputError(
                f"{name}: an array in the ratings' item order needs {ratings.n_items} entries, got "
                f"shape {arr.shape}; or give a pandas Series indexed by item id (gold on a subset)"
            )
        _check_positional(ratings, name)
        codes, _ = code_labels(
            pd.Series(arr), ratings.classes, column=name, locate=lambda i: f"{name} item {i + 1}"
        )
        return Gold(ratings.items, ratings.classes, codes.astype(np.int16), source=name)
    if value is None:
        raise TypeError(
            f"{name}=None: give gold labels (a Series indexed by item id) or leave it out"
        )
    raise TypeError(
        f"{name}={type(value).__name__}: give a humanly.Gold, a file path, a pandas Series indexed by "
        "item id, or an array in the ratings' item order"
    )


# ------------------------------------------------------------------------------- join
def join(
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    missing: MissingPolicy = "error",
) -> Study:
    """Join ratings, predictions and gold held in memory by item id.

    Series and frames are matched by item id, never by position; arrays must have one entry per rated
    item, in the ratings' order.

    Parameters
    ----------
    ratings : Ratings, Study, DataFrame, str or path
        The crowd's labels: a :class:`Ratings`, a long DataFrame (crowd-kit's ``task, worker,
        label``) or a file (other layouts: :func:`humanly.read_study`); a :class:`Study` is
        returned as it is (it carries its predictions and gold).
    predictions : Predictions, dict, Series, DataFrame, numpy.ndarray, str, path or None
        A :class:`Predictions`; a file; a dict model name → a Series indexed by item id (labels, or the
        positive-class probability with two classes), a DataFrame indexed by item id with one
        probability column per class, or an array in the ratings' item order (only when the rated
        items are sorted by id; items × classes only for classes ``0..K-1``); or one such value
        alone (a model named ``"model"``, or the Series' name).
    gold : Gold, Series, numpy.ndarray, str, path or None
        A :class:`Gold`, a file, a Series indexed by item id (any subset of the rated items), or an
        array in the ratings' item order (only when the rated items are sorted by id).
    missing : {"error", "drop"}
        Rated items without a prediction, and predictions or gold for items with no ratings: an error
        naming the counts and the first id, or dropped (the items both have are kept).

    Returns
    -------
    Study
        The ratings in the canonical order (items and raters sorted by id), predictions covering
        exactly the rated items in that order, and gold holding one code per rated item (-1: no gold
        label).

    Raises
    ------
    InputError
        For ids that do not match (``missing="error"``), values that are not classes or
        probabilities, or an array of the wrong length.
    TypeError
        For a value of a form none of the above.

    Examples
    --------
    >>> import pandas as pd
    >>> r = Ratings.from_counts([[2, 1], [0, 3], [1, 2]], items=["a", "b", "c"], classes=[0, 1])
    >>> s = join(r, {"m": pd.Series([1, 0, 1], index=["c", "a", "b"])})
    >>> s.predictions.hard("m").tolist()  # joined by item id, in the ratings' order a, b, c
    [0, 1, 1]
    >>> s = join(r, {"m": pd.Series([1, 0], index=["c", "a"])}, pd.Series([1], index=["c"]),
    ...          missing="drop")
    >>> list(s.ratings.items), s.gold.codes.tolist()
    (['a', 'c'], [-1, 1])
    """
    missing = check_missing(missing)
    if isinstance(ratings, Study):
        if predictions is not None or gold is not None:
            raise InputError(
                "ratings= is a Study, which carries its predictions and gold; drop predictions= "
                "and gold="
            )
        return ratings
    r = as_ratings(ratings, canonical=False)  # arrays are matched in the order given; Study sorts
    n_rated = r.n_items
    keep, preds = _predictions(predictions, r, missing, "predictions")
    # gold is matched to every rated item: ``missing`` is about items with no ratings at all, not
    # about rated items dropped for want of a prediction
    g = None if gold is None else as_gold(gold, r, missing=missing)
    if not keep.all():
        r = r.take(np.flatnonzero(keep))
        if g is not None:
            g = Gold(r.items, r.classes, g.codes[keep], source=g.source)
    notes: tuple[str, ...] = ()
    if missing == "drop":
        notes = _dropped(n_rated, r.n_items, _given(predictions), preds, _given(gold), g)
    return Study(r, preds, g, notes=notes)


def _given(value: Any) -> int | None:
    """How many entries (items with an output or a gold label) an input held, if it says."""
    if isinstance(value, Predictions):
        return len(value.items)
    if isinstance(value, Gold):
        return int((np.asarray(value.codes) >= 0).sum())
    if isinstance(value, pd.Series):
        return int(value.notna().sum())
    if isinstance(value, (pd.DataFrame, np.ndarray, list, tuple)):
        return len(value)
    if isinstance(value, Mapping) and value:
        return max((n for n in map(_given, value.values()) if n is not None), default=None)
    return None


def _dropped(
    n_rated: int,
    n_kept: int,
    n_preds: int | None,
    preds: Predictions | None,
    n_gold: int | None,
    gold: Gold | None,
) -> tuple[str, ...]:
    """The note of ``missing="drop"``: how many entries of each input were dropped."""
    parts = []
    if n_kept < n_rated:
        parts.append(f"{n_rated - n_kept:,} of {n_rated:,} rated items (no prediction)")
    if preds is not None and n_preds is not None and len(preds.items) < n_preds:
        parts.append(
            f"{n_preds - len(preds.items):,} of {n_preds:,} predictions (items with no ratings)"
        )
    if gold is not None and n_gold is not None:
        kept = int((np.asarray(gold.codes) >= 0).sum())
        if kept < n_gold:
            parts.append(f"{n_gold - kept:,} of {n_gold:,} gold labels")
    return (f'missing="drop" dropped {"; ".join(parts)}',) if parts else ()
