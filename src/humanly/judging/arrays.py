"""The judge analysis's estimators and checks on plain arrays, one estimand at a time, in the style of
ppi-python: ``y`` the human reference on the labelled items, ``f`` the judge's score on the same
items, ``f_unlabelled`` its score on the unlabelled items (and strata, weights, several judges as
extra arrays). Each function returns a typed result (:mod:`humanly.judging.extended`).

=====================================  ================================================================
:func:`stratified_mean`                stratified PPI++ (Fisch et al. 2024), per-stratum λ and shares
:func:`neyman_allocation`              a label budget split across strata (Neyman, PPI++'s residuals)
:func:`allocation_probabilities`       each pool item's chance of being sent to raters under it
:func:`combine_judges`                 several judges, one tuned weight each (multi-judge PPI++)
:func:`crossppi_mean`                  cross-PPI from cross-fitted scores (Zrnic & Candès 2024)
:func:`crossfit_mean`                  fit a judge's calibration on K folds, then cross-PPI
:func:`self_judge_check`               is the judge one of the models?
:func:`rating_mean`                    the mean of a rating (1–5, 1–10, real)
:func:`share_at_least`                 the share of ratings at or above a threshold
:func:`paired_difference`              two models rated on the same items
:func:`rating_quantile`                a quantile of a rating (ppi-python's ``ppi_quantile_ci``)
:func:`small_sample_mean`              the interval the small-sample rule chooses
:func:`design_check`                   do the labelled items look like a random sample?
:func:`coverage_table`                 coverage of the intervals by simulation (docs/judge.md)
=====================================  ================================================================

The estimates are not clipped to the estimand's range here (as ppi-python); :func:`~humanly.judge`
clips what it reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.checks import check_int, check_probability
from ..errors import InputError
from . import _crossfit, _multi, _strata
from ._checked import design_check, self_judge_check
from ._coverage import coverage_table
from ._parts import Estimate, JudgeWeight, StratumEstimate, estimate_of
from ._ppi import fit, moments
from ._rated import (
    paired_difference,
    rating_mean,
    rating_quantile,
    share_at_least,
    small_sample_mean,
)
from ._vectors import INF, columns, lam_of, three, vector
from .extended import CombinedJudges, CrossFitEstimate, StrataAllocation, StratifiedEstimate

__all__ = [
    "allocation_probabilities",
    "combine_judges",
    "coverage_table",
    "crossfit_mean",
    "crossppi_mean",
    "design_check",
    "neyman_allocation",
    "paired_difference",
    "rating_mean",
    "rating_quantile",
    "self_judge_check",
    "share_at_least",
    "small_sample_mean",
    "stratified_mean",
]


def _stratum_estimate(part: Any, level: float) -> Estimate:
    return estimate_of(part, 0, level, -INF, INF)


def stratified_mean(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    strata: Any,
    strata_unlabelled: Any,
    *,
    level: float = 0.95,
    lam: float | None = None,
    shares: Any = None,
    weights: Any = None,
    weights_unlabelled: Any = None,
) -> StratifiedEstimate:
    """Stratified PPI++: a λ per stratum, the strata combined with their population shares.

    Parameters
    ----------
    y, f, f_unlabelled : array_like
        The human reference and the judge's score on the n labelled items, the judge's score on the
        N unlabelled ones. ``f`` and ``f_unlabelled`` may hold several judges as columns (n × J):
        each stratum then combines them (:func:`combine_judges`).
    strata, strata_unlabelled : array_like
        Each labelled and unlabelled item's stratum (any labels).
    level : float
        The interval's level.
    lam : float or None
        λ in every stratum; ``None`` tunes one per stratum (PPI++).
    shares : array_like, optional
        The strata's population shares (in the sorted order of their names, summing to 1); default
        their shares of the n + N items.
    weights, weights_unlabelled : array_like, optional
        The active design's 1/π of the labelled items and 1/(1 − π) of the unlabelled ones.

    Returns
    -------
    StratifiedEstimate

    Raises
    ------
    InputError
        A stratum with fewer than 2 labelled items, shares that do not sum to 1, arrays that do not
        match.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> s, s_u = rng.integers(0, 2, 200), rng.integers(0, 2, 2000)
    >>> y = (rng.random(200) < 0.6 + 0.3 * s).astype(float)
    >>> f = np.where(rng.random(200) < 0.9, y, 1 - y)
    >>> f_u = (rng.random(2000) < 0.6 + 0.3 * s_u).astype(float)
    >>> r = stratified_mean(y, f, f_u, s, s_u)
    >>> [x.stratum for x in r.strata], r.estimate.interval.width < r.estimate.classical_interval.width
    (['0', '1'], True)

    References
    ----------
    Fisch, Maynez, Hofer, Dhingra, Globerson & Cohen, "Stratified prediction-powered inference for
    hybrid language model evaluation", NeurIPS 2024.
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    y_, f_, fu = three(y, f, f_unlabelled, judges=True)
    several = f_.ndim == 2
    fitter = (lambda a, b, c: _multi.fit_judges(a, b, c)) if several else None
    if several and (weights is not None or weights_unlabelled is not None):
        raise InputError("weights: several judges with sampling weights are not supported yet")
    r = _strata.fit_strata(
        y_,
        f_[:, None, :] if several else f_,
        fu[:, None, :] if several else fu,
        strata,
        strata_unlabelled,
        lam=lam_of(lam),
        shares=shares,
        weights=weights,
        weights_unlabelled=weights_unlabelled,
        estimator=fitter,
    )
    parts = tuple(
        StratumEstimate(name, float(w), int(n), int(nu), _stratum_estimate(p, level))
        for name, w, n, nu, p in zip(r.names, r.shares, r.n, r.n_unlabelled, r.strata, strict=True)
    )
    return StratifiedEstimate(_stratum_estimate(r.combined, level), parts)


