"""The label-budget section of ``humanly report`` (Don't Label Twice), for two-class data.

What the data imply for the next test set: the single-label accuracy q̂ estimated from the crowd's own
agreement, the exact probability that single labels vs m-majority labels identify the better of two
classifiers for a budget, and the budget each needs for an error of at most δ = 0.05; with two or more
models, the pilot plan of :func:`humanly.budget.plan.plan`.
"""

from __future__ import annotations

import math
from typing import Any

from ...data import Gold, InputError, Predictions, Ratings
from ...summary import summarize
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


def label_accuracy_from_agreement(agreement: float) -> float:
    """q̂ with q² + (1 − q)² = a (two classes, symmetric noise); 0.5 when a ≤ 0.5."""
    return 0.5 * (1.0 + math.sqrt(max(2.0 * agreement - 1.0, 0.0)))


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
) -> tuple[Any, dict[str, Any] | None]:
    """Lay out the budget analysis; a one-sentence note when it does not apply."""
    from ...budget import make_model, quick_compare
    from ...plots.budget import win_vs_budget_figure

    title = "Label budget: one label per item or majority votes?"
    if ratings.n_classes != 2:
        note = (
            f"The label-budget analysis (Don't Label Twice) is for two classes; this data has "
            f"{ratings.n_classes} ({', '.join(map(str, ratings.classes))})."
        )
        return Section("budget", title, note=note), None
    s = summarize(ratings, gold, predictions)
    a = s.agreement["pairwise"]
    if a is None:
        note = "No item has two labels, so the label accuracy cannot be estimated from agreement."
        return Section("budget", title, note=note), None
    q = label_accuracy_from_agreement(a)
    p_source = "the paper's Fig. 2 value"
    p = 0.8
    agreements = [m.get("plurality_agreement") for m in s.models if m.get("plurality_agreement")]
    if agreements:
        p = float(min(max(max(agreements), 0.5 + eps), 1.0 - eps))
        p_source = "the best model's agreement with the plurality label"
    p = min(p, 1.0 - eps)
    budget = int(s.n_labels)
    quick = quick_compare(q, budget, p=p - eps, eps=eps, m=(1, 3, 5), delta=delta)
    paragraphs = [
        f"The crowd's pairwise agreement {a:.3f} implies a single-label accuracy q̂ = {q:.3f}. For the "
        f"next test set with the same budget ({budget:,} labels), the table gives the exact probability "
        f"of ranking a classifier with accuracy {p:.3f} ({p_source}) above one that is {eps:g} worse, "
        f"and the budget each labelling scheme needs for an error of at most δ = {delta:g}. "
        + (
            "Single labels are the better use of this budget."
            if quick.single_is_best
            else f"Here {quick.best_m}-majority labels are the better use of the budget."
        )
    ]
    rows = tuple(
        (
            f"m = {m}" + (" (single labels)" if m == 1 else f" ({m}-majority)"),
            f"{budget // m:,}",
            f"{w:.4f}",
            "—" if need is None else f"{need:,}",
        )
        for m, w, need in zip(quick.m, quick.win, quick.budget_needed, strict=True)
    )
    tables = [
        Table(
            f"Budget {budget:,} labels, q̂ = {q:.3f}, accuracies {p:.3f} vs {p - eps:.3f}",
            ("labelling", "items", "P(better ranked first)", f"budget for error ≤ {delta:g}"),
            rows,
        )
    ]
    result: dict[str, Any] = {
        "label_accuracy": q,
        "agreement": a,
        "p": p,
        "eps": eps,
        "comparison": quick.to_dict(),
        "plan": None,
    }
    if predictions is not None and len(predictions.models) >= 2:
        from ...budget import plan

        try:
            pl = plan(ratings, predictions, delta=delta, bootstrap=bootstrap, seed=seed)
        except InputError as exc:
            paragraphs.append(f"The pilot plan from the first two models does not apply: {exc}.")
        else:
            result["plan"] = pl.to_dict()
            est_rows = tuple(
                (k, f"{v:.4f}", "—" if k not in pl.ranges else _range(pl.ranges[k]))
                for k, v in pl.estimates.items()
            )
            tables.append(
                Table(
                    f"Correlated model estimated from this data as a pilot ({pl.better} vs "
                    f"{pl.worse}, {pl.n_used:,} items, {pl.bootstrap} bootstraps)",
                    ("parameter", "estimate", "95% range"),
                    est_rows,
                )
            )
            checks = ", ".join(
                f"{k} {'holds' if v else 'fails'}" for k, v in pl.assumptions.items()
            )
            rec = (
                f"m = {pl.recommended_m} with {pl.recommended_budget:,} labels"
                if pl.recommended_m is not None and pl.recommended_budget is not None
                else "no m reaches the target within the search range"
            )
            paragraphs.append(f"Assumption checks: {checks}. Recommended for δ = {delta:g}: {rec}.")
    fig = Figure.from_matplotlib(
        win_vs_budget_figure(make_model(p=p - eps, eps=eps, q=min(max(q, 0.5 + 1e-6), 1.0))),
        f"Exact probability of ranking the better classifier first against the label budget, for "
        f"single labels and m-majority labels (q̂ = {q:.3f}; the paper's Fig. 2 b).",
    )
    section = Section(
        "budget", title, paragraphs=tuple(paragraphs), tables=tuple(tables), figures=(fig,)
    )
    return section, result


def _range(r: Any) -> str:
    lo, hi = r
    return f"{lo:.4f} – {hi:.4f}"


def budget_headline(d: dict[str, Any] | None) -> str | None:
    """One line for the terminal from the embedded result."""
    if not d:
        return None
    c = d["comparison"]
    wins = ", ".join(f"m={m} {w:.3f}" for m, w in zip(c["m"], c["win"], strict=True))
    best = "single labels" if c["single_is_best"] else f"{c['best_m']}-majority labels"
    return f"budget: label accuracy ≈ {d['label_accuracy']:.3f}; P(rank right) {wins} → {best}"
