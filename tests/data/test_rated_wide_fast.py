"""A wide table of ratings with one row per item is taken as it is (each item's mean is its one
rating): the frame is the one pandas' group mean gives (values, −0 as +0, NaN, index, columns)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.data import rated

ratings = st.one_of(st.floats(-10, 10), st.just(-0.0), st.just(float("nan")), st.integers(1, 5))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), ratings, ratings), min_size=1, max_size=30))
def test_one_row_per_item_is_the_group_mean(rows):
    frame = pd.DataFrame(rows, columns=["item", "a", "b"])
    got = rated._frame(frame, "judge", None, None)
    want = (
        pd.DataFrame(
            {m: rated._numeric(frame[m], m) for m in ("a", "b")}, index=pd.Index(frame["item"])
        )
        .groupby(level=0, sort=False)
        .mean()
    )
    pd.testing.assert_frame_equal(got, want)
    assert np.array_equal(np.signbit(got.to_numpy()), np.signbit(want.to_numpy()))
