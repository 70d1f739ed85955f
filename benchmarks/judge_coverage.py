"""The coverage table of docs/judge.md (issue 32): how often the 95% intervals of PPI++, PPI, the human
labels alone, the small-sample interval and the default rule cover the truth, by the number of human
labels n and the judge's accuracy, for one model's accuracy and the difference of two models.

The settings are those of :func:`humanly.judging.arrays.coverage_table` (a two-class task, one human
label per item as the reference, models 85% and 80% accurate, 10,000 unlabelled items per study, all
errors independent), with a judge that gives labels (``--judge-kind label``, the first pair of tables
of docs/judge.md) or a calibrated soft judge (``--judge-kind proba``, the second pair). Cell i draws
from ``stream(seed, i)``, so the table is the same every run; ``tests/judge/test_judge_coverage_table.py``
reproduces it (2,000 runs per cell in the default test run, all 10,000 in the slow one) and reads the
numbers back from the Markdown below.

    python benchmarks/judge_coverage.py [--runs 10000] [--seed 0] [--judge-kind label|proba]
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from humanly.judging.arrays import coverage_table
from humanly.judging.extended import CoverageTable

#: the columns printed, in order: method → header
COLUMNS = {
    "ppi++": "PPI++",
    "ppi": "PPI",
    "classical": "human only",
    "adjusted": "small-sample",
    "auto": "**default**",
}
ESTIMANDS = {
    "difference": "the difference of two models (a − b)",
    "accuracy": "one model's accuracy",
}
#: how the tables' titles name the judge
JUDGES = {"label": "", "proba": ", soft judge"}


def markdown(table: CoverageTable) -> str:
    """The two Markdown tables (coverage in %, one decimal; mean widths of PPI++ and the default)."""
    frame = table.to_frame()
    out = []
    judge = JUDGES[table.judge_kind]
    for estimand, title in ESTIMANDS.items():
        part = frame[frame["estimand"] == estimand]
        cov = part.pivot_table(index=["judge_accuracy", "n"], columns="method", values="coverage")
        width = part.pivot_table(index=["judge_accuracy", "n"], columns="method", values="width")
        out.append(f"Coverage of the 95% interval of {title}{judge}, in %:\n")
        head = ["judge right", "n", *COLUMNS.values(), "width PPI++", "width default"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for (q, n), row in cov.iterrows():
            cells = [f"{100 * q:.0f}%", str(n)]
            cells += [f"{100 * row[m]:.1f}" for m in COLUMNS]
            cells += [f"{width.loc[(q, n), m]:.3f}" for m in ("ppi++", "auto")]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--judge-kind", choices=("label", "proba"), default="label")
    args = ap.parse_args()
    start = time.perf_counter()
    table = coverage_table(runs=args.runs, seed=args.seed, judge_kind=args.judge_kind)
    print(markdown(table))
    pd.set_option("display.width", 120)
    print(
        f"<!-- {args.runs} runs per cell, seed {args.seed}, {time.perf_counter() - start:.0f} s -->"
    )


if __name__ == "__main__":
    main()
