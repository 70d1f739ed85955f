"""Figures of *Don't Label Twice*: Fig. 1 (benchmark capacity vs budget), Fig. 2 a/b (win probability vs
label accuracy / vs budget per m), Fig. 3 a (exact error rate converging to Cramér's) and 3 b (Cramér vs
Hoeffding error exponents), and the label budget needed per m (``budget size --plot``).

Every figure is at least 450 pt wide (:data:`WIDTH`), with 9–11 pt text, a title that fits its axes and
a legend entry for every line (below the axes where a legend inside would cover a line). The lines are
labelling schemes (m), never models, so the figures take no ``colors``.

Each figure draws one result of :mod:`humanly.budget` and computes nothing: :class:`~humanly.budget.
CapacityCurve` (:func:`humanly.budget.capacity_curve`), :class:`~humanly.budget.AccuracyCurve`,
:class:`~humanly.budget.WinCurve`, :class:`~humanly.budget.RateCurve`,
:class:`~humanly.budget.CramerConvergence` and :class:`~humanly.budget.SizeResult`. Each returns a
matplotlib Figure (save with ``save_figure``).
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

from ..budget.confusion import ConfusionErrors
from ..budget.curves import AccuracyCurve, CapacityCurve, RateCurve, WinCurve
from ..budget.models import CorrelatedErrors, IndependentErrors
from ..budget.rate_tables import CramerConvergence
from ..budget.size import SizeResult
from .style import figure

__all__ = [
    "WIDTH",
    "capacity_figure",
    "convergence_figure",
    "rates_figure",
    "size_figure",
    "win_vs_budget_figure",
    "win_vs_q_figure",
]

#: Width of the budget figures in inches (6.4 in = 460.8 pt).
WIDTH = 6.4
_HEIGHT = 3.6
_TITLE, _LABEL, _TICK, _LEGEND = 11, 10, 9, 9
_WRAP = 64  # characters per title line at 11 pt: narrower than the axes of a 6.4 in figure


def _axes() -> tuple[Any, Any]:
    return figure(width=WIDTH, height=_HEIGHT)


def _finish(
    ax: Any, title: str, xlabel: str, ylabel: str, legend: bool = True, below: bool = False
) -> None:
    """Title (wrapped to the axes' width), axis labels, tick sizes and the legend (inside the axes, or
    ``below`` them in two columns, where it cannot cover a line)."""
    keep = title.replace(" = ", "\u00a0=\u00a0").replace(" ≤ ", "\u00a0≤\u00a0")  # no break inside
    ax.set_title(textwrap.fill(keep, _WRAP), fontsize=_TITLE)
    ax.set_xlabel(xlabel, fontsize=_LABEL)
    ax.set_ylabel(ylabel, fontsize=_LABEL)
    ax.tick_params(which="both", labelsize=_TICK)
    if legend and below:
        ax.figure.legend(
            *ax.get_legend_handles_labels(),
            loc="outside lower center",
            ncols=2,
            frameon=False,
            fontsize=_LEGEND,
        )
    elif legend:
        ax.legend(frameon=False, fontsize=_LEGEND)


def _budget_axis(ax: Any) -> None:
    """Label budgets on the x axis with thousands separators (120,000, not 120000)."""
    from matplotlib.ticker import StrMethodFormatter

    ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))


def _params_title(errors: IndependentErrors | CorrelatedErrors | ConfusionErrors) -> str:
    names = {"p_b0": "p_b⁰", "p_b1": "p_b¹", "eps": "ε"}
    return ", ".join(f"{names.get(k, k)} = {v:.3g}" for k, v in errors.params().items())


def _scheme(m: int) -> str:
    return f"m = {m}" + (" (single labels)" if m == 1 else "")


def capacity_figure(curve: CapacityCurve) -> Any:
    """Fig. 1: the number of worse classifiers a benchmark can rank below the best, against the budget.

    By the exact error, and what Cramér's and Hoeffding's bounds guarantee (log scale).

    Parameters
    ----------
    curve : CapacityCurve
        From :func:`humanly.budget.capacity_curve`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, capacity_curve
    >>> fig = capacity_figure(capacity_curve(IndependentErrors(0.75, 0.1, 0.75), budgets=[300, 1500]))
    >>> len(fig.axes[0].get_lines())
    4
    """
    budgets = list(curve.budgets)
    fig, ax = _axes()
    for field, label, color in (
        ("ratio_exact", "exact error", "black"),
        ("ratio_cramer_bound", "Cramér bound (guaranteed)", "tab:blue"),
        ("ratio_hoeffding_bound", "Hoeffding bound (guaranteed)", "tab:orange"),
    ):
        ax.plot(budgets, [getattr(r, field) for r in curve.rows], label=label, color=color)
    ax.axhline(1.0, color="grey", lw=0.8, ls=":", label="one classifier")
    ax.set_yscale("log")
    _budget_axis(ax)
    _finish(
        ax,
        f"Benchmark capacity, m = {curve.labels_per_item}: {_params_title(curve.params)}",
        "label budget k",
        f"testable classifiers (level {curve.level:g})",
    )
    return fig


def win_vs_q_figure(curve: AccuracyCurve) -> Any:
    """Fig. 2 a: the exact P(better classifier ranked first) against the label accuracy q, per m.

    Parameters
    ----------
    curve : AccuracyCurve
        From :func:`humanly.budget.accuracy_curve`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly.budget import accuracy_curve
    >>> fig = win_vs_q_figure(accuracy_curve(qs=[0.6, 0.8]))
    >>> [line.get_label() for line in fig.axes[0].get_lines()][0]
    'm = 1 (single labels)'
    """
    fig, ax = _axes()
    for m in curve.labels_per_item:
        qs, wins = curve.series(m)
        ax.plot(qs, wins, label=_scheme(m))
    _finish(
        ax,
        f"Fig. 2 a: p = {curve.p:g}, ε = {curve.eps:g}, budget k = {curve.budget:,} labels",
        "label accuracy q",
        "P(better classifier wins)",
    )
    return fig


def win_vs_budget_figure(curve: WinCurve, title: str | None = None) -> Any:
    """Fig. 2 b: the exact P(better classifier ranked first) against the label budget, per m.

    Parameters
    ----------
    curve : WinCurve
        From :func:`humanly.budget.win_curve` (or a plan's ``curve``).
    title : str, optional
        Replaces the parameter list, e.g. "estimated from the pilot".

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, win_curve
    >>> fig = win_vs_budget_figure(win_curve(IndependentErrors(0.8, 0.01, 0.8), (1, 3), [300, 1500]))
    >>> float(fig.get_figwidth() * 72) >= 450
    True
    """
    fig, ax = _axes()
    for m in curve.labels_per_item:
        ax.plot(*curve.series(m), label=_scheme(m))
    _budget_axis(ax)
    _finish(
        ax,
        title or f"Fig. 2 b: {_params_title(curve.params)}",
        "label budget k",
        "P(better classifier wins)",
    )
    return fig


def rates_figure(curve: RateCurve) -> Any:
    """Fig. 3 b: per-label upper bounds on the normalised log error rate against the label accuracy q.

    (1/k) log P(error) by Cramér (log(2√(xy) + z)/m) and Hoeffding (−E[G]²/(2m)).

    Parameters
    ----------
    curve : RateCurve
        From :func:`humanly.budget.rate_curve`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly.budget import rate_curve
    >>> len(rates_figure(rate_curve(qs=[0.6, 0.8])).axes[0].get_lines())
    4
    """
    fig, ax = _axes()
    for m in curve.labels_per_item:
        qs, cramer, hoeffding = curve.series(m)
        (line,) = ax.plot(qs, cramer, label=f"Cramér bound, m = {m}")
        ax.plot(qs, hoeffding, ls="--", color=line.get_color(), label=f"Hoeffding bound, m = {m}")
    _finish(
        ax,
        f"Fig. 3 b: upper bounds on the log error rate per label, p = {curve.p:g}, "
        f"ε = {curve.eps:g}",
        "label accuracy q",
        "(1/k) log P(error): upper bound",
    )
    return fig


def convergence_figure(curve: CramerConvergence) -> Any:
    """Fig. 3 a: the exact normalised log error per m against the label budget, and the Cramér rates.

    The exact (1/k) log P(error) (solid), the Cramér rate per label it converges to from below
    (dashed), and the budget from which the gap between the rates exceeds every approximation error
    (dotted vertical line). The y axis shows the budgets from a tenth of the largest on (the curves
    start far below).

    Parameters
    ----------
    curve : CramerConvergence
        From :func:`humanly.budget.cramer_convergence`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, cramer_convergence
    >>> curve = cramer_convergence(IndependentErrors(0.7, 0.1, 0.75), (1, 3), range(60, 601, 60))
    >>> fig = convergence_figure(curve)
    >>> float(fig.get_figwidth() * 72) >= 450
    True
    """
    fig, ax = _axes()
    frame = curve.to_frame()
    for m, rate in zip(curve.labels_per_item, curve.cramer_per_label, strict=True):
        part = frame[frame["labels_per_item"] == m]
        (line,) = ax.plot(part["budget"], part["log_error_per_label"], label=f"exact, m = {m}")
        ax.axhline(rate, ls="--", lw=1.0, color=line.get_color(), label=f"Cramér rate, m = {m}")
    tail = frame[frame["budget"] >= 0.1 * frame["budget"].max()]["log_error_per_label"]
    finite = tail[np.isfinite(tail)]
    if len(finite):  # the range where the curves approach their rates (the start plunges far below)
        top, bottom = max(curve.cramer_per_label), float(finite.min())
        pad = 0.08 * (top - bottom)
        ax.set_ylim(bottom - pad, top + pad)
    if curve.crossing is not None:
        ax.axvline(
            curve.crossing,
            ls=":",
            color="grey",
            label=f"gap between rates > approximation errors (k ≥ {curve.crossing:,})",
        )
    _budget_axis(ax)
    _finish(
        ax,
        f"Fig. 3 a: convergence to the Cramér rate, {_params_title(curve.params)}",
        "label budget k",
        "(1/k) log P(error)",
        below=True,
    )
    return fig


def size_figure(result: SizeResult) -> Any:
    """The label budget that reaches the level, per m: exact, and what the two bounds guarantee.

    Grouped bars on a log scale, each labelled with its budget (Cramér's and Hoeffding's bounds give
    budgets guaranteed to suffice).

    Parameters
    ----------
    result : SizeResult
        From :func:`humanly.budget.sample_size`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors, sample_size
    >>> fig = size_figure(sample_size(IndependentErrors(0.7, 0.1, 0.9), 0.95, (1, 3)))
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['exact', 'Cramér bound', 'Hoeffding bound']
    """
    fig, ax = _axes()
    ms = [r.labels_per_item for r in result.rows]
    kinds = (
        ("budget_exact", "exact", "black"),
        ("budget_cramer_bound", "Cramér bound", "tab:blue"),
        ("budget_hoeffding_bound", "Hoeffding bound", "tab:orange"),
    )
    x = np.arange(len(ms))
    width = 0.26
    for i, (field, label, color) in enumerate(kinds):
        values = [getattr(r, field) for r in result.rows]
        pos = x + (i - 1) * width
        heights = [np.nan if v is None else v for v in values]
        bars = ax.bar(pos, heights, width, label=label, color=color)
        ax.bar_label(
            bars, labels=["–" if v is None else f"{v:,}" for v in values], fontsize=8, padding=2
        )
    ax.set_xticks(x, [f"m = {m}" + (" (single)" if m == 1 else "") for m in ms])
    ax.set_yscale("log")
    ax.margins(y=0.15)
    best = (
        ""
        if result.best_labels_per_item is None
        else f"; cheapest m = {result.best_labels_per_item}"
    )
    _finish(
        ax,
        f"Label budget for P(better ranked first) ≥ {result.level:g}{best} "
        f"({_params_title(result.params)})",
        "labels per item",
        "label budget k (log scale)",
    )
    return fig
