"""``humanly rank`` (and ``humanly rank select``, ``humanly report --votes``) on the command line: the
verdicts first, then the tables; ``--json`` round-trips through ``RankResult.from_dict`` and equals the
Python API; every bad input of issue 31 is one sentence of at most 300 characters with exit status 2
and nothing written; a model with no human vote and a graph that is not connected are said, not
crashed; the page of votes is drawn again byte for byte from its saved results.

The simulated votes come from :func:`humanly.simulate.arena`; the real Chatbot Arena votes from
``../shared/data/arena`` (the ``shared_data`` fixture: skipped without it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

import humanly
from humanly import simulate
from humanly.ranking import RankOptions, RankResult
from humanly.verdicts import verdicts_for

HUMAN = pd.DataFrame(
    {
        "id": [1, 2, 3, 4, 5, 6],
        "model_a": ["x", "y", "z", "x", "y", "z"],
        "model_b": ["y", "z", "x", "y", "z", "x"],
        "winner": ["model_a", "model_b", "tie", "model_b", "model_a", "model_a"],
    }
)


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Six models, 1,500 comparisons, human votes on 400, two judges on all (written as CSV)."""
    folder = tmp_path_factory.mktemp("rank-cli")
    paths = simulate.arena(6, 1500, 400, seed=3).write(folder / "v.csv")
    return {**paths, "dir": folder}


def _one_sentence(res) -> str:
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert res.stdout == ""
    line = res.stderr.strip()
    assert line.startswith("humanly: error: ") and "\n" not in line and "Traceback" not in line
    message = line.removeprefix("humanly: error: ")
    assert len(message) <= 300, message
    return message


def test_the_verdicts_come_first_then_the_tables(cli, sim) -> None:
    args = ["rank", sim["human"], "--judge", sim["sharp"], "--judge", f"fb={sim['first-biased']}"]
    res = cli(*args, "--draws", "500")
    assert res.exit_code == 0, res.stderr
    result = RankResult.from_dict(cli(*args, "--draws", "500", "--json").json())
    assert result.judges == ("v.sharp", "fb")  # named by the file name without .csv, or NAME=
    said = [v.sentence for v in verdicts_for(result)]
    out = res.stdout
    assert out.startswith(said[0][:40])
    at = [" ".join(out.split()).index(" ".join(s.split())) for s in said]
    assert at == sorted(at)  # every sentence, in order
    tables = out.index("Bradley–Terry strengths · ")
    assert tables > at[-1] and "Win rates · " in out and "What each judge is worth" in out
    assert "One vote per comparison or several" in out and "with fb" in out


