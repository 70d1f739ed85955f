"""Speed of ``humanly.judging.judge``: 10^6 items (10^4 with a human label), 3 models, a soft judge
over 3 classes; every estimand (3 accuracies, 3 paired differences, PPI++ with the classical interval
beside each), the frontier check and the plan for a cost of at most 5,000, in process.

Target (issue 24): end to end ≤ 2 s. Baseline measured in the same run: ppi-python 0.2.3 on the same
per-item arrays (``ppi_mean_ci`` for PPI++ and ``classical_mean_ci`` for each of the 6 estimands, and
``ppi_mean_power`` for each) — the arithmetic alone, with no joining by item id, no reference or score
per item (those arrays are handed to it ready-made).

A second row times the command a user runs, in a fresh process (start-up and reading the files
included): ``humanly judge`` on 20,000 items with 300 human labels, two models, a soft judge, and the
plan for a cost of at most 1,000 (target ≤ 2 s end to end), against ``python -c "import pandas"`` as
the baseline.

    python benchmarks/judge_bench.py [--quick] [--items N] [--labelled n] [--repeat R]
"""

from __future__ import annotations

import argparse
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

from humanly import Ratings
from humanly.judging import judge


def make(n_items: int, n_labelled: int, seed: int = 0) -> dict[str, Any]:
    """Three models (80, 75, 70% accurate), a soft judge (its top class right 85% of the time) and
    one human label (95% right) on ``n_labelled`` random items; also the per-item arrays ppi-python
    needs."""
    rng = np.random.default_rng(seed)
    k = 3
    ids = np.arange(n_items)
    truth = rng.integers(0, k, n_items)

    def noisy(acc: float) -> np.ndarray:
        return np.where(rng.random(n_items) < acc, truth, (truth + rng.integers(1, k, n_items)) % k)

    codes = np.column_stack([noisy(a) for a in (0.8, 0.75, 0.7)])
    proba = rng.dirichlet(np.ones(k), n_items) * 0.5
    proba[np.arange(n_items), noisy(0.85)] += 0.5
    lab = np.sort(rng.choice(n_items, n_labelled, replace=False))
    human_labels = noisy(0.95)[lab]
    unl = np.setdiff1d(ids, lab)
    f = np.take_along_axis(proba, codes, axis=1)
    y = (codes[lab] == human_labels[:, None]).astype(float)
    pairs = [(0, 1), (0, 2), (1, 2)]
    ys = [y[:, m] for m in range(3)] + [y[:, a] - y[:, b] for a, b in pairs]
    fs = [f[:, m] for m in range(3)] + [f[:, a] - f[:, b] for a, b in pairs]
    return {
        "ratings": Ratings.from_long(
            lab, np.zeros(n_labelled, int), human_labels, classes=[0, 1, 2]
        ),
        "models": {f"m{m}": pd.Series(codes[:, m], index=ids) for m in range(3)},
        "judge": pd.DataFrame(proba, index=ids, columns=[0, 1, 2]),
        "arrays": [(yy, ff[lab], ff[unl]) for yy, ff in zip(ys, fs, strict=True)],
    }


def ours(data: dict[str, Any]) -> Any:
    res = judge(data["ratings"], data["models"], judge=data["judge"])
    return res, res.plan(1.0, 0.01, max_cost=5_000)


def ppi_python(data: dict[str, Any]) -> list[Any]:
    import ppi_py

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for y, f, f_unl in data["arrays"]:
            out.append(ppi_py.ppi_mean_ci(y, f, f_unl, alpha=0.05))
            out.append(ppi_py.classical_mean_ci(y, alpha=0.05))
            out.append(ppi_py.ppi_mean_power(y, f, 1.0, 0.01, budget=5_000))
    return out


