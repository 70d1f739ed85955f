"""The ranking estimators against independent computations:

* win rates, PPI (λ = 1) and PPI++ (λ tuned) equal ppi-python 0.2.3's ``ppi_mean_pointestimate`` /
  ``ppi_mean_ci`` run model by model on the comparisons that involve it (to 1e-10);
* ``ties="drop"``: the ratio estimator against a direct per-model computation;
* the joint covariance of the win rates against a brute-force sum of per-comparison influences;
* Bradley–Terry with λ = 0 against statsmodels 0.15's unpenalised binomial GLM (estimates and HC0
  sandwich covariance, to 1e-6); with λ = 1 against a direct minimisation of the PPI loss
  (scipy.optimize, to 1e-6); PPI++'s λ against the trace criterion computed from per-comparison
  gradient arrays.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from rank_sim import World, draw
from scipy.optimize import minimize
from scipy.special import expit

from humanly.data import join_votes
from humanly.ranking import RankOptions, rank

ppi_py = pytest.importorskip("ppi_py")  # ppi-python 0.2.3
sm = pytest.importorskip("statsmodels.api")  # statsmodels 0.15


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    world = World(theta=np.array([0.9, 0.5, 0.2, 0.0, -0.4, -0.8]), tie=0.3)
    human, judges = draw(world, 4000, 700, rng)
    return human, judges


def _per_comparison(study, ties: str):
    """Per comparison: first/second model codes, the human's and each judge's (won-first,
    won-second) shares, computed here from the votes (independently of humanly's design)."""
    n = study.n_comparisons
    out = {}
    for votes in (study.human, *study.judges):
        c, o = votes.comparison, votes.outcome
        count = np.bincount(c, minlength=n).astype(float)
        f = np.bincount(c, weights=(o == 0), minlength=n) / np.maximum(count, 1)
        s = np.bincount(c, weights=(o == 1), minlength=n) / np.maximum(count, 1)
        out[votes.name] = (f, s, count)
    return out


def _score(f, s, ties, own_first):
    own, other = (f, s) if own_first else (s, f)
    if ties == "half":
        return 0.5 + 0.5 * own - 0.5 * other, np.ones_like(f)
    if ties == "loss":
        return own, np.ones_like(f)
    return own, own + other


@pytest.mark.parametrize("ties", ["half", "loss"])
@pytest.mark.parametrize(("estimator", "lam"), [("ppi++", None), ("ppi", 1.0), ("classical", 0.0)])
def test_win_rates_equal_ppi_python_model_by_model(data, ties, estimator, lam) -> None:
    human, judges = data
    res = rank(
        human,
        judges={"sharp": judges["sharp"]},
        ties=ties,
        estimator=estimator,
        options=RankOptions(draws=0),
    )
    study = join_votes(human, {"sharp": judges["sharp"]})
    shares = _per_comparison(study, ties)
    hf, hs, hn = shares["human"]
    jf, js, _ = shares["sharp"]
    lab = hn > 0
    ranking = res.rankings[-1]
    assert ranking.judges == (("sharp",) if estimator != "classical" else ())
    for k, model in enumerate(study.models):
        first, second = study.first == k, study.second == k
        y = np.where(first, _score(hf, hs, ties, True)[0], _score(hf, hs, ties, False)[0])
        f = np.where(first, _score(jf, js, ties, True)[0], _score(jf, js, ties, False)[0])
        involved = first | second
        lab_m, unl_m = involved & lab, involved & ~lab
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            point = ppi_py.ppi_mean_pointestimate(y[lab_m], f[lab_m], f[unl_m], lam=lam)
            low, high = ppi_py.ppi_mean_ci(y[lab_m], f[lab_m], f[unl_m], alpha=0.05, lam=lam)
        row = ranking.win_rate.row(model)
        assert row.estimate == pytest.approx(float(np.squeeze(point)), abs=1e-10)
        assert row.interval.low == pytest.approx(max(float(np.squeeze(low)), 0.0), abs=1e-10)
        assert row.interval.high == pytest.approx(min(float(np.squeeze(high)), 1.0), abs=1e-10)


def test_two_judges_win_rates_tune_lambda_over_the_box(data) -> None:
    """Two judges (ppi-python takes one): per model, λ ∈ [0, 1]² minimises the estimate's variance
    var_L(y − λᵀf)/n + var_U(λᵀf)/N in PPI++'s form λᵀCλ − 2bᵀλ, b = cov_L(y, f) (divisor n), C = (1 +
    n/N)·cov_{L∪U}(f) (divisor n + N − 1) — minimised here with scipy's L-BFGS-B; then the estimate
    ȳ_h + Σλ_j(f̄_j,U − f̄_j,L) and that variance follow."""
    human, judges = data
    res = rank(human, judges=judges, options=RankOptions(draws=0))
    best = res.best
    assert best.judges == ("sharp", "biased")
    study = join_votes(human, judges)
    shares = _per_comparison(study, "half")
    hf, hs, hn = shares["human"]
    lab = hn > 0
    free = 0
    for k, model in enumerate(study.models):
        first = study.first == k
        inv = first | (study.second == k)
        l_, u_ = inv & lab, inv & ~lab
        y = np.where(first, _score(hf, hs, "half", True)[0], _score(hf, hs, "half", False)[0])[l_]
        sides = [_score(*shares[j][:2], "half", own_first=True) for j in best.judges]
        others = [_score(*shares[j][:2], "half", own_first=False) for j in best.judges]
        f = np.column_stack(
            [np.where(first, a[0], o[0]) for a, o in zip(sides, others, strict=True)]
        )
        fl, fu = f[l_], f[u_]
        n, big_n = len(y), len(fu)
        b = ((y - y.mean())[:, None] * (fl - fl.mean(0))).sum(0) / n
        c = (1 + n / big_n) * np.cov(np.vstack([fl, fu]).T, ddof=1)
        fit = minimize(
            lambda lam, c=c, b=b: (lam @ c @ lam - 2 * b @ lam, 2 * c @ lam - 2 * b),
            np.full(2, 0.5),
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.0, 1.0)] * 2,
            options={"ftol": 1e-15, "gtol": 1e-12},
        )
        row = best.win_rate.row(model)
        np.testing.assert_allclose(row.lam, fit.x, atol=1e-6)
        free += int(((fit.x > 1e-6) & (fit.x < 1 - 1e-6)).all())
        lam = np.array(row.lam)
        point = y.mean() + lam @ (fu.mean(0) - fl.mean(0))
        var = np.var(y - fl @ lam) / n + np.var(fu @ lam) / big_n
        assert row.estimate == pytest.approx(point, abs=1e-10)
        assert row.se == pytest.approx(np.sqrt(var), abs=1e-10)
    assert free >= 1  # some model's λ is inside the box: the quadratic, not only its corners


