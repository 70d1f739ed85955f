"""Models ranked from pairwise votes (issue 31): a few human votes, judges on many comparisons —
win rates, Bradley–Terry strengths, rank-sets, what a judge is worth, and what to do next.

* :func:`rank` → :class:`RankResult` (the verb; ``humanly.rank``);
* :func:`select` → :class:`ComparisonSelection`: which judge-only comparisons to send to human voters
  next (active inference);
* :class:`RankOptions`, the rarer knobs.

The votes are read and joined by :mod:`humanly.data` (:func:`~humanly.data.read_votes`,
:func:`~humanly.data.votes_from_scores`, :func:`~humanly.data.join_votes`). See docs/rank.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.lazy import attach

if TYPE_CHECKING:
    from .active import ComparisonSelection, select
    from .api import RankOptions, rank, rank_study
    from .judge_results import FrontierModel, JudgeAgreement, JudgeWorth, PositionBias
    from .result_parts import (
        Flag,
        ModelRow,
        PairTable,
        RankSet,
        RepeatPlan,
        RepeatRow,
        Separation,
        SeparationPoint,
    )
    from .results import Estimates, Ranking, RankResult

_LAZY: dict[str, str] = {
    **dict.fromkeys(("ComparisonSelection", "select"), "active"),
    **dict.fromkeys(("RankOptions", "rank", "rank_study"), "api"),
    **dict.fromkeys(
        (
            "Flag",
            "ModelRow",
            "PairTable",
            "RankSet",
            "RepeatPlan",
            "RepeatRow",
            "Separation",
            "SeparationPoint",
        ),
        "result_parts",
    ),
    **dict.fromkeys(
        ("FrontierModel", "JudgeAgreement", "JudgeWorth", "PositionBias"), "judge_results"
    ),
    **dict.fromkeys(("Estimates", "RankResult", "Ranking"), "results"),
}

__all__ = [
    "ComparisonSelection",
    "Estimates",
    "Flag",
    "FrontierModel",
    "JudgeAgreement",
    "JudgeWorth",
    "ModelRow",
    "PairTable",
    "PositionBias",
    "RankOptions",
    "RankResult",
    "RankSet",
    "Ranking",
    "RepeatPlan",
    "RepeatRow",
    "Separation",
    "SeparationPoint",
    "rank",
    "rank_study",
    "select",
]

__getattr__, __dir__ = attach(__name__, _LAZY, __all__)
