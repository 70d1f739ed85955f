"""The fast paths of loading long ratings (issue 34 item 4) against slow references: a repeated
(item, rater) pair found by the position table vs a Python set, the radix item order vs numpy's stable
argsort, and whole long tables (random rows, ids as numbers or as text "1".."200", blanks, repeated
pairs under every duplicates policy, any row order; a DataFrame, a CSV and a Parquet file) vs a plain
Python reading of the documented rules: items and raters in order of first appearance, each item's
labels in row order, the first blank id named."""

from __future__ import annotations

import math
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly.data import _coding, _parquet_long
from humanly.errors import InputError


# ------------------------------------------------------------------------------- repeated pairs
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(0, 9)), min_size=0, max_size=120),
    st.sampled_from([10, 17, 40, 1 << 22]),
)
def test_pairs_repeat_equals_a_set(pairs, slots):
    """Small tables force many blocks (a block of firsts per table): the answer never changes."""
    pairs.sort(key=lambda p: p[0])  # firsts in order, seconds in any order within a first
    first = np.array([p[0] for p in pairs], dtype=np.int32)
    second = np.array([p[1] for p in pairs], dtype=np.int32)
    with mock.patch.object(_coding, "_PAIR_SLOTS", slots):
        got = _coding.pairs_repeat(first, second, 10)
    assert got == (len(set(pairs)) < len(pairs))


def test_pairs_repeat_with_more_seconds_than_slots_sorts():
    first, second = np.array([0, 0, 1]), np.array([5, 5, 5])
    with mock.patch.object(_coding, "_PAIR_SLOTS", 4):
        assert _coding.pairs_repeat(first, second, 6)
        assert not _coding.pairs_repeat(first, np.array([5, 4, 5]), 6)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 2**32 - 1), max_size=60)
    | st.lists(st.integers(0, 70_000), max_size=60)
    | st.lists(st.integers(0, 5), max_size=60)
)
def test_stable_order_equals_numpy_stable_argsort(values):
    codes = np.array(values, dtype=np.int64)
    assert _coding.stable_order(codes).tolist() == np.argsort(codes, kind="stable").tolist()


