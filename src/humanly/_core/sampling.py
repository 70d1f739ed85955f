"""Sampling probabilities of an active design (Zrnic & Candès 2024), shared by the analyses that pick
what to send to human raters next (``judging`` picks items, ``ranking`` comparisons).

Given a score u ≥ 0 per candidate (the square root of the expected squared error of the judge-assisted
estimate were it labelled), each candidate is sent with probability

    π_active = min(cap, κ·u),   Σ π_active = budget   (water-filling)
    π = (1 − mixing)·π_active + mixing·budget / pool

so the expected number sent is ``budget``, and the uniform share keeps every weight 1/π bounded.

>>> p = probabilities(np.array([0.0, 1.0, 3.0]), 1.5, mixing=0.5, cap=0.9)
>>> round(float(p.sum()), 12), bool(p[2] > p[1] > p[0] > 0)
(1.5, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "MIN_PROBABILITY",
    "checked_budget",
    "draw",
    "probabilities",
    "selected_ids",
    "selection_frame",
    "selection_series",
    "water_fill",
]

#: the smallest sampling probability: the smallest normal float, so that every weight 1/π is finite
MIN_PROBABILITY = float(np.finfo(float).tiny)


def water_fill(u: np.ndarray, budget: float, cap: float) -> np.ndarray:
    """π = min(cap, κ·u) with Σ π = budget (candidates with u = 0 share what the others cannot take)."""
    n = len(u)
    positive = u > 0
    if not positive.any():
        return np.full(n, budget / n)
    if cap * positive.sum() <= budget:
        rest = (budget - cap * positive.sum()) / max(int((~positive).sum()), 1)
        return np.where(positive, cap, rest)
    s = np.sort(u)[::-1]
    suffix = np.cumsum(s[::-1])[::-1]
    k = np.arange(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (budget - k * cap) / suffix
        valid = (suffix > 0) & (kappa * s <= cap * (1 + 1e-12))
    return np.minimum(cap, kappa[int(np.argmax(valid))] * u)


def probabilities(u: np.ndarray, budget: float, *, mixing: float, cap: float) -> np.ndarray:
    """Each candidate's probability of being sent, from its score ``u`` (see the module docstring);
    with a positive ``mixing`` every π is at least :data:`MIN_PROBABILITY`."""
    pi = (1 - mixing) * water_fill(u, budget, cap) + mixing * (budget / len(u))
    if mixing > 0:
        # a tiny (subnormal) mixing would make the uniform share underflow to 0, or to a subnormal
        # whose 1/π overflows: a positive mixing promises every candidate a π whose weight is finite
        pi = np.maximum(pi, MIN_PROBABILITY)
    return pi


def checked_budget(budget: object, cap: float, pool: int, what: str, name: str = "budget") -> float:
    """``budget`` as a float, checked: positive, and at most ``cap`` × ``pool`` (one sentence naming
    the limit otherwise; ``what`` finishes it, e.g. "items; lower the budget"). ``name`` is the
    caller's parameter (``expected_items`` in the judge's ``select``).

    >>> checked_budget(10, 0.9, 100, "items")
    10.0
    """
    from .checks import check_number

    b = float(check_number(name, budget, minimum=0, open_low=True))
    if b > cap * pool:
        from ..errors import InputError

        raise InputError(f"{name}={b:g}: more than max_probability × pool = {cap * pool:g} {what}")
    return b


def draw(pi: np.ndarray, seed: int | None) -> np.ndarray:
    """Send each candidate with its probability: 1 (sent) or 0, drawn from ``rng.stream(seed, 0)``
    over the candidates in their (canonical) order.

    >>> draw(np.array([0.0, 1.0]), 0).tolist()
    [0, 1]
    """
    from .rng import stream

    return (stream(seed, 0).random(len(pi)) < pi).astype(np.int64)


# --------------------------------------------------------------------- a selection's views, shared
def selection_series(ids: Sequence[Any], probability: np.ndarray) -> Any:
    """Each candidate's probability as a pandas Series indexed by its id (what the analyses take back
    as the active design's probabilities).

    >>> selection_series(("a", "b"), np.array([0.3, 0.7])).to_dict()
    {'a': 0.3, 'b': 0.7}
    """
    import pandas as pd

    return pd.Series(np.asarray(probability, dtype=float), index=pd.Index(ids), name="probability")


def selected_ids(ids: Sequence[Any], selected: np.ndarray) -> tuple[Any, ...]:
    """The ids of the candidates drawn (``selected`` 1), in the order given.

    >>> selected_ids(("a", "b"), np.array([0, 1]))
    ('b',)
    """
    return tuple(i for i, s in zip(ids, np.asarray(selected), strict=True) if s)


def selection_frame(key: str, ids: Sequence[Any], probability: np.ndarray, selected: np.ndarray):
    """One row per candidate: ``key`` (its id), ``probability``, ``selected``.

    >>> selection_frame("item", ("a",), np.array([0.5]), np.array([1])).to_dict("list")
    {'item': ['a'], 'probability': [0.5], 'selected': [True]}
    """
    import pandas as pd

    return pd.DataFrame(
        {
            key: list(ids),
            "probability": np.asarray(probability, dtype=float),
            "selected": np.asarray(selected).astype(bool),
        }
    )
