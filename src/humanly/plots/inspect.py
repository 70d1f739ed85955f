"""Figures of the ratings themselves (the report's Data section): how many labels the items received and
the class balance, and — with named raters — each rater's agreement with the rest of the crowd beside
their Dawid–Skene accuracy. Each function draws a result of :func:`humanly.inspect` and returns a
matplotlib Figure; nothing here computes a statistic."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..crowd.inspect import InspectResult
from ..crowd.raters import RaterSummary
from ..data import InputError
from .style import FIGURE_WIDTH, PALETTE, figure

__all__ = ["data_overview", "rater_quality"]

#: marker area (pt²) of the rater with the most labels; the others scale by √(labels / most labels)
_MAX_AREA = 120.0
_MIN_AREA = 6.0


def data_overview(summary: InspectResult) -> Any:
    """Two panels, 461 pt wide: how many labels each item received (bars: items), and the share of all
    labels in each class (labelled with the percentage).

    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 2]], classes=["no", "yes"])
    >>> len(data_overview(humanly.inspect(r, bootstrap=0)).axes)
    2
    """
    fig, (left, right) = figure(width=FIGURE_WIDTH, height=2.6, ncols=2)
    hist = summary.labels_per_item.histogram or {}
    ks = np.array([int(k) for k in hist])
    left.bar(ks, [hist[str(k)] for k in ks], width=0.8, color=PALETTE[0])
    left.set_xlabel("labels per item")
    left.set_ylabel("items")
    if len(ks) <= 12:
        left.set_xticks(ks)
    if len(ks) and ks.max() - ks.min() < 4:  # a few numbers of labels: bars of a readable width
        left.set_xlim(ks.min() - 2, ks.max() + 2)
    left.yaxis.set_major_formatter(lambda v, _: f"{v:,.0f}")
    names = list(summary.class_frequencies)
    shares = list(summary.class_frequencies.values())
    y = np.arange(len(names))
    right.barh(y, shares, color=PALETTE[2])
    right.set_yticks(y, names)
    right.invert_yaxis()
    right.set_xlim(0, 1.18)  # room for the percentages right of the bars
    right.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0", "25%", "50%", "75%", "100%"])
    for yi, share in zip(y, shares, strict=True):
        right.text(share + 0.02, yi, f"{share:.1%}", va="center", fontsize=9)
    right.set_xlabel("share of all labels")
    return fig


def _size_legend(ax: Any, most: int, least: int) -> list[Any]:
    """Legend handles for two or three marker sizes (labels given), from the smallest to the largest."""
    steps = sorted({least, round(math.sqrt(least * most)), most})
    return [
        ax.scatter([], [], s=_area(n, most), color=PALETTE[0], alpha=0.55, label=f"{n:,} labels")
        for n in steps
    ]


def _area(n: Any, most: int) -> Any:
    return np.maximum(_MAX_AREA * np.sqrt(np.asarray(n, dtype=float) / max(most, 1)), _MIN_AREA)


def rater_quality(raters: RaterSummary) -> Any:
    """Each named rater's agreement with the plurality of the other labels of their items (points
    sized by the labels they gave), raters sorted by it, with the crowd's mean over labels as a
    labelled horizontal line and, where it was fitted, each rater's Dawid–Skene accuracy as a second
    marker. Raters with no compared label are left out (their agreement is undefined).

    >>> import humanly
    >>> r = humanly.Ratings.from_long(list("aabbcc"), list("uvuvuw"), [0, 0, 1, 0, 1, 1])
    >>> len(rater_quality(humanly.inspect(r, bootstrap=0).raters).axes)
    1
    """
    rows = sorted(
        (r for r in raters.rows if r.agreement is not None),
        key=lambda r: (r.agreement, -r.n_labels),
    )
    if not rows:
        raise InputError("no rater has a label on an item with another label: nothing to draw")
    fig, ax = figure(width=FIGURE_WIDTH, height=3.4)
    x = np.arange(1, len(rows) + 1)
    n_labels = np.array([r.n_labels for r in rows])
    most, least = int(n_labels.max()), int(n_labels.min())
    ax.scatter(
        x,
        [r.agreement for r in rows],
        s=_area(n_labels, most),
        color=PALETTE[0],
        alpha=0.55,
        linewidths=0,
        label="agreement with the others' plurality",
        zorder=3,
    )
    ds = [(xi, r.dawid_skene_accuracy) for xi, r in zip(x, rows, strict=True)]
    ds = [(xi, v) for xi, v in ds if v is not None]
    if ds:
        ax.scatter(
            *zip(*ds, strict=True),
            s=14,
            marker="x",
            color=PALETTE[1],
            linewidths=1,
            label="Dawid–Skene accuracy",
            zorder=4,
        )
    if raters.crowd_agreement is not None:
        ax.axhline(
            raters.crowd_agreement,
            color="black",
            lw=1,
            ls="--",
            label=f"crowd agreement {raters.crowd_agreement:.3f} (mean over labels)",
            zorder=2,
        )
    ax.set_xlim(0, len(rows) + 1)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"raters, sorted by agreement ({len(rows):,} with a compared label)")
    ax.set_ylabel("agreement / accuracy")
    ax.grid(axis="y", color="0.9", lw=0.6, zorder=0)
    handles, _ = ax.get_legend_handles_labels()
    sizes = _size_legend(ax, most, least)
    # legend below the axes, never over the data: the series on the first row, the sizes on the
    # second (matplotlib fills a legend column by column)
    ncol = max(len(handles), len(sizes))
    grid = [handles + [None] * (ncol - len(handles)), sizes + [None] * (ncol - len(sizes))]
    ordered = [h for col in zip(*grid, strict=True) for h in col if h is not None]
    fig.legend(handles=ordered, loc="outside lower center", ncol=ncol, frameon=False, fontsize=9)
    return fig
