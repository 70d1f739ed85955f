"""``humanly judge`` and ``humanly judge select``: the happy paths (sentences, --json, planning, the
select → label → estimate loop) and bad input (one sentence on stderr, exit 2, no traceback, no
output)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly.judging import JudgeResult, judge

N, LABELLED = 2000, 300


def _frames(seed: int = 0, n: int = N, labelled: int = LABELLED):
    rng = np.random.default_rng(seed)
    ids = [f"i{k}" for k in range(n)]
    truth = rng.integers(0, 2, n)
    ratings = pd.DataFrame({"item": ids[:labelled], "rater": "r1", "label": truth[:labelled]})
    a = np.where(rng.random(n) < 0.9, truth, 1 - truth)
    b = np.where(rng.random(n) < 0.7, truth, 1 - truth)
    preds = pd.DataFrame(
        {"item": ids * 2, "model": ["A"] * n + ["B"] * n, "prediction": np.concatenate([a, b])}
    )
    p1 = np.clip(truth * 0.8 + 0.1 + rng.normal(0, 0.15, n), 0.01, 0.99)
    llm = pd.DataFrame({"item": ids, "prob_0": 1 - p1, "prob_1": p1})
    return ratings, preds, llm, truth


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    ratings, preds, llm, _ = _frames()
    out = {"ratings": tmp_path / "ratings.csv", "preds": tmp_path / "preds.csv",
           "judge": tmp_path / "judge.csv"}  # fmt: skip
    ratings.to_csv(out["ratings"], index=False)
    preds.to_csv(out["preds"], index=False)
    llm.to_csv(out["judge"], index=False)
    return out


def _args(f: dict[str, Path]) -> list[object]:
    return [f["ratings"], "--predictions", f["preds"], "--judge", f["judge"]]


def test_judge_prints_the_verdicts(cli, files) -> None:
    res = cli("judge", *_args(files))
    assert res.exit_code == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert (
        "A is more accurate than B by " in text
        and "from 300 human labels and 2,000 judge labels." in text
    )
    # 300 labels: by default each accuracy's interval is the human labels' small-sample one (PPI's
    # needs 500, docs/judge.md), and the sentence says so; --interval clt gives PPI's
    assert "A's accuracy is " in text and "the small-sample interval of the human labels" in text
    assert "the plain human-only interval is [" in text
    assert "Dorner, Nastl & Hardt" in text and "measured saving: " in text
    clt = " ".join(cli("judge", *_args(files), "--interval", "clt").stdout.split())
    assert "A's accuracy is " in clt and "human labels alone give [" in clt
    assert "few_labels" not in clt and "its interval may cover less often than 95%" in clt


def test_judge_json_is_the_typed_result(cli, files) -> None:
    res = cli("judge", *_args(files), "--json", "--estimator", "ppi", "--level", "0.9")
    assert res.exit_code == 0, res.stderr
    data = res.json()
    assert set(data) == {"judge", "plan"} and data["plan"] is None
    result = JudgeResult.from_dict(data["judge"])
    assert result.estimator == "ppi" and result.level == 0.9 and result.n_labelled == LABELLED
    assert result.to_dict() == data["judge"]
    ratings, preds, llm, _ = _frames()
    by_model = {m: g.set_index("item")["prediction"] for m, g in preds.groupby("model")}
    direct = judge(
        ratings,
        by_model,
        judge=llm.set_index("item").set_axis([0, 1], axis=1),
        estimator="ppi",
        level=0.9,
    )
    assert direct.model("A").accuracy.point == pytest.approx(
        result.model("A").accuracy.point, abs=1e-12
    )


def test_judge_plans_with_costs(cli, files) -> None:
    args = [*_args(files), "--cost-human", "1", "--cost-judge", "0.01"]
    res = cli("judge", *args, "--max-cost", "500")
    assert res.exit_code == 0, res.stderr
    assert "for a cost of at most 500, send " in " ".join(res.stdout.split())
    data = cli("judge", *args, "--target-width", "0.05", "--json").json()
    assert data["plan"]["target_width"] == 0.05 and len(data["plan"]["estimands"]) == 3


def test_select_then_estimate_with_the_probabilities(cli, files, tmp_path: Path) -> None:
    out = tmp_path / "next.csv"
    res = cli("judge", "select", *_args(files), "--expected-items", "150", "-o", out, "--seed", "3")
    assert res.exit_code == 0, res.stderr
    sel = pd.read_csv(out)
    assert list(sel.columns) == ["item", "probability", "selected"] and len(sel) == N - LABELLED
    assert sel["probability"].sum() == pytest.approx(150)
    # the raters label the selected items; the estimate is inverse-probability weighted
    ratings, _, _, truth = _frames()
    chosen = sel.loc[sel["selected"], "item"].tolist()
    more = pd.concat([ratings, pd.DataFrame({"item": chosen, "rater": "r1",
                      "label": [truth[int(i[1:])] for i in chosen]})])  # fmt: skip
    more.to_csv(files["ratings"], index=False)
    res = cli("judge", *_args(files), "--probabilities", out, "--json")
    assert res.exit_code == 0, res.stderr
    assert res.json()["judge"]["design"] == "active"
    again = cli("judge", "select", *_args(files), "--expected-items", "150", "-o", out)
    assert again.exit_code == 2 and "exists" in again.stderr  # checked before any work


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--cost-human", "1", "--max-cost", "10"], "planning needs both costs"),
        (
            ["--cost-human", "0", "--cost-judge", "1", "--max-cost", "10"],
            "--cost-human 0: give a cost above 0",
        ),
        (["--cost-human", "1", "--cost-judge", "0.1"], "give one of --max-cost and --target-width"),
        (
            ["--cost-human", "1", "--cost-judge", "0.1", "--max-cost", "1"],
            "buys fewer than 2 human labels",
        ),
        (["--level", "1.5"], "--level 1.5"),
        (["--estimator", "bayes"], "--estimator"),
        (["--probabilities", "nope.csv"], "--probabilities nope.csv: no such file"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(cli, files, extra, message) -> None:
    res = cli("judge", *_args(files), *extra)
    assert res.exit_code == 2
    assert message in res.stderr and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_bad_files_are_one_sentence(cli, files, tmp_path: Path) -> None:
    res = cli(
        "judge", files["ratings"], "--predictions", files["preds"], "--judge", tmp_path / "x.csv"
    )
    assert res.exit_code == 2 and "--judge" in res.stderr and "no such file" in res.stderr
    # the judge's classes are not the raters'
    pd.DataFrame({"item": [f"i{k}" for k in range(N)], "prediction": "maybe"}).to_csv(
        tmp_path / "odd.csv", index=False
    )
    res = cli(
        "judge", files["ratings"], "--predictions", files["preds"], "--judge", tmp_path / "odd.csv"
    )
    assert res.exit_code == 2 and "'maybe'" in res.stderr and "classes (0, 1)" in res.stderr
    assert res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1
    # the judge misses items
    pd.read_csv(files["judge"]).iloc[:-5].to_csv(tmp_path / "short.csv", index=False)
    res = cli(
        "judge",
        files["ratings"],
        "--predictions",
        files["preds"],
        "--judge",
        tmp_path / "short.csv",
    )
    assert res.exit_code == 2 and "--missing drop" in res.stderr, res.stderr
    res = cli("judge", "select", *_args(files), "--expected-items", "10", "-o", tmp_path / "m.csv",
              "--mixing", "2")  # fmt: skip
    assert res.exit_code == 2 and "--mixing 2: give a share" in res.stderr
    assert not (tmp_path / "m.csv").exists()
    out = tmp_path / "sub" / "x.csv"
    res = cli("judge", "select", *_args(files), "--expected-items", "10", "-o", out)
    assert res.exit_code == 2 and "does not exist; create it first" in res.stderr


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_row_order_does_not_change_a_number(seed: int) -> None:
    ratings, preds, llm, _ = _frames(n=600, labelled=120)
    rng = np.random.default_rng(seed)

    def run(r: pd.DataFrame, p: pd.DataFrame, j: pd.DataFrame) -> dict:
        models = {m: g.set_index("item")["prediction"] for m, g in p.groupby("model")}
        return judge(r, models, judge=j.set_index("item").set_axis([0, 1], axis=1)).to_dict()

    def shuffled(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.iloc[rng.permutation(len(frame))]

    assert run(shuffled(ratings), shuffled(preds), shuffled(llm)) == run(ratings, preds, llm)
