"""Whole-number ids are coded by counting (``counted_codes``), not hashing: the codes and the distinct
ids are pandas.factorize's exactly (order of first appearance, the ids' dtype kept), and
``ids_to_index`` and ``has_duplicates`` give what the hashed forms give."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.data._coding import counted_codes, has_duplicates, ids_to_index

DTYPES = ["int64", "int32", "int16", "uint32", "uint64"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3000), min_size=1, max_size=300), st.sampled_from(DTYPES))
def test_counted_codes_are_factorize(ids, dtype):
    values = np.asarray(ids, dtype=dtype)
    got = counted_codes(values)
    codes, uniques = pd.factorize(values)
    dense = int(values.max()) < 2 * len(values) + 1024
    if got is None:  # too sparse to count (and not ids in order, repeated): hashed
        assert not dense
        return
    assert got[0].dtype == np.int32 and got[1].dtype == values.dtype
    assert np.array_equal(got[0], codes) and np.array_equal(got[1], uniques)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 500), min_size=1, max_size=200), st.sampled_from(DTYPES))
def test_ids_to_index_of_whole_numbers_is_the_hashed_one(ids, dtype):
    series = pd.Series(np.asarray(ids, dtype=dtype), index=np.arange(len(ids)) + 7)
    codes, index = ids_to_index(series, column="item")
    want_codes, want_index = pd.factorize(series, sort=False)
    assert np.array_equal(codes, want_codes) and codes.dtype == np.int32
    pd.testing.assert_index_equal(index, pd.Index(want_index))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 10**12), min_size=1, max_size=60, unique=True),
    st.integers(1, 5),
    st.integers(-1, 60),
    st.sampled_from(["int64", "uint64"]),
)
def test_repeated_increasing_runs_are_factorize(block, times, change, dtype):
    """Ids in order, once or once per model (a long table's blocks), take a path that neither counts
    nor hashes; any change to one row (``change``) falls back, with the same codes as pandas."""
    values = np.tile(np.sort(np.asarray(block, dtype=dtype)), times)
    if 0 <= change < len(values):
        values[change] = values[(change + 1) % len(values)]
    got = counted_codes(values)
    codes, uniques = pd.factorize(values)
    if got is None:
        assert int(values.max()) >= 2 * len(values) + 1024
        return
    assert got[0].dtype == np.int32 and got[1].dtype == values.dtype
    assert np.array_equal(got[0], codes) and np.array_equal(got[1], uniques)


def test_other_ids_are_hashed():
    assert counted_codes(np.array([-1, 2])) is None
    assert counted_codes(np.array([0.0, 1.0])) is None
    assert counted_codes(np.array([], dtype=np.int64)) is None
    nullable = pd.Series([3, 1, 3], dtype="Int64")
    codes, index = ids_to_index(nullable, column="item")
    assert codes.tolist() == [0, 1, 0] and str(index.dtype) == "Int64"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=80), st.integers(61, 5000))
def test_has_duplicates_counts_as_hashing_finds(keys, size):
    key = np.asarray(keys, dtype=np.int64)
    assert has_duplicates(key, size) == bool(pd.Series(key).duplicated().any())
