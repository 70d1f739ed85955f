"""Dawid–Skene against crowd-kit 1.4.2, in the same process and run, on the same data (issue 34).

humanly's default fit — 22 starts screened and the best polished to its stopping rule — against
crowd-kit's ``DawidSkene()`` run to its own stop (its defaults: ``n_iter=100``, ``tol=1e-5`` on the
loss), timed interleaved (``--repeat`` times each; the ratio is crowd-kit's smallest time over
humanly's: > 1 means humanly is faster). Both fits are scored by the same observed-data
log-likelihood. The data:

* the relevance analogue of ``tests/crowd/ds_sim.py`` (the shape of the TREC 2010 relevance-feedback
  crowd: 20,000 items, 766 raters of very unequal activity, 4 graded classes, about 10⁵ labels, and
  raters whose confusion matrices give the likelihood many optima), and the same at 10⁵ items;
* the shared data sets: the product data (8,315 items, 176 workers) and Snow et al.'s RTE.

With ``--seeds``, also the log-likelihood each single start reaches with seeds 0…9 (what a user gets
with ``starts=(kind,), random_starts=1, seed=s``), to show that the default is never below them.

    python benchmarks/dawid_skene_bench.py [--repeat 3] [--only relevance product] [--seeds]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(
    0, str(HERE.parent / "tests" / "crowd")
)  # the relevance analogue, shared with tests

import humanly  # noqa: E402
from humanly.crowd import _ds_em as em  # noqa: E402
from humanly.crowd.dawid_skene import dawid_skene  # noqa: E402

DATA = HERE.parent.parent / "shared" / "data"


def datasets(quick: bool) -> dict[str, Callable[[], humanly.Ratings]]:
    from ds_sim import relevance_like

    def shared(name: str, path: str, item: str, rater: str, label: str) -> humanly.Ratings:
        return humanly.data.read_ratings(
            DATA / name / path, item_col=item, rater_col=rater, label_col=label
        )

    snow = ("orig_id", "!amt_worker_ids", "response")
    out: dict[str, Callable[[], humanly.Ratings]] = {
        "relevance analogue, 20,000 items": lambda: relevance_like(0),
        "product (shared data)": lambda: shared(
            "product", "answer.csv", "question", "worker", "answer"
        ),
        "snow2008 RTE (shared data)": lambda: shared("snow2008_rte", "rte.standardized.tsv", *snow),
    }
    if not quick:
        out["relevance analogue, 100,000 items"] = lambda: relevance_like(0, n_items=100_000)
    return out


def _crowdkit(r: humanly.Ratings) -> tuple[Callable[[], Any], Callable[[Any], float]]:
    """crowd-kit's fit on the long frame of ``r``, and its log-likelihood under our scoring."""
    from crowdkit.aggregation import DawidSkene

    frame = pd.DataFrame({"task": r.item_codes, "worker": r.rater_codes, "label": r.label_codes})
    k = em.codes(r, r.n_raters)

    def fit() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return DawidSkene().fit(frame)

    def score(fitted: Any) -> float:
        n_c = r.n_classes
        theta = np.zeros((r.n_raters, n_c, n_c))
        for (worker, label), row in fitted.errors_.iterrows():
            theta[int(worker), :, int(label)] = row.reindex(range(n_c)).to_numpy()
        prior = fitted.priors_.reindex(range(n_c)).to_numpy()
        return em.log_likelihood(prior, theta, k)

    return fit, score


def measure(name: str, r: humanly.Ratings, repeat: int, seeds: bool) -> dict[str, Any]:
    ck_fit, ck_score = _crowdkit(r)
    ours, theirs = [], []
    fit = fitted = None
    for _ in range(repeat):  # interleaved: the machine's load falls on both alike
        t0 = time.perf_counter()
        fit = dawid_skene(r)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fitted = ck_fit()
        theirs.append(time.perf_counter() - t0)
    assert fit is not None and fitted is not None
    row: dict[str, Any] = {
        "name": f"Dawid–Skene default fit, {name} ({r.n_labels:,} labels)",
        "median_s": statistics.median(ours),
        "min_s": min(ours),
        "max_s": max(ours),
        "runs": repeat,
        "peak_mb": None,
        "baseline": "crowd-kit 1.4.2 DawidSkene() to its own stop",
        "ratio": min(theirs) / min(ours),
        "target": "≥ 1 (issue 34)",
        "notes": (
            f"crowd-kit {min(theirs):.2f} s, {len(fitted.loss_history_)} steps, log-likelihood "
            f"{ck_score(fitted):,.2f}; humanly {fit.log_likelihood:,.2f} from the "
            f"{fit.start} start{'' if fit.start_seed is None else f' (seed {fit.start_seed})'}, "
            f"converged {fit.converged} after {fit.iterations:,} M steps; {len(fit.starts)} starts, "
            f"{sum(s.polished for s in fit.starts)} polished"
        ),
    }
    if seeds:
        singles = {}
        for kind in ("plurality", "vote_shares"):
            singles[kind] = dawid_skene(r, starts=kind).log_likelihood
        for seed in range(10):
            for kind in ("random", "random_plurality"):
                one = dawid_skene(r, starts=kind, random_starts=1, seed=seed)
                singles[f"{kind} {seed}"] = one.log_likelihood
        best = max(singles, key=singles.__getitem__)
        row["notes"] += (
            f"; best single start over seeds 0–9: {best} at {singles[best]:,.2f} "
            f"(default − best = {fit.log_likelihood - singles[best]:+.4f})"
        )
    return row


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py: every data set, 3 interleaved runs each (2 with quick)."""
    return [
        measure(name, load(), 2 if quick else 3, False) for name, load in datasets(quick).items()
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="leave out the 100,000-item analogue")
    ap.add_argument("--only", nargs="*", help="data sets whose name contains one of these words")
    ap.add_argument("--seeds", action="store_true", help="also every single start of seeds 0–9")
    args = ap.parse_args()
    for name, load in datasets(args.quick).items():
        if args.only and not any(word in name for word in args.only):
            continue
        print(
            json.dumps(measure(name, load(), args.repeat, args.seeds), allow_nan=False), flush=True
        )


if __name__ == "__main__":
    main()
