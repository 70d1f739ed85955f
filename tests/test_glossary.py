"""docs/glossary.md is the vocabulary: every parameter of a top-level function is named there, and no
public signature, result field or ``--json`` key uses a retired name (the glossary's last table)."""

from __future__ import annotations

import dataclasses
import fnmatch
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


JSON_SECTION = GLOSSARY.split("## JSON keys", 1)[1].split("\n## ", 1)[0]
#: budget sweep's m_values: the vocabulary plan's labels_per_item lists, not renamed yet (issue 30)
PENDING_KEYS: set[str] = set()


def _key_rules() -> tuple[list[str], set[str]]:
    """The glossary's key patterns (``*_interval``, ``n_*``, …) and the keys whose own keys are data
    (class labels, counts): the first column of the first table of its JSON keys section."""
    patterns, data = [], set()
    table = JSON_SECTION.split("| pattern |", 1)[1].split("\n\n", 1)[0]
    for line in table.splitlines()[2:]:
        first = line.split("|")[1]
        names = re.findall(r"`([^`]+)`", first)
        if "keys of" in first:
            data.update(names)
        else:
            patterns += [n for n in names if "*" in n]
    return patterns, data


def _json_key_known(key: str, patterns: list[str]) -> bool:
    key = key.split(":", 1)[0]  # a per-model key of the oracle's held: finite_lower:a
    if key in RETIRED:
        return False
    return key in NAMED or any(fnmatch.fnmatchcase(key, p) for p in patterns)


def test_every_json_key_is_a_glossary_name_or_fits_a_key_pattern() -> None:
    patterns, data = _key_rules()
    assert {"*_interval", "*_bound", "n_*"} <= set(patterns) and "class_frequencies" in data
    bad = set()
    for command, paths in CONTRACT.items():
        for path in paths:
            keys = [k for k in re.split(r"\.|\[\]", path) if k]
            for parent, key in zip(["", *keys], keys, strict=False):
                if parent in data or key in PENDING_KEYS or _json_key_known(key, patterns):
                    continue
                bad.add(f"{command}: {path} ({key})")
    assert not bad, (
        "--json keys neither named in docs/glossary.md nor fitting its key patterns (add the key "
        "to its JSON keys section, or rename it):\n" + "\n".join(sorted(bad))
    )


#: where a retired name must not appear: the code, the docs (but the glossary's and the changelog's
#: rename tables), the README and the benchmarks
SOURCES = [
    *sorted((ROOT / "src" / "humanly").rglob("*.py")),
    *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "glossary.md"),
    ROOT / "README.md",
    *sorted((ROOT / "benchmarks").glob("*.py")),
]


LAST_RETIRED = {
    m.group(1)
    for line in RETIRED_TABLE.split("Retired by the last rename", 1)[1].splitlines()
    if (m := re.match(r"\|\s*`([^`]+)`\s*\|", line))
}


def test_no_retired_key_appears_anywhere() -> None:
    """A result field or JSON key retired by the last rename (one with an underscore:
    ``score_range``) appears in no code, page or example."""
    names = sorted(n for n in LAST_RETIRED if re.fullmatch(r"[a-z]+(_[a-z0-9]+)+", n))
    assert {"score_range", "agreement_ci", "hoeffding_lower_bound"} <= set(names)
    word = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    bad = []
    for path in SOURCES:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            bad += [f"{path.relative_to(ROOT)}:{n}: {m.group(1)}" for m in word.finditer(line)]
    assert not bad, "retired names still in use:\n" + "\n".join(bad)


# ------------------------------------------------------------------ command-line flags (issue 30)
#: flags that are not the Python name with ``_`` → ``-``: ``from`` is a Python keyword
FLAG_EXCEPTIONS = {"from_file": "--from"}
#: ``humanly budget``'s lists of m (``--m``, Python ``m_values``) are not renamed to labels_per_item
#: lists yet (issue 30): its commands are left out of the flag checks until they are
PENDING_COMMANDS: tuple[str, ...] = ()
PENDING_FLAGS: set[str] = set()
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
    assert RETIRED_FLAGS["--m"] is None and RETIRED_FLAGS["--raters"] is None


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
