"""The estimators on plain arrays: classical, prediction-powered (PPI, λ = 1), power-tuned PPI++ and
the inverse-probability-weighted form of active inference, each with its CLT interval.

Every function works column by column: a column is one estimand (a model's accuracy, the difference of
two models' accuracies, or one simulated study), so one call serves them all.

* ``y`` — the human reference on the *labelled* items (n × E), ``f`` — the judge's score on the same
  items (n × E), and the judge's score on the *unlabelled* items summarised by :func:`moments`
  (:class:`Moments`: their count N, mean and the variance of that mean).
* PPI with a fixed λ (Angelopoulos et al. 2023; Angelopoulos, Duchi & Zrnic 2023)::

      θ̂ = mean(λ·f̃) + mean(y − λ·f)
      se² = var(λ·f̃)/N + var(y − λ·f)/n           (variances with divisor N and n)

  λ = 1 is PPI, λ = 0 the classical mean of ``y``. PPI++ tunes λ as ppi-python 0.2.3 does
  (``ppi_mean_ci(lam=None)``): λ̂ = cov(y, f) / ((1 + n/N)·var(f ∪ f̃)), the covariance with divisor n,
  the pooled variance of the judge's scores with divisor n + N − 1, clipped to [0, 1] (0 when the
  judge's scores do not vary).
* The active (inverse-probability-weighted) form (Zrnic & Candès 2024) for items sent to raters with
  known probabilities π (Bernoulli sampling): labelled items weigh v = 1/π, unlabelled items w = 1/(1 − π),
  and both means are self-normalised (Hájek)::

      θ̂ = Σ_U w·λ·f̃ / Σ_U w + Σ_L v·(y − λ·f) / Σ_L v
      se² = Σ_U w²(λf̃ − m_U)² / (Σ_U w)² + Σ_L v²(r − m_L)² / (Σ_L v)²,   r = y − λ·f

  The two sums are uncorrelated (an item is in L or in U, never both), so the variances add. With
  one π for every item the weights cancel and θ̂, se are PPI's with the same λ, to the last digit of the
  arithmetic. PPI++'s λ here is the minimiser of that se² (clipped to [0, 1]).

The sample-size solver (:func:`power`) is ppi-python 0.2.3's ``ppi_mean_power`` / ``ppi_power`` with no
cost for the items themselves (``cost_X = 0``), reproduced rounding for rounding.

References
----------
Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference", *Science* 382 (2023).
Angelopoulos, Duchi & Zrnic, "PPI++: Efficient prediction-powered inference", arXiv:2311.01453 (2023).
Zrnic & Candès, "Active statistical inference", ICML 2024.
Broska, Howes & van Loon, "The mixed subjects design", SocArXiv (2024) (the PPI correlation ρ).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._core.normal import z_value

__all__ = ["Fit", "Moments", "PowerPair", "classical", "fit", "moments", "power", "z_value"]


def _cols(a: Any) -> np.ndarray:
    """A float array with estimands in columns (a 1-D array is one column)."""
    x = np.asarray(a, dtype=float)
    return x[:, None] if x.ndim == 1 else x


@dataclasses.dataclass(frozen=True)
class Moments:
    """The judge's scores on the unlabelled items, per column: how many items (``count``), their
    (weighted) mean, and the variance of that mean (var/N unweighted, the Hájek variance weighted)."""

    count: np.ndarray
    mean: np.ndarray
    var_mean: np.ndarray
    weighted: bool


def moments(f_unlabelled: Any, weights: Any = None) -> Moments:
    """:class:`Moments` of the judge's scores on the unlabelled items (N × E); ``weights`` (N × E or
    N × 1, ≥ 0; 0 leaves an item out) are the active design's 1/(1 − π).

    >>> m = moments(np.array([1.0, 0.0, 1.0, 1.0]))
    >>> float(m.mean[0]), float(m.var_mean[0])  # 0.75 and var/N = 0.1875/4
    (0.75, 0.046875)
    """
    f = _cols(f_unlabelled)
    if weights is None:
        n = np.full(f.shape[1], float(f.shape[0]))
        mean = f.mean(axis=0)
        var = ((f - mean) ** 2).mean(axis=0)
        return Moments(n, mean, var / n, weighted=False)
    w = np.broadcast_to(_cols(weights), f.shape)
    total = w.sum(axis=0)
    mean = (w * f).sum(axis=0) / total
    var_mean = ((w * (f - mean)) ** 2).sum(axis=0) / total**2
    return Moments((w > 0).sum(axis=0).astype(float), mean, var_mean, weighted=True)


@dataclasses.dataclass(frozen=True)
class Fit:
    """One estimator's answer per column: the point estimate, its standard error, the λ used, the
    human-only (classical) estimate beside it, and what planning needs from the pilot (the standard
    deviation of the reference, ``sd``, and its correlation with the judge's score, ``rho``)."""

    point: np.ndarray
    se: np.ndarray
    lam: np.ndarray
    classical_point: np.ndarray
    classical_se: np.ndarray
    sd: np.ndarray
    rho: np.ndarray
    n: np.ndarray

    def interval(self, level: float) -> tuple[np.ndarray, np.ndarray]:
        """The CLT interval ``point ± z·se`` at ``level``."""
        z = z_value(level)
        return self.point - z * self.se, self.point + z * self.se

    def classical_interval(self, level: float) -> tuple[np.ndarray, np.ndarray]:
        """The human-only CLT interval at ``level``."""
        z = z_value(level)
        return (
            self.classical_point - z * self.classical_se,
            self.classical_point + z * self.classical_se,
        )

    @property
    def effective_n(self) -> np.ndarray:
        """The number of human labels that alone would give the same standard error: sd²/se² (NaN
        when the standard error is 0)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.se > 0, self.sd**2 / self.se**2, np.nan)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def classical(y: Any, weights: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The human-only mean and its CLT standard error per column: ``std(y)/√n`` (divisor n, as
    ppi-python's ``classical_mean_ci``), or the Hájek mean with ``weights`` (0 leaves an item out).

    >>> point, se = classical(np.array([1.0, 0.0, 1.0, 1.0]))
    >>> float(point[0]), round(float(se[0]), 6)
    (0.75, 0.216506)
    """
    y = _cols(y)
    if weights is None:
        return y.mean(axis=0), y.std(axis=0) / math.sqrt(y.shape[0])
    v = np.broadcast_to(_cols(weights), y.shape)
    total = v.sum(axis=0)
    mean = (v * y).sum(axis=0) / total
    return mean, np.sqrt(((v * (y - mean)) ** 2).sum(axis=0)) / total


def _lam(lam: float | None, tuned: np.ndarray) -> np.ndarray:
    if lam is None:
        return np.clip(np.nan_to_num(tuned, nan=0.0), 0.0, 1.0)
    return np.full(tuned.shape, float(lam))


def _fit_plain(y: np.ndarray, f: np.ndarray, unl: Moments, lam: float | None) -> Fit:
    """PPI / PPI++ / classical with a uniformly drawn labelled set (ppi-python's arithmetic)."""
    n = y.shape[0]
    big_n = unl.count
    my, mf = y.mean(axis=0), f.mean(axis=0)
    yc, fc = y - my, f - mf
    cov = (yc * fc).mean(axis=0)
    var_y, var_f = (yc**2).mean(axis=0), (fc**2).mean(axis=0)
    # pooled variance of the judge's score over labelled and unlabelled items (divisor n + N − 1)
    pooled_mean = (n * mf + big_n * unl.mean) / (n + big_n)
    ss = n * var_f + unl.var_mean * big_n**2
    ss += n * (mf - pooled_mean) ** 2 + big_n * (unl.mean - pooled_mean) ** 2
    pooled_var = ss / (n + big_n - 1)
    lam_ = _lam(lam, _ratio(cov, (1.0 + n / big_n) * pooled_var))
    point = lam_ * unl.mean + (my - lam_ * mf)
    rect = y - lam_ * f
    se = np.sqrt(lam_**2 * unl.var_mean + rect.var(axis=0) / n)
    return Fit(
        point=point,
        se=se,
        lam=lam_,
        classical_point=my,
        classical_se=np.sqrt(var_y / n),
        sd=np.sqrt(var_y),
        rho=_ratio(cov, np.sqrt(var_y * var_f)),
        n=np.full(y.shape[1], float(n)),
    )


def _fit_weighted(
    y: np.ndarray, f: np.ndarray, v: np.ndarray, unl: Moments, lam: float | None
) -> Fit:
    """The active (inverse-probability-weighted, self-normalised) form; ``v`` = 1/π on labelled
    items (0 leaves an item out)."""
    v = np.broadcast_to(v, y.shape)
    total = v.sum(axis=0)
    my, mf = (v * y).sum(axis=0) / total, (v * f).sum(axis=0) / total
    yc, fc = v * (y - my), v * (f - mf)  # weighted, centred: Σ v²(·)(·) / (Σ v)² is a variance
    s_yy = (yc**2).sum(axis=0) / total**2
    s_yf = (yc * fc).sum(axis=0) / total**2
    s_ff = (fc**2).sum(axis=0) / total**2
    lam_ = _lam(lam, _ratio(s_yf, s_ff + unl.var_mean))
    point = lam_ * unl.mean + (my - lam_ * mf)
    se = np.sqrt(lam_**2 * unl.var_mean + s_yy - 2 * lam_ * s_yf + lam_**2 * s_ff)
    # the population spread of y and its correlation with f, weighted (Hájek) like the means
    var_y = (v * (y - my) ** 2).sum(axis=0) / total
    var_f = (v * (f - mf) ** 2).sum(axis=0) / total
    cov = (v * (y - my) * (f - mf)).sum(axis=0) / total
    return Fit(
        point=point,
        se=se,
        lam=lam_,
        classical_point=my,
        classical_se=np.sqrt(s_yy),
        sd=np.sqrt(var_y),
        rho=_ratio(cov, np.sqrt(var_y * var_f)),
        n=(v > 0).sum(axis=0).astype(float),
    )


def fit(
    y: Any, f: Any, unlabelled: Moments, *, lam: float | None = None, weights: Any = None
) -> Fit:
    """Estimate the mean of ``y`` from n labelled items and the judge's scores on all items.

    Parameters
    ----------
    y, f : array_like, n × E (or n)
        The human reference and the judge's score on the labelled items, one column per estimand.
    unlabelled : Moments
        The judge's scores on the unlabelled items (:func:`moments`).
    lam : float or None
        λ; ``None`` tunes it (PPI++), 1 is PPI, 0 the classical mean.
    weights : array_like or None
        The active design's 1/π on the labelled items (and ``unlabelled`` built with 1/(1 − π));
        ``None`` for a uniformly drawn labelled set.

    Returns
    -------
    Fit

    Examples
    --------
    >>> y = np.array([1.0, 1.0, 0.0, 1.0]); f = np.array([1.0, 1.0, 0.0, 0.0])
    >>> r = fit(y, f, moments(np.array([1.0, 0.0, 1.0, 1.0, 1.0, 0.0])), lam=1.0)
    >>> round(float(r.point[0]), 6)  # 4/6 + mean(y − f) = 0.6667 + 0.25
    0.916667
    """
    y_, f_ = _cols(y), _cols(f)
    if weights is None and not unlabelled.weighted:
        return _fit_plain(y_, f_, unlabelled, lam)
    v = np.ones((y_.shape[0], 1)) if weights is None else _cols(weights)
    return _fit_weighted(y_, f_, v, unlabelled, lam)


# ------------------------------------------------------------------------------------ planning
@dataclasses.dataclass(frozen=True)
class PowerPair:
    """ppi-python's answer: ``n`` human-labelled items, ``big_n`` judge-only items, the cost, the
    effective number of human labels, and the correlation used."""

    n: int
    big_n: int
    cost: float
    effective_n: int
    rho: float
    capped: bool = False


def _optimal_pair(n0: float, rho: float, gamma: float, cost_y: float, cost_f: float) -> PowerPair:
    r2 = rho**2
    n = n0 * (1 - r2 + math.sqrt(gamma * r2 * (1 - r2)))
    # ρ ≈ 0: no judge-only item helps (ppi-python divides 0 by 0 here and fails)
    big_n = n * (n0 - n) / (n - (1 - r2) * n0) if abs(rho) > 1e-12 else 0.0
    n_i, big_i = round(n), round(big_n)
    cost = n_i * cost_y + (n_i + big_i) * cost_f
    den = n_i + (1 - r2) * big_i
    eff = round(n_i * (n_i + big_i) / den) if den > 0 else 0
    return PowerPair(n_i, big_i, cost, eff, rho)


def _n_max_cost(pair: PowerPair, max_cost: float, rho: float, c_y: float, c_f: float, n_max: int):
    if n_max * c_y <= max_cost:
        return PowerPair(n_max, 0, n_max * c_y, n_max, rho, capped=True)
    n = round(max_cost / c_y - n_max * (c_f / c_y))
    big_n = n_max - n
    eff = round(n * (n + big_n) / (n + (1 - rho**2) * big_n))
    return PowerPair(n, big_n, n * (c_y + c_f) + big_n * c_f, eff, rho, capped=True)


def _n_max_width(n0: float, rho: float, c_y: float, c_f: float, n_max: int) -> PowerPair:
    if n0 > n_max:
        return PowerPair(n_max, 0, n_max * c_y, n_max, rho, capped=True)
    n = round(n0 * n_max * (1 - rho**2) / (n_max - rho**2 * n0))
    big_n = n_max - n
    eff = round(n * (n + big_n) / (n + (1 - rho**2) * big_n))
    return PowerPair(n, big_n, n * (c_y + c_f) + big_n * c_f, eff, rho, capped=True)


def power(
    rho: float,
    cost_human: float,
    cost_judge: float,
    *,
    max_cost: float | None = None,
    effective_n: float | None = None,
    n_max: int | None = None,
) -> PowerPair:
    """The cheapest (``effective_n``) or most powerful (``max_cost``) pair (n, N) for PPI++, as
    ppi-python 0.2.3's ``ppi_power(rho, cost_X=0, cost_Y=cost_human, cost_Yhat=cost_judge, …)``.

    ``rho`` is the PPI correlation between the human reference and the judge's score (Broska et al.);
    a judge is called on every item (n + N calls), a human labels n. With ``n_max`` the pair also
    satisfies n + N ≤ n_max. ``max_cost`` wins when both are given.

    >>> p = power(0.5, 1.0, 0.01, max_cost=100)
    >>> p.n, p.big_n, p.effective_n
    (95, 451, 120)
    """
    gamma = cost_judge / cost_human
    r2 = rho**2
    ppi_cost = cost_human * (1 - r2 + gamma * r2 + 2 * math.sqrt(gamma * r2 * (1 - r2)))
    classical_cost = cost_human
    n0 = max_cost / ppi_cost if max_cost is not None else float(effective_n)  # type: ignore[arg-type]
    pair = _optimal_pair(n0, rho, gamma, cost_human, cost_judge)
    if classical_cost < ppi_cost or pair.big_n < 0:
        n = round(max_cost / classical_cost) if max_cost is not None else round(n0)
        pair = PowerPair(n, 0, n * classical_cost, n, rho)
    if n_max is None or pair.n + pair.big_n <= n_max:
        return pair
    if max_cost is not None:
        return _n_max_cost(pair, max_cost, rho, cost_human, cost_judge, n_max)
    return _n_max_width(n0, rho, cost_human, cost_judge, n_max)
