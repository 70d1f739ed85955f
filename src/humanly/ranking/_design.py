"""From a :class:`~humanly.data.VoteStudy` to the arrays every estimator reads: the pairs of models
that were compared, each comparison's vote shares per source (x), which comparisons are labelled
(have a human vote), which each judge voted on, and the per-pair sums of :mod:`._moments` — once for
the labelled comparisons, once per set of judges for the unlabelled ones.

The *labelled* set L is every comparison with a human vote; the *unlabelled* set of an estimate that
uses the judges S is every comparison with no human vote on which every judge in S voted.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..data.votes import VoteStudy
from ._moments import PairMoments, pair_moments

__all__ = ["Design", "design"]

#: above this many possible pairs, pairs are found by sorting instead of a table of M² entries
_TABLE_PAIRS = 10_000_000


@dataclasses.dataclass(eq=False)
class Design:
    """The arrays of one study (see the module docstring)."""

    study: VoteStudy
    models: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    pair_of: np.ndarray
    x: np.ndarray
    labelled: np.ndarray
    judged: np.ndarray
    human_votes: np.ndarray
    weights: np.ndarray | None
    moments_l: PairMoments
    _u: dict[tuple[int, ...], PairMoments] = dataclasses.field(default_factory=dict)

    @property
    def n_models(self) -> int:
        return len(self.models)

    @property
    def n_pairs(self) -> int:
        return len(self.first)

    @property
    def k(self) -> int:
        """The number of variables per comparison: 2 per source."""
        return self.x.shape[1]

    def unlabelled_mask(self, judges: tuple[int, ...]) -> np.ndarray:
        """The comparisons with no human vote that every judge in ``judges`` (1-based) voted on."""
        if not judges:
            return np.zeros(len(self.labelled), dtype=bool)
        return ~self.labelled & self.judged[:, [j - 1 for j in judges]].all(axis=1)

    def moments_u(self, judges: tuple[int, ...]) -> PairMoments:
        """The per-pair sums over the unlabelled set of an estimate using ``judges`` (1-based)."""
        key = tuple(sorted(judges))
        if key not in self._u:
            mask = self.unlabelled_mask(key)
            for other, moments in list(self._u.items()):  # judges that voted on the same
                if np.array_equal(self.unlabelled_mask(other), mask):  # comparisons share sums
                    self._u[key] = moments
                    return moments
            w = None if self.weights is None else self.weights[mask]
            self._u[key] = pair_moments(self.pair_of[mask], self.x[mask], self.n_pairs, w)
        return self._u[key]

    def votes_per_model(self) -> np.ndarray:
        """Human votes on the comparisons that involve each model."""
        lab = self.labelled
        n = self.human_votes[lab].astype(float)
        p = self.pair_of[lab]
        per_pair = np.bincount(p, weights=n, minlength=self.n_pairs)
        out = np.bincount(self.first, weights=per_pair, minlength=self.n_models)
        return (out + np.bincount(self.second, weights=per_pair, minlength=self.n_models)).astype(
            np.int64
        )


def _pairs(first: np.ndarray, second: np.ndarray, m: int):
    code = first.astype(np.int64) * m + second
    if m * m <= _TABLE_PAIRS:
        present = np.bincount(code, minlength=m * m) > 0
        index = np.cumsum(present) - 1
        uniq = np.flatnonzero(present)
        return uniq // m, uniq % m, index[code]
    uniq, inverse = np.unique(code, return_inverse=True)
    return uniq // m, uniq % m, inverse


def design(study: VoteStudy, weights: np.ndarray | None = None) -> Design:
    """The :class:`Design` of a study; ``weights`` (one per comparison: 1/π if labelled, 1/(1 − π)
    if not) for an active design, ``None`` for a uniformly drawn labelled set."""
    n = study.n_comparisons
    sources = (study.human, *study.judges)
    x = np.empty((n, 2 * len(sources)))
    judged = np.empty((n, len(study.judges)), dtype=bool)
    human_votes = None
    for s, votes in enumerate(sources):
        won_first, won_second, count = votes.shares(n)
        x[:, 2 * s], x[:, 2 * s + 1] = won_first, won_second
        if s == 0:
            human_votes = count.astype(np.int64)
        else:
            judged[:, s - 1] = count > 0
    assert human_votes is not None
    m = len(study.models)
    first, second, pair_of = _pairs(study.first, study.second, m)
    labelled = human_votes > 0
    w = None if weights is None else weights[labelled]
    moments_l = pair_moments(pair_of[labelled], x[labelled], len(first), w)
    return Design(
        study=study,
        models=study.models,
        first=first.astype(np.int64),
        second=second.astype(np.int64),
        pair_of=pair_of.astype(np.int64),
        x=x,
        labelled=labelled,
        judged=judged,
        human_votes=human_votes,
        weights=weights,
        moments_l=moments_l,
    )
