"""Figures of *Don't Label Twice*: Fig. 1 (benchmark capacity vs budget), Fig. 2 a/b (win probability vs
label accuracy / vs budget per m) and Fig. 3 b (Cramér vs Hoeffding error exponents). Each function
computes with :mod:`humanly.budget` and returns a matplotlib Figure (save with ``save_figure``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..budget import (
    IndependentModel,
    Model,
    cramer_error,
    cramer_exponent,
    hoeffding_error,
    hoeffding_exponent,
    outcome,
)
from ._style import COLUMN_WIDTH, figure

__all__ = ["capacity_figure", "rates_figure", "win_vs_budget_figure", "win_vs_q_figure"]


def capacity_figure(
    model: Model, delta: float = 0.05, budgets: Sequence[int] | None = None, m: int = 1
) -> Any:
    """Fig. 1: number of classifiers testable at family error δ (union bound) vs label budget, by the
    exact error, Cramér's and Hoeffding's bounds (log scale)."""
    budgets = list(budgets or np.unique(np.linspace(m, 3000, 60).astype(int)))
    g = model.gap(m)
    ns = [max(1, b // m) for b in budgets]
    exact = [delta / max(outcome(g, n).error(), 1e-300) for n in ns]
    cram = [delta / cramer_error(g, n) for n in ns]
    hoef = [delta / hoeffding_error(g, n) for n in ns]
    fig, ax = figure()
    ax.plot(budgets, exact, label="exact", color="black")
    ax.plot(budgets, cram, label="Cramér bound", color="tab:blue")
    ax.plot(budgets, hoef, label="Hoeffding bound", color="tab:orange")
    ax.axhline(1.0, color="grey", lw=0.6, ls=":")
    ax.set_yscale("log")
    ax.set_xlabel("label budget k")
    ax.set_ylabel(f"testable classifiers (δ = {delta:g})")
    ax.set_title(f"Benchmark capacity, m = {m}")
    ax.legend(frameon=False)
    return fig


def win_vs_q_figure(
    p: float = 0.8,
    eps: float = 0.01,
    budget: int = 1500,
    ms: Sequence[int] = (1, 3, 5),
    qs: Sequence[float] | None = None,
) -> Any:
    """Fig. 2 a: exact P(c_b identified) vs label accuracy q for each m at a fixed budget."""
    grid = np.asarray(qs if qs is not None else np.linspace(0.51, 1.0, 50), dtype=float)
    fig, ax = figure()
    for m in ms:
        vals = [outcome(IndependentModel(p, eps, float(q)).gap(m), budget // m).win for q in grid]
        ax.plot(grid, vals, label=f"m = {m}")
    ax.set_xlabel("label accuracy q")
    ax.set_ylabel("P(better classifier wins)")
    ax.set_title(f"p = {p:g}, ε = {eps:g}, budget k = {budget:,}")
    ax.legend(frameon=False)
    return fig


def win_vs_budget_figure(
    model: Model, ms: Sequence[int] = (1, 3, 5), budgets: Sequence[int] | None = None
) -> Any:
    """Fig. 2 b: exact P(c_b identified) vs label budget for each m."""
    budgets = list(budgets or np.unique(np.linspace(max(ms), 5000, 60).astype(int)))
    fig, ax = figure()
    for m in ms:
        g = model.gap(m)
        ax.plot(budgets, [outcome(g, max(1, b // m)).win for b in budgets], label=f"m = {m}")
    ax.set_xlabel("label budget k")
    ax.set_ylabel("P(better classifier wins)")
    ax.set_title(", ".join(f"{k} = {v:g}" for k, v in model.params().items()))
    ax.legend(frameon=False)
    return fig


def rates_figure(p: float = 0.7, eps: float = 0.1, ms: Sequence[int] = (1, 3)) -> Any:
    """Fig. 3 b: per-label upper bounds on the normalised log error rate, (1/k) log P(error), by Cramér
    (log(2√(xy) + z)/m) and Hoeffding (−E[G]²/(2m)) vs label accuracy q."""
    qs = np.linspace(0.5, 1.0, 101)[1:]
    fig, ax = figure(width=COLUMN_WIDTH)
    for m in ms:
        gaps = [IndependentModel(p, eps, float(q)).gap(m) for q in qs]
        c = [float(cramer_exponent(g.x, g.y)) / m for g in gaps]
        h = [float(hoeffding_exponent(g.x, g.y)) / m for g in gaps]
        (line,) = ax.plot(qs, c, label=f"Cramér, m = {m}")
        ax.plot(qs, h, ls="--", color=line.get_color(), label=f"Hoeffding, m = {m}")
    ax.set_xlabel("label accuracy q")
    ax.set_ylabel("log error bound per label")
    ax.set_title(f"p = {p:g}, ε = {eps:g}")
    ax.legend(frameon=False)
    return fig
