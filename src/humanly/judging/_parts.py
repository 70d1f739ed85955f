"""The one-estimand result values every judge result is built from: :class:`Estimate` (a mean from
human labels and judges, with its interval, the human-only interval beside it and, where they apply,
its strata and its judges' weights), :class:`StratumEstimate` and :class:`JudgeWeight`, and
:func:`estimate_of`, which reads one column of a fit into an :class:`Estimate` kept within the
estimand's range.

They sit below both :mod:`humanly.judging.results` (what :func:`~humanly.judging.judge` returns) and
:mod:`humanly.judging.extended` (the array-level results), which import them from here.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._core.result import Interval, Result
from ._ppi import Fit

__all__ = ["INTERVAL_METHODS", "Estimate", "JudgeWeight", "StratumEstimate", "estimate_of"]

#: the intervals an estimate may carry: PPI's central-limit interval, or the small-sample one
INTERVAL_METHODS = ("clt", "adjusted")


@dataclasses.dataclass(frozen=True, repr=False)
class Estimate(Result):
    """One mean estimated from n human-labelled items and the judges' scores on every item.

    Parameters
    ----------
    point : float
        The estimate (PPI++, PPI, classical, or their active form).
    interval : Interval
        The interval at the result's ``level``.
    se : float
        Its standard error.
    lam : float
        λ: 1 for PPI, 0 for classical, tuned (PPI++) in [0, 1]; with several judges the sum of their
        weights, with strata the share-weighted mean of the strata's.
    classical_point : float
        The human-only estimate (the mean of the reference on the labelled items; weighted by 1/π in
        the active design).
    classical_interval : Interval
        The human-only CLT interval at ``level``.
    effective_n : float or None
        The number of human labels that alone would give the same standard error (σ²/se²).
    saving : float or None
        ``effective_n / n``: how many human labels each one is worth with the judge.
    correlation : float or None
        ρ, the correlation between the human reference and the judge's score on the labelled items.
    sd : float
        σ, the standard deviation of the human reference on the labelled items.
    n : int
        The number of labelled items used.
    interval_method : str
        ``"clt"`` (PPI's central-limit interval) or ``"adjusted"`` (the small-sample interval: the
        human labels alone with pseudo-observations at the ends of the range; in at least one
        stratum, with strata).
    small_n : int or None
        The number of labelled items below which the default rule (``interval="auto"``) takes the
        small-sample interval for this estimand (``None``: the rule was not applied).
    strata : tuple of StratumEstimate
        With strata, each stratum's own estimate (empty without).
    judges : tuple of JudgeWeight
        With several judges, each judge's weight and its estimate alone (empty with one).

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.66, 0.74), 0.02, 0.55, 0.7, Interval(0.62, 0.78), 122.0, 1.22,
    ...              0.52, 0.45, 100)
    >>> e.interval.width < e.classical_interval.width, e.interval_method
    (True, 'clt')
    """

    point: float
    interval: Interval
    se: float
    lam: float
    classical_point: float
    classical_interval: Interval
    effective_n: float | None
    saving: float | None
    correlation: float | None
    sd: float
    n: int
    interval_method: str = "clt"
    small_n: int | None = None
    strata: tuple[StratumEstimate, ...] = ()
    judges: tuple[JudgeWeight, ...] = ()


@dataclasses.dataclass(frozen=True, repr=False)
class StratumEstimate(Result):
    """One stratum's own estimate within a stratified one.

    Parameters
    ----------
    stratum : str
        The stratum's name.
    share : float
        Its share of all items (w_k).
    n, n_unlabelled : int
        Its labelled and unlabelled items.
    estimate : Estimate
        PPI++ within the stratum (its own λ).

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.6, 0.8), 0.05, 0.5, 0.7, Interval(0.55, 0.85), 50.0, 1.2,
    ...              0.5, 0.45, 40)
    >>> StratumEstimate("easy", 0.25, 40, 460, e).share
    0.25
    """

    stratum: str
    share: float
    n: int
    n_unlabelled: int
    estimate: Estimate


@dataclasses.dataclass(frozen=True, repr=False)
class JudgeWeight(Result):
    """One judge within a combination of judges.

    Parameters
    ----------
    judge : str
        The judge's name.
    weight : float
        Its weight λ_j in the combination (with strata, the share-weighted mean of the strata's).
    alone : Estimate
        PPI++ with this judge alone (its ``effective_n``: the labels it is worth by itself).

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.6, 0.8), 0.05, 0.5, 0.7, Interval(0.55, 0.85), 50.0, 1.2,
    ...              0.5, 0.45, 40)
    >>> JudgeWeight("llm", 0.6, e).weight
    0.6
    """

    judge: str
    weight: float
    alone: Estimate


def _num(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _clip(x: float, low: float, high: float) -> float:
    return float(np.clip(x, low, high)) if math.isfinite(x) else float(x)


def estimate_of(fit: Fit, k: int, level: float, low: float = 0.0, high: float = 1.0) -> Estimate:
    """Column ``k`` of ``fit`` as an :class:`Estimate`, points and interval ends kept within the
    estimand's range [``low``, ``high``].

    >>> from humanly.judging._ppi import fit, moments
    >>> r = fit(np.array([1.0, 1.0, 0.0, 1.0]), np.array([1.0, 1.0, 0.0, 0.0]),
    ...         moments(np.array([1.0, 1.0, 1.0])), lam=1.0)
    >>> estimate_of(r, 0, 0.95).point  # 1 + mean(y − f) = 1.25, kept within [0, 1]
    1.0
    """
    lo, hi = fit.interval(level)
    c_lo, c_hi = fit.classical_interval(level)
    eff = fit.effective_n
    return Estimate(
        point=_clip(fit.point[k], low, high),
        interval=Interval(_clip(lo[k], low, high), _clip(hi[k], low, high)),
        se=float(fit.se[k]),
        lam=float(fit.lam[k]),
        classical_point=_clip(fit.classical_point[k], low, high),
        classical_interval=Interval(_clip(c_lo[k], low, high), _clip(c_hi[k], low, high)),
        effective_n=_num(eff[k]),
        saving=_num(eff[k] / fit.n[k]),
        correlation=_num(fit.rho[k]),
        sd=float(fit.sd[k]),
        n=int(fit.n[k]),
    )
