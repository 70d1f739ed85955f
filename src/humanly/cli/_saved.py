"""Results saved with ``humanly report --save-results``, read back for ``--from``: a file of another major
version, or one a required key is missing from, is refused in one sentence that names the key."""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import InputError

__all__ = ["missing_key", "read_saved"]

_WHAT = "not a results file of humanly report --save-results"


def _major(version: str) -> str:
    return version.split(".", 1)[0]


def _fields(kind: type, value: Any, path: str) -> str | None:
    hints = typing.get_type_hints(kind)
    for f in dataclasses.fields(kind):
        if not f.init:
            continue
        where = f"{path}.{f.name}" if path else f.name
        if f.name not in value:
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            if required:
                return where
            continue
        found = missing_key(hints.get(f.name, Any), value[f.name], where)
        if found is not None:
            return found
    return None


def missing_key(kind: Any, value: Any, path: str = "") -> str | None:
    """The first required key of the type ``kind`` that ``value`` (as ``to_dict()`` writes it) lacks,
    as a path (``certify.models[0].lower``); ``None`` when none is missing.

    >>> from humanly.study import Settings
    >>> missing_key(Settings, {"seed": 0, "level": 0.95, "bootstrap": 0, "target_width": None})
    'tau'
    """
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        each = [missing_key(a, value, path) for a in args if a is not type(None)]
        return None if None in each else each[0]
    if origin in (tuple, collections.abc.Sequence, list) and isinstance(value, list):
        if (len(args) == 2 and args[1] is Ellipsis) or origin is not tuple:
            kinds = [args[0] if args else Any] * len(value)
        else:
            kinds = list(args)
        for i, (k, v) in enumerate(zip(kinds, value, strict=False)):
            found = missing_key(k, v, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if origin in (dict, collections.abc.Mapping) and isinstance(value, dict) and len(args) == 2:
        for k, v in value.items():
            found = missing_key(args[1], v, f"{path}.{k}" if path else str(k))
            if found is not None:
                return found
        return None
    if isinstance(kind, type) and dataclasses.is_dataclass(kind) and isinstance(value, dict):
        return _fields(kind, value, path)
    if isinstance(kind, type) and issubclass(kind, tuple):  # a typed tuple: its items' type
        bases = [b for b in getattr(kind, "__orig_bases__", ()) if typing.get_origin(b) is tuple]
        return missing_key(bases[0], value, path) if bases else None
    return None


def read_saved(path: Path) -> Any:
    """The :class:`~humanly.study.StudyResult` saved in ``path``; one sentence (``InputError``) for a
    file that is missing, not JSON, from another major version, or missing a required key."""
    from ..study import StudyResult

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"--from {path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"--from {path}: {_WHAT} ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise InputError(f"--from {path}: {_WHAT} (it holds no JSON object)")
    version = (data.get("provenance") or {}).get("humanly_version")
    if isinstance(version, str) and _major(version) != _major(__version__):
        raise InputError(
            f"--from {path}: saved by humanly {version}, another major version than this one "
            f"({__version__}); draw it with humanly {_major(version)}.x, or analyse the data again"
        )
    try:
        return StudyResult.from_dict(data)
    except (TypeError, KeyError, ValueError) as exc:
        key = missing_key(StudyResult, data)
        if key is not None:
            raise InputError(
                f"--from {path}: the key {key} is missing; save the results again with humanly "
                "report --save-results"
            ) from None
        raise InputError(f"--from {path}: {_WHAT} ({str(exc)[:100]})") from None
