"""Speed of ``humanly.rank``: 10⁶ comparisons between 100 models, two judges voting on every
comparison and human votes on a quarter of them; every estimator (win rates and Bradley–Terry
strengths, human-only, each judge, both judges; PPI++), the rank-sets, what each judge is worth and
the plan — in a fresh process, start-up and reading the three Parquet files included.

Target (issue 31): ≤ 5 s end to end on 2 cores, memory linear in the comparisons. Two paths are timed:
the Python API (``humanly.rank`` on the three files) and the command line, ``humanly rank human.parquet
--judge j1=… --judge j2=… --json > out.json`` (reading, joining, every estimator, the rank-sets, the
plan, and writing the ~10 MB JSON of the ``RankResult``). Baseline in the same run, also whole-process:
a pandas + scipy script that reads the human votes and fits the human-only Bradley–Terry model (L-BFGS
with an analytic gradient) — one of the ~16 fits humanly makes. Each row gives the wall-clock seconds
and the CPU seconds of the child process (user + system), the figure to read on a shared machine.

    python benchmarks/rank_bench.py [--quick] [--comparisons N] [--models M] [--human n]
        [--repeat R] [--farm] [--memory]

``--memory`` checks the memory claim instead: the Python API's peak resident memory in fresh processes
at ¼, ½ and all of the comparisons, less the peak of a process that only imports humanly and reads
the three files' libraries (pandas, pyarrow), and the MB each further 10⁶ comparisons add: linear when
that slope stays level from one size to the next (it does not grow).

``--farm`` times both commands with ``farm-bench`` (paired runs, A/B alternated) instead of the loop
below. The figures belong in BENCHMARKS.md only when measured on a quiet machine.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fresh import PEAK_MB, as_installed

OURS = (
    PEAK_MB
    + """
import sys
import humanly
folder = sys.argv[1]
res = humanly.rank(folder + "/human.parquet",
                   judges={"j1": folder + "/j1.parquet", "j2": folder + "/j2.parquet"})
best = res.best.strength
print(len(res.rankings), best.order[:3], best.row(best.order[0]).rank_set,
      round(res.best.win_rate.saving or 0, 3), f"peak {_peak_mb():.0f} MB")
"""
)

BASELINE = (
    PEAK_MB
    + """
import sys
import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit

votes = pd.read_parquet(sys.argv[1] + "/human.parquet")
models = sorted(set(votes["model_a"]) | set(votes["model_b"]))
code = {m: k for k, m in enumerate(models)}
a = votes["model_a"].map(code).to_numpy()
b = votes["model_b"].map(code).to_numpy()
y = votes["winner"].map({"model_a": 1.0, "model_b": 0.0, "tie": 0.5}).to_numpy()
m = len(models)

def loss(free):
    theta = np.concatenate([[0.0], free])
    d = theta[a] - theta[b]
    value = np.sum(np.logaddexp(0.0, d) - y * d)
    r = expit(d) - y
    g = np.bincount(a, weights=r, minlength=m) - np.bincount(b, weights=r, minlength=m)
    return value, g[1:]

fit = minimize(loss, np.zeros(m - 1), jac=True, method="L-BFGS-B")
theta = np.concatenate([[0.0], fit.x])
print(fit.nit, models[int(np.argmax(theta))], f"peak {_peak_mb():.0f} MB")
"""
)


def make(folder: Path, n: int, m: int, n_human: int, seed: int = 0) -> dict[str, Any]:
    """Comparisons between ``m`` models (uniform pairs, strengths N(0, 1)), the human vote on
    ``n_human`` of them (ties 20%), two judges (a good one, one that favours position A) on all."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    u = theta[a] - theta[b] + rng.normal(0, 1, n)  # each comparison's own quality difference
    names = np.array([f"model-{k:03d}" for k in range(m)], dtype=object)

    def votes(shift: float, scale: float, tie: float, size: int) -> np.ndarray:
        p = 1 / (1 + np.exp(-scale * (u[:size] + shift)))
        draw = rng.random(size)
        out = np.where(draw < p, "model_a", "model_b").astype(object)
        return np.where(rng.random(size) < tie, "tie", out)

    def frame(outcome: np.ndarray, size: int) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "id": np.arange(size),
                "model_a": pd.Categorical(names[a[:size]]),
                "model_b": pd.Categorical(names[b[:size]]),
                "winner": pd.Categorical(outcome),
            }
        )

    frame(votes(0.0, 1.0, 0.2, n_human), n_human).to_parquet(folder / "human.parquet")
    frame(votes(0.0, 2.0, 0.1, n), n).to_parquet(folder / "j1.parquet")
    frame(votes(0.7, 1.0, 0.05, n), n).to_parquet(folder / "j2.parquet")
    return {"comparisons": n, "models": m, "human": n_human}


IMPORTS = (
    PEAK_MB
    + """
import humanly, numpy, pandas, pyarrow.parquet, scipy.linalg
print(f"peak {_peak_mb():.0f} MB")
"""
)


def _peak(cmd: list[str]) -> float:
    """The ``peak N MB`` a child prints."""
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(out.rsplit("peak ", 1)[1].split()[0])


