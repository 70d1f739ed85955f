"""Coverage of each bound on simulated data with a known oracle, and dask reproducibility."""

from __future__ import annotations

import math

import pytest

from humanly import simulate
from humanly.certify import certify, coverage, population_values


def test_population_values_match_a_large_simulation() -> None:
    acc, m = (0.8, 0.7, 0.6), 0.9
    pop = population_values(acc, m, 3)
    d = simulate.oracle(200_000, list(acc), n_classes=3, models={"m": m}, seed=9)
    res = certify(d.ratings, d.predictions)
    assert res.upper_bound.empirical**2 == pytest.approx(pop["empirical2"], abs=0.004)
    assert res.models[0].lower_bound == pytest.approx(pop["lower"], abs=0.004)


def test_coverage_at_least_nominal() -> None:
    delta = 0.2  # a large δ makes the check sensitive: nominal coverage 0.8
    res = coverage(200, 150, delta=delta, seed=4)
    slack = 3 * res.standard_error
    for b, cov in res.coverage.items():
        for side, rate in cov.items():
            assert rate >= 1 - delta - slack, (b, side, rate)
    # the exact (Clopper–Pearson) lower bound is tighter than Hoeffding's
    assert res.mean_t["exact"]["t_l"] < res.mean_t["hoeffding"]["t_l"]


def test_coverage_same_numbers_on_dask() -> None:
    a = coverage(40, 60, delta=0.1, seed=7, chunk=10)
    b = coverage(40, 60, delta=0.1, seed=7, chunk=10, workers=2)
    assert a.to_dict() == b.to_dict()
    assert not math.isnan(a.mean_t["bernstein"]["t_u"])
