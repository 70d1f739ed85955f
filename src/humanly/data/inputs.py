"""Data as users hold it, joined by item id in one place.

Every analysis calls :func:`join` on what it was given, so each accepts the same forms:

* ``ratings``: a :class:`Ratings`, a long DataFrame (crowd-kit ``task, worker, label``), or a file path;
* ``predictions``: a :class:`Predictions`; a ``dict`` mapping model name → a ``pandas.Series`` indexed by
  item id (labels, or the positive-class probability for two classes), a ``pandas.DataFrame`` indexed by
  item id with one column per class (probabilities), or a numpy array in the ratings' item order (1-D
  labels or positive-class probabilities, or items × classes probabilities); or one such value alone
  (a model named ``"model"``, or the Series' name);
* ``gold``: a :class:`Gold`, a ``Series`` indexed by item id, or an array in the ratings' item order
  (``None``/NaN/-1-free: every entry a class; use a Series for gold on a subset of items).

Series and frames are joined by item id, never by position; arrays must have one entry per rated item.
Items with ratings but no prediction, and predictions or gold for items without ratings, are an error
naming the counts unless ``missing="drop"``, which keeps the items both have (gold may cover any subset
of the rated items).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import pandas as pd

from ._coding import code_labels, show
from .errors import InputError
from .predictions import Gold, ModelOutput, Predictions, align_index
from .ratings import Ratings

__all__ = ["MissingPolicy", "Study", "as_gold", "as_ratings", "join"]

MissingPolicy = Literal["error", "drop"]


@dataclasses.dataclass(frozen=True)
class Study:
    """Ratings with the predictions and gold labels that go with them, aligned to the same items in the
    ratings' order (``predictions.items`` equals ``ratings.items``; ``gold`` holds one code per rated
    item, -1 where an item has no gold label)."""

    ratings: Ratings
    predictions: Predictions | None = None
    gold: Gold | None = None

    def __iter__(self):  # type: ignore[no-untyped-def]
        """``ratings, predictions, gold = join(...)``."""
        return iter((self.ratings, self.predictions, self.gold))


def as_ratings(value: Any, *, name: str = "ratings") -> Ratings:
    """A :class:`Ratings` from a Ratings, a long DataFrame or a file path (``TypeError`` otherwise)."""
    if isinstance(value, Ratings):
        return value
    if isinstance(value, (pd.DataFrame, str, os.PathLike)):
        from .io import read_ratings

        return read_ratings(value)
    if value is None:
        raise TypeError(
            f"{name}=None: give the crowd's labels as a humanly.Ratings "
            "(humanly.read_ratings(path_or_frame))"
        )
    if isinstance(value, (np.ndarray, list)):
        shape = np.shape(value)
        raise TypeError(
            f"{name}=array of shape {shape}: say what the array holds — "
            "humanly.read_ratings(array, wide=True) for an items × raters label matrix (NaN = missing), "
            "or humanly.Ratings.from_counts(array) for items × classes counts"
        )
    raise TypeError(
        f"{name}={type(value).__name__}: give a humanly.Ratings, a long DataFrame or a file path"
    )


# ------------------------------------------------------------------------------- predictions
def _what(name: str, model: str | None) -> str:
    return f"{name}[{model!r}]" if model is not None else name


def _kind_of(values: np.ndarray, classes: tuple[Any, ...]) -> str:
    """``label`` when every value is a class, ``proba`` for numbers in [0, 1] with two classes."""
    text = {str(c) for c in classes}
    flat = values.ravel()
    if all((v in classes) or (str(v) in text) for v in pd.unique(flat)):
        return "label"
    if values.dtype.kind in "fiu" and len(classes) == 2:
        return "proba"
    return "unknown"


def _model_output(
    model: str, values: Any, classes: tuple[Any, ...], what: str
) -> tuple[str, np.ndarray]:
    """Kind and values of one model's outputs, already in the target item order."""
    arr = np.asarray(values)
    if arr.ndim == 2:
        if arr.shape[1] != len(classes):
            raise InputError(
                f"{what}: {arr.shape[1]} probability columns for {len(classes)} classes "
                f"{classes!r}; give one column per class"
            )
        p = arr.astype(float)
        _check_probabilities(p, what)
        return "proba", p
    if arr.ndim != 1:
        raise InputError(f"{what}: expected a 1-D or items × classes array, got shape {arr.shape}")
    kind = _kind_of(arr, classes)
    if kind == "label":
        codes, _ = code_labels(
            pd.Series(arr), classes, column=what, locate=lambda i: f"{what} item {i + 1}"
        )
        return "label", codes
    if kind == "proba":
        p1 = arr.astype(float)
        bad = ~np.isfinite(p1) | (p1 < 0) | (p1 > 1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{what} item {i + 1}: {show(arr[i])} is neither a class {classes!r} nor a "
                "probability in [0, 1]"
            )
        return "proba", np.column_stack([1.0 - p1, p1])
    first = next(v for v in arr if v not in classes and str(v) not in {str(c) for c in classes})
    hint = (
        "; for real-valued scores build humanly.Predictions.from_arrays(..., kind='score')"
        if arr.dtype.kind in "fiu"
        else ""
    )
    raise InputError(
        f"{what}: value {show(first)} is not one of the ratings' classes {classes!r}{hint}"
    )


