"""Pairwise votes as data: reading (every format, columns by name or named, outcome spellings),
score tables as votes, and the join by comparison id (judges, unlabelled comparisons, positions,
canonical order, and the one-sentence errors)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from humanly import InputError
from humanly.data import join_votes, read_votes, votes_from_scores

FRAME = pd.DataFrame(
    {
        "num": [3, 1, 2, 2],
        "model_a": ["x", "y", "x", "z"],
        "model_b": ["y", "z", "z", "x"],
        "winner": ["model_a", "tie (bothbad)", "model_b", "tie"],
        "question_id": ["p1", "p2", "p3", "p3"],
    }
)


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".jsonl", ".json"])
def test_every_format_reads_the_same_votes(tmp_path, suffix) -> None:
    path = tmp_path / f"votes{suffix}"
    if suffix == ".csv":
        FRAME.to_csv(path, index=False)
    elif suffix == ".tsv":
        FRAME.to_csv(path, index=False, sep="\t")
    elif suffix == ".parquet":
        FRAME.to_parquet(path)
    elif suffix == ".jsonl":
        FRAME.to_json(path, orient="records", lines=True)
    else:
        FRAME.to_json(path, orient="records")
    got = join_votes(read_votes(path))
    ref = join_votes(read_votes(FRAME))
    assert [str(i) for i in got.ids] == [str(i) for i in ref.ids]
    for a, b in zip(
        (got.first, got.second, got.human.outcome, got.human.swapped, got.human.comparison),
        (ref.first, ref.second, ref.human.outcome, ref.human.swapped, ref.human.comparison),
        strict=True,
    ):
        np.testing.assert_array_equal(a, b)
    assert got.prompt is not None and list(got.prompt) == ["p2", "p3", "p1"]


def test_outcomes_ties_and_model_names() -> None:
    v = read_votes(FRAME)
    assert v.outcome.tolist() == [0, 2, 1, 2]
    named = FRAME.assign(winner=["x", "z", "x", "z"])  # the winner's own name
    assert read_votes(named).outcome.tolist() == [0, 1, 0, 0]
    custom = FRAME.assign(winner=["left", "same", "right", "left"])
    v = read_votes(custom, outcomes={"LEFT": "model_a", "right": "model_b", "same": "tie"})
    assert v.outcome.tolist() == [0, 2, 1, 0]


@pytest.mark.parametrize("comparison", ["comparison", "comparison_id", "id", "num"])
@pytest.mark.parametrize("outcome", ["winner", "outcome", "vote"])
def test_columns_found_by_name(comparison, outcome) -> None:
    frame = FRAME.rename(columns={"num": comparison, "winner": outcome})
    v, ref = read_votes(frame), read_votes(FRAME)
    assert v.outcome.tolist() == ref.outcome.tolist() == [0, 2, 1, 2]
    assert [str(i) for i in join_votes(v).ids] == [str(i) for i in join_votes(ref).ids]


def test_every_tie_spelling_is_a_tie() -> None:
    for spelling in ("tie", "tie (bothbad)", "both_bad", "draw", "TIE"):
        assert read_votes(FRAME.assign(winner=spelling)).outcome.tolist() == [2, 2, 2, 2], spelling


def test_columns_named_explicitly() -> None:
    frame = FRAME.rename(
        columns={"num": "battle", "model_a": "left", "model_b": "right", "winner": "pick"}
    )
    with pytest.raises(InputError, match="comparison_col="):
        read_votes(frame)
    v = read_votes(
        frame, comparison_col="battle", model_a_col="left", model_b_col="right", outcome_col="pick"
    )
    assert v.outcome.tolist() == read_votes(FRAME).outcome.tolist()


def test_a_model_compared_with_itself_names_the_line(tmp_path) -> None:
    path = tmp_path / "v.csv"
    FRAME.assign(model_b=["y", "z", "x", "z"]).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"v\.csv line 4: model 'x' is compared with itself"):
        read_votes(path)


def test_an_unknown_outcome_names_the_value_and_line(tmp_path) -> None:
    path = tmp_path / "v.csv"
    FRAME.assign(winner=["model_a", "tie", "both good?", "tie"]).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"line 4: outcome 'both good\?'.*outcomes="):
        read_votes(path)


def test_blank_cells_are_errors() -> None:
    with pytest.raises(InputError, match="row 2: blank"):
        read_votes(FRAME.assign(winner=["model_a", None, "tie", "tie"]))
    with pytest.raises(InputError, match="row 1: blank comparison id"):
        read_votes(FRAME.assign(num=[None, 1.0, 2.0, 2.0]))


def test_several_votes_on_one_comparison_are_kept() -> None:
    study = join_votes(FRAME)
    assert study.n_comparisons == 3
    assert study.human.n_votes == 4
    assert study.human.counts(3).tolist() == [1, 2, 1]
    # comparison 2 shown as (x, z) and as (z, x): one vote each way, outcomes relative to (x, z)
    two = study.human.comparison == 1
    assert study.human.outcome[two].tolist() == [1, 2]
    assert study.human.swapped[two].tolist() == [False, True]


def test_row_order_changes_nothing() -> None:
    a = join_votes(FRAME)
    b = join_votes(FRAME.sample(frac=1, random_state=3))
    for x, y in (
        (a.human.comparison, b.human.comparison),
        (a.human.outcome, b.human.outcome),
        (a.human.swapped, b.human.swapped),
        (a.first, b.first),
    ):
        np.testing.assert_array_equal(x, y)


def test_the_study_gives_back_the_votes_as_seen() -> None:
    study = join_votes(FRAME)
    back = study.to_frame().sort_values(["comparison", "model_a"]).reset_index(drop=True)
    expected = FRAME.assign(winner=FRAME["winner"].replace({"tie (bothbad)": "tie"})).rename(
        columns={"num": "comparison", "winner": "outcome"}
    )
    expected = expected[["comparison", "model_a", "model_b", "outcome"]]
    expected = expected.sort_values(["comparison", "model_a"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(back, expected, check_dtype=False)


HUMAN = pd.DataFrame(
    {
        "id": [1, 2, 3],
        "model_a": ["x", "y", "x"],
        "model_b": ["y", "z", "z"],
        "winner": ["model_a", "model_b", "tie"],
    }
)


def test_a_judge_adds_unlabelled_comparisons_and_keeps_positions() -> None:
    judge = pd.DataFrame(
        {
            "id": [3, 2, 1, 9],
            "model_a": ["z", "y", "x", "y"],
            "model_b": ["x", "z", "y", "x"],
            "winner": ["model_a", "tie", "model_b", "model_b"],
        }
    )
    study = join_votes(HUMAN, {"llm": judge})
    assert study.ids.tolist() == [1, 2, 3, 9]
    assert study.labelled.tolist() == [True, True, True, False]
    j = study.judge("llm")
    assert j.comparison.tolist() == [0, 1, 2, 3]
    assert j.outcome.tolist() == [1, 2, 1, 0]  # relative to (first, second) in name order
    assert j.swapped.tolist() == [False, False, True, True]


def test_a_judge_without_model_columns_refers_to_the_human_record() -> None:
    judge = pd.DataFrame({"id": [1, 2, 3], "winner": ["model_b", "model_a", "tie"]})
    j = join_votes(HUMAN, {"llm": judge}).judge("llm")
    assert j.outcome.tolist() == [1, 0, 2]
    unknown = pd.concat([judge, pd.DataFrame({"id": [7], "winner": ["model_a"]})])
    with pytest.raises(InputError, match=r"row 4: judge 'llm' votes on comparison 7, which no"):
        join_votes(HUMAN, {"llm": unknown})
    study = join_votes(HUMAN, {"llm": unknown}, missing="drop")
    assert [(n.code, n.count, n.example) for n in study.notes] == [("dropped_unknown", 1, "7")]
    assert study.n_comparisons == 3


def test_a_judge_naming_another_pair_is_an_error(tmp_path) -> None:
    path = tmp_path / "llm.csv"
    pd.DataFrame(
        {"id": [1, 2], "model_a": ["x", "x"], "model_b": ["y", "y"], "winner": ["model_a", "tie"]}
    ).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"llm\.csv line 3: comparison '2' is between 'x' and 'y'"):
        join_votes(HUMAN, {"llm": path})


def test_human_comparisons_a_judge_skipped() -> None:
    judge = HUMAN.iloc[:2]
    with pytest.raises(InputError, match=r"judges\['llm'\]: 1 human-voted comparison.*first: 3"):
        join_votes(HUMAN, {"llm": judge})
    study = join_votes(HUMAN, {"llm": judge}, missing="drop")
    assert study.ids.tolist() == [1, 2]
    assert [(n.code, n.source, n.count) for n in study.notes] == [("dropped_unjudged", "llm", 1)]


def test_judges_by_list_and_names(tmp_path) -> None:
    path = tmp_path / "gpt-4.jsonl"
    HUMAN.to_json(path, orient="records", lines=True)
    study = join_votes(HUMAN, [path, HUMAN])
    assert study.judge_names == ("gpt-4", "judge2")
    with pytest.raises(InputError, match="reserved for the human votes"):
        join_votes(HUMAN, {"human": HUMAN})


def test_ids_of_different_kinds_match_as_text(tmp_path) -> None:
    path = tmp_path / "h.csv"
    HUMAN.assign(id=["001", "002", "003"]).to_csv(path, index=False)
    judge = HUMAN.assign(id=["001", "002", "003"])
    assert join_votes(path, {"llm": judge}).ids.tolist() == ["001", "002", "003"]
    mixed = join_votes(HUMAN, {"llm": HUMAN.assign(id=["1", "2", "3"])})
    assert mixed.ids.tolist() == ["1", "2", "3"] and mixed.labelled.all()


def test_human_votes_need_models() -> None:
    with pytest.raises(InputError, match="name no models"):
        join_votes(pd.DataFrame({"id": [1], "winner": ["tie"]}))


def test_score_tables_become_votes() -> None:
    wide = pd.DataFrame({"prompt": ["p1", "p2"], "x": [7, 5], "y": [3, 5], "z": [9, None]})
    v = votes_from_scores(wide)
    assert v.comparison.tolist() == ["p1|x|y", "p1|x|z", "p1|y|z", "p2|x|y"]
    assert v.outcome.tolist() == [0, 1, 1, 2]
    assert not v.positional
    long = wide.melt(id_vars="prompt", var_name="model", value_name="score").dropna()
    assert votes_from_scores(long).outcome.tolist() == v.outcome.tolist()
    with pytest.raises(InputError, match="several scores"):
        votes_from_scores(pd.concat([long, long.iloc[:1]]))
    raters = pd.concat([long.assign(rater="r1"), long.assign(rater="r2")])
    assert len(votes_from_scores(raters)) == 2 * len(v)


def test_a_judges_scores_join_human_votes_by_prompt() -> None:
    human = HUMAN.assign(prompt=["p1", "p2", "p1"])
    scores = pd.DataFrame(
        {"prompt": ["p1", "p2", "p9"], "x": [8, 1, 2], "y": [6, 4, 3], "z": [8, 9, 1]}
    )
    study = join_votes(human, {"grader": votes_from_scores(scores)})
    assert study.labelled.sum() == 3
    grader = study.judge("grader")
    on_labelled = study.labelled[grader.comparison]
    # p1: x>y on comparison 1, x=z on comparison 3; p2: y<z on comparison 2
    assert grader.outcome[on_labelled].tolist() == [0, 1, 2]
    assert not grader.positional and not grader.swapped.any()
    assert study.n_comparisons == 3 + 6  # judge-only: p1's (y, z), p2's (x, y), (x, z), p9's three
    with pytest.raises(InputError, match="prompt column"):
        join_votes(HUMAN, {"grader": votes_from_scores(scores)})
