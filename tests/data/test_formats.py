"""Files as public data sets ship them (issue 25, item 6): each fixture gives the same Ratings as the
equivalent long CSV; gold and predictions with their own item column; two models as two columns;
``missing="drop"`` says how many rows of each input it dropped."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly.data import ReadOptions, read_ratings

LONG = pd.DataFrame(
    {
        "item": ["u1", "u1", "u1", "u2", "u2", "u3", "u3", "u3", "u3"],
        "rater": ["a", "b", "c", "a", "c", "a", "b", "c", "d"],
        "label": ["e", "n", "n", "c", "c", "e", "e", "n", "c"],
    }
)


def _by_item(r: humanly.Ratings) -> pd.DataFrame:
    frame = pd.DataFrame(r.counts, index=[str(i) for i in r.items], columns=list(r.classes))
    return frame.sort_index()


def _long(tmp_path: Path) -> humanly.Ratings:
    LONG.to_csv(tmp_path / "long.csv", index=False)
    return read_ratings(tmp_path / "long.csv")


def _counters() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for item, label in zip(LONG["item"], LONG["label"], strict=True):
        out.setdefault(item, {})
        out[item][label] = out[item].get(label, 0) + 1
    return out


def test_jsonl_with_a_count_dictionary_per_item(tmp_path: Path) -> None:
    """ChaosNLI: {"uid": ..., "label_counter": {"e": 30, "n": 70}, ...} per line."""
    path = tmp_path / "chaos.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for uid, counter in _counters().items():
            fh.write(json.dumps({"uid": uid, "label_counter": counter, "majority": "x"}) + "\n")
    expected = _by_item(_long(tmp_path))
    named = read_ratings(path, item_col="uid", options=ReadOptions(counts_col="label_counter"))
    detected = read_ratings(path, item_col="uid")
    for r in (named, detected):
        assert not r.has_raters
        pd.testing.assert_frame_equal(_by_item(r), expected)
    # the CLI: --counts-col, and detection
    study = humanly.read_study(
        path, item_col="uid", options=ReadOptions(counts_col="label_counter")
    )
    pd.testing.assert_frame_equal(_by_item(study.ratings), expected)


def test_a_json_object_keyed_by_item(tmp_path: Path) -> None:
    """LeWiDi: {"17": {"annotators": "Ann1,Ann2", "annotations": "0,1", "soft_label": {...}}}."""
    objects = {}
    for item, rows in LONG.groupby("item", sort=False):
        objects[item] = {
            "text": f"text of {item}",
            "annotators": ",".join(rows["rater"]),
            "annotations": ",".join(rows["label"]),
            "soft_label": {"e": 0.5},
        }
    path = tmp_path / "lewidi.json"
    path.write_text(json.dumps(objects), encoding="utf-8")
    r = read_ratings(path)
    expected = _long(tmp_path)
    assert r.has_raters
    pd.testing.assert_frame_equal(
        r.to_frame().sort_values(["item", "rater"]).reset_index(drop=True),
        expected.to_frame().sort_values(["item", "rater"]).reset_index(drop=True),
    )
    # without annotators: anonymous counts; annotation lists as JSON arrays
    for v in objects.values():
        del v["annotators"]
        v["annotations"] = v["annotations"].split(",")
    path.write_text(json.dumps(objects), encoding="utf-8")
    anon = read_ratings(path)
    assert not anon.has_raters
    pd.testing.assert_frame_equal(_by_item(anon), _by_item(expected))
    # the count dictionary inside each object
    counters = _counters()
    path.write_text(json.dumps({k: {"counts": counters[k]} for k in counters}), encoding="utf-8")
    pd.testing.assert_frame_equal(_by_item(read_ratings(path)), _by_item(expected))


def test_npy_and_npz_count_matrices(tmp_path: Path) -> None:
    """CIFAR-10H: items × classes counts, items in row order, classes given."""
    expected = _long(tmp_path)
    counts = np.asarray(expected.counts)
    np.save(tmp_path / "c.npy", counts)
    np.savez(tmp_path / "c.npz", counts=counts)
    for name in ("c.npy", "c.npz"):
        r = read_ratings(tmp_path / name, classes=list(expected.classes))
        assert r.items.tolist() == list(range(len(counts)))
        np.testing.assert_array_equal(r.counts, counts)
        assert r.classes == expected.classes
    assert read_ratings(tmp_path / "c.npy").classes == (0, 1, 2)
    np.savez(tmp_path / "two.npz", a=counts, b=counts)
    with pytest.raises(humanly.InputError, match="holds 2 arrays"):
        read_ratings(tmp_path / "two.npz")


def test_gold_and_predictions_with_their_own_item_column(tmp_path: Path) -> None:
    LONG.to_csv(tmp_path / "r.csv", index=False)
    pd.DataFrame({"id": ["u3", "u1"], "gold": ["e", "n"]}).to_csv(tmp_path / "g.csv", index=False)
    pd.DataFrame({"doc": ["u1", "u2", "u3"], "prediction": ["n", "c", "e"]}).to_csv(
        tmp_path / "p.csv", index=False
    )
    opts = ReadOptions(gold_item_col="id", predictions_item_col="doc")
    s = humanly.read_study(
        tmp_path / "r.csv", tmp_path / "p.csv", tmp_path / "g.csv", gold_col="gold", options=opts
    )
    assert s.gold.codes.tolist() == [2, -1, 1]  # classes c, e, n; items u1, u2, u3
    assert s.predictions.hard("p").tolist() == [2, 0, 1]


def test_two_models_as_two_columns(tmp_path: Path) -> None:
    LONG.to_csv(tmp_path / "r.csv", index=False)
    wide = pd.DataFrame(
        {"item": ["u3", "u1", "u2"], "better": ["e", "n", "c"], "worse": list("eec")}
    )
    wide.to_csv(tmp_path / "p.csv", index=False)
    long = wide.melt(id_vars="item", var_name="model", value_name="prediction")
    long.to_csv(tmp_path / "pl.csv", index=False)
    a = humanly.read_study(
        tmp_path / "r.csv", tmp_path / "p.csv", options=ReadOptions(prediction_cols="better,worse")
    )
    b = humanly.read_study(tmp_path / "r.csv", tmp_path / "pl.csv")
    assert a.predictions.names == b.predictions.names == ("better", "worse")
    for name in ("better", "worse"):
        np.testing.assert_array_equal(a.predictions.hard(name), b.predictions.hard(name))


def test_missing_drop_says_what_it_dropped(tmp_path: Path, cli) -> None:
    LONG.to_csv(tmp_path / "r.csv", index=False)
    pd.DataFrame({"item": ["u1", "u3", "x9"], "prediction": ["n", "e", "e"]}).to_csv(
        tmp_path / "p.csv", index=False
    )
    pd.DataFrame({"item": ["u1", "y1", "y2", "y3"], "gold": list("nnnn")}).to_csv(
        tmp_path / "g.csv", index=False
    )
    s = humanly.read_study(
        tmp_path / "r.csv", tmp_path / "p.csv", tmp_path / "g.csv", gold_col="gold", missing="drop"
    )
    assert s.notes == (
        'missing="drop" dropped 1 of 3 rated items (no prediction); 1 of 3 predictions (items '
        "with no ratings); 3 of 4 gold labels",
    )
    assert humanly.read_study(tmp_path / "r.csv").notes == ()
    out = cli(
        "inspect", tmp_path / "r.csv", "--predictions", tmp_path / "p.csv", "--gold",
        tmp_path / "g.csv", "--gold-col", "gold", "--missing", "drop", "--bootstrap", "0",
    )  # fmt: skip
    assert out.exit_code == 0
    assert "dropped 1 of 3 rated items" in " ".join(out.stderr.split())
