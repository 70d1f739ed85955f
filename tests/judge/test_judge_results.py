"""Every judge result survives ``to_json`` → ``from_dict`` unchanged, prints, and tabulates."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from humanly import Ratings
from humanly.judging import (
    JudgeOptions,
    JudgeResult,
    LabelPlan,
    Selection,
    judge,
    select,
)


def _study(n_models: int = 3, soft: bool = True, seed: int = 0):
    rng = np.random.default_rng(seed)
    ids = np.arange(100, 1100)
    truth = rng.integers(0, 3, 1000)
    models = {
        f"m{k}": pd.Series(
            np.where(rng.random(1000) < 0.9 - 0.1 * k, truth, (truth + 1) % 3), index=ids
        )
        for k in range(n_models)
    }
    j = np.where(rng.random(1000) < 0.85, truth, (truth + 2) % 3)
    if soft:
        proba = rng.dirichlet(np.ones(3), 1000) * 0.4
        proba[np.arange(1000), j] += 0.6
        llm = pd.DataFrame(proba, index=ids, columns=[0, 1, 2])
    else:
        llm = pd.Series(j, index=ids)
    labels = np.where(rng.random((120, 2)) < 0.85, truth[:120, None], rng.integers(0, 3, (120, 2)))
    human = Ratings.from_long(np.repeat(ids[:120], 2), np.tile(["r1", "r2"], 120), labels.ravel(),
                              classes=[0, 1, 2])  # fmt: skip
    gold = pd.Series(truth[500:600], index=ids[500:600])
    return human, models, llm, gold, truth, ids


def _round_trip(result) -> None:
    data = json.loads(result.to_json())
    again = type(result).from_dict(data)
    assert again.to_dict() == data
    assert json.dumps(again.to_dict()) == json.dumps(data)


@pytest.mark.parametrize("soft", [True, False])
@pytest.mark.parametrize("reference", ["label", "plurality"])
def test_judge_result_round_trip(soft: bool, reference: str) -> None:
    human, models, llm, gold, _, _ = _study(soft=soft)
    res = judge(human, models, gold, judge=llm, reference=reference)
    assert len(res.comparisons) == 3 and len(res.gold) == 4
    _round_trip(res)
    assert repr(res).startswith("JudgeResult(")
    assert "<table>" in res._repr_html_() or "<table" in res._repr_html_()


def test_every_nested_result_round_trips() -> None:
    human, models, llm, gold, _, _ = _study()
    res = judge(human, models, gold, judge=llm)
    for part in [*res.models, *res.comparisons, res.frontier, *res.frontier.models, *res.gold,
                 res.models[0].accuracy]:  # fmt: skip
        _round_trip(part)
    again = JudgeResult.from_dict(json.loads(res.to_json()))
    assert again.model("m1").accuracy == res.model("m1").accuracy
    # the plan is a pure function of the saved result
    assert (
        again.plan(1.0, 0.02, max_cost=400).to_dict() == res.plan(1.0, 0.02, max_cost=400).to_dict()
    )


def test_plan_and_selection_round_trip() -> None:
    human, models, llm, _, _, _ = _study()
    res = judge(human, models, judge=llm)
    for plan in (
        res.plan(1.0, 0.02, max_cost=400),
        res.plan(2.0, 0.05, target_width=0.04, n_max=900),
    ):
        assert isinstance(plan, LabelPlan)
        _round_trip(plan)
        assert len(plan.to_frame()) == 6
    sel = select(human, models, judge=llm, expected_items=50, seed=7)
    assert isinstance(sel, Selection)
    _round_trip(sel)
    again = Selection.from_dict(json.loads(sel.to_json()))
    pd.testing.assert_series_equal(again.to_series(), sel.to_series())
    active = judge(human, models, judge=llm, options=JudgeOptions(probabilities=sel.to_series()))
    _round_trip(active)
    assert active.design == "active"


def test_frames() -> None:
    human, models, llm, _, _, _ = _study()
    res = judge(human, models, judge=llm)
    frame = res.to_frame()
    assert frame["estimand"].tolist() == ["m0", "m1", "m2", "m0 − m1", "m0 − m2", "m1 − m2"]
    assert frame["kind"].tolist() == ["accuracy"] * 3 + ["difference"] * 3
    assert (frame["n"] == 120).all()
    fr = res.frontier.to_frame()
    assert fr["model"].tolist() == ["m0", "m1", "m2"]
    assert set(fr["status"]) <= {
        "judge more accurate",
        "no clear difference",
        "judge less accurate",
    }
    sel = select(human, models, judge=llm, expected_items=50)
    assert sel.to_frame().columns.tolist() == ["item", "probability", "selected"]
    assert sel.to_frame()["selected"].sum() == sel.n_selected
