"""humanly.budget models, exact probabilities and bounds: majority accuracy, gap indicator, exact win
probabilities, bounds (Don't Label Twice, sections 2–4 and Appendices B–D)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from humanly import InputError
from humanly.budget import (
    CorrelatedErrors,
    Gap,
    IndependentErrors,
    capacity,
    compare,
    cramer_error,
    gap_correlated,
    hoeffding_error,
    majority_accuracy,
    make_error_model,
    outcome,
    outcomes,
    quick_compare,
    sample_size,
    simulate_win,
    win_probability,
)


# --------------------------------------------------------------------------- references
def mp_outcome(
    x: float, y: float, n: int, dps: int = 40, window: tuple[int, int] | None = None
) -> tuple[mp.mpf, mp.mpf, mp.mpf]:
    """Independent reference: sum over the number j of non-zero G's at 40 digits with mpmath (all j, or
    only ``window`` — then only the sides whose mass lies in it are meaningful)."""
    with mp.workdps(dps):
        x, y = mp.mpf(x), mp.mpf(y)
        z = 1 - x - y
        pj = x + y
        r = x / pj
        win = tie = loss = mp.mpf(0)
        lo, hi = window or (0, n)
        for j in range(lo, hi + 1):
            w = mp.binomial(n, j) * pj**j * z ** (n - j)
            a = j // 2 + 1
            if a <= j:
                win += w * mp.betainc(a, j - a + 1, 0, r, regularized=True)
                loss += w * mp.betainc(a, j - a + 1, 0, y / pj, regularized=True)
            if j % 2 == 0:
                tie += w * mp.binomial(j, j // 2) * (r * (y / pj)) ** (j // 2)
        return win, tie, loss


def brute_outcome(x: Fraction, y: Fraction, n: int) -> tuple[Fraction, Fraction, Fraction]:
    """Exact rational enumeration of the trinomial (small n)."""
    z = 1 - x - y
    win = tie = loss = Fraction(0)
    for i in range(n + 1):
        for k in range(n + 1 - i):
            pr = (
                Fraction(
                    math.factorial(n),
                    math.factorial(i) * math.factorial(k) * math.factorial(n - i - k),
                )
                * x**i
                * y**k
                * z ** (n - i - k)
            )
            if i > k:
                win += pr
            elif i == k:
                tie += pr
            else:
                loss += pr
    return win, tie, loss


def rel(a: float, b: object) -> float:
    b = float(b)  # type: ignore[arg-type]
    return abs(a - b) / abs(b) if b != 0 else abs(a)


# --------------------------------------------------------------------------- majority accuracy
@given(q=st.floats(0.0, 1.0), m=st.integers(1, 25))
def test_majority_accuracy_matches_binomial_sum(q: float, m: int) -> None:
    ref = sum(math.comb(m, k) * q**k * (1 - q) ** (m - k) for k in range(m + 1) if 2 * k > m)
    if m % 2 == 0:
        ref += 0.5 * math.comb(m, m // 2) * (q * (1 - q)) ** (m // 2)
    assert majority_accuracy(q, m) == pytest.approx(ref, abs=1e-13)
    assert 0.0 <= majority_accuracy(q, m) <= 1.0


@given(q=st.floats(0.5, 1.0), k=st.integers(1, 12))
def test_even_m_coin_equals_odd_and_lemma_c1(q: float, k: int) -> None:
    even = 2 * k
    # fair-coin ties: M_2k = M_2k-1
    assert majority_accuracy(q, even) == pytest.approx(majority_accuracy(q, even - 1), abs=1e-14)
    # ties as failure, Lemma C.1: M_k = M_k-1 - C(k-1, k/2) q^(k/2) (1-q)^(k/2)
    lemma = majority_accuracy(q, even - 1) - math.comb(even - 1, k) * (q * (1 - q)) ** k
    assert majority_accuracy(q, even, vote_ties="failure") == pytest.approx(lemma, abs=1e-14)


@given(q=st.floats(0.5, 1.0), h=st.integers(1, 10))
def test_lemma_c2(q: float, h: int) -> None:
    m = 2 * h + 1
    sigma = sum(
        math.comb(k, (k + 1) // 2) * (q * (1 - q)) ** ((k + 1) // 2) for k in range(1, m - 1, 2)
    )
    assert majority_accuracy(q, m) == pytest.approx(q + (2 * q - 1) * sigma, abs=1e-13)


@given(q=st.floats(0.5, 1.0, exclude_min=True))
def test_m3_hoeffding_identity(q: float) -> None:
    """Section 3.1: for m = 3, (2M_3(q) − 1)/(2q − 1) = 1 + 2q(1 − q) ≤ 1.5 < √3 (eq. 2)."""
    ratio_closed = 1 + 2 * q * (1 - q)
    if 2 * q - 1 > 1e-6:
        ratio = (2 * majority_accuracy(q, 3) - 1) / (2 * q - 1)
        assert ratio == pytest.approx(ratio_closed, rel=1e-6)
    assert ratio_closed <= 1.5 < math.sqrt(3)
    # hence the Hoeffding bound prefers a single label: B(G(q), 3n) < B(G(M_3(q)), n)
    m = IndependentErrors(0.7, 0.1, q)
    n = 200
    assert hoeffding_error(m.gap(1), 3 * n) <= hoeffding_error(m.gap(3), n) + 1e-300


# --------------------------------------------------------------------------- gap indicator
@given(
    p=st.floats(0.5, 0.99),
    frac=st.floats(0.01, 1.0),
    q=st.floats(0.5, 1.0, exclude_min=True),
    m=st.integers(1, 7),
)
def test_proposition_1(p: float, frac: float, q: float, m: int) -> None:
    eps = frac * (1 - p)
    g = IndependentErrors(p, eps, q).gap(m)
    qm = majority_accuracy(q, m)
    assert g.x + g.y + g.z == pytest.approx(1.0, abs=1e-12)
    assert g.mean == pytest.approx((2 * qm - 1) * eps, abs=1e-12)  # E[G] = (2q − 1)ε
    assert g.z == pytest.approx(p * (p + eps) + (1 - p - eps) * (1 - p), abs=1e-12)
    # the independent model is the correlated one with p_w = p, p_b0 = p_b1 = p + eps, q_b = q_w = q
    c = gap_correlated(qm, qm, p, p + eps, p + eps)
    assert (g.x, g.y) == pytest.approx((float(c[0]), float(c[1])), abs=1e-12)


def test_proposition_2_expectation() -> None:
    m = CorrelatedErrors(0.8, 0.7, 0.6, 0.7, 0.9)
    g = m.gap(1)
    expect = (2 * 0.8 - 1) * 0.4 * 0.7 - (2 * 0.7 - 1) * 0.6 * 0.1
    assert g.mean == pytest.approx(expect, abs=1e-14)
    assert m.assumption1


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"p": 0.4, "eps": 0.1, "q": 0.8}, "p ∈ [0.5, 1]"),
        ({"p": 0.8, "eps": 0.3, "q": 0.8}, "eps ∈ (0, 0.2]"),
        ({"p": 0.8, "eps": 0.0, "q": 0.8}, "eps ∈ (0, 0.2]"),
        ({"p": 0.8, "eps": 0.1, "q": 0.5}, "q ∈ (0.5, 1]"),
        ({"q_b": 0.8, "q_w": 0.7, "p_w": 0.6, "p_b0": 0.5, "p_b1": 0.5}, "must exceed p_w"),
        ({"q_b": 0.4, "q_w": 0.7, "p_w": 0.6, "p_b0": 0.7, "p_b1": 0.9}, "q_b ∈ (0.5, 1]"),
        ({"q_b": 0.8, "q_w": 0.7, "p_w": 0.6, "p_b0": 1.2, "p_b1": 0.9}, "p_b0 ∈ [0.5, 1]"),
        ({"p": 0.8, "eps": 0.1}, "also needs q"),
        ({"p": 0.8, "eps": 0.1, "q": 0.8, "q_b": 0.9}, "either"),
    ],
)
def test_parameter_checks_name_the_condition(kwargs: dict, fragment: str) -> None:
    with pytest.raises(InputError, match=None) as info:
        make_error_model(**kwargs)
    assert fragment in str(info.value)


# --------------------------------------------------------------------------- exact probabilities
def test_exact_matches_rational_brute_force() -> None:
    x, y = Fraction(3, 16), Fraction(11, 80)
    for n in (0, 1, 2, 3, 7, 12, 25):
        bw, bt, bl = brute_outcome(x, y, n)
        o = outcome((float(x), float(y), float(1 - x - y)), n)
        for ours, ref in ((o.win, bw), (o.tie, bt), (o.loss, bl)):
            assert rel(ours, ref) <= 1e-12


@settings(max_examples=20, deadline=None)
@given(
    x=st.floats(0.0, 1.0),
    share=st.floats(0.0, 1.0),
    n=st.integers(1, 60),
)
@example(x=0.25, share=1e-290, n=2)  # y just below the old 1e-290 input floor, loss 1.1e-290
def test_exact_matches_mpmath(x: float, share: float, n: int) -> None:
    y = (1 - x) * share
    if x + y == 0:
        return
    # (1 − x)·share can round above 1 − x: then no z ≥ 0 completes the distribution exactly and the
    # reference (z = 1 − x − y in 40 digits, slightly negative) and ours (z = 0.0) differ by design
    assume(mp.mpf(x) + mp.mpf(y) <= 1)
    w, t, lo = mp_outcome(x, y, n)
    o = outcome((x, y, 1 - x - y), n)
    for ours, ref in ((o.win, w), (o.tie, t), (o.loss, lo)):
        if ref > 1e-290:
            assert rel(ours, ref) <= 1e-12, (ours, ref)


def _tilted_window(x: float, y: float, n: int, k: float = 12.0) -> tuple[int, int]:
    root = 2 * math.sqrt(x * y)
    pt = root / (root + 1 - x - y)
    sd = math.sqrt(n * pt * (1 - pt))
    return max(0, int(n * pt - k * sd)), min(n, int(n * pt + k * sd) + 1)


def mp_error_window(x: float, y: float, n: int) -> tuple[mp.mpf, mp.mpf]:
    """(tie, loss) at 25 digits, summed over ±12 sd of the tilted J (the window where the error's mass
    lies when x > y; 4 sd wider than ours)."""
    _, tie, _ = mp_outcome(x, y, n, dps=25, window=_tilted_window(x, y, n))
    with mp.workdps(25):
        xm, ym = mp.mpf(x), mp.mpf(y)
        pj, r = xm + ym, xm / (xm + ym)
        loss = mp.mpf(0)
        a, b = _tilted_window(x, y, n)
        for j in range(a, b + 1):
            bnd = (j + 1) // 2 - 1  # P(U <= ceil(j/2) - 1)
            if bnd >= 0:
                w = mp.binomial(n, j) * pj**j * (1 - pj) ** (n - j)
                loss += w * mp.betainc(j - bnd, bnd + 1, 0, 1 - r, regularized=True)
    return tie, loss


@pytest.mark.parametrize(("x", "y", "n"), [(0.1875, 0.1375, 1500), (0.4, 0.35, 301)])
def test_exact_error_matches_mpmath_larger_n(x: float, y: float, n: int) -> None:
    """The error side (tie + loss) at the paper's budget, against mpmath over the tilted window."""
    t, lo_ref = mp_error_window(x, y, n)
    o = outcome((x, y, 1 - x - y), n)
    assert rel(o.tie, t) <= 1e-12
    assert rel(o.loss, lo_ref) <= 1e-12


