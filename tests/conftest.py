"""Shared fixtures. Real datasets are read from ../shared/data (never shipped in the package)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data; skips the test with a clear reason when the folder is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real datasets not found at {SHARED_DATA} (../shared/data beside the checkout)")
    return SHARED_DATA
