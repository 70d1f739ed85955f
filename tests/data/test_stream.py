"""Streaming Parquet datasets to per-item counts: identical to the in-memory reader's counts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from humanly import read_ratings
from humanly.data.errors import InputError
from humanly.data.stream import read_counts_stream


def _long(n_items: int, k: int, classes, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    items = np.repeat(np.arange(n_items), k)
    frame = pd.DataFrame(
        {
            "item": np.char.add("i", items.astype(str)),
            "rater": np.tile(np.arange(k), n_items).astype(str),
            "label": rng.choice(np.asarray(classes, dtype=object), len(items)),
        }
    )
    return frame.sample(frac=1, random_state=seed).reset_index(drop=True)  # items spread out


def _by_item(r) -> pd.DataFrame:
    return pd.DataFrame(r.counts, index=r.items.astype(str), columns=r.classes).sort_index()


@pytest.mark.parametrize("classes", [["a", "b", "c"], [0, 1]])
@pytest.mark.parametrize("batch_rows", [97, 10_000])
def test_stream_equals_full_read(tmp_path, classes, batch_rows):
    frame = _long(300, 5, classes, seed=len(classes) + batch_rows)
    folder = tmp_path / "ds"
    folder.mkdir()
    for k, part in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[part].to_parquet(folder / f"part{k}.parquet", index=False)
    streamed = read_counts_stream(folder, batch_rows=batch_rows)
    full = read_ratings(frame)
    assert streamed.classes == full.classes
    assert not streamed.has_raters
    pd.testing.assert_frame_equal(_by_item(streamed), _by_item(full))


def test_stream_via_cli_inspect(cli, tmp_path):
    frame = _long(200, 4, ["x", "y"], seed=1)
    path = tmp_path / "r.parquet"
    frame.to_parquet(path, index=False)
    streamed = cli("inspect", path, "--stream", "--json").json()
    full = cli("inspect", path, "--json").json()
    assert streamed["n_items"] == full["n_items"] == 200
    assert streamed["n_raters"] is None
    assert streamed["agreement"] == full["agreement"]


def test_stream_errors(tmp_path, cli):
    frame = _long(20, 3, ["a", "b"], seed=2)
    path = tmp_path / "r.parquet"
    frame.to_parquet(path, index=False)
    with pytest.raises(InputError, match="not one of the declared classes"):
        read_counts_stream(path, classes=["a", "c"])
    csv = tmp_path / "r.csv"
    frame.to_csv(csv, index=False)
    res = cli("inspect", csv, "--stream")
    assert res.exit_code == 2 and "Parquet" in res.stderr
    res = cli("inspect", tmp_path / "nope", "--stream")
    assert res.exit_code == 2 and "no such file" in res.stderr
