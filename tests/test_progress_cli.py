"""Progress a user sees (issue 25, item 4): with stderr not a terminal the long steps write a short
line to stderr every ``HUMANLY_PROGRESS_INTERVAL`` seconds (0 here: every step), ``--quiet`` writes
none, and stdout is the same either way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest


@pytest.fixture(scope="module")
def ratings_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(0)
    n_items, n_raters = 300, 12
    truth = rng.integers(0, 3, n_items)
    acc = rng.uniform(0.5, 0.9, n_raters)
    rows = []
    for i in range(n_items):
        for r in rng.choice(n_raters, 4, replace=False):
            right = rng.random() < acc[r]
            rows.append((f"i{i}", f"r{r}", int(truth[i] if right else (truth[i] + 1) % 3)))
    path = tmp_path_factory.mktemp("progress") / "ratings.csv"
    pd.DataFrame(rows, columns=["item", "rater", "label"]).to_csv(path, index=False)
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HUMANLY_PROGRESS_INTERVAL": "0", "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, "-m", "humanly", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def test_inspect_writes_progress_lines_and_quiet_silences_them(ratings_csv: Path) -> None:
    loud = _run("inspect", str(ratings_csv), "--bootstrap", "200")
    quiet = _run("--quiet", "inspect", str(ratings_csv), "--bootstrap", "200")
    assert loud.returncode == 0 and quiet.returncode == 0, loud.stderr + quiet.stderr
    lines = [x for x in loud.stderr.splitlines() if x.startswith("humanly: ")]
    assert any(x.startswith("humanly: Dawid–Skene: ") and "steps" in x for x in lines)
    assert any(x.startswith("humanly: Dawid–Skene: done in ") for x in lines)
    assert any(x.startswith("humanly: bootstrap: ") and "/200" in x for x in lines)
    assert not any(x.startswith("humanly: ") for x in quiet.stderr.splitlines())
    assert loud.stdout == quiet.stdout and "Dawid" in loud.stdout


def test_a_step_inside_a_barred_step_shows_no_second_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal shows one live bar at a time (rich refuses a second): the inner step is silent."""
    from humanly._core import progress as p

    monkeypatch.setattr(p.sys.stderr, "isatty", lambda: True, raising=False)
    assert p._mode(True) == "bar"
    monkeypatch.setattr(p, "_BAR_OPEN", True)
    assert p._mode(True) == "off"
    p.set_quiet(True)
    try:
        monkeypatch.setattr(p, "_BAR_OPEN", False)
        assert p._mode(True) == "off"
    finally:
        p.set_quiet(False)
