"""The sentences of a ranking (``humanly.verdicts.rank``): one for every reason code of docs/rank.md,
written from the codes and numbers of the result (never stored in it), each beginning with a plain
sentence that holds none of the glossary's symbols; and the study of pairwise votes
(``humanly.analyze`` on a ``VoteStudy``): typed, round-tripping, the analyses of ratings skipped with a
reason code, its notebook view leading with the same sentences."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import humanly
from humanly import simulate
from humanly.data import join_votes
from humanly.ranking import RankOptions, RankResult
from humanly.verdicts import verdicts_for
from humanly.verdicts.rank import (
    flag_sentences,
    judge_sentences,
    lead_sentence,
    names_text,
    pair_sentence,
    plan_sentences,
    rank_set_text,
    repeat_sentence,
    selection_sentence,
)

ROOT = Path(__file__).resolve().parents[2]
HUMAN = pd.DataFrame(
    {
        "id": [1, 2, 3, 4, 5, 6],
        "model_a": ["x", "y", "z", "x", "y", "z"],
        "model_b": ["y", "z", "x", "y", "z", "x"],
        "winner": ["model_a", "model_b", "tie", "model_b", "model_a", "model_a"],
    }
)
QUICK = RankOptions(draws=0)


def _symbols() -> list[str]:
    text = (ROOT / "docs" / "glossary.md").read_text("utf-8")
    table = text.split("## Symbols", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return [sym for row in rows for sym in re.findall(r"`([^`]+)`", row.split("|")[1])]


@pytest.fixture(scope="module")
def demo() -> RankResult:
    from humanly.demo import arena_example

    return humanly.rank(arena_example(0).study())


def test_the_lead_names_the_first_model_and_the_judges_worth(demo) -> None:
    lead = lead_sentence(demo)
    first = demo.best.strength.order[0]
    assert lead.startswith(f"{first} ranks first (rank-set {{1}}); ")
    effective = demo.best.strength.saving * demo.votes
    assert f"2,000 human votes rank the models as precisely as {effective:,.0f} human" in lead
    assert "λ = " in lead.split(". ", 1)[1] and "λ" not in lead.split(". ", 1)[0]


def test_blocks_that_cannot_be_told_apart(demo) -> None:
    """Two models sharing ranks 2–3 exactly: 'cannot be told apart (ranks 2–3)'."""
    fam = demo.best.strength
    rows = list(fam.rows)
    a, b = fam.order[1], fam.order[2]
    for k, row in enumerate(rows):
        if row.model == fam.order[0]:
            rows[k] = dataclasses.replace(row, rank_set=humanly.ranking.RankSet(1, 1))
        if row.model in (a, b):
            rows[k] = dataclasses.replace(row, rank_set=humanly.ranking.RankSet(2, 3))
    best = dataclasses.replace(demo.best, strength=dataclasses.replace(fam, rows=tuple(rows)))
    res = dataclasses.replace(demo, rankings=(*demo.rankings[:-1], best))
    assert f"; {a} and {b} cannot be told apart (ranks 2–3); " in lead_sentence(res)


def test_an_unsettled_top_says_who_else_may_rank_first(shared_data) -> None:
    human = pd.read_json(shared_data / "arena" / "human.jsonl", lines=True).iloc[::13]
    res = humanly.rank(human, options=RankOptions(draws=1000))
    lead = lead_sentence(res)
    assert lead.startswith("gpt-4 ranks first on its estimate, but the votes place it only among ")
    assert "may also rank first" in lead


def test_pairs_first_better_and_unresolved(demo) -> None:
    fam = demo.best.strength
    top, second, third = fam.order[:3]
    said = pair_sentence(fam, top, second, demo.level)
    status = fam.pairs.pair(top, second)["status"]
    assert status == "first_better" and said.startswith(f"{top} is better than {second}: ")
    unresolved = pair_sentence(fam, second, third, demo.level)
    assert fam.pairs.pair(second, third)["status"] == "unresolved"
    assert unresolved.startswith(f"{second} and {third} cannot be told apart yet")
    assert pair_sentence(fam, second, top, demo.level).startswith(f"{top} is better than {second}")
    assert pair_sentence(demo.best.win_rate, top, second, demo.level).count("points above") == 1


def test_every_flag_of_the_study_has_its_sentence() -> None:
    few = humanly.rank(HUMAN, ties="loss", options=QUICK)
    said = " ".join(flag_sentences(few))
    assert "Only 6 human-voted comparisons in all (fewer than 100)" in said
    assert "x, y and z have fewer than 30 human-voted comparisons" in said
    assert "leave ties out" in said
    other = pd.DataFrame({"id": [11, 12, 13, 14], "model_a": ["u", "v", "u", "v"],
                          "model_b": ["v", "u", "v", "u"],
                          "winner": ["model_a", "model_a", "tie", "model_b"]})  # fmt: skip
    apart = " ".join(flag_sentences(humanly.rank(pd.concat([HUMAN, other]), options=QUICK)))
    assert "2 groups of models never compared with one another (x, y and z; u and v)" in apart
    sweep = pd.DataFrame({"id": [21, 22, 23], "model_a": ["top", "x", "top"],
                          "model_b": ["x", "top", "y"],
                          "winner": ["model_a", "model_b", "model_a"]})  # fmt: skip
    swept = " ".join(flag_sentences(humanly.rank(pd.concat([HUMAN, sweep]), options=QUICK)))
    assert "do not link every model both ways" in swept and "no finite Bradley–Terry" in swept
    judge = pd.concat([HUMAN, pd.DataFrame({"id": [7, 8], "model_a": ["w", "w"],
                                            "model_b": ["x", "y"],
                                            "winner": ["tie", "model_a"]})])  # fmt: skip
    lone = " ".join(flag_sentences(humanly.rank(HUMAN, judges={"llm": judge}, options=QUICK)))
    assert "w has no human vote: no estimate and no rank-set" in lone
    one = pd.concat([HUMAN, pd.DataFrame({"id": [9], "model_a": ["q"], "model_b": ["x"],
                                          "winner": ["tie"]})])  # fmt: skip
    single = " ".join(flag_sentences(humanly.rank(one, options=QUICK)))
    assert "q has a single human-voted comparison: no standard error and no rank-set" in single


def test_the_codes_only_models_carry() -> None:
    tied = pd.concat([HUMAN, pd.DataFrame({"id": [31, 32], "model_a": ["t", "x"],
                                           "model_b": ["x", "t"],
                                           "winner": ["tie", "tie"]})])  # fmt: skip
    said = " ".join(flag_sentences(humanly.rank(tied, ties="drop", options=QUICK)))
    assert "Every human vote on the comparisons of t is a tie" in said
    judge = HUMAN.assign(winner="tie")
    no_unl = " ".join(flag_sentences(humanly.rank(HUMAN, judges={"llm": judge}, options=QUICK)))
    assert "No judge-only comparison involves x, y and z" in no_unl


def test_dropped_votes_and_what_the_fit_could_not_do() -> None:
    judge = pd.DataFrame({"id": [1, 2, 3, 4, 5, 6, 99], "winner": ["tie"] * 7})
    res = humanly.rank(HUMAN, judges={"llm": judge}, missing="drop", options=QUICK)
    assert (
        "1 votes of llm on comparisons no source names were dropped, as asked."
        in flag_sentences(res)
    )
    skipped = humanly.rank(HUMAN, judges={"llm": HUMAN.iloc[:4]}, missing="drop", options=QUICK)
    assert any("the judge llm did not vote on were dropped" in s for s in flag_sentences(skipped))
    human = skipped.human
    for status, words in (("not_converged", "did not converge"), ("no_estimates", "No model")):
        broken = dataclasses.replace(human, strength=dataclasses.replace(human.strength,
                                                                         status=status))  # fmt: skip
        res = dataclasses.replace(skipped, rankings=(broken, *skipped.rankings[1:]))
        assert any(words in s for s in flag_sentences(res))


def test_the_judges_position_and_frontier(demo) -> None:
    worth = {j.judge: judge_sentences(j, demo) for j in demo.judge_worth}
    sharp = dict(worth["sharp"])
    biased = dict(worth["first-biased"])
    assert sharp["no position bias"].startswith("The judge sharp favours neither position")
    assert biased["favours first"].startswith(
        "The judge first-biased favours the answer shown first"
    )
    frontier = [s for status, s in worth["sharp"] if "twice" in status or "bind" in status]
    assert frontier and "Dorner, Nastl & Hardt" in frontier[0]
    second = dataclasses.replace(
        demo.judge_worth[1],
        position=dataclasses.replace(demo.judge_worth[1].position, status="favours_second"),
    )
    assert (
        "favours the answer shown second" in dict(judge_sentences(second, demo))["favours second"]
    )
    for flag in (True, False):
        rows = tuple(
            dataclasses.replace(f, at_most_twice=flag) for f in demo.judge_worth[0].frontier
        )
        j = dataclasses.replace(demo.judge_worth[0], frontier=rows)
        text = " ".join(s for _, s in judge_sentences(j, demo))
        assert ("not shown more accurate than any" in text) == flag
        assert ("more accurate than every model" in text) == (not flag)


def test_votes_from_scores_have_no_position() -> None:
    scores = pd.DataFrame({"prompt": ["p1", "p2", "p3"], "x": [8, 3, 5], "y": [6, 3, 2],
                           "z": [9, 1, 4]})  # fmt: skip
    human = HUMAN.iloc[:3].assign(prompt=["p1", "p2", "p3"])
    res = humanly.rank(human, judges={"grader": humanly.data.votes_from_scores(scores)},
                       options=QUICK)  # fmt: skip
    (j,) = res.judge_worth
    assert dict(judge_sentences(j, res))["no positions"].startswith(
        "The votes of the judge grader have no position"
    )


def test_the_plan_and_one_vote_or_several(demo) -> None:
    plan = plan_sentences(demo)
    open_pair = next(s for s in demo.best.strength.adjacent if not s.separated)
    assert plan[0].startswith(
        f"Telling {open_pair.higher} from {open_pair.lower} apart would take about "
        f"{open_pair.votes_needed:,} human votes"
    )
    assert plan[1].startswith("With twice the human votes the rank-sets would separate about")
    assert plan[2].startswith(
        f"The next human votes help most on comparisons of {open_pair.higher}"
    )
    assert "cannot be told from these votes: each comparison has one human vote" in repeat_sentence(
        demo
    )
    several = simulate.arena(6, 3000, 600, votes_per_comparison=3, seed=2)
    res = humanly.rank(several.study(), options=QUICK)
    assert res.repeat.status == "identified"
    said = repeat_sentence(res)
    assert said.startswith("One human vote per comparison is the best use of a budget of 1,800")
    assert "intra-comparison correlation" in said and "Under Dorner & Hardt's model" in said


def test_all_pairs_ordered() -> None:
    sim = simulate.arena(3, 3000, 3000, strengths=[2, 0, -2], judges={}, seed=1)
    res = humanly.rank(sim.study(), options=QUICK)
    assert plan_sentences(res) == (
        "The votes already order every pair of models next to each other in the ranking (2 "
        "pairs), at 95% for all of them at once.",
    )


def test_a_selection(demo) -> None:
    from humanly.demo import arena_example
    from humanly.ranking import select

    sel = select(arena_example(0).study(), budget=100, seed=1)
    (v,) = verdicts_for(sel)
    assert v.sentence == selection_sentence(sel) and v.sentence.startswith("Send ")
    done = dataclasses.replace(sel, codes=("no_unresolved_pairs",))
    assert "already ordered, so all of them steered the choice" in selection_sentence(done)


def test_every_first_sentence_is_plain(demo, tmp_path) -> None:
    """As the browser test reads the demo's cards: no glossary symbol before the first full stop."""
    symbols = _symbols()
    assert "λ" in symbols
    several = humanly.rank(simulate.arena(6, 3000, 600, votes_per_comparison=3, seed=2).study())
    for res in (demo, several, humanly.rank(HUMAN, ties="loss", options=QUICK)):
        for v in verdicts_for(res):
            first = re.split(r"(?<=\.)\s", v.sentence, maxsplit=1)[0]
            assert first.endswith("."), v.sentence
            assert not [s for s in symbols if s in first], first


