"""One join (issue 30): inputs are matched by item id in one place, :func:`humanly.data.join`
(``read_study`` reads files and calls it). ``humanly.analyze`` joins once and hands every analysis the
joined Study; a verb given a Study uses it as it is. Counted here by wrapping the one reading of the
ratings inside the join (``humanly.data.inputs.as_ratings``: every ``join`` and ``read_study`` reads
its ratings there once; the analyses hold their own reference to it, so their own calls are not
counted). On 0.1.0's main, ``analyze`` joined 6 times and every verb given a Study joined again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import humanly
import humanly.data.inputs as inputs
from humanly import simulate
from humanly.budget import pilot_plan
from humanly.crowd.raters import rater_summary
from humanly.judging import select
from humanly.survey import truth_equivalence
from humanly.survey.headroom import headroom


@pytest.fixture
def joins(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the join ran since the test started."""
    count = [0]
    real = inputs.as_ratings

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(inputs, "as_ratings", counted)
    return count


def _data(n: int = 60) -> Any:
    return simulate.running_example(n, 5, seed=2)


def _judged() -> humanly.Study:
    """A study with a judge: human labels on 40 of 120 items."""
    rng = np.random.default_rng(0)
    ids = [f"i{k:03d}" for k in range(120)]
    truth = rng.integers(0, 2, 120)
    models = {
        name: pd.Series(np.where(rng.random(120) < acc, truth, 1 - truth), index=ids)
        for name, acc in (("a", 0.85), ("b", 0.75))
    }
    llm = pd.Series(np.where(rng.random(120) < 0.9, truth, 1 - truth), index=ids, name="llm")
    human = humanly.Ratings.from_long(ids[:40] * 2, ["r"] * 40 + ["s"] * 40, [*truth[:40]] * 2)
    return humanly.data.join(human, models, judge=llm)


def test_analyze_joins_once(joins: list[int]) -> None:
    d = _data()
    states = pd.DataFrame(d.truth["states"], index=d.ratings.items, columns=d.ratings.classes)
    humanly.analyze(
        d.ratings, d.predictions, bootstrap=0, options=humanly.AnalyzeOptions(states=states)
    )
    assert joins[0] == 1


def test_analyze_of_a_study_joins_never(joins: list[int]) -> None:
    study = _judged()
    assert joins[0] == 1
    res = humanly.analyze(study, bootstrap=0)
    assert res.judge is not None and res.certify is not None and res.plan is not None
    assert joins[0] == 1


def _verbs(study: humanly.Study, states: Any) -> dict[str, Callable[[], Any]]:
    return {
        "inspect": lambda: humanly.inspect(study, bootstrap=0),
        "agreement": lambda: humanly.agreement(study, bootstrap=0),
        "certify": lambda: humanly.certify(study, curve=True),
        "equivalence": lambda: humanly.equivalence(study, bootstrap=0),
        "truth": lambda: truth_equivalence(study, states=states),
        "plan": lambda: humanly.plan(study, bootstrap=0),
        "raters": lambda: rater_summary(study),
        "headroom": lambda: headroom(study),
    }


def test_a_verb_given_a_study_joins_never(joins: list[int]) -> None:
    d = _data()
    study = humanly.data.join(d.ratings, d.predictions, d.gold)
    states = pd.DataFrame(d.truth["states"], index=d.ratings.items, columns=d.ratings.classes)
    assert joins[0] == 1
    for name, run in _verbs(study, states).items():
        run()
        assert joins[0] == 1, name
    judged = _judged()
    assert joins[0] == 2
    humanly.judge(judged)
    select(judged, expected_items=10)
    assert joins[0] == 2
    p = simulate.pair(400, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    pilot = humanly.data.join(p.ratings, p.predictions)
    pilot_plan(pilot, bootstrap=0)
    humanly.plan(pilot, bootstrap=0)
    assert joins[0] == 3


def test_a_verb_given_its_inputs_joins_once(joins: list[int]) -> None:
    d = _data()
    for run in (
        lambda: humanly.inspect(d.ratings, d.predictions, d.gold, bootstrap=0),
        lambda: humanly.certify(d.ratings, d.predictions, d.gold),
        lambda: humanly.equivalence(d.ratings, d.predictions, bootstrap=0),
        lambda: humanly.plan(d.ratings, d.predictions, bootstrap=0),
        lambda: truth_equivalence(d),
    ):
        before = joins[0]
        run()
        assert joins[0] == before + 1