def neyman_allocation(
    budget: int,
    shares: Any,
    sd: Any,
    *,
    correlation: Any = None,
    sizes: Any = None,
    minimum: int = 2,
    strata: Sequence[str] | None = None,
) -> StrataAllocation:
    """Split ``budget`` human labels across strata: n_k ∝ w_k·σ_k·√(1 − ρ_k²) (Neyman allocation with
    PPI++'s residual spread), for one estimand or several at once.

    Parameters
    ----------
    budget : int
        Human labels to allocate.
    shares : array_like
        The strata's population shares w_k (K; they are normalised to sum to 1).
    sd : array_like
        σ_k, the human reference's spread in each stratum (K, or K × E for E estimands: the
        allocation then minimises the sum of their variances).
    correlation : array_like, optional
        ρ_k, the reference's correlation with the judge's score per stratum (same shape as ``sd``;
        clipped to [0, 1]); default 0 (no judge: classical Neyman allocation).
    sizes : array_like, optional
        The items available per stratum (n_k ≤ sizes_k).
    minimum : int
        The fewest labels per stratum (default 2, the fewest that estimate a variance).
    strata : sequence of str, optional
        The strata's names (default "0", "1", …).

    Returns
    -------
    StrataAllocation

    Raises
    ------
    InputError
        A budget below ``minimum`` × K or above the items available, shapes that do not match.

    Examples
    --------
    >>> a = neyman_allocation(100, [0.5, 0.5], [0.1, 0.4], correlation=[0.0, 0.8])
    >>> a.n_human, a.proportional
    ((29, 71), (50, 50))
    >>> a.se[0] < a.proportional_se[0]
    True

    References
    ----------
    Neyman (1934); Fisch et al., "Stratified prediction-powered inference", NeurIPS 2024, section 4.
    """
    b = check_int("budget", budget, minimum=1)
    m = check_int("minimum", minimum, minimum=0)
    w = vector("shares", shares)
    if (w < 0).any() or not w.sum() > 0:
        raise InputError(f"shares={w.tolist()}: give non-negative shares, not all 0")
    w = w / w.sum()
    k = len(w)
    s = vector("sd", sd, (1, 2)).reshape(k, -1) if np.size(sd) % k == 0 else None
    if s is None or (s < 0).any():
        raise InputError(f"sd: give {k} non-negative spreads (one per stratum, or K × estimands)")
    rho = np.zeros_like(s) if correlation is None else vector("correlation", correlation, (1, 2))
    rho = np.clip(np.asarray(rho, dtype=float).reshape(s.shape), 0.0, 1.0)
    residual = s**2 * (1 - rho**2)  # K × E
    cap = None if sizes is None else vector("sizes", sizes).astype(np.int64)
    if b < m * k or (cap is not None and b > cap.sum()):
        raise InputError(
            f"budget={b}: give at least minimum × strata = {m * k} labels"
            + ("" if cap is None else f" and at most the {int(cap.sum())} items available")
        )
    n = _strata.allocate(b, w, np.sqrt(residual.sum(axis=1)), cap, m)
    prop = _strata.allocate(b, w, np.zeros(k), cap, m)

    def se(counts: np.ndarray) -> tuple[float, ...]:
        with np.errstate(divide="ignore", invalid="ignore"):
            v = (w[:, None] ** 2 * residual / counts[:, None]).sum(axis=0)
        return tuple(float(x) for x in np.sqrt(v))

    names = tuple(str(x) for x in (strata if strata is not None else range(k)))
    counts = tuple(int(x) for x in n), tuple(int(x) for x in prop)
    return StrataAllocation(names, tuple(float(x) for x in w), *counts, se(n), se(prop), b)


