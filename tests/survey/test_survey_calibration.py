"""Isotonic calibration gives what scikit-learn's ``IsotonicRegression(y_min=0, y_max=1,
out_of_bounds="clip")`` gave: equal outputs pooled first, a non-decreasing weighted least-squares fit,
linear interpolation between fitted points and constant values beyond them. The expected values are
computed here independently (a plain pool-adjacent-violators loop), and one case is pinned to the
numbers scikit-learn 1.9 printed. The fit itself (humanly's one-pass PAVA, SciPy's above
``_PAVA_SCIPY_ABOVE`` points) equals SciPy 1.17's :func:`scipy.optimize.isotonic_regression`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import isotonic_regression

from humanly.survey import calibration, equivalence
from humanly.survey.calibration import calibrate_outputs, isotonic_fit


def pava(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted non-decreasing least-squares fit: merge adjacent blocks while they decrease."""
    blocks: list[list[float]] = []  # [mean, weight, size]
    for yi, wi in zip(y, w, strict=True):
        blocks.append([float(yi), float(wi), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, n2 = blocks.pop()
            m1, w1, n1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    return np.concatenate([np.full(int(n), m) for m, _, n in blocks])


def reference_isotonic(x: np.ndarray, y: np.ndarray, x_new: np.ndarray) -> np.ndarray:
    ux, inv = np.unique(x, return_inverse=True)
    w = np.bincount(inv).astype(float)
    mean = np.bincount(inv, weights=y) / w
    fit = np.clip(pava(mean, w), 0.0, 1.0)
    return np.interp(np.clip(x_new, ux[0], ux[-1]), ux, fit)


def test_pinned_scikit_learn_case() -> None:
    x = np.array([0.3, 0.1, 0.1, 0.5, 0.2, 0.9, 0.7, 0.7, 0.4])
    y = np.array([0.5, 0.75, 0.0, 0.25, 1.0, 0.5, 1.0, 0.0, 0.0])
    x_new = np.array([-1, 0.1, 0.15, 0.3, 0.45, 0.6, 0.7, 0.8, 2])
    sklearn_1_9 = [0.375, 0.375, 0.40625, 0.4375, 0.4375, 0.46875, 0.5, 0.5, 0.5]
    assert isotonic_fit(x, y, x_new).tolist() == sklearn_1_9
    np.testing.assert_allclose(reference_isotonic(x, y, x_new), sklearn_1_9)


def test_ties_in_x_are_pooled_before_the_fit() -> None:
    # without pooling, sorted (x, y) = (1, 0), (1, 1), (2, 0.25) would fit 0 at the first x = 1
    out = isotonic_fit(np.array([1.0, 1.0, 2.0]), np.array([1.0, 0.0, 0.25]), np.array([1.0, 2.0]))
    np.testing.assert_allclose(out, [1.25 / 3, 1.25 / 3])


def test_single_distinct_output_is_a_constant() -> None:
    out = isotonic_fit(np.full(4, 0.3), np.array([0.0, 1.0, 1.0, 1.0]), np.array([0.0, 0.3, 5.0]))
    np.testing.assert_allclose(out, [0.75, 0.75, 0.75])


@pytest.mark.parametrize("seed", range(8))
def test_random_cases_match_pool_adjacent_violators(seed: int) -> None:
    g = np.random.default_rng(seed)
    n = int(g.integers(2, 300))
    x = g.random(n) if seed % 2 else np.round(g.normal(size=n), 1)  # with many ties
    y = g.integers(0, 5, n) / 4 if seed % 3 else g.random(n)
    x_new = np.concatenate([x, g.normal(size=30) * 3])  # and outside the fitted range
    np.testing.assert_allclose(isotonic_fit(x, y, x_new), reference_isotonic(x, y, x_new), 1e-12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False),
            st.floats(1e-3, 1e3, allow_nan=False),
        ),
        min_size=1,
        max_size=60,
    )
)
def test_pava_equals_scipy_and_is_a_non_decreasing_projection(
    points: list[tuple[float, float]],
) -> None:
    y = np.array([p[0] for p in points])
    w = np.array([p[1] for p in points])
    fit = calibration._pava(y, w)
    np.testing.assert_allclose(fit, isotonic_regression(y, weights=w).x, rtol=1e-9, atol=1e-9)
    assert np.all(np.diff(fit) >= -1e-9 * (1 + np.abs(fit[1:])))
    assert abs(float(w @ fit) - float(w @ y)) <= 1e-9 * (1 + float(w @ np.abs(y)))  # means kept


