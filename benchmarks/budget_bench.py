"""Label budget (Don't Label Twice): exact win probability at n = 10², 10⁴, 10⁶, 10⁷ and sweep throughput.

Targets (issue 5): P(ΣG > 0) for n = 10⁶ in under 10 ms; the full Appendix A sweep (50⁵ grid, n ∈ {1..11,
100, 101, 1000, 1001}, m ∈ {3, 11}) in under one hour on this 2-core machine.

The latent-class pilot (``plan(estimator="latent")``): the point fit plus 200 bootstrap replicates fitted as
one batch by SQUAREM-accelerated EM, against plain EM in the same run (same fixed points).

Baseline for the exact probability: the paper's method — the distribution of ΣG by iterated convolution
with exponentiation by squaring (numpy.convolve, exact in double precision but O(n²)); measured for
n ≤ 10⁴ in the same run. The sweep is measured on a seeded random sample of the configurations of one
full-size chunk (every chunk has the same (p_w, p_b0, p_b1) grid) and projected to all 2,500 chunks,
assuming perfect scaling over 2 worker processes (checked: 24 random chunks on a 2-worker LocalCluster).
The baseline is the vectorised special-function path (``humanly.budget.exact.outcomes``, used when numba
is absent) on a
smaller sample of the same configurations, scaled per configuration.

    python benchmarks/budget_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from humanly.budget import IndependentErrors, SweepSpec, outcome
from humanly.budget.sweep import _probabilities, chunk_configs

GAP = IndependentErrors(0.8, 0.01, 0.8).gap(1)  # Fig. 2's parameters


def _time(fn: Any, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def convolution_win(x: float, y: float, z: float, n: int) -> float:
    """The paper's approach: pmf of ΣG by exponentiation by squaring of the pmf [y, z, x]."""
    base = np.array([y, z, x])
    result = np.array([1.0])
    power = base
    k = n
    while k:
        if k & 1:
            result = np.convolve(result, power)
        k >>= 1
        if k:
            power = np.convolve(power, power)
    # result[i] = P(ΣG = i − n)
    return float(result[n + 1 :].sum())


def _row(
    name: str,
    times: list[float],
    *,
    baseline: str | None = None,
    base_times: list[float] | None = None,
    target: str | None = None,
    notes: str = "",
    peak_mb: float | None = None,
) -> dict[str, Any]:
    med = statistics.median(times)
    ratio = statistics.median(base_times) / med if base_times else None
    return {
        "name": name,
        "median_s": med,
        "min_s": min(times),
        "max_s": max(times),
        "runs": len(times),
        "peak_mb": peak_mb,
        "baseline": baseline,
        "ratio": ratio,
        "target": target,
        "notes": notes,
    }


def bench_exact(quick: bool) -> list[dict[str, Any]]:
    rows = []
    for n in (10**2, 10**4, 10**6, 10**7):
        runs = 5 if n >= 10**7 or quick else 9
        outcome(GAP, n)  # warm up
        times = _time(lambda n=n: outcome(GAP, n), runs)
        base = None
        note = f"win = {outcome(GAP, n).win:.12g}"
        if n <= 10**4:
            base = _time(lambda n=n: convolution_win(GAP.x, GAP.y, GAP.z, n), 5)
            diff = abs(convolution_win(GAP.x, GAP.y, GAP.z, n) - outcome(GAP, n).win)
            note += f"; |ours − convolution| = {diff:.1e}"
        rows.append(
            _row(
                f"exact win probability n=1e{int(np.log10(n))}",
                times,
                baseline="iterated convolution (numpy.convolve, squaring)" if base else None,
                base_times=base,
                target="< 0.01 s" if n == 10**6 else None,
                notes=note,
            )
        )
    return rows


