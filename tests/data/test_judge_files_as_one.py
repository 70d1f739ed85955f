"""Judge files of class probabilities over the predictions' items, in their order, reach the join as
one Predictions (not copied and checked again): the study is the one the same judges give as tables
by item id — names, kinds, values (their layout too), source and items — and any other case still
goes through the tables (shuffled rows, a label judge, a missing item's message)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from humanly.data import read_study
from humanly.data.options import ReadOptions
from humanly.errors import InputError


def _files(tmp_path, shuffle: bool = False, short: bool = False):
    rng = np.random.default_rng(11)
    n = 400
    items = np.arange(n) * 3
    truth = rng.integers(0, 3, n)
    pd.DataFrame({"item": items[:60], "rater": "r", "label": truth[:60]}).to_parquet(
        tmp_path / "ratings.parquet"
    )
    pd.DataFrame(
        {"item": np.tile(items, 2), "model": np.repeat(["a", "b"], n),
         "prediction": rng.integers(0, 3, 2 * n), "stratum": np.tile(items % 4, 2)}
    ).to_parquet(tmp_path / "predictions.parquet")  # fmt: skip
    judges, tables = {}, {}
    for name in ("j0", "j1", "j2"):
        proba = rng.dirichlet(np.ones(3), n)
        frame = pd.DataFrame({"item": items, **{f"prob_{c}": proba[:, c] for c in range(3)}})
        if shuffle and name == "j1":
            frame = frame.sample(frac=1, random_state=2)
        if short and name == "j2":
            frame = frame.iloc[:-1]
        frame.to_parquet(tmp_path / f"{name}.parquet")
        judges[name] = tmp_path / f"{name}.parquet"
        tables[name] = frame.set_index("item").rename(columns=lambda c: int(c[5:]))
    return judges, tables


def _study(tmp_path, judge):
    return read_study(
        tmp_path / "ratings.parquet",
        tmp_path / "predictions.parquet",
        judge=judge,
        options=ReadOptions(strata="stratum"),
    )


@pytest.mark.parametrize("shuffle", [False, True])
def test_judge_files_give_the_tables_study(tmp_path, shuffle):
    files, tables = _files(tmp_path, shuffle=shuffle)
    got, want = _study(tmp_path, files).judge, _study(tmp_path, tables).judge
    assert got is not None and want is not None
    assert got.source == want.source == "judge"
    assert got.classes == want.classes
    assert got.items.equals(want.items)
    for g, w in zip(got.models, want.models, strict=True):
        assert (g.name, g.kind) == (w.name, w.kind)
        assert g.values.dtype == w.values.dtype
        assert g.values.flags["F_CONTIGUOUS"] == w.values.flags["F_CONTIGUOUS"]
        assert np.array_equal(g.values, w.values)


def test_a_judge_missing_an_item_is_still_named(tmp_path):
    files, _ = _files(tmp_path, short=True)
    with pytest.raises(InputError, match=r"judge\['j2'\]: 1 of 400 items"):
        _study(tmp_path, files)
