"""Plan a test set from a pilot (beyond the paper): estimate the correlated error model of section 3.2
from a pilot with several labels per item and two models' predictions, bootstrap the estimates, test
assumptions 1 and 2, and recommend m and the label budget that reaches a level.

Two estimators (``estimator``):

* ``"latent"`` (default) — the true label is a latent variable; EM fits the paper's correlated error
  model with each item's labels independent given its true label and which classifiers are right
  (:mod:`humanly.budget.latent`). Needs ≥ 3 labels per pilot item. No proxy bias.
* ``"majority"`` — the crowd majority of the pilot labels as the truth (:mod:`humanly.budget.proxy`):
  simple, but biased towards agreement with the crowd (q̂ and the classifier accuracies shrink towards
  the crowd's own agreement).

Assumption tests (:mod:`humanly.budget.assumptions`): each assumption is decided by the sign of one
quantity — q_b − q_w for assumption 1, the difference of the two sides of eq. (3) for assumption 2 at
each m — reported with its point estimate, a 95% percentile bootstrap interval (the same estimator on
every replicate) and a verdict.

Ranges: percentile bootstrap over items (seeded: replicate i draws from ``stream(seed, i)``); they cover
sampling error, not model error. The recommendation uses the point estimates. Predictions are joined to
the ratings by item id (:func:`humanly.data.join`), never by position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_bootstrap, check_choice, check_int
from .._core.result import Note, Result
from ..data import InputError, Predictions, Ratings, Study, join
from ..errors import setting
from ._args import Ties, VoteTies, check_budget, check_level, check_ms
from .assumptions import (
    Assumptions,
    ParameterIntervals,
    VariantShare,
    assumption1_share,
    check_assumptions,
    parameter_intervals,
    variant_shares,
)
from .comparison import Comparison, compare
from .curves import WinCurve
from .identification import WeakEstimate, weak_estimates
from .latent import LatentClassFit
from .models import CorrelatedErrors
from .options import PlanOptions
from .pilot import latent_pilot, majority_pilot
from .size import SizeResult, SizeRow, sample_size

__all__ = ["ESTIMATORS", "Estimator", "PilotPlan", "pilot_plan"]

#: The pilot estimators: latent class (default) or the crowd majority as proxy truth.
Estimator = Literal["latent", "majority"]
ESTIMATORS: tuple[Estimator, ...] = ("latent", "majority")


@dataclass(frozen=True, repr=False)
class PilotPlan(Result):
    """The correlated error model estimated from a pilot, with its uncertainty and the budget it implies.

    Parameters
    ----------
    better, worse : str
        The two models compared (c_b and c_w).
    n_items : int
        Pilot items.
    n_used : int
        Items the estimate used.
    estimates : CorrelatedErrors
        The point estimates, left unchecked (estimates may leave the paper's ranges).
    intervals : ParameterIntervals
        Their 95% percentile bootstrap intervals.
    assumptions : Assumptions
        The tests of assumptions 1 and 2.
    assumption1_share : float
        The share of bootstrap replicates with q_b ≥ q_w.
    sizes : tuple of SizeRow
        The label budget that reaches ``level``, per m, at the point estimates.
    recommended_labels_per_item : int or None
        The cheapest m (None when no m reaches the level).
    recommended_budget : int or None
        Its exact budget.
    level : float
        The probability of ranking the better classifier first that the budget must reach.
    bootstrap : int
        Bootstrap replicates over items.
    seed : int
        The seed.
    comparison : Comparison, optional
        The exact win probabilities at ``budget`` labels, per m, at the point estimates.
    notes : tuple of str
        What a reader should know (EM's convergence, narrow BIC margins, short items, …); the
        verdicts floor adds what the result implies (:func:`humanly.verdicts.pilot.pilot_notes`).
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    estimator : {"latent", "majority"}
        The estimator.
    fit : LatentClassFit, optional
        The latent-class fit (None for ``estimator="majority"``).
    bootstrap_converged : float, optional
        The share of bootstrap fits that converged.
    latent_variant : str, optional
        The latent variant the estimates come from.
    bootstrap_variants : tuple of VariantShare
        The share of replicates selecting each latent variant.
    recommended_items : int, optional
        Items of the recommendation (budget / m).
    curve : WinCurve, optional
        The exact win probability against the budget at the estimates (:func:`~humanly.budget.plan`
        fills it; :func:`pilot_plan` leaves it empty).
    warnings : tuple of WeakEstimate
        The estimates the pilot identifies weakly: on the edge of their range, or with a bootstrap
        range wider than 0.2 (:mod:`humanly.budget.identification`), each with its reason code; the
        plan's verdict says what they mean (:func:`humanly.verdicts.pilot.weak_sentence`).

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    >>> res = pilot_plan(d.ratings, d.predictions, bootstrap=0)
    >>> res.recommended_labels_per_item, res.recommended_budget, res.level
    (1, 93, 0.95)
    """

    better: str
    worse: str
    n_items: int
    n_used: int
    estimates: CorrelatedErrors
    intervals: ParameterIntervals
    assumptions: Assumptions
    assumption1_share: float
    sizes: tuple[SizeRow, ...]
    recommended_labels_per_item: int | None
    recommended_budget: int | None
    level: float
    bootstrap: int
    seed: int
    comparison: Comparison | None = None
    notes: tuple[Note, ...] = ()
    ties: str = "loss"
    vote_ties: str = "coin"
    estimator: str = "latent"
    fit: LatentClassFit | None = None
    bootstrap_converged: float | None = None
    latent_variant: str | None = None
    bootstrap_variants: tuple[VariantShare, ...] = ()
    recommended_items: int | None = None
    curve: WinCurve | None = None
    warnings: tuple[WeakEstimate, ...] = ()

    def error_model(self) -> CorrelatedErrors:
        """The estimated correlated error model.

        Returns
        -------
        CorrelatedErrors
            The point estimates (unchecked: estimates may leave the paper's ranges).

        Examples
        --------
        >>> from humanly.simulate import pair
        >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
        >>> pilot_plan(d.ratings, d.predictions, bootstrap=0).error_model().scenario
        'correlated'
        """
        return self.estimates

    def to_frame(self) -> pd.DataFrame:
        """The label budgets that reach the level, one row per m (the columns of :class:`SizeRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.sizes])

    def estimates_frame(self) -> pd.DataFrame:
        """The estimates with their ranges.

        Returns
        -------
        pandas.DataFrame
            One row per parameter: ``parameter``, ``estimate``, ``low``, ``high``.

        Examples
        --------
        >>> from humanly.simulate import pair
        >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
        >>> list(pilot_plan(d.ratings, d.predictions, bootstrap=100).estimates_frame().columns)
        ['parameter', 'estimate', 'low', 'high']
        """
        return pd.DataFrame(
            [
                {
                    "parameter": k,
                    "estimate": getattr(self.estimates, k),
                    "low": r.low,
                    "high": r.high,
                }
                for k, r in self.intervals.items()
            ]
        )

    def assumptions_frame(self) -> pd.DataFrame:
        """The assumption tests.

        Returns
        -------
        pandas.DataFrame
            One row per test: ``name``, ``m``, ``estimate``, ``low``, ``high``, ``verdict``.

        Examples
        --------
        >>> from humanly.simulate import pair
        >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
        >>> pilot_plan(d.ratings, d.predictions, bootstrap=100).assumptions_frame()["name"].tolist()
        ['assumption1', 'assumption2_m3', 'assumption2_m5']
        """
        return pd.DataFrame(
            [
                {
                    "name": t.name,
                    "labels_per_item": t.labels_per_item,
                    "estimate": t.estimate,
                    "low": t.interval.low,
                    "high": t.interval.high,
                    "verdict": t.verdict,
                }
                for t in self.assumptions.tests
            ]
        )


def _recommend(
    est: CorrelatedErrors,
    level: float,
    ms: tuple[int, ...],
    ties: Ties,
    vote_ties: VoteTies,
    notes: list[Note],
) -> tuple[SizeResult, SizeRow | None]:
    """The exact sample sizes at the point estimates and the cheapest m's row (None, with a note, when
    no m reaches the level)."""
    size = sample_size(est, level, ms, ties=ties, vote_ties=vote_ties)
    rec = next((row for row in size.rows if row.labels_per_item == size.best_labels_per_item), None)
    if rec is None:
        notes.append(Note("no_budget_identifies"))
    return size, rec


def check_run(
    bootstrap: Any, seed: Any, estimator: Any, opts: PlanOptions
) -> tuple[int, int, Estimator]:
    """The pilot's bootstrap, seed and estimator, checked (and the latent variant against it)."""
    if not isinstance(opts, PlanOptions):
        raise TypeError(f"options={opts!r}: give a PlanOptions (or None)")
    bootstrap = check_bootstrap(bootstrap, bytes_per_replicate=8)
    seed = check_int("seed", seed, minimum=0)
    estimator = check_choice("estimator", estimator, ESTIMATORS)
    if estimator == "majority" and opts.latent_variant != "select":
        raise InputError(
            f"{setting('latent_variant', opts.latent_variant)} applies to "
            f"{setting('estimator', 'latent')}; pass "
            f"{setting('estimator', 'latent')} or leave {setting('latent_variant', 'select')}"
        )
    return int(bootstrap), int(seed), estimator


def _pilot_inputs(
    ratings: Any, predictions: Any, missing: Any, options: Any = None
) -> tuple[Ratings, Predictions]:
    """The pilot's ratings (two classes) and predictions, joined by item id."""
    if predictions is None and not isinstance(ratings, Study):
        raise InputError("the pilot plan needs predictions of two models on the pilot items")
    study = _study(ratings, predictions, missing, options)
    r, preds = study.ratings, study.predictions
    if preds is None:
        raise InputError("the pilot plan needs predictions of two models on the pilot items")
    if r.n_classes != 2:
        raise InputError(
            f"the pilot plan needs two classes (the paper's binary setting); the ratings have "
            f"{r.n_classes}"
        )
    return r, preds


def _study(ratings: Any, predictions: Any, missing: Any, options: Any = None) -> Study:
    """The ratings and predictions joined by item id (a Study passed as ``ratings`` as it is); the
    models ``options.better`` and ``options.worse`` name must be among the predictions."""
    study = join(ratings, predictions, missing=missing)
    if options is not None:
        names = study.predictions.names if study.predictions is not None else ()
        for param in ("better", "worse"):
            name = getattr(options, param)
            if name is not None and name not in names:
                known = ", ".join(names) if names else "none (no predictions were given)"
                raise InputError(f"{setting(param, name)}: no such model; the models are: {known}")
    return study


def _identification(
    est: CorrelatedErrors,
    reps: list[dict[str, float]],
    bootstrap: int,
    information: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The bootstrap ranges and the weakly identified estimates (without a bootstrap, read off the
    observed information)."""
    intervals = parameter_intervals(est, reps)
    weak = weak_estimates(est, dict(intervals.items()), bootstrap, information)
    return {"intervals": intervals, "warnings": weak}


def pilot_plan(
    ratings: Any,
    predictions: Any = None,
    *,
    level: float = 0.95,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    estimator: Estimator = "latent",
    bootstrap: int = 1000,
    seed: int = 0,
    budget: int | None = None,
    missing: Literal["error", "drop"] = "error",
    options: PlanOptions | None = None,
) -> PilotPlan:
    """Estimate the correlated error model from a pilot and recommend the labelling that reaches a level.

    Bootstraps the estimates over items, tests assumptions 1–2 and recommends the m and label budget
    that rank the better classifier first with probability ≥ ``level`` (exactly, at the estimates).

    Parameters
    ----------
    ratings : Ratings, Study or any form :func:`humanly.data.join` accepts
        The pilot's crowd labels (two classes); a :class:`~humanly.data.Study` carries the
        predictions too.
    predictions : Predictions or mapping, optional
        Two or more models' predictions on the pilot items, joined by item id.
    level : float
        The probability of ranking the better classifier first that the budget must reach (the
        paper's error δ is 1 − level).
    labels_per_item : int or sequence of int
        Labels per item to compare.
    estimator : {"latent", "majority"}
        The estimator: a latent-class model (EM over the unseen true label; ≥ 3 labels per item) or
        the crowd majority taken as the truth (biased towards agreement with the crowd).
    bootstrap : int
        Bootstrap replicates over items behind the ranges and the tests (0: none).
    seed : int
        The seed: replicate i resamples items with ``stream(seed, i)``.
    budget : int, optional
        Also give the exact win probabilities for this many labels (``comparison``).
    missing : {"error", "drop"}
        What to do with item ids that do not match.
    options : PlanOptions, optional
        ``better``, ``worse``, ``ties``, ``vote_ties``, ``latent_variant``, ``workers``, ``scheduler``.

    Returns
    -------
    PilotPlan
        The estimates, their ranges, the assumption tests and the recommendation.

    Raises
    ------
    InputError
        For fewer than two models, classes other than two, a pilot too small, or bad settings.

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    >>> res = pilot_plan(d.ratings, d.predictions, bootstrap=0)
    >>> res.better, res.recommended_labels_per_item, res.assumptions.assumption1, res.fit.converged
    ('better', 1, True, True)

    References
    ----------
    Dorner & Hardt, *Don't Label Twice*, arXiv:2402.02249, section 3.2 and Assumptions 1–2.
    """
    opts = options if options is not None else PlanOptions()
    (level, _), ms = check_level(level), check_ms(labels_per_item)
    budget = check_budget(budget, allow_none=True)
    bootstrap, seed, estimator = check_run(bootstrap, seed, estimator, opts)
    r, preds = _pilot_inputs(ratings, predictions, missing, opts)
    checked = tuple(mm for mm in ms if mm > 1)
    args = (r, preds, opts.better, opts.worse, checked, opts.vote_ties, bootstrap, seed)
    run = (opts.workers, opts.scheduler)
    if estimator == "latent":
        pilot = latent_pilot(*args, *run, latent_variant=opts.latent_variant)
    else:
        pilot = majority_pilot(*args, *run)
    est, b, w = pilot.estimates, pilot.better, pilot.worse
    notes = list(pilot.notes)
    if (1 - est.p_w) * est.p_b0 + est.p_w * est.p_b1 <= est.p_w:
        truth = "latent" if estimator == "latent" else "majority"
        values = {"better": b, "worse": w, "truth": truth}
        notes.append(Note("better_not_more_accurate", values))
    size, rec = _recommend(est, level, ms, opts.ties, opts.vote_ties, notes)
    assumptions = check_assumptions(pilot, checked, bootstrap, int(r.labels_per_item.max()))
    rules: dict[str, Any] = dict(ties=opts.ties, vote_ties=opts.vote_ties)
    comp = None if budget is None else compare(est, budget, ms, **rules)
    converged = [x["converged"] for x in pilot.replicates if "converged" in x]
    best = None if rec is None else rec.budget_exact
    return PilotPlan(
        better=b,
        worse=w,
        n_items=r.n_items,
        n_used=pilot.n_used,
        estimates=est,
        **_identification(est, pilot.replicates, bootstrap, pilot.information),
        assumptions=assumptions,
        assumption1_share=assumption1_share(est, pilot.replicates),
        sizes=size.rows,
        recommended_labels_per_item=None if rec is None else rec.labels_per_item,
        recommended_budget=best,
        level=level,
        bootstrap=bootstrap,
        seed=seed,
        comparison=comp,
        notes=tuple(notes),
        ties=opts.ties,
        vote_ties=opts.vote_ties,
        estimator=estimator,
        fit=pilot.fit,
        bootstrap_converged=float(np.mean(converged)) if converged else None,
        latent_variant=None if pilot.fit is None else pilot.fit.latent_variant,
        bootstrap_variants=variant_shares(pilot.replicates),
        recommended_items=None if rec is None or best is None else best // rec.labels_per_item,
    )