def bench_sweep(quick: bool) -> list[dict[str, Any]]:
    from humanly.budget import _kernel

    spec = SweepSpec()  # the paper's full sweep
    chunk = 1234
    cfg = chunk_configs(spec, chunk)
    per_chunk = cfg.shape[0]
    total = per_chunk * spec.n_chunks
    size = 512 if quick else 4096
    base_size = 64 if quick else 256  # the reference path is ~100x slower: a smaller sample
    pick = np.sort(np.random.default_rng(0).choice(per_chunk, size, replace=False))
    sample = cfg[
        pick
    ]  # a seeded random sample of the chunk (its first rows are the weakest classifiers)
    pairs = len(spec.n_items) * len(spec.labels_per_item)
    runs = 5
    compiled = _kernel.AVAILABLE
    if compiled:
        _probabilities(sample[:8], spec, compiled=True)  # numba compiles (or loads its cache) once
    times = _time(lambda: _probabilities(sample, spec), runs)
    tracemalloc.start()
    _probabilities(sample, spec)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    med = statistics.median(times)
    rate = size / med
    # baseline in the same run: the vectorised special-function path (exact.outcomes), per configuration
    base_sample = sample[:base_size]
    base = _time(lambda: _probabilities(base_sample, spec, compiled=False), 3 if quick else 5)
    base_scaled = [t * size / base_size for t in base]
    hours_2 = total / rate / 2 / 3600
    met = hours_2 <= 1
    how = "numba kernel" if compiled else "exact.outcomes (numba not installed)"
    rows = []
    if compiled and not quick:
        rows.append(_cluster_row(spec))
    return [
        *rows,
        _row(
            f"sweep: {size} configurations × {pairs} (n, m) pairs ({how})",
            times,
            baseline=f"exact.outcomes per term (Boost betainc), {base_size} configurations, scaled"
            if compiled
            else None,
            base_times=base_scaled if compiled else None,
            target="full sweep < 1 h on 2 cores",
            peak_mb=peak,
            notes=f"{rate:,.0f} configurations/s per core ({rate * pairs * 2:,.0f} probabilities/s); "
            f"full sweep = {total:,} configurations ({total * pairs:,} pairs) → projected "
            f"{hours_2:,.2f} h on 2 cores (target {'met' if met else 'NOT met'})",
        ),
    ]


def _cluster_row(spec: SweepSpec, chunks: int = 12) -> dict[str, Any]:
    """Whole chunks on a warm 2-worker LocalCluster (after one warm-up chunk per worker): the measured
    parallel scaling behind the projection."""
    from humanly._core.parallel import dask_client
    from humanly.budget import run_sweep

    pick = [
        int(c) for c in np.random.default_rng(1).choice(spec.n_chunks, chunks + 2, replace=False)
    ]
    with dask_client(workers=2) as client:
        run_sweep(spec, chunks=pick[:2], client=client, show_progress=False)
        times = _time(
            lambda: run_sweep(spec, chunks=pick[2:], client=client, show_progress=False), 1
        )
    per_chunk = times[0] / chunks
    hours = per_chunk * spec.n_chunks / 3600
    return _row(
        f"sweep: {chunks} whole chunks on a warm 2-worker LocalCluster",
        times,
        target="full sweep < 1 h on 2 cores",
        notes=f"{per_chunk:.2f} s per chunk of 65,289 configurations → full sweep (2,500 chunks) "
        f"projected {hours:.2f} h on this machine (target {'met' if hours <= 1 else 'NOT met'})",
    )


def bench_latent(quick: bool) -> list[dict[str, Any]]:
    """The latent-class pilot fit with 200 bootstrap replicates (one batch), SQUAREM vs plain EM."""
    from humanly.budget import latent
    from humanly.simulate import pair

    rows = []
    for n, k in ((6000, 3), (2000, 5)):
        data = pair(n, k, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=1)
        preds = data.predictions
        pat = latent.patterns(data.ratings.counts, preds.hard("better"), preds.hard("worse"))
        rng = np.random.default_rng(0)
        reps = 50 if quick else 200
        weights = np.stack(
            [
                np.bincount(pat.inverse[rng.integers(0, n, n)], minlength=len(pat.freq))
                for _ in range(reps)
            ]
        ).astype(float)
        fast = _time(lambda w=weights, p=pat: latent.run_em(p, w), 3)
        slow = _time(
            lambda w=weights, p=pat: latent.run_em(p, w, accelerate=False), 1 if quick else 3
        )
        em = latent.run_em(pat, weights)
        plain = latent.run_em(pat, weights, accelerate=False)
        rows.append(
            _row(
                f"latent pilot: {reps} bootstrap fits, {n} items × {k} labels",
                fast,
                baseline="plain EM, same batch",
                base_times=slow,
                notes=f"EM steps median {np.median(em.iterations):.0f} "
                f"(plain {np.median(plain.iterations):.0f}); all converged: "
                f"{bool(em.converged.all())} (plain {bool(plain.converged.all())})",
            )
        )
    return rows


def run(quick: bool = False) -> list[dict[str, Any]]:
    """All measurements (the lead's benchmarks/run.py aggregates these)."""
    return bench_exact(quick) + bench_latent(quick) + bench_sweep(quick)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer runs and a smaller sweep sample"
    )
    args = parser.parse_args()
    for r in run(args.quick):
        ratio = f"  ×{r['ratio']:.1f} vs {r['baseline']}" if r["ratio"] else ""
        peak = f"  peak {r['peak_mb']:.0f} MB" if r["peak_mb"] is not None else ""
        print(
            f"{r['name']:<48} median {r['median_s'] * 1e3:10.2f} ms "
            f"(min {r['min_s'] * 1e3:.2f}, max {r['max_s'] * 1e3:.2f}, {r['runs']} runs){peak}{ratio}"
        )
        if r["target"]:
            print(f"{'':<48} target {r['target']}")
        if r["notes"]:
            print(f"{'':<48} {r['notes']}")


if __name__ == "__main__":
    main()
