"""Verdicts of the judge analysis (:func:`humanly.judge`): the sentences a reviewer can quote.

* one per model: its accuracy from the human labels and the judge's (PPI++), the human-only interval
  beside it and what the judge was worth in human labels;
* one per comparison: which model is more accurate, by how many points, with the interval and the
  labels it rests on ("A is more accurate than B by 2.1 points, 95% interval [0.4, 3.8], from 300
  human labels and 20,000 judge labels");
* one per model from the frontier check: when the judge is not shown more accurate than the model, at
  most a factor two in human labels can be saved (Dorner, Nastl & Hardt), with the factor measured.

:func:`plan_sentences` words a :class:`~humanly.judging.LabelPlan`. Like every verdict module, this
reads results only and imports no numpy, pandas, matplotlib or jinja2.

>>> from humanly._core.result import Interval
>>> from humanly.judging import Comparison, Estimate
>>> e = Estimate(0.021, Interval(0.004, 0.038), 0.0087, 0.6, 0.03, Interval(-0.01, 0.07), 900.0,
...              3.0, 0.8, 0.3, 300)
>>> print(comparison_sentence(Comparison("A", "B", e), 0.95, 300, 20_000))
... # doctest: +NORMALIZE_WHITESPACE
A is more accurate than B by 2.1 points, 95% interval [0.4, 3.8], from 300 human labels and 20,000
judge labels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from . import Verdict

if TYPE_CHECKING:
    from ..judging import Comparison, FrontierRow, JudgeResult, LabelPlan, ModelAccuracy, Selection

__all__ = [
    "ESTIMATOR_NAMES",
    "METHODS",
    "accuracy_sentence",
    "comparison_sentence",
    "frontier_sentence",
    "headline",
    "percent",
    "plan_sentences",
    "points",
    "selection_sentence",
    "verdicts",
]

#: the Methods paragraph the sentences rest on
METHODS = "methods-judge"
TOPIC = "judge"
#: how each estimator is named in a sentence
ESTIMATOR_NAMES = {
    "ppi++": "PPI++",
    "ppi": "PPI",
    "classical": "human labels only",
}


def _level(level: float) -> str:
    return f"{round(level * 100, 6):g}%"


def percent(x: float | None) -> str:
    """An accuracy in percent with one decimal (``"—"`` when undefined).

    >>> percent(0.8152), percent(None)
    ('81.5%', '—')
    """
    return "—" if x is None else f"{100 * x:.1f}%"


def points(x: float | None) -> str:
    """A difference of accuracies in percentage points, one decimal (``"—"`` when undefined).

    >>> points(0.021), points(-0.0049)
    ('2.1', '-0.5')
    """
    if x is None:
        return "—"
    text = f"{100 * x:.1f}"
    return "0.0" if text == "-0.0" else text


def _range(low: float | None, high: float | None) -> str:
    return f"[{points(low)}, {points(high)}]"


def _labels(n: int, judged: int) -> str:
    return f"from {n:,} human label{'s' if n != 1 else ''} and {judged:,} judge labels"


def accuracy_sentence(m: ModelAccuracy, r: JudgeResult) -> str:
    """The accuracy of one model, with the human-only interval and the judge's worth."""
    a = m.accuracy
    judged = r.n_labelled + r.n_unlabelled
    text = (
        f"{m.model}'s accuracy is {percent(a.point)}, {_level(r.level)} interval "
        f"[{percent(a.interval.low)}, {percent(a.interval.high)}], {_labels(r.n_labelled, judged)} "
        f"({ESTIMATOR_NAMES.get(r.estimator, r.estimator)}); human labels alone give "
        f"[{percent(a.classical.low)}, {percent(a.classical.high)}]"
    )
    if a.effective_n is not None and a.saving is not None and r.estimator != "classical":
        text += (
            f", so the judge's labels were worth {a.effective_n:,.0f} human labels "
            f"({a.saving:.2f} per human label)"
        )
    return text + "."


def comparison_sentence(c: Comparison, level: float, n: int, judged: int) -> str:
    """Which of two models is more accurate, by how many points, with the interval."""
    d = c.difference
    low, high = d.interval
    tail = f"{_level(level)} interval"
    if low is not None and low > 0:
        return (
            f"{c.first} is more accurate than {c.second} by {points(d.point)} points, {tail} "
            f"{_range(low, high)}, {_labels(n, judged)}."
        )
    if high is not None and high < 0:
        return (
            f"{c.second} is more accurate than {c.first} by {points(-d.point)} points, {tail} "
            f"{_range(-high, None if low is None else -low)}, {_labels(n, judged)}."
        )
    return (
        f"{c.first} and {c.second} are not told apart: {c.first} − {c.second} is "
        f"{points(d.point)} points, {tail} {_range(low, high)}, {_labels(n, judged)}."
    )


