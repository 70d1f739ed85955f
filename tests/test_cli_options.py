"""The study inputs are defined once (``humanly.cli.options``) and read by one loader that hands every
option to :func:`humanly.read_study` under its own name."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

import humanly
from humanly.cli import options
from humanly.cli.options import StudyOptions, load_study


def test_every_option_is_a_read_study_parameter(monkeypatch) -> None:
    from humanly.data.study import read_study

    parameters = set(inspect.signature(read_study).parameters)
    seen: dict[str, object] = {}

    def fake(ratings, predictions=None, gold=None, **kwargs):  # type: ignore[no-untyped-def]
        seen.update(ratings=ratings, predictions=predictions, gold=gold, **kwargs)
        return "study"

    monkeypatch.setattr(humanly.data, "read_study", fake)
    values = {
        f.name: (True if f.type in ("Wide", "Stream") else f"v-{f.name}")
        for f in dataclasses.fields(StudyOptions)
    }
    values.update(ratings=Path("r.csv"), predictions=Path("p.csv"), gold=Path("g.csv"))
    values["classes"] = "a, b"
    assert load_study(StudyOptions(**values)) == "study"  # type: ignore[arg-type]
    assert set(seen) == {f.name for f in dataclasses.fields(StudyOptions)} <= parameters
    assert seen["classes"] == ["a", "b"] and seen["total_col"] == "v-total_col"


def test_the_command_line_reads_as_read_study(cli, shared_data) -> None:
    """A counts file whose probability column sits beside the counts: --prob-col without
    --predictions names a column of the ratings file (it used to be ignored)."""
    path = shared_data / "wiki_attack_se" / "wiki_attack_labels_and_predictor.csv"
    args = ["--item-col", "rev_id", "--counts", "attack=n_labelled_attack", "--total", "n_labels",
            "--rest-class", "none", "--prob-col", "predictor_prob"]  # fmt: skip
    res = cli("inspect", path, *args, "--json")
    assert res.exit_code == 0, res.stderr
    study = humanly.read_study(
        path,
        item_col="rev_id",
        counts="attack=n_labelled_attack",
        total_col="n_labels",
        rest_class="none",
        prob_col="predictor_prob",
    )
    expected = humanly.summarize(study.ratings, study.gold, study.predictions).to_dict()
    assert res.json() == expected and [m["model"] for m in res.json()["models"]]


def test_amateurs_take_the_layout_of_the_ratings(tmp_path) -> None:
    study = StudyOptions(
        ratings=tmp_path / "a.csv", predictions=tmp_path / "p.csv", item_col="id", prob_col="p",
        gold_col="g", classes="0,1", stream=True,
    )  # fmt: skip
    second = study.ratings_only(tmp_path / "b.csv")
    assert (second.item_col, second.classes, second.stream) == ("id", "0,1", True)
    assert second.predictions is None and second.prob_col is None and second.gold_col is None


def test_option_group_needs_the_parameter() -> None:
    with pytest.raises(TypeError, match="no parameter 'study'"):

        @options.study_inputs()
        def command(json: bool = False) -> None: ...
