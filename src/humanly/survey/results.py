"""Result types of survey equivalence: frozen values that print, serialise (``to_dict``/``to_json``, the
``--json`` contract) and turn into tables (``to_frame``). Nothing here computes a statistic beyond reading
percentile ranges off the bootstrap replicates a result already holds."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from .._core.bootstrap import percentile_interval
from .._core.result import Interval, Result

__all__ = [
    "AmateurWorth",
    "EquivalenceResult",
    "ExpertEquivalence",
    "Headroom",
    "HeadroomSupport",
    "ModelEquivalence",
    "PowerCurve",
    "PowerCurvePoint",
]


def _information_ranges(
    samples: np.ndarray | None, points: tuple[PowerCurvePoint, ...]
) -> tuple[Interval, ...]:
    """95% ranges of c_k − c_0, replicate by replicate (c_0 moves with the replicate), by the library's
    percentile rule; without replicates, the curve's own ranges shifted by c_0."""
    if samples is None or not len(samples):
        c0 = points[0].score if points else 0.0
        return tuple(
            Interval(None if p.low is None else p.low - c0, None if p.high is None else p.high - c0)
            for p in points
        )
    rel = samples - samples[:, :1]
    return tuple(percentile_interval(rel[:, j]) for j in range(rel.shape[1]))


def _frame(rows: tuple[Any, ...], columns: tuple[str, ...]) -> pd.DataFrame:
    """One row per dataclass in ``rows``, the given attributes as columns."""
    return pd.DataFrame([{c: getattr(r, c) for c in columns} for r in rows], columns=list(columns))


_POINT_COLUMNS = ("k", "score", "low", "high", "n_items")


@dataclasses.dataclass(frozen=True, repr=False)
class PowerCurvePoint(Result):
    """One point of the survey power curve: the expected score c_k of k raters, its 95% bootstrap range
    (``None`` without a bootstrap) and the number of items with at least k + r labels (the items used at
    this k).

    >>> PowerCurvePoint(k=1, score=0.7, low=0.65, high=0.75, n_items=100).score
    0.7
    """

    k: int
    score: float
    low: float | None
    high: float | None
    n_items: int


@dataclasses.dataclass(frozen=True, repr=False)
class ModelEquivalence(Result):
    """A classifier's score (Algorithm 1) and survey equivalence (Algorithm 4) with 95% ranges.

    ``equivalence`` is ``None`` with ``equivalence_note`` ``"below_0"`` (score ≤ c_0) or ``"above_max"``
    (no curve point reaches the score). In the ranges, replicates below 0 count as 0 and replicates
    above the curve as +∞ (a ``None`` high end). ``equivalence_mean`` is the mean over the bootstrap
    replicates (the paper's "mean survey equivalence", e.g. 4.17 beside 4.31; ``None`` without a
    bootstrap or when a replicate lies above the curve). ``n_items`` counts the items with at least r
    labels (the items scored); ``information`` (ABC + cross-entropy) is score − c_0 in bits and
    ``performance_ratio`` that information over the headroom's. ``items_needed`` (with
    ``target_width=``): how many items would bring the 95% range of the equivalence below the target
    width, assuming the width shrinks as 1/√N — an approximation.

    >>> m = ModelEquivalence("m", -0.8, None, None, 2.5, None, None, None, 100)
    >>> m.equivalence
    2.5
    """

    model: str
    score: float
    low: float | None
    high: float | None
    equivalence: float | None
    equivalence_note: str | None
    equivalence_low: float | None
    equivalence_high: float | None
    n_items: int
    information: float | None = None
    performance_ratio: float | None = None
    equivalence_mean: float | None = None
    items_needed: int | None = None
    information_range: Interval | None = None


_MODEL_COLUMNS = tuple(f.name for f in dataclasses.fields(ModelEquivalence))


