"""Verdicts of the label-budget analysis (Don't Label Twice): the labelling advice, one sentence.

* :func:`comparison_verdicts` — a budget comparison (``humanly budget win``,
  :class:`~humanly.budget.Comparison`): with k labels, which labelling identifies the better of the two
  classifiers with which exact probability;
* :func:`pilot_verdicts` — a pilot plan (:class:`~humanly.budget.PilotPlan`): how many items to label
  how often, under which estimate, and whether the pilot contradicts the paper's assumptions;
* :func:`plan_verdicts` — the budget analysis of a study (``humanly budget plan``,
  :class:`~humanly.budget.PlanResult`): the comparison at the crowd's own label accuracy, and the pilot
  plan when there is one (for more than two classes the K-class pilot's,
  :mod:`humanly.verdicts.multiclass`);
* :func:`verdicts` — whichever of the three a result is.

Beside them, which labelling is the better use of the budget (:func:`better_use`) and the one-line
summary of a budget analysis (:func:`headline`); the words of a pilot plan's parts are in
:mod:`humanly.verdicts.pilot`.

Sentences are about the study (``model=None``) and rest on the Methods paragraph ``methods-plan``.
This module imports no plotting, templating or pandas (the command line prints these sentences).

>>> from humanly.budget import IndependentErrors, compare
>>> print(verdicts(compare(IndependentErrors(0.8, 0.01, 0.8), 1500, (1, 3)))[0].sentence)
... # doctest: +NORMALIZE_WHITESPACE
With 1,500 labels, single labels identify the better of two classifiers 1 point apart
(accuracies 0.81 vs 0.80) with probability 0.652 (exact); 3-label majorities reach 0.609.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import Verdict
from .multiclass import multiclass_verdicts
from .pilot import weak_sentence
from .text import check_text

if TYPE_CHECKING:
    from ..budget import Comparison, PilotPlan, PlanResult, QuickComparison

__all__ = [
    "METHODS",
    "better_use",
    "comparison_verdicts",
    "headline",
    "pilot_verdicts",
    "plan_verdicts",
    "probability",
    "scheme",
    "source_words",
    "verdicts",
]

#: The id of the Methods paragraph the sentences rest on.
METHODS = "methods-plan"
#: The Methods paragraph of more than two classes.
METHODS_K = "methods-plan-2"
TOPIC = "plan"

#: How each pilot estimator is named in a sentence.
ESTIMATE = {
    "latent": "the latent-class estimates",
    "majority": "the crowd-majority estimates (biased towards agreement with the crowd)",
}


def probability(p: float) -> str:
    """A probability with the digits that tell it apart from 1: two significant digits of 1 − p
    (at most six decimals) near 1, three decimals otherwise.

    >>> probability(0.65237), probability(0.99973), probability(0.9961), probability(1 - 1e-12)
    ('0.652', '0.9997', '0.996', '> 0.999999')
    """
    if not math.isfinite(p):
        return "—"
    if p < 0.99:
        return f"{p:.3f}"
    rest = 1.0 - p
    if rest < 5e-7:
        return "> 0.999999"
    decimals = min(6, max(3, math.floor(-math.log10(rest)) + 1))
    return f"{p:.{decimals}f}"


def scheme(m: int, *, plural: bool = True, vote: str = "majority") -> str:
    """How m labels per item are used: "single labels", "3-label majorities" (``vote="plurality"``
    for more than two classes: "3-label pluralities").

    >>> scheme(1), scheme(3), scheme(5, plural=False), scheme(3, vote="plurality")
    ('single labels', '3-label majorities', 'a 5-label majority', '3-label pluralities')
    """
    if m == 1:
        return "single labels" if plural else "a single label"
    many = "pluralities" if vote == "plurality" else "majorities"
    return f"{m}-label {many}" if plural else f"a {m}-label {vote}"


def _apart(better: float, worse: float) -> str:
    """ "1 point apart (accuracies 0.81 vs 0.80)"."""
    points = 100.0 * (better - worse)
    shown = f"{points:.0f}" if abs(points - round(points)) < 0.05 else f"{points:.1f}"
    unit = "point" if shown == "1" else "points"
    return f"{shown} {unit} apart (accuracies {_accuracy(better)} vs {_accuracy(worse)})"


def _accuracy(x: float) -> str:
    """Three decimals without trailing zeros beyond two: 0.81, 0.80, 0.784."""
    text = f"{x:.3f}"
    return text[:-1] if text.endswith("0") else text


def _others(ms: Sequence[int], wins: Sequence[float], best: int, vote: str = "majority") -> str:
    parts = [(m, w) for m, w in zip(ms, wins, strict=True) if m != best]
    if not parts:
        return ""
    (m0, w0), rest = parts[0], parts[1:]
    text = f"; {scheme(m0, vote=vote)} reach {probability(w0)}"
    return text + "".join(f", {scheme(m, vote=vote)} {probability(w)}" for m, w in rest)


def _comparison_sentence(
    budget: int,
    ms: Sequence[int],
    wins: Sequence[float],
    best: int,
    accuracies: tuple[float, float],
    lead: str = "",
    vote: str = "majority",
) -> str:
    by_m = dict(zip(ms, wins, strict=True))
    return (
        f"With {budget:,} labels{lead}, {scheme(best, vote=vote)} identify the better of two "
        f"classifiers {_apart(*accuracies)} with probability {probability(by_m[best])} (exact)"
        f"{_others(ms, wins, best, vote)}."
    )


def comparison_verdicts(result: Comparison) -> tuple[Verdict, ...]:
    """One sentence for a budget comparison: the best m's exact win probability and the others'.

    >>> from humanly.budget import CorrelatedErrors, compare
    >>> res = compare(CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9), 300, (1, 3))
    >>> print(comparison_verdicts(res)[0].sentence)  # doctest: +NORMALIZE_WHITESPACE
    With 300 labels, single labels identify the better of two classifiers 22 points apart
    (accuracies 0.82 vs 0.60) with probability 0.999994 (exact); 3-label majorities reach 0.9996.
    """
    ms = [r.labels_per_item for r in result.rows]
    wins = [r.exact for r in result.rows]
    sentence = _comparison_sentence(
        result.budget, ms, wins, result.best_labels_per_item, result.params.accuracies()
    )
    status = (
        "single labels best"
        if result.best_labels_per_item == 1
        else f"{result.best_labels_per_item}-majority best"
    )
    return (Verdict(TOPIC, sentence, None, status, METHODS),)


def _assumption_clause(res: PilotPlan) -> str:
    """ "the pilot is consistent with assumptions 1 and 2 (m = 3, 5)", or each verdict in turn."""
    tests = res.assumptions.tests
    if not tests:
        return ""
    if all(t.verdict == "untested" for t in tests):
        why = " (no bootstrap intervals)" if res.bootstrap == 0 else ""
        return f"the assumptions are untested{why}"
    second = ", ".join(str(t.labels_per_item) for t in tests[1:])
    if all(t.verdict == "consistent" for t in tests):
        both = f"assumptions 1 and 2 (m = {second})" if second else "assumption 1"
        return f"the pilot is consistent with {both}"
    parts = [f"assumption 1 {_verdict_words(tests[0].verdict)}"]
    by_verdict: dict[str, list[str]] = {}
    for t in tests[1:]:
        by_verdict.setdefault(t.verdict, []).append(str(t.labels_per_item))
    for verdict, ms in by_verdict.items():
        parts.append(f"assumption 2 {_verdict_words(verdict)} for m = {', '.join(ms)}")
    return "; ".join(parts)


def _verdict_words(verdict: str) -> str:
    """A test's verdict inside a sentence ("consistent with the pilot", …)."""
    if verdict == "consistent":
        return "consistent with the pilot"
    if verdict == "untested":
        return "untested"
    return f"contradicted by the pilot ({check_text(verdict)})"


