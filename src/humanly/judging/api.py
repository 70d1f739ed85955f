"""``judge(ratings, predictions, judge=...)``: model accuracies from a few human labels and many judge
labels, as a sequence of named steps — check the arguments, join the inputs by item id (in
:mod:`humanly.data`: judges, strata, sampling weights), read what the estimators need
(:mod:`._inputs`), score every item (:mod:`._scoring`), estimate every model's accuracy and every
pair's difference (:mod:`._estimation`: strata, several judges, a cross-fitted judge, the
small-sample rule), and check the design, the judges against the models (self-judge) and the judge
against the models' accuracy (the frontier check). Ratings of the models' outputs (a
:class:`~humanly.data.RatingStudy`) go the same way through :mod:`._rating_verb`.

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
from typing import Any, Literal

import numpy as np

from .._core.checks import check_choice, check_int, check_number, check_probability
from .._core.parallel import beside
from ..data import Study, join
from ..data.matching import check_missing
from ..data.types import GoldLike, JudgeLike, PredictionsLike, RatingsLike
from ..errors import InputError, setting
from . import _scoring
from ._crossfit import folds_of
from ._estimation import ESTIMATORS, Setup, estimate, result_codes
from ._inputs import JudgeInputs, prepare
from ._small import INTERVALS
from .results import Comparison, JudgeResult, ModelAccuracy

__all__ = ["ESTIMATORS", "REFERENCES", "JudgeOptions", "judge", "judge_study"]

REFERENCES = ("label", "plurality")


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
        :func:`~humanly.judging.select`: the share of the expected items spread uniformly over the
        pool (the rest follows the judge's uncertainty); it keeps every weight 1/π bounded. Default 0.5.
    max_probability : float
        :func:`~humanly.judging.select`: no item is sent with a probability above this (< 1, so every
        item may stay unlabelled). Default 0.9.
    strata : pandas.Series, optional
        Each item's stratum (a prompt category, a bin of the judge's confidence), by item id, for
        every item; joined by :func:`humanly.data.join` (a study read with
        ``ReadOptions(strata=COLUMN)`` carries them already). Stratified PPI++: a λ per stratum, the
        strata combined by their shares (Fisch et al. 2024); in :func:`~humanly.judging.select`,
        the expected items split across the strata by the Neyman allocation.
    sampling_weights : pandas.Series, optional
        Each item's sampling weight 1/π (≥ 1), by item id, for every item: the estimates weight by
        them (as with ``probabilities``) and the design check does not apply.
    fitted_on_labels : bool
        The judge's scores are calibrated on the labelled items: a least-squares calibration (of
        several judges at once) is fitted on ``folds`` folds, each item scored by the fit that did
        not see it, then PPI (cross-PPI, Zrnic & Candès 2024); a judge fitted elsewhere on these
        very labels is refitted here only in its calibration.
    folds : int
        The folds of ``fitted_on_labels`` (default 10), drawn from the seed.
    interval : {"auto", "clt", "adjusted"}
        ``"auto"`` (default): below the n from which PPI's central-limit interval keeps its level
        in the coverage table of docs/judge.md (500 labelled items for one accuracy, 200 for a
        difference, 100 for a difference with a soft judge), the small-sample interval of the
        human labels alone (code ``small_sample``); from there on PPI's central-limit interval, as
        ppi-python computes it. ``"clt"``: always the central-limit one (the result has the code
        ``few_labels`` below that n); ``"adjusted"``: always the small-sample one.
    threshold : float, optional
        Ratings: also estimate the share of each model's outputs rated at or above it.
    quantile : float, optional
        Ratings: also estimate this quantile of each model's rating (in (0, 1); one judge, no
        strata).
    scale : tuple of float, optional
        Ratings: the scale's ends (low, high), e.g. (1, 5) (default: the least and greatest rating
        seen).

    Examples
    --------
    >>> JudgeOptions(pairs=(("a", "b"),)).mixing
    0.5
    >>> JudgeOptions(fitted_on_labels=True).folds
    10
    """

    probabilities: Any = None
    pairs: tuple[tuple[str, str], ...] | None = None
    mixing: float = 0.5
    max_probability: float = 0.9
    strata: Any = None
    sampling_weights: Any = None
    fitted_on_labels: bool = False
    folds: int = 10
    interval: str = "auto"
    threshold: float | None = None
    quantile: float | None = None
    scale: tuple[float, float] | None = None


def checked_options(options: Any) -> JudgeOptions:
    """``options`` itself (or the defaults for ``None``), every field checked; ``TypeError`` for
    anything else."""
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
    check_int("options.folds", options.folds, minimum=2)
    check_choice("options.interval", options.interval, INTERVALS)
    if not isinstance(options.fitted_on_labels, bool):
        raise TypeError(
            f"options.fitted_on_labels={options.fitted_on_labels!r}: give True or False"
        )
    check_number("options.threshold", options.threshold, allow_none=True)
    check_number(
        "options.quantile",
        options.quantile,
        minimum=0,
        maximum=1,
        open_low=True,
        open_high=True,
        allow_none=True,
    )
    if options.probabilities is not None and options.sampling_weights is not None:
        raise InputError(
            "options.probabilities and options.sampling_weights: give the design's sampling "
            "probabilities once"
        )
    return options


