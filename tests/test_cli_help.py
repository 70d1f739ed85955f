"""Help shows what users type: text as written (``[model,]`` is not rich markup), no type on flags
that take no value, the study inputs in the same words on every data command, options grouped."""

from __future__ import annotations

import dataclasses
import re

import pytest
import typer.main

from humanly.cli import app
from humanly.cli.options import StudyOptions

ROOT = typer.main.get_command(app)
#: ``humanly certify`` is a group whose hidden default command ``data`` takes RATINGS
DATA_COMMANDS = [["inspect"], ["report"], ["certify", "data"], ["equivalence"], ["budget", "plan"]]
STUDY_FLAGS = {
    "--predictions", "--gold", "--missing", "--item-col", "--rater-col", "--label-col", "--wide",
    "--counts", "--total", "--rest-class", "--classes", "--duplicates", "--stream", "--scale",
    "--prediction-col", "--prob-col", "--score-col", "--model-col", "--positive", "--gold-col",
    "--counts-col", "--gold-item-col", "--predictions-item-col", "--prediction-cols",
}  # fmt: skip


def _command(path: list[str]):  # type: ignore[no-untyped-def]
    cmd = ROOT
    for name in path:
        cmd = cmd.commands[name]  # type: ignore[attr-defined]
    return cmd


def _flags(path: list[str]) -> set[str]:
    return {
        o
        for p in _command(path).params
        if p.param_type_name == "option"
        for o in p.opts
        if o.startswith("--")
    }


@pytest.mark.parametrize("path", DATA_COMMANDS, ids=" ".join)
def test_data_commands_take_every_study_option(path: list[str]) -> None:
    no_gold = {"--gold", "--gold-col", "--gold-item-col"}
    expected = STUDY_FLAGS - (no_gold if path == ["equivalence"] else set())
    assert expected <= _flags(path)


def test_a_data_command_shows_only_the_study_flags_it_reads() -> None:
    predictions = {
        "--predictions",
        "--prediction-col",
        "--prob-col",
        "--score-col",
        "--model-col",
        "--positive",
        "--predictions-item-col",
        "--prediction-cols",
    }
    gold = {"--gold", "--gold-col", "--gold-item-col"}
    agreement = _flags(["agreement"])  # the ratings alone
    assert not (predictions | gold | {"--missing"}) & agreement
    assert {"--item-col", "--counts", "--scale", "--counts-col"} <= agreement
    assert not gold & _flags(["equivalence"])


def test_study_options_are_defined_once() -> None:
    fields = {f.name for f in dataclasses.fields(StudyOptions)} - {"ratings"}
    assert len(fields) == len(STUDY_FLAGS)
    # every data command's option of a StudyOptions field is the same object's copy: same help
    helps = {}
    for path in DATA_COMMANDS:
        for p in _command(path).params:
            if p.name in fields:
                helps.setdefault(p.name, set()).add(p.help)
    assert all(len(h) == 1 for h in helps.values()), helps


def test_brackets_are_shown_as_written(cli) -> None:
    res = cli("inspect", "--help")
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())
    assert "item, [model,] and a prediction, prob_<class>, prob or score column" in text


@pytest.mark.parametrize(
    "path",
    [[], ["inspect"], ["report"], ["certify"], ["equivalence"], ["demo"], ["budget", "win"],
     ["budget", "open"], ["budget", "sweep"], ["simulate", "urn"]],
    ids=lambda p: " ".join(p) or "humanly",
)  # fmt: skip
def test_flags_show_no_type(cli, path: list[str]) -> None:
    res = cli(*path, "--help")
    assert res.exit_code == 0 and res.stderr == ""
    assert not re.search(r"<(bool|str|int|float|path|list)", res.stdout), res.stdout
    assert not re.search(r"--(wide|stream|json|force|curve|headroom|adaptive) [A-Z<]", res.stdout)
    assert "{" not in res.stdout.split("\n", 1)[0]  # usage line: RATINGS, not {RATINGS}


def test_help_groups_the_options(cli) -> None:
    out = cli("certify", "--help").stdout
    order = [out.index(h) for h in ("Input files:", "Options:", "Ratings layout:", "Columns:")]
    assert order == sorted(order) and "Commands:" in out and "summary" in out
    assert "--annotators" not in out  # retired before 0.1.0
    assert "Usage: humanly certify [OPTIONS] RATINGS" in out
    assert "or: humanly certify summary [OPTIONS]" in out


def test_bare_group_shows_its_help(cli) -> None:
    res = cli("budget")
    assert "Usage: humanly budget" in res.stdout and "win" in res.stdout
