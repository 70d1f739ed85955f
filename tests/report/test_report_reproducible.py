"""A page that reproduces: with ``SOURCE_DATE_EPOCH`` set, ``humanly demo`` run twice (two processes
with different hash seeds, two output folders) writes byte-identical pages and export files; "nan"
never reaches the page."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from report_pages import visible_text

EPOCH = "1700000000"  # 2023-11-14T22:13:20+00:00


def _demo(folder: Path, hash_seed: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, PYTHONHASHSEED=hash_seed, MPLBACKEND="Agg")
    args = ["demo", "-o", str(folder / "demo"), "--bootstrap", "100", "--export", str(folder / "x")]
    return subprocess.Popen(
        [sys.executable, "-m", "humanly", *args],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_demo_twice_gives_the_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    runs = [_demo(a, "1"), _demo(b, "2")]
    for run in runs:
        _out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err.decode()
    first, second = _files(a), _files(b)
    assert {"demo/report.html", "demo/running-example.html"} <= set(first)
    assert any(name.endswith(".pdf") for name in first)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert differ == []
    for name in ("demo/report.html", "demo/running-example.html"):
        html = first[name].decode("utf-8")
        assert html.count("2023-11-14T22:13:20+00:00") == 2  # the table and the embedded JSON
        assert not re.search(r"\b(nan|NaN|inf)\b", visible_text(html))
        assert "NaN" not in html and "Infinity" not in html
