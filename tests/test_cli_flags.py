"""Library messages name Python parameters; the command line shows the flags users type (one place)."""

from __future__ import annotations

import typer.main

from humanly.cli import app
from humanly.cli._app import to_flags

ROOT = typer.main.get_command(app)


def test_parameters_become_flags() -> None:
    assert to_flags('pass missing="drop" to keep them', ROOT) == "pass --missing drop to keep them"
    assert to_flags("name it with item_col=", ROOT) == "name it with --item-col"
    assert (
        to_flags("level=1.5: give a value in (0, 1)", ROOT) == "--level 1.5: give a value in (0, 1)"
    )
    assert (
        to_flags("headroom=True needs the abc combiner", ROOT)
        == "--headroom needs the abc combiner"
    )
    assert to_flags("total='n' is not a column", ROOT) == "--total n is not a column"


def test_other_text_is_left_alone() -> None:
    for text in ("U_N = 0.93 on N=1821 items", "x=3 and --item-col", "f(a)=b", "k-fold=3"):
        assert to_flags(text, ROOT) == text


def test_cli_error_shows_flags(cli, tmp_path) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,rater,label\n1,a,0\n1,b,1\n2,a,1\n", encoding="utf-8")
    res = cli("inspect", ratings, "--item-col", "foo")
    assert res.exit_code == 2
    assert "--item-col" in res.stderr and "item_col=" not in res.stderr, res.stderr


def test_parameters_named_as_python_become_their_flags() -> None:
    cases = {
        "q_b=0.4: give a value in [0.5, 1]": "--q-b 0.4: give a value in [0.5, 1]",
        "draws=0: give a whole number ≥ 1": "--draws 0: give a whole number ≥ 1",
        "rater_mode='both': use slots or named": "--rater-mode both: use slots or named",
        "n_items=0: give a whole number ≥ 1": "--n-items 0: give a whole number ≥ 1",
        "labels_per_item=0: give a whole number ≥ 1": "--labels-per-item 0: give a whole number ≥ 1",
        "n_items=[]: give at least one n": "--n-items []: give at least one n",
        "upper_kind='x': use empirical or theoretical": "--upper-kind x: use empirical or theoretical",
        "pass force=True to overwrite it": "pass --force to overwrite it",
    }
    for message, expected in cases.items():
        assert to_flags(message, ROOT) == expected


def test_python_to_flag_holds_only_names_no_command_carries() -> None:
    from humanly.cli._app import PYTHON_TO_FLAG, _parameters

    carried = {p.name for p in _parameters(ROOT)}
    assert not set(PYTHON_TO_FLAG) & carried