def test_small_words() -> None:
    assert names_text(["a", "b", "c", "d", "e"]) == "a, b, c, d and 1 other"
    assert rank_set_text(humanly.ranking.RankSet(3, 3)) == "{3}"


# ----------------------------------------------------------------------- the study of pairwise votes
def test_analyze_ranks_a_vote_study_and_round_trips(demo) -> None:
    from humanly.demo import arena_example

    study = humanly.analyze(arena_example(0).study(), seed=0)
    assert study.rank is not None and study.inspect is None and study.certify is None
    assert [(s.analysis, s.reason) for s in study.skipped] == [
        ("inspect", "no_ratings"),
        ("certify", "no_ratings"),
        ("equivalence", "no_ratings"),
        ("plan", "no_ratings"),
    ]
    assert study.rank.to_dict() == demo.to_dict()  # the defaults of humanly.rank
    back = humanly.StudyResult.from_dict(study.to_dict())
    assert back.to_dict() == study.to_dict() and isinstance(back.rank, RankResult)
    assert study.models == demo.models and set(study.model_kinds) == {"votes"}
    from humanly.verdicts.study import sections, skipped_sentence

    assert [s.id for s in sections(study)] == ["rank"]
    assert skipped_sentence(study.skipped[1]).startswith("certify needs ratings")
    view = study._repr_html_()
    assert view.index(verdicts_for(demo)[0].sentence.split(";")[0]) < view.index("<table")


