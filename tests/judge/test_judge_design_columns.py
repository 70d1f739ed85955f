"""The design check reads the judges' labels as the whole numbers they are (not copied to floats):
their categories, and so the check, are those of the floats (few classes or many, where the
quantile bins apply); and each score column, gathered on its own, is ``JudgeInputs.scores``'."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.judging import _design
from humanly.judging._inputs import JudgeOutputs
from humanly.judging._scoring import _score_column


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 3000))
def test_label_categories_are_those_of_their_floats(seed, classes, n):
    codes = np.random.default_rng(seed).integers(0, classes, n)
    got = _design.categories(codes)
    assert np.array_equal(got, _design.categories(codes.astype(float)))
    assert got.dtype == np.intp


def test_a_score_column_is_the_scores_column():
    rng = np.random.default_rng(2)
    proba = rng.dirichlet(np.ones(4), 500)
    model = rng.integers(0, 4, 500)
    every = np.arange(500)
    soft = JudgeOutputs("j", "proba", proba.argmax(axis=1), proba)
    hard = JudgeOutputs("j", "label", proba.argmax(axis=1), None)
    assert np.array_equal(_score_column(soft, model, every), proba[every, model])
    assert np.array_equal(_score_column(hard, model, every), (hard.codes == model).astype(float))
