"""Results are typed values (tuples, small dataclasses, ``Interval``) that round-trip through their JSON,
tables have ``to_frame()``, the report's numbers come from ``plan`` and the two kinds of tie have their
own names."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from humanly import InputError
from humanly._core.result import Interval, Result, Skipped
from humanly.budget import (
    Assumptions,
    CorrelatedErrors,
    IndependentErrors,
    ParameterIntervals,
    PilotPlan,
    PlanOptions,
    PlanResult,
    PluralitySetting,
    SweepCell,
    SweepSpec,
    accuracy_curve,
    adaptive_vs_single,
    capacity,
    capacity_curve,
    compare,
    cramer_convergence,
    fit_latent_class,
    label_accuracy_from_agreement,
    majority_accuracy,
    make_error_model,
    multiclass_compare,
    outcome,
    pilot_plan,
    plan,
    plurality_vs_single,
    quick_compare,
    rate_curve,
    rates,
    run_sweep,
    sample_size,
    simulate_win,
    symmetric_confusion,
    win_curve,
)
from humanly.simulate import pair
from humanly.verdicts.pilot import pilot_skipped_sentence
from humanly.verdicts.plan import source_words

FIG2 = IndependentErrors(0.8, 0.01, 0.8)
COR = CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9)


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
    spec = SweepSpec(grid_points=2, n_items=(1, 3), labels_per_item=(3,))
    return {
        "compare": compare(COR, 600, (1, 3), simulations=50),
        "size": sample_size(FIG2, 0.95, (1, 3)),
        "capacity": capacity(FIG2, 0.95, 1500, (1, 3)),
        "pilot": pilot_plan(pilot.ratings, pilot.predictions, bootstrap=100, budget=600),
        "quick": quick_compare(0.7, 900),
        "plan": plan(pilot.ratings, pilot.predictions, bootstrap=100),
        "plan_majority": plan(
            pilot.ratings, pilot.predictions, bootstrap=100, estimator="majority"
        ),
        "plan_bare": plan(pilot.ratings),
        "latent": fit_latent_class(
            pilot.ratings.counts, pilot.predictions.hard("better"), pilot.predictions.hard("worse")
        ),
        "rates": rates(COR, (1, 3)),
        "convergence": cramer_convergence(FIG2, (1, 3), range(30, 301, 30)),
        "multiclass": multiclass_compare(
            symmetric_confusion(3, 0.7),
            symmetric_confusion(3, 0.8),
            symmetric_confusion(3, 0.7),
            90,
            (1, 3),
        ),
        "win_curve": win_curve(COR, (1, 3), [30, 300]),
        "accuracy_curve": accuracy_curve(qs=[0.6, 0.9], labels_per_item=(1, 3)),
        "capacity_curve": capacity_curve(FIG2, 0.95, [300, 1500], 3),
        "rate_curve": rate_curve(qs=[0.6, 0.9]),
        "sweep": run_sweep(spec, show_progress=False),
        "plurality": plurality_vs_single(3, 0.7, 0.7, 0.1, 60, (1, 3), simulations=50),
        "adaptive": adaptive_vs_single(FIG2, 60, simulations=50),
        "montecarlo": simulate_win(FIG2, 3, 20, 50),
        "outcome": outcome(FIG2.gap(1), 100),
    }


def test_results_hold_no_lists_or_dicts(results: dict[str, Result]) -> None:
    for name, res in results.items():
        _no_lists_or_dicts(res, name)
        res.to_json()  # serialisable


def test_every_result_round_trips_through_its_json(results: dict[str, Result]) -> None:
    """``T.from_dict(json.loads(r.to_json())).to_dict() == json.loads(r.to_json())`` for every result
    type of the budget area, nested ones included (the error models, the rows, the curves, the fit)."""
    import json

    seen = set()
    for name, res in results.items():
        data = json.loads(res.to_json())
        again = type(res).from_dict(data)
        assert again.to_dict() == data, name
        seen.add(type(res).__name__)
    for value in (FIG2, COR, FIG2.gap(3)):
        data = json.loads(value.to_json())
        assert type(value).from_dict(data).to_dict() == data
    expected = {"PlanResult", "PilotPlan", "Comparison", "SizeResult", "CapacityResult"}
    expected |= {"WinCurve", "AccuracyCurve", "CapacityCurve", "RateCurve", "LatentClassFit"}
    assert expected <= seen


def test_plan_read_back_from_json_is_the_same_result(results: dict[str, Result]) -> None:
    """A plan read back from its JSON holds the same values (the report draws the same page)."""
    res = results["plan"]
    again = PlanResult.from_dict(json.loads(res.to_json()))
    assert again.pilot is not None and again.pilot.curve == res.pilot.curve  # type: ignore[union-attr]
    assert again.curve == res.curve and again.comparison == res.comparison  # type: ignore[attr-defined]


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
    assert isinstance(results["compare"].params, CorrelatedErrors)  # type: ignore[attr-defined]
    assert results["size"].to_dict()["params"] == {"p": 0.8, "eps": 0.01, "q": 0.8}
    assert (
        IndependentErrors.scenario == "independent"
        and make_error_model(**COR.params()).scenario == "correlated"
    )


def test_tables_have_frames(results: dict[str, Result]) -> None:
    frames = {
        "compare": ("labels_per_item", "exact", "monte_carlo"),
        "size": ("labels_per_item", "budget_exact", "n_hoeffding_bound"),
        "capacity": ("labels_per_item", "ratio_exact", "error_exact"),
        "pilot": ("labels_per_item", "budget_exact"),
        "win_curve": ("labels_per_item", "budget", "n", "win"),
        "quick": ("labels_per_item", "items", "win", "budget_needed"),
        "sweep": ("n_items", "labels_per_item", "violations", "qw_gt_qb_single_wins"),
        "plurality": ("strategy", "win", "exact"),
        "adaptive": ("strategy", "win", "exact"),
    }
    for name, cols in frames.items():
        frame = results[name].to_frame()  # type: ignore[attr-defined]
        assert isinstance(frame, pd.DataFrame)
        assert set(cols) <= set(frame.columns), name
    assert len(results["compare"].to_frame()) == 2  # type: ignore[attr-defined]
    assert len(results["sweep"].to_frame()) == 2  # type: ignore[attr-defined]
    est = results["pilot"].estimates_frame()  # type: ignore[attr-defined]
    assert list(est.columns) == ["parameter", "estimate", "low", "high"] and len(est) == 5
    assert list(results["sweep"].violations_frame().columns)[-2:] == ["single", "multi"]  # type: ignore[attr-defined]


def test_pilot_plan_typed_fields(results: dict[str, Result]) -> None:
    res = results["pilot"]
    assert isinstance(res.estimates, CorrelatedErrors)  # type: ignore[attr-defined]
    assert isinstance(res.intervals, ParameterIntervals)  # type: ignore[attr-defined]
    assert all(isinstance(r, Interval) for _, r in res.intervals.items())  # type: ignore[attr-defined]
    assert isinstance(res.assumptions, Assumptions)  # type: ignore[attr-defined]
    d = res.to_dict()
    assert set(d["estimates"]) == {"q_b", "q_w", "p_w", "p_b0", "p_b1"}
    assert d["intervals"]["q_b"] == list(res.intervals.q_b)  # type: ignore[attr-defined]
    flat = {k for k in d["assumptions"] if k.startswith("assumption2_m")}
    assert flat == {"assumption2_m3", "assumption2_m5"}
    names = [k for k, _ in res.assumptions.checks()]  # type: ignore[attr-defined]
    assert names == ["assumption1", "assumption2_m3", "assumption2_m5"]
    assert d["comparison"]["scenario"] == "correlated"
    assert res.error_model() is res.estimates  # type: ignore[attr-defined]
    assert isinstance(res, PilotPlan) and res.level == 0.95 and res.curve is None
    assert res.recommended_items == res.recommended_budget // res.recommended_labels_per_item  # type: ignore[operator]


def test_sweep_and_open_problem_typed(results: dict[str, Result]) -> None:
    sweep = results["sweep"]
    assert all(isinstance(c, SweepCell) for c in sweep.cells)  # type: ignore[attr-defined]
    at = sweep.to_dict()["max_violation_at"]
    assert set(at) == {"q_b", "q_w", "p_w", "p_b0", "p_b1", "n_items", "labels_per_item"}
    plur = results["plurality"]
    assert isinstance(plur.params, PluralitySetting)  # type: ignore[attr-defined]
    assert plur.to_dict()["params"] == {"n_classes": 3, "q": 0.7, "p": 0.7, "eps": 0.1}
    assert results["adaptive"].to_dict()["params"] == {"p": 0.8, "eps": 0.01, "q": 0.8}


# --------------------------------------------------------------------------- plan (the report)
def _old_report_numbers(ratings, predictions, eps: float = 0.01) -> tuple[float, float, float]:
    """The statistics the report section computed itself before the budget analysis did (issue 14):
    agreement, q̂ and the better classifier's accuracy, from the crowd statistics."""
    from humanly._core.counts import plurality_credit
    from humanly.crowd.agreement import mean_pairwise_agreement

    counts = np.asarray(ratings.counts)
    a = mean_pairwise_agreement(counts)
    q = 0.5 * (1.0 + math.sqrt(max(2.0 * a - 1.0, 0.0)))
    agreements = [
        float(np.nanmean(plurality_credit(counts, predictions.hard(n).astype(np.int64))))
        for n in predictions.names
    ]
    p = float(min(max(max(agreements), 0.5 + eps), 1.0 - eps))
    return a, q, min(p, 1.0 - eps)


