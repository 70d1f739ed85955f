"""``humanly.simulate.arena``: pairwise votes with a known truth (the generator of the demo's arena page
and of the coverage tests, promoted from tests/ranking/rank_sim.py). Deterministic by seed; its votes
follow the world they were drawn from — human ties at their rate, a judge's position bias, and the
Bradley–Terry strengths humanly estimates from many votes equal the world's estimands computed
independently (Gauss–Hermite quadrature and scipy.optimize in rank_sim.World)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from rank_sim import World

import humanly
from humanly import simulate
from humanly.data import read_votes
from humanly.ranking import RankOptions
from humanly.simulate import ArenaJudge


def test_the_same_seed_gives_the_same_votes() -> None:
    a, b = simulate.arena(5, 500, 100, seed=7), simulate.arena(5, 500, 100, seed=7)
    assert a.human.equals(b.human) and all(a.judges[k].equals(b.judges[k]) for k in a.judges)
    c = simulate.arena(5, 500, 100, seed=8)
    assert not a.human.equals(c.human)
    assert a.truth["order"] == tuple(f"model-{k:02d}" for k in range(1, 6))
    assert a.to_dict()["truth"]["judges"]["sharp"] == {"scale": 3.0, "bias": 0.0, "tie": 0.05}


def test_the_votes_follow_their_world() -> None:
    sim = simulate.arena(
        4, 40_000, 20_000, tie=0.3, judges={"first": ArenaJudge(1.0, 1.0, 0.0)}, seed=1
    )
    human = sim.human["winner"]
    assert (human == "tie").mean() == pytest.approx(0.3, abs=0.01)
    judge = sim.judges["first"]["winner"]
    assert (judge == "tie").sum() == 0
    # a judge with bias +1 names model A more often than the humans (who have no position bias)
    decisive = human[human != "tie"]
    assert (decisive == "model_a").mean() == pytest.approx(0.5, abs=0.015)
    assert (judge == "model_a").mean() > 0.6
    assert set(sim.human["model_a"]) | set(sim.human["model_b"]) == set(sim.truth["models"])
    assert (sim.human["model_a"] != sim.human["model_b"]).all()


def test_many_votes_recover_the_worlds_strengths() -> None:
    """The human-only Bradley–Terry fit on 120,000 votes equals the world's estimand (the strengths
    that minimise the expected loss, ties as half a win — computed by rank_sim.World with
    scipy.optimize, independently of humanly) within 4 standard errors."""
    world = World(np.linspace(-1, 1, 5))
    sim = simulate.arena(
        world.names, 120_000, 120_000, strengths=world.theta, judges={}, tie=world.tie,
        spread=world.spread, seed=3,
    )  # fmt: skip
    res = humanly.rank(sim.study(), options=RankOptions(draws=0))
    est = res.human.strength
    truth = dict(zip(world.names, world.strengths(), strict=True))
    for row in est.rows:
        assert abs(row.estimate - truth[row.model]) < 4 * row.se, row
    assert est.order == tuple(reversed(world.names))


def test_several_votes_per_comparison_by_different_voters() -> None:
    sim = simulate.arena(4, 300, 100, votes_per_comparison=3, judges={}, seed=2)
    assert len(sim.human) == 300 and sorted(set(sim.human["rater"])) == ["v1", "v2", "v3"]
    assert (sim.human.groupby("id").size() == 3).all()
    res = humanly.rank(sim.study(), options=RankOptions(draws=0))
    assert res.repeat.repeated == 100 and res.votes == 300


def test_written_files_read_back(tmp_path) -> None:
    sim = simulate.arena(4, 200, 50, seed=0)
    paths = sim.write(tmp_path / "votes.jsonl")
    assert paths["sharp"].name == "votes.sharp.jsonl"
    human = read_votes(paths["human"])
    assert len(human) == 50 and human.models == sim.truth["models"]
    with pytest.raises(humanly.InputError, match="exists"):
        sim.write(tmp_path / "votes.jsonl", force=False)
    with pytest.raises(humanly.InputError, match="extension"):
        sim.files(tmp_path / "votes")


def test_bad_settings_are_one_sentence() -> None:
    for kwargs, match in (
        ({"models": 1}, "models=1"),
        ({"models": ["a", "a"]}, "two different names"),
        ({"human": 20, "comparisons": 10}, "human=20"),
        ({"tie": 1.0}, "tie=1.0"),
        ({"strengths": [1.0, 2.0]}, "strengths"),
        ({"judges": {"human": (1, 0, 0)}}, "reserved"),
        ({"judges": {"j": (1, 0, 1.5)}}, r"judges\['j'\]\.tie"),
        ({"votes_per_comparison": 0}, "votes_per_comparison=0"),
    ):
        args = {"models": 3, "comparisons": 30, "human": 10, **kwargs}
        with pytest.raises(humanly.InputError, match=match):
            simulate.arena(**args, seed=0)


def test_a_frame_per_judge() -> None:
    sim = simulate.arena(3, 50, 10, judges={"a": (2.0, 0.0, 0.1)}, seed=0)
    assert list(sim.judges) == ["a"] and isinstance(sim.judges["a"], pd.DataFrame)
    assert len(sim.judges["a"]) == 50 and repr(sim).startswith("SimulatedVotes(3 models")
