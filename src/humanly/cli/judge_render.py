"""Tables for ``humanly judge``: the estimates (each model's accuracy and each pair's difference, with
the human-only interval, λ and the effective number of human labels) and the frontier check. Views of
a :class:`~humanly.judging.JudgeResult`; no statistics here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..verdicts.judge import ESTIMATOR_NAMES, percent, points
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..judging import Estimate, JudgeResult

__all__ = ["render"]


def _pct(i: Interval) -> str:
    return f"[{percent(i.low)}, {percent(i.high)}]"


def _pts(i: Interval) -> str:
    return f"[{points(i.low)}, {points(i.high)}]"


def _row(t: CleanTable, name: str, e: Estimate, difference: bool) -> None:
    show, span = (points, _pts) if difference else (percent, _pct)
    eff = "—" if e.effective_n is None else f"{e.effective_n:,.0f}"
    t.row(
        name, show(e.point), span(e.interval), show(e.classical_point), span(e.classical),
        f"{e.lam:.3f}", eff, f"{e.n:,}",
    )  # fmt: skip


def render(r: JudgeResult) -> tuple[CleanTable, ...]:
    """The estimates table and the frontier table."""
    level = f"{round(r.level * 100, 6):g}%"
    t = new_table(
        f"Judge {r.judge} ({r.judge_kind}) · {ESTIMATOR_NAMES.get(r.estimator, r.estimator)} · "
        f"{r.n_labelled:,} human-labelled + {r.n_unlabelled:,} judge-only items · {r.design} design"
    )
    for header in ("estimand", "estimate", f"{level} interval", "human only", "interval", "λ",
                   "effective n", "n"):  # fmt: skip
        t.column(header, justify="left" if header == "estimand" else "right")
    for m in r.models:
        _row(t, f"accuracy {m.model}", m.accuracy, False)
    for c in r.comparisons:
        _row(t, f"{c.first} − {c.second} (points)", c.difference, True)
    t.caption(
        f"reference per item: {r.reference}; effective n: human labels alone with the same width"
    )
    if r.frontier is None:
        return (t,)
    f = new_table(
        f"Frontier check: judge accuracy {percent(r.frontier.judge_accuracy)} "
        f"{_pct(r.frontier.judge_interval)} on {r.frontier.n:,} human-labelled items"
    )
    for header in ("model", "accuracy", "judge − model (points)", "interval", "status", "saving"):
        f.column(header, justify="left" if header in ("model", "status") else "right")
    for row in r.frontier.models:
        saving = "—" if row.saving is None else f"{row.saving:.2f}×"
        f.row(row.model, percent(row.model_accuracy), points(row.judge_minus_model),
              _pts(row.judge_minus_model_interval), row.status, saving)  # fmt: skip
    f.caption("at most a factor two in human labels can be saved unless the judge is more accurate "
              "(Dorner, Nastl & Hardt 2025)")  # fmt: skip
    return (t, f)
