"""Issue 32's speed check through the verb: 10⁶ items (10⁴ with a human label), 3 judges, 10 strata,
3 models — every estimand, the checks and the plan — end to end, in process and as a whole command.

Rows (no figures are recorded here; run on a quiet machine for BENCHMARKS.md):

1. ``humanly.judge`` in process, from joined inputs (pandas objects by item id, as a notebook holds
   them): the 3 accuracies and 3 paired differences by stratified multi-judge PPI++ (each stratum its
   own weights for the 3 soft judges, each judge alone beside the combination), the design check
   within strata, the self-judge and frontier checks; then ``JudgeResult.plan(max_cost=…)`` with its
   Neyman allocation over the strata, and ``select(expected_items=…)`` split across the strata.
2. The same for ratings of the models' outputs (``join_ratings``; 1–5): each model's mean rating and
   share ≥ 4, the paired differences, with 3 judges and 10 strata (the PPI quantile is for one judge
   and no strata, so it is not part of this run; benchmarks/judge_plus_bench.py times it on arrays).
3. ``humanly judge RATINGS --predictions P --judge a=J1 --judge b=J2 --judge c=J3 --strata stratum
   --cost-human 1 --cost-judge 0.01 --max-cost 20000`` in a fresh process, from Parquet files (start-up,
   reading, joining, row 1's estimates and plan, tables and sentences), against ``python -c "import
   pandas"``.

Target (issue 32): ≤ 2 s end to end for each row.

    python benchmarks/judge_strata_bench.py [--items N] [--labelled n] [--repeat R] [--quick]
    python benchmarks/judge_strata_bench.py --profile     # cProfile of row 1, the 25 costliest calls
    python benchmarks/judge_strata_bench.py --steps [--repeat R]  # row 3's seconds per step

``--steps`` runs row 3's command in a fresh process with a clock around each step (reading the
predictions, the judges, the strata, the join; the judge's inputs, estimates, design check; the
tables) and prints each step's least time over the runs, beside the whole process's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

MODELS, JUDGES, STRATA, CLASSES = 3, 3, 10, 3


def make(n_items: int, n_labelled: int, seed: int = 0) -> dict[str, Any]:
    """Three models (accuracy falling with the stratum's difficulty), three soft judges (their top
    class right 90, 85 and 80% of the time), a stratum per item, one human label on ``n_labelled``
    random items; and a 1–5 rating of each model's output by humans (on those items) and judges."""
    rng = np.random.default_rng(seed)
    ids = np.arange(n_items)
    stratum = rng.integers(0, STRATA, n_items)
    ease = np.linspace(0.95, 0.6, STRATA)[stratum]
    truth = rng.integers(0, CLASSES, n_items)

    def noisy(acc: np.ndarray | float) -> np.ndarray:
        wrong = (truth + rng.integers(1, CLASSES, n_items)) % CLASSES
        return np.where(rng.random(n_items) < acc, truth, wrong)

    models = {f"m{m}": pd.Series(noisy(ease * (1 - 0.05 * m)), index=ids) for m in range(MODELS)}
    judges = {}
    for j, acc in enumerate((0.9, 0.85, 0.8)):
        proba = rng.dirichlet(np.ones(CLASSES), n_items) * 0.4
        proba[ids, noisy(acc)] += 0.6
        judges[f"j{j}"] = pd.DataFrame(proba, index=ids, columns=list(range(CLASSES)))
    lab = np.sort(rng.choice(n_items, n_labelled, replace=False))
    human = pd.DataFrame({"item": lab, "rater": "r", "label": noisy(0.95)[lab]})
    rating = np.clip(np.round(1 + 4 * ease[:, None] * rng.random((n_items, MODELS)) + 0.5), 1, 5)
    judged = {
        f"j{j}": pd.DataFrame(
            np.clip(rating + rng.integers(-1, 2, (n_items, MODELS)), 1, 5),
            index=ids,
            columns=list(models),
        )
        for j in range(JUDGES)
    }
    return {
        "human": human,
        "models": models,
        "judges": judges,
        "strata": pd.Series(stratum, index=ids, name="stratum"),
        "human_ratings": pd.DataFrame(rating[lab], index=lab, columns=list(models)),
        "judged": judged,
    }


