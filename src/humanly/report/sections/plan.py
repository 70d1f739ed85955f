"""The label-budget section of ``humanly report`` (Don't Label Twice), for any number of classes.

What the data imply for the next test set: the single-label accuracy q̂ estimated from the crowd's own
agreement, the exact probability that single labels vs m-majority labels (plurality for more than two
classes) identify the better of two classifiers for a budget, and the budget each needs to rank it
first with probability ≥ the level; with two or more models and ≥ 3 labels per item, the pilot plan
(latent-class estimate; for more than two classes the K-class pilot of
:mod:`~humanly.report.sections.plan_multiclass`; with fewer labels a paragraph says why there is none).
The numbers and the curves come from :func:`humanly.budget.plan`; this module only lays them out.
"""

from __future__ import annotations

from ...budget import PilotPlan, PlanResult, WinCurve
from ...study import StudyResult
from ...verdicts.notes import notes_text
from ...verdicts.pilot import assumption_sentence, no_pilot_sentence, pilot_notes
from ...verdicts.plan import better_use, source_words
from ...verdicts.study import TITLES, section_note, section_verdicts
from ...verdicts.text import number_text
from .._page import Figure, Section, Table, View
from .plan_multiclass import METHODS_TEXT_K, multiclass_parts

__all__ = ["METHODS_TEXT", "plan_section"]

_METHODS_TWO = (
    "Label budget (Dorner & Hardt, Don't Label Twice). With two classes and labels that are right "
    "independently with probability q, two labels agree with probability a = q² + (1 − q)², so the "
    "crowd's pairwise agreement gives q̂ = (1 + √(2a − 1))/2 (the symmetric-noise reading; it ignores "
    "item difficulty, which makes q̂ an average). For a budget of k labels spent as n = k/m items with "
    "m-majority labels, the probability of ranking the better of two classifiers (accuracies p + ε and p, "
    "independent errors, Proposition 1) first is P(Σ Gᵢ > 0), computed exactly (the number of non-zero "
    "Gᵢ is binomial; given it, the sign is a regularised incomplete beta function), with majority "
    "accuracy M_m(q) (a tied vote of an even m broken by a fair coin, so M_2k = M_2k−1; a tied "
    "comparison counts as a failure). The sample size is the smallest budget whose probability of "
    "ranking the better classifier first reaches the level (the paper's error δ is 1 − level); the "
    "Hoeffding and Cramér bounds (Lemmas 1 and 2) give budgets that are guaranteed to suffice. With two "
    "models and at least 3 labels per item, the correlated error model of section 3.2 (label "
    "accuracies q_b, q_w where only one classifier is right; p_w, p_b⁰, p_b¹) is estimated as a "
    "latent-class model: EM over the unobserved true label of each item, the labels of an item "
    "independent given its true label and which classifiers are right; nested latent variants (one or "
    "two label accuracies where the classifiers agree, per class or not) are fitted and the lowest BIC "
    "is kept. Ranges are 95% "
    "percentile bootstrap intervals over items, with the variant chosen again on every replicate. "
    "Assumption 1 (q_b ≥ q_w) and assumption 2 (eq. 3, per m) are each decided by the sign of one "
    "quantity, reported with its estimate and 95% bootstrap interval: 'evidence against at 95%' when the "
    "whole interval is below 0, else 'consistent'. With fewer than 3 labels per item the latent class "
    "is not identified and no plan is given (taking the crowd majority as the truth instead biases every "
    "estimate towards agreement with the crowd)."
)
#: Two paragraphs: two classes (anchor ``methods-plan``) and more (``methods-plan-2``).
METHODS_TEXT = (_METHODS_TWO, METHODS_TEXT_K)

#: What the parameters of the correlated error model are.
MEANING = {
    "q_b": "label accuracy where only c_b is right",
    "q_w": "label accuracy where only c_w is right",
    "p_w": "accuracy of c_w",
    "p_b0": "P(c_b right | c_w wrong)",
    "p_b1": "P(c_b right | c_w right)",
}
#: The pilot estimators, as captions name them.
METHOD_NAME = {
    "latent": "latent-class estimate (EM over the true label)",
    "majority": "crowd-majority estimate (the majority as the truth: biased towards agreement with "
    "the crowd)",
}


