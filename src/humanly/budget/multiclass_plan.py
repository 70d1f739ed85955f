"""Plan a test set with K classes from a pilot (beyond the paper; section 5's open problem): estimate the
class-conditional confusion matrices of the crowd and of two models (:mod:`humanly.budget.multiclass_pilot`),
then compute exactly — section 5's K-class win probabilities with plurality votes — the label budget
each m needs to rank the better model first with probability ≥ ``level``, and whether one label per
item is the cheapest.

The verdict is a code (:data:`VERDICTS`): ``one_label_per_item`` when m = 1 needs the smallest budget,
``several_labels_per_item`` when some m > 1 does, ``no_m_reaches_level`` when none reaches the level
(E[G] ≤ 0 at the estimates). Status codes (:data:`CODES`) say what a reader must know; the sentences
are written by the presentation floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.result import Result
from ..data import InputError
from ..errors import setting
from ._args import check_budget, check_level, check_ms
from .comparison import Comparison, compare
from .confusion import ConfusionErrors
from .curves import WinCurve
from .identification import WeakEstimate
from .multiclass_pilot import ConfusionEstimate, fit_multiclass_pilot
from .options import PlanOptions
from .planning import _study, check_run
from .size import SizeRow, sample_size

__all__ = ["CODES", "VERDICTS", "MulticlassPilotPlan", "multiclass_pilot_plan"]

#: The verdict codes.
ONE_LABEL, SEVERAL_LABELS, NO_M = (
    "one_label_per_item",
    "several_labels_per_item",
    "no_m_reaches_level",
)
VERDICTS = (ONE_LABEL, SEVERAL_LABELS, NO_M)
#: Status codes: EM stopped before converging; some pilot items have fewer than 3 labels; the model
#: called better is not more accurate at the estimates; a class's crowd accuracy is at or below
#: chance (1/K), where the latent classes are not identified; some estimate is weakly identified.
NOT_CONVERGED = "fit_not_converged"
FEW_LABELS = "items_with_fewer_than_3_labels"
NOT_BETTER = "better_not_more_accurate"
BELOW_CHANCE = "crowd_at_or_below_chance"
WEAK = "weak_estimates"
CODES = (NOT_CONVERGED, FEW_LABELS, NOT_BETTER, BELOW_CHANCE, WEAK)


@dataclass(frozen=True, repr=False)
class MulticlassPilotPlan(Result):
    """The K-class error model estimated from a pilot, its uncertainty and the budget it implies.

    Parameters
    ----------
    better, worse : str
        The two models compared (c_b and c_w).
    classes : tuple
        The classes (the rows and columns of every matrix, in this order).
    n_items : int
        Pilot items.
    n_used : int
        Items the fit used (those with labels).
    n_few_labels : int
        Of those, the items with fewer than 3 labels (they enter the likelihood but cannot separate
        the classes on their own).
    estimates : ConfusionErrors
        The point estimates: the class prior and the confusion matrices of a crowd label, of c_b and
        of c_w.
    parameters : tuple of ConfusionEstimate
        Every estimate (prior, the three matrices entry by entry, the three overall accuracies) with
        its bootstrap range and, for the prior, the per-class accuracies and the summaries, its Wald
        range from the observed information.
    sizes : tuple of SizeRow
        Per m, the label budget that ranks c_b first with probability ≥ ``level`` at the estimates
        (exact, and what the Cramér and Hoeffding bounds guarantee), with plurality votes.
    recommended_labels_per_item, recommended_budget, recommended_items : int or None
        The m with the smallest exact budget, that budget and its items (None when no m reaches the
        level).
    verdict : {"one_label_per_item", "several_labels_per_item", "no_m_reaches_level"}
        The plan's verdict code.
    level : float
        The probability of ranking the better model first that a budget must reach.
    bootstrap : int
        Bootstrap replicates over items (0: none; the Wald ranges stand in for the weak check).
    seed : int
        The seed of the bootstrap.
    comparison : Comparison or None
        The exact win probabilities at ``budget`` labels, per m, at the estimates.
    log_likelihood : float
        The fit's log-likelihood.
    iterations : int
        EM's steps.
    converged : bool
        Whether EM converged.
    bootstrap_converged : float or None
        The share of bootstrap fits that converged.
    warnings : tuple of WeakEstimate
        The estimates the pilot identifies weakly (``parameter`` is an estimate's name, e.g.
        ``better[1,1]``: on the edge of its range, with a bootstrap range wider than 0.2, or, without
        a bootstrap, a Wald range wider than 0.2).
    codes : tuple of str
        Status codes (:data:`CODES`).
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin"}
        A tied plurality is broken at random.
    curve : WinCurve or None
        The exact win probability against the budget at the estimates, per m (filled by
        :func:`~humanly.budget.plan`).

    Examples
    --------
    >>> from humanly.simulate import oracle
    >>> d = oracle(1500, [0.75] * 3, n_classes=3, models={"a": 0.85, "b": 0.7}, seed=1)
    >>> res = multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0)
    >>> res.verdict, res.recommended_labels_per_item, res.to_frame()["labels_per_item"].tolist()
    ('one_label_per_item', 1, [1, 3, 5])
    """

    better: str
    worse: str
    classes: tuple[Any, ...]
    n_items: int
    n_used: int
    n_few_labels: int
    estimates: ConfusionErrors
    parameters: tuple[ConfusionEstimate, ...]
    sizes: tuple[SizeRow, ...]
    recommended_labels_per_item: int | None
    recommended_budget: int | None
    recommended_items: int | None
    verdict: str
    level: float
    bootstrap: int
    seed: int
    comparison: Comparison | None
    log_likelihood: float
    iterations: int
    converged: bool
    bootstrap_converged: float | None
    warnings: tuple[WeakEstimate, ...]
    codes: tuple[str, ...]
    ties: str = "loss"
    vote_ties: str = "coin"
    curve: WinCurve | None = None

    def to_frame(self) -> pd.DataFrame:
        """The label budgets that reach the level, one row per m (the columns of :class:`SizeRow`)."""
        return pd.DataFrame([r.to_dict() for r in self.sizes])

    def estimates_frame(self) -> pd.DataFrame:
        """Every estimate with its ranges.

        Returns
        -------
        pandas.DataFrame
            One row per estimate: ``parameter, true_class, label, estimate, low, high,
            information_low, information_high`` (classes by name).

        Examples
        --------
        >>> from humanly.simulate import oracle
        >>> d = oracle(600, [0.8] * 3, n_classes=3, models={"a": 0.85, "b": 0.7}, seed=1)
        >>> f = multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0).estimates_frame()
        >>> len(f), f.columns[:3].tolist()
        (33, ['parameter', 'true_class', 'label'])
        """

        def name(code: int | None) -> Any:
            return None if code is None else self.classes[code]

        return pd.DataFrame(
            [
                {
                    "parameter": p.parameter,
                    "true_class": name(p.true_class),
                    "label": name(p.label),
                    "estimate": p.estimate,
                    "low": p.interval.low,
                    "high": p.interval.high,
                    "information_low": p.information_interval.low,
                    "information_high": p.information_interval.high,
                }
                for p in self.parameters
            ]
        )


def _codes(fit: Any, est: ConfusionErrors) -> tuple[str, ...]:
    codes = []
    if not fit.converged:
        codes.append(NOT_CONVERGED)
    if fit.n_few_labels:
        codes.append(FEW_LABELS)
    b, w = est.accuracies()
    if b <= w:
        codes.append(NOT_BETTER)
    if (np.diag(np.asarray(est.labels)) <= 1.0 / est.n_classes).any():
        codes.append(BELOW_CHANCE)
    if fit.warnings:
        codes.append(WEAK)
    return tuple(codes)


def check_k_class_options(opts: PlanOptions) -> None:
    """Refuse the options of the two-class pilot that have no K-class meaning (a tied plurality is
    broken at random; the K-class pilot fits full confusion matrices, no latent variant)."""
    if opts.vote_ties != "coin":
        raise InputError(
            f"{setting('vote_ties', opts.vote_ties)}: with K classes a tied plurality is broken at random; "
            f"use {setting('vote_ties', 'coin')}"
        )
    if opts.latent_variant != "select":
        raise InputError(
            f"{setting('latent_variant', opts.latent_variant)} is a form of the two-class pilot; the K-class "
            f"pilot fits full confusion matrices — leave {setting('latent_variant', 'select')}"
        )


def multiclass_pilot_plan(
    ratings: Any,
    predictions: Any = None,
    *,
    level: float = 0.95,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    bootstrap: int = 1000,
    seed: int = 0,
    budget: int | None = None,
    missing: Literal["error", "drop"] = "error",
    options: PlanOptions | None = None,
) -> MulticlassPilotPlan:
    """Estimate the K-class error model from a pilot and recommend the labelling that reaches a level.

    The crowd's and the two models' class-conditional confusion matrices by a latent-class fit, the
    bootstrap over items, the estimates it identifies weakly (also without a bootstrap, from the
    observed information), and per m the exact budget with plurality votes (section 5).

    Parameters
    ----------
    ratings : Ratings, Study or any form :func:`humanly.data.join` accepts
        The pilot's crowd labels (any number of classes; ≥ 3 labels per item to identify the fit).
    predictions : Predictions or mapping, optional
        Two or more models' predictions on the pilot items, joined by item id.
    level : float
        The probability of ranking the better model first that the budget must reach.
    labels_per_item : int or sequence of int
        Labels per item to compare (plurality votes, ties at random).
    bootstrap : int
        Bootstrap replicates over items (0: none; the weak check then reads the information).
    seed : int
        Replicate i resamples items with ``stream(seed, i)``.
    budget : int, optional
        Also give the exact win probabilities for this many labels (``comparison``).
    missing : {"error", "drop"}
        What to do with item ids that do not match.
    options : PlanOptions, optional
        ``better``, ``worse``, ``ties``, ``workers``, ``scheduler`` (``vote_ties`` must be
        ``"coin"``; ``latent_variant`` is for two classes).

    Returns
    -------
    MulticlassPilotPlan

    Raises
    ------
    InputError
        For fewer than two models, a pilot with too few items of ≥ 3 labels, or bad settings.

    Examples
    --------
    >>> from humanly.simulate import oracle
    >>> d = oracle(2000, [0.7] * 3, n_classes=3, models={"a": 0.8, "b": 0.75}, seed=2)
    >>> res = multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0, budget=3000)
    >>> res.better, res.verdict, [round(r.exact, 2) for r in res.comparison.rows]
    ('a', 'one_label_per_item', [0.95, 0.89, 0.86])
    """
    opts = options if options is not None else PlanOptions()
    (level, _), ms = check_level(level), check_ms(labels_per_item)
    budget = check_budget(budget, allow_none=True)
    bootstrap, seed, _ = check_run(bootstrap, seed, "latent", opts)
    check_k_class_options(opts)
    study = _study(ratings, predictions, missing)
    r, preds = study.ratings, study.predictions
    if preds is None:
        raise InputError("the pilot plan needs predictions of two models on the pilot items")
    r.require_classes("plan")
    fit = fit_multiclass_pilot(
        r,
        preds,
        better=opts.better,
        worse=opts.worse,
        bootstrap=bootstrap,
        seed=seed,
        level=level,
        workers=opts.workers,
        scheduler=opts.scheduler,
    )
    est = fit.estimates
    size = sample_size(est, level, ms, ties=opts.ties)
    rec = next((row for row in size.rows if row.labels_per_item == size.best_labels_per_item), None)
    verdict = NO_M if rec is None else (ONE_LABEL if rec.labels_per_item == 1 else SEVERAL_LABELS)
    best = None if rec is None else rec.budget_exact
    return MulticlassPilotPlan(
        better=fit.better,
        worse=fit.worse,
        classes=tuple(r.classes),
        n_items=r.n_items,
        n_used=fit.n_used,
        n_few_labels=fit.n_few_labels,
        estimates=est,
        parameters=fit.parameters,
        sizes=size.rows,
        recommended_labels_per_item=None if rec is None else rec.labels_per_item,
        recommended_budget=best,
        recommended_items=None if rec is None or best is None else best // rec.labels_per_item,
        verdict=verdict,
        level=level,
        bootstrap=bootstrap,
        seed=seed,
        comparison=None if budget is None else compare(est, budget, ms, ties=opts.ties),
        log_likelihood=fit.log_likelihood,
        iterations=fit.iterations,
        converged=fit.converged,
        bootstrap_converged=fit.bootstrap_converged,
        warnings=fit.warnings,
        codes=_codes(fit, est),
        ties=opts.ties,
    )
