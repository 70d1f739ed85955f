"""The shared data model — :class:`Ratings`, :class:`Predictions`, :class:`Gold` — its readers, the one
join by item id (:func:`join`, :func:`read_study` → :class:`Study`) and the one error type.

Modules, bottom up (each imports only those above it in this list):

* ``_coding`` — labels and ids to integer codes; ``options`` — :class:`Counts`, :class:`ReadOptions`;
* ``tables`` — csv/tsv/parquet/jsonl/json tables; ``columns`` — column-name conventions;
* ``layouts`` — long / wide / counts tables and arrays → coded arrays; ``_build`` — the ``from_*``
  constructors of :class:`Ratings`; ``ratings`` — :class:`Ratings`;
* ``matching`` — matching item ids and the wording for ids that do not match;
* ``outputs`` — :class:`ModelOutput`; ``predictions`` — :class:`Predictions`, :class:`Gold`,
  :func:`align`;
* ``stream`` — Parquet datasets streamed to counts;
* ``readers`` — :func:`read_ratings`, :func:`read_predictions`, :func:`read_gold`;
* ``positional`` — the one rule for arrays without item ids;
* ``aligned`` — predictions, gold and judges matched to the ratings by id, ``as_gold``;
* ``design`` — per-item strata and sampling weights (:class:`ItemDesign`, ``Study.design``);
* ``judged`` — the join with judges (unlabelled items held with no label);
* ``inputs`` — :func:`join` (the one join), :class:`Study`, ``as_ratings``;
* ``study`` — :func:`read_study`, the one loader;
* ``rated`` — ratings of models' outputs by humans and judges: :class:`RatingStudy`,
  :func:`join_ratings`, :func:`read_rating_study`;
* ``votes`` — pairwise votes: :class:`Votes`, :class:`VoteStudy`; ``_votes_read`` —
  :func:`read_votes`; ``_votes_scores`` — :func:`votes_from_scores`; ``_votes_join`` —
  :func:`join_votes`, the one join by comparison id;
* ``types`` — the forms of user data in the verbs' signatures (``RatingsLike``, ``PredictionsLike``,
  ``GoldLike``, ``JudgeLike``, ``VotesLike``, ``JudgeVotesLike``), imported for type checking only.

The names are imported on first use (PEP 562): ``from humanly.data import InputError`` loads neither
numpy nor pandas, so the command line starts fast; ``from humanly.data import Ratings`` loads what
:class:`Ratings` needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.lazy import attach
from ..errors import InputError

if TYPE_CHECKING:
    from ._votes_join import join_votes
    from ._votes_read import read_votes
    from ._votes_scores import votes_from_scores
    from .aligned import as_gold as as_gold  # for the analyses; not in __all__
    from .design import ItemDesign
    from .inputs import Study, join
    from .inputs import as_ratings as as_ratings
    from .options import Counts, ReadOptions
    from .outputs import ModelOutput
    from .predictions import Gold, Predictions, align
    from .rated import RatingStudy, join_ratings, read_rating_study
    from .ratings import MISSING, Ratings
    from .readers import read_gold, read_predictions, read_ratings
    from .study import read_study
    from .tables import read_table as read_table
    from .tables import write_table as write_table
    from .types import (
        GoldLike,
        JudgeLike,
        JudgeVotesLike,
        PredictionsLike,
        RatingsLike,
        VotesLike,
    )
    from .votes import Votes, VoteStudy

#: public name → the module of this package that defines it
_LAZY: dict[str, str] = {
    "Counts": "options",
    "MISSING": "ratings",
    "Gold": "predictions",
    "ItemDesign": "design",
    "RatingStudy": "rated",
    "join_ratings": "rated",
    "read_rating_study": "rated",
    "ModelOutput": "outputs",
    "Predictions": "predictions",
    "Ratings": "ratings",
    "ReadOptions": "options",
    "Study": "inputs",
    "align": "predictions",
    "as_gold": "aligned",
    "as_ratings": "inputs",
    "join": "inputs",
    "read_gold": "readers",
    "read_predictions": "readers",
    "read_ratings": "readers",
    "read_study": "study",
    "read_table": "tables",
    "write_table": "tables",
    **dict.fromkeys(
        ("GoldLike", "JudgeLike", "JudgeVotesLike", "PredictionsLike", "RatingsLike", "VotesLike"),
        "types",
    ),
    **dict.fromkeys(("Votes", "VoteStudy"), "votes"),
    "join_votes": "_votes_join",
    "read_votes": "_votes_read",
    "votes_from_scores": "_votes_scores",
}

#: what a user needs; ``as_gold``, ``as_ratings``, ``read_table`` and ``write_table`` stay importable
#: from here for the analyses, but are not part of the documented API
__all__ = [
    "MISSING",
    "Counts",
    "Gold",
    "GoldLike",
    "InputError",
    "ItemDesign",
    "JudgeLike",
    "JudgeVotesLike",
    "ModelOutput",
    "Predictions",
    "PredictionsLike",
    "RatingStudy",
    "Ratings",
    "RatingsLike",
    "ReadOptions",
    "Study",
    "VoteStudy",
    "Votes",
    "VotesLike",
    "align",
    "join",
    "join_ratings",
    "join_votes",
    "read_gold",
    "read_predictions",
    "read_rating_study",
    "read_ratings",
    "read_study",
    "read_votes",
    "votes_from_scores",
]


__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
