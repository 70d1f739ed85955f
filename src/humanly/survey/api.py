"""Survey power curve, classifier scores and survey equivalence with bootstrap ranges (Survey
Equivalence, Algorithms 1, 3 and 4, section 3.3): the public functions, each a short sequence of named
steps — check the arguments, join the inputs by item id, prepare, run the replicates, read the results.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np

from .._core.bootstrap import percentile_interval
from .._core.checks import check_int, check_number
from .._core.parallel import check_workers
from .._core.result import Interval
from ..data import InputError, join
from ._prepare import Options, Prepared, check_options, prepare
from ._replicates import Replicates, run
from .crossing import (
    curve_points,
    equivalence_mean,
    equivalence_point,
    equivalence_replicates,
    items_for_width,
)
from .headroom import headroom as estimate_headroom
from .results import EquivalenceResult, Headroom, ModelEquivalence, PowerCurve

__all__ = ["equivalence", "power_curve"]

#: What to do with items that have ratings but no prediction, or predictions but no ratings.
Missing = Literal["error", "drop"]


def _check_run(bootstrap: Any, headroom: Any, workers: int | None, scheduler: str | None) -> int:
    check_workers(workers, scheduler)
    if not isinstance(headroom, (bool, np.bool_)):
        raise TypeError(f"headroom={headroom!r}: give True or False")
    return int(check_int("bootstrap", bootstrap, minimum=0))


def _information_view(opts: Options) -> bool:
    """c_k − c_0 is an information (bits) for the ABC scored by cross-entropy (Theorem 1)."""
    return opts.combiner.name == "abc" and opts.scorer.name == "cross_entropy"


def _headroom(prep: Prepared, wanted: bool) -> Headroom | None:
    if not wanted:
        return None
    if not _information_view(prep.options):
        raise InputError('headroom=True needs combiner="abc" and scorer="cross_entropy"')
    return estimate_headroom(prep.ratings, seed=prep.options.seed)


def _headroom_notes(head: Headroom | None) -> tuple[str, ...]:
    if head is None or head.converged:
        return ()
    return (
        f"the headroom fit stopped after {head.iterations} steps without converging (its mean "
        f"log-likelihood may be up to {head.gap:.2g} nats per item below the maximum); raise max_iter "
        "with humanly.survey.headroom",
    )


def _model_rows(
    prep: Prepared,
    reps: Replicates,
    ks: np.ndarray,
    head: Headroom | None,
    target_width: float | None,
) -> tuple[ModelEquivalence, ...]:
    """One row per model: score and equivalence with their ranges and bootstrap mean, information,
    performance ratio and the items a target width needs."""
    info = _information_view(prep.options)
    n_ref = int(prep.engine.ref_elig.sum())
    rows = []
    for j, name in enumerate(prep.model_names):
        h = float(reps.scores[j])
        eq, note = equivalence_point(ks, reps.curve, h)
        score_range = eq_range = Interval(None, None)
        mean = needed = None
        if reps.models is not None and reps.curves is not None:
            score_range = percentile_interval(reps.models[:, j])
            values = equivalence_replicates(ks, reps.curves, reps.models[:, j])
            eq_range = percentile_interval(values)
            mean = equivalence_mean(values)
            if target_width is not None and eq_range.low is not None:
                width = None if eq_range.high is None else eq_range.high - eq_range.low
                needed = items_for_width(n_ref, width, target_width)
        gain = float(h - reps.curve[0]) if info else None
        ratio = None
        if head is not None and gain is not None and head.information > 0:
            ratio = gain / head.information
        rows.append(
            ModelEquivalence(
                name, h, *score_range, eq, note, *eq_range, n_ref, gain, ratio, mean, needed
            )
        )
    return tuple(rows)


def equivalence(
    ratings: Any,
    predictions: Any = None,
    *,
    missing: Missing = "error",
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    method: str | None = None,
    bootstrap: int = 500,
    seed: int | None = 0,
    calibrate: str = "none",
    calibration_folds: int | None = None,
    reference_size: int = 1,
    max_k: int | None = None,
    positive: Any = None,
    clip: tuple[float, float] = (0.02, 0.98),
    n_draws: int = 200,
    headroom: bool = False,
    target_width: float | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool = True,
) -> EquivalenceResult:
    """Survey equivalence of each model (Algorithm 4) against the survey power curve (Algorithm 3).

    Parameters
    ----------
    ratings, predictions, missing
        The crowd's labels (a :class:`~humanly.Ratings`, a long DataFrame or a file path) and the models'
        outputs in any form :func:`humanly.join` accepts, joined by item id (``missing="drop"`` keeps
        the items both have); ``predictions=None``: the power curve only.
    combiner, scorer
        ``"majority"``, ``"plurality"``, ``"frequency"``, ``"abc"`` (Anonymous Bayesian Combiner) or a
        combiner object (:mod:`~humanly.survey.combiners`); a scorer named in
        :data:`~humanly.survey.SCORERS` (``"cross_entropy"`` in bits) or a sklearn-like callable.
    method
        ``"exact"`` (hypergeometric expectation over rater subsets and reference raters; default for
        agreement and cross-entropy) or ``"sampled"`` (Algorithm 2; default for the others).
    bootstrap, seed
        Replicates over items (replicate b draws from ``stream(seed, b)``); 95% percentile ranges.
    calibrate, calibration_folds
        ``"none"``, ``"isotonic"`` or ``"per-value"``; in-sample (``None``, as the paper) or K-fold.
    reference_size, max_k
        r: score against the plurality of r held-out raters (section 6); the largest survey size
        (default: median labels per item − r, at most the most labels − r).
    positive, clip, n_draws
        Positive class (default: the second of two); frequency-combiner clipping (also for hard outputs
        under cross-entropy); rater subsets per level for ``method="sampled"`` (Algorithm 2: 200).
    headroom
        With ABC + cross-entropy, estimate the curve's asymptote by a nonparametric mixture
        (:func:`humanly.survey.headroom`) and each model's performance ratio.
    target_width
        For each model, how many items would bring the 95% bootstrap range of its equivalence below
        this many raters (``items_needed``), assuming the width shrinks as 1/√N — an approximation
        (needs ``bootstrap`` > 0).
    workers, scheduler, client
        Run bootstrap replicates on dask.distributed; the numbers are identical.

    >>> from humanly.simulate import running_example
    >>> d = running_example(200, 5, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=0, progress=False)
    >>> [p.k for p in res.power_curve], round(res.model("soft").equivalence, 2)
    ([0, 1, 2, 3, 4], 1.7)
    >>> res.to_frame().set_index("model")["score"].round(3).to_dict()
    {'hard': -1.54, 'soft': -0.847}
    """
    n_boot = _check_run(bootstrap, headroom, workers, scheduler)
    width = _check_width(target_width, n_boot)
    opts = check_options(
        combiner=combiner,
        scorer=scorer,
        method=method,
        calibrate=calibrate,
        calibration_folds=calibration_folds,
        reference_size=reference_size,
        max_k=max_k,
        positive=positive,
        clip=clip,
        n_draws=n_draws,
        seed=seed,
    )
    study = join(ratings, predictions, missing=missing)
    prep = prepare(study.ratings, study.predictions, opts)
    reps = run(prep.engine, n_boot, opts.seed, workers, scheduler, client, progress)
    return _result(prep, reps, n_boot, _headroom(prep, headroom), width)


def _check_width(target_width: Any, n_boot: int) -> float | None:
    width = check_number("target_width", target_width, minimum=0.0, open_low=True, allow_none=True)
    if width is not None and n_boot == 0:
        raise InputError(
            f"target_width={target_width!r} is read off the bootstrap ranges; pass bootstrap=200 or more"
        )
    return None if width is None else float(width)


#: Said in the result when ``target_width`` is given.
WIDTH_NOTE = (
    "items_needed assumes the 95% range of the equivalence narrows as 1/√N (an approximation; the "
    "curve's shape near the crossing can make it narrow faster or slower)"
)


def _result(
    prep: Prepared,
    reps: Replicates,
    n_boot: int,
    head: Headroom | None,
    target_width: float | None = None,
) -> EquivalenceResult:
    """The result from the prepared inputs and the replicates: curve points, model rows, information."""
    opts = prep.options
    ks = prep.engine.plan.ks
    res = EquivalenceResult(
        combiner=opts.combiner.name,
        scorer=opts.scorer.name,
        method=opts.method,
        n_items=int(prep.ratings.n_items),
        bootstrap=n_boot,
        seed=opts.seed,
        reference_size=opts.reference_size,
        calibration=opts.calibration,
        classes=tuple(prep.ratings.classes),
        positive=prep.positive,
        power_curve=curve_points(ks, reps.curve, reps.n_items, reps.curves),
        models=_model_rows(prep, reps, ks, head, target_width),
        information=(
            tuple(float(c - reps.curve[0]) for c in reps.curve) if _information_view(opts) else None
        ),
        headroom=head,
        notes=prep.notes + _headroom_notes(head) + ((WIDTH_NOTE,) if target_width else ()),
        curve_samples=reps.curves,
        model_samples=reps.models,
        target_width=target_width,
    )
    if res.information is None:
        return res
    # the ranges of c_k − c_0 are taken replicate by replicate: kept as numbers, so a result read
    # back from its JSON (without the replicates) shows the same ranges
    rows = tuple(
        dataclasses.replace(m, information_range=res.model_information_range(m.model))
        for m in res.models
    )
    return dataclasses.replace(res, models=rows, information_range=res.information_ranges())


def power_curve(
    ratings: Any,
    *,
    combiner: Any = "abc",
    scorer: Any = "cross_entropy",
    method: str | None = None,
    bootstrap: int = 500,
    seed: int | None = 0,
    reference_size: int = 1,
    max_k: int | None = None,
    positive: Any = None,
    clip: tuple[float, float] = (0.02, 0.98),
    n_draws: int = 200,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: bool = True,
) -> PowerCurve:
    """The survey power curve c_0..c_K' (Algorithm 3) with 95% bootstrap ranges (section 3.3).

    ``ratings`` is a :class:`~humanly.Ratings`, a long DataFrame or a file path; see
    :func:`equivalence` for the other parameters.

    >>> from humanly.simulate import running_example
    >>> d = running_example(200, 5, seed=1)
    >>> pc = power_curve(d.ratings, combiner="majority", scorer="agreement", bootstrap=0, progress=False)
    >>> pc.to_frame()[["k", "score"]].round(3).values.tolist()
    [[0.0, 0.5], [1.0, 0.682], [2.0, 0.682], [3.0, 0.717], [4.0, 0.717]]
    """
    return equivalence(
        ratings,
        None,
        combiner=combiner,
        scorer=scorer,
        method=method,
        bootstrap=bootstrap,
        seed=seed,
        reference_size=reference_size,
        max_k=max_k,
        positive=positive,
        clip=clip,
        n_draws=n_draws,
        workers=workers,
        scheduler=scheduler,
        client=client,
        progress=progress,
    ).curve
