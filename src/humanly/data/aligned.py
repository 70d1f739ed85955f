"""Predictions, gold labels and judges matched to the ratings' items by id: the matching half of
:func:`humanly.data.join`.

Bare arrays are first keyed by the ratings' items in the order the caller holds them (:func:`by_id`,
the one rule of :mod:`humanly.data.positional`); from there on everything is matched by id, never by
position. A :class:`~humanly.data.Predictions` whose classes are the ratings' in another order is
recoded onto them (:func:`recoded`); outputs or gold labels in a class the ratings do not have are an
error.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ._coding import code_labels, show
from .matching import MissingPolicy, align_index, check_missing, mismatch, no_match
from .outputs import ModelOutput, model_output
from .positional import is_array, keyed
from .predictions import Gold, Predictions, align
from .ratings import Ratings
from .readers import read_gold, read_predictions

__all__ = ["as_gold", "by_id", "outputs_for", "read_outputs", "recoded"]

_PATH = (str, os.PathLike)


def what_of(name: str, model: str | None) -> str:
    """How messages name one model of an input: ``predictions['m']``."""
    return f"{name}[{model!r}]" if model is not None else name


def by_id(value: Any, items: pd.Index, classes: tuple[Any, ...], name: str) -> Any:
    """``value`` with every bare array (alone or as a value of a mapping) keyed by ``items``, the
    ratings' items in the order the caller holds them (:func:`~humanly.data.positional.keyed`)."""
    if is_array(value):
        return keyed(value, items, classes, what=name)
    if isinstance(value, Mapping):
        return {
            k: keyed(v, items, classes, what=what_of(name, str(k))) if is_array(v) else v
            for k, v in value.items()
        }
    return value


def read_outputs(value: Any, classes: tuple[Any, ...]) -> Any:
    """A predictions or judge file read with the ratings' classes; any other value as it is."""
    if isinstance(value, _PATH):
        return read_predictions(value, classes=classes)
    return value


def recoded(p: Predictions, classes: tuple[Any, ...], what: str) -> Predictions:
    """``p`` over the ratings' ``classes`` (classes matched by value or text): labels recoded,
    probability columns reordered."""
    text = [str(c) for c in classes]
    own = [str(c) for c in p.classes]
    if own == text:
        return (
            p
            if tuple(p.classes) == tuple(classes)
            else Predictions(p.items, classes, p.models, source=p.source)
        )
    unknown = [c for c in p.classes if str(c) not in text]
    if unknown:
        raise InputError(
            f"{p.source or what}: class {show(unknown[0])} is not among the ratings' classes "
            f"{tuple(classes)!r}; models must predict the raters' classes"
        )
    models = []
    for m in p.models:
        if m.kind == "proba":
            if len(own) != len(text):
                raise InputError(
                    f"{what_of(what, m.name)}: probabilities over the classes {tuple(p.classes)!r}, "
                    f"not the ratings' {tuple(classes)!r}; give one probability per class"
                )
            models.append(ModelOutput(m.name, "proba", m.values[:, [own.index(c) for c in text]]))
        elif m.kind == "label":
            table = np.array([text.index(c) for c in own], dtype=np.int64)
            models.append(ModelOutput(m.name, "label", table[np.asarray(m.values, np.int64)]))
        else:
            models.append(m)
    return Predictions(p.items, classes, models, source=p.source)


# ------------------------------------------------------------------------------- predictions
def _frame_probabilities(frame: pd.DataFrame, classes: tuple[Any, ...], what: str) -> np.ndarray:
    cols = [str(c) for c in frame.columns]
    want = [str(c) for c in classes]
    if sorted(cols) != sorted(want):
        raise InputError(
            f"{what}: probability columns {cols} are not the ratings' classes {list(classes)}; give "
            "one probability column per class"
        )
    return frame.iloc[:, [cols.index(c) for c in want]].to_numpy(dtype=float)


def positions(index: pd.Index, ratings: Ratings, what: str) -> np.ndarray:
    """Position in ``index`` of each rated item (-1: none); an id twice in ``index`` is an error."""
    if index.has_duplicates:
        dup = index[index.duplicated()][0]
        raise InputError(f"{what}: item {show(dup)} appears more than once; give one row per item")
    return align_index(ratings.items, index)


def _as_mapping(value: Any, default: str) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    if isinstance(value, pd.Series) and value.name is not None:
        return {str(value.name): value}
    return {default: value}


def _model_values(
    raw: Any, ratings: Ratings, missing: MissingPolicy, what: str
) -> tuple[np.ndarray, Any]:
    """(position in ``raw`` of each rated item or -1, values) of one model's outputs."""
    if isinstance(raw, (pd.Series, pd.DataFrame)):
        if raw.index.equals(ratings.items):  # the same items in the same order: nothing to match
            pos = np.arange(ratings.n_items)
        else:
            pos = positions(raw.index, ratings, what)
            problem = mismatch(ratings.items, pos, raw.index, what=what, noun="prediction")
            if problem and missing == "error":
                raise InputError(problem)
        if isinstance(raw, pd.DataFrame):
            return pos, _frame_probabilities(raw, ratings.classes, what)
        return pos, raw.to_numpy()
    if raw is None:
        raise TypeError(f"{what}=None: give labels, probabilities or a Series per model")
    raise TypeError(
        f"{what}={type(raw).__name__}: give a pandas Series or DataFrame indexed by item id, "
        "or a numpy array in the ratings' item order"
    )


