"""The forms of user data the verbs take, as type aliases for their signatures.

Each alias is the union of what :func:`humanly.data.join` (and :func:`humanly.read_study`, which also
reads files and tables) accepts for that argument; anything else is a ``TypeError`` naming the
parameter. An array without item ids follows the ratings' items in the order the caller holds them
(:mod:`humanly.data.positional`).

* ``RatingsLike`` — the crowd's labels: ``Ratings | Study | pandas.DataFrame | str | os.PathLike``
  (a long table; a :class:`~humanly.data.Study` carries its predictions and gold).
  :func:`humanly.read_study` also takes an items × raters ``numpy.ndarray`` with ``wide=True``.
* ``PredictionsLike`` — the models' outputs: ``Predictions | Mapping[str, pandas.Series |
  pandas.DataFrame | numpy.ndarray | list] | pandas.Series | pandas.DataFrame | numpy.ndarray | list
  | str | os.PathLike`` (a dict model name → outputs, or one model's outputs alone).
* ``GoldLike`` — gold labels: ``Gold | pandas.Series | numpy.ndarray | list | str | os.PathLike``
  (:func:`humanly.read_study` also takes a table with an item and a gold column).
* ``JudgeLike`` — one or more judges' labels or class probabilities: any form of
  ``PredictionsLike`` (several judges: a dict).
* ``VotesLike`` — pairwise votes: ``Votes | VoteStudy | pandas.DataFrame | str | os.PathLike``;
  ``JudgeVotesLike`` — the judges' votes: a mapping name → ``VotesLike``, a sequence of them, or
  one.

The aliases are strings at run time (forward references), so importing them loads neither numpy nor
pandas; type checkers read the unions.

>>> from humanly.data.types import RatingsLike
>>> "Ratings" in RatingsLike
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from .inputs import Study
    from .predictions import Gold, Predictions
    from .ratings import Ratings
    from .votes import Votes, VoteStudy

__all__ = [
    "GoldLike",
    "JudgeLike",
    "JudgeVotesLike",
    "PredictionsLike",
    "RatingsLike",
    "VotesLike",
]

#: One model's outputs held in memory.
_Outputs: TypeAlias = "pd.Series | pd.DataFrame | np.ndarray | list[Any]"
#: The crowd's labels.
RatingsLike: TypeAlias = "Ratings | Study | pd.DataFrame | str | os.PathLike[str]"
#: The models' outputs: a dict model name → outputs, or one model's outputs alone.
PredictionsLike: TypeAlias = (
    "Predictions | Mapping[str, _Outputs] | _Outputs | str | os.PathLike[str]"
)
#: Gold labels for some or all of the rated items.
GoldLike: TypeAlias = "Gold | pd.Series | np.ndarray | list[Any] | str | os.PathLike[str]"
#: One or more judges' outputs, in any form of ``PredictionsLike``.
JudgeLike: TypeAlias = PredictionsLike
#: Pairwise votes of one source.
VotesLike: TypeAlias = "Votes | VoteStudy | pd.DataFrame | str | os.PathLike[str]"
#: The judges' pairwise votes: name → votes, several votes, or one.
JudgeVotesLike: TypeAlias = "Mapping[str, VotesLike] | Sequence[VotesLike] | VotesLike"