def test_plan_gives_the_report_numbers(pilot, results: dict[str, Result]) -> None:
    a = results["plan"]
    assert isinstance(a, PlanResult)
    agreement, q, p = _old_report_numbers(pilot.ratings, pilot.predictions)
    assert (a.agreement, a.label_accuracy, a.better_accuracy) == (agreement, q, p)
    assert a.better_accuracy_source == "best_model_agreement"  # a code; the report words it
    assert a.budget == int(pilot.ratings.counts.sum()) and a.level == 0.95
    assert a.comparison == quick_compare(
        q, a.budget, p=p - 0.01, eps=0.01, labels_per_item=(1, 3, 5)
    )
    pilot_alone = pilot_plan(pilot.ratings, pilot.predictions, bootstrap=100, budget=a.budget)
    assert a.pilot is not None and a.pilot.curve is not None
    assert dataclasses.replace(a.pilot, curve=None) == pilot_alone
    d = a.to_dict()
    assert d["better_accuracy"] == p and "p" not in d and d["pilot_skipped"] is None
    assert not {"plan", "plan_note", "pilot_note", "delta"} & set(d)  # the retired keys are gone
    assert a.error_model() == IndependentErrors(p - 0.01, 0.01, q)
    # the curves are the report's figures: the comparison's at q̂, the pilot's at its estimates
    assert (
        a.curve is not None
        and a.curve.params == a.error_model()
        and a.curve.labels_per_item == (1, 3, 5)
    )
    assert a.pilot.curve.params == a.pilot.estimates
    budgets = a.curve.series(1)[0]
    step, top = (
        budgets[1] - budgets[0],
        budgets[-1],
    )  # multiples of lcm(m) up to 2 × the largest need
    assert top + step > max(a.budget, 2 * max(n for n in a.comparison.budget_needed if n))
    # without models: the paper's Fig. 2 value, and no pilot (a reason code says why)
    bare = results["plan_bare"]
    assert bare.better_accuracy == 0.8 and bare.better_accuracy_source == "paper_figure_2"
    assert source_words(bare.better_accuracy_source) == "the paper's Fig. 2 value"
    assert bare.pilot is None and bare.pilot_skipped == Skipped("pilot", "no_predictions")
    assert pilot_skipped_sentence(bare.pilot_skipped) == (
        "the pilot plan needs the predictions of two models (given: 0)"
    )
    assert label_accuracy_from_agreement(a.agreement) == a.label_accuracy


