"""Readers: formats by extension, column conventions, wide and counts layouts, predictions and gold."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly.data import Counts, InputError, Ratings, ReadOptions, write_table

LONG = pd.DataFrame(
    {
        "item": ["007", "007", "007", "8", "8", "9"],
        "rater": ["a", "b", "c", "a", "c", "b"],
        "label": ["pos", "neg", "pos", "neg", "neg", "pos"],
    }
)


@pytest.mark.parametrize("ext", [".csv", ".tsv", ".parquet", ".jsonl", ".json"])
def test_formats_round_trip(tmp_path, ext):
    path = write_table(LONG, tmp_path / f"r{ext}")
    r = humanly.data.read_ratings(path)
    assert list(r.items) == ["007", "8", "9"]  # ids kept as given (leading zero survives)
    assert r.classes == ("neg", "pos")
    np.testing.assert_array_equal(r.counts, [[1, 2], [2, 0], [0, 1]])
    assert list(r.raters) == ["a", "b", "c"]


def test_parquet_folder(tmp_path):
    folder = tmp_path / "ds"
    folder.mkdir()
    write_table(LONG.iloc[:3], folder / "part-0.parquet")
    write_table(LONG.iloc[3:], folder / "part-1.parquet")
    r = humanly.data.read_ratings(folder)
    np.testing.assert_array_equal(r.counts, [[1, 2], [2, 0], [0, 1]])


def test_dataframe_and_crowdkit_names():
    df = LONG.rename(columns={"item": "task", "rater": "worker"})  # crowd-kit style
    r = humanly.data.read_ratings(df)
    assert r.source == "DataFrame" and r.n_labels == 6
    r2 = Ratings.from_frame(LONG.rename(columns={"rater": "annotator", "label": "answer"}))
    np.testing.assert_array_equal(r.counts, r2.counts)


def test_column_overrides_and_ambiguity():
    df = LONG.rename(columns={"item": "doc", "rater": "who", "label": "y"})
    r = humanly.data.read_ratings(df, item_col="doc", rater_col="who", label_col="y")
    assert r.n_items == 3
    with pytest.raises(InputError, match=r"missing required item column.*item_col="):
        humanly.data.read_ratings(df)
    both = LONG.assign(answer=LONG["label"])
    with pytest.raises(InputError, match=r"several columns could be the label.*label_col="):
        humanly.data.read_ratings(both)


def test_declared_classes_order_and_unused():
    r = humanly.data.read_ratings(LONG, classes=["pos", "neg", "unsure"])
    assert r.classes == ("pos", "neg", "unsure")
    np.testing.assert_array_equal(r.counts, [[2, 1, 0], [0, 2, 0], [1, 0, 0]])


def test_integer_labels_and_declared_text_classes(tmp_path):
    df = LONG.assign(label=[1, 0, 1, 0, 0, 1])
    path = write_table(df, tmp_path / "r.csv")
    r = humanly.data.read_ratings(path, classes=["0", "1"])  # as typed on the command line
    assert r.classes == (0, 1)
    r2 = humanly.data.read_ratings(path)
    np.testing.assert_array_equal(r.counts, r2.counts)


def test_duplicates_policies():
    dup = pd.concat([LONG, LONG.iloc[[0]].assign(label="neg")], ignore_index=True)
    with pytest.raises(InputError, match="rater 'a' labelled item '007' more than once"):
        humanly.data.read_ratings(dup)
    first = humanly.data.read_ratings(dup, options=ReadOptions(duplicates="first"))
    last = humanly.data.read_ratings(dup, options=ReadOptions(duplicates="last"))
    keep = humanly.data.read_ratings(dup, options=ReadOptions(duplicates="keep"))
    assert first.counts[0].tolist() == [1, 2] and last.counts[0].tolist() == [2, 1]
    assert keep.counts[0].tolist() == [2, 2] and keep.n_labels == 7
    with pytest.raises(InputError, match=r"^duplicates='twice': use one of "):
        ReadOptions(duplicates="twice")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        humanly.data.read_ratings(dup, duplicates="first")  # type: ignore[call-arg]  # in ReadOptions now
    with pytest.raises(InputError, match=r"^options.score_col= names a column of a predictions"):
        humanly.data.read_ratings(dup, options=ReadOptions(score_col="s"))


def test_wide(tmp_path):
    wide = pd.DataFrame(
        {"item": ["x", "y"], "r1": ["a", None], "r2": ["b", "b"], "r3": [None, "a"]}
    )
    path = write_table(wide, tmp_path / "w.csv")
    r = humanly.data.read_ratings(path, wide=True)
    assert list(r.raters) == ["r1", "r2", "r3"] and r.n_labels == 4
    m = r.matrix()
    assert m.tolist() == [[0, 1, -1], [-1, 1, 0]]


def test_counts_specs(tmp_path):
    df = pd.DataFrame(
        {
            "id": ["p", "q"],
            "n_neg": [3, 0],
            "n_pos": [1, 4],
            "total": [4, 5],
            "cnt-1_x": [1, 2],
            "cnt1_x": [0, 1],
        }
    )
    path = write_table(df, tmp_path / "c.csv")
    r = humanly.data.read_ratings(path, item_col="id", counts="n_neg,n_pos")
    assert r.classes == ("n_neg", "n_pos") and r.counts.tolist() == [[3, 1], [0, 4]]
    r = humanly.data.read_ratings(path, item_col="id", counts="neg=n_neg,pos=n_pos")
    assert r.classes == ("neg", "pos")
    r = humanly.data.read_ratings(path, item_col="id", counts="n_")  # prefix
    assert r.classes == ("neg", "pos")
    r = humanly.data.read_ratings(
        path, item_col="id", counts="cnt*_x"
    )  # glob, integer classes sorted
    assert r.classes == (-1, 1) and r.counts.tolist() == [[1, 0], [2, 1]]
    pos = Counts("pos=n_pos", total="total", rest_class="neg")
    r = humanly.data.read_ratings(path, item_col="id", counts=pos)
    assert r.classes == ("neg", "pos") and r.counts.tolist() == [[3, 1], [1, 4]]
    by_list = humanly.data.read_ratings(path, item_col="id", counts=Counts(["n_neg", "n_pos"]))
    assert (
        by_list.counts.tolist()
        == humanly.data.read_ratings(path, item_col="id", counts="n_neg,n_pos").counts.tolist()
    )
    with pytest.raises(InputError, match="total 4 in column 'total' is smaller"):
        humanly.data.read_ratings(
            path, item_col="id", counts=Counts("n_neg,n_pos,cnt-1_x", total="total")
        )
    with pytest.raises(InputError, match=r"no total column 'n'.*; check total="):
        humanly.data.read_ratings(path, item_col="id", counts=Counts("pos=n_pos", total="n"))
    with pytest.raises(TypeError):
        humanly.data.read_ratings(path, counts="pos=n_pos", total_col="total")  # type: ignore[call-arg]


def test_counts_fields_are_checked():
    with pytest.raises(TypeError, match=r"^counts=3: "):
        Counts(3)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"^counts='': "):
        Counts("")
    with pytest.raises(TypeError, match=r"^total=1: "):
        Counts("a", total=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Counts("a", total_col="n")  # type: ignore[call-arg]  # a misspelt field
    assert Counts(["a", "b"]).columns == ("a", "b") and Counts("a").rest_class == "other"


def test_counts_api():
    r = Ratings.from_counts([[1, 2], [0, 3]], classes=["a", "b"], items=["u", "v"])
    assert r.n_labels == 6 and not r.has_raters
    with pytest.raises(InputError, match="needs named raters"):
        r.matrix()
    with pytest.raises(InputError, match="not a non-negative integer"):
        Ratings.from_counts([[1, -2]], classes=["a", "b"])


PRED = pd.DataFrame(
    {
        "item": ["007", "8", "9", "007", "8", "9"],
        "model": ["hard", "hard", "hard", "soft", "soft", "soft"],
        "prediction": ["pos", "neg", "pos", None, None, None],
        "prob_neg": [None, None, None, 0.2, 0.9, 0.5],
        "prob_pos": [None, None, None, 0.8, 0.1, 0.5],
    }
)


def test_predictions_mixed_models_and_alignment(tmp_path):
    r = humanly.data.read_ratings(LONG)
    path = write_table(PRED, tmp_path / "p.csv")
    p = humanly.data.read_predictions(path, classes=r.classes)
    assert p.names == ("hard", "soft")
    assert [m.kind for m in p.models] == ["label", "proba"]
    assert p.hard("soft").tolist() == [1, 0, 0]
    np.testing.assert_allclose(p.proba("hard"), [[0, 1], [1, 0], [0, 1]])
    _r2, p2 = humanly.data.align(r, p.take([2, 0, 1]))  # order follows the ratings
    assert list(p2.items) == ["007", "8", "9"] and p2.hard("hard").tolist() == [1, 0, 1]


def test_predictions_single_prob_and_positive():
    df = pd.DataFrame({"item": ["a", "b"], "prob": [0.25, 1.0]})
    p = humanly.data.read_predictions(df, classes=("no", "yes"))
    np.testing.assert_allclose(p.models[0].values, [[0.75, 0.25], [0, 1]])
    p = humanly.data.read_predictions(df, classes=("no", "yes"), positive="no")
    np.testing.assert_allclose(p.models[0].values, [[0.25, 0.75], [1, 0]])


def test_predictions_int_ids_match_text_ids(tmp_path):
    r = humanly.data.read_ratings(LONG.assign(item=["1", "1", "1", "2", "2", "3"]))
    p = humanly.data.read_predictions(
        pd.DataFrame({"item": [3, 2, 1], "prediction": ["pos", "pos", "neg"]}), classes=r.classes
    )
    _, p2 = humanly.data.align(r, p)
    assert p2.hard(p2.names[0]).tolist() == [0, 1, 1]


def test_align_missing_error_and_drop():
    r = humanly.data.read_ratings(LONG)
    p = humanly.data.read_predictions(
        pd.DataFrame({"item": ["007", "8", "zzz"], "prediction": ["pos", "neg", "neg"]}),
        classes=r.classes,
    )
    with pytest.raises(
        InputError, match=r"1 rated item\(s\) have no prediction.*1 prediction\(s\) are"
    ):
        humanly.data.align(r, p)
    r2, p2 = humanly.data.align(r, p, missing="drop")
    assert list(r2.items) == ["007", "8"] and r2.n_labels == 5 and p2.n_items == 2


def test_gold_subset_and_conflicts():
    r = humanly.data.read_ratings(LONG)
    g = humanly.data.read_gold(
        pd.DataFrame({"item": ["8", "8"], "truth": ["neg", "neg"]}), classes=r.classes
    )
    assert g.for_items(r.items).tolist() == [-1, 0, -1]
    with pytest.raises(InputError, match="conflicting gold labels"):
        humanly.data.read_gold(pd.DataFrame({"item": ["8", "8"], "label": ["neg", "pos"]}))
