"""Which test modules CI runs again with the optional extras installed (tests/conftest.py marks them
``extras``).

CI runs the suite once on the lean install (the README's command), then installs the optional extras
(dask, numba, crowd-kit) and the reference packages (ppi-python, scikit-learn, irrCAC) and runs again
only the tests whose code paths those packages change: every test of a module whose shared code (its
imports, helpers, fixtures, classes: everything outside its ``test_*`` functions) names one of them,
directly or through a helper module of tests/ that it imports; in the other modules, the ``test_*``
functions whose own text names one. tests/test_extras_marker.py checks the rule.
"""

from __future__ import annotations

import ast
import copy
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


_SHARED_CACHE: dict[Path, tuple[bool, dict[str, bool]]] = {}


def _code(node: ast.AST) -> str:
    """A node's code without its docstrings or comments (``ast.unparse`` drops comments): a module
    that only mentions scikit-learn in prose takes no path the extras change."""
    node = copy.deepcopy(node)
    for sub in ast.walk(node):
        body = getattr(sub, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            sub.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.unparse(node)


def _split(path: Path) -> tuple[bool, dict[str, bool]]:
    """(whether the module's shared code names an extra, whether each top-level ``test_*`` function's
    own code does) — code, not prose: docstrings and comments are left out."""
    path = path.resolve()
    if path in _SHARED_CACHE:
        return _SHARED_CACHE[path]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own: dict[str, bool] = {}
    shared_nodes = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            own[node.name] = any(word in _code(node) for word in EXTRAS_WORDS)
        else:
            shared_nodes.append(node)
    shared_text = _code(ast.Module(body=shared_nodes, type_ignores=[]))
    shared = any(word in shared_text for word in EXTRAS_WORDS) or any(
        uses_extras(helper, frozenset({path}))
        for helper in _local_helpers(shared_text, path.parent)
        if helper != path
    )
    _SHARED_CACHE[path] = (shared, own)
    return shared, own


def uses_extras_in(path: Path, function: str) -> bool:
    """Whether the test ``function`` of the module at ``path`` takes a code path an extra changes:
    the module's shared code names one (every test then), or the function's own text does."""
    if path.name == "test_extras_marker.py":  # the words are its data, not a code path
        return False
    shared, own = _split(path)
    return shared or own.get(function, False)
