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
from .notes import notes_text
from .text import number_text, p_value_text

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..judging import (
        Comparison,
        Estimate,
        FrontierRow,
        JudgeResult,
        LabelPlan,
        ModelAccuracy,
        ModelRating,
        RatingComparison,
        Selection,
    )
    from ..judging.extended import StrataAllocation

__all__ = [
    "ESTIMATOR_NAMES",
    "INTERVAL_NAMES",
    "METHODS",
    "accuracy_sentence",
    "allocation_sentence",
    "code_sentences",
    "comparison_sentence",
    "frontier_sentence",
    "headline",
    "percent",
    "plan_sentences",
    "points",
    "rating_comparison_sentence",
    "rating_sentence",
    "selection_allocation_sentence",
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


#: how each interval method is named in a table
INTERVAL_NAMES = {
    "clt": "central-limit (PPI)",
    "adjusted": "small-sample (human labels with pseudo-observations)",
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


def _small(e: Estimate, n: int, judged: int) -> str:
    """Where the small-sample interval was used: the human labels alone, and why."""
    where = " in the strata with fewer" if e.strata else ""
    rule = "—" if e.small_n is None else f"{e.small_n:,}"
    return (
        f"from {n:,} human label{'s' if n != 1 else ''}: the small-sample interval of the human "
        f"labels alone{where} (with fewer than {rule} labels PPI's interval with "
        f"the {judged:,} judge labels covers less often than it says; interval='clt' gives it)"
    )


def accuracy_sentence(m: ModelAccuracy, r: JudgeResult) -> str:
    """The accuracy of one model, with the human-only interval and the judge's worth (or, where the
    small-sample rule took the human labels' interval, that it did)."""
    a = m.accuracy
    judged = r.n_labelled + r.n_unlabelled
    if a.interval_method == "adjusted":
        return (
            f"{m.model}'s accuracy is {percent(a.point)}, {_level(r.level)} interval "
            f"[{percent(a.interval.low)}, {percent(a.interval.high)}], "
            f"{_small(a, r.n_labelled, judged)}; the plain human-only interval is "
            f"[{percent(a.classical_interval.low)}, {percent(a.classical_interval.high)}]."
        )
    text = (
        f"{m.model}'s accuracy is {percent(a.point)}, {_level(r.level)} interval "
        f"[{percent(a.interval.low)}, {percent(a.interval.high)}], {_labels(r.n_labelled, judged)} "
        f"({ESTIMATOR_NAMES.get(r.estimator, r.estimator)}); human labels alone give "
        f"[{percent(a.classical_interval.low)}, {percent(a.classical_interval.high)}]"
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
    source = _small(d, n, judged) if d.interval_method == "adjusted" else _labels(n, judged)
    if low is not None and low > 0:
        return (
            f"{c.first} is more accurate than {c.second} by {points(d.point)} points, {tail} "
            f"{_range(low, high)}, {source}."
        )
    if high is not None and high < 0:
        return (
            f"{c.second} is more accurate than {c.first} by {points(-d.point)} points, {tail} "
            f"{_range(-high, None if low is None else -low)}, {source}."
        )
    return (
        f"{c.first} and {c.second} are not told apart: {c.first} − {c.second} is "
        f"{points(d.point)} points, {tail} {_range(low, high)}, {source}."
    )


def frontier_sentence(
    row: FrontierRow, judge_accuracy: float, n: int, judge: str, small_sample: bool = False
) -> str:
    """The frontier check for one model (Dorner, Nastl & Hardt), with the measured saving (none
    when the model's interval is the human labels' small-sample one: the judge was not used)."""
    measured = "—" if row.saving is None else f"{row.saving:.2f}"
    if small_sample:
        measured = "none, the interval is the human labels' small-sample one"
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
        f"{sel.expected_items:,.6g}, steered by the judge {sel.judge}'s uncertainty)."
    )


#: what the spreads of a stratified selection's Neyman allocation were estimated from
_SPREADS = {
    "labelled": "the spread of the judge's errors on the stratum's labelled items",
    "judge": "the judge's own uncertainty, as too few items are labelled",
    "none": "no spread, as too few items are labelled and the judge gives labels: proportional",
}


def selection_allocation_sentence(sel: Selection) -> str | None:
    """How a stratified selection splits its expected items across the strata (Neyman), beside the
    split in proportion to the strata's unlabelled items; ``None`` without strata.

    >>> import numpy as np
    >>> from humanly.judging import Selection, SelectionStratum
    >>> strata = (SelectionStratum("chat", 900, 40, 0.1, 25.0, 90.0, 24),
    ...           SelectionStratum("code", 100, 40, 0.8, 75.0, 10.0, 77))
    >>> sel = Selection("llm", 100.0, 1000, 101, 0.5, 0.9, 0, (), np.array([]), np.array([]),
    ...                 strata=strata, spread_source="labelled")
    >>> print(selection_allocation_sentence(sel))  # doctest: +NORMALIZE_WHITESPACE
    Across the strata, the 100 expected items split as chat 25.0, code 75.0 (the Neyman allocation:
    in proportion to each stratum's unlabelled items times the spread of the judge's errors on the
    stratum's labelled items, at least 2 per stratum); in proportion to the unlabelled items alone
    it would be chat 90.0, code 10.0.
    """
    if not sel.strata:
        return None
    neyman = ", ".join(f"{s.stratum} {s.expected_items:,.1f}" for s in sel.strata)
    prop = ", ".join(f"{s.stratum} {s.proportional:,.1f}" for s in sel.strata)
    spread = _SPREADS.get(sel.spread_source or "none", _SPREADS["none"])
    return (
        f"Across the strata, the {sel.expected_items:,.6g} expected items split as {neyman} (the "
        f"Neyman allocation: in proportion to each stratum's unlabelled items times {spread}, at "
        f"least 2 per stratum); in proportion to the unlabelled items alone it would be {prop}."
    )


def verdicts(r: JudgeResult | LabelPlan | Selection) -> tuple[Verdict, ...]:
    """The sentences of a judge analysis: each model's accuracy and frontier check (on the model's
    card), then each comparison (on the study card); of a label plan, one per estimand
    (:func:`plan_sentences`); of an active selection, :func:`selection_sentence` (and
    :func:`selection_allocation_sentence` with strata).

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
        sel = cast("Selection", r)
        split = selection_allocation_sentence(sel)
        first = Verdict(TOPIC, selection_sentence(sel), None, "selection", METHODS)
        if split is None:
            return (first,)
        return (first, Verdict(TOPIC, split, None, "allocation", METHODS))
    r = cast("JudgeResult", r)
    if r.ratings:
        return _rating_verdicts(r)
    judged = r.n_labelled + r.n_unlabelled
    frontier = {} if r.frontier is None else {row.model: row for row in r.frontier.models}
    out: list[Verdict] = []
    for m in r.models:
        out.append(Verdict(TOPIC, accuracy_sentence(m, r), m.model, "estimate", METHODS))
        row = frontier.get(m.model)
        if row is not None and r.frontier is not None:
            who = r.frontier.judge or r.judge
            small = m.accuracy.interval_method == "adjusted"
            sentence = frontier_sentence(row, r.frontier.judge_accuracy, r.frontier.n, who, small)
            out.append(Verdict(TOPIC, sentence, m.model, row.status, METHODS))
    for c in r.comparisons:
        sentence = comparison_sentence(c, r.level, r.n_labelled, judged)
        low, high = c.difference.interval
        told = (low is not None and low > 0) or (high is not None and high < 0)
        out.append(
            Verdict(TOPIC, sentence, None, "different" if told else "no clear difference", METHODS)
        )
    out += [Verdict(TOPIC, text, None, code, METHODS) for code, text in code_sentences(r)]
    return tuple(out)


def _rating(x: float | None) -> str:
    return number_text(x, ".2f")


def _span(i: Interval) -> str:
    return f"[{_rating(i.low)}, {_rating(i.high)}]"


def rating_sentence(m: ModelRating, r: JudgeResult) -> str:
    """One model's ratings: the mean, the share at or above the threshold and the quantile.

    >>> from humanly._core.result import Interval
    >>> from humanly.judging import Estimate, JudgeResult, ModelRating
    >>> e = Estimate(3.77, Interval(3.72, 3.81), 0.02, 0.6, 3.8, Interval(3.7, 3.9), 900.0, 1.5,
    ...              0.7, 1.0, 600)
    >>> r = JudgeResult("llm", "rating", "rating", "ppi++", "uniform", 0.95, 0, 600, 19_400, (), (),
    ...                 None, ratings=(ModelRating("a", e),))
    >>> print(rating_sentence(r.ratings[0], r))  # doctest: +NORMALIZE_WHITESPACE
    a's mean rating is 3.77, 95% interval [3.72, 3.81], from 600 human ratings and 20,000 judge
    ratings (PPI++); human ratings alone give [3.70, 3.90].
    """
    e = m.mean
    n_all = r.n_labelled + r.n_unlabelled
    text = (
        f"{m.model}'s mean rating is {_rating(e.point)}, {_level(r.level)} interval "
        f"{_span(e.interval)}, from {r.n_labelled:,} human ratings and {n_all:,} judge ratings "
        f"({ESTIMATOR_NAMES.get(r.estimator, r.estimator)}); human ratings alone give "
        f"{_span(e.classical_interval)}"
    )
    if m.share is not None and r.threshold is not None:
        share = m.share
        text += (
            f"; {percent(share.point)} of its outputs are rated {r.threshold:g} or more "
            f"[{percent(share.interval.low)}, {percent(share.interval.high)}]"
        )
    if m.quantile is not None:
        q = m.quantile
        text += f"; its {q.quantile:g}-quantile is {_rating(q.point)} {_span(q.interval)}"
    return text + "."


def rating_comparison_sentence(c: RatingComparison, r: JudgeResult) -> str:
    """Which of two models is rated higher, item by item, with the interval."""
    d = c.mean_difference
    low, high = d.interval
    tail = f"{_level(r.level)} interval {_span(d.interval)}, {r.n_labelled:,} items rated by both"
    if low is not None and low > 0:
        return f"{c.first} is rated higher than {c.second} by {_rating(d.point)}, {tail}."
    if high is not None and high < 0:
        return f"{c.second} is rated higher than {c.first} by {_rating(-d.point)}, {tail}."
    return (
        f"{c.first} and {c.second} are not told apart: their mean ratings differ by "
        f"{_rating(d.point)}, {tail}."
    )


def _rating_verdicts(r: JudgeResult) -> tuple[Verdict, ...]:
    out = [Verdict(TOPIC, rating_sentence(m, r), m.model, "estimate", METHODS) for m in r.ratings]
    for c in r.rating_comparisons:
        low, high = c.mean_difference.interval
        told = (low is not None and low > 0) or (high is not None and high < 0)
        status = "different" if told else "no clear difference"
        out.append(Verdict(TOPIC, rating_comparison_sentence(c, r), None, status, METHODS))
    out += [Verdict(TOPIC, text, None, code, METHODS) for code, text in code_sentences(r)]
    return tuple(out)


def _fewest(r: JudgeResult) -> int:
    """The fewest human labels any estimate (or any stratum of one) rests on."""
    ns = [min(s.n for s in e.strata) if e.strata else e.n for _, _, _, e in r.estimates()]
    return min(ns) if ns else r.n_labelled


def _rule_n(r: JudgeResult) -> int | None:
    ns = [e.small_n for _, _, _, e in r.estimates() if e.small_n is not None]
    return max(ns) if ns else None


def _design_sentence(r: JudgeResult) -> str:
    check = r.design_check
    assert check is not None
    worst = min(check.columns, key=lambda c: c.p_value).name if check.columns else "its outputs"
    return (
        "The human labels do not look like a random sample of the items: the judge's outputs on "
        f"the {check.n:,} labelled items differ from those on the {check.n_unlabelled:,} others "
        f"(most in {worst}; p {_p(check.p_value)} after Bonferroni). PPI's interval "
        "assumes they are; if they were drawn on purpose, give each item's sampling weight 1/π "
        "(--weights) or the strata they were drawn within (--strata)."
    )


def _p(p: float | None) -> str:
    text = p_value_text(p)
    return text if text.startswith("<") else f"= {text}"


def _self_judge_sentence(r: JudgeResult) -> str:
    rows = [] if r.self_judge is None else [row for row in r.self_judge.models if row.identical]
    named = ", ".join(
        f"{row.judge} gives {row.model}'s" if row.judge else f"{r.judge} gives {row.model}'s"
        for row in rows
    )
    return (
        f"The judge's outputs are a model's on every item ({named} outputs): such a judge cannot "
        "see that model's errors; check that the judge file is not the model's predictions."
    )


def code_sentences(r: JudgeResult) -> tuple[tuple[str, str], ...]:
    """Each status code of ``r`` (``r.codes``) with its sentence, in the result's order.

    Parameters
    ----------
    r : JudgeResult
        The result.

    Returns
    -------
    tuple of (str, str)
        (code, sentence) pairs.
    """
    n_rule = _rule_n(r)
    level = _level(r.level)
    fewest = _fewest(r)
    few = (
        f"An estimate rests on {fewest:,}"
        if not any(e.strata for _, _, _, e in r.estimates())
        else f"A stratum has {fewest:,}"
    )
    fixed = {
        "weighted_design": (
            "Each labelled item is weighted by its sampling weight 1/π (the sampling probabilities "
            "were given), so the estimates do not assume a random sample and the design check does "
            "not apply."
        ),
        "small_sample": (
            f"{few} human labels (fewer than the {n_rule or '—'} from which PPI's central-limit "
            "interval keeps its level in the coverage table of docs/judge.md): there the interval "
            "is the small-sample one, the human labels alone with pseudo-observations at the ends "
            "of the range, which keeps its level (the interval column says where); "
            "interval='clt' (--interval clt) gives PPI's."
        ),
        "few_labels": (
            f"{few} human labels (fewer than the {n_rule or '—'} from which PPI's central-limit "
            "interval keeps its level in the coverage table of docs/judge.md): its interval may "
            f"cover less often than {level}; the default, interval='auto' (--interval auto), "
            "takes the small-sample interval there."
        ),
        "crossfit": (
            f"The judge was fitted on the labelled items, so its scores were cross-fitted on "
            f"{r.folds or '—'} folds (each labelled item scored by a fit that did not see it) and "
            "the estimates are cross-PPI (Zrnic & Candès 2024)."
        ),
    }
    out = []
    for code in r.codes:
        if code == "not_random_sample":
            out.append((code, _design_sentence(r)))
        elif code == "self_judge":
            out.append((code, _self_judge_sentence(r)))
        elif code in fixed:
            out.append((code, fixed[code]))
    return tuple(out)


def plan_sentences(plan: LabelPlan) -> tuple[str, ...]:
    """One sentence per planned estimand: items for humans and for the judge, the width expected,
    and the width human labels alone would give for the same money."""
    out = []
    goal = (
        f"a cost of at most {plan.max_cost:,.6g}"
        if plan.max_cost is not None
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
    if plan.allocation is not None:
        out.append(allocation_sentence(plan.allocation))
    return tuple(out + [f"Note: {n}." for n in notes_text(plan.notes)])


def allocation_sentence(a: StrataAllocation) -> str:
    """How a plan's human labels split across the strata (Neyman), beside the proportional split.

    >>> from humanly.judging.extended import StrataAllocation
    >>> a = StrataAllocation(("chat", "code"), (0.7, 0.3), (40, 60), (70, 30), (0.02,), (0.03,), 100)
    >>> print(allocation_sentence(a))  # doctest: +NORMALIZE_WHITESPACE
    Across the strata, send the 100 human labels as chat 40, code 60 (the Neyman allocation: more
    where the human reference varies most and the judge tracks it least); in proportion to the
    strata's shares it would be chat 70, code 30.
    """
    neyman = ", ".join(f"{k} {n:,}" for k, n in zip(a.strata, a.n_human, strict=True))
    prop = ", ".join(f"{k} {n:,}" for k, n in zip(a.strata, a.proportional, strict=True))
    return (
        f"Across the strata, send the {a.budget:,} human labels as {neyman} (the Neyman allocation: "
        "more where the human reference varies most and the judge tracks it least); in proportion "
        f"to the strata's shares it would be {prop}."
    )


def headline(r: JudgeResult) -> str:
    """A judge analysis in one line for the terminal: the judge, the labels and the first estimate."""
    if r.ratings:
        m = r.ratings[0]
        return (
            f"Judge {r.judge}: {r.n_labelled:,} items rated by humans and "
            f"{r.n_labelled + r.n_unlabelled:,} by the judge; {m.model}'s mean rating "
            f"{_rating(m.mean.point)} {_span(m.mean.interval)}."
        )
    first = r.models[0]
    ci = first.accuracy.interval
    return (
        f"Judge {r.judge}: {r.n_labelled:,} human labels and {r.n_labelled + r.n_unlabelled:,} "
        f"judge labels; {first.model}'s accuracy {percent(first.accuracy.point)} "
        f"[{percent(ci.low)}, {percent(ci.high)}]."
    )
