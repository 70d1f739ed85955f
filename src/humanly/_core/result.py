"""Base class for public result objects: frozen dataclasses that print and serialise.

Results are values (see DESIGN.md): the library never prints; the CLI and the report are views of these
objects. ``to_dict()`` returns plain JSON-ready Python (numpy scalars and arrays converted, non-finite
floats turned into ``None`` because JSON has no NaN).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

import numpy as np

__all__ = ["Interval", "Result", "jsonable"]


class Interval(NamedTuple):
    """A range ``[low, high]`` (a bootstrap or confidence interval); an end is ``None`` when it is
    undefined. A tuple, so ``low, high = interval`` works and JSON shows ``[low, high]``.

    >>> Interval(0.25, 0.75).width
    0.5
    """

    low: float | None
    high: float | None

    @property
    def width(self) -> float | None:
        """``high − low``, ``None`` when an end is undefined."""
        if self.low is None or self.high is None:
            return None
        return self.high - self.low


def jsonable(value: Any) -> Any:
    """Convert ``value`` recursively into JSON-serialisable Python objects.

    numpy scalars become Python scalars, arrays become (nested) lists, tuples become lists, dataclasses
    and :class:`Result` objects become dicts, and NaN/inf become ``None``.
    """
    if isinstance(value, Result):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        return f if math.isfinite(f) else None
    if value is None or isinstance(value, str):
        return value
    return str(value)


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, np.ndarray):
        if value.size <= 8:
            return np.array2string(value, precision=4, separator=", ")
        return f"array(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, (list, tuple)) and len(value) > 8:
        head = ", ".join(_short(v) for v in value[:3])
        return f"[{head}, ... ({len(value)} items)]"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_short(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    return repr(value)


class Result:
    """Mixin for frozen result dataclasses: ``to_dict()``, ``to_json()`` and a compact ``repr``.

    The JSON that ``--json`` prints is a contract: keys are added, never renamed or removed. When a field
    is renamed in Python, the old key stays in ``to_dict()`` through :attr:`json_aliases`
    (old key → new field name), so both keys carry the same value.
    """

    #: JSON keys kept for compatibility: old key → the field that now holds the value
    json_aliases: ClassVar[dict[str, str]] = {}

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready Python (what ``--json`` prints)."""
        assert dataclasses.is_dataclass(self)
        out = {f.name: jsonable(getattr(self, f.name)) for f in dataclasses.fields(self) if f.repr}
        for old, new in self.json_aliases.items():
            out.setdefault(old, jsonable(getattr(self, new)))
        return out

    def to_json(self, **kwargs: Any) -> str:
        """The result as a JSON string (``json.dumps(self.to_dict())``)."""
        return json.dumps(self.to_dict(), **kwargs)

    def __repr__(self) -> str:
        assert dataclasses.is_dataclass(self)
        parts = [
            f"{f.name}={_short(getattr(self, f.name))}" for f in dataclasses.fields(self) if f.repr
        ]
        return f"{type(self).__name__}({', '.join(parts)})"
