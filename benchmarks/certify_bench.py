"""Speed of ``humanly.certification``: 10^6 items × 10 labels (simulated counts), slots mode, one model.

Target (issue 3): under 5 s on a 2-core machine. Baselines measured in the same run:

* ``numpy core`` — the bare arithmetic any implementation needs (per-item pairwise agreement from the
  counts matrix, and the plurality credit of the model), written as plain numpy;
* ``pandas groupby`` — the same two statistics from the long table (10^7 rows) with pandas groupby, the
  way one would compute them without a counts model.

    python benchmarks/certify_bench.py [--quick] [--items N] [--labels K] [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from humanly import Predictions, Ratings
from humanly.certification import certify


def make(n_items: int, k: int, seed: int = 0) -> tuple[Ratings, Predictions, np.ndarray]:
    """Counts of k labels per item over 3 classes (true class drawn, raters 75 % accurate) and a
    model 90 % accurate; returns also the labels as an items × k matrix for the long baseline."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n_items)
    correct = rng.random((n_items, k)) < 0.75
    wrong = (truth[:, None] + rng.integers(1, 3, (n_items, k))) % 3
    labels = np.where(correct, truth[:, None], wrong).astype(np.int8)
    counts = np.stack([(labels == c).sum(axis=1) for c in range(3)], axis=1)
    ratings = Ratings.from_counts(counts, classes=[0, 1, 2])
    pred = np.where(rng.random(n_items) < 0.9, truth, (truth + 1) % 3)
    preds = Predictions.from_arrays(ratings.items, {"model": pred}, classes=[0, 1, 2])
    return ratings, preds, labels


