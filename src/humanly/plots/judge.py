"""Figures of the judge analysis (:func:`humanly.judge`): each model's accuracy with the judge-assisted
interval (PPI++) above the human-only interval, and each paired difference the same way. Draws a
:class:`~humanly.judging.JudgeResult`; nothing here computes a statistic."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..judging import Estimate, JudgeResult
from .style import FIGURE_WIDTH, PALETTE, figure

__all__ = ["judge_intervals"]

GREY = "#999999"


def _draw(ax: Any, rows: list[tuple[str, Estimate, str]], scale: float, xlabel: str) -> None:
    """One row per estimand: the judge-assisted interval (colour, thick) above the human-only one."""
    names = []
    for i, (name, e, color) in enumerate(rows):
        y = -i
        for (lo, hi), point, dy, style in (
            (e.interval, e.point, 0.15, {"color": color, "lw": 3.0, "ms": 5.0}),
            (e.classical_interval, e.classical_point, -0.15, {"color": GREY, "lw": 1.5, "ms": 3.5}),
        ):
            if lo is not None and hi is not None:
                ax.plot(
                    [scale * lo, scale * hi],
                    [y + dy] * 2,
                    color=style["color"],
                    lw=style["lw"],
                    solid_capstyle="butt",
                )
            ax.plot(scale * point, y + dy, "o", color=style["color"], ms=style["ms"])
        names.append(name)
    ax.set_yticks([-i for i in range(len(names))], names)
    ax.set_ylim(-len(names) + 0.4, 0.6)
    ax.set_xlabel(xlabel)


def judge_intervals(result: JudgeResult, colors: Mapping[str, str] | None = None) -> Any:
    """Each model's accuracy (left) and each pair's difference (right, with two or more models): the
    judge-assisted interval (thick, the model's colour) above the human-only interval (thin, grey).

    Parameters
    ----------
    result : JudgeResult
        The judge analysis.
    colors : mapping of str to str, optional
        A colour per model (default: the palette in order).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from humanly.judging import judge
    >>> rng = np.random.default_rng(0)
    >>> ids = np.arange(2000)
    >>> truth = rng.integers(0, 2, 2000)
    >>> models = {k: pd.Series(np.where(rng.random(2000) < a, truth, 1 - truth), index=ids)
    ...           for k, a in (("a", 0.85), ("b", 0.75))}
    >>> llm = pd.Series(np.where(rng.random(2000) < 0.9, truth, 1 - truth), index=ids)
    >>> human = pd.DataFrame({"item": ids[:200], "rater": "r", "label": truth[:200]})
    >>> len(judge_intervals(judge(human, models, judge=llm)).axes)
    2
    """
    colors = colors or {m.model: PALETTE[i % len(PALETTE)] for i, m in enumerate(result.models)}
    ncols = 2 if result.comparisons else 1
    height = 0.6 + 0.45 * max(len(result.models), len(result.comparisons), 2)
    fig, axes = figure(width=FIGURE_WIDTH, height=height, ncols=ncols)
    axes = list(axes) if ncols == 2 else [axes]
    rows = [(m.model, m.accuracy, colors.get(m.model, PALETTE[0])) for m in result.models]
    _draw(axes[0], rows, 100.0, "accuracy (%)")
    if result.comparisons:
        diffs = [
            (f"{c.first} − {c.second}", c.difference, colors.get(c.first, PALETTE[0]))
            for c in result.comparisons
        ]
        _draw(axes[1], diffs, 100.0, "difference (points)")
        axes[1].axvline(0, color=GREY, lw=0.8, ls=":")
    return fig
