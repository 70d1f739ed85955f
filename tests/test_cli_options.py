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


def test_every_option_reaches_read_study(monkeypatch) -> None:
    """Each flag reaches read_study under its own name: a parameter, a field of Counts (--total,
    --rest-class) or a field of ReadOptions (--duplicates, --stream, --scale, --score-col,
    --model-col, --positive)."""
    from humanly.data import Counts, ReadOptions
    from humanly.data.study import read_study

    parameters = set(inspect.signature(read_study).parameters)
    counts_fields = {"total", "rest_class"}
    # strata and sampling_weights are humanly judge's own --strata and --weights, given to
    # load_study by that command (tests/judge/test_judge_cli_options.py), not study flags
    option_fields = {f.name for f in dataclasses.fields(ReadOptions)} - {
        "strata",
        "sampling_weights",
    }
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
    values.update(classes="a, b", duplicates="keep", scale="ordinal")
    assert load_study(StudyOptions(**values)) == "study"  # type: ignore[arg-type]
    fields = {f.name for f in dataclasses.fields(StudyOptions)}
    assert fields == (set(seen) - {"options", "judge"}) | counts_fields | option_fields
    assert seen["judge"] is None  # only humanly report --judge gives one
    assert set(seen) <= parameters
    assert seen["classes"] == ["a", "b"]
    assert seen["counts"] == Counts("v-counts", total="v-total", rest_class="v-rest_class")
    assert seen["options"] == ReadOptions(
        duplicates="keep", stream=True, score_col="v-score_col", model_col="v-model_col",
        positive="v-positive", scale="ordinal", counts_col="v-counts_col",
        gold_item_col="v-gold_item_col", predictions_item_col="v-predictions_item_col",
        prediction_cols=("v-prediction_cols",),
    )  # fmt: skip


def test_counts_flags_need_counts(cli, tmp_path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("item,rater,label\n1,a,0\n1,b,1\n", encoding="utf-8")
    for flag, value in (("--total", "n"), ("--rest-class", "none")):
        res = cli("inspect", path, flag, value)
        assert res.exit_code == 2 and f"{flag} belongs to the counts layout" in res.stderr
        assert "--counts" in res.stderr and "=" not in res.stderr.split("error:")[1]


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
        counts=humanly.Counts("attack=n_labelled_attack", total="n_labels", rest_class="none"),
        prob_col="predictor_prob",
    )
    expected = humanly.inspect(study).to_dict()
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