def _check_probabilities(p: np.ndarray, what: str) -> None:
    from .io import check_probabilities

    check_probabilities(p, lambda i: f"{what} item {i + 1}")


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


def _mismatch(
    what: str, ratings: Ratings, pos: np.ndarray, index: pd.Index, *, subset_ok: bool
) -> str | None:
    """The one wording for items that do not match (``None`` when all do)."""
    has = pos >= 0
    used = np.zeros(len(index), dtype=bool)
    used[pos[has]] = True
    parts = []
    if not subset_ok and not has.all():
        first = ratings.items[~has][0]
        parts.append(f"{int((~has).sum())} rated item(s) have no entry (first: {show(first)})")
    if not used.all():
        first = index[~used][0]
        parts.append(
            f"{int((~used).sum())} entr{'y is' if (~used).sum() == 1 else 'ies are'} for items with "
            f"no ratings (first: {show(first)})"
        )
    if not parts:
        return None
    return f"{what}: " + "; ".join(parts)


def _fix(missing: str) -> str:
    return (
        '; fix the item ids or pass missing="drop" to keep only the items both share'
        if missing == "error"
        else ""
    )


def _as_mapping(value: Any) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    if isinstance(value, pd.Series) and value.name is not None:
        return {str(value.name): value}
    return {"model": value}


def _predictions(
    value: Any, ratings: Ratings, missing: str, name: str
) -> tuple[np.ndarray, Predictions | None]:
    """Per-model outputs in the ratings' order; returns (items kept, predictions on those items)."""
    if value is None:
        return np.ones(ratings.n_items, dtype=bool), None
    if isinstance(value, Predictions):
        r, p = _align_predictions(ratings, value, missing)
        keep = align_index(ratings.items, r.items) >= 0
        return keep, p
    outputs: dict[str, tuple[np.ndarray, Any]] = {}  # model -> (positions into its values, values)
    keep = np.ones(ratings.n_items, dtype=bool)
    for model, raw in _as_mapping(value).items():
        what = _what(name, str(model)) if isinstance(value, Mapping) else name
        if isinstance(raw, (pd.Series, pd.DataFrame)):
            pos = _positions(raw.index, ratings, what)
            problem = _mismatch(what, ratings, pos, raw.index, subset_ok=False)
            if problem and missing == "error":
                raise InputError(problem + _fix(missing))
            vals = (
                _frame_probabilities(raw, ratings.classes, what)
                if isinstance(raw, pd.DataFrame)
                else raw.to_numpy()
            )
        elif isinstance(raw, (np.ndarray, list, tuple)):
            vals = np.asarray(raw)
            if vals.ndim == 0 or len(vals) != ratings.n_items:
                got = "a scalar" if vals.ndim == 0 else f"{len(vals)} entries"
                raise InputError(
                    f"{what}: an array in the ratings' item order needs {ratings.n_items} entries "
                    f"(one per rated item), got {got}; or give a pandas Series indexed by item id"
                )
            pos = np.arange(ratings.n_items)
        elif raw is None:
            raise TypeError(f"{what}=None: give labels, probabilities or a Series per model")
        else:
            raise TypeError(
                f"{what}={type(raw).__name__}: give a pandas Series or DataFrame indexed by item id, "
                "or a numpy array in the ratings' item order"
            )
        keep &= pos >= 0
        outputs[str(model)] = (pos, vals)
    if missing not in ("error", "drop"):
        raise InputError(f'missing={missing!r}: use "error" or "drop"')
    if not keep.any():
        raise InputError(f"{name}: no prediction matches any rated item id; check the item ids")
    rows = np.flatnonzero(keep)
    models = []
    for model, (pos, vals) in outputs.items():
        what = _what(name, model) if isinstance(value, Mapping) else name
        kind, v = _model_output(model, np.asarray(vals)[pos[rows]], ratings.classes, what)
        models.append(ModelOutput(model, kind, v))  # type: ignore[arg-type]
    return keep, Predictions(ratings.items[rows], ratings.classes, models, source=name)


