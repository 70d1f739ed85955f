"""The strata / sampling-weights column of a predictions or judge table (``design_columns``): the
one-pass path (each item's first row and the check that its rows agree) gives what pandas'
``drop_duplicates`` gives, and the same error when an item's rows disagree; a file is read for two
columns only and gives what the whole table gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.data.design import _column_of, _first_rows, design_columns
from humanly.errors import InputError


def _slow(frame: pd.DataFrame, icol: str, column: str) -> pd.DataFrame | None:
    """The reference: pandas' first rows, ``None`` where an item has two values."""
    first = frame.drop_duplicates(icol)
    if len(frame[[icol, column]].drop_duplicates()) > len(first):
        return None
    return first


def _frame(ids: list[int], values: list[int], kind: str) -> pd.DataFrame:
    item: object = ids
    value: object = values
    if kind == "text ids":
        item = pd.Categorical([f"i{x:03d}" for x in ids])
    if kind == "categories":
        value = pd.Categorical([f"s{v}" for v in values])
    if kind == "booleans":
        value = [v % 2 == 0 for v in values]
    return pd.DataFrame({"item": item, "stratum": value, "other": np.arange(len(ids))})


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=1, max_size=40),
    st.sampled_from(["ints", "text ids", "categories", "booleans"]),
    st.booleans(),
)
def test_first_rows_equal_pandas(rows, kind, consistent):
    ids = [i for i, _ in rows]
    by_item = {i: v for i, v in reversed(rows)}  # each item's first value
    values = [by_item[i] if consistent else v for i, v in rows]
    frame = _frame(ids, values, kind)
    fast, slow = _first_rows(frame, "item", "stratum"), _slow(frame, "item", "stratum")
    if slow is None:
        assert fast is None
    else:
        assert fast is not None
        pd.testing.assert_frame_equal(fast, slow)


def test_first_rows_leave_other_kinds_and_missing_ids_to_pandas():
    floats = pd.DataFrame({"item": [1, 1], "stratum": [0.5, 0.5]})
    missing_id = pd.DataFrame({"item": [1.0, np.nan], "stratum": [0, 0]})
    assert _first_rows(floats, "item", "stratum") is None
    assert _first_rows(missing_id, "item", "stratum") is None


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_file_read_for_two_columns_gives_the_whole_tables_answer(tmp_path, suffix):
    rng = np.random.default_rng(4)
    ids = np.tile(rng.permutation(50), 3)
    stratum = ids % 4
    frame = pd.DataFrame({"model": np.repeat(["a", "b", "c"], 50), "item": ids, "s": stratum})
    path = tmp_path / f"p{suffix}"
    frame.to_parquet(path) if suffix == ".parquet" else frame.to_csv(path, index=False)
    got, columns = _column_of(path, None, "s", "strata")
    want, _ = _column_of(frame, None, "s", "strata")
    assert columns == ["model", "item", "s"]
    assert got is not None and want is not None
    assert got.index.tolist() == want.index.tolist() == ids[:50].tolist()
    assert got.tolist() == want.tolist() == stratum[:50].tolist()
    assert _column_of(path, None, "absent", "strata") == (None, ["model", "item", "s"])


def test_rows_that_disagree_are_still_named(tmp_path):
    frame = pd.DataFrame({"item": [1, 2, 1, 2], "s": [0, 1, 0, 2]})
    path = tmp_path / "p.parquet"
    frame.to_parquet(path)
    for source in (frame, path):
        with pytest.raises(InputError, match="gives item 2 more than one value in column 's'"):
            design_columns([source], None, "s", "strata")
