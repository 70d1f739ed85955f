"""Fixtures of the numbers-unchanged check: the simulated studies of the record, written once."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from baseline import DATA, simulated


@pytest.fixture(scope="session")
def sim(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return simulated(tmp_path_factory.mktemp("baseline"))


@pytest.fixture
def shared_if_read(request: pytest.FixtureRequest) -> Callable[[Iterable[object]], None]:
    """``check(args)``: when a command's arguments name a file of ../shared/data, the test needs that
    folder — skipped with the ``shared_data`` fixture's reason on a clone without it (the cases on
    simulated data still run)."""

    def check(args: Iterable[object]) -> None:
        if any(str(a).startswith(str(DATA)) for a in args):
            request.getfixturevalue("shared_data")

    return check
