"""The result values of the judge analysis's extensions (issue 32): strata, several judges, a
cross-fitted judge, quantiles of ratings, the small-sample interval, the design checks and the
coverage table. Frozen, typed values that print, serialise (``to_dict()``) and tabulate
(``to_frame()``), built on :class:`~humanly.judging.Estimate`.

Status codes (the presentation floor turns them into sentences):

* ``not_random_sample`` — the judge's outputs on the labelled items differ from those on the
  unlabelled items more than a random choice of labelled items would make them (the design check);
  PPI's interval assumes the labelled items are a random sample of all items;
* ``weighted_design`` — sampling probabilities were given: the estimate weights by them and the
  design check does not apply;
* ``self_judge`` — the judge's outputs are identical to a model's;
* ``small_sample`` — too few labelled items for PPI's central-limit interval (the coverage table):
  the small-sample (adjusted human-only) interval was used;
* ``few_labels`` — PPI's central-limit interval was used from fewer labelled items (in some stratum)
  than the coverage table asks for: it may cover less often than its level (``interval="auto"``
  takes the small-sample interval there);
* ``crossfit`` — the judge was fitted on the labelled items, so the estimate is cross-fitted.
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from .._core.result import Interval, Result
from ._parts import Estimate, JudgeWeight, StratumEstimate

__all__ = [
    "CODES",
    "ColumnTest",
    "CombinedJudges",
    "CoverageCell",
    "CoverageTable",
    "CrossFitEstimate",
    "DesignCheck",
    "IntervalChoice",
    "JudgeWeight",
    "QuantileEstimate",
    "SelfJudgeCheck",
    "SelfJudgeRow",
    "StrataAllocation",
    "StratifiedEstimate",
    "StratumEstimate",
]

#: the status codes of the extensions (meanings in the module docstring and docs/glossary.md)
CODES = (
    "not_random_sample",
    "weighted_design",
    "self_judge",
    "small_sample",
    "few_labels",
    "crossfit",
)


def _estimate_row(e: Estimate) -> dict[str, object]:
    return {
        "estimate": e.point,
        "low": e.interval.low,
        "high": e.interval.high,
        "classical_low": e.classical_interval.low,
        "classical_high": e.classical_interval.high,
        "lam": e.lam,
        "effective_n": e.effective_n,
        "n": e.n,
    }


@dataclasses.dataclass(frozen=True, repr=False)
class StratifiedEstimate(Result):
    """A stratified PPI++ estimate (Fisch et al. 2024): Σ w_k θ̂_k with se² = Σ w_k² se_k².

    Parameters
    ----------
    estimate : Estimate
        The combined estimate (``lam`` is the share-weighted mean of the strata's λ_k; the human-only
        interval is the stratified classical one).
    strata : tuple of StratumEstimate
        Each stratum's share, counts and own estimate, in the sorted order of their names.

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.6, 0.8), 0.05, 0.5, 0.7, Interval(0.55, 0.85), 50.0, 1.2,
    ...              0.5, 0.45, 40)
    >>> s = StratifiedEstimate(e, (StratumEstimate("a", 1.0, 40, 460, e),))
    >>> s.to_frame()["stratum"].tolist()
    ['a', '(all)']
    """

    estimate: Estimate
    strata: tuple[StratumEstimate, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per stratum, then the combination (``(all)``)."""
        rows = [
            {"stratum": s.stratum, "share": s.share, "n_unlabelled": s.n_unlabelled}
            | _estimate_row(s.estimate)
            for s in self.strata
        ]
        rows.append(
            {
                "stratum": "(all)",
                "share": 1.0,
                "n_unlabelled": sum(s.n_unlabelled for s in self.strata),
            }
            | _estimate_row(self.estimate)
        )
        return pd.DataFrame(rows)


@dataclasses.dataclass(frozen=True, repr=False)
class StrataAllocation(Result):
    """A label budget split across strata (Neyman allocation with PPI++'s residual spread).

    Parameters
    ----------
    strata : tuple of str
        The strata, in order.
    shares : tuple of float
        Their shares of all items.
    n_human : tuple of int
        Human labels per stratum under the Neyman allocation (Σ = ``budget``).
    proportional : tuple of int
        Human labels per stratum in proportion to the shares, for comparison.
    se, proportional_se : tuple of float
        Each estimand's expected standard error under either allocation.
    budget : int
        The number of human labels allocated.

    Examples
    --------
    >>> a = StrataAllocation(("a", "b"), (0.5, 0.5), (30, 70), (50, 50), (0.04,), (0.045,), 100)
    >>> a.to_frame()["n_human"].tolist()
    [30, 70]
    """

    strata: tuple[str, ...]
    shares: tuple[float, ...]
    n_human: tuple[int, ...]
    proportional: tuple[int, ...]
    se: tuple[float, ...]
    proportional_se: tuple[float, ...]
    budget: int

    def to_frame(self) -> pd.DataFrame:
        """One row per stratum."""
        return pd.DataFrame(
            {
                "stratum": list(self.strata),
                "share": list(self.shares),
                "n_human": list(self.n_human),
                "proportional": list(self.proportional),
            }
        )


