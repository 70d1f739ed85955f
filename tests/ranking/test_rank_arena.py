"""On the shared Chatbot Arena data (../shared/data/arena: 13,440 comparisons of 20 models, a human
vote and two judges' votes on each): 1,000 human votes drawn with fixed seeds, the judges on every
comparison.

* The judge-assisted (PPI++) rank-sets are no wider, on average, than the human-only ones. One
  subsample can go either way by a fraction of a rank (these judges save only ~5–15% of the human
  votes: a single human vote is noisy, so even a good judge tracks it loosely), so the average is over
  the models and over eight fixed subsamples (seeds 0–7).
* The votes needed to separate two adjacent models hold up in simulation: in a Bradley–Terry world
  with the human-only strengths as truth and the arena's pairs and tie rate, that many votes separate
  the pair with about the planned probability. The same for the plan with both judges: in a world with
  the judge-assisted strengths as truth, judges that agree with the (hidden) human vote as often as
  the real ones do, and the judge-only comparisons growing with the human votes as the plan assumes.
* gpt-3.5-turbo, which names model A in 86% of its votes, is flagged as favouring the first position.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly.data import join_votes, read_votes
from humanly.ranking import RankOptions


@pytest.fixture(scope="module")
def arena(shared_data):
    folder = shared_data / "arena"
    human = pd.read_json(folder / "human.jsonl", lines=True)
    judges = {
        "claude-3-opus": read_votes(folder / "judge-claude-3-opus.jsonl", name="claude-3-opus"),
        "gpt-3.5-turbo": read_votes(folder / "judge-gpt-3.5-turbo.jsonl", name="gpt-3.5-turbo"),
    }
    return human, judges


def _subsample(human: pd.DataFrame, seed: int, n: int = 1000) -> pd.DataFrame:
    keep = np.sort(np.random.default_rng(seed).choice(len(human), n, replace=False))
    return human.iloc[keep]


def _mean_size(estimates) -> float:
    return float(np.mean([r.rank_set.size for r in estimates.rows]))


def test_judge_assisted_rank_sets_are_no_wider(arena) -> None:
    human, judges = arena
    sizes = {
        ("human", "win_rate"): [],
        ("human", "strength"): [],
        ("judges", "win_rate"): [],
        ("judges", "strength"): [],
    }
    for seed in range(8):
        study = join_votes(_subsample(human, seed), judges)
        res = humanly.rank(study, seed=seed, options=RankOptions(draws=2000))
        assert res.best.judges == ("claude-3-opus", "gpt-3.5-turbo")
        for family in ("win_rate", "strength"):
            sizes[("human", family)].append(_mean_size(getattr(res.human, family)))
            sizes[("judges", family)].append(_mean_size(getattr(res.best, family)))
    for family in ("win_rate", "strength"):
        assert np.mean(sizes[("judges", family)]) <= np.mean(sizes[("human", family)]), sizes


def test_position_bias_and_agreement(arena) -> None:
    human, judges = arena
    res = humanly.rank(_subsample(human, 0), judges=judges, options=RankOptions(draws=0))
    gpt = res.judge("gpt-3.5-turbo")
    assert gpt.position.status == "favours_first"
    assert gpt.position.judge_first_share > 0.8 > 0.6 > gpt.position.human_first_share
    assert gpt.position.p_value < 1e-6
    claude = res.judge("claude-3-opus")
    assert claude.agreement.comparisons == 1000
    assert claude.agreement.table.sum() == pytest.approx(1000)
    assert claude.agreement.decisive_rate > gpt.agreement.decisive_rate
    assert all(
        row.at_most_twice == (row.status != "judge_more_accurate") for row in claude.frontier
    )
    assert res.repeat.status == "not_identified"  # one human vote per comparison


def _world_votes(rng, first, second, theta, tie, n, names):
    """n comparisons drawn from the arena's pairs; votes with P(first wins) = σ(δ) − t/2, P(tie) = t
    (t capped at 2·min(σ, 1 − σ) for the most uneven pairs), so that the Bradley–Terry estimand (ties
    half) is exactly ``theta``."""
    pick = rng.integers(0, len(first), n)
    a, b = first[pick], second[pick]
    p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
    tie = np.minimum(tie, 2 * np.minimum(p, 1 - p))
    u = rng.random(n)
    outcome = np.where(u < p - tie / 2, "model_a", np.where(u < p + tie / 2, "tie", "model_b"))
    return pd.DataFrame(
        {"id": np.arange(n), "model_a": names[a], "model_b": names[b], "winner": outcome}
    )


@pytest.mark.slow
def test_votes_needed_are_verified_by_simulation(arena) -> None:
    human, _ = arena
    pilot_votes = _subsample(human, 0)
    pilot = humanly.rank(pilot_votes, options=RankOptions(draws=4000))
    est = pilot.human.strength
    names = np.array(pilot.models, dtype=object)
    theta = np.array([r.estimate for r in est.rows])
    full = join_votes(human)
    tie = float((full.human.outcome == 2).mean())
    target = min(
        (s for s in est.adjacent if 3000 <= s.votes_needed <= 30_000), key=lambda s: s.votes_needed
    )
    hi, lo = list(names).index(target.higher), list(names).index(target.lower)
    rng = np.random.default_rng(1)
    runs = 120
    separated = pairwise = 0
    for r in range(runs):
        votes = _world_votes(rng, full.first, full.second, theta, tie, target.votes_needed, names)
        res = humanly.rank(votes, seed=r, options=RankOptions(draws=2000))
        entry = res.human.strength.pairs.pair(target.higher, target.lower)
        separated += entry["simultaneous_interval"].low > 0
        pairwise += entry["interval"].low > 0
    assert hi != lo
    share = separated / runs
    se = np.sqrt(0.8 * 0.2 / runs)
    assert abs(share - 0.8) < 3 * se + 0.02, (share, target)
    # the pairwise plan needs fewer votes: with the rank-sets' plan the pair's own interval
    # separates more often than the planned power
    assert pairwise / runs >= share


def _world_judge(rng, human: np.ndarray, shares: np.ndarray, copy: float) -> np.ndarray:
    """A judge's votes: the human vote with probability ``copy``, else a draw from the judge's own
    outcome shares (model_a, model_b, tie) — unrelated to the truth, so PPI must learn how far to
    trust it."""
    own = rng.choice(np.array(["model_a", "model_b", "tie"]), len(human), p=shares)
    return np.where(rng.random(len(human)) < copy, human, own)


@pytest.mark.slow
def test_votes_needed_with_the_judges_are_verified_by_simulation(arena, shared_data) -> None:
    human, judges = arena
    study = join_votes(_subsample(human, 0), judges)
    pilot = humanly.rank(study, options=RankOptions(draws=4000))
    est = pilot.best.strength
    assert pilot.best.judges == ("claude-3-opus", "gpt-3.5-turbo")
    names = np.array(pilot.models, dtype=object)
    theta = np.array([r.estimate for r in est.rows])
    full = join_votes(human)
    tie = float((full.human.outcome == 2).mean())
    outcomes = ["model_a", "model_b", "tie"]
    h_share = np.array([float((human["winner"] == o).mean()) for o in outcomes[:2]])
    h_share = np.append(h_share, 1 - h_share.sum())
    world_judges = {}
    for name in judges:
        raw = pd.read_json(shared_data / "arena" / f"judge-{name}.jsonl", lines=True)["winner"]
        j_share = np.array([float((raw == o).mean()) for o in outcomes[:2]])
        j_share = np.append(j_share, 1 - j_share.sum())
        agree = pilot.judge(name).agreement.rate  # with ties, on the 1,000 human-voted comparisons
        chance = float(h_share @ j_share)
        world_judges[name] = (j_share, (agree - chance) / (1 - chance))
    target = min(
        (s for s in est.adjacent if 2000 <= s.votes_needed <= 6000), key=lambda s: s.votes_needed
    )
    n_h = target.votes_needed
    n_u = round(n_h * (study.n_comparisons - int(study.labelled.sum())) / int(study.labelled.sum()))
    rng = np.random.default_rng(2)
    runs = 100
    separated = 0
    for r in range(runs):
        votes = _world_votes(rng, full.first, full.second, theta, tie, n_h + n_u, names)
        world = {
            name: votes.assign(winner=_world_judge(rng, votes["winner"].to_numpy(), p, copy))
            for name, (p, copy) in world_judges.items()
        }
        res = humanly.rank(votes.iloc[:n_h], judges=world, seed=r, options=RankOptions(draws=2000))
        assert res.best.judges == pilot.best.judges and res.votes == n_h
        entry = res.best.strength.pairs.pair(target.higher, target.lower)
        separated += entry["simultaneous_interval"].low > 0
    share = separated / runs
    se = np.sqrt(0.8 * 0.2 / runs)
    assert abs(share - 0.8) < 3 * se + 0.02, (share, target, n_u)


def _brute_force_order(rng, world: dict, m: int, judge: tuple[float, float] | None, runs: int):
    """The one-vote-or-several simulation written out vote by vote, independently of
    humanly.ranking._repeat_sim: each replicate draws budget // m comparisons from the study's
    comparisons (those outside the simulated models dropped), a truly better answer for each, m human
    votes (and the judge's vote on them and on the judge-only comparisons), and ranks them with
    humanly.rank; the win rates' order is scored against the world's true win rates."""
    names, pair_a, pair_b = world["names"], world["a"], world["b"]
    pi, q, t, truth = world["pi"], world["q"], world["t"], world["truth"]
    outcomes = np.array(["model_a", "model_b", "tie"])

    def votes_for(first_better: np.ndarray, accuracy: float, tie: float) -> np.ndarray:
        right = rng.random(len(first_better)) < accuracy
        named_first = right == first_better
        return np.where(
            rng.random(len(first_better)) < tie, outcomes[2], outcomes[np.where(named_first, 0, 1)]
        )

    pairs_ordered, closest = [], []
    hi, lo = world["hi"], world["lo"]
    for _ in range(runs):
        pick = rng.integers(0, len(pair_a), world["budget"] // m)
        pick = pick[world["inside"][pick]]
        better = rng.random(len(pick)) < pi[pick]
        ids = np.repeat(np.arange(len(pick)), m)
        human = pd.DataFrame(
            {
                "id": ids,
                "model_a": names[pair_a[pick]][ids],
                "model_b": names[pair_b[pick]][ids],
                "winner": votes_for(np.repeat(better, m), q, t),
            }
        )
        judges = None
        if judge is not None:
            unl = world["unlabelled"]
            u_better = rng.random(len(unl)) < pi[unl]
            every = np.concatenate([pick, unl])
            judges = {
                "j": pd.DataFrame(
                    {
                        "id": np.arange(len(every)),
                        "model_a": names[pair_a[every]],
                        "model_b": names[pair_b[every]],
                        "winner": votes_for(np.concatenate([better, u_better]), *judge),
                    }
                )
            }
        res = humanly.rank(human, judges=judges, options=RankOptions(draws=0, repeat_simulations=0))
        est = {row.model: row.estimate for row in res.best.win_rate.rows}
        value = np.array([np.nan if est.get(x) is None else est[x] for x in world["models"]])
        agree = []
        for i, j in itertools.combinations(range(len(value)), 2):
            s = np.sign(truth[i] - truth[j]) * np.sign(value[i] - value[j])
            agree.append(0.5 if np.isnan(s) or s == 0 else float(s > 0))
        pairs_ordered.append(np.mean(agree))
        s = np.sign(truth[hi] - truth[lo]) * np.sign(value[hi] - value[lo])
        closest.append(0.5 if np.isnan(s) or s == 0 else float(s > 0))
    return np.array(pairs_ordered), np.array(closest)


def test_the_one_vote_or_several_simulation_is_verified_vote_by_vote(arena) -> None:
    """With 1,000 human votes sampled with seed 0 and both judges: the plan's simulated shares (one
    and three votes per comparison, human only and with claude-3-opus) agree with a vote-by-vote
    simulation of the same world through humanly.rank, within Monte Carlo error, and one vote per
    comparison orders the models best."""
    human, judges = arena
    study = join_votes(_subsample(human, 0), judges)
    res = humanly.rank(study, options=RankOptions(draws=0))
    plan = res.repeat
    assert plan.simulation == "least_accurate" and len(plan.simulated_models) == 10
    names = np.array(study.models, dtype=object)
    theta = {r.model: r.estimate for r in res.human.strength.rows}
    models = list(plan.simulated_models)
    local = {name: k for k, name in enumerate(models)}
    a, b = np.asarray(study.first), np.asarray(study.second)
    inside = np.array([names[x] in local and names[y] in local for x, y in zip(a, b, strict=True)])
    q, t = plan.simulated_accuracy, plan.tie_share
    delta = np.array(
        [
            theta[names[x]] - theta[names[y]] if ok else 0.0
            for x, y, ok in zip(a, b, inside, strict=True)
        ]
    )
    p_dec = np.clip((1 / (1 + np.exp(-delta)) - t / 2) / (1 - t), 0, 1)
    assert q == pytest.approx(np.maximum(p_dec, 1 - p_dec)[inside].max())
    pi = np.clip((p_dec - (1 - q)) / (2 * q - 1), 0, 1)
    won = pi * q + (1 - pi) * (1 - q)
    wins, games = np.zeros(len(models)), np.zeros(len(models))
    for x, y, w, ok in zip(a, b, won, inside, strict=True):
        if ok:
            wins[local[names[x]]] += w
            wins[local[names[y]]] += 1 - w
            games[local[names[x]]] += 1
            games[local[names[y]]] += 1
    labelled = study.labelled
    world = {
        "names": names,
        "a": a,
        "b": b,
        "pi": pi,
        "q": q,
        "t": t,
        "truth": wins / games,
        "models": models,
        "inside": inside,
        "budget": plan.budget,
        "hi": local[plan.higher],
        "lo": local[plan.lower],
        "unlabelled": np.flatnonzero(inside & ~labelled),
    }
    claude = plan.judges[0]
    assert claude.judge == "claude-3-opus"
    rng = np.random.default_rng(11)
    runs = 150
    for source, rows, judge in (
        ("humans", plan.rows, None),
        ("claude", claude.rows, (claude.accuracy, claude.tie_share)),
    ):
        for row in rows[:2]:  # 1 and 3 votes per comparison
            shares, close = _brute_force_order(rng, world, row.votes_per_comparison, judge, runs)
            sim = row.simulated
            se = np.hypot(shares.std(ddof=1) / np.sqrt(runs), sim.ordered_share_se)
            assert shares.mean() == pytest.approx(sim.ordered_share, abs=3 * se), (source, row)
            se = np.hypot(close.std(ddof=1) / np.sqrt(runs), sim.probability_pair_se)
            assert close.mean() == pytest.approx(sim.probability_pair, abs=3 * se), (source, row)
    one, three = plan.rows[0].simulated, plan.rows[1].simulated
    assert one.ordered_share > three.ordered_share + 2 * np.hypot(
        one.ordered_share_se, three.ordered_share_se
    )
