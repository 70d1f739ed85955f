"""Progress that a user sees (issue 25): a bar on a terminal, a short line every ~10 s anywhere else
(a log, a pipe, a notebook), nothing with --quiet or progress=False; never on stdout."""

from __future__ import annotations

import pytest

from humanly._core import progress as p


def test_lines_every_interval_when_stderr_is_not_a_terminal(monkeypatch, capsys) -> None:
    monkeypatch.setenv("HUMANLY_PROGRESS_INTERVAL", "0")
    out = list(p.progress(range(4), total=4, description="bootstrap"))
    captured = capsys.readouterr()
    assert out == [0, 1, 2, 3] and captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0].startswith("humanly: bootstrap: 1/4 (25%), 0 s, about")
    assert lines[-2].startswith("humanly: bootstrap: 4/4 (100%)")
    assert lines[-1] == "humanly: bootstrap: done in 0 s"


def test_a_short_step_prints_nothing(monkeypatch, capsys) -> None:
    monkeypatch.setenv("HUMANLY_PROGRESS_INTERVAL", "10")
    assert list(p.progress(range(3), total=3, description="fast")) == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_a_task_without_total_counts_steps(monkeypatch, capsys) -> None:
    monkeypatch.setenv("HUMANLY_PROGRESS_INTERVAL", "0")
    with p.task("Dawid–Skene EM") as t:
        t.advance(5)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "humanly: Dawid–Skene EM: 5 steps, 0 s"


@pytest.mark.parametrize("how", ["quiet", "disabled"])
def test_quiet_and_disabled_print_nothing(monkeypatch, capsys, how: str) -> None:
    monkeypatch.setenv("HUMANLY_PROGRESS_INTERVAL", "0")
    if how == "quiet":
        p.set_quiet(True)
    try:
        list(p.progress(range(3), total=3, description="x", enabled=how != "disabled"))
    finally:
        p.set_quiet(False)
    assert capsys.readouterr().err == ""