def test_plan_with_one_model_says_what_it_can(pilot) -> None:
    one = plan(pilot.ratings, pilot.predictions.select(["better"]), bootstrap=100)
    assert one.pilot is None and one.pilot_skipped == Skipped("pilot", "one_model")
    assert "two models (given: 1)" in pilot_skipped_sentence(one.pilot_skipped)
    assert one.better_accuracy_source == "best_model_agreement"
    off = plan(pilot.ratings, pilot.predictions, options=PlanOptions(with_pilot=False))
    assert off.pilot is None and off.pilot_skipped is None


def test_plan_pilot_note_when_the_pilot_does_not_apply() -> None:
    small = pair(8, 3, p=0.7, eps=0.1, q=0.75, seed=3)
    a = plan(small.ratings, small.predictions, bootstrap=100)
    why = a.pilot_skipped
    assert a.pilot is None and why is not None and why.reason == "input_error"
    assert why.error is not None and "need at least 10" in why.error


def test_plan_takes_a_study(pilot) -> None:
    from humanly.data import join

    study = join(pilot.ratings, pilot.predictions)
    assert plan(study, bootstrap=100) == plan(pilot.ratings, pilot.predictions, bootstrap=100)
    with pytest.raises(InputError, match="drop predictions="):
        plan(study, pilot.predictions)
    assert pilot_plan(study, bootstrap=0) == pilot_plan(
        pilot.ratings, pilot.predictions, bootstrap=0
    )


