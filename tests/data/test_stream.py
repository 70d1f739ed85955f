"""Streaming Parquet datasets to per-item counts: identical to the in-memory reader's counts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from humanly.data import read_ratings
from humanly.data.stream import read_counts_stream
from humanly.errors import InputError


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


def test_stream_via_cli_certify_and_equivalence(cli, tmp_path):
    """`--stream` on certify and equivalence gives the numbers of the in-memory counts analysis."""
    frame = _long(300, 5, ["a", "b"], seed=3)
    folder = tmp_path / "ds"
    folder.mkdir()
    for k, part in enumerate(np.array_split(np.arange(len(frame)), 2)):
        frame.iloc[part].to_parquet(folder / f"part{k}.parquet", index=False)
    counts = _by_item(read_ratings(frame)).rename_axis("item").reset_index()
    counts_path = tmp_path / "counts.csv"
    counts.to_csv(counts_path, index=False)
    rng = np.random.default_rng(0)
    preds = tmp_path / "preds.csv"
    pd.DataFrame({"item": counts["item"], "prob": rng.uniform(size=len(counts))}).to_csv(
        preds, index=False
    )
    for cmd, extra in (("certify", ()), ("equivalence", ("--bootstrap", "100", "--seed", "4"))):
        streamed = cli(cmd, folder, "--stream", "--predictions", preds, *extra, "--json").json()
        full = cli(
            cmd, counts_path, "--counts", "a,b", "--predictions", preds, *extra, "--json"
        ).json()
        # items arrive in another order, so sums may differ in the last bit
        a, b = _flat(streamed), _flat(full)
        assert a.keys() == b.keys(), cmd
        for key, value in a.items():
            if key.endswith((".low", ".high")) or "_range" in key:
                continue  # bootstrap ranges resample item positions, and the item order differs
            if isinstance(value, float):
                assert value == pytest.approx(b[key], rel=1e-12, abs=1e-15), (cmd, key)
            else:
                assert value == b[key], (cmd, key)


def _flat(obj, prefix: str = "") -> dict:
    if isinstance(obj, dict):
        return {k: v for key, val in obj.items() for k, v in _flat(val, f"{prefix}.{key}").items()}
    if isinstance(obj, list):
        return {k: v for i, val in enumerate(obj) for k, v in _flat(val, f"{prefix}[{i}]").items()}
    return {prefix: obj}
