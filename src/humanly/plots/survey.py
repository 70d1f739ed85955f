"""Survey power curve figure (Survey Equivalence, Figures 4–7): the curve with its bootstrap error bars,
each model's score as a horizontal band, and the equivalence points."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._style import figure

if TYPE_CHECKING:
    from ..survey import EquivalenceResult, PowerCurve

__all__ = ["plot_power_curve"]

_COLORS = ("#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d")


def plot_power_curve(
    result: EquivalenceResult | PowerCurve, *, information: bool | None = None
) -> Any:
    """Figure of an :class:`~humanly.survey.EquivalenceResult` (or ``PowerCurve``), one column wide.

    ``information`` (default: on for ABC + cross-entropy) plots c_k − c_0 in bits.

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import equivalence
    >>> d = running_example(100, 4, seed=1)
    >>> fig = plot_power_curve(equivalence(d.ratings, d.predictions, bootstrap=0, progress=False))
    >>> fig.axes[0].get_xlabel()
    'number of raters k'
    """
    pts = result.power_curve
    ks = np.array([p.k for p in pts], dtype=float)
    ys = np.array([p.score for p in pts])
    lows = np.array([np.nan if p.low is None else p.low for p in pts])
    highs = np.array([np.nan if p.high is None else p.high for p in pts])
    if information is None:
        information = result.combiner == "abc" and result.scorer == "cross_entropy"
    shift = ys[0] if information else 0.0
    samples = getattr(result, "curve_samples", None)
    msamples = getattr(result, "model_samples", None)
    if information and samples is not None and len(samples):
        # ranges of c_k − c_0 per replicate (c_0 moves with the replicate too)
        rel = samples - samples[:, :1]
        lows = np.nanpercentile(rel, 2.5, axis=0) + shift
        highs = np.nanpercentile(rel, 97.5, axis=0) + shift
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
        label=f"k raters ({result.combiner})",
    )
    for i, m in enumerate(getattr(result, "models", [])):
        col = _COLORS[i % len(_COLORS)]
        ax.axhline(m.score - shift, color=col, linewidth=1)
        lo, hi = m.low, m.high
        if information and msamples is not None and samples is not None and len(samples):
            rel = msamples[:, i] - samples[:, 0]
            lo, hi = np.nanpercentile(rel, 2.5) + shift, np.nanpercentile(rel, 97.5) + shift
        if lo is not None and hi is not None:
            ax.axhspan(lo - shift, hi - shift, color=col, alpha=0.15, linewidth=0)
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
