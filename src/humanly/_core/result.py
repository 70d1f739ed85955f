"""Base class for public result objects: frozen dataclasses that print and serialise.

Results are values (see DESIGN.md): the library never prints; the CLI and the report are views of these
objects. ``to_dict()`` returns plain JSON-ready Python (numpy scalars and arrays converted, non-finite
floats turned into ``None`` because JSON has no NaN).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "SKIP_REASONS",
    "Interval",
    "Note",
    "NoteValue",
    "Result",
    "Skipped",
    "from_jsonable",
    "jsonable",
]


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
    kind = type(value)
    if kind is str or value is None or kind is int or kind is bool:  # the common leaves, first
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":  # whole arrays at once
        if value.dtype.kind != "f" or np.isfinite(value).all():
            return value.tolist()
        cells = value.astype(object)
        cells[~np.isfinite(value)] = None
        return cells.tolist()
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
    """Mixin for frozen result dataclasses: ``to_dict()`` / ``from_dict()``, ``to_json()``, a compact
    ``repr`` and an HTML view for notebooks (``_repr_html_``).

    ``to_dict()`` holds every field whose ``repr`` is on (a field declared with ``repr=False`` is kept in
    memory only — bootstrap replicates, say — and must have a default); ``from_dict()`` rebuilds the
    object from it, reading the field types, so that ``type(r).from_dict(r.to_dict()).to_dict() ==
    r.to_dict()`` for every result. The JSON that ``--json`` prints is a contract from 0.1.0 on: keys
    are added, never renamed or removed (``tests/json_contract.json``).
    """

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready Python (what ``--json`` prints)."""
        assert dataclasses.is_dataclass(self)
        return {f.name: jsonable(getattr(self, f.name)) for f in dataclasses.fields(self) if f.repr}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """The result that ``to_dict()`` gave ``data`` (e.g. read back from a ``--json`` file).

        Raises
        ------
        TypeError
            If ``data`` is not a mapping, or a field's value does not fit its type.
        """
        return from_jsonable(cls, data)

    def to_json(self, **kwargs: Any) -> str:
        """The result as a JSON string (``json.dumps(self.to_dict())``)."""
        return json.dumps(self.to_dict(), **kwargs)

    def __repr__(self) -> str:
        assert dataclasses.is_dataclass(self)
        parts = [
            f"{f.name}={_short(getattr(self, f.name))}" for f in dataclasses.fields(self) if f.repr
        ]
        return f"{type(self).__name__}({', '.join(parts)})"

    def _repr_html_(self) -> str:
        """A notebook's view: the result's verdict sentences (those the command line prints), then a
        compact table — written by the verdicts floor, reached through :mod:`humanly._core.views`
        (results live on the floors below it)."""
        from .views import notebook_html

        return notebook_html(self)


#: The reason codes of :class:`Skipped` (the sentence of each is written by
#: :mod:`humanly.verdicts.study`).
SKIP_REASONS = (
    "input_error",
    "single_label_items",
    "two_classes_only",
    "no_predictions",
    "one_model",
)


@dataclasses.dataclass(frozen=True, repr=False)
class Skipped(Result):
    """An analysis that did not run, and why: a reason code and what its sentence needs (the
    sentence itself is written by :mod:`humanly.verdicts.study`).

    Parameters
    ----------
    analysis : str
        Its name (``"certify"``, ``"equivalence"``, ``"plan"``, ``"judge"``, ``"truth_equivalence"``,
        ``"pilot"``).
    reason : str
        One of :data:`SKIP_REASONS`: ``"input_error"`` (the analysis refused the input; ``error``
        holds its message), ``"single_label_items"`` (every item has a single label),
        ``"two_classes_only"`` (the analysis is for two classes; ``classes`` holds the data's),
        ``"no_predictions"`` or ``"one_model"`` (the pilot plan needs the predictions of two models).
    error : str or None
        With ``"input_error"``: the message of the :class:`~humanly.InputError` the analysis raised,
        as it raised it.
    classes : tuple of str
        With ``"two_classes_only"``: the data's classes.

    Examples
    --------
    >>> Skipped("plan", "two_classes_only", classes=("a", "b", "c")).reason
    'two_classes_only'
    """

    analysis: str
    reason: str
    error: str | None = None
    classes: tuple[str, ...] = ()


#: a value a :class:`Note` quotes: a number, a name, or whole numbers (survey sizes)
NoteValue = int | float | str | tuple[int, ...]


