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
import io
import re
import tokenize
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


def _cleaned_lines(text: str, tree: ast.Module) -> list[str]:
    """The module's lines with its docstrings and comments blanked out (code, not prose: a module
    that only mentions scikit-learn in prose takes no path the extras change)."""
    lines = text.splitlines(keepends=True)
    spans: list[tuple[int, int, int, int]] = []  # (first line, first column, last line, end column)
    for sub in ast.walk(tree):
        body = getattr(sub, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            doc = body[0]
            end_line = doc.end_lineno or doc.lineno
            # ast's columns count UTF-8 bytes; the lines are characters
            first = len(lines[doc.lineno - 1].encode()[: doc.col_offset].decode())
            last = len(lines[end_line - 1].encode()[: doc.end_col_offset].decode())
            spans.append((doc.lineno, first, end_line, last))
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            spans.append((tok.start[0], tok.start[1], tok.end[0], tok.end[1]))
    for first_line, first, last_line, last in spans:
        for n in range(first_line, last_line + 1):
            line = lines[n - 1]
            lo = first if n == first_line else 0
            hi = last if n == last_line else len(line.rstrip("\n"))
            lines[n - 1] = line[:lo] + " " * (hi - lo) + line[hi:]
    return lines


def _segment(lines: list[str], node: ast.stmt) -> str:
    """A top-level statement's cleaned text, its decorators included."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "".join(lines[first - 1 : node.end_lineno or node.lineno])


def _split(path: Path) -> tuple[bool, dict[str, bool]]:
    """(whether the module's shared code names an extra, whether each top-level ``test_*`` function's
    own code does) — code, not prose: docstrings and comments are left out. Read from the module's
    text with its prose blanked (parsing once and slicing by line is 30× faster than unparsing each
    function, which made collection take 20 s per pytest worker)."""
    path = path.resolve()
    if path in _SHARED_CACHE:
        return _SHARED_CACHE[path]
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    lines = _cleaned_lines(text, tree)
    own: dict[str, bool] = {}
    shared_parts = []
    for node in tree.body:
        code = _segment(lines, node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            own[node.name] = any(word in code for word in EXTRAS_WORDS)
        else:
            shared_parts.append(code)
    shared_text = "".join(shared_parts)
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
