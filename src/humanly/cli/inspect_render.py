"""Tables for ``humanly inspect``: the summary (sizes, agreement with its bootstrap intervals, gold,
models) and, with named raters, the raters table. Views of a :class:`~humanly.crowd.inspect.InspectResult`;
no statistics here. An undefined value is "—" with its reason, never ``nan``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..verdicts.inspect import (
    RATERS_SHOWN,
    bootstrap_caption,
    dawid_skene_text,
    interval_text,
    rater_spreads,
    shown_raters,
    undefined_reason,
)
from ..verdicts.text import number_text
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..crowd.inspect import CountSummary, InspectResult
    from ..crowd.raters import RaterSummary

__all__ = ["render", "render_raters", "render_summary"]

#: the raters table's quality columns: RaterRow field → header
_HEADERS = {
    "agreement": "agreement",
    "dawid_skene_accuracy": "Dawid–Skene",
    "gold_accuracy": "gold",
}


def _counts(c: CountSummary) -> str:
    return f"min {c.min:,} · median {c.median:,g} · mean {c.mean:,.1f} · max {c.max:,}"


def _statistic(value: float, interval: Interval | None, why: str) -> str:
    """``0.6287 [0.617, 0.640]``, or "— (undefined: why)"."""
    if not math.isfinite(value):
        return f"— (undefined: {why})"
    return number_text(value) + ("" if interval is None else " " + interval_text(interval))


def _agreement_rows(t: CleanTable, s: InspectResult) -> None:
    a, ci = s.agreement, s.agreement_intervals
    why = undefined_reason(s)
    pairwise = _statistic(a.pairwise, ci.pairwise if ci else None, why)
    t.row("items with ≥ 2 labels", f"{a.n_items:,}")
    t.row("pairwise agreement", pairwise)
    t.row("Fleiss' κ", _statistic(a.fleiss_kappa, ci.fleiss_kappa if ci else None, why))
    t.row(
        "Krippendorff's α",
        _statistic(a.krippendorff_alpha, ci.krippendorff_alpha if ci else None, why),
    )


def _rater_rows(t: CleanTable, raters: RaterSummary) -> None:
    crowd = raters.crowd_agreement
    t.row(
        "crowd agreement",
        "— (undefined: no label shares an item with another label)"
        if crowd is None
        else f"{crowd:.4f} (mean over labels)",
    )
    fitted = raters.dawid_skene is not None
    t.row("Dawid–Skene", dawid_skene_text(raters) + ("" if fitted else " (--no-dawid-skene)"))


def render_summary(s: InspectResult) -> CleanTable:
    """The summary as a two-column table; the caption says what the intervals are."""
    t = new_table(f"humanly inspect · {s.source or 'ratings'}", show_header=False)
    t.column("what", style="bold")
    t.column("value")
    t.row("items", f"{s.n_items:,}")
    t.row("raters", "anonymous counts" if s.n_raters is None else f"{s.n_raters:,}")
    t.row("labels", f"{s.n_labels:,}")
    t.row("classes", ", ".join(map(str, s.classes)))
    t.row("labels per item", _counts(s.labels_per_item))
    if s.labels_per_rater:
        t.row("labels per rater", _counts(s.labels_per_rater))
    t.row("class frequencies", " · ".join(f"{k}: {v:.1%}" for k, v in s.class_frequencies.items()))
    _agreement_rows(t, s)
    if s.raters is not None:
        _rater_rows(t, s.raters)
    if s.gold:
        g = s.gold
        t.row("gold items", f"{g.n_items:,}")
        t.row("plurality = gold", number_text(g.plurality_accuracy))
        t.row("single label = gold", number_text(g.label_accuracy))
    for m in s.models:
        text = f"{m.kind}, {m.n_items:,} items"
        if m.plurality_agreement is not None:
            text += f" · agrees with plurality {m.plurality_agreement:.4f}"
        if m.gold_accuracy is not None:
            text += f" · gold accuracy {m.gold_accuracy:.4f}"
        t.row(f"model {m.model}", text)
    if s.agreement_intervals is not None and math.isfinite(s.agreement.pairwise):
        t.caption(bootstrap_caption(s.agreement_intervals))
    return t


def _spread_rows(t: CleanTable, s: InspectResult, columns: list[str]) -> None:
    """The last rows of the raters table: median, middle half and range of each quality column over
    all raters where it is defined, and the crowd's mean over labels."""
    assert s.raters is not None
    spreads = rater_spreads(s.raters)
    cells: dict[str, list[str]] = {"median": [], "middle half": [], "range": []}
    for key in columns:
        sp = spreads[key]
        cells["median"].append(number_text(None if sp is None else sp.median, ".2f"))
        cells["middle half"].append("—" if sp is None else f"{sp.q1:.2f}–{sp.q3:.2f}")
        cells["range"].append("—" if sp is None else f"{sp.min:.2f}–{sp.max:.2f}")
    for name, values in cells.items():
        t.row(name, "", "", *values, style="italic")
    crowd = [number_text(s.raters.crowd_agreement, ".3f")] + [""] * (len(columns) - 1)
    if "gold_accuracy" in columns and s.gold is not None:
        crowd[-1] = number_text(s.gold.label_accuracy, ".3f")
    t.row("crowd", f"{s.n_labels:,}", "", *crowd, style="italic")


def render_raters(s: InspectResult) -> CleanTable | None:
    """The raters table (named raters only): labels, compared labels, agreement with the others'
    plurality, Dawid–Skene accuracy (when fitted) and gold accuracy (with gold); then how each
    quality column spreads over all raters, and the crowd's mean over labels."""
    raters = s.raters
    if raters is None:
        return None
    rows, hidden = shown_raters(raters)
    columns = ["agreement"]
    columns += ["dawid_skene_accuracy"] * (raters.dawid_skene is not None)
    columns += ["gold_accuracy"] * (s.gold is not None)
    shown = f"top and bottom {RATERS_SHOWN} of {len(raters.rows):,}" if hidden else "all"
    t = new_table(f"raters by labels given ({shown})")
    t.column("rater", overflow="fold")
    for name in ("labels", "compared", *(_HEADERS[c] for c in columns)):
        t.column(name, justify="right")
    for i, r in enumerate(rows):
        if hidden and i == RATERS_SHOWN:
            t.row(f"… {hidden:,} more", style="dim")
        values = (number_text(getattr(r, c), ".3f") for c in columns)
        t.row(r.rater, f"{r.n_labels:,}", f"{r.n_compared:,}", *values)
    t.table.rows[-1].end_section = True
    _spread_rows(t, s, columns)
    t.caption(_raters_caption(raters, s.gold is not None))
    return t


def _raters_caption(raters: RaterSummary, with_gold: bool) -> str:
    text = (
        "agreement: mean credit of a rater's labels against the plurality of the other labels of "
        "the same item (— : none of the rater's items has another label)"
    )
    fit = raters.dawid_skene
    if fit is not None:
        text += "; Dawid–Skene: accuracy Σ_c π_c θ_r[c,c] under the fitted model"
        if not fit.converged:
            text += " (— : the fit did not converge)"
    if with_gold:
        text += "; gold: share of the rater's labels on gold items that equal gold (— : none)"
    return text + (
        "; median, middle half and range: over all raters where defined; crowd: mean over all labels"
    )


def render(s: InspectResult) -> list[CleanTable]:
    """Every table of ``humanly inspect`` in print order."""
    from .agreement_render import render as render_family

    raters = render_raters(s)
    family = [] if s.family is None else [render_family(s.family, "agreement family")]
    return [render_summary(s), *family] + ([raters] if raters is not None else [])