def test_level_gives_the_budgets_of_delta() -> None:
    """level = 1 − δ gives the numbers the pre-reset code gave for δ (computed at commit 66d90ce with
    ``sample_size(…, delta)`` and ``capacity(…, delta, …)``)."""
    assert [r.budget_exact for r in sample_size(FIG2, 0.95, (1, 3)).rows] == [23762, 41001]
    fig = IndependentErrors(0.7, 0.1, 0.9)
    assert [r.budget_exact for r in sample_size(fig, 0.9, (1, 3)).rows] == [108, 237]
    rows = capacity(IndependentErrors(0.75, 0.1, 0.75), 0.99, 3000, (1, 3)).rows
    counts = [
        (r.classifiers_exact, r.classifiers_cramer_bound, r.classifiers_hoeffding_bound)
        for r in rows
    ]
    assert counts == [(13053, 1124, 0), (146, 16, 0)]
    assert rows[0].ratio_exact == pytest.approx(13053.798338963097, rel=1e-12)


def test_the_retired_names_are_gone() -> None:
    import humanly.budget as bd

    for name in (
        "assess", "Assessment", "IndependentModel", "CorrelatedModel", "Model", "make_model",
        "LATENT_MODELS", "LatentModelFit", "ModelShare",
    ):  # fmt: skip
        assert not hasattr(bd, name), name
    row = compare(FIG2, 1500, (1,)).rows[0]
    for name in ("hoeffding", "cramer"):
        assert not hasattr(row, name)
    size = sample_size(FIG2, 0.95, (1,)).rows[0]
    for name in ("budget_cramer", "budget_hoeffding", "n_cramer", "n_hoeffding"):
        assert not hasattr(size, name)
    cap = capacity(FIG2, 0.95, 1500).rows[0]
    for name in ("exact", "cramer", "hoeffding", "error_cramer", "error_hoeffding"):
        assert not hasattr(cap, name)
    for func in (bd.sample_size, bd.capacity, bd.quick_compare, bd.pilot_plan, bd.plan):
        assert "delta" not in inspect.signature(func).parameters
    assert "latent_variant" not in inspect.signature(bd.pilot_plan).parameters  # in the options
    assert not hasattr(bd.PilotPlan, "model") and not hasattr(bd.LatentClassFit, "model")


# --------------------------------------------------------------------------- the two kinds of tie
def test_vote_ties_and_ties_are_separate() -> None:
    even = compare(FIG2, 1000, (2,), vote_ties="failure")
    assert even.rows[0].label_accuracy == pytest.approx(majority_accuracy(0.8, 2, "failure"))
    assert even.vote_ties == "failure" and even.ties == "loss"
    default = compare(FIG2, 1000, (2,))
    assert default.rows[0].label_accuracy == pytest.approx(
        majority_accuracy(0.8, 1)
    )  # coin: M_2 = M_1
    assert default.vote_ties == "coin"
    half = compare(FIG2, 1000, (2,), ties="half")
    assert half.rows[0].exact > default.rows[0].exact and half.ties == "half"
    size = sample_size(FIG2, 0.9, (2,), vote_ties="failure")
    assert size.rows[0].label_accuracy == pytest.approx(majority_accuracy(0.8, 2, "failure"))
    cap = capacity(FIG2, 0.95, 600, (2,), vote_ties="failure")
    assert cap.vote_ties == "failure"


def test_vote_ties_failure_simulation_matches_exact() -> None:
    model = CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9)
    exact = outcome(model.gap(2, "failure"), 30).win
    mc = simulate_win(model, 2, 30, 4000, seed=3, vote_ties="failure")
    assert abs(mc.win - exact) <= 5 * mc.se and mc.vote_ties == "failure"
    coin = simulate_win(model, 2, 30, 4000, seed=3)
    assert abs(coin.win - outcome(model.gap(2), 30).win) <= 5 * coin.se


def test_plan_vote_ties_recorded(pilot) -> None:
    failure = PlanOptions(vote_ties="failure")
    res = pilot_plan(
        pilot.ratings, pilot.predictions, bootstrap=0, labels_per_item=(1, 2), options=failure
    )
    assert res.vote_ties == "failure" and res.to_dict()["assumptions"]["assumption2_m2"] in (
        True,
        False,
    )
    assert np.isfinite(res.sizes[1].label_accuracy)