def classes_run(d: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Row 1: the estimates and checks, the plan, the stratified selection."""
    from humanly.judging import JudgeOptions, judge, select

    opts = JudgeOptions(strata=d["strata"])
    res = judge(d["human"], d["models"], judge=d["judges"], options=opts)
    plan = res.plan(1.0, 0.01, max_cost=20_000)
    sel = select(
        d["human"], d["models"], judge={"j0": d["judges"]["j0"]}, expected_items=5_000,
        options=opts,
    )  # fmt: skip
    return res, plan, sel


def ratings_run(d: dict[str, Any]) -> Any:
    """Row 2: mean rating and share ≥ 4 per model, the paired differences, 3 judges, 10 strata."""
    from humanly.data import join_ratings
    from humanly.judging import JudgeOptions, judge

    study = join_ratings(d["human_ratings"], d["judged"], scale=(1, 5), strata=d["strata"])
    return judge(study, options=JudgeOptions(threshold=4, scale=(1, 5)))


def _times(fn: Callable[[], Any], repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (every thread's) of ``repeat`` runs after one warm-up."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def _row(name: str, wall: list[float], cpu: list[float], notes: str, **extra: Any) -> dict:
    return {
        "name": name,
        "median_s": statistics.median(wall),
        "min_s": min(wall),
        "max_s": max(wall),
        "cpu_s": statistics.median(cpu),
        "runs": len(wall),
        "target": "≤ 2 s end to end",
        "notes": notes,
        **extra,
    }


def write_files(d: dict[str, Any], folder: Path) -> list[str]:
    """The inputs of row 3 as Parquet: the ratings (long), the models' predictions (long, with the
    stratum), one file per judge (one column per class)."""
    d["human"].to_parquet(folder / "ratings.parquet", index=False)
    ids = d["strata"].index.to_numpy()
    pd.DataFrame(
        {
            "item": np.tile(ids, MODELS),
            "model": np.repeat(list(d["models"]), len(ids)),
            "prediction": np.concatenate([m.to_numpy() for m in d["models"].values()]),
            "stratum": np.tile(d["strata"].to_numpy(), MODELS),
        }
    ).to_parquet(folder / "predictions.parquet", index=False)
    args = [str(folder / "ratings.parquet"), "--predictions", str(folder / "predictions.parquet")]
    for name, proba in d["judges"].items():
        frame = proba.rename(columns=lambda c: f"prob_{c}").rename_axis("item").reset_index()
        frame.to_parquet(folder / f"{name}.parquet", index=False)
        args += ["--judge", f"{name}={folder / f'{name}.parquet'}"]
    return [*args, "--strata", "stratum", "--cost-human", "1", "--cost-judge", "0.01",
            "--max-cost", "20000"]  # fmt: skip


def cli_row(d: dict[str, Any], repeat: int, n_items: int, n_labelled: int) -> dict:
    humanly = str(Path(sys.executable).with_name("humanly"))

    def process(cmd: list[str]) -> tuple[list[float], list[float]]:
        """Wall-clock and CPU seconds (the child's, user + system) of ``repeat`` runs."""
        wall, cpu = [], []
        for _ in range(repeat):
            before, t = os.times(), time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            wall.append(time.perf_counter() - t)
            after = os.times()
            cpu.append(
                after.children_user + after.children_system
                - before.children_user - before.children_system
            )  # fmt: skip
        return wall, cpu

    with tempfile.TemporaryDirectory() as tmp:
        args = write_files(d, Path(tmp))
        wall, cpu = process([humanly, "judge", *args])
    base = statistics.median(process([sys.executable, "-c", "import pandas"])[0])
    med = statistics.median(wall)
    return _row(
        f"humanly judge (a fresh process), {n_items:,} items ({n_labelled:,} labelled), "
        f"{MODELS} models, {JUDGES} judges, {STRATA} strata, plan",
        wall,
        cpu,
        "Parquet files; start-up, reading, joining, estimates, checks, plan, tables, sentences",
        baseline=f"python -c 'import pandas' ({base:.3g} s)",
        ratio=base / med,
    )


def run(
    quick: bool = False,
    n_items: int | None = None,
    n_labelled: int | None = None,
    repeat: int | None = None,
    cli: bool = True,
) -> list[dict[str, Any]]:
    """The three rows (``benchmarks/run.py`` calls ``run(quick=…)``); ``quick``: 10⁵ items, 2 runs."""
    n_items = n_items or (100_000 if quick else 1_000_000)
    n_labelled = n_labelled or n_items // 100
    repeat = repeat or (2 if quick else 5)
    d = make(n_items, n_labelled)
    size = f"{n_items:,} items ({n_labelled:,} labelled), {MODELS} models, {JUDGES} judges, {STRATA} strata"
    res, plan, sel = classes_run(d)
    a = res.model("m0").accuracy
    alloc = plan.allocation
    rows = [
        _row(
            f"humanly.judge + plan + select, {size}",
            *_times(lambda: classes_run(d), repeat),
            f"6 estimands (stratified multi-judge PPI++), design/self-judge/frontier checks, the "
            f"plan's Neyman allocation ({'none' if alloc is None else sum(alloc.n_human):,} labels) "
            f"and select's split ({len(sel.strata)} strata); m0 accuracy {a.point:.4f} "
            f"[{a.interval.low:.4f}, {a.interval.high:.4f}]",
        ),
        _row(
            f"humanly.judge on ratings (mean, share ≥ 4), {size}",
            *_times(lambda: ratings_run(d), repeat),
            "3 models' mean rating and share ≥ 4, 3 paired differences of each",
        ),
    ]
    if cli:
        rows.append(cli_row(d, repeat, n_items, n_labelled))
    return rows


def profile(n_items: int, n_labelled: int) -> None:
    import cProfile
    import pstats

    d = make(n_items, n_labelled)
    classes_run(d)  # warm
    prof = cProfile.Profile()
    prof.enable()
    classes_run(d)
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


#: row 3's steps: (module, function) timed in the command's process, in the order they run
STEPS = (
    ("humanly.data.study", "read_ratings", "read: the ratings"),
    ("humanly.data.study", "_predictions", "read: the predictions and each judge file"),
    ("humanly.data.study", "join", "read: the join by item id"),
    ("humanly.data.study", "_read_design", "read: the strata column"),
    ("humanly.judging.api", "prepare", "judge: its inputs (classes, strata)"),
    ("humanly.judging.api", "estimate", "judge: the scores and every estimate"),
    ("humanly.judging._scoring", "design_check", "judge: the design check"),
    ("humanly.cli._console", "show", "the tables and sentences"),
)

_STEPS_CHILD = """
import functools, importlib, json, sys, time
start = time.perf_counter()
spent = {}
import humanly.cli
imported = time.perf_counter() - start
for mod, attr, _ in json.loads(sys.argv[1]):
    module = importlib.import_module(mod)
    fn = getattr(module, attr)
    def timed(*a, _fn=fn, _key=mod + "." + attr, **k):
        t = time.perf_counter()
        try:
            return _fn(*a, **k)
        finally:
            spent[_key] = spent.get(_key, 0.0) + time.perf_counter() - t
    setattr(module, attr, functools.wraps(fn)(timed))
sys.argv = ["humanly", "judge", *sys.argv[2:]]
try:
    humanly.cli.main()
except SystemExit:
    pass
spent["import humanly.cli"] = imported
spent["in process"] = time.perf_counter() - start
print(json.dumps(spent), file=sys.stderr)
humanly.cli.finish(0)  # as the script ends
"""


def steps(n_items: int, n_labelled: int, repeat: int) -> None:
    """Row 3's seconds per step (the least over ``repeat`` fresh processes), and the whole's."""
    import json

    d = make(n_items, n_labelled)
    best: dict[str, float] = {}
    whole = []
    with tempfile.TemporaryDirectory() as tmp:
        args = write_files(d, Path(tmp))
        spec = json.dumps([list(s) for s in STEPS])
        for _ in range(repeat):
            t = time.perf_counter()
            run_ = subprocess.run(
                [sys.executable, "-c", _STEPS_CHILD, spec, *args],
                check=True, capture_output=True, text=True,
            )  # fmt: skip
            whole.append(time.perf_counter() - t)
            for key, value in json.loads(run_.stderr.strip().splitlines()[-1]).items():
                best[key] = min(best.get(key, float("inf")), value)
    rows = [("start-up: import humanly.cli (typer, rich)", best["import humanly.cli"])]
    rows += [(label, best.get(f"{m}.{a}", 0.0)) for m, a, label in STEPS]
    named = sum(v for _, v in rows)
    rest = "the rest: the command's imports (pandas, numpy, pyarrow), checks, plan"
    rows.append((rest, best["in process"] - named))
    rows.append(("the interpreter's start and exit", min(whole) - best["in process"]))
    print(f"humanly judge, {n_items:,} items ({n_labelled:,} labelled): least of {repeat} runs, s")
    for label, value in rows:
        print(f"  {value:7.3f}  {label}")
    print(f"  {min(whole):7.3f}  the whole process (median {statistics.median(whole):.3f})")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--items", type=int, default=None)
    ap.add_argument("--labelled", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--quick", action="store_true", help="10⁵ items, 10³ labelled, 2 runs")
    ap.add_argument("--no-cli", action="store_true", help="skip row 3 (the fresh process)")
    ap.add_argument("--profile", action="store_true", help="profile row 1 once instead")
    ap.add_argument("--steps", action="store_true", help="row 3's seconds per step instead")
    args = ap.parse_args()
    if args.steps:
        n_items = args.items or (100_000 if args.quick else 1_000_000)
        steps(n_items, args.labelled or n_items // 100, args.repeat or 3)
        return
    if args.profile:
        n_items = args.items or (100_000 if args.quick else 1_000_000)
        profile(n_items, args.labelled or n_items // 100)
        return
    for row in run(args.quick, args.items, args.labelled, args.repeat, cli=not args.no_cli):
        print(f"{row['name']}: median {row['median_s']:.3f} s (min {row['min_s']:.3f}, max "
              f"{row['max_s']:.3f}; CPU {row['cpu_s']:.3f} s), target {row['target']}")  # fmt: skip
        if "baseline" in row:
            print(f"  baseline {row['baseline']}; ratio (baseline / ours) {row['ratio']:.2f}×")
        print(f"  {row['notes']}")


if __name__ == "__main__":
    main()
