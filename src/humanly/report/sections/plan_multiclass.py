"""The label-budget section's K-class pilot plan (more than two classes; beyond the paper, whose
section 5 leaves K classes open): the estimates with their bootstrap and Wald ranges, the confusion
matrices of a crowd label and of both models, the label budget per m with plurality votes, EM's
convergence, the notes and the win-probability curve. Views of a
:class:`~humanly.budget.MulticlassPilotPlan`; the sentences come from
:mod:`humanly.verdicts.multiclass`, the numbers from the result.
"""

from __future__ import annotations

from ...budget import MulticlassPilotPlan
from ...verdicts.multiclass import estimate_words, fit_sentence, multiclass_notes
from ...verdicts.text import number_text
from .._page import Figure, Table

__all__ = ["METHODS_TEXT_K", "multiclass_parts"]

METHODS_TEXT_K = (
    "Label budget for more than two classes (beyond Don't Label Twice, whose section 5 leaves K "
    "classes open). Without a pilot, labels right with probability q and otherwise a uniformly chosen "
    "wrong class agree with probability a = q² + (1 − q)²/(K − 1), which gives q̂ from the crowd's "
    "pairwise agreement; m labels per item are combined by plurality, a tie among the most frequent "
    "broken at random, and the probability of ranking the better of two classifiers first is "
    "computed exactly as in section 5 (the distribution of the plurality label sums the multinomial "
    "probability of every count vector of m labels; the gap indicator G of an item is +1, 0 or −1 as "
    "in the binary case). With two models and at least 3 labels per item, the K-class pilot is a "
    "latent-class model: an item's true class has prior π, every crowd label is drawn from one K × K "
    "confusion matrix shared by the crowd (exchangeable raters, as in Dawid–Skene with anonymous "
    "counts), each model's prediction from its own confusion matrix, all independent given the "
    "class; fitted by EM over the class from the crowd plurality (which fixes the labelling of the "
    "classes). Every estimate has a 95% percentile bootstrap interval over items and, for the prior, "
    "the per-class accuracies and the overall accuracies, a 95% Wald interval from the observed "
    "information. An estimate on the edge of its range, or with a range wider than 0.2 (the Wald "
    "range when there is no bootstrap), is weakly identified and the verdict says so. Per m the "
    "exact label budget that ranks the better model first with probability at least the level at "
    "the estimates is found, and the verdict is one label per item when m = 1 needs the smallest."
)

#: Whose confusion matrix a row of the table is, and the overall accuracies, by parameter.
_WHOSE = {"labels": "a crowd label", "better": "c_b (better model)", "worse": "c_w (worse model)"}


def _range(low: float | None, high: float | None) -> str:
    return "—" if low is None or high is None else f"{number_text(low)} – {number_text(high)}"


def _estimates_table(mp: MulticlassPilotPlan) -> Table:
    """The prior, every per-class accuracy and the overall accuracies with their two ranges."""
    rows = []
    for p in mp.parameters:
        if p.parameter in _WHOSE and p.true_class != p.label:
            continue
        rows.append(
            (
                p.name,
                estimate_words(p.name, mp.classes),
                number_text(p.estimate),
                _range(*p.interval) if mp.bootstrap else "—",
                _range(*p.information_interval),
            )
        )
    boot = f"{mp.bootstrap:,} bootstrap replicates" if mp.bootstrap else "no bootstrap"
    return Table(
        f"K-class error model estimated from this data as a pilot (latent-class estimate, EM over "
        f"the true class): {mp.better} vs {mp.worse}, {len(mp.classes)} classes, {mp.n_used:,} "
        f"items, {boot}",
        ("parameter", "meaning", "estimate", "95% bootstrap interval", "95% Wald interval"),
        tuple(rows),
    )


def _matrices_table(mp: MulticlassPilotPlan) -> Table:
    """The three confusion matrices in one table: per source and true class, P(label)."""
    est = mp.estimates
    rows = tuple(
        (_WHOSE[name], str(cls), *(number_text(v) for v in row))
        for name, matrix in (("labels", est.labels), ("better", est.better), ("worse", est.worse))
        for cls, row in zip(mp.classes, matrix, strict=True)
    )
    return Table(
        "Confusion matrices at the pilot's latent-class estimates: P(label | true class), one row "
        "per source and true class",
        ("source", "true class", *(f"label {c}" for c in mp.classes)),
        rows,
    )


def _size_table(mp: MulticlassPilotPlan) -> Table:
    def whole(x: int | None) -> str:
        return "—" if x is None else f"{x:,}"

    rows = tuple(
        (
            f"m = {r.labels_per_item}"
            + (
                " (single labels)"
                if r.labels_per_item == 1
                else f" ({r.labels_per_item}-plurality)"
            ),
            whole(r.budget_exact),
            whole(r.budget_cramer_bound),
            whole(r.budget_hoeffding_bound),
            whole(None if r.budget_exact is None else r.budget_exact // r.labels_per_item),
        )
        for r in mp.sizes
    )
    return Table(
        f"Label budget for P(better ranked first) ≥ {mp.level:g} at the pilot's K-class "
        "latent-class estimates, plurality votes (— : no budget reaches it)",
        ("labelling", "exact", "guaranteed by Cramér bound", "by Hoeffding bound", "items (exact)"),
        rows,
    )


def _figure(mp: MulticlassPilotPlan) -> Figure | None:
    from ...plots.budget import win_vs_budget_figure

    if mp.curve is None:
        return None
    fig = win_vs_budget_figure(
        mp.curve,
        title=f"Fig. 2 b at the K-class pilot's latent-class estimates: {mp.better} vs {mp.worse} "
        f"({len(mp.classes)} classes, plurality votes)",
    )
    return Figure.from_matplotlib(
        fig,
        f"Exact probability of identifying the better of '{mp.better}' and '{mp.worse}' against the "
        f"label budget, per m with plurality votes, at the pilot's latent-class estimates of the "
        f"{len(mp.classes)}-class confusion matrices.",
    )


def multiclass_parts(mp: MulticlassPilotPlan) -> tuple[list[str], list[Table], list[Figure]]:
    """The K-class pilot plan's paragraphs (EM's convergence and the notes), tables (estimates,
    confusion matrices, budgets per m) and figure."""
    notes = "".join(f" Note: {n}." for n in multiclass_notes(mp))
    paragraphs = [f"{fit_sentence(mp)}.{notes}"]
    tables = [_estimates_table(mp), _matrices_table(mp), _size_table(mp)]
    fig = _figure(mp)
    return paragraphs, tables, [] if fig is None else [fig]