@settings(max_examples=40, deadline=None)
@given(
    x=st.floats(0.0, 1.0),
    share=st.floats(0.0, 1.0),
    n=st.sampled_from([1, 2, 10, 99, 1000, 12345, 10**6]),
)
def test_probabilities_valid(x: float, share: float, n: int) -> None:
    y = (1 - x) * share
    o = outcome((x, y, 1 - x - y), n)
    for v in (o.win, o.tie, o.loss, o.win_probability("half"), o.error("half")):
        assert 0.0 <= v <= 1.0
    assert o.win + o.tie + o.loss == pytest.approx(1.0, abs=1e-12)
    # swapping the roles of the classifiers swaps win and loss
    s = outcome((y, x, 1 - x - y), n)
    assert s.win == pytest.approx(o.loss, rel=1e-9, abs=1e-300)
    assert s.tie == pytest.approx(o.tie, rel=1e-9, abs=1e-300)


def test_vectorised_equals_scalar() -> None:
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 0.5, 50)
    y = rng.uniform(0, 0.5, 50)
    w, t, lo = outcomes(x, y, 777)
    for i in range(50):
        o = outcome((x[i], y[i], 1 - x[i] - y[i]), 777)
        assert (w[i], t[i], lo[i]) == pytest.approx((o.win, o.tie, o.loss), rel=1e-13, abs=1e-300)


