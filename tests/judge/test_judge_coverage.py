"""Coverage by simulation (judge_sim.py): over many simulated studies per setting, the 95% intervals
of PPI++, PPI and the active (inverse-probability-weighted) estimator cover the true accuracy or
difference 94–96% of the time for n ≥ 100 labelled items; at n = 50 the measured coverage is checked
against a wider floor (92.5–96.5%).

These hold for the judges simulated here only: six item types with *soft* scores (calibrated, poor,
anti-calibrated), whose residuals are seldom exactly 0. A judge that gives labels and is right 90% of
the time under-covers at these n — 91.4% (PPI++) and 88.5% (PPI) for a difference at n = 50 — as the
coverage table of docs/judge.md (*Small samples, honestly*; test_judge_coverage_table.py) shows, and
the small-sample interval is the default there. With N ≥ 100·n unlabelled items, the classical width over
the PPI++ width is 1/√(1 − ρ²) within 5% (ρ clipped at 0: a judge that anti-correlates buys nothing).

Each setting's seed is fixed from its name, so the numbers are the same every run. Studies: 20,000 per
uniform setting, 20,000 per active setting up to n = 300 and 4,000 at n = 1,000 (a pool of 5n items).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from judge_sim import active_studies, rho, settings, truth, uniform_studies

SETTINGS = settings()
ESTIMANDS = ("a", "a-b")


def _seed(*parts: object) -> int:
    return zlib.crc32("/".join(map(str, parts)).encode())


def _coverage(estimand: str, low: np.ndarray, high: np.ndarray) -> float:
    th = truth(estimand)
    return float(np.mean((low <= th) & (th <= high)))


def coverages(name: str, estimand: str, n: int) -> dict[str, float]:
    """The coverage of PPI++, PPI and the active estimator in one setting."""
    setting, seed = SETTINGS[name], _seed(estimand, name, n)
    out = {}
    for label, lam in (("ppi++", None), ("ppi", 1.0)):
        low, high, _, _ = uniform_studies(setting, estimand, n, 10 * n, 20_000, lam, seed=seed)
        out[label] = _coverage(estimand, low, high)
    studies = 20_000 if n <= 300 else 4_000
    low, high, _ = active_studies(setting, estimand, n, 5 * n, studies, None, seed=seed)
    out["active"] = _coverage(estimand, low, high)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 300, 1000])
@pytest.mark.parametrize("estimand", ESTIMANDS)
@pytest.mark.parametrize("name", list(SETTINGS))
def test_coverage_is_nominal(name: str, estimand: str, n: int) -> None:
    got = coverages(name, estimand, n)
    for method, cov in got.items():
        assert 0.94 <= cov <= 0.96, f"{name} {estimand} n={n} {method}: coverage {cov:.4f}"


@pytest.mark.slow
@pytest.mark.parametrize("estimand", ESTIMANDS)
@pytest.mark.parametrize("name", list(SETTINGS))
def test_coverage_at_n_50(name: str, estimand: str) -> None:
    """Measured for these soft judges only: 93.4–95.9% for PPI++, 94.0–94.4% for PPI, 93.6–94.4%
    active (a judge that gives labels covers less at n = 50: docs/judge.md's coverage table)."""
    got = coverages(name, estimand, 50)
    for method, cov in got.items():
        assert 0.925 <= cov <= 0.965, f"{name} {estimand} n=50 {method}: coverage {cov:.4f}"


@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 1000])
@pytest.mark.parametrize("estimand", ESTIMANDS)
@pytest.mark.parametrize("name", list(SETTINGS))
def test_width_ratio_is_one_over_root_one_minus_rho_squared(name, estimand, n) -> None:
    setting = SETTINGS[name]
    _, _, se, classical_se = uniform_studies(
        setting, estimand, n, 100 * n, 2_000, None, seed=_seed("width", estimand, name, n)
    )
    r = max(rho(setting, estimand), 0.0)
    ratio = float(np.mean(classical_se) / np.mean(se))
    assert ratio == pytest.approx(1 / np.sqrt(1 - r**2), rel=0.05)
