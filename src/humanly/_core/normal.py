"""The normal quantiles the analyses' CLT intervals use, from the standard library (Wichura's AS 241,
within 2e-15 of ``scipy.special.ndtri``), so that an analysis needs no scipy to draw an interval.

>>> round(z_value(0.95), 6)
1.959964
"""

from __future__ import annotations

from statistics import NormalDist

__all__ = ["z_value"]


def z_value(level: float) -> float:
    """The two-sided normal quantile of a ``level`` interval (1.959964… for 0.95)."""
    return NormalDist().inv_cdf(1.0 - (1.0 - level) / 2.0)
