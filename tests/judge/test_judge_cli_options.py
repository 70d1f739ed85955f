"""``humanly judge``'s issue-32 flags: several ``--judge`` files, ``--strata``, ``--weights``,
``--fitted-on-labels --folds``, ``--interval``, ``--rating-scale`` with ``--threshold`` and
``--quantile``: each gives what the Python verb gives on the same data (``--json`` equals
``humanly.judge(...).to_dict()``), the tables and sentences show, and bad input is one sentence on
stderr, exit status 2 and nothing on stdout. Simulated data only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly.data import ReadOptions, read_rating_study, read_study
from humanly.judging import JudgeOptions

N, LABELLED = 1500, 300


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("judge-options")
    rng = np.random.default_rng(0)
    ids = [f"i{k:04d}" for k in range(N)]
    truth = rng.integers(0, 2, N)
    topic = rng.choice(["x", "y"], N)
    a = np.where(rng.random(N) < 0.9, truth, 1 - truth)
    b = np.where(rng.random(N) < 0.7, truth, 1 - truth)
    out = {k: d / f"{k}.csv" for k in ("ratings", "preds", "j1", "j2", "self", "hr", "jr")}
    pd.DataFrame({"item": ids[:LABELLED], "rater": "r1", "label": truth[:LABELLED]}).to_csv(
        out["ratings"], index=False
    )
    pd.DataFrame(
        {
            "item": ids * 2,
            "model": ["A"] * N + ["B"] * N,
            "prediction": np.concatenate([a, b]),
            "topic": np.concatenate([topic, topic]),
            "w": np.tile(np.where(np.arange(N) < LABELLED, 2.0, 8.0), 2),
        }
    ).to_csv(out["preds"], index=False)
    for name, acc in (("j1", 0.9), ("j2", 0.8)):
        j = np.where(rng.random(N) < acc, truth, 1 - truth)
        pd.DataFrame({"item": ids, "prediction": j}).to_csv(out[name], index=False)
    pd.DataFrame({"item": ids, "prediction": a}).to_csv(out["self"], index=False)
    levels = np.arange(1, 6)
    pd.DataFrame(
        {
            "item": np.repeat(ids[:LABELLED], 2),
            "model": ["A", "B"] * LABELLED,
            "rating": rng.choice(levels, 2 * LABELLED),
        }
    ).to_csv(out["hr"], index=False)
    pd.DataFrame(
        {
            "item": np.repeat(ids, 2),
            "model": ["A", "B"] * N,
            "rating": rng.choice(levels, 2 * N),
            "topic": np.repeat(topic, 2),
        }
    ).to_csv(out["jr"], index=False)
    return out


def _base(f: dict[str, Path]) -> list[object]:
    return [f["ratings"], "--predictions", f["preds"]]


def _study(f: dict[str, Path], judge, **read) -> object:
    return read_study(f["ratings"], f["preds"], judge=judge, options=ReadOptions(**read))


def _same(res, expected) -> None:
    assert res.exit_code == 0, res.stderr
    assert res.json()["judge"] == expected.to_dict()


def test_several_judges_and_strata_equal_the_verb(cli, files) -> None:
    res = cli("judge", *_base(files), "--judge", files["j1"], "--judge", f"small={files['j2']}",
              "--strata", "topic", "--json")  # fmt: skip
    study = _study(files, {"j1": files["j1"], "small": files["j2"]}, strata="topic")
    _same(res, humanly.judge(study))
    got = res.json()["judge"]
    assert got["judges"] == ["j1", "small"] and got["design"] == "stratified"
    accuracy = got["models"][0]["accuracy"]
    assert [s["stratum"] for s in accuracy["strata"]] == ["x", "y"]
    assert [j["judge"] for j in accuracy["judges"]] == ["j1", "small"]
    text = cli("judge", *_base(files), "--judge", files["j1"], "--judge", f"small={files['j2']}",
               "--strata", "topic")  # fmt: skip
    assert text.exit_code == 0, text.stderr
    assert "Strata: each stratum's own estimate" in text.stdout
    assert "Judges: each judge's weight" in text.stdout
    assert "A stratum has " in " ".join(text.stdout.split())


def test_weights_equal_the_verb_and_say_so(cli, files) -> None:
    res = cli("judge", *_base(files), "--judge", files["j1"], "--weights", "w", "--json")
    _same(res, humanly.judge(_study(files, files["j1"], sampling_weights="w")))
    assert res.json()["judge"]["codes"][0] == "weighted_design"
    text = cli("judge", *_base(files), "--judge", files["j1"], "--weights", "w")
    assert "weighted by its sampling weight 1/π" in " ".join(text.stdout.split())


def test_fitted_on_labels_with_folds(cli, files) -> None:
    args = ["--judge", files["j1"], "--fitted-on-labels", "--folds", "4", "--seed", "2"]
    res = cli("judge", *_base(files), *args, "--json")
    opts = JudgeOptions(fitted_on_labels=True, folds=4)
    _same(res, humanly.judge(_study(files, files["j1"]), seed=2, options=opts))
    assert res.json()["judge"]["folds"] == 4 and "crossfit" in res.json()["judge"]["codes"]
    text = cli("judge", *_base(files), *args)
    assert "cross-fitted on 4 folds" in " ".join(text.stdout.split())


@pytest.mark.parametrize("interval", ["clt", "auto", "adjusted"])
def test_interval(cli, files, interval) -> None:
    res = cli("judge", *_base(files), "--judge", files["j1"], "--interval", interval, "--json")
    expected = humanly.judge(_study(files, files["j1"]), options=JudgeOptions(interval=interval))
    _same(res, expected)
    methods = {m["accuracy"]["interval_method"] for m in res.json()["judge"]["models"]}
    assert methods == {"clt" if interval == "clt" else "adjusted"}


def test_self_judge_is_said(cli, files) -> None:
    res = cli("judge", *_base(files), "--judge", files["self"])
    assert res.exit_code == 0, res.stderr
    assert "The judge's outputs are a model's on every item" in " ".join(res.stdout.split())


def test_ratings_with_threshold_and_quantile(cli, files) -> None:
    args = ["judge", files["hr"], "--judge", files["jr"], "--rating-scale", "1,5"]
    res = cli(*args, "--threshold", "4", "--quantile", "0.5", "--json")
    study = read_rating_study(files["hr"], {"judge": files["jr"]}, scale=(1, 5))
    opts = JudgeOptions(threshold=4, quantile=0.5, scale=(1, 5))
    _same(res, humanly.judge(study, options=opts))
    text = cli(*args, "--threshold", "4", "--strata", "topic")
    assert text.exit_code == 0, text.stderr
    flat = " ".join(text.stdout.split())
    assert "A's mean rating is " in flat and "rated 4 or more" in flat and "Strata:" in flat


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--interval", "wide"], "--interval wide: give clt, auto or adjusted"),
        (["--folds", "3"], "--folds 3: folds are for --fitted-on-labels"),
        (["--fitted-on-labels", "--folds", "1"], "--folds 1: give at least 2 folds"),
        (["--threshold", "4"], "--threshold 4: it is for ratings"),
        (["--quantile", "0.5"], "--quantile 0.5: it is for ratings"),
        (["--rating-scale", "5,1"], "--rating-scale 5,1: give the scale's ends"),
        (["--rating-scale", "low,high"], "--rating-scale low,high"),
        (["--strata", "nope"], "--strata nope: no column 'nope'"),
        (["--weights", "prediction"], "--weights prediction:"),
        (["--weights", "topic"], "--weights topic:"),
        (["--probabilities", "p.csv", "--weights", "w"], "give one of them"),
        (["--judge", "other=nowhere.csv"], "--judge nowhere.csv: no such file"),
        (["--judge", "j1=nowhere.csv"], "two judges are named 'j1'"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(cli, files, extra, message) -> None:
    res = cli("judge", *_base(files), "--judge", files["j1"], *extra)
    assert res.exit_code == 2, res.stdout
    assert message in res.stderr, res.stderr
    assert res.stdout == "" and len(res.stderr.strip().splitlines()) == 1


def test_quantile_with_strata_or_two_judges_is_refused(cli, files) -> None:
    base = ["judge", files["hr"], "--judge", files["jr"], "--rating-scale", "1,5"]
    res = cli(*base, "--quantile", "0.5", "--strata", "topic")
    assert res.exit_code == 2 and "--quantile 0.5 with --strata" in res.stderr
    res = cli(*base, "--judge", f"b={files['jr']}", "--quantile", "0.5")
    assert res.exit_code == 2 and "with a second --judge" in res.stderr


def test_two_judges_of_one_name_are_refused(cli, files) -> None:
    res = cli("judge", *_base(files), "--judge", f"x={files['j1']}", "--judge", f"x={files['j2']}")
    assert res.exit_code == 2 and "two judges are named 'x'" in res.stderr
