"""Tables for the K-class pilot plan of ``humanly budget plan`` (more than two classes): the models,
the class prior and every per-class accuracy with their bootstrap and Wald intervals, the confusion
matrices, the budget per m with plurality votes, the recommendation. Views of a
:class:`~humanly.budget.MulticlassPilotPlan`; no statistics here, and every sentence from
:mod:`humanly.verdicts.multiclass`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _console as ui
from .budget_render import SIZE_COLUMNS, show_comparison, show_recommendation, table, ties_line

if TYPE_CHECKING:
    from .. import budget as bd

__all__ = ["show_multiclass_pilot"]

#: The confusion matrices of a K-class pilot, as the tables title them.
MATRIX_TITLE = {
    "labels": "a crowd label",
    "better": "c_b (the better model)",
    "worse": "c_w (the worse model)",
}


def _three(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def _interval(low: float | None, high: float | None) -> str:
    return "—" if low is None or high is None else f"{_three(low)} – {_three(high)}"


def _estimates(res: bd.MulticlassPilotPlan) -> None:
    """The prior, the per-class accuracies and the overall accuracies with their intervals."""
    rows = []
    for p in res.parameters:
        if p.parameter != "prior" and p.true_class is not None and p.label != p.true_class:
            continue
        cls = "" if p.true_class is None else str(res.classes[p.true_class])
        rows.append(
            {
                "parameter": p.name,
                "class": cls,
                "estimate": _three(p.estimate),
                "bootstrap": _interval(*p.interval),
                "wald": _interval(*p.information_interval),
            }
        )
    boot = f"{res.bootstrap:,} bootstrap replicates" if res.bootstrap else "no bootstrap"
    table(
        f"K-class latent-class estimate (EM over the true class), {len(res.classes)} classes; "
        f"{boot}; Wald intervals from the observed information",
        rows,
        [
            "parameter",
            ("class", "class"),
            "estimate",
            ("bootstrap", "95% bootstrap interval"),
            ("wald", "95% Wald interval"),
        ],
    )


def _matrices(res: bd.MulticlassPilotPlan) -> None:
    """The three confusion matrices, rows the true class."""
    est = res.estimates
    for name, matrix in (("labels", est.labels), ("better", est.better), ("worse", est.worse)):
        t = ui.new_table(
            f"confusion matrix of {MATRIX_TITLE[name]}: P(label | true class), rows the true class"
        )
        t.column("true class")
        for c in res.classes:
            t.column(str(c), justify="right")
        for c, row in zip(res.classes, matrix, strict=True):
            t.row(str(c), *(f"{v:.3f}" for v in row))
        ui.show(t)


def show_multiclass_pilot(res: bd.MulticlassPilotPlan) -> None:
    """The K-class pilot plan: the models, the estimates with their intervals, the confusion
    matrices, EM's convergence, the budgets per m, the win table at the budget, the recommendation
    and the notes (stderr)."""
    from ..verdicts.multiclass import fit_sentence, multiclass_notes, verdict_status

    ui.show(
        f"better: {res.better}   worse: {res.worse}   pilot items: {res.n_items:,} "
        f"({res.n_used:,} used)   classes: {len(res.classes)}"
    )
    _estimates(res)
    _matrices(res)
    ui.lines([fit_sentence(res)])
    table(
        f"Label budget (labels in total) for P(better ranked first) ≥ {res.level:g} at the pilot's "
        "estimates, plurality votes",
        [x.to_dict() for x in res.sizes],
        SIZE_COLUMNS[:5],
    )
    rules = f"a tied plurality is broken at random; {ties_line(res.ties)}"
    ui.lines([f"{rules}; —: no budget reaches it"])
    if res.comparison is not None:
        show_comparison(
            res.comparison,
            title=f"P(better classifier identified) at the pilot's estimates, budget "
            f"{res.comparison.budget:,} labels",
            rules=False,
        )
        ui.lines([rules])
    show_recommendation(
        res.recommended_labels_per_item,
        res.recommended_budget,
        res.recommended_items,
        verdict_status(res.verdict),
    )
    for msg in multiclass_notes(res):
        ui.note(f"note: {msg}")
