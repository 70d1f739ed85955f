"""Row order never matters: permuting the rows of any input file or frame (long, wide or counts
ratings; predictions; gold; all of them at once through read_study) gives the same data after aligning
by item id."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from study_frames import canon

import humanly
from humanly.data import write_table

CLASSES = ("neg", "pos")


@st.composite
def datasets(draw: Any) -> dict[str, Any]:
    """A small crowd: items × raters labels (some missing), two models, gold on a subset."""
    n_items = draw(st.integers(2, 7))
    n_raters = draw(st.integers(2, 4))
    cells = draw(
        st.lists(
            st.lists(st.sampled_from([None, "neg", "pos"]), min_size=n_raters, max_size=n_raters),
            min_size=n_items,
            max_size=n_items,
        )
    )
    cells[0][0], cells[-1][-1] = "neg", "pos"  # both classes occur
    items = [f"i{k:02d}" for k in draw(st.permutations(range(n_items)))]  # ids not in sorted order
    hard = draw(st.lists(st.sampled_from(CLASSES), min_size=n_items, max_size=n_items))
    prob = draw(
        st.lists(
            st.floats(0, 1, allow_nan=False).map(lambda x: round(x, 3)),
            min_size=n_items,
            max_size=n_items,
        )
    )
    has_gold = draw(st.lists(st.booleans(), min_size=n_items, max_size=n_items))
    has_gold[0] = True
    gold = draw(st.lists(st.sampled_from(CLASSES), min_size=n_items, max_size=n_items))
    raters = [f"w{j}" for j in range(n_raters)]
    long = pd.DataFrame(
        [
            (items[i], raters[j], cells[i][j])
            for i in range(n_items)
            for j in range(n_raters)
            if cells[i][j]
        ],
        columns=["item", "rater", "label"],
    )
    wide = pd.DataFrame(cells, columns=raters).assign(item=items)
    counts = pd.DataFrame(
        {
            "item": items,
            "n_neg": [sum(c == "neg" for c in row) for row in cells],
            "n_pos": [sum(c == "pos" for c in row) for row in cells],
        }
    )
    preds = pd.DataFrame(
        {
            "item": items * 2,
            "model": ["hard"] * n_items + ["soft"] * n_items,
            "prediction": hard + [None] * n_items,
            "prob_neg": [np.nan] * n_items + [1 - p for p in prob],
            "prob_pos": [np.nan] * n_items + prob,
        }
    )
    gold_rows = pd.DataFrame(
        {
            "item": [items[i] for i in range(n_items) if has_gold[i]],
            "gold": [gold[i] for i in range(n_items) if has_gold[i]],
        }
    )
    gold_rows = pd.concat(
        [gold_rows, gold_rows.iloc[:1]], ignore_index=True
    )  # a repeated row agrees
    return {
        "long": long,
        "wide": wide,
        "counts": counts,
        "preds": preds,
        "gold": gold_rows,
        "prob": prob,
        "items": items,
    }


def _perm(data: Any, n: int) -> list[int]:
    return data.draw(st.permutations(range(n)))


def _by_item(r: humanly.Ratings) -> pd.DataFrame:
    return pd.DataFrame(
        r.counts, index=[str(i) for i in r.items], columns=list(r.classes)
    ).sort_index()


SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(datasets(), st.data())
def test_long_wide_counts_rows_in_any_order(d: dict[str, Any], data: Any) -> None:
    for layout, options in (
        ("long", {}),
        ("wide", {"wide": True}),
        ("counts", {"counts": "n_"}),
    ):
        frame = d[layout]
        base = humanly.data.read_ratings(frame, classes=CLASSES, **options)
        other = humanly.data.read_ratings(
            frame.iloc[_perm(data, len(frame))], classes=CLASSES, **options
        )
        pd.testing.assert_frame_equal(_by_item(base), _by_item(other))
        assert base.classes == other.classes
    a = humanly.data.read_ratings(d["long"], classes=CLASSES)
    b = humanly.data.read_ratings(d["wide"], classes=CLASSES, wide=True)
    c = humanly.data.read_ratings(d["counts"], counts="neg=n_neg,pos=n_pos")
    pd.testing.assert_frame_equal(_by_item(a).reindex(_by_item(b).index, fill_value=0), _by_item(b))
    pd.testing.assert_frame_equal(_by_item(b), _by_item(c))


@SETTINGS
@given(datasets(), st.data())
def test_predictions_and_gold_rows_in_any_order(d: dict[str, Any], data: Any) -> None:
    def preds_by_item(p: humanly.Predictions) -> dict[str, list[Any]]:
        order = np.argsort([str(i) for i in p.items])
        return {m.name: m.values[order].tolist() for m in p.models}

    base = humanly.data.read_predictions(d["preds"], classes=CLASSES)
    other = humanly.data.read_predictions(
        d["preds"].iloc[_perm(data, len(d["preds"]))], classes=CLASSES
    )
    assert preds_by_item(base) == preds_by_item(other)
    g1 = humanly.data.read_gold(d["gold"], classes=CLASSES)
    g2 = humanly.data.read_gold(d["gold"].iloc[_perm(data, len(d["gold"]))], classes=CLASSES)
    assert dict(zip(map(str, g1.items), g1.codes.tolist(), strict=True)) == dict(
        zip(map(str, g2.items), g2.codes.tolist(), strict=True)
    )
    # in-memory forms: a Series of probabilities and a per-class DataFrame, by item id
    prob = pd.Series(d["prob"], index=d["items"])
    frame = pd.DataFrame({"pos": prob, "neg": 1 - prob})
    r = humanly.data.read_ratings(d["wide"], classes=CLASSES, wide=True)
    order = _perm(data, len(prob))
    s1 = humanly.data.join(r, {"s": prob, "f": frame})
    s2 = humanly.data.join(r, {"s": prob.iloc[order], "f": frame.iloc[order[::-1]]})
    pd.testing.assert_frame_equal(canon(s1), canon(s2))


@settings(max_examples=15, deadline=None)
@given(datasets(), st.data(), st.sampled_from(["long", "wide", "counts"]))
def test_read_study_files_in_any_order(d: dict[str, Any], data: Any, layout: str) -> None:
    options: dict[str, Any] = {
        "long": {},
        "wide": {"wide": True},
        "counts": {"counts": "neg=n_neg,pos=n_pos"},
    }[layout]
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for k, frame in enumerate((d[layout], d["preds"], d["gold"])):
            order = _perm(data, len(frame))
            base_path = write_table(frame, Path(folder) / f"{k}.csv")
            perm_path = write_table(frame.iloc[order], Path(folder) / f"{k}.perm.csv")
            paths.append((base_path, perm_path))
        # long: an item whose raters all abstained has a prediction but no ratings -> drop it
        kw = {"classes": CLASSES, "gold_col": "gold", "missing": "drop", **options}
        base = humanly.read_study(*(p[0] for p in paths), **kw)
        other = humanly.read_study(*(p[1] for p in paths), **kw)
    pd.testing.assert_frame_equal(canon(base), canon(other))
    assert base.predictions is not None and set(base.predictions.names) == {"hard", "soft"}
