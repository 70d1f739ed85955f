"""summarize: typed nested values, the same JSON as when they were dicts, every input form; agreement
intervals and the per-rater table."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly._core.result import Interval
from humanly.crowd.agreement import AgreementIntervals, agreement_intervals
from humanly.crowd.inspect import AgreementSummary, CountSummary, GoldSummary, ModelSummary
from humanly.crowd.raters import RaterRow, RaterSummary


def _study() -> tuple[humanly.Ratings, dict[str, object], pd.Series]:
    long = pd.DataFrame(
        {
            "item": ["a", "a", "a", "b", "b", "c", "c"],
            "rater": ["u", "v", "w", "u", "v", "u", "w"],
            "label": ["x", "x", "y", "y", "y", "x", "y"],
        }
    )
    r = humanly.read_ratings(long)
    preds = {
        "hard": pd.Series(["x", "y", "y"], index=["a", "b", "c"]),
        "score": np.array([0.3, 2.0, 1.5]),
    }
    return r, preds, pd.Series(["x", "y"], index=["b", "a"])


def test_nested_values_are_typed_and_json_is_unchanged() -> None:
    r, preds, gold = _study()
    p = {"hard": preds["hard"]}
    s = humanly.summarize(r, gold, p)
    scores = humanly.Predictions.from_arrays(
        r.items, {"score": preds["score"]}, classes=r.classes, kind="score"
    )
    s2 = humanly.summarize(r, None, scores)
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
    assert set(d["labels_per_rater"]) == {"min", "median", "max", "mean"}  # no histogram per rater
    assert set(d["agreement"]) == {"pairwise", "fleiss_kappa", "krippendorff_alpha", "n_items"}
    assert set(d["gold"]) == {"n_items", "plurality_accuracy", "label_accuracy"}
    hard = {"model": "hard", "kind": "label", "n_items": 3, "gold_accuracy": 0.0}
    assert d["models"] == [{**hard, "plurality_agreement": s.models[0].plurality_agreement}]
    assert s2.to_dict()["models"] == [
        {"model": "score", "kind": "score", "n_items": 3}
    ]  # keys that apply
    json.dumps(d)
    # dict-style access still reads the values (code written when these were dicts)
    assert s.agreement["pairwise"] == s.agreement.pairwise and s.labels_per_item["histogram"] == {
        "2": 2,
        "3": 1,
    }
    assert (
        s2.models[0].get("plurality_agreement") is None and s.models[0].get("gold_accuracy") == 0.0
    )


def test_every_form_gives_the_same_summary() -> None:
    r, preds, gold = _study()
    a = humanly.summarize(r, gold, {"hard": preds["hard"]}).to_dict()
    frame = r.to_frame()  # a long frame: items a, b, c
    b = humanly.summarize(frame, gold.iloc[::-1], {"hard": preds["hard"].to_numpy()}).to_dict()
    c = humanly.summarize(frame.iloc[::-1], gold, {"hard": preds["hard"].iloc[::-1]}).to_dict()
    for d in (a, b, c):
        d.pop("source")
    assert a == b
    assert a["models"] == c["models"] and a["gold"] == c["gold"] and a["n_labels"] == c["n_labels"]


def test_agreement_intervals_and_rater_table() -> None:
    r, _, gold = _study()
    s = humanly.summarize(r, gold, bootstrap=200, seed=3)
    ci = s.agreement_ci
    assert isinstance(ci, AgreementIntervals) and isinstance(ci.pairwise, Interval)
    d = s.to_dict()
    assert set(d["agreement_ci"]) == {
        "pairwise", "fleiss_kappa", "krippendorff_alpha", "level", "bootstrap", "seed"
    }  # fmt: skip
    assert d["agreement_ci"]["pairwise"] == list(ci.pairwise) and len(ci.pairwise) == 2
    assert (ci.level, ci.bootstrap, ci.seed) == (0.95, 200, 3)
    assert ci == agreement_intervals(r.counts, bootstrap=200, seed=3)
    assert humanly.summarize(r, gold, bootstrap=200, seed=3).to_dict() == d  # seeded: same bytes
    assert humanly.summarize(r, bootstrap=0).agreement_ci is None
    assert humanly.summarize(r, bootstrap=0).to_dict()["agreement_ci"] is None
    assert humanly.summarize(r).agreement_ci.bootstrap == 1000  # the default
    # the rater table: one typed row per rater, in the ratings' rater order
    assert isinstance(s.raters, RaterSummary) and all(
        isinstance(x, RaterRow) for x in s.raters.rows
    )
    assert [row.rater for row in s.raters.rows] == list(r.raters)
    u = s.raters.rows[0]  # u: 'x' on a (vs x, y: tie), 'y' on b (vs y: 1), 'x' on c (vs y: 0)
    assert (u.n_labels, u.n_compared, u.agreement) == (3, 3, 0.5)
    assert u.gold_accuracy == 0.0  # gold: a → y, b → x
    assert set(d["raters"]) == {"rows", "crowd_agreement", "dawid_skene"}
    assert d["raters"]["rows"][0]["rater"] == "u"
    frame = s.raters.to_frame()
    assert len(frame) == 3 and list(frame.rater) == ["u", "v", "w"]
    json.dumps(d)


def test_summary_arguments_name_the_parameter() -> None:
    r, _, _ = _study()
    with pytest.raises(ValueError, match=r"^bootstrap=-5: "):
        humanly.summarize(r, bootstrap=-5)
    with pytest.raises(TypeError, match=r"^bootstrap=0.5: "):
        humanly.summarize(r, bootstrap=0.5)
    with pytest.raises(ValueError, match=r"^level=0: "):
        humanly.summarize(r, level=0)
    with pytest.raises(TypeError, match=r"^seed='a': "):
        humanly.summarize(r, seed="a")
    with pytest.raises(TypeError, match=r"^dawid_skene='no': "):
        humanly.summarize(r, dawid_skene="no")


def test_dawid_skene_can_be_left_out() -> None:
    r, _, gold = _study()
    full = humanly.summarize(r, gold, bootstrap=0)
    lean = humanly.summarize(r, gold, bootstrap=0, dawid_skene=False)
    assert full.raters is not None and full.raters.dawid_skene is not None
    assert lean.raters is not None and lean.raters.dawid_skene is None
    assert all(row.dawid_skene_accuracy is None for row in lean.raters.rows)
    keep = ("rater", "n_labels", "n_compared", "agreement", "gold_accuracy")
    assert lean.raters.to_frame()[list(keep)].equals(full.raters.to_frame()[list(keep)])
    assert lean.to_dict()["raters"]["dawid_skene"] is None
