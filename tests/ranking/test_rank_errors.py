"""Bad input is one sentence (an ``InputError`` naming the parameter, the value, where it is and the
fix), and weak cases are said with codes, not crashes: a model with no human vote, few votes, a
comparison graph that is not connected (the groups named), a model that won every comparison."""

from __future__ import annotations

import pandas as pd
import pytest

import humanly
from humanly import InputError
from humanly.ranking import RankOptions

HUMAN = pd.DataFrame(
    {
        "id": [1, 2, 3, 4, 5, 6],
        "model_a": ["x", "y", "z", "x", "y", "z"],
        "model_b": ["y", "z", "x", "y", "z", "x"],
        "winner": ["model_a", "model_b", "tie", "model_b", "model_a", "model_a"],
    }
)


def _one_line(exc: pytest.ExceptionInfo) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) <= 320, msg
    return msg


def test_a_model_compared_with_itself(tmp_path) -> None:
    path = tmp_path / "votes.jsonl"
    HUMAN.assign(model_b=["y", "z", "z", "y", "z", "x"]).to_json(path, orient="records", lines=True)
    with pytest.raises(InputError) as exc:
        humanly.rank(path)
    assert "votes.jsonl line 3: model 'z' is compared with itself" in _one_line(exc)


def test_an_unknown_outcome_names_value_and_line(tmp_path) -> None:
    path = tmp_path / "votes.csv"
    HUMAN.assign(winner=["model_a", "model_b", "tie", "??", "tie", "tie"]).to_csv(path, index=False)
    with pytest.raises(InputError) as exc:
        humanly.rank(path)
    assert "votes.csv line 5: outcome '??'" in _one_line(exc)


def test_a_judge_vote_for_an_unknown_comparison() -> None:
    judge = pd.DataFrame({"id": [1, 2, 3, 4, 5, 6, 99], "winner": ["tie"] * 7})
    with pytest.raises(InputError) as exc:
        humanly.rank(HUMAN, judges={"llm": judge})
    assert "judge 'llm' votes on comparison 99" in _one_line(exc)
    res = humanly.rank(HUMAN, judges={"llm": judge}, missing="drop", options=RankOptions(draws=0))
    assert ("dropped_unknown", 1, "llm") in [(f.code, f.count, f.source) for f in res.flags]


def test_bad_arguments() -> None:
    for kwargs, match in (
        ({"ties": "win"}, "ties='win'"),
        ({"level": 1.5}, "level=1.5"),
        ({"estimator": "ppi+"}, r"estimator='ppi\+'"),
        ({"missing": "keep"}, "missing='keep'"),
        ({"seed": -1}, "seed=-1"),
    ):
        with pytest.raises(InputError, match=match):
            humanly.rank(HUMAN, **kwargs)
    with pytest.raises(TypeError, match="RankOptions"):
        humanly.rank(HUMAN, options={"draws": 10})
    with pytest.raises(InputError, match=r"options\.power"):
        humanly.rank(HUMAN, options=RankOptions(power=1.0))
    with pytest.raises(InputError, match="at least 2"):
        humanly.rank(HUMAN.iloc[:1])


def test_a_model_with_no_human_vote_is_said_not_crashed() -> None:
    judge = pd.concat(
        [
            HUMAN,
            pd.DataFrame(
                {
                    "id": [7, 8],
                    "model_a": ["w", "w"],
                    "model_b": ["x", "y"],
                    "winner": ["tie", "model_a"],
                }
            ),
        ]
    )
    res = humanly.rank(HUMAN, judges={"llm": judge}, options=RankOptions(draws=0))
    for ranking in res.rankings:
        row = ranking.win_rate.row("w")
        assert row.estimate is None and row.rank_set is None
        assert "no_human_votes" in row.codes
        assert ranking.strength.row("w").estimate is None
    assert ("no_human_votes", ("w",)) in [(f.code, f.models) for f in res.flags]


def test_a_disconnected_graph_names_the_groups() -> None:
    other = pd.DataFrame(
        {
            "id": [11, 12, 13, 14],
            "model_a": ["u", "v", "u", "v"],
            "model_b": ["v", "u", "v", "u"],
            "winner": ["model_a", "model_a", "tie", "model_b"],
        }
    )
    res = humanly.rank(pd.concat([HUMAN, other]), options=RankOptions(draws=0))
    st = res.human.strength
    assert st.status == "disconnected"
    assert st.groups == (("x", "y", "z"), ("u", "v"))
    assert st.row("u").estimate is None and "not_fitted" in st.row("u").codes
    assert st.row("x").estimate is not None
    assert [f.models for f in res.flags if f.code == "disconnected"] == [
        ("x", "y", "z"),
        ("u", "v"),
    ]
    # win rates need no connection
    assert res.human.win_rate.row("u").estimate is not None


def test_a_model_that_won_everything_has_no_finite_strength() -> None:
    sweep = pd.DataFrame(
        {
            "id": [21, 22, 23],
            "model_a": ["top", "x", "top"],
            "model_b": ["x", "top", "y"],
            "winner": ["model_a", "model_b", "model_a"],
        }
    )
    res = humanly.rank(pd.concat([HUMAN, sweep]), options=RankOptions(draws=0))
    st = res.human.strength
    assert st.status == "separated"
    assert ("top",) in st.groups
    assert st.row("top").estimate is None
    assert res.human.win_rate.row("top").estimate == 1.0


def test_few_votes_are_flagged() -> None:
    res = humanly.rank(HUMAN, options=RankOptions(draws=0))
    codes = {f.code for f in res.flags}
    assert {"few_comparisons", "few_votes"} <= codes
    assert all("few_votes" in r.codes for r in res.human.win_rate.rows)


def test_loss_ties_are_dropped_by_the_strengths() -> None:
    res = humanly.rank(HUMAN, ties="loss", options=RankOptions(draws=0))
    assert "strength_ties_dropped" in {f.code for f in res.flags}
    drop = humanly.rank(HUMAN, ties="drop", options=RankOptions(draws=0))
    assert res.human.strength.to_dict() == drop.human.strength.to_dict()
    # x: won 1 (id 1), tied 1 (id 3), lost 2 (ids 4, 6)
    assert res.human.win_rate.row("x").estimate == pytest.approx(1 / 4)
    half = humanly.rank(HUMAN, options=RankOptions(draws=0)).human.win_rate.row("x").estimate
    assert half == pytest.approx(1.5 / 4)
    assert drop.human.win_rate.row("x").estimate == pytest.approx(1 / 3)


def test_a_study_with_judges_given_twice() -> None:
    study = humanly.data.join_votes(HUMAN, {"llm": HUMAN})
    with pytest.raises(InputError, match="already a joined VoteStudy"):
        humanly.rank(study, judges={"llm": HUMAN})


def test_active_design_probabilities_are_checked() -> None:
    judge = pd.concat([HUMAN, HUMAN.assign(id=HUMAN["id"] + 100)])
    probs = pd.Series(0.5, index=judge["id"].to_numpy()[6:])
    res = humanly.rank(
        HUMAN, judges={"llm": judge}, options=RankOptions(draws=0, probabilities=probs)
    )
    assert res.rankings[1].unlabelled == 6
    with pytest.raises(InputError, match="judge-only comparison 101 has no probability"):
        humanly.rank(
            HUMAN, judges={"llm": judge}, options=RankOptions(probabilities=probs.iloc[1:])
        )
    with pytest.raises(InputError, match=r"probability 1\.5"):
        humanly.rank(
            HUMAN, judges={"llm": judge}, options=RankOptions(probabilities=probs.replace(0.5, 1.5))
        )