@dataclasses.dataclass(frozen=True, repr=False)
class PowerCurve(Result):
    """A survey power curve (Algorithm 3) with bootstrap ranges; ``curve_samples`` holds the bootstrap
    replicates (replicates × points) when there are any.

    >>> pc = PowerCurve("abc", "cross_entropy", "exact", 10, 0, 1,
    ...                 (PowerCurvePoint(0, -1.0, None, None, 10), PowerCurvePoint(1, -0.9, None, None, 10)))
    >>> pc.to_frame()[["k", "score"]].to_dict("list")
    {'k': [0, 1], 'score': [-1.0, -0.9]}
    """

    combiner: str
    scorer: str
    method: str
    n_items: int
    bootstrap: int
    reference_size: int
    power_curve: tuple[PowerCurvePoint, ...]
    curve_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)

    @property
    def ks(self) -> np.ndarray:
        """The survey sizes k of the points."""
        return np.array([p.k for p in self.power_curve])

    @property
    def scores(self) -> np.ndarray:
        """The curve c_k."""
        return np.array([p.score for p in self.power_curve])

    def to_frame(self) -> pd.DataFrame:
        """The curve as a table: one row per k (``k, score, low, high, n_items``)."""
        return _frame(self.power_curve, _POINT_COLUMNS)

    def information_ranges(self) -> tuple[Interval, ...]:
        """The 95% range of the information gain c_k − c_0 at each k, taken replicate by replicate
        (c_0 moves with the replicate); the curve's ranges shifted by c_0 without replicates."""
        return _information_ranges(self.curve_samples, self.power_curve)


@dataclasses.dataclass(frozen=True, repr=False)
class HeadroomSupport(Result):
    """One state of the estimated item-state mixture: a label distribution and its weight.

    >>> HeadroomSupport(state=(0.8, 0.2), weight=0.7).to_dict()
    {'state': [0.8, 0.2], 'weight': 0.7}
    """

    state: tuple[float, ...]
    weight: float


@dataclasses.dataclass(frozen=True, repr=False)
class Headroom(Result):
    """Estimated asymptote of the ABC + cross-entropy power curve.

    ``information`` = ideal − baseline (bits): the information about a held-out rater's label given by
    a classifier that knows each item's state; ``ideal_score`` = −E[H(s)] and ``baseline_score`` =
    −H(E[s]) are the limits of that classifier's and of c_0's cross-entropy. ``support`` lists the
    heaviest states of the fitted mixture (at most ten, weight > 0.001). ``grid_points`` counts the
    candidate states (``candidates``: ``"grid G"`` or ``"item frequencies"``); ``converged`` says
    whether the fit reached a mean log-likelihood per item provably within its tolerance of the
    maximum within ``iterations`` steps, ``gap`` being that bound (nats per item).

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import headroom
    >>> h = headroom(running_example(300, 8, seed=1).ratings)
    >>> h.information > 0, len(h.support) <= 10
    (True, True)
    """

    information: float
    ideal_score: float
    baseline_score: float
    n_items: int
    grid_points: int
    support: tuple[HeadroomSupport, ...]
    iterations: int
    converged: bool
    log_likelihood: float
    gap: float | None = None
    candidates: str = "grid"


