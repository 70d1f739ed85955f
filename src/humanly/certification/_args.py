"""Argument checks shared by :func:`~humanly.certification.certify` and
:func:`~humanly.certification.certify_summary`: one sentence naming the Python parameter (``level=1.5: give
a value in (0, 1)``), ``InputError`` for a value out of range and ``TypeError`` for a wrong type, through
:mod:`humanly._core.checks`.

>>> settings(bound="hoeffding", level=0.95, options=None).delta
0.025
>>> settings(bound="hoeffding", level=1.5, options=None)
Traceback (most recent call last):
...
humanly.errors.InputError: level=1.5: give a value in (0, 1)
"""

from __future__ import annotations

from typing import Any

from .._core.checks import check_choice, check_number, check_probability
from ._bounds import BOUND_NAMES
from .certificate import Settings, failure
from .options import CertifyOptions

__all__ = ["AGGREGATES", "RATER_MODES", "UPPER_KINDS", "checked_options", "failure", "settings"]

#: how the crowd is read (``raters=``)
RATER_MODES = ("slots", "named")
#: which upper bound is U_N (``upper=`` in certify, ``upper_kind=`` in certify_summary)
UPPER_KINDS = ("empirical", "theoretical")
#: aggregate labels for L_N (``aggregate=``): the plurality, the soft label distribution (``soft``),
#: the rater-weighted soft distribution (``weighted``), or each item's most probable Dawid–Skene label
AGGREGATES = ("plurality", "soft", "weighted", "dawid_skene")


def checked_options(options: Any) -> CertifyOptions:
    """``options`` itself (its fields are checked when it is made), or the defaults for ``None``;
    ``TypeError`` for anything else.

    >>> checked_options(None).curve_subsets
    50
    """
    if options is None:
        return CertifyOptions()
    if not isinstance(options, CertifyOptions):
        raise TypeError(
            f"options={type(options).__name__}: give a humanly.certification.CertifyOptions "
            "(or leave it out)"
        )
    return options


def settings(*, bound: Any, level: Any, options: CertifyOptions | None, tau: Any = 0.0) -> Settings:
    """The checked verdict settings: ``delta`` defaults to (1 − ``level``)/2; ``tau`` is a margin in
    [0, 1)."""
    check_choice("bound", bound, BOUND_NAMES)
    level = float(check_probability("level", level, open_low=True, open_high=True))
    opts = checked_options(options)
    delta = failure(level) / 2 if opts.delta is None else float(opts.delta)
    check_number("tau", tau, minimum=0.0, maximum=1.0, open_high=True)
    return Settings(
        bound=bound,
        level=level,
        delta=delta,
        t_u=opts.t_u,
        t_l=opts.t_l,
        oms_steps=opts.oms_steps,
        oms_lr=opts.oms_lr,
        tau=float(tau),
    )
