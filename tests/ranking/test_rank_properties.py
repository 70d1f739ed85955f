"""Invariants of :func:`humanly.rank` on small random vote tables (hypothesis; ``HYPOTHESIS_PROFILE=ci``
derandomizes): probabilities in [0, 1], intervals ordered, rank-sets holding the point-estimate rank,
the same result whatever the row order, and the same result when every record shows its two models
the other way round with the outcome flipped — except the position-bias measure, whose sign flips."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import humanly
from humanly.ranking import RankOptions

OUTCOMES = ("model_a", "model_b", "tie")


@st.composite
def studies(draw):
    m = draw(st.integers(2, 5))
    n = draw(st.integers(4, 30))
    n_human = draw(st.integers(2, n))
    a = np.array(draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)))
    shift = np.array(draw(st.lists(st.integers(1, m - 1), min_size=n, max_size=n)))
    b = (a + shift) % m
    names = np.array([f"m{k}" for k in range(m)], dtype=object)
    ids = np.arange(100, 100 + n)
    human_out = draw(st.lists(st.sampled_from(OUTCOMES), min_size=n_human, max_size=n_human))
    judge_out = draw(st.lists(st.sampled_from(OUTCOMES), min_size=n, max_size=n))
    extra = draw(st.lists(st.integers(0, n_human - 1), max_size=5))  # second votes
    human = pd.DataFrame(
        {
            "id": ids[:n_human],
            "model_a": names[a[:n_human]],
            "model_b": names[b[:n_human]],
            "winner": human_out,
        }
    )
    if extra:
        again = human.iloc[extra].assign(
            winner=draw(
                st.lists(st.sampled_from(OUTCOMES), min_size=len(extra), max_size=len(extra))
            )
        )
        human = pd.concat([human, again], ignore_index=True)
    judge = pd.DataFrame({"id": ids, "model_a": names[a], "model_b": names[b], "winner": judge_out})
    ties = draw(st.sampled_from(("half", "loss", "drop")))
    return human, judge, ties


def _rank(human, judge, ties):
    return humanly.rank(
        human, judges={"llm": judge}, ties=ties, seed=3, options=RankOptions(draws=200)
    )


def _swap(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(
        model_a=frame["model_b"],
        model_b=frame["model_a"],
        winner=frame["winner"].map({"model_a": "model_b", "model_b": "model_a", "tie": "tie"}),
    )


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(studies())
def test_values_are_in_range_and_intervals_ordered(data) -> None:
    res = _rank(*data)
    for ranking in res.rankings:
        for est in (ranking.win_rate, ranking.strength):
            for row in est.rows:
                if row.estimate is None:
                    assert row.rank is None and row.rank_set is None
                    continue
                lo, hi = row.interval
                assert lo is not None and hi is not None
                assert lo <= row.estimate + 1e-12 and row.estimate <= hi + 1e-12
                if est.kind == "win_rate":
                    assert 0.0 <= lo <= row.estimate <= hi <= 1.0
                assert row.rank_set is not None
                assert row.rank_set.low <= row.rank <= row.rank_set.high
            t = est.pairs
            assert np.all(t.low <= t.high) and np.all(t.simultaneous_low <= t.low + 1e-12)
            assert np.all(t.high <= t.simultaneous_high + 1e-12)
            if t.probability is not None:
                for p in (t.probability, t.probability_low, t.probability_high):
                    assert np.all((p >= 0) & (p <= 1))
    a = res.judge("llm").agreement
    assert 0 <= a.rate <= 1
    assert a.table.sum() == np.float64(a.comparisons) or abs(a.table.sum() - a.comparisons) < 1e-9


@SETTINGS
@given(studies(), st.randoms(use_true_random=False))
def test_row_order_changes_nothing(data, random) -> None:
    human, judge, ties = data
    order_h = list(range(len(human)))
    order_j = list(range(len(judge)))
    random.shuffle(order_h)
    random.shuffle(order_j)
    shuffled = _rank(human.iloc[order_h], judge.iloc[order_j], ties)
    assert shuffled.to_dict() == _rank(human, judge, ties).to_dict()


@SETTINGS
@given(studies())
def test_swapping_model_a_and_b_changes_only_the_position_bias_sign(data) -> None:
    human, judge, ties = data
    res, swapped = _rank(human, judge, ties), _rank(_swap(human), _swap(judge), ties)
    a, b = res.to_dict(), swapped.to_dict()
    pa = [w.pop("position") for w in a["judge_worth"]]
    pb = [w.pop("position") for w in b["judge_worth"]]
    assert a == b
    for x, y in zip(pa, pb, strict=True):
        assert x["status"] == {
            "favours_first": "favours_second",
            "favours_second": "favours_first",
        }.get(y["status"], y["status"])
        if x["shift"] is not None:
            assert abs(x["shift"] + y["shift"]) < 1e-12
        for share in ("judge_first_share", "human_first_share"):
            if x[share] is None:
                assert y[share] is None
            else:
                assert abs(x[share] + y[share] - 1) < 1e-12
