"""Coverage of each bound on simulated data with a known oracle, and dask reproducibility."""

from __future__ import annotations

import math

import pytest

from humanly import simulate
from humanly.certification import CertifyOptions, certify, coverage, population_values


def test_population_values_match_a_large_simulation() -> None:
    acc, m = (0.8, 0.7, 0.6), 0.9
    pop = population_values(acc, m, 3)
    d = simulate.oracle(200_000, list(acc), n_classes=3, models={"m": m}, seed=9)
    res = certify(d.ratings, d.predictions)
    assert res.upper_bound.empirical**2 == pytest.approx(pop["empirical2"], abs=0.004)
    assert res.models[0].lower == pytest.approx(pop["lower"], abs=0.004)


def test_coverage_at_least_nominal() -> None:
    delta = 0.2  # a large δ makes the check sensitive: nominal coverage 0.8
    res = coverage(200, 150, delta=delta, seed=4)
    slack = 3 * res.standard_error
    for b, cov in res.coverage.items():
        for side, rate in cov.items():
            assert rate >= 1 - delta - slack, (b, side, rate)
    # the exact (Clopper–Pearson) lower bound is tighter than Hoeffding's
    assert res.mean_t["exact"]["t_l"] < res.mean_t["hoeffding"]["t_l"]


def test_same_numbers_on_a_two_worker_dask_cluster() -> None:
    pytest.importorskip("distributed")  # the humanly[dask] extra
    from humanly._core.parallel import dask_client

    a = coverage(40, 60, delta=0.1, seed=7, chunk=10)
    d = simulate.oracle(200, [0.8, 0.7, 0.75, 0.6, 0.9, 0.85], models={"m": 0.9}, seed=3)
    # named curve with sampled rater subsets (C(6, 3) = 20 > 8): streams (seed, k)
    c1 = certify(
        d.ratings,
        d.predictions,
        rater_mode="named",
        curve=True,
        seed=5,
        options=CertifyOptions(curve_subsets=8),
    )
    with dask_client(workers=2) as client:
        b = coverage(40, 60, delta=0.1, seed=7, chunk=10, client=client)
        c2 = certify(
            d.ratings, d.predictions, rater_mode="named", curve=True, seed=5,
            options=CertifyOptions(curve_subsets=8, client=client),
        )  # fmt: skip
    assert a.to_dict() == b.to_dict()
    assert not math.isnan(a.mean_t["bernstein"]["t_u"])
    assert [p.to_dict() for p in c1.curve] == [p.to_dict() for p in c2.curve]
    assert any(not p.exact for p in c1.curve)
