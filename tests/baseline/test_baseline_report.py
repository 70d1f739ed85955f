"""Numbers unchanged by the 0.1.0 reset, on the report: every ``report_*`` case recorded before it has
every number and boolean of each analysis under its new path in the study result the page embeds.

The page used to keep each analysis' JSON side by side (``inspect``, ``certify``, ``survey`` keyed by
"combiner+scorer" with ``truth`` and ``shown`` beside, ``budget`` with the pilot under ``plan``); it
now embeds the ``StudyResult`` (``study.inspect``, ``study.certify``, ``study.equivalence[i]`` with its
``result``, ``truth`` and ``shown``, ``study.plan`` with the pilot under ``pilot``). Inside each
analysis the renames are those of the analysis' own baseline test, reused from there, and so are the
values drawn from bootstrap replicates that are not compared (``resampled``, issue 26: the record's
``--bootstrap 50``/``20`` became 100, the least now accepted, and the replicates are drawn in the
canonical item order); the raters' rows of ``inspect`` are compared by rater name.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from test_baseline_budget_calculators import (
    PILOT,
    PILOT_RESAMPLED,
    SCENARIO,
    SIZE_BOUNDS,
    WIN_BOUNDS,
)
from test_baseline_certify import RENAMES as CERTIFY
from test_baseline_certify import SKIP as CERTIFY_SKIP
from test_baseline_equivalence import RENAMES as EQUIVALENCE
from test_baseline_equivalence import RESAMPLED as EQUIVALENCE_RESAMPLED

from baseline import RTE, SNOW, WIKI, compare, old, sibling

WIKI_COUNTS = ["--item-col", "rev_id", "--counts", "attack=n_labelled_attack", "--total",
               "n_labels", "--rest-class", "none"]  # fmt: skip
#: the page's agreement intervals used 1,000 resamples whatever --bootstrap said; the one --bootstrap
#: of the study now applies to them too (the inspect baseline checks them at 1,000)
INSPECT_SKIP = [r"^agreement_ci\."]
#: the budget analysis: ``p`` was an alias of ``better_accuracy``; ``delta`` is ``level`` = 1 − δ
PLAN = [(r"^p$", "better_accuracy"), (r"^plan_note$", "pilot_skipped")]
PLAN_SKIP = [r"(^|\.)delta$"]


def _cases(sim: dict[str, Path], out: Path) -> dict[str, list[str]]:
    o, u, p = (str(sim[k]) for k in "oup")
    op, og = str(sibling(sim["o"], "predictions")), str(sibling(sim["o"], "gold"))
    up, us = str(sibling(sim["u"], "predictions")), str(sibling(sim["u"], "states"))
    pp = str(sibling(sim["p"], "predictions"))
    return {
        "report_wiki": ["report", str(WIKI), *WIKI_COUNTS, "--prob-col", "predictor_prob",
                        "--bootstrap", "100", "-o", str(out / "wiki.html")],
        "report_rte": ["report", str(RTE), *SNOW, "--gold-col", "gold", "--bootstrap", "100",
                       "-o", str(out / "rte.html")],
        "report_oracle": ["report", o, "--predictions", op, "--gold", og, "--bootstrap", "100",
                          "-o", str(out / "oracle.html")],
        "report_urn": ["report", u, "--predictions", up, "--states", us, "--bootstrap", "100",
                       "-o", str(out / "urn.html")],
        "report_pair": ["report", p, "--predictions", pp, "--bootstrap", "100",
                        "-o", str(out / "pair.html")],
    }  # fmt: skip


NAMES = list(_cases({k: Path(f"{k}.csv") for k in "oup"}, Path(".")))


@pytest.mark.parametrize("name", NAMES)
def test_report_numbers_unchanged(cli, sim, tmp_path: Path, shared_if_read, name: str) -> None:
    shared_if_read(_cases(sim, tmp_path)[name])
    done = cli(*_cases(sim, tmp_path)[name], "--json")
    assert done.exit_code == 0, done.stderr
    study = done.json()["study"]
    before = old(name)
    compare(name, study["inspect"], skip=INSPECT_SKIP, part="inspect")
    if before.get("certify"):
        compare(name, study["certify"], CERTIFY, CERTIFY_SKIP, part="certify")
        assert study["certify"]["level"] == pytest.approx(1 - before["certify"]["alpha"], rel=1e-12)
    runs = {f"{r['combiner']}+{r['scorer']}": r for r in study["equivalence"]}
    for key, recorded in (before.get("survey") or {}).items():
        if key in ("truth", "shown"):
            continue
        assert recorded is not None and runs[key]["result"] is not None, key
        compare(
            name,
            runs[key]["result"],
            EQUIVALENCE,
            part=f"survey.{key}",
            resampled=EQUIVALENCE_RESAMPLED,
        )
        assert runs[key]["shown"] == before["survey"]["shown"][key]
        truth = (before["survey"].get("truth") or {}).get(key)
        if truth is not None:
            compare(name, runs[key]["truth"], EQUIVALENCE, part=f"survey.truth.{key}")
    if before.get("budget"):
        renames = [*PLAN, *SCENARIO, *WIN_BOUNDS, *SIZE_BOUNDS]
        skip = [*PLAN_SKIP, r"^plan\."]  # the pilot: below
        compare(name, study["plan"], renames, skip=skip, part="budget")
        assert math.isclose(study["plan"]["level"], 1 - before["budget"]["delta"], rel_tol=1e-12)
        if before["budget"].get("plan"):  # the pilot plan, now under "pilot."
            compare(
                name,
                study["plan"],
                PILOT,
                skip=PLAN_SKIP,
                part="budget.plan",
                resampled=PILOT_RESAMPLED,
            )
