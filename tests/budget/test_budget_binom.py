"""Loader's binomial pmf (``humanly.budget._binom``) against mpmath, the independent slow reference."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.budget._binom import binom_pmf

mpmath.mp.dps = 50


def _reference(k: int, n: int, p: float) -> float:
    if k < 0 or k > n:
        return 0.0
    mp = mpmath.mpf(p)
    return float(mpmath.binomial(n, k) * mp**k * (1 - mp) ** (n - k))


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1, 10**7),
    frac=st.floats(0.0, 1.0),
    p=st.floats(1e-6, 1 - 1e-6),
)
def test_relative_error_against_mpmath(n: int, frac: float, p: float) -> None:
    # k near the mode and in the tails, where the probability is still a normal double
    k = round(frac * n)
    exact = _reference(k, n, p)
    ours = float(binom_pmf(k, n, p))
    if exact > 1e-290:
        assert ours == pytest.approx(exact, rel=1e-12)
    else:
        assert ours < 1e-280


def test_edges_and_outside() -> None:
    assert binom_pmf(0, 5, 0.0).item() == 1.0 and binom_pmf(1, 5, 0.0).item() == 0.0
    assert binom_pmf(5, 5, 1.0).item() == 1.0 and binom_pmf(4, 5, 1.0).item() == 0.0
    assert binom_pmf(-1, 5, 0.3).item() == 0.0 and binom_pmf(6, 5, 0.3).item() == 0.0
    for n, p in ((10, 0.3), (1000, 0.01), (7, 0.95)):
        assert binom_pmf(np.arange(n + 1), n, p).sum() == pytest.approx(1.0, abs=1e-13)
        for k in (0, n):
            assert binom_pmf(k, n, p).item() == pytest.approx(
                math.comb(n, k) * p**k * (1 - p) ** (n - k), rel=1e-13
            )


def test_subset_majority_equals_scipy_hypergeom_and_enumeration() -> None:
    """The chance that m labels drawn without replacement from an item's labels vote right, from
    exact integer binomials, equals SciPy's ``stats.hypergeom`` (reference, SciPy as installed,
    1.17.1 here) to 1e-15 and a brute-force enumeration of the draws exactly in rationals."""
    from fractions import Fraction
    from itertools import combinations

    from scipy import stats

    from humanly.budget.models import subset_majority

    rng = np.random.default_rng(3)
    total = rng.integers(0, 30, 400)
    correct = np.array([rng.integers(0, n + 1) for n in total])
    for m in (1, 2, 3, 4, 5):
        for ties, half in (("coin", 0.5), ("failure", 0.0)):
            got = subset_majority(correct, total, m, ties)
            ks = np.arange(m + 1)
            pmf = stats.hypergeom.pmf(
                ks[None, :], np.maximum(total, m)[:, None], correct[:, None], m
            )
            w = np.where(2 * ks > m, 1.0, np.where(2 * ks == m, half, 0.0))
            ref = np.where(total >= m, (pmf * w).sum(axis=1), np.nan)
            np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15)
            for n, good, value in list(zip(total, correct, got, strict=True))[:12]:
                if n < m:
                    assert np.isnan(value)
                    continue
                labels = [1] * int(good) + [0] * int(n - good)
                draws = list(combinations(labels, m))
                exact = sum(
                    Fraction(1) if 2 * sum(d) > m else Fraction(half) if 2 * sum(d) == m else 0
                    for d in draws
                ) / len(draws)
                assert value == float(exact)
