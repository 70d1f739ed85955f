"""What the judge analysis of classes computes per item before estimating, and the checks beside the
estimates: the human reference Y and every judge's score f per model and pair (the estimation
problem of :mod:`humanly.judging._estimation`), the frontier check, the gold check, the design check
on the judges' outputs and the self-judge check.

Per item and model, Y is the model's credit against the human reference (``reference="label"``: the
share of the item's human labels equal to its prediction; ``"plurality"``: 1 when it is the plurality
label, 1/|T| for a tie among T classes) and f judge j's probability of the model's class (1/0 for a
judge that gives labels); a comparison of two models uses the differences of both.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from .._core.counts import plurality_shares
from .._core.result import Interval, Note, NoteValue
from ..errors import InputError
from . import _design
from ._blocks import Blocks
from ._crossfit import agreement
from ._estimation import Problem
from ._inputs import JudgeInputs
from ._parts import Estimate
from ._ppi import classical, z_value
from .extended import DesignCheck, SelfJudgeCheck, SelfJudgeRow
from .results import Comparison, FrontierCheck, FrontierRow, GoldAccuracy, ModelAccuracy

__all__ = [
    "design_check",
    "frontier",
    "gold_accuracies",
    "notes",
    "pairs_of",
    "problem",
    "reference_credit",
    "self_judge",
]


def pairs_of(models: tuple[str, ...], pairs: Any) -> tuple[tuple[str, str], ...]:
    """The comparisons ``first − second``: every pair of models in the order given, or ``pairs``."""
    if pairs is None:
        return tuple(itertools.combinations(models, 2))
    out = []
    for pair in pairs:
        if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= set(models):
            raise InputError(
                f"options.pairs: {tuple(pair)!r} is not two different models among {list(models)}"
            )
        out.append((str(pair[0]), str(pair[1])))
    return tuple(out)


def reference_credit(counts: np.ndarray, reference: str) -> np.ndarray:
    """Per labelled item, the credit each class earns against the human reference (n × classes)."""
    if reference == "plurality":
        return plurality_shares(counts)
    return counts / counts.sum(axis=1, keepdims=True)


def _contrasts(x: np.ndarray, pairs: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The models' columns of ``x`` (items × models) followed by one difference column per pair."""
    if not pairs:
        return x
    m = x.shape[1]
    out = np.empty((x.shape[0], m + len(pairs)), dtype=x.dtype)
    out[:, :m] = x
    for i, (a, b) in enumerate(pairs):
        np.subtract(x[:, a], x[:, b], out=out[:, m + i])
    return out


def _scored(data: JudgeInputs, rows: np.ndarray, pairs: tuple[tuple[int, int], ...]) -> np.ndarray:
    """Every judge's f on the items at ``rows`` for each model, then each pair's difference (rows ×
    (models + pairs) × judges): one judge at a time, its models and pairs side by side first, then
    written into the judge's place once — a million items × 3 judges are neither stacked nor
    copied again to join the differences."""
    m, judges = len(data.models), len(data.judges)
    kinds = [float if j.proba is None else j.proba.dtype for j in data.judges]
    out = np.empty((len(rows), m + len(pairs), judges), dtype=np.result_type(*kinds))
    one = np.empty(out.shape[:2], dtype=out.dtype)
    codes = data.model_codes[rows].astype(np.intp, copy=False)  # once for every judge
    for j in range(judges):
        one[:, :m] = data.scores(rows, j, codes)
        for i, (a, b) in enumerate(pairs):
            np.subtract(one[:, a], one[:, b], out=one[:, m + i])
        out[:, :, j] = one
    return out


def _unlabelled(
    data: JudgeInputs, rows: np.ndarray, pairs: tuple[tuple[int, int], ...], by_stratum: bool
) -> Any:
    """f on the unlabelled items at ``rows``: the array, or by stratum :class:`Blocks` of it."""
    if not by_stratum:
        return _scored(data, rows, pairs)
    width = len(data.models) + len(pairs)
    return Blocks(lambda at: _scored(data, at, pairs), rows, width, len(data.judges))


def problem(
    data: JudgeInputs,
    ref: np.ndarray,
    pairs: tuple[tuple[str, str], ...],
    unlabelled: np.ndarray | None = None,
    by_stratum: bool = False,
) -> Problem:
    """The estimation problem: Y and every judge's f for each model, then each pair; f on the
    unlabelled items in the order of ``unlabelled`` (default: item order), built one stratum at a
    time when they are in stratum order (``by_stratum``: :class:`~humanly.judging._blocks.Blocks`)."""
    index = {name: k for k, name in enumerate(data.models)}
    ab = tuple((index[a], index[b]) for a, b in pairs)
    lab = data.labelled
    unl = data.unlabelled if unlabelled is None else unlabelled
    y = np.take_along_axis(ref, data.model_codes[lab].astype(np.intp), axis=1)
    m = len(data.models)
    kinds = ("mean",) * m + ("difference",) * len(ab)
    low = np.where(np.arange(m + len(ab)) < m, 0.0, -1.0)
    return Problem(
        y=_contrasts(y, ab),
        f=_scored(data, lab, ab),
        fu=_unlabelled(data, unl, ab, by_stratum),
        kinds=kinds,
        low=low,
        high=np.ones(m + len(ab)),
        scale_low=np.zeros(m + len(ab)),
        scale_high=np.ones(m + len(ab)),
        judges=tuple(j.name for j in data.judges),
    )