def outputs_for(
    value: Any, ratings: Ratings, missing: MissingPolicy, name: str, default: str = "model"
) -> tuple[np.ndarray, Predictions | None]:
    """Per-model outputs (arrays already keyed by :func:`by_id`) matched to ``ratings`` by id; returns
    (rated items kept, outputs on those items in the ratings' order). ``default`` names a lone
    unnamed value."""
    if value is None:
        return np.ones(ratings.n_items, dtype=bool), None
    value = read_outputs(value, ratings.classes)
    if isinstance(value, Predictions):
        r, p = align(ratings, recoded(value, ratings.classes, name), missing=missing)
        return align_index(ratings.items, r.items) >= 0, p
    outputs: dict[str, tuple[np.ndarray, Any]] = {}  # model -> (positions into its values, values)
    keep = np.ones(ratings.n_items, dtype=bool)
    for model, raw in _as_mapping(value, default).items():
        what = what_of(name, str(model)) if isinstance(value, Mapping) else name
        pos, vals = _model_values(raw, ratings, missing, what)
        keep &= pos >= 0
        outputs[str(model)] = (pos, vals)
    if not keep.any():
        raise no_match(name, "prediction")
    rows = np.flatnonzero(keep)
    models: list[ModelOutput] = []
    for model, (pos, vals) in outputs.items():
        what = what_of(name, model) if isinstance(value, Mapping) else name
        same = len(rows) == len(pos) == len(vals) and bool((pos == np.arange(len(pos))).all())
        models.append(
            model_output(
                model,
                np.asarray(vals) if same else np.asarray(vals)[pos[rows]],
                ratings.classes,
                what=what,
                score_hint='build humanly.Predictions.from_arrays(..., kind="score")',
            )
        )
    items = ratings.items if len(rows) == ratings.n_items else ratings.items[rows]
    return keep, Predictions(items, ratings.classes, models, source=name)


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
                f"{gold.source or name}: gold classes {tuple(gold.classes)!r} differ from the "
                f"ratings' classes {tuple(classes)!r}: {c!r} is not among the ratings' classes; fix "
                "the gold labels"
            )
        table[j] = text.index(str(c))
    return table[np.asarray(gold.codes, dtype=np.int64)]


def _gold_codes(
    index: pd.Index, ratings: Ratings, missing: MissingPolicy, what: str
) -> tuple[np.ndarray, np.ndarray]:
    """(position in ``index`` of each rated item or -1, whether each rated item has one), after the
    check that ``index`` holds no item without ratings (``missing="error"``)."""
    pos = positions(index, ratings, what)
    problem = mismatch(ratings.items, pos, index, what=what, noun="gold label", subset_ok=True)
    if problem and missing == "error":
        raise InputError(problem)
    has = pos >= 0
    if missing == "drop" and len(index) and not has.any():
        raise no_match(what, "gold label")
    return pos, has


def _gold_from(value: Gold, ratings: Ratings, missing: MissingPolicy, name: str) -> Gold:
    codes = _recode(value, ratings.classes, name)
    labelled = codes >= 0
    index, codes = pd.Index(value.items)[labelled], codes[labelled]
    what = value.source or name
    pos, has = _gold_codes(index, ratings, missing, what)
    out = np.full(ratings.n_items, -1, dtype=np.int16)
    out[has] = codes[pos[has]]
    return Gold(ratings.items, ratings.classes, out, source=what)


def _gold_series(value: pd.Series, ratings: Ratings, missing: MissingPolicy, name: str) -> Gold:
    series = value[value.notna()]
    pos, has = _gold_codes(series.index, ratings, missing, name)
    out = np.full(ratings.n_items, -1, dtype=np.int16)
    if has.any():
        rows = np.flatnonzero(has)
        codes, _ = code_labels(
            series.iloc[pos[has]].reset_index(drop=True),
            ratings.classes,
            column=name,
            locate=lambda i: f"{name} item {show(ratings.items[rows[i]])}",
            fix="fix the label",
        )
        out[has] = codes
    return Gold(ratings.items, ratings.classes, out, source=name)


def as_gold(
    value: Any, ratings: Ratings, *, missing: MissingPolicy = "error", name: str = "gold"
) -> Gold:
    """Gold labels aligned to ``ratings``: one code per rated item, -1 where there is none.

    ``value`` is a :class:`Gold`, a file path, a Series indexed by item id (any subset of the rated
    items) or an array with one entry per item of ``ratings``, in their order (the rule of
    :mod:`humanly.data.positional`). Gold for items with no ratings is an error unless
    ``missing="drop"``.

    >>> r = Ratings.from_counts([[2, 1], [0, 3], [1, 1]], items=["a", "b", "c"], classes=["no", "yes"])
    >>> as_gold(pd.Series(["yes", "no"], index=["c", "a"]), r).codes.tolist()
    [0, -1, 1]
    """
    missing = check_missing(missing)
    if isinstance(value, _PATH):
        value = read_gold(value, classes=ratings.classes)
    if is_array(value):
        if np.ndim(value) != 1:
            raise InputError(
                f"{name}: an array of gold labels has one label per item, got shape "
                f"{np.shape(value)}; give a pandas Series indexed by item id"
            )
        value = keyed(value, ratings.items, ratings.classes, what=name)
    if isinstance(value, Gold):
        return _gold_from(value, ratings, missing, name)
    if isinstance(value, pd.DataFrame):
        raise TypeError(f"{name}=DataFrame: give a Series of gold labels indexed by item id")
    if isinstance(value, pd.Series):
        return _gold_series(value, ratings, missing, name)
    if value is None:
        raise TypeError(
            f"{name}=None: give gold labels (a Series indexed by item id) or leave it out"
        )
    raise TypeError(
        f"{name}={type(value).__name__}: give a humanly.Gold, a file path, a pandas Series indexed by "
        "item id, or an array in the ratings' item order"
    )
