"""Tables for ``humanly judge``: the estimates (each model's accuracy — or mean rating, share at or
above the threshold and quantile — and each pair's difference, with the human-only interval, the
interval used, λ and the effective number of human labels), each estimand's strata, each judge's
weight, and the frontier check. Views of a :class:`~humanly.judging.JudgeResult`; no statistics
here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..verdicts.judge import ESTIMATOR_NAMES, percent, points
from ..verdicts.text import number_text
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..judging import Estimate, JudgeResult, Selection

__all__ = ["render", "selection_strata"]

Show = Callable[["float | None"], str]
_HEADERS = (
    "estimand",
    "estimate",
    "{level} interval",
    "human only",
    "interval",
    "method",
    "λ",
    "effective n",
    "n",
)


def _pct(i: Interval) -> str:
    return f"[{percent(i.low)}, {percent(i.high)}]"


def _pts(i: Interval) -> str:
    return f"[{points(i.low)}, {points(i.high)}]"


def _rating(x: float | None) -> str:
    return number_text(x, ".3f")


def _shows(kind: str) -> Show:
    """How a number of this kind of estimand is written: percent, points or a rating."""
    if kind in ("accuracy", "share"):
        return percent
    if kind in ("difference", "share difference"):
        return points
    return _rating


def _span(show: Show, i: Interval) -> str:
    return f"[{show(i.low)}, {show(i.high)}]"


def _label(kind: str, name: str) -> str:
    unit = " (points)" if kind in ("difference", "share difference") else ""
    return f"{kind} {name}{unit}" if kind not in ("difference",) else f"{name}{unit}"


def _row(t: CleanTable, name: str, e: Estimate, show: Show) -> None:
    eff = "—" if e.effective_n is None else f"{e.effective_n:,.0f}"
    t.row(
        name,
        show(e.point),
        _span(show, e.interval),
        show(e.classical_point),
        _span(show, e.classical_interval),
        e.interval_method,
        f"{e.lam:.3f}",
        eff,
        f"{e.n:,}",
    )


def _estimates(r: JudgeResult) -> CleanTable:
    level = f"{round(r.level * 100, 6):g}%"
    t = new_table(
        f"Judge {r.judge} ({r.judge_kind}) · {ESTIMATOR_NAMES.get(r.estimator, r.estimator)} · "
        f"{r.n_labelled:,} human-labelled + {r.n_unlabelled:,} judge-only items · {r.design} design"
    )
    for header in _HEADERS:
        t.column(header.format(level=level), justify="left" if header == "estimand" else "right")
    for kind, name, _, e in r.estimates():
        _row(t, _label(kind, name), e, _shows(kind))
    for m in r.ratings:
        q = m.quantile
        if q is not None:
            t.row(
                f"{q.quantile:g}-quantile {m.model}",
                _rating(q.point),
                _span(_rating, q.interval),
                _rating(q.classical_point),
                _span(_rating, q.classical_interval),
                q.method,
                "—",
                "—",
                f"{q.n:,}",
            )
    t.caption(
        f"reference per item: {r.reference}; effective n: human labels alone with the same width; "
        "method: clt (PPI's central-limit interval) or adjusted (the small-sample one)"
    )
    return t


def _strata(r: JudgeResult) -> CleanTable | None:
    rows = [(kind, name, e) for kind, name, _, e in r.estimates() if e.strata]
    if not rows:
        return None
    t = new_table(
        "Strata: each stratum's own estimate (its own λ), combined by the strata's shares"
    )
    for header in (
        "estimand",
        "stratum",
        "share",
        "n",
        "unlabelled",
        "estimate",
        "interval",
        "method",
        "λ",
    ):
        t.column(header, justify="left" if header in ("estimand", "stratum") else "right")
    for kind, name, e in rows:
        show = _shows(kind)
        for s in e.strata:
            x = s.estimate
            t.row(
                _label(kind, name),
                s.stratum,
                f"{s.share:.3f}",
                f"{s.n:,}",
                f"{s.n_unlabelled:,}",
                show(x.point),
                _span(show, x.interval),
                x.interval_method,
                f"{x.lam:.3f}",
            )
    return t


def _judges(r: JudgeResult) -> CleanTable | None:
    rows = [(kind, name, e) for kind, name, _, e in r.estimates() if e.judges]
    if not rows:
        return None
    slope = r.folds is not None
    t = new_table(
        "Judges: each judge's "
        + ("mean calibration slope" if slope else "weight in the combination")
        + ", and its estimate alone"
    )
    for header in (
        "estimand",
        "judge",
        "slope" if slope else "weight",
        "alone",
        "interval",
        "effective n",
    ):
        t.column(header, justify="left" if header in ("estimand", "judge") else "right")
    for kind, name, e in rows:
        show = _shows(kind)
        for j in e.judges:
            a = j.alone
            eff = "—" if a.effective_n is None else f"{a.effective_n:,.0f}"
            t.row(
                _label(kind, name),
                j.judge,
                f"{j.weight:.3f}",
                show(a.point),
                _span(show, a.interval),
                eff,
            )
    return t


def _frontier(r: JudgeResult) -> CleanTable | None:
    if r.frontier is None:
        return None
    who = f" ({r.frontier.judge})" if r.frontier.judge else ""
    f = new_table(
        f"Frontier check: judge{who} accuracy {percent(r.frontier.judge_accuracy)} "
        f"{_pct(r.frontier.judge_interval)} on {r.frontier.n:,} human-labelled items"
    )
    for header in ("model", "accuracy", "judge − model (points)", "interval", "status", "saving"):
        f.column(header, justify="left" if header in ("model", "status") else "right")
    for row in r.frontier.models:
        saving = "—" if row.saving is None else f"{row.saving:.2f}×"
        f.row(
            row.model,
            percent(row.model_accuracy),
            points(row.judge_minus_model),
            _pts(row.judge_minus_model_interval),
            row.status,
            saving,
        )
    f.caption(
        "at most a factor two in human labels can be saved unless the judge is more accurate "
        "(Dorner, Nastl & Hardt 2025)"
    )
    return f


def render(r: JudgeResult) -> tuple[CleanTable, ...]:
    """The estimates table, then the strata's, the judges' and the frontier check where they
    apply."""
    tables = (_estimates(r), _strata(r), _judges(r), _frontier(r))
    return tuple(t for t in tables if t is not None)


def selection_strata(sel: Selection) -> CleanTable | None:
    """A stratified selection's allocation: per stratum its unlabelled and labelled items, the
    spread used, the expected items (Neyman, and in proportion to the pools) and the items drawn."""
    if not sel.strata:
        return None
    t = new_table(
        f"Strata: the {sel.expected_items:,.6g} expected items split by the Neyman allocation "
        f"(spread from: {sel.spread_source})"
    )
    for header in (
        "stratum",
        "unlabelled",
        "labelled",
        "spread",
        "expected",
        "proportional",
        "sent",
    ):
        t.column(header, justify="left" if header == "stratum" else "right")
    for s in sel.strata:
        t.row(
            s.stratum,
            f"{s.pool:,}",
            f"{s.n_labelled:,}",
            f"{s.spread:.3f}",
            f"{s.expected_items:,.1f}",
            f"{s.proportional:,.1f}",
            f"{s.n_selected:,}",
        )
    return t
