"""The shared data model — :class:`Ratings`, :class:`Predictions`, :class:`Gold` — its readers, the one
join by item id (:func:`join`, :func:`read_study` → :class:`Study`) and the one error type.

Modules, bottom up (each imports only those above it in this list):

* ``errors`` — :class:`InputError`; ``_coding`` — labels and ids to integer codes;
* ``tables`` — csv/tsv/parquet/jsonl/json tables; ``columns`` — column-name conventions;
* ``layouts`` — long / wide / counts tables and arrays → coded arrays; ``ratings`` — :class:`Ratings`;
* ``matching`` — matching item ids and the wording for ids that do not match;
* ``predictions`` — :class:`Predictions`, :class:`ModelOutput`, :class:`Gold`, :func:`align`;
* ``stream`` — Parquet datasets streamed to counts;
* ``readers`` — :func:`read_ratings`, :func:`read_predictions`, :func:`read_gold`;
* ``inputs`` — :func:`join`, :class:`Study`, ``as_ratings``, ``as_gold``;
* ``study`` — :func:`read_study`, the one loader.
"""

from .errors import InputError
from .inputs import Study, as_gold, as_ratings, join
from .predictions import Gold, ModelOutput, Predictions, align
from .ratings import MISSING, Ratings
from .readers import read_gold, read_predictions, read_ratings
from .study import read_study
from .tables import read_table, write_table

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
    "read_study",
    "read_table",
    "write_table",
]
