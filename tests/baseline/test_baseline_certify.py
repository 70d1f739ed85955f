"""Numbers unchanged by the 0.1.0 reset: every ``certify_*`` case recorded before it (``outputs/``), run
with today's flags (``--alpha A`` became ``--level 1−A``, ``--annotators`` became ``--k``, now
``certify summary --labels-per-item``), has every recorded number, boolean and string under its new
path with the same value.

What the reset renamed (old → new), as the regular expressions below say:

* ``alpha`` → ``level`` and ``simultaneous.alpha`` → ``simultaneous.level``, holding 1 − α, and
  ``simultaneous.level_per_model`` now holds the level each model must reach, 1 − α/M, where it held
  α/M: checked as complements below (the old values are no longer printed);
* ``aggregate`` ``"majority"`` → ``"plurality"`` (the same rule: the most frequent label);
* ``oracle.average_annotator`` → ``oracle.average_rater``;
* the JSON aliases removed before this reset (they held the same numbers): ``annotators`` →
  ``raters``, ``models[].lower_bound`` → ``lower``, ``upper_bound.value`` → ``upper``,
  ``by_bound.B.{lower, upper, delta_lower, delta_upper}`` → ``by_bound.B.{finite_lower.value,
  finite_upper.value, finite_lower.delta, finite_upper.delta}``, ``detail.{left, right}`` →
  ``detail.{left_formula, right_formula}``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from baseline import PRODUCT, RTE, SNOW, TEMP, TRUTH, WIKI, compare, old, sibling

WIKI_COUNTS = ["--item-col", "rev_id", "--counts", "attack=n_labelled_attack", "--total",
               "n_labels", "--rest-class", "none"]  # fmt: skip

RENAMES = [
    (r"^annotators\.", "raters."),
    (r"^(models\[\d+\])\.lower_bound$", r"\1.lower"),
    (r"^upper_bound\.value$", "upper_bound.upper"),
    (r"(\.by_bound\.\w+)\.lower$", r"\1.finite_lower.value"),
    (r"(\.by_bound\.\w+)\.upper$", r"\1.finite_upper.value"),
    (r"(\.by_bound\.\w+)\.delta_lower$", r"\1.finite_lower.delta"),
    (r"(\.by_bound\.\w+)\.delta_upper$", r"\1.finite_upper.delta"),
    (r"(\.detail)\.left$", r"\1.left_formula"),
    (r"(\.detail)\.right$", r"\1.right_formula"),
    (r"^oracle\.average_annotator$", "oracle.average_rater"),
]
SKIP = [
    r"^alpha$",  # no longer printed: level = 1 − alpha, checked below
    r"^simultaneous\.alpha$",  # the same
    r"^simultaneous\.level_per_model$",  # was α/M, now the level 1 − α/M: checked below
    r"^aggregate$",  # "majority" is now "plurality", checked below
    r"^simultaneous\.method$",  # the sentence named α: "S_m ≥ 1 − (1 − level)/M" now
]
#: the named-rater curve (``--rater-mode named --curve``) averages each k over random k-subsets of the
#: raters, drawn by rater index with the stream (seed, k) when C(R, k) exceeds the subsets asked for
#: (every point of certify_temp_named: 76 raters, ``exact`` false, checked below). The raters are now
#: indexed sorted by id (issue 26: the canonical order), where they were in order of first appearance,
#: so the same indices are other raters and these averages other Monte Carlo draws (with the raters
#: renamed so that sorting by id keeps the recorded order, the record is reproduced exactly). Each
#: point's k and ``exact`` are compared, and so is everything else of the output.
NAMED_CURVE = [r"^curve\[\d+\]\.(theoretical|empirical|lower\.|n_items|aggregate_accuracy)"]


def _cases(sim: dict[str, Path]) -> dict[str, list[str]]:
    o = str(sim["o"])
    op, og = str(sibling(sim["o"], "predictions")), str(sibling(sim["o"], "gold"))
    return {
        "certify_rte": ["certify", str(RTE), *SNOW, "--gold-col", "gold", "--curve"],
        "certify_temp_named": ["certify", str(TEMP), *SNOW, "--gold-col", "gold",
                               "--rater-mode", "named", "--curve"],
        "certify_product": ["certify", str(PRODUCT), "--gold", str(TRUTH), "--rater-mode", "named"],
        "certify_wiki": ["certify", str(WIKI), *WIKI_COUNTS, "--prob-col", "predictor_prob",
                         "--curve"],
        "certify_oracle": ["certify", o, "--predictions", op, "--gold", og, "--curve",
                           "--tau", "0.01"],
        "certify_oracle_bernstein": ["certify", o, "--predictions", op, "--bound", "bernstein",
                                     "--level", "0.9", "--aggregate", "weighted"],
        "certify_summary": ["certify", "summary", "--lower", "0.949", "0.971", "--upper", "0.939",
                            "--n-items", "1821", "--labels-per-item", "3", "--models",
                            "BERT,StructBERT"],
    }  # fmt: skip


NAMES = list(_cases({"o": Path("o.csv")}))


@pytest.mark.parametrize("name", NAMES)
def test_certify_numbers_unchanged(cli, sim, shared_if_read, name: str) -> None:
    shared_if_read(_cases(sim)[name])
    done = cli(*_cases(sim)[name], "--json")
    assert done.exit_code == 0, done.stderr
    new = done.json()
    before = old(name)
    resampled = NAMED_CURVE if name == "certify_temp_named" else []
    if resampled:  # every point of that curve sampled, then and now
        assert all(p["exact"] is False for p in (*before["curve"], *new["curve"]))
    compare(name, new, RENAMES, SKIP, strings=True, resampled=resampled)
    # the confidence level: 1 − α, and per model 1 − α/M (the union bound), where α/M was printed
    assert new["level"] == pytest.approx(1 - before["alpha"], rel=1e-12)
    assert new["simultaneous"]["level"] == new["level"]
    if before["simultaneous"]["level_per_model"] is None:
        assert new["simultaneous"]["level_per_model"] is None
    else:
        assert math.isclose(
            new["simultaneous"]["level_per_model"],
            1 - before["simultaneous"]["level_per_model"],
            rel_tol=1e-12,
        )
    renamed = {"majority": "plurality"}
    assert new["aggregate"] == renamed.get(before["aggregate"], before["aggregate"])