def memory(quick: bool = False, n: int | None = None, m: int | None = None) -> list[str]:
    """Peak resident MB of ``humanly.rank`` at ¼, ½ and 1 × ``n`` comparisons (human votes on a
    quarter), beyond the import-only peak, and that excess per 10⁶ comparisons."""
    n = n or (100_000 if quick else 1_000_000)
    m = m or (30 if quick else 100)
    as_installed()
    base = _peak([sys.executable, "-c", IMPORTS])
    lines = [f"imports only (humanly, numpy, pandas, pyarrow, scipy): peak {base:.0f} MB"]
    before: tuple[int, float] | None = None
    for size in (n // 4, n // 2, n):
        with tempfile.TemporaryDirectory() as tmp:
            make(Path(tmp), size, m, size // 4)
            peak = _peak([sys.executable, "-c", OURS, tmp])
        slope = (
            ""
            if before is None
            else (
                f"; {(peak - before[1]) / (size - before[0]) * 1e6:.0f} MB per 10⁶ more comparisons"
            )
        )
        lines.append(
            f"{size:,} comparisons, {m} models, 2 judges: peak {peak:.0f} MB, "
            f"{peak - base:.0f} MB above the imports{slope}"
        )
        before = (size, peak)
    return lines


def _process_times(
    cmd: list[str], repeat: int, stdout: Path | None = None
) -> tuple[list[float], list[float], str]:
    """Wall-clock and CPU seconds (the child's user + system) of ``repeat`` fresh runs, and what the
    last one printed (``stdout``: write its output to that file instead)."""
    import resource

    walls, cpus, last = [], [], ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        if stdout is None:
            done = subprocess.run(cmd, check=True, capture_output=True, text=True)
            last = done.stdout.strip()
        else:
            with open(stdout, "w", encoding="utf-8") as fh:
                subprocess.run(cmd, check=True, stdout=fh, stderr=subprocess.PIPE, text=True)
            last = f"{stdout.stat().st_size / 1e6:.1f} MB of JSON"
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return walls, cpus, last


def _farm(ours: list[str], base: list[str], repeat: int) -> str:
    tool = shutil.which("farm-bench")
    if tool is None:
        return "farm-bench not found"
    vs = " ".join(base)
    done = subprocess.run(
        [tool, "-n", str(repeat), "--timeout", "600", "--vs", vs, "--", *ours],
        capture_output=True,
        text=True,
    )
    return done.stdout + done.stderr


def run(
    quick: bool = False,
    n: int | None = None,
    m: int | None = None,
    n_human: int | None = None,
    repeat: int | None = None,
    farm: bool = False,
) -> list[dict[str, Any]]:
    n = n or (100_000 if quick else 1_000_000)
    m = m or (30 if quick else 100)
    n_human = n_human or n // 4
    repeat = repeat or (1 if quick else 5)
    as_installed()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make(folder, n, m, n_human)
        ours = [sys.executable, "-c", OURS, str(folder)]
        cli = [
            sys.executable,
            "-m",
            "humanly",
            "--quiet",
            "rank",
            str(folder / "human.parquet"),
            "--judge",
            f"j1={folder / 'j1.parquet'}",
            "--judge",
            f"j2={folder / 'j2.parquet'}",
            "--json",
        ]
        base = [sys.executable, "-c", BASELINE, str(folder)]
        if farm:
            print(_farm(ours, base, repeat))
        times, cpus, said = _process_times(ours, repeat)
        cli_times, cli_cpus, cli_said = _process_times(cli, repeat, folder / "out.json")
        base_times, base_cpus, base_said = _process_times(base, repeat)
    base_med = statistics.median(base_times)
    baseline = (
        f"pandas + scipy, human-only Bradley–Terry ({base_med:.3g} s, "
        f"{statistics.median(base_cpus):.3g} CPU s; {base_said})"
    )
    size = f"{n:,} comparisons ({n_human:,} human-voted), {m} models, 2 judges"
    rows = []
    for name, walls, cpu, notes in (
        (
            f"humanly.rank, {size}",
            times,
            cpus,
            f"import, 3 Parquet files, 4 rankings × 2 "
            f"families, rank-sets, judge checks, plan; {said}",
        ),
        (
            f"humanly rank --json (command line), {size}",
            cli_times,
            cli_cpus,
            f"the same, and the RankResult written as JSON ({cli_said})",
        ),
    ):
        med = statistics.median(walls)
        rows.append(
            {
                "name": name,
                "median_s": med,
                "min_s": min(walls),
                "max_s": max(walls),
                "cpu_s": statistics.median(cpu),
                "runs": repeat,
                "baseline": baseline,
                "ratio": base_med / med,
                "target": "≤ 5 s end to end on 2 cores",
                "notes": f"whole process: {notes}",
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--comparisons", type=int)
    parser.add_argument("--models", type=int)
    parser.add_argument("--human", type=int)
    parser.add_argument("--repeat", type=int)
    parser.add_argument("--farm", action="store_true")
    parser.add_argument("--memory", action="store_true")
    args = parser.parse_args()
    if args.memory:
        print("\n".join(memory(args.quick, args.comparisons, args.models)))
        return
    rows = run(args.quick, args.comparisons, args.models, args.human, args.repeat, args.farm)
    for row in rows:
        print(
            f"{row['name']}: median {row['median_s']:.3g} s, {row['cpu_s']:.3g} CPU s (min "
            f"{row['min_s']:.3g}, max {row['max_s']:.3g}, {row['runs']} runs); {row['baseline']}; "
            f"baseline/ours {row['ratio']:.2f}; target {row['target']}\n  {row['notes']}"
        )


if __name__ == "__main__":
    main()
