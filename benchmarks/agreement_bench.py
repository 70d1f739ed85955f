"""The agreement family at scale: every coefficient on 10^6 items × 5 raters, humanly against the
reference packages in the same process and run — `krippendorff` for α at each scale, `irrCAC` (the
Python port of Gwet's R package) for percent agreement, Conger's and Fleiss' κ, AC1/AC2 and
Brennan–Prediger, with their standard errors.

Each library gets the data in its own input form, built from the same long arrays (item, rater, label):
``Ratings.from_long`` for humanly, the raters × items matrix for `krippendorff`, the items × raters
DataFrame for irrCAC. Two timings per coefficient, best of ``--repeat``:

* *call*: the input built once beforehand, one coefficient per call — humanly's ``agreement(...,
  coefficients=[name], bootstrap=0)`` (estimate, Gwet's standard error, t interval, p-value and
  benchmark readings) against the reference call that gives the same numbers;
* *end to end*: building the library's input from the long arrays, then the call.

The ratio columns are reference seconds over humanly seconds (> 1: humanly is faster). humanly's
1,000-replicate bootstrap of the whole family is timed too (neither reference has one). irrCAC and
krippendorff are GPL: used here and in the tests only, never imported by humanly.

    python benchmarks/agreement_bench.py [--items 1000000] [--raters 5] [--classes 5] [--repeat 3]

``run(quick)`` (the rows of ``benchmarks/run.py``) times the other question — the family *from a file*:
a long Parquet file of 10⁶ labels (10⁵ with ``quick``; 5 raters, 5 ordered classes, ragged) read and
turned into the table, each library in a fresh process per run (imports not timed): humanly's
``read_study`` + ``agreement`` + the table's cells, against ``pandas.read_parquet`` + the pivot each
reference needs + its calls (`krippendorff`: α at the four scales; irrCAC: percent agreement,
Brennan–Prediger, Conger's and Fleiss' κ, AC2 and α with ordinal weights, with standard errors).

    python benchmarks/agreement_bench.py --e2e [--labels 1000000] [--repeat 3]

``--counts`` times what issue 34 asked for — α alone from counts, in process: ``agreement(ratings,
coefficients=["krippendorff_alpha"], bootstrap=0)`` (estimate, Gwet's standard error, interval, p-value
and readings) against ``krippendorff.alpha(value_counts=...)`` (the estimate) on the same items ×
classes counts, the smallest of ``--repeat`` interleaved timings each (target: humanly within 1.5×),
on anonymous ragged counts (10⁵ items, 5 and 10 classes) and on relevance-like named ratings (10⁵
items, 700 raters of very unequal activity, 4 classes: every item its own rater pattern).

    python benchmarks/agreement_bench.py --counts [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import humanly
from humanly.crowd.family import agreement


def make_data(n: int, k: int, q: int, missing: float, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Long arrays (item, rater, label in 1…q) of a 5-point-style study: each rater right with its own
    accuracy, otherwise a neighbouring value; a share ``missing`` of the labels left out."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, n)
    accuracy = np.linspace(0.85, 0.65, k)
    right = rng.random((n, k)) < accuracy
    noise = np.clip(truth[:, None] + rng.choice([-1, 1], (n, k)), 1, q)
    labels = np.where(right, truth[:, None], noise)
    present = rng.random((n, k)) >= missing
    present[:, :2] = True  # every item has two labels
    item, rater = np.nonzero(present)
    return item, rater, labels[item, rater]


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--raters", type=int, default=5)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--missing", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args()

    import krippendorff
    from irrCAC.raw import CAC

    item, rater, label = make_data(args.items, args.raters, args.classes, args.missing)

    def humanly_input() -> humanly.Ratings:
        return humanly.Ratings.from_long(item, rater, label)

    def matrix_input() -> np.ndarray:
        matrix = np.full((args.items, args.raters), np.nan)
        matrix[item, rater] = label
        return matrix

    def frame_input() -> pd.DataFrame:
        return pd.DataFrame(matrix_input(), columns=[f"r{j}" for j in range(args.raters)])

    ratings = humanly_input()
    frame = frame_input()
    reliability = matrix_input().T
    t_humanly = best(humanly_input, args.repeat)
    t_matrix = best(lambda: matrix_input().T, args.repeat)
    t_frame = best(frame_input, args.repeat)
    categories = [float(c) for c in range(1, args.classes + 1)]

    def irr(weights: str) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return CAC(frame, weights=weights, categories=categories)

    cases: list[tuple[str, str, dict[str, Any], Callable[[], Any], str]] = [
        (
            "percent agreement",
            "percent_agreement",
            {},
            lambda: irr("identity").bp(),
            "irrCAC (pa of bp())",
        ),
        ("Conger's κ", "conger_kappa", {}, lambda: irr("identity").conger(), "irrCAC conger()"),
        ("Fleiss' κ", "fleiss_kappa", {}, lambda: irr("identity").fleiss(), "irrCAC fleiss()"),
        ("Gwet's AC1", "gwet_ac1", {}, lambda: irr("identity").gwet(), "irrCAC gwet()"),
        (
            "Gwet's AC2, ordinal weights",
            "gwet_ac2",
            {"scale": "ordinal"},
            lambda: irr("ordinal").gwet(),
            "irrCAC gwet()",
        ),
        ("Brennan–Prediger", "brennan_prediger", {}, lambda: irr("identity").bp(), "irrCAC bp()"),
        (
            "weighted κ, quadratic",
            "fleiss_kappa",
            {"scale": "interval"},
            lambda: irr("quadratic").fleiss(),
            "irrCAC fleiss()",
        ),
    ]
    for scale in ("nominal", "ordinal", "interval", "ratio"):
        cases.append(
            (
                f"Krippendorff's α, {scale}",
                "krippendorff_alpha",
                {"scale": scale},
                lambda s=scale: krippendorff.alpha(
                    reliability_data=reliability, level_of_measurement=s
                ),
                "krippendorff.alpha",
            )
        )
    cases.append(
        (
            "Krippendorff's α, Gwet's ordinal weights",
            "krippendorff_alpha_weighted",
            {"scale": "ordinal"},
            lambda: irr("ordinal").krippendorff(),
            "irrCAC krippendorff()",
        )
    )

    rows = []
    print(
        f"agreement on {args.items:,} items × {args.raters} raters, {args.classes} classes, "
        f"{len(item):,} labels (best of {args.repeat}; ratio: reference seconds / humanly seconds)"
    )
    print(
        f"building the inputs: humanly Ratings {t_humanly:.3f} s, krippendorff matrix "
        f"{t_matrix:.3f} s, irrCAC DataFrame {t_frame:.3f} s"
    )
    head = ("coefficient", "humanly s", "ref s", "ratio", "e2e ratio")
    print(f"{head[0]:44s} {head[1]:>10s} {head[2]:>8s} {head[3]:>7s} {head[4]:>10s}  reference")
    for label, name, kwargs, reference, ref_name in cases:
        mine = best(
            lambda n=name, kw=kwargs: agreement(ratings, coefficients=[n], bootstrap=0, **kw),
            args.repeat,
        )
        theirs = best(reference, args.repeat)
        build = t_matrix if ref_name.startswith("krippendorff") else t_frame
        e2e = (theirs + build) / (mine + t_humanly)
        rows.append(
            {
                "coefficient": label,
                "humanly_s": mine,
                "reference_s": theirs,
                "ratio": theirs / mine,
                "end_to_end_ratio": e2e,
                "reference": ref_name,
            }
        )
        print(
            f"{label:44s} {mine:10.3f} {theirs:8.3f} {theirs / mine:7.1f} {e2e:10.1f}  {ref_name}",
            flush=True,
        )
    family = best(lambda: agreement(ratings, scale="ordinal", bootstrap=0), args.repeat)
    boot = best(lambda: agreement(ratings, scale="ordinal", bootstrap=1000), 1)
    print(f"{'the whole family (ordinal), no bootstrap':44s} {family:10.3f}")
    print(f"{'the whole family (ordinal), 1,000 bootstraps':44s} {boot:10.3f}")
    rows.append({"coefficient": "family, no bootstrap", "humanly_s": family})
    rows.append({"coefficient": "family, 1000 bootstraps", "humanly_s": boot})
    for key, what in (("ratio", "call"), ("end_to_end_ratio", "end to end")):
        low = min(r[key] for r in rows if key in r)
        verdict = "faster everywhere" if low > 1 else "NOT faster everywhere"
        print(f"smallest ratio, {what}: {low:.1f}× ({verdict})")
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()


# ---------------------------------------------------------------------------- from a Parquet file

#: the timed part of each child (after its imports); ``PATH`` and ``B`` are set before it runs
_CHILD = {
    "humanly_family": """
