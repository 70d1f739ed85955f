"""The judge analysis groups the unlabelled items by stratum before scoring them, so that each
stratum's scores are a slice (a view) instead of a copy: the same items in the same order within each
stratum, so every number is the same to the last bit. Checked here on the array level (the verb's
outputs are compared whole in the benchmark's check)."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.judging import _multi, _strata
from humanly.judging._blocks import Blocks


def test_groups_are_slices_in_stratum_order_and_positions_otherwise():
    codes = np.array([0, 0, 1, 2, 2, 2])
    assert _strata.groups(codes, 4) == [slice(0, 2), slice(2, 3), slice(3, 6), slice(6, 6)]
    mixed = _strata.groups(np.array([1, 0, 1, 0]), 2)
    assert [g.tolist() for g in mixed] == [[1, 3], [0, 2]]


def _fields(fit) -> dict:
    """Every array of a fit, a judges' fit's fits alone included, by a flat name."""
    out = {}
    for key, value in dataclasses.asdict(fit).items():
        if key == "alone":
            for j, alone in enumerate(value):
                out.update({f"alone{j}.{k}": np.asarray(v) for k, v in alone.items()})
        else:
            out[key] = np.asarray(value)
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 5),
    st.integers(1, 3),
    st.booleans(),
)
def test_fit_strata_is_the_same_with_the_unlabelled_items_grouped(seed, k, judges, weighted):
    rng = np.random.default_rng(seed)
    n, big_n, e = 12 * k, 40 * k, 2
    sl = np.concatenate([np.arange(k), np.arange(k), rng.integers(0, k, n - 2 * k)])
    su = rng.integers(0, k, big_n)
    y = rng.random((n, e))
    f = rng.random((n, e, judges)) if judges > 1 else rng.random((n, e))
    fu = rng.random((big_n, e, judges)) if judges > 1 else rng.random((big_n, e))
    w = rng.uniform(1, 3, (big_n, 1)) if weighted and judges == 1 else None
    order = np.argsort(su, kind="stable")
    estimator = (lambda a, b, c: _multi.fit_judges(a, b, c)) if judges > 1 else None
    as_given = _strata.fit_strata(y, f, fu, sl, su, weights_unlabelled=w, estimator=estimator)
    grouped = _strata.fit_strata(
        y,
        f,
        fu[order],
        sl,
        su[order],
        weights_unlabelled=None if w is None else w[order],
        estimator=estimator,
    )
    a, b = _fields(as_given.combined), _fields(grouped.combined)
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key], equal_nan=True), key
    for part_a, part_b in zip(as_given.strata, grouped.strata, strict=True):
        pa, pb = _fields(part_a), _fields(part_b)
        for key in pa:
            assert np.array_equal(pa[key], pb[key], equal_nan=True), key


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 3))
def test_blocks_built_by_stratum_fit_as_the_whole_array(seed, k, judges):
    """Scores built one stratum at a time (``Blocks``) give the fit of the whole array, bit for bit;
    their rows and one judge's selection are the array's."""
    rng = np.random.default_rng(seed)
    n, big_n, e = 10 * k, 30 * k, 3
    sl = np.concatenate([np.arange(k), np.arange(k), rng.integers(0, k, n - 2 * k)])
    su = np.sort(rng.integers(0, k, big_n))
    y, f = rng.random((n, e)), rng.random((n, e, judges))
    whole = rng.random((big_n, e, judges))
    blocks = Blocks(lambda at: whole[at].copy(), np.arange(big_n), e, judges)
    assert blocks.shape == whole.shape and len(blocks) == big_n
    assert np.array_equal(blocks[3:9], whole[3:9])
    assert np.array_equal(blocks[:, :, 0][2:5], whole[:, :, 0][2:5])
    estimator = (lambda a, b, c: _multi.fit_judges(a, b, c)) if judges > 1 else None
    lhs, rhs = (f, whole) if judges > 1 else (f[:, :, 0], whole[:, :, 0])
    lazy = blocks if judges > 1 else blocks[:, :, 0]
    as_array = _strata.fit_strata(y, lhs, rhs, sl, su, estimator=estimator)
    as_blocks = _strata.fit_strata(y, lhs, lazy, sl, su, estimator=estimator)
    for part_a, part_b in zip(as_array.strata, as_blocks.strata, strict=True):
        pa, pb = _fields(part_a), _fields(part_b)
        for key in pa:
            assert np.array_equal(pa[key], pb[key], equal_nan=True), key
