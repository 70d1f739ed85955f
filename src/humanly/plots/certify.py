"""Figures for :mod:`humanly.certification`: bounds against the number of raters (the paper's Fig. 3) and
the confidence score S(t_u) of Theorem 7 per model. Each function returns a matplotlib Figure 6.4 in
(461 pt) wide, draws a result only, labels every line, keeps its legend off the data (under the axes)
and takes ``colors`` (model → colour; default :func:`~humanly.plots.style.model_colors` of the models it
draws), so a model has the same colour in every figure of a report."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..certification import CertifyResult
from ..data import InputError
from ..errors import setting
from .style import FIGURE_WIDTH, figure, model_colors

__all__ = ["plot_confidence", "plot_curve"]


def _legend_below(ax: Any) -> None:
    """The legend under the axes (outside the data), in columns so it stays short."""
    n = len(ax.get_legend_handles_labels()[1])
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        frameon=False,
        ncol=2 if n > 2 else n,
        borderaxespad=0.0,
    )


def _series(values: list[float | None]) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def plot_curve(result: CertifyResult, *, colors: Mapping[str, str] | None = None) -> Any:
    """Fig. 3: the bounds against the number of raters k.

    U⁽ᵗ⁾_N and U⁽ᵉ⁾_N of the average rater and each model's L_N against the plurality of k raters,
    for k = 1 … K; with gold, the true accuracies as dotted lines (each labelled). Draws the result's
    ``curve`` only.

    Parameters
    ----------
    result : CertifyResult
        A certificate computed with ``curve=True``.
    colors : mapping of str to str, optional
        Model → colour (default :func:`~humanly.plots.model_colors` of the models drawn).

    Returns
    -------
    matplotlib.figure.Figure
        6.4 in wide, the legend under the axes.

    Raises
    ------
    InputError
        When the result has no curve.

    Examples
    --------
    >>> from humanly import simulate
    >>> from humanly.certification import certify
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> fig = plot_curve(certify(d.ratings, d.predictions, gold=d.gold, curve=True))
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()][-2:]
    ['true accuracy m (gold)', 'true average rater (gold)']
    """
    if not result.curve:
        raise InputError(
            f"no curve in this result: run certify with {setting('curve', True)} (--curve)"
        )
    fig, ax = figure(width=FIGURE_WIDTH, height=4.4)
    ks = np.array([p.k for p in result.curve])
    names = list(result.curve[0].lower)
    col = dict(colors) if colors is not None else model_colors(names)
    ax.plot(ks, _series([p.theoretical for p in result.curve]), "k--", label="U⁽ᵗ⁾_N (Theorem 1)")
    ax.plot(ks, _series([p.empirical for p in result.curve]), "k-", label="U⁽ᵉ⁾_N (eq. 8)")
    for name in names:
        c = col.get(name, "#0072B2")
        values = _series([p.lower[name] for p in result.curve])
        ax.plot(ks, values, "o-", ms=3.5, color=c, label=f"L_N {name}")
    if result.oracle is not None:
        for name in names:
            if name in result.oracle.models:
                ax.axhline(
                    result.oracle.models[name],
                    color=col.get(name, "#0072B2"),
                    ls=":",
                    lw=1.2,
                    label=f"true accuracy {name} (gold)",
                )
        ax.axhline(
            result.oracle.average_rater,
            color="0.35",
            ls=":",
            lw=1.2,
            label="true average rater (gold)",
        )
    ax.set_xlabel("number of raters k")
    ax.set_ylabel("accuracy bound")
    ax.set_xticks(ks if len(ks) <= 12 else ks[:: math.ceil(len(ks) / 12)])
    ax.set_title("Bounds against the number of raters (Fig. 3)", loc="left")
    _legend_below(ax)
    return fig


def plot_confidence(
    result: CertifyResult, points: int = 400, *, colors: Mapping[str, str] | None = None
) -> Any:
    """The confidence S(t_u) = 1 − δ_u − δ_l of each model (Theorem 7, eq. 38).

    Over the admissible range t_u ∈ [0, (L_N − τ)² − U_N²], under the result's bound, from the
    result's own :meth:`~humanly.certification.CertifyResult.confidence_curve`; markers at the HMS
    and OMS choices, and the lines S = 0 and S = level, labelled. The y-axis shows all of S, negative
    values included (a negative S is no evidence, not a probability).

    Parameters
    ----------
    result : CertifyResult
        A certificate.
    points : int
        Points per curve (default 400).
    colors : mapping of str to str, optional
        Model → colour (default :func:`~humanly.plots.model_colors` of the models drawn).

    Returns
    -------
    matplotlib.figure.Figure
        6.4 in wide, the legend under the axes.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> fig = plot_confidence(certify_summary([0.949, 0.971, 0.93], 0.939, 1821))  # BERT: S < 0
    >>> bool(fig.axes[0].get_ylim()[0] < -0.5)
    True
    """
    fig, ax = figure(width=FIGURE_WIDTH, height=4.2)
    drawn = [m for m in result.models if m.confidence.admissible]
    col = dict(colors) if colors is not None else model_colors([m.model for m in drawn])
    lows = [0.0]
    for m in drawn:
        c = col.get(m.model, "#0072B2")
        cc = result.confidence_curve(m.model, points=points)
        s = np.asarray(cc.confidence, dtype=float)
        lows.append(float(np.nanmin(s)))
        ax.plot(cc.t_u, s, color=c, label=f"{m.model}")
        if cc.hms is not None:
            ax.plot([cc.hms_t_u], [cc.hms], "s", color=c, ms=4.5, mfc="white")
        if cc.oms is not None:
            ax.plot([cc.oms_t_u], [cc.oms], "o", color=c, ms=5)
    level = result.level
    ax.axhline(level, color="0.35", ls="--", lw=1, label=f"level {level:g} (certified above)")
    ax.axhline(0.0, color="0.35", ls=":", lw=1, label="S = 0 (no evidence below)")
    if drawn:
        ax.plot([], [], "s", color="0.35", mfc="white", ms=4.5, label="HMS choice of t_u")
        ax.plot([], [], "o", color="0.35", ms=5, label="OMS (maximum of S)")
    skipped = [m.model for m in result.models if not m.confidence.admissible]
    if skipped:  # named in the legend, so no text sits on the data
        bar = "L_N ≤ U_N" + (" + τ" if result.tau else "")
        ax.plot([], [], " ", label=f"not drawn ({bar}, no admissible t_u): {', '.join(skipped)}")
    if not drawn:  # no data to cover: say it on the axes
        ax.text(
            0.5,
            0.5,
            "no model has L_N > U_N" + (" + τ" if result.tau else "") + ": no admissible t_u",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        ax.set_xticks([])
    low = min(lows)
    ax.set_ylim(min(-0.05, low - 0.05 * (1.05 - low)), 1.05)
    ax.set_xlabel("t_u (deviation of the upper bound)")
    ax.set_ylabel("confidence S")
    tau = f", τ = {result.tau:g}" if result.tau else ""
    ax.set_title(f"Confidence S(t_u) ({result.bound}{tau})", loc="left")
    _legend_below(ax)
    return fig
