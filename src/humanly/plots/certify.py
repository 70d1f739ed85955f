"""Figures for :mod:`humanly.certify`: bounds against the number of raters (the paper's Fig. 3) and
the confidence score S(t_u) of Theorem 7 per model. Each function returns a matplotlib Figure."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..certify import CertifyResult
from ..data import InputError
from ._style import COLUMN_WIDTH, figure

__all__ = ["plot_confidence", "plot_curve"]

_COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"]


def plot_curve(result: CertifyResult) -> Any:
    """Fig. 3: U⁽ᵗ⁾_N and U⁽ᵉ⁾_N of the average rater and each model's L_N against the aggregate of
    k raters, for k = 1 … K; with gold, the true accuracies as dotted lines.

    >>> from humanly import simulate
    >>> from humanly.certify import certify
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> len(plot_curve(certify(d.ratings, d.predictions, curve=True)).axes)
    1
    """
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
            result.oracle.average_annotator, color="k", ls=":", lw=1, label="true avg. rater"
        )
    ax.set_xlabel("number of raters k")
    ax.set_ylabel("accuracy bound")
    ax.set_xticks(ks if len(ks) <= 12 else ks[:: math.ceil(len(ks) / 12)])
    ax.legend(loc="best", frameon=False, fontsize=6)
    return fig


def plot_confidence(result: CertifyResult, points: int = 400) -> Any:
    """S(t_u) = 1 − δ_u − δ_l (Theorem 7, eq. 38) over the admissible range t_u ∈ [0, L_N² − U_N²] for
    each model, under the result's bound (:meth:`CertifyResult.confidence_curve`); markers at the HMS
    and OMS choices.

    >>> from humanly.certify import certify_summary
    >>> fig = plot_confidence(certify_summary([0.971, 0.93], 0.939, 1821))
    >>> len(fig.axes[0].get_lines()) >= 3
    True
    """
    fig, ax = figure(width=COLUMN_WIDTH, height=2.4)
    drawn = 0
    for i, m in enumerate(result.models):
        if not m.confidence.admissible:
            continue
        col = _COLORS[i % len(_COLORS)]
        cc = result.confidence_curve(m.model, points=points)
        ax.plot(cc.t_u, cc.confidence, color=col, label=m.model)
        if cc.hms is not None:
            ax.plot([cc.hms_t_u], [cc.hms], "s", color=col, ms=3)
        ax.plot([cc.oms_t_u], [cc.oms], "o", color=col, ms=4)
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