@dataclasses.dataclass(frozen=True, init=False, repr=False)
class Note(Result):
    """Something a reader of a result should know beside its numbers, as a code and the values its
    sentence needs (the sentence is written by :mod:`humanly.verdicts.notes`, the one voice).

    Parameters
    ----------
    code : str
        What the note says, in snake case (``"labels_per_item_vary"``, ``"curve_items_subset"``).
    values : mapping or pairs of str and int, float, str or tuple of int
        The numbers (and names) its sentence quotes, by name (``{"low": 8, "high": 36}``), held
        as a tuple of ``(name, value)`` pairs in the order given; JSON shows them as an object.
        Which names a code has is listed with its sentence in :mod:`humanly.verdicts.notes`.

    Examples
    --------
    >>> n = Note("labels_per_item_vary", {"low": 8, "high": 36})
    >>> n.value("high"), n.to_dict()
    (36, {'code': 'labels_per_item_vary', 'values': {'low': 8, 'high': 36}})
    """

    code: str
    values: tuple[tuple[str, NoteValue], ...]

    def __init__(
        self,
        code: str,
        values: Mapping[str, NoteValue] | collections.abc.Iterable[tuple[str, NoteValue]] = (),
    ) -> None:
        pairs = values.items() if isinstance(values, Mapping) else values
        held = tuple((str(k), tuple(v) if isinstance(v, list) else v) for k, v in pairs)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "values", held)

    def value(self, name: str) -> NoteValue:
        """The value called ``name`` (a ``KeyError`` when the note has none)."""
        for key, v in self.values:
            if key == name:
                return v
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """``{"code": ..., "values": {name: value, ...}}``."""
        return {"code": self.code, "values": {k: jsonable(v) for k, v in self.values}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Note:
        """The note that :meth:`to_dict` gave ``data``."""
        if not isinstance(data, Mapping) or not isinstance(data.get("code"), str):
            raise TypeError(f"a note is an object with a code, got {data!r}")
        values = data.get("values") or {}
        return cls(data["code"], {str(k): from_jsonable(NoteValue, v) for k, v in values.items()})

    def __repr__(self) -> str:
        return f"Note({self.code!r}, {dict(self.values)!r})"


# ----------------------------------------------------------------------------------------- from_dict
def _hints(cls: type) -> dict[str, Any]:
    cached = _HINTS.get(cls)
    if cached is None:
        cached = typing.get_type_hints(cls)
        _HINTS[cls] = cached
    return cached


_HINTS: dict[type, dict[str, Any]] = {}


def from_jsonable(kind: Any, value: Any) -> Any:
    """``value`` (plain JSON-ready Python, as :func:`jsonable` makes it) as an object of type ``kind``:
    dataclasses field by field, ``NamedTuple`` from lists, tuples, dicts, unions with ``None``,
    ``Literal``, numpy arrays (float, or int when every entry is a whole number), and ``None`` back to
    NaN where the type is ``float``. The inverse of :func:`jsonable` for the types results use."""
    if kind is Any or kind is object:
        return value
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        errors = []
        for option in options:
            try:
                return from_jsonable(option, value)
            except (TypeError, ValueError, KeyError) as exc:
                errors.append(str(exc))
        raise TypeError(f"{value!r} fits none of {kind}: {'; '.join(errors)}")
    if origin is typing.Literal:
        return value
    if origin in (tuple, collections.abc.Sequence) or kind is tuple:
        if value is None:
            raise TypeError(f"None where a {kind} was expected")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v) for v in value)
        if args and origin is tuple:
            return tuple(from_jsonable(a, v) for a, v in zip(args, value, strict=True))
        return tuple(value)
    if origin is list:
        return [from_jsonable(args[0] if args else Any, v) for v in value]
    if origin in (dict, collections.abc.Mapping) or kind is dict:
        key_type, item_type = args if args else (Any, Any)
        return {from_jsonable(key_type, k): from_jsonable(item_type, v) for k, v in value.items()}
    if isinstance(kind, type):
        return _instance(kind, value)
    return value


def _instance(kind: type, value: Any) -> Any:
    if dataclasses.is_dataclass(kind):
        if not isinstance(value, Mapping):
            raise TypeError(f"{kind.__name__}: expected an object, got {type(value).__name__}")
        custom = getattr(kind, "from_dict", None)
        own = getattr(custom, "__func__", None)
        if own is not None and own is not Result.from_dict.__func__:  # type: ignore[attr-defined]
            return custom(value)  # type: ignore[misc]
        hints = _hints(kind)
        given = {}
        for f in dataclasses.fields(kind):
            if f.name in value and f.init:
                given[f.name] = from_jsonable(hints.get(f.name, Any), value[f.name])
        return kind(**given)
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):  # NamedTuple
        hints = typing.get_type_hints(kind)
        items = value.values() if isinstance(value, Mapping) else value
        return kind(
            *(from_jsonable(hints.get(n, Any), v) for n, v in zip(kind._fields, items, strict=True))
        )
    if issubclass(kind, tuple):  # a typed tuple subclass, e.g. ``class Curve(tuple[Point, ...])``
        bases = [b for b in getattr(kind, "__orig_bases__", ()) if typing.get_origin(b) is tuple]
        if bases:
            return kind(from_jsonable(bases[0], value))
        return kind(value)
    if kind is float:
        if value is None:
            return math.nan
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"expected a number, got {value!r}")
        return value  # an int stays an int (a whole number held in a float field prints as one)
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected a whole number, got {value!r}")
        return value
    if kind is bool:
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {value!r}")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {value!r}")
        return value
    if kind is np.ndarray:
        if value is None:
            raise TypeError("None where an array was expected")
        arr = np.asarray(value, dtype=object)
        flat = [v for v in arr.ravel().tolist()]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in flat):
            return np.asarray(value, dtype=np.int64)
        return np.asarray([math.nan if v is None else v for v in flat], dtype=float).reshape(
            arr.shape
        )
    if kind is type(None):
        if value is not None:
            raise TypeError(f"expected null, got {value!r}")
        return None
    return value
