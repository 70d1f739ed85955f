"""How time and memory grow with the number of items: 10⁴, 10⁵, 10⁶ items × 20 labels × 3 classes.

    python benchmarks/scale_bench.py [--quick] [--repeat 5]

For each size and analysis — inspect (summary + agreement), certify (slots, one model), survey
equivalence (ABC + cross-entropy, 200 bootstraps) — a fresh process builds the counts of a 3-state urn
and one soft model, then times the analysis alone. Peak memory is the process's resident high-water
mark (VmHWM). The growth exponent b in time ∝ itemsᵇ (fitted between consecutive sizes) is at most
about 1 (linear in items); it is smaller where costs that do not grow with n dominate. Baseline:
``numpy`` summing the counts matrix once per run in the same process (the memory-bandwidth floor).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys

from _fresh import PEAK_MB

CHILD = (
    PEAK_MB
    + r"""
import json, sys, time
import numpy as np
what, n, k, boot = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
from humanly import Ratings, Predictions
from humanly.data import ModelOutput
rng = np.random.default_rng(0)
states = np.array([[0.8, 0.15, 0.05], [0.3, 0.4, 0.3], [0.05, 0.15, 0.8]])
comp = rng.integers(0, 3, n)
counts = np.empty((n, 3), dtype=np.int64)
for c in range(3):
    m = comp == c
    counts[m] = rng.multinomial(k, states[c], size=int(m.sum()))
r = Ratings.from_counts(counts, classes=["a", "b", "c"])
p = np.clip(states[comp] + rng.normal(0, 0.05, (n, 3)), 0.01, None)
p /= p.sum(axis=1, keepdims=True)
preds = Predictions(r.items, r.classes, [ModelOutput("model", "proba", p)])
t0 = time.perf_counter()
if what == "floor":
    int(counts.sum())
elif what == "inspect":
    import humanly
    humanly.inspect(r)
elif what == "certify":
    from humanly.certification import certify
    certify(r, preds)
elif what == "equivalence":
    from humanly.survey import equivalence
    equivalence(r, preds, combiner="abc", scorer="cross_entropy", bootstrap=boot, seed=0)
seconds = time.perf_counter() - t0
rss = _peak_mb()
print(json.dumps({"seconds": seconds, "max_rss_mb": rss}))
"""
)

TARGETS = {("certify", 1_000_000): "< 5 s (10⁶ × 10)", ("equivalence", 1_000_000): "< 60 s, < 4 GB"}


def _child(what: str, n: int, k: int, boot: int) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", CHILD, what, str(n), str(k), str(boot)],
        capture_output=True,
        text=True,
    )
    if res.returncode != 0:
        return {"error": (res.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(res.stdout)


def measure(sizes: list[int], k: int, boot: int, repeat: int) -> list[dict]:
    rows: list[dict] = []
    for what in ("inspect", "certify", "equivalence"):
        medians: dict[int, float] = {}
        for n in sizes:
            runs = [_child(what, n, k, boot) for _ in range(repeat)]
            if any("error" in r for r in runs):
                print(f"{what} {n:,}: skipped ({runs[0].get('error')})", file=sys.stderr)
                break
            floor = statistics.median(_child("floor", n, k, boot)["seconds"] for _ in range(3))
            secs = [r["seconds"] for r in runs]
            medians[n] = statistics.median(secs)
            growth = ""
            if len(medians) >= 2:
                (n0, t0), (n1, t1) = list(medians.items())[-2:]
                growth = (
                    f"; growth exponent {math.log(t1 / t0) / math.log(n1 / n0):.2f} from {n0:,}"
                )
            extra = f", {boot} bootstraps" if what == "equivalence" else ""
            rows.append(
                {
                    "name": f"scale {what}, {n:,} × {k} × 3 classes{extra}",
                    "median_s": medians[n],
                    "min_s": min(secs),
                    "max_s": max(secs),
                    "runs": repeat,
                    "peak_mb": max(r["max_rss_mb"] for r in runs),
                    "baseline": "numpy sum of the counts (floor)",
                    "ratio": floor / medians[n] if medians[n] > 0 else None,
                    "target": TARGETS.get((what, n)),
                    "notes": f"fresh process per run{growth}",
                }
            )
    return rows


def run(quick: bool = False) -> list[dict]:
    """Entry point for benchmarks/run.py (quick: 10⁴ and 10⁵ items, 20 bootstraps, 3 runs)."""
    if quick:
        return measure([10_000, 100_000], 20, 20, 3)
    return measure([10_000, 100_000, 1_000_000], 20, 200, 5)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    sizes = [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]
    for row in measure(sizes, 20, 20 if args.quick else 200, 3 if args.quick else args.repeat):
        print(
            f"{row['name']}: median {row['median_s']:.3f} s (min {row['min_s']:.3f}, max "
            f"{row['max_s']:.3f}), peak {row['peak_mb']:,.0f} MB; {row['notes']}"
        )


if __name__ == "__main__":
    main()
