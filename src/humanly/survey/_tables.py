"""Table helpers of the survey result types (:mod:`humanly.survey.results`): one row per dataclass with
its intervals as two columns, and the 1/√N rule behind ``items_needed``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_number

__all__ = ["check_width", "frame", "items_for_width"]


def frame(rows: tuple[Any, ...], columns: tuple[str, ...]) -> pd.DataFrame:
    """One row per dataclass in ``rows``, the given attributes as columns; an :class:`Interval`
    field ``x_interval`` becomes two columns ``x_low`` and ``x_high``."""
    records = []
    names: list[str] = []
    for r in rows:
        rec: dict[str, Any] = {}
        for c in columns:
            value = getattr(r, c)
            if c.endswith("_interval"):
                base = c.removesuffix("_interval")
                low, high = value if value is not None else (None, None)
                rec[f"{base}_low"], rec[f"{base}_high"] = low, high
            else:
                rec[c] = value
        records.append(rec)
    for c in columns:
        base = c.removesuffix("_interval")
        names += [f"{base}_low", f"{base}_high"] if c.endswith("_interval") else [c]
    return pd.DataFrame(records, columns=names)


def items_for_width(n_items: int, width: float | None, target: float) -> int | None:
    """Items needed to bring a range of width ``width`` (measured on ``n_items`` items) below
    ``target``, if the width shrinks as 1/√N (an approximation: ``n · (width / target)²``, rounded up;
    at least 1). ``None`` when the range is unbounded.

    >>> items_for_width(1000, 0.8, 0.4)
    4000
    """
    if width is None or not np.isfinite(width):
        return None
    return max(1, math.ceil(n_items * (width / target) ** 2 - 1e-9))


def check_width(width: Any) -> float:
    """``width`` as a positive float (an error naming ``width`` otherwise)."""
    return float(check_number("width", width, minimum=0.0, open_low=True))
