"""Speed of ``humanly report`` on ChaosNLI-SNLI-size data (issue 34 item 1): 1,514 items × 100 labels
× 3 classes and two soft models, every default (1,000 bootstrap replicates, the certify curve, the
equivalence power curve at every k, the K-class budget pilot), as a fresh process: start-up, reading
the two CSV files, every analysis and writing the page. Target: ≤ 30 s end to end and ≤ 2 GB on 2 cores.

The data are simulated to look like ChaosNLI (the real file is not under ../shared): each item's label
shares are drawn from a Dirichlet around one of three states, and two models (BERT- and RoBERTa-like)
see each item's state through noise of their own. There is no reference package that writes such a
page, so the row has no baseline; it gives the wall-clock and CPU seconds of the child process.

    python benchmarks/report_bench.py [--quick] [--repeat R] [--farm] [--eta]

``--farm`` prints the ``farm-bench`` command that times it over several runs (the figure BENCHMARKS.md
quotes) and runs it. ``--eta`` also runs the command with its progress lines on (every second) and
compares each "about N s left" with the time the process then took (issue 34 item 2: within 2× from
10% of the run on). Quote a figure only when measured on a quiet machine.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fresh import as_installed


def chaos_like(folder: Path, n: int = 1514, k: int = 100, seed: int = 0) -> list[Path]:
    """Write ``chaos.csv`` (long ratings) and ``chaos.predictions.csv`` (two soft models) to
    ``folder`` with the generator of ``survey_scale_bench.py``; the paths written."""
    from survey_scale_bench import DATA

    space: dict[str, Any] = {}
    exec(DATA, space)  # the generator, as the survey scale benchmark runs it in its child
    return list(space["chaos_like"](n, k, seed).write(folder / "chaos.csv"))


def _command(folder: Path) -> list[str]:
    return [
        sys.executable, "-m", "humanly", "--quiet", "report", str(folder / "chaos.csv"),
        "--predictions", str(folder / "chaos.predictions.csv"), "-o", str(folder / "r.html"),
        "--force",
    ]  # fmt: skip


def _timed(cmd: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s of the child, peak MB of the child) of one run."""
    import resource
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def eta(cmd: list[str], interval: float = 1.0) -> tuple[float, float, int]:
    """Issue 34 item 2 as the user sees it: run ``cmd`` without ``--quiet`` (progress lines every
    ``interval`` s on the piped stderr) and compare each line's "about N s left" with the time the
    process then really took. (wall s, the worst ratio either way from 10% of the run on — lines
    with less than 1 s left, a line's resolution, not counted —, lines compared)."""
    import os
    import re
    import time

    env = dict(os.environ, HUMANLY_PROGRESS_INTERVAL=str(interval))
    shown = [c for c in cmd if c != "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        shown, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    assert proc.stderr is not None
    lines = [(time.perf_counter() - t0, line) for line in proc.stderr]
    proc.wait()
    wall = time.perf_counter() - t0
    worst, compared = 1.0, 0
    for at, line in lines:
        m = re.search(r"about ([\d.]+) (s|min) left", line)
        true_left = wall - at
        if m is None or at < 0.1 * wall or true_left < 1.0:
            continue
        said = float(m.group(1)) * (60 if m.group(2) == "min" else 1)
        compared += 1
        worst = max(worst, said / true_left, true_left / max(said, 1e-9))
    return wall, worst, compared


def run(
    quick: bool = False, repeat: int | None = None, farm: bool = False, check_eta: bool = False
) -> list[dict[str, Any]]:
    repeat = repeat or (1 if quick else 3)
    n, k = (300, 30) if quick else (1514, 100)
    as_installed()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        chaos_like(folder, n, k)
        cmd = _command(folder)
        if farm and shutil.which("farm-bench"):
            bench = ["farm-bench", "-n", str(repeat), "--warmup", "0", "--timeout", "900"]
            bench += ["--", *cmd]
            print(" ".join(bench))
            print(subprocess.run(bench, capture_output=True, text=True).stdout)
        runs = [_timed(cmd) for _ in range(repeat)]
        etas = [eta(cmd) for _ in range(repeat)] if check_eta else []
    walls = [r[0] for r in runs]
    eta_note = ""
    if etas:
        worst = max(e[1] for e in etas)
        eta_note = (
            f"; time left shown vs true: worst {worst:.2f}× from 10% of the run on "
            f"({sum(e[2] for e in etas)} progress lines over {len(etas)} runs with progress on)"
        )
    return [
        {
            "name": f"humanly report, ChaosNLI-like {n:,} items × {k} labels × 3 classes, 2 models",
            "median_s": statistics.median(walls),
            "min_s": min(walls),
            "max_s": max(walls),
            "cpu_s": statistics.median(r[1] for r in runs),
            "runs": repeat,
            "peak_mb": max(r[2] for r in runs),
            "baseline": None,
            "ratio": None,
            "target": "≤ 30 s and ≤ 2 GB end to end on 2 cores",
            "notes": "whole process, defaults (1,000 bootstrap replicates)" + eta_note,
        }
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int)
    parser.add_argument("--farm", action="store_true")
    parser.add_argument("--eta", action="store_true", help="also check the time left shown")
    args = parser.parse_args()
    for row in run(args.quick, args.repeat, args.farm, args.eta):
        print(
            f"{row['name']}: median {row['median_s']:.3g} s, {row['cpu_s']:.3g} CPU s (min "
            f"{row['min_s']:.3g}, max {row['max_s']:.3g}, {row['runs']} runs), peak "
            f"{row['peak_mb']:.0f} MB; target {row['target']}; {row['notes']}"
        )


if __name__ == "__main__":
    main()
