"""Scores, not only accuracy: the share of ratings at or above a threshold, paired differences, and
quantiles.

* ``rating_quantile`` equals ppi-python 0.2.3's ``ppi_quantile_ci`` and ``ppi_quantile_pointestimate``
  (the 5,000-value grid and the exact grid, with and without sample weights) on seeded data to 1e-8,
  and the human-only interval its ``classical_quantile_ci`` (where that one stays within the sample);
* on a 1–5 scale, where ppi-python's interval is often empty (no grid value's rectified distribution
  function is near q between two levels), the level-by-level interval covers the true quantile at
  least 95% of the time (simulation);
* ``share_at_least`` and ``paired_difference`` are ppi-python's ``ppi_mean_ci`` on the indicators and
  on the differences (1e-9);
* intervals are ordered and do not depend on the order of the items (hypothesis).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.errors import InputError
from humanly.judging._scores import fit_quantile
from humanly.judging.arrays import paired_difference, rating_quantile, share_at_least


def _continuous(seed: int, n: int, big_n: int):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    return y, y + rng.normal(0, 0.5, n), rng.normal(0.1, 1.1, big_n)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(20, 300),
    big_n=st.integers(50, 3000),
    q=st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9]),
    level=st.sampled_from([0.9, 0.95]),
    exact_grid=st.booleans(),
    weighted=st.booleans(),
)
def test_quantile_matches_ppi_python(seed, n, big_n, q, level, exact_grid, weighted) -> None:
    ppi = pytest.importorskip("ppi_py")  # ppi-python 0.2.3
    y, f, f_u = _continuous(seed, n, big_n)
    w = w_u = None
    if weighted:
        rng = np.random.default_rng(seed + 1)
        w, w_u = rng.uniform(0.5, 2, n), rng.uniform(0.5, 2, big_n)
    grid = {"exact_grid": exact_grid, "weights": w, "weights_unlabelled": w_u}
    r = rating_quantile(y, f, f_u, q, level=level, **grid)
    assert r.method == "grid"
    point = ppi.ppi_quantile_pointestimate(
        y, f, f_u, q, exact_grid=exact_grid, w=w, w_unlabeled=w_u
    )
    assert r.point == pytest.approx(float(point), abs=1e-8)
    try:
        low, high = ppi.ppi_quantile_ci(
            y, f, f_u, q, alpha=1 - level, exact_grid=exact_grid, w=w, w_unlabeled=w_u
        )
    except IndexError:  # ppi-python fails on an empty set; humanly's ends are None
        assert r.interval.low is None and r.interval.high is None
        return
    assert r.interval.low == pytest.approx(float(low), abs=1e-8)
    assert r.interval.high == pytest.approx(float(high), abs=1e-8)
    try:
        c_low, c_high = ppi.baselines.classical_quantile_ci(y, q, alpha=1 - level)
    except IndexError:  # its upper rank can fall past the sample; humanly keeps it within
        return
    half = float(np.sqrt(q * (1 - q) * n)) * 3
    if 0 <= q * n - half and q * n + half < n:
        assert (r.classical_interval.low, r.classical_interval.high) == (
            float(c_low),
            float(c_high),
        )


def test_a_rating_scale_is_quantiled_level_by_level() -> None:
    """A 1–5 rating, a judge off by one level a third of the time: ppi-python's grid interval is
    often empty; the levels interval covers the true quantile (the least level whose distribution
    function reaches q) at least 95% of the time."""
    rng = np.random.default_rng(3)
    p = np.array([0.1, 0.15, 0.2, 0.3, 0.25])
    cdf = np.cumsum(p)

    def noisy(a: np.ndarray) -> np.ndarray:
        return np.clip(a + rng.choice([-1, 0, 0, 0, 1], len(a)), 1, 5).astype(float)

    for q in (0.25, 0.5, 0.9):
        truth = 1 + int(np.argmax(cdf >= q))
        hits, runs = 0, 300
        for _ in range(runs):
            y, y_u = 1 + rng.choice(5, 100, p=p), 1 + rng.choice(5, 3000, p=p)
            r = rating_quantile(y.astype(float), noisy(y), noisy(y_u), q)
            assert r.method == "levels"
            hits += r.interval.low <= truth <= r.interval.high
        assert hits / runs >= 0.95, (q, hits / runs)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    threshold=st.sampled_from([2, 3, 4, 5]),
    lam=st.sampled_from([None, 1.0, 0.0]),
)
def test_share_and_difference_are_ppi_on_indicators_and_differences(seed, threshold, lam) -> None:
    ppi = pytest.importorskip("ppi_py")
    rng = np.random.default_rng(seed)
    a, b = rng.integers(1, 6, 1200), rng.integers(1, 6, 1200)
    ja = np.clip(a + rng.integers(-1, 2, 1200), 1, 5)
    jb = np.clip(b + rng.integers(-1, 2, 1200), 1, 5)
    share = share_at_least(a[:150], ja[:150], ja[150:], threshold, lam=lam, level=0.9)
    ind = lambda x: (x >= threshold).astype(float)  # noqa: E731
    low, high = ppi.ppi_mean_ci(ind(a[:150]), ind(ja[:150]), ind(ja[150:]), alpha=0.1, lam=lam)
    assert share.interval.low == pytest.approx(float(np.ravel(low)[0]), abs=1e-9)
    assert share.interval.high == pytest.approx(float(np.ravel(high)[0]), abs=1e-9)
    d = paired_difference(
        a[:150], b[:150], ja[:150], jb[:150], ja[150:], jb[150:], lam=lam, level=0.9
    )
    dy, dj = (a - b).astype(float), (ja - jb).astype(float)
    low, high = ppi.ppi_mean_ci(dy[:150], dj[:150], dj[150:], alpha=0.1, lam=lam)
    assert d.interval.low == pytest.approx(float(np.ravel(low)[0]), abs=1e-9)
    assert d.interval.high == pytest.approx(float(np.ravel(high)[0]), abs=1e-9)
    # the judge's probability of a rating ≥ threshold, used as it is
    p_hat = np.clip(ind(ja) * 0.8 + 0.1, 0, 1)
    soft = share_at_least(a[:150], p_hat[:150], p_hat[150:], threshold, lam=lam, probability=True)
    ref = ppi.ppi_mean_pointestimate(ind(a[:150]), p_hat[:150], p_hat[150:], lam=lam)
    assert soft.point == pytest.approx(float(np.ravel(ref)[0]), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    discrete=st.booleans(),
    q=st.floats(0.05, 0.95),
)
def test_quantile_intervals_ordered_and_item_order_free(seed, discrete, q) -> None:
    rng = np.random.default_rng(seed)
    if discrete:
        y = rng.integers(1, 11, 80).astype(float)
        f, f_u = np.clip(y + rng.integers(-2, 3, 80), 1, 10), rng.integers(1, 11, 700).astype(float)
    else:
        y, f, f_u = _continuous(seed, 80, 700)
    r = rating_quantile(y, f, f_u, q)
    if r.interval.low is not None:
        assert r.interval.low <= r.interval.high
    assert r.classical_interval.low <= r.classical_point <= r.classical_interval.high
    p, s = rng.permutation(80), rng.permutation(700)
    assert rating_quantile(y[p], f[p], f_u[s], q).to_dict() == r.to_dict()


def test_quantile_errors() -> None:
    y, f, f_u = _continuous(0, 30, 100)
    with pytest.raises(InputError, match="quantile=1"):
        rating_quantile(y, f, f_u, 1.0)
    with pytest.raises(InputError, match="f: 29 judge scores for 30"):
        rating_quantile(y, f[:29], f_u, 0.5)
    with pytest.raises(InputError, match="y: a missing or infinite value at position"):
        rating_quantile(np.where(np.arange(30) == 4, np.nan, y), f, f_u, 0.5)
    assert fit_quantile(y, f, f_u, 0.5, max_levels=0).method == "grid"
