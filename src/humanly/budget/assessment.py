"""What a data set implies for its next test set (the report's label-budget section).

* :func:`quick_compare` — for a label accuracy q: the exact probability that single vs m-majority labels
  identify the better of two classifiers (accuracies p + ε and p, independent errors) at a budget, and
  the budget each needs for error ≤ δ;
* :func:`assess` — the same from ratings: q̂ from the crowd's pairwise agreement (two classes, symmetric
  noise: q² + (1 − q)² = a, so q̂ = (1 + √(2a − 1))/2), p from the best model's agreement with the
  plurality label (else the paper's Fig. 2 value 0.8), the budget the data used; with two or more models,
  also the pilot plan of :func:`~humanly.budget.plan` (latent-class estimate by default).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.checks import check_number, check_probability
from .._core.counts import plurality_credit
from .._core.result import Result
from ..crowd.agreement import mean_pairwise_agreement
from ..data import InputError, Predictions, join
from ._args import (
    Ties,
    VoteTies,
    check_budget,
    check_delta,
    check_ms,
    check_ties,
    check_vote_ties,
)
from .comparison import compare
from .models import IndependentModel, make_model
from .planning import Method, PlanResult, plan
from .size import sample_size

__all__ = [
    "Assessment",
    "QuickComparison",
    "assess",
    "label_accuracy_from_agreement",
    "quick_compare",
]

#: Where the better classifier's accuracy of an :class:`Assessment` comes from.
FIG2_SOURCE = "the paper's Fig. 2 value"
MODEL_SOURCE = "the best model's agreement with the plurality label"


@dataclass(frozen=True, repr=False)
class QuickComparison(Result):
    """For a label accuracy q: win probability of single vs m-majority labelling at a budget, and the
    budget each needs for error ≤ δ (independent model, Proposition 1). ``p`` is the worse classifier's
    accuracy, ``p + eps`` the better one's (the paper's notation); ``vote_ties`` how a tied vote of an
    even m is settled."""

    label_accuracy: float
    p: float
    eps: float
    budget: int
    delta: float
    m: tuple[int, ...]
    win: tuple[float, ...]
    budget_needed: tuple[int | None, ...]
    best_m: int
    single_is_best: bool
    notes: tuple[str, ...] = ()
    vote_ties: str = "coin"

    def to_frame(self) -> pd.DataFrame:
        """One row per m: ``m``, ``items`` (⌊budget/m⌋), ``win``, ``budget_needed``."""
        return pd.DataFrame(
            {
                "m": list(self.m),
                "items": [self.budget // m for m in self.m],
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
    m: Sequence[int] | int = (1, 3, 5),
    delta: float = 0.05,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
) -> QuickComparison:
    """One call for reports: for an estimated label accuracy q (e.g. from pilot data), the exact
    probability that single labels (m = 1) vs m-majority labels identify the better of two classifiers
    with accuracies p and p + ε for ``budget`` labels, and the budget each needs for error ≤ δ. Defaults
    p = 0.8, ε = 0.01 are the paper's Fig. 2. A q ≤ 0.5 (labels no better than chance) is clipped to
    0.5 + 1e-9 and noted.

    >>> res = quick_compare(0.7, 1500)
    >>> res.best_m, [round(w, 3) for w in res.win]
    (1, [0.6, 0.574, 0.562])
    """
    q = float(check_probability("label_accuracy", label_accuracy))
    budget = check_budget(budget)
    delta = check_delta(delta)
    ms = check_ms(m)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    notes = []
    if q <= 0.5:
        notes.append(
            f"label accuracy {q:.3g} ≤ 0.5: labels carry no signal; clipped to just above 0.5"
        )
        q = 0.5 + 1e-9
    model = make_model(p=p, eps=eps, q=q)
    cmp = compare(model, budget, ms, ties=ties, vote_ties=vote_ties)
    size = sample_size(model, delta, ms, ties=ties, vote_ties=vote_ties)
    return QuickComparison(
        label_accuracy=float(label_accuracy),
        p=float(p),
        eps=float(eps),
        budget=budget,
        delta=delta,
        m=ms,
        win=tuple(r.exact for r in cmp.rows),
        budget_needed=tuple(r.budget_exact for r in size.rows),
        best_m=cmp.best_m,
        single_is_best=cmp.best_m == 1,
        notes=tuple(notes),
        vote_ties=vote_ties,
    )


def label_accuracy_from_agreement(agreement: float) -> float:
    """q̂ with q² + (1 − q)² = a (two classes, symmetric noise); 0.5 when a ≤ 0.5.

    >>> round(label_accuracy_from_agreement(0.68), 4)
    0.8
    """
    a = float(check_probability("agreement", agreement))
    return 0.5 * (1.0 + math.sqrt(max(2.0 * a - 1.0, 0.0)))


@dataclass(frozen=True, repr=False)
class Assessment(Result):
    """What the data imply for the next test set: the single-label accuracy q̂ (``label_accuracy``)
    from the crowd's pairwise ``agreement``, the better classifier's accuracy (``better_accuracy``; JSON
    also ``p``) and where it comes from, the quick comparison at ``budget`` labels, and — with two or more
    models — the pilot plan (``plan``, or ``plan_note`` saying why it does not apply)."""

    label_accuracy: float
    agreement: float
    better_accuracy: float
    better_accuracy_source: str
    eps: float
    budget: int
    delta: float
    comparison: QuickComparison
    plan: PlanResult | None = None
    plan_note: str | None = None

    def model(self) -> IndependentModel:
        """The independent model of the comparison (q̂ kept just above 0.5), e.g. for
        :func:`humanly.plots.budget.win_vs_budget_figure`."""
        q = min(max(self.label_accuracy, 0.5 + 1e-6), 1.0)
        return IndependentModel(self.better_accuracy - self.eps, self.eps, q)


def _better_accuracy(
    counts: np.ndarray, predictions: Predictions | None, eps: float
) -> tuple[float, str]:
    """The best model's agreement with the plurality label (fractional credit on tied pluralities),
    kept in [0.5 + ε, 1 − ε]; 0.8 (the paper's Fig. 2) without models."""
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
    p = float(min(max(max(agreements), 0.5 + eps), 1.0 - eps))
    return min(p, 1.0 - eps), MODEL_SOURCE


def assess(
    ratings: Any,
    predictions: Any = None,
    *,
    missing: Literal["error", "drop"] = "error",
    budget: int | None = None,
    eps: float = 0.01,
    delta: float = 0.05,
    m: Sequence[int] | int = (1, 3, 5),
    bootstrap: int = 200,
    seed: int = 0,
    with_plan: bool = True,
    plan_method: Method = "latent",
) -> Assessment:
    """What two-class ratings imply for the next test set (see the module docstring). ``budget``
    defaults to the number of labels in ``ratings``; ``eps`` is the accuracy margin between the two
    classifiers compared. With ``with_plan`` and two or more models, the pilot plan of
    :func:`~humanly.budget.plan` (``bootstrap``, ``seed``, estimator ``plan_method``: ``"latent"``, which
    needs ≥ 3 labels per item, or ``"majority"``) is added; ``plan_note`` says why it is missing.

    >>> from humanly import Ratings
    >>> r = Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10, classes=[0, 1])
    >>> a = assess(r)
    >>> round(a.agreement, 3), round(a.label_accuracy, 3), a.budget, a.comparison.best_m
    (0.667, 0.789, 120, 1)
    """
    study = join(ratings, predictions, missing=missing)
    r, preds = study.ratings, study.predictions
    if r.n_classes != 2:
        classes = ", ".join(map(str, r.classes))
        raise InputError(
            f"the label-budget analysis (Don't Label Twice) is for two classes; "
            f"the ratings have {r.n_classes} ({classes})"
        )
    eps = float(check_number("eps", eps, minimum=0.0, maximum=0.25, open_low=True, open_high=True))
    counts = np.asarray(r.counts)
    agreement = mean_pairwise_agreement(counts)
    if not math.isfinite(agreement):
        raise InputError(
            "no item has two labels, so the label accuracy cannot be estimated from agreement"
        )
    q = label_accuracy_from_agreement(agreement)
    p, source = _better_accuracy(counts, preds, eps)
    budget = int(counts.sum()) if budget is None else check_budget(budget)
    quick = quick_compare(q, budget, p=p - eps, eps=eps, m=m, delta=delta)
    result, note = None, None
    if with_plan and preds is not None and len(preds.models) >= 2:
        try:
            result = plan(
                r, preds, delta=delta, m=m, bootstrap=bootstrap, seed=seed, method=plan_method
            )
        except InputError as exc:
            note = str(exc)
    return Assessment(
        label_accuracy=q,
        agreement=agreement,
        better_accuracy=p,
        better_accuracy_source=source,
        eps=eps,
        budget=budget,
        delta=quick.delta,
        comparison=quick,
        plan=result,
        plan_note=note,
    )
