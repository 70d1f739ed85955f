"""Reading an agreement coefficient: benchmark scales, Gwet's probabilistic benchmarking, the t interval
and the p-value against a benchmark value.

A benchmark scale cuts [−1, 1] into named bands (Landis & Koch 1977; Altman 1991; Fleiss 1981). Reading
the band the estimate falls in ignores its uncertainty; Gwet (2014, ch. 6) instead gives each band the
probability that the coefficient lies in it — a normal distribution centred on the estimate with its
standard error, truncated to [−1, 1] — and retains the *highest band whose cumulative probability*,
summed from the top band down, *reaches the confidence level* (0.95 by default). irrCAC's ``Benchmark``
does the same.

The analytic interval and the p-value use Student's t with n − 1 degrees of freedom on Gwet's standard
error, as irrCAC does; the upper end of the interval is capped at 1.

>>> i = interpret(0.67, 0.15, "altman", 0.95)
>>> i.band, round(i.probability, 5), i.estimate_band
('moderate', 0.96356, 'good')
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy import special

from .._core.result import Interval, Result

__all__ = [
    "BENCHMARK_SCALES",
    "Band",
    "Interpretation",
    "interpret",
    "p_value",
    "t_interval",
]

#: name → (citation, bands from the top: (low, high, label)); a band holds (low, high], the lowest −1 too
BENCHMARK_SCALES: dict[str, tuple[str, tuple[tuple[float, float, str], ...]]] = {
    "landis_koch": (
        "Landis & Koch (1977)",
        (
            (0.8, 1.0, "almost perfect"),
            (0.6, 0.8, "substantial"),
            (0.4, 0.6, "moderate"),
            (0.2, 0.4, "fair"),
            (0.0, 0.2, "slight"),
            (-1.0, 0.0, "poor"),
        ),
    ),
    "altman": (
        "Altman (1991)",
        (
            (0.8, 1.0, "very good"),
            (0.6, 0.8, "good"),
            (0.4, 0.6, "moderate"),
            (0.2, 0.4, "fair"),
            (-1.0, 0.2, "poor"),
        ),
    ),
    "fleiss": (
        "Fleiss (1981)",
        (
            (0.75, 1.0, "excellent"),
            (0.4, 0.75, "intermediate to good"),
            (-1.0, 0.4, "poor"),
        ),
    ),
}


@dataclasses.dataclass(frozen=True, repr=False)
class Band(Result):
    """One band of a benchmark scale: the coefficient lies in ``(low, high]`` with ``probability``;
    ``cumulative`` is the probability that it lies in this band or a higher one (Gwet 2014, ch. 6).

    Parameters
    ----------
    label : str
        The band's name on its scale.
    low, high : float
        The band's ends: it holds ``(low, high]`` (the lowest band holds −1 too).
    probability : float
        The probability that the coefficient lies in this band.
    cumulative : float
        The probability that it lies in this band or a higher one.

    Examples
    --------
    >>> interpret(0.67, 0.15, "fleiss", 0.95).bands[0].label
    'excellent'
    """

    label: str
    low: float
    high: float
    probability: float
    cumulative: float


@dataclasses.dataclass(frozen=True, repr=False)
class Interpretation(Result):
    """A coefficient read on one benchmark scale, as data the verdict layer turns into one sentence.

    Parameters
    ----------
    scale, source : str
        The scale's key (``landis_koch``, ``altman``, ``fleiss``) and its citation.
    band : str or None
        Gwet's reading: the highest band whose cumulative probability reaches ``level`` (``None`` when
        the standard error is not defined).
    probability : float
        That band's cumulative probability (the probability the coefficient is at least its low end).
    estimate_band : str or None
        The naive reading: the band the estimate falls in.
    level : float
        The cumulative probability the band had to reach.
    bands : tuple of Band
        Every band, top first, with its probability.

    Examples
    --------
    >>> interpret(0.67, 0.15, "landis_koch", 0.95).band
    'moderate'

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 6 (benchmarking).
    """

    scale: str
    source: str
    band: str | None
    probability: float
    estimate_band: str | None
    level: float
    bands: tuple[Band, ...]


def _estimate_band(estimate: float, bands: tuple[tuple[float, float, str], ...]) -> str | None:
    if not math.isfinite(estimate):
        return None
    for low, high, label in bands:
        if low < estimate <= high or (low == -1.0 and estimate <= high):
            return label
    return bands[0][2] if estimate > 1.0 else None


def interpret(estimate: float, se: float, scale: str, level: float) -> Interpretation:
    """Read a coefficient on a benchmark scale, with Gwet's probabilistic benchmarking.

    Parameters
    ----------
    estimate : float
        The coefficient.
    se : float
        Its standard error (0 puts all the probability on the estimate's band; NaN gives no band).
    scale : {"landis_koch", "altman", "fleiss"}
        The benchmark scale.
    level : float
        The cumulative probability a band must reach.

    Returns
    -------
    Interpretation

    Raises
    ------
    KeyError
        If ``scale`` is not a known scale (the public functions check it first).

    Examples
    --------
    >>> interpret(0.5, 0.0, "landis_koch", 0.95).band
    'moderate'

    References
    ----------
    Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for categorical data.
    *Biometrics*, 33, 159–174. Altman, D. G. (1991). *Practical Statistics for Medical Research*.
    Fleiss, J. L. (1981). *Statistical Methods for Rates and Proportions*, 2nd ed.
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 6.
    """
    source, bands = BENCHMARK_SCALES[scale]
    naive = _estimate_band(estimate, bands)
    if not (math.isfinite(estimate) and math.isfinite(se)) or se < 0:
        rows = tuple(Band(lab, lo, hi, math.nan, math.nan) for lo, hi, lab in bands)
        return Interpretation(scale, source, None, math.nan, naive, level, rows)
    if se == 0:
        probs = np.array([1.0 if lab == naive else 0.0 for _, _, lab in bands])
    else:
        lows = np.array([b[0] for b in bands])
        highs = np.array([b[1] for b in bands])
        mass = special.ndtr((estimate - lows) / se) - special.ndtr((estimate - highs) / se)
        total = special.ndtr((estimate + 1.0) / se) - special.ndtr((estimate - 1.0) / se)
        probs = mass / total if total > 0 else np.zeros(len(bands))
    cumulative = np.cumsum(probs)
    reached = np.flatnonzero(cumulative >= level - 1e-12)
    j = int(reached[0]) if len(reached) else len(bands) - 1
    rows = tuple(
        Band(lab, lo, hi, float(p), float(c))
        for (lo, hi, lab), p, c in zip(bands, probs, cumulative, strict=True)
    )
    return Interpretation(scale, source, bands[j][2], float(cumulative[j]), naive, level, rows)


def t_interval(estimate: float, se: float, df: float, level: float) -> Interval:
    """The analytic interval ``estimate ± t_{df, (1+level)/2} · se``, upper end capped at 1 (irrCAC).

    Parameters
    ----------
    estimate, se : float
        The coefficient and its standard error.
    df : float
        Degrees of freedom (n − 1).
    level : float
        Confidence level.

    Returns
    -------
    Interval
        ``Interval(None, None)`` when the estimate or the standard error is undefined.

    Examples
    --------
    >>> round(t_interval(0.5, 0.1, 30, 0.95).high, 6)
    0.704227

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5.
    """
    if not (math.isfinite(estimate) and math.isfinite(se)) or df < 1:
        return Interval(None, None)
    half = float(special.stdtrit(df, 0.5 + level / 2.0)) * se
    return Interval(estimate - half, min(1.0, estimate + half))


def p_value(estimate: float, se: float, df: float, benchmark: float, alternative: str) -> float:
    """The p-value of the t test of the coefficient against a benchmark value.

    Parameters
    ----------
    estimate, se : float
        The coefficient and its standard error; ``t = (estimate − benchmark) / se``.
    df : float
        Degrees of freedom (n − 1).
    benchmark : float
        The value tested against.
    alternative : {"two-sided", "greater", "less"}
        ``two-sided``: the coefficient differs from the benchmark; ``greater``: it is above it
        (null: at most the benchmark); ``less``: below it.

    Returns
    -------
    float
        NaN when the estimate or the standard error is undefined.

    Examples
    --------
    >>> round(p_value(0.5, 0.1, 30, 0.0, "two-sided"), 6)
    2.3e-05

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5.
    """
    if not (math.isfinite(estimate) and math.isfinite(se)) or df < 1:
        return math.nan
    if se == 0:
        diff = estimate - benchmark
        if alternative == "greater":
            return 0.0 if diff > 0 else 1.0
        if alternative == "less":
            return 0.0 if diff < 0 else 1.0
        return 0.0 if diff != 0 else 1.0
    t = (estimate - benchmark) / se
    if alternative == "greater":
        return float(special.stdtr(df, -t))
    if alternative == "less":
        return float(special.stdtr(df, t))
    return float(2.0 * special.stdtr(df, -abs(t)))
