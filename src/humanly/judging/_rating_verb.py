"""The judge analysis of ratings (:func:`humanly.judge` on a :class:`~humanly.data.RatingStudy`): each
model's mean rating, the share of its outputs rated at or above a threshold and a quantile of its
rating, and each pair's paired differences, from human ratings on some items and the judges' on
all.

The columns of the estimation problem (:mod:`humanly.judging._estimation`): per model its human
rating y and each judge's rating f (the mean); with ``threshold`` the indicators 1{y ≥ k} and
1{f ≥ k} (the share); per pair the per-item differences of both (paired: what the items share
cancels). Strata, several judges, sampling weights, a cross-fitted judge and the small-sample rule
apply to all of them as to accuracies. The quantile is ppi-python's ``ppi_quantile_ci`` (one judge,
no strata; :func:`humanly.judging._scores.fit_quantile`).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from .._core.parallel import beside
from .._core.result import Interval
from ..errors import InputError, setting
from . import _design, _scores
from ._blocks import Blocks
from ._crossfit import folds_of
from ._estimation import ESTIMATORS, Problem, Setup, estimate, result_codes
from ._parts import Estimate
from ._rated_results import ModelRating, RatingComparison
from .extended import DesignCheck, QuantileEstimate
from .results import JudgeResult

__all__ = ["judge_ratings"]


def _checked(study: Any, judge: Any, estimator: str, opts: Any) -> None:
    if judge is not None:
        raise InputError(
            f"{setting('judge')} with a RatingStudy: the study carries the judges' ratings; drop "
            f"{setting('judge')} (or "
            "give them to humanly.data.join_ratings)"
        )
    if opts.strata is not None or opts.sampling_weights is not None:
        raise InputError(
            "options.strata: a RatingStudy carries its strata and sampling weights; give them to "
            f"humanly.data.join_ratings ({setting('strata')}, {setting('sampling_weights')})"
        )
    if opts.probabilities is not None:
        raise InputError(
            "options.probabilities: give a rating study's sampling weights to "
            f"humanly.data.join_ratings ({setting('sampling_weights')})"
        )
    if len(study.judges) > 1 and estimator == "ppi":
        raise InputError(
            f"{setting('estimator', 'ppi')} with {len(study.judges)} judges: PPI's λ = 1 is for one judge; "
            "use "
            f"{setting('estimator', 'ppi++')}"
        )
    if opts.quantile is not None:
        why = None
        if len(study.judges) > 1:
            why = f"{len(study.judges)} judges"
        elif study.design is not None and study.design.strata is not None:
            why = "strata"
        elif opts.fitted_on_labels:
            why = f"{setting('fitted_on_labels', True)}"
        if why:
            raise InputError(
                f"options.quantile with {why}: the PPI quantile (ppi-python's ppi_quantile_ci) is "
                "for one judge, no strata and a judge not fitted on the labels; leave quantile out"
            )


def _scale(study: Any, opts: Any) -> tuple[float, float]:
    if opts.scale is not None:
        return float(opts.scale[0]), float(opts.scale[1])
    if study.scale is not None:
        return study.scale
    human = study.human[~np.isnan(study.human)]
    low = float(min(study.judge.min(), human.min()))
    high = float(max(study.judge.max(), human.max()))
    return (low, high if high > low else low + 1.0)


def _problem(
    study: Any,
    threshold: float | None,
    scale: tuple[float, float],
    unl: np.ndarray,
    by_stratum: bool = False,
):
    """The columns: the models' means, their shares, the pairs' mean and share differences; the
    unlabelled items in the order of ``unl`` (grouped by stratum: every sum within a stratum runs
    over the same items in the same order as in item order), built one stratum at a time when they
    are in stratum order (``by_stratum``: :class:`~humanly.judging._blocks.Blocks`). Each array is
    allocated once, at its final size, and its blocks written in place (a million unlabelled items
    × 3 models × 3 judges are neither stacked nor concatenated again)."""
    lab = study.labelled
    m = len(study.models)
    pairs = list(itertools.combinations(range(m), 2))
    lo, hi = scale
    # (kind, columns, range of the estimate, range of one score), in the order _columns writes them
    blocks: list[tuple[str, int, tuple[float, float], tuple[float, float]]] = [
        ("mean", m, (lo, hi), (lo, hi))
    ]
    if threshold is not None:
        blocks.append(("mean", m, (0.0, 1.0), (0.0, 1.0)))
    if pairs:
        blocks.append(("difference", len(pairs), (lo - hi, hi - lo), (lo, hi)))
        if threshold is not None:
            blocks.append(("difference", len(pairs), (-1.0, 1.0), (0.0, 1.0)))
    y = _columns(study.human[lab], threshold, pairs)  # n × K
    f = _columns(np.moveaxis(study.judge[:, lab, :], 0, 2), threshold, pairs)  # n × K × J

    def unlabelled(at: np.ndarray) -> np.ndarray:
        return _columns(np.moveaxis(study.judge[:, at, :], 0, 2), threshold, pairs)

    judges = study.judge.shape[0]
    fu = Blocks(unlabelled, unl, y.shape[1], judges) if by_stratum else unlabelled(unl)
    kinds, low, high, s_low, s_high = [], [], [], [], []
    for kind, width, rng, one in blocks:
        kinds.extend([kind] * width)
        low.extend([rng[0]] * width)
        high.extend([rng[1]] * width)
        s_low.extend([one[0]] * width)
        s_high.extend([one[1]] * width)
    problem = Problem(
        y=y,
        f=f,
        fu=fu,
        kinds=tuple(kinds),
        low=np.array(low),
        high=np.array(high),
        scale_low=np.array(s_low),
        scale_high=np.array(s_high),
        judges=study.judges,
    )
    return problem, pairs


def _columns(x: np.ndarray, threshold: float | None, pairs: list[tuple[int, int]]) -> np.ndarray:
    """``x`` (items × models, or items × models × judges) followed, along the models' axis, by each
    model's share at or above ``threshold`` (NaN stays NaN), each pair's difference of ``x``, and
    each pair's difference of the shares: one array, its blocks written in place."""
    m = x.shape[1]
    shares = threshold is not None
    width = m * (1 + shares) + len(pairs) * (1 + shares)
    out = np.empty((x.shape[0], width, *x.shape[2:]), dtype=float)
    out[:, :m] = x
    at = m
    if threshold is not None:
        share = out[:, m : 2 * m]
        np.greater_equal(out[:, :m], threshold, out=share, casting="unsafe")
        missing = np.isnan(out[:, :m])
        if missing.any():
            share[missing] = np.nan
        at = 2 * m
    for base in (0, m) if shares else (0,):
        for a, b in pairs:
            np.subtract(out[:, base + a], out[:, base + b], out=out[:, at])
            at += 1
    return out