def _align_predictions(
    ratings: Ratings, predictions: Predictions, missing: str
) -> tuple[Ratings, Predictions]:
    from .predictions import align

    return align(ratings, predictions, missing=missing)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- gold
def as_gold(value: Any, ratings: Ratings, *, missing: str = "error", name: str = "gold") -> Gold:
    """Gold labels aligned to ``ratings``: one code per rated item, -1 where there is none."""
    if isinstance(value, Gold):
        codes = value.for_items(ratings.items, missing="drop")
        if missing == "error":
            pos = align_index(ratings.items, value.items)
            problem = _mismatch(name, ratings, pos, value.items, subset_ok=True)
            if problem:
                raise InputError(problem + _fix(missing))
        return Gold(ratings.items, ratings.classes, codes, source=value.source or name)
    if isinstance(value, pd.DataFrame):
        raise TypeError(f"{name}=DataFrame: give a Series of gold labels indexed by item id")
    if isinstance(value, pd.Series):
        series = value[value.notna()]
        pos = _positions(series.index, ratings, name)
        problem = _mismatch(name, ratings, pos, series.index, subset_ok=True)
        if problem and missing == "error":
            raise InputError(problem + _fix(missing))
        has = pos >= 0
        out = np.full(ratings.n_items, -1, dtype=np.int16)
        if has.any():
            codes, _ = code_labels(
                series.iloc[pos[has]].reset_index(drop=True),
                ratings.classes,
                column=name,
                locate=lambda i: f"{name} item {show(ratings.items[np.flatnonzero(has)[i]])}",
            )
            out[has] = codes
        return Gold(ratings.items, ratings.classes, out, source=name)
    if isinstance(value, (np.ndarray, list, tuple)):
        arr = np.asarray(value)
        if arr.ndim != 1 or len(arr) != ratings.n_items:
            raise InputError(
                f"{name}: an array in the ratings' item order needs {ratings.n_items} entries, got "
                f"shape {arr.shape}; or give a pandas Series indexed by item id (gold on a subset)"
            )
        codes, _ = code_labels(
            pd.Series(arr), ratings.classes, column=name, locate=lambda i: f"{name} item {i + 1}"
        )
        return Gold(ratings.items, ratings.classes, codes.astype(np.int16), source=name)
    raise TypeError(
        f"{name}={type(value).__name__}: give a humanly.Gold, a pandas Series indexed by item id, "
        "or an array in the ratings' item order"
    )


# ------------------------------------------------------------------------------- join
def join(
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    missing: MissingPolicy = "error",
) -> Study:
    """Ratings, predictions and gold in any accepted form (see the module docstring), joined by item id.

    Returns a :class:`Study` whose predictions cover exactly its ratings' items, in the ratings' order,
    and whose gold holds one code per rated item (-1: no gold label).

    >>> import pandas as pd
    >>> r = Ratings.from_counts([[2, 1], [0, 3], [1, 2]], items=["a", "b", "c"], classes=[0, 1])
    >>> s = join(r, {"m": pd.Series([1, 0, 1], index=["c", "a", "b"])})
    >>> s.predictions.hard("m").tolist()  # joined by item id, in the ratings' order a, b, c
    [0, 1, 1]
    """
    if missing not in ("error", "drop"):
        raise InputError(f'missing={missing!r}: use "error" or "drop"')
    r = as_ratings(ratings)
    keep, preds = _predictions(predictions, r, missing, "predictions")
    if not keep.all():
        r = r.take(np.flatnonzero(keep))
    g = None if gold is None else as_gold(gold, r, missing=missing)
    if (
        g is not None
        and missing == "drop"
        and isinstance(gold, (pd.Series, Gold))
        and not (g.codes >= 0).any()
    ):
        raise InputError("gold: no gold label matches a rated item; check the item ids")
    return Study(r, preds, g)
