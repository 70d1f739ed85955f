"""Invariants of the array-level estimators of issue 32 (hypothesis): every interval is ordered around
its estimate, the human-only one too; shares are probabilities summing to 1; the order of the items
does not change a number (beyond the last digits of a sum); renaming the strata does not either."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.judging.arrays import (
    combine_judges,
    crossppi_mean,
    paired_difference,
    rating_mean,
    share_at_least,
    small_sample_mean,
    stratified_mean,
)


def _ordered(e) -> None:
    assert e.interval.low <= e.point <= e.interval.high
    assert e.classical_interval.low <= e.classical_point <= e.classical_interval.high
    assert e.se >= 0 and e.n >= 2


def _draw(seed: int, n: int, big_n: int):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(float)
    acc = rng.uniform(0.3, 1.0)
    f = np.where(rng.random(n) < acc, y, 1 - y)
    f2 = np.clip(y + rng.normal(0, 0.5, n), 0, 1)
    f_u = (rng.random(big_n) < rng.uniform(0.1, 0.9)).astype(float)
    f2_u = rng.random(big_n)
    s = rng.integers(0, 3, n)
    s[:6] = [0, 0, 1, 1, 2, 2]
    s_u = rng.integers(0, 3, big_n)
    return rng, y, f, f2, f_u, f2_u, s, s_u


def _all(y, f, f2, f_u, f2_u, s, s_u):
    """Every estimator on the same draw, as {name: Estimate}."""
    both, both_u = np.column_stack([f, f2]), np.column_stack([f_u, f2_u])
    folds = np.column_stack([f2_u, 1 - f2_u, f_u])
    return {
        "strata": stratified_mean(y, f, f_u, s, s_u).estimate,
        "strata, judges": stratified_mean(y, both, both_u, s, s_u).estimate,
        "judges": combine_judges(y, both, both_u).estimate,
        "crossppi": crossppi_mean(y, f2, folds),
        "mean": rating_mean(y, f, f_u),
        "share": share_at_least(y, f2, f2_u, 0.5),
        "difference": paired_difference(y, f2, f, f2, f_u, f2_u),
        "small": small_sample_mean(y, f, f_u).estimate,
        "small difference": small_sample_mean(
            y - f2, f - f2, f_u - f2_u, kind="difference"
        ).estimate,
    }


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 150), big_n=st.integers(1, 800))
def test_intervals_are_ordered(seed: int, n: int, big_n: int) -> None:
    _, y, f, f2, f_u, f2_u, s, s_u = _draw(seed, n, big_n)
    for e in _all(y, f, f2, f_u, f2_u, s, s_u).values():
        _ordered(e)
    r = stratified_mean(y, f, f_u, s, s_u)
    shares = [x.share for x in r.strata]
    assert all(0 <= w <= 1 for w in shares) and sum(shares) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 150), big_n=st.integers(2, 800))
def test_the_order_of_the_items_does_not_matter(seed: int, n: int, big_n: int) -> None:
    rng, y, f, f2, f_u, f2_u, s, s_u = _draw(seed, n, big_n)
    base = _all(y, f, f2, f_u, f2_u, s, s_u)
    p, q = rng.permutation(n), rng.permutation(big_n)
    again = _all(y[p], f[p], f2[p], f_u[q], f2_u[q], s[p], s_u[q])
    for name, e in base.items():
        other = again[name]
        for field in ("point", "se", "classical_point", "sd"):
            a, b = getattr(e, field), getattr(other, field)
            assert a == pytest.approx(b, rel=1e-9, abs=1e-12), (name, field)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), labels=st.permutations(["x", "y", "z"]))
def test_renaming_the_strata_does_not_matter(seed: int, labels: list[str]) -> None:
    _, y, f, _, f_u, _, s, s_u = _draw(seed, 120, 600)
    base = stratified_mean(y, f, f_u, s, s_u)
    names = np.array(labels)
    again = stratified_mean(y, f, f_u, names[s], names[s_u])
    assert again.estimate.point == pytest.approx(base.estimate.point, rel=1e-12, abs=1e-14)
    assert again.estimate.se == pytest.approx(base.estimate.se, rel=1e-12)
    by_name = {x.stratum: x.estimate.point for x in again.strata}
    for k, x in enumerate(base.strata):
        assert by_name[labels[k]] == x.estimate.point
