"""``humanly equivalence`` end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from humanly.datasets import wiki_attack_path
from humanly.simulate import running_example


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = running_example(200, 6, seed=1)
    return d.write(tmp_path_factory.mktemp("se") / "ex.csv")


def test_json_keys_and_plot(cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plot = tmp_path / "curve.png"
    r = cli(
        "equivalence",
        files["ratings"],
        "--predictions",
        files["predictions"],
        "--combiner",
        "abc",
        "--scorer",
        "cross_entropy",
        "--bootstrap",
        "20",
        "--seed",
        "3",
        "--plot",
        plot,
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    out = r.json()
    assert (
        out["combiner"] == "abc" and out["scorer"] == "cross_entropy" and out["method"] == "exact"
    )
    assert out["n_items"] == 200 and out["bootstrap"] == 20
    assert [p["k"] for p in out["power_curve"]] == [0, 1, 2, 3, 4, 5]
    assert {m["model"] for m in out["models"]} == {"hard", "soft"}
    for m in out["models"]:
        assert set(m) >= {
            "model",
            "score",
            "low",
            "high",
            "equivalence",
            "equivalence_note",
            "equivalence_low",
            "equivalence_high",
        }
    assert plot.stat().st_size > 1000
    again = cli(
        "equivalence",
        files["ratings"],
        "--predictions",
        files["predictions"],
        "--bootstrap",
        "20",
        "--seed",
        "3",
        "--json",
    )
    assert again.json()["models"] == out["models"]


def test_table_output_and_sampled(cli, files: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    r = cli(
        "equivalence",
        files["ratings"],
        "--predictions",
        files["predictions"],
        "--combiner",
        "majority",
        "--scorer",
        "f1",
        "--bootstrap",
        "3",
        "--draws",
        "10",
    )
    assert r.exit_code == 0, r.stderr
    assert "majority + f1" in r.stdout and "sampled" in r.stdout


def test_wiki_counts_with_calibration(cli) -> None:  # type: ignore[no-untyped-def]
    path = wiki_attack_path()
    r = cli(
        "equivalence",
        path,
        "--predictions",
        path,
        "--item-col",
        "rev_id",
        "--counts",
        "attack=n_labelled_attack",
        "--total",
        "n_labels",
        "--rest-class",
        "none",
        "--prob-col",
        "predictor_prob",
        "--calibrate",
        "isotonic",
        "--bootstrap",
        "0",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    out = r.json()
    assert out["calibration"] == "isotonic (in-sample)"
    assert out["information"][0] == 0.0
    assert 2.6 < out["models"][0]["equivalence"] < 3.7


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--combiner", "median"], "combiner 'median'"),
        (["--scorer", "auc", "--method", "exact"], "--method sampled"),
        (["--calibrate", "platt"], "calibrate 'platt'"),
        (["--reference-size", "0"], "reference"),
        (["--plot", "curve.gif"], "--plot"),
        (["--workers", "2", "--scheduler", "tcp://x:1"], "--workers"),
    ],
)
def test_errors_are_one_line(cli, files: dict[str, Path], args: list[str], needle: str) -> None:  # type: ignore[no-untyped-def]
    r = cli(
        "equivalence",
        files["ratings"],
        "--predictions",
        files["predictions"],
        "--bootstrap",
        "0",
        *args,
    )
    assert r.exit_code == 2
    assert r.stderr.startswith("humanly: error:")
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""