def numpy_core(counts: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    c = counts.astype(np.float64)
    n = c.sum(axis=1)
    agree = ((c * (c - 1)).sum(axis=1) / (n * (n - 1))).mean()
    top = c.max(axis=1, keepdims=True)
    tied = c == top
    credit = tied[np.arange(len(c)), pred] / tied.sum(axis=1)
    return float(agree), float(credit.mean())


def pandas_groupby(labels: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    n_items, k = labels.shape
    df = pd.DataFrame({"item": np.repeat(np.arange(n_items), k), "label": labels.ravel()})
    cnt = df.groupby(["item", "label"]).size().rename("c").reset_index()
    cnt["pairs"] = cnt.c * (cnt.c - 1)
    per = cnt.groupby("item").agg(pairs=("pairs", "sum"), n=("c", "sum"))
    agree = float((per.pairs / (per.n * (per.n - 1))).mean())
    top = cnt.groupby("item").c.transform("max")
    winners = cnt[cnt.c == top]
    n_tied = winners.groupby("item").size()
    hit = winners[winners.label.to_numpy() == pred[winners.item.to_numpy()]].groupby("item").size()
    credit = (hit.reindex(n_tied.index, fill_value=0) / n_tied).mean()
    return agree, float(credit)


def _time(fn: Callable[[], Any], repeat: int) -> dict[str, Any]:
    secs = []
    peak = 0.0
    for i in range(repeat):
        if i == 0:
            tracemalloc.start()
        t0 = time.perf_counter()
        fn()
        secs.append(time.perf_counter() - t0)
        if i == 0:
            peak = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
    # the first (traced) run is slower; report medians over the untraced ones when there are enough
    timed = secs[1:] if len(secs) > 5 else secs
    return {
        "median_s": statistics.median(timed),
        "min_s": min(timed),
        "max_s": max(timed),
        "runs": len(timed),
        "peak_mb": peak,
    }


def measure(n_items: int, k: int, repeat: int) -> list[dict[str, Any]]:
    ratings, preds, labels = make(n_items, k)
    pred = preds.hard("model").astype(np.int64)
    ours = _time(lambda: certify(ratings, preds), repeat)
    core = _time(lambda: numpy_core(ratings.counts, pred), repeat)
    pdg = _time(lambda: pandas_groupby(labels, pred), max(5, repeat // 2))
    # same numbers from all three
    res = certify(ratings, preds)
    a, b = numpy_core(ratings.counts, pred)
    c, d = pandas_groupby(labels, pred)
    assert abs(res.upper_bound.empirical**2 - a) < 1e-9 and abs(a - c) < 1e-9
    assert abs(res.models[0].lower - b) < 1e-9 and abs(b - d) < 1e-9
    name = f"certify slots, {n_items:,} items × {k} labels, 1 model"
    curve = _time(lambda: certify(ratings, preds, curve=True), 5)
    return [
        {
            "name": name,
            **ours,
            "baseline": f"numpy core arithmetic ({core['median_s']:.3f} s)",
            "ratio": core["median_s"] / ours["median_s"],
            "target": "< 5 s" if n_items >= 1_000_000 else None,
            "notes": "all bounds (Hoeffding, Bernstein, exact) and HMS/OMS; peak = tracemalloc",
        },
        {
            "name": name + " (vs pandas groupby)",
            **ours,
            "baseline": f"pandas groupby on the long table ({pdg['median_s']:.2f} s)",
            "ratio": pdg["median_s"] / ours["median_s"],
            "target": None,
            "notes": "baseline computes only U_e and L_N",
        },
        {
            "name": f"certify slots --curve, {n_items:,} items × {k} labels",
            **curve,
            "baseline": None,
            "ratio": None,
            "target": None,
            "notes": "exact hypergeometric curve for k = 1..K",
        },
    ]


RATERS_SCRIPT = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import numpy as np
from humanly import Predictions, Ratings
from humanly.certification import CertifyOptions, certify
rng = np.random.default_rng(0)
R = 10_005  # issue 17.2: 10,005 named raters on one item, plus a small crowd on 199 others
items = np.r_[np.zeros(R, int), np.repeat(np.arange(1, 200), 3)]
raters = np.r_[np.arange(R), R + np.tile([0, 1, 2], 199)]
labels = rng.integers(0, 2, size=len(items))
r = Ratings.from_long(items, raters, labels, classes=[0, 1])
p = Predictions.from_arrays(r.items, {"m": rng.integers(0, 2, size=r.n_items)}, classes=[0, 1])
t = time.perf_counter()
certify(r, p, rater_mode="named", curve=True, options=CertifyOptions(curve_subsets=20))
took = time.perf_counter() - t
with open("/proc/self/status") as f:
    peak = next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
print(took, peak)
"""


def raters_rows(repeat: int) -> list[dict[str, Any]]:
    """Named certify with 10,005 raters on one item, each run a fresh process limited to 3 GB of
    address space (the computation alone; peak = resident high-water mark)."""
    import subprocess
    import sys

    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", RATERS_SCRIPT], capture_output=True, text=True, check=True
        )
        runs.append([float(x) for x in out.stdout.split()])
    times = [r[0] for r in runs]
    return [
        {
            "name": "certify --raters named --curve, 10,005 raters on one item (+199 items × 3)",
            "median_s": statistics.median(times),
            "min_s": min(times),
            "max_s": max(times),
            "runs": len(times),
            "peak_mb": max(r[1] for r in runs),
            "baseline": None,
            "ratio": None,
            "target": "< 1 min, < 3 GB",
            "notes": "fresh process under RLIMIT_AS = 3 GB; rater pairs that share items only "
            "(before: 5.3 GB and still running after 120 s)",
        }
    ]


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py."""
    rows = measure(100_000 if quick else 1_000_000, 10, 5 if quick else 7)
    return rows + raters_rows(2 if quick else 3)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--labels", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="100,000 items")
    args = ap.parse_args()
    items = 100_000 if args.quick else args.items
    for row in measure(items, args.labels, args.repeat):
        ratio = "" if row["ratio"] is None else f"; ratio {row['ratio']:.2f}"
        print(
            f"{row['name']}: median {row['median_s']:.3f} s (min {row['min_s']:.3f}, max "
            f"{row['max_s']:.3f}, {row['runs']} runs), peak {row['peak_mb']:,.0f} MB; "
            f"baseline {row['baseline']}{ratio}; target {row['target']}"
        )


if __name__ == "__main__":
    main()
