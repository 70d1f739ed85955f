"""``humanly certify`` on the command line: summary mode, data mode, gold, plots, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from humanly import simulate
from table4 import SUMMARY_ARGS

RTE = ("--item-col", "orig_id", "--rater-col", "!amt_worker_ids", "--label-col", "response")


def test_summary_mode_reproduces_table4(cli) -> None:
    r = cli(
        *SUMMARY_ARGS,
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    d = r.json()
    assert set(d) >= {"upper_bound", "models"}
    assert set(d["upper_bound"]) >= {"theoretical", "empirical", "n"}
    assert round(d["upper_bound"]["theoretical"], 3) == 0.960
    bert, struct = d["models"]
    assert set(bert) >= {"model", "lower", "n", "margin", "confidence", "superhuman"}
    assert set(bert["confidence"]) >= {"hms", "oms", "t_u", "t_l"}
    assert bert["confidence"]["oms"] < 0 and bert["superhuman"] is False
    assert round(struct["confidence"]["hms"], 4) == 0.4730
    assert round(struct["confidence"]["oms"], 4) == 0.6208


def test_summary_mode_per_model_n_and_ascent(cli) -> None:
    r = cli(
        "certify",
        "summary",
        "--lower",
        "0.899",
        "0.919",
        "--upper",
        "0.879",
        "--n-items",
        "10000",
        "10000",
        "--models",
        "GPT,SemBERT",
        "--oms-steps",
        "100",
        "--oms-lr",
        "1e-4",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    gpt, sem = r.json()["models"]
    assert gpt["model"] == "GPT" and round(gpt["confidence"]["oms"], 4) == 0.9267
    assert round(sem["confidence"]["oms"], 4) == 0.9999
    r2 = cli(
        "certify", "summary", "--lower", "0.85", "--upper", "0.879", "--n-items", "10000", "--json"
    )
    m = r2.json()["models"][0]
    assert m["confidence"]["oms"] is None and m["confidence"]["hms"] is None
    assert m["superhuman"] is False


def test_summary_mode_human_output(cli) -> None:
    r = cli("certify", "summary", "--lower", "0.919", "--upper", "0.879", "--n-items", "10000")
    assert r.exit_code == 0
    assert "0.9997" in r.stdout and "0.999996" in r.stdout and "certified" in r.stdout


@pytest.fixture
def sim_files(tmp_path: Path) -> dict[str, Path]:
    d = simulate.oracle(
        400, [0.8, 0.75, 0.7, 0.85, 0.8], n_classes=3, models={"strong": 0.95, "weak": 0.75}, seed=2
    )
    return d.write(tmp_path / "sim.csv")


def test_data_mode_json_keys_and_plot(cli, sim_files, tmp_path: Path) -> None:
    png = tmp_path / "curve.png"
    args = [
        "certify",
        sim_files["ratings"],
        "--predictions",
        sim_files["predictions"],
        "--gold",
        sim_files["gold"],
        "--curve",
        "--plot",
        png,
        "--json",
    ]
    r = cli(*args)
    assert r.exit_code == 0, r.stderr
    d = r.json()
    assert d["n_items"] == 400
    assert d["raters"] == {"mode": "slots", "labels_per_item": 5}
    assert [m["model"] for m in d["models"]] == ["strong", "weak"]
    assert d["oracle"]["models"]["strong"] > d["models"][0]["lower"]
    assert len(d["curve"]) == 5
    assert png.stat().st_size > 1000
    svg = tmp_path / "conf.svg"
    r2 = cli(
        "certify",
        sim_files["ratings"],
        "--predictions",
        sim_files["predictions"],
        "--rater-mode",
        "named",
        "--bound",
        "bernstein",
        "--plot",
        svg,
        "--json",
    )
    assert r2.exit_code == 0, r2.stderr
    d2 = r2.json()
    assert d2["oracle"] is None and d2["raters"]["mode"] == "named"
    assert len(d2["upper_bound"]["agreement_matrix"]) == 5
    assert svg.read_text().lstrip().startswith("<?xml")


def test_data_mode_human_output(cli, sim_files) -> None:
    r = cli(
        "certify",
        sim_files["ratings"],
        "--predictions",
        sim_files["predictions"],
        "--gold",
        sim_files["gold"],
    )
    assert r.exit_code == 0, r.stderr
    assert "strong" in r.stdout and "assumption" in r.stdout
    assert "FAIL" not in r.stdout and "pass" not in r.stdout


def test_errors_exit_2(cli, sim_files, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"item": range(400), "prediction": 7}).to_csv(bad, index=False)
    r = cli("certify", sim_files["ratings"], "--predictions", bad)
    assert r.exit_code == 2 and "not one of the classes" in r.stderr
    one = tmp_path / "one.csv"
    pd.DataFrame({"item": [1, 2, 3], "rater": ["a", "b", "c"], "label": [0, 1, 0]}).to_csv(
        one, index=False
    )
    r = cli("certify", one)
    assert r.exit_code == 2 and "at most one label" in r.stderr and r.stdout == ""
    dup = tmp_path / "dup.csv"
    pd.DataFrame(
        {"item": [1, 1, 2, 2], "rater": ["a", "a", "b", "b"], "label": [0, 1, 0, 1]}
    ).to_csv(dup, index=False)
    r = cli("certify", dup, "--rater-mode", "named", "--duplicates", "keep")
    assert r.exit_code == 2 and "no two named raters" in r.stderr
    summary = ["certify", "summary", "--lower", "0.9", "--upper", "0.8", "--n-items", "100"]
    r = cli(*summary, "--bound", "exact")  # the other bounds need the data: summary has no --bound
    assert r.exit_code == 2 and "No such option: --bound" in r.stderr
    r = cli(*summary, "--rater-mode", "named")  # and no data-mode flag
    assert r.exit_code == 2 and "No such option: --rater-mode" in r.stderr
    r = cli("certify", "RATINGS.csv", "--lower", "0.9")  # nor the data command a summary flag
    assert r.exit_code == 2 and "No such option: --lower" in r.stderr
    assert "humanly certify --help" in r.stderr
    r = cli(
        "certify", "summary", "--lower", "0.9", "0.8", "--upper", "0.8", "--n-items", "1", "2", "3"
    )
    assert r.exit_code == 2 and "--n-items" in r.stderr
    png = tmp_path / "x.gif"
    r = cli(
        "certify", "summary", "--lower", "0.9", "--upper", "0.8", "--n-items", "100", "--plot", png
    )
    assert r.exit_code == 2 and not png.exists()


def test_snow_rte_with_gold(cli, shared_data: Path, tmp_path: Path) -> None:
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    df = pd.read_csv(path, sep="\t")
    gold = df.groupby("orig_id").gold.first()
    rng = np.random.default_rng(0)
    pred = np.where(rng.random(len(gold)) < 0.05, 1 - gold.to_numpy(), gold.to_numpy())
    pfile = tmp_path / "pred.csv"
    pd.DataFrame({"item": gold.index, "prediction": pred}).to_csv(pfile, index=False)
    r = cli("certify", path, *RTE, "--gold-col", "gold", "--predictions", pfile, "--json")
    assert r.exit_code == 0, r.stderr
    d = r.json()
    assert d["n_items"] == 800 and d["raters"]["labels_per_item"] == 10
    o = d["oracle"]
    # Snow et al.: single label ≈ 0.73 and the majority ≈ 0.90 correct
    assert o["average_rater"] == pytest.approx(0.729, abs=0.002)
    assert o["aggregate_accuracy"] == pytest.approx(0.897, abs=0.002)
    assert all(o["held"].values())
    assert {a["name"] for a in o["assumptions"]} == {
        "theorem1_positive_correlation",
        "theorem3:pred",
    }
    assert d["upper_bound"]["empirical"] >= o["average_rater"]
    human = cli("certify", path, *RTE, "--gold-col", "gold", "--predictions", pfile)
    assert human.exit_code == 0
    assert "validation against gold (800 items)" in human.stdout
    assert "the average rater" in human.stdout and "consistent" in human.stdout


def test_upper_theoretical_switch(cli, sim_files) -> None:
    r = cli(
        "certify",
        "summary",
        "--lower",
        "0.971",
        "--upper",
        "0.939",
        "--upper-kind",
        "theoretical",
        "--labels-per-item",
        "3",
        "--n-items",
        "1821",
        "--json",
    )
    assert r.exit_code == 0, r.stderr
    d = r.json()
    assert d["raters"]["labels_per_item"] == 3
    assert d["upper_bound"]["used"] == "theoretical"
    assert d["upper_bound"]["upper"] == pytest.approx(d["upper_bound"]["theoretical"])
    assert d["models"][0]["margin"] == pytest.approx(0.971 - d["upper_bound"]["theoretical"])
    r2 = cli("certify", sim_files["ratings"], "--upper-kind", "theoretical", "--json")
    assert r2.exit_code == 0, r2.stderr
    ub = r2.json()["upper_bound"]
    assert ub["upper"] == pytest.approx(ub["theoretical"]) and ub["theoretical"] > ub["empirical"]
    assert r2.json()["models"] == []


def test_level_flag_options_and_retired_flags(cli, sim_files) -> None:
    """0.1.0: --level (certified when S OMS ≥ level), the aggregates plurality and dawid_skene; the
    flags the reset retired are refused, and the option flags reach CertifyOptions."""
    data = [
        "certify", sim_files["ratings"], "--predictions", sim_files["predictions"], "--json",
    ]  # fmt: skip
    strict = cli(*data, "--level", "0.999")
    assert strict.exit_code == 0, strict.stderr
    d = strict.json()
    assert d["level"] == 0.999 and d["delta"] == pytest.approx(0.0005, abs=1e-15)
    assert all(m["evidence"]["level"] == 0.999 for m in d["models"])
    assert d["simultaneous"]["level_per_model"] == pytest.approx(1 - 0.001 / 2, abs=1e-15)
    from humanly.certification import CertifyOptions, certify

    s = simulate.oracle(
        400, [0.8, 0.75, 0.7, 0.85, 0.8], n_classes=3, models={"strong": 0.95, "weak": 0.75}, seed=2
    )
    opts = CertifyOptions(delta=0.01, oms_steps=5, oms_lr=1e-3)
    ref = certify(s.ratings, s.predictions, aggregate="dawid_skene", options=opts).to_dict()
    via = cli(*data, "--aggregate", "dawid_skene", "--delta", "0.01", "--oms-steps", "5",
              "--oms-lr", "1e-3")  # fmt: skip
    assert via.exit_code == 0, via.stderr
    got = via.json()
    assert got["aggregate"] == "dawid_skene" and got["models"] == ref["models"]
    for retired, value in (("--alpha", "0.05"), ("--annotators", "3")):
        r = cli(*data, retired, value)
        assert r.exit_code == 2 and retired in r.stderr and r.stdout == ""
    for retired in ("majority", "dawid-skene"):
        r = cli(*data, "--aggregate", retired)
        assert r.exit_code == 2 and f"--aggregate {retired}" in r.stderr
        assert "'plurality', 'soft', 'weighted', 'dawid_skene'" in r.stderr
    r = cli(*data, "--level", "1.5")
    assert r.exit_code == 2 and "--level 1.5" in r.stderr
    r = cli(*data, "--oms-steps", "0")
    assert r.exit_code == 2 and "--oms-steps 0" in r.stderr
    r = cli(*data, "--bound", "chernoff")
    assert r.exit_code == 2 and "--bound" in r.stderr and "hoeffding" in r.stderr
    help_text = cli("certify", "--help").stdout
    assert "humanly certify [OPTIONS] RATINGS" in help_text
    assert "humanly certify summary [OPTIONS]" in help_text and "--n-upper" not in help_text
    assert "--level" in help_text and "--alpha" not in help_text
    assert "plurality|soft|weighted|dawid_skene" in help_text
