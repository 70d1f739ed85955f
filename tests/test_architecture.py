"""The shape of the package (docs/architecture.md): the floors of the house, no import circles, small
files, and a report that draws results without computing them.

Floors, bottom to top (a module imports only its own floor or lower ones; the analyses on floor 5
never import one another):

0. ``humanly.errors`` — the one error type;
1. ``humanly._core`` — private helpers (and the package root, which only hands names on);
2. ``humanly.data`` — the data model and its readers;
3. ``humanly.crowd``, ``humanly.datasets`` — crowd statistics; the bundled data;
4. ``humanly.simulate`` — generators with a known truth;
5. the analyses ``certification``, ``survey``, ``budget``, ``judging``, ``ranking``;
6. ``humanly.study`` — analyse once;
7. ``humanly.verdicts`` — the one voice: status and reason codes → the sentences everything above
   quotes;
8. ``humanly.plots`` — figures of results;
9. ``humanly.report`` — the page, a pure function of a study's results;
10. ``humanly.demo`` — runs the analyses and writes the demo's pages;
11. ``humanly.cli`` (and ``__main__``) — parse, call, print.

Imports under ``if TYPE_CHECKING:`` are annotations only and do not count towards the floors (they
do towards the import circles of the presentation floors). One reference runs upward by name and
only one: ``humanly._core.views`` loads ``humanly.verdicts.notebook`` on a result's first
``_repr_html_`` (:data:`LATE_BINDINGS`).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = SRC / "humanly"

ANALYSES = ("certification", "survey", "budget", "judging", "ranking")
#: the floor of each part of the package (its top-level module or sub-package)
FLOORS: dict[str, int] = {
    "errors": 0,
    "_core": 1,
    "": 1,  # the package root: hands names on lazily
    "data": 2,
    "crowd": 3,
    "datasets": 3,
    "simulate": 4,
    **dict.fromkeys(ANALYSES, 5),
    "study": 6,
    "_stage_seconds": 6,
    "verdicts": 7,
    "plots": 8,
    "report": 9,
    "demo": 10,
    "cli": 11,
    "__main__": 11,
}
#: The one upward reference by module name (module → the module it imports by name on first use).
LATE_BINDINGS = {"humanly._core.views": "humanly.verdicts.notebook"}
#: Imports of another package's private module or name still allowed (issue 30, item 6): none left,
#: and the set only shrinks.
PRIVATE_LEFT: set[tuple[str, str]] = set()
MAX_FILE_LINES = 600  # "no file over 600 lines"
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
    """The part of the package a module belongs to: its top-level module or sub-package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_part_has_a_floor() -> None:
    unknown = sorted({_part(m) for m in MODULES} - set(FLOORS))
    assert not unknown, (
        f"parts without a floor (add them to FLOORS and docs/architecture.md): {unknown}"
    )


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def _imports(module: str, *, annotations: bool = False) -> set[str]:
    """Modules of humanly that ``module`` imports (at any depth, outside TYPE_CHECKING unless
    ``annotations``)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if annotations else _type_checking_lines(tree)
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


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Every module's imports (parsed when a test first asks, not when the module is collected)."""
    return {m: _imports(m) for m in MODULES}


def test_layers_point_one_way() -> None:
    bad = []
    for module, targets in _graph().items():
        mine = _part(module)
        for target in targets:
            theirs = _part(target)
            if FLOORS[theirs] > FLOORS[mine] or (
                mine in ANALYSES and theirs in ANALYSES and theirs != mine
            ):
                bad.append(f"{module} ({mine}) imports {target} ({theirs})")
    assert not bad, "\n".join(sorted(bad))


def _imported_names(module: str) -> list[tuple[str, str]]:
    """``(module, name)`` of every ``from X import name`` in ``module`` (outside TYPE_CHECKING)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.lineno not in skip and node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            out += [(target, alias.name) for alias in node.names]
    return out


@pytest.mark.parametrize("part", ["report", "plots", "verdicts"])
def test_the_report_draws_results_and_computes_nothing(part: str) -> None:
    """Modules under ``report/``, ``plots/`` and ``verdicts/`` take from the analyses (and crowd
    statistics) only result types, never a function that computes: the page, its figures and its
    sentences are functions of the study's results."""
    computing = {"crowd", "study", *ANALYSES}
    bad = []
    for module in MODULES:
        if _part(module) != part:
            continue
        for target, name in _imported_names(module):
            if _part(target) not in computing:
                continue
            value = getattr(importlib.import_module(target), name, None)
            if value is None and f"{target}.{name}" in MODULES:
                bad.append(f"{module} imports the module {target}.{name}")
            elif not inspect.isclass(value):
                bad.append(f"{module} imports {target}.{name}, which is not a result type")
    assert not bad, "\n".join(sorted(bad))


def _cycles(graph: dict[str, set[str]] | None = None) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan). A package ``__init__`` that
    re-exports its own submodules is not a circle: edges into a package's own ``__init__`` from inside
    the package are left out."""
    graph = _graph() if graph is None else graph

    def edges(v: str) -> list[str]:
        return [w for w in graph[v] if not (MODULES[w].name == "__init__.py" and v.startswith(w))]

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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles() -> None:
    assert _cycles() == []


def test_no_circles_in_the_presentation_floors_even_in_annotations() -> None:
    """The verdicts floor, the figures, the page and the command line form no circle even counting
    the imports made for annotations only (the page's renderer and exporter read a ``Page``, not the
    builder's ``Report``)."""
    graph = {m: _imports(m, annotations=True) for m in MODULES}
    presentation = {"verdicts", "plots", "report", "demo", "cli"}
    mine = [c for c in _cycles(graph) if any(_part(m) in presentation for m in c)]
    assert mine == []


def _private_imports(module: str) -> set[tuple[str, str]]:
    """``(module, target)`` for every import of another package's private module or private name: a
    part of the imported path that starts with ``_``, private to a package ``module`` is not in (a
    private name is private to the package of its module; ``humanly._core``, the private helpers of
    every floor, is shared by design)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            target = ".".join([*base, node.module or ""]).rstrip(".")
        else:
            target = node.module or ""
        if not target.startswith("humanly."):
            continue
        for name in [target] + [f"{target}.{a.name}" for a in node.names]:
            parts = name.split(".")
            for i in range(2, len(parts)):
                prefix = ".".join(parts[:i])
                is_package = prefix in MODULES and MODULES[prefix].name == "__init__.py"
                owner = prefix if is_package else prefix.rsplit(".", 1)[0]
                inside = module == owner or module.startswith(owner + ".")
                if parts[i].startswith("_") and not inside:
                    out.add((module, ".".join(parts[: i + 1])))
    return out


def test_no_private_import_across_packages() -> None:
    found = set().union(*(_private_imports(m) for m in MODULES))
    assert sorted(found - PRIVATE_LEFT) == []


def _named_modules(module: str) -> set[str]:
    """Modules of humanly named by a string in ``module`` ("humanly.x.y"): imported by name."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in MODULES
    }


def test_the_one_late_binding_is_the_notebook_view() -> None:
    """No module names a module of a higher floor (to import it by name), but for the one late
    binding: a result's ``_repr_html_`` loads the verdicts floor's notebook view."""
    upward = {
        (m, target)
        for m in MODULES
        for target in _named_modules(m)
        if FLOORS[_part(target)] > FLOORS[_part(m)]
    }
    assert upward == set(LATE_BINDINGS.items())


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
