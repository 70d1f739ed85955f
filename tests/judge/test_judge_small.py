"""The small-sample interval and the rule that chooses it.

* For 0/1 credits the adjusted mean is Agresti & Coull's (1998) interval — (x + z²/2)/(n + z²) ±
  z·sqrt(p̃(1 − p̃)/(n + z²)) — and for paired 0/1 outcomes Agresti & Min's (2005) — ½ added to each
  cell of the 2 × 2 table — written out here from the papers' formulas (1e-12);
* the rule: below ``SMALL_N`` labelled items ``"auto"`` takes the adjusted interval (code
  ``small_sample``), from there on PPI++'s own, unchanged; ``"clt"`` and ``"adjusted"`` force one;
* the adjusted interval covers at least 94% for a difference of two models at n = 25 in settings
  outside the coverage table (other accuracies, several raters' fractional credit).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.errors import InputError
from humanly.judging._ppi import fit, moments, z_value
from humanly.judging._small import SMALL_N, adjusted, interval_method
from humanly.judging.arrays import small_sample_mean


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 400),
    share=st.floats(0, 1),
    level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_a_proportion_is_agresti_coull(n: int, share: float, level: float) -> None:
    x = round(share * n)
    y = np.array([1.0] * x + [0.0] * (n - x))
    point, se = adjusted(y, kind="mean", level=level)
    z = z_value(level)
    p = (x + z**2 / 2) / (n + z**2)
    assert point[0] == pytest.approx(p, abs=1e-12)
    assert se[0] == pytest.approx(np.sqrt(p * (1 - p) / (n + z**2)), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    n11=st.integers(0, 60),
    n10=st.integers(0, 60),
    n01=st.integers(0, 60),
    n00=st.integers(0, 60),
)
def test_a_paired_difference_is_agresti_min(n11: int, n10: int, n01: int, n00: int) -> None:
    n = n11 + n10 + n01 + n00
    if n == 0:
        return
    a = np.array([1] * n11 + [1] * n10 + [0] * n01 + [0] * n00, dtype=float)
    b = np.array([1] * n11 + [0] * n10 + [1] * n01 + [0] * n00, dtype=float)
    point, se = adjusted(a - b, kind="difference")
    # Agresti & Min (2005): ½ added to each cell; n' = n + 2
    c11, c10, c01, c00 = (x + 0.5 for x in (n11, n10, n01, n00))
    total = c11 + c10 + c01 + c00
    p1, p2 = (c11 + c10) / total, (c11 + c01) / total
    diff = p1 - p2
    var = ((c10 + c01) / total - diff**2) / total
    assert point[0] == pytest.approx(diff, abs=1e-12)
    assert se[0] == pytest.approx(np.sqrt(var), abs=1e-12)


def test_ratings_use_the_ends_of_their_scale() -> None:
    y = np.array([5.0, 4.0, 4.0, 3.0])
    point, _ = adjusted(y, kind="mean", low=1.0, high=5.0, level=0.95)
    half = z_value(0.95) ** 2 / 2
    assert point[0] == pytest.approx((16 + half * (1 + 5)) / (4 + 2 * half))


def test_the_rule() -> None:
    assert SMALL_N == {"mean": 500, "difference": 200}
    assert interval_method(499, "mean") == ("adjusted", "small_sample")
    assert interval_method(500, "mean") == ("clt", None)
    assert interval_method(199, "difference") == ("adjusted", "small_sample")
    assert interval_method(10, "difference", "clt") == ("clt", None)
    assert interval_method(10_000, "mean", "adjusted") == ("adjusted", None)
    with pytest.raises(InputError, match="interval='wide'"):
        interval_method(10, "mean", "wide")


def test_small_sample_mean_switches_and_otherwise_is_ppi() -> None:
    rng = np.random.default_rng(0)
    y = (rng.random(600) < 0.8).astype(float)
    f = np.where(rng.random(600) < 0.9, y, 1 - y)
    f_u = (rng.random(20_000) < 0.78).astype(float)
    small = small_sample_mean(y[:60], f[:60], f_u)
    assert (small.method, small.code, small.small_n) == ("adjusted", "small_sample", 500)
    point, se = adjusted(y[:60])
    assert small.estimate.point == pytest.approx(point[0]) and small.estimate.lam == 0.0
    assert small.estimate.se == pytest.approx(se[0])
    big = small_sample_mean(y, f, f_u)
    ref = fit(y, f, moments(f_u))
    assert (big.method, big.code) == ("clt", None)
    assert big.estimate.point == ref.point[0] and big.estimate.se == ref.se[0]
    with pytest.raises(InputError, match="scale="):
        small_sample_mean(y, f, f_u, scale=(1.0, 1.0))


@pytest.mark.parametrize(("acc", "raters"), [((0.95, 0.9), 1), ((0.6, 0.55), 1), ((0.8, 0.7), 3)])
def test_the_adjusted_difference_covers_at_n_25(acc: tuple[float, float], raters: int) -> None:
    """Outside the table's setting: other accuracies, and credits that are shares of 3 raters."""
    rng = np.random.default_rng(1)
    runs, n = 20_000, 25
    a = rng.binomial(raters, acc[0], (n, runs)) / raters
    b = rng.binomial(raters, acc[1], (n, runs)) / raters
    point, se = adjusted(a - b, kind="difference")
    z = z_value(0.95)
    truth = acc[0] - acc[1]
    cover = np.mean((point - z * se <= truth) & (truth <= point + z * se))
    assert cover >= 0.94, cover
