"""Regressions of issue 13: extra predictions at the end of a file with ``--missing drop`` crashed with
``operands could not be broadcast (200,) (201,)`` in inspect, report and budget plan; certify dropped
gold for unknown items that inspect and report rejected."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import simulate
from humanly.data import Gold, InputError


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("extra")
    oracle = simulate.oracle(200, [0.8, 0.75, 0.7], models={"a": 0.85, "b": 0.75}, seed=1)
    oracle.write(d / "o.csv")
    preds = pd.read_csv(d / "o.predictions.csv")
    extra = preds[preds["item"] == preds["item"].iloc[0]].assign(item="zzz")
    pd.concat([preds, extra]).to_csv(
        d / "extra.predictions.csv", index=False
    )  # one item at the end
    gold = pd.read_csv(d / "o.gold.csv")
    pd.concat([gold, gold.iloc[:1].assign(item="zzz")]).to_csv(d / "extra.gold.csv", index=False)
    return {
        "ratings": d / "o.csv",
        "preds": d / "o.predictions.csv",
        "extra": d / "extra.predictions.csv",
        "gold": d / "o.gold.csv",
        "extra_gold": d / "extra.gold.csv",
        "dir": d,
    }


def test_align_drops_extra_trailing_predictions(files: dict[str, Path]) -> None:
    r = humanly.data.read_ratings(files["ratings"])
    p = humanly.data.read_predictions(files["extra"], classes=r.classes)
    assert p.n_items == 201
    r2, p2 = humanly.data.align(r, p, missing="drop")
    assert r2.n_items == p2.n_items == 200 and list(p2.items) == list(r.items)
    with pytest.raises(InputError, match=r"1 prediction\(s\) are for items with no ratings"):
        humanly.data.align(r, p)
    s = humanly.read_study(files["ratings"], files["extra"], missing="drop")
    assert s.predictions is not None and s.predictions.n_items == 200


@pytest.mark.parametrize(
    "command",
    [
        ["inspect"],
        ["report", "-o", "{dir}/r.html", "--force", "--bootstrap", "0"],
        ["budget", "plan", "--bootstrap", "100"],
    ],
    ids=["inspect", "report", "budget-plan"],
)
def test_missing_drop_with_extra_predictions(
    cli, files: dict[str, Path], command: list[str]
) -> None:
    args = [a.format(dir=files["dir"]) for a in command]
    base = [*args, files["ratings"], "--predictions", files["extra"], "--json"]
    res = cli(*base, "--missing", "drop")
    assert res.exit_code == 0, res.stderr
    out = res.json()
    if command[0] == "inspect":
        assert out["n_items"] == 200 and [m["n_items"] for m in out["models"]] == [200, 200]
    if command[0] == "budget":
        assert out["pilot"]["n_items"] == 200
    refused = cli(*base)
    assert refused.exit_code == 2
    assert "1 prediction(s) are for items with no ratings (first: 'zzz')" in refused.stderr
    assert "--missing drop" in refused.stderr


@pytest.mark.parametrize("command", ["inspect", "certify", "report"])
def test_gold_for_unknown_items_one_rule(cli, files: dict[str, Path], command: str) -> None:
    """Every command rejects gold for items with no ratings unless --missing drop, which drops it."""
    extra = ["-o", files["dir"] / f"{command}.html", "--force", "--bootstrap", "0"]
    args = [command, *(extra if command == "report" else []), files["ratings"]]
    args += ["--predictions", files["preds"], "--gold", files["extra_gold"], "--json"]
    refused = cli(*args)
    assert refused.exit_code == 2
    assert "1 gold label(s) are for items with no ratings (first: 'zzz')" in refused.stderr
    res = cli(*args, "--missing", "drop")
    assert res.exit_code == 0, res.stderr
    if command == "inspect":
        assert res.json()["gold"]["n_items"] == 200


def test_gold_rule_in_python(files: dict[str, Path]) -> None:
    r = humanly.data.read_ratings(files["ratings"])
    g = humanly.data.read_gold(files["extra_gold"], classes=r.classes)
    with pytest.raises(InputError, match=r"1 gold label\(s\) are for items with no ratings"):
        humanly.inspect(r, gold=g)
    assert humanly.inspect(r, gold=g, missing="drop").gold.n_items == 200
    assert (humanly.data.join(r, gold=g, missing="drop").gold.codes >= 0).all()
    subset = humanly.data.read_gold(files["gold"], classes=r.classes)
    subset = Gold(subset.items[:10], subset.classes, subset.codes[:10])
    assert humanly.inspect(r, gold=subset).gold.n_items == 10  # any subset of the rated items


def test_gold_classes_matched_by_name() -> None:
    """A Gold read without the ratings' classes (here: only 'pos' occurs) keeps its labels."""
    r = humanly.Ratings.from_counts([[2, 1], [0, 3]], items=["a", "b"], classes=["neg", "pos"])
    g = humanly.data.read_gold(pd.DataFrame({"item": ["b"], "label": ["pos"]}))
    assert g.classes == ("pos",)
    assert humanly.data.join(r, gold=g).gold.codes.tolist() == [-1, 1]
    with pytest.raises(InputError, match="'maybe' is not among the ratings' classes"):
        humanly.data.join(r, gold=Gold(pd.Index(["a"]), ("maybe",), np.array([0])))


def test_one_probability_per_item_from_arrays() -> None:
    """A 1-D vector of probabilities is the positive class's probability, not hard labels."""
    p = humanly.Predictions.from_arrays(["a", "b"], {"m": np.array([0.25, 0.5])}, classes=[0, 1])
    assert p["m"].kind == "proba"
    np.testing.assert_allclose(p["m"].values, [[0.75, 0.25], [0.5, 0.5]])
    with pytest.raises(InputError, match=r'kind="score"') as err:
        humanly.Predictions.from_arrays(["a", "b"], {"m": np.array([0.25, 3.0])}, classes=[0, 1])
    assert "--" not in str(err.value)
    with pytest.raises(InputError, match=r"classes=") as err:
        humanly.Predictions.from_arrays(["a"], {"m": ["maybe"]}, classes=["no", "yes"])
    assert "--classes" not in str(err.value)
    s = humanly.Predictions.from_arrays(
        ["a", "b"], {"m": [0.25, 3.0]}, classes=[0, 1], kind="score"
    )
    assert s["m"].kind == "score"
