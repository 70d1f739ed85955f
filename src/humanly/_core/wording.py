"""Wording shared by error messages (raised in the analyses) and notes (written by the verdicts floor):
sizes, durations and the agreement family's memory budget, in the same words on both sides. Pure
Python: the floor imports it without numpy."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["agreement_memory_text", "bytes_text", "duration_text"]


def bytes_text(n: float) -> str:
    """A size in words.

    >>> bytes_text(1.5 * 2**30), bytes_text(12 * 2**20), bytes_text(800)
    ('1.5 GiB', '12 MiB', '800 bytes')
    """
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} bytes"


def duration_text(seconds: float) -> str:
    """A duration in words.

    >>> duration_text(30), duration_text(600), duration_text(7200)
    ('30 s', '10 min', '2.0 h')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def agreement_memory_text(values: Mapping[str, float], cause: str) -> str:
    """Why the agreement family's tables do not fit the memory budget (``cause``:
    ``too_many_values`` or ``too_many_patterns``; ``values``: ``need``, ``memory`` and ``values`` or
    ``patterns`` and ``classes``).

    >>> text = agreement_memory_text({"values": 9000, "need": 2**31, "memory": 2**30}, "too_many_values")
    >>> text[:58]
    '9,000 distinct values would need q × q tables of 2 GiB, ov'
    """
    v = values
    if cause == "too_many_values":
        what = f"{int(v['values']):,} distinct values would need q × q tables of"
    else:
        what = (
            f"{int(v['patterns']):,} distinct label patterns × {int(v['classes']):,} classes "
            "would need"
        )
    return (
        f"{what} {bytes_text(v['need'])}, over the memory budget of {bytes_text(v['memory'])} "
        "(AgreementOptions.memory)"
    )
