"""Planning from a pilot (beyond the paper): :func:`humanly.budget.pilot_plan`."""

from __future__ import annotations

import pytest

from humanly import InputError
from humanly.budget import PlanOptions, pilot_plan
from humanly.simulate import pair


def _pilot(n: int = 800, labels: int = 7, seed: int = 4, **kw: float):
    params = dict(q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9) | kw
    data = pair(n, labels, seed=seed, **params)
    return data.ratings, data.predictions


def test_plan_recovers_parameters_roughly() -> None:
    ratings, preds = _pilot(3000, 9)
    res = pilot_plan(ratings, preds, level=0.95, bootstrap=100, seed=1)
    est = res.estimates
    # the crowd majority of 9 labels is a good proxy; plug-in estimates land near the truth
    assert est.p_w == pytest.approx(0.7, abs=0.05)
    assert est.p_b1 == pytest.approx(0.9, abs=0.05)
    assert est.q_b > est.q_w
    assert res.assumptions.assumption1
    assert res.recommended_labels_per_item == 1
    assert res.recommended_budget == min(r.budget_exact for r in res.sizes)
    for _, (lo, hi) in res.intervals.items():
        assert lo <= hi


def test_plan_seeded_and_deterministic() -> None:
    ratings, preds = _pilot()
    a = pilot_plan(ratings, preds, bootstrap=100, seed=2)
    b = pilot_plan(ratings, preds, bootstrap=100, seed=2)
    c = pilot_plan(ratings, preds, bootstrap=100, seed=3)
    assert a.intervals == b.intervals and a.intervals != c.intervals


def test_plan_flags_biased_label_accuracy() -> None:
    ratings, preds = _pilot(3000, 9, q_b=0.7, q_w=0.9)
    res = pilot_plan(ratings, preds, bootstrap=0)
    assert res.assumptions.assumption1 is False


def test_plan_errors() -> None:
    ratings, preds = _pilot(50, 3)
    with pytest.raises(
        InputError, match=r"better=.nope.: no such model; the models are: better, worse"
    ):
        pilot_plan(ratings, preds, options=PlanOptions(better="nope"))
    with pytest.raises(InputError, match="two models"):
        pilot_plan(ratings, preds.select(["better"]))


def test_plan_invariant_to_item_order() -> None:
    import numpy as np

    ratings, preds = _pilot(400, 5, seed=7)
    perm = np.random.default_rng(0).permutation(ratings.n_items)
    a = pilot_plan(ratings, preds, bootstrap=0)
    b = pilot_plan(ratings.take(perm), preds.take(perm), bootstrap=0)
    assert a.estimates.params() == pytest.approx(b.estimates.params())
    assert a.assumptions == b.assumptions and a.recommended_budget == b.recommended_budget
