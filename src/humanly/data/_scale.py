"""The measurement scale of ratings (``nominal``, ``ordinal``, ``interval``, ``ratio``), checked
against their classes."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["SCALES", "check_scale"]

#: The measurement scales (levels of measurement) a ratings' labels may be on, least structure first.
SCALES: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")


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
        raise InputError(f"scale={scale!r}: give one of {', '.join(SCALES)}")
    if scale == "nominal":
        return scale
    values = [_number(c) for c in classes]
    numeric = sum(v is not None for v in values)
    where = f"{source}: " if source else ""
    words = ", ".join(repr(c) for c in classes[:4]) + (", …" if len(classes) > 4 else "")
    if scale in ("interval", "ratio") and numeric < len(classes):
        raise InputError(
            f"{where}scale={scale!r} needs numeric labels, but the classes ({words}) are not all "
            "numbers; use scale='ordinal' for ordered categories"
        )
    if scale == "ordinal" and 0 < numeric < len(classes):
        raise InputError(
            f"{where}scale='ordinal': the classes ({words}) mix numbers and words, so no order "
            "follows; declare the classes in order (classes=) with labels of one kind"
        )
    if scale == "ratio" and any(v is not None and v < 0 for v in values):
        raise InputError(
            f"{where}scale='ratio' needs values ≥ 0, but a class is negative; use scale='interval'"
        )
    return str(scale)