def plan_section(study: StudyResult, view: View) -> Section:
    """Lay out ``study.plan`` (:func:`humanly.budget.plan`); a one-sentence note when it did not
    apply. ``view`` is not used: the figures draw labelling schemes, not models.

    >>> from humanly import analyze
    >>> from humanly.simulate import pair
    >>> d = pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> res = analyze(d.ratings, d.predictions, bootstrap=100)
    >>> section = plan_section(res, View({}, res.models, {}))
    >>> len(section.verdicts), res.plan.pilot.estimator
    (2, 'latent')
    """
    del view
    title = TITLES["plan"]
    a = study.plan
    if a is None:
        return Section("plan", title, note=section_note(study, "plan"))
    paragraphs = [_comparison_text(a)]
    tables = [_comparison_table(a)]
    first = _comparison_figure(a)
    figures = [] if first is None else [first]
    if a.pilot_skipped is not None and len(study.models) >= 2 and study.inspect is not None:
        histogram = study.inspect.labels_per_item.histogram or {}
        paragraphs.append(no_pilot_sentence(a.pilot_skipped, histogram, n_classes=a.n_classes))
    if a.multiclass_pilot is not None:
        more = multiclass_parts(a.multiclass_pilot)
        paragraphs += more[0]
        tables += more[1]
        figures += more[2]
    if a.pilot is not None:
        tables += [_plan_table(a.pilot), _plan_size_table(a.pilot)]
        paragraphs += _plan_text(a.pilot)
        if a.pilot.curve is not None:
            figures.append(_plan_figure(a.pilot, a.pilot.curve))
    return Section(
        "plan",
        title,
        paragraphs=tuple(paragraphs),
        tables=tuple(tables),
        figures=tuple(figures),
        verdicts=section_verdicts(study, "plan"),
    )


def _vote(a: PlanResult) -> str:
    """How m labels are combined: a majority (two classes) or a plurality."""
    return "majority" if a.n_classes == 2 else "plurality"


def _comparison_text(a: PlanResult) -> str:
    quick = a.comparison
    k = a.n_classes
    over = "" if k == 2 else f" over {k} classes (errors uniform over the other classes)"
    tie = (
        "a tied vote of an even m is broken by a fair coin"
        if k == 2
        else "m labels combined by plurality, a tie broken at random"
    )
    return (
        f"The crowd's pairwise agreement {a.agreement:.3f} implies a single-label accuracy "
        f"q̂ = {a.label_accuracy:.3f}{over}. For the next test set with the same budget "
        f"({a.budget:,} labels), the table gives the exact probability of ranking a classifier with "
        f"accuracy {a.better_accuracy:.3f} ({source_words(a.better_accuracy_source)}) above one "
        f"that is {a.eps:g} worse, "
        f"and the budget each labelling scheme needs to rank it first with probability at least "
        f"{a.level:g} ({tie}). "
        + better_use(quick, _vote(a))
        + "".join(f" Note: {n}." for n in notes_text(quick.notes))
    )


def _comparison_table(a: PlanResult) -> Table:
    quick = a.comparison
    rows = tuple(
        (
            f"m = {m}" + (" (single labels)" if m == 1 else f" ({m}-{_vote(a)})"),
            f"{items:,}",
            number_text(w),
            "—" if need is None else f"{need:,}",
        )
        for m, items, w, need in zip(
            quick.labels_per_item, quick.items, quick.win, quick.budget_needed, strict=True
        )
    )
    p, worse = a.better_accuracy, quick.p
    errors = (
        "independent errors"
        if a.n_classes == 2
        else f"{a.n_classes} classes, errors uniform over the other classes, plurality votes"
    )
    return Table(
        f"Budget {a.budget:,} labels, q̂ = {a.label_accuracy:.3f}, accuracies {p:.3f} vs {worse:.3f} "
        f"({errors}; exact)",
        (
            "labelling",
            "items",
            "P(better ranked first), exact",
            f"budget for P(better ranked first) ≥ {a.level:g}",
        ),
        rows,
    )


def _comparison_figure(a: PlanResult) -> Figure | None:
    from ...plots.budget import win_vs_budget_figure

    if a.curve is None:
        return None
    title = f"Fig. 2 b at the crowd's label accuracy q̂ = {a.label_accuracy:.3f}"
    errors = (
        "independent errors; the paper's Fig. 2 b"
        if a.n_classes == 2
        else f"{a.n_classes} classes, errors uniform over the other classes"
    )
    return Figure.from_matplotlib(
        win_vs_budget_figure(a.curve, title=title),
        f"Exact probability of ranking the better classifier first against the label budget, for "
        f"single labels and m-{_vote(a)} labels, at the crowd's label accuracy q̂ = "
        f"{a.label_accuracy:.3f} and accuracies {a.better_accuracy:.3f} vs "
        f"{a.comparison.p:.3f} ({errors}).",
    )


