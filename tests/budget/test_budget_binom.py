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