from humanly.data import ReadOptions, read_study
from humanly.crowd.family import agreement
from humanly.report.verdicts.agreement import family_rows
t0 = time.perf_counter()
res = agreement(read_study(PATH, options=ReadOptions(scale="ordinal")), bootstrap=B)
rows = family_rows(res)
seconds = time.perf_counter() - t0
values = {c.name: c.estimate for c in res.coefficients}
""",
    "humanly_alpha": """
from humanly.data import read_study
from humanly.crowd.family import agreement
t0 = time.perf_counter()
r = read_study(PATH).ratings
values = {s: agreement(r, scale=s, coefficients=["krippendorff_alpha"], bootstrap=0)[
    "krippendorff_alpha"].estimate for s in ("nominal", "ordinal", "interval", "ratio")}
seconds = time.perf_counter() - t0
""",
    "krippendorff": """
import pandas as pd, krippendorff
t0 = time.perf_counter()
df = pd.read_parquet(PATH)
data = df.pivot(index="rater", columns="item", values="label").to_numpy(float)
values = {s: float(krippendorff.alpha(reliability_data=data, level_of_measurement=s))
          for s in ("nominal", "ordinal", "interval", "ratio")}
seconds = time.perf_counter() - t0
""",
    "irrcac": """
import warnings, pandas as pd
from irrCAC.raw import CAC
warnings.simplefilter("ignore")
t0 = time.perf_counter()
df = pd.read_parquet(PATH)
wide = df.pivot(index="item", columns="rater", values="label").astype(float)
cac = CAC(wide, weights="ordinal", categories=[1.0, 2.0, 3.0, 4.0, 5.0])
out = {f: getattr(cac, f)() for f in ("bp", "conger", "fleiss", "gwet", "krippendorff")}
seconds = time.perf_counter() - t0
values = {f: float(o["est"]["coefficient_value"]) for f, o in out.items()}  # rounded to 5 decimals
""",
}

_PRELUDE = "import json, resource, sys, time\nPATH, B = sys.argv[1], int(sys.argv[2])\n"
_REPORT = (
    "\nprint(json.dumps({'seconds': seconds, 'values': values, "
    "'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))"
)


def make_parquet(path: Path, labels: int, seed: int = 0) -> int:
    """A long Parquet file of about ``labels`` labels (5 raters, 5 ordered classes, 10% missing
    beyond the first two raters); returns the exact number of labels."""
    items = max(round(labels / 4.7), 10)
    item, rater, label = make_data(items, 5, 5, 0.1, seed)
    frame = pd.DataFrame(
        {"item": item, "rater": "r" + pd.Series(rater).astype(str), "label": label}
    )
    frame.to_parquet(path, index=False)
    return len(frame)


def _child(which: str, path: Path, bootstrap: int = 0) -> dict[str, Any]:
    code = _PRELUDE + _CHILD[which] + _REPORT
    cmd = [sys.executable, "-c", code, str(path), str(bootstrap)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cli(path: Path) -> float:
    """Wall time of ``humanly agreement FILE --scale ordinal --bootstrap 0`` (start-up included)."""
    cmd = [sys.executable, "-m", "humanly", "agreement", str(path), "--scale", "ordinal"]
    t0 = time.perf_counter()
    subprocess.run([*cmd, "--bootstrap", "0"], check=True, capture_output=True)
    return time.perf_counter() - t0


def _stats(runs: list[dict[str, Any]]) -> dict[str, Any]:
    secs = [r["seconds"] for r in runs]
    return {
        "median_s": statistics.median(secs),
        "min_s": min(secs),
        "max_s": max(secs),
        "runs": len(secs),
        "peak_mb": max(r["peak_mb"] for r in runs),
    }


def measure(labels: int, repeat: int) -> list[dict[str, Any]]:
    """The rows: humanly against each reference on the same Parquet file, fresh process per run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ratings.parquet"
        n = make_parquet(path, labels)
        runs = {
            w: [_child(w, path) for _ in range(repeat)] for w in _CHILD if w != "humanly_family"
        }
        runs["humanly_family"] = [_child("humanly_family", path) for _ in range(repeat)]
        boot = [_child("humanly_family", path, 1000)]
        cli = [_cli(path) for _ in range(repeat)]
    stats = {w: _stats(r) for w, r in runs.items()}
    h, k = runs["humanly_alpha"][0]["values"], runs["krippendorff"][0]["values"]
    gap = max(abs(h[s] - k[s]) for s in h)
    fam, irr = runs["humanly_family"][0]["values"], runs["irrcac"][0]["values"]
    pairs = {"bp": "brennan_prediger", "conger": "conger_kappa", "fleiss": "fleiss_kappa",
             "gwet": "gwet_ac2", "krippendorff": "krippendorff_alpha_weighted"}  # fmt: skip
    gap_irr = max(abs(irr[f] - fam[name]) for f, name in pairs.items())
    size = f"{n:,} labels (5 raters, 5 classes, ragged), long Parquet"
    rows = [
        {
            "name": f"agreement: α at 4 scales from Parquet, {n:,} labels",
            **stats["humanly_alpha"],
            "baseline": "pandas.read_parquet + pivot + krippendorff.alpha ×4",
            "ratio": stats["krippendorff"]["median_s"] / stats["humanly_alpha"]["median_s"],
            "target": "> 1 (issue 27)",
            "notes": f"{size}; reference {stats['krippendorff']['median_s']:.2f} s; "
            f"largest |α difference| {gap:.1e}",
        },
        {
            "name": f"agreement: the family with SEs from Parquet, {n:,} labels",
            **stats["humanly_family"],
            "baseline": "pandas.read_parquet + pivot + irrCAC bp/conger/fleiss/gwet/krippendorff",
            "ratio": stats["irrcac"]["median_s"] / stats["humanly_family"]["median_s"],
            "target": "> 1 (issue 27)",
            "notes": f"{size}; humanly: the whole ordinal family and the table's cells; reference "
            f"{stats['irrcac']['median_s']:.2f} s; largest |difference| {gap_irr:.1e} (irrCAC rounds "
            "to 5 decimals)",
        },
        {
            "name": f"agreement: the family + 1,000 bootstraps from Parquet, {n:,} labels",
            **_stats(boot),
            "baseline": None,
            "ratio": None,
            "target": None,
            "notes": "neither reference has a bootstrap",
        },
        {
            "name": f"humanly agreement FILE --scale ordinal --bootstrap 0, {n:,} labels",
            "median_s": statistics.median(cli),
            "min_s": min(cli),
            "max_s": max(cli),
            "runs": len(cli),
            "peak_mb": None,
            "baseline": None,
            "ratio": None,
            "target": None,
            "notes": "wall time of the command, start-up included",
        },
    ]
    return rows


