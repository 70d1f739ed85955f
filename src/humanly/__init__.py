"""humanly: how good is this model when the only reference is a crowd of fallible humans?

One data model (:class:`Ratings`, :class:`Predictions`, :class:`Gold`) and three analyses:

* certify — oracle-accuracy bounds and a superhuman confidence score (Xu, Walder & Xu);
* survey equivalence — how many raters a classifier is worth (Resnick et al.);
* label budget — one label per item versus majority votes when ranking classifiers.

Read data as it is held — files, crowd-kit long frames, cleanlab N × M arrays, count tables, Series by
item id — with :func:`read_study` (or :func:`read_ratings` and :func:`join`); everything is joined by
item id.

Names are imported on first use (PEP 562): ``import humanly`` is cheap, and ``humanly.read_ratings``
loads the readers when it is first touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._core.lazy import attach
from .errors import InputError

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .crowd.inspect import InspectResult, inspect
    from .data import (
        MISSING,
        Counts,
        Gold,
        ModelOutput,
        Predictions,
        Ratings,
        Study,
        align,
        join,
        read_gold,
        read_predictions,
        read_ratings,
        read_study,
    )
    from .study import StudyResult, analyze

#: public name → the module that defines it (imported on first use)
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        (
            "MISSING",
            "Counts",
            "Gold",
            "ModelOutput",
            "Predictions",
            "Ratings",
            "Study",
            "align",
            "join",
            "read_gold",
            "read_predictions",
            "read_ratings",
            "read_study",
        ),
        ".data",
    ),
    "InspectResult": ".crowd.inspect",
    "StudyResult": ".study",
    "analyze": ".study",
    "inspect": ".crowd.inspect",
}

__all__ = [
    "MISSING",
    "Counts",
    "Gold",
    "InputError",
    "InspectResult",
    "ModelOutput",
    "Predictions",
    "Ratings",
    "Study",
    "StudyResult",
    "__version__",
    "align",
    "analyze",
    "inspect",
    "join",
    "read_gold",
    "read_predictions",
    "read_ratings",
    "read_study",
]


__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
