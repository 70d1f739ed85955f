"""The ``>>>`` examples in the package's docstrings run as tests.

They are collected from the *installed* package (``import humanly...``), not from the files under
``src/``: CI installs the package (not editable), and collecting ``src/humanly/*.py`` as test files
would import a second copy of every module beside the installed one.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import humanly


def _modules() -> list[str]:
    names = [humanly.__name__]
    for info in pkgutil.walk_packages(humanly.__path__, prefix=humanly.__name__ + "."):
        names.append(info.name)
    return sorted(names)


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    out = []
    for name in _modules():
        if name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        if any(test.examples for test in finder.find(module, name)):
            out.append(name)
    return out


MODULES = _with_examples()


def test_the_package_has_examples() -> None:
    # guards the collection above: if it found nothing, the test below would silently test nothing
    assert len(MODULES) >= 20, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    for test in finder.find(module, name):
        if not test.examples:
            continue
        result = runner.run(test, out=failures.append)
        del result
    summary = runner.summarize(verbose=False)
    assert summary.failed == 0, "".join(failures)
