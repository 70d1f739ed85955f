"""The join with one or more judges: human labels on some items, the models' predictions and the
judges' labels or class probabilities on every item.

The study's items are those the predictions and the judges all cover (with ``missing="drop"``, the
items every input has); an item no rater labelled is *unlabelled*, held in the study's ratings with
no label. Rated items outside them are an error unless ``missing="drop"``. Everything is matched by
id (bare arrays were keyed by the ratings' items first, :mod:`humanly.data.positional`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import show
from .aligned import as_gold, outputs_for, what_of
from .matching import MissingPolicy, align_index
from .predictions import Predictions
from .ratings import Ratings

__all__ = ["Judged", "judged"]


@dataclasses.dataclass(frozen=True)
class Judged:
    """The inputs joined with the judges: ratings over every item (no label: unlabelled), the
    predictions and the judges over the same items, gold on any of them."""

    ratings: Ratings
    predictions: Predictions | None
    gold: Any
    judges: Predictions
    notes: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class _Covered:
    """The items one model or judge has an output for (``what`` names it in messages)."""

    what: str
    noun: str
    index: pd.Index


def _present(raw: Any) -> Any:
    """A Series or DataFrame without its rows that hold no output (NaN): those items are not covered."""
    if isinstance(raw, pd.Series):
        keep = raw.notna()
    elif isinstance(raw, pd.DataFrame):
        keep = raw.notna().all(axis=1)
    else:
        return raw
    return raw if keep.all() else raw[keep]  # nothing missing: as it is, not a copy


def _covered(value: Any, name: str, noun: str) -> tuple[Any, list[_Covered]]:
    """``value`` without its missing outputs, and the items each of its models covers."""
    if value is None:
        return None, []
    if isinstance(value, Predictions):  # read from a file: named by it
        source = value.source
        what = f"{name} {source}" if source and source != name else name
        return value, [_Covered(what, noun, value.items)]
    if isinstance(value, Mapping):
        clean = {k: _present(v) for k, v in value.items()}
        out = [
            _Covered(what_of(name, str(k)), noun, v.index)
            for k, v in clean.items()
            if isinstance(v, (pd.Series, pd.DataFrame))
        ]
        return clean, out
    clean = _present(value)
    if isinstance(clean, (pd.Series, pd.DataFrame)):
        return clean, [_Covered(name, noun, clean.index)]
    return clean, []


def _mismatch(base: _Covered, e: _Covered) -> str | None:
    if e.index.equals(base.index):
        return None
    pos = align_index(base.index, e.index)
    used = np.zeros(len(e.index), dtype=bool)
    used[pos[pos >= 0]] = True
    parts = []
    if (pos < 0).any():
        first = base.index[pos < 0][0]
        parts.append(
            f"{int((pos < 0).sum()):,} of {len(base.index):,} items of {base.what} have no "
            f"{e.noun} (first: {show(first)})"
        )
    if not used.all():
        parts.append(
            f"{int((~used).sum()):,} {e.noun}(s) are for items {base.what} does not have (first: "
            f"{show(e.index[~used][0])})"
        )
    if not parts:
        return None
    return (
        f"{e.what}: "
        + "; ".join(parts)
        + f"; give every input for the same items, or pass {setting('missing', 'drop')} to keep the items "
        "all have"
    )


def _universe(covered: list[_Covered], missing: MissingPolicy) -> pd.Index:
    """The items every model and judge covers (all of them, or an error, with ``missing="error"``)."""
    base = covered[0]
    if base.index.has_duplicates:
        dup = base.index[base.index.duplicated()][0]
        raise InputError(f"{base.what}: item {show(dup)} appears more than once; give one per item")
    items = base.index
    for e in covered[1:]:
        problem = _mismatch(base, e)
        if problem and missing == "error":
            raise InputError(problem)
        if problem:
            items = items[align_index(items, e.index) >= 0]
    if len(items) == 0:
        raise InputError(f"{base.what}: no item is in every input; check the item ids")
    return items


def _over(ratings: Ratings, items: pd.Index, missing: MissingPolicy) -> tuple[Ratings, np.ndarray]:
    """``ratings`` over exactly ``items`` (and where each rated item went, -1: left out): items no
    rater labelled are added with no label; rated items outside ``items`` are an error unless
    ``missing="drop"`` (then left out)."""
    where = align_index(ratings.items, items)
    rated = ratings.labels_per_item > 0
    outside = rated & (where < 0)
    if outside.any() and missing == "error":
        raise InputError(
            f"ratings: {int(outside.sum()):,} rated item(s) have no prediction or judge output "
            f"(first: {show(ratings.items[outside][0])}); give predictions and the judge for every "
            f"item, or pass {setting('missing', 'drop')}"
        )
    return ratings._moved(items, where), where


def judged(
    ratings: Ratings, predictions: Any, gold: Any, judge: Any, missing: MissingPolicy
) -> Judged:
    """Join ratings, predictions, gold and the judges by item id (see the module docstring); bare
    arrays must already be keyed (:func:`humanly.data.aligned.by_id`), files read."""
    predictions, models = _covered(predictions, "predictions", "prediction")
    judge, judges = _covered(judge, "judge", "judge output")
    if not judges:
        raise TypeError(
            f"judge={type(judge).__name__}: give the judge's labels or class probabilities as a "
            "pandas Series or DataFrame indexed by item id, a humanly.Predictions or a dict of them"
        )
    items = _universe([*models, *judges], missing)
    r, where = _over(ratings, items, missing)
    _, preds = outputs_for(predictions, r, missing, "predictions")
    _, judges_out = outputs_for(judge, r, missing, "judge", default="judge")
    assert judges_out is not None
    for m in judges_out.models:
        if m.kind == "score":
            raise InputError(
                f"{what_of('judge', m.name) if len(judges_out.models) > 1 else 'judge'}: scores are "
                "neither classes nor probabilities; give labels or class probabilities"
            )
    g = None if gold is None else as_gold(gold, r, missing=missing)
    return Judged(r, preds, g, judges_out, _dropped(ratings, [*models, *judges], items, where))


def _dropped(
    ratings: Ratings, covered: list[_Covered], items: pd.Index, where: np.ndarray
) -> tuple[str, ...]:
    """The note of ``missing="drop"``: how many rated items and outputs were left out (``where``:
    each rated item's position among ``items``, -1 when left out)."""
    parts = []
    per_item = ratings.labels_per_item
    rated = int((per_item > 0).sum())
    kept = int((per_item[where >= 0] > 0).sum())
    if kept < rated:
        parts.append(f"{rated - kept:,} of {rated:,} rated items (no prediction or judge output)")
    for e in covered:
        if len(e.index) > len(items):
            parts.append(f"{len(e.index) - len(items):,} of {len(e.index):,} items of {e.what}")
    return (f'missing="drop" dropped {"; ".join(parts)}',) if parts else ()
