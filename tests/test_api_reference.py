"""The API reference (docs/api, Sphinx + numpydoc) builds with warnings as errors: every public
function and class has a numpydoc docstring with a summary, its parameters under their own names, what
it returns and a runnable example (the ``>>>`` lines run in tests/test_doctests.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[1] / "docs" / "api"


@pytest.mark.slow
def test_api_reference_builds_without_warnings(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")
    pytest.importorskip("numpydoc")
    source = tmp_path / "api"
    shutil.copytree(API, source, ignore=shutil.ignore_patterns("generated", "_build"))
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(source), str(tmp_path / "html")],
        capture_output=True, text=True,
    )  # fmt: skip
    warnings = [ln for ln in done.stderr.splitlines() if "WARNING" in ln or "ERROR" in ln]
    assert done.returncode == 0, "\n".join(warnings[:40]) or done.stderr[-4000:]
    assert (tmp_path / "html" / "index.html").exists()
