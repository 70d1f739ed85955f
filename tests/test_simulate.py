"""Simulators: seeded, and their frequencies match the papers' formulas within Monte Carlo error."""

from __future__ import annotations

import numpy as np
import pytest

import humanly
from humanly import simulate as sim


def _z(observed: float, p: float, n: int) -> float:
    return abs(observed - p) / np.sqrt(p * (1 - p) / n)


def test_seeded():
    a, b = sim.running_example(200, seed=3), sim.running_example(200, seed=3)
    np.testing.assert_array_equal(a.ratings.label_codes, b.ratings.label_codes)
    np.testing.assert_array_equal(a.predictions["hard"].values, b.predictions["hard"].values)
    c = sim.running_example(200, seed=4)
    assert not np.array_equal(a.ratings.label_codes, c.ratings.label_codes)
    for make in (
        lambda s: sim.oracle(100, [0.8, 0.7, 0.6], models={"m": 0.9}, difficulty=0.2, seed=s),
        lambda s: sim.pair(100, 3, q_b=0.8, q_w=0.7, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=s),
    ):
        np.testing.assert_array_equal(make(1).ratings.counts, make(1).ratings.counts)


def test_running_example_matches_paper():
    """Survey Equivalence §2: states P(C)=0.8/0.5/0.1 in 70/10/20%; hard says C w.p. 0.9/0.5/0.05;
    soft outputs 0.77 / 0.32."""
    n = 40_000
    d = sim.running_example(n, 10, seed=0)
    comp = d.truth["state_index"]
    for s, w in enumerate([0.7, 0.1, 0.2]):
        assert _z((comp == s).mean(), w, n) < 4
    hard = d.predictions["hard"].values
    for s, pc in enumerate([0.9, 0.5, 0.05]):
        sel = comp == s
        assert _z((hard[sel] == 0).mean(), pc, sel.sum()) < 4
        # labels: P(C) of the state
        share_c = d.ratings.counts[sel, 0].sum() / (10 * sel.sum())
        assert _z(share_c, [0.8, 0.5, 0.1][s], 10 * sel.sum()) < 4
    soft = d.predictions["soft"].values[:, 0]
    assert set(np.round(soft, 2)) == {0.77, 0.32}
    np.testing.assert_array_equal(soft == 0.77, hard == 0)
    # the soft classifier is the calibrated hard one: P(label C | hard = C) ≈ 0.77
    label_c = d.ratings.counts[:, 0] / 10
    assert label_c[hard == 0].mean() == pytest.approx(0.768, abs=0.01)
    assert label_c[hard == 1].mean() == pytest.approx(0.323, abs=0.015)


def test_oracle_accuracies_with_difficulty():
    n, d, acc = 60_000, 0.25, [0.9, 0.7]
    data = sim.oracle(n, acc, n_classes=3, models={"m": 0.95}, difficulty=d, seed=1)
    truth = data.gold.codes
    m = data.ratings.matrix()
    for j, a in enumerate(acc):
        expected = (1 - d) * a + d / 3
        assert _z((m[:, j] == truth).mean(), expected, n) < 4
        assert data.truth["annotator_accuracy"][f"a{j + 1}"] == pytest.approx(
            (m[:, j] == truth).mean()
        )
    assert _z(data.truth["model_accuracy"]["m"], (1 - d) * 0.95 + d / 3, n) < 4


def test_truth_names_the_generator():
    """``truth["generator"]`` names the generator ("model" means a classifier only)."""
    cases = {
        "oracle": sim.oracle(20, [0.8, 0.7], seed=0),
        "urn": sim.urn(20, 3, states=[[0.9, 0.1], [0.2, 0.8]], seed=0),
        "running-example": sim.running_example(20, 3, seed=0),
    }
    for name, data in cases.items():
        assert data.truth["generator"] == name and "model" not in data.truth
        assert data.to_dict()["truth"]["generator"] == name


def test_oracle_ragged_subsets():
    data = sim.oracle(500, [0.8] * 6, labels_per_item=(2, 4), seed=2)
    lpi = data.ratings.labels_per_item
    assert lpi.min() >= 2 and lpi.max() <= 4 and len(set(lpi)) == 3


def test_pair_independent_matches_proposition_1():
    """Don't Label Twice, Prop. 1: P(G=1) = qε + (1−p−ε)p, P(G=−1) = (1−q)ε + (1−p−ε)p (m = 1)."""
    n, p, eps, q = 200_000, 0.75, 0.1, 0.7
    d = sim.pair(n, 1, p=p, eps=eps, q=q, seed=5)
    y = d.ratings.label_codes
    b, w = d.predictions["better"].values, d.predictions["worse"].values
    g = (b == y).astype(int) - (w == y).astype(int)
    assert _z((g == 1).mean(), q * eps + (1 - p - eps) * p, n) < 4
    assert _z((g == -1).mean(), (1 - q) * eps + (1 - p - eps) * p, n) < 4


def test_pair_correlated_matches_proposition_2():
    n = 200_000
    qb, qw, pw, pb0, pb1 = 0.8, 0.65, 0.7, 0.6, 0.9
    d = sim.pair(n, 1, q_b=qb, q_w=qw, p_w=pw, p_b0=pb0, p_b1=pb1, seed=6)
    y = d.ratings.label_codes
    b, w = d.predictions["better"].values, d.predictions["worse"].values
    g = (b == y).astype(int) - (w == y).astype(int)
    assert _z((g == 1).mean(), qb * (1 - pw) * pb0 + (1 - qw) * pw * (1 - pb1), n) < 4
    assert _z((g == -1).mean(), (1 - qb) * (1 - pw) * pb0 + qw * pw * (1 - pb1), n) < 4


@pytest.mark.parametrize("ext", [".csv", ".parquet", ".jsonl"])
def test_write_round_trip(tmp_path, ext):
    d = sim.running_example(120, (3, 6), seed=7)
    files = d.write(tmp_path / f"re{ext}")
    assert set(files) == {"ratings", "gold", "predictions", "states"}
    r = humanly.data.read_ratings(files["ratings"])
    np.testing.assert_array_equal(r.counts, d.ratings.counts)
    p = humanly.data.read_predictions(files["predictions"], classes=r.classes)
    np.testing.assert_allclose(p["soft"].values, d.predictions["soft"].values)
    np.testing.assert_array_equal(p["hard"].values, d.predictions["hard"].values)
    g = humanly.data.read_gold(files["gold"], classes=r.classes)
    np.testing.assert_array_equal(g.for_items(r.items), d.gold.codes)


def test_simulate_cli(tmp_path, cli):
    res = cli(
        "simulate",
        "urn",
        "--preset",
        "running-example",
        "--n-items",
        50,
        "-o",
        tmp_path / "x.csv",
        "--json",
    )
    assert res.exit_code == 0, res.stderr
    out = res.json()
    assert out["ratings"]["n_items"] == 50 and out["models"] == ["hard", "soft"]
    assert (tmp_path / "x.predictions.csv").exists() and (tmp_path / "x.gold.csv").exists()
    res = cli(
        "simulate",
        "oracle",
        "--rater-accuracies",
        "0.9,0.8,0.7",
        "--models",
        "m=0.9",
        "-o",
        tmp_path / "o.csv",
    )
    assert res.exit_code == 0
    res = cli("inspect", tmp_path / "o.csv", "--predictions", tmp_path / "o.predictions.csv", "--gold",
              tmp_path / "o.gold.csv", "--json")  # fmt: skip
    assert res.json()["models"][0]["gold_accuracy"] > 0.8
