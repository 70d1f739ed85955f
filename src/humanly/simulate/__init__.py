"""Generators with a known truth, for tests and for checking a design before paying for labels.

Three generators, one per paper, each returning a :class:`SimulatedData` (ratings, gold labels,
predictions and the true parameters) that can be written to long-format files with
:meth:`SimulatedData.write`, and one for pairwise votes:

1. :func:`urn` (module :mod:`.survey`) — the item-state urn of *Survey Equivalence* (section 2):
   each item has a state, a distribution over labels; its K labels are i.i.d. draws from it.
   :func:`running_example` is the paper's preset.
2. :func:`oracle` (module :mod:`.certify`) — *Humanly Certifying Superhuman Classifiers*: a true
   label per item, raters with their own accuracies or confusion matrices, optional item
   difficulty shared by raters and models.
3. :func:`pair` (module :mod:`.budget`) — *Don't Label Twice*: two binary classifiers (better and
   worse) and noisy labellers, in the independent (p, ε, q) or correlated (q_b, q_w, p_w, p_b⁰,
   p_b¹) parameterisation.
4. :func:`arena` (module :mod:`.votes`) — pairwise votes for ranking (issue 31): models with
   Bradley–Terry strengths compared in pairs, human voters who tie, judges of given sharpness, tie
   rate and position bias; returns :class:`SimulatedVotes` (human and judge votes, the truth).

Every generator takes ``seed`` (an int or a :class:`numpy.random.Generator`); the same seed gives the
same data.
"""

from ._simulated import SimulatedData
from .budget import pair
from .certify import oracle
from .survey import RUNNING_EXAMPLE, running_example, urn
from .votes import ARENA_JUDGES, ArenaJudge, SimulatedVotes, arena

__all__ = [
    "ARENA_JUDGES",
    "RUNNING_EXAMPLE",
    "ArenaJudge",
    "SimulatedData",
    "SimulatedVotes",
    "arena",
    "oracle",
    "pair",
    "running_example",
    "urn",
]
