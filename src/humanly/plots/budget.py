"""Figures of *Don't Label Twice*: Fig. 1 (benchmark capacity vs budget), Fig. 2 a/b (win probability vs
label accuracy / vs budget per m), Fig. 3 a (exact error rate converging to Cramér's) and 3 b (Cramér vs
Hoeffding error exponents), and the label budget needed per m (``budget size --plot``).

Every figure is at least 450 pt wide (:data:`WIDTH`), with 9–11 pt text, a title that fits its axes and
a legend entry for every line (below the axes where a legend inside would cover a line). The lines are
labelling schemes (m), never models, so the figures take no ``colors``.

Functions taking a model compute with :mod:`humanly.budget`; the others
draw a result (:class:`~humanly.budget.SizeResult`, :class:`~humanly.budget.CramerConvergence`). Each
returns a matplotlib Figure (save with ``save_figure``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..budget import (
    CramerConvergence,
    IndependentModel,
    Model,
    SizeResult,
    cramer_error,
    cramer_exponent,
    hoeffding_error,
    hoeffding_exponent,
    outcome,
)
from ..budget._args import Ties, VoteTies
from ._style import figure

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


def _params_title(model: Model) -> str:
    names = {"p_b0": "p_b⁰", "p_b1": "p_b¹", "eps": "ε"}
    return ", ".join(f"{names.get(k, k)} = {v:.3g}" for k, v in model.params().items())


def capacity_figure(
    model: Model,
    delta: float = 0.05,
    budgets: Sequence[int] | None = None,
    m: int = 1,
    *,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
) -> Any:
    """Fig. 1: number of worse classifiers testable at family error δ (union bound) vs label budget, by
    the exact error, and what Cramér's and Hoeffding's bounds guarantee (log scale); ``ties`` and
    ``vote_ties`` as in :func:`humanly.budget.capacity`."""
    budgets = list(budgets or np.unique(np.linspace(m, 3000, 60).astype(int)))
    g = model.gap(m, vote_ties)
    ns = [max(1, b // m) for b in budgets]
    exact = [delta / max(outcome(g, n).error(ties), 1e-300) for n in ns]
    cram = [delta / cramer_error(g, n) for n in ns]
    hoef = [delta / hoeffding_error(g, n) for n in ns]
    fig, ax = _axes()
    ax.plot(budgets, exact, label="exact error", color="black")
    ax.plot(budgets, cram, label="Cramér bound (guaranteed)", color="tab:blue")
    ax.plot(budgets, hoef, label="Hoeffding bound (guaranteed)", color="tab:orange")
    ax.axhline(1.0, color="grey", lw=0.8, ls=":", label="one classifier")
    ax.set_yscale("log")
    _budget_axis(ax)
    _finish(
        ax,
        f"Benchmark capacity, m = {m}: {_params_title(model)}",
        "label budget k",
        f"testable classifiers (δ = {delta:g})",
    )
    return fig


def win_vs_q_figure(
    p: float = 0.8,
    eps: float = 0.01,
    budget: int = 1500,
    ms: Sequence[int] = (1, 3, 5),
    qs: Sequence[float] | None = None,
    *,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
) -> Any:
    """Fig. 2 a: exact P(c_b identified) vs label accuracy q for each m at a fixed budget (``ties``
    and ``vote_ties`` as in :func:`humanly.budget.compare`)."""
    grid = np.asarray(qs if qs is not None else np.linspace(0.51, 1.0, 50), dtype=float)
    fig, ax = _axes()
    for m in ms:
        vals = [
            outcome(
                IndependentModel(p, eps, float(q)).gap(m, vote_ties), budget // m
            ).win_probability(ties)
            for q in grid
        ]
        ax.plot(grid, vals, label=f"m = {m}" + (" (single labels)" if m == 1 else ""))
    _finish(
        ax,
        f"Fig. 2 a: p = {p:g}, ε = {eps:g}, budget k = {budget:,} labels",
        "label accuracy q",
        "P(better classifier wins)",
    )
    return fig


def win_vs_budget_figure(
    model: Model,
    ms: Sequence[int] = (1, 3, 5),
    budgets: Sequence[int] | None = None,
    title: str | None = None,
    *,
    ties: Ties = "failure",
    vote_ties: VoteTies = "coin",
) -> Any:
    """Fig. 2 b: exact P(c_b identified) vs label budget for each m (``title`` replaces the parameter
    list, e.g. "estimated from the pilot"; ``ties`` and ``vote_ties`` as in
    :func:`humanly.budget.compare`)."""
    budgets = list(budgets or np.unique(np.linspace(max(ms), 5000, 60).astype(int)))
    fig, ax = _axes()
    for m in ms:
        g = model.gap(m, vote_ties)
        ax.plot(
            budgets,
            [outcome(g, max(1, b // m)).win_probability(ties) for b in budgets],
            label=f"m = {m}" + (" (single labels)" if m == 1 else ""),
        )
    _budget_axis(ax)
    _finish(
        ax,
        title or f"Fig. 2 b: {_params_title(model)}",
        "label budget k",
        "P(better classifier wins)",
    )
    return fig


def rates_figure(
    p: float = 0.7,
    eps: float = 0.1,
    ms: Sequence[int] = (1, 3),
    *,
    vote_ties: VoteTies = "coin",
) -> Any:
    """Fig. 3 b: per-label upper bounds on the normalised log error rate, (1/k) log P(error), by Cramér
    (log(2√(xy) + z)/m) and Hoeffding (−E[G]²/(2m)) vs label accuracy q (``vote_ties`` as in
    :func:`humanly.budget.rates`)."""
    qs = np.linspace(0.5, 1.0, 101)[1:]
    fig, ax = _axes()
    for m in ms:
        gaps = [IndependentModel(p, eps, float(q)).gap(m, vote_ties) for q in qs]
        c = [float(cramer_exponent(g.x, g.y)) / m for g in gaps]
        h = [float(hoeffding_exponent(g.x, g.y)) / m for g in gaps]
        (line,) = ax.plot(qs, c, label=f"Cramér bound, m = {m}")
        ax.plot(qs, h, ls="--", color=line.get_color(), label=f"Hoeffding bound, m = {m}")
    _finish(
        ax,
        f"Fig. 3 b: upper bounds on the log error rate per label, p = {p:g}, ε = {eps:g}",
        "label accuracy q",
        "(1/k) log P(error): upper bound",
    )
    return fig


def convergence_figure(curve: CramerConvergence) -> Any:
    """Fig. 3 a: the exact normalised log error (1/k) log P(error) per m against the label budget k
    (solid), the Cramér rate per label it converges to from below (dashed), and the budget from which
    the gap between the rates exceeds every approximation error (dotted vertical line). The y axis shows
    the budgets from a tenth of the largest on (the curves start far below).

    >>> from humanly.budget import IndependentModel, cramer_convergence
    >>> curve = cramer_convergence(IndependentModel(0.7, 0.1, 0.75), (1, 3), range(60, 601, 60))
    >>> fig = convergence_figure(curve)
    >>> float(fig.get_figwidth() * 72) >= 450
    True
    """
    fig, ax = _axes()
    frame = curve.to_frame()
    for m, rate in zip(curve.m, curve.cramer_per_label, strict=True):
        part = frame[frame["m"] == m]
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
    """The label budget needed for error ≤ δ per m: exact, and what Cramér's and Hoeffding's bounds
    guarantee to suffice (grouped bars, log scale, each bar labelled with its budget).

    >>> from humanly.budget import IndependentModel, sample_size
    >>> fig = size_figure(sample_size(IndependentModel(0.7, 0.1, 0.9), 0.05, (1, 3)))
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['exact', 'Cramér bound', 'Hoeffding bound']
    """
    fig, ax = _axes()
    ms = [r.m for r in result.rows]
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
    best = "" if result.best_m is None else f"; cheapest m = {result.best_m}"
    _finish(
        ax,
        f"Label budget for error ≤ {result.delta:g}{best} ({_params_title(result.params)})",
        "labels per item",
        "label budget k (log scale)",
    )
    return fig
