"""The default interval of a difference of two models keeps ≥ 94% coverage at every n of the coverage
table (issue 32, item 5: "the default interval covers ≥ 94% at every n in the table for the difference
of two models"), for the judge that gives labels.

Two parts. First, the interval ``humanly.judge`` gives by default for a difference *is* the one the
coverage machinery (:mod:`humanly.judging._coverage`, method ``auto``) measures: below 200 labelled
items the Agresti–Min interval of the human labels alone — checked against the formula written out
from the 2 × 2 table of the two models' paired outcomes (½ added to each cell) — and PPI++'s
central-limit interval from 200 on. Second, its coverage by simulation, in the table's setting
(accuracies 0.85 and 0.80, 10,000 unlabelled items, judge right 70/80/90/95% of the time, n = 25 …
500) but with seed 1, so the runs are independent of the printed table's (seed 0).

Monte Carlo error: at 20,000 studies per cell a coverage near 0.94 has a standard error of
sqrt(0.94 · 0.06 / 20,000) = 0.17 points (0.07 points at the slow test's 100,000). The claim is
"at least 94%", not that the interval keeps its 95% level (PPI++ covers 94.3–94.8% in some cells
at n = 200 and 500, docs/judge.md), so every cell must reach 94.0% with no allowance below it.
Measured when this test was written: the lowest cell was 94.45% at 20,000 studies (judge 90%,
n = 200) and 94.53% at 100,000 studies (the same cell).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import humanly
from humanly import Ratings
from humanly.judging import JudgeOptions
from humanly.judging._coverage import NS, QUALITIES
from humanly.judging.arrays import coverage_table

RUNS, SLOW_RUNS = 20_000, 100_000
#: the issue's bar for the default interval of a difference
BAR = 0.94


def _study(n: int, judge_right: float, seed: int, n_unlabelled: int = 2000):
    """The coverage table's setting as data: two classes, one human label per item, model a right
    85% of the time, model b 80%, a judge that gives the human label with ``judge_right``."""
    rng = np.random.default_rng(seed)
    total = n + n_unlabelled
    ids = np.array([f"i{k:05d}" for k in range(total)])
    truth = rng.integers(0, 2, total)

    def right(p: float) -> np.ndarray:
        return np.where(rng.random(total) < p, truth, 1 - truth)

    models = {"a": pd.Series(right(0.85), index=ids), "b": pd.Series(right(0.80), index=ids)}
    judge = pd.Series(right(judge_right), index=ids)
    human = Ratings.from_long(ids[:n], ["r"] * n, truth[:n], classes=[0, 1])
    return human, models, judge, truth


def _agresti_min(a_right: np.ndarray, b_right: np.ndarray, level: float = 0.95):
    """Agresti & Min (2005): ½ added to each cell of the 2 × 2 table of paired outcomes; the
    difference (n12 − n21)/(n + 2) with variance ((p12 + p21) − (p12 − p21)²)/(n + 2)."""
    n = len(a_right)
    n12 = int(np.sum(a_right & ~b_right))
    n21 = int(np.sum(~a_right & b_right))
    total = n + 2
    p12, p21 = (n12 + 0.5) / total, (n21 + 0.5) / total
    d = p12 - p21
    se = math.sqrt(((p12 + p21) - d**2) / total)
    z = float(norm.ppf(0.5 + level / 2))
    return d, se, (d - z * se, d + z * se)


@pytest.mark.parametrize("n", NS)
def test_the_default_difference_is_the_interval_the_table_measures(n: int) -> None:
    human, models, judge, truth = _study(n, 0.9, seed=n)
    res = humanly.judge(human, models, judge=judge)
    d = res.comparison("a", "b").difference
    assert d.small_n == 200
    if n < 200:
        a_right = models["a"].to_numpy()[:n] == truth[:n]
        b_right = models["b"].to_numpy()[:n] == truth[:n]
        point, se, (low, high) = _agresti_min(a_right, b_right)
        assert d.interval_method == "adjusted" and d.lam == 0.0 and "small_sample" in res.codes
        assert d.point == pytest.approx(point, abs=1e-12)
        assert d.se == pytest.approx(se, abs=1e-12)
        assert d.interval.low == pytest.approx(low, abs=1e-12)
        assert d.interval.high == pytest.approx(high, abs=1e-12)
    else:
        clt = humanly.judge(human, models, judge=judge, options=JudgeOptions(interval="clt"))
        assert d.interval_method == "clt"
        assert d == clt.comparison("a", "b").difference


def _default_difference(runs: int) -> dict[tuple[float, int], float]:
    table = coverage_table(NS, QUALITIES, runs=runs, seed=1, judge_kind="label")
    return {
        (c.judge_accuracy, c.n): c.coverage
        for c in table.cells
        if c.estimand == "difference" and c.method == "auto"
    }


def _check(coverage: dict[tuple[float, int], float], runs: int) -> None:
    assert set(coverage) == {(q, n) for q in QUALITIES for n in NS}
    se = math.sqrt(BAR * (1 - BAR) / runs)
    low = {key: value for key, value in coverage.items() if value < BAR}
    assert not low, f"below {BAR:.0%} (Monte Carlo SE {100 * se:.2f} points): {low}"


def test_the_default_difference_covers_at_least_94_percent_at_every_n() -> None:
    _check(_default_difference(RUNS), RUNS)


@pytest.mark.slow
def test_the_default_difference_covers_at_least_94_percent_at_every_n_many_runs() -> None:
    _check(_default_difference(SLOW_RUNS), SLOW_RUNS)
