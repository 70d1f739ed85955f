"""Run every benchmark, print one table, write ``benchmarks/results.json`` and ``BENCHMARKS.md``.

    python benchmarks/run.py [--quick] [--only certify survey ... [--merge]]

Each ``benchmarks/*_bench.py`` module exposes ``run(quick: bool) -> list[dict]`` with one dict per
measurement: ``name``, ``median_s``, ``min_s``, ``max_s``, ``runs``, ``peak_mb``, ``baseline``,
``ratio`` (baseline time / ours, measured in the same run: > 1 means humanly is faster), ``target``,
``notes``. Absolute times are noisy on shared machines; the ratios are the comparison that travels.
A module that fails is reported as a failed row and the others still run. humanly's modules are
compiled to bytecode first, as ``pip install`` does for a user (``benchmarks/_fresh.py``), and each
module runs in its own interpreter, so that none disturbs the next (a closed dask LocalCluster left the
parent process busy enough to slow a later 0.6 s command by 0.15 s).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KEYS = ("name", "median_s", "min_s", "max_s", "runs", "peak_mb", "baseline", "ratio", "target",
        "notes")  # fmt: skip


def _child(path: Path, quick: bool) -> int:
    """Run one benchmark module and print its rows as JSON on stdout (the parent's ``--child``)."""
    module = _load(path)
    if not hasattr(module, "run"):
        print("   (no run(); skipped)", file=sys.stderr)
        rows = []
    else:
        rows = [{k: row.get(k) for k in KEYS} for row in module.run(quick=quick)]
    print(json.dumps(rows, allow_nan=False))
    return 0


def _run_module(path: Path, quick: bool) -> list[dict]:
    """One module in a fresh interpreter, so that nothing one module leaves behind (a dask cluster's
    threads, numba's compiled code, imported libraries) disturbs the next one's timings."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(path)]
    out = subprocess.run(cmd + (["--quick"] if quick else []), stdout=subprocess.PIPE, text=True)
    if out.returncode:
        raise RuntimeError(f"{path.name} exited with status {out.returncode} (see stderr above)")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def machine() -> dict:
    import numpy as np

    try:
        import humanly

        version = humanly.__version__
    except ImportError:  # pragma: no cover
        version = None
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": mem,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "humanly": version,
        "platform": platform.platform(),
    }


def _fmt(x, spec=".3g"):
    return "—" if x is None else format(x, spec) if isinstance(x, float) else str(x)


def table(rows: list[dict]) -> list[str]:
    out = [
        "| benchmark | median | min–max | runs | peak MB | baseline | ratio | target | notes |",
        "|---|---:|---:|---:|---:|---|---:|---|---|",
    ]
    for r in rows:
        if r.get("error"):
            out.append(f"| {r['name']} | failed | | | | | | | {r['error']} |")
            continue
        span = (
            f"{_fmt(r.get('min_s'))}–{_fmt(r.get('max_s'))} s"
            if r.get("min_s") is not None
            else "—"
        )
        ratio, peak = r.get("ratio"), r.get("peak_mb")
        out.append(
            f"| {r['name']} | {_fmt(r.get('median_s'))} s | {span} | {_fmt(r.get('runs'))} | "
            f"{_fmt(peak, '.0f' if peak is None or peak >= 10 else '.2g')} | "
            f"{_fmt(r.get('baseline'))} | "
            f"{'—' if ratio is None else f'{ratio:,.3g}×'} | {_fmt(r.get('target'))} | "
            f"{r.get('notes') or ''} |"
        )
    return out


def markdown(info: dict) -> str:
    """BENCHMARKS.md: the run's rows, then benchmarks/NOTES.md (targets, profiles, how to read)."""
    m = info["machine"]
    md = [
        "# Benchmarks",
        "",
        f"Latest run: `{info['command']}` on {info['date']} ({info['seconds']:.0f} s in all).",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB; Python {m['python']}, "
        f"numpy {m['numpy']}, humanly {m['humanly']}.",
        "",
        "Times are medians of repeated runs; *ratio* is the baseline's time over ours, both measured in"
        " the same run (> 1: humanly is faster). Raw numbers: `benchmarks/results.json`.",
        "",
        *table(info["rows"]),
        "",
    ]
    notes = HERE / "NOTES.md"
    if notes.exists():
        md += [notes.read_text().strip(), ""]
    return "\n".join(md)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, a couple of minutes in all")
    ap.add_argument("--only", nargs="*", help="benchmark module stems, e.g. certify survey")
    ap.add_argument(
        "--merge",
        action="store_true",
        help="with --only: keep the other modules' rows of the existing results file",
    )
    ap.add_argument(
        "--render",
        action="store_true",
        help="only write BENCHMARKS.md again from the results file and NOTES.md (no measurement)",
    )
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=HERE / "results.json")
    ap.add_argument("--markdown", type=Path, default=ROOT / "BENCHMARKS.md")
    args = ap.parse_args()
    if args.child:
        sys.path.insert(0, str(HERE))
        return _child(args.child, args.quick)
    if args.render:
        info = json.loads(args.out.read_text())
        args.markdown.write_text(markdown(info))
        print(f"wrote {args.markdown} from {args.out}", file=sys.stderr)
        return 0
    sys.path.insert(0, str(HERE))
    from _fresh import as_installed

    as_installed()
    modules = sorted(HERE.glob("*_bench.py"))
    if args.only:
        modules = [m for m in modules if m.stem.removesuffix("_bench") in args.only]
    rows: list[dict] = []
    started = time.perf_counter()
    for path in modules:
        print(f"== {path.name}", file=sys.stderr, flush=True)
        try:
            for row in _run_module(path, args.quick):
                row = row | {"module": path.stem}
                rows.append(row)
                print("   " + table([row])[-1], file=sys.stderr, flush=True)
        except Exception as exc:  # report and go on: one broken benchmark must not hide the others
            traceback.print_exc()
            rows.append(
                {"name": path.stem, "module": path.stem, "error": f"{type(exc).__name__}: {exc}"}
            )
    command = "python benchmarks/run.py" + (" --quick" if args.quick else "")
    if args.only:
        command += " --only " + " ".join(args.only)
    if args.merge and args.only and args.out.exists():
        previous = json.loads(args.out.read_text())
        done = {m.stem for m in modules}
        kept = [r for r in previous.get("rows", []) if r.get("module") not in done]
        rows = kept + rows
        command += f" --merge (other rows: {previous.get('command')} on {previous.get('date')})"
    info = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": command,
        "quick": args.quick,
        "seconds": round(time.perf_counter() - started, 1),
        "machine": machine(),
        "rows": rows,
    }
    args.out.write_text(json.dumps(info, indent=1, allow_nan=False) + "\n")
    print("\n".join(table(rows)))
    args.markdown.write_text(markdown(info))
    print(f"wrote {args.out} and {args.markdown}", file=sys.stderr)
    return 1 if any(r.get("error") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
