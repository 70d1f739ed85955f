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
        to_flags("alpha=1.5: give a value in (0, 1)", ROOT) == "--alpha 1.5: give a value in (0, 1)"
    )
    assert (
        to_flags("headroom=True needs the abc combiner", ROOT)
        == "--headroom needs the abc combiner"
    )
    assert to_flags("total_col='n' is not a column", ROOT) == "--total n is not a column"


def test_other_text_is_left_alone() -> None:
    for text in ("U_N = 0.93 on N=1821 items", "x=3 and --item-col", "f(a)=b", "k-fold=3"):
        assert to_flags(text, ROOT) == text


def test_cli_error_shows_flags(cli, tmp_path) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,rater,label\n1,a,0\n1,b,1\n2,a,1\n", encoding="utf-8")
    res = cli("inspect", ratings, "--item-col", "foo")
    assert res.exit_code == 2
    assert "--item-col" in res.stderr and "item_col=" not in res.stderr, res.stderr