def allocation_probabilities(allocation: StrataAllocation, strata_pool: Any) -> np.ndarray:
    """Each pool item's probability of being sent to raters so that stratum k sends n_k of its items
    in expectation: π = n_k / (pool items of stratum k). Pass 1/π and 1/(1 − π) as the weights of the
    estimate afterwards (or the probabilities as ``JudgeOptions(probabilities=...)``).

    Parameters
    ----------
    allocation : StrataAllocation
        The allocation (its strata's names are matched to ``strata_pool`` as text).
    strata_pool : array_like
        The stratum of each item that could be sent.

    Returns
    -------
    numpy.ndarray
        π per pool item.

    Raises
    ------
    InputError
        A stratum of the allocation with fewer pool items than its n_k, or a pool item whose stratum
        the allocation does not know.

    Examples
    --------
    >>> a = StrataAllocation(("a", "b"), (0.5, 0.5), (2, 1), (2, 1), (0.1,), (0.1,), 3)
    >>> allocation_probabilities(a, np.array(["a", "a", "a", "a", "b", "b"])).tolist()
    [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    """
    pool = np.asarray(strata_pool).astype(str)
    index = {name: j for j, name in enumerate(allocation.strata)}
    unknown = sorted(set(np.unique(pool).tolist()) - set(index))
    if unknown:
        raise InputError(
            f"strata_pool: stratum {unknown[0]!r} is not in the allocation's strata "
            f"{list(allocation.strata)}; allocate over the same strata"
        )
    codes = np.array([index[x] for x in pool], dtype=np.int64)
    size = np.bincount(codes, minlength=len(index))
    want = np.asarray(allocation.n_human, dtype=float)
    short = (want > size) & (want > 0)
    if short.any():
        j = int(np.argmax(short))
        raise InputError(
            f"strata_pool: stratum {allocation.strata[j]!r} has {int(size[j])} pool items for "
            f"{int(want[j])} labels; allocate with sizes= the pool's counts"
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = np.where(size > 0, want / np.maximum(size, 1), 0.0)
    return pi[codes]


def combine_judges(
    y: Any,
    f: Any,
    f_unlabelled: Any,
    *,
    level: float = 0.95,
    judges: Sequence[str] | None = None,
    clip: bool = True,
) -> CombinedJudges:
    """Several judges at once: PPI++ with one weight per judge, tuned to minimise the variance.

    Parameters
    ----------
    y : array_like
        The human reference on the n labelled items.
    f, f_unlabelled : array_like
        The judges' scores on the labelled (n × J) and unlabelled (N × J) items, one column per judge.
    level : float
        The interval's level.
    judges : sequence of str, optional
        The judges' names (default "judge 0", "judge 1", …).
    clip : bool
        Keep every weight in [0, 1] (the exact minimiser over the box, as PPI++ clips its one λ);
        ``False`` gives the unconstrained closed form ((1 + n/N)Σ)⁻¹c.

    Returns
    -------
    CombinedJudges
        The combination's estimate and each judge's weight and estimate alone.

    Raises
    ------
    InputError
        Arrays that do not match, more than 8 judges.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> truth = (rng.random(2200) < 0.7).astype(float)
    >>> judge = lambda acc: np.where(rng.random(2200) < acc, truth, 1 - truth)
    >>> scores = np.column_stack([judge(0.9), judge(0.8)])
    >>> r = combine_judges(truth[:200], scores[:200], scores[200:], judges=["big", "small"])
    >>> best_alone = max(j.alone.effective_n for j in r.judges)
    >>> r.estimate.effective_n >= best_alone * 0.99
    True

    References
    ----------
    Angelopoulos, Duchi & Zrnic, "PPI++: Efficient prediction-powered inference" (2023); Miao et
    al., "Assumption-lean and data-adaptive post-prediction inference" (2024).
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    y_, f_, fu = three(y, f, f_unlabelled, judges=True)
    f_, fu = columns(f_), columns(fu)
    r = _multi.fit_judges(y_, f_, fu, clip=bool(clip))
    names = [f"judge {j}" for j in range(f_.shape[1])] if judges is None else list(judges)
    if len(names) != f_.shape[1]:
        raise InputError(f"judges: {len(names)} names for {f_.shape[1]} judges; give one each")
    parts = tuple(
        JudgeWeight(str(name), float(r.weights[0, j]), estimate_of(r.alone[j], 0, level, -INF, INF))
        for j, name in enumerate(names)
    )
    return CombinedJudges(estimate_of(r, 0, level, -INF, INF), parts)


def crossppi_mean(
    y: Any, f: Any, f_unlabelled: Any, *, level: float = 0.95, lam: float | None = 1.0
) -> Estimate:
    """Cross-PPI from a judge fitted K times, each on all labelled items but one fold.

    Parameters
    ----------
    y : array_like
        The human reference on the n labelled items.
    f : array_like
        The judge's score on each labelled item from the fit that did not see it (out of fold).
    f_unlabelled : array_like
        The K fitted judges' scores on the N unlabelled items (N × K).
    level : float
        The interval's level.
    lam : float or None
        λ; 1 is Zrnic & Candès's cross-PPI (ppi-python's ``crossppi_mean_ci``), ``None`` tunes it.

    Returns
    -------
    Estimate

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(100); f = y + rng.normal(0, 0.2, 100)
    >>> e = crossppi_mean(y, f, rng.random((1000, 5)))
    >>> e.lam, e.n
    (1.0, 100)

    References
    ----------
    Zrnic & Candès, "Cross-prediction-powered inference", PNAS (2024).
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    y_, f_ = vector("y", y), vector("f", f)
    fu = vector("f_unlabelled", f_unlabelled, (1, 2))
    if len(f_) != len(y_):
        raise InputError(
            f"f: {len(f_)} judge scores for {len(y_)} labelled items; give one per item"
        )
    return estimate_of(_crossfit.fit_crossppi(y_, f_, fu, lam=lam_of(lam)), 0, level, -INF, INF)


