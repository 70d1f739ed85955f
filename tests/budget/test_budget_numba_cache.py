"""Issue 16: with numba installed and no writable cache folder (a read-only package folder and HOME),
numba's ``njit(cache=True)`` raises "cannot cache function"; the kernel must compile without a cache
instead, and importing :mod:`humanly.budget` must not compile (or import numba) at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from humanly.budget import _kernel


def _fake_njit(fail: str | None) -> Any:
    """A stand-in for ``numba.njit``: ``cache=True`` raises RuntimeError(fail) when ``fail`` is set."""
    calls: list[bool] = []

    def njit(*, cache: bool) -> Any:
        calls.append(cache)
        if cache and fail is not None:
            raise RuntimeError(fail)
        return lambda f: f

    njit.calls = calls  # type: ignore[attr-defined]
    return njit


def test_jit_falls_back_to_no_cache() -> None:
    def f(x: float) -> float:
        return x + 1

    njit = _fake_njit("cannot cache function 'f': no locator available for file '/ro/x.py'")
    assert _kernel.jit(f, njit) is f
    assert njit.calls == [True, False]
    ok = _fake_njit(None)
    assert _kernel.jit(f, ok) is f and ok.calls == [True]
    with pytest.raises(RuntimeError, match="something else"):
        _kernel.jit(f, _fake_njit("something else"))


def test_import_does_not_compile() -> None:
    code = "import sys, humanly.budget, humanly.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


SCRIPT = """
import json, sys
import numpy as np
from numba import njit
from humanly.budget import _kernel
try:  # the environment really leaves numba no cache folder
    njit(cache=True)(_kernel._bounds)
    refused = False
except RuntimeError as exc:
    refused = "cannot cache" in str(exc)
value = float(_kernel.sweep_errors(np.array([0.3]), np.array([0.2]), 7)[0])
print(json.dumps({"refused": refused, "value": value}))
"""


def test_unwritable_cache_folder_still_computes(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file, so no folder can be made below it (even by root)")
    env = dict(os.environ)
    env.update(
        {
            "NUMBA_CACHE_DIR": str(blocker / "cache"),
            # only the user-provided folder: the package folder of a checkout is writable here
            "NUMBA_CACHE_LOCATOR_CLASSES": "UserProvidedCacheLocator",
            "HOME": str(blocker / "home"),
        }
    )
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["refused"] is True
    expected = float(_kernel.sweep_errors(np.array([0.3]), np.array([0.2]), 7)[0])
    assert out["value"] == expected
