"""``humanly report --from results.json`` draws the page ``humanly report`` drew, byte for byte, on every
data set of ../shared/data the report reads — the counts layouts included (issue 30: on the Wikipedia
counts the saved page listed the class shares in another order and drew another class figure, because
the results were saved with their keys sorted). Skipped without ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

SNOW = "--item-col orig_id --rater-col !amt_worker_ids --label-col response --gold-col gold"
WIKI = "--item-col rev_id --counts attack=n_labelled_attack --total n_labels --rest-class none"

#: data set → (ratings file, its flags)
DATASETS = {
    "rte": ("snow2008_rte/rte.standardized.tsv", SNOW),
    "temp": ("snow2008_temp/temp.standardized.tsv", SNOW),
    "wsd": ("snow2008_wsd/wsd.standardized.tsv", SNOW),
    "product": ("product/answer.csv", "--gold {data}/product/truth.csv"),
    "wiki_counts": ("wiki_attack_se/wiki_attack_labels_and_predictor.csv",
                    f"{WIKI} --prob-col predictor_prob"),
    "credbank_counts": ("credbank_se/credweb.csv", "--item-col event --counts credCount*_ret"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(DATASETS))
def test_report_from_saved_results_is_the_same_page(
    cli, shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    ratings, flags = DATASETS[name]
    args = [shared_data / ratings, *flags.format(data=shared_data).split()]
    saved = tmp_path / "results.json"
    first = cli("report", *args, "--bootstrap", "100", "-o", tmp_path / "a.html",
                "--save-results", saved)  # fmt: skip
    assert first.exit_code == 0, first.stderr
    again = cli("report", "--from", saved, "-o", tmp_path / "b.html")
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
