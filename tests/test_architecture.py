"""The shape of the package (docs/architecture.md): layers point one way, no import circles, small files.

Layers, bottom to top: the data level (``humanly.data`` and the shared helpers beside it) ←
the analyses (``certify``, ``survey``, ``budget``; none imports another) ← ``plots`` ← ``report`` ←
``cli``. Imports under ``if TYPE_CHECKING:`` are annotations only and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = SRC / "humanly"

ANALYSES = ("certify", "survey", "budget")
#: rank of each top-level part of the package; a module may import only parts of equal or lower rank
#: (and analyses never import one another)
RANK = {"data": 0, **dict.fromkeys(ANALYSES, 1), "plots": 2, "report": 3, "cli": 4}
MAX_FILE_LINES = 650  # "no source file over ~600 lines"
MAX_FUNCTION_LINES = 120  # a function over ~80 lines needs a reason (said in its docstring)


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _part(module: str) -> str:
    """The layer a module belongs to: its top-level sub-package, or ``data`` for the helpers beside
    it (``humanly._core.counts``, ``humanly.crowd.inspect``, ...) and the package root."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in RANK:
        return parts[1]
    if module == "humanly.__main__":
        return "cli"
    return "data"


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def _imports(module: str) -> set[str]:
    """Modules of humanly that ``module`` imports (at any depth, outside TYPE_CHECKING)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("humanly"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in MODULES)
    out.discard(module)
    return {m for m in out if m in MODULES}


GRAPH = {m: _imports(m) for m in MODULES}


def test_layers_point_one_way() -> None:
    bad = []
    for module, targets in GRAPH.items():
        mine = _part(module)
        for target in targets:
            theirs = _part(target)
            if RANK[theirs] > RANK[mine] or (
                mine in ANALYSES and theirs in ANALYSES and theirs != mine
            ):
                bad.append(f"{module} ({mine}) imports {target} ({theirs})")
    assert not bad, "\n".join(sorted(bad))


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan). A package ``__init__`` that
    re-exports its own submodules is not a circle: edges into a package's own ``__init__`` from inside
    the package are left out."""

    def edges(v: str) -> list[str]:
        return [w for w in GRAPH[v] if not (MODULES[w].name == "__init__.py" and v.startswith(w))]

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles() -> None:
    assert _cycles() == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_files_stay_small(module: str) -> None:
    path = MODULES[module]
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_FILE_LINES, f"{path.relative_to(SRC)} has {n} lines; split it by idea"


def test_functions_stay_short() -> None:
    long = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append(f"{module}.{node.name}: {n} lines")
    assert not long, "\n".join(long)
