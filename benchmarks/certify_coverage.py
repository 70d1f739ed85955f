"""Coverage of the certify bounds on ≥ 1,000 simulated datasets with a known oracle (issue 3).

For each scenario, every bound (Hoeffding — the paper's; empirical Bernstein; exact Clopper–Pearson for
L_N) is computed at failure probability δ per side on each dataset, and we count how often it covers

* the estimand (population U⁽ᵉ⁾² for the upper bound, population agreement L of the model with the
  K-annotator plurality for the lower bound) — the nominal guarantee is coverage ≥ 1 − δ;
* the oracle accuracy (average annotator, model) — what the certificate is about.

Mean widths t_u, t_l show how much tighter each bound is. Replicate i draws from stream (seed, i), so
``--workers N`` gives the same numbers.

    python benchmarks/certify_coverage.py [--datasets 1000] [--quick] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from humanly.certification import coverage

SCENARIOS = [
    {"name": "K=5, 3 classes, N=200, mixed raters", "n_items": 200,
     "accuracies": (0.7, 0.75, 0.8, 0.65, 0.7), "model_accuracy": 0.85, "n_classes": 3},
    {"name": "K=3, 2 classes, N=1000, accurate raters", "n_items": 1000,
     "accuracies": (0.95, 0.9, 0.92), "model_accuracy": 0.97, "n_classes": 2},
    {"name": "K=7, 4 classes, N=100, weak raters", "n_items": 100,
     "accuracies": (0.5, 0.55, 0.6, 0.45, 0.5, 0.6, 0.55), "model_accuracy": 0.7, "n_classes": 4},
]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--datasets", type=int, default=1000)
    ap.add_argument("--deltas", type=float, nargs="+", default=[0.05, 0.2])
    ap.add_argument("--quick", action="store_true", help="200 datasets")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    n = 200 if args.quick else args.datasets
    out = []
    for sc in SCENARIOS:
        for delta in args.deltas:
            t0 = time.perf_counter()
            res = coverage(
                n,
                sc["n_items"],
                sc["accuracies"],
                sc["model_accuracy"],
                n_classes=sc["n_classes"],
                delta=delta,
                seed=args.seed,
                workers=args.workers,
            )
            secs = time.perf_counter() - t0
            out.append({"scenario": sc["name"], **res.to_dict(), "seconds": secs})
            if not args.json:
                print(f"\n{sc['name']}, δ = {delta} per side, {n} datasets ({secs:.1f} s); "
                      f"nominal ≥ {1 - delta:.2f} (MC s.e. {res.standard_error:.3f})")  # fmt: skip
                print(f"  {'bound':10} {'upper':>7} {'lower':>7} {'U-oracle':>9} {'L-oracle':>9}"
                      f" {'mean t_u':>9} {'mean t_l':>9}")  # fmt: skip
                for b, cov in res.coverage.items():
                    w = res.mean_t[b]
                    print(f"  {b:10} {cov['upper']:7.3f} {cov['lower']:7.3f} "
                          f"{cov['upper_oracle']:9.3f} {cov['lower_oracle']:9.3f} "
                          f"{w['t_u']:9.4f} {w['t_l']:9.4f}")  # fmt: skip
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