def test_drop_win_rates_are_ratios_of_prediction_powered_means(data) -> None:
    human, judges = data
    study = join_votes(human, {"sharp": judges["sharp"]})
    shares = _per_comparison(study, "drop")
    hf, hs, hn = shares["human"]
    jf, js, _ = shares["sharp"]
    lab = hn > 0
    for estimator in ("classical", "ppi"):
        res = rank(study, ties="drop", estimator=estimator, options=RankOptions(draws=0))
        ranking = res.rankings[-1]
        for k, model in enumerate(study.models):
            first = study.first == k
            inv = first | (study.second == k)
            y = np.where(first, hf, hs)
            dh = hf + hs
            f = np.where(first, jf, js)
            dj = jf + js
            l_, u_ = inv & lab, inv & ~lab
            if estimator == "classical":
                expected = y[l_].sum() / dh[l_].sum()
            else:
                num = y[l_].mean() - f[l_].mean() + f[u_].mean()
                den = dh[l_].mean() - dj[l_].mean() + dj[u_].mean()
                expected = num / den
            assert ranking.win_rate.row(model).estimate == pytest.approx(expected, abs=1e-12)


def test_win_rate_covariance_equals_the_sum_of_per_comparison_influences(data) -> None:
    human, judges = data
    study = join_votes(human, {"sharp": judges["sharp"]})
    res = rank(study, estimator="ppi", options=RankOptions(draws=0))
    est = res.rankings[1].win_rate
    shares = _per_comparison(study, "half")
    hf, hs, hn = shares["human"]
    jf, js, _ = shares["sharp"]
    lab = hn > 0
    m = len(study.models)
    influence = np.zeros((m, study.n_comparisons))
    for k in range(m):
        first = study.first == k
        inv = first | (study.second == k)
        y = np.where(first, 0.5 + 0.5 * (hf - hs), 0.5 - 0.5 * (hf - hs))
        f = np.where(first, 0.5 + 0.5 * (jf - js), 0.5 - 0.5 * (jf - js))
        l_, u_ = inv & lab, inv & ~lab
        r = y - f
        influence[k, l_] = (r[l_] - r[l_].mean()) / l_.sum()
        influence[k, u_] = (f[u_] - f[u_].mean()) / u_.sum()
    brute = influence @ influence.T
    assert est.covariance_models == study.models
    np.testing.assert_allclose(est.covariance, brute, atol=1e-12)