def _quantiles(study: Any, q: float | None, level: float, weights: Any) -> list[Any]:
    if q is None:
        return [None] * len(study.models)
    lab = study.labelled
    out = []
    for m in range(len(study.models)):
        v, w = (None, None) if weights is None else weights
        r = _scores.fit_quantile(
            study.human[lab, m],
            study.judge[0, lab, m],
            study.judge[0, ~lab, m],
            q,
            level=level,
            weights=v,
            weights_unlabelled=w,
        )
        ends = (None if np.isnan(r.low) else r.low, None if np.isnan(r.high) else r.high)
        out.append(
            QuantileEstimate(
                q,
                r.point,
                Interval(*ends),
                r.classical_point,
                Interval(r.classical_low, r.classical_high),
                r.n,
                r.n_unlabelled,
                r.method,
            )
        )
    return out


def _design_check(study: Any, seed: int | None, weighted: bool) -> DesignCheck:
    lab = study.labelled
    j, _, m = study.judge.shape
    # each model's rating by each judge, one column at a time (not copied into one matrix first)
    columns = [study.judge[judge, :, model] for model in range(m) for judge in range(j)]
    several = len(study.judges) > 1
    names = [
        f"{judge + ': ' if several else ''}rating of {model}"
        for model in study.models
        for judge in study.judges
    ]
    strata = None if study.design is None else study.design.strata
    return _design.check(columns, lab, strata=strata, names=names, seed=seed, weighted=weighted)


