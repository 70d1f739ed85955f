"""docs/glossary.md is the vocabulary: every parameter of a top-level function is named there, and no
public signature, result field or ``--json`` key uses a retired name (the glossary's last table)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import re
from pathlib import Path

import pytest

import humanly

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
CONTRACT = json.loads((ROOT / "tests" / "json_contract.json").read_text(encoding="utf-8"))
PUBLIC_PACKAGES = (
    "humanly.data",
    "humanly.crowd",
    "humanly.certification",
    "humanly.survey",
    "humanly.budget",
    "humanly.judging",
    "humanly.ranking",
    "humanly.study",
    "humanly.simulate",
)


def _backticked(text: str) -> set[str]:
    """Every name in backticks, and the words of a backticked call or assignment (``raters="slots"``
    names ``raters``)."""
    out = set()
    for code in re.findall(r"`([^`]+)`", text):
        out.add(code)
        out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))
    return out


NAMED = _backticked(GLOSSARY)
RETIRED_TABLE = GLOSSARY.split("## Retired names", 1)[1]
RETIRED = {
    m.group(1)
    for line in RETIRED_TABLE.splitlines()
    if (m := re.match(r"\|\s*`([^`]+)`\s*\|", line))
}


def _top_level_functions() -> list[tuple[str, inspect.Signature]]:
    out = []
    for name in humanly.__all__:
        value = getattr(humanly, name)
        if inspect.isfunction(value):
            out.append((name, inspect.signature(value)))
    return out


def test_the_glossary_has_retired_names() -> None:
    assert {"alpha", "annotators", "summarize"} <= RETIRED


@pytest.mark.parametrize(("name", "signature"), _top_level_functions())
def test_every_parameter_of_a_top_level_function_is_in_the_glossary(
    name: str, signature: inspect.Signature
) -> None:
    missing = [p for p in signature.parameters if p not in NAMED]
    assert not missing, f"humanly.{name}: parameters not named in docs/glossary.md: {missing}"


def _public_objects() -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = [(f"humanly.{n}", getattr(humanly, n)) for n in humanly.__all__]
    for package in PUBLIC_PACKAGES:
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", ()):
            out.append((f"{package}.{name}", getattr(module, name)))
    return out


def test_no_public_name_parameter_or_field_is_retired() -> None:
    bad = []
    for where, value in _public_objects():
        if where.rsplit(".", 1)[1] in RETIRED:
            bad.append(f"{where}: a retired name")
        if inspect.isfunction(value) or inspect.isclass(value):
            try:
                params = inspect.signature(value).parameters
            except (TypeError, ValueError):
                params = {}
            bad += [f"{where}({p}=…)" for p in params if p in RETIRED]
        if inspect.isclass(value) and dataclasses.is_dataclass(value):
            bad += [f"{where}.{f.name}" for f in dataclasses.fields(value) if f.name in RETIRED]
    assert not bad, "retired names (docs/glossary.md) still in use:\n" + "\n".join(sorted(bad))


def test_no_json_key_is_retired() -> None:
    bad = []
    for command, paths in CONTRACT.items():
        for path in paths:
            for key in re.split(r"\.|\[\]", path):
                if key in RETIRED:
                    bad.append(f"{command}: {path}")
    assert not bad, "retired names as --json keys:\n" + "\n".join(sorted(bad))
