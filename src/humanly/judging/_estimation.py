"""Every estimand of a judge analysis at once, from the per-item columns the verb builds: strata,
several judges, a cross-fitted judge, sampling weights and the small-sample rule, on top of the
array-level machinery.

The problem (:class:`Problem`): per estimand column e, the human reference y on the n labelled items,
the J judges' scores f on them (n × E × J) and on the N unlabelled items (N × E × J), the estimand's
kind (a mean, or a paired difference of two means) and range. The steps:

1. **Cross-fitting** (``folds``): the judges' scores are calibrated on the labelled items — the
   least-squares regression of y on the J scores, fitted K times on all folds but one
   (:mod:`humanly.judging._crossfit`): each labelled item is scored by the fit that did not see it,
   each unlabelled item by the mean of the K fits; then PPI with λ = 1 (ppi-python's
   ``crossppi_mean_ci``) on the one calibrated score.
2. **Strata** (:func:`humanly.judging._strata.fit_strata`): PPI++ (or PPI, classical, the active
   form with ``weights``) within each stratum with its own λ, or with several judges one weight per
   judge per stratum (:func:`humanly.judging._multi.fit_judges`, or
   :func:`~humanly.judging._multi.fit_judges_weighted` with sampling weights); without strata, all
   items are one stratum and the arithmetic is today's PPI++ to the last bit.
3. **Small samples** (:func:`humanly.judging._small.interval_method`): within each stratum and
   column, below the rule's n the stratum's estimate is the small-sample (adjusted human-only) one;
   with sampling weights the rule does not apply (its pseudo-observations are for a simple random
   sample), and ``small_n`` is ``None``.
4. The strata combine with their shares (:func:`humanly.judging._strata.combine`), and each column
   becomes an :class:`~humanly.judging.Estimate` kept within the estimand's range, with its strata
   and its judges' weights (each judge alone beside the combination).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..errors import InputError
from . import _crossfit, _multi, _small, _strata
from ._blocks import whole
from ._parts import Estimate, JudgeWeight, StratumEstimate, estimate_of
from ._ppi import Fit, fit, moments

__all__ = ["ESTIMATORS", "Problem", "Setup", "estimate", "result_codes"]

#: estimator → λ (``None``: tuned)
ESTIMATORS: dict[str, float | None] = {"ppi++": None, "ppi": 1.0, "classical": 0.0}


@dataclasses.dataclass(frozen=True)
class Problem:
    """The per-item columns of every estimand (see the module docstring).

    ``kinds`` is ``"mean"`` or ``"difference"`` per column; ``low``/``high`` the estimand's range
    (its estimate and interval are kept within it); ``scale_low``/``scale_high`` the range of one
    model's values per column (the small-sample interval's pseudo-observations sit at its ends).
    ``fu`` is an array, or with strata :class:`~humanly.judging._blocks.Blocks` (the unlabelled
    items in stratum order, each stratum's built when it is fitted)."""

    y: np.ndarray
    f: np.ndarray
    fu: Any
    kinds: tuple[str, ...]
    low: np.ndarray
    high: np.ndarray
    scale_low: np.ndarray
    scale_high: np.ndarray
    judges: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Setup:
    """How to estimate: λ (``None``: tuned), the level, the interval rule and the judges' kind it
    reads, the strata (codes of the labelled and unlabelled items, and their names), the active
    design's weights (1/π labelled, 1/(1 − π) unlabelled) and the cross-fitting folds."""

    lam: float | None
    level: float
    interval: str = "auto"
    judge_kind: str = "label"
    strata: tuple[np.ndarray, np.ndarray] | None = None
    strata_names: tuple[str, ...] = ()
    weights: tuple[np.ndarray, np.ndarray] | None = None
    folds: np.ndarray | None = None


@dataclasses.dataclass(frozen=True)
class _Calibrated:
    """Cross-fitted scores (n × E, N × E) and each judge's mean fitted slope (E × J)."""

    f: np.ndarray
    fu: np.ndarray
    slopes: np.ndarray


def _calibrated(y: np.ndarray, f: np.ndarray, fu: np.ndarray, folds: np.ndarray) -> _Calibrated:
    """The least-squares calibration of y on the judges' scores, cross-fitted on ``folds``."""
    n, e, j = f.shape
    if j == 1:
        cf = _crossfit.crossfit_scores(y, f[:, :, 0], fu[:, :, 0], folds, "linear")
        slopes = np.zeros((e, 1))
        for k in range(int(folds.max()) + 1):
            train = folds != k
            for col in range(e):
                slopes[col, 0] += _crossfit.line_fit(f[train, col, 0], y[train, col])[1]
        return _Calibrated(cf.f, cf.f_unlabelled, slopes / (int(folds.max()) + 1))
    k_folds = int(folds.max()) + 1
    out, out_u = np.empty((n, e)), np.zeros((fu.shape[0], e))
    slopes = np.zeros((e, j))
    for col in range(e):
        design = np.column_stack([np.ones(n), f[:, col, :]])
        mean_coef = np.zeros(j + 1)
        for k in range(k_folds):
            held = folds == k
            coef = np.linalg.lstsq(design[~held], y[~held, col], rcond=None)[0]
            out[held, col] = design[held] @ coef
            mean_coef += coef / k_folds
        out_u[:, col] = mean_coef[0] + fu[:, col, :] @ mean_coef[1:]
        slopes[col] = mean_coef[1:]
    return _Calibrated(out, out_u, slopes)


def _checked_strata(codes: tuple[np.ndarray, np.ndarray], names: tuple[str, ...]) -> None:
    """Every stratum needs 2 labelled items to estimate its variance."""
    n_k = np.bincount(codes[0], minlength=len(names))
    if (n_k < 2).any():
        j = int(np.argmax(n_k < 2))
        raise InputError(
            f"strata: stratum {names[j]!r} has {int(n_k[j])} human-labelled item(s); each stratum "
            "needs at least 2 to estimate its variance: label more items there, or merge it with "
            "another"
        )


def _estimator(setup: Setup, several: bool) -> Any:
    if not several:
        return None
    if setup.weights is None:
        return lambda y, f, fu: _multi.fit_judges(y, f, fu)
    return None  # the weighted form is fitted per stratum by _fit_parts


def _weighted_judges(y, f, fu, setup: Setup, k: int, codes) -> tuple[list[Any], np.ndarray]:
    """Several judges with sampling weights, stratum by stratum (fit_strata's loop, weighted)."""
    assert setup.weights is not None
    v, w = setup.weights
    shares = _strata.shares_of(codes[0], codes[1], k)
    if k == 1:
        return [_multi.fit_judges_weighted(y, f, whole(fu), v, w)], shares
    parts = []
    n_u = np.bincount(codes[1], minlength=k)
    pairs = zip(_strata.groups(codes[0], k), _strata.groups(codes[1], k), strict=True)
    for s, (gl, gu) in enumerate(pairs):
        if n_u[s] == 0:
            parts.append(_strata.human_only(y[gl], v[gl][:, None]))
        else:
            parts.append(_multi.fit_judges_weighted(y[gl], f[gl], fu[gu], v[gl], w[gu]))
    return parts, shares


def _fit_parts(
    problem: Problem, f: np.ndarray, fu: Any, setup: Setup, lam: float | None
) -> tuple[list[Any], np.ndarray, np.ndarray, np.ndarray]:
    """Each stratum's fit, the strata's shares and their labelled and unlabelled counts."""
    y = problem.y
    n, big_n = len(y), len(fu)
    if setup.strata is None:
        codes = (np.zeros(n, dtype=np.intp), np.zeros(big_n, dtype=np.intp))
        k = 1
    else:
        codes, k = setup.strata, len(setup.strata_names)
        _checked_strata(codes, setup.strata_names)
    several = f.ndim == 3 and f.shape[2] > 1
    n_k = np.bincount(codes[0], minlength=k)
    n_u = np.bincount(codes[1], minlength=k)
    if several and setup.weights is not None:
        parts, shares = _weighted_judges(y, f, fu, setup, k, codes)
        return parts, shares, n_k, n_u
    weights = (None, None) if setup.weights is None else setup.weights
    r = _strata.fit_strata(
        y,
        f,
        fu,
        codes[0],
        codes[1],
        lam=lam,
        weights=None if weights[0] is None else weights[0][:, None],
        weights_unlabelled=None if weights[1] is None else weights[1][:, None],
        estimator=_estimator(setup, several),
    )
    return list(r.strata), r.shares, n_k, n_u


def _adjust(
    parts: list[Any], problem: Problem, setup: Setup, n_k: np.ndarray
) -> tuple[np.ndarray, np.ndarray | None]:
    """The small-sample rule within each stratum and column: the adjusted (human-only) estimate
    replaces the stratum's where the rule takes it. Returns which (K × E) and each column's rule n."""
    e = problem.y.shape[1]
    method = np.zeros((len(parts), e), dtype=bool)
    if setup.weights is not None:  # the pseudo-observations are for a simple random sample
        return method, None
    rule_n = np.array([_small.small_n(kind, setup.judge_kind) for kind in problem.kinds])
    codes = setup.strata[0] if setup.strata is not None else np.zeros(len(problem.y), np.intp)
    groups = _strata.groups(codes, len(parts)) if len(parts) > 1 else [np.arange(len(problem.y))]
    for s, part in enumerate(parts):
        chosen = [
            _small.interval_method(int(n_k[s]), problem.kinds[c], setup.interval, setup.judge_kind)
            for c in range(e)
        ]
        cols = [c for c in range(e) if chosen[c][0] == "adjusted"]
        if not cols:
            continue
        point, se, lam = part.point.copy(), part.se.copy(), part.lam.copy()
        y_s = problem.y[groups[s]]
        for c in cols:
            p, sd = _small.adjusted(
                y_s[:, c],
                kind=problem.kinds[c],
                low=float(problem.scale_low[c]),
                high=float(problem.scale_high[c]),
                level=setup.level,
            )
            point[c], se[c], lam[c] = p[0], sd[0], 0.0
            method[s, c] = True
        changes: dict[str, Any] = {"point": point, "se": se, "lam": lam}
        if isinstance(part, _multi.JudgesFit):
            weights = part.weights.copy()
            weights[cols] = 0.0
            changes["weights"] = weights
        parts[s] = dataclasses.replace(part, **changes)
    return method, rule_n


def _judge_weights(
    parts: list[Any], shares: np.ndarray, c: int, problem: Problem, setup: Setup, names
) -> tuple[JudgeWeight, ...]:
    """Each judge's share-weighted weight in column ``c`` and its estimate alone."""
    out = []
    for j, name in enumerate(names):
        weight = 0.0
        alone = []
        for w_k, part in zip(shares, parts, strict=True):
            if isinstance(part, _multi.JudgesFit):
                weight += float(w_k * part.weights[c, j])
                alone.append(part.alone[j])
            else:
                alone.append(part)
        fit_j = alone[0] if len(alone) == 1 else _strata.combine(alone, shares)
        est = estimate_of(fit_j, c, setup.level, problem.low[c], problem.high[c])
        out.append(JudgeWeight(name, weight, est))
    return tuple(out)


def _crossfit_weights(
    problem: Problem, setup: Setup, calibrated: _Calibrated, lam: float | None
) -> list[tuple[JudgeWeight, ...]]:
    """With several cross-fitted judges: each judge's mean slope and its cross-fitted estimate
    alone, per column."""
    assert setup.folds is not None
    per_judge = []
    for j in range(problem.f.shape[2]):
        alone = _calibrated(problem.y, problem.f[:, :, [j]], problem.fu[:, :, [j]], setup.folds)
        per_judge.append(fit(problem.y, alone.f, moments(alone.fu), lam=lam))
    return [
        tuple(
            JudgeWeight(
                name,
                float(calibrated.slopes[c, j]),
                estimate_of(per_judge[j], c, setup.level, problem.low[c], problem.high[c]),
            )
            for j, name in enumerate(problem.judges)
        )
        for c in range(problem.y.shape[1])
    ]


def estimate(problem: Problem, setup: Setup) -> list[Estimate]:
    """Every column's :class:`~humanly.judging.Estimate` (see the module docstring)."""
    f, fu, lam = problem.f, problem.fu, setup.lam
    several = f.shape[2] > 1
    calibrated = None
    if setup.folds is not None:
        calibrated = _calibrated(problem.y, f, fu, setup.folds)
        f, fu = calibrated.f, calibrated.fu
        lam = 0.0 if lam == 0.0 else 1.0  # cross-PPI (Zrnic & Candès): λ = 1
    elif not several or lam == 0.0:
        f, fu = f[:, :, 0], fu[:, :, 0]
    parts, shares, n_k, n_u = _fit_parts(problem, f, fu, setup, lam)
    adjusted, rule_n = _adjust(parts, problem, setup, n_k)
    combined: Fit = parts[0] if len(parts) == 1 else _strata.combine(parts, shares)
    cross = None
    if calibrated is not None and several:
        cross = _crossfit_weights(problem, setup, calibrated, lam)
    out = []
    for c in range(problem.y.shape[1]):
        low, high = problem.low[c], problem.high[c]
        est = estimate_of(combined, c, setup.level, low, high)
        strata: tuple[StratumEstimate, ...] = ()
        if setup.strata is not None:
            strata = tuple(
                StratumEstimate(
                    name,
                    float(shares[s]),
                    int(n_k[s]),
                    int(n_u[s]),
                    dataclasses.replace(
                        estimate_of(part, c, setup.level, low, high),
                        interval_method="adjusted" if adjusted[s, c] else "clt",
                    ),
                )
                for s, (name, part) in enumerate(zip(setup.strata_names, parts, strict=True))
            )
        judges: tuple[JudgeWeight, ...] = ()
        if cross is not None:
            judges = cross[c]
        elif several and lam != 0.0:
            judges = _judge_weights(parts, shares, c, problem, setup, problem.judges)
        out.append(
            dataclasses.replace(
                est,
                interval_method="adjusted" if adjusted[:, c].any() else "clt",
                small_n=None if rule_n is None else int(rule_n[c]),
                strata=strata,
                judges=judges,
            )
        )
    return out


def _below_rule(e: Estimate) -> bool:
    """Whether ``e`` took the central-limit interval from fewer labelled items (in some stratum)
    than the small-sample rule asks for."""
    if e.interval_method != "clt" or e.small_n is None:
        return False
    n = min(s.n for s in e.strata) if e.strata else e.n
    return bool(n < e.small_n)


def result_codes(
    estimates: list[Estimate], design: str | None, self_judge: str | None, crossfit: bool
) -> tuple[str, ...]:
    """The result's status codes, in the order of :data:`humanly.judging.extended.CODES`: the
    design check's and the self-judge check's, ``small_sample`` (the small-sample interval was used
    for some estimand), ``few_labels`` (the central-limit one below the rule's n) and ``crossfit``.
    """
    codes = [c for c in (design, self_judge) if c is not None]
    if any(e.interval_method == "adjusted" for e in estimates):
        codes.append("small_sample")
    if any(_below_rule(e) for e in estimates):
        codes.append("few_labels")
    if crossfit:
        codes.append("crossfit")
    return tuple(codes)
