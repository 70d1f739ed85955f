"""One vote per comparison or several, with judges and by simulation (issue 31's last planning item):
the exact variance ratio of the judge-assisted win rate against the simulated variance of the real
estimator, the plan's estimate of it, the seeded simulation against the exact head-to-head, and its
invariants (hypothesis)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

import humanly
from humanly.data import join_votes
from humanly.ranking import RankOptions
from humanly.ranking._design import design
from humanly.ranking._repeat import judge_variance
from humanly.ranking._repeat_sim import simulate_design, world
from humanly.ranking._winrate import win_rates


@pytest.mark.parametrize("ties", ["half", "loss", "drop"])
def test_the_estimates_without_covariance_are_the_full_path_s(ties) -> None:
    """win_rates(covariance=False), which the simulation runs, sums per model before the basis
    transform; its estimates and λ are those of the full path (three averaged votes per comparison
    on some comparisons, ties, two judges)."""
    rng = np.random.default_rng(12)
    human, judge = _stacked_votes(rng, 3, 200, 3, 300)
    human.loc[rng.random(len(human)) < 0.2, "winner"] = "tie"
    other = judge.assign(winner=np.where(rng.random(len(judge)) < 0.3, "tie", judge["winner"]))
    d = design(join_votes(human, {"j1": judge, "j2": other}))
    for judges, rule in (((), "classical"), ((1,), "ppi++"), ((1, 2), "ppi++"), ((2,), "ppi")):
        full = win_rates(d, judges, rule, ties)
        lean = win_rates(d, judges, rule, ties, covariance=False)
        np.testing.assert_allclose(lean.point, full.point, rtol=0, atol=1e-12)
        np.testing.assert_allclose(lean.lam, full.lam, rtol=0, atol=1e-12)


def _judge_chance(mu: np.ndarray | float) -> np.ndarray | float:
    """A sharp judge: it names the first answer with probability μ⁶/(μ⁶ + (1 − μ)⁶)."""
    return mu**6 / (mu**6 + (1 - mu) ** 6)


def _truth() -> tuple[float, float, float, float]:
    """τ², σ²_w, C, F of the world of :func:`_stacked_votes` (μ_c ~ Beta(2, 2), no ties)."""
    pdf = stats.beta(2, 2).pdf
    e_g = integrate.quad(lambda u: _judge_chance(u) * pdf(u), 0, 1)[0]
    c = integrate.quad(lambda u: (u - 0.5) * _judge_chance(u) * pdf(u), 0, 1)[0]
    return 0.05, 0.2, c, e_g * (1 - e_g)


def _stacked_votes(rng, reps: int, n: int, m: int, n_unl: int):
    """``reps`` independent two-model studies ("a<r>" vs "b<r>"), each with n comparisons of m human
    votes and n_unl judge-only ones: comparison c's first model wins a human vote with probability
    μ_c ~ Beta(2, 2), the judge votes once on every comparison."""
    per = n + n_unl
    ids = np.arange(reps * per)
    rep = np.repeat(np.arange(reps), per)
    names = (
        np.arange(reps).astype(str).astype(object)
    )  # each study's names built once, then indexed
    first, second = ("a" + names)[rep], ("b" + names)[rep]
    labelled = np.tile(np.r_[np.ones(n, bool), np.zeros(n_unl, bool)], reps)
    mu = rng.beta(2, 2, len(ids))
    judge_first = rng.random(len(ids)) < _judge_chance(mu)
    judge = pd.DataFrame(
        {
            "id": ids,
            "model_a": first,
            "model_b": second,
            "winner": np.where(judge_first, "model_a", "model_b"),
        }
    )
    hid = np.repeat(ids[labelled], m)
    human_first = rng.random(len(hid)) < np.repeat(mu[labelled], m)
    human = pd.DataFrame(
        {
            "id": hid,
            "model_a": np.repeat(first[labelled], m),
            "model_b": np.repeat(second[labelled], m),
            "winner": np.where(human_first, "model_a", "model_b"),
        }
    )
    return human, judge


def _variance_of_the_estimator(seed: int, reps: int, budget: int, m: int, n_unl: int) -> float:
    human, judge = _stacked_votes(np.random.default_rng(seed), reps, budget // m, m, n_unl)
    d = design(join_votes(human, {"llm": judge}))
    # each model's PPI++ win rate, λ tuned per model (its estimates equal the full path's: tested above)
    fit = win_rates(d, (1,), "ppi++", "half", covariance=False)
    first = np.char.startswith(np.array(d.models, dtype=str), "a")
    return float(fit.point[first].var(ddof=1))


def test_the_judge_variance_ratio_matches_the_simulated_estimator() -> None:
    """3,000 replicates of a study (budget 300 human votes, 900 judge-only comparisons) with one
    vote per comparison and with three: the PPI++ win rate's variance ratio is the formula's, within
    Monte Carlo error, and clearly below the human-only 1 + 2·ICC = 1.4."""
    tau2, s2, c, f = _truth()
    reps, budget, n_unl = 3000, 300, 900
    v1 = _variance_of_the_estimator(1, reps, budget, 1, n_unl)
    v3 = _variance_of_the_estimator(2, reps, budget, 3, n_unl)
    simulated = v3 / v1
    se = simulated * np.sqrt(4 / (reps - 1))  # two independent sample variances
    f1 = judge_variance(tau2, s2, c, f, n_unl, budget, 1, "ppi++")
    f3 = judge_variance(tau2, s2, c, f, n_unl, budget, 3, "ppi++")
    assert v1 == pytest.approx(f1[0], rel=3 * np.sqrt(2 / (reps - 1)))
    assert simulated == pytest.approx(f3[0] / f1[0], abs=3 * se)
    human_only = 1 + 2 * tau2 / (tau2 + s2)
    assert f3[0] / f1[0] < human_only - 3 * se


def test_the_plan_estimates_the_judge_ratio() -> None:
    """A pilot with three human votes on each of 3,000 comparisons and 3,000 judge-only ones: the
    plan's ratios and ICC_judge are those of the world's moments."""
    tau2, s2, c, f = _truth()
    human, judge = _stacked_votes(np.random.default_rng(5), 1, 3000, 3, 3000)
    budget = 1200
    res = humanly.rank(
        human,
        judges={"llm": judge},
        options=RankOptions(draws=0, budget=budget, repeat_simulations=0),
    )
    plan = res.repeat
    assert plan.icc == pytest.approx(tau2 / (tau2 + s2), abs=0.03)
    jp = plan.judges[0]
    assert jp.status == "identified" and jp.unlabelled == 3000
    a1 = judge_variance(tau2, s2, c, f, 3000, budget, 1, "ppi++")[2]
    assert jp.icc == pytest.approx(a1 / (a1 + s2), abs=0.03)
    assert jp.icc < plan.icc
    v1 = judge_variance(tau2, s2, c, f, 3000, budget, 1, "ppi++")[0]
    for row in jp.rows:
        m = row.votes_per_comparison
        vm, lam, _ = judge_variance(tau2, s2, c, f, 3000, budget, m, "ppi++")
        assert row.variance_ratio == pytest.approx(vm / v1, abs=0.03 * m)
        assert row.lam == pytest.approx(lam, abs=0.05)
        human_row = next(r for r in plan.rows if r.votes_per_comparison == m)
        assert 1.0 <= row.variance_ratio <= human_row.variance_ratio + 1e-12
    assert plan.simulation == "off" and all(r.simulated is None for r in plan.rows)


def _head_to_head(seed: int, n: int, votes: int, q: float, t: float, pi: float) -> pd.DataFrame:
    """Two models, ``votes`` votes on each of n comparisons under Dorner & Hardt's model."""
    rng = np.random.default_rng(seed)
    truth = np.repeat(rng.random(n) < pi, votes)
    tie = rng.random(n * votes) < t
    right = rng.random(n * votes) < q
    winner = np.where(tie, "tie", np.where(right == truth, "model_a", "model_b"))
    return pd.DataFrame(
        {"id": np.repeat(np.arange(n), votes), "model_a": "hi", "model_b": "lo", "winner": winner}
    )


