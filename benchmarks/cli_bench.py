"""Commands timed as a user runs them: whole processes, start-up included (issue 16's targets).

    python benchmarks/cli_bench.py [--quick] [--reference]

Each row runs the installed ``humanly`` script (the one beside this interpreter) ``repeat`` times in a
fresh process and reports the median, min and max wall time:

* ``humanly --help`` and ``humanly certify --help`` (target ≤ 0.25 s), against ``python -c pass`` (the
  interpreter alone) as the baseline;
* ``humanly budget win --p 0.8 --eps 0.01 --q 0.8`` (target ≤ 0.6 s);
* ``humanly inspect ../shared/data/product/answer.csv`` (8,315 items; target ≤ 0.8 s; skipped without
  ``../shared``);
* ``humanly equivalence`` on the Survey Equivalence running example (1,000 items × 10 labels, ABC +
  cross-entropy, 500 bootstraps; target ≤ 1.0 s end to end), against ``surveyequivalence==0.1.3`` timed
  end to end in the same run: its interpreter start-up and imports (a fresh process in its own venv), its
  one-off set-up, and 501 power curves (the actual items and 500 bootstraps) projected from the time per
  curve of two timed bootstraps — 500 would take hours. Target ratio ≥ 5,000×. The reference is timed
  twice: as the package's own running example runs it (``verbosity=1``: a random held-out label per
  item) and on its fastest path for a complete matrix (``verbosity=0``: each held-out column; the same
  numbers, see quirk 4 in docs/reference.md). It runs when its venv exists (``benchmarks/.ref-venv``) or
  with ``--reference``, which builds it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
HUMANLY = Path(sys.executable).with_name("humanly")


def _wall(args: list[str], repeat: int, cwd: Path | None = None) -> list[float]:
    """Wall times of ``args`` run ``repeat`` times as fresh processes (after one untimed warm-up that
    fills the OS file cache, as on a user's second run)."""
    env = dict(os.environ, MPLBACKEND="Agg")
    subprocess.run(args, capture_output=True, cwd=cwd, env=env, check=True)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, capture_output=True, cwd=cwd, env=env, check=True)
        times.append(time.perf_counter() - start)
    return times


def _row(name: str, times: list[float], **kw: Any) -> dict[str, Any]:
    return {
        "name": name,
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "runs": len(times),
    } | kw


def _reference_end_to_end(folder: Path, build: bool, verbosity: int) -> tuple[float | None, str]:
    """surveyequivalence 0.1.3 end to end for 500 bootstraps (seconds, how it was obtained)."""
    sys.path.insert(0, str(HERE))
    import survey_reference as ref

    if not build and not (HERE / ".ref-venv" / "bin" / "python").exists():
        return None, "reference not run (no benchmarks/.ref-venv; pass --reference to build it)"
    python = ref.ensure_reference_venv()
    start = _wall([str(python), "-c", "import surveyequivalence"], 3)
    ratings_csv, preds_csv = ref.write_running_example(folder, 1000, 10, seed=0)
    res = ref.reference_timings(
        ratings_csv, preds_csv, [("abc", "cross_entropy")], 2, verbosity=verbosity
    )
    r = res["abc+cross_entropy"]
    if "error" in r:
        return None, f"reference failed: {r['error']}"
    total = statistics.median(start) + r["projected_seconds_500"]
    how = (
        f"surveyequivalence 0.1.3 (verbosity={verbosity}) end to end {total:,.0f} s: start-up "
        f"{statistics.median(start):.2f} s + set-up {r['seconds_setup']:.1f} s + 501 × "
        f"{r['seconds_per_curve']:.2f} s per curve (projected from 2 timed bootstraps)"
    )
    return total, how


def run(quick: bool = False, reference: bool = False) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py."""
    repeat = 5 if quick else 11
    rows = []
    bare = _wall([sys.executable, "-c", "pass"], repeat)
    for args, label in (
        (["--help"], "humanly --help"),
        (["certify", "--help"], "humanly certify --help"),
    ):
        times = _wall([str(HUMANLY), *args], repeat)
        rows.append(
            _row(
                label,
                times,
                baseline=f"python -c pass ({statistics.median(bare):.3f} s)",
                ratio=statistics.median(bare) / statistics.median(times),
                target="≤ 0.25 s",
                notes="fresh process; imports no numpy, pandas, scipy, matplotlib or pyarrow",
            )
        )
    win = ["budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8"]
    rows.append(
        _row(
            "humanly budget win --p 0.8 --eps 0.01 --q 0.8",
            _wall([str(HUMANLY), *win], repeat),
            target="≤ 0.6 s",
            notes="fresh process; exact win probabilities for m = 1, 3, 5 at a budget of 1,500 labels",
        )
    )
    product = SHARED / "data" / "product" / "answer.csv"
    if product.exists():
        rows.append(
            _row(
                "humanly inspect product/answer.csv (8,315 items × 3 labels)",
                _wall([str(HUMANLY), "inspect", str(product)], repeat),
                target="≤ 0.8 s",
                notes="fresh process; agreement with 95% bootstrap intervals (1,000 resamples), "
                "per-rater agreement and Dawid–Skene accuracy",
            )
        )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        from humanly.simulate import running_example

        paths = running_example(1000, 10, seed=0).write(folder / "re.csv")
        args = [str(HUMANLY), "equivalence", str(paths["ratings"]), "--predictions",
                str(paths["predictions"]), "--combiner", "abc", "--scorer", "cross_entropy",
                "--bootstrap", "500"]  # fmt: skip
        times = _wall(args, repeat)
        ours = statistics.median(times)
        name = (
            "humanly equivalence, running example 1,000 × 10, abc + cross_entropy, 500 bootstraps"
        )
        if quick:
            rows.append(_row(name, times, target="≤ 1.0 s end to end", notes="fresh process"))
            return rows
        for verbosity, what in ((1, "as the package's example runs it"), (0, "its fastest path")):
            base, how = _reference_end_to_end(folder, reference, verbosity)
            rows.append(
                _row(
                    f"{name} (vs the reference, {what})",
                    times,
                    baseline=f"surveyequivalence 0.1.3 end to end, {what}" if base else None,
                    ratio=base / ours if base else None,
                    target="≤ 1.0 s end to end; ≥ 5,000× the reference",
                    notes="fresh process, start-up included; " + how,
                )
            )
    return rows


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reference", action="store_true", help="build the reference venv if missing")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from _fresh import as_installed

    as_installed()
    for r in run(quick=args.quick, reference=args.reference):
        print(r)


if __name__ == "__main__":
    main()
