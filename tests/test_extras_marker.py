"""The extras pass of CI (``pytest -m extras``) runs every test whose code path an optional extra or a
reference package changes: every test of a module whose shared code imports one of them, and every test
function that imports one itself, carries the marker."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from extras_scan import EXTRAS_WORDS, uses_extras, uses_extras_in

TESTS = Path(__file__).resolve().parent
PACKAGES = {"numba", "dask", "distributed", "crowdkit", "ppi_py", "sklearn", "irrCAC"}


def _imported_packages(path: Path) -> set[str]:
    return _imports_in(ast.parse(path.read_text(encoding="utf-8")))


def _imports_in(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", None) == "importorskip"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            out.add(str(node.args[0].value).split(".")[0])
    return out


@pytest.mark.parametrize(
    "path", sorted(TESTS.rglob("test_*.py")), ids=lambda p: str(p.relative_to(TESTS))
)
def test_a_module_importing_an_extra_is_marked(path: Path) -> None:
    if _imported_packages(path) & PACKAGES:
        assert uses_extras(path), f"{path.name} imports an extra but is not marked"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    tests = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
    shared = _imports_in(ast.Module(body=[n for n in tree.body if n not in tests], type_ignores=[]))
    for fn in tests:
        if (shared | _imports_in(fn)) & PACKAGES:
            assert uses_extras_in(path, fn.name), f"{path.name}::{fn.name} imports an extra"


def test_the_words_name_every_package() -> None:
    assert PACKAGES <= set(EXTRAS_WORDS)


def test_a_module_without_them_is_not_marked(tmp_path: Path) -> None:
    plain = tmp_path / "test_plain.py"
    plain.write_text("import numpy\n\ndef test_x():\n    assert numpy.ones(1)[0] == 1\n")
    assert not uses_extras(plain)
    marked = tmp_path / "test_marked.py"
    marked.write_text("import pytest\nppi = pytest.importorskip('ppi_py')\n")
    assert uses_extras(marked)


def test_only_the_functions_that_name_an_extra_are_marked(tmp_path: Path) -> None:
    mixed = tmp_path / "test_mixed.py"
    mixed.write_text(
        "import pytest\n\ndef test_plain():\n    assert True\n\n"
        "def test_ref():\n    ppi = pytest.importorskip('ppi_py')\n"
    )
    assert not uses_extras_in(mixed, "test_plain")
    assert uses_extras_in(mixed, "test_ref")
    shared = tmp_path / "test_shared.py"
    shared.write_text(
        "import pytest\nsk = pytest.importorskip('sklearn')\n\ndef test_a():\n    pass\n"
    )
    assert uses_extras_in(shared, "test_a")
