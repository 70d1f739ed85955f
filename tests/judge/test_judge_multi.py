"""Several judges at once (multi-judge PPI++): one weight per judge minimising the estimated variance.

* One judge is PPI++ (``humanly.judging._ppi.fit``, itself ppi-python's λ̂) to 1e-12.
* The weights minimise the estimated variance over [0, 1]^J: no start of scipy's L-BFGS-B (an
  independent optimiser) finds a smaller value; ``clip=False`` is the closed form ((1 + n/N)Σ)⁻¹c.
* Two copies of one judge are worth that judge; the order of the judges and of the items does not
  change the estimate (hypothesis).
* Coverage by simulation: 95% intervals of the combination cover about 95% of the time, and the
  combination is worth at least as many labels as its best judge.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.errors import InputError
from humanly.judging._multi import box_weights, fit_judges
from humanly.judging._ppi import fit, moments
from humanly.judging.arrays import combine_judges


def _judges(seed: int, n: int, big_n: int, noise=(0.2, 0.5, 1.0), flip: bool = False):
    rng = np.random.default_rng(seed)
    y = np.clip(rng.normal(0.6, 0.25, n), 0, 1)
    x = np.clip(rng.normal(0.6, 0.25, big_n), 0, 1)
    f = np.column_stack([y + rng.normal(0, s, n) for s in noise])
    f_u = np.column_stack([x + rng.normal(0, s, big_n) for s in noise])
    if flip:  # a judge that anti-correlates: its weight goes to 0
        f[:, 1], f_u[:, 1] = -f[:, 1], -f_u[:, 1]
    return y, f, f_u


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 300), big_n=st.integers(2, 2000))
def test_one_judge_is_ppi_plus_plus(seed: int, n: int, big_n: int) -> None:
    y, f, f_u = _judges(seed, n, big_n)
    one = fit_judges(y, f[:, :1], f_u[:, :1])
    ref = fit(y, f[:, 0], moments(f_u[:, 0]))
    for field in ("point", "se", "lam", "classical_point", "classical_se", "sd"):
        np.testing.assert_allclose(getattr(one, field), getattr(ref, field), rtol=1e-12, atol=1e-13)


def _objective(y, f, f_u):
    n, big_n = len(y), len(f_u)
    sigma = np.cov(np.concatenate([f, f_u]).T)  # pooled, divisor n + N − 1, as ppi-python
    c = ((y - y.mean())[:, None] * (f - f.mean(axis=0))).mean(axis=0)
    return lambda lam: (1 / big_n + 1 / n) * lam @ sigma @ lam - 2 * lam @ c / n


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), flip=st.booleans(), j=st.integers(2, 4))
def test_weights_minimise_the_estimated_variance(seed: int, flip: bool, j: int) -> None:
    scipy_optimize = pytest.importorskip("scipy.optimize")
    y, f, f_u = _judges(seed, 120, 1500, noise=(0.2, 0.5, 1.0, 0.3)[:j], flip=flip)
    r = fit_judges(y, f, f_u)
    value = _objective(y, f, f_u)
    rng = np.random.default_rng(seed)
    best = min(
        scipy_optimize.minimize(
            value,
            x0,
            bounds=[(0, 1)] * j,
            method="L-BFGS-B",
            options={"ftol": 1e-15, "gtol": 1e-12},
        ).fun
        for x0 in rng.random((3, j))
    )
    assert value(r.weights[0]) <= best + 1e-12
    assert ((r.weights >= 0) & (r.weights <= 1)).all()
    free = fit_judges(y, f, f_u, clip=False)
    sigma = np.cov(np.concatenate([f, f_u]).T) * (1 + 120 / 1500)
    c = ((y - y.mean())[:, None] * (f - f.mean(axis=0))).mean(axis=0)
    np.testing.assert_allclose(free.weights[0], np.linalg.solve(sigma, c), rtol=1e-9, atol=1e-12)


def test_box_weights_on_a_known_problem() -> None:
    a = np.array([[2.0, 0.0], [0.0, 2.0]])
    np.testing.assert_allclose(box_weights(a, np.array([4.0, -1.0])), [1.0, 0.0])
    np.testing.assert_allclose(box_weights(a, np.array([1.0, 0.5])), [0.5, 0.25])
    np.testing.assert_allclose(box_weights(a, np.array([4.0, -1.0]), clip=False), [2.0, -0.5])


def test_two_copies_of_a_judge_are_worth_that_judge() -> None:
    y, f, f_u = _judges(3, 200, 2000)
    twice = fit_judges(y, f[:, [0, 0]], f_u[:, [0, 0]])
    once = fit(y, f[:, 0], moments(f_u[:, 0]))
    assert twice.lam[0] == pytest.approx(once.lam[0], rel=1e-9)
    assert twice.se[0] == pytest.approx(once.se[0], rel=1e-9)
    assert twice.point[0] == pytest.approx(once.point[0], rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_order_of_judges_and_items_does_not_matter(seed: int) -> None:
    y, f, f_u = _judges(seed, 80, 600)
    base = combine_judges(y, f, f_u, judges=["a", "b", "c"])
    rng = np.random.default_rng(seed)
    order, p, q = rng.permutation(3), rng.permutation(80), rng.permutation(600)
    names = np.array(["a", "b", "c"])[order].tolist()
    again = combine_judges(y[p], f[p][:, order], f_u[q][:, order], judges=names)
    assert again.estimate.point == pytest.approx(base.estimate.point, rel=1e-10, abs=1e-12)
    assert again.estimate.se == pytest.approx(base.estimate.se, rel=1e-9)
    weights = {j.judge: j.weight for j in base.judges}
    for j in again.judges:
        assert j.weight == pytest.approx(weights[j.judge], rel=1e-7, abs=1e-9)


def test_coverage_and_effective_labels() -> None:
    rng = np.random.default_rng(11)
    runs, n, big_n, hits = 800, 300, 3000, 0
    ratio = []
    for _ in range(runs):
        truth = (rng.random(n + big_n) < 0.7).astype(float)
        judge = [np.where(rng.random(n + big_n) < a, truth, 1 - truth) for a in (0.85, 0.8)]
        f = np.column_stack(judge)
        r = combine_judges(truth[:n], f[:n], f[n:])
        hits += r.estimate.interval.low <= 0.7 <= r.estimate.interval.high
        ratio.append(r.estimate.effective_n / max(j.alone.effective_n for j in r.judges))
    assert 0.93 <= hits / runs <= 0.97, hits / runs
    assert np.mean(ratio) > 1.0  # two independent judges beat the better one alone


def test_errors_name_the_parameter() -> None:
    y, f, f_u = _judges(1, 50, 100)
    with pytest.raises(InputError, match="judges: 2 names for 3 judges"):
        combine_judges(y, f, f_u, judges=["a", "b"])
    with pytest.raises(InputError, match="f_unlabelled: shape"):
        combine_judges(y, f, f_u[:, :2])
    with pytest.raises(InputError, match="at most 8"):
        combine_judges(y, np.tile(f, 3), np.tile(f_u, 3))