def test_several_votes_on_a_comparison_are_averaged_into_one_unit() -> None:
    """Several human votes on one comparison (1 to 3 voters): the comparison is the unit — its
    score is the mean of its votes, and ppi-python run on those per-comparison means gives the same
    PPI++ win rates and intervals (to 1e-10)."""
    from humanly import simulate

    sim = simulate.arena(5, 1500, 500, votes_per_comparison=3, seed=3)
    rng = np.random.default_rng(3)
    human = sim.human.iloc[np.sort(rng.choice(len(sim.human), 1100, replace=False))]
    judge = sim.judges["sharp"]
    res = rank(human, judges={"llm": judge}, options=RankOptions(draws=0))
    study = join_votes(human, {"llm": judge})
    shares = _per_comparison(study, "half")
    hf, hs, hn = shares["human"]
    jf, js, _ = shares["llm"]
    assert hn.max() == 3 and set(np.unique(hn[hn > 0])) == {1.0, 2.0, 3.0}
    lab = hn > 0
    for k, model in enumerate(study.models):
        first = study.first == k
        y = np.where(first, _score(hf, hs, "half", True)[0], _score(hf, hs, "half", False)[0])
        f = np.where(first, _score(jf, js, "half", True)[0], _score(jf, js, "half", False)[0])
        inv = first | (study.second == k)
        lab_m, unl_m = inv & lab, inv & ~lab
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            point = ppi_py.ppi_mean_pointestimate(y[lab_m], f[lab_m], f[unl_m], lam=None)
            low, high = ppi_py.ppi_mean_ci(y[lab_m], f[lab_m], f[unl_m], alpha=0.05, lam=None)
        row = res.best.win_rate.row(model)
        assert row.votes == int(hn[lab_m].sum()) and row.comparisons == int(lab_m.sum())
        assert row.estimate == pytest.approx(float(np.squeeze(point)), abs=1e-10)
        assert row.interval.low == pytest.approx(max(float(np.squeeze(low)), 0.0), abs=1e-10)
        assert row.interval.high == pytest.approx(min(float(np.squeeze(high)), 1.0), abs=1e-10)


def _design_matrix(study, lab: np.ndarray, keep: np.ndarray) -> np.ndarray:
    m = len(study.models)
    x = np.zeros((int(lab.sum()), m))
    rows = np.arange(int(lab.sum()))
    x[rows, study.first[lab]] = 1.0
    x[rows, study.second[lab]] = -1.0
    return x[:, keep]


