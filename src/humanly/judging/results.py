"""What :func:`~humanly.judging.judge` returns: frozen, typed values that print, serialise
(``to_dict()``) and tabulate (``to_frame()``).

* :class:`Estimate` — one mean (an accuracy, or a difference of two accuracies) from human labels and the
  judge: the point estimate, its interval, the human-only (classical) interval beside it, λ̂, and the
  effective number of human labels;
* :class:`ModelAccuracy`, :class:`Comparison` — an estimate per model and per pair of models;
* :class:`FrontierCheck` — the judge's own accuracy against each model's on the labelled items (Dorner,
  Nastl & Hardt: a judge no more accurate than the model saves at most a factor two in labels);
* :class:`GoldAccuracy` — accuracies against gold labels, for validation only;
* :class:`JudgeResult` — all of it, with :meth:`JudgeResult.plan` for the next evaluation.

Point estimates and interval ends are clipped to the range of the estimand ([0, 1] for an accuracy,
[−1, 1] for a difference): PPI's estimate can leave it when the judge is far off (ppi-python does not
clip).
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from .._core.checks import check_probability
from .._core.result import Interval, Note, Result
from ._parts import Estimate
from ._rated_results import ModelRating, RatingComparison
from .extended import DesignCheck, SelfJudgeCheck
from .planning import LabelPlan, Pilot, plan_labels

__all__ = [
    "Comparison",
    "Estimate",
    "FrontierCheck",
    "FrontierRow",
    "GoldAccuracy",
    "JudgeResult",
    "ModelAccuracy",
]

#: the frontier check's statuses, from the paired interval of (judge − model) accuracy
STATUSES = ("judge more accurate", "no clear difference", "judge less accurate")


@dataclasses.dataclass(frozen=True, repr=False)
class ModelAccuracy(Result):
    """A model's accuracy against the human reference.

    Parameters
    ----------
    model : str
        The model's name.
    accuracy : Estimate
        Its accuracy: the mean credit of its prediction against the reference.

    Examples
    --------
    >>> e = Estimate(0.7, Interval(0.66, 0.74), 0.02, 0.55, 0.7, Interval(0.62, 0.78), 122.0, 1.22,
    ...              0.52, 0.45, 100)
    >>> ModelAccuracy("m", e).accuracy.point
    0.7
    """

    model: str
    accuracy: Estimate


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison(Result):
    """Two models compared item by item: the difference of their accuracies, ``first − second``
    (paired: one per-item difference of credits, so what the items share cancels).

    Parameters
    ----------
    first, second : str
        The models.
    difference : Estimate
        accuracy(first) − accuracy(second).

    Examples
    --------
    >>> e = Estimate(0.02, Interval(0.004, 0.038), 0.008, 0.6, 0.03, Interval(-0.01, 0.07), 300.0,
    ...              3.0, 0.8, 0.3, 100)
    >>> Comparison("a", "b", e).difference.interval.low > 0
    True
    """

    first: str
    second: str
    difference: Estimate


@dataclasses.dataclass(frozen=True, repr=False)
class FrontierRow(Result):
    """The judge against one model on the labelled items (human-only estimates).

    Parameters
    ----------
    model : str
        The model.
    model_accuracy : float
        The model's accuracy on the labelled items.
    model_interval : Interval
        Its CLT interval at ``level``.
    judge_minus_model : float
        The judge's accuracy minus the model's, item by item.
    judge_minus_model_interval : Interval
        Its paired CLT interval.
    status : str
        ``"judge more accurate"`` (the interval is above 0), ``"judge less accurate"`` (below 0) or
        ``"no clear difference"``.
    at_most_twice : bool
        True unless the judge is shown more accurate: then, by Dorner, Nastl & Hardt, no debiasing
        method saves more than half the human labels for this model (a saving factor of at most 2).
    saving : float or None
        The saving measured on these data (the model accuracy's ``effective_n / n``).

    Examples
    --------
    >>> r = FrontierRow("m", 0.9, Interval(0.85, 0.95), -0.05, Interval(-0.1, 0.0),
    ...                 "no clear difference", True, 1.4)
    >>> r.at_most_twice
    True
    """

    model: str
    model_accuracy: float
    model_interval: Interval
    judge_minus_model: float
    judge_minus_model_interval: Interval
    status: str
    at_most_twice: bool
    saving: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class FrontierCheck(Result):
    """The judge's own accuracy against the human reference on the labelled items, and each model's.

    Parameters
    ----------
    judge_accuracy : float
        The judge's accuracy (its most probable class for a soft judge) on the labelled items.
    judge_interval : Interval
        Its CLT interval at ``level``.
    n : int
        The labelled items compared.
    models : tuple of FrontierRow
        One row per model.
    judge : str or None
        With several judges, the one compared (the most accurate on the labelled items); ``None``
        with one.

    References
    ----------
    Dorner, Nastl & Hardt, "Limits to scalable evaluation at the frontier: LLM as judge won't beat
    twice the data", ICLR 2025.

    Examples
    --------
    >>> row = FrontierRow("m", 0.9, Interval(0.85, 0.95), -0.05, Interval(-0.1, 0.0),
    ...                   "no clear difference", True, 1.4)
    >>> FrontierCheck(0.85, Interval(0.8, 0.9), 100, (row,)).to_frame()["status"].tolist()
    ['no clear difference']
    """

    judge_accuracy: float
    judge_interval: Interval
    n: int
    models: tuple[FrontierRow, ...]
    judge: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per model."""
        return pd.DataFrame(
            [
                {
                    "model": r.model,
                    "model_accuracy": r.model_accuracy,
                    "model_low": r.model_interval.low,
                    "model_high": r.model_interval.high,
                    "judge_accuracy": self.judge_accuracy,
                    "judge_minus_model": r.judge_minus_model,
                    "low": r.judge_minus_model_interval.low,
                    "high": r.judge_minus_model_interval.high,
                    "status": r.status,
                    "at_most_twice": r.at_most_twice,
                    "saving": r.saving,
                }
                for r in self.models
            ]
        )


@dataclasses.dataclass(frozen=True, repr=False)
class GoldAccuracy(Result):
    """An accuracy against gold labels on the items that have one (validation; never used by the
    estimates).

    Parameters
    ----------
    name : str
        A model's name, or the judge's.
    role : str
        ``"model"`` or ``"judge"``.
    n : int
        Items with a gold label.
    accuracy : float
        The share of them it gets right.
    interval : Interval
        The CLT interval at ``level``.

    Examples
    --------
    >>> GoldAccuracy("m", "model", 50, 0.9, Interval(0.82, 0.98)).n
    50
    """

    name: str
    role: str
    n: int
    accuracy: float
    interval: Interval


@dataclasses.dataclass(frozen=True, repr=False)
class JudgeResult(Result):
    """Model accuracies (or ratings) from few human labels and many judge labels
    (:func:`~humanly.judging.judge`).

    Parameters
    ----------
    judge : str
        The judge's name (several judges: their names joined by " + ").
    judge_kind : str
        ``"label"`` (hard), ``"proba"`` (class probabilities), ``"mixed"`` (several judges of both
        kinds) or ``"rating"`` (ratings of the models' outputs).
    reference : str
        The per-item human reference: ``"label"`` or ``"plurality"``.
    estimator : str
        ``"ppi++"``, ``"ppi"`` or ``"classical"``.
    design : str
        ``"uniform"`` (the labelled items are a simple random sample), ``"stratified"`` (a simple
        random sample within each stratum) or ``"active"`` (sent to raters with known
        probabilities — ``judge select``'s, or sampling weights; inverse-probability weighted).
    level : float
        The level of every interval.
    seed : int or None
        The seed (the estimates draw no random numbers).
    n_labelled, n_unlabelled : int
        Items with human labels (n) and items with the judge's only (N).
    models : tuple of ModelAccuracy
        Each model's accuracy.
    comparisons : tuple of Comparison
        Each pair of models (in the order given).
    frontier : FrontierCheck or None
        The judge's accuracy against each model's (``None`` for ratings).
    gold : tuple of GoldAccuracy
        Accuracies against gold labels (empty without gold).
    notes : tuple of str
        What a reader should know (a judge that adds nothing, a degenerate interval).
    judges : tuple of str
        Every judge, when several are combined (each estimate's ``judges`` has their weights).
    codes : tuple of str
        What the result says about its own reliability (sentences: :mod:`humanly.verdicts.judge`):
        ``not_random_sample`` (the design check fired), ``weighted_design`` (sampling
        probabilities given: the estimates weight by them and the design check does not apply),
        ``self_judge`` (a judge's outputs are a model's), ``small_sample`` (the small-sample interval
        was used for some estimand), ``crossfit`` (the judge was calibrated on the labelled items,
        cross-fitted).
    design_check : DesignCheck or None
        Do the labelled items look like a random sample of all items, as far as the judges' outputs
        tell (within strata)?
    self_judge : SelfJudgeCheck or None
        Each judge's agreement with each model (``None`` for ratings).
    folds : int or None
        With a cross-fitted judge, the number of folds.
    ratings : tuple of ModelRating
        For ratings of the models' outputs: each model's mean rating, share at or above
        ``threshold`` and ``quantile`` (``models`` and ``comparisons`` are then empty).
    rating_comparisons : tuple of ModelRating
        For ratings: each pair's paired differences.
    threshold : float or None
        The threshold of the ratings' shares.
    quantile : float or None
        The quantile of the ratings estimated.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from humanly.judging import JudgeOptions, judge
    >>> rng = np.random.default_rng(0)
    >>> ids = [f"i{k}" for k in range(2000)]
    >>> truth = rng.integers(0, 2, 2000)
    >>> model = pd.Series(np.where(rng.random(2000) < 0.8, truth, 1 - truth), index=ids)
    >>> llm = pd.Series(np.where(rng.random(2000) < 0.9, truth, 1 - truth), index=ids)
    >>> human = pd.DataFrame({"item": ids[:200], "rater": "r", "label": truth[:200]})
    >>> res = judge(human, {"m": model}, judge=llm)
    >>> res.n_labelled, res.n_unlabelled
    (200, 1800)
    >>> a = res.model("m").accuracy  # fewer than 500 labels: the human labels' small-sample interval
    >>> a.interval_method, res.codes
    ('adjusted', ('small_sample',))
    >>> clt = judge(human, {"m": model}, judge=llm, options=JudgeOptions(interval="clt"))
    >>> b = clt.model("m").accuracy  # PPI's interval, narrower, but it may cover less than 95% here
    >>> b.interval.width < a.interval.width, b.interval_method, clt.codes
    (True, 'clt', ('few_labels',))
    """

    judge: str
    judge_kind: str
    reference: str
    estimator: str
    design: str
    level: float
    seed: int | None
    n_labelled: int
    n_unlabelled: int
    models: tuple[ModelAccuracy, ...]
    comparisons: tuple[Comparison, ...]
    frontier: FrontierCheck | None
    gold: tuple[GoldAccuracy, ...] = ()
    notes: tuple[Note, ...] = ()
    judges: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    design_check: DesignCheck | None = None
    self_judge: SelfJudgeCheck | None = None
    folds: int | None = None
    ratings: tuple[ModelRating, ...] = ()
    rating_comparisons: tuple[RatingComparison, ...] = ()
    threshold: float | None = None
    quantile: float | None = None

    def model(self, name: str) -> ModelAccuracy:
        """The accuracy of the model called ``name``.

        Parameters
        ----------
        name : str
            A model's name.

        Returns
        -------
        ModelAccuracy

        Raises
        ------
        KeyError
            No model has that name.

        Examples
        --------
        >>> e = Estimate(0.7, Interval(0.66, 0.74), 0.02, 0.55, 0.7, Interval(0.62, 0.78), 122.0,
        ...              1.22, 0.52, 0.45, 100)
        >>> d = Estimate(0.02, Interval(0.0, 0.04), 0.01, 0.6, 0.03, Interval(-0.01, 0.07), 300.0,
        ...              3.0, 0.8, 0.3, 100)
        >>> row = FrontierRow("a", 0.7, Interval(0.6, 0.8), 0.1, Interval(0.05, 0.15),
        ...                   "judge more accurate", False, 1.22)
        >>> res = JudgeResult("llm", "label", "label", "ppi++", "uniform", 0.95, 0, 100, 900,
        ...                   (ModelAccuracy("a", e), ModelAccuracy("b", e)),
        ...                   (Comparison("a", "b", d),), FrontierCheck(0.8, Interval(0.7, 0.9), 100, (row,)))
        >>> res.model("a").accuracy.point
        0.7
        """
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(f"no model {name!r}; models are {[m.model for m in self.models]}")

    def comparison(self, first: str, second: str) -> Comparison:
        """The comparison ``first − second``.

        Parameters
        ----------
        first, second : str
            The two models, in the order they were compared.

        Returns
        -------
        Comparison

        Raises
        ------
        KeyError
            That comparison was not computed.

        Examples
        --------
        >>> e = Estimate(0.7, Interval(0.66, 0.74), 0.02, 0.55, 0.7, Interval(0.62, 0.78), 122.0,
        ...              1.22, 0.52, 0.45, 100)
        >>> d = Estimate(0.02, Interval(0.0, 0.04), 0.01, 0.6, 0.03, Interval(-0.01, 0.07), 300.0,
        ...              3.0, 0.8, 0.3, 100)
        >>> row = FrontierRow("a", 0.7, Interval(0.6, 0.8), 0.1, Interval(0.05, 0.15),
        ...                   "judge more accurate", False, 1.22)
        >>> res = JudgeResult("llm", "label", "label", "ppi++", "uniform", 0.95, 0, 100, 900,
        ...                   (ModelAccuracy("a", e), ModelAccuracy("b", e)),
        ...                   (Comparison("a", "b", d),), FrontierCheck(0.8, Interval(0.7, 0.9), 100, (row,)))
        >>> res.comparison("a", "b").difference.point
        0.02
        """
        for c in self.comparisons:
            if (c.first, c.second) == (first, second):
                return c
        raise KeyError(f"no comparison {first!r} − {second!r}")

    def estimates(self) -> tuple[tuple[str, str, tuple[str, ...], Estimate], ...]:
        """Every estimand as (kind, name, models, estimate): each model's accuracy and each pair's
        difference; for ratings each model's mean rating (``"mean"``) and share at or above the
        threshold (``"share"``), each pair's differences (``"mean difference"``, ``"share
        difference"``).

        Returns
        -------
        tuple of (str, str, tuple of str, Estimate)
            One entry per estimand, models first.

        Examples
        --------
        >>> e = Estimate(0.7, Interval(0.66, 0.74), 0.02, 0.55, 0.7, Interval(0.62, 0.78), 122.0,
        ...              1.22, 0.52, 0.45, 100)
        >>> row = FrontierRow("a", 0.7, Interval(0.6, 0.8), 0.1, Interval(0.05, 0.15),
        ...                   "judge more accurate", False, 1.22)
        >>> check = FrontierCheck(0.8, Interval(0.7, 0.9), 100, (row,))
        >>> res = JudgeResult("llm", "label", "label", "ppi++", "uniform", 0.95, 0, 100, 900,
        ...                   (ModelAccuracy("a", e),), (), check)
        >>> [(kind, name) for kind, name, _, _ in res.estimates()]
        [('accuracy', 'a')]
        """
        out: list[tuple[str, str, tuple[str, ...], Estimate]] = []
        out += [("accuracy", m.model, (m.model,), m.accuracy) for m in self.models]
        out += [
            ("difference", f"{c.first} − {c.second}", (c.first, c.second), c.difference)
            for c in self.comparisons
        ]
        for r in self.ratings:
            out.append(("mean", r.model, (r.model,), r.mean))
            if r.share is not None:
                out.append(("share", r.model, (r.model,), r.share))
        for c in self.rating_comparisons:
            pair = (c.first, c.second)
            out.append(("mean difference", f"{c.first} − {c.second}", pair, c.mean_difference))
            if c.share_difference is not None:
                out.append(
                    ("share difference", f"{c.first} − {c.second}", pair, c.share_difference)
                )
        return tuple(out)

    def to_frame(self) -> pd.DataFrame:
        """One row per estimand (:meth:`estimates`), then each rating quantile."""
        rows = [
            {
                "kind": kind,
                "estimand": name,
                "estimate": e.point,
                "low": e.interval.low,
                "high": e.interval.high,
                "classical": e.classical_point,
                "classical_low": e.classical_interval.low,
                "classical_high": e.classical_interval.high,
                "lam": e.lam,
                "effective_n": e.effective_n,
                "saving": e.saving,
                "n": e.n,
                "interval_method": e.interval_method,
            }
            for kind, name, _, e in self.estimates()
        ]
        for r in self.ratings:
            q = r.quantile
            if q is not None:
                rows.append(
                    {
                        "kind": "quantile",
                        "estimand": r.model,
                        "estimate": q.point,
                        "low": q.interval.low,
                        "high": q.interval.high,
                        "classical": q.classical_point,
                        "classical_low": q.classical_interval.low,
                        "classical_high": q.classical_interval.high,
                        "n": q.n,
                        "interval_method": q.method,
                    }
                )
        return pd.DataFrame(rows)

    def pilot(self) -> tuple[Pilot, ...]:
        """What :meth:`plan` reads: ρ, σ and n of every estimand.

        Returns
        -------
        tuple of Pilot
            One per estimand of :meth:`estimates`.

        Examples
        --------
        >>> e = Estimate(0.7, Interval(0.66, 0.74), 0.02, 0.55, 0.7, Interval(0.62, 0.78), 122.0,
        ...              1.22, 0.52, 0.45, 100)
        >>> d = Estimate(0.02, Interval(0.0, 0.04), 0.01, 0.6, 0.03, Interval(-0.01, 0.07), 300.0,
        ...              3.0, 0.8, 0.3, 100)
        >>> row = FrontierRow("a", 0.7, Interval(0.6, 0.8), 0.1, Interval(0.05, 0.15),
        ...                   "judge more accurate", False, 1.22)
        >>> res = JudgeResult("llm", "label", "label", "ppi++", "uniform", 0.95, 0, 100, 900,
        ...                   (ModelAccuracy("a", e), ModelAccuracy("b", e)),
        ...                   (Comparison("a", "b", d),), FrontierCheck(0.8, Interval(0.7, 0.9), 100, (row,)))
        >>> [p.kind for p in res.pilot()]
        ['accuracy', 'accuracy', 'difference']
        """
        return tuple(
            Pilot(
                name,
                kind,
                models,
                e.correlation,
                e.sd,
                e.n,
                tuple(
                    (s.stratum, s.share, s.estimate.sd, s.estimate.correlation) for s in e.strata
                ),
            )
            for kind, name, models, e in self.estimates()
        )

    def plan(
        self,
        cost_human: float,
        cost_judge: float,
        *,
        max_cost: float | None = None,
        target_width: float | None = None,
        n_max: int | None = None,
    ) -> LabelPlan:
        """Plan the next evaluation from this one as a pilot: human-labelled and judge-only items for
        every estimand, for the most money to spend or a target width (ppi-python's ``ppi_mean_power``).

        Parameters
        ----------
        cost_human, cost_judge : float
            The cost of a human label and of a judge call (> 0).
        max_cost : float, optional
            The most to spend, in the units of ``cost_human`` and ``cost_judge``; the most powerful
            plan that costs no more.
        target_width : float, optional
            The interval width (at this result's ``level``) to reach; the cheapest plan.
        n_max : int, optional
            At most this many items in all.

        Returns
        -------
        LabelPlan

        Raises
        ------
        InputError
            A cost ≤ 0, neither or both of ``max_cost`` and ``target_width``, or a ``max_cost``
            that buys fewer than two human labels.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> from humanly.judging import judge
        >>> rng = np.random.default_rng(1)
        >>> ids = np.arange(5000)
        >>> truth = rng.integers(0, 2, 5000)
        >>> model = pd.Series(np.where(rng.random(5000) < 0.8, truth, 1 - truth), index=ids)
        >>> llm = pd.Series(np.where(rng.random(5000) < 0.9, truth, 1 - truth), index=ids)
        >>> human = pd.DataFrame({"item": ids[:300], "rater": "r", "label": truth[:300]})
        >>> plan = judge(human, {"m": model}, judge=llm).plan(1.0, 0.01, max_cost=500)
        >>> e = plan.estimands[0]
        >>> e.n_human < 500 and e.width < e.human_width
        True

        References
        ----------
        Angelopoulos, Duchi & Zrnic (2023), PPI++; Broska, Howes & van Loon (2024).
        """
        return plan_labels(
            self.pilot(),
            cost_human,
            cost_judge,
            max_cost=max_cost,
            target_width=target_width,
            n_max=n_max,
            level=check_probability("level", self.level, open_low=True, open_high=True),
        )
