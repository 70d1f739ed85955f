"""Combiners that see the whole rating matrix (non-myopic, section 3.2), used by the sampled method.

A frequency combiner shrunk towards the label frequencies of the *other* items (estimated from the
whole matrix, the item left out) against Algorithm 3 written out with every rater subset, and its
expected behaviour: at k = 0 it predicts the other items' prevalence, so with as many labels on every
item c_0 equals the ABC's c_0
(Algorithm 5 at k = 0 is the leave-one-out label frequency)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from humanly import InputError, Ratings
from humanly.simulate import running_example
from humanly.survey import EquivalenceOptions, equivalence
from humanly.survey.combiners import MatrixCombiner, clip_probs, matrix_combiner
from humanly.survey.scorers import get_scorer

ALPHA = 2.0


def shrunk(y: np.ndarray, counts: np.ndarray, items: np.ndarray) -> np.ndarray:
    others = counts.sum(axis=0) - counts[items]
    prior = others / others.sum(axis=1, keepdims=True)
    return clip_probs((y + ALPHA * prior) / (y.sum(axis=1, keepdims=True) + ALPHA), (1e-3, 1.0))


def _literal_curve(W: np.ndarray, sc: str) -> list[float]:
    """Algorithm 3 with every subset of rater columns, the combiner applied item by item."""
    n, K = W.shape
    scorer = get_scorer(sc)
    counts = np.stack([(W == c).sum(axis=1) for c in range(2)], axis=1)
    out = []
    for k in range(K):
        per_subset = []
        for rs in itertools.combinations(range(K), k):
            preds = []
            for i in range(n):
                y = np.array([[sum(W[i, j] == c for j in rs) for c in range(2)]])
                others = counts.sum(axis=0) - counts[i]
                prior = others / others.sum()
                p = (y[0] + ALPHA * prior) / (k + ALPHA)
                preds.append(clip_probs(p, (1e-3, 1.0)))
            unused = [j for j in range(K) if j not in rs]
            scores = [float(scorer.score(np.array(preds), W[:, j], 1)) for j in unused]
            per_subset.append(np.mean(scores))
        out.append(float(np.mean(per_subset)))
    return out


@pytest.mark.parametrize("sc", ["cross_entropy", "agreement"])
def test_matrix_combiner_equals_algorithm_3_written_out(sc: str) -> None:
    d = running_example(40, 5, seed=6)
    W = d.ratings.matrix()
    comb = matrix_combiner(shrunk, name="shrunk")
    assert isinstance(comb, MatrixCombiner)
    res = equivalence(d.ratings, combiner=comb, scorer=sc, bootstrap=0)
    assert res.method == "sampled" and res.combiner == "shrunk"
    # K = 5: every subset of raters is enumerated (C(5, k) ≤ 200), so nothing is random
    np.testing.assert_allclose(res.scores, _literal_curve(W, sc)[: len(res.scores)], rtol=1e-10)


def test_prevalence_combiner_gives_the_expected_curve() -> None:
    d = running_example(400, 6, seed=2)
    comb = matrix_combiner(shrunk, name="shrunk")
    res = equivalence(d.ratings, combiner=comb, bootstrap=0)
    abc = equivalence(d.ratings, bootstrap=0)
    # k = 0: the other items' label frequencies, exactly the ABC's default (Algorithm 5, k = 0)
    assert res.scores[0] == pytest.approx(abc.scores[0], rel=1e-9)
    # a Bayesian-style shrinkage learns from the labels: the curve rises, and stays below the ABC
    # at every k (Theorem 3: no combiner beats the ABC under cross-entropy, up to sampling noise)
    assert np.all(np.diff(res.scores) > 0)
    assert np.all(res.scores[1:] <= abc.scores[1:] + 0.005)
    # bootstraps re-run it on the resampled matrix; seeded
    a = equivalence(
        d.ratings, combiner=comb, bootstrap=100, seed=1, options=EquivalenceOptions(draws=20)
    )
    b = equivalence(
        d.ratings, combiner=comb, bootstrap=100, seed=1, options=EquivalenceOptions(draws=20)
    )
    np.testing.assert_array_equal(a.curve_samples, b.curve_samples)


def test_matrix_combiner_errors_and_ragged_data() -> None:
    d = running_example(30, 4, seed=1)
    comb = matrix_combiner(shrunk)
    with pytest.raises(InputError, match="sampled"):
        equivalence(
            d.ratings, combiner=comb, bootstrap=0, options=EquivalenceOptions(method="exact")
        )
    ragged = Ratings.from_counts(np.array([[2, 1], [0, 4], [3, 0], [1, 1], [2, 3]]))
    res = equivalence(ragged, combiner=comb, bootstrap=0, options=EquivalenceOptions(draws=50))
    assert np.isfinite(res.scores).all()
