"""humanly.data.join: ratings, predictions and gold as users hold them, always joined by item id."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import humanly
from humanly import Ratings
from humanly.data import Gold, Predictions, join


def _ratings(n: int = 6) -> Ratings:
    rng = np.random.default_rng(n)
    counts = rng.integers(0, 4, size=(n, 2))
    counts[:, 0] += 1
    return Ratings.from_counts(counts, items=[f"i{k}" for k in range(n)], classes=["neg", "pos"])


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(6))), st.lists(st.floats(0, 1), min_size=6, max_size=6))
def test_series_in_any_order_give_the_same_predictions(
    order: list[int], probs: list[float]
) -> None:
    r = _ratings()
    s = pd.Series(probs, index=r.items)
    base = join(r, {"m": s}).predictions
    shuffled = join(r, {"m": s.iloc[order]}).predictions
    assert base is not None and shuffled is not None
    np.testing.assert_array_equal(base.proba("m"), shuffled.proba("m"))
    np.testing.assert_array_equal(
        base.proba("m"), join(r, {"m": np.array(probs)}).predictions.proba("m")
    )  # type: ignore[union-attr]


def test_forms_agree_labels_frames_predictions() -> None:
    r = _ratings()
    labels = pd.Series(["pos", "neg", "pos", "pos", "neg", "neg"], index=r.items)
    frame = pd.DataFrame({"pos": (labels == "pos") * 1.0, "neg": (labels == "neg") * 1.0})
    a = join(r, {"m": labels.iloc[::-1]}).predictions
    b = join(r, {"m": frame.iloc[::-1]}).predictions
    c = join(
        r,
        Predictions.from_arrays(
            list(r.items)[::-1], {"m": labels.to_numpy()[::-1]}, classes=r.classes
        ),
    ).predictions
    assert a is not None and b is not None and c is not None
    assert a["m"].kind == "label" and b["m"].kind == "proba"
    np.testing.assert_array_equal(a.hard("m"), b.hard("m"))
    np.testing.assert_array_equal(a.hard("m"), c.hard("m"))


def test_missing_items_error_or_drop() -> None:
    r = _ratings()
    s = pd.Series([0.2, 0.7, 0.9], index=["i5", "i0", "zz"])
    with pytest.raises(
        ValueError,
        match=r"4 rated item\(s\) have no prediction.*1 prediction\(s\) are for items with no ratings"
        r".*missing='drop'",
    ):
        join(r, {"m": s})
    st_ = join(r, {"m": s}, missing="drop")
    assert list(st_.ratings.items) == ["i0", "i5"]
    assert st_.predictions is not None
    np.testing.assert_allclose(st_.predictions.proba("m")[:, 1], [0.7, 0.2])


def test_gold_series_subset_and_array() -> None:
    r = _ratings()
    g = join(r, gold=pd.Series(["pos", "neg"], index=["i3", "i1"])).gold
    assert isinstance(g, Gold)
    assert g.codes.tolist() == [-1, 0, -1, 1, -1, -1]
    with pytest.raises(ValueError, match=r"gold label\(s\) are for items with no ratings"):
        join(r, gold=pd.Series(["pos"], index=["nope"]))
    arr = join(r, gold=np.array(["neg"] * 6)).gold
    assert arr is not None and (arr.codes == 0).all()


def test_bad_arguments_name_the_parameter() -> None:
    r = _ratings()
    with pytest.raises(TypeError, match=r"^ratings=None"):
        join(None)
    with pytest.raises(TypeError, match=r"^ratings=array of shape \(6, 2\)"):
        join(r.counts)
    with pytest.raises(ValueError, match=r"follow the ratings' 6 items.*has 5 entries"):
        join(r, np.zeros(5))
    with pytest.raises(ValueError, match=r"missing='sometimes'"):
        join(r, missing="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="neither a class"):
        join(r, {"m": np.array([3.0, 4, 5, 6, 7, 8])})


def test_join_reads_paths_with_the_ratings_classes(tmp_path) -> None:
    r = _ratings()
    pd.DataFrame({"item": ["i5", "i0"], "prob": [0.9, 0.1]}).to_csv(tmp_path / "p.csv", index=False)
    pd.DataFrame({"item": ["i2"], "gold": ["pos"]}).to_csv(tmp_path / "g.csv", index=False)
    s = join(r, tmp_path / "p.csv", str(tmp_path / "g.csv"), missing="drop")
    assert list(s.ratings.items) == ["i0", "i5"]
    assert s.predictions is not None and s.predictions.hard("p").tolist() == [0, 1]
    assert s.gold is not None and s.gold.codes.tolist() == [
        -1,
        -1,
    ]  # i2 was dropped with its ratings


def test_wide_arrays_and_frames() -> None:
    labels = np.array([[1.0, np.nan, 0.0], [2.0, 2.0, np.nan]])
    a = Ratings.from_wide(labels)
    b = humanly.data.read_ratings(labels, wide=True)
    c = humanly.data.read_ratings(pd.DataFrame(labels, index=["x", "y"]), wide=True)
    assert a.classes == b.classes == c.classes == (0, 1, 2)  # integral floats are integer labels
    assert list(a.items) == [0, 1] and list(a.raters) == [0, 1, 2]
    assert list(c.items) == ["x", "y"] and list(c.raters) == ["0", "1", "2"]  # column names as text
    np.testing.assert_array_equal(a.matrix(), [[1, -1, 0], [2, 2, -1]])
    np.testing.assert_array_equal(a.counts, c.counts)
    with pytest.raises(ValueError, match="every rater cell is blank"):
        humanly.data.read_ratings(np.full((2, 2), np.nan), wide=True)
    with pytest.raises(TypeError, match=r"frame=None"):
        Ratings.from_wide(None)


def test_join_takes_a_study_as_it_is() -> None:
    r = _ratings()
    s = join(r, gold=pd.Series(["pos"], index=["i1"]))
    assert join(s) is s
    with pytest.raises(humanly.InputError, match="carries its predictions and gold"):
        join(s, gold=pd.Series(["pos"], index=["i1"]))
