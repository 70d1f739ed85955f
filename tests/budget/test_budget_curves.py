"""The figures' curves are results computed by :mod:`humanly.budget` (the figures draw them): each point
is the number the calculators give at that setting, the probabilities are probabilities, and the budget
analysis of a study does not depend on the order of the items."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from humanly import InputError, Ratings
from humanly.budget import (
    CorrelatedErrors,
    IndependentErrors,
    accuracy_curve,
    capacity,
    capacity_curve,
    compare,
    plan,
    rate_curve,
    rates,
    win_curve,
)
from humanly.budget.curves import curve_budgets
from humanly.simulate import pair

COR = CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9)


def test_win_curve_points_are_the_comparisons_numbers() -> None:
    curve = win_curve(COR, (1, 3), [300, 1500], ties="half", vote_ties="failure")
    for k in (300, 1500):
        res = compare(COR, k, (1, 3), ties="half", vote_ties="failure")
        for row in res.rows:
            (point,) = [
                p
                for p in curve.points
                if p.labels_per_item == row.labels_per_item and p.budget == k
            ]
            assert point.win == row.exact and point.n == row.n
    assert curve.ties == "half" and curve.vote_ties == "failure"


def test_a_budget_below_m_labels_one_item() -> None:
    curve = win_curve(COR, (5,), [2])
    assert curve.points[0].n == 1  # as the figure always drew it


def test_accuracy_curve_is_fig_2a() -> None:
    curve = accuracy_curve(0.8, 0.01, 1500, (1, 3, 5), qs=[0.8])
    wins = [p.win for p in curve.points]
    assert wins == [r.exact for r in compare(IndependentErrors(0.8, 0.01, 0.8), 1500).rows]
    with pytest.raises(InputError, match=r"q=0\.4"):
        accuracy_curve(qs=[0.4])


def test_capacity_curve_rows_are_the_capacity_rows() -> None:
    errors = IndependentErrors(0.75, 0.1, 0.75)
    curve = capacity_curve(errors, 0.95, [600, 1500], labels_per_item=3)
    for k, row in zip(curve.budgets, curve.rows, strict=True):
        assert row == capacity(errors, 0.95, k, (3,)).rows[0]
    assert curve.level == 0.95 and curve.labels_per_item == 3


def test_rate_curve_points_are_the_rate_table() -> None:
    curve = rate_curve(0.7, 0.1, (1, 3), qs=[0.6, 0.75])
    for q in (0.6, 0.75):
        table = rates(IndependentErrors(0.7, 0.1, q), (1, 3))
        for row in table.rows:
            (point,) = [
                p for p in curve.points if p.labels_per_item == row.labels_per_item and p.q == q
            ]
            assert point.cramer_per_label == row.cramer_per_label
            assert point.hoeffding_per_label == row.hoeffding_per_label


@settings(max_examples=25, deadline=None)
@given(top=st.integers(1, 10**6), ms=st.lists(st.integers(1, 7), min_size=1, max_size=3))
def test_curve_budgets_are_multiples_of_lcm(top: int, ms: list[int]) -> None:
    budgets = curve_budgets(top, ms)
    step = np.lcm.reduce(ms)
    assert all(k % step == 0 for k in budgets) and len(budgets) <= 101
    assert budgets[-1] <= max(top, 10 * step) < budgets[-1] + (budgets[1] - budgets[0])


@settings(max_examples=10, deadline=None)
@example(q=1.0, p=0.9, eps=0.1, budgets=[1])  # found locally: 1 − 0.9 < 0.1 in floating point
@given(
    q=st.floats(0.51, 1.0),
    p=st.floats(0.5, 0.9),
    eps=st.floats(0.001, 0.1),
    budgets=st.lists(st.integers(1, 5000), min_size=1, max_size=4),
)
def test_curves_hold_probabilities(q: float, p: float, eps: float, budgets: list[int]) -> None:
    curve = win_curve(IndependentErrors(p, eps, q), (1, 2, 3), budgets)
    assert all(0.0 <= pt.win <= 1.0 for pt in curve.points)
    rate = rate_curve(p, eps, (1, 3), qs=[q])
    assert all(pt.cramer_per_label <= 0 and pt.hoeffding_per_label <= 0 for pt in rate.points)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_plan_does_not_depend_on_the_order_of_the_items(seed: int) -> None:
    """The comparison, the curve and (without a bootstrap) the pilot plan are the same whatever the
    order of the rated items (eps = 0.1 keeps the curves' budgets, and the test, short)."""
    data = pair(200, 3, p=0.7, eps=0.1, q=0.75, seed=seed)
    perm = np.random.default_rng(seed).permutation(data.ratings.n_items)
    a = plan(data.ratings, data.predictions, bootstrap=0, eps=0.1)
    b = plan(data.ratings.take(perm), data.predictions.take(perm), bootstrap=0, eps=0.1)
    assert a.agreement == pytest.approx(b.agreement, rel=1e-12)
    assert a.comparison.win == pytest.approx(b.comparison.win, rel=1e-9)
    assert a.curve is not None and b.curve is not None
    assert [p.win for p in a.curve.points] == pytest.approx([p.win for p in b.curve.points])
    if a.pilot is not None:
        assert b.pilot is not None
        assert a.pilot.estimates.params() == pytest.approx(b.pilot.estimates.params())
        assert a.pilot.recommended_budget == b.pilot.recommended_budget
    assert all(0.0 <= w <= 1.0 for w in a.comparison.win)


def test_plan_on_counts_without_models() -> None:
    r = Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]] * 10, classes=[0, 1])
    res = plan(r, level=0.9, labels_per_item=(1, 3))
    assert (
        res.level == 0.9
        and res.comparison.level == 0.9
        and res.comparison.labels_per_item == (1, 3)
    )
    assert res.curve is not None and res.curve.labels_per_item == (1, 3) and res.pilot is None


def test_the_simulated_pair_names_its_generator() -> None:
    d = pair(20, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    assert d.truth["generator"] == "pair-independent" and "model" not in d.truth
    c = pair(20, 3, q_b=0.8, q_w=0.7, p_w=0.6, p_b0=0.7, p_b1=0.9, seed=1)
    assert c.truth["generator"] == "pair-correlated"


def test_a_bound_computed_in_floating_point_admits_its_decimal_value() -> None:
    """p = 0.9, eps = 0.1: p + eps = 1 in decimals, although 1 − 0.9 < 0.1 in floating point (found
    by hypothesis: the check refused eps=0.1 saying 'give a value with eps ∈ (0, 0.1]')."""
    from humanly.budget._args import check_accuracy

    assert check_accuracy("eps", 0.1, 0.0, 1 - 0.9, open_low=True) == 0.1
    with pytest.raises(ValueError, match=r"eps=0.11: give a value with eps ∈ \(0, 0.1\]"):
        check_accuracy("eps", 0.11, 0.0, 1 - 0.9, open_low=True)