def judge_ratings(
    study: Any, judge: Any, level: float, estimator: str, missing: str, seed: int | None, opts: Any
) -> JudgeResult:
    """The judge analysis of a rating study (see the module docstring)."""
    _checked(study, judge, estimator, opts)
    lab = study.labelled
    design = study.design
    pi = None if design is None else design.probabilities
    weights = None
    if pi is not None:
        if (pi[~lab] >= 1).any():
            raise InputError(
                f"{design.weights_source}: an unlabelled item has weight 1 (sent to raters for sure) "
                "but no human rating; give its ratings, or its sampling weight"
            )
        weights = (1.0 / pi[lab], 1.0 / (1.0 - pi[~lab]))
    codes = None if design is None or design.strata is None else design.strata
    strata = names = None
    unl = np.flatnonzero(~lab)
    if codes is not None:
        inverse, uniques = pd.factorize(codes, sort=True)  # np.unique's, hashed not sorted
        if not opts.fitted_on_labels:  # each stratum's unlabelled items a slice, not a copy
            unl = unl[np.argsort(inverse[unl], kind="stable")]
        strata = (inverse[lab], inverse[unl])
        names = tuple(str(u) for u in uniques)
        if weights is not None and pi is not None:
            weights = (weights[0], 1.0 / (1.0 - pi[unl]))
    if opts.fitted_on_labels and weights is not None:
        raise InputError(
            "options.fitted_on_labels with sampling weights: cross-fitting is for a simple random "
            "sample of labelled items; give one of them"
        )
    scale = _scale(study, opts)
    by_stratum = strata is not None and not opts.fitted_on_labels
    problem, pairs = _problem(study, opts.threshold, scale, unl, by_stratum)
    setup = Setup(
        lam=ESTIMATORS[estimator],
        level=level,
        interval=opts.interval,
        judge_kind="rating",
        strata=strata,
        strata_names=names or (),
        weights=weights,
        folds=folds_of(int(lab.sum()), opts.folds, seed) if opts.fitted_on_labels else None,
    )
    # the design check (the judges' outputs on every item) needs nothing the estimates make
    estimates, checked = beside(
        lambda: _design_check(study, seed, weighted=weights is not None),
        lambda: estimate(problem, setup),
    )
    ratings, comparisons = _assembled(study, estimates, pairs, opts.threshold)
    quantiles = _quantiles(study, opts.quantile, level, weights)
    ratings = [
        ModelRating(r.model, r.mean, r.share, q) for r, q in zip(ratings, quantiles, strict=True)
    ]
    return JudgeResult(
        judge=" + ".join(study.judges),
        judge_kind="rating",
        reference="rating",
        estimator=estimator,
        design="active" if weights is not None else ("stratified" if strata else "uniform"),
        level=float(level),
        seed=seed,
        n_labelled=int(lab.sum()),
        n_unlabelled=int((~lab).sum()),
        models=(),
        comparisons=(),
        frontier=None,
        notes=study.notes,
        judges=study.judges if len(study.judges) > 1 else (),
        codes=result_codes(estimates, checked.code, None, opts.fitted_on_labels),
        design_check=checked,
        folds=opts.folds if opts.fitted_on_labels else None,
        ratings=tuple(ratings),
        rating_comparisons=tuple(comparisons),
        threshold=None if opts.threshold is None else float(opts.threshold),
        quantile=None if opts.quantile is None else float(opts.quantile),
    )


def _assembled(
    study: Any, estimates: list[Estimate], pairs: list[tuple[int, int]], threshold: Any
) -> tuple[list[ModelRating], list[RatingComparison]]:
    """The estimates in the problem's column order, as one row per model and per pair."""
    m, p = len(study.models), len(pairs)
    it = iter(estimates)
    means = [next(it) for _ in range(m)]
    shares = [next(it) for _ in range(m)] if threshold is not None else [None] * m
    mean_d = [next(it) for _ in range(p)]
    share_d = [next(it) for _ in range(p)] if threshold is not None else [None] * p
    models = study.models
    ratings = [ModelRating(models[k], means[k], shares[k]) for k in range(m)]
    comparisons = [
        RatingComparison(models[a], models[b], mean_d[i], share_d[i])
        for i, (a, b) in enumerate(pairs)
    ]
    return ratings, comparisons
