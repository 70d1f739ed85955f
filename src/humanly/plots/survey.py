"""Survey power curve figure (Survey Equivalence, Figures 4–7): the curve with its bootstrap error bars,
each model's score as a horizontal band, and the equivalence points."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._style import figure

__all__ = ["plot_power_curve"]

_COLORS = ("#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d")


def plot_power_curve(result: Any, *, information: bool | None = None) -> Any:
    """Figure of an :class:`~humanly.survey.EquivalenceResult` (or ``PowerCurve``), one column wide.

    ``information`` (default: on for ABC + cross-entropy) plots c_k − c_0 in bits."""
    pts = result.power_curve
    ks = np.array([p.k for p in pts], dtype=float)
    ys = np.array([p.score for p in pts])
    lows = np.array([np.nan if p.low is None else p.low for p in pts])
    highs = np.array([np.nan if p.high is None else p.high for p in pts])
    if information is None:
        information = result.combiner == "abc" and result.scorer == "cross_entropy"
    shift = ys[0] if information else 0.0
    fig, ax = figure()
    yerr = np.vstack([ys - lows, highs - ys])
    yerr = np.where(np.isfinite(yerr), np.maximum(yerr, 0), 0)
    ax.errorbar(
        ks,
        ys - shift,
        yerr=yerr,
        color="#1b9e77",
        marker="o",
        markersize=3,
        capsize=2,
        label=f"{result.combiner} · {len(pts) - 1} raters max",
    )
    for i, m in enumerate(getattr(result, "models", [])):
        col = _COLORS[i % len(_COLORS)]
        ax.axhline(m.score - shift, color=col, linewidth=1)
        if m.low is not None and m.high is not None:
            ax.axhspan(m.low - shift, m.high - shift, color=col, alpha=0.15, linewidth=0)
        label = m.model
        if m.equivalence is not None:
            ax.plot([m.equivalence], [m.score - shift], marker="D", color=col, markersize=4)
            ax.axvline(m.equivalence, color=col, linestyle=":", linewidth=0.8)
            label += f": {m.equivalence:.2f} raters"
        elif m.equivalence_note:
            label += ": " + ("below 0" if m.equivalence_note == "below_0" else "above max")
        ax.plot([], [], color=col, label=label)
    ax.set_xlabel("number of raters k")
    ylab = {"cross_entropy": "cross-entropy (bits)"}.get(result.scorer, result.scorer)
    ax.set_ylabel("information gain c_k − c_0 (bits)" if information else ylab)
    ax.set_xticks(ks if len(ks) <= 12 else ks[:: max(1, len(ks) // 10)])
    ax.legend(frameon=False, loc="lower right")
    return fig
