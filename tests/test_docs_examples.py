"""Every example in README.md and docs/*.md runs as written.

Fenced ``bash`` and ``python`` blocks are executed in document order from a scratch copy of the
repository root (its top-level entries linked in, ``../shared`` beside it as in CI), so commands that
write files leave the checkout clean and later blocks can use what earlier ones wrote. ``bash`` blocks
run under ``bash -euo pipefail`` with the test interpreter's ``humanly`` and ``python`` first on PATH;
``python`` blocks of one document share a namespace. Blocks in other languages (``text`` for syntax
summaries) are not run. A block preceded by the line ``<!-- example: not run (REASON) -->`` is skipped
and the reason must be given (set-up commands that create environments, runs that take an hour).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
SKIP = re.compile(r"^<!-- example: not run \((.+)\) -->$")


def blocks(path: Path) -> list[tuple[int, str, str]]:
    """(line number, language, code) of the runnable blocks of a Markdown file."""
    out: list[tuple[int, str, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i + 1
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        skipped = i > 0 and SKIP.match(lines[i - 1].strip())
        if lang in ("bash", "python") and not skipped:
            out.append((start, lang, "\n".join(lines[start:j])))
        i = j + 1
    return out


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A directory that looks like the repository root, with ``../shared`` beside it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv") and not entry.name.startswith("."):
            (repo / entry.name).symlink_to(entry)
    if SHARED.is_dir():
        (tmp_path / "shared").symlink_to(SHARED)
    return repo


def _env() -> dict[str, str]:
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["MPLBACKEND"] = "Agg"
    env.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    return env


@pytest.mark.parametrize("doc", DOCS, ids=[p.relative_to(ROOT).as_posix() for p in DOCS])
def test_examples_run(doc: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside the checkout")
    monkeypatch.chdir(scratch)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for line, lang, code in blocks(doc):
        where = f"{doc.relative_to(ROOT)} line {line}"
        if lang == "bash":
            proc = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", code],
                cwd=scratch,
                env=_env(),
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert proc.returncode == 0, f"{where}: exit {proc.returncode}\n{code}\n{proc.stderr}"
        else:
            with contextlib.redirect_stdout(io.StringIO()):
                try:
                    exec(compile(code, where, "exec"), namespace)
                except Exception as exc:  # report the block, not the harness
                    pytest.fail(f"{where}: {type(exc).__name__}: {exc}\n{code}")


def test_skipped_blocks_say_why() -> None:
    for doc in DOCS:
        for n, text in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if text.strip().startswith("<!-- example:"):
                hint = "use <!-- example: not run (REASON) -->"
                assert SKIP.match(text.strip()), f"{doc.name} line {n}: {hint}"
