"""Speed of ``humanly.survey`` (survey equivalence, paper 3).

Measurements (issue 4 targets):

* running example, 1,000 items × 10 raters, 500 bootstraps: majority + agreement, frequency +
  cross-entropy, ABC + cross-entropy — target < 2 s each (the whole analysis: power curve, two
  models, equivalences, 500 bootstrap replicates with the ABC re-learned on each);
* 10^6 items × 20 labels × 3 classes (anonymous counts), ABC + cross-entropy, 200 bootstraps —
  target < 60 s and < 4 GB (peak traced memory of the call);
* the command line's work on the running example (issue 16): ``humanly equivalence FILE
  --predictions FILE.predictions.csv --combiner abc --scorer cross_entropy --bootstrap 500`` run
  in-process after start-up (reading both files, importing the survey code, the analysis, the
  table) — target ≤ 0.5 s;
* many classes (issue 17.1): ABC + cross-entropy, 500 bootstraps, on 200 items × 5 labels over 200
  classes and 2,000 items × 5 labels over 60 classes, each in a fresh process under a 3 GB
  address-space limit (``resource.RLIMIT_AS``) — wall time and peak resident memory.

Baseline: the reference package ``surveyequivalence==0.1.3`` through ``benchmarks/survey_reference.py``
(its own virtual environment), timed on a few bootstrap samples on the same 1,000 × 10 files and
projected to 500 bootstraps (set-up + 501 × time per power curve). It runs when its cached venv
``benchmarks/.ref-venv`` exists or with ``--reference`` (which builds it); otherwise ``ratio`` is None.

    python benchmarks/survey_bench.py [--quick] [--repeat R] [--reference] [--no-big]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from humanly import Predictions, Ratings
from humanly.simulate import running_example
from humanly.survey import EquivalenceOptions, equivalence

#: no progress bar in a timed run
QUIET = EquivalenceOptions(progress=False)

HERE = Path(__file__).resolve().parent
COMBOS = (("majority", "agreement"), ("frequency", "cross_entropy"), ("abc", "cross_entropy"))


def big_counts(n_items: int, k: int = 20, seed: int = 0) -> tuple[Ratings, Predictions]:
    """n items × k labels over 3 classes: a Dirichlet-smeared mixture of three states, and a soft model
    that sees the state with noise."""
    g = np.random.default_rng(seed)
    comp = g.choice(3, size=n_items)
    theta = 0.5 * g.dirichlet(np.ones(3), size=n_items) + 0.5 * np.eye(3)[comp]
    counts = np.zeros((n_items, 3), dtype=np.int64)
    step = 200_000
    for s in range(0, n_items, step):
        th = theta[s : s + step]
        u = g.random((len(th), k))
        lab = (u[:, :, None] > np.cumsum(th, axis=1)[:, None, :]).sum(-1)
        counts[s : s + step] = np.stack([(lab == c).sum(1) for c in range(3)], axis=1)
    ratings = Ratings.from_counts(counts, classes=["a", "b", "c"])
    preds = Predictions.from_arrays(
        ratings.items, {"model": 0.7 * theta + 0.1}, classes=ratings.classes
    )
    return ratings, preds


def _time(fn: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def _peak_mb(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _row(name: str, times: list[float], **kw: Any) -> dict[str, Any]:
    row = {
        "name": name,
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "runs": len(times),
        "peak_mb": None,
        "baseline": None,
        "ratio": None,
        "target": None,
        "notes": "",
    }
    row.update(kw)
    return row


def _reference(
    folder: Path, combos: tuple[tuple[str, str], ...], n_bootstrap: int, build: bool
) -> dict[str, dict[str, Any]]:
    sys.path.insert(0, str(HERE))
    try:
        import survey_reference as ref
    except ImportError:
        return {}
    if not build and not (HERE / ".ref-venv" / "bin" / "python").exists():
        return {}
    try:
        ref.ensure_reference_venv()
        ratings_csv, preds_csv = ref.write_running_example(folder, 1000, 10, seed=0)
        return ref.reference_timings(ratings_csv, preds_csv, list(combos), n_bootstrap)
    except Exception as exc:  # the reference is optional: report, never fail the benchmark
        return {f"{c}+{s}": {"error": str(exc)} for c, s in combos}


def measure(
    quick: bool = False, repeat: int = 5, reference: bool = False, big: bool = True
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    data = running_example(1000, 10, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        refs = _reference(Path(tmp), COMBOS[2:] if quick else COMBOS, 1 if quick else 2, reference)
    for comb, sc in COMBOS:

        def call(comb: str = comb, sc: str = sc) -> Any:
            return equivalence(
                data.ratings,
                data.predictions,
                combiner=comb,
                scorer=sc,
                bootstrap=500,
                seed=0,
                options=QUIET,
            )

        call()  # warm-up (imports, caches)
        times = _time(call, repeat)
        r = refs.get(f"{comb}+{sc}", {})
        base = r.get("projected_seconds_500")
        ratio = base / statistics.median(times) if base else None
        note = (
            f"reference surveyequivalence 0.1.3: {base:.0f} s projected for 500 bootstraps "
            f"(set-up {r['seconds_setup']:.1f} s + 501 × {r['seconds_per_curve']:.2f} s per curve)"
            if base
            else ("reference failed: " + r["error"] if "error" in r else "reference not run")
        )
        rows.append(
            _row(
                f"survey {comb}+{sc} 1000x10 500 bootstraps",
                times,
                peak_mb=_peak_mb(call),
                baseline="surveyequivalence 0.1.3 (projected)" if base else None,
                ratio=ratio,
                target="< 2 s",
                notes=note,
            )
        )
    if big:
        n = 100_000 if quick else 1_000_000
        n_boot = 50 if quick else 200
        ratings, preds = big_counts(n)

        def call_big() -> Any:
            return equivalence(ratings, preds, bootstrap=n_boot, seed=0, options=QUIET)

        times = _time(call_big, 3 if quick else repeat)
        peak = _peak_mb(call_big)
        rows.append(
            _row(
                f"survey abc+cross_entropy {n}x20x3 {n_boot} bootstraps",
                times,
                peak_mb=peak,
                target="< 60 s, < 4 GB" if not quick else None,
                notes="anonymous counts; one process; peak = traced allocations of one call "
                "(inputs excluded)",
            )
        )
    return rows


CLI_SCRIPT = """
import contextlib, io, sys, time
t0 = time.perf_counter()
from humanly.cli import app
t1 = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        app(sys.argv[1:], standalone_mode=False)
    except SystemExit:
        pass