def _times(fn: Callable[[], Any], repeat: int) -> list[float]:
    fn()  # warm: imports, numba compilation inside ppi-python
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def run(quick: bool = False, n_items: int | None = None, n_labelled: int | None = None,
        repeat: int | None = None) -> list[dict[str, Any]]:  # fmt: skip
    n_items = n_items or (100_000 if quick else 1_000_000)
    n_labelled = n_labelled or n_items // 100
    repeat = repeat or (3 if quick else 7)
    data = make(n_items, n_labelled)
    times = _times(lambda: ours(data), repeat)
    try:
        base = statistics.median(_times(lambda: ppi_python(data), repeat))
        baseline = f"ppi-python 0.2.3 on ready-made arrays ({base:.3g} s)"
    except ImportError:
        base, baseline = None, "ppi-python not installed"
    res, _plan = ours(data)
    a = res.model("m0").accuracy
    med = statistics.median(times)
    return [
        {
            "name": f"judge, {n_items:,} items ({n_labelled:,} labelled), 3 models, soft judge",
            "median_s": med,
            "min_s": min(times),
            "max_s": max(times),
            "runs": repeat,
            "baseline": baseline,
            "ratio": None if base is None else base / med,
            "target": "≤ 2 s end to end",
            "notes": (
                f"6 estimands (PPI++ and classical), frontier check, plan for a max_cost; "
                f"m0 accuracy {a.point:.4f} [{a.interval.low:.4f}, {a.interval.high:.4f}], "
                f"λ̂ {a.lam:.3f}, effective n {a.effective_n:,.0f}"
            ),
        },
        *run_cli(quick),
    ]


def _cli_files(
    folder: Path, n_items: int = 20_000, n_labelled: int = 300, seed: int = 0
) -> list[str]:
    """Ratings (one label on ``n_labelled`` items), two models' predictions and a soft judge as CSV."""
    rng = np.random.default_rng(seed)
    ids = [f"i{k}" for k in range(n_items)]
    truth = rng.integers(0, 2, n_items)
    pd.DataFrame({"item": ids[:n_labelled], "rater": "r1", "label": truth[:n_labelled]}).to_csv(
        folder / "ratings.csv", index=False
    )
    a = np.where(rng.random(n_items) < 0.85, truth, 1 - truth)
    b = np.where(rng.random(n_items) < 0.80, truth, 1 - truth)
    pd.DataFrame(
        {"item": ids * 2, "model": ["A"] * n_items + ["B"] * n_items,
         "prediction": np.concatenate([a, b])}
    ).to_csv(folder / "preds.csv", index=False)  # fmt: skip
    p1 = np.clip(truth * 0.8 + 0.1 + rng.normal(0, 0.15, n_items), 0.01, 0.99)
    pd.DataFrame({"item": ids, "prob_0": 1 - p1, "prob_1": p1}).to_csv(
        folder / "judge.csv", index=False
    )
    return [str(folder / "ratings.csv"), "--predictions", str(folder / "preds.csv"), "--judge",
            str(folder / "judge.csv"), "--cost-human", "1", "--cost-judge", "0.01", "--max-cost",
            "1000"]  # fmt: skip


def _process_times(cmd: list[str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        out.append(time.perf_counter() - t)
    return out


def run_cli(quick: bool = False) -> list[dict[str, Any]]:
    """``humanly judge`` end to end on 20,000 items × 300 human labels, in fresh processes."""
    repeat = 3 if quick else 7
    humanly = str(Path(sys.executable).with_name("humanly"))
    with tempfile.TemporaryDirectory() as tmp:
        args = _cli_files(Path(tmp))
        times = _process_times([humanly, "judge", *args], repeat)
    base = statistics.median(_process_times([sys.executable, "-c", "import pandas"], repeat))
    med = statistics.median(times)
    return [
        {
            "name": "humanly judge, 20,000 items (300 labelled), 2 models, soft judge, plan",
            "median_s": med,
            "min_s": min(times),
            "max_s": max(times),
            "runs": repeat,
            "baseline": f"python -c 'import pandas' ({base:.3g} s)",
            "ratio": base / med,
            "target": "≤ 2 s end to end",
            "notes": "a fresh process: start-up, reading three CSV files, 3 estimands, frontier "
            "check, plan, tables and sentences",
        }
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--items", type=int)
    parser.add_argument("--labelled", type=int)
    parser.add_argument("--repeat", type=int)
    args = parser.parse_args()
    for row in run(args.quick, args.items, args.labelled, args.repeat):
        ratio = row["ratio"]
        print(f"{row['name']}: median {row['median_s']:.3f} s (min {row['min_s']:.3f}, max "
              f"{row['max_s']:.3f}); baseline {row['baseline']}; ratio (baseline / ours) "
              f"{'—' if ratio is None else f'{ratio:.2f}'}×")  # fmt: skip
        print(f"  {row['notes']}")


if __name__ == "__main__":
    main()
