"""``judge(ratings, predictions, judge=...)``: model accuracies from a few human labels and many judge
labels, as a sequence of named steps — check the arguments, join the inputs by item id
(:mod:`._inputs`), score every item, estimate every model's accuracy and every pair's difference
(:mod:`._ppi`), and check the judge against the models (the frontier check).

What the judge's score f is, per item and model: the judge's probability of the class the model
predicted — its estimate of the chance that the model is right on the item. For a judge that gives
labels, f is 1 when the judge's label equals the model's prediction and 0 otherwise; for a comparison of
two models, f is the difference of their two scores. The human reference Y is the model's credit on
the item: with ``reference="label"`` the share of the item's human labels that equal the model's
prediction (its mean agreement with the raters, one rater at a time; 0 or 1 with a single label), with
``reference="plurality"`` 1 when the prediction is the item's most frequent human label (1/|T| for a tie
among T classes). The estimand is the mean of Y over the population of items.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Literal

import numpy as np

from .._core.checks import check_choice, check_int, check_probability
from .._core.counts import plurality_shares
from .._core.result import Interval
from ..data import Study, join
from ..data.matching import check_missing
from ..errors import InputError
from ._inputs import JudgeInputs, prepare
from ._ppi import Fit, classical, fit, moments, z_value
from .results import (
    Comparison,
    Estimate,
    FrontierCheck,
    FrontierRow,
    GoldAccuracy,
    JudgeResult,
    ModelAccuracy,
)

__all__ = ["ESTIMATORS", "REFERENCES", "JudgeOptions", "judge", "judge_study"]

#: estimator → λ (``None``: tuned)
ESTIMATORS: dict[str, float | None] = {"ppi++": None, "ppi": 1.0, "classical": 0.0}
REFERENCES = ("label", "plurality")
#: below this many labelled items the CLT intervals may cover less than their level (a note says so)
SMALL_N = 100


@dataclasses.dataclass(frozen=True)
class JudgeOptions:
    """The advanced knobs of :func:`judge` and :func:`~humanly.judging.select`.

    Parameters
    ----------
    probabilities : pandas.Series or Selection, optional
        The active design: each item's probability of having been sent to raters (indexed by item
        id), or the :class:`~humanly.judging.Selection` that sent them. Every unlabelled item needs
        one (in (0, 1)); a labelled item without one was labelled for sure (a pilot, π = 1). The
        estimates are then inverse-probability weighted (Zrnic & Candès 2024).
    pairs : tuple of (str, str), optional
        The comparisons ``first − second`` to estimate; default every pair of models, in the order
        given.
    mixing : float
        :func:`~humanly.judging.select`: the share of the budget spread uniformly over the pool
        (the rest follows the judge's uncertainty); it keeps every weight 1/π bounded. Default 0.5.
    max_probability : float
        :func:`~humanly.judging.select`: no item is sent with a probability above this (< 1, so every
        item may stay unlabelled). Default 0.9.

    Examples
    --------
    >>> JudgeOptions(pairs=(("a", "b"),)).mixing
    0.5
    """

    probabilities: Any = None
    pairs: tuple[tuple[str, str], ...] | None = None
    mixing: float = 0.5
    max_probability: float = 0.9


def checked_options(options: Any) -> JudgeOptions:
    """``options`` itself (or the defaults for ``None``); ``TypeError`` for anything else."""
    if options is None:
        return JudgeOptions()
    if not isinstance(options, JudgeOptions):
        raise TypeError(
            f"options={type(options).__name__}: give a humanly.judging.JudgeOptions (or leave it out)"
        )
    check_probability("options.mixing", options.mixing)
    check_probability(
        "options.max_probability", options.max_probability, open_low=True, open_high=True
    )
    return options


def judge(
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    judge: Any = None,
    level: float = 0.95,
    estimator: Literal["ppi++", "ppi", "classical"] = "ppi++",
    reference: Literal["label", "plurality"] = "label",
    missing: Literal["error", "drop"] = "error",
    seed: int | None = 0,
    options: JudgeOptions | None = None,
) -> JudgeResult:
    """Estimate models' accuracies from human labels on some items and a judge's labels on all.

    Items with no human label are *unlabelled*; the judge (an LLM, a strong classifier) labels every
    item. Prediction-powered inference combines both into an unbiased estimate,
    θ̂ = λ·mean(f̃) + mean(Y − λ·f) over the N unlabelled and n labelled items, λ tuned (PPI++). f, per
    item and model, is the judge's probability of the class the model predicted (1/0 for a judge that
    gives labels: whether its label is the model's); Y is the model's credit against the human
    reference; a comparison uses the differences of both (see the module docstring).

    Parameters
    ----------
    ratings : Ratings, DataFrame, path or Study
        The human labels (items with none are unlabelled); a :class:`~humanly.data.Study` built with
        ``judge=`` (:func:`humanly.data.join`) brings the rest and is used as it is.
    predictions : Predictions, dict, Series or DataFrame
        The models' predictions on every item, joined by item id (:func:`humanly.data.join`): a
        dict of model → Series (labels) or DataFrame (class probabilities: their top class).
    gold : Series or Gold, optional
        Gold labels for some items: each model's and the judge's accuracy on them (validation only).
    judge : Series, DataFrame, Predictions or dict of one entry
        The judge's outputs on every item: labels, or class probabilities (a DataFrame with one
        column per class; two classes: a Series of the second's probability).
    level : float
        The level of every interval (default 0.95).
    estimator : {"ppi++", "ppi", "classical"}
        λ tuned (PPI++, the default), λ = 1 (PPI) or λ = 0 (human labels only).
    reference : {"label", "plurality"}
        The per-item human reference: ``"label"``, an item's mean agreement with its raters one rater
        at a time (the single label when there is one); ``"plurality"``, its most frequent label.
    missing : {"error", "drop"}
        Items some input lacks: an error, or keep the items every input has.
    seed : int or None
        Recorded in the result (no random numbers are drawn).
    options : JudgeOptions, optional
        The active design's sampling probabilities, the pairs to compare.

    Returns
    -------
    JudgeResult

    Raises
    ------
    InputError
        Judge outputs missing for some items, judge or model classes that are not the raters', fewer
        than 2 labelled items, no unlabelled item, a bad ``level``/``estimator``/``reference``.
    TypeError
        An input of the wrong kind (e.g. arrays with no item ids anywhere).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(3)
    >>> ids = np.arange(3000)
    >>> truth = rng.integers(0, 2, 3000)
    >>> models = {"a": pd.Series(np.where(rng.random(3000) < 0.85, truth, 1 - truth), index=ids),
    ...           "b": pd.Series(np.where(rng.random(3000) < 0.75, truth, 1 - truth), index=ids)}
    >>> llm = pd.Series(np.where(rng.random(3000) < 0.9, truth, 1 - truth), index=ids)
    >>> human = pd.DataFrame({"item": ids[:300], "rater": "r", "label": truth[:300]})
    >>> res = judge(human, models, judge=llm)
    >>> res.to_frame()[["estimand", "n"]].values.tolist()
    [['a', 300], ['b', 300], ['a − b', 300]]
    >>> d = res.comparison("a", "b").difference
    >>> d.interval.low > 0, d.effective_n > 300
    (True, True)

    References
    ----------
    Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science* (2023).
    Angelopoulos, Duchi & Zrnic, "PPI++: Efficient prediction-powered inference", arXiv:2311.01453.
    Zrnic & Candès, "Active statistical inference", ICML 2024.
    Dorner, Nastl & Hardt, "Limits to scalable evaluation at the frontier: LLM as judge won't beat
    twice the data", ICLR 2025.
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    lam = ESTIMATORS[check_choice("estimator", estimator, tuple(ESTIMATORS))]
    check_choice("reference", reference, REFERENCES)
    missing = check_missing(missing)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    opts = checked_options(options)
    study = joined(ratings, predictions, gold, judge, missing)
    data = prepare(study, missing, opts.probabilities)
    pairs = _pairs(data.models, opts.pairs)
    ref = _reference(data.counts, reference)
    scored = _score(data, ref, pairs)
    est = fit(scored.y, scored.f, scored.unlabelled, lam=lam, weights=scored.v)
    estimates = _estimates(est, scored, level)
    m = len(data.models)
    accuracy = tuple(
        ModelAccuracy(name, e) for name, e in zip(data.models, estimates[:m], strict=True)
    )
    comparisons = tuple(Comparison(a, b, e) for (a, b), e in zip(pairs, estimates[m:], strict=True))
    return JudgeResult(
        judge=data.judge_name,
        judge_kind=data.judge_kind,
        reference=reference,
        estimator=estimator,
        design="uniform" if data.probabilities is None else "active",
        level=float(level),
        seed=None if seed is None else int(seed),
        n_labelled=len(data.labelled),
        n_unlabelled=len(data.items) - len(data.labelled),
        models=accuracy,
        comparisons=comparisons,
        frontier=_frontier(data, ref, scored, accuracy, level),
        gold=_gold(data, level),
        notes=_notes(data, estimator, accuracy, comparisons),
    )


def joined(ratings: Any, predictions: Any, gold: Any, judge: Any, missing: str) -> Study:
    """The inputs joined by item id with the judge (:func:`humanly.data.join`); a Study as it is."""
    if not isinstance(ratings, Study):
        if judge is None:
            raise TypeError(
                "judge=None: give the judge's labels or class probabilities per item (or a Study "
                "that carries them, built with humanly.data.join(..., judge=...))"
            )
        if predictions is None:
            raise TypeError(
                "predictions=None: give the models' predictions on every item (a "
                "humanly.Predictions, or a dict of pandas Series indexed by item id)"
            )
    return join(ratings, predictions, gold, judge=judge, missing=missing)  # type: ignore[arg-type]


def judge_study(study: Study, *, level: float = 0.95, seed: int | None = 0) -> JudgeResult | None:
    """The judge analysis of a study that carries a judge, as :func:`humanly.analyze` runs it.

    The models given as labels or probabilities are evaluated (a score has no class to compare with
    the judge's); the defaults of :func:`judge` otherwise.

    Parameters
    ----------
    study : Study
        Ratings (items with no label are the unlabelled ones), predictions, gold and ``judge``.
    level : float
        The level of every interval.
    seed : int or None
        Recorded in the result.

    Returns
    -------
    JudgeResult or None
        ``None`` when the study carries no judge.

    Raises
    ------
    InputError
        The analysis cannot run (no model given as labels or probabilities, every item labelled,
        fewer than 2 labelled items, classes that differ, ...).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from humanly import Ratings
    >>> from humanly.data import join
    >>> counts = np.zeros((500, 2), dtype=int)
    >>> counts[:100, 1] = 1  # 100 items labelled 1 by one rater; 400 with no label
    >>> r = Ratings.from_counts(counts, classes=[0, 1])
    >>> model = {"m": pd.Series(1, index=r.items)}
    >>> judge_study(join(r, model)) is None
    True
    >>> judge_study(join(r, model, judge=pd.Series(1, index=r.items))).n_unlabelled
    400
    """
    if study.judge is None:
        return None
    preds = study.predictions
    usable = [m.name for m in preds.models if m.kind in ("label", "proba")] if preds else []
    if not usable or preds is None:
        raise InputError(
            "predictions: the judge analysis needs at least one model given as labels or "
            "probabilities; give the models' predictions"
        )
    return judge(
        dataclasses.replace(study, predictions=preds.select(usable)), level=level, seed=seed
    )


def _pairs(models: tuple[str, ...], pairs: Any) -> tuple[tuple[str, str], ...]:
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


def _reference(counts: np.ndarray, reference: str) -> np.ndarray:
    """Per labelled item, the credit each class earns against the human reference (n × classes)."""
    if reference == "plurality":
        return plurality_shares(counts)
    return counts / counts.sum(axis=1, keepdims=True)


@dataclasses.dataclass(frozen=True)
class _Scored:
    """Y and f on the labelled items (one column per estimand: the models, then the pairs), the
    judge's scores on the unlabelled items as :class:`~._ppi.Moments`, the labelled items' weights
    (active design), and the lower end of each estimand's range (0, or −1 for a difference)."""

    y: np.ndarray
    f: np.ndarray
    unlabelled: Any
    v: np.ndarray | None
    limits: np.ndarray


def _contrasts(x: np.ndarray, pairs: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The models' columns of ``x`` followed by one difference column per pair."""
    if not pairs:
        return x
    return np.column_stack([x, *(x[:, a] - x[:, b] for a, b in pairs)])


def _score(data: JudgeInputs, ref: np.ndarray, pairs: tuple[tuple[str, str], ...]) -> _Scored:
    index = {name: k for k, name in enumerate(data.models)}
    ab = tuple((index[a], index[b]) for a, b in pairs)
    lab, unl = data.labelled, data.unlabelled
    y = np.take_along_axis(ref, data.model_codes[lab].astype(np.intp), axis=1)
    v = w = None
    if data.probabilities is not None:
        v = (1.0 / data.probabilities[lab])[:, None]
        w = (1.0 / (1.0 - data.probabilities[unl]))[:, None]
    limits = np.where(np.arange(len(data.models) + len(ab)) < len(data.models), 0.0, -1.0)
    return _Scored(
        _contrasts(y, ab),
        _contrasts(data.scores(lab), ab),
        moments(_contrasts(data.scores(unl), ab), w),
        v,
        limits,
    )


def _num(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _clipped(low: float, high: float, floor: float) -> Interval:
    return Interval(float(np.clip(low, floor, 1.0)), float(np.clip(high, floor, 1.0)))


def _estimates(est: Fit, scored: _Scored, level: float) -> list[Estimate]:
    low, high = est.interval(level)
    c_low, c_high = est.classical_interval(level)
    eff = est.effective_n
    out = []
    for k in range(len(est.point)):
        floor = float(scored.limits[k])
        out.append(
            Estimate(
                point=float(np.clip(est.point[k], floor, 1.0)),
                interval=_clipped(low[k], high[k], floor),
                se=float(est.se[k]),
                lam=float(est.lam[k]),
                classical_point=float(np.clip(est.classical_point[k], floor, 1.0)),
                classical=_clipped(c_low[k], c_high[k], floor),
                effective_n=_num(eff[k]),
                saving=_num(eff[k] / est.n[k]),
                correlation=_num(est.rho[k]),
                sd=float(est.sd[k]),
                n=int(est.n[k]),
            )
        )
    return out


def _mean_interval(x: np.ndarray, v: np.ndarray | None, level: float, floor: float = 0.0):
    point, se = classical(x, v)
    z = z_value(level)
    return float(point[0]), _clipped(point[0] - z * se[0], point[0] + z * se[0], floor)


def _frontier(
    data: JudgeInputs,
    ref: np.ndarray,
    scored: _Scored,
    accuracy: tuple[ModelAccuracy, ...],
    level: float,
) -> FrontierCheck:
    """The judge's accuracy (its most probable class) and each model's on the labelled items, and
    their paired difference: is the judge more accurate than the model (Dorner, Nastl & Hardt)?"""
    codes = data.judge_codes[data.labelled]
    judge_y = ref[np.arange(len(codes)), codes]
    j_point, j_interval = _mean_interval(judge_y, scored.v, level)
    rows = []
    for k, acc in enumerate(accuracy):
        model_y = scored.y[:, k]
        m_point, m_interval = _mean_interval(model_y, scored.v, level)
        d_point, d_interval = _mean_interval(judge_y - model_y, scored.v, level, floor=-1.0)
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
    return FrontierCheck(j_point, j_interval, len(codes), tuple(rows))


def _gold(data: JudgeInputs, level: float) -> tuple[GoldAccuracy, ...]:
    if data.gold is None:
        return ()
    has = data.gold >= 0
    if not has.any():
        return ()
    g = data.gold[has]
    named = [(name, "model", data.model_codes[has, k]) for k, name in enumerate(data.models)]
    named.append((data.judge_name, "judge", data.judge_codes[has]))
    out = []
    for name, role, codes in named:
        point, interval = _mean_interval((codes == g).astype(float), None, level)
        out.append(GoldAccuracy(name, role, int(has.sum()), point, interval))
    return tuple(out)


def _notes(
    data: JudgeInputs,
    estimator: str,
    accuracy: tuple[ModelAccuracy, ...],
    comparisons: tuple[Comparison, ...],
) -> tuple[str, ...]:
    notes = []
    n = len(data.labelled)
    if n < SMALL_N:
        notes.append(
            f"only {n} labelled items: below {SMALL_N} the CLT intervals may cover less often than "
            "their level; label more items"
        )
    named = [(m.model, m.accuracy) for m in accuracy]
    named += [(f"{c.first} − {c.second}", c.difference) for c in comparisons]
    for name, e in named:
        if not e.se > 0:
            notes.append(
                f"{name}: every labelled item scores the same, so the interval has width 0; "
                "label more items"
            )
        elif estimator == "ppi++" and e.lam == 0.0:
            notes.append(
                f"{name}: λ̂ = 0, the judge's scores do not track the human reference, so "
                "the estimate is the human-only one"
            )
    return tuple(notes)
