"""Survey power curve, classifier scores and survey equivalence with bootstrap ranges (Survey
Equivalence, Algorithms 1, 3 and 4, section 3.3): the public functions, each a short sequence of named
steps — check the arguments, join the inputs by item id, prepare, run the replicates, read the results.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Literal

import numpy as np

from .._core.bootstrap import percentile_interval
from .._core.checks import check_bootstrap, check_probability
from .._core.result import Interval, Note, NoteValue
from ..data import InputError, Study, join
from ..data.types import PredictionsLike, RatingsLike
from ..errors import setting
from ._prepare import Options, Prepared, check_options, prepare
from ._replicates import Replicates, run
from .calibration import DEFAULT_CALIBRATION
from .crossing import (
    curve_points,
    equivalence_mean,
    equivalence_point,
    equivalence_replicates,
    flag_points,
    information_intervals,
    model_information_interval,
    straight_interval,
)
from .headroom import headroom as estimate_headroom
from .options import EquivalenceOptions, checked, only
from .results import EquivalenceResult, Headroom, ModelEquivalence, PowerCurve, PowerCurvePoint
from .targets import check_target_options, with_targets

__all__ = ["equivalence", "power_curve"]

#: What to do with items that have ratings but no prediction, or predictions but no ratings.
Missing = Literal["error", "drop"]


def _information_view(opts: Options) -> bool:
    """c_k − c_0 is an information (bits) for the ABC scored by cross-entropy (Theorem 1)."""
    return opts.combiner.name == "abc" and opts.scorer.name == "cross_entropy"


def _headroom(prep: Prepared, wanted: bool) -> Headroom | None:
    if not wanted:
        return None
    if not _information_view(prep.options):
        raise InputError(
            f"options.headroom=True needs {setting('combiner', 'abc')} and "
            f"{setting('scorer', 'cross_entropy')}; leave it False"
        )
    return estimate_headroom(prep.ratings)


def _headroom_notes(head: Headroom | None) -> tuple[Note, ...]:
    if head is None or head.converged:
        return ()
    return (
        Note(
            "headroom_not_converged",
            {"steps": head.iterations, "gap": math.nan if head.gap is None else head.gap},
        ),
    )


def _model_rows(
    prep: Prepared, reps: Replicates, ks: np.ndarray, head: Headroom | None, level: float
) -> tuple[ModelEquivalence, ...]:
    """One row per model: score and equivalence with their ranges and bootstrap mean, information,
    its range and the performance ratio."""
    info = _information_view(prep.options)
    n_ref = int(prep.engine.ref_elig.sum())
    rows = []
    for j, name in enumerate(prep.model_names):
        h = float(reps.scores[j])
        eq, note = equivalence_point(ks, reps.curve, h)
        score_interval = eq_range = Interval(None, None)
        mean = None
        scores = None if reps.models is None else reps.models[:, j]
        if scores is not None and reps.curves is not None:
            score_interval = percentile_interval(scores, level)
            values = equivalence_replicates(ks, reps.curves, scores)
            eq_range = percentile_interval(values, level)
            mean = equivalence_mean(values)
        gain = float(h - reps.curve[0]) if info else None
        ratio = None
        if head is not None and gain is not None and head.information > 0:
            ratio = gain / head.information
        rows.append(
            ModelEquivalence(
                model=name,
                score=h,
                score_interval=score_interval,
                equivalence=eq,
                equivalence_note=note,
                equivalence_interval=eq_range,
                n_items=n_ref,
                information=gain,
                information_interval=(
                    model_information_interval(reps.curves, scores, level) if info else None
                ),
                performance_ratio=ratio,
                equivalence_mean=mean,
                calibration=prep.calibrations[j],
                uncalibrated=prep.uncalibrated[j],
            )
        )
    return tuple(rows)


def _inputs(ratings: Any, predictions: Any, missing: Missing) -> Study:
    """The study: a :class:`~humanly.data.Study` as given, or the inputs joined by item id."""
    return join(ratings, predictions, missing=missing)


def equivalence(
    ratings: RatingsLike,
    predictions: PredictionsLike | None = None,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    calibrate: str = DEFAULT_CALIBRATION,
    bootstrap: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    missing: Missing = "error",
    options: EquivalenceOptions | None = None,
) -> EquivalenceResult:
    """How many human raters each model is worth: survey equivalence (Algorithm 4) against the survey
    power curve (Algorithm 3), with bootstrap ranges.

    The power curve c_k is the expected score of k raters' combined labels at predicting held-out
    raters; a model's score (Algorithm 1) read off the curve is its survey equivalence: the
    fractional k where the curve first reaches it. Ratings are all it reads — no gold.

    Parameters
    ----------
    ratings : Ratings, DataFrame, path or Study
        The crowd's labels in any form :func:`humanly.data.read_ratings` reads, or a
        :class:`~humanly.data.Study` (which carries the predictions).
    predictions : optional
        The models' outputs in any form :func:`humanly.data.join` accepts, joined by item id; ``None``:
        the power curve only.
    combiner : str or object
        ``"majority"`` (two classes), ``"plurality"``, ``"frequency"``, ``"abc"`` (the Anonymous
        Bayesian Combiner, Algorithms 5–6) or a combiner object (:mod:`humanly.survey.combiners`;
        :func:`~humanly.survey.matrix_combiner` for one that sees the whole rating matrix).
    scorer : str or callable
        ``"cross_entropy"`` (bits), ``"agreement"``, ``"precision"``, ``"recall"``, ``"f1"``,
        ``"auc"``, ``"dmi"``, ``"pearson"``, ``"spearman"``, or a callable ``f(y_true, y_prob)``
        (:func:`~humanly.survey.make_scorer`).
    calibrate : {"auto", "none", "isotonic", "temperature", "per-value"}
        How each model's outputs are calibrated against the ratings before scoring (Appendix A;
        :mod:`humanly.survey.calibration`). The default, ``"auto"``
        (:data:`~humanly.survey.calibration.DEFAULT_CALIBRATION`, also the command line's and the
        report's), does what the paper does: with cross-entropy it calibrates in-sample (isotonic;
        per-value for labels and scores of more than two classes), with any other scorer it scores
        the outputs as given. ``"none"`` with cross-entropy scores the raw outputs, and each
        verdict then says so (:attr:`ModelEquivalence.uncalibrated`).
    bootstrap : int
        Bootstrap replicates over items (replicate b draws from ``stream(seed, b)``); 0: no ranges.
    level : float
        The confidence level of every percentile range.
    seed : int or None
        The seed of every random step.
    missing : {"error", "drop"}
        Ids that do not match between ratings and predictions are an error, or only the items both
        have are kept.
    options : EquivalenceOptions, optional
        The rarer knobs: method, calibration folds, reference size, largest survey, positive class,
        clipping, draws, headroom, dask and the progress bar.

    Returns
    -------
    EquivalenceResult
        The power curve, one row per model and, for the ABC scored by cross-entropy, the information
        view (c_k − c_0 in bits) and the headroom when asked.

    Raises
    ------
    InputError
        For inputs that cannot be read or joined, settings out of range, or a combiner, scorer or
        method the data do not allow (one sentence says what to change).

    See Also
    --------
    power_curve : the curve alone.
    truth_equivalence : the same against the true item states of a simulation.
    EquivalenceResult.items_needed : the items a narrower range would need.

    References
    ----------
    Resnick, P., Kong, Y., Schoenebeck, G. & Weninger, T. (2021). Survey Equivalence: A Procedure for
    Measuring Classifier Accuracy Against Human Labels. arXiv:2106.01254.

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> d = running_example(200, 5, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=0)
    >>> [p.k for p in res.power_curve], round(res.model("soft").equivalence, 2), res.calibration
    ([0, 1, 2, 3, 4], 1.8, 'isotonic (in-sample)')
    >>> res.to_frame().set_index("model")["score"].round(3).to_dict()
    {'hard': -0.84, 'soft': -0.84}
    >>> raw = equivalence(d.ratings, d.predictions, calibrate="none", bootstrap=0)
    >>> raw.to_frame().set_index("model")["score"].round(3).to_dict(), raw.model("soft").uncalibrated
    ({'hard': -1.54, 'soft': -0.847}, True)
    """
    opts = checked(options)
    n_boot = int(check_bootstrap(bootstrap, bytes_per_replicate=8))
    level = float(check_probability("level", level, open_low=True, open_high=True))
    only(opts, _EQUIVALENCE_FIELDS, "equivalence")
    checked_opts = check_options(
        combiner=combiner, scorer=scorer, calibrate=calibrate, seed=seed, options=opts
    )
    check_target_options(checked_opts, opts.targets)
    study = _inputs(ratings, predictions, missing)
    study.ratings.require_classes("equivalence")

    def at_size(r: int, head: bool = False) -> EquivalenceResult:
        """The analysis against r held-out raters (the top level: ``reference_size``)."""
        prep = prepare(
            study.ratings, study.predictions, dataclasses.replace(checked_opts, reference_size=r)
        )
        run_opts = (opts.workers, opts.scheduler, opts.client, opts.progress, opts.every_k)
        reps = run(prep.engine, n_boot, checked_opts.seed, *run_opts)
        return _result(prep, reps, n_boot, level, _headroom(prep, head))

    main = at_size(checked_opts.reference_size, opts.headroom)
    if opts.targets is None:
        return main
    return with_targets(main, study, checked_opts, opts.targets, n_boot, level, at_size)


#: The fields of :class:`EquivalenceOptions` that :func:`equivalence` reads.
_EQUIVALENCE_FIELDS = (
    "method",
    "calibration_folds",
    "reference_size",
    "max_k",
    "positive",
    "clip",
    "draws",
    "headroom",
    "every_k",
    "targets",
)


def _result(
    prep: Prepared, reps: Replicates, n_boot: int, level: float, head: Headroom | None
) -> EquivalenceResult:
    """The result from the prepared inputs and the replicates: curve points, model rows, information
    and its ranges (taken replicate by replicate, and kept as numbers, so a result read back from its
    JSON, without the replicates, shows the same ranges)."""
    opts = prep.options
    ks = prep.engine.plan.ks
    points = curve_points(
        ks, reps.curve, reps.n_items, reps.curves, level, reps.computed, reps.fallback
    )
    info = _information_view(opts)
    points, reach, why = flag_points(points, info)
    shown = np.array([p.score for p in points])
    return EquivalenceResult(
        combiner=opts.combiner.name,
        scorer=opts.scorer.name,
        method=opts.method,
        n_items=int(prep.ratings.n_items),
        bootstrap=n_boot,
        level=level,
        seed=opts.seed,
        reference_size=opts.reference_size,
        calibration=prep.calibration,
        classes=tuple(prep.ratings.classes),
        positive=prep.positive,
        power_curve=points,
        models=_model_rows(prep, reps, ks, head, level),
        information=tuple(float(c - shown[0]) for c in shown) if info else None,
        information_intervals=_information_intervals(reps, points, level) if info else None,
        headroom=head,
        notes=prep.notes + _headroom_notes(head) + _grid_notes(points),
        curve_samples=reps.curves,
        model_samples=reps.models,
        informative_max_k=reach,
        informative_reason=why,
    )


def _information_intervals(
    reps: Replicates, points: tuple[PowerCurvePoint, ...], level: float
) -> tuple[Interval, ...]:
    """The range of c_k − c_0 at each k, replicate by replicate where every replicate was computed,
    drawn straight between those k elsewhere."""
    exact: list[Interval | None] = [
        r if p.computed == "exact" else None
        for p, r in zip(points, information_intervals(reps.curves, points, level), strict=True)
    ]
    ks = np.array([p.k for p in points])
    return tuple(
        r if r is not None else straight_interval(ks, exact, j) for j, r in enumerate(exact)
    )


def _grid_notes(points: tuple[PowerCurvePoint, ...]) -> tuple[Note, ...]:
    """What was computed, when not every k was (one note, for the reader of the numbers)."""
    done = tuple(p.k for p in points if p.computed == "exact")
    if len(done) == len(points):
        return ()
    score = sum(p.computed == "score" for p in points)
    rest = len(points) - len(done) - score
    values: dict[str, NoteValue] = {
        "computed": done,
        "sizes": len(points),
        "score": score,
        "rest": rest,
    }
    return (Note("curve_partly_computed", values),)


def power_curve(
    ratings: Any,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    bootstrap: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    options: EquivalenceOptions | None = None,
) -> PowerCurve:
    """The survey power curve c_0 … c_K' (Algorithm 3) with bootstrap ranges (section 3.3).

    Parameters
    ----------
    ratings : Ratings, DataFrame, path or Study
        The crowd's labels in any form :func:`humanly.data.read_ratings` reads (a
        :class:`~humanly.data.Study`'s predictions are not read).
    combiner : str or object
        The combiner of k labels (see :func:`equivalence`).
    scorer : str or callable
        The scorer (see :func:`equivalence`).
    bootstrap : int
        Bootstrap replicates over items; 0: no ranges.
    level : float
        The confidence level of the ranges.
    seed : int or None
        The seed of every random step.
    options : EquivalenceOptions, optional
        The rarer knobs (``method``, ``reference_size``, ``max_k``, ``positive``, ``clip``,
        ``draws``, dask and the progress bar).

    Returns
    -------
    PowerCurve
        The curve, with the range of c_k − c_0 at each k for the ABC scored by cross-entropy.

    Raises
    ------
    InputError
        For ratings that cannot be read and settings out of range.

    See Also
    --------
    equivalence : the curve with each model placed on it.

    Examples
    --------
    >>> from humanly.simulate import running_example
    >>> d = running_example(200, 5, seed=1)
    >>> pc = power_curve(d.ratings, combiner="majority", scorer="agreement", bootstrap=0)
    >>> pc.to_frame()[["k", "score"]].round(3).values.tolist()
    [[0.0, 0.5], [1.0, 0.682], [2.0, 0.682], [3.0, 0.717], [4.0, 0.717]]
    """
    opts = checked(options)
    only(opts, tuple(f for f in _EQUIVALENCE_FIELDS if f not in _MODELS_ONLY), "power_curve")
    study = ratings.ratings if isinstance(ratings, Study) else ratings
    return equivalence(
        study,
        None,
        combiner=combiner,
        scorer=scorer,
        bootstrap=bootstrap,
        level=level,
        seed=seed,
        options=dataclasses.replace(opts, calibration_folds=None, headroom=False),
    ).curve


#: Fields that only matter with predictions (or, for the headroom, only in an EquivalenceResult).
_MODELS_ONLY = ("calibration_folds", "headroom", "targets")
