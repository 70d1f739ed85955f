"""Shared count arithmetic (humanly._core.counts) against brute-force enumeration of label subsets."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly._core.counts import (
    compositions,
    expected_plurality_credit,
    lncomb,
    plurality_credit,
    subcounts,
    unique_rows,
    unique_rows_with_target,
)
from humanly._core.result import Interval, Result

count_rows = st.lists(
    st.lists(st.integers(0, 4), min_size=3, max_size=3), min_size=1, max_size=6
).map(lambda rows: np.array(rows, dtype=np.int64))


def _brute_subsets(row: np.ndarray, k: int) -> Counter[tuple[int, ...]]:
    """Every k-subset of the row's labels (labels distinguishable), tallied by its count vector."""
    labels = [c for c, n in enumerate(row) for _ in range(int(n))]
    out: Counter[tuple[int, ...]] = Counter()
    for sub in itertools.combinations(range(len(labels)), k):
        y = [0] * len(row)
        for i in sub:
            y[labels[i]] += 1
        out[tuple(y)] += 1
    return out


@settings(max_examples=60, deadline=None)
@given(count_rows, st.integers(0, 6))
def test_subcounts_match_enumeration_of_label_subsets(v: np.ndarray, k: int) -> None:
    owner, y, w = subcounts(v, k)
    assert y.shape == (len(owner), v.shape[1]) and w.shape == owner.shape
    for d, row in enumerate(v):
        mine = {tuple(int(x) for x in y[s]): w[s] for s in np.flatnonzero(owner == d)}
        if row.sum() < k:
            assert not mine
            continue
        brute = _brute_subsets(row, k)
        total = math.comb(int(row.sum()), k)
        assert set(mine) == set(brute)
        for key, n in brute.items():
            assert mine[key] == pytest.approx(n / total, rel=1e-12)
        assert sum(mine.values()) == pytest.approx(1.0, rel=1e-12)


def test_subcounts_memory_follows_the_items_not_the_classes() -> None:
    # 5 labels over 200 classes: at most 2^5 = 32 sub-vectors per item, never C(k + 199, 199).
    rng = np.random.default_rng(0)
    v = np.zeros((50, 200), dtype=np.int64)
    for i in range(50):
        np.add.at(v[i], rng.integers(0, 200, size=5), 1)
    for k in range(6):
        owner, y, _ = subcounts(v, k)
        assert len(owner) <= 50 * 32
        assert np.all(y.sum(axis=1) == k)


def test_compositions_bounded_and_complete() -> None:
    rows = compositions(3, np.array([2, 1, 3]))
    brute = {
        y
        for y in itertools.product(range(3), range(2), range(4))
        if sum(y) == 3  # y_l <= cap_l
    }
    assert {tuple(r) for r in rows} == brute


@settings(max_examples=60, deadline=None)
@given(count_rows, st.integers(1, 5), st.data())
def test_expected_plurality_credit_is_the_mean_over_label_subsets(
    v: np.ndarray, k: int, data: st.DataObject
) -> None:
    target = np.array(data.draw(st.lists(st.integers(-1, 2), min_size=len(v), max_size=len(v))))
    got = expected_plurality_credit(v, target, k)
    for d, row in enumerate(v):
        if row.sum() < k or target[d] < 0:
            assert math.isnan(got[d])
            continue
        brute = _brute_subsets(row, k)
        ys = np.array(list(brute), dtype=np.int64)
        n = np.array(list(brute.values()), dtype=float)
        cr = plurality_credit(ys, np.full(len(ys), target[d]))
        assert got[d] == pytest.approx(float((n * cr).sum() / n.sum()), rel=1e-12, abs=1e-15)


def test_plurality_credit_ties_and_missing() -> None:
    c = np.array([[3, 1, 0], [2, 2, 0], [1, 1, 1], [0, 0, 0]])
    got = plurality_credit(c, np.array([0, 1, 2, 0]))
    np.testing.assert_allclose(got[:3], [1.0, 0.5, 1 / 3])
    assert math.isnan(got[3])
    assert math.isnan(plurality_credit(c[:1], np.array([-1]))[0])


@settings(max_examples=40, deadline=None)
@given(count_rows)
def test_unique_rows_roundtrip(v: np.ndarray) -> None:
    uniq, inv, mult = unique_rows(v)
    np.testing.assert_array_equal(uniq[inv], v)
    assert mult.sum() == len(v)
    target = np.arange(len(v)) % 3 - 1
    u2, t2, inv2 = unique_rows_with_target(v, target)
    np.testing.assert_array_equal(u2[inv2], v)
    np.testing.assert_array_equal(t2[inv2], target)


def test_lncomb_edges() -> None:
    assert lncomb(5, 2) == pytest.approx(math.log(10))
    assert lncomb(2, 3) == -np.inf
    assert lncomb(2, -1) == -np.inf


@dataclasses.dataclass(frozen=True, repr=False)
class Inner(Result):
    name: str
    value: float


@dataclasses.dataclass(frozen=True, repr=False)
class R(Result):
    lower: float
    rows: tuple[Inner, ...]
    ranges: dict[str, Interval]
    note: str | None = None
    hidden: int = dataclasses.field(default=0, repr=False)


def test_results_round_trip_through_their_json() -> None:
    """``from_dict`` reads the field types back: tuples, nested results, NaN (JSON null) for floats,
    ints kept as ints, ``None`` where the type allows it."""
    import json
    import math

    r = R(math.nan, (Inner("a", 0.5), Inner("b", 2)), {"q": Interval(0.1, None)}, None, hidden=3)
    data = json.loads(r.to_json())
    assert data == {
        "lower": None,
        "rows": [{"name": "a", "value": 0.5}, {"name": "b", "value": 2}],
        "ranges": {"q": [0.1, None]},
        "note": None,
    }
    back = R.from_dict(data)
    assert math.isnan(back.lower) and back.rows[1] == Inner("b", 2)
    assert back.ranges["q"] == Interval(0.1, None) and back.hidden == 0
    assert back.to_dict() == data
    with pytest.raises(TypeError, match="expected a number"):
        R.from_dict({**data, "lower": "x"})
