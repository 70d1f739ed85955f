"""Argument checks for the public functions: one clear sentence that names the Python parameter.

Every check raises :class:`~humanly.errors.InputError` (a ``ValueError``) for a value of the right
type but outside its range, and ``TypeError`` for a value of the wrong type (``None`` where a number is
needed, a string for an integer, a float with a fraction for a count). Messages name the parameter as a
Python caller writes it (``alpha=1.5``); the command line translates those names to its flags in one
place (``humanly.cli``), so the same check serves both.

>>> check_probability("alpha", 0.05, open_low=True, open_high=True)
0.05
>>> check_int("bootstrap", 200, minimum=0)
200
>>> check_int("n", 1.5)
Traceback (most recent call last):
...
TypeError: n=1.5: give a whole number
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from ..errors import InputError, setting

__all__ = [
    "MIN_BOOTSTRAP",
    "check_bootstrap",
    "check_choice",
    "check_int",
    "check_memory",
    "check_number",
    "check_probability",
    "check_seed",
    "show_value",
]

T = TypeVar("T")


def show_value(value: Any) -> str:
    """A value as an error message shows it (``4``, not ``np.int64(4)``).

    >>> import numpy as np
    >>> show_value(np.int64(4)), show_value("a")
    ('4', "'a'")
    """
    return repr(value.item() if hasattr(value, "item") and not isinstance(value, str) else value)


def named(name: str, value: Any) -> str:
    """``name=value`` for an :class:`~humanly.errors.InputError` message: a string as text (the command
    line shows ``--name value``), anything else as :func:`show_value` writes it."""
    if isinstance(value, str):
        return setting(name, value)
    return setting(name, show_value(value), raw=True)


def check_number(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    open_low: bool = False,
    open_high: bool = False,
    allow_none: bool = False,
) -> Any:
    """A finite real number within ``[minimum, maximum]`` (ends excluded when ``open_*``)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}={show_value(value)}: give a number")
    x = float(value)
    if not math.isfinite(x):
        raise InputError(f"{named(name, value)}: give a finite number")
    low_bad = minimum is not None and (x <= minimum if open_low else x < minimum)
    high_bad = maximum is not None and (x >= maximum if open_high else x > maximum)
    if low_bad or high_bad:
        lo = "(" if open_low else "["
        hi = ")" if open_high else "]"
        lo_s = "-inf" if minimum is None else f"{minimum:g}"
        hi_s = "inf" if maximum is None else f"{maximum:g}"
        raise InputError(f"{named(name, value)}: give a value in {lo}{lo_s}, {hi_s}{hi}")
    return value


def check_probability(
    name: str, value: Any, *, open_low: bool = False, open_high: bool = False
) -> Any:
    """A probability in [0, 1] (ends excluded when ``open_*``)."""
    return check_number(
        name, value, minimum=0.0, maximum=1.0, open_low=open_low, open_high=open_high
    )


def check_int(
    name: str,
    value: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    allow_none: bool = False,
) -> Any:
    """A whole number (an ``int``, or a float without a fraction) within ``[minimum, maximum]``."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}={show_value(value)}: give a whole number")
    if not isinstance(value, numbers.Integral):
        x = float(value)
        if not math.isfinite(x) or x != math.floor(x):
            raise TypeError(f"{name}={show_value(value)}: give a whole number")
        value = int(x)
    v = int(value)
    if minimum is not None and v < minimum:
        raise InputError(f"{setting(name, v)}: give a whole number ≥ {minimum}")
    if maximum is not None and v > maximum:
        raise InputError(f"{setting(name, v)}: give a whole number ≤ {maximum}")
    return v


def check_seed(name: str, value: Any) -> Any:
    """A seed: ``None``, a non-negative whole number, or a ``numpy.random.Generator``."""
    if value is None:
        return None
    if isinstance(value, np.random.Generator):
        return value
    return check_int(name, value, minimum=0)


def check_choice(name: str, value: T, choices: Sequence[T]) -> T:
    """One of ``choices``."""
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise InputError(f"{named(name, value)}: use one of {listed}")
    return value


#: The fewest bootstrap replicates behind an interval: with fewer, the 2.5 % and 97.5 % percentiles are
#: the sample's extremes (or one replicate), not an interval.
MIN_BOOTSTRAP = 100


#: The most memory one array may take before it is refused (bytes): a quarter of the machine's memory,
#: at most 16 GiB (8 GiB when the machine's memory is unknown).
def _memory_limit() -> int:
    try:
        total = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        return 8 * 2**30
    return int(min(total // 4, 16 * 2**30))


def _size(n_bytes: float) -> str:
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes / 2**10:.1f} KiB"


def check_memory(what: str, n_bytes: float, fix: str) -> None:
    """Refuse, before allocating, an array of ``n_bytes`` above the memory limit (one sentence).

    >>> check_memory("bootstrap=10**12", 24 * 10**12, "give at most 10000 replicates")
    Traceback (most recent call last):
    ...
    humanly.errors.InputError: bootstrap=10**12 needs 21.8 TiB of memory, more than this machine \
allows (...); give at most 10000 replicates
    """
    limit = _memory_limit()
    if n_bytes > limit:
        raise InputError(
            f"{what} needs {_size(n_bytes)} of memory, more than this machine allows "
            f"({_size(limit)}); {fix}"
        )


def check_bootstrap(value: Any, *, name: str = "bootstrap", bytes_per_replicate: int = 0) -> int:
    """A bootstrap count: 0 (no intervals) or at least :data:`MIN_BOOTSTRAP`; with
    ``bytes_per_replicate``, one whose replicates fit in memory (refused before allocating).

    >>> check_bootstrap(0), check_bootstrap(1000)
    (0, 1000)
    >>> check_bootstrap(5)
    Traceback (most recent call last):
    ...
    humanly.errors.InputError: bootstrap=5: give 0 (no intervals) or at least 100 replicates; \
fewer cannot carry a 95% interval
    """
    b = int(check_int(name, value, minimum=0))
    if 0 < b < MIN_BOOTSTRAP:
        raise InputError(
            f"{setting(name, b)}: give 0 (no intervals) or at least {MIN_BOOTSTRAP} replicates; fewer "
            "cannot carry a 95% interval"
        )
    if bytes_per_replicate:
        most = max(MIN_BOOTSTRAP, _memory_limit() // bytes_per_replicate)
        check_memory(
            f"{setting(name, b)}", float(b) * bytes_per_replicate, f"give at most {most} replicates"
        )
    return b
