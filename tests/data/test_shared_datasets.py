"""Every file in ../shared/data loads, and its summary matches the table in ../shared/data/README.md."""

from __future__ import annotations

import numpy as np
import pytest

import humanly
from humanly.crowd.inspect import inspect

SNOW = {
    # folder: (file, items, raters, classes, plurality-vs-gold accuracy quoted as "about")
    "snow2008_rte": ("rte.standardized.tsv", 800, 164, 2, 0.90),
    "snow2008_temp": ("temp.standardized.tsv", 462, 76, 2, 0.94),
    "snow2008_wsd": ("wsd.standardized.tsv", 177, 34, 3, 0.99),
}
SNOW_COLS = {"item_col": "orig_id", "rater_col": "!amt_worker_ids", "label_col": "response"}


@pytest.mark.parametrize("folder", sorted(SNOW))
def test_snow(shared_data, folder):
    name, n_items, n_raters, n_classes, plurality_acc = SNOW[folder]
    path = shared_data / folder / name
    r = humanly.data.read_ratings(path, **SNOW_COLS)
    gold = humanly.data.read_gold(path, classes=r.classes, item_col="orig_id", gold_col="gold")
    s = inspect(r, gold=gold)
    assert (s.n_items, s.n_raters, s.n_labels) == (n_items, n_raters, 10 * n_items)
    assert len(s.classes) == n_classes
    assert s.labels_per_item.min == s.labels_per_item.max == 10
    assert s.gold is not None and s.gold.n_items == n_items
    # README: "the majority vote of the 10 workers matches gold on about 90% / 94% / 99%"
    assert s.gold.plurality_accuracy == pytest.approx(plurality_acc, abs=0.01)


def test_product(shared_data):
    r = humanly.data.read_ratings(
        shared_data / "product" / "answer.csv"
    )  # question, worker, answer
    gold = humanly.data.read_gold(shared_data / "product" / "truth.csv", classes=r.classes)
    s = inspect(r, gold=gold)
    assert (s.n_items, s.n_raters, s.n_labels) == (8315, 176, 3 * 8315)
    assert s.classes == (0, 1)
    assert s.labels_per_item.min == s.labels_per_item.max == 3
    assert s.gold is not None and s.gold.n_items == 8315


def test_wiki_attack(shared_data):
    path = shared_data / "wiki_attack_se" / "wiki_attack_labels_and_predictor.csv"
    r = humanly.data.read_ratings(
        path,
        item_col="rev_id",
        counts=humanly.Counts("attack=n_labelled_attack", total="n_labels", rest_class="none"),
    )
    assert not r.has_raters and r.n_raters is None
    assert r.n_items == 23178 and r.classes == ("none", "attack")
    lpi = r.labels_per_item
    assert (lpi.min(), np.median(lpi), lpi.max()) == (8, 10, 46)
    p = humanly.data.read_predictions(
        path, classes=r.classes, item_col="rev_id", prob_col="predictor_prob"
    )
    assert p.names == ("predictor_prob",) and p["predictor_prob"].kind == "proba"
    raw = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(2, 3, 4))
    np.testing.assert_array_equal(r.counts[:, 1], raw[:, 0])  # attack = n_labelled_attack
    np.testing.assert_array_equal(r.labels_per_item, raw[:, 1])
    np.testing.assert_allclose(p["predictor_prob"].values[:, 1], raw[:, 2])


def test_credbank(shared_data):
    path = shared_data / "credbank_se" / "credweb.csv"
    r = humanly.data.read_ratings(path, item_col="event", counts="credCount*_ret")
    assert r.n_items == 1377 and r.classes == (-2, -1, 0, 1, 2)
    assert (r.labels_per_item.min(), r.labels_per_item.max()) == (29, 30)
    p = humanly.data.read_predictions(
        path, classes=r.classes, item_col="event", score_col="cscw_predictor"
    )
    assert p["cscw_predictor"].kind == "score"
    assert set(np.unique(p["cscw_predictor"].values)) <= {1.0, 2.0, 3.0, 4.0}
    # P_ca_ret is the published share of "certainly accurate" (rating 2) ratings
    import pandas as pd

    frame = pd.read_csv(path)
    np.testing.assert_allclose(r.counts[:, 4] / r.labels_per_item, frame["P_ca_ret"], atol=1e-6)


def test_inspect_snow_rte_cli(shared_data, cli):
    """Done-when: `humanly inspect` on the Snow RTE file gives 800 items, 164 raters, 8,000 labels,
    10 labels per item."""
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    res = cli(
        "inspect", path, "--item-col", "orig_id", "--rater-col", "!amt_worker_ids",
        "--label-col", "response", "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    out = res.json()
    assert (out["n_items"], out["n_raters"], out["n_labels"]) == (800, 164, 8000)
    assert out["labels_per_item"] == {
        "min": 10, "median": 10.0, "max": 10, "mean": 10.0, "histogram": {"10": 800},
    }  # fmt: skip
    for key in ("pairwise", "fleiss_kappa", "krippendorff_alpha"):
        assert 0 < out["agreement"][key] < 1