def test_degenerate_cases() -> None:
    assert outcome((0.0, 0.0, 1.0), 10).tie == 1.0  # classifiers always agree
    assert outcome((1.0, 0.0, 0.0), 10).win == 1.0
    assert outcome((0.3, 0.2, 0.5), 0).tie == 1.0
    assert win_probability((0.3, 0.3, 0.4), 1, ties="half") == pytest.approx(0.5)
    with pytest.raises(InputError):
        outcome((0.7, 0.7, -0.4), 3)


def test_huge_n_close_to_one_never_above_one() -> None:
    g = IndependentErrors(0.8, 0.01, 0.8).gap(1)
    o = outcome(g, 10**7)
    assert o.win <= 1.0 and o.loss > 0.0  # the tiny error is resolved, not rounded away
    assert o.error() <= cramer_error(g, 10**7)


# --------------------------------------------------------------------------- bounds
@settings(max_examples=40, deadline=None)
@given(
    p=st.floats(0.5, 0.95),
    frac=st.floats(0.05, 1.0),
    q=st.floats(0.51, 1.0),
    m=st.sampled_from([1, 3, 5]),
    n=st.integers(1, 5000),
)
def test_bounds_above_exact_error(p: float, frac: float, q: float, m: int, n: int) -> None:
    g = IndependentErrors(p, frac * (1 - p), q).gap(m)
    err = outcome(g, n).error()
    c, h = cramer_error(g, n), hoeffding_error(g, n)
    assert err <= c * (1 + 1e-12) + 1e-300
    assert err <= h * (1 + 1e-12) + 1e-300
    assert c <= h * (1 + 1e-12)  # Cramér's exponent is the optimal Chernoff exponent