@dataclasses.dataclass(frozen=True, repr=False)
class CombinedJudges(Result):
    """Several judges combined with one tuned weight each (multi-judge PPI++).

    Parameters
    ----------
    estimate : Estimate
        The combination's estimate (``lam`` is the sum of the weights, ``effective_n`` the labels the
        combination is worth, ``correlation`` that of the reference with the weighted judges).
    judges : tuple of JudgeWeight
        Each judge's weight and its estimate alone.

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.6, 0.8), 0.05, 0.5, 0.7, Interval(0.55, 0.85), 50.0, 1.2,
    ...              0.5, 0.45, 40)
    >>> CombinedJudges(e, (JudgeWeight("a", 0.3, e), JudgeWeight("b", 0.2, e))).to_frame()["judge"].tolist()
    ['a', 'b', '(combined)']
    """

    estimate: Estimate
    judges: tuple[JudgeWeight, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per judge alone, then the combination."""
        rows = [
            {"judge": j.judge, "weight": j.weight} | _estimate_row(j.alone) for j in self.judges
        ]
        total = sum(j.weight for j in self.judges)
        rows.append({"judge": "(combined)", "weight": total} | _estimate_row(self.estimate))
        return pd.DataFrame(rows)


@dataclasses.dataclass(frozen=True, repr=False)
class CrossFitEstimate(Result):
    """A cross-fitted (cross-PPI) estimate for a judge fitted on the labelled items.

    Parameters
    ----------
    estimate : Estimate
        The cross-PPI estimate.
    folds : int
        K, the number of folds.
    calibrate : str
        What was fitted on the training folds (``"linear"``, or ``"callable"`` for a function).
    seed : int or None
        The seed of the folds.
    code : str
        ``"crossfit"``.

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.6, 0.8), 0.05, 1.0, 0.7, Interval(0.55, 0.85), 50.0, 1.2,
    ...              0.5, 0.45, 40)
    >>> CrossFitEstimate(e, 10, "linear", 0).folds
    10
    """

    estimate: Estimate
    folds: int
    calibrate: str
    seed: int | None
    code: str = "crossfit"


@dataclasses.dataclass(frozen=True, repr=False)
class QuantileEstimate(Result):
    """A quantile of a rating from human ratings on some items and the judge's on all (PPI).

    Parameters
    ----------
    quantile : float
        q, in (0, 1).
    point : float
        The estimate.
    interval : Interval
        The PPI interval (ends ``None`` when no value passes the test).
    classical_point : float
        The human-only estimate (the least rating whose empirical distribution function reaches q).
    classical_interval : Interval
        The human-only (order-statistic) interval.
    n, n_unlabelled : int
        Labelled and unlabelled items.
    method : str
        ``"grid"`` (ppi-python's grid) or ``"levels"`` (a rating with few levels).

    Examples
    --------
    >>> QuantileEstimate(0.5, 3.0, Interval(3.0, 4.0), 3.0, Interval(2.0, 4.0), 100, 900,
    ...                  "levels").interval.width
    1.0
    """

    quantile: float
    point: float
    interval: Interval
    classical_point: float
    classical_interval: Interval
    n: int
    n_unlabelled: int
    method: str


@dataclasses.dataclass(frozen=True, repr=False)
class IntervalChoice(Result):
    """An estimate with the interval the small-sample rule chose for it.

    Parameters
    ----------
    estimate : Estimate
        The estimate; with ``method="adjusted"`` its point and interval are the adjusted human-only
        ones (λ = 0) and ``classical_interval`` the plain human-only interval.
    method : str
        ``"clt"`` (PPI's central-limit interval) or ``"adjusted"`` (the small-sample interval).
    kind : str
        ``"mean"`` or ``"difference"``.
    small_n : int
        The n below which the rule takes the small-sample interval for this kind.
    code : str or None
        ``"small_sample"`` when the rule chose the small-sample interval.

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.6, 0.8), 0.05, 0.0, 0.7, Interval(0.55, 0.85), 40.0, 1.0,
    ...              None, 0.45, 40)
    >>> IntervalChoice(e, "adjusted", "mean", 500, "small_sample").code
    'small_sample'
    """

    estimate: Estimate
    method: str
    kind: str
    small_n: int
    code: str | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class ColumnTest(Result):
    """The design check on one column of the judge's outputs.

    Parameters
    ----------
    name : str
        The column (the judge's label, or its score of a model).
    statistic : float
        The chi-square statistic of labelled against unlabelled items (summed over strata).
    p_value : float
        Its permutation p-value, (1 + #{draws ≥ statistic}) / (1 + draws); 20 / l when the 20th
        random design at least as extreme came at draw l (the column stopped there).
    categories : int
        The categories compared (distinct values, or bins of a score).
    draws : int or None
        The random designs drawn for this column (at most the check's ``draws``; ``None`` in results
        saved before this was recorded).

    Examples
    --------
    >>> ColumnTest("judge", 3.2, 0.36, 2).categories
    2
    """

    name: str
    statistic: float
    p_value: float
    categories: int
    draws: int | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class DesignCheck(Result):
    """Do the labelled items look like a random sample of all items, as far as the judge can tell?

    Parameters
    ----------
    status : str
        ``"random-looking"``, ``"not random"`` or ``"weighted"`` (sampling probabilities given: the
        check does not apply).
    code : str or None
        ``"not_random_sample"``, ``"weighted_design"`` or ``None``.
    p_value : float or None
        The smallest column's p-value times the number of columns (Bonferroni), at most 1.
    significance : float
        The check fires when ``p_value`` is below it.
    draws : int
        Random designs drawn at most for each column's null distribution (a column stops after 20
        at least as extreme as its own: ``ColumnTest.draws``).
    seed : int or None
        Their seed.
    n, n_unlabelled : int
        Labelled and unlabelled items.
    columns : tuple of ColumnTest
        Each column's test.

    Examples
    --------
    >>> DesignCheck("random-looking", None, 0.8, 0.01, 1999, 0, 50, 950, ()).code is None
    True
    """

    status: str
    code: str | None
    p_value: float | None
    significance: float
    draws: int
    seed: int | None
    n: int
    n_unlabelled: int
    columns: tuple[ColumnTest, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per column tested."""
        return pd.DataFrame([c.to_dict() for c in self.columns])


@dataclasses.dataclass(frozen=True, repr=False)
class SelfJudgeRow(Result):
    """The judge against one model: how often their outputs agree.

    Parameters
    ----------
    model : str
        The model.
    agreement : float
        The share of items where the judge's output equals the model's.
    identical : bool
        Whether they agree on every item.
    judge : str or None
        The judge (with several judges; ``None``: the only one).

    Examples
    --------
    >>> SelfJudgeRow("m", 1.0, True).identical
    True
    """

    model: str
    agreement: float
    identical: bool
    judge: str | None = None


@dataclasses.dataclass(frozen=True, repr=False)
class SelfJudgeCheck(Result):
    """Is the judge one of the models under evaluation?

    Parameters
    ----------
    code : str or None
        ``"self_judge"`` when the judge's outputs are identical to a model's.
    models : tuple of SelfJudgeRow
        Each model's agreement with the judge.

    Examples
    --------
    >>> SelfJudgeCheck("self_judge", (SelfJudgeRow("m", 1.0, True),)).code
    'self_judge'
    """

    code: str | None
    models: tuple[SelfJudgeRow, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per model."""
        return pd.DataFrame([m.to_dict() for m in self.models])


@dataclasses.dataclass(frozen=True, repr=False)
class CoverageCell(Result):
    """One cell of the coverage table: how often one method's interval covered the truth.

    Parameters
    ----------
    judge_accuracy : float
        How often the judge gives the human label.
    n : int
        Labelled items per study.
    estimand : str
        ``"accuracy"`` (one model) or ``"difference"`` (two models).
    method : str
        ``"ppi++"``, ``"ppi"``, ``"classical"``, ``"adjusted"`` or ``"auto"`` (the default rule).
    coverage : float
        The share of studies whose interval covered the true value.
    width : float
        The intervals' mean width.
    runs : int
        Simulated studies.

    Examples
    --------
    >>> CoverageCell(0.9, 50, "difference", "ppi++", 0.91, 0.12, 2000).coverage
    0.91
    """

    judge_accuracy: float
    n: int
    estimand: str
    method: str
    coverage: float
    width: float
    runs: int


@dataclasses.dataclass(frozen=True, repr=False)
class CoverageTable(Result):
    """The coverage of judge-assisted intervals by simulation
    (:func:`~humanly.judging.arrays.coverage_table`).

    Parameters
    ----------
    accuracies : tuple of float
        The two models' accuracies (a, b).
    n_unlabelled : int
        Unlabelled items per study.
    level : float
        The intervals' level.
    seed : int or None
        The seed (cell i draws from its own stream).
    cells : tuple of CoverageCell
        One per judge accuracy, n, estimand and method.
    judge_kind : str
        ``"label"`` (a judge that gives labels) or ``"proba"`` (a calibrated soft judge).

    Examples
    --------
    >>> t = CoverageTable((0.85, 0.8), 10000, 0.95, 0,
    ...                   (CoverageCell(0.9, 50, "difference", "ppi++", 0.91, 0.12, 2000),))
    >>> t.to_frame()["coverage"].tolist()
    [0.91]
    """

    accuracies: tuple[float, float]
    n_unlabelled: int
    level: float
    seed: int | None
    cells: tuple[CoverageCell, ...]
    judge_kind: str = "label"

    def to_frame(self) -> pd.DataFrame:
        """One row per cell."""
        return pd.DataFrame([c.to_dict() for c in self.cells])
