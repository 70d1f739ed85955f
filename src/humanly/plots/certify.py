"""Figures for :mod:`humanly.certify`: bounds against the number of annotators (the paper's Fig. 3) and
the confidence score S(t_u) of Theorem 7 per model. Each function returns a matplotlib Figure."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..certify._bounds import bernstein_tail, clopper_pearson_tail, hoeffding_tail
from ..certify._core import CertifyResult
from ..data.errors import InputError
from ._style import COLUMN_WIDTH, figure

__all__ = ["plot_confidence", "plot_curve"]

_COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"]


def plot_curve(result: CertifyResult) -> Any:
    """Fig. 3: U⁽ᵗ⁾_N and U⁽ᵉ⁾_N of the average annotator and each model's L_N against the aggregate of
    k annotators, for k = 1 … K; with gold, the true accuracies as dotted lines."""
    if not result.curve:
        raise InputError("no curve in this result: run certify with curve=True (--curve)")
    fig, ax = figure(width=COLUMN_WIDTH, height=2.6)
    ks = np.array([p.k for p in result.curve])

    def series(values: list[float | None]) -> np.ndarray:
        return np.array([np.nan if v is None else v for v in values], dtype=float)

    ax.plot(ks, series([p.theoretical for p in result.curve]), "k--", label="U⁽ᵗ⁾_N")
    ax.plot(ks, series([p.empirical for p in result.curve]), "k-", label="U⁽ᵉ⁾_N")
    names = list(result.curve[0].lower)
    for i, name in enumerate(names):
        col = _COLORS[i % len(_COLORS)]
        ax.plot(
            ks,
            series([p.lower[name] for p in result.curve]),
            "o-",
            ms=3,
            color=col,
            label=f"L_N {name}",
        )
        if result.oracle is not None and name in result.oracle.models:
            ax.axhline(result.oracle.models[name], color=col, ls=":", lw=1)
    if result.oracle is not None:
        ax.axhline(
            result.oracle.average_annotator, color="k", ls=":", lw=1, label="true avg. annotator"
        )
    ax.set_xlabel("number of annotators k")
    ax.set_ylabel("accuracy bound")
    ax.set_xticks(ks if len(ks) <= 12 else ks[:: math.ceil(len(ks) / 12)])
    ax.legend(loc="best", frameon=False, fontsize=6)
    return fig


def plot_confidence(result: CertifyResult, points: int = 400) -> Any:
    """S(t_u) = 1 − δ_u − δ_l (Theorem 7, eq. 38) over the admissible range t_u ∈ [0, L_N² − U_N²] for
    each model, under the result's bound; markers at the HMS and OMS choices."""
    fig, ax = figure(width=COLUMN_WIDTH, height=2.4)
    u = result.upper_bound.value
    drawn = 0
    for i, m in enumerate(result.models):
        c = m.confidence
        if not c.admissible or c.t_u_max is None:
            continue
        col = _COLORS[i % len(_COLORS)]
        tu = np.linspace(0.0, c.t_u_max, points)
        tail_u, tail_l = _tails(result, m)
        s = [1 - tail_u.delta(t) - tail_l.delta(m.lower_bound - math.sqrt(t + u * u)) for t in tu]
        ax.plot(tu, s, color=col, label=m.model)
        if c.hms is not None:
            ax.plot([c.hms_t_u], [c.hms], "s", color=col, ms=3)
        ax.plot([c.t_u], [c.oms], "o", color=col, ms=4)
        drawn += 1
    if not drawn:
        ax.text(
            0.5,
            0.5,
            "no model has L_N > U_N:\nno admissible t_u",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
    ax.axhline(1 - result.alpha, color="grey", ls=":", lw=1)
    ax.set_ylim(-0.05, 1.02)
    ax.set_xlabel("t_u")
    ax.set_ylabel("confidence S")
    if drawn:
        ax.legend(loc="best", frameon=False, fontsize=6)
    return fig


def _tails(result: CertifyResult, m: Any) -> tuple[Any, Any]:
    ub = result.upper_bound
    if result.bound == "hoeffding":
        return hoeffding_tail(ub.n), hoeffding_tail(m.n)
    tail_u = bernstein_tail(ub.n, ub.variance or 0.0)
    if result.bound == "bernstein":
        return tail_u, bernstein_tail(m.n, m.lower_variance or 0.0)
    return tail_u, clopper_pearson_tail(m.n, m.full_credit or 0, m.lower_bound)
