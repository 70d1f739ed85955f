"""Fixtures of the numbers-unchanged check: the simulated studies of the record, written once."""

from __future__ import annotations

from pathlib import Path

import pytest

from baseline import simulated


@pytest.fixture(scope="session")
def sim(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return simulated(tmp_path_factory.mktemp("baseline"))
