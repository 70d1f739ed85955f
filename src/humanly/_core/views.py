"""The one late binding of the package: how a result shows itself in a notebook.

Results live on the floors below the verdicts floor (``humanly.verdicts``), which writes every sentence,
so :meth:`~humanly._core.result.Result._repr_html_` cannot import it. Instead the verdicts floor fills
this registry when it is imported (:mod:`humanly.verdicts.notebook` calls :func:`register_html`), and
the first ``_repr_html_`` imports that module by its name (:data:`PRESENTER`). Nothing else in the
package imports upwards by name; ``tests/test_architecture.py`` allows this one reference and no other.

>>> from humanly._core.result import Skipped
>>> html = notebook_html(Skipped("plan", "single_label_items"))
>>> "Every item has one label" in html
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["PRESENTER", "notebook_html", "register_html"]

#: The module that writes the notebook view of every result; importing it registers the view.
PRESENTER = "humanly.verdicts.notebook"

_HTML: list[Callable[[Any], str]] = []


def register_html(view: Callable[[Any], str]) -> None:
    """Make ``view`` the notebook view of every result (called once, by :data:`PRESENTER`)."""
    _HTML[:] = [view]


def notebook_html(result: Any) -> str:
    """The HTML a notebook shows for ``result``: the registered view, loaded on first use."""
    if not _HTML:
        importlib.import_module(PRESENTER)
    return _HTML[0](result)
