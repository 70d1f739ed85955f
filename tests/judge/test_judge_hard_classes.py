"""A soft judge's class per item is its most probable class, ties to the first (``numpy.argmax``),
whatever the memory order of its probabilities; the quick check of a probability table accepts
exactly what the row-by-row check accepts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.data.outputs import ModelOutput, check_probabilities
from humanly.errors import InputError
from humanly.judging._inputs import _hard


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.integers(2, 6), st.integers(0, 2**32 - 1), st.sampled_from("CF"))
def test_the_most_probable_class_is_argmax_in_either_order(n, c, seed, order):
    rng = np.random.default_rng(seed)
    p = rng.integers(0, 4, (n, c)).astype(float)  # few values: many ties
    p = np.asarray(p, order=order)
    got = _hard(ModelOutput("j", "proba", p))
    assert np.array_equal(got, np.argmax(p, axis=1))


def _row_by_row(p: np.ndarray, tol: float = 1e-6) -> int | None:
    """The first offending row, found row by row (the reference)."""
    for i, row in enumerate(p):
        if not np.isfinite(row).all() or (row < 0).any() or (row > 1).any():
            return i
        if abs(row.sum() - 1) > tol:
            return i
    return None


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(2, 5),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["none", "nan", "negative", "above", "sum", "tiny"]),
    st.sampled_from("CF"),
)
def test_the_quick_probability_check_accepts_what_the_row_check_accepts(n, c, seed, flaw, order):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(c), size=n)
    i = int(rng.integers(0, n))
    if flaw == "nan":
        p[i, 0] = np.nan
    elif flaw == "negative":
        p[i, 0] = -0.01
    elif flaw == "above":
        p[i, 0] = 1.5
    elif flaw == "sum":
        p[i] *= 0.9
    elif flaw == "tiny":
        p[i, 0] += 5e-7  # within the tolerance
    p = np.asarray(p, order=order)
    bad = _row_by_row(p)
    if bad is None:
        check_probabilities(p, lambda k: f"row {k + 1}")
    else:
        with pytest.raises(InputError, match=f"^row {bad + 1}:"):
            check_probabilities(p, lambda k: f"row {k + 1}")
