"""Argument checks shared by :func:`~humanly.certification.certify` and
:func:`~humanly.certification.certify_summary`: one sentence naming the Python parameter (``alpha=1.5: give a
value in (0, 1)``), ``InputError`` for a value out of range and ``TypeError`` for a wrong type, through
:mod:`humanly._core.checks`.

>>> settings(bound="hoeffding", alpha=0.05, delta=None, t_u=None, t_l=None).delta
0.025
>>> settings(bound="hoeffding", alpha=1.5, delta=None, t_u=None, t_l=None)
Traceback (most recent call last):
...
humanly.errors.InputError: alpha=1.5: give a value in (0, 1)
"""

from __future__ import annotations

from typing import Any

from .._core.checks import check_choice, check_int, check_number, check_probability
from ._bounds import BOUND_NAMES
from .certificate import Settings

__all__ = ["AGGREGATES", "RATER_MODES", "UPPER_KINDS", "settings"]

#: how the crowd is read (``raters=``)
RATER_MODES = ("slots", "named")
#: which upper bound is U_N (``upper=`` in certify, ``upper_kind=`` in certify_summary)
UPPER_KINDS = ("empirical", "theoretical")
#: aggregate labels for L_N (``aggregate=``): plurality, the soft label distribution (``soft``), the
#: rater-weighted soft distribution (``weighted``), or each item's most probable Dawid–Skene label
AGGREGATES = ("majority", "plurality", "weighted", "soft", "dawid-skene", "dawid_skene", "ds")


def settings(
    *,
    bound: Any,
    alpha: Any,
    delta: Any,
    t_u: Any,
    t_l: Any,
    oms_steps: Any = None,
    oms_lr: Any = None,
    tau: Any = 0.0,
) -> Settings:
    """The checked verdict settings; ``delta`` defaults to ``alpha / 2``; ``tau`` is a margin in
    [0, 1)."""
    check_choice("bound", bound, BOUND_NAMES)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    if delta is None:
        delta = alpha / 2
    else:
        delta = check_probability("delta", delta, open_low=True, open_high=True)
    for name, t in (("t_u", t_u), ("t_l", t_l)):
        check_number(name, t, minimum=0.0, open_low=True, allow_none=True)
    oms_steps = check_int("oms_steps", oms_steps, minimum=1, allow_none=True)
    check_number("oms_lr", oms_lr, minimum=0.0, open_low=True, allow_none=True)
    check_number("tau", tau, minimum=0.0, maximum=1.0, open_high=True)
    return Settings(
        bound=bound,
        alpha=alpha,
        delta=float(delta),
        t_u=None if t_u is None else float(t_u),
        t_l=None if t_l is None else float(t_l),
        oms_steps=oms_steps,
        oms_lr=None if oms_lr is None else float(oms_lr),
        tau=float(tau),
    )