# ---------------------------------------------------------------------------- α from counts (issue 34)


def counts_data(n: int, q: int, seed: int = 0) -> humanly.Ratings:
    """Anonymous ragged counts: 1–11 labels per item, each right with probability 0.7."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n)
    item = np.repeat(np.arange(n), rng.integers(1, 12, n))
    label = np.where(rng.random(len(item)) < 0.7, truth[item], rng.integers(0, q, len(item)))
    counts = np.zeros((n, q), dtype=np.int64)
    np.add.at(counts, (item, label), 1)
    return humanly.Ratings.from_counts(counts)


def measure_counts(n: int, repeat: int) -> list[dict[str, Any]]:
    """α from counts against krippendorff's value_counts, interleaved, same data and process."""
    import krippendorff

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "crowd"))
    from ds_sim import relevance_like  # the relevance analogue, shared with the tests

    cases = {
        f"anonymous counts, {n:,} ragged items, 5 classes": counts_data(n, 5),
        f"anonymous counts, {n:,} ragged items, 10 classes": counts_data(n, 10, 1),
        f"relevance-like, {n:,} items, 700 raters, 4 classes": relevance_like(
            0, n_items=n, n_raters=700, max_labels=7
        ),
    }
    rows = []
    for label, r in cases.items():
        value_counts = np.asarray(r.counts, dtype=float)
        for scale in ("nominal", "interval"):
            ours, theirs = [], []
            for _ in range(repeat):
                t0 = time.perf_counter()
                res = agreement(r, scale=scale, coefficients=["krippendorff_alpha"], bootstrap=0)
                ours.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                ref = krippendorff.alpha(value_counts=value_counts, level_of_measurement=scale)
                theirs.append(time.perf_counter() - t0)
            gap = abs(res["krippendorff_alpha"].estimate - ref)
            rows.append(
                {
                    "name": f"agreement: α ({scale}) from counts, {label}",
                    "median_s": statistics.median(ours),
                    "min_s": min(ours),
                    "max_s": max(ours),
                    "runs": repeat,
                    "peak_mb": None,
                    "baseline": "krippendorff.alpha(value_counts=...) 0.9.0, in process",
                    "ratio": min(theirs) / min(ours),
                    "target": "≥ 0.67: within 1.5× (issue 34)",
                    "notes": f"{r.n_labels:,} labels; reference {min(theirs) * 1e3:.1f} ms; "
                    f"|α difference| {gap:.1e}; humanly adds Gwet's SE, interval, p-value, readings",
                }
            )
    return rows


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py: 10⁶ labels (10⁵ with ``quick``), 3 runs each; α from
    counts on 10⁵ items (10⁴ with ``quick``), 5 interleaved runs."""
    return measure(100_000 if quick else 1_000_000, 3) + measure_counts(
        10_000 if quick else 100_000, 5
    )


if __name__ == "__main__":
    if "--counts" in sys.argv or "--e2e" in sys.argv:
        ap = argparse.ArgumentParser()
        ap.add_argument("--counts", action="store_true", help="α from counts vs krippendorff")
        ap.add_argument("--e2e", action="store_true", help="the family from a Parquet file")
        ap.add_argument("--items", type=int, default=100_000, help="with --counts")
        ap.add_argument("--labels", type=int, default=1_000_000, help="with --e2e")
        ap.add_argument("--repeat", type=int, default=None)
        a = ap.parse_args()
        if a.counts:
            rows = measure_counts(a.items, a.repeat or 5)
        else:
            rows = measure(a.labels, a.repeat or 3)
        for row in rows:
            print(json.dumps(row, allow_nan=False), flush=True)
    else:
        main()
