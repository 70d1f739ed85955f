"""Shared fixtures. Real datasets are read from ../shared/data (never shipped in the package)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests: random examples by default (exploration, locally); with HYPOTHESIS_PROFILE=ci (set by
# .ci/run) the same examples every run, so that CI's verdict on a commit is reproducible. A case
# found locally is kept as an explicit @example.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data; skips the test with a clear reason when the folder is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(
            f"real datasets not found at {SHARED_DATA} (../shared/data beside the checkout)"
        )
    return SHARED_DATA


@pytest.fixture
def readonly(tmp_path: Path):
    """A folder nobody may write: chmod 555 (root ignores modes: then a sysfs folder)."""
    if os.geteuid() != 0:
        folder = tmp_path / "readonly"
        folder.mkdir()
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    for candidate in (Path("/sys/kernel"), Path("/proc/self")):
        if candidate.is_dir():
            yield candidate
            return
    pytest.skip("running as root without a read-only folder to test")


class CliResult:
    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr

    def json(self) -> object:
        import json

        return json.loads(self.stdout)


@pytest.fixture
def cli():
    """Run ``humanly ARGS...`` in-process; returns exit code, stdout and stderr separately."""
    from typer.testing import CliRunner

    from humanly.cli import app

    runner = CliRunner()

    def run(*args: object) -> CliResult:
        result = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
        return CliResult(result.exit_code, result.stdout, result.stderr)

    return run


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The marker ``extras`` on every test whose code names an optional extra or a reference package
    (its module's shared code, or the test function itself: tests/extras_scan.py): CI's second pass,
    with the extras installed, runs only those."""
    from extras_scan import uses_extras_in

    for item in items:
        path = getattr(item, "path", None)
        name = getattr(item, "originalname", None) or item.name.split("[")[0]
        if path is not None and Path(path).suffix == ".py" and uses_extras_in(Path(path), name):
            item.add_marker(pytest.mark.extras)