def test_human_strengths_equal_an_unpenalised_logistic_fit(data) -> None:
    human, _ = data
    study = join_votes(human)
    res = rank(study, options=RankOptions(draws=0))
    est = res.human.strength
    shares = _per_comparison(study, "half")
    hf, hs, hn = shares["human"]
    lab = hn > 0
    keep = np.arange(1, len(study.models))  # the first model is the reference
    x = _design_matrix(study, lab, keep)
    y = 0.5 + 0.5 * (hf - hs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        glm = sm.GLM(y[lab], x, family=sm.families.Binomial()).fit(cov_type="HC0", tol=1e-14)
    theta = np.concatenate([[0.0], glm.params])
    centred = theta - theta.mean()
    got = np.array([r.estimate for r in est.rows])
    np.testing.assert_allclose(got, centred, atol=1e-6)
    # the sandwich: contrasts with the reference have statsmodels' HC0 covariance
    cov = est.covariance
    diff = cov[1:, 1:] - cov[1:, :1] - cov[:1, 1:] + cov[0, 0]
    np.testing.assert_allclose(diff, glm.cov_params(), atol=1e-6)


def _ppi_loss(study, shares, judge: str, lam: float, ties: str):
    hf, hs, hn = shares["human"]
    jf, js, _ = shares[judge]
    lab = hn > 0
    unl = ~lab
    a, b = study.first, study.second
    sh, dh = _score(hf, hs, ties, True)
    sj, dj = _score(jf, js, ties, True)
    m = len(study.models)

    def loss(free):
        th = np.concatenate([[0.0], free])
        dl = th[a] - th[b]
        ell = np.logaddexp(0.0, dl)
        lab_part = (-(sh - lam * sj) * dl + (dh - lam * dj) * ell)[lab].mean()
        unl_part = lam * (-sj * dl + dj * ell)[unl].mean()
        r_lab = np.where(lab, (dh - lam * dj) * expit(dl) - (sh - lam * sj), 0.0) / lab.sum()
        r_unl = np.where(unl, lam * (dj * expit(dl) - sj), 0.0) / unl.sum()
        r = r_lab + r_unl
        g = np.bincount(a, weights=r, minlength=m) - np.bincount(b, weights=r, minlength=m)
        return lab_part + unl_part, g[1:]

    return loss


@pytest.mark.parametrize("ties", ["half", "drop"])
def test_ppi_strengths_minimise_the_ppi_loss(data, ties) -> None:
    human, judges = data
    study = join_votes(human, {"biased": judges["biased"]})
    res = rank(study, ties=ties, estimator="ppi", options=RankOptions(draws=0))
    got = np.array([r.estimate for r in res.rankings[1].strength.rows])
    loss = _ppi_loss(study, _per_comparison(study, ties), "biased", 1.0, ties)
    fit = minimize(
        loss, np.zeros(len(study.models) - 1), jac=True, method="BFGS", options={"gtol": 1e-12}
    )
    theta = np.concatenate([[0.0], fit.x])
    np.testing.assert_allclose(got, theta - theta.mean(), atol=1e-6)


def test_strengths_with_lambda_zero_are_the_human_fit(data) -> None:
    human, judges = data
    res = rank(
        human,
        judges={"sharp": judges["sharp"]},
        estimator="classical",
        options=RankOptions(draws=0),
    )
    assert [r.name for r in res.rankings] == ["human"]
    alone = rank(human, options=RankOptions(draws=0)).human
    assert res.human.strength.to_dict() == alone.strength.to_dict()


@pytest.mark.parametrize("names", [("sharp",), ("sharp", "biased")])
def test_ppi_plus_plus_lambda_minimises_the_total_variance(data, names) -> None:
    """λ̂ minimises tr(T H⁻¹ V(λ) H⁻¹ Tᵀ) over [0, 1]^J at the PPI estimate: V(λ) = cov_L(g_h −
    Σλ_j g_j)/n + cov_U(Σλ_j g_j)/N (divisors n, N), H the human loss's Hessian, T reference →
    centred coordinates — computed here from per-comparison gradient arrays (one judge: the clipped
    ratio; two: scipy's L-BFGS-B over the box)."""
    human, judges = data
    chosen = {name: judges[name] for name in names}
    study = join_votes(human, chosen)
    res = rank(study, options=RankOptions(draws=0))
    ppi = rank(study, estimator="ppi", options=RankOptions(draws=0)).rankings[-1].strength
    assert res.rankings[-1].judges == names
    theta = np.array([r.estimate for r in ppi.rows])
    shares = _per_comparison(study, "half")
    hf, hs, hn = shares["human"]
    lab = hn > 0
    n, big_n = lab.sum(), (~lab).sum()
    a, b = study.first, study.second
    sig = expit(theta[a] - theta[b])
    m = len(study.models)
    x = np.zeros((study.n_comparisons, m))
    x[np.arange(len(a)), a], x[np.arange(len(a)), b] = 1.0, -1.0
    x = x[:, 1:]
    g_h = ((0.5 + 0.5 * (hf - hs)) - sig)[:, None] * x
    g_j = [((0.5 + 0.5 * (shares[j][0] - shares[j][1])) - sig)[:, None] * x for j in names]
    w = sig * (1 - sig)
    hess = (x[lab] * w[lab, None]).T @ x[lab] / n
    t = np.vstack([np.zeros(m - 1), np.eye(m - 1)])
    t = t - t.mean(axis=0)
    amat = t @ np.linalg.inv(hess)

    def cov(p, q):  # covariance with divisor len(p), traced through A
        pc, qc = p - p.mean(axis=0), q - q.mean(axis=0)
        return np.trace(amat @ (pc.T @ qc / len(p)) @ amat.T)

    k = len(names)
    b_ = np.array([cov(g_h[lab], g_j[i][lab]) / n for i in range(k)])
    c_ = np.array(
        [
            [
                cov(g_j[i][lab], g_j[q][lab]) / n + cov(g_j[i][~lab], g_j[q][~lab]) / big_n
                for q in range(k)
            ]
            for i in range(k)
        ]
    )
    if k == 1:
        expected = np.clip(b_ / c_[0], 0, 1)
    else:
        expected = minimize(
            lambda lam: (lam @ c_ @ lam - 2 * b_ @ lam, 2 * c_ @ lam - 2 * b_),
            np.full(k, 0.5),
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.0, 1.0)] * k,
            options={"ftol": 1e-15, "gtol": 1e-12},
        ).x
    np.testing.assert_allclose(res.rankings[-1].lam, expected, atol=1e-9 if k == 1 else 1e-7)
    assert res.rankings[-1].strength.saving >= 1.0


def test_ppi_with_a_judge_that_copies_the_humans_is_the_human_estimate(data) -> None:
    """A judge whose votes are the human votes, on the labelled comparisons and on copies of them
    (unlabelled): PPI's rectifier is 0 and its unlabelled mean is the human mean, so estimate and
    interval are the human-only ones."""
    human, _ = data
    frame = pd.concat([human, human.assign(id=human["id"] + 10_000)])
    res = rank(human, judges={"copy": frame}, estimator="ppi", options=RankOptions(draws=0))
    for alone, copied in zip(res.human.win_rate.rows, res.rankings[1].win_rate.rows, strict=True):
        assert copied.estimate == pytest.approx(alone.estimate, abs=1e-12)
        assert copied.se == pytest.approx(alone.se, abs=1e-12)