def test_the_simulated_head_to_head_matches_the_exact_majority_probability() -> None:
    """In a two-model study the simulation's head-to-head, each comparison's votes combined by
    majority as in the paper, is the exact binomial probability within 3 Monte Carlo SE; with one
    vote per comparison so is the plan's own simulated number (averaging one vote is the vote)."""
    pilot = _head_to_head(7, 600, 3, q=0.8, t=0.2, pi=0.6)
    res = humanly.rank(pilot, options=RankOptions(draws=0, budget=120, repeat_simulations=400))
    plan = res.repeat
    assert plan.simulation == "identified" and plan.simulated_accuracy == plan.accuracy
    assert plan.simulated_models == ("hi", "lo")
    d = design(join_votes(pilot))
    theta = np.array([r.estimate for r in res.human.strength.rows])
    hi, lo = res.models.index(plan.higher), res.models.index(plan.lower)
    w = world(d, theta, hi, lo, plan.accuracy, plan.tie_share)
    assert w is not None
    for row in plan.rows:
        m = row.votes_per_comparison
        exact = row.probability_correct
        assert 0.6 < exact < 0.99  # a head-to-head that can go either way
        sim = simulate_design(
            d, w, m, plan.budget, 20_000, np.random.default_rng(m), combine="majority"
        )
        assert sim.probability_pair == pytest.approx(exact, abs=3 * sim.probability_pair_se)
        if m == 1:
            mine = row.simulated
            assert mine.probability_pair == pytest.approx(exact, abs=3 * mine.probability_pair_se)


