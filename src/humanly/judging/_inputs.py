"""The judge analysis's inputs joined by item id: human labels on some items, the models' predictions
and the judge's labels or class probabilities on all items.

The items are those the predictions (and the judge) cover; an item with no human label is
*unlabelled*. Ratings may hold items with no label (counts of zero, an empty wide row): they are
unlabelled too, which is how a :class:`~humanly.data.Study` carries the unlabelled items. Everything is
matched by id, never by position (an array is read in the order of the first input that has ids), and
put in one canonical order (sorted ids), so the numbers do not depend on the input row order.

Ids that do not match are an error naming the input, the count and the first id, unless
``missing="drop"``, which keeps the items every input has (human labels for other items are left out).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..data import Gold, InputError, Predictions, Ratings, Study, as_ratings
from ..data.matching import align_index
from ..data.predictions import ModelOutput, model_output
from ..data.readers import read_predictions

__all__ = ["JudgeInputs", "canonical_order", "prepare"]

_PATH = (str, os.PathLike)


@dataclasses.dataclass(frozen=True)
class JudgeInputs:
    """Everything the estimators need, in canonical item order.

    ``counts`` holds the human labels of the labelled items (rows ``labelled``), ``model_codes`` each
    model's class per item, ``judge_codes`` the judge's class per item and ``judge_proba`` its class
    probabilities (``None`` for a judge that gives labels). ``gold`` is -1 where an item has no gold
    label; ``probabilities`` is each item's chance of having been sent to raters (active design; 1 for
    labelled items outside the pool) and ``None`` for a uniformly drawn labelled set.
    """

    items: pd.Index
    classes: tuple[Any, ...]
    labelled: np.ndarray
    counts: np.ndarray
    models: tuple[str, ...]
    model_codes: np.ndarray
    judge_name: str
    judge_kind: str
    judge_codes: np.ndarray
    judge_proba: np.ndarray | None
    gold: np.ndarray | None
    probabilities: np.ndarray | None

    @property
    def unlabelled(self) -> np.ndarray:
        """Positions of the items with no human label."""
        mask = np.ones(len(self.items), dtype=bool)
        mask[self.labelled] = False
        return np.flatnonzero(mask)

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """f on the items at ``rows`` (rows × models): the judge's probability of the class each model
        predicted (1/0 for a judge that gives labels: whether it gave the model's class)."""
        codes = self.model_codes[rows]
        if self.judge_proba is None:
            return (self.judge_codes[rows, None] == codes).astype(float)
        return np.take_along_axis(self.judge_proba[rows], codes.astype(np.intp), axis=1)


def canonical_order(items: pd.Index) -> np.ndarray:
    """The positions that sort ``items`` (as text when the ids do not compare)."""
    try:
        return np.asarray(items.argsort(kind="stable"))
    except TypeError:
        return np.asarray(pd.Index([str(x) for x in items]).argsort(kind="stable"))


# --------------------------------------------------------------------------------- one output
@dataclasses.dataclass(frozen=True)
class _Entry:
    what: str
    noun: str
    index: pd.Index | None
    output: ModelOutput


def _text(values: Any) -> list[str]:
    return [str(v) for v in values]


def _check_label_classes(values: np.ndarray, classes: tuple[Any, ...], what: str) -> None:
    """Labels that are not among the raters' classes (and are not two-class probabilities)."""
    known = set(classes) | set(_text(classes))
    unique = pd.unique(pd.Series(values))
    if values.dtype.kind in "fiu" and len(classes) == 2:
        if all(0.0 <= float(v) <= 1.0 for v in unique):
            return  # labels, or the probability of the second class
    unknown = [v for v in unique if v not in known and str(v) not in known]
    if unknown:
        raise InputError(
            f"{what}: class {unknown[0]!r} is not one of the raters' classes {classes!r}; give "
            "labels in the raters' classes (or one probability column per class)"
        )


def _frame(frame: pd.DataFrame, classes: tuple[Any, ...], what: str) -> np.ndarray:
    cols, want = _text(frame.columns), _text(classes)
    if sorted(cols) != sorted(want):
        raise InputError(
            f"{what}: probability columns {cols} differ from the raters' classes {list(classes)}; "
            "give one probability column per class of the ratings"
        )
    return frame.iloc[:, [cols.index(c) for c in want]].to_numpy(dtype=float)


def _recoded(out: ModelOutput, own: tuple[Any, ...], classes: tuple[Any, ...], what: str):
    """A :class:`ModelOutput` over ``own`` classes as one over the raters' ``classes``."""
    text = _text(classes)
    unknown = [c for c in own if str(c) not in text]
    if out.kind == "score":
        raise InputError(
            f"{what}: scores are neither classes nor probabilities; give labels or "
            "class probabilities"
        )
    if out.kind == "proba":
        if unknown or len(own) != len(classes):
            raise InputError(
                f"{what}: classes {own!r} differ from the raters' classes {classes!r}; give one "
                "probability per class of the ratings"
            )
        order = [_text(own).index(c) for c in text]
        return ModelOutput(out.name, "proba", out.values[:, order])
    if unknown:
        raise InputError(
            f"{what}: class {unknown[0]!r} is not one of the raters' classes {classes!r}; give "
            "labels in the raters' classes"
        )
    table = np.array([text.index(str(c)) for c in own], dtype=np.int64)
    return ModelOutput(out.name, "label", table[np.asarray(out.values, dtype=np.int64)])


def _entry(raw: Any, name: str, what: str, noun: str, classes: tuple[Any, ...]) -> _Entry:
    if isinstance(raw, pd.Series):
        raw = raw[raw.notna()]
        _check_index(raw.index, what)
        _check_label_classes(raw.to_numpy(), classes, what)
        return _Entry(what, noun, raw.index, model_output(name, raw.to_numpy(), classes, what=what))
    if isinstance(raw, pd.DataFrame):
        raw = raw[raw.notna().all(axis=1)]
        _check_index(raw.index, what)
        values = _frame(raw, classes, what)
        return _Entry(
            what, noun, raw.index, model_output(name, values, classes, kind="proba", what=what)
        )
    if isinstance(raw, (np.ndarray, list, tuple)):
        arr = np.asarray(raw)
        if arr.ndim == 1:
            _check_label_classes(arr, classes, what)
        return _Entry(what, noun, None, model_output(name, arr, classes, what=what))
    if raw is None:
        raise TypeError(f"{what}=None: give labels or class probabilities per item")
    raise TypeError(
        f"{what}={type(raw).__name__}: give a pandas Series or DataFrame indexed by item id, a "
        "humanly.Predictions, or a numpy array in the items' order"
    )


def _check_index(index: pd.Index, what: str) -> None:
    if index.has_duplicates:
        dup = index[index.duplicated()][0]
        raise InputError(f"{what}: item {dup!r} appears more than once; give one row per item")


def _from_predictions(value: Predictions, classes: tuple[Any, ...], label: str, noun: str):
    _check_index(value.items, label)
    out = []
    for m in value.models:
        what = f"{label}[{m.name!r}]" if len(value.models) > 1 else label
        out.append(_Entry(what, noun, value.items, _recoded(m, value.classes, classes, what)))
    return out


def _model_entries(predictions: Any, classes: tuple[Any, ...]) -> list[_Entry]:
    if predictions is None:
        raise TypeError(
            "predictions=None: give the models' predictions on every item (a humanly.Predictions, "
            "or a dict of pandas Series indexed by item id)"
        )
    if isinstance(predictions, _PATH):
        predictions = read_predictions(predictions, classes=classes)
    if isinstance(predictions, Predictions):
        return _from_predictions(predictions, classes, "predictions", "prediction")
    if isinstance(predictions, Mapping):
        return [
            _entry(raw, str(name), f"predictions[{str(name)!r}]", "prediction", classes)
            for name, raw in predictions.items()
        ]
    name = (
        str(predictions.name)
        if isinstance(predictions, pd.Series) and predictions.name
        else "model"
    )
    return [_entry(predictions, name, "predictions", "prediction", classes)]


def _judge_entry(judge: Any, classes: tuple[Any, ...]) -> _Entry:
    if isinstance(judge, _PATH):
        judge = read_predictions(judge, classes=classes)
    if isinstance(judge, Mapping):
        if len(judge) != 1:
            raise InputError(f"judge: {len(judge)} entries; give one judge (a dict of one name)")
        ((name, raw),) = judge.items()
        return _entry(raw, str(name), "judge", "judge output", classes)
    if isinstance(judge, Predictions):
        if len(judge.models) != 1:
            raise InputError(
                f"judge: {len(judge.models)} models {list(judge.names)}; give one "
                "judge (predictions.select([name]))"
            )
        return _from_predictions(judge, classes, "judge", "judge output")[0]
    name = str(judge.name) if isinstance(judge, pd.Series) and judge.name is not None else "judge"
    return _entry(judge, name, "judge", "judge output", classes)


# --------------------------------------------------------------------------------- joining
def _mismatch(base: pd.Index, base_what: str, e: _Entry) -> str | None:
    assert e.index is not None
    pos = align_index(base, e.index)
    used = np.zeros(len(e.index), dtype=bool)
    used[pos[pos >= 0]] = True
    parts = []
    if (pos < 0).any():
        first = base[pos < 0][0]
        parts.append(
            f"{int((pos < 0).sum())} of {len(base):,} items of {base_what} have no {e.noun} "
            f"(first: {first!r})"
        )
    if not used.all():
        parts.append(
            f"{int((~used).sum())} {e.noun}(s) are for items {base_what} does not have "
            f"(first: {e.index[~used][0]!r})"
        )
    if not parts:
        return None
    return (
        f"{e.what}: "
        + "; ".join(parts)
        + (
            '; give every input for the same items, or pass missing="drop" to keep the items all have'
        )
    )


def _universe(entries: list[_Entry], missing: str) -> pd.Index:
    """The items every input covers (all of them, or an error, with ``missing="error"``)."""
    indexed = [e for e in entries if e.index is not None]
    if not indexed:
        raise TypeError(
            "predictions and judge are arrays without item ids: give a pandas Series indexed by item "
            "id (or a humanly.Predictions) so the human labels can be joined by id"
        )
    base = indexed[0]
    assert base.index is not None
    items = base.index
    for e in indexed[1:]:
        problem = _mismatch(base.index, base.what, e)
        if problem and missing == "error":
            raise InputError(problem)
        assert e.index is not None
        items = items[align_index(items, e.index) >= 0]
    if len(items) == 0:
        raise InputError(f"{base.what}: no item is in every input; check the item ids")
    for e in entries:
        if e.index is None and len(e.output.values) != len(base.index):
            raise InputError(
                f"{e.what}: an array in the items' order needs {len(base.index):,} entries (one per "
                f"item of {base.what}), got {len(e.output.values):,}; or give a Series indexed by id"
            )
    return items


def _aligned(e: _Entry, items: pd.Index, base: pd.Index) -> np.ndarray:
    index = base if e.index is None else e.index
    return e.output.values[align_index(items, index)]


def _counts(r: Ratings, items: pd.Index, missing: str) -> tuple[np.ndarray, np.ndarray]:
    """(labelled positions in ``items``, their label counts); rated items outside ``items`` are an
    error unless ``missing="drop"``."""
    rated = r.labels_per_item > 0
    where = align_index(r.items, items)
    outside = rated & (where < 0)
    if outside.any() and missing == "error":
        raise InputError(
            f"ratings: {int(outside.sum())} rated item(s) have no prediction or judge output "
            f"(first: {r.items[outside][0]!r}); give predictions and the judge for every item, or "
            'pass missing="drop"'
        )
    keep = rated & (where >= 0)
    pos = where[keep]
    order = np.argsort(pos, kind="stable")
    return pos[order], np.asarray(r.counts)[np.flatnonzero(keep)[order]]


def _gold(gold: Any, items: pd.Index, classes: tuple[Any, ...], missing: str) -> np.ndarray | None:
    if gold is None:
        return None
    if isinstance(gold, Gold):
        has = gold.codes >= 0
        text = _text(classes)
        table = np.array([text.index(str(c)) if str(c) in text else -1 for c in gold.classes])
        codes = table[gold.codes[has]]
        if (codes < 0).any():
            bad = gold.classes[int(gold.codes[has][codes < 0][0])]
            raise InputError(f"gold: class {bad!r} is not one of the raters' classes {classes!r}")
        index = gold.items[has]
    elif isinstance(gold, pd.Series):
        series = gold[gold.notna()]
        _check_label_classes(series.to_numpy(), classes, "gold")
        codes = model_output("gold", series.to_numpy(), classes, kind="label", what="gold").values
        index = series.index
    else:
        raise TypeError(
            f"gold={type(gold).__name__}: give a pandas Series of gold labels indexed by "
            "item id, or a humanly.Gold"
        )
    pos = align_index(items, index)
    used = np.zeros(len(index), dtype=bool)
    used[pos[pos >= 0]] = True
    if not used.all() and missing == "error":
        raise InputError(
            f"gold: {int((~used).sum())} gold label(s) are for items with no prediction "
            f'(first: {index[~used][0]!r}); fix the ids or pass missing="drop"'
        )
    out = np.full(len(items), -1, dtype=np.int64)
    out[pos >= 0] = np.asarray(codes)[pos[pos >= 0]]
    return out


def _probabilities(
    value: Any, items: pd.Index, labelled: np.ndarray, missing: str
) -> np.ndarray | None:
    """Each item's probability of having been sent to raters (the active design), or ``None``."""
    if value is None:
        return None
    selected = None
    if hasattr(value, "to_series") and hasattr(value, "selected"):  # a Selection
        selected = pd.Series(np.asarray(value.selected, dtype=bool), index=value.to_series().index)
        value = value.to_series()
    if not isinstance(value, pd.Series):
        raise TypeError(
            f"options.probabilities={type(value).__name__}: give a pandas Series of "
            "sampling probabilities indexed by item id (or a Selection)"
        )
    pi = value.to_numpy(dtype=float)
    ok = (pi >= np.finfo(float).tiny) & (pi <= 1)  # subnormal π: its weight 1/π overflows
    if not np.all(ok):
        k = int(np.flatnonzero(~ok)[0])
        raise InputError(
            f"options.probabilities: item {value.index[k]!r} has probability {pi[k]:g}; give "
            "each item's probability of being sent to raters, in (0, 1] (and not below 2.2e-308, "
            "whose weight 1/π is not a finite number)"
        )
    pos = align_index(items, value.index)
    used = np.zeros(len(value), dtype=bool)
    used[pos[pos >= 0]] = True
    if not used.all() and missing == "error":
        raise InputError(
            f"options.probabilities: {int((~used).sum())} item(s) are not among the "
            f'items (first: {value.index[~used][0]!r}); pass missing="drop"'
        )
    is_lab = np.zeros(len(items), dtype=bool)
    is_lab[labelled] = True
    out = np.where(pos >= 0, pi[np.maximum(pos, 0)], np.nan)
    out[is_lab & (pos < 0)] = 1.0  # labelled outside the pool: labelled for sure (a pilot)
    bad = ~is_lab & ~((out > 0) & (out < 1))
    if bad.any():
        first = items[bad][0]
        why = "no sampling probability" if np.isnan(out[bad][0]) else "probability 1 but no label"
        raise InputError(
            f"options.probabilities: {int(bad.sum())} unlabelled item(s) have {why} (first: "
            f"{first!r}); give every unlabelled item's probability of being sent to raters, below 1"
        )
    if selected is not None:
        sent = align_index(items, selected.index)
        waiting = ~is_lab & (sent >= 0) & selected.to_numpy()[np.maximum(sent, 0)]
        if waiting.any():
            raise InputError(
                f"options.probabilities: {int(waiting.sum())} selected item(s) have no human label "
                f"yet (first: {items[waiting][0]!r}); add their labels to the ratings first"
            )
    return out


def _checked_sizes(n_labelled: int, n_items: int, min_labelled: int) -> None:
    if n_labelled < min_labelled:
        raise InputError(
            f"ratings: {n_labelled} item(s) with a human label among the {n_items:,} items; the "
            "interval needs at least 2 labelled items"
        )
    if n_labelled == n_items:
        raise InputError(
            "judge: every item has a human label, so there is nothing for the judge to add; give the "
            "predictions and the judge's outputs for the unlabelled items too"
        )


def prepare(
    ratings: Any,
    predictions: Any,
    gold: Any,
    judge: Any,
    missing: str,
    probabilities: Any = None,
    *,
    min_labelled: int = 2,
) -> JudgeInputs:
    """Join ratings, predictions, gold and the judge by item id (see the module docstring)."""
    if isinstance(ratings, Study):
        predictions = ratings.predictions if predictions is None else predictions
        gold = ratings.gold if gold is None else gold
        judge = ratings.judge if judge is None else judge
        ratings = ratings.ratings
    if judge is None:
        raise TypeError(
            "judge=None: give the judge's labels or class probabilities per item (or a Study that "
            "carries them as Study.judge)"
        )
    r = as_ratings(ratings)
    classes = r.classes
    entries = _model_entries(predictions, classes)
    judge_e = _judge_entry(judge, classes)
    if judge_e.output.kind == "score":
        raise InputError(
            "judge: scores are neither classes nor probabilities; give labels or "
            "class probabilities"
        )
    names = [e.output.name for e in entries]
    if len(set(names)) != len(names):
        raise InputError(f"predictions: model names {names} repeat; give each model once")
    every = [*entries, judge_e]
    items = _universe(every, missing)
    base = next(e.index for e in every if e.index is not None)
    assert base is not None
    items = items[canonical_order(items)]
    labelled, counts = _counts(r, items, missing)
    _checked_sizes(len(labelled), len(items), min_labelled)
    codes = np.column_stack([_hard(e.output, _aligned(e, items, base)) for e in entries]).astype(
        np.int64
    )
    jv = _aligned(judge_e, items, base)
    proba = jv if judge_e.output.kind == "proba" else None
    return JudgeInputs(
        items=items,
        classes=classes,
        labelled=labelled,
        counts=counts,
        models=tuple(names),
        model_codes=codes,
        judge_name=judge_e.output.name,
        judge_kind=judge_e.output.kind,
        judge_codes=_hard(judge_e.output, jv).astype(np.int64),
        judge_proba=proba,
        gold=_gold(gold, items, classes, missing),
        probabilities=_probabilities(probabilities, items, labelled, missing),
    )


def _hard(out: ModelOutput, values: np.ndarray) -> np.ndarray:
    """Class codes: labels as given, probabilities by their most probable class (ties: the first)."""
    return values if out.kind == "label" else np.argmax(values, axis=1)
