"""Figures of the ratings themselves (the report's Data section)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..summary import RatingsSummary
from ._style import COLUMN_WIDTH, figure

__all__ = ["data_overview"]


def data_overview(summary: RatingsSummary) -> Any:
    """Two panels: how many labels each item received, and the class balance of all labels."""
    fig, (left, right) = figure(width=2 * COLUMN_WIDTH, height=2.2, ncols=2)
    hist = summary.labels_per_item["histogram"]
    ks = np.array([int(k) for k in hist])
    left.bar(ks, [hist[str(k)] for k in ks], width=0.8, color="#4c72b0")
    left.set_xlabel("labels per item")
    left.set_ylabel("items")
    names = list(summary.class_frequencies)
    right.barh(np.arange(len(names)), list(summary.class_frequencies.values()), color="#55a868")
    right.set_yticks(np.arange(len(names)), names)
    right.invert_yaxis()
    right.set_xlabel("share of labels")
    return fig
