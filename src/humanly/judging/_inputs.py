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

from .._core.checks import show_value
from ..data import InputError, Study
from ..data.matching import align_index
from ..data.predictions import ModelOutput
from ..errors import setting
from ._multi import MAX_JUDGES

__all__ = ["JudgeInputs", "JudgeOutputs", "prepare"]


@dataclasses.dataclass(frozen=True)
class JudgeOutputs:
    """One judge's outputs per item: its class (``codes``; the most probable one for a soft judge)
    and its class probabilities (``proba``, ``None`` for a judge that gives labels)."""

    name: str
    kind: str
    codes: np.ndarray
    proba: np.ndarray | None


@dataclasses.dataclass(frozen=True)
class JudgeInputs:
    """Everything the estimators need, in canonical item order.

    ``counts`` holds the human labels of the labelled items (rows ``labelled``), ``model_codes`` each
    model's class per item, ``judges`` each judge's classes and probabilities. ``gold`` is -1 where an
    item has no gold label; ``probabilities`` is each item's chance of having been sent to raters
    (active design; 1 for labelled items outside the pool) and ``None`` for a uniformly drawn
    labelled set; ``strata`` each item's stratum code into ``strata_names`` (``None``: no strata).
    """

    items: pd.Index
    classes: tuple[Any, ...]
    labelled: np.ndarray
    counts: np.ndarray
    models: tuple[str, ...]
    model_codes: np.ndarray
    judges: tuple[JudgeOutputs, ...]
    gold: np.ndarray | None
    probabilities: np.ndarray | None
    strata: np.ndarray | None = None
    strata_names: tuple[str, ...] = ()
    weights_source: str | None = None

    @property
    def judge_name(self) -> str:
        """The judge's name; several judges' names joined by " + "."""
        return " + ".join(j.name for j in self.judges)

    @property
    def judge_kind(self) -> str:
        """``"label"`` or ``"proba"``; ``"mixed"`` for several judges of both kinds."""
        kinds = {j.kind for j in self.judges}
        return kinds.pop() if len(kinds) == 1 else "mixed"

    @property
    def judge_codes(self) -> np.ndarray:
        """The first judge's class per item."""
        return self.judges[0].codes

    @property
    def judge_proba(self) -> np.ndarray | None:
        """The first judge's class probabilities (``None`` for labels)."""
        return self.judges[0].proba

    @property
    def unlabelled(self) -> np.ndarray:
        """Positions of the items with no human label."""
        mask = np.ones(len(self.items), dtype=bool)
        mask[self.labelled] = False
        return np.flatnonzero(mask)

    def scores(
        self, rows: np.ndarray, judge: int = 0, codes: np.ndarray | None = None
    ) -> np.ndarray:
        """f on the items at ``rows`` (rows × models): judge ``judge``'s probability of the class each
        model predicted (1/0 for a judge that gives labels: whether it gave the model's class).
        ``codes``: the models' classes at ``rows`` (``model_codes[rows]``) when the caller has them."""
        codes = self.model_codes[rows] if codes is None else codes
        j = self.judges[judge]
        if j.proba is None:
            return (j.codes[rows, None] == codes).astype(float)
        # one gather (not a copy of the rows' probabilities, then a gather from it)
        return j.proba[rows[:, None], codes.astype(np.intp, copy=False)]


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
            f"items (first: {value.index[~used][0]!r}); pass {setting('missing', 'drop')}"
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
    """The judge analysis's inputs from a joined study (see the module docstring): one judge or
    several (``study.judge``'s models), the study's strata and sampling weights (``study.design``)
    and the active design's ``probabilities`` (not both of the last two)."""
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
    if len(judges) > MAX_JUDGES:
        raise InputError(
            f"judge: {len(judges)} judges {list(study.judge.names)}; combine at most {MAX_JUDGES}"
        )
    r = study.ratings
    several = len(study.predictions.models) > 1
    models = [
        _classes_of(m, f"predictions[{m.name!r}]" if several else "predictions")
        for m in study.predictions.models
    ]
    what = "judge" if len(judges) == 1 else "judge[{!r}]"
    outs = tuple(_judge_outputs(_classes_of(j, what.format(j.name))) for j in judges)
    labelled = np.flatnonzero(r.labels_per_item > 0)
    _checked_sizes(len(labelled), r.n_items, min_labelled)
    codes = np.column_stack([_hard(m) for m in models]).astype(np.int64)
    gold = None if study.gold is None else np.asarray(study.gold.codes, dtype=np.int64)
    design = study.design
    pi = _probabilities(probabilities, r.items, labelled, missing)
    weights_source = None
    if design is not None and design.probabilities is not None:
        if pi is not None:
            raise InputError(
                f"options.probabilities: the study has sampling weights ({design.weights_source}); "
                "give the sampling probabilities once"
            )
        pi = _checked_design_probabilities(design.probabilities, r.items, labelled, design)
        weights_source = design.weights_source
    strata = names = None
    if design is not None and design.strata is not None:
        raw, uniques = pd.factorize(design.strata, sort=True)
        strata, names = np.asarray(raw, dtype=np.intp), tuple(str(u) for u in uniques)
    return JudgeInputs(
        items=r.items,
        classes=r.classes,
        labelled=labelled,
        counts=np.asarray(r.counts)[labelled],
        models=tuple(m.name for m in models),
        model_codes=codes,
        judges=outs,
        gold=gold,
        probabilities=pi,
        strata=strata,
        strata_names=names or (),
        weights_source=weights_source,
    )


def _judge_outputs(out: ModelOutput) -> JudgeOutputs:
    return JudgeOutputs(
        out.name,
        out.kind,
        _hard(out).astype(np.int64),
        out.values if out.kind == "proba" else None,
    )


def _checked_design_probabilities(
    pi: np.ndarray, items: pd.Index, labelled: np.ndarray, design: Any
) -> np.ndarray:
    """The study's π (from its sampling weights): every unlabelled item below 1 (an item sent for
    sure has a label)."""
    is_lab = np.zeros(len(items), dtype=bool)
    is_lab[labelled] = True
    sure = ~is_lab & (pi >= 1.0)
    if sure.any():
        raise InputError(
            f"{design.weights_source}: {int(sure.sum()):,} unlabelled item(s) have weight 1 (sent to "
            f"raters for sure) but no human label (first: {show_value(items[sure][0])}); give their labels, "
            "or their sampling weights"
        )
    return np.asarray(pi, dtype=float)


def _hard(out: ModelOutput) -> np.ndarray:
    """Class codes: labels as given, probabilities by their most probable class (ties: the first)."""
    if out.kind == "label":
        return out.values
    p = out.values
    if not p.flags.f_contiguous or p.shape[1] > 16 or not p.size:
        return np.argmax(p, axis=1)
    # a table's columns side by side (Fortran order): compare whole columns, not rows
    best, codes = p[:, 0].copy(), np.zeros(len(p), dtype=np.intp)
    for j in range(1, p.shape[1]):
        better = p[:, j] > best  # strictly: a tie keeps the first class, as argmax
        codes[better] = j
        np.maximum(best, p[:, j], out=best)
    return codes