print(time.perf_counter() - t1, t1 - t0)
"""

CLASSES_SCRIPT = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import numpy as np
from humanly import Predictions, Ratings
from humanly.survey import EquivalenceOptions, equivalence
n, n_cls = int(sys.argv[1]), int(sys.argv[2])
g = np.random.default_rng(0)
fav = g.integers(0, n_cls, size=n)
lab = np.where(g.random((n, 5)) < 0.6, fav[:, None], g.integers(0, n_cls, (n, 5)))
counts = np.zeros((n, n_cls), dtype=np.int64)
np.add.at(counts, (np.repeat(np.arange(n), 5), lab.ravel()), 1)
r = Ratings.from_counts(counts)
p = np.full((n, n_cls), 0.4 / (n_cls - 1))
p[np.arange(n), fav] = 0.6
preds = Predictions.from_arrays(r.items, {"m": p}, classes=r.classes)
t = time.perf_counter()
equivalence(r, preds, bootstrap=500, options=EquivalenceOptions(progress=False))
print(time.perf_counter() - t, _peak_mb())
"""


def cli_rows(repeat: int) -> list[dict[str, Any]]:
    """The command's in-process time on the running example (see the module docstring), each run in
    a fresh process so that the lazy imports are counted."""
    import subprocess

    from humanly.simulate import running_example as rex

    with tempfile.TemporaryDirectory() as tmp:
        paths = rex(1000, 10, seed=0).write(Path(tmp) / "re.csv")
        args = ["equivalence", str(paths["ratings"]), "--predictions", str(paths["predictions"]),
                "--combiner", "abc", "--scorer", "cross_entropy", "--bootstrap", "500"]  # fmt: skip
        runs = [
            subprocess.run(
                [sys.executable, "-c", CLI_SCRIPT, *args], capture_output=True, text=True
            ).stdout.split()
            for _ in range(repeat)
        ]
    times = [float(r[0]) for r in runs]
    start = statistics.median(float(r[1]) for r in runs)
    return [
        _row(
            "survey CLI work in-process, running example 1000x10 abc+cross_entropy 500 bootstraps",
            times,
            target="<= 0.5 s",
            notes=f"after start-up (import humanly.cli: median {start:.2f} s); fresh process per run",
        )
    ]


def class_rows() -> list[dict[str, Any]]:
    """Many classes under a 3 GB address-space limit (see the module docstring)."""
    import subprocess

    sys.path.insert(0, str(HERE))
    from _fresh import PEAK_MB

    rows = []
    for n, n_cls in ((200, 200), (2000, 60)):
        out = subprocess.run(
            [sys.executable, "-c", PEAK_MB + CLASSES_SCRIPT, str(n), str(n_cls)],
            capture_output=True,
            text=True,
        )
        if out.returncode:
            rows.append(_row(f"survey abc {n}x5x{n_cls}", [float("nan")], notes=out.stderr[-300:]))
            continue
        sec, rss = (float(x) for x in out.stdout.split())
        rows.append(
            _row(
                f"survey abc+cross_entropy {n} items x 5 labels x {n_cls} classes, 500 bootstraps",
                [sec],
                peak_mb=rss,
                target="seconds, < 3 GB address space",
                notes="fresh process, RLIMIT_AS 3 GB; peak = the process's resident high-water mark (VmHWM)",
            )
        )
    return rows


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py."""
    return measure(quick=quick) + cli_rows(3 if quick else 5) + class_rows()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", help="10^5 items and 50 bootstraps for the large case"
    )
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--reference", action="store_true", help="build and run the reference package")
    ap.add_argument("--no-big", action="store_true", help="skip the 10^6-item case")
    a = ap.parse_args()
    rows = measure(quick=a.quick, repeat=a.repeat, reference=a.reference, big=not a.no_big)
    rows += cli_rows(a.repeat) + class_rows()
    for r in rows:
        extra = f", peak {r['peak_mb']:.1f} MB" if r["peak_mb"] is not None else ""
        ratio = f", {r['ratio']:,.0f}× faster than the reference" if r["ratio"] else ""
        print(
            f"{r['name']}: median {r['median_s']:.3f} s (min {r['min_s']:.3f} – max "
            f"{r['max_s']:.3f}, {r['runs']} runs){extra}{ratio}; target {r['target']}"
        )
        if r["notes"]:
            print(f"    {r['notes']}")


if __name__ == "__main__":
    main()