def _mean_interval(x: np.ndarray, v: np.ndarray | None, level: float, floor: float = 0.0):
    point, se = classical(x, v)
    z = z_value(level)
    low, high = point[0] - z * se[0], point[0] + z * se[0]
    return float(point[0]), Interval(float(np.clip(low, floor, 1)), float(np.clip(high, floor, 1)))


def frontier(
    data: JudgeInputs,
    ref: np.ndarray,
    y: np.ndarray,
    v: np.ndarray | None,
    accuracy: tuple[ModelAccuracy, ...],
    level: float,
) -> FrontierCheck:
    """The judge's accuracy (its most probable class) and each model's on the labelled items, and
    their paired difference: is the judge more accurate than the model (Dorner, Nastl & Hardt)? With
    several judges, the one most accurate on the labelled items (the one that could beat a model)."""
    rows_l = np.arange(len(data.labelled))
    credits = [ref[rows_l, j.codes[data.labelled]] for j in data.judges]
    best = int(np.argmax([classical(c, v)[0][0] for c in credits])) if len(credits) > 1 else 0
    judge_y = credits[best]
    j_point, j_interval = _mean_interval(judge_y, v, level)
    rows = []
    for k, acc in enumerate(accuracy):
        model_y = y[:, k]
        m_point, m_interval = _mean_interval(model_y, v, level)
        d_point, d_interval = _mean_interval(judge_y - model_y, v, level, floor=-1.0)
        assert d_interval.low is not None and d_interval.high is not None
        if d_interval.low > 0:
            status = "judge more accurate"
        elif d_interval.high < 0:
            status = "judge less accurate"
        else:
            status = "no clear difference"
        rows.append(
            FrontierRow(
                acc.model,
                m_point,
                m_interval,
                d_point,
                d_interval,
                status,
                status != "judge more accurate",
                acc.accuracy.saving,
            )
        )
    name = data.judges[best].name if len(data.judges) > 1 else None
    return FrontierCheck(j_point, j_interval, len(judge_y), tuple(rows), name)


def gold_accuracies(data: JudgeInputs, level: float) -> tuple[GoldAccuracy, ...]:
    """Each model's and each judge's accuracy against gold labels, where there are any."""
    if data.gold is None:
        return ()
    has = data.gold >= 0
    if not has.any():
        return ()
    g = data.gold[has]
    named = [(name, "model", data.model_codes[has, k]) for k, name in enumerate(data.models)]
    named += [(j.name, "judge", j.codes[has]) for j in data.judges]
    out = []
    for name, role, codes in named:
        point, interval = _mean_interval((codes == g).astype(float), None, level)
        out.append(GoldAccuracy(name, role, int(has.sum()), point, interval))
    return tuple(out)


def design_check(data: JudgeInputs, seed: int | None, weighted: bool) -> DesignCheck:
    """The design check on every judge's label and its score of each model, within strata: do the
    labelled items look like a random sample of all items?"""
    is_lab = np.zeros(len(data.items), dtype=bool)
    is_lab[data.labelled] = True
    if weighted:
        return _design.check(np.zeros((len(is_lab), 1)), is_lab, weighted=True, seed=seed)
    every = np.arange(len(data.items))
    columns, names = [], []
    several = len(data.judges) > 1
    for judge in data.judges:
        prefix = f"{judge.name}: " if several else ""
        columns.append(judge.codes)  # whole numbers: the categories are those of their floats
        names.append(f"{prefix}label")
        for k, model in enumerate(data.models):
            columns.append(_score_column(judge, data.model_codes[:, k], every))
            names.append(f"{prefix}score of {model}")
    return _design.check(
        columns, is_lab, strata=data.strata, names=names, seed=seed, weighted=weighted
    )


def _score_column(judge: Any, codes: np.ndarray, every: np.ndarray) -> np.ndarray:
    """f of one model on every item (``JudgeInputs.scores``' column), gathered as one contiguous
    column."""
    if judge.proba is None:
        return (judge.codes == codes).astype(float)
    return judge.proba[every, codes]


def self_judge(data: JudgeInputs) -> SelfJudgeCheck:
    """Each judge's agreement with each model (their classes, item by item); ``self_judge`` when a
    judge's outputs are a model's on every item."""
    several = len(data.judges) > 1
    rows = []
    for judge in data.judges:
        for k, model in enumerate(data.models):
            a = agreement(judge.codes, data.model_codes[:, k])
            rows.append(SelfJudgeRow(model, a, a == 1.0, judge.name if several else None))
    return SelfJudgeCheck("self_judge" if any(r.identical for r in rows) else None, tuple(rows))


def notes(
    estimator: str, accuracy: tuple[ModelAccuracy, ...], comparisons: tuple[Comparison, ...]
) -> tuple[Note, ...]:
    """What a reader should know that no status code says, as notes: a degenerate interval
    (``zero_width_interval``), a judge that adds nothing (``judge_adds_nothing``); each names the
    model, or the ``first`` and ``second`` of a comparison."""
    out = []
    named: list[tuple[dict[str, NoteValue], Estimate]] = [
        ({"model": m.model}, m.accuracy) for m in accuracy
    ]
    named += [({"first": c.first, "second": c.second}, c.difference) for c in comparisons]
    for name, e in named:
        if not e.se > 0:
            out.append(Note("zero_width_interval", name))
        elif estimator == "ppi++" and e.lam == 0.0 and e.interval_method == "clt":
            out.append(Note("judge_adds_nothing", name))
    return tuple(out)
