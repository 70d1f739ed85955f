"""The shared data model: :class:`Ratings`, :class:`Predictions`, :class:`Gold`, readers and errors."""

from .errors import InputError
from .inputs import Study, as_gold, as_ratings, join
from .io import read_gold, read_predictions, read_ratings, read_table, write_table
from .predictions import Gold, ModelOutput, Predictions, align
from .ratings import MISSING, Ratings

__all__ = [
    "MISSING",
    "Gold",
    "InputError",
    "ModelOutput",
    "Predictions",
    "Ratings",
    "Study",
    "align",
    "as_gold",
    "as_ratings",
    "join",
    "read_gold",
    "read_predictions",
    "read_ratings",
    "read_table",
    "write_table",
]