@dataclasses.dataclass(frozen=True, repr=False)
class EquivalenceResult(Result):
    """Power curve, classifier scores and survey equivalences (``humanly equivalence --json``).

    ``information`` (ABC + cross-entropy only) lists c_k − c_0 in bits, the mutual information between k
    raters and a held-out one (Theorem 1); ``headroom`` the estimated asymptote (see
    :func:`humanly.survey.headroom`) when requested. ``curve_samples`` (replicates × points) and
    ``model_samples`` (replicates × models) hold the bootstrap replicates. ``target_width``: the
    width asked for the equivalence ranges (each model's ``items_needed``). ``to_frame()`` is the
    per-model table, ``curve_frame()`` the power curve.

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import equivalence
    >>> d = running_example(100, 4, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=5, progress=False)
    >>> res.curve_frame().columns.tolist()
    ['k', 'score', 'low', 'high', 'n_items', 'information']
    >>> res.to_frame()["model"].tolist(), res.curve_samples.shape
    (['hard', 'soft'], (5, 4))
    """

    combiner: str
    scorer: str
    method: str
    n_items: int
    bootstrap: int
    seed: int | None
    reference_size: int
    calibration: str
    classes: tuple[Any, ...]
    positive: Any
    power_curve: tuple[PowerCurvePoint, ...]
    models: tuple[ModelEquivalence, ...]
    information: tuple[float, ...] | None
    headroom: Headroom | None
    notes: tuple[str, ...]
    curve_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    model_samples: np.ndarray | None = dataclasses.field(default=None, repr=False)
    target_width: float | None = None
    information_range: tuple[Interval, ...] | None = None

    @property
    def ks(self) -> np.ndarray:
        """The survey sizes k of the curve points."""
        return np.array([p.k for p in self.power_curve])

    @property
    def scores(self) -> np.ndarray:
        """The curve c_k."""
        return np.array([p.score for p in self.power_curve])

    @property
    def curve(self) -> PowerCurve:
        """The power curve alone (what :func:`humanly.survey.power_curve` returns)."""
        return PowerCurve(
            self.combiner,
            self.scorer,
            self.method,
            self.n_items,
            self.bootstrap,
            self.reference_size,
            self.power_curve,
            self.curve_samples,
        )

    def model(self, name: str) -> ModelEquivalence:
        """The row of model ``name`` (``KeyError`` when there is none)."""
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(name)

    def information_ranges(self) -> tuple[Interval, ...]:
        """The 95% range of the information gain c_k − c_0 at each k (see
        :meth:`PowerCurve.information_ranges`): :attr:`information_range` when the analysis stored it
        (ABC + cross-entropy), else from the replicates held in memory."""
        if self.information_range is not None:
            return self.information_range
        return _information_ranges(self.curve_samples, self.power_curve)

    def model_information_range(self, name: str) -> Interval:
        """The 95% range of model ``name``'s score minus c_0, replicate by replicate; its score range
        shifted by c_0 without replicates.

        >>> from humanly.simulate import running_example
        >>> from humanly.survey import equivalence
        >>> d = running_example(100, 4, seed=1)
        >>> res = equivalence(d.ratings, d.predictions, bootstrap=20, progress=False)
        >>> lo, hi = res.model_information_range("soft")
        >>> bool(lo <= res.model("soft").score - res.scores[0] <= hi)
        True
        """
        i = next((j for j, m in enumerate(self.models) if m.model == name), None)
        if i is None:
            raise KeyError(name)
        m = self.models[i]
        if m.information_range is not None:
            return m.information_range
        cs, ms = self.curve_samples, self.model_samples
        if cs is not None and ms is not None and len(cs):
            return percentile_interval(ms[:, i] - cs[:, 0])
        c0 = self.power_curve[0].score if self.power_curve else 0.0
        return Interval(
            None if m.low is None else m.low - c0, None if m.high is None else m.high - c0
        )

    def to_frame(self) -> pd.DataFrame:
        """The per-model table: one row per model, the fields of :class:`ModelEquivalence`."""
        return _frame(self.models, _MODEL_COLUMNS)

    def curve_frame(self) -> pd.DataFrame:
        """The power curve: one row per k (``k, score, low, high, n_items`` and, for ABC +
        cross-entropy, ``information`` = c_k − c_0)."""
        out = _frame(self.power_curve, _POINT_COLUMNS)
        if self.information is not None:
            out["information"] = list(self.information)
        return out


@dataclasses.dataclass(frozen=True, repr=False)
class AmateurWorth(Result):
    """How many experts ``amateurs`` amateur labels are worth: ``experts`` (``None`` with ``note``
    ``"below_0"`` / ``"above_max"``) and its 95% range ``low``–``high``.

    >>> AmateurWorth(amateurs=3, experts=1.4, note=None, low=1.1, high=1.8).experts
    1.4
    """

    amateurs: int
    experts: float | None
    note: str | None
    low: float | None
    high: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class ExpertEquivalence(Result):
    """Expert power curve, amateur curve (scored against held-out experts) and, for each k, how many
    experts k amateurs are worth (``worth``). ``to_frame()`` is the worth table with the amateur curve's
    score a_k.

    >>> pts = (PowerCurvePoint(0, -1.0, None, None, 9), PowerCurvePoint(1, -0.8, None, None, 9))
    >>> ex = ExpertEquivalence("abc", "cross_entropy", 9, 0, pts, pts,
    ...                        (AmateurWorth(0, None, "below_0", None, None),
    ...                         AmateurWorth(1, 1.0, None, None, None)))
    >>> ex.to_frame()[["amateurs", "score", "experts"]].values.tolist()
    [[0.0, -1.0, nan], [1.0, -0.8, 1.0]]
    """

    combiner: str
    scorer: str
    n_items: int
    bootstrap: int
    expert_curve: tuple[PowerCurvePoint, ...]
    amateur_curve: tuple[PowerCurvePoint, ...]
    worth: tuple[AmateurWorth, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per number of amateurs k: ``amateurs, score`` (a_k) ``, experts, note, low, high``."""
        out = _frame(self.worth, ("amateurs", "experts", "note", "low", "high"))
        out.insert(1, "score", [p.score for p in self.amateur_curve])
        return out
