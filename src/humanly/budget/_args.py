"""Argument checks shared by the budget functions, built on :mod:`humanly._core.checks`.

Each names the Python parameter (``budget=0: give a whole number ≥ 1``); the command line rewrites
``name=`` into its flag in one place. Two kinds of tie have their own names and choices:

* ``vote_ties`` — a tied *vote* among an even number m of labels: ``"coin"`` (a fair coin picks the
  label) or ``"failure"`` (the label counts as wrong, the paper's Lemma C.1);
* ``ties`` — a tied *comparison*, ΣG = 0: ``"loss"`` (c_b is not identified, the paper) or
  ``"half"`` (half credit).

>>> check_ms((1, 3, 5))
(1, 3, 5)
>>> check_ms(3), check_ties("half"), check_vote_ties("coin")
((3,), 'half', 'coin')
>>> check_ms(1.5)
Traceback (most recent call last):
...
TypeError: labels_per_item=1.5: give a whole number
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

import numpy as np

from .._core.checks import check_choice, check_int, check_number, check_probability
from ..errors import InputError, setting

__all__ = [
    "TIES",
    "VOTE_TIES",
    "Ties",
    "VoteTies",
    "check_accuracy",
    "check_budget",
    "check_level",
    "check_ms",
    "check_n",
    "check_ties",
    "check_vote_ties",
    "items_for_budget",
]

#: A tied comparison ΣG = 0: counts as a loss (the paper) or as half a win.
Ties = Literal["loss", "half"]
#: A tied vote among an even number of labels: broken by a fair coin, or counted as a wrong label.
VoteTies = Literal["coin", "failure"]
TIES: tuple[Ties, ...] = ("loss", "half")
VOTE_TIES: tuple[VoteTies, ...] = ("coin", "failure")


def check_ties(ties: Any) -> Ties:
    """``ties`` is ``"loss"`` or ``"half"``."""
    return cast("Ties", check_choice("ties", ties, TIES))


def check_vote_ties(vote_ties: Any) -> VoteTies:
    """``vote_ties`` is ``"coin"`` or ``"failure"``."""
    return cast("VoteTies", check_choice("vote_ties", vote_ties, VOTE_TIES))


def check_ms(m: Any, name: str = "labels_per_item", minimum: int = 1) -> tuple[int, ...]:
    """Labels per item: one whole number ≥ ``minimum`` or a non-empty sequence of them."""
    if isinstance(m, (str, bytes)):
        raise TypeError(
            f"{name}={m!r}: give whole numbers of labels per item, e.g. {name}=(1, 3, 5)"
        )
    if isinstance(m, Sequence) or isinstance(m, np.ndarray):
        values = tuple(m)
    else:
        values = (m,)
    if not values:
        raise InputError(
            f"{name}=(): give at least one number of labels per item, e.g. {name}=(1, 3)"
        )
    return tuple(check_int(name, v, minimum=minimum) for v in values)


def check_budget(budget: Any, name: str = "budget", *, allow_none: bool = False) -> Any:
    """A label budget: a whole number ≥ 1 (or ``None`` when allowed)."""
    return check_int(name, budget, minimum=1, allow_none=allow_none)


def check_level(level: Any, name: str = "level") -> tuple[float, float]:
    """A target probability ``level`` in (0, 1) and the error δ = 1 − level it leaves, rounded to 12
    decimals so that ``level=0.95`` gives δ = 0.05 exactly (the budgets of the paper's δ).

    >>> check_level(0.95), check_level(0.9)
    ((0.95, 0.05), (0.9, 0.1))
    """
    value = float(check_probability(name, level, open_low=True, open_high=True))
    delta = round(1.0 - value, 12)
    if not 0.0 < delta < 1.0:
        raise InputError(f"{setting(name, value)}: give a probability between 1e-12 and 1 − 1e-12")
    return value, delta


def check_n(n: Any, name: str = "n", minimum: int = 0) -> int:
    """A number of items: a whole number ≥ ``minimum``."""
    return int(check_int(name, n, minimum=minimum))


def check_accuracy(
    name: str, value: Any, low: float, high: float, *, open_low: bool = False
) -> float:
    """A finite number in ``[low, high]`` (``(low, high]`` with ``open_low``), with a message that states
    the condition, e.g. ``eps=0.3: give a value with eps ∈ (0, 0.2]``."""
    x = float(check_number(name, value))
    # the bound is often computed (eps ≤ 1 − p): 1 − 0.9 is 0.09999999999999998 in floating point,
    # and eps = 0.1 with p = 0.9 (p + eps = 1 exactly in decimals) must not be refused for it
    if (x <= low if open_low else x < low) or x > high + 1e-12:
        left = "(" if open_low else "["
        raise InputError(
            f"{setting(name, format(x, 'g'), raw=True)}: give a value with {name} ∈ {left}{low:g}, {high:g}]"
        )
    return x


def items_for_budget(budget: int, m: int) -> int:
    """n = ⌊budget/m⌋ items; an error naming both when not even one item can be labelled."""
    n = budget // m
    if n < 1:
        raise InputError(
            f"{setting('budget', budget)} is smaller than {setting('labels_per_item', m)}: no item can "
            "be labelled"
        )
    return n
