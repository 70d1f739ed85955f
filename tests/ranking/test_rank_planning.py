"""Planning: one vote per comparison or several (*Don't Label Twice* in the pairwise setting), checked
against brute force and simulation; which comparisons to send to human voters next (active
selection), and the inverse-probability-weighted ranking once their votes are in."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from rank_sim import World, draw

import humanly
from humanly.ranking import RankOptions, select
from humanly.ranking._repeat import majority, probability_ahead


@pytest.mark.parametrize(
    ("m", "q", "t"), [(1, 0.7, 0.2), (3, 0.7, 0.0), (3, 0.6, 0.3), (5, 0.8, 0.1)]
)
def test_majority_against_enumeration(m, q, t) -> None:
    probs = {"right": (1 - t) * q, "wrong": (1 - t) * (1 - q), "tie": t}
    out = [0.0, 0.0, 0.0]
    for votes in itertools.product(probs, repeat=m):  # every sequence of m votes
        p = math.prod(probs[v] for v in votes)
        c, w = votes.count("right"), votes.count("wrong")
        out[0 if c > w else 1 if w > c else 2] += p
    np.testing.assert_allclose(majority(m, q, t), out, atol=1e-14)


@pytest.mark.parametrize(("n", "p_h", "p_l"), [(1, 0.5, 0.3), (7, 0.4, 0.35), (40, 0.3, 0.25)])
def test_probability_ahead_against_the_trinomial_sum(n, p_h, p_l) -> None:
    p_t = 1 - p_h - p_l
    total = 0.0
    for w in range(n + 1):
        for lose in range(n + 1 - w):
            ties = n - w - lose
            p = (
                math.factorial(n)
                / (math.factorial(w) * math.factorial(lose) * math.factorial(ties))
                * p_h**w
                * p_l**lose
                * p_t**ties
            )
            total += p if w > lose else 0.5 * p if w == lose else 0.0
    assert probability_ahead(n, p_h, p_l) == pytest.approx(total, abs=1e-12)


def _repeated_votes(rng, n_comp: int, votes_per: int, q: float, t: float, pi: float):
    """Comparisons of two models ("hi" truly better on a share pi of them) with votes_per votes each,
    under Dorner & Hardt's model: a tie with probability t, else right with probability q."""
    truth_hi = rng.random(n_comp) < pi
    rows = []
    for c in range(n_comp):
        for _ in range(votes_per):
            u = rng.random()
            if u < t:
                winner = "tie"
            else:
                right = rng.random() < q
                winner = "model_a" if right == truth_hi[c] else "model_b"
            rows.append((c, "hi", "lo", winner))
    return pd.DataFrame(rows, columns=["id", "model_a", "model_b", "winner"])


def test_the_repeat_plan_is_verified_by_simulation() -> None:
    rng = np.random.default_rng(4)
    q, t, pi = 0.8, 0.2, 0.7
    pilot = _repeated_votes(rng, 600, 3, q, t, pi)
    res = humanly.rank(pilot, options=RankOptions(draws=0, budget=300))
    plan = res.repeat
    assert plan.status == "identified" and plan.repeated == 600
    assert plan.accuracy == pytest.approx(q, abs=0.03)
    assert plan.tie_share == pytest.approx(t, abs=0.03)
    assert (plan.higher, plan.lower) == ("hi", "lo")
    one, three = plan.rows[0], plan.rows[1]
    assert one.variance_ratio == 1.0 and three.variance_ratio > 1.0
    # simulate the planned head-to-head with the pilot's own q, t and π
    q_hat, t_hat = plan.accuracy, plan.tie_share
    p1 = 1 / (1 + math.exp(-res.human.strength.adjacent[0].difference))
    pi_hat = ((p1 - t_hat / 2) / (1 - t_hat) - (1 - q_hat)) / (2 * q_hat - 1)
    for row in plan.rows:
        m = row.votes_per_comparison
        runs, n = 4000, row.comparisons
        truth = rng.random((runs, n)) < pi_hat
        counts = rng.multinomial(
            m, [(1 - t_hat) * q_hat, (1 - t_hat) * (1 - q_hat), t_hat], size=(runs, n)
        )
        right, wrong = counts[..., 0], counts[..., 1]
        hi_wins = np.where(truth, right > wrong, wrong > right)
        lo_wins = np.where(truth, wrong > right, right > wrong)
        score = hi_wins.sum(1) - lo_wins.sum(1)
        simulated = np.mean(score > 0) + 0.5 * np.mean(score == 0)
        se = math.sqrt(simulated * (1 - simulated) / runs)
        assert row.probability_correct == pytest.approx(simulated, abs=4 * se + 1e-3), m
    # Dorner & Hardt: one vote per comparison identifies the better model most often
    probs = [r.probability_correct for r in plan.rows]
    assert probs == sorted(probs, reverse=True)


