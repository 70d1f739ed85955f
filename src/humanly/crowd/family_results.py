"""The result of :func:`humanly.crowd.family.agreement`: one row per coefficient, and its options.

Kept apart from the computation so that the types can be imported (``from_dict`` reads them) without the
numerical machinery.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Literal

import numpy as np

from .._core.result import Interval, Note, Result
from .benchmarks import Interpretation
from .indices import Paradox, TwoRaters

__all__ = ["AgreementOptions", "AgreementResult", "Coefficient"]

Alternative = Literal["two-sided", "greater", "less"]


@dataclasses.dataclass(frozen=True, repr=False)
class AgreementOptions(Result):
    """Advanced knobs of :func:`humanly.crowd.family.agreement` (a misspelt knob is a ``TypeError``).

    Parameters
    ----------
    population : int or None
        The number of items in the population the rated items were drawn from, for the finite-population
        correction ``1 − n/N`` of Gwet's variance (irrCAC's ``N``); ``None``: infinite.
    alternative : {"two-sided", "greater", "less"}
        The p-value's alternative against the benchmark value (two-sided, as irrCAC reports it).
    scales : tuple of str
        The benchmark scales read (``landis_koch``, ``altman``, ``fleiss``), first one first in tables.
    paradox_agreement, paradox_kappa : float
        The kappa paradox is flagged when percent agreement is at least ``paradox_agreement`` and κ at
        most ``paradox_kappa``.
    memory : int
        Bytes the computation may allocate for tables that grow with the number of classes (q × q
        weights, per-pattern features, bootstrap blocks); above it, one sentence says what to change.

    Examples
    --------
    >>> AgreementOptions(population=5000).population
    5000

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 5 (the variance) and ch. 6
    (benchmarking).
    """

    population: int | None = None
    alternative: Alternative = "two-sided"
    scales: tuple[str, ...] = ("landis_koch", "altman", "fleiss")
    paradox_agreement: float = 0.8
    paradox_kappa: float = 0.4
    memory: int = 2**30


@dataclasses.dataclass(frozen=True, repr=False)
class Coefficient(Result):
    """One agreement coefficient with its uncertainty and its reading.

    Parameters
    ----------
    name, label : str
        The coefficient's id (``fleiss_kappa``, ``gwet_ac1``, …) and its display name.
    weights : str
        The weights it uses (``identity`` when unweighted, a weight name, ``custom``, or
        ``krippendorff <scale> metric`` for Krippendorff's α).
    definition : str
        What its chance agreement is, as a code: the coefficient's id before weighting
        (``gwet_ac1`` for AC1 and AC2); :func:`humanly.verdicts.methods.definition_text` says what
        it is and which reference computes it the same way.
    estimate : float
        The coefficient (NaN when undefined, e.g. κ when one class holds every label).
    agreement, chance : float
        Its observed agreement ``p_a`` and chance agreement ``p_e``.
    standard_error : float
        Gwet's analytic standard error, conditional on the raters, over items.
    interval : Interval
        ``estimate ± t · standard_error`` at ``level`` (n − 1 degrees of freedom, upper end capped at 1).
    bootstrap_interval : Interval
        The percentile bootstrap interval over items at ``level``.
    p_value : float
        The t test against the benchmark value (see :class:`AgreementResult`).
    items : int
        The items its estimate uses (pairable items for α and the pooled κ).
    interpretations : tuple of Interpretation
        Its reading on each benchmark scale (none for percent agreement).

    Examples
    --------
    >>> from humanly.data import Ratings
    >>> from humanly.crowd.family import agreement
    >>> r = Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> row = agreement(r, bootstrap=0)["fleiss_kappa"]
    >>> round(row.estimate, 4), row.interpretations[0].estimate_band
    (0.625, 'substantial')

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.
    """

    name: str
    label: str
    weights: str
    definition: str
    estimate: float
    agreement: float
    chance: float
    standard_error: float
    interval: Interval
    bootstrap_interval: Interval
    p_value: float
    items: int
    interpretations: tuple[Interpretation, ...]


@dataclasses.dataclass(frozen=True, repr=False)
class AgreementResult(Result):
    """The inter-rater agreement family on one set of ratings: one row per coefficient.

    Parameters
    ----------
    coefficients : tuple of Coefficient
        One row per coefficient, in a fixed order; ``result["fleiss_kappa"]`` picks one.
    scale, weights : str
        The measurement scale and the weights of the κ family.
    classes, values : tuple of str, tuple of float
        The classes in order (as strings) and the numbers the weights and metrics use (both empty when
        α was computed from the values, which may be many).
    items, pairable_items, raters, labels : int
        Items with a label, items with two or more, named raters (``None`` for anonymous counts),
        labels.
    level, bootstrap, seed, benchmark : float, int, int, float
        The confidence level, bootstrap replicates, the seed used and the p-values' benchmark value.
    interval_method, bootstrap_method, p_value_method : str
        How the intervals and p-values were made, as codes: ``gwet_analytic_t``;
        ``percentile_patterns``, ``percentile_items`` or ``none``; ``t_test``
        (:mod:`humanly.verdicts.methods` words them).
    pair : TwoRaters or None
        Prevalence and bias indices and PABAK, for two named raters.
    paradox : Paradox or None
        The kappa-paradox check (``None`` when no κ was computed).
    notes : tuple of Note
        One note per coefficient left out, and why (``kappa_needs_named_raters``, ``values_only``,
        ``no_ordinal_values_bootstrap``), worded by :mod:`humanly.verdicts.notes`.
    options : AgreementOptions
        The advanced knobs used.
    replicates : numpy.ndarray
        The bootstrap replicates (bootstrap × coefficients), in memory only.

    Examples
    --------
    >>> from humanly.data import Ratings
    >>> from humanly.crowd.family import agreement
    >>> r = Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> res = agreement(r, bootstrap=0)
    >>> [c.name for c in res.coefficients][:3]
    ['percent_agreement', 'fleiss_kappa', 'fleiss_kappa_pooled']
    >>> float(res.to_frame().loc["fleiss_kappa", "estimate"].round(3))
    0.625

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    """

    coefficients: tuple[Coefficient, ...]
    scale: str
    weights: str
    classes: tuple[str, ...]
    values: tuple[float, ...]
    items: int
    pairable_items: int
    raters: int | None
    labels: int
    level: float
    bootstrap: int
    seed: int
    benchmark: float
    interval_method: str
    bootstrap_method: str
    p_value_method: str
    pair: TwoRaters | None
    paradox: Paradox | None
    notes: tuple[Note, ...]
    options: AgreementOptions
    replicates: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros((0, 0)), repr=False, compare=False
    )

    def __getitem__(self, name: str) -> Coefficient:
        for row in self.coefficients:
            if row.name == name:
                return row
        names = ", ".join(c.name for c in self.coefficients)
        raise KeyError(f"{name!r}: not in this result (it holds {names})")

    def names(self) -> tuple[str, ...]:
        """The coefficients' ids, in order.

        Returns
        -------
        tuple of str

        Examples
        --------
        >>> from humanly.data import Ratings
        >>> from humanly.crowd.family import agreement
        >>> agreement(Ratings.from_counts([[3, 0], [0, 3], [2, 1]]), bootstrap=0).names()[:2]
        ('percent_agreement', 'fleiss_kappa')
        """
        return tuple(c.name for c in self.coefficients)

    def to_frame(self) -> Any:
        """One row per coefficient (index: its id): label, weights, estimate, standard error, the
        analytic and bootstrap intervals, p-value, and the reading on the first benchmark scale (the
        band reached with probability ≥ level, and that probability).

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        def end(value: float | None) -> float:
            return math.nan if value is None else float(value)

        records = []
        for c in self.coefficients:
            first = c.interpretations[0] if c.interpretations else None
            records.append(
                {
                    "coefficient": c.label,
                    "weights": c.weights,
                    "estimate": c.estimate,
                    "standard_error": c.standard_error,
                    "low": end(c.interval.low),
                    "high": end(c.interval.high),
                    "bootstrap_low": end(c.bootstrap_interval.low),
                    "bootstrap_high": end(c.bootstrap_interval.high),
                    "p_value": c.p_value,
                    "benchmark_band": None if first is None else first.band,
                    "band_probability": math.nan if first is None else first.probability,
                }
            )
        index = pd.Index([c.name for c in self.coefficients], name="name")
        return pd.DataFrame.from_records(records, index=index)
