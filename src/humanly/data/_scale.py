"""The measurement scale of ratings (``nominal``, ``ordinal``, ``interval``, ``ratio``), checked
against their classes; :func:`on_scale` puts ratings read from a file on their scale (ordinal word
classes need their order declared)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, setting

if TYPE_CHECKING:
    from .ratings import Ratings

__all__ = ["SCALES", "check_scale", "on_scale"]

#: The measurement scales (levels of measurement) a ratings' labels may be on, least structure first.
SCALES: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")

#: Classes listed lowest first, as an example.
EXAMPLE_ORDER = "['low', 'mid', 'high']"


def _number(value: Any) -> float | None:
    """A class's numeric value (numbers, or strings that read as numbers), ``None`` otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def check_scale(scale: Any, classes: tuple[Any, ...], source: str | None) -> str:
    """The scale, checked against the classes (one sentence naming ``scale`` otherwise)."""
    if scale not in SCALES:
        raise InputError(f"{setting('scale', scale)}: give one of {', '.join(SCALES)}")
    if scale == "nominal":
        return scale
    values = [_number(c) for c in classes]
    numeric = sum(v is not None for v in values)
    where = f"{source}: " if source else ""
    words = ", ".join(repr(c) for c in classes[:4]) + (", …" if len(classes) > 4 else "")
    if scale in ("interval", "ratio") and numeric < len(classes):
        raise InputError(
            f"{where}{setting('scale', scale)} needs numeric labels, but the classes ({words}) are not all "
            f"numbers; use {setting('scale', 'ordinal')} for ordered categories"
        )
    if scale == "ordinal" and 0 < numeric < len(classes):
        raise InputError(
            f"{where}{setting('scale', 'ordinal')}: the classes ({words}) mix numbers and words, so no order "
            f"follows; declare the classes in order ({setting('classes')}) with labels of one kind"
        )
    if scale == "ratio" and any(v is not None and v < 0 for v in values):
        raise InputError(
            f"{where}{setting('scale', 'ratio')} needs values ≥ 0, but a class is negative; use "
            f"{setting('scale', 'interval')}"
        )
    return str(scale)


def _declared(counts: Any) -> bool:
    """Whether a counts spec lists its classes in order (not a glob or a prefix: their classes come
    in the order of the file's columns)."""
    if counts is None:
        return False
    columns = getattr(counts, "columns", counts)  # a Counts, or its columns alone
    return not isinstance(columns, str) or "," in columns or "=" in columns


def on_scale(ratings: Ratings, scale: str, classes: Any, counts: Any = None) -> Ratings:
    """``ratings`` on ``scale``. An ordinal scale orders the classes as held; words have no order of
    their own (read, they are sorted alphabetically), so word classes need theirs declared with
    ``classes`` (or a counts spec that lists them); numbers keep their value order.

    >>> from humanly.data import InputError, Ratings
    >>> r = Ratings.from_long([1, 1, 2], ["u", "v", "u"], ["low", "high", "mid"])
    >>> try:
    ...     on_scale(r, "ordinal", None)
    ... except InputError as exc:
    ...     print(str(exc)[:61])
    scale='ordinal': the classes ('high', 'low', 'mid') are words
    >>> on_scale(r, "ordinal", ["low", "mid", "high"]).scale
    'ordinal'
    """
    if scale == "ordinal" and classes is None and not _declared(counts):
        words = [c for c in ratings.classes if _number(c) is None]
        if words:
            where = f"{ratings.source}: " if ratings.source else ""
            raise InputError(
                f"{where}{setting('scale', 'ordinal')}: the classes {tuple(ratings.classes)!r} are "
                "words, with no order of their own (read, they sort alphabetically); list them lowest "
                f"first with {setting('classes', EXAMPLE_ORDER, raw=True)}, or use "
                f"{setting('scale', 'nominal')}"
            )
    return ratings.with_scale(scale)
