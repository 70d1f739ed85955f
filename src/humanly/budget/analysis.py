"""The budget analysis of a study (:func:`plan`): what the data imply for the next test set.

* :func:`quick_compare` — for a label accuracy q: the exact probability that single vs m-majority labels
  rank the better of two classifiers (accuracies p + ε and p, independent errors) first at a budget,
  and the budget each needs to reach a level;
* :func:`plan` — the same from ratings: q̂ from the crowd's pairwise agreement (symmetric noise:
  q² + (1 − q)²/(K − 1) = a; for two classes q̂ = (1 + √(2a − 1))/2), the better classifier's accuracy
  from the best model's agreement with the plurality label (else the paper's Fig. 2 value 0.8), the
  budget the data used; with two or more models, also the pilot plan of
  :func:`~humanly.budget.pilot_plan` (two classes; latent-class estimate by default) or of
  :func:`~humanly.budget.multiclass_pilot_plan` (more); and the curves the report draws.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number, check_probability
from .._core.counts import plurality_credit
from .._core.result import Note, Result, Skipped
from ..crowd.agreement import mean_pairwise_agreement
from ..data import InputError, Predictions
from ..data.types import PredictionsLike, RatingsLike
from ._args import Ties, VoteTies, check_budget, check_level, check_ms, check_ties, check_vote_ties
from .comparison import compare
from .confusion import ConfusionErrors, symmetric_errors
from .curves import WinCurve, curve_budgets, win_curve
from .models import IndependentErrors
from .multiclass_plan import MulticlassPilotPlan, check_k_class_options, multiclass_pilot_plan
from .options import PlanOptions
from .planning import Estimator, PilotPlan, _study, check_run, pilot_plan
from .size import sample_size

__all__ = [
    "PlanResult",
    "QuickComparison",
    "label_accuracy_from_agreement",
    "plan",
    "quick_compare",
]

#: Where the better classifier's accuracy of a :class:`PlanResult` comes from.
#: Where the better classifier's accuracy comes from (``PlanResult.better_accuracy_source``, a code):
#: the paper's Fig. 2 value, or the best model's agreement with the plurality label.
FIG2_SOURCE = "paper_figure_2"
MODEL_SOURCE = "best_model_agreement"
#: The largest budget a curve reaches.
_CURVE_TOP = 10**6


@dataclass(frozen=True, repr=False)
class QuickComparison(Result):
    """For a label accuracy q: single vs m-majority labelling at a budget (independent errors).

    Parameters
    ----------
    label_accuracy : float
        The label accuracy q given.
    p : float
        The worse classifier's accuracy (the paper's notation).
    eps : float
        The better classifier's margin: its accuracy is p + ε.
    budget : int
        The label budget.
    level : float
        The probability of ranking the better classifier first that ``budget_needed`` reaches.
    labels_per_item : tuple of int
        Labels per item.
    win : tuple of float
        The exact P(better ranked first) per m at ``budget``.
    budget_needed : tuple of int or None
        The exact budget per m that reaches ``level`` (None: none does).
    best_labels_per_item : int
        The m with the highest win probability.
    single_is_best : bool
        best_labels_per_item == 1.
    notes : tuple of str
        What a reader should know (a q ≤ 0.5 clipped).
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    items : tuple of int
        Items per m, ⌊budget/m⌋.

    Examples
    --------
    >>> res = quick_compare(0.7, 1500)
    >>> res.items, res.best_labels_per_item
    ((1500, 500, 300), 1)
    """

    label_accuracy: float
    p: float
    eps: float
    budget: int
    level: float
    labels_per_item: tuple[int, ...]
    win: tuple[float, ...]
    budget_needed: tuple[int | None, ...]
    best_labels_per_item: int
    single_is_best: bool
    notes: tuple[Note, ...] = ()
    vote_ties: str = "coin"
    items: tuple[int, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per m: ``labels_per_item``, ``items`` (⌊budget/m⌋), ``win``, ``budget_needed``."""
        return pd.DataFrame(
            {
                "labels_per_item": list(self.labels_per_item),
                "items": [self.budget // m for m in self.labels_per_item],
                "win": list(self.win),
                "budget_needed": list(self.budget_needed),
            }
        )


def quick_compare(
    label_accuracy: float,
    budget: int = 1500,
    *,
    p: float = 0.8,
    eps: float = 0.01,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    level: float = 0.95,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    n_classes: int = 2,
) -> QuickComparison:
    """For an estimated label accuracy: single vs m-majority labels at a budget, and the budget each needs.

    The exact probability that single labels (m = 1) vs m-majority labels rank the better of two
    classifiers with accuracies p + ε and p first with ``budget`` labels, and the budget each needs to
    reach ``level``. A q ≤ 0.5 (labels no better than chance) is clipped to 0.5 + 1e-9 and noted. With
    K = ``n_classes`` > 2: plurality votes (ties at random) and every error uniform over the other
    classes (:func:`~humanly.budget.confusion.symmetric_errors`), chance being 1/K.

    Parameters
    ----------
    label_accuracy : float
        The accuracy q of one crowd label.
    budget : int
        The label budget.
    p : float
        The worse classifier's accuracy (default the paper's Fig. 2, 0.8).
    eps : float
        The better classifier's margin (default 0.01).
    labels_per_item : int or sequence of int
        Labels per item.
    level : float
        The probability of ranking the better classifier first that ``budget_needed`` reaches.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled (``"coin"`` for K > 2).
    n_classes : int
        K, the number of classes (default 2).

    Returns
    -------
    QuickComparison
        The win probability and the budget needed, per m.

    Examples
    --------
    >>> res = quick_compare(0.7, 1500)
    >>> res.best_labels_per_item, [round(w, 3) for w in res.win]
    (1, [0.6, 0.574, 0.562])
    """
    q = float(check_probability("label_accuracy", label_accuracy))
    budget = check_budget(budget)
    (level, _), ms = check_level(level), check_ms(labels_per_item)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    k = int(check_int("n_classes", n_classes, minimum=2))
    notes = []
    if q <= 1.0 / k:
        notes.append(Note("labels_at_chance", {"accuracy": q, "chance": 1.0 / k}))
        q = 1.0 / k + 1e-9
    errors: IndependentErrors | ConfusionErrors = (
        IndependentErrors(p, eps, q) if k == 2 else symmetric_errors(k, q, p, eps)
    )
    cmp = compare(errors, budget, ms, ties=ties, vote_ties=vote_ties)
    size = sample_size(errors, level, ms, ties=ties, vote_ties=vote_ties)
    return QuickComparison(
        label_accuracy=float(label_accuracy),
        p=float(p),
        eps=float(eps),
        budget=budget,
        level=level,
        labels_per_item=ms,
        win=tuple(r.exact for r in cmp.rows),
        budget_needed=tuple(r.budget_exact for r in size.rows),
        best_labels_per_item=cmp.best_labels_per_item,
        single_is_best=cmp.best_labels_per_item == 1,
        notes=tuple(notes),
        vote_ties=vote_ties,
        items=tuple(budget // mm for mm in ms),
    )


def label_accuracy_from_agreement(agreement: float, n_classes: int = 2) -> float:
    """The label accuracy q̂ with q² + (1 − q)²/(K − 1) = a (K classes, errors uniform over the others).

    Parameters
    ----------
    agreement : float
        The crowd's pairwise agreement a.
    n_classes : int
        K (default 2: q² + (1 − q)² = a).

    Returns
    -------
    float
        (1 + √(1 − K + aK(K − 1)))/K, i.e. (1 + √(2a − 1))/2 for K = 2; 1/K when a ≤ 1/K.

    Examples
    --------
    >>> round(label_accuracy_from_agreement(0.68), 4), round(label_accuracy_from_agreement(0.535, 3), 4)
    (0.8, 0.7)
    """
    a = float(check_probability("agreement", agreement))
    k = int(check_int("n_classes", n_classes, minimum=2))
    return (1.0 + math.sqrt(max(1.0 - k + a * k * (k - 1), 0.0))) / k


@dataclass(frozen=True, repr=False)
class PlanResult(Result):
    """The budget analysis of a study: what its data imply for the next test set.

    Parameters
    ----------
    label_accuracy : float
        The single-label accuracy q̂ implied by the crowd's agreement.
    agreement : float
        The crowd's pairwise agreement.
    better_accuracy : float
        The better classifier's accuracy p + ε (the paper's p is the worse one's).
    better_accuracy_source : str
        Where it comes from, a code: ``"best_model_agreement"`` (the best model's agreement with the
        plurality label) or ``"paper_figure_2"`` (the paper's Fig. 2 value, without models).
    eps : float
        The accuracy margin between the two classifiers compared.
    budget : int
        The label budget compared (default the labels in the data).
    level : float
        The probability of ranking the better classifier first that a budget must reach.
    comparison : QuickComparison
        Single vs m-majority labels at ``budget`` and q̂.
    pilot : PilotPlan, optional
        The pilot plan from two models' predictions.
    pilot_skipped : Skipped, optional
        Why there is no pilot plan: a reason code (``"no_predictions"``, ``"one_model"`` or
        ``"input_error"`` with the message of the error the pilot plan raised).
    curve : WinCurve, optional
        The exact win probability against the budget at q̂ (the report's figure).
    n_classes : int
        K, the ratings' classes (plurality votes and errors uniform over the other classes for
        K > 2).
    multiclass_pilot : MulticlassPilotPlan, optional
        For K > 2 and two models: the K-class pilot plan (``pilot`` is then ``None``).

    Examples
    --------
    >>> from humanly import Ratings
    >>> r = Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10, classes=[0, 1])
    >>> res = plan(r)
    >>> round(res.agreement, 3), round(res.label_accuracy, 3), res.budget, res.comparison.best_labels_per_item
    (0.667, 0.789, 120, 1)
    """

    label_accuracy: float
    agreement: float
    better_accuracy: float
    better_accuracy_source: str
    eps: float
    budget: int
    level: float
    comparison: QuickComparison
    pilot: PilotPlan | None = None
    pilot_skipped: Skipped | None = None
    curve: WinCurve | None = None
    n_classes: int = 2
    multiclass_pilot: MulticlassPilotPlan | None = None

    def error_model(self) -> IndependentErrors | ConfusionErrors:
        """The error model of the comparison (q̂ kept just above chance): independent errors, or
        for K > 2 classes every error uniform over the other classes.

        Returns
        -------
        IndependentErrors or ConfusionErrors
            p = better accuracy − ε, ε, q̂.

        Examples
        --------
        >>> from humanly import Ratings
        >>> r = Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10, classes=[0, 1])
        >>> plan(r).error_model().eps
        0.01
        """
        k = self.n_classes
        q = min(max(self.label_accuracy, 1.0 / k + 1e-6), 1.0)
        p = self.better_accuracy - self.eps
        return IndependentErrors(p, self.eps, q) if k == 2 else symmetric_errors(k, q, p, self.eps)


def _better_accuracy(
    counts: np.ndarray, predictions: Predictions | None, eps: float
) -> tuple[float, str]:
    """The best model's agreement with the plurality label (fractional credit on tied pluralities),
    kept in [chance + ε, 1 − ε] (chance ½, or 1/K for K classes); 0.8 (the paper's Fig. 2) without
    models."""
    agreements = []
    for out in predictions.models if predictions is not None else ():
        if out.kind == "score":
            continue
        assert predictions is not None
        credit = plurality_credit(counts, predictions.hard(out.name).astype(np.int64))
        value = float(np.nanmean(credit)) if (~np.isnan(credit)).any() else None
        if value:  # a model with no plurality to agree with, or agreement 0, is left out
            agreements.append(value)
    if not agreements:
        return min(0.8, 1.0 - eps), FIG2_SOURCE
    chance = 0.5 if counts.shape[1] == 2 else 1.0 / counts.shape[1]
    p = float(min(max(max(agreements), chance + eps), 1.0 - eps))
    return min(p, 1.0 - eps), MODEL_SOURCE


def _curve_top(needed: Sequence[int | None], floor: int) -> int:
    """The budget a figure's curves reach: twice the largest budget needed (at least ``floor``),
    at most 10⁶."""
    shown = [2 * n for n in needed if n is not None]
    return min(max([floor, *shown]), _CURVE_TOP)


def _pilot_models(study: Any) -> Skipped | None:
    """Why a pilot plan cannot run on the study's models (it needs two), or ``None``."""
    count = 0 if study.predictions is None else len(study.predictions.models)
    if count < 2:
        return Skipped("pilot", "no_predictions" if count == 0 else "one_model")
    return None


def _pilot(
    study: Any,
    level: float,
    ms: tuple[int, ...],
    estimator: Estimator,
    budget: int,
    run: dict[str, Any],
) -> tuple[PilotPlan | None, Skipped | None]:
    """The pilot plan with its curve, or why there is none."""
    opts = run["options"]
    if (why := _pilot_models(study)) is not None:
        return None, why
    try:
        res = pilot_plan(
            study, level=level, labels_per_item=ms, estimator=estimator, budget=budget, **run
        )
    except InputError as exc:
        return None, Skipped("pilot", "input_error", str(exc))
    shown = tuple(r.labels_per_item for r in res.sizes)
    needed = [r.budget_exact for r in res.sizes]
    top = _curve_top(needed, 0) if any(n is not None for n in needed) else 5000
    rules: dict[str, Any] = dict(ties=opts.ties, vote_ties=opts.vote_ties)
    curve = win_curve(res.estimates, shown, curve_budgets(top, shown), **rules)
    return dataclasses.replace(res, curve=curve), None


def _multiclass_pilot(
    study: Any,
    level: float,
    ms: tuple[int, ...],
    estimator: Estimator,
    budget: int,
    run: dict[str, Any],
) -> tuple[MulticlassPilotPlan | None, Skipped | None]:
    """The K-class pilot plan with its curve, or why there is none."""
    opts = run["options"]
    if (why := _pilot_models(study)) is not None:
        return None, why
    if estimator != "latent":
        return None, Skipped("pilot", "latent_only")
    try:
        res = multiclass_pilot_plan(study, level=level, labels_per_item=ms, budget=budget, **run)
    except InputError as exc:
        return None, Skipped("pilot", "input_error", str(exc))
    needed = [r.budget_exact for r in res.sizes]
    top = _curve_top(needed, 0) if any(n is not None for n in needed) else 5000
    curve = win_curve(res.estimates, ms, curve_budgets(top, ms), ties=opts.ties)
    return dataclasses.replace(res, curve=curve), None


def plan(
    ratings: RatingsLike,
    predictions: PredictionsLike | None = None,
    *,
    budget: int | None = None,
    labels_per_item: Sequence[int] | int = (1, 3, 5),
    level: float = 0.95,
    eps: float = 0.01,
    estimator: Estimator = "latent",
    bootstrap: int = 1000,
    seed: int = 0,
    missing: Literal["error", "drop"] = "error",
    options: PlanOptions | None = None,
) -> PlanResult:
    """The budget analysis of a study: one label per item or majority votes for the next test set?

    From ratings of K ≥ 2 classes: the label accuracy q̂ implied by the crowd's agreement, the better
    classifier's accuracy (the best model's agreement with the plurality label, else the paper's 0.8),
    and the exact probability that single vs m-majority labels (pluralities for K > 2) rank it above
    one ``eps`` worse at ``budget`` labels, with the budget each needs to reach ``level``. With two
    models, also the pilot plan (``pilot``: :func:`~humanly.budget.pilot_plan`; ``multiclass_pilot``
    for K > 2: :func:`~humanly.budget.multiclass_pilot_plan`; else ``pilot_skipped``), and the curves.

    Parameters
    ----------
    ratings : Ratings, Study or any form :func:`humanly.data.join` accepts
        The crowd's labels; a :class:`~humanly.data.Study` carries the predictions.
    predictions : Predictions or mapping, optional
        The models' outputs, joined by item id.
    budget : int, optional
        The label budget compared (default the number of labels in ``ratings``).
    labels_per_item : int or sequence of int
        Labels per item to compare.
    level : float
        The probability of ranking the better classifier first that a budget must reach (the
        paper's error δ is 1 − level).
    eps : float
        The accuracy margin between the two classifiers compared, in (0, 0.25).
    estimator : {"latent", "majority"}
        The pilot's estimator (see :func:`~humanly.budget.pilot_plan`).
    bootstrap : int
        The pilot's bootstrap replicates over items.
    seed : int
        The pilot's seed.
    missing : {"error", "drop"}
        What to do with item ids that do not match.
    options : PlanOptions, optional
        ``better``, ``worse``, ``ties``, ``vote_ties``, ``latent_variant``, ``with_pilot``,
        ``workers``, ``scheduler``.

    Returns
    -------
    PlanResult
        The comparison, the pilot plan when two models are given, and the curves.

    Raises
    ------
    InputError
        For fewer than two classes, no item with two labels, or bad settings.

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> d = pair(400, 3, p=0.7, eps=0.1, q=0.75, seed=3)
    >>> res = plan(d.ratings, d.predictions, bootstrap=100)
    >>> res.comparison.best_labels_per_item, res.pilot.recommended_labels_per_item, res.pilot.estimator
    (1, 1, 'latent')

    References
    ----------
    Dorner & Hardt, *Don't Label Twice: Quantity Beats Quality when Comparing Binary Classifiers on
    a Budget*, arXiv:2402.02249.
    """
    opts = options if options is not None else PlanOptions()
    (level, _), ms = check_level(level), check_ms(labels_per_item)
    eps = float(check_number("eps", eps, minimum=0.0, maximum=0.25, open_low=True, open_high=True))
    bootstrap, seed, estimator = check_run(bootstrap, seed, estimator, opts)
    study = _study(ratings, predictions, missing, opts)  # better=, worse= name known models
    r, preds = study.ratings, study.predictions
    r.require_classes("plan")
    counts = np.asarray(r.counts)
    agreement = mean_pairwise_agreement(counts)
    if not math.isfinite(agreement):
        raise InputError(
            "no item has two labels, so the label accuracy cannot be estimated from agreement"
        )
    k = r.n_classes
    if k > 2:
        check_k_class_options(opts)
    q = label_accuracy_from_agreement(agreement, k)
    p, source = _better_accuracy(counts, preds, eps)
    budget = int(counts.sum()) if budget is None else check_budget(budget)
    rules: dict[str, Any] = dict(ties=opts.ties, vote_ties=opts.vote_ties)
    quick = quick_compare(
        q, budget, p=p - eps, eps=eps, labels_per_item=ms, level=level, n_classes=k, **rules
    )
    pilot, skipped, multi = None, None, None
    if opts.with_pilot:
        run: dict[str, Any] = dict(bootstrap=bootstrap, seed=seed, options=opts)
        if k == 2:
            pilot, skipped = _pilot(study, level, ms, estimator, budget, run)
        else:
            multi, skipped = _multiclass_pilot(study, level, ms, estimator, budget, run)
    result = PlanResult(
        label_accuracy=q,
        agreement=agreement,
        better_accuracy=p,
        better_accuracy_source=source,
        eps=eps,
        budget=budget,
        level=level,
        comparison=quick,
        pilot=pilot,
        pilot_skipped=skipped,
        n_classes=k,
        multiclass_pilot=multi,
    )
    top = _curve_top(quick.budget_needed, budget)
    curve = win_curve(result.error_model(), ms, curve_budgets(top, ms), **rules)
    return dataclasses.replace(result, curve=curve)
