"""Terminal tables (issue 34, item 9): at 80 columns and when piped, cell text wraps, never a column
header or a model name is cut ("w…", "m…"), and a table too wide for the terminal is printed in parts
that each repeat the column naming the rows. One mechanism for every command
(:class:`humanly.cli._console.CleanTable`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from humanly.cli import _console as ui

#: the box-drawing characters a table line starts with
_BOX = tuple("┏┃┡│└┌├┗┠┣╭╰")


def _table_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith(_BOX)]


def _render(table: ui.CleanTable, width: int) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, file=open(os.devnull, "w"), markup=False)
    for part in table.tables(width):
        console.print(part)
    return console.export_text()


def _header_words(table: ui.CleanTable) -> set[str]:
    return {w for header, _, _ in table.columns for w in header.split()}


def _wide_table() -> ui.CleanTable:
    t = ui.new_table("a wide table")
    t.column("model")
    for header in ("label accuracy", "Hoeffding lower bound", "Cramér lower bound", "P(tie)"):
        t.column(header, justify="right")
    t.column("interpretation of the coefficient")
    t.column("± s.e.", justify="right")
    for name in ("weak-model-with-a-long-name", "strong"):
        t.row(name, "0.94208", "0.0266388", "0.0824035", "1.34204e-65", "≥ fair (1.00)", "0.035")
    return t


@pytest.mark.parametrize("width", [60, 80, 120, 200])
def test_no_header_word_or_name_is_cut_at_any_width(width) -> None:
    table = _wide_table()
    text = _render(table, width)
    lines = _table_lines(text)
    assert lines and max(len(ln) for ln in lines) <= width
    assert "…" not in text
    words = set(text.replace("┃", " ").replace("│", " ").split())
    assert _header_words(table) <= words  # every header word printed whole
    for name in ("weak-model-with-a-long-name", "strong", "1.34204e-65", "0.0824035"):
        assert name in words
    parts = table.tables(width)
    assert all(p.columns[0].header == "model" for p in parts)  # the names in every part
    if width >= 200:
        assert len(parts) == 1 and parts[0].columns[0].width is None  # rich's own layout


def test_a_terminal_narrower_than_a_name_folds_and_never_ellipsizes() -> None:
    text = _render(_wide_table(), 36)
    assert "…" not in text and "weak-model-with-a-long-name" in text


def test_cells_wrap_before_the_table_splits() -> None:
    t = ui.new_table("wrap")
    t.column("parameter")
    t.column("meaning")
    t.column("estimate", justify="right")
    t.row("q_b", "label accuracy where only the better classifier is right", "0.845365")
    parts = t.tables(50)
    assert len(parts) == 1
    text = _render(t, 50)
    assert max(len(ln) for ln in _table_lines(text)) <= 50
    assert "0.845365" in text and "classifier" in text


def test_shrink_takes_the_widest_first() -> None:
    assert ui._shrink([10, 30, 4], [5, 8, 4], 30) == [10, 16, 4]
    assert ui._shrink([10, 30, 4], [5, 8, 4], 10) == [5, 8, 4]  # never below the narrowest


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from humanly import simulate

    d = tmp_path_factory.mktemp("tables")
    names = {"strong-model-with-a-long-name": 0.9, "weak-model-with-an-even-longer-name": 0.8}
    simulate.oracle(200, [0.8, 0.75, 0.7, 0.85], models=names, seed=1).write(d / "o.csv")
    simulate.running_example(n_items=150, seed=2).write(d / "u.csv")
    return {
        "o": str(d / "o.csv"),
        "op": str(d / "o.predictions.csv"),
        "og": str(d / "o.gold.csv"),
        "u": str(d / "u.csv"),
        "up": str(d / "u.predictions.csv"),
    }


def _commands(f: dict[str, str]) -> list[list[str]]:
    return [
        ["inspect", f["o"], "--predictions", f["op"], "--gold", f["og"], "--bootstrap", "0"],
        ["agreement", f["o"], "--bootstrap", "0"],
        ["certify", f["o"], "--predictions", f["op"], "--gold", f["og"]],
        ["equivalence", f["u"], "--predictions", f["up"], "--bootstrap", "0", "--targets", "1,3"],
        ["budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8", "--simulations", "100"],
        ["budget", "plan", f["o"], "--predictions", f["op"], "--bootstrap", "0"],
        ["simulate", "equivalence", "--max-sources", "5"],
    ]


def test_every_command_fits_80_columns(cli, data, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for args in _commands(data):
        done = cli(*args)
        assert done.exit_code == 0, (args, done.stderr)
        lines = _table_lines(done.stdout)
        assert lines, args
        assert max(len(ln) for ln in lines) <= 80, (args, max(lines, key=len))
        assert "…" not in done.stdout, args
    done = cli("certify", data["o"], "--predictions", data["op"], "--gold", data["og"])
    words = set(done.stdout.replace("│", " ").split())
    assert {"strong-model-with-a-long-name", "weak-model-with-an-even-longer-name"} <= words


def test_a_pipe_gets_80_columns(data) -> None:
    """A real pipe, no terminal and no COLUMNS: rich's default width, every table line within it."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    exe = Path(sys.executable).with_name("humanly")
    args = [str(exe), "agreement", data["o"], "--bootstrap", "0"]
    done = subprocess.run(
        args, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = _table_lines(done.stdout)
    assert lines and max(len(ln) for ln in lines) <= 80
    assert "…" not in done.stdout and "interpretation" in done.stdout
