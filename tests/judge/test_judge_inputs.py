"""Bad input to ``judge()``, ``select()`` and ``plan()``: one clear sentence naming the parameter, and
the input forms that must work (Predictions, a Study, probabilities, missing="drop", gold)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from humanly import Predictions, Ratings
from humanly.errors import InputError
from humanly.judging import JudgeOptions, judge, select

IDS = [f"i{k:03d}" for k in range(200)]


def _data(n: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    truth = rng.choice(["no", "yes"], 200)
    flip = {"no": "yes", "yes": "no"}
    model = pd.Series([t if rng.random() < 0.8 else flip[t] for t in truth], index=IDS)
    llm = pd.Series([t if rng.random() < 0.9 else flip[t] for t in truth], index=IDS)
    human = Ratings.from_long(IDS[:n], ["r"] * n, truth[:n], classes=["no", "yes"])
    return human, {"m": model}, llm, truth


def _one_sentence(exc: BaseException, *needles: str) -> str:
    text = str(exc)
    assert "\n" not in text
    for needle in needles:
        assert needle in text, text
    return text


def test_judge_labels_missing_for_some_items() -> None:
    human, models, llm, _ = _data()
    with pytest.raises(InputError) as info:
        judge(human, models, judge=llm.drop(["i150", "i007"]))
    _one_sentence(
        info.value, "judge:", "2 of 200 items", "no judge output", "'i007'", "missing='drop'"
    )


def test_judge_label_missing_as_nan() -> None:
    human, models, llm, _ = _data()
    with pytest.raises(InputError, match=r"judge: 1 of 200 items .* no judge output"):
        judge(human, models, judge=llm.where(llm.index != "i010"))


def test_missing_drop_keeps_the_items_every_input_has() -> None:
    human, models, llm, _ = _data()
    res = judge(human, models, judge=llm.drop(["i150", "i007"]), missing="drop")
    assert (res.n_labelled, res.n_unlabelled) == (39, 159)
    from humanly.data import join

    study = join(human, models, judge=llm.drop(["i150", "i007"]), missing="drop")
    assert study.notes == (
        'missing="drop" dropped 1 of 40 rated items (no prediction or judge output); 2 of 200 '
        "items of predictions['m']",
    )


def test_judge_classes_differ_from_the_raters() -> None:
    human, models, llm, _ = _data()
    bad = llm.where(llm.index != "i003", "maybe")
    with pytest.raises(InputError) as info:
        judge(human, models, judge=bad)
    _one_sentence(info.value, "judge:", "'maybe'", "not one of the classes ('no', 'yes')")
    proba = pd.DataFrame({"no": 0.5, "yes": 0.3, "maybe": 0.2}, index=IDS)
    with pytest.raises(InputError, match=r"judge: probability columns .* not the ratings' classes"):
        judge(human, models, judge=proba)
    p = Predictions.from_arrays(IDS, {"llm": np.where(llm == "yes", "Y", "N")}, classes=["N", "Y"])
    with pytest.raises(InputError, match=r"judge: class 'N' is not among the ratings' classes"):
        judge(human, models, judge=p)


def test_model_classes_differ_from_the_raters() -> None:
    human, _, llm, _ = _data()
    with pytest.raises(InputError, match=r"predictions\['m'\]: value 'dunno' is not one of the"):
        judge(human, {"m": pd.Series("dunno", index=IDS)}, judge=llm)


@pytest.mark.parametrize("n", [0, 1])
def test_fewer_than_two_labelled_items(n: int) -> None:
    _human, models, llm, _truth = _data()
    ratings = Ratings.from_counts(
        np.array([[1, 0]] * n + [[0, 0]] * (200 - n)), items=IDS, classes=["no", "yes"]
    )
    with pytest.raises(InputError) as info:
        judge(ratings, models, judge=llm)
    _one_sentence(info.value, "ratings:", f"{n} item(s) with a human label", "at least 2")


def test_every_item_labelled() -> None:
    human, models, llm, _truth = _data(n=200)
    with pytest.raises(InputError, match="every item has a human label"):
        judge(human, models, judge=llm)


def test_rated_items_without_predictions() -> None:
    _human, models, llm, _ = _data()
    extra = Ratings.from_long([*IDS[:40], "zzz"], ["r"] * 41, ["no"] * 41, classes=["no", "yes"])
    with pytest.raises(InputError, match=r"ratings: 1 rated item\(s\) have no prediction .*'zzz'"):
        judge(extra, models, judge=llm)
    assert judge(extra, models, judge=llm, missing="drop").n_labelled == 40


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"level": 1.5}, "level=1.5"),
        ({"level": 0}, "level=0"),
        ({"estimator": "ppi+"}, "estimator='ppi+'"),
        ({"reference": "majority"}, "reference='majority'"),
        ({"missing": "keep"}, "missing='keep'"),
        ({"seed": -1}, "seed=-1"),
    ],
)
def test_bad_arguments(kwargs: dict, needle: str) -> None:
    human, models, llm, _ = _data()
    with pytest.raises(InputError) as info:
        judge(human, models, judge=llm, **kwargs)
    _one_sentence(info.value, needle)


def test_wrong_kinds_are_type_errors() -> None:
    human, models, llm, _ = _data()
    with pytest.raises(TypeError, match="options=dict"):
        judge(human, models, judge=llm, options={"pairs": ()})
    with pytest.raises(TypeError, match="predictions=None"):
        judge(human, judge=llm)
    with pytest.raises(
        InputError, match=r"an array has no item ids.*pandas Series indexed by item"
    ):
        judge(human, {"m": models["m"].to_numpy()}, judge=llm.to_numpy())
    with pytest.raises(TypeError, match="judge=set"):
        judge(human, models, judge={1, 2})


def test_arrays_follow_the_ratings_items_as_held() -> None:
    """The one rule for bare arrays (issue 30): an array follows the ratings' items in the order the
    caller holds them — here every item, those with no human label as zero counts, in a shuffled
    order — and is refused when the ratings do not hold every item (the judge Series' order is not
    one the caller holds: the array used to be read in it)."""
    human, models, llm, truth = _data()
    by_id = judge(human, models, judge=llm)
    order = np.random.default_rng(1).permutation(200)
    counts = np.zeros((200, 2), dtype=int)
    counts[np.arange(40), (truth[:40] == "yes").astype(int)] = 1
    held = Ratings.from_counts(counts[order], items=[IDS[i] for i in order], classes=["no", "yes"])
    by_order = judge(held, {"m": models["m"].to_numpy()[order]}, judge=llm.to_numpy()[order])
    assert by_order.to_dict() == by_id.to_dict()
    for bad in (llm.to_numpy(), llm.to_numpy()[:10]):  # 40 rated items hold no order for 200
        with pytest.raises(InputError, match=r"follow the ratings' 40 items.*Series indexed by"):
            judge(human, models, judge=bad)


def test_bad_pairs() -> None:
    human, models, llm, _ = _data()
    models = {**models, "n": models["m"]}
    with pytest.raises(InputError, match=r"options.pairs: .* two different models"):
        judge(human, models, judge=llm, options=JudgeOptions(pairs=(("m", "zzz"),)))
    res = judge(human, models, judge=llm, options=JudgeOptions(pairs=(("n", "m"),)))
    assert [(c.first, c.second) for c in res.comparisons] == [("n", "m")]


def test_plan_costs_and_max_cost() -> None:
    human, models, llm, _ = _data()
    res = judge(human, models, judge=llm)
    with pytest.raises(InputError) as info:
        res.plan(0, 0.01, max_cost=100)
    _one_sentence(info.value, "cost_human=0")
    with pytest.raises(InputError, match="cost_judge=-1"):
        res.plan(1, -1, max_cost=100)
    with pytest.raises(InputError) as info:
        res.plan(1.0, 0.01, max_cost=0.5)
    _one_sentence(info.value, "max_cost=0.5", "fewer than 2 human labels")
    with pytest.raises(InputError, match="give a max_cost or a target"):
        res.plan(1.0, 0.01)
    with pytest.raises(InputError, match="not both"):
        res.plan(1.0, 0.01, max_cost=100, target_width=0.1)
    with pytest.raises(InputError, match="target_width=0"):
        res.plan(1.0, 0.01, target_width=0)


def test_probabilities_must_cover_the_unlabelled_items() -> None:
    human, models, llm, _ = _data()
    pi = pd.Series(0.2, index=IDS[40:])
    with pytest.raises(InputError) as info:
        judge(human, models, judge=llm, options=JudgeOptions(probabilities=pi.drop("i100")))
    _one_sentence(info.value, "options.probabilities", "no sampling probability", "'i100'")
    with pytest.raises(InputError, match=r"options.probabilities: item .i050. has probability 0"):
        opts = JudgeOptions(probabilities=pi.where(pi.index != "i050", 0.0))
        judge(human, models, judge=llm, options=opts)
    with pytest.raises(InputError, match="probability 1 but no label"):
        opts = JudgeOptions(probabilities=pi.where(pi.index != "i060", 1.0))
        judge(human, models, judge=llm, options=opts)
    with pytest.raises(TypeError, match=r"options.probabilities=float"):
        judge(human, models, judge=llm, options=JudgeOptions(probabilities=0.2))
    # labelled items without a probability were labelled for sure (a pilot): allowed
    assert (
        judge(human, models, judge=llm, options=JudgeOptions(probabilities=pi)).design == "active"
    )


def test_selected_items_need_their_labels() -> None:
    human, models, _llm, truth = _data()
    proba = pd.DataFrame({"no": np.linspace(0.05, 0.95, 200), "yes": np.linspace(0.95, 0.05, 200)},
                         index=IDS)  # fmt: skip
    sel = select(human, models, judge=proba, expected_items=30, seed=3)
    with pytest.raises(InputError, match=r"selected item.* have no human label yet"):
        judge(human, models, judge=proba, options=JudgeOptions(probabilities=sel))
    chosen = list(sel.selected_items())
    more = Ratings.from_long(
        IDS[:40] + chosen, ["r"] * (40 + len(chosen)),
        np.concatenate([truth[:40], truth[[IDS.index(i) for i in chosen]]]), classes=["no", "yes"],
    )  # fmt: skip
    res = judge(more, models, judge=proba, options=JudgeOptions(probabilities=sel))
    assert res.design == "active" and res.n_labelled == 40 + len(chosen)


def test_select_expected_items() -> None:
    human, models, llm, _ = _data()
    with pytest.raises(InputError) as info:
        select(human, models, judge=llm, expected_items=0)
    _one_sentence(info.value, "expected_items=0")
    with pytest.raises(
        InputError, match=r"expected_items=150: more than max_probability × pool = 144"
    ):
        select(human, models, judge=llm, expected_items=150)


def test_gold_is_reported_for_validation() -> None:
    human, models, llm, truth = _data()
    gold = pd.Series(truth[100:150], index=IDS[100:150])
    res = judge(human, models, judge=llm, gold=gold)
    assert [(g.name, g.role, g.n) for g in res.gold] == [("m", "model", 50), ("judge", "judge", 50)]
    manual = float(np.mean(models["m"].to_numpy()[100:150] == truth[100:150]))
    assert res.gold[0].accuracy == pytest.approx(manual)
    with pytest.raises(InputError, match="gold: 1 gold label"):
        judge(human, models, judge=llm, gold=pd.Series(["no"], index=["nowhere"]))
    with pytest.raises(InputError, match="gold item 'i001': label 'perhaps'"):
        judge(human, models, judge=llm, gold=pd.Series(["perhaps"], index=["i001"]))
