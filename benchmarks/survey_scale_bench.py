"""Survey equivalence with many labels per item (issue 25, part 1): time and peak memory.

    python benchmarks/survey_scale_bench.py [--quick] [--before PATH] [--repeat R]

Rows (each in a fresh process; peak = the process's resident high-water mark, VmHWM):

* ChaosNLI-like data: 1,514 items × 100 anonymous labels × 3 classes (``humanly.simulate.urn`` with a
  Dirichlet mixture of three states; two soft models, BERT- and RoBERTa-like, that see each item's
  state through noise of their own: worth about 5 and 9 raters), ABC + cross-entropy, defaults (1,000
  bootstraps; the survey sizes the verdicts need, issue 34) and, for comparison, ``every_k=True``
  (every size with every replicate, the behaviour before) — target (issue 34) equivalence ≤ 15 s and
  ``humanly report`` ≤ 30 s end to end, ≤ 2 GB, on the 2-core machine. Timed in-process
  (``equivalence()`` alone, wall and CPU seconds) and end to end (``humanly equivalence`` and
  ``humanly report`` on the written CSV files, the whole process, via ``/usr/bin/time -v`` when
  present);
* the test suite's smaller case: 300 items × 60 labels, every k, 20 bootstraps;
* the running example (1,000 items × 10 labels, ABC + cross-entropy, 500 bootstraps): median of
  ``--repeat`` runs — it must not get slower.

``--before PATH`` (a checkout's ``src`` folder, e.g. ``/work/main/src``) runs the same children
against that code for the before/after rows; there the ChaosNLI-like call is made as a user would:
first with the default ``max_k``, then with the ``max_k`` each refusal names, at most twice (each
attempt's seconds and message are in the row's notes; the run that finally fits took 29 minutes at
max_k = 28 before issue 25, so it is not repeated here).

On a shared machine the wall times move with the load (the load average is in every row's notes);
CPU seconds are steadier.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _fresh import PEAK_MB  # noqa: E402

DATA = r"""
import numpy as np
from humanly import Predictions
from humanly.simulate import urn
def chaos_like(n=1514, k=100, seed=0):
    '''ChaosNLI-like: three states (entailment, neutral, contradiction), each item's label shares
    drawn from a Dirichlet around its state; two soft models (BERT-, RoBERTa-like) that see each
    item's state through noise of their own.'''
    d = urn(n, k, dirichlet=[[8, 3, 1], [3, 8, 2], [1, 3, 8]], weights=[0.4, 0.3, 0.3],
            classes=["e", "n", "c"], seed=seed)
    g = np.random.default_rng(seed + 1)
    st = np.log(d.truth["states"])
    out = {}
    for name, sharp, noise in (("bert", 1.2, 1.0), ("roberta", 1.3, 0.8)):
        z = sharp * st + noise * g.normal(size=st.shape)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        out[name] = p / p.sum(axis=1, keepdims=True)
    preds = Predictions.from_arrays(d.ratings.items, out, classes=d.ratings.classes)
    return type(d)(d.ratings, d.gold, preds, d.truth)
"""

CHILD = (
    PEAK_MB
    + DATA
    + r"""
import json, sys, time
from humanly import InputError
from humanly.simulate import running_example
from humanly.survey import equivalence
what, n, k, boot = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
max_k = None if sys.argv[5] == "none" else int(sys.argv[5])
every = len(sys.argv) > 6 and sys.argv[6] == "every"
import inspect
if "options" in inspect.signature(equivalence).parameters:  # the API since the 0.1.0 reset
    import dataclasses
    from humanly.survey import EquivalenceOptions
    extra = {"every_k": True} if every and "every_k" in {
        f.name for f in dataclasses.fields(EquivalenceOptions)} else {}
    kw = {"options": EquivalenceOptions(max_k=max_k, progress=False, **extra)}
else:  # the code before it (benchmarks/survey_scale_bench.py --before)
    kw = {"max_k": max_k, "progress": False}
d = running_example(n, k, seed=0) if what == "running" else chaos_like(n, k)
if what == "running":
    equivalence(d.ratings, d.predictions, bootstrap=boot, **kw)  # warm-up
t, c = time.perf_counter(), time.process_time()
try:
    res = equivalence(d.ratings, d.predictions, bootstrap=boot, **kw)
    out = {"ok": True, "eq": [m.equivalence for m in res.models],
           "range": [list(m.equivalence_interval) for m in res.models], "ks": len(res.power_curve),
           "exact": sum(getattr(p, "computed", "exact") == "exact" for p in res.power_curve)}
except InputError as exc:
    out = {"ok": False, "error": str(exc)}
out.update(wall=time.perf_counter() - t, cpu=time.process_time() - c, peak_mb=_peak_mb())
print(json.dumps(out))
"""
)

WRITE = (
    DATA
    + r"""
