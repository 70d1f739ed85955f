"""A judge fitted on the labelled items: cross-PPI (Zrnic & Candès 2024), and the self-judge check.

* ``crossppi_mean`` equals ppi-python 0.2.3's ``crossppi_mean_ci`` and
  ``crossppi_mean_pointestimate`` on seeded data to 1e-8 (hypothesis);
* ``crossfit_mean`` equals the same computation done by hand (the folds it reports, numpy's
  least-squares line per fold, then ``crossppi_mean_ci``);
* why it matters, by simulation: a flexible calibration fitted on all the labelled items makes PPI's
  interval too narrow; fitted on K folds, cross-PPI covers;
* the self-judge check fires when the judge's outputs are a model's, and only then.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.errors import InputError
from humanly.judging._crossfit import folds_of
from humanly.judging._ppi import fit, moments
from humanly.judging.arrays import crossfit_mean, crossppi_mean, self_judge_check


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(5, 300),
    big_n=st.integers(2, 2000),
    k=st.integers(2, 10),
    level=st.sampled_from([0.8, 0.9, 0.95]),
)
def test_crossppi_matches_ppi_python(seed, n, big_n, k, level) -> None:
    ppi = pytest.importorskip("ppi_py")  # ppi-python 0.2.3
    rng = np.random.default_rng(seed)
    y = rng.random(n)
    f = y + rng.normal(0, 0.3, n)
    f_u = rng.random((big_n, 1)) + rng.normal(0, 0.1, (big_n, k))
    e = crossppi_mean(y, f, f_u, level=level)
    low, high = ppi.crossppi_mean_ci(y, f, f_u, alpha=1 - level)
    point = ppi.crossppi_mean_pointestimate(y, f, f_u)
    assert e.interval.low == pytest.approx(float(np.ravel(low)[0]), abs=1e-8)
    assert e.interval.high == pytest.approx(float(np.ravel(high)[0]), abs=1e-8)
    assert e.point == pytest.approx(float(np.ravel(point)[0]), abs=1e-8)


def test_crossfit_is_the_hand_computation() -> None:
    ppi = pytest.importorskip("ppi_py")
    rng = np.random.default_rng(5)
    raw = rng.random(1200)
    y_all = (rng.random(1200) < raw**2).astype(float)
    y, s, s_u = y_all[:150], raw[:150], raw[150:]
    r = crossfit_mean(y, s, s_u, folds=5, seed=3, level=0.9)
    folds = folds_of(150, 5, 3)
    f = np.empty(150)
    f_u = np.empty((1050, 5))
    for k in range(5):
        slope, intercept = np.polyfit(s[folds != k], y[folds != k], 1)
        f[folds == k] = intercept + slope * s[folds == k]
        f_u[:, k] = intercept + slope * s_u
    low, high = ppi.crossppi_mean_ci(y, f, f_u, alpha=0.1)
    assert r.estimate.interval.low == pytest.approx(float(np.ravel(low)[0]), abs=1e-10)
    assert r.estimate.interval.high == pytest.approx(float(np.ravel(high)[0]), abs=1e-10)
    assert (r.folds, r.seed, r.calibrate, r.code) == (5, 3, "linear", "crossfit")


def test_folds_are_balanced_seeded_and_checked() -> None:
    a = folds_of(103, 10, 0)
    assert sorted(np.bincount(a).tolist()) == [10] * 7 + [11] * 3
    assert np.array_equal(a, folds_of(103, 10, 0))
    assert not np.array_equal(a, folds_of(103, 10, 1))
    with pytest.raises(InputError, match="folds=1"):
        crossfit_mean(np.ones(5), np.ones(5), np.ones(9), folds=1)
    with pytest.raises(InputError, match="calibrate='isotonic'"):
        crossfit_mean(np.arange(6.0), np.arange(6.0), np.ones(9), folds=2, calibrate="isotonic")


def _bins(s: np.ndarray, y: np.ndarray):
    """A flexible calibration: the mean reference in each of 25 bins of the score (overfits)."""
    edges = np.linspace(0, 1, 26)[1:-1]
    idx = np.searchsorted(edges, s)
    count = np.bincount(idx, minlength=25)
    total = np.bincount(idx, weights=y, minlength=25)
    means = np.where(count > 0, total / np.maximum(count, 1), y.mean())
    return lambda x: means[np.searchsorted(edges, x)]


def test_cross_fitting_restores_coverage() -> None:
    """The reference depends on the score only loosely; a 25-bin calibration fitted on all 60
    labelled items fits their noise (its residuals look small), so PPI's 95% interval covers far
    less than 95% (about 82%); cross-fitted on 10 folds it covers (about 94%)."""
    rng = np.random.default_rng(0)
    runs, n, big_n = 500, 60, 3000
    naive = cross = 0
    for run in range(runs):
        raw = rng.random(n + big_n)
        y = (rng.random(n + big_n) < 0.3 + 0.4 * raw).astype(float)
        truth = 0.5  # E[0.3 + 0.4·U]
        calibrated = _bins(raw[:n], y[:n])
        in_sample = fit(y[:n], calibrated(raw[:n]), moments(calibrated(raw[n:])), lam=1.0)
        low, high = in_sample.interval(0.95)
        naive += low[0] <= truth <= high[0]
        r = crossfit_mean(y[:n], raw[:n], raw[n:], folds=10, calibrate=_bins, seed=run)
        cross += r.estimate.interval.low <= truth <= r.estimate.interval.high
    assert naive / runs < 0.85, naive / runs
    assert 0.92 <= cross / runs <= 0.98, cross / runs  # 95% ± 3 standard errors of 500 runs


def test_self_judge_check() -> None:
    rng = np.random.default_rng(1)
    m = rng.integers(0, 3, 500)
    other = np.where(rng.random(500) < 0.9, m, (m + 1) % 3)
    r = self_judge_check(m.copy(), {"m": m, "other": other})
    assert r.code == "self_judge"
    rows = {row.model: row for row in r.models}
    assert rows["m"].identical and rows["m"].agreement == 1.0
    assert not rows["other"].identical and rows["other"].agreement == pytest.approx(
        (other == m).mean()
    )
    assert self_judge_check(other, {"m": m}).code is None
    proba = rng.dirichlet(np.ones(3), 500)
    assert self_judge_check(proba, {"p": proba.copy(), "q": proba[::-1]}).code == "self_judge"
    with_nan = np.where(rng.random(500) < 0.1, np.nan, rng.random(500))
    assert self_judge_check(with_nan, {"same": with_nan.copy()}).models[0].identical
    with pytest.raises(InputError, match="model: 499 outputs for 500"):
        self_judge_check(m, {"short": m[:499]})
