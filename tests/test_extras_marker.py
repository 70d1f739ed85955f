"""The extras pass of CI (``pytest -m extras``) runs every test whose code path an optional extra or a
reference package changes: a test module that imports one of them carries the marker."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from extras_scan import EXTRAS_WORDS, uses_extras

TESTS = Path(__file__).resolve().parent
PACKAGES = {"numba", "dask", "distributed", "crowdkit", "ppi_py", "sklearn", "irrCAC"}


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
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


def test_the_words_name_every_package() -> None:
    assert PACKAGES <= set(EXTRAS_WORDS)


def test_a_module_without_them_is_not_marked(tmp_path: Path) -> None:
    plain = tmp_path / "test_plain.py"
    plain.write_text("import numpy\n\ndef test_x():\n    assert numpy.ones(1)[0] == 1\n")
    assert not uses_extras(plain)
    marked = tmp_path / "test_marked.py"
    marked.write_text("import pytest\nppi = pytest.importorskip('ppi_py')\n")
    assert uses_extras(marked)
