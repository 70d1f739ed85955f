"""The tables of a :class:`~humanly.ranking.RankResult` recomputed here from their definitions,
independently of humanly's code:

* the Elo column is 1000 + 400·strength/ln 10;
* the pairwise table's standard errors come from the joint covariance (comparisons that share a
  model are not independent), its marginal and simultaneous intervals are difference ± z·se and
  ± c·se, and the strengths' win probability is σ(difference);
* the simultaneous critical value c is the ``level`` quantile of max_{i<j} |Z_i − Z_j| / se_ij for
  Z ~ N(0, Σ), checked against an independent Monte Carlo (numpy's multivariate normal, 200,000
  draws; tolerance four Monte Carlo standard errors of the two quantiles);
* each rank-set is [1 + #models surely better, M − #models surely worse], counted pair by pair;
* the effective human votes per model and in all are the human-only variance over the judge-assisted
  one, times the human votes;
* a judge's agreement table, agreement with ties, decisive agreement and Cohen's κ against
  pandas' crosstab and scikit-learn 1.9's ``cohen_kappa_score``;
* the frontier check per model: the model's human win rate and the judge's agreement with the human
  vote on the model's comparisons, their paired difference and its CLT interval, the status and the
  factor-two flag.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from rank_sim import World, draw
from scipy.special import expit

from humanly.ranking import RankOptions, rank

sklearn_metrics = pytest.importorskip("sklearn.metrics")  # scikit-learn 1.9


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(23)
    world = World(theta=np.linspace(0.8, -0.8, 7), tie=0.25)
    human, judges = draw(world, 3000, 800, rng)
    res = rank(human, judges=judges, seed=4, options=RankOptions(draws=20_000))
    return human, judges, res


def _families(res):
    for ranking in res.rankings:
        yield ranking.win_rate
        yield ranking.strength


def test_the_elo_column(data) -> None:
    _, _, res = data
    for ranking in res.rankings:
        for row in ranking.strength.rows:
            assert row.elo == pytest.approx(1000 + 400 * row.estimate / math.log(10), abs=1e-9)
        assert all(row.elo is None for row in ranking.win_rate.rows)


def test_pairs_from_the_joint_covariance(data) -> None:
    _, _, res = data
    z = NormalDist().inv_cdf(0.975)
    for est in _families(res):
        pos = {m: k for k, m in enumerate(est.covariance_models)}
        cov, c = est.covariance, est.critical_value
        point = {row.model: row.estimate for row in est.rows}
        assert len(est.pairs) == len(pos) * (len(pos) - 1) // 2
        for k, (a, b) in enumerate(zip(est.pairs.first, est.pairs.second, strict=True)):
            i, j = pos[a], pos[b]
            se = math.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
            diff = est.pairs.difference[k]
            if est.kind == "strength":
                assert diff == pytest.approx(point[a] - point[b], abs=1e-12)
                assert est.pairs.probability[k] == pytest.approx(expit(diff), abs=1e-12)
            assert est.pairs.se[k] == pytest.approx(se, rel=1e-12)
            assert (est.pairs.low[k], est.pairs.high[k]) == pytest.approx(
                (diff - z * se, diff + z * se), abs=1e-12
            )
            assert (est.pairs.simultaneous_low[k], est.pairs.simultaneous_high[k]) == (
                pytest.approx((diff - c * se, diff + c * se), abs=1e-12)
            )
        # the covariance is not diagonal: pairs that share a model are correlated
        assert np.abs(cov - np.diag(np.diag(cov))).max() > 0


def _max_z_quantile(cov: np.ndarray, level: float, draws: int, seed: int) -> tuple[float, float]:
    """The ``level`` quantile of max |Z_i − Z_j|/se_ij, Z ~ N(0, cov), and its Monte Carlo standard
    error (√(p(1 − p)/n) over the density, the density from the spacing of nearby quantiles)."""
    e = len(cov)
    zs = np.random.default_rng(seed).multivariate_normal(np.zeros(e), cov, draws, method="eigh")
    i, j = np.triu_indices(e, 1)
    se = np.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
    maxima = (np.abs(zs[:, i] - zs[:, j]) / se).max(axis=1)
    q = float(np.quantile(maxima, level))
    h = 0.005
    spread = np.quantile(maxima, level + h) - np.quantile(maxima, level - h)
    return q, math.sqrt(level * (1 - level) / draws) * spread / (2 * h)


def test_the_simultaneous_critical_value(data) -> None:
    _, _, res = data
    z, m = NormalDist().inv_cdf(0.975), len(res.models)
    bonferroni = NormalDist().inv_cdf(1 - 0.05 / (2 * m * (m - 1) / 2))
    for k, est in enumerate((res.human.strength, res.best.win_rate)):
        assert est.simultaneous == "max_z"
        q, mc_se = _max_z_quantile(est.covariance, 0.95, 200_000, seed=k)
        # humanly's own quantile, from 20,000 draws, has √10 times this one's Monte Carlo error
        assert est.critical_value == pytest.approx(q, abs=4 * mc_se * math.sqrt(1 + 10))
        assert z < est.critical_value < bonferroni


def test_rank_sets_count_the_models_surely_better_and_worse(data) -> None:
    _, _, res = data
    for est in _families(res):
        models = [row.model for row in est.rows]
        for row in est.rows:
            better = worse = 0
            for other in models:
                if other == row.model:
                    continue
                sim = est.pairs.pair(row.model, other)["simultaneous_interval"]
                better += sim.high < 0  # the other is surely better
                worse += sim.low > 0
            assert (row.rank_set.low, row.rank_set.high) == (1 + better, len(models) - worse)
            assert row.rank in row.rank_set
            above = sum(r.estimate > row.estimate for r in est.rows)
            assert row.rank == 1 + above


def test_effective_votes_are_variance_ratios(data) -> None:
    _, _, res = data
    for ranking in res.rankings[1:]:
        for kind in ("win_rate", "strength"):
            est, alone = getattr(ranking, kind), getattr(res.human, kind)
            var_h = np.array([alone.row(r.model).se ** 2 for r in est.rows])
            var = np.array([r.se**2 for r in est.rows])
            for row, vh, v in zip(est.rows, var_h, var, strict=True):
                assert row.effective_votes == pytest.approx(row.votes * vh / v, rel=1e-9)
            assert est.saving == pytest.approx(var_h.sum() / var.sum(), rel=1e-9)
            assert est.effective_votes == pytest.approx(est.saving * res.votes, rel=1e-9)
    for worth in res.judge_worth:
        single = next(r for r in res.rankings if r.judges == (worth.judge,))
        assert worth.saving_win_rate == single.win_rate.saving
        assert worth.saving_strength == single.strength.saving
        assert worth.effective_votes_win_rate == single.win_rate.effective_votes


def _labels(frame: pd.DataFrame) -> pd.Series:
    """Per comparison id: 'first' / 'second' (the models in name order) or 'tie'."""
    a, b = frame["model_a"].to_numpy(str), frame["model_b"].to_numpy(str)
    first = np.where(a < b, a, b)
    winner = np.where(
        frame["winner"] == "model_a",
        frame["model_a"],
        np.where(frame["winner"] == "model_b", frame["model_b"], ""),
    )
    label = np.where(winner == "", "tie", np.where(winner == first, "first", "second"))
    return pd.Series(label, index=frame["id"].to_numpy())


def test_judge_agreement_against_crosstab_and_scikit_learn(data) -> None:
    human, judges, res = data
    h = _labels(human)
    for name, frame in judges.items():
        g = _labels(frame).loc[h.index]
        agreement = res.judge(name).agreement
        order = ["first", "second", "tie"]
        table = pd.crosstab(h, g).reindex(index=order, columns=order, fill_value=0)
        np.testing.assert_array_equal(agreement.table, table.to_numpy(float))
        assert agreement.comparisons == len(h)
        assert agreement.rate == pytest.approx(float((h == g).mean()), abs=1e-12)
        decisive = (h != "tie") & (g != "tie")
        assert agreement.decisive_rate == pytest.approx(
            float((h[decisive] == g[decisive]).mean()), abs=1e-12
        )
        kappa = sklearn_metrics.cohen_kappa_score(h.to_numpy(), g.to_numpy())
        assert agreement.kappa == pytest.approx(kappa, abs=1e-12)


def test_the_frontier_check_per_model(data) -> None:
    human, judges, res = data
    h = _labels(human)
    z = NormalDist().inv_cdf(0.975)
    models = sorted(set(human["model_a"]) | set(human["model_b"]))
    for name, frame in judges.items():
        g = _labels(frame).loc[h.index]
        agree = (h == g).to_numpy(float)
        rows = {row.model: row for row in res.judge(name).frontier}
        assert sorted(rows) == models
        for model in models:
            a, b = human["model_a"].to_numpy(), human["model_b"].to_numpy()
            inv = (a == model) | (b == model)
            first = np.where(a < b, a, b)
            own_first = first == model
            score = np.where(h == "tie", 0.5, np.where((h == "first") == own_first, 1.0, 0.0))
            diff = agree[inv] - score[inv]
            mean, se = diff.mean(), diff.std() / np.sqrt(inv.sum())
            row = rows[model]
            assert row.model_accuracy == pytest.approx(score[inv].mean(), abs=1e-12)
            assert row.judge_accuracy == pytest.approx(agree[inv].mean(), abs=1e-12)
            assert row.difference == pytest.approx(mean, abs=1e-12)
            assert (row.interval.low, row.interval.high) == pytest.approx(
                (mean - z * se, mean + z * se), abs=1e-12
            )
            status = (
                "judge_more_accurate"
                if mean - z * se > 0
                else "judge_less_accurate"
                if mean + z * se < 0
                else "no_clear_difference"
            )
            assert row.status == status
            assert row.at_most_twice == (status != "judge_more_accurate")
            single = next(r for r in res.rankings if r.judges == (name,)).win_rate.row(model)
            assert row.saving == pytest.approx(single.effective_votes / single.votes, rel=1e-12)
        assert len({r.status for r in rows.values()}) >= 2  # the check tells models apart
