"""Label kinds: the measurement scale carried by Ratings, read by the loaders, used by ``agreement`` as
its default, and refused by the analyses that need classes (certify, equivalence, plan)."""

from __future__ import annotations

import pandas as pd
import pytest

import humanly
from humanly import simulate
from humanly.data import Ratings, ReadOptions, read_ratings
from humanly.errors import InputError


def _numeric() -> Ratings:
    return Ratings.from_long(
        [1, 1, 2, 2, 3, 3, 4, 4], ["a", "b"] * 4, [1.5, 2.0, 4.0, 4.0, 1.5, 2.0, 7.25, 4.0]
    )


def test_ratings_default_nominal_and_with_scale_keeps_the_labels() -> None:
    r = _numeric()
    assert r.scale == "nominal"
    s = r.with_scale("interval")
    assert s.scale == "interval" and r.scale == "nominal"
    assert s.classes == (1.5, 2.0, 4.0, 7.25)
    assert s.counts.tolist() == r.counts.tolist()
    assert s.matrix().tolist() == r.matrix().tolist()
    assert "scale='interval'" in repr(s) and "scale=" not in repr(r)


def test_take_and_anonymous_keep_the_scale() -> None:
    s = _numeric().with_scale("ratio")
    assert s.take([0, 2]).scale == "ratio"
    assert s.anonymous().scale == "ratio"
    assert s.anonymous().take([1, 1]).scale == "ratio"


@pytest.mark.parametrize(
    ("labels", "scale", "words"),
    [
        (["low", "high", "low", "mid"], "interval", "needs numeric labels"),
        (["low", "high", "low", "mid"], "ratio", "needs numeric labels"),
        ([1, "high", 1, 2], "ordinal", "mix numbers and words"),
        ([-1.0, 2.0, 2.0, 3.0], "ratio", "values ≥ 0"),
        ([1, 2, 1, 2], "likert", "give one of nominal, ordinal, interval, ratio"),
    ],
)
def test_a_scale_the_classes_do_not_fit_is_one_sentence(labels, scale, words) -> None:
    r = Ratings.from_long([1, 1, 2, 2], ["a", "b"] * 2, labels)
    with pytest.raises(InputError, match=words) as err:
        r.with_scale(scale)
    message = str(err.value)
    assert f"scale={scale!r}" in message and message.count(". ") == 0


def test_ordinal_words_keep_the_declared_order() -> None:
    r = Ratings.from_long(
        [1, 1, 2, 2], ["a", "b"] * 2, ["low", "high", "mid", "mid"], classes=["low", "mid", "high"]
    ).with_scale("ordinal")
    assert r.classes == ("low", "mid", "high")
    linear = humanly.agreement(r, weights="linear", bootstrap=0)
    # item 1 differs by two steps of three classes: weight 0; item 2 agrees
    assert linear["percent_agreement"].agreement == pytest.approx(0.5)


def test_loaders_take_the_scale_from_read_options() -> None:
    frame = pd.DataFrame({"item": [1, 1, 2, 2], "rater": ["a", "b"] * 2, "label": [1, 3, 2, 2]})
    assert read_ratings(frame, options=ReadOptions(scale="ordinal")).scale == "ordinal"
    assert humanly.read_study(frame, options=ReadOptions(scale="interval")).ratings.scale == (
        "interval"
    )
    assert humanly.read_study(frame).ratings.scale == "nominal"
    # a Ratings given keeps its own scale unless one is asked for
    given = read_ratings(frame).with_scale("ratio")
    assert humanly.read_study(given).ratings.scale == "ratio"
    assert humanly.read_study(given, options=ReadOptions(scale="ordinal")).ratings.scale == (
        "ordinal"
    )
    with pytest.raises(InputError, match="scale='bogus'"):
        ReadOptions(scale="bogus")


def test_loader_reads_numeric_labels_as_numbers(tmp_path) -> None:
    path = tmp_path / "scores.csv"
    path.write_text("item,rater,label\n1,a,1.5\n1,b,2\n2,a,10\n2,b,2\n3,a,1.5\n3,b,10\n")
    r = read_ratings(path, options=ReadOptions(scale="interval"))
    assert r.classes == (1.5, 2.0, 10.0) and r.scale == "interval"


def test_agreement_uses_the_ratings_scale_unless_told() -> None:
    r = _numeric()
    on_interval = humanly.agreement(r.with_scale("interval"), bootstrap=0)
    told = humanly.agreement(r, scale="interval", bootstrap=0)
    assert on_interval.scale == told.scale == "interval"
    assert on_interval.to_dict() == told.to_dict()
    nominal = humanly.agreement(r.with_scale("interval"), scale="nominal", bootstrap=0)
    assert nominal.scale == "nominal"
    assert nominal["krippendorff_alpha"].estimate != told["krippendorff_alpha"].estimate


def test_analyses_that_need_classes_refuse_interval_data() -> None:
    d = simulate.oracle(200, [0.85, 0.8, 0.75], models={"m": 0.9}, seed=1)
    ratings = d.ratings.with_scale("interval")
    calls = {
        "certify": lambda: humanly.certify(ratings, d.predictions),
        "equivalence": lambda: humanly.equivalence(ratings, d.predictions, bootstrap=0),
        "plan": lambda: humanly.plan(ratings, d.predictions, bootstrap=0),
    }
    for name, call in calls.items():
        with pytest.raises(InputError, match=f"{name} needs classes") as err:
            call()
        assert "scale='interval'" in str(err.value)
    # ordinal classes are still classes
    assert humanly.certify(d.ratings.with_scale("ordinal"), d.predictions).n_items == 200
