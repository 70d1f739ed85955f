"""The per-item design a study carries (strata, sampling weights: ``humanly.data.design``) and rating
studies (``humanly.data.rated``): joined by item id whatever the row order, read from columns of the
predictions or judge files, and bad input as one sentence naming the value and the fix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from humanly import InputError, Ratings
from humanly.data import ReadOptions, join, join_ratings, read_rating_study, read_study

IDS = [f"i{k}" for k in range(8)]


def _inputs():
    ratings = Ratings.from_long(["i3", "i1", "i6"], ["r"] * 3, [1, 0, 1], classes=[0, 1])
    preds = {"m": pd.Series([0, 1, 1, 0, 1, 0, 1, 1], index=IDS)}
    judge = pd.Series([0, 1, 1, 1, 1, 0, 0, 1], index=IDS)
    strata = pd.Series(list("aabbaabb"), index=IDS)
    return ratings, preds, judge, strata


def test_strata_and_weights_are_held_in_the_studys_canonical_order():
    ratings, preds, judge, strata = _inputs()
    weights = pd.Series(np.arange(1.0, 9.0), index=IDS)
    s = join(ratings, preds, judge=judge, strata=strata[::-1], sampling_weights=weights.sample(8))
    assert s.design is not None
    order = list(s.ratings.items)
    assert list(s.design.strata) == [strata[i] for i in order]
    assert np.allclose(s.design.probabilities, [1 / weights[i] for i in order])


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"strata": pd.Series(list("aabbaab"), index=IDS[:7])}, "1 of 8 items have none"),
        ({"sampling_weights": pd.Series(0.5, index=IDS)}, "has weight 0.5"),
        ({"sampling_weights": pd.Series("x", index=IDS)}, "a number ≥ 1"),
        ({"strata": pd.Series(list("aabbaabbc"), index=[*IDS, "i9"])}, "missing='drop'"),
        ({"strata": pd.Series(list("ab"), index=["i1", "i1"])}, "more than one value"),
        ({"strata": ["a"] * 8}, "follow the ratings' 3 items in their order"),
    ],
)
def test_bad_design_is_one_sentence(kwargs, words):
    ratings, preds, judge, _ = _inputs()
    with pytest.raises((InputError, TypeError)) as info:
        join(ratings, preds, judge=judge, **kwargs)
    assert words in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_extra_design_ids_are_dropped_with_missing_drop():
    ratings, preds, judge, strata = _inputs()
    extra = pd.concat([strata, pd.Series(["c"], index=["i9"])])
    s = join(ratings, preds, judge=judge, strata=extra, missing="drop")
    assert s.design is not None and set(s.design.strata) == {"a", "b"}


def test_read_study_reads_the_columns_from_the_predictions_or_judge_file(tmp_path: Path):
    pd.DataFrame({"item": ["i3", "i1", "i6"], "rater": "r", "label": [1, 0, 1]}).to_csv(
        tmp_path / "r.csv", index=False
    )
    pd.DataFrame({"item": IDS, "prediction": [0, 1, 1, 0, 1, 0, 1, 1]}).to_csv(
        tmp_path / "p.csv", index=False
    )
    pd.DataFrame(
        {"item": IDS[::-1], "prediction": [1, 0, 0, 1, 1, 1, 1, 0], "topic": list("abababab")}
    ).to_csv(tmp_path / "j.csv", index=False)
    s = read_study(
        tmp_path / "r.csv",
        tmp_path / "p.csv",
        judge=tmp_path / "j.csv",
        options=ReadOptions(strata="topic"),
    )
    assert s.design is not None and s.design.strata_source == "strata='topic'"
    by_id = dict(zip(IDS[::-1], "abababab", strict=True))
    assert list(s.design.strata) == [by_id[i] for i in s.ratings.items]
    with pytest.raises(InputError, match="no column 'nope' in the predictions or judge tables"):
        read_study(
            tmp_path / "r.csv",
            tmp_path / "p.csv",
            judge=tmp_path / "j.csv",
            options=ReadOptions(sampling_weights="nope"),
        )


def _rating_tables(seed: int = 0):
    rng = np.random.default_rng(seed)
    ids = [f"q{k:03d}" for k in range(40)]
    judge = pd.DataFrame(
        {"item": np.repeat(ids, 2), "model": ["a", "b"] * 40, "rating": rng.integers(1, 6, 80)}
    )
    human = judge.iloc[:20].assign(rating=rng.integers(1, 6, 20))
    return human, judge


def test_rating_studies_do_not_depend_on_row_order_or_layout():
    human, judge = _rating_tables()
    s = join_ratings(human, judge, scale=(1, 5))
    shuffled = join_ratings(
        human.sample(frac=1, random_state=1), judge.sample(frac=1, random_state=2), scale=(1, 5)
    )
    assert list(s.items) == sorted(s.items) and list(shuffled.items) == list(s.items)
    assert np.array_equal(s.judge, shuffled.judge)
    assert np.array_equal(s.human, shuffled.human, equal_nan=True)
    wide = judge.pivot(index="item", columns="model", values="rating")
    assert np.array_equal(join_ratings(human, wide, scale=(1, 5)).judge, s.judge)
    assert s.n_labelled == 10 and s.models == ("a", "b")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda h, j: (h, j.iloc[1:]), "no rating of model 'a' on item 'q000'"),
        (lambda h, j: (h.iloc[1:], j), "human ratings of some models only"),
        (lambda h, j: (h.assign(rating=9), j), "outside scale=(1.0, 5.0)"),
        (lambda h, j: (h.assign(rating="good"), j), "rating 'good' (row 1) is not a number"),
    ],
)
def test_bad_ratings_are_one_sentence(change, words):
    human, judge = change(*_rating_tables())
    with pytest.raises(InputError) as info:
        join_ratings(human, judge, scale=(1, 5))
    assert words in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_read_rating_study_reads_strata_from_the_judge_table():
    human, judge = _rating_tables()
    topic = {i: "x" if int(i[1:]) % 2 else "y" for i in judge["item"]}
    s = read_rating_study(human, judge.assign(topic=judge["item"].map(topic)), strata="topic")
    assert s.design is not None and list(s.design.strata) == [topic[i] for i in s.items]
