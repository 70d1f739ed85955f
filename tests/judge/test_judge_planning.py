"""Planning from a pilot (``JudgeResult.plan``): the ppi_mean_power numbers, target widths, a judge that
buys nothing, and the human-only comparison."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.judging import Pilot, plan_labels
from humanly.judging._ppi import z_value
from humanly.verdicts.notes import notes_text


@settings(max_examples=60, deadline=None)
@given(
    rho=st.floats(0.0, 0.98),
    sd=st.floats(0.05, 0.5),
    width=st.floats(0.005, 0.3),
    cost_judge=st.sampled_from([0.001, 0.01, 0.1]),
    level=st.sampled_from([0.9, 0.95]),
)
def test_target_width_is_reached_for_less(rho, sd, width, cost_judge, level) -> None:
    plan = plan_labels([Pilot("m", "accuracy", ("m",), rho, sd, 10_000)], 1.0, cost_judge,
                       target_width=width, level=level)  # fmt: skip
    e = plan.estimands[0]
    need = max(math.ceil((2 * z_value(level) * sd / width) ** 2 - 1e-9), 2)
    assert e.n_human >= 2
    # ppi-python rounds n and N to whole items: n ± 1/2 moves n_eff by up to 1/(2(1 − ρ²))
    slack = 1 + 0.5 / (1 - e.correlation**2)
    assert e.effective_n >= need - slack
    assert e.width <= width * np.sqrt(need / max(need - slack, 1)) + 1e-12
    # never dearer than human labels alone (ppi-python charges the judge on the n human items too)
    assert e.cost <= need * (1.0 + cost_judge) + 1 + 1e-9
    assert e.human_n == math.floor(e.cost / 1.0 + 1e-9)


def test_negative_correlation_plans_humans_only() -> None:
    plan = plan_labels([Pilot("m", "accuracy", ("m",), -0.7, 0.4, 200)], 1.0, 0.01, max_cost=300)
    e = plan.estimands[0]
    assert (e.correlation, e.n_human, e.n_judge, e.effective_n) == (0.0, 300, 0, 300)
    assert e.width == pytest.approx(e.human_width)


def test_a_good_judge_narrows_the_interval_for_the_same_money() -> None:
    plan = plan_labels([Pilot("m", "accuracy", ("m",), 0.9, 0.4, 200),
                        Pilot("a − b", "difference", ("a", "b"), 0.5, 0.3, 200)],
                       1.0, 0.01, max_cost=1000)  # fmt: skip
    good, fair = plan.estimands
    assert good.width < 0.6 * good.human_width
    assert fair.human_width > fair.width > 0.85 * fair.human_width
    assert good.n_human + good.n_judge > good.human_n


def test_a_pilot_without_spread_is_noted() -> None:
    plan = plan_labels([Pilot("m", "accuracy", ("m",), None, 0.0, 50)], 1.0, 0.01, max_cost=100)
    assert plan.estimands == () and "does not vary" in notes_text(plan.notes)[0]


def test_n_max_caps_the_items() -> None:
    plan = plan_labels([Pilot("m", "accuracy", ("m",), 0.8, 0.4, 200)], 1.0, 0.001, max_cost=500,
                       n_max=2000)  # fmt: skip
    e = plan.estimands[0]
    assert e.capped and e.n_human + e.n_judge <= 2000
