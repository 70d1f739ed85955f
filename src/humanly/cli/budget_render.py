"""Tables and lines for ``humanly budget``: views of the budget results; no statistics here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import _console as ui

if TYPE_CHECKING:
    from .. import budget as bd

__all__ = ["fmt", "show_plan", "show_sweep", "table"]


def fmt(v: Any) -> str:
    """A cell: integers with thousands separators, floats to six significant digits, ``–`` for none.

    >>> fmt(1500), fmt(0.123456789), fmt(None)
    ('1,500', '0.123457', '–')
    """
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def table(title: str, rows: Sequence[Mapping[Any, Any]], keys: Sequence[str]) -> None:
    """Print ``rows`` (result rows as dicts) as a table of the columns ``keys``."""
    t = ui.new_table(title, title_justify="center")
    for k in keys:
        t.column(k, justify="right")
    for r in rows:
        t.row(*(fmt(r.get(k)) for k in keys))
    ui.show(t)


def show_plan(res: bd.PlanResult, delta: float) -> None:
    """The plan: models, estimated parameters with ranges, assumption checks, budgets, advice."""
    ui.show(f"better: {res.better}   worse: {res.worse}   pilot items: {res.n_items:,}")
    estimates = [
        {"parameter": k, "estimate": getattr(res.estimates, k), "low": r.low, "high": r.high}
        for k, r in res.ranges.items()
    ]
    table(
        "Estimated parameters (pilot majority as proxy truth)",
        estimates,
        ["parameter", "estimate", "low", "high"],
    )
    for name, ok in res.assumptions.checks():
        ui.show(f"{name}: {'holds' if ok else 'VIOLATED'}")
    table(
        f"Label budget for error ≤ {delta:g}",
        [x.to_dict() for x in res.sizes],
        ["m", "budget_exact", "budget_cramer", "budget_hoeffding"],
    )
    ui.show(f"recommendation: m = {res.recommended_m}, budget {fmt(res.recommended_budget)} labels")
    for msg in res.notes:
        ui.note(msg)


def show_sweep(res: bd.SweepResult, tolerance: float) -> None:
    """The sweep's totals in five lines."""
    at = None if res.max_violation_at is None else res.max_violation_at.to_dict()
    share = res.share_single_wins_qw_gt_qb
    single = (
        "–" if share is None else f"{share:.1%} of {res.qw_gt_qb_pairs:,} (paper: about two thirds)"
    )
    ui.lines(
        [
            f"chunks {res.chunks_done}/{res.chunks_total}; {res.configurations:,} configurations; "
            f"{res.probability_pairs:,} probability pairs",
            f"violations (q_b ≥ q_w, multi − single > {tolerance:g}): {res.violations:,}",
            f"largest multi − single under assumption 1: {fmt(res.max_violation)} at {at}",
            f"single labels still better where q_w > q_b: {single}",
        ]
    )
