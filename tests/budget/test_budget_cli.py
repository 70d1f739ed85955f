"""``humanly budget ...``: the issue's interface, JSON keys, figures and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

FIG1 = ["--p", "0.75", "--eps", "0.1", "--q", "0.75"]
FIG2 = ["--p", "0.8", "--eps", "0.01", "--q", "0.8"]


def test_win_json_keys(cli) -> None:
    r = cli(
        "budget", "win", *FIG2, "--budget", "1500", "--labels-per-item", "1", "3", "5", "--json"
    )
    assert r.exit_code == 0, r.stderr
    out = r.json()
    assert [row["labels_per_item"] for row in out["rows"]] == [1, 3, 5]
    for row in out["rows"]:
        for key in ("labels_per_item", "n", "budget", "label_accuracy", "exact", "win_hoeffding_bound",
                    "win_cramer_bound"):  # fmt: skip
            assert key in row
        assert 0 <= row["win_hoeffding_bound"] <= row["win_cramer_bound"] <= row["exact"] <= 1
    assert out["best_labels_per_item"] == 1
    assert out["rows"][1]["n"] == 500 and out["rows"][1]["label_accuracy"] == pytest.approx(0.896)


def test_win_correlated_and_simulate(cli) -> None:
    args = ["--q-b", "0.8", "--q-w", "0.7", "--p-w", "0.6", "--p-b0", "0.7", "--p-b1", "0.9"]
    r = cli(
        "budget",
        "win",
        *args,
        "--budget",
        "300",
        "--labels-per-item",
        "1,3",
        "--simulations",
        "400",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    rows = r.json()["rows"]
    for row in rows:
        assert abs(row["monte_carlo"] - row["exact"]) < 5 * row["monte_carlo_se"] + 1e-3


def test_size_json(cli) -> None:
    r = cli("budget", "size", *FIG2, "--level", "0.95", "--labels-per-item", "1", "3", "--json")
    assert r.exit_code == 0, r.stderr
    rows = r.json()["rows"]
    assert [row["labels_per_item"] for row in rows] == [1, 3]
    for row in rows:
        assert row["budget_exact"] <= row["budget_cramer_bound"] <= row["budget_hoeffding_bound"]
    assert rows[0]["budget_exact"] < rows[1]["budget_exact"]
    assert r.json()["level"] == 0.95 and "delta" not in r.json()
    gone = cli("budget", "size", *FIG2, "--delta", "0.05")  # the retired flag
    assert gone.exit_code == 2 and "--delta" in gone.stderr


@pytest.mark.parametrize(
    ("command", "extra"),
    [
        ("win", FIG2),
        ("size", FIG2),
        ("rates", FIG2),
        ("multiclass", ["--n-classes", "3", "--q", "0.7", "--p", "0.7", "--eps", "0.1"]),
    ],
)
def test_tables_show_each_number_of_labels_per_item(cli, command: str, extra: list[str]) -> None:
    """The console tables read each row's ``labels_per_item``: the first column holds 1 and 3 (not
    "—", the mark of a value the row does not have)."""
    r = cli("budget", command, *extra, "--labels-per-item", "1", "3")
    assert r.exit_code == 0, r.stderr
    first = [line.split("│")[1].strip() for line in r.stdout.splitlines() if line.startswith("│")]
    assert first[:1] == ["1"] and "3" in first and "—" not in first, r.stdout


def test_capacity_fig1(cli) -> None:
    r = cli(
        "budget",
        "capacity",
        *FIG1,
        "--level",
        "0.95",
        "--budget",
        "1500",
        "--labels-per-item",
        "1",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    row = r.json()["rows"][0]
    assert round(row["ratio_cramer_bound"], 1) == 16.8
    assert round(row["ratio_hoeffding_bound"], 2) == 0.33
    assert row["ratio_exact"] > 17


def test_human_output(cli) -> None:
    r = cli("budget", "win", *FIG2, "--labels-per-item", "1", "3")
    assert r.exit_code == 0
    assert "best m: 1" in r.stdout


@pytest.mark.parametrize(("cmd", "ext"), [("win", "png"), ("size", "svg"), ("capacity", "png")])
def test_plots(cli, tmp_path: Path, cmd: str, ext: str) -> None:
    out = tmp_path / f"fig.{ext}"
    extra = ["--budget", "300"] if cmd != "size" else ["--level", "0.8"]
    r = cli("budget", cmd, *FIG1, *extra, "--labels-per-item", "1", "3", "--plot", out)
    assert r.exit_code == 0, r.stderr
    assert out.stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--p", "0.8", "--eps", "0.3", "--q", "0.8"], "eps ∈ (0, 0.2]"),
        (["--p", "0.8", "--eps", "0.1"], "also needs q"),
        (
            ["--q-b", "0.8", "--q-w", "0.7", "--p-w", "0.6", "--p-b0", "0.5", "--p-b1", "0.5"],
            "must exceed p_w",
        ),
        ([*FIG2, "--labels-per-item", "x"], "--labels-per-item 'x'"),
        ([*FIG2, "--ties", "coin"], "--ties"),
        ([*FIG2, "--budget", "2", "--labels-per-item", "3"], "smaller than --labels-per-item 3"),
        ([*FIG2, "--plot", "fig.gif"], "--plot"),
    ],
)
def test_errors_one_line(cli, args: list[str], fragment: str) -> None:
    r = cli("budget", "win", *args)
    assert r.exit_code == 2
    assert r.stderr.startswith("humanly: error:") and fragment in r.stderr
    assert r.stderr.count("\n") == 1 and r.stdout == ""


def test_sweep_cli_resume(cli, tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["budget", "sweep", "--grid-points", "3", "--n-items", "1", "2", "5"]
    args += ["--labels-per-item", "3", "--out", out]
    r = cli(*args, "--chunks", "0-3", "--json")
    assert r.exit_code == 0, r.stderr
    part = r.json()
    assert part["chunks_done"] == 4 and part["chunks_total"] == 9 and not part["complete"]
    r = cli(*args, "--json")
    full = r.json()
    assert full["complete"] and full["chunks_done"] == 9
    assert full["violations"] == 0
    assert len(list(out.glob("chunk-*.npz"))) == 9
    r = cli("budget", "sweep", "--grid-points", "4", "--out", out)
    assert r.exit_code == 2 and "other settings" in r.stderr


def test_sweep_cli_without_numba_says_so_and_agrees(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled kernel the sweep falls back to outcomes, says so on stderr (stdout stays
    pure JSON), and totals the same counts."""
    from humanly.budget import _kernel

    args = ["budget", "sweep", "--grid-points", "3", "--n-items", "1", "4", "101"]
    args += ["--labels-per-item", "3", "11", "--json"]
    fast = cli(*args)
    assert fast.exit_code == 0, fast.stderr
    monkeypatch.setattr(_kernel, "AVAILABLE", False)
    slow = cli(*args)
    assert slow.exit_code == 0, slow.stderr
    assert "numba is not installed" in slow.stderr and "humanly[fast]" in slow.stderr
    a, b = fast.json(), slow.json()
    for key in ("configurations", "violations", "qw_gt_qb_pairs", "qw_gt_qb_single_wins"):
        assert a[key] == b[key], key
    for ra, rb in zip(a["cells"], b["cells"], strict=True):
        assert ra["qw_gt_qb_single_wins"] == rb["qw_gt_qb_single_wins"]
        assert ra["max_violation"] == pytest.approx(rb["max_violation"], rel=1e-11, abs=1e-300)


