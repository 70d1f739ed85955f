"""Errors name parameters as data; the command line writes the running command's own flags (one place),
and never rewrites the rest of the message."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import typer.main
from hypothesis import given
from hypothesis import strategies as st

from humanly.cli import app
from humanly.cli._app import _invoked, spelling
from humanly.errors import InputError, Setting, setting

ROOT = typer.main.get_command(app)
SRC = Path(__file__).resolve().parents[1] / "src" / "humanly"


def _cli(message: str, *command: str) -> str:
    return InputError(message).render(spelling(_invoked(ROOT, command)))


def test_settings_become_the_commands_flags() -> None:
    assert _cli(f"pass {setting('missing', 'drop')} to keep them", "inspect") == (
        "pass --missing drop to keep them"
    )
    assert _cli(f"name it with {setting('item_col')}", "inspect") == "name it with --item-col"
    assert _cli(f"{setting('level', 1.5)}: give a value in (0, 1)", "certify") == (
        "--level 1.5: give a value in (0, 1)"
    )
    assert _cli(f"pass {setting('force', True)} to overwrite it", "report") == (
        "pass --force to overwrite it"
    )
    assert _cli(f"or pass {setting('dawid_skene', False)}", "inspect") == "or pass --no-dawid-skene"
    assert (
        _cli(f"{setting('q_b', 0.4)}: give a value", "budget", "pilot") == "--q-b 0.4: give a value"
    )
    assert _cli(f"{setting('rater_accuracies', [0.8, 0.7])}", "simulate", "ratings") == (
        "--rater-accuracies 0.8,0.7"
    )


def test_python_callers_read_python() -> None:
    exc = InputError(f"pass {setting('missing', 'drop')} or {setting('dawid_skene', False)}")
    assert str(exc) == "pass missing='drop' or dawid_skene=False"
    assert [s.name for s in exc.settings] == ["missing", "dawid_skene"]
    assert exc.settings[0] == Setting("missing", "drop", text=True)


def test_advice_names_only_flags_the_command_has() -> None:
    """`humanly judge estimate` has no --rater-mode: the advice keeps the Python spelling, never a
    flag of another command."""
    judge = _invoked(ROOT, ("judge", "estimate"))
    assert "rater_mode" not in {p.name for p in judge.params}
    message = f"give {setting('rater_mode', 'named')}"
    assert InputError(message).render(spelling(judge)) == "give rater_mode='named'"
    assert _cli(message, "certify") == "give --rater-mode named"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Co", "Cc")), max_size=40))
def test_data_values_are_never_rewritten(value: str) -> None:
    """A value from the user's data (here any text, e.g. 'e=3,n=2') is printed as it is."""
    message = f"label {value} on line 7; pass {setting('missing', 'drop')}"
    shown = _cli(message, "inspect")
    assert shown == " ".join(f"label {value} on line 7; pass --missing drop".split())


def test_a_wrapped_error_keeps_its_settings() -> None:
    inner = InputError(f"{setting('level', 2)}: give a probability")
    outer = InputError(f"ratings.csv: {inner}")
    assert [s.name for s in outer.settings] == ["level"]
    assert str(outer) == "ratings.csv: level=2: give a probability"
    import pickle

    again = pickle.loads(pickle.dumps(outer))
    assert str(again) == str(outer) and again.settings == outer.settings


def test_cli_error_shows_flags(cli, tmp_path) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,rater,label\n1,a,0\n1,b,1\n2,a,1\n", encoding="utf-8")
    res = cli("inspect", ratings, "--item-col", "foo")
    assert res.exit_code == 2
    assert "--item-col" in res.stderr and "item_col=" not in res.stderr, res.stderr


def test_cli_leaves_a_value_that_looks_like_a_parameter_alone(cli, tmp_path) -> None:
    """The bug this design removed: a label 'e=3,n=2' was printed as 'e=3,--n 2'."""
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,rater,label\n1,a,low\n1,b,e=3;n=2\n2,a,low\n", encoding="utf-8")
    res = cli("agreement", ratings, "--classes", "low,high")
    assert res.exit_code == 2
    assert "e=3;n=2" in res.stderr, res.stderr
    assert "\ue000" not in res.stderr and "\ue001" not in res.stderr


def _calls_with_setting(name: str) -> list[str]:
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            fn = getattr(node.func, "id", getattr(node.func, "attr", None))
            if fn != name:
                continue
            if any(
                isinstance(sub, ast.Call) and getattr(sub.func, "id", None) == "setting"
                for sub in ast.walk(node)
            ):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    return found


@pytest.mark.parametrize(
    "kind", ["TypeError", "ValueError", "RuntimeError", "warn", "echo", "print"]
)
def test_settings_only_travel_in_input_errors(kind: str) -> None:
    """Only InputError reads the markers back; anywhere else they would show as odd characters."""
    assert not _calls_with_setting(kind)


def test_python_to_flag_holds_only_names_no_command_carries() -> None:
    from humanly.cli._app import PYTHON_TO_FLAG, _parameters

    carried = {p.name for p in _parameters(ROOT)}
    assert not set(PYTHON_TO_FLAG) & carried
