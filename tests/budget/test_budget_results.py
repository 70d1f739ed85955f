"""Results are typed values (tuples, small dataclasses, ``Interval``), tables have ``to_frame()``, renamed
fields keep their old JSON keys, the report's numbers come from ``assess`` and the two kinds of tie have
their own names."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from humanly import inspect
from humanly._core.result import Interval, Result
from humanly.budget import (
    Assessment,
    Assumptions,
    CorrelatedModel,
    IndependentModel,
    ParameterRanges,
    PluralitySetting,
    SweepCell,
    SweepSpec,
    adaptive_vs_single,
    assess,
    capacity,
    compare,
    label_accuracy_from_agreement,
    majority_accuracy,
    make_model,
    outcome,
    plan,
    plurality_vs_single,
    quick_compare,
    run_sweep,
    sample_size,
    simulate_win,
)
from humanly.simulate import pair

FIG2 = IndependentModel(0.8, 0.01, 0.8)
COR = CorrelatedModel(0.8, 0.7, 0.6, 0.7, 0.9)


def _no_lists_or_dicts(value: Any, path: str = "result") -> None:
    """Every field of a result, at any depth, holds no list or dict (tuples and dataclasses instead)."""
    if isinstance(value, (list, dict)):
        raise AssertionError(f"{path} is a {type(value).__name__}")
    if isinstance(value, tuple):
        for i, v in enumerate(value):
            _no_lists_or_dicts(v, f"{path}[{i}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _no_lists_or_dicts(getattr(value, f.name), f"{path}.{f.name}")


@pytest.fixture(scope="module")
def pilot():
    return pair(500, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=4)


@pytest.fixture(scope="module")
def results(pilot) -> dict[str, Result]:
    spec = SweepSpec(grid_points=2, n_values=(1, 3), m_values=(3,))
    return {
        "compare": compare(COR, 600, (1, 3), simulate=50),
        "size": sample_size(FIG2, 0.05, (1, 3)),
        "capacity": capacity(FIG2, 0.05, 1500, (1, 3)),
        "plan": plan(pilot.ratings, pilot.predictions, bootstrap=10, budget=600),
        "quick": quick_compare(0.7, 900),
        "assess": assess(pilot.ratings, pilot.predictions, bootstrap=10),
        "sweep": run_sweep(spec, show_progress=False),
        "plurality": plurality_vs_single(3, 0.7, 0.7, 0.1, 60, (1, 3), reps=50),
        "adaptive": adaptive_vs_single(FIG2, 60, reps=50),
        "montecarlo": simulate_win(FIG2, 3, 20, 50),
        "outcome": outcome(FIG2.gap(1), 100),
    }


def test_results_hold_no_lists_or_dicts(results: dict[str, Result]) -> None:
    for name, res in results.items():
        _no_lists_or_dicts(res, name)
        res.to_json()  # serialisable


def test_error_model_kind_is_scenario(results: dict[str, Result]) -> None:
    for name, scenario in (
        ("compare", "correlated"),
        ("size", "independent"),
        ("capacity", "independent"),
    ):
        res = results[name]
        assert res.scenario == scenario  # type: ignore[attr-defined]
        d = res.to_dict()
        assert d["scenario"] == scenario and "model" not in d  # "model" means a classifier
    assert isinstance(results["compare"].params, CorrelatedModel)  # type: ignore[attr-defined]
    assert results["size"].to_dict()["params"] == {"p": 0.8, "eps": 0.01, "q": 0.8}
    assert (
        IndependentModel.scenario == "independent"
        and make_model(**COR.params()).scenario == "correlated"
    )


def test_tables_have_frames(results: dict[str, Result]) -> None:
    frames = {
        "compare": ("m", "exact", "monte_carlo"),
        "size": ("m", "budget_exact", "n_hoeffding_bound"),
        "capacity": ("m", "ratio_exact", "error_exact"),
        "plan": ("m", "budget_exact"),
        "quick": ("m", "items", "win", "budget_needed"),
        "sweep": ("n", "m", "violations", "qw_gt_qb_single_wins"),
        "plurality": ("strategy", "win", "exact"),
        "adaptive": ("strategy", "win", "exact"),
    }
    for name, cols in frames.items():
        frame = results[name].to_frame()  # type: ignore[attr-defined]
        assert isinstance(frame, pd.DataFrame)
        assert set(cols) <= set(frame.columns), name
    assert len(results["compare"].to_frame()) == 2  # type: ignore[attr-defined]
    assert len(results["sweep"].to_frame()) == 2  # type: ignore[attr-defined]
    est = results["plan"].estimates_frame()  # type: ignore[attr-defined]
    assert list(est.columns) == ["parameter", "estimate", "low", "high"] and len(est) == 5
    assert list(results["sweep"].violations_frame().columns)[-2:] == ["single", "multi"]  # type: ignore[attr-defined]


def test_plan_typed_fields(results: dict[str, Result]) -> None:
    res = results["plan"]
    assert isinstance(res.estimates, CorrelatedModel)  # type: ignore[attr-defined]
    assert isinstance(res.ranges, ParameterRanges)  # type: ignore[attr-defined]
    assert all(isinstance(r, Interval) for _, r in res.ranges.items())  # type: ignore[attr-defined]
    assert isinstance(res.assumptions, Assumptions)  # type: ignore[attr-defined]
    d = res.to_dict()
    assert set(d["estimates"]) == {"q_b", "q_w", "p_w", "p_b0", "p_b1"}
    assert d["ranges"]["q_b"] == list(res.ranges.q_b)  # type: ignore[attr-defined]
    flat = {k for k in d["assumptions"] if k.startswith("assumption2_m")}
    assert flat == {"assumption2_m3", "assumption2_m5"}
    names = [k for k, _ in res.assumptions.checks()]  # type: ignore[attr-defined]
    assert names == ["assumption1", "assumption2_m3", "assumption2_m5"]
    assert d["comparison"]["scenario"] == "correlated"
    assert res.model() is res.estimates  # type: ignore[attr-defined]


def test_sweep_and_open_problem_typed(results: dict[str, Result]) -> None:
    sweep = results["sweep"]
    assert all(isinstance(c, SweepCell) for c in sweep.by_n_m)  # type: ignore[attr-defined]
    at = sweep.to_dict()["max_violation_at"]
    assert set(at) == {"q_b", "q_w", "p_w", "p_b0", "p_b1", "n", "m"}
    plur = results["plurality"]
    assert isinstance(plur.params, PluralitySetting)  # type: ignore[attr-defined]
    assert plur.to_dict()["params"] == {"n_classes": 3, "q": 0.7, "p": 0.7, "eps": 0.1}
    assert results["adaptive"].to_dict()["params"] == {"p": 0.8, "eps": 0.01, "q": 0.8}


# --------------------------------------------------------------------------- assess (the report)
def _old_report_numbers(ratings, predictions, eps: float = 0.01) -> tuple[float, float, float]:
    """The statistics the report section computed itself before ``assess`` (issue 14), from
    ``inspect``: agreement, q̂ and the better classifier's accuracy."""
    s = inspect(ratings, predictions)
    a = s.agreement.pairwise
    q = 0.5 * (1.0 + math.sqrt(max(2.0 * a - 1.0, 0.0)))
    p = 0.8
    agreements = [m.plurality_agreement for m in s.models if m.plurality_agreement]
    if agreements:
        p = float(min(max(max(agreements), 0.5 + eps), 1.0 - eps))
    return a, q, min(p, 1.0 - eps)