def test_a_study_of_ratings_has_no_rank_section_and_old_json_reads() -> None:
    d = simulate.running_example(100, 5, seed=0)
    study = humanly.analyze(d.ratings, d.predictions, bootstrap=0)
    assert study.rank is None
    data = study.to_dict()
    del data["rank"]  # results saved before the field existed
    assert humanly.StudyResult.from_dict(data).rank is None
    from humanly.report import build_report

    assert "rank" not in [s.id for s in build_report(study).sections]


def test_analyze_refuses_predictions_with_votes_and_says_why_a_ranking_failed() -> None:
    study = join_votes(HUMAN)
    with pytest.raises(humanly.InputError, match="VoteStudy"):
        humanly.analyze(study, pd.DataFrame({"item": [1], "prediction": [0]}))
    too_few = humanly.analyze(join_votes(HUMAN.iloc[:1]))
    assert too_few.rank is None and too_few.skipped_reason("rank") == "input_error"
    from humanly.report import build_report

    (section, _) = build_report(too_few).sections
    assert section.id == "rank" and section.note.startswith("Votes: 1 human-voted comparison")


def test_the_figures_of_a_disconnected_ranking() -> None:
    from humanly.plots.rank import planning_curve, rank_intervals, win_matrix

    other = pd.DataFrame({"id": [11, 12, 13, 14], "model_a": ["u", "v", "u", "v"],
                          "model_b": ["v", "u", "v", "u"],
                          "winner": ["model_a", "model_a", "tie", "model_b"]})  # fmt: skip
    res = humanly.rank(pd.concat([HUMAN, other]), options=QUICK)
    fig = rank_intervals(res)  # win rates: the strengths cover one group only
    assert fig.axes[0].get_xlabel() == "win rate"
    assert len(rank_intervals(res, "strength").axes) >= 2
    with pytest.raises(humanly.InputError, match="holds no probability"):
        win_matrix(res.human.win_rate)
    assert len(planning_curve(res).axes) == 1
    assert np.isfinite(res.human.win_rate.row("u").estimate)
