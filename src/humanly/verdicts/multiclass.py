"""The words of a K-class pilot plan (:class:`~humanly.budget.MulticlassPilotPlan`, beyond the paper:
section 5 leaves more than two classes open), from its verdict code, status codes and weak estimates.

* :func:`multiclass_verdicts` — the plan's verdict: how many items to label how often ("one label per
  item" or not), under which estimate, with the weak estimates in words;
* :func:`estimate_words` — an estimate's name (``better[1,1]``) in words;
* :func:`multiclass_weak_sentence` — the weakly identified estimates and what they mean;
* :func:`multiclass_notes` — what the status codes say (EM not converged, items with fewer than 3
  labels, the better model not more accurate, a crowd at or below chance);
* :func:`fit_sentence` — EM's convergence and the bootstrap's.

>>> estimate_words("better[1,1]", ("e", "n", "c")), estimate_words("prior[2]", ("e", "n", "c"))
("the better model's accuracy on class 'n'", "the share of class 'c'")
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import Verdict
from .pilot import _weak_estimates

if TYPE_CHECKING:
    from ..budget import MulticlassPilotPlan

__all__ = [
    "estimate_words",
    "fit_sentence",
    "multiclass_notes",
    "multiclass_verdicts",
    "multiclass_weak_sentence",
    "verdict_status",
]

#: The Methods paragraph the sentences rest on (the K-class one), and their topic.
METHODS = "methods-plan-2"
TOPIC = "plan"
#: Whose confusion matrix an estimate is from.
_WHOSE = {
    "labels": "a crowd label's",
    "better": "the better model's",
    "worse": "the worse model's",
}
#: The overall accuracies (Σ_c π_c M[c, c]).
_SUMMARY = {
    "label_accuracy": "a crowd label's overall accuracy",
    "better_accuracy": "the better model's overall accuracy",
    "worse_accuracy": "the worse model's overall accuracy",
}
#: The verdict codes as a short status.
_STATUS = {
    "one_label_per_item": "single labels",
    "several_labels_per_item": "several labels",
    "no_m_reaches_level": "not identified",
}
_NAME = re.compile(r"^(?P<par>[a-z_]+)(\[(?P<row>\d+)(,(?P<col>\d+))?\])?$")


def verdict_status(code: str) -> str:
    """The verdict code of a K-class plan as a short status ("single labels", …)."""
    return _STATUS.get(code, code)


def estimate_words(name: str, classes: Sequence[object]) -> str:
    """An estimate of a K-class pilot (``ConfusionEstimate.name``) in words.

    >>> estimate_words("labels[0,2]", ("e", "n", "c"))
    "a crowd label's probability of saying 'c' on class 'e'"
    >>> estimate_words("worse_accuracy", ("e", "n", "c"))
    "the worse model's overall accuracy"
    """
    found = _NAME.match(name)
    if found is None:
        return name
    par, row, col = found["par"], found["row"], found["col"]
    if par in _SUMMARY:
        return _SUMMARY[par]

    def cls(i: str | None) -> str:
        return f"'{classes[int(i)]}'" if i is not None and int(i) < len(classes) else "?"

    if par == "prior":
        return f"the share of class {cls(row)}"
    whose = _WHOSE.get(par, par)
    if row == col:
        return f"{whose} accuracy on class {cls(row)}"
    return f"{whose} probability of saying {cls(col)} on class {cls(row)}"


def multiclass_weak_sentence(plan: MulticlassPilotPlan) -> str | None:
    """The weakly identified estimates (``warnings``) and what they mean for the plan, in one
    sentence without its full stop; ``None`` when there are none.

    >>> from humanly.simulate import oracle
    >>> from humanly.budget import multiclass_pilot_plan
    >>> d = oracle(400, [0.45] * 3, n_classes=3, models={"a": 0.8, "b": 0.7}, seed=1)
    >>> print(multiclass_weak_sentence(multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0)))
    ... # doctest: +NORMALIZE_WHITESPACE
    The estimate is weak: the 400-item pilot leaves 5 of its estimates (prior[2], better[2,2],
    worse[0,0], worse[1,1], worse[2,2]) on the edge of their range or spread over more than 0.2 (a
    bootstrap or Wald interval), so the budget rests on numbers the pilot does not pin down — label a
    larger pilot, or more labels per pilot item, before relying on it
    """

    def words(name: str) -> str:
        return f"{estimate_words(name, plan.classes)} ({name})"

    return _weak_estimates(plan.warnings, plan.n_used, "estimates", words)


def multiclass_notes(plan: MulticlassPilotPlan) -> tuple[str, ...]:
    """What a reader of a K-class plan should know, from its status codes (each one sentence
    without its full stop; the weak estimates are in :func:`multiclass_weak_sentence`).

    >>> from humanly.simulate import oracle
    >>> from humanly.budget import multiclass_pilot_plan
    >>> d = oracle(600, [0.8] * 3, n_classes=3, models={"a": 0.85, "b": 0.7}, seed=1)
    >>> multiclass_notes(multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0))
    ()
    """
    out = []
    codes = set(plan.codes)
    if "fit_not_converged" in codes:
        out.append(
            f"EM stopped after {plan.iterations:,} steps without converging: the estimates may "
            "move with more steps"
        )
    if "items_with_fewer_than_3_labels" in codes:
        out.append(
            f"{plan.n_few_labels:,} of the {plan.n_used:,} pilot items have fewer than 3 labels: "
            "they enter the likelihood but cannot tell the classes apart on their own"
        )
    if "better_not_more_accurate" in codes:
        out.append(
            f"the model called better ({plan.better!r}) is not more accurate than {plan.worse!r} at "
            "the estimates: the plan ranks them in the order given"
        )
    if "crowd_at_or_below_chance" in codes:
        k = len(plan.classes)
        out.append(
            f"a crowd label's accuracy on some class is at or below chance (1/{k}): there the latent "
            "classes are not identified and the confusion matrices may be a relabelling"
        )
    return tuple(out)


def fit_sentence(plan: MulticlassPilotPlan) -> str:
    """EM's convergence and, with a bootstrap, the share of the replicates' fits that converged,
    in one sentence without its full stop.

    >>> from humanly.simulate import oracle
    >>> from humanly.budget import multiclass_pilot_plan
    >>> d = oracle(600, [0.8] * 3, n_classes=3, models={"a": 0.85, "b": 0.7}, seed=1)
    >>> fit_sentence(multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0))
    'EM converged in 17 steps (log-likelihood -2,255.7); no bootstrap'
    """
    state = (
        f"EM converged in {plan.iterations:,} steps"
        if plan.converged
        else f"EM stopped after {plan.iterations:,} steps without converging"
    )
    state += f" (log-likelihood {plan.log_likelihood:,.1f})"
    if plan.bootstrap_converged is not None:
        return (
            f"{state}; {100 * plan.bootstrap_converged:.0f} % of the {plan.bootstrap:,} bootstrap "
            "fits converged"
        )
    return f"{state}; no bootstrap" if not plan.bootstrap else state


def _others(plan: MulticlassPilotPlan, best: int | None) -> str:
    parts = [
        f"{r.labels_per_item} labels per item would need {r.budget_exact:,}"
        if r.budget_exact is not None
        else f"{r.labels_per_item} labels per item would not reach it"
        for r in plan.sizes
        if r.labels_per_item != best
    ]
    return "" if not parts else f" ({'; '.join(parts)})"


def multiclass_verdicts(plan: MulticlassPilotPlan) -> tuple[Verdict, ...]:
    """The K-class plan's verdict: the recommended labelling and whether it is one label per item
    (the verdict code), the estimate it rests on, the other m's budgets and the weak estimates.

    >>> from humanly.simulate import oracle
    >>> from humanly.budget import multiclass_pilot_plan
    >>> d = oracle(2000, [0.7] * 3, n_classes=3, models={"a": 0.8, "b": 0.75}, seed=2)
    >>> res = multiclass_pilot_plan(d.ratings, d.predictions, bootstrap=0)
    >>> print(multiclass_verdicts(res)[0].sentence)  # doctest: +NORMALIZE_WHITESPACE
    One label per item: label 2,938 items once (m = 1, 2,938 labels). Under the latent-class
    estimates of the 3-class confusion matrices from the 2,000-item pilot this ranks the better of
    'a' and 'b' first with probability ≥ 0.95 (exact, plurality votes), the smallest budget of the m
    tried (3 labels per item would need 5,286; 5 labels per item would need 6,775).
    """
    k = len(plan.classes)
    pair = f"the better of {plan.better!r} and {plan.worse!r}"
    estimate = (
        f"the latent-class estimates of the {k}-class confusion matrices from the "
        f"{plan.n_items:,}-item pilot"
    )
    weak = multiclass_weak_sentence(plan)
    tail = f" {weak}." if weak else ""
    m, budget, items = (
        plan.recommended_labels_per_item,
        plan.recommended_budget,
        plan.recommended_items,
    )
    if plan.verdict == "no_m_reaches_level" or m is None or budget is None or items is None:
        sentence = (
            f"No number of labels per item ranks {pair} first with probability ≥ {plan.level:g} "
            f"under {estimate}: the expected gap E[G] is ≤ 0 for every m tried.{tail}"
        )
    else:
        head = "One label per item" if m == 1 else "Several labels per item"
        how = "once" if m == 1 else f"{m} times each"
        vote = "" if m == 1 else ", a plurality vote"
        sentence = (
            f"{head}: label {items:,} items {how} (m = {m}, {budget:,} labels{vote}). Under {estimate} "
            f"this ranks {pair} first with probability ≥ {plan.level:g} (exact, plurality votes), "
            f"the smallest budget of the m tried{_others(plan, m)}.{tail}"
        )
    return (Verdict(TOPIC, sentence, None, verdict_status(plan.verdict), METHODS),)
