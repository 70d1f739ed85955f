"""Numbers unchanged by the 0.1.0 reset of ``humanly inspect`` (``humanly.summarize`` →
``humanly.inspect``, ``RatingsSummary`` → ``InspectResult``): every number the recorded
``inspect --json`` printed is printed again under the same key.

The reset renamed no key of this output: it added keys (the raters' spreads, and ``null`` for the
keys that do not apply, which the old output left out), so no rename is needed; every number, boolean
and string is compared, except ``source`` (the input's path, which depends on where the files are).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from baseline import CRED, PRODUCT, RTE, SNOW, TRUTH, WIKI, WSD, compare, sibling

WIKI_COUNTS = ["--item-col", "rev_id", "--counts", "attack=n_labelled_attack", "--total", "n_labels",
               "--rest-class", "none"]  # fmt: skip
CASES = {
    "inspect_rte": [RTE, *SNOW, "--gold-col", "gold"],
    "inspect_wsd": [WSD, *SNOW, "--gold-col", "gold"],
    "inspect_product": [PRODUCT, "--gold", TRUTH],
    "inspect_wiki": [WIKI, *WIKI_COUNTS, "--prob-col", "predictor_prob"],
    "inspect_credbank": [CRED, "--item-col", "event", "--counts", "credCount*_ret"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_inspect_numbers_unchanged(cli, shared_data, name: str) -> None:
    new = cli("inspect", *CASES[name], "--bootstrap", "200", "--json")
    assert new.exit_code == 0, new.stderr
    # the source is the input's path as given, which depends on where the checkout is
    compare(name, new.json(), skip=[r"^source$"], strings=True)


def test_inspect_oracle_numbers_unchanged(cli, sim: dict[str, Path]) -> None:
    o = sim["o"]
    new = cli("inspect", o, "--predictions", sibling(o, "predictions"), "--gold", sibling(o, "gold"),
              "--bootstrap", "200", "--json")  # fmt: skip
    assert new.exit_code == 0, new.stderr
    # the source is the simulated file's path, in another temporary folder than the record's
    compare("inspect_oracle", new.json(), skip=[r"^source$"], strings=True)
