"""humanly.judging against ppi-python 0.2.3 (the reference implementation of PPI, PPI++ and
``ppi_mean_power``; a test-only dependency, never imported by humanly).

First the numbers of issue 24, recorded from ppi-python 0.2.3 (they need no ppi-python to run), through
the estimators on arrays and through ``judge()`` on data; then ppi-python called live on random data.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from humanly import Ratings
from humanly.judging import JudgeOptions, judge
from humanly.judging._ppi import fit, moments, power

Y = np.array([1, 1, 0, 1, 0, 1, 1, 1, 0, 1] * 10, dtype=float)
YHAT = np.array([1, 1, 0, 1, 1, 1, 0, 1, 0, 1] * 10, dtype=float)
YHAT_UNLABELLED = np.array([1, 0, 1, 1, 1, 0, 1, 1] * 250, dtype=float)

#: ppi-python 0.2.3, alpha = 0.1: ppi_mean_ci(lam=None / 1 / 0), the tuned λ, ppi_mean_power
RECORDED = {
    None: (0.66289139, 0.79260434),
    1.0: (0.67473559, 0.82526441),
    0.0: (0.62462334, 0.77537666),
}
RECORDED_LAMBDA = 0.5549573
RECORDED_POWER = (94, 485, 122)  # n, N, effective n at cost_Y=1, cost_Yhat=0.01, max_cost=100
#: every comparison with ppi-python asks for PPI's central-limit interval: with fewer labelled items
#: than docs/judge.md's coverage table needs (500 for one accuracy), the default is the human
#: labels' small-sample interval, which ppi-python does not compute
CLT = JudgeOptions(interval="clt")


@pytest.mark.parametrize("lam", [None, 1.0, 0.0])
def test_issue_numbers_on_arrays(lam: float | None) -> None:
    r = fit(Y, YHAT, moments(YHAT_UNLABELLED), lam=lam)
    low, high = r.interval(0.9)
    assert abs(low[0] - RECORDED[lam][0]) < 1e-8
    assert abs(high[0] - RECORDED[lam][1]) < 1e-8
    if lam is None:
        assert abs(r.lam[0] - RECORDED_LAMBDA) < 1e-7
    if lam == 0.0:  # λ = 0 is the classical interval
        c_low, c_high = r.classical_interval(0.9)
        assert abs(c_low[0] - RECORDED[0.0][0]) < 1e-8 and abs(c_high[0] - RECORDED[0.0][1]) < 1e-8


def _issue_study():
    """The issue's arrays as data: model 'm' always predicts 1, the human label is Y, the judge's label
    is Ŷ, so the model's correctness is Y and the judge's score f is Ŷ."""
    n, big_n = len(Y), len(YHAT_UNLABELLED)
    ids = [f"item{k:05d}" for k in range(n + big_n)]
    human = Ratings.from_long(ids[:n], ["r"] * n, Y.astype(int), classes=[0, 1])
    model = pd.Series(1, index=ids)
    llm = pd.Series(np.concatenate([YHAT, YHAT_UNLABELLED]).astype(int), index=ids)
    return human, {"m": model}, llm


@pytest.mark.parametrize(("estimator", "lam"), [("ppi++", None), ("ppi", 1.0), ("classical", 0.0)])
def test_issue_numbers_through_judge(estimator: str, lam: float | None) -> None:
    human, models, llm = _issue_study()
    res = judge(human, models, judge=llm, level=0.9, estimator=estimator, options=CLT)
    a = res.model("m").accuracy
    assert abs(a.interval.low - RECORDED[lam][0]) < 1e-8
    assert abs(a.interval.high - RECORDED[lam][1]) < 1e-8
    assert abs(a.classical_interval.low - RECORDED[0.0][0]) < 1e-8
    assert abs(a.classical_interval.high - RECORDED[0.0][1]) < 1e-8
    assert (res.n_labelled, res.n_unlabelled) == (100, 2000)
    if lam is None:
        assert abs(a.lam - RECORDED_LAMBDA) < 1e-7


def test_issue_power_numbers() -> None:
    human, models, llm = _issue_study()
    res = judge(human, models, judge=llm, level=0.9)
    e = res.plan(1.0, 0.01, max_cost=100).estimands[0]
    assert (e.n_human, e.n_judge, e.effective_n) == RECORDED_POWER
    assert e.human_n == 100
    rho = res.model("m").accuracy.correlation
    p = power(min(rho, 1 - 1 / 100), 1.0, 0.01, max_cost=100)
    assert (p.n, p.big_n, p.effective_n) == RECORDED_POWER


def test_uniform_probabilities_are_ppi_exactly() -> None:
    """The active (inverse-probability-weighted) estimator with one π for every item is PPI with λ = 1:
    the same point and interval, whatever π is."""
    human, models, llm = _issue_study()
    ppi = judge(human, models, judge=llm, level=0.9, estimator="ppi", options=CLT)
    ppi = ppi.model("m").accuracy
    for p in (0.05, 0.3, 0.9):
        pi = pd.Series(p, index=llm.index)
        opts = JudgeOptions(probabilities=pi, interval="clt")
        act = judge(human, models, judge=llm, level=0.9, estimator="ppi", options=opts)
        a = act.model("m").accuracy
        assert act.design == "active"
        assert a.point == pytest.approx(ppi.point, rel=1e-13, abs=1e-13)
        assert a.se == pytest.approx(ppi.se, rel=1e-12)
        assert a.interval.low == pytest.approx(RECORDED[1.0][0], abs=1e-8)
        assert a.interval.high == pytest.approx(RECORDED[1.0][1], abs=1e-8)
        # the human-only estimate is the plain one too
        assert a.classical_interval.low == pytest.approx(RECORDED[0.0][0], abs=1e-8)


def test_humanly_never_imports_ppi_python() -> None:
    src = Path(__file__).resolve().parents[2] / "src" / "humanly"
    offenders = [p.name for p in src.rglob("*.py") if "ppi_py" in p.read_text(encoding="utf-8")]
    assert offenders == []


# ----------------------------------------------------------------------------- live ppi-python
def _ppi():
    return pytest.importorskip("ppi_py")  # ppi-python==0.2.3, the `test` extra


def _draw(seed: int, n: int, big_n: int, kind: str):
    rng = np.random.default_rng(seed)
    strength = rng.uniform(-1, 1)
    x = rng.random(n + big_n)
    f = np.clip(x + rng.normal(0, 0.3, n + big_n), 0, 1)
    if kind == "binary":
        y = (rng.random(n) < np.clip(0.5 + strength * (x[:n] - 0.5), 0, 1)).astype(float)
        f = (f > 0.5).astype(float) if rng.random() < 0.5 else f
    else:
        y = np.clip(0.5 + strength * (x[:n] - 0.5) + rng.normal(0, 0.2, n), 0, 1)
    return y, f[:n], f[n:]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(5, 400),
    big_n=st.integers(2, 3000),
    kind=st.sampled_from(["binary", "fraction"]),
    lam=st.sampled_from([None, 1.0, 0.0, 0.3]),
    level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_fit_matches_ppi_python_live(seed, n, big_n, kind, lam, level) -> None:
    ppi = _ppi()
    y, f, f_unl = _draw(seed, n, big_n, kind)
    r = fit(y, f, moments(f_unl), lam=lam)
    low, high = r.interval(level)
    ref_low, ref_high = ppi.ppi_mean_ci(y, f, f_unl, alpha=1 - level, lam=lam)
    ref_point = ppi.ppi_mean_pointestimate(y, f, f_unl, lam=lam)
    assert low[0] == pytest.approx(float(np.ravel(ref_low)[0]), abs=1e-9)
    assert high[0] == pytest.approx(float(np.ravel(ref_high)[0]), abs=1e-9)
    assert r.point[0] == pytest.approx(float(np.ravel(ref_point)[0]), abs=1e-9)
    c_low, c_high = ppi.classical_mean_ci(y, alpha=1 - level)
    got = r.classical_interval(level)
    assert got[0][0] == pytest.approx(float(c_low), abs=1e-9)
    assert got[1][0] == pytest.approx(float(c_high), abs=1e-9)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(10, 400),
    cost_judge=st.sampled_from([0.001, 0.01, 0.05, 0.2, 0.5]),
    max_cost=st.one_of(st.none(), st.floats(20, 5000)),
    effective_n=st.integers(10, 3000),
    n_max=st.one_of(st.none(), st.integers(50, 20000)),
)
def test_power_matches_ppi_mean_power_live(
    seed, n, cost_judge, max_cost, effective_n, n_max
) -> None:
    ppi = _ppi()
    y, f, _ = _draw(seed, n, 2, "binary")
    if y.std() == 0 or f.std() == 0:
        return
    rho = float(np.corrcoef(y, f)[0, 1])
    if rho < 1e-9:  # humanly plans a negatively correlated judge as no judge (λ̂ is clipped at 0);
        return  # at ρ ≈ 0 ppi-python 0.2.3 divides 0 by 0 and fails
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = ppi.ppi_mean_power(
            y, f, 1.0, cost_judge, budget=max_cost, effective_n=effective_n, n_max=n_max
        )
    rho_c = min(rho, 1 - 1 / n)
    got = power(rho_c, 1.0, cost_judge, max_cost=max_cost, effective_n=effective_n, n_max=n_max)
    assert (got.n, got.big_n, got.effective_n) == (ref["n"], ref["N"], ref["effective_n"])
    assert got.cost == pytest.approx(ref["cost"], rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(20, 300),
    big_n=st.integers(20, 2000),
    raters=st.integers(1, 3),
    reference=st.sampled_from(["label", "plurality"]),
    lam=st.sampled_from(["ppi++", "ppi", "classical"]),
)
def test_judge_on_data_matches_ppi_python_live(seed, n, big_n, raters, reference, lam) -> None:
    """A three-class soft judge, two models, several raters per item: ``judge()`` gives what
    ppi-python gives on the per-item Y and f computed by hand (f = the judge's probability of the
    model's class; Y = the model's credit against the reference)."""
    ppi = _ppi()
    rng = np.random.default_rng(seed)
    total = n + big_n
    ids = rng.permutation(total) * 7 + 3
    truth = rng.integers(0, 3, total)
    proba = rng.dirichlet(np.ones(3), total) * 0.6
    proba[np.arange(total), truth] += 0.4
    preds = {m: np.where(rng.random(total) < a, truth, rng.integers(0, 3, total))
             for m, a in (("a", 0.8), ("b", 0.6))}  # fmt: skip
    labels = np.where(
        rng.random((n, raters)) < 0.8, truth[:n, None], rng.integers(0, 3, (n, raters))
    )
    human = Ratings.from_long(
        np.repeat(ids[:n], raters), np.tile(np.arange(raters), n), labels.ravel(), classes=[0, 1, 2]
    )
    res = judge(
        human,
        {m: pd.Series(p, index=ids) for m, p in preds.items()},
        judge=pd.DataFrame(proba, index=ids, columns=[0, 1, 2]),
        reference=reference,
        estimator=lam,
        level=0.9,
        options=CLT,
    )
    counts = np.stack([(labels == c).sum(axis=1) for c in range(3)], axis=1)
    if reference == "label":
        credit = counts / raters
    else:
        top = counts == counts.max(axis=1, keepdims=True)
        credit = top / top.sum(axis=1, keepdims=True)
    ys = {m: credit[np.arange(n), p[:n]] for m, p in preds.items()}
    fs = {m: proba[np.arange(total), p] for m, p in preds.items()}
    cases = [("a", ys["a"], fs["a"]), ("b", ys["b"], fs["b"]),
             ("a − b", ys["a"] - ys["b"], fs["a"] - fs["b"])]  # fmt: skip
    lam_value = {"ppi++": None, "ppi": 1.0, "classical": 0.0}[lam]
    frame = res.to_frame().set_index("estimand")
    for name, y, f in cases:
        floor = -1.0 if "−" in name else 0.0
        low, high = ppi.ppi_mean_ci(y, f[:n], f[n:], alpha=0.1, lam=lam_value)
        low, high = (float(np.clip(np.ravel(v)[0], floor, 1.0)) for v in (low, high))
        assert frame.loc[name, "low"] == pytest.approx(low, abs=1e-9)
        assert frame.loc[name, "high"] == pytest.approx(high, abs=1e-9)
        assert math.isfinite(frame.loc[name, "estimate"])
