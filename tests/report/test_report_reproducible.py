"""A page that reproduces: with ``SOURCE_DATE_EPOCH`` set, ``humanly demo`` run twice (two processes
with different hash seeds, two output folders) writes byte-identical pages and export files; "nan"
never reaches the page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from report_pages import visible_text

EPOCH = "1700000000"  # 2023-11-14T22:13:20+00:00


def _demo(folder: Path, hash_seed: str, *more: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, PYTHONHASHSEED=hash_seed, MPLBACKEND="Agg")
    args = ["demo", "-o", str(folder / "demo"), "--bootstrap", "100", "--export", str(folder / "x")]
    args += more
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
    """Also: ``--json`` (the first run) prints exactly one JSON object and writes the same pages."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    runs = [_demo(a, "1", "--json"), _demo(b, "2")]
    outs = []
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err.decode()
        outs.append(out)
    printed = json.loads(outs[0])  # exactly one JSON object on stdout
    inspect = printed["study"]["inspect"]
    assert inspect["n_items"] == 2000 and inspect["classes"] == ["none", "attack"]
    assert (a / printed["report"]).resolve() == (a / "demo" / "report.html").resolve()
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
