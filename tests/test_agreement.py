"""Agreement statistics against independent implementations: statsmodels (Fleiss' kappa, equal raters),
the `krippendorff` package (nominal alpha, ragged), and brute-force pair enumeration; their bootstrap
intervals against a slow bootstrap that replays the same resamples through the plain functions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly._core.bootstrap import percentile_interval
from humanly._core.counts import unique_rows
from humanly._core.rng import stream
from humanly.crowd.agreement import (
    agreement_intervals,
    agreement_replicates,
    fleiss_kappa,
    krippendorff_alpha_nominal,
    mean_pairwise_agreement,
    pairwise_agreement,
)

krippendorff = pytest.importorskip("krippendorff")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


def _reliability(counts: np.ndarray) -> np.ndarray:
    """Units × coders matrix for `krippendorff` (coders = slots, NaN missing), from counts."""
    width = int(counts.sum(axis=1).max())
    out = np.full((width, len(counts)), np.nan)
    for i, row in enumerate(counts):
        labels = np.repeat(np.arange(len(row)), row)
        out[: len(labels), i] = labels
    return out


equal_counts = st.integers(2, 4).flatmap(
    lambda c: st.integers(2, 7).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, n), min_size=c, max_size=c).filter(lambda r: sum(r) <= n),
            min_size=2,
            max_size=25,
        ).map(lambda rows: np.array([[*r[:-1], n - sum(r[:-1])] for r in rows]))
    )
)

ragged_counts = st.integers(2, 4).flatmap(
    lambda c: st.lists(
        st.lists(st.integers(0, 5), min_size=c, max_size=c), min_size=2, max_size=25
    ).map(np.array)
)


@settings(max_examples=150, deadline=None)
@given(equal_counts)
def test_fleiss_matches_statsmodels(counts):
    if (counts.sum(axis=0) > 0).sum() < 2:
        assert np.isnan(fleiss_kappa(counts))  # one class used: chance agreement is 1
        return
    assert fleiss_kappa(counts) == pytest.approx(inter_rater.fleiss_kappa(counts), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(ragged_counts)
def test_alpha_matches_krippendorff(counts):
    pairable = counts.sum(axis=1) >= 2
    used = counts[pairable].sum(axis=0) > 0
    ours = krippendorff_alpha_nominal(counts)
    if used.sum() < 2:
        assert np.isnan(ours)
        return
    ref = krippendorff.alpha(reliability_data=_reliability(counts), level_of_measurement="nominal")
    assert ours == pytest.approx(ref, abs=1e-10)


@settings(max_examples=150, deadline=None)
@given(ragged_counts)
def test_pairwise_matches_brute_force(counts):
    expected = []
    for row in counts:
        labels = np.repeat(np.arange(len(row)), row)
        pairs = list(itertools.permutations(range(len(labels)), 2))
        expected.append(np.mean([labels[a] == labels[b] for a, b in pairs]) if pairs else np.nan)
    np.testing.assert_allclose(pairwise_agreement(counts), expected, equal_nan=True)
    ok = ~np.isnan(expected)
    if ok.any():
        assert mean_pairwise_agreement(counts) == pytest.approx(np.mean(np.asarray(expected)[ok]))


def test_fleiss_reference_example():
    """Fleiss (1971) worked example as on Wikipedia: 10 subjects, 14 raters, 5 categories, κ = 0.210."""
    table = np.array(
        [
            [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
            [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
        ]
    )  # fmt: skip
    assert fleiss_kappa(table) == pytest.approx(0.20993, abs=5e-5)


# ---------------------------------------------------------------------------- bootstrap intervals


@pytest.fixture
def rte_counts(shared_data: Path) -> np.ndarray:
    """Snow et al. (2008) RTE: 800 items × 10 labels (skipped when ../shared/data is absent)."""
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    r = humanly.data.read_ratings(
        path, item_col="orig_id", rater_col="!amt_worker_ids", label_col="response"
    )
    return r.counts


def _plain(counts: np.ndarray) -> tuple[float, float, float]:
    return (
        mean_pairwise_agreement(counts),
        fleiss_kappa(counts),
        krippendorff_alpha_nominal(counts),
    )


def test_intervals_replay_the_same_resamples_through_the_plain_statistics(rte_counts):
    """Replicate i resamples the items by the multinomial draw of stream(seed, i) over the distinct
    count rows; replaying those resamples as item indices through the plain statistic functions (one
    Python call per replicate) gives the same replicates and the same intervals. The two sum the same
    terms in a different order, so values agree to rounding (1e-12), not bit for bit."""
    counts = rte_counts
    b, seed = 400, 7
    rows, inv, mult = unique_rows(counts)
    first = np.array([np.flatnonzero(inv == u)[0] for u in range(len(rows))])  # one item per row
    slow = np.empty((b, 3))
    for i in range(b):
        w = stream(seed, i).multinomial(len(counts), mult / len(counts))
        idx = np.repeat(first, w)  # the resampled items, as item indices
        assert len(idx) == len(counts)
        slow[i] = _plain(counts[idx])
    fast = agreement_replicates(counts, bootstrap=b, seed=seed)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)
    ci = agreement_intervals(counts, bootstrap=b, seed=seed)
    for j, name in enumerate(("pairwise", "fleiss_kappa", "krippendorff_alpha")):
        low, high = getattr(ci, name)
        ref = percentile_interval(slow[:, j], 0.95)
        assert low == pytest.approx(ref.low, abs=1e-12) and high == pytest.approx(
            ref.high, abs=1e-12
        )
        assert low <= _plain(counts)[j] <= high
    assert (ci.level, ci.bootstrap, ci.seed) == (0.95, b, seed)


def test_intervals_match_an_item_index_bootstrap_in_law(rte_counts):
    """The multinomial over distinct rows has the law of drawing n item indices uniformly: a plain
    bootstrap with its own generator (rng.integers) gives the same intervals up to Monte Carlo error.
    With 2,000 replicates a 2.5% quantile of a near-normal statistic with standard error σ has Monte
    Carlo sd √(0.025 · 0.975 / 2000) / φ(1.96) · σ ≈ 0.06 σ, so two independent runs differ with sd
    ≈ 0.085 σ; we allow 0.35 σ (about 4 sd)."""
    counts = rte_counts
    b = 2000
    rng = np.random.default_rng(123)
    slow = np.array([_plain(counts[rng.integers(0, len(counts), len(counts))]) for _ in range(b)])
    ci = agreement_intervals(counts, bootstrap=b, seed=0)
    for j, name in enumerate(("pairwise", "fleiss_kappa", "krippendorff_alpha")):
        ref = percentile_interval(slow[:, j], 0.95)
        se = slow[:, j].std()
        got = getattr(ci, name)
        assert abs(got.low - ref.low) < 0.35 * se and abs(got.high - ref.high) < 0.35 * se


@settings(max_examples=80, deadline=None)
@given(ragged_counts, st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_interval_properties(counts, seed, rnd):
    ci = agreement_intervals(counts, bootstrap=100, seed=seed)
    ranges = {"pairwise": (0.0, 1.0), "fleiss_kappa": (-np.inf, 1.0), "krippendorff_alpha": (-1, 1)}
    for name, (lo, hi) in ranges.items():
        low, high = getattr(ci, name)
        assert (low is None) == (high is None)
        if low is not None:
            assert lo - 1e-12 <= low <= high <= hi + 1e-12
    order = list(range(len(counts)))
    rnd.shuffle(order)
    shuffled = agreement_intervals(counts[order], bootstrap=100, seed=seed)
    assert shuffled == ci  # item order never matters: the same bytes
    again = agreement_intervals(counts, bootstrap=100, seed=seed)
    assert again == ci


def test_replicate_statistics_follow_the_plain_rules():
    """Replicates with no pairable item are NaN, a single used class makes kappa and alpha NaN."""
    values = agreement_replicates([[1, 0], [0, 1]], bootstrap=100)
    assert np.isnan(values).all()
    values = agreement_replicates([[3, 0], [2, 0]], bootstrap=100)
    assert (values[:, 0] == 1.0).all() and np.isnan(values[:, 1:]).all()
    ci = agreement_intervals([[3, 0], [2, 0]], bootstrap=100)
    assert ci.fleiss_kappa == (None, None) and ci.pairwise == (1.0, 1.0)
    assert agreement_replicates([[2, 1]], bootstrap=0).shape == (0, 3)


def test_seeds_and_arguments():
    counts = np.array([[3, 0], [2, 1], [0, 3], [1, 2], [2, 2]])
    a = agreement_intervals(counts, bootstrap=100, seed=1)
    assert a == agreement_intervals(counts, bootstrap=100, seed=1)
    assert a != agreement_intervals(counts, bootstrap=100, seed=2)
    from_gen = agreement_intervals(counts, bootstrap=100, seed=np.random.default_rng(5))
    assert from_gen.seed is not None  # the int drawn from the Generator: the run can be replayed
    assert from_gen == agreement_intervals(counts, bootstrap=100, seed=from_gen.seed)
    fresh = agreement_intervals(counts, bootstrap=100, seed=None)
    assert fresh == agreement_intervals(counts, bootstrap=100, seed=fresh.seed)  # replayable too
    for bad in ([[1, -1]], [[0.5, 1]], [1, 2], "x"):
        with pytest.raises(ValueError, match=r"^counts=\w+: give an items × classes matrix"):
            agreement_intervals(bad)
    with pytest.raises(ValueError, match=r"^bootstrap=-1: "):
        agreement_intervals(counts, bootstrap=-1)
    with pytest.raises(ValueError, match=r"^level=1.5: "):
        agreement_intervals(counts, level=1.5)
    with pytest.raises(TypeError, match=r"^seed='x': "):
        agreement_intervals(counts, seed="x")
    assert json.loads(a.to_json())["pairwise"] == list(a.pairwise)
