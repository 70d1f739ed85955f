"""The share of ratings at or above a threshold with a judge that gives scores (issue 32 item 4): the
PPI++ interval of :func:`humanly.judging.arrays.share_at_least` (what ``humanly.judge`` reports for
``JudgeOptions(threshold=)``, tests/judge/test_judge_verb_arrays.py) covers at its level, by seeded
simulation.

Settings: human ratings on 1–5; each item has the judge's probability q ~ Beta(2, 3) that its rating is
at least k = 4, and the rating is ≥ 4 with exactly that probability (so the true share is E[q] = 0.4),
then 4 or 5 (0.6/0.4), else 1, 2 or 3 (0.2/0.35/0.45). Three judges: the calibrated probability q
(``probability=True``), a miscalibrated one √q (``probability=True``: PPI stays valid, the judge is
only less useful) and a numeric judge, the human rating moved by −1/0/+1 with probabilities
0.2/0.6/0.2 and kept in [1, 5] (thresholded at k inside). n ∈ {200, 500} labelled items, N = 5,000
unlabelled, 1,000 runs each (run r draws from ``default_rng([7, r])``), 95% intervals: coverage at
least 93.5% (1.5 Monte Carlo standard errors below 95%) and at most 97% (not too wide). Measured:
95.2/95.3% (calibrated), 95.4/95.6% (miscalibrated), 95.8/95.1% (numeric) at n = 200/500.
"""

from __future__ import annotations

import numpy as np
import pytest

from humanly.judging.arrays import share_at_least

K, TRUE_SHARE, BIG_N, RUNS = 4, 0.4, 5_000, 1_000


def _population(rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    q = rng.beta(2, 3, size)  # the judge's probability of a rating ≥ 4, calibrated
    high = rng.random(size) < q
    low_rating = rng.choice([1, 2, 3], size, p=[0.2, 0.35, 0.45])
    high_rating = rng.choice([4, 5], size, p=[0.6, 0.4])
    return np.where(high, high_rating, low_rating), q


def _judge(kind: str, rating: np.ndarray, q: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if kind == "calibrated":
        return q
    if kind == "miscalibrated":
        return np.sqrt(q)
    noise = rng.choice([-1, 0, 1], len(rating), p=[0.2, 0.6, 0.2])
    return np.clip(rating + noise, 1, 5)


@pytest.mark.parametrize("n", [200, 500])
@pytest.mark.parametrize("kind", ["calibrated", "miscalibrated", "numeric"])
def test_the_share_at_or_above_k_covers_at_its_level(kind: str, n: int) -> None:
    hits = 0
    widths = []
    for r in range(RUNS):
        rng = np.random.default_rng([7, r])
        rating, q = _population(rng, n + BIG_N)
        f = _judge(kind, rating, q, rng)
        e = share_at_least(rating[:n], f[:n], f[n:], K, level=0.95, probability=kind != "numeric")
        hits += e.interval.low <= TRUE_SHARE <= e.interval.high
        widths.append((e.interval.width, e.classical_interval.width))
    coverage = hits / RUNS
    assert 0.935 <= coverage <= 0.97, (kind, n, coverage)
    # a judge that tracks the ratings makes the interval narrower than the human labels' alone
    ppi, classical = np.mean(widths, axis=0)
    assert ppi < classical, (kind, n, ppi, classical)