def test_large_fits_go_to_scipy_with_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    g = np.random.default_rng(5)
    x, y = g.random(3000), g.integers(0, 4, 3000) / 3
    x_new = g.normal(size=500) * 0.5 + 0.5
    ours = isotonic_fit(x, y, x_new)
    monkeypatch.setattr(calibration, "_PAVA_SCIPY_ABOVE", 1000)
    np.testing.assert_allclose(isotonic_fit(x, y, x_new), ours, rtol=0, atol=1e-13)


@pytest.mark.parametrize(("positive", "kind"), [(1, "score"), (0, "score"), (1, "proba")])
def test_calibrate_outputs_isotonic_in_sample(positive: int, kind: str) -> None:
    g = np.random.default_rng(positive + 3)
    n = 400
    s = g.random(n)
    counts = g.binomial(6, s)[:, None] * np.array([-1, 1]) + np.array([6, 0])
    counts[::17] = 0  # items without labels take no part in the fit
    values = np.round(s + g.normal(scale=0.2, size=n), 2)
    if kind == "proba":
        values = np.column_stack([1 - np.clip(values, 0, 1), np.clip(values, 0, 1)])
        values = values if positive == 1 else values[:, ::-1]
    x = values[:, positive] if kind == "proba" else values
    got = calibrate_outputs(kind, values, counts, "isotonic", positive=positive)
    has = counts.sum(1) > 0
    frac = counts[has, positive] / counts[has].sum(1)
    q = reference_isotonic(x[has], frac, x)
    want = np.zeros((n, 2))
    want[:, positive], want[:, 1 - positive] = q, 1 - q
    want = np.clip(want, 1e-3, 1 - 1e-3)
    want /= want.sum(1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_calibration_arguments_name_the_parameter() -> None:
    counts = np.array([[1, 1], [2, 0], [0, 2]])
    x = np.array([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="method='platt'"):
        calibrate_outputs("score", x, counts, "platt", positive=1)
    with pytest.raises(ValueError, match="folds=1"):
        calibrate_outputs("score", x, counts, "isotonic", positive=1, folds=1)
    with pytest.raises(ValueError, match="folds=4: more folds than labelled items"):
        calibrate_outputs("score", x, counts, "isotonic", positive=1, folds=4)
    with pytest.raises(ValueError, match="calibrate='per-value'"):
        calibrate_outputs("score", x, np.array([[1, 1, 0]] * 3), "isotonic", positive=1)


def test_wiki_equivalence_uses_the_same_calibration() -> None:
    from humanly.datasets import wiki_attack

    r, p = wiki_attack()
    res = equivalence(r, p, calibrate="isotonic", bootstrap=0)
    m = p.models[0]
    has = r.counts.sum(1) > 0
    x = m.values[:, 1] if m.kind == "proba" else m.values
    q = reference_isotonic(x[has], r.counts[has, 1] / r.counts[has].sum(1), x)
    assert res.calibration == "isotonic (in-sample)"
    # the model's cross-entropy from the independently calibrated probabilities
    pr = np.clip(np.column_stack([1 - q, q]), 1e-3, 1 - 1e-3)
    pr /= pr.sum(1, keepdims=True)
    frac = r.counts / np.maximum(r.counts.sum(1, keepdims=True), 1)
    score = float((frac[has] * np.log2(pr[has])).sum(1).mean())
    assert res.models[0].score == pytest.approx(score, rel=1e-10)