def judge(
    ratings: RatingsLike,
    predictions: PredictionsLike | None = None,
    gold: GoldLike | None = None,
    *,
    judge: JudgeLike | None = None,
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
    if type(ratings).__name__ == "RatingStudy":
        from ._rating_verb import judge_ratings

        return judge_ratings(ratings, judge, level, estimator, missing, seed, opts)
    study = joined(ratings, predictions, gold, judge, missing, opts)
    return _judge_classes(study, lam, level, estimator, reference, missing, seed, opts)


def _judge_classes(
    study: Study,
    lam: float | None,
    level: float,
    estimator: str,
    reference: str,
    missing: str,
    seed: int | None,
    opts: JudgeOptions,
) -> JudgeResult:
    """The judge analysis of a joined study of classes (see :func:`judge`)."""
    data = prepare(study, missing, opts.probabilities)
    _checked_judges(data, estimator, opts)
    pairs = _scoring.pairs_of(data.models, opts.pairs)
    ref = _scoring.reference_credit(data.counts, reference)
    unl = _unlabelled_by_stratum(data, opts)
    by_stratum = data.strata is not None and not opts.fitted_on_labels
    problem = _scoring.problem(data, ref, pairs, unl, by_stratum)
    v, setup = _setup(data, lam, level, seed, opts, unl)
    # the design check (the judges' outputs on every item) needs nothing the estimates make
    estimates, checked = beside(
        lambda: _scoring.design_check(data, seed, weighted=data.probabilities is not None),
        lambda: estimate(problem, setup),
    )
    m = len(data.models)
    accuracy = tuple(
        ModelAccuracy(name, e) for name, e in zip(data.models, estimates[:m], strict=True)
    )
    comparisons = tuple(Comparison(a, b, e) for (a, b), e in zip(pairs, estimates[m:], strict=True))
    self_judge = _scoring.self_judge(data)
    return JudgeResult(
        judge=data.judge_name,
        judge_kind=data.judge_kind,
        reference=reference,
        estimator=estimator,
        design=_design_name(data),
        level=float(level),
        seed=None if seed is None else int(seed),
        n_labelled=len(data.labelled),
        n_unlabelled=len(data.items) - len(data.labelled),
        models=accuracy,
        comparisons=comparisons,
        frontier=_scoring.frontier(data, ref, problem.y, v, accuracy, level),
        gold=_scoring.gold_accuracies(data, level),
        notes=_scoring.notes(estimator, accuracy, comparisons),
        judges=tuple(j.name for j in data.judges) if len(data.judges) > 1 else (),
        codes=result_codes(estimates, checked.code, self_judge.code, opts.fitted_on_labels),
        design_check=checked,
        self_judge=self_judge,
        folds=opts.folds if opts.fitted_on_labels else None,
    )


def _checked_judges(data: JudgeInputs, estimator: str, opts: JudgeOptions) -> None:
    if len(data.judges) > 1 and estimator == "ppi":
        raise InputError(
            f"{setting('estimator', 'ppi')} with {len(data.judges)} judges: PPI's λ = 1 is for one judge; "
            "use "
            f"{setting('estimator', 'ppi++')} (one tuned weight per judge)"
        )
    if opts.fitted_on_labels and data.probabilities is not None:
        raise InputError(
            "options.fitted_on_labels with sampling probabilities: cross-fitting is for a simple "
            "random sample of labelled items; give one of them"
        )


def _design_name(data: JudgeInputs) -> str:
    if data.probabilities is not None:
        return "active"
    return "stratified" if data.strata is not None else "uniform"


def _unlabelled_by_stratum(data: JudgeInputs, opts: JudgeOptions) -> np.ndarray:
    """The unlabelled items' positions, grouped by stratum (each stratum's in item order), so that a
    stratum's scores are a slice of the unlabelled ones, not a copy: every sum within a stratum runs
    over the same items in the same order, so the numbers are the same. Cross-fitting sums over all
    unlabelled items at once, in item order: there they stay in it."""
    unl = data.unlabelled
    if data.strata is None or opts.fitted_on_labels:
        return unl
    codes = data.strata[unl]
    small = len(data.strata_names) <= np.iinfo(np.uint16).max
    return unl[np.argsort(codes.astype(np.uint16) if small else codes, kind="stable")]


def _setup(
    data: JudgeInputs,
    lam: float | None,
    level: float,
    seed: int | None,
    opts: JudgeOptions,
    unl: np.ndarray,
) -> tuple[np.ndarray | None, Setup]:
    """The labelled items' weights 1/π (``None``: a simple random sample) and the estimators'
    setup; ``unl`` the unlabelled items in the order of the problem's."""
    lab = data.labelled
    v = w = None
    if data.probabilities is not None:
        v = 1.0 / data.probabilities[lab]
        w = 1.0 / (1.0 - data.probabilities[unl])
    strata = None if data.strata is None else (data.strata[lab], data.strata[unl])
    folds = folds_of(len(lab), opts.folds, seed) if opts.fitted_on_labels else None
    setup = Setup(
        lam=lam,
        level=level,
        interval=opts.interval,
        judge_kind=data.judge_kind,
        strata=strata,
        strata_names=data.strata_names,
        weights=None if v is None or w is None else (v, w),
        folds=folds,
    )
    return v, setup


def joined(
    ratings: Any,
    predictions: Any,
    gold: Any,
    judge: Any,
    missing: str,
    options: JudgeOptions | None = None,
) -> Study:
    """The inputs joined by item id with the judge, the strata and the sampling weights
    (:func:`humanly.data.join`); a Study as it is (with ``options``' strata and weights added)."""
    opts = options or JudgeOptions()
    design = {"strata": opts.strata, "sampling_weights": opts.sampling_weights}
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
    return join(ratings, predictions, gold, judge=judge, missing=missing, **design)  # type: ignore[arg-type]


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
