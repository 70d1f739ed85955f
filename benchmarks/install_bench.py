"""The base install as a new user gets it: time, size and packages of ``pip install .`` (issue 16).

    python benchmarks/install_bench.py [--quick]

Builds fresh virtual environments with this interpreter and installs the checkout (no extras) with pip:
one untimed install first, so pip's wheel cache is warm as on a second machine of the same user, then
``repeat`` timed installs into new environments. Reports the wall time, the size of the environment's
``site-packages`` (what the install added, not the interpreter) and the number of packages, against the
targets ≤ 40 s from a warm cache and ≤ 400 MB. ``--quick`` times one install.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _size_mb(path: Path) -> float:
    total = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            p = Path(dirpath) / name
            if not p.is_symlink():
                total += p.stat().st_size
    return total / 1e6


def _install(folder: Path) -> tuple[float, float, int, list[str]]:
    """(seconds, site-packages MB, packages, their names) of one fresh ``pip install ROOT``."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    pip = venv / "bin" / "pip"
    start = time.perf_counter()
    subprocess.run(
        [str(pip), "install", "-q", "--disable-pip-version-check", str(ROOT)],
        check=True,
        capture_output=True,
    )
    seconds = time.perf_counter() - start
    site = next((venv / "lib").glob("python*/site-packages"))
    listing = subprocess.run(
        [str(pip), "list", "--format=freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    names = sorted(line.split("==")[0] for line in listing if line and not line.startswith("pip="))
    size = _size_mb(site)
    shutil.rmtree(venv)
    return seconds, size, len(names), names


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py."""
    with tempfile.TemporaryDirectory() as tmp:
        _install(Path(tmp))  # warm pip's cache (wheels built or downloaded once)
        results = [_install(Path(tmp)) for _ in range(1 if quick else 3)]
    times = [r[0] for r in results]
    size, count, names = results[-1][1], results[-1][2], results[-1][3]
    heavy = [n for n in names if n.lower() in ("dask", "distributed", "scikit-learn", "numba")]
    return [
        {
            "name": "pip install . (base, warm cache), fresh venv",
            "median_s": statistics.median(times),
            "min_s": min(times),
            "max_s": max(times),
            "runs": len(times),
            "peak_mb": None,
            "target": "≤ 40 s, ≤ 400 MB",
            "notes": f"site-packages {size:,.0f} MB, {count} packages"
            + (
                f" (unexpected: {', '.join(heavy)})"
                if heavy
                else "; no dask, numba or scikit-learn"
            ),
        }
    ]


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    for row in run(quick=ap.parse_args().quick):
        print(row)


if __name__ == "__main__":
    main()
