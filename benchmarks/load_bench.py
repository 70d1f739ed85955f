"""Loading ratings at scale: 10^6 items × 20 labels (2·10^7 rows) from Parquet.

Target (foundation issue): loads in a few seconds and under 2 GB. Each timing runs in a fresh
subprocess so peak memory (resident high-water mark, VmHWM) is per run; the baseline is a plain
``pandas.read_parquet`` of the same file in the same session, so the ratio is comparable across machines.

    python benchmarks/load_bench.py [--items 1000000] [--labels 20] [--repeat 5]

Target (issues 25 and 34 item 4): a long CSV and Parquet file (item, rater, label) → Ratings within 2×
of ``pandas.read_csv(engine="pyarrow")`` / ``pandas.read_parquet`` plus factorising the item, rater
and label columns, same file, same run, at 10^6 and 5·10^6 rows: in process (alternating runs) and
whole process (a fresh interpreter per run, imports included).

    python benchmarks/load_bench.py --parse [--repeat 3]     # 10^6 and 5·10^6 rows (--quick: 10^5)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _fresh import PEAK_MB

CHILD = (
    PEAK_MB
    + r"""
import json, sys, time
t0 = time.perf_counter()
if sys.argv[1] == "humanly":
    import humanly.data
    r = humanly.data.read_ratings(sys.argv[2])
    shape = [r.n_items, r.n_labels]
else:
    import pandas as pd
    path = sys.argv[2]
    df = pd.read_csv(path, engine="pyarrow") if path.endswith(".csv") else pd.read_parquet(path)
    if sys.argv[1] == "factorize":
        for col in ("item", "rater", "label"):
            pd.factorize(df[col])
    shape = list(df.shape)
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "max_rss_mb": _peak_mb(),
                  "shape": shape}))
"""
)


def make_file(path: Path, n_items: int, k: int, n_raters: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    items = np.repeat(np.arange(n_items), k)
    raters = (np.tile(np.arange(k), n_items) * 37 + items * 7) % n_raters  # distinct within an item
    frame = pd.DataFrame(
        {
            "item": np.char.add("item", items.astype(str)),
            "rater": np.char.add("w", raters.astype(str)),
            "label": rng.integers(0, 3, len(items)),
        }
    )
    frame.to_parquet(path, index=False)


def run_once(which: str, path: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, which, str(path)], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout)


def measure(items: int, labels: int, raters: int, repeat: int) -> list[dict]:
    """Time ``humanly.data.read_ratings`` and the ``pandas.read_parquet`` baseline, fresh process per run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ratings.parquet"
        # a separate process, so the parent's memory high-water mark (inherited by the timed children
        # through fork + exec) stays small
        subprocess.run(
            [sys.executable, __file__, "--make", str(path), "--items", str(items),
             "--labels", str(labels), "--raters", str(raters)],
            check=True,
        )  # fmt: skip
        print(
            f"{items:,} items × {labels} labels = {items * labels:,} rows, "
            f"{path.stat().st_size / 1e6:.0f} MB Parquet; {repeat} runs each, fresh process per run",
            file=sys.stderr,
        )
        runs = {
            which: [run_once(which, path) for _ in range(repeat)] for which in ("pandas", "humanly")
        }
    stats = {}
    for which, rs in runs.items():
        secs = [r["seconds"] for r in rs]
        stats[which] = {
            "median_s": statistics.median(secs),
            "min_s": min(secs),
            "max_s": max(secs),
            "runs": repeat,
            "peak_mb": statistics.median(r["max_rss_mb"] for r in rs),
        }
    base = stats["pandas"]
    return [
        {
            "name": f"load ratings, {items:,} × {labels} Parquet",
            **stats["humanly"],
            "baseline": f"pandas.read_parquet ({base['median_s']:.2f} s, {base['peak_mb']:.0f} MB)",
            "ratio": base["median_s"] / stats["humanly"]["median_s"],
            "target": "a few s, < 2 GB" if items >= 1_000_000 else None,
            "notes": "coded Ratings vs a plain DataFrame; peak = VmHWM of a fresh process",
        }
    ]


def _parse_baseline(path: Path) -> float:
    """pandas' fastest parse of the file (pyarrow) plus factorising the three columns."""
    t0 = time.perf_counter()
    if path.suffix == ".csv":
        df = pd.read_csv(path, engine="pyarrow")
    else:
        df = pd.read_parquet(path)
    for col in ("item", "rater", "label"):
        pd.factorize(df[col])
    return time.perf_counter() - t0


