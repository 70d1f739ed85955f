"""Figures of the ranking from pairwise votes (:func:`humanly.rank`): the estimates with their intervals
ordered by rank beside the rank-sets drawn as bars (human votes alone and with the judges, side by
side), the pairwise win matrix as a heat map, and the planning curve. Each draws a
:class:`~humanly.ranking.RankResult` (or one of its :class:`~humanly.ranking.Estimates`); nothing here
computes a statistic.

>>> from humanly import rank, simulate
>>> res = rank(simulate.arena(5, 600, 200, seed=0).study())
>>> [len(f.axes) >= 1 for f in (rank_intervals(res), win_matrix(res.best.strength),
...                              planning_curve(res))]
[True, True, True]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.ticker import FuncFormatter

from ..errors import InputError
from ..ranking import Estimates, RankResult
from .style import FIGURE_WIDTH, PALETTE, figure

__all__ = ["planning_curve", "rank_intervals", "win_matrix"]

GREY = "#999999"
#: Elo points per natural-log unit of strength (the scale of ``ModelRow.elo``)
ELO_PER_LOGIT = 400.0 / math.log(10.0)


def _family(result: RankResult, kind: str | None) -> str:
    """The family a figure draws: ``kind``, or the strengths when every model with an estimate has
    one (status ``ok``), else the win rates."""
    if kind is not None:
        return kind
    return "strength" if result.best.strength.status == "ok" else "win_rate"


def _height(n: int) -> float:
    return min(1.2 + 0.24 * max(n, 2), 16.0)


def rank_intervals(result: RankResult, kind: str | None = None) -> Any:
    """Each model's estimate with its interval (left) and its rank-set as a bar (right), best first:
    with every judge (colour, above) and from the human votes alone (grey, below).

    Parameters
    ----------
    result : RankResult
        The ranking.
    kind : {"strength", "win_rate"}, optional
        The family to draw (default: the strengths when every ranked model has one).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly import rank, simulate
    >>> res = rank(simulate.arena(4, 400, 150, seed=1).study())
    >>> len(rank_intervals(res, "win_rate").axes)
    2
    """
    kind = _family(result, kind)
    best, human = getattr(result.best, kind), getattr(result.human, kind)
    order = list(best.order) + sorted(set(result.models) - set(best.order))
    if not order:
        raise InputError("no model has an estimate: nothing to draw")
    fig, (left, right) = figure(
        width=FIGURE_WIDTH, height=_height(len(order)), ncols=2, sharey=True
    )
    label = f"with {result.best.name}" if result.best.judges else "human votes"
    sources = [(best, PALETTE[0], 0.17, 3.0, label)]
    if result.best.judges:
        sources.append((human, GREY, -0.17, 1.5, "human votes alone"))
    size = 8 if len(order) <= 30 else 6
    for fam, color, dy, lw, label in sources:
        rows = {r.model: r for r in fam.rows}
        for i, m in enumerate(order):
            r, y = rows[m], -i + dy
            lo, hi = r.interval
            if r.estimate is None:
                continue
            if lo is not None and hi is not None:
                left.plot([lo, hi], [y, y], color=color, lw=lw, solid_capstyle="butt")
            left.plot(r.estimate, y, "o", color=color, ms=lw + 1.5)
            if r.rank_set is not None:
                right.plot(
                    [r.rank_set.low - 0.4, r.rank_set.high + 0.4],
                    [y, y],
                    color=color,
                    lw=lw + 2,
                    solid_capstyle="butt",
                    label=label if i == 0 else None,
                )
                right.plot(r.rank, y, "|", color="black", ms=lw + 4)
    left.set_yticks([-i for i in range(len(order))], order, fontsize=size)
    left.set_ylim(-len(order) + 0.4, 0.6)
    if kind == "strength":
        left.set_xlabel("Bradley–Terry strength (top: Elo)")
        left.secondary_xaxis(
            "top",
            functions=(lambda x: 1000 + ELO_PER_LOGIT * x, lambda e: (e - 1000) / ELO_PER_LOGIT),
        )
    else:
        left.set_xlabel("win rate")
    right.set_xlabel("rank-set (rank of the estimate: |)")
    right.set_xlim(0.3, len(result.models) + 0.7)
    if len(result.models) <= 20:
        right.set_xticks(range(1, len(result.models) + 1))
    right.grid(axis="x", color="0.92", lw=0.6)
    fig.legend(loc="outside lower center", fontsize=8, frameon=False, ncols=2)
    return fig


def win_matrix(estimates: Estimates) -> Any:
    """The pairwise win matrix of Bradley–Terry strengths as a heat map: row beats column with
    probability σ(θ_row − θ_column) (a tie half a win), models best first.

    Parameters
    ----------
    estimates : Estimates
        Strengths (``kind="strength"``: the pairwise table holds the probabilities).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    InputError
        For win rates (they hold no probability of one model beating another).

    Examples
    --------
    >>> from humanly import rank, simulate
    >>> res = rank(simulate.arena(4, 400, 150, seed=1).study())
    >>> len(win_matrix(res.human.strength).axes)  # the map and its colour bar
    2
    """
    t = estimates.pairs
    if t.probability is None:
        raise InputError(
            f"estimates: {estimates.kind} holds no probability of one model beating another; give "
            "the strengths (ranking.strength)"
        )
    order = list(estimates.order)
    pos = {m: k for k, m in enumerate(order)}
    n = len(order)
    grid = np.full((n, n), np.nan)
    for a, b, p in zip(t.first, t.second, t.probability, strict=True):
        if a in pos and b in pos:
            grid[pos[a], pos[b]], grid[pos[b], pos[a]] = p, 1.0 - p
    side = min(max(FIGURE_WIDTH * 0.8, 1.0 + 0.3 * n), 12.0)
    fig, ax = figure(width=side + 1.0, height=side)
    image = ax.imshow(grid, cmap="RdBu_r", vmin=0.0, vmax=1.0)
    size = 8 if n <= 20 else (6 if n <= 40 else 4)
    ax.set_xticks(range(n), order, rotation=90, fontsize=size)
    ax.set_yticks(range(n), order, fontsize=size)
    ax.set_xlabel("column model")
    ax.set_ylabel("row model")
    if n <= 12:
        for i in range(n):
            for j in range(n):
                if i != j:
                    ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7)
    fig.colorbar(image, ax=ax, label="probability that the row model wins", shrink=0.8)
    return fig


def planning_curve(result: RankResult, kind: str | None = None) -> Any:
    """The planning curve: how many pairs of models next to each other in the ranking the rank-sets
    are expected to separate with ½ to 32 times the human votes, from the human votes alone (grey)
    and with each judge or every judge (colours); the votes given are marked.

    Parameters
    ----------
    result : RankResult
        The ranking.
    kind : {"strength", "win_rate"}, optional
        The family (default: the strengths when every ranked model has one).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from humanly import rank, simulate
    >>> res = rank(simulate.arena(4, 400, 150, seed=1).study())
    >>> len(planning_curve(res).axes[0].lines)  # the human votes, each judge, both, the votes now
    5
    """
    kind = _family(result, kind)
    fig, ax = figure(width=FIGURE_WIDTH, height=3.4)
    pairs = 0
    for k, ranking in enumerate(result.rankings):
        fam = getattr(ranking, kind)
        if not fam.curve:
            continue
        pairs = max(pairs, len(fam.adjacent))
        color = GREY if not ranking.judges else PALETTE[k % len(PALETTE)]
        ax.plot(
            [c.votes for c in fam.curve],
            [c.separated for c in fam.curve],
            "o-",
            color=color,
            lw=2.0 if ranking is result.best else 1.2,
            ms=3.5,
            label="human votes alone" if not ranking.judges else f"with {ranking.name}",
        )
    ax.axvline(result.votes, color="black", lw=0.8, ls=":", label=f"now: {result.votes:,} votes")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.set_xlabel("human votes (spread over the pairs of models as now)")
    ax.set_ylabel("pairs expected to be separated")
    if pairs:
        ax.set_ylim(-0.02 * pairs, pairs * 1.02)
    ax.grid(color="0.92", lw=0.6)
    fig.legend(loc="outside lower center", fontsize=8, frameon=False, ncols=3)
    return fig
