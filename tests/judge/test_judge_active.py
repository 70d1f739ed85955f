"""Active labelling: the sampling probabilities (expected items, cap, uniform mixing, the judge's
uncertainty), the draw (seeded, independent of row order) and the estimate after the labels come back."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import Ratings
from humanly.errors import InputError
from humanly.judging import JudgeOptions, judge, sampling_probabilities, select
from humanly.verdicts.notes import notes_text


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(1, 3000),
    share=st.floats(0.001, 0.9),
    mixing=st.floats(0.0, 1.0),
    cap=st.floats(0.2, 0.99),
    hard=st.floats(0.0, 1.0),
)
def test_probabilities_spend_the_expected_items_under_the_cap(
    seed, size, share, mixing, cap, hard
) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.random((size, 2))
    scores[rng.random(size) < hard] = 1.0  # items the judge is sure about
    expected = min(share * size, cap * size)
    pi = sampling_probabilities(scores, expected, mixing=mixing, max_probability=cap)
    assert pi.sum() == pytest.approx(expected, rel=1e-9)
    assert np.all(pi > 0) or mixing == 0
    assert np.all(np.isfinite(1 / pi[pi > 0]))  # every weight 1/π is a number
    assert np.all(pi <= cap * (1 + 1e-9))
    u = np.sqrt((scores * (1 - scores)).mean(axis=1))
    order = np.argsort(u, kind="stable")
    assert np.all(np.diff(pi[order]) >= -1e-12)  # more uncertain, more likely sent


@pytest.mark.parametrize("mixing", [5e-324, 1e-310, float(np.finfo(float).tiny), 1e-300])
def test_a_subnormal_mixing_keeps_every_probability_positive_and_its_weight_finite(mixing) -> None:
    # the uniform share mixing·budget/n underflowed to 0 (5e-324) or to a subnormal whose 1/π is inf
    scores = np.array([[1.0], [1.0], [0.5], [0.9], [0.0]])
    with np.errstate(all="raise"):
        pi = sampling_probabilities(scores, 0.001, mixing=mixing, max_probability=0.9)
        weights = 1 / pi
    assert np.all(pi >= np.finfo(float).tiny) and np.all(np.isfinite(weights))
    assert pi.sum() == pytest.approx(0.001, rel=1e-12)


def test_a_subnormal_sampling_probability_is_refused() -> None:
    human, models, llm, _, ids = _study()
    pi = pd.Series(0.05, index=ids[100:])
    pi.iloc[0] = 1e-310
    with pytest.raises(
        InputError, match=r"options.probabilities: item 'q100' has probability 1e-310"
    ):
        judge(human, models, judge=llm, options=JudgeOptions(probabilities=pi))


def _study(seed: int = 0, soft: bool = True):
    rng = np.random.default_rng(seed)
    ids = [f"q{k}" for k in range(3000)]
    truth = rng.integers(0, 2, 3000)
    p1 = np.clip(truth * 0.7 + 0.15 + rng.normal(0, 0.15, 3000), 0.01, 0.99)
    llm = (
        pd.DataFrame({0: 1 - p1, 1: p1}, index=ids)
        if soft
        else pd.Series((p1 > 0.5) * 1, index=ids)
    )
    model = pd.Series(np.where(rng.random(3000) < 0.8, truth, 1 - truth), index=ids)
    human = Ratings.from_long(ids[:100], ["r"] * 100, truth[:100], classes=[0, 1])
    return human, {"m": model}, llm, truth, ids


def test_select_is_seeded_and_ignores_row_order() -> None:
    human, models, llm, _, _ = _study()
    a = select(human, models, judge=llm, expected_items=200, seed=11)
    b = select(human.to_frame().iloc[::-1], {"m": models["m"].iloc[::-1]}, judge=llm.iloc[::-1],
               expected_items=200, seed=11)  # fmt: skip
    assert a.to_dict() == b.to_dict()
    c = select(human, models, judge=llm, expected_items=200, seed=12)
    assert c.selected_items() != a.selected_items()
    assert a.pool == 2900 and abs(a.n_selected - 200) < 60


def test_a_hard_judge_selects_uniformly_and_gives_ppi() -> None:
    human, models, llm, truth, ids = _study(soft=False)
    sel = select(human, models, judge=llm, expected_items=150, seed=1)
    assert (
        np.allclose(sel.probability, 150 / 2900) and "same probability" in notes_text(sel.notes)[0]
    )
    chosen = list(sel.selected_items())
    pos = [ids.index(i) for i in chosen]
    more = Ratings.from_long(ids[:100] + chosen, ["r"] * (100 + len(chosen)),
                             np.concatenate([truth[:100], truth[pos]]), classes=[0, 1])  # fmt: skip
    active = judge(more, models, judge=llm, estimator="ppi",
                   options=JudgeOptions(probabilities=sel))  # fmt: skip
    a = active.model("m").accuracy
    # the pilot (π = 1) and the selected items (π = 150/2900) weigh differently: not plain PPI
    plain = judge(more, models, judge=llm, estimator="ppi").model("m").accuracy
    assert a.classical_point != pytest.approx(plain.classical_point, abs=1e-6)
    # without a pilot, uniform probabilities are PPI exactly; the point is PPI's math, so both ask
    # for PPI's central-limit interval (with ~150 labels the default is the human-only small-sample
    # interval, docs/judge.md's coverage table)
    only = Ratings.from_long(chosen, ["r"] * len(chosen), truth[pos], classes=[0, 1])
    pi = pd.Series(150 / 2900, index=ids)
    clt = JudgeOptions(probabilities=pi, interval="clt")
    res = judge(only, models, judge=llm, estimator="ppi", options=clt)
    ref = judge(only, models, judge=llm, estimator="ppi", options=JudgeOptions(interval="clt"))
    ref = ref.model("m").accuracy
    assert res.model("m").accuracy.point == pytest.approx(ref.point, abs=1e-13)
    assert res.model("m").accuracy.interval.low == pytest.approx(ref.interval.low, abs=1e-12)


def test_active_estimate_after_labels_come_back() -> None:
    human, models, llm, truth, ids = _study()
    sel = select(human, models, judge=llm, expected_items=300, seed=5)
    chosen = list(sel.selected_items())
    pos = [ids.index(i) for i in chosen]
    more = Ratings.from_long(ids[:100] + chosen, ["r"] * (100 + len(chosen)),
                             np.concatenate([truth[:100], truth[pos]]), classes=[0, 1])  # fmt: skip
    res = judge(more, models, judge=llm, options=JudgeOptions(probabilities=sel))
    a = res.model("m").accuracy
    true = float(np.mean(models["m"].to_numpy() == truth))
    assert res.design == "active" and a.n == 100 + len(chosen)
    assert a.interval.low - 0.02 <= true <= a.interval.high + 0.02
    # the items sent were the uncertain ones: their judge scores are nearer 1/2 than the pool's
    p = llm[1].to_numpy()
    sent = np.isin(np.array(ids), chosen)
    pool = ~np.isin(np.array(ids), ids[:100])
    assert np.abs(p[sent] - 0.5).mean() < np.abs(p[pool] - 0.5).mean()