def _humanly_load(path: Path) -> float:
    import humanly.data

    t0 = time.perf_counter()
    humanly.data.read_ratings(path)
    return time.perf_counter() - t0


def _whole_process(path: Path, size: str, repeat: int) -> dict:
    """Issue 34.4, whole process: ``read_ratings`` in a fresh interpreter against the pyarrow parse
    plus factorising the three columns in a fresh interpreter (imports included), alternating runs."""
    base, ours = [], []
    for _ in range(repeat):
        for which, out in (("factorize", base), ("humanly", ours)):
            t0 = time.perf_counter()
            run_once(which, path)
            out.append(time.perf_counter() - t0)
    b, o = statistics.median(base), statistics.median(ours)
    kind = path.suffix[1:].upper()
    return {
        "name": f"load ratings, {size} {kind} (whole process)",
        "median_s": o,
        "min_s": min(ours),
        "max_s": max(ours),
        "runs": repeat,
        "baseline": f"a fresh process reading with pandas (pyarrow) + factorize × 3 ({b:.2f} s)",
        "ratio": b / o,
        "target": "≤ 2× the parse (ratio ≥ 0.5)",
        "notes": "interpreter start-up and imports included on both sides; same file, same run",
    }


def measure_parse(items: int, labels: int, raters: int, repeat: int) -> list[dict]:
    """Issue 25.5 and 34.4: a long CSV and Parquet file → Ratings, against pandas' pyarrow parse plus
    factorising the item, rater and label columns — same file, same process, alternating runs; then
    the same in fresh processes (:func:`_whole_process`)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        parquet = Path(tmp) / "ratings.parquet"
        make_file(parquet, items, labels, raters)
        csv = parquet.with_suffix(".csv")
        pd.read_parquet(parquet).to_csv(csv, index=False)
        for path in (csv, parquet):
            base, ours = [], []
            for _ in range(repeat):
                base.append(_parse_baseline(path))
                ours.append(_humanly_load(path))
            b, o = statistics.median(base), statistics.median(ours)
            rows.append(
                {
                    "name": f"load ratings, {items:,} × {labels} {path.suffix[1:].upper()} (in process)",
                    "median_s": o,
                    "min_s": min(ours),
                    "max_s": max(ours),
                    "runs": repeat,
                    "baseline": f"pandas.read_{'csv(engine=pyarrow)' if path.suffix == '.csv' else 'parquet'}"
                    f" + factorize × 3 ({b:.2f} s)",
                    "ratio": b / o,
                    "target": "≤ 2× the parse (ratio ≥ 0.5)",
                    "notes": "duplicate and missing-value checks included; same file, same run",
                }
            )
            rows.append(_whole_process(path, f"{items:,} × {labels}", repeat))
    return rows


def parse_rows(quick: bool = False, repeat: int = 3) -> list[dict]:
    """The issue-34 loading rows: 10^6 and 5·10^6 rows (10^5 with ``quick``), 5 labels an item."""
    sizes = (20_000,) if quick else (200_000, 1_000_000)
    return [row for items in sizes for row in measure_parse(items, 5, 50, repeat)]


def run(quick: bool = False) -> list[dict]:
    """Entry point for benchmarks/run.py."""
    if quick:
        return measure(100_000, 20, 2000, 5) + parse_rows(quick=True)
    return measure(1_000_000, 20, 2000, 5) + parse_rows()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--labels", type=int, default=20)
    ap.add_argument("--raters", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="100,000 items")
    ap.add_argument("--make", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--parse", action="store_true", help="the issue-34 rows (10^6, 5·10^6 rows)")
    args = ap.parse_args()
    if args.make:
        make_file(args.make, args.items, args.labels, args.raters)
        return
    if args.parse:
        for row in parse_rows(args.quick, args.repeat):
            print(
                f"{row['name']}: median {row['median_s']:.2f} s (min {row['min_s']:.2f}); baseline "
                f"{row['baseline']}; humanly / baseline {1 / row['ratio']:.2f}"
            )
        return
    items = 100_000 if args.quick else args.items
    for row in measure(items, args.labels, args.raters, args.repeat):
        print(
            f"{row['name']}: median {row['median_s']:.2f} s (min {row['min_s']:.2f}, max "
            f"{row['max_s']:.2f}), peak RSS {row['peak_mb']:,.0f} MB; baseline {row['baseline']}; "
            f"ratio {row['ratio']:.2f}"
        )


if __name__ == "__main__":
    main()
