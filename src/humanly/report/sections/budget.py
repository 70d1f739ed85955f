"""The label-budget section of ``humanly report`` (Don't Label Twice), for two-class data.

What the data imply for the next test set: the single-label accuracy q̂ estimated from the crowd's own
agreement, the exact probability that single labels vs m-majority labels identify the better of two
classifiers for a budget, and the budget each needs for an error of at most δ = 0.05; with two or more
models, the pilot plan of :func:`humanly.budget.plan`. The numbers come from
:func:`humanly.budget.assess`; this module only lays them out.
"""

from __future__ import annotations

from typing import Any

from ...budget import Assessment, assess, label_accuracy_from_agreement
from ...data import Gold, Predictions, Ratings
from .._page import Figure, Section, Table

__all__ = ["METHODS_TEXT", "budget_headline", "budget_section", "label_accuracy_from_agreement"]

METHODS_TEXT = (
    "Label budget (Don't Label Twice). With two classes and labels that are right independently with "
    "probability q, two labels agree with probability a = q² + (1 − q)², so the crowd's pairwise "
    "agreement gives q̂ = (1 + √(2a − 1))/2 (the symmetric-noise reading; it ignores item difficulty, "
    "which makes q̂ an average). For a budget of k labels spent as n = k/m items with m-majority labels, "
    "the probability of ranking the better of two classifiers (accuracies p + ε and p, independent "
    "errors, Proposition 1) first is P(Σ Gᵢ > 0), computed exactly (the number of non-zero Gᵢ is "
    "binomial; given it, the sign is a regularised incomplete beta function), with majority accuracy "
    "M_m(q) from Lemma C.1 (ties by a fair coin). The sample size is the smallest budget with error ≤ δ. "
    "With two models and several labels per item, the correlated model of section 3.2 is estimated "
    "by plug-in against the crowd majority, with bootstrap ranges and checks of assumptions 1 and 2."
)


def budget_section(
    ratings: Ratings,
    gold: Gold | None,
    predictions: Predictions | None,
    *,
    seed: int = 0,
    bootstrap: int = 200,
    delta: float = 0.05,
    eps: float = 0.01,
    **_: Any,
) -> tuple[Section, Assessment | None]:
    """Lay out :func:`humanly.budget.assess`; a one-sentence note when it does not apply."""
    del gold  # the budget analysis needs no gold labels
    title = "Label budget: one label per item or majority votes?"
    if ratings.n_classes != 2:
        note = (
            f"The label-budget analysis (Don't Label Twice) is for two classes; this data has "
            f"{ratings.n_classes} ({', '.join(map(str, ratings.classes))})."
        )
        return Section("budget", title, note=note), None
    if not (ratings.labels_per_item >= 2).any():
        note = "No item has two labels, so the label accuracy cannot be estimated from agreement."
        return Section("budget", title, note=note), None
    a = assess(ratings, predictions, eps=eps, delta=delta, bootstrap=bootstrap, seed=seed)
    paragraphs = [_comparison_text(a)]
    tables = [_comparison_table(a)]
    if a.plan_note is not None:
        paragraphs.append(
            f"The pilot plan from the first two models does not apply: {a.plan_note}."
        )
    elif a.plan is not None:
        tables.append(_plan_table(a))
        paragraphs.append(_plan_text(a))
    from ...plots.budget import win_vs_budget_figure

    q = a.label_accuracy
    fig = Figure.from_matplotlib(
        win_vs_budget_figure(a.model()),
        f"Exact probability of ranking the better classifier first against the label budget, for "
        f"single labels and m-majority labels (q̂ = {q:.3f}; the paper's Fig. 2 b).",
    )
    section = Section(
        "budget", title, paragraphs=tuple(paragraphs), tables=tuple(tables), figures=(fig,)
    )
    return section, a


def _comparison_text(a: Assessment) -> str:
    quick = a.comparison
    return (
        f"The crowd's pairwise agreement {a.agreement:.3f} implies a single-label accuracy "
        f"q̂ = {a.label_accuracy:.3f}. For the next test set with the same budget ({a.budget:,} "
        f"labels), the table gives the exact probability of ranking a classifier with accuracy "
        f"{a.better_accuracy:.3f} ({a.better_accuracy_source}) above one that is {a.eps:g} worse, "
        f"and the budget each labelling scheme needs for an error of at most δ = {a.delta:g}. "
        + (
            "Single labels are the better use of this budget."
            if quick.single_is_best
            else f"Here {quick.best_m}-majority labels are the better use of the budget."
        )
    )


def _comparison_table(a: Assessment) -> Table:
    quick = a.comparison
    rows = tuple(
        (
            f"m = {m}" + (" (single labels)" if m == 1 else f" ({m}-majority)"),
            f"{a.budget // m:,}",
            f"{w:.4f}",
            "—" if need is None else f"{need:,}",
        )
        for m, w, need in zip(quick.m, quick.win, quick.budget_needed, strict=True)
    )
    p, eps = a.better_accuracy, a.eps
    return Table(
        f"Budget {a.budget:,} labels, q̂ = {a.label_accuracy:.3f}, accuracies {p:.3f} vs {p - eps:.3f}",
        ("labelling", "items", "P(better ranked first)", f"budget for error ≤ {a.delta:g}"),
        rows,
    )


def _plan_table(a: Assessment) -> Table:
    pl = a.plan
    assert pl is not None
    rows = tuple(
        (k, f"{getattr(pl.estimates, k):.4f}", f"{r.low:.4f} – {r.high:.4f}")
        for k, r in pl.ranges.items()
    )
    return Table(
        f"Correlated model estimated from this data as a pilot ({pl.better} vs "
        f"{pl.worse}, {pl.n_used:,} items, {pl.bootstrap} bootstraps)",
        ("parameter", "estimate", "95% range"),
        rows,
    )


def _plan_text(a: Assessment) -> str:
    pl = a.plan
    assert pl is not None
    checks = ", ".join(f"{k} {'holds' if v else 'fails'}" for k, v in pl.assumptions.checks())
    rec = (
        f"m = {pl.recommended_m} with {pl.recommended_budget:,} labels"
        if pl.recommended_m is not None and pl.recommended_budget is not None
        else "no m reaches the target within the search range"
    )
    return f"Assumption checks: {checks}. Recommended for δ = {a.delta:g}: {rec}."


def budget_headline(d: dict[str, Any] | None) -> str | None:
    """One line for the terminal from the embedded result."""
    if not d:
        return None
    c = d["comparison"]
    wins = ", ".join(f"m={m} {w:.3f}" for m, w in zip(c["m"], c["win"], strict=True))
    best = "single labels" if c["single_is_best"] else f"{c['best_m']}-majority labels"
    return f"budget: label accuracy ≈ {d['label_accuracy']:.3f}; P(rank right) {wins} → {best}"
