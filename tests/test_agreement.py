"""Agreement statistics against independent implementations: statsmodels (Fleiss' kappa, equal raters),
the `krippendorff` package (nominal alpha, ragged), and brute-force pair enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.agreement import (
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
