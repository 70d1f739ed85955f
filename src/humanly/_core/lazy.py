"""Names imported on first use (PEP 562), for the package ``__init__`` files.

``import humanly`` (and ``humanly.data``, ``humanly.budget``, ``humanly.report``) stays cheap: a public
name loads its module when it is first touched, so ``humanly --help`` imports no numpy or pandas and
``humanly budget win`` no pandas or ``scipy.stats``.

>>> import humanly
>>> "read_study" in dir(humanly), callable(humanly.read_study)
(True, True)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["attach"]


def attach(
    package: str, lazy: Mapping[str, str], public: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``lazy`` maps a public name to the module (relative
    to the package, e.g. ``".readers"``) that defines it; the value is kept on the package once
    imported. ``public`` is the package's ``__all__``."""
    names = sorted(set(public))

    def __getattr__(name: str) -> Any:
        module = lazy.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        relative = module if module.startswith(".") else f".{module}"
        value = getattr(importlib.import_module(relative, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