def test_cramer_rate_lemma2() -> None:
    g = Gap(0.1875, 0.1375, 0.675)
    assert g.cramer_rate == pytest.approx(math.log(2 * math.sqrt(g.x * g.y) + g.z), rel=1e-12)
    assert Gap(0.1, 0.2, 0.7).cramer_rate == 0.0  # E[G] < 0: vacuous


# --------------------------------------------------------------------------- paper numbers
def test_fig1_capacity() -> None:
    """Fig. 1 / section 3.3: p = q = 0.75, ε = 0.1, δ = 0.05 (level 0.95), k = 1,500, m = 1: Cramér
    "more than 17 models" (16.8 → 17 classifiers besides the best), Hoeffding "not two" (0.33)."""
    res = capacity(IndependentErrors(0.75, 0.1, 0.75), 0.95, 1500, (1,))
    row = res.rows[0]
    assert row.ratio_cramer_bound == pytest.approx(16.8, abs=0.05)
    assert row.ratio_hoeffding_bound == pytest.approx(0.33, abs=0.005)
    assert row.ratio_exact == pytest.approx(141.95, abs=0.01)  # ours: exact error 3.5e-4
    assert row.ratio_exact > row.ratio_cramer_bound > row.ratio_hoeffding_bound


def test_fig2_single_label_best_across_q() -> None:
    """Fig. 2 a: p = 0.8, ε = 0.01, k = 1,500: m = 1 gives the highest probability for every q."""
    for q in np.linspace(0.55, 0.99, 12):
        res = compare(IndependentErrors(0.8, 0.01, float(q)), 1500, (1, 3, 5, 7))
        assert res.best_labels_per_item == 1, q
        wins = [r.exact for r in res.rows]
        assert wins == sorted(wins, reverse=True)


