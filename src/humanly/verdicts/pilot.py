"""The words of a pilot plan (:class:`~humanly.budget.PilotPlan`), from its codes and numbers.

The budget analysis stores what it found as data — each assumption test's verdict and, when untested,
a reason code; each weakly identified estimate with its reason code (``"boundary"``, ``"loose"``); why
there is no pilot plan as a :class:`~humanly._core.result.Skipped` record — and this module words
them, for the plan's verdict (:mod:`humanly.verdicts.plan`), ``humanly budget plan`` and the report's
budget section:

* :func:`assumption_sentence` — one assumption test in one line;
* :func:`weak_sentence` — the weakly identified estimates and what they mean for the plan;
* :func:`pilot_notes` — the plan's notes, with the one its numbers imply (a recommendation of m > 1
  that rests on q_b < q_w the pilot does not establish);
* :func:`pilot_skipped_sentence`, :func:`no_pilot_sentence` — why there is no pilot plan.

>>> from humanly._core.result import Interval
>>> from humanly.budget.assumptions import AssumptionTest
>>> t = AssumptionTest("assumption1", None, "q_b − q_w", 0.02, Interval(-0.01, 0.05), "consistent")
>>> assumption_sentence(t)
'assumption 1 (q_b ≥ q_w): q_b − q_w = 0.02, 95% interval [-0.01, 0.05] → consistent'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from .notes import notes_text
from .text import check_text

if TYPE_CHECKING:
    from .._core.result import Skipped
    from ..budget import PilotPlan
    from ..budget.assumptions import AssumptionTest
    from ..budget.identification import WeakEstimate

__all__ = [
    "MIN_LATENT_ITEMS",
    "PARAMETER_WORDS",
    "assumption_sentence",
    "no_pilot_sentence",
    "pilot_notes",
    "pilot_skipped_sentence",
    "untested_reason",
    "weak_sentence",
]

#: How a sentence names each parameter of the correlated error model.
PARAMETER_WORDS = {
    "q_b": "the crowd's accuracy where only the better model is right (q_b)",
    "q_w": "the crowd's accuracy where only the worse model is right (q_w)",
    "p_w": "the worse model's accuracy (p_w)",
    "p_b0": "the better model's accuracy where the worse one errs (p_b0)",
    "p_b1": "the better model's accuracy where the worse one is right (p_b1)",
}
#: Fewest items with ≥ 3 labels the latent-class estimate needs (as :func:`humanly.budget.pilot_plan`).
MIN_LATENT_ITEMS = 10
#: the width of a bootstrap range beyond which an estimate is loose
#: (:data:`humanly.budget.identification.WIDE`, said in the sentence)
_WIDE = 0.2
#: the verdict of an assumption test that contradicts the assumption
_AGAINST = "evidence_against"


def untested_reason(t: AssumptionTest) -> str | None:
    """Why an assumption test is untested, in words (``None`` when it was tested).

    >>> from humanly._core.result import Interval
    >>> from humanly.budget.assumptions import AssumptionTest
    >>> t = AssumptionTest("assumption2_m5", 5, "x", None, Interval(None, None), "untested",
    ...                    "too_few_labels", 3)
    >>> untested_reason(t)
    'no pilot item has ≥ 5 labels; the most is 3'
    """
    if t.reason is None:
        return None
    if t.reason == "no_bootstrap":
        return "bootstrap=0: no interval"
    if t.reason == "no_replicate":
        return "no bootstrap replicate defines it"
    if t.reason == "too_few_labels":
        return f"no pilot item has ≥ {t.labels_per_item} labels; the most is {t.most_labels}"
    if t.labels_per_item is None:
        return "cannot be computed on this pilot"
    return "E_b or E_w has no pilot item, or p_w(1 − p_b¹) = 0"


def assumption_sentence(t: AssumptionTest) -> str:
    """One line for people: the assumption, the estimate with its interval and the verdict.

    Parameters
    ----------
    t : AssumptionTest
        One test of a pilot plan (``PilotPlan.assumptions.tests``).

    Returns
    -------
    str
        The line.

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> from humanly.budget.assumptions import AssumptionTest
    >>> assumption_sentence(AssumptionTest("assumption2_m3", 3, "x", None, Interval(None, None),
    ...                                    "untested", "no_bootstrap"))
    'assumption 2 (eq. 3, m = 3): x = undefined → untested (bootstrap=0: no interval)'
    """
    head = (
        "assumption 1 (q_b ≥ q_w)"
        if t.labels_per_item is None
        else f"assumption 2 (eq. 3, m = {t.labels_per_item})"
    )
    value = "undefined" if t.estimate is None else f"{t.estimate:.3g}"
    lo, hi = t.interval
    span = "" if lo is None or hi is None else f", 95% interval [{lo:.3g}, {hi:.3g}]"
    why = untested_reason(t)
    return f"{head}: {t.quantity} = {value}{span} → {check_text(t.verdict)}" + (
        f" ({why})" if why else ""
    )


def _weak_part(w: WeakEstimate, words: str) -> str:
    """One weak estimate (``words``: what it is) in words: on the edge of its range, not informed, or
    anywhere within its range."""
    if w.reason == "boundary":
        return f"{words} at {w.estimate:.2f}, the edge of its range"
    low, high = w.interval
    if low is None or high is None:
        return f"{words} at {w.estimate:.2f}, which it does not inform"
    return f"{words} anywhere from {float(low):.2f} to {float(high):.2f}"


def _weak_estimates(
    weak: Sequence[WeakEstimate], n_used: int, many: str, words: Callable[[str], str]
) -> str | None:
    """The sentence of :func:`weak_sentence` for any pilot: ``many`` names the estimates ("five
    parameters"), ``words`` says one estimate by its name; ``None`` when none is weak."""
    if not weak:
        return None
    if len(weak) > 2:
        names = ", ".join(w.parameter for w in weak)
        where = (
            f"leaves {len(weak)} of its {many} ({names}) on the edge of their range or spread over "
            f"more than {_WIDE:g} (a bootstrap or Wald interval)"
        )
    else:
        where = f"puts {'; '.join(_weak_part(w, words(w.parameter)) for w in weak)}"
    return (
        f"The estimate is weak: the {n_used:,}-item pilot {where}, so the budget rests on numbers "
        "the pilot does not pin down — label a larger pilot, or more labels per pilot item, before "
        "relying on it"
    )


def weak_sentence(plan: PilotPlan) -> str | None:
    """One plain sentence saying which estimates the pilot identifies weakly
    (``PilotPlan.warnings``) and what that means for the plan; ``None`` when none is.

    Parameters
    ----------
    plan : PilotPlan
        The pilot plan.

    Returns
    -------
    str or None
        The sentence (without its full stop: the plan's verdict quotes it).

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> from humanly.budget import pilot_plan
    >>> d = pair(2000, 3, q=0.6, p=0.7, eps=0.1, seed=1)  # a crowd right 60% of the time
    >>> print(weak_sentence(pilot_plan(d.ratings, d.predictions, bootstrap=0))[:42])
    The estimate is weak: the 2,000-item pilot
    """
    return _weak_estimates(
        plan.warnings, plan.n_used, "five parameters", PARAMETER_WORDS.__getitem__
    )


def _assumption1_note(plan: PilotPlan) -> str | None:
    """A note when the recommendation of m > 1 rests on q_b < q_w that the pilot does not establish."""
    tests = plan.assumptions.tests
    if not tests or plan.recommended_labels_per_item == 1:
        return None
    first, est = tests[0], plan.estimates
    if not est.q_b < est.q_w or first.verdict == _AGAINST:
        return None
    return (
        "the recommendation rests on q_b < q_w at the point estimates, but assumption 1 is not "
        f"contradicted ({assumption_sentence(first)}); under it Theorem 2 favours m = 1 — label a "
        "larger pilot before spending the budget on several labels per item"
    )


def pilot_notes(plan: PilotPlan) -> tuple[str, ...]:
    """What a reader of a pilot plan should know: its notes, and the one its numbers imply — a
    recommendation of m > 1 that rests on q_b < q_w at the point estimates while assumption 1
    (q_b ≥ q_w, under which Theorem 2 favours m = 1) is not contradicted.

    Parameters
    ----------
    plan : PilotPlan
        The pilot plan.

    Returns
    -------
    tuple of str
        The notes, each one sentence without its full stop.

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> from humanly.budget import pilot_plan
    >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    >>> pilot_notes(pilot_plan(d.ratings, d.predictions, bootstrap=0))
    ()
    """
    implied = _assumption1_note(plan)
    return notes_text(plan.notes) + ((implied,) if implied else ())


def pilot_skipped_sentence(skipped: Skipped) -> str:
    """Why a budget analysis has no pilot plan (``PlanResult.pilot_skipped``), in words.

    >>> from humanly._core.result import Skipped
    >>> pilot_skipped_sentence(Skipped("pilot", "one_model"))
    'the pilot plan needs the predictions of two models (given: 1)'
    """
    if skipped.reason in ("no_predictions", "one_model"):
        given = 0 if skipped.reason == "no_predictions" else 1
        return f"the pilot plan needs the predictions of two models (given: {given})"
    if skipped.reason == "latent_only":
        return (
            "a pilot of more than two classes is fitted by the latent-class model only "
            '(estimator="latent")'
        )
    return skipped.error or skipped.reason


def _labels_per_item(histogram: Mapping[str, int]) -> str:
    """ "2 labels: 300 items, 3 labels: 12 items" (a count of the layout, not a statistic)."""
    return ", ".join(
        f"{k} label{'s' if k != 1 else ''}: {v:,} item{'s' if v != 1 else ''}"
        for k, v in sorted((int(k), v) for k, v in histogram.items())
    )


def no_pilot_sentence(skipped: Skipped, histogram: Mapping[str, int], *, n_classes: int = 2) -> str:
    """Why a study with two or more models has no pilot plan, as the report says it: with too few
    items of ≥ 3 labels (``histogram``: labels per item → items), what the latent-class estimate needs
    and (two classes) why the crowd-majority estimate is not shown; otherwise the reason.

    Parameters
    ----------
    skipped : Skipped
        ``PlanResult.pilot_skipped``.
    histogram : mapping
        The study's labels per item → items (``InspectResult.labels_per_item.histogram``).
    n_classes : int
        The study's classes (more than two: the K-class pilot's confusion matrices).

    Returns
    -------
    str
        The sentences.

    Examples
    --------
    >>> from humanly._core.result import Skipped
    >>> no_pilot_sentence(Skipped("pilot", "input_error", "q=nan"), {"2": 5, "3": 40})
    'The pilot plan from the first two models does not apply: q=nan.'
    >>> no_pilot_sentence(Skipped("pilot", "input_error", "q"), {"2": 50}, n_classes=3)[:74]
    'No pilot plan from the first two models: the K-class latent-class estimate'
    """
    enough = sum(v for k, v in histogram.items() if int(k) >= 3)
    if enough >= MIN_LATENT_ITEMS:
        return (
            "The pilot plan from the first two models does not apply: "
            f"{pilot_skipped_sentence(skipped)}."
        )
    if n_classes > 2:
        return (
            "No pilot plan from the first two models: the K-class latent-class estimate of the "
            f"confusion matrices of the crowd and of both models ({n_classes} classes) needs at least "
            f"3 labels per item on at least {MIN_LATENT_ITEMS} items (with fewer, an item's labels "
            f"cannot tell its true class from the crowd's errors); here {enough:,} items have 3 or "
            f"more ({_labels_per_item(histogram)})."
        )
    return (
        "No pilot plan from the first two models: the latent-class estimate of the correlated error "
        f"model needs at least 3 labels per item on at least {MIN_LATENT_ITEMS} items (with fewer, an "
        f"item's labels cannot tell its true label from the label accuracies); here {enough:,} items "
        f"have 3 or more ({_labels_per_item(histogram)}). The crowd-majority estimate (humanly "
        "budget plan --estimator majority) needs only 2 labels but is biased towards agreement with the "
        "crowd — with exactly 2 labels per item it puts both label accuracies at 1 — so it is not "
        "shown."
    )