# ----------------------------------------------------------------------------- whole long tables
def _blank(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or str(v).strip() == ""


def _reference(items, raters, labels, duplicates):
    """The documented reading, in plain Python: (items, raters, item codes, rater codes, labels) or
    the 1-based row of the first blank id / repeated pair ("blank", row) / ("twice", row)."""
    for k, (i, r) in enumerate(zip(items, raters, strict=True)):
        if _blank(i) or _blank(r):
            return ("blank", k + 1)
    seen: dict = {}
    last: dict = {}
    for k, pair in enumerate(zip(items, raters, strict=True)):
        if pair in seen and duplicates == "error":
            return ("twice", k + 1)
        seen.setdefault(pair, k)
        last[pair] = k
    rows = [
        k
        for k, pair in enumerate(zip(items, raters, strict=True))
        if duplicates == "keep"
        or (duplicates in ("first", "error") and seen[pair] == k)
        or (duplicates == "last" and last[pair] == k)
    ]
    item_ids = list(dict.fromkeys(items))
    rater_ids = list(dict.fromkeys(raters))
    rows.sort(key=lambda k: item_ids.index(items[k]))  # stable: each item's labels in row order
    classes = sorted(set(labels))
    return (
        item_ids,
        rater_ids,
        [item_ids.index(items[k]) for k in rows],
        [rater_ids.index(raters[k]) for k in rows],
        [classes.index(labels[k]) for k in rows],
    )


_TEXT_IDS = st.sampled_from([str(v) for v in range(1, 201)])  # "1".."200": text, natural order lost
_BLANKS = st.sampled_from([None, "", "  "])


@st.composite
def long_tables(draw):
    as_text = draw(st.booleans())
    ids = _TEXT_IDS if as_text else st.integers(1, 200)
    n_items = draw(st.integers(1, 12))
    n_raters = draw(st.integers(1, 6))
    item_pool = draw(st.lists(ids, min_size=n_items, max_size=n_items, unique=True))
    rater_pool = draw(st.lists(ids, min_size=n_raters, max_size=n_raters, unique=True))
    n = draw(st.integers(2, 60))
    items = [draw(st.sampled_from(item_pool)) for _ in range(n)]
    raters = [draw(st.sampled_from(rater_pool)) for _ in range(n)]
    labels = [draw(st.sampled_from(["x", "y", "z"])) for _ in range(n)]
    if as_text and draw(st.integers(0, 4)) == 0:  # a blank id somewhere
        k = draw(st.integers(0, n - 1))
        which = items if draw(st.booleans()) else raters
        which[k] = draw(_BLANKS)
    if len(set(labels)) < 2:
        labels[0], labels[-1] = "x", "y"
    return items, raters, labels


@settings(max_examples=120, deadline=None)
@given(long_tables(), st.sampled_from(["error", "first", "last", "keep"]))
def test_long_table_equals_the_python_reading(table, duplicates):
    items, raters, labels = table
    expected = _reference(items, raters, labels, duplicates)
    if expected[0] in ("blank", "twice"):
        with pytest.raises(InputError, match=rf"row {expected[1]}: "):
            humanly.Ratings.from_long(items, raters, labels, duplicates=duplicates)
        return
    r = humanly.Ratings.from_long(items, raters, labels, duplicates=duplicates)
    assert r.items.tolist() == expected[0] and r.raters.tolist() == expected[1]
    assert r.item_codes.tolist() == expected[2]
    assert r.rater_codes.tolist() == expected[3]
    assert r.label_codes.tolist() == expected[4]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@settings(max_examples=40, deadline=None)
@given(table=long_tables())
def test_files_equal_the_python_reading(suffix, table, tmp_path_factory):
    items, raters, labels = table
    expected = _reference(items, raters, labels, "error")
    path = Path(tmp_path_factory.mktemp("long")) / f"r{suffix}"
    frame = pd.DataFrame({"item": items, "rater": raters, "label": labels})
    if suffix == ".csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_parquet(path, index=False)
    if expected[0] in ("blank", "twice"):
        with pytest.raises(InputError):
            humanly.data.read_ratings(path)
        return
    r = humanly.data.read_ratings(path)
    assert [str(v) for v in r.items] == [str(v) for v in expected[0]]
    assert [str(v) for v in r.raters] == [str(v) for v in expected[1]]
    assert r.item_codes.tolist() == expected[2] and r.rater_codes.tolist() == expected[3]
    assert r.label_codes.tolist() == expected[4]


# ------------------------------------------------------------ Parquet: dictionaries vs the frame
def _read_both(path: Path, **kw):
    """read_ratings with the Parquet fast path, and through the general reader (the fast path off):
    each a Ratings or the InputError's message."""
    out = []
    for fast in (True, False):
        with mock.patch("humanly.data.readers.parquet_long", side_effect=None) as patched:
            if fast:
                patched.side_effect = _parquet_long.parquet_long
            else:
                patched.return_value = None
            try:
                out.append(humanly.data.read_ratings(path, **kw))
            except InputError as exc:
                out.append(str(exc))
    return out


def _same(a, b) -> None:
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
        return
    assert a.items.equals(b.items) and a.items.dtype == b.items.dtype
    assert a.raters.equals(b.raters) and a.raters.dtype == b.raters.dtype
    assert a.classes == b.classes and a.source == b.source
    for name in ("item_codes", "rater_codes", "label_codes"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), name


@settings(max_examples=60, deadline=None)
@given(
    long_tables(),
    st.sampled_from(["error", "first", "last", "keep"]),
    st.sampled_from(["text", "categorical", "int labels", "float labels"]),
    st.sampled_from([None, 3, 7]),
)
def test_parquet_fast_path_equals_the_general_reader(table, duplicates, layout, row_group):
    """Same Ratings (ids, their dtype and order, codes byte for byte) or the same message, whether
    the file's dictionaries are in first-appearance order (text columns), in sorted order with unused
    entries (columns written from pandas Categoricals), one per row group (``row_group``), or hold
    blanks and missing ids."""
    items, raters, labels = table
    frame = pd.DataFrame({"item": items, "rater": raters, "label": labels})
    if layout == "categorical":
        for col in ("item", "rater"):
            cats = sorted({str(v) for v in frame[col] if v is not None} | {"unused"})
            frame[col] = pd.Categorical(
                frame[col].map(lambda v: None if v is None else str(v)), cats
            )
    elif layout != "text":
        frame["label"] = frame["label"].map({"x": 0, "y": 1, "z": 2})
        if layout == "float labels":
            frame["label"] = frame["label"].astype(float)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.parquet"
        frame.to_parquet(path, index=False, row_group_size=row_group)
        fast, general = _read_both(path, options=humanly.data.ReadOptions(duplicates=duplicates))
    _same(fast, general)


def test_parquet_fast_path_is_taken(tmp_path):
    path = tmp_path / "r.parquet"
    pd.DataFrame(
        {"item": ["b", "a", "b"], "rater": ["u", "u", "v"], "label": [1, 0, 1]}
    ).to_parquet(path, index=False)
    with mock.patch("humanly.data.readers.read_table", side_effect=AssertionError("general")):
        r = humanly.data.read_ratings(path)
    assert r.items.tolist() == ["b", "a"] and r.item_codes.tolist() == [0, 0, 1]