def test_plan_cli(cli, tmp_path: Path) -> None:
    from humanly.simulate import pair

    data = pair(600, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=3)
    written = data.write(tmp_path / "pilot.csv")
    r = cli(
        "budget",
        "plan",
        written["ratings"],
        "--predictions",
        written["predictions"],
        "--level",
        "0.95",
        "--bootstrap",
        "100",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    plan = r.json()
    assert (
        plan["level"] == 0.95
        and plan["budget"] == 3000
        and plan["comparison"]["best_labels_per_item"] == 1
    )
    out = plan["pilot"]
    assert (
        out["better"] == "better"
        and out["recommended_labels_per_item"] == 1
        and out["level"] == 0.95
    )
    assert out["assumptions"]["assumption1"] is True
    for k, (lo, hi) in out["intervals"].items():
        assert (lo <= out["estimates"][k] + 1e-9 and out["estimates"][k] <= hi + 1e-9) or k


def test_plan_cli_with_fewer_models_says_what_it_can(cli, tmp_path: Path) -> None:
    """Without predictions (or with one model) ``budget plan`` no longer refuses: it prints the
    comparison at the crowd's label accuracy and says why there is no pilot plan."""
    from humanly.simulate import pair

    data = pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=3)
    written = data.write(tmp_path / "pilot.csv")
    r = cli("budget", "plan", written["ratings"])
    assert r.exit_code == 0, r.stderr
    assert "label accuracy q̂ = " in r.stdout and "the paper's Fig. 2 value" in r.stdout
    assert (
        "no pilot plan: the pilot plan needs the predictions of two models (given: 0)" in r.stdout
    )
    assert r.stdout.strip().splitlines()[-1].startswith("With 900 labels and the crowd's label")
    d = cli("budget", "plan", written["ratings"], "--json").json()
    assert d["pilot"] is None and d["pilot_skipped"]["reason"] == "no_predictions"
    one = tmp_path / "one.csv"
    preds = __import__("pandas").read_csv(written["predictions"])
    preds[preds["model"] == "better"].to_csv(one, index=False)
    r = cli("budget", "plan", written["ratings"], "--predictions", one, "--json")
    assert r.exit_code == 0, r.stderr
    d = r.json()
    assert d["pilot_skipped"]["reason"] == "one_model"
    assert d["better_accuracy_source"] == "best_model_agreement"


def test_open_n_classes_and_no_old_classes_flag(cli) -> None:
    base = ["budget", "open", "--p", "0.7", "--eps", "0.1", "--q", "0.7", "--simulations", "50"]
    new = cli(*base, "--n-classes", "3", "--json")
    old = cli(*base, "--classes", "3", "--json")  # the retired spelling is gone
    assert new.exit_code == 0, new.stderr
    assert old.exit_code == 2 and "--classes" in old.stderr
    assert new.json()["params"]["n_classes"] == 3
    shown = cli("budget", "open", "--help")
    assert "--n-classes" in shown.stdout and "--classes " not in shown.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["win", *FIG2, "--budget", "0"], "--budget 0"),
        (["size", *FIG2, "--level", "1.5"], "--level 1.5"),
        (["capacity", *FIG2, "--level", "1"], "--level 1"),
        (["win", *FIG2, "--simulations", "-1"], "--simulations -1"),
        (["open", *FIG2, "--adaptive", "--simulations", "0"], "--simulations 0"),
    ],
)
def test_library_checks_reach_the_command_line_as_flags(
    cli, args: list[str], fragment: str
) -> None:
    r = cli("budget", *args)
    assert r.exit_code == 2, r.stdout
    assert fragment in r.stderr and r.stderr.count("\n") == 1
