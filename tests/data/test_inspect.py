"""humanly.inspect: typed nested values that round-trip through their JSON, every input form (a Study
too), the old names gone; agreement intervals and the per-rater table."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly._core.result import Interval
from humanly.crowd.agreement import AgreementIntervals, agreement_intervals
from humanly.crowd.inspect import (
    AgreementSummary,
    CountSummary,
    GoldSummary,
    InspectResult,
    ModelSummary,
)
from humanly.crowd.raters import RaterRow, RaterSummary, Spread


def _study() -> tuple[humanly.Ratings, dict[str, object], pd.Series]:
    long = pd.DataFrame(
        {
            "item": ["a", "a", "a", "b", "b", "c", "c"],
            "rater": ["u", "v", "w", "u", "v", "u", "w"],
            "label": ["x", "x", "y", "y", "y", "x", "y"],
        }
    )
    r = humanly.data.read_ratings(long)
    preds = {
        "hard": pd.Series(["x", "y", "y"], index=["a", "b", "c"]),
        "score": np.array([0.3, 2.0, 1.5]),
    }
    return r, preds, pd.Series(["x", "y"], index=["b", "a"])


def test_nested_values_are_typed_and_round_trip() -> None:
    r, preds, gold = _study()
    p = {"hard": preds["hard"]}
    s = humanly.inspect(r, p, gold)
    scores = humanly.Predictions.from_arrays(
        r.items, {"score": preds["score"]}, classes=r.classes, kind="score"
    )
    s2 = humanly.inspect(r, scores)
    assert isinstance(s, InspectResult)
    assert isinstance(s.labels_per_item, CountSummary) and isinstance(
        s.labels_per_rater, CountSummary
    )
    assert isinstance(s.agreement, AgreementSummary) and isinstance(s.gold, GoldSummary)
    assert isinstance(s.models, tuple) and isinstance(s.models[0], ModelSummary)
    d = s.to_dict()
    assert d["labels_per_item"] == {
        "min": 2,
        "median": 2.0,
        "max": 3,
        "mean": 7 / 3,
        "histogram": {"2": 2, "3": 1},
    }
    assert d["labels_per_rater"]["histogram"] is None  # no histogram per rater
    assert set(d["agreement"]) == {"pairwise", "fleiss_kappa", "krippendorff_alpha", "n_items"}
    assert set(d["gold"]) == {"n_items", "plurality_accuracy", "label_accuracy"}
    hard = {"model": "hard", "kind": "label", "n_items": 3, "gold_accuracy": 0.0}
    assert d["models"] == [{**hard, "plurality_agreement": s.models[0].plurality_agreement}]
    # a score has no label to agree with; without gold there is no gold accuracy: null, as typed
    assert s2.to_dict()["models"] == [
        {"model": "score", "kind": "score", "n_items": 3, "plurality_agreement": None,
         "gold_accuracy": None}
    ]  # fmt: skip
    for res in (s, s2):
        data = json.loads(res.to_json())
        assert InspectResult.from_dict(data).to_dict() == data
    for cls in (AgreementSummary, CountSummary, GoldSummary, ModelSummary, RaterSummary, Spread):
        part = {
            AgreementSummary: s.agreement, CountSummary: s.labels_per_item, GoldSummary: s.gold,
            ModelSummary: s.models[0], RaterSummary: s.raters,
            Spread: s.raters.agreement_spread,  # type: ignore[union-attr]
        }[cls]  # fmt: skip
        data = json.loads(part.to_json())  # type: ignore[union-attr]
        assert cls.from_dict(data).to_dict() == data


def test_the_old_names_are_gone() -> None:
    r, _, _ = _study()
    s = humanly.inspect(r, bootstrap=0)
    for old in ("summarize", "RatingsSummary"):
        assert not hasattr(humanly, old) and not hasattr(humanly.crowd.inspect, old)
    with pytest.raises(TypeError):
        s.agreement["pairwise"]  # type: ignore[index]  # no dict-style access
    assert not hasattr(s.models, "get") and not hasattr(s.agreement, "get")


def test_a_study_carries_its_predictions_and_gold() -> None:
    r, preds, gold = _study()
    study = humanly.data.join(r, {"hard": preds["hard"]}, gold)
    assert (
        humanly.inspect(study).to_dict()
        == humanly.inspect(r, {"hard": preds["hard"]}, gold).to_dict()
    )
    with pytest.raises(humanly.InputError, match="carries its predictions and gold"):
        humanly.inspect(study, gold=gold)


def test_every_form_gives_the_same_summary() -> None:
    r, preds, gold = _study()
    a = humanly.inspect(r, {"hard": preds["hard"]}, gold).to_dict()
    frame = r.to_frame()  # a long frame: items a, b, c
    b = humanly.inspect(frame, {"hard": preds["hard"].to_numpy()}, gold.iloc[::-1]).to_dict()
    c = humanly.inspect(frame.iloc[::-1], {"hard": preds["hard"].iloc[::-1]}, gold).to_dict()
    for d in (a, b, c):
        d.pop("source")
    assert a == b
    assert a["models"] == c["models"] and a["gold"] == c["gold"] and a["n_labels"] == c["n_labels"]


def test_agreement_intervals_and_rater_table() -> None:
    r, _, gold = _study()
    s = humanly.inspect(r, gold=gold, bootstrap=200, seed=3)
    ci = s.agreement_intervals
    assert isinstance(ci, AgreementIntervals) and isinstance(ci.pairwise, Interval)
    d = s.to_dict()
    assert set(d["agreement_intervals"]) == {
        "pairwise", "fleiss_kappa", "krippendorff_alpha", "level", "bootstrap", "seed"
    }  # fmt: skip
    assert d["agreement_intervals"]["pairwise"] == list(ci.pairwise) and len(ci.pairwise) == 2
    assert (ci.level, ci.bootstrap, ci.seed) == (0.95, 200, 3)
    assert ci == agreement_intervals(r.counts, bootstrap=200, seed=3)
    assert humanly.inspect(r, gold=gold, bootstrap=200, seed=3).to_dict() == d  # seeded: same bytes
    assert humanly.inspect(r, bootstrap=0).agreement_intervals is None
    assert humanly.inspect(r, bootstrap=0).to_dict()["agreement_intervals"] is None
    assert humanly.inspect(r).agreement_intervals.bootstrap == 1000  # the default
    # the rater table: one typed row per rater, in the ratings' rater order
    assert isinstance(s.raters, RaterSummary) and all(
        isinstance(x, RaterRow) for x in s.raters.rows
    )
    assert [row.rater for row in s.raters.rows] == list(r.raters)
    u = s.raters.rows[0]  # u: 'x' on a (vs x, y: tie), 'y' on b (vs y: 1), 'x' on c (vs y: 0)
    assert (u.n_labels, u.n_compared, u.agreement) == (3, 3, 0.5)
    assert u.gold_accuracy == 0.0  # gold: a → y, b → x
    assert set(d["raters"]) == {
        "rows", "crowd_agreement", "dawid_skene", "agreement_spread", "dawid_skene_spread",
        "gold_spread",
    }  # fmt: skip
    assert d["raters"]["rows"][0]["rater"] == "u"
    frame = s.raters.to_frame()
    assert len(frame) == 3 and list(frame.rater) == ["u", "v", "w"]
    json.dumps(d)


def test_summary_arguments_name_the_parameter() -> None:
    r, _, _ = _study()
    with pytest.raises(ValueError, match=r"^bootstrap=-5: "):
        humanly.inspect(r, bootstrap=-5)
    with pytest.raises(TypeError, match=r"^bootstrap=0.5: "):
        humanly.inspect(r, bootstrap=0.5)
    with pytest.raises(ValueError, match=r"^level=0: "):
        humanly.inspect(r, level=0)
    with pytest.raises(TypeError, match=r"^seed='a': "):
        humanly.inspect(r, seed="a")
    with pytest.raises(TypeError, match=r"^dawid_skene='no': "):
        humanly.inspect(r, dawid_skene="no")
    with pytest.raises(ValueError, match=r"^missing='never': "):
        humanly.inspect(r, missing="never")


def test_dawid_skene_can_be_left_out() -> None:
    r, _, gold = _study()
    full = humanly.inspect(r, gold=gold, bootstrap=0)
    lean = humanly.inspect(r, gold=gold, bootstrap=0, dawid_skene=False)
    assert full.raters is not None and full.raters.dawid_skene is not None
    assert lean.raters is not None and lean.raters.dawid_skene is None
    assert all(row.dawid_skene_accuracy is None for row in lean.raters.rows)
    keep = ("rater", "n_labels", "n_compared", "agreement", "gold_accuracy")
    assert lean.raters.to_frame()[list(keep)].equals(full.raters.to_frame()[list(keep)])
    assert lean.to_dict()["raters"]["dawid_skene"] is None