def crossfit_mean(
    y: Any,
    score: Any,
    score_unlabelled: Any,
    *,
    folds: int = 10,
    calibrate: Any = "linear",
    seed: int | None = 0,
    level: float = 0.95,
    lam: float | None = 1.0,
) -> CrossFitEstimate:
    """A judge whose calibration is fitted on the labelled items: fit it on K folds, then cross-PPI.

    Parameters
    ----------
    y : array_like
        The human reference on the n labelled items.
    score, score_unlabelled : array_like
        The judge's raw score on the labelled and the unlabelled items.
    folds : int
        K (2 ≤ K ≤ n).
    calibrate : {"linear"} or callable
        What is fitted on the training folds: the least-squares line of ``y`` on the score, or a
        function ``(scores, reference) -> predict``.
    seed : int or None
        The seed of the folds.
    level : float
        The interval's level.
    lam : float or None
        λ (1: cross-PPI as published; ``None`` tunes it).

    Returns
    -------
    CrossFitEstimate

    Raises
    ------
    InputError
        Fewer than 2 folds or more folds than labelled items, an unknown calibration.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> raw = rng.random(1100); truth = (rng.random(1100) < raw ** 2).astype(float)
    >>> r = crossfit_mean(truth[:100], raw[:100], raw[100:], folds=5)
    >>> r.folds, r.calibrate, r.code
    (5, 'linear', 'crossfit')

    References
    ----------
    Zrnic & Candès, "Cross-prediction-powered inference", PNAS (2024).
    """
    level = check_probability("level", level, open_low=True, open_high=True)
    y_ = vector("y", y)
    s, su = vector("score", score), vector("score_unlabelled", score_unlabelled)
    k = check_int("folds", folds, minimum=2)
    seed = check_int("seed", seed, minimum=0, allow_none=True)
    folds_ = _crossfit.folds_of(len(y_), k, seed)
    cf = _crossfit.crossfit_scores(y_, s, su, folds_, calibrate)
    r = fit(y_, cf.f, moments(cf.f_unlabelled), lam=lam_of(lam))
    name = "callable" if callable(calibrate) else str(calibrate)
    return CrossFitEstimate(estimate_of(r, 0, level, -INF, INF), k, name, seed)