def frontier_sentence(row: FrontierRow, judge_accuracy: float, n: int, judge: str) -> str:
    """The frontier check for one model (Dorner, Nastl & Hardt), with the measured saving."""
    measured = "—" if row.saving is None else f"{row.saving:.2f}"
    on = (
        f"({judge} {percent(judge_accuracy)} vs {row.model} {percent(row.model_accuracy)} on the "
        f"{n:,} human-labelled items)"
    )
    who = "The judge" if judge == "judge" else f"The judge {judge}"
    if row.at_most_twice:
        verb = (
            "less accurate than"
            if row.status == "judge less accurate"
            else "not shown more accurate than"
        )
        return (
            f"{who} is {verb} {row.model} {on}: by Dorner, Nastl & Hardt no debiasing "
            f"method can save more than a factor two in human labels here; measured: {measured}."
        )
    return (
        f"{who} is more accurate than {row.model} {on}, so the factor-two limit of "
        f"Dorner, Nastl & Hardt does not bind; measured saving: {measured}."
    )


def selection_sentence(sel: Selection) -> str:
    """What an active selection (``humanly judge select``) asks for, in one sentence.

    >>> import numpy as np
    >>> from humanly.judging import Selection
    >>> sel = Selection("llm", 1.0, 2, 1, 0.5, 0.9, 0, ("a", "b"), np.array([0.3, 0.7]),
    ...                 np.array([0, 1]))
    >>> print(selection_sentence(sel))
    Send 1 of the 2 unlabelled items to human raters (expected 1, steered by the judge llm's uncertainty).
    """
    return (
        f"Send {sel.n_selected:,} of the {sel.pool:,} unlabelled items to human raters (expected "
        f"{sel.budget:,.6g}, steered by the judge {sel.judge}'s uncertainty)."
    )


def verdicts(r: JudgeResult | LabelPlan | Selection) -> tuple[Verdict, ...]:
    """The sentences of a judge analysis: each model's accuracy and frontier check (on the model's
    card), then each comparison (on the study card); of a label plan, one per estimand
    (:func:`plan_sentences`); of an active selection, :func:`selection_sentence`.

    Parameters
    ----------
    r : JudgeResult, LabelPlan or Selection
        The result.

    Returns
    -------
    tuple of Verdict
    """
    if type(r).__name__ == "LabelPlan":
        plan = cast("LabelPlan", r)
        return tuple(Verdict(TOPIC, s, None, "plan", METHODS) for s in plan_sentences(plan))
    if type(r).__name__ == "Selection":
        sentence = selection_sentence(cast("Selection", r))
        return (Verdict(TOPIC, sentence, None, "selection", METHODS),)
    r = cast("JudgeResult", r)
    judged = r.n_labelled + r.n_unlabelled
    frontier = {} if r.frontier is None else {row.model: row for row in r.frontier.models}
    out: list[Verdict] = []
    for m in r.models:
        out.append(Verdict(TOPIC, accuracy_sentence(m, r), m.model, "estimate", METHODS))
        row = frontier.get(m.model)
        if row is not None and r.frontier is not None:
            sentence = frontier_sentence(row, r.frontier.judge_accuracy, r.frontier.n, r.judge)
            out.append(Verdict(TOPIC, sentence, m.model, row.status, METHODS))
    for c in r.comparisons:
        sentence = comparison_sentence(c, r.level, r.n_labelled, judged)
        low, high = c.difference.interval
        told = (low is not None and low > 0) or (high is not None and high < 0)
        out.append(
            Verdict(TOPIC, sentence, None, "different" if told else "no clear difference", METHODS)
        )
    return tuple(out)


def plan_sentences(plan: LabelPlan) -> tuple[str, ...]:
    """One sentence per planned estimand: items for humans and for the judge, the width expected,
    and the width human labels alone would give for the same money."""
    out = []
    goal = (
        f"a budget of {plan.budget:,.6g}"
        if plan.budget is not None
        else f"an interval width of {points(plan.target_width)} points"
    )
    for e in plan.estimands:
        if e.n_human is None or e.n_judge is None:
            out.append(f"{e.estimand}: no plan reaches {goal}.")
            continue
        alone = (
            f"; human labels alone ({e.human_n:,}) would give {points(e.human_width)} points"
            if e.human_n is not None and e.human_width is not None
            else ""
        )
        cost = "" if e.cost is None else f", costing {e.cost:,.6g}"
        out.append(
            f"{e.estimand}: for {goal}, send {e.n_human:,} items to human raters and "
            f"{e.n_judge:,} more to the judge alone{cost}: a {_level(plan.level)} interval about "
            f"{points(e.width)} points wide{alone}."
        )
    return tuple(out + [f"Note: {n}." for n in plan.notes])


def headline(r: JudgeResult) -> str:
    """A judge analysis in one line for the terminal: the judge, the labels and the first estimate."""
    first = r.models[0]
    ci = first.accuracy.interval
    return (
        f"Judge {r.judge}: {r.n_labelled:,} human labels and {r.n_labelled + r.n_unlabelled:,} "
        f"judge labels; {first.model}'s accuracy {percent(first.accuracy.point)} "
        f"[{percent(ci.low)}, {percent(ci.high)}]."
    )
