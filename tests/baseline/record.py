"""Record the JSON every command printed before the 0.1.0 API reset (issue 23), for
``tests/test_baseline_numbers.py``: the reset renames keys and flags, never a number.

Recorded once, at commit d31f6eb (the last commit before the reset), with::

    python tests/baseline/record.py

Each case is the old command line; the outputs are written to ``tests/baseline/outputs/NAME.json``
(``report`` cases keep only the embedded results). The simulated inputs are written first by
``humanly simulate`` with fixed seeds (the same files the test writes again). This script runs the old
command lines only: after the reset it is kept as the record of how the files were made.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data"
OUT = HERE / "outputs"

RTE = str(DATA / "snow2008_rte" / "rte.standardized.tsv")
TEMP = str(DATA / "snow2008_temp" / "temp.standardized.tsv")
WSD = str(DATA / "snow2008_wsd" / "wsd.standardized.tsv")
PRODUCT = str(DATA / "product" / "answer.csv")
TRUTH = str(DATA / "product" / "truth.csv")
WIKI = str(DATA / "wiki_attack_se" / "wiki_attack_labels_and_predictor.csv")
CRED = str(DATA / "credbank_se" / "credweb.csv")
SNOW = ["--item-col", "orig_id", "--rater-col", "!amt_worker_ids", "--label-col", "response"]
WIKI_COUNTS = ["--item-col", "rev_id", "--counts", "attack=n_labelled_attack", "--total", "n_labels",
               "--rest-class", "none"]  # fmt: skip
CRED_COUNTS = ["--item-col", "event", "--counts", "credCount*_ret"]


def simulated(folder: Path) -> dict[str, str]:
    """The simulated studies (fixed seeds): oracle crowd, running-example urn, budget pair."""
    sim = folder / "sim"
    sim.mkdir(parents=True, exist_ok=True)
    runs = {
        "o": ["simulate", "oracle", "-o", str(sim / "o.csv"), "--annotators", "0.8,0.75,0.7,0.85",
              "--models", "a=0.85,b=0.75", "--items", "300", "--seed", "1"],
        "u": ["simulate", "urn", "--preset", "running-example", "-o", str(sim / "u.csv"),
              "--items", "300", "--seed", "2"],
        "p": ["simulate", "pair", "-o", str(sim / "p.csv"), "--items", "400", "--labels-per-item", "3",
              "--p", "0.7", "--eps", "0.1", "--q", "0.75", "--seed", "3"],
    }  # fmt: skip
    for argv in runs.values():
        if not Path(argv[argv.index("-o") + 1]).exists():
            subprocess.run(["humanly", *argv], check=True, capture_output=True)
    return {k: str(sim / f"{k}.csv") for k in runs}


def cases(s: dict[str, str]) -> dict[str, list[str]]:
    o, u, p = s["o"], s["u"], s["p"]
    op, og = o.replace(".csv", ".predictions.csv"), o.replace(".csv", ".gold.csv")
    up, us = u.replace(".csv", ".predictions.csv"), u.replace(".csv", ".states.csv")
    pp = p.replace(".csv", ".predictions.csv")
    return {
        "inspect_rte": ["inspect", RTE, *SNOW, "--gold-col", "gold", "--bootstrap", "200"],
        "inspect_wsd": ["inspect", WSD, *SNOW, "--gold-col", "gold", "--bootstrap", "200"],
        "inspect_product": ["inspect", PRODUCT, "--gold", TRUTH, "--bootstrap", "200"],
        "inspect_wiki": ["inspect", WIKI, *WIKI_COUNTS, "--prob-col", "predictor_prob",
                         "--bootstrap", "200"],
        "inspect_credbank": ["inspect", CRED, *CRED_COUNTS, "--bootstrap", "200"],
        "inspect_oracle": ["inspect", o, "--predictions", op, "--gold", og, "--bootstrap", "200"],
        "certify_rte": ["certify", RTE, *SNOW, "--gold-col", "gold", "--curve"],
        "certify_temp_named": ["certify", TEMP, *SNOW, "--gold-col", "gold", "--raters", "named",
                               "--curve"],
        "certify_product": ["certify", PRODUCT, "--gold", TRUTH, "--raters", "named"],
        "certify_wiki": ["certify", WIKI, *WIKI_COUNTS, "--prob-col", "predictor_prob", "--curve"],
        "certify_oracle": ["certify", o, "--predictions", op, "--gold", og, "--curve",
                           "--tau", "0.01"],
        "certify_oracle_bernstein": ["certify", o, "--predictions", op, "--bound", "bernstein",
                                     "--alpha", "0.1", "--aggregate", "weighted"],
        "certify_summary": ["certify", "--lower", "0.949", "0.971", "--upper", "0.939", "--n",
                            "1821", "--annotators", "3", "--models", "BERT,StructBERT"],
        "equivalence_wiki": ["equivalence", WIKI, *WIKI_COUNTS, "--prob-col", "predictor_prob",
                             "--calibrate", "isotonic", "--bootstrap", "50"],
        "equivalence_wiki_agreement": ["equivalence", WIKI, *WIKI_COUNTS, "--prob-col",
                                       "predictor_prob", "--combiner", "plurality", "--scorer",
                                       "agreement", "--bootstrap", "50"],
        "equivalence_rte": ["equivalence", RTE, *SNOW, "--combiner", "plurality", "--scorer",
                            "agreement", "--bootstrap", "50"],
        "equivalence_urn": ["equivalence", u, "--predictions", up, "--bootstrap", "50",
                            "--headroom", "--target-width", "0.5", "--states", us],
        "equivalence_urn_sampled": ["equivalence", u, "--predictions", up, "--scorer", "auc",
                                    "--bootstrap", "5", "--draws", "20"],
        "budget_win": ["budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8",
                       "--budget", "1500", "--labels-per-item", "1", "3", "5"],
        "budget_size": ["budget", "size", "--p", "0.8", "--eps", "0.01", "--q", "0.8",
                        "--delta", "0.05", "--labels-per-item", "1", "3"],
        "budget_capacity": ["budget", "capacity", "--p", "0.75", "--eps", "0.1", "--q", "0.75",
                            "--budget", "1500"],
        "budget_convergence": ["budget", "convergence", "--p", "0.7", "--eps", "0.1", "--q", "0.75"],
        "budget_plan": ["budget", "plan", p, "--predictions", pp, "--bootstrap", "20",
                        "--budget", "600"],
        "budget_plan_majority": ["budget", "plan", p, "--predictions", pp, "--bootstrap", "10",
                                 "--method", "majority", "--delta", "0.1"],
        "budget_multiclass": ["budget", "multiclass", "--n-classes", "3", "--q", "0.7", "--p", "0.7",
                              "--eps", "0.1", "--budget", "300"],
        "budget_rates": ["budget", "rates", "--p", "0.7", "--eps", "0.1", "--q", "0.75"],
        "report_wiki": ["report", WIKI, *WIKI_COUNTS, "--prob-col", "predictor_prob",
                        "--bootstrap", "50", "-o", "{tmp}/wiki.html"],
        "report_rte": ["report", RTE, *SNOW, "--gold-col", "gold", "--bootstrap", "50",
                       "-o", "{tmp}/rte.html"],
        "report_oracle": ["report", o, "--predictions", op, "--gold", og, "--bootstrap", "50",
                          "-o", "{tmp}/oracle.html"],
        "report_urn": ["report", u, "--predictions", up, "--states", us, "--bootstrap", "50",
                       "-o", "{tmp}/urn.html"],
        "report_pair": ["report", p, "--predictions", pp, "--bootstrap", "20",
                        "-o", "{tmp}/pair.html"],
    }  # fmt: skip


def main() -> None:
    import tempfile

    OUT.mkdir(exist_ok=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    with tempfile.TemporaryDirectory() as tmp:
        for name, argv in cases(simulated(Path(tmp))).items():
            argv = [a.replace("{tmp}", tmp) for a in argv]
            done = subprocess.run(
                ["humanly", *argv, "--json"], capture_output=True, text=True, env=env
            )
            if done.returncode != 0:
                sys.exit(f"{name}: {done.stderr}")
            value = json.loads(done.stdout)
            if name.startswith("report_"):
                value = value["results"]
            (OUT / f"{name}.json").write_text(json.dumps(value, indent=1, sort_keys=True) + "\n")
            print(name, len(done.stdout))


if __name__ == "__main__":
    main()
