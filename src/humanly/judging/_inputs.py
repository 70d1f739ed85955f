"""What the judge analysis takes from a joined :class:`~humanly.data.Study` — which items are labelled,
their label counts, each model's and the judge's class per item, the scores f and the active design's
sampling probabilities.

Everything is joined by item id in one place, :func:`humanly.data.join` (``judge=``): the study's items
are those the predictions and the judge cover, and items no rater labelled are held in its ratings with
no label — the *unlabelled* items. This module reads the study in its canonical order (sorted ids) and
matches nothing but the sampling probabilities (by id, :func:`humanly.data.matching.align_index`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from ..data import InputError, Study
from ..data.matching import align_index
from ..data.predictions import ModelOutput

__all__ = ["JudgeInputs", "prepare"]


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


def _classes_of(out: ModelOutput, what: str) -> ModelOutput:
    """A model's or judge's outputs as classes or class probabilities (a score has no class)."""
    if out.kind == "score":
        raise InputError(
            f"{what}: scores are neither classes nor probabilities; give labels or class "
            "probabilities"
        )
    return out


def prepare(
    study: Study,
    missing: str = "error",
    probabilities: Any = None,
    *,
    min_labelled: int = 2,
) -> JudgeInputs:
    """The judge analysis's inputs from a joined study (see the module docstring)."""
    if study.judge is None:
        raise TypeError(
            "judge=None: give the judge's labels or class probabilities per item (or a Study that "
            "carries them, built with humanly.data.join(..., judge=...))"
        )
    if study.predictions is None:
        raise TypeError(
            "predictions=None: give the models' predictions on every item (a humanly.Predictions, "
            "or a dict of pandas Series indexed by item id)"
        )
    judges = study.judge.models
    if len(judges) != 1:
        raise InputError(
            f"judge: {len(judges)} judges {list(study.judge.names)}; the judge analysis takes one "
            "(study.judge.select([name]))"
        )
    r = study.ratings
    several = len(study.predictions.models) > 1
    models = [
        _classes_of(m, f"predictions[{m.name!r}]" if several else "predictions")
        for m in study.predictions.models
    ]
    judge = _classes_of(judges[0], "judge")
    labelled = np.flatnonzero(r.labels_per_item > 0)
    _checked_sizes(len(labelled), r.n_items, min_labelled)
    codes = np.column_stack([_hard(m) for m in models]).astype(np.int64)
    gold = None if study.gold is None else np.asarray(study.gold.codes, dtype=np.int64)
    return JudgeInputs(
        items=r.items,
        classes=r.classes,
        labelled=labelled,
        counts=np.asarray(r.counts)[labelled],
        models=tuple(m.name for m in models),
        model_codes=codes,
        judge_name=judge.name,
        judge_kind=judge.kind,
        judge_codes=_hard(judge).astype(np.int64),
        judge_proba=judge.values if judge.kind == "proba" else None,
        gold=gold,
        probabilities=_probabilities(probabilities, r.items, labelled, missing),
    )


def _hard(out: ModelOutput) -> np.ndarray:
    """Class codes: labels as given, probabilities by their most probable class (ties: the first)."""
    return out.values if out.kind == "label" else np.argmax(out.values, axis=1)
