"""Data larger than memory: a folder of Parquet files streamed to per-item counts, then analysed.

    python benchmarks/stream_bench.py [--items 10000000] [--labels 20] [--quick]

Writes a simulated long-format dataset (item, rater, label; 3 classes) as one Parquet file per 10⁶
items — with 10⁷ items × 20 labels that is 2·10⁸ rows, which as a pandas DataFrame alone would need
about 15 GB — then, in a fresh process per run, reads it with ``read_ratings(...,
options=ReadOptions(stream=True))`` and runs the analyses that work from counts (inspect summary;
certify and survey equivalence when installed). Peak memory is the process's resident high-water
mark (VmHWM). Baseline: streaming only the item column with pyarrow (the I/O floor), in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from _fresh import PEAK_MB

CHILD = (
    PEAK_MB
    + r"""
import json, sys, time
what, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
out = {}
if what == "floor":
    import pyarrow.dataset as ds
    n = 0
    for b in ds.dataset(path, format="parquet").to_batches(columns=["item", "label"], batch_size=1 << 20):
        n += b.num_rows
    out["rows"] = n
else:
    import humanly.data
    r = humanly.data.read_ratings(path, options=humanly.data.ReadOptions(stream=True))
    out["read_s"] = time.perf_counter() - t0
    out["items"] = r.n_items
    if what == "inspect":
        humanly.inspect(r)
    elif what == "certify":
        from humanly.certification import certify
        certify(r)
    elif what == "equivalence":
        from humanly.survey import power_curve
        power_curve(r, combiner="abc", scorer="cross_entropy", bootstrap=500)
out["seconds"] = time.perf_counter() - t0
out["max_rss_mb"] = _peak_mb()
print(json.dumps(out))
"""
)


def make_dataset(
    folder: Path, n_items: int, k: int, per_file: int = 1_000_000, seed: int = 0
) -> None:
    """``n_items`` items × ``k`` labels in files of ``per_file`` items; item states from a 3-state urn."""
    folder.mkdir(parents=True, exist_ok=True)
    states = np.array([[0.8, 0.15, 0.05], [0.3, 0.4, 0.3], [0.05, 0.15, 0.8]])
    for f, start in enumerate(range(0, n_items, per_file)):
        rng = np.random.default_rng([seed, f])
        n = min(per_file, n_items - start)
        comp = rng.integers(0, 3, n)
        u = rng.random((n, k))
        labels = (u[:, :, None] > np.cumsum(states[comp], axis=1)[:, None, :2]).sum(axis=2)
        ids = np.char.add("item", np.arange(start, start + n).astype(str))
        table = pa.table(
            {
                "item": pa.array(np.repeat(ids, k)),
                "rater": pa.array(np.tile(np.arange(k, dtype=np.int16), n)),
                "label": pa.array(labels.ravel().astype(np.int8)),
            }
        )
        pq.write_table(table, folder / f"part-{f:04d}.parquet")


def _child(what: str, path: Path) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", CHILD, what, str(path)], capture_output=True, text=True
    )
    if res.returncode != 0:
        tail = (res.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": tail}
    return json.loads(res.stdout)


def measure(n_items: int, k: int, repeat: int) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "ratings"
        subprocess.run(
            [sys.executable, __file__, "--make", str(folder), "--items", str(n_items),
             "--labels", str(k)],
            check=True,
        )  # fmt: skip
        size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
        print(f"{n_items:,} items × {k} labels, {size:,.0f} MB Parquet in "
              f"{len(list(folder.iterdir()))} files", file=sys.stderr)  # fmt: skip
        floor = [_child("floor", folder) for _ in range(repeat)]
        floor_s = statistics.median(r["seconds"] for r in floor)
        rows = []
        for what in ("inspect", "certify", "equivalence"):
            runs = [_child(what, folder) for _ in range(repeat)]
            if any("error" in r for r in runs):
                err = next(r["error"] for r in runs if "error" in r)
                print(f"{what}: skipped ({err})", file=sys.stderr)
                continue
            secs = [r["seconds"] for r in runs]
            rows.append(
                {
                    "name": f"stream {n_items:,} × {k} Parquet folder → {what}",
                    "median_s": statistics.median(secs),
                    "min_s": min(secs),
                    "max_s": max(secs),
                    "runs": repeat,
                    "peak_mb": max(r["max_rss_mb"] for r in runs),
                    "baseline": f"pyarrow scan of item+label ({floor_s:.2f} s)",
                    "ratio": floor_s / statistics.median(secs),
                    "target": "bounded memory" if n_items >= 10_000_000 else None,
                    "notes": f"read {statistics.median(r['read_s'] for r in runs):.1f} s of it; "
                    f"{n_items * k / 1e6:,.0f} M labels",
                }
            )
    return rows


def run(quick: bool = False) -> list[dict]:
    """Entry point for benchmarks/run.py (quick: 10⁶ items; full: 10⁷ items, 3 runs each)."""
    return measure(1_000_000, 20, 3) if quick else measure(10_000_000, 20, 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--items", type=int, default=10_000_000)
    ap.add_argument("--labels", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="10⁶ items")
    ap.add_argument("--make", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        make_dataset(args.make, args.items, args.labels)
        return
    items = 1_000_000 if args.quick else args.items
    for row in measure(items, args.labels, args.repeat):
        print(
            f"{row['name']}: median {row['median_s']:.1f} s (min {row['min_s']:.1f}, max "
            f"{row['max_s']:.1f}), peak RSS {row['peak_mb']:,.0f} MB; {row['baseline']}; {row['notes']}"
        )


if __name__ == "__main__":
    main()
