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
    if int(values.max()) >= 2 * len(values) + 1024:
        assert got is None  # too sparse to count: hashed
        return
    assert got is not None
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