def test_the_design_effect_matches_the_variance_of_averaged_votes() -> None:
    """Comparisons with their own chance p_c ~ Beta(2, 2) that the first model wins (no ties):
    the ICC is var(p)/(p̄(1 − p̄)) = 0.2, so m averaged votes cost 1 + 0.2·(m − 1) in variance."""
    rng = np.random.default_rng(8)
    p = rng.beta(2, 2, 3000)
    rows = [
        (c, "a", "b", "model_a" if rng.random() < p[c] else "model_b")
        for c in range(3000)
        for _ in range(4)
    ]
    votes = pd.DataFrame(rows, columns=["id", "model_a", "model_b", "winner"])
    plan = humanly.rank(votes, options=RankOptions(draws=0)).repeat
    assert plan.icc == pytest.approx(0.2, abs=0.03)
    for row in plan.rows:
        assert row.variance_ratio == pytest.approx(
            1 + 0.2 * (row.votes_per_comparison - 1), abs=0.03 * row.votes_per_comparison
        )


WORLD = World(theta=np.linspace(0.8, -0.8, 6), tie=0.25)


def test_selection_probabilities_follow_the_rule() -> None:
    rng = np.random.default_rng(2)
    human, judges = draw(WORLD, 6000, 600, rng)
    sel = select(human, judges=judges, budget=500, seed=1)
    assert sel.pool == 5400 and sel.probability.sum() == pytest.approx(500)
    assert np.all(sel.probability > 0) and np.all(sel.probability <= 0.9 + 1e-12)
    again = select(human.sample(frac=1, random_state=1), judges=judges, budget=500, seed=1)
    assert again.to_dict() == sel.to_dict()
    assert len(sel.selected_comparisons()) == sel.n_selected
    with pytest.raises(humanly.InputError, match="budget=5000"):
        select(human, judges=judges, budget=5000)
    with pytest.raises(humanly.InputError, match="needs a judge"):
        select(human, budget=10)


def test_uniform_probabilities_give_the_unweighted_estimates() -> None:
    rng = np.random.default_rng(3)
    human, judges = draw(WORLD, 3000, 500, rng)
    judge = {"sharp": judges["sharp"]}
    probs = pd.Series(0.3, index=judges["sharp"]["id"].to_numpy())
    plain = humanly.rank(human, judges=judge, estimator="ppi", options=RankOptions(draws=0))
    weighted = humanly.rank(
        human, judges=judge, estimator="ppi", options=RankOptions(draws=0, probabilities=probs)
    )
    for family in ("win_rate", "strength"):
        for a, b in zip(
            getattr(plain.rankings[1], family).rows,
            getattr(weighted.rankings[1], family).rows,
            strict=True,
        ):
            assert b.estimate == pytest.approx(a.estimate, abs=1e-12)
            assert b.se == pytest.approx(a.se, abs=1e-12)


@pytest.mark.slow
def test_the_ranking_after_an_active_selection_is_unbiased() -> None:
    """Select with the judges, draw human votes on the selected comparisons, rank with the
    probabilities: over many runs the win rates and strengths average to the truth."""
    rng = np.random.default_rng(6)
    truth = {"win_rate": WORLD.win_rates(), "strength": WORLD.strengths()}
    errors: dict[str, list[np.ndarray]] = {"win_rate": [], "strength": []}
    runs = 80
    for r in range(runs):
        every, judges = draw(WORLD, 4000, 4000, rng)  # the human vote each comparison would get
        human = every.iloc[:300]  # a pilot, voted for sure
        sel = select(human, judges=judges, budget=400, seed=r)
        new = every[every["id"].isin(set(sel.selected_comparisons()))]
        res = humanly.rank(
            pd.concat([human, new]),
            judges=judges,
            seed=r,
            options=RankOptions(draws=0, probabilities=sel),
        )
        for family in errors:
            est = np.array([row.estimate for row in getattr(res.best, family).rows])
            errors[family].append(est - truth[family])
    for family, errs in errors.items():
        e = np.array(errs)
        assert np.all(np.abs(e.mean(0)) <= 4 * e.std(0) / np.sqrt(runs) + 0.005), family


def test_the_planning_curve_grows_with_the_votes() -> None:
    rng = np.random.default_rng(9)
    human, judges = draw(WORLD, 3000, 400, rng)
    res = humanly.rank(human, judges=judges, options=RankOptions(draws=1000))
    for ranking in res.rankings:
        for est in (ranking.win_rate, ranking.strength):
            curve = est.curve
            assert [p.votes for p in curve] == [200, 400, 800, 1600, 3200, 6400, 12800]
            separated = [p.separated for p in curve]
            assert separated == sorted(separated)
            assert all(0 <= p.share <= 1 for p in curve)
            assert curve[-1].separated <= len(est.adjacent)
            # at the votes given, each pair counts Φ(|Δ|/se − c)
            from statistics import NormalDist

            expected = sum(
                NormalDist().cdf(abs(a.difference) / a.se - est.critical_value)
                for a in est.adjacent
            )
            assert curve[1].separated == pytest.approx(expected)