def test_the_simulation_is_seeded_and_can_be_turned_off() -> None:
    pilot = _head_to_head(8, 300, 2, q=0.75, t=0.1, pi=0.7)
    judge = pilot.drop_duplicates("id").assign(winner="model_a")
    opts = RankOptions(draws=0, repeat_simulations=50)
    a = humanly.rank(pilot, judges={"j": judge}, seed=4, options=opts).repeat
    b = humanly.rank(pilot, judges={"j": judge}, seed=4, options=opts).repeat
    c = humanly.rank(pilot, judges={"j": judge}, seed=5, options=opts).repeat
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    assert a.to_dict() != c.to_dict()
    assert a.method == "exact_and_simulated" and a.simulations == 50 and a.seed == 4
    assert all(r.simulated is not None for r in a.rows)
    assert type(a).from_dict(a.to_dict()).to_dict() == a.to_dict()
    off = humanly.rank(
        pilot, judges={"j": judge}, options=RankOptions(draws=0, repeat_simulations=0)
    ).repeat
    assert off.method == "exact" and off.simulation == "off" and off.simulations == 0
    assert all(r.simulated is None for r in off.rows)
    assert all(r.simulated is None for j in off.judges for r in j.rows)
    with pytest.raises(humanly.InputError, match="repeat_simulations"):
        humanly.rank(pilot, options=RankOptions(repeat_simulations=-1))


def test_one_vote_per_comparison_without_repeats_is_simulated_at_the_least_accurate_votes() -> None:
    """With one vote per comparison q is not identified: the world takes the least accurate votes
    the strengths allow (the most uneven pair is then decided by its truth alone), and one vote per
    comparison still orders the models best."""
    rng = np.random.default_rng(3)
    strength = np.array([0.9, 0.3, 0.1, -0.2, -0.6])
    names = np.array(["a", "b", "c", "d", "e"])
    n = 900
    x, y = rng.choice(5, n), rng.integers(1, 5, n)
    y = (x + y) % 5
    p = 1 / (1 + np.exp(-(strength[x] - strength[y])))
    votes = pd.DataFrame(
        {
            "id": range(n),
            "model_a": names[x],
            "model_b": names[y],
            "winner": np.where(rng.random(n) < p, "model_a", "model_b"),
        }
    )
    plan = humanly.rank(votes, options=RankOptions(draws=0, repeat_simulations=1000)).repeat
    assert plan.status == "not_identified" and plan.simulation == "least_accurate"
    assert plan.simulated_accuracy > 0.5
    for name in ("ordered_share", "probability_ranking"):
        values = [getattr(r.simulated, name) for r in plan.rows]  # m = 1, 3, 5
        ses = [getattr(r.simulated, name + "_se") for r in plan.rows]
        for k in (1, 2):
            assert values[0] > values[k] + 2 * np.hypot(ses[0], ses[k]), name


@settings(max_examples=60, deadline=None)
@given(
    tau2=st.floats(0.0, 0.25),
    s2=st.floats(0.0, 0.25),
    rho=st.floats(-1.0, 1.0),
    f=st.floats(1e-4, 0.25),
    n_unl=st.integers(0, 10_000),
    budget=st.integers(1, 10_000),
    m=st.integers(1, 9),
    rule=st.sampled_from(("ppi++", "ppi")),
)
def test_the_judge_ratio_lies_between_one_and_m(tau2, s2, rho, f, n_unl, budget, m, rule) -> None:
    c = rho * np.sqrt(tau2 * f)  # |C| ≤ √(τ²F): a covariance
    v1, lam1, a1 = judge_variance(tau2, s2, c, f, n_unl, budget, 1, rule)
    vm, lam, _ = judge_variance(tau2, s2, c, f, n_unl, budget, m, rule)
    assert 0.0 <= lam <= 1.0 and 0.0 <= lam1 <= 1.0 and a1 >= 0.0
    if v1 > 0:
        assert 1.0 - 1e-9 <= vm / v1 <= m + 1e-9


@settings(max_examples=15, deadline=None)
@given(
    q=st.floats(0.55, 1.0),
    t=st.floats(0.0, 0.5),
    pi=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**16),
    shuffle=st.randoms(use_true_random=False),
)
def test_simulated_probabilities_are_probabilities_and_row_order_free(
    q, t, pi, seed, shuffle
) -> None:
    pilot = _head_to_head(seed, 60, 2, q=q, t=t, pi=pi)
    judge = pilot.drop_duplicates("id").assign(winner="model_b")
    opts = RankOptions(draws=0, repeat_simulations=20)
    plan = humanly.rank(pilot, judges={"j": judge}, options=opts).repeat
    order = list(range(len(pilot)))
    shuffle.shuffle(order)
    again = humanly.rank(pilot.iloc[order], judges={"j": judge}, options=opts).repeat
    assert again.to_dict() == plan.to_dict()
    for row in (*plan.rows, *(r for j in plan.judges for r in j.rows)):
        lo, hi = row.variance_ratio_interval
        assert (lo, hi) == (1.0, float(row.votes_per_comparison))
        if row.variance_ratio is not None:
            assert lo - 1e-12 <= row.variance_ratio <= hi + 1e-12
        if row.simulated is not None:
            s = row.simulated
            for v in (s.probability_pair, s.ordered_share, s.probability_ranking):
                assert 0.0 <= v <= 1.0
            assert s.probability_ranking <= s.ordered_share + 1e-12
