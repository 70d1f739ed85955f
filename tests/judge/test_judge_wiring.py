"""``humanly.judge``'s issue-32 options on studies: the design check (fires on a hard-subset design,
silent on random designs of the same size), the self-judge check, the status codes and their
sentences (one voice: :mod:`humanly.verdicts.judge`), the JSON round trip of every new field, the
joins of strata and sampling weights in :mod:`humanly.data`, and bad input as one sentence. Simulated
data only (no ../shared)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly import InputError, Ratings
from humanly.data import join, join_ratings
from humanly.judging import JudgeOptions, JudgeResult
from humanly.judging.extended import CODES
from humanly.verdicts import verdicts_for
from humanly.verdicts.judge import code_sentences, headline

N = 4000


def _world(seed: int = 0):
    """Items of varying difficulty: the model and the judge err more on hard items, so the judge's
    outputs on the hardest items differ from those on the rest."""
    rng = np.random.default_rng(seed)
    items = np.array([f"i{k:05d}" for k in range(N)])
    hard = rng.random(N)
    truth = rng.integers(0, 2, N)
    model = np.where(rng.random(N) < 0.97 - 0.5 * hard, truth, 1 - truth)
    other = np.where(rng.random(N) < 0.8, truth, 1 - truth)
    judge = np.where(rng.random(N) < 0.98 - 0.4 * hard, truth, 1 - truth)
    preds = {"m": pd.Series(model, index=items), "o": pd.Series(other, index=items)}
    return items, hard, truth, preds, pd.Series(judge, index=items)


ITEMS, HARD, TRUTH, PREDS, JUDGE = _world()


def _ratings(rows: np.ndarray) -> Ratings:
    return Ratings.from_long(ITEMS[rows], ["r"] * len(rows), TRUTH[rows], classes=[0, 1])


def test_the_design_check_fires_on_the_hardest_items_and_not_on_random_ones():
    hardest = np.argsort(-HARD)[:300]
    res = humanly.judge(_ratings(hardest), PREDS, judge=JUDGE)
    assert res.codes[0] == "not_random_sample"
    assert res.design_check is not None and res.design_check.p_value < 0.01
    sentences = dict(code_sentences(res))
    assert sentences["not_random_sample"].startswith(
        "The human labels do not look like a random sample of the items"
    )
    alarms = 0
    for s in range(20):
        rows = np.random.default_rng(100 + s).choice(N, 300, replace=False)
        r = humanly.judge(_ratings(rows), PREDS, judge=JUDGE, seed=s)
        alarms += "not_random_sample" in r.codes
    assert alarms <= 1


def test_sampling_weights_turn_the_design_check_off_and_weight_the_estimate():
    hardest = np.argsort(-HARD)[:300]
    pi = np.where(HARD > np.sort(HARD)[-301], 0.9, 0.01)  # what such a design would have had
    weights = pd.Series(1 / pi, index=ITEMS)
    res = humanly.judge(
        _ratings(hardest), PREDS, judge=JUDGE, options=JudgeOptions(sampling_weights=weights)
    )
    assert res.codes[0] == "weighted_design" and res.design == "active"
    assert res.design_check is not None and res.design_check.status == "weighted"
    assert "not_random_sample" not in res.codes


def test_a_model_passed_as_its_judge_is_flagged():
    rows = np.arange(0, N, 10)
    res = humanly.judge(_ratings(rows), PREDS, judge=PREDS["m"].rename("m-as-judge"))
    assert "self_judge" in res.codes
    assert res.self_judge is not None
    assert [row.identical for row in res.self_judge.models] == [True, False]
    sentence = dict(code_sentences(res))["self_judge"]
    assert "gives m's outputs" in sentence
    assert any(v.status == "self_judge" for v in verdicts_for(res))
    ok = humanly.judge(_ratings(rows), PREDS, judge=JUDGE)
    assert "self_judge" not in ok.codes and ok.self_judge.code is None


def test_codes_are_known_ordered_and_each_has_its_sentence():
    rows = np.arange(0, N, 10)  # 400 labelled: below the 500 of one model's accuracy
    strata = pd.Series(np.where(HARD > 0.5, "hard", "easy"), index=ITEMS)
    for opts, expected in (
        (JudgeOptions(), ("small_sample",)),  # the default is "auto"
        (JudgeOptions(interval="clt"), ("few_labels",)),
        (JudgeOptions(interval="adjusted"), ("small_sample",)),
        (JudgeOptions(fitted_on_labels=True, folds=4), ("small_sample", "crossfit")),
        (JudgeOptions(fitted_on_labels=True, folds=4, interval="clt"), ("few_labels", "crossfit")),
        (JudgeOptions(strata=strata, interval="auto"), ("small_sample",)),
    ):
        res = humanly.judge(_ratings(rows), PREDS, judge=JUDGE, options=opts)
        assert res.codes == expected
        assert [CODES.index(c) for c in res.codes] == sorted(CODES.index(c) for c in res.codes)
        said = dict(code_sentences(res))
        assert set(said) == set(res.codes) and all(s.endswith(".") for s in said.values())
    big = np.arange(0, N, 4)  # 1,000 labelled: the central-limit interval everywhere
    assert humanly.judge(_ratings(big), PREDS, judge=JUDGE).codes == ()


def test_auto_takes_the_small_sample_interval_only_below_the_rule():
    rows = np.arange(0, N, 10)
    res = humanly.judge(_ratings(rows), PREDS, judge=JUDGE, options=JudgeOptions(interval="auto"))
    acc, diff = res.model("m").accuracy, res.comparison("m", "o").difference
    assert (acc.interval_method, acc.small_n) == ("adjusted", 500)
    assert (diff.interval_method, diff.small_n) == ("clt", 200)  # 400 ≥ 200
    assert list(res.to_frame()["interval_method"]) == ["adjusted", "adjusted", "clt"]
    # "auto" is the default
    default = humanly.judge(_ratings(rows), PREDS, judge=JUDGE)
    assert default.to_dict() == res.to_dict()


@pytest.mark.parametrize(
    "opts",
    [
        JudgeOptions(),
        JudgeOptions(interval="clt"),
        JudgeOptions(fitted_on_labels=True, folds=3),
        JudgeOptions(strata=pd.Series(np.where(HARD > 0.5, "hard", "easy"), index=ITEMS)),
    ],
)
def test_results_round_trip_through_json(opts):
    judges = {"a": JUDGE, "b": PREDS["o"].rename("b")}
    res = humanly.judge(_ratings(np.arange(0, N, 7)), PREDS, judge=judges, options=opts)
    back = JudgeResult.from_dict(res.to_dict())
    assert back == res and back.to_dict() == res.to_dict()
    assert set(res.to_dict()) >= {"judges", "codes", "design_check", "self_judge", "folds"}
    assert headline(back) == headline(res)


def test_a_rating_result_round_trips_and_speaks():
    rng = np.random.default_rng(3)
    human = pd.DataFrame({"a": rng.integers(1, 6, 300), "b": rng.integers(1, 6, 300)})
    human.index = ITEMS[:300]
    judged = pd.DataFrame({"a": rng.integers(1, 6, N), "b": rng.integers(1, 6, N)}, index=ITEMS)
    study = join_ratings(human, judged, scale=(1, 5))
    res = humanly.judge(study, options=JudgeOptions(threshold=4, quantile=0.5))
    assert JudgeResult.from_dict(res.to_dict()) == res
    assert res.frontier is None and res.models == () and len(res.ratings) == 2
    texts = [v.sentence for v in verdicts_for(res)]
    assert texts[0].startswith("a's mean rating is ") and "rated 4 or more" in texts[0]
    assert "-quantile is" in texts[0]
    assert headline(res).startswith("Judge judge: 300 items rated by humans")


def test_strata_and_weights_join_by_item_id_whatever_the_order():
    rows = np.arange(0, N, 10)
    strata = pd.Series(np.where(HARD > 0.5, "hard", "easy"), index=ITEMS)
    study = join(_ratings(rows), PREDS, judge=JUDGE, strata=strata)
    shuffled = join(
        _ratings(rows), PREDS, judge=JUDGE, strata=strata.sample(frac=1, random_state=1)
    )
    assert study.design is not None
    assert list(study.design.strata) == list(shuffled.design.strata)
    a = humanly.judge(study).model("m").accuracy
    b = humanly.judge(_ratings(rows), PREDS, judge=JUDGE, options=JudgeOptions(strata=strata))
    assert a == b.model("m").accuracy


def test_bad_design_input_is_one_sentence():
    rows = np.arange(0, N, 10)
    strata = pd.Series(np.where(HARD > 0.5, "hard", "easy"), index=ITEMS)
    cases = [
        (JudgeOptions(strata=strata.iloc[:-1]), "items have none (first: 'i03999')"),
        (JudgeOptions(sampling_weights=pd.Series(0.5, index=ITEMS)), "a number ≥ 1"),
        (JudgeOptions(strata=pd.Series("x", index=ITEMS).where(HARD > 0.001, "rare")), "rare"),
        (JudgeOptions(interval="bootstrap"), "options.interval"),
        (JudgeOptions(folds=1), "options.folds"),
        (
            JudgeOptions(probabilities=pd.Series(0.1, index=ITEMS), sampling_weights=strata),
            "give the design's sampling probabilities once",
        ),
    ]
    for opts, words in cases:
        with pytest.raises(InputError) as info:
            humanly.judge(_ratings(rows), PREDS, judge=JUDGE, options=opts)
        message = str(info.value)
        assert words in message and "\n" not in message and len(message) <= 300, message
    with pytest.raises(InputError, match="estimator='ppi' with 2 judges"):
        humanly.judge(_ratings(rows), PREDS, judge={"a": JUDGE, "b": PREDS["o"]}, estimator="ppi")


def test_the_report_says_the_design_and_self_judge_sentences_and_the_interval_used():
    from humanly.report import build_report

    hardest = np.argsort(-HARD)[:300]
    study = join(_ratings(hardest), PREDS, judge={"m-as-judge": PREDS["m"]})
    result = humanly.analyze(study, bootstrap=0)
    assert result.judge is not None
    assert result.judge.codes[:2] == ("not_random_sample", "self_judge")
    html = " ".join(build_report(result).html().split())
    for code, sentence in code_sentences(result.judge):
        words = sentence.split(" (")[0].replace("'", "&#39;")
        assert words in html, code
    assert "interval used" in html and "central-limit (PPI)" in html


def test_the_plan_splits_its_human_labels_across_strata_by_neyman():
    from humanly.judging.arrays import neyman_allocation
    from humanly.verdicts.judge import plan_sentences

    rows = np.arange(0, N, 5)
    strata = pd.Series(np.where(HARD > 0.5, "hard", "easy"), index=ITEMS)
    res = humanly.judge(
        _ratings(rows), {"m": PREDS["m"]}, judge=JUDGE, options=JudgeOptions(strata=strata)
    )
    plan = res.plan(1.0, 0.01, max_cost=2000)
    a = plan.allocation
    assert a is not None and a.budget == plan.estimands[0].n_human
    parts = res.model("m").accuracy.strata
    ref = neyman_allocation(
        a.budget,
        [s.share for s in parts],
        [s.estimate.sd for s in parts],
        correlation=[s.estimate.correlation for s in parts],
        strata=[s.stratum for s in parts],
    )
    assert a.strata == ref.strata and a.n_human == ref.n_human
    assert a.proportional == ref.proportional
    assert a.n_human[a.strata.index("hard")] > a.proportional[a.strata.index("hard")]
    assert plan_sentences(plan)[-1].startswith("Across the strata, send the ")
    assert (
        humanly.judge(_ratings(rows), {"m": PREDS["m"]}, judge=JUDGE)
        .plan(1.0, 0.01, max_cost=2000)
        .allocation
        is None
    )


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_result_does_not_depend_on_the_order_of_the_input_rows(seed):
    rng = np.random.default_rng(seed)
    rows = np.arange(0, N, 8)
    strata = pd.Series(np.where(HARD > 0.5, "hard", "easy"), index=ITEMS)
    judges = {"a": JUDGE, "b": PREDS["o"].rename("b")}
    opts = JudgeOptions(strata=strata, fitted_on_labels=True, folds=3, interval="auto")
    res = humanly.judge(_ratings(rows), PREDS, judge=judges, options=opts)

    def shuffled(s: pd.Series) -> pd.Series:
        return s.iloc[rng.permutation(len(s))]

    again = humanly.judge(
        _ratings(rng.permutation(rows)),
        {k: shuffled(v) for k, v in PREDS.items()},
        judge={k: shuffled(v) for k, v in judges.items()},
        options=JudgeOptions(
            strata=shuffled(strata), fitted_on_labels=True, folds=3, interval="auto"
        ),
    )
    assert again.to_dict() == res.to_dict()


def test_select_steers_by_one_judge_and_refuses_two():
    from humanly.judging import select

    rows = np.arange(0, N, 10)
    with pytest.raises(InputError, match=r"2 judges \['a', 'b'\]; select steers by one judge"):
        select(_ratings(rows), PREDS, judge={"a": JUDGE, "b": PREDS["o"]}, expected_items=50)
    assert select(_ratings(rows), PREDS, judge=JUDGE, expected_items=50).judge == "judge"