def pilot_verdicts(result: PilotPlan) -> tuple[Verdict, ...]:
    """One sentence for a pilot plan: the recommended labelling, the estimate it rests on and the
    assumption tests' verdicts.

    >>> from humanly.simulate import pair
    >>> from humanly.budget import pilot_plan
    >>> d = pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    >>> print(pilot_verdicts(pilot_plan(d.ratings, d.predictions, bootstrap=0))[0].sentence)
    ... # doctest: +NORMALIZE_WHITESPACE
    Label 93 items once (m = 1, 93 labels): under the latent-class estimates from the 400-item
    pilot this ranks the better of 'better' and 'worse' first with probability ≥ 0.95 (exact); the
    assumptions are untested (no bootstrap intervals). The estimate is weak: the 400-item pilot puts
    the crowd's accuracy where only the worse model is right (q_w) anywhere from 0.64 to 0.84; the
    better model's accuracy where the worse one errs (p_b0) anywhere from 0.50 to 0.70, so the budget
    rests on numbers the pilot does not pin down — label a larger pilot, or more labels per pilot
    item, before relying on it.
    """
    res = result
    estimate = ESTIMATE.get(res.estimator, f"the {res.estimator} estimates")
    pair = f"the better of {res.better!r} and {res.worse!r}"
    clause = _assumption_clause(res)
    tail = f"; {clause}." if clause else "."
    weak = weak_sentence(res)
    if weak:  # the weakly identified estimates, in words
        tail += f" {weak}."
    m, budget = res.recommended_labels_per_item, res.recommended_budget
    if m is None or budget is None:
        sentence = (
            f"No number of labels per item ranks {pair} first with probability ≥ {res.level:g} "
            f"under {estimate} from the {res.n_items:,}-item pilot. The expected gap E[G] is ≤ 0 "
            f"for every m tried{tail}"
        )
        return (Verdict(TOPIC, sentence, None, "not identified", METHODS),)
    items = res.recommended_items
    how = "once" if m == 1 else f"{m} times each (majority vote)"
    sentence = (
        f"Label {items:,} items {how} (m = {m}, {budget:,} labels): under {estimate} from the "
        f"{res.n_items:,}-item pilot this ranks {pair} first with probability ≥ {res.level:g} "
        f"(exact){tail}"
    )
    status = "single labels" if m == 1 else f"{m}-majority"
    return (Verdict(TOPIC, sentence, None, status, METHODS),)


