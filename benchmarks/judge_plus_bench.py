"""Speed of issue 32's estimators and checks on arrays: 10⁶ items (10⁴ with a human label), 3 models,
3 judges, 10 strata, in process.

Every estimand a run of the extended judge analysis would compute, on the per-item arrays it would
hand them (no joining by item id, no reading of files — that is the verb's, timed by judge_bench.py):

* stratified multi-judge PPI++ for the 3 accuracies and the 3 paired differences (each stratum its own
  weights for the 3 judges, each judge alone beside the combination);
* the Neyman allocation of the next label budget over the 10 strata for those 6 estimands, and
  ppi-python's sample-size solver (``power``) for the total;
* a judge calibrated on the labelled items, cross-fitted on 10 folds, for the 6 estimands;
* each model's rating (1–5) by humans and judge: the mean, the share ≥ 4, the median;
* the design check on the judges' scores of the models (9 columns) within strata, and the self-judge
  check of the 3 judges against the 3 models.

Target (issue 32): all of it well within 2 s end to end (the verb adds the joining). Run on a quiet
machine for BENCHMARKS.md; no figures are recorded here. ``tests/judge/test_judge_plus_speed.py``
checks the CPU time (every thread's), which a loaded machine inflates far less than the wall clock.

    python benchmarks/judge_plus_bench.py [--items N] [--labelled n] [--repeat R] [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from humanly.judging import _crossfit, _design, _multi, _scores, _strata
from humanly.judging._ppi import fit, moments, power

MODELS, JUDGES, STRATA = 3, 3, 10


def make(n_items: int, n_labelled: int, seed: int = 0) -> dict[str, Any]:
    """Per-item arrays: each model's credit (the reference on labelled items), each judge's score of
    each model, a stratum, a 1–5 rating of each model's output by humans and by the first judge."""
    rng = np.random.default_rng(seed)
    strata = rng.integers(0, STRATA, n_items)
    hard = np.linspace(0.6, 0.95, STRATA)[strata]
    right = rng.random((n_items, MODELS)) < hard[:, None] * np.array([1.0, 0.95, 0.9])
    pairs = [(0, 1), (0, 2), (1, 2)]
    y = np.column_stack([right, *(right[:, a] * 1.0 - right[:, b] for a, b in pairs)]).astype(float)
    scores = np.empty((n_items, MODELS, JUDGES))
    for j, acc in enumerate((0.9, 0.85, 0.8)):
        judge_right = rng.random((n_items, 1)) < acc
        scores[:, :, j] = np.clip(
            np.where(judge_right, right, ~right) + rng.normal(0, 0.1, 1), 0, 1
        )
    f = np.concatenate([scores, *(scores[:, [a]] - scores[:, [b]] for a, b in pairs)], axis=1)
    ratings = rng.integers(1, 6, (n_items, MODELS)).astype(float)
    judged = np.clip(ratings + rng.integers(-1, 2, (n_items, MODELS)), 1, 5)
    labelled = np.zeros(n_items, dtype=bool)
    labelled[rng.choice(n_items, n_labelled, replace=False)] = True
    return {
        "columns": scores.reshape(n_items, MODELS * JUDGES),  # the judges' scores, every item
        "y": y[labelled],
        "f": f[labelled],
        "f_u": f[~labelled],
        "strata": strata,
        "labelled": labelled,
        "ratings": ratings[labelled],
        "judged": judged,
        "judge_labels": (scores[:, 0, :] > 0.5).astype(int),
        "model_labels": right.astype(int),
    }


def run(d: dict[str, Any]) -> dict[str, float]:
    """Every step once; wall-clock seconds per step, and the process's CPU seconds for all of them
    (``cpu``: every thread's, so a busy machine inflates it much less than the wall clock)."""
    times: dict[str, float] = {}
    cpu = time.process_time()

    def timed(name: str, step: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        out = step()
        times[name] = time.perf_counter() - start
        return out

    lab, s = d["labelled"], d["strata"]
    s_l, s_u = s[lab], s[~lab]
    strat = timed(
        "stratified multi-judge PPI++ (6 estimands)",
        lambda: _strata.fit_strata(d["y"], d["f"], d["f_u"], s_l, s_u, estimator=_multi.fit_judges),
    )

    def plan() -> Any:
        sd = np.stack([p.sd for p in strat.strata])
        rho = np.clip(np.nan_to_num(np.stack([p.rho for p in strat.strata])), 0, 1)
        spread = np.sqrt((sd**2 * (1 - rho**2)).sum(axis=1))
        total = power(float(np.nanmax(strat.combined.rho)), 1.0, 0.01, max_cost=20_000)
        return _strata.allocate(total.n, strat.shares, spread, None, 2)

    timed("plan: power + Neyman allocation", plan)

    def crossfit() -> Any:
        folds = _crossfit.folds_of(len(d["y"]), 10, 0)
        cf = _crossfit.crossfit_scores(d["y"], d["f"][:, :, 0], d["f_u"][:, :, 0], folds)
        return fit(d["y"], cf.f, moments(cf.f_unlabelled), lam=1.0)

    timed("cross-fitted judge, 10 folds (6 estimands)", crossfit)

    def ratings() -> Any:
        human, judged = d["ratings"], d["judged"]
        f_l, f_u = judged[lab], judged[~lab]
        mean = fit(human, f_l, moments(f_u))
        top = fit(
            _scores.at_least(human, 4), _scores.at_least(f_l, 4), moments(_scores.at_least(f_u, 4))
        )
        medians = [
            _scores.fit_quantile(human[:, m], f_l[:, m], f_u[:, m], 0.5) for m in range(MODELS)
        ]
        return mean, top, medians

    timed("ratings: mean, share ≥ 4, median (3 models)", ratings)

    def checks() -> Any:
        design = _design.check(d["columns"], lab, strata=s)
        self_judge = [
            _crossfit.agreement(d["judge_labels"][:, j], d["model_labels"][:, m])
            for j in range(JUDGES)
            for m in range(MODELS)
        ]
        return design, self_judge

    timed("design check (9 columns, 10 strata) + self-judge", checks)
    times["total"] = sum(times.values())
    times["cpu"] = time.process_time() - cpu
    return times


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--labelled", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="10⁵ items, 10³ labelled, one repeat")
    args = ap.parse_args()
    items, labelled, repeat = args.items, args.labelled, args.repeat
    if args.quick:
        items, labelled, repeat = 100_000, 1_000, 1
    data = make(items, labelled)
    runs = [run(data) for _ in range(repeat)]
    print(
        f"{items:,} items, {labelled:,} labelled, {MODELS} models, {JUDGES} judges, {STRATA} strata"
    )
    for step in runs[0]:
        best = min(r[step] for r in runs)
        print(f"  {step:<50} {best:7.3f} s (best of {repeat})")


if __name__ == "__main__":
    main()
