"""The command-line entry points."""

from __future__ import annotations

import subprocess
import sys

import humanly


def test_version(cli):
    res = cli("--version")
    assert res.exit_code == 0 and res.stdout.strip() == f"humanly {humanly.__version__}"


def test_python_dash_m_and_exit_status():
    ok = subprocess.run([sys.executable, "-m", "humanly", "--help"], capture_output=True, text=True)
    assert ok.returncode == 0 and "inspect" in ok.stdout and "simulate" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "humanly", "inspect", "missing.csv"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "humanly: error: missing.csv: no such file; check the path"


def test_bundled_dataset_matches_its_source(shared_data):
    """The bundled sample is a faithful subset of the published file (same counts and probabilities)."""
    from humanly.datasets import wiki_attack

    ratings, predictions = wiki_attack()
    full = humanly.data.read_ratings(
        shared_data / "wiki_attack_se" / "wiki_attack_labels_and_predictor.csv",
        item_col="rev_id",
        counts=humanly.Counts("attack=n_labelled_attack", total="n_labels", rest_class="none"),
    )
    pos = full.items.get_indexer(ratings.items.astype(full.items.dtype))
    assert (pos >= 0).all()
    assert (full.counts[pos] == ratings.counts).all()
    assert predictions.n_items == ratings.n_items == 2000
