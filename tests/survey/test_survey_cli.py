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
        "100",
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
    assert out["n_items"] == 200 and out["bootstrap"] == 100 and out["level"] == 0.95
    assert [p["k"] for p in out["power_curve"]] == [0, 1, 2, 3, 4, 5]
    assert {m["model"] for m in out["models"]} == {"hard", "soft"}
    for m in out["models"]:
        assert set(m) >= {
            "model",
            "score",
            "score_interval",
            "equivalence",
            "equivalence_note",
            "equivalence_interval",
        }
        assert not {"low", "high", "equivalence_low", "equivalence_high", "items_needed"} & set(m)
    assert "target_width" not in out and "items_needed" not in out
    assert plot.stat().st_size > 1000
    again = cli(
        "equivalence",
        files["ratings"],
        "--predictions",
        files["predictions"],
        "--bootstrap",
        "100",
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
        "100",
        "--draws",
        "10",
    )
    assert r.exit_code == 0, r.stderr
    assert "majority + f1" in r.stdout and "sampled" in r.stdout


def test_model_names_printed_as_given(cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Terminal output treats user strings as text: a model named like rich markup neither crashes the
    table (an unmatched closing tag raised MarkupError) nor restyles it."""
    import pandas as pd

    preds = pd.read_csv(files["predictions"])
    preds["model"] = "[/b]" + preds["model"].astype(str)
    hostile = tmp_path / "hostile.csv"
    preds.to_csv(hostile, index=False)
    for command in (["equivalence", "--bootstrap", "100"], ["inspect"], ["certify"]):
        r = cli(command[0], files["ratings"], "--predictions", hostile, *command[1:])
        assert r.exit_code == 0, (command, r.stderr)
        assert "[/b]" in r.stdout, command


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
        (["--combiner", "median"], "--combiner median"),
        (["--scorer", "auc", "--method", "exact"], "--method sampled"),
        (["--calibrate", "platt"], "--calibrate platt"),
        (["--calibration-folds", "1"], "--calibration-folds 1"),
        (["--draws", "0"], "--draws 0"),
        (["--max-k", "0"], "--max-k 0"),
        (["--bootstrap", "-1"], "--bootstrap -1"),
        (["--positive", "X"], "--positive X"),
        (["--reference-size", "0"], "reference"),
        (["--plot", "curve.gif"], "--plot"),
        (["--workers", "2", "--scheduler", "tcp://x:1"], "--workers"),
        (["--level", "1.5"], "--level 1.5"),
        (["--target-width", "0.5"], "--target-width 0.5 is read off the bootstrap ranges"),
        (["--target-width", "-1"], "--target-width -1"),
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


def test_plot_power_curve_figure(tmp_path: Path) -> None:
    from humanly.plots.equivalence import plot_power_curve
    from humanly.plots.style import save_figure, to_svg
    from humanly.survey import equivalence

    d = running_example(150, 5, seed=2)
    for comb, sc in (("abc", "cross_entropy"), ("majority", "agreement")):
        res = equivalence(d.ratings, d.predictions, combiner=comb, scorer=sc, bootstrap=100)
        fig = plot_power_curve(res)
        ax = fig.axes[0]
        assert ax.get_xlabel() == "number of raters k"
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any("soft" in t for t in labels) and any("hard" in t for t in labels)
        assert "<svg" in to_svg(fig)
    out = save_figure(plot_power_curve(res), tmp_path / "f.svg")
    assert out.stat().st_size > 1000


def test_headroom_flag(cli, files: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    r = cli(
        "equivalence",
        files["ratings"],
        "--predictions",
        files["predictions"],
        "--bootstrap",
        "0",
        "--headroom",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    out = r.json()
    assert out["headroom"]["information"] > 0
    assert all(m["performance_ratio"] is not None for m in out["models"])
    bad = cli(
        "equivalence", files["ratings"], "--scorer", "agreement", "--headroom", "--bootstrap", "0"
    )
    assert bad.exit_code == 2 and "headroom" in bad.stderr


def test_amateurs_option(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import numpy as np
    import pandas as pd

    g = np.random.default_rng(0)
    n = 300
    s = g.random(n) < 0.5

    def counts(k: int, p1: float, p0: float) -> pd.DataFrame:
        pos = g.binomial(k, np.where(s, p1, p0))
        return pd.DataFrame({"item": np.arange(n), "pos": pos, "n": k})

    counts(6, 0.9, 0.1).to_csv(tmp_path / "experts.csv", index=False)
    counts(8, 0.7, 0.35).to_csv(tmp_path / "amateurs.csv", index=False)
    args = ["--counts", "pos=pos", "--total", "n", "--rest-class", "neg", "--bootstrap", "100"]
    r = cli(
        "equivalence",
        tmp_path / "experts.csv",
        "--amateurs",
        tmp_path / "amateurs.csv",
        *args,
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    out = r.json()
    worth = out["amateurs"]["worth"]
    assert [w["amateurs"] for w in worth] == list(range(len(worth)))
    assert out["amateurs"]["expert_curve"][0]["k"] == 0
    table = cli(
        "equivalence", tmp_path / "experts.csv", "--amateurs", tmp_path / "amateurs.csv", *args
    )
    assert table.exit_code == 0 and "amateurs are worth" in table.stdout