def test_json_round_trips_and_equals_the_api(cli, sim) -> None:
    res = cli(
        "rank", sim["human"], "--judge", f"sharp={sim['sharp']}", "--ties", "drop", "--level",
        "0.9", "--estimator", "ppi", "--seed", "4", "--draws", "300", "--power", "0.7",
        "--budget", "600", "--votes-per-comparison", "1", "2", "--repeat-simulations", "30",
        "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    data = res.json()
    back = RankResult.from_dict(data)
    assert back.to_dict() == data
    api = humanly.rank(
        sim["human"],
        judges={"sharp": sim["sharp"]},
        ties="drop",
        level=0.9,
        estimator="ppi",
        seed=4,
        options=RankOptions(
            draws=300, power=0.7, budget=600, votes_per_comparison=(1, 2), repeat_simulations=30
        ),
    )
    assert json.loads(json.dumps(api.to_dict())) == data
    assert [row.votes_per_comparison for row in back.repeat.rows] == [1, 2]
    assert back.repeat.simulations == 30 and back.repeat.seed == 4


def test_columns_named_with_flags_and_outcome_spellings(cli, tmp_path) -> None:
    votes = HUMAN.rename(columns={"id": "battle", "model_a": "left", "model_b": "right"})
    votes["pick"] = HUMAN["winner"].map({"model_a": "L", "model_b": "R", "tie": "same"})
    path = tmp_path / "votes.tsv"
    votes.drop(columns="winner").to_csv(path, sep="\t", index=False)
    flags = ["--comparison-col", "battle", "--model-a-col", "left", "--model-b-col", "right",
             "--outcome-col", "pick", "--outcomes", "L=model_a,R=model_b,same=tie"]  # fmt: skip
    res = cli("rank", path, *flags, "--draws", "0", "--json")
    assert res.exit_code == 0, res.stderr
    assert res.json() == humanly.rank(HUMAN, options=RankOptions(draws=0)).to_dict()
    # a column named wrongly: the flag in the sentence, not the Python name
    message = _one_sentence(cli("rank", path, "--comparison-col", "nope", "--outcome-col", "pick"))
    assert "--comparison-col" in message and "comparison_col" not in message
    message = _one_sentence(cli("rank", path, *flags[:-2], "--outcomes", "L:model_a"))
    assert message.startswith("--outcomes L:model_a: write each spelling as SPELLING=OUTCOME")


def test_a_model_compared_with_itself(cli, tmp_path) -> None:
    path = tmp_path / "votes.jsonl"
    HUMAN.assign(model_b=["y", "z", "z", "y", "z", "x"]).to_json(path, orient="records", lines=True)
    message = _one_sentence(cli("rank", path))
    assert "votes.jsonl line 3: model 'z' is compared with itself" in message


def test_an_unknown_outcome_names_its_line(cli, tmp_path) -> None:
    path = tmp_path / "votes.csv"
    HUMAN.assign(winner=["model_a", "model_b", "tie", "??", "tie", "tie"]).to_csv(path, index=False)
    message = _one_sentence(cli("rank", path))
    assert "votes.csv line 5: outcome '??'" in message and message.endswith("with --outcomes")


def test_a_judge_vote_for_an_unknown_comparison(cli, tmp_path) -> None:
    human, judge = tmp_path / "h.csv", tmp_path / "llm.csv"
    HUMAN.to_csv(human, index=False)
    pd.DataFrame({"id": [1, 2, 3, 4, 5, 6, 99], "winner": ["tie"] * 7}).to_csv(judge, index=False)
    message = _one_sentence(cli("rank", human, "--judge", judge))
    assert "llm.csv line 8: judge 'llm' votes on comparison '99'" in message
    dropped = cli("rank", human, "--judge", judge, "--missing", "drop", "--draws", "0")
    assert dropped.exit_code == 0, dropped.stderr
    assert "1 votes of llm on comparisons no source names were dropped, as asked." in dropped.stdout


def test_a_judge_that_skipped_human_votes_names_the_flag(cli, tmp_path) -> None:
    human, judge = tmp_path / "h.csv", tmp_path / "llm.csv"
    HUMAN.to_csv(human, index=False)
    HUMAN.iloc[:4].to_csv(judge, index=False)
    message = _one_sentence(cli("rank", human, "--judge", judge))
    assert "--missing drop" in message and 'missing="drop"' not in message
    done = cli("rank", human, "--judge", judge, "--missing", "drop", "--draws", "0")
    assert done.exit_code == 0 and "the judge llm did not vote on were dropped" in done.stdout


def test_a_model_with_no_human_vote_is_said_not_crashed(cli, tmp_path) -> None:
    human, judge = tmp_path / "h.csv", tmp_path / "llm.csv"
    HUMAN.to_csv(human, index=False)
    extra = pd.DataFrame(
        {"id": [7, 8], "model_a": ["w", "w"], "model_b": ["x", "y"], "winner": ["tie", "model_a"]}
    )
    pd.concat([HUMAN, extra]).to_csv(judge, index=False)
    res = cli("rank", human, "--judge", judge, "--draws", "0")
    assert res.exit_code == 0, res.stderr
    sentence = next(ln for ln in res.stdout.splitlines() if ln.startswith("w has no human vote"))
    assert len(sentence) <= 300 and "no rank-set" in sentence


def test_a_graph_that_is_not_connected_names_the_groups(cli, tmp_path) -> None:
    other = pd.DataFrame(
        {
            "id": [11, 12, 13, 14],
            "model_a": ["u", "v", "u", "v"],
            "model_b": ["v", "u", "v", "u"],
            "winner": ["model_a", "model_a", "tie", "model_b"],
        }
    )
    path = tmp_path / "votes.csv"
    pd.concat([HUMAN, other]).to_csv(path, index=False)
    res = cli("rank", path, "--draws", "0")
    assert res.exit_code == 0, res.stderr
    sentence = next(ln for ln in res.stdout.splitlines() if "never compared" in ln)
    assert "2 groups of models never compared with one another (x, y and z; u and v)" in sentence
    assert len(sentence) <= 300


def test_inputs_and_outputs_are_checked_before_any_work(cli, sim, tmp_path) -> None:
    assert "no such file" in _one_sentence(cli("rank", tmp_path / "none.csv"))
    message = _one_sentence(cli("rank", sim["human"], "--judge", "gpt=missing.csv"))
    assert message.startswith("--judge missing.csv: no such file")
    message = _one_sentence(cli("rank", sim["human"], "--plot", tmp_path / "fig.txt"))
    assert "--plot" in message and not (tmp_path / "fig.txt").exists()
    assert "(0, 1)" in _one_sentence(cli("rank", sim["human"], "--power", "1.5"))
    twice = ["--judge", f"a={sim['sharp']}", "--judge", f"a={sim['first-biased']}"]
    assert "given twice" in _one_sentence(cli("rank", sim["human"], *twice))
    assert cli("rank", sim["human"], "--draws", "-1").exit_code == 2


def test_plot(cli, sim, tmp_path) -> None:
    fig = tmp_path / "rank.svg"
    res = cli("rank", sim["human"], "--judge", sim["sharp"], "--draws", "0", "--plot", fig)
    assert res.exit_code == 0, res.stderr
    assert fig.read_text(encoding="utf-8").startswith("<?xml")


def test_select_then_rank_with_the_probabilities(cli, sim, tmp_path) -> None:
    out = tmp_path / "next.csv"
    judge = ["--judge", f"sharp={sim['sharp']}"]
    res = cli("rank", "select", sim["human"], *judge, "--budget", "50", "-o", out)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.startswith("Send ") and f"--probabilities {out}" in res.stdout
    chosen = pd.read_csv(out)
    assert list(chosen.columns) == ["comparison", "probability", "selected"]
    assert chosen["probability"].sum() == pytest.approx(50)
    # the comparisons drawn get their human votes (here: the first-biased judge's, as a stand-in)
    votes = pd.read_csv(sim["human"])
    more = pd.read_csv(sim["first-biased"])
    more = more[more["id"].isin(chosen.loc[chosen["selected"] == 1, "comparison"])]
    both = tmp_path / "more.csv"
    pd.concat([votes, more]).to_csv(both, index=False)
    again = cli("rank", both, *judge, "--probabilities", out, "--draws", "0", "--json")
    assert again.exit_code == 0, again.stderr
    assert again.json()["labelled"] == 400 + len(more)
    assert "needs a judge" in _one_sentence(
        cli("rank", "select", sim["human"], "--budget", "5", "-o", tmp_path / "x.csv")
    )
    assert not (tmp_path / "x.csv").exists()
    assert "exists" in _one_sentence(
        cli("rank", "select", sim["human"], *judge, "--budget", "5", "-o", out)
    )


def test_scores_become_a_judge(cli, tmp_path) -> None:
    human = pd.DataFrame(
        {
            "id": [1, 2, 3, 4],
            "model_a": ["x", "y", "x", "z"],
            "model_b": ["y", "z", "z", "y"],
            "winner": ["model_a", "tie", "model_b", "model_a"],
            "prompt": ["p1", "p2", "p3", "p1"],
        }
    )
    scores = pd.DataFrame({"prompt": ["p1", "p2", "p3"], "x": [8, 3, 5], "y": [6, 3, 2],
                           "z": [9, 1, 4]})  # fmt: skip
    h, s = tmp_path / "h.csv", tmp_path / "grades.csv"
    human.to_csv(h, index=False)
    scores.to_csv(s, index=False)
    res = cli("rank", h, "--scores", s, "--draws", "0", "--json")
    assert res.exit_code == 0, res.stderr
    data = res.json()
    assert data["judges"] == ["grades"] and data["comparisons"] == 9
    worth = data["judge_worth"][0]
    assert worth["position"]["status"] == "no_positions"


def test_the_page_of_votes_is_drawn_again_byte_for_byte(cli, sim, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    page, saved = tmp_path / "votes.html", tmp_path / "votes.json"
    res = cli(
        "report", "--votes", sim["human"], "--judge", f"sharp={sim['sharp']}", "-o", page,
        "--save-results", saved,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "Ranking: models compared in pairs"
    study = humanly.StudyResult.from_dict(json.loads(saved.read_text(encoding="utf-8")))
    assert study.inspect is None and study.rank is not None
    assert {s.reason for s in study.skipped} == {"no_ratings"}
    assert lines[1] == verdicts_for(study.rank)[0].sentence
    again = tmp_path / "again.html"
    assert cli("report", "--from", saved, "-o", again).exit_code == 0
    assert again.read_bytes() == page.read_bytes()
    html = page.read_text(encoding="utf-8")
    assert 'id="rank"' in html and 'id="methods-rank"' in html and 'id="certify"' not in html
    # the figures: estimates with intervals beside the rank-sets as bars, the win matrix, the plan
    captions = re.findall(
        r'<figure id="rank-figure-\d">.*?<figcaption>(.*?)</figcaption>', html, re.S
    )
    assert len(captions) == 3, captions
    assert "interval (left) and its rank-set (right" in captions[0]
    assert captions[1].startswith("The pairwise win matrix")
    assert captions[2].startswith("The planning curve")
    # the options of ratings do not mix with votes
    other = tmp_path / "other.html"
    message = _one_sentence(cli("report", sim["human"], "--votes", sim["human"], "-o", other))
    assert "drop RATINGS" in message
    message = _one_sentence(cli("report", sim["human"], "--judge", "a.csv", "--judge", "b.csv",
                                "-o", other))  # fmt: skip
    assert "takes one judge" in message
    message = _one_sentence(cli("report", "--from", saved, "--votes", sim["human"], "-o", other))
    assert "drop --votes" in message and not other.exists()


def test_the_arena_votes_on_the_command_line(cli, shared_data, tmp_path) -> None:
    """1,034 of the Chatbot Arena's human votes (every 13th line), both judges on all 13,440."""
    folder = shared_data / "arena"
    lines = (folder / "human.jsonl").read_text(encoding="utf-8").splitlines()
    sample = tmp_path / "human-1000.jsonl"
    sample.write_text("\n".join(lines[::13]) + "\n", encoding="utf-8")
    judges = [
        "--judge", f"claude-3-opus={folder / 'judge-claude-3-opus.jsonl'}",
        "--judge", f"gpt-3.5-turbo={folder / 'judge-gpt-3.5-turbo.jsonl'}",
    ]  # fmt: skip
    res = cli("rank", sample, *judges, "--draws", "1000")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.startswith("gpt-4 ranks first")
    assert "The judge gpt-3.5-turbo favours the answer shown first" in res.stdout
    data = cli("rank", sample, *judges, "--draws", "1000", "--json").json()
    assert data["labelled"] == 1034 and data["comparisons"] == 13_440
    assert [r["judges"] for r in data["rankings"]][-1] == ["claude-3-opus", "gpt-3.5-turbo"]


def test_a_judge_file_names_its_judge_without_the_extension_only(
    cli, shared_data, tmp_path
) -> None:
    """A judge given as a bare file is named by the file name without its table extension and
    compression suffix: ``judge-gpt-3.5-turbo.jsonl`` is ``judge-gpt-3.5-turbo`` (it was cut at the
    first dot, ``judge-gpt-3``), the same rule as ``humanly judge --judge FILE``."""
    folder = shared_data / "arena"
    lines = (folder / "human.jsonl").read_text(encoding="utf-8").splitlines()
    sample = tmp_path / "human.jsonl"
    sample.write_text("\n".join(lines[::13]) + "\n", encoding="utf-8")
    data = cli("rank", sample, "--judge", folder / "judge-gpt-3.5-turbo.jsonl", "--json").json()
    assert data["rankings"][-1]["judges"] == ["judge-gpt-3.5-turbo"]
    from humanly.cli.judge_options import judge_files

    assert judge_files(["llm.v2.csv.gz", "b.parquet"]) == {
        "llm.v2": Path("llm.v2.csv.gz"),
        "b": Path("b.parquet"),
    }
