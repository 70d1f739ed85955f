"""Which test modules CI runs again with the optional extras installed (tests/conftest.py marks them
``extras``).

CI runs the suite once on the lean install (the README's command), then installs the optional extras
(dask, numba, crowd-kit) and the reference packages (ppi-python, scikit-learn, irrCAC) and runs again
only the tests whose code paths those packages change: the modules that name one of them, directly or
through a helper module of tests/ that they import. tests/test_extras_marker.py checks the rule.
"""

from __future__ import annotations

import re
from pathlib import Path

EXTRAS_WORDS = (
    "numba",
    "dask",
    "distributed",
    "crowdkit",
    "crowd-kit",
    "ppi_py",
    "ppi-python",
    "sklearn",
    "scikit-learn",
    "irrCAC",
    "irrcac",
    "sweep",  # budget sweeps take the numba kernel when numba is installed
)
_TESTS = Path(__file__).resolve().parent
_CACHE: dict[Path, bool] = {}


def _local_helpers(text: str, folder: Path) -> list[Path]:
    """Helper modules of tests/ that a test module imports (``from agreement_refs import``…)."""
    names = re.findall(r"^\s*(?:from|import)\s+\.?([A-Za-z_][A-Za-z0-9_]*)", text, re.M)
    out = []
    for name in names:
        for base in (folder, _TESTS):
            candidate = base / f"{name}.py"
            if candidate.is_file():
                out.append(candidate)
    return out


def uses_extras(path: Path, _seen: frozenset[Path] = frozenset()) -> bool:
    """Whether the test module at ``path`` (or a tests/ helper it imports) names an extra or a
    reference package."""
    path = path.resolve()
    if path in _CACHE:
        return _CACHE[path]
    text = path.read_text(encoding="utf-8")
    found = any(word in text for word in EXTRAS_WORDS) or any(
        uses_extras(helper, _seen | {path})
        for helper in _local_helpers(text, path.parent)
        if helper not in _seen and helper != path
    )
    _CACHE[path] = found
    return found