def plan_verdicts(result: PlanResult) -> tuple[Verdict, ...]:
    """The comparison at the crowd's label accuracy q̂ (one sentence) and the pilot plan's, if any.

    >>> from humanly import Ratings
    >>> from humanly.budget import plan
    >>> r = Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10, classes=[0, 1])
    >>> [v.status for v in plan_verdicts(plan(r))]
    ['single labels best']
    """
    a, quick = result, result.comparison
    k = a.n_classes
    lead = f" and the crowd's label accuracy of {a.label_accuracy:.3f}"
    if k > 2:
        lead += f" over {k} classes (errors uniform over the other classes)"
    vote = "majority" if k == 2 else "plurality"
    sentence = _comparison_sentence(
        quick.budget,
        quick.labels_per_item,
        quick.win,
        quick.best_labels_per_item,
        (a.better_accuracy, quick.p),
        lead,
        vote,
    )
    status = (
        "single labels best"
        if quick.single_is_best
        else f"{quick.best_labels_per_item}-{vote} best"
    )
    methods = METHODS if k == 2 else METHODS_K
    out = [Verdict(TOPIC, sentence, None, status, methods)]
    if a.pilot is not None:
        out.extend(pilot_verdicts(a.pilot))
    if a.multiclass_pilot is not None:
        out.extend(multiclass_verdicts(a.multiclass_pilot))
    return tuple(out)


#: Where the better classifier's accuracy comes from, in words (``PlanResult.better_accuracy_source``).
SOURCES = {
    "best_model_agreement": "the best model's agreement with the plurality label",
    "paper_figure_2": "the paper's Fig. 2 value",
}


def source_words(code: str) -> str:
    """Where a budget analysis' better accuracy comes from, in words.

    >>> source_words("paper_figure_2")
    "the paper's Fig. 2 value"
    """
    return SOURCES.get(code, code)


def better_use(quick: QuickComparison, vote: str = "majority") -> str:
    """Which labelling is the better use of the budget, in one sentence (``vote="plurality"`` for
    more than two classes).

    >>> from humanly.budget import quick_compare
    >>> better_use(quick_compare(0.8, 1000, p=0.8, eps=0.01))
    'Single labels are the better use of this budget.'
    """
    if quick.single_is_best:
        return "Single labels are the better use of this budget."
    return f"{quick.best_labels_per_item}-{vote} labels are the better use of this budget."


def headline(result: PlanResult) -> str:
    """The budget analysis in one line for the terminal.

    >>> from humanly import Ratings
    >>> from humanly.budget import plan
    >>> r = Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10, classes=[0, 1])
    >>> headline(plan(r)).split(";")[0]
    'budget: label accuracy ≈ 0.789'
    """
    c = result.comparison
    wins = ", ".join(f"m={m} {w:.3f}" for m, w in zip(c.labels_per_item, c.win, strict=True))
    vote = "majority" if result.n_classes == 2 else "plurality"
    best = "single labels" if c.single_is_best else f"{c.best_labels_per_item}-{vote} labels"
    return f"budget: label accuracy ≈ {result.label_accuracy:.3f}; P(rank right) {wins} → {best}"


def verdicts(result: Any) -> tuple[Verdict, ...]:
    """The verdicts of a :class:`~humanly.budget.Comparison`, :class:`~humanly.budget.PilotPlan`,
    :class:`~humanly.budget.MulticlassPilotPlan` or :class:`~humanly.budget.PlanResult` (no sentence
    for other results)."""
    kind = type(result).__name__
    if kind == "Comparison":
        return comparison_verdicts(result)
    if kind == "PilotPlan":
        return pilot_verdicts(result)
    if kind == "PlanResult":
        return plan_verdicts(result)
    if kind == "MulticlassPilotPlan":
        return multiclass_verdicts(result)
    return ()