def test_assess_gives_the_report_numbers(pilot, results: dict[str, Result]) -> None:
    a = results["assess"]
    assert isinstance(a, Assessment)
    agreement, q, p = _old_report_numbers(pilot.ratings, pilot.predictions)
    assert (a.agreement, a.label_accuracy, a.better_accuracy) == (agreement, q, p)
    assert a.better_accuracy_source == "the best model's agreement with the plurality label"
    assert a.budget == int(pilot.ratings.counts.sum())
    assert a.comparison == quick_compare(q, a.budget, p=p - 0.01, eps=0.01, m=(1, 3, 5))
    assert a.plan == plan(pilot.ratings, pilot.predictions, bootstrap=10)
    d = a.to_dict()
    assert d["better_accuracy"] == p and "p" not in d
    assert a.model() == IndependentModel(p - 0.01, 0.01, q)
    # without models: the paper's Fig. 2 value, and no plan
    bare = assess(pilot.ratings)
    assert bare.better_accuracy == 0.8 and bare.better_accuracy_source == "the paper's Fig. 2 value"
    assert bare.plan is None and bare.plan_note is None
    assert label_accuracy_from_agreement(a.agreement) == a.label_accuracy


def test_assess_plan_note_when_the_plan_does_not_apply() -> None:
    small = pair(8, 3, p=0.7, eps=0.1, q=0.75, seed=3)
    a = assess(small.ratings, small.predictions, bootstrap=5)
    assert a.plan is None and a.plan_note is not None and "need at least 10" in a.plan_note


# --------------------------------------------------------------------------- the two kinds of tie
def test_vote_ties_and_ties_are_separate() -> None:
    even = compare(FIG2, 1000, (2,), vote_ties="failure")
    assert even.rows[0].label_accuracy == pytest.approx(majority_accuracy(0.8, 2, "failure"))
    assert even.vote_ties == "failure" and even.ties == "failure"
    default = compare(FIG2, 1000, (2,))
    assert default.rows[0].label_accuracy == pytest.approx(
        majority_accuracy(0.8, 1)
    )  # coin: M_2 = M_1
    assert default.vote_ties == "coin"
    half = compare(FIG2, 1000, (2,), ties="half")
    assert half.rows[0].exact > default.rows[0].exact and half.ties == "half"
    size = sample_size(FIG2, 0.1, (2,), vote_ties="failure")
    assert size.rows[0].label_accuracy == pytest.approx(majority_accuracy(0.8, 2, "failure"))
    cap = capacity(FIG2, 0.05, 600, (2,), vote_ties="failure")
    assert cap.vote_ties == "failure"


def test_vote_ties_failure_simulation_matches_exact() -> None:
    model = CorrelatedModel(0.8, 0.7, 0.6, 0.7, 0.9)
    exact = outcome(model.gap(2, "failure"), 30).win
    mc = simulate_win(model, 2, 30, 4000, seed=3, vote_ties="failure")
    assert abs(mc.win - exact) <= 5 * mc.se and mc.vote_ties == "failure"
    coin = simulate_win(model, 2, 30, 4000, seed=3)
    assert abs(coin.win - outcome(model.gap(2), 30).win) <= 5 * coin.se


def test_plan_vote_ties_recorded(pilot) -> None:
    res = plan(pilot.ratings, pilot.predictions, bootstrap=0, m=(1, 2), vote_ties="failure")
    assert res.vote_ties == "failure" and res.to_dict()["assumptions"]["assumption2_m2"] in (
        True,
        False,
    )
    assert np.isfinite(res.sizes[1].label_accuracy)