import sys
print(chaos_like().write(sys.argv[1]))
"""
)


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "?"


def _child(args: list[str], src: str | None) -> dict[str, Any]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    out = subprocess.run(
        [sys.executable, "-c", CHILD, *args], capture_output=True, text=True, env=env
    )
    if out.returncode:
        return {"ok": False, "error": out.stderr[-400:], "wall": float("nan"), "cpu": float("nan"),
                "peak_mb": None}  # fmt: skip
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _row(name: str, times: list[float], **kw: Any) -> dict[str, Any]:
    row = {"name": name, "median_s": statistics.median(times), "min_s": min(times),
           "max_s": max(times), "runs": len(times), "peak_mb": None, "baseline": None,
           "ratio": None, "target": None, "notes": ""}  # fmt: skip
    row.update(kw)
    return row


def chaos_rows(boot: int, src: str | None, label: str, every: bool = False) -> list[dict[str, Any]]:
    """The ChaosNLI-like call (``every``: every survey size with every replicate); with ``src`` (the
    before code) following each refusal's advice."""
    max_k, notes, r = "none", [], {}
    for _ in range(2 if src else 1):
        r = _child(
            ["chaos", "1514", "100", str(boot), max_k, "every" if every else "adaptive"], src
        )
        notes.append(f"max_k={max_k}: {r['wall']:.1f} s" + ("" if r["ok"] else f" ({r['error']})"))
        if r["ok"] or "max_k=" not in r.get("error", ""):
            break
        max_k = r["error"].split("max_k=")[1].split(" ")[0].strip(";.,")
    name = (
        f"survey scale {label}: ChaosNLI-like 1514x100x3 two models abc+cross_entropy {boot} boot"
    )
    how = " (in-process, every k)" if every else " (in-process, defaults)"
    return [
        _row(
            name + (how if not src else " (as a user would call it)"),
            [r["wall"]],
            peak_mb=r["peak_mb"],
            target="<= 15 s, <= 2 GB" if not (src or every) else None,
            notes=f"cpu {r['cpu']:.1f} s; sizes computed for every replicate "
            f"{r.get('exact', '?')}/{r.get('ks', '?')}; equivalences {r.get('eq')}; "
            + "; ".join(notes)
            + f"; load {_load()}",
        )
    ]


def cli_row(boot: int, command: str = "equivalence") -> dict[str, Any]:
    """``humanly equivalence`` (or ``humanly report``) end to end on the written files (the whole
    process)."""
    humanly = shutil.which("humanly") or str(Path(sys.executable).with_name("humanly"))
    timer = ["/usr/bin/time", "-v"] if Path("/usr/bin/time").exists() else []
    with tempfile.TemporaryDirectory() as tmp:
        paths = subprocess.run(
            [sys.executable, "-c", WRITE, str(Path(tmp) / "chaos.csv")],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        ratings, preds = (str(Path(tmp) / f) for f in ("chaos.csv", "chaos.predictions.csv"))
        if command == "report":
            args = [humanly, "report", ratings, "--predictions", preds, "--bootstrap", str(boot),
                    "-o", str(Path(tmp) / "report.html")]  # fmt: skip
        else:
            args = [humanly, "equivalence", ratings, "--predictions", preds, "--combiner", "abc",
                    "--scorer", "cross_entropy", "--bootstrap", str(boot)]  # fmt: skip
        t = _now()
        out = subprocess.run(timer + args, capture_output=True, text=True)
        wall = _now() - t
    peak = None
    for line in out.stderr.splitlines():
        if "Maximum resident set size" in line:
            peak = int(line.split(":")[1]) / 1024
    return _row(
        f"survey scale: humanly {command} (CLI, end to end) ChaosNLI-like 1514x100x3 two models "
        f"{boot} bootstraps",
        [wall],
        peak_mb=peak,
        target="<= 30 s, <= 2 GB" if command == "report" else "<= 15 s, <= 2 GB",
        notes=f"exit {out.returncode}; files {paths.strip()[:60]}...; load {_load()}",
    )


def _now() -> float:
    import time

    return time.perf_counter()


def small_row() -> dict[str, Any]:
    r = _child(["chaos", "300", "60", "100", "none"], None)
    return _row(
        "survey scale: 300x60x3 two models abc+cross_entropy, 100 bootstraps",
        [r["wall"]],
        peak_mb=r["peak_mb"],
        notes=f"cpu {r['cpu']:.1f} s; load {_load()}",
    )


def running_rows(repeat: int, before: str | None) -> list[dict[str, Any]]:
    rows = []
    for label, src in (("after", None), ("before", before)):
        if label == "before" and not before:
            continue
        runs = [_child(["running", "1000", "10", "500", "none"], src) for _ in range(repeat)]
        rows.append(
            _row(
                f"survey running example 1000x10 abc+cross_entropy 500 bootstraps ({label})",
                [r["wall"] for r in runs],
                peak_mb=max(r["peak_mb"] or 0 for r in runs),
                notes=f"cpu median {statistics.median(r['cpu'] for r in runs):.3f} s; "
                f"load {_load()}",
            )
        )
    if len(rows) == 2 and rows[0]["median_s"]:
        rows[0]["baseline"] = "before (same machine, same run)"
        rows[0]["ratio"] = rows[1]["median_s"] / rows[0]["median_s"]
    return rows


def run(quick: bool = False, before: str | None = None, repeat: int = 5) -> list[dict[str, Any]]:
    """Entry point for benchmarks/run.py."""
    boot = 100 if quick else 1000
    rows = [*chaos_rows(boot, None, "after"), small_row(), *running_rows(repeat, before)]
    if not quick:
        rows += [
            *chaos_rows(boot, None, "after", every=True),
            cli_row(boot),
            cli_row(boot, "report"),
        ]
    if before:
        rows += chaos_rows(boot, before, "before")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="100 bootstraps, no CLI or every-k rows")
    ap.add_argument("--before", metavar="PATH", help="src folder of the code to compare with")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    for r in run(quick=a.quick, before=a.before, repeat=a.repeat):
        peak = f", peak {r['peak_mb']:.0f} MB" if r["peak_mb"] else ""
        print(f"{r['name']}: {r['median_s']:.2f} s{peak} — {r['notes']}", flush=True)


if __name__ == "__main__":
    main()
