"""The compiled sweep kernel (recurrences instead of a special function per term) against exact
references: rational enumeration, mpmath, and the established ``outcomes``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_budget_core import brute_outcome, mp_error_window, mp_outcome, rel

from humanly.budget import SweepSpec, outcomes, run_sweep
from humanly.budget.sweep import _FLOOR, _probabilities, chunk_configs

pytest.importorskip("numba")
from humanly.budget._kernel import sweep_error_grid, sweep_errors


def _pair(x: float, share: float, swap: bool) -> tuple[float, float]:
    y = (1 - x) * share
    return (y, x) if swap else (x, y)


@settings(max_examples=60, deadline=None)
@given(x=st.floats(0.0, 1.0), share=st.floats(0.0, 1.0), swap=st.booleans(), n=st.integers(0, 12))
def test_kernel_matches_rational_enumeration(x: float, share: float, swap: bool, n: int) -> None:
    """P(ΣG ≤ 0) for small n against the exact rational sum over the trinomial, both signs of x − y."""
    x, y = _pair(x, share, swap)
    _, tie, loss = brute_outcome(Fraction(x), Fraction(y), n)
    ref = tie + loss
    ours = float(sweep_errors(np.array([x]), np.array([y]), n)[0])
    assert 0.0 <= ours <= 1.0
    if ref > Fraction(10) ** -280:
        assert abs(Fraction(ours) - ref) / ref <= Fraction(1, 10**12)


@settings(max_examples=25, deadline=None)
@given(x=st.floats(0.0, 1.0), share=st.floats(0.0, 1.0), swap=st.booleans(), n=st.integers(13, 121))
def test_kernel_matches_mpmath(x: float, share: float, swap: bool, n: int) -> None:
    x, y = _pair(x, share, swap)
    if x + y == 0:
        return
    _, t, lo = mp_outcome(x, y, n)
    ours = float(sweep_errors(np.array([x]), np.array([y]), n)[0])
    if t + lo > 1e-280:
        assert rel(ours, t + lo) <= 1e-12


@pytest.mark.parametrize(("x", "y", "n"), [(0.1875, 0.1375, 1500), (0.3474, 0.1926, 1001)])
def test_kernel_large_n_matches_mpmath(x: float, y: float, n: int) -> None:
    """The error side at the sweep's large n, against mpmath over ±12 sd of the tilted J."""
    tie, loss = mp_error_window(x, y, n)
    ours = float(sweep_errors(np.array([x]), np.array([y]), n)[0])
    assert rel(ours, tie + loss) <= 1e-12


def test_kernel_grid_matches_outcomes_on_the_paper_n() -> None:
    """Every n of the sweep (single and majority sides) on random gaps, the shared-chain grid against
    the per-n kernel and against ``outcomes`` (Boost's incomplete beta per term).

    Tolerance: a binomial weight C(n, j)pʲzⁿ⁻ʲ evaluated from the rounded doubles p, z (and the
    conditional tails from the rounded ρ, σ) is uncertain by about n·2⁻⁵³ relative in any double
    implementation — Boost's own binomial pmf is off by ~6e-13 at n ≈ 5,800 — so two independent
    computations may differ by a few n·2⁻⁵³; we allow 4·n·2⁻⁵³ (4.9e-12 at n = 11,011) and 1e-12 below."""
    rng = np.random.default_rng(7)
    x = rng.uniform(0.0, 1.0, 300)
    y = (1 - x) * rng.uniform(0.0, 1.0, 300)
    swap = rng.uniform(size=300) < 0.3
    x, y = np.where(swap, y, x), np.where(swap, x, y)
    ns = sorted({m * n for m in (1, 3, 11) for n in SweepSpec().n_items})
    grid = sweep_error_grid(x, y, ns, _FLOOR)
    for i, n in enumerate(ns):
        tol = max(1e-12, 4 * n * 2.0**-53)
        one = sweep_errors(x, y, n, _FLOOR)
        _, tie, loss = outcomes(x, y, n, floor=_FLOOR)
        ref = tie + loss
        assert np.array_equal(grid[i] == 0, ref == 0), n  # the same gaps floored
        assert np.all(np.abs(grid[i] - one) <= tol * ref), n
        assert np.all(np.abs(grid[i] - ref) <= tol * ref), n


def test_kernel_floor_semantics() -> None:
    """Gaps whose Cramér bound (2√(xy) + z)ⁿ is below the floor: error 0 when x ≥ y, 1 when x < y."""
    x, y, n = np.array([0.9, 0.05]), np.array([0.05, 0.9]), 1001
    bound = n * math.log1p(-((math.sqrt(0.9) - math.sqrt(0.05)) ** 2))
    assert bound < math.log(_FLOOR)
    assert list(sweep_errors(x, y, n, _FLOOR)) == [0.0, 1.0]
    # without the floor the small side is a positive number far below it
    assert 0.0 <= sweep_errors(x, y, n)[0] < _FLOOR


def test_sweep_compiled_and_reference_paths_agree() -> None:
    """The sweep's counts are the same with the kernel and with ``outcomes``."""
    spec = SweepSpec(grid_points=4, n_items=(1, 2, 11, 100, 1001), labels_per_item=(3, 11))
    for chunk in (0, 5, 15):
        cfg = chunk_configs(spec, chunk)
        fast = _probabilities(cfg, spec, compiled=True)
        slow = _probabilities(cfg, spec, compiled=False)
        for f, s in zip(fast, slow, strict=True):
            assert np.array_equal(f == 0, s == 0)  # the same gaps floored
            assert np.all(np.abs(f - s) <= 4 * 11011 * 2.0**-53 * s)
    a = run_sweep(spec, show_progress=False)
    assert a.complete and a.violations == 0