def test_fig2b_single_label_best_across_budgets() -> None:
    model = IndependentErrors(0.8, 0.01, 0.8)
    for k in (150, 600, 1500, 4500):
        assert compare(model, k, (1, 3, 5)).best_labels_per_item == 1


# --------------------------------------------------------------------------- sample size
def test_sample_size_exact_by_scan() -> None:
    model = IndependentErrors(0.7, 0.1, 0.9)
    res = sample_size(model, 0.95, (1, 3))
    for row in res.rows:
        g = model.gap(row.labels_per_item)
        n = row.n_exact
        assert outcome(g, n).error() <= 0.05
        assert all(outcome(g, k).error() > 0.05 for k in range(1, n))  # smallest by linear scan
        assert row.budget_exact <= row.budget_cramer_bound <= row.budget_hoeffding_bound
        n_c = row.n_cramer_bound
        assert cramer_error(g, n_c) <= 0.05 < cramer_error(g, n_c - 1)
    assert res.best_labels_per_item == 1


def test_sample_size_half_ties() -> None:
    model = IndependentErrors(0.8, 0.05, 0.8)
    a = sample_size(model, 0.9, (1,), ties="half").rows[0]
    b = sample_size(model, 0.9, (1,)).rows[0]
    assert a.n_exact <= b.n_exact


# --------------------------------------------------------------------------- Monte Carlo
@settings(max_examples=6, deadline=None)
@given(
    qb=st.floats(0.55, 0.95),
    dq=st.floats(0.0, 0.3),
    pw=st.floats(0.5, 0.9),
    m=st.sampled_from([1, 2, 3]),
    n=st.integers(5, 60),
)
def test_exact_matches_monte_carlo(qb: float, dq: float, pw: float, m: int, n: int) -> None:
    model = CorrelatedErrors(qb, max(0.51, qb - dq), pw, 0.9, 0.95)
    exact = outcome(model.gap(m), n).win
    mc = simulate_win(model, m, n, 4000, seed=11)
    assert abs(mc.win - exact) <= 5 * max(mc.se, 1e-3)


def test_monte_carlo_seeded() -> None:
    model = IndependentErrors(0.8, 0.05, 0.7)
    a = simulate_win(model, 3, 50, 500, seed=5)
    b = simulate_win(model, 3, 50, 500, seed=5)
    c = simulate_win(model, 3, 50, 500, seed=6)
    assert a == b and a.win != c.win


def test_gap_matches_pair_simulator() -> None:
    """Proposition 2 with majority labels against the foundation's item-level pair simulator."""
    from humanly.simulate import pair

    model = CorrelatedErrors(0.8, 0.65, 0.7, 0.6, 0.9)
    data = pair(40000, 3, q_b=0.8, q_w=0.65, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=2)
    counts = data.ratings.counts
    label = np.argmax(counts, axis=1)  # m = 3 is odd: no ties
    b = data.predictions.hard("better") == label
    w = data.predictions.hard("worse") == label
    gap = b.astype(int) - w.astype(int)
    g = model.gap(3)
    assert np.mean(gap == 1) == pytest.approx(g.x, abs=0.01)
    assert np.mean(gap == -1) == pytest.approx(g.y, abs=0.01)


def test_quick_compare_one_call() -> None:
    res = quick_compare(0.7, 1500)
    assert res.single_is_best and res.best_labels_per_item == 1
    assert res.win[0] > res.win[1] > res.win[2]
    assert res.budget_needed[0] < res.budget_needed[1]
    assert quick_compare(0.4).notes  # chance-level labels are flagged