def _plan_table(pl: PilotPlan) -> Table:
    rows = tuple(
        (
            k,
            MEANING[k],
            number_text(getattr(pl.estimates, k)),
            f"{number_text(r.low)} – {number_text(r.high)}" if pl.bootstrap else "—",
        )
        for k, r in pl.intervals.items()
    )
    how = METHOD_NAME.get(pl.estimator, pl.estimator)
    if pl.fit is not None:
        chosen = "chosen by BIC" if pl.fit.selection == "bic" else "fixed"
        how += f", latent variant '{pl.fit.latent_variant}' ({chosen})"
    return Table(
        f"Correlated error model estimated from this data as a pilot: {how}; {pl.better} vs "
        f"{pl.worse}, "
        f"{pl.n_used:,} items, {pl.bootstrap} bootstrap replicates",
        ("parameter", "meaning", "estimate", "95% bootstrap interval"),
        rows,
    )


def _plan_size_table(pl: PilotPlan) -> Table:
    rows = tuple(
        (
            f"m = {r.labels_per_item}",
            "—" if r.budget_exact is None else f"{r.budget_exact:,}",
            "—" if r.budget_cramer_bound is None else f"{r.budget_cramer_bound:,}",
            "—" if r.budget_hoeffding_bound is None else f"{r.budget_hoeffding_bound:,}",
        )
        for r in pl.sizes
    )
    return Table(
        f"Label budget for P(better ranked first) ≥ {pl.level:g} at the pilot's {_short(pl)} "
        "estimates (— : no budget reaches it)",
        ("labelling", "exact", "guaranteed by Cramér bound", "by Hoeffding bound"),
        rows,
    )


def _short(pl: PilotPlan) -> str:
    return "latent-class" if pl.estimator == "latent" else "crowd-majority (biased)"


def _fit_text(pl: PilotPlan) -> str | None:
    """EM's convergence, the variant BIC chose and how often the bootstrap chose each variant."""
    fit = pl.fit
    if fit is None:
        return None
    others = sorted((c for c in fit.candidates if not c.selected), key=lambda c: c.bic)
    chosen = (
        f"BIC chose the latent variant '{fit.latent_variant}' (BIC {fit.bic:,.1f}"
        + (f"; next '{others[0].variant}' {others[0].bic:,.1f})" if others else ")")
        if fit.selection == "bic"
        else f"The latent variant '{fit.latent_variant}' was fixed (BIC {fit.bic:,.1f})"
    )
    em = (
        f"EM converged in {fit.iterations:,} steps (tolerance {fit.tolerance:g})"
        if fit.converged
        else f"EM stopped after {fit.iterations:,} steps without converging (tolerance "
        f"{fit.tolerance:g})"
    )
    boot = ""
    if pl.bootstrap_variants:
        shares = ", ".join(f"'{s.variant}' {100 * s.share:.0f} %" for s in pl.bootstrap_variants)
        boot = f"; the bootstrap replicates chose {shares}"
    if pl.bootstrap_converged is not None:
        boot += f", and {100 * pl.bootstrap_converged:.0f} % of their fits converged"
    return f"{chosen}. {em}{boot}."


def _plan_text(pl: PilotPlan) -> list[str]:
    """The fit, the assumption tests (one sentence each), the recommendation and the notes."""
    out = []
    fit = _fit_text(pl)
    if fit:
        out.append(fit)
    tests = "; ".join(assumption_sentence(t) for t in pl.assumptions.tests)
    if tests:
        out.append(f"Assumption tests (estimate, 95% bootstrap interval, verdict): {tests}.")
    if pl.recommended_labels_per_item is not None and pl.recommended_budget is not None:
        rec = f"m = {pl.recommended_labels_per_item} with {pl.recommended_budget:,} labels"
    else:
        rec = "no m reaches the target within the search range"
    notes = "".join(f" Note: {n}." for n in pilot_notes(pl))
    out.append(
        f"Recommended for P(better ranked first) ≥ {pl.level:g} at the {_short(pl)} estimates: "
        f"{rec}.{notes}"
    )
    return out


def _plan_figure(pl: PilotPlan, curve: WinCurve) -> Figure:
    from ...plots.budget import win_vs_budget_figure

    fig = win_vs_budget_figure(
        curve, title=f"Fig. 2 b at the pilot's {_short(pl)} estimates: {pl.better} vs {pl.worse}"
    )
    return Figure.from_matplotlib(
        fig,
        f"Exact probability of identifying the better of '{pl.better}' and '{pl.worse}' against the label "
        f"budget, per m, at the pilot's {METHOD_NAME.get(pl.estimator, pl.estimator)}.",
    )
