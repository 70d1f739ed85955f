"""read_study: one loader for files, frames and arrays — the same Study whichever form the data is in."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from study_frames import assert_same

import humanly
from humanly import Predictions, Ratings, Study, read_study
from humanly.data import Counts, InputError, ReadOptions, write_table

SNOW = {"item_col": "orig_id", "rater_col": "!amt_worker_ids", "label_col": "response"}


# ------------------------------------------------------------------------- Snow RTE, every form
@pytest.fixture(scope="module")
def rte(shared_data: Path) -> dict[str, object]:
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    base = read_study(path, gold_col="gold", **SNOW)
    frame = pd.read_csv(path, sep="\t", dtype={"orig_id": str})
    r = base.ratings
    rng = np.random.default_rng(0)
    plurality = r.counts.argmax(axis=1)
    noisy = np.where(rng.random(r.n_items) < 0.1, 1 - plurality, plurality)
    labels = np.asarray(r.classes)[noisy]
    prob = np.round(rng.random(r.n_items), 3)
    return {"path": path, "base": base, "frame": frame, "labels": labels, "prob": prob}


def test_rte_file_gold_column(rte: dict) -> None:
    s = rte["base"]
    assert (s.ratings.n_items, s.ratings.n_raters, s.ratings.n_labels) == (800, 164, 8000)
    assert s.gold is not None and (s.gold.codes >= 0).all()
    s2 = read_study(
        rte["path"], gold=rte["path"], gold_col="gold", **SNOW
    )  # gold file = ratings file
    assert_same(s, s2)


def test_rte_same_study_from_every_form(rte: dict, tmp_path: Path) -> None:
    base: Study = rte["base"]
    r = base.ratings
    items = list(r.items)
    gold_labels = np.asarray(r.classes)[base.gold.codes]
    models = {"hard": rte["labels"], "soft": rte["prob"]}
    # arrays without ids follow the file's items in order of first appearance (issue 30's one rule:
    # the order read_ratings gives, not the sorted order the study is held in)
    held = pd.Index(pd.unique(rte["frame"]["orig_id"]))
    assert list(held) != items  # the file's items are not sorted
    pos = pd.Index(items).get_indexer(held)
    arrays = read_study(
        rte["frame"], {k: v[pos] for k, v in models.items()}, gold_labels[pos], **SNOW
    )
    # Series by item id, in shuffled order, and a shuffled long frame
    order = np.random.default_rng(1).permutation(len(items))
    shuffled = rte["frame"].sample(frac=1, random_state=2)
    series = {k: pd.Series(v, index=items).iloc[order] for k, v in models.items()}
    by_id = read_study(
        shuffled, series, pd.Series(gold_labels, index=items).iloc[order[::-1]], **SNOW
    )
    # files: predictions keyed by the ratings' item column, gold by a column named "item"
    pred_file = write_table(
        pd.DataFrame(
            {
                "orig_id": np.repeat(items, 2),
                "model": np.tile(["hard", "soft"], len(items)),
                "prediction": np.ravel(np.column_stack([rte["labels"], np.full(len(items), None)])),
                "prob": np.ravel(np.column_stack([np.full(len(items), np.nan), rte["prob"]])),
            }
        ).iloc[::-1],
        tmp_path / "p.csv",
    )
    gold_file = write_table(
        pd.DataFrame({"item": items, "truth": gold_labels}).iloc[order], tmp_path / "g.csv"
    )
    files = read_study(rte["path"], pred_file, gold_file, **SNOW)
    assert {m.name: m.kind for m in files.predictions.models} == {"hard": "label", "soft": "proba"}
    assert_same(arrays, by_id)
    assert_same(arrays, files)
    assert list(arrays.ratings.items) == items == list(files.ratings.items)
    # cleanlab's N × M array: items are the row numbers, raters the column numbers
    matrix = np.where(r.matrix() >= 0, np.asarray(r.classes, dtype=float)[r.matrix()], np.nan)
    cleanlab = read_study(matrix, models, gold_labels, wide=True)
    assert list(cleanlab.ratings.items) == list(range(800))
    assert cleanlab.ratings.classes == r.classes == (0, 1)
    np.testing.assert_array_equal(cleanlab.ratings.counts, r.counts)
    np.testing.assert_array_equal(cleanlab.ratings.matrix(), r.matrix())
    np.testing.assert_array_equal(cleanlab.gold.codes, base.gold.codes)
    for m in ("hard", "soft"):
        np.testing.assert_array_equal(cleanlab.predictions[m].values, files.predictions[m].values)


def test_rte_wide_frame_indexed_by_item(rte: dict) -> None:
    r = rte["base"].ratings
    wide = pd.DataFrame(
        np.where(r.matrix() >= 0, r.matrix(), np.nan), index=r.items, columns=list(r.raters)
    )
    s = read_study(wide, gold=pd.Series(rte["base"].gold.codes, index=r.items), wide=True)
    assert list(s.ratings.items) == list(r.items)
    np.testing.assert_array_equal(s.ratings.counts, r.counts)
    np.testing.assert_array_equal(s.gold.codes, rte["base"].gold.codes)


# ------------------------------------------------------------------------- counts files
def test_wiki_attack_prob_column_of_the_ratings_file(shared_data: Path) -> None:
    path = shared_data / "wiki_attack_se" / "wiki_attack_labels_and_predictor.csv"
    s = read_study(
        path,
        item_col="rev_id",
        counts=Counts("attack=n_labelled_attack", total="n_labels", rest_class="none"),
        prob_col="predictor_prob",
    )
    raw = pd.read_csv(path)
    assert s.ratings.classes == ("none", "attack") and s.ratings.n_items == 23178
    assert s.predictions is not None and s.predictions.names == ("predictor_prob",)
    by_id = raw.set_index("rev_id")["predictor_prob"]  # the study holds items sorted by id
    by_text = by_id.set_axis(by_id.index.astype(str))
    np.testing.assert_allclose(
        s.predictions["predictor_prob"].values[:, 1], by_text[s.ratings.items]
    )
    counts = np.column_stack([raw["n_labels"] - raw["n_labelled_attack"], raw["n_labelled_attack"]])
    ratings = Ratings.from_counts(counts, items=raw["rev_id"], classes=["none", "attack"])
    from_arrays = read_study(ratings, {"predictor_prob": by_id})
    assert_same(s, from_arrays)
    frame = read_study(
        raw.iloc[::-1],
        item_col="rev_id",
        counts=Counts({"attack": "n_labelled_attack"}, total="n_labels", rest_class="none"),
        prob_col="predictor_prob",
    )
    assert_same(s, frame)


def test_credbank_score_column(shared_data: Path) -> None:
    path = shared_data / "credbank_se" / "credweb.csv"
    s = read_study(
        path,
        item_col="event",
        counts="credCount*_ret",
        options=ReadOptions(score_col="cscw_predictor"),
    )
    assert s.ratings.classes == (-2, -1, 0, 1, 2)
    assert s.predictions["cscw_predictor"].kind == "score"
    raw = pd.read_csv(path)
    p = Predictions.from_arrays(
        raw["event"],
        {"cscw_predictor": raw["cscw_predictor"]},
        classes=s.ratings.classes,
        kind="score",
    )
    assert_same(s, read_study(path, p, item_col="event", counts="credCount*_ret"))


# ------------------------------------------------------------------------- option semantics
WIDE = pd.DataFrame(
    {
        "item": ["x", "y", "z"],
        "r1": ["a", "b", None],
        "r2": ["a", "a", "b"],
        "gold": ["a", "b", "b"],
        "p": [0.1, 0.8, 0.7],
    }
)


def test_named_columns_are_not_raters(tmp_path: Path) -> None:
    path = write_table(WIDE, tmp_path / "w.csv")
    s = read_study(path, wide=True, gold_col="gold", prob_col="p")
    assert list(s.ratings.raters) == ["r1", "r2"]
    assert s.gold.codes.tolist() == [0, 1, 1]
    assert s.predictions.proba("p")[:, 1].tolist() == [0.1, 0.8, 0.7]
    assert list(read_study(path, wide=True).ratings.raters) == [
        "gold",
        "p",
        "r1",
        "r2",
    ]  # sorted by id


def test_item_col_applies_to_files_that_have_it(tmp_path: Path) -> None:
    ratings = write_table(
        WIDE.rename(columns={"item": "doc"}).drop(columns=["p"]), tmp_path / "r.csv"
    )
    preds = write_table(
        pd.DataFrame({"item": ["z", "y", "x"], "prediction": ["b", "b", "a"]}), tmp_path / "p.csv"
    )
    gold = write_table(pd.DataFrame({"doc": ["y"], "label": ["b"]}), tmp_path / "g.csv")
    s = read_study(
        ratings, preds, gold, item_col="doc", wide=True, rater_col=None, gold_col="label"
    )
    assert list(s.ratings.raters) == ["gold", "r1", "r2"]  # sorted by id
    assert s.predictions.hard(s.predictions.names[0]).tolist() == [0, 1, 1]
    assert s.gold.codes.tolist() == [-1, 1, -1]


def test_gold_any_subset_and_missing_rule() -> None:
    long = pd.DataFrame(
        {"item": ["a", "a", "b", "b", "c"], "rater": list("uvuvu"), "label": list("xyxxy")}
    )
    s = read_study(long, gold=pd.Series(["y"], index=["c"]))
    assert s.gold.codes.tolist() == [-1, -1, 1]
    extra = pd.Series(["y", "x"], index=["c", "zz"])
    with pytest.raises(
        InputError,
        match=r"1 gold label\(s\) are for items with no ratings \(first: 'zz'\).*missing='drop'",
    ):
        read_study(long, gold=extra)
    assert read_study(long, gold=extra, missing="drop").gold.codes.tolist() == [-1, -1, 1]
    preds = {"m": pd.Series(["x", "y"], index=["a", "c"])}
    with pytest.raises(InputError, match=r"1 rated item\(s\) have no prediction \(first: 'b'\)"):
        read_study(long, preds, extra)
    s = read_study(long, preds, extra, missing="drop")
    assert list(s.ratings.items) == ["a", "c"] and s.gold.codes.tolist() == [-1, 1]


def test_bad_arguments_name_python_parameters(tmp_path: Path) -> None:
    path = write_table(WIDE, tmp_path / "w.csv")
    with pytest.raises(TypeError, match=r"^ratings=None"):
        read_study(None)
    with pytest.raises(TypeError, match=r"ratings=array of shape \(2, 2\).*wide=True.*from_counts"):
        read_study(np.zeros((2, 2)))
    with pytest.raises(TypeError, match=r"read_ratings\(array of shape \(2, 2\)\).*wide=True"):
        humanly.data.read_ratings(np.zeros((2, 2)))
    r = humanly.data.read_ratings(path, wide=True, rater_cols=["r1", "r2"])
    with pytest.raises(InputError, match=r"^prob_col= names a column of the ratings file"):
        read_study(r, prob_col="p")
    with pytest.raises(InputError, match=r"^wide=: options for reading ratings"):
        read_study(r, wide=True)
    with pytest.raises(InputError, match=r"prob_col=: name columns of a predictions file"):
        read_study(r, {"m": np.zeros(3)}, prob_col="p")
    with pytest.raises(InputError, match=r"missing='never'"):
        read_study(r, missing="never")  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"no column 'nope' for the item.*check item_col="):
        read_study(path, wide=True, item_col="nope")


def test_the_loader_takes_eleven_keywords_and_an_options_object() -> None:
    import inspect

    params = inspect.signature(read_study).parameters
    keywords = [p for p in params.values() if p.kind is p.KEYWORD_ONLY]
    assert [p.name for p in keywords] == [
        "item_col", "rater_col", "label_col", "wide", "counts", "classes", "prediction_col",
        "prob_col", "gold_col", "judge", "missing", "options",
    ]  # fmt: skip
    frame = pd.DataFrame({"item": [1, 1, 2], "rater": ["a", "b", "a"], "label": [0, 1, 1]})
    for old in ("total_col", "rest_class", "duplicates", "stream", "score_col", "model_col",
                "positive"):  # fmt: skip
        with pytest.raises(TypeError):
            read_study(frame, **{old: None})
    with pytest.raises(TypeError, match=r"^options=dict: give a humanly.data.ReadOptions"):
        read_study(frame, options={"stream": True})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ReadOptions(streams=True)  # type: ignore[call-arg]  # a misspelt knob


def test_a_study_is_returned_as_given() -> None:
    frame = pd.DataFrame({"item": [1, 1, 2], "rater": ["a", "b", "a"], "label": [0, 1, 1]})
    s = read_study(frame, gold=pd.Series([1], index=[2]))
    assert read_study(s) is s
    with pytest.raises(InputError, match="carries its predictions and gold"):
        read_study(s, gold=pd.Series([1], index=[2]))


def test_model_column_and_positive_through_read_options(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {"item": ["a", "a", "b"], "rater": ["u", "v", "u"], "label": ["n", "y", "y"]}
    )
    preds = pd.DataFrame(
        {"item": ["a", "b", "a", "b"], "who": ["m1", "m1", "m2", "m2"], "p": [0.2, 0.9, 0.6, 0.3]}
    )
    path = write_table(preds, tmp_path / "p.csv")
    s = read_study(frame, path, prob_col="p", options=ReadOptions(model_col="who", positive="n"))
    assert s.predictions is not None and s.predictions.names == ("m1", "m2")
    assert s.predictions.proba("m1")[:, 0].tolist() == [0.2, 0.9]  # P(n), the positive class


def test_exported() -> None:
    assert humanly.read_study is humanly.data.read_study and humanly.Study is humanly.data.Study
