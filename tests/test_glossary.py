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


# ------------------------------------------------------------------ command-line flags (issue 30)
#: flags that are not the Python name with ``_`` → ``-``: ``from`` is a Python keyword
FLAG_EXCEPTIONS = {"from_file": "--from"}
#: ``humanly budget``'s flags (and its error-model flags, which ``simulate pair`` shares) are renamed on
#: the branch vocab-b, with their glossary rows: the integrator empties these after the merge
PENDING_COMMANDS = ("humanly budget",)
PENDING_FLAGS = {"--qb", "--qw", "--pw", "--pb0", "--pb1"}
GLOSSARY_FLAGS = {
    flag
    for code in re.findall(r"`([^`]+)`", GLOSSARY.split("## Retired names", 1)[0])
    for flag in re.findall(r"--[a-z0-9][a-z0-9-]*", code)
}


def _retired_flags() -> dict[str, str | None]:
    """Retired flags of the glossary's last table → the command group they are retired in (``None``:
    everywhere), from first cells such as `` `--raters` `` or `` `--m` (simulate) ``."""
    out: dict[str, str | None] = {}
    for line in RETIRED_TABLE.splitlines():
        cells = line.split("|")
        if len(cells) < 3:
            continue
        where = re.search(r"\((\w+)\)", cells[1])
        for flag in re.findall(r"`(--[a-z0-9-]+)`", cells[1]):
            out[flag] = where.group(1) if where else None
    return out


RETIRED_FLAGS = _retired_flags()


def _options() -> list[tuple[str, object]]:
    """(command path, option) for every option of every command of the ``humanly`` app."""
    import typer

    from humanly.cli import app

    def walk(command: object, path: str) -> list[tuple[str, object]]:
        out = [(path, p) for p in getattr(command, "params", ()) if p.param_type_name == "option"]
        for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
            out += walk(sub, f"{path} {name}")
        return out

    return walk(typer.main.get_command(app), "humanly")


def _long_flags(option: object) -> list[str]:
    opts = [*option.opts, *option.secondary_opts]  # type: ignore[attr-defined]
    return [o for o in opts if o.startswith("--") and o != "--help"]


def test_the_retired_flags_are_read_from_the_glossary() -> None:
    assert {"--raters", "--k", "--items", "--qb"} <= set(RETIRED_FLAGS)
    assert RETIRED_FLAGS["--m"] == "simulate" and RETIRED_FLAGS["--raters"] is None


def test_every_flag_of_every_command_is_in_the_glossary() -> None:
    missing = sorted(
        {
            f"{flag} ({path})"
            for path, option in _options()
            if not path.startswith(PENDING_COMMANDS)
            for flag in _long_flags(option)
            if flag not in GLOSSARY_FLAGS and flag not in PENDING_FLAGS
        }
    )
    assert not missing, "flags not named in docs/glossary.md:\n" + "\n".join(missing)


def test_every_flag_is_its_python_name() -> None:
    bad = []
    for path, option in _options():
        flags = [o for o in option.opts if o.startswith("--")]  # type: ignore[attr-defined]
        if not flags or path.startswith(PENDING_COMMANDS) or flags[0] in PENDING_FLAGS:
            continue
        name = option.name  # type: ignore[attr-defined]
        expected = FLAG_EXCEPTIONS.get(name, "--" + name.replace("_", "-"))
        if flags[0] != expected:
            bad.append(f"{path}: {flags[0]} feeds {name} (write {expected})")
    assert not bad, "flags that are not their Python name:\n" + "\n".join(bad)


def test_no_command_has_a_retired_flag() -> None:
    bad = [
        f"{path}: {flag}"
        for path, option in _options()
        for flag in _long_flags(option)
        if flag in RETIRED_FLAGS
        and flag not in PENDING_FLAGS
        and (RETIRED_FLAGS[flag] is None or path.startswith(f"humanly {RETIRED_FLAGS[flag]}"))
    ]
    assert not bad, "retired flags (docs/glossary.md) still in use:\n" + "\n".join(bad)


def _texts() -> list[tuple[Path, str]]:
    """src/, docs/ (the glossary up to its retired-names table) and the README."""
    files = [*sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "docs").glob("*.md"))]
    out = []
    for path in [*files, ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        if path.name == "glossary.md":
            text = text.split("## Retired names", 1)[0]
        out.append((path, text))
    return out


#: Python names retired by the last rename (issue 30), which no text may use either (older retired
#: names such as ``alpha`` are words of other names: ``krippendorff_alpha``)
RETIRED_WORDS = ("upper_finite", "lower_finite", "raters_per_item")


def test_retired_flags_and_names_appear_nowhere() -> None:
    everywhere = [
        f for f, where in RETIRED_FLAGS.items() if where is None and f not in PENDING_FLAGS
    ]
    patterns = [re.escape(f) + r"(?![\w-])" for f in everywhere]
    patterns += [rf"\b{w}\b" for w in RETIRED_WORDS]
    found = re.compile("|".join(patterns))
    bad = [
        f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"
        for path, text in _texts()
        for n, line in enumerate(text.splitlines(), 1)
        for m in found.finditer(line)
    ]
    assert not bad, "retired names in the text (docs/glossary.md lists them):\n" + "\n".join(bad)
